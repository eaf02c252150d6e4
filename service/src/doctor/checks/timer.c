/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* timer.c - the timer check: 100 sleeps of 1 ms on a plain thread, the timer resolution
   sleepers get. */
#include <math.h>
#include <stdlib.h>

#include "../checks.h"
#include "../probe.h"
#include "threadsoup/units.h"

#define TIMER_SLEEPS 100

typedef struct timer_probe {
  double took_ns[TIMER_SLEEPS];
} timer_probe;

static void timer_thread(void *arg) {
  timer_probe *p = arg;
  for (int i = 0; i < TIMER_SLEEPS; i++) {
    uint64_t t0 = plat_clock_ns();
    plat_sleep_ns(TS_NS_PER_MS);
    p->took_ns[i] = (double)(plat_clock_ns() - t0);
  }
}

void doctor_judge_timer(double median_ns, double p90_ns, int sleeps, doctor_finding *out) {
  double median = median_ns / TS_NS_PER_MS, p90 = p90_ns / TS_NS_PER_MS;
  /* A sleeper on a 1 ms (or finer) timer wakes within 2 ms; Windows' default 15.6 ms tick, or a
     Linux timer slack raised by hand, shows as a median of a tick. */
  doctor_set(out, median <= 2.0 ? DOCTOR_OK : DOCTOR_WARN, median,
             median <= 2.0
                 ? ""
                 : "sleepers wake on the system timer's ticks: intervals run long and phases "
                   "spread over an interval fall into interval/tick slots. Results hold for this "
                   "resolution (stored with each trial); compare runs only at the same "
                   "resolution, or give sleep conditions /resolution=high (--resolution high) "
                   "to sleep as modern runtimes do",
             "a 1 ms sleep took %.2f ms (median), %.2f ms (90th percentile) over %d sleeps of a "
             "plain thread",
             median, p90, sleeps);
}

static void check_timer(const doctor_context *ctx, doctor_finding *out) {
  timer_probe *p = calloc(1, sizeof *p);
  plat_thread t;
  ts_err err;
  if (!p || plat_thread_start(&t, 0, timer_thread, p, &err) != TS_OK) {
    doctor_set(out, DOCTOR_FAIL, NAN, "free memory or threads and run the doctor again",
               "cannot start the sleeper thread: %s", p ? err.text : "no memory");
    free(p);
    return;
  }
  plat_thread_join(t);
  qsort(p->took_ns, TIMER_SLEEPS, sizeof p->took_ns[0], doctor_compare_doubles);
  doctor_judge_timer(p->took_ns[TIMER_SLEEPS / 2], p->took_ns[TIMER_SLEEPS * 9 / 10], TIMER_SLEEPS,
                     out);
  free(p);
  if (doctor_wine(ctx))
    doctor_add_measured(out, "; Wine sleeps on the host's timers, not on Windows' 15.6 ms tick: a "
                             "Windows PC may show 15.6 ms");
}

const doctor_check doctor_check_timer = {
    "timer", "a 1 ms sleep wakes within 2 ms (the timer resolution sleepers get)", DOCTOR_CHEAP,
    check_timer};
