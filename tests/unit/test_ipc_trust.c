/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_ipc_trust.c - a client talks only to ThreadSoup's service: the decision on a table of
   servers (LocalSystem, an administrator, a squatting user, another uid), a real server run by
   another user that a root client refuses before sending anything (POSIX), and the pipe's DACL as
   Windows keeps it: no one but SYSTEM and Administrators may add instances of the pipe.
   Usage: test_ipc_trust ADDRESS (a pipe name on Windows; a folder for sockets on POSIX). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../shared/src/plat/server_check.h"
#include "check.h"
#include "threadsoup/plat.h"

#ifdef _WIN32
#include <windows.h>

#include <aclapi.h>
#else
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

static const char *address;

/* ---- the decision, on injected facts -----------------------------------------------------------
 */

typedef struct trust_case {
  const char *what;
  server_facts facts;
  int trusted;
  const char *reason; /* part of the refusal */
} trust_case;

static void decision_table(void) {
  static const trust_case cases[] = {
      {"Windows: the service as LocalSystem", {1, 1, 1, 0, 1, 1, 0, 0, 0, 0, "pid 4"}, 1, ""},
      {"Windows: --console by an elevated administrator",
       {1, 1, 0, 1, 1, 1, 0, 0, 0, 0, "pid 5"},
       1,
       ""},
      {"Windows: a user who created the pipe first (owner is the user)",
       {1, 1, 0, 0, 1, 0, 0, 0, 0, 0, "pid 6, user PC\\mallory"},
       0,
       "neither LocalSystem"},
      {"Windows: a filtered (not elevated) administrator",
       {1, 1, 0, 0, 1, 1, 0, 0, 0, 0, "pid 7, user PC\\admin"},
       0,
       "PC\\admin"},
      {"Windows: token closed to us, pipe owned by Administrators",
       {1, 0, 0, 0, 1, 1, 0, 0, 0, 0, "pid 8"},
       1,
       ""},
      {"Windows: token closed to us, pipe owned by another user",
       {1, 0, 0, 0, 1, 0, 0, 0, 0, 0, "pid 9"},
       0,
       "owned by another account"},
      {"Windows: nothing readable", {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, ""}, 0, "unknown owner"},
      {"POSIX default socket: root", {0, 0, 0, 0, 0, 0, 1, 0, 0, 1000, ""}, 1, ""},
      {"POSIX default socket: the caller's own uid is not enough",
       {0, 0, 0, 0, 0, 0, 1, 1000, 1000, 1000, "pid 3, user bob (uid 1000)"},
       0,
       "expected root (the service's own socket)"},
      {"POSIX default socket: root listens, file owned by a user",
       {0, 0, 0, 0, 0, 0, 1, 0, 1000, 1000, ""},
       0,
       "socket file belongs to uid 1000"},
      {"POSIX --socket: root", {0, 0, 0, 0, 0, 0, 0, 0, 0, 1000, ""}, 1, ""},
      {"POSIX --socket: the caller's own uid", {0, 0, 0, 0, 0, 0, 0, 1000, 1000, 1000, ""}, 1, ""},
      {"POSIX --socket: another user (nobody) to a root client",
       {0, 0, 0, 0, 0, 0, 0, 65534, 65534, 0, "pid 9, user nobody (uid 65534)"},
       0,
       "user nobody"},
      {"POSIX --socket: our uid listens in a file another user owns",
       {0, 0, 0, 0, 0, 0, 0, 1000, 1001, 1000, ""},
       0,
       "uid 1001"},
      {"POSIX: no credentials", {0, 0, 0, 0, 0, 0, 0, -1, 0, 0, ""}, 0, "cannot tell"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char reason[300];
    int got = server_trusted(&cases[i].facts, reason, sizeof reason);
    if (got != cases[i].trusted)
      fprintf(stderr, "  %s: trusted=%d, expected %d (%s)\n", cases[i].what, got, cases[i].trusted,
              reason);
    CHECK_INT(got, cases[i].trusted);
    if (!cases[i].trusted) {
      CHECK_STR_CONTAINS(reason, cases[i].reason);
      CHECK_STR_CONTAINS(reason, "nothing was sent");
    } else {
      CHECK_INT(reason[0], 0);
    }
  }
}

#ifdef _WIN32

/* ---- Windows: the pipe's DACL read back -------------------------------------------------------
 */

static void dacl_grants_no_instance_creation(void) {
  plat_ipc_server *server = NULL;
  ts_err err;
  REQUIRE(plat_ipc_listen(&server, address, &err) == TS_OK);
  wchar_t name[256];
  MultiByteToWideChar(CP_UTF8, 0, address, -1, name, 256);
  /* Opened as a client opens it: read and write data only. */
  HANDLE h =
      CreateFileW(name, FILE_GENERIC_READ | FILE_WRITE_DATA, 0, NULL, OPEN_EXISTING, 0, NULL);
  CHECK(h != INVALID_HANDLE_VALUE);
  PACL dacl = NULL;
  PSECURITY_DESCRIPTOR sd = NULL;
  DWORD got = h == INVALID_HANDLE_VALUE
                  ? ERROR_INVALID_HANDLE
                  : GetSecurityInfo(h, SE_KERNEL_OBJECT, DACL_SECURITY_INFORMATION, NULL, NULL,
                                    &dacl, NULL, &sd);
  CHECK_INT(got, ERROR_SUCCESS);
  int authenticated_seen = 0, others = 0;
  for (DWORD i = 0; got == ERROR_SUCCESS && dacl && i < dacl->AceCount; i++) {
    ACCESS_ALLOWED_ACE *ace;
    if (!GetAce(dacl, i, (void **)&ace) || ace->Header.AceType != ACCESS_ALLOWED_ACE_TYPE)
      continue;
    PSID sid = (PSID)&ace->SidStart;
    if (IsWellKnownSid(sid, WinLocalSystemSid) || IsWellKnownSid(sid, WinBuiltinAdministratorsSid))
      continue;
    /* Whoever else is granted anything (authenticated users, any user) may not create instances:
       FILE_CREATE_PIPE_INSTANCE, GENERIC_WRITE or GENERIC_ALL. */
    CHECK_INT(ace->Mask & (FILE_CREATE_PIPE_INSTANCE | GENERIC_WRITE | GENERIC_ALL), 0);
    /* Authenticated Users, not INTERACTIVE: a scheduled task, a service account and an SSH
       session read status too (docs/protocol.md). */
    if (IsWellKnownSid(sid, WinAuthenticatedUserSid)) {
      authenticated_seen = 1;
      CHECK_INT(ace->Mask, FILE_GENERIC_READ | FILE_WRITE_DATA);
    } else {
      others++;
    }
  }
  CHECK_INT(authenticated_seen, 1);
  CHECK_INT(others, 0);
  if (sd)
    LocalFree(sd);
  if (h != INVALID_HANDLE_VALUE)
    CloseHandle(h);
  plat_ipc_server_close(server);
  plat_ipc_server_free(server);
}

/* The client's check passes for a server that is an elevated administrator (Wine runs every
   program as one), and the connection it opens carries exactly the rights users are granted. */
static void client_accepts_an_administrator(void) {
  plat_ipc_server *server = NULL;
  ts_err err;
  REQUIRE(plat_ipc_listen(&server, address, &err) == TS_OK);
  plat_ipc_conn *conn = NULL;
  int rc = plat_ipc_connect(&conn, address, &err);
  if (rc != TS_OK)
    fprintf(stderr, "  %s\n", err.text);
  CHECK_INT(rc, TS_OK);
  plat_ipc_close(conn);
  plat_ipc_server_close(server);
  plat_ipc_server_free(server);
}

#else

/* ---- POSIX: a real server run by another user -------------------------------------------------
 */

/* The child: becomes nobody, listens at `path`, accepts one client and reports how many bytes it
   sent before leaving (on `report`). */
static void squatter_main(const char *path, int ready, int report) {
  if (setgid(65534) != 0 || setuid(65534) != 0)
    _exit(3);
  plat_ipc_server *server = NULL;
  plat_ipc_conn *conn = NULL;
  ts_err err;
  if (plat_ipc_listen(&server, path, &err) != TS_OK)
    _exit(4);
  chmod(path, 0666); /* open to root's client whatever the umask */
  if (write(ready, "r", 1) != 1)
    _exit(5);
  if (plat_ipc_accept(server, &conn, &err) != TS_OK)
    _exit(6);
  long total = 0;
  char buf[256];
  size_t got = 0;
  while (plat_ipc_recv(conn, buf, sizeof buf, &got, &err) == TS_OK && got > 0)
    total += (long)got;
  char line[32];
  int n = snprintf(line, sizeof line, "%ld", total);
  if (write(report, line, (size_t)n) != n)
    _exit(7);
  _exit(0);
}

static int read_with_timeout(int fd, char *buf, size_t cap, int ms) {
  struct pollfd p = {fd, POLLIN, 0};
  if (poll(&p, 1, ms) <= 0)
    return -1;
  ssize_t n = read(fd, buf, cap - 1);
  if (n < 0)
    return -1;
  buf[n] = '\0';
  return (int)n;
}

static void root_refuses_a_socket_of_another_user(void) {
  if (geteuid() != 0) {
    fprintf(stderr, "  skipped: only root can start a server as another user\n");
    return;
  }
  char folder[] = "/tmp/ts-trust-XXXXXX";
  REQUIRE(mkdtemp(folder) != NULL);
  chmod(folder, 0777);
  char path[128];
  snprintf(path, sizeof path, "%s/squat.sock", folder);
  int ready[2], report[2];
  REQUIRE(pipe(ready) == 0 && pipe(report) == 0);
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(ready[0]);
    close(report[0]);
    squatter_main(path, ready[1], report[1]);
  }
  close(ready[1]);
  close(report[1]);
  char buf[64];
  CHECK(read_with_timeout(ready[0], buf, sizeof buf, 10000) == 1);

  struct stat st;
  CHECK(stat(path, &st) == 0 && st.st_uid == 65534);
  plat_ipc_conn *conn = NULL;
  ts_err err;
  int rc = plat_ipc_connect(&conn, path, &err);
  CHECK_INT(rc, TS_EDENIED);
  CHECK_STR_CONTAINS(err.text, "uid 65534");
  CHECK_STR_CONTAINS(err.text, "nothing was sent");
  if (rc == TS_OK)
    plat_ipc_close(conn);
  /* The squatter was connected to, and got not one byte. */
  CHECK(read_with_timeout(report[0], buf, sizeof buf, 10000) > 0);
  CHECK_STR_CONTAINS(buf, "0");
  CHECK_INT(atoi(buf), 0);
  kill(child, SIGKILL);
  waitpid(child, NULL, 0);
  close(ready[0]);
  close(report[0]);
  unlink(path);
  rmdir(folder);
}

/* The same user's own server at a --socket address is accepted. */
static void own_socket_is_accepted(void) {
  char path[1024];
  snprintf(path, sizeof path, "%s/own.sock", address);
  plat_ipc_server *server = NULL;
  ts_err err;
  REQUIRE(plat_ipc_listen(&server, path, &err) == TS_OK);
  plat_ipc_conn *conn = NULL;
  int rc = plat_ipc_connect(&conn, path, &err);
  if (rc != TS_OK)
    fprintf(stderr, "  %s\n", err.text);
  CHECK_INT(rc, TS_OK);
  plat_ipc_close(conn);
  plat_ipc_server_close(server);
  plat_ipc_server_free(server);
}

#endif

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_ipc_trust ADDRESS\n");
    return 2;
  }
  address = argv[1];
  RUN_CASE(decision_table);
#ifdef _WIN32
  RUN_CASE(dacl_grants_no_instance_creation);
  RUN_CASE(client_accepts_an_administrator);
#else
  RUN_CASE(root_refuses_a_socket_of_another_user);
  RUN_CASE(own_socket_is_accepted);
#endif
  return check_summary();
}
