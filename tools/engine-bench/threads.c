/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* threads.c - idle threads, engine against floor: creation and teardown time, memory per thread,
   CPU and context switches per wake-up, the census's cost, and how all of it scales. */
#define _GNU_SOURCE
#include "engine_bench.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "threadsoup/units.h"

/* ---- the floor: the least a program can do to keep N threads sleeping ------------------------ */

/* Everything the floor's threads share; static, as the smallest program would have it. */
static struct {
  atomic_int stop;
  uint64_t count;
  uint64_t interval_ns;
  pthread_t *threads;
  long started;
} floor_state;

static struct timespec timespec_of(uint64_t ns) {
  struct timespec ts = {(time_t)(ns / TS_NS_PER_S), (long)(ns % TS_NS_PER_S)};
  return ts;
}

/* One floor thread: the engine's relative sleeper without the engine. The first sleep is spread
   over one interval as the engine's default phase does, so both wake at the same even pace and
   neither gains from bursts. */
static void *floor_sleeper(void *arg) {
  uint64_t index = (uint64_t)(uintptr_t)arg;
  struct timespec offset = timespec_of(floor_state.interval_ns * index / floor_state.count);
  struct timespec interval = timespec_of(floor_state.interval_ns);
  if (index > 0)
    nanosleep(&offset, NULL);
  while (!atomic_load_explicit(&floor_state.stop, memory_order_relaxed))
    nanosleep(&interval, NULL);
  return NULL;
}

/* One floor creator: threads [first, end) with 16 KiB stacks. */
typedef struct floor_maker {
  pthread_t thread;
  long first, end;
  long made;
  int rc;
} floor_maker;

static void *floor_make(void *arg) {
  floor_maker *m = arg;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 16384);
  m->rc = 0;
  for (long i = m->first; i < m->end; i++) {
    m->rc = pthread_create(&floor_state.threads[i], &attr, floor_sleeper, (void *)(uintptr_t)i);
    if (m->rc != 0)
      break;
    m->made++;
  }
  pthread_attr_destroy(&attr);
  return NULL;
}

/* The parallel floor's creators: one per logical CPU, as many as the engine's crew may have. */
static int parallel_makers(void) {
  plat_sysinfo info;
  plat_sysinfo_read(&info);
  return info.logical_cpus < 1               ? 1
         : info.logical_cpus > LOAD_CREW_MAX ? LOAD_CREW_MAX
                                             : info.logical_cpus;
}

/* Starts `count` floor sleepers from `makers` threads (1: this one, a plain loop), each making a
   contiguous share. */
static int floor_start(long count, uint64_t interval_ns, int makers, char *why, size_t len) {
  atomic_init(&floor_state.stop, 0);
  floor_state.count = (uint64_t)count;
  floor_state.interval_ns = interval_ns;
  floor_state.threads = calloc((size_t)count, sizeof(pthread_t));
  if (!floor_state.threads) {
    snprintf(why, len, "floor: no memory for %ld thread ids", count);
    return -1;
  }
  floor_maker m[LOAD_CREW_MAX];
  if (makers < 1 || makers > LOAD_CREW_MAX)
    makers = 1;
  for (int k = 0; k < makers; k++)
    m[k] = (floor_maker){.first = count * k / makers, .end = count * (k + 1) / makers};
  if (makers == 1)
    floor_make(&m[0]);
  for (int k = 0; makers > 1 && k < makers; k++)
    pthread_create(&m[k].thread, NULL, floor_make, &m[k]);
  for (int k = 0; makers > 1 && k < makers; k++)
    pthread_join(m[k].thread, NULL);
  /* The threads made, as a prefix of each maker's share: floor_stop joins the non-zero ids. */
  long made = 0;
  int rc = 0;
  for (int k = 0; k < makers; k++) {
    made += m[k].made;
    if (m[k].rc != 0)
      rc = m[k].rc;
  }
  floor_state.started = count;
  if (rc != 0) {
    snprintf(why, len, "floor: created %ld of %ld threads, then the OS refused: %s", made, count,
             strerror(rc));
    return -1;
  }
  return 0;
}

static void floor_stop(void) {
  atomic_store(&floor_state.stop, 1);
  for (long i = 0; i < floor_state.started; i++)
    if (floor_state.threads[i])
      pthread_join(floor_state.threads[i], NULL);
  free(floor_state.threads);
  floor_state.threads = NULL;
  floor_state.started = 0;
}

/* ---- the measuring child: one side, one size, in a fresh process ---- */

/* Counts every wake-up of the load over `window_s` and the CPU they took. The main thread's own
   reading costs are left out: its switches by skipping its task, its CPU by subtracting it. */
static void measure_window(long count, long interval_ms, double window_s) {
  switch_sum s0, s1;
  uint64_t p0 = plat_process_cpu_ns(), m0 = plat_thread_cpu_ns();
  double a0 = now_s();
  switch_sum_self(&s0);
  double a1 = now_s();
  sleep_s(window_s);
  double b0 = now_s();
  switch_sum_self(&s1);
  double b1 = now_s();
  uint64_t p1 = plat_process_cpu_ns(), m1 = plat_thread_cpu_ns();
  /* Each thread is read at the same place of both walks, so its window runs from midpoint to
     midpoint; the CPU window runs from the first walk's start to the second's end. */
  double switch_window = (b0 + b1) / 2 - (a0 + a1) / 2;
  double cpu_window = b1 - a0;
  double wakeups = (double)(s1.voluntary - s0.voluntary);
  double involuntary = (double)(s1.involuntary - s0.involuntary);
  double load_cpu_ns = (double)(p1 - p0) - (double)(m1 - m0);
  double intervals = switch_window / ((double)interval_ms / 1000.0);
  printf("window_s=%.3f threads_seen=%ld wakeups=%.0f\n", switch_window, s1.threads, wakeups);
  printf("vol_per_interval=%.5f invol_per_interval=%.5f\n", wakeups / ((double)count * intervals),
         involuntary / ((double)count * intervals));
  printf("cpu_per_wake_us=%.4f load_cpu_pct=%.2f\n",
         wakeups > 0 ? load_cpu_ns / TS_NS_PER_US / (wakeups * cpu_window / switch_window) : -1,
         load_cpu_ns / TS_NS_PER_S / cpu_window * 100.0);
}

/* What one census of this process costs its thread, the median of `n`. */
static double census_ms(int n) {
  double ms[16];
  if (n > 16)
    n = 16;
  for (int i = 0; i < n; i++) {
    plat_process_census c;
    ts_err err;
    uint64_t t0 = plat_thread_cpu_ns();
    plat_census_process(plat_self_pid(), &c, &err);
    ms[i] = (double)(plat_thread_cpu_ns() - t0) / TS_NS_PER_MS;
  }
  return median(ms, n);
}

/* __threads SIDE COUNT INTERVAL_MS SETTLE_MS WINDOW_S TIMER CENSUSES: starts COUNT sleepers with
   the engine or the floor, and prints key=value lines of what they cost. */
int child_threads_main(int argc, char **argv) {
  if (argc != 8) {
    printf("error=usage: __threads engine|floor|parallel-floor COUNT INTERVAL_MS SETTLE_MS "
           "WINDOW_S TIMER N\n");
    return 2;
  }
  int engine = strcmp(argv[1], "engine") == 0;
  int makers = strcmp(argv[1], "parallel-floor") == 0 ? parallel_makers() : 1;
  long count = strtol(argv[2], NULL, 10), interval_ms = strtol(argv[3], NULL, 10);
  long settle_ms = strtol(argv[4], NULL, 10);
  double window_s = strtod(argv[5], NULL);
  int absolute = strcmp(argv[6], "absolute") == 0;
  int censuses = (int)strtol(argv[7], NULL, 10);

  load_spec spec;
  ts_err err;
  char text[96], why[600];
  snprintf(text, sizeof text, "sleep:%ld@%ldms%s", count, interval_ms,
           absolute ? "/timer=absolute" : "");
  if (engine && load_spec_parse(text, &spec, &err) != TS_OK) {
    printf("error=%s\n", err.text);
    return 1;
  }

  mem_rollup m0, m1;
  double k0 = kernel_kib();
  mem_rollup_read("/proc/self/smaps_rollup", &m0);
  load *l = NULL;
  double t0 = now_s();
  int failed = engine ? load_start(&spec, NULL, &l, &err) != TS_OK
                      : floor_start(count, (uint64_t)interval_ms * TS_NS_PER_MS, makers, why,
                                    sizeof why) != 0;
  double t1 = now_s();
  if (failed) {
    if (engine)
      snprintf(why, sizeof why, "%s", err.text);
    else
      floor_stop();
    printf("error=%s\n", why);
    return 0; /* a refusal is a result (e.g. 30,000 threads over vm.max_map_count), not a crash */
  }
  printf("create_s=%.6f\n", t1 - t0);

  /* Longer than one interval: every thread has started, touched its stack and slept once. */
  sleep_s((double)settle_ms / 1000.0);
  mem_rollup_read("/proc/self/smaps_rollup", &m1);
  double k1 = kernel_kib();
  printf("pss_kib=%.1f private_kib=%.1f rss_kib=%.1f kernel_kib=%.1f\n", m1.pss_kib - m0.pss_kib,
         m1.private_kib - m0.private_kib, m1.rss_kib - m0.rss_kib, k1 - k0);
  if (censuses > 0)
    printf("census_ms=%.3f\n", census_ms(censuses));
  if (window_s > 0)
    measure_window(count, interval_ms, window_s);

  double t2 = now_s();
  if (engine)
    load_stop(l);
  else
    floor_stop();
  printf("teardown_s=%.6f\n", now_s() - t2);
  return 0;
}

/* ---- the parent's side: runs children and fills the table ---- */

typedef struct thread_run {
  int ok;
  char error[600];
  double create_s, teardown_s, pss_kib, private_kib, rss_kib, kernel_kib, census_ms;
  double vol_per_interval, invol_per_interval, cpu_per_wake_us, load_cpu_pct;
} thread_run;

/* side: "engine", "floor" (one loop) or "parallel-floor". */
static void run_threads(const bench_options *o, const char *side, long count, double window_s,
                        int absolute, int censuses, thread_run *r) {
  char count_text[24], interval[24], settle[24], window[24], census[8];
  snprintf(count_text, sizeof count_text, "%ld", count);
  snprintf(interval, sizeof interval, "%ld", o->interval_ms);
  snprintf(settle, sizeof settle, "%ld", o->interval_ms + 300);
  snprintf(window, sizeof window, "%.3f", window_s);
  snprintf(census, sizeof census, "%d", censuses);
  const char *argv[] = {"",       "__threads", side,   count_text,
                        interval, settle,      window, absolute ? "absolute" : "relative",
                        census,   NULL};
  char out[4096];
  memset(r, 0, sizeof *r);
  int rc = run_child(o, argv, out, sizeof out);
  if (kv_error(out, r->error, sizeof r->error) || rc != 0) {
    if (!r->error[0])
      snprintf(r->error, sizeof r->error, "the measuring process failed");
    progress("  %s %ld threads: %s", side, count, r->error);
    return;
  }
  r->ok = 1;
  r->create_s = kv_number(out, "create_s", NAN);
  r->teardown_s = kv_number(out, "teardown_s", NAN);
  r->pss_kib = kv_number(out, "pss_kib", NAN) / (double)count;
  r->private_kib = kv_number(out, "private_kib", NAN) / (double)count;
  r->rss_kib = kv_number(out, "rss_kib", NAN) / (double)count;
  r->kernel_kib = kv_number(out, "kernel_kib", NAN) / (double)count;
  r->census_ms = kv_number(out, "census_ms", NAN);
  r->vol_per_interval = kv_number(out, "vol_per_interval", NAN);
  r->invol_per_interval = kv_number(out, "invol_per_interval", NAN);
  r->cpu_per_wake_us = kv_number(out, "cpu_per_wake_us", NAN);
  r->load_cpu_pct = kv_number(out, "load_cpu_pct", NAN);
}

/* A row comparing engine with floor against "engine <= limit x floor". */
static void ratio_row(const char *measure, int decimals, double engine, double floor,
                      double limit) {
  char e[24], f[24], target[32];
  format_value(e, sizeof e, decimals, engine);
  format_value(f, sizeof f, decimals, floor);
  double ratio = engine / floor;
  int valid = !isnan(ratio) && floor > 0;
  if (limit > 0)
    snprintf(target, sizeof target, "<= %.2fx floor", limit);
  else
    snprintf(target, sizeof target, "-");
  table_row(measure, e, f, valid ? ratio : -1, target,
            limit <= 0                ? VERDICT_INFO
            : valid && ratio <= limit ? VERDICT_OK
                                      : VERDICT_MISSED);
}

static double median_of(thread_run *runs, int n, size_t offset) {
  double values[64];
  int m = 0;
  for (int i = 0; i < n && m < 64; i++)
    if (runs[i].ok)
      values[m++] = *(double *)((char *)&runs[i] + offset);
  return median(values, m);
}
#define MEDIAN(runs, n, field) median_of(runs, n, offsetof(thread_run, field))

/* "lo-hi" of one field over the runs that worked, for the notes. */
static void run_range(thread_run *runs, int n, size_t offset, double scale, char *buf, size_t len) {
  double values[64], lo, hi;
  int m = 0;
  for (int i = 0; i < n && m < 64; i++)
    if (runs[i].ok)
      values[m++] = *(double *)((char *)&runs[i] + offset) * scale;
  value_range(values, m, &lo, &hi);
  snprintf(buf, len, "%.3f-%.3f", lo, hi);
}

static void first_error(thread_run *runs, int n, const char *side) {
  for (int i = 0; i < n; i++)
    if (!runs[i].ok) {
      table_note("%s failed: %s", side, runs[i].error);
      return;
    }
}

void bench_threads(const bench_options *o) {
  int reps = o->reps > 32 ? 32 : o->reps;
  thread_run engine[32], floor[32], parallel[32];
  char title[160];
  snprintf(title, sizeof title,
           "1-2. %ld sleepers @ %ld ms: creation, teardown, memory (median of %d fresh processes "
           "each, alternating)",
           o->count, o->interval_ms, reps);
  progress("%s", title + 5);
  for (int i = 0; i < reps; i++) {
    progress("  run %d of %d", i + 1, reps);
    run_threads(o, "engine", o->count, 0, 0, 3, &engine[i]);
    run_threads(o, "floor", o->count, 0, 0, 0, &floor[i]);
    run_threads(o, "parallel-floor", o->count, 0, 0, 0, &parallel[i]);
  }
  table_section(title);
  double ec = MEDIAN(engine, reps, create_s), fc = MEDIAN(floor, reps, create_s);
  double pc = MEDIAN(parallel, reps, create_s);
  char measure[96];
  ratio_row("creation wall time vs one-loop floor (s)", 3, ec, fc, 1.05);
  snprintf(measure, sizeof measure, "creation wall time vs parallel floor, %d makers (s)",
           parallel_makers());
  ratio_row(measure, 3, ec, pc, 1.10);
  ratio_row("creation per thread (us)", 2, ec * 1e6 / (double)o->count, fc * 1e6 / (double)o->count,
            0);
  double et = MEDIAN(engine, reps, teardown_s), ft = MEDIAN(floor, reps, teardown_s);
  char e[24], f[24], target[32];
  format_value(e, sizeof e, 3, et);
  format_value(f, sizeof f, 3, ft);
  double limit = ft + (double)o->interval_ms / 1000.0;
  snprintf(target, sizeof target, "<= floor+%.2fs", (double)o->interval_ms / 1000.0);
  table_row("teardown: load_stop vs flag + join all (s)", e, f, ft > 0 ? et / ft : -1, target,
            !isnan(et) && et <= limit ? VERDICT_OK : VERDICT_MISSED);
  ratio_row("PSS per idle thread (KiB)", 2, MEDIAN(engine, reps, pss_kib),
            MEDIAN(floor, reps, pss_kib), 1.10);
  ratio_row("private memory per idle thread (KiB)", 2, MEDIAN(engine, reps, private_kib),
            MEDIAN(floor, reps, private_kib), 0);
  ratio_row("RSS per idle thread (KiB)", 2, MEDIAN(engine, reps, rss_kib),
            MEDIAN(floor, reps, rss_kib), 0);
  ratio_row("kernel memory per thread, machine-wide (KiB)", 2, MEDIAN(engine, reps, kernel_kib),
            MEDIAN(floor, reps, kernel_kib), 0);
  char census[24];
  format_value(census, sizeof census, 1, MEDIAN(engine, reps, census_ms));
  table_row("census of self (plat_census_process), CPU ms", census, "-", -1, "-", VERDICT_INFO);
  char er[48], fr[48], pr[48], etr[48], ftr[48];
  run_range(engine, reps, offsetof(thread_run, create_s), 1, er, sizeof er);
  run_range(floor, reps, offsetof(thread_run, create_s), 1, fr, sizeof fr);
  run_range(parallel, reps, offsetof(thread_run, create_s), 1, pr, sizeof pr);
  run_range(engine, reps, offsetof(thread_run, teardown_s), 1, etr, sizeof etr);
  run_range(floor, reps, offsetof(thread_run, teardown_s), 1, ftr, sizeof ftr);
  table_note("spread of the runs (s): creation engine %s, one-loop floor %s, parallel floor %s; "
             "teardown engine %s, floor %s",
             er, fr, pr, etr, ftr);
  table_note("the floors: pthread_create of 16 KiB stacks in one loop, and from one maker per "
             "logical CPU (at most %d, as the engine's crew) each making an equal share",
             LOAD_CREW_MAX);
  table_note("memory = smaps_rollup after minus before creating, once every thread has run; kernel "
             "= /proc/meminfo KernelStack+PageTables+Slab");
  first_error(engine, reps, "engine");
  first_error(floor, reps, "floor");
  first_error(parallel, reps, "parallel floor");
}

/* A switches-per-interval row: the engine must be 1.00 within 1 %. */
static void switches_row(const char *measure, double engine, double floor) {
  char e[24], f[24];
  format_value(e, sizeof e, 4, engine);
  format_value(f, sizeof f, 4, floor);
  int ok = !isnan(engine) && fabs(engine - 1.0) <= 0.01;
  table_row(measure, e, f, -1, "1.00 +-1 %", ok ? VERDICT_OK : VERDICT_MISSED);
}

void bench_wakeups(const bench_options *o) {
  thread_run rel, abs_, floor;
  char title[160];
  snprintf(title, sizeof title, "3. wake-ups over %.0f s at %ld x %ld ms (one fresh process each)",
           o->seconds, o->count, o->interval_ms);
  progress("%s", title + 3);
  progress("  engine, timer=relative");
  run_threads(o, "engine", o->count, o->seconds, 0, 0, &rel);
  progress("  engine, timer=absolute");
  run_threads(o, "engine", o->count, o->seconds, 1, 0, &abs_);
  progress("  floor");
  run_threads(o, "floor", o->count, o->seconds, 0, 0, &floor);
  table_section(title);
  double fcpu = floor.ok ? floor.cpu_per_wake_us : NAN;
  ratio_row("CPU per wake-up, timer=relative (us)", 3, rel.ok ? rel.cpu_per_wake_us : NAN, fcpu,
            1.10);
  ratio_row("CPU per wake-up, timer=absolute (us)", 3, abs_.ok ? abs_.cpu_per_wake_us : NAN, fcpu,
            1.10);
  double fvol = floor.ok ? floor.vol_per_interval : NAN;
  switches_row("voluntary switches/sleeper/interval, relative", rel.ok ? rel.vol_per_interval : NAN,
               fvol);
  switches_row("voluntary switches/sleeper/interval, absolute",
               abs_.ok ? abs_.vol_per_interval : NAN, fvol);
  double finv = floor.ok ? floor.invol_per_interval : NAN;
  ratio_row("involuntary switches/sleeper/interval, relative", 4,
            rel.ok ? rel.invol_per_interval : NAN, finv, 0);
  ratio_row("involuntary switches/sleeper/interval, absolute", 4,
            abs_.ok ? abs_.invol_per_interval : NAN, finv, 0);
  ratio_row("load CPU, relative (% of one core)", 2, rel.ok ? rel.load_cpu_pct : NAN,
            floor.ok ? floor.load_cpu_pct : NAN, 0);
  ratio_row("load CPU, absolute (% of one core)", 2, abs_.ok ? abs_.load_cpu_pct : NAN,
            floor.ok ? floor.load_cpu_pct : NAN, 0);
  table_note("CPU = the process's CPU time less the measuring thread's; wake-ups = voluntary "
             "switches of all load threads (/proc/self/task/*/status)");
  first_error(&rel, 1, "engine relative");
  first_error(&abs_, 1, "engine absolute");
  first_error(&floor, 1, "floor");
}

/* ---- linearity ---- */

static long read_map_count(void) {
  FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
  long v = -1;
  if (f) {
    if (fscanf(f, "%ld", &v) != 1)
      v = -1;
    fclose(f);
  }
  return v;
}

static int write_map_count(long v) {
  FILE *f = fopen("/proc/sys/vm/max_map_count", "w");
  if (!f)
    return -1;
  int rc = fprintf(f, "%ld\n", v) > 0 ? 0 : -1;
  return fclose(f) == 0 ? rc : -1;
}

#define LINEAR_SIZES 4
#define LINEAR_REPS 3 /* the first also measures wake-ups; medians of three for the rest */

void bench_linearity(const bench_options *o) {
  static const long sizes[LINEAR_SIZES] = {1000, 5000, 15000, 30000};
  /* per size: creation us/thread, PSS KiB/thread, CPU us/wake-up; engine [0] and floor [1] */
  double figure[LINEAR_SIZES][3][2];
  char why[LINEAR_SIZES][2][600];
  long map_count = read_map_count(), raised_from = -1;
  /* Each thread's stack is two mappings (stack and guard page), so 30,000 threads need about
     60,000 of the 65,530 mappings Linux allows by default. */
  if (o->raise_map_count && map_count >= 0 && map_count < 262144) {
    if (write_map_count(262144) == 0)
      raised_from = map_count;
    else
      progress("cannot raise vm.max_map_count: %s", strerror(errno));
  }
  char title[160];
  snprintf(title, sizeof title,
           "6. linearity: per-thread figures by size (creation and memory median of %d, "
           "wake-ups over %.0f s)",
           LINEAR_REPS, o->linear_seconds);
  progress("%s", title + 3);
  for (int s = 0; s < LINEAR_SIZES; s++) {
    thread_run runs[2][LINEAR_REPS];
    for (int r = 0; r < LINEAR_REPS; r++)
      for (int side = 0; side < 2; side++) {
        progress("  %ld threads, %s, run %d of %d", sizes[s], side ? "floor" : "engine", r + 1,
                 LINEAR_REPS);
        run_threads(o, side ? "floor" : "engine", sizes[s], r == 0 ? o->linear_seconds : 0, 0, 0,
                    &runs[side][r]);
      }
    for (int side = 0; side < 2; side++) {
      figure[s][0][side] = MEDIAN(runs[side], LINEAR_REPS, create_s) * 1e6 / (double)sizes[s];
      figure[s][1][side] = MEDIAN(runs[side], LINEAR_REPS, pss_kib);
      figure[s][2][side] = runs[side][0].ok ? runs[side][0].cpu_per_wake_us : NAN;
      why[s][side][0] = '\0';
      for (int r = 0; r < LINEAR_REPS; r++)
        if (!runs[side][r].ok) {
          snprintf(why[s][side], sizeof why[s][side], "%s", runs[side][r].error);
          break;
        }
    }
  }
  if (raised_from >= 0)
    write_map_count(raised_from);

  table_section(title);
  static const char *const names[3] = {"creation per thread (us)", "PSS per thread (KiB)",
                                       "CPU per wake-up (us)"};
  static const int decimals[3] = {2, 2, 3};
  for (int m = 0; m < 3; m++) {
    for (int s = 0; s < LINEAR_SIZES; s++) {
      char measure[96];
      snprintf(measure, sizeof measure, "%s @ %ld", names[m], sizes[s]);
      ratio_row(measure, decimals[m], figure[s][m][0], figure[s][m][1], 0);
    }
    char measure[96], e[24], f[24];
    double er = figure[LINEAR_SIZES - 1][m][0] / figure[0][m][0];
    double fr = figure[LINEAR_SIZES - 1][m][1] / figure[0][m][1];
    snprintf(measure, sizeof measure, "%s: %ld / %ld", names[m], sizes[LINEAR_SIZES - 1], sizes[0]);
    format_value(e, sizeof e, 3, er);
    format_value(f, sizeof f, 3, fr);
    table_row(measure, e, f, -1, "<= 1.30", !isnan(er) && er <= 1.30 ? VERDICT_OK : VERDICT_MISSED);
  }
  for (int s = 0; s < LINEAR_SIZES; s++)
    for (int side = 0; side < 2; side++)
      if (why[s][side][0])
        table_note("%ld threads, %s: %s", sizes[s], side ? "floor" : "engine", why[s][side]);
  table_note("vm.max_map_count %ld%s; each thread maps a stack and a guard page", map_count,
             raised_from >= 0 ? " (raised to 262144 for this section, then restored)" : "");
}
