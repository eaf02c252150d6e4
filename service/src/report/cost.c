/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* cost.c - the reports' "Cost model": from a run's sleep and wait conditions, whether the number
   of idle threads or their wake-ups slow a benchmark (their effects against the shared baseline
   from one block model, fitted by generalized least squares, stats/gls.h), "does not cost" only
   by equivalence, and for a dose series whether the cost bends (a knee); in text, CSV, JSON and
   HTML. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../stats/dist.h"
#include "cost.h"
#include "format.h"
#include "section.h"
#include "threadsoup/json_write.h"
#include "threadsoup/parse.h"
#include "threadsoup/units.h"
#include "threadsoup/utf8.h"

#define MINUS "\xe2\x88\x92" /* U+2212, as a printed number's sign */
#define COST_ALPHA 0.05      /* of every test and interval (95 %) */
/* The section's first words: for a run made to fit it (cost, dose) the trend is the answer. */
#define PRIMARY                                                                                    \
  "This trend over the conditions is the run's primary answer; each condition's verdict above "    \
  "tests it alone."

/* ---- the model ------------------------------------------------------------------------------ */

/* Why a condition is not one of the model's; NULL when it is (threads and wake-ups filled). A
   baseline (no parts) gives "" : it is the reference, not left out. */
static const char *condition_load(const char *text, double *threads, double *wakeups) {
  load_spec spec;
  ts_err err;
  if (load_spec_parse(text, &spec, &err) != TS_OK)
    return "not a load this version knows";
  if (spec.part_count == 0)
    return "";
  *threads = *wakeups = 0;
  for (int i = 0; i < spec.part_count; i++) {
    const load_part *part = &spec.parts[i];
    const char *name = part->scenario->name;
    if (part->scenario->creates_processes)
      return "processes, not threads: the model counts threads";
    if (strcmp(name, "sleep") == 0)
      *wakeups += load_part_wakeups_per_s(part);
    else if (strcmp(name, "wait") != 0)
      return "busy threads: their wake-ups are not set by the plan";
    *threads += (double)part->count;
  }
  return NULL;
}

/* Coefficient j of a fit as a term: its interval, its p against 0 and against ±margin, and what
   they say. */
static void term_of(const gls_fit *f, int j, double margin, report_cost_term *t) {
  t->estimate = f->coef[j];
  t->se = f->se[j];
  t->low = f->ci_low[j];
  t->high = f->ci_high[j];
  t->p = gls_coefficient_p(f, j);
  t->equivalence_p = gls_equivalence_p(f, j, margin);
  t->finding = t->p < COST_ALPHA               ? REPORT_COST_COSTS
               : t->equivalence_p < COST_ALPHA ? REPORT_COST_NEGLIGIBLE
                                               : REPORT_COST_NOT_DETERMINED;
}

static void term_clear(report_cost_term *t) {
  *t = (report_cost_term){NAN, NAN, NAN, NAN, NAN, NAN, REPORT_COST_NOT_DETERMINED};
}

/* The effects of the bench's conditions against the baseline (%, with V in %^2), from one block
   model over the baseline and every condition with scores. */
static void effects_of(const report_data *r, report_cost *c, int b, double *y, double *v) {
  report_cost_bench *cb = &c->bench[b];
  size_t blocks = report_block_count(r, b);
  int n = 0;
  for (int i = 0; i < c->used_count; i++)
    if (r->lists[b][c->used[i].condition].n > 0 && n < GLS_MAX_POINTS)
      cb->used[n++] = i;
  cb->points = n;
  double *by_block = malloc(((size_t)(n + 1) * blocks + 1) * sizeof *by_block);
  const double *conditions[GLS_MAX_POINTS];
  cb->status = by_block && n > 0 ? GLS_OK : GLS_EINVAL;
  if (cb->status == GLS_OK) {
    report_scores_by_block(&r->lists[b][r->baseline], blocks, by_block);
    for (int k = 0; k < n; k++) {
      double *row = by_block + (size_t)(k + 1) * blocks;
      report_scores_by_block(&r->lists[b][c->used[cb->used[k]].condition], blocks, row);
      conditions[k] = row;
    }
    cb->status =
        gls_effects_from_blocks(by_block, conditions, n, blocks, y, v, &cb->df, &cb->blocks_used);
  }
  free(by_block);
  for (int k = 0; k < n; k++) {
    y[k] *= 100;
    for (int j = 0; j < n; j++)
      v[k * n + j] *= 1e4;
    cb->effect[k] = cb->status == GLS_OK ? y[k] : NAN;
    cb->effect_se[k] = cb->status == GLS_OK ? sqrt(v[k * n + k]) : NAN;
  }
}

static void fit_bench(const report_data *r, report_cost *c, int b) {
  report_cost_bench *cb = &c->bench[b];
  double y[GLS_MAX_POINTS], v[GLS_MAX_POINTS * GLS_MAX_POINTS], x[GLS_MAX_POINTS * 2],
      threads[GLS_MAX_POINTS];
  term_clear(&cb->wakeups);
  term_clear(&cb->threads);
  cb->chi2 = cb->chi2_df = cb->chi2_p = NAN;
  cb->answer = REPORT_COST_NO_FIT;
  effects_of(r, c, b, y, v);
  int n = cb->points, waking = 0;
  if (n < 3) {
    cb->why = "too few conditions";
    return;
  }
  if (cb->status != GLS_OK) {
    cb->why = "too few complete blocks";
    return;
  }
  for (int k = 0; k < n; k++) {
    const report_cost_condition *u = &c->used[cb->used[k]];
    x[2 * k] = u->wakeups_per_s / 1000;
    x[2 * k + 1] = threads[k] = u->threads / 1000;
    waking += u->wakeups_per_s > 0;
  }
  gls_fit f;
  int rc = GLS_ESINGULAR;
  if (waking > 0 && !c->dose_like)
    rc = gls_run(y, x, n, 2, v, cb->df, 1 - COST_ALPHA, &f);
  if (rc == GLS_OK) {
    cb->answer = REPORT_COST_SEPARATED;
    term_of(&f, 0, c->margin_percent, &cb->wakeups);
    term_of(&f, 1, c->margin_percent, &cb->threads);
  } else if (rc == GLS_ESINGULAR &&
             (rc = gls_run(y, threads, n, 1, v, cb->df, 1 - COST_ALPHA, &f)) == GLS_OK) {
    cb->answer = waking ? REPORT_COST_TOGETHER : REPORT_COST_THREADS_ONLY;
    term_of(&f, 0, c->margin_percent, &cb->threads);
  } else {
    cb->why = "the fit failed (a variance of 0, or values that are not numbers)";
    return;
  }
  /* The residuals against V: chi2 / (n - p) against F(n - p, df), V estimated on df. */
  cb->chi2 = f.chi2;
  cb->chi2_df = n - f.params;
  cb->chi2_p = cb->chi2_df > 0 ? 1 - dist_f_cdf(f.chi2 / cb->chi2_df, cb->chi2_df, cb->df) : NAN;
  if (c->dose_like) {
    cb->knee_tested = gls_knee_test(threads, y, n, v, cb->df, COST_ALPHA, &cb->knee) == GLS_OK;
  }
}

report_cost *report_cost_compute(const report_data *r) {
  report_cost *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  int distinct = 0;
  c->dose_like = 1;
  c->margin_percent = r->margin_pct > 0 ? r->margin_pct : STATS_DEFAULT_MARGIN_PERCENT;
  for (int k = 0; k < r->condition_count; k++) {
    double threads = 0, wakeups = 0;
    const char *why = condition_load(r->conditions[k], &threads, &wakeups);
    if (why && why[0]) {
      c->left[c->left_count] = k;
      c->left_why[c->left_count++] = why;
    }
    if (why)
      continue;
    report_cost_condition *u = &c->used[c->used_count];
    u->condition = k;
    u->threads = threads;
    u->wakeups_per_s = wakeups;
    u->switches_per_s = r->switches_per_s[k];
    int seen = 0;
    for (int i = 0; i < c->used_count; i++)
      seen |= c->used[i].threads == threads && c->used[i].wakeups_per_s == wakeups;
    distinct += !seen;
    double ratio = wakeups / threads;
    if (c->used_count == 0)
      c->wakeups_per_thread = ratio;
    else if (fabs(ratio - c->wakeups_per_thread) > 1e-9 * fabs(ratio))
      c->dose_like = 0;
    c->used_count++;
  }
  c->applies = distinct >= 3;
  if (!c->applies)
    return c;
  for (int b = 0; b < r->bench_count; b++)
    fit_bench(r, c, b);
  return c;
}

/* A coefficient (% per 1,000, below 0: slower) times `per_1000` thousands, as a cost (above 0:
   slower); NaN ends where the term was not fitted. */
static void scaled_cost(const report_cost_term *t, double per_1000, double *cost, double *low,
                        double *high) {
  *cost = -t->estimate * per_1000;
  *low = -t->high * per_1000;
  *high = -t->low * per_1000;
}

int report_cost_predict(const report_cost *c, int b, double wakeups_per_s, double threads,
                        report_cost_prediction *out, const char **why) {
  *out = (report_cost_prediction){NAN, NAN, NAN, NAN, NAN, NAN};
  const report_cost_bench *cb = &c->bench[b];
  if (!c->applies) {
    *why = "the cost run has too few sleep and wait conditions for a model";
    return 0;
  }
  if (cb->answer == REPORT_COST_TOGETHER) {
    *why = "the cost run could not separate wake-ups from threads (they rose together)";
    return 0;
  }
  if (cb->answer == REPORT_COST_NO_FIT) {
    *why = "the cost run's model could not be fitted";
    return 0;
  }
  if (cb->answer == REPORT_COST_SEPARATED)
    scaled_cost(&cb->wakeups, wakeups_per_s / 1000, &out->wakeups, &out->wakeups_low,
                &out->wakeups_high);
  if (threads >= 0) /* the thread term is in both the separated fit and the threads-only one */
    scaled_cost(&cb->threads, threads / 1000, &out->threads, &out->threads_low, &out->threads_high);
  return 1;
}

/* ---- words ---------------------------------------------------------------------------------- */

/* Decimals that show an interval's size: fewer for large numbers, more for tiny ones, and enough
   that a narrow interval's ends differ (at most 4). */
static int decimals_for(double low, double high) {
  double m = fmax(fabs(low), fabs(high)), width = fabs(high - low);
  int d = m >= 10 ? 1 : m >= 0.1 ? 2 : 3;
  while (d < 4 && width > 0 && width * pow(10, d) < 2)
    d++;
  return d;
}

/* A signed number with a real minus sign ("−0.42", "+0.03", "0.00"). */
static const char *signed_text(double v, int decimals, char *buf, size_t len) {
  char digits[48];
  snprintf(digits, sizeof digits, "%.*f", decimals, fabs(v));
  int zero = strspn(digits, "0.") == strlen(digits);
  snprintf(buf, len, "%s%s", zero ? "" : v < 0 ? MINUS : "+", digits);
  return buf;
}

/* "−0.42 % (95 % CI −0.61 to −0.23 %)" */
static void estimate_text(double v, double low, double high, char *buf, size_t len) {
  int d = decimals_for(low, high);
  char a[48], b[48], e[48];
  snprintf(buf, len, "%s %% (95 %% CI %s to %s %%)", signed_text(v, d, e, sizeof e),
           signed_text(low, d, a, sizeof a), signed_text(high, d, b, sizeof b));
}

static void term_estimate_text(const report_cost_term *t, char *buf, size_t len) {
  estimate_text(t->estimate, t->low, t->high, buf, len);
}

/* A count with thousands separators: "15,000". */
static void count_text(double v, char *buf, size_t len) {
  char digits[32];
  snprintf(digits, sizeof digits, "%.0f", fabs(v));
  size_t n = strlen(digits), o = 0;
  if (v < 0 && o + 1 < len)
    buf[o++] = '-';
  for (size_t i = 0; i < n && o + 2 < len; i++) {
    buf[o++] = digits[i];
    if ((n - i - 1) % 3 == 0 && i + 1 < n)
      buf[o++] = ',';
  }
  buf[o] = '\0';
}

/* What one coefficient says, after its name ("the wake-ups", "1,000 such threads"):
   "cost: each 1,000 wake-ups/s make this benchmark 0.40 % slower (p 0.0001)",
   "cost less than ±1.0 % per 1,000 wake-ups/s (equivalence p 0.003)",
   "cost not determined: ...". */
static void finding_text(const char *what, const report_cost_term *t, const char *per,
                         double margin, char *buf, size_t len) {
  int d = decimals_for(t->low, t->high);
  switch (t->finding) {
  case REPORT_COST_COSTS:
    snprintf(buf, len, "%s cost: each 1,000 %s make this benchmark %.*f %% %s (p %.2g)", what, per,
             d, fabs(t->estimate), t->estimate < 0 ? "slower" : "faster", t->p);
    return;
  case REPORT_COST_NEGLIGIBLE:
    snprintf(buf, len,
             "%s cost less than ±%.2g %% per 1,000 %s (equivalence against the margin: "
             "p %.2g)",
             what, margin, per, t->equivalence_p);
    return;
  case REPORT_COST_NOT_DETERMINED:
    snprintf(buf, len,
             "%s cost not determined: the interval holds 0 and reaches beyond ±%.2g %% per 1,000 "
             "%s",
             what, margin, per);
    return;
  }
}

/* The line that gives both coefficients of a separated fit. */
static void coefficients_text(const report_cost_bench *cb, char *buf, size_t len) {
  char wake[160], threads[160];
  term_estimate_text(&cb->wakeups, wake, sizeof wake);
  term_estimate_text(&cb->threads, threads, sizeof threads);
  snprintf(buf, len, "cost per 1,000 wake-ups/s: %s; per 1,000 idle threads: %s", wake, threads);
}

/* Which one the data say matters, in plain sentences. */
static void answer_text(const report_cost *c, const report_cost_bench *cb, char *buf, size_t len) {
  char a[320], b[320], est[160];
  double m = c->margin_percent;
  switch (cb->answer) {
  case REPORT_COST_SEPARATED: {
    finding_text("The wake-ups", &cb->wakeups, "wake-ups/s", m, a, sizeof a);
    finding_text("the number of threads", &cb->threads, "threads", m, b, sizeof b);
    const char *advice = "";
    if (cb->wakeups.finding == REPORT_COST_COSTS && cb->threads.finding == REPORT_COST_NEGLIGIBLE)
      advice = " Fewer wake-ups (longer sleeps, waiting on events) would help; fewer idle threads "
               "alone would not.";
    else if (cb->threads.finding == REPORT_COST_COSTS &&
             cb->wakeups.finding == REPORT_COST_NEGLIGIBLE)
      advice = " Fewer threads would help, whatever they do.";
    else if (cb->wakeups.finding == REPORT_COST_NOT_DETERMINED ||
             cb->threads.finding == REPORT_COST_NOT_DETERMINED)
      advice = " More blocks (--reps) narrow what is not determined.";
    snprintf(buf, len, "%s; %s.%s", a, b, advice);
    return;
  }
  case REPORT_COST_TOGETHER: {
    char every[32];
    ts_format_duration((uint64_t)((double)TS_NS_PER_S / c->wakeups_per_thread + 0.5), every,
                       sizeof every);
    term_estimate_text(&cb->threads, est, sizeof est);
    finding_text("Together they", &cb->threads, "such threads", m, a, sizeof a);
    snprintf(buf, len,
             "The data cannot say which one costs: in this run the wake-ups rose with the number "
             "of threads (each thread woke every %s). Each 1,000 such threads: %s. %s. The cost "
             "preset varies the two apart.",
             every, est, a);
    return;
  }
  case REPORT_COST_THREADS_ONLY:
    term_estimate_text(&cb->threads, est, sizeof est);
    finding_text("They", &cb->threads, "waiting threads", m, a, sizeof a);
    snprintf(buf, len,
             "No condition's threads wake (they wait), so only their number is tested: each 1,000 "
             "waiting threads: %s. %s.",
             est, a);
    return;
  case REPORT_COST_NO_FIT:
    if (cb->points < 3)
      snprintf(buf, len,
               "The model cannot be fitted: %d condition%s scores, and it needs at least 3.",
               cb->points, cb->points == 1 ? " has" : "s have");
    else if (cb->status != GLS_OK)
      snprintf(buf, len,
               "The model cannot be fitted: it needs at least 2 blocks in which the baseline and "
               "every condition have a score.");
    else
      snprintf(buf, len, "The model cannot be fitted: %s.", cb->why);
    return;
  }
}

/* How the model was fitted and how well: the residuals against the errors. "" without a fit. */
static void fit_quality_text(const report_cost_bench *cb, char *buf, size_t len) {
  buf[0] = '\0';
  if (cb->answer == REPORT_COST_NO_FIT)
    return;
  int scatter = cb->chi2_p < COST_ALPHA;
  snprintf(buf, len,
           "fit: generalized least squares through 0 on %d conditions, with the covariance their "
           "shared baseline gives them (one block model over %zu complete blocks; t on %.0f df); "
           "the conditions scatter around it %s (\xcf\x87\xc2\xb2 %.2f on %.0f df, p %.2g)%s",
           cb->points, cb->blocks_used, cb->df,
           scatter ? "more than their errors allow" : "as much as their errors say", cb->chi2,
           cb->chi2_df, cb->chi2_p,
           scatter ? ": something besides wake-ups and thread count changes the effect" : "");
}

/* The knee sentence of a dose-like run. */
static void knee_text(const report_cost_bench *cb, char *buf, size_t len) {
  const gls_knee *h = &cb->knee;
  char est[160], knot[32];
  if (!cb->knee_tested) {
    snprintf(buf, len, "No knee tested: the model has no fit.");
    return;
  }
  if (h->candidates == 0) {
    snprintf(buf, len,
             "No knee tested: a bend needs a thread count with two higher ones above it.");
    return;
  }
  double q = dist_t_quantile(1 - COST_ALPHA / 2, cb->df);
  if (!h->knee) {
    estimate_text(h->slope, h->slope - q * h->slope_se, h->slope + q * h->slope_se, est,
                  sizeof est);
    snprintf(buf, len,
             "No knee: a straight line fits (a bend at any of %d thread counts: p %.2g, the "
             "smallest p times %d); each 1,000 threads: %s, all the way.",
             h->candidates, h->p, h->candidates, est);
    return;
  }
  estimate_text(h->extra_slope, h->extra_slope - q * h->extra_se, h->extra_slope + q * h->extra_se,
                est, sizeof est);
  count_text(h->knot * 1000, knot, sizeof knot);
  snprintf(buf, len,
           "Knee at about %s threads: beyond it the cost of each 1,000 more threads changes by "
           "%s (against a straight line: p %.2g, the smallest of %d thread counts' p times %d).",
           knot, est, h->p, h->candidates, h->candidates);
}

/* The measured switches against the planned wake-ups, over the sleeping conditions. */
static int switches_ratio(const report_cost *c, double *low, double *high) {
  int n = 0;
  for (int i = 0; i < c->used_count; i++) {
    const report_cost_condition *u = &c->used[i];
    if (!(u->wakeups_per_s > 0) || !isfinite(u->switches_per_s))
      continue;
    double q = u->switches_per_s / u->wakeups_per_s;
    *low = n ? fmin(*low, q) : q;
    *high = n ? fmax(*high, q) : q;
    n++;
  }
  return n;
}

static void switches_text(const report_cost *c, char *buf, size_t len) {
  double low, high;
  buf[0] = '\0';
  if (!switches_ratio(c, &low, &high))
    return;
  snprintf(buf, len, "measured context switches were %.2f to %.2f times the planned wake-ups%s",
           low, high,
           low < 0.8 || high > 1.25 ? " - the model uses the planned rate; far from 1, the "
                                      "load did not wake as planned"
                                    : "");
}

/* ---- text ----------------------------------------------------------------------------------- */

static void write_text(const report_data *r, const void *prepared, FILE *out) {
  const report_cost *c = prepared;
  if (!c->applies)
    return;
  char name[512], line[1200];
  fprintf(out, "\nCost model: does the number of idle threads cost, or their wake-ups? %s\n",
          PRIMARY);
  fprintf(out, "  %-30s %8s %11s %11s\n", "condition", "threads", "wake-ups/s", "switches/s");
  for (int i = 0; i < c->used_count; i++) {
    const report_cost_condition *u = &c->used[i];
    char switches[24] = "-";
    if (isfinite(u->switches_per_s))
      snprintf(switches, sizeof switches, "%.0f", u->switches_per_s);
    fprintf(out, "  %-30s %8.0f %11.0f %11s\n", SHOWN(r->conditions[u->condition], name),
            u->threads, u->wakeups_per_s, switches);
  }
  for (int i = 0; i < c->left_count; i++)
    fprintf(out, "  left out: %s (%s)\n", SHOWN(r->conditions[c->left[i]], name), c->left_why[i]);
  switches_text(c, line, sizeof line);
  if (line[0])
    fprintf(out, "  %s\n", line);
  for (int b = 0; b < r->bench_count; b++) {
    const report_cost_bench *cb = &c->bench[b];
    fprintf(out, "  %s:\n", SHOWN(r->benches[b], name));
    if (cb->answer == REPORT_COST_SEPARATED) {
      coefficients_text(cb, line, sizeof line);
      fprintf(out, "    %s\n", line);
    }
    answer_text(c, cb, line, sizeof line);
    fprintf(out, "    %s\n", line);
    fit_quality_text(cb, line, sizeof line);
    if (line[0])
      fprintf(out, "    %s\n", line);
    if (c->dose_like) {
      knee_text(cb, line, sizeof line);
      fprintf(out, "    %s\n", line);
    }
  }
}

/* ---- CSV ------------------------------------------------------------------------------------ */

/* One row of the cost table: a coefficient (or the knee's extra slope) of one benchmark. */
static void csv_row(FILE *out, const report_data *r, const report_cost *c, int b, const char *term,
                    const report_cost_term *t, double at_threads, const char *finding) {
  report_csv_field(out, r->benches[b]);
  fprintf(out, ",%s", term);
  double values[] = {t->estimate,       t->se,     t->low, t->high, 0.95, t->p, t->equivalence_p,
                     c->margin_percent, at_threads};
  for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
    fputc(',', out);
    report_csv_number(out, values[v]);
  }
  fprintf(out, ",%s\n", finding);
}

static const char *finding_name(report_cost_finding f) {
  static const char *const names[] = {[REPORT_COST_NOT_DETERMINED] = "not determined",
                                      [REPORT_COST_COSTS] = "costs",
                                      [REPORT_COST_NEGLIGIBLE] = "costs less than the margin"};
  return names[f];
}

static void write_csv(const report_data *r, const void *prepared, FILE *out) {
  const report_cost *c = prepared;
  if (!c->applies)
    return;
  static const char *const columns[] = {
      "cost_bench",    "term",           "percent_per_1000", "se",
      "ci_low",        "ci_high",        "confidence",       "p",
      "equivalence_p", "margin_percent", "at_threads",       "finding"};
  fputc('\n', out);
  report_csv_names(out, columns, sizeof columns / sizeof columns[0]);
  fputc('\n', out);
  for (int b = 0; b < r->bench_count; b++) {
    const report_cost_bench *cb = &c->bench[b];
    if (cb->answer == REPORT_COST_SEPARATED) {
      csv_row(out, r, c, b, "wakeups_per_s", &cb->wakeups, NAN, finding_name(cb->wakeups.finding));
      csv_row(out, r, c, b, "threads", &cb->threads, NAN, finding_name(cb->threads.finding));
    } else if (cb->answer != REPORT_COST_NO_FIT)
      csv_row(out, r, c, b,
              cb->answer == REPORT_COST_TOGETHER ? "threads_with_their_wakeups" : "waiting_threads",
              &cb->threads, NAN, finding_name(cb->threads.finding));
    if (c->dose_like && cb->knee_tested && cb->knee.candidates > 0) {
      const gls_knee *h = &cb->knee;
      double q = dist_t_quantile(1 - COST_ALPHA / 2, cb->df);
      report_cost_term k = {h->extra_slope,
                            h->extra_se,
                            h->extra_slope - q * h->extra_se,
                            h->extra_slope + q * h->extra_se,
                            h->p,
                            NAN,
                            REPORT_COST_NOT_DETERMINED};
      csv_row(out, r, c, b, "knee", &k, h->knot * 1000, h->knee ? "knee" : "no knee");
    }
  }
}

/* ---- JSON ----------------------------------------------------------------------------------- */

static void json_term(FILE *out, const char *key, const report_cost_term *t, double margin,
                      int present) {
  fprintf(out, ",\"%s\":", key);
  if (!present) {
    fputs("null", out);
    return;
  }
  fputs("{\"percent\":", out);
  ts_json_number(out, t->estimate, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "se", t->se, REPORT_JSON_DIGITS);
  fputs(",\"ci95\":", out);
  ts_json_range(out, 1, t->low, t->high, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "p", t->p, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "equivalence_p", t->equivalence_p, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "margin_percent", margin, REPORT_JSON_DIGITS);
  ts_json_string_member(out, "finding", finding_name(t->finding));
  fputc('}', out);
}

static const char *answer_name(report_cost_answer a) {
  static const char *const names[] = {[REPORT_COST_NO_FIT] = "no fit",
                                      [REPORT_COST_SEPARATED] = "separated",
                                      [REPORT_COST_TOGETHER] = "together",
                                      [REPORT_COST_THREADS_ONLY] = "threads only"};
  return names[a];
}

static void json_cost_bench(const report_data *r, const void *prepared, int b, FILE *out) {
  const report_cost *c = prepared;
  const report_cost_bench *cb = &c->bench[b];
  char text[1200];
  fputs("{\"bench\":", out);
  ts_json_string(out, r->benches[b]);
  fprintf(out, ",\"conditions_fitted\":%d,\"blocks\":%zu,\"answer\":\"%s\",\"fitted\":%s",
          cb->points, cb->blocks_used, answer_name(cb->answer),
          cb->answer != REPORT_COST_NO_FIT ? "true" : "false");
  ts_json_number_member(out, "df", cb->df, REPORT_JSON_DIGITS);
  int separated = cb->answer == REPORT_COST_SEPARATED;
  json_term(out, "per_1000_wakeups_per_s", &cb->wakeups, c->margin_percent, separated);
  json_term(out, "per_1000_threads", &cb->threads, c->margin_percent,
            cb->answer != REPORT_COST_NO_FIT);
  ts_json_number_member(out, "chi2", cb->chi2, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "chi2_df", cb->chi2_df, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "chi2_p", cb->chi2_p, REPORT_JSON_DIGITS);
  fputs(",\"text\":", out);
  answer_text(c, cb, text, sizeof text);
  ts_json_string(out, text);
  fputc('}', out);
}

static void json_knee_bench(const report_data *r, const void *prepared, int b, FILE *out) {
  const report_cost_bench *cb = &((const report_cost *)prepared)->bench[b];
  const gls_knee *h = &cb->knee;
  int tested = cb->knee_tested && h->candidates > 0;
  char text[800];
  fputs("{\"bench\":", out);
  ts_json_string(out, r->benches[b]);
  fprintf(out, ",\"knee\":%s,\"tested\":%s,\"candidates\":%d,\"threads\":",
          tested && h->knee ? "true" : "false", tested ? "true" : "false",
          cb->knee_tested ? h->candidates : 0);
  ts_json_number(out, tested && h->knee ? h->knot * 1000 : NAN, REPORT_JSON_DIGITS);
  const double values[] = {h->extra_slope, h->extra_se, h->slope, h->slope_se, h->p_min, h->p};
  const char *keys[] = {
      "extra_per_1000_threads", "extra_se", "line_per_1000_threads", "line_se", "p_min", "p"};
  for (int i = 0; i < 6; i++)
    ts_json_number_member(out, keys[i], tested ? values[i] : NAN, REPORT_JSON_DIGITS);
  fputs(",\"text\":", out);
  knee_text(cb, text, sizeof text);
  ts_json_string(out, text);
  fputc('}', out);
}

/* A condition the model was fitted to, with its x values. */
static void json_used(const report_data *r, const void *prepared, int i, FILE *out) {
  const report_cost_condition *u = &((const report_cost *)prepared)->used[i];
  fputs("{\"condition\":", out);
  ts_json_string(out, r->conditions[u->condition]);
  ts_json_number_member(out, "threads", u->threads, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "wakeups_per_s", u->wakeups_per_s, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "switches_per_s", u->switches_per_s, REPORT_JSON_DIGITS);
  fputc('}', out);
}

/* A condition left out of the fit, and why. */
static void json_left(const report_data *r, const void *prepared, int i, FILE *out) {
  const report_cost *c = prepared;
  fputs("{\"condition\":", out);
  ts_json_string(out, r->conditions[c->left[i]]);
  ts_json_string_member(out, "why", c->left_why[i]);
  fputc('}', out);
}

static void write_json(const report_data *r, const void *prepared, FILE *out) {
  const report_cost *c = prepared;
  if (!c->applies) {
    fputs(",\n\"cost_model\":null,\"knee\":null", out);
    return;
  }
  fputs(",\n\"cost_model\":{\"conditions\":", out);
  report_json_array(out, REPORT_JSON_INLINE, c->used_count, json_used, r, c);
  fputs(",\"left_out\":", out);
  report_json_array(out, REPORT_JSON_INLINE, c->left_count, json_left, r, c);
  fputs(",\"benchmarks\":", out);
  report_json_array(out, REPORT_JSON_LINES, r->bench_count, json_cost_bench, r, c);
  fputs("},\n\"knee\":", out);
  if (!c->dose_like) {
    fputs("null", out);
  } else {
    fputs("{\"benchmarks\":", out);
    report_json_array(out, REPORT_JSON_LINES, r->bench_count, json_knee_bench, r, c);
    fputc('}', out);
  }
}

/* ---- HTML ----------------------------------------------------------------------------------- */

/* The chart's line: the fitted effect per unit of its x (a wake-up per second, or a thread when
   none wakes) and the 95 % interval that decided its finding; 0 when there is none. */
static int chart_line(const report_cost *c, const report_cost_bench *cb, int by_wakeups,
                      double *slope, double *low, double *high) {
  const report_cost_term *t = &cb->threads;
  double per = 1;
  if (cb->answer == REPORT_COST_NO_FIT)
    return 0;
  if (cb->answer == REPORT_COST_SEPARATED)
    t = by_wakeups ? &cb->wakeups : &cb->threads;
  else if (by_wakeups) /* one fit on threads: per wake-up, every thread waking at one rate */
    per = c->wakeups_per_thread;
  if (!(per > 0))
    return 0;
  *slope = t->estimate / 1000 / per;
  *low = t->low / 1000 / per;
  *high = t->high / 1000 / per;
  return 1;
}

/* x: wake-ups per second (threads when no condition wakes); y: the effect in %, each point with
   its 95 % CI from the block model, the fitted line with the 95 % band that decided. */
static void write_cost_chart(const report_data *r, const report_cost *c, int b, FILE *out) {
  const report_cost_bench *cb = &c->bench[b];
  int by_wakeups = 0;
  for (int k = 0; k < cb->points; k++)
    by_wakeups |= c->used[cb->used[k]].wakeups_per_s > 0;
  double xmax = 0, lo = 0, hi = 0;
  double q = cb->status == GLS_OK ? dist_t_quantile(1 - COST_ALPHA / 2, cb->df) : NAN;
  for (int k = 0; k < cb->points; k++) {
    const report_cost_condition *u = &c->used[cb->used[k]];
    xmax = fmax(xmax, by_wakeups ? u->wakeups_per_s : u->threads);
    double values[3] = {cb->effect[k], cb->effect[k] - q * cb->effect_se[k],
                        cb->effect[k] + q * cb->effect_se[k]};
    for (int i = 0; i < 3; i++)
      if (isfinite(values[i])) {
        lo = fmin(lo, values[i]);
        hi = fmax(hi, values[i]);
      }
  }
  if (cb->points == 0 || cb->status != GLS_OK || !(xmax > 0) || !isfinite(xmax))
    return;
  double xstep = report_html_step(xmax, 5);
  xmax = ceil(xmax / xstep) * xstep;
  double slope = 0, band_low = 0, band_high = 0;
  int line = chart_line(c, cb, by_wakeups, &slope, &band_low, &band_high);
  if (line) {
    lo = fmin(lo, fmin(band_low * xmax, band_high * xmax));
    hi = fmax(hi, fmax(band_low * xmax, band_high * xmax));
  }
  /* A dose series' knee: a dashed upright line at its thread count (in the chart's x). */
  double per = by_wakeups ? c->wakeups_per_thread : 1;
  int knee = c->dose_like && cb->knee_tested && cb->knee.knee && per > 0;
  double knot_x = knee ? cb->knee.knot * 1000 * per : 0;
  int off_chart = lo < -REPORT_CHART_PERCENT_MAX || hi > REPORT_CHART_PERCENT_MAX;
  lo = report_chart_clamp(lo, REPORT_CHART_PERCENT_MAX);
  hi = report_chart_clamp(hi, REPORT_CHART_PERCENT_MAX);
  if (hi - lo < 0.1) {
    lo -= 0.05;
    hi += 0.05;
  }
  double ystep = report_html_step(hi - lo, 5);
  lo = floor(lo / ystep) * ystep;
  hi = ceil(hi / ystep) * ystep;
  const double left = 80, right = 740, top = 12, bottom = 250, width = 760, height = 292;
#define X_OF(v) (left + (v) / xmax * (right - left))
#define Y_OF(v)                                                                                    \
  (bottom - (report_chart_clamp(v, REPORT_CHART_PERCENT_MAX) - lo) / (hi - lo) * (bottom - top))
  fputs("<figure>\n<figcaption>", out);
  if (by_wakeups)
    fputs("Effect against wake-ups per second: each condition with its 95&nbsp;% CI; the line is "
          "the fitted cost of wake-ups",
          out);
  else
    fputs("Effect against the number of waiting threads: each condition with its 95&nbsp;% CI; "
          "the line is the fitted cost per thread",
          out);
  fputs(cb->answer == REPORT_COST_SEPARATED && by_wakeups
            ? " (threads at 0; a point's distance from it holds its threads' share), with the "
              "95&nbsp;% band that decided"
            : ", with the 95&nbsp;% band that decided",
        out);
  fputs(knee ? "; dashed: the knee" : "", out);
  fputs(off_chart ? REPORT_CHART_EDGE_NOTE "</figcaption>\n" : "</figcaption>\n", out);
  fprintf(out,
          "<svg viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"effect against %s\" "
          "xmlns=\"http://www.w3.org/2000/svg\">\n",
          width, height, by_wakeups ? "wake-ups per second" : "threads");
  for (int tick = 0; ystep > 0 && tick <= REPORT_CHART_TICKS_MAX; tick++) {
    double v = lo + tick * ystep;
    if (v > hi + ystep / 2)
      break;
    int zero = fabs(v) < ystep / 2;
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", left,
            Y_OF(v), right, Y_OF(v), zero ? "#222" : "#e3e3e3");
    fprintf(out,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"middle\">"
            "%.*f %%</text>\n",
            left - 6, Y_OF(v), ystep < 1 ? (ystep < 0.1 ? 2 : 1) : 0, zero ? 0.0 : v);
  }
  for (int tick = 0; xstep > 0 && tick <= REPORT_CHART_TICKS_MAX; tick++) {
    double v = tick * xstep;
    if (v > xmax + xstep / 2)
      break;
    char label[32];
    count_text(v, label, sizeof label);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", X_OF(v),
            bottom + 16, label);
  }
  fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", (left + right) / 2,
          bottom + 34, by_wakeups ? "wake-ups per second (planned)" : "waiting threads");
  fprintf(out,
          "<text transform=\"translate(14 %.1f) rotate(-90)\" text-anchor=\"middle\">effect on "
          "the benchmark (%%)</text>\n",
          (top + bottom) / 2);
  fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>\n", left,
          top, left, bottom);
  if (line) {
    fprintf(out,
            "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"#0072b2\" "
            "fill-opacity=\"0.15\"/>\n",
            X_OF(0), Y_OF(0), X_OF(xmax), Y_OF(band_high * xmax), X_OF(xmax),
            Y_OF(band_low * xmax));
    fprintf(out,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#0072b2\" "
            "stroke-width=\"2\"/>\n",
            X_OF(0), Y_OF(0), X_OF(xmax), Y_OF(slope * xmax));
  }
  if (knee)
    fprintf(out,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#009e73\" "
            "stroke-width=\"2\" stroke-dasharray=\"6 4\"><title>the knee</title></line>\n",
            X_OF(knot_x), top, X_OF(knot_x), bottom);
  for (int k = 0; k < cb->points; k++) {
    const report_cost_condition *u = &c->used[cb->used[k]];
    double x = X_OF(by_wakeups ? u->wakeups_per_s : u->threads), e = cb->effect[k];
    fputs("<g><title>", out);
    report_html_text(out, r->conditions[u->condition]);
    fprintf(out, ": %+.2f %%</title>\n", e);
    if (isfinite(cb->effect_se[k]))
      fprintf(out,
              "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d55e00\" "
              "stroke-width=\"2\"/>\n",
              x, Y_OF(e - q * cb->effect_se[k]), x, Y_OF(e + q * cb->effect_se[k]));
    fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#d55e00\"/>\n</g>\n", x, Y_OF(e));
  }
#undef X_OF
#undef Y_OF
  fputs("</svg>\n</figure>\n", out);
}

/* One paragraph of escaped text between `open` and `close` ("<p>", "</p>\n"). */
static void html_text(FILE *out, const char *open, const char *text, const char *close) {
  fputs(open, out);
  report_html_text(out, text);
  fputs(close, out);
}

static void write_html(const report_data *r, const void *prepared, FILE *out) {
  const report_cost *c = prepared;
  if (!c->applies)
    return;
  char line[1200];
  fputs("<section class=\"cost\">\n<h2>Cost model</h2>\n<p class=\"note\">Does the number of idle "
        "threads cost, or their wake-ups? The effect of each sleep and wait condition against the "
        "shared baseline, fitted on its planned wake-ups per second and its threads with the "
        "covariance that baseline gives them. " PRIMARY "</p>\n"
        "<div class=\"wrap\"><table>\n<thead><tr><th class=\"cond\">condition</th><th>threads"
        "</th><th>wake-ups/s</th><th>switches/s (measured)</th></tr></thead>\n<tbody>\n",
        out);
  for (int i = 0; i < c->used_count; i++) {
    const report_cost_condition *u = &c->used[i];
    fputs("<tr><td class=\"cond\">", out);
    report_html_text(out, r->conditions[u->condition]);
    fprintf(out, "</td><td>%.0f</td><td>%.0f</td><td>", u->threads, u->wakeups_per_s);
    if (isfinite(u->switches_per_s))
      fprintf(out, "%.0f", u->switches_per_s);
    else
      fputs("-", out);
    fputs("</td></tr>\n", out);
  }
  fputs("</tbody></table></div>\n", out);
  for (int i = 0; i < c->left_count; i++) {
    html_text(out, "<p class=\"note\">Left out: ", r->conditions[c->left[i]], " (");
    html_text(out, "", c->left_why[i], ").</p>\n");
  }
  switches_text(c, line, sizeof line);
  if (line[0]) {
    html_text(out, "<p class=\"note\">", line, ".</p>\n");
  }
  for (int b = 0; b < r->bench_count; b++) {
    const report_cost_bench *cb = &c->bench[b];
    html_text(out, "<h3>", r->benches[b], "</h3>\n");
    if (cb->answer == REPORT_COST_SEPARATED) {
      coefficients_text(cb, line, sizeof line);
      html_text(out, "<p><b>", line, "</b></p>\n");
    }
    answer_text(c, cb, line, sizeof line);
    html_text(out, "<p>", line, "</p>\n");
    fit_quality_text(cb, line, sizeof line);
    if (line[0]) {
      html_text(out, "<p class=\"note\">", line, ".</p>\n");
    }
    if (c->dose_like) {
      knee_text(cb, line, sizeof line);
      html_text(out, "<p>", line, "</p>\n");
    }
    write_cost_chart(r, c, b, out);
  }
  fputs("</section>\n", out);
}

static int prepare(store *s, const report_data *r, void **prepared, ts_err *err) {
  (void)s;
  *prepared = report_cost_compute(r);
  return *prepared ? TS_OK : ts_err_set(err, TS_ENOMEM, "no memory for the cost model");
}

const report_section report_section_cost = {
    "cost", prepare, NULL, {write_text, write_csv, write_json, write_html}};
