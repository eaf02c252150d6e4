/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* child.h - a benchmark run in a child process of our own program, away from the load's threads:
   the child (`threadsoup bench-child`) prints its result as lines, the parent reads them back. */
#ifndef THREADSOUP_BENCH_CHILD_H
#define THREADSOUP_BENCH_CHILD_H

#include <stdio.h>

#include "bench.h"

/* What a child's result must hold: its unit and each of its sub-scores, once, by these names
   (static strings, which the parsed result points to). */
typedef struct bench_child_expect {
  const char *unit;
  const char *const *subscores;
  int subscore_count;
} bench_child_expect;

/* The child's side: runs the benchmark `spec` names ("builtin-mt:4") in this process
   (bench_def.run_here) at `work_scale`, and prints its result to `out`; an error is returned,
   for the caller to print. */
int bench_child_main(const char *spec, double work_scale, FILE *out, ts_err *err);
/* Writes a result in the form bench_child_parse reads. */
void bench_child_print(const bench_result *r, FILE *out);
/* Reads a child's output into *out; refuses anything else than what bench_child_print writes with
   the expected unit and sub-scores, naming the line or what is missing. */
int bench_child_parse(const char *output, const bench_child_expect *expect, bench_result *out,
                      ts_err *err);
/* Runs argv (a program printing as bench_child_print does) as a benchmark program, honouring the
   args' timeout (default 10 minutes) and cancel token (it is killed on either), and reads its
   result; `name` starts every error. */
int bench_child_run(const char *name, const char *const argv[], const bench_args *args,
                    const bench_child_expect *expect, bench_result *out, ts_err *err);
/* bench_child_run of our own program: `threadsoup bench-child SPEC --work-scale X`. */
int bench_child_run_self(const char *spec, const bench_args *args, const bench_child_expect *expect,
                         bench_result *out, ts_err *err);

#endif
