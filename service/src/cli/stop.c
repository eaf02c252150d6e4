/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* stop.c - `threadsoup stop`: the service stops its load, or with --run its experiment. */
#include <stdio.h>

#include "cli.h"
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
  static proto_message request;
  proto_init(&request, PROTO_REQUEST, run ? "run-stop" : "load-stop");
  return cli_call_and_print(address, &request);
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
