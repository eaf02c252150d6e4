/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* sysinfo.c (Windows) - names the machine a run was measured on. */
#include "threadsoup/plat.h"

#include <stdio.h>
#include <string.h>

#include "win32.h"

/* GetVersionEx lies to programs without a manifest; ntdll's RtlGetVersion does not. */
typedef LONG(WINAPI *rtl_get_version_fn)(OSVERSIONINFOEXW *);

/* The release's marketing version ("23H2"): DisplayVersion since Windows 10 20H2, ReleaseId
   ("2004") before it. */
static void read_display_version(char *buf, size_t len) {
  static const wchar_t *const names[] = {L"DisplayVersion", L"ReleaseId"};
  buf[0] = '\0';
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    wchar_t value[32];
    DWORD size = sizeof value;
    if (RegGetValueW(HKEY_LOCAL_MACHINE, L"SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion",
                     names[i], RRF_RT_REG_SZ | RRF_SUBKEY_WOW6464KEY, NULL, value,
                     &size) == ERROR_SUCCESS &&
        win32_from_wide(value, buf, len) && buf[0])
      return;
    buf[0] = '\0';
  }
}

static void read_os(char *buf, size_t len) {
  OSVERSIONINFOEXW v;
  memset(&v, 0, sizeof v);
  v.dwOSVersionInfoSize = sizeof v;
  HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
  FARPROC proc = ntdll ? GetProcAddress(ntdll, "RtlGetVersion") : NULL;
  rtl_get_version_fn get_version;
  memcpy(&get_version, &proc, sizeof get_version);
  if (!get_version || get_version(&v) != 0) {
    snprintf(buf, len, "Windows");
    return;
  }
  plat_windows_version version = {v.dwMajorVersion, v.dwMinorVersion, v.dwBuildNumber,
                                  v.wProductType == VER_NT_WORKSTATION, ""};
  read_display_version(version.display_version, sizeof version.display_version);
  plat_windows_name(&version, buf, len);
}

static void read_cpu(char *buf, size_t len) {
  wchar_t name[128];
  DWORD size = sizeof name;
  snprintf(buf, len, "unknown");
  if (RegGetValueW(HKEY_LOCAL_MACHINE, L"HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0",
                   L"ProcessorNameString", RRF_RT_REG_SZ, NULL, name, &size) == ERROR_SUCCESS)
    win32_from_wide(name, buf, len);
}

void plat_sysinfo_read(plat_sysinfo *out) {
  memset(out, 0, sizeof *out);
  wchar_t host[MAX_COMPUTERNAME_LENGTH + 1];
  DWORD n = sizeof host / sizeof host[0];
  if (!GetComputerNameW(host, &n) || !win32_from_wide(host, out->host, sizeof out->host))
    snprintf(out->host, sizeof out->host, "unknown");
  read_os(out->os, sizeof out->os);
  read_cpu(out->cpu, sizeof out->cpu);
  /* GetSystemInfo counts only the calling thread's processor group (at most 64 CPUs); the active
     processors of all groups are GetActiveProcessorCount(ALL_PROCESSOR_GROUPS). */
  DWORD all = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
  if (all == 0) {
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    all = si.dwNumberOfProcessors;
  }
  out->logical_cpus = all > 0 ? (int)all : 1;
  MEMORYSTATUSEX memory;
  memory.dwLength = sizeof memory;
  if (GlobalMemoryStatusEx(&memory))
    out->memory_bytes = memory.ullTotalPhys;
  /* Setup writes MachineGuid once per installation (sysprep makes a new one). A 32-bit process
     on 64-bit Windows must read the 64-bit view, where the value is. */
  wchar_t guid[64];
  DWORD size = sizeof guid;
  char os_id[128] = "";
  if (RegGetValueW(HKEY_LOCAL_MACHINE, L"SOFTWARE\\Microsoft\\Cryptography", L"MachineGuid",
                   RRF_RT_REG_SZ | RRF_SUBKEY_WOW6464KEY, NULL, guid, &size) == ERROR_SUCCESS)
    win32_from_wide(guid, os_id, sizeof os_id);
  plat_machine_id_derive(os_id, out->machine_id, sizeof out->machine_id);
}
