/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_server_quiet.c - quiet mode in the running service, on a fake Windows through a real
   socket or pipe and a real database: an entry left open is restored before anything listens
   (even when another program holds the address), the deadline restores Defender by itself, and a
   slow quiet-status holds up no other request. After a sleep (the knob asleep-s moves the
   service's wall clock on as a sleep does, while the scheduler's wait stood still) the resume that
   the service's control handler passes on makes the scheduler run a schedule that fell due
   meanwhile, within its grace window, and restore quiet mode past its deadline, at once.
   Usage: test_server_quiet ADDRESS DATABASE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "testdb.h"
#include "quiet/quiet.h"
#include "server/server.h"
#include "store/store.h"
#include "threadsoup/plat.h"
#include "threadsoup/plat_knobs.h"
#include "threadsoup/proto.h"
#include "threadsoup/units.h"

static const char *address, *db_path;

/* ---- the fake machine: Defender and a pause, a slow PowerShell on demand ------------------- */

static struct fake_machine {
  volatile int defender_on;
  volatile int64_t paused_until;
  volatile int get_delay_ms;     /* each Defender reading takes this long */
  volatile int probe_on_restore; /* turning Defender back on checks whether the address answers */
  volatile int listening_at_restore; /* 1: something answered on the address then */
  volatile int restores;
} fake;

static int fake_defender_get(int *on, ts_err *err) {
  (void)err;
  if (fake.get_delay_ms)
    plat_sleep_ns((uint64_t)fake.get_delay_ms * TS_NS_PER_MS);
  *on = fake.defender_on;
  return TS_OK;
}

static int fake_defender_set(int on, ts_err *err) {
  if (on && fake.probe_on_restore) {
    plat_ipc_conn *conn = NULL;
    if (plat_ipc_connect(&conn, address, err) == TS_OK) {
      fake.listening_at_restore = 1;
      plat_ipc_close(conn);
    }
  }
  if (on)
    fake.restores++;
  fake.defender_on = on;
  return TS_OK;
}

static int fake_update_get(int64_t *until, ts_err *err) {
  (void)err;
  *until = fake.paused_until;
  return TS_OK;
}

static int fake_update_set(int64_t until, ts_err *err) {
  (void)err;
  fake.paused_until = until;
  return TS_OK;
}

static const char *fake_unavailable(void) { return NULL; }

static const plat_quiet_ops fake_ops = {fake_defender_get,
                                        fake_defender_set,
                                        fake_update_get,
                                        fake_update_set,
                                        fake_unavailable,
                                        NULL,
                                        NULL};

static void fake_reset(void) {
  memset((void *)&fake, 0, sizeof fake);
  fake.defender_on = 1;
}

/* ---- the service in this process ------------------------------------------------------------ */

typedef struct running {
  server *svc;
  plat_thread thread;
} running;

static void serve_main(void *arg) { server_serve(arg); }

static int service_create(server **svc, ts_err *err) {
  server_config config;
  memset(&config, 0, sizeof config);
  snprintf(config.address, sizeof config.address, "%s", address);
  snprintf(config.db_path, sizeof config.db_path, "%s", db_path);
  config.quiet_ops = &fake_ops;
  return server_create(svc, &config, err);
}

static int service_start(running *r) {
  ts_err err;
  memset(r, 0, sizeof *r);
  plat_interrupt_reset();
  if (service_create(&r->svc, &err) != TS_OK) {
    fprintf(stderr, "  cannot start the service: %s\n", err.text);
    return 0;
  }
  if (plat_thread_start(&r->thread, 512 * 1024, serve_main, r->svc, &err) != TS_OK) {
    server_destroy(r->svc);
    return 0;
  }
  return 1;
}

static void service_stop(running *r) {
  server_request_stop(r->svc, "test over");
  plat_thread_join(r->thread);
  server_destroy(r->svc);
  plat_interrupt_reset();
}

/* One request on a fresh connection; 0 when there was no answer. */
typedef struct exchange {
  proto_message request, reply;
  char wire[PROTO_MAX_MESSAGE * 2];
} exchange;

/* Sends x->request, as made, and reads the reply. */
static int exchange_request(exchange *x) {
  ts_err err;
  plat_ipc_conn *conn = NULL;
  if (plat_ipc_connect(&conn, address, &err) != TS_OK)
    return 0;
  size_t n = 0, used = 0;
  int ok = proto_encode(&x->request, x->wire, sizeof x->wire, &n, &err) == TS_OK &&
           plat_ipc_send(conn, x->wire, n, &err) == TS_OK;
  while (ok) {
    size_t consumed = 0, got = 0;
    if (proto_decode(x->wire, used, &consumed, &x->reply, &err) != TS_OK)
      ok = 0;
    else if (consumed)
      break;
    else if (plat_ipc_recv(conn, x->wire + used, sizeof x->wire - used, &got, &err) != TS_OK ||
             got == 0)
      ok = 0;
    else
      used += got;
  }
  plat_ipc_close(conn);
  return ok;
}

static int ask(exchange *x, const char *verb, const char *key, const char *value) {
  ts_err err;
  proto_init(&x->request, PROTO_REQUEST, verb);
  if (key)
    proto_add(&x->request, key, value, &err);
  return exchange_request(x);
}

/* A journal with quiet mode left on, as a crash leaves it. */
static void leave_quiet_mode_on(void) {
  store *s = NULL;
  ts_err err;
  quiet_outcome out;
  remove_db(db_path);
  fake_reset();
  if (store_open(&s, db_path, &err) != TS_OK)
    return;
  quiet_enter(s, &fake_ops, QUIET_BOTH, 3600, "run 4", &out, &err);
  store_close(s);
}

/* ---- cases ---------------------------------------------------------------------------------- */

static void recovery_runs_before_listening(void) {
  leave_quiet_mode_on();
  REQUIRE(fake.defender_on == 0);
  fake.probe_on_restore = 1;
  server *svc = NULL;
  ts_err err;
  plat_interrupt_reset();
  CHECK_INT(service_create(&svc, &err), TS_OK);
  CHECK_INT(fake.restores, 1);
  CHECK_INT(fake.listening_at_restore, 0); /* nothing answered yet when Defender came back */
  CHECK_INT(fake.defender_on, 1);
  CHECK_INT(fake.paused_until, 0);
  CHECK_INT(raw_query(db_path, "SELECT count(*) FROM quiet_journal WHERE restored_at IS NULL"), 0);
  server_destroy(svc);
  plat_interrupt_reset();
}

/* Another program took the address: the service cannot listen, and quiet mode is restored all
   the same. */
static void recovery_runs_when_the_address_is_taken(void) {
  leave_quiet_mode_on();
  REQUIRE(fake.defender_on == 0);
  plat_ipc_server *squatter = NULL;
  ts_err err;
  REQUIRE(plat_ipc_listen(&squatter, address, &err) == TS_OK);
  server *svc = NULL;
  plat_interrupt_reset();
  CHECK(service_create(&svc, &err) != TS_OK);
  CHECK_STR_CONTAINS(err.text, "already listens");
  CHECK_INT(fake.defender_on, 1);
  CHECK_INT(fake.paused_until, 0);
  CHECK_INT(raw_query(db_path, "SELECT count(*) FROM quiet_journal WHERE restored_at IS NULL"), 0);
  plat_ipc_server_close(squatter);
  plat_ipc_server_free(squatter);
  plat_interrupt_reset();
}

static void the_deadline_restores_defender(void) {
  remove_db(db_path);
  fake_reset();
  running r;
  REQUIRE(service_start(&r));
  exchange *x = malloc(sizeof *x);
  REQUIRE(x != NULL);
  CHECK(ask(x, "quiet-on", "seconds", "5"));
  CHECK_INT(x->reply.kind, PROTO_ERROR);
  CHECK_STR_CONTAINS(proto_get(&x->reply, "message"), "10");
  int64_t asked = (int64_t)time(NULL);
  uint64_t began = plat_clock_ns();
  CHECK(ask(x, "quiet-on", "seconds", "10"));
  if (x->reply.kind == PROTO_ERROR && strcmp(x->reply.verb, "denied") == 0) {
    fprintf(stderr, "  skipped: quiet-on needs an administrator (%s)\n",
            proto_get(&x->reply, "message"));
    free(x);
    service_stop(&r);
    return;
  }
  CHECK_INT(x->reply.kind, PROTO_OK);
  CHECK_STR_CONTAINS(proto_get(&x->reply, "text"), "restored by the service at");
  CHECK_INT(fake.defender_on, 0);
  long long restore_by =
      raw_query(db_path, "SELECT restore_by FROM quiet_journal WHERE restored_at IS NULL");
  CHECK(restore_by >= asked + 10 && restore_by <= asked + 12);
  CHECK(ask(x, "quiet-status", NULL, NULL));
  CHECK_STR_CONTAINS(proto_get(&x->reply, "text"), "; restored at ");
  /* status carries the journal's view for a front end: on, its end, the parts it changed. */
  CHECK(ask(x, "status", NULL, NULL));
  CHECK_STR_CONTAINS(proto_get(&x->reply, "quiet"), "on");
  CHECK_INT(atoll(proto_get(&x->reply, "quiet-until") ? proto_get(&x->reply, "quiet-until") : "0"),
            restore_by);
  CHECK_STR_CONTAINS(proto_get(&x->reply, "quiet-defender"), "off");
  /* Nobody turns it off: the scheduler does at the deadline. */
  while (fake.defender_on == 0 && plat_clock_ns() - began < 40 * TS_NS_PER_S)
    plat_sleep_ns(100 * TS_NS_PER_MS);
  double waited = (double)(plat_clock_ns() - began) / TS_NS_PER_S;
  fprintf(stderr, "  Defender back on %.1f s after quiet-on for 10 s\n", waited);
  CHECK_INT(fake.defender_on, 1);
  CHECK(waited >= 8.5);
  CHECK_INT(fake.paused_until, 0);
  /* The journal entry closes just after the machine is restored: allow it that moment. */
  long long open_entries = 1;
  for (int i = 0; i < 100 && open_entries != 0; i++) {
    open_entries =
        raw_query(db_path, "SELECT count(*) FROM quiet_journal WHERE restored_at IS NULL");
    if (open_entries != 0)
      plat_sleep_ns(50 * TS_NS_PER_MS);
  }
  CHECK_INT(open_entries, 0);
  free(x);
  service_stop(&r);
}

typedef struct slow_status {
  exchange x;
  int answered;
  uint64_t took_ns;
} slow_status;

static void ask_status(void *arg) {
  slow_status *s = arg;
  uint64_t began = plat_clock_ns();
  s->answered = ask(&s->x, "quiet-status", NULL, NULL) && s->x.reply.kind == PROTO_OK;
  s->took_ns = plat_clock_ns() - began;
}

static void a_slow_status_holds_up_no_other_request(void) {
  remove_db(db_path);
  fake_reset();
  running r;
  REQUIRE(service_start(&r));
  fake.get_delay_ms = 3000; /* PowerShell on a busy machine */
  slow_status *slow = calloc(1, sizeof *slow);
  exchange *x = malloc(sizeof *x);
  REQUIRE(slow && x);
  plat_thread t;
  ts_err err;
  REQUIRE(plat_thread_start(&t, 256 * 1024, ask_status, slow, &err) == TS_OK);
  plat_sleep_ns(300 * TS_NS_PER_MS);
  /* Requests on the database answer while quiet-status waits for PowerShell. */
  uint64_t began = plat_clock_ns();
  CHECK(ask(x, "schedule-list", NULL, NULL));
  CHECK_INT(x->reply.kind, PROTO_OK);
  CHECK(ask(x, "history", NULL, NULL));
  CHECK_INT(x->reply.kind, PROTO_OK);
  uint64_t other = plat_clock_ns() - began;
  plat_thread_join(t);
  fprintf(stderr, "  two requests took %.2f s while quiet-status took %.2f s\n",
          (double)other / TS_NS_PER_S, (double)slow->took_ns / TS_NS_PER_S);
  CHECK(slow->answered);
  CHECK(slow->took_ns >= 2500 * TS_NS_PER_MS);
  CHECK(other < 1500 * TS_NS_PER_MS);
  /* The next status within 10 s answers from the reading just made. */
  began = plat_clock_ns();
  CHECK(ask(x, "quiet-status", NULL, NULL));
  CHECK_INT(x->reply.kind, PROTO_OK);
  CHECK(plat_clock_ns() - began < 1500 * TS_NS_PER_MS);
  CHECK_STR_CONTAINS(proto_get(&x->reply, "text"), "Defender real-time protection: on");
  fake.get_delay_ms = 0;
  free(x);
  free(slow);
  service_stop(&r);
}

/* ---- after a sleep ----------------------------------------------------------------------------
 */

/* Waits up to 15 s (a busy machine) for `sql` to count at least one row. */
static long long count_within(const char *sql) {
  long long n = 0;
  for (int i = 0; i < 150 && (n = raw_query(db_path, sql)) < 1; i++)
    plat_sleep_ns(100 * TS_NS_PER_MS);
  return n;
}

/* The value of the reply's first field `key`, or "". */
static const char *field(const exchange *x, const char *key) {
  const char *v = proto_get(&x->reply, key);
  return v ? v : "";
}

static void a_schedule_due_while_asleep_runs_at_resume(void) {
  remove_db(db_path);
  fake_reset();
  running r;
  REQUIRE(service_start(&r));
  exchange *x = malloc(sizeof *x);
  REQUIRE(x != NULL);
  /* A `once` at a whole minute at least 90 s from now, with 2 minutes' grace. */
  time_t due = time(NULL) + 90;
  due += 60 - due % 60;
  char when[64];
  strftime(when, sizeof when, "once %Y-%m-%d %H:%M", localtime(&due));
  proto_init(&x->request, PROTO_REQUEST, "schedule-add");
  ts_err err;
  proto_add(&x->request, "when", when, &err);
  proto_add(&x->request, "plan",
            "conditions = baseline\nbench = builtin-st\nreps = 1\nwarmup = 0\n", &err);
  proto_add(&x->request, "grace", "2m", &err);
  CHECK(exchange_request(x));
  CHECK_INT(x->reply.kind, PROTO_OK);
  /* The scheduler has the schedule and waits for it; its wake timer is armed for it, where this
     process may have one. */
  plat_sleep_ns(500 * TS_NS_PER_MS);
  CHECK(ask(x, "schedule-list", NULL, NULL));
  fprintf(stderr, "  wake: %s\n", field(x, "wake"));
  if (strncmp(field(x, "wake"), "n/a: ", 5) != 0)
    CHECK_STR_CONTAINS(field(x, "wake"), "armed: wakes this machine at ");
  /* A connection's end wakes the scheduler too: let that pass, so that only the resume can. */
  plat_sleep_ns(1500 * TS_NS_PER_MS);
  /* The machine sleeps from now until a minute past the due time: the scheduler's wait did not
     count it, and at its end the schedule would be more than its grace late (missed). The resume
     has the scheduler read the clock at once: one minute late, within the grace. */
  int64_t asleep = (int64_t)(due - time(NULL)) + 60;
  plat_knob_set_number(PLAT_KNOB_ASLEEP_S, (long)asleep);
  uint64_t woke = plat_clock_ns();
  server_clock_changed(r.svc, "the machine woke from sleep (test)");
  long long started =
      count_within("SELECT count(*) FROM schedule_event WHERE what = 'started' AND run_id > 0");
  double took = (double)(plat_clock_ns() - woke) / TS_NS_PER_S;
  fprintf(stderr, "  started %.1f s after the resume\n", took);
  CHECK_INT(started, 1);
  CHECK(took < 15.0);
  CHECK_INT(raw_query(db_path, "SELECT count(*) FROM schedule_event WHERE what = 'missed'"), 0);
  CHECK_INT(raw_query(db_path, "SELECT count(*) FROM run WHERE schedule_id IS NOT NULL"), 1);
  /* A once schedule is done: nothing to wake for. */
  CHECK(ask(x, "schedule-list", NULL, NULL));
  if (strncmp(field(x, "wake"), "n/a: ", 5) != 0)
    CHECK_STR_CONTAINS(field(x, "wake"), "not armed");
  plat_knob_reset(PLAT_KNOB_ASLEEP_S);
  free(x);
  service_stop(&r);
}

static void quiet_mode_past_its_deadline_is_restored_at_resume(void) {
  remove_db(db_path);
  fake_reset();
  running r;
  REQUIRE(service_start(&r));
  exchange *x = malloc(sizeof *x);
  REQUIRE(x != NULL);
  CHECK(ask(x, "quiet-on", "hours", "1"));
  if (x->reply.kind == PROTO_ERROR && strcmp(x->reply.verb, "denied") == 0) {
    fprintf(stderr, "  skipped: quiet-on needs an administrator (%s)\n", field(x, "message"));
    free(x);
    service_stop(&r);
    return;
  }
  CHECK_INT(x->reply.kind, PROTO_OK);
  CHECK_INT(fake.defender_on, 0);
  /* The lid was closed for two hours: the scheduler's one-hour wait stood still meanwhile. (A
     connection's end wakes the scheduler too: let that pass, so that only the resume can.) */
  plat_sleep_ns(1500 * TS_NS_PER_MS);
  plat_knob_set_number(PLAT_KNOB_ASLEEP_S, 2 * 3600);
  uint64_t woke = plat_clock_ns();
  server_clock_changed(r.svc, "the machine woke from sleep (test)");
  while (fake.defender_on == 0 && plat_clock_ns() - woke < 15 * TS_NS_PER_S)
    plat_sleep_ns(50 * TS_NS_PER_MS);
  fprintf(stderr, "  Defender back on %.1f s after the resume\n",
          (double)(plat_clock_ns() - woke) / TS_NS_PER_S);
  CHECK_INT(fake.defender_on, 1);
  CHECK_INT(fake.paused_until, 0);
  CHECK_INT(count_within("SELECT count(*) FROM quiet_journal WHERE restored_at IS NOT NULL"), 1);
  plat_knob_reset(PLAT_KNOB_ASLEEP_S);
  free(x);
  service_stop(&r);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_server_quiet ADDRESS DATABASE\n");
    return 2;
  }
  address = argv[1];
  db_path = argv[2];
  RUN_CASE(recovery_runs_before_listening);
  RUN_CASE(recovery_runs_when_the_address_is_taken);
  RUN_CASE(a_slow_status_holds_up_no_other_request);
  RUN_CASE(the_deadline_restores_defender);
  RUN_CASE(a_schedule_due_while_asleep_runs_at_resume);
  RUN_CASE(quiet_mode_past_its_deadline_is_restored_at_resume);
  return check_summary();
}
