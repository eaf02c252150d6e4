/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* catalog.c - the `catalog` request: the plan presets, load scenarios (with their options) and
   benchmarks (with whether they can run here) of this service, so that clients (the tray's menus
   and dialogs) offer what the service has instead of a copy of its lists. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

#include "../bench/bench.h"

/* The text after `name` on its line of a help listing ("  NAME     HELP" lines), or "". */
static void listed_help(const char *listing, const char *name, char *out, size_t len) {
  size_t n = strlen(name);
  out[0] = '\0';
  for (const char *line = listing; line && *line;) {
    const char *end = strchr(line, '\n');
    const char *p = line;
    while (*p == ' ')
      p++;
    if (strncmp(p, name, n) == 0 && (p[n] == ' ' || p[n] == '\n' || p[n] == '\0')) {
      p += n;
      while (*p == ' ')
        p++;
      int help_len = end ? (int)(end - p) : (int)strlen(p);
      snprintf(out, len, "%.*s", help_len < 0 ? 0 : help_len, p);
      return;
    }
    line = end ? end + 1 : NULL;
  }
}

/* `KEY: NAME|REASON` when `unavailable_reason` (NULL for none) says why NAME cannot run here. */
static void add_unavailable(request *r, const char *key, const char *name,
                            const char *(*unavailable_reason)(void)) {
  const char *why = unavailable_reason ? unavailable_reason() : NULL;
  if (why)
    proto_addf(r->out, &r->err, key, "%s|%s", name, why);
}

/* `preset: NAME|HELP` in the presets' order, and `preset-default: NAME`. */
static void add_presets(request *r) {
  char listing[4096], help[512];
  plan_preset_help(listing, sizeof listing);
  for (size_t i = 0; plan_preset_name(i); i++) {
    listed_help(listing, plan_preset_name(i), help, sizeof help);
    proto_addf(r->out, &r->err, "preset", "%s|%s", plan_preset_name(i), help);
  }
  proto_add(r->out, "preset-default", plan_default_preset(), &r->err);
}

/* `scenario: NAME|HELP`, `scenario-unavailable: NAME|REASON` when it cannot run here, and
   `scenario-option: NAME|KEY|ACCEPTED` per option it takes, from its own option rows (the engine's
   and the scenario's, load_option_at) with their help. */
static void add_scenarios(request *r) {
  for (size_t i = 0; scenario_table[i]; i++) {
    const scenario_def *sc = scenario_table[i];
    proto_addf(r->out, &r->err, "scenario", "%s|%s", sc->name, sc->help);
    add_unavailable(r, "scenario-unavailable", sc->name, sc->unavailable_reason);
    const load_option *o;
    for (size_t k = 0; (o = load_option_at(sc, k)) != NULL; k++)
      proto_addf(r->out, &r->err, "scenario-option", "%s|%s|%s", sc->name, o->name,
                 o->help ? o->help : "");
  }
}

/* `bench: NAME|HELP`, and `bench-unavailable: NAME|REASON` when it cannot run here. */
static void add_benches(request *r) {
  for (size_t i = 0; bench_table[i]; i++) {
    const bench_def *b = bench_table[i];
    proto_addf(r->out, &r->err, "bench", "%s|%s", b->name, b->help);
    add_unavailable(r, "bench-unavailable", b->name, b->unavailable_reason);
  }
}

int handle_catalog(request *r) {
  add_presets(r);
  add_scenarios(r);
  add_benches(r);
  return TS_OK;
}
