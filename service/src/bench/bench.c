/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* bench.c - the registry of benchmarks: adding one is one file plus one line here. */
#include "bench.h"

#include <string.h>

#include "threadsoup/buf.h"

extern const bench_def bench_builtin_st;
extern const bench_def bench_builtin_mt;
extern const bench_def bench_7zip;
extern const bench_def bench_cpuz;
extern const bench_def bench_command;

const bench_def *const bench_table[] = {
    &bench_builtin_st, &bench_builtin_mt, &bench_7zip, &bench_cpuz, &bench_command, NULL,
};

const bench_def *bench_find(const char *spec, const char **arg, ts_err *err) {
  const char *colon = strchr(spec, ':');
  size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
  *arg = colon ? colon + 1 : NULL;
  for (size_t i = 0; bench_table[i]; i++) {
    const bench_def *b = bench_table[i];
    if (strlen(b->name) != len || strncmp(b->name, spec, len) != 0)
      continue;
    const char *why = b->unavailable_reason ? b->unavailable_reason() : NULL;
    if (why) {
      ts_err_set(err, TS_EUNSUPPORTED, "benchmark '%s' is not available here: %s", b->name, why);
      return NULL;
    }
    if (*arg && !b->check_arg) {
      ts_err_set(err, TS_EUSAGE, "benchmark '%s' takes no argument (got '%s')", b->name, *arg);
      return NULL;
    }
    if (b->check_arg && b->check_arg(*arg, err) != TS_OK)
      return NULL;
    return b;
  }
  char names[256];
  ts_buf known = ts_buf_on(names, sizeof names);
  for (size_t i = 0; bench_table[i]; i++)
    ts_buf_item(&known, ", ", bench_table[i]->name);
  ts_err_set(err, TS_EUSAGE, "unknown benchmark '%.*s' (known: %s)", (int)len, spec, names);
  return NULL;
}
