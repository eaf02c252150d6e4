/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* status.c - `threadsoup status`: what the service runs (load, experiment, database). */
#include <stdio.h>

#include "cli.h"
#include "threadsoup/proto.h"

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

static int status_main(int argc, char **argv) {
  const char *address;
  int rc = socket_only(argc, argv, &cli_status_command, &address);
  if (rc >= 0)
    return rc;
  static proto_message request;
  proto_init(&request, PROTO_REQUEST, "status");
  return cli_call_and_print(address, &request);
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
