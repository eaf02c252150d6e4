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
  const char *name; /* as the OS lists it (plat_process_census) */
  int is_ours;      /* ThreadSoup's own process or one it started */
  int is_above_us;  /* a process ThreadSoup runs under: its terminal, shell, service host */
  int same_user;    /* runs as the user who asks */
  int privileged;   /* the asker is root or an elevated administrator */
  int member_only;  /* the asker is a member of ThreadSoup Users (threadsoup) and no more */
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
  char target[64]; /* a pid or an executable's name */
  uint64_t max_ns; /* the guardian thaws after this long at the latest */
} freeze_params;

/* One program a part freezes. */
typedef struct freeze_target {
  long pid;
  char name[PLAT_PROCESS_NAME_MAX];
} freeze_target;

/* The running programs `wanted` (a pid, or an executable's name: every process of that name)
   stands for, each checked against the rules as this process's user would ask. Refuses, naming
   the program and the rule, when one may not be frozen; TS_EINVAL when none runs. */
int freeze_find_targets(const char *wanted, freeze_target *out, int max, int *count, ts_err *err);

/* Whether any part of `spec` freezes programs. */
int freeze_spec_has(const load_spec *spec);
/* The programs every freeze part of `spec` stands for now (for the journal, before freezing). */
int freeze_spec_targets(const load_spec *spec, freeze_target *out, int max, int *count,
                        ts_err *err);

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
