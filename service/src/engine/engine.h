/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* engine.h - the load engine: parses load specifications, starts the scenarios they name, and tears
   every thread and process down again. */
#ifndef THREADSOUP_ENGINE_H
#define THREADSOUP_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "threadsoup/err.h"
#include "threadsoup/plat.h"

#define LOAD_MAX_COUNT 1000000L /* more threads than any OS here gives one process */
#define LOAD_MAX_PARTS 8        /* scenarios joined with '+' in one condition */
#define LOAD_TEXT_MAX 192

typedef struct scenario_def scenario_def;

/* Options a scenario may take; each scenario lists the ones it accepts. */
enum load_option {
  LOAD_OPT_INTERVAL = 1 << 0,   /* sleep: time between wake-ups */
  LOAD_OPT_KIND = 1 << 1,       /* wait: what the threads wait on */
  LOAD_OPT_STACK = 1 << 2,      /* thread stack size */
  LOAD_OPT_PRIORITY = 1 << 3,   /* thread priority */
  LOAD_OPT_RAMP = 1 << 4,       /* create gradually over a duration */
  LOAD_OPT_PHASE = 1 << 5,      /* sleep: first wake-ups spread or together */
  LOAD_OPT_TIMER = 1 << 6,      /* sleep: relative or absolute deadlines */
  LOAD_OPT_CHECK = 1 << 7,      /* yield: check the stop flag in the loop */
  LOAD_OPT_RESOLUTION = 1 << 8, /* sleep: the OS's plain sleep or high-resolution timers */
  LOAD_OPT_DUTY = 1 << 9,       /* burn: the COUNT slot holds a duty ("10%"), "@" a period, and
                                   the count (/count=N) defaults to one per logical CPU */
};
#define LOAD_THREAD_OPTIONS (LOAD_OPT_STACK | LOAD_OPT_PRIORITY | LOAD_OPT_RAMP)

typedef enum load_phase { LOAD_PHASE_SPREAD, LOAD_PHASE_SYNC } load_phase;
typedef enum load_timer { LOAD_TIMER_RELATIVE, LOAD_TIMER_ABSOLUTE } load_timer;

/* One scenario with its options, e.g. "sleep:5000@500ms". */
typedef struct load_part {
  const scenario_def *scenario;
  long count;
  uint64_t interval_ns;       /* sleep */
  int kind;                   /* wait: index into scenario->kinds */
  size_t stack_bytes;         /* 0 = the platform's smallest safe stack */
  plat_priority priority;     /* PLAT_PRIORITY_NORMAL = unchanged */
  uint64_t ramp_ns;           /* 0 = as fast as possible */
  load_phase phase;           /* sleep */
  load_timer timer;           /* sleep */
  int check;                  /* yield: 1 = the loop checks the stop flag (mode 1) */
  plat_resolution resolution; /* sleep: default (plain sleep) or high */
  int duty_permille;          /* burn: tenths of a percent of each period spent spinning, 1-1000 */
  int count_auto;             /* burn: 1 while count is the default, one per logical CPU */
} load_part;

/* A condition of an experiment: no parts ("baseline") or parts joined with '+'. */
typedef struct load_spec {
  char text[LOAD_TEXT_MAX]; /* canonical form, e.g. "baseline" or "sleep:1500@500ms" */
  int part_count;
  load_part parts[LOAD_MAX_PARTS];
} load_spec;

/* Parses "baseline" or parts joined with '+', each NAME:COUNT[@INTERVAL][:KIND][/KEY=VALUE]…
   (e.g. "sleep:5000@500ms/timer=absolute+wait:1000:address"), or for burn
   burn:DUTY[@PERIOD][/count=N] ("burn:10%@20ms"). Nothing is created. */
int load_spec_parse(const char *text, load_spec *out, ts_err *err);
/* Starts a part of the scenario called `name` with its defaults, for options to follow. */
int load_part_init(load_part *part, const char *name, ts_err *err);
/* Sets one option by name ("count", "interval", "kind", "stack", "priority", "ramp", "phase",
   "timer", "check", "resolution", "duty", "period") from its text; refuses options the scenario
   does not take. */
int load_part_set(load_part *part, const char *key, const char *value, ts_err *err);
/* Checks a part is complete (a count, or burn's duty, was given) and writes its canonical text. */
int load_part_finish(const load_part *part, char *text, size_t len, ts_err *err);
/* burn's duty as it is written: 100 gives "10%", 25 "2.5%". */
void load_format_duty(int permille, char *buf, size_t len);
/* Recomputes spec->text from its parts. */
int load_spec_format(load_spec *spec, ts_err *err);
/* Threads and processes the spec asks for. */
long load_spec_threads(const load_spec *spec);
long load_spec_processes(const load_spec *spec);
/* "key: accepted values" lines describing the options, for help texts. */
void load_options_help(char *buf, size_t len);

/* The timer resolution the spec's sleepers ask for: high when any part asks for it. */
plat_resolution load_spec_resolution(const load_spec *spec);

/* A running load. */
typedef struct load load;

/* Starts every part; on any failure (or, during a ramp, the process interrupt or `cancel` being
   raised; NULL: the interrupt alone) tears down what was created and says how far it got. */
int load_start(const load_spec *spec, const plat_cancel *cancel, load **out, ts_err *err);
/* Stops and reaps everything the load created; returns when nothing of it runs any more. */
void load_stop(load *l);

/* What a running load's sleepers asked for and got: *asked is high when any sleeper asked for
   high resolution, *obtained high when every one of them got it; note (may be NULL) then says
   how many did not, or "". */
void load_timer_state(const load *l, plat_resolution *asked, plat_resolution *obtained, char *note,
                      size_t len);

/* What a sleeper of a given resolution gets on this machine, measured on a thread of its own
   made like the load's sleepers: the OS's timer resolution as that thread sees it, and how late
   1 ms sleeps end (the median of `samples`). */
typedef struct load_timer_probe {
  plat_resolution obtained;
  plat_timer_info info; /* info.current_us is -1 when the OS does not say */
  double overshoot_us;  /* median lateness of a 1 ms sleep; -1 when not measured */
  uint64_t cost_ns;     /* wall time the probe took */
  char note[160];       /* why high was not obtained, or why the OS said nothing; "" */
} load_timer_probe;
int load_timer_probe_run(plat_resolution resolution, int samples, load_timer_probe *out,
                         ts_err *err);

/* Live child processes of this process, as the OS process list shows them (what procs really
   runs); -1 when the list cannot be read. */
long load_count_children(void);
/* The same for any process `parent`, counting only names that contain `name` (NULL: all). */
long load_count_children_of(long parent, const char *name);

/* ---- for scenario files ---------------------------------------------------------------------- */

/* Starts part->count threads, each running fn on its own slot: `slots` holds part->count records
   of `slot_size` bytes, each beginning with a plat_thread. Honours --stack and --ramp; *started
   tells how many run, also on failure (the caller stops those). */
int load_start_threads(const load_part *part, const plat_cancel *cancel, void *slots,
                       size_t slot_size, plat_thread_fn fn, long *started, ts_err *err);
/* Stops threads that sleep in wakeable sleeps (plat_sleeper, plat_sleep_*_wakeable) once their
   stop flag is set: wakes each (a signal on POSIX, an APC on Windows) until it has ended, then
   joins them all. `slots` holds `started` records of `slot_size` bytes, each beginning with a
   plat_thread and holding at `done_offset` an atomic_int its thread sets as it ends. */
void load_wake_and_join(void *slots, size_t slot_size, size_t done_offset, long started);
/* Called first by every load thread: applies --priority (checked before any thread starts). */
void load_thread_begin(const load_part *part);
/* With --ramp, waits until item `index` is due (items are spread evenly over the ramp from
   `started_ns`); returns 1 when interrupted or cancelled meanwhile, 0 otherwise. */
int load_ramp_pause(const load_part *part, const plat_cancel *cancel, uint64_t started_ns,
                    long index);

/* ---- the scenario registry (scenarios.c) ---------------------------------------------------- */

struct scenario_def {
  const char *name;
  const char *help;
  unsigned options;             /* LOAD_OPT_* it accepts */
  const char *const *kinds;     /* LOAD_OPT_KIND: NULL-terminated names; kinds[0] is the default */
  uint64_t default_interval_ns; /* LOAD_OPT_INTERVAL, LOAD_OPT_DUTY: the period */
  int creates_processes;        /* 1: count is processes, not threads */
  const char *(*unavailable_reason)(void); /* NULL or a reason it cannot run here */
  /* Starts part->count threads or processes; *instance is what stop() gets back. On failure
     it has already torn down what it created, and err says how many it had made. */
  int (*start)(const load_part *part, const plat_cancel *cancel, void **instance, ts_err *err);
  void (*stop)(void *instance);
  /* NULL, or how many of the instance's threads asked for and got high timer resolution. */
  void (*timers)(void *instance, long *asked_high, long *obtained_high);
};

extern const scenario_def *const scenario_table[];
const scenario_def *scenario_find(const char *name, size_t name_len);
/* "sleep, yield, wait, procs, burn" for error messages. */
void scenario_names(char *buf, size_t len);

#endif
