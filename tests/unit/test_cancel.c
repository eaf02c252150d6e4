/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_cancel.c - cancel tokens: a raised token ends its own waits at once and those of no other
   token, the process interrupt ends every wait, and a command run under a token is killed when it
   is raised. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

typedef struct raiser {
  plat_cancel *token;
  uint64_t after_ns;
} raiser;

static void raise_later(void *arg) {
  raiser *r = arg;
  plat_sleep_ns(r->after_ns);
  plat_cancel_raise(r->token);
}

static void a_raised_token_ends_its_wait_at_once(void) {
  ts_err err;
  plat_cancel *token;
  REQUIRE(plat_cancel_create(&token, &err) == TS_OK);
  CHECK_INT(plat_cancelled(token), 0);
  raiser r = {token, 100 * TS_NS_PER_MS};
  plat_thread t;
  uint64_t began = plat_clock_ns(); /* before the raiser starts its 100 ms, however late we run */
  REQUIRE(plat_thread_start(&t, 0, raise_later, &r, &err) == TS_OK);
  CHECK_INT(plat_cancel_wait(token, 30 * TS_NS_PER_S), 1);
  uint64_t took = plat_clock_ns() - began;
  plat_thread_join(t);
  CHECK(took >= 90 * TS_NS_PER_MS);
  CHECK(took < 10 * TS_NS_PER_S); /* woken, not timed out */
  CHECK_INT(plat_cancelled(token), 1);
  CHECK_INT(plat_cancel_wait(token, 30 * TS_NS_PER_S), 1); /* stays raised */
  plat_cancel_destroy(token);
}

static void another_token_is_untouched(void) {
  ts_err err;
  plat_cancel *a, *b;
  REQUIRE(plat_cancel_create(&a, &err) == TS_OK);
  REQUIRE(plat_cancel_create(&b, &err) == TS_OK);
  plat_cancel_raise(a);
  CHECK_INT(plat_cancelled(b), 0);
  uint64_t began = plat_clock_ns();
  CHECK_INT(plat_cancel_wait(b, 150 * TS_NS_PER_MS), 0); /* a full wait */
  CHECK(plat_clock_ns() - began >= 140 * TS_NS_PER_MS);
  CHECK_INT(plat_interrupted(), 0); /* a token is not the process interrupt */
  plat_cancel_destroy(a);
  plat_cancel_destroy(b);
}

static void the_interrupt_ends_every_wait(void) {
  ts_err err;
  plat_cancel *token;
  REQUIRE(plat_cancel_create(&token, &err) == TS_OK);
  plat_interrupt_raise();
  CHECK_INT(plat_cancel_wait(token, 30 * TS_NS_PER_S), 1);
  CHECK_INT(plat_cancel_wait(NULL, 30 * TS_NS_PER_S), 1);
  CHECK_INT(plat_cancelled(token), 1);
  plat_interrupt_reset();
  CHECK_INT(plat_cancelled(token), 0);
  plat_cancel_destroy(token);
}

static void a_command_dies_with_its_token(void) {
  ts_err err;
  plat_cancel *token;
  REQUIRE(plat_cancel_create(&token, &err) == TS_OK);
  char dir[PLAT_PATH_MAX], name[64], self[PLAT_PATH_MAX + 80];
  REQUIRE(plat_program_dir(dir, sizeof dir, &err) == TS_OK);
  plat_program_name("test_cancel", name, sizeof name);
  snprintf(self, sizeof self, "%s%c%s", dir, plat_path_separator(), name);
  const char *argv[] = {self, "--sleep", NULL};
  raiser r = {token, 200 * TS_NS_PER_MS};
  plat_thread t;
  REQUIRE(plat_thread_start(&t, 0, raise_later, &r, &err) == TS_OK);
  char output[64];
  int code = 0;
  uint64_t began = plat_clock_ns();
  int rc = plat_proc_run(argv, token, output, sizeof output, NULL, 60 * TS_NS_PER_S, &code, &err);
  uint64_t took = plat_clock_ns() - began;
  plat_thread_join(t);
  CHECK_INT(rc, TS_EINTERRUPTED);
  CHECK_STR_CONTAINS(err.text, "killed");
  CHECK(took < 30 * TS_NS_PER_S);
  plat_cancel_destroy(token);
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--sleep") == 0) {
    plat_sleep_ns(60 * TS_NS_PER_S); /* the command that the token must kill */
    return 0;
  }
  ts_err err;
  if (plat_interrupt_install(&err) != TS_OK) {
    fprintf(stderr, "%s\n", err.text);
    return 1;
  }
  RUN_CASE(a_raised_token_ends_its_wait_at_once);
  RUN_CASE(another_token_is_untouched);
  RUN_CASE(the_interrupt_ends_every_wait);
  RUN_CASE(a_command_dies_with_its_token);
  return check_summary();
}
