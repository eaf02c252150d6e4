/* census.c (Windows) - counts processes and threads through a Toolhelp snapshot. */
#include "threadsoup/plat.h"

#include "win32.h"

#include <tlhelp32.h>

/* Walks every process once; counts all, and the threads of `pid` when pid >= 0. */
static int census_walk(plat_census *machine, long pid, long *pid_threads, ts_err *err) {
  HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
  if (snap == INVALID_HANDLE_VALUE) {
    char text[256];
    win32_error_text(GetLastError(), text, sizeof text);
    return ts_err_set(err, TS_EOS, "cannot take a process snapshot: %s", text);
  }
  PROCESSENTRY32W pe;
  pe.dwSize = sizeof pe;
  long processes = 0, threads = 0, found = -1;
  for (BOOL more = Process32FirstW(snap, &pe); more; more = Process32NextW(snap, &pe)) {
    processes++;
    threads += (long)pe.cntThreads;
    if ((long)pe.th32ProcessID == pid)
      found = (long)pe.cntThreads;
  }
  CloseHandle(snap);
  if (machine) {
    machine->processes = processes;
    machine->threads = threads;
  }
  if (pid_threads)
    *pid_threads = found;
  return TS_OK;
}

int plat_census_machine(plat_census *out, ts_err *err) { return census_walk(out, -1, NULL, err); }

long plat_process_thread_count(long pid, ts_err *err) {
  long n = -1;
  if (census_walk(NULL, pid, &n, err) != TS_OK)
    return -1;
  if (n < 0)
    ts_err_set(err, TS_EOS, "process %ld not found in the process snapshot", pid);
  return n;
}

long plat_self_pid(void) { return (long)GetCurrentProcessId(); }
