/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* engine.h - the load engine: the parts of a load and their options (the kit each scenario
   describes its own options with), the spec language that reads them (spec.c), starting and
   tearing down every thread and process (engine.c), and the scenario registry (scenarios.c). */
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

/* Room in a part for its scenario's own option values: each scenario lays a struct of its own
   there (sleep_params, …) and reads it back with LOAD_PARAMS. */
#define LOAD_PARAMS_MAX 80 /* freeze keeps a program's name */

/* One scenario with its options, e.g. "sleep:5000@500ms". The count and the thread options are
   the engine's (load_start_threads honours them); everything else a scenario takes is in
   `params`, where its option rows put it. */
typedef struct load_part {
  const scenario_def *scenario;
  long count;
  int count_auto;     /* 1 while count is the default, one per logical CPU (count_per_cpu) */
  size_t stack_bytes; /* 0 = the platform's smallest safe stack */
  int priority;       /* a plat_priority; PLAT_PRIORITY_NORMAL = unchanged */
  uint64_t ramp_ns;   /* 0 = as fast as possible */
  unsigned given;     /* bit i: the option load_option_at(scenario, i) was set */
  /* Who the load runs for, during its start only (load_start_for): a scenario that touches other
     programs (freeze) judges them by this client's identity and rights; NULL: this process's. */
  const plat_peer *asker;
  union {
    unsigned char bytes[LOAD_PARAMS_MAX];
    uint64_t align_u64;
    double align_double;
    void *align_pointer;
  } params;
} load_part;

/* A scenario's option values, as the struct `type` it keeps in part->params. */
#define LOAD_PARAMS(part, type) ((const type *)(const void *)(part)->params.bytes)

/* A condition of an experiment: no parts ("baseline") or parts joined with '+'. */
typedef struct load_spec {
  char text[LOAD_TEXT_MAX]; /* canonical form, e.g. "baseline" or "sleep:1500@500ms" */
  int part_count;
  load_part parts[LOAD_MAX_PARTS];
} load_spec;

/* ---- the option kit: one row per option, read and written by one setter and one formatter -- */

typedef enum load_option_kind {
  LOAD_OPTION_COUNT,    /* long in [min, max] */
  LOAD_OPTION_DURATION, /* uint64_t nanoseconds in [min, max] */
  LOAD_OPTION_CHOICE,   /* int: the index of a name in `names` */
  LOAD_OPTION_FLAG,     /* int: 1 when given bare (/check, --check) or "yes", 0 for "no" */
  LOAD_OPTION_CUSTOM,   /* read and written by the row's own parse and format */
} load_option_kind;

/* Where an option stands in a part's text NAME:FIRST[@AT][:KIND][/KEY=VALUE]…. */
typedef enum load_option_place {
  LOAD_PLACE_OPTION, /* /KEY=VALUE (a flag: /KEY), written when not its default */
  LOAD_PLACE_FIRST,  /* the slot after the name, in place of the count (burn's duty) */
  LOAD_PLACE_AT,     /* @VALUE, always written */
  LOAD_PLACE_KIND,   /* :VALUE after the first slot, always written */
} load_option_place;

typedef struct load_option {
  const char *name; /* the key of /KEY=VALUE and of --KEY */
  load_option_kind kind;
  load_option_place place;
  size_t at;                /* offsetof its value in load_part (LOAD_AT for params) */
  double min, max;          /* count, duration: the bounds, in the kind's unit */
  const char *const *names; /* choice: NULL-terminated */
  const char *dflt;         /* the default as text, set through the setter; NULL: none */
  const char *example;      /* FIRST: a value for "needs a …, e.g. burn:10%" */
  const char *help;         /* what it means and accepts, for help and "needs a value" */
  /* custom: reads `value` into the part; `what` names it in messages ("duty of 'burn'"). */
  int (*parse)(load_part *part, const char *value, const char *what, ts_err *err);
  /* custom: the value as text; "" when it is the default (then /KEY=VALUE is not written). */
  void (*format)(const load_part *part, char *buf, size_t len);
} load_option;

/* The offset in load_part of field `field` of a scenario's params struct `type`, which must have
   type T: a row whose kind does not match its field's type does not compile. */
#define LOAD_AT(type, field, T)                                                                    \
  _Generic(((type *)0)->field, T : offsetof(load_part, params) + offsetof(type, field))

/* One macro per kind, each row read as (name, place, where, bounds or names, default, help). */
#define LOAD_DURATION(name, place, type, field, min, max, dflt, help)                              \
  {                                                                                                \
    name, LOAD_OPTION_DURATION, place, LOAD_AT(type, field, uint64_t), min, max, NULL, dflt, NULL, \
        help, NULL, NULL                                                                           \
  }
#define LOAD_CHOICE(name, place, type, field, names, dflt, help)                                   \
  {                                                                                                \
    name, LOAD_OPTION_CHOICE, place, LOAD_AT(type, field, int), 0, 0, names, dflt, NULL, help,     \
        NULL, NULL                                                                                 \
  }
#define LOAD_FLAG(name, type, field, help)                                                         \
  {                                                                                                \
    name, LOAD_OPTION_FLAG, LOAD_PLACE_OPTION, LOAD_AT(type, field, int), 0, 1, NULL, "no", NULL,  \
        help, NULL, NULL                                                                           \
  }
#define LOAD_CUSTOM(name, place, type, field, T, example, help, parse, format)                     \
  {                                                                                                \
    name, LOAD_OPTION_CUSTOM, place, LOAD_AT(type, field, T), 0, 0, NULL, NULL, example, help,     \
        parse, format                                                                              \
  }

/* The row that ends a scenario's list of options. */
#define LOAD_OPTIONS_END                                                                           \
  { NULL, LOAD_OPTION_COUNT, LOAD_PLACE_OPTION, 0, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL }

/* The i-th option scenario `sc` takes, the engine's (count, stack, priority, ramp) with its own,
   in the order its canonical text writes them; NULL past the last. */
const load_option *load_option_at(const scenario_def *sc, size_t i);
/* The option `name` of scenario `sc`, NULL when it takes none; of any scenario when sc is NULL. */
const load_option *load_option_find(const scenario_def *sc, const char *name);
/* What a kind is called in catalogs: "count", "duration", "choice", "flag", "text". */
const char *load_option_kind_name(load_option_kind kind);

/* ---- the spec language (spec.c) -------------------------------------------------------------- */

/* Parses "baseline" or parts joined with '+', each NAME:FIRST[@AT][:KIND][/KEY=VALUE]…
   (e.g. "sleep:5000@500ms/timer=absolute+wait:1000:address", "burn:10%@20ms/count=2"), FIRST
   being the count unless the scenario puts another option there. Nothing is created. */
int load_spec_parse(const char *text, load_spec *out, ts_err *err);
/* Starts a part of the scenario called `name` with its defaults, for options to follow. */
int load_part_init(load_part *part, const char *name, ts_err *err);
/* Sets one option by name from its text (NULL: given bare, as a flag is); refuses options the
   scenario does not take. */
int load_part_set(load_part *part, const char *key, const char *value, ts_err *err);
/* Checks a part is complete (a count, or what its first slot holds, was given) and writes its
   canonical text. */
int load_part_finish(const load_part *part, char *text, size_t len, ts_err *err);
/* Recomputes spec->text from its parts. */
int load_spec_format(load_spec *spec, ts_err *err);
/* Threads and processes the spec asks for. */
long load_spec_threads(const load_spec *spec);
long load_spec_processes(const load_spec *spec);
/* "  key        accepted values" lines describing every option once, for help texts. */
void load_options_help(char *buf, size_t len);
/* How a plan writes a condition: "baseline, baseline-LABEL (…), sleep:COUNT[@INTERVAL], …". */
void load_spec_forms(char *buf, size_t len);

/* What a part does, as its scenario says (0 when it does not say): wake-ups per second, and the
   share of a CPU each of its threads takes by design (burn:10% gives 0.1). */
double load_part_wakeups_per_s(const load_part *part);
double load_part_cpu_share(const load_part *part);
/* The timer resolution the spec's sleepers ask for: high when any part asks for it. */
plat_resolution load_spec_resolution(const load_spec *spec);

/* ---- running a load (engine.c) --------------------------------------------------------------- */

/* A running load. */
typedef struct load load;

/* Starts every part; on any failure (or, during a ramp, the process interrupt or `cancel` being
   raised; NULL: the interrupt alone) tears down what was created and says how far it got. */
int load_start(const load_spec *spec, const plat_cancel *cancel, load **out, ts_err *err);
/* The same for a client of the service (plat_ipc_peer; NULL: this process's own user): a freeze
   freezes only what the rules let `asker` freeze. */
int load_start_for(const load_spec *spec, const plat_peer *asker, const plat_cancel *cancel,
                   load **out, ts_err *err);
/* Stops and reaps everything the load created; returns when nothing of it runs any more. */
void load_stop(load *l);

/* What a running load's sleepers asked for and got: *asked is high when any sleeper asked for
   high resolution, *obtained high when every one of them got it; note (may be NULL) then says
   how many did not, or "". */
void load_timer_state(const load *l, plat_resolution *asked, plat_resolution *obtained, char *note,
                      size_t len);

/* Live child processes of this process, as the OS process list shows them (what procs really
   runs); -1 when the list cannot be read. */
long load_count_children(void);
/* The same for any process `parent`, counting only names that contain `name` (NULL: all). */
long load_count_children_of(long parent, const char *name);

/* ---- the timer probe (probe.c) --------------------------------------------------------------- */

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

/* ---- for scenario files ---------------------------------------------------------------------- */

/* Starts part->count threads, each running fn on its own slot: `slots` holds part->count records
   of `slot_size` bytes, each beginning with a plat_thread. Honours --stack and --ramp; without a
   ramp a large count is started by a crew (load_crew_run). The threads' stacks are one block
   (plat_stacks, NULL where none could be had), which *stacks receives also on failure: the caller
   frees it with plat_stacks_free once every thread is joined. *started tells how many slots were
   handed a thread, also on failure (the caller stops those): a slot whose start was refused or
   interrupted is left without one (load_slot_started), and may lie among slots with threads when
   a crew started them. */
int load_start_threads(const load_part *part, const plat_cancel *cancel, void *slots,
                       size_t slot_size, plat_thread_fn fn, plat_stacks **stacks, long *started,
                       ts_err *err);
/* Whether a slot of load_start_threads holds a thread; stopping skips those that do not. */
int load_slot_started(const void *slot);

/* A crew: threads that start a load's items (threads, processes) side by side, the caller's own
   thread one of them. item(ctx, i, err) does item i; the first item that fails stops the crew
   and its rc and err are returned. *claimed tells how many items were handed out (done or
   failed). */
typedef int (*load_crew_item)(void *ctx, long i, ts_err *err);
#define LOAD_CREW_MAX 4 /* members share the process's address space lock: a few are enough */
#define LOAD_CREW_STACK_BYTES (256u * 1024u) /* CreateProcessW and posix_spawn: a wide margin */
int load_crew_run(long count, int members, load_crew_item item, void *ctx, long *claimed,
                  ts_err *err);
/* The members for `count` items: one per logical CPU up to LOAD_CREW_MAX, each with at least
   `min_per_member` items (fewer are not worth a thread's start); 1 for a small count. */
int load_crew_size(long count, long min_per_member);
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

/* ---- the scenario registry (scenarios.c) ----------------------------------------------------- */

struct scenario_def {
  const char *name;
  const char *help;
  const load_option *options; /* its own options, ending with a row whose name is NULL */
  unsigned engine_options;    /* the engine's options it takes besides count: LOAD_TAKES_* */
  int count_per_cpu;          /* 1: the count defaults to one per logical CPU */
  int creates_processes;      /* 1: count is processes, not threads */
  int takes_no_count;         /* 1: no count (freeze: the program it names is what it freezes) */
  const char *(*unavailable_reason)(void); /* NULL or a reason it cannot run here */
  /* Starts part->count threads or processes; *instance is what stop() gets back. On failure
     it has already torn down what it created, and err says how many it had made. */
  int (*start)(const load_part *part, const plat_cancel *cancel, void **instance, ts_err *err);
  void (*stop)(void *instance);
  /* NULL, or how many of the instance's threads asked for and got high timer resolution. */
  void (*timers)(void *instance, long *asked_high, long *obtained_high);
  /* NULL, or the timer resolution the part's threads ask for. */
  plat_resolution (*resolution)(const load_part *part);
  /* NULL, or what the part does: see load_part_wakeups_per_s and load_part_cpu_share. */
  double (*wakeups_per_s)(const load_part *part);
  double (*cpu_share)(const load_part *part);
};

/* The engine's options besides count, for scenario_def.engine_options. */
#define LOAD_TAKES_STACK (1u << 0)
#define LOAD_TAKES_PRIORITY (1u << 1)
#define LOAD_TAKES_RAMP (1u << 2)
#define LOAD_THREAD_OPTIONS (LOAD_TAKES_STACK | LOAD_TAKES_PRIORITY | LOAD_TAKES_RAMP)

extern const scenario_def *const scenario_table[];
const scenario_def *scenario_find(const char *name, size_t name_len);
/* "sleep, yield, wait, procs, burn" for error messages. */
void scenario_names(char *buf, size_t len);

#endif
