/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_peer_rights.c - who may control the service and who may make it run programs: the decision
   on a table of realistic token states (an elevated administrator, UAC's filtered administrator
   with and without ThreadSoup Users, members, plain users, SYSTEM, Linux root, members and
   others), the words of each refusal, and on Windows the facts read from real tokens: this
   process's, one with Administrators made deny-only (CreateRestrictedToken, as UAC filters an
   administrator), and a client of a real pipe holding that token. Usage: test_peer_rights [PIPE] */
#include <stdio.h>
#include <string.h>

#include "../../shared/src/plat/peer_rights.h"
#include "check.h"
#include "threadsoup/plat.h"

#ifdef _WIN32
#include <windows.h>
#endif

typedef struct row {
  const char *what;
  peer_facts facts;
  int privileged, programs;
  peer_refusal control, programs_refusal;
} row;

/* Windows rows: TokenGroups' Administrators as Windows sets it (enabled in an elevated token or
   SYSTEM's, deny-only in UAC's filtered token, absent for a standard user), TokenElevationType as
   it goes with each (Full, Limited, Default), and membership of ThreadSoup Users. */
static const row rows[] = {
    {"Windows: elevated administrator (Run as administrator)",
     {.windows = 1, .admin_enabled = 1, .elevation_type = PEER_ELEVATION_FULL},
     1,
     1,
     PEER_REFUSAL_NONE,
     PEER_REFUSAL_NONE},
    {"Windows: administrator where UAC is off (no linked token)",
     {.windows = 1, .admin_enabled = 1, .elevation_type = PEER_ELEVATION_DEFAULT},
     1,
     1,
     PEER_REFUSAL_NONE,
     PEER_REFUSAL_NONE},
    {"Windows: administrator's filtered token (the tray at logon)",
     {.windows = 1, .admin_deny_only = 1, .elevation_type = PEER_ELEVATION_LIMITED},
     0,
     0,
     PEER_REFUSAL_NOT_ELEVATED,
     PEER_REFUSAL_NOT_ELEVATED},
    {"Windows: filtered administrator, member of ThreadSoup Users",
     {.windows = 1,
      .admin_deny_only = 1,
      .elevation_type = PEER_ELEVATION_LIMITED,
      .group_member = 1},
     1,
     0,
     PEER_REFUSAL_NONE,
     PEER_REFUSAL_NOT_ELEVATED},
    {"Windows: Limited token whose Administrators is simply absent",
     {.windows = 1, .elevation_type = PEER_ELEVATION_LIMITED},
     0,
     0,
     PEER_REFUSAL_NOT_ELEVATED,
     PEER_REFUSAL_NOT_ELEVATED},
    {"Windows: standard user, member of ThreadSoup Users",
     {.windows = 1, .elevation_type = PEER_ELEVATION_DEFAULT, .group_member = 1},
     1,
     0,
     PEER_REFUSAL_NONE,
     PEER_REFUSAL_NOT_ALLOWED},
    /* Added to the group after signing in: the group's list has the account, the token not. */
    {"Windows: standard user, added to ThreadSoup Users since signing in",
     {.windows = 1, .elevation_type = PEER_ELEVATION_DEFAULT, .group_listed = 1},
     0,
     0,
     PEER_REFUSAL_SIGN_IN_AGAIN,
     PEER_REFUSAL_NOT_ALLOWED},
    {"Windows: filtered administrator, added to ThreadSoup Users since signing in",
     {.windows = 1,
      .admin_deny_only = 1,
      .elevation_type = PEER_ELEVATION_LIMITED,
      .group_listed = 1},
     0,
     0,
     PEER_REFUSAL_SIGN_IN_AGAIN,
     PEER_REFUSAL_NOT_ELEVATED},
    {"Windows: listed in ThreadSoup Users and signed in since",
     {.windows = 1, .elevation_type = PEER_ELEVATION_DEFAULT, .group_listed = 1, .group_member = 1},
     1,
     0,
     PEER_REFUSAL_NONE,
     PEER_REFUSAL_NOT_ALLOWED},
    {"Windows: standard user",
     {.windows = 1, .elevation_type = PEER_ELEVATION_DEFAULT},
     0,
     0,
     PEER_REFUSAL_NOT_ALLOWED,
     PEER_REFUSAL_NOT_ALLOWED},
    {"Windows: LocalSystem (a schedule's service, or PsExec -s)",
     {.windows = 1, .is_system = 1, .admin_enabled = 1, .elevation_type = PEER_ELEVATION_DEFAULT},
     1,
     1,
     PEER_REFUSAL_NONE,
     PEER_REFUSAL_NONE},
    {"Windows: LocalSystem whose groups could not be told apart",
     {.windows = 1, .is_system = 1},
     1,
     1,
     PEER_REFUSAL_NONE,
     PEER_REFUSAL_NONE},
    {"Linux: root", {.is_root = 1}, 1, 1, PEER_REFUSAL_NONE, PEER_REFUSAL_NONE},
    {"Linux: root, also in group threadsoup",
     {.is_root = 1, .group_member = 1},
     1,
     1,
     PEER_REFUSAL_NONE,
     PEER_REFUSAL_NONE},
    {"Linux: member of group threadsoup",
     {.group_member = 1},
     1,
     0,
     PEER_REFUSAL_NONE,
     PEER_REFUSAL_NOT_ALLOWED},
    {"Linux: other user", {0}, 0, 0, PEER_REFUSAL_NOT_ALLOWED, PEER_REFUSAL_NOT_ALLOWED},
    /* Facts only Windows reads mean nothing on Linux. */
    {"Linux: facts of a Windows token ignored",
     {.admin_enabled = 1, .admin_deny_only = 1},
     0,
     0,
     PEER_REFUSAL_NOT_ALLOWED,
     PEER_REFUSAL_NOT_ALLOWED},
};

static void decision_table(void) {
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    peer_rights r;
    memset(&r, 0x5a, sizeof r);
    peer_rights_decide(&rows[i].facts, &r);
    int ok = r.privileged == rows[i].privileged && r.may_run_programs == rows[i].programs &&
             r.control_refusal == rows[i].control && r.programs_refusal == rows[i].programs_refusal;
    fprintf(stderr, "  %-62s control %d (%d) programs %d (%d)%s\n", rows[i].what, r.privileged,
            (int)r.control_refusal, r.may_run_programs, (int)r.programs_refusal,
            ok ? "" : "  <- wrong");
    CHECK(ok);
  }
}

static void refusals_say_which_case(void) {
  char text[400];
  peer_refusal_text(PEER_REFUSAL_NOT_ELEVATED, 1, "load-start", "PC\\ann", text, sizeof text);
  fprintf(stderr, "  %s\n", text);
  CHECK_STR_CONTAINS(text, "load-start needs an administrator");
  CHECK_STR_CONTAINS(text, "your administrator rights are not elevated: join ThreadSoup Users or "
                           "run elevated");
  CHECK(strstr(text, "not a member of Administrators") == NULL);
  peer_refusal_text(PEER_REFUSAL_NOT_ALLOWED, 1, "quiet-on", "PC\\bob", text, sizeof text);
  fprintf(stderr, "  %s\n", text);
  CHECK_STR_CONTAINS(text, "PC\\bob is not an administrator, SYSTEM or a member of ThreadSoup "
                           "Users");
  peer_refusal_text(PEER_REFUSAL_NOT_ALLOWED, 0, "load-start", "nobody", text, sizeof text);
  fprintf(stderr, "  %s\n", text);
  CHECK_STR_CONTAINS(text, "load-start needs an administrator: nobody is not root or in group "
                           "threadsoup");
  /* In the group's list but not in the token: one thing to do, said once, and no "join". */
  peer_refusal_text(PEER_REFUSAL_SIGN_IN_AGAIN, 1, "run-start", "PC\\cat", text, sizeof text);
  fprintf(stderr, "  %s\n", text);
  CHECK_STR_CONTAINS(text, "run-start needs an administrator (elevated), SYSTEM or a member of "
                           "ThreadSoup Users: PC\\cat is in ThreadSoup Users but signed in before "
                           "being added, and membership counts from the next sign-in: sign out "
                           "and in once");
  CHECK(strstr(text, "join") == NULL);
  /* A long name is cut, never overflows. */
  char small[24];
  peer_refusal_text(PEER_REFUSAL_NOT_ALLOWED, 1, "load-start", "x", small, sizeof small);
  CHECK_INT(strlen(small), sizeof small - 1);
}

#ifdef _WIN32
static const char *pipe_name;

/* An impersonation token of this process, or with Administrators deny-only when `filtered`
   (CreateRestrictedToken's SidsToDisable sets SE_GROUP_USE_FOR_DENY_ONLY, which is what UAC's
   filtered token holds). NULL when the system cannot make it. */
static HANDLE token_of_this_process(int filtered) {
  HANDLE primary = NULL, restricted = NULL, impersonation = NULL;
  if (!OpenProcessToken(GetCurrentProcess(), TOKEN_ALL_ACCESS, &primary))
    return NULL;
  HANDLE base = primary;
  if (filtered) {
    BYTE admins[SECURITY_MAX_SID_SIZE];
    DWORD size = sizeof admins;
    SID_AND_ATTRIBUTES disable = {admins, 0};
    if (CreateWellKnownSid(WinBuiltinAdministratorsSid, NULL, admins, &size) &&
        CreateRestrictedToken(primary, 0, 1, &disable, 0, NULL, 0, NULL, &restricted))
      base = restricted;
    else
      base = NULL;
  }
  if (base && !DuplicateTokenEx(base, TOKEN_ALL_ACCESS, NULL, SecurityImpersonation,
                                TokenImpersonation, &impersonation))
    impersonation = NULL;
  if (restricted)
    CloseHandle(restricted);
  CloseHandle(primary);
  return impersonation;
}

static void print_facts(const char *what, const peer_facts *f) {
  fprintf(stderr,
          "  %s: system %d, Administrators enabled %d, deny-only %d, elevation type %d, "
          "member %d\n",
          what, f->is_system, f->admin_enabled, f->admin_deny_only, f->elevation_type,
          f->group_member);
}

static void real_tokens(void) {
  HANDLE own = token_of_this_process(0);
  REQUIRE(own != NULL);
  /* BUILTIN\Users stands in for ThreadSoup Users, which Wine cannot create: a group this token
     holds enabled; Backup Operators one it does not hold. */
  BYTE users[SECURITY_MAX_SID_SIZE], backup[SECURITY_MAX_SID_SIZE];
  DWORD size = sizeof users;
  REQUIRE(CreateWellKnownSid(WinBuiltinUsersSid, NULL, users, &size));
  size = sizeof backup;
  REQUIRE(CreateWellKnownSid(WinBuiltinBackupOperatorsSid, NULL, backup, &size));
  peer_facts f;
  peer_rights r;
  CHECK(peer_facts_from_token(own, backup, &f));
  print_facts("this process", &f);
  CHECK(f.windows);
  CHECK(!(f.admin_enabled && f.admin_deny_only));
  CHECK_INT(f.group_member, 0);
  peer_rights_decide(&f, &r);
  /* Under Wine (and an elevated prompt) this process is an elevated administrator. */
  if (f.admin_enabled) {
    CHECK_INT(r.privileged, 1);
    CHECK_INT(r.may_run_programs, 1);
  }
  CHECK(peer_facts_from_token(own, users, &f));
  CHECK_INT(f.group_member, 1);
  CHECK(peer_facts_from_token(own, NULL, &f));
  CHECK_INT(f.group_member, 0); /* no group: no membership */
  int was_admin = f.admin_enabled;
  CloseHandle(own);

  HANDLE filtered = token_of_this_process(1);
  if (!filtered) {
    fprintf(stderr, "  skipped: this system cannot make a restricted token (error %lu)\n",
            GetLastError());
    return;
  }
  CHECK(peer_facts_from_token(filtered, backup, &f));
  print_facts("Administrators deny-only", &f);
  if (was_admin) {
    CHECK_INT(f.admin_enabled, 0);
    CHECK_INT(f.admin_deny_only, 1);
    peer_rights_decide(&f, &r);
    CHECK_INT(r.privileged, 0);
    CHECK_INT(r.may_run_programs, 0);
    CHECK_INT(r.control_refusal, PEER_REFUSAL_NOT_ELEVATED);
    /* The same filtered administrator in the group controls, but runs no programs. */
    CHECK(peer_facts_from_token(filtered, users, &f));
    peer_rights_decide(&f, &r);
    CHECK_INT(r.privileged, 1);
    CHECK_INT(r.may_run_programs, 0);
    CHECK_INT(r.programs_refusal, PEER_REFUSAL_NOT_ELEVATED);
  }
  CloseHandle(filtered);
}

/* A client whose thread holds the filtered token connects to a real pipe: the service's side
   reads that token, not the process's, and calls it an administrator who has not elevated. */
static void pipe_client_with_filtered_token(void) {
  plat_ipc_server *server = NULL;
  ts_err err;
  REQUIRE(plat_ipc_listen(&server, pipe_name, &err) == TS_OK);
  HANDLE filtered = token_of_this_process(1);
  wchar_t wname[256];
  MultiByteToWideChar(CP_UTF8, 0, pipe_name, -1, wname, 256);
  HANDLE client = INVALID_HANDLE_VALUE;
  if (filtered && SetThreadToken(NULL, filtered)) {
    client = CreateFileW(wname, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING,
                         SECURITY_SQOS_PRESENT | SECURITY_IDENTIFICATION, NULL);
    RevertToSelf();
  }
  if (client == INVALID_HANDLE_VALUE) {
    fprintf(stderr, "  skipped: cannot connect with a filtered token (error %lu)\n",
            GetLastError());
  } else {
    plat_ipc_conn *conn = NULL;
    plat_peer peer;
    CHECK_INT(plat_ipc_accept(server, &conn, &err), TS_OK);
    if (conn) {
      CHECK_INT(plat_ipc_peer(conn, &peer, &err), TS_OK);
      fprintf(stderr, "  pipe client %s: privileged %d, programs %d, not elevated %d\n", peer.name,
              peer.privileged, peer.may_run_programs, peer.admin_not_elevated);
      /* Wine's pipes impersonate the client's process token, not the token its thread held
         when it connected (as Windows does): there the client reads as this process. */
      int wine = GetProcAddress(GetModuleHandleW(L"ntdll.dll"), "wine_get_version") != NULL;
      if (wine && peer.may_run_programs) {
        fprintf(stderr, "  Wine: the pipe's server sees the client's process token, not its "
                        "thread's filtered one; the decision on that token is tried above\n");
      } else {
        CHECK_INT(peer.may_run_programs, 0);
        /* Not a member of ThreadSoup Users: no control either, and told why. */
        CHECK_INT(peer.privileged, 0);
        CHECK_INT(peer.admin_not_elevated, 1);
      }
      plat_ipc_close(conn);
    }
    CloseHandle(client);
  }
  if (filtered)
    CloseHandle(filtered);
  plat_ipc_server_close(server);
  plat_ipc_server_free(server);
}
#endif

int main(int argc, char **argv) {
  RUN_CASE(decision_table);
  RUN_CASE(refusals_say_which_case);
#ifdef _WIN32
  pipe_name = argc > 1 ? argv[1] : "\\\\.\\pipe\\threadsoup-test-peer-rights";
  RUN_CASE(real_tokens);
  RUN_CASE(pipe_client_with_filtered_token);
#else
  (void)argc;
  (void)argv;
#endif
  return check_summary();
}
