/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* engine_bench.h - the pieces threadsoup-bench's files share: options, the results table, child
   runs and the /proc readers every measurement is made of. */
#ifndef THREADSOUP_ENGINE_BENCH_H
#define THREADSOUP_ENGINE_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "threadsoup/plat.h"

/* What the sub-commands measure, from the command line. */
typedef struct bench_options {
  int reps;      /* thread creation runs per side, alternating engine and floor */
  int proc_reps; /* the same for processes (each run takes seconds, not a second) */
  long count;    /* threads of the main figures (15,000) */
  /* Processes of the procs figures (2,000): each costs 0.3 to 1 ms of fork and exec here, so
     2,000 take 1 to 2 s a side, far above the timing's noise, and 5 runs of three sides end in
     about a minute (15,000 took over 8 minutes on this VM). */
  long proc_count;
  long interval_ms;          /* the sleepers' interval (500 ms) */
  double seconds;            /* wake-up window at `count` threads (30 s) */
  double linear_seconds;     /* wake-up window per linearity size (10 s) */
  double controller_seconds; /* window over which the controller's wake-ups are counted (10 s) */
  int raise_map_count;       /* 1: may raise vm.max_map_count for 30,000 threads (restored after) */
  char dir[PLAT_PATH_MAX];   /* this program's folder: the child programs are beside it */
  char self[PLAT_PATH_MAX];  /* this program, re-run for every fresh-process measurement */
} bench_options;

/* ---- the results table (table.c) ---- */

enum { VERDICT_INFO = -1, VERDICT_MISSED = 0, VERDICT_OK = 1 };

/* Starts a titled group of rows. */
void table_section(const char *title);
/* One row: texts already formatted with units; ratio < 0 prints "-". */
void table_row(const char *measure, const char *engine, const char *floor, double ratio,
               const char *target, int verdict);
/* A line of explanation under the current section (why a figure is what it is). */
void table_note(const char *fmt, ...) TS_PRINTF(1, 2);
/* Prints everything gathered, then the totals; returns the number of missed targets. */
int table_print(double elapsed_s);
/* Progress on stderr while the runs go on, so a ten-minute benchmark is not silent. */
void progress(const char *fmt, ...) TS_PRINTF(1, 2);

/* ---- small helpers (util.c) ---- */

/* Reads a small /proc file (relative to dir_fd, or AT_FDCWD) with one read, NUL-terminated;
   the length, or -1 when it is gone. */
ssize_t read_small(int dir_fd, const char *path, char *buf, size_t len);

double median(double *values, int n); /* sorts values; NAN when n == 0 */
/* Smallest and largest of values (NAN when n == 0): how noisy a median is. */
void value_range(const double *values, int n, double *lo, double *hi);
/* A figure with `decimals` decimals, or "failed" when it is NAN (its run failed). */
void format_value(char *buf, size_t len, int decimals, double value);
void sleep_s(double seconds);
double now_s(void);

/* Fields of a smaps_rollup file, in KiB; all -1 when it could not be read. */
typedef struct mem_rollup {
  double rss_kib, pss_kib, private_kib;
} mem_rollup;
int mem_rollup_read(const char *path, mem_rollup *out);

/* Kernel-side memory of the whole machine (KernelStack + PageTables + Slab), in KiB: what a thread
   or process costs the kernel, which no process's RSS shows. Machine-wide, so only indicative. */
double kernel_kib(void);

/* Context switches of the threads of this process except the calling (main) one. */
typedef struct switch_sum {
  uint64_t voluntary, involuntary;
  long threads;
} switch_sum;
void switch_sum_self(switch_sum *out);
/* One thread's switches from /proc/PID/task/TID/status; -1 when it cannot be read. */
int thread_switches(long pid, long tid, uint64_t *voluntary, uint64_t *involuntary);
/* One thread's CPU time so far in ns (/proc/PID/task/TID/schedstat); -1 when unreadable. */
double thread_cpu_ns(long pid, long tid);

/* Runs this program again as `argv` (argv[0] ignored) in a fresh process and returns what it
   printed on stdout (NUL-terminated, at most len-1 bytes) and its exit status. */
int run_child(const bench_options *o, const char *const *argv, char *out, size_t len);
/* "key=value" from a child's output: the number, or `fallback` when absent. */
double kv_number(const char *text, const char *key, double fallback);
/* The text after "error=" up to the end of its line, or NULL when the child reported none. */
const char *kv_error(const char *text, char *buf, size_t len);

/* ---- the measurements ---- */

/* Hidden sub-commands, each run in a fresh process so heaps and stack caches never mix. */
int child_threads_main(int argc, char **argv); /* threads.c */
int child_procs_main(int argc, char **argv);   /* procs.c */

void bench_threads(const bench_options *o);    /* targets 1 and 2, and the census cost */
void bench_wakeups(const bench_options *o);    /* target 3 */
void bench_linearity(const bench_options *o);  /* target 6 */
void bench_noise(const bench_options *o);      /* 7: builtin-st no noisier than 7-Zip */
void bench_aa(const bench_options *o);         /* 8: the A/A experiment finds no effect */
void bench_procs(const bench_options *o);      /* target 4 */
void bench_controller(const bench_options *o); /* target 5 (controller.c) */

#endif
