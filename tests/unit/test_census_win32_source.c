/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_census_win32_source.c - the Windows census turns a recorded SystemProcessInformation buffer
   into the right thread states, counts, context switches and CPU times, and reads the live one. */
#include "check.h"
#include "ntsnapshot.h"
#include "threadsoup/plat.h"
#include "threadsoup/plat_knobs.h"

#include <stdlib.h>
#include <string.h>

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <winternl.h>

#include <stddef.h>

/* The parser's offsets agree with the SDK's own declarations of the fields both name. */
#if defined(_WIN64)
_Static_assert(sizeof(SYSTEM_PROCESS_INFORMATION) == NTPROC_PROCESS_ENTRY_LENGTH, "entry size");
_Static_assert(offsetof(SYSTEM_PROCESS_INFORMATION, NumberOfThreads) == 4, "NumberOfThreads");
_Static_assert(offsetof(SYSTEM_PROCESS_INFORMATION, ImageName) == 56, "ImageName");
_Static_assert(offsetof(SYSTEM_PROCESS_INFORMATION, UniqueProcessId) == 80, "UniqueProcessId");
_Static_assert(offsetof(SYSTEM_PROCESS_INFORMATION, HandleCount) == 96, "HandleCount");
_Static_assert(sizeof(SYSTEM_THREAD_INFORMATION) == NTPROC_THREAD_ENTRY_LENGTH, "thread size");
_Static_assert(offsetof(SYSTEM_THREAD_INFORMATION, ClientId) == 40, "ClientId");
_Static_assert(offsetof(SYSTEM_THREAD_INFORMATION, Priority) == 56, "Priority");
_Static_assert(offsetof(SYSTEM_THREAD_INFORMATION, ThreadState) == 68, "ThreadState");
_Static_assert(offsetof(SYSTEM_THREAD_INFORMATION, WaitReason) == 72, "WaitReason");
#endif

#define BASE 0x0000020a5f7c0000ull
#define SNAPSHOT "test_census_win32_source.snapshot"

/* The machine of test_ntprocinfo, in short: Idle, System, a service host and ThreadSoup. */
static void build_machine(nts_builder *b) {
  nts_init(b, BASE);
  nts_proc idle = {.pid = 0, .kernel_time = 9876543210ull};
  nts_add_process(b, &idle);
  nts_thread cpu = {.state = NTPROC_STATE_RUNNING, .context_switches = 1000000};
  nts_add_threads(b, 4, &cpu);
  nts_proc system = {.pid = 4, .name = "System", .handles = 3412, .kernel_time = 51234567ull};
  nts_add_process(b, &system);
  nts_thread worker = {.tid = 8,
                       .state = NTPROC_STATE_WAITING,
                       .wait_reason = NTPROC_WAIT_EXECUTIVE,
                       .context_switches = 311};
  nts_add_threads(b, 100, &worker);
  nts_thread standby = {.tid = 900, .state = NTPROC_STATE_STANDBY, .context_switches = 1};
  nts_add_threads(b, 1, &standby);
  nts_proc svchost = {.pid = 1044,
                      .parent_pid = 812,
                      .name = "svchost.exe",
                      .handles = 712,
                      .kernel_time = 1250000,
                      .user_time = 3750000};
  nts_add_process(b, &svchost);
  nts_thread pool = {.tid = 1048,
                     .state = NTPROC_STATE_WAITING,
                     .wait_reason = NTPROC_WAIT_WR_QUEUE,
                     .context_switches = 5000};
  nts_add_threads(b, 12, &pool);
  nts_thread ready = {.tid = 2000, .state = NTPROC_STATE_READY};
  nts_add_threads(b, 2, &ready);
  nts_thread deferred = {.tid = 2100, .state = NTPROC_STATE_DEFERRED_READY};
  nts_add_threads(b, 1, &deferred);
  nts_proc ts = {.pid = 5120,
                 .parent_pid = 4312,
                 .name = "threadsoup.exe",
                 .handles = 1623,
                 .kernel_time = 20000000,
                 .user_time = 10000000};
  nts_add_process(b, &ts);
  nts_thread controller = {.tid = 5124,
                           .state = NTPROC_STATE_RUNNING,
                           .context_switches = 900,
                           .kernel_time = 1500000,
                           .user_time = 2500000};
  nts_add_threads(b, 1, &controller);
  nts_thread sleeper = {.tid = 10000,
                        .state = NTPROC_STATE_WAITING,
                        .wait_reason = NTPROC_WAIT_DELAY_EXECUTION,
                        .context_switches = 40};
  nts_add_threads(b, 1500, &sleeper);
  nts_thread event = {.tid = 30000,
                      .state = NTPROC_STATE_WAITING,
                      .wait_reason = NTPROC_WAIT_USER_REQUEST,
                      .context_switches = 3};
  nts_add_threads(b, 20, &event);
  nts_thread address = {.tid = 40000,
                        .state = NTPROC_STATE_WAITING,
                        .wait_reason = NTPROC_WAIT_WR_ALERT_BY_THREAD_ID,
                        .context_switches = 2};
  nts_add_threads(b, 7, &address);
}

static void use_snapshot(nts_builder *b) {
  nts_finish(b);
  CHECK(nts_write_file(b, SNAPSHOT));
  nts_free(b);
  plat_knob_set_text(PLAT_KNOB_CENSUS_SOURCE, SNAPSHOT);
}

static void process_states_from_a_recording(void) {
  nts_builder b;
  build_machine(&b);
  use_snapshot(&b);
  plat_process_census pc;
  ts_err err;
  CHECK_INT(plat_census_process(5120, &pc, &err), TS_OK);
  CHECK_INT(pc.pid, 5120);
  CHECK(strcmp(pc.name, "threadsoup.exe") == 0);
  CHECK_INT(pc.threads, 1528);
  CHECK_INT(pc.handles, 1623);
  CHECK_INT(pc.cpu_ns, 3000000000ll); /* (2 s kernel + 1 s user) of the process entry */
  CHECK_INT(pc.context_switches, 900 + 1500 * 40 + 20 * 3 + 7 * 2);
  CHECK_INT(pc.state_count, 4);
  CHECK(strcmp(pc.states[0].name, "Wait:DelayExecution") == 0);
  CHECK_INT(pc.states[0].threads, 1500);
  CHECK(strcmp(pc.states[1].name, "Wait:UserRequest") == 0);
  CHECK_INT(pc.states[1].threads, 20);
  CHECK(strcmp(pc.states[2].name, "Wait:WrAlertByThreadId") == 0);
  CHECK_INT(pc.states[2].threads, 7);
  CHECK(strcmp(pc.states[3].name, "Running") == 0);
  CHECK_INT(pc.states[3].threads, 1);

  CHECK_INT(plat_census_process(0, &pc, &err), TS_OK);
  CHECK_INT(strlen(pc.name), 0);
  CHECK_INT(pc.threads, 4);
  CHECK_INT(pc.state_count, 1);
  CHECK(strcmp(pc.states[0].name, "Running") == 0);

  CHECK_INT(plat_census_process(4, &pc, &err), TS_OK);
  CHECK_INT(pc.state_count, 2);
  CHECK(strcmp(pc.states[0].name, "Wait:Executive") == 0);
  CHECK(strcmp(pc.states[1].name, "Standby") == 0);

  CHECK_INT(plat_census_process(777, &pc, &err), TS_EOS);
  CHECK_STR_CONTAINS(err.text, "process 777 not found");
  plat_knob_set_text(PLAT_KNOB_CENSUS_SOURCE, NULL);
}

static void machine_totals_from_a_recording(void) {
  nts_builder b;
  build_machine(&b);
  use_snapshot(&b);
  plat_census m;
  ts_err err;
  CHECK_INT(plat_census_machine(&m, &err), TS_OK);
  CHECK_INT(m.processes, 4);
  CHECK_INT(m.threads, 4 + 101 + 15 + 1528);
  CHECK_INT(m.handles, 3412 + 712 + 1623);
  /* Ready 2 + DeferredReady 1 (svchost), Standby 1 (System), Running 1 (threadsoup); the Idle
     process's Running threads are idle CPUs, not demand. */
  CHECK_INT(m.run_queue, 5);
  CHECK_INT(m.context_switches,
            4 * 1000000ll + 100 * 311 + 1 + 12 * 5000 + 900 + 1500 * 40 + 20 * 3 + 7 * 2);
  CHECK_INT(plat_process_thread_count(5120, &err), 1528);
  CHECK_INT(plat_process_thread_count(1044, &err), 15);
  CHECK_INT(plat_process_thread_count(778, &err), -1);
  CHECK_STR_CONTAINS(err.text, "process 778 not found");
  plat_knob_set_text(PLAT_KNOB_CENSUS_SOURCE, NULL);
}

static void every_process_from_a_recording(void) {
  nts_builder b;
  build_machine(&b);
  use_snapshot(&b);
  plat_process_census *list = NULL;
  long count = 0;
  ts_err err;
  CHECK_INT(plat_census_processes(&list, &count, &err), TS_OK);
  CHECK_INT(count, 4);
  if (list && count == 4) {
    CHECK_INT(list[0].pid, 0);
    CHECK_INT(list[1].pid, 4);
    CHECK(strcmp(list[1].name, "System") == 0);
    CHECK_INT(list[1].cpu_ns, 5123456700ll);
    CHECK_INT(list[2].pid, 1044);
    CHECK_INT(list[2].threads, 15);
    CHECK_INT(list[2].context_switches, 12 * 5000);
    CHECK_INT(list[2].cpu_ns, 500000000);
    CHECK_INT(list[3].pid, 5120);
    CHECK_INT(list[3].handles, 1623);
    CHECK_INT(list[3].threads, 1528);
    CHECK_INT(list[3].state_count, 0);
  }
  free(list);
  plat_knob_set_text(PLAT_KNOB_CENSUS_SOURCE, NULL);
}

/* More distinct states than PLAT_MAX_STATES: the smallest are lumped into "other"; equal counts
   come in name order. A long name is cut between UTF-8 characters. */
static void many_states_end_in_other(void) {
  nts_builder b;
  nts_init(&b, BASE);
  char name[128] = "";
  for (int i = 0; i < 30; i++)
    strcat(name, "\xE2\x82\xAC"); /* 90 bytes of UTF-8 */
  nts_proc p = {.pid = 64, .name = name};
  nts_add_process(&b, &p);
  for (uint32_t r = 0; r < 30; r++) {
    nts_thread t = {.tid = 100 + 1000 * r, .state = NTPROC_STATE_WAITING, .wait_reason = r};
    nts_add_threads(&b, r < 20 ? 100 - r : 5, &t); /* reasons 20..29 tie at 5 threads each */
  }
  use_snapshot(&b);
  plat_process_census pc;
  ts_err err;
  CHECK_INT(plat_census_process(64, &pc, &err), TS_OK);
  CHECK_INT(strlen(pc.name), 63);
  CHECK(strncmp(pc.name, "\xE2\x82\xAC", 3) == 0);
  CHECK_INT(pc.state_count, PLAT_MAX_STATES);
  CHECK(strcmp(pc.states[0].name, "Wait:Executive") == 0);
  CHECK_INT(pc.states[0].threads, 100);
  CHECK(strcmp(pc.states[19].name, "Wait:WrPageOut") == 0); /* reason 19 */
  /* The three kept among the ties are the first by name: WrCalloutStack, WrCpuRateControl, … */
  CHECK(strcmp(pc.states[20].name, "Wait:WrCalloutStack") == 0);
  CHECK(strcmp(pc.states[21].name, "Wait:WrCpuRateControl") == 0);
  CHECK(strcmp(pc.states[22].name, "Wait:WrKernel") == 0);
  CHECK(strcmp(pc.states[23].name, "other") == 0);
  CHECK_INT(pc.states[23].threads, 7 * 5);
  long sum = 0;
  for (int i = 0; i < pc.state_count; i++)
    sum += pc.states[i].threads;
  CHECK_INT(sum, pc.threads);
  plat_knob_set_text(PLAT_KNOB_CENSUS_SOURCE, NULL);
}

static void damaged_recording_is_refused(void) {
  nts_builder b;
  build_machine(&b);
  nts_finish(&b);
  nts_put(b.buf + 4, 0x7FFFFFFF, 4); /* Idle claims more threads than the buffer holds */
  CHECK(nts_write_file(&b, SNAPSHOT));
  nts_free(&b);
  plat_knob_set_text(PLAT_KNOB_CENSUS_SOURCE, SNAPSHOT);
  plat_census m = {1, 2, 3, 4, 5};
  ts_err err;
  CHECK_INT(plat_census_machine(&m, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "the process list could not be read: process entry at offset 0");
  CHECK_STR_CONTAINS(err.text, "2147483647 threads need");
  CHECK_INT(m.processes, 1); /* untouched on failure */
  plat_process_census *list = NULL;
  long count = -1;
  CHECK_INT(plat_census_processes(&list, &count, &err), TS_EINVAL);
  CHECK(list == NULL);
  CHECK_INT(count, -1);
  plat_knob_set_text(PLAT_KNOB_CENSUS_SOURCE, "no-such-file.snapshot");
  CHECK_INT(plat_census_machine(&m, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "census source: cannot open the snapshot 'no-such-file.snapshot'");
  plat_knob_set_text(PLAT_KNOB_CENSUS_SOURCE, NULL);
  remove(SNAPSHOT);
}

/* ---- the live census (under Wine: processes, threads and times; states and switches are 0) --- */

static HANDLE stop_event;

static DWORD WINAPI waiter(void *arg) {
  (void)arg;
  WaitForSingleObject(stop_event, INFINITE);
  return 0;
}

/* 300 threads make the list (80 bytes a thread) outgrow the first 16 KiB buffer, so the
   grow-and-retry path runs against the real NtQuerySystemInformation. */
#define LIVE_THREADS 300

static void live_census_counts_our_threads(void) {
  plat_knob_set_text(PLAT_KNOB_CENSUS_SOURCE, NULL);
  plat_census m;
  ts_err err;
  CHECK_INT(plat_census_machine(&m, &err), TS_OK);
  CHECK(m.processes > 0);
  CHECK(m.threads > 0);
  CHECK(m.handles > 0);
  long self = plat_self_pid();
  long before = plat_process_thread_count(self, &err);
  CHECK(before >= 1);
  stop_event = CreateEventW(NULL, TRUE, FALSE, NULL);
  static HANDLE threads[LIVE_THREADS];
  for (int i = 0; i < LIVE_THREADS; i++)
    threads[i] = CreateThread(NULL, 65536, waiter, NULL, STACK_SIZE_PARAM_IS_A_RESERVATION, NULL);
  CHECK_INT(plat_process_thread_count(self, &err), before + LIVE_THREADS);
  plat_process_census pc;
  CHECK_INT(plat_census_process(self, &pc, &err), TS_OK);
  CHECK_INT(pc.threads, before + LIVE_THREADS);
  /* The image name is the program's file name, as Process Explorer lists it. */
  wchar_t path[PLAT_PATH_MAX];
  char self_name[PLAT_PATH_MAX] = "";
  DWORD n = GetModuleFileNameW(NULL, path, PLAT_PATH_MAX);
  const wchar_t *base = path + n;
  while (base > path && base[-1] != L'\\' && base[-1] != L'/')
    base--;
  WideCharToMultiByte(CP_UTF8, 0, base, -1, self_name, (int)sizeof self_name, NULL, NULL);
  CHECK(n > 0 && strcmp(pc.name, self_name) == 0);
  long in_states = 0;
  for (int i = 0; i < pc.state_count; i++)
    in_states += pc.states[i].threads;
  CHECK_INT(in_states, pc.threads);
  printf("live: %ld processes, %ld threads, %ld handles, run queue %ld, %llu context switches; "
         "self %ld: %ld threads, %llu ns CPU, first state %s\n",
         m.processes, m.threads, m.handles, m.run_queue, (unsigned long long)m.context_switches,
         self, pc.threads, (unsigned long long)pc.cpu_ns, pc.state_count ? pc.states[0].name : "-");
  SetEvent(stop_event);
  for (int i = 0; i < LIVE_THREADS; i++) {
    WaitForSingleObject(threads[i], INFINITE);
    CloseHandle(threads[i]);
  }
  CloseHandle(stop_event);
  CHECK_INT(plat_process_thread_count(self, &err), before);
  plat_process_census *list = NULL;
  long count = 0;
  CHECK_INT(plat_census_processes(&list, &count, &err), TS_OK);
  int found = 0;
  for (long i = 0; i < count; i++)
    found += list[i].pid == self;
  CHECK_INT(found, 1);
  free(list);
}

int main(void) {
  RUN_CASE(process_states_from_a_recording);
  RUN_CASE(machine_totals_from_a_recording);
  RUN_CASE(every_process_from_a_recording);
  RUN_CASE(many_states_end_in_other);
  RUN_CASE(damaged_recording_is_refused);
  RUN_CASE(live_census_counts_our_threads);
  return check_summary();
}
