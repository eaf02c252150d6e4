/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* win32.c - error text, UTF-8/UTF-16 conversion and kill-on-close jobs for the Windows platform
   half. */
#include "win32.h"

#include <stdio.h>
#include <string.h>

void win32_error_text(DWORD code, char *buf, size_t len) {
  wchar_t wide[512];
  DWORD n = FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, code,
                           0, wide, sizeof wide / sizeof wide[0], NULL);
  while (n > 0 && (wide[n - 1] == L'\n' || wide[n - 1] == L'\r' || wide[n - 1] == L' ' ||
                   wide[n - 1] == L'.'))
    wide[--n] = L'\0';
  if (n == 0 || !win32_from_wide(wide, buf, len))
    snprintf(buf, len, "Windows error %lu", (unsigned long)code);
}

int win32_to_wide(const char *utf8, wchar_t *buf, size_t count) {
  return MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8, -1, buf, (int)count) > 0;
}

int win32_from_wide(const wchar_t *wide, char *buf, size_t len) {
  return WideCharToMultiByte(CP_UTF8, 0, wide, -1, buf, (int)len, NULL, NULL) > 0;
}

HANDLE win32_kill_on_close_job(void) {
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits;
  ZeroMemory(&limits, sizeof limits);
  limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
  HANDLE job = CreateJobObjectW(NULL, NULL);
  if (job &&
      !SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof limits)) {
    DWORD code = GetLastError();
    CloseHandle(job);
    SetLastError(code);
    job = NULL;
  }
  return job;
}
