/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* freeze.c - what `freeze:NAME|PID` may freeze and how it is never left frozen: the refusal rules
   (one table of pure tests over a program's facts), the programs a part names, and the guardian
   child that thaws them when their owner vanishes or the deadline passes. */
#include "freeze.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threadsoup/units.h"

/* ---- the rules ---- */

/* The first n bytes of a and b are the same letters, ignoring ASCII case. */
static int same_letters(const char *a, const char *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
      return 0;
  return 1;
}

/* Whether `name` is `entry`, ignoring ASCII case and a ".exe" either carries; an entry ending in
   '*' matches every name it begins. The lists hold both systems' names: neither has the other's. */
static int name_is(const char *name, const char *entry) {
  size_t n = strlen(name), e = strlen(entry);
  if (n >= 4 && same_letters(name + n - 4, ".exe", 4))
    n -= 4;
  if (e > 0 && entry[e - 1] == '*')
    return n >= e - 1 && same_letters(name, entry, e - 1);
  return n == e && same_letters(name, entry, n);
}

static int name_in(const char *name, const char *const *list) {
  for (size_t i = 0; name && list[i]; i++)
    if (name_is(name, list[i]))
      return 1;
  return 0;
}

/* Windows' session and service managers and the kernel's own; Linux's init and its helpers. */
static const char *const os_critical_names[] = {
    "System",        "Idle",        "System Idle Process",
    "Secure System", "Registry",    "Memory Compression",
    "smss",          "csrss",       "wininit",
    "winlogon",      "services",    "lsass",
    "lsaiso",        "svchost",     "fontdrvhost",
    "init",          "systemd*",    "kthreadd",
    "dbus-daemon",   "dbus-broker", NULL};
/* What draws the desktop: Windows' window manager and shell; Linux's X and Wayland servers and
   desktop shells. Freezing them freezes the screen the user would thaw it from. */
static const char *const desktop_names[] = {"dwm",
                                            "explorer",
                                            "sihost",
                                            "ShellExperienceHost",
                                            "StartMenuExperienceHost",
                                            "ctfmon",
                                            "Xorg",
                                            "X",
                                            "Xwayland",
                                            "gnome-shell",
                                            "kwin_wayland",
                                            "kwin_x11",
                                            "plasmashell",
                                            "mutter",
                                            "sway",
                                            "weston",
                                            "Hyprland",
                                            "gdm*",
                                            "sddm",
                                            "lightdm",
                                            NULL};
/* How the machine is reached from elsewhere. */
static const char *const remote_names[] = {"sshd", "sshd-session", "TermService", NULL};
/* Security products: Windows Security's and the common antivirus programs'. */
static const char *const security_names[] = {"MsMpEng",
                                             "NisSrv",
                                             "SecurityHealthService",
                                             "SecurityHealthSystray",
                                             "MsSense",
                                             "SenseIR",
                                             "MpDefenderCoreService",
                                             "avp",
                                             "avgsvc",
                                             "AvastSvc",
                                             "AvastUI",
                                             "ekrn",
                                             "egui",
                                             "mbamservice",
                                             "MBAMService",
                                             "bdagent",
                                             "vsserv",
                                             "bdservicehost",
                                             "mcshield",
                                             "mfemms",
                                             "ccSvcHst",
                                             "SavService",
                                             "SophosHealth",
                                             "CSFalconService",
                                             "falcon-sensor",
                                             "SentinelAgent",
                                             "clamd",
                                             "freshclam",
                                             "wdavdaemon",
                                             NULL};

static int refuses_os_critical(const freeze_facts *f) {
  return f->pid <= 1 || name_in(f->name, os_critical_names);
}
static int refuses_desktop(const freeze_facts *f) { return name_in(f->name, desktop_names); }
static int refuses_remote(const freeze_facts *f) { return name_in(f->name, remote_names); }
static int refuses_threadsoup(const freeze_facts *f) {
  return f->is_ours || name_is(f->name ? f->name : "", "threadsoup*");
}
static int refuses_above_us(const freeze_facts *f) { return f->is_above_us; }
static int refuses_security(const freeze_facts *f) { return name_in(f->name, security_names); }
static int refuses_member(const freeze_facts *f) { return f->member_only && !f->same_user; }
static int refuses_other_user(const freeze_facts *f) { return !f->same_user && !f->privileged; }

const freeze_rule freeze_rules[] = {
    {"os-critical", "the operating system's own processes (init, systemd, csrss, lsass, ...)",
     refuses_os_critical},
    {"desktop",
     "the display server and the desktop shell (Xorg, Xwayland, gnome-shell, dwm, "
     "explorer, ...)",
     refuses_desktop},
    {"remote-access", "the way into this machine from elsewhere (sshd)", refuses_remote},
    {"threadsoup", "ThreadSoup itself and the programs it started", refuses_threadsoup},
    {"our-terminal", "the terminal, shell or service host ThreadSoup runs in", refuses_above_us},
    {"security", "security products (Microsoft Defender, Windows Security, antivirus programs)",
     refuses_security},
    {"own-programs-only",
     "a member of ThreadSoup Users (group threadsoup) freezes only its own programs",
     refuses_member},
    {"another-user", "another user's programs (root or an elevated administrator may freeze them)",
     refuses_other_user},
    {NULL, NULL, NULL},
};

const freeze_rule *freeze_refusal(const freeze_facts *f) {
  for (size_t i = 0; freeze_rules[i].name; i++)
    if (freeze_rules[i].refuses(f))
      return &freeze_rules[i];
  return NULL;
}

/* ---- the programs a part names ---- */

static const plat_process_census *find_pid(const plat_process_census *list, long count, long pid) {
  for (long i = 0; i < count; i++)
    if (list[i].pid == pid)
      return &list[i];
  return NULL;
}

/* Whether `pid` is a process this one runs under: its parent, that one's parent, and so on. */
static int is_above_us(const plat_process_census *list, long count, long pid) {
  const plat_process_census *p = find_pid(list, count, plat_self_pid());
  for (int depth = 0; p && depth < 64; depth++) {
    if (p->parent_pid == pid)
      return 1;
    if (p->parent_pid <= 0 || p->parent_pid == p->pid)
      break;
    p = find_pid(list, count, p->parent_pid);
  }
  return 0;
}

/* Checks one program against the rules and adds it to the targets. */
static int add_target(const plat_process_census *list, long count, const plat_process_census *p,
                      freeze_target *out, int max, int *n, ts_err *err) {
  long self = plat_self_pid();
  freeze_facts f = {.pid = p->pid,
                    .name = p->name,
                    .is_ours = p->pid == self || p->parent_pid == self,
                    .is_above_us = is_above_us(list, count, p->pid),
                    .privileged = plat_self_privileged()};
  if (plat_process_same_user(p->pid, &f.same_user, err) != TS_OK)
    return err->code;
  const freeze_rule *rule = freeze_refusal(&f);
  if (rule)
    return ts_err_set(err, TS_EDENIED, "freeze: '%s' (pid %ld) may not be frozen, by rule %s: %s",
                      p->name, p->pid, rule->name, rule->why);
  if (*n == max)
    return ts_err_set(err, TS_EINVAL, "freeze: more than %d programs match (at most %d a part)",
                      max, max);
  out[*n].pid = p->pid;
  snprintf(out[*n].name, sizeof out[*n].name, "%s", p->name);
  (*n)++;
  return TS_OK;
}

static int all_digits(const char *text) {
  if (!*text)
    return 0;
  for (const char *c = text; *c; c++)
    if (!isdigit((unsigned char)*c))
      return 0;
  return 1;
}

int freeze_find_targets(const char *wanted, freeze_target *out, int max, int *count, ts_err *err) {
  *count = 0;
  plat_process_census *list;
  long listed;
  int rc = plat_census_processes(&list, &listed, err);
  if (rc != TS_OK)
    return ts_err_prefix(err, "freeze");
  int by_pid = all_digits(wanted);
  long pid = by_pid ? strtol(wanted, NULL, 10) : -1;
  for (long i = 0; rc == TS_OK && i < listed; i++)
    if (by_pid ? list[i].pid == pid : plat_process_name_matches(list[i].name, wanted))
      rc = add_target(list, listed, &list[i], out, max, count, err);
  free(list);
  if (rc == TS_OK && *count == 0)
    rc = by_pid ? ts_err_set(err, TS_EINVAL, "freeze: no process %ld is running", pid)
                : ts_err_set(err, TS_EINVAL,
                             "freeze: no program named '%s' is running (accepted: a running "
                             "program's executable name or pid, as `threadsoup census` lists "
                             "them)",
                             wanted);
  return rc;
}

static int is_freeze(const load_part *part) { return strcmp(part->scenario->name, "freeze") == 0; }

int freeze_spec_has(const load_spec *spec) {
  for (int i = 0; i < spec->part_count; i++)
    if (is_freeze(&spec->parts[i]))
      return 1;
  return 0;
}

int freeze_spec_targets(const load_spec *spec, freeze_target *out, int max, int *count,
                        ts_err *err) {
  *count = 0;
  for (int i = 0; i < spec->part_count; i++) {
    if (!is_freeze(&spec->parts[i]))
      continue;
    int found;
    int rc = freeze_find_targets(LOAD_PARAMS(&spec->parts[i], freeze_params)->target, out + *count,
                                 max - *count, &found, err);
    if (rc != TS_OK)
      return rc;
    *count += found;
  }
  return TS_OK;
}

/* ---- the guardian ---- */

int freeze_guard_start(const freeze_target *targets, int count, uint64_t max_ns, plat_proc *guard,
                       ts_err *err) {
  char dir[PLAT_PATH_MAX], name[64], program[PLAT_PATH_MAX + 80];
  int rc = plat_program_dir(dir, sizeof dir, err);
  if (rc != TS_OK)
    return rc;
  plat_program_name("threadsoup", name, sizeof name);
  snprintf(program, sizeof program, "%s%c%s", dir, plat_path_separator(), name);
  char owner[24], max_ms[24], pids[FREEZE_TARGET_MAX][24];
  const char *argv[6 + FREEZE_TARGET_MAX + 1];
  int n = 0;
  snprintf(owner, sizeof owner, "%ld", plat_self_pid());
  snprintf(max_ms, sizeof max_ms, "%llu", (unsigned long long)(max_ns / TS_NS_PER_MS));
  argv[n++] = program;
  argv[n++] = "freeze-guard";
  argv[n++] = owner;
  argv[n++] = max_ms;
  for (int i = 0; i < count && i < FREEZE_TARGET_MAX; i++) {
    snprintf(pids[i], sizeof pids[i], "%ld", targets[i].pid);
    argv[n++] = pids[i];
  }
  argv[n] = NULL;
  rc = plat_proc_spawn(guard, argv, err);
  return rc == TS_OK ? TS_OK : ts_err_prefix(err, "freeze: the guardian");
}

void freeze_guard_stop(plat_proc *guard) {
  ts_err ignored;
  int code;
  plat_proc_kill(guard, &ignored); /* it may have ended at its deadline: then it is reaped */
  plat_proc_wait(guard, &code, &ignored);
}

int freeze_guard_main(long owner, uint64_t max_ns, const long *pids, int count) {
  plat_owner_wait_gone(owner, max_ns);
  int failed = 0;
  ts_err err;
  for (int i = 0; i < count; i++)
    failed += plat_process_thaw(pids[i], &err) != TS_OK;
  return failed;
}
