/* proc.c (Windows) - starts, kills and reaps child processes. */
#include "threadsoup/plat.h"

#include <string.h>
#include <wchar.h>

#include "win32.h"

/* Appends one argument quoted the way CommandLineToArgvW reads it back. */
static int append_quoted(wchar_t *cmd, size_t cap, size_t *len, const wchar_t *arg) {
  size_t n = *len;
#define PUT(c)          \
  do {                  \
    if (n + 1 >= cap)   \
      return 0;         \
    cmd[n++] = (c);     \
  } while (0)
  if (n > 0)
    PUT(L' ');
  int needs_quotes = *arg == L'\0' || wcspbrk(arg, L" \t\"") != NULL;
  if (!needs_quotes) {
    for (const wchar_t *p = arg; *p; p++)
      PUT(*p);
  } else {
    PUT(L'"');
    for (const wchar_t *p = arg;; p++) {
      size_t backslashes = 0;
      while (*p == L'\\') {
        backslashes++;
        p++;
      }
      if (*p == L'\0') {
        for (size_t i = 0; i < backslashes * 2; i++)
          PUT(L'\\');
        break;
      }
      if (*p == L'"') {
        for (size_t i = 0; i < backslashes * 2 + 1; i++)
          PUT(L'\\');
      } else {
        for (size_t i = 0; i < backslashes; i++)
          PUT(L'\\');
      }
      PUT(*p);
    }
    PUT(L'"');
  }
#undef PUT
  cmd[n] = L'\0';
  *len = n;
  return 1;
}

int plat_proc_spawn(plat_proc *proc, const char *const argv[], ts_err *err) {
  static wchar_t cmd[32768]; /* CreateProcessW's limit; too big for the stack of a 64 KiB thread */
  wchar_t arg[PLAT_PATH_MAX];
  size_t len = 0;
  cmd[0] = L'\0';
  for (size_t i = 0; argv[i]; i++) {
    if (!win32_to_wide(argv[i], arg, sizeof arg / sizeof arg[0]) ||
        !append_quoted(cmd, sizeof cmd / sizeof cmd[0], &len, arg))
      return ts_err_set(err, TS_EINVAL, "command line too long or not UTF-8: %s", argv[i]);
  }
  STARTUPINFOW si;
  PROCESS_INFORMATION pi;
  memset(&si, 0, sizeof si);
  si.cb = sizeof si;
  if (!CreateProcessW(NULL, cmd, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi)) {
    char text[256];
    win32_error_text(GetLastError(), text, sizeof text);
    return ts_err_set(err, TS_EOS, "cannot start '%s': %s", argv[0], text);
  }
  CloseHandle(pi.hThread);
  proc->handle = (uintptr_t)pi.hProcess;
  proc->pid = (long)pi.dwProcessId;
  return TS_OK;
}

int plat_proc_kill(plat_proc *proc, ts_err *err) {
  /* 137 mirrors the shell's 128 + SIGKILL, so both halves report a kill the same way. */
  if (!TerminateProcess((HANDLE)proc->handle, 137)) {
    char text[256];
    win32_error_text(GetLastError(), text, sizeof text);
    return ts_err_set(err, TS_EOS, "cannot kill process %ld: %s", proc->pid, text);
  }
  return TS_OK;
}

int plat_proc_wait(plat_proc *proc, int *exit_code, ts_err *err) {
  HANDLE h = (HANDLE)proc->handle;
  if (WaitForSingleObject(h, INFINITE) != WAIT_OBJECT_0) {
    char text[256];
    win32_error_text(GetLastError(), text, sizeof text);
    return ts_err_set(err, TS_EOS, "cannot wait for process %ld: %s", proc->pid, text);
  }
  DWORD code = 1;
  GetExitCodeProcess(h, &code);
  CloseHandle(h);
  proc->handle = 0;
  if (exit_code)
    *exit_code = (int)code;
  return TS_OK;
}
