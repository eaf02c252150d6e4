/* plan.c - builds experiment plans from presets and command-line lists, refusing bad input before
   anything runs. */
#include "plan.h"

#include <stdio.h>
#include <string.h>

#include "../bench/bench.h"
#include "threadsoup/parse.h"

typedef struct plan_preset_def {
  const char *name;
  const char *help;
  const char *conditions;
  const char *benches;
  long reps;
  uint64_t settle_ns;
} plan_preset_def;

static const plan_preset_def plan_presets[] = {
    {"quick",
     "baseline and 1,500 / 5,000 / 15,000 threads sleeping 0.5 s, built-in single-thread "
     "benchmark, 5 interleaved repetitions (about 2 minutes)",
     "baseline,sleep:1500@500ms,sleep:5000@500ms,sleep:15000@500ms", "builtin-st", 5,
     1000000000ull},
};

const char *plan_default_preset(void) { return plan_presets[0].name; }

void plan_preset_help(char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < sizeof plan_presets / sizeof plan_presets[0] && used < len; i++)
    used += (size_t)snprintf(buf + used, len - used, "  %-10s %s\n", plan_presets[i].name,
                             plan_presets[i].help);
}

int plan_preset(const char *name, plan *out, ts_err *err) {
  for (size_t i = 0; i < sizeof plan_presets / sizeof plan_presets[0]; i++) {
    const plan_preset_def *d = &plan_presets[i];
    if (strcmp(d->name, name) != 0)
      continue;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", d->name);
    out->reps = d->reps;
    out->settle_ns = d->settle_ns;
    out->work_scale = 1.0;
    int rc = plan_set_conditions(out, d->conditions, err);
    if (rc == TS_OK)
      rc = plan_set_benches(out, d->benches, err);
    return rc;
  }
  char names[256];
  size_t used = 0;
  names[0] = '\0';
  for (size_t i = 0; i < sizeof plan_presets / sizeof plan_presets[0]; i++)
    used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                             plan_presets[i].name);
  return ts_err_set(err, TS_EUSAGE, "unknown plan '%s' (accepted presets: %s)", name, names);
}

/* Calls fn on each comma-separated item of list; empty items are refused. */
static int each_item(const char *list, const char *what, int (*fn)(void *, const char *, ts_err *),
                     void *ctx, ts_err *err) {
  char item[LOAD_TEXT_MAX];
  const char *p = list;
  if (!list || !*list)
    return ts_err_set(err, TS_EUSAGE, "%s needs a comma-separated list", what);
  for (;;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    if (len == 0)
      return ts_err_set(err, TS_EUSAGE, "%s: empty item in '%s'", what, list);
    if (len >= sizeof item)
      return ts_err_set(err, TS_EUSAGE, "%s: item '%.*s' is too long", what, (int)len, p);
    memcpy(item, p, len);
    item[len] = '\0';
    int rc = fn(ctx, item, err);
    if (rc != TS_OK)
      return rc;
    if (!comma)
      return TS_OK;
    p = comma + 1;
  }
}

static int add_condition(void *ctx, const char *item, ts_err *err) {
  plan *p = ctx;
  if (p->condition_count == PLAN_MAX_CONDITIONS)
    return ts_err_set(err, TS_EUSAGE, "--conditions: more than %d conditions",
                      PLAN_MAX_CONDITIONS);
  load_spec *spec = &p->conditions[p->condition_count];
  int rc = load_spec_parse(item, spec, err);
  if (rc != TS_OK)
    return ts_err_prefix(err, "--conditions");
  for (int i = 0; i < p->condition_count; i++)
    if (strcmp(p->conditions[i].text, spec->text) == 0)
      return ts_err_set(err, TS_EUSAGE, "--conditions: '%s' is listed twice", spec->text);
  p->condition_count++;
  return TS_OK;
}

static int add_bench(void *ctx, const char *item, ts_err *err) {
  plan *p = ctx;
  const char *arg;
  if (p->bench_count == PLAN_MAX_BENCHES)
    return ts_err_set(err, TS_EUSAGE, "--bench: more than %d benchmarks", PLAN_MAX_BENCHES);
  if (!bench_find(item, &arg, err))
    return ts_err_prefix(err, "--bench");
  if (strlen(item) >= PLAN_BENCH_MAX)
    return ts_err_set(err, TS_EUSAGE, "--bench: '%s' is too long", item);
  for (int i = 0; i < p->bench_count; i++)
    if (strcmp(p->benches[i], item) == 0)
      return ts_err_set(err, TS_EUSAGE, "--bench: '%s' is listed twice", item);
  snprintf(p->benches[p->bench_count++], PLAN_BENCH_MAX, "%s", item);
  return TS_OK;
}

int plan_set_conditions(plan *p, const char *list, ts_err *err) {
  p->condition_count = 0;
  return each_item(list, "--conditions", add_condition, p, err);
}

int plan_set_benches(plan *p, const char *list, ts_err *err) {
  p->bench_count = 0;
  return each_item(list, "--bench", add_bench, p, err);
}

int plan_trial_count(const plan *p) {
  return p->condition_count * p->bench_count * (int)p->reps;
}

void plan_format(const plan *p, char *buf, size_t len) {
  size_t used = 0;
#define APPEND(...)                                                                    \
  do {                                                                                 \
    if (used < len)                                                                    \
      used += (size_t)snprintf(buf + used, len - used, __VA_ARGS__);                   \
  } while (0)
  APPEND("name=%s\nconditions=", p->name);
  for (int i = 0; i < p->condition_count; i++)
    APPEND("%s%s", i ? "," : "", p->conditions[i].text);
  APPEND("\nbench=");
  for (int i = 0; i < p->bench_count; i++)
    APPEND("%s%s", i ? "," : "", p->benches[i]);
  char settle[32];
  format_duration(p->settle_ns, settle, sizeof settle);
  APPEND("\nreps=%ld\nsettle=%s\nwork_scale=%g\n", p->reps, settle, p->work_scale);
#undef APPEND
}
