/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* probe.c - the timer probe: what a sleeper of either resolution gets on this machine (the OS's
   timer resolution as its thread sees it, and how late 1 ms sleeps end), for each trial and for
   threadsoup load. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "threadsoup/units.h"

#define PROBE_MAX_SAMPLES 64

typedef struct probe_context {
  plat_resolution want;
  int samples;
  load_timer_probe *out;
  int rc;
  ts_err err;
} probe_context;

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* A sleeper of its own, made as the load's are, on a thread of its own (Linux's timer slack
   belongs to the thread: the caller's is left alone). */
static void probe_thread(void *arg) {
  probe_context *c = arg;
  load_timer_probe *out = c->out;
  plat_sleeper sleeper;
  ts_err why;
  int rc = plat_sleeper_init(&sleeper, c->want, &why);
  if (rc == TS_EUNSUPPORTED) {
    snprintf(out->note, sizeof out->note, "%s", why.text);
  } else if (rc != TS_OK) {
    c->rc = rc;
    c->err = why;
    return;
  }
  sleeper.asked = c->want;
  if (plat_sleeper_enter(&sleeper, &why) != TS_OK && !out->note[0])
    snprintf(out->note, sizeof out->note, "%s", why.text);
  out->obtained = sleeper.obtained;
  if (plat_timer_resolution(&out->info, &why) != TS_OK && !out->note[0])
    snprintf(out->note, sizeof out->note, "timer resolution not known: %s", why.text);
  double late[PROBE_MAX_SAMPLES];
  int n = 0;
  for (int i = 0; i < c->samples && i < PROBE_MAX_SAMPLES; i++) {
    uint64_t t0 = plat_clock_ns();
    if (plat_sleeper_sleep_ns(&sleeper, TS_NS_PER_MS))
      continue; /* woken by something else: not a timer's lateness */
    uint64_t took = plat_clock_ns() - t0;
    late[n++] = took > TS_NS_PER_MS ? (double)(took - TS_NS_PER_MS) / 1e3 : 0;
  }
  if (n > 0) {
    qsort(late, (size_t)n, sizeof late[0], compare_double);
    out->overshoot_us = n % 2 ? late[n / 2] : (late[n / 2 - 1] + late[n / 2]) / 2;
  }
  plat_sleeper_free(&sleeper);
}

int load_timer_probe_run(plat_resolution resolution, int samples, load_timer_probe *out,
                         ts_err *err) {
  memset(out, 0, sizeof *out);
  out->obtained = PLAT_RESOLUTION_DEFAULT;
  out->info.current_us = out->info.finest_us = out->info.coarsest_us = out->info.slack_us = -1;
  out->overshoot_us = -1;
  probe_context c = {resolution, samples, out, TS_OK, {0}};
  uint64_t t0 = plat_clock_ns();
  plat_thread thread;
  int rc = plat_thread_start(&thread, 0, probe_thread, &c, err);
  if (rc != TS_OK)
    return rc;
  plat_thread_join(thread);
  out->cost_ns = plat_clock_ns() - t0;
  if (c.rc != TS_OK) {
    *err = c.err;
    return c.rc;
  }
  return TS_OK;
}
