/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* spec.c - the load spec language: reads "sleep:1500@500ms+wait:1000:address" and options one by
   one into parts, and writes each part's canonical text, all through the option rows of the
   engine (count and the thread options) and of each scenario, so no scenario is named here. */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "threadsoup/buf.h"
#include "threadsoup/parse.h"
#include "threadsoup/units.h"

/* ---- the engine's own options ---------------------------------------------------------------- */

#define PART_FIELD(part, row, type) ((type *)(void *)((char *)(part) + (row)->at))
#define PART_CFIELD(part, row, type)                                                               \
  ((const type *)(const void *)((const char *)(part) + (row)->at))

static int parse_count(load_part *part, const char *value, const char *what, ts_err *err) {
  int rc = ts_parse_long(value, 1, LOAD_MAX_COUNT, what, &part->count, err);
  if (rc == TS_OK)
    part->count_auto = 0;
  return rc;
}

/* Written whenever it was given: a count per CPU is written only when a number replaced it. */
static void format_count(const load_part *part, char *buf, size_t len) {
  if (part->count_auto)
    snprintf(buf, len, "%s", "");
  else
    snprintf(buf, len, "%ld", part->count);
}

static int parse_stack(load_part *part, const char *value, const char *what, ts_err *err) {
  long min_kib = (long)(plat_thread_min_stack() / 1024), kib;
  char unit_what[96];
  /* "stack (KiB) of 'sleep'": the unit, since 64 could be bytes. */
  snprintf(unit_what, sizeof unit_what, "stack (KiB)%s", what + strlen("stack"));
  int rc = ts_parse_long(value, min_kib, 65536, unit_what, &kib, err);
  if (rc == TS_OK)
    part->stack_bytes = (size_t)kib * 1024;
  return rc;
}

static void format_stack(const load_part *part, char *buf, size_t len) {
  if (part->stack_bytes)
    snprintf(buf, len, "%zu", part->stack_bytes / 1024);
  else
    snprintf(buf, len, "%s", "");
}

static const char *const priority_names[] = {"idle", "low", "normal", "high", NULL};

static const load_option count_option = {"count",
                                         LOAD_OPTION_CUSTOM,
                                         LOAD_PLACE_FIRST,
                                         offsetof(load_part, count),
                                         1,
                                         LOAD_MAX_COUNT,
                                         NULL,
                                         NULL,
                                         "1500",
                                         "how many threads or processes, 1 to 1000000",
                                         parse_count,
                                         format_count};

/* The thread options, in the order a part's text writes them; engine_options says which a
   scenario takes, bit i for row i. */
static const load_option thread_options[] = {
    {"stack", LOAD_OPTION_CUSTOM, LOAD_PLACE_OPTION, offsetof(load_part, stack_bytes), 0, 0, NULL,
     NULL, NULL, "stack size in KiB (default and least: 16 POSIX, 64 Windows)", parse_stack,
     format_stack},
    {"priority", LOAD_OPTION_CHOICE, LOAD_PLACE_OPTION, offsetof(load_part, priority), 0, 0,
     priority_names, "normal", NULL, "idle, low, normal (default), high", NULL, NULL},
    {"ramp", LOAD_OPTION_DURATION, LOAD_PLACE_OPTION, offsetof(load_part, ramp_ns), 0,
     (double)TS_NS_PER_HOUR, NULL, "0s", NULL,
     "create gradually over a duration such as 10s (default 0s)", NULL, NULL},
};
#define THREAD_OPTION_COUNT (sizeof thread_options / sizeof thread_options[0])

/* ---- the rows of a scenario, in text order -----------------------------------------------------
 */

#define ROWS_MAX 32 /* rows of one scenario, the engine's included; `given` has a bit for each */

/* The scenario's own row in `place` number `nth` (0: the first such), or NULL. */
static const load_option *own_row(const scenario_def *sc, load_option_place place, size_t nth) {
  for (const load_option *o = sc->options; o && o->name; o++)
    if (o->place == place && nth-- == 0)
      return o;
  return NULL;
}

/* Every row of sc in text order: the first slot, @, :KIND, the count when it is not first, the
   thread options, then the scenario's /KEY=VALUE options. Returns how many. */
static size_t rows_of(const scenario_def *sc, const load_option **rows) {
  size_t n = 0;
  const load_option *first = own_row(sc, LOAD_PLACE_FIRST, 0);
  rows[n++] = first ? first : &count_option;
  static const load_option_place slots[] = {LOAD_PLACE_AT, LOAD_PLACE_KIND};
  for (size_t s = 0; s < 2; s++)
    for (size_t k = 0; own_row(sc, slots[s], k) && n < ROWS_MAX; k++)
      rows[n++] = own_row(sc, slots[s], k);
  if (first && !sc->takes_no_count)
    rows[n++] = &count_option;
  for (size_t i = 0; i < THREAD_OPTION_COUNT && n < ROWS_MAX; i++)
    if (sc->engine_options & (1u << i))
      rows[n++] = &thread_options[i];
  for (size_t k = 0; own_row(sc, LOAD_PLACE_OPTION, k) && n < ROWS_MAX; k++)
    rows[n++] = own_row(sc, LOAD_PLACE_OPTION, k);
  return n;
}

const load_option *load_option_at(const scenario_def *sc, size_t i) {
  const load_option *rows[ROWS_MAX];
  return i < rows_of(sc, rows) ? rows[i] : NULL;
}

/* The row called `name` of sc and its index in text order; NULL when sc takes no such option. */
static const load_option *find_row(const scenario_def *sc, const char *name, size_t *index) {
  const load_option *rows[ROWS_MAX];
  size_t n = rows_of(sc, rows);
  for (size_t i = 0; i < n; i++)
    if (strcmp(rows[i]->name, name) == 0) {
      if (index)
        *index = i;
      return rows[i];
    }
  return NULL;
}

const load_option *load_option_find(const scenario_def *sc, const char *name) {
  if (sc)
    return find_row(sc, name, NULL);
  for (size_t i = 0; scenario_table[i]; i++) {
    const load_option *o = find_row(scenario_table[i], name, NULL);
    if (o)
      return o;
  }
  return NULL;
}

const char *load_option_kind_name(load_option_kind kind) {
  static const char *const names[] = {[LOAD_OPTION_COUNT] = "count",
                                      [LOAD_OPTION_DURATION] = "duration",
                                      [LOAD_OPTION_CHOICE] = "choice",
                                      [LOAD_OPTION_FLAG] = "flag",
                                      [LOAD_OPTION_CUSTOM] = "text"};
  return names[kind];
}

/* ---- one setter and one formatter for every row ------------------------------------------------
 */

static const char *const no_yes[] = {"no", "yes", NULL};

static int set_choice(const load_part *part, const char *key, const char *const *names,
                      const char *value, int *out, ts_err *err) {
  for (int i = 0; value && names[i]; i++)
    if (strcmp(names[i], value) == 0) {
      *out = i;
      return TS_OK;
    }
  char accepted[256];
  ts_buf joined = ts_buf_on(accepted, sizeof accepted);
  for (int i = 0; names[i]; i++)
    ts_buf_item(&joined, ", ", names[i]);
  return ts_err_set(err, TS_EUSAGE, "%s of '%s': '%s' is not accepted (accepted: %s)", key,
                    part->scenario->name, value ? value : "", accepted);
}

static int set_row(load_part *part, const load_option *o, const char *value, ts_err *err) {
  char what[64];
  snprintf(what, sizeof what, "%s of '%s'", o->name, part->scenario->name);
  if (!value && o->kind != LOAD_OPTION_FLAG)
    return ts_err_set(err, TS_EUSAGE, "%s needs a value (%s)", what, o->help);
  switch (o->kind) {
  case LOAD_OPTION_COUNT:
    return ts_parse_long(value, (long)o->min, (long)o->max, what, PART_FIELD(part, o, long), err);
  case LOAD_OPTION_DURATION:
    return ts_parse_duration(value, (uint64_t)o->min, (uint64_t)o->max, what,
                             PART_FIELD(part, o, uint64_t), err);
  case LOAD_OPTION_CHOICE:
    return set_choice(part, o->name, o->names, value, PART_FIELD(part, o, int), err);
  case LOAD_OPTION_FLAG:
    if (!value) {
      *PART_FIELD(part, o, int) = 1; /* a bare flag: --check, /check */
      return TS_OK;
    }
    return set_choice(part, o->name, no_yes, value, PART_FIELD(part, o, int), err);
  case LOAD_OPTION_CUSTOM:
    return o->parse(part, value, what, err);
  }
  return TS_OK;
}

/* The value as text that set_row reads back. */
static void format_row(const load_part *part, const load_option *o, char *buf, size_t len) {
  switch (o->kind) {
  case LOAD_OPTION_COUNT:
    snprintf(buf, len, "%ld", *PART_CFIELD(part, o, long));
    return;
  case LOAD_OPTION_DURATION:
    ts_format_duration(*PART_CFIELD(part, o, uint64_t), buf, (int)len);
    return;
  case LOAD_OPTION_CHOICE:
    snprintf(buf, len, "%s", o->names[*PART_CFIELD(part, o, int)]);
    return;
  case LOAD_OPTION_FLAG:
    snprintf(buf, len, "%s", no_yes[*PART_CFIELD(part, o, int) != 0]);
    return;
  case LOAD_OPTION_CUSTOM:
    o->format(part, buf, len);
    return;
  }
}

/* Whether the value is the default, so that /KEY=VALUE need not be written. */
static int is_default(const load_option *o, const char *text) {
  return text[0] == '\0' || (o->dflt && strcmp(o->dflt, text) == 0);
}

int load_part_init(load_part *part, const char *name, ts_err *err) {
  const scenario_def *sc = scenario_find(name, strlen(name));
  memset(part, 0, sizeof *part);
  if (!sc) {
    char names[256];
    scenario_names(names, sizeof names);
    return ts_err_set(err, TS_EUSAGE, "unknown scenario '%s' (known: %s)", name, names);
  }
  part->scenario = sc;
  /* Every default goes through its setter, so a default is always within its bounds. */
  const load_option *rows[ROWS_MAX];
  size_t n = rows_of(sc, rows);
  for (size_t i = 0; i < n; i++) {
    int rc = rows[i]->dflt ? set_row(part, rows[i], rows[i]->dflt, err) : TS_OK;
    if (rc != TS_OK)
      return ts_err_prefix(err, "the default of %s", rows[i]->name);
  }
  if (sc->count_per_cpu) {
    /* One thread per logical CPU of every processor group, until a count is given. */
    plat_sysinfo info;
    plat_sysinfo_read(&info);
    part->count = info.logical_cpus >= 1 ? info.logical_cpus : 1;
    part->count_auto = 1;
  }
  return TS_OK;
}

int load_part_set(load_part *part, const char *key, const char *value, ts_err *err) {
  const scenario_def *sc = part->scenario;
  size_t index;
  const load_option *o = find_row(sc, key, &index);
  if (!o) {
    if (load_option_find(NULL, key))
      return ts_err_set(err, TS_EUSAGE, "scenario '%s' takes no %s", sc->name, key);
    char known[256];
    ts_buf names = ts_buf_on(known, sizeof known);
    const load_option *rows[ROWS_MAX];
    size_t n = rows_of(sc, rows);
    for (size_t i = 0; i < n; i++)
      ts_buf_item(&names, ", ", rows[i]->name);
    return ts_err_set(err, TS_EUSAGE, "unknown option '%s' for '%s' (known: %s)", key, sc->name,
                      known);
  }
  int rc = set_row(part, o, value, err);
  if (rc == TS_OK)
    part->given |= 1u << index;
  return rc;
}

int load_part_finish(const load_part *p, char *text, size_t len, ts_err *err) {
  const scenario_def *sc = p->scenario;
  const load_option *rows[ROWS_MAX];
  size_t n = rows_of(sc, rows);
  /* The first slot holds the count or, for a scenario that puts another option there, that
     option: given, or with a default. */
  const load_option *first = rows[0];
  if (first == &count_option ? p->count <= 0 : !first->dflt && !(p->given & 1u))
    return ts_err_set(err, TS_EUSAGE, "'%s' needs a %s, e.g. %s:%s or --%s %s", sc->name,
                      first->name, sc->name, first->example, first->name, first->example);
  ts_buf b = ts_buf_on(text, len);
  for (size_t i = 0; i < n; i++) {
    const load_option *o = rows[i];
    char value[64];
    format_row(p, o, value, sizeof value);
    if (i == 0)
      ts_buf_addf(&b, "%s:%s", sc->name, value);
    else if (o->place == LOAD_PLACE_AT)
      ts_buf_addf(&b, "@%s", value);
    else if (o->place == LOAD_PLACE_KIND)
      ts_buf_addf(&b, ":%s", value);
    else if (o->kind == LOAD_OPTION_FLAG && *PART_CFIELD(p, o, int))
      ts_buf_addf(&b, "/%s", o->name);
    else if (o->kind != LOAD_OPTION_FLAG && !is_default(o, value))
      ts_buf_addf(&b, "/%s=%s", o->name, value);
  }
  if (b.cut)
    return ts_err_set(err, TS_EUSAGE, "load '%s:%ld…' is too long", sc->name, p->count);
  return TS_OK;
}

/* ---- help
 * ---------------------------------------------------------------------------------------- */

void load_options_help(char *buf, size_t len) {
  ts_buf help = ts_buf_on(buf, len);
  for (size_t s = 0; scenario_table[s]; s++) {
    const load_option *rows[ROWS_MAX];
    size_t n = rows_of(scenario_table[s], rows);
    for (size_t i = 0; i < n; i++) {
      /* Once each, where it first appears. */
      int seen = 0;
      for (size_t t = 0; t < s && !seen; t++)
        seen = find_row(scenario_table[t], rows[i]->name, NULL) != NULL;
      for (size_t j = 0; j < i && !seen; j++)
        seen = strcmp(rows[j]->name, rows[i]->name) == 0;
      if (!seen)
        ts_buf_addf(&help, "  %-10s %s\n", rows[i]->name, rows[i]->help);
    }
  }
}

static void add_upper(ts_buf *b, const char *name) {
  for (const char *c = name; *c; c++)
    ts_buf_addf(b, "%c", *c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
}

/* "sleep:COUNT[@INTERVAL]", "yield:COUNT[/check]", "burn:DUTY[@PERIOD] (e.g. burn:10%)". */
static void scenario_forms(ts_buf *b, const scenario_def *sc) {
  const load_option *rows[ROWS_MAX];
  size_t n = rows_of(sc, rows);
  ts_buf_addf(b, "%s:", sc->name);
  add_upper(b, rows[0]->name);
  for (size_t i = 1; i < n; i++) {
    const load_option *o = rows[i];
    if (o->place == LOAD_PLACE_AT || o->place == LOAD_PLACE_KIND) {
      ts_buf_add(b, o->place == LOAD_PLACE_AT ? "[@" : "[:");
      add_upper(b, o->name);
      ts_buf_add(b, "]");
    } else if (o->kind == LOAD_OPTION_FLAG) {
      ts_buf_addf(b, "[/%s]", o->name);
    }
  }
  if (rows[0] != &count_option)
    ts_buf_addf(b, " (e.g. %s:%s)", sc->name, rows[0]->example);
}

/* The scenarios' forms joined as a sentence: "a, b or c". */
static void all_forms(ts_buf *b) {
  for (size_t i = 0; scenario_table[i]; i++) {
    ts_buf_add(b, i == 0 ? "" : scenario_table[i + 1] ? ", " : " or ");
    scenario_forms(b, scenario_table[i]);
  }
}

void load_spec_forms(char *buf, size_t len) {
  ts_buf b = ts_buf_on(buf, len);
  ts_buf_add(&b, "baseline, baseline-LABEL (a second baseline, for A/A), ");
  all_forms(&b);
  ts_buf_add(&b, ", with options as /KEY=VALUE and parts joined with +");
}

/* What a condition may be, for its errors. */
static void syntax(char *buf, size_t len) {
  ts_buf b = ts_buf_on(buf, len);
  ts_buf_add(&b, "accepted: baseline[-LABEL], or parts joined with '+', each ");
  all_forms(&b);
  ts_buf_add(&b, ", with options as /KEY=VALUE");
}

/* ---- parsing
 * ------------------------------------------------------------------------------------- */

/* The name the slot is known by when the scenario takes nothing there ("takes no interval"). */
static const char *slot_name(const scenario_def *sc, load_option_place place, const char *none) {
  const load_option *o = own_row(sc, place, 0);
  return o ? o->name : none;
}

/* Parses one NAME:FIRST[@AT][:KIND][/KEY=VALUE]… of length len. */
static int parse_part(const char *text, size_t len, load_part *out, ts_err *err) {
  char buf[LOAD_TEXT_MAX];
  if (len >= sizeof buf)
    return ts_err_set(err, TS_EUSAGE, "load '%.*s' is too long", (int)len, text);
  memcpy(buf, text, len);
  buf[len] = '\0';

  char *options = strchr(buf, '/');
  if (options)
    *options++ = '\0';
  char *first = strchr(buf, ':');
  if (first)
    *first++ = '\0';
  int rc = load_part_init(out, buf, err);
  if (rc != TS_OK)
    return rc;
  const scenario_def *sc = out->scenario;
  if (!first) {
    const load_option *o = load_option_at(sc, 0);
    char accepted[400];
    syntax(accepted, sizeof accepted);
    return ts_err_set(err, TS_EUSAGE, "'%s' needs a %s, e.g. %s:%s (%s)", buf, o->name, buf,
                      o->example, accepted);
  }
  char *kind = strchr(first, ':');
  if (kind)
    *kind++ = '\0';
  char *at = strchr(first, '@');
  if (at)
    *at++ = '\0';
  rc = load_part_set(out, load_option_at(sc, 0)->name, first, err);
  if (rc == TS_OK && at)
    rc = load_part_set(out, slot_name(sc, LOAD_PLACE_AT, "interval"), at, err);
  if (rc == TS_OK && kind)
    rc = load_part_set(out, slot_name(sc, LOAD_PLACE_KIND, "kind"), kind, err);
  while (rc == TS_OK && options && *options) {
    char *next = strchr(options, '/');
    if (next)
      *next++ = '\0';
    char *eq = strchr(options, '=');
    if (eq)
      *eq++ = '\0';
    rc = load_part_set(out, options, eq, err);
    options = next;
  }
  return rc;
}

int load_spec_format(load_spec *spec, ts_err *err) {
  if (spec->part_count == 0) {
    if (strncmp(spec->text, "baseline", 8) != 0)
      snprintf(spec->text, sizeof spec->text, "baseline");
    return TS_OK;
  }
  ts_buf text = ts_buf_on(spec->text, sizeof spec->text);
  for (int i = 0; i < spec->part_count; i++) {
    char part[LOAD_TEXT_MAX];
    int rc = load_part_finish(&spec->parts[i], part, sizeof part, err);
    if (rc != TS_OK)
      return rc;
    ts_buf_item(&text, "+", part);
    if (text.cut)
      return ts_err_set(err, TS_EUSAGE, "condition is too long (at most %d characters)",
                        LOAD_TEXT_MAX - 1);
  }
  return TS_OK;
}

int load_spec_parse(const char *text, load_spec *out, ts_err *err) {
  char accepted[400];
  memset(out, 0, sizeof *out);
  if (!text || !*text) {
    syntax(accepted, sizeof accepted);
    return ts_err_set(err, TS_EUSAGE, "empty condition (%s)", accepted);
  }
  if (strncmp(text, "baseline", 8) == 0) {
    /* "baseline-LABEL" is a second baseline under another name: an A/A test of the noise. */
    const char *label = text + 8;
    if (*label == '-' && label[1]) {
      for (const char *c = label + 1; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9')))
          return ts_err_set(err, TS_EUSAGE,
                            "'%s': a baseline label has only a-z and 0-9 (e.g. baseline-b)", text);
      if (strlen(text) >= sizeof out->text)
        return ts_err_set(err, TS_EUSAGE, "'%s' is too long", text);
    } else if (*label) {
      syntax(accepted, sizeof accepted);
      return ts_err_set(err, TS_EUSAGE, "'%s' is not a condition (%s)", text, accepted);
    }
    snprintf(out->text, sizeof out->text, "%s", text);
    return TS_OK;
  }
  const char *p = text;
  for (;;) {
    const char *plus = strchr(p, '+');
    size_t len = plus ? (size_t)(plus - p) : strlen(p);
    if (len == 0) {
      syntax(accepted, sizeof accepted);
      return ts_err_set(err, TS_EUSAGE, "empty part in condition '%s' (%s)", text, accepted);
    }
    if (out->part_count == LOAD_MAX_PARTS)
      return ts_err_set(err, TS_EUSAGE, "condition '%s' has more than %d parts", text,
                        LOAD_MAX_PARTS);
    int rc = parse_part(p, len, &out->parts[out->part_count], err);
    if (rc != TS_OK)
      return rc;
    out->part_count++;
    if (!plus)
      break;
    p = plus + 1;
  }
  return load_spec_format(out, err);
}

/* ---- what a spec asks for
 * ------------------------------------------------------------------------ */

long load_spec_threads(const load_spec *spec) {
  long n = 0;
  for (int i = 0; i < spec->part_count; i++)
    if (!spec->parts[i].scenario->creates_processes)
      n += spec->parts[i].count;
  return n;
}

long load_spec_processes(const load_spec *spec) {
  long n = 0;
  for (int i = 0; i < spec->part_count; i++)
    if (spec->parts[i].scenario->creates_processes)
      n += spec->parts[i].count;
  return n;
}

double load_part_wakeups_per_s(const load_part *part) {
  return part->scenario->wakeups_per_s ? part->scenario->wakeups_per_s(part) : 0;
}

double load_part_cpu_share(const load_part *part) {
  return part->scenario->cpu_share ? part->scenario->cpu_share(part) : 0;
}

plat_resolution load_spec_resolution(const load_spec *spec) {
  for (int i = 0; i < spec->part_count; i++) {
    const load_part *part = &spec->parts[i];
    if (part->scenario->resolution && part->scenario->resolution(part) == PLAT_RESOLUTION_HIGH)
      return PLAT_RESOLUTION_HIGH;
  }
  return PLAT_RESOLUTION_DEFAULT;
}
