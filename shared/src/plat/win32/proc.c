/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* proc.c (Windows) - starts, kills and reaps child processes, runs a program to capture its
   output, and finds programs in PATH. */
#include "threadsoup/plat.h"

#include "../run_deadline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "threadsoup/parse.h"
#include "win32.h"

/* Appends one argument quoted the way CommandLineToArgvW reads it back. */
static int append_quoted(wchar_t *cmd, size_t cap, size_t *len, const wchar_t *arg) {
  size_t n = *len;
#define PUT(c)                                                                                     \
  do {                                                                                             \
    if (n + 1 >= cap)                                                                              \
      return 0;                                                                                    \
    cmd[n++] = (c);                                                                                \
  } while (0)
  if (n > 0)
    PUT(L' ');
  int needs_quotes = *arg == L'\0' || wcspbrk(arg, L" \t\"") != NULL;
  if (!needs_quotes) {
    for (const wchar_t *p = arg; *p; p++)
      PUT(*p);
  } else {
    PUT(L'"');
    for (const wchar_t *p = arg;; p++) {
      size_t backslashes = 0;
      while (*p == L'\\') {
        backslashes++;
        p++;
      }
      if (*p == L'\0') {
        for (size_t i = 0; i < backslashes * 2; i++)
          PUT(L'\\');
        break;
      }
      if (*p == L'"') {
        for (size_t i = 0; i < backslashes * 2 + 1; i++)
          PUT(L'\\');
      } else {
        for (size_t i = 0; i < backslashes; i++)
          PUT(L'\\');
      }
      PUT(*p);
    }
    PUT(L'"');
  }
#undef PUT
  cmd[n] = L'\0';
  *len = n;
  return 1;
}

int win32_command_line(const char *const argv[], wchar_t *command, size_t cap, ts_err *err) {
  wchar_t *arg = malloc(cap * sizeof *arg); /* one argument may be as long as the line */
  if (!arg)
    return ts_err_set(err, TS_ENOMEM, "no memory to start '%s'", argv[0]);
  size_t len = 0;
  command[0] = L'\0';
  for (size_t i = 0; argv[i]; i++) {
    if (!win32_to_wide(argv[i], arg, cap) || !append_quoted(command, cap, &len, arg)) {
      free(arg);
      return ts_err_set(err, TS_EINVAL, "command line too long or not UTF-8: %s", argv[i]);
    }
  }
  free(arg);
  return TS_OK;
}

int plat_proc_spawn(plat_proc *proc, const char *const argv[], ts_err *err) {
  static wchar_t cmd[32768]; /* CreateProcessW's limit; too big for the stack of a 64 KiB thread */
  int rc = win32_command_line(argv, cmd, sizeof cmd / sizeof cmd[0], err);
  if (rc != TS_OK)
    return rc;
  STARTUPINFOW si;
  PROCESS_INFORMATION pi;
  memset(&si, 0, sizeof si);
  si.cb = sizeof si;
  BOOL started = CreateProcessW(NULL, cmd, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi);
  return win32_proc_started(proc, started, &pi, argv[0], err);
}

int win32_proc_started(plat_proc *proc, BOOL started, const PROCESS_INFORMATION *pi,
                       const char *program, ts_err *err) {
  if (!started) {
    char text[256];
    win32_error_text(GetLastError(), text, sizeof text);
    return ts_err_set(err, TS_EOS, "cannot start '%s': %s", program, text);
  }
  CloseHandle(pi->hThread);
  proc->handle = (uintptr_t)pi->hProcess;
  proc->pid = (long)pi->dwProcessId;
  return TS_OK;
}

int plat_proc_kill(plat_proc *proc, ts_err *err) {
  /* 137 mirrors the shell's 128 + SIGKILL, so both halves report a kill the same way. */
  if (!TerminateProcess((HANDLE)proc->handle, 137)) {
    char text[256];
    win32_error_text(GetLastError(), text, sizeof text);
    return ts_err_set(err, TS_EOS, "cannot kill process %ld: %s", proc->pid, text);
  }
  return TS_OK;
}

int plat_proc_wait(plat_proc *proc, int *exit_code, ts_err *err) {
  HANDLE h = (HANDLE)proc->handle;
  if (WaitForSingleObject(h, INFINITE) != WAIT_OBJECT_0) {
    char text[256];
    win32_error_text(GetLastError(), text, sizeof text);
    return ts_err_set(err, TS_EOS, "cannot wait for process %ld: %s", proc->pid, text);
  }
  DWORD code = 1;
  GetExitCodeProcess(h, &code);
  CloseHandle(h);
  proc->handle = 0;
  if (exit_code)
    *exit_code = (int)code;
  return TS_OK;
}

/* ---- running a program to its end, capturing its output ------------------------------------ */

/* How often the watcher looks at the clock and the interrupt flag while the child is quiet. */
#define RUN_POLL_MS 100
#define RUN_PIPE_BYTES 65536 /* a pipe this big never fills between two looks */

static int run_os_error(ts_err *err, const char *what, const char *program) {
  char text[256];
  win32_error_text(GetLastError(), text, sizeof text);
  return ts_err_set(err, TS_EOS, "%s '%s': %s", what, program, text);
}

/* Everything a run holds, so that one function releases it on every path. */
typedef struct run_handles {
  HANDLE read, write, null_input, job, process;
  HANDLE inherited[2];  /* the attribute list points here (and at job), so they live as long */
  BOOL job_at_creation; /* the OS takes the job in the attribute list (Windows 10 and later) */
  LPPROC_THREAD_ATTRIBUTE_LIST attributes;
  wchar_t *command;
} run_handles;

static void run_release(run_handles *h) {
  HANDLE all[] = {h->read, h->write, h->null_input, h->process};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (all[i])
      CloseHandle(all[i]);
  if (h->job)
    CloseHandle(h->job); /* KILL_ON_JOB_CLOSE: anything the child left running dies here */
  if (h->attributes) {
    DeleteProcThreadAttributeList(h->attributes);
    free(h->attributes);
  }
  free(h->command);
}

/* The pipe (only its write end inheritable), a NUL stdin, and the list of exactly those two
   handles for the child to inherit: none of our other handles leak into it. */
static int run_prepare(run_handles *h, const char *program, ts_err *err) {
  SECURITY_ATTRIBUTES inheritable = {sizeof inheritable, NULL, TRUE};
  if (!CreatePipe(&h->read, &h->write, &inheritable, RUN_PIPE_BYTES))
    return run_os_error(err, "cannot create a pipe for", program);
  if (!SetHandleInformation(h->read, HANDLE_FLAG_INHERIT, 0))
    return run_os_error(err, "cannot prepare the pipe for", program);
  h->null_input = CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE,
                              &inheritable, OPEN_EXISTING, 0, NULL);
  if (h->null_input == INVALID_HANDLE_VALUE) {
    h->null_input = NULL;
    return run_os_error(err, "cannot open NUL as the input of", program);
  }
  if (!(h->job = win32_kill_on_close_job()))
    return run_os_error(err, "cannot create the job object for", program);
  SIZE_T size = 0;
  InitializeProcThreadAttributeList(NULL, 2, 0, &size);
  h->attributes = malloc(size);
  if (!h->attributes)
    return ts_err_set(err, TS_ENOMEM, "no memory to start '%s'", program);
  h->inherited[0] = h->write;
  h->inherited[1] = h->null_input;
  if (!InitializeProcThreadAttributeList(h->attributes, 2, 0, &size)) {
    free(h->attributes);
    h->attributes = NULL;
    return run_os_error(err, "cannot prepare the handles of", program);
  }
  if (!UpdateProcThreadAttribute(h->attributes, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, h->inherited,
                                 sizeof h->inherited, NULL, NULL))
    return run_os_error(err, "cannot prepare the handles of", program);
  /* Windows 10 puts the process in the job as it creates it: nothing it starts can escape, and
     no kill of ours can fall between its creation and the job. Older systems refuse the
     attribute; there the process is created suspended and assigned before it runs. */
  h->job_at_creation = UpdateProcThreadAttribute(h->attributes, 0, PROC_THREAD_ATTRIBUTE_JOB_LIST,
                                                 &h->job, sizeof h->job, NULL, NULL);
  return TS_OK;
}

/* Wine lets CreateProcess start a Linux program, but as a bare Unix process: no handle to wait
   on or kill, and its output does not reach a Windows pipe (seen with Wine 8: the pipe reports
   its end at once and nothing arrives). Such a program is refused before it starts. */
static int is_linux_program(const wchar_t *path) {
  HANDLE f = CreateFileW(path, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         NULL, OPEN_EXISTING, 0, NULL);
  if (f == INVALID_HANDLE_VALUE)
    return 0;
  char magic[4] = {0};
  DWORD got = 0;
  BOOL read_ok = ReadFile(f, magic, sizeof magic, &got, NULL);
  CloseHandle(f);
  return read_ok && got == sizeof magic && memcmp(magic, "\177ELF", 4) == 0;
}

/* `bench_state` non-NULL: the program is a benchmark (see plat_proc_run_as_benchmark). */
static int run_start(run_handles *h, const char *const argv[], char *bench_state,
                     size_t bench_state_len, ts_err *err) {
  enum { COMMAND_MAX = 32768 }; /* CreateProcessW's limit */
  h->command = malloc(COMMAND_MAX * sizeof(wchar_t));
  wchar_t *arg = malloc(COMMAND_MAX * sizeof(wchar_t));
  if (!h->command || !arg) {
    free(arg);
    return ts_err_set(err, TS_ENOMEM, "no memory to start '%s'", argv[0]);
  }
  int rc = win32_command_line(argv, h->command, COMMAND_MAX, err);
  if (rc != TS_OK) {
    free(arg);
    return rc;
  }
  /* A program given with a folder is started exactly as named (Wine's Z:\usr\bin\7zz has no
     .exe to add); a bare name is searched for the way cmd.exe would. */
  int has_folder = strpbrk(argv[0], "\\/:") != NULL;
  if (has_folder && !win32_to_wide(argv[0], arg, COMMAND_MAX)) {
    free(arg);
    return ts_err_set(err, TS_EINVAL, "program path not UTF-8: %s", argv[0]);
  }
  if (has_folder && is_linux_program(arg)) {
    free(arg);
    return ts_err_set(err, TS_EUNSUPPORTED,
                      "cannot run '%s': it is a Linux program, whose output "
                      "a Windows program cannot capture (under Wine); use a Windows build of it",
                      argv[0]);
  }
  STARTUPINFOEXW si;
  ZeroMemory(&si, sizeof si);
  si.StartupInfo.cb = sizeof si;
  si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
  si.StartupInfo.hStdInput = h->null_input;
  si.StartupInfo.hStdOutput = h->write;
  si.StartupInfo.hStdError = h->write;
  si.lpAttributeList = h->attributes;
  PROCESS_INFORMATION pi;
  ZeroMemory(&pi, sizeof pi);
  /* Without the job in the attribute list: suspended until it is in the job. A benchmark starts
     suspended in any case, at normal priority (a child inherits a below-normal or idle class of
     ours otherwise), and runs only once it is out of power throttling. */
  int suspended = !h->job_at_creation || bench_state != NULL;
  DWORD flags = CREATE_NO_WINDOW | EXTENDED_STARTUPINFO_PRESENT |
                (suspended ? CREATE_SUSPENDED : 0) | (bench_state ? NORMAL_PRIORITY_CLASS : 0);
  BOOL started = CreateProcessW(has_folder ? arg : NULL, h->command, NULL, NULL, TRUE, flags, NULL,
                                NULL, &si.StartupInfo, &pi);
  free(arg);
  if (!started)
    return run_os_error(err, "cannot start", argv[0]);
  /* Only a non-Windows program started by Wine comes back without handles (see
     is_linux_program): it already runs, outside any job, and nothing of it can be followed. */
  if (!pi.hProcess)
    return ts_err_set(err, TS_EUNSUPPORTED,
                      "'%s' started without a process handle (not a "
                      "Windows program?): its output cannot be captured",
                      argv[0]);
  h->process = pi.hProcess;
  /* Trust but check: a system that takes the attribute and ignores it gets the assignment. */
  BOOL in_job = FALSE;
  if (h->job_at_creation && !IsProcessInJob(pi.hProcess, h->job, &in_job))
    in_job = FALSE;
  if (!in_job && !AssignProcessToJobObject(h->job, pi.hProcess)) {
    rc = run_os_error(err, "cannot confine to a job object", argv[0]);
    TerminateProcess(pi.hProcess, 137);
    CloseHandle(pi.hThread);
    return rc;
  }
  if (bench_state)
    win32_process_opt_out(pi.hProcess, bench_state, bench_state_len);
  if (suspended)
    ResumeThread(pi.hThread);
  CloseHandle(pi.hThread);
  /* Our copy of the write end must go, or the pipe would never report its end. */
  CloseHandle(h->write);
  h->write = NULL;
  return TS_OK;
}

/* The CPU time of the programs run and waited for (plat_children_cpu_ns): what POSIX keeps as
   RUSAGE_CHILDREN, summed here as each one ends. */
static volatile LONG64 children_cpu_100ns;

static void count_child_cpu(HANDLE process) {
  FILETIME created, exited, kernel, user;
  if (GetProcessTimes(process, &created, &exited, &kernel, &user))
    InterlockedAdd64(&children_cpu_100ns,
                     (LONG64)((((uint64_t)kernel.dwHighDateTime << 32) | kernel.dwLowDateTime) +
                              (((uint64_t)user.dwHighDateTime << 32) | user.dwLowDateTime)));
}

uint64_t plat_children_cpu_ns(void) {
  return (uint64_t)InterlockedAdd64(&children_cpu_100ns, 0) * 100u;
}

/* Reads what is waiting in the pipe without blocking. Returns 1 when something was read, 0 when
   nothing is waiting, -1 when the pipe is closed at the other end (the child is done). */
static int run_read_available(HANDLE pipe, char *output, size_t capacity, size_t *kept) {
  DWORD available = 0;
  if (!PeekNamedPipe(pipe, NULL, 0, NULL, &available, NULL))
    return -1; /* ERROR_BROKEN_PIPE: every writer has closed its end */
  if (available == 0)
    return 0;
  char chunk[4096];
  DWORD got = 0;
  if (!ReadFile(pipe, chunk, available < sizeof chunk ? available : sizeof chunk, &got, NULL))
    return -1;
  /* Keep what fits; the rest is read anyway so that the child never blocks on a full pipe. */
  size_t room = capacity > *kept + 1 ? capacity - *kept - 1 : 0;
  size_t take = got < room ? got : room;
  if (take > 0) {
    memcpy(output + *kept, chunk, take);
    *kept += take;
    output[*kept] = '\0';
  }
  return 1;
}

static int run_program(const char *const argv[], const plat_cancel *cancel, char *output,
                       size_t capacity, size_t *output_length, uint64_t timeout_ns, int *exit_code,
                       char *bench_state, size_t bench_state_len, ts_err *err) {
  size_t kept = 0;
  if (capacity > 0)
    output[0] = '\0';
  if (output_length)
    *output_length = 0;
  run_handles h;
  ZeroMemory(&h, sizeof h);
  int rc = run_prepare(&h, argv[0], err);
  if (rc == TS_OK)
    rc = run_start(&h, argv, bench_state, bench_state_len, err);
  if (rc != TS_OK) {
    run_release(&h);
    return rc;
  }

  /* The watcher: drain the pipe, and between reads wait on the process (a wait that ends at once
     when it exits), looking at the clock and the interrupt flag each time. Once the process has
     exited, a program it started may still hold the pipe: then it sleeps instead of spinning. */
  uint64_t started = plat_clock_ns();
  int stopped = 0, exited = 0;
  for (;;) {
    int got = run_read_available(h.read, output, capacity, &kept);
    if (got < 0)
      break;
    if (got > 0)
      continue;
    DWORD wait_ms = RUN_POLL_MS;
    if ((stopped = plat_run_must_stop(cancel, started, timeout_ns, &wait_ms)) != 0)
      break;
    if (exited)
      Sleep(wait_ms);
    else
      exited = WaitForSingleObject(h.process, wait_ms) == WAIT_OBJECT_0;
  }
  /* The output has ended; the exit follows at once, unless the process closed its output and
     runs on, which the timeout and Ctrl+C still cover. */
  while (!stopped && !exited) {
    DWORD wait_ms = RUN_POLL_MS;
    if ((stopped = plat_run_must_stop(cancel, started, timeout_ns, &wait_ms)) == 0)
      exited = WaitForSingleObject(h.process, wait_ms) == WAIT_OBJECT_0;
  }
  if (output_length)
    *output_length = kept;

  if (stopped) {
    if (h.job)
      TerminateJobObject(h.job, 137); /* 128 + SIGKILL, as the POSIX half reports a kill */
    WaitForSingleObject(h.process, INFINITE);
    count_child_cpu(h.process);
    run_release(&h);
    if (stopped == TS_EINTERRUPTED)
      return ts_err_set(err, TS_EINTERRUPTED, "interrupted; '%s' was killed", argv[0]);
    char limit[32];
    ts_format_duration(timeout_ns, limit, (int)sizeof limit);
    return ts_err_set(err, TS_EBENCH, "'%s' timed out: still running after %s, killed", argv[0],
                      limit);
  }
  DWORD code = 1;
  GetExitCodeProcess(h.process, &code);
  count_child_cpu(h.process);
  run_release(&h);
  if (exit_code)
    *exit_code = (int)code;
  return TS_OK;
}

int plat_proc_run(const char *const argv[], const plat_cancel *cancel, char *output,
                  size_t capacity, size_t *output_length, uint64_t timeout_ns, int *exit_code,
                  ts_err *err) {
  return run_program(argv, cancel, output, capacity, output_length, timeout_ns, exit_code, NULL, 0,
                     err);
}

int plat_proc_run_as_benchmark(const char *const argv[], const plat_cancel *cancel, char *output,
                               size_t capacity, size_t *output_length, uint64_t timeout_ns,
                               int *exit_code, char *state, size_t state_len, ts_err *err) {
  snprintf(state, state_len, "not started");
  return run_program(argv, cancel, output, capacity, output_length, timeout_ns, exit_code, state,
                     state_len, err);
}

/* ---- finding programs ---------------------------------------------------------------------- */

int plat_find_program(const char *name, char *path, size_t len, ts_err *err) {
  wchar_t wide_name[PLAT_PATH_MAX], found[PLAT_PATH_MAX];
  if (!win32_to_wide(name, wide_name, PLAT_PATH_MAX))
    return ts_err_set(err, TS_EINVAL, "program name too long or not UTF-8: %s", name);
  if (strpbrk(name, "\\/:")) {
    DWORD attributes = GetFileAttributesW(wide_name);
    if (attributes == INVALID_FILE_ATTRIBUTES || (attributes & FILE_ATTRIBUTE_DIRECTORY))
      return ts_err_set(err, TS_EINVAL, "'%s' is not a file", name);
    snprintf(path, len, "%s", name);
    return TS_OK;
  }
  /* The program's folder, the current folder, the system folders, then PATH; ".exe" is added
     when the name has no extension. */
  DWORD n = SearchPathW(NULL, wide_name, L".exe", PLAT_PATH_MAX, found, NULL);
  if (n == 0 || n >= PLAT_PATH_MAX)
    return ts_err_set(err, TS_EINVAL, "'%s' is not in PATH", name);
  if (!win32_from_wide(found, path, len))
    return ts_err_set(err, TS_EINVAL, "the path of '%s' is too long", name);
  return TS_OK;
}
