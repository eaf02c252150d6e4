/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* client.c - the command words that talk to the running service (status, start, stop, schedule)
   and the one call they share: connect, say hello, send a request, read the reply. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "../plan/plan.h"
#include "../quiet/quiet.h"
#include "../plan/schedule.h"
#include "cli.h"
#include "threadsoup/buf.h"
#include "threadsoup/parse.h"
#include "threadsoup/plat.h"
#include "threadsoup/proto.h"
#include "threadsoup/utf8.h"

typedef struct call_buffers {
  proto_message hello, hello_reply;
  char wire[PROTO_MAX_MESSAGE * 2];
  char in[PROTO_MAX_MESSAGE * 2];
} call_buffers;

/* Reads one whole message from conn into *out, keeping what follows it in b->in. */
static int read_message(plat_ipc_conn *conn, call_buffers *b, size_t *used, proto_message *out,
                        ts_err *err) {
  for (;;) {
    size_t consumed = 0;
    int rc = proto_decode(b->in, *used, &consumed, out, err);
    if (rc != TS_OK)
      return ts_err_prefix(err, "the service sent something unreadable");
    if (consumed) {
      memmove(b->in, b->in + consumed, *used - consumed);
      *used -= consumed;
      return TS_OK;
    }
    size_t got = 0;
    rc = plat_ipc_recv(conn, b->in + *used, sizeof b->in - *used, &got, err);
    if (rc != TS_OK)
      return rc;
    if (got == 0)
      return ts_err_set(err, TS_EOS, "the service closed the connection without answering");
    *used += got;
  }
}

int cli_call_service(const char *address, const proto_message *request, proto_message *reply,
                     ts_err *err) {
  call_buffers *b = malloc(sizeof *b);
  if (!b)
    return ts_err_set(err, TS_ENOMEM, "no memory for a request");
  plat_ipc_conn *conn = NULL;
  int rc = plat_ipc_connect(&conn, address ? address : plat_ipc_default_address(), err);
  size_t n = 0, m = 0, used = 0;
  if (rc == TS_OK) {
    /* hello first: a service speaking another protocol version says so before anything else. */
    proto_init(&b->hello, PROTO_REQUEST, "hello");
    proto_addf(&b->hello, err, "version", "%d", PROTO_VERSION);
    rc = proto_encode(&b->hello, b->wire, sizeof b->wire, &n, err);
  }
  if (rc == TS_OK)
    rc = proto_encode(request, b->wire + n, sizeof b->wire - n, &m, err);
  if (rc == TS_OK)
    rc = plat_ipc_send(conn, b->wire, n + m, err);
  if (rc == TS_OK)
    rc = read_message(conn, b, &used, &b->hello_reply, err);
  if (rc == TS_OK && b->hello_reply.kind == PROTO_ERROR) {
    const char *message = proto_get(&b->hello_reply, "message");
    rc = ts_err_set(err, TS_EUNSUPPORTED, "the service does not speak with this client: %s",
                    message ? message : b->hello_reply.verb);
  }
  if (rc == TS_OK)
    rc = read_message(conn, b, &used, reply, err);
  plat_ipc_close(conn);
  free(b);
  return rc;
}

int cli_service_refused(const proto_message *reply) {
  const char *message = proto_get(reply, "message");
  fprintf(stderr, "threadsoup: the service refused (%s): ", reply->verb);
  /* The message may quote a name or value sent by anyone: control characters escaped. */
  ts_utf8_fputs_printable(message ? message : "no reason given", stderr);
  fputc('\n', stderr);
  return ts_code_from_wire_name(reply->verb) == TS_EUSAGE ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
}

/* Sends a request and prints the reply's fields as "key  value" lines. */
static int call_and_print(const char *address, const proto_message *request) {
  proto_message *reply = malloc(sizeof *reply);
  ts_err err;
  if (!reply)
    return CLI_EXIT_FAILURE;
  int rc = cli_call_service(address, request, reply, &err);
  int exit_code = CLI_EXIT_OK;
  if (rc != TS_OK)
    exit_code = cli_fail(&err);
  else if (reply->kind == PROTO_ERROR)
    exit_code = cli_service_refused(reply);
  else
    for (int i = 0; i < reply->field_count; i++)
      printf("%-20s %s\n", reply->fields[i].key, proto_value(reply, i));
  free(reply);
  return exit_code;
}

/* Reads only --socket ADDR; anything else is an error naming the command. */
static int socket_only(int argc, char **argv, const cli_command *cmd, const char **address) {
  cli_args a;
  ts_err err;
  cli_args_init(&a, argc, argv, cmd->name);
  *address = NULL;
  while (cli_args_next(&a)) {
    if (cli_args_is(&a, "--socket")) {
      if (cli_args_value(&a, "the service's socket or pipe", address, &err) != TS_OK)
        return cli_usage_error(cmd, err.text);
      continue;
    }
    char message[300];
    snprintf(message, sizeof message, "%s: unexpected '%.200s'", cmd->name,
             a.name ? a.name : a.word);
    return cli_usage_error(cmd, message);
  }
  return -1;
}

/* ---- status ---- */

static int status_main(int argc, char **argv) {
  const char *address;
  int rc = socket_only(argc, argv, &cli_status_command, &address);
  if (rc >= 0)
    return rc;
  static proto_message request;
  proto_init(&request, PROTO_REQUEST, "status");
  return call_and_print(address, &request);
}

const cli_command cli_status_command = {
    .name = "status",
    .synopsis = "status [--socket ADDRESS]",
    .summary = "ask the service what it runs: load, experiment, database",
    .help =
        "\noptions:\n"
        "  --socket ADDRESS  the service's socket or pipe (default /run/threadsoup/control.sock,\n"
        "                    \\\\.\\pipe\\threadsoup)\n",
    .main = status_main,
};

/* ---- start and stop load ---- */

static int start_main(int argc, char **argv) {
  load_spec spec;
  const char *address = NULL;
  ts_err err;
  if (cli_parse_load(argc, argv, "start", &spec, NULL, NULL, &address, &err) != TS_OK)
    return cli_usage_error(&cli_start_command, err.text);
  static proto_message request;
  proto_init(&request, PROTO_REQUEST, "load-start");
  proto_add(&request, "spec", spec.text, &err);
  return call_and_print(address, &request);
}

const cli_command cli_start_command = {
    .name = "start",
    .synopsis = "start SCENARIO [options] [+ SCENARIO [options]]... [--socket ADDRESS]",
    .summary = "have the service run load until threadsoup stop (same scenarios as load)",
    .help = "\nThe scenarios and options of 'threadsoup load' (threadsoup load --help).\n",
    .main = start_main,
};

static int stop_main(int argc, char **argv) {
  cli_args a;
  ts_err err;
  const char *address = NULL;
  int run = 0;
  cli_args_init(&a, argc, argv, "stop");
  while (cli_args_next(&a)) {
    if (cli_args_is(&a, "--run")) {
      run = 1;
    } else if (cli_args_is(&a, "--socket")) {
      if (cli_args_value(&a, "the service's socket or pipe", &address, &err) != TS_OK)
        return cli_usage_error(&cli_stop_command, err.text);
    } else {
      char message[300];
      snprintf(message, sizeof message, "stop: unexpected '%.200s'", a.name ? a.name : a.word);
      return cli_usage_error(&cli_stop_command, message);
    }
  }
  static proto_message request;
  proto_init(&request, PROTO_REQUEST, run ? "run-stop" : "load-stop");
  return call_and_print(address, &request);
}

const cli_command cli_stop_command = {
    .name = "stop",
    .synopsis = "stop [--run] [--socket ADDRESS]",
    .summary = "stop the load the service runs (or, with --run, its experiment)",
    .help = "\noptions:\n"
            "  --run             stop the running experiment instead; its finished trials are\n"
            "                    kept and 'threadsoup run --service --resume RUN' continues it\n"
            "  --socket ADDRESS  the service's socket or pipe\n",
    .main = stop_main,
};

/* ---- schedules ---- */

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
    if (parse_long(when, 1, 2147483647L, "schedule remove ID", &id, &err) != TS_OK)
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
  return call_and_print(address, &request);
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
            "added again: the answer names the one there is.\n",
    .main = schedule_main,
};

/* ---- quiet mode ---- */

static int quiet_main(int argc, char **argv) {
  const cli_command *cmd = &cli_quiet_command;
  if (argc < 1)
    return cli_usage_error(cmd, "quiet needs status, on or off");
  const char *verb = argv[0];
  cli_args a;
  ts_err err;
  const char *address = NULL, *hours = NULL, *seconds = NULL;
  char hours_accepted[64], seconds_accepted[64];
  snprintf(hours_accepted, sizeof hours_accepted, "a whole number of hours from 1 to %d",
           QUIET_MAX_HOURS);
  snprintf(seconds_accepted, sizeof seconds_accepted, "a whole number of seconds from %d to %d",
           QUIET_MIN_S, QUIET_MAX_S);
  cli_args_init(&a, argc - 1, argv + 1, "quiet");
  while (cli_args_next(&a)) {
    int rc = TS_OK;
    if (cli_args_is(&a, "--socket"))
      rc = cli_args_value(&a, "the service's socket or pipe", &address, &err);
    else if (strcmp(verb, "on") == 0 && cli_args_is(&a, "--hours"))
      rc = cli_args_value(&a, hours_accepted, &hours, &err);
    else if (strcmp(verb, "on") == 0 && cli_args_is(&a, "--seconds"))
      rc = cli_args_value(&a, seconds_accepted, &seconds, &err);
    else
      rc = ts_err_set(&err, TS_EUSAGE, "quiet %s: unexpected '%s'", verb, a.name ? a.name : a.word);
    if (rc != TS_OK)
      return cli_usage_error(cmd, err.text);
  }
  static proto_message request;
  if (strcmp(verb, "status") == 0)
    proto_init(&request, PROTO_REQUEST, "quiet-status");
  else if (strcmp(verb, "on") == 0)
    proto_init(&request, PROTO_REQUEST, "quiet-on");
  else if (strcmp(verb, "off") == 0)
    proto_init(&request, PROTO_REQUEST, "quiet-off");
  else
    return cli_usage_error(cmd, "quiet: unknown action (accepted: status, on, off)");
  if (hours && seconds)
    return cli_usage_error(cmd, "quiet on: --hours or --seconds, not both");
  if (hours)
    proto_add(&request, "hours", hours, &err);
  if (seconds)
    proto_add(&request, "seconds", seconds, &err);
  return call_and_print(address, &request);
}

const cli_command cli_quiet_command = {
    .name = "quiet",
    .synopsis =
        "quiet status | quiet on [--hours N | --seconds N] | quiet off   [--socket ADDRESS]",
    .summary =
        "turn quiet mode (Defender real-time protection off, Windows Update paused) on or off",
    .help = "\nQuiet mode writes what it will change to the database first, changes it, and\n"
            "restores exactly that when turned off, when a run with 'quiet = on' ends, when its\n"
            "time is up (the service does it), or at the service's next start after a crash.\n"
            "All or nothing: when a part refuses (Tamper Protection), the other is undone.\n"
            "Windows only; needs an elevated administrator or a member of ThreadSoup Users.\n"
            "\noptions:\n"
            "  --hours N         on: quiet mode lasts this long at most (1 to 839; default 4)\n"
            "  --seconds N       on: the same in seconds (10 to 3020400)\n"
            "  --socket ADDRESS  the service's socket or pipe\n",
    .main = quiet_main,
};
