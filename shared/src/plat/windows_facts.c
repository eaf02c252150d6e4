/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* windows_facts.c - what the Windows half decides from the OS's answers (a release's name, whether
   a refused move is worth another try, whether a file is in a cloud-synced folder), written once
   beside the halves so that recorded Windows answers are tested on every build. */
#include <stdio.h>
#include <string.h>

#include "threadsoup/plat.h"

void plat_windows_name(const plat_windows_version *v, char *buf, size_t len) {
  /* Windows 11 kept the version 10.0: only its build numbers, from 22000, tell it apart. */
  const char *name = "Windows";
  if (!v->workstation && v->major >= 10)
    name = "Windows Server";
  else if (v->major == 10 && v->build >= 22000)
    name = "Windows 11";
  else if (v->major == 10)
    name = "Windows 10";
  else if (v->major == 6 && v->minor == 3)
    name = "Windows 8.1";
  else if (v->major == 6 && v->minor == 2)
    name = "Windows 8";
  else if (v->major == 6 && v->minor == 1)
    name = "Windows 7";
  snprintf(buf, len, "%s%s%s (%lu.%lu.%lu)", name, v->display_version[0] ? " " : "",
           v->display_version, v->major, v->minor, v->build);
}

/* The waits between tries of a refused move, in milliseconds: 8 tries over about 2 s. Antivirus
   scanners, the search indexer and sync clients open a new file for a moment after it is
   written, and the move is refused while they hold it. */
static const unsigned rename_waits_ms[] = {30, 60, 120, 240, 400, 550, 600};

int plat_rename_retry_wait_ms(unsigned long win32_error, int tries) {
  /* ERROR_ACCESS_DENIED and ERROR_SHARING_VIOLATION are what such a brief hold looks like; any
     other answer ("exists" above all) is the same at every try. */
  if (win32_error != 5 && win32_error != 32)
    return -1;
  if (tries < 1 || (size_t)tries > sizeof rename_waits_ms / sizeof rename_waits_ms[0])
    return -1;
  return (int)rename_waits_ms[tries - 1];
}

static char fold(char c) {
  return c == '/' ? '\\' : (c >= 'A' && c <= 'Z') ? (char)(c + 'a' - 'A') : c;
}

int plat_path_is_under(const char *path, const char *root) {
  size_t n = strlen(root);
  while (n > 0 && (root[n - 1] == '\\' || root[n - 1] == '/'))
    n--;
  if (n == 0)
    return 0;
  for (size_t i = 0; i < n; i++)
    if (!path[i] || fold(path[i]) != fold(root[i]))
      return 0;
  return path[n] == '\0' || path[n] == '\\' || path[n] == '/';
}

int plat_cloud_file(unsigned long attributes, unsigned long reparse_tag) {
  /* FILE_ATTRIBUTE_RECALL_ON_OPEN, _PINNED, _UNPINNED and _RECALL_ON_DATA_ACCESS: the cloud files
     API's placeholders (OneDrive's Files On-Demand and other sync clients). */
  if (attributes & (0x40000ul | 0x80000ul | 0x100000ul | 0x400000ul))
    return 1;
  /* IO_REPARSE_TAG_CLOUD and IO_REPARSE_TAG_CLOUD_1 to _F: 0x9000001A with any of 16 subtypes in
     bits 12 to 15. */
  return (attributes & 0x400ul) && (reparse_tag & 0xFFFF0FFFul) == 0x9000001Aul;
}
