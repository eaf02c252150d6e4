/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_bench_sevenzip.c - the 7zip benchmark: its parser on recorded output of 7-Zip 16.02 to 26.02
   (argv[1]: the fixture folder), its refusals of bad output and arguments, and, when 7-Zip is
   installed (or argv[2] names it), one real `7zip:1` run.
   With --no-7zip as argv[1] it checks instead that a missing 7-Zip is reported well (CTest runs
   it so with an empty PATH). */
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/sevenzip.h"
#include "check.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

extern const bench_def bench_7zip;

static const char *fixture_dir = ".";
static const char *tool_path = NULL;

/* A whole fixture file, malloc'ed and NUL-terminated; NULL (and a failed check) when missing. */
static char *read_fixture(const char *name) {
  char path[PLAT_PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", fixture_dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "  cannot open fixture %s\n", path);
    check_failures_in_case++;
    return NULL;
  }
  char *text = calloc(1, 65536);
  size_t n = fread(text, 1, 65535, f);
  fclose(f);
  text[n] = '\0';
  return text;
}

static double subscore(const bench_result *r, const char *name) {
  for (int i = 0; i < r->subscore_count; i++)
    if (strcmp(r->subscores[i].name, name) == 0)
      return r->subscores[i].score;
  return -1;
}

/* The expected numbers are read off each fixture's Avr: and Tot: lines. */
static void check_fixture(const char *name, double tot, double compress, double decompress,
                          double usage) {
  char *text = read_fixture(name);
  if (!text)
    return;
  bench_result r;
  ts_err err;
  int rc = sevenzip_parse(text, &r, &err);
  if (rc)
    fprintf(stderr, "  %s: %s\n", name, err.text);
  CHECK_INT(rc, TS_OK);
  CHECK(r.score == tot);
  CHECK(r.unit && strcmp(r.unit, "MIPS") == 0);
  CHECK_INT(r.subscore_count, 3);
  CHECK(subscore(&r, "compress_mips") == compress);
  CHECK(subscore(&r, "decompress_mips") == decompress);
  CHECK(subscore(&r, "usage_percent") == usage);
  free(text);
}

static void parses_7zz_26_02_one_thread(void) {
  check_fixture("7zz-26.02-mmt1.txt", 3383, 3796, 2970, 98);
}

static void parses_7zz_26_02_four_threads(void) {
  check_fixture("7zz-26.02-mmt4.txt", 7728, 10391, 5064, 189);
}

static void parses_7zz_21_07(void) { check_fixture("7zz-21.07-mmt4.txt", 10185, 9970, 10399, 380); }

/* p7zip 16.02's Avr: line has no speed column; each side's rating is still its last number. */
static void parses_p7zip_16_02(void) {
  check_fixture("7z-16.02-p7zip-mmt4.txt", 9862, 9576, 10148, 377);
}

/* 7z.exe on Windows ends its lines with CR LF. */
static void parses_windows_line_ends(void) {
  char *text = read_fixture("7zz-26.02-mmt4.txt");
  if (!text)
    return;
  char *crlf = malloc(2 * strlen(text) + 1), *out = crlf;
  for (const char *p = text; *p; p++) {
    if (*p == '\n')
      *out++ = '\r';
    *out++ = *p;
  }
  *out = '\0';
  bench_result r;
  ts_err err;
  CHECK_INT(sevenzip_parse(crlf, &r, &err), TS_OK);
  CHECK(r.score == 7728);
  CHECK(subscore(&r, "decompress_mips") == 5064);
  free(crlf);
  free(text);
}

/* Several runs in one output (7z b 2 would print two tables): the last Tot: line counts. */
static void last_tot_line_wins(void) {
  bench_result r;
  ts_err err;
  const char *text = "Avr: 1 2 3 4 | 5 6 7 8\nTot: 10 20 30\n\nAvr: 1 2 3 40 | 5 6 7 80\n"
                     "Tot: 11 21 60\n";
  CHECK_INT(sevenzip_parse(text, &r, &err), TS_OK);
  CHECK(r.score == 60);
  CHECK(subscore(&r, "compress_mips") == 40);
  CHECK(subscore(&r, "decompress_mips") == 80);
}

static void refuse(const char *text, const char *expected) {
  bench_result r;
  ts_err err;
  memset(&err, 0, sizeof err);
  CHECK_INT(sevenzip_parse(text, &r, &err), TS_EBENCH);
  CHECK_STR_CONTAINS(err.text, expected);
}

static void malformed_output_is_refused_with_the_line(void) {
  refuse("", "no line starting with Tot: (it printed nothing)");
  refuse("\n7-Zip (z) 26.02\nERROR: Can't allocate required memory!\n",
         "no line starting with Tot: (it did not finish its benchmark)");
  refuse("Tot:             98   abc   3383\n",
         "cannot read the line 'Tot:             98   abc   3383' (expected three numbers");
  refuse("Tot:   98   3454\r\n", "cannot read the line 'Tot:   98   3454' (expected three");
  refuse("Tot: 0 0 0\n", "expected a rating above 0");
  refuse("Avr: 1 2 3 4 5 6 7 8\nTot: 1 2 3\n",
         "cannot read the line 'Avr: 1 2 3 4 5 6 7 8' (expected ratings on both sides of '|'");
  refuse("Avr: 1 2 3 4 | x\nTot: 1 2 3\n", "'Avr: 1 2 3 4 | x'");
}

static void thread_argument_is_checked(void) {
  ts_err err;
  CHECK_INT(bench_7zip.check_arg(NULL, &err), TS_OK);
  CHECK_INT(bench_7zip.check_arg("1", &err), TS_OK);
  CHECK_INT(bench_7zip.check_arg("256", &err), TS_OK);
  CHECK_INT(bench_7zip.check_arg("0", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "7zip's thread count: 0 is out of range (accepted: 1 to 256)");
  CHECK_INT(bench_7zip.check_arg("257", &err), TS_EUSAGE);
  CHECK_INT(bench_7zip.check_arg("four", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "'four' is not a whole number");
}

static void missing_tool_path_is_an_error(void) {
  const char *settings[] = {"no-such-folder/7zz"};
  bench_args args = {"1", 1.0, settings, 0, NULL};
  bench_result r;
  ts_err err;
  CHECK(bench_7zip.run(&args, &r, &err) != TS_OK);
  CHECK_STR_CONTAINS(err.text, "7zip (--7zip)");
  CHECK_STR_CONTAINS(err.text, "no-such-folder/7zz");
}

/* One real run, when 7-Zip is here: 7zip:1 takes about 10 s on a current core. */
static void real_run_scores_above_zero(void) {
  if (!tool_path && bench_7zip.unavailable_reason()) {
    printf("  skipped: %s\n", bench_7zip.unavailable_reason());
    return;
  }
  const char *settings[] = {tool_path};
  bench_args args = {"1", 1.0, settings, 4 * TS_NS_PER_MIN, NULL};
  bench_result r;
  ts_err err;
  memset(&r, 0, sizeof r);
  int rc = bench_7zip.run(&args, &r, &err);
  CHECK_INT(rc, TS_OK);
  if (rc) {
    fprintf(stderr, "  run failed: %s\n", err.text);
    return;
  }
  CHECK(r.score > 0);
  CHECK(r.seconds > 0);
  CHECK(subscore(&r, "compress_mips") > 0);
  CHECK(subscore(&r, "decompress_mips") > 0);
  printf("  7zip:1 scored %.0f MIPS in %.1f s\n", r.score, r.seconds);
}

/* Run with an empty PATH: the reason names every place looked at and how to get 7-Zip. */
static void missing_7zip_is_reported(void) {
  const char *why = bench_7zip.unavailable_reason();
  CHECK_STR_CONTAINS(why, "7-Zip not found (looked for ");
  CHECK_STR_CONTAINS(why, "7zz, 7z and 7za in PATH");
  CHECK_STR_CONTAINS(why, "apt install 7zip");
  CHECK_STR_CONTAINS(why, "--7zip PATH");
  bench_args args = {"1", 1.0, NULL, 0, NULL};
  bench_result r;
  ts_err err;
  CHECK_INT(bench_7zip.run(&args, &r, &err), TS_EUNSUPPORTED);
  CHECK_STR_CONTAINS(err.text, "7-Zip not found");
  const char *arg;
  CHECK(bench_find("7zip:2", &arg, &err) == NULL);
  CHECK_INT(err.code, TS_EUNSUPPORTED);
  CHECK_STR_CONTAINS(err.text, "benchmark '7zip' is not available here: 7-Zip not found");
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--no-7zip") == 0) {
    RUN_CASE(missing_7zip_is_reported);
    return check_summary();
  }
  if (argc > 1)
    fixture_dir = argv[1];
  if (argc > 2)
    tool_path = argv[2];
  RUN_CASE(parses_7zz_26_02_one_thread);
  RUN_CASE(parses_7zz_26_02_four_threads);
  RUN_CASE(parses_7zz_21_07);
  RUN_CASE(parses_p7zip_16_02);
  RUN_CASE(parses_windows_line_ends);
  RUN_CASE(last_tot_line_wins);
  RUN_CASE(malformed_output_is_refused_with_the_line);
  RUN_CASE(thread_argument_is_checked);
  RUN_CASE(missing_tool_path_is_an_error);
  RUN_CASE(real_run_scores_above_zero);
  return check_summary();
}
