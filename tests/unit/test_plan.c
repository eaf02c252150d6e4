/* test_plan.c - conditions, benchmark lists and presets: what is accepted, what is refused, and
   the interleaved order of trials. */
#include <stdlib.h>

#include "check.h"
#include "experiment/experiment.h"
#include "experiment/plan.h"

static void conditions_parse_to_canonical_text(void) {
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse("baseline", &spec, &err), TS_OK);
  CHECK_INT(spec.part_count, 0);
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
  CHECK_STR_CONTAINS(err.text, "known: sleep");
}

static void plan_lists(void) {
  plan p;
  ts_err err;
  CHECK_INT(plan_preset("quick", &p, &err), TS_OK);
  CHECK_INT(p.condition_count, 4);
  CHECK_STR_CONTAINS(p.conditions[3].text, "sleep:15000@500ms");
  CHECK_INT(plan_set_conditions(&p, "baseline,sleep:5", &err), TS_OK);
  CHECK_INT(p.condition_count, 2);
  CHECK_INT(plan_set_conditions(&p, "baseline,,sleep:5", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "empty item");
  CHECK_INT(plan_set_conditions(&p, "sleep:5,sleep:5@500ms", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "listed twice");
  CHECK_INT(plan_set_benches(&p, "builtin-st:3", &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "takes no argument");
  CHECK_INT(plan_preset("slow", &p, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "accepted presets: quick");
}

static void order_is_interleaved_and_reproducible(void) {
  plan p;
  ts_err err;
  CHECK_INT(plan_preset("quick", &p, &err), TS_OK);
  p.reps = 50;
  int n = plan_trial_count(&p);
  CHECK_INT(n, 200);
  int *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
  experiment_order(&p, 12345, a);
  experiment_order(&p, 12345, b);
  CHECK(memcmp(a, b, (size_t)n * sizeof *a) == 0);
  /* Every block holds each condition exactly once. */
  for (int block = 0; block < 50; block++) {
    int seen[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++)
      seen[a[block * 4 + i]]++;
    CHECK(seen[0] == 1 && seen[1] == 1 && seen[2] == 1 && seen[3] == 1);
  }
  /* Blocks are not all in the same order, and another seed gives another order. */
  int differs = 0;
  for (int block = 1; block < 50; block++)
    differs += memcmp(a, a + block * 4, 4 * sizeof *a) != 0;
  CHECK(differs > 25);
  experiment_order(&p, 54321, b);
  CHECK(memcmp(a, b, (size_t)n * sizeof *a) != 0);
  free(a);
  free(b);
}

int main(void) {
  RUN_CASE(conditions_parse_to_canonical_text);
  RUN_CASE(conditions_refused_with_reasons);
  RUN_CASE(plan_lists);
  RUN_CASE(order_is_interleaved_and_reproducible);
  return check_summary();
}
