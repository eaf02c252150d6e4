/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_service.c - the service end to end, as a separate process on a real socket or pipe: it
   answers, runs load counted by the OS in its own process, survives thousands of random and
   malformed messages and 50 clients at once, and after a kill -9 mid-run leaves no load behind,
   keeps an intact database and resumes the run when it starts again. Clients cannot crash or
   stall it: subscribers joining and leaving beside one that never reads, a flood of idle
   connections (and, natively, one from another user over the per-user limit), a half-closed
   partial message.
   Usage: test_service THREADSOUP ADDRESS DATABASE
          test_service --flood ADDRESS COUNT ACCEPTED TIMEOUT_MS (the flood, run as another user) */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "threadsoup/call.h"
#include "engine/engine.h"
#include "store/store.h"
#include "threadsoup/plat.h"
#include "threadsoup/proto.h"
#include "threadsoup/rng.h"
#include "threadsoup/units.h"

#ifndef _WIN32
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#endif

static const char *exe, *address, *db_path, *self;
static plat_proc daemon_proc;

/* ---- a minimal client: the test speaks the protocol itself ---- */

typedef struct conversation {
  plat_ipc_conn *conn;
  char in[PROTO_MAX_MESSAGE * 2];
  size_t used;
  char out[PROTO_MAX_MESSAGE];
  proto_message request;
  proto_message reply;
  char why[200]; /* why the last connection failed, for the report of a failure */
} conversation;

static int converse_open(conversation *c) {
  ts_err err;
  c->used = 0;
  if (plat_ipc_connect(&c->conn, address, &err) == TS_OK)
    return 1;
  snprintf(c->why, sizeof c->why, "cannot connect: %s", err.text);
  return 0;
}

/* Reads one message from c->conn into c->reply (a reply or an event, whichever comes); 0 at the
   end of the connection or on malformed bytes. */
static int read_one(conversation *c) {
  ts_err err;
  for (;;) {
    size_t consumed = 0, got = 0;
    if (proto_decode(c->in, c->used, &consumed, &c->reply, &err) != TS_OK)
      return 0;
    if (consumed) {
      memmove(c->in, c->in + consumed, c->used - consumed);
      c->used -= consumed;
      return 1;
    }
    if (plat_ipc_recv(c->conn, c->in + c->used, sizeof c->in - c->used, &got, &err) != TS_OK) {
      snprintf(c->why, sizeof c->why, "cannot read: %s", err.text);
      return 0;
    }
    if (got == 0) {
      snprintf(c->why, sizeof c->why, "the service closed the connection");
      return 0;
    }
    c->used += got;
  }
}

/* Sends c->request and reads one reply into c->reply; 0 when the connection failed. */
static int converse(conversation *c) {
  ts_err err;
  size_t n = 0;
  if (proto_encode(&c->request, c->out, sizeof c->out, &n, &err) != TS_OK ||
      plat_ipc_send(c->conn, c->out, n, &err) != TS_OK) {
    snprintf(c->why, sizeof c->why, "cannot send: %s", err.text);
    return 0;
  }
  return read_one(c);
}

/* Sends raw bytes (what proto_add would refuse to build) on a fresh connection and reads the one
   reply into c->reply; 0 when the connection failed. */
static int ask_raw(conversation *c, const char *text) {
  ts_err err;
  if (!converse_open(c))
    return 0;
  int ok = plat_ipc_send(c->conn, text, strlen(text), &err) == TS_OK;
  while (ok) {
    size_t consumed = 0, got = 0;
    if (proto_decode(c->in, c->used, &consumed, &c->reply, &err) != TS_OK) {
      ok = 0;
      break;
    }
    if (consumed)
      break;
    if (plat_ipc_recv(c->conn, c->in + c->used, sizeof c->in - c->used, &got, &err) != TS_OK ||
        got == 0)
      ok = 0;
    c->used += got;
  }
  plat_ipc_close(c->conn);
  return ok;
}

/* One request on a fresh connection. */
static int ask(conversation *c, const char *verb, const char *key, const char *value) {
  ts_err err;
  if (!converse_open(c))
    return 0;
  proto_init(&c->request, PROTO_REQUEST, verb);
  if (key)
    proto_add(&c->request, key, value, &err);
  int ok = converse(c);
  plat_ipc_close(c->conn);
  return ok;
}

static void wait_ready(void);

static void start_daemon(void) {
  const char *argv[] = {exe,     "service", "run",   "--console", "--socket",
                        address, "--db",    db_path, NULL};
  ts_err err;
  CHECK_INT(plat_proc_spawn(&daemon_proc, argv, &err), TS_OK);
  wait_ready();
}

static void wait_ready(void) {
  /* Ready when it answers. */
  conversation *c = malloc(sizeof *c);
  int ready = 0;
  for (int i = 0; i < 300 && !ready; i++) {
    plat_sleep_ns(50 * TS_NS_PER_MS);
    ready = ask(c, "status", NULL, NULL) && c->reply.kind == PROTO_OK;
  }
  free(c);
  CHECK(ready);
}

static void kill_daemon(void) {
  ts_err err;
  int code = 0;
  plat_proc_kill(&daemon_proc, &err);
  plat_proc_wait(&daemon_proc, &code, &err);
}

static long count_children(long parent) { return load_count_children_of(parent, NULL); }

/* The service's thread count as the OS reports it once it holds still: a connection's thread
   lingers for a moment after its client hangs up. Waits (up to 5 s) for `expected` when >= 0. */
static long settled_threads(long expected) {
  ts_err err;
  long last = -2, now = plat_process_thread_count(daemon_proc.pid, &err);
  for (int i = 0; i < 100 && (now != last || (expected >= 0 && now != expected)); i++) {
    plat_sleep_ns(50 * TS_NS_PER_MS);
    last = now;
    now = plat_process_thread_count(daemon_proc.pid, &err);
  }
  return now;
}

/* The service's own threads, without the connection threads of clients that just hung up: the
   fewest seen over a second (under Wine a finished connection's thread may linger for longer
   than one settle interval, and a count taken then is one too many for good). */
static long resting_threads(void) {
  long fewest = settled_threads(-1);
  for (int i = 0; i < 10; i++) {
    plat_sleep_ns(100 * TS_NS_PER_MS);
    ts_err err;
    long now = plat_process_thread_count(daemon_proc.pid, &err);
    if (now > 0 && now < fewest)
      fewest = now;
  }
  return fewest;
}

/* ---- cases ---- */

/* A field that must be a whole number: its value, or -1 when it is missing or not a number. */
static long field_number(const proto_message *m, const char *key) {
  const char *v = proto_get(m, key);
  char *end = NULL;
  long n = v ? strtol(v, &end, 10) : -1;
  return v && end != v && *end == '\0' ? n : -1;
}

static conversation conv;

static void answers_and_runs_load_in_its_own_process(void) {
  CHECK(ask(&conv, "hello", "version", "1"));
  CHECK_INT(conv.reply.kind, PROTO_OK);
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "server"), "threadsoup");
  CHECK(ask(&conv, "hello", "version", "7"));
  CHECK_INT(conv.reply.kind, PROTO_ERROR);
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "message"), "version 7");

  long before = resting_threads();
  CHECK(ask(&conv, "load-start", "spec", "sleep:500"));
  CHECK_INT(conv.reply.kind, PROTO_OK);
  CHECK_INT(settled_threads(before + 500), before + 500);
  /* status gives the load in numbers for a front end: 500 sleepers at the default 0.5 s
     interval ask for 1,000 wake-ups per second; no processes, no run, quiet mode off. */
  CHECK(ask(&conv, "status", NULL, NULL));
  CHECK_INT(field_number(&conv.reply, "load-threads"), 500);
  CHECK_INT(field_number(&conv.reply, "load-processes"), 0);
  CHECK_INT(field_number(&conv.reply, "load-wakeups"), 1000);
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "run"), "none");
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "quiet"), "off");
  CHECK(proto_get(&conv.reply, "quiet-until") == NULL);
  CHECK(ask(&conv, "census", NULL, NULL));
  CHECK(atol(proto_get(&conv.reply, "service-threads") ? proto_get(&conv.reply, "service-threads")
                                                       : "0") >= 500);
  CHECK(ask(&conv, "load-start", "spec", "sleep:5"));
  CHECK_INT(conv.reply.kind, PROTO_ERROR);
  CHECK_STR_CONTAINS(conv.reply.verb, "busy");
  CHECK(ask(&conv, "load-stop", NULL, NULL));
  CHECK_INT(conv.reply.kind, PROTO_OK);
  CHECK_INT(settled_threads(before), before);
  CHECK(ask(&conv, "status", NULL, NULL));
  CHECK_INT(field_number(&conv.reply, "load-threads"), 0);
  CHECK_INT(field_number(&conv.reply, "load-wakeups"), 0);
}

/* A tray's answer to the idle question counts when it comes from the console's session: this
   client is in it (under Wine, session 1 is the console's; POSIX has no sessions). */
/* The catalog through the clients' own call (call.c): the presets, scenarios and benchmarks. */
static void catalog_through_the_clients_call(void) {
  static proto_message request, reply;
  ts_err err;
  proto_init(&request, PROTO_REQUEST, "catalog");
  REQUIRE(call_service(address, &request, &reply, &err) == TS_OK);
  CHECK_INT(reply.kind, PROTO_OK);
  int cost = 0, calibrate = 0, sleep = 0, builtin = 0;
  for (int i = 0; i < reply.field_count; i++) {
    const char *v = proto_value(&reply, i);
    cost |= strcmp(reply.fields[i].key, "preset") == 0 && strncmp(v, "cost|", 5) == 0;
    calibrate |= strcmp(reply.fields[i].key, "preset") == 0 && strncmp(v, "calibrate|", 10) == 0;
    sleep |= strcmp(reply.fields[i].key, "scenario") == 0 && strncmp(v, "sleep|", 6) == 0;
    builtin |= strcmp(reply.fields[i].key, "bench") == 0 && strncmp(v, "builtin-st|", 11) == 0;
  }
  CHECK(cost && calibrate && sleep && builtin);
}

static void idle_answer_counts_from_the_console(void) {
  CHECK(ask(&conv, "user-idle", "seconds", "120"));
  CHECK_INT(conv.reply.kind, PROTO_OK);
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "counted"), "yes");
  CHECK(ask(&conv, "user-idle", "seconds", "-5"));
  CHECK_INT(conv.reply.kind, PROTO_ERROR);
  CHECK_STR_CONTAINS(conv.reply.verb, "usage");
}

static void bad_requests_get_reasons(void) {
  CHECK(ask(&conv, "teleport", NULL, NULL));
  CHECK_INT(conv.reply.kind, PROTO_ERROR);
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "message"), "unknown request 'teleport'");
  CHECK(ask(&conv, "load-start", "spec", "sleep:lots"));
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "message"), "'lots' is not a whole number");
  CHECK(ask(&conv, "load-start", NULL, NULL));
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "message"), "needs field 'spec'");
  CHECK(ask(&conv, "report", "run", "-3"));
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "message"), "out of range");
  /* Every required field is there: the value is judged. */
  CHECK(ask_raw(&conv, "TS1 request schedule-add\nwhen: every full moon\nplan: quick\n\n"));
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "message"), "not a schedule");
  /* A required field is missing: named before any other field's value is judged. */
  CHECK(ask(&conv, "schedule-add", "when", "every full moon"));
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "message"), "schedule-add needs field 'plan'");
  CHECK(ask(&conv, "run-start", "plan", "conditions = baseline\nreps = -1\n"));
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "message"), "plan:2: reps");
}

/* A `once` in the past is refused, naming the time here; a boot schedule added while the service
   runs is for its next start; and a removed schedule's id is never given again. */
static void schedules_are_checked_and_ids_never_reused(void) {
  CHECK(ask_raw(&conv, "TS1 request schedule-add\nwhen: once 2001-02-03 04:05\nplan: quick\n\n"));
  CHECK_INT(conv.reply.kind, PROTO_ERROR);
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "message"),
                     "once 2001-02-03 04:05 is in the past (it is ");
  CHECK(ask_raw(&conv, "TS1 request schedule-add\nwhen: boot 7m\nplan: quick\n\n"));
  CHECK_INT(conv.reply.kind, PROTO_OK);
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "next"), "at the next service start");
  long long boot_id = atoll(proto_get(&conv.reply, "schedule"));
  CHECK(ask_raw(&conv, "TS1 request schedule-add\nwhen: daily 02:58\nplan: quick\n\n"));
  CHECK_INT(conv.reply.kind, PROTO_OK);
  long long removed = atoll(proto_get(&conv.reply, "schedule"));
  CHECK(removed > boot_id);
  char text[64];
  snprintf(text, sizeof text, "%lld", removed);
  CHECK(ask(&conv, "schedule-remove", "schedule", text));
  CHECK_INT(conv.reply.kind, PROTO_OK);
  CHECK(ask_raw(&conv, "TS1 request schedule-add\nwhen: daily 02:59\nplan: quick\n\n"));
  CHECK_INT(conv.reply.kind, PROTO_OK);
  CHECK_INT(atoll(proto_get(&conv.reply, "schedule")), removed + 1);
  CHECK(ask(&conv, "schedule-list", NULL, NULL));
  int boot_row_says_next_start = 0;
  for (int i = 0; i < conv.reply.field_count; i++)
    if (strstr(proto_value(&conv.reply, i), "|boot 7m|next service start|"))
      boot_row_says_next_start = 1;
  CHECK(boot_row_says_next_start);
  /* Leave no schedule behind for the other cases. */
  snprintf(text, sizeof text, "%lld", boot_id);
  CHECK(ask(&conv, "schedule-remove", "schedule", text));
  snprintf(text, sizeof text, "%lld", removed + 1);
  CHECK(ask(&conv, "schedule-remove", "schedule", text));
}

/* `record` names get the command line's rules: a bench that is not UTF-8 (lead byte FF), one of
   60,000 bytes, one with a line break or a carriage return are all refused, saying why. */
static void record_checks_names_as_the_command_line_does(void) {
  CHECK(ask_raw(&conv, "TS1 request record\nrun: 1\nbench: \xff\x80\x80\ncondition: baseline\n"
                       "score: 1\n\n"));
  CHECK_INT(conv.reply.kind, PROTO_ERROR);
  CHECK_STR_CONTAINS(conv.reply.verb, "malformed");
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "message"), "field 'bench': the value is not UTF-8");
  /* Sent raw: proto_add itself keeps a value to half a message. */
  static char huge[60200];
  int at = snprintf(huge, sizeof huge, "TS1 request record\nrun: 1\ncondition: baseline\nbench: ");
  memset(huge + at, 'x', 60000);
  snprintf(huge + at + 60000, sizeof huge - (size_t)at - 60000, "\nscore: 1\n\n");
  CHECK(ask_raw(&conv, huge));
  CHECK_INT(conv.reply.kind, PROTO_ERROR);
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "message"),
                     "bench: 60000 bytes long (accepted: 1 to 63 bytes of UTF-8 text");
  static const struct {
    const char *bench, *unit, *says;
  } bad[] = {
      {"cpuz\nsingle", NULL, "bench 'cpuz\\x0Asingle': a control character at byte 5"},
      {"cpuz\rsingle", NULL, "a control character at byte 5"},
      {"cpuz-single", "points\t2", "unit 'points\\x092': a control character at byte 7"},
      {"cpuz,single", NULL, "a comma at byte 5"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ts_err err;
    CHECK(converse_open(&conv));
    proto_init(&conv.request, PROTO_REQUEST, "record");
    proto_add(&conv.request, "run", "1", &err);
    CHECK_INT(proto_add(&conv.request, "bench", bad[i].bench, &err), TS_OK);
    proto_add(&conv.request, "condition", "baseline", &err);
    proto_add(&conv.request, "score", "1", &err);
    if (bad[i].unit)
      proto_add(&conv.request, "unit", bad[i].unit, &err);
    CHECK(converse(&conv));
    plat_ipc_close(conv.conn);
    CHECK_INT(conv.reply.kind, PROTO_ERROR);
    CHECK_STR_CONTAINS(proto_get(&conv.reply, "message"), bad[i].says);
  }
}

/* run: new makes a run of plan manual for the score, as `threadsoup record --run new` does; a
   word other than new is refused naming what is accepted. Last, as it adds a run. */
static void record_makes_a_new_run(void) {
  static const char *const runs[] = {"new", "newer"};
  for (size_t i = 0; i < 2; i++) {
    ts_err err;
    CHECK(converse_open(&conv));
    proto_init(&conv.request, PROTO_REQUEST, "record");
    proto_add(&conv.request, "run", runs[i], &err);
    proto_add(&conv.request, "bench", "builtin-st", &err);
    proto_add(&conv.request, "condition", "baseline", &err);
    proto_add(&conv.request, "score", "123.4", &err);
    CHECK(converse(&conv));
    plat_ipc_close(conv.conn);
    if (i == 0) {
      CHECK_INT(conv.reply.kind, PROTO_OK);
      CHECK(proto_get(&conv.reply, "trial") != NULL);
      const char *run = proto_get(&conv.reply, "run");
      CHECK(run != NULL && atol(run) >= 1);
    } else {
      CHECK_INT(conv.reply.kind, PROTO_ERROR);
      CHECK_STR_CONTAINS(proto_get(&conv.reply, "message"), "run: 'newer' is not a whole number");
    }
  }
}

/* Text the protocol cannot carry as it is, stored where any database may hold it (an imported
   run's plan name, host, detail, condition and benchmark): the service's history lists that run
   and the runs after it, each row one line of six columns; its report is sent in every format. */
static void one_strange_run_never_blanks_the_history(void) {
  static const char strange[] = "a\x1b[31mb\nc\td|e\xE2\x80\xAE"
                                "f";
  store *db;
  ts_err err;
  REQUIRE(store_open(&db, db_path, &err) == TS_OK);
  store_run_info info = {strange, "name = manual\n",
                         0,       "2026-01-01T00:00:00Z",
                         strange, strange,
                         strange, 1,
                         "0.0.0", NULL,
                         0};
  int64_t run_id = 0, trial_id = 0;
  CHECK_INT(store_run_create_manual(db, &info, &run_id, &err), TS_OK);
  CHECK_INT(store_trial_record(db, run_id, strange, strange, 1, strange, "2026-01-01T00:00:01Z",
                               &trial_id, &err),
            TS_OK);
  CHECK_INT(store_run_end(db, run_id, STORE_RUN_FINISHED, strange, "2026-01-01T00:00:02Z", &err),
            TS_OK);
  store_close(db);
  CHECK(run_id > 1); /* runs before it (earlier cases) follow it in the list, newest first */

  CHECK(ask(&conv, "history", "limit", "200"));
  CHECK_INT(conv.reply.kind, PROTO_OK);
  int rows = 0, strange_seen = 0, first_seen = 0;
  for (int i = 0; i < conv.reply.field_count; i++) {
    if (strcmp(conv.reply.fields[i].key, "run") != 0)
      continue;
    const char *row = proto_value(&conv.reply, i);
    rows++;
    CHECK(strchr(row, '\n') == NULL && strchr(row, '\t') == NULL && strchr(row, '\x1b') == NULL);
    CHECK(strstr(row, "\xE2\x80\xAE") == NULL);
    int bars = 0;
    for (const char *c = row; (c = strchr(c, '|')) != NULL; c++)
      bars++;
    if (atoll(row) == run_id) {
      strange_seen = 1;
      /* Each character the row cannot carry is U+FFFD, visibly; the detail (last) keeps its '|'. */
      CHECK_STR_CONTAINS(row, "|a\xEF\xBF\xBD[31mb\xEF\xBF\xBD"
                              "c\xEF\xBF\xBD"
                              "d\xEF\xBF\xBD"
                              "e\xEF\xBF\xBD"
                              "f|finished|1/1|a\xEF\xBF\xBD[31mb\xEF\xBF\xBD"
                              "c\xEF\xBF\xBD"
                              "d|e\xEF\xBF\xBD"
                              "f");
      CHECK_INT(bars, 6);
    } else {
      CHECK_INT(bars, 5);
    }
    first_seen |= atoll(row) == 1;
  }
  CHECK(strange_seen);
  CHECK(first_seen);
  CHECK_INT(rows, (int)run_id);

  static const char *const formats[] = {"text", "csv", "json", "html"};
  char id[24];
  snprintf(id, sizeof id, "%lld", (long long)run_id);
  for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
    CHECK(converse_open(&conv));
    proto_init(&conv.request, PROTO_REQUEST, "report");
    proto_add(&conv.request, "run", id, &err);
    proto_add(&conv.request, "format", formats[i], &err);
    CHECK(converse(&conv));
    plat_ipc_close(conv.conn);
    if (conv.reply.kind != PROTO_OK)
      fprintf(stderr, "  report %s: %s\n", formats[i],
              proto_get(&conv.reply, "message") ? proto_get(&conv.reply, "message") : "?");
    CHECK_INT(conv.reply.kind, PROTO_OK);
    CHECK(proto_get(&conv.reply, "text") && strlen(proto_get(&conv.reply, "text")) > 100);
  }
}

/* Thousands of random and mutated messages; the service must keep answering. */
static void survives_fuzzing(void) {
  static const char *const seeds[] = {
      "TS1 request status\n\n",
      "TS1 request load-start\nspec: sleep:3\n\n",
      "TS1 request history\nlimit: 5\n\n",
      "TS1 request schedule-list\n\n",
      "TS1 request report\nrun: 1\n\n",
      "TS1 request record\nrun: 1\nbench: x\ncondition: baseline\nscore: 1\n\n",
  };
  uint64_t seed = 7;
  char buf[1024];
  int sent = 0;
  ts_err err;
  for (int round = 0; round < 3000; round++) {
    const char *base = seeds[round % (sizeof seeds / sizeof seeds[0])];
    size_t len = strlen(base);
    memcpy(buf, base, len);
    int mode = (int)(ts_splitmix64(&seed) % 3);
    if (mode == 0) {
      for (int f = 0; f < 1 + (int)(ts_splitmix64(&seed) % 6); f++)
        buf[ts_splitmix64(&seed) % len] = (char)ts_splitmix64(&seed);
    } else if (mode == 1) {
      len = 1 + ts_splitmix64(&seed) % (sizeof buf - 1);
      for (size_t i = 0; i < len; i++)
        buf[i] = (char)ts_splitmix64(&seed);
    } /* mode 2: the valid message as it is */
    plat_ipc_conn *conn;
    if (plat_ipc_connect(&conn, address, &err) != TS_OK)
      continue;
    if (plat_ipc_send(conn, buf, len, &err) == TS_OK)
      sent++;
    /* Half the time hang up at once; otherwise read what comes back. */
    if (round % 2 == 0) {
      char reply[4096];
      size_t got;
      plat_ipc_shutdown(conn);
      plat_ipc_recv(conn, reply, sizeof reply, &got, &err);
    }
    plat_ipc_close(conn);
  }
  fprintf(stderr, "  sent %d fuzzed messages\n", sent);
  CHECK(sent > 2900);
  /* A fuzzed load-start that got through may still be on its way (its client hung up, its
     request is answered all the same): stop loads until the service has stayed without one. */
  int quiet_rounds = 0;
  for (int i = 0; i < 100 && quiet_rounds < 3; i++) {
    ask(&conv, "load-stop", NULL, NULL);
    plat_sleep_ns(100 * TS_NS_PER_MS);
    CHECK(ask(&conv, "status", NULL, NULL));
    CHECK_INT(conv.reply.kind, PROTO_OK);
    const char *running = proto_get(&conv.reply, "load");
    quiet_rounds = running && strcmp(running, "none") == 0 ? quiet_rounds + 1 : 0;
  }
  CHECK_INT(quiet_rounds, 3);
}

typedef struct poller {
  plat_thread thread;
  int answered;
  int failed;
  uint64_t longest_ns;     /* the longest wait for one answer */
  char first_failure[160]; /* what the first failed request got */
  volatile int *stop;
} poller;

static void poll_status(void *arg) {
  poller *p = arg;
  conversation *c = malloc(sizeof *c);
  while (c && !*p->stop) {
    uint64_t sent = plat_clock_ns();
    int asked = ask(c, "status", NULL, NULL);
    if (plat_clock_ns() - sent > p->longest_ns)
      p->longest_ns = plat_clock_ns() - sent;
    if (asked && c->reply.kind == PROTO_OK) {
      p->answered++;
      continue;
    }
    if (p->failed++ == 0)
      snprintf(p->first_failure, sizeof p->first_failure, "%s",
               !asked                            ? c->why
               : proto_get(&c->reply, "message") ? proto_get(&c->reply, "message")
                                                 : c->reply.verb);
  }
  free(c);
}

/* 50 clients poll status while a run goes on: none is refused, and the run finishes. */
static void fifty_clients_during_a_run(void) {
  CHECK(ask(&conv, "run-start", "plan",
            "conditions = baseline, sleep:100\nbench = builtin-st\nreps = 3\nwarmup = 0\n"
            "settle = 100ms\nwork-scale = 0.05\nquiet-cpu = off\n"));
  CHECK_INT(conv.reply.kind, PROTO_OK);
  /* The reply says what the plan can detect, from the service's database (history or not). */
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "estimate"), "builtin-st");
  static poller pollers[50];
  static volatile int stop = 0;
  ts_err err;
  int started = 0;
  for (int i = 0; i < 50; i++) {
    pollers[i].stop = &stop;
    if (plat_thread_start(&pollers[i].thread, 256 * 1024, poll_status, &pollers[i], &err) == TS_OK)
      started++;
  }
  CHECK_INT(started, 50);
  int finished = 0;
  for (int i = 0; i < 600 && !finished; i++) {
    plat_sleep_ns(100 * TS_NS_PER_MS);
    conversation *c = malloc(sizeof *c);
    finished = ask(c, "status", NULL, NULL) && strcmp(proto_get(&c->reply, "run"), "none") == 0;
    free(c);
  }
  stop = 1;
  long answered = 0, failed = 0;
  const char *why = "";
  for (int i = 0; i < started; i++) {
    plat_thread_join(pollers[i].thread);
    answered += pollers[i].answered;
    failed += pollers[i].failed;
    if (pollers[i].failed && !why[0])
      why = pollers[i].first_failure;
  }
  fprintf(stderr, "  50 clients: %ld status answers, %ld failures while the run went on%s%s\n",
          answered, failed, why[0] ? "; first: " : "", why);
  CHECK(finished);
  CHECK(answered > 100); /* a busy shared machine (or Wine) answers fewer; none may fail */
  CHECK_INT(failed, 0);
}

/* 128 connections held open: the 129th waits about a second for a slot, then is told why it is
   turned away; once they close, the service answers again. */
static void full_house_turns_one_away(void) {
  enum { HELD = 128 };
  static conversation held[HELD];
  int open = 0;
  for (int i = 0; i < HELD; i++) {
    if (!converse_open(&held[i]))
      break;
    open++;
    proto_init(&held[i].request, PROTO_REQUEST, "hello");
    if (!converse(&held[i]) || held[i].reply.kind != PROTO_OK)
      break; /* answered: its slot is taken */
  }
  CHECK_INT(open, HELD);
  uint64_t t0 = plat_clock_ns();
  CHECK(!ask(&conv, "status", NULL, NULL) || conv.reply.kind == PROTO_ERROR);
  uint64_t waited = plat_clock_ns() - t0;
  CHECK_STR_CONTAINS(conv.reply.verb, "busy");
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "message") ? proto_get(&conv.reply, "message") : "",
                     "too many clients at once");
  CHECK(waited >= 900 * TS_NS_PER_MS);
  for (int i = 0; i < open; i++)
    plat_ipc_close(held[i].conn);
  int answered = 0;
  for (int i = 0; i < 100 && !answered; i++)
    answered = ask(&conv, "status", NULL, NULL) && conv.reply.kind == PROTO_OK;
  CHECK(answered);
}

/* The report of the run just finished, in two formats, through the service. */
static void reports_through_the_service(void) {
  ts_err err;
  CHECK(converse_open(&conv));
  proto_init(&conv.request, PROTO_REQUEST, "report");
  proto_add(&conv.request, "run", "1", &err);
  proto_add(&conv.request, "format", "json", &err);
  CHECK(converse(&conv));
  CHECK_INT(conv.reply.kind, PROTO_OK);
  CHECK(proto_get(&conv.reply, "text") && proto_get(&conv.reply, "text")[0] == '{');
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "text"), "\"benchmarks\"");
  proto_init(&conv.request, PROTO_REQUEST, "report");
  proto_add(&conv.request, "run", "1", &err);
  proto_add(&conv.request, "format", "pdf", &err);
  CHECK(converse(&conv));
  CHECK_INT(conv.reply.kind, PROTO_ERROR);
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "message"), "accepted: text, csv, json, html");
  plat_ipc_close(conv.conn);
}

/* Waits (up to 60 s) until the service reports no running experiment; 1 when it does. */
static int wait_no_run(void) {
  for (int i = 0; i < 600; i++) {
    if (ask(&conv, "status", NULL, NULL) && proto_get(&conv.reply, "run") &&
        strcmp(proto_get(&conv.reply, "run"), "none") == 0)
      return 1;
    plat_sleep_ns(100 * TS_NS_PER_MS);
  }
  return 0;
}

/* A user's run-stop stops that run alone, through the run's own cancel token: the run is kept as
   interrupted (not to be resumed by the service), and the next load is not cut short by a stop
   meant for the run (a ramp of 20 threads over 300 ms would end at once on a leftover one). */
static void run_stop_stops_only_that_run(void) {
  CHECK(ask(&conv, "run-stop", NULL, NULL));
  CHECK_INT(conv.reply.kind, PROTO_ERROR);
  CHECK_STR_CONTAINS(conv.reply.verb, "usage");
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "message"), "no experiment is running");
  /* run-estimate reads the same history and runs nothing; a bad plan is refused. */
  CHECK(ask(&conv, "run-estimate", "plan",
            "conditions = baseline, sleep:20\nbench = builtin-st, builtin-mt:3\nreps = 50\n"
            "warmup = 0\nsettle = 300ms\nwork-scale = 0.05\nquiet-cpu = off\n"));
  CHECK_INT(conv.reply.kind, PROTO_OK);
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "estimate"),
                     "builtin-st: this plan can tell effects of");
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "estimate"),
                     "\nno history of builtin-mt:3 in the service's database yet");
  CHECK(ask(&conv, "status", NULL, NULL));
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "run"), "none");
  CHECK(ask(&conv, "run-estimate", "plan", "conditions = baseline\nreps = -1\n"));
  CHECK_INT(conv.reply.kind, PROTO_ERROR);
  CHECK_STR_CONTAINS(conv.reply.verb, "usage");
  CHECK(ask(&conv, "run-start", "plan",
            "conditions = baseline, sleep:20\nbench = builtin-st\nreps = 50\nwarmup = 0\n"
            "settle = 300ms\nwork-scale = 0.05\nquiet-cpu = off\n"));
  REQUIRE(conv.reply.kind == PROTO_OK);
  /* fifty_clients_during_a_run's finished run of builtin-st at this work scale is history. */
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "estimate"),
                     "builtin-st: this plan can tell effects of");
  long run_id = atol(proto_get(&conv.reply, "run") ? proto_get(&conv.reply, "run") : "0");
  CHECK(ask(&conv, "load-start", "spec", "sleep:5"));
  CHECK_STR_CONTAINS(conv.reply.verb, "busy");
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "message"), "is running");
  /* The time left is "unknown" before the first trial of the sitting, then whole seconds. */
  CHECK(ask(&conv, "status", NULL, NULL));
  CHECK_INT(field_number(&conv.reply, "run"), run_id);
  const char *eta = proto_get(&conv.reply, "run-eta");
  CHECK(eta && (strcmp(eta, "unknown") == 0 || field_number(&conv.reply, "run-eta") >= 0));
  CHECK(ask(&conv, "run-stop", NULL, NULL));
  CHECK_INT(conv.reply.kind, PROTO_OK);
  CHECK_INT(atol(proto_get(&conv.reply, "run") ? proto_get(&conv.reply, "run") : "0"), run_id);
  CHECK(wait_no_run());
  store *s;
  ts_err err;
  static store_run_row row;
  REQUIRE(store_open(&s, db_path, &err) == TS_OK);
  CHECK_INT(store_run_get(s, run_id, &row, &err), TS_OK);
  CHECK_INT(row.status, STORE_RUN_INTERRUPTED);
  CHECK_INT(row.resume_at_start, 0);
  CHECK(row.trials_done < row.trials_total);
  store_close(s);
  CHECK(ask(&conv, "load-start", "spec", "sleep:20/ramp=300ms"));
  CHECK_INT(conv.reply.kind, PROTO_OK);
  CHECK(ask(&conv, "load-stop", NULL, NULL));
  CHECK_INT(conv.reply.kind, PROTO_OK);
}

/* kill -9 mid-run: no load survives, the database is intact, the run resumes on restart. */
static void killed_mid_run_resumes(void) {
  CHECK(ask(&conv, "run-start", "plan",
            "conditions = baseline, procs:30+sleep:50\nbench = builtin-st\nreps = 12\n"
            /* A settle well past the 400 ms the loop below confirms the children over: a trial
               that ended within it let the whole run finish before the kill. */
            "warmup = 0\nsettle = 800ms\nwork-scale = 0.05\nquiet-cpu = off\n"
            /* The benchmark in the service's process: the children counted are the load's. */
            "process = same\n"));
  CHECK_INT(conv.reply.kind, PROTO_OK);
  long run_id = atol(proto_get(&conv.reply, "run") ? proto_get(&conv.reply, "run") : "0");
  CHECK(run_id > 0);
  /* Wait for the procs condition to be running, with at least one trial done before it. */
  long children = 0;
  int done = 0;
  store *s;
  ts_err err;
  static store_run_row row;
  for (int i = 0; i < 1500 && (children < 30 || done < 1); i++) {
    plat_sleep_ns(20 * TS_NS_PER_MS);
    children = count_children(daemon_proc.pid);
    if (children == 30) {
      /* Let the 30th child finish starting: the kill must land in the trial, not inside process
         creation, since under Wine a process whose creator dies while it still starts up hangs
         there forever (Windows creates it whole or not at all); on a busy machine a Wine
         start-up takes a few hundred milliseconds. */
      plat_sleep_ns(400 * TS_NS_PER_MS);
      children = count_children(daemon_proc.pid);
    }
    if (children < 30 && store_open(&s, db_path, &err) == TS_OK) {
      if (store_run_get(s, run_id, &row, &err) == TS_OK)
        done = row.trials_done;
      store_close(s);
    }
  }
  CHECK_INT(children, 30);
  CHECK(done >= 1);
  long daemon_pid = daemon_proc.pid;
  kill_daemon();
  long left = count_children(daemon_pid);
  uint64_t killed_at = plat_clock_ns();
  /* Under Wine on a loaded 2-core machine the last child went 12 s after the kill: 20 s. */
  for (int i = 0; i < 400 && left > 0; i++) {
    plat_sleep_ns(50 * TS_NS_PER_MS);
    left = count_children(daemon_pid);
  }
  fprintf(stderr, "  children of the killed service gone %.2f s after the kill\n",
          (double)(plat_clock_ns() - killed_at) / TS_NS_PER_S);
  CHECK_INT(left, 0);

  REQUIRE(store_open(&s, db_path, &err) == TS_OK);
  CHECK_INT(store_integrity_check(s, &err), TS_OK);
  CHECK_INT(store_run_get(s, run_id, &row, &err), TS_OK);
  CHECK_INT(row.status, STORE_RUN_RUNNING);
  int done_before = row.trials_done;
  store_close(s);

  start_daemon();
  int finished = 0;
  for (int i = 0; i < 1200 && !finished; i++) {
    plat_sleep_ns(100 * TS_NS_PER_MS);
    REQUIRE(store_open(&s, db_path, &err) == TS_OK);
    finished = store_run_get(s, run_id, &row, &err) == TS_OK && row.status == STORE_RUN_FINISHED;
    store_close(s);
  }
  CHECK(finished);
  CHECK_INT(row.trials_done, row.trials_total);
  CHECK(row.trials_done >= done_before);
  fprintf(stderr, "  run %ld: %d trials done before the kill, all %d after the restart\n", run_id,
          done_before, row.trials_done);
}

/* ---- clients cannot crash or stall the service ---- */

static int send_request(conversation *c, const char *verb) {
  ts_err err;
  size_t n = 0;
  proto_init(&c->request, PROTO_REQUEST, verb);
  return proto_encode(&c->request, c->out, sizeof c->out, &n, &err) == TS_OK &&
         plat_ipc_send(c->conn, c->out, n, &err) == TS_OK;
}

typedef struct race_reader {
  plat_thread thread;
  conversation conv;
  volatile long events;
  volatile int other; /* anything but an event after the subscribe reply */
} race_reader;

static void race_read(void *arg) {
  race_reader *r = arg;
  while (read_one(&r->conv)) {
    if (r->conv.reply.kind == PROTO_EVENT && strcmp(r->conv.reply.verb, "dropped") != 0)
      r->events++;
    else
      r->other++;
  }
}

/* Shuts a connection down if it is still open after `seconds`: a read that would wait forever
   ends, and the test says so instead of hanging. */
typedef struct deadman {
  plat_thread thread;
  plat_ipc_conn *conn;
  volatile int done, fired;
  int seconds;
} deadman;

static void deadman_main(void *arg) {
  deadman *d = arg;
  for (int i = 0; i < d->seconds * 20 && !d->done; i++)
    plat_sleep_ns(50 * TS_NS_PER_MS);
  if (!d->done) {
    d->fired = 1;
    plat_ipc_shutdown(d->conn);
  }
}

typedef struct churner {
  plat_thread thread;
  volatile int *stop;
  long joined;
  uint64_t seed;
} churner;

/* Subscribes, sometimes reads what events come before the answer to a status, and leaves,
   again and again. */
static void churn(void *arg) {
  churner *ch = arg;
  conversation *c = malloc(sizeof *c);
  while (c && !*ch->stop) {
    if (!converse_open(c))
      continue;
    if (send_request(c, "subscribe") && read_one(c) && ts_splitmix64(&ch->seed) % 2 &&
        send_request(c, "status"))
      while (read_one(c) && c->reply.kind == PROTO_EVENT)
        ;
    plat_ipc_close(c->conn);
    ch->joined++;
  }
  free(c);
}

/* The attack on the notifier: subscribers join and leave by the hundred while one subscriber
   never reads and events keep coming. The service stays up, the reading subscriber gets every
   event, a client that never subscribed gets only its replies, and the one that does not read is
   dropped. */
static void notifier_race_keeps_serving(void) {
#ifdef _WIN32
  /* A load cycle takes about a second under Wine: fewer, too few to fill the silent client's
     pipe, so its drop is tried natively only. */
  enum { CHURNERS = 8, CYCLES = 40, DROP = 0 };
#else
  enum { CHURNERS = 8, CYCLES = 400, DROP = 1 };
#endif
  static conversation silent, bystander;
  static race_reader reader;
  static churner churners[CHURNERS];
  static volatile int stop;
  ts_err err;
  REQUIRE(converse_open(&silent));
  proto_init(&silent.request, PROTO_REQUEST, "subscribe");
  REQUIRE(converse(&silent) && silent.reply.kind == PROTO_OK);
  REQUIRE(converse_open(&reader.conv));
  proto_init(&reader.conv.request, PROTO_REQUEST, "subscribe");
  REQUIRE(converse(&reader.conv) && reader.conv.reply.kind == PROTO_OK);
  REQUIRE(plat_thread_start(&reader.thread, 256 * 1024, race_read, &reader, &err) == TS_OK);
  REQUIRE(converse_open(&bystander));
  for (int i = 0; i < CHURNERS; i++) {
    churners[i].stop = &stop;
    churners[i].seed = (uint64_t)i + 1;
    CHECK_INT(plat_thread_start(&churners[i].thread, 256 * 1024, churn, &churners[i], &err), TS_OK);
  }
  /* Each cycle is two events of about 140 bytes: 400 cycles overflow the silent subscriber's
     socket or pipe buffer and then its queue. */
  const char *spec = "sleep:1@10ms+sleep:1@11ms+sleep:1@12ms+sleep:1@13ms+sleep:1@14ms+"
                     "sleep:1@15ms+sleep:1@16ms+sleep:1@17ms";
  int cycles = 0, bystander_ok = 1;
  conversation *c = malloc(sizeof *c);
  for (int i = 0; i < CYCLES; i++) {
    if (!ask(c, "load-start", "spec", spec) || c->reply.kind != PROTO_OK)
      break;
    if (!ask(c, "load-stop", NULL, NULL) || c->reply.kind != PROTO_OK)
      break;
    cycles++;
    if (i % 5 == 0) { /* the bystander only ever gets its own replies (and is never idle) */
      proto_init(&bystander.request, PROTO_REQUEST, "status");
      bystander_ok &= converse(&bystander) && bystander.reply.kind == PROTO_OK &&
                      strcmp(bystander.reply.verb, "status") == 0;
    }
  }
  stop = 1;
  long joined = 0;
  for (int i = 0; i < CHURNERS; i++) {
    plat_thread_join(churners[i].thread);
    joined += churners[i].joined;
  }
  /* The reader gets every event of the cycles (load-started and load-stopped each). */
  for (int i = 0; i < 200 && reader.events < 2L * cycles; i++)
    plat_sleep_ns(50 * TS_NS_PER_MS);
  long got = reader.events;
  plat_ipc_shutdown(reader.conv.conn);
  plat_thread_join(reader.thread);
  plat_ipc_close(reader.conv.conn);
  /* The silent one: what its buffer held, then the end (the reason, queued behind a send that
     never finished, reaches only a client that reads again within a second; the log has it). */
  long silent_events = 0;
  int dropped = 0;
  static deadman guard;
  guard.conn = silent.conn;
  guard.seconds = DROP ? 20 : 0;
  REQUIRE(plat_thread_start(&guard.thread, 64 * 1024, deadman_main, &guard, &err) == TS_OK);
  while (read_one(&silent)) {
    if (silent.reply.kind == PROTO_EVENT && strcmp(silent.reply.verb, "dropped") == 0) {
      dropped = 1;
      CHECK_STR_CONTAINS(proto_get(&silent.reply, "message"), "fell 64 events");
    } else {
      silent_events++;
    }
  }
  guard.done = 1;
  plat_thread_join(guard.thread);
  plat_ipc_close(silent.conn);
  CHECK(!DROP || !guard.fired); /* the service closed it: it was not still waiting to be read */
  fprintf(stderr,
          "  %d load cycles, %ld subscribers joined and left; the reader got %ld of %d events, "
          "the silent one %ld before it was dropped%s\n",
          cycles, joined, got, 2 * cycles, silent_events, dropped ? " (and the reason)" : "");
  CHECK_INT(cycles, CYCLES);
  CHECK(joined >= 100);
  CHECK_INT(got, 2L * cycles);
  CHECK_INT(reader.other, 0);
  CHECK(!DROP || silent_events < 2L * cycles); /* and its connection ended */
  proto_init(&bystander.request, PROTO_REQUEST, "status");
  bystander_ok &= converse(&bystander) && bystander.reply.kind == PROTO_OK &&
                  strcmp(bystander.reply.verb, "status") == 0;
  CHECK(bystander_ok);
  plat_ipc_close(bystander.conn);
  CHECK(ask(c, "status", NULL, NULL) && c->reply.kind == PROTO_OK);
  free(c);
}

/* ---- an idle flood: connections that send nothing ---- */

typedef struct idler {
  plat_thread thread;
  plat_ipc_conn *conn;
  uint64_t started;
  volatile uint64_t ended_after; /* ns from `started` to the first reply or the end */
  volatile int refused;          /* got "TS1 error busy" */
  char message[200];
} idler;

static void idle_wait(void *arg) {
  idler *d = arg;
  char buf[512];
  size_t got = 0, used = 0;
  ts_err err;
  while (used < sizeof buf - 1 &&
         plat_ipc_recv(d->conn, buf + used, sizeof buf - 1 - used, &got, &err) == TS_OK && got)
    used += got;
  buf[used] = '\0';
  d->refused = strncmp(buf, "TS1 error busy", 14) == 0;
  snprintf(d->message, sizeof d->message, "%s", buf);
  d->ended_after = plat_clock_ns() - d->started;
}

/* The flood's exit code when its user cannot reach the socket at all. */
enum { FLOOD_UNREACHABLE = 3 };

/* Opens `count` connections that send nothing, and checks that the first `accepted` are held
   until the idle timeout closes them and the rest are refused at once with the per-user limit
   named. Returns the number of failed checks, or -1 when not one connection could be opened. */

static int idle_flood(const char *where, int count, int accepted, long timeout_ms) {
  static idler idlers[64];
  ts_err err;
  int failures = 0, opened = 0;
  if (count > 64)
    return 1;
  for (int i = 0; i < count; i++) {
    memset(&idlers[i], 0, sizeof idlers[i]);
    idlers[i].started = plat_clock_ns();
    if (plat_ipc_connect(&idlers[i].conn, where, &err) != TS_OK) {
      if (i == 0) { /* not one: this user cannot reach the socket (a folder it may not enter) */
        fprintf(stderr, "  %s\n", err.text);
        return -1;
      }
      break;
    }
    if (plat_thread_start(&idlers[i].thread, 64 * 1024, idle_wait, &idlers[i], &err) != TS_OK) {
      plat_ipc_close(idlers[i].conn);
      break;
    }
    opened++;
    plat_sleep_ns(5 * TS_NS_PER_MS); /* in order: the first ones are the ones held */
  }
  /* A connection the service never closes is shut down from here, and counted late. */
  uint64_t give_up = plat_clock_ns() + (uint64_t)(timeout_ms + 8000) * TS_NS_PER_MS;
  for (int i = 0; i < opened; i++) {
    while (!idlers[i].ended_after && plat_clock_ns() < give_up)
      plat_sleep_ns(20 * TS_NS_PER_MS);
    if (!idlers[i].ended_after)
      plat_ipc_shutdown(idlers[i].conn);
  }
  int held = 0, refused = 0, late = 0, early = 0;
  for (int i = 0; i < opened; i++) {
    plat_thread_join(idlers[i].thread);
    plat_ipc_close(idlers[i].conn);
    double s = (double)idlers[i].ended_after / TS_NS_PER_S;
    if (idlers[i].refused) {
      refused++;
      if (!strstr(idlers[i].message, "per user who is not an administrator"))
        failures++;
      late += s > 1.0;
    } else {
      held++;
      early += s < 0.9 * (double)timeout_ms / 1000;
      late += s > (double)timeout_ms / 1000 + 5;
    }
  }
  fprintf(stderr, "  %d idle connections: %d held until the timeout closed them, %d refused%s%s\n",
          opened, held, refused, refused ? ": " : "", refused ? idlers[count - 1].message : "");
  failures += opened != count;
  failures += held != accepted;
  failures += refused != count - accepted;
  failures += early + late;
  if (early + late)
    fprintf(stderr, "  %d ended before the timeout, %d later than it (or refused late)\n", early,
            late);
  return failures;
}

typedef struct flood_arg {
  plat_thread thread;
  const char *where;
  int count, accepted;
  long timeout_ms;
  volatile int failures;
} flood_arg;

static void flood_thread(void *arg) {
  flood_arg *f = arg;
  f->failures = idle_flood(f->where, f->count, f->accepted, f->timeout_ms);
}

/* A second service with a short idle timeout and a small per-user limit. */
static const char *idle_address;
static plat_proc idle_proc;

static int answered_within(const char *where, uint64_t limit_ns, double *seconds) {
  const char *keep = address;
  address = where;
  conversation *c = malloc(sizeof *c);
  uint64_t t0 = plat_clock_ns();
  int ok = c && ask(c, "status", NULL, NULL) && c->reply.kind == PROTO_OK;
  *seconds = (double)(plat_clock_ns() - t0) / TS_NS_PER_S;
  free(c);
  address = keep;
  return ok && *seconds * TS_NS_PER_S < (double)limit_ns;
}

/* Idle connections fill no slot for long: while 40 of them are held, status is answered at
   once, and the idle timeout closes them all. Natively, a flood from another user (nobody) is
   also held to its per-user limit: the connections past it are refused at once, saying why. */
static void idle_flood_locks_no_one_out(void) {
  /* The idle timeout leaves status 3 s to be answered while the flood is still held: under a
     loaded Wine, accepting 40 connections (a thread each) has taken almost 2 s. */
  enum { TIMEOUT_MS = 5000, PER_USER = 4 };
  ts_err err;
  const char *argv[] = {
      exe,       "service",        "run", "--console",          "--socket", NULL, "--db",
      "idle.db", "--idle-timeout", "5s",  "--clients-per-user", "4",        NULL};
  argv[5] = idle_address;
  remove("idle.db");
  REQUIRE(plat_proc_spawn(&idle_proc, argv, &err) == TS_OK);
  const char *keep = address;
  address = idle_address;
  wait_ready();
  address = keep;

  static flood_arg flood;
  flood.where = idle_address;
  flood.count = 40;
  flood.accepted = 40; /* this test runs as an administrator: no per-user limit */
  flood.timeout_ms = TIMEOUT_MS;
  REQUIRE(plat_thread_start(&flood.thread, 256 * 1024, flood_thread, &flood, &err) == TS_OK);
  plat_sleep_ns(700 * TS_NS_PER_MS); /* the flood is in */
  double seconds = 0;
  CHECK(answered_within(idle_address, 3 * TS_NS_PER_S, &seconds));
  fprintf(stderr, "  status answered in %.3f s beside the idle flood\n", seconds);
  plat_thread_join(flood.thread);
  CHECK_INT(flood.failures, 0);

#ifndef _WIN32
  /* Another user's flood, past the per-user limit (the socket opened to everyone for it). */
  chmod(idle_address, 0666);
  char count[16], accepted[16], timeout[16];
  snprintf(count, sizeof count, "%d", 12);
  snprintf(accepted, sizeof accepted, "%d", PER_USER);
  snprintf(timeout, sizeof timeout, "%d", TIMEOUT_MS);
  const char *as_nobody[] = {"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", self,
                             "--flood", idle_address,    count,           accepted,         timeout,
                             NULL};
  plat_proc flooder;
  REQUIRE(plat_proc_spawn(&flooder, as_nobody, &err) == TS_OK);
  plat_sleep_ns(500 * TS_NS_PER_MS);
  CHECK(answered_within(idle_address, 3 * TS_NS_PER_S, &seconds));
  fprintf(stderr, "  status answered in %.3f s beside nobody's flood\n", seconds);
  int code = -1;
  plat_proc_wait(&flooder, &code, &err);
  if (code == 126 || code == 127 || code == FLOOD_UNREACHABLE) /* a folder nobody may not enter */
    fprintf(stderr, "  skipped: nobody cannot run %s or reach %s\n", self, idle_address);
  else
    CHECK_INT(code, 0);
#else
  (void)PER_USER;
#endif
  int code2 = 0;
  plat_proc_kill(&idle_proc, &err);
  plat_proc_wait(&idle_proc, &code2, &err);
}

/* A client that half-closes after part of a message: the service ends that connection at once
   (it used to stay open until the next client came). Sockets only: a pipe cannot half-close. */
static void half_close_closes_at_once(void) {
#ifndef _WIN32
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr_un sa;
  memset(&sa, 0, sizeof sa);
  sa.sun_family = AF_UNIX;
  snprintf(sa.sun_path, sizeof sa.sun_path, "%s", address);
  REQUIRE(fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0);
  static const char partial[] = "TS1 request sta";
  CHECK(send(fd, partial, sizeof partial - 1, 0) == (ssize_t)(sizeof partial - 1));
  uint64_t t0 = plat_clock_ns();
  CHECK(shutdown(fd, SHUT_WR) == 0);
  struct pollfd p = {fd, POLLIN, 0};
  char buf[64];
  int ready = poll(&p, 1, 5000);
  long got = ready > 0 ? (long)recv(fd, buf, sizeof buf, 0) : -1;
  double seconds = (double)(plat_clock_ns() - t0) / TS_NS_PER_S;
  fprintf(stderr, "  closed by the service %.3f s after the half-close\n", seconds);
  CHECK(ready == 1);
  CHECK_INT(got, 0);
  CHECK(seconds < 2);
  close(fd);
#endif
}

/* One `record` request into run `run` (or "new"); the reply's run, 0 when it was refused. */
static long record_score(const char *run, const char *condition, const char *score) {
  ts_err err;
  if (!converse_open(&conv))
    return 0;
  proto_init(&conv.request, PROTO_REQUEST, "record");
  proto_add(&conv.request, "run", run, &err);
  proto_add(&conv.request, "bench", "builtin-st", &err);
  proto_add(&conv.request, "condition", condition, &err);
  proto_add(&conv.request, "score", score, &err);
  int ok = converse(&conv) && conv.reply.kind == PROTO_OK && proto_get(&conv.reply, "run");
  plat_ipc_close(conv.conn);
  return ok ? atol(proto_get(&conv.reply, "run")) : 0;
}

/* A run built by ordinary `record` requests from scores at both ends of what a trial may hold
   (1e-9 and 1e15, and the largest double refused): its reports, in every format, in one message
   and in pages, end in bounded time and size, and `status` is answered all the while (the
   database lock is held for the reading only, not while the report is written). */
static void extreme_run_reports_in_bounded_time(void) {
  static const char *const scores[] = {"1e15", "1e-9", "999999999999999", "0.000000001", "1e15",
                                       "1e-9", "3.5"};
  static const char *const conditions[] = {"baseline", "sleep:1", "sleep:2", "sleep:3"};
  CHECK_INT(record_score("1", "baseline", "1.7976931348623157e308"), 0);
  CHECK_STR_CONTAINS(proto_get(&conv.reply, "message"), "out of range");
  long run = record_score("new", "baseline", "1e15");
  REQUIRE(run > 0);
  char id[24];
  snprintf(id, sizeof id, "%ld", run);
  for (int i = 0; i < 400; i++)
    CHECK_INT(record_score(id, conditions[i % 4], scores[(i / 4) % 7]), run);

  volatile int stop = 0;
  poller p;
  memset(&p, 0, sizeof p);
  p.stop = &stop;
  ts_err err;
  REQUIRE(plat_thread_start(&p.thread, 256 * 1024, poll_status, &p, &err) == TS_OK);
  static const char *const formats[] = {"html", "csv", "json", "text"};
  uint64_t began = plat_clock_ns();
  for (int f = 0; f < 4; f++)
    for (int paged = 0; paged < 2; paged++) {
      CHECK(converse_open(&conv));
      proto_init(&conv.request, PROTO_REQUEST, "report");
      proto_add(&conv.request, "run", id, &err);
      proto_add(&conv.request, "format", formats[f], &err);
      if (paged)
        proto_add(&conv.request, "offset", "0", &err);
      uint64_t asked = plat_clock_ns();
      CHECK(converse(&conv));
      plat_ipc_close(conv.conn);
      /* In one message it may be too large to send (said so); in pages it is whole. */
      const char *said = proto_get(&conv.reply, "message");
      if (!paged && conv.reply.kind == PROTO_ERROR && said &&
          (strstr(said, "too large for one message") ||
           (strstr(said, "cannot be sent") && strstr(said, "message larger than"))))
        continue;
      if (conv.reply.kind != PROTO_OK)
        fprintf(stderr, "  report %s: %s\n", formats[f], said ? said : "?");
      CHECK_INT(conv.reply.kind, PROTO_OK);
      const char *text = proto_get(&conv.reply, "text");
      const char *total = proto_get(&conv.reply, "total");
      CHECK(text && strlen(text) > 100);
      /* Bounded: a few MB at most for 400 trials, written in seconds. */
      CHECK(!paged || (total && atol(total) > 0 && atol(total) < 8L * 1024 * 1024));
      CHECK(plat_clock_ns() - asked < 20 * TS_NS_PER_S);
      if (f == 0 && text)
        CHECK_STR_CONTAINS(text, paged ? "<!DOCTYPE html>" : "<svg");
    }
  /* status answered while the reports were being written, and never refused. */
  while (p.answered < 3 && plat_clock_ns() - began < 10 * TS_NS_PER_S)
    plat_sleep_ns(10 * TS_NS_PER_MS);
  stop = 1;
  plat_thread_join(p.thread);
  CHECK(p.answered >= 3);
  if (p.failed)
    fprintf(stderr, "  status failed %d times: %s\n", p.failed, p.first_failure);
  CHECK_INT(p.failed, 0);
}

/* A large run (64 conditions, 12 blocks, 24 metrics a trial: sub-scores, census states, where the
   time went), written into the service's database beside it: its report in every format is read
   under the database lock, then computed and written without it, so `status` (which reads the
   database too) is answered all the while, each time within seconds, never refused. */
static void large_report_leaves_status_answered(void) {
  enum { CONDITIONS = 64, BLOCKS = 12, METRICS = 24 };
  static char names[CONDITIONS][24], metric_names[METRICS][24];
  static store_trial_plan trials[CONDITIONS * BLOCKS];
  static const char *const fixed[] = {
      "compress",     "float",        "integer",       "memory",
      "time.trial_s", "time.bench_s", "census.cpu_ms", "load.switches_per_s"};
  ts_err err;
  store *s = NULL;
  REQUIRE(store_open(&s, db_path, &err) == TS_OK);
  int n = 0;
  for (int b = 1; b <= BLOCKS; b++)
    for (int c = 0; c < CONDITIONS; c++, n++) {
      snprintf(names[c], sizeof names[c], c ? "sleep:%d" : "baseline", c * 100);
      trials[n] = (store_trial_plan){n + 1, b, names[c], "builtin-st", 0};
    }
  store_run_info info = {"large",    "name = large\n",
                         1,          "2026-01-01T00:00:00.000Z",
                         "pc-large", "Linux",
                         "cpu",      8,
                         "1.0",      NULL,
                         0};
  int64_t run = 0;
  REQUIRE(store_run_begin(s, &info, trials, n, &run, &err) == TS_OK);
  store_metric metrics[METRICS];
  for (int i = 0; i < METRICS; i++)
    snprintf(metric_names[i], sizeof metric_names[i], "state.%c", 'A' + i);
  for (int k = 0; k < n; k++) {
    for (int i = 0; i < METRICS; i++)
      metrics[i] = (store_metric){i < 8 ? fixed[i] : metric_names[i], 1 + (k * 7 + i) % 13};
    store_trial_result result = {"2026-01-01T00:00:01.000Z",
                                 "2026-01-01T00:00:02.000Z",
                                 100 + k % 17,
                                 "Mwork/s",
                                 0.5,
                                 3,
                                 100,
                                 900,
                                 METRICS,
                                 metrics,
                                 NULL,
                                 "ac",
                                 "off",
                                 "uniform"};
    REQUIRE(store_trial_finish(s, trials[k].id, &result, &err) == TS_OK);
  }
  CHECK_INT(store_run_end(s, run, STORE_RUN_FINISHED, NULL, "2026-01-01T01:00:00.000Z", &err),
            TS_OK);
  store_close(s);

  volatile int stop = 0;
  poller p;
  memset(&p, 0, sizeof p);
  p.stop = &stop;
  REQUIRE(plat_thread_start(&p.thread, 256 * 1024, poll_status, &p, &err) == TS_OK);
  static const char *const formats[] = {"html", "csv", "json", "text"};
  char id[24];
  snprintf(id, sizeof id, "%lld", (long long)run);
  uint64_t began = plat_clock_ns();
  for (int f = 0; f < 4; f++) {
    CHECK(converse_open(&conv));
    proto_init(&conv.request, PROTO_REQUEST, "report");
    proto_add(&conv.request, "run", id, &err);
    proto_add(&conv.request, "format", formats[f], &err);
    proto_add(&conv.request, "offset", "0", &err);
    CHECK(converse(&conv));
    plat_ipc_close(conv.conn);
    CHECK_INT(conv.reply.kind, PROTO_OK);
    const char *total = proto_get(&conv.reply, "total");
    CHECK(total && atol(total) > 10000);
  }
  double took = (double)(plat_clock_ns() - began) / TS_NS_PER_S;
  stop = 1;
  plat_thread_join(p.thread);
  fprintf(stderr, "  4 reports of %d trials in %.1f s; status answered %d times, at most %.2f s\n",
          n, took, p.answered, (double)p.longest_ns / TS_NS_PER_S);
  CHECK(p.answered >= 1);
  CHECK_INT(p.failed, 0);
  CHECK(p.longest_ns < 10 * TS_NS_PER_S);
}

static void database_stays_intact(void) {
  kill_daemon();
  store *s;
  ts_err err;
  REQUIRE(store_open(&s, db_path, &err) == TS_OK);
  CHECK_INT(store_integrity_check(s, &err), TS_OK);
  store_close(s);
}

int main(int argc, char **argv) {
  if (argc == 6 && strcmp(argv[1], "--flood") == 0) {
    int failures = idle_flood(argv[2], atoi(argv[3]), atoi(argv[4]), atol(argv[5]));
    return failures < 0 ? FLOOD_UNREACHABLE : failures ? 1 : 0;
  }
  if (argc != 4) {
    fprintf(stderr, "usage: test_service THREADSOUP ADDRESS DATABASE\n");
    return 2;
  }
  self = argv[0];
  exe = argv[1];
  address = argv[2];
  db_path = argv[3];
  remove(db_path);
  static char idle_where[1100];
  snprintf(idle_where, sizeof idle_where, "%s-idle", address);
  idle_address = idle_where;
  start_daemon();
  RUN_CASE(answers_and_runs_load_in_its_own_process);
  RUN_CASE(bad_requests_get_reasons);
  RUN_CASE(schedules_are_checked_and_ids_never_reused);
  RUN_CASE(catalog_through_the_clients_call);
  RUN_CASE(idle_answer_counts_from_the_console);
  RUN_CASE(record_checks_names_as_the_command_line_does);
  RUN_CASE(survives_fuzzing);
  RUN_CASE(notifier_race_keeps_serving);
  RUN_CASE(idle_flood_locks_no_one_out);
  RUN_CASE(half_close_closes_at_once);
  RUN_CASE(fifty_clients_during_a_run);
  RUN_CASE(full_house_turns_one_away);
  RUN_CASE(reports_through_the_service);
  RUN_CASE(run_stop_stops_only_that_run);
  RUN_CASE(killed_mid_run_resumes);
  RUN_CASE(record_makes_a_new_run);
  RUN_CASE(one_strange_run_never_blanks_the_history);
  RUN_CASE(extreme_run_reports_in_bounded_time);
  RUN_CASE(large_report_leaves_status_answered);
  RUN_CASE(database_stays_intact);
  return check_summary();
}
