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
  return f->pid <= 1 || name_in(f->name, os_critical_names) ||
         (f->parent_name && name_is(f->parent_name, "kthreadd"));
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
    {"os-critical",
     "the operating system's own processes (init, systemd, the kernel's threads, csrss, lsass, "
     "...)",
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

/* The first rule that refuses program `p` to `asker` (NULL: this process's user), in *rule. A
   client of the service that may not run programs is a member of ThreadSoup Users: only root,
   SYSTEM and elevated administrators have more. */
static int judge(const plat_process_census *list, long count, const plat_process_census *p,
                 const plat_peer *asker, const freeze_rule **rule, ts_err *err) {
  long self = plat_self_pid();
  const plat_process_census *parent = find_pid(list, count, p->parent_pid);
  freeze_facts f = {.pid = p->pid,
                    .name = p->name,
                    .parent_name = parent ? parent->name : "",
                    .is_ours = p->pid == self || p->parent_pid == self,
                    .is_above_us = is_above_us(list, count, p->pid),
                    .privileged = asker ? asker->may_run_programs : plat_self_privileged(),
                    .member_only = asker && !asker->may_run_programs};
  if (plat_process_owned_by(p->pid, asker, &f.same_user, err) != TS_OK)
    return err->code;
  *rule = freeze_refusal(&f);
  return TS_OK;
}

/* Checks one program against the rules and adds it to the targets. */
static int add_target(const plat_process_census *list, long count, const plat_process_census *p,
                      const plat_peer *asker, freeze_target *out, int max, int *n, ts_err *err) {
  const freeze_rule *rule;
  if (judge(list, count, p, asker, &rule, err) != TS_OK)
    return err->code;
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

int freeze_find_targets(const char *wanted, const plat_peer *asker, freeze_target *out, int max,
                        int *count, ts_err *err) {
  *count = 0;
  if (strcmp(wanted, FREEZE_BACKGROUND) == 0)
    return ts_err_set(err, TS_EUSAGE,
                      "freeze:background is chosen when a run starts (the plan's conditions, run "
                      "--background): a load freezes a program by its executable name or pid");
  plat_process_census *list;
  long listed;
  int rc = plat_census_processes(&list, &listed, err);
  if (rc != TS_OK)
    return ts_err_prefix(err, "freeze");
  int by_pid = all_digits(wanted);
  long pid = by_pid ? strtol(wanted, NULL, 10) : -1;
  for (long i = 0; rc == TS_OK && i < listed; i++)
    if (by_pid ? list[i].pid == pid : plat_process_name_matches(list[i].name, wanted))
      rc = add_target(list, listed, &list[i], asker, out, max, count, err);
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

int freeze_spec_targets(const load_spec *spec, const plat_peer *asker, freeze_target *out, int max,
                        int *count, ts_err *err) {
  *count = 0;
  for (int i = 0; i < spec->part_count; i++) {
    if (!is_freeze(&spec->parts[i]))
      continue;
    int found;
    int rc = freeze_find_targets(LOAD_PARAMS(&spec->parts[i], freeze_params)->target, asker,
                                 out + *count, max - *count, &found, err);
    if (rc != TS_OK)
      return rc;
    *count += found;
  }
  return TS_OK;
}

/* ---- freeze:background: the programs that wake most ---- */

/* What a program's name may not hold to stand in a spec as freeze:NAME: the characters that
   separate a spec's parts and options, and those the program option refuses. */
#define FREEZE_NAME_UNSPEAKABLE " \t\\\"'+@:/"

int freeze_spec_background(const load_spec *spec, int *is_background, int *top, ts_err *err) {
  *is_background = 0;
  *top = FREEZE_BACKGROUND_TOP;
  for (int i = 0; i < spec->part_count; i++) {
    const freeze_params *p = LOAD_PARAMS(&spec->parts[i], freeze_params);
    if (!is_freeze(&spec->parts[i]) || strcmp(p->target, FREEZE_BACKGROUND) != 0)
      continue;
    if (spec->part_count > 1)
      return ts_err_set(err, TS_EUSAGE,
                        "'%s': freeze:background stands for several conditions of its own (each "
                        "program that wakes most frozen alone, then all together): give it as a "
                        "condition alone",
                        spec->text);
    *is_background = 1;
    *top = p->top ? p->top : FREEZE_BACKGROUND_TOP;
  }
  return TS_OK;
}

/* The same process in the earlier list: same pid and same name (a pid may be reused). */
static const plat_process_census *earlier(const plat_process_census *list, long count,
                                          const plat_process_census *p) {
  const plat_process_census *q = find_pid(list, count, p->pid);
  return q && strcmp(q->name, p->name) == 0 ? q : NULL;
}

static freeze_waker *waker_named(freeze_waker *w, int count, const char *name) {
  for (int i = 0; i < count; i++)
    if (strcmp(w[i].name, name) == 0)
      return &w[i];
  return NULL;
}

static int by_wakeups_descending(const void *a, const void *b) {
  double x = ((const freeze_waker *)a)->wakeups_per_s, y = ((const freeze_waker *)b)->wakeups_per_s;
  return (x < y) - (x > y);
}

/* Names every process of which the rules let `asker` freeze, with the wake-ups of `now` over
   `before` summed per name; a name with one refused process is refused (freeze:NAME would be). */
static int rate_wakers(const plat_process_census *before, long n0, const plat_process_census *now,
                       long n1, double seconds, const plat_peer *asker, freeze_waker *w, int *count,
                       int *skipped, ts_err *err) {
  char *refused = calloc((size_t)(n1 > 0 ? n1 : 1), 1);
  if (!refused)
    return ts_err_set(err, TS_ENOMEM, "freeze:background: no memory");
  *count = *skipped = 0;
  for (long i = 0; i < n1; i++) {
    const freeze_rule *rule;
    ts_err gone;
    /* A process that ended meanwhile is judged by none: it is not there to freeze. */
    refused[i] = judge(now, n1, &now[i], asker, &rule, &gone) != TS_OK || rule != NULL ||
                 strpbrk(now[i].name, FREEZE_NAME_UNSPEAKABLE) != NULL ||
                 strlen(now[i].name) >= sizeof(((freeze_params *)0)->target) ||
                 strcmp(now[i].name, FREEZE_BACKGROUND) == 0;
  }
  for (long i = 0; i < n1; i++) {
    if (waker_named(w, *count, now[i].name))
      continue;
    int refuse = 0, processes = 0;
    double wakeups = 0;
    for (long k = i; k < n1; k++) {
      if (strcmp(now[k].name, now[i].name) != 0)
        continue;
      refuse |= refused[k];
      processes++;
      const plat_process_census *b = earlier(before, n0, &now[k]);
      if (b && now[k].context_switches >= b->context_switches)
        wakeups += (double)(now[k].context_switches - b->context_switches) / seconds;
    }
    freeze_waker *slot = &w[(*count)++]; /* every name once, refused ones too (marked) */
    snprintf(slot->name, sizeof slot->name, "%s", now[i].name);
    slot->wakeups_per_s = refuse ? -1 : wakeups;
    slot->processes = processes;
    *skipped += refuse;
  }
  free(refused);
  return TS_OK;
}

int freeze_background_find(int top, const plat_peer *asker, uint64_t sample_ns, freeze_waker *out,
                           int *count, int *skipped, ts_err *err) {
  *count = *skipped = 0;
  plat_process_census *l0 = NULL, *l1 = NULL;
  long n0 = 0, n1 = 0;
  uint64_t t0 = plat_clock_ns();
  int rc = plat_census_processes(&l0, &n0, err);
  if (rc == TS_OK) {
    plat_sleep_ns(sample_ns);
    rc = plat_census_processes(&l1, &n1, err);
  }
  double seconds = (double)(plat_clock_ns() - t0) / TS_NS_PER_S;
  freeze_waker *w = rc == TS_OK ? calloc((size_t)(n1 > 0 ? n1 : 1), sizeof *w) : NULL;
  if (rc == TS_OK && !w)
    rc = ts_err_set(err, TS_ENOMEM, "freeze:background: no memory");
  int named = 0;
  if (rc == TS_OK)
    rc = rate_wakers(l0, n0, l1, n1, seconds, asker, w, &named, skipped, err);
  if (rc == TS_OK) {
    qsort(w, (size_t)named, sizeof *w, by_wakeups_descending);
    for (int i = 0; i < named && *count < top && w[i].wakeups_per_s > 0; i++)
      out[(*count)++] = w[i];
    if (*count == 0)
      rc = ts_err_set(err, TS_EINVAL,
                      "freeze:background: no program woke up during the %.1f s census that may "
                      "be frozen (%d of %d programs are refused by the freeze rules: the "
                      "system's, the desktop's, security products, ThreadSoup and its terminal, "
                      "and other users' programs unless root or an elevated administrator asks)",
                      seconds, *skipped, named);
  } else {
    ts_err_prefix(err, "freeze:background");
  }
  free(w);
  free(l0);
  free(l1);
  return rc;
}

int freeze_background_conditions(const load_spec *background, const freeze_waker *wakers, int count,
                                 load_spec *out, int max, int *made, ts_err *err) {
  *made = 0;
  int together = count > 1;
  if (count + together > max)
    return ts_err_set(err, TS_EINVAL,
                      "'%s' stands for %d conditions, more than the plan has room for (%d)",
                      background->text, count + together, max);
  load_spec *all = &out[count];
  if (together) {
    memset(all, 0, sizeof *all);
    all->part_count = count;
  }
  for (int i = 0; i < count; i++) {
    load_part part = background->parts[0];
    freeze_params *p = (freeze_params *)(void *)part.params.bytes;
    snprintf(p->target, sizeof p->target, "%s", wakers[i].name);
    p->top = 0;
    memset(&out[i], 0, sizeof out[i]);
    out[i].part_count = 1;
    out[i].parts[0] = part;
    if (together)
      all->parts[i] = part;
    int rc = load_spec_format(&out[i], err);
    if (rc != TS_OK)
      return rc;
  }
  if (together) {
    int rc = load_spec_format(all, err);
    if (rc != TS_OK)
      return ts_err_prefix(err, "freeze:background, all %d programs together", count);
  }
  *made = count + together;
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
  rc = plat_helper_spawn(guard, argv, err);
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
