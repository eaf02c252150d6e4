/* census.c - `threadsoup census`: how many processes and threads this machine runs now, the
   experiment's first observation. */
#include <stdio.h>

#include "cli.h"
#include "threadsoup/plat.h"

static int census_main(int argc, char **argv) {
  cli_args a;
  cli_args_init(&a, argc, argv, "census");
  while (cli_args_next(&a)) {
    char message[300];
    snprintf(message, sizeof message, "census: unknown %s '%.200s'", a.name ? "option" : "argument",
             a.name ? a.name : a.word);
    return cli_usage_error(&cli_census_command, message);
  }
  plat_census machine;
  ts_err err;
  if (plat_census_machine(&machine, &err) != TS_OK)
    return cli_fail(&err);
  printf("processes  %ld\nthreads    %ld\n", machine.processes, machine.threads);
  return CLI_EXIT_OK;
}

const cli_command cli_census_command = {
    .name = "census",
    .synopsis = "census",
    .summary = "count the processes and threads this machine runs now",
    .help = "",
    .main = census_main,
};
