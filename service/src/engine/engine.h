/* engine.h - the load engine: parses load specifications, starts the scenarios they name, and tears
   every thread and process down again. */
#ifndef THREADSOUP_ENGINE_H
#define THREADSOUP_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "threadsoup/err.h"

#define LOAD_MAX_COUNT 1000000L  /* more threads than any OS here will give one process */
#define LOAD_MAX_PARTS 8         /* scenarios joined with '+' in one condition */
#define LOAD_TEXT_MAX 128

typedef struct scenario_def scenario_def;

/* One scenario with its options, e.g. "sleep:5000@500ms". */
typedef struct load_part {
  const scenario_def *scenario;
  long count;
  uint64_t interval_ns; /* sleep: time between wake-ups */
  size_t stack_bytes;   /* 0 = the platform's smallest safe stack */
} load_part;

/* A condition of an experiment: no parts ("baseline") or parts joined with '+'. */
typedef struct load_spec {
  char text[LOAD_TEXT_MAX]; /* canonical form, e.g. "baseline" or "sleep:1500@500ms" */
  int part_count;
  load_part parts[LOAD_MAX_PARTS];
} load_spec;

/* Parses "baseline", "sleep:COUNT[@INTERVAL]" or parts joined with '+'. Nothing is created. */
int load_spec_parse(const char *text, load_spec *out, ts_err *err);
/* Threads the spec asks for in the owning process (not counting processes). */
long load_spec_threads(const load_spec *spec);

/* A running load. */
typedef struct load load;

/* Starts every part; on any failure tears down what was created and says how far it got. */
int load_start(const load_spec *spec, load **out, ts_err *err);
/* Stops and joins everything the load created; returns when nothing of it runs any more. */
void load_stop(load *l);

/* ---- the scenario registry (scenarios.c) ---------------------------------------------------- */

struct scenario_def {
  const char *name;
  const char *help;
  int takes_interval; /* accepts "@INTERVAL" */
  uint64_t default_interval_ns;
  /* Starts part->count threads or processes; *instance is what stop() gets back. */
  int (*start)(const load_part *part, void **instance, ts_err *err);
  void (*stop)(void *instance);
};

extern const scenario_def *const scenario_table[];
const scenario_def *scenario_find(const char *name, size_t name_len);
/* "sleep" or "sleep, wait, …" for error messages. */
void scenario_names(char *buf, size_t len);

#endif
