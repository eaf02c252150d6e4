/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* experiment.c - runs a plan trial by trial: load up, settle, wait for quiet, census, benchmark,
   load down, commit; adds blocks until the asked precision is reached; resumes from the
   database. */
#include "experiment.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/bench.h"
#include "../doctor/doctor.h"
#include "../engine/freeze.h"
#include "../exchange/export.h"
#include "../quiet/quiet.h"
#include "../stats/dimension.h"
#include "../stats/sequential.h"
#include "estimate.h"
#include "precision.h"
#include "programs.h"
#include "threadsoup/buf.h"
#include "threadsoup/log.h"
#include "threadsoup/parse.h"
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

/* ---- what the trials of a run share ---------------------------------------------------------- */

/* A reading of the machine's CPU time and ours, for the CPU use outside this process between two
   of them (outside_share). Over a benchmark ours includes the programs we ran and waited for
   (the built-in benchmark's own process, a command): `children`. The quiet gate counts this
   process alone, since tearing down a `procs` load reaps thousands of idle children at once and
   their whole lives' CPU would land in one of its samples as ours. */
typedef struct outside_cpu {
  uint64_t busy, total, self, children;
  uint64_t at; /* plat_clock_ns when read */
  int known;
} outside_cpu;

static outside_cpu outside_read(void) {
  outside_cpu o = {0, 0, plat_process_cpu_ns(), plat_children_cpu_ns(), plat_clock_ns(), 0};
  ts_err err;
  o.known = plat_machine_cpu_ns(&o.busy, &o.total, &err) == TS_OK;
  return o;
}

/* A run's trials are alike but not apart in time: one trial's load is torn down while the next
   one's starts and settles; the quiet gate's record decides whether trials still wait for quiet;
   the benchmark runs per trial and the census's rota are chosen once, for the whole run. */
typedef struct runner {
  load *stopping;           /* the previous trial's load, being stopped on `teardown`; NULL: none */
  plat_thread teardown;     /* runs load_stop(stopping) */
  atomic_int teardown_done; /* set by the teardown thread as it ends */
  plat_resolution stopping_resolution;
  int gate_timeouts; /* the quiet gate's timeouts in a row */
  int gate_given_up; /* after RUNNER_GATE_TIMEOUTS of them: trials record outside CPU instead */
  /* The quiet gate's last reading (at the end of the last benchmark) and since when CPU use
     outside has stayed under its threshold: carried into the next trial's gate, so the quiet it
     waits for may begin before that trial does, in the benchmark before it or while its load
     starts. gate_carried 0: nothing carried (the run's first trial, a reading that failed, a
     sleep). */
  int gate_carried;
  outside_cpu gate_last;
  uint64_t gate_quiet_since;
  uint64_t gate_asleep_ns; /* plat_suspended_ns as that trial ended */
  int iterations;          /* benchmark runs per trial; 0 until chosen (runner_iterations) */
  int census_every[PLAN_MAX_CONDITIONS]; /* 0 or 1: a census every trial; N: every Nth */
  int census_turn[PLAN_MAX_CONDITIONS];  /* the condition's trials so far in this sitting */
  experiment_programs programs;          /* the programs the conditions freeze, counted */
} runner;

/* The quiet gate gives way to recording after this many timeouts in a row: a machine that is busy
   for 2 trials' timeouts is busy for the run, and waiting would only stretch it. */
#define RUNNER_GATE_TIMEOUTS 2
/* A census that costs more CPU than this is taken on every CENSUS_EVERY-th trial of its
   condition only; the others' counts are missing (-1, no metrics), not zero. Measured on a busy
   2-core VM (census.cpu_ms, quick): 1,500 sleepers 43-46 ms, 5,000 132-160 ms, 15,000 690-737
   ms. 100 ms keeps every census up to a few thousand threads (at most 2 % of a trial) and samples
   the ones that cost 3 to 10 % of theirs. */
#define CENSUS_COSTLY_NS (100 * TS_NS_PER_MS)
#define CENSUS_EVERY 3
/* The most benchmark runs per trial (iter.1 .. iter.8), as the plan allows. */
#define ITERATIONS_MAX DIMENSION_MAX_RUNS
/* load_stop's thread: it joins thousands of threads, no deep calls. */
#define TEARDOWN_STACK (256 * 1024)

static void teardown_main(void *arg) {
  runner *rn = arg;
  load_stop(rn->stopping);
  atomic_store(&rn->teardown_done, 1);
}

/* Hands the trial's load to a thread of its own to stop, so that the next trial's load starts and
   settles meanwhile; stops it here when no thread can be had. */
static void teardown_begin(runner *rn, load *l, plat_resolution resolution) {
  ts_err err;
  rn->stopping = l;
  rn->stopping_resolution = resolution;
  atomic_store(&rn->teardown_done, 0);
  if (plat_thread_start(&rn->teardown, TEARDOWN_STACK, teardown_main, rn, &err) != TS_OK) {
    load_stop(l);
    rn->stopping = NULL;
  }
}

/* Waits until the previous load is gone; returns how long that took. */
static uint64_t teardown_join(runner *rn) {
  if (!rn->stopping)
    return 0;
  uint64_t begin = plat_clock_ns();
  plat_thread_join(rn->teardown);
  rn->stopping = NULL;
  return plat_clock_ns() - begin;
}

/* ---- one trial ------------------------------------------------------------------------------- */

typedef struct trial_context {
  store *s;
  const plan *p;
  const load_spec *condition;
  int condition_index;
  const char *bench_spec;
  int64_t trial_id;
  int iterations;            /* benchmark runs in this trial */
  const plat_cancel *cancel; /* the run's stop request; NULL: the process interrupt alone */
  const plat_peer *asker;    /* who the run is for (experiment_observer.asker) */
} trial_context;

/* The load's own behaviour (its CPU and context switches) is measured over a window before the
   benchmark that opens once the previous load is gone, so the old threads' ends are not counted. */
typedef struct load_window {
  int census; /* the process census is taken in this trial (census_due) */
  uint64_t start_ns, cpu_start, census_cost_ns;
  uint64_t switches_start;
  int have_switches;
  experiment_programs *programs; /* counted over the window too; NULL: not in this trial */
} load_window;

static void window_open(load_window *w) {
  w->start_ns = plat_clock_ns();
  w->cpu_start = plat_process_cpu_ns();
  w->have_switches = 0;
  if (w->census) {
    plat_process_census census;
    ts_err err;
    if (plat_census_process(plat_self_pid(), &census, &err) == TS_OK) {
      w->switches_start = census.context_switches;
      w->have_switches = 1;
    }
    if (w->programs)
      experiment_programs_open(w->programs);
  }
  w->census_cost_ns = plat_process_cpu_ns() - w->cpu_start;
}

/* The share of the machine's CPU time used outside this process, in percent (never below 0: the
   readings of the machine and of the process are not taken at the same instant), from the
   machine's busy time, ours and the machine's total time over one interval (total > 0). */
static double outside_share(uint64_t busy, uint64_t ours, uint64_t total) {
  double outside = ((double)busy - (double)ours) / (double)total * 100;
  return outside < 0 ? 0 : outside;
}

/* What the wait before a trial's benchmark took. */
typedef struct settle_wait {
  uint64_t waited_ns;   /* the whole wait, from after the timer probe */
  uint64_t teardown_ns; /* of it, waiting for the previous load's teardown after the settle */
  uint64_t gate_ns;     /* of it, past the settle: the quiet gate's wait (gate.wait_s) */
  int timed_out;        /* the quiet gate timed out */
  uint64_t quiet_since; /* since when the gate saw quiet (0: the gate did not watch) */
} settle_wait;

/* The quiet the gate waits for: a second, or the settle where that is shorter, but at least two of
   its 250 ms samples: a plan with a short settle (quick's 0.1 s) then waits 0.5 s, not a second,
   where no quiet carried from the trial before holds it (the run's first trial, a busy spell). */
static uint64_t gate_window_ns(uint64_t settle_ns) {
  const uint64_t least = 500 * TS_NS_PER_MS, most = TS_NS_PER_S;
  return settle_ns < least ? least : settle_ns > most ? most : settle_ns;
}

/* The settle and the quiet gate, watched together: the gate's quiet may lie within the settle, so
   a quiet machine waits max(settle, gate), not their sum. The wait never ends before
   the settle has passed, the previous load's teardown has ended (it is joined then at the latest)
   and the load window has had min(settle, 1 s) of its own; with the gate on, until CPU use
   outside this process has stayed under the plan's threshold for gate_window_ns (quiet that began
   in the trial before, carried by gate_carry, counts: starting a load or tearing one down is our
   CPU, not outside), or the timeout (counted from the later of the settle's end and the
   teardown's) has passed, which `warning` then says; `asleep_begin` is plat_suspended_ns as the
   trial began. Returns 1 when interrupted or cancelled. */
static int settle_and_gate(runner *rn, const plan *p, const plat_cancel *cancel, uint64_t settle_ns,
                           uint64_t asleep_begin, load_window *lw, settle_wait *w, char *warning,
                           size_t len) {
  const uint64_t step = 250 * TS_NS_PER_MS, poll = 20 * TS_NS_PER_MS;
  const uint64_t window = gate_window_ns(settle_ns);
  const uint64_t min_window = settle_ns < TS_NS_PER_S ? settle_ns : TS_NS_PER_S;
  char quiet_for[32];
  ts_format_duration(window, quiet_for, sizeof quiet_for);
  memset(w, 0, sizeof *w);
  warning[0] = '\0';
  uint64_t start = plat_clock_ns(), settle_end = start + settle_ns, joined_at = start;
  uint64_t quiet_since = start, last_sample = start, busy0 = 0, total0 = 0;
  uint64_t ours0 = plat_process_cpu_ns();
  /* The gate's last sample, and the last one at or over the threshold (what kept it waiting). */
  double last_outside = 0, last_busy = -1;
  int joined = rn->stopping == NULL;
  if (joined)
    window_open(lw);
  int gate = p->quiet_cpu_pct > 0 && !rn->gate_given_up;
  ts_err err;
  /* A carried quiet (nothing between the last benchmark and now may have slept) is judged over
     that gap in one reading, which can only end it; the trial's own reading then comes after
     `own_step`, as short as the settle (at least `least`), as the quiet it confirms is already
     long. A gap shorter than `least` is not judged alone (in clock ticks of 10 ms, a commit's
     few ms would read as a large share): the trial's own reading spans it. Without a carried
     quiet, the gate starts from here and samples every `step`. */
  const uint64_t least = 100 * TS_NS_PER_MS;
  int carried =
      gate && rn->gate_carried && experiment_time_asleep(rn->gate_asleep_ns, asleep_begin) == 0;
  uint64_t own_step = settle_ns < least ? least : settle_ns > step ? step : settle_ns;
  if (gate && plat_machine_cpu_ns(&busy0, &total0, &err) != TS_OK) {
    snprintf(warning, len, "quiet gate skipped: %s", err.text);
    gate = carried = 0;
  }
  if (carried) {
    quiet_since = rn->gate_quiet_since;
    if (start - rn->gate_last.at < least || total0 <= rn->gate_last.total) {
      busy0 = rn->gate_last.busy;
      total0 = rn->gate_last.total;
      ours0 = rn->gate_last.self;
      last_sample = rn->gate_last.at;
    } else {
      double gap = outside_share(busy0 - rn->gate_last.busy, ours0 - rn->gate_last.self,
                                 total0 - rn->gate_last.total);
      if (gap >= p->quiet_cpu_pct) {
        quiet_since = start;
        last_busy = gap;
      }
      last_outside = gap;
    }
  }
  uint64_t now = start;
  for (;;) {
    now = plat_clock_ns();
    if (!joined && (atomic_load(&rn->teardown_done) || now >= settle_end)) {
      uint64_t took = teardown_join(rn);
      if (now >= settle_end)
        w->teardown_ns += took;
      now = joined_at = plat_clock_ns();
      joined = 1;
      window_open(lw);
    }
    int settled = now >= settle_end;
    int window_ok = joined && now - joined_at >= min_window;
    /* A carried quiet still needs a reading of this trial's own, after its load started. */
    int quiet_ok = !gate || (last_sample > start && last_sample >= quiet_since &&
                             last_sample - quiet_since >= window);
    if (settled && window_ok && quiet_ok)
      break;
    uint64_t gate_from = settle_end > joined_at ? settle_end : joined_at;
    if (gate && settled && window_ok && now - gate_from >= p->quiet_timeout_ns) {
      /* The gate waits for its whole window under the threshold: the last sample alone may be
         under it, so the message says what was over it too. */
      if (last_outside >= p->quiet_cpu_pct) /* the last reading is the one over it */
        snprintf(warning, len,
                 "quiet gate timed out after %.0f s: CPU use outside ThreadSoup was %.0f%% at "
                 "the last reading, over the threshold %g%%; it must stay under the threshold "
                 "for %s",
                 (double)(now - gate_from) / (double)TS_NS_PER_S, last_outside, p->quiet_cpu_pct,
                 quiet_for);
      else if (last_busy >= 0)
        snprintf(warning, len,
                 "quiet gate timed out after %.0f s: CPU use outside ThreadSoup was %.0f%% at "
                 "its last reading over the threshold %g%% and %.0f%% at the last reading; it "
                 "must stay under the threshold for %s",
                 (double)(now - gate_from) / (double)TS_NS_PER_S, last_busy, p->quiet_cpu_pct,
                 last_outside, quiet_for);
      else
        snprintf(warning, len,
                 "quiet gate timed out after %.0f s: CPU use outside ThreadSoup stayed under the "
                 "threshold %g%% (%.0f%% at the last reading), but not yet for the %s it must",
                 (double)(now - gate_from) / (double)TS_NS_PER_S, p->quiet_cpu_pct, last_outside,
                 quiet_for);
      w->timed_out = 1;
      break;
    }
    /* Wake for the next of: the gate's sample, the settle's end, the window's end, a look at the
       teardown. The gate samples every `step` whatever the wakes, as short samples are noisy
       (a carried quiet's own reading after `own_step`). */
    uint64_t this_step = carried && last_sample <= start ? own_step : step;
    uint64_t wait = step;
    if (gate)
      wait = last_sample + this_step > now ? last_sample + this_step - now : 0;
    if (!settled && settle_end - now < wait)
      wait = settle_end - now;
    if (joined && !window_ok && joined_at + min_window - now < wait)
      wait = joined_at + min_window - now;
    if (!joined && wait > poll)
      wait = poll;
    if (plat_cancel_wait(cancel, wait))
      return 1;
    uint64_t sampled = plat_clock_ns();
    if (!gate || sampled - last_sample < this_step)
      continue;
    uint64_t busy1, total1, ours1 = plat_process_cpu_ns();
    if (plat_machine_cpu_ns(&busy1, &total1, &err) != TS_OK) {
      snprintf(warning, len, "quiet gate skipped: %s", err.text);
      gate = 0;
      continue;
    }
    last_outside =
        total1 != total0 ? outside_share(busy1 - busy0, ours1 - ours0, total1 - total0) : 0;
    last_sample = sampled;
    if (last_outside >= p->quiet_cpu_pct) {
      quiet_since = sampled;
      last_busy = last_outside;
    }
    busy0 = busy1;
    total0 = total1;
    ours0 = ours1;
  }
  w->waited_ns = now - start;
  w->gate_ns = now > settle_end ? now - settle_end : 0;
  w->quiet_since = gate ? quiet_since : 0;
  return 0;
}

/* Carries the gate's quiet over the benchmark into the next trial: `after` is the reading at the
   benchmark's end, `outside` the CPU use outside over the benchmark (-1: not known, and then
   nothing is carried), `asleep_end` plat_suspended_ns as the trial ended. Quiet that began
   before this trial's gate stays begun unless the benchmark's own reading was at or over the
   threshold. */
static void gate_carry(runner *rn, const plan *p, const settle_wait *w, outside_cpu after,
                       double outside, uint64_t asleep_end) {
  rn->gate_carried = w->quiet_since > 0 && after.known && outside >= 0;
  if (!rn->gate_carried)
    return;
  rn->gate_last = after;
  rn->gate_asleep_ns = asleep_end;
  rn->gate_quiet_since = outside >= p->quiet_cpu_pct ? after.at : w->quiet_since;
}

/* Whether this trial of condition c takes the census: every trial until one has cost more than
   CENSUS_COSTLY_NS of CPU, then every CENSUS_EVERY-th. */
static int census_due(const runner *rn, int c) {
  return rn->census_every[c] <= 1 || rn->census_turn[c] % rn->census_every[c] == 0;
}

static double outside_percent(outside_cpu a, outside_cpu b) {
  if (!a.known || !b.known || b.total <= a.total)
    return -1;
  return outside_share(b.busy - a.busy, (b.self + b.children) - (a.self + a.children),
                       b.total - a.total);
}

/* What the census read as the load window closed: the machine's and this process's counts, the
   frozen programs' figures, the window's length and the load's CPU over it, and what reading them
   cost. Counts not taken (census_due) are -1. */
typedef struct trial_census {
  plat_census machine;
  plat_process_census process;
  long children;
  store_metric program_metrics[EXPERIMENT_PROGRAM_METRICS];
  int program_m;
  double window_s, load_cpu_s;
  uint64_t cpu_ns, wall_ns;
} trial_census;

/* Closes the load window: the census never runs during a benchmark; where it costs, not every
   trial (census_due), and then its counts are missing. In the baseline's trials it counts the
   frozen programs too, over the same window as the load. */
static void census_take(runner *rn, const trial_context *t, const load_window *lw,
                        trial_census *c) {
  uint64_t census_begin = plat_process_cpu_ns(), window_end = plat_clock_ns();
  ts_err census_err;
  memset(c, 0, sizeof *c);
  c->machine = (plat_census){-1, -1, -1, -1, 0};
  c->process.threads = -1;
  c->children = -1;
  if (lw->census) {
    plat_census_machine(&c->machine, &census_err);
    plat_census_process(plat_self_pid(), &c->process, &census_err);
    c->children = load_spec_processes(t->condition) ? load_count_children() : 0;
    if (lw->programs)
      c->program_m = experiment_programs_close(lw->programs, c->machine.context_switches > 0,
                                               c->program_metrics);
  }
  c->window_s = (double)(window_end - lw->start_ns) / (double)TS_NS_PER_S;
  c->load_cpu_s = (double)(census_begin - lw->cpu_start - lw->census_cost_ns) / (double)TS_NS_PER_S;
  c->cpu_ns = plat_process_cpu_ns() - census_begin;
  c->wall_ns = plat_clock_ns() - window_end;
  if (lw->census && c->cpu_ns > CENSUS_COSTLY_NS)
    rn->census_every[t->condition_index] = CENSUS_EVERY;
  rn->census_turn[t->condition_index]++;
}

/* Whether a load's parts ask for a share of the CPU (a burner's duty), as against sleeping or
   waiting: what they got of it alone is what the calibration reads. */
static int load_has_duty(const load_spec *condition) {
  for (int i = 0; i < condition->part_count; i++)
    if (load_part_cpu_share(&condition->parts[i]) > 0)
      return 1;
  return 0;
}

#define TRIAL_MAX_METRICS                                                                          \
  (2 * BENCH_MAX_SUBSCORES + PLAT_MAX_STATES + ITERATIONS_MAX + EXPERIMENT_PROGRAM_METRICS + 20)
/* 1 ms sleeps the timer probe times per trial: the median of 7 is steady, and 7 default sleeps
   on Windows (one 15.6 ms tick each) cost about 0.1 s of the settle time. */
#define TRIAL_TIMER_SAMPLES 7

/* Runs the trial's benchmark t->iterations times into *result: the score and each sub-score the
   mean of the runs', the seconds their sum; each run's score into iter.N metrics (more than one
   run). */
static int run_iterations(const trial_context *t, const bench_def *bench, const bench_args *args,
                          bench_result *result, store_metric *metrics, int *m,
                          char (*iter_names)[16], ts_err *err) {
  double score = 0, seconds = 0, subscores[BENCH_MAX_SUBSCORES] = {0};
  for (int i = 0; i < t->iterations; i++) {
    memset(result, 0, sizeof *result);
    int rc = bench->run(args, result, err);
    if (rc != TS_OK)
      return rc;
    score += result->score;
    seconds += result->seconds;
    for (int k = 0; k < result->subscore_count; k++)
      subscores[k] += result->subscores[k].score;
    if (t->iterations > 1) {
      snprintf(iter_names[i], sizeof iter_names[i], "iter.%d", i + 1);
      metrics[(*m)++] = (store_metric){iter_names[i], result->score};
    }
  }
  result->score = score / t->iterations;
  result->seconds = seconds;
  for (int k = 0; k < result->subscore_count; k++)
    result->subscores[k].score = subscores[k] / t->iterations;
  return TS_OK;
}

/* Runs one trial and commits its result. TS_EINTERRUPTED when interrupted before the benchmark
   (the trial stays pending, to run on resume). A trial during which the machine slept measured
   a machine that stopped, whose clocks the OS may not have stopped with it: it commits nothing,
   the trial stays pending and *asleep_ns gets the time asleep (0 otherwise); `rerun_note`, when
   not empty, is the warning the trial keeps when it is measured again. The trial's load is left to
   rn's teardown, which the next trial (or the run's end) joins. */
static int run_trial(runner *rn, const trial_context *t, experiment_progress *progress,
                     const char *rerun_note, uint64_t *asleep_ns, ts_err *err) {
  char started_at[32], finished_at[32], warning[512];
  plat_utc_timestamp(started_at, sizeof started_at);
  uint64_t trial_begin = plat_clock_ns();
  uint64_t asleep_begin = plat_suspended_ns();
  *asleep_ns = 0;

  const char *arg, *settings[BENCH_SETTINGS_MAX];
  const bench_def *bench = plan_bench(t->p, t->bench_spec, &arg, settings, err);
  if (!bench)
    return err->code;

  /* A sleeper of the old load could still hold another timer resolution than this condition
     asks for, which the timer probe would see: then the old load goes first. */
  plat_resolution asked = load_spec_resolution(t->condition);
  /* A freeze waits too: the old load's thaw must not land on this load's freeze. So does a load
     that starts threads or processes: tearing down 15,000 threads while 5,000 start made the start
     take 3.6-5.1 s instead of 1.0-1.6 s on a busy 2-core VM (both ask the kernel for the same
     address space), more than the teardown alone takes; a baseline still settles beside it. */
  int freezes = freeze_spec_has(t->condition);
  uint64_t joined_first_ns =
      rn->stopping && (rn->stopping_resolution != asked || freezes || t->condition->part_count > 0)
          ? teardown_join(rn)
          : 0;
  if (freezes) {
    int noted = experiment_freeze_note(t->s, t->condition, t->asker, err);
    if (noted != TS_OK)
      return noted;
  }

  load *l = NULL;
  int rc = load_start_for(t->condition, t->asker, t->cancel, &l, err);
  if (rc != TS_OK)
    return rc;
  /* What a sleeper of the condition's resolution gets now, with the load running: the OS's timer
     resolution and how late 1 ms sleeps end. It runs before the load window and is taken out
     of the settle time, so neither the load's figures nor the benchmark see it. */
  load_timer_probe probe;
  ts_err probe_err;
  if (load_timer_probe_run(asked, TRIAL_TIMER_SAMPLES, &probe, &probe_err) != TS_OK) {
    snprintf(probe.note, sizeof probe.note, "timer probe failed: %s", probe_err.text);
    probe.cost_ns = 0;
  }
  uint64_t started_ns = plat_clock_ns();
  uint64_t settle_ns = t->p->settle_ns > probe.cost_ns ? t->p->settle_ns - probe.cost_ns : 0;
  load_window lw = {census_due(rn, t->condition_index), 0, 0, 0, 0, 0, NULL};
  if (experiment_programs_counted_in(&rn->programs, t->condition))
    lw.programs = &rn->programs;
  settle_wait wait;
  if (settle_and_gate(rn, t->p, t->cancel, settle_ns, asleep_begin, &lw, &wait, warning,
                      sizeof warning)) {
    load_stop(l);
    return ts_err_set(err, TS_EINTERRUPTED, "interrupted");
  }
  uint64_t stop_ns = joined_first_ns + wait.teardown_ns;
  if (rerun_note[0]) {
    size_t used = strlen(warning);
    snprintf(warning + used, sizeof warning - used, "%s%s", used ? "; " : "", rerun_note);
  }
  rn->gate_timeouts = wait.timed_out ? rn->gate_timeouts + 1 : 0;

  /* Every sleeper has started by now: what they asked for and what they got. */
  plat_resolution started, obtained;
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

  bench_args args = {arg, t->p->work_scale, settings, t->p->bench_timeout_ns, t->cancel};
  /* The load's figures are read after the benchmark, over the settle and the benchmark together:
     a short settle alone would be mostly the threads' own start (200 sleepers read over a few
     ms right after it: 2,100-2,700 switches/s of 800 planned) and would hold no wake-up at all
     of sleepers in phase=sync. They are read before it where the benchmark works in this process
     (its CPU time and switches would count as the load's) or the load has a duty: beside the
     benchmark a burner gets less than its duty, and the calibration reads what it got alone. */
  int figures_after =
      !(bench->in_our_process && bench->in_our_process(&args)) && !load_has_duty(t->condition);
  trial_census cs;
  if (!figures_after)
    census_take(rn, t, &lw, &cs);

  store_metric metrics[TRIAL_MAX_METRICS];
  char state_names[PLAT_MAX_STATES][PLAT_STATE_NAME_MAX + 8], iter_names[ITERATIONS_MAX][16];
  int m = 0;
  /* This thread runs the benchmark (or starts its program): normal priority, out of power
     throttling; the power source is read on both sides of it. */
  char thread_throttling[PLAT_BENCH_TEXT_MAX], power_source[64];
  plat_bench_thread_begin(thread_throttling, sizeof thread_throttling);
  const char *power_before = plat_power_source();
  bench_result result;
  outside_cpu outside_before = outside_read();
  uint64_t bench_begin = plat_clock_ns();
  rc = run_iterations(t, bench, &args, &result, metrics, &m, iter_names, err);
  uint64_t bench_ns = plat_clock_ns() - bench_begin;
  outside_cpu outside_after = outside_read();
  double outside = outside_percent(outside_before, outside_after);
  const char *power_after = plat_power_source();
  if (strcmp(power_before, power_after) == 0)
    snprintf(power_source, sizeof power_source, "%s", power_before);
  else
    snprintf(power_source, sizeof power_source, "%s->%s", power_before, power_after);
  if (figures_after && rc == TS_OK)
    census_take(rn, t, &lw, &cs);
  teardown_begin(rn, l, asked);
  plat_utc_timestamp(finished_at, sizeof finished_at);
  rn->gate_carried = 0; /* until this trial's benchmark is known to have run awake */
  if (rc != TS_OK)
    return rc;
  uint64_t asleep_end = plat_suspended_ns();
  *asleep_ns = experiment_time_asleep(asleep_begin, asleep_end);
  if (*asleep_ns)
    return TS_OK; /* quiet before a sleep says nothing about the machine after it */
  gate_carry(rn, t->p, &wait, outside_after, outside, asleep_end);

  /* The count sums the live threads: one that ended in the window (a client's, in the service)
     can leave it below the start, and then it says nothing. */
  if (lw.census && lw.have_switches && cs.process.context_switches >= lw.switches_start)
    metrics[m++] = (store_metric){
        "load.switches_per_s",
        cs.window_s > 0 ? (double)(cs.process.context_switches - lw.switches_start) / cs.window_s
                        : 0};
  metrics[m++] =
      (store_metric){"load.cpu_percent", cs.window_s > 0 ? cs.load_cpu_s / cs.window_s * 100 : 0};
  if (lw.census)
    metrics[m++] = (store_metric){"load.child_processes", (double)cs.children};
  metrics[m++] = (store_metric){"gate.wait_s", (double)wait.gate_ns / (double)TS_NS_PER_S};
  if (lw.census)
    metrics[m++] = (store_metric){"census.cpu_ms", (double)cs.cpu_ns / (double)TS_NS_PER_MS};
  if (probe.overshoot_us >= 0)
    metrics[m++] = (store_metric){"timer.overshoot_us", probe.overshoot_us};
  metrics[m++] = (store_metric){"timer.probe_ms", (double)probe.cost_ns / (double)TS_NS_PER_MS};
  for (int i = 0; i < cs.program_m; i++)
    metrics[m++] = cs.program_metrics[i];
  for (int i = 0; i < cs.process.state_count; i++) {
    snprintf(state_names[i], sizeof state_names[i], "state.%s", cs.process.states[i].name);
    metrics[m++] = (store_metric){state_names[i], (double)cs.process.states[i].threads};
  }
  if (outside >= 0)
    metrics[m++] = (store_metric){"outside.cpu_percent", outside};
  metrics[m++] = (store_metric){"iter.count", (double)t->iterations};
  /* Where the trial's wall time went (the report's time section): the parts and the whole, up
     to the commit. */
  double s_per_ns = 1.0 / (double)TS_NS_PER_S;
  metrics[m++] = (store_metric){"time.load_start_s",
                                (double)(started_ns - trial_begin - joined_first_ns) * s_per_ns};
  metrics[m++] =
      (store_metric){"time.settle_s", (double)(wait.waited_ns - wait.teardown_ns) * s_per_ns};
  metrics[m++] = (store_metric){"time.load_stop_s", (double)stop_ns * s_per_ns};
  metrics[m++] = (store_metric){"time.census_s", (double)cs.wall_ns * s_per_ns};
  metrics[m++] = (store_metric){"time.bench_s", (double)bench_ns * s_per_ns};
  metrics[m++] = (store_metric){"time.trial_s", (double)(plat_clock_ns() - trial_begin) * s_per_ns};
  for (int i = 0; i < result.subscore_count && m < TRIAL_MAX_METRICS; i++)
    metrics[m++] = (store_metric){result.subscores[i].name, result.subscores[i].score};
  store_trial_result r = {
      .started_at = started_at,
      .finished_at = finished_at,
      .score = result.score,
      .unit = result.unit,
      .seconds = result.seconds,
      .process_threads = cs.process.threads,
      .machine_processes = cs.machine.processes,
      .machine_threads = cs.machine.threads,
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
  progress->process_threads = cs.process.threads;
  progress->warnings = r.warnings;
  return TS_OK;
}

/* ---- runs ---- */

/* Warm-up trials whose measured times choose iterations = auto. */
#define WARMUP_IDS_MAX 64

typedef struct pending_list {
  store_trial_row *rows;
  int count;
  int capacity;
  int last_seq;
  int last_block;
  int failed;
  /* The run's trials before this sitting, to choose the iterations as the run did. */
  int64_t warmup_ids[WARMUP_IDS_MAX];
  int warmup_count;
  int done_in_blocks;
  runner rn;
} pending_list;

static int collect_pending(void *ctx, const store_trial_row *row) {
  pending_list *l = ctx;
  if (row->seq > l->last_seq)
    l->last_seq = row->seq;
  if (row->block > l->last_block)
    l->last_block = row->block;
  if (row->block == 0 && l->warmup_count < WARMUP_IDS_MAX)
    l->warmup_ids[l->warmup_count++] = row->id;
  if (row->block > 0 && row->status == STORE_TRIAL_DONE)
    l->done_in_blocks++;
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

static void note(const experiment_observer *observer, const char *text) {
  if (observer && observer->note)
    observer->note(observer->ctx, text);
}

/* What the stored trials say about the iterations: the warm-ups' times, and the count of the run's
   trials done earlier. */
typedef struct iteration_tally {
  const pending_list *l;
  double overhead_s, bench_s;
  int timed;    /* warm-ups whose trial time was read */
  double count; /* iter.count of a done trial of a block; 0: none seen */
} iteration_tally;

static int tally_metric(void *ctx, int64_t trial_id, const char *name, double value) {
  iteration_tally *t = ctx;
  for (int i = 0; i < t->l->warmup_count; i++)
    if (t->l->warmup_ids[i] == trial_id) {
      /* The overhead without the gate's wait past the settle: a quiet machine does not wait it,
         and a busy one stops waiting (RUNNER_GATE_TIMEOUTS). */
      if (strcmp(name, "time.trial_s") == 0) {
        t->overhead_s += value;
        t->timed++;
      } else if (strcmp(name, "time.bench_s") == 0 || strcmp(name, "gate.wait_s") == 0) {
        t->overhead_s -= value;
        if (name[0] == 't')
          t->bench_s += value;
      }
      return 0;
    }
  if (strcmp(name, "iter.count") == 0 && value >= 1) {
    t->count = value;
    return 1;
  }
  return 0;
}

/* The history of the plan's first benchmark that has any, for iterations = auto: its paired log
   ratios by runs per trial (*by_runs, empty when none), and its trials' time besides the
   benchmark (*around_s, NaN when not known). A history that cannot be read is none. */
static void history_for_iterations(store *s, const plan *p, dimension_tally *by_runs,
                                   double *around_s) {
  estimate *e = malloc(sizeof *e);
  ts_err ignored;
  memset(by_runs, 0, sizeof *by_runs);
  *around_s = NAN;
  if (e && estimate_plan(s, p, NULL, e, &ignored) == TS_OK)
    for (int i = 0; i < e->bench_count; i++)
      if (isfinite(e->benches[i].around_seconds)) {
        *by_runs = e->benches[i].by_runs;
        *around_s = e->benches[i].around_seconds;
        break;
      }
  free(e);
}

/* The benchmark runs per trial, chosen once per run before its first block: the plan's number;
   or as the run's earlier trials did (a resumed run keeps its count; trials stored without one
   ran once); or, for auto, by what each count gave in this machine's earlier runs of the
   benchmark (stats/dimension.h: the narrowest interval in the plan's time, or trying the other
   side of one run per trial), with a trial's overhead from those runs (the warm-up runs the first
   condition, usually the baseline, which has no load to start or stop) and a run's time from the
   warm-up; without history the usual count, as many as make the benchmark at least
   DIMENSION_USUAL_SHARE of a trial; 1 without a warm-up. */
static int choose_iterations(store *s, int64_t run_id, const plan *p, const pending_list *l,
                             const experiment_observer *observer, ts_err *err) {
  if (p->iterations > 0)
    return (int)p->iterations;
  iteration_tally t = {l, 0, 0, 0, 0};
  int rc = store_run_metrics(s, run_id, tally_metric, &t, err);
  if (rc != TS_OK)
    return -rc;
  char text[400];
  int k = 1;
  if (t.count >= 1 || l->done_in_blocks > 0) {
    k = t.count >= 1 ? (int)t.count : 1;
    snprintf(text, sizeof text,
             "iterations: %d benchmark run%s per trial, as in the run's earlier "
             "trials",
             k, k == 1 ? "" : "s");
    note(observer, text);
    return k;
  }
  if (!(t.bench_s > 0 && t.overhead_s > 0 && t.timed > 0)) {
    note(observer, "iterations: 1 benchmark run per trial (auto: no warm-up times to choose from)");
    return 1;
  }
  dimension_tally by_runs;
  double around_s;
  history_for_iterations(s, p, &by_runs, &around_s);
  dimension_plan d;
  estimate_dimension_plan(p, around_s > 0 ? around_s : t.overhead_s / t.timed, t.bench_s / t.timed,
                          t.overhead_s + t.bench_s, &d);
  dimension_basis basis = dimension_runs_per_trial(&by_runs, &d, &k);
  int compared = basis > DIMENSION_NONE; /* else no history to go by: the usual count */
  if (!compared)
    k = d.usual_runs;
  ts_buf said = ts_buf_on(text, sizeof text);
  ts_buf_addf(&said, "iterations: %d benchmark %s (auto: ", k,
              k == 1 ? "run per trial" : "runs per trial, the trial's score their mean");
  if (compared) {
    ts_buf_addf(&said, "on this machine's earlier runs");
    for (int runs_per_trial = 1; runs_per_trial <= ITERATIONS_MAX; runs_per_trial++) {
      double v = dimension_variance(&by_runs, runs_per_trial);
      if (isfinite(v))
        ts_buf_addf(&said, ", %d run%s per trial: paired spread %.1f %%", runs_per_trial,
                    runs_per_trial == 1 ? "" : "s", 100 * sqrt(v));
    }
    ts_buf_addf(&said, "%s; a trial spends %.1f s around %.1f s of benchmark)",
                basis == DIMENSION_TRYING     ? "; this run tries the other count"
                : basis == DIMENSION_ONE_ONLY ? "; a second run would not pay its time here"
                                              : "",
                d.overhead_s, d.run_s);
  } else
    ts_buf_addf(&said,
                "a trial spends %.1f s around %.1f s of benchmark; no earlier runs of it on this "
                "machine to compare counts with)",
                d.overhead_s, d.run_s);
  note(observer, text);
  return k;
}

uint64_t experiment_time_asleep(uint64_t suspended_before, uint64_t suspended_after) {
  uint64_t asleep = suspended_after > suspended_before ? suspended_after - suspended_before : 0;
  return asleep >= EXPERIMENT_ASLEEP_NOTICED_NS ? asleep : 0;
}

/* Runs one trial until an attempt spans no suspend, up to EXPERIMENT_ASLEEP_ATTEMPTS attempts, and
   once more where the OS refused it (EXPERIMENT_REFUSED_ATTEMPTS);
   the trial that counts says in its warnings that it was measured again, and why. */
static int run_trial_awake(runner *rn, const trial_context *t, experiment_progress *progress,
                           const experiment_observer *observer, ts_err *err) {
  char rerun_note[320] = "";
  int asleep_attempts = 0, refused_attempts = 0;
  for (;;) {
    uint64_t asleep_ns;
    int rc = run_trial(rn, t, progress, rerun_note, &asleep_ns, err);
    char text[640];
    if (rc == TS_EOS && ++refused_attempts < EXPERIMENT_REFUSED_ATTEMPTS) {
      snprintf(rerun_note, sizeof rerun_note, "measured again: the OS refused attempt %d: %.260s",
               refused_attempts, err->text);
      snprintf(text, sizeof text, "trial %d (%s, %s): the OS refused it (%.300s): measured again",
               progress->seq, progress->condition, progress->bench, err->text);
      note(observer, text);
      continue;
    }
    if (rc != TS_OK || asleep_ns == 0)
      return rc;
    double asleep_s = (double)asleep_ns / (double)TS_NS_PER_S;
    if (++asleep_attempts == EXPERIMENT_ASLEEP_ATTEMPTS)
      return ts_err_set(err, TS_EFAILED,
                        "the machine slept during each of %d attempts (%.0f s during the last): "
                        "keep it awake (threadsoup doctor's sleep check) and resume the run",
                        asleep_attempts, asleep_s);
    snprintf(rerun_note, sizeof rerun_note,
             "measured again: attempt %d spanned a suspend of %.0f s", asleep_attempts, asleep_s);
    snprintf(text, sizeof text, "trial %d (%s, %s) spanned a suspend of %.0f s: measured again",
             progress->seq, progress->condition, progress->bench, asleep_s);
    note(observer, text);
  }
}

/* Runs the trials l->rows[from .. to - 1], in order. */
static int run_pending(store *s, int64_t run_id, const plan *p, pending_list *l, int from, int to,
                       int *done, int total, uint64_t began, const experiment_observer *observer,
                       const plat_cancel *cancel, ts_err *err) {
  runner *rn = &l->rn;
  for (int k = from; k < to; k++) {
    const store_trial_row *row = &l->rows[k];
    if (plat_cancelled(cancel))
      return ts_err_set(err, TS_EINTERRUPTED, "interrupted");
    int c = plan_condition_index(p, row->condition);
    if (c < 0)
      return ts_err_set(err, TS_ESTORE, "trial %d: condition '%s' is not in the run's plan",
                        row->seq, row->condition);
    if (row->block > 0 && rn->iterations == 0) {
      int chosen = choose_iterations(s, run_id, p, l, observer, err);
      if (chosen < 0)
        return -chosen;
      rn->iterations = chosen;
    }
    int iterations = rn->iterations ? rn->iterations : p->iterations > 0 ? (int)p->iterations : 1;
    trial_context t = {s,          p,          &p->conditions[c],
                       c,          row->bench, row->id,
                       iterations, cancel,     observer ? observer->asker : NULL};
    experiment_progress progress = {
        run_id,     *done + 1, total, row->seq, row->block, p->conditions[c].text,
        row->bench, 0,         "",    -1,       NULL,       0};
    int rc = run_trial_awake(rn, &t, &progress, observer, err);
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
    if (rn->gate_timeouts >= RUNNER_GATE_TIMEOUTS && !rn->gate_given_up) {
      rn->gate_given_up = 1;
      char text[256];
      snprintf(text, sizeof text,
               "quiet gate: timed out on %d trials in a row; the next trials do not wait for "
               "quiet and record the CPU use outside ThreadSoup during their benchmark "
               "(outside.cpu_percent)",
               RUNNER_GATE_TIMEOUTS);
      note(observer, text);
    }
    (*done)++;
    progress.elapsed_ns = plat_clock_ns() - began;
    if (observer && observer->trial_done)
      observer->trial_done(observer->ctx, &progress);
  }
  return TS_OK;
}

/* --stop-when-decided: runs the pending trials block by block and, after each block that is one
   of the plan's looks (seq_looks over its reps), asks whether every comparison is decided at that
   look's boundaries (family level 5 % over a benchmark's conditions, TOST at 5 % a side); when
   so, the trials not run are dropped. *stopped_at gets that block, 0 when all ran. */
static int run_until_decided(store *s, int64_t run_id, const plan *p, pending_list *l, int *done,
                             int total, uint64_t began, const experiment_observer *observer,
                             const plat_cancel *cancel, long *stopped_at, ts_err *err) {
  long look_blocks[SEQ_MAX_LOOKS];
  double fractions[SEQ_MAX_LOOKS], effect[SEQ_MAX_LOOKS], equivalence[SEQ_MAX_LOOKS];
  /* A plan of one condition compares nothing: nothing to decide, every block runs. */
  int looks = p->condition_count > 1 ? seq_looks(p->reps, look_blocks, fractions) : 0;
  if (looks > 0 && seq_stop_boundaries(fractions, looks, (size_t)p->condition_count - 1,
                                       1 - BLOCKED_DEFAULT_CONFIDENCE,
                                       BLOCKED_DEFAULT_EQUIVALENCE_ALPHA, effect, equivalence) != 0)
    looks = 0;
  int rc = TS_OK, from = 0, look = 0;
  *stopped_at = 0;
  while (rc == TS_OK && from < l->count) {
    int block = l->rows[from].block, to = from;
    while (to < l->count && l->rows[to].block == block)
      to++;
    rc = run_pending(s, run_id, p, l, from, to, done, total, began, observer, cancel, err);
    from = to;
    while (look < looks && look_blocks[look] < block)
      look++;
    if (rc != TS_OK || from == l->count || look == looks || look_blocks[look] != block)
      continue;
    int decided = 0;
    rc = precision_every_comparison_decided(s, run_id, p, effect[look], equivalence[look], &decided,
                                            err);
    if (rc == TS_OK && decided) {
      *stopped_at = block;
      return store_trials_drop_pending(s, run_id, err);
    }
  }
  return rc;
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

/* The machine stays awake from before the machine checks to after the last trial's load is
   gone, whatever ends the run; where the OS cannot be asked, the run goes on and says so. */
static plat_stay_awake *stay_awake(int64_t run_id, const experiment_observer *o) {
  char why[64], state[300], text[400];
  snprintf(why, sizeof why, "ThreadSoup run %lld is measuring", (long long)run_id);
  plat_stay_awake *awake = plat_stay_awake_begin(why, state, sizeof state);
  snprintf(text, sizeof text, "stay awake: %s", state);
  note(o, text);
  return awake;
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

/* Plans, stores and runs one more block (after the planned ones: adaptive repetitions, a time to
   fill). */
static int run_one_more_block(store *s, int64_t run_id, const plan *p, uint64_t seed,
                              pending_list *l, int *done, int *total, uint64_t began,
                              const experiment_observer *observer, const plat_cancel *cancel,
                              ts_err *err) {
  int per_block = p->condition_count * p->bench_count;
  store_trial_plan trials[PLAN_MAX_CONDITIONS * PLAN_MAX_BENCHES];
  int n = plan_blocks(p, seed, l->last_block + 1, 1, l->last_seq + 1, trials);
  int rc = store_trials_append(s, run_id, trials, n, err);
  if (rc != TS_OK)
    return rc;
  l->count = 0;
  for (int i = 0; i < n && i < per_block; i++) {
    store_trial_row row;
    memset(&row, 0, sizeof row);
    row.id = trials[i].id;
    row.seq = trials[i].seq;
    row.block = trials[i].block;
    snprintf(row.condition, sizeof row.condition, "%s", trials[i].condition);
    snprintf(row.bench, sizeof row.bench, "%s", trials[i].bench);
    row.status = STORE_TRIAL_PENDING;
    collect_pending(l, &row);
  }
  *total += n;
  return l->failed ? ts_err_set(err, TS_ENOMEM, "no memory for the added trials")
                   : run_pending(s, run_id, p, l, 0, l->count, done, *total, began, observer,
                                 cancel, err);
}

static int add_trial_time(void *ctx, int64_t trial_id, const char *name, double value) {
  (void)trial_id;
  if (strcmp(name, "time.trial_s") == 0 && isfinite(value) && value > 0)
    *(double *)ctx += value;
  return 0;
}

/* What the run's earlier sittings spent on their trials (their time.trial_s), so a resumed run
   whose reps is a time fills what is left of it; 0 for a new run, or when it cannot be read. */
static uint64_t earlier_sittings_ns(store *s, int64_t run_id) {
  double seconds = 0;
  ts_err ignored;
  if (store_run_metrics(s, run_id, add_trial_time, &seconds, &ignored) != TS_OK)
    return 0;
  return (uint64_t)(seconds * (double)TS_NS_PER_S);
}

/* Whether another block is expected to end within the plan's time for reps: a block is expected
   to take the mean of the run's blocks so far (the warm-up and the machine checks counted in, so
   the guess errs long). Not data: the number of blocks follows the clock, never the scores, so
   it spends none of the error rate. `text` says what was decided. */
static int fill_has_room(const plan *p, long blocks, uint64_t spent_ns, char *text, size_t len) {
  double spent = (double)spent_ns / (double)TS_NS_PER_S;
  double next = blocks > 0 ? spent + spent / (double)blocks : spent;
  char fill[32];
  ts_format_duration(p->fill_ns, fill, sizeof fill);
  if (blocks >= PLAN_MAX_REPS || next > (double)p->fill_ns / (double)TS_NS_PER_S) {
    snprintf(text, len, "reps = %s: %ld blocks in %.1f s; another would end at about %.1f s", fill,
             blocks, spent, next);
    return 0;
  }
  snprintf(text, len, "reps = %s: %ld blocks in %.1f s; adding block %ld (ends at about %.1f s)",
           fill, blocks, spent, blocks + 1, next);
  return 1;
}

int experiment_continue(store *s, int64_t run_id, const plan *p, uint64_t seed,
                        const experiment_observer *observer, const plat_cancel *cancel,
                        ts_err *err) {
  pending_list l = {.rows = NULL}; /* the rest zero: no teardown pending, nothing chosen */
  experiment_programs_of_plan(p, &l.rn.programs);
  plat_stay_awake *awake = stay_awake(run_id, observer);
  check_machine(s, run_id, observer);
  int quiet = enter_quiet(s, run_id, p, observer);
  int rc = store_run_trials(s, run_id, collect_pending, &l, err);
  if (rc == TS_OK && l.failed)
    rc = ts_err_set(err, TS_ENOMEM, "no memory for the pending trials");
  int done = 0, total = l.count;
  uint64_t spent_before = p->fill_ns ? earlier_sittings_ns(s, run_id) : 0;
  uint64_t began = plat_clock_ns();
  if (rc == TS_OK && observer && observer->run_started)
    observer->run_started(observer->ctx, run_id, l.count, l.last_seq);
  long stopped_at = 0;
  if (rc == TS_OK)
    rc = p->stop_when_decided ? run_until_decided(s, run_id, p, &l, &done, total, began, observer,
                                                  cancel, &stopped_at, err)
                              : run_pending(s, run_id, p, &l, 0, l.count, &done, total, began,
                                            observer, cancel, err);
  char stopped[128] = "";
  if (stopped_at) {
    snprintf(stopped, sizeof stopped, "stopped at block %ld of %ld: every comparison decided",
             stopped_at, p->reps);
    note(observer, stopped);
  }

  /* A time for reps: one more block at a time while the next one is expected to end within it. */
  while (rc == TS_OK && p->fill_ns && !stopped_at) {
    char text[256];
    if (!fill_has_room(p, l.last_block, spent_before + (plat_clock_ns() - began), text,
                       sizeof text)) {
      note(observer, text);
      break;
    }
    note(observer, text);
    rc = run_one_more_block(s, run_id, p, seed, &l, &done, &total, began, observer, cancel, err);
  }

  /* Adaptive repetitions: one more block at a time until every comparison is as precise as asked,
     or the budget is spent. */
  const double target = precision_target(p);
  while (rc == TS_OK && p->precision_pct != 0 && !stopped_at) {
    double widest = 0;
    rc = precision_widest_interval(s, run_id, p, &widest, err);
    if (rc != TS_OK)
      break;
    char text[256];
    if (widest <= target) {
      snprintf(text, sizeof text,
               "precision reached: every 95%% CI is within ±%.2f%% (asked ±%.3g%%)", widest,
               target);
      note(observer, text);
      break;
    }
    if (plat_clock_ns() - began >= p->budget_ns || l.last_block >= PLAN_MAX_REPS) {
      snprintf(text, sizeof text,
               "budget spent before the precision was reached: the widest 95%% CI is ±%.2f%% "
               "(asked ±%.3g%%)%s",
               widest, target,
               isfinite(widest) ? "" : " (fewer complete blocks than the check needs)");
      note(observer, text);
      break;
    }
    if (isfinite(widest))
      snprintf(text, sizeof text, "widest 95%% CI ±%.2f%% > ±%.3g%%: adding block %d", widest,
               target, l.last_block + 1);
    else /* precision_widest_interval: not judged before SEQ_PRECISION_MIN_BLOCKS */
      snprintf(text, sizeof text,
               "precision (±%.3g%%) is checked from %d complete blocks on: adding block %d", target,
               SEQ_PRECISION_MIN_BLOCKS, l.last_block + 1);
    note(observer, text);
    rc = run_one_more_block(s, run_id, p, seed, &l, &done, &total, began, observer, cancel, err);
  }
  teardown_join(&l.rn);
  experiment_freeze_forget(s);
  free(l.rows);
  if (quiet)
    leave_quiet(s, observer);
  plat_stay_awake_end(awake);

  char finished_at[32], detail[600];
  ts_err end_err;
  plat_utc_timestamp(finished_at, sizeof finished_at);
  store_run_status status = rc == TS_OK             ? STORE_RUN_FINISHED
                            : rc == TS_EINTERRUPTED ? STORE_RUN_INTERRUPTED
                                                    : STORE_RUN_FAILED;
  snprintf(detail, sizeof detail, "%d trials run in this sitting%s%s%s%s", done,
           stopped[0] ? "; " : "", stopped, rc == TS_OK ? "" : "; ", rc == TS_OK ? "" : err->text);
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

int experiment_resumable(const store_run_row *row, ts_err *err) {
  if (row->imported_from[0])
    return ts_err_set(err, TS_EDENIED,
                      "run %lld was imported from %s: it belongs to the machine that measured "
                      "it; import it elsewhere or start a new run",
                      (long long)row->id, row->imported_from);
  if (row->status == STORE_RUN_FINISHED)
    return ts_err_set(err, TS_EUSAGE, "run %lld is already finished (%d trials done)",
                      (long long)row->id, row->trials_done);
  if (strcmp(row->plan_name, "manual") == 0)
    return ts_err_set(err, TS_EUSAGE, "run %lld holds scores typed in by hand; nothing to resume",
                      (long long)row->id);
  return TS_OK;
}

int experiment_resume(store *s, int64_t run_id, const experiment_observer *observer,
                      const plat_cancel *cancel, plan *p, ts_err *err) {
  store_run_row *row = malloc(sizeof *row);
  if (!row)
    return ts_err_set(err, TS_ENOMEM, "no memory to read run %lld", (long long)run_id);
  int rc = store_run_get(s, run_id, row, err);
  if (rc == TS_OK)
    rc = experiment_resumable(row, err);
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
