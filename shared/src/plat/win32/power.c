/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* power.c (Windows) - benchmark placement on Windows: benchmark threads and commands out of
   power throttling (EcoQoS) at normal priority, spread over processor groups; the power source;
   the efficiency class of each logical CPU and the one a thread runs on. */
#include "threadsoup/plat.h"

#include <stdio.h>
#include <string.h>

#include "win32.h"

/* THREAD_POWER_THROTTLING_STATE and its constants (processthreadsapi.h, Windows 10 1709 SDK and
   later), defined here because MinGW's headers lack them: Version
   THREAD_POWER_THROTTLING_CURRENT_VERSION = 1, ControlMask/StateMask bit
   THREAD_POWER_THROTTLING_EXECUTION_SPEED = 0x1; ThreadPowerThrottling is 3 in
   THREAD_INFORMATION_CLASS. Per Microsoft's documentation of SetThreadInformation: a thread with
   EXECUTION_SPEED in ControlMask and in StateMask is EcoQoS (lower clocks, efficiency cores);
   in ControlMask but not in StateMask it is explicitly opted out ("high QoS"); in neither, the
   system decides - and Windows 11 decides EcoQoS for the threads of background processes such as
   services. The same holds for PROCESS_POWER_THROTTLING_STATE with SetProcessInformation
   (ProcessPowerThrottling = 4), which also has PROCESS_POWER_THROTTLING_IGNORE_TIMER_RESOLUTION
   = 0x4 (Windows 11: a throttled process's timer-resolution requests may be ignored). */
#define TS_THREAD_POWER_THROTTLING_CURRENT_VERSION 1u
#define TS_POWER_THROTTLING_EXECUTION_SPEED 0x1u
#define TS_PROCESS_POWER_THROTTLING_IGNORE_TIMER_RESOLUTION 0x4u
#define TS_THREAD_POWER_THROTTLING_CLASS 3
#define TS_PROCESS_POWER_THROTTLING_CLASS 4

typedef struct ts_power_throttling_state {
  ULONG Version;
  ULONG ControlMask;
  ULONG StateMask;
} ts_power_throttling_state;

typedef BOOL(WINAPI *set_thread_information_fn)(HANDLE, int, LPVOID, DWORD);
typedef BOOL(WINAPI *set_process_information_fn)(HANDLE, int, LPVOID, DWORD);
typedef BOOL(WINAPI *get_system_cpu_set_information_fn)(void *, ULONG, PULONG, HANDLE, ULONG);

/* Windows 7 lacks SetThreadInformation, 8 and 8.1 lack GetSystemCpuSetInformation: looked up by
   name, so the program still starts there. */
static FARPROC kernel32_proc(const char *name) {
  HMODULE kernel32 = GetModuleHandleW(L"kernel32.dll");
  return kernel32 ? GetProcAddress(kernel32, name) : NULL;
}

static void error_state(const char *what, DWORD code, char *state, size_t len) {
  char text[200];
  win32_error_text(code, text, sizeof text);
  snprintf(state, len, "%s: %s", what, text);
}

const char *plat_power_source(void) {
  SYSTEM_POWER_STATUS status;
  if (!GetSystemPowerStatus(&status))
    return "unknown";
  return plat_power_source_from_status(status.ACLineStatus, status.BatteryFlag);
}

void plat_bench_thread_begin(char *state, size_t len) {
  FARPROC proc = kernel32_proc("SetThreadInformation");
  set_thread_information_fn set_info;
  memcpy(&set_info, &proc, sizeof set_info);
  if (!set_info) {
    snprintf(state, len, "unsupported");
  } else {
    ts_power_throttling_state s = {TS_THREAD_POWER_THROTTLING_CURRENT_VERSION,
                                   TS_POWER_THROTTLING_EXECUTION_SPEED, 0};
    if (set_info(GetCurrentThread(), TS_THREAD_POWER_THROTTLING_CLASS, &s, sizeof s))
      snprintf(state, len, "off");
    else
      error_state("SetThreadInformation(ThreadPowerThrottling) failed", GetLastError(), state, len);
  }
  if (!SetThreadPriority(GetCurrentThread(), THREAD_PRIORITY_NORMAL)) {
    size_t used = strlen(state);
    error_state("; cannot set normal priority", GetLastError(), state + used, len - used);
  }
}

void win32_process_opt_out(HANDLE process, char *state, size_t len) {
  FARPROC proc = kernel32_proc("SetProcessInformation");
  set_process_information_fn set_info;
  memcpy(&set_info, &proc, sizeof set_info);
  if (!set_info) {
    snprintf(state, len, "unsupported");
    return;
  }
  /* Both controls where Windows knows them; Windows 10 before 21H2 refuses the timer-resolution
     bit, and then the execution-speed bit alone is what counts. */
  ts_power_throttling_state s = {
      TS_THREAD_POWER_THROTTLING_CURRENT_VERSION,
      TS_POWER_THROTTLING_EXECUTION_SPEED | TS_PROCESS_POWER_THROTTLING_IGNORE_TIMER_RESOLUTION, 0};
  if (set_info(process, TS_PROCESS_POWER_THROTTLING_CLASS, &s, sizeof s)) {
    snprintf(state, len, "off");
    return;
  }
  s.ControlMask = TS_POWER_THROTTLING_EXECUTION_SPEED;
  if (set_info(process, TS_PROCESS_POWER_THROTTLING_CLASS, &s, sizeof s))
    snprintf(state, len, "off");
  else
    error_state("SetProcessInformation(ProcessPowerThrottling) failed", GetLastError(), state, len);
}

/* Active logical CPUs per processor group; the number of groups. */
static int group_sizes(int sizes[], int max) {
  int groups = (int)GetActiveProcessorGroupCount();
  if (groups < 1)
    groups = 1;
  if (groups > max)
    groups = max;
  for (int g = 0; g < groups; g++)
    sizes[g] = (int)GetActiveProcessorCount((WORD)g);
  return groups;
}

void plat_bench_thread_spread(long index) {
  /* Before Windows 11 a process's threads all start in one group (at most 64 CPUs); since
     Windows 11 and Server 2022 they may span all groups by default, but an explicit group
     affinity still puts each benchmark thread where the arithmetic says. The group's active
     processors are numbered 0..n-1, so the low n bits are its mask. */
  int sizes[32];
  int groups = group_sizes(sizes, 32);
  if (groups < 2)
    return;
  int g = plat_group_for_thread(sizes, groups, index);
  if (g < 0 || sizes[g] <= 0)
    return;
  GROUP_AFFINITY affinity;
  memset(&affinity, 0, sizeof affinity);
  affinity.Group = (WORD)g;
  affinity.Mask = sizes[g] >= 64 ? ~(KAFFINITY)0 : (((KAFFINITY)1 << sizes[g]) - 1);
  SetThreadGroupAffinity(GetCurrentThread(), &affinity, NULL);
}

int plat_current_cpu(void) {
  PROCESSOR_NUMBER n;
  memset(&n, 0, sizeof n);
  GetCurrentProcessorNumberEx(&n);
  int sizes[32];
  int groups = group_sizes(sizes, 32);
  if (n.Group >= groups)
    return -1;
  int cpu = n.Number;
  for (int g = 0; g < n.Group; g++)
    cpu += sizes[g];
  return cpu;
}

void plat_core_layout_read(plat_core_layout *out) {
  memset(out, 0, sizeof *out);
  memset(out->cpu_class, PLAT_CPU_ABSENT, sizeof out->cpu_class);
  FARPROC proc = kernel32_proc("GetSystemCpuSetInformation");
  get_system_cpu_set_information_fn get_sets;
  memcpy(&get_sets, &proc, sizeof get_sets);
  ULONG length = 0;
  if (!get_sets ||
      (get_sets(NULL, 0, &length, GetCurrentProcess(), 0) == 0 &&
       GetLastError() != ERROR_INSUFFICIENT_BUFFER) ||
      length == 0)
    return;
  void *buffer = HeapAlloc(GetProcessHeap(), 0, length);
  ts_err err;
  if (buffer && get_sets(buffer, length, &length, GetCurrentProcess(), 0))
    plat_core_layout_from_cpu_sets(buffer, length, out, &err);
  if (buffer)
    HeapFree(GetProcessHeap(), 0, buffer);
}
