/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* start.c - `threadsoup start`: the service runs a load until `threadsoup stop`. */
#include "../engine/engine.h"
#include "cli.h"
#include "threadsoup/proto.h"

static int start_main(int argc, char **argv) {
  load_spec spec;
  const char *address = NULL;
  ts_err err;
  if (cli_parse_load(argc, argv, "start", &spec, NULL, NULL, &address, &err) != TS_OK)
    return cli_usage_error(&cli_start_command, err.text);
  static proto_message request;
  proto_init(&request, PROTO_REQUEST, "load-start");
  proto_add(&request, "spec", spec.text, &err);
  return cli_call_and_print(address, &request);
}

const cli_command cli_start_command = {
    .name = "start",
    .synopsis = "start SCENARIO [options] [+ SCENARIO [options]]... [--socket ADDRESS]",
    .summary = "have the service run load until threadsoup stop (same scenarios as load)",
    .help = "\nThe scenarios and options of 'threadsoup load' (threadsoup load --help).\n",
    .main = start_main,
};
