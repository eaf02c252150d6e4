/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* programs.h - the frozen programs' own counts: how often the programs a run's freeze conditions
   name wake up, and how many threads they have, counted in the baseline's trials, where they run
   as they would without ThreadSoup. */
#ifndef THREADSOUP_EXPERIMENT_PROGRAMS_H
#define THREADSOUP_EXPERIMENT_PROGRAMS_H

#include <stdint.h>

#include "../engine/engine.h"
#include "../plan/plan.h"
#include "../store/store.h"
#include "threadsoup/plat.h"

#define EXPERIMENT_PROGRAMS_MAX 16      /* programs one run's freeze conditions name */
#define EXPERIMENT_PROGRAM_PIDS_MAX 256 /* their processes followed over one trial's window */
/* The metrics experiment_programs_close writes: two per program and the census's cost. */
#define EXPERIMENT_PROGRAM_METRICS (2 * EXPERIMENT_PROGRAMS_MAX + 1)
#define EXPERIMENT_PROGRAM_METRIC_MAX 96

/* One process of a named program, as the window's first reading found it. */
typedef struct experiment_program_process {
  long pid;
  int program; /* index into names */
  char name[PLAT_PROCESS_NAME_MAX];
  uint64_t switches;
} experiment_program_process;

/* The programs a run's conditions freeze, and the census of them over one trial's load window. */
typedef struct experiment_programs {
  int count;
  char names[EXPERIMENT_PROGRAMS_MAX][LOAD_PARAMS_MAX]; /* as the conditions name them */
  int open;                                             /* a window's first reading was taken */
  uint64_t start_ns, cpu_ns; /* the window's start; the CPU its readings took */
  int process_count;
  experiment_program_process processes[EXPERIMENT_PROGRAM_PIDS_MAX];
  char metric_names[2 * EXPERIMENT_PROGRAMS_MAX][EXPERIMENT_PROGRAM_METRIC_MAX];
} experiment_programs;

/* The programs (executable names or pids) the freeze parts of p's conditions name, each once;
   beyond EXPERIMENT_PROGRAMS_MAX, not counted. */
void experiment_programs_of_plan(const plan *p, experiment_programs *out);
/* Whether a trial of `condition` counts the programs: the baseline's (a condition with no part),
   where every named program runs and nothing of ThreadSoup's load competes with it. */
int experiment_programs_counted_in(const experiment_programs *ps, const load_spec *condition);
/* The window's first reading: the named programs' processes and their context switches so far. */
void experiment_programs_open(experiment_programs *ps);
/* The second reading, at the census: into metrics (room for EXPERIMENT_PROGRAM_METRICS) each
   program's program.NAME.switches_per_s over the window and program.NAME.threads now, for the
   programs whose processes ran through the whole window (the switches only where the OS counts
   them, `switches_counted`: Wine counts none), and programs.census_ms, what both readings cost in
   CPU. Returns how many metrics it wrote; the names live in ps until the next window. */
int experiment_programs_close(experiment_programs *ps, int switches_counted, store_metric *metrics);

#endif
