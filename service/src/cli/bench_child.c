/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* bench_child.c - `threadsoup bench-child SPEC --work-scale X`: the hidden entry point of the child
   process a built-in benchmark runs in (bench/child.c starts it and reads what it prints). */
#include <stdio.h>
#include <string.h>

#include "../bench/child.h"
#include "cli.h"
#include "threadsoup/parse.h"

static int bench_child_command_main(int argc, char **argv) {
  cli_args a;
  cli_args_init(&a, argc, argv, "bench-child");
  const char *spec = NULL, *scale_text = "1";
  double work_scale;
  ts_err err;
  while (cli_args_next(&a)) {
    int rc = TS_OK;
    if (a.word && !spec)
      spec = a.word;
    else if (a.word)
      rc = ts_err_set(&err, TS_EUSAGE, "bench-child: unexpected argument '%s'", a.word);
    else if (cli_args_is(&a, "--work-scale"))
      rc = cli_args_value(&a, "a number above 0", &scale_text, &err);
    else
      rc = ts_err_set(&err, TS_EUSAGE, "bench-child: unknown option '%s' (known: --work-scale)",
                      a.name);
    if (rc != TS_OK)
      return cli_usage_error(&cli_bench_child_command, err.text);
  }
  if (!spec)
    return cli_usage_error(&cli_bench_child_command, "bench-child needs a benchmark");
  if (ts_parse_double(scale_text, 1e-9, 1e9, "--work-scale", &work_scale, &err) != TS_OK)
    return cli_usage_error(&cli_bench_child_command, err.text);
  if (bench_child_main(spec, work_scale, stdout, &err) != TS_OK)
    return cli_fail(&err);
  return CLI_EXIT_OK;
}

const cli_command cli_bench_child_command = {
    .name = "bench-child",
    .synopsis = "bench-child BENCH --work-scale X",
    .summary = "a built-in benchmark in a process of its own, printing its result as lines (the "
               "runs of the built-in benchmarks start it; not for users)",
    .help = "  --work-scale X  multiplies the benchmark's fixed work (default 1)\n",
    .main = bench_child_command_main,
};
