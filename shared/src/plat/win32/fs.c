/* fs.c (Windows) - data folders and paths; UTF-8 outside, UTF-16 to the API. */
#include "threadsoup/plat.h"

#include <stdio.h>
#include <string.h>

#include "win32.h"

const char *plat_getenv(const char *name, char *buf, size_t len) {
  wchar_t wname[128], value[PLAT_PATH_MAX];
  if (!win32_to_wide(name, wname, sizeof wname / sizeof wname[0]))
    return NULL;
  DWORD n = GetEnvironmentVariableW(wname, value, sizeof value / sizeof value[0]);
  if (n == 0 || n >= sizeof value / sizeof value[0])
    return NULL;
  return win32_from_wide(value, buf, len) ? buf : NULL;
}

int plat_user_data_dir(char *buf, size_t len, ts_err *err) {
  char env[PLAT_PATH_MAX];
  if (!plat_getenv("LOCALAPPDATA", env, sizeof env))
    return ts_err_set(err, TS_EOS, "LOCALAPPDATA is not set: give --db PATH");
  snprintf(buf, len, "%s\\ThreadSoup", env);
  return TS_OK;
}

static int is_separator(char c) { return c == '\\' || c == '/'; }

static int make_one_dir(const char *path, ts_err *err) {
  wchar_t wide[PLAT_PATH_MAX];
  if (!win32_to_wide(path, wide, sizeof wide / sizeof wide[0]))
    return ts_err_set(err, TS_EINVAL, "path too long or not UTF-8: %s", path);
  if (CreateDirectoryW(wide, NULL) || GetLastError() == ERROR_ALREADY_EXISTS)
    return TS_OK;
  char text[256];
  win32_error_text(GetLastError(), text, sizeof text);
  return ts_err_set(err, TS_EOS, "cannot create folder %s: %s", path, text);
}

int plat_mkdir_p(const char *path, ts_err *err) {
  char tmp[PLAT_PATH_MAX];
  if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp)
    return ts_err_set(err, TS_EINVAL, "path too long (at most %d bytes): %s", PLAT_PATH_MAX - 1,
                      path);
  /* Skip a drive ("C:\") or the server and share of a UNC path: they cannot be created. */
  char *p = tmp;
  if (p[0] && p[1] == ':')
    p += 2;
  else if (is_separator(p[0]) && is_separator(p[1])) {
    int seps = 0;
    for (p += 2; *p && seps < 2; p++)
      if (is_separator(*p))
        seps++;
  }
  while (is_separator(*p))
    p++;
  for (; *p; p++) {
    if (!is_separator(*p))
      continue;
    char saved = *p;
    *p = '\0';
    int rc = make_one_dir(tmp, err);
    *p = saved;
    if (rc != TS_OK)
      return rc;
  }
  return make_one_dir(tmp, err);
}

void plat_path_dirname(const char *path, char *buf, size_t len) {
  const char *last = NULL;
  for (const char *p = path; *p; p++)
    if (is_separator(*p))
      last = p;
  if (!last) {
    snprintf(buf, len, "%s", "");
    return;
  }
  size_t n = (size_t)(last - path);
  if (n == 0 || (n == 2 && path[1] == ':'))
    n++; /* keep the root: "\" or "C:\" */
  snprintf(buf, len, "%.*s", (int)n, path);
}

char plat_path_separator(void) { return '\\'; }

int plat_file_exists(const char *path) {
  wchar_t wide[PLAT_PATH_MAX];
  if (!win32_to_wide(path, wide, sizeof wide / sizeof wide[0]))
    return 0;
  return GetFileAttributesW(wide) != INVALID_FILE_ATTRIBUTES;
}

int plat_program_dir(char *buf, size_t len, ts_err *err) {
  wchar_t wide[PLAT_PATH_MAX];
  char exe[PLAT_PATH_MAX];
  DWORD n = GetModuleFileNameW(NULL, wide, sizeof wide / sizeof wide[0]);
  if (n == 0 || n >= sizeof wide / sizeof wide[0] || !win32_from_wide(wide, exe, sizeof exe))
    return ts_err_set(err, TS_EOS, "cannot find this program's folder (error %lu)",
                      (unsigned long)GetLastError());
  plat_path_dirname(exe, buf, len);
  return TS_OK;
}

void plat_program_name(const char *base, char *buf, size_t len) {
  snprintf(buf, len, "%s.exe", base);
}
