/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* census.c - the census part of every report: per condition, what its load was as each trial's
   census counted it (threads by OS state, child processes, the machine, context
   switches, the load's CPU, the census's own cost), computed once from the database and written
   in each format. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "census.h"
#include "format.h"
#include "section.h"
#include "threadsoup/json_write.h"
#include "threadsoup/civil.h"
#include "threadsoup/utf8.h"

/* The per-trial numbers the census summarises, besides the states. */
enum {
  V_PROCESS_THREADS,
  V_CHILDREN,
  V_MACHINE_PROCESSES,
  V_MACHINE_THREADS,
  V_SWITCHES,
  V_CPU,
  V_CENSUS_MS,
  V_CENSUS_PERCENT,
  V_COUNT
};

/* The metrics behind the values (NULL: from the trial's row). */
static const char *const value_metrics[V_COUNT] = {NULL,
                                                   "load.child_processes",
                                                   NULL,
                                                   NULL,
                                                   "load.switches_per_s",
                                                   "load.cpu_percent",
                                                   "census.cpu_ms",
                                                   NULL};

typedef struct census_trial {
  int64_t id;
  int condition;
  int has_states; /* its census stored its state.* metrics */
  double seconds; /* start to finish; NaN when the times do not read */
  double values[V_COUNT];
  double states[REPORT_CENSUS_MAX_STATES]; /* by index into census_ctx.names; NaN: absent */
} census_trial;

typedef struct census_ctx {
  const report_data *r;
  report_censuses *out;
  census_trial *trials;
  size_t count, cap, cursor;
  char names[REPORT_CENSUS_MAX_STATES][REPORT_METRIC_NAME_MAX];
  int name_count;
  int out_of_memory;
} census_ctx;

/* Seconds since 1970 of "YYYY-MM-DDTHH:MM:SS.sssZ" (plat_utc_timestamp's form); NaN otherwise. */
static double timestamp_seconds(const char *text) {
  int y, mo, d, h, mi;
  double s;
  if (sscanf(text, "%4d-%2d-%2dT%2d:%2d:%lf", &y, &mo, &d, &h, &mi, &s) != 6)
    return NAN;
  return (double)civil_to_days(y, mo, d) * 86400.0 + h * 3600.0 + mi * 60.0 + s;
}

static double count_or_nan(long n) { return n >= 0 ? (double)n : NAN; }

static int collect_trial(void *ctx, const store_trial_row *row) {
  census_ctx *cx = ctx;
  if (row->status != STORE_TRIAL_DONE || row->block == 0)
    return 0;
  int c = report_condition_index(cx->r, row->condition);
  if (c < 0)
    return 0;
  if (cx->count == cx->cap) {
    size_t cap = cx->cap ? cx->cap * 2 : 64;
    census_trial *more = realloc(cx->trials, cap * sizeof *more);
    if (!more) {
      cx->out_of_memory = 1;
      return 1;
    }
    cx->trials = more;
    cx->cap = cap;
  }
  census_trial *t = &cx->trials[cx->count++];
  t->id = row->id;
  t->condition = c;
  t->has_states = 0;
  t->seconds = timestamp_seconds(row->finished_at) - timestamp_seconds(row->started_at);
  for (int v = 0; v < V_COUNT; v++)
    t->values[v] = NAN;
  for (int k = 0; k < REPORT_CENSUS_MAX_STATES; k++)
    t->states[k] = NAN;
  t->values[V_PROCESS_THREADS] = count_or_nan(row->process_threads);
  t->values[V_MACHINE_PROCESSES] = count_or_nan(row->machine_processes);
  t->values[V_MACHINE_THREADS] = count_or_nan(row->machine_threads);
  return 0;
}

/* The collected trial of an id; both lists are in sequence order, so mostly the next one. */
static census_trial *trial_of(census_ctx *cx, int64_t id) {
  for (size_t pass = 0; pass < 2; pass++) {
    for (size_t i = pass ? 0 : cx->cursor; i < cx->count; i++)
      if (cx->trials[i].id == id) {
        cx->cursor = i;
        return &cx->trials[i];
      }
  }
  return NULL;
}

static int state_index(census_ctx *cx, const char *name) {
  for (int k = 0; k < cx->name_count; k++)
    if (strcmp(cx->names[k], name) == 0)
      return k;
  if (cx->name_count == REPORT_CENSUS_MAX_STATES)
    return -1; /* more states than any OS here has */
  snprintf(cx->names[cx->name_count], REPORT_METRIC_NAME_MAX, "%s", name);
  return cx->name_count++;
}

static int collect_metric(void *ctx, int64_t trial_id, const char *name, double value) {
  census_ctx *cx = ctx;
  census_trial *t = trial_of(cx, trial_id);
  if (!t || !name)
    return 0;
  if (strncmp(name, "state.", 6) == 0) {
    int k = state_index(cx, name + 6);
    t->has_states = 1;
    if (k >= 0)
      t->states[k] = value;
    return 0;
  }
  for (int v = 0; v < V_COUNT; v++)
    if (value_metrics[v] && strcmp(value_metrics[v], name) == 0)
      t->values[v] = value;
  return 0;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of the condition's finite values: a trial's value (state >= 0: that state's
   threads, 0 where its census lacked the state); NaN when there is none. */
static double condition_median(const census_ctx *cx, double *scratch, int c, int value, int state) {
  size_t n = 0;
  for (size_t i = 0; i < cx->count; i++) {
    const census_trial *t = &cx->trials[i];
    if (t->condition != c)
      continue;
    double v;
    if (state >= 0)
      v = !t->has_states ? NAN : isnan(t->states[state]) ? 0 : t->states[state];
    else
      v = t->values[value];
    if (isfinite(v))
      scratch[n++] = v;
  }
  if (n == 0)
    return NAN;
  qsort(scratch, n, sizeof *scratch, compare_doubles);
  return n % 2 ? scratch[n / 2] : (scratch[n / 2 - 1] + scratch[n / 2]) / 2;
}

/* The condition's sleepers (its sleep parts' threads) and their wake-ups per second, from the
   engine's own parser of the condition's text; 0 sleepers when it has none or does not parse. */
static void condition_sleepers(const char *text, long *sleepers, double *wakeups_per_s) {
  load_spec spec;
  ts_err err;
  *sleepers = 0;
  *wakeups_per_s = 0;
  if (load_spec_parse(text, &spec, &err) != TS_OK)
    return;
  for (int i = 0; i < spec.part_count; i++) {
    const load_part *part = &spec.parts[i];
    double wakeups = load_part_wakeups_per_s(part);
    if (wakeups <= 0 || part->scenario->creates_processes)
      continue;
    *sleepers += part->count;
    *wakeups_per_s += wakeups;
  }
}

static int compare_states(const void *a, const void *b) {
  const report_census_state *x = a, *y = b;
  double lx = isnan(x->load) ? -INFINITY : x->load, ly = isnan(y->load) ? -INFINITY : y->load;
  if (lx != ly)
    return lx < ly ? 1 : -1;
  if (x->process != y->process)
    return x->process < y->process ? 1 : -1;
  return strcmp(x->name, y->name);
}

static void summarise(census_ctx *cx, double *scratch) {
  const report_data *r = cx->r;
  report_censuses *out = cx->out;
  for (int c = 0; c < r->condition_count; c++) {
    report_census *k = &out->census[c];
    memset(k, 0, sizeof *k);
    for (size_t i = 0; i < cx->count; i++)
      if (cx->trials[i].condition == c) {
        k->trials++;
        k->recorded += cx->trials[i].has_states;
      }
    double *values[V_COUNT] = {&k->process_threads, &k->child_processes, &k->machine_processes,
                               &k->machine_threads, &k->switches_per_s,  &k->cpu_percent,
                               &k->census_ms,       &k->census_percent};
    for (int v = 0; v < V_COUNT; v++)
      *values[v] = condition_median(cx, scratch, c, v, -1);
    if (k->recorded > 0)
      out->have_census = 1;
    double rate;
    condition_sleepers(r->conditions[c], &k->sleepers, &rate);
    k->sleeper_interval_s = k->sleepers > 0 ? (double)k->sleepers / rate : NAN;
    k->per_sleeper_interval = k->sleepers > 0 ? k->switches_per_s / rate : NAN;
  }
  /* A process with threads always switches within a census window: when every recorded
     condition counts none, the system does not report them (Wine), and "0" or "about 1 per
     interval" would be read as a measurement. */
  int recorded = 0, zero = 0;
  for (int c = 0; c < r->condition_count; c++)
    if (out->census[c].recorded) {
      recorded++;
      zero += out->census[c].switches_per_s == 0;
    }
  out->switches_unreported = recorded > 0 && zero == recorded;
  for (int c = 0; c < r->condition_count && out->switches_unreported; c++)
    out->census[c].switches_per_s = out->census[c].per_sleeper_interval = NAN;
  const report_census *base = &out->census[r->baseline];
  for (int c = 0; c < r->condition_count; c++) {
    report_census *k = &out->census[c];
    k->load_threads = k->process_threads - base->process_threads;
    if (!k->recorded)
      continue;
    for (int s = 0; s < cx->name_count; s++) {
      double process = condition_median(cx, scratch, c, 0, s);
      double reference = base->recorded ? condition_median(cx, scratch, r->baseline, 0, s) : NAN;
      if (process == 0 && (reference == 0 || isnan(reference)))
        continue; /* a state none of the process's threads were in */
      report_census_state *st = &k->states[k->state_count++];
      snprintf(st->name, sizeof st->name, "%s", cx->names[s]);
      st->process = process;
      st->load = process - reference;
    }
    qsort(k->states, (size_t)k->state_count, sizeof k->states[0], compare_states);
  }
}

int report_census_compute(store *s, const report_data *r, report_censuses *out, ts_err *err) {
  census_ctx cx;
  memset(&cx, 0, sizeof cx);
  memset(out, 0, sizeof *out);
  cx.r = r;
  cx.out = out;
  int rc = report_each_trial(s, r, collect_trial, collect_metric, &cx, err);
  double *scratch = malloc((cx.count ? cx.count : 1) * sizeof *scratch);
  if (rc == TS_OK && (cx.out_of_memory || !scratch))
    rc = ts_err_set(err, TS_ENOMEM, "no memory for the census");
  if (rc == TS_OK) {
    for (size_t i = 0; i < cx.count; i++) {
      census_trial *t = &cx.trials[i];
      t->values[V_CENSUS_PERCENT] = t->seconds > 0 ? t->values[V_CENSUS_MS] / (t->seconds * 10)
                                                   : NAN; /* ms / (s * 1000) * 100 */
    }
    summarise(&cx, scratch);
  }
  free(scratch);
  free(cx.trials);
  return rc;
}

/* ---- text -------------------------------------------------------------------------------- */

/* A number with `decimals` places, or "-" when it was not measured. */
static const char *number_text(double value, int decimals, char *buf, size_t len) {
  if (isfinite(value))
    snprintf(buf, len, "%.*f", decimals, value);
  else
    snprintf(buf, len, "-");
  return buf;
}

/* A recorded condition's threads by state, "S (sleeping) 197, R (running) 3": the load's, and the
   baseline's own; 0 (and "") when the condition's census was not recorded. With omit_zero, a
   state with no threads of its own (as many as the baseline's: "R (running) 0" on every line)
   is left out. */
static int states_text(const report_data *r, const report_censuses *cs, int c, int omit_zero,
                       char *buf, size_t len) {
  const report_census *k = &cs->census[c];
  size_t used = 0;
  buf[0] = '\0';
  if (!k->recorded)
    return 0;
  for (int s = 0; s < k->state_count && used < len; s++) {
    double v = c == r->baseline ? k->states[s].process : k->states[s].load;
    if (omit_zero && v == 0)
      continue;
    char count[32];
    int n = snprintf(buf + used, len - used, "%s%s %s", used ? ", " : "", k->states[s].name,
                     number_text(v, 0, count, sizeof count)); /* "-": the baseline's not known */
    used += n > 0 ? (size_t)n : 0;
  }
  if (k->state_count == 0)
    snprintf(buf, len, "none counted");
  else if (used == 0)
    snprintf(buf, len, "as many in each state as the baseline");
  return 1;
}

#define NOT_RECORDED "not recorded (stored before reports had a census, or typed in)"

static void write_text(const report_data *r, const void *prepared, FILE *out) {
  const report_censuses *cs = prepared;
  char cond[512];
  fprintf(out, "\nCensus (taken between benchmarks; medians of the done trials, warm-ups left "
               "out; load = the process's threads minus the baseline's)\n");
  if (!cs->have_census) {
    fprintf(out, "  %s\n", NOT_RECORDED);
    return;
  }
  fprintf(out, "  %-30s %8s %8s %8s %9s %10s %11s %14s %8s %14s\n", "condition", "threads", "load",
          "children", "processes", "machine th", "switches/s", "per sleeper/iv", "load CPU",
          "census cost");
  for (int c = 0; c < r->condition_count; c++) {
    const report_census *k = &cs->census[c];
    fprintf(out, "  %-30s", ts_utf8_printable(r->conditions[c], cond, sizeof cond));
    if (!k->recorded) {
      fprintf(out, " %s\n", k->trials ? "not recorded" : "no data");
      continue;
    }
    char a[32], b[32], d[32], e[32], f[32], g[32], h[32], i[32], cost[48];
    if (isfinite(k->census_ms))
      snprintf(cost, sizeof cost, "%.1f ms (%.2f%%)", k->census_ms, k->census_percent);
    else
      snprintf(cost, sizeof cost, "-");
    char cpu[40];
    snprintf(cpu, sizeof cpu, "%s%s", number_text(k->cpu_percent, 1, i, sizeof i),
             isfinite(k->cpu_percent) ? "%" : "");
    fprintf(out, " %8s %8s %8s %9s %10s %11s %14s %8s %14s\n",
            number_text(k->process_threads, 0, a, sizeof a),
            c == r->baseline ? "ref" : number_text(k->load_threads, 0, b, sizeof b),
            number_text(k->child_processes, 0, d, sizeof d),
            number_text(k->machine_processes, 0, e, sizeof e),
            number_text(k->machine_threads, 0, f, sizeof f),
            number_text(k->switches_per_s, 0, g, sizeof g),
            number_text(k->per_sleeper_interval, 2, h, sizeof h), cpu, cost);
  }
  if (cs->switches_unreported)
    fprintf(out, "  switches/s, per sleeper/iv: not reported by this system (it gives no "
                 "context-switch counts)\n");
  else
    fprintf(out,
            "  per sleeper/iv: switches/s x interval / sleepers (about 1: each sleeper woke once "
            "per interval)\n");
  fprintf(out, "  threads by state (the load's; the baseline: the process's own):\n");
  for (int c = 0; c < r->condition_count; c++) {
    char states[REPORT_CENSUS_MAX_STATES * (REPORT_METRIC_NAME_MAX + 16)], shown[sizeof states * 4];
    if (!states_text(r, cs, c, 0, states, sizeof states))
      continue;
    fprintf(out, "    %s: %s\n", ts_utf8_printable(r->conditions[c], cond, sizeof cond),
            ts_utf8_printable(states, shown, sizeof shown));
  }
}

/* The states that occur in any condition, in order of first appearance (each condition's most
   loaded first, the baseline's last), each with its colour. */
static int census_state_names(const report_data *r, const report_censuses *cs,
                              char (*names)[REPORT_METRIC_NAME_MAX]) {
  int count = 0;
  for (int i = 0; i < r->condition_count; i++) {
    int c = i < r->condition_count - 1 ? (i < r->baseline ? i : i + 1) : r->baseline;
    for (int s = 0; s < cs->census[c].state_count; s++) {
      int k = 0;
      while (k < count && strcmp(names[k], cs->census[c].states[s].name) != 0)
        k++;
      if (k == count && count < REPORT_CENSUS_MAX_STATES)
        memcpy(names[count++], cs->census[c].states[s].name, REPORT_METRIC_NAME_MAX);
    }
  }
  return count;
}

/* ---- csv --------------------------------------------------------------------------------- */

static void write_csv(const report_data *r, const void *prepared, FILE *out) {
  const report_censuses *cs = prepared;
  static const char *const columns[] = {
      "census_condition", "trials",          "recorded",           "process_threads",
      "load_threads",     "child_processes", "machine_processes",  "machine_threads",
      "switches_per_s",   "sleepers",        "sleeper_interval_s", "per_sleeper_interval",
      "load_cpu_percent", "census_cpu_ms",   "census_percent"};
  /* The states that occur in any condition, each a column of the load's threads. */
  char names[REPORT_CENSUS_MAX_STATES][REPORT_METRIC_NAME_MAX];
  int name_count = census_state_names(r, cs, names);
  fputc('\n', out);
  for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
    fprintf(out, "%s%s", i ? "," : "", columns[i]);
  for (int k = 0; k < name_count; k++) {
    char column[REPORT_METRIC_NAME_MAX + 16];
    snprintf(column, sizeof column, "load_state.%s", names[k]);
    fputc(',', out);
    report_csv_field(out, column);
  }
  fputc('\n', out);
  for (int c = 0; c < r->condition_count; c++) {
    const report_census *k = &cs->census[c];
    report_csv_field(out, r->conditions[c]);
    fprintf(out, ",%d,%d", k->trials, k->recorded);
    double values[] = {k->process_threads,
                       k->load_threads,
                       k->child_processes,
                       k->machine_processes,
                       k->machine_threads,
                       k->switches_per_s,
                       k->sleepers > 0 ? (double)k->sleepers : NAN,
                       k->sleeper_interval_s,
                       k->per_sleeper_interval,
                       k->cpu_percent,
                       k->census_ms,
                       k->census_percent};
    for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
      fputc(',', out);
      report_csv_number(out, values[v]);
    }
    for (int n = 0; n < name_count; n++) {
      /* A recorded condition without the state had none of the load's threads in it. */
      double threads = k->recorded ? 0 : NAN;
      for (int s = 0; s < k->state_count; s++)
        if (strcmp(k->states[s].name, names[n]) == 0)
          threads = k->states[s].load;
      fputc(',', out);
      report_csv_number(out, threads);
    }
    fputc('\n', out);
  }
}

/* ---- json -------------------------------------------------------------------------------- */

static void json_states(FILE *out, const report_census *k, int of_load) {
  fputc('{', out);
  for (int s = 0; s < k->state_count; s++) {
    if (s)
      fputc(',', out);
    ts_json_string(out, k->states[s].name);
    fputc(':', out);
    ts_json_number(out, of_load ? k->states[s].load : k->states[s].process, REPORT_JSON_DIGITS);
  }
  fputc('}', out);
}

/* Condition c's census. */
static void json_census(const report_data *r, const void *prepared, int c, FILE *out) {
  const report_census *k = &((const report_censuses *)prepared)->census[c];
  fputs("{\"condition\":", out);
  ts_json_string(out, r->conditions[c]);
  fprintf(out, ",\"baseline\":%s,\"trials\":%d,\"recorded\":%d",
          c == r->baseline ? "true" : "false", k->trials, k->recorded);
  ts_json_number_member(out, "process_threads", k->process_threads, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "load_threads", k->load_threads, REPORT_JSON_DIGITS);
  fputs(",\"threads_by_state\":", out);
  if (k->recorded)
    json_states(out, k, 1);
  else
    fputs("null", out);
  fputs(",\"process_threads_by_state\":", out);
  if (k->recorded)
    json_states(out, k, 0);
  else
    fputs("null", out);
  ts_json_number_member(out, "child_processes", k->child_processes, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "machine_processes", k->machine_processes, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "machine_threads", k->machine_threads, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "switches_per_s", k->switches_per_s, REPORT_JSON_DIGITS);
  fprintf(out, ",\"sleepers\":%ld", k->sleepers);
  ts_json_number_member(out, "sleeper_interval_s", k->sleeper_interval_s, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "per_sleeper_interval", k->per_sleeper_interval, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "load_cpu_percent", k->cpu_percent, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "census_cpu_ms", k->census_ms, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "census_percent", k->census_percent, REPORT_JSON_DIGITS);
  fputc('}', out);
}

static void write_json(const report_data *r, const void *prepared, FILE *out) {
  fputs(",\n\"census\":", out);
  report_json_array(out, REPORT_JSON_LINES, r->condition_count, json_census, r, prepared);
}

/* ---- html -------------------------------------------------------------------------------- */

/* Paul Tol's "bright" colours, told apart by colour-blind readers; states beyond repeat. */
static const char *const state_colors[] = {"#4477aa", "#ee6677", "#228833", "#ccbb44",
                                           "#66ccee", "#aa3377", "#bbbbbb"};

static void html_number(FILE *out, double value, int decimals, const char *suffix) {
  if (isfinite(value))
    fprintf(out, "<td>%.*f%s</td>", decimals, value, suffix);
  else
    fputs("<td>-</td>", out);
}

static const char *state_color(char (*names)[REPORT_METRIC_NAME_MAX], int count, const char *name) {
  int k = 0;
  while (k < count && strcmp(names[k], name) != 0)
    k++;
  return state_colors[k % (int)(sizeof state_colors / sizeof state_colors[0])];
}

static void html_table(const report_data *r, const report_censuses *cs, FILE *out) {
  fputs("<div class=\"wrap\"><table>\n<thead><tr><th class=\"cond\">condition</th>"
        "<th>threads</th><th>load's<br>threads</th><th>child<br>processes</th>"
        "<th>machine<br>processes</th><th>machine<br>threads</th><th>switches/s</th>"
        "<th>per sleeper<br>per interval</th><th>load<br>CPU</th><th>census<br>cost</th></tr>"
        "</thead>\n<tbody>\n",
        out);
  for (int c = 0; c < r->condition_count; c++) {
    const report_census *k = &cs->census[c];
    fputs("<tr><td class=\"cond\">", out);
    report_html_name(out, r->conditions[c]);
    fputs("</td>", out);
    if (!k->recorded) {
      fprintf(out, "<td colspan=\"9\" class=\"note\">%s</td></tr>\n",
              k->trials ? "not recorded" : "no data");
      continue;
    }
    html_number(out, k->process_threads, 0, "");
    if (c == r->baseline)
      fputs("<td class=\"ref\">reference</td>", out);
    else
      html_number(out, k->load_threads, 0, "");
    html_number(out, k->child_processes, 0, "");
    html_number(out, k->machine_processes, 0, "");
    html_number(out, k->machine_threads, 0, "");
    html_number(out, k->switches_per_s, 0, "");
    html_number(out, k->per_sleeper_interval, 2, "");
    html_number(out, k->cpu_percent, 1, "&nbsp;%");
    if (isfinite(k->census_ms))
      fprintf(out, "<td>%.1f&nbsp;ms (%.2f&nbsp;%%)</td>", k->census_ms, k->census_percent);
    else
      fputs("<td>-</td>", out);
    fputs("</tr>\n", out);
  }
  if (cs->switches_unreported)
    fputs("</tbody></table></div>\n<p class=\"note\">Switches/s and per sleeper per interval: "
          "not reported by this system (it gives no context-switch counts).</p>\n",
          out);
  else
    fputs("</tbody></table></div>\n<p class=\"note\">Per sleeper per interval: switches/s &times; "
          "interval &divide; sleepers; about 1 when each sleeper woke once per interval.</p>\n",
          out);
}

/* One bar per condition: its load's threads, stacked by state (a state with fewer threads than
   the baseline's adds nothing to the bar; the table and the segment's title say by how much). */
static void html_bars(const report_data *r, const report_censuses *cs, FILE *out) {
  char names[REPORT_CENSUS_MAX_STATES][REPORT_METRIC_NAME_MAX];
  int count = census_state_names(r, cs, names);
  double most = 0;
  int rows = 0;
  for (int c = 0; c < r->condition_count; c++) {
    const report_census *k = &cs->census[c];
    if (!k->recorded || c == r->baseline)
      continue;
    rows++;
    double sum = 0;
    for (int s = 0; s < k->state_count; s++)
      sum += k->states[s].load > 0 ? k->states[s].load : 0;
    most = fmax(most, sum);
  }
  if (rows == 0 || count == 0)
    return;
  if (most <= 0)
    most = 1;
  /* The longest bar ends 70 px short of the chart's edge: room for its total, up to 7 digits. */
  const double left = 200, right = 690, top = 10, row_h = 28, width = 760;
  double height = top + rows * row_h + 10;
  fputs("<figure>\n<figcaption>The load's threads by OS state (each condition's threads minus "
        "the baseline's; medians)</figcaption>\n",
        out);
  fprintf(out,
          "<svg viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"the load's threads by OS "
          "state per condition\" xmlns=\"http://www.w3.org/2000/svg\">\n",
          width, height);
  int row = 0;
  for (int c = 0; c < r->condition_count; c++) {
    const report_census *k = &cs->census[c];
    if (!k->recorded || c == r->baseline)
      continue;
    double y = top + row * row_h;
    row++;
    char states[REPORT_CENSUS_MAX_STATES * (REPORT_METRIC_NAME_MAX + 16)];
    states_text(r, cs, c, 1, states, sizeof states);
    fputs("<g><title>", out);
    report_html_text(out, r->conditions[c]);
    fputs(": ", out);
    report_html_text(out, states);
    fputs("</title>\n", out);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"middle\">",
            left - 8, y + row_h / 2);
    char label[40];
    size_t cut = strlen(r->conditions[c]) < 28 ? strlen(r->conditions[c]) : 25;
    while (cut > 0 && ((unsigned char)r->conditions[c][cut] & 0xC0) == 0x80)
      cut--; /* on a character boundary, so the UTF-8 stays valid */
    memcpy(label, r->conditions[c], cut);
    label[cut] = '\0';
    report_html_text(out, label);
    fputs(cut < strlen(r->conditions[c]) ? "&#8230;</text>\n" : "</text>\n", out);
    double x = left, total = 0;
    for (int s = 0; s < k->state_count; s++) {
      double v = k->states[s].load;
      if (!(v > 0))
        continue;
      double w = v / most * (right - left);
      fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>",
              x, y + 4, w, row_h - 8, state_color(names, count, k->states[s].name));
      report_html_text(out, k->states[s].name);
      fprintf(out, ": %.0f</title></rect>\n", v);
      x += w;
      total += v;
    }
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\">%.0f</text>\n",
            fmin(x + 4, right + 4), y + row_h / 2, total);
    fputs("</g>\n", out);
  }
  fputs("</svg>\n<ul class=\"legend\">", out);
  for (int s = 0; s < count; s++) {
    fprintf(out, "<li><span class=\"swatch\" style=\"background:%s\"></span>",
            state_colors[s % (int)(sizeof state_colors / sizeof state_colors[0])]);
    report_html_name(out, names[s]);
    fputs("</li>", out);
  }
  fputs("</ul>\n</figure>\n", out);
}

static void write_html(const report_data *r, const void *prepared, FILE *out) {
  const report_censuses *cs = prepared;
  fputs("<section class=\"census\">\n<h2>Census</h2>\n<p class=\"note\">Taken between "
        "benchmarks; medians of the done trials, warm-ups left out. The load's threads are the "
        "process's threads minus the baseline's.</p>\n",
        out);
  if (!cs->have_census)
    fputs("<p class=\"note\">" NOT_RECORDED ".</p>\n", out);
  else {
    html_table(r, cs, out);
    fputs("<p class=\"note\">Threads by state (the load's; the baseline: the process's own):</p>\n"
          "<ul class=\"verdicts\">\n",
          out);
    for (int c = 0; c < r->condition_count; c++) {
      char states[REPORT_CENSUS_MAX_STATES * (REPORT_METRIC_NAME_MAX + 16)];
      if (!states_text(r, cs, c, 1, states, sizeof states))
        continue;
      fputs("<li><b>", out);
      report_html_name(out, r->conditions[c]);
      fputs("</b>: ", out);
      report_html_text(out, states);
      fputs("</li>\n", out);
    }
    fputs("</ul>\n", out);
    html_bars(r, cs, out);
  }
  fputs("</section>\n", out);
}

static int prepare(store *s, const report_data *r, void **prepared, ts_err *err) {
  report_censuses *cs = malloc(sizeof *cs);
  if (!cs)
    return ts_err_set(err, TS_ENOMEM, "no memory for the census");
  *prepared = cs;
  return report_census_compute(s, r, cs, err);
}

const report_section report_section_census = {
    "census", prepare, NULL, {write_text, write_csv, write_json, write_html}};
