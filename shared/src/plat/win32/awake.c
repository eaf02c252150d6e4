/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* awake.c (Windows) - keeping Windows awake while a run or a load is active, through a
   system-required power request, and the time the machine spent asleep or hibernated. */
#include "threadsoup/plat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threadsoup/plat_doctor.h"
#include "threadsoup/plat_knobs.h"
#include "threadsoup/units.h"
#include "win32.h"

struct plat_stay_awake {
  HANDLE request;
  wchar_t why[256]; /* PowerCreateRequest keeps a pointer to the reason, not a copy */
};

static void refused(const char *what, char *state, size_t len) {
  char text[200];
  win32_error_text(GetLastError(), text, sizeof text);
  snprintf(state, len, "n/a: %s failed: %s", what, text);
}

/* A power request rather than SetThreadExecutionState: it belongs to the hold, not to a thread,
   so the runner's thread and a client's load can each hold one and end it from any thread, and
   `powercfg /requests` names ThreadSoup and why. PowerRequestSystemRequired keeps the system
   out of sleep on idle; the display may still turn off (no PowerRequestDisplayRequired). */
plat_stay_awake *plat_stay_awake_begin(const char *why, char *state, size_t len) {
  plat_stay_awake *hold = calloc(1, sizeof *hold);
  if (!hold) {
    snprintf(state, len, "n/a: no memory");
    return NULL;
  }
  if (!MultiByteToWideChar(CP_UTF8, 0, why, -1, hold->why, (int)(sizeof hold->why / 2)))
    wcscpy(hold->why, L"ThreadSoup is measuring");
  REASON_CONTEXT reason;
  memset(&reason, 0, sizeof reason);
  reason.Version = POWER_REQUEST_CONTEXT_VERSION;
  reason.Flags = POWER_REQUEST_CONTEXT_SIMPLE_STRING;
  reason.Reason.SimpleReasonString = hold->why;
  hold->request = PowerCreateRequest(&reason);
  if (hold->request == INVALID_HANDLE_VALUE || hold->request == NULL) {
    refused("PowerCreateRequest", state, len);
    free(hold);
    return NULL;
  }
  if (!PowerSetRequest(hold->request, PowerRequestSystemRequired)) {
    refused("PowerSetRequest(PowerRequestSystemRequired)", state, len);
    CloseHandle(hold->request);
    free(hold);
    return NULL;
  }
  snprintf(state, len, "held");
  return hold;
}

void plat_stay_awake_end(plat_stay_awake *hold) {
  if (!hold)
    return;
  PowerClearRequest(hold->request, PowerRequestSystemRequired);
  CloseHandle(hold->request);
  free(hold);
}

long plat_stay_awake_pid(const plat_stay_awake *hold) {
  (void)hold;
  return -1;
}

typedef VOID(WINAPI *query_interrupt_time_fn)(PULONGLONG);

/* QueryInterruptTime (Windows 10 and later, in KernelBase) counts time asleep and hibernated;
   QueryUnbiasedInterruptTime does not. Both count 100 ns units from the same start. Before
   Windows 10, GetTickCount64 (milliseconds, also counting sleep) stands in for the first. */
uint64_t plat_suspended_ns(void) {
  HMODULE kernelbase = GetModuleHandleW(L"kernelbase.dll");
  FARPROC proc = kernelbase ? GetProcAddress(kernelbase, "QueryInterruptTime") : NULL;
  query_interrupt_time_fn query;
  memcpy(&query, &proc, sizeof query);
  ULONGLONG unbiased = 0, biased = 0;
  QueryUnbiasedInterruptTime(&unbiased);
  if (query)
    query(&biased);
  else
    biased = GetTickCount64() * 10000;
  uint64_t asleep = biased > unbiased ? (biased - unbiased) * 100 : 0;
  return asleep + (plat_fault_due(PLAT_FAULT_SUSPEND) ? 60 * TS_NS_PER_S : 0);
}

/* The power plan's settings, from powrprof.dll (loaded here, so the programs need no import of
   it): the sleep subgroup's idle timeout before sleep and whether wake timers may wake the PC. */
static const GUID sleep_subgroup = {
    0x238c9fa8, 0x0aad, 0x41ed, {0x83, 0xf4, 0x97, 0xbe, 0x24, 0x2c, 0x8f, 0x20}};
static const GUID standby_timeout = {
    0x29f6c1db, 0x86da, 0x48c5, {0x9f, 0xdb, 0xf2, 0xb6, 0x7b, 0x1f, 0x44, 0xda}};
static const GUID allow_rtc_wake = {
    0xbd3b718a, 0x0680, 0x4d9d, {0x8a, 0xb2, 0xe1, 0xd2, 0xb4, 0xac, 0x80, 0x6d}};

typedef DWORD(WINAPI *get_active_scheme_fn)(HKEY, GUID **);
typedef DWORD(WINAPI *read_value_index_fn)(HKEY, const GUID *, const GUID *, const GUID *, LPDWORD);

static long plan_value(read_value_index_fn read, const GUID *scheme, const GUID *setting) {
  DWORD value = 0;
  return read && read(NULL, scheme, &sleep_subgroup, setting, &value) == ERROR_SUCCESS
             ? (long)value
             : PLAT_LIMIT_UNKNOWN;
}

/* A DWORD under HKLM: its value, or -1 when absent or unreadable. */
static int machine_dword(const wchar_t *key, const wchar_t *name) {
  DWORD value = 0, size = sizeof value;
  return RegGetValueW(HKEY_LOCAL_MACHINE, key, name, RRF_RT_REG_DWORD, NULL, &value, &size) ==
                 ERROR_SUCCESS
             ? (int)value
             : -1;
}

void plat_sleep_facts_read(plat_sleep_facts *out) {
  memset(out, 0, sizeof *out);
  out->windows = 1;
  out->ac_sleep_s = out->dc_sleep_s = PLAT_LIMIT_UNKNOWN;
  out->ac_wake_timers = out->dc_wake_timers = -1;
  out->logind = 0;
  out->fast_startup = machine_dword(L"SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Power",
                                    L"HiberbootEnabled");
  out->hibernation =
      machine_dword(L"SYSTEM\\CurrentControlSet\\Control\\Power", L"HibernateEnabled");
  HMODULE powrprof = LoadLibraryW(L"powrprof.dll");
  if (!powrprof) {
    win32_error_text(GetLastError(), out->why, sizeof out->why);
    return;
  }
  FARPROC proc = GetProcAddress(powrprof, "PowerGetActiveScheme");
  get_active_scheme_fn get_scheme;
  memcpy(&get_scheme, &proc, sizeof get_scheme);
  read_value_index_fn read_ac, read_dc;
  proc = GetProcAddress(powrprof, "PowerReadACValueIndex");
  memcpy(&read_ac, &proc, sizeof read_ac);
  proc = GetProcAddress(powrprof, "PowerReadDCValueIndex");
  memcpy(&read_dc, &proc, sizeof read_dc);
  GUID *scheme = NULL;
  DWORD rc = get_scheme ? get_scheme(NULL, &scheme) : ERROR_PROC_NOT_FOUND;
  if (rc != ERROR_SUCCESS || !scheme) {
    win32_error_text(rc, out->why, sizeof out->why);
  } else {
    out->ac_sleep_s = plan_value(read_ac, scheme, &standby_timeout);
    out->dc_sleep_s = plan_value(read_dc, scheme, &standby_timeout);
    out->ac_wake_timers = (int)plan_value(read_ac, scheme, &allow_rtc_wake);
    out->dc_wake_timers = (int)plan_value(read_dc, scheme, &allow_rtc_wake);
    LocalFree(scheme);
  }
  FreeLibrary(powrprof);
}
