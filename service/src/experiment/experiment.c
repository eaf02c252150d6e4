/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* experiment.c - runs a plan trial by trial: load up, settle, wait for quiet, census, benchmark,
   load down, commit; adds blocks until the asked precision is reached; resumes from the
   database. */
#include "experiment.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/bench.h"
#include "../doctor/doctor.h"
#include "../exchange/export.h"
#include "../quiet/quiet.h"
#include "precision.h"
#include "threadsoup/log.h"
#include "threadsoup/plat.h"
#include "threadsoup/rng.h" /* splitmix64: the same trial order from a seed on every platform */
#include "threadsoup/units.h"

void experiment_block_order(const plan *p, uint64_t *state, int *order) {
  int per_block = p->condition_count * p->bench_count;
  for (int i = 0; i < per_block; i++)
    order[i] = i;
  /* Fisher-Yates: each block in its own random order, so drift over time cannot line up with
     one condition and pose as its effect. */
  for (int i = per_block - 1; i > 0; i--) {
    int j = (int)(ts_splitmix64(state) % (uint64_t)(i + 1));
    int t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

/* Fills trials for blocks [first, first+count) starting at seq `seq`; the random state carries
   on from block to block, so block k has the same order whether planned now or added later. */
static int plan_blocks(const plan *p, uint64_t seed, int first_block, int block_count, int seq,
                       store_trial_plan *trials) {
  int per_block = p->condition_count * p->bench_count;
  int order[PLAN_MAX_CONDITIONS * PLAN_MAX_BENCHES];
  uint64_t state = seed;
  int n = 0;
  for (int b = 1; b < first_block + block_count; b++) {
    experiment_block_order(p, &state, order);
    if (b < first_block)
      continue;
    for (int i = 0; i < per_block; i++, n++) {
      trials[n].seq = seq + n;
      trials[n].block = b;
      trials[n].condition = p->conditions[order[i] / p->bench_count].text;
      trials[n].bench = p->benches[order[i] % p->bench_count];
    }
  }
  return n;
}

int experiment_start(store *s, const plan *p, uint64_t seed, int64_t *run_id, ts_err *err) {
  *run_id = 0;
  int rc = plan_check(p, err);
  if (rc != TS_OK)
    return rc;
  int total = plan_trial_count(p);
  store_trial_plan *trials = calloc((size_t)total, sizeof *trials);
  if (!trials)
    return ts_err_set(err, TS_ENOMEM, "no memory for %d trials", total);
  /* Warm-ups first, under the first condition, as block 0: run, stored, left out of statistics. */
  int n = 0;
  for (long w = 0; w < p->warmup; w++)
    for (int b = 0; b < p->bench_count; b++, n++) {
      trials[n].seq = n + 1;
      trials[n].block = 0;
      trials[n].condition = p->conditions[0].text;
      trials[n].bench = p->benches[b];
    }
  n += plan_blocks(p, seed, 1, (int)p->reps, n + 1, trials + n);

  char plan_text[PLAN_FORMAT_MAX], started_at[32];
  plan_format(p, plan_text, sizeof plan_text);
  plat_utc_timestamp(started_at, sizeof started_at);
  plat_sysinfo sys;
  plat_sysinfo_read(&sys);
  store_run_info info = store_run_info_here(&sys, p->name, plan_text, seed, started_at);
  rc = store_run_begin(s, &info, trials, n, run_id, err);
  free(trials);
  return rc;
}

/* ---- one trial ------------------------------------------------------------------------------- */

typedef struct trial_context {
  store *s;
  const plan *p;
  const load_spec *condition;
  const char *bench_spec;
  int64_t trial_id;
  const plat_cancel *cancel; /* the run's stop request; NULL: the process interrupt alone */
} trial_context;

/* Waits until CPU use outside this process stays under the plan's threshold for one second, or
   the timeout passes (then says so in `warning`). Returns 1 when interrupted or cancelled. */
static int quiet_gate(const plan *p, const plat_cancel *cancel, uint64_t *waited_ns, char *warning,
                      size_t len) {
  warning[0] = '\0';
  *waited_ns = 0;
  if (p->quiet_cpu_pct <= 0)
    return 0;
  const uint64_t step = 250 * TS_NS_PER_MS, window = TS_NS_PER_S;
  uint64_t start = plat_clock_ns(), quiet_since = start, busy0, total0;
  uint64_t ours0 = plat_process_cpu_ns();
  double last_outside = 0;
  ts_err err;
  if (plat_machine_cpu_ns(&busy0, &total0, &err) != TS_OK) {
    snprintf(warning, len, "quiet gate skipped: %s", err.text);
    return 0;
  }
  for (;;) {
    if (plat_cancel_wait(cancel, step))
      return 1;
    uint64_t busy1, total1, ours1 = plat_process_cpu_ns(), now = plat_clock_ns();
    if (plat_machine_cpu_ns(&busy1, &total1, &err) != TS_OK)
      break;
    double total = (double)(total1 - total0);
    double outside =
        total > 0 ? ((double)(busy1 - busy0) - (double)(ours1 - ours0)) / total * 100 : 0;
    last_outside = outside < 0 ? 0 : outside;
    if (last_outside >= p->quiet_cpu_pct)
      quiet_since = now;
    *waited_ns = now - start;
    if (now - quiet_since >= window)
      return 0;
    if (*waited_ns >= p->quiet_timeout_ns) {
      snprintf(warning, len,
               "quiet gate timed out after %.0f s: CPU use outside ThreadSoup %.0f%% "
               "(threshold %g%%)",
               (double)*waited_ns / (double)TS_NS_PER_S, last_outside, p->quiet_cpu_pct);
      return 0;
    }
    busy0 = busy1;
    total0 = total1;
    ours0 = ours1;
  }
  return 0;
}

#define TRIAL_MAX_METRICS (BENCH_MAX_SUBSCORES + PLAT_MAX_STATES + 10)
/* 1 ms sleeps the timer probe times per trial: the median of 7 is steady, and 7 default sleeps
   on Windows (one 15.6 ms tick each) cost about 0.1 s of the settle time. */
#define TRIAL_TIMER_SAMPLES 7

/* Runs one trial and commits its result. TS_EINTERRUPTED when interrupted before the benchmark
   (the trial stays pending, to run on resume). */
static int run_trial(const trial_context *t, experiment_progress *progress, ts_err *err) {
  char started_at[32], finished_at[32], warning[256];
  plat_utc_timestamp(started_at, sizeof started_at);

  const char *arg, *settings[BENCH_SETTINGS_MAX];
  const bench_def *bench = plan_bench(t->p, t->bench_spec, &arg, settings, err);
  if (!bench)
    return err->code;

  load *l = NULL;
  int rc = load_start(t->condition, t->cancel, &l, err);
  if (rc != TS_OK)
    return rc;
  /* What a sleeper of the condition's resolution gets now, with the load running: the OS's timer
     resolution and how late 1 ms sleeps end. It runs before the census window and is taken out
     of the settle time, so neither the load's figures nor the benchmark see it. */
  load_timer_probe probe;
  ts_err probe_err;
  if (load_timer_probe_run(load_spec_resolution(t->condition), TRIAL_TIMER_SAMPLES, &probe,
                           &probe_err) != TS_OK) {
    snprintf(probe.note, sizeof probe.note, "timer probe failed: %s", probe_err.text);
    probe.cost_ns = 0;
  }
  uint64_t settle_ns = t->p->settle_ns > probe.cost_ns ? t->p->settle_ns - probe.cost_ns : 0;
  /* The load's own behaviour is measured over settle and gate, before the benchmark. */
  ts_err census_err;
  plat_process_census census;
  uint64_t window_start = plat_clock_ns(), cpu_start = plat_process_cpu_ns();
  uint64_t switches_start = 0;
  if (plat_census_process(plat_self_pid(), &census, &census_err) == TS_OK)
    switches_start = census.context_switches;
  uint64_t census_cost = plat_process_cpu_ns() - cpu_start;

  uint64_t gate_ns = 0;
  if (plat_cancel_wait(t->cancel, settle_ns) ||
      quiet_gate(t->p, t->cancel, &gate_ns, warning, sizeof warning)) {
    load_stop(l);
    return ts_err_set(err, TS_EINTERRUPTED, "interrupted");
  }

  /* Every sleeper has started by now: what they asked for and what they got. */
  plat_resolution asked = load_spec_resolution(t->condition), started, obtained;
  char timer_note[160];
  load_timer_state(l, &started, &obtained, timer_note, sizeof timer_note);
  if (asked == PLAT_RESOLUTION_HIGH && started != PLAT_RESOLUTION_HIGH)
    snprintf(timer_note, sizeof timer_note, "no sleeper had started when timers were counted");
  if (asked == PLAT_RESOLUTION_HIGH && obtained != PLAT_RESOLUTION_HIGH) {
    size_t used = strlen(warning);
    snprintf(warning + used, sizeof warning - used, "%s%s%s%s", used ? "; " : "", timer_note,
             probe.note[0] ? ": " : "", probe.note);
  }
  rc = store_trial_timer(t->s, t->trial_id, plat_resolution_name(asked),
                         plat_resolution_name(obtained), probe.info.current_us, err);
  if (rc != TS_OK) {
    load_stop(l);
    return rc;
  }

  /* The census runs before the measured part, never during it. */
  uint64_t census_begin = plat_process_cpu_ns(), window_end = plat_clock_ns();
  plat_census machine = {-1, -1, -1, -1, 0};
  plat_census_machine(&machine, &census_err);
  memset(&census, 0, sizeof census);
  census.threads = -1;
  plat_census_process(plat_self_pid(), &census, &census_err);
  long children = load_spec_processes(t->condition) ? load_count_children() : 0;
  double window_s = (double)(window_end - window_start) / (double)TS_NS_PER_S;
  double load_cpu = (double)(census_begin - cpu_start - census_cost) / (double)TS_NS_PER_S;

  store_metric metrics[TRIAL_MAX_METRICS];
  char state_names[PLAT_MAX_STATES][PLAT_STATE_NAME_MAX + 8];
  int m = 0;
  metrics[m++] = (store_metric){
      "load.switches_per_s",
      window_s > 0 ? (double)(census.context_switches - switches_start) / window_s : 0};
  metrics[m++] = (store_metric){"load.cpu_percent", window_s > 0 ? load_cpu / window_s * 100 : 0};
  metrics[m++] = (store_metric){"load.child_processes", (double)children};
  metrics[m++] = (store_metric){"gate.wait_s", (double)gate_ns / (double)TS_NS_PER_S};
  uint64_t census_cpu_ns = plat_process_cpu_ns() - census_begin;
  metrics[m++] = (store_metric){"census.cpu_ms", (double)census_cpu_ns / (double)TS_NS_PER_MS};
  if (probe.overshoot_us >= 0)
    metrics[m++] = (store_metric){"timer.overshoot_us", probe.overshoot_us};
  metrics[m++] = (store_metric){"timer.probe_ms", (double)probe.cost_ns / (double)TS_NS_PER_MS};
  for (int i = 0; i < census.state_count; i++) {
    snprintf(state_names[i], sizeof state_names[i], "state.%s", census.states[i].name);
    metrics[m++] = (store_metric){state_names[i], (double)census.states[i].threads};
  }

  bench_args args = {arg, t->p->work_scale, settings, t->p->bench_timeout_ns, t->cancel};
  /* This thread runs the benchmark (or starts its program): normal priority, out of power
     throttling; the power source is read on both sides of it. */
  char thread_throttling[PLAT_BENCH_TEXT_MAX], power_source[64];
  plat_bench_thread_begin(thread_throttling, sizeof thread_throttling);
  const char *power_before = plat_power_source();
  bench_result result;
  memset(&result, 0, sizeof result);
  rc = bench->run(&args, &result, err);
  const char *power_after = plat_power_source();
  if (strcmp(power_before, power_after) == 0)
    snprintf(power_source, sizeof power_source, "%s", power_before);
  else
    snprintf(power_source, sizeof power_source, "%s->%s", power_before, power_after);
  load_stop(l);
  plat_utc_timestamp(finished_at, sizeof finished_at);
  if (rc != TS_OK)
    return rc;

  for (int i = 0; i < result.subscore_count && m < TRIAL_MAX_METRICS; i++)
    metrics[m++] = (store_metric){result.subscores[i].name, result.subscores[i].score};
  store_trial_result r = {
      .started_at = started_at,
      .finished_at = finished_at,
      .score = result.score,
      .unit = result.unit,
      .seconds = result.seconds,
      .process_threads = census.threads,
      .machine_processes = machine.processes,
      .machine_threads = machine.threads,
      .metric_count = m,
      .metrics = metrics,
      .warnings = warning[0] ? warning : NULL,
      .power_source = power_source,
      .power_throttling = result.power_throttling[0] ? result.power_throttling : thread_throttling,
      .core_classes = result.core_classes[0] ? result.core_classes : "unknown",
  };
  rc = store_trial_finish(t->s, t->trial_id, &r, err);
  if (rc != TS_OK)
    return rc;
  progress->score = result.score;
  progress->unit = result.unit;
  progress->process_threads = census.threads;
  progress->warnings = r.warnings;
  return TS_OK;
}

/* ---- runs ---- */

typedef struct pending_list {
  store_trial_row *rows;
  int count;
  int capacity;
  int last_seq;
  int last_block;
  int failed;
} pending_list;

static int collect_pending(void *ctx, const store_trial_row *row) {
  pending_list *l = ctx;
  if (row->seq > l->last_seq)
    l->last_seq = row->seq;
  if (row->block > l->last_block)
    l->last_block = row->block;
  if (row->status != STORE_TRIAL_PENDING)
    return 0;
  if (l->count == l->capacity) {
    int capacity = l->capacity ? l->capacity * 2 : 64;
    store_trial_row *rows = realloc(l->rows, (size_t)capacity * sizeof *rows);
    if (!rows) {
      l->failed = 1;
      return 1;
    }
    l->rows = rows;
    l->capacity = capacity;
  }
  l->rows[l->count++] = *row;
  return 0;
}

/* Runs the trials in `l`, in order. */
static int run_pending(store *s, int64_t run_id, const plan *p, pending_list *l, int *done,
                       int total, uint64_t began, const experiment_observer *observer,
                       const plat_cancel *cancel, ts_err *err) {
  for (int k = 0; k < l->count; k++) {
    const store_trial_row *row = &l->rows[k];
    if (plat_cancelled(cancel))
      return ts_err_set(err, TS_EINTERRUPTED, "interrupted");
    int c = plan_condition_index(p, row->condition);
    if (c < 0)
      return ts_err_set(err, TS_ESTORE, "trial %d: condition '%s' is not in the run's plan",
                        row->seq, row->condition);
    trial_context t = {s, p, &p->conditions[c], row->bench, row->id, cancel};
    experiment_progress progress = {
        run_id,     *done + 1, total, row->seq, row->block, p->conditions[c].text,
        row->bench, 0,         "",    -1,       NULL,       0};
    int rc = run_trial(&t, &progress, err);
    if (rc == TS_EINTERRUPTED || rc == TS_ESTORE)
      return rc;
    if (rc != TS_OK) {
      char finished_at[32];
      ts_err ignored;
      plat_utc_timestamp(finished_at, sizeof finished_at);
      ts_err_prefix(err, "trial %d (%s, %s)", row->seq, row->condition, row->bench);
      store_trial_fail(s, row->id, finished_at, err->text, &ignored);
      return rc;
    }
    (*done)++;
    progress.elapsed_ns = plat_clock_ns() - began;
    if (observer && observer->trial_done)
      observer->trial_done(observer->ctx, &progress);
  }
  return TS_OK;
}

static void note(const experiment_observer *observer, const char *text) {
  if (observer && observer->note)
    observer->note(observer->ctx, text);
}

/* Quiet mode for the run: entered before the first trial, always left after the last, whatever
   ended the run. Where it cannot work (Linux, no rights) the run goes on and says so. */
static int enter_quiet(store *s, int64_t run_id, const plan *p, const experiment_observer *o) {
  if (!p->quiet)
    return 0;
  quiet_outcome outcome;
  ts_err err;
  char reason[64], text[1200];
  snprintf(reason, sizeof reason, "run %lld", (long long)run_id);
  /* The pause lasts long enough for a day of trials; leaving the run ends it anyway. */
  int rc = quiet_enter(s, plat_quiet_system(), p->quiet, 24 * 3600, reason, &outcome, &err);
  /* The report shows per run what was asked and what was confirmed. */
  ts_err link_err;
  if (outcome.entry_id && store_quiet_set_run(s, outcome.entry_id, run_id, &link_err) != TS_OK)
    note(o, link_err.text);
  snprintf(text, sizeof text, "quiet mode: %s", rc == TS_OK ? outcome.text : err.text);
  note(o, text);
  return rc == TS_OK;
}

static void leave_quiet(store *s, const experiment_observer *o) {
  quiet_outcome outcome;
  ts_err err;
  char text[1200];
  int rc = quiet_leave(s, plat_quiet_system(), &outcome, &err);
  snprintf(text, sizeof text, "quiet mode restored: %s", rc == TS_OK ? outcome.text : err.text);
  note(o, text);
}

/* The machine checks (`threadsoup doctor`'s quick ones) before the first trial of each sitting:
   stored with the run for its report, and a note; a check that fails does not stop the run. */
static void check_machine(store *s, int64_t run_id, const experiment_observer *o) {
  char text[4096];
  ts_err err;
  if (doctor_check_run(s, run_id, plan_preset_largest_load(), text, sizeof text, &err) != TS_OK)
    snprintf(text, sizeof text, "machine checks not stored: %s", err.text);
  note(o, text);
}

/* The plan's export-to: the finished run's export file written into the folder. A failure is
   logged and kept in the run's detail; the run stays finished, its trials are all there. */
static void export_finished(store *s, int64_t run_id, const plan *p, const char *detail,
                            const char *finished_at, const experiment_observer *observer) {
  char written[PLAT_PATH_MAX], text[600];
  ts_err err;
  if (exchange_export_to_folder(s, run_id, p->export_to, written, sizeof written, &err) == TS_OK) {
    snprintf(text, sizeof text, "exported to %s", written);
    note(observer, text);
    return;
  }
  ts_log(TS_LOG_WARNING, "run %lld: export-to failed: %s", (long long)run_id, err.text);
  snprintf(text, sizeof text, "export-to failed: %s", err.text);
  note(observer, text);
  char with_export[600];
  snprintf(with_export, sizeof with_export, "%s; %s", detail, text);
  if (store_run_end(s, run_id, STORE_RUN_FINISHED, with_export, finished_at, &err) != TS_OK)
    ts_log(TS_LOG_WARNING, "run %lld: %s", (long long)run_id, err.text);
}

int experiment_continue(store *s, int64_t run_id, const plan *p, uint64_t seed,
                        const experiment_observer *observer, const plat_cancel *cancel,
                        ts_err *err) {
  pending_list l = {NULL, 0, 0, 0, 0, 0};
  check_machine(s, run_id, observer);
  int quiet = enter_quiet(s, run_id, p, observer);
  int rc = store_run_trials(s, run_id, collect_pending, &l, err);
  if (rc == TS_OK && l.failed)
    rc = ts_err_set(err, TS_ENOMEM, "no memory for the pending trials");
  int done = 0, total = l.count;
  uint64_t began = plat_clock_ns();
  if (rc == TS_OK && observer && observer->run_started)
    observer->run_started(observer->ctx, run_id, l.count, l.last_seq);
  if (rc == TS_OK)
    rc = run_pending(s, run_id, p, &l, &done, total, began, observer, cancel, err);

  /* Adaptive repetitions: one more block at a time until every comparison is as precise as asked,
     or the budget is spent. */
  while (rc == TS_OK && p->precision_pct > 0) {
    double widest = 0;
    rc = precision_widest_interval(s, run_id, p, &widest, err);
    if (rc != TS_OK)
      break;
    char text[256];
    if (widest <= p->precision_pct) {
      snprintf(text, sizeof text,
               "precision reached: every 95%% CI is within ±%.2f%% (asked ±%g%%)", widest,
               p->precision_pct);
      note(observer, text);
      break;
    }
    if (plat_clock_ns() - began >= p->budget_ns || l.last_block >= PLAN_MAX_REPS) {
      snprintf(text, sizeof text,
               "budget spent before the precision was reached: the widest 95%% CI is ±%.2f%% "
               "(asked ±%g%%)",
               widest, p->precision_pct);
      note(observer, text);
      break;
    }
    int per_block = p->condition_count * p->bench_count;
    store_trial_plan trials[PLAN_MAX_CONDITIONS * PLAN_MAX_BENCHES];
    int n = plan_blocks(p, seed, l.last_block + 1, 1, l.last_seq + 1, trials);
    rc = store_trials_append(s, run_id, trials, n, err);
    if (rc != TS_OK)
      break;
    snprintf(text, sizeof text, "widest 95%% CI ±%.2f%% > ±%g%%: adding block %d", widest,
             p->precision_pct, l.last_block + 1);
    note(observer, text);
    l.count = 0;
    for (int i = 0; i < n && i < per_block; i++) {
      store_trial_row row;
      memset(&row, 0, sizeof row);
      row.id = trials[i].id;
      row.seq = trials[i].seq;
      row.block = trials[i].block;
      snprintf(row.condition, sizeof row.condition, "%s", trials[i].condition);
      snprintf(row.bench, sizeof row.bench, "%s", trials[i].bench);
      row.status = STORE_TRIAL_PENDING;
      collect_pending(&l, &row);
    }
    total += n;
    rc = l.failed ? ts_err_set(err, TS_ENOMEM, "no memory for the added trials")
                  : run_pending(s, run_id, p, &l, &done, total, began, observer, cancel, err);
  }
  free(l.rows);
  if (quiet)
    leave_quiet(s, observer);

  char finished_at[32], detail[600];
  ts_err end_err;
  plat_utc_timestamp(finished_at, sizeof finished_at);
  store_run_status status = rc == TS_OK             ? STORE_RUN_FINISHED
                            : rc == TS_EINTERRUPTED ? STORE_RUN_INTERRUPTED
                                                    : STORE_RUN_FAILED;
  snprintf(detail, sizeof detail, "%d trials run in this sitting%s%s", done,
           rc == TS_OK ? "" : "; ", rc == TS_OK ? "" : err->text);
  int end_rc = store_run_end(s, run_id, status, detail, finished_at, &end_err);
  if (rc == TS_OK && end_rc != TS_OK) {
    *err = end_err;
    rc = end_rc;
  }
  if (rc == TS_OK && p->export_to[0])
    export_finished(s, run_id, p, detail, finished_at, observer);
  return rc;
}

int experiment_run(store *s, const plan *p, uint64_t seed, const experiment_observer *observer,
                   const plat_cancel *cancel, int64_t *run_id, ts_err *err) {
  int rc = experiment_start(s, p, seed, run_id, err);
  return rc == TS_OK ? experiment_continue(s, *run_id, p, seed, observer, cancel, err) : rc;
}

int experiment_resume(store *s, int64_t run_id, const experiment_observer *observer,
                      const plat_cancel *cancel, plan *p, ts_err *err) {
  store_run_row *row = malloc(sizeof *row);
  if (!row)
    return ts_err_set(err, TS_ENOMEM, "no memory to read run %lld", (long long)run_id);
  int rc = store_run_get(s, run_id, row, err);
  if (rc == TS_OK && row->status == STORE_RUN_FINISHED)
    rc = ts_err_set(err, TS_EUSAGE, "run %lld is already finished (%d trials done)",
                    (long long)run_id, row->trials_done);
  if (rc == TS_OK && strcmp(row->plan_name, "manual") == 0)
    rc = ts_err_set(err, TS_EUSAGE, "run %lld holds scores typed in by hand; nothing to resume",
                    (long long)run_id);
  char origin[64];
  snprintf(origin, sizeof origin, "the plan of run %lld", (long long)run_id);
  if (rc == TS_OK)
    rc = plan_parse(row->plan_text, origin, p, err);
  uint64_t seed = row->seed;
  free(row);
  if (rc == TS_OK)
    rc = store_run_reopen(s, run_id, err);
  return rc == TS_OK ? experiment_continue(s, run_id, p, seed, observer, cancel, err) : rc;
}
