/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* plat.h - the portable face of the operating system: every OS call ThreadSoup makes goes through
   these functions, implemented twice with matching file names in plat/posix and plat/win32. */
#ifndef THREADSOUP_PLAT_H
#define THREADSOUP_PLAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "threadsoup/err.h"
#include "threadsoup/plat_knobs.h" /* what tests may change in how this layer meets the OS */

/* ---- threads (thread.c) ---------------------------------------------------------------------- */

typedef void (*plat_thread_fn)(void *arg);

/* A thread: its handle (a pthread_t or a HANDLE) and what it runs. The new thread reads fn and arg
   from here, so a thread start allocates nothing (a malloc in the creator and a free in the new
   thread would give each of 15,000 threads an allocator cache of its own). */
typedef struct plat_thread {
  uintptr_t handle;
  plat_thread_fn fn;
  void *arg;
} plat_thread;

/* The smallest stack the platform accepts safely: 16 KiB on POSIX, a 64 KiB reservation on
   Windows (the allocation granularity; smaller reservations are rounded up by the OS anyway). */
size_t plat_thread_min_stack(void);

/* Starts fn(arg) on a new thread whose stack is `stack_bytes` (0 = plat_thread_min_stack()).
   *thread must stay where it is until the thread has started (keep it until the join). On failure
   nothing is started and err names the OS's reason. */
int plat_thread_start(plat_thread *thread, size_t stack_bytes, plat_thread_fn fn, void *arg,
                      ts_err *err);
/* Waits for the thread to end and releases its handle. */
void plat_thread_join(plat_thread thread);

/* Stacks for many threads at once, as a load's thousands of threads need them. POSIX: one
   mapping cut into `count` stacks of `stack_bytes` (rounded up to pages) without guard pages
   between them, so 15,000 threads end without 15,000 unmaps, each a TLB shootdown (15,000
   sleepers stopped in 2.0-3.5 s with a mapping each, 0.6-0.9 s in one, on a busy 2-core VM).
   Windows places each thread's stack itself: this keeps the size for CreateThread. On failure (no
   address space) *out is NULL and err says why. */
typedef struct plat_stacks plat_stacks;
int plat_stacks_create(size_t count, size_t stack_bytes, plat_stacks **out, ts_err *err);
/* As plat_thread_start, on stack `index` of `stacks` (one thread per stack at a time). */
int plat_thread_start_on(plat_thread *thread, plat_stacks *stacks, size_t index, plat_thread_fn fn,
                         void *arg, ts_err *err);
/* Releases the stacks; every thread started on them has been joined. NULL: nothing. */
void plat_stacks_free(plat_stacks *stacks);

/* A mutex and a condition variable (pthread; SRWLOCK and CONDITION_VARIABLE), held in opaque
   storage so the header needs no system header. */
typedef struct plat_mutex {
  uint64_t opaque[8];
} plat_mutex;
typedef struct plat_cond {
  uint64_t opaque[8];
} plat_cond;
void plat_mutex_init(plat_mutex *m);
void plat_mutex_destroy(plat_mutex *m);
void plat_mutex_lock(plat_mutex *m);
void plat_mutex_unlock(plat_mutex *m);
void plat_cond_init(plat_cond *c);
void plat_cond_destroy(plat_cond *c);
void plat_cond_broadcast(plat_cond *c);
/* Waits until woken or `timeout_ns` passes (UINT64_MAX: no timeout); 1 when it timed out. */
int plat_cond_wait(plat_cond *c, plat_mutex *m, uint64_t timeout_ns);
/* The same for a wait until a wall-clock time `timeout_ns` from now, which counts the time the
   machine sleeps meanwhile where the OS can: Linux waits on CLOCK_REALTIME (it also follows a clock
   set by hand); Windows waits do not count time asleep since Windows 8, so there the service's
   resume and time-change controls wake the waiter to recompute. */
int plat_cond_wait_wall(plat_cond *c, plat_mutex *m, uint64_t timeout_ns);

/* Ends a thread that never checks a flag (the yield scenario's unchecked loop): asynchronous
   cancellation on POSIX, TerminateThread on Windows, then joins it. Only for threads that hold no
   lock and call nothing but plat_yield. */
void plat_thread_cancel_and_join(plat_thread thread);
/* Lets a thread that never checks a flag be ended by plat_thread_cancel_and_join; the thread
   itself calls this first. */
void plat_thread_allow_cancel(void);

/* Scheduling priority of the calling thread. */
typedef enum plat_priority {
  PLAT_PRIORITY_IDLE,   /* Windows THREAD_PRIORITY_IDLE; POSIX nice 19 */
  PLAT_PRIORITY_LOW,    /* BELOW_NORMAL; nice 5 */
  PLAT_PRIORITY_NORMAL, /* NORMAL; nice 0 (the default: nothing is changed) */
  PLAT_PRIORITY_HIGH,   /* ABOVE_NORMAL; nice -5 (needs privileges on POSIX) */
} plat_priority;
int plat_thread_set_priority(plat_priority priority, ts_err *err);

/* Gives up the processor to another ready thread (sched_yield, SwitchToThread). */
void plat_yield(void);

/* ---- time (time.c) --------------------------------------------------------------------------- */

uint64_t plat_clock_ns(void); /* monotonic, for durations */
/* The OS's plain sleep: nanosleep on POSIX, Sleep on Windows (Wait:DelayExecution). */
void plat_sleep_ns(uint64_t ns);
/* Sleeps until plat_clock_ns() reaches `deadline_ns`: clock_nanosleep(TIMER_ABSTIME) on POSIX;
   Sleep of the time left on Windows, which keeps the thread in Wait:DelayExecution. */
void plat_sleep_until_ns(uint64_t deadline_ns);
/* The same two sleeps in the same OS wait (nanosleep and clock_nanosleep; SleepEx, alertable,
   still Wait:DelayExecution), but plat_thread_wake ends them early: they return 1 when woken,
   0 after the whole sleep. plat_sleep_wakeable_enable, once on the sleeping thread, lets the wake
   in (POSIX: unblocks SIGURG, whose handler does nothing). */
void plat_sleep_wakeable_enable(void);
int plat_sleep_ns_wakeable(uint64_t ns);
int plat_sleep_until_ns_wakeable(uint64_t deadline_ns);
/* Wakes `thread` from a wakeable sleep: a signal on POSIX, an APC on Windows. Returns 1 when the
   wake is kept until the thread's next wakeable sleep (Windows: a queued APC), 0 when a thread not
   asleep at that moment misses it (POSIX): then call again until the thread has seen its flag. */
int plat_thread_wake(const plat_thread *thread);
/* Current UTC time as "YYYY-MM-DDTHH:MM:SS.mmmZ" into buf (at least 32 bytes). */
void plat_utc_timestamp(char *buf, size_t len);
/* The local calendar time of `t` (seconds since 1970) into *out, safe on any thread (localtime_r,
   localtime_s: no static buffer shared by the scheduler and connection threads); 0 on failure. */
struct tm;
int plat_local_time(int64_t t, struct tm *out);
/* CPU time (user + kernel) consumed so far by this whole process. */
uint64_t plat_process_cpu_ns(void);
/* CPU time of the programs this process ran and waited for (the benchmark's child, a command
   benchmark): POSIX getrusage(RUSAGE_CHILDREN); Windows the sum of each finished program's
   GetProcessTimes. Ours too, when the CPU use outside ThreadSoup is measured. */
uint64_t plat_children_cpu_ns(void);
/* CPU time consumed so far by the calling thread: what the census itself costs. */
uint64_t plat_thread_cpu_ns(void);
/* The calling thread's CPU time at microsecond precision, for a spin that must take a given
   amount of CPU (burn): 0 when this machine has no such clock. Linux: the thread's CPU clock.
   Windows: GetThreadTimes moves in clock ticks (15.6 ms by default), so the thread's cycle count
   (QueryThreadCycleTime, counted at the invariant TSC's rate) is scaled by that rate, measured
   once against the performance counter. */
uint64_t plat_thread_spin_ns(void);

/* ---- interrupts (interrupt.c): Ctrl+C, SIGINT, SIGTERM, console close ---- */

/* Installs the handlers once; afterwards an interrupt sets a flag and wakes plat_interrupt_wait. */
int plat_interrupt_install(ts_err *err);
int plat_interrupted(void);
/* Sleeps up to `ns`, returning early (and 1) on an interrupt; returns 0 after a full sleep.
   One blocking wait, no polling: the instrument must not wake up on its own. */
int plat_interrupt_wait(uint64_t ns);
/* Raises the interrupt from inside the program (tests, `--for` limits, the service stopping a
   run). */
void plat_interrupt_raise(void);
/* Clears a raised interrupt, so the next wait is not ended at once (tests that raise it). */
void plat_interrupt_reset(void);
/* Windows ends a console program when its handler of a console close (or logoff, shutdown)
   returns, and after about 5 s whatever it does. Between plat_interrupt_hold and
   plat_interrupt_settled (a foreground run that may have quiet mode on) the handler raises the
   interrupt and then waits, at most PLAT_CLOSE_ALLOWANCE_MS, for the program to restore what it
   changed; what is left open is restored at the next start. POSIX: no-ops (SIGHUP only raises the
   interrupt, and the program restores before it exits). */
#define PLAT_CLOSE_ALLOWANCE_MS 4500
void plat_interrupt_hold(void);
void plat_interrupt_settled(void);
/* The process is a Windows service: logoff and shutdown console events are the service manager's
   (its PRESHUTDOWN control stops the server), so the handler passes them on (returns FALSE)
   instead of interrupting. POSIX: a no-op. */
void plat_interrupt_as_service(void);

/* A cancel token: one job's own stop request (the service stops one experiment without touching
   the process-wide interrupt that stops everything). Waits on a token end on either. A NULL token
   stands for the process interrupt alone. */
typedef struct plat_cancel plat_cancel;
int plat_cancel_create(plat_cancel **out, ts_err *err);
void plat_cancel_destroy(plat_cancel *c);
/* Raises the token: its waits end at once, and every later one returns 1. Safe from any thread. */
void plat_cancel_raise(plat_cancel *c);
/* 1 when the token (or the process interrupt) was raised. */
int plat_cancelled(const plat_cancel *c);
/* plat_interrupt_wait that also ends when the token is raised; one blocking wait, no polling. */
int plat_cancel_wait(const plat_cancel *c, uint64_t ns);

/* ---- census (census.c): what the OS says is running ------------------------------------------ */

#define PLAT_STATE_NAME_MAX 40
#define PLAT_MAX_STATES 24
#define PLAT_PROCESS_NAME_MAX 64

/* Threads in one state, named as the OS's own tools name it: Linux "S (sleeping)" from /proc;
   Windows "Wait:DelayExecution", "Wait:UserRequest", "Running", "Ready" as Process Explorer. */
typedef struct plat_state_count {
  char name[PLAT_STATE_NAME_MAX];
  long threads;
} plat_state_count;

/* The whole machine. */
typedef struct plat_census {
  long processes;
  long threads;
  long handles;              /* open handles of all processes (Windows); -1 where there are none */
  long run_queue;            /* threads running or ready to run now */
  uint64_t context_switches; /* Linux: since boot; Windows: of the threads alive now (0 in Wine);
                                a rate needs two censuses of the same machine */
} plat_census;

/* One process. */
typedef struct plat_process_census {
  long pid;
  long parent_pid;
  char name[PLAT_PROCESS_NAME_MAX];
  long threads;
  long handles;              /* -1 where the OS has no handle count (Linux) */
  uint64_t cpu_ns;           /* user + kernel time of all its threads so far */
  uint64_t context_switches; /* all its threads, since each started */
  int state_count;           /* filled by plat_census_process only; most threads first */
  plat_state_count states[PLAT_MAX_STATES];
} plat_process_census;

int plat_census_machine(plat_census *out, ts_err *err);
/* One process in detail: threads by state, context switches, CPU time. */
int plat_census_process(long pid, plat_process_census *out, ts_err *err);
/* Every process, without thread states (cheaper). *list is malloc'ed; the caller frees it. */
int plat_census_processes(plat_process_census **list, long *count, ts_err *err);
/* One thread's context switches since it started: Linux voluntary and involuntary ones; Windows
   ContextSwitches (always 0 under Wine). */
typedef struct plat_thread_switches {
  long tid;
  uint64_t switches;
} plat_thread_switches;
/* Every thread of one process with its own switches, and the process without thread states.
 *threads is malloc'ed; the caller frees it. */
int plat_census_threads(long pid, plat_process_census *process, plat_thread_switches **threads,
                        long *count, ts_err *err);
/* Whether `census_name` (a plat_process_census name) is the executable a user named `wanted`.
   Linux: exactly, or its first 15 bytes, which is all the kernel keeps; Windows: ignoring
   ASCII case, with or without ".exe". */
int plat_process_name_matches(const char *census_name, const char *wanted);
/* CPU time of the whole machine so far, all processors: busy (not idle) and total. Two readings
   give the machine's CPU use in between. */
int plat_machine_cpu_ns(uint64_t *busy_ns, uint64_t *total_ns, ts_err *err);
/* Threads of one process, as the OS counts them (not our own bookkeeping). -1 on error. */
long plat_process_thread_count(long pid, ts_err *err);
long plat_self_pid(void);

/* ---- waiting forever (wait.c): one object many threads block on until it is released -------- */

typedef enum plat_wait_kind {
  PLAT_WAIT_EVENT,   /* Windows manual-reset event (Wait:UserRequest); POSIX condition variable */
  PLAT_WAIT_CONDVAR, /* Windows CONDITION_VARIABLE + SRW lock; POSIX condition variable */
  PLAT_WAIT_ADDRESS, /* WaitOnAddress (Wait:WrAlertByThreadId); Linux futex */
  PLAT_WAIT_CHANNEL, /* a blocking read on a pipe that no one writes to */
  PLAT_WAIT_QUEUE,   /* Windows I/O completion port (Wait:WrQueue); Linux epoll */
} plat_wait_kind;

typedef struct plat_waitpoint plat_waitpoint;

/* Creates what `waiters` threads (numbered 0 to waiters-1) will block on. */
int plat_waitpoint_create(plat_waitpoint **out, plat_wait_kind kind, long waiters, ts_err *err);
/* Blocks the calling thread (number `index`) until plat_waitpoint_release. */
void plat_waitpoint_wait(plat_waitpoint *wp, long index);
/* Wakes every waiter, now and later. */
void plat_waitpoint_release(plat_waitpoint *wp);
/* Frees it; every waiter must have returned (joined). */
void plat_waitpoint_destroy(plat_waitpoint *wp);

/* ---- idle children (child.c): processes that live exactly as long as their owner ------------- */

typedef struct plat_child_group plat_child_group;

/* Prepares a group of children running `idle_program` (threadsoup-idle). Each child waits on one
   inherited handle until its owner ends; Windows also puts them in a job object that kills them
   when its last handle closes, Linux in one process group. Nothing outlives the owner, even when
   the owner is killed. */
int plat_child_group_create(plat_child_group **out, const char *idle_program, ts_err *err);
/* Starts one more child; several threads may call it at once. */
int plat_child_group_spawn(plat_child_group *g, ts_err *err);
/* How many children it has started; while no thread is spawning into it. */
long plat_child_group_count(const plat_child_group *g);
/* Kills every child and waits until the OS has reaped them all. */
void plat_child_group_destroy(plat_child_group *g);

typedef struct plat_proc plat_proc;
/* Starts argv[0] (a path: a program of ours, such as the freeze guardian) apart, as every idle
   child starts but bound to nothing, so it may outlive its owner: no console (Windows: detached,
   so no console host either), standard streams on the null device, no descriptor or handle of
   ours inherited, signals at their defaults, a process group of its own (Ctrl+C in the owner's
   terminal does not reach it). Ended and reaped with plat_proc_kill and plat_proc_wait. */
int plat_helper_spawn(plat_proc *proc, const char *const argv[], ts_err *err);

/* ---- processes (proc.c) ---------------------------------------------------------------------- */

struct plat_proc {
  uintptr_t handle; /* HANDLE on Windows; unused on POSIX */
  long pid;
};

/* Starts argv[0] with arguments argv[1..] (NULL-terminated); the child inherits stdio. */
int plat_proc_spawn(plat_proc *proc, const char *const argv[], ts_err *err);
/* Ends the process at once, as `kill -9` or TerminateProcess do. */
int plat_proc_kill(plat_proc *proc, ts_err *err);
/* Waits for the end; *exit_code gets the exit status (128+signal on POSIX when killed). */
int plat_proc_wait(plat_proc *proc, int *exit_code, ts_err *err);

/* Runs argv to its end and captures what it prints (stdout and stderr together, the first
   `capacity` - 1 bytes, NUL-terminated; the rest is read and dropped). A `timeout_ns` other than 0
   kills it when it runs longer (TS_EINTERRUPTED on Ctrl+C, which kills it too). *exit_code gets
   its exit status. The child inherits no handle of ours but its output pipe. */
int plat_proc_run(const char *const argv[], const plat_cancel *cancel, char *output,
                  size_t capacity, size_t *output_length, uint64_t timeout_ns, int *exit_code,
                  ts_err *err);
/* plat_proc_run for a benchmark program: normal priority and out of power throttling. Windows:
   created suspended with NORMAL_PRIORITY_CLASS, opted out (SetProcessInformation,
   ProcessPowerThrottling) before it runs; Linux: started from this thread made a benchmark
   thread (plat_bench_thread_begin), whose nice 0 and SCHED_OTHER it inherits. `state` gets what
   became of the opt-out, as plat_bench_thread_begin says it. */
int plat_proc_run_as_benchmark(const char *const argv[], const plat_cancel *cancel, char *output,
                               size_t capacity, size_t *output_length, uint64_t timeout_ns,
                               int *exit_code, char *state, size_t state_len, ts_err *err);
/* Finds a program by name in PATH (Windows: also with .exe); fills `path` and returns TS_OK, or
   TS_EINVAL when there is none. A name with a folder in it is only checked for existence. */
int plat_find_program(const char *name, char *path, size_t len, ts_err *err);

/* ---- freezing another program (freeze.c) ------------------------------------------------------
 */

/* How a program was frozen. */
typedef enum plat_freeze_how {
  PLAT_FREEZE_CGROUP,       /* Linux: the cgroup v2 freezer of its own systemd unit or scope */
  PLAT_FREEZE_SIGNAL_GROUP, /* POSIX: SIGSTOP to the process group it leads */
  PLAT_FREEZE_SIGNAL,       /* POSIX: SIGSTOP to the process alone */
  PLAT_FREEZE_SUSPEND,      /* Windows: every thread suspended (NtSuspendProcess) */
} plat_freeze_how;

/* Freezes process `pid`: its threads stop running until plat_process_thaw. TS_EDENIED when the OS
   refuses, TS_EINVAL when there is no such process. */
int plat_process_freeze(long pid, plat_freeze_how *how, ts_err *err);
/* Thaws it, whichever way it was frozen (the pid is all it needs); harmless on a running one. */
int plat_process_thaw(long pid, ts_err *err);
/* Whether process `pid` runs as the user `who` is (plat_ipc_peer: POSIX its uid, Windows its
   user SID), or with `who` NULL as this process's user (one we may not read is not). */
struct plat_peer; /* ipc.c's, below */
int plat_process_owned_by(long pid, const struct plat_peer *who, int *same, ts_err *err);
/* Whether this process may freeze any user's programs: root; Windows an elevated token. */
int plat_self_privileged(void);
/* Waits until `pid`, the process that started this one, has ended (1), or `timeout_ns` has
   passed (0). */
int plat_owner_wait_gone(long pid, uint64_t timeout_ns);

/* ---- local connections (ipc.c): a Unix socket or a named pipe, one stream per client --------- */

typedef struct plat_ipc_server plat_ipc_server;
typedef struct plat_ipc_conn plat_ipc_conn;

/* Who is on the other end, as the OS says. */
#define PLAT_SID_TEXT_MAX 192 /* a SID as text: S-1-, an authority and 15 sub-authorities */

typedef struct plat_peer {
  long pid;             /* -1 when unknown */
  long uid;             /* POSIX user id; -1 on Windows */
  int privileged;       /* may change things: POSIX root or a member of group "threadsoup"; Windows
                           SYSTEM, an elevated administrator or a member of "ThreadSoup Users" (read
                           from the client's impersonated token; peer_rights.h decides) */
  char name[64];        /* user name, for logs and refusals */
  long gid;             /* POSIX group id; -1 on Windows */
  int may_run_programs; /* may make the service run programs (command benchmarks, tool paths):
                           POSIX uid 0 only; Windows LocalSystem or an elevated administrator */
  long session;         /* Windows: the client's session (its token's TokenSessionId); -1 when
                           unknown, and on POSIX, which has no such sessions */
  int admin_not_elevated; /* Windows: an administrator whose token is not elevated (UAC's
                             filtered token): refusals say so; 0 on POSIX */
  int sign_in_again;      /* Windows: listed in "ThreadSoup Users" but signed in before being
                             added (the token lacks the group): refusals say to sign out and in
                             once; 0 on POSIX */
  char user_sid[PLAT_SID_TEXT_MAX]; /* Windows: the client's user SID as text ("S-1-5-21-..."),
                                       whose programs are its own; "" on POSIX (uid says it) */
} plat_peer;

/* Windows: the session attached to the physical console, the one a user sits at
   (WTSGetActiveConsoleSessionId); -1 when none is attached, and on POSIX. */
long plat_console_session(void);

/* The address a service listens on by default: "/run/threadsoup/control.sock",
   "\\.\pipe\threadsoup". */
const char *plat_ipc_default_address(void);
/* Listens on `address`. POSIX: a Unix socket, mode 0660, group "threadsoup" when it exists; a
   stale socket file is replaced, a live one refused. Windows: a named pipe, first instance only,
   remote clients rejected, a DACL granting SYSTEM and Administrators full access and
   authenticated users read and write data but not create instances. */
int plat_ipc_listen(plat_ipc_server **out, const char *address, ts_err *err);
/* Waits for the next client. TS_EINTERRUPTED once plat_ipc_server_close was called. */
int plat_ipc_accept(plat_ipc_server *server, plat_ipc_conn **out, ts_err *err);
/* Stops listening and wakes a blocked plat_ipc_accept; call plat_ipc_server_free after the
   accepting thread has returned. */
void plat_ipc_server_close(plat_ipc_server *server);
void plat_ipc_server_free(plat_ipc_server *server);
/* Connects to a server; TS_EUNSUPPORTED with "is ThreadSoup's service running?" when nothing
   listens there; TS_EDENIED, before anything is sent, when the server is not ThreadSoup's
   service's account (server_check.h: LocalSystem or an elevated administrator; root, or this
   user at a --socket address). */
int plat_ipc_connect(plat_ipc_conn **out, const char *address, ts_err *err);
/* Sends all of buf. */
int plat_ipc_send(plat_ipc_conn *conn, const void *buf, size_t len, ts_err *err);
/* Receives what is there (blocking until something is); *got = 0 at the end of the stream. */
int plat_ipc_recv(plat_ipc_conn *conn, void *buf, size_t capacity, size_t *got, ts_err *err);
/* Identifies the client of a server-side connection. */
int plat_ipc_peer(plat_ipc_conn *conn, plat_peer *out, ts_err *err);
/* The one rule for "this peer may make the service run programs", from what plat_ipc_peer read:
   POSIX uid 0; Windows LocalSystem or an elevated member of Administrators. */
int plat_peer_may_run_programs(const plat_peer *peer);
/* Ends the connection for both sides and wakes a plat_ipc_recv blocked in another thread. */
void plat_ipc_shutdown(plat_ipc_conn *conn);
void plat_ipc_close(plat_ipc_conn *conn);

/* ---- the program's arguments and console (console.c) ----------------------------------------- */

/* Replaces argc and argv by the program's arguments in UTF-8 (Windows: from the UTF-16 command
   line, as the C library's argv is in the ANSI code page; POSIX: unchanged). On failure (no
   memory) they stay as they were. */
void plat_args_utf8(int *argc, char ***argv);
/* Makes the console show UTF-8 output (±, −, …) until the program exits (Windows: the console's
   output code page, put back at exit; POSIX: nothing to do). */
void plat_console_utf8(void);

/* ---- files and folders (fs.c) ---------------------------------------------------------------- */

#define PLAT_PATH_MAX 1024

/* Opens the file `path` (UTF-8) as fopen does with `mode`; Windows: _wfopen on its UTF-16 form,
   so names outside the ANSI code page open too. NULL with errno set when it cannot. */
FILE *plat_fopen(const char *path, const char *mode);

/* The per-user data folder of a foreground run: $XDG_DATA_HOME/threadsoup or
   ~/.local/share/threadsoup on POSIX, %LOCALAPPDATA%\ThreadSoup on Windows. */
int plat_user_data_dir(char *buf, size_t len, ts_err *err);
/* Creates the folder and its missing parents. */
int plat_mkdir_p(const char *path, ts_err *err);
/* The folder part of a path ("" when there is none). */
void plat_path_dirname(const char *path, char *buf, size_t len);
char plat_path_separator(void);
/* The folder of the running program, where its sibling programs (threadsoup-idle) are. */
int plat_program_dir(char *buf, size_t len, ts_err *err);
/* "threadsoup-idle" or "threadsoup-idle.exe": a program name as this OS spells it. */
void plat_program_name(const char *base, char *buf, size_t len);
int plat_file_exists(const char *path);
/* Whether the OS says `path` exists: TS_OK with *exists 1 or 0 (not there, nor a folder on its
   way), or TS_EOS naming the path and the OS's reason when it cannot tell (permission denied on
   a folder on the way: then the path may well exist). */
int plat_path_exists(const char *path, int *exists, ts_err *err);
/* Whether `path` is a folder. */
int plat_is_folder(const char *path);
/* Moves the file `from` to `to` in the same folder, never replacing a file already at `to`:
   TS_EINVAL naming it when there is one (the caller decides what then), TS_EOS otherwise. */
int plat_rename_new(const char *from, const char *to, ts_err *err);
/* Calls fn with the name of each file of `folder` (not "." and ".."; sub-folders included), in no
   particular order; fn returning non-zero stops early. */
int plat_list_folder(const char *folder, int (*fn)(void *ctx, const char *name), void *ctx,
                     ts_err *err);
/* A folder opened once, its files then named relative to it: files in a folder another user can
   write to (an export folder, a collector's share) are opened so that nothing they planted there
   is followed or blocks. Each refusal is TS_EINVAL naming the path and what it is. */
typedef struct plat_folder plat_folder;
/* Opens the folder `path` ("" for the current one), refusing one that is a symbolic link (POSIX)
   or a reparse point (Windows); TS_EOS when it cannot be opened. */
int plat_folder_open(const char *path, plat_folder **out, ts_err *err);
void plat_folder_close(plat_folder *d);
/* Creates a file that did not exist in d, named `prefix` and random hex and ".tmp" (its name in
   name), open for writing; readable by its owner and group only (POSIX 0640). */
int plat_folder_create_temp(plat_folder *d, const char *prefix, char *name, size_t len, FILE **out,
                            ts_err *err);
/* Opens `name` in d for reading only when it is a regular file: never a symbolic link (followed
   nowhere), a FIFO or named pipe (never waited on), a device, a socket or a folder. */
int plat_folder_open_regular(plat_folder *d, const char *name, FILE **out, ts_err *err);
/* Moves `from` to `to` in d, never replacing anything at `to` (a file, a link, a FIFO): TS_EINVAL
   naming it when something is there. */
int plat_folder_rename_new(plat_folder *d, const char *from, const char *to, ts_err *err);
/* Removes the entry `name` of d (a link itself, never what it points at); quiet when absent. */
void plat_folder_remove(plat_folder *d, const char *name);
/* d's path and name joined, for messages. */
void plat_folder_path(const plat_folder *d, const char *name, char *buf, size_t len);
/* As plat_folder_open_regular, for a path whose last part is the file. */
int plat_open_regular(const char *path, FILE **out, ts_err *err);
/* A temporary file of this user's own, open for reading and writing, gone when closed. Not C's
   tmpfile(): Windows' C runtime creates that in the drive's root folder, which only
   administrators may write to, so it fails for a user whose rights are not elevated. */
int plat_temp_file(FILE **out, ts_err *err);
/* Whether only administrators (and the service's own account) can write to `folder`: POSIX owned
   by root (or us) and not writable by group or others; Windows no write or change right granted
   to any SID but SYSTEM, Administrators, TrustedInstaller, CREATOR OWNER and the current user.
   *reason says what is wrong when it is not. */
int plat_folder_is_admin_only(const char *folder, int *admin_only, char *reason, size_t len,
                              ts_err *err);
/* Whether someone else could replace `folder` or what is written into it: the folder or one of
   its ancestors is, on POSIX, writable by group or others without the sticky bit, or owned by a
   user other than root and this process's; on Windows owned by, or granting the rights to delete
   or replace what it holds (delete a child, delete the folder, change its access list or owner)
   to, anyone but SYSTEM, Administrators, TrustedInstaller, CREATOR OWNER and the current user.
   *exposed is 1 and reason names the first such folder and why; a folder that does not exist is
   judged by its nearest existing ancestor. */
int plat_folder_tree_exposed(const char *folder, int *exposed, char *reason, size_t len,
                             ts_err *err);
/* Whether `path` (a file or a folder; one that does not exist passes) may hold this program's
   data: not a symbolic link or other reparse point, owned by root (Windows: SYSTEM or
   Administrators) or by this process's own user, and on POSIX not writable by everyone nor by a
   group other than ours (a sticky folder such as /tmp excepted). TS_EDENIED naming the file and
   its owner otherwise. */
int plat_check_own_file(const char *path, ts_err *err);
/* An exclusive claim held while the process lives: the service's claim on its database, so that
   two services never serve one database (both would fire its boot schedules and resume its
   runs). The lock file at `path` is created if missing (a plain file: a link is refused), and
   its lock is the OS's (flock; LockFileEx), released when the process ends, even by kill -9.
   TS_EBUSY when another process holds it, naming its pid as the file says. */
typedef struct plat_claim plat_claim;
int plat_claim_take(const char *path, plat_claim **out, ts_err *err);
void plat_claim_release(plat_claim *c);
/* Whether the -wal, -shm and -journal files beside the database at `path` may be inspected
   (plat_check_own_file) now. POSIX: always. Windows: only while the database does not exist yet,
   against files planted ahead of the first start: a handle on a journal that another connection is
   deleting keeps its name taken (delete pending) and fails that connection; after the first start
   the folder's own protected access list keeps others from creating files in it. */
int plat_database_sidecars_inspectable(const char *path);
/* Creates the service's data folder and its parents. Windows: with the one protected access list
   FOLDER_ACL_SERVICE_DATA (SYSTEM and Administrators full control, Users read, nothing inherited
   from ProgramData); an existing folder is left alone when it has that list, given it again when
   its list differs, and moved aside (renamed with ".untrusted-TIME") and made anew when someone
   else owns it or it is a link: a standard user may have made it before the install. note says
   where it was moved ("" when it was not). POSIX: mode 0755. */
int plat_mkdir_service_data(const char *path, char *note, size_t note_len, ts_err *err);
/* Whether the folder of programs the service starts (as LocalSystem, root) is safe: nobody but
   the system and administrators may change them. Windows: its owner and every entry that lets
   write, append, create or delete files or change the access list, on the folder or inherited by
   its files, are SYSTEM, Administrators, TrustedInstaller or CREATOR OWNER (folder_acl.c);
   POSIX: plat_folder_is_admin_only's rule. *safe is 0 and reason names who may and how when
   not. */
int plat_program_folder_safe(const char *folder, int *safe, char *reason, size_t len, ts_err *err);
/* The service's data folder: %ProgramData%\ThreadSoup, /var/lib/threadsoup. */
int plat_service_data_dir(char *buf, size_t len, ts_err *err);
/* Reads an environment variable (UTF-8); NULL when unset or empty. */
const char *plat_getenv(const char *name, char *buf, size_t len);

/* ---- the machine (sysinfo.c) ---- */

typedef struct plat_sysinfo {
  char host[128];
  char os[128];  /* "Linux 6.1.0-…", "Windows 11 23H2 (10.0.22631)" */
  char cpu[128]; /* model name */
  int logical_cpus;
  uint64_t memory_bytes; /* physical memory; 0 when the OS does not say */
  /* 32 hex digits naming the machine to ThreadSoup alone: HMAC-SHA-256 of the OS's machine id
     (/etc/machine-id; HKLM\SOFTWARE\Microsoft\Cryptography MachineGuid) under ThreadSoup's own
     key, as systemd asks of applications, so exported files never carry the OS's id. Survives
     renaming the host; "" when the OS has no id. */
  char machine_id[40];
} plat_sysinfo;

void plat_sysinfo_read(plat_sysinfo *out);

/* ---- Windows answers read portably (windows_facts.c) -------------------------------------------
 */

/* RtlGetVersion's numbers and product type, and the registry's DisplayVersion ("23H2"; "" when
   the release has none). */
typedef struct plat_windows_version {
  unsigned long major, minor, build;
  int workstation; /* VER_NT_WORKSTATION: not a server */
  char display_version[32];
} plat_windows_version;
/* "Windows 11 23H2 (10.0.22631)", "Windows 10 22H2 (10.0.19045)", "Windows Server 24H2
   (10.0.26100)": Windows 11 is 10.0 with a build from 22000. */
void plat_windows_name(const plat_windows_version *v, char *buf, size_t len);
/* Whether a move refused with the Win32 error `win32_error` after `tries` tries is tried again:
   the milliseconds to wait first, or -1 to give up. Access denied and sharing violations (an
   antivirus, the indexer or a sync client holding the new file for a moment) are retried, 8 tries
   over about 2 s in all; anything else ("exists") fails at once. */
int plat_rename_retry_wait_ms(unsigned long win32_error, int tries);
/* Whether the full path `path` is the folder `root` or inside it: ASCII letters compared without
   case, '/' and '\\' alike (Windows paths). */
int plat_path_is_under(const char *path, const char *root);
/* Whether a file's attributes and reparse tag (Windows) make it a cloud files placeholder, one a
   sync client (OneDrive) fetches and replaces. */
int plat_cloud_file(unsigned long attributes, unsigned long reparse_tag);
/* The machine_id above from the OS's id text (surrounding white space and case ignored); ""
   when os_id is empty. Shared by both halves (machine_id.c). */
void plat_machine_id_derive(const char *os_id, char *out, size_t len);
/* 1 on mains power (or no battery at all), 0 on battery, -1 when the OS does not say. */
int plat_power_on_ac(void);

/* ---- quiet mode (quiet.c): Defender real-time protection and the Windows Update pause ------- */

/* What the update stack itself says about the pause, apart from the values quiet mode writes
   (docs/user-guide.md, "How a pause is confirmed"). Every field is -1 (or 0 for times) where the
   value is absent: the update service writes them on its own schedule, or not at all. */
typedef struct plat_update_signal {
  /* HKLM\SOFTWARE\Microsoft\WindowsUpdate\UpdatePolicy\Settings Paused{Quality,Feature}Status,
     REG_DWORD written by the update service: 0 not paused, 1 paused, 2 resumed by itself. */
  int quality_status, feature_status;
  /* ...\UpdatePolicy\PolicyState {Quality,Feature}UpdatesPaused (REG_DWORD) and
     Pause{Quality,Feature}UpdatesEndTime (REG_SZ, Unix s here; 0 absent): the pause the update
     stack took into its effective policy. */
  int quality_paused, feature_paused;
  int64_t quality_end, feature_end;
  /* Policy that overrides a user's pause, from Group Policy
     (HKLM\SOFTWARE\Policies\Microsoft\Windows\WindowsUpdate) or MDM
     (HKLM\SOFTWARE\Microsoft\PolicyManager\current\device\Update): 1 set, 0 not. */
  int pause_ux_disabled;  /* SetDisablePauseUXAccess = 1: users may not pause */
  int wu_ux_disabled;     /* SetDisableUXWUAccess = 1: no Windows Update features for users */
  int wsus;               /* AU\UseWUServer = 1: an update server (WSUS) manages this machine */
  char policy_where[160]; /* where the first of those was found, e.g. "Group Policy" */
} plat_update_signal;

/* Who protects this PC, read in one probe (one PowerShell: Get-MpComputerStatus and Security
   Center's root\SecurityCenter2 AntiVirusProduct), before quiet mode asks Defender anything.
   Set-MpPreference changes nothing while Tamper Protection is on (the default since Windows 10
   1903), and Defender in passive mode (another antivirus is the PC's) has no real-time protection
   of its own to turn off. */
typedef struct plat_defender_facts {
  int realtime_on; /* RealTimeProtectionEnabled: 1, 0, -1 unknown */
  int tamper;      /* IsTamperProtected (else the TamperProtection registry value): 1, 0, -1 */
  char running_mode[40]; /* AMRunningMode: "Normal", "Passive Mode", "SxS Passive Mode", "EDR Block
                            Mode"; "Not running" when Defender's service does not answer; "" not
                            said (a Defender platform older than the field) */
  char antivirus[200];   /* the enabled antivirus products Security Center lists other than
                            Defender, comma-separated ("" none, or Security Center is absent) */
  char error[200];       /* what Get-MpComputerStatus said when it failed, or "" */
} plat_defender_facts;

/* Reads the answer of the facts probe: lines "realtime=True", "tamper=False", "mode=Normal",
   "error=TEXT" and one "av=NAME|PRODUCTSTATE" per Security Center product (PRODUCTSTATE's bits
   0x1000 say enabled). Unknown lines are ignored; a field not answered stays unknown. Portable,
   so recorded answers are tested everywhere. */
void plat_defender_facts_parse(const char *output, plat_defender_facts *out);

/* What quiet mode changes, behind a table of functions so that its logic (service/src/quiet) is
   tested with a fake machine: Wine has neither Defender nor Windows Update. Each function returns
   TS_OK or a code with a sentence in err; TS_EUNSUPPORTED where the part does not exist. */
typedef struct plat_quiet_ops {
  /* Whether Defender's real-time protection is on now (1) or off (0). */
  int (*defender_get)(int *realtime_on, ts_err *err);
  /* Asks Defender to turn real-time protection on or off. Success means the request was taken,
     not that it worked: Tamper Protection ignores it silently, so callers read the state back. */
  int (*defender_set)(int realtime_on, ts_err *err);
  /* The stored end of the Windows Update pause, in Unix seconds; 0 when no pause is stored. A
     time in the past is returned as stored (the pause has ended by itself). */
  int (*update_get)(int64_t *paused_until_unix, ts_err *err);
  /* Pauses Windows Update until `paused_until_unix`, as the Settings app does; 0 removes the
     pause (updates resume). */
  int (*update_set)(int64_t paused_until_unix, ts_err *err);
  /* NULL when both parts are there; otherwise a sentence saying what is missing and why. */
  const char *(*unavailable_reason)(void);
  /* The update stack's own view of the pause and the policy over it (may be NULL: no second
     signal on this machine). Reads only; absent values are -1/0 in out, not errors. */
  int (*update_signal)(plat_update_signal *out, ts_err *err);
  /* Who protects this PC (may be NULL: then Defender is taken as the PC's antivirus and Tamper
     Protection as unknown). TS_EUNSUPPORTED where there is no Defender to ask. */
  int (*defender_facts)(plat_defender_facts *out, ts_err *err);
} plat_quiet_ops;

/* The real machine's functions: PowerShell's Defender cmdlets and the registry values of the
   Windows Update pause on Windows; on POSIX every function fails with TS_EUNSUPPORTED. */
const plat_quiet_ops *plat_quiet_system(void);

/* ---- timer resolution (time.c) ------------------------------------------------------------- */

/* How precisely a sleeper's timer is asked to fire.
   default: the OS's plain sleep as it comes. Windows SleepEx, which since Windows 10 2004 ticks at
     the default system resolution (15.625 ms) unless this process itself asks for more; Linux
     nanosleep with the thread's timer slack as inherited (the kernel's default: 50 us).
   high: as modern runtimes sleep. Windows: a waitable timer made with
     CREATE_WAITABLE_TIMER_HIGH_RESOLUTION (Windows 10 1803 and later), waited on alertably;
     Linux: the same nanosleep with the sleeping thread's timer slack set to 1 ns. */
typedef enum plat_resolution { PLAT_RESOLUTION_DEFAULT, PLAT_RESOLUTION_HIGH } plat_resolution;

/* "default" or "high". */
const char *plat_resolution_name(plat_resolution r);

/* One sleeping thread's timer. */
typedef struct plat_sleeper {
  plat_resolution asked;
  plat_resolution obtained; /* high only once the OS gave it (init, and enter on POSIX) */
  void *timer;              /* Windows: the high-resolution waitable timer; NULL otherwise */
} plat_sleeper;

/* Prepares a sleeper, on any thread. When `want` is high and the OS has no high-resolution timer
   (Windows before 10 1803 refuses the flag with ERROR_INVALID_PARAMETER), the sleeper stays a
   default one (obtained says so) and TS_EUNSUPPORTED says why; other failures (no handles left)
   are TS_EOS and leave nothing to free. */
int plat_sleeper_init(plat_sleeper *s, plat_resolution want, ts_err *err);
/* Once on the sleeping thread, before its first sleep; includes plat_sleep_wakeable_enable.
   POSIX high: sets the thread's timer slack to 1 ns (TS_EOS, and obtained default, if refused). */
int plat_sleeper_enter(plat_sleeper *s, ts_err *err);
/* Wakeable sleeps through the sleeper's timer, as plat_sleep_ns_wakeable and
   plat_sleep_until_ns_wakeable: 1 when plat_thread_wake ended them, 0 after the whole sleep. */
int plat_sleeper_sleep_ns(plat_sleeper *s, uint64_t ns);
int plat_sleeper_sleep_until_ns(plat_sleeper *s, uint64_t deadline_ns);
void plat_sleeper_free(plat_sleeper *s);

/* The OS's timer resolution, as the calling thread sees it. Values not known are -1. */
typedef struct plat_timer_info {
  /* The one number to record: Windows, the system's current timer resolution
     (NtQueryTimerResolution; since Windows 10 2004 a process that did not ask for more is not
     promised better than the default); Linux, the larger of clock_getres(CLOCK_MONOTONIC) and
     the calling thread's timer slack (how late the kernel may let a timer fire on purpose). */
  double current_us;
  double finest_us;   /* Windows: the finest the machine allows; Linux: clock_getres */
  double coarsest_us; /* Windows: the coarsest (the default tick); Linux: -1 */
  double slack_us;    /* Linux: the calling thread's timer slack; Windows: -1 */
  char source[96];    /* where the numbers come from */
} plat_timer_info;

/* Fills *out; TS_EUNSUPPORTED (and current_us -1) when the OS does not say. */
int plat_timer_resolution(plat_timer_info *out, ts_err *err);

/* ---- benchmark placement: power throttling, priority, power source, core classes ----------
   Windows 11 runs a background service's threads under EcoQoS (power throttling) on hybrid CPUs,
   which can put a benchmark on efficiency cores at low clocks. Benchmark threads and commands opt
   out, and each trial records what the OS said (shared/src/plat/cores.c holds the pure parts). */
#define PLAT_BENCH_TEXT_MAX 128
#define PLAT_MAX_CPUS 2048 /* Windows' limit of logical processors (32 groups of 64) */

/* The power source now: "ac", "battery", "ac (no battery)" (mains, and the OS knows of no
   battery: a desktop, a server, a VM) or "unknown". A static string; never fails. */
const char *plat_power_source(void);
/* Windows' SYSTEM_POWER_STATUS fields (ACLineStatus 0 offline, 1 online, 255 unknown;
   BatteryFlag 128 no system battery) as plat_power_source names them. */
const char *plat_power_source_from_status(int ac_line_status, int battery_flag);

/* Makes the calling thread a benchmark thread: normal priority (Linux: nice 0, SCHED_OTHER) and,
   on Windows, out of power throttling (ThreadPowerThrottling, EXECUTION_SPEED control, state 0).
   `state` gets what became of the opt-out: "off" (throttling turned off), "unsupported" (this
   Windows has no SetThreadInformation), "n/a" (Linux has no such per-thread switch), or why it
   failed; a priority that could not be set is appended ("; ..."). */
void plat_bench_thread_begin(char *state, size_t len);
/* Spreads benchmark thread `index` over the processor groups (Windows with more than 64 logical
   CPUs: thread i goes to the group holding logical CPU i mod total); nothing elsewhere. */
void plat_bench_thread_spread(long index);
/* The group that holds logical CPU (index mod the total) when group g has group_sizes[g]
   CPUs; -1 for an empty layout. Pure: the arithmetic of plat_bench_thread_spread. */
int plat_group_for_thread(const int *group_sizes, int groups, long index);
/* The logical CPU the calling thread runs on now, numbered across all processor groups
   (group g's CPUs follow those of groups 0..g-1), or -1 when the OS does not say. */
int plat_current_cpu(void);

/* The efficiency class of each logical CPU. Higher is faster: Windows' EfficiencyClass (0 on
   machines whose cores are all alike); Linux: cpu_atom 0, cpu_core 1, or capacities ranked. */
#define PLAT_CPU_ABSENT 255 /* cpu_class of a number no CPU has (offline, not in any group) */
typedef struct plat_core_layout {
  int cpus;      /* CPUs are numbered below this; 0 when the OS tells nothing */
  int max_class; /* the highest class present; 0 on a uniform machine */
  int groups;    /* processor groups (Windows); 1 elsewhere */
  unsigned char cpu_class[PLAT_MAX_CPUS]; /* PLAT_CPU_ABSENT for a number without a CPU */
} plat_core_layout;

/* Reads this machine's layout (Windows: GetSystemCpuSetInformation; Linux: sysfs). */
void plat_core_layout_read(plat_core_layout *out);
/* Parses GetSystemCpuSetInformation's buffer (variable-size SYSTEM_CPU_SET_INFORMATION records,
   read by byte offsets so the recorded layouts test on both halves). TS_EINVAL on a malformed
   buffer. */
int plat_core_layout_from_cpu_sets(const void *buffer, size_t length, plat_core_layout *out,
                                   ts_err *err);
/* The machine in a few words: "uniform, 16 CPUs", "hybrid, class1 8 CPUs, class0 8 CPUs", or
   "unknown" when the OS tells nothing. */
void plat_core_layout_summary(const plat_core_layout *layout, char *buf, size_t len);
/* Where benchmark threads ran (`cpus`, from plat_current_cpu; -1 entries are unknown):
   "uniform" on a uniform machine, "class1:4,class0:0" (threads per class, fastest first) on a
   hybrid one, "unknown" when the layout or every CPU is unknown. */
void plat_core_classes_of(const plat_core_layout *layout, const int *cpus, int count, char *buf,
                          size_t len);
/* Whether this process can opt a thread out of power throttling: 1 yes, 0 no; `why` says what
   the OS answered. Runs the opt-out on a short-lived thread of its own. For `threadsoup doctor`. */
int plat_power_throttling_opt_out_self_test(char *why, size_t len);

/* ---- staying awake and time asleep (awake.c) -------------------------------------------------
   CPU activity does not keep a PC awake: Windows sleeps after the power plan's idle timeout
   unless a program holds a power request, and a laptop's logind suspends on its own idle action
   unless an inhibitor lock blocks it. A run or a load holds one while it is active; a trial that
   spans a suspend anyway is measured again. */

typedef struct plat_stay_awake plat_stay_awake;

/* Asks the OS not to sleep while the returned hold lives (the display may still turn off).
   Windows: a system-required power request (PowerCreateRequest, PowerSetRequest with
   PowerRequestSystemRequired; `why` is the reason powercfg /requests shows). Linux: a
   systemd-logind "sleep:idle" block inhibitor held by a `systemd-inhibit` child whose command
   reads a lifeline pipe, so the lock ends with this process however it ends. `state` gets "held"
   or "n/a: " and why (no logind, the request refused); NULL then, and the caller carries on. */
plat_stay_awake *plat_stay_awake_begin(const char *why, char *state, size_t len);
/* Releases the hold (NULL: nothing to do). Linux waits for the inhibitor to end. */
void plat_stay_awake_end(plat_stay_awake *hold);
/* The process that holds the Linux inhibitor lock (-1 on Windows, or without one): for tests. */
long plat_stay_awake_pid(const plat_stay_awake *hold);

/* How long this machine has been suspended or hibernated since it started, in nanoseconds:
   Linux CLOCK_BOOTTIME less CLOCK_MONOTONIC; Windows the interrupt time less the unbiased
   interrupt time (QueryInterruptTime, QueryUnbiasedInterruptTime). It only grows, by the time
   asleep; two readings around a piece of work say whether it spanned a suspend. */
uint64_t plat_suspended_ns(void);

/* ---- waking for a schedule (wake.c) ----------------------------------------------------------
   A sleeping machine runs no scheduler: a wake timer armed for the next schedule's due time
   wakes it, where the OS, the power plan and the hardware allow. */

typedef struct plat_wake_timer plat_wake_timer;

/* A timer that wakes the machine from sleep at the wall-clock time it is armed for. Windows: a
   waitable timer (CreateWaitableTimerExW) set with fResume; Linux: a timerfd on
   CLOCK_REALTIME_ALARM, which needs root or CAP_WAKE_ALARM. NULL when this process may not have
   one, with `state` "n/a: " and why (the knob refuse-wake-timer refuses it as Linux refuses a
   process without CAP_WAKE_ALARM); else `state` is "ready". */
plat_wake_timer *plat_wake_timer_open(char *state, size_t len);
/* Arms it for `due_unix` (seconds since 1970, UTC), replacing the time armed before. TS_OK;
   TS_EUNSUPPORTED when the timer is armed but the machine says it cannot wake by timer (Windows:
   SetWaitableTimer's ERROR_NOT_SUPPORTED); another error when the OS refused. */
int plat_wake_timer_arm(plat_wake_timer *t, int64_t due_unix, ts_err *err);
/* Disarms it (NULL: nothing to do). */
void plat_wake_timer_cancel(plat_wake_timer *t);
/* Disarms and frees it (NULL: nothing to do). */
void plat_wake_timer_close(plat_wake_timer *t);
/* The due time the OS holds (Linux: read back with timerfd_gettime; Windows: the one last
   armed, which the OS does not give back), 0 when disarmed or already passed. */
int64_t plat_wake_timer_due(const plat_wake_timer *t);
/* Waits up to `timeout_ns` for the armed time to pass; 1 when the timer fired. */
int plat_wake_timer_wait(plat_wake_timer *t, uint64_t timeout_ns);

#ifndef _WIN32
/* The same, from a sysfs tree at `sysfs_root` ("/sys" on a real machine; a fake tree in tests):
   power_supply entries under class/power_supply, cpu_core/cpu_atom under devices, and
   devices/system/cpu/cpuN/cpu_capacity. */
const char *plat_power_source_at(const char *sysfs_root);
void plat_core_layout_read_at(const char *sysfs_root, plat_core_layout *out);
#endif

#endif
