/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_tray_menu_keys.c - every item of each level of the tray's popup menu has an access key
   (&X), and no two items of a level share one, over the labels the menu is built from; the quiet
   choices send the plan's own words. */
#include "check.h"
#include "../../tray/src/menu_items.h"
#include "plan/plan.h"

#include <stdio.h>
#include <string.h>
#include <wchar.h>

/* One menu level as tray.c builds it: which labels it shows together. */
typedef struct level {
  const char *name;
  const wchar_t *labels[TRAY_ITEM_COUNT + TRAY_LOAD_COUNT + 32];
  size_t count;
} level;

/* Checks one level; returns how many of its labels broke a rule (each is printed). */
static int level_faults(const level *l) {
  int faults = 0;
  for (size_t i = 0; i < l->count; i++) {
    int key = tray_menu_access_key(l->labels[i]);
    if (key <= ' ') {
      fprintf(stderr, "  %s: \"%ls\" has %s\n", l->name, l->labels[i],
              key < 0 ? "more than one access key or a trailing '&'" : "no access key");
      faults++;
      continue;
    }
    for (size_t j = 0; j < i; j++) {
      if (tray_menu_access_key(l->labels[j]) == key) {
        fprintf(stderr, "  %s: \"%ls\" and \"%ls\" share the access key '%lc'\n", l->name,
                l->labels[j], l->labels[i], (wint_t)key);
        faults++;
      }
    }
  }
  return faults;
}

static void access_keys_are_read_as_windows_reads_them(void) {
  CHECK_INT(tray_menu_access_key(L"Start &load"), 'l');
  CHECK_INT(tray_menu_access_key(L"E&Xit"), 'x');
  CHECK_INT(tray_menu_access_key(L"Save && quit"), 0);
  CHECK_INT(tray_menu_access_key(L"Save && &quit"), 'q');
  CHECK_INT(tray_menu_access_key(L"&Two &keys"), -1);
  CHECK_INT(tray_menu_access_key(L"Trailing&"), -1);
  CHECK_INT(tray_menu_access_key(L"None"), 0);
  /* The checker finds a missing key and a shared one (so the real levels below can fail). */
  level bad = {"bad", {L"&Open", L"&other", L"Plain"}, 3};
  CHECK_INT(level_faults(&bad), 2);
}

static void service_names_get_the_first_free_key(void) {
  char taken[8] = "";
  wchar_t label[32];
  tray_menu_label("cost", taken, label, 32);
  CHECK(wcscmp(label, L"&cost") == 0);
  tray_menu_label("calibrate", taken, label, 32);
  CHECK(wcscmp(label, L"c&alibrate") == 0);
  tray_menu_label("cc", taken, label, 32);
  CHECK(wcscmp(label, L"cc") == 0); /* every letter taken: no key */
  CHECK_INT(tray_menu_access_key(L"c&alibrate"), 'a');
}

static void every_menu_level_has_unique_access_keys(void) {
  level main_menu = {"main menu", {0}, 0};
  for (size_t i = 0; i < TRAY_ITEM_COUNT; i++)
    main_menu.labels[main_menu.count++] = TRAY_ITEM_LABELS[i];
  level loads = {"Start load", {0}, 0};
  for (size_t i = 0; i < TRAY_LOAD_COUNT; i++)
    loads.labels[loads.count++] = TRAY_LOADS[i].label;
  loads.labels[loads.count++] = TRAY_CUSTOM_LOAD_LABEL;
  level quiet = {"Quiet mode during experiments", {0}, 0};
  for (size_t i = 0; i < TRAY_QUIET_CHOICE_COUNT; i++)
    quiet.labels[quiet.count++] = TRAY_QUIET_CHOICES[i].label;
  /* Run experiment's rows are the service's presets (its catalog), labelled as the menu does. */
  level plans = {"Run experiment", {0}, 0};
  static wchar_t plan_labels[32][64];
  char taken[33] = "";
  for (size_t i = 0; plan_preset_name(i) && i < 32; i++) {
    tray_menu_label(plan_preset_name(i), taken, plan_labels[i], 64);
    plans.labels[plans.count++] = plan_labels[i];
  }

  /* Every item of the table is filled (a new enum value without a label would be NULL). */
  for (size_t i = 0; i < TRAY_ITEM_COUNT; i++)
    REQUIRE(TRAY_ITEM_LABELS[i] != NULL);
  CHECK_INT(main_menu.count, 13);
  CHECK_INT(level_faults(&main_menu), 0);
  CHECK_INT(loads.count, 6);
  CHECK_INT(level_faults(&loads), 0);
  CHECK_INT(quiet.count, 4);
  CHECK_INT(level_faults(&quiet), 0);
  CHECK(plans.count >= 7); /* cost and calibrate among them, which share their first letter */
  CHECK_INT(level_faults(&plans), 0);
}

/* Each quiet choice sends a word the plan's `quiet` setting accepts, and a stored word the tray
   does not know means Off. */
static void quiet_choices_are_the_plans_words(void) {
  for (size_t i = 0; i < TRAY_QUIET_CHOICE_COUNT; i++) {
    static plan p; /* large: not on the stack */
    ts_err err;
    REQUIRE(plan_preset("quick", &p, &err) == TS_OK);
    CHECK(plan_set(&p, "quiet", TRAY_QUIET_CHOICES[i].value, &err) == TS_OK);
    CHECK(tray_quiet_choice(TRAY_QUIET_CHOICES[i].value) == &TRAY_QUIET_CHOICES[i]);
  }
  CHECK(strcmp(TRAY_QUIET_CHOICES[0].value, "off") == 0);
  CHECK(strcmp(tray_quiet_choice("updates")->value, "updates") == 0);
  CHECK(tray_quiet_choice("loud") == &TRAY_QUIET_CHOICES[0]);
  CHECK(tray_quiet_choice("") == &TRAY_QUIET_CHOICES[0]);
}

int main(void) {
  RUN_CASE(access_keys_are_read_as_windows_reads_them);
  RUN_CASE(service_names_get_the_first_free_key);
  RUN_CASE(every_menu_level_has_unique_access_keys);
  RUN_CASE(quiet_choices_are_the_plans_words);
  return check_summary();
}
