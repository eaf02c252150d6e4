/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* doctor.c - `threadsoup doctor`: runs the machine checks (service/src/doctor) and prints each with
   what it measured and whether it holds; exits 0 when all hold, 1 otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../doctor/doctor.h"
#include "../plan/plan.h"
#include "../store/store.h"
#include "cli.h"
#include "threadsoup/call.h"
#include "threadsoup/proto.h"

/* The server check's question: `status` through the normal client, which verifies the server
   before it sends anything (plat_ipc_connect). */
static int ask_status(const char *address, char *answer, size_t len, ts_err *err) {
  proto_message request, *reply = malloc(sizeof *reply);
  if (!reply)
    return ts_err_set(err, TS_ENOMEM, "no memory for a reply");
  proto_init(&request, PROTO_REQUEST, "status");
  int rc = call_service(address, &request, reply, err);
  if (rc == TS_OK && reply->kind == PROTO_ERROR) {
    const char *message = proto_get(reply, "message");
    rc = ts_err_set(err, TS_EOS, "the service refused status: %s", message ? message : "?");
  }
  if (rc == TS_OK) {
    const char *server = proto_get(reply, "server"), *pid = proto_get(reply, "pid");
    snprintf(answer, len, "%s, pid %s", server ? server : "?", pid ? pid : "?");
  }
  free(reply);
  return rc;
}

/* The export-to folders of the service's schedules, for the export-folders check. */
typedef struct export_folders {
  char folders[16][PLAN_TEXT_MAX];
  const char *list[16];
  int count;
} export_folders;

static int add_export_folder(void *ctx, const store_schedule *sc) {
  export_folders *f = ctx;
  plan *p = malloc(sizeof *p);
  ts_err err;
  if (p && plan_parse(sc->plan_text, "a schedule's plan", p, &err) == TS_OK && p->export_to[0] &&
      f->count < 16) {
    snprintf(f->folders[f->count], sizeof f->folders[f->count], "%s", p->export_to);
    f->list[f->count] = f->folders[f->count];
    f->count++;
  }
  free(p);
  return 0;
}

/* Reads the schedules of the database in the service's data folder; 0 when it cannot be read
   (not there, or not this user's to read): the check is then skipped. */
static int read_export_folders(const char *data_dir, export_folders *f) {
  char folder[PLAT_PATH_MAX], path[PLAT_PATH_MAX + 32];
  ts_err err;
  if (data_dir)
    snprintf(folder, sizeof folder, "%s", data_dir);
  else if (plat_service_data_dir(folder, sizeof folder, &err) != TS_OK)
    return 0;
  snprintf(path, sizeof path, "%s%cthreadsoup.db", folder, plat_path_separator());
  store *s = NULL;
  if (!plat_file_exists(path) || store_open(&s, path, &err) != TS_OK)
    return 0;
  int rc = store_schedules(s, add_export_folder, f, &err);
  store_close(s);
  return rc == TS_OK;
}

static int doctor_main(int argc, char **argv) {
  cli_args a;
  ts_err err;
  int json = 0, quick = 0;
  doctor_context ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.machine_tasks = -1;
  ctx.load_tasks = plan_preset_largest_load();
  ctx.ask_status = ask_status;
  cli_args_init(&a, argc, argv, "doctor");
  while (cli_args_next(&a)) {
    if (a.word) {
      char message[300];
      snprintf(message, sizeof message, "doctor: unexpected argument '%.200s'", a.word);
      return cli_usage_error(&cli_doctor_command, message);
    }
    if (cli_args_is(&a, "--json"))
      json = 1;
    else if (cli_args_is(&a, "--quick"))
      quick = 1;
    else if (cli_args_is(&a, "--socket")) {
      if (cli_args_value(&a, "the service's socket or pipe", &ctx.address, &err) != TS_OK)
        return cli_usage_error(&cli_doctor_command, err.text);
    } else if (cli_args_is(&a, "--data")) {
      if (cli_args_value(&a, "the service's data folder", &ctx.data_dir, &err) != TS_OK)
        return cli_usage_error(&cli_doctor_command, err.text);
    } else {
      char message[300];
      snprintf(message, sizeof message, "doctor: unknown option '%.200s'", a.name);
      return cli_usage_error(&cli_doctor_command, message);
    }
  }
  doctor_report *r = malloc(sizeof *r);
  export_folders *exports = calloc(1, sizeof *exports);
  if (!r || !exports) {
    free(r);
    free(exports);
    return CLI_EXIT_FAILURE;
  }
  if (read_export_folders(ctx.data_dir, exports)) {
    ctx.export_folders = exports->list;
    ctx.export_folder_count = exports->count;
  }
  doctor_run(&ctx, quick ? DOCTOR_CHEAP : DOCTOR_CHEAP | DOCTOR_SLOW, 0, r);
  if (json)
    doctor_write_json(r, stdout);
  else
    doctor_write_text(r, stdout);
  int holds = doctor_holds(r);
  free(r);
  free(exports);
  return holds ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
}

const cli_command cli_doctor_command = {
    .name = "doctor",
    .synopsis = "doctor [--quick] [--json] [--socket ADDR] [--data DIR]",
    .summary = "check this machine: timer, idle children, rights, service, data, export "
               "folders, quiet mode, power, burn's clock, limits",
    .help = "\nChecks, on this machine, each assumption a result rests on; prints each check as\n"
            "ok, warn, fail or skip with what it measured and what to do. Exit code 0 when all\n"
            "hold (ok, warn or skip), 1 when any fails.\n"
            "\noptions:\n"
            "  --quick        leave out the slow checks: those that start programs (10 idle\n"
            "                 children; Defender's PowerShell cmdlets on Windows) and\n"
            "                 burn-clock's 150 ms of spinning\n"
            "  --json         the findings as one JSON object\n"
            "  --socket ADDR  the service's socket or pipe (default: the service's own)\n"
            "  --data DIR     the service's data folder (default /var/lib/threadsoup,\n"
            "                 %ProgramData%\\ThreadSoup)\n",
    .main = doctor_main,
};
