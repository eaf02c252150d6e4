/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* burn.c - the burn scenario: threads (one per logical CPU unless a count is given) that each spin
   DUTY of every PERIOD and sleep the rest, all in step: a load whose cost is known, the
   experiment's positive control. */
#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine.h"
#include "threadsoup/units.h"

/* The burn options, where its rows keep them in a part. */
typedef struct burn_params {
  int duty_permille; /* tenths of a percent of each period spent spinning, 1-1000; 0: not given */
  uint64_t period_ns;
} burn_params;
_Static_assert(sizeof(burn_params) <= LOAD_PARAMS_MAX, "burn_params fits in a load_part");

/* A duty such as "10%" or "2.5%": 0.1 % to 100 % in steps of 0.1 %. The '%' is required, so
   that burn:4 is not taken for four of something. */
static int parse_duty(load_part *part, const char *v, const char *what, ts_err *err) {
  static const char accepted[] = "accepted: 0.1% to 100% in steps of 0.1%, e.g. burn:10%";
  size_t n = strlen(v);
  char number[32];
  if (n < 2 || n >= sizeof number || v[n - 1] != '%' ||
      !((v[0] >= '0' && v[0] <= '9') || v[0] == '.'))
    return ts_err_set(err, TS_EUSAGE, "%s: '%s' is not a percentage (%s)", what, v, accepted);
  memcpy(number, v, n - 1);
  number[n - 1] = '\0';
  char *end;
  double percent = strtod(number, &end);
  if (*end || end == number || !(percent >= 0))
    return ts_err_set(err, TS_EUSAGE, "%s: '%s' is not a percentage (%s)", what, v, accepted);
  double permille = percent * 10;
  if (permille < 1 - 1e-9 || permille > 1000 + 1e-9)
    return ts_err_set(err, TS_EUSAGE, "%s: %s is out of range (%s)", what, v, accepted);
  long whole = lround(permille);
  if (fabs(permille - (double)whole) > 1e-6)
    return ts_err_set(err, TS_EUSAGE, "%s: %s is finer than 0.1%% (%s)", what, v, accepted);
  ((burn_params *)(void *)part->params.bytes)->duty_permille = (int)whole;
  return TS_OK;
}

/* The duty as it is written: 100 gives "10%", 25 "2.5%". */
static void format_duty(const load_part *part, char *buf, size_t len) {
  int permille = LOAD_PARAMS(part, burn_params)->duty_permille;
  if (permille % 10 == 0)
    snprintf(buf, len, "%d%%", permille / 10);
  else
    snprintf(buf, len, "%d.%d%%", permille / 10, permille % 10);
}

/* The period: at least 1 ms (a shorter one is mostly timer lateness), at most 1 s (longer bursts
   are no longer a steady share of a core). */
static const load_option burn_options[] = {
    LOAD_CUSTOM("duty", LOAD_PLACE_FIRST, burn_params, duty_permille, int, "10%",
                "share of each period spent spinning, 0.1% to 100%", parse_duty, format_duty),
    LOAD_DURATION("period", LOAD_PLACE_AT, burn_params, period_ns, (double)TS_NS_PER_MS,
                  (double)TS_NS_PER_S, "10ms", "the period, 1ms to 1s (default 10ms)"),
    LOAD_OPTIONS_END,
};

typedef struct burn_group burn_group;

/* One per thread; plat_thread first, as load_start_threads requires. */
typedef struct burn_slot {
  plat_thread thread;
  burn_group *group;
  plat_sleeper sleeper; /* made before the thread starts, freed after it is joined */
  atomic_int done;      /* set by the thread as it ends: no more wakes needed */
} burn_slot;

struct burn_group {
  atomic_int stop;
  load_part part;
  uint64_t epoch_ns; /* every burner's periods count from here, so all spin at once */
  long started;
  plat_stacks *stacks; /* the threads' stacks, freed after the last join */
  burn_slot slots[];
};

static int stopping(const burn_group *group) {
  return atomic_load_explicit(&group->stop, memory_order_relaxed);
}

static void burn_thread(void *arg) {
  burn_slot *slot = arg;
  burn_group *group = slot->group;
  const load_part *part = &group->part;
  /* Windows 11 runs a background service's threads under EcoQoS (power throttling) on hybrid
     CPUs: lower clocks, efficiency cores. A throttled burner would cost less than its duty says,
     so burners opt out as the benchmark threads do, and are spread over every processor group.
     The --priority asked for is applied after (the opt-out sets normal priority). */
  char state[PLAT_BENCH_TEXT_MAX];
  plat_bench_thread_begin(state, sizeof state);
  plat_bench_thread_spread((long)(slot - group->slots));
  load_thread_begin(part);
  ts_err ignored; /* a refused timer slack only makes the sleeps less exact */
  plat_sleeper_enter(&slot->sleeper, &ignored);
  const burn_params *params = LOAD_PARAMS(part, burn_params);
  const uint64_t period = params->period_ns, epoch = group->epoch_ns;
  const uint64_t spin = period * (uint64_t)params->duty_permille / 1000;
  uint64_t next = 0; /* the period the last sleep was for */
  while (!stopping(group)) {
    uint64_t now = plat_clock_ns();
    uint64_t k = (now - epoch) / period;
    if (k < next)
      k = next; /* woken a little early: still the period it slept until */
    uint64_t end = epoch + (k + 1) * period;
    /* The spin counts from this wake-up, not from the period's start, capped at the period's
       end: counted from the start, every wake-up's lateness would come out of the spin (2 %
       then cost 0.8 % of a core). A wake-up later than a whole period skips the missed ones.
       It lasts until the thread has had DUTY of the period in CPU time, not in wall time: a
       benchmark thread on the same core shares it fairly with the spinner, and a wall-time spin
       would then take only about half its duty from the benchmark (burn:50 % measured -10 to
       -33 % against builtin-st on 2 cores). Without a precise thread clock, wall time. */
    uint64_t cpu_start = plat_thread_spin_ns();
    for (;;) {
      uint64_t t = plat_clock_ns();
      if (t >= end || stopping(group))
        break;
      if (cpu_start ? plat_thread_spin_ns() - cpu_start >= spin : t - now >= spin)
        break;
    }
    next = k + 1;
    if (!stopping(group) && plat_clock_ns() < end)
      plat_sleeper_sleep_until_ns(&slot->sleeper, end);
  }
  atomic_store(&slot->done, 1);
}

static void burn_stop(void *instance) {
  burn_group *group = instance;
  if (!group)
    return;
  atomic_store(&group->stop, 1);
  /* Spinners see the flag at once; sleepers are woken instead of waiting out their period. */
  load_wake_and_join(group->slots, sizeof(burn_slot), offsetof(burn_slot, done), group->started);
  for (long i = 0; i < group->part.count; i++)
    plat_sleeper_free(&group->slots[i].sleeper);
  plat_stacks_free(group->stacks);
  free(group);
}

static int burn_start(const load_part *part, const plat_cancel *cancel, void **instance,
                      ts_err *err) {
  *instance = NULL;
  burn_group *group = calloc(1, sizeof *group + (size_t)part->count * sizeof(burn_slot));
  if (!group)
    return ts_err_set(err, TS_ENOMEM, "burn: no memory for %ld threads", part->count);
  atomic_init(&group->stop, 0);
  group->part = *part;
  group->epoch_ns = plat_clock_ns();
  /* High-resolution timers, so each burner wakes at its period's start and not a tick later
     (Windows' default tick is 15.6 ms, longer than the default period); where there are none
     the default sleep still works: the spin counts from the wake-up. */
  plat_resolution want = PLAT_RESOLUTION_HIGH;
  for (long i = 0; i < part->count; i++) {
    group->slots[i].group = group;
    atomic_init(&group->slots[i].done, 0);
    int rc = plat_sleeper_init(&group->slots[i].sleeper, want, err);
    if (rc == TS_EUNSUPPORTED) {
      want = PLAT_RESOLUTION_DEFAULT;
    } else if (rc != TS_OK) {
      ts_err_prefix(err, "burn: sleeper %ld of %ld", i + 1, part->count);
      burn_stop(group);
      return rc;
    }
    group->slots[i].sleeper.asked = PLAT_RESOLUTION_HIGH;
  }
  int rc = load_start_threads(part, cancel, group->slots, sizeof(burn_slot), burn_thread,
                              &group->stacks, &group->started, err);
  if (rc != TS_OK) {
    burn_stop(group);
    return rc;
  }
  *instance = group;
  return TS_OK;
}

/* Each thread takes its duty of a CPU. */
static double burn_cpu_share(const load_part *part) {
  return LOAD_PARAMS(part, burn_params)->duty_permille / 1000.0;
}

const scenario_def scenario_burn = {
    .name = "burn",
    .help = "threads (one per logical CPU, or --count) that each spin DUTY of every PERIOD "
            "(default 10ms) and sleep the rest, all in step: burn:10% costs 10 % of every core; "
            "the positive control of an experiment",
    .options = burn_options,
    .engine_options = LOAD_THREAD_OPTIONS,
    .count_per_cpu = 1,
    .cpu_share = burn_cpu_share,
    .start = burn_start,
    .stop = burn_stop,
};
