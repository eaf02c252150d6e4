/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* time.c (Windows) - clocks, timestamps, the sleeps the sleep scenario is made of (plain SleepEx,
   or high-resolution waitable timers) and the system timer resolution (NtQueryTimerResolution). */
#include "threadsoup/plat.h"
#include "threadsoup/plat_knobs.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "win32.h"
#include "threadsoup/units.h"

uint64_t plat_clock_ns(void) {
  static LARGE_INTEGER frequency; /* constant after boot; caching it is safe */
  LARGE_INTEGER now;
  if (frequency.QuadPart == 0)
    QueryPerformanceFrequency(&frequency);
  QueryPerformanceCounter(&now);
  uint64_t f = (uint64_t)frequency.QuadPart, c = (uint64_t)now.QuadPart;
  return (c / f) * TS_NS_PER_S + (c % f) * TS_NS_PER_S / f;
}

void plat_sleep_ns(uint64_t ns) {
  /* Sleep is Wait:DelayExecution, the state the experiment observed; round up to whole ms. */
  uint64_t ms = (ns + TS_NS_PER_MS - 1) / TS_NS_PER_MS;
  Sleep(ms > 0xFFFFFFFEu ? 0xFFFFFFFEu : (DWORD)ms);
}

void plat_sleep_until_ns(uint64_t deadline_ns) {
  /* Sleep has no absolute form; sleeping exactly the time left keeps the thread in
     Wait:DelayExecution (a waitable timer would show as Wait:UserRequest) and still does not
     drift, since each deadline is computed from the previous deadline, not from the wake-up. */
  uint64_t now = plat_clock_ns();
  if (deadline_ns > now)
    plat_sleep_ns(deadline_ns - now);
}

void plat_sleep_wakeable_enable(void) { /* an APC needs nothing on the sleeping thread */
}

static DWORD sleep_ms(uint64_t ns) {
  uint64_t ms = (ns + TS_NS_PER_MS - 1) / TS_NS_PER_MS;
  return ms > 0xFFFFFFFEu ? 0xFFFFFFFEu : (DWORD)ms;
}

int plat_sleep_ns_wakeable(uint64_t ns) {
  /* SleepEx is Sleep's own call (NtDelayExecution, Wait:DelayExecution), only alertable: a queued
     APC ends it early with WAIT_IO_COMPLETION. */
  return SleepEx(sleep_ms(ns), TRUE) == WAIT_IO_COMPLETION;
}

int plat_sleep_until_ns_wakeable(uint64_t deadline_ns) {
  uint64_t now = plat_clock_ns();
  return deadline_ns > now ? plat_sleep_ns_wakeable(deadline_ns - now) : 0;
}

static void CALLBACK wake_apc(ULONG_PTR unused) { (void)unused; /* only to end the SleepEx */ }

int plat_thread_wake(const plat_thread *thread) {
  /* An APC stays queued until the thread's next alertable wait, which then returns at once. */
  return QueueUserAPC(wake_apc, (HANDLE)thread->handle, 0) != 0;
}

int plat_local_time(int64_t t, struct tm *out) {
  time_t tt = (time_t)t;
  return localtime_s(out, &tt) == 0;
}

void plat_utc_timestamp(char *buf, size_t len) {
  SYSTEMTIME st;
  GetSystemTime(&st);
  snprintf(buf, len, "%04u-%02u-%02uT%02u:%02u:%02u.%03uZ", st.wYear, st.wMonth, st.wDay, st.wHour,
           st.wMinute, st.wSecond, st.wMilliseconds);
}

static uint64_t filetime_100ns(FILETIME ft) {
  return ((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
}

uint64_t plat_process_cpu_ns(void) {
  FILETIME created, exited, kernel, user;
  if (!GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user))
    return 0;
  return (filetime_100ns(kernel) + filetime_100ns(user)) * 100u;
}

uint64_t plat_thread_cpu_ns(void) {
  FILETIME created, exited, kernel, user;
  if (!GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user))
    return 0;
  return (filetime_100ns(kernel) + filetime_100ns(user)) * 100u;
}

/* Cycles per microsecond of the thread cycle counter: measured once, as a 20 ms busy wait's
   cycles over its performance-counter time (the thread runs the whole while, so the two agree
   unless it was preempted: the largest of three tries is kept). 0 when there is no cycle counter
   (Wine 8 fails QueryThreadCycleTime: burn then spins on wall time). */
double win32_thread_cycle_rate(void) {
  static INIT_ONCE once = INIT_ONCE_STATIC_INIT;
  static double rate;
  BOOL pending;
  if (!InitOnceBeginInitialize(&once, 0, &pending, NULL))
    return 0;
  if (pending) {
    for (int i = 0; i < 3; i++) {
      ULONG64 c0 = 0, c1 = 0;
      uint64_t t0 = plat_clock_ns();
      if (!QueryThreadCycleTime(GetCurrentThread(), &c0))
        break;
      while (plat_clock_ns() - t0 < 20 * TS_NS_PER_MS) {
      }
      QueryThreadCycleTime(GetCurrentThread(), &c1);
      uint64_t t1 = plat_clock_ns();
      double r = t1 > t0 ? (double)(c1 - c0) / ((double)(t1 - t0) / 1000.0) : 0;
      if (r > rate)
        rate = r;
    }
    InitOnceComplete(&once, 0, NULL);
  }
  return rate;
}

uint64_t plat_thread_spin_ns(void) {
  double rate = win32_thread_cycle_rate();
  ULONG64 cycles = 0;
  if (rate <= 0 || !QueryThreadCycleTime(GetCurrentThread(), &cycles) || cycles == 0)
    return 0;
  return (uint64_t)((double)cycles / rate * 1000.0);
}

/* ---- timer resolution ---- */

/* Windows 10 1803 and later (synchapi.h); older SDKs lack the name. */
#ifndef CREATE_WAITABLE_TIMER_HIGH_RESOLUTION
#define CREATE_WAITABLE_TIMER_HIGH_RESOLUTION 0x00000002
#endif

const char *plat_resolution_name(plat_resolution r) {
  return r == PLAT_RESOLUTION_HIGH ? "high" : "default";
}

int plat_sleeper_init(plat_sleeper *s, plat_resolution want, ts_err *err) {
  s->asked = want;
  s->obtained = PLAT_RESOLUTION_DEFAULT;
  s->timer = NULL;
  if (want != PLAT_RESOLUTION_HIGH)
    return TS_OK; /* default: SleepEx, Sleep's own call, at the system tick */
  /* Microsoft documents the flag for time-critical waits "when short expiry delays of a few
     milliseconds are unacceptable", supported from Windows 10 1803; unlike timeBeginPeriod it
     asks nothing of the system's timer resolution. */
  int refused = plat_fault_due(PLAT_FAULT_HIRES_TIMER);
  HANDLE timer = refused ? NULL
                         : CreateWaitableTimerExW(NULL, NULL, CREATE_WAITABLE_TIMER_HIGH_RESOLUTION,
                                                  TIMER_ALL_ACCESS);
  if (!timer) {
    DWORD code = refused ? ERROR_INVALID_PARAMETER : GetLastError();
    if (code == ERROR_INVALID_PARAMETER)
      return ts_err_set(err, TS_EUNSUPPORTED,
                        "this Windows has no high-resolution waitable timers (Windows 10 1803 or "
                        "later has them): the sleepers use SleepEx at the system's resolution");
    return ts_err_set(err, TS_EOS, "cannot create a high-resolution waitable timer (error %lu)",
                      (unsigned long)code);
  }
  s->timer = timer;
  s->obtained = PLAT_RESOLUTION_HIGH;
  return TS_OK;
}

int plat_sleeper_enter(plat_sleeper *s, ts_err *err) {
  (void)s;
  (void)err;
  plat_sleep_wakeable_enable();
  return TS_OK;
}

int plat_sleeper_sleep_ns(plat_sleeper *s, uint64_t ns) {
  if (!s->timer)
    return plat_sleep_ns_wakeable(ns);
  /* Relative due time, negative, in 100 ns units (rounded up: never earlier than asked). The
     thread then waits in Wait:UserRequest, not Sleep's Wait:DelayExecution; alertable, so the
     stop's APC ends the wait with WAIT_IO_COMPLETION as it ends a SleepEx. */
  uint64_t ticks = (ns + 99) / 100;
  LARGE_INTEGER due;
  due.QuadPart = -(LONGLONG)(ticks > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : ticks);
  if (!SetWaitableTimer((HANDLE)s->timer, &due, 0, NULL, NULL, FALSE))
    return plat_sleep_ns_wakeable(ns);
  return WaitForSingleObjectEx((HANDLE)s->timer, INFINITE, TRUE) == WAIT_IO_COMPLETION;
}

int plat_sleeper_sleep_until_ns(plat_sleeper *s, uint64_t deadline_ns) {
  /* Deadlines are on the performance counter, which the timer's absolute form (system time)
     does not follow: the time left, from the previous deadline, keeps it drift-free. */
  uint64_t now = plat_clock_ns();
  return deadline_ns > now ? plat_sleeper_sleep_ns(s, deadline_ns - now) : 0;
}

void plat_sleeper_free(plat_sleeper *s) {
  if (s->timer)
    CloseHandle((HANDLE)s->timer);
  s->timer = NULL;
}

/* NtQueryTimerResolution answers in 100 ns: the coarsest resolution (the default tick, 156250 on
   most machines), the finest (5000 or 10000) and the current one. */
typedef LONG(NTAPI *query_timer_resolution_fn)(PULONG coarsest, PULONG finest, PULONG current);

int plat_timer_resolution(plat_timer_info *out, ts_err *err) {
  out->current_us = out->finest_us = out->coarsest_us = out->slack_us = -1;
  ULONG coarsest = 0, finest = 0, current = 0;
  if (plat_knob_is_set(PLAT_KNOB_TIMER_CURRENT)) {
    snprintf(out->source, sizeof out->source, "NtQueryTimerResolution (injected for a test)");
    coarsest = (ULONG)plat_knob_number(PLAT_KNOB_TIMER_COARSEST, 0);
    finest = (ULONG)plat_knob_number(PLAT_KNOB_TIMER_FINEST, 0);
    current = (ULONG)plat_knob_number(PLAT_KNOB_TIMER_CURRENT, 0);
  } else {
    snprintf(out->source, sizeof out->source, "NtQueryTimerResolution");
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    FARPROC proc = ntdll ? GetProcAddress(ntdll, "NtQueryTimerResolution") : NULL;
    if (!proc)
      return ts_err_set(err, TS_EUNSUPPORTED, "ntdll has no NtQueryTimerResolution");
    query_timer_resolution_fn query;
    memcpy(&query, &proc, sizeof query);
    LONG status = query(&coarsest, &finest, &current);
    if (status < 0)
      return ts_err_set(err, TS_EUNSUPPORTED, "NtQueryTimerResolution failed (status 0x%08lx)",
                        (unsigned long)status);
  }
  if (current == 0)
    return ts_err_set(err, TS_EUNSUPPORTED, "NtQueryTimerResolution gave no current resolution");
  out->coarsest_us = (double)coarsest / 10.0;
  out->finest_us = (double)finest / 10.0;
  out->current_us = (double)current / 10.0;
  return TS_OK;
}
