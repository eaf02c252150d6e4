/* win32.h - helpers of the Windows half of the platform layer, also used by the Windows service
   host (service/src/host/win32). */
#ifndef THREADSOUP_PLAT_WIN32_H
#define THREADSOUP_PLAT_WIN32_H

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

/* A new job object that kills its processes when its last handle closes (so also when its owner
   dies); NULL with GetLastError() set when the OS refuses. */
HANDLE win32_kill_on_close_job(void);

#endif
