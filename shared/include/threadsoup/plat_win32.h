/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* plat_win32.h - the Windows half's helpers that Windows-only programs (the service host, the
   tray) share with the platform layer: error text, UTF-8/UTF-16 conversion and whether this
   sign-in must be renewed for ThreadSoup Users to count. */
#ifndef THREADSOUP_PLAT_WIN32_PUBLIC_H
#define THREADSOUP_PLAT_WIN32_PUBLIC_H

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <stddef.h>

/* The system's sentence for a Win32 error code, without the trailing newline. */
void win32_error_text(DWORD code, char *buf, size_t len);
/* UTF-8 to UTF-16 and back; return 0 on failure (too long or invalid). */
int win32_to_wide(const char *utf8, wchar_t *buf, size_t count);
int win32_from_wide(const wchar_t *wide, char *buf, size_t len);
/* 1 when this process's user is listed in ThreadSoup Users but its sign-in's token does not carry
   the group (the user was added after signing in, as by the MSI): the service refuses such a
   user control until they sign out and in once. 0 otherwise, also where there is no such group. */
int win32_sign_in_again(void);

#endif
