/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* freeze.c - the freeze scenario: a running program of the user's (by name or pid) frozen for the
   trial, so that the condition measures the machine without it and the difference from the
   baseline is what the program costs. A guardian child thaws it if ThreadSoup vanishes, or when
   the freeze outlasts /max. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine.h"
#include "../freeze.h"
#include "threadsoup/parse.h"
#include "threadsoup/units.h"

_Static_assert(sizeof(freeze_params) <= LOAD_PARAMS_MAX, "freeze_params fits in a load_part");

/* A pid or an executable's name: the characters a spec can carry ('+', '@', ':', '/' join or
   separate the spec's parts). */
static int parse_target(load_part *part, const char *v, const char *what, ts_err *err) {
  static const char accepted[] = "accepted: a running program's executable name or pid, e.g. "
                                 "freeze:notepad.exe or freeze:4242";
  freeze_params *p = (freeze_params *)(void *)part->params.bytes;
  if (!*v || strlen(v) >= sizeof p->target || strpbrk(v, " \t\\\"'"))
    return ts_err_set(err, TS_EUSAGE, "%s: '%s' is not a program (%s)", what, v, accepted);
  snprintf(p->target, sizeof p->target, "%s", v);
  return TS_OK;
}

static void format_target(const load_part *part, char *buf, size_t len) {
  snprintf(buf, len, "%s", LOAD_PARAMS(part, freeze_params)->target);
}

/* freeze:background/top=N: how many of the programs that wake most. */
static int parse_top(load_part *part, const char *v, const char *what, ts_err *err) {
  long top;
  int rc = ts_parse_long(v, 1, FREEZE_BACKGROUND_TOP_MAX, what, &top, err);
  if (rc == TS_OK)
    ((freeze_params *)(void *)part->params.bytes)->top = (int)top;
  return rc;
}

static void format_top(const load_part *part, char *buf, size_t len) {
  int top = LOAD_PARAMS(part, freeze_params)->top;
  if (top && top != FREEZE_BACKGROUND_TOP)
    snprintf(buf, len, "%d", top);
  else if (len)
    buf[0] = '\0';
}

static const load_option freeze_options[] = {
    LOAD_CUSTOM("program", LOAD_PLACE_FIRST, freeze_params, target, char *, "notepad.exe",
                "the running program to freeze: its executable name (every process of that "
                "name) or its pid; in a plan also background, the programs that wake most, "
                "chosen when the run starts",
                parse_target, format_target),
    LOAD_DURATION("max", LOAD_PLACE_OPTION, freeze_params, max_ns, (double)TS_NS_PER_S,
                  (double)TS_NS_PER_HOUR, "10m",
                  "the longest a freeze lasts: then it thaws on its own, 1s to 1h (default 10m)"),
    LOAD_CUSTOM("top", LOAD_PLACE_OPTION, freeze_params, top, int, "3",
                "freeze:background only: how many of the programs that wake most, 1 to 8 "
                "(default 5)",
                parse_top, format_top),
    LOAD_OPTIONS_END,
};

typedef struct freeze_instance {
  int count;
  freeze_target targets[FREEZE_TARGET_MAX];
  plat_proc guard;
} freeze_instance;

static void freeze_stop(void *instance) {
  freeze_instance *f = instance;
  if (!f)
    return;
  ts_err ignored;
  for (int i = 0; i < f->count; i++)
    plat_process_thaw(f->targets[i].pid, &ignored);
  freeze_guard_stop(&f->guard);
  free(f);
}

static int freeze_start(const load_part *part, const plat_cancel *cancel, void **instance,
                        ts_err *err) {
  (void)cancel;
  *instance = NULL;
  const freeze_params *p = LOAD_PARAMS(part, freeze_params);
  freeze_instance *f = calloc(1, sizeof *f);
  if (!f)
    return ts_err_set(err, TS_ENOMEM, "freeze: no memory");
  int found;
  int rc =
      p->top && strcmp(p->target, FREEZE_BACKGROUND) != 0
          ? ts_err_set(err, TS_EUSAGE,
                       "freeze:%s: /top is for freeze:background (the programs that wake "
                       "most), not for one program",
                       p->target)
          : freeze_find_targets(p->target, part->asker, f->targets, FREEZE_TARGET_MAX, &found, err);
  /* The guardian watches before anything is frozen, so no moment is left unguarded. */
  if (rc == TS_OK)
    rc = freeze_guard_start(f->targets, found, p->max_ns, &f->guard, err);
  if (rc != TS_OK) {
    free(f);
    return rc;
  }
  for (int i = 0; i < found; i++) {
    plat_freeze_how how;
    rc = plat_process_freeze(f->targets[i].pid, &how, err);
    if (rc != TS_OK) {
      ts_err_prefix(err, "freeze: '%s' (%d of %d), the others thawed", f->targets[i].name, i + 1,
                    found);
      freeze_stop(f);
      return rc;
    }
    f->count = i + 1;
  }
  *instance = f;
  return TS_OK;
}

const scenario_def scenario_freeze = {
    .name = "freeze",
    .help = "a running program of yours (executable name or pid) frozen during the trial, so "
            "the difference from the baseline is what it costs; thawed after the trial, when "
            "the run stops, when ThreadSoup ends however it ends, and after /max at the latest",
    .options = freeze_options,
    .takes_no_count = 1,
    .start = freeze_start,
    .stop = freeze_stop,
};
