/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_knobs.c - the platform layer's table of test knobs: each knob has its own name, is off
   until a test sets it, reads back what was set and goes off again; refusal knobs refuse exactly
   the calls of their window. */
#include "check.h"
#include "threadsoup/plat_knobs.h"

#include <string.h>

static void every_knob_has_a_name_of_its_own(void) {
  for (int i = 0; i < PLAT_KNOBS; i++) {
    const char *name = plat_knob_name((plat_knob)i);
    REQUIRE(name && name[0]);
    CHECK(strcmp(name, "unknown knob") != 0);
    for (int j = 0; j < i; j++)
      CHECK(strcmp(name, plat_knob_name((plat_knob)j)) != 0);
  }
  CHECK_STR_EQ(plat_knob_name(PLAT_KNOBS), "unknown knob");
  CHECK_STR_EQ(plat_knob_name(PLAT_KNOB_CENSUS_SOURCE), "census-source");
}

static void every_knob_is_off_until_a_test_sets_it(void) {
  for (int i = 0; i < PLAT_KNOBS; i++)
    CHECK_INT(plat_knob_is_set((plat_knob)i), 0);
  CHECK(plat_knob_text(PLAT_KNOB_UPDATE_KEY) == NULL);
  CHECK_INT(plat_knob_number(PLAT_KNOB_QUIET_CONFIRM_WAIT_MS, 5000), 5000);
  for (int call = 0; call < 10; call++)
    CHECK_INT(plat_fault_due(PLAT_FAULT_THREAD_START), 0);
}

static void text_and_numbers_read_back_until_reset(void) {
  plat_knob_set_text(PLAT_KNOB_CENSUS_SOURCE, "recorded/proc");
  CHECK_INT(plat_knob_is_set(PLAT_KNOB_CENSUS_SOURCE), 1);
  CHECK_STR_EQ(plat_knob_text(PLAT_KNOB_CENSUS_SOURCE), "recorded/proc");
  CHECK(plat_knob_text(PLAT_KNOB_UPDATE_KEY) == NULL); /* one knob does not move another */
  plat_knob_set_text(PLAT_KNOB_CENSUS_SOURCE, NULL);
  CHECK(plat_knob_text(PLAT_KNOB_CENSUS_SOURCE) == NULL);

  plat_knob_set_number(PLAT_KNOB_QUIET_CONFIRM_WAIT_MS, 0); /* 0 is a value, not "off" */
  CHECK_INT(plat_knob_number(PLAT_KNOB_QUIET_CONFIRM_WAIT_MS, 5000), 0);
  plat_knob_set_number(PLAT_KNOB_QUIET_CONFIRM_WAIT_MS, 250);
  CHECK_INT(plat_knob_number(PLAT_KNOB_QUIET_CONFIRM_WAIT_MS, 5000), 250);
  plat_knob_reset(PLAT_KNOB_QUIET_CONFIRM_WAIT_MS);
  CHECK_INT(plat_knob_number(PLAT_KNOB_QUIET_CONFIRM_WAIT_MS, 5000), 5000);
}

static void refusals_fall_in_their_window(void) {
  plat_fault_inject(PLAT_FAULT_CHILD_SPAWN, 2, 3); /* calls 2, 3 and 4 are refused */
  int refused[8];
  for (int call = 0; call < 8; call++)
    refused[call] = plat_fault_due(PLAT_FAULT_CHILD_SPAWN);
  static const int expected[8] = {0, 0, 1, 1, 1, 0, 0, 0};
  for (int call = 0; call < 8; call++)
    CHECK_INT(refused[call], expected[call]);
  CHECK_INT(plat_fault_due(PLAT_FAULT_THREAD_START), 0);

  plat_fault_inject(PLAT_FAULT_CHILD_SPAWN, 0, -1); /* every call from now on */
  for (int call = 0; call < 5; call++)
    CHECK_INT(plat_fault_due(PLAT_FAULT_CHILD_SPAWN), 1);
  plat_fault_inject(PLAT_FAULT_CHILD_SPAWN, -1, -1);
  CHECK_INT(plat_knob_is_set(PLAT_FAULT_CHILD_SPAWN), 0);
  CHECK_INT(plat_fault_due(PLAT_FAULT_CHILD_SPAWN), 0);
}

int main(void) {
  RUN_CASE(every_knob_has_a_name_of_its_own);
  RUN_CASE(every_knob_is_off_until_a_test_sets_it);
  RUN_CASE(text_and_numbers_read_back_until_reset);
  RUN_CASE(refusals_fall_in_their_window);
  return check_summary();
}
