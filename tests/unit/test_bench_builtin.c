/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_bench_builtin.c - builtin-st and builtin-mt run, pass their own self-check, report four
   sub-scores whose geometric mean is the score, and refuse what they cannot take (speed is
   measured by make bench, not tested). */
#include <math.h>
#include <string.h>

#include "bench/bench.h"
#include "check.h"

extern const bench_def bench_builtin_st;
extern const bench_def bench_builtin_mt;

static int run_builtin(const char *arg, double work_scale, bench_result *result, ts_err *err) {
  bench_args args = {arg, work_scale, NULL, 0, NULL};
  memset(result, 0, sizeof *result);
  memset(err, 0, sizeof *err);
  return bench_builtin_st.run(&args, result, err);
}

/* A passing run is also the checksum test: run() fails with TS_EBENCH when one round of any
   kernel gives other than the checksum recorded in builtin.c. */
static void small_run_succeeds_with_four_subscores(void) {
  static const char *const kernels[] = {"integer", "compress", "float", "memory"};
  bench_result result;
  ts_err err;
  int rc = run_builtin(NULL, 0.02, &result, &err);
  if (rc)
    fprintf(stderr, "  run failed: %s\n", err.text);
  CHECK_INT(rc, 0);
  CHECK(result.score > 0);
  CHECK(result.seconds > 0);
  CHECK(result.unit != NULL && strcmp(result.unit, "index") == 0);
  CHECK_INT(result.subscore_count, 4);
  for (int i = 0; i < 4 && i < result.subscore_count; i++) {
    CHECK(result.subscores[i].name && strcmp(result.subscores[i].name, kernels[i]) == 0);
    CHECK(result.subscores[i].score > 0);
  }
}

/* The geometric mean of the kernels' ratios between two results; the ratio of their scores must
   be that, whatever the fixed references the scores are formed with. */
static double kernels_geometric_ratio(const bench_result *a, const bench_result *b) {
  double log_sum = 0.0;
  for (int k = 0; k < 4; k++)
    log_sum += log(a->subscores[k].score / b->subscores[k].score);
  return exp(log_sum / 4);
}

/* Each kernel weighs the same in the score: two runs' scores differ by the geometric mean of their
   kernels' ratios (runs on a busy machine differ by kernel, so a score weighted any other way,
   e.g. the total work over the total time, fails this). Also from builtin-mt's sub-scores. */
static void score_is_the_geometric_mean_of_the_kernels(void) {
  bench_result first, second, threads;
  ts_err err;
  REQUIRE(run_builtin(NULL, 0.02, &first, &err) == 0);
  REQUIRE(run_builtin(NULL, 0.02, &second, &err) == 0);
  REQUIRE(first.subscore_count == 4 && second.subscore_count == 4);
  CHECK_REL(first.score / second.score, kernels_geometric_ratio(&first, &second), 1e-9);
  bench_args args = {"2", 0.02, NULL, 0, NULL};
  REQUIRE(bench_builtin_mt.run(&args, &threads, &err) == 0);
  REQUIRE(threads.subscore_count == 4);
  CHECK_REL(threads.score / first.score, kernels_geometric_ratio(&threads, &first), 1e-9);
}

static void argument_is_refused(void) {
  bench_result result;
  ts_err err;
  CHECK(bench_builtin_st.check_arg == NULL);
  CHECK_INT(run_builtin("4", 0.02, &result, &err), TS_EUSAGE);
  CHECK_INT(err.code, TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "builtin-st takes no argument (got '4')");
}

static void zero_or_negative_work_scale_is_refused(void) {
  bench_result result;
  ts_err err;
  CHECK_INT(run_builtin(NULL, 0.0, &result, &err), TS_EINVAL);
  CHECK_INT(err.code, TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "builtin-st");
  CHECK_INT(run_builtin(NULL, -1.0, &result, &err), TS_EINVAL);
}

static void is_available_everywhere(void) {
  CHECK(strcmp(bench_builtin_st.name, "builtin-st") == 0);
  CHECK(bench_builtin_st.unavailable_reason() == NULL);
}

static int run_mt(const char *arg, double work_scale, bench_result *result, ts_err *err) {
  bench_args args = {arg, work_scale, NULL, 0, NULL};
  memset(result, 0, sizeof *result);
  memset(err, 0, sizeof *err);
  return bench_builtin_mt.run(&args, result, err);
}

static void mt_two_threads_succeed_with_four_subscores(void) {
  static const char *const kernels[] = {"integer", "compress", "float", "memory"};
  bench_result result;
  ts_err err;
  int rc = run_mt("2", 0.02, &result, &err);
  if (rc)
    fprintf(stderr, "  run failed: %s\n", err.text);
  CHECK_INT(rc, 0);
  CHECK(result.score > 0);
  CHECK(result.seconds > 0);
  CHECK(result.unit != NULL && strcmp(result.unit, "index") == 0);
  CHECK_INT(result.subscore_count, 4);
  for (int i = 0; i < 4 && i < result.subscore_count; i++) {
    CHECK(result.subscores[i].name && strcmp(result.subscores[i].name, kernels[i]) == 0);
    CHECK(result.subscores[i].score > 0);
  }
}

/* Without an argument it takes one thread per logical CPU. */
static void mt_default_thread_count_runs(void) {
  bench_result result;
  ts_err err;
  int rc = run_mt(NULL, 0.01, &result, &err);
  if (rc)
    fprintf(stderr, "  run failed: %s\n", err.text);
  CHECK_INT(rc, 0);
  CHECK(result.score > 0);
}

static void mt_bad_thread_counts_are_refused(void) {
  ts_err err;
  REQUIRE(bench_builtin_mt.check_arg != NULL);
  CHECK_INT(bench_builtin_mt.check_arg("0", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text,
                     "builtin-mt's thread count: 0 is out of range (accepted: 1 to 1024)");
  CHECK_INT(bench_builtin_mt.check_arg("x", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "'x' is not a whole number");
  CHECK_INT(bench_builtin_mt.check_arg("1025", &err), TS_EUSAGE);
  CHECK_INT(bench_builtin_mt.check_arg("1024", &err), 0);
  CHECK_INT(bench_builtin_mt.check_arg(NULL, &err), 0);
  bench_result result;
  CHECK_INT(run_mt("x", 0.02, &result, &err), TS_EUSAGE);
  CHECK_INT(run_mt("2", 0.0, &result, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "builtin-mt: work scale 0 is out of range");
  const char *arg;
  CHECK(bench_find("builtin-mt:0", &arg, &err) == NULL);
  CHECK_INT(err.code, TS_EUSAGE);
  CHECK(bench_find("builtin-mt:3", &arg, &err) == &bench_builtin_mt);
  CHECK(arg && strcmp(arg, "3") == 0);
}

/* Twice the rounds should take about twice the time. A shared machine can stall either run, so
   each side takes its fastest of three tries and the bounds are wide. */
int main(void) {
  RUN_CASE(small_run_succeeds_with_four_subscores);
  RUN_CASE(score_is_the_geometric_mean_of_the_kernels);
  RUN_CASE(argument_is_refused);
  RUN_CASE(zero_or_negative_work_scale_is_refused);
  RUN_CASE(is_available_everywhere);
  RUN_CASE(mt_two_threads_succeed_with_four_subscores);
  RUN_CASE(mt_default_thread_count_runs);
  RUN_CASE(mt_bad_thread_counts_are_refused);
  return check_summary();
}
