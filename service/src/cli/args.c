/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* args.c - the option reader and error printers shared by all command words. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../store/store.h"
#include "cli.h"
#include "threadsoup/parse.h"
#include "threadsoup/utf8.h"

void cli_args_init(cli_args *a, int argc, char **argv, const char *command) {
  memset(a, 0, sizeof *a);
  a->argc = argc;
  a->argv = argv;
  a->index = 0;
  a->command = command;
}

int cli_parse_only = 0;

int cli_args_next(cli_args *a) {
  if (a->index >= a->argc) {
    /* `threadsoup --parse-only COMMAND ...`: every option was read and known, nothing runs. */
    if (cli_parse_only) {
      printf("parsed: %s\n", a->command);
      exit(CLI_EXIT_OK);
    }
    return 0;
  }
  const char *arg = a->argv[a->index++];
  a->name = NULL;
  a->inline_value = NULL;
  a->word = NULL;
  if (arg[0] == '-' && arg[1] != '\0') {
    const char *eq = strchr(arg, '=');
    if (eq && arg[1] == '-') {
      snprintf(a->name_buf, sizeof a->name_buf, "%.*s", (int)(eq - arg), arg);
      a->name = a->name_buf;
      a->inline_value = eq + 1;
    } else {
      a->name = arg;
    }
  } else {
    a->word = arg;
  }
  return 1;
}

int cli_args_is(const cli_args *a, const char *name) {
  return a->name && strcmp(a->name, name) == 0;
}

int cli_args_value(cli_args *a, const char *accepted, const char **value, ts_err *err) {
  if (a->inline_value) {
    *value = a->inline_value;
  } else if (a->index < a->argc) {
    *value = a->argv[a->index++];
  } else {
    return ts_err_set(err, TS_EUSAGE, "option %s needs a value (%s)", a->name, accepted);
  }
  if (!**value)
    return ts_err_set(err, TS_EUSAGE, "option %s needs a value (%s)", a->name, accepted);
  return TS_OK;
}

void cli_print_command_help(const cli_command *cmd) {
  printf("usage: threadsoup %s\n\n%s\n", cmd->synopsis, cmd->summary);
  printf("%s", cmd->help);
  if (cmd->more_help)
    cmd->more_help();
}

int cli_usage_error(const cli_command *cmd, const char *message) {
  fputs("threadsoup: ", stderr);
  ts_utf8_fputs_printable(message, stderr); /* it may quote what was typed or stored */
  fputc('\n', stderr);
  if (cmd)
    fprintf(stderr, "usage: threadsoup %s (see threadsoup %s --help)\n", cmd->synopsis, cmd->name);
  else
    fprintf(stderr, "usage: threadsoup COMMAND [options] (see threadsoup --help)\n");
  return CLI_EXIT_USAGE;
}

int cli_fail(const ts_err *err) {
  fputs("threadsoup: ", stderr);
  ts_utf8_fputs_printable(err->text, stderr);
  fputc('\n', stderr);
  return err->code == TS_EUSAGE ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
}

int cli_parse_run(const char *text, const char *what, long *run_id, ts_err *err) {
  *run_id = 0;
  if (strcmp(text, "latest") == 0)
    return TS_OK;
  return ts_parse_long(text, 1, 2147483647L, what, run_id, err);
}

int cli_resolve_run(store *s, long run_id, const char *path, int64_t *id, ts_err *err) {
  *id = run_id;
  int rc = run_id ? TS_OK : store_latest_run(s, id, err);
  if (rc == TS_OK && *id == 0)
    rc = ts_err_set(err, TS_EINVAL, "there are no runs in %s", path);
  return rc;
}
