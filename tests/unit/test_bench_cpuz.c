/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_bench_cpuz.c - the cpuz benchmark: its parser on a result file as `cpuz.exe -bench` writes
   it (argv[1]: the fixture folder) and on variants, its argument, and why it does not run here
   (not Windows, or CPU-Z not installed, as under Wine). */
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/cpuz.h"
#include "check.h"
#include "threadsoup/plat.h"

extern const bench_def bench_cpuz;

static const char *fixture_dir = ".";

static void parses_the_result_file(void) {
  char path[PLAT_PATH_MAX], text[4096];
  snprintf(path, sizeof path, "%s/DESKTOP-7Q4M2LK.txt", fixture_dir);
  FILE *f = fopen(path, "rb");
  REQUIRE(f != NULL);
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  bench_result r;
  ts_err err;
  CHECK_INT(cpuz_parse(text, 0, &r, &err), TS_OK);
  CHECK(r.score == 232.8);
  CHECK(r.unit && strcmp(r.unit, "points") == 0);
  CHECK_INT(r.subscore_count, 1);
  CHECK(strcmp(r.subscores[0].name, "multi_thread") == 0);
  CHECK(r.subscores[0].score == 1186.4);
  CHECK_INT(cpuz_parse(text, 1, &r, &err), TS_OK);
  CHECK(r.score == 1186.4);
  CHECK(strcmp(r.subscores[0].name, "single_thread") == 0);
  CHECK(r.subscores[0].score == 232.8);
}

static void parses_variants(void) {
  bench_result r;
  ts_err err;
  CHECK_INT(cpuz_parse("512,8012.5\n", 1, &r, &err), TS_OK); /* unquoted */
  CHECK(r.score == 8012.5);
  CHECK_INT(cpuz_parse("\"452,1\",\"3381,2\"", 0, &r, &err), TS_OK); /* decimal commas */
  CHECK(r.score == 452.1);
  CHECK(r.subscores[0].score == 3381.2);
  CHECK_INT(cpuz_parse("CPU-Z\r\n\"1\",\"2\"\r\n\"300.5\" , \"2400\"\r\n", 0, &r, &err), TS_OK);
  CHECK(r.score == 300.5); /* the last line of scores */
}

static void refuses_other_files(void) {
  bench_result r;
  ts_err err;
  CHECK_INT(cpuz_parse("", 0, &r, &err), TS_EBENCH);
  CHECK_STR_CONTAINS(err.text, "no line of two scores");
  CHECK_INT(cpuz_parse("Processors Information\r\nscore,none\r\n", 0, &r, &err), TS_EBENCH);
  CHECK_STR_CONTAINS(err.text, "(it begins: 'Processors Information')");
  CHECK_INT(cpuz_parse("\"0\",\"0\"", 0, &r, &err), TS_EBENCH);
}

static void argument_is_single_or_multi(void) {
  ts_err err;
  CHECK_INT(bench_cpuz.check_arg(NULL, &err), TS_OK);
  CHECK_INT(bench_cpuz.check_arg("single", &err), TS_OK);
  CHECK_INT(bench_cpuz.check_arg("multi", &err), TS_OK);
  CHECK_INT(bench_cpuz.check_arg("both", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "cpuz: 'both' is not a score (accepted: single, multi)");
}

/* Here means Linux (Windows only) or Wine (no CPU-Z installed): never available, always said why
   and how to get its scores anyway. */
static void unavailable_here_with_a_reason(void) {
  const char *why = bench_cpuz.unavailable_reason();
  REQUIRE(why != NULL);
  if (strstr(why, "Windows only"))
    CHECK_STR_CONTAINS(why, "CPU-Z runs on Windows only; record its scores by hand with "
                            "threadsoup record");
  else
    CHECK_STR_CONTAINS(why, "CPU-Z not found in C:\\Program Files\\CPUID\\CPU-Z\\cpuz.exe");
  const char *settings[] = {"no-such-folder\\cpuz.exe"};
  bench_args args = {NULL, 1.0, settings, 0, NULL};
  bench_result r;
  ts_err err;
  CHECK_INT(bench_cpuz.run(&args, &r, &err), TS_EUNSUPPORTED);
  const char *arg;
  CHECK(bench_find("cpuz:multi", &arg, &err) == NULL);
  CHECK_INT(err.code, TS_EUNSUPPORTED);
  CHECK_STR_CONTAINS(err.text, "benchmark 'cpuz' is not available here: CPU-Z ");
  /* Its path given, it is found (the run then says whether the program is there), and its
     argument is still checked. */
  CHECK(bench_find_with("cpuz:multi", settings, &arg, &err) == &bench_cpuz);
  CHECK_STR_CONTAINS(arg, "multi");
  CHECK(bench_find_with("cpuz:both", settings, &arg, &err) == NULL);
  CHECK_INT(err.code, TS_EUSAGE);
  const char *none[] = {""};
  CHECK(bench_find_with("cpuz", none, &arg, &err) == NULL);
  CHECK_INT(err.code, TS_EUNSUPPORTED);
}

int main(int argc, char **argv) {
  if (argc > 1)
    fixture_dir = argv[1];
  RUN_CASE(parses_the_result_file);
  RUN_CASE(parses_variants);
  RUN_CASE(refuses_other_files);
  RUN_CASE(argument_is_single_or_multi);
  RUN_CASE(unavailable_here_with_a_reason);
  return check_summary();
}
