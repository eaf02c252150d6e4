/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* cost.c - the reports' "Cost model": from a run's sleep and wait conditions, whether the number
   of idle threads or their wake-ups slow a benchmark (weighted least squares, stats/fit.h),
   and for a dose series where the cost begins (a hinge fit); in text, JSON and HTML. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "format.h"
#include "section.h"
#include "threadsoup/json_write.h"
#include "threadsoup/parse.h"
#include "threadsoup/units.h"
#include "threadsoup/utf8.h"

#define MINUS "\xe2\x88\x92" /* U+2212, as a printed number's sign */

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

/* Whether a coefficient's 95 % CI excludes 0. */
static int excludes_zero(const fit_wls *f, int j) {
  return f->ok && (f->ci_low[j] > 0 || f->ci_high[j] < 0);
}

static void fit_bench(const report_data *r, report_cost *c, int b) {
  report_cost_bench *cb = &c->bench[b];
  double y[REPORT_MAX_CONDITIONS], w[REPORT_MAX_CONDITIONS], wake[REPORT_MAX_CONDITIONS],
      threads[REPORT_MAX_CONDITIONS];
  int n = 0, waking = 0;
  for (int i = 0; i < c->used_count; i++) {
    const report_cell *cell = &r->cells[b][c->used[i].condition];
    double se = cell->sens.se_percent;
    if (!cell->compared || !isfinite(cell->cmp.percent) || !(se > 0) || !isfinite(se))
      continue;
    cb->used[n] = i;
    y[n] = cell->cmp.percent;
    w[n] = 1 / (se * se);
    wake[n] = c->used[i].wakeups_per_s / 1000;
    threads[n] = c->used[i].threads / 1000;
    waking += wake[n] > 0;
    n++;
  }
  cb->points = n;
  const double *both[2] = {wake, threads}, *only[1] = {threads};
  fit_wls_run(y, both, 2, w, n, 0, &cb->model);
  fit_wls_run(y, only, 1, w, n, 0, &cb->threads_fit);
  if (c->dose_like)
    fit_hinge_run(threads, y, w, n, &cb->knee);
  if (cb->model.ok)
    cb->answer =
        excludes_zero(&cb->model, 0)
            ? (excludes_zero(&cb->model, 1) ? REPORT_COST_BOTH : REPORT_COST_WAKEUPS)
            : (excludes_zero(&cb->model, 1) ? REPORT_COST_THREADS : REPORT_COST_CANNOT_TELL);
  else if (!cb->threads_fit.ok)
    cb->answer = REPORT_COST_NO_FIT;
  else
    cb->answer = waking == 0 ? REPORT_COST_THREADS_ONLY : REPORT_COST_TOGETHER;
  if (cb->answer == REPORT_COST_TOGETHER && !strstr(cb->model.why, "move together"))
    cb->answer = REPORT_COST_NO_FIT; /* e.g. fewer points than the two predictors need */
}

report_cost *report_cost_compute(const report_data *r) {
  report_cost *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  int distinct = 0;
  c->dose_like = 1;
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

/* ---- words ---------------------------------------------------------------------------------- */

/* Decimals that show an interval's size: fewer for large numbers, more for tiny ones. */
static int decimals_for(double low, double high) {
  double m = fmax(fabs(low), fabs(high));
  return m >= 10 ? 1 : m >= 0.1 ? 2 : 3;
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

/* "0.42 % slower" / "0.10 % faster" for an effect per 1,000. */
static void change_text(double v, double low, double high, char *buf, size_t len) {
  snprintf(buf, len, "%.*f %% %s", decimals_for(low, high), fabs(v), v < 0 ? "slower" : "faster");
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

/* The line that gives both coefficients, as the brief names them. */
static void coefficients_text(const fit_wls *m, char *buf, size_t len) {
  char wake[160], threads[160];
  estimate_text(m->coef[0], m->ci_low[0], m->ci_high[0], wake, sizeof wake);
  estimate_text(m->coef[1], m->ci_low[1], m->ci_high[1], threads, sizeof threads);
  snprintf(buf, len, "cost per 1,000 wake-ups/s: %s; per 1,000 idle threads: %s", wake, threads);
}

/* Which one the data say matters, in one plain sentence. */
static void answer_text(const report_cost *c, const report_cost_bench *cb, char *buf, size_t len) {
  const fit_wls *m = &cb->model, *t = &cb->threads_fit;
  char a[96], b[96], est[160];
  switch (cb->answer) {
  case REPORT_COST_WAKEUPS:
    change_text(m->coef[0], m->ci_low[0], m->ci_high[0], a, sizeof a);
    snprintf(buf, len,
             "What costs is the wake-ups, not the number of threads: each 1,000 wake-ups per "
             "second make this benchmark %s, while the thread count's own effect cannot be told "
             "from 0. Fewer wake-ups (longer sleeps, waiting on events) would help; fewer idle "
             "threads alone would not.",
             a);
    return;
  case REPORT_COST_THREADS:
    change_text(m->coef[1], m->ci_low[1], m->ci_high[1], a, sizeof a);
    snprintf(buf, len,
             "What costs is the number of threads, not their wake-ups: each 1,000 idle threads "
             "make this benchmark %s, while the wake-ups' own effect cannot be told from 0. "
             "Fewer threads would help, whatever they do.",
             a);
    return;
  case REPORT_COST_BOTH:
    change_text(m->coef[0], m->ci_low[0], m->ci_high[0], a, sizeof a);
    change_text(m->coef[1], m->ci_low[1], m->ci_high[1], b, sizeof b);
    snprintf(buf, len,
             "Both cost: each 1,000 wake-ups per second make this benchmark %s, and each 1,000 "
             "idle threads %s besides.",
             a, b);
    return;
  case REPORT_COST_CANNOT_TELL:
    snprintf(
        buf, len,
        "The data cannot tell: neither the wake-ups' nor the thread count's effect can be "
        "told from 0 at 95 %% confidence; the intervals rule out more than %.*f %% per 1,000 "
        "wake-ups/s and %.*f %% per 1,000 threads. More blocks (--reps) narrow them.",
        decimals_for(m->ci_low[0], m->ci_high[0]), fmax(fabs(m->ci_low[0]), fabs(m->ci_high[0])),
        decimals_for(m->ci_low[1], m->ci_high[1]), fmax(fabs(m->ci_low[1]), fabs(m->ci_high[1])));
    return;
  case REPORT_COST_TOGETHER: {
    char every[32];
    ts_format_duration((uint64_t)((double)TS_NS_PER_S / c->wakeups_per_thread + 0.5), every,
                       sizeof every);
    estimate_text(t->coef[0], t->ci_low[0], t->ci_high[0], est, sizeof est);
    snprintf(buf, len,
             "The data cannot say which one costs: in this run the wake-ups rose with the number "
             "of threads (each thread woke every %s). Together, each 1,000 such threads: %s. The "
             "cost preset varies the two apart.",
             every, est);
    return;
  }
  case REPORT_COST_THREADS_ONLY:
    estimate_text(t->coef[0], t->ci_low[0], t->ci_high[0], est, sizeof est);
    snprintf(buf, len,
             "No condition's threads wake (they wait), so only their number is tested: each 1,000 "
             "waiting threads: %s, %s.",
             est,
             excludes_zero(t, 0) ? "a cost the data show" : "no cost these data can tell from 0");
    return;
  case REPORT_COST_NO_FIT:
    if (cb->points < 3)
      snprintf(buf, len,
               "The model cannot be fitted: %d condition%s an effect with a standard error (at "
               "least 2 trials in it and in the baseline), and it needs at least 3.",
               cb->points, cb->points == 1 ? " has" : "s have");
    else
      snprintf(buf, len, "The model %s.", cb->model.why[0] ? cb->model.why : "cannot fit");
    return;
  }
}

/* How well the model fits: R^2 and the residual check. "" when there is no model. */
static void fit_quality_text(const report_cost_bench *cb, char *buf, size_t len) {
  const fit_wls *f = cb->model.ok ? &cb->model : &cb->threads_fit;
  buf[0] = '\0';
  if (!f->ok || cb->answer == REPORT_COST_NO_FIT)
    return;
  int scatter = f->chi2_p < 0.05;
  snprintf(buf, len,
           "fit: weighted least squares through 0 (weights 1/se\xc2\xb2) on %d condition%s; "
           "R\xc2\xb2 %.3f; the conditions scatter around it %s (\xcf\x87\xc2\xb2 %.2f on %.0f df, "
           "p %.2g)%s",
           f->n, f->n == 1 ? "" : "s", f->r2,
           scatter ? "more than their errors allow" : "as much as their errors say", f->rss, f->df,
           f->chi2_p,
           scatter ? ": something besides wake-ups and thread count changes the effect, and the "
                     "intervals are widened by that scatter"
                   : "");
}

/* The knee sentence of a dose-like run. */
static void knee_text(const fit_hinge *h, char *buf, size_t len) {
  char est[160], knot[32], low[32], high[32];
  if (!h->ok) {
    snprintf(buf, len, "No knee: %s.", strncmp(h->why, "no knee: ", 9) ? h->why : h->why + 9);
    return;
  }
  if (!h->knee) {
    double t = stats_t_quantile(0.975, h->n - 1);
    estimate_text(h->line_slope, h->line_slope - t * h->line_se, h->line_slope + t * h->line_se,
                  est, sizeof est);
    snprintf(buf, len,
             "No knee: a straight line fits as well as a bend (F = %.3g, p = %.2g); each 1,000 "
             "threads: %s, all the way.",
             h->f, h->p, est);
    return;
  }
  double t = stats_t_quantile(0.975, h->n - 2);
  estimate_text(h->slope, h->slope - t * h->slope_se, h->slope + t * h->slope_se, est, sizeof est);
  count_text(h->knot * 1000, knot, sizeof knot);
  count_text(h->knot_low * 1000, low, sizeof low);
  count_text(h->knot_high * 1000, high, sizeof high);
  char range[160] = "no other knot fits nearly as well";
  if (h->knot_low < h->knot_high)
    snprintf(range, sizeof range,
             "between %s and %s: the knots the data cannot tell apart at "
             "95 %%",
             low, high);
  snprintf(buf, len,
           "Knee at about %s threads (%s): no cost measured below it; beyond it each 1,000 more "
           "threads: %s (a bend against a straight line: F = %.3g, p = %.2g).",
           knot, range, est, h->f, h->p);
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
  fprintf(out, "\nCost model: does the number of idle threads cost, or their wake-ups?\n");
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
    if (cb->model.ok) {
      coefficients_text(&cb->model, line, sizeof line);
      fprintf(out, "    %s\n", line);
    }
    answer_text(c, cb, line, sizeof line);
    fprintf(out, "    %s\n", line);
    fit_quality_text(cb, line, sizeof line);
    if (line[0])
      fprintf(out, "    %s\n", line);
    if (c->dose_like) {
      knee_text(&cb->knee, line, sizeof line);
      fprintf(out, "    %s\n", line);
    }
  }
}

/* ---- JSON ----------------------------------------------------------------------------------- */

static void json_estimate(FILE *out, const char *key, const fit_wls *f, int j) {
  fprintf(out, ",\"%s\":", key);
  if (!f->ok) {
    fputs("null", out);
    return;
  }
  fputs("{\"percent\":", out);
  ts_json_number(out, f->coef[j], REPORT_JSON_DIGITS);
  ts_json_number_member(out, "se", f->se[j], REPORT_JSON_DIGITS);
  fputs(",\"ci95\":", out);
  ts_json_range(out, 1, f->ci_low[j], f->ci_high[j], REPORT_JSON_DIGITS);
  fputc('}', out);
}

static const char *answer_name(report_cost_answer a) {
  static const char *const names[] = {[REPORT_COST_NO_FIT] = "no fit",
                                      [REPORT_COST_WAKEUPS] = "wake-ups",
                                      [REPORT_COST_THREADS] = "threads",
                                      [REPORT_COST_BOTH] = "both",
                                      [REPORT_COST_CANNOT_TELL] = "cannot tell",
                                      [REPORT_COST_TOGETHER] = "together",
                                      [REPORT_COST_THREADS_ONLY] = "threads only"};
  return names[a];
}

static void json_fit_quality(FILE *out, const fit_wls *f) {
  ts_json_number_member(out, "df", f->df, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "r2", f->r2, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "chi2", f->rss, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "chi2_p", f->chi2_p, REPORT_JSON_DIGITS);
}

static void json_cost_bench(const report_data *r, const report_cost *c, int b, FILE *out) {
  const report_cost_bench *cb = &c->bench[b];
  char text[1200];
  fputs("{\"bench\":", out);
  ts_json_string(out, r->benches[b]);
  fprintf(out, ",\"conditions_fitted\":%d,\"answer\":\"%s\",\"fitted\":%s,\"why\":", cb->points,
          answer_name(cb->answer), cb->model.ok ? "true" : "false");
  ts_json_string(out, cb->model.ok ? "" : cb->model.why);
  json_estimate(out, "per_1000_wakeups_per_s", &cb->model, 0);
  json_estimate(out, "per_1000_threads", &cb->model, 1);
  json_fit_quality(out, &cb->model);
  fputs(",\"threads_alone\":{\"fitted\":", out);
  fputs(cb->threads_fit.ok ? "true" : "false", out);
  json_estimate(out, "per_1000_threads", &cb->threads_fit, 0);
  json_fit_quality(out, &cb->threads_fit);
  fputs("},\"text\":", out);
  answer_text(c, cb, text, sizeof text);
  ts_json_string(out, text);
  fputc('}', out);
}

static void json_knee_bench(const report_data *r, const report_cost_bench *cb, int b, FILE *out) {
  const fit_hinge *h = &cb->knee;
  char text[800];
  fputs("{\"bench\":", out);
  ts_json_string(out, r->benches[b]);
  fprintf(out, ",\"knee\":%s,\"fitted\":%s,\"threads\":", h->knee ? "true" : "false",
          h->ok ? "true" : "false");
  ts_json_number(out, h->knee ? h->knot * 1000 : NAN, REPORT_JSON_DIGITS);
  fputs(",\"threads_range\":", out);
  ts_json_range(out, h->knee, h->knot_low * 1000, h->knot_high * 1000, REPORT_JSON_DIGITS);
  const double values[] = {h->slope, h->slope_se, h->line_slope, h->line_se, h->f, h->p};
  const char *keys[] = {
      "per_1000_threads_beyond", "se", "line_per_1000_threads", "line_se", "f", "p"};
  for (int i = 0; i < 6; i++) {
    ts_json_number_member(out, keys[i], h->ok ? values[i] : NAN, REPORT_JSON_DIGITS);
  }
  fputs(",\"text\":", out);
  knee_text(h, text, sizeof text);
  ts_json_string(out, text);
  fputc('}', out);
}

static void write_json(const report_data *r, const void *prepared, FILE *out) {
  const report_cost *c = prepared;
  if (!c->applies) {
    fputs(",\n\"cost_model\":null,\"knee\":null", out);
    return;
  }
  fputs(",\n\"cost_model\":{\"conditions\":[", out);
  for (int i = 0; i < c->used_count; i++) {
    const report_cost_condition *u = &c->used[i];
    fputs(i ? ",{\"condition\":" : "{\"condition\":", out);
    ts_json_string(out, r->conditions[u->condition]);
    ts_json_number_member(out, "threads", u->threads, REPORT_JSON_DIGITS);
    ts_json_number_member(out, "wakeups_per_s", u->wakeups_per_s, REPORT_JSON_DIGITS);
    ts_json_number_member(out, "switches_per_s", u->switches_per_s, REPORT_JSON_DIGITS);
    fputc('}', out);
  }
  fputs("],\"left_out\":[", out);
  for (int i = 0; i < c->left_count; i++) {
    fputs(i ? ",{\"condition\":" : "{\"condition\":", out);
    ts_json_string(out, r->conditions[c->left[i]]);
    ts_json_string_member(out, "why", c->left_why[i]);
    fputc('}', out);
  }
  fputs("],\"benchmarks\":[", out);
  for (int b = 0; b < r->bench_count; b++) {
    fputs(b ? ",\n " : "\n ", out);
    json_cost_bench(r, c, b, out);
  }
  fputs("]},\n\"knee\":", out);
  if (!c->dose_like) {
    fputs("null", out);
  } else {
    fputs("{\"benchmarks\":[", out);
    for (int b = 0; b < r->bench_count; b++) {
      fputs(b ? ",\n " : "\n ", out);
      json_knee_bench(r, &c->bench[b], b, out);
    }
    fputs("]}", out);
  }
}

/* ---- HTML ----------------------------------------------------------------------------------- */

/* The chart's line: the fitted effect per unit of its x (a wake-up per second, or a thread when
   none wakes), its standard error and degrees of freedom; 0 when there is none. */
static int chart_line(const report_cost *c, const report_cost_bench *cb, int by_wakeups,
                      double *slope, double *se, double *df) {
  if (cb->model.ok) {
    *slope = cb->model.coef[by_wakeups ? 0 : 1] / 1000;
    *se = cb->model.se[by_wakeups ? 0 : 1] / 1000;
    *df = cb->model.df;
    return 1;
  }
  if (!cb->threads_fit.ok || cb->answer == REPORT_COST_NO_FIT)
    return 0;
  /* One fit on threads: per wake-up, when every thread wakes at the same rate. */
  double per = by_wakeups ? c->wakeups_per_thread : 1;
  if (!(per > 0))
    return 0;
  *slope = cb->threads_fit.coef[0] / 1000 / per;
  *se = cb->threads_fit.se[0] / 1000 / per;
  *df = cb->threads_fit.df;
  return 1;
}

/* x: wake-ups per second (threads when no condition wakes); y: the effect in %, each point with
   its 95 % CI, the fitted line with its 95 % band. */
static void write_cost_chart(const report_data *r, const report_cost *c, int b, FILE *out) {
  const report_cost_bench *cb = &c->bench[b];
  int by_wakeups = 0;
  for (int k = 0; k < cb->points; k++)
    by_wakeups |= c->used[cb->used[k]].wakeups_per_s > 0;
  double xmax = 0, lo = 0, hi = 0;
  for (int k = 0; k < cb->points; k++) {
    const report_cost_condition *u = &c->used[cb->used[k]];
    const blocked_result *cmp = &r->cells[b][u->condition].cmp;
    xmax = fmax(xmax, by_wakeups ? u->wakeups_per_s : u->threads);
    double values[3] = {cmp->percent, cmp->ci_low, cmp->ci_high};
    for (int i = 0; i < 3; i++)
      if (isfinite(values[i])) {
        lo = fmin(lo, values[i]);
        hi = fmax(hi, values[i]);
      }
  }
  if (cb->points == 0 || !(xmax > 0) || !isfinite(xmax))
    return;
  double xstep = report_html_step(xmax, 5);
  xmax = ceil(xmax / xstep) * xstep;
  double slope = 0, se = 0, df = 1, t = 0;
  int line = chart_line(c, cb, by_wakeups, &slope, &se, &df);
  if (line) {
    t = stats_t_quantile(0.975, df);
    lo = fmin(lo, fmin(slope * xmax - t * se * xmax, slope * xmax + t * se * xmax));
    hi = fmax(hi, fmax(slope * xmax - t * se * xmax, slope * xmax + t * se * xmax));
  }
  /* A dose series' knee: flat to the knot, then the hinge's slope (in the chart's x). */
  const fit_hinge *h = &cb->knee;
  double per = by_wakeups ? c->wakeups_per_thread : 1, knot_x = 0, knee_end = 0;
  int knee = c->dose_like && h->knee && per > 0;
  if (knee) {
    knot_x = h->knot * 1000 * per;
    knee_end = h->slope / 1000 / per * (xmax - knot_x);
    lo = fmin(lo, knee_end);
    hi = fmax(hi, knee_end);
  }
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
  fputs(cb->model.ok && by_wakeups ? " (threads at 0; a point's distance from it holds its "
                                     "threads' share), with its 95&nbsp;% band"
                                   : ", with its 95&nbsp;% band",
        out);
  fputs(c->dose_like && h->knee ? "; dashed: the knee's hinge" : "", out);
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
            X_OF(0), Y_OF(0), X_OF(xmax), Y_OF(slope * xmax + t * se * xmax), X_OF(xmax),
            Y_OF(slope * xmax - t * se * xmax));
    fprintf(out,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#0072b2\" "
            "stroke-width=\"2\"/>\n",
            X_OF(0), Y_OF(0), X_OF(xmax), Y_OF(slope * xmax));
  }
  if (knee)
    fprintf(out,
            "<polyline points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"none\" stroke=\"#009e73\" "
            "stroke-width=\"2\" stroke-dasharray=\"6 4\"><title>the knee's hinge</title>"
            "</polyline>\n",
            X_OF(0), Y_OF(0), X_OF(knot_x), Y_OF(0), X_OF(xmax), Y_OF(knee_end));
  for (int k = 0; k < cb->points; k++) {
    const report_cost_condition *u = &c->used[cb->used[k]];
    const blocked_result *cmp = &r->cells[b][u->condition].cmp;
    double x = X_OF(by_wakeups ? u->wakeups_per_s : u->threads);
    fputs("<g><title>", out);
    report_html_text(out, r->conditions[u->condition]);
    fprintf(out, ": %+.2f %%</title>\n", cmp->percent);
    if (isfinite(cmp->ci_low) && isfinite(cmp->ci_high))
      fprintf(out,
              "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d55e00\" "
              "stroke-width=\"2\"/>\n",
              x, Y_OF(cmp->ci_low), x, Y_OF(cmp->ci_high));
    fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#d55e00\"/>\n</g>\n", x,
            Y_OF(cmp->percent));
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
        "threads cost, or their wake-ups? The effect of each sleep and wait condition, weighted "
        "by its precision, against its planned wake-ups per second and its threads.</p>\n"
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
    if (cb->model.ok) {
      coefficients_text(&cb->model, line, sizeof line);
      html_text(out, "<p><b>", line, "</b></p>\n");
    }
    answer_text(c, cb, line, sizeof line);
    html_text(out, "<p>", line, "</p>\n");
    fit_quality_text(cb, line, sizeof line);
    if (line[0]) {
      html_text(out, "<p class=\"note\">", line, ".</p>\n");
    }
    if (c->dose_like) {
      knee_text(&cb->knee, line, sizeof line);
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
    "cost", prepare, NULL, {write_text, NULL, write_json, write_html}};
