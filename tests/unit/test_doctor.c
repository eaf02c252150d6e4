/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_doctor.c - `threadsoup doctor`'s checks on injected facts: a fake /proc and cgroup tree
   (pid_max 32,768 and systemd's default TasksMax of 4,915 fail the largest preset; raised limits
   pass), recorded tokens, a fake Defender, a server that is not the service; and the verdict. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../shared/src/plat/spin_probe.h"
#include "check.h"
#include "doctor/doctor.h"
#include "plan/plan.h"
#include "report/report.h"
#include "store/store.h"
#include "testdb.h"
#include "threadsoup/plat.h"

static const char *unit_file; /* installer/threadsoup.service */

/* The finding of the check called `name`; NULL when it did not run. */
static doctor_finding *finding(doctor_report *r, const char *name) {
  for (int i = 0; i < r->count; i++)
    if (strcmp(r->findings[i].check, name) == 0)
      return &r->findings[i];
  return NULL;
}

#ifndef _WIN32
/* The cheap checks that are not a client's, on the machine under `root`, 300 tasks running, for a
   load of `load_tasks`. */
static doctor_report *run_cheap(const char *root, long load_tasks) {
  doctor_context ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.root = root;
  ctx.machine_tasks = 300;
  ctx.load_tasks = load_tasks;
  doctor_report *r = malloc(sizeof *r);
  if (r)
    doctor_run(&ctx, DOCTOR_CHEAP, DOCTOR_CLIENT, r);
  return r;
}

static void write_file(const char *root, const char *relative, const char *text) {
  char path[PLAT_PATH_MAX], folder[PLAT_PATH_MAX];
  ts_err err;
  snprintf(path, sizeof path, "%s%s", root, relative);
  plat_path_dirname(path, folder, sizeof folder);
  plat_mkdir_p(folder, &err);
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* /proc/PID/limits as the kernel writes it. */
static void limits_file(char *buf, size_t len, const char *nproc, const char *nofile) {
  snprintf(buf, len,
           "Limit                     Soft Limit           Hard Limit           Units     \n"
           "Max cpu time              unlimited            unlimited            seconds   \n"
           "Max processes             %-20s %-20s processes \n"
           "Max open files            %-20s 524288               files     \n",
           nproc, nproc, nofile);
}

/* A machine as a fresh Debian with systemd leaves it: pid_max 32,768, the service's unit at
   systemd's default TasksMax (15 % of pid_max), and root's limits. */
static void default_systemd_machine(const char *root) {
  char limits[1024];
  write_file(root, "/proc/sys/kernel/pid_max", "32768\n");
  write_file(root, "/proc/sys/kernel/threads-max", "126000\n");
  write_file(root, "/sys/fs/cgroup/system.slice/threadsoup.service/cgroup.procs", "4242\n4250\n");
  write_file(root, "/sys/fs/cgroup/system.slice/threadsoup.service/pids.max", "4915\n");
  write_file(root, "/sys/fs/cgroup/system.slice/pids.max", "max\n");
  limits_file(limits, sizeof limits, "63000", "1024");
  write_file(root, "/proc/4242/limits", limits);
  write_file(root, "/proc/4242/status", "Name:\tthreadsoup\nUid:\t0\t0\t0\t0\n");
}

static void default_systemd_unit_fails_the_largest_preset(void) {
  const char *root = "doctor-root-default";
  default_systemd_machine(root);
  plat_task_limits l;
  ts_err err;
  REQUIRE(plat_task_limits_read(root, 1, &l, &err) == TS_OK);
  CHECK_INT(l.pid_max, 32768);
  CHECK_INT(l.threads_max, 126000);
  CHECK_INT(l.pids_max, 4915);
  CHECK_INT(l.pid, 4242);
  CHECK_INT(l.uid, 0);
  CHECK_INT(l.nofile_soft, 1024);
  CHECK_INT(l.nofile_hard, 524288);
  CHECK_INT(l.nproc_soft, 63000);
  CHECK_STR_CONTAINS(l.pids_max_at, "/system.slice/threadsoup.service");
  CHECK_STR_CONTAINS(l.whose, "threadsoup.service unit (pid 4242)");

  long need = plan_preset_largest_load() + 64;
  CHECK(plan_preset_largest_load() >= 15000);
  doctor_finding f;
  memset(&f, 0, sizeof f);
  doctor_judge_pids_max(&l, need, &f);
  CHECK_INT(f.status, DOCTOR_FAIL);
  CHECK(f.value == 4915);
  CHECK_STR_CONTAINS(f.measured, "pids.max 4915");
  CHECK_STR_CONTAINS(f.advice, "TasksMax=infinity");
  /* 30,000 sleepers and 300 tasks running do not fit under pid_max 32,768 either... */
  doctor_judge_pid_max(&l, 32500, 300, &f);
  CHECK_INT(f.status, DOCTOR_FAIL);
  CHECK_STR_CONTAINS(f.advice, "kernel.pid_max");
  /* ...while 15,000 sleepers do. */
  doctor_judge_pid_max(&l, 15064, 300, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  doctor_judge_user_tasks(&l, need, &f);
  CHECK_INT(f.status, DOCTOR_OK); /* root */
  CHECK_STR_CONTAINS(f.measured, "root");
  doctor_judge_open_files(&l, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  CHECK(f.value == 1024);

  /* The same facts through the runner: the verdict does not hold. */
  doctor_report *r = run_cheap(root, plan_preset_largest_load());
  REQUIRE(r);
  const doctor_finding *pids = finding(r, "pids-max");
  REQUIRE(pids);
  CHECK_INT(pids->status, DOCTOR_FAIL);
  CHECK(!doctor_holds(r));
  CHECK(r->failed >= 1);
  char summary[256];
  doctor_summary(r, summary, sizeof summary);
  CHECK_STR_CONTAINS(summary, "pids-max");
  free(r);
  /* The load the runner is handed is the one judged: 4,000 tasks fit under pids.max 4915. */
  r = run_cheap(root, 4000);
  REQUIRE(r);
  pids = finding(r, "pids-max");
  REQUIRE(pids);
  CHECK_INT(pids->status, DOCTOR_OK);
  CHECK_STR_CONTAINS(pids->measured, "4064 tasks");
  free(r);
}

/* The same machine with what installer/threadsoup.service and a sysctl raise. */
static void raised_limits_hold(void) {
  const char *root = "doctor-root-raised";
  char limits[1024];
  default_systemd_machine(root);
  write_file(root, "/proc/sys/kernel/pid_max", "4194304\n");
  write_file(root, "/sys/fs/cgroup/system.slice/threadsoup.service/pids.max", "max\n");
  limits_file(limits, sizeof limits, "unlimited", "65536");
  write_file(root, "/proc/4242/limits", limits);
  doctor_report *r = run_cheap(root, plan_preset_largest_load());
  REQUIRE(r);
  for (int i = 0; i < r->count; i++) {
    const doctor_finding *f = &r->findings[i];
    if (strcmp(f->check, "timer") == 0 || strcmp(f->check, "restart") == 0 ||
        strcmp(f->check, "image-folder") == 0 || strcmp(f->check, "sleep") == 0 ||
        strcmp(f->check, "wake-timers") == 0 || strcmp(f->check, "fast-startup") == 0)
      continue; /* this machine's own timer; systemd's unit restarts the daemon and names its
                   program (skip); Linux has no power plan, and logind is this machine's (ok or
                   skip) */
    if (f->status != DOCTOR_OK)
      fprintf(stderr, "  %s: %s\n", f->check, f->measured);
    CHECK_INT(f->status, DOCTOR_OK);
  }
  CHECK(r->count >= 6);
  free(r);
}

/* No service unit: this process's own cgroup, v1's pids hierarchy, a parent tighter than the
   leaf; a user limited by RLIMIT_NPROC. */
static void own_cgroup_v1_and_user_limit(void) {
  const char *root = "doctor-root-v1";
  char limits[1024];
  write_file(root, "/proc/sys/kernel/pid_max", "4194304\n");
  write_file(root, "/proc/self/cgroup",
             "12:memory:/user.slice\n5:pids:/user.slice/user-1000.slice/session-3.scope\n"
             "0::/user.slice/user-1000.slice/session-3.scope\n");
  write_file(root, "/sys/fs/cgroup/pids/user.slice/user-1000.slice/session-3.scope/pids.max",
             "max\n");
  write_file(root, "/sys/fs/cgroup/pids/user.slice/user-1000.slice/pids.max", "10813\n");
  write_file(root, "/sys/fs/cgroup/pids/user.slice/pids.max", "max\n");
  limits_file(limits, sizeof limits, "4096", "1024");
  write_file(root, "/proc/self/limits", limits);
  write_file(root, "/proc/self/status", "Uid:\t1000\t1000\t1000\t1000\n");
  plat_task_limits l;
  ts_err err;
  REQUIRE(plat_task_limits_read(root, 1, &l, &err) == TS_OK);
  CHECK_INT(l.pids_max, 10813);
  CHECK_STR_CONTAINS(l.pids_max_at, "/user.slice/user-1000.slice");
  CHECK_STR_CONTAINS(l.whose, "this process");
  CHECK_INT(l.threads_max, PLAT_LIMIT_UNKNOWN);
  CHECK_INT(l.uid, 1000);
  doctor_finding f;
  doctor_judge_pids_max(&l, 15064, &f);
  CHECK_INT(f.status, DOCTOR_FAIL);
  CHECK_STR_CONTAINS(f.advice, "user slice");
  doctor_judge_user_tasks(&l, 15064, &f);
  CHECK_INT(f.status, DOCTOR_FAIL);
  CHECK_STR_CONTAINS(f.measured, "4096");
  doctor_judge_threads_max(&l, 15064, 10, &f);
  CHECK_INT(f.status, DOCTOR_SKIP);
}
#endif

static void timer_rule(void) {
  doctor_finding f;
  doctor_judge_timer(1.06e6, 1.2e6, 100, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  CHECK_STR_CONTAINS(f.measured, "1.06 ms (median)");
  doctor_judge_timer(15.6e6, 15.9e6, 100, &f); /* Windows' default tick */
  CHECK_INT(f.status, DOCTOR_WARN);
  CHECK_STR_CONTAINS(f.advice, "timer");
  CHECK(fabs(f.value - 15.6) < 1e-9);
}

/* The service's failure actions as the Service Control Manager answers them: after the service
   set them (reset one day, restart after 5 s, 10 s, 60 s, also after a stop with an error), as an
   MSI's ServiceInstall leaves them (no actions), as Wine answers (error 124, nothing stored), and
   not installed. */
static void restart_rule(void) {
  doctor_finding f;
  plat_service_restart r;
  memset(&r, 0, sizeof r);
  r.installed = r.readable = 1;
  r.reset_s = 86400;
  r.actions = r.restarts = 3;
  r.first_delay_ms = 5000;
  r.non_crash = 1;
  doctor_judge_restart(&r, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  CHECK_STR_CONTAINS(f.measured, "restart on failure set: 3 of 3");
  CHECK_STR_CONTAINS(f.measured, "after 5 s");
  CHECK_STR_CONTAINS(f.measured, "after 24 h; also after a stop with an error");
  r.actions = r.restarts = 0;
  r.reset_s = 0;
  r.first_delay_ms = 0;
  r.non_crash = 0;
  doctor_judge_restart(&r, &f);
  CHECK_INT(f.status, DOCTOR_WARN);
  CHECK_STR_CONTAINS(f.measured, "restart on failure not set: 0 failure actions");
  CHECK_STR_CONTAINS(f.advice, "sc failure ThreadSoup");
  r.readable = 0;
  snprintf(r.why, sizeof r.why, "The system call level is not correct.");
  doctor_judge_restart(&r, &f);
  CHECK_INT(f.status, DOCTOR_WARN);
  CHECK_STR_CONTAINS(f.measured, "restart on failure unknown");
  CHECK_STR_CONTAINS(f.measured, "level is not correct");
  r.installed = 0;
  doctor_judge_restart(&r, &f);
  CHECK_INT(f.status, DOCTOR_SKIP);
  CHECK_STR_CONTAINS(f.measured, "not installed");
  /* Through the table, on given facts. */
  doctor_context ctx;
  memset(&ctx, 0, sizeof ctx);
  r.installed = 1;
  ctx.service_restart = &r;
  for (size_t i = 0; i < doctor_check_count(); i++)
    if (strcmp(doctor_check_at(i)->name, "restart") == 0)
      doctor_check_at(i)->run(&ctx, &f);
  CHECK_INT(f.status, DOCTOR_WARN);
  CHECK_STR_CONTAINS(f.measured, "restart on failure unknown");
  /* This machine's own answer: Linux has systemd's unit instead. */
#ifndef _WIN32
  ctx.service_restart = NULL;
  for (size_t i = 0; i < doctor_check_count(); i++)
    if (strcmp(doctor_check_at(i)->name, "restart") == 0)
      doctor_check_at(i)->run(&ctx, &f);
  CHECK_INT(f.status, DOCTOR_SKIP);
  CHECK_STR_CONTAINS(f.measured, "Restart=on-failure");
#endif
}

/* Where the service runs from: a folder others may change fails, naming the folder and who;
   Program Files passes; not installed is skipped; Linux has no such check. */
static void image_folder_rule(void) {
  doctor_finding f;
  plat_service_image image;
  memset(&image, 0, sizeof image);
  image.installed = 1;
  snprintf(image.folder, sizeof image.folder, "%s", "C:\\ThreadSoup");
  snprintf(image.reason, sizeof image.reason, "%s",
           "Authenticated Users (S-1-5-11) may write to or change C:\\ThreadSoup");
  doctor_judge_image_folder(&image, &f);
  CHECK_INT(f.status, DOCTOR_FAIL);
  CHECK_STR_CONTAINS(f.measured, "runs from C:\\ThreadSoup, which others may change");
  CHECK_STR_CONTAINS(f.measured, "Authenticated Users");
  CHECK_STR_CONTAINS(f.advice, "under Program Files");
  image.safe = 1;
  snprintf(image.folder, sizeof image.folder, "%s", "C:\\Program Files\\ThreadSoup");
  doctor_judge_image_folder(&image, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  CHECK_STR_CONTAINS(f.measured, "only the system and administrators");
  image.installed = 0;
  doctor_judge_image_folder(&image, &f);
  CHECK_INT(f.status, DOCTOR_SKIP);
#ifndef _WIN32
  doctor_context ctx;
  memset(&ctx, 0, sizeof ctx);
  int found = 0;
  for (size_t i = 0; i < doctor_check_count(); i++)
    if (strcmp(doctor_check_at(i)->name, "image-folder") == 0) {
      doctor_check_at(i)->run(&ctx, &f);
      found = 1;
    }
  CHECK(found);
  CHECK_INT(f.status, DOCTOR_SKIP);
  CHECK_STR_CONTAINS(f.measured, "ExecStart");
#endif
}

static void children_rule(void) {
  doctor_finding f;
  doctor_judge_children(10, 10, 0, 3, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  CHECK_STR_CONTAINS(f.measured, "3 other new processes");
  doctor_judge_children(10, 10, 10, 0, &f); /* one conhost.exe per child */
  CHECK_INT(f.status, DOCTOR_FAIL);
  CHECK_STR_CONTAINS(f.advice, "console host");
  doctor_judge_children(10, 7, 0, 0, &f);
  CHECK_INT(f.status, DOCTOR_FAIL);
}

static void rights_rule(void) {
  doctor_finding f;
  plat_rights r;
  memset(&r, 0, sizeof r);
  snprintf(r.user, sizeof r.user, "alice");
  doctor_judge_rights(&r, &f); /* POSIX, neither */
  CHECK_INT(f.status, DOCTOR_WARN);
  CHECK_STR_CONTAINS(f.advice, "does not exist");
  /* The socket is closed to others (mode 0660): the finding does not promise them reads. */
  CHECK_STR_CONTAINS(f.measured, "socket (mode 0660, group threadsoup) is closed to it");
  r.group_exists = 1;
  doctor_judge_rights(&r, &f);
  CHECK_STR_CONTAINS(f.advice, "usermod -aG threadsoup");
  r.group_member = 1;
  doctor_judge_rights(&r, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  CHECK_STR_CONTAINS(f.measured, "in group threadsoup");
  /* Windows: an administrator at a default install, never elevated (the tray). */
  memset(&r, 0, sizeof r);
  r.windows = 1;
  r.admin_filtered = 1;
  r.users_group_member = -1;
  r.system = -1;
  snprintf(r.user, sizeof r.user, "bob");
  doctor_judge_rights(&r, &f);
  CHECK_INT(f.status, DOCTOR_WARN);
  CHECK_STR_CONTAINS(f.measured, "not elevated");
  CHECK_STR_CONTAINS(f.advice, "ThreadSoup Users");
  r.admin_filtered = 0;
  r.admin_enabled = 1;
  r.elevated = 1;
  doctor_judge_rights(&r, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  CHECK_STR_CONTAINS(f.measured, "elevated administrator");
  /* The same unelevated administrator once in ThreadSoup Users: the tray may control. */
  r.admin_filtered = 1;
  r.admin_enabled = 0;
  r.elevated = 0;
  r.users_group_member = 1;
  doctor_judge_rights(&r, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  CHECK_STR_CONTAINS(f.measured, "in ThreadSoup Users");
  CHECK_STR_CONTAINS(f.measured, "command benchmarks stay with elevated administrators");
}

/* Where benchmarks run: the opt-out refused, or a laptop on battery, is a warning that says
   what to do; AC power with the opt-out taken holds. Words as the OS halves give them. */
static void power_rule(void) {
  doctor_finding f;
  doctor_judge_power(1, "off (ThreadPowerThrottling taken)", "ac",
                     "hybrid, class1 8 CPUs, "
                     "class0 8 CPUs",
                     &f);
  CHECK_INT(f.status, DOCTOR_OK);
  CHECK_STR_CONTAINS(f.measured, "hybrid, class1 8 CPUs");
  doctor_judge_power(1, "off", "battery", "uniform, 8 CPUs", &f);
  CHECK_INT(f.status, DOCTOR_WARN);
  CHECK_STR_CONTAINS(f.advice, "plug the machine in");
  doctor_judge_power(1, "off", "battery->ac", "uniform, 8 CPUs", &f);
  CHECK_INT(f.status, DOCTOR_WARN);
  doctor_judge_power(1, "off", "ac (no battery)", "uniform, 2 CPUs", &f);
  CHECK_INT(f.status, DOCTOR_OK);
  doctor_judge_power(0, "SetThreadInformation failed: Invalid function", "ac", "unknown", &f);
  CHECK_INT(f.status, DOCTOR_WARN);
  CHECK_STR_CONTAINS(f.advice, "EcoQoS");
  CHECK_STR_CONTAINS(f.measured, "Invalid function");
  /* The real machine's answer is one of these, never a failure. */
  doctor_context ctx;
  memset(&ctx, 0, sizeof ctx);
  doctor_report *rep = malloc(sizeof *rep);
  REQUIRE(rep);
  doctor_run(&ctx, DOCTOR_CHEAP, 0, rep);
  const doctor_finding *power = finding(rep, "power");
  REQUIRE(power);
  CHECK(power->status == DOCTOR_OK || power->status == DOCTOR_WARN);
  CHECK_STR_CONTAINS(power->measured, "power source ");
  fprintf(stderr, "  power here: %s\n", power->measured);
  free(rep);
}

/* Three spins of 50 ms the thread ran through, at `rates` of its clock against wall time. */
static void spins(plat_spin_clock *c, double base_rate, const double rates[3]) {
  memset(c, 0, sizeof *c);
  c->available = 1;
  c->base_rate = base_rate;
  snprintf(c->source, sizeof c->source, "%s",
           base_rate > 0 ? "QueryThreadCycleTime / burn's rate vs QueryPerformanceCounter"
                         : "CLOCK_THREAD_CPUTIME_ID vs CLOCK_MONOTONIC");
  c->count = 3;
  for (int i = 0; i < 3; i++) {
    plat_spin_sample *s = &c->samples[i];
    s->wall_ns = 52e6;
    s->ran_ns = 50e6;
    double ratio = base_rate > 0 ? rates[i] / base_rate : rates[i];
    s->thread_ns = s->ran_ns * ratio;
    s->rate = base_rate > 0 ? rates[i] : 0;
  }
}

/* burn's clock: steady at wall time holds; a laptop whose cycle rate fell from 2.4 to 1.2 GHz
   after burn measured it, a rate that drifts from spin to spin, and a VM whose thread clock runs
   at 0.6 of wall time warn that burn's expected costs are approximate; no clock is a skip. */
static void burn_clock_rule(void) {
  plat_spin_clock c;
  doctor_finding f;
  spins(&c, 0, (const double[]){1.0002, 0.9998, 1.0001});
  doctor_judge_burn_clock(&c, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  CHECK(fabs(f.value - 1.0001) < 1e-9);
  CHECK_STR_CONTAINS(f.measured, "advanced 1.000x wall time while the thread ran");
  CHECK_STR_CONTAINS(f.measured, "the thread ran 150 ms of the spins' 156 ms");
  CHECK_STR_EQ(f.advice, "");
  /* A Windows laptop: burn measured 2400 cycles/us at full clock, then the P-state fell. */
  spins(&c, 2400, (const double[]){1200, 1200, 1201});
  doctor_judge_burn_clock(&c, &f);
  CHECK_INT(f.status, DOCTOR_WARN);
  CHECK(fabs(f.value - 0.5) < 1e-3);
  CHECK_STR_CONTAINS(f.measured, "1200, 1200, 1201 cycles/us against burn's 2400");
  CHECK_STR_CONTAINS(f.advice, "takes about DUTY/0.50 of a CPU");
  CHECK_STR_CONTAINS(f.advice, "measured effects");
  /* The rate moving between spins. */
  spins(&c, 2400, (const double[]){2400, 1800, 2350});
  doctor_judge_burn_clock(&c, &f);
  CHECK_INT(f.status, DOCTOR_WARN);
  CHECK_STR_CONTAINS(f.advice, "moved between 0.75x and 1.00x");
  CHECK_STR_CONTAINS(f.advice, "approximate");
  /* Steady and within 10 %, yet a Windows PC at its measured rate: holds. */
  spins(&c, 2400, (const double[]){2390, 2400, 2410});
  doctor_judge_burn_clock(&c, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  /* A VM whose thread clock runs at 0.6 of wall time. */
  spins(&c, 0, (const double[]){0.6, 0.61, 0.6});
  doctor_judge_burn_clock(&c, &f);
  CHECK_INT(f.status, DOCTOR_WARN);
  CHECK_STR_CONTAINS(f.advice, "runs at 0.60x wall time");
  /* A spin the thread barely ran is left out; none left is a skip, not a verdict. */
  spins(&c, 0, (const double[]){0.2, 1.0, 1.0});
  c.samples[0].ran_ns = 2e6;
  c.samples[0].thread_ns = 0.4e6;
  doctor_judge_burn_clock(&c, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  for (int i = 0; i < 3; i++)
    c.samples[i].ran_ns = 5e6;
  doctor_judge_burn_clock(&c, &f);
  CHECK_INT(f.status, DOCTOR_SKIP);
  CHECK_STR_CONTAINS(f.measured, "too busy");
  /* No thread cycle counter (Wine 8). */
  memset(&c, 0, sizeof c);
  snprintf(c.why, sizeof c.why, "QueryThreadCycleTime failed (error 120)");
  doctor_judge_burn_clock(&c, &f);
  CHECK_INT(f.status, DOCTOR_SKIP);
  CHECK_STR_CONTAINS(f.measured, "burn spins on wall time");
  CHECK_STR_CONTAINS(f.advice, "QueryThreadCycleTime");
  CHECK(isnan(f.value));
}

/* A clock that moves 1 us a step with the thread's, and every 100th step the thread is away for
   3 ms, preempted between the wall read and the thread read of the step before: that step's
   thread clock also holds 2 us of the switch back in, whose wall time falls in the gap. The spin
   is compared over the steps it ran through (1.000, not 1.02), and ends after 50 ms of them. */
typedef struct fake_clocks {
  uint64_t wall, thread;
  long step;
} fake_clocks;

static int fake_read(void *arg, uint64_t *wall_ns, uint64_t *thread_count) {
  fake_clocks *k = arg;
  k->step++;
  long phase = k->step % 100;
  k->wall += phase == 0 ? 3000000u : 1000u;
  k->thread += phase == 0 ? 0u : phase == 99 ? 3000u : 1000u;
  *wall_ns = k->wall;
  *thread_count = k->thread;
  return 1;
}

static void spin_probe_leaves_out_preemption(void) {
  fake_clocks k = {0, 0, 0};
  plat_spin_sums sums;
  REQUIRE(plat_spin_probe(fake_read, &k, 50000000u, 10000000000u, &sums));
  CHECK(sums.ran_ns >= 50000000u && sums.ran_ns < 50002000u);
  CHECK_INT((long long)sums.counted, (long long)sums.ran_ns);
  CHECK(sums.gaps >= 505 && sums.gaps <= 515);
  CHECK(sums.wall_ns > 1500000000u); /* the 3 ms gaps were there, on the wall clock */
  /* The wall-time cap ends a spin the thread hardly runs. */
  k = (fake_clocks){0, 0, 0};
  REQUIRE(plat_spin_probe(fake_read, &k, 50000000u, 100000000u, &sums));
  CHECK(sums.wall_ns >= 100000000u && sums.wall_ns < 104000000u);
  CHECK(sums.ran_ns < 50000000u);
}

/* The real clock here: Linux's thread CPU clock keeps pace with wall time over the steps the
   thread ran, however busy the machine; Wine 8 has none, and says why. */
static void burn_clock_here(void) {
  plat_spin_clock c;
  plat_spin_clock_measure(3, 20000000u, 100000000u, &c);
  doctor_finding f;
  doctor_judge_burn_clock(&c, &f);
  fprintf(stderr, "  burn-clock here: %s %s | %s\n", doctor_status_name(f.status), f.measured,
          f.advice);
  if (!c.available) {
    CHECK_STR_CONTAINS(c.why, "QueryThreadCycleTime");
    CHECK_INT(f.status, DOCTOR_SKIP);
    return;
  }
  CHECK_INT(c.count, 3);
  for (int i = 0; i < c.count; i++)
    CHECK(c.samples[i].ran_ns <= c.samples[i].wall_ns);
#ifndef _WIN32
  CHECK(f.status == DOCTOR_OK || f.status == DOCTOR_SKIP);
#endif
}

static const char *wine_lacks(void) { return "no Defender here"; }
static int no_defender_get(int *on, ts_err *err) {
  (void)on;
  return ts_err_set(err, TS_EUNSUPPORTED, "none");
}
static int no_defender_set(int on, ts_err *err) {
  (void)on;
  return ts_err_set(err, TS_EUNSUPPORTED, "none");
}
static int no_update_get(int64_t *until, ts_err *err) {
  (void)until;
  return ts_err_set(err, TS_EUNSUPPORTED, "none");
}
static int no_update_set(int64_t until, ts_err *err) {
  (void)until;
  return ts_err_set(err, TS_EUNSUPPORTED, "none");
}
static const plat_quiet_ops wine_ops = {
    no_defender_get, no_defender_set, no_update_get, no_update_set, wine_lacks, NULL, NULL};

static int impostor(const char *address, char *answer, size_t len, ts_err *err) {
  (void)answer;
  (void)len;
  return ts_err_set(err, TS_EDENIED, "%s is served by pid 99, user mallory", address);
}

/* Client checks on injected facts: Wine's missing Defender is a skip that says so; a server that
   is not the service fails the verdict; the JSON carries the same. */
static void client_checks_and_json(void) {
  plat_rights r;
  memset(&r, 0, sizeof r);
  r.root = 1;
  snprintf(r.user, sizeof r.user, "root");
  doctor_context ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.address = "test-address";
  ctx.data_dir = "doctor-no-such-folder";
  ctx.quiet_ops = &wine_ops;
  ctx.wine = "9.0";
  ctx.rights = &r;
  ctx.ask_status = impostor;
  doctor_report *rep = malloc(sizeof *rep);
  REQUIRE(rep);
  doctor_run(&ctx, DOCTOR_CLIENT | DOCTOR_SLOW, 0, rep);
  const doctor_finding *server = finding(rep, "server"), *quiet = finding(rep, "quiet"),
                       *data = finding(rep, "data");
  REQUIRE(server && quiet && data);
  CHECK_INT(server->status, DOCTOR_FAIL);
  CHECK_STR_CONTAINS(server->measured, "mallory");
  CHECK_STR_CONTAINS(server->advice, "something else holds");
  CHECK_INT(quiet->status, DOCTOR_SKIP);
  CHECK_STR_CONTAINS(quiet->measured, "Wine 9.0 has no Defender");
  CHECK_INT(data->status, DOCTOR_SKIP);
  CHECK(!doctor_holds(rep));
  FILE *f = fopen("doctor.json", "w+");
  REQUIRE(f);
  doctor_write_json(rep, f);
  rewind(f);
  char json[8192];
  size_t n = fread(json, 1, sizeof json - 1, f);
  json[n] = '\0';
  fclose(f);
  CHECK_STR_CONTAINS(json, "\"verdict\":\"fail\",\"exit_code\":1");
  CHECK_STR_CONTAINS(json, "\"check\":\"server\",\"status\":\"fail\"");
  CHECK_STR_CONTAINS(json, "\"check\":\"quiet\",\"status\":\"skip\"");
  free(rep);
}

/* A machine where quiet mode works (Defender read back off), with the update stack's own values
   as Windows 11 23H2 leaves them after a pause, as it leaves them before it has taken one, and
   with Group Policy keeping users from pausing. */
static plat_update_signal fake_signal;
static int64_t fake_pause_end;
static int off_defender_get(int *on, ts_err *err) {
  (void)err;
  *on = 0;
  return TS_OK;
}
static int fake_update_get(int64_t *until, ts_err *err) {
  (void)err;
  *until = fake_pause_end;
  return TS_OK;
}
static int fake_update_signal(plat_update_signal *out, ts_err *err) {
  (void)err;
  *out = fake_signal;
  return TS_OK;
}
static const char *nothing_missing(void) { return NULL; }
static const plat_quiet_ops paused_ops = {off_defender_get,
                                          no_defender_set,
                                          fake_update_get,
                                          no_update_set,
                                          nothing_missing,
                                          fake_update_signal,
                                          NULL};

static const doctor_finding *quiet_finding(doctor_report *rep) {
  doctor_context ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.quiet_ops = &paused_ops;
  ctx.wine = "";
  ctx.data_dir = "doctor-no-such-folder";
  doctor_run(&ctx, DOCTOR_SLOW, 0, rep);
  return finding(rep, "quiet");
}

static void quiet_pause_confirmed_by_the_update_stack(void) {
  doctor_report *rep = malloc(sizeof *rep);
  REQUIRE(rep);
  int64_t now = (int64_t)time(NULL);
  fake_pause_end = now + 3600;
  memset(&fake_signal, 0, sizeof fake_signal);
  fake_signal.quality_status = fake_signal.feature_status = 1;
  fake_signal.quality_paused = fake_signal.feature_paused = 1;
  fake_signal.quality_end = fake_signal.feature_end = now + 3600;
  const doctor_finding *q = quiet_finding(rep);
  REQUIRE(q);
  CHECK_INT(q->status, DOCTOR_OK);
  CHECK_STR_CONTAINS(q->measured, "Defender real-time protection off (read back)");
  CHECK_STR_CONTAINS(q->measured, "confirmed by");

  /* Our values are there, the update service says nothing (yet). */
  memset(&fake_signal, 0, sizeof fake_signal);
  q = quiet_finding(rep);
  REQUIRE(q);
  CHECK_INT(q->status, DOCTOR_WARN);
  CHECK_STR_CONTAINS(q->advice, "does not confirm a pause");

  /* Group Policy takes the pause away from users. */
  fake_signal.pause_ux_disabled = 1;
  snprintf(fake_signal.policy_where, sizeof fake_signal.policy_where, "Group Policy");
  q = quiet_finding(rep);
  REQUIRE(q);
  CHECK_INT(q->status, DOCTOR_WARN);
  CHECK_STR_CONTAINS(q->advice, "policy");
  CHECK_STR_CONTAINS(q->measured, "blocked");
  free(rep);
}

/* A data folder anyone may write to fails; one only its owner writes passes. */
static void data_folder(void) {
#ifndef _WIN32
  ts_err err;
  REQUIRE(plat_mkdir_p("doctor-data-open", &err) == TS_OK);
  write_file("doctor-data-open", "/threadsoup.db", "x");
  doctor_context ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.data_dir = "doctor-data-open";
  doctor_report *rep = malloc(sizeof *rep);
  REQUIRE(rep);
  REQUIRE(system("chmod 0777 doctor-data-open && chmod 0644 doctor-data-open/threadsoup.db") == 0);
  doctor_run(&ctx, DOCTOR_CLIENT, 0, rep);
  const doctor_finding *data = finding(rep, "data");
  REQUIRE(data);
  CHECK_INT(data->status, DOCTOR_FAIL);
  CHECK_STR_CONTAINS(data->measured, "writable by everyone");
  REQUIRE(system("chmod 0755 doctor-data-open") == 0);
  doctor_run(&ctx, DOCTOR_CLIENT, 0, rep);
  CHECK_INT(data->status, DOCTOR_OK);
  CHECK_STR_CONTAINS(data->measured, "1 database file");
  free(rep);
#endif
}

/* "Does not exist" only when the OS says so: a folder it cannot look at (a symbolic link loop;
   permission denied on the folder above, when not root) is named with the OS's reason. */
static void data_folder_that_cannot_be_seen(void) {
#ifndef _WIN32
  doctor_context ctx;
  memset(&ctx, 0, sizeof ctx);
  doctor_report *rep = malloc(sizeof *rep);
  REQUIRE(rep);
  REQUIRE(system("rm -f doctor-data-loop && ln -s doctor-data-loop doctor-data-loop") == 0);
  ctx.data_dir = "doctor-data-loop";
  doctor_run(&ctx, DOCTOR_CLIENT, 0, rep);
  const doctor_finding *data = finding(rep, "data");
  REQUIRE(data);
  CHECK_INT(data->status, DOCTOR_SKIP);
  CHECK_STR_CONTAINS(data->measured, "cannot look at doctor-data-loop: ");
  CHECK(strstr(data->measured, "does not exist") == NULL);
  CHECK_STR_CONTAINS(data->advice, "as root");
  REQUIRE(system("rm -f doctor-data-loop") == 0);
  if (system("test \"$(id -u)\" != 0") == 0) {
    REQUIRE(system("mkdir -p doctor-data-shut/threadsoup && chmod 0 doctor-data-shut") == 0);
    ctx.data_dir = "doctor-data-shut/threadsoup";
    doctor_run(&ctx, DOCTOR_CLIENT, 0, rep);
    data = finding(rep, "data");
    REQUIRE(data);
    CHECK_STR_CONTAINS(data->measured,
                       "cannot look at doctor-data-shut/threadsoup: Permission denied");
    REQUIRE(system("chmod 0755 doctor-data-shut && rm -rf doctor-data-shut") == 0);
  }
  ctx.data_dir = "doctor-no-such-folder";
  doctor_run(&ctx, DOCTOR_CLIENT, 0, rep);
  data = finding(rep, "data");
  REQUIRE(data);
  CHECK_STR_CONTAINS(data->measured, "doctor-no-such-folder does not exist");
  free(rep);
#endif
}

/* Export folders on a real folder tree: below a folder anyone may write (no sticky bit) it
   fails naming that folder; with the sticky bit, or writable by its owner only, it holds; under
   Wine, a folder whose access list lets Everyone delete its children fails where Wine keeps
   access lists (otherwise only the ok path is shown). No export folder: skipped. */
static void export_folders(void) {
  ts_err err;
  REQUIRE(plat_mkdir_p("doctor-exports/share/runs", &err) == TS_OK);
  const char *folders[] = {"doctor-exports/share/runs"};
  doctor_context ctx;
  memset(&ctx, 0, sizeof ctx);
  doctor_report *rep = malloc(sizeof *rep);
  REQUIRE(rep);
  doctor_run(&ctx, DOCTOR_CLIENT, 0, rep);
  const doctor_finding *f = finding(rep, "export-folders");
  REQUIRE(f);
  CHECK_INT(f->status, DOCTOR_SKIP);
  ctx.export_folders = folders;
  ctx.export_folder_count = 0;
  doctor_run(&ctx, DOCTOR_CLIENT, 0, rep);
  CHECK_INT(f->status, DOCTOR_SKIP);
  ctx.export_folder_count = 1;
#ifndef _WIN32
  REQUIRE(system("chmod 0755 doctor-exports doctor-exports/share doctor-exports/share/runs") == 0);
  /* The folders above the test's own (the build tree) may be anyone's: what holds only when they
     are not is checked only then. */
  int exposed = 0, above = 0;
  char reason[600];
  CHECK_INT(plat_folder_tree_exposed(".", &above, reason, sizeof reason, &err), TS_OK);
  if (!above) {
    doctor_run(&ctx, DOCTOR_CLIENT, 0, rep);
    CHECK_INT(f->status, DOCTOR_OK);
    CHECK_STR_CONTAINS(f->measured, "1 export folder");
  }
  REQUIRE(system("chmod 0777 doctor-exports/share") == 0);
  doctor_run(&ctx, DOCTOR_CLIENT, 0, rep);
  CHECK_INT(f->status, DOCTOR_FAIL);
  CHECK_STR_CONTAINS(f->measured, "doctor-exports/share is writable by everyone without the "
                                  "sticky bit (mode 0777)");
  REQUIRE(system("chmod 1777 doctor-exports/share") == 0);
  CHECK_INT(
      plat_folder_tree_exposed("doctor-exports/share/runs", &exposed, reason, sizeof reason, &err),
      TS_OK);
  CHECK_INT(exposed, above);
  REQUIRE(system("chmod 0775 doctor-exports && chmod 0755 doctor-exports/share") == 0);
  doctor_run(&ctx, DOCTOR_CLIENT, 0, rep);
  CHECK_INT(f->status, DOCTOR_FAIL);
  CHECK_STR_CONTAINS(f->measured, "doctor-exports is writable by its group");
  REQUIRE(system("chmod 0755 doctor-exports") == 0);
  /* A folder not made yet is judged by the nearest one that is. */
  CHECK_INT(plat_folder_tree_exposed("doctor-exports/share/runs/not-yet", &exposed, reason,
                                     sizeof reason, &err),
            TS_OK);
  CHECK_INT(exposed, above);
#else
  /* Wine: the folder made by this user carries no entry for others; whether the drive's root does
     is Wine's, so only the answer's form is held. */
  int exposed = -1;
  char reason[600];
  CHECK_INT(plat_folder_tree_exposed(folders[0], &exposed, reason, sizeof reason, &err), TS_OK);
  CHECK(exposed == 0 || exposed == 1);
  CHECK(!exposed || strstr(reason, "may write to or change") != NULL ||
        strstr(reason, "is owned by") != NULL);
  doctor_run(&ctx, DOCTOR_CLIENT, 0, rep);
  CHECK_INT(f->status, exposed ? DOCTOR_FAIL : DOCTOR_OK);
#endif
  doctor_judge_export_folders(3, 1, "/srv/share is writable by everyone", &rep->findings[0]);
  CHECK_INT(rep->findings[0].status, DOCTOR_FAIL);
  CHECK_STR_CONTAINS(rep->findings[0].measured, "1 of 3 export folders exposed: /srv/share");
  free(rep);
}

/* The unit the installer ships raises what the load needs: no TasksMax limit. */
static void unit_file_lifts_tasks_max(void) {
  if (!unit_file)
    return;
  FILE *f = fopen(unit_file, "r");
  REQUIRE(f);
  char line[512];
  int tasks_max_infinity = 0;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "TasksMax=infinity", 17) == 0)
      tasks_max_infinity = 1;
  fclose(f);
  CHECK(tasks_max_infinity);
}

static int count_row(void *ctx, const store_doctor_row *row) {
  (void)row;
  (*(int *)ctx)++;
  return 0;
}

/* A run's machine checks are stored with it (a later sitting's replace them) and its reports show
   them: text, JSON and HTML. */
static void run_stores_checks_and_report_shows_them(void) {
  const char *path = "doctor_store.db";
  remove_db(path);
  store *s;
  ts_err err;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  store_run_info info = {"custom", "conditions = baseline\n",
                         1,        "2026-12-01T00:00:00.000Z",
                         "host",   "os",
                         "cpu",    2,
                         "test",   NULL,
                         0};
  int64_t run_id = 0;
  REQUIRE(store_run_create_manual(s, &info, &run_id, &err) == TS_OK);
  char note[4096];
  REQUIRE(doctor_check_run(s, run_id, plan_preset_largest_load(), note, sizeof note, &err) ==
          TS_OK);
  CHECK_STR_CONTAINS(note, "machine checks: ");
  int rows = 0;
  REQUIRE(store_doctor_findings(s, run_id, count_row, &rows, &err) == TS_OK);
  CHECK(rows >= 2); /* the timer and, natively, the limits */
  /* A resumed run's sitting replaces the stored checks. */
  REQUIRE(doctor_check_run(s, run_id, plan_preset_largest_load(), note, sizeof note, &err) ==
          TS_OK);
  int again = 0;
  REQUIRE(store_doctor_findings(s, run_id, count_row, &again, &err) == TS_OK);
  CHECK_INT(again, rows);
  static const report_format formats[] = {REPORT_FORMAT_TEXT, REPORT_FORMAT_JSON,
                                          REPORT_FORMAT_HTML};
  static const char *const expected[] = {
      "Machine checks (threadsoup doctor's quick checks",
      "\"machine_checks\":[\n {\"check\":\"timer\",\"status\":", "<h2>Machine checks</h2>"};
  for (int i = 0; i < 3; i++) {
    FILE *f = fopen("doctor_report.txt", "w+");
    REQUIRE(f);
    CHECK(report_run_format(s, run_id, formats[i], f, &err) == TS_OK);
    rewind(f);
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    CHECK_STR_CONTAINS(text, expected[i]);
    CHECK_STR_CONTAINS(text, "a 1 ms sleep took");
  }
  store_close(s);
  CHECK(raw_query(path, "SELECT count(*) FROM run_doctor WHERE check_name='timer' AND status IN "
                        "('ok','warn') AND value > 0") == 1);
}

/* The table, built from checks.c's list of checks/NAME.c files: every check once, in the order
   `threadsoup doctor` prints them, each with its assumption, its kind and its function. */
/* Recorded answers of the power plan: a stock Balanced plan on a laptop (sleep after 30 min on
   mains, 15 on battery; wake timers enabled on mains, important only on battery; Fast Startup on),
   a desktop set never to sleep with wake timers and Fast Startup off, a plan that could not be
   read, and Linux with and without systemd-logind. */
static void sleep_wake_and_fast_startup_rules(void) {
  doctor_finding f;
  plat_sleep_facts stock = {1, 1800, 900, 1, 2, 1, 1, 0, ""};
  doctor_judge_sleep(&stock, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  CHECK_STR_CONTAINS(f.measured, "sleeps when idle after 30 min on mains power, after 15 min on "
                                 "battery");
  CHECK_STR_CONTAINS(f.measured, "holds a power request (system required)");
  doctor_judge_wake_timers(&stock, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  CHECK_STR_CONTAINS(f.measured, "on mains power: enabled, on battery: important wake timers only");
  CHECK_STR_CONTAINS(f.measured, "wakes the PC for the next schedule (on mains power only)");
  doctor_judge_fast_startup(&stock, &f);
  CHECK_INT(f.status, DOCTOR_WARN);
  CHECK_STR_CONTAINS(f.measured, "Fast Startup is on (HiberbootEnabled 1)");
  CHECK_STR_CONTAINS(f.advice, "powercfg /h off");

  plat_sleep_facts desktop = {1, 0, 7200, 0, 0, 0, 1, 0, ""};
  doctor_judge_sleep(&desktop, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  CHECK_STR_CONTAINS(f.measured, "idle never on mains power, after 2 h on battery");
  doctor_judge_wake_timers(&desktop, &f);
  CHECK_INT(f.status, DOCTOR_WARN);
  CHECK_STR_CONTAINS(f.measured, "on mains power: disabled");
  CHECK_STR_CONTAINS(f.measured, "runs when the PC wakes within its grace window");
  CHECK_STR_CONTAINS(f.advice, "RTCWAKE 1");
  doctor_judge_fast_startup(&desktop, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  CHECK_STR_CONTAINS(f.measured, "Fast Startup is off");
  desktop.fast_startup = 1;
  desktop.hibernation = 0;
  doctor_judge_fast_startup(&desktop, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  CHECK_STR_CONTAINS(f.measured, "set but hibernation is off");

  plat_sleep_facts unread = {1, PLAT_LIMIT_UNKNOWN, PLAT_LIMIT_UNKNOWN, -1, -1, -1, -1,
                             0, "Access is denied."};
  doctor_judge_sleep(&unread, &f);
  CHECK_INT(f.status, DOCTOR_WARN);
  CHECK_STR_CONTAINS(f.measured, "sleep timeouts unknown");
  CHECK_STR_CONTAINS(f.measured, "Access is denied.");
  doctor_judge_wake_timers(&unread, &f);
  CHECK_INT(f.status, DOCTOR_WARN);
  CHECK_STR_CONTAINS(f.measured, "wake timers unknown");
  doctor_judge_fast_startup(&unread, &f);
  CHECK_INT(f.status, DOCTOR_SKIP);

  plat_sleep_facts linux_logind = {0, PLAT_LIMIT_UNKNOWN, PLAT_LIMIT_UNKNOWN, -1, -1, -1, -1, 1,
                                   ""};
  doctor_judge_sleep(&linux_logind, &f);
  CHECK_INT(f.status, DOCTOR_OK);
  CHECK_STR_CONTAINS(f.measured, "systemd-logind runs");
  linux_logind.logind = 0;
  doctor_judge_sleep(&linux_logind, &f);
  CHECK_INT(f.status, DOCTOR_SKIP);
  CHECK_STR_CONTAINS(f.measured, "no systemd-logind");
  doctor_judge_wake_timers(&linux_logind, &f);
  CHECK_INT(f.status, DOCTOR_SKIP);
  CHECK_STR_CONTAINS(f.measured, "CLOCK_REALTIME_ALARM");
  doctor_judge_fast_startup(&linux_logind, &f);
  CHECK_INT(f.status, DOCTOR_SKIP);

  /* Through the table, on given facts. */
  doctor_context ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.sleep_facts = &stock;
  for (size_t i = 0; i < doctor_check_count(); i++)
    if (strcmp(doctor_check_at(i)->name, "fast-startup") == 0)
      doctor_check_at(i)->run(&ctx, &f);
  CHECK_INT(f.status, DOCTOR_WARN);
  CHECK_STR_CONTAINS(f.measured, "HiberbootEnabled 1");
  /* One check by name, as `schedule list` and `schedule add` run wake-timers and sleep. */
  ctx.sleep_facts = &desktop;
  CHECK_INT(doctor_run_one(&ctx, "wake-timers", &f), 1);
  CHECK_STR_EQ(f.check, "wake-timers");
  CHECK_INT(f.status, DOCTOR_WARN);
  CHECK(f.value == 0); /* known off: schedule add warns */
  ctx.sleep_facts = &unread;
  CHECK_INT(doctor_run_one(&ctx, "wake-timers", &f), 1);
  CHECK(isnan(f.value)); /* unknown: schedule add leaves it to the doctor */
  CHECK_INT(doctor_run_one(&ctx, "sleep", &f), 1);
  CHECK_STR_CONTAINS(f.measured, "sleep timeouts unknown");
  CHECK_INT(doctor_run_one(&ctx, "no-such-check", &f), 0);
}

static void table_lists_every_check_in_order(void) {
  static const char *const names[] = {"timer",        "children",     "rights",    "server",
                                      "restart",      "image-folder", "data",      "export-folders",
                                      "quiet",        "power",        "sleep",     "wake-timers",
                                      "fast-startup", "burn-clock",   "pid-max",   "threads-max",
                                      "pids-max",     "open-files",   "user-tasks"};
  size_t count = sizeof names / sizeof names[0];
  CHECK_INT((long)doctor_check_count(), (long)count);
  for (size_t i = 0; i < count && i < doctor_check_count(); i++) {
    const doctor_check *c = doctor_check_at(i);
    REQUIRE(c);
    CHECK_STR_EQ(c->name, names[i]);
    CHECK(c->assumption && *c->assumption);
    CHECK(c->kind & (DOCTOR_CHEAP | DOCTOR_SLOW));
    CHECK((c->kind & ~(DOCTOR_CHEAP | DOCTOR_SLOW | DOCTOR_CLIENT)) == 0);
    CHECK(c->run != NULL);
  }
  CHECK(doctor_check_at(count) == NULL);
#ifdef _WIN32
  /* No Linux limits here: each limit check's skip names its own limit. */
  static const char *const skips[][2] = {{"pid-max", "kernel.pid_max: Linux only"},
                                         {"threads-max", "kernel.threads-max: Linux only"},
                                         {"pids-max", "a cgroup's pids.max (TasksMax): Linux only"},
                                         {"open-files", "RLIMIT_NOFILE: Linux only"},
                                         {"user-tasks", "RLIMIT_NPROC: Linux only"}};
  doctor_context ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.machine_tasks = 300;
  doctor_report *rep = malloc(sizeof *rep);
  REQUIRE(rep);
  doctor_run(&ctx, DOCTOR_CHEAP, DOCTOR_CLIENT, rep);
  for (size_t i = 0; i < sizeof skips / sizeof skips[0]; i++) {
    const doctor_finding *f = finding(rep, skips[i][0]);
    REQUIRE(f);
    CHECK_INT(f->status, DOCTOR_SKIP);
    CHECK_STR_EQ(f->measured, skips[i][1]);
  }
  free(rep);
#endif
}

static void status_names(void) {
  for (int s = DOCTOR_OK; s <= DOCTOR_SKIP; s++)
    CHECK_INT(doctor_status_parse(doctor_status_name((doctor_status)s)), s);
  CHECK_INT(doctor_status_parse("fine"), -1);
}

int main(int argc, char **argv) {
  unit_file = argc > 1 ? argv[1] : NULL;
#ifndef _WIN32
  RUN_CASE(default_systemd_unit_fails_the_largest_preset);
  RUN_CASE(raised_limits_hold);
  RUN_CASE(own_cgroup_v1_and_user_limit);
#endif
  RUN_CASE(timer_rule);
  RUN_CASE(children_rule);
  RUN_CASE(restart_rule);
  RUN_CASE(image_folder_rule);
  RUN_CASE(rights_rule);
  RUN_CASE(power_rule);
  RUN_CASE(sleep_wake_and_fast_startup_rules);
  RUN_CASE(burn_clock_rule);
  RUN_CASE(spin_probe_leaves_out_preemption);
  RUN_CASE(burn_clock_here);
  RUN_CASE(quiet_pause_confirmed_by_the_update_stack);
  RUN_CASE(client_checks_and_json);
  RUN_CASE(data_folder);
  RUN_CASE(data_folder_that_cannot_be_seen);
  RUN_CASE(export_folders);
  RUN_CASE(unit_file_lifts_tasks_max);
  RUN_CASE(run_stores_checks_and_report_shows_them);
  RUN_CASE(table_lists_every_check_in_order);
  RUN_CASE(status_names);
  return check_summary();
}
