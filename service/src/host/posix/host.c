/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* host.c (POSIX) - the service as a Linux daemon: runs in the foreground for systemd (see
   installer/threadsoup.service), stops on SIGTERM, SIGINT or SIGHUP, and is installed and
   controlled through systemctl. */
#define _GNU_SOURCE
#include "../host.h"

#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "threadsoup/units.h"

typedef struct signal_watch {
  server *svc;
  sigset_t set;
} signal_watch;

/* The one thread that takes the stop signals: sigwait, not a handler, so server_request_stop runs
   in an ordinary thread. SIGUSR1 is only how the host ends this thread after a stop. */
static void *signal_main(void *arg) {
  signal_watch *w = arg;
  int sig = 0;
  while (sigwait(&w->set, &sig) == 0) {
    if (sig == SIGUSR1)
      break;
    char reason[64];
    snprintf(reason, sizeof reason, "signal %s",
             sig == SIGTERM  ? "SIGTERM"
             : sig == SIGINT ? "SIGINT"
                             : "SIGHUP");
    server_request_stop(w->svc, reason);
  }
  return NULL;
}

int host_run(const server_config *config, int console, ts_err *err) {
  (void)console; /* systemd runs services in the foreground too */
  signal_watch watch;
  sigemptyset(&watch.set);
  sigaddset(&watch.set, SIGTERM);
  sigaddset(&watch.set, SIGINT);
  sigaddset(&watch.set, SIGHUP);
  sigaddset(&watch.set, SIGUSR1);
  /* Blocked before any thread exists, so every thread inherits the block and only sigwait sees
     them. */
  pthread_sigmask(SIG_BLOCK, &watch.set, NULL);
  const char *address = config->address[0] ? config->address : plat_ipc_default_address();
  char folder[PLAT_PATH_MAX];
  plat_path_dirname(address, folder, sizeof folder);
  if (folder[0] && plat_mkdir_p(folder, err) != TS_OK)
    return err->code;
  int rc = server_create(&watch.svc, config, err);
  if (rc != TS_OK)
    return rc;
  pthread_t watcher;
  if (pthread_create(&watcher, NULL, signal_main, &watch) != 0) {
    server_destroy(watch.svc);
    return ts_err_set(err, TS_EOS, "cannot start the signal watcher");
  }
  server_serve(watch.svc);
  pthread_kill(watcher, SIGUSR1);
  pthread_join(watcher, NULL);
  server_destroy(watch.svc);
  return TS_OK;
}

static int have_systemd(ts_err *err) {
  if (access("/run/systemd/system", F_OK) == 0)
    return TS_OK;
  return ts_err_set(err, TS_EUNSUPPORTED,
                    "systemd is not running on this machine: run the daemon with 'threadsoup "
                    "service run' (it stops on SIGTERM), or use installer/threadsoup.service "
                    "with your init system");
}

static int systemctl(const char *verb, ts_err *err) {
  const char *argv[] = {"systemctl", verb, "threadsoup.service", NULL};
  char output[2048];
  size_t length = 0;
  int code = 0;
  int rc = have_systemd(err);
  if (rc == TS_OK)
    rc = plat_proc_run(argv, NULL, output, sizeof output, &length, TS_NS_PER_MIN, &code, err);
  if (rc == TS_OK && code != 0)
    rc = ts_err_set(err, TS_EOS, "systemctl %s threadsoup.service failed (exit %d): %s", verb, code,
                    output);
  return rc;
}

int host_install(const char *program, ts_err *err) {
  int rc = have_systemd(err);
  if (rc != TS_OK)
    return rc;
  FILE *f = fopen("/etc/systemd/system/threadsoup.service", "w");
  if (!f)
    return ts_err_set(err, TS_EOS, "cannot write /etc/systemd/system/threadsoup.service: %s",
                      strerror(errno));
  fprintf(f,
          "# Written by threadsoup service install.\n"
          "[Unit]\nDescription=%s\nAfter=local-fs.target\n\n"
          "[Service]\nType=simple\nExecStart=%s service run\nRestart=on-failure\nRestartSec=5\n"
          "RuntimeDirectory=threadsoup\nStateDirectory=threadsoup\nStateDirectoryMode=0755\n"
          "TasksMax=infinity\n"
          "KillMode=mixed\nTimeoutStopSec=60\n\n[Install]\nWantedBy=multi-user.target\n",
          HOST_DESCRIPTION, program);
  fclose(f);
  const char *reload[] = {"systemctl", "daemon-reload", NULL};
  char output[1024];
  size_t length;
  int code;
  plat_proc_run(reload, NULL, output, sizeof output, &length, TS_NS_PER_MIN, &code, err);
  return systemctl("enable", err);
}

/* Runs argv (groupadd, usermod) and says what failed. */
static int run_tool(const char *const *argv, const char *what, ts_err *err) {
  char output[1024];
  size_t length = 0;
  int code = 0;
  int rc = plat_proc_run(argv, NULL, output, sizeof output, &length, TS_NS_PER_MIN, &code, err);
  if (rc == TS_OK && code != 0)
    rc = ts_err_set(err, TS_EOS, "%s: %s failed (exit %d): %s", what, argv[0], code, output);
  return rc;
}

static void add_said(char *said, size_t len, const char *text) {
  size_t used = strlen(said);
  if (used < len)
    snprintf(said + used, len - used, "%s%s", used ? "; " : "", text);
}

int host_users_group(const char *member, char *said, size_t len, ts_err *err) {
  said[0] = '\0';
  int rc = TS_OK;
  if (getgrnam("threadsoup")) {
    add_said(said, len, "group threadsoup exists");
  } else {
    const char *argv[] = {"groupadd", "--system", "threadsoup", NULL};
    rc = run_tool(argv, "cannot create group threadsoup", err);
    if (rc != TS_OK)
      return rc;
    add_said(said, len, "created group threadsoup");
  }
  if (!member)
    return TS_OK;
  const char *user = member;
  if (!user[0]) {
    /* `sudo threadsoup service install`: the user who asked. */
    user = getenv("SUDO_USER");
    if (!user || !user[0] || strcmp(user, "root") == 0) {
      add_said(said, len, "no user added (not run through sudo)");
      return TS_OK;
    }
  }
  const char *argv[] = {"usermod", "-a", "-G", "threadsoup", user, NULL};
  char what[200];
  snprintf(what, sizeof what, "cannot add %s to group threadsoup", user);
  rc = run_tool(argv, what, err);
  if (rc == TS_OK) {
    snprintf(what, sizeof what,
             "added %s to group threadsoup (it counts from that user's next login)", user);
    add_said(said, len, what);
  }
  return rc;
}

int host_uninstall(ts_err *err) {
  systemctl("stop", err);
  int rc = systemctl("disable", err);
  unlink("/etc/systemd/system/threadsoup.service");
  return rc;
}

int host_start(ts_err *err) { return systemctl("start", err); }
int host_stop(ts_err *err) { return systemctl("stop", err); }

int host_query(char *state, size_t len, ts_err *err) {
  const char *argv[] = {"systemctl", "is-active", "threadsoup.service", NULL};
  size_t length = 0;
  int code = 0;
  int rc = have_systemd(err);
  if (rc == TS_OK)
    rc = plat_proc_run(argv, NULL, state, len, &length, 30 * TS_NS_PER_S, &code, err);
  if (rc == TS_OK)
    state[strcspn(state, "\n")] = '\0';
  return rc;
}
