/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* cpuz.c - cpuz[:single|multi], the original experiment's other benchmark: CPU-Z's command-line
   benchmark (`cpuz.exe -bench`), on Windows only; elsewhere its scores are recorded by hand.

   `cpuz.exe -bench` shows no window: it runs the single-thread and the multi-thread benchmark,
   writes both scores into a text file named after the computer (%COMPUTERNAME%.txt, a line such as
   "452.1","3381.2") in its own folder, and exits. CPU-Z asks for administrator rights, so the run
   needs them too (the service has them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuz.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

#define CPUZ_DEFAULT_TIMEOUT_NS (10 * TS_NS_PER_MIN)
#define CPUZ_RESULT_MAX 65536 /* the result file is one line; anything bigger is not it */
#define LINE_SHOWN_MAX 80

static const char default_path[] = "C:\\Program Files\\CPUID\\CPU-Z\\cpuz.exe";
static const char windows_only[] =
    "CPU-Z runs on Windows only; record its scores by hand with threadsoup record";

/* ---- parsing -------------------------------------------------------------------------------- */

/* One score, quoted or not, ending at `end` (exclusive). A decimal comma is only possible inside
   quotes, where it cannot be the separator. */
static int read_score(const char *from, const char *end, double *score) {
  char text[64];
  while (from < end && (*from == ' ' || *from == '\t'))
    from++;
  while (end > from && (end[-1] == ' ' || end[-1] == '\t'))
    end--;
  if (end - from >= 2 && *from == '"' && end[-1] == '"') {
    from++;
    end--;
  }
  size_t n = (size_t)(end - from);
  if (n == 0 || n >= sizeof text)
    return 0;
  for (size_t i = 0; i < n; i++)
    text[i] = from[i] == ',' ? '.' : from[i];
  text[n] = '\0';
  char *stop;
  double value = strtod(text, &stop);
  if (*stop || !(value > 0))
    return 0;
  *score = value;
  return 1;
}

/* A line of two scores: "single","multi" or single,multi. */
static int read_line(const char *line, const char *end, double *single, double *multi) {
  const char *separator;
  if (*line == '"') {
    const char *close = memchr(line + 1, '"', (size_t)(end - line - 1));
    if (!close)
      return 0;
    separator = close + 1;
    while (separator < end && *separator == ' ')
      separator++;
    if (separator >= end || *separator != ',')
      return 0;
  } else {
    separator = memchr(line, ',', (size_t)(end - line));
    if (!separator)
      return 0;
  }
  return read_score(line, separator, single) && read_score(separator + 1, end, multi);
}

int cpuz_parse(const char *text, int multi, bench_result *out, ts_err *err) {
  double single_score = 0, multi_score = 0;
  int found = 0;
  for (const char *line = text; *line;) {
    size_t n = strcspn(line, "\r\n");
    double s, m;
    if (n > 0 && read_line(line, line + n, &s, &m)) {
      single_score = s;
      multi_score = m;
      found = 1;
    }
    line += n;
    while (*line == '\r' || *line == '\n')
      line++;
  }
  if (!found) {
    size_t n = strcspn(text, "\r\n");
    return ts_err_set(err, TS_EBENCH,
                      "CPU-Z's result file has no line of two scores such as \"452.1\",\"3381.2\" "
                      "(it begins: '%.*s')",
                      (int)(n < LINE_SHOWN_MAX ? n : LINE_SHOWN_MAX), text);
  }
  memset(out, 0, sizeof *out);
  out->score = multi ? multi_score : single_score;
  out->unit = "points";
  out->subscore_count = 1;
  out->subscores[0] = multi ? (bench_subscore){"single_thread", single_score}
                            : (bench_subscore){"multi_thread", multi_score};
  return TS_OK;
}

/* ---- the benchmark -------------------------------------------------------------------------- */

/* Windows programs end in .exe: that, not the compiler, says whether CPU-Z can run here. */
static int on_windows(void) {
  char name[16];
  plat_program_name("cpuz", name, sizeof name);
  return strcmp(name, "cpuz") != 0;
}

static const char *cpuz_unavailable_reason(void) {
  static char reason[512]; /* static: the interface returns a sentence the caller keeps */
  if (!on_windows())
    return windows_only;
  if (plat_file_exists(default_path))
    return NULL;
  snprintf(reason, sizeof reason,
           "CPU-Z not found in %s; install it from https://www.cpuid.com, give its path with "
           "--cpuz PATH, or record its scores by hand with threadsoup record",
           default_path);
  return reason;
}

static int cpuz_check_arg(const char *arg, ts_err *err) {
  if (!arg || strcmp(arg, "single") == 0 || strcmp(arg, "multi") == 0)
    return TS_OK;
  return ts_err_set(err, TS_EUSAGE, "cpuz: '%s' is not a score (accepted: single, multi)", arg);
}

/* Reads a whole small file; NULL when it does not exist or cannot be read. */
static char *read_file(const char *path) {
  FILE *f = plat_fopen(path, "rb");
  if (!f)
    return NULL;
  char *text = malloc(CPUZ_RESULT_MAX);
  size_t n = text ? fread(text, 1, CPUZ_RESULT_MAX - 1, f) : 0;
  fclose(f);
  if (text)
    text[n] = '\0';
  return text;
}

static int cpuz_run(const bench_args *args, bench_result *out, ts_err *err) {
  if (cpuz_check_arg(args->arg, err) != TS_OK)
    return err->code;
  if (!on_windows())
    return ts_err_set(err, TS_EUNSUPPORTED, "%s", windows_only);
  const char *program = bench_args_setting(args, 0) ? bench_args_setting(args, 0) : default_path;
  if (!plat_file_exists(program))
    return ts_err_set(err, TS_EUNSUPPORTED,
                      "CPU-Z not found in %s; install it from https://www.cpuid.com or give its "
                      "path with --cpuz PATH",
                      program);
  char computer[256], folder[PLAT_PATH_MAX];
  if (!plat_getenv("COMPUTERNAME", computer, sizeof computer))
    return ts_err_set(err, TS_EBENCH,
                      "cpuz: COMPUTERNAME is not set, so CPU-Z's result file "
                      "(COMPUTERNAME.txt) cannot be found");
  /* CPU-Z writes into its own folder, which is also the folder it is usually started from; the
     current folder is looked at too. Old files go first, so that no stale score is read. */
  char results[2][PLAT_PATH_MAX + 300];
  plat_path_dirname(program, folder, sizeof folder);
  snprintf(results[0], sizeof results[0], "%s%s%s.txt", folder, *folder ? "\\" : "", computer);
  snprintf(results[1], sizeof results[1], "%s.txt", computer);
  remove(results[0]);
  remove(results[1]);

  const char *const argv[] = {program, "-bench", NULL};
  char output[4096]; /* CPU-Z prints nothing; this only catches surprises */
  int exit_code = 0;
  char throttling[PLAT_BENCH_TEXT_MAX] = "";
  uint64_t timeout = args->timeout_ns ? args->timeout_ns : CPUZ_DEFAULT_TIMEOUT_NS;
  uint64_t started = plat_clock_ns();
  int rc = plat_proc_run_as_benchmark(argv, args->cancel, output, sizeof output, NULL, timeout,
                                      &exit_code, throttling, sizeof throttling, err);
  uint64_t elapsed = plat_clock_ns() - started;
  if (rc != TS_OK)
    return ts_err_prefix(err, "cpuz");
  if (exit_code != 0)
    return ts_err_set(err, TS_EBENCH, "cpuz: %s -bench exited with code %d", program, exit_code);
  char *text = read_file(results[0]);
  if (!text)
    text = read_file(results[1]);
  if (!text)
    return ts_err_set(err, TS_EBENCH, "cpuz: CPU-Z wrote no result file (looked for %s and %s)",
                      results[0], results[1]);
  rc = cpuz_parse(text, args->arg && strcmp(args->arg, "multi") == 0, out, err);
  free(text);
  if (rc != TS_OK)
    return ts_err_prefix(err, "cpuz");
  out->seconds = (double)elapsed / TS_NS_PER_S;
  snprintf(out->power_throttling, sizeof out->power_throttling, "%s", throttling);
  return TS_OK;
}

static const bench_setting cpuz_settings[] = {
    {.key = "cpuz",
     .kind = BENCH_SETTING_PATH,
     .help = "where CPU-Z is (cpuz.exe); searched for when not given"},
    {.key = NULL},
};

const bench_def bench_cpuz = {
    .name = "cpuz",
    .forms = "cpuz[:single or multi]",
    .help = "CPU-Z's benchmark (cpuz.exe -bench), Windows only: cpuz:single (default) or "
            "cpuz:multi picks the score, the other is kept as a sub-score",
    .unavailable_reason = cpuz_unavailable_reason,
    .check_arg = cpuz_check_arg,
    .run = cpuz_run,
    .settings = cpuz_settings,
};
