/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* report.c - `threadsoup report RUN`: the statistics of a stored run, read back from the database
   (its plan comes from the database too), as text, CSV, JSON or HTML, to stdout or a file. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../report/report.h"
#include "cli.h"
#include "threadsoup/parse.h"
#include "threadsoup/plat.h"

static int report_main(int argc, char **argv) {
  cli_args a;
  cli_args_init(&a, argc, argv, "report");
  const char *db_path = NULL, *run_text = NULL, *format_text = NULL, *output = NULL;
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
    else
      rc = ts_err_set(&err, TS_EUSAGE, "report: unknown option '%s'", a.name);
    if (rc != TS_OK)
      return cli_usage_error(&cli_report_command, err.text);
  }
  report_format format = REPORT_FORMAT_TEXT;
  if (format_text && report_format_parse(format_text, &format, &err) != TS_OK)
    return cli_usage_error(&cli_report_command, err.text);
  long run_id = 0;
  if (!run_text)
    return cli_usage_error(&cli_report_command,
                           "report needs a RUN (threadsoup history lists them)");
  if (strcmp(run_text, "latest") != 0 &&
      parse_long(run_text, 1, 2147483647L, "RUN", &run_id, &err) != TS_OK)
    return cli_usage_error(&cli_report_command, err.text);
  char path[PLAT_PATH_MAX];
  store *s = NULL;
  if (cli_resolve_db_path(db_path, path, sizeof path, &err) != TS_OK ||
      store_open(&s, path, &err) != TS_OK)
    return cli_fail(&err);
  int64_t id = run_id;
  int rc = run_id ? TS_OK : store_latest_run(s, &id, &err);
  if (rc == TS_OK && id == 0)
    rc = ts_err_set(&err, TS_EINVAL, "there are no runs in %s", path);
  /* Text mode, so the C library ends lines as the platform's text files do (CSV too). */
  FILE *out = stdout;
  if (rc == TS_OK && output && !(out = fopen(output, "w")))
    rc = ts_err_set(&err, TS_EOS, "cannot write %s: %s", output, strerror(errno));
  if (rc == TS_OK)
    rc = report_run_format(s, id, format, out, &err);
  store_close(s);
  if (out && out != stdout && fclose(out) != 0 && rc == TS_OK)
    rc = ts_err_set(&err, TS_EOS, "cannot write %s: %s", output, strerror(errno));
  if (rc == TS_OK && output)
    printf("%s\n", output);
  return rc == TS_OK ? CLI_EXIT_OK : cli_fail(&err);
}

const cli_command cli_report_command = {
    .name = "report",
    .synopsis = "report RUN|latest [--format text|csv|json|html] [--output FILE] [--db PATH]",
    .summary = "print the statistics and verdicts of a stored run",
    .help = "\noptions:\n"
            "  --format F     text (default), csv (one row per trial with its metrics,\n"
            "                 then the census per condition after an empty line),\n"
            "                 json (statistics, census and trials) or html (one page with\n"
            "                 charts); each shows the census of every condition\n"
            "  --output FILE  write the report to FILE and print its path (default: stdout)\n"
            "  --db PATH      database file (default as for run)\n"
            "\nA run with 3 or more sleep/wait conditions of different thread counts or wake-up\n"
            "rates also gets a cost model: the change per 1,000 wake-ups/s and per 1,000 idle\n"
            "threads, which one matters, and for a dose series the knee (preset cost).\n"
            "\nA run with a burn condition (a load of known cost) also gets a Calibration\n"
            "verdict in text, json and html: PASSED, or FAILED and why.\n",
    .main = report_main,
};
