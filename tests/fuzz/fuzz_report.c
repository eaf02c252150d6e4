/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* fuzz_report.c - libFuzzer target: the bytes choose two stored runs (scores and metrics at the
   ends of what a double holds, subnormals, NaN and infinities as a damaged database holds them,
   up to the most metrics a trial takes, long and hostile names, odd timestamps), and every report
   format of each run, of their comparison and the headline end with bounded output, or refuse
   with a reason; none writes without end, crashes or runs into undefined behaviour. */
#define _GNU_SOURCE /* fopencookie: a sink that counts what a report writes */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../service/src/report/compare.h"
#include "../../service/src/report/headline.h"
#include "../../service/src/report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What report_write is allowed, and what any one report may write before it is taken as one
   that does not end: a report of two small runs is some MiB at the most (a CSV of 256 metric
   columns), and a writer past its cap stops at the next row. */
#define REPORT_CAP (4LL << 20)
#define SINK_MAX (24LL << 20)

/* ---- the input, read as choices -------------------------------------------------------- */

typedef struct input {
  const uint8_t *at;
  size_t left;
} input;

/* The next byte; 0 once the input is used up, so every input is a whole recipe. */
static unsigned next_byte(input *in) {
  if (!in->left)
    return 0;
  in->left--;
  return *in->at++;
}

static const double extremes[] = {
    DBL_MAX, -DBL_MAX, 5.6e-292, 5e-292,          1e-300,    1e15,    1e-9,         1,
    0,       -1,       NAN,      INFINITY,        -INFINITY, DBL_MIN, DBL_TRUE_MIN, 1e308,
    3.5,     100,      1e-320,   999999999999999, 0.5,       2,       1e6,          -0.0};
#define EXTREME_COUNT (sizeof extremes / sizeof extremes[0])

/* A number: mostly one of the extremes, else any 64 bits (every NaN payload, every subnormal). */
static double next_number(input *in) {
  unsigned pick = next_byte(in);
  if (pick < 0xe0)
    return extremes[pick % EXTREME_COUNT];
  uint8_t raw[sizeof(double)];
  for (size_t i = 0; i < sizeof raw; i++)
    raw[i] = (uint8_t)next_byte(in);
  double d;
  memcpy(&d, raw, sizeof d);
  return d;
}

#define PICK(in, table) (table[next_byte(in) % (sizeof table / sizeof table[0])])

/* A name of 127 characters, the most a report's condition holds, and hostile ones: terminal
   escapes, a bidi override, a line break, a stray byte. */
#define LONG_NAME                                                                                  \
  "sleep:1500/stack=64k/priority=idle+yield:2/spin=1ms+wait:3/timeout=9ms+procs:2+burn:10%"        \
  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
static const char *const condition_names[] = {
    "baseline",    "sleep:1500",         "sleep:5000",
    "sleep:15000", "burn:10%",           "burn:50%/threads=2",
    "yield:4",     "procs:10",           "wait:100",
    LONG_NAME,     "\x1b]52;c;AAAA\x07", "sleep:1\xe2\x80\xae",
    "a\nb",        "\xff\xfe",           ""};
static const char *const bench_names[] = {
    "builtin-st",
    "builtin-mt",
    "by-hand",
    "7zip",
    "\x1b[2J",
    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"};
static const char *const hosts[] = {
    "pc-a", "pc-b", "\x1b]8;;http://x\x07pc\x1b]8;;\x07",
    "hhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh"
    "hhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh"};
static const char *const times[] = {"2026-01-01T00:00:01.000Z",
                                    "2026-01-01T00:00:02.500Z",
                                    "1970-01-01T00:00:00.000Z",
                                    "9999-12-31T23:59:59.999Z",
                                    "2026-13-45T99:99:99.999Z",
                                    "garbage",
                                    ""};
/* The metrics the report's sections read (sub-scores have no '.'), and others. */
static const char *const metric_names[] = {"compress",
                                           "float",
                                           "integer",
                                           "memory",
                                           "load.switches_per_s",
                                           "timer.overshoot_us",
                                           "load.cpu_percent",
                                           "load.child_processes",
                                           "census.cpu_ms",
                                           "state.S (sleeping)",
                                           "state.R (running)",
                                           "state.D",
                                           "time.trial_s",
                                           "time.bench_s",
                                           "time.settle_s",
                                           "time.load_start_s",
                                           "time.load_stop_s",
                                           "time.census_s",
                                           "outside.cpu_percent",
                                           "iterations",
                                           "m.\x1b[31mred",
                                           "m.\xe2\x80\xae"};
static const int cpu_counts[] = {8, 1, 0, -1, INT_MAX, 65536, 2};
static const uint64_t memory_sizes[] = {0, 16ULL << 30, UINT64_MAX, 1};

/* ---- a bounded sink -------------------------------------------------------------------- */

typedef struct sink {
  long long written;
  const char *what; /* the report being written, for the message */
} sink;

static ssize_t sink_write(void *cookie, const char *buf, size_t size) {
  (void)buf;
  sink *s = cookie;
  s->written += (long long)size;
  if (s->written > SINK_MAX) {
    fprintf(stderr, "fuzz_report: %s wrote more than %lld bytes\n", s->what, SINK_MAX);
    __builtin_trap();
  }
  return (ssize_t)size;
}

/* Only ftell's question (where are we?) is answered: the report's size guard asks it. */
static int sink_seek(void *cookie, off64_t *offset, int whence) {
  sink *s = cookie;
  if (whence != SEEK_CUR || *offset != 0)
    return -1;
  *offset = s->written;
  return 0;
}

static FILE *sink_open(sink *s, const char *what) {
  s->written = 0;
  s->what = what;
  cookie_io_functions_t io = {NULL, sink_write, sink_seek, NULL};
  FILE *f = fopencookie(s, "w", io);
  if (!f)
    __builtin_trap();
  return f;
}

/* ---- the runs ---------------------------------------------------------------------------- */

static store *db;
static char folder[64], db_path[96];

#define MAX_CONDITIONS 5
#define MAX_BENCHES 3
#define MAX_BLOCKS 5
#define MAX_TRIALS ((MAX_BLOCKS + 1) * MAX_CONDITIONS * MAX_BENCHES)

/* One trial's result from the input: pending, failed, or done with a score and metrics. Refusals
   of the store (a duplicate metric name, a status it does not take) are part of the game. */
static void finish_trial(input *in, int64_t trial_id) {
  static store_metric metrics[STORE_TRIAL_METRICS_MAX];
  static char many[STORE_TRIAL_METRICS_MAX][16];
  ts_err err;
  unsigned action = next_byte(in) % 8;
  if (action == 0)
    return; /* pending */
  if (action == 1) {
    store_trial_fail(db, trial_id, PICK(in, times), "the benchmark \x1b[2Jfailed", &err);
    return;
  }
  int count = 0;
  if (action == 2) { /* the most a trial holds, all distinct */
    for (; count < STORE_TRIAL_METRICS_MAX; count++) {
      snprintf(many[count], sizeof many[count], "m.%03d", count);
      metrics[count] = (store_metric){many[count], (double)count * next_number(in)};
    }
  } else {
    count = (int)(next_byte(in) % 12);
    for (int k = 0; k < count; k++) {
      metrics[k].name = PICK(in, metric_names);
      metrics[k].value = next_number(in);
    }
  }
  /* One statement a choice: the order the input is read in is the same in every build. */
  store_trial_result result = {0};
  result.started_at = PICK(in, times);
  result.finished_at = PICK(in, times);
  result.score = next_number(in);
  result.unit = "Mwork/s";
  result.seconds = next_number(in);
  result.process_threads = (long)next_byte(in) * 1000 - 1;
  result.machine_processes = (long)next_byte(in) - 1;
  result.machine_threads = (long)next_byte(in) * 100;
  result.metric_count = count;
  result.metrics = metrics;
  result.warnings = next_byte(in) & 1 ? "a warning \xe2\x80\xae" : NULL;
  result.power_source = "ac";
  result.power_throttling = "off";
  result.core_classes = "uniform";
  if (store_trial_finish(db, trial_id, &result, &err) != TS_OK || !(next_byte(in) & 1))
    return;
  const char *asked = next_byte(in) & 1 ? "high" : "default";
  const char *obtained = next_byte(in) & 1 ? "high" : "default";
  store_trial_timer(db, trial_id, asked, obtained, next_number(in), &err);
}

/* A run from the input: its conditions, benchmarks and blocks, each trial's result. */
static int64_t make_run(input *in) {
  const char *conditions[MAX_CONDITIONS], *benches[MAX_BENCHES];
  int condition_count = 1 + (int)(next_byte(in) % MAX_CONDITIONS);
  int bench_count = 1 + (int)(next_byte(in) % MAX_BENCHES);
  int blocks = 1 + (int)(next_byte(in) % MAX_BLOCKS);
  int warmup = (int)(next_byte(in) & 1);
  char plan_text[2048];
  size_t used = (size_t)snprintf(plan_text, sizeof plan_text, "name = fuzz\nconditions = ");
  for (int c = 0; c < condition_count; c++) {
    conditions[c] = c == 0 && next_byte(in) & 1 ? "baseline" : PICK(in, condition_names);
    used += (size_t)snprintf(plan_text + used, sizeof plan_text - used, "%s%s", c ? ", " : "",
                             conditions[c]);
  }
  used += (size_t)snprintf(plan_text + used, sizeof plan_text - used, "\nbench = ");
  for (int b = 0; b < bench_count; b++) {
    benches[b] = PICK(in, bench_names);
    used += (size_t)snprintf(plan_text + used, sizeof plan_text - used, "%s%s", b ? ", " : "",
                             benches[b]);
  }
  snprintf(plan_text + used, sizeof plan_text - used, "\nreps = %d\nwarmup = %d\n", blocks, warmup);
  store_run_info info = {0};
  info.plan_name = "fuzz";
  info.plan_text = plan_text;
  info.seed = next_byte(in);
  info.started_at = PICK(in, times);
  info.host = PICK(in, hosts);
  info.os = "Linux";
  info.cpu = "cpu \x1b[1mbold";
  info.logical_cpus = PICK(in, cpu_counts);
  info.version = "1.0";
  info.machine_id = next_byte(in) & 1 ? "0123456789abcdef" : NULL;
  info.memory_bytes = PICK(in, memory_sizes);
  store_trial_plan trials[MAX_TRIALS];
  int n = 0;
  for (int block = warmup ? 0 : 1; block <= blocks; block++)
    for (int c = 0; c < condition_count; c++)
      for (int b = 0; b < bench_count; b++, n++)
        trials[n] = (store_trial_plan){n + 1, block, conditions[c], benches[b], 0};
  int64_t run_id = 0;
  ts_err err;
  if (store_run_begin(db, &info, trials, n, &run_id, &err) != TS_OK)
    return 0;
  for (int i = 0; i < n; i++)
    finish_trial(in, trials[i].id);
  store_run_status status = next_byte(in) % 5 ? STORE_RUN_FINISHED : STORE_RUN_INTERRUPTED;
  const char *detail = next_byte(in) & 1 ? "stopped \x1b[2J" : NULL;
  store_run_end(db, run_id, status, detail, PICK(in, times), &err);
  return run_id;
}

/* ---- the reports ------------------------------------------------------------------------- */

static const char *const format_names[REPORT_FORMAT_COUNT] = {"text", "csv", "json", "html"};

/* A report either written (within its cap: past it, stopped and said so) or refused with a
   reason; anything else is a finding. */
static void expect(int ok, const char *what, const ts_err *err) {
  if (ok)
    return;
  fprintf(stderr, "fuzz_report: %s: %s\n", what, err->text);
  __builtin_trap();
}

static void report_every_format(const int64_t ids[2]) {
  char what[64];
  sink s;
  ts_err err;
  for (int format = 0; format < REPORT_FORMAT_COUNT; format++) {
    for (int k = 0; k < 2; k++) {
      snprintf(what, sizeof what, "the %s report", format_names[format]);
      report_prepared *p = NULL;
      int rc = report_prepare(db, ids[k], (report_format)format, &p, &err);
      if (rc == TS_OK) {
        FILE *f = sink_open(&s, what);
        rc = report_write(p, f, REPORT_CAP, NULL, NULL, &err);
        fclose(f);
        expect(rc == TS_OK || (rc == TS_EFAILED && s.written > REPORT_CAP), what, &err);
      } else {
        expect(err.text[0] != '\0', what, &err);
      }
      report_prepared_free(p);
    }
    snprintf(what, sizeof what, "the %s comparison", format_names[format]);
    FILE *f = sink_open(&s, what);
    int rc = report_compare_format(db, ids, 2, (report_format)format, f, &err);
    fclose(f);
    expect(rc == TS_OK || err.text[0] != '\0', what, &err);
  }
  char line[512];
  for (int k = 0; k < 2; k++)
    if (report_headline_load(db, ids[k], line, sizeof line, &err) == TS_OK &&
        strlen(line) >= sizeof line)
      __builtin_trap();
}

/* The database and its folder go when the program ends. */
static void remove_database(void) {
  static const char *const suffixes[] = {"", "-wal", "-shm", "-journal"};
  char file[128];
  store_close(db);
  for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
    snprintf(file, sizeof file, "%s%s", db_path, suffixes[i]);
    remove(file);
  }
  rmdir(folder);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ts_err err;
  if (!db) {
    /* In memory where there is a tmpfs (each trial is a committed transaction), in a folder of
       our own: the store refuses a folder others may write. */
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : ".";
    snprintf(folder, sizeof folder, "%s/fuzz_report_%d", base, (int)getpid());
    mkdir(folder, 0700);
    snprintf(db_path, sizeof db_path, "%s/fuzz.db", folder);
    remove(db_path);
    if (store_open(&db, db_path, &err) != TS_OK) {
      fprintf(stderr, "fuzz_report: %s\n", err.text);
      __builtin_trap();
    }
    atexit(remove_database);
  }
  input in = {data, size};
  int64_t ids[2] = {make_run(&in), make_run(&in)};
  if (ids[0] && ids[1])
    report_every_format(ids);
  return 0;
}
