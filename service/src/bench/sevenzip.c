/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* sevenzip.c - 7zip[:THREADS], the benchmark of the original experiment: 7-Zip's own LZMA
   benchmark (`7z b -mmtN -md22`), scored by its Tot: rating in MIPS. */
#include "sevenzip.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threadsoup/parse.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

#define SEVENZIP_DEFAULT_THREADS 4 /* the experiment's -mmt4 */
#define SEVENZIP_MAX_THREADS 256
#define SEVENZIP_DEFAULT_TIMEOUT_NS (10 * TS_NS_PER_MIN)
/* The report is about 1.5 KB; room for much more keeps an unexpected preamble readable. */
#define SEVENZIP_OUTPUT_MAX 65536
#define LINE_SHOWN_MAX 120 /* how much of a bad line an error message quotes */
#define NUMBERS_MAX 8

static const char *const posix_names[] = {"7zz", "7z", "7za"}; /* 7-Zip's own build first */
static const char *const windows_places[] = {
    "C:\\Program Files\\7-Zip\\7z.exe",
    "C:\\Program Files (x86)\\7-Zip\\7z.exe",
};

/* ---- parsing -------------------------------------------------------------------------------- */

/* The line starting at `line` up to its end, without the line break. */
static size_t line_length(const char *line) {
  size_t n = strcspn(line, "\n");
  if (n > 0 && line[n - 1] == '\r')
    n--;
  return n;
}

static int unreadable(const char *line, const char *expected, ts_err *err) {
  size_t n = line_length(line);
  return ts_err_set(err, TS_EBENCH, "7-Zip output: cannot read the line '%.*s' (expected %s)",
                    (int)(n < LINE_SHOWN_MAX ? n : LINE_SHOWN_MAX), line, expected);
}

/* Reads the whitespace-separated numbers in [from, to); returns how many, or -1 when something
   else is there. */
static int read_numbers(const char *from, const char *to, double *numbers, int max) {
  int count = 0;
  const char *p = from;
  for (;;) {
    while (p < to && (*p == ' ' || *p == '\t'))
      p++;
    if (p >= to)
      return count;
    char *end;
    double value = strtod(p, &end);
    if (end == p || end > to || (end < to && *end != ' ' && *end != '\t') || count == max)
      return -1;
    numbers[count++] = value;
    p = end;
  }
}

int sevenzip_parse(const char *output, bench_result *out, ts_err *err) {
  const char *tot = NULL, *avr = NULL;
  for (const char *line = output; *line;) {
    if (strncmp(line, "Tot:", 4) == 0)
      tot = line;
    else if (strncmp(line, "Avr:", 4) == 0)
      avr = line;
    const char *next = strchr(line, '\n');
    if (!next)
      break;
    line = next + 1;
  }
  if (!tot)
    return ts_err_set(err, TS_EBENCH, "7-Zip output has no line starting with Tot: (%s)",
                      *output ? "it did not finish its benchmark" : "it printed nothing");

  /* "Tot:  usage  R/U  rating": older and newer versions print the same three columns. */
  double total[NUMBERS_MAX];
  const char *tot_end = tot + line_length(tot);
  int count = read_numbers(tot + 4, tot_end, total, NUMBERS_MAX);
  if (count < 3)
    return unreadable(tot, "three numbers after Tot:", err);
  if (!(total[2] > 0))
    return unreadable(tot, "a rating above 0", err);

  memset(out, 0, sizeof *out);
  out->score = total[2];
  out->unit = "MIPS";
  /* "Avr:  [speed] usage R/U rating  |  [speed] usage R/U rating": 16.02 has no speed column,
     21.x onwards has; either way each half's rating is its last number. */
  if (avr) {
    const char *avr_end = avr + line_length(avr);
    const char *bar = memchr(avr, '|', (size_t)(avr_end - avr));
    double compress[NUMBERS_MAX], decompress[NUMBERS_MAX];
    int left = bar ? read_numbers(avr + 4, bar, compress, NUMBERS_MAX) : -1;
    int right = bar ? read_numbers(bar + 1, avr_end, decompress, NUMBERS_MAX) : -1;
    if (left < 3 || right < 3)
      return unreadable(avr, "ratings on both sides of '|' after Avr:", err);
    out->subscores[out->subscore_count++] = (bench_subscore){"compress_mips", compress[left - 1]};
    out->subscores[out->subscore_count++] =
        (bench_subscore){"decompress_mips", decompress[right - 1]};
  }
  out->subscores[out->subscore_count++] = (bench_subscore){"usage_percent", total[0]};
  return TS_OK;
}

/* ---- finding 7-Zip -------------------------------------------------------------------------- */

/* Windows programs end in .exe: that, not the compiler, tells which places to search. */
static int on_windows(void) {
  char name[16];
  plat_program_name("7z", name, sizeof name);
  return strcmp(name, "7z") != 0;
}

/* Finds 7-Zip where it is usually installed; when it is not there, `tried` lists the places. */
static int find_sevenzip(char *path, size_t len, char *tried, size_t tried_len) {
  ts_err ignored;
  if (on_windows()) {
    if (plat_find_program("7z.exe", path, len, &ignored) == TS_OK)
      return 1;
    for (size_t i = 0; i < sizeof windows_places / sizeof windows_places[0]; i++) {
      if (plat_file_exists(windows_places[i])) {
        snprintf(path, len, "%s", windows_places[i]);
        return 1;
      }
    }
    snprintf(tried, tried_len, "7z.exe in PATH, %s, %s", windows_places[0], windows_places[1]);
    return 0;
  }
  for (size_t i = 0; i < sizeof posix_names / sizeof posix_names[0]; i++)
    if (plat_find_program(posix_names[i], path, len, &ignored) == TS_OK)
      return 1;
  snprintf(tried, tried_len, "7zz, 7z and 7za in PATH");
  return 0;
}

static const char *not_found_reason(void) {
  static char reason[512]; /* static: the interface returns a sentence the caller keeps */
  char path[PLAT_PATH_MAX], tried[256];
  if (find_sevenzip(path, sizeof path, tried, sizeof tried))
    return NULL;
  snprintf(reason, sizeof reason,
           "7-Zip not found (looked for %s); install it (%s) or give its "
           "path with --7zip PATH",
           tried, on_windows() ? "from https://7-zip.org" : "apt install 7zip");
  return reason;
}

/* ---- the benchmark -------------------------------------------------------------------------- */

static int sevenzip_check_arg(const char *arg, ts_err *err) {
  long threads;
  return arg ? ts_parse_long(arg, 1, SEVENZIP_MAX_THREADS, "7zip's thread count", &threads, err)
             : TS_OK;
}

static int sevenzip_run(const bench_args *args, bench_result *out, ts_err *err) {
  long threads = SEVENZIP_DEFAULT_THREADS;
  if (args->arg && ts_parse_long(args->arg, 1, SEVENZIP_MAX_THREADS, "7zip's thread count",
                                 &threads, err) != TS_OK)
    return err->code;
  char path[PLAT_PATH_MAX], tried[256];
  const char *given = bench_args_setting(args, 0);
  if (given) {
    if (plat_find_program(given, path, sizeof path, err) != TS_OK)
      return ts_err_prefix(err, "7zip (--7zip)");
  } else if (!find_sevenzip(path, sizeof path, tried, sizeof tried)) {
    return ts_err_set(err, TS_EUNSUPPORTED, "%s", not_found_reason());
  }

  /* A fixed 4 MiB dictionary (-md22) makes runs comparable across machines and versions, whose
     default dictionaries differ with the memory they find. */
  char mmt[16];
  snprintf(mmt, sizeof mmt, "-mmt%ld", threads);
  const char *const argv[] = {path, "b", mmt, "-md22", NULL};
  char *output = malloc(SEVENZIP_OUTPUT_MAX);
  if (!output)
    return ts_err_set(err, TS_ENOMEM, "7zip: no memory for its output");
  int exit_code = 0;
  char throttling[PLAT_BENCH_TEXT_MAX] = "";
  uint64_t timeout = args->timeout_ns ? args->timeout_ns : SEVENZIP_DEFAULT_TIMEOUT_NS;
  uint64_t started = plat_clock_ns();
  int rc = plat_proc_run_as_benchmark(argv, args->cancel, output, SEVENZIP_OUTPUT_MAX, NULL,
                                      timeout, &exit_code, throttling, sizeof throttling, err);
  uint64_t elapsed = plat_clock_ns() - started;
  if (rc != TS_OK) {
    free(output);
    return ts_err_prefix(err, "7zip");
  }
  rc = sevenzip_parse(output, out, err);
  if (rc == TS_OK && exit_code != 0)
    rc = ts_err_set(err, TS_EBENCH, "7-Zip reported an error");
  free(output);
  if (rc != TS_OK)
    return ts_err_prefix(err, "7zip: %s b %s -md22 exited with code %d", path, mmt, exit_code);
  out->seconds = (double)elapsed / TS_NS_PER_S;
  snprintf(out->power_throttling, sizeof out->power_throttling, "%s", throttling);
  return TS_OK;
}

static const bench_setting sevenzip_settings[] = {
    {.key = "7zip",
     .kind = BENCH_SETTING_PATH,
     .help = "where 7-Zip is (7z, 7zz or 7z.exe); searched for when not given"},
    {.key = NULL},
};

const bench_def bench_7zip = {
    .name = "7zip",
    .forms = "7zip[:N]",
    .help = "7-Zip's LZMA benchmark (7z b -mmtN -md22), the original experiment's; 7zip:N runs "
            "N threads (1 to 256, default 4); score: the Tot: rating in MIPS",
    .unavailable_reason = not_found_reason,
    .check_arg = sevenzip_check_arg,
    .run = sevenzip_run,
    .settings = sevenzip_settings,
};
