/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* scenarios.c - the registry of load scenarios: adding one is one file plus one line here. */
#include <string.h>

#include "engine.h"
#include "threadsoup/buf.h"

extern const scenario_def scenario_sleep;
extern const scenario_def scenario_yield;
extern const scenario_def scenario_wait;
extern const scenario_def scenario_procs;
extern const scenario_def scenario_burn;
extern const scenario_def scenario_freeze;

const scenario_def *const scenario_table[] = {
    &scenario_sleep, &scenario_yield,  &scenario_wait, &scenario_procs,
    &scenario_burn,  &scenario_freeze, NULL,
};

const scenario_def *scenario_find(const char *name, size_t name_len) {
  for (size_t i = 0; scenario_table[i]; i++)
    if (strlen(scenario_table[i]->name) == name_len &&
        strncmp(scenario_table[i]->name, name, name_len) == 0)
      return scenario_table[i];
  return NULL;
}

void scenario_names(char *buf, size_t len) {
  ts_buf names = ts_buf_on(buf, len);
  for (size_t i = 0; scenario_table[i]; i++)
    ts_buf_item(&names, ", ", scenario_table[i]->name);
}
