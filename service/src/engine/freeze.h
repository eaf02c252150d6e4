/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* freeze.h - freezing the user's own programs for a condition's trials: the rules that refuse a
   program, the programs a `freeze:NAME|PID` part means, and the guardian that thaws them when
   their owner vanishes or the freeze outlasts its deadline. */
#ifndef THREADSOUP_FREEZE_H
#define THREADSOUP_FREEZE_H

#include <stdint.h>

#include "engine.h"
#include "threadsoup/err.h"
#include "threadsoup/plat.h"

#define FREEZE_TARGET_MAX 32 /* programs one part may freeze */

/* What the rules judge about one program. */
typedef struct freeze_facts {
  long pid;
  const char *name;        /* as the OS lists it (plat_process_census) */
  const char *parent_name; /* its parent's name ("" when unknown): the kernel's threads are
                              kthreadd's children */
  int is_ours;             /* ThreadSoup's own process or one it started */
  int is_above_us;         /* a process ThreadSoup runs under: its terminal, shell, service host */
  int same_user;           /* runs as the user who asks */
  int privileged;          /* the asker is root or an elevated administrator */
  int member_only;         /* the asker is a member of ThreadSoup Users (threadsoup) and no more */
} freeze_facts;

/* One rule that refuses programs. */
typedef struct freeze_rule {
  const char *name; /* the rule's name in refusals, e.g. "os-critical" */
  const char *why;  /* what it protects, e.g. "the operating system's own processes" */
  int (*refuses)(const freeze_facts *f);
} freeze_rule;

/* The rules, ending with a row whose name is NULL. */
extern const freeze_rule freeze_rules[];
/* The first rule that refuses the program, or NULL when it may be frozen. */
const freeze_rule *freeze_refusal(const freeze_facts *f);

/* A freeze part's options, where its rows keep them (scenarios/freeze.c). */
typedef struct freeze_params {
  char target[64]; /* a pid, an executable's name, or FREEZE_BACKGROUND */
  uint64_t max_ns; /* the guardian thaws after this long at the latest */
  int top;         /* freeze:background/top=N: how many programs; 0 = FREEZE_BACKGROUND_TOP */
} freeze_params;

/* `freeze:background`: the programs that wake most, chosen when a run starts from a census of
   FREEZE_BACKGROUND_SAMPLE_NS; the condition stands for each of the top N frozen alone and all
   of them together. */
#define FREEZE_BACKGROUND "background"
#define FREEZE_BACKGROUND_TOP 5
#define FREEZE_BACKGROUND_TOP_MAX LOAD_MAX_PARTS
#define FREEZE_BACKGROUND_SAMPLE_NS (2000000000ull)

/* One program a part freezes. */
typedef struct freeze_target {
  long pid;
  char name[PLAT_PROCESS_NAME_MAX];
} freeze_target;

/* The running programs `wanted` (a pid, or an executable's name: every process of that name)
   stands for, each checked against the rules as `asker` (a client of the service; NULL: this
   process's user) would ask. Refuses, naming the program and the rule, when one may not be
   frozen; TS_EINVAL when none runs. */
int freeze_find_targets(const char *wanted, const plat_peer *asker, freeze_target *out, int max,
                        int *count, ts_err *err);

/* Whether any part of `spec` freezes programs. */
int freeze_spec_has(const load_spec *spec);
/* The programs every freeze part of `spec` stands for now (for the journal, before freezing). */
int freeze_spec_targets(const load_spec *spec, const plat_peer *asker, freeze_target *out, int max,
                        int *count, ts_err *err);

/* One program `freeze:background` may choose: an executable name and all its processes. */
typedef struct freeze_waker {
  char name[PLAT_PROCESS_NAME_MAX];
  double wakeups_per_s; /* context switches per second of its processes over the census */
  int processes;
} freeze_waker;

/* Whether `spec` asks for freeze:background; *top gets its N. Refuses it joined with other
   parts: it stands for several conditions of its own. */
int freeze_spec_background(const load_spec *spec, int *is_background, int *top, ts_err *err);
/* The `top` programs that woke most over a census of `sample_ns`, most first, leaving out every
   program whose processes a rule refuses for `asker` (any one of them), programs that did not
   wake, and names a spec cannot carry; *skipped counts the programs the rules left out. Refuses
   with a sentence saying so when none is left. */
int freeze_background_find(int top, const plat_peer *asker, uint64_t sample_ns, freeze_waker *out,
                           int *count, int *skipped, ts_err *err);
/* The conditions `background` (a freeze:background condition) stands for with these wakers: each
   frozen alone, then all together when there are several; its /max carries over. */
int freeze_background_conditions(const load_spec *background, const freeze_waker *wakers, int count,
                                 load_spec *out, int max, int *made, ts_err *err);

/* Starts the guardian: `threadsoup freeze-guard`, a child that thaws `targets` when this
   process ends (even by kill -9) or when `max_ns` has passed, whichever is first. */
int freeze_guard_start(const freeze_target *targets, int count, uint64_t max_ns, plat_proc *guard,
                       ts_err *err);
/* Ends the guardian once its owner has thawed the programs itself. */
void freeze_guard_stop(plat_proc *guard);
/* The guardian's life: waits for `owner` to end or for `max_ns`, then thaws `pids`. Returns how
   many it could not thaw. */
int freeze_guard_main(long owner, uint64_t max_ns, const long *pids, int count);

#endif
