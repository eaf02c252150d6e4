/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_bench_placement.c - where a benchmark runs: processor-group arithmetic and CPU-set records
   of recorded layouts (hybrid 8P+8E, uniform, two groups of 80 CPUs), fake sysfs trees (battery,
   mains, cpu_core/cpu_atom, big.LITTLE capacities), and on this machine the opt-out of a thread
   and the priority a benchmark program really gets (it reports its own, as a child of this test).
 */
#ifndef _WIN32
#define _GNU_SOURCE /* syscall */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "check.h"
#include "threadsoup/plat.h"

#ifdef _WIN32
#include <windows.h>
#else
#include <errno.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

extern const bench_def bench_builtin_st;
extern const bench_def bench_builtin_mt;

/* ---- CPU-set records ------------------------------------------------------------------------ */

/* One SYSTEM_CPU_SET_INFORMATION record at the documented offsets (Size 4, Type 4, Id 4, Group 2,
   LogicalProcessorIndex, CoreIndex, LastLevelCacheIndex, NumaNodeIndex, EfficiencyClass, flags,
   then 4 reserved and an 8-byte AllocationTag: 32 bytes), as GetSystemCpuSetInformation fills
   them on x64. `size` above 32 stands for a future, longer record. */
static size_t put_record(unsigned char *at, unsigned size, unsigned type, unsigned id,
                         unsigned group, unsigned index, unsigned core, unsigned cls) {
  memset(at, 0, size);
  at[0] = (unsigned char)size;
  at[4] = (unsigned char)type;
  at[8] = (unsigned char)id;
  at[9] = (unsigned char)(id >> 8);
  at[12] = (unsigned char)group;
  at[14] = (unsigned char)index;
  at[15] = (unsigned char)core;
  at[18] = (unsigned char)cls;
  return size;
}

/* The first record of a hybrid Intel machine, byte for byte as Windows writes it: CPU set 256
   (Ids start at 0x100), group 0, processor 0, core 0, cache 0, node 0, class 1, no flags. */
static const unsigned char recorded_p_core_record[32] = {0x20, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x01, 0,
                                                         0,    0, 0, 0, 0, 0, 0, 1, 0,    0,    0,
                                                         0,    0, 0, 0, 0, 0, 0, 0, 0,    0};

static void cpu_sets_of_a_hybrid_8p_8e_machine(void) {
  /* 8 performance cores with two threads each (CPUs 0-15, class 1), then 8 efficiency cores of
     one thread (CPUs 16-23, class 0): a Core i9-12900K. */
  static unsigned char buf[24 * 32];
  size_t n = 0;
  memcpy(buf, recorded_p_core_record, 32);
  n += 32;
  for (unsigned cpu = 1; cpu < 24; cpu++)
    n += put_record(buf + n, 32, 0, 0x100 + cpu, 0, cpu, cpu < 16 ? cpu / 2 : cpu - 8,
                    cpu < 16 ? 1 : 0);
  plat_core_layout layout;
  ts_err err;
  CHECK_INT(plat_core_layout_from_cpu_sets(buf, n, &layout, &err), TS_OK);
  CHECK_INT(layout.cpus, 24);
  CHECK_INT(layout.max_class, 1);
  CHECK_INT(layout.groups, 1);
  CHECK_INT(layout.cpu_class[0], 1);
  CHECK_INT(layout.cpu_class[15], 1);
  CHECK_INT(layout.cpu_class[16], 0);
  char text[128];
  plat_core_layout_summary(&layout, text, sizeof text);
  CHECK(strcmp(text, "hybrid, class1 16 CPUs, class0 8 CPUs") == 0);
  int all_fast[4] = {0, 3, 8, 15};
  plat_core_classes_of(&layout, all_fast, 4, text, sizeof text);
  CHECK(strcmp(text, "class1:4,class0:0") == 0);
  int mixed[5] = {1, 16, 23, 7, -1};
  plat_core_classes_of(&layout, mixed, 5, text, sizeof text);
  CHECK(strcmp(text, "class1:2,class0:2,unknown:1") == 0);
}

static void cpu_sets_of_a_uniform_machine(void) {
  static unsigned char buf[16 * 40 + 24];
  size_t n = 0;
  /* Longer records (a future Windows) and a record of another type are stepped over by Size. */
  for (unsigned cpu = 0; cpu < 16; cpu++)
    n += put_record(buf + n, 40, 0, 0x100 + cpu, 0, cpu, cpu / 2, 0);
  n += put_record(buf + n, 24, 7, 0, 0, 0, 0, 9);
  plat_core_layout layout;
  ts_err err;
  CHECK_INT(plat_core_layout_from_cpu_sets(buf, n, &layout, &err), TS_OK);
  CHECK_INT(layout.cpus, 16);
  CHECK_INT(layout.max_class, 0);
  char text[128];
  plat_core_layout_summary(&layout, text, sizeof text);
  CHECK(strcmp(text, "uniform, 16 CPUs") == 0);
  int cpus[2] = {3, 12};
  plat_core_classes_of(&layout, cpus, 2, text, sizeof text);
  CHECK(strcmp(text, "uniform") == 0);
  int unknown[1] = {-1};
  plat_core_classes_of(&layout, unknown, 1, text, sizeof text);
  CHECK(strcmp(text, "unknown") == 0);
}

static void cpu_sets_of_two_groups_of_80_cpus(void) {
  /* 80 logical CPUs: Windows makes group 0 of 64 and group 1 of 16; group 1's processor 5 is
     CPU 69 when numbered across groups, as plat_current_cpu numbers them. */
  static unsigned char buf[80 * 32];
  size_t n = 0;
  for (unsigned cpu = 0; cpu < 80; cpu++)
    n += put_record(buf + n, 32, 0, 0x100 + cpu, cpu / 64, cpu % 64, cpu / 2, cpu == 69 ? 1 : 0);
  plat_core_layout layout;
  ts_err err;
  CHECK_INT(plat_core_layout_from_cpu_sets(buf, n, &layout, &err), TS_OK);
  CHECK_INT(layout.cpus, 80);
  CHECK_INT(layout.groups, 2);
  CHECK_INT(layout.cpu_class[69], 1);
  CHECK_INT(layout.cpu_class[5], 0);
}

static void malformed_cpu_sets_are_refused(void) {
  unsigned char buf[64];
  size_t n = put_record(buf, 32, 0, 0x100, 0, 0, 0, 0);
  plat_core_layout layout;
  ts_err err;
  CHECK_INT(plat_core_layout_from_cpu_sets(buf, n - 4, &layout, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "CPU set record at byte 0 has size 32 (at least 8, at most the 28");
  buf[0] = 4;
  CHECK_INT(plat_core_layout_from_cpu_sets(buf, n, &layout, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "has size 4");
  put_record(buf, 32, 0, 0x100, 40, 0, 0, 0);
  CHECK_INT(plat_core_layout_from_cpu_sets(buf, n, &layout, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "processor group 40 (at most 32 groups)");
  CHECK_INT(plat_core_layout_from_cpu_sets(buf, 0, &layout, &err), TS_OK);
  char text[32];
  plat_core_layout_summary(&layout, text, sizeof text);
  CHECK(strcmp(text, "unknown") == 0);
}

/* ---- processor groups ----------------------------------------------------------------------- */

static void threads_spread_over_groups_as_their_cpus(void) {
  int two[2] = {64, 16};
  CHECK_INT(plat_group_for_thread(two, 2, 0), 0);
  CHECK_INT(plat_group_for_thread(two, 2, 63), 0);
  CHECK_INT(plat_group_for_thread(two, 2, 64), 1);
  CHECK_INT(plat_group_for_thread(two, 2, 79), 1);
  CHECK_INT(plat_group_for_thread(two, 2, 80), 0); /* more threads than CPUs: around again */
  int per_group[2] = {0, 0};
  for (long i = 0; i < 80; i++)
    per_group[plat_group_for_thread(two, 2, i)]++;
  CHECK_INT(per_group[0], 64);
  CHECK_INT(per_group[1], 16);
  int three[3] = {64, 64, 16};
  CHECK_INT(plat_group_for_thread(three, 3, 127), 1);
  CHECK_INT(plat_group_for_thread(three, 3, 128), 2);
  CHECK_INT(plat_group_for_thread(three, 3, 143), 2);
  CHECK_INT(plat_group_for_thread(three, 3, 144), 0);
  int one[1] = {8};
  CHECK_INT(plat_group_for_thread(one, 1, 13), 0);
  int none[1] = {0};
  CHECK_INT(plat_group_for_thread(none, 1, 0), -1);
}

static void power_status_names(void) {
  CHECK(strcmp(plat_power_source_from_status(1, 1), "ac") == 0);
  CHECK(strcmp(plat_power_source_from_status(1, 128), "ac (no battery)") == 0);
  CHECK(strcmp(plat_power_source_from_status(0, 2), "battery") == 0);
  CHECK(strcmp(plat_power_source_from_status(255, 255), "unknown") == 0);
}

/* ---- fake sysfs trees (Linux) --------------------------------------------------------------- */

#ifndef _WIN32
static void put_file(const char *root, const char *rel, const char *text) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  /* Every folder on the way. */
  for (char *slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
    *slash = '\0';
    mkdir(path, 0755);
    *slash = '/';
  }
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static void fresh_root(char *root, size_t len, const char *name) {
  char command[1200];
  snprintf(root, len, "%s/sysfs-%s", getcwd(command, sizeof command) ? command : ".", name);
  snprintf(command, sizeof command, "rm -rf '%s'", root);
  CHECK_INT(system(command), 0);
  mkdir(root, 0755);
}

/* A laptop's tree: a mains entry AC (online "1" or "0") and a battery BAT0 with its status. */
static const char *laptop(const char *name, const char *online, const char *battery_status) {
  static char root[1024];
  fresh_root(root, sizeof root, name);
  put_file(root, "class/power_supply/AC/type", "Mains\n");
  put_file(root, "class/power_supply/AC/online", online);
  put_file(root, "class/power_supply/BAT0/type", "Battery\n");
  put_file(root, "class/power_supply/BAT0/status", battery_status);
  return plat_power_source_at(root);
}

static void power_source_from_fake_sysfs(void) {
  CHECK(strcmp(laptop("laptop-on-ac", "1\n", "Charging\n"), "ac") == 0);
  CHECK(strcmp(laptop("laptop-on-battery", "0\n", "Discharging\n"), "battery") == 0);
  /* Mains offline, the battery's status not given: the mains entry says enough. */
  CHECK(strcmp(laptop("laptop-unplugged", "0\n", "Unknown\n"), "battery") == 0);

  char root[1024];

  /* A laptop that lists no mains entry: a full battery is on mains power. */
  fresh_root(root, sizeof root, "battery-only-full");
  put_file(root, "class/power_supply/BAT1/type", "Battery\n");
  put_file(root, "class/power_supply/BAT1/status", "Full\n");
  CHECK(strcmp(plat_power_source_at(root), "ac") == 0);

  /* A desktop or VM: the folder is there, no supply in it (a USB one does not count). */
  fresh_root(root, sizeof root, "desktop");
  put_file(root, "class/power_supply/ucsi-source-psy-1/type", "USB\n");
  put_file(root, "class/power_supply/ucsi-source-psy-1/online", "1\n");
  CHECK(strcmp(plat_power_source_at(root), "ac (no battery)") == 0);

  fresh_root(root, sizeof root, "no-sysfs");
  CHECK(strcmp(plat_power_source_at(root), "unknown") == 0);
}

static void core_layout_from_fake_sysfs(void) {
  char root[1024], text[128];
  plat_core_layout layout;
  fresh_root(root, sizeof root, "alder-lake");
  put_file(root, "devices/cpu_core/cpus", "0-15\n");
  put_file(root, "devices/cpu_atom/cpus", "16-23\n");
  put_file(root, "devices/system/cpu/online", "0-23\n");
  plat_core_layout_read_at(root, &layout);
  plat_core_layout_summary(&layout, text, sizeof text);
  CHECK(strcmp(text, "hybrid, class1 16 CPUs, class0 8 CPUs") == 0);
  int ran_on[3] = {2, 17, 18};
  plat_core_classes_of(&layout, ran_on, 3, text, sizeof text);
  CHECK(strcmp(text, "class1:1,class0:2") == 0);

  fresh_root(root, sizeof root, "big-little");
  put_file(root, "devices/system/cpu/online", "0-7\n");
  for (int c = 0; c < 8; c++) {
    char rel[96];
    snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/cpu_capacity", c);
    put_file(root, rel, c < 4 ? "446\n" : c < 7 ? "871\n" : "1024\n");
  }
  plat_core_layout_read_at(root, &layout);
  plat_core_layout_summary(&layout, text, sizeof text);
  CHECK(strcmp(text, "hybrid, class2 1 CPUs, class1 3 CPUs, class0 4 CPUs") == 0);

  fresh_root(root, sizeof root, "uniform");
  put_file(root, "devices/system/cpu/online", "0-3,6-7\n");
  plat_core_layout_read_at(root, &layout);
  plat_core_layout_summary(&layout, text, sizeof text);
  CHECK(strcmp(text, "uniform, 6 CPUs") == 0); /* numbered to 7; 4 and 5 are offline */
  int offline[1] = {4};
  plat_core_classes_of(&layout, offline, 1, text, sizeof text);
  CHECK(strcmp(text, "unknown") == 0);

  fresh_root(root, sizeof root, "empty");
  plat_core_layout_read_at(root, &layout);
  plat_core_layout_summary(&layout, text, sizeof text);
  CHECK(strcmp(text, "unknown") == 0);
}

typedef struct nice_probe {
  int before, after;
  char state[PLAT_BENCH_TEXT_MAX];
} nice_probe;

static void nice_probe_thread(void *arg) {
  nice_probe *p = arg;
  id_t tid = (id_t)syscall(SYS_gettid);
  setpriority(PRIO_PROCESS, tid, 5); /* a service run at nice 5 */
  p->before = getpriority(PRIO_PROCESS, tid);
  plat_bench_thread_begin(p->state, sizeof p->state);
  errno = 0;
  p->after = getpriority(PRIO_PROCESS, tid);
}

static void benchmark_thread_goes_back_to_nice_0(void) {
  nice_probe p;
  memset(&p, 0, sizeof p);
  plat_thread thread;
  ts_err err;
  REQUIRE(plat_thread_start(&thread, 0, nice_probe_thread, &p, &err) == TS_OK);
  plat_thread_join(thread);
  CHECK_INT(p.before, 5);
  fprintf(stderr, "  measured: nice %d -> %d, state '%s'\n", p.before, p.after, p.state);
  if (geteuid() == 0) {
    CHECK_INT(p.after, 0);
    CHECK(strcmp(p.state, "n/a") == 0);
  } else { /* lowering nice needs CAP_SYS_NICE: then the state says so */
    CHECK_STR_CONTAINS(p.state, "nice 5, cannot reset to 0");
  }
}
#endif

/* ---- on this machine ------------------------------------------------------------------------ */

static void this_machine_answers(void) {
  char state[PLAT_BENCH_TEXT_MAX], why[256], layout_text[128];
  plat_bench_thread_begin(state, sizeof state);
  int ok = plat_power_throttling_opt_out_self_test(why, sizeof why);
  plat_core_layout layout;
  plat_core_layout_read(&layout);
  plat_core_layout_summary(&layout, layout_text, sizeof layout_text);
  plat_sysinfo info;
  plat_sysinfo_read(&info);
  fprintf(stderr,
          "  measured: opt-out '%s'; self-test %d '%s'; power source '%s'; layout '%s' "
          "(groups %d); current CPU %d; logical CPUs %d\n",
          state, ok, why, plat_power_source(), layout_text, layout.groups, plat_current_cpu(),
          info.logical_cpus);
#ifdef _WIN32
  /* Whatever this Windows (or Wine) answers, it is one of the documented outcomes. */
  CHECK(strcmp(state, "off") == 0 || strcmp(state, "unsupported") == 0 ||
        strstr(state, "SetThreadInformation(ThreadPowerThrottling) failed: ") == state);
#else
  CHECK(strncmp(state, "n/a", 3) == 0);
  CHECK(layout.cpus >= 1);
  CHECK(plat_current_cpu() >= 0 && plat_current_cpu() < layout.cpus);
#endif
  CHECK(info.logical_cpus >= 1);
  const char *source = plat_power_source();
  CHECK(strcmp(source, "ac") == 0 || strcmp(source, "battery") == 0 ||
        strcmp(source, "ac (no battery)") == 0 || strcmp(source, "unknown") == 0);
}

static void builtin_benchmarks_say_where_they_ran(void) {
  bench_args args = {NULL, 0.02, NULL, 0, NULL};
  bench_result r;
  ts_err err;
  memset(&r, 0, sizeof r);
  CHECK_INT(bench_builtin_st.run(&args, &r, &err), TS_OK);
  fprintf(stderr, "  measured: builtin-st throttling '%s', cores '%s'\n", r.power_throttling,
          r.core_classes);
  CHECK(r.power_throttling[0] != '\0');
  CHECK(r.core_classes[0] != '\0');
  args.arg = "3";
  memset(&r, 0, sizeof r);
  CHECK_INT(bench_builtin_mt.run(&args, &r, &err), TS_OK);
  fprintf(stderr, "  measured: builtin-mt:3 throttling '%s', cores '%s'\n", r.power_throttling,
          r.core_classes);
  CHECK(r.power_throttling[0] != '\0');
#ifndef _WIN32
  CHECK(strcmp(r.core_classes, "uniform") == 0 || strncmp(r.core_classes, "class", 5) == 0);
#endif
}

/* ---- the priority a benchmark program really gets ------------------------------------------- */

/* The child's side: prints its own priority, as the OS reports it to the process itself. */
static int print_own_priority(void) {
#ifdef _WIN32
  printf("priority class 0x%lx\n", (unsigned long)GetPriorityClass(GetCurrentProcess()));
#else
  /* /proc/self/stat field 19 is the nice value; the command name in field 2 may hold spaces,
     so count from its closing parenthesis. */
  char line[1024] = "";
  FILE *f = fopen("/proc/self/stat", "r");
  if (f) {
    if (!fgets(line, sizeof line, f))
      line[0] = '\0';
    fclose(f);
  }
  const char *p = strrchr(line, ')');
  int field = 2;
  long nice_value = 99;
  for (; p && *p; p++)
    if (*p == ' ' && ++field == 19) {
      nice_value = strtol(p + 1, NULL, 10);
      break;
    }
  printf("nice %ld\n", nice_value);
#endif
  return 0;
}

static const char *self_path;

typedef struct child_probe {
  int as_benchmark;
  int rc;
  char output[256];
  char state[PLAT_BENCH_TEXT_MAX];
} child_probe;

static void child_probe_thread(void *arg) {
  child_probe *c = arg;
#ifndef _WIN32
  setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 5); /* the service's thread at nice 5 */
#endif
  const char *argv[] = {self_path, "--print-priority", NULL};
  int code = 0;
  ts_err err;
  if (c->as_benchmark)
    c->rc = plat_proc_run_as_benchmark(argv, NULL, c->output, sizeof c->output, NULL, 0, &code,
                                       c->state, sizeof c->state, &err);
  else
    c->rc = plat_proc_run(argv, NULL, c->output, sizeof c->output, NULL, 0, &code, &err);
  if (c->rc != TS_OK)
    fprintf(stderr, "  run failed: %s\n", err.text);
}

static void run_child(child_probe *c, int as_benchmark) {
  memset(c, 0, sizeof *c);
  c->as_benchmark = as_benchmark;
  plat_thread thread;
  ts_err err;
  if (plat_thread_start(&thread, 0, child_probe_thread, c, &err) != TS_OK) {
    c->rc = err.code;
    return;
  }
  plat_thread_join(thread);
}

static void benchmark_program_runs_at_normal_priority(void) {
#ifdef _WIN32
  /* A service started below normal: its children inherit the class unless told otherwise. */
  SetPriorityClass(GetCurrentProcess(), BELOW_NORMAL_PRIORITY_CLASS);
#endif
  child_probe plain, bench;
  run_child(&plain, 0);
  run_child(&bench, 1);
#ifdef _WIN32
  SetPriorityClass(GetCurrentProcess(), NORMAL_PRIORITY_CLASS);
#endif
  fprintf(stderr, "  measured: plain child '%s'; benchmark child '%s', opt-out '%s'\n",
          strtok(plain.output, "\r\n") ? plain.output : "",
          strtok(bench.output, "\r\n") ? bench.output : "", bench.state);
  CHECK_INT(bench.rc, TS_OK);
  CHECK_INT(plain.rc, TS_OK);
#ifdef _WIN32
  CHECK(strcmp(bench.output, "priority class 0x20") == 0); /* NORMAL_PRIORITY_CLASS */
  /* Windows gives a child its parent's below-normal class; Wine 8 does not pass a class on
     (measured: the plain child is at 0x20 too), so under Wine the control proves nothing. */
  HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
  if (ntdll && GetProcAddress(ntdll, "wine_get_version"))
    fprintf(stderr, "  note: under Wine a child does not inherit the priority class\n");
  else
    CHECK(strcmp(plain.output, "priority class 0x4000") == 0); /* inherited BELOW_NORMAL */
  CHECK(strcmp(bench.state, "off") == 0 || strcmp(bench.state, "unsupported") == 0 ||
        strstr(bench.state, "SetProcessInformation(ProcessPowerThrottling) failed: ") ==
            bench.state);
#else
  CHECK(strcmp(plain.output, "nice 5") == 0); /* inherited from the starting thread */
  if (geteuid() == 0) {
    CHECK(strcmp(bench.output, "nice 0") == 0);
    CHECK(strcmp(bench.state, "n/a") == 0);
  } else {
    CHECK_STR_CONTAINS(bench.state, "cannot reset to 0");
  }
#endif
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--print-priority") == 0)
    return print_own_priority();
#ifdef _WIN32
  static char path[MAX_PATH];
  GetModuleFileNameA(NULL, path, sizeof path);
  self_path = path;
#else
  self_path = argv[0];
#endif
  RUN_CASE(cpu_sets_of_a_hybrid_8p_8e_machine);
  RUN_CASE(cpu_sets_of_a_uniform_machine);
  RUN_CASE(cpu_sets_of_two_groups_of_80_cpus);
  RUN_CASE(malformed_cpu_sets_are_refused);
  RUN_CASE(threads_spread_over_groups_as_their_cpus);
  RUN_CASE(power_status_names);
#ifndef _WIN32
  RUN_CASE(power_source_from_fake_sysfs);
  RUN_CASE(core_layout_from_fake_sysfs);
  RUN_CASE(benchmark_thread_goes_back_to_nice_0);
#endif
  RUN_CASE(this_machine_answers);
  RUN_CASE(builtin_benchmarks_say_where_they_ran);
  RUN_CASE(benchmark_program_runs_at_normal_priority);
  return check_summary();
}
