/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_calibration.c - the positive control's verdict: the rule on constructed cases (passed, an
   A/A pair that differs, a control shielded to a fifth of its cost, one that costs more, too
   noisy, too few blocks), the expected cost per benchmark kind, the Calibration part of every
   report format, stored runs (a shielded machine fails and says why, a correct one passes, the
   burners' recorded CPU sets the expected cost), and seeded simulations of calibrate runs through
   this code: false FAILED at most 5 % on correct machines, a shielded one caught at least 90 %. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../service/src/report/calibration.h"
#include "check.h"
#include "sim.h"
#include "testreport.h"

/* ---- the rule ----------------------------------------------------------------------------- */

/* The largest burn of a run: burn:10% expected to cost 10 %, measured `measured` ± 1.5 %, and a
   slope over the burns of `slope` ± 0.15 judged as calib_fit_run would. */
static calib_result fit_of(double slope, calib_verdict verdict) {
  calib_result f = {0};
  f.slope = slope;
  f.slope_low = slope - 0.15;
  f.slope_high = slope + 0.15;
  f.verdict = verdict;
  return f;
}

static calibration_case control(const calib_result *fit, double measured) {
  calibration_case c = {.fitted = 3,
                        .control = "burn:10%",
                        .cost = {10, 10, 1, measured, measured - 1.5, measured + 1.5, NAN, NAN},
                        .fit = fit,
                        .confidence = 0.975,
                        .aa_pairs = 1};
  return c;
}

static void passed_when_the_burns_cost_what_they_should(void) {
  char why[640];
  calib_result f = fit_of(0.97, CALIB_PASSED);
  calibration_case c = control(&f, 9.7);
  CHECK_INT(calibration_decide(&c, why, sizeof why), 1);
  CHECK_STR_CONTAINS(why, "burn:10% cost 9.70 % (97.5 % CI 8.20 to 11.20 %) where 10.00 % was "
                          "expected; measured on expected cost over the burns 0.97 (CI 0.82 to "
                          "1.12)");
  CHECK_STR_CONTAINS(why, "the A/A pair did not differ");
  /* Without an A/A pair the run passes on its burns, and says what is missing. */
  c.aa_pairs = 0;
  CHECK_INT(calibration_decide(&c, why, sizeof why), 1);
  CHECK_STR_CONTAINS(why, "no A/A pair");
}

static void failed_when_aa_differs(void) {
  char why[640];
  calib_result f = fit_of(0.97, CALIB_PASSED);
  calibration_case c = control(&f, 9.7);
  c.aa = "baseline-b";
  c.aa_cost = (calibration_cost){0, 0, 0, 2.5, 0.8, 4.2, NAN, NAN};
  CHECK_INT(calibration_decide(&c, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "the A/A pair differed: baseline-b cost +2.50 % against the baseline "
                          "(97.5 % CI 0.80 to 4.20 %)");
  /* Both wrong: both reasons. */
  f = fit_of(0.6, CALIB_INCONCLUSIVE);
  CHECK_INT(calibration_decide(&c, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "the A/A pair differed");
  CHECK_STR_CONTAINS(why, "; too noisy");
}

static void a_shielded_control_fails_and_says_by_how_much(void) {
  char why[640];
  calib_result f = fit_of(0.2, CALIB_COSTS_LESS);
  calibration_case c = control(&f, 2);
  CHECK_INT(calibration_decide(&c, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "burn:10% cost 2.00 % (97.5 % CI 0.50 to 3.50 %) where 10.00 % was "
                          "expected: the control cost a fifth of what it should (measured on "
                          "expected 0.20, CI 0.05 to 0.35): the benchmark is shielded from other "
                          "CPU use (another core, a priority, power management)");
  f = fit_of(0.62, CALIB_COSTS_LESS);
  CHECK_INT(calibration_decide(&c, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "cost 0.62 times what it should");
  f = fit_of(1.6, CALIB_COSTS_MORE);
  c.cost.measured = 16;
  CHECK_INT(calibration_decide(&c, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "cost 1.60 times what it should");
  CHECK_STR_CONTAINS(why, "something besides the burners' CPU time slows the benchmark");
}

static void too_noisy_or_too_few_is_not_a_pass(void) {
  char why[640];
  calib_result f = fit_of(0.1, CALIB_INCONCLUSIVE);
  calibration_case c = control(&f, 1);
  CHECK_INT(calibration_decide(&c, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "too noisy: measured on expected cost over the burns is 0.10 (97.5 % CI "
                          "-0.05 to 0.25)");
  CHECK_STR_CONTAINS(why, "More blocks would tell");
  c.status = -2;
  CHECK_INT(calibration_decide(&c, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "too few trials");
  c.status = 0;
  c.fitted = 0;
  CHECK_INT(calibration_decide(&c, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "no burn of known cost");
}

/* The expected cost against values worked by hand from the fair-share model (calibration.h). */
static void expected_cost_per_benchmark_kind(void) {
  static const struct {
    double duty;
    long burners;
    int cpus;
    long threads;
    double low, high;
  } cases[] = {
      /* One benchmark thread, 2 CPUs. Six burners at 100 %: share 2/7, spinning all the period,
         cost 1 - 2/7 = 5/7 (burn:100%/count=6 measured -75.1 % on this 2-CPU machine). */
      {100, 6, 2, 1, 100 * 5.0 / 7, 100 * 5.0 / 7},
      /* The same burners having achieved 32.79 % each (6 of them on 2 CPUs): still all the
         period, since 0.3279 > 2/7. */
      {32.79, 6, 2, 1, 100 * 5.0 / 7, 100 * 5.0 / 7},
      /* Two burners (one per CPU): share 2/3; at 100 % cost 1/3; at 50 % they spin 0.5 / (2/3)
         = 3/4 of the period, cost 3/4 x 1/3 = 1/4; at 10 %, 0.15 x 1/3 = 5 %. */
      {100, 2, 2, 1, 100.0 / 3, 100.0 / 3},
      {50, 2, 2, 1, 25, 25},
      {10, 2, 2, 1, 5, 5},
      /* One burner per CPU costs duty / CPUs: 10 % on 4 CPUs, 2.5 %. */
      {10, 4, 4, 1, 2.5, 2.5},
      /* Fewer burners than CPUs: the benchmark keeps a CPU of its own. */
      {10, 1, 4, 1, 0, 0},
      {100, 2, 4, 2, 0, 0},
      /* A benchmark thread per CPU beside a burner per CPU: share 1/2 of 1, the burners spin
         0.1 / 0.5 of the period, cost 0.2 x 1/2 = the duty; at 100 %, a half. */
      {10, 4, 4, 4, 10, 10},
      {100, 4, 4, 4, 50, 50},
      /* One burner beside four benchmark threads on 4 CPUs: share 4/5, spin 0.125, cost
         0.125 x 1/5 = 2.5 %. */
      {10, 1, 4, 4, 2.5, 2.5},
      /* Threads not known: from one thread (2.5 %) to one per CPU (10 %). */
      {10, 4, 4, 0, 2.5, 10},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    double low, high;
    calibration_expected(cases[i].duty, cases[i].burners, cases[i].cpus, cases[i].threads, &low,
                         &high);
    fprintf(stderr, "  duty %g, %ld burners, %d CPUs, %ld threads: %g to %g\n", cases[i].duty,
            cases[i].burners, cases[i].cpus, cases[i].threads, low, high);
    CHECK(fabs(low - cases[i].low) < 1e-9 && fabs(high - cases[i].high) < 1e-9);
  }

  static const struct {
    const char *bench;
    calibration_threads threads;
  } benches[] = {
      {"builtin-st", CALIBRATION_SINGLE},   {"builtin-mt", CALIBRATION_MULTI},
      {"builtin-mt:1", CALIBRATION_SINGLE}, {"builtin-mt:16", CALIBRATION_MULTI},
      {"7zip", CALIBRATION_MULTI},          {"7zip:1", CALIBRATION_SINGLE},
      {"7zip:4", CALIBRATION_MULTI},        {"cpuz", CALIBRATION_MULTI},
      {"cpuz:single", CALIBRATION_SINGLE},  {"cpuz:multi", CALIBRATION_MULTI},
      {"command", CALIBRATION_UNKNOWN},     {"cpuz-single", CALIBRATION_UNKNOWN},
      {"builtin-stx", CALIBRATION_UNKNOWN}, {"7zipper", CALIBRATION_UNKNOWN},
  };
  for (size_t i = 0; i < sizeof benches / sizeof benches[0]; i++) {
    fprintf(stderr, "  %s\n", benches[i].bench);
    CHECK_INT(calibration_bench_threads(benches[i].bench), benches[i].threads);
  }
  static const struct {
    const char *bench;
    long threads;
  } counts[] = {{"builtin-st", 1}, {"builtin-mt:1", 1}, {"builtin-mt", 6}, {"builtin-mt:16", 16},
                {"7zip", 6},       {"7zip:3", 3},       {"cpuz:multi", 6}, {"cpuz:single", 1},
                {"command", 0},    {"builtin-stx", 0}};
  for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
    CHECK_INT(calibration_bench_thread_count(counts[i].bench, 6), counts[i].threads);
}

/* Burners that took what an idle machine gives them count at their achieved duty; starved ones
   (a busy machine, a CPU quota) at the asked duty on the CPUs the run had. */
static void starved_burners_are_worked_on_the_cpus_the_run_had(void) {
  double duty, cpus, low, high;
  calibration_control got = {1, 50, 2, 47};
  calibration_duty_and_cpus(&got, 2, &duty, &cpus);
  CHECK(duty == 47 && cpus == 2);
  /* Six burners on 2 CPUs get a third of a CPU each at most: 32.79 % is not starved. */
  calibration_control six = {1, 100, 6, 32.79};
  calibration_duty_and_cpus(&six, 2, &duty, &cpus);
  CHECK(duty == 32.79 && cpus == 2);
  /* Measured on this 2-CPU machine at load average 45: burn:100% took 7.21 % a burner, so the
     run had 2 x 0.0721 = 0.1442 CPU; one benchmark thread then keeps 0.1442 / 3 of its 0.1442:
     the burn costs 2/3, and burn:10% (4.52 %, spinning the whole period) the same. */
  calibration_control starved = {1, 100, 2, 7.21};
  calibration_duty_and_cpus(&starved, 2, &duty, &cpus);
  CHECK(duty == 100 && fabs(cpus - 0.1442) < 1e-12);
  calibration_expected(duty, 2, cpus, 1, &low, &high);
  CHECK(fabs(high - 200.0 / 3) < 1e-9);
  calibration_control ten = {1, 10, 2, 4.52};
  calibration_duty_and_cpus(&ten, 2, &duty, &cpus);
  CHECK(duty == 10 && fabs(cpus - 0.0904) < 1e-12);
  calibration_expected(duty, 2, cpus, 1, &low, &high);
  CHECK(fabs(high - 200.0 / 3) < 1e-9);
  /* Not recorded: the asked duty on the logical CPUs. */
  calibration_control none = {1, 10, 2, NAN};
  calibration_duty_and_cpus(&none, 2, &duty, &cpus);
  CHECK(duty == 10 && cpus == 2);
}

/* ---- a run in memory: the calibrate preset's conditions and scores ------------------------- */

#define RUN_CONDITIONS 6
#define RUN_BENCHES 2

/* The calibrate preset on a 4-CPU machine plus a burn of one burner (a range, not in the slope)
   and a sleeper (not a control), with builtin-st and builtin-mt; scores filled by fill_run. */
typedef struct memory_run {
  report_data *r;
  double values[RUN_BENCHES][RUN_CONDITIONS][SIM_MAX_BLOCKS];
  int blocks[SIM_MAX_BLOCKS];
} memory_run;

static const char *const run_conditions[RUN_CONDITIONS] = {
    "baseline", "burn:25%", "burn:50%", "burn:100%", "baseline-b", "burn:100%/count=1"};

static memory_run *memory_run_new(void) {
  memory_run *m = calloc(1, sizeof *m);
  if (!m || !(m->r = calloc(1, sizeof *m->r))) {
    free(m);
    return NULL;
  }
  report_data *r = m->r;
  r->have_run = 1;
  r->run.logical_cpus = 4;
  r->condition_count = RUN_CONDITIONS;
  for (int c = 0; c < RUN_CONDITIONS; c++)
    snprintf(r->conditions[c], sizeof r->conditions[c], "%s", run_conditions[c]);
  r->bench_count = RUN_BENCHES;
  snprintf(r->benches[0], sizeof r->benches[0], "builtin-st");
  snprintf(r->benches[1], sizeof r->benches[1], "builtin-mt");
  for (int k = 0; k < SIM_MAX_BLOCKS; k++)
    m->blocks[k] = k + 1;
  for (int b = 0; b < RUN_BENCHES; b++)
    for (int c = 0; c < RUN_CONDITIONS; c++)
      r->lists[b][c] = (report_score_list){
          .values = m->values[b][c], .blocks = m->blocks, .n = 0, .cap = SIM_MAX_BLOCKS};
  return m;
}

static void memory_run_free(memory_run *m) {
  if (m)
    free(m->r);
  free(m);
}

/* What a run's burn condition c should cost benchmark b in %: the model's cost at the asked duty
   (run_burners burners each) on the memory run's 4 CPUs. */
static const long run_burners[RUN_CONDITIONS] = {0, 4, 4, 4, 0, 1};

static double run_expected(int b, int c) {
  if (run_burners[c] == 0)
    return 0;
  double low, high;
  calibration_expected(atof(run_conditions[c] + 5), run_burners[c], 4,
                       calibration_bench_thread_count(b ? "builtin-mt" : "builtin-st", 4), &low,
                       &high);
  return high;
}

/* One simulated run of `blocks` blocks: each burn costs `scale` times what it should
   (run_expected), the A/A pair nothing, lognormal noise of cv with block effects (sim.h). */
static void fill_run(memory_run *m, sim_rng *rng, double scale, double cv, size_t blocks,
                     int benches) {
  static sim_scores s;
  sim_scores_init(&s);
  for (int b = 0; b < benches; b++) {
    double effect[RUN_CONDITIONS - 1];
    for (int c = 1; c < RUN_CONDITIONS; c++)
      effect[c - 1] = scale * log1p(-run_expected(b, c) / 100);
    sim_design d = {RUN_CONDITIONS - 1, blocks, cv, 0.54, 0.001, effect};
    sim_run(rng, &d, s.baseline, s.condition);
    for (int c = 0; c < RUN_CONDITIONS; c++) {
      memcpy(m->values[b][c], c ? s.data[c - 1] : s.baseline, blocks * sizeof(double));
      m->r->lists[b][c].n = blocks;
    }
  }
  m->r->bench_count = benches;
}

/* Defined by report/calibration.c; the reports reach it through sections.c's table. */
extern const report_section report_section_calibration;

/* The calibration section of r in one format, prepared without a store (no burner CPU). */
static char *render(const report_data *r, report_format format) {
  return test_render_section(&report_section_calibration, NULL, r, format);
}

/* The calibration section of r in one format, as cal has it. */
static char *render_with(const report_data *r, const report_calibration *cal,
                         report_format format) {
  FILE *f = tmpfile();
  CHECK(f != NULL);
  if (!f)
    return NULL;
  report_section_calibration.write[format](r, cal, f);
  return test_read_back(f);
}

/* A memory run of 8 blocks whose burns cost what they should (lognormal noise of cv, `benches`
   benchmarks, from *rng), and room for its calibration in *cal; NULL without memory. */
static memory_run *judged_run(sim_rng *rng, double cv, int benches, report_calibration **cal) {
  memory_run *m = memory_run_new();
  *cal = malloc(sizeof **cal);
  if (!m || !*cal) {
    memory_run_free(m);
    free(*cal);
    return NULL;
  }
  fill_run(m, rng, 1, cv, 8, benches);
  return m;
}

static void a_run_is_judged_from_its_scores(void) {
  report_calibration *cal;
  sim_rng rng = sim_seed(0xca11);
  memory_run *m = judged_run(&rng, 0.02, 2, &cal);
  REQUIRE(m);
  double cpu[RUN_CONDITIONS] = {NAN, 100.4, NAN, 396, NAN, 96};
  CHECK_INT(report_calibration_of(m->r, cpu, cal), 4);
  CHECK_INT(cal->logical_cpus, 4);
  CHECK_INT(cal->cpus_from_run, 1);
  CHECK_INT(cal->aa_count, 1);
  CHECK_INT(cal->aa[0], 4);
  CHECK(fabs(cal->confidence - 0.975) < 1e-12); /* the slope and one A/A pair share 5 % */
  /* Without a count, one burner per CPU of the run's machine, not this one's; the CPU they took
     over the burners (burn:50% recorded none: its asked duty stands in). */
  CHECK_INT(cal->controls[0].burners, 4);
  CHECK_INT(cal->controls[3].burners, 1);
  CHECK(fabs(cal->controls[0].achieved_percent - 25.1) < 1e-12);
  CHECK(isnan(cal->controls[1].achieved_percent));
  CHECK(fabs(cal->controls[2].achieved_percent - 99) < 1e-12);
  CHECK_INT(cal->nominal, 1);
  const calibration_bench *st = &cal->benches[0], *mt = &cal->benches[1];
  CHECK_INT(st->threads, CALIBRATION_SINGLE);
  CHECK_INT(mt->threads, CALIBRATION_MULTI);
  CHECK(st->burns[0].fitted && st->burns[1].fitted && st->burns[2].fitted);
  /* A burner per CPU costs one benchmark thread the achieved duty over the CPUs (25.1 / 4, the
     asked 50 / 4), or a fifth (1 - 4/5) when it spins the whole period... */
  CHECK(fabs(st->burns[0].expected_far - 6.275) < 1e-12);
  CHECK(fabs(st->burns[1].expected_far - 12.5) < 1e-12);
  CHECK(fabs(st->burns[2].expected_far - 20) < 1e-12);
  /* ... and one burner of four nothing: the benchmark has a CPU to itself (not in the slope),
     while builtin-mt's four threads share with it: 4/5 of a CPU each, the whole period. */
  CHECK(!st->burns[3].fitted && st->burns[3].expected_near == 0 && st->burns[3].expected_far == 0);
  CHECK(mt->burns[3].fitted && fabs(mt->burns[3].expected_far - 20) < 1e-12);
  CHECK_INT(mt->fit.n, 4);
  CHECK_INT(st->largest, 2);
  CHECK_INT(st->fit.n, 3);
  CHECK_INT((int)st->blocks_used, 8);
  CHECK(st->burns[2].low < 20 && st->burns[2].high > 20);
  CHECK(st->aa[0].low < 0 && st->aa[0].high > 0);
  CHECK_INT(st->passed, 1);
  CHECK_INT(mt->passed, 1);
  CHECK_INT(cal->all_passed, 1);

  char *text = render_with(m->r, cal, REPORT_FORMAT_TEXT);
  CHECK_STR_CONTAINS(text, "Calibration: PASSED");
  CHECK_STR_CONTAINS(text, "4 logical CPUs of the run's machine");
  CHECK_STR_CONTAINS(text, "the burners' CPU was not recorded for 1 burn: the asked duty");
  CHECK_STR_CONTAINS(text, "builtin-st (single-thread; 8 complete blocks)");
  CHECK_STR_CONTAINS(text, "burners  burner CPU   expected cost  measured  97.5 % CI");
  CHECK_STR_CONTAINS(text, "burn:100% (largest)");
  CHECK_STR_CONTAINS(text, "99.00 %         20.00 %"); /* burner CPU beside the expected cost */
  CHECK_STR_CONTAINS(text, "96.00 %         20.00 %"); /* burn:100%/count=1 beside builtin-mt */
  CHECK_STR_CONTAINS(text, "baseline-b (A/A)");
  CHECK_STR_CONTAINS(text, "measured on expected cost over the burns: ");
  CHECK_STR_CONTAINS(text, "  PASSED: burn:100% cost ");
  CHECK(strstr(text, " than expected: ") == NULL); /* every burn's interval covers its cost */
  free(text);
  char *json = render_with(m->r, cal, REPORT_FORMAT_JSON);
  CHECK_STR_CONTAINS(json, ",\n\"calibration\":{\"logical_cpus\":4,\"logical_cpus_from\":\"run\","
                           "\"verdict\":\"passed\",\"confidence\":0.975,"
                           "\"check_confidence\":0.9875,\"burns_at_asked_duty\":1");
  CHECK_STR_CONTAINS(json, "\"role\":\"largest burn\",\"duty_percent\":100,\"burners\":4,"
                           "\"burner_cpu_percent\":99,\"expected_cost_percent\":[20,20],"
                           "\"measured_cost_percent\":[");
  CHECK_STR_CONTAINS(json, "\"role\":\"a/a\",\"expected_cost_percent\":[0,0]");
  CHECK_STR_CONTAINS(json, "\"slope\":[");
  free(json);
  char *csv = render_with(m->r, cal, REPORT_FORMAT_CSV);
  CHECK_STR_CONTAINS(csv, "\ncalibration_bench,condition,role,burners,duty_percent,"
                          "burner_cpu_percent,expected_cost_low_percent");
  CHECK_STR_CONTAINS(csv, "\nbuiltin-st,burn:100%,largest burn,4,100,99,20,20,");
  CHECK_STR_CONTAINS(csv, "\nbuiltin-mt,baseline-b,a/a,,,,0,0,");
  free(csv);
  char *html = render_with(m->r, cal, REPORT_FORMAT_HTML);
  CHECK_STR_CONTAINS(html, "<h2>Calibration: <span class=\"verdict faster\">PASSED</span></h2>");
  CHECK_STR_CONTAINS(html, "<th>expected cost</th><th>measured cost</th><th>97.5 % CI</th>");
  free(html);

  /* Burns that cost a fifth: each benchmark fails and says so, and so the run. */
  fill_run(m, &rng, 0.2, 0.02, 8, 2);
  CHECK_INT(report_calibration_of(m->r, cpu, cal), 4);
  CHECK_INT(cal->all_passed, 0);
  for (int b = 0; b < 2; b++) {
    CHECK_INT(cal->benches[b].passed, 0);
    CHECK_STR_CONTAINS(cal->benches[b].why, "shielded from other CPU use");
  }
  text = render_with(m->r, cal, REPORT_FORMAT_TEXT);
  CHECK_STR_CONTAINS(text, "Calibration: FAILED");
  free(text);
  free(cal);
  memory_run_free(m);
}

/* A burn whose interval lies wholly off its expected cost is named under the verdict, whatever
   the verdict: burn:25% made to cost nothing (its scores the baseline's, scaled by 1.0001) and
   burn:50% to cost twice what it should; the others lie within. CSV and JSON say it per row. */
static void a_burn_off_its_expected_cost_is_named(void) {
  report_calibration *cal;
  sim_rng rng = sim_seed(0xca12);
  memory_run *m = judged_run(&rng, 0.01, 1, &cal);
  REQUIRE(m);
  double twice = 1 - 2 * run_expected(0, 2) / 100;
  for (int k = 0; k < 8; k++) {
    m->values[0][1][k] = m->values[0][0][k] * 1.0001;
    m->values[0][2][k] = m->values[0][0][k] * twice;
  }
  double cpu[RUN_CONDITIONS] = {NAN, 100.4, 200, 396, NAN, 96};
  CHECK_INT(report_calibration_of(m->r, cpu, cal), 4);
  const calibration_bench *st = &cal->benches[0];
  CHECK(st->burns[0].high < st->burns[0].expected_near);
  CHECK(st->burns[1].low > st->burns[1].expected_far);
  CHECK(st->burns[2].low < st->burns[2].expected_far &&
        st->burns[2].high > st->burns[2].expected_far);
  char *text = render_with(m->r, cal, REPORT_FORMAT_TEXT);
  CHECK(fabs(cal->check_confidence - (1 - 0.05 / 4)) < 1e-12); /* 95 % over the 4 burns */
  CHECK_STR_CONTAINS(text, "\n  burn:25% cost less than expected: 98.75 % CI ");
  CHECK_STR_CONTAINS(text, "(its burners may have run on a CPU of their own, away from the "
                           "benchmark's; the expected cost assumes a fair share of every CPU)\n");
  CHECK_STR_CONTAINS(text, "\n  burn:50% cost more than expected: 98.75 % CI ");
  CHECK_STR_CONTAINS(text, "(something besides the burners' CPU time slowed the benchmark");
  CHECK(strstr(text, "burn:100% cost less than") == NULL &&
        strstr(text, "burn:100% cost more than") == NULL);
  free(text);
  char *csv = render_with(m->r, cal, REPORT_FORMAT_CSV);
  CHECK_STR_CONTAINS(csv, ",slope_ci_high,verdict,against_expected,check_ci_low_percent,"
                          "check_ci_high_percent,check_confidence\n");
  CHECK_STR_CONTAINS(csv, ",less,");
  CHECK_STR_CONTAINS(csv, ",0.9875\nbuiltin-st,burn:50%,burn,");
  CHECK_STR_CONTAINS(csv, ",more,");
  CHECK_STR_CONTAINS(csv, ",within,");
  CHECK_STR_CONTAINS(csv, ",0.9875\nbuiltin-st,baseline-b,a/a,");
  CHECK_STR_CONTAINS(csv, ",,,,\n"); /* the A/A pair: no check */
  free(csv);
  char *json = render_with(m->r, cal, REPORT_FORMAT_JSON);
  CHECK_STR_CONTAINS(json, "{\"condition\":\"burn:25%\",\"role\":\"burn\"");
  CHECK_STR_CONTAINS(json, "\"check_confidence\":0.9875,");
  CHECK_STR_CONTAINS(json, "],\"against_expected\":\"less\",\"check_ci\":[");
  CHECK_STR_CONTAINS(json, "],\"against_expected\":\"more\",\"check_ci\":[");
  CHECK_STR_CONTAINS(json, "],\"against_expected\":\"within\",\"check_ci\":[");
  free(json);
  char *html = render_with(m->r, cal, REPORT_FORMAT_HTML);
  CHECK_STR_CONTAINS(html, "<p class=\"note\">burn:25% cost less than expected: ");
  free(html);
  free(cal);
  memory_run_free(m);
}

static void no_burn_no_section(void) {
  memory_run *m = memory_run_new();
  REQUIRE(m);
  sim_rng rng = sim_seed(0xca12);
  fill_run(m, &rng, 1, 0.02, 8, 1);
  m->r->condition_count = 2;
  snprintf(m->r->conditions[1], sizeof m->r->conditions[1], "sleep:100@500ms");
  report_calibration *cal = malloc(sizeof *cal);
  REQUIRE(cal);
  CHECK_INT(report_calibration_of(m->r, NULL, cal), 0);
  for (int f = 0; f < REPORT_FORMAT_COUNT; f++) {
    char *out = render(m->r, (report_format)f);
    CHECK(out && out[0] == '\0');
    free(out);
  }
  /* burn mixed with other load is not a control: its cost is not known. */
  m->r->condition_count = 3;
  snprintf(m->r->conditions[2], sizeof m->r->conditions[2], "burn:10%%@10ms+sleep:10@500ms");
  CHECK_INT(report_calibration_of(m->r, NULL, cal), 0);
  free(cal);
  memory_run_free(m);
}

/* ---- stored runs ------------------------------------------------------------------------------
 */

/* A calibrate run of 8 blocks stored on a 6-CPU machine (whatever this one has), each burn's
   trials recording their burners' CPU (6 x N %, the % of one CPU they took) when `record_cpu`,
   scores 100 x (1 - scale E / 100) for a burn expected to cost E % with seeded noise of cv; its
   report in text, and the calibration. */
static char *stored_calibrate(double scale, double cv, int record_cpu, report_calibration *cal) {
  remove("test_calibration.db");
  store *db;
  ts_err err;
  if (store_open(&db, "test_calibration.db", &err) != TS_OK)
    return NULL;
  store_run_info info = {"calibrate",
                         "name = calibrate\n",
                         1,
                         "2026-01-01T00:00:00.000Z",
                         "host",
                         "Linux",
                         "cpu",
                         6,
                         "1.0",
                         NULL,
                         0};
  const char *conds[5] = {"baseline", "burn:25%", "burn:50%", "burn:100%", "baseline-b"};
  const double duty[5] = {0, 25, 50, 100, 0};
  store_trial_plan trials[5 * 8];
  int n = 0;
  for (int rep = 1; rep <= 8; rep++)
    for (int c = 0; c < 5; c++)
      trials[n] = (store_trial_plan){n + 1, rep, conds[c], "builtin-st", 0}, n++;
  int64_t run_id;
  char *text = NULL;
  if (store_run_begin(db, &info, trials, n, &run_id, &err) == TS_OK) {
    sim_rng rng = sim_seed(0x5eed);
    for (int i = 0; i < n; i++) {
      int c = i % 5;
      double low = 0, high = 0;
      if (duty[c] > 0)
        calibration_expected(duty[c], 6, 6, 1, &low, &high);
      double score = 100 * (1 - scale * high / 100) * exp(cv * sim_normal(&rng));
      store_metric cpu = {"load.cpu_percent", 6 * duty[c]};
      CHECK_INT(test_finish_trial(db, trials[i].id, score, record_cpu && duty[c] > 0, &cpu, &err),
                TS_OK);
    }
    text = test_render_report(db, run_id, REPORT_FORMAT_TEXT);
    report_data *r = NULL;
    CHECK_INT(report_data_load(db, run_id, NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &r, &err),
              TS_OK);
    double cpu[REPORT_MAX_CONDITIONS];
    for (int c = 0; r && c < r->condition_count; c++)
      cpu[c] = store_condition_metric_mean(db, run_id, r->conditions[c], "load.cpu_percent");
    if (r)
      CHECK_INT(report_calibration_of(r, cpu, cal), 3);
    report_data_free(r);
  }
  store_close(db);
  return text;
}

static void a_shielded_machine_fails_with_the_reason(void) {
  report_calibration *cal = malloc(sizeof *cal);
  REQUIRE(cal);
  /* burn:N% costs N / 5 %: the benchmark sees a fifth of the burners' CPU. */
  char *text = stored_calibrate(0.2, 0.002, 1, cal);
  REQUIRE(text);
  CHECK_INT(cal->all_passed, 0);
  CHECK_INT(cal->nominal, 0);
  CHECK_INT(cal->benches[0].fit.verdict, CALIB_COSTS_LESS);
  CHECK_STR_CONTAINS(text, "Calibration: FAILED (the positive control: burners of known cost, on "
                           "6 logical CPUs of the run's machine)");
  CHECK_STR_CONTAINS(text, "burn:100% (largest)                  6     99.00 %         14.29 %");
  CHECK_STR_CONTAINS(text, "FAILED: burn:100% cost 2.76 % (97.5 % CI 2.51 to 3.00 %)");
  CHECK_STR_CONTAINS(text, "where 14.29 % was expected: the control cost a fifth of what it "
                           "should");
  CHECK_STR_CONTAINS(text, "the benchmark is shielded from other CPU use (another core, a "
                           "priority, power management)");
  printf("%s", strstr(text, "\nCalibration"));
  free(text);
  free(cal);
}

static void a_correct_machine_passes(void) {
  report_calibration *cal = malloc(sizeof *cal);
  REQUIRE(cal);
  char *text = stored_calibrate(1, 0.04, 1, cal);
  REQUIRE(text);
  CHECK_INT(cal->all_passed, 1);
  CHECK_STR_CONTAINS(text, "Calibration: PASSED");
  CHECK_STR_CONTAINS(text, "PASSED: burn:100% cost ");
  CHECK_STR_CONTAINS(text, "and the A/A pair did not differ");
  CHECK(!strstr(text, "CPU was not recorded"));
  printf("%s", strstr(text, "\nCalibration"));
  free(text);
  /* A run that recorded no burner CPU: the asked duty stands in, and the report says so. */
  text = stored_calibrate(1, 0.04, 0, cal);
  REQUIRE(text);
  CHECK_INT(cal->nominal, 3);
  CHECK_INT(cal->all_passed, 1);
  CHECK_STR_CONTAINS(text, "the burners' CPU was not recorded for 3 burns: the asked duty stands "
                           "in for what they took");
  free(text);
  free(cal);
}

/* ---- simulated calibrate runs through this code -------------------------------------------- */

/* The share of simulated runs (the calibrate preset: 8 blocks, builtin-st) that FAIL when the
   burns cost `scale` times their duty. */
static double failed_rate(uint64_t seed, double scale, double cv, long runs) {
  memory_run *m = memory_run_new();
  report_calibration *cal = malloc(sizeof *cal);
  if (!m || !cal) {
    CHECK(!"no memory");
    memory_run_free(m);
    free(cal);
    return NAN;
  }
  m->r->condition_count = 5; /* the preset's conditions */
  sim_rng rng = sim_seed(seed);
  long failed = 0, called_off = 0;
  for (long i = 0; i < runs; i++) {
    fill_run(m, &rng, scale, cv, 8, 1);
    report_calibration_of(m->r, NULL, cal);
    failed += !cal->all_passed;
    int off = 0;
    for (int k = 0; k < cal->control_count; k++) {
      const calibration_cost *c = &cal->benches[0].burns[k];
      off |= c->check_high < c->expected_near || c->check_low > c->expected_far;
    }
    called_off += off;
  }
  char what[96];
  snprintf(what, sizeof what, "calibrate, burns cost x%.2g, cv %.0f %%: FAILED", scale, 100 * cv);
  double rate = sim_report(what, failed, runs);
  snprintf(what, sizeof what, "calibrate, burns cost x%.2g, cv %.0f %%: a burn called off", scale,
           100 * cv);
  double off_rate = sim_report(what, called_off, runs);
  /* Where the burns cost what the model says, a burn is called off its cost in at most 5 % of
     runs (the check's 95 % is split among the burns). */
  if (scale == 1)
    CHECK(off_rate <= 0.05);
  free(cal);
  memory_run_free(m);
  return rate;
}

static void false_failures_are_rare_and_a_shielded_machine_is_caught(void) {
  CHECK(failed_rate(0xc0a1, 1, 0.03, 3000) <= 0.05);
  CHECK(failed_rate(0xc0a2, 1, 0.06, 3000) <= 0.05);
  CHECK(failed_rate(0xc0a3, 0.2, 0.03, 2000) >= 0.90);
  CHECK(failed_rate(0xc0a4, 0.2, 0.06, 2000) >= 0.90);
}

int main(void) {
  RUN_CASE(passed_when_the_burns_cost_what_they_should);
  RUN_CASE(failed_when_aa_differs);
  RUN_CASE(a_shielded_control_fails_and_says_by_how_much);
  RUN_CASE(too_noisy_or_too_few_is_not_a_pass);
  RUN_CASE(expected_cost_per_benchmark_kind);
  RUN_CASE(starved_burners_are_worked_on_the_cpus_the_run_had);
  RUN_CASE(a_run_is_judged_from_its_scores);
  RUN_CASE(a_burn_off_its_expected_cost_is_named);
  RUN_CASE(no_burn_no_section);
  RUN_CASE(a_shielded_machine_fails_with_the_reason);
  RUN_CASE(a_correct_machine_passes);
  RUN_CASE(false_failures_are_rare_and_a_shielded_machine_is_caught);
  return check_summary();
}
