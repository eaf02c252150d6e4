/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* freeze.c (Windows) - freezes and thaws another program by suspending every thread of it, as
   Process Explorer's "Suspend" does (NtSuspendProcess, NtResumeProcess); and the facts the freeze
   rules judge (whose process it is, whether we are elevated, whether its owner still lives). */
#include "threadsoup/plat.h"

#include <stdio.h>

#include "win32.h"

#include <sddl.h>

typedef LONG(NTAPI *nt_process_fn)(HANDLE process);

/* ntdll's export by name: documented nowhere, there since Windows XP (and in Wine). */
static nt_process_fn ntdll_function(const char *name) {
  HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
  return ntdll ? (nt_process_fn)(void (*)(void))GetProcAddress(ntdll, name) : NULL;
}

static int os_error(long pid, const char *what, ts_err *err) {
  DWORD code = GetLastError();
  if (code == ERROR_ACCESS_DENIED)
    return ts_err_set(err, TS_EDENIED, "cannot %s process %ld: access denied", what, pid);
  if (code == ERROR_INVALID_PARAMETER)
    return ts_err_set(err, TS_EINVAL, "process %ld does not exist (any more)", pid);
  char text[256];
  win32_error_text(code, text, sizeof text);
  return ts_err_set(err, TS_EOS, "cannot %s process %ld: %s", what, pid, text);
}

/* Calls NtSuspendProcess or NtResumeProcess on the process. */
static int call_on_process(long pid, const char *function, const char *what, ts_err *err) {
  nt_process_fn fn = ntdll_function(function);
  if (!fn)
    return ts_err_set(err, TS_EUNSUPPORTED, "cannot %s process %ld: ntdll has no %s", what, pid,
                      function);
  HANDLE process = OpenProcess(PROCESS_SUSPEND_RESUME, FALSE, (DWORD)pid);
  if (!process)
    return os_error(pid, what, err);
  LONG status = fn(process);
  CloseHandle(process);
  if (status < 0)
    return ts_err_set(err, TS_EOS, "cannot %s process %ld: %s failed (NTSTATUS 0x%08lx)", what, pid,
                      function, (unsigned long)status);
  return TS_OK;
}

int plat_process_freeze(long pid, plat_freeze_how *how, ts_err *err) {
  *how = PLAT_FREEZE_SUSPEND;
  return call_on_process(pid, "NtSuspendProcess", "freeze", err);
}

/* A thread whose suspend count is already 0 stays as it is, so a second thaw (the owner's, then
   the guardian's) changes nothing. */
int plat_process_thaw(long pid, ts_err *err) {
  return call_on_process(pid, "NtResumeProcess", "thaw", err);
}

/* The user SID of a process's token, copied into `sid` (room for any SID). */
static int token_user(HANDLE process, BYTE *sid, DWORD len) {
  HANDLE token;
  if (!OpenProcessToken(process, TOKEN_QUERY, &token))
    return 0;
  BYTE buffer[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
  DWORD got = 0;
  int ok = GetTokenInformation(token, TokenUser, buffer, sizeof buffer, &got) &&
           CopySid(len, sid, ((TOKEN_USER *)(void *)buffer)->User.Sid);
  CloseHandle(token);
  return ok;
}

int plat_process_owned_by(long pid, const plat_peer *who, int *same, ts_err *err) {
  HANDLE process = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, (DWORD)pid);
  if (!process) {
    if (GetLastError() == ERROR_ACCESS_DENIED) { /* protected or another user's: not ours */
      *same = 0;
      return TS_OK;
    }
    return os_error(pid, "read", err);
  }
  BYTE theirs[SECURITY_MAX_SID_SIZE], mine[SECURITY_MAX_SID_SIZE];
  int read = token_user(process, theirs, sizeof theirs);
  CloseHandle(process);
  PSID asker = NULL;
  if (who && (!who->user_sid[0] || !ConvertStringSidToSidA(who->user_sid, &asker)))
    asker = NULL; /* an asker we cannot name owns nothing */
  /* A token we may not read is not our user's, nor the asker's. */
  if (who)
    *same = read && asker && EqualSid(theirs, asker);
  else
    *same = read && token_user(GetCurrentProcess(), mine, sizeof mine) && EqualSid(theirs, mine);
  if (asker)
    LocalFree(asker);
  return TS_OK;
}

int plat_self_privileged(void) {
  HANDLE token;
  if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token))
    return 0;
  TOKEN_ELEVATION elevation = {0};
  DWORD got = 0;
  int elevated = GetTokenInformation(token, TokenElevation, &elevation, sizeof elevation, &got) &&
                 elevation.TokenIsElevated;
  CloseHandle(token);
  return elevated;
}

int plat_owner_wait_gone(long pid, uint64_t timeout_ns) {
  HANDLE owner = OpenProcess(SYNCHRONIZE, FALSE, (DWORD)pid);
  if (!owner)
    return 1;
  uint64_t ms = timeout_ns / 1000000u;
  DWORD wait = WaitForSingleObject(owner, ms >= INFINITE ? INFINITE - 1 : (DWORD)ms);
  CloseHandle(owner);
  return wait != WAIT_TIMEOUT;
}
