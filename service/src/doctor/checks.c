/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* checks.c - the doctor's checks: one function and one table line each. A check measures, then
   judges with a doctor_judge_* function that tests call with numbers of their own. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "../quiet/quiet.h"
#include "threadsoup/units.h"

/* The service's own threads beside its load (connections, runner, scheduler), with room. */
#define DOCTOR_SERVICE_TASKS 64
/* Open files the service needs: its sockets, the database and the one lifeline pipe. */
#define DOCTOR_NEED_FILES 256
#define TIMER_SLEEPS 100
#define CHILDREN 10

/* The Wine version when under Wine, else NULL (tests set ctx->wine; "" means not Wine). */
static const char *wine_of(const doctor_context *ctx) {
  const char *wine = ctx->wine ? ctx->wine : plat_wine_version();
  return wine && *wine ? wine : NULL;
}

/* Appends a sentence to a finding's measured text. */
static void add_measured(doctor_finding *out, const char *sentence) {
  size_t n = strlen(out->measured);
  snprintf(out->measured + n, sizeof out->measured - n, "%s", sentence);
}

/* ---- timer resolution: 100 sleeps of 1 ms on a plain thread -------------------------------- */

typedef struct timer_probe {
  double took_ns[TIMER_SLEEPS];
} timer_probe;

static void timer_thread(void *arg) {
  timer_probe *p = arg;
  for (int i = 0; i < TIMER_SLEEPS; i++) {
    uint64_t t0 = plat_clock_ns();
    plat_sleep_ns(TS_NS_PER_MS);
    p->took_ns[i] = (double)(plat_clock_ns() - t0);
  }
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

void doctor_judge_timer(double median_ns, double p90_ns, int sleeps, doctor_finding *out) {
  double median = median_ns / TS_NS_PER_MS, p90 = p90_ns / TS_NS_PER_MS;
  /* A sleeper on a 1 ms (or finer) timer wakes within 2 ms; Windows' default 15.6 ms tick, or a
     Linux timer slack raised by hand, shows as a median of a tick. */
  doctor_set(out, median <= 2.0 ? DOCTOR_OK : DOCTOR_WARN, median,
             median <= 2.0
                 ? ""
                 : "sleepers wake on the system timer's ticks: intervals run long and phases "
                   "spread over an interval fall into interval/tick slots. Results hold for this "
                   "resolution (stored with each trial); compare runs only at the same "
                   "resolution, or give sleep conditions /resolution=high (--resolution high) "
                   "to sleep as modern runtimes do",
             "a 1 ms sleep took %.2f ms (median), %.2f ms (90th percentile) over %d sleeps of a "
             "plain thread",
             median, p90, sleeps);
}

static void check_timer(const doctor_context *ctx, doctor_finding *out) {
  timer_probe *p = calloc(1, sizeof *p);
  plat_thread t;
  ts_err err;
  if (!p || plat_thread_start(&t, 0, timer_thread, p, &err) != TS_OK) {
    doctor_set(out, DOCTOR_FAIL, NAN, "free memory or threads and run the doctor again",
               "cannot start the sleeper thread: %s", p ? err.text : "no memory");
    free(p);
    return;
  }
  plat_thread_join(t);
  qsort(p->took_ns, TIMER_SLEEPS, sizeof p->took_ns[0], by_value);
  doctor_judge_timer(p->took_ns[TIMER_SLEEPS / 2], p->took_ns[TIMER_SLEEPS * 9 / 10], TIMER_SLEEPS,
                     out);
  free(p);
  if (wine_of(ctx))
    add_measured(out, "; Wine sleeps on the host's timers, not on Windows' 15.6 ms tick: a "
                      "Windows PC may show 15.6 ms");
}

/* ---- idle children: 10 started as `load procs` starts them, every new process counted ------ */

void doctor_judge_children(long started, long ours, long hosts, long others, doctor_finding *out) {
  int holds = ours == started && hosts == 0;
  doctor_set(out, holds ? DOCTOR_OK : DOCTOR_FAIL, (double)ours,
             holds   ? ""
             : hosts ? "each idle child got a console host: procs loads and their census count "
                       "twice the processes; use a build that starts children without a console"
                     : "the OS did not show one new process per idle child: the procs "
                       "scenario's counts would be wrong here; report this machine's OS",
             "%ld idle children started: %ld new processes of ours, %ld console hosts "
             "(conhost.exe); %ld other new processes on the machine meanwhile, not ours",
             started, ours, hosts, others);
}

static int listed(const plat_process_census *list, long n, const plat_process_census *p) {
  for (long i = 0; i < n; i++)
    if (list[i].pid == p->pid && strcmp(list[i].name, p->name) == 0)
      return 1;
  return 0;
}

static void check_children(const doctor_context *ctx, doctor_finding *out) {
  (void)ctx;
  char dir[PLAT_PATH_MAX], name[64], program[PLAT_PATH_MAX + 80];
  ts_err err;
  if (plat_program_dir(dir, sizeof dir, &err) != TS_OK) {
    doctor_set(out, DOCTOR_SKIP, NAN, err.text, "the idle child program was not found");
    return;
  }
  plat_program_name("threadsoup-idle", name, sizeof name);
  snprintf(program, sizeof program, "%s%c%s", dir, plat_path_separator(), name);
  if (!plat_file_exists(program)) {
    doctor_set(out, DOCTOR_SKIP, NAN, "install threadsoup-idle beside threadsoup",
               "%s is not there: no idle children to start", program);
    return;
  }
  plat_process_census *before = NULL, *after = NULL;
  long n_before = 0, n_after = 0;
  plat_child_group *group = NULL;
  int rc = plat_census_processes(&before, &n_before, &err);
  if (rc == TS_OK)
    rc = plat_child_group_create(&group, program, &err);
  long started = 0;
  while (rc == TS_OK && started < CHILDREN && (rc = plat_child_group_spawn(group, &err)) == TS_OK)
    started++;
  if (rc == TS_OK) {
    plat_sleep_ns(TS_NS_PER_S); /* a console host comes a moment after its client */
    rc = plat_census_processes(&after, &n_after, &err);
  }
  if (group)
    plat_child_group_destroy(group);
  if (rc != TS_OK) {
    doctor_set(out, DOCTOR_FAIL, NAN, "see the error; `threadsoup load procs --count 10` shows it",
               "could not start and count %d idle children: %s", CHILDREN, err.text);
    free(before);
    free(after);
    return;
  }
  long self = plat_self_pid(), ours = 0, hosts = 0, others = 0;
  for (long i = 0; i < n_after; i++) {
    const plat_process_census *p = &after[i];
    if (listed(before, n_before, p))
      continue;
    int host = strcmp(p->name, "conhost.exe") == 0 || strcmp(p->name, "CONHOST.EXE") == 0;
    int child_of_child = 0;
    for (long j = 0; j < n_after; j++)
      if (after[j].pid == p->parent_pid && after[j].parent_pid == self)
        child_of_child = 1;
    if (host)
      hosts++;
    else if (p->parent_pid == self || child_of_child)
      ours++;
    else
      others++;
  }
  doctor_judge_children(started, ours, hosts, others, out);
  free(before);
  free(after);
}

/* ---- the caller's rights --------------------------------------------------------------------- */

void doctor_judge_rights(const plat_rights *r, doctor_finding *out) {
  if (!r->windows) {
    if (r->root)
      doctor_set(out, DOCTOR_OK, 2, "",
                 "%s runs as root: may control load, experiments, schedules "
                 "and quiet mode, and run command benchmarks",
                 r->user);
    else if (r->group_member)
      doctor_set(out, DOCTOR_OK, 1, "",
                 "%s is in group threadsoup: may start and stop load and experiments of presets "
                 "and stored plans (command benchmarks stay with root)",
                 r->user);
    else
      doctor_set(out, DOCTOR_WARN, 0,
                 r->group_exists ? "join the group (sudo usermod -aG threadsoup USER, then log in "
                                   "again) or run as root"
                                 : "group threadsoup does not exist: `sudo threadsoup service "
                                   "install` creates it; or run as root",
                 "%s is neither root nor in group threadsoup: the service answers status and "
                 "reports only",
                 r->user);
    return;
  }
  if (r->system == 1 || (r->admin_enabled == 1 && r->elevated != 0))
    doctor_set(out, DOCTOR_OK, 2, "",
               "%s is %s: may control everything, command benchmarks included", r->user,
               r->system == 1 ? "LocalSystem" : "an elevated administrator");
  else if (r->users_group_member == 1)
    doctor_set(out, DOCTOR_OK, 1, "",
               "%s is in ThreadSoup Users: may start and stop load and experiments of presets and "
               "stored plans (command benchmarks stay with elevated administrators)",
               r->user);
  else if (r->admin_filtered == 1)
    doctor_set(out, DOCTOR_WARN, 0, "join ThreadSoup Users or run elevated (Run as administrator)",
               "%s is an administrator whose rights are not elevated (UAC): the service refuses "
               "control to this token",
               r->user);
  else
    doctor_set(out, DOCTOR_WARN, 0, "join ThreadSoup Users, or run elevated as an administrator",
               "%s is neither an elevated administrator nor in ThreadSoup Users: the service "
               "answers status and reports only",
               r->user);
}

static void check_rights(const doctor_context *ctx, doctor_finding *out) {
  plat_rights own;
  ts_err err;
  const plat_rights *r = ctx->rights;
  if (!r) {
    if (plat_rights_read(&own, &err) != TS_OK) {
      doctor_set(out, DOCTOR_FAIL, NAN, "run the doctor again as the user who controls the service",
                 "cannot read this process's rights: %s", err.text);
      return;
    }
    r = &own;
  }
  doctor_judge_rights(r, out);
  if (r->windows && wine_of(ctx))
    add_measured(out, "; Wine has no UAC: its user is always an elevated administrator, so the "
                      "case of a default Windows install (rights not elevated) shows only there");
}

/* ---- the service at the control address ------------------------------------------------------ */

static void check_server(const doctor_context *ctx, doctor_finding *out) {
  const char *address = ctx->address ? ctx->address : plat_ipc_default_address();
  if (!ctx->ask_status) {
    doctor_set(out, DOCTOR_SKIP, NAN, "checked by `threadsoup doctor` as a client",
               "not checked from inside a run");
    return;
  }
  char answer[256] = "";
  ts_err err;
  int rc = ctx->ask_status(address, answer, sizeof answer, &err);
  if (rc == TS_OK)
    doctor_set(out, DOCTOR_OK, 1, "", "%s is served by ThreadSoup's service (verified): %s",
               address, answer);
  else if (rc == TS_EUNSUPPORTED)
    doctor_set(out, DOCTOR_WARN, 0,
               "start it: `sudo systemctl start threadsoup` (Linux), `threadsoup service start` "
               "as an administrator (Windows)",
               "no service answers at %s: %s", address, err.text);
  else
    doctor_set(out, DOCTOR_FAIL, 0,
               rc == TS_EDENIED ? "something else holds the service's address: stop that program "
                                  "and start ThreadSoup's service"
                                : "see the error; `threadsoup status` shows the same",
               "%s: %s", address, err.text);
}

/* ---- the data folder and database files ------------------------------------------------------ */

static void check_data(const doctor_context *ctx, doctor_finding *out) {
  char folder[PLAT_PATH_MAX], path[PLAT_PATH_MAX + 64], reason[512];
  ts_err err;
  if (ctx->data_dir)
    snprintf(folder, sizeof folder, "%s", ctx->data_dir);
  else if (plat_service_data_dir(folder, sizeof folder, &err) != TS_OK) {
    doctor_set(out, DOCTOR_SKIP, NAN, err.text, "no service data folder");
    return;
  }
  if (!plat_file_exists(folder)) {
    doctor_set(out, DOCTOR_SKIP, NAN,
               "the service has not run here yet (`threadsoup service install` sets it up)",
               "%s does not exist", folder);
    return;
  }
  static const char *const files[] = {"", "threadsoup.db", "threadsoup.db-wal", "threadsoup.db-shm",
                                      "threadsoup.db-journal"};
  int checked = 0;
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    snprintf(path, sizeof path, "%s%s%s", folder, i ? (char[]){plat_path_separator(), 0} : "",
             files[i]);
    if (i && !plat_file_exists(path))
      continue;
    int admin_only = 0;
    if (plat_check_own_file(path, &err) != TS_OK ||
        plat_folder_is_admin_only(path, &admin_only, reason, sizeof reason, &err) != TS_OK) {
      doctor_set(out, DOCTOR_FAIL, 0, "give it to root (Administrators) and remove others' write",
                 "%s", err.text);
      return;
    }
    if (!admin_only) {
      doctor_set(out, DOCTOR_FAIL, 0,
                 "only administrators and the service may write there: anyone else could change "
                 "stored results; fix the owner and permissions",
                 "%s", reason);
      return;
    }
    checked++;
  }
  doctor_set(out, DOCTOR_OK, checked, "",
             "%s and its %d database file%s: owned and writable only by administrators and the "
             "service",
             folder, checked - 1, checked == 2 ? "" : "s");
}

/* ---- quiet mode: Defender read back, Tamper Protection, the Windows Update pause ------------- */

static void check_quiet(const doctor_context *ctx, doctor_finding *out) {
  const plat_quiet_ops *ops = ctx->quiet_ops ? ctx->quiet_ops : plat_quiet_system();
  const char *wine = wine_of(ctx);
  const char *missing = ops->unavailable_reason ? ops->unavailable_reason() : NULL;
  if (missing) {
    if (wine)
      doctor_set(out, DOCTOR_SKIP, NAN, missing,
                 "not available here: Wine %s has no Defender and no Windows Update", wine);
    else
      doctor_set(out, DOCTOR_SKIP, NAN, missing, "quiet mode is not available here");
    return;
  }
  quiet_machine m;
  quiet_read_machine(ops, &m);
  int tamper = plat_tamper_protection();
  /* The pause as the update stack itself reports it, not only our own values read back. */
  quiet_update_check update;
  quiet_check_update(ops, &update);
  const char *advice = "";
  doctor_status status = DOCTOR_OK;
  if (!m.defender_known || !m.update_known) {
    status = DOCTOR_WARN;
    advice = "quiet mode cannot read back what it changes: run as an administrator; see "
             "`threadsoup quiet status`";
  } else if (tamper == 1) {
    status = DOCTOR_WARN;
    advice = "Tamper Protection keeps Defender on: turn it off in Windows Security (Virus & "
             "threat protection settings) for quiet runs, or accept runs with Defender on (the "
             "report says so)";
  } else if (update.state == QUIET_UPDATE_BLOCKED) {
    status = DOCTOR_WARN;
    advice = "policy (Group Policy or MDM) keeps users from pausing Windows Update: quiet runs "
             "leave updates on (the report says so), or ask the machine's administrator";
  } else if (!update.ok) {
    status = DOCTOR_WARN;
    advice = "Windows Update does not confirm a pause here: quiet runs will say \"written, not "
             "confirmed\"; pause updates in Settings once and run the doctor again";
  }
  doctor_set(out, status, m.defender_known ? m.defender_on : NAN, advice,
             "Defender real-time protection %s (read back)%s%s; Tamper Protection %s; %s",
             m.defender_known ? (m.defender_on ? "on" : "off") : "unknown",
             m.defender_known ? "" : ": ", m.defender_known ? "" : m.defender_error,
             tamper == 1   ? "on"
             : tamper == 0 ? "off"
                           : "unknown",
             update.text);
}

/* ---- where benchmarks run: power throttling, power source, core classes -------------------- */

void doctor_judge_power(int opt_out_works, const char *opt_out_why, const char *source,
                        const char *cores, doctor_finding *out) {
  int battery = strstr(source, "battery") == source;
  doctor_status status = !opt_out_works ? DOCTOR_WARN : battery ? DOCTOR_WARN : DOCTOR_OK;
  doctor_set(out, status, opt_out_works ? 1 : 0,
             !opt_out_works
                 ? "benchmarks may run throttled (EcoQoS) on this machine: compare runs only on "
                   "this machine, on AC power, and read each trial's power_throttling column"
             : battery ? "plug the machine in: on battery the OS lowers clock speeds and the "
                         "scores move with the battery, not with the load"
                       : "",
             "power-throttling opt-out for benchmark threads: %s; power source %s; cores %s",
             opt_out_why, source, cores);
}

static void check_power(const doctor_context *ctx, doctor_finding *out) {
  (void)ctx;
  char why[200];
  int works = plat_power_throttling_opt_out_self_test(why, sizeof why);
  plat_core_layout *layout = malloc(sizeof *layout);
  char cores[160] = "unknown";
  if (layout) {
    plat_core_layout_read(layout);
    plat_core_layout_summary(layout, cores, sizeof cores);
    free(layout);
  }
  doctor_judge_power(works, why, plat_power_source(), cores, out);
  if (wine_of(ctx))
    add_measured(out, "; Wine has no EcoQoS and no hybrid scheduling: only a Windows 11 PC with "
                      "efficiency cores shows whether the opt-out keeps benchmarks off them");
}

/* ---- burn's clock: the thread CPU clock burn spins on, against wall time -------------------- */

#define BURN_SPINS 3
#define BURN_RUN_NS (50 * TS_NS_PER_MS)  /* each spin: 50 ms of the thread running */
#define BURN_CAP_NS (150 * TS_NS_PER_MS) /* ... or 150 ms of wall time on a busy machine */
#define BURN_MIN_RAN_NS (10 * TS_NS_PER_MS)
#define BURN_TOLERANCE 0.10 /* burn:10% costing 9 to 11 % is what calibrate's words assume */
#define BURN_STEADY 0.05    /* spins that disagree by more: the rate moves under the load */

void doctor_judge_burn_clock(const plat_spin_clock *c, doctor_finding *out) {
  if (!c->available) {
    doctor_set(out, DOCTOR_SKIP, NAN, c->why,
               "no thread CPU clock here: burn spins on wall time, and a burner beside another "
               "busy thread takes less than its duty");
    return;
  }
  double ratio[PLAT_SPIN_SAMPLES_MAX], ran = 0, wall = 0;
  int n = 0;
  for (int i = 0; i < c->count && i < PLAT_SPIN_SAMPLES_MAX; i++) {
    const plat_spin_sample *s = &c->samples[i];
    ran += s->ran_ns;
    wall += s->wall_ns;
    /* A spin the thread barely ran through says nothing about the clock. */
    if (s->ran_ns >= BURN_MIN_RAN_NS)
      ratio[n++] = s->thread_ns / s->ran_ns;
  }
  if (n == 0) {
    doctor_set(out, DOCTOR_SKIP, NAN, "run the doctor again when the machine is less busy",
               "the thread ran less than %.0f ms in each of %d spins: too busy to compare "
               "burn's clock (%s) with wall time",
               (double)BURN_MIN_RAN_NS / TS_NS_PER_MS, c->count, c->source);
    return;
  }
  qsort(ratio, (size_t)n, sizeof ratio[0], by_value);
  double lo = ratio[0], hi = ratio[n - 1], median = ratio[n / 2];
  if (n % 2 == 0)
    median = (ratio[n / 2 - 1] + ratio[n / 2]) / 2;
  int steady = hi - lo <= BURN_STEADY;
  int close = lo >= 1 - BURN_TOLERANCE && hi <= 1 + BURN_TOLERANCE;
  char advice[DOCTOR_TEXT_MAX] = "";
  if (!steady)
    snprintf(advice, sizeof advice,
             "burn's clock moved between %.2fx and %.2fx wall time from spin to spin (frequency "
             "scaling, hybrid cores or a virtual machine): burn's expected costs are "
             "approximate here; calibrate's verdicts rest on the measured effects anyway",
             lo, hi);
  else if (!close)
    snprintf(advice, sizeof advice,
             "burn's clock runs at %.2fx wall time here, so burn:DUTY takes about DUTY/%.2f of a "
             "CPU: burn's expected costs are approximate; calibrate's verdicts rest on the "
             "measured effects anyway",
             median, median);
  doctor_set(out, steady && close ? DOCTOR_OK : DOCTOR_WARN, median, advice,
             "burn's clock (%s) advanced %.3fx wall time while the thread ran (median of %d "
             "spins, %.3f to %.3f); the thread ran %.0f ms of the spins' %.0f ms",
             c->source, median, n, lo, hi, ran / TS_NS_PER_MS, wall / TS_NS_PER_MS);
  if (c->base_rate > 0) {
    char rates[160] = "";
    size_t used = 0;
    for (int i = 0; i < c->count && used < sizeof rates - 16; i++)
      used += (size_t)snprintf(rates + used, sizeof rates - used, "%s%.0f", i ? ", " : "",
                               c->samples[i].rate);
    char sentence[256];
    snprintf(sentence, sizeof sentence, "; %s cycles/us against burn's %.0f (measured once)", rates,
             c->base_rate);
    add_measured(out, sentence);
  }
}

static void check_burn_clock(const doctor_context *ctx, doctor_finding *out) {
  plat_spin_clock own;
  const plat_spin_clock *c = ctx->spin_clock;
  if (!c) {
    plat_spin_clock_measure(BURN_SPINS, BURN_RUN_NS, BURN_CAP_NS, &own);
    c = &own;
  }
  doctor_judge_burn_clock(c, out);
  const char *wine = wine_of(ctx);
  if (wine && !c->available) {
    char sentence[160];
    snprintf(sentence, sizeof sentence,
             " (Wine %s has no thread cycle counter; a Windows PC has one)", wine);
    add_measured(out, sentence);
  }
}

/* ---- Linux task and file limits -------------------------------------------------------------- */

/* The limits, or a skip saying why there are none; 0 when out was filled. */
static int limits_of(const doctor_context *ctx, plat_task_limits *own, const plat_task_limits **l,
                     doctor_finding *out) {
  static const char *const names[][2] = {{"pid-max", "kernel.pid_max"},
                                         {"threads-max", "kernel.threads-max"},
                                         {"pids-max", "a cgroup's pids.max (TasksMax)"},
                                         {"open-files", "RLIMIT_NOFILE"},
                                         {"user-tasks", "RLIMIT_NPROC"}};
  const char *what = out->check;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(out->check, names[i][0]) == 0)
      what = names[i][1];
  ts_err err;
  *l = ctx->limits;
  if (*l)
    return 1;
  if (plat_task_limits_read(ctx->root, !ctx->in_run, own, &err) != TS_OK) {
    doctor_set(out, DOCTOR_SKIP, NAN, err.text, "%s: Linux only", what);
    return 0;
  }
  *l = own;
  return 1;
}

static long machine_tasks(const doctor_context *ctx) {
  plat_census m;
  ts_err err;
  if (ctx->machine_tasks >= 0)
    return ctx->machine_tasks;
  return plat_census_machine(&m, &err) == TS_OK ? m.threads : 0;
}

static void judge_machine_limit(const char *what, long limit, long need, long running,
                                const char *raise, doctor_finding *out) {
  if (limit == PLAT_LIMIT_UNKNOWN) {
    doctor_set(out, DOCTOR_SKIP, NAN, "/proc/sys/kernel is not readable here", "%s unknown", what);
    return;
  }
  long want = need + running;
  if (limit == PLAT_LIMIT_NONE || limit >= want)
    doctor_set(out, DOCTOR_OK, (double)limit, "",
               "%s %ld: room for the largest preset's %ld tasks beside the %ld running now", what,
               limit, need, running);
  else
    doctor_set(out, DOCTOR_FAIL, (double)limit, raise,
               "%s %ld: the largest preset needs %ld tasks beside the %ld running now (%ld)", what,
               limit, need, running, want);
}

void doctor_judge_pid_max(const plat_task_limits *l, long need, long running, doctor_finding *out) {
  judge_machine_limit("kernel.pid_max", l->pid_max, need, running,
                      "raise it: sudo sysctl -w kernel.pid_max=4194304, and keep it in "
                      "/etc/sysctl.d/90-threadsoup.conf",
                      out);
}

void doctor_judge_threads_max(const plat_task_limits *l, long need, long running,
                              doctor_finding *out) {
  judge_machine_limit("kernel.threads-max", l->threads_max, need, running,
                      "raise it: sudo sysctl -w kernel.threads-max=1000000, and keep it in "
                      "/etc/sysctl.d/90-threadsoup.conf",
                      out);
}

void doctor_judge_pids_max(const plat_task_limits *l, long need, doctor_finding *out) {
  if (l->pids_max == PLAT_LIMIT_NONE || l->pids_max == PLAT_LIMIT_UNKNOWN)
    doctor_set(out, DOCTOR_OK, NAN, "", "no cgroup task limit (pids.max) over %s", l->whose);
  else if (l->pids_max >= need)
    doctor_set(out, DOCTOR_OK, (double)l->pids_max, "",
               "pids.max %ld at %s, over %s: room for the largest preset's %ld tasks", l->pids_max,
               l->pids_max_at, l->whose, need);
  else
    doctor_set(out, DOCTOR_FAIL, (double)l->pids_max,
               strstr(l->whose, "unit")
                   ? "set TasksMax=infinity in the unit (installer/threadsoup.service has it): "
                     "sudo systemctl edit threadsoup, then restart it"
                   : "run from a cgroup without this limit: for the service, TasksMax=infinity "
                     "in its unit (installer/threadsoup.service has it); for a login, "
                     "UserTasksMax/TasksMax of the user slice",
               "pids.max %ld at %s, over %s: the largest preset needs %ld tasks (systemd's "
               "default TasksMax is 15 %% of pid_max)",
               l->pids_max, l->pids_max_at, l->whose, need);
}

void doctor_judge_open_files(const plat_task_limits *l, doctor_finding *out) {
  if (l->nofile_soft == PLAT_LIMIT_UNKNOWN)
    doctor_set(out, DOCTOR_SKIP, NAN, "/proc/PID/limits is not readable here",
               "open-file limit of %s unknown", l->whose);
  else if (l->nofile_soft == PLAT_LIMIT_NONE || l->nofile_soft >= DOCTOR_NEED_FILES)
    doctor_set(out, DOCTOR_OK, (double)l->nofile_soft, "",
               "open files of %s: %ld (hard %ld); the service needs about %d (all idle "
               "children share one pipe)",
               l->whose, l->nofile_soft, l->nofile_hard, DOCTOR_NEED_FILES);
  else
    doctor_set(out, DOCTOR_WARN, (double)l->nofile_soft,
               "raise it: LimitNOFILE=65536 in the unit, or ulimit -n 65536",
               "open files of %s: %ld (hard %ld), under the %d the service may need", l->whose,
               l->nofile_soft, l->nofile_hard, DOCTOR_NEED_FILES);
}

void doctor_judge_user_tasks(const plat_task_limits *l, long need, doctor_finding *out) {
  if (l->uid == 0)
    doctor_set(out, DOCTOR_OK, NAN, "", "%s runs as root: the per-user task limit does not bind",
               l->whose);
  else if (l->nproc_soft == PLAT_LIMIT_UNKNOWN)
    doctor_set(out, DOCTOR_SKIP, NAN, "/proc/PID/limits is not readable here",
               "per-user task limit of %s unknown", l->whose);
  else if (l->nproc_soft == PLAT_LIMIT_NONE || l->nproc_soft >= need)
    doctor_set(out, DOCTOR_OK, (double)l->nproc_soft, "",
               "per-user task limit of %s (uid %ld): %ld; the largest preset needs %ld", l->whose,
               l->uid, l->nproc_soft, need);
  else
    doctor_set(out, DOCTOR_FAIL, (double)l->nproc_soft,
               "run as root (the service does), or raise it: ulimit -u / LimitNPROC=",
               "per-user task limit of %s (uid %ld): %ld, under the largest preset's %ld tasks",
               l->whose, l->uid, l->nproc_soft, need);
}

static long need_tasks(const doctor_context *ctx) { return ctx->load_tasks + DOCTOR_SERVICE_TASKS; }

static void check_pid_max(const doctor_context *ctx, doctor_finding *out) {
  plat_task_limits own;
  const plat_task_limits *l;
  if (limits_of(ctx, &own, &l, out))
    doctor_judge_pid_max(l, need_tasks(ctx), machine_tasks(ctx), out);
}

static void check_threads_max(const doctor_context *ctx, doctor_finding *out) {
  plat_task_limits own;
  const plat_task_limits *l;
  if (limits_of(ctx, &own, &l, out))
    doctor_judge_threads_max(l, need_tasks(ctx), machine_tasks(ctx), out);
}

static void check_pids_max(const doctor_context *ctx, doctor_finding *out) {
  plat_task_limits own;
  const plat_task_limits *l;
  if (limits_of(ctx, &own, &l, out))
    doctor_judge_pids_max(l, need_tasks(ctx), out);
}

static void check_open_files(const doctor_context *ctx, doctor_finding *out) {
  plat_task_limits own;
  const plat_task_limits *l;
  if (limits_of(ctx, &own, &l, out))
    doctor_judge_open_files(l, out);
}

static void check_user_tasks(const doctor_context *ctx, doctor_finding *out) {
  plat_task_limits own;
  const plat_task_limits *l;
  if (limits_of(ctx, &own, &l, out))
    doctor_judge_user_tasks(l, need_tasks(ctx), out);
}

/* ---- the table ------------------------------------------------------------------------------- */

/* One line per check, in the order they run and print. */
static const doctor_check checks[] = {
    {"timer", "a 1 ms sleep wakes within 2 ms (the timer resolution sleepers get)", DOCTOR_CHEAP,
     check_timer},
    {"children", "each idle child is one process, without a console host", DOCTOR_SLOW,
     check_children},
    {"rights", "this user may control the service", DOCTOR_CHEAP | DOCTOR_CLIENT, check_rights},
    {"server", "the control address is served by ThreadSoup's service",
     DOCTOR_CHEAP | DOCTOR_CLIENT, check_server},
    {"data", "the data folder and database are writable only by administrators and the service",
     DOCTOR_CHEAP | DOCTOR_CLIENT, check_data},
    {"quiet", "quiet mode can read back and change Defender and the Windows Update pause",
     DOCTOR_SLOW, check_quiet},
    {"power", "benchmarks run out of power throttling, on AC power (and where they ran is stored)",
     DOCTOR_CHEAP, check_power},
    {"burn-clock", "burn's CPU-time spin is counted on a clock that keeps pace with wall time",
     DOCTOR_SLOW, check_burn_clock},
    {"pid-max", "kernel.pid_max leaves room for the largest load", DOCTOR_CHEAP, check_pid_max},
    {"threads-max", "kernel.threads-max leaves room for the largest load", DOCTOR_CHEAP,
     check_threads_max},
    {"pids-max", "the service's cgroup (TasksMax) allows the largest load", DOCTOR_CHEAP,
     check_pids_max},
    {"open-files", "the open-file limit leaves room for the service", DOCTOR_CHEAP,
     check_open_files},
    {"user-tasks", "the per-user task limit (RLIMIT_NPROC) allows the largest load", DOCTOR_CHEAP,
     check_user_tasks},
};

size_t doctor_check_count(void) { return sizeof checks / sizeof checks[0]; }

const doctor_check *doctor_check_at(size_t i) {
  return i < doctor_check_count() ? &checks[i] : NULL;
}
