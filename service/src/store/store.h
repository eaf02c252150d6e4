/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* store.h - the database of runs and trials: every SQL statement of ThreadSoup lives behind these
   typed functions, one file per kind of row in service/src/store/ (store.c the file itself,
   schema.c its migrations, runs.c, trials.c, schedules.c, quiet_journal.c, freeze_journal.c,
   machine_checks.c, exchange.c, statuses.c, on the helpers of kit.c). */
#ifndef THREADSOUP_STORE_H
#define THREADSOUP_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "threadsoup/err.h"
#include "threadsoup/plat.h"

typedef struct store store;

/* The newest schema this build knows; `PRAGMA user_version` of a ThreadSoup database. */
#define STORE_SCHEMA_VERSION 18
/* `PRAGMA application_id` of every ThreadSoup database: "TSup". */
#define STORE_APPLICATION_ID 0x54537570

/* Opens or creates the database at `path` and migrates it to STORE_SCHEMA_VERSION. A file that is
   not a ThreadSoup database (TS_EFOREIGN_DB) or comes from a newer version (TS_ENEWER_DB) is
   refused and not modified. */
int store_open(store **out, const char *path, ts_err *err);
/* store_open for commands that only read (report, history, export): a database that does not
   exist is TS_EUSAGE "there is no database PATH …" instead of a new, empty one left behind by a
   mistyped --db. An existing older database is still upgraded, as store_open does. */
int store_open_existing(store **out, const char *path, ts_err *err);
void store_close(store *s);
int store_schema_version(store *s);

/* ---- statuses ------------------------------------------------------------------------------
   Each status is an enum here and a text in the database (where CHECK constraints list the same
   texts). One list per status gives both the enum and its text, so the two cannot drift apart.
   Reading a text the list lacks (written by something else) fails with TS_ESTORE. */

/* What became of a run. */
#define STORE_RUN_STATUS_MAP(XX)                                                                   \
  XX(RUNNING, "running") /* started, or resumed; a run killed hard stays running */                \
  XX(FINISHED, "finished")                                                                         \
  XX(INTERRUPTED, "interrupted") /* stopped before its end; it can be resumed */                   \
  XX(FAILED, "failed")

/* STORE_RUN_RUNNING, STORE_RUN_FINISHED, STORE_RUN_INTERRUPTED, STORE_RUN_FAILED */
typedef enum store_run_status {
#define STORE_RUN_STATUS_ENUM(name, text) STORE_RUN_##name,
  STORE_RUN_STATUS_MAP(STORE_RUN_STATUS_ENUM)
#undef STORE_RUN_STATUS_ENUM
} store_run_status;

/* What became of a trial. */
#define STORE_TRIAL_STATUS_MAP(XX)                                                                 \
  XX(PENDING, "pending") /* planned, not run yet */                                                \
  XX(DONE, "done")                                                                                 \
  XX(FAILED, "failed")

/* STORE_TRIAL_PENDING, STORE_TRIAL_DONE, STORE_TRIAL_FAILED */
typedef enum store_trial_status {
#define STORE_TRIAL_STATUS_ENUM(name, text) STORE_TRIAL_##name,
  STORE_TRIAL_STATUS_MAP(STORE_TRIAL_STATUS_ENUM)
#undef STORE_TRIAL_STATUS_ENUM
} store_trial_status;

/* What became of a schedule's due time. */
#define STORE_SCHEDULE_OUTCOME_MAP(XX)                                                             \
  XX(STARTED, "started") /* a run began (its id is recorded) */                                    \
  XX(MISSED, "missed")   /* the service was not running, or past the grace time */                 \
  XX(SKIPPED, "skipped") /* a condition was not met (on battery, user not idle) */

/* STORE_SCHEDULE_STARTED, STORE_SCHEDULE_MISSED, STORE_SCHEDULE_SKIPPED */
typedef enum store_schedule_outcome {
#define STORE_SCHEDULE_OUTCOME_ENUM(name, text) STORE_SCHEDULE_##name,
  STORE_SCHEDULE_OUTCOME_MAP(STORE_SCHEDULE_OUTCOME_ENUM)
#undef STORE_SCHEDULE_OUTCOME_ENUM
} store_schedule_outcome;

/* The database's text of a status ("running", "done", "missed", ...): what reports and the
   protocol show. "unknown" for a value outside the enum. */
const char *store_run_status_name(store_run_status s);
const char *store_trial_status_name(store_trial_status s);
const char *store_schedule_outcome_name(store_schedule_outcome s);

/* A named value of a row: a field of an export record, or a trial's column (store_trial_value). */
typedef enum store_value_type {
  STORE_VALUE_NULL,
  STORE_VALUE_INT,
  STORE_VALUE_REAL,
  STORE_VALUE_TEXT
} store_value_type;

typedef struct store_value {
  const char *name;
  store_value_type type;
  int64_t i;        /* STORE_VALUE_INT */
  double d;         /* STORE_VALUE_REAL */
  const char *text; /* STORE_VALUE_TEXT, UTF-8 */
} store_value;

typedef struct store_run_info {
  const char *plan_name;
  const char *plan_text; /* the whole plan in its canonical text form */
  uint64_t seed;         /* orders the trials; stored so the order can be replayed */
  const char *started_at;
  const char *host;
  const char *os;
  const char *cpu;
  int logical_cpus;
  const char *version;
  const char *machine_id; /* plat_sysinfo's; NULL or "" when not known */
  uint64_t memory_bytes;  /* 0 when not known */
} store_run_info;

/* The run info of a run started now on this machine: host, OS, CPU, memory and machine id from
   `sys` (plat_sysinfo_read), this program's version, and the plan as given. */
struct plat_sysinfo;
store_run_info store_run_info_here(const struct plat_sysinfo *sys, const char *plan_name,
                                   const char *plan_text, uint64_t seed, const char *started_at);

typedef struct store_trial_plan {
  int seq;   /* 1-based position in the run */
  int block; /* 1-based repetition block; 0 = warm-up, left out of statistics */
  const char *condition;
  const char *bench;
  int64_t id; /* filled by store_run_begin */
} store_trial_plan;

/* Stores the run and all its trials as pending, in one transaction, before the first trial runs. */
int store_run_begin(store *s, const store_run_info *info, store_trial_plan *trials, int count,
                    int64_t *run_id, ts_err *err);

typedef struct store_metric {
  const char *name;
  double value;
} store_metric;
/* The most named numbers one trial holds (a trial's metrics are distinct by name): what a
   benchmark's result or an imported file may bring, so a report's tables stay bounded. */
#define STORE_TRIAL_METRICS_MAX 256

typedef struct store_trial_result {
  const char *started_at;
  const char *finished_at;
  double score;
  const char *unit;
  double seconds;         /* the benchmark's measured wall time */
  long process_threads;   /* threads of the measuring process, counted by the OS */
  long machine_processes; /* machine census taken during the trial */
  long machine_threads;
  int metric_count; /* sub-scores and other named numbers */
  const store_metric *metrics;
  const char *warnings; /* NULL, or what went wrong without spoiling the score */
  /* Where the benchmark ran (NULL: not known): see the trial table in docs/schema.md. */
  const char *power_source;
  const char *power_throttling;
  const char *core_classes;
} store_trial_result;

/* Marks one trial done with its result, committed before this returns; TS_EINVAL naming the cap
   for more than STORE_TRIAL_METRICS_MAX metrics. */
int store_trial_finish(store *s, int64_t trial_id, const store_trial_result *result, ts_err *err);
/* Records a trial's timer resolution: what its condition asked for and what its sleepers
   obtained ("default" or "high"; TS_EINVAL for anything else), and the OS's timer resolution
   observed in us (negative or NaN: not known, stored as NULL). */
int store_trial_timer(store *s, int64_t trial_id, const char *asked, const char *obtained,
                      double observed_us, ts_err *err);
/* Marks one trial failed with the reason. */
int store_trial_fail(store *s, int64_t trial_id, const char *finished_at, const char *reason,
                     ts_err *err);

/* Records how a run ended (any status; usually finished, interrupted or failed); detail may be
   NULL. TS_EINVAL for a status outside the enum. */
int store_run_end(store *s, int64_t run_id, store_run_status status, const char *detail,
                  const char *finished_at, ts_err *err);
/* Interrupts a run that the service's stop cut short, to resume at the service's next start:
   status interrupted, the detail and end, and resume_at_start set. */
int store_run_checkpoint(store *s, int64_t run_id, const char *detail, const char *at, ts_err *err);

typedef struct store_trial_row {
  int64_t id;
  int seq;
  int block;
  char condition[128];
  char bench[64];
  store_trial_status status;
  double score; /* valid when status is STORE_TRIAL_DONE */
  char unit[32];
  int has_warnings;
  char finished_at[32];
  char started_at[32];
  double seconds;               /* NAN when not measured */
  long process_threads;         /* -1 when not counted */
  char warnings[256];           /* "" when none */
  char resolution_asked[16];    /* "default", "high", or "" when not recorded */
  char resolution_obtained[16]; /* the same */
  double timer_resolution_us;   /* the OS's timer resolution observed; NAN when not known */
  char power_source[32];        /* "" when not recorded (older trials, scores typed in) */
  char power_throttling[128];
  char core_classes[128];
  long machine_processes; /* the machine's census during the trial; -1 when not counted */
  long machine_threads;
} store_trial_row;

/* ---- the trial's columns, declared once -----------------------------------------------------
   One row per column of the trial table, from which the store builds its SELECT of trials and the
   fields of export files' trial records (import and export), and which the reports can walk to
   show a trial (CSV columns, JSON members). A test holds it equal to the trial table of a new
   database. */

/* How store_trial_row holds a column. */
typedef enum store_trial_field {
  STORE_FIELD_NONE,   /* not in the row: export files only */
  STORE_FIELD_ID,     /* int64_t */
  STORE_FIELD_INT,    /* int */
  STORE_FIELD_STATUS, /* store_trial_status, stored as its text */
  STORE_FIELD_TEXT,   /* char[size]; "" when NULL */
  STORE_FIELD_SCORE,  /* double; meaningful only when the trial is done */
  STORE_FIELD_REAL,   /* double; NAN when NULL */
  STORE_FIELD_COUNT   /* long; -1 when NULL */
} store_trial_field;

typedef struct store_trial_column {
  const char *name;      /* the column of table trial, the field of export records, the report's */
  store_value_type type; /* the SQL type (INTEGER, REAL, TEXT) and that of its values */
  int exported;          /* 1: a field of export files' trial records (docs/schema.md) */
  int report;            /* its place among the reports' trial columns, from 1; 0: not shown */
  store_trial_field field; /* how store_trial_row holds it */
  size_t offset;           /* of the field in store_trial_row */
  size_t size;             /* of the field: a text's buffer */
} store_trial_column;

/* In the order of export files' trial records. */
extern const store_trial_column store_trial_columns[];
extern const int store_trial_column_count;

/* A column's value in a row as reports show it: STORE_VALUE_NULL when not recorded (seconds NAN,
   a count -1, the score of a trial not done) or not in the row; a text points into the row ("" when
   not recorded); the status is its text. */
store_value store_trial_value(const store_trial_row *row, const store_trial_column *column);

/* Calls fn for each distinct (power source, power throttling, core classes) of the run's done
   trials, most frequent first, with the number of trials; NULL columns come as "" (older trials,
   scores typed in). */
int store_run_placement(store *s, int64_t run_id,
                        int (*fn)(void *ctx, const char *power_source, const char *power_throttling,
                                  const char *core_classes, int trials),
                        void *ctx, ts_err *err);

/* Calls fn for each trial of the run in sequence order; stops early when fn returns non-zero.
   TS_ESTORE when a trial's status is not one this build knows. */
int store_run_trials(store *s, int64_t run_id, int (*fn)(void *ctx, const store_trial_row *row),
                     void *ctx, ts_err *err);

/* The client a schedule or a run is for (the owner_* columns): whose programs its freezes may
   freeze when that client is not there. */
typedef struct store_owner {
  int known;                   /* 0: none stored (a row from before its version, a foreground
                                  run, an imported run); the fields below are then empty */
  long uid;                    /* POSIX uid; -1 on Windows */
  char sid[PLAT_SID_TEXT_MAX]; /* Windows user SID; "" on POSIX */
  char name[64];               /* for logs */
  int member;                  /* 1: a member of ThreadSoup Users (group threadsoup) and no more */
} store_owner;

/* The most logical CPUs a run's machine is believed to have had: Windows' and Linux's limits
   are in the thousands; a larger stored count is damaged or forged. */
#define STORE_LOGICAL_CPUS_MAX 65536

typedef struct store_run_row {
  int64_t id;
  char plan_name[64];
  char plan_text[8192];
  uint64_t seed;
  store_run_status status;
  char status_detail[600];
  char started_at[32];
  char finished_at[32];
  char host[128];
  char os[128];
  char cpu[128];
  int trials_total;
  int trials_done;
  int trials_failed;
  int resume_at_start;     /* 1: checkpointed by the service's stop, resumes at its next start */
  int by_service;          /* 1: the service ran it; 0: a foreground `threadsoup run` */
  int programs_allowed;    /* 1: whoever asked may make the service run programs */
  int logical_cpus;        /* of the machine the run was measured on (as stored when it began);
                              0 when not known (a stored count outside 1..STORE_LOGICAL_CPUS_MAX) */
  char uid[40];            /* the run's identity across databases (32 hex digits) */
  char machine_id[40];     /* ThreadSoup's id of the machine; "" when not known */
  uint64_t memory_bytes;   /* of that machine; 0 when not known (none stored, or below 1) */
  char imported_from[512]; /* the file the run was imported from; "" when measured here */
  char imported_at[32];
  char owner[64];   /* the client who made a run of scores typed in through the service; "" else */
  char version[32]; /* the ThreadSoup version that began the run */
  int64_t schedule_id;     /* the schedule that started it; 0 when none did */
  store_owner started_for; /* the client the service started (or a client resumed) it for, or
                              its schedule's owner (schema 18); not known otherwise */
} store_run_row;

/* Every function that reads runs fails with TS_ESTORE when a run's status is not one this build
   knows. */

/* Reads one run with its trial counts; TS_EINVAL when there is no such run. */
int store_run_get(store *s, int64_t run_id, store_run_row *out, ts_err *err);
/* The id of the newest run, 0 when there is none. */
int store_latest_run(store *s, int64_t *run_id, ts_err *err);
/* Adds trials (a further block of adaptive repetitions) to a run, pending, in one transaction;
   their seq must follow the run's last. */
int store_trials_append(store *s, int64_t run_id, store_trial_plan *trials, int count, ts_err *err);
/* Deletes a run's pending trials: the planned blocks a run stopped before (--stop-when-decided),
   which were not run and are not missing. */
int store_trials_drop_pending(store *s, int64_t run_id, ts_err *err);
/* Marks a run running again (resume), clears its end and its resume_at_start. */
int store_run_reopen(store *s, int64_t run_id, ts_err *err);
/* The scores a trial may hold: 0, or from STORE_SCORE_MIN to STORE_SCORE_MAX. Kept where they
   enter (record, import), since a baseline near 0 against a large score makes a difference no
   chart or sum can hold. */
#define STORE_SCORE_MIN 1e-9
#define STORE_SCORE_MAX 1e15
/* TS_EINVAL naming `what` (e.g. "score"), the value and the accepted range when score is not one
   a trial may hold; a check the record request and `threadsoup record` share (store_trial_record
   makes it too). */
int store_score_check(double score, const char *what, ts_err *err);
/* Stores a score measured by hand as a finished trial of the run (source 'manual'); refuses a
   score store_score_check refuses, and an imported run (TS_EDENIED: another machine's). */
int store_trial_record(store *s, int64_t run_id, const char *condition, const char *bench,
                       double score, const char *unit, const char *at, int64_t *trial_id,
                       ts_err *err);
/* What `threadsoup record` and the service's record request store: the score as
   store_trial_record does, into a run of scores typed in only (TS_EDENIED naming what is accepted
   for a run ThreadSoup measured, finished or not), in the unit the run's earlier scores of the
   same benchmark carry (TS_EINVAL naming it otherwise); the run is then finished, ended at `at`. */
int store_score_record(store *s, int64_t run_id, const char *condition, const char *bench,
                       double score, const char *unit, const char *at, int64_t *trial_id,
                       ts_err *err);
/* Creates a run for scores typed in by hand (plan "manual", no planned trials). */
int store_run_create_manual(store *s, const store_run_info *info, int64_t *run_id, ts_err *err);
/* The same for the service's client `owner` (its user name), stored as the run's owner: a member
   of group threadsoup (ThreadSoup Users) records only into runs it owns. */
int store_run_create_owned(store *s, const store_run_info *info, const char *owner, int64_t *run_id,
                           ts_err *err);
/* Calls fn for each run, newest first (by start time, then id), at most `limit`. */
int store_runs(store *s, int limit, int (*fn)(void *ctx, const store_run_row *row), void *ctx,
               ts_err *err);

/* Calls fn for each named trial number (sub-scores, census) of the run's trials, by trial sequence
   then name; stops early when fn returns non-zero. */
int store_run_metrics(store *s, int64_t run_id,
                      int (*fn)(void *ctx, int64_t trial_id, const char *name, double value),
                      void *ctx, ts_err *err);

/* The mean of a named trial number (e.g. "load.switches_per_s") over the done trials of one
   condition of a run (warm-ups left out); NAN when there is none. */
double store_condition_metric_mean(store *s, int64_t run_id, const char *condition,
                                   const char *metric);

/* The timer resolution of one condition's done trials (warm-ups left out): the texts asked and
   obtained ("high", "default", "default,high" when trials differ, "" when none recorded) and the
   mean observed resolution in us (NAN when not known). */
int store_condition_timer(store *s, int64_t run_id, const char *condition, char *asked,
                          size_t asked_len, char *obtained, size_t obtained_len,
                          double *observed_us, ts_err *err);

/* One done trial of an earlier run, outside warm-ups, measured (not typed in): what the estimate
   of a plan's sensitivity reads (experiment/estimate.c). */
typedef struct store_history_trial {
  int64_t run_id;
  const char *plan_text; /* the run's stored plan: its work scale tells comparable runs apart */
  const char *condition;
  int block;
  double score;
  double seconds;      /* the benchmark's measured wall time; NAN when not measured */
  double wall_seconds; /* finished_at - started_at: the whole trial (load start, settle, gate,
                          census, benchmark, teardown); NAN when a time is missing */
  int runs;            /* the benchmark's runs in the trial (iter.count; 1 where not kept) */
} store_history_trial;

/* Calls fn for each done, measured, non-warm-up trial of `bench` under `condition` (NULL: under
   every condition) in runs on `host` measured here (imported runs left out: another machine may
   share the name), newest run first and in sequence order within a run; stops early when fn
   returns non-zero. */
int store_bench_history(store *s, const char *host, const char *bench, const char *condition,
                        int (*fn)(void *ctx, const store_history_trial *t), void *ctx, ts_err *err);

/* Calls fn with the wall time in seconds of each block of the run (warm-ups left out) whose
   trials are all done, from its first trial's start to its last trial's end, by block. */
int store_run_block_seconds(store *s, int64_t run_id,
                            int (*fn)(void *ctx, int block, double seconds), void *ctx,
                            ts_err *err);

/* ---- schedules ---------------------------------------------------------------------------- */

typedef struct store_schedule {
  int64_t id;
  char spec[96]; /* "daily 03:00", "weekly mon 03:00", "once 2026-12-01 03:00", "boot 10m" */
  char plan_text[8192];
  int require_ac;
  long require_idle_s;
  long grace_s;
  int64_t next_due; /* Unix seconds; 0 = none (a boot schedule before the next start) */
  int enabled;
  char last_event[160]; /* "started run 7 at …", "missed …", or "" */
  int programs_allowed; /* 1: added by a client that may make the service run programs */
  /* Who added it (schema 17), whose programs its runs' freezes may freeze; not known for a
     schedule added before, which has the right above alone. */
  store_owner owner;
} store_schedule;

int store_schedule_add(store *s, const store_schedule *schedule, const char *created_at,
                       int64_t *id, ts_err *err);
/* Calls fn for each schedule by id. */
int store_schedules(store *s, int (*fn)(void *ctx, const store_schedule *sc), void *ctx,
                    ts_err *err);
/* TS_EINVAL when there is no such schedule. */
int store_schedule_remove(store *s, int64_t id, ts_err *err);
int store_schedule_update(store *s, int64_t id, int64_t next_due, int enabled, ts_err *err);
/* Records what became of a due time: started (with run_id), missed or skipped. TS_EINVAL for an
   outcome outside the enum. */
int store_schedule_event(store *s, int64_t id, store_schedule_outcome what, int64_t run_id,
                         const char *detail, const char *at, ts_err *err);
int store_run_set_schedule(store *s, int64_t run_id, int64_t schedule_id, ts_err *err);
/* Marks a run as the service's (it resumes at the service's next start when cut short) and
   records whether whoever asked may make the service run programs, and who that was (`owner`;
   NULL or not known: nobody known, as for a run stored before schema 18). */
int store_run_set_origin(store *s, int64_t run_id, int programs_allowed, const store_owner *owner,
                         ts_err *err);
/* Ends a run that must not run: status failed with `detail` (the reason), resume_at_start off. */
int store_run_refuse(store *s, int64_t run_id, const char *detail, const char *at, ts_err *err);
/* Runs that did not finish (status running or interrupted), oldest first; resume_at_start tells
   which of the interrupted ones the service's stop checkpointed. Imported runs are left out: they
   were measured elsewhere and are not this machine's to resume. */
int store_unfinished_runs(store *s, int (*fn)(void *ctx, const store_run_row *row), void *ctx,
                          ts_err *err);

/* ---- the freeze journal ---------------------------------------------------------------------- */

/* One program a freeze froze (or was about to). */
typedef struct store_frozen {
  long pid;
  char name[64];
  long owner_pid;
} store_frozen;

/* Records the programs `owner_pid` is about to freeze, in one transaction, before it freezes them.
 */
int store_freeze_record(store *s, const store_frozen *programs, int count, const char *frozen_at,
                        ts_err *err);
/* Forgets every program `owner_pid` froze: it has thawed them. */
int store_freeze_forget(store *s, long owner_pid, ts_err *err);
/* Every program still recorded; *list is malloc'ed (NULL when there are none). */
int store_freeze_list(store *s, store_frozen **list, int *count, ts_err *err);

/* ---- quiet mode's journal ------------------------------------------------------------------- */

/* One stretch of quiet mode: the state before it, what it changed, and its end. */
typedef struct store_quiet_entry {
  int64_t id;
  char started_at[32];
  char reason[160];
  int defender_was;                /* real-time protection before: 1 on, 0 off, -1 not known */
  int64_t update_paused_until_was; /* the pause's end before (Unix s), 0 none, -1 not known */
  int defender_changed;            /* 1: quiet mode turned (or was about to turn) Defender off */
  int update_changed;              /* 1: quiet mode set (or was about to set) the pause */
  int64_t update_paused_until_set; /* the end quiet mode set; 0 when it set none */
  char restored_at[32];            /* "" while quiet mode is on */
  char restore_error[512];         /* what went wrong restoring, or "" */
  int64_t restore_by; /* Unix s by which the service restores it; 0 none (older entries) */
  /* What quiet mode asked for and what it could confirm (schema 8; older entries: 0, -1, ""). */
  int64_t run_id;             /* the run it was entered for, 0 by hand */
  int defender_asked;         /* 1: real-time protection asked off */
  int defender_confirmed;     /* 1 read back off, 0 read back on, -1 not read back */
  int64_t update_asked_until; /* the pause end asked for (Unix s), 0 none */
  char update_state[16];      /* "confirmed", "written", "failed", "blocked", "not-asked", "" */
  char update_how[300];       /* the signal that confirmed it, or why not */
  /* Quiet mode by parts (schema 13; older entries: 0, "", 0). */
  int parts_asked;        /* 1 Defender, 2 Windows Update, 3 both; 0 not recorded (both) */
  char defender_how[300]; /* why Defender was left as it was, or "" */
  long owner_pid;         /* the process that entered it; 0 not recorded */
} store_quiet_entry;

/* Opens a journal entry with the state before quiet mode (started_at, reason, defender_was,
   update_paused_until_was, restore_by, parts_asked, owner_pid; nothing changed yet), committed
   before this returns. TS_EINVAL when an entry is already open (quiet mode is on). */
int store_quiet_begin(store *s, const store_quiet_entry *entry, int64_t *id, ts_err *err);
/* Records which parts quiet mode changes, before and after changing them. */
int store_quiet_set_changed(store *s, int64_t id, int defender_changed, int update_changed,
                            int64_t update_paused_until_set, ts_err *err);
/* Ends the entry (restored_at not NULL) or, with restored_at NULL, only records why restoring
   failed so far and leaves it open for another try. restore_error may be NULL. */
int store_quiet_end(store *s, int64_t id, const char *restored_at, const char *restore_error,
                    ts_err *err);
/* Records what quiet mode asked for and confirmed (defender_asked to update_how, defender_how). */
int store_quiet_set_confirmed(store *s, int64_t id, const store_quiet_entry *e, ts_err *err);
/* Ties the entry to the run it was entered for. */
int store_quiet_set_run(store *s, int64_t id, int64_t run_id, ts_err *err);
/* The newest entry entered for a run: *found = 0 when the run asked for no quiet mode. */
int store_quiet_run_entry(store *s, int64_t run_id, store_quiet_entry *out, int *found,
                          ts_err *err);
/* The open entry: *found = 0 when quiet mode is off. */
int store_quiet_open_entry(store *s, store_quiet_entry *out, int *found, ts_err *err);
/* The newest entry, open or not, of this machine (entries imported with a run left out):
 *found = 0 when quiet mode was never used here. */
int store_quiet_last_entry(store *s, store_quiet_entry *out, int *found, ts_err *err);

/* Runs SQLite's integrity check; TS_ESTORE with its first complaint when the file is damaged. */
int store_integrity_check(store *s, ts_err *err);

/* ---- machine checks stored with a run (`threadsoup doctor`'s quick checks) ----------------- */

typedef struct store_doctor_row {
  char check[32];
  char status[8]; /* ok, warn, fail, skip */
  char measured[384];
  double value; /* NaN: none */
  char advice[384];
  char checked_at[32];
} store_doctor_row;

/* Replaces the run's stored checks with `rows` (in their order), in one transaction. */
int store_doctor_save(store *s, int64_t run_id, const store_doctor_row *rows, int count,
                      ts_err *err);
/* The run's checks in order; fn returning non-zero stops early. */
int store_doctor_findings(store *s, int64_t run_id,
                          int (*fn)(void *ctx, const store_doctor_row *row), void *ctx,
                          ts_err *err);

/* ---- runs across databases (threadsoup export and import) ------------------------------------
   A run travels as records of named values, one record per row: the run, its machine checks,
   its quiet-mode journal entry, its trials and their metrics. The names are the columns of
   docs/schema.md's export format; exchange.c keeps the one list of them, for both directions
   (the trial's: store_trial_columns). */

#define STORE_RECORD_MAX_VALUES 32

/* The kinds of records, in the order store_run_export gives them. */
#define STORE_RECORD_KIND_MAP(XX)                                                                  \
  XX(RUN, "run")       /* exactly one, first */                                                    \
  XX(DOCTOR, "doctor") /* the machine checks, by position */                                       \
  XX(QUIET, "quiet")   /* quiet mode's journal entry entered for the run; at most one */           \
  XX(TRIAL, "trial")   /* by seq */                                                                \
  XX(METRIC, "metric") /* a trial's named number, the trial given by its seq */

typedef enum store_record_kind {
#define STORE_RECORD_KIND_ENUM(name, text) STORE_RECORD_##name,
  STORE_RECORD_KIND_MAP(STORE_RECORD_KIND_ENUM)
#undef STORE_RECORD_KIND_ENUM
      STORE_RECORD_KIND_COUNT
} store_record_kind;

typedef struct store_record {
  store_record_kind kind;
  int count;
  store_value values[STORE_RECORD_MAX_VALUES];
} store_record;

/* "run", "trial", ...; NULL outside the enum. */
const char *store_record_kind_name(store_record_kind kind);
/* The kind named `name`; -1 when there is none. */
int store_record_kind_parse(const char *name);

/* Calls fn for each record of the run, in the order of STORE_RECORD_KIND_MAP, all read in one
   read transaction (a run being measured is seen as of one moment); fn returning non-zero stops
   early. Texts are valid until fn returns. TS_EINVAL when there is no such run. */
int store_run_export(store *s, int64_t run_id, int (*fn)(void *ctx, const store_record *rec),
                     void *ctx, ts_err *err);

/* The ids of every run, oldest first (what `threadsoup export all` writes). */
int store_run_ids(store *s, int (*fn)(void *ctx, int64_t run_id), void *ctx, ts_err *err);

/* How an import ended: a new run, or the uid known already with the same or other contents. */
typedef enum store_import_outcome {
  STORE_IMPORT_NEW,      /* stored as a new run */
  STORE_IMPORT_SAME,     /* the uid was there, with the same run facts, trials and metrics */
  STORE_IMPORT_CONFLICT, /* the uid was there with other contents: the stored run is kept */
} store_import_outcome;

typedef struct store_import_result {
  store_import_outcome outcome;
  int64_t run_id; /* the new run, or the stored one of the same uid */
  /* SAME and CONFLICT: where the stored run came from ("" when it was measured here) */
  char stored_from[1024];
} store_import_result;

/* A run being imported, record by record, in one transaction (store_import_begin .. _end). */
typedef struct store_import store_import;

/* Starts storing a run read from an export file: opens the transaction and stores its run record
   (checked as store_record_check does), so memory stays one record's, not the file's. Imported
   runs are never resumed here. */
int store_import_begin(store *s, const store_record *run, const char *imported_from,
                       const char *imported_at, store_import **out, ts_err *err);
/* Stores one more record of the run: machine checks, the quiet-mode entry (one at most; one
   still open on the exporting machine is stored closed, this machine has nothing to restore),
   trials, and metrics after the trial their seq names (at most STORE_TRIAL_METRICS_MAX each).
   TS_EINVAL naming the value for a name exchange.c does not list for its kind, a value of the
   wrong type, a timestamp not written as the exporter writes it (ISO 8601 UTC) or a metric of no
   earlier trial; TS_ESTORE when the database refuses the row. The caller then aborts. */
int store_import_add(store_import *im, const store_record *rec, ts_err *err);
/* Ends the import and frees im: commits a new run; when the uid was there already, compares the
   stored run with this one (the run's facts, its trials and their metrics, by a digest of each
   in canonical order) and rolls this one back, leaving the stored run as it was. */
int store_import_end(store_import *im, store_import_result *out, ts_err *err);
/* Rolls the import back and frees im (after a refused record); NULL is ignored. */
void store_import_abort(store_import *im);
/* Checks one record as the import does before it writes it (names, types, timestamps), so a
   reader can name the line at fault: TS_EINVAL naming the value. */
int store_record_check(const store_record *rec, ts_err *err);

#endif
