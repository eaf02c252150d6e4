/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* plan.h - what an experiment runs: conditions x benchmarks x repetitions, with warm-up, settling,
   a quiescence gate and adaptive repetitions; read from presets, plan files and the command line,
   all in one text format (docs/plans.md). */
#ifndef THREADSOUP_PLAN_H
#define THREADSOUP_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "../bench/bench.h"
#include "../engine/engine.h"
#include "threadsoup/err.h"

#define PLAN_MAX_CONDITIONS 32
#define PLAN_MAX_BENCHES 8
#define PLAN_MAX_REPS 1000
#define PLAN_NAME_MAX 64
#define PLAN_BENCH_MAX 64
#define PLAN_TEXT_MAX 512
#define PLAN_FORMAT_MAX 8192
#define PLAN_ACCEPTED_MAX 320

typedef struct plan {
  char name[PLAN_NAME_MAX];
  int condition_count;
  load_spec conditions[PLAN_MAX_CONDITIONS];
  int bench_count;
  char benches[PLAN_MAX_BENCHES][PLAN_BENCH_MAX];
  long reps;                 /* blocks; each runs every condition x benchmark once. With
                                precision: the blocks run before the first check. With fill_ns:
                                the blocks run before the first is added (PLAN_FILL_MIN_BLOCKS) */
  uint64_t fill_ns;          /* 0: reps blocks; else ("reps = 80s") blocks are added after reps
                                while the next one is expected to end within this much of the
                                run's measuring time */
  long warmup;               /* runs of each benchmark before the first block, kept apart */
  uint64_t settle_ns;        /* wait after the load starts, before the gate and the benchmark */
  long iterations;           /* benchmark runs per trial, their mean its score; 0 = auto */
  double work_scale;         /* multiplies the built-in benchmarks' work */
  double precision_pct;      /* 0: fixed reps; else add blocks until every 95 % CI is this narrow
                                (PLAN_PERCENT_DERIVED: precision_target's default) */
  uint64_t budget_ns;        /* adaptive repetitions stop when this time is spent */
  int stop_when_decided;     /* stop before reps blocks once every comparison is decided */
  double quiet_cpu_pct;      /* gate: CPU use outside ThreadSoup must stay under this; 0 = off */
  uint64_t quiet_timeout_ns; /* gate: give up waiting after this (the trial gets a warning) */
  double margin_pct;         /* equivalence margin of "no measurable effect"; 0 = automatic */
  uint64_t bench_timeout_ns; /* external benchmarks are killed after this */
  int quiet;                 /* quiet mode's parts for the run (quiet.h's quiet_parts): 0 off */
  /* The benchmarks' own settings (bench.h), in the order of bench_table and of each one's rows;
     "" = not given. */
  char bench_settings[BENCH_SETTINGS_MAX][BENCH_SETTING_MAX];
  char export_to[PLAN_TEXT_MAX]; /* "" = none; else the folder each finished run is exported to */
} plan;

/* The blocks a plan whose reps is a time runs before the time decides: the paired analysis
   needs 3, and the Holm-adjusted intervals of a few conditions are still very wide at 3 or 4
   (docs/methodology.md). */
#define PLAN_FILL_MIN_BLOCKS 5

/* A percent setting's value derived from the others ("precision = default": 0.62 x the margin). */
#define PLAN_PERCENT_DERIVED (-1.0)

/* Fills *out from a preset ("quick", "seed", "waiters", "dose", "aa", "cost"). */
int plan_preset(const char *name, plan *out, ts_err *err);
/* "  name  help" lines for --help. */
void plan_preset_help(char *buf, size_t len);
const char *plan_default_preset(void);
/* The name of preset number i (from 0); NULL past the last. */
const char *plan_preset_name(size_t i);
int plan_is_preset(const char *name);
/* The largest load of any preset: threads + processes of its largest condition (what the doctor's
   limit checks must leave room for). */
long plan_preset_largest_load(void);

/* Reads a plan file; errors name the file, the line and what is accepted. */
int plan_read_file(const char *path, plan *out, ts_err *err);
/* Reads plan text; `origin` names it in errors ("preset quick", a file name). Settings the text
   does not give keep their defaults. */
int plan_parse(const char *text, const char *origin, plan *out, ts_err *err);
/* Sets one setting by its plan-file key ("reps", "conditions", …), as from the command line. */
int plan_set(plan *p, const char *key, const char *value, ts_err *err);
/* Whether `key` names a setting. */
int plan_is_setting(const char *key);

/* One setting as help and documentation describe it. `accepted` is what its errors say after
   "accepted:", generated from the bounds its setter enforces ("1 to 1000", "off, or 1% to 50%"). */
typedef struct plan_setting_info {
  const char *key;
  const char *help;         /* what it means */
  const char *default_text; /* plan text of its default; "" when it has none */
  char value[24];           /* what --help calls the value: "N", "DURATION", "P|off", "PATH" */
  char accepted[PLAN_ACCEPTED_MAX];
} plan_setting_info;
/* Fills *out for the i-th setting, in the order plan_format writes them; 0 past the last. */
int plan_setting_info_at(size_t i, plan_setting_info *out);
/* "  --KEY VALUE  meaning; accepted: …; default …" lines, one per setting, for run --help. */
void plan_settings_help(char *buf, size_t len);
/* Checks the whole plan (at least one condition and benchmark; command has a command line …). */
int plan_check(const plan *p, ts_err *err);

/* The benchmark `bench_spec` names, as bench_find_with finds it with the settings the plan gives
   it; `settings` (BENCH_SETTINGS_MAX entries) gets their texts in its rows' order, for
   bench_args. */
const bench_def *plan_bench(const plan *p, const char *bench_spec, const char **arg,
                            const char **settings, ts_err *err);
/* The text of a benchmark's setting by its key ("7zip", "command"); NULL when no benchmark has
   it. */
const char *plan_bench_setting(const plan *p, const char *key);

/* Whether the plan makes whoever runs it run programs: a benchmark that runs programs (command),
   or any setting naming a program or a command line (a benchmark's PATH or CMD setting: 7zip,
   cpuz, command) or a folder it writes into (export-to = FOLDER). `what` (may be NULL) gets the
   first such item for messages ("7zip = /opt/x"). */
int plan_runs_programs(const plan *p, char *what, size_t len);

/* Resolves every freeze:background condition (engine/freeze.h) into what it stands for now:
   each of the programs that wake most, chosen by a census of FREEZE_BACKGROUND_SAMPLE_NS for
   `asker` (NULL: this process's user), frozen alone, then all of them together; the real names
   are the conditions the run stores. `said` gets one line per such condition naming them and
   their wake-ups ("" when there is none). Runs before a run is stored. */
int plan_expand_background(plan *p, const plat_peer *asker, char *said, size_t len, ts_err *err);

/* Trials the plan starts with: warm-ups plus conditions x benchmarks x reps. */
int plan_trial_count(const plan *p);
/* The plan as plan-file text, every setting written out: stored with each run, and read back by
   plan_parse when a run is resumed or reported. */
void plan_format(const plan *p, char *buf, size_t len);
/* Index of a condition by its text, -1 when it is not in the plan. */
int plan_condition_index(const plan *p, const char *text);

/* Whether a stored trial's block is one a run writes: 0 (its warm-ups) to PLAN_MAX_REPS. Blocks
   index the statistics' tables, so a database is read only where they are. */
int plan_block_in_range(long block);
/* TS_EFOREIGN_DB into err, naming trial trial_id of run run_id stored in `block` and the blocks
   a run writes. */
int plan_block_refuse(int64_t run_id, int64_t trial_id, long block, ts_err *err);

#endif
