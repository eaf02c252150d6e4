/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* child.c (Windows) - idle child processes bound to the life of their owner, twice over: each
   child inherits one handle, to its owner, and exits when that handle signals; and each is put in
   a job object that kills its processes when the job's last handle closes (KILL_ON_JOB_CLOSE),
   so even a kill of the owner ends them all. Helpers that must outlive their owner (the freeze
   guardian) start the same way, bound to nothing. */
#include "threadsoup/plat.h"

#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

#include "win32.h"

#include <tlhelp32.h>

struct plat_child_group {
  wchar_t program[PLAT_PATH_MAX];
  HANDLE job;
  HANDLE owner; /* inheritable handle to this process, the one handle each child inherits */
  LPPROC_THREAD_ATTRIBUTE_LIST attributes;
  long count;
  plat_mutex lock; /* threads that spawn into the group at once take turns */
};

static int os_error(ts_err *err, const char *what) {
  char text[256];
  win32_error_text(GetLastError(), text, sizeof text);
  return ts_err_set(err, TS_EOS, "%s: %s", what, text);
}

int plat_child_group_create(plat_child_group **out, const char *idle_program, ts_err *err) {
  *out = NULL;
  plat_child_group *g = calloc(1, sizeof *g);
  if (!g)
    return ts_err_set(err, TS_ENOMEM, "no memory for a child group");
  if (!win32_to_wide(idle_program, g->program, sizeof g->program / sizeof g->program[0])) {
    free(g);
    return ts_err_set(err, TS_EINVAL, "program path too long or not UTF-8: %s", idle_program);
  }
  if (GetFileAttributesW(g->program) == INVALID_FILE_ATTRIBUTES) {
    int rc = os_error(err, "cannot find the idle child");
    free(g);
    return ts_err_prefix(err, "%s", idle_program), rc;
  }
  plat_mutex_init(&g->lock);
  int rc = TS_OK;
  if (!(g->job = win32_kill_on_close_job()))
    rc = os_error(err, "cannot create the job object for child processes");
  if (rc == TS_OK && !DuplicateHandle(GetCurrentProcess(), GetCurrentProcess(), GetCurrentProcess(),
                                      &g->owner, SYNCHRONIZE, TRUE, 0))
    rc = os_error(err, "cannot create the owner handle for child processes");
  /* Inherit exactly one handle: without the list, every inheritable handle of ours would be
     copied into each of 15,000 children. */
  SIZE_T size = 0;
  InitializeProcThreadAttributeList(NULL, 1, 0, &size);
  if (rc == TS_OK) {
    g->attributes = malloc(size);
    if (!g->attributes || !InitializeProcThreadAttributeList(g->attributes, 1, 0, &size) ||
        !UpdateProcThreadAttribute(g->attributes, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, &g->owner,
                                   sizeof g->owner, NULL, NULL))
      rc = os_error(err, "cannot prepare the inherited handle list");
  }
  if (rc != TS_OK) {
    plat_child_group_destroy(g);
    return rc;
  }
  *out = g;
  return TS_OK;
}

/* A child of ours running `program` that is in no job: one the OS started while it reported the
   start as refused (Wine does so under load). It joins the group's job and counts, instead of
   living on beside a replacement. 1 when one was found and adopted. Never seen on Windows, where
   a creation succeeds or leaves nothing; there this runs only after a refusal and finds none (and
   adopts none when this process itself runs in a job, as then every child is in one). */
static int adopt_started_anyway(plat_child_group *g) {
  const wchar_t *name = wcsrchr(g->program, L'\\');
  name = name ? name + 1 : g->program;
  HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
  if (snapshot == INVALID_HANDLE_VALUE)
    return 0;
  PROCESSENTRY32W entry;
  entry.dwSize = sizeof entry;
  int adopted = 0;
  DWORD self = GetCurrentProcessId();
  for (BOOL more = Process32FirstW(snapshot, &entry); more && !adopted;
       more = Process32NextW(snapshot, &entry)) {
    if (entry.th32ParentProcessID != self || _wcsicmp(entry.szExeFile, name) != 0)
      continue;
    /* PROCESS_QUERY_INFORMATION, not the limited right: Wine's IsProcessInJob wants it. */
    HANDLE child = OpenProcess(PROCESS_SET_QUOTA | PROCESS_TERMINATE | PROCESS_QUERY_INFORMATION,
                               FALSE, entry.th32ProcessID);
    BOOL in_a_job = TRUE;
    if (child && IsProcessInJob(child, NULL, &in_a_job) && !in_a_job)
      adopted = AssignProcessToJobObject(g->job, child) != 0;
    if (child)
      CloseHandle(child);
  }
  CloseHandle(snapshot);
  return adopted;
}

/* Starts `command` of `program` as every helper of ours starts (an idle child, the freeze
   guardian), running at once and with no console: the one spawn of every helper. It inherits
   exactly the handles in `inherited`'s list, or none when that is NULL.
   Not created suspended: an idle child only ever waits on its owner, so it may run before it is
   in the job; but a suspended child whose owner dies before the job takes it (or one that Wine
   reports as refused while it goes on starting, seen under load) would wait for nothing,
   forever. Running, it sees its owner end and exits.
   DETACHED_PROCESS, not CREATE_NO_WINDOW: the helpers are console programs, and CREATE_NO_WINDOW
   still gives each a console of its own, without a window but with a console host process
   (conhost.exe) each, on Windows 10 and 11 as under Wine; 15,000 children would be 30,000
   processes. A detached child has no console at all (it never needs one), and no Ctrl+C of the
   owner's console reaches it. */
static BOOL helper_spawn(const wchar_t *program, wchar_t *command,
                         LPPROC_THREAD_ATTRIBUTE_LIST inherited, PROCESS_INFORMATION *pi) {
  STARTUPINFOEXW si;
  ZeroMemory(&si, sizeof si);
  si.StartupInfo.cb = sizeof si;
  si.lpAttributeList = inherited;
  DWORD flags = DETACHED_PROCESS | (inherited ? EXTENDED_STARTUPINFO_PRESENT : 0);
  return CreateProcessW(program, command, NULL, NULL, inherited != NULL, flags, NULL, NULL,
                        &si.StartupInfo, pi);
}

static int spawn_one(plat_child_group *g, ts_err *err) {
  wchar_t command[PLAT_PATH_MAX + 32];
  swprintf(command, sizeof command / sizeof command[0], L"\"%ls\" %llu", g->program,
           (unsigned long long)(ULONG_PTR)g->owner);
  PROCESS_INFORMATION pi;
  if (plat_fault_due(PLAT_FAULT_CHILD_SPAWN))
    return ts_err_set(err, TS_EOS,
                      "the OS refused a new process: Insufficient system resources "
                      "exist to complete the requested service (injected)");
  /* Injected: the child starts but the creation reports a refusal, as Wine does under load. */
  int start_but_report_refused = plat_fault_due(PLAT_FAULT_CHILD_LOST);
  BOOL started = helper_spawn(g->program, command, g->attributes, &pi);
  if (started && start_but_report_refused) {
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    SetLastError(ERROR_INTERNAL_ERROR);
  }
  if (!started || start_but_report_refused) {
    int rc = os_error(err, "the OS refused a new process");
    if (!adopt_started_anyway(g))
      return rc;
    g->count++;
    return TS_OK;
  }
  if (!AssignProcessToJobObject(g->job, pi.hProcess)) {
    int rc = os_error(err, "cannot put a child process in the job object");
    TerminateProcess(pi.hProcess, 1);
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    return rc;
  }
  CloseHandle(pi.hThread);
  CloseHandle(pi.hProcess);
  g->count++;
  return TS_OK;
}

int plat_child_group_spawn(plat_child_group *g, ts_err *err) {
  plat_mutex_lock(&g->lock);
  int rc = spawn_one(g, err);
  plat_mutex_unlock(&g->lock);
  return rc;
}

long plat_child_group_count(const plat_child_group *g) { return g->count; }

void plat_child_group_destroy(plat_child_group *g) {
  if (!g)
    return;
  if (g->job) {
    TerminateJobObject(g->job, 137);
    /* Termination is asynchronous: wait until the job reports no process left. */
    for (int i = 0; i < 2000; i++) {
      JOBOBJECT_BASIC_ACCOUNTING_INFORMATION info;
      if (!QueryInformationJobObject(g->job, JobObjectBasicAccountingInformation, &info,
                                     sizeof info, NULL) ||
          info.ActiveProcesses == 0)
        break;
      Sleep(5);
    }
    CloseHandle(g->job);
  }
  if (g->attributes) {
    DeleteProcThreadAttributeList(g->attributes);
    free(g->attributes);
  }
  if (g->owner)
    CloseHandle(g->owner);
  plat_mutex_destroy(&g->lock);
  free(g);
}

int plat_helper_spawn(plat_proc *proc, const char *const argv[], ts_err *err) {
  static wchar_t command[32768]; /* CreateProcessW's limit; too big for a 64 KiB thread's stack */
  wchar_t program[PLAT_PATH_MAX];
  if (!win32_to_wide(argv[0], program, sizeof program / sizeof program[0]))
    return ts_err_set(err, TS_EINVAL, "program path too long or not UTF-8: %s", argv[0]);
  int rc = win32_command_line(argv, command, sizeof command / sizeof command[0], err);
  if (rc != TS_OK)
    return rc;
  PROCESS_INFORMATION pi;
  BOOL started = helper_spawn(program, command, NULL, &pi);
  return win32_proc_started(proc, started, &pi, argv[0], err);
}
