/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* main.c - the `threadsoup` program: reads the command word and hands over to its command. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "threadsoup/plat.h"
#include "threadsoup/version.h"

static const cli_command *const commands[] = {
    &cli_run_command,     &cli_load_command,     &cli_census_command, &cli_record_command,
    &cli_history_command, &cli_report_command,   &cli_status_command, &cli_start_command,
    &cli_stop_command,    &cli_schedule_command, &cli_quiet_command,  &cli_service_command,
    &cli_doctor_command,  &cli_export_command,   &cli_import_command, NULL,
};
/* Command words users never type, so not in --help: the built-in benchmarks' child process, and
   the guardian that thaws what a freeze froze when its owner vanishes. */
static const cli_command *const hidden_commands[] = {&cli_bench_child_command,
                                                     &cli_freeze_guard_command, NULL};

/* The command called `word` in either table; NULL when none. */
static const cli_command *find_command(const char *word) {
  for (size_t i = 0; commands[i]; i++)
    if (strcmp(word, commands[i]->name) == 0)
      return commands[i];
  for (size_t i = 0; hidden_commands[i]; i++)
    if (strcmp(word, hidden_commands[i]->name) == 0)
      return hidden_commands[i];
  return NULL;
}

static void print_help(void) {
  printf("ThreadSoup %s - what do idle and background threads and processes cost a machine?\n\n"
         "usage: threadsoup COMMAND [options]\n       threadsoup --help | --version\n\n"
         "commands:\n",
         TS_VERSION);
  for (size_t i = 0; commands[i]; i++)
    printf("  %-8s %s\n", commands[i]->name, commands[i]->summary);
  printf("\n'threadsoup COMMAND --help' shows the options of a command.\n"
         "Exit codes: 0 success, 1 failure, 2 usage error.\n");
}

int main(int argc, char **argv) {
  /* Paths and names in every language: arguments and console text in UTF-8 on every OS. */
  plat_args_utf8(&argc, &argv);
  plat_console_utf8();
  /* Hidden, for the docs' tests: read a command's options as usual, then stop (cli_parse_only). */
  if (argc >= 2 && strcmp(argv[1], "--parse-only") == 0) {
    cli_parse_only = 1;
    argc--;
    argv++;
  }
  if (argc < 2)
    return cli_usage_error(NULL, "no command given");
  const char *word = argv[1];
  if (strcmp(word, "--help") == 0 || strcmp(word, "-h") == 0 || strcmp(word, "help") == 0) {
    print_help();
    return CLI_EXIT_OK;
  }
  if (strcmp(word, "--version") == 0 || strcmp(word, "version") == 0) {
    printf("threadsoup %s\n", TS_VERSION);
    return CLI_EXIT_OK;
  }
  const cli_command *command = find_command(word);
  if (command) {
    for (int j = 2; j < argc; j++)
      if (strcmp(argv[j], "--help") == 0 || strcmp(argv[j], "-h") == 0) {
        cli_print_command_help(command);
        return CLI_EXIT_OK;
      }
    return command->main(argc - 2, argv + 2);
  }
  char message[300];
  snprintf(message, sizeof message, "unknown %s '%.200s'", word[0] == '-' ? "option" : "command",
           word);
  return cli_usage_error(NULL, message);
}
