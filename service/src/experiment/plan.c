/* plan.c - reads experiment plans (presets, plan files, command-line settings, stored runs) in one
   "key = value" text format through one table of settings, refusing bad input before anything
   runs. */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/bench.h"
#include "threadsoup/parse.h"

/* ---- presets: plan text, read by the same parser as files -------------------------------------- */

typedef struct plan_preset_def {
  const char *name;
  const char *help;
  const char *text;
} plan_preset_def;

static const plan_preset_def plan_presets[] = {
    {"quick",
     "baseline and 1,500 / 5,000 / 15,000 threads sleeping 0.5 s; builtin-st; 5 blocks "
     "(about a minute)",
     "conditions = baseline, sleep:1500@500ms, sleep:5000@500ms, sleep:15000@500ms\n"
     "bench = builtin-st\nreps = 5\nwarmup = 1\nsettle = 1s\nquiet-cpu = 25%\n"
     "quiet-timeout = 5s\n"},
    {"seed",
     "the original experiment: baseline and 1,500 / 5,000 / 15,000 sleepers at 0.5 s; "
     "builtin-st, builtin-mt and 7-Zip with 4 threads; 10 blocks",
     "conditions = baseline, sleep:1500@500ms, sleep:5000@500ms, sleep:15000@500ms\n"
     "bench = builtin-st, builtin-mt, 7zip:4\nreps = 10\nwarmup = 1\nsettle = 2s\n"
     "quiet-cpu = 10%\nquiet-timeout = 60s\n"},
    {"waiters",
     "threads and processes that wait forever (never woken): 1,500 / 5,000 / 15,000 of each; "
     "builtin-st and builtin-mt; 10 blocks",
     "conditions = baseline, wait:1500:event, wait:5000:event, wait:15000:event, procs:1500, "
     "procs:5000, procs:15000\n"
     "bench = builtin-st, builtin-mt\nreps = 10\nwarmup = 1\nsettle = 2s\nquiet-cpu = 10%\n"
     "quiet-timeout = 60s\n"},
    {"dose",
     "a sweep of sleeper counts from 500 to 30,000 at 0.5 s, to find the knee; builtin-st; "
     "8 blocks",
     "conditions = baseline, sleep:500@500ms, sleep:1000@500ms, sleep:2000@500ms, "
     "sleep:5000@500ms, sleep:10000@500ms, sleep:15000@500ms, sleep:20000@500ms, "
     "sleep:30000@500ms\n"
     "bench = builtin-st\nreps = 8\nwarmup = 1\nsettle = 2s\nquiet-cpu = 10%\n"
     "quiet-timeout = 60s\n"},
    {"aa",
     "baseline against baseline: this machine's noise floor; builtin-st; blocks are added until "
     "the difference is known to within 1.5 % (30 minutes at most)",
     "conditions = baseline, baseline-b\nbench = builtin-st\nreps = 10\nwarmup = 1\nsettle = 1s\n"
     "quiet-cpu = 10%\nquiet-timeout = 30s\nmargin = 2%\nprecision = 1.5%\nbudget = 30m\n"},
};
#define PRESET_COUNT (sizeof plan_presets / sizeof plan_presets[0])

const char *plan_default_preset(void) { return plan_presets[0].name; }

int plan_is_preset(const char *name) {
  for (size_t i = 0; i < PRESET_COUNT; i++)
    if (strcmp(plan_presets[i].name, name) == 0)
      return 1;
  return 0;
}

void plan_preset_help(char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < PRESET_COUNT && used < len; i++)
    used += (size_t)snprintf(buf + used, len - used, "  %-8s %s\n", plan_presets[i].name,
                             plan_presets[i].help);
}

/* ---- settings ---------------------------------------------------------------------------------- */

/* Calls fn on each comma-separated item of list, trimmed; empty items are refused. */
static int each_item(const char *list, const char *what, int (*fn)(plan *, const char *, ts_err *),
                     plan *p, ts_err *err) {
  char item[LOAD_TEXT_MAX];
  const char *at = list;
  if (!list || !*list)
    return ts_err_set(err, TS_EUSAGE, "%s needs a comma-separated list", what);
  for (;;) {
    const char *comma = strchr(at, ',');
    size_t len = comma ? (size_t)(comma - at) : strlen(at);
    while (len > 0 && (*at == ' ' || *at == '\t')) {
      at++;
      len--;
    }
    while (len > 0 && (at[len - 1] == ' ' || at[len - 1] == '\t'))
      len--;
    if (len == 0)
      return ts_err_set(err, TS_EUSAGE, "%s: empty item in '%s'", what, list);
    if (len >= sizeof item)
      return ts_err_set(err, TS_EUSAGE, "%s: item '%.*s' is too long", what, (int)len, at);
    memcpy(item, at, len);
    item[len] = '\0';
    int rc = fn(p, item, err);
    if (rc != TS_OK)
      return rc;
    if (!comma)
      return TS_OK;
    at = comma + 1;
  }
}

static int add_condition(plan *p, const char *item, ts_err *err) {
  if (p->condition_count == PLAN_MAX_CONDITIONS)
    return ts_err_set(err, TS_EUSAGE, "conditions: more than %d", PLAN_MAX_CONDITIONS);
  load_spec *spec = &p->conditions[p->condition_count];
  int rc = load_spec_parse(item, spec, err);
  if (rc != TS_OK)
    return ts_err_prefix(err, "conditions");
  if (plan_condition_index(p, spec->text) >= 0)
    return ts_err_set(err, TS_EUSAGE, "conditions: '%s' is listed twice", spec->text);
  p->condition_count++;
  return TS_OK;
}

static int add_bench(plan *p, const char *item, ts_err *err) {
  const char *arg;
  if (p->bench_count == PLAN_MAX_BENCHES)
    return ts_err_set(err, TS_EUSAGE, "bench: more than %d benchmarks", PLAN_MAX_BENCHES);
  if (strlen(item) >= PLAN_BENCH_MAX)
    return ts_err_set(err, TS_EUSAGE, "bench: '%s' is too long", item);
  /* A benchmark missing here may still run from a path the plan gives: plan_check decides. */
  if (!bench_find(item, &arg, err) && err->code != TS_EUNSUPPORTED)
    return ts_err_prefix(err, "bench");
  for (int i = 0; i < p->bench_count; i++)
    if (strcmp(p->benches[i], item) == 0)
      return ts_err_set(err, TS_EUSAGE, "bench: '%s' is listed twice", item);
  snprintf(p->benches[p->bench_count++], PLAN_BENCH_MAX, "%s", item);
  return TS_OK;
}

static int set_name(plan *p, const char *v, ts_err *err) {
  size_t n = strlen(v);
  if (n == 0 || n >= PLAN_NAME_MAX)
    return ts_err_set(err, TS_EUSAGE, "name: 1 to %d characters", PLAN_NAME_MAX - 1);
  for (const char *c = v; *c; c++)
    if ((unsigned char)*c < 32)
      return ts_err_set(err, TS_EUSAGE, "name: no control characters");
  if (!parse_is_utf8(v))
    return ts_err_set(err, TS_EUSAGE, "name: not UTF-8 text");
  snprintf(p->name, sizeof p->name, "%s", v);
  return TS_OK;
}
static int set_conditions(plan *p, const char *v, ts_err *err) {
  p->condition_count = 0;
  return each_item(v, "conditions", add_condition, p, err);
}
static int set_bench(plan *p, const char *v, ts_err *err) {
  p->bench_count = 0;
  return each_item(v, "bench", add_bench, p, err);
}
static int set_reps(plan *p, const char *v, ts_err *err) {
  return parse_long(v, 1, PLAN_MAX_REPS, "reps", &p->reps, err);
}
static int set_warmup(plan *p, const char *v, ts_err *err) {
  return parse_long(v, 0, 100, "warmup", &p->warmup, err);
}
static int set_settle(plan *p, const char *v, ts_err *err) {
  return parse_duration(v, 0, 3600000000000ull, "settle", &p->settle_ns, err);
}
static int set_work_scale(plan *p, const char *v, ts_err *err) {
  return parse_double(v, 0.001, 1000, "work-scale", &p->work_scale, err);
}
/* "off" or a percentage; off is stored as 0. */
static int set_percent_or_off(const char *v, double min, double max, const char *what,
                              double *out, ts_err *err) {
  if (v && strcmp(v, "off") == 0) {
    *out = 0;
    return TS_OK;
  }
  int rc = parse_percent(v, min, max, what, out, err);
  if (rc != TS_OK)
    ts_err_set(err, TS_EUSAGE, "%s: '%s' is not accepted (accepted: off, or %g%% to %g%%)", what,
               v ? v : "", min, max);
  return rc;
}
static int set_precision(plan *p, const char *v, ts_err *err) {
  return set_percent_or_off(v, 0.01, 50, "precision", &p->precision_pct, err);
}
static int set_budget(plan *p, const char *v, ts_err *err) {
  return parse_duration(v, 60000000000ull, 7ull * 24 * 3600 * 1000000000ull, "budget",
                        &p->budget_ns, err);
}
static int set_quiet_cpu(plan *p, const char *v, ts_err *err) {
  return set_percent_or_off(v, 1, 100, "quiet-cpu", &p->quiet_cpu_pct, err);
}
static int set_quiet_timeout(plan *p, const char *v, ts_err *err) {
  return parse_duration(v, 0, 3600000000000ull, "quiet-timeout", &p->quiet_timeout_ns, err);
}
static int set_margin(plan *p, const char *v, ts_err *err) {
  if (v && strcmp(v, "auto") == 0) {
    p->margin_pct = 0;
    return TS_OK;
  }
  int rc = parse_percent(v, 0.1, 50, "margin", &p->margin_pct, err);
  if (rc != TS_OK)
    ts_err_set(err, TS_EUSAGE, "margin: '%s' is not accepted (accepted: auto, or 0.1%% to 50%%)",
               v ? v : "");
  return rc;
}
static int set_timeout(plan *p, const char *v, ts_err *err) {
  return parse_duration(v, 1000000000ull, 24ull * 3600 * 1000000000ull, "timeout",
                        &p->bench_timeout_ns, err);
}
static int set_quiet(plan *p, const char *v, ts_err *err) {
  if (strcmp(v, "on") == 0 || strcmp(v, "off") == 0) {
    p->quiet = strcmp(v, "on") == 0;
    return TS_OK;
  }
  return ts_err_set(err, TS_EUSAGE, "quiet: '%s' is not accepted (accepted: on, off)", v);
}
static int set_text(char *field, const char *v, const char *what, ts_err *err) {
  if (strlen(v) >= PLAN_TEXT_MAX)
    return ts_err_set(err, TS_EUSAGE, "%s: at most %d characters", what, PLAN_TEXT_MAX - 1);
  snprintf(field, PLAN_TEXT_MAX, "%s", v);
  return TS_OK;
}
static int set_7zip(plan *p, const char *v, ts_err *err) {
  return set_text(p->sevenzip_path, v, "7zip", err);
}
static int set_cpuz(plan *p, const char *v, ts_err *err) {
  return set_text(p->cpuz_path, v, "cpuz", err);
}
static int set_command(plan *p, const char *v, ts_err *err) {
  return set_text(p->command_line, v, "command", err);
}
static int set_score_regex(plan *p, const char *v, ts_err *err) {
  return set_text(p->score_regex, v, "score-regex", err);
}

static void fmt_name(const plan *p, char *b, size_t n) { snprintf(b, n, "%s", p->name); }
static void fmt_conditions(const plan *p, char *b, size_t n) {
  size_t used = 0;
  b[0] = '\0';
  for (int i = 0; i < p->condition_count && used < n; i++)
    used += (size_t)snprintf(b + used, n - used, "%s%s", i ? ", " : "", p->conditions[i].text);
}
static void fmt_bench(const plan *p, char *b, size_t n) {
  size_t used = 0;
  b[0] = '\0';
  for (int i = 0; i < p->bench_count && used < n; i++)
    used += (size_t)snprintf(b + used, n - used, "%s%s", i ? ", " : "", p->benches[i]);
}
static void fmt_reps(const plan *p, char *b, size_t n) { snprintf(b, n, "%ld", p->reps); }
static void fmt_warmup(const plan *p, char *b, size_t n) { snprintf(b, n, "%ld", p->warmup); }
static void fmt_settle(const plan *p, char *b, size_t n) { format_duration(p->settle_ns, b, (int)n); }
static void fmt_work_scale(const plan *p, char *b, size_t n) { snprintf(b, n, "%g", p->work_scale); }
static void fmt_percent_or(double v, const char *zero, char *b, size_t n) {
  if (v == 0)
    snprintf(b, n, "%s", zero);
  else
    snprintf(b, n, "%g%%", v);
}
static void fmt_precision(const plan *p, char *b, size_t n) {
  fmt_percent_or(p->precision_pct, "off", b, n);
}
static void fmt_budget(const plan *p, char *b, size_t n) { format_duration(p->budget_ns, b, (int)n); }
static void fmt_quiet_cpu(const plan *p, char *b, size_t n) {
  fmt_percent_or(p->quiet_cpu_pct, "off", b, n);
}
static void fmt_quiet_timeout(const plan *p, char *b, size_t n) {
  format_duration(p->quiet_timeout_ns, b, (int)n);
}
static void fmt_margin(const plan *p, char *b, size_t n) { fmt_percent_or(p->margin_pct, "auto", b, n); }
static void fmt_timeout(const plan *p, char *b, size_t n) {
  format_duration(p->bench_timeout_ns, b, (int)n);
}
static void fmt_quiet(const plan *p, char *b, size_t n) { snprintf(b, n, "%s", p->quiet ? "on" : "off"); }
static void fmt_7zip(const plan *p, char *b, size_t n) { snprintf(b, n, "%s", p->sevenzip_path); }
static void fmt_cpuz(const plan *p, char *b, size_t n) { snprintf(b, n, "%s", p->cpuz_path); }
static void fmt_command(const plan *p, char *b, size_t n) { snprintf(b, n, "%s", p->command_line); }
static void fmt_score_regex(const plan *p, char *b, size_t n) { snprintf(b, n, "%s", p->score_regex); }

typedef struct plan_setting {
  const char *key;
  const char *accepted;
  int (*set)(plan *p, const char *value, ts_err *err);
  void (*format)(const plan *p, char *buf, size_t len);
} plan_setting;

/* One table: the file format, the command line (--KEY), the stored text and docs/plans.md. */
static const plan_setting plan_settings[] = {
    {"name", "a name for the plan", set_name, fmt_name},
    {"conditions", "comma-separated conditions: baseline, sleep:COUNT[@INTERVAL], …",
     set_conditions, fmt_conditions},
    {"bench", "comma-separated benchmarks: builtin-st, builtin-mt[:N], 7zip[:N], cpuz, command",
     set_bench, fmt_bench},
    {"reps", "blocks of trials, 1 to 1000", set_reps, fmt_reps},
    {"warmup", "runs of each benchmark before the first block, 0 to 100", set_warmup,
     fmt_warmup},
    {"settle", "wait after the load starts, 0s to 1h", set_settle, fmt_settle},
    {"work-scale", "multiplies the built-in benchmarks' work, 0.001 to 1000", set_work_scale,
     fmt_work_scale},
    {"precision", "off, or add blocks until every 95 % CI is this narrow (0.01% to 50%)",
     set_precision, fmt_precision},
    {"budget", "time allowed for adaptive repetitions, 1m to 7d", set_budget, fmt_budget},
    {"quiet-cpu", "off, or wait before each trial until CPU use outside ThreadSoup is below this "
                  "(1% to 100%)",
     set_quiet_cpu, fmt_quiet_cpu},
    {"quiet-timeout", "how long the quiet gate waits, 0s to 1h", set_quiet_timeout,
     fmt_quiet_timeout},
    {"margin", "auto, or the margin of 'no measurable effect' (0.1% to 50%)", set_margin,
     fmt_margin},
    {"timeout", "external benchmarks are stopped after this, 1s to 24h", set_timeout, fmt_timeout},
    {"quiet", "on: Defender real-time protection off and Windows Update paused for the run, "
              "then restored (Windows; needs an administrator)",
     set_quiet, fmt_quiet},
    {"7zip", "path of 7z, 7zz or 7z.exe (default: searched)", set_7zip, fmt_7zip},
    {"cpuz", "path of cpuz.exe (default: searched)", set_cpuz, fmt_cpuz},
    {"command", "the command line of the command benchmark", set_command, fmt_command},
    {"score-regex", "command: a regular expression whose first group is the score",
     set_score_regex, fmt_score_regex},
};
#define SETTING_COUNT (sizeof plan_settings / sizeof plan_settings[0])

static void known_keys(char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < SETTING_COUNT && used < len; i++)
    used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", plan_settings[i].key);
}

static const plan_setting *find_setting(const char *key) {
  for (size_t i = 0; i < SETTING_COUNT; i++)
    if (strcmp(plan_settings[i].key, key) == 0)
      return &plan_settings[i];
  return NULL;
}

int plan_is_setting(const char *key) { return find_setting(key) != NULL; }

int plan_set(plan *p, const char *key, const char *value, ts_err *err) {
  const plan_setting *s = find_setting(key);
  if (!s) {
    char keys[512];
    known_keys(keys, sizeof keys);
    return ts_err_set(err, TS_EUSAGE, "unknown setting '%s' (known: %s)", key, keys);
  }
  return s->set(p, value ? value : "", err);
}

static void plan_defaults(plan *p) {
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "custom");
  p->reps = 5;
  p->warmup = 1;
  p->settle_ns = 1000000000ull;
  p->work_scale = 1.0;
  p->budget_ns = 3600000000000ull;
  p->quiet_timeout_ns = 30000000000ull;
  p->bench_timeout_ns = 600000000000ull;
}

/* ---- text and files ---------------------------------------------------------------------------- */

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
    s[--n] = '\0';
  return s;
}

int plan_parse(const char *text, const char *origin, plan *out, ts_err *err) {
  plan_defaults(out);
  int set_on_line[SETTING_COUNT];
  memset(set_on_line, 0, sizeof set_on_line);
  int line_no = 0;
  for (const char *line = text; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    line_no++;
    char buf[4096];
    if (len >= sizeof buf)
      return ts_err_set(err, TS_EUSAGE, "%s:%d: line longer than %zu characters", origin,
                        line_no, sizeof buf - 1);
    memcpy(buf, line, len);
    buf[len] = '\0';
    line = end ? end + 1 : NULL;
    char *content = trim(buf);
    if (*content == '\0' || *content == '#')
      continue;
    char *eq = strchr(content, '=');
    if (!eq)
      return ts_err_set(err, TS_EUSAGE, "%s:%d: expected KEY = VALUE, got '%.80s'", origin,
                        line_no, content);
    *eq = '\0';
    char *key = trim(content), *value = trim(eq + 1);
    const plan_setting *s = find_setting(key);
    if (!s) {
      char keys[512];
      known_keys(keys, sizeof keys);
      return ts_err_set(err, TS_EUSAGE, "%s:%d: unknown setting '%s' (known: %s)", origin,
                        line_no, key, keys);
    }
    size_t index = (size_t)(s - plan_settings);
    if (set_on_line[index])
      return ts_err_set(err, TS_EUSAGE, "%s:%d: '%s' is set twice (first on line %d)", origin,
                        line_no, key, set_on_line[index]);
    set_on_line[index] = line_no;
    int rc = s->set(out, value, err);
    if (rc != TS_OK)
      return ts_err_prefix(err, "%s:%d", origin, line_no);
  }
  return TS_OK;
}

int plan_preset(const char *name, plan *out, ts_err *err) {
  for (size_t i = 0; i < PRESET_COUNT; i++) {
    if (strcmp(plan_presets[i].name, name) != 0)
      continue;
    char origin[64];
    snprintf(origin, sizeof origin, "preset %s", name);
    int rc = plan_parse(plan_presets[i].text, origin, out, err);
    if (rc == TS_OK)
      snprintf(out->name, sizeof out->name, "%s", name);
    return rc;
  }
  char names[256];
  size_t used = 0;
  names[0] = '\0';
  for (size_t i = 0; i < PRESET_COUNT; i++)
    used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                             plan_presets[i].name);
  return ts_err_set(err, TS_EUSAGE,
                    "unknown plan '%s': not a preset (accepted: %s) and no such plan file", name,
                    names);
}

int plan_read_file(const char *path, plan *out, ts_err *err) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return ts_err_set(err, TS_EUSAGE, "cannot read plan file %s", path);
  static const size_t limit = 65536; /* a plan is a page of text, not a data set */
  char *text = malloc(limit + 1);
  size_t n = text ? fread(text, 1, limit + 1, f) : 0;
  fclose(f);
  if (!text)
    return ts_err_set(err, TS_ENOMEM, "no memory to read %s", path);
  int rc = TS_OK;
  if (n > limit)
    rc = ts_err_set(err, TS_EUSAGE, "%s: larger than %zu bytes: not a plan file", path, limit);
  else if (memchr(text, '\0', n))
    rc = ts_err_set(err, TS_EUSAGE, "%s: holds NUL bytes: not a text plan file", path);
  if (rc == TS_OK) {
    text[n] = '\0';
    rc = plan_parse(text, path, out, err);
    if (rc == TS_OK && strcmp(out->name, "custom") == 0) {
      /* Unnamed plans are called after their file. */
      const char *base = path + strlen(path);
      while (base > path && base[-1] != '/' && base[-1] != '\\')
        base--;
      snprintf(out->name, sizeof out->name, "%s", base);
    }
  }
  free(text);
  return rc;
}

const char *plan_tool_path(const plan *p, const char *bench_spec) {
  const char *path = NULL;
  if (strncmp(bench_spec, "7zip", 4) == 0)
    path = p->sevenzip_path;
  else if (strncmp(bench_spec, "cpuz", 4) == 0)
    path = p->cpuz_path;
  return path && *path ? path : NULL;
}

int plan_check(const plan *p, ts_err *err) {
  for (int i = 0; i < p->bench_count; i++) {
    const char *arg;
    if (!bench_find(p->benches[i], &arg, err) && !plan_tool_path(p, p->benches[i]))
      return err->code == TS_EUNSUPPORTED
                 ? ts_err_prefix(err, "bench %s (give its path with --%.4s PATH)", p->benches[i],
                                 p->benches[i])
                 : err->code;
  }
  if (p->condition_count == 0)
    return ts_err_set(err, TS_EUSAGE, "the plan has no conditions (set conditions = …)");
  if (p->bench_count == 0)
    return ts_err_set(err, TS_EUSAGE, "the plan has no benchmarks (set bench = …)");
  for (int i = 0; i < p->bench_count; i++)
    if (strncmp(p->benches[i], "command", 7) == 0 && p->command_line[0] == '\0')
      return ts_err_set(err, TS_EUSAGE,
                        "the command benchmark needs a command line (command = … or --command)");
  return TS_OK;
}

int plan_trial_count(const plan *p) {
  return p->bench_count * ((int)p->warmup + p->condition_count * (int)p->reps);
}

void plan_format(const plan *p, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < SETTING_COUNT && used < len; i++) {
    char value[PLAN_FORMAT_MAX / 2];
    plan_settings[i].format(p, value, sizeof value);
    if (value[0] == '\0')
      continue; /* an empty path or command: the default */
    used += (size_t)snprintf(buf + used, len - used, "%s = %s\n", plan_settings[i].key, value);
  }
}

int plan_condition_index(const plan *p, const char *text) {
  for (int i = 0; i < p->condition_count; i++)
    if (strcmp(p->conditions[i].text, text) == 0)
      return i;
  return -1;
}
