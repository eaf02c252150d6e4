/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* plat_doctor.h - the facts `threadsoup doctor` reads from the OS (implemented twice, as
   plat/posix/doctor.c and plat/win32/doctor.c), as plain structs so tests can hand in their own. */
#ifndef THREADSOUP_PLAT_DOCTOR_H
#define THREADSOUP_PLAT_DOCTOR_H

#include <stddef.h>
#include <stdint.h>

#include "threadsoup/err.h"

/* A limit the OS does not set ("max", "unlimited"). */
#define PLAT_LIMIT_NONE (-2L)
/* A limit that could not be read. */
#define PLAT_LIMIT_UNKNOWN (-1L)

/* Linux's limits on tasks (threads and processes) and open files, as read from /proc and
   /sys/fs/cgroup under `root`. Each is PLAT_LIMIT_UNKNOWN when it could not be read. */
typedef struct plat_task_limits {
  long pid_max;          /* /proc/sys/kernel/pid_max: the highest pid + 1, machine-wide */
  long threads_max;      /* /proc/sys/kernel/threads-max: tasks machine-wide */
  long pids_max;         /* the smallest pids.max of the cgroup and its parents */
  char pids_max_at[256]; /* the cgroup that sets it ("/system.slice/threadsoup.service") */
  char whose[96];        /* whose cgroup and limits: "the threadsoup.service unit (pid 42)" */
  long pid;              /* the process whose limits were read: the service's, or this one */
  long nofile_soft;      /* RLIMIT_NOFILE of that process (from /proc/PID/limits) */
  long nofile_hard;
  long nproc_soft; /* RLIMIT_NPROC: the tasks its user may have */
  long uid;        /* that process's real uid (RLIMIT_NPROC does not bind root) */
} plat_task_limits;

/* Reads the limits under `root` ("" or NULL: the real root; tests pass a folder laid out like
   /proc and /sys/fs/cgroup). The service's unit cgroup (system.slice/threadsoup.service) and its
   first process are used when `prefer_service` and it exists, else this process's own cgroup
   (/proc/self/cgroup, cgroup v2 or v1's pids controller). TS_EUNSUPPORTED on Windows. */
int plat_task_limits_read(const char *root, int prefer_service, plat_task_limits *out, ts_err *err);

/* The calling process's rights, as the service would weigh them. -1 where unknown. */
typedef struct plat_rights {
  int windows;
  char user[64];
  /* POSIX */
  int root;         /* effective uid 0 */
  int group_exists; /* group "threadsoup" exists */
  int group_member; /* this process is in it (primary or supplementary groups) */
  /* Windows */
  int system;         /* LocalSystem */
  int admin_enabled;  /* Administrators enabled in the token (elevated, or UAC off) */
  int admin_filtered; /* an administrator whose token is UAC-filtered (not elevated) */
  int elevated;       /* TokenElevation */
  /* Windows: membership of the local group "ThreadSoup Users" as the service checks it (enabled
     in the token; 0 when the group does not exist); -1 when it cannot be read. */
  int users_group_member;
} plat_rights;

int plat_rights_read(plat_rights *out, ts_err *err);

/* Windows Defender's Tamper Protection: 1 on, 0 off, -1 unknown (no Defender, Wine, Linux). */
int plat_tamper_protection(void);

/* What the service manager keeps about restarting a service after it fails. Windows: its
   SERVICE_CONFIG_FAILURE_ACTIONS and _FLAG as QueryServiceConfig2W answers them (with
   SERVICE_QUERY_CONFIG, which every user has by default); elsewhere TS_EUNSUPPORTED. */
typedef struct plat_service_restart {
  int installed; /* 0: no service of that name */
  int readable;  /* 0: the service manager would not answer the failure actions (why) */
  long reset_s;  /* seconds without failure after which the count of failures starts over */
  int actions;   /* how many actions there are (the n-th failure takes the n-th, or the last) */
  int restarts;  /* how many of them restart the service */
  long first_delay_ms; /* the first action's delay */
  int non_crash;       /* restart also after a stop with an error code: 1, 0, -1 unknown */
  char why[200];       /* why it is not installed or not readable */
} plat_service_restart;

/* Reads the failure actions of the service `name` ("ThreadSoup"). */
int plat_service_restart_read(const char *name, plat_service_restart *out, ts_err *err);

/* The folder of the program the service manager starts as the service, and whether others may
   change the programs in it (plat_program_folder_safe). Windows: the program of the service's
   command line (QueryServiceConfigW, SERVICE_QUERY_CONFIG); elsewhere TS_EUNSUPPORTED. */
typedef struct plat_service_image {
  int installed;     /* 0: no service of that name */
  char folder[1024]; /* the program's folder */
  int safe;          /* 1: only the system and administrators may change it */
  char reason[600];  /* who else may, and how (safe 0) */
} plat_service_image;

/* Reads where the service `name` ("ThreadSoup") runs from, and judges that folder. */
int plat_service_image_read(const char *name, plat_service_image *out, ts_err *err);

/* What decides whether this machine sleeps on its own, wakes for a schedule and really shuts
   down (plat/{posix,win32}/awake.c). Windows: the active power plan's settings
   (PowerReadACValueIndex and PowerReadDCValueIndex in the sleep subgroup) and the registry; Linux:
   whether systemd-logind is there to suspend it and to grant an inhibitor. */
typedef struct plat_sleep_facts {
  int windows;
  long ac_sleep_s;    /* idle time before sleep on mains power (GUID_STANDBY_TIMEOUT); 0 never;
                         PLAT_LIMIT_UNKNOWN when not read */
  long dc_sleep_s;    /* the same on battery */
  int ac_wake_timers; /* "Allow wake timers" (GUID_ALLOW_RTC_WAKE): 0 disabled, 1 enabled,
                         2 important wake timers only; -1 unknown */
  int dc_wake_timers;
  int fast_startup; /* HiberbootEnabled: 1 on, 0 off, -1 unknown */
  int hibernation;  /* HibernateEnabled (Fast Startup needs it): 1, 0, -1 unknown */
  int logind;       /* Linux: systemd-logind runs (its seats and the system bus are there) */
  char why[200];    /* why the power plan could not be read */
} plat_sleep_facts;

/* Reads them; fields it cannot read stay unknown. */
void plat_sleep_facts_read(plat_sleep_facts *out);

/* The Wine version when this program runs under Wine ("9.0"), else NULL. */
const char *plat_wine_version(void);

/* ---- the clock burn counts its spin on (plat_thread_spin_ns's source) ---- */

#define PLAT_SPIN_SAMPLES_MAX 8

/* One spin, compared only over the steps the thread ran through (a preempted thread's clock
   stops while the wall clock goes on). */
typedef struct plat_spin_sample {
  double wall_ns;   /* the whole spin on the wall clock */
  double ran_ns;    /* the wall time of the steps the thread ran through */
  double thread_ns; /* the thread clock's advance over those steps, as burn counts it */
  double rate;      /* Windows: thread cycles per µs over those steps; 0 on Linux */
  long gaps;        /* steps left out (the thread did not run throughout) */
} plat_spin_sample;

typedef struct plat_spin_clock {
  int available;    /* 0: no thread CPU clock here, burn spins on wall time (why says so) */
  char source[96];  /* the two clocks compared, in words */
  char why[160];    /* when not available */
  double base_rate; /* Windows: the cycles per µs burn divides by, measured once; 0 on Linux */
  int count;
  plat_spin_sample samples[PLAT_SPIN_SAMPLES_MAX];
} plat_spin_clock;

/* Spins `samples` times (at most PLAT_SPIN_SAMPLES_MAX) on the calling thread until it has run
   `run_ns` (or `cap_ns` of wall time passed), comparing burn's clock with wall time. Linux:
   CLOCK_THREAD_CPUTIME_ID against CLOCK_MONOTONIC; Windows: QueryThreadCycleTime over the
   cycles per µs burn uses, against QueryPerformanceCounter. */
void plat_spin_clock_measure(int samples, uint64_t run_ns, uint64_t cap_ns, plat_spin_clock *out);

#endif
