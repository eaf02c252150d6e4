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
   `scenario-option: NAME|KEY|ACCEPTED` per option it takes. Everything the engine exposes of its
   scenarios is walked here and only here: the help of the options (load_options_help) and which
   scenario takes which (scenario_def.options, keyed as engine.c's option table keys them). */
static void add_scenarios(request *r) {
  static const struct {
    const char *key;
    unsigned flag; /* 0: every scenario takes it */
  } option_flags[] = {
      {"count", 0},
      {"interval", LOAD_OPT_INTERVAL},
      {"kind", LOAD_OPT_KIND},
      {"stack", LOAD_OPT_STACK},
      {"priority", LOAD_OPT_PRIORITY},
      {"ramp", LOAD_OPT_RAMP},
      {"phase", LOAD_OPT_PHASE},
      {"timer", LOAD_OPT_TIMER},
      {"check", LOAD_OPT_CHECK},
      {"resolution", LOAD_OPT_RESOLUTION},
      {"duty", LOAD_OPT_DUTY},
      {"period", LOAD_OPT_DUTY},
  };
  char listing[4096], accepted[512];
  load_options_help(listing, sizeof listing);
  for (size_t i = 0; scenario_table[i]; i++) {
    const scenario_def *sc = scenario_table[i];
    proto_addf(r->out, &r->err, "scenario", "%s|%s", sc->name, sc->help);
    add_unavailable(r, "scenario-unavailable", sc->name, sc->unavailable_reason);
    for (size_t k = 0; k < sizeof option_flags / sizeof option_flags[0]; k++) {
      if (option_flags[k].flag && !(sc->options & option_flags[k].flag))
        continue;
      listed_help(listing, option_flags[k].key, accepted, sizeof accepted);
      if (option_flags[k].flag == LOAD_OPT_KIND && sc->kinds) {
        /* The generic help says "see the scenario": the scenario's own kinds instead. */
        size_t used = (size_t)snprintf(accepted, sizeof accepted, "what the threads wait on:");
        for (size_t j = 0; sc->kinds[j] && used < sizeof accepted; j++)
          used += (size_t)snprintf(accepted + used, sizeof accepted - used, "%s %s%s", j ? "," : "",
                                   sc->kinds[j], j ? "" : " (default)");
      }
      proto_addf(r->out, &r->err, "scenario-option", "%s|%s|%s", sc->name, option_flags[k].key,
                 accepted);
    }
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
