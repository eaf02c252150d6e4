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

const bench_def *bench_named(const char *spec) {
  size_t len = strcspn(spec, ":");
  for (size_t i = 0; bench_table[i]; i++)
    if (strlen(bench_table[i]->name) == len && strncmp(bench_table[i]->name, spec, len) == 0)
      return bench_table[i];
  return NULL;
}

size_t bench_setting_count(const bench_def *b) {
  size_t n = 0;
  while (b->settings && b->settings[n].key)
    n++;
  return n;
}

const char *bench_setting_value_name(bench_setting_kind kind) {
  static const char *const names[] = {[BENCH_SETTING_PATH] = "PATH",
                                      [BENCH_SETTING_COMMAND] = "CMD",
                                      [BENCH_SETTING_PATTERN] = "RE",
                                      [BENCH_SETTING_CHOICE] = "WORD"};
  return names[kind];
}

const char *bench_setting_forms(bench_setting_kind kind) {
  static const char *const forms[] = {[BENCH_SETTING_PATH] = "a path",
                                      [BENCH_SETTING_COMMAND] = "a command line",
                                      [BENCH_SETTING_PATTERN] = "a regular expression",
                                      [BENCH_SETTING_CHOICE] = "one of its words"};
  return forms[kind];
}

int bench_setting_runs_programs(bench_setting_kind kind) {
  return kind == BENCH_SETTING_PATH || kind == BENCH_SETTING_COMMAND;
}

/* Whether the settings give the benchmark's program, so that it runs where a search fails. */
static int gives_program(const bench_def *b, const char *const *settings) {
  for (size_t i = 0; settings && i < bench_setting_count(b); i++)
    if (b->settings[i].kind == BENCH_SETTING_PATH && settings[i] && settings[i][0])
      return 1;
  return 0;
}

const bench_def *bench_find_with(const char *spec, const char *const *settings, const char **arg,
                                 ts_err *err) {
  const char *colon = strchr(spec, ':');
  *arg = colon ? colon + 1 : NULL;
  const bench_def *b = bench_named(spec);
  if (!b) {
    char names[256];
    ts_buf known = ts_buf_on(names, sizeof names);
    for (size_t i = 0; bench_table[i]; i++)
      ts_buf_item(&known, ", ", bench_table[i]->name);
    ts_err_set(err, TS_EUSAGE, "unknown benchmark '%.*s' (known: %s)", (int)strcspn(spec, ":"),
               spec, names);
    return NULL;
  }
  const char *why = b->unavailable_reason ? b->unavailable_reason() : NULL;
  if (why && !gives_program(b, settings)) {
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

const bench_def *bench_find(const char *spec, const char **arg, ts_err *err) {
  return bench_find_with(spec, NULL, arg, err);
}
