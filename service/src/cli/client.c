/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* client.c - what the command words that talk to the service share: a reply printed as
   "key  value" lines and a refusal in the service's words. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "threadsoup/call.h"
#include "threadsoup/proto.h"
#include "threadsoup/utf8.h"

void cli_print_refusal_words(FILE *to, const char *lead, const proto_message *reply) {
  fputs(lead, to);
  /* The message may quote a name or value sent by anyone: control characters escaped. */
  ts_utf8_fputs_printable(call_refusal_text(reply), to);
  fputc('\n', to);
}

int cli_service_refused(const proto_message *reply) {
  char lead[PROTO_MAX_NAME + 40];
  snprintf(lead, sizeof lead, "threadsoup: the service refused (%s): ", reply->verb);
  cli_print_refusal_words(stderr, lead, reply);
  return ts_code_from_wire_name(reply->verb) == TS_EUSAGE ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
}

void cli_print_reply(const proto_message *reply) {
  for (int i = 0; i < reply->field_count; i++)
    ts_utf8_fprintf_printable(stdout, "%-20s %s\n", reply->fields[i].key, proto_value(reply, i));
}

/* Sends a request and prints the reply's fields as "key  value" lines, through the printable
   filter: values quote names from the OS and the database (a schedule's plan, a run's host). */
int cli_call_and_print(const char *address, const proto_message *request) {
  proto_message *reply = malloc(sizeof *reply);
  ts_err err;
  if (!reply)
    return CLI_EXIT_FAILURE;
  int rc = call_service(address, request, reply, &err);
  int exit_code = CLI_EXIT_OK;
  if (rc != TS_OK)
    exit_code = cli_fail(&err);
  else if (reply->kind == PROTO_ERROR)
    exit_code = cli_service_refused(reply);
  else
    cli_print_reply(reply);
  free(reply);
  return exit_code;
}
