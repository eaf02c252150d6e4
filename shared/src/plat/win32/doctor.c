/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* doctor.c (Windows) - the facts `threadsoup doctor` checks: the caller's token (elevated,
   an administrator filtered by UAC, LocalSystem, a member of ThreadSoup Users), Tamper Protection,
   whether this is Wine, and the thread cycle counter burn spins on against the performance
   counter. */
#include "threadsoup/plat_doctor.h"

#include <stdio.h>
#include <string.h>

#include "../peer_rights.h"
#include "../spin_probe.h"
#include "threadsoup/plat.h"
#include "win32.h"

#include <winsvc.h> /* after windows.h (win32.h) */

int plat_task_limits_read(const char *root, int prefer_service, plat_task_limits *out,
                          ts_err *err) {
  (void)root;
  (void)prefer_service;
  memset(out, 0, sizeof *out);
  return ts_err_set(err, TS_EUNSUPPORTED,
                    "Windows has no pid_max, threads-max or cgroup task limit: processes and "
                    "threads are bounded by memory alone");
}

int plat_rights_read(plat_rights *out, ts_err *err) {
  memset(out, 0, sizeof *out);
  out->windows = 1;
  out->root = out->group_exists = out->group_member = -1;
  /* ThreadSoup Users as the service checks it: present and enabled in the token. A group that
     does not exist (never installed; Wine keeps no local groups) is no membership. NULL token:
     CheckTokenMembership makes an impersonation token of this thread's primary one. */
  BYTE group[SECURITY_MAX_SID_SIZE];
  BOOL in_group = FALSE;
  if (!peer_users_group_sid(group, sizeof group))
    out->users_group_member = 0;
  else
    out->users_group_member = CheckTokenMembership(NULL, group, &in_group) ? in_group != 0 : -1;
  wchar_t name[128];
  DWORD count = sizeof name / sizeof name[0];
  if (!GetUserNameW(name, &count) || !win32_from_wide(name, out->user, sizeof out->user))
    snprintf(out->user, sizeof out->user, "%s", "?");
  HANDLE token;
  if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token))
    return ts_err_set(err, TS_EOS, "cannot read this process's token (error %lu)",
                      (unsigned long)GetLastError());
  /* Administrators as the service checks it: enabled in the token, which a UAC-filtered token
     holds as deny-only. */
  BYTE admins[SECURITY_MAX_SID_SIZE];
  DWORD size = sizeof admins;
  BOOL member = FALSE;
  out->admin_enabled = CreateWellKnownSid(WinBuiltinAdministratorsSid, NULL, admins, &size) &&
                               CheckTokenMembership(NULL, admins, &member)
                           ? (member != 0)
                           : -1;
  TOKEN_ELEVATION elevation;
  TOKEN_ELEVATION_TYPE type;
  DWORD got;
  out->elevated = GetTokenInformation(token, TokenElevation, &elevation, sizeof elevation, &got)
                      ? elevation.TokenIsElevated != 0
                      : -1;
  /* Limited: an administrator's filtered token (its linked token is the elevated one). */
  out->admin_filtered = GetTokenInformation(token, TokenElevationType, &type, sizeof type, &got)
                            ? type == TokenElevationTypeLimited
                            : -1;
  BYTE info[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
  out->system = GetTokenInformation(token, TokenUser, info, sizeof info, &got)
                    ? IsWellKnownSid(((TOKEN_USER *)info)->User.Sid, WinLocalSystemSid) != 0
                    : -1;
  CloseHandle(token);
  return TS_OK;
}

int plat_tamper_protection(void) {
  /* Windows Security keeps its state here: 5 on, 4 (or 0) off; no key where there is no
     Defender. Read only: Tamper Protection cannot be changed by programs, by design. */
  DWORD value = 0, size = sizeof value;
  LSTATUS rc = RegGetValueW(HKEY_LOCAL_MACHINE, L"SOFTWARE\\Microsoft\\Windows Defender\\Features",
                            L"TamperProtection", RRF_RT_REG_DWORD | RRF_SUBKEY_WOW6464KEY, NULL,
                            &value, &size);
  if (rc != ERROR_SUCCESS)
    return -1;
  return (value & 1) ? 1 : 0;
}

int plat_service_restart_read(const char *name, plat_service_restart *out, ts_err *err) {
  memset(out, 0, sizeof *out);
  out->non_crash = -1;
  wchar_t wide[128];
  if (!win32_to_wide(name, wide, sizeof wide / sizeof wide[0]))
    return ts_err_set(err, TS_EINVAL, "service name too long or not UTF-8: %s", name);
  SC_HANDLE scm = OpenSCManagerW(NULL, NULL, SC_MANAGER_CONNECT);
  if (!scm) {
    win32_error_text(GetLastError(), out->why, sizeof out->why);
    return ts_err_set(err, TS_EOS, "cannot open the Service Control Manager: %s", out->why);
  }
  /* Reading the configuration needs no administrator: SERVICE_QUERY_CONFIG is granted to
     authenticated users by a service's default security. */
  SC_HANDLE service = OpenServiceW(scm, wide, SERVICE_QUERY_CONFIG);
  if (!service) {
    DWORD code = GetLastError();
    CloseServiceHandle(scm);
    win32_error_text(code, out->why, sizeof out->why);
    if (code == ERROR_SERVICE_DOES_NOT_EXIST)
      return TS_OK;
    return ts_err_set(err, TS_EOS, "cannot open the service %s: %s", name, out->why);
  }
  out->installed = 1;
  union {
    SERVICE_FAILURE_ACTIONSW failure;
    SERVICE_FAILURE_ACTIONS_FLAG flag;
    BYTE bytes[8192];
  } q;
  DWORD needed = 0;
  if (QueryServiceConfig2W(service, SERVICE_CONFIG_FAILURE_ACTIONS, q.bytes, sizeof q, &needed)) {
    out->readable = 1;
    out->reset_s = (long)q.failure.dwResetPeriod;
    out->actions = (int)q.failure.cActions;
    for (DWORD i = 0; i < q.failure.cActions && q.failure.lpsaActions; i++)
      out->restarts += q.failure.lpsaActions[i].Type == SC_ACTION_RESTART;
    if (q.failure.cActions > 0 && q.failure.lpsaActions)
      out->first_delay_ms = (long)q.failure.lpsaActions[0].Delay;
  } else {
    win32_error_text(GetLastError(), out->why, sizeof out->why);
  }
  if (QueryServiceConfig2W(service, SERVICE_CONFIG_FAILURE_ACTIONS_FLAG, q.bytes, sizeof q,
                           &needed))
    out->non_crash = q.flag.fFailureActionsOnNonCrashFailures != 0;
  CloseServiceHandle(service);
  CloseServiceHandle(scm);
  return TS_OK;
}

/* The program of a service's command line: the quoted first word, or up to ".exe " unquoted
   (as the service manager itself reads an unquoted path with spaces). */
static void image_program(const char *command, char *buf, size_t len) {
  if (command[0] == '"') {
    const char *end = strchr(command + 1, '"');
    size_t n = end ? (size_t)(end - command - 1) : strlen(command + 1);
    snprintf(buf, len, "%.*s", (int)n, command + 1);
    return;
  }
  const char *exe = strstr(command, ".exe");
  size_t n = exe ? (size_t)(exe - command) + 4 : strcspn(command, " ");
  snprintf(buf, len, "%.*s", (int)n, command);
}

int plat_service_image_read(const char *name, plat_service_image *out, ts_err *err) {
  memset(out, 0, sizeof *out);
  wchar_t wide[128];
  if (!win32_to_wide(name, wide, sizeof wide / sizeof wide[0]))
    return ts_err_set(err, TS_EINVAL, "service name too long or not UTF-8: %s", name);
  char text[256];
  SC_HANDLE scm = OpenSCManagerW(NULL, NULL, SC_MANAGER_CONNECT);
  if (!scm) {
    win32_error_text(GetLastError(), text, sizeof text);
    return ts_err_set(err, TS_EOS, "cannot open the Service Control Manager: %s", text);
  }
  SC_HANDLE service = OpenServiceW(scm, wide, SERVICE_QUERY_CONFIG);
  DWORD code = service ? ERROR_SUCCESS : GetLastError();
  union {
    QUERY_SERVICE_CONFIGW config;
    BYTE bytes[8192];
  } q;
  DWORD needed = 0;
  char command[2048], program[1024];
  int rc = TS_OK;
  if (code == ERROR_SERVICE_DOES_NOT_EXIST) {
    rc = TS_OK;
  } else if (!service) {
    win32_error_text(code, text, sizeof text);
    rc = ts_err_set(err, TS_EOS, "cannot open the service %s: %s", name, text);
  } else if (!QueryServiceConfigW(service, &q.config, sizeof q, &needed) ||
             !q.config.lpBinaryPathName ||
             !win32_from_wide(q.config.lpBinaryPathName, command, sizeof command)) {
    win32_error_text(GetLastError(), text, sizeof text);
    rc = ts_err_set(err, TS_EOS, "cannot read the command line of the service %s: %s", name, text);
  } else {
    out->installed = 1;
    image_program(command, program, sizeof program);
    plat_path_dirname(program, out->folder, sizeof out->folder);
    rc = plat_program_folder_safe(out->folder, &out->safe, out->reason, sizeof out->reason, err);
  }
  if (service)
    CloseServiceHandle(service);
  CloseServiceHandle(scm);
  return rc;
}

const char *plat_wine_version(void) {
  HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
  if (!ntdll)
    return NULL;
  typedef const char *(CDECL * wine_version_fn)(void);
  wine_version_fn fn = (wine_version_fn)(void (*)(void))GetProcAddress(ntdll, "wine_get_version");
  return fn ? fn() : NULL;
}

static int read_clocks(void *arg, uint64_t *wall_ns, uint64_t *cycles) {
  (void)arg;
  ULONG64 count = 0;
  if (!QueryThreadCycleTime(GetCurrentThread(), &count))
    return 0;
  *cycles = count;
  *wall_ns = plat_clock_ns();
  return 1;
}

void plat_spin_clock_measure(int samples, uint64_t run_ns, uint64_t cap_ns, plat_spin_clock *out) {
  memset(out, 0, sizeof *out);
  snprintf(out->source, sizeof out->source,
           "QueryThreadCycleTime / burn's rate vs QueryPerformanceCounter");
  /* Microsoft documents that cycle counts should not be turned into elapsed time: the rate may
     move with frequency scaling, hybrid cores or a virtual machine. Burn does turn them, by a
     rate measured once; this measures it again, several times. */
  ULONG64 probe = 0;
  if (!QueryThreadCycleTime(GetCurrentThread(), &probe) || probe == 0) {
    snprintf(out->why, sizeof out->why, "QueryThreadCycleTime failed (error %lu)",
             (unsigned long)GetLastError());
    return;
  }
  out->base_rate = win32_thread_cycle_rate();
  if (out->base_rate <= 0) {
    snprintf(out->why, sizeof out->why,
             "the thread cycle counter's rate could not be measured against the performance "
             "counter");
    return;
  }
  out->available = 1;
  if (samples > PLAT_SPIN_SAMPLES_MAX)
    samples = PLAT_SPIN_SAMPLES_MAX;
  for (int i = 0; i < samples; i++) {
    plat_spin_sums sums;
    if (!plat_spin_probe(read_clocks, NULL, run_ns, cap_ns, &sums))
      break;
    plat_spin_sample *s = &out->samples[out->count++];
    s->wall_ns = (double)sums.wall_ns;
    s->ran_ns = (double)sums.ran_ns;
    s->rate = sums.ran_ns ? (double)sums.counted / ((double)sums.ran_ns / 1000.0) : 0;
    s->thread_ns = (double)sums.counted / out->base_rate * 1000.0;
    s->gaps = sums.gaps;
  }
}
