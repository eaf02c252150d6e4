/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* plat_knobs.h - the one table of test knobs (plat/knobs.c): what a test may change in how the
   platform layer and the code above it meet the OS, by name, as SQLite's OS layer has one table
   of overridable system calls. A test sets a knob, the code reads it; nowhere else holds state
   for tests. */
#ifndef THREADSOUP_PLAT_KNOBS_H
#define THREADSOUP_PLAT_KNOBS_H

#include <stdint.h>

/* Each knob is off until a test sets it, and then the code does what the knob says instead of
   what it does on a real machine. Text and number knobs are set before the code that reads them
   runs (no lock); refusal knobs may change while threads call the site (atomics). */
typedef enum plat_knob {
  /* Refusals: OS calls that fail as the OS fails them when out of resources (plat_fault_inject),
     so the paths that handle them are tested without exhausting a machine. */
  PLAT_FAULT_THREAD_START, /* plat_thread_start */
  PLAT_FAULT_CHILD_SPAWN,  /* plat_child_group_spawn */
  PLAT_FAULT_CHILD_LOST,   /* plat_child_group_spawn on Windows: the child starts, yet its
                              creation reports a refusal (Wine does this under load) */
  PLAT_FAULT_HIRES_TIMER,  /* a high-resolution sleeper: Windows plat_sleeper_init is refused the
                              flag as before Windows 10 1803 (ERROR_INVALID_PARAMETER); POSIX
                              plat_sleeper_enter is refused the timer slack */
  PLAT_FAULT_SUSPEND,      /* not a refusal: a read of plat_suspended_ns that is due sees a
                              minute more time asleep than the machine had (a suspend between
                              two readings) */
  PLAT_FAULT_WAKE_TIMER,   /* plat_wake_timer_open: refused as Linux refuses a process without
                              CAP_WAKE_ALARM (EPERM) */
  /* Text: recorded data or a test's place instead of the real one. */
  PLAT_KNOB_CENSUS_SOURCE,      /* the census reads recorded data through the same parsing code:
                                   POSIX a folder laid out like /proc; Windows a file holding a
                                   SystemProcessInformation buffer (format: ntprocinfo.h) */
  PLAT_KNOB_UPDATE_KEY,         /* Windows: the HKLM subkey that holds the Windows Update pause
                                   values instead of SOFTWARE\Microsoft\WindowsUpdate\UX\Settings,
                                   so the registry code runs under Wine without touching them */
  PLAT_KNOB_UPDATE_SIGNAL_ROOT, /* Windows: the HKLM subkey under which the update stack's signal
                                   and policy are read (its UpdatePolicy\Settings,
                                   UpdatePolicy\PolicyState, Policies\WindowsUpdate(\AU),
                                   PolicyManager\Update) instead of the real places */
  /* Numbers. */
  PLAT_KNOB_TIMER_COARSEST, /* Windows: NtQueryTimerResolution's answer (100 ns units) instead of
                               ntdll's, when PLAT_KNOB_TIMER_CURRENT is set */
  PLAT_KNOB_TIMER_FINEST,
  PLAT_KNOB_TIMER_CURRENT,
  PLAT_KNOB_QUIET_CONFIRM_WAIT_MS, /* how long quiet_enter waits for the update stack's signal */
  PLAT_KNOB_INHIBIT_PROGRAM,       /* Linux: the program plat_stay_awake_begin runs instead of
                                      systemd-inhibit (with the same arguments), logind or not */
  PLAT_KNOB_ASLEEP_S,              /* the service's wall clock (schedules, quiet mode's deadline)
                                      reads this many seconds ahead: the machine slept that long
                                      while the scheduler's wait stood still */
  PLAT_KNOB_MACHINE_BUSY_PERMILLE, /* plat_machine_cpu_ns reads the machine this busy (per mille,
                                      as one CPU timed by the monotonic clock) instead of
                                      /proc/stat or GetSystemTimes: a machine exactly as quiet or
                                      busy as a test of the quiet gate needs */
  PLAT_KNOBS
} plat_knob;

typedef plat_knob plat_fault_site;

/* The knob's name as the docs and messages write it, e.g. "census-source". */
const char *plat_knob_name(plat_knob knob);
/* Turns any knob off: the code goes back to the real OS. */
void plat_knob_reset(plat_knob knob);
/* 1 when a test has set the knob. */
int plat_knob_is_set(plat_knob knob);

/* Sets a text knob (NULL turns it off). */
void plat_knob_set_text(plat_knob knob, const char *text);
/* The text a test set, or NULL when the knob is off. */
const char *plat_knob_text(plat_knob knob);

/* Sets a number knob. */
void plat_knob_set_number(plat_knob knob, long value);
/* The number a test set, or `otherwise` when the knob is off. */
long plat_knob_number(plat_knob knob, long otherwise);

/* After `successes` more calls at `site` succeed, the next `refusals` calls fail as the OS fails
   them when out of resources (refusals < 0: every further call), then calls succeed again.
   successes < 0 turns the knob off, the default. */
void plat_fault_inject(plat_fault_site site, long successes, long refusals);
/* Counts one call at `site`; 1 when that call must be refused. */
int plat_fault_due(plat_fault_site site);

/* For plat_machine_cpu_ns: 1 when machine-busy-permille is set, with the readings it makes at
   `now_ns` (plat_clock_ns) of a machine that reads as one CPU that busy. */
int plat_machine_busy_injected(uint64_t now_ns, uint64_t *busy_ns, uint64_t *total_ns);

#endif
