/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_engine_burn.c - the burn scenario: its specification (every bad input named with what is
   accepted), one thread per logical CPU as the OS counts them, a prompt stop, and its CPU cost
   through the OS where the machine is quiet enough to tell. */
#ifndef _WIN32
#define _DEFAULT_SOURCE /* getloadavg */
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/engine.h"
#include "threadsoup/parse.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

static int logical_cpus(void) {
  plat_sysinfo info;
  plat_sysinfo_read(&info);
  return info.logical_cpus;
}

static void good_specs_read_back(void) {
  static const struct {
    const char *text, *canonical;
    long count; /* 0: one per logical CPU */
    int permille;
    uint64_t period_ms;
  } cases[] = {
      {"burn:10%", "burn:10%@10ms", 0, 100, 10},
      {"burn:10%@20ms", "burn:10%@20ms", 0, 100, 20},
      {"burn:2.5%@1s/count=3", "burn:2.5%@1s/count=3", 3, 25, 1000},
      {"burn:0.1%@1ms", "burn:0.1%@1ms", 0, 1, 1},
      {"burn:100%/count=1/priority=low", "burn:100%@10ms/count=1/priority=low", 1, 1000, 10},
      {"burn:50%@500ms+sleep:10", "burn:50%@500ms+sleep:10@500ms", 0, 500, 500},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    load_spec spec;
    ts_err err;
    fprintf(stderr, "  %s\n", cases[i].text);
    CHECK_INT(load_spec_parse(cases[i].text, &spec, &err), TS_OK);
    CHECK(strcmp(spec.text, cases[i].canonical) == 0);
    const load_part *p = &spec.parts[0];
    CHECK(fabs(load_part_cpu_share(p) - cases[i].permille / 1000.0) < 1e-12);
    char period[40], at[48];
    ts_format_duration(cases[i].period_ms * TS_NS_PER_MS, period, sizeof period);
    snprintf(at, sizeof at, "@%s", period);
    CHECK_STR_CONTAINS(spec.text, at);
    CHECK_INT(p->count, cases[i].count ? cases[i].count : logical_cpus());
    CHECK_INT(p->count_auto, cases[i].count == 0);
    /* The canonical text reads back as itself. */
    load_spec again;
    CHECK_INT(load_spec_parse(spec.text, &again, &err), TS_OK);
    CHECK(strcmp(again.text, spec.text) == 0);
  }
}

static void bad_specs_name_the_value_and_the_range(void) {
  static const struct {
    const char *text, *value, *accepted;
  } cases[] = {
      {"burn:0%", "0%", "0.1% to 100%"},
      {"burn:abc", "'abc'", "0.1% to 100%"},
      {"burn:4", "'4'", "0.1% to 100%"},
      {"burn:-5%", "'-5%'", "0.1% to 100%"},
      {"burn:101%", "101%", "0.1% to 100%"},
      {"burn:2.55%", "2.55%", "steps of 0.1%"},
      {"burn:10%@0ms", "0ms", "1ms to 1s"},
      {"burn:10%@2h", "2h", "1ms to 1s"},
      {"burn:10%@soon", "'soon'", "1ms to 1s"},
      {"burn:10%/count=0", "0", "1 to 1000000"},
      {"burn", "needs a duty", "burn:10%"},
      {"burn:10%/interval=5ms", "takes no interval", "burn"},
      {"burn:10%:event", "takes no kind", "burn"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    load_spec spec;
    ts_err err;
    fprintf(stderr, "  %s\n", cases[i].text);
    CHECK_INT(load_spec_parse(cases[i].text, &spec, &err), TS_EUSAGE);
    CHECK_STR_CONTAINS(err.text, cases[i].value);
    CHECK_STR_CONTAINS(err.text, cases[i].accepted);
  }
}

/* The command line's way: a scenario by name, then its options one by one. */
static void options_one_by_one(void) {
  load_part part;
  ts_err err;
  char text[LOAD_TEXT_MAX];
  CHECK_INT(load_part_init(&part, "burn", &err), TS_OK);
  CHECK_INT(load_part_finish(&part, text, sizeof text, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "'burn' needs a duty");
  CHECK_INT(load_part_set(&part, "duty", "25%", &err), TS_OK);
  CHECK_INT(load_part_set(&part, "period", "20ms", &err), TS_OK);
  CHECK_INT(load_part_finish(&part, text, sizeof text, &err), TS_OK);
  CHECK(strcmp(text, "burn:25%@20ms") == 0);
  CHECK_INT(load_part_set(&part, "count", "2", &err), TS_OK);
  CHECK_INT(load_part_finish(&part, text, sizeof text, &err), TS_OK);
  CHECK(strcmp(text, "burn:25%@20ms/count=2") == 0);
  CHECK_INT(load_part_set(&part, "period", "5s", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "period of 'burn': 5s is out of range (accepted: 1ms to 1s)");
  /* Other scenarios take no duty. */
  CHECK_INT(load_part_init(&part, "sleep", &err), TS_OK);
  CHECK_INT(load_part_set(&part, "duty", "10%", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "scenario 'sleep' takes no duty");
}

static long os_threads(void) {
  ts_err err;
  return plat_process_thread_count(plat_self_pid(), &err);
}

/* Waits (up to 2 s) until the OS counts `expected` threads in this process; returns its count. */
static long os_threads_become(long expected) {
  long n = os_threads();
  for (int i = 0; i < 200 && n != expected; i++) {
    plat_sleep_ns(10 * TS_NS_PER_MS);
    n = os_threads();
  }
  return n;
}

static load *start(const char *text) {
  load_spec spec;
  ts_err err;
  load *l = NULL;
  if (load_spec_parse(text, &spec, &err) != TS_OK || load_start(&spec, NULL, &l, &err) != TS_OK) {
    fprintf(stderr, "  %s: %s\n", text, err.text);
    return NULL;
  }
  return l;
}

static void one_thread_per_cpu_as_the_os_counts(void) {
  long before = os_threads();
  long cpus = logical_cpus();
  load *l = start("burn:1%@100ms");
  REQUIRE(l);
  CHECK_INT(os_threads_become(before + cpus), before + cpus);
  load_stop(l);
  CHECK_INT(os_threads_become(before), before);
  l = start("burn:1%@100ms/count=3");
  REQUIRE(l);
  CHECK_INT(os_threads_become(before + 3), before + 3);
  load_stop(l);
  CHECK_INT(os_threads_become(before), before);
}

/* A stop ends spinning and sleeping burners at once, not after their period. */
static void stop_is_prompt(void) {
  static const char *const specs[] = {"burn:10%@1s/count=2", "burn:100%@1s/count=2",
                                      "burn:50%@1ms"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    long before = os_threads();
    load *l = start(specs[i]);
    REQUIRE(l);
    plat_sleep_ns(300 * TS_NS_PER_MS);
    uint64_t t0 = plat_clock_ns();
    load_stop(l);
    double took = (double)(plat_clock_ns() - t0) / TS_NS_PER_S;
    fprintf(stderr, "  %s stopped in %.3f s\n", specs[i], took);
    CHECK(took < 2.0);
    CHECK_INT(os_threads_become(before), before);
  }
}

/* 1 when the machine is too busy for a CPU share to be checked, saying why; the load average
   where the OS has one, and the machine's CPU use outside this process during the measurement. */
static int machine_too_busy(double others_busy_fraction) {
#ifndef _WIN32
  int cpus = logical_cpus();
  double avg[1];
  if (getloadavg(avg, 1) == 1 && avg[0] > cpus) {
    printf("note: load average %.1f on %d CPUs: the burner's CPU share is not checked\n", avg[0],
           cpus);
    return 1;
  }
#endif
  if (!(others_busy_fraction <= 0.25)) {
    printf("note: other programs used %.0f %% of this machine's CPU meanwhile: the burner's CPU "
           "share is not checked\n",
           others_busy_fraction * 100);
    return 1;
  }
  return 0;
}

/* burn:50%@10ms with one thread takes about half a core (the test allows 20 to 80 %); above the
   share only a broken duty goes, below it also a busy machine, so that side is checked only when
   the machine is quiet. */
static void takes_its_share_of_a_core(void) {
  load *l = start("burn:50%@10ms/count=1");
  REQUIRE(l);
  plat_sleep_ns(200 * TS_NS_PER_MS);
  ts_err err;
  uint64_t busy0 = 0, total0 = 0, busy1 = 0, total1 = 0;
  int machine = plat_machine_cpu_ns(&busy0, &total0, &err) == TS_OK;
  uint64_t cpu0 = plat_process_cpu_ns(), t0 = plat_clock_ns();
  plat_sleep_ns(2 * TS_NS_PER_S);
  uint64_t cpu1 = plat_process_cpu_ns(), t1 = plat_clock_ns();
  machine = machine && plat_machine_cpu_ns(&busy1, &total1, &err) == TS_OK;
  load_stop(l);
  double share = (double)(cpu1 - cpu0) / (double)(t1 - t0);
  double others = -1;
  if (machine && total1 > total0)
    others = ((double)(busy1 - busy0) - (double)(cpu1 - cpu0)) / (double)(total1 - total0);
  printf("burn:50%%@10ms/count=1 took %.1f %% of a core (other programs: %.0f %% of the "
         "machine)\n",
         share * 100, others * 100);
  CHECK(share < 0.80);
  if (!machine_too_busy(machine ? others : 1.0))
    CHECK(share > 0.20);
}

int main(void) {
  RUN_CASE(good_specs_read_back);
  RUN_CASE(bad_specs_name_the_value_and_the_range);
  RUN_CASE(options_one_by_one);
  RUN_CASE(one_thread_per_cpu_as_the_os_counts);
  RUN_CASE(stop_is_prompt);
  RUN_CASE(takes_its_share_of_a_core);
  return check_summary();
}
