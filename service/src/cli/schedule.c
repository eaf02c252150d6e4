/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* schedule.c - `threadsoup schedule add|list|remove`: experiments the service runs unattended. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../doctor/doctor.h"
#include "../plan/plan.h"
#include "../plan/schedule.h"
#include "cli.h"
#include "threadsoup/buf.h"
#include "threadsoup/parse.h"
#include "threadsoup/plat.h"
#include "threadsoup/call.h"
#include "threadsoup/proto.h"
#include "threadsoup/utf8.h"

/* Copies the `index`-th '|'-separated column of `row` (service text: printed escaped). */
static const char *column(const char *row, int index, char *buf, size_t len) {
  const char *p = row;
  for (int i = 0; i < index && p; i++)
    if ((p = strchr(p, '|')) != NULL)
      p++;
  size_t n = 0;
  char raw[1024];
  if (p)
    while (p[n] && (index == 5 || p[n] != '|') && n + 1 < sizeof raw)
      n++;
  memcpy(raw, p ? p : "", n);
  raw[n] = '\0';
  return ts_utf8_printable(raw, buf, len);
}

/* The service's schedule rows as a table ("id|when|next|plan|state[,ac][,idle]|last event",
   docs/protocol.md), each export folder under its row; "no schedules" when there are none. */
static void print_schedules(const proto_message *reply) {
  int rows = 0;
  for (int i = 0; i < reply->field_count; i++) {
    const char *row = proto_value(reply, i);
    if (strcmp(reply->fields[i].key, "export-to") == 0) {
      char folder[2048];
      printf("%5s  export to: %s\n", "", column(row, 1, folder, sizeof folder));
      continue;
    }
    if (strcmp(reply->fields[i].key, "schedule") != 0)
      continue;
    if (rows++ == 0)
      printf("%5s  %-22s %-20s %-12s %-16s %s\n", "id", "when", "next run (local)", "plan", "state",
             "last outcome");
    char id[16], when[96], next[40], plan_name[96], state[64], last[1024];
    column(row, 4, state, sizeof state);
    /* "enabled,ac,idle": the state, then what it waits for, in words. */
    char shown[96];
    snprintf(shown, sizeof shown, "%s%s%s", strncmp(state, "enabled", 7) == 0 ? "enabled" : "done",
             strstr(state, ",ac") ? ", on AC" : "", strstr(state, ",idle") ? ", when idle" : "");
    column(row, 5, last, sizeof last);
    printf("%5s  %-22s %-20s %-12s %-16s %s\n", column(row, 0, id, sizeof id),
           column(row, 1, when, sizeof when), column(row, 2, next, sizeof next),
           column(row, 3, plan_name, sizeof plan_name), shown, last[0] ? last : "not run yet");
  }
  if (rows == 0)
    printf("no schedules (threadsoup schedule add WHEN adds one)\n");
}

/* Whether this machine wakes for a schedule: the service's wake timer (its answer's `wake`), and
   the doctor's checks wake-timers and sleep (the power plan). */
static void print_waking(const proto_message *reply) {
  char shown[256];
  const char *wake = proto_get(reply, "wake");
  if (wake)
    printf("wake timer: %s\n", ts_utf8_printable(wake, shown, sizeof shown));
  doctor_context ctx;
  memset(&ctx, 0, sizeof ctx);
  doctor_finding f;
  const char *checks[] = {"wake-timers", "sleep"};
  for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
    if (doctor_run_one(&ctx, checks[i], &f))
      printf("%s: %s\n", f.check, f.measured);
}

/* Once, after a schedule is added: a power plan known to let no wake timer of ours wake the PC
   (an unreadable plan, whose value is NaN, is the doctor's to report). */
static void warn_if_no_wake(void) {
  doctor_context ctx;
  memset(&ctx, 0, sizeof ctx);
  doctor_finding f;
  if (doctor_run_one(&ctx, "wake-timers", &f) && f.status == DOCTOR_WARN && !isnan(f.value))
    fprintf(stderr, "threadsoup: warning: %s\n  to let it wake: %s\n", f.measured, f.advice);
}

/* schedule-add's answer in a sentence: the schedule and its next time, or the one already
   there. */
static void print_added(const proto_message *reply) {
  const char *id = proto_get(reply, "schedule"), *when = proto_get(reply, "when");
  const char *next = proto_get(reply, "next"), *note = proto_get(reply, "note");
  char shown_note[1024];
  if (note) {
    printf("%s\n", ts_utf8_printable(note, shown_note, sizeof shown_note));
    return;
  }
  printf("schedule %s added: %s; next run %s\n", id ? id : "?", when ? when : "?",
         next ? next : "?");
}

static int schedule_main(int argc, char **argv) {
  const cli_command *cmd = &cli_schedule_command;
  if (argc < 1)
    return cli_usage_error(cmd, "schedule needs add, list or remove");
  const char *verb = argv[0];
  cli_args a;
  ts_err err;
  const char *address = NULL, *plan_name = NULL, *require = NULL, *grace = NULL, *export_to = NULL;
  char when[128];
  ts_buf words = ts_buf_on(when, sizeof when);
  cli_args_init(&a, argc - 1, argv + 1, "schedule");
  while (cli_args_next(&a)) {
    int rc = TS_OK;
    if (a.word) {
      /* The words of WHEN, or the schedule number for remove. */
      ts_buf_addf(&words, "%s%s", words.len ? " " : "", a.word);
      if (words.cut)
        return cli_usage_error(cmd, "schedule: WHEN is too long");
    } else if (cli_args_is(&a, "--socket")) {
      rc = cli_args_value(&a, "the service's socket or pipe", &address, &err);
    } else if (cli_args_is(&a, "--plan")) {
      rc = cli_args_value(&a, "a preset or a plan file", &plan_name, &err);
    } else if (cli_args_is(&a, "--require")) {
      rc = cli_args_value(&a, "ac, idle:MINUTES, or both joined with ','", &require, &err);
    } else if (cli_args_is(&a, "--grace")) {
      rc = cli_args_value(&a, "a duration such as 1h", &grace, &err);
    } else if (cli_args_is(&a, "--export-to")) {
      rc = cli_args_value(&a, "a folder", &export_to, &err);
    } else {
      rc = ts_err_set(&err, TS_EUSAGE, "schedule: unknown option '%s'", a.name);
    }
    if (rc != TS_OK)
      return cli_usage_error(cmd, err.text);
  }
  static proto_message request;
  if (strcmp(verb, "list") == 0) {
    if (words.len)
      return cli_usage_error(cmd, "schedule list takes no arguments");
    proto_init(&request, PROTO_REQUEST, "schedule-list");
  } else if (strcmp(verb, "remove") == 0) {
    long id;
    if (ts_parse_long(when, 1, 2147483647L, "schedule remove ID", &id, &err) != TS_OK)
      return cli_usage_error(cmd, err.text);
    proto_init(&request, PROTO_REQUEST, "schedule-remove");
    proto_addf(&request, &err, "schedule", "%ld", id);
  } else if (strcmp(verb, "add") == 0) {
    schedule_when parsed;
    if (schedule_parse(when, &parsed, &err) != TS_OK)
      return cli_usage_error(cmd, err.text);
    proto_init(&request, PROTO_REQUEST, "schedule-add");
    proto_add(&request, "when", parsed.text, &err);
    /* A plan file is read here, where the user's files are; the service gets its text. */
    static plan p;
    char text[PLAN_FORMAT_MAX];
    const char *name = plan_name ? plan_name : plan_default_preset();
    int rc = !plan_is_preset(name) && plat_file_exists(name) ? plan_read_file(name, &p, &err)
                                                             : plan_preset(name, &p, &err);
    /* The plan setting itself (its checks and words): the stored plan text carries it. */
    if (rc == TS_OK && export_to)
      rc = plan_set(&p, "export-to", export_to, &err);
    if (rc != TS_OK)
      return cli_usage_error(cmd, err.text);
    plan_format(&p, text, sizeof text);
    proto_add(&request, "plan", text, &err);
    if (require)
      proto_add(&request, "require", require, &err);
    if (grace)
      proto_add(&request, "grace", grace, &err);
  } else {
    char message[200];
    snprintf(message, sizeof message,
             "schedule: unknown action '%.100s' (accepted: add, list, "
             "remove)",
             verb);
    return cli_usage_error(cmd, message);
  }
  static proto_message reply;
  if (call_service(address, &request, &reply, &err) != TS_OK)
    return cli_fail(&err);
  if (reply.kind == PROTO_ERROR)
    return cli_service_refused(&reply);
  if (strcmp(verb, "list") == 0) {
    print_schedules(&reply);
    print_waking(&reply);
  } else if (strcmp(verb, "remove") == 0) {
    printf("schedule %s removed\n", proto_get(&reply, "schedule"));
  } else {
    print_added(&reply);
    warn_if_no_wake();
  }
  return CLI_EXIT_OK;
}

const cli_command cli_schedule_command = {
    .name = "schedule",
    .synopsis = "schedule add WHEN [--plan PLAN] [--require LIST] [--grace DURATION] "
                "[--export-to FOLDER] | "
                "schedule list | schedule remove ID   [--socket ADDRESS]",
    .summary = "have the service run experiments unattended (set and forget)",
    .help = "\nWHEN (local time):\n"
            "  daily HH:MM  |  weekly DAY HH:MM (mon ... sun)  |  once YYYY-MM-DD HH:MM\n"
            "  boot DURATION   after the service starts (let the machine settle after boot)\n"
            "\noptions:\n"
            "  --plan PLAN       a preset or a plan file (default quick)\n"
            "  --require LIST    ac (only on mains power), idle:MINUTES (the user idle that long,\n"
            "                    as the tray reports; recorded as unknown without a tray)\n"
            "  --grace DURATION  a due time missed while the machine was off still runs at the\n"
            "                    next start within this window (default 1h); later, it is\n"
            "                    recorded as missed\n"
            "  --export-to FOLDER\n"
            "                    the plan's export-to: each finished run's export file goes\n"
            "                    into this folder (a network share, for a collector machine);\n"
            "                    like program paths, only SYSTEM, an elevated administrator or\n"
            "                    root may schedule it; 'schedule list' shows it\n"
            "  --socket ADDRESS  the service's socket or pipe\n"
            "\nA schedule the same as one still enabled (WHEN, plan, --require, --grace) is not\n"
            "added again: the answer names the one there is.\n"
            "\nA sleeping machine wakes for the next schedule where it may: the service arms a\n"
            "wake timer (Windows: the power plan must allow wake timers; Linux: the service runs\n"
            "as root). 'schedule list' says whether it is armed, whether the power plan allows\n"
            "wake timers and when the machine sleeps; 'schedule add' warns when the plan does\n"
            "not allow them. A schedule that fell due while the machine slept runs when it\n"
            "wakes, within --grace.\n",
    .main = schedule_main,
};
