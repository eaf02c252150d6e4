/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* engine.c - parses load specifications, and starts and stops their scenarios as one load. */
#include "engine.h"

#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threadsoup/buf.h"
#include "threadsoup/parse.h"
#include "threadsoup/units.h"

struct load {
  int part_count;
  const scenario_def *scenarios[LOAD_MAX_PARTS];
  void *instances[LOAD_MAX_PARTS];
};

static const char load_syntax[] =
    "accepted: baseline[-LABEL], or SCENARIO:COUNT[@INTERVAL][:KIND][/KEY=VALUE]... joined with "
    "'+', "
    "e.g. sleep:1500@500ms or wait:1000:address; burn:DUTY[@PERIOD][/count=N], e.g. burn:10%";

/* burn's period: at least 1 ms (a shorter one is mostly timer lateness), at most 1 s (longer
   bursts are no longer a steady share of a core). */
#define DUTY_PERIOD_MIN_NS TS_NS_PER_MS
#define DUTY_PERIOD_MAX_NS TS_NS_PER_S

/* ---- options --------------------------------------------------------------------------------- */

static const char *const priority_names[] = {"idle", "low", "normal", "high", NULL};
static const char *const phase_names[] = {"spread", "sync", NULL};
static const char *const timer_names[] = {"relative", "absolute", NULL};
static const char *const resolution_names[] = {"default", "high", NULL};

static int name_index(const char *const *names, const char *value) {
  for (int i = 0; names[i]; i++)
    if (strcmp(names[i], value) == 0)
      return i;
  return -1;
}

static void join_names(const char *const *names, char *buf, size_t len) {
  ts_buf joined = ts_buf_on(buf, len);
  for (int i = 0; names[i]; i++)
    ts_buf_item(&joined, ", ", names[i]);
}

static int set_choice(const load_part *part, const char *key, const char *const *names,
                      const char *value, int *out, ts_err *err) {
  int i = value ? name_index(names, value) : -1;
  if (i < 0) {
    char accepted[256];
    join_names(names, accepted, sizeof accepted);
    return ts_err_set(err, TS_EUSAGE, "%s of '%s': '%s' is not accepted (accepted: %s)", key,
                      part->scenario->name, value ? value : "", accepted);
  }
  *out = i;
  return TS_OK;
}

static int set_count(load_part *p, const char *v, ts_err *err) {
  char what[64];
  snprintf(what, sizeof what, "count of '%s'", p->scenario->name);
  int rc = parse_long(v, 1, LOAD_MAX_COUNT, what, &p->count, err);
  if (rc == TS_OK)
    p->count_auto = 0;
  return rc;
}

static int set_interval(load_part *p, const char *v, ts_err *err) {
  char what[64];
  if (p->scenario->options & LOAD_OPT_DUTY) {
    snprintf(what, sizeof what, "period of '%s'", p->scenario->name);
    return parse_duration(v, DUTY_PERIOD_MIN_NS, DUTY_PERIOD_MAX_NS, what, &p->interval_ns, err);
  }
  snprintf(what, sizeof what, "interval of '%s'", p->scenario->name);
  return parse_duration(v, TS_NS_PER_MS, TS_NS_PER_HOUR, what, &p->interval_ns, err);
}

/* A duty such as "10%" or "2.5%": 0.1 % to 100 % in steps of 0.1 %. The '%' is required, so
   that burn:4 is not taken for four of something. */
static int set_duty(load_part *p, const char *v, ts_err *err) {
  static const char accepted[] = "accepted: 0.1% to 100% in steps of 0.1%, e.g. burn:10%";
  const char *name = p->scenario->name;
  size_t n = v ? strlen(v) : 0;
  char number[32];
  if (n < 2 || n >= sizeof number || v[n - 1] != '%' ||
      !((v[0] >= '0' && v[0] <= '9') || v[0] == '.'))
    return ts_err_set(err, TS_EUSAGE, "duty of '%s': '%s' is not a percentage (%s)", name,
                      v ? v : "", accepted);
  memcpy(number, v, n - 1);
  number[n - 1] = '\0';
  char *end;
  double percent = strtod(number, &end);
  if (*end || end == number || !(percent >= 0))
    return ts_err_set(err, TS_EUSAGE, "duty of '%s': '%s' is not a percentage (%s)", name, v,
                      accepted);
  double permille = percent * 10;
  if (permille < 1 - 1e-9 || permille > 1000 + 1e-9)
    return ts_err_set(err, TS_EUSAGE, "duty of '%s': %s is out of range (%s)", name, v, accepted);
  long whole = lround(permille);
  if (fabs(permille - (double)whole) > 1e-6)
    return ts_err_set(err, TS_EUSAGE, "duty of '%s': %s is finer than 0.1%% (%s)", name, v,
                      accepted);
  p->duty_permille = (int)whole;
  return TS_OK;
}

void load_format_duty(int permille, char *buf, size_t len) {
  if (permille % 10 == 0)
    snprintf(buf, len, "%d%%", permille / 10);
  else
    snprintf(buf, len, "%d.%d%%", permille / 10, permille % 10);
}

static int set_kind(load_part *p, const char *v, ts_err *err) {
  return set_choice(p, "kind", p->scenario->kinds, v, &p->kind, err);
}

static int set_stack(load_part *p, const char *v, ts_err *err) {
  long min_kib = (long)(plat_thread_min_stack() / 1024), kib;
  char what[64];
  snprintf(what, sizeof what, "stack (KiB) of '%s'", p->scenario->name);
  int rc = parse_long(v, min_kib, 65536, what, &kib, err);
  if (rc == TS_OK)
    p->stack_bytes = (size_t)kib * 1024;
  return rc;
}

static int set_priority(load_part *p, const char *v, ts_err *err) {
  int i;
  int rc = set_choice(p, "priority", priority_names, v, &i, err);
  if (rc == TS_OK)
    p->priority = (plat_priority)i;
  return rc;
}

static int set_ramp(load_part *p, const char *v, ts_err *err) {
  char what[64];
  snprintf(what, sizeof what, "ramp of '%s'", p->scenario->name);
  return parse_duration(v, 0, TS_NS_PER_HOUR, what, &p->ramp_ns, err);
}

static int set_phase(load_part *p, const char *v, ts_err *err) {
  int i;
  int rc = set_choice(p, "phase", phase_names, v, &i, err);
  if (rc == TS_OK)
    p->phase = (load_phase)i;
  return rc;
}

static int set_timer(load_part *p, const char *v, ts_err *err) {
  int i;
  int rc = set_choice(p, "timer", timer_names, v, &i, err);
  if (rc == TS_OK)
    p->timer = (load_timer)i;
  return rc;
}

static int set_resolution(load_part *p, const char *v, ts_err *err) {
  int i;
  int rc = set_choice(p, "resolution", resolution_names, v, &i, err);
  if (rc == TS_OK)
    p->resolution = (plat_resolution)i;
  return rc;
}

static int set_check(load_part *p, const char *v, ts_err *err) {
  static const char *const yes_no[] = {"no", "yes", NULL};
  if (!v) {
    p->check = 1; /* a bare flag: --check, /check */
    return TS_OK;
  }
  return set_choice(p, "check", yes_no, v, &p->check, err);
}

typedef struct option_def {
  const char *key;
  unsigned flag; /* 0: every scenario takes it */
  const char *accepted;
  int (*set)(load_part *part, const char *value, ts_err *err);
} option_def;

static const option_def option_table[] = {
    {"count", 0, "how many threads or processes, 1 to 1000000", set_count},
    {"interval", LOAD_OPT_INTERVAL, "sleep time between wake-ups, 1ms to 1h (default 500ms)",
     set_interval},
    {"kind", LOAD_OPT_KIND, "what the threads wait on (see the scenario)", set_kind},
    {"stack", LOAD_OPT_STACK, "stack size in KiB (default and least: 16 POSIX, 64 Windows)",
     set_stack},
    {"priority", LOAD_OPT_PRIORITY, "idle, low, normal (default), high", set_priority},
    {"ramp", LOAD_OPT_RAMP, "create gradually over a duration such as 10s (default 0s)", set_ramp},
    {"phase", LOAD_OPT_PHASE, "spread (default: first wake-ups evenly over one interval) or sync",
     set_phase},
    {"timer", LOAD_OPT_TIMER, "relative (default: sleep the interval) or absolute (deadlines)",
     set_timer},
    {"check", LOAD_OPT_CHECK, "the loop checks the stop flag (mode 1); without it, mode 2",
     set_check},
    {"resolution", LOAD_OPT_RESOLUTION,
     "default (the OS's plain sleep, as the original) or high (high-resolution timers)",
     set_resolution},
    {"duty", LOAD_OPT_DUTY, "burn: share of each period spent spinning, 0.1% to 100%", set_duty},
    {"period", LOAD_OPT_DUTY, "burn: the period, 1ms to 1s (default 10ms)", set_interval},
};

void load_options_help(char *buf, size_t len) {
  ts_buf help = ts_buf_on(buf, len);
  for (size_t i = 0; i < sizeof option_table / sizeof option_table[0]; i++)
    ts_buf_addf(&help, "  %-10s %s\n", option_table[i].key, option_table[i].accepted);
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
  part->interval_ns = sc->default_interval_ns;
  part->priority = PLAT_PRIORITY_NORMAL;
  if (sc->options & LOAD_OPT_DUTY) {
    /* One thread per logical CPU of every processor group, until a count is given. */
    plat_sysinfo info;
    plat_sysinfo_read(&info);
    part->count = info.logical_cpus >= 1 ? info.logical_cpus : 1;
    part->count_auto = 1;
  }
  return TS_OK;
}

int load_part_set(load_part *part, const char *key, const char *value, ts_err *err) {
  for (size_t i = 0; i < sizeof option_table / sizeof option_table[0]; i++) {
    const option_def *o = &option_table[i];
    if (strcmp(o->key, key) != 0)
      continue;
    if (o->flag && !(part->scenario->options & o->flag))
      return ts_err_set(err, TS_EUSAGE, "scenario '%s' takes no %s", part->scenario->name, key);
    if (o->set != set_check && !value)
      return ts_err_set(err, TS_EUSAGE, "%s of '%s' needs a value (%s)", key, part->scenario->name,
                        o->accepted);
    return o->set(part, value, err);
  }
  return ts_err_set(err, TS_EUSAGE,
                    "unknown option '%s' for '%s' (known: count, duty, interval, period, kind, "
                    "stack, priority, ramp, phase, timer, check, resolution)",
                    key, part->scenario->name);
}

int load_part_finish(const load_part *p, char *text, size_t len, ts_err *err) {
  int duty = (p->scenario->options & LOAD_OPT_DUTY) != 0;
  if (duty && p->duty_permille <= 0)
    return ts_err_set(err, TS_EUSAGE, "'%s' needs a duty, e.g. %s:10%% or --duty 10%%",
                      p->scenario->name, p->scenario->name);
  if (p->count <= 0)
    return ts_err_set(err, TS_EUSAGE, "'%s' needs a count, e.g. %s:1500 or --count 1500",
                      p->scenario->name, p->scenario->name);
  ts_buf b = ts_buf_on(text, len);
  char duration[32];
  if (duty) {
    /* burn:DUTY@PERIOD; the count only when given, so the text means the same on any machine. */
    char share[16];
    load_format_duty(p->duty_permille, share, sizeof share);
    format_duration(p->interval_ns, duration, sizeof duration);
    ts_buf_addf(&b, "%s:%s@%s", p->scenario->name, share, duration);
    if (!p->count_auto)
      ts_buf_addf(&b, "/count=%ld", p->count);
  } else {
    ts_buf_addf(&b, "%s:%ld", p->scenario->name, p->count);
  }
  if (p->scenario->options & LOAD_OPT_INTERVAL) {
    format_duration(p->interval_ns, duration, sizeof duration);
    ts_buf_addf(&b, "@%s", duration);
  }
  if (p->scenario->options & LOAD_OPT_KIND)
    ts_buf_addf(&b, ":%s", p->scenario->kinds[p->kind]);
  if (p->stack_bytes)
    ts_buf_addf(&b, "/stack=%zu", p->stack_bytes / 1024);
  if (p->priority != PLAT_PRIORITY_NORMAL)
    ts_buf_addf(&b, "/priority=%s", priority_names[p->priority]);
  if (p->ramp_ns) {
    format_duration(p->ramp_ns, duration, sizeof duration);
    ts_buf_addf(&b, "/ramp=%s", duration);
  }
  if (p->phase != LOAD_PHASE_SPREAD)
    ts_buf_addf(&b, "/phase=%s", phase_names[p->phase]);
  if (p->timer != LOAD_TIMER_RELATIVE)
    ts_buf_addf(&b, "/timer=%s", timer_names[p->timer]);
  if (p->check)
    ts_buf_add(&b, "/check");
  if (p->resolution != PLAT_RESOLUTION_DEFAULT)
    ts_buf_addf(&b, "/resolution=%s", resolution_names[p->resolution]);
  if (b.cut)
    return ts_err_set(err, TS_EUSAGE, "load '%s:%ld…' is too long", p->scenario->name, p->count);
  return TS_OK;
}

/* ---- parsing ---- */

/* Parses one NAME:COUNT[@INTERVAL][:KIND][/KEY=VALUE]… of length len. */
static int parse_part(const char *text, size_t len, load_part *out, ts_err *err) {
  char buf[LOAD_TEXT_MAX];
  if (len >= sizeof buf)
    return ts_err_set(err, TS_EUSAGE, "load '%.*s' is too long", (int)len, text);
  memcpy(buf, text, len);
  buf[len] = '\0';

  char *options = strchr(buf, '/');
  if (options)
    *options++ = '\0';
  char *count = strchr(buf, ':');
  if (count)
    *count++ = '\0';
  int rc = load_part_init(out, buf, err);
  if (rc != TS_OK)
    return rc;
  int duty = (out->scenario->options & LOAD_OPT_DUTY) != 0;
  if (!count && duty)
    return ts_err_set(err, TS_EUSAGE, "'%s' needs a duty, e.g. %s:10%% (%s)", buf, buf,
                      load_syntax);
  if (!count)
    return ts_err_set(err, TS_EUSAGE, "'%s' needs a count, e.g. %s:1500 (%s)", buf, buf,
                      load_syntax);
  char *kind = strchr(count, ':');
  if (kind)
    *kind++ = '\0';
  char *interval = strchr(count, '@');
  if (interval)
    *interval++ = '\0';
  /* burn's slots are a duty and a period; its count is an option (/count=N). */
  rc = load_part_set(out, duty ? "duty" : "count", count, err);
  if (rc == TS_OK && interval)
    rc = load_part_set(out, duty ? "period" : "interval", interval, err);
  if (rc == TS_OK && kind)
    rc = load_part_set(out, "kind", kind, err);
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
  memset(out, 0, sizeof *out);
  if (!text || !*text)
    return ts_err_set(err, TS_EUSAGE, "empty condition (%s)", load_syntax);
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
      return ts_err_set(err, TS_EUSAGE, "'%s' is not a condition (%s)", text, load_syntax);
    }
    snprintf(out->text, sizeof out->text, "%s", text);
    return TS_OK;
  }
  const char *p = text;
  for (;;) {
    const char *plus = strchr(p, '+');
    size_t len = plus ? (size_t)(plus - p) : strlen(p);
    if (len == 0)
      return ts_err_set(err, TS_EUSAGE, "empty part in condition '%s' (%s)", text, load_syntax);
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

plat_resolution load_spec_resolution(const load_spec *spec) {
  for (int i = 0; i < spec->part_count; i++)
    if (spec->parts[i].resolution == PLAT_RESOLUTION_HIGH)
      return PLAT_RESOLUTION_HIGH;
  return PLAT_RESOLUTION_DEFAULT;
}

/* ---- running ---- */

int load_ramp_pause(const load_part *part, const plat_cancel *cancel, uint64_t started_ns,
                    long index) {
  if (part->ramp_ns == 0 || index == 0)
    return plat_cancelled(cancel);
  /* Item i is due at i/count of the ramp: a deadline, so slow creations do not add up. */
  uint64_t due =
      started_ns + (uint64_t)((double)part->ramp_ns * (double)index / (double)part->count);
  uint64_t now = plat_clock_ns();
  return due > now ? plat_cancel_wait(cancel, due - now) : plat_cancelled(cancel);
}

void load_wake_and_join(void *slots, size_t slot_size, size_t done_offset, long started) {
  /* A signal that lands between a thread's look at its flag and its sleep (or while it runs) is
     lost: such a thread is woken again, until every thread has ended (an APC is kept until the
     next alertable wait: one round). */
  for (int round = 0;; round++) {
    long left = 0;
    for (long i = 0; i < started; i++) {
      char *slot = (char *)slots + (size_t)i * slot_size;
      if (!atomic_load((atomic_int *)(void *)(slot + done_offset)) &&
          !plat_thread_wake((const plat_thread *)(void *)slot))
        left++;
    }
    if (left == 0)
      break;
    plat_sleep_ns((round < 20 ? 1 : 20) * TS_NS_PER_MS);
  }
  for (long i = 0; i < started; i++)
    plat_thread_join(*(plat_thread *)(void *)((char *)slots + (size_t)i * slot_size));
}

void load_thread_begin(const load_part *part) {
  ts_err ignored; /* checked before any thread started: see check_priority */
  plat_thread_set_priority(part->priority, &ignored);
}

int load_start_threads(const load_part *part, const plat_cancel *cancel, void *slots,
                       size_t slot_size, plat_thread_fn fn, long *started, ts_err *err) {
  uint64_t began = plat_clock_ns();
  *started = 0;
  for (long i = 0; i < part->count; i++) {
    if (load_ramp_pause(part, cancel, began, i))
      return ts_err_set(err, TS_EINTERRUPTED, "%s: interrupted after %ld of %ld threads",
                        part->scenario->name, i, part->count);
    void *slot = (char *)slots + (size_t)i * slot_size;
    int rc = plat_thread_start((plat_thread *)slot, part->stack_bytes, fn, slot, err);
    if (rc != TS_OK)
      return ts_err_prefix(err, "%s: created %ld of %ld threads, then stopped them all",
                           part->scenario->name, i, part->count);
    *started = i + 1;
  }
  return TS_OK;
}

typedef struct priority_probe {
  plat_thread thread;
  plat_priority priority;
  int rc;
  ts_err err;
} priority_probe;

static void priority_probe_thread(void *arg) {
  priority_probe *probe = arg;
  probe->rc = plat_thread_set_priority(probe->priority, &probe->err);
}

/* A priority the OS will refuse is refused before any load exists, on a throwaway thread. */
static int check_priority(const load_part *part, ts_err *err) {
  if (part->priority == PLAT_PRIORITY_NORMAL || (part->scenario->options & LOAD_OPT_PRIORITY) == 0)
    return TS_OK;
  priority_probe probe = {{0}, part->priority, TS_OK, {0, ""}};
  int rc = plat_thread_start(&probe.thread, 0, priority_probe_thread, &probe, err);
  if (rc != TS_OK)
    return rc;
  plat_thread_join(probe.thread);
  if (probe.rc != TS_OK) {
    *err = probe.err;
    return ts_err_prefix(err, "%s: priority=%s refused", part->scenario->name,
                         priority_names[part->priority]);
  }
  return TS_OK;
}

int load_start(const load_spec *spec, const plat_cancel *cancel, load **out, ts_err *err) {
  *out = NULL;
  for (int i = 0; i < spec->part_count; i++) {
    const scenario_def *sc = spec->parts[i].scenario;
    const char *why = sc->unavailable_reason ? sc->unavailable_reason() : NULL;
    if (why)
      return ts_err_set(err, TS_EUNSUPPORTED, "scenario '%s' cannot run here: %s", sc->name, why);
    int rc = check_priority(&spec->parts[i], err);
    if (rc != TS_OK)
      return rc;
  }
  load *l = calloc(1, sizeof *l);
  if (!l)
    return ts_err_set(err, TS_ENOMEM, "no memory to start load '%s'", spec->text);
  for (int i = 0; i < spec->part_count; i++) {
    const load_part *part = &spec->parts[i];
    int rc = part->scenario->start(part, cancel, &l->instances[i], err);
    if (rc != TS_OK) {
      load_stop(l);
      return rc;
    }
    l->scenarios[i] = part->scenario;
    l->part_count = i + 1;
  }
  *out = l;
  return TS_OK;
}

void load_stop(load *l) {
  if (!l)
    return;
  /* Last started, first stopped, like a stack of resources. */
  for (int i = l->part_count - 1; i >= 0; i--)
    l->scenarios[i]->stop(l->instances[i]);
  free(l);
}

void load_timer_state(const load *l, plat_resolution *asked, plat_resolution *obtained, char *note,
                      size_t len) {
  long asked_high = 0, obtained_high = 0;
  for (int i = 0; l && i < l->part_count; i++)
    if (l->scenarios[i]->timers) {
      long a = 0, o = 0;
      l->scenarios[i]->timers(l->instances[i], &a, &o);
      asked_high += a;
      obtained_high += o;
    }
  *asked = asked_high > 0 ? PLAT_RESOLUTION_HIGH : PLAT_RESOLUTION_DEFAULT;
  *obtained = asked_high > 0 && obtained_high == asked_high ? PLAT_RESOLUTION_HIGH
                                                            : PLAT_RESOLUTION_DEFAULT;
  if (note && len > 0) {
    note[0] = '\0';
    if (obtained_high < asked_high)
      snprintf(note, len,
               "high timer resolution: %ld of %ld sleepers got it, the rest sleep at the "
               "system's resolution",
               obtained_high, asked_high);
  }
}

long load_count_children(void) { return load_count_children_of(plat_self_pid(), NULL); }

long load_count_children_of(long parent, const char *name) {
  plat_process_census *list;
  long count = 0, children = 0;
  ts_err err;
  if (plat_census_processes(&list, &count, &err) != TS_OK)
    return -1;
  for (long i = 0; i < count; i++)
    children += list[i].parent_pid == parent && (!name || strstr(list[i].name, name));
  free(list);
  return children;
}
