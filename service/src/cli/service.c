/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* service.c - `threadsoup service`: installs, starts, stops and removes the service with the
   operating system's service manager, and is the service's own entry point (`service run`). */
#include <stdio.h>
#include <string.h>

#include "../host/host.h"
#include "cli.h"
#include "threadsoup/parse.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

static int service_main(int argc, char **argv) {
  const cli_command *cmd = &cli_service_command;
  if (argc < 1)
    return cli_usage_error(cmd,
                           "service needs install, uninstall, start, stop, status, group or run");
  const char *verb = argv[0];
  cli_args a;
  ts_err err;
  int console = 0;
  server_config config;
  memset(&config, 0, sizeof config);
  const char *address = NULL, *db = NULL, *value = NULL, *add = NULL;
  long per_user = 0;
  cli_args_init(&a, argc - 1, argv + 1, "service");
  int is_run = strcmp(verb, "run") == 0, is_group = strcmp(verb, "group") == 0;
  while (cli_args_next(&a)) {
    int rc = TS_OK;
    if (is_group && cli_args_is(&a, "--add"))
      rc = cli_args_value(&a, "a user name, DOMAIN\\user or SID", &add, &err);
    else if (is_run && cli_args_is(&a, "--console"))
      console = 1;
    else if (is_run && cli_args_is(&a, "--socket"))
      rc = cli_args_value(&a, "a socket path or pipe name", &address, &err);
    else if (is_run && cli_args_is(&a, "--db"))
      rc = cli_args_value(&a, "a database file path", &db, &err);
    else if (is_run && cli_args_is(&a, "--idle-timeout")) {
      rc = cli_args_value(&a, "a duration such as 30s", &value, &err);
      if (rc == TS_OK)
        rc = ts_parse_duration(value, 100 * TS_NS_PER_MS, 3600 * TS_NS_PER_S, "--idle-timeout",
                               &config.idle_timeout_ns, &err);
    } else if (is_run && cli_args_is(&a, "--clients-per-user")) {
      rc = cli_args_value(&a, "a whole number", &value, &err);
      if (rc == TS_OK)
        rc = ts_parse_long(value, 1, 64, "--clients-per-user", &per_user, &err);
      config.clients_per_user = (int)per_user;
    } else
      rc = ts_err_set(&err, TS_EUSAGE, "service %s: unexpected '%s'", verb,
                      a.name ? a.name : a.word);
    if (rc != TS_OK)
      return cli_usage_error(cmd, err.text);
  }
  if (address && strlen(address) >= sizeof config.address)
    return cli_usage_error(cmd, "--socket: too long");
  if (db && strlen(db) >= sizeof config.db_path)
    return cli_usage_error(cmd, "--db: too long");
  snprintf(config.address, sizeof config.address, "%s", address ? address : "");
  snprintf(config.db_path, sizeof config.db_path, "%s", db ? db : "");

  int rc;
  if (is_run) {
    rc = host_run(&config, console, &err);
  } else if (strcmp(verb, "install") == 0) {
    char dir[PLAT_PATH_MAX], name[64], program[PLAT_PATH_MAX + 80];
    rc = plat_program_dir(dir, sizeof dir, &err);
    plat_program_name("threadsoup", name, sizeof name);
    snprintf(program, sizeof program, "%s%c%s", dir, plat_path_separator(), name);
    if (rc == TS_OK)
      rc = host_install(program, &err);
    if (rc == TS_OK) {
      printf("service %s installed (%s); start it with threadsoup service start\n",
             HOST_SERVICE_NAME, program);
      /* The group is a convenience: without it elevated administrators still control. */
      char said[600];
      ts_err group_err;
      if (host_users_group("", said, sizeof said, &group_err) == TS_OK)
        printf("%s\n", said);
      else
        fprintf(stderr, "threadsoup: warning: %s\n", group_err.text);
    }
  } else if (is_group) {
    char said[600];
    rc = host_users_group(add ? add : NULL, said, sizeof said, &err);
    if (rc == TS_OK)
      printf("%s\n", said);
  } else if (strcmp(verb, "uninstall") == 0) {
    rc = host_uninstall(&err);
    if (rc == TS_OK)
      printf("service %s uninstalled\n", HOST_SERVICE_NAME);
  } else if (strcmp(verb, "start") == 0) {
    rc = host_start(&err);
    if (rc == TS_OK)
      printf("service %s started\n", HOST_SERVICE_NAME);
  } else if (strcmp(verb, "stop") == 0) {
    rc = host_stop(&err);
    if (rc == TS_OK)
      printf("service %s stopped\n", HOST_SERVICE_NAME);
  } else if (strcmp(verb, "status") == 0) {
    char state[768];
    rc = host_query(state, sizeof state, &err);
    if (rc == TS_OK)
      printf("service %s: %s\n", HOST_SERVICE_NAME, state);
  } else {
    char message[200];
    snprintf(message, sizeof message,
             "service: unknown action '%.100s' (accepted: install, uninstall, start, stop, "
             "status, group, run)",
             verb);
    return cli_usage_error(cmd, message);
  }
  return rc == TS_OK ? CLI_EXIT_OK : cli_fail(&err);
}

const cli_command cli_service_command = {
    .name = "service",
    .synopsis = "service install|uninstall|start|stop|status | service group [--add USER] | "
                "service run [--console] "
                "[--socket ADDRESS] [--db PATH] [--idle-timeout DURATION] "
                "[--clients-per-user N]",
    .summary = "manage the ThreadSoup service, or run it",
    .help = "\nactions:\n"
            "  install     register the service (Windows: automatic delayed start, restart on\n"
            "              failure, 60 s to stop at shutdown; Linux: a systemd unit) - needs an\n"
            "              administrator. Also creates the group whose members control the\n"
            "              service without elevating (Windows: ThreadSoup Users, and adds you;\n"
            "              Linux: threadsoup, and adds the user who ran sudo)\n"
            "  uninstall   stop and remove it (the group stays, with its members)\n"
            "  group [--add USER]  create that group if missing, and add USER (a name,\n"
            "              DOMAIN\\user or SID) - needs an administrator; a new member counts\n"
            "              from their next sign-in. Members may start and stop load and\n"
            "              experiments, record scores, manage schedules and quiet mode; plans\n"
            "              that run programs stay with elevated administrators (Linux: root)\n"
            "  start, stop, status   through the service manager\n"
            "  run         the service itself: started by the service manager; --console runs\n"
            "              it in the foreground (Ctrl+C stops it)\n"
            "\noptions of run:\n"
            "  --socket ADDRESS  listen here (default /run/threadsoup/control.sock,\n"
            "                    \\\\.\\pipe\\threadsoup)\n"
            "  --db PATH         the database (default /var/lib/threadsoup/threadsoup.db,\n"
            "                    %ProgramData%\\ThreadSoup\\threadsoup.db)\n"
            "  --idle-timeout DURATION  close a connection that sends no complete message for\n"
            "                    this long (100ms to 1h; default 30s; a subscriber that only\n"
            "                    listens is never idle)\n"
            "  --clients-per-user N  connections one user without control rights may\n"
            "                    hold at once (1 to 64; default 16)\n",
    .main = service_main,
};
