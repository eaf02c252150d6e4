/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* estimate.c - a plan's expected sensitivity and duration from this machine's history of its
   benchmarks (the rules are in estimate.h). */
#include "estimate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../stats/stats.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

#define PLUS_MINUS "\xc2\xb1"

/* Reading one benchmark's history: the run being read, and what the comparable runs add up to. */
typedef struct history_reader {
  double work_scale;  /* the plan's */
  int64_t run_id;     /* the run whose trials come now; 0 before the first */
  int comparable;     /* its stored plan has the plan's work scale */
  plan *stored;       /* that plan, read back (too large for a small stack) */
  double n, mean, m2; /* Welford's running mean and sum of squares of its scores */
  int runs, trials;
  double pooled_df, pooled_ss; /* sum (n_i - 1), sum (n_i - 1) cv_i^2 (cv in %) */
  double *seconds;
  size_t seconds_n, seconds_cap;
  int out_of_memory;
} history_reader;

/* Adds the finished run's spread to the pool. */
static void close_run(history_reader *h) {
  if (h->comparable && h->n >= 2 && h->mean > 0) {
    double cv = 100 * sqrt(h->m2 / (h->n - 1)) / h->mean;
    h->pooled_df += h->n - 1;
    h->pooled_ss += (h->n - 1) * cv * cv;
    h->runs++;
    h->trials += (int)h->n;
  }
  h->n = h->mean = h->m2 = 0;
}

static int same_scale(double a, double b) { return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)); }

static int read_history_trial(void *ctx, const store_history_trial *t) {
  history_reader *h = ctx;
  if (t->run_id != h->run_id) {
    close_run(h);
    if (h->runs >= ESTIMATE_MAX_RUNS)
      return 1;
    h->run_id = t->run_id;
    /* The stored plan was checked when it ran; one that no longer parses is not comparable. */
    ts_err ignored;
    h->comparable = plan_parse(t->plan_text, "stored plan", h->stored, &ignored) == TS_OK &&
                    same_scale(h->stored->work_scale, h->work_scale);
  }
  if (!h->comparable || !isfinite(t->score))
    return 0;
  h->n += 1;
  double delta = t->score - h->mean;
  h->mean += delta / h->n;
  h->m2 += delta * (t->score - h->mean);
  if (isfinite(t->seconds)) {
    if (h->seconds_n == h->seconds_cap) {
      size_t cap = h->seconds_cap ? 2 * h->seconds_cap : 64;
      double *more = realloc(h->seconds, cap * sizeof *more);
      if (!more) {
        h->out_of_memory = 1;
        return 1;
      }
      h->seconds = more;
      h->seconds_cap = cap;
    }
    h->seconds[h->seconds_n++] = t->seconds;
  }
  return 0;
}

/* The plan's reference condition: "baseline" when it has one, else its first (as the report). */
static int reference_condition(const plan *p) {
  for (int c = 0; c < p->condition_count; c++)
    if (strcmp(p->conditions[c].text, "baseline") == 0)
      return c;
  return 0;
}

static int read_bench(store *s, const plan *p, const estimate *e, estimate_bench *b, ts_err *err) {
  history_reader h;
  memset(&h, 0, sizeof h);
  h.work_scale = p->work_scale;
  h.stored = malloc(sizeof *h.stored);
  if (!h.stored)
    return ts_err_set(err, TS_ENOMEM, "no memory for the history of %s", b->bench);
  int rc = store_bench_history(s, e->host, b->bench, e->reference, read_history_trial, &h, err);
  if (rc == TS_OK && !h.out_of_memory && h.runs < ESTIMATE_MAX_RUNS)
    close_run(&h);
  if (rc == TS_OK && h.out_of_memory)
    rc = ts_err_set(err, TS_ENOMEM, "no memory for the history of %s", b->bench);
  if (rc == TS_OK && h.runs > 0 && h.pooled_df > 0) {
    b->have_history = 1;
    b->runs = h.runs;
    b->trials = h.trials;
    b->sd_percent = sqrt(h.pooled_ss / h.pooled_df);
    b->median_seconds = stats_median(h.seconds, h.seconds_n);
  }
  free(h.seconds);
  free(h.stored);
  return rc;
}

int estimate_plan(store *s, const plan *p, const char *host, estimate *out, ts_err *err) {
  memset(out, 0, sizeof *out);
  if (host) {
    snprintf(out->host, sizeof out->host, "%s", host);
  } else {
    plat_sysinfo sys;
    plat_sysinfo_read(&sys);
    snprintf(out->host, sizeof out->host, "%s", sys.host);
  }
  snprintf(out->reference, sizeof out->reference, "%s", p->conditions[reference_condition(p)].text);
  out->blocks = p->reps;
  out->settle_s = (double)p->settle_ns / TS_NS_PER_S;
  out->target_percent = p->precision_pct > 0 ? p->precision_pct : ESTIMATE_DEFAULT_TARGET_PERCENT;
  out->bench_count = p->bench_count;
  out->all_timed = 1;
  for (int i = 0; i < p->bench_count; i++) {
    estimate_bench *b = &out->benches[i];
    snprintf(b->bench, sizeof b->bench, "%s", p->benches[i]);
    b->sd_percent = b->median_seconds = b->detectable_percent = NAN;
    b->seconds = b->target_detectable_percent = NAN;
    int rc = read_bench(s, p, out, b, err);
    if (rc != TS_OK)
      return rc;
    if (b->have_history) {
      out->any_history = 1;
      b->detectable_percent = stats_detectable_for_trials(p->reps, b->sd_percent, b->sd_percent);
      b->target_blocks =
          stats_trials_for_half_width(b->sd_percent, b->sd_percent, out->target_percent);
      if (b->target_blocks > 0 && b->target_blocks <= STATS_TRIALS_NEEDED_MAX)
        b->target_detectable_percent =
            stats_detectable_for_trials(b->target_blocks, b->sd_percent, b->sd_percent);
    }
    if (!isfinite(b->median_seconds))
      out->all_timed = 0;
  }
  for (int i = 0; i < p->bench_count; i++)
    out->benches[i].seconds = estimate_bench_seconds(out, p, i, p->reps);
  return TS_OK;
}

double estimate_bench_seconds(const estimate *e, const plan *p, int bench, long blocks) {
  const estimate_bench *b = &e->benches[bench];
  double trials = (double)p->warmup + (double)p->condition_count * (double)blocks;
  return isfinite(b->median_seconds) ? trials * (b->median_seconds + e->settle_s) : NAN;
}

double estimate_plan_seconds(const estimate *e, const plan *p, long blocks) {
  if (!e->all_timed)
    return NAN;
  double total = 0;
  for (int i = 0; i < e->bench_count; i++)
    total += estimate_bench_seconds(e, p, i, blocks);
  return total;
}

void estimate_duration_words(double seconds, char *buf, size_t len) {
  if (!isfinite(seconds) || seconds < 0)
    snprintf(buf, len, "an unknown time");
  else if (seconds < 1.5)
    snprintf(buf, len, "about 1 second");
  else if (seconds < 90)
    snprintf(buf, len, "about %.0f seconds", seconds);
  else if (seconds < 90 * 60)
    snprintf(buf, len, "about %.0f minutes", seconds / 60);
  else if (seconds < 48 * 3600)
    snprintf(buf, len, "about %.*f hours", seconds < 10 * 3600 ? 1 : 0, seconds / 3600);
  else
    snprintf(buf, len, "about %.0f days", seconds / 86400);
}

/* An effect size in %, with the digits that mean something: 0.27, 2.4, 12. */
static void percent_words(double percent, char *buf, size_t len) {
  snprintf(buf, len, "%.*f", percent < 1 ? 2 : (percent < 10 ? 1 : 0), percent);
}

/* The time of `blocks` blocks: the whole plan's when every benchmark is timed, else this
   benchmark's trials' with words saying so. */
static void time_words(const estimate *e, const plan *p, int i, long blocks, char *buf,
                       size_t len) {
  char words[64];
  double all = estimate_plan_seconds(e, p, blocks);
  if (isfinite(all)) {
    estimate_duration_words(all, buf, len);
    return;
  }
  estimate_duration_words(estimate_bench_seconds(e, p, i, blocks), words, sizeof words);
  snprintf(buf, len, "%s for its %s trials", words, e->benches[i].bench);
}

int estimate_line(const estimate *e, const plan *p, int i, char *buf, size_t len) {
  const estimate_bench *b = &e->benches[i];
  if (!b->have_history)
    return snprintf(buf, len,
                    "no history of %s on this machine yet: `run --estimate` measures a short "
                    "pilot",
                    b->bench);
  char now[96], then[96], target[32], effect[24], later[24];
  time_words(e, p, i, e->blocks, now, sizeof now);
  percent_words(b->detectable_percent, effect, sizeof effect);
  snprintf(target, sizeof target, "--precision %g%%", e->target_percent);
  int n = e->blocks < STATS_MIN_TRIALS
              ? snprintf(buf, len,
                         "%s: %ld block%s cannot tell an effect (a verdict needs %d trials of "
                         "each condition)",
                         b->bench, e->blocks, e->blocks == 1 ? "" : "s", STATS_MIN_TRIALS)
          : p->precision_pct > 0
              ? snprintf(buf, len,
                         "%s: its first %ld blocks can tell effects of " PLUS_MINUS
                         "%s %% or more in %s",
                         b->bench, e->blocks, effect, now)
              : snprintf(buf, len,
                         "%s: this plan can tell effects of " PLUS_MINUS "%s %% or more in %s",
                         b->bench, effect, now);
  size_t used = n < 0 ? 0 : ((size_t)n < len ? (size_t)n : len - 1);
  if (b->target_blocks > STATS_TRIALS_NEEDED_MAX)
    return (int)used + snprintf(buf + used, len - used, "; %s would need more than %ld blocks",
                                target, STATS_TRIALS_NEEDED_MAX);
  if (b->target_blocks <= 0)
    return (int)used;
  if (b->target_blocks <= e->blocks)
    return (int)used + snprintf(buf + used, len - used, "; %s is reached within them", target);
  time_words(e, p, i, b->target_blocks, then, sizeof then);
  percent_words(b->target_detectable_percent, later, sizeof later);
  double seconds = estimate_plan_seconds(e, p, b->target_blocks);
  char limit[96] = "";
  if (b->target_blocks > PLAN_MAX_REPS) {
    snprintf(limit, sizeof limit, "; a run stops adding blocks at %d", PLAN_MAX_REPS);
  } else if (p->precision_pct > 0 && isfinite(seconds) &&
             seconds > (double)p->budget_ns / TS_NS_PER_S) {
    char words[64];
    estimate_duration_words((double)p->budget_ns / TS_NS_PER_S, words, sizeof words);
    snprintf(limit, sizeof limit, "; more than its budget, %s", words);
  }
  return (int)used + snprintf(buf + used, len - used,
                              "; %s would need about %ld blocks, %s (then " PLUS_MINUS
                              "%s %% or more%s)",
                              target, b->target_blocks, then, later, limit);
}

int estimate_basis(const estimate *e, int i, char *buf, size_t len) {
  const estimate_bench *b = &e->benches[i];
  buf[0] = '\0';
  if (!b->have_history)
    return 0;
  char seconds[48] = "trial time not measured";
  if (isfinite(b->median_seconds))
    snprintf(seconds, sizeof seconds, "median trial %.2g s", b->median_seconds);
  return snprintf(buf, len,
                  "%s: within-run spread %.3g %% of the %s scores of %d earlier run%s (%d trials) "
                  "on %s, %s",
                  b->bench, b->sd_percent, e->reference, b->runs, b->runs == 1 ? "" : "s",
                  b->trials, e->host, seconds);
}

void estimate_pilot_plan(const plan *p, plan *pilot) {
  *pilot = *p;
  snprintf(pilot->name, sizeof pilot->name, "%s", ESTIMATE_PILOT_PLAN);
  pilot->conditions[0] = p->conditions[reference_condition(p)];
  pilot->condition_count = 1;
  pilot->reps = ESTIMATE_PILOT_BLOCKS;
  pilot->warmup = p->warmup > 1 ? 1 : p->warmup;
  pilot->precision_pct = 0;
}
