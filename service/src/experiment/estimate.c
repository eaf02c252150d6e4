/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* estimate.c - a plan's expected sensitivity and duration from this machine's history of its
   benchmarks (the rules are in estimate.h). */
#include "estimate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../stats/blocked.h"
#include "../stats/dimension.h"
#include "../stats/dist.h"
#include "precision.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

#define PLUS_MINUS "\xc2\xb1"

/* One trial of the run being read: its condition (index in the run's stored plan), block and
   score. */
typedef struct history_score {
  int condition, block;
  double score;
} history_score;

/* Reading one benchmark's history: the run being read, and what the comparable runs add up to. */
typedef struct history_reader {
  const plan *p;  /* the plan being estimated */
  int64_t run_id; /* the run whose trials come now; 0 before the first */
  int comparable; /* its stored plan has the plan's work scale */
  plan *stored;   /* that plan, read back (too large for a small stack) */
  history_score *scores;
  size_t score_count, score_cap;
  double wall_sum; /* the run's trials' wall seconds, and how many were known */
  int wall_count;
  double around_sum; /* the run's trials' wall seconds besides the benchmark's, and how many */
  int around_count;
  double bench_sum; /* the run's trials' seconds of one benchmark run, and how many */
  int bench_count;
  double around_runs_sum; /* over runs: each run's mean of those, moved by the settle */
  int around_runs;
  int runs, ratios;
  int runs_by_count[DIMENSION_MAX_RUNS + 1], ratios_by_count[DIMENSION_MAX_RUNS + 1];
  double pooled_df, pooled_ss; /* sum (n_i - 1), sum (n_i - 1) s_i^2 over runs and conditions */
  estimate_run_time *times;    /* each comparable run's trial times */
  int timed_runs;
  double *by_block; /* the run's reference scores by block, and their room */
  size_t by_block_cap;
  int run_runs;            /* the benchmark's runs per trial in the run (the most a trial had) */
  dimension_tally by_runs; /* paired log ratios by runs per trial (stats/dimension.h) */
  int out_of_memory;
} history_reader;

/* The reference condition of a plan: "baseline" when it has one, else its first (as the
   report). */
static int reference_condition(const plan *p) {
  for (int c = 0; c < p->condition_count; c++)
    if (strcmp(p->conditions[c].text, "baseline") == 0)
      return c;
  return 0;
}

/* Adds the finished run's paired log ratios, condition by condition, and its trial time. */
static void close_run(history_reader *h) {
  int reference = reference_condition(h->stored);
  size_t blocks = 0;
  for (size_t i = 0; i < h->score_count; i++)
    if ((size_t)h->scores[i].block > blocks)
      blocks = (size_t)h->scores[i].block;
  if (h->score_count && blocks + 1 > h->by_block_cap) {
    double *more = realloc(h->by_block, (blocks + 1) * sizeof *more);
    if (!more) {
      h->out_of_memory = 1;
      return;
    }
    h->by_block = more;
    h->by_block_cap = blocks + 1;
  }
  for (size_t b = 0; h->score_count && b <= blocks; b++)
    h->by_block[b] = NAN;
  for (size_t i = 0; i < h->score_count; i++)
    if (h->scores[i].condition == reference)
      h->by_block[h->scores[i].block] = h->scores[i].score;
  /* Welford per condition: the log ratios' mean and sum of squares. */
  double n[PLAN_MAX_CONDITIONS] = {0}, mean[PLAN_MAX_CONDITIONS] = {0};
  double m2[PLAN_MAX_CONDITIONS] = {0};
  for (size_t i = 0; i < h->score_count; i++) {
    const history_score *t = &h->scores[i];
    double base = h->by_block[t->block];
    if (t->condition == reference || !isfinite(base))
      continue;
    double d = log(t->score / base), delta = d - mean[t->condition];
    n[t->condition] += 1;
    mean[t->condition] += delta / n[t->condition];
    m2[t->condition] += delta * (d - mean[t->condition]);
  }
  int used = 0, ratios = 0;
  double run_ss = 0, run_df = 0;
  for (int c = 0; c < PLAN_MAX_CONDITIONS; c++)
    if (n[c] >= 2) {
      h->pooled_df += n[c] - 1;
      h->pooled_ss += m2[c];
      ratios += (int)n[c];
      run_ss += m2[c];
      run_df += n[c] - 1;
      used = 1;
    }
  dimension_add_run(&h->by_runs, run_ss, run_df, h->run_runs);
  h->runs += used;
  h->ratios += ratios;
  if (h->run_runs >= 1 && h->run_runs <= DIMENSION_MAX_RUNS) {
    h->runs_by_count[h->run_runs] += used;
    h->ratios_by_count[h->run_runs] += ratios;
  }
  double settle_shift = ((double)h->p->settle_ns - (double)h->stored->settle_ns) / TS_NS_PER_S;
  if (h->wall_count > 0) {
    estimate_run_time *t = &h->times[h->timed_runs++];
    t->wall_s = h->wall_sum / h->wall_count + settle_shift;
    t->around_s = h->around_count > 0 ? h->around_sum / h->around_count + settle_shift : NAN;
    t->run_s = h->bench_count > 0 ? h->bench_sum / h->bench_count : NAN;
  }
  if (h->around_count > 0) {
    h->around_runs_sum += h->around_sum / h->around_count + settle_shift;
    h->around_runs++;
  }
}

static int same_scale(double a, double b) { return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)); }

/* The index of a condition in the stored plan; -1 when it names none of them. */
static int stored_condition(const plan *stored, const char *text) {
  for (int c = 0; c < stored->condition_count; c++)
    if (strcmp(stored->conditions[c].text, text) == 0)
      return c;
  return -1;
}

static int read_history_trial(void *ctx, const store_history_trial *t) {
  history_reader *h = ctx;
  if (t->run_id != h->run_id) {
    if (h->comparable)
      close_run(h);
    if (h->out_of_memory || h->timed_runs >= ESTIMATE_MAX_RUNS || h->runs >= ESTIMATE_MAX_RUNS)
      return 1;
    h->run_id = t->run_id;
    h->run_runs = 1;
    h->score_count = 0;
    h->wall_sum = h->around_sum = h->bench_sum = 0;
    h->wall_count = h->around_count = h->bench_count = 0;
    /* The stored plan was checked when it ran; one that no longer parses is not comparable. */
    ts_err ignored;
    h->comparable = plan_parse(t->plan_text, "stored plan", h->stored, &ignored) == TS_OK &&
                    same_scale(h->stored->work_scale, h->p->work_scale);
  }
  int condition = h->comparable ? stored_condition(h->stored, t->condition) : -1;
  /* A block no run writes (a database is input too) is left out, not a table of its size. */
  if (condition < 0 || t->block < 1 || !plan_block_in_range(t->block))
    return 0;
  if (isfinite(t->wall_seconds) && t->wall_seconds >= 0) {
    h->wall_sum += t->wall_seconds;
    h->wall_count++;
    if (isfinite(t->seconds) && t->seconds >= 0 && t->seconds <= t->wall_seconds) {
      h->around_sum += t->wall_seconds - t->seconds;
      h->around_count++;
      h->bench_sum += t->seconds / (t->runs >= 1 ? t->runs : 1);
      h->bench_count++;
    }
  }
  if (!(isfinite(t->score) && t->score > 0))
    return 0;
  if (t->runs > h->run_runs)
    h->run_runs = t->runs;
  if (h->score_count == h->score_cap) {
    size_t cap = h->score_cap ? 2 * h->score_cap : 64;
    history_score *more = realloc(h->scores, cap * sizeof *more);
    if (!more) {
      h->out_of_memory = 1;
      return 1;
    }
    h->scores = more;
    h->score_cap = cap;
  }
  h->scores[h->score_count++] = (history_score){condition, t->block, t->score};
  return 0;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The q-quantile of sorted[0..n-1] by linear interpolation between order statistics (NumPy's
   default). */
static double quantile_of_sorted(const double *sorted, int n, double q) {
  double at = q * (n - 1);
  int below = (int)floor(at);
  if (below >= n - 1)
    return sorted[n - 1];
  return sorted[below] + (at - below) * (sorted[below + 1] - sorted[below]);
}

/* The spread sd with df degrees of freedom and its range into b. */
static void set_spread(estimate_bench *b, double ss, double df) {
  double sd = sqrt(ss / df), tail = (1 - ESTIMATE_SPREAD_CONFIDENCE) / 2;
  b->df = df;
  b->sd_log[ESTIMATE_MID] = sd;
  b->sd_log[ESTIMATE_LOW] = sd * sqrt(df / dist_chi2_quantile(1 - tail, df));
  b->sd_log[ESTIMATE_HIGH] = sd * sqrt(df / dist_chi2_quantile(tail, df));
}

/* The pooled spread and its range, and the runs' times, of benchmark b from the reader. */
static void summarize(history_reader *h, estimate_bench *b) {
  if (h->runs > 0 && h->pooled_df > 0) {
    b->have_history = 1;
    b->runs = h->runs;
    b->ratios = h->ratios;
    set_spread(b, h->pooled_ss, h->pooled_df);
  }
  b->by_runs = h->by_runs;
  memcpy(b->runs_by_count, h->runs_by_count, sizeof b->runs_by_count);
  memcpy(b->ratios_by_count, h->ratios_by_count, sizeof b->ratios_by_count);
  b->around_seconds = h->around_runs > 0 ? h->around_runs_sum / h->around_runs : NAN;
  double run_sum = 0;
  int run_n = 0;
  for (int i = 0; i < h->timed_runs; i++) {
    b->times[i] = h->times[i];
    if (isfinite(h->times[i].run_s)) {
      run_sum += h->times[i].run_s;
      run_n++;
    }
  }
  b->timed_runs = h->timed_runs;
  b->run_seconds = run_n > 0 ? run_sum / run_n : NAN;
}

/* Benchmark b's estimate at k runs per trial: the spread of the earlier runs that ran k when they
   have DIMENSION_MIN_DF degrees of freedom or are all there is (else every count's, pooled), and a
   trial's time from each earlier run as its time around the benchmark plus k of its runs (its wall
   time as it was where those are not known), the median and quartiles over runs. */
static void use_count(estimate_bench *b, int k) {
  b->runs_per_trial = k;
  /* Where every earlier run with ratios ran k, the pooled spread is already k's. */
  b->spread_of_count = b->runs > 0 && b->runs_by_count[k] == b->runs;
  if (!b->spread_of_count && isfinite(dimension_variance(&b->by_runs, k))) {
    b->spread_of_count = 1;
    b->runs = b->runs_by_count[k];
    b->ratios = b->ratios_by_count[k];
    set_spread(b, b->by_runs.ss[k], b->by_runs.df[k]);
  }
  if (b->timed_runs == 0)
    return;
  double seconds[ESTIMATE_MAX_RUNS];
  for (int i = 0; i < b->timed_runs; i++) {
    const estimate_run_time *t = &b->times[i];
    seconds[i] =
        isfinite(t->around_s) && isfinite(t->run_s) ? t->around_s + k * t->run_s : t->wall_s;
  }
  qsort(seconds, (size_t)b->timed_runs, sizeof *seconds, compare_doubles);
  b->trial_seconds[ESTIMATE_LOW] = quantile_of_sorted(seconds, b->timed_runs, 0.25);
  b->trial_seconds[ESTIMATE_MID] = quantile_of_sorted(seconds, b->timed_runs, 0.5);
  b->trial_seconds[ESTIMATE_HIGH] = quantile_of_sorted(seconds, b->timed_runs, 0.75);
}

static int read_bench(store *s, const plan *p, const estimate *e, estimate_bench *b, ts_err *err) {
  history_reader h;
  memset(&h, 0, sizeof h);
  h.p = p;
  h.stored = malloc(sizeof *h.stored);
  h.times = malloc(ESTIMATE_MAX_RUNS * sizeof *h.times);
  int rc = h.stored && h.times
               ? store_bench_history(s, e->host, b->bench, NULL, read_history_trial, &h, err)
               : TS_OK;
  if (rc == TS_OK && h.comparable && !h.out_of_memory && h.runs < ESTIMATE_MAX_RUNS &&
      h.timed_runs < ESTIMATE_MAX_RUNS)
    close_run(&h);
  if (rc == TS_OK && (h.out_of_memory || !h.stored || !h.times))
    rc = ts_err_set(err, TS_ENOMEM, "no memory for the history of %s", b->bench);
  if (rc == TS_OK)
    summarize(&h, b);
  free(h.scores);
  free(h.by_block);
  free(h.times);
  free(h.stored);
  return rc;
}

void estimate_dimension_plan(const plan *p, double around_s, double run_s, double warmups_s,
                             dimension_plan *d) {
  double fill_s = p->fill_ns ? (double)p->fill_ns / TS_NS_PER_S - warmups_s : 0;
  *d = (dimension_plan){.overhead_s = around_s,
                        .run_s = run_s,
                        .trials_per_block = p->condition_count * p->bench_count,
                        .fill_s = fill_s > 0 ? fill_s : 0,
                        .min_blocks = p->fill_ns ? (int)p->reps : 0,
                        .usual_runs = dimension_usual_runs(around_s, run_s)};
}

/* The runs per trial the plan will run: its iterations, or for auto what the run would choose
   from the same history (its warm-ups taken as one run each, as they run), the usual count
   where no count has history; 1 where no earlier run's times are known (the run then chooses
   from its warm-up). */
static int runs_per_trial_of(const estimate *e, const plan *p) {
  if (p->iterations > 0)
    return (int)p->iterations;
  for (int i = 0; i < e->bench_count; i++) {
    const estimate_bench *b = &e->benches[i];
    if (!(b->around_seconds > 0) || !(b->run_seconds > 0))
      continue;
    dimension_plan d;
    estimate_dimension_plan(
        p, b->around_seconds, b->run_seconds,
        (double)p->warmup * p->bench_count * (b->around_seconds + b->run_seconds), &d);
    int k = 0;
    if (dimension_runs_per_trial(&b->by_runs, &d, &k) <= DIMENSION_NONE)
      k = d.usual_runs;
    return k;
  }
  return 1;
}

/* The blocks a plan runs: reps, or where reps is a time, as many as its trials' typical time fits
   in it (at least reps, PLAN_FILL_MIN_BLOCKS), as the run's own rule adds them; reps when a
   benchmark's trial time is not known. */
static long blocks_that_fill(const estimate *e, const plan *p) {
  if (!p->fill_ns || !e->all_timed)
    return p->reps;
  double warmup = estimate_plan_seconds(e, p, 0, ESTIMATE_MID);
  double per_block = estimate_plan_seconds(e, p, 1, ESTIMATE_MID) - warmup;
  if (!(per_block > 0))
    return p->reps;
  double fits = floor(((double)p->fill_ns / TS_NS_PER_S - warmup) / per_block);
  return fits > PLAN_MAX_REPS ? PLAN_MAX_REPS : fits > (double)p->reps ? (long)fits : p->reps;
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
  out->blocks = p->reps;
  out->settle_s = (double)p->settle_ns / TS_NS_PER_S;
  out->target_percent = precision_target(p);
  out->bench_count = p->bench_count;
  out->all_timed = 1;
  for (int i = 0; i < p->bench_count; i++) {
    estimate_bench *b = &out->benches[i];
    snprintf(b->bench, sizeof b->bench, "%s", p->benches[i]);
    for (int end = 0; end < ESTIMATE_RANGE; end++)
      b->sd_log[end] = b->trial_seconds[end] = b->detectable_percent[end] = b->seconds[end] = NAN;
    b->target_detectable_percent = NAN;
    int rc = read_bench(s, p, out, b, err);
    if (rc != TS_OK)
      return rc;
  }
  out->runs_per_trial = runs_per_trial_of(out, p);
  for (int i = 0; i < p->bench_count; i++) {
    use_count(&out->benches[i], out->runs_per_trial);
    if (!isfinite(out->benches[i].trial_seconds[ESTIMATE_MID]))
      out->all_timed = 0;
  }
  out->blocks = blocks_that_fill(out, p);
  for (int i = 0; i < p->bench_count; i++) {
    estimate_bench *b = &out->benches[i];
    if (b->have_history) {
      out->any_history = 1;
      for (int end = 0; end < ESTIMATE_RANGE; end++)
        b->detectable_percent[end] = blocked_detectable_percent(
            b->sd_log[end], (size_t)out->blocks, BLOCKED_DEFAULT_CONFIDENCE, BLOCKED_POWER);
      b->target_blocks = blocked_blocks_for_half_width(b->sd_log[ESTIMATE_MID], out->target_percent,
                                                       BLOCKED_DEFAULT_CONFIDENCE);
      if (b->target_blocks > 0 && b->target_blocks <= BLOCKED_BLOCKS_MAX)
        b->target_detectable_percent =
            blocked_detectable_percent(b->sd_log[ESTIMATE_MID], (size_t)b->target_blocks,
                                       BLOCKED_DEFAULT_CONFIDENCE, BLOCKED_POWER);
    }
  }
  for (int i = 0; i < p->bench_count; i++)
    for (int end = 0; end < ESTIMATE_RANGE; end++)
      out->benches[i].seconds[end] = estimate_bench_seconds(out, p, i, out->blocks, end);
  return TS_OK;
}

double estimate_bench_seconds(const estimate *e, const plan *p, int bench, long blocks, int end) {
  double trials = (double)p->warmup + (double)p->condition_count * (double)blocks;
  return trials * e->benches[bench].trial_seconds[end];
}

double estimate_plan_seconds(const estimate *e, const plan *p, long blocks, int end) {
  if (!e->all_timed)
    return NAN;
  double total = 0;
  for (int i = 0; i < e->bench_count; i++)
    total += estimate_bench_seconds(e, p, i, blocks, end);
  return total;
}

/* A duration's unit and its size in that unit, chosen by `seconds`. */
typedef struct duration_unit {
  double seconds; /* of one unit */
  const char *name;
  int decimals;
} duration_unit;

static duration_unit unit_for(double seconds) {
  if (seconds < 90)
    return (duration_unit){1, "seconds", 0};
  if (seconds < 90 * 60)
    return (duration_unit){60, "minutes", 0};
  if (seconds < 48 * 3600)
    return (duration_unit){3600, "hours", seconds < 10 * 3600 ? 1 : 0};
  return (duration_unit){86400, "days", 0};
}

void estimate_duration_words(double seconds, char *buf, size_t len) {
  if (!isfinite(seconds) || seconds < 0) {
    snprintf(buf, len, "an unknown time");
    return;
  }
  if (seconds < 1.5) {
    snprintf(buf, len, "about 1 second");
    return;
  }
  duration_unit u = unit_for(seconds);
  snprintf(buf, len, "about %.*f %s", u.decimals, seconds / u.seconds, u.name);
}

void estimate_range_words(const double seconds[ESTIMATE_RANGE], char *buf, size_t len) {
  double mid = seconds[ESTIMATE_MID], low = seconds[ESTIMATE_LOW], high = seconds[ESTIMATE_HIGH];
  estimate_duration_words(mid, buf, len);
  if (!isfinite(mid) || mid < 1.5 || !isfinite(low) || !isfinite(high))
    return;
  duration_unit u = unit_for(mid);
  char from[32], to[32];
  snprintf(from, sizeof from, "%.*f", u.decimals, low / u.seconds);
  snprintf(to, sizeof to, "%.*f", u.decimals, high / u.seconds);
  if (strcmp(from, to) == 0)
    return;
  size_t used = strlen(buf);
  snprintf(buf + used, len - used, " (%s to %s %s)", from, to, u.name);
}

/* An effect size in %, with the digits that mean something: 0.27, 2.4, 12. */
static void percent_words(double percent, char *buf, size_t len) {
  snprintf(buf, len, "%.*f", percent < 1 ? 2 : (percent < 10 ? 1 : 0), percent);
}

/* The detectable effect with its range: "2.4 % (1.9 to 3.3 %)". */
static void effect_words(const double percent[ESTIMATE_RANGE], char *buf, size_t len) {
  char mid[24], low[24], high[24];
  percent_words(percent[ESTIMATE_MID], mid, sizeof mid);
  percent_words(percent[ESTIMATE_LOW], low, sizeof low);
  percent_words(percent[ESTIMATE_HIGH], high, sizeof high);
  if (strcmp(low, high) == 0)
    snprintf(buf, len, "%s %%", mid);
  else
    snprintf(buf, len, "%s %% (%s to %s %%)", mid, low, high);
}

/* The time of `blocks` blocks with its range: the whole plan's when every benchmark is timed,
   else this benchmark's trials' with words saying so. */
static void time_words(const estimate *e, const plan *p, int i, long blocks, char *buf,
                       size_t len) {
  double all[ESTIMATE_RANGE], own[ESTIMATE_RANGE];
  for (int end = 0; end < ESTIMATE_RANGE; end++) {
    all[end] = estimate_plan_seconds(e, p, blocks, end);
    own[end] = estimate_bench_seconds(e, p, i, blocks, end);
  }
  if (isfinite(all[ESTIMATE_MID])) {
    estimate_range_words(all, buf, len);
    return;
  }
  char words[96];
  estimate_range_words(own, words, sizeof words);
  snprintf(buf, len, "%s for its %s trials", words, e->benches[i].bench);
}

int estimate_line(const estimate *e, const plan *p, int i, char *buf, size_t len) {
  const estimate_bench *b = &e->benches[i];
  if (!b->have_history)
    return snprintf(buf, len,
                    "no history of %s on this machine yet: `run --estimate` measures a short "
                    "pilot",
                    b->bench);
  char now[128], then[128], target[48], effect[64], later[24];
  time_words(e, p, i, e->blocks, now, sizeof now);
  effect_words(b->detectable_percent, effect, sizeof effect);
  snprintf(target, sizeof target, "--precision %.2g%%", e->target_percent);
  int n =
      e->blocks < BLOCKED_MIN_PAIRS
          ? snprintf(buf, len,
                     "%s: %ld block%s cannot tell an effect (a verdict needs %d complete "
                     "blocks)",
                     b->bench, e->blocks, e->blocks == 1 ? "" : "s", BLOCKED_MIN_PAIRS)
      : p->precision_pct != 0
          ? snprintf(buf, len,
                     "%s: its first %ld blocks can tell effects of " PLUS_MINUS "%s or more in %s",
                     b->bench, e->blocks, effect, now)
          : snprintf(buf, len, "%s: this plan can tell effects of " PLUS_MINUS "%s or more in %s",
                     b->bench, effect, now);
  size_t used = n < 0 ? 0 : ((size_t)n < len ? (size_t)n : len - 1);
  if (b->target_blocks > BLOCKED_BLOCKS_MAX)
    return (int)used + snprintf(buf + used, len - used, "; %s would need more than %ld blocks",
                                target, BLOCKED_BLOCKS_MAX);
  if (b->target_blocks <= 0)
    return (int)used;
  if (b->target_blocks <= e->blocks)
    return (int)used + snprintf(buf + used, len - used, "; %s is reached within them", target);
  time_words(e, p, i, b->target_blocks, then, sizeof then);
  percent_words(b->target_detectable_percent, later, sizeof later);
  double seconds = estimate_plan_seconds(e, p, b->target_blocks, ESTIMATE_MID);
  char limit[96] = "";
  if (b->target_blocks > PLAN_MAX_REPS) {
    snprintf(limit, sizeof limit, "; a run stops adding blocks at %d", PLAN_MAX_REPS);
  } else if (p->precision_pct != 0 && isfinite(seconds) &&
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
  char seconds[96] = "trial time not measured", pooled[64] = "";
  int k = b->runs_per_trial > 0 ? b->runs_per_trial : 1;
  if (b->timed_runs > 0)
    snprintf(seconds, sizeof seconds, "trial %.2g s (%.2g to %.2g s) from %d run%s",
             b->trial_seconds[ESTIMATE_MID], b->trial_seconds[ESTIMATE_LOW],
             b->trial_seconds[ESTIMATE_HIGH], b->timed_runs, b->timed_runs == 1 ? "" : "s");
  if (!b->spread_of_count)
    snprintf(pooled, sizeof pooled, " (of every count: too few ran %d per trial)", k);
  return snprintf(buf, len,
                  "%s, %d benchmark run%s per trial: paired spread %.3g %% (%.0f %% CI %.3g to "
                  "%.3g %%) from %d log ratio%s to the reference of %d earlier run%s on %s%s, %s",
                  b->bench, k, k == 1 ? "" : "s", 100 * b->sd_log[ESTIMATE_MID],
                  100 * ESTIMATE_SPREAD_CONFIDENCE, 100 * b->sd_log[ESTIMATE_LOW],
                  100 * b->sd_log[ESTIMATE_HIGH], b->ratios, b->ratios == 1 ? "" : "s", b->runs,
                  b->runs == 1 ? "" : "s", e->host, pooled, seconds);
}

void estimate_pilot_plan(const plan *p, plan *pilot) {
  *pilot = *p;
  snprintf(pilot->name, sizeof pilot->name, "%s", ESTIMATE_PILOT_PLAN);
  int reference = reference_condition(p);
  pilot->conditions[0] = p->conditions[reference];
  pilot->condition_count = 1;
  for (int c = 0; c < p->condition_count; c++)
    if (c != reference) {
      pilot->conditions[pilot->condition_count++] = p->conditions[c];
      break;
    }
  pilot->reps = ESTIMATE_PILOT_BLOCKS;
  pilot->warmup = p->warmup > 1 ? 1 : p->warmup;
  pilot->precision_pct = 0;
}
