/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* text.c - the tray's text: UTF-8 from the service to wide strings and back, numbers with
   thousands separators, clock times in the user's local time. */
#include "shell.h"

#include <time.h>
#include <wchar.h>

#include "threadsoup/utf8.h"

void tray_widen(const char *text, wchar_t *out, size_t count) {
  /* What the tray shows comes from the service: names from the database and the OS, which a
     window shows as faithfully as a terminal would (a bidi override reorders a list's row). */
  char shown[4400];
  wchar_t wide[1100];
  ts_utf8_printable_lines(text, shown, sizeof shown);
  if (MultiByteToWideChar(CP_UTF8, 0, shown, -1, wide, ARRAYSIZE(wide)) == 0) {
    lstrcpynW(out, L"?", (int)count);
    return;
  }
  lstrcpynW(out, wide, (int)count);
}

void tray_narrow(const wchar_t *text, char *out, size_t size) {
  if (WideCharToMultiByte(CP_UTF8, 0, text, -1, out, (int)size, NULL, NULL) == 0)
    out[0] = '\0';
}

void tray_thousands(long long n, wchar_t *out, size_t count) {
  wchar_t digits[32];
  swprintf(digits, ARRAYSIZE(digits), L"%lld", n < 0 ? -n : n);
  size_t len = wcslen(digits), o = 0;
  if (n < 0 && o + 1 < count)
    out[o++] = L'-';
  for (size_t i = 0; i < len && o + 1 < count; i++) {
    if (i > 0 && (len - i) % 3 == 0 && o + 1 < count)
      out[o++] = L',';
    if (o + 1 < count)
      out[o++] = digits[i];
  }
  out[o] = L'\0';
}

/* The C runtime's localtime keeps its result per thread on Windows; copied all the same. */
static BOOL tray_localtime(time_t t, struct tm *out) {
  const struct tm *p = localtime(&t);
  if (p != NULL)
    *out = *p;
  return p != NULL;
}

void tray_clock(long long unix_s, wchar_t *out, size_t count) {
  struct tm at, today;
  if (!tray_localtime((time_t)unix_s, &at) || !tray_localtime(time(NULL), &today)) {
    lstrcpynW(out, L"?", (int)count);
    return;
  }
  static const wchar_t *const DAYS[] = {L"Sun", L"Mon", L"Tue", L"Wed", L"Thu", L"Fri", L"Sat"};
  if (at.tm_yday == today.tm_yday && at.tm_year == today.tm_year)
    swprintf(out, count, L"%02d:%02d", at.tm_hour, at.tm_min);
  else
    swprintf(out, count, L"%ls %02d:%02d", DAYS[at.tm_wday % 7], at.tm_hour, at.tm_min);
}
