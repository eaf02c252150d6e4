/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* freeze_guard.c - `threadsoup freeze-guard OWNER MAX_MS PID...`: the hidden entry point of the
   guardian a freeze starts (engine/freeze.c), which thaws the frozen programs when its owner ends,
   even by kill -9, or when MAX_MS have passed. */
#include <stdio.h>

#include "../engine/freeze.h"
#include "cli.h"
#include "threadsoup/parse.h"
#include "threadsoup/units.h"

static int freeze_guard_command_main(int argc, char **argv) {
  long owner, max_ms, pids[FREEZE_TARGET_MAX];
  ts_err err;
  int count = argc - 2;
  if (count < 1 || count > FREEZE_TARGET_MAX)
    return cli_usage_error(&cli_freeze_guard_command, "freeze-guard needs OWNER MAX_MS and 1 to "
                                                      "32 PIDs");
  if (ts_parse_long(argv[0], 1, 1L << 30, "OWNER", &owner, &err) != TS_OK ||
      ts_parse_long(argv[1], 1, 1L << 30, "MAX_MS", &max_ms, &err) != TS_OK)
    return cli_usage_error(&cli_freeze_guard_command, err.text);
  for (int i = 0; i < count; i++)
    if (ts_parse_long(argv[2 + i], 1, 1L << 30, "PID", &pids[i], &err) != TS_OK)
      return cli_usage_error(&cli_freeze_guard_command, err.text);
  int failed = freeze_guard_main(owner, (uint64_t)max_ms * TS_NS_PER_MS, pids, count);
  return failed ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
}

const cli_command cli_freeze_guard_command = {
    .name = "freeze-guard",
    .synopsis = "freeze-guard OWNER MAX_MS PID...",
    .summary = "thaws the programs a freeze froze when OWNER ends or MAX_MS have passed (a freeze "
               "starts it; not for users)",
    .help = "",
    .main = freeze_guard_command_main,
};
