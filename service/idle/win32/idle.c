/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* idle.c (Windows) - threadsoup-idle: the smallest process that waits for its owner to end. Its
   command line ends with the value of an inherited handle to the owner process; it waits on that
   handle and exits when the owner is gone. Its owner also keeps it in a job object that kills it
   when the owner's last handle to the job closes. No C runtime: it imports three functions from
   kernel32, so 15,000 of them cost little more than their kernel objects. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

/* The value of the last all-digit word on the command line, or 0 when there is none. */
static ULONG_PTR last_number(const wchar_t *p) {
  ULONG_PTR last = 0;
  while (*p) {
    while (*p == L' ' || *p == L'\t')
      p++;
    const wchar_t *word = p;
    int digits_only = 1;
    ULONG_PTR value = 0;
    if (*p == L'"') { /* a quoted program path: never the number */
      digits_only = 0;
      for (p++; *p && *p != L'"'; p++) {
      }
      if (*p)
        p++;
    }
    for (; *p && *p != L' ' && *p != L'\t'; p++) {
      if (*p >= L'0' && *p <= L'9')
        value = value * 10 + (ULONG_PTR)(*p - L'0');
      else
        digits_only = 0;
    }
    if (p > word && digits_only)
      last = value;
  }
  return last;
}

void __stdcall idle_start(void) {
  ULONG_PTR handle_value = last_number(GetCommandLineW());
  /* Without an owner handle it waits on itself: a wait that is never satisfied. */
  HANDLE owner = handle_value ? (HANDLE)handle_value : GetCurrentProcess();
  WaitForSingleObject(owner, INFINITE);
  ExitProcess(0);
}
