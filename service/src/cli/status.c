/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* status.c - `threadsoup status`: what the service runs (load, experiment, database, quiet mode),
   as a few labelled lines. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "threadsoup/call.h"
#include "threadsoup/civil.h"
#include "threadsoup/proto.h"
#include "threadsoup/utf8.h"

/* Reads --socket ADDR and --fields; anything else is an error naming the command. */
static int read_options(int argc, char **argv, const char **address, int *fields) {
  cli_args a;
  ts_err err;
  cli_args_init(&a, argc, argv, "status");
  *address = NULL;
  *fields = 0;
  while (cli_args_next(&a)) {
    if (cli_args_is(&a, "--socket")) {
      if (cli_args_value(&a, "the service's socket or pipe", address, &err) != TS_OK)
        return cli_usage_error(&cli_status_command, err.text);
      continue;
    }
    if (cli_args_is(&a, "--fields")) {
      *fields = 1;
      continue;
    }
    char message[300];
    snprintf(message, sizeof message,
             "status: unexpected '%.200s' (accepted: --socket ADDRESS, "
             "--fields)",
             a.name ? a.name : a.word);
    return cli_usage_error(&cli_status_command, message);
  }
  return -1;
}

/* A UTC time from Unix seconds, as the other commands print times. */
static void utc_text(const char *unix_seconds, char *out, size_t len) {
  char *end;
  long long t = strtoll(unix_seconds, &end, 10);
  if (*end || end == unix_seconds) {
    snprintf(out, len, "%s", unix_seconds);
    return;
  }
  long long days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400), rest = t - days * 86400;
  int64_t y;
  int m, d;
  civil_from_days(days, &y, &m, &d);
  snprintf(out, len, "%04lld-%02d-%02d %02lld:%02lld UTC", (long long)y, m, d, rest / 3600,
           rest % 3600 / 60);
}

/* The reply's field, "?" when the service did not send it (an older service). */
static const char *field(const proto_message *reply, const char *key) {
  const char *v = proto_get(reply, key);
  return v ? v : "?";
}

/* The status reply as a few labelled lines: the service, its load, its run, quiet mode and
   whether it runs programs. */
static void print_status(const proto_message *reply) {
  char line[1024], eta[64], until[64];
  printf("%-11s %s, pid %s, %s threads\n", "service", field(reply, "server"), field(reply, "pid"),
         field(reply, "threads"));
  ts_utf8_fprintf_printable(stdout, "%-11s %s\n", "database", field(reply, "db"));
  if (strcmp(field(reply, "load"), "none") == 0)
    snprintf(line, sizeof line, "none");
  else
    snprintf(line, sizeof line, "%s: %s threads, %s processes, %s wake-ups/s", field(reply, "load"),
             field(reply, "load-threads"), field(reply, "load-processes"),
             field(reply, "load-wakeups"));
  ts_utf8_fprintf_printable(stdout, "%-11s %s\n", "load", line);
  if (strcmp(field(reply, "run"), "none") == 0) {
    snprintf(line, sizeof line, "none");
  } else {
    const char *eta_s = field(reply, "run-eta");
    char *end;
    long seconds = strtol(eta_s, &end, 10);
    if (*end || end == eta_s)
      snprintf(eta, sizeof eta, "time left not known yet");
    else
      snprintf(eta, sizeof eta, "about %ld min %02ld s left", seconds / 60, seconds % 60);
    snprintf(line, sizeof line, "%s, %s trials done, %s", field(reply, "run"),
             field(reply, "run-progress"), eta);
  }
  printf("%-11s %s\n", "run", line);
  if (strcmp(field(reply, "quiet"), "on") == 0) {
    utc_text(field(reply, "quiet-until"), until, sizeof until);
    snprintf(line, sizeof line, "on until %s (Defender %s, updates %s)", until,
             field(reply, "quiet-defender"), field(reply, "quiet-updates"));
  } else {
    snprintf(line, sizeof line, "%s", field(reply, "quiet"));
  }
  printf("%-11s %s\n", "quiet mode", line);
  ts_utf8_fprintf_printable(stdout, "%-11s %s\n", "programs",
                            strcmp(field(reply, "command-benchmarks"), "allowed") == 0
                                ? "benchmark commands allowed"
                                : field(reply, "command-benchmarks"));
}

static int status_main(int argc, char **argv) {
  const char *address;
  int fields;
  int rc = read_options(argc, argv, &address, &fields);
  if (rc >= 0)
    return rc;
  static proto_message request, reply;
  ts_err err;
  proto_init(&request, PROTO_REQUEST, "status");
  if (call_service(address, &request, &reply, &err) != TS_OK)
    return cli_fail(&err);
  if (reply.kind == PROTO_ERROR)
    return cli_service_refused(&reply);
  if (fields)
    cli_print_reply(&reply);
  else
    print_status(&reply);
  return CLI_EXIT_OK;
}

const cli_command cli_status_command = {
    .name = "status",
    .synopsis = "status [--fields] [--socket ADDRESS]",
    .summary = "ask the service what it runs: load, experiment, database",
    .help =
        "\noptions:\n"
        "  --fields          the reply's fields as `key value` lines, one a line, for scripts\n"
        "                    (docs/protocol.md names them)\n"
        "  --socket ADDRESS  the service's socket or pipe (default /run/threadsoup/control.sock,\n"
        "                    \\\\.\\pipe\\threadsoup)\n",
    .main = status_main,
};
