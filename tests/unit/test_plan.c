/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_plan.c - plans: presets, plan files and settings (what is accepted, what is refused with
   file and line), the stored text read back unchanged, and the interleaved order of trials. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "experiment/experiment.h"
#include "experiment/precision.h"
#include "plan/plan.h"
#include "threadsoup/buf.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

static void conditions_parse_to_canonical_text(void) {
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse("baseline", &spec, &err), TS_OK);
  CHECK_INT(spec.part_count, 0);
  CHECK_INT(load_spec_parse("baseline-b", &spec, &err), TS_OK);
  CHECK_STR_CONTAINS(spec.text, "baseline-b");
  CHECK_INT(load_spec_parse("baseline-B", &spec, &err), TS_EUSAGE);
  CHECK_INT(load_spec_parse("baselines", &spec, &err), TS_EUSAGE);
  CHECK_INT(load_spec_parse("sleep:1500", &spec, &err), TS_OK);
  CHECK_STR_CONTAINS(spec.text, "sleep:1500@500ms");
  CHECK(load_part_wakeups_per_s(&spec.parts[0]) == 3000); /* 1500 threads, each every 0.5 s */
  CHECK_INT(load_spec_parse("sleep:10@2s+sleep:5@100ms", &spec, &err), TS_OK);
  CHECK_INT(spec.part_count, 2);
  CHECK_INT(load_spec_threads(&spec), 15);
  CHECK_STR_CONTAINS(spec.text, "sleep:10@2s+sleep:5@100ms");
}

static void conditions_refused_with_reasons(void) {
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse("sleep", &spec, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "needs a count");
  CHECK_INT(load_spec_parse("sleep:0", &spec, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "0 is out of range");
  CHECK_INT(load_spec_parse("sleep:2000000", &spec, &err), TS_EUSAGE);
  CHECK_INT(load_spec_parse("sleep:5@0ms", &spec, &err), TS_EUSAGE);
  CHECK_INT(load_spec_parse("sleep:5+", &spec, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "empty part");
  CHECK_INT(load_spec_parse("naps:5", &spec, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "unknown scenario 'naps'");
  CHECK_STR_CONTAINS(err.text, "known: sleep, yield, wait, procs");
}

static void presets_and_settings(void) {
  plan p;
  ts_err err;
  static const char *const presets[] = {"quick", "waiters", "dose", "aa"};
  for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
    CHECK_INT(plan_preset(presets[i], &p, &err), TS_OK);
    CHECK_INT(plan_check(&p, &err), TS_OK);
    CHECK_STR_CONTAINS(p.name, presets[i]);
  }
  CHECK_INT(plan_preset("quick", &p, &err), TS_OK);
  CHECK_INT(p.condition_count, 4);
  CHECK_STR_CONTAINS(p.conditions[3].text, "sleep:15000@500ms");
  CHECK_INT(plan_preset("aa", &p, &err), TS_OK);
  CHECK_STR_CONTAINS(p.conditions[1].text, "baseline-b");
  CHECK_INT(plan_set(&p, "conditions", "baseline, sleep:5", &err), TS_OK);
  CHECK_INT(p.condition_count, 2);
  CHECK_INT(plan_set(&p, "conditions", "baseline,,sleep:5", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "empty item");
  CHECK_INT(plan_set(&p, "conditions", "sleep:5,sleep:5@500ms", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "listed twice");
  CHECK_INT(plan_set(&p, "bench", "builtin-st:3", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "takes no argument");
  CHECK_INT(plan_set(&p, "precision", "0.5%", &err), TS_OK);
  CHECK(p.precision_pct > 0.49 && p.precision_pct < 0.51);
  CHECK_INT(plan_set(&p, "precision", "lots", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "accepted: off, default, or 0.01% to 50%");
  CHECK_INT(plan_set(&p, "quiet-cpu", "off", &err), TS_OK);
  CHECK(p.quiet_cpu_pct == 0);
  CHECK_INT(plan_set(&p, "colour", "blue", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "unknown setting 'colour'");
  CHECK_INT(plan_preset("slow", &p, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "accepted: quick, seed, waiters, dose, aa");
  CHECK_INT(plan_set(&p, "bench", "command", &err), TS_OK);
  CHECK_INT(plan_check(&p, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "needs a command line");
}

/* "default" is 0.62 x the margin; a budget given without a precision asks for it, and a precision
   given (off too) or stored with the plan stays as it is. */
static void a_budget_alone_asks_for_the_default_precision(void) {
  plan p;
  ts_err err;
  CHECK_INT(plan_parse("precision = default\nmargin = 2%\n", "test", &p, &err), TS_OK);
  CHECK(p.precision_pct == PLAN_PERCENT_DERIVED);
  CHECK(fabs(precision_target(&p) - 1.24) < 1e-9);
  CHECK_INT(plan_parse("budget = 10m\n", "test", &p, &err), TS_OK);
  CHECK(p.precision_pct == PLAN_PERCENT_DERIVED);
  CHECK(fabs(precision_target(&p) - 0.62) < 1e-9);
  CHECK_INT(plan_parse("budget = 10m\nprecision = off\n", "test", &p, &err), TS_OK);
  CHECK(p.precision_pct == 0);
  CHECK_INT(plan_parse("precision = 2%\nbudget = 10m\n", "test", &p, &err), TS_OK);
  CHECK(p.precision_pct == 2);
  CHECK_INT(plan_parse("reps = 4\n", "test", &p, &err), TS_OK);
  CHECK(p.precision_pct == 0);
  /* Stored text names both, so a stored plan without precision reads back without it. */
  char text[PLAN_FORMAT_MAX];
  CHECK_INT(plan_preset("quick", &p, &err), TS_OK);
  plan_format(&p, text, sizeof text);
  CHECK_INT(plan_parse(text, "stored", &p, &err), TS_OK);
  CHECK(p.precision_pct == 0);
  /* On the command line: --budget on a preset without a precision. */
  CHECK_INT(plan_set(&p, "budget", "10m", &err), TS_OK);
  CHECK(p.precision_pct == PLAN_PERCENT_DERIVED);
  CHECK_INT(plan_set(&p, "precision", "1%", &err), TS_OK);
  CHECK_INT(plan_set(&p, "budget", "20m", &err), TS_OK);
  CHECK(p.precision_pct == 1);
  CHECK_INT(plan_set(&p, "precision", "sometimes", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "precision: 'sometimes' is not accepted (accepted: off, default, "
                               "or 0.01% to 50%)");
}

static void plan_files_name_file_and_line(void) {
  plan p;
  ts_err err;
  const char *good = "# my plan\n\nname = mine\nconditions = baseline, wait:100:address\n"
                     "bench = builtin-st\nreps = 3\n  settle = 250ms  \nprecision = 1%\n";
  CHECK_INT(plan_parse(good, "my.plan", &p, &err), TS_OK);
  CHECK_STR_CONTAINS(p.name, "mine");
  CHECK_INT(p.reps, 3);
  CHECK_INT(p.settle_ns, 250 * TS_NS_PER_MS);
  CHECK_INT(plan_parse("reps = 3\nreps = 4\n", "x.plan", &p, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "x.plan:2: 'reps' is set twice (first on line 1)");
  CHECK_INT(plan_parse("\n\nrepetitions = 3\n", "x.plan", &p, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "x.plan:3: unknown setting 'repetitions' (known: name, conditions");
  CHECK_INT(plan_parse("reps 3\n", "x.plan", &p, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "x.plan:1: expected KEY = VALUE");
  CHECK_INT(plan_parse("settle = forever\n", "x.plan", &p, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "x.plan:1: settle: 'forever' is not a duration");
  CHECK_INT(plan_parse("conditions = baseline, sleep:lots\n", "x.plan", &p, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "x.plan:1: conditions");

  FILE *f = fopen("plan_file_test.plan", "wb");
  fputs("conditions = baseline, sleep:10@1s\nbench = builtin-st\nreps = 2\n", f);
  fclose(f);
  CHECK_INT(plan_read_file("plan_file_test.plan", &p, &err), TS_OK);
  CHECK_STR_CONTAINS(p.name, "plan_file_test.plan");
  f = fopen("plan_binary.plan", "wb");
  fwrite("reps = 3\n\0\0\0", 1, 12, f);
  fclose(f);
  CHECK_INT(plan_read_file("plan_binary.plan", &p, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "NUL bytes");
  CHECK_INT(plan_read_file("no_such_file.plan", &p, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "cannot read plan file no_such_file.plan");
}

/* Writes `len` bytes to the plan file `path` and reads it as a plan. */
static int read_plan_bytes(const char *path, const char *bytes, size_t len, plan *p, ts_err *err) {
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (!f)
    return -1;
  fwrite(bytes, 1, len, f);
  fclose(f);
  int rc = plan_read_file(path, p, err);
  remove(path);
  return rc;
}

/* Plans saved by Windows editors: Notepad's "UTF-8 with BOM" reads as the same plan without the
   mark; its "Unicode" (UTF-16, little- or big-endian, with or without a byte-order mark) is
   refused with what to do. */
static void plan_files_from_windows_editors(void) {
  plan p;
  ts_err err;
  static const char bom_plan[] = "\xEF\xBB\xBFreps = 7\r\nbench = builtin-st\r\n";
  CHECK_INT(read_plan_bytes("bom.plan", bom_plan, sizeof bom_plan - 1, &p, &err), TS_OK);
  CHECK_INT(p.reps, 7);
  /* A mark anywhere but at the start is not skipped: it is part of the key. */
  static const char late_bom[] = "reps = 7\n\xEF\xBB\xBFwarmup = 0\n";
  CHECK_INT(read_plan_bytes("late.plan", late_bom, sizeof late_bom - 1, &p, &err), TS_EUSAGE);
  /* Notepad's "Unicode" and "Unicode big endian", and the same without their marks. */
  static const struct {
    const char *bytes;
    size_t len;
  } utf16[] = {
      {"\xFF\xFEr\0e\0p\0s\0 \0=\0 \0\x37\0\n\0", 20},
      {"\xFE\xFF\0r\0e\0p\0s\0 \0=\0 \0\x37\0\n", 20},
      {"r\0e\0p\0s\0 \0=\0 \0\x37\0\n\0", 18},
      {"\0r\0e\0p\0s\0 \0=\0 \0\x37\0\n", 18},
  };
  for (size_t i = 0; i < sizeof utf16 / sizeof utf16[0]; i++) {
    CHECK_INT(read_plan_bytes("wide.plan", utf16[i].bytes, utf16[i].len, &p, &err), TS_EUSAGE);
    CHECK_STR_CONTAINS(err.text, "wide.plan: UTF-16: save it as UTF-8");
  }
}

static void stored_text_reads_back_the_same(void) {
  plan p, q;
  ts_err err;
  char a[PLAN_FORMAT_MAX], b[PLAN_FORMAT_MAX];
  CHECK_INT(plan_preset("waiters", &p, &err), TS_OK);
  CHECK_INT(plan_set(&p, "precision", "0.75%", &err), TS_OK);
  CHECK_INT(plan_set(&p, "command", "echo \"score: 42\"", &err), TS_OK);
  plan_format(&p, a, sizeof a);
  CHECK_INT(plan_parse(a, "stored", &q, &err), TS_OK);
  plan_format(&q, b, sizeof b);
  CHECK(strcmp(a, b) == 0);
  CHECK_STR_CONTAINS(a, "name = waiters\n");
  CHECK_STR_CONTAINS(a, "precision = 0.75%\n");
}

/* The accepted text of a setting, as its errors and --help say it. */
static const char *accepted_of(const char *key) {
  static plan_setting_info info;
  for (size_t i = 0; plan_setting_info_at(i, &info); i++)
    if (strcmp(info.key, key) == 0)
      return info.accepted;
  return "(no such setting)";
}

/* Sets key to value on a fresh plan and checks that it is written out as `written` and reads
   back to the same text. */
static void round_trips(const char *key, const char *value, const char *written) {
  plan p, q;
  ts_err err;
  char a[PLAN_FORMAT_MAX], b[PLAN_FORMAT_MAX], line[PLAN_FORMAT_MAX];
  CHECK_INT(plan_parse("", "test", &p, &err), TS_OK);
  CHECK_INT(plan_set(&p, key, value, &err), TS_OK);
  plan_format(&p, a, sizeof a);
  snprintf(line, sizeof line, "%s = %s\n", key, written);
  CHECK_STR_CONTAINS(a, line);
  CHECK_INT(plan_parse(a, "stored", &q, &err), TS_OK);
  plan_format(&q, b, sizeof b);
  CHECK(strcmp(a, b) == 0);
  CHECK(memcmp(&p, &q, sizeof p) == 0);
}

/* Refused, and the error names the key, the value and what the table says is accepted. */
static void refused(const char *key, const char *value) {
  plan p;
  ts_err err;
  CHECK_INT(plan_parse("", "test", &p, &err), TS_OK);
  CHECK_INT(plan_set(&p, key, value, &err), TS_EUSAGE);
  CHECK(strncmp(err.text, key, strlen(key)) == 0);
  CHECK_STR_CONTAINS(err.text, value);
  CHECK_STR_CONTAINS(err.text, accepted_of(key));
}

/* Each bounded setting: the generated accepted text, both ends accepted and written back as
   given, and a value just past each end refused. */
static const struct {
  const char *key, *accepted, *lowest, *highest, *below, *above;
} bounded[] = {
    {"reps", "1 to 1000, or a time from 10s to 168h (at least 5 blocks)", "1", "1000", "0", "1001"},
    {"warmup", "0 to 100", "0", "100", "-1", "101"},
    {"settle", "0s to 1h", "0s", "1h", "-1s", "3601s"},
    {"iterations", "auto, or 1 to 8", "1", "8", "0", "9"},
    {"work-scale", "0.001 to 1000", "0.001", "1000", "0.0009", "1000.1"},
    {"precision", "off, default, or 0.01% to 50%", "0.01%", "50%", "0.009%", "50.1%"},
    {"budget", "1m to 168h", "1m", "168h", "59s", "169h"},
    {"quiet-cpu", "off, or 1% to 100%", "1%", "100%", "0.5%", "101%"},
    {"quiet-timeout", "0s to 1h", "0s", "1h", "-1ms", "61m"},
    {"margin", "auto, or 0.1% to 50%", "0.1%", "50%", "0.09%", "51%"},
    {"timeout", "1s to 24h", "1s", "24h", "999ms", "25h"},
    {"quiet", "off, defender, updates, on", "off", "on", "no", "yes"},
    {"stop-when-decided", "off, on", "off", "on", "yes", "1"},
};

static void every_bound_is_enforced_and_named(void) {
  for (size_t i = 0; i < sizeof bounded / sizeof bounded[0]; i++) {
    fprintf(stderr, "  %s\n", bounded[i].key);
    CHECK_STR_CONTAINS(accepted_of(bounded[i].key), bounded[i].accepted);
    CHECK_INT(strlen(accepted_of(bounded[i].key)), strlen(bounded[i].accepted));
    round_trips(bounded[i].key, bounded[i].lowest, bounded[i].lowest);
    round_trips(bounded[i].key, bounded[i].highest, bounded[i].highest);
    refused(bounded[i].key, bounded[i].below);
    refused(bounded[i].key, bounded[i].above);
    refused(bounded[i].key, "nonsense");
  }
  /* Out of range, the error says "accepted:" and the generated text, as the CLI tests expect. */
  plan p;
  ts_err err;
  CHECK_INT(plan_parse("", "test", &p, &err), TS_OK);
  CHECK_INT(plan_set(&p, "reps", "1001", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "reps: 1001 is out of range (accepted: 1 to 1000, or a time");
  /* reps as a time: at least 5 blocks, the time kept and written back; a number again clears it. */
  round_trips("reps", "80s", "80s");
  round_trips("reps", "10s", "10s");
  round_trips("reps", "168h", "168h");
  refused("reps", "9s");
  refused("reps", "169h");
  CHECK_INT(plan_set(&p, "reps", "2m", &err), TS_OK);
  CHECK(p.reps == PLAN_FILL_MIN_BLOCKS && p.fill_ns == 120 * TS_NS_PER_S);
  CHECK_INT(plan_set(&p, "reps", "7", &err), TS_OK);
  CHECK(p.reps == 7 && p.fill_ns == 0);
  CHECK_INT(plan_set(&p, "reps", "9s", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "reps: 9s is out of range (accepted: 1 to 1000, or a time");
  CHECK_INT(plan_set(&p, "reps", "many", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "reps: 'many' is neither a number of blocks nor a time (accepted:");
  /* The looks of stop-when-decided are planned for a number of blocks, which a time is not. */
  CHECK_INT(plan_parse("conditions = baseline, baseline-b\nbench = builtin-st\nreps = 80s\n"
                       "stop-when-decided = on\n",
                       "test", &p, &err),
            TS_OK);
  CHECK_INT(plan_check(&p, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "stop-when-decided plans its looks for a number of blocks, and "
                               "reps = 80s is a time");
  CHECK_INT(plan_set(&p, "margin", "60%", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "margin: '60%' is not accepted (accepted: auto, or 0.1% to 50%)");
  /* The words of percent settings, and values a shortened %g would have changed. */
  round_trips("precision", "off", "off");
  round_trips("precision", "default", "default");
  round_trips("margin", "auto", "auto");
  round_trips("iterations", "auto", "auto");
  CHECK_INT(plan_set(&p, "iterations", "9", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "iterations: '9' is not accepted (accepted: auto, or 1 to 8)");
  round_trips("work-scale", "1.23456789", "1.23456789");
  round_trips("precision", "0.123456789%", "0.123456789%");
  round_trips("settle", "250ms", "250ms");
}

static void text_lists_and_names_are_bounded(void) {
  char text[PLAN_TEXT_MAX + 1], list[PLAN_FORMAT_MAX];
  memset(text, 'a', sizeof text);
  text[PLAN_NAME_MAX - 1] = '\0';
  round_trips("name", text, text);
  text[PLAN_NAME_MAX - 1] = 'a';
  text[PLAN_NAME_MAX] = '\0';
  refused("name", "");
  CHECK_STR_CONTAINS(accepted_of("name"), "1 to 63 bytes");
  plan p;
  ts_err err;
  CHECK_INT(plan_parse("", "test", &p, &err), TS_OK);
  CHECK_INT(plan_set(&p, "name", text, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "name: too long at 64 bytes (accepted: ");
  CHECK_STR_CONTAINS(err.text, accepted_of("name"));
  CHECK_INT(plan_set(&p, "name", "tab\there", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "control character");
  CHECK_INT(plan_set(&p, "name", "caf\xe9", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "not UTF-8");
  round_trips("name", "caf\xc3\xa9 \xe2\x80\x94 2", "caf\xc3\xa9 \xe2\x80\x94 2");

  static const char *const texts[] = {"7zip", "cpuz", "command", "score-regex"};
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    memset(text, 'b', sizeof text);
    text[PLAN_TEXT_MAX - 1] = '\0';
    round_trips(texts[i], text, text);
    round_trips(texts[i], "C:\\Program Files\\x y.exe", "C:\\Program Files\\x y.exe");
    CHECK_STR_CONTAINS(accepted_of(texts[i]), "at most 511 bytes");
    text[PLAN_TEXT_MAX - 1] = 'b';
    text[PLAN_TEXT_MAX] = '\0';
    CHECK_INT(plan_set(&p, texts[i], text, &err), TS_EUSAGE);
    CHECK_STR_CONTAINS(err.text, "too long at 512 bytes");
    CHECK_STR_CONTAINS(err.text, accepted_of(texts[i]));
    CHECK_INT(plan_set(&p, texts[i], "", &err), TS_OK); /* empty: not given */
  }

  /* As many conditions and benchmarks as a plan holds, and one more. */
  ts_buf items = ts_buf_on(list, sizeof list);
  for (int i = 1; i <= PLAN_MAX_CONDITIONS; i++)
    ts_buf_itemf(&items, ", ", "sleep:%d@1s", i);
  REQUIRE(!items.cut);
  round_trips("conditions", list, list);
  ts_buf_item(&items, ", ", "baseline");
  CHECK_STR_CONTAINS(accepted_of("conditions"), "1 to 32, comma-separated: baseline");
  CHECK_INT(plan_set(&p, "conditions", list, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "conditions: too many (accepted: ");
  CHECK_STR_CONTAINS(err.text, accepted_of("conditions"));
  refused("conditions", "");
  items = ts_buf_on(list, sizeof list);
  for (int i = 1; i <= PLAN_MAX_BENCHES; i++)
    ts_buf_itemf(&items, ", ", "builtin-mt:%d", i);
  REQUIRE(!items.cut);
  round_trips("bench", list, list);
  ts_buf_item(&items, ", ", "builtin-st");
  CHECK_STR_CONTAINS(accepted_of("bench"), "1 to 8, comma-separated: builtin-st");
  CHECK_INT(plan_set(&p, "bench", list, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "bench: too many (accepted: ");
  CHECK_STR_CONTAINS(err.text, accepted_of("bench"));
}

/* The benchmarks' settings, a row that several benchmarks share counted once. */
static size_t distinct_bench_settings(void) {
  size_t n = 0;
  for (size_t b = 0; bench_table[b]; b++)
    for (size_t k = 0; k < bench_setting_count(bench_table[b]); k++) {
      int shared = 0;
      for (size_t o = 0; o < b; o++)
        for (size_t j = 0; j < bench_setting_count(bench_table[o]); j++)
          shared |= &bench_table[o]->settings[j] == &bench_table[b]->settings[k];
      n += !shared;
    }
  return n;
}

/* Every setting is covered above, and each default is accepted by its own setter and is what an
   empty plan holds. */
static void every_setting_is_covered_and_defaults_hold(void) {
  /* Text settings; each benchmark's own are covered by benchmark_settings_are_plan_settings. */
  static const char *const others[] = {"name", "conditions", "bench", "export-to"};
  plan_setting_info info;
  plan p, q;
  ts_err err;
  char a[PLAN_FORMAT_MAX], line[512];
  CHECK_INT(plan_parse("", "test", &p, &err), TS_OK);
  plan_format(&p, a, sizeof a);
  size_t count = 0, bench_settings = distinct_bench_settings();
  for (size_t i = 0; plan_setting_info_at(i, &info); i++, count++) {
    int covered = 0;
    for (size_t j = 0; j < sizeof bounded / sizeof bounded[0]; j++)
      covered |= strcmp(bounded[j].key, info.key) == 0;
    for (size_t j = 0; j < sizeof others / sizeof others[0]; j++)
      covered |= strcmp(others[j], info.key) == 0;
    for (size_t b = 0; bench_table[b]; b++)
      for (size_t k = 0; k < bench_setting_count(bench_table[b]); k++)
        covered |= strcmp(bench_table[b]->settings[k].key, info.key) == 0;
    if (!covered)
      fprintf(stderr, "  setting '%s' has no bounds test\n", info.key);
    CHECK(covered);
    CHECK(plan_is_setting(info.key));
    CHECK(info.help[0] && info.value[0] && info.accepted[0]);
    if (info.default_text[0]) {
      CHECK_INT(plan_set(&q, info.key, info.default_text, &err), TS_OK);
      snprintf(line, sizeof line, "%s = %s\n", info.key, info.default_text);
      CHECK_STR_CONTAINS(a, line);
    }
  }
  CHECK_INT(count,
            sizeof bounded / sizeof bounded[0] + sizeof others / sizeof others[0] + bench_settings);
  CHECK_STR_CONTAINS(p.name, "custom");
  CHECK_INT(p.reps, 5);
  CHECK_INT(p.warmup, 1);
  CHECK_INT(p.settle_ns, TS_NS_PER_S);
  CHECK_INT(p.iterations, 0); /* auto */
  CHECK(p.work_scale == 1.0);
  CHECK(p.precision_pct == 0 && p.quiet_cpu_pct == 0 && p.margin_pct == 0);
  CHECK_INT(p.budget_ns, TS_NS_PER_HOUR);
  CHECK_INT(p.quiet_timeout_ns, 30 * TS_NS_PER_S);
  CHECK_INT(p.bench_timeout_ns, 10 * TS_NS_PER_MIN);
  CHECK_INT(p.quiet, 0);
  CHECK_INT(p.condition_count + p.bench_count, 0);
  for (size_t b = 0; bench_table[b]; b++)
    for (size_t k = 0; k < bench_setting_count(bench_table[b]); k++) {
      const bench_setting *s = &bench_table[b]->settings[k];
      const char *v = plan_bench_setting(&p, s->key);
      CHECK(v && strcmp(v, s->dflt ? s->dflt : "") == 0);
    }
  CHECK(!p.export_to[0]);
}

static void unknown_keys_list_every_setting(void) {
  plan p;
  ts_err err;
  char known[1024];
  ts_buf keys = ts_buf_on(known, sizeof known);
  ts_buf_add(&keys, "(known: ");
  plan_setting_info info;
  for (size_t i = 0; plan_setting_info_at(i, &info); i++)
    ts_buf_item(&keys, ", ", info.key);
  ts_buf_add(&keys, ")");
  CHECK_STR_CONTAINS(known, "name, conditions, bench, reps,");
  CHECK_STR_CONTAINS(known, "score-regex, export-to)");
  CHECK_INT(plan_parse("", "test", &p, &err), TS_OK);
  CHECK_INT(plan_set(&p, "repetitions", "3", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "unknown setting 'repetitions' ");
  CHECK_STR_CONTAINS(err.text, known);
  CHECK_INT(plan_parse("quiet-cpu = 5%\ncolour = blue\n", "x.plan", &p, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "x.plan:2: unknown setting 'colour' ");
  CHECK_STR_CONTAINS(err.text, known);
  CHECK(!plan_is_setting("repetitions"));
}

/* A benchmark's setting is its own row (bench.h): a plan setting and a run option, read and
   written with the plan, handed to that benchmark alone, and what makes a plan run programs when
   it names one. */
static void benchmark_settings_are_plan_settings(void) {
  plan p;
  ts_err err;
  char text[PLAN_FORMAT_MAX], help[16384], line[BENCH_SETTING_MAX + 64];
  plan_settings_help(help, sizeof help);
  size_t total = 0;
  for (size_t b = 0; bench_table[b]; b++) {
    const bench_def *def = bench_table[b];
    for (size_t k = 0; k < bench_setting_count(def); k++, total++) {
      const bench_setting *s = &def->settings[k];
      int choice = s->kind == BENCH_SETTING_CHOICE;
      /* A choice takes its last word (not its default), any other text "x y". */
      const char *value = choice ? strrchr(s->choices, '|') + 1 : "x y";
      CHECK(plan_is_setting(s->key));
      snprintf(line, sizeof line, "--%s %s ", s->key,
               choice ? s->choices : bench_setting_value_name(s->kind));
      CHECK_STR_CONTAINS(help, line);
      CHECK_INT(plan_parse("", "test", &p, &err), TS_OK);
      char what[128];
      CHECK(!plan_runs_programs(&p, what, sizeof what));
      if (choice) {
        CHECK_INT(plan_set(&p, s->key, "x y", &err), TS_EUSAGE);
        snprintf(line, sizeof line, "%s: 'x y' is not accepted (accepted: ", s->key);
        CHECK_STR_CONTAINS(err.text, line);
        CHECK_INT(plan_set(&p, s->key, "", &err), TS_EUSAGE);
      }
      CHECK_INT(plan_set(&p, s->key, value, &err), TS_OK);
      CHECK(strcmp(plan_bench_setting(&p, s->key), value) == 0);
      CHECK_INT(plan_runs_programs(&p, what, sizeof what), bench_setting_runs_programs(s->kind));
      if (bench_setting_runs_programs(s->kind)) {
        snprintf(line, sizeof line, "%s = x y", s->key);
        CHECK(strcmp(what, line) == 0);
      }
      /* Only the benchmarks listing the row see it, in its row's place. */
      const char *arg, *settings[BENCH_SETTINGS_MAX];
      for (size_t o = 0; bench_table[o]; o++) {
        if (plan_bench(&p, bench_table[o]->name, &arg, settings, &err) == NULL)
          continue;
        for (size_t j = 0; j < bench_setting_count(bench_table[o]); j++)
          CHECK_INT(strcmp(settings[j], value) == 0, &bench_table[o]->settings[j] == s);
      }
      plan_format(&p, text, sizeof text);
      snprintf(line, sizeof line, "\n%s = %s\n", s->key, value);
      CHECK_STR_CONTAINS(text, line);
      plan q;
      CHECK_INT(plan_parse(text, "stored plan", &q, &err), TS_OK);
      CHECK(strcmp(plan_bench_setting(&q, s->key), value) == 0);
    }
  }
  CHECK(distinct_bench_settings() <= BENCH_SETTINGS_MAX);
  /* builtin-st and builtin-mt share one `process` setting. */
  CHECK(bench_named("builtin-st")->settings == bench_named("builtin-mt")->settings);
  /* A benchmark a search does not find here is refused by plan_check with the setting that gives
     its program; given, the plan passes. (CPU-Z is never found on Linux or under Wine.) */
  const bench_def *cpuz = bench_named("cpuz");
  if (cpuz && cpuz->unavailable_reason()) {
    CHECK_INT(plan_parse("conditions = baseline\nbench = cpuz:multi\n", "test", &p, &err), TS_OK);
    CHECK_INT(plan_check(&p, &err), TS_EUNSUPPORTED);
    CHECK_STR_CONTAINS(err.text, "bench cpuz:multi (give its path with --cpuz PATH): ");
    CHECK_INT(plan_set(&p, "cpuz", "C:\\CPU-Z\\cpuz.exe", &err), TS_OK);
    CHECK_INT(plan_check(&p, &err), TS_OK);
  }
  CHECK(plan_bench_setting(&p, "colour") == NULL);
  /* A benchmark that runs programs makes the plan one that does, named as such. */
  for (size_t b = 0; bench_table[b]; b++) {
    char what[128];
    CHECK_INT(plan_parse("", "test", &p, &err), TS_OK);
    if (plan_set(&p, "bench", bench_table[b]->name, &err) != TS_OK)
      continue; /* refused here: the name alone needs an argument */
    CHECK_INT(plan_runs_programs(&p, what, sizeof what), bench_table[b]->runs_programs);
  }
}

/* Text stored with runs before settings became a table, as plan_format wrote it then; it reads
   back the same, with the settings added since at their defaults (iterations, stopping when
   decided, the built-in benchmarks' process). */
static void old_stored_text_still_reads(void) {
  static const char *const stored =
      "name = quick\n"
      "conditions = baseline, sleep:1500@500ms, sleep:5000@500ms, sleep:15000@500ms\n"
      "bench = builtin-st\nreps = 5\nwarmup = 1\nsettle = 1s\nwork-scale = 1\nprecision = off\n"
      "budget = 1h\nquiet-cpu = 25%\nquiet-timeout = 5s\nmargin = auto\ntimeout = 10m\n"
      "quiet = off\n";
  static const char *const now =
      "name = quick\n"
      "conditions = baseline, sleep:1500@500ms, sleep:5000@500ms, sleep:15000@500ms\n"
      "bench = builtin-st\nreps = 5\nwarmup = 1\nsettle = 1s\niterations = auto\nwork-scale = 1\n"
      "precision = off\nbudget = 1h\nstop-when-decided = off\nquiet-cpu = 25%\n"
      "quiet-timeout = 5s\nmargin = auto\ntimeout = 10m\nquiet = off\nprocess = separate\n";
  plan p;
  ts_err err;
  char text[PLAN_FORMAT_MAX];
  CHECK_INT(plan_parse(stored, "stored plan", &p, &err), TS_OK);
  plan_format(&p, text, sizeof text);
  CHECK_STR_EQ(text, now);
  /* An old run of quick keeps the settings it ran with, not today's preset's. */
  static const char *const quick_now =
      "name = quick\n"
      "conditions = baseline, sleep:1500@500ms, sleep:5000@500ms, sleep:15000@500ms\n"
      "bench = builtin-st\nreps = 80s\nwarmup = 1\nsettle = 100ms\niterations = auto\n"
      "work-scale = 1\nprecision = off\nbudget = 1h\nstop-when-decided = off\nquiet-cpu = 25%\n"
      "quiet-timeout = 2s\nmargin = auto\ntimeout = 10m\nquiet = off\nprocess = separate\n";
  CHECK_INT(plan_preset("quick", &p, &err), TS_OK);
  plan_format(&p, text, sizeof text);
  CHECK_STR_EQ(text, quick_now);
  const char *older = "name = mine\nconditions = baseline\nbench = command\nreps = 3\n"
                      "precision = 0.5%\nmargin = 2%\nquiet = on\ncommand = echo 1\n"
                      "score-regex = ([0-9]+)\n7zip = /opt/7zz\n";
  CHECK_INT(plan_parse(older, "stored plan", &p, &err), TS_OK);
  CHECK_INT(p.quiet, 3); /* "on": both parts, as before the parts could be chosen */
  CHECK(p.margin_pct == 2 && p.precision_pct == 0.5);
  CHECK_STR_CONTAINS(plan_bench_setting(&p, "7zip"), "/opt/7zz");
  CHECK_STR_CONTAINS(plan_bench_setting(&p, "score-regex"), "([0-9]+)");
}

/* Help for run --help comes from the table: every option with its generated accepted text and
   default, in lines of at most 80 columns. */
static void help_comes_from_the_table(void) {
  char help[8192], flat[8192];
  plan_settings_help(help, sizeof help);
  size_t n = 0, column = 0, longest = 0;
  for (const char *c = help; *c; c++) {
    column = *c == '\n' ? 0 : column + 1;
    longest = column > longest ? column : longest;
    if (*c == '\n' && c[1] == ' ' && c[2] == ' ' && c[3] == ' ') {
      flat[n++] = ' '; /* a wrapped line: joined again to search it */
      while (c[1] == ' ')
        c++;
      column = 0;
    } else {
      flat[n++] = *c;
    }
  }
  flat[n] = '\0';
  CHECK(longest <= 80);
  CHECK_STR_CONTAINS(flat, "  --reps N|DURATION ");
  CHECK_STR_CONTAINS(flat, "; accepted: 1 to 1000, or a time from 10s to 168h (at least 5 blocks); "
                           "default 5\n");
  CHECK_STR_CONTAINS(flat, "  --margin P|auto ");
  CHECK_STR_CONTAINS(flat, "; accepted: auto, or 0.1% to 50%; default auto\n");
  CHECK_STR_CONTAINS(flat, "  --precision P|off|default ");
  CHECK_STR_CONTAINS(flat, "; accepted: off, default, or 0.01% to 50%; default off\n");
  CHECK_STR_CONTAINS(flat, "  --budget DURATION ");
  CHECK_STR_CONTAINS(flat, "; accepted: 1m to 168h; default 1h\n");
  CHECK_STR_CONTAINS(flat, "  --7zip PATH ");
  plan_setting_info info;
  for (size_t i = 0; plan_setting_info_at(i, &info); i++) {
    char option[64];
    snprintf(option, sizeof option, "  --%s %s ", info.key, info.value);
    CHECK_STR_CONTAINS(flat, option);
    CHECK_STR_CONTAINS(flat, info.accepted);
  }
}

/* docs/plans.md gives each setting's accepted text and default as the table generates them. */
static void docs_match_the_table(void) {
  char path[PLAT_PATH_MAX], text[16384];
  snprintf(path, sizeof path, "%s", __FILE__);
  char *tests = strstr(path, "tests/unit/test_plan.c");
  REQUIRE(tests != NULL);
  snprintf(tests, sizeof path - (size_t)(tests - path), "docs/plans.md");
  FILE *f = fopen(path, "rb");
  REQUIRE(f != NULL);
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  plan_setting_info info;
  for (size_t i = 0; plan_setting_info_at(i, &info); i++) {
    char row[64], cell[PLAN_ACCEPTED_MAX + 8];
    snprintf(row, sizeof row, "\n| `%s` |", info.key);
    const char *at = strstr(text, row);
    CHECK_STR_CONTAINS(text, row);
    if (!at)
      continue;
    char line[1024];
    size_t len = strcspn(at + 1, "\n");
    snprintf(line, sizeof line, "%.*s", (int)len, at + 1);
    snprintf(cell, sizeof cell, "| %s |", info.accepted);
    CHECK_STR_CONTAINS(line, cell);
    snprintf(cell, sizeof cell, "| %s |", info.default_text[0] ? info.default_text : "none");
    CHECK_STR_CONTAINS(line, cell);
  }
}

static void order_is_interleaved_and_reproducible(void) {
  plan p;
  ts_err err;
  CHECK_INT(plan_preset("quick", &p, &err), TS_OK);
  int a[50][4], b[4];
  uint64_t s1 = 12345, s2 = 12345, s3 = 54321;
  for (int block = 0; block < 50; block++) {
    experiment_block_order(&p, &s1, a[block]);
    experiment_block_order(&p, &s2, b);
    CHECK(memcmp(a[block], b, sizeof b) == 0);
    int seen[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++)
      seen[a[block][i]]++;
    CHECK(seen[0] == 1 && seen[1] == 1 && seen[2] == 1 && seen[3] == 1);
  }
  int differs = 0;
  for (int block = 1; block < 50; block++)
    differs += memcmp(a[0], a[block], sizeof b) != 0;
  CHECK(differs > 25);
  experiment_block_order(&p, &s3, b);
  CHECK(memcmp(a[0], b, sizeof b) != 0);
  CHECK_INT(plan_trial_count(&p), 1 + 4 * 5);
}

int main(void) {
  RUN_CASE(conditions_parse_to_canonical_text);
  RUN_CASE(conditions_refused_with_reasons);
  RUN_CASE(presets_and_settings);
  RUN_CASE(a_budget_alone_asks_for_the_default_precision);
  RUN_CASE(plan_files_name_file_and_line);
  RUN_CASE(plan_files_from_windows_editors);
  RUN_CASE(stored_text_reads_back_the_same);
  RUN_CASE(every_bound_is_enforced_and_named);
  RUN_CASE(text_lists_and_names_are_bounded);
  RUN_CASE(every_setting_is_covered_and_defaults_hold);
  RUN_CASE(unknown_keys_list_every_setting);
  RUN_CASE(old_stored_text_still_reads);
  RUN_CASE(benchmark_settings_are_plan_settings);
  RUN_CASE(help_comes_from_the_table);
  RUN_CASE(docs_match_the_table);
  RUN_CASE(order_is_interleaved_and_reproducible);
  return check_summary();
}
