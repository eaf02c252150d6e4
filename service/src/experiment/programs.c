/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* programs.c - the frozen programs' own counts: a census of the processes a run's freeze
   conditions name, over the baseline's load window, before its benchmark, so the report can put
   each program's wake-ups and threads beside what freezing it bought. */
#include "programs.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/freeze.h"
#include "threadsoup/units.h"

static int is_freeze(const load_part *part) { return strcmp(part->scenario->name, "freeze") == 0; }

void experiment_programs_of_plan(const plan *p, experiment_programs *out) {
  memset(out, 0, sizeof *out);
  for (int c = 0; c < p->condition_count; c++)
    for (int i = 0; i < p->conditions[c].part_count; i++) {
      const load_part *part = &p->conditions[c].parts[i];
      if (!is_freeze(part))
        continue;
      const char *target = LOAD_PARAMS(part, freeze_params)->target;
      int known = 0;
      for (int k = 0; k < out->count; k++)
        known |= strcmp(out->names[k], target) == 0;
      if (!known && out->count < EXPERIMENT_PROGRAMS_MAX)
        snprintf(out->names[out->count++], sizeof out->names[0], "%s", target);
    }
}

int experiment_programs_counted_in(const experiment_programs *ps, const load_spec *condition) {
  return ps->count > 0 && condition->part_count == 0;
}

static long pid_named(const char *target) {
  if (!*target)
    return -1;
  for (const char *c = target; *c; c++)
    if (!isdigit((unsigned char)*c))
      return -1;
  return strtol(target, NULL, 10);
}

static void follow(experiment_programs *ps, int program, const plat_process_census *p) {
  if (ps->process_count == EXPERIMENT_PROGRAM_PIDS_MAX)
    return;
  experiment_program_process *f = &ps->processes[ps->process_count++];
  f->pid = p->pid;
  f->program = program;
  snprintf(f->name, sizeof f->name, "%s", p->name);
  f->switches = p->context_switches;
}

void experiment_programs_open(experiment_programs *ps) {
  uint64_t cpu_begin = plat_thread_cpu_ns();
  ps->open = 1;
  ps->process_count = 0;
  ps->start_ns = plat_clock_ns();
  /* A program named by its pid is read alone; names need the list of every process, once. */
  int by_name = 0;
  for (int k = 0; k < ps->count; k++) {
    long pid = pid_named(ps->names[k]);
    plat_process_census one;
    ts_err err;
    if (pid < 0)
      by_name = 1;
    else if (plat_census_process(pid, &one, &err) == TS_OK)
      follow(ps, k, &one);
  }
  plat_process_census *list = NULL;
  long listed = 0;
  ts_err err;
  if (by_name && plat_census_processes(&list, &listed, &err) == TS_OK)
    for (long i = 0; i < listed; i++)
      for (int k = 0; k < ps->count; k++)
        if (pid_named(ps->names[k]) < 0 && plat_process_name_matches(list[i].name, ps->names[k]))
          follow(ps, k, &list[i]);
  free(list);
  ps->cpu_ns = plat_thread_cpu_ns() - cpu_begin;
}

int experiment_programs_close(experiment_programs *ps, int switches_counted,
                              store_metric *metrics) {
  if (!ps->open)
    return 0;
  ps->open = 0;
  uint64_t cpu_begin = plat_thread_cpu_ns();
  double switches[EXPERIMENT_PROGRAMS_MAX] = {0}, threads[EXPERIMENT_PROGRAMS_MAX] = {0};
  int found[EXPERIMENT_PROGRAMS_MAX] = {0}, lost[EXPERIMENT_PROGRAMS_MAX] = {0};
  for (int i = 0; i < ps->process_count; i++) {
    const experiment_program_process *f = &ps->processes[i];
    plat_process_census now;
    ts_err err;
    /* A process that ended or whose pid went to another program did not run the whole window:
       its program's rate would be short of it, so that program is not counted this trial. */
    if (plat_census_process(f->pid, &now, &err) != TS_OK || strcmp(now.name, f->name) != 0 ||
        now.context_switches < f->switches) {
      lost[f->program] = 1;
      continue;
    }
    found[f->program] = 1;
    switches[f->program] += (double)(now.context_switches - f->switches);
    threads[f->program] += (double)now.threads;
  }
  double window_s = (double)(plat_clock_ns() - ps->start_ns) / (double)TS_NS_PER_S;
  int m = 0;
  for (int k = 0; k < ps->count; k++) {
    if (!found[k] || lost[k] || window_s <= 0)
      continue;
    snprintf(ps->metric_names[2 * k], sizeof ps->metric_names[0], "program.%s.switches_per_s",
             ps->names[k]);
    snprintf(ps->metric_names[2 * k + 1], sizeof ps->metric_names[0], "program.%s.threads",
             ps->names[k]);
    if (switches_counted)
      metrics[m++] = (store_metric){ps->metric_names[2 * k], switches[k] / window_s};
    metrics[m++] = (store_metric){ps->metric_names[2 * k + 1], threads[k]};
  }
  ps->cpu_ns += plat_thread_cpu_ns() - cpu_begin;
  metrics[m++] = (store_metric){"programs.census_ms", (double)ps->cpu_ns / (double)TS_NS_PER_MS};
  return m;
}
