/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* time.c (Windows) - clocks, timestamps and the plain Sleep the sleep scenario is made of. */
#include "threadsoup/plat.h"

#include <stdio.h>
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
