/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* cli.h - the command words of the `threadsoup` program and the option reader they share. */
#ifndef THREADSOUP_CLI_H
#define THREADSOUP_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "threadsoup/err.h"

/* Exit codes of every command. */
enum { CLI_EXIT_OK = 0, CLI_EXIT_FAILURE = 1, CLI_EXIT_USAGE = 2 };

typedef struct cli_command {
  const char *name;
  const char *synopsis;    /* "run [PLAN] [options]" */
  const char *summary;     /* one line for the command list */
  const char *help;        /* the options, shown by `threadsoup COMMAND --help` */
  void (*more_help)(void); /* prints help that comes from tables (presets, scenarios); or NULL */
  int (*main)(int argc, char **argv);
} cli_command;

extern const cli_command cli_run_command;
extern const cli_command cli_census_command;
extern const cli_command cli_load_command;
extern const cli_command cli_record_command;
extern const cli_command cli_history_command;
extern const cli_command cli_report_command;
extern const cli_command cli_status_command;
extern const cli_command cli_start_command;
extern const cli_command cli_stop_command;
extern const cli_command cli_schedule_command;
extern const cli_command cli_service_command;
extern const cli_command cli_quiet_command;
extern const cli_command cli_doctor_command;
extern const cli_command cli_export_command;
extern const cli_command cli_import_command;
/* Hidden: not in --help, for ThreadSoup's own use (the built-in benchmarks' child process). */
extern const cli_command cli_bench_child_command;
extern const cli_command cli_freeze_guard_command;

/* ---- talking to the service (client.c; the call itself is threadsoup/call.h) -------------- */

struct proto_message;
/* Sends `request` to the service at `address` (NULL: the default) and prints the reply's fields
   as "key  value" lines, or the failure or refusal; returns the exit code. */
int cli_call_and_print(const char *address, const struct proto_message *request);
/* Prints a refusal ("threadsoup: the service refused: …") and returns the exit code for it. */
int cli_service_refused(const struct proto_message *reply);
/* Prints a refusal's words after `lead`, through the printable filter, as one line to `to`. */
void cli_print_refusal_words(FILE *to, const char *lead, const struct proto_message *reply);
/* Prints a reply's fields as "key  value" lines. */
void cli_print_reply(const struct proto_message *reply);

/* Walks argv one option at a time: "--name value", "--name=value", or a positional word. */
typedef struct cli_args {
  int argc;
  char **argv;
  int index;
  const char *command; /* for messages */
  const char *name;    /* current option ("--db") or NULL for a positional word */
  const char *inline_value;
  const char *word;  /* current positional word */
  char name_buf[64]; /* holds "--name" of "--name=value" */
} cli_args;

/* Set by the hidden `threadsoup --parse-only COMMAND ...` (the docs' tests): the first option
   list read to its end exits 0 instead of running anything; an unknown option or a missing value
   is the usual usage error (exit 2). */
extern int cli_parse_only;
void cli_args_init(cli_args *a, int argc, char **argv, const char *command);
/* Advances; returns 0 at the end. */
int cli_args_next(cli_args *a);
/* The value of the current option; an error naming the option and `accepted` when missing. */
int cli_args_value(cli_args *a, const char *accepted, const char **value, ts_err *err);
/* Whether the current option is `name`. */
int cli_args_is(const cli_args *a, const char *name);

/* Reads a load from the command line: SCENARIO [options] [+ SCENARIO [options]]..., or a
   condition; --for, --quiet and --socket are accepted where their out-pointers are given. */
struct load_spec;
int cli_parse_load(int argc, char **argv, const char *command, struct load_spec *spec,
                   uint64_t *for_ns, int *quiet, const char **socket, ts_err *err);

/* The database path: `given`, or threadsoup.db in the per-user data folder; creates its folder. */
int cli_resolve_db_path(const char *given, char *path, size_t len, ts_err *err);

/* RUN as the commands that read a stored run take it: a run id (1 and up) into *run_id, or
   "latest" as 0 (cli_resolve_run finds it once the database is open); a usage error naming
   `what` ("RUN", "--compare RUN") otherwise. */
int cli_parse_run(const char *text, const char *what, long *run_id, ts_err *err);
/* The run cli_parse_run read: `run_id` itself, or for 0 the newest run in `s` (the database at
   `path`, named when it has no runs). */
struct store;
int cli_resolve_run(struct store *s, long run_id, const char *path, int64_t *id, ts_err *err);

/* Prints "threadsoup: MESSAGE" and the usage line of the command to stderr; returns
   CLI_EXIT_USAGE. */
int cli_usage_error(const cli_command *cmd, const char *message);
/* Prints "threadsoup: MESSAGE" to stderr; returns CLI_EXIT_FAILURE or CLI_EXIT_USAGE by code. */
int cli_fail(const ts_err *err);
void cli_print_command_help(const cli_command *cmd);

#endif
