/* plan.h - what an experiment runs: conditions × benchmarks × repetitions, from a preset or from
   the command line. */
#ifndef THREADSOUP_PLAN_H
#define THREADSOUP_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "../engine/engine.h"
#include "threadsoup/err.h"

#define PLAN_MAX_CONDITIONS 32
#define PLAN_MAX_BENCHES 8
#define PLAN_MAX_REPS 1000
#define PLAN_NAME_MAX 64
#define PLAN_BENCH_MAX 64

typedef struct plan {
  char name[PLAN_NAME_MAX];
  int condition_count;
  load_spec conditions[PLAN_MAX_CONDITIONS];
  int bench_count;
  char benches[PLAN_MAX_BENCHES][PLAN_BENCH_MAX];
  long reps;          /* blocks; each block runs every condition × benchmark once */
  uint64_t settle_ns; /* wait after the load starts, before the benchmark */
  double work_scale;  /* multiplies the built-in benchmark's work */
} plan;

/* Fills *out from a preset ("quick", …). */
int plan_preset(const char *name, plan *out, ts_err *err);
/* "quick: …" lines for --help. */
void plan_preset_help(char *buf, size_t len);
const char *plan_default_preset(void);

/* Replace the plan's conditions (comma-separated load specs) or benchmarks (comma-separated). */
int plan_set_conditions(plan *p, const char *list, ts_err *err);
int plan_set_benches(plan *p, const char *list, ts_err *err);

int plan_trial_count(const plan *p);
/* The canonical text of the plan, stored with the run ("conditions=…\nbench=…\n…"). */
void plan_format(const plan *p, char *buf, size_t len);

#endif
