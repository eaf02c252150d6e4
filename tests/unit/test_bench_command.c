/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_bench_command.c - the command benchmark with a real program, threadsoup itself (argv[1]):
   a score read by a regex, 1/elapsed without one, and every way a run can fail - no match, not a
   number, a bad regex, a failing exit code, a timeout that must kill the program, bad quoting. */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "check.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

extern const bench_def bench_command;

static const char *threadsoup = "threadsoup";

static int run_command(const char *arguments, const char *regex, uint64_t timeout_ns,
                       bench_result *r, ts_err *err) {
  static char line[2048];
  /* Quoted, as a user would quote a path with spaces in --command. */
  snprintf(line, sizeof line, "\"%s\" %s", threadsoup, arguments);
  const char *settings[] = {line, regex};
  bench_args args = {NULL, 1.0, settings, timeout_ns, NULL};
  memset(r, 0, sizeof *r);
  memset(err, 0, sizeof *err);
  return bench_command.run(&args, r, err);
}

static void score_from_regex(void) {
  bench_result r;
  ts_err err;
  int rc = run_command("census --interval 100ms", "processes\\s+(\\d+)", 0, &r, &err);
  if (rc)
    fprintf(stderr, "  run failed: %s\n", err.text);
  CHECK_INT(rc, TS_OK);
  CHECK(r.score >= 1); /* at least the census itself */
  CHECK(r.seconds > 0);
  CHECK(r.unit && strcmp(r.unit, "score") == 0);
}

static void without_regex_the_score_is_runs_per_second(void) {
  bench_result r;
  ts_err err;
  int rc = run_command("--version", NULL, 0, &r, &err);
  if (rc)
    fprintf(stderr, "  run failed: %s\n", err.text);
  CHECK_INT(rc, TS_OK);
  CHECK(r.score > 0);
  CHECK(r.seconds > 0);
  CHECK(r.score * r.seconds > 0.99 && r.score * r.seconds < 1.01);
  CHECK(r.unit && strcmp(r.unit, "1/s") == 0);
  /* An empty regex (a plan's default) means none. */
  CHECK_INT(run_command("--version", "", 0, &r, &err), TS_OK);
  CHECK(strcmp(r.unit, "1/s") == 0);
}

static void regex_that_does_not_match(void) {
  bench_result r;
  ts_err err;
  CHECK_INT(run_command("--version", "score: (\\d+)", 0, &r, &err), TS_EBENCH);
  CHECK_STR_CONTAINS(err.text, "the score regex 'score: (\\d+)' does not match the output, which "
                               "begins: 'threadsoup ");
}

static void match_that_is_not_a_number(void) {
  bench_result r;
  ts_err err;
  CHECK_INT(run_command("--version", "^(\\w+)", 0, &r, &err), TS_EBENCH);
  CHECK_STR_CONTAINS(err.text, "matched 'threadsoup', which is not a number");
}

static void bad_regex_is_refused_before_running(void) {
  bench_result r;
  ts_err err;
  CHECK_INT(run_command("--version", "processes (\\d+", 0, &r, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "command --score-regex: regex 'processes (\\d+': missing ')' for "
                               "the '(' at character 11");
}

static void failing_exit_code_is_an_error(void) {
  bench_result r;
  ts_err err;
  CHECK_INT(run_command("frobnicate", NULL, 0, &r, &err), TS_EBENCH);
  CHECK_STR_CONTAINS(err.text, "failed with exit code 2");
  CHECK_STR_CONTAINS(err.text, "unknown command 'frobnicate'");
}

/* The load would run a minute; the timeout must kill it and come back at once. */
static void timeout_kills_a_long_command(void) {
  bench_result r;
  ts_err err;
  uint64_t started = plat_clock_ns();
  int rc =
      run_command("load sleep --count 1 --for 60s --quiet", NULL, 500 * TS_NS_PER_MS, &r, &err);
  double seconds = (double)(plat_clock_ns() - started) / TS_NS_PER_S;
  CHECK_INT(rc, TS_EBENCH);
  CHECK_STR_CONTAINS(err.text, "timed out: still running after 500ms, killed");
  if (seconds >= 5)
    fprintf(stderr, "  the timed-out run took %.1f s\n", seconds);
  CHECK(seconds < 5);
}

static void command_line_problems(void) {
  const char *settings[] = {NULL, NULL};
  bench_args args = {NULL, 1.0, settings, 0, NULL};
  bench_result r;
  ts_err err;
  CHECK_INT(bench_command.run(&args, &r, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "command needs a command line (--command \"...\")");
  settings[0] = "   ";
  CHECK_INT(bench_command.run(&args, &r, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "command needs a command line");
  settings[0] = "prog \"unclosed arg";
  CHECK_INT(bench_command.run(&args, &r, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "the quote at character 6 of 'prog \"unclosed arg' is never closed");
  settings[0] = "no-such-program-threadsoup-test --flag";
  CHECK_INT(bench_command.run(&args, &r, &err), TS_EOS);
  CHECK_STR_CONTAINS(err.text, "command: cannot start 'no-such-program-threadsoup-test'");
}

static void takes_no_argument_and_runs_everywhere(void) {
  const char *arg;
  ts_err err;
  CHECK(bench_command.check_arg == NULL);
  CHECK(bench_command.unavailable_reason() == NULL);
  CHECK(bench_find("command", &arg, &err) == &bench_command);
  CHECK(bench_find("command:5", &arg, &err) == NULL);
}

int main(int argc, char **argv) {
  if (argc > 1)
    threadsoup = argv[1];
  RUN_CASE(score_from_regex);
  RUN_CASE(without_regex_the_score_is_runs_per_second);
  RUN_CASE(regex_that_does_not_match);
  RUN_CASE(match_that_is_not_a_number);
  RUN_CASE(bad_regex_is_refused_before_running);
  RUN_CASE(failing_exit_code_is_an_error);
  RUN_CASE(timeout_kills_a_long_command);
  RUN_CASE(command_line_problems);
  RUN_CASE(takes_no_argument_and_runs_everywhere);
  return check_summary();
}
