/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_tray_load_form.c - the tray's Custom load form makes the condition text the engine's
   parser reads, and a bad field gets the same message as the same value given to the CLI. */
#include "check.h"
#include "engine/engine.h"
#include "../../tray/src/load_form.h"

#include <string.h>

static void fields_make_a_condition(void) {
  char text[256];
  load_form f = {"sleep", " 700 ", "500ms", "", NULL, "", "", ""};
  CHECK_INT(load_form_spec(&f, text, sizeof text), 0);
  CHECK_STR_CONTAINS(text, "sleep:700@500ms");
  CHECK_INT((int)strlen(text), (int)strlen("sleep:700@500ms"));

  load_form all = {"sleep", "10", "1s", "sync", "absolute", "high", "64", " + procs:2 + wait:3 "};
  CHECK_INT(load_form_spec(&all, text, sizeof text), 0);
  const char *want =
      "sleep:10@1s/phase=sync/timer=absolute/resolution=high/stack=64+procs:2+wait:3";
  CHECK_STR_CONTAINS(text, want);
  CHECK_INT((int)strlen(text), (int)strlen(want));
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse(text, &spec, &err), TS_OK);
  CHECK_INT((int)load_spec_threads(&spec), 13);
  CHECK_INT((int)load_spec_processes(&spec), 2);

  /* Joined parts without a leading '+'; burn's duty stands where the count does. */
  load_form burn = {"burn", "10%", "20ms", "", "", "", "", "yield:1"};
  CHECK_INT(load_form_spec(&burn, text, sizeof text), 0);
  CHECK_STR_CONTAINS(text, "burn:10%@20ms+yield:1");
  CHECK_INT(load_spec_parse(text, &spec, &err), TS_OK);

  /* Too long for the buffer: an error and an empty text, never a cut condition. */
  CHECK_INT(load_form_spec(&all, text, 12), -1);
  CHECK_INT((int)strlen(text), 0);
}

/* The CLI sets `--count abc` with load_part_set; the service parses the form's text: one message.
 */
static void bad_fields_say_what_the_cli_says(void) {
  static const struct {
    const char *key, *value;
  } bad[] = {{"count", "abc"}, {"interval", "fast"}, {"phase", "late"}, {"stack", "-1"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    load_form f = {"sleep", "5", "", "", "", "", "", ""};
    if (strcmp(bad[i].key, "count") == 0)
      f.count = bad[i].value;
    else if (strcmp(bad[i].key, "interval") == 0)
      f.interval = bad[i].value;
    else if (strcmp(bad[i].key, "phase") == 0)
      f.phase = bad[i].value;
    else
      f.stack = bad[i].value;
    char text[256];
    CHECK_INT(load_form_spec(&f, text, sizeof text), 0);
    load_spec spec;
    ts_err from_form, from_cli;
    CHECK(load_spec_parse(text, &spec, &from_form) != TS_OK);
    load_part part;
    CHECK_INT(load_part_init(&part, "sleep", &from_cli), TS_OK);
    CHECK(load_part_set(&part, bad[i].key, bad[i].value, &from_cli) != TS_OK);
    CHECK_STR_CONTAINS(from_form.text, from_cli.text);
  }
}

int main(void) {
  RUN_CASE(fields_make_a_condition);
  RUN_CASE(bad_fields_say_what_the_cli_says);
  return check_summary();
}
