/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* doctor.h - `threadsoup doctor`: checks, on the machine it runs on, each assumption a result
   rests on. A table of checks (checks.c), each one function that measures and judges; the runner,
   the verdict and the text and JSON output (doctor.c). A run stores the quick checks' findings. */
#ifndef THREADSOUP_DOCTOR_H
#define THREADSOUP_DOCTOR_H

#include <stdint.h>
#include <stdio.h>

#include "quiet/quiet.h"
#include "threadsoup/err.h"
#include "threadsoup/plat.h"
#include "threadsoup/plat_doctor.h"

/* ok and warn hold (warn is printed: the result holds, but read it knowing this); fail does
   not hold and makes the verdict 1; skip is a check that cannot be made here, with why. */
typedef enum doctor_status { DOCTOR_OK, DOCTOR_WARN, DOCTOR_FAIL, DOCTOR_SKIP } doctor_status;

#define DOCTOR_NAME_MAX 32
#define DOCTOR_TEXT_MAX 384
#define DOCTOR_MAX_FINDINGS 24

typedef struct doctor_finding {
  char check[DOCTOR_NAME_MAX];
  doctor_status status;
  char measured[DOCTOR_TEXT_MAX]; /* what was measured, in words with the numbers */
  double value;                   /* the main number; NaN when none */
  char advice[DOCTOR_TEXT_MAX];   /* what to do (warn, fail), or why it was skipped; "" when ok */
} doctor_finding;

/* Where the checks look and what they are given instead of the OS (tests). */
typedef struct doctor_context {
  const char *address;               /* the service's socket or pipe; NULL: the default */
  const char *data_dir;              /* the service's data folder; NULL: the platform's default */
  const char *root;                  /* Linux limits are read under this folder; NULL: the real / */
  const plat_quiet_ops *quiet_ops;   /* NULL: plat_quiet_system() */
  const plat_rights *rights;         /* NULL: read this process's */
  const plat_task_limits *limits;    /* NULL: read them (plat_task_limits_read under root) */
  int in_run;                        /* inside a run: the limits are this process's own */
  long machine_tasks;                /* tasks running now; -1: count them */
  const char *wine;                  /* NULL: plat_wine_version() (tests set "" for none) */
  const plat_spin_clock *spin_clock; /* NULL: measure burn's clock (plat_spin_clock_measure) */
  /* Connects to the service at `address`, says hello and asks `status`; TS_OK when the verified
     service answered. Errors as plat_ipc_connect's (TS_EUNSUPPORTED: nothing listens, TS_EDENIED:
     not the service). NULL: the server check is skipped (a run inside the service itself). */
  int (*ask_status)(const char *address, char *answer, size_t len, ts_err *err);
} doctor_context;

/* Which checks run. */
enum {
  DOCTOR_CHEAP = 1, /* the quick checks: no programs started, no PowerShell */
  DOCTOR_SLOW = 2,  /* start processes or programs (idle children, Defender's cmdlets), or spin
                       a CPU for more than 100 ms (burn-clock) */
  DOCTOR_CLIENT = 4 /* about the client and the service it talks to (rights, server) */
};

typedef struct doctor_check {
  const char *name;       /* "timer", "children", … */
  const char *assumption; /* what holds when it is ok */
  int kind;               /* DOCTOR_CHEAP or DOCTOR_SLOW, | DOCTOR_CLIENT */
  void (*run)(const doctor_context *ctx, doctor_finding *out);
} doctor_check;

/* The table (checks.c). */
size_t doctor_check_count(void);
const doctor_check *doctor_check_at(size_t i);

typedef struct doctor_report {
  int count;
  doctor_finding findings[DOCTOR_MAX_FINDINGS];
  int ok, warned, failed, skipped;
  uint64_t elapsed_ns;
} doctor_report;

/* Runs the checks whose kind shares a bit with `kinds` and none with `exclude`, in table order. */
void doctor_run(const doctor_context *ctx, int kinds, int exclude, doctor_report *out);
/* Adds a finding to the report's counts (doctor_run does it for each check). */
void doctor_count(doctor_report *r);
/* 1 when every finding holds (none failed). */
int doctor_holds(const doctor_report *r);
const char *doctor_status_name(doctor_status s);
/* "ok", "warn", "fail", "skip" back to a status; -1 for anything else. */
int doctor_status_parse(const char *name);

/* The report for people: one block per check, then the verdict line. */
void doctor_write_text(const doctor_report *r, FILE *out);
/* The same as one JSON object: {"verdict", "elapsed_ms", "checks": [...]}. */
void doctor_write_json(const doctor_report *r, FILE *out);
/* One line: "machine checks: 9 hold (2 with a warning), 1 fails (pids-max), 2 skipped; 140 ms". */
void doctor_summary(const doctor_report *r, char *buf, size_t len);

/* Before a run's first trial: runs the quick checks as the running process sees them (its own
   limits; no client checks), stores the findings with the run (replacing an earlier sitting's)
   and writes a note for the run's output: the summary line and one line per check that warns or
   fails. TS_OK unless storing failed; the checks never stop a run. */
struct store;
int doctor_check_run(struct store *s, int64_t run_id, char *note, size_t len, ts_err *err);

/* ---- the judgements, on measured numbers (checks.c), for tests ----------------------------- */

/* A 1 ms sleep's median and 90th percentile, in ns. */
void doctor_judge_timer(double median_ns, double p90_ns, int sleeps, doctor_finding *out);
/* The idle children: started, new processes of ours, console hosts, other new processes. */
void doctor_judge_children(long started, long ours, long hosts, long others, doctor_finding *out);
void doctor_judge_rights(const plat_rights *r, doctor_finding *out);
/* Where benchmarks run: whether a thread's power-throttling opt-out took (and the OS's answer),
   the power source (plat_power_source's words) and the core layout in words. */
void doctor_judge_power(int opt_out_works, const char *opt_out_why, const char *source,
                        const char *cores, doctor_finding *out);
/* burn's thread clock against wall time over spins where the thread ran (see checks.c). */
void doctor_judge_burn_clock(const plat_spin_clock *c, doctor_finding *out);
/* The largest load of any preset: threads + processes of its largest condition. */
long doctor_preset_tasks(void);
/* The task limits against `need` tasks of the load, with `machine_tasks` running already. */
void doctor_judge_pid_max(const plat_task_limits *l, long need, long machine_tasks,
                          doctor_finding *out);
void doctor_judge_threads_max(const plat_task_limits *l, long need, long machine_tasks,
                              doctor_finding *out);
void doctor_judge_pids_max(const plat_task_limits *l, long need, doctor_finding *out);
void doctor_judge_open_files(const plat_task_limits *l, doctor_finding *out);
void doctor_judge_user_tasks(const plat_task_limits *l, long need, doctor_finding *out);

/* Fills a finding (printf-style measured text). */
void doctor_set(doctor_finding *out, doctor_status status, double value, const char *advice,
                const char *measured_format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#endif
