/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* child.c - a benchmark run in a child process of our own program, so that the load's thousands
   of threads in the service's process are not the benchmark's neighbours there (the original
   experiment ran its load and its benchmarks as separate programs): the child's side prints the
   result as one line per field, the parent runs it and reads the lines back strictly.

   The output, every line required once, `subscore` once per expected sub-score:
     threadsoup-bench-child 1
     unit index
     subscore integer 741.25
     seconds 1.02
     power-throttling off
     core-classes 1 class
     score 99.8
     end */
#include "child.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "threadsoup/plat.h"
#include "threadsoup/units.h"

#define CHILD_FIRST_LINE "threadsoup-bench-child 1"
#define CHILD_COMMAND "bench-child"
#define CHILD_DEFAULT_TIMEOUT_NS (10 * TS_NS_PER_MIN)
#define CHILD_OUTPUT_MAX 8192 /* the result is a few hundred bytes; an error is a sentence */
#define LINE_SHOWN 120        /* how much of a bad line an error quotes */

/* The lines other than the first and the sub-scores, each once. */
enum { LINE_UNIT, LINE_SCORE, LINE_SECONDS, LINE_THROTTLING, LINE_CORES, LINE_END, LINE_COUNT };
static const char *const line_keys[LINE_COUNT] = {
    [LINE_UNIT] = "unit",          [LINE_SCORE] = "score",
    [LINE_SECONDS] = "seconds",    [LINE_THROTTLING] = "power-throttling",
    [LINE_CORES] = "core-classes", [LINE_END] = "end",
};
#define SUBSCORE_KEY "subscore"

void bench_child_print(const bench_result *r, FILE *out) {
  fprintf(out, "%s\n%s %s\n", CHILD_FIRST_LINE, line_keys[LINE_UNIT], r->unit);
  for (int i = 0; i < r->subscore_count; i++)
    fprintf(out, "%s %s %.17g\n", SUBSCORE_KEY, r->subscores[i].name, r->subscores[i].score);
  fprintf(out, "%s %.17g\n%s %s\n%s %s\n%s %.17g\n%s\n", line_keys[LINE_SECONDS], r->seconds,
          line_keys[LINE_THROTTLING], r->power_throttling, line_keys[LINE_CORES], r->core_classes,
          line_keys[LINE_SCORE], r->score, line_keys[LINE_END]);
  fflush(out);
}

int bench_child_main(const char *spec, double work_scale, FILE *out, ts_err *err) {
  const char *arg;
  const bench_def *b = bench_find(spec, &arg, err);
  if (!b)
    return err->code;
  if (!b->run_here)
    return ts_err_set(err, TS_EUSAGE, "benchmark '%s' does not run as a child process (only %s do)",
                      b->name, "builtin-st, builtin-mt");
  bench_args args = {arg, work_scale, NULL, 0, NULL};
  bench_result result;
  int rc = b->run_here(&args, &result, err);
  if (rc == TS_OK)
    bench_child_print(&result, out);
  return rc;
}

/* ---- the parent's side ---------------------------------------------------------------------- */

static int refused(const char *line, size_t len, const char *why, ts_err *err) {
  return ts_err_set(err, TS_EBENCH, "the benchmark child's line '%.*s' %s",
                    (int)(len < LINE_SHOWN ? len : LINE_SHOWN), line, why);
}

/* A whole finite number from value[0..len), at least `least`. */
static int read_number(const char *value, size_t len, double least, double *out) {
  char text[64];
  if (len == 0 || len >= sizeof text)
    return 0;
  memcpy(text, value, len);
  text[len] = '\0';
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (*end || end == text || errno == ERANGE || !isfinite(v) || v < least)
    return 0;
  *out = v;
  return 1;
}

/* One "subscore NAME RATE" line's value. */
static int read_subscore(const char *line, size_t len, const char *value, size_t value_len,
                         const bench_child_expect *expect, int *seen, bench_result *out,
                         ts_err *err) {
  size_t name_len = strcspn(value, " ");
  if (name_len >= value_len)
    return refused(line, len, "has no rate after the sub-score's name", err);
  for (int k = 0; k < expect->subscore_count; k++) {
    const char *name = expect->subscores[k];
    if (strlen(name) != name_len || strncmp(name, value, name_len) != 0)
      continue;
    if (seen[k])
      return refused(line, len, "gives a sub-score a second time", err);
    double rate;
    if (!read_number(value + name_len + 1, value_len - name_len - 1, 0.0, &rate) || rate <= 0)
      return refused(line, len, "has no rate (accepted: a number above 0)", err);
    seen[k] = 1;
    out->subscores[k] = (bench_subscore){name, rate};
    return TS_OK;
  }
  return refused(line, len, "names a sub-score the benchmark does not have", err);
}

/* One line other than the first; *key_seen marks the lines read so far. */
static int read_line(const char *line, size_t len, const bench_child_expect *expect, int *key_seen,
                     int *subscore_seen, bench_result *out, ts_err *err) {
  size_t key_len = strcspn(line, " \n");
  if (key_len > len)
    key_len = len;
  const char *value = key_len < len ? line + key_len + 1 : line + len;
  size_t value_len = key_len < len ? len - key_len - 1 : 0;
  if (key_len == strlen(SUBSCORE_KEY) && strncmp(line, SUBSCORE_KEY, key_len) == 0)
    return read_subscore(line, len, value, value_len, expect, subscore_seen, out, err);
  int key = 0;
  while (key < LINE_COUNT &&
         (strlen(line_keys[key]) != key_len || strncmp(line_keys[key], line, key_len) != 0))
    key++;
  if (key == LINE_COUNT)
    return refused(line, len,
                   "is not one it prints (accepted: unit, subscore, seconds, power-throttling, "
                   "core-classes, score, end)",
                   err);
  if (key_seen[key])
    return refused(line, len, "comes a second time", err);
  key_seen[key] = 1;
  switch (key) {
  case LINE_UNIT:
    if (value_len != strlen(expect->unit) || strncmp(value, expect->unit, value_len) != 0)
      return refused(line, len, "gives another unit than the benchmark's", err);
    out->unit = expect->unit;
    return TS_OK;
  case LINE_SCORE:
    if (!read_number(value, value_len, 0.0, &out->score) || out->score <= 0)
      return refused(line, len, "has no score (accepted: a number above 0)", err);
    return TS_OK;
  case LINE_SECONDS:
    if (!read_number(value, value_len, 0.0, &out->seconds))
      return refused(line, len, "has no time (accepted: a number of seconds, 0 or more)", err);
    return TS_OK;
  case LINE_THROTTLING:
  case LINE_CORES: {
    char *text = key == LINE_CORES ? out->core_classes : out->power_throttling;
    if (value_len >= PLAT_BENCH_TEXT_MAX)
      return refused(line, len, "is too long", err);
    memcpy(text, value, value_len);
    text[value_len] = '\0';
    return TS_OK;
  }
  default: /* LINE_END */
    return value_len == 0 ? TS_OK : refused(line, len, "has text after 'end'", err);
  }
}

int bench_child_parse(const char *output, const bench_child_expect *expect, bench_result *out,
                      ts_err *err) {
  memset(out, 0, sizeof *out);
  int key_seen[LINE_COUNT] = {0};
  int subscore_seen[BENCH_MAX_SUBSCORES] = {0};
  const char *line = output;
  size_t first = strcspn(line, "\r\n");
  if (first != strlen(CHILD_FIRST_LINE) || strncmp(line, CHILD_FIRST_LINE, first) != 0)
    return refused(line, first,
                   *line ? "is not the first line of a benchmark child (" CHILD_FIRST_LINE ")"
                         : "is empty: the child printed nothing",
                   err);
  for (line += first; *line;) {
    line += *line == '\r';
    line += *line == '\n';
    size_t len = strcspn(line, "\r\n");
    if (key_seen[LINE_END] && len > 0)
      return refused(line, len, "comes after the 'end' line", err);
    if (len == 0 && !*line)
      break;
    int rc = len ? read_line(line, len, expect, key_seen, subscore_seen, out, err) : TS_OK;
    if (rc != TS_OK)
      return rc;
    line += len;
  }
  if (!key_seen[LINE_END])
    return ts_err_set(err, TS_EBENCH,
                      "the benchmark child's output stops before its 'end' line (cut short)");
  for (int k = 0; k < LINE_COUNT; k++)
    if (!key_seen[k])
      return ts_err_set(err, TS_EBENCH, "the benchmark child's output has no '%s' line",
                        line_keys[k]);
  for (int k = 0; k < expect->subscore_count; k++)
    if (!subscore_seen[k])
      return ts_err_set(err, TS_EBENCH, "the benchmark child's output has no sub-score '%s'",
                        expect->subscores[k]);
  out->subscore_count = expect->subscore_count;
  return TS_OK;
}

int bench_child_run(const char *name, const char *const argv[], const bench_args *args,
                    const bench_child_expect *expect, bench_result *out, ts_err *err) {
  char *output = malloc(CHILD_OUTPUT_MAX);
  if (!output)
    return ts_err_set(err, TS_ENOMEM, "%s: no memory for its child's output", name);
  uint64_t timeout = args->timeout_ns ? args->timeout_ns : CHILD_DEFAULT_TIMEOUT_NS;
  int exit_code = 0;
  char throttling[PLAT_BENCH_TEXT_MAX];
  int rc = plat_proc_run_as_benchmark(argv, args->cancel, output, CHILD_OUTPUT_MAX, NULL, timeout,
                                      &exit_code, throttling, sizeof throttling, err);
  if (rc == TS_OK && exit_code != 0) {
    size_t n = strcspn(output, "\r\n");
    rc = ts_err_set(err, TS_EBENCH, "its child process failed with exit code %d: %.*s", exit_code,
                    (int)(n < 300 ? n : 300), output);
  }
  if (rc == TS_OK)
    rc = bench_child_parse(output, expect, out, err);
  free(output);
  return rc == TS_OK ? TS_OK : ts_err_prefix(err, "%s", name);
}

int bench_child_run_self(const char *spec, const bench_args *args, const bench_child_expect *expect,
                         bench_result *out, ts_err *err) {
  char dir[PLAT_PATH_MAX], name[64], program[PLAT_PATH_MAX + 80], scale[40];
  int rc = plat_program_dir(dir, sizeof dir, err);
  if (rc != TS_OK)
    return ts_err_prefix(err, "%s", spec);
  plat_program_name("threadsoup", name, sizeof name);
  snprintf(program, sizeof program, "%s%c%s", dir, plat_path_separator(), name);
  snprintf(scale, sizeof scale, "%.17g", args->work_scale);
  const char *argv[] = {program, CHILD_COMMAND, spec, "--work-scale", scale, NULL};
  return bench_child_run(spec, argv, args, expect, out, err);
}
