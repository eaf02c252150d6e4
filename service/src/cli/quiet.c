/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* quiet.c - `threadsoup quiet status|on|off`: quiet mode (Defender, Windows Update) in the service.
 */
#include <stdio.h>
#include <string.h>

#include "../quiet/quiet.h"
#include "cli.h"
#include "threadsoup/proto.h"

static int quiet_main(int argc, char **argv) {
  const cli_command *cmd = &cli_quiet_command;
  if (argc < 1)
    return cli_usage_error(cmd, "quiet needs status, on or off");
  const char *verb = argv[0];
  cli_args a;
  ts_err err;
  const char *address = NULL, *hours = NULL, *seconds = NULL, *parts = NULL;
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
    else if (strcmp(verb, "on") == 0 && cli_args_is(&a, "--parts"))
      rc = cli_args_value(&a, "defender, updates or on", &parts, &err);
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
  if (parts)
    proto_add(&request, "parts", parts, &err);
  return cli_call_and_print(address, &request);
}

const cli_command cli_quiet_command = {
    .name = "quiet",
    .synopsis = "quiet status | quiet on [--hours N | --seconds N] [--parts P] | quiet off   "
                "[--socket ADDRESS]",
    .summary =
        "turn quiet mode (Defender real-time protection off, Windows Update paused) on or off",
    .help = "\nQuiet mode writes what it will change to the database first, changes it, and\n"
            "restores exactly that when turned off, when a run with 'quiet = on' ends, when its\n"
            "time is up (the service does it), or at the service's next start after a crash.\n"
            "Each part is done on its own (best effort): Defender is left on when Tamper\n"
            "Protection is on or another antivirus is the PC's, and updates are still paused.\n"
            "Windows only; needs an elevated administrator or a member of ThreadSoup Users.\n"
            "\noptions:\n"
            "  --hours N         on: quiet mode lasts this long at most (1 to 839; default 4)\n"
            "  --seconds N       on: the same in seconds (10 to 3020400)\n"
            "  --parts P         on: defender, updates or on (both; the default)\n"
            "  --socket ADDRESS  the service's socket or pipe\n",
    .main = quiet_main,
};
