/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* noise.c - how steady the benchmarks are: builtin-st's run-to-run coefficient of variation
   against 7-Zip's, measured alternately in the same run (the target: builtin-st no noisier), with
   each of builtin-st's kernels' own, and the A/A experiment (the aa preset), which must come out
   as no measurable effect. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "engine_bench.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

static double coefficient_of_variation(const double *v, int n) {
  double mean = 0, m2 = 0;
  for (int i = 0; i < n; i++)
    mean += v[i] / n;
  for (int i = 0; i < n; i++)
    m2 += (v[i] - mean) * (v[i] - mean);
  return n > 1 && mean > 0 ? sqrt(m2 / (n - 1)) / mean : NAN;
}

void bench_noise(const bench_options *o) {
  table_section("7. steadiness: builtin-st against 7-Zip (b -mmt1), alternating, same run");
  const char *arg;
  ts_err err;
  const bench_def *builtin = bench_find("builtin-st", &arg, &err);
  const bench_def *sevenzip = bench_find("7zip:1", &arg, &err);
  if (!builtin || !sevenzip) {
    table_note("7-Zip is not available here (%s): nothing to compare with", err.text);
    return;
  }
  int n = o->reps < 3 ? 3 : o->reps;
  double *a = calloc((size_t)n, sizeof *a), *b = calloc((size_t)n, sizeof *b);
  /* kernels[k * n + i]: run i's rate of builtin-st's kernel k */
  double *kernels = calloc((size_t)n * BENCH_MAX_SUBSCORES, sizeof *kernels);
  const char *kernel_names[BENCH_MAX_SUBSCORES] = {0};
  int kernel_count = 0;
  int ok = a && b && kernels;
  for (int i = 0; ok && i < n; i++) {
    bench_result r;
    bench_args st = {NULL, 1.0, NULL, 0, NULL};
    bench_args sz = {"1", 1.0, NULL, 0, NULL};
    progress("steadiness: run %d of %d", i + 1, n);
    ok = builtin->run(&st, &r, &err) == TS_OK;
    a[i] = r.score;
    kernel_count = ok ? r.subscore_count : 0;
    for (int k = 0; k < kernel_count; k++) {
      kernel_names[k] = r.subscores[k].name;
      kernels[k * n + i] = r.subscores[k].score;
    }
    ok = ok && sevenzip->run(&sz, &r, &err) == TS_OK;
    b[i] = r.score;
  }
  if (!ok) {
    table_note("a benchmark failed: %s", err.text);
  } else {
    double cv_builtin = coefficient_of_variation(a, n), cv_7zip = coefficient_of_variation(b, n);
    char x[32], y[32];
    snprintf(x, sizeof x, "%.2f", cv_builtin * 100);
    snprintf(y, sizeof y, "%.2f", cv_7zip * 100);
    table_row("run-to-run CV (%), builtin-st vs 7-Zip", x, y, cv_builtin / cv_7zip, "<= 1.0x 7-Zip",
              cv_builtin <= cv_7zip ? VERDICT_OK : VERDICT_MISSED);
    for (int k = 0; k < kernel_count; k++) {
      char measure[64], cv[32];
      snprintf(measure, sizeof measure, "run-to-run CV (%%), builtin-st's %s kernel",
               kernel_names[k]);
      snprintf(cv, sizeof cv, "%.2f", coefficient_of_variation(kernels + k * n, n) * 100);
      table_row(measure, cv, y, -1, "-", VERDICT_INFO);
    }
    table_note("%d runs each; on a shared machine both are noisy: compare them, not their size", n);
  }
  free(a);
  free(b);
  free(kernels);
}

void bench_aa(const bench_options *o) {
  (void)o;
  table_section("8. the A/A experiment: baseline against baseline (preset aa), a fresh database");
  char dir[PLAT_PATH_MAX], exe[PLAT_PATH_MAX + 32], db[PLAT_PATH_MAX + 32];
  ts_err err;
  if (plat_program_dir(dir, sizeof dir, &err) != TS_OK) {
    table_note("%s", err.text);
    return;
  }
  snprintf(exe, sizeof exe, "%s/threadsoup", dir);
  snprintf(db, sizeof db, "%s/bench-aa.db", dir);
  remove(db);
  const char *argv[] = {exe, "run", "aa", "--db", db, NULL};
  static char output[65536];
  size_t length = 0;
  int code = 0;
  progress("A/A experiment (about two minutes)");
  if (plat_proc_run(argv, NULL, output, sizeof output, &length, TS_NS_PER_HOUR, &code, &err) !=
          TS_OK ||
      code != 0) {
    table_note("threadsoup run aa failed: %s", code ? output : err.text);
    return;
  }
  const char *verdict = strstr(output, "baseline-b: ");
  char line[256] = "no verdict line";
  if (verdict)
    snprintf(line, sizeof line, "%.*s", (int)strcspn(verdict, "\n"), verdict);
  int ok = verdict && strstr(verdict, "no measurable effect") == verdict + 12;
  table_row("verdict of baseline-b against baseline", ok ? "no effect" : "other", "-", -1,
            "no measurable effect", ok ? VERDICT_OK : VERDICT_MISSED);
  table_note("%s", line);
}
