/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* report.c - `threadsoup report RUN`: the statistics of a stored run, read back from the database
   (its plan comes from the database too), as text, CSV, JSON or HTML, to stdout or a file; and
   `report --compare RUN,RUN,...` / `--compare-all-machines`: several runs side by side. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../report/compare.h"
#include "../report/report.h"
#include "cli.h"
#include "threadsoup/call.h"
#include "threadsoup/plat.h"

/* "3,7,12" or "3,latest": the run ids of --compare, in their order, latest as 0 until the
   database is open (duplicates are refused by the report). */
static int parse_run_list(const char *text, int64_t *ids, int max, int *count, ts_err *err) {
  *count = 0;
  const char *p = text;
  for (;;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    char item[32];
    if (len == 0 || len >= sizeof item)
      return ts_err_set(err, TS_EUSAGE,
                        "--compare '%s': %s (accepted: 2 to %d run ids or latest separated by "
                        "commas, e.g. 3,7)",
                        text, len == 0 ? "an empty run id" : "a run id that is too long", max);
    memcpy(item, p, len);
    item[len] = '\0';
    /* Spaces around an id are allowed on both sides ("3, 7" as well as "3 ,7"). */
    char *word = item;
    while (*word == ' ')
      word++;
    for (size_t end = strlen(word); end > 0 && word[end - 1] == ' ';)
      word[--end] = '\0';
    if (!*word)
      return ts_err_set(err, TS_EUSAGE,
                        "--compare '%s': an empty run id (accepted: 2 to %d run ids or latest "
                        "separated by commas, e.g. 3,7)",
                        text, max);
    long id;
    if (cli_parse_run(word, "--compare RUN", &id, err) != TS_OK)
      return TS_EUSAGE;
    if (*count == max)
      return ts_err_set(err, TS_EUSAGE, "--compare: at most %d runs (accepted: 2 to %d run ids)",
                        max, max);
    ids[(*count)++] = id;
    if (!comma)
      return TS_OK;
    p = comma + 1;
  }
}

/* The report of run `run_id` as the service renders it from its own database, read in pages. */
static int report_by_service(const char *socket, long run_id, const char *format,
                             const char *output) {
  static proto_message request, reply;
  ts_err err;
  call_link *link = call_link_new();
  FILE *out = stdout;
  int rc = link ? call_link_connect(link, socket, &err)
                : ts_err_set(&err, TS_ENOMEM, "no memory for the service connection");
  if (rc == TS_OK && output && !(out = plat_fopen(output, "w")))
    rc = ts_err_set(&err, TS_EOS, "cannot write %s: %s", output, strerror(errno));
  if (rc == TS_OK)
    rc = call_report_pages(link, run_id, format, out, &request, &reply, &err);
  call_link_free(link);
  if (out && out != stdout && fclose(out) != 0 && rc == TS_OK)
    rc = ts_err_set(&err, TS_EOS, "cannot write %s: %s", output, strerror(errno));
  if (rc == TS_OK && output)
    printf("%s\n", output);
  return rc == TS_OK ? CLI_EXIT_OK : cli_fail(&err);
}

static int report_main(int argc, char **argv) {
  cli_args a;
  cli_args_init(&a, argc, argv, "report");
  const char *db_path = NULL, *run_text = NULL, *format_text = NULL, *output = NULL,
             *compare_text = NULL, *socket = NULL;
  int all_machines = 0, use_service = 0;
  ts_err err;
  while (cli_args_next(&a)) {
    int rc = TS_OK;
    if (a.word && !run_text)
      run_text = a.word;
    else if (a.word)
      rc = ts_err_set(&err, TS_EUSAGE, "report takes one RUN, got '%s' and '%s'", run_text, a.word);
    else if (cli_args_is(&a, "--db"))
      rc = cli_args_value(&a, "a database file path", &db_path, &err);
    else if (cli_args_is(&a, "--format"))
      rc = cli_args_value(&a, "text, csv, json or html", &format_text, &err);
    else if (cli_args_is(&a, "--output"))
      rc = cli_args_value(&a, "a file path", &output, &err);
    else if (cli_args_is(&a, "--compare"))
      rc = cli_args_value(&a, "run ids or latest separated by commas, e.g. 3,7", &compare_text,
                          &err);
    else if (cli_args_is(&a, "--compare-all-machines"))
      all_machines = 1;
    else if (cli_args_is(&a, "--service"))
      use_service = 1;
    else if (cli_args_is(&a, "--socket"))
      rc = cli_args_value(&a, "the service's socket or pipe", &socket, &err);
    else
      rc = ts_err_set(&err, TS_EUSAGE, "report: unknown option '%s'", a.name);
    if (rc != TS_OK)
      return cli_usage_error(&cli_report_command, err.text);
  }
  report_format format = REPORT_FORMAT_TEXT;
  if (format_text && report_format_parse(format_text, &format, &err) != TS_OK)
    return cli_usage_error(&cli_report_command, err.text);
  int compare = compare_text || all_machines;
  if ((run_text ? 1 : 0) + (compare_text ? 1 : 0) + all_machines > 1)
    return cli_usage_error(&cli_report_command,
                           "report takes one of RUN, --compare RUN,RUN,... and "
                           "--compare-all-machines");
  int64_t ids[REPORT_COMPARE_MAX_RUNS];
  int id_count = 0;
  if (compare_text &&
      parse_run_list(compare_text, ids, REPORT_COMPARE_MAX_RUNS, &id_count, &err) != TS_OK)
    return cli_usage_error(&cli_report_command, err.text);
  long run_id = 0;
  if (!run_text && !compare)
    return cli_usage_error(&cli_report_command,
                           "report needs a RUN (threadsoup history lists them), --compare "
                           "RUN,RUN,... or --compare-all-machines");
  if (run_text && cli_parse_run(run_text, "RUN", &run_id, &err) != TS_OK)
    return cli_usage_error(&cli_report_command, err.text);
  if (use_service || socket) {
    if (db_path)
      return cli_usage_error(&cli_report_command,
                             "report --service reads the service's database: drop --db (or "
                             "drop --service to read a database file)");
    if (compare)
      return cli_usage_error(&cli_report_command,
                             "--compare and --compare-all-machines read a database file: drop "
                             "--service and give --db (the service's database path is in "
                             "threadsoup doctor)");
    if (run_id == 0)
      return cli_usage_error(&cli_report_command,
                             "report --service needs a run id (threadsoup history --service "
                             "lists them)");
    return report_by_service(socket, run_id, format_text ? format_text : "text", output);
  }
  char path[PLAT_PATH_MAX];
  store *s = NULL;
  if (cli_resolve_db_path(db_path, path, sizeof path, &err) != TS_OK ||
      store_open_existing(&s, path, &err) != TS_OK)
    return cli_fail(&err);
  int64_t id = 0;
  int rc = compare ? TS_OK : cli_resolve_run(s, run_id, path, &id, &err);
  /* latest in --compare: the newest run; one listed again is the report's "listed twice". */
  for (int k = 0; k < id_count && rc == TS_OK; k++)
    if (ids[k] == 0)
      rc = cli_resolve_run(s, 0, path, &ids[k], &err);
  if (rc == TS_OK && all_machines)
    rc = report_compare_pick_machines(s, ids, REPORT_COMPARE_MAX_RUNS, &id_count, &err);
  /* Text mode, so the C library ends lines as the platform's text files do (CSV too). */
  FILE *out = stdout;
  if (rc == TS_OK && output && !(out = plat_fopen(output, "w")))
    rc = ts_err_set(&err, TS_EOS, "cannot write %s: %s", output, strerror(errno));
  if (rc == TS_OK)
    rc = compare ? report_compare_format(s, ids, id_count, format, out, &err)
                 : report_run_format(s, id, format, out, &err);
  store_close(s);
  if (out && out != stdout && fclose(out) != 0 && rc == TS_OK)
    rc = ts_err_set(&err, TS_EOS, "cannot write %s: %s", output, strerror(errno));
  if (rc == TS_OK && output)
    printf("%s\n", output);
  if (rc == TS_EUSAGE)
    return cli_usage_error(&cli_report_command, err.text);
  return rc == TS_OK ? CLI_EXIT_OK : cli_fail(&err);
}

const cli_command cli_report_command = {
    .name = "report",
    .synopsis =
        "report RUN|latest|--compare RUN,RUN,...|--compare-all-machines "
        "[--format text|csv|json|html] [--output FILE] [--db PATH | --service [--socket S]]",
    .summary = "print the statistics and verdicts of a stored run, or of runs side by side",
    .help = "\noptions:\n"
            "  --format F     text (default), csv (one row per trial with its metrics,\n"
            "                 then the census per condition after an empty line),\n"
            "                 json (statistics, census and trials) or html (one page with\n"
            "                 charts); each shows the census of every condition\n"
            "  --output FILE  write the report to FILE and print its path (default: stdout)\n"
            "  --db PATH      database file (default as for run)\n"
            "  --service      the report of a run in the service's database (the runs of\n"
            "                 run --service and of schedules), rendered by the service\n"
            "  --socket S     the service's socket or pipe (implies --service)\n"
            "  --compare RUN,RUN,...\n"
            "                 2 to 16 runs side by side (run ids, or latest for the newest\n"
            "                 run, e.g. 3,latest), a row per run and its machine\n"
            "                 (host, CPU, logical CPUs, memory, run id and date): per\n"
            "                 benchmark and condition the effect against that run's own\n"
            "                 baseline with the interval that decided (at its Holm level),\n"
            "                 verdict and smallest detectable\n"
            "                 effect, and each baseline's noise (cv); plans that differ\n"
            "                 (conditions, benchmarks, work scale, margin) are listed, and a\n"
            "                 condition a run lacks is \"not measured\" there; its csv has a\n"
            "                 row per run, benchmark and condition, then the differences\n"
            "  --compare-all-machines\n"
            "                 the same for the newest finished run of each machine in the\n"
            "                 database (machines told apart by machine id, else host and CPU)\n"
            "\nA run with 3 or more sleep/wait conditions of different thread counts or wake-up\n"
            "rates also gets a cost model: the change per 1,000 wake-ups/s and per 1,000 idle\n"
            "threads, which one matters, and for a dose series the knee (preset cost).\n"
            "\nA run with a burn condition (a load of known cost) also gets a Calibration\n"
            "verdict in text, json and html: PASSED, or FAILED and why.\n",
    .main = report_main,
};
