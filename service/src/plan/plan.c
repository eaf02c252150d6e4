/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* plan.c - reads experiment plans (presets, plan files, command-line settings, stored runs) in one
   "key = value" text format through one table of typed settings, refusing bad input before
   anything runs. */
#include "plan.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/bench.h"
#include "../engine/freeze.h"
#include "threadsoup/buf.h"
#include "threadsoup/parse.h"
#include "threadsoup/plat.h"
#include "threadsoup/utf8.h"
#include "threadsoup/units.h"

/* ---- presets: plan text, read by the same parser as files ------------------------------------ */

typedef struct plan_preset_def {
  const char *name;
  const char *help;
  const char *text;
} plan_preset_def;

static const plan_preset_def plan_presets[] = {
    /* Dimensioned on a 2-core VM (docs/methodology.md, "Measured on the machine this is built
       on"): a short settle, and the benchmark runs per load start chosen by the machine's own
       history (iterations = auto, stats/dimension.h). Busy, much of the benchmark's noise
       changed only from one load start to the next and one run per trial gave the narrowest
       intervals; idle, the runs' own spread was most of it and two runs per trial did. The
       settle is 0.1 s: the load's figures span the benchmark and the gate's quiet carries over
       from the trial before, so neither needs a longer one, and the 15,000 sleepers' effect
       came out the same as after 0.5 s (docs/methodology.md, "A settle of 0.1 s"). A busy
       machine's gate gives up after two timeouts: 2 s each, not 5. */
    {"quick",
     "baseline and 1,500 / 5,000 / 15,000 threads sleeping 0.5 s; builtin-st; as many blocks "
     "as fit in 80 s, at least 5 (about a minute and a half)",
     "conditions = baseline, sleep:1500@500ms, sleep:5000@500ms, sleep:15000@500ms\n"
     "bench = builtin-st\nreps = 80s\nwarmup = 1\nsettle = 100ms\niterations = auto\n"
     "quiet-cpu = 25%\nquiet-timeout = 2s\n"},
    {"seed",
     "the original experiment: baseline and 1,500 / 5,000 / 15,000 sleepers at 0.5 s (plain "
     "sleep: default timer resolution); "
     "builtin-st, builtin-mt and 7-Zip with 4 threads; 10 blocks",
     "conditions = baseline, sleep:1500@500ms, sleep:5000@500ms, sleep:15000@500ms\n"
     "bench = builtin-st, builtin-mt, 7zip:4\nreps = 10\nwarmup = 1\nsettle = 2s\n"
     "quiet-cpu = 10%\nquiet-timeout = 60s\n"},
    {"waiters",
     "threads and processes that wait forever (never woken): 1,500 / 5,000 / 15,000 of each; "
     "builtin-st and builtin-mt; 10 blocks",
     "conditions = baseline, wait:1500:event, wait:5000:event, wait:15000:event, procs:1500, "
     "procs:5000, procs:15000\n"
     "bench = builtin-st, builtin-mt\nreps = 10\nwarmup = 1\nsettle = 2s\nquiet-cpu = 10%\n"
     "quiet-timeout = 60s\n"},
    {"dose",
     "a sweep of sleeper counts from 500 to 30,000 at 0.5 s, to find the knee; builtin-st; "
     "8 blocks",
     "conditions = baseline, sleep:500@500ms, sleep:1000@500ms, sleep:2000@500ms, "
     "sleep:5000@500ms, sleep:10000@500ms, sleep:15000@500ms, sleep:20000@500ms, "
     "sleep:30000@500ms\n"
     "bench = builtin-st\nreps = 8\nwarmup = 1\nsettle = 2s\nquiet-cpu = 10%\n"
     "quiet-timeout = 60s\n"},
    {"aa",
     "baseline against baseline: this machine's noise floor; builtin-st; blocks are added until "
     "the difference is known to within 1.5 % (30 minutes at most)",
     "conditions = baseline, baseline-b\nbench = builtin-st\nreps = 10\nwarmup = 1\nsettle = 1s\n"
     "quiet-cpu = 10%\nquiet-timeout = 30s\nmargin = 2%\nprecision = 1.5%\nbudget = 30m\n"},
    /* Thread count and wake-up rate varied apart, so the cost model (report/cost.c) can tell
       which one costs: three conditions at 3,000 wake-ups/s with 150, 1,500 and 15,000 threads;
       15,000 threads at 0, 3,000 and 30,000 wake-ups/s; 1,500 threads at 300 and 3,000. The
       settle is one 5 s interval, so every sleeper has woken once before the benchmark. */
    {"cost",
     "idle threads: does their number cost, or their wake-ups? 150 to 15,000 threads at 0 to "
     "30,000 wake-ups/s, varied apart; builtin-st; 10 blocks",
     "conditions = baseline, sleep:15000@5s, sleep:1500@500ms, sleep:150@50ms, "
     "sleep:15000@500ms, wait:15000, sleep:1500@5s\n"
     "bench = builtin-st\nreps = 10\nwarmup = 1\nsettle = 5s\nquiet-cpu = 10%\n"
     "quiet-timeout = 60s\n"},
    /* Each of the programs that wake most frozen alone and all of them together, chosen from a
       census as the run starts (plan_expand_background). No quiet gate: the programs it would
       wait for are what is measured. */
    {"background",
     "what do my background programs cost? baseline, each of the 5 programs that wake most "
     "(a 2 s census at the start) frozen alone, and all of them together; builtin-st; 5 blocks",
     "conditions = baseline, freeze:background\nbench = builtin-st\nreps = 5\nwarmup = 1\n"
     "settle = 1s\nquiet-cpu = off\n"},
    {"calibrate",
     "a positive control: can this machine and run see a known cost? baseline, burners taking "
     "25 / 50 / 100 % of every CPU, and a second baseline (A/A); builtin-st; 8 blocks; the "
     "report's "
     "Calibration says passed or failed, and why",
     "conditions = baseline, burn:25%, burn:50%, burn:100%, baseline-b\nbench = builtin-st\n"
     "reps = 8\nwarmup = 1\nsettle = 1s\nquiet-cpu = 10%\nquiet-timeout = 30s\n"},
};
#define PRESET_COUNT (sizeof plan_presets / sizeof plan_presets[0])

const char *plan_default_preset(void) { return plan_presets[0].name; }

int plan_block_in_range(long block) { return block >= 0 && block <= PLAN_MAX_REPS; }

int plan_block_refuse(int64_t run_id, int64_t trial_id, long block, ts_err *err) {
  return ts_err_set(err, TS_EFOREIGN_DB,
                    "trial %lld of run %lld is stored in block %ld; ThreadSoup numbers a run's "
                    "blocks 0 (warm-ups) to %d: the database holds data no run wrote",
                    (long long)trial_id, (long long)run_id, block, PLAN_MAX_REPS);
}

int plan_is_preset(const char *name) {
  for (size_t i = 0; i < PRESET_COUNT; i++)
    if (strcmp(plan_presets[i].name, name) == 0)
      return 1;
  return 0;
}

const char *plan_preset_name(size_t i) { return i < PRESET_COUNT ? plan_presets[i].name : NULL; }

void plan_preset_help(char *buf, size_t len) {
  ts_buf help = ts_buf_on(buf, len);
  for (size_t i = 0; i < PRESET_COUNT; i++)
    ts_buf_addf(&help, "  %-9s %s\n", plan_presets[i].name, plan_presets[i].help);
}

/* ---- settings: one row each, read by one setter and one formatter per kind ------------------- */

typedef enum setting_kind {
  KIND_NAME,       /* char[]: UTF-8 text without control characters, min to max characters */
  KIND_TEXT,       /* char[]: any text of at most max characters; "" = not given */
  KIND_CONDITIONS, /* the condition list: min to max comma-separated load specs */
  KIND_BENCHES,    /* the benchmark list: min to max comma-separated benchmark specs */
  KIND_WHOLE,      /* long in [min, max]; `word` ("auto"), when given, is stored as 0 */
  KIND_BLOCKS,     /* the blocks: a long in [min, max], or a time to fill with blocks (plan.h's
                      fill_ns, FILL_MIN_NS to FILL_MAX_NS; the long is then PLAN_FILL_MIN_BLOCKS) */
  KIND_DECIMAL,    /* double in [min, max] */
  KIND_PERCENT,    /* double in [min, max], in percent; `word` ("off", "auto") is stored as 0, and
                      `forms` ("default"), when given, as PLAN_PERCENT_DERIVED */
  KIND_DURATION,   /* uint64_t nanoseconds in [min, max] */
  KIND_CHOICE,     /* char[]: one of the "|"-separated words of `value` */
  KIND_ONE_OF,     /* int: the place (from 0) of one of the words of `forms` ("off|on") */
} setting_kind;

typedef struct plan_setting {
  const char *key;
  setting_kind kind;
  size_t at; /* offsetof the field; the two lists have their arrays and counts instead */
  /* Bounds in the kind's unit: the value, nanoseconds, characters or items. Durations up to 104
     days are exact in a double. */
  double min, max;
  const char *word;  /* percent and whole: the word that means 0 */
  const char *dflt;  /* the default as plan text, set through the same setter; NULL: none */
  const char *value; /* what --help calls the value, where the kind's name does not fit */
  const char *forms; /* lists and text: what an item or the text is; choices: the words; percent:
                        the word of a value derived from other settings */
  const char *help;  /* what the setting means */
} plan_setting;

/* The offset of a plan field that must have type T: a row whose kind does not match its field's
   type does not compile. */
#define AT(field, T) _Generic(((plan *)0)->field, T : offsetof(plan, field))
/* The longest text a char array field holds, so the bound follows the field. */
#define CHARS(field) ((double)(sizeof((plan *)0)->field - 1))

/* A time to fill with blocks ("reps = 80s"): from one that fits a few blocks of a small plan to
   a week, as budget allows. */
#define FILL_MIN_NS (10 * TS_NS_PER_S)
#define FILL_MAX_NS (7 * TS_NS_PER_DAY)

/* One macro per kind, each row read as (key, field, bounds, default, help). */
#define NAME(key, field, forms, dflt, help)                                                        \
  { key, KIND_NAME, AT(field, char *), 1, CHARS(field), NULL, dflt, NULL, forms, help }
#define TEXT(key, field, value, forms, help)                                                       \
  { key, KIND_TEXT, AT(field, char *), 0, CHARS(field), NULL, NULL, value, forms, help }
#define LIST(key, kind, max, forms, help)                                                          \
  { key, kind, 0, 1, max, NULL, NULL, NULL, forms, help }
#define WHOLE(key, field, min, max, dflt, help)                                                    \
  { key, KIND_WHOLE, AT(field, long), min, max, NULL, dflt, NULL, NULL, help }
#define BLOCKS(key, field, min, max, dflt, help)                                                   \
  { key, KIND_BLOCKS, AT(field, long), min, max, NULL, dflt, NULL, NULL, help }
#define WHOLE_OR(key, field, word, min, max, dflt, help)                                           \
  { key, KIND_WHOLE, AT(field, long), min, max, word, dflt, NULL, NULL, help }
#define DECIMAL(key, field, min, max, dflt, help)                                                  \
  { key, KIND_DECIMAL, AT(field, double), min, max, NULL, dflt, NULL, NULL, help }
#define PERCENT(key, field, word, min, max, dflt, help)                                            \
  { key, KIND_PERCENT, AT(field, double), min, max, word, dflt, NULL, NULL, help }
#define PERCENT_OR_DERIVED(key, field, word, derived, min, max, dflt, help)                        \
  { key, KIND_PERCENT, AT(field, double), min, max, word, dflt, NULL, derived, help }
#define DURATION(key, field, min, max, dflt, help)                                                 \
  { key, KIND_DURATION, AT(field, uint64_t), min, max, NULL, dflt, NULL, NULL, help }
#define ONE_OF(key, field, words, dflt, help)                                                      \
  { key, KIND_ONE_OF, AT(field, int), 0, 0, NULL, dflt, NULL, words, help }

/* The file format, the command line (--KEY), the stored text and --help; plan_format writes the
   settings in this order: these, each benchmark's own settings, then plan_settings_after. */
static const plan_setting plan_settings[] = {
    NAME("name", name, "UTF-8 text without control characters", "custom",
         "the plan's name, stored with the run (a plan file without one is named after the file)"),
    LIST("conditions", KIND_CONDITIONS, PLAN_MAX_CONDITIONS, NULL /* from the scenarios' rows */,
         "the conditions every benchmark runs under"),
    LIST("bench", KIND_BENCHES, PLAN_MAX_BENCHES, NULL /* from bench_table */, "the benchmarks"),
    BLOCKS("reps", reps, 1, PLAN_MAX_REPS, "5",
           "blocks; each runs every condition x benchmark once, in its own random order (with "
           "precision: the blocks before the first check); a time fills it: blocks are added "
           "while the next one is expected to end within it, counted over the run's trials"),
    WHOLE("warmup", warmup, 0, 100, "1",
          "runs of each benchmark before the first block, under the first condition; stored as "
          "block 0, left out of statistics"),
    DURATION("settle", settle_ns, 0, TS_NS_PER_HOUR, "1s",
             "wait after the load starts, before the benchmark; the quiet gate is watched "
             "during it"),
    WHOLE_OR("iterations", iterations, "auto", 1, 8, "auto",
             "benchmark runs per trial under one load start, the trial's score their mean (auto: "
             "chosen after the warm-up from what each count gave in this machine's earlier runs, "
             "the one with the narrowest intervals in the plan's time; while it learns, the "
             "other side of one run per trial is tried; 1 without a warm-up)"),
    DECIMAL("work-scale", work_scale, 0.001, 1000, "1",
            "multiplies the built-in benchmarks' fixed work"),
    PERCENT_OR_DERIVED("precision", precision_pct, "off", "default", 0.01, 50, "off",
                       "adaptive repetitions: after reps blocks, add one block at a time until "
                       "every comparison's 95 % CI half-width is at most this (default: 0.62 x "
                       "the margin, which ends 'no measurable effect' in about 86 % of runs where "
                       "nothing changed; a plan that gives a budget and no precision has the "
                       "default)"),
    DURATION("budget", budget_ns, TS_NS_PER_MIN, 7 * TS_NS_PER_DAY, "1h",
             "time allowed for adaptive repetitions; when it runs out the run says so (given "
             "to a plan without a precision: the default precision)"),
    ONE_OF("stop-when-decided", stop_when_decided, "off|on", "off",
           "after each block from the 3rd, check every comparison against group-sequential "
           "boundaries; when each is decided (an effect, or equivalence within the margin) the "
           "remaining planned blocks are not run"),
    PERCENT("quiet-cpu", quiet_cpu_pct, "off", 1, 100, "off",
            "quiet gate: before each benchmark, wait until CPU use outside ThreadSoup stays under "
            "this for one second, or for the settle where that is shorter but at least 0.5 s "
            "(watched during the settle, and quiet since the benchmark before counts; after two "
            "timeouts in a row the trials stop waiting and record it)"),
    DURATION("quiet-timeout", quiet_timeout_ns, 0, TS_NS_PER_HOUR, "30s",
             "how long the quiet gate waits; then the trial runs and keeps a warning"),
    PERCENT("margin", margin_pct, "auto", 0.1, 50, "auto",
            "the margin of 'no measurable effect' (auto: 1 %)"),
    DURATION("timeout", bench_timeout_ns, TS_NS_PER_S, TS_NS_PER_DAY, "10m",
             "an external benchmark is stopped after this"),
    /* The words' places are quiet mode's parts (quiet.h): 1 Defender, 2 Windows Update, 3 both. */
    ONE_OF("quiet", quiet, "off|defender|updates|on", "off",
           "quiet mode for the run: on = Defender real-time protection off and Windows Update "
           "paused before the first trial, restored after the last; defender or updates = that "
           "part alone (Windows, as an administrator). Each part is done or the run says why not "
           "(Tamper Protection, another antivirus, policy) and goes on"),
};
/* The benchmarks' settings (bench.h) stand between the two tables, in bench_table's order. */
static const plan_setting plan_settings_after[] = {
    TEXT("export-to", export_to, "FOLDER", "a folder",
         "when the run has finished, write its export file (threadsoup export) into this folder, "
         "a local one or a network share, for a collector machine to import"),
};
#define BEFORE_COUNT (sizeof plan_settings / sizeof plan_settings[0])
#define AFTER_COUNT (sizeof plan_settings_after / sizeof plan_settings_after[0])
#define SETTINGS_MAX (BEFORE_COUNT + BENCH_SETTINGS_MAX + AFTER_COUNT)

/* Whether `row` is a row of a benchmark before bench_table[k]: benchmarks may share a row. */
static int listed_before(size_t k, const bench_setting *row) {
  for (size_t o = 0; o < k; o++)
    for (size_t j = 0; j < bench_setting_count(bench_table[o]); j++)
      if (&bench_table[o]->settings[j] == row)
        return 1;
  return 0;
}

/* The i-th word (from 0) of a one-of's `forms` ("off|on") in buf; 0 past the last. */
static int one_of_word(const plan_setting *s, int i, char *buf, size_t len) {
  const char *w = s->forms;
  for (; i > 0 && w; i--) {
    w = strchr(w, '|');
    w = w ? w + 1 : NULL;
  }
  if (!w || i < 0)
    return 0;
  size_t n = strcspn(w, "|");
  snprintf(buf, len, "%.*s", (int)n, w);
  return 1;
}

/* The benchmarks' settings in plan order: *b gets the benchmark of the i-th, *row its place among
   that benchmark's settings; 0 past the last (or past what plan->bench_settings holds). */
static int bench_setting_at(size_t i, const bench_def **b, size_t *row) {
  if (i >= BENCH_SETTINGS_MAX)
    return 0;
  for (size_t k = 0; bench_table[k]; k++) {
    for (size_t j = 0; j < bench_setting_count(bench_table[k]); j++) {
      if (listed_before(k, &bench_table[k]->settings[j]))
        continue; /* a shared row is one setting, at its first benchmark's place */
      if (i-- == 0) {
        *b = bench_table[k];
        *row = j;
        return 1;
      }
    }
  }
  return 0;
}

static size_t bench_settings_total(void) {
  size_t n = 0;
  const bench_def *b;
  size_t row;
  while (bench_setting_at(n, &b, &row))
    n++;
  return n;
}

/* The i-th setting in plan order into *row; NULL past the last. A benchmark's setting is a text
   row on its slot of plan->bench_settings. */
static const plan_setting *setting_at(size_t i, plan_setting *row) {
  if (i < BEFORE_COUNT)
    return &plan_settings[i];
  i -= BEFORE_COUNT;
  const bench_def *b;
  size_t k;
  if (bench_setting_at(i, &b, &k)) {
    const bench_setting *bs = &b->settings[k];
    int choice = bs->kind == BENCH_SETTING_CHOICE;
    *row = (plan_setting){bs->key,
                          choice ? KIND_CHOICE : KIND_TEXT,
                          offsetof(plan, bench_settings) + i * BENCH_SETTING_MAX,
                          0,
                          BENCH_SETTING_MAX - 1,
                          NULL,
                          choice ? bs->dflt : NULL,
                          choice ? bs->choices : bench_setting_value_name(bs->kind),
                          bench_setting_forms(bs->kind),
                          bs->help};
    return row;
  }
  i -= bench_settings_total();
  return i < AFTER_COUNT ? &plan_settings_after[i] : NULL;
}

#define FIELD(p, s, type) ((type *)(void *)((char *)(p) + (s)->at))
#define CFIELD(p, s, type) ((const type *)(const void *)((const char *)(p) + (s)->at))

/* Writes a decimal with the fewest digits that read back as the same double, so stored plans
   give back exactly what was set; from 6 digits, so the usual values read as %g wrote them. */
static void format_decimal(double v, const char *suffix, char *buf, size_t len) {
  char text[40];
  for (int digits = 6; digits <= 17; digits++) {
    snprintf(text, sizeof text, "%.*g", digits, v);
    if (strtod(text, NULL) == v)
      break;
  }
  snprintf(buf, len, "%s%s", text, suffix);
}

/* What a setting accepts, from its bounds: the text after "accepted:" in errors, and in help. */
static void accepted_text(const plan_setting *s, char *buf, size_t len) {
  char min[40], max[40];
  switch (s->kind) {
  case KIND_NAME:
  case KIND_TEXT:
    if (s->min > 0)
      snprintf(buf, len, "%s, %.0f to %.0f bytes", s->forms, s->min, s->max);
    else
      snprintf(buf, len, "%s, at most %.0f bytes", s->forms, s->max);
    return;
  case KIND_CONDITIONS: {
    char forms[PLAN_ACCEPTED_MAX];
    load_spec_forms(forms, sizeof forms);
    snprintf(buf, len, "%.0f to %.0f, comma-separated: %s", s->min, s->max, forms);
    return;
  }
  case KIND_BENCHES: {
    ts_buf forms = ts_buf_on(buf, len);
    ts_buf_addf(&forms, "%.0f to %.0f, comma-separated: ", s->min, s->max);
    for (size_t i = 0; bench_table[i]; i++)
      ts_buf_addf(&forms, "%s%s",
                  i == 0               ? ""
                  : bench_table[i + 1] ? ", "
                                       : " or ",
                  bench_table[i]->forms ? bench_table[i]->forms : bench_table[i]->name);
    return;
  }
  case KIND_WHOLE:
    /* As ts_parse_long prints the same bounds. */
    snprintf(buf, len, "%s%s%ld to %ld", s->word ? s->word : "", s->word ? ", or " : "",
             (long)s->min, (long)s->max);
    return;
  case KIND_BLOCKS:
    ts_format_duration(FILL_MIN_NS, min, sizeof min);
    ts_format_duration(FILL_MAX_NS, max, sizeof max);
    snprintf(buf, len, "%ld to %ld, or a time from %s to %s (at least %d blocks)", (long)s->min,
             (long)s->max, min, max, PLAN_FILL_MIN_BLOCKS);
    return;
  case KIND_DECIMAL:
    snprintf(buf, len, "%g to %g", s->min, s->max);
    return;
  case KIND_PERCENT: /* "off, or 1% to 50%"; "off, default, or 1% to 50%" */
    snprintf(buf, len, "%s%s%s%s%g%% to %g%%", s->word ? s->word : "", s->word ? ", " : "",
             s->forms ? s->forms : "", s->word || s->forms ? (s->forms ? ", or " : "or ") : "",
             s->min, s->max);
    return;
  case KIND_DURATION:
    ts_format_duration((uint64_t)s->min, min, sizeof min);
    ts_format_duration((uint64_t)s->max, max, sizeof max);
    snprintf(buf, len, "%s to %s", min, max);
    return;
  case KIND_ONE_OF: {
    size_t used = 0;
    char word[32];
    buf[0] = '\0';
    for (int i = 0; one_of_word(s, i, word, sizeof word) && used < len; i++)
      used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", word);
    return;
  }
  case KIND_CHOICE: {
    ts_buf words = ts_buf_on(buf, len);
    for (const char *w = s->value; *w; w += strcspn(w, "|"), w += *w == '|')
      ts_buf_addf(&words, "%s%.*s", w == s->value ? "" : ", ", (int)strcspn(w, "|"), w);
    return;
  }
  }
}

/* What --help calls a setting's value: "--reps N", "--margin P|auto". */
static void value_name(const plan_setting *s, char *buf, size_t len) {
  static const char *const names[] = {
      [KIND_NAME] = "NAME",    [KIND_TEXT] = "TEXT", [KIND_CONDITIONS] = "LIST",
      [KIND_BENCHES] = "LIST", [KIND_WHOLE] = "N",   [KIND_BLOCKS] = "N|DURATION",
      [KIND_DECIMAL] = "X",    [KIND_PERCENT] = "P", [KIND_DURATION] = "DURATION",
      [KIND_CHOICE] = "WORD",  [KIND_ONE_OF] = NULL};
  const char *name = s->kind == KIND_ONE_OF ? s->forms : names[s->kind];
  const char *derived = s->kind == KIND_PERCENT ? s->forms : NULL;
  snprintf(buf, len, "%s%s%s%s%s", s->value ? s->value : name, s->word ? "|" : "",
           s->word ? s->word : "", derived ? "|" : "", derived ? derived : "");
}

/* Refuses with the key, what was wrong, and what the table says is accepted. */
static int refuse(const plan_setting *s, const char *what, ts_err *err) {
  char accepted[PLAN_ACCEPTED_MAX];
  accepted_text(s, accepted, sizeof accepted);
  return ts_err_set(err, TS_EUSAGE, "%s%s (accepted: %s)", s->key, what, accepted);
}

/* Calls fn on each comma-separated item of list, trimmed; empty items are refused. */
static int each_item(const char *list, const plan_setting *s,
                     int (*fn)(plan *, const plan_setting *, const char *, ts_err *), plan *p,
                     ts_err *err) {
  char item[LOAD_TEXT_MAX];
  const char *at = list;
  if (!*list)
    return refuse(s, " needs a value", err);
  for (;;) {
    const char *comma = strchr(at, ',');
    size_t len = comma ? (size_t)(comma - at) : strlen(at);
    while (len > 0 && (*at == ' ' || *at == '\t')) {
      at++;
      len--;
    }
    while (len > 0 && (at[len - 1] == ' ' || at[len - 1] == '\t'))
      len--;
    if (len == 0)
      return ts_err_set(err, TS_EUSAGE, "%s: empty item in '%s'", s->key, list);
    if (len >= sizeof item)
      return ts_err_set(err, TS_EUSAGE, "%s: item '%.*s' is too long", s->key, (int)len, at);
    memcpy(item, at, len);
    item[len] = '\0';
    int rc = fn(p, s, item, err);
    if (rc != TS_OK)
      return rc;
    if (!comma)
      return TS_OK;
    at = comma + 1;
  }
}

static int add_condition(plan *p, const plan_setting *s, const char *item, ts_err *err) {
  if (p->condition_count >= (int)s->max)
    return refuse(s, ": too many", err);
  load_spec *spec = &p->conditions[p->condition_count];
  int rc = load_spec_parse(item, spec, err);
  if (rc != TS_OK)
    return ts_err_prefix(err, "%s", s->key);
  if (plan_condition_index(p, spec->text) >= 0)
    return ts_err_set(err, TS_EUSAGE, "%s: '%s' is listed twice", s->key, spec->text);
  p->condition_count++;
  return TS_OK;
}

static int add_bench(plan *p, const plan_setting *s, const char *item, ts_err *err) {
  const char *arg;
  if (p->bench_count >= (int)s->max)
    return refuse(s, ": too many", err);
  if (strlen(item) >= PLAN_BENCH_MAX)
    return ts_err_set(err, TS_EUSAGE, "%s: '%s' is too long", s->key, item);
  /* A benchmark missing here may still run from a path the plan gives: plan_check decides. */
  if (!bench_find(item, &arg, err) && err->code != TS_EUNSUPPORTED)
    return ts_err_prefix(err, "%s", s->key);
  for (int i = 0; i < p->bench_count; i++)
    if (strcmp(p->benches[i], item) == 0)
      return ts_err_set(err, TS_EUSAGE, "%s: '%s' is listed twice", s->key, item);
  snprintf(p->benches[p->bench_count++], PLAN_BENCH_MAX, "%s", item);
  return TS_OK;
}

/* Sets a name or text field; errors do not echo the text: it may be long, or not UTF-8. */
static int set_text(plan *p, const plan_setting *s, const char *v, ts_err *err) {
  size_t n = strlen(v);
  char what[64];
  if (n == 0 && s->min > 0)
    return refuse(s, " needs a value", err);
  if (n > (size_t)s->max) {
    snprintf(what, sizeof what, ": too long at %zu bytes", n);
    return refuse(s, what, err);
  }
  if (s->kind == KIND_NAME) {
    for (const char *c = v; *c; c++)
      if ((unsigned char)*c < 32)
        return refuse(s, ": holds a control character", err);
    if (!ts_utf8_valid_str(v))
      return refuse(s, ": not UTF-8 text", err);
  }
  memcpy(FIELD(p, s, char), v, n + 1);
  return TS_OK;
}

/* Sets a choice to one of its words. */
static int set_choice(plan *p, const plan_setting *s, const char *v) {
  size_t n = strlen(v);
  for (const char *w = s->value; *w; w += strcspn(w, "|"), w += *w == '|')
    if (n > 0 && strcspn(w, "|") == n && strncmp(w, v, n) == 0) {
      memcpy(FIELD(p, s, char), v, n + 1);
      return TS_OK;
    }
  return TS_EUSAGE; /* set_value says what is accepted */
}

/* Sets the blocks: a whole number, or a time to fill (then at least PLAN_FILL_MIN_BLOCKS). A
   plain number is judged as a number, so "0" is out of range rather than not a time. */
static int set_blocks(plan *p, const plan_setting *s, const char *v, ts_err *err) {
  ts_err ignored;
  long count;
  uint64_t fill;
  char what[160];
  if (*v && strspn(v, "0123456789") == strlen(v)) {
    if (ts_parse_long(v, (long)s->min, (long)s->max, s->key, &count, &ignored) != TS_OK) {
      snprintf(what, sizeof what, ": %.40s is out of range", v);
      return refuse(s, what, err);
    }
    *FIELD(p, s, long) = count;
    p->fill_ns = 0;
    return TS_OK;
  }
  if (ts_parse_duration(v, FILL_MIN_NS, FILL_MAX_NS, s->key, &fill, err) == TS_OK) {
    *FIELD(p, s, long) = PLAN_FILL_MIN_BLOCKS;
    p->fill_ns = fill;
    return TS_OK;
  }
  if (strstr(err->text, "out of range"))
    snprintf(what, sizeof what, ": %.40s is out of range", v);
  else
    snprintf(what, sizeof what, ": '%.40s' is neither a number of blocks nor a time", v);
  return refuse(s, what, err);
}

/* The one setter: every setting, every kind. */
static int set_value(plan *p, const plan_setting *s, const char *v, ts_err *err) {
  switch (s->kind) {
  case KIND_NAME:
  case KIND_TEXT:
    return set_text(p, s, v, err);
  case KIND_CONDITIONS:
    p->condition_count = 0;
    return each_item(v, s, add_condition, p, err);
  case KIND_BENCHES:
    p->bench_count = 0;
    return each_item(v, s, add_bench, p, err);
  case KIND_WHOLE: /* the parsers' errors print the same bounds: "(accepted: 1 to 1000)" */
    if (s->word && strcmp(v, s->word) == 0) {
      *FIELD(p, s, long) = 0;
      return TS_OK;
    }
    if (s->word) { /* refused below, naming the word too */
      if (ts_parse_long(v, (long)s->min, (long)s->max, s->key, FIELD(p, s, long), err) == TS_OK)
        return TS_OK;
      break;
    }
    return ts_parse_long(v, (long)s->min, (long)s->max, s->key, FIELD(p, s, long), err);
  case KIND_BLOCKS:
    return set_blocks(p, s, v, err);
  case KIND_DECIMAL:
    return ts_parse_double(v, s->min, s->max, s->key, FIELD(p, s, double), err);
  case KIND_DURATION:
    return ts_parse_duration(v, (uint64_t)s->min, (uint64_t)s->max, s->key, FIELD(p, s, uint64_t),
                             err);
  case KIND_PERCENT:
    if (s->word && strcmp(v, s->word) == 0) {
      *FIELD(p, s, double) = 0;
      return TS_OK;
    }
    if (s->forms && strcmp(v, s->forms) == 0) {
      *FIELD(p, s, double) = PLAN_PERCENT_DERIVED;
      return TS_OK;
    }
    if (ts_parse_percent(v, s->min, s->max, s->key, FIELD(p, s, double), err) == TS_OK)
      return TS_OK;
    break;
  case KIND_ONE_OF: {
    char word[32];
    for (int i = 0; one_of_word(s, i, word, sizeof word); i++)
      if (strcmp(v, word) == 0) {
        *FIELD(p, s, int) = i;
        return TS_OK;
      }
    break;
  }
  case KIND_CHOICE:
    if (set_choice(p, s, v) == TS_OK)
      return TS_OK;
    break;
  }
  char accepted[PLAN_ACCEPTED_MAX];
  accepted_text(s, accepted, sizeof accepted);
  return ts_err_set(err, TS_EUSAGE, "%s: '%.100s' is not accepted (accepted: %s)", s->key, v,
                    accepted);
}

/* The one formatter: the value as plan text that set_value reads back. */
static void format_value(const plan *p, const plan_setting *s, char *buf, size_t len) {
  ts_buf list = ts_buf_on(buf, len);
  switch (s->kind) {
  case KIND_NAME:
  case KIND_TEXT:
  case KIND_CHOICE:
    snprintf(buf, len, "%s", CFIELD(p, s, char));
    return;
  case KIND_CONDITIONS:
    for (int i = 0; i < p->condition_count; i++)
      ts_buf_item(&list, ", ", p->conditions[i].text);
    return;
  case KIND_BENCHES:
    for (int i = 0; i < p->bench_count; i++)
      ts_buf_item(&list, ", ", p->benches[i]);
    return;
  case KIND_WHOLE:
    if (s->word && *CFIELD(p, s, long) == 0)
      snprintf(buf, len, "%s", s->word);
    else
      snprintf(buf, len, "%ld", *CFIELD(p, s, long));
    return;
  case KIND_BLOCKS:
    if (p->fill_ns)
      ts_format_duration(p->fill_ns, buf, (int)len);
    else
      snprintf(buf, len, "%ld", *CFIELD(p, s, long));
    return;
  case KIND_DECIMAL:
    format_decimal(*CFIELD(p, s, double), "", buf, len);
    return;
  case KIND_PERCENT:
    if (s->word && *CFIELD(p, s, double) == 0)
      snprintf(buf, len, "%s", s->word);
    else if (s->forms && *CFIELD(p, s, double) == PLAN_PERCENT_DERIVED)
      snprintf(buf, len, "%s", s->forms);
    else
      format_decimal(*CFIELD(p, s, double), "%", buf, len);
    return;
  case KIND_DURATION:
    ts_format_duration(*CFIELD(p, s, uint64_t), buf, (int)len);
    return;
  case KIND_ONE_OF:
    if (!one_of_word(s, *CFIELD(p, s, int), buf, len))
      snprintf(buf, len, "?");
    return;
  }
}

int plan_setting_info_at(size_t i, plan_setting_info *out) {
  plan_setting row;
  const plan_setting *s = setting_at(i, &row);
  if (!s)
    return 0;
  out->key = s->key;
  out->help = s->help;
  out->default_text = s->dflt ? s->dflt : "";
  value_name(s, out->value, sizeof out->value);
  accepted_text(s, out->accepted, sizeof out->accepted);
  return 1;
}

/* Appends words to b, breaking lines before `width` columns and indenting the next ones. */
static void wrap(ts_buf *b, size_t *column, const char *text, size_t indent, size_t width) {
  while (*text && !b->cut) {
    size_t word = strcspn(text, " ");
    if (*column > indent && *column + 1 + word > width) {
      ts_buf_addf(b, "\n%*s", (int)indent, "");
      *column = indent;
    } else if (*column > indent) {
      ts_buf_add(b, " ");
      (*column)++;
    }
    ts_buf_addf(b, "%.*s", (int)word, text);
    *column += word;
    text += word;
    text += strspn(text, " ");
  }
}

void plan_settings_help(char *buf, size_t len) {
  enum { INDENT = 26, WIDTH = 80 };
  ts_buf help = ts_buf_on(buf, len);
  plan_setting_info info;
  for (size_t i = 0; plan_setting_info_at(i, &info) && !help.cut; i++) {
    char option[64], text[PLAN_ACCEPTED_MAX + 512];
    int n = snprintf(option, sizeof option, "  --%s %s", info.key, info.value);
    snprintf(text, sizeof text, "%s; accepted: %s%s%s", info.help, info.accepted,
             info.default_text[0] ? "; default " : "", info.default_text);
    size_t column = (size_t)n < INDENT ? INDENT : (size_t)n + 1;
    ts_buf_addf(&help, "%-*s", (int)column, option);
    wrap(&help, &column, text, INDENT, WIDTH);
    ts_buf_add(&help, "\n");
  }
}

static void known_keys(char *buf, size_t len) {
  ts_buf keys = ts_buf_on(buf, len);
  plan_setting row;
  for (size_t i = 0; setting_at(i, &row); i++)
    ts_buf_item(&keys, ", ", setting_at(i, &row)->key);
}

/* The setting called `key` into *row, its place in plan order into *index; NULL when none. */
static const plan_setting *find_setting(const char *key, plan_setting *row, size_t *index) {
  const plan_setting *s;
  for (size_t i = 0; (s = setting_at(i, row)) != NULL; i++)
    if (strcmp(s->key, key) == 0) {
      if (index)
        *index = i;
      return s;
    }
  return NULL;
}

int plan_is_setting(const char *key) {
  plan_setting row;
  return find_setting(key, &row, NULL) != NULL;
}

/* A budget is the time adaptive repetitions may take: given to a plan without a precision, it
   asks for the default precision (0.62 x the margin), or it would add no block. */
static void budget_given(plan *p, int precision_given) {
  if (!precision_given && p->precision_pct == 0)
    p->precision_pct = PLAN_PERCENT_DERIVED;
}

int plan_set(plan *p, const char *key, const char *value, ts_err *err) {
  plan_setting row;
  const plan_setting *s = find_setting(key, &row, NULL);
  if (!s) {
    char keys[512];
    known_keys(keys, sizeof keys);
    return ts_err_set(err, TS_EUSAGE, "unknown setting '%s' (known: %s)", key, keys);
  }
  int rc = set_value(p, s, value ? value : "", err);
  if (rc == TS_OK && strcmp(key, "budget") == 0)
    budget_given(p, 0);
  return rc;
}

/* Every default goes through its setter, so a default is always within its bounds (a test
   checks each is accepted). */
static void plan_defaults(plan *p) {
  memset(p, 0, sizeof *p);
  plan_setting row;
  const plan_setting *s;
  for (size_t i = 0; (s = setting_at(i, &row)) != NULL; i++) {
    ts_err ignored;
    if (s->dflt)
      set_value(p, s, s->dflt, &ignored);
  }
}

/* ---- text and files ---- */

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
    s[--n] = '\0';
  return s;
}

int plan_parse(const char *text, const char *origin, plan *out, ts_err *err) {
  plan_defaults(out);
  int set_on_line[SETTINGS_MAX];
  memset(set_on_line, 0, sizeof set_on_line);
  int line_no = 0;
  for (const char *line = text; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    line_no++;
    char buf[PLAN_FORMAT_MAX]; /* any line plan_format writes reads back */
    if (len >= sizeof buf)
      return ts_err_set(err, TS_EUSAGE, "%s:%d: line longer than %zu characters", origin, line_no,
                        sizeof buf - 1);
    memcpy(buf, line, len);
    buf[len] = '\0';
    line = end ? end + 1 : NULL;
    char *content = trim(buf);
    if (*content == '\0' || *content == '#')
      continue;
    char *eq = strchr(content, '=');
    if (!eq)
      return ts_err_set(err, TS_EUSAGE, "%s:%d: expected KEY = VALUE, got '%.80s'", origin, line_no,
                        content);
    *eq = '\0';
    char *key = trim(content), *value = trim(eq + 1);
    plan_setting row;
    size_t index;
    const plan_setting *s = find_setting(key, &row, &index);
    if (!s) {
      char keys[512];
      known_keys(keys, sizeof keys);
      return ts_err_set(err, TS_EUSAGE, "%s:%d: unknown setting '%s' (known: %s)", origin, line_no,
                        key, keys);
    }
    if (set_on_line[index])
      return ts_err_set(err, TS_EUSAGE, "%s:%d: '%s' is set twice (first on line %d)", origin,
                        line_no, key, set_on_line[index]);
    set_on_line[index] = line_no;
    int rc = set_value(out, s, value, err);
    if (rc != TS_OK)
      return ts_err_prefix(err, "%s:%d", origin, line_no);
  }
  size_t budget, precision;
  plan_setting row;
  if (find_setting("budget", &row, &budget) && find_setting("precision", &row, &precision) &&
      set_on_line[budget])
    budget_given(out, set_on_line[precision] != 0);
  return TS_OK;
}

int plan_preset(const char *name, plan *out, ts_err *err) {
  for (size_t i = 0; i < PRESET_COUNT; i++) {
    if (strcmp(plan_presets[i].name, name) != 0)
      continue;
    char origin[64];
    snprintf(origin, sizeof origin, "preset %s", name);
    int rc = plan_parse(plan_presets[i].text, origin, out, err);
    if (rc == TS_OK)
      snprintf(out->name, sizeof out->name, "%s", name);
    return rc;
  }
  char names[256];
  ts_buf presets = ts_buf_on(names, sizeof names);
  for (size_t i = 0; i < PRESET_COUNT; i++)
    ts_buf_item(&presets, ", ", plan_presets[i].name);
  return ts_err_set(err, TS_EUSAGE,
                    "unknown plan '%s': not a preset (accepted: %s) and no such plan file", name,
                    names);
}

/* Replaces condition `c`, a freeze:background, by the conditions it stands for now; conditions
   the plan already has are not added twice. */
static int expand_one(plan *p, int c, int top, const plat_peer *asker, ts_buf *said, ts_err *err) {
  freeze_waker wakers[FREEZE_BACKGROUND_TOP_MAX];
  load_spec made[FREEZE_BACKGROUND_TOP_MAX + 1];
  int found, skipped, count;
  int rc = freeze_background_find(top, asker, FREEZE_BACKGROUND_SAMPLE_NS, wakers, &found, &skipped,
                                  err);
  if (rc == TS_OK)
    rc = freeze_background_conditions(&p->conditions[c], wakers, found, made,
                                      FREEZE_BACKGROUND_TOP_MAX + 1, &count, err);
  if (rc != TS_OK)
    return rc;
  ts_buf_addf(said,
              "%s: the %d program%s that woke most in a %.1f s census (%d left out by the "
              "freeze rules):",
              p->conditions[c].text, found, found == 1 ? "" : "s",
              (double)FREEZE_BACKGROUND_SAMPLE_NS / TS_NS_PER_S, skipped);
  for (int i = 0; i < found; i++)
    ts_buf_addf(said, "%s %s %.0f/s", i ? "," : "", wakers[i].name, wakers[i].wakeups_per_s);
  ts_buf_addf(said, "\n");
  load_spec kept[PLAN_MAX_CONDITIONS];
  int n = 0;
  for (int i = 0; i < p->condition_count && rc == TS_OK; i++) {
    if (i != c) {
      kept[n++] = p->conditions[i];
      continue;
    }
    for (int k = 0; k < count && rc == TS_OK; k++) {
      if (plan_condition_index(p, made[k].text) >= 0)
        continue;
      if (n == PLAN_MAX_CONDITIONS)
        rc = ts_err_set(err, TS_EUSAGE, "%s stands for more conditions than a plan holds (%d)",
                        p->conditions[c].text, PLAN_MAX_CONDITIONS);
      else
        kept[n++] = made[k];
    }
  }
  if (rc == TS_OK) {
    memcpy(p->conditions, kept, (size_t)n * sizeof kept[0]);
    p->condition_count = n;
  }
  return rc;
}

int plan_expand_background(plan *p, const plat_peer *asker, char *said, size_t len, ts_err *err) {
  ts_buf out = ts_buf_on(said, len);
  for (int c = 0; c < p->condition_count; c++) {
    int is_background, top;
    int rc = freeze_spec_background(&p->conditions[c], &is_background, &top, err);
    if (rc == TS_OK && is_background)
      rc = expand_one(p, c, top, asker, &out, err);
    if (rc != TS_OK)
      return rc;
  }
  return TS_OK;
}

long plan_preset_largest_load(void) {
  plan *p = malloc(sizeof *p);
  long most = 0;
  ts_err err;
  for (size_t i = 0; p && i < PRESET_COUNT; i++) {
    if (plan_preset(plan_presets[i].name, p, &err) != TS_OK)
      continue;
    for (int c = 0; c < p->condition_count; c++) {
      long n = load_spec_threads(&p->conditions[c]) + load_spec_processes(&p->conditions[c]);
      if (n > most)
        most = n;
    }
  }
  free(p);
  return most;
}

int plan_read_file(const char *path, plan *out, ts_err *err) {
  FILE *f = plat_fopen(path, "rb");
  if (!f)
    return ts_err_set(err, TS_EUSAGE, "cannot read plan file %s", path);
  static const size_t limit = 65536; /* a plan is a page of text, not a data set */
  char *text = malloc(limit + 1);
  size_t n = text ? fread(text, 1, limit + 1, f) : 0;
  fclose(f);
  if (!text)
    return ts_err_set(err, TS_ENOMEM, "no memory to read %s", path);
  int rc = TS_OK;
  /* Windows editors write plans that way: Notepad's "UTF-8 with BOM" (the mark is skipped) and
     "Unicode" (UTF-16, with a byte-order mark or, without one, a NUL in every ASCII character). */
  const unsigned char *bytes = (const unsigned char *)text;
  int utf16 = n >= 2 && ((bytes[0] == 0xFF && bytes[1] == 0xFE) ||
                         (bytes[0] == 0xFE && bytes[1] == 0xFF) || !bytes[0] || !bytes[1]);
  size_t bom = n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0;
  if (n > limit)
    rc = ts_err_set(err, TS_EUSAGE, "%s: larger than %zu bytes: not a plan file", path, limit);
  else if (utf16)
    rc = ts_err_set(err, TS_EUSAGE,
                    "%s: UTF-16: save it as UTF-8 (plan files are UTF-8 text; in Notepad: "
                    "Save as, Encoding UTF-8)",
                    path);
  else if (memchr(text, '\0', n))
    rc = ts_err_set(err, TS_EUSAGE, "%s: holds NUL bytes: not a text plan file", path);
  if (rc == TS_OK) {
    text[n] = '\0';
    rc = plan_parse(text + bom, path, out, err);
    if (rc == TS_OK && strcmp(out->name, "custom") == 0) {
      /* Unnamed plans are called after their file. */
      const char *base = path + strlen(path);
      while (base > path && base[-1] != '/' && base[-1] != '\\')
        base--;
      snprintf(out->name, sizeof out->name, "%s", base);
    }
  }
  free(text);
  return rc;
}

/* The texts of benchmark b's settings, in its rows' order, into settings[]. */
static void settings_of(const plan *p, const bench_def *b, const char **settings) {
  const bench_def *owner;
  size_t row;
  for (size_t k = 0; k < bench_setting_count(b); k++)
    for (size_t i = 0; bench_setting_at(i, &owner, &row); i++)
      if (&owner->settings[row] == &b->settings[k])
        settings[k] = p->bench_settings[i];
}

const bench_def *plan_bench(const plan *p, const char *bench_spec, const char **arg,
                            const char **settings, ts_err *err) {
  const bench_def *b = bench_named(bench_spec);
  if (b)
    settings_of(p, b, settings);
  return bench_find_with(bench_spec, b ? settings : NULL, arg, err);
}

const char *plan_bench_setting(const plan *p, const char *key) {
  const bench_def *b;
  size_t row;
  for (size_t i = 0; bench_setting_at(i, &b, &row); i++)
    if (strcmp(b->settings[row].key, key) == 0)
      return p->bench_settings[i];
  return NULL;
}

int plan_runs_programs(const plan *p, char *what, size_t len) {
  if (what && len)
    what[0] = '\0';
  for (int i = 0; i < p->bench_count; i++) {
    const bench_def *b = bench_named(p->benches[i]);
    if (b && b->runs_programs) {
      if (what)
        snprintf(what, len, "a %s benchmark", b->name);
      return 1;
    }
  }
  /* Every setting whose value is a program (PATH), a command line (CMD) or a folder the runner
     writes into (FOLDER: the service, as SYSTEM or root, must not write where any controller
     names). */
  plan_setting row;
  const plan_setting *s;
  for (size_t i = 0; (s = setting_at(i, &row)) != NULL; i++) {
    if (s->kind != KIND_TEXT || !s->value ||
        (strcmp(s->value, "PATH") != 0 && strcmp(s->value, "CMD") != 0 &&
         strcmp(s->value, "FOLDER") != 0))
      continue;
    const char *v = CFIELD(p, s, char);
    if (v[0]) {
      if (what)
        snprintf(what, len, "%s = %s", s->key, v);
      return 1;
    }
  }
  return 0;
}

/* Refuses a benchmark that cannot run here, naming the setting that would give its program. */
static int refuse_unavailable(const bench_def *b, const char *spec, ts_err *err) {
  for (size_t i = 0; b && i < bench_setting_count(b); i++)
    if (b->settings[i].kind == BENCH_SETTING_PATH)
      return ts_err_prefix(err, "bench %s (give its path with --%s PATH)", spec,
                           b->settings[i].key);
  return ts_err_prefix(err, "bench %s", spec);
}

int plan_check(const plan *p, ts_err *err) {
  const char *settings[BENCH_SETTINGS_MAX];
  for (int i = 0; i < p->bench_count; i++) {
    const char *arg;
    if (!plan_bench(p, p->benches[i], &arg, settings, err))
      return err->code == TS_EUNSUPPORTED
                 ? refuse_unavailable(bench_named(p->benches[i]), p->benches[i], err)
                 : err->code;
  }
  if (p->condition_count == 0)
    return ts_err_set(err, TS_EUSAGE, "the plan has no conditions (set conditions = …)");
  if (p->bench_count == 0)
    return ts_err_set(err, TS_EUSAGE, "the plan has no benchmarks (set bench = …)");
  if (p->stop_when_decided && p->fill_ns) {
    char fill[32];
    ts_format_duration(p->fill_ns, fill, sizeof fill);
    return ts_err_set(err, TS_EUSAGE,
                      "stop-when-decided plans its looks for a number of blocks, and reps = %s is "
                      "a time: give reps as a number (accepted: 1 to %d)",
                      fill, PLAN_MAX_REPS);
  }
  for (int i = 0; i < p->bench_count; i++) {
    const char *arg;
    const bench_def *b = plan_bench(p, p->benches[i], &arg, settings, err);
    if (b && b->check_plan && b->check_plan(settings, err) != TS_OK)
      return err->code;
  }
  return TS_OK;
}

int plan_trial_count(const plan *p) {
  return p->bench_count * ((int)p->warmup + p->condition_count * (int)p->reps);
}

void plan_format(const plan *p, char *buf, size_t len) {
  ts_buf text = ts_buf_on(buf, len);
  plan_setting row;
  const plan_setting *s;
  for (size_t i = 0; (s = setting_at(i, &row)) != NULL && !text.cut; i++) {
    char value[PLAN_FORMAT_MAX];
    format_value(p, s, value, sizeof value);
    if (value[0] == '\0')
      continue; /* an empty path or command: the default */
    ts_buf_addf(&text, "%s = %s\n", s->key, value);
  }
}

int plan_condition_index(const plan *p, const char *text) {
  for (int i = 0; i < p->condition_count; i++)
    if (strcmp(p->conditions[i].text, text) == 0)
      return i;
  return -1;
}
