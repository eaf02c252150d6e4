/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* statuses.c - the status enums of store.h and their texts in the database, each generated from
   its one list (STORE_*_MAP), converted both ways; a text this build does not know is damage. */
#include <string.h>

#include "store_kit.h"
#include "threadsoup/buf.h"

#define STORE_STATUS_TEXT(name, text) text,
static const char *const run_status_names[] = {STORE_RUN_STATUS_MAP(STORE_STATUS_TEXT)};
static const char *const trial_status_names[] = {STORE_TRIAL_STATUS_MAP(STORE_STATUS_TEXT)};
static const char *const schedule_outcome_names[] = {STORE_SCHEDULE_OUTCOME_MAP(STORE_STATUS_TEXT)};
#undef STORE_STATUS_TEXT

const status_list status_runs = {run_status_names, KIT_COUNT(run_status_names)};
const status_list status_trials = {trial_status_names, KIT_COUNT(trial_status_names)};
const status_list status_schedule_outcomes = {schedule_outcome_names,
                                              KIT_COUNT(schedule_outcome_names)};

const char *status_text(const status_list *list, int value) {
  return value >= 0 && value < list->count ? list->names[value] : NULL;
}

/* What reports and the protocol show: never NULL. */
static const char *status_name(const status_list *list, int value) {
  const char *text = status_text(list, value);
  return text ? text : "unknown";
}

const char *store_run_status_name(store_run_status st) {
  return status_name(&status_runs, (int)st);
}

const char *store_trial_status_name(store_trial_status st) {
  return status_name(&status_trials, (int)st);
}

const char *store_schedule_outcome_name(store_schedule_outcome o) {
  return status_name(&status_schedule_outcomes, (int)o);
}

int status_parse(store *s, const status_list *list, const char *what, const unsigned char *text,
                 int *out, ts_err *err) {
  for (int i = 0; i < list->count; i++)
    if (text && strcmp((const char *)text, list->names[i]) == 0) {
      *out = i;
      return TS_OK;
    }
  char accepted[128];
  ts_buf names = ts_buf_on(accepted, sizeof accepted);
  for (int i = 0; i < list->count; i++)
    ts_buf_item(&names, ", ", list->names[i]);
  return ts_err_set(err, TS_ESTORE,
                    "%s in database %s has the status '%s', which this ThreadSoup does not know "
                    "(accepted: %s)",
                    what, s->path, text ? (const char *)text : "(none)", accepted);
}
