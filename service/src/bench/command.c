/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* command.c - `command`: any program as a benchmark; its score is a number read from its output
   with a regular expression, or, without one, how many times per second it could run. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "threadsoup/plat.h"
#include "threadsoup/regex.h"
#include "threadsoup/units.h"

#define COMMAND_DEFAULT_TIMEOUT_NS (10 * TS_NS_PER_MIN)
#define COMMAND_OUTPUT_MAX (1024 * 1024) /* a score is usually near the end: keep plenty */
#define COMMAND_MAX_ARGS 64
#define OUTPUT_SHOWN 200 /* how much output an error message quotes */

/* Splits a command line into words at spaces and tabs. Double quotes group words with spaces
   ("C:\Program Files\x.exe" or "a b"), and \" is a quote inside them; any other backslash is
   kept, so Windows paths need no doubling. The words are written into `storage`. */
static int split_command_line(const char *line, char *storage, const char **argv, int max,
                              ts_err *err) {
  int count = 0;
  const char *p = line;
  char *out = storage;
  for (;;) {
    while (*p == ' ' || *p == '\t')
      p++;
    if (!*p)
      break;
    if (count == max - 1)
      return ts_err_set(err, TS_EUSAGE, "command: more than %d words in '%s'", max - 1, line);
    argv[count++] = out;
    int quoted = 0;
    const char *quote_at = NULL;
    for (; *p && (quoted || (*p != ' ' && *p != '\t')); p++) {
      if (*p == '\\' && p[1] == '"') {
        *out++ = *++p;
      } else if (*p == '"') {
        quoted = !quoted;
        quote_at = p;
      } else {
        *out++ = *p;
      }
    }
    if (quoted)
      return ts_err_set(err, TS_EUSAGE,
                        "command: the quote at character %d of '%s' is never "
                        "closed",
                        (int)(quote_at - line) + 1, line);
    *out++ = '\0';
  }
  argv[count] = NULL;
  if (count == 0)
    return ts_err_set(err, TS_EUSAGE, "command needs a command line (--command \"...\")");
  return TS_OK;
}

/* The start of the output on one line, for error messages: line breaks shown as " | ". */
static void output_preview(const char *output, char *buf, size_t len) {
  size_t n = 0;
  for (const char *p = output; *p && n + 4 < len && p - output < OUTPUT_SHOWN; p++) {
    if (*p == '\r')
      continue;
    if (*p == '\n') {
      memcpy(buf + n, " | ", 3);
      n += 3;
    } else {
      buf[n++] = *p;
    }
  }
  buf[n] = '\0';
  if (strlen(output) > OUTPUT_SHOWN && n + 4 < len)
    strcpy(buf + n, "...");
}

/* The first group of the regex in the output, read as a number. */
static int score_from_output(const char *regex, const char *output, double *score, ts_err *err) {
  char text[128], preview[OUTPUT_SHOWN * 3 + 8];
  int found = ts_regex_first_group(regex, output, text, sizeof text, err);
  if (found < 0)
    return err->code == TS_EUSAGE ? ts_err_prefix(err, "command --score-regex") : err->code;
  output_preview(output, preview, sizeof preview);
  if (found == 0)
    return ts_err_set(err, TS_EBENCH,
                      "command: the score regex '%s' does not match the output, "
                      "which begins: '%s'",
                      regex, preview);
  char *end;
  errno = 0;
  const char *start = text;
  while (*start == ' ' || *start == '\t')
    start++;
  double value = strtod(start, &end);
  while (*end == ' ' || *end == '\t' || *end == '\r')
    end++;
  if (end == start || *end || errno == ERANGE || !isfinite(value))
    return ts_err_set(err, TS_EBENCH,
                      "command: the score regex '%s' matched '%s', which is not a "
                      "number (the output begins: '%s')",
                      regex, text, preview);
  *score = value;
  return TS_OK;
}

/* The settings' places in command_settings. */
enum { SETTING_COMMAND, SETTING_SCORE_REGEX };

static int command_run(const bench_args *args, bench_result *out, ts_err *err) {
  const char *command_line = bench_args_setting(args, SETTING_COMMAND);
  if (!command_line)
    return ts_err_set(err, TS_EUSAGE, "command needs a command line (--command \"...\")");
  const char *regex = bench_args_setting(args, SETTING_SCORE_REGEX);
  /* Compiled before the run, so that a typo in the regex costs no run. */
  if (regex) {
    char ignored[1];
    if (ts_regex_first_group(regex, "", ignored, sizeof ignored, err) < 0)
      return ts_err_prefix(err, "command --score-regex");
  }
  size_t line_length = strlen(command_line);
  char *words = malloc(line_length + 1);
  char *output = malloc(COMMAND_OUTPUT_MAX);
  const char *argv[COMMAND_MAX_ARGS];
  int rc =
      words && output ? TS_OK : ts_err_set(err, TS_ENOMEM, "command: no memory for its output");
  if (rc == TS_OK)
    rc = split_command_line(command_line, words, argv, COMMAND_MAX_ARGS, err);
  int exit_code = 0;
  char throttling[PLAT_BENCH_TEXT_MAX] = "";
  uint64_t started = plat_clock_ns(), elapsed = 0;
  if (rc == TS_OK) {
    uint64_t timeout = args->timeout_ns ? args->timeout_ns : COMMAND_DEFAULT_TIMEOUT_NS;
    rc = plat_proc_run_as_benchmark(argv, args->cancel, output, COMMAND_OUTPUT_MAX, NULL, timeout,
                                    &exit_code, throttling, sizeof throttling, err);
    elapsed = plat_clock_ns() - started;
    if (rc != TS_OK)
      rc = ts_err_prefix(err, "command");
  }
  if (rc == TS_OK && exit_code != 0) {
    char preview[OUTPUT_SHOWN * 3 + 8];
    output_preview(output, preview, sizeof preview);
    rc = ts_err_set(err, TS_EBENCH,
                    "command: '%s' failed with exit code %d; its output begins: "
                    "'%s'",
                    command_line, exit_code, preview);
  }
  double score = 0;
  if (rc == TS_OK) {
    if (regex)
      rc = score_from_output(regex, output, &score, err);
    else /* a clock that did not tick is still "faster than we can tell", not a division by 0 */
      score = (double)TS_NS_PER_S / (double)(elapsed ? elapsed : 1);
  }
  free(words);
  free(output);
  if (rc != TS_OK)
    return rc;
  memset(out, 0, sizeof *out);
  out->score = score;
  out->unit = regex ? "score" : "1/s";
  out->seconds = (double)elapsed / TS_NS_PER_S;
  snprintf(out->power_throttling, sizeof out->power_throttling, "%s", throttling);
  return TS_OK;
}

static const char *command_unavailable_reason(void) {
  return NULL; /* it runs whatever it is given, wherever that runs */
}

static int command_check_plan(const char *const *settings, ts_err *err) {
  if (!settings || !settings[SETTING_COMMAND] || !settings[SETTING_COMMAND][0])
    return ts_err_set(err, TS_EUSAGE,
                      "the command benchmark needs a command line (command = … or --command)");
  return TS_OK;
}

static const bench_setting command_settings[] = {
    [SETTING_COMMAND] = {.key = "command",
                         .kind = BENCH_SETTING_COMMAND,
                         .help = "the command benchmark's command line"},
    [SETTING_SCORE_REGEX] = {.key = "score-regex",
                             .kind = BENCH_SETTING_PATTERN,
                             .help =
                                 "the command benchmark: a regular expression whose first group is "
                                 "the score (without it, the score is 1 / seconds)"},
    {.key = NULL},
};

const bench_def bench_command = {
    .name = "command",
    .help = "any program as a benchmark (--command \"...\"): the score is the first group of "
            "--score-regex in its output, or without one 1 / its run time in seconds",
    .unavailable_reason = command_unavailable_reason,
    .check_arg = NULL,
    .run = command_run,
    .settings = command_settings,
    .check_plan = command_check_plan,
    .runs_programs = 1,
};
