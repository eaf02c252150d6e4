/* engine.c - parses load specifications and runs their scenarios as one load. */
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threadsoup/parse.h"

struct load {
  int part_count;
  const scenario_def *scenarios[LOAD_MAX_PARTS];
  void *instances[LOAD_MAX_PARTS];
};

static const char load_syntax[] =
    "accepted: baseline, or SCENARIO:COUNT[@INTERVAL] joined with '+', e.g. sleep:1500@500ms";

/* Parses one "name:count[@interval]" of length len. */
static int parse_part(const char *text, size_t len, load_part *out, ts_err *err) {
  char buf[LOAD_TEXT_MAX];
  if (len >= sizeof buf)
    return ts_err_set(err, TS_EUSAGE, "load '%.*s' is too long", (int)len, text);
  memcpy(buf, text, len);
  buf[len] = '\0';

  char *colon = strchr(buf, ':');
  size_t name_len = colon ? (size_t)(colon - buf) : strlen(buf);
  const scenario_def *sc = scenario_find(buf, name_len);
  if (!sc) {
    char names[256];
    scenario_names(names, sizeof names);
    return ts_err_set(err, TS_EUSAGE, "unknown scenario '%.*s' in '%s' (known: %s; %s)",
                      (int)name_len, buf, buf, names, load_syntax);
  }
  if (!colon)
    return ts_err_set(err, TS_EUSAGE, "'%s' needs a count, e.g. %s:1500 (%s)", buf, sc->name,
                      load_syntax);
  memset(out, 0, sizeof *out);
  out->scenario = sc;
  out->interval_ns = sc->default_interval_ns;

  char *count_text = colon + 1;
  char *at = strchr(count_text, '@');
  if (at)
    *at = '\0';
  char what[LOAD_TEXT_MAX + 16];
  snprintf(what, sizeof what, "count of '%s'", sc->name);
  int rc = parse_long(count_text, 1, LOAD_MAX_COUNT, what, &out->count, err);
  if (rc != TS_OK)
    return rc;
  if (at) {
    if (!sc->takes_interval)
      return ts_err_set(err, TS_EUSAGE, "scenario '%s' takes no @INTERVAL", sc->name);
    snprintf(what, sizeof what, "interval of '%s'", sc->name);
    rc = parse_duration(at + 1, 1000000ull, 3600000000000ull, what, &out->interval_ns, err);
    if (rc != TS_OK)
      return rc;
  }
  return TS_OK;
}

static void format_part(const load_part *p, char *buf, size_t len) {
  if (p->scenario->takes_interval) {
    char interval[32];
    format_duration(p->interval_ns, interval, sizeof interval);
    snprintf(buf, len, "%s:%ld@%s", p->scenario->name, p->count, interval);
  } else {
    snprintf(buf, len, "%s:%ld", p->scenario->name, p->count);
  }
}

int load_spec_parse(const char *text, load_spec *out, ts_err *err) {
  memset(out, 0, sizeof *out);
  if (!text || !*text)
    return ts_err_set(err, TS_EUSAGE, "empty condition (%s)", load_syntax);
  if (strcmp(text, "baseline") == 0) {
    snprintf(out->text, sizeof out->text, "baseline");
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
  size_t used = 0;
  for (int i = 0; i < out->part_count; i++) {
    char part[LOAD_TEXT_MAX];
    format_part(&out->parts[i], part, sizeof part);
    int n = snprintf(out->text + used, sizeof out->text - used, "%s%s", i ? "+" : "", part);
    if (n < 0 || (size_t)n >= sizeof out->text - used)
      return ts_err_set(err, TS_EUSAGE, "condition '%s' is too long", text);
    used += (size_t)n;
  }
  return TS_OK;
}

long load_spec_threads(const load_spec *spec) {
  long n = 0;
  for (int i = 0; i < spec->part_count; i++)
    n += spec->parts[i].count;
  return n;
}

int load_start(const load_spec *spec, load **out, ts_err *err) {
  *out = NULL;
  load *l = calloc(1, sizeof *l);
  if (!l)
    return ts_err_set(err, TS_ENOMEM, "no memory to start load '%s'", spec->text);
  for (int i = 0; i < spec->part_count; i++) {
    const load_part *part = &spec->parts[i];
    int rc = part->scenario->start(part, &l->instances[i], err);
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
