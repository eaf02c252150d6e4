/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_ntprocinfo.c - the SystemProcessInformation parser reads realistic x64 buffers exactly,
   names thread states as Process Explorer does, and refuses damaged buffers without crashing. */
#include "check.h"
#include "ntsnapshot.h"
#include "threadsoup/ntprocinfo.h"

#include <stdlib.h>
#include <string.h>

/* A user-mode heap address of x64 Windows, as a captured buffer would have had. */
#define BASE 0x000001d4c2a30000ull
#define STATE_NAME_MAX 40 /* as PLAT_STATE_NAME_MAX */

/* ---- a realistic machine --------------------------------------------------------------------- */

/* Idle (no name, one Running thread per idle CPU), System, a service host and ThreadSoup with
   its controller Running, 1,500 sleepers, 20 event waiters and 7 WaitOnAddress waiters. */
static void build_machine(nts_builder *b) {
  nts_init(b, BASE);
  nts_proc idle = {.pid = 0, .kernel_time = 9876543210ull};
  nts_add_process(b, &idle);
  nts_thread cpu = {.tid = 0, .state = NTPROC_STATE_RUNNING, .kernel_time = 2469135802ull};
  nts_add_threads(b, 4, &cpu);

  nts_proc system = {.pid = 4,
                     .name = "System",
                     .handles = 3412,
                     .base_priority = 8,
                     .kernel_time = 51234567ull,
                     .working_set = 143360};
  nts_add_process(b, &system);
  nts_thread worker = {.tid = 8,
                       .state = NTPROC_STATE_WAITING,
                       .wait_reason = NTPROC_WAIT_EXECUTIVE,
                       .context_switches = 311,
                       .priority = 13,
                       .base_priority = 13};
  nts_add_threads(b, 100, &worker);
  nts_thread queue = {.tid = 1000,
                      .state = NTPROC_STATE_WAITING,
                      .wait_reason = NTPROC_WAIT_WR_QUEUE,
                      .context_switches = 17,
                      .priority = 12,
                      .base_priority = 12};
  nts_add_threads(b, 40, &queue);

  nts_proc svchost = {.pid = 1044,
                      .parent_pid = 812,
                      .name = "svchost.exe",
                      .handles = 712,
                      .session = 0,
                      .base_priority = 8,
                      .kernel_time = 1250000,
                      .user_time = 3750000,
                      .working_set = 24 * 1024 * 1024};
  nts_add_process(b, &svchost);
  nts_thread pool = {.tid = 1048,
                     .state = NTPROC_STATE_WAITING,
                     .wait_reason = NTPROC_WAIT_WR_QUEUE,
                     .context_switches = 5000,
                     .priority = 8,
                     .base_priority = 8};
  nts_add_threads(b, 12, &pool);
  nts_thread ready = {.tid = 2000, .state = NTPROC_STATE_READY, .priority = 9, .base_priority = 8};
  nts_add_threads(b, 1, &ready);

  nts_proc ts = {.pid = 5120,
                 .parent_pid = 4312,
                 .name = "threadsoup.exe",
                 .handles = 1623,
                 .session = 1,
                 .base_priority = 8,
                 .create_time = 133500000000000000ull,
                 .kernel_time = 20000000,
                 .user_time = 10000000,
                 .working_set = 180ull << 20};
  nts_add_process(b, &ts);
  nts_thread controller = {.tid = 5124,
                           .state = NTPROC_STATE_RUNNING,
                           .context_switches = 900,
                           .priority = 10,
                           .base_priority = 8,
                           .kernel_time = 1500000,
                           .user_time = 2500000,
                           .start_address = 0x7ff6a1b21000ull};
  nts_add_threads(b, 1, &controller);
  nts_thread sleeper = {.tid = 10000,
                        .state = NTPROC_STATE_WAITING,
                        .wait_reason = NTPROC_WAIT_DELAY_EXECUTION,
                        .context_switches = 40,
                        .priority = 8,
                        .base_priority = 8,
                        .kernel_time = 10,
                        .start_address = 0x7ff6a1b23450ull};
  nts_add_threads(b, 1500, &sleeper);
  nts_thread event = {.tid = 30000,
                      .state = NTPROC_STATE_WAITING,
                      .wait_reason = NTPROC_WAIT_USER_REQUEST,
                      .context_switches = 3,
                      .priority = 8,
                      .base_priority = 8};
  nts_add_threads(b, 20, &event);
  nts_thread address = {.tid = 40000,
                        .state = NTPROC_STATE_WAITING,
                        .wait_reason = NTPROC_WAIT_WR_ALERT_BY_THREAD_ID,
                        .context_switches = 2,
                        .priority = 8,
                        .base_priority = 8};
  nts_add_threads(b, 7, &address);
  nts_finish(b);
}

/* What a walk saw: every process record, and per process the threads by state name. */
#define SEEN_MAX 16
typedef struct seen {
  int processes;
  ntproc_process p[SEEN_MAX];
  long threads[SEEN_MAX];
  char state_name[SEEN_MAX][8][STATE_NAME_MAX];
  long state_threads[SEEN_MAX][8];
  int states[SEEN_MAX];
  uint64_t switches[SEEN_MAX], thread_time[SEEN_MAX];
  ntproc_thread first_thread[SEEN_MAX];
} seen;

static int seen_process(void *ctx, const ntproc_process *p) {
  seen *s = ctx;
  if (s->processes < SEEN_MAX)
    s->p[s->processes] = *p;
  s->processes++;
  return NTPROC_NEXT;
}

static int seen_thread(void *ctx, const ntproc_process *p, const ntproc_thread *t) {
  seen *s = ctx;
  int i = s->processes - 1;
  (void)p;
  if (i >= SEEN_MAX)
    return NTPROC_NEXT;
  if (s->threads[i] == 0)
    s->first_thread[i] = *t;
  s->threads[i]++;
  s->switches[i] += t->context_switches;
  s->thread_time[i] += t->kernel_time + t->user_time;
  char name[64];
  ntproc_state_name(t->state, t->wait_reason, name, sizeof name);
  int k = 0;
  while (k < s->states[i] && strcmp(s->state_name[i][k], name) != 0)
    k++;
  if (k == s->states[i] && k < 8) {
    snprintf(s->state_name[i][k], sizeof s->state_name[i][k], "%s", name);
    s->states[i]++;
  }
  if (k < 8)
    s->state_threads[i][k]++;
  return NTPROC_NEXT;
}

static long seen_state(const seen *s, int i, const char *name) {
  for (int k = 0; k < s->states[i]; k++)
    if (strcmp(s->state_name[i][k], name) == 0)
      return s->state_threads[i][k];
  return 0;
}

static void realistic_snapshot_parsed_exactly(void) {
  nts_builder b;
  build_machine(&b);
  seen *s = calloc(1, sizeof *s);
  ts_err err;
  CHECK_INT(ntproc_walk(b.buf, b.len, BASE, seen_process, seen_thread, s, &err), TS_OK);
  CHECK_INT(s->processes, 4);

  CHECK_INT(s->p[0].pid, 0);
  CHECK_STR_CONTAINS(s->p[0].name, "");
  CHECK_INT(strlen(s->p[0].name), 0);
  CHECK_INT(s->p[0].thread_count, 4);
  CHECK_INT(s->p[0].kernel_time, 9876543210ll);
  CHECK_INT(seen_state(s, 0, "Running"), 4);

  CHECK_INT(s->p[1].pid, 4);
  CHECK(strcmp(s->p[1].name, "System") == 0);
  CHECK_INT(s->p[1].handle_count, 3412);
  CHECK_INT(s->p[1].working_set, 143360);
  CHECK_INT(s->threads[1], 140);
  CHECK_INT(seen_state(s, 1, "Wait:Executive"), 100);
  CHECK_INT(seen_state(s, 1, "Wait:WrQueue"), 40);
  CHECK_INT(s->switches[1], 100 * 311 + 40 * 17);

  CHECK(strcmp(s->p[2].name, "svchost.exe") == 0);
  CHECK_INT(s->p[2].parent_pid, 812);
  CHECK_INT(seen_state(s, 2, "Ready"), 1);
  CHECK_INT(s->p[2].user_time, 3750000);

  const ntproc_process *ts = &s->p[3];
  CHECK_INT(ts->offset, s->p[2].offset + 256 + 13 * 80 + 24); /* "svchost.exe\0" is 24 bytes */
  CHECK_INT(ts->pid, 5120);
  CHECK_INT(ts->parent_pid, 4312);
  CHECK(strcmp(ts->name, "threadsoup.exe") == 0);
  CHECK_INT(ts->thread_count, 1528);
  CHECK_INT(ts->handle_count, 1623);
  CHECK_INT(ts->session_id, 1);
  CHECK_INT(ts->base_priority, 8);
  CHECK_INT(ts->create_time, 133500000000000000ll);
  CHECK_INT(ts->kernel_time, 20000000);
  CHECK_INT(ts->user_time, 10000000);
  CHECK_INT(ts->working_set, 180ll << 20);
  CHECK_INT(s->threads[3], 1528);
  CHECK_INT(s->states[3], 4);
  CHECK_INT(seen_state(s, 3, "Running"), 1);
  CHECK_INT(seen_state(s, 3, "Wait:DelayExecution"), 1500);
  CHECK_INT(seen_state(s, 3, "Wait:UserRequest"), 20);
  CHECK_INT(seen_state(s, 3, "Wait:WrAlertByThreadId"), 7);
  CHECK_INT(s->switches[3], 900 + 1500 * 40 + 20 * 3 + 7 * 2);
  CHECK_INT(s->thread_time[3], 1500000 + 2500000 + 1500 * 10);
  const ntproc_thread *c = &s->first_thread[3];
  CHECK_INT(c->tid, 5124);
  CHECK_INT(c->state, NTPROC_STATE_RUNNING);
  CHECK_INT(c->priority, 10);
  CHECK_INT(c->base_priority, 8);
  CHECK_INT(c->context_switches, 900);
  CHECK_INT(c->kernel_time, 1500000);
  CHECK_INT(c->user_time, 2500000);
  CHECK_INT(c->start_address, 0x7ff6a1b21000ll);
  free(s);
  nts_free(&b);
}

/* The buffer's layout is Windows's, byte for byte: spot checks at the documented offsets. */
static void builder_writes_the_x64_layout(void) {
  nts_builder b;
  build_machine(&b);
  const unsigned char *idle = b.buf;
  CHECK_INT(nts_get(idle + 0, 4), 256 + 4 * 80); /* Idle has no name: the next entry follows */
  CHECK_INT(nts_get(idle + 4, 4), 4);
  CHECK_INT(nts_get(idle + 56, 2), 0);
  CHECK_INT(nts_get(idle + 64, 8), 0);
  const unsigned char *system = b.buf + 256 + 4 * 80;
  CHECK_INT(nts_get(system + 56, 2), 12); /* Length: "System" in bytes */
  CHECK_INT(nts_get(system + 58, 2), 14); /* MaximumLength: with the NUL */
  CHECK_INT(nts_get(system + 64, 8), BASE + 256 + 4 * 80 + 256 + 140 * 80); /* after threads */
  CHECK_INT(nts_get(system + 80, 8), 4);
  CHECK_INT(nts_get(system + 256 + 68, 4), NTPROC_STATE_WAITING);
  CHECK_INT(nts_get(system + 256 + 48, 8), 8); /* ClientId.UniqueThread of the first thread */
  CHECK_INT(nts_get(system + 256 + 40, 8), 4); /* ClientId.UniqueProcess */
  CHECK_INT(b.len % 8, 0);
  nts_free(&b);
}

/* ---- names ----------------------------------------------------------------------------------- */

static void state_names_match_process_explorer(void) {
  char buf[STATE_NAME_MAX];
  CHECK(strcmp(ntproc_state_name(NTPROC_STATE_RUNNING, 0, buf, sizeof buf), "Running") == 0);
  CHECK(strcmp(ntproc_state_name(NTPROC_STATE_READY, 6, buf, sizeof buf), "Ready") == 0);
  CHECK(strcmp(ntproc_state_name(0, 0, buf, sizeof buf), "Initialized") == 0);
  CHECK(strcmp(ntproc_state_name(3, 0, buf, sizeof buf), "Standby") == 0);
  CHECK(strcmp(ntproc_state_name(4, 0, buf, sizeof buf), "Terminated") == 0);
  CHECK(strcmp(ntproc_state_name(6, 0, buf, sizeof buf), "Transition") == 0);
  CHECK(strcmp(ntproc_state_name(7, 0, buf, sizeof buf), "DeferredReady") == 0);
  CHECK(strcmp(ntproc_state_name(8, 0, buf, sizeof buf), "GateWaitObsolete") == 0);
  CHECK(strcmp(ntproc_state_name(9, 0, buf, sizeof buf), "WaitingForProcessInSwap") == 0);
  CHECK(strcmp(ntproc_state_name(5, 4, buf, sizeof buf), "Wait:DelayExecution") == 0);
  CHECK(strcmp(ntproc_state_name(5, 6, buf, sizeof buf), "Wait:UserRequest") == 0);
  CHECK(strcmp(ntproc_state_name(5, 0, buf, sizeof buf), "Wait:Executive") == 0);
  CHECK(strcmp(ntproc_state_name(5, 13, buf, sizeof buf), "Wait:WrUserRequest") == 0);
  CHECK(strcmp(ntproc_state_name(5, 15, buf, sizeof buf), "Wait:WrQueue") == 0);
  CHECK(strcmp(ntproc_state_name(5, 21, buf, sizeof buf), "Wait:WrKeyedEvent") == 0);
  CHECK(strcmp(ntproc_state_name(5, 28, buf, sizeof buf), "Wait:WrPushLock") == 0);
  CHECK(strcmp(ntproc_state_name(5, 36, buf, sizeof buf), "Wait:WrRundown") == 0);
  CHECK(strcmp(ntproc_state_name(5, 37, buf, sizeof buf), "Wait:WrAlertByThreadId") == 0);
  CHECK(strcmp(ntproc_state_name(5, 38, buf, sizeof buf), "Wait:WrDeferredPreempt") == 0);
  CHECK(strcmp(ntproc_state_name(5, 39, buf, sizeof buf), "Wait:WrPhysicalFault") == 0);
  CHECK(strcmp(ntproc_state_name(5, 40, buf, sizeof buf), "Wait:WrIoRing") == 0);
  CHECK(strcmp(ntproc_state_name(5, 41, buf, sizeof buf), "Wait:WrMdlCache") == 0);
  CHECK(strcmp(ntproc_state_name(5, 42, buf, sizeof buf), "Wait:WrRcu") == 0);
  CHECK(strcmp(ntproc_state_name(5, 43, buf, sizeof buf), "Wait:Unknown(43)") == 0);
  CHECK(strcmp(ntproc_state_name(5, 4000000000u, buf, sizeof buf), "Wait:Unknown(4000000000)") ==
        0);
  CHECK(strcmp(ntproc_state_name(10, 4, buf, sizeof buf), "Unknown(10)") == 0);
  /* The enum numbers are Windows's own. */
  CHECK_INT(NTPROC_WAIT_DELAY_EXECUTION, 4);
  CHECK_INT(NTPROC_WAIT_USER_REQUEST, 6);
  CHECK_INT(NTPROC_WAIT_WR_QUEUE, 15);
  CHECK_INT(NTPROC_WAIT_WR_ALERT_BY_THREAD_ID, 37);
  CHECK_INT(NTPROC_WAIT_WR_MDL_CACHE, 41);
  CHECK_INT(NTPROC_STATE_DEFERRED_READY, 7);
  /* A short buffer is cut, never overrun. */
  char tiny[6];
  CHECK(strcmp(ntproc_state_name(5, 4, tiny, sizeof tiny), "Wait:") == 0);
}

static int first_name(void *ctx, const ntproc_process *p) {
  snprintf((char *)ctx, NTPROC_NAME_MAX, "%s", p->name);
  return NTPROC_STOP;
}

/* Parses a one-process buffer whose name is the given UTF-16 units; returns the UTF-8 name. */
static void name_of(const uint16_t *units, size_t n, char *out) {
  nts_builder b;
  nts_init(&b, BASE);
  nts_proc p = {.pid = 8};
  nts_add_process_utf16(&b, &p, units, n);
  nts_finish(&b);
  ts_err err;
  out[0] = '\0';
  CHECK_INT(ntproc_walk(b.buf, b.len, BASE, first_name, NULL, out, &err), TS_OK);
  nts_free(&b);
}

static void names_become_utf8(void) {
  char name[NTPROC_NAME_MAX];
  const uint16_t umlaut[] = {0xDC, 'b', 'e', 'r', '.', 'e', 'x', 'e'};
  name_of(umlaut, 8, name);
  CHECK(strcmp(name, "\xC3\x9C"
                     "ber.exe") == 0);
  const uint16_t euro[] = {0x20AC, '.', 'e', 'x', 'e'};
  name_of(euro, 5, name);
  CHECK(strcmp(name, "\xE2\x82\xAC.exe") == 0);
  const uint16_t astral[] = {0xD83D, 0xDE00, '.', 'e', 'x', 'e'}; /* U+1F600 */
  name_of(astral, 6, name);
  CHECK(strcmp(name, "\xF0\x9F\x98\x80.exe") == 0);
  const uint16_t lone_high[] = {'a', 0xD83D, 'b'};
  name_of(lone_high, 3, name);
  CHECK(strcmp(name, "a?b") == 0);
  const uint16_t lone_low[] = {'a', 0xDE00, 'b'};
  name_of(lone_low, 3, name);
  CHECK(strcmp(name, "a?b") == 0);
  const uint16_t high_at_end[] = {'a', 0xD83D};
  name_of(high_at_end, 2, name);
  CHECK(strcmp(name, "a?") == 0);
  const uint16_t with_nul[] = {'a', 0, 'b'};
  name_of(with_nul, 3, name);
  CHECK(strcmp(name, "a?b") == 0);
  /* 200 euro signs are 600 UTF-8 bytes: cut at a character boundary below NTPROC_NAME_MAX. */
  uint16_t long_name[200];
  for (int i = 0; i < 200; i++)
    long_name[i] = 0x20AC;
  name_of(long_name, 200, name);
  CHECK_INT(strlen(name), (NTPROC_NAME_MAX - 1) / 3 * 3);
  CHECK(strncmp(name, "\xE2\x82\xAC", 3) == 0);
}

/* ---- callbacks ------------------------------------------------------------------------------- */

typedef struct calls {
  int processes, threads, stop_after, skip_pid;
  int fail_at;
} calls;

static int count_process(void *ctx, const ntproc_process *p) {
  calls *c = ctx;
  c->processes++;
  if (c->fail_at && c->processes == c->fail_at)
    return TS_ENOMEM;
  if (c->stop_after && c->processes == c->stop_after)
    return NTPROC_STOP;
  return (int)p->pid == c->skip_pid ? NTPROC_SKIP_THREADS : NTPROC_NEXT;
}

static int count_thread(void *ctx, const ntproc_process *p, const ntproc_thread *t) {
  calls *c = ctx;
  (void)p;
  (void)t;
  c->threads++;
  return NTPROC_NEXT;
}

static void callbacks_steer_the_walk(void) {
  nts_builder b;
  build_machine(&b);
  ts_err err;
  calls c = {0, 0, 0, -1, 0};
  CHECK_INT(ntproc_walk(b.buf, b.len, BASE, count_process, count_thread, &c, &err), TS_OK);
  CHECK_INT(c.processes, 4);
  CHECK_INT(c.threads, 4 + 140 + 13 + 1528);
  calls skip = {0, 0, 0, 5120, 0};
  CHECK_INT(ntproc_walk(b.buf, b.len, BASE, count_process, count_thread, &skip, &err), TS_OK);
  CHECK_INT(skip.threads, 4 + 140 + 13);
  calls stop = {0, 0, 2, -1, 0};
  CHECK_INT(ntproc_walk(b.buf, b.len, BASE, count_process, count_thread, &stop, &err), TS_OK);
  CHECK_INT(stop.processes, 2);
  CHECK_INT(stop.threads, 4);
  calls fail = {0, 0, 0, -1, 3};
  CHECK_INT(ntproc_walk(b.buf, b.len, BASE, count_process, count_thread, &fail, &err), TS_ENOMEM);
  CHECK_INT(fail.processes, 3);
  /* Only checking: no callbacks at all. */
  CHECK_INT(ntproc_walk(b.buf, b.len, BASE, NULL, NULL, NULL, &err), TS_OK);
  nts_free(&b);
}

/* ---- damaged buffers ------------------------------------------------------------------------- */

/* Walks a copy of exactly `len` bytes (so that ASan sees any read past it) and expects a refusal
   naming `fault`, with no callback run. */
static void refused(const unsigned char *buf, size_t len, uint64_t base, const char *fault) {
  unsigned char *copy = malloc(len ? len : 1);
  memcpy(copy, buf, len);
  calls c = {0, 0, 0, -1, 0};
  ts_err err;
  memset(&err, 0, sizeof err);
  CHECK_INT(ntproc_walk(len ? copy : NULL, len, base, count_process, count_thread, &c, &err),
            TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, fault);
  CHECK_INT(c.processes + c.threads, 0);
  free(copy);
}

/* A small valid buffer: two processes, the second with a name and three threads. */
static void build_small(nts_builder *b) {
  nts_init(b, BASE);
  nts_proc idle = {.pid = 0};
  nts_add_process(b, &idle);
  nts_thread t = {.tid = 0, .state = NTPROC_STATE_RUNNING};
  nts_add_threads(b, 2, &t);
  nts_proc p = {.pid = 5120, .parent_pid = 4, .name = "threadsoup.exe", .handles = 50};
  nts_add_process(b, &p);
  nts_thread w = {.tid = 5124,
                  .state = NTPROC_STATE_WAITING,
                  .wait_reason = NTPROC_WAIT_DELAY_EXECUTION,
                  .context_switches = 7};
  nts_add_threads(b, 3, &w);
  nts_finish(b);
}

#define SECOND (256 + 2 * 80) /* offset of the second entry in build_small */

static void damaged_buffers_are_refused(void) {
  nts_builder b;
  build_small(&b);
  unsigned char *buf = malloc(b.len);
  ts_err err;

  refused(b.buf, 0, BASE, "empty");
  refused(b.buf, 100, BASE, "process entry at offset 0 is truncated: it needs 256 bytes, 100 are");
  refused(b.buf, 256 + 80, BASE, "offset 0: 2 threads need 416 bytes, only 336 are left");
  refused(b.buf, SECOND + 200, BASE, "process entry at offset 416 is truncated");
  /* The last entry cut inside its threads. */
  refused(b.buf, SECOND + 256 + 2 * 80, BASE, "offset 416: 3 threads need 496 bytes");

  /* NextEntryOffset past the end. */
  memcpy(buf, b.buf, b.len);
  nts_put(buf, b.len + 64, 4);
  refused(buf, b.len, BASE, "NextEntryOffset");
  CHECK_INT(ntproc_walk(buf, b.len, BASE, NULL, NULL, NULL, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "past the end of the");
  /* A loop: an offset that wraps to 0 in 32-bit arithmetic would lead back to the first entry;
     forward-only 64-bit arithmetic lands past the end instead. */
  memcpy(buf, b.buf, b.len);
  nts_put(buf + SECOND, 0x100000000ull - SECOND, 4);
  refused(buf, b.len, BASE, "process entry at offset 416: NextEntryOffset 4294966880 leads to");
  /* A loop onto itself or back into its own threads. */
  memcpy(buf, b.buf, b.len);
  nts_put(buf, 8, 4);
  refused(buf, b.len, BASE, "NextEntryOffset 8 points inside the entry itself");
  memcpy(buf, b.buf, b.len);
  nts_put(buf, 256 + 80, 4);
  refused(buf, b.len, BASE, "NextEntryOffset 336 points inside the entry itself (416 bytes");

  /* Thread counts that do not fit, including one whose byte size wraps in 32 bits. */
  memcpy(buf, b.buf, b.len);
  nts_put(buf + 4, 0xFFFFFFFFu, 4);
  refused(buf, b.len, BASE, "4294967295 threads need 343597383856 bytes");
  memcpy(buf, b.buf, b.len);
  nts_put(buf + 4, 0x0CCCCCCDu, 4); /* 80 * this wraps to 16 in 32 bits */
  refused(buf, b.len, BASE, "214748365 threads need");
  memcpy(buf, b.buf, b.len);
  nts_put(buf + 4, 3, 4); /* one more than the entry holds: it overlaps the next entry */
  refused(buf, b.len, BASE, "NextEntryOffset 416 points inside the entry itself (496 bytes");

  /* Names outside the buffer, before it, straddling its end, or of odd length. */
  memcpy(buf, b.buf, b.len);
  nts_put(buf + SECOND + 64, BASE + b.len + 16, 8);
  refused(buf, b.len, BASE, "ImageName.Buffer");
  CHECK_INT(ntproc_walk(buf, b.len, BASE, NULL, NULL, NULL, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "offset 416: ImageName.Buffer 0x1d4c2a30");
  CHECK_STR_CONTAINS(err.text, "lies outside the buffer");
  memcpy(buf, b.buf, b.len);
  nts_put(buf + SECOND + 64, BASE - 2, 8);
  refused(buf, b.len, BASE, "lies outside the buffer");
  memcpy(buf, b.buf, b.len);
  nts_put(buf + SECOND + 64, BASE + b.len - 4, 8);
  refused(buf, b.len, BASE, "(28 bytes) lies outside");
  memcpy(buf, b.buf, b.len);
  nts_put(buf + SECOND + 64, 0, 8); /* NULL with a length */
  refused(buf, b.len, BASE, "lies outside the buffer");
  memcpy(buf, b.buf, b.len);
  nts_put(buf + SECOND + 56, 27, 2);
  refused(buf, b.len, BASE, "ImageName.Length 27 is odd");
  /* The right buffer with the wrong base address: every name is elsewhere. */
  refused(b.buf, b.len, BASE + 0x10000, "lies outside the buffer");

  /* Ids that are not DWORDs, and negative times. */
  memcpy(buf, b.buf, b.len);
  nts_put(buf + SECOND + 80, 0x100000000ull, 8);
  refused(buf, b.len, BASE, "offset 496: UniqueProcessId 0x100000000 is not a 32-bit id");
  memcpy(buf, b.buf, b.len);
  nts_put(buf + SECOND + 256 + 80 + 48, 0xFFFFFFFFFFFFFFFFull, 8);
  refused(buf, b.len, BASE, "offset 800: ClientId.UniqueThread 0xffffffffffffffff");
  memcpy(buf, b.buf, b.len);
  nts_put(buf + SECOND + 48, 0x8000000000000000ull, 8);
  refused(buf, b.len, BASE, "offset 464: KernelTime is negative");
  memcpy(buf, b.buf, b.len);
  nts_put(buf + SECOND + 256 + 8, 0xFFFFFFFFFFFFFFFFull, 8);
  refused(buf, b.len, BASE, "thread UserTime is negative");

  /* A damaged last entry: nothing of the good first entry reaches a callback either. */
  memcpy(buf, b.buf, b.len);
  nts_put(buf + SECOND + 56, 3, 2);
  refused(buf, b.len, BASE, "offset 416");

  /* Unknown states and wait reasons are kept, not refused: a newer Windows adds them. */
  memcpy(buf, b.buf, b.len);
  nts_put(buf + SECOND + 256 + 68, 77, 4);
  nts_put(buf + SECOND + 256 + 80 + 72, 99, 4);
  CHECK_INT(ntproc_walk(buf, b.len, BASE, NULL, NULL, NULL, &err), TS_OK);
  free(buf);
  nts_free(&b);
}

/* ---- random damage --------------------------------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void) { /* xorshift64*: the same sequence on every machine */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1Dull;
}

/* The fields a damaged buffer most plausibly gets wrong, relative to an entry. */
static const size_t hot_fields[] = {0, 4, 56, 58, 64, 80, 88, 32, 40, 48};

static int any_thread(void *ctx, const ntproc_process *p, const ntproc_thread *t) {
  char name[64];
  ntproc_state_name(t->state, t->wait_reason, name, sizeof name);
  (void)p;
  (*(long *)ctx)++;
  return NTPROC_NEXT;
}

static int any_process(void *ctx, const ntproc_process *p) {
  (void)ctx;
  return p->name[NTPROC_NAME_MAX - 1] == '\0' && strlen(p->name) < NTPROC_NAME_MAX ? NTPROC_NEXT
                                                                                   : TS_EUSAGE;
}

static void random_damage_never_crashes(void) {
  nts_builder b;
  build_small(&b);
  nts_proc p = {.pid = 7000, .name = "\xE2\x82\xAC-worker.exe", .handles = 9};
  nts_add_process(&b, &p);
  nts_thread t = {.tid = 7004, .state = NTPROC_STATE_WAITING, .wait_reason = NTPROC_WAIT_WR_QUEUE};
  nts_add_threads(&b, 5, &t);
  nts_finish(&b);
  size_t entries[] = {0, SECOND, SECOND + 256 + 3 * 80 + 32};
  CHECK_INT(nts_get(b.buf + SECOND, 4), entries[2] - SECOND);
  long accepted = 0, refused_count = 0, threads = 0;
  int messages_ok = 1;
  for (int round = 0; round < 20000; round++) {
    size_t len = b.len;
    if (rng() % 8 == 0)
      len = (size_t)(rng() % (b.len + 1)); /* truncation */
    unsigned char *buf = malloc(len ? len : 1);
    memcpy(buf, b.buf, len);
    int edits = 1 + (int)(rng() % 4);
    for (int i = 0; i < edits && len > 0; i++) {
      uint64_t kind = rng() % 4;
      if (kind == 0) { /* one random byte anywhere */
        buf[rng() % len] = (unsigned char)rng();
      } else if (kind == 1) { /* a field of an entry, with a random or nearby value */
        size_t at =
            entries[rng() % 3] + hot_fields[rng() % (sizeof hot_fields / sizeof *hot_fields)];
        uint64_t v = rng() % 2 ? rng() : nts_get(b.buf + at, 4) + (rng() % 64) - 32;
        if (at + 4 <= len)
          nts_put(buf + at, v, at % 8 == 0 && at + 8 <= len ? 8 : 4);
      } else if (kind == 2) { /* a name pointer moved a little */
        size_t at = entries[1 + rng() % 2] + 64;
        if (at + 8 <= len)
          nts_put(buf + at, nts_get(buf + at, 8) + (rng() % 1024) - 512, 8);
      } else { /* a thread count off by a little */
        size_t at = entries[rng() % 3] + 4;
        if (at + 4 <= len)
          nts_put(buf + at, nts_get(buf + at, 4) + (rng() % 9) - 4, 4);
      }
    }
    ts_err err;
    err.text[0] = '\0';
    int rc = ntproc_walk(len ? buf : NULL, len, BASE, any_process, any_thread, &threads, &err);
    if (rc == TS_OK) {
      accepted++;
    } else {
      refused_count++;
      if (rc != TS_EINVAL || strlen(err.text) == 0)
        messages_ok = 0;
    }
    free(buf);
  }
  CHECK(messages_ok);
  CHECK(accepted > 1000);
  CHECK(refused_count > 1000);
  printf("random damage: %ld accepted, %ld refused, %ld threads seen\n", accepted, refused_count,
         threads);
  nts_free(&b);
}

/* ---- recorded snapshot files ----------------------------------------------------------------- */

static void snapshot_file_round_trips(void) {
  nts_builder b;
  build_machine(&b);
  const char *path = "test_ntprocinfo.snapshot";
  CHECK(nts_write_file(&b, path));
  unsigned char *buf = NULL;
  size_t len = 0;
  uint64_t base = 0;
  ts_err err;
  CHECK_INT(ntproc_load_snapshot(path, &buf, &len, &base, &err), TS_OK);
  CHECK_INT(len, b.len);
  CHECK_INT(base, BASE);
  CHECK(buf && memcmp(buf, b.buf, b.len) == 0);
  calls c = {0, 0, 0, -1, 0};
  CHECK_INT(ntproc_walk(buf, len, base, count_process, count_thread, &c, &err), TS_OK);
  CHECK_INT(c.threads, 4 + 140 + 13 + 1528);
  free(buf);

  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (f) {
    fwrite("abc", 1, 3, f);
    fclose(f);
  }
  CHECK_INT(ntproc_load_snapshot(path, &buf, &len, &base, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "is not a recorded process buffer (3 bytes");
  remove(path);
  CHECK_INT(ntproc_load_snapshot(path, &buf, &len, &base, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "cannot open the snapshot 'test_ntprocinfo.snapshot'");
  nts_free(&b);
}

int main(void) {
  RUN_CASE(realistic_snapshot_parsed_exactly);
  RUN_CASE(builder_writes_the_x64_layout);
  RUN_CASE(state_names_match_process_explorer);
  RUN_CASE(names_become_utf8);
  RUN_CASE(callbacks_steer_the_walk);
  RUN_CASE(damaged_buffers_are_refused);
  RUN_CASE(random_damage_never_crashes);
  RUN_CASE(snapshot_file_round_trips);
  return check_summary();
}
