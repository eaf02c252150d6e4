/* test_plan.c - plans: presets, plan files and settings (what is accepted, what is refused with
   file and line), the stored text read back unchanged, and the interleaved order of trials. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "experiment/experiment.h"
#include "experiment/plan.h"

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
  CHECK_INT(spec.parts[0].interval_ns, 500000000);
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
  CHECK_STR_CONTAINS(err.text, "accepted: off, or 0.01% to 50%");
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

static void plan_files_name_file_and_line(void) {
  plan p;
  ts_err err;
  const char *good = "# my plan\n\nname = mine\nconditions = baseline, wait:100:address\n"
                     "bench = builtin-st\nreps = 3\n  settle = 250ms  \nprecision = 1%\n";
  CHECK_INT(plan_parse(good, "my.plan", &p, &err), TS_OK);
  CHECK_STR_CONTAINS(p.name, "mine");
  CHECK_INT(p.reps, 3);
  CHECK_INT(p.settle_ns, 250000000);
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
  RUN_CASE(plan_files_name_file_and_line);
  RUN_CASE(stored_text_reads_back_the_same);
  RUN_CASE(order_is_interleaved_and_reproducible);
  return check_summary();
}
