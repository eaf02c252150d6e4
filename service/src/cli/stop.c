/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* stop.c - `threadsoup stop`: the service stops its load, or with --run its experiment. */
#include <stdio.h>

#include "cli.h"
#include "threadsoup/call.h"
#include "threadsoup/proto.h"

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
  static proto_message request, reply;
  proto_init(&request, PROTO_REQUEST, run ? "run-stop" : "load-stop");
  if (call_service(address, &request, &reply, &err) != TS_OK)
    return cli_fail(&err);
  /* Stopping what is not running leaves the service as asked: said, not a usage error (the
     request has no fields, so "usage" can only mean there was nothing to stop). */
  if (reply.kind == PROTO_ERROR && ts_code_from_wire_name(reply.verb) == TS_EUSAGE) {
    cli_print_refusal_words(stdout, "nothing to stop: ", &reply);
    return CLI_EXIT_OK;
  }
  if (reply.kind == PROTO_ERROR)
    return cli_service_refused(&reply);
  cli_print_reply(&reply);
  return CLI_EXIT_OK;
}

const cli_command cli_stop_command = {
    .name = "stop",
    .synopsis = "stop [--run] [--socket ADDRESS]",
    .summary = "stop the load the service runs (or, with --run, its experiment)",
    .help = "\noptions:\n"
            "  --run             stop the running experiment instead; its finished trials are\n"
            "                    kept and 'threadsoup run --service --resume RUN' continues it\n"
            "  --socket ADDRESS  the service's socket or pipe\n"
            "\nStopping when nothing runs says \"nothing to stop\" and succeeds (exit 0).\n",
    .main = stop_main,
};
