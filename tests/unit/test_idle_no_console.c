/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_idle_no_console.c (Windows) - `threadsoup load procs --count 20` makes exactly 20 new
   processes system-wide, all of them threadsoup-idle.exe: no console host (conhost.exe) per idle
   child. Counted from Toolhelp snapshots of every process of the machine (under Wine: of the test's
   own prefix, where nothing else runs), before and while the load runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "check.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

#include <windows.h>

#include <tlhelp32.h>

enum { MAX_PROCS = 4096 };

typedef struct {
  DWORD pid, parent;
  wchar_t name[MAX_PATH];
} proc_entry;

static const char *threadsoup_exe;

/* Every process of the machine; -1 when no snapshot could be taken. */
static long snapshot(proc_entry *list) {
  HANDLE h = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
  if (h == INVALID_HANDLE_VALUE)
    return -1;
  PROCESSENTRY32W e;
  e.dwSize = sizeof e;
  long n = 0;
  for (BOOL more = Process32FirstW(h, &e); more && n < MAX_PROCS; more = Process32NextW(h, &e)) {
    list[n].pid = e.th32ProcessID;
    list[n].parent = e.th32ParentProcessID;
    wcsncpy(list[n].name, e.szExeFile, MAX_PATH - 1);
    list[n].name[MAX_PATH - 1] = L'\0';
    n++;
  }
  CloseHandle(h);
  return n;
}

static int listed(const proc_entry *list, long n, DWORD pid) {
  for (long i = 0; i < n; i++)
    if (list[i].pid == pid)
      return 1;
  return 0;
}

static long idle_children_of(const proc_entry *list, long n, DWORD parent) {
  long count = 0;
  for (long i = 0; i < n; i++)
    if (list[i].parent == parent && _wcsicmp(list[i].name, L"threadsoup-idle.exe") == 0)
      count++;
  return count;
}

static void load_procs_makes_no_console_hosts(void) {
  static proc_entry before[MAX_PROCS], during[MAX_PROCS];
  long n_before = snapshot(before);
  REQUIRE(n_before > 0);
  const char *argv[] = {threadsoup_exe, "load", "procs", "--count", "20", "--for", "60s", NULL};
  plat_proc load;
  ts_err err;
  REQUIRE(plat_proc_spawn(&load, argv, &err) == TS_OK);
  long n_during = 0, idle = 0;
  for (int i = 0; i < 300 && idle < 20; i++) {
    plat_sleep_ns(100 * TS_NS_PER_MS);
    n_during = snapshot(during);
    idle = idle_children_of(during, n_during, (DWORD)load.pid);
  }
  CHECK_INT(idle, 20);
  /* A console host comes a moment after its client: give any a chance to show. */
  plat_sleep_ns(1500 * TS_NS_PER_MS);
  n_during = snapshot(during);
  long made = 0, idle_made = 0, hosts = 0;
  for (long i = 0; i < n_during; i++) {
    const proc_entry *p = &during[i];
    /* Not counted: this test's own doing, `threadsoup load` itself (started by this test) and
       whatever starting it brought along (a console host of its own, parented to this test). */
    if (listed(before, n_before, p->pid) || p->pid == (DWORD)load.pid ||
        p->parent == GetCurrentProcessId())
      continue;
    made++;
    if (_wcsicmp(p->name, L"threadsoup-idle.exe") == 0 && p->parent == (DWORD)load.pid)
      idle_made++;
    else
      fprintf(stderr, "  also new: %ls (process %lu, parent %lu)\n", p->name, (unsigned long)p->pid,
              (unsigned long)p->parent);
    if (_wcsicmp(p->name, L"conhost.exe") == 0)
      hosts++;
  }
  fprintf(stderr,
          "  `load procs --count 20`: %ld new processes, %ld of them idle children, %ld "
          "console hosts\n",
          made, idle_made, hosts);
  CHECK_INT(made, 20);
  CHECK_INT(idle_made, 20);
  CHECK_INT(hosts, 0);
  plat_proc_kill(&load, &err);
  int code = 0;
  plat_proc_wait(&load, &code, &err);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_idle_no_console THREADSOUP-EXE\n");
    return 2;
  }
  threadsoup_exe = argv[1];
  RUN_CASE(load_procs_makes_no_console_hosts);
  return check_summary();
}
