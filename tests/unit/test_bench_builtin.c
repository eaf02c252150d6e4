/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_bench_builtin.c - builtin-st and builtin-mt run, pass their own self-check, report four
   sub-scores whose geometric mean is the score, and refuse what they cannot take (speed is
   measured by make bench, not tested); by default in a child process of threadsoup, whose output
   is read strictly and which a timeout or a cancel kills. This program is also the child that
   prints bad output or never ends (--child). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/child.h"
#include "check.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

extern const bench_def bench_builtin_st;
extern const bench_def bench_builtin_mt;

/* The built-in benchmarks' `process` setting, in their one row's place. */
static const char *const in_this_process[] = {"same"};
static const char *const in_a_child[] = {"separate"};

static int run_builtin(const char *arg, double work_scale, bench_result *result, ts_err *err) {
  bench_args args = {arg, work_scale, in_this_process, 0, NULL};
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
  bench_args args = {"2", 0.02, in_this_process, 0, NULL};
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
  bench_args args = {arg, work_scale, in_this_process, 0, NULL};
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

/* ---- the child process ---------------------------------------------------------------------- */

static const char *const kernels[] = {"integer", "compress", "float", "memory"};
static const bench_child_expect expect = {"index", kernels, 4};

/* The CPU time this process spent on a run (-1: it failed): the kernels' work shows here only
   when they ran in this process. The same work costs the same CPU time however busy the machine
   is, where its share of the wall time would not. */
static double own_cpu_seconds(const bench_def *b, const char *arg, const char *const *settings,
                              bench_result *r, ts_err *err) {
  /* Enough work to stand well above starting a child, which costs Wine about 0.03 s of CPU. */
  bench_args args = {arg, 0.25, settings, 0, NULL};
  uint64_t before = plat_process_cpu_ns();
  int rc = b->run(&args, r, err);
  uint64_t spent = plat_process_cpu_ns() - before;
  if (rc)
    fprintf(stderr, "  run failed: %s\n", err->text);
  return rc ? -1 : (double)spent / TS_NS_PER_S;
}

/* By default the kernels run in a child (threadsoup bench-child), whose result comes back whole:
   the sub-scores by name, the score their geometric mean as in this process, where it ran. */
static void a_child_runs_the_kernels_and_its_scores_come_back(void) {
  bench_result child, here;
  ts_err err;
  double child_cpu = own_cpu_seconds(&bench_builtin_st, NULL, NULL, &child, &err);
  double here_cpu = own_cpu_seconds(&bench_builtin_st, NULL, in_this_process, &here, &err);
  REQUIRE(child_cpu >= 0 && here_cpu >= 0);
  if (child_cpu >= here_cpu / 4)
    fprintf(stderr, "  CPU time here: %.3f s with a child, %.3f s without\n", child_cpu, here_cpu);
  CHECK(child_cpu < here_cpu / 4); /* the work was another process's */
  CHECK(child.unit && strcmp(child.unit, "index") == 0);
  REQUIRE(child.subscore_count == 4);
  for (int k = 0; k < 4; k++)
    CHECK(strcmp(child.subscores[k].name, kernels[k]) == 0 && child.subscores[k].score > 0);
  CHECK(child.seconds > 0 && child.power_throttling[0] && child.core_classes[0]);
  CHECK_REL(child.score / here.score, kernels_geometric_ratio(&child, &here), 1e-9);
  REQUIRE(own_cpu_seconds(&bench_builtin_mt, "2", in_a_child, &child, &err) >= 0);
  CHECK_INT(child.subscore_count, 4);
  CHECK(child.score > 0);
  /* The argument and the work scale are refused before any child starts. */
  bench_args bad = {"x", 0.02, in_a_child, 0, NULL};
  CHECK_INT(bench_builtin_mt.run(&bad, &child, &err), TS_EUSAGE);
  bad = (bench_args){NULL, 0.0, in_a_child, 0, NULL};
  CHECK_INT(bench_builtin_st.run(&bad, &child, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "builtin-st: work scale 0 is out of range");
}

/* This program, started as a child that misbehaves in the way `mode` names. */
static int run_this_as_child(const char *mode, uint64_t timeout_ns, const plat_cancel *cancel,
                             bench_result *r, ts_err *err) {
  char dir[PLAT_PATH_MAX], name[64], program[PLAT_PATH_MAX + 80];
  if (plat_program_dir(dir, sizeof dir, err) != TS_OK)
    return err->code;
  plat_program_name("test_bench_builtin", name, sizeof name);
  snprintf(program, sizeof program, "%s%c%s", dir, plat_path_separator(), name);
  const char *argv[] = {program, "--child", mode, NULL};
  bench_args args = {NULL, 1.0, NULL, timeout_ns, cancel};
  return bench_child_run("builtin-st", argv, &args, &expect, r, err);
}

/* What the misbehaving child prints (--child MODE). */
static const struct {
  const char *mode;
  const char *output;
} child_outputs[] = {
    {"garbage", "Segmentation fault\n"},
    {"short", "threadsoup-bench-child 1\nunit index\nsubscore integer 700\n"},
    {"fine", "threadsoup-bench-child 1\nunit index\nsubscore integer 700\nsubscore compress 100\n"
             "subscore float 250\nsubscore memory 240\nseconds 1\npower-throttling off\n"
             "core-classes uniform\nscore 98.5\nend\n"},
};

static void bad_child_output_is_refused_by_name(void) {
  bench_result r;
  ts_err err;
  CHECK_INT(run_this_as_child("garbage", 0, NULL, &r, &err), TS_EBENCH);
  CHECK_STR_CONTAINS(err.text,
                     "builtin-st: the benchmark child's line 'Segmentation fault' is "
                     "not the first line of a benchmark child (threadsoup-bench-child 1)");
  CHECK_INT(run_this_as_child("short", 0, NULL, &r, &err), TS_EBENCH);
  CHECK_STR_CONTAINS(err.text, "builtin-st: the benchmark child's output stops before its 'end' "
                               "line (cut short)");
  CHECK_INT(run_this_as_child("fail", 0, NULL, &r, &err), TS_EBENCH);
  CHECK_STR_CONTAINS(err.text, "builtin-st: its child process failed with exit code 1: no luck");
  CHECK_INT(run_this_as_child("fine", 0, NULL, &r, &err), TS_OK);
  CHECK(r.score == 98.5 && r.seconds == 1 && r.subscore_count == 4);
  CHECK(strcmp(r.subscores[2].name, "float") == 0 && r.subscores[2].score == 250);
  CHECK(strcmp(r.power_throttling, "off") == 0 && strcmp(r.core_classes, "uniform") == 0);
}

/* The parser alone: each way a result can be wrong, with what the error says. */
static void parser_names_what_is_wrong(void) {
  static const char head[] = "threadsoup-bench-child 1\nunit index\n";
  static const char kernels_lines[] = "subscore integer 700\nsubscore compress 100\n"
                                      "subscore float 250\nsubscore memory 240\n";
  static const char tail[] =
      "seconds 1\npower-throttling off\ncore-classes uniform\nscore 98.5\nend\n";
  static const struct {
    const char *middle; /* between the sub-scores and the tail */
    const char *replaces_tail;
    const char *error;
  } cases[] = {
      {"", "", "output stops before its 'end' line (cut short)"},
      {"", "seconds 1\nscore 98.5\nend\n", "has no 'power-throttling' line"},
      {"subscore float 2\n", NULL, "'subscore float 2' gives a sub-score a second time"},
      {"subscore gpu 2\n", NULL, "'subscore gpu 2' names a sub-score the benchmark does not have"},
      {"colour blue\n", NULL, "'colour blue' is not one it prints (accepted: unit, subscore"},
      {"unit index\n", NULL, "'unit index' comes a second time"},
      {"", "seconds soon\npower-throttling off\ncore-classes u\nscore 98.5\nend\n",
       "'seconds soon' has no time (accepted: a number of seconds, 0 or more)"},
      {"", "seconds 1\npower-throttling off\ncore-classes u\nscore -3\nend\n",
       "'score -3' has no score (accepted: a number above 0)"},
      {"", "seconds 1\npower-throttling off\ncore-classes u\nscore nan\nend\n",
       "'score nan' has no score"},
      {"", "seconds 1\npower-throttling off\ncore-classes u\nscore 1\nend\nmore\n",
       "'more' comes after the 'end' line"},
  };
  char text[1024];
  bench_result r;
  ts_err err;
  snprintf(text, sizeof text, "%s%s%s", head, kernels_lines, tail);
  CHECK_INT(bench_child_parse(text, &expect, &r, &err), TS_OK);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    snprintf(text, sizeof text, "%s%s%s%s", head, kernels_lines, cases[i].middle,
             cases[i].replaces_tail ? cases[i].replaces_tail : tail);
    CHECK_INT(bench_child_parse(text, &expect, &r, &err), TS_EBENCH);
    CHECK_STR_CONTAINS(err.text, cases[i].error);
  }
  snprintf(text, sizeof text, "%ssubscore integer 700\n%s", head, tail);
  CHECK_INT(bench_child_parse(text, &expect, &r, &err), TS_EBENCH);
  CHECK_STR_CONTAINS(err.text, "the benchmark child's output has no sub-score 'compress'");
  CHECK_INT(bench_child_parse("threadsoup-bench-child 1\nunit points\n", &expect, &r, &err),
            TS_EBENCH);
  CHECK_STR_CONTAINS(err.text, "'unit points' gives another unit than the benchmark's");
  CHECK_INT(bench_child_parse("", &expect, &r, &err), TS_EBENCH);
  CHECK_STR_CONTAINS(err.text, "is empty: the child printed nothing");
}

/* A child that never ends is killed at the timeout, and at once when the run is cancelled. */
static void timeout_kills_the_child(void) {
  bench_result r;
  ts_err err;
  uint64_t started = plat_clock_ns();
  CHECK_INT(run_this_as_child("hang", 500 * TS_NS_PER_MS, NULL, &r, &err), TS_EBENCH);
  CHECK_STR_CONTAINS(err.text, "timed out: still running after 500ms, killed");
  CHECK((plat_clock_ns() - started) / TS_NS_PER_S < 10);
}

static void raise_later(void *cancel) {
  plat_sleep_ns(300 * TS_NS_PER_MS);
  plat_cancel_raise(cancel);
}

static void cancel_kills_the_child(void) {
  bench_result r;
  ts_err err;
  plat_cancel *cancel;
  plat_thread raiser;
  REQUIRE(plat_cancel_create(&cancel, &err) == TS_OK);
  REQUIRE(plat_thread_start(&raiser, 0, raise_later, cancel, &err) == TS_OK);
  uint64_t started = plat_clock_ns();
  CHECK_INT(run_this_as_child("hang", 60 * TS_NS_PER_S, cancel, &r, &err), TS_EINTERRUPTED);
  CHECK_STR_CONTAINS(err.text, "builtin-st: interrupted; ");
  CHECK((plat_clock_ns() - started) / TS_NS_PER_S < 10);
  plat_thread_join(raiser);
  plat_cancel_destroy(cancel);
}

/* --child MODE: what the tests above start. */
static int child_main(const char *mode) {
  for (size_t i = 0; i < sizeof child_outputs / sizeof child_outputs[0]; i++)
    if (strcmp(mode, child_outputs[i].mode) == 0) {
      fputs(child_outputs[i].output, stdout);
      return 0;
    }
  if (strcmp(mode, "fail") == 0) {
    fputs("no luck\n", stderr);
    return 1;
  }
  plat_sleep_ns(120 * TS_NS_PER_S); /* "hang" */
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--child") == 0)
    return child_main(argv[2]);
  RUN_CASE(small_run_succeeds_with_four_subscores);
  RUN_CASE(score_is_the_geometric_mean_of_the_kernels);
  RUN_CASE(argument_is_refused);
  RUN_CASE(zero_or_negative_work_scale_is_refused);
  RUN_CASE(is_available_everywhere);
  RUN_CASE(mt_two_threads_succeed_with_four_subscores);
  RUN_CASE(mt_default_thread_count_runs);
  RUN_CASE(mt_bad_thread_counts_are_refused);
  RUN_CASE(a_child_runs_the_kernels_and_its_scores_come_back);
  RUN_CASE(bad_child_output_is_refused_by_name);
  RUN_CASE(parser_names_what_is_wrong);
  RUN_CASE(timeout_kills_the_child);
  RUN_CASE(cancel_kills_the_child);
  return check_summary();
}
