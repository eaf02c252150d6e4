/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* checks.h - the doctor's table of machine checks (checks.c, one file each in checks/), what each
   is handed (the context) and the judgements on measured numbers that tests feed with numbers of
   their own. */
#ifndef THREADSOUP_DOCTOR_CHECKS_H
#define THREADSOUP_DOCTOR_CHECKS_H

#include <stddef.h>

#include "findings.h"
#include "threadsoup/err.h"
#include "threadsoup/plat.h"
#include "threadsoup/plat_doctor.h"

/* Where the checks look and what they are given instead of the OS (tests). The doctor looks
   nothing up above itself: what it needs from plans comes in here. */
typedef struct doctor_context {
  const char *address;               /* the service's socket or pipe; NULL: the default */
  const char *data_dir;              /* the service's data folder; NULL: the platform's default */
  const char *root;                  /* Linux limits are read under this folder; NULL: the real / */
  const plat_quiet_ops *quiet_ops;   /* NULL: plat_quiet_system() */
  const plat_rights *rights;         /* NULL: read this process's */
  const plat_task_limits *limits;    /* NULL: read them (plat_task_limits_read under root) */
  int in_run;                        /* inside a run: the limits are this process's own */
  long machine_tasks;                /* tasks running now; -1: count them */
  long load_tasks;                   /* the largest load the limits must leave room for: threads +
                                        processes of the largest condition of any preset
                                        (plan_preset_largest_load) */
  const char *wine;                  /* NULL: plat_wine_version() (tests set "" for none) */
  const plat_spin_clock *spin_clock; /* NULL: measure burn's clock (plat_spin_clock_measure) */
  const plat_service_restart *service_restart; /* NULL: read the service's failure actions */
  const plat_sleep_facts *sleep_facts; /* NULL: read the power plan (plat_sleep_facts_read) */
  /* Connects to the service at `address`, says hello and asks `status`; TS_OK when the verified
     service answered. Errors as plat_ipc_connect's (TS_EUNSUPPORTED: nothing listens, TS_EDENIED:
     not the service). NULL: the server check is skipped (a run inside the service itself). */
  int (*ask_status)(const char *address, char *answer, size_t len, ts_err *err);
  /* The export-to folders of this machine's schedules (the callers read them from the plans);
     NULL: not known, and the export-folders check is skipped. */
  const char *const *export_folders;
  int export_folder_count;
} doctor_context;

/* Which checks run. */
enum {
  DOCTOR_CHEAP = 1, /* the quick checks: no programs started, no PowerShell */
  DOCTOR_SLOW = 2,  /* start processes or programs (idle children, Defender's cmdlets), or spin
                       a CPU for more than 100 ms (burn-clock) */
  DOCTOR_CLIENT = 4 /* about the client and the service it talks to (rights, server) */
};

/* One check, exported by checks/NAME.c as `const doctor_check doctor_check_NAME` and listed by
   name in checks.c's table. */
typedef struct doctor_check {
  const char *name;       /* "timer", "children", … */
  const char *assumption; /* what holds when it is ok */
  int kind;               /* DOCTOR_CHEAP or DOCTOR_SLOW, | DOCTOR_CLIENT */
  void (*run)(const doctor_context *ctx, doctor_finding *out);
} doctor_check;

/* The table. */
size_t doctor_check_count(void);
const doctor_check *doctor_check_at(size_t i);

/* ---- the judgements, on measured numbers, for tests (each in its check's file) -------------- */

/* A 1 ms sleep's median and 90th percentile, in ns. */
void doctor_judge_timer(double median_ns, double p90_ns, int sleeps, doctor_finding *out);
/* The idle children: started, new processes of ours, console hosts, other new processes. */
void doctor_judge_children(long started, long ours, long hosts, long others, doctor_finding *out);
void doctor_judge_rights(const plat_rights *r, doctor_finding *out);
/* Where benchmarks run: whether a thread's power-throttling opt-out took (and the OS's answer),
   the power source (plat_power_source's words) and the core layout in words. */
void doctor_judge_power(int opt_out_works, const char *opt_out_why, const char *source,
                        const char *cores, doctor_finding *out);
/* burn's thread clock against wall time, over spins where the thread ran (checks/burn_clock.c). */
void doctor_judge_burn_clock(const plat_spin_clock *c, doctor_finding *out);
/* The task limits against `need` tasks of the load, with `machine_tasks` running already. */
void doctor_judge_pid_max(const plat_task_limits *l, long need, long machine_tasks,
                          doctor_finding *out);
void doctor_judge_threads_max(const plat_task_limits *l, long need, long machine_tasks,
                              doctor_finding *out);
void doctor_judge_pids_max(const plat_task_limits *l, long need, doctor_finding *out);
void doctor_judge_open_files(const plat_task_limits *l, doctor_finding *out);
/* The service's failure actions as the service manager answers them (checks/restart.c). */
void doctor_judge_restart(const plat_service_restart *r, doctor_finding *out);
/* Where the service runs from, and whether others may change it (checks/image_folder.c). */
void doctor_judge_image_folder(const plat_service_image *image, doctor_finding *out);
/* Export folders: `count` of them looked at, `exposed` of which sit at or below a folder others
   can write; `first` says which and why. */
void doctor_judge_export_folders(int count, int exposed, const char *first, doctor_finding *out);
void doctor_judge_user_tasks(const plat_task_limits *l, long need, doctor_finding *out);
/* Sleep, wake timers and Fast Startup from the power plan's facts (checks/sleep.c,
   checks/wake_timers.c, checks/fast_startup.c). */
void doctor_judge_sleep(const plat_sleep_facts *f, doctor_finding *out);
void doctor_judge_wake_timers(const plat_sleep_facts *f, doctor_finding *out);
void doctor_judge_fast_startup(const plat_sleep_facts *f, doctor_finding *out);

#endif
