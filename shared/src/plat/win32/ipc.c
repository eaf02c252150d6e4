/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* ipc.c (Windows) - the service's control connection as a local named pipe: one pipe instance per
   client, overlapped I/O underneath so that blocked accepts and reads can be woken from another
   thread, and the client's identity taken from its impersonation token. */
#include "threadsoup/plat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "win32.h"

#include <aclapi.h> /* after windows.h, which they need */
#include <lm.h>
#include <sddl.h>

#include "../peer_rights.h"
#include "../server_check.h"

#define IPC_BUFFER_BYTES (64 * 1024)
/* How long a client waits for a free pipe instance when every instance is taken. Waiting clients
   are not served in order (each wait ends when some instance listens, and whoever opens it first
   has it), so on a machine where the service is slow to hand over (50 clients polling beside a
   run under Wine at a load average above 100: 2 of about 700 connections waited past 10 s) one
   client can lose several rounds; 30 s before saying the service is busy. */
#define IPC_BUSY_WAIT_MS 30000
/* SYSTEM and Administrators full access; authenticated users (every account that signed in:
   an interactive user, a scheduled task, a service account, an SSH session; not anonymous or
   guest logons) 0x12008b = FILE_GENERIC_READ (0x120089) | FILE_WRITE_DATA (0x2): they read and
   write the stream but lack FILE_CREATE_PIPE_INSTANCE (0x4, the bit of FILE_APPEND_DATA that
   GENERIC_WRITE carries), so they cannot add server instances of the service's pipe and answer
   other users' clients. Connecting gives no right: the server decides each request by the
   client's token (handlers.c's table: read for anyone who connects, control and programs for
   those peer_rights.c names). Nobody else. "P" protects the DACL from inherited entries. */
#define IPC_PIPE_SDDL L"D:P(A;;GA;;;SY)(A;;GA;;;BA)(A;;0x0012008b;;;AU)"
/* What a client opens the pipe with: exactly what authenticated users are granted. */
#define IPC_CLIENT_ACCESS (FILE_GENERIC_READ | FILE_WRITE_DATA)

/* How many instances of the pipe wait for clients at once. With one, a burst of clients (the tray,
   a CLI loop and a subscriber at once; or a busy machine where the accepting thread is slow to
   come back) queues behind each single hand-over, and a client can wait its whole
   IPC_BUSY_WAIT_MS. Several listening instances let the system connect that many clients while
   the service is still handing over the previous one. */
#define IPC_LISTENERS 8

/* One listening instance: its pipe and the overlapped ConnectNamedPipe pending on it. */
typedef struct {
  HANDLE pipe;      /* NULL when creating it failed (tried again at the next accept) */
  HANDLE connected; /* manual-reset event of ov */
  OVERLAPPED ov;    /* lives here, not on a stack: the connect stays pending between accepts */
  int ready;        /* 1: a client is already connected (the connect completed at once) */
  int pending;      /* 1: ov is in flight and must be finished before the pipe is closed */
} listener;

struct plat_ipc_server {
  wchar_t name[PLAT_PATH_MAX];
  char address[PLAT_PATH_MAX];
  listener listeners[IPC_LISTENERS];
  HANDLE stop; /* manual-reset event set by plat_ipc_server_close */
  PSECURITY_DESCRIPTOR sd;
};

/* The pipe handle is shared by a reading thread, a writing thread and plat_ipc_shutdown: each I/O
   holds the lock shared, and shutdown takes it exclusively to close the handle, so the handle is
   never closed under a call that still uses it. The stop event wakes every wait first. */
struct plat_ipc_conn {
  SRWLOCK lock;
  HANDLE pipe;      /* NULL once shut down */
  HANDLE read_done; /* manual-reset events of the overlapped reads and writes */
  HANDLE write_done;
  HANDLE stop; /* manual-reset: set by plat_ipc_shutdown */
  int server_side;
};

static int os_error(ts_err *err, DWORD code, const char *what, const char *address) {
  char text[256];
  win32_error_text(code, text, sizeof text);
  return ts_err_set(err, TS_EOS, "%s %s: %s", what, address, text);
}

const char *plat_ipc_default_address(void) { return "\\\\.\\pipe\\threadsoup"; }

/* ---- the server ------------------------------------------------------------------------------ */

static HANDLE create_instance(plat_ipc_server *server, int first) {
  SECURITY_ATTRIBUTES sa = {sizeof sa, server->sd, FALSE};
  /* FIRST_PIPE_INSTANCE makes a second server on the same name fail instead of sharing it with
     us (a squatter could otherwise take clients); remote clients never reach the service. */
  DWORD open_mode =
      PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED | (first ? FILE_FLAG_FIRST_PIPE_INSTANCE : 0);
  DWORD pipe_mode = PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS;
  HANDLE h = CreateNamedPipeW(server->name, open_mode, pipe_mode, PIPE_UNLIMITED_INSTANCES,
                              IPC_BUFFER_BYTES, IPC_BUFFER_BYTES, 0, &sa);
  return h == INVALID_HANDLE_VALUE ? NULL : h;
}

static int new_conn(plat_ipc_conn **out, HANDLE pipe, int server_side, ts_err *err) {
  plat_ipc_conn *conn = calloc(1, sizeof *conn);
  if (!conn)
    return ts_err_set(err, TS_ENOMEM, "no memory for a connection");
  InitializeSRWLock(&conn->lock);
  conn->pipe = pipe;
  conn->server_side = server_side;
  conn->read_done = CreateEventW(NULL, TRUE, FALSE, NULL);
  conn->write_done = CreateEventW(NULL, TRUE, FALSE, NULL);
  conn->stop = CreateEventW(NULL, TRUE, FALSE, NULL);
  if (!conn->read_done || !conn->write_done || !conn->stop) {
    DWORD code = GetLastError();
    if (conn->read_done)
      CloseHandle(conn->read_done);
    if (conn->write_done)
      CloseHandle(conn->write_done);
    if (conn->stop)
      CloseHandle(conn->stop);
    free(conn);
    return os_error(err, code, "cannot create the events of a connection on", "the pipe");
  }
  *out = conn;
  return TS_OK;
}

static int arm(plat_ipc_server *server, listener *l, ts_err *err);

int plat_ipc_listen(plat_ipc_server **out, const char *address, ts_err *err) {
  plat_ipc_server *server = calloc(1, sizeof *server);
  if (!server)
    return ts_err_set(err, TS_ENOMEM, "no memory for the pipe server");
  snprintf(server->address, sizeof server->address, "%s", address);
  int rc = TS_OK;
  if (!win32_to_wide(address, server->name, sizeof server->name / sizeof server->name[0])) {
    rc = ts_err_set(err, TS_EINVAL, "pipe name too long or not UTF-8: %s", address);
    goto fail;
  }
  if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(IPC_PIPE_SDDL, SDDL_REVISION_1,
                                                            &server->sd, NULL)) {
    rc = os_error(err, GetLastError(), "cannot build the security descriptor of", address);
    goto fail;
  }
  server->stop = CreateEventW(NULL, TRUE, FALSE, NULL);
  int have_events = server->stop != NULL;
  for (int i = 0; i < IPC_LISTENERS && have_events; i++) {
    server->listeners[i].connected = CreateEventW(NULL, TRUE, FALSE, NULL);
    have_events = server->listeners[i].connected != NULL;
  }
  if (!have_events) {
    rc = os_error(err, GetLastError(), "cannot create the events of", address);
    goto fail;
  }
  /* Wine ignores FILE_FLAG_FIRST_PIPE_INSTANCE, so look for a live pipe of that name first; on
     Windows the flag still closes the race between this look and the creation. */
  if (WaitNamedPipeW(server->name, 1) || GetLastError() == ERROR_SEM_TIMEOUT) {
    rc = ts_err_set(err, TS_EOS,
                    "another program already listens on %s (is ThreadSoup's "
                    "service already running?)",
                    address);
    goto fail;
  }
  HANDLE first = create_instance(server, 1);
  if (!first) {
    DWORD code = GetLastError();
    if (code == ERROR_ACCESS_DENIED || code == ERROR_PIPE_BUSY)
      rc = ts_err_set(err, TS_EOS,
                      "another program already listens on %s (is ThreadSoup's "
                      "service already running?)",
                      address);
    else
      rc = os_error(err, code, "cannot create the pipe", address);
    goto fail;
  }
  for (int i = 0; i < IPC_LISTENERS; i++) {
    server->listeners[i].pipe = i == 0 ? first : create_instance(server, 0);
    rc = arm(server, &server->listeners[i], err);
    if (rc != TS_OK)
      goto fail;
  }
  *out = server;
  return TS_OK;
fail:
  plat_ipc_server_free(server);
  return rc;
}

/* Starts the overlapped connect on l's instance (creating the instance first if an earlier try
   failed). A client that came already marks it ready; one that came and went is dropped and the
   instance listens again. */
static int arm(plat_ipc_server *server, listener *l, ts_err *err) {
  for (;;) {
    if (!l->pipe)
      l->pipe = create_instance(server, 0);
    if (!l->pipe)
      return os_error(err, GetLastError(), "cannot create a pipe instance of", server->address);
    memset(&l->ov, 0, sizeof l->ov);
    l->ov.hEvent = l->connected;
    ResetEvent(l->connected);
    l->ready = 0;
    l->pending = 0;
    if (ConnectNamedPipe(l->pipe, &l->ov)) {
      l->ready = 1;
      SetEvent(l->connected);
      return TS_OK;
    }
    DWORD code = GetLastError();
    if (code == ERROR_IO_PENDING) {
      l->pending = 1;
      return TS_OK;
    }
    if (code == ERROR_PIPE_CONNECTED) { /* came between CreateNamedPipe and ConnectNamedPipe */
      l->ready = 1;
      SetEvent(l->connected);
      return TS_OK;
    }
    if (code != ERROR_NO_DATA)
      return os_error(err, code, "cannot wait for clients on", server->address);
    DisconnectNamedPipe(l->pipe); /* came and went already: listen again */
  }
}

/* Ends l's pending connect (its OVERLAPPED must not be in flight when the pipe closes). */
static void disarm(listener *l) {
  DWORD ignored;
  if (l->pipe && l->pending) {
    CancelIoEx(l->pipe, &l->ov);
    GetOverlappedResult(l->pipe, &l->ov, &ignored, TRUE);
  }
  l->pending = 0;
}

int plat_ipc_accept(plat_ipc_server *server, plat_ipc_conn **out, ts_err *err) {
  *out = NULL;
  for (;;) {
    /* An instance whose creation failed earlier (out of resources?) is tried again now. */
    for (int i = 0; i < IPC_LISTENERS; i++)
      if (!server->listeners[i].pipe) {
        int rc = arm(server, &server->listeners[i], err);
        if (rc != TS_OK)
          return rc;
      }
    HANDLE events[IPC_LISTENERS + 1];
    events[0] = server->stop;
    for (int i = 0; i < IPC_LISTENERS; i++)
      events[i + 1] = server->listeners[i].connected;
    DWORD woke = WaitForMultipleObjects(IPC_LISTENERS + 1, events, FALSE, INFINITE);
    if (woke == WAIT_OBJECT_0)
      return ts_err_set(err, TS_EINTERRUPTED, "stopped listening on %s", server->address);
    if (woke < WAIT_OBJECT_0 + 1 || woke > WAIT_OBJECT_0 + IPC_LISTENERS)
      return os_error(err, GetLastError(), "cannot wait for clients on", server->address);
    listener *l = &server->listeners[woke - WAIT_OBJECT_0 - 1];
    int connected = l->ready;
    if (!connected) {
      DWORD ignored;
      connected = GetOverlappedResult(l->pipe, &l->ov, &ignored, FALSE) ? 1 : 0;
      l->pending = 0;
      if (!connected) {
        DisconnectNamedPipe(l->pipe); /* the client left before we saw it: listen again */
        int rc = arm(server, l, err);
        if (rc != TS_OK)
          return rc;
        continue;
      }
    }
    HANDLE client = l->pipe;
    l->pipe = NULL;
    l->ready = 0;
    ResetEvent(l->connected);
    int rc = new_conn(out, client, 1, err);
    if (rc != TS_OK) {
      DisconnectNamedPipe(client);
      CloseHandle(client);
    }
    /* A fresh instance takes the handed-over one's place at once, so the pipe never runs out of
       listening instances while the service serves this client. Failing that, the next accept
       tries again. */
    ts_err ignored;
    arm(server, l, &ignored);
    return rc;
  }
}

void plat_ipc_server_close(plat_ipc_server *server) {
  if (server && server->stop)
    SetEvent(server->stop);
}

void plat_ipc_server_free(plat_ipc_server *server) {
  if (!server)
    return;
  for (int i = 0; i < IPC_LISTENERS; i++) {
    listener *l = &server->listeners[i];
    disarm(l);
    if (l->pipe)
      CloseHandle(l->pipe);
    if (l->connected)
      CloseHandle(l->connected);
  }
  if (server->stop)
    CloseHandle(server->stop);
  if (server->sd)
    LocalFree(server->sd);
  free(server);
}

/* ---- the client ------------------------------------------------------------------------------ */

static void sid_to_name(PSID sid, char *buf, size_t len);

/* Whether the token's user is LocalSystem, and whether it is an elevated administrator. */
static int read_server_token(HANDLE token, server_facts *f) {
  BYTE info[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
  DWORD size;
  if (!GetTokenInformation(token, TokenUser, info, sizeof info, &size))
    return 0;
  PSID user = ((TOKEN_USER *)info)->User.Sid;
  f->token_system = IsWellKnownSid(user, WinLocalSystemSid) ? 1 : 0;
  TOKEN_ELEVATION elevation;
  int member = 0;
  /* Administrators among the token's groups, enabled (a filtered token has it deny-only). */
  DWORD groups_size = 0;
  GetTokenInformation(token, TokenGroups, NULL, 0, &groups_size);
  TOKEN_GROUPS *groups = groups_size ? malloc(groups_size) : NULL;
  if (GetTokenInformation(token, TokenElevation, &elevation, sizeof elevation, &size) &&
      elevation.TokenIsElevated && groups &&
      GetTokenInformation(token, TokenGroups, groups, groups_size, &groups_size))
    for (DWORD i = 0; i < groups->GroupCount; i++)
      if (IsWellKnownSid(groups->Groups[i].Sid, WinBuiltinAdministratorsSid) &&
          (groups->Groups[i].Attributes & SE_GROUP_ENABLED) &&
          !(groups->Groups[i].Attributes & SE_GROUP_USE_FOR_DENY_ONLY))
        member = 1;
  free(groups);
  f->token_elevated_admin = member;
  if (!f->token_system && !member) {
    /* Named for the refusal only: the account lookup is slow. */
    char who[64];
    sid_to_name(user, who, sizeof who);
    size_t used = strlen(f->server);
    snprintf(f->server + used, sizeof f->server - used, ", user %s", who);
  }
  return 1;
}

/* Before a word is sent: the pipe's server process must run as LocalSystem (the service) or an
   elevated administrator (--console); when its token is closed to this user, the pipe object's
   owner must be SYSTEM or Administrators, which no ordinary user can make it. Anyone else who
   created the pipe's name first (the service stopped, or delayed at boot) is refused. */
static int check_server(HANDLE pipe, const char *address, ts_err *err) {
  server_facts f;
  memset(&f, 0, sizeof f);
  f.windows = 1;
  ULONG pid = 0;
  if (GetNamedPipeServerProcessId(pipe, &pid)) {
    snprintf(f.server, sizeof f.server, "pid %lu", (unsigned long)pid);
    HANDLE process = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
    HANDLE token = NULL;
    if (process && OpenProcessToken(process, TOKEN_QUERY, &token)) {
      f.token_known = read_server_token(token, &f);
      CloseHandle(token);
    }
    if (process)
      CloseHandle(process);
  }
  PSID owner = NULL;
  PSECURITY_DESCRIPTOR sd = NULL;
  if (GetSecurityInfo(pipe, SE_KERNEL_OBJECT, OWNER_SECURITY_INFORMATION, &owner, NULL, NULL, NULL,
                      &sd) == ERROR_SUCCESS &&
      owner) {
    f.owner_known = 1;
    f.owner_admin = IsWellKnownSid(owner, WinLocalSystemSid) ||
                    IsWellKnownSid(owner, WinBuiltinAdministratorsSid);
  }
  if (sd)
    LocalFree(sd);
  char reason[300];
  if (server_trusted(&f, reason, sizeof reason))
    return TS_OK;
  return ts_err_set(err, TS_EDENIED, "refusing ThreadSoup's service at %s: %s", address, reason);
}

int plat_ipc_connect(plat_ipc_conn **out, const char *address, ts_err *err) {
  wchar_t name[PLAT_PATH_MAX];
  if (!win32_to_wide(address, name, sizeof name / sizeof name[0]))
    return ts_err_set(err, TS_EINVAL, "pipe name too long or not UTF-8: %s", address);
  ULONGLONG deadline = GetTickCount64() + IPC_BUSY_WAIT_MS;
  for (;;) {
    /* Identification level: the service may check who we are, but cannot act as us. */
    HANDLE h =
        CreateFileW(name, IPC_CLIENT_ACCESS, 0, NULL, OPEN_EXISTING,
                    FILE_FLAG_OVERLAPPED | SECURITY_SQOS_PRESENT | SECURITY_IDENTIFICATION, NULL);
    if (h != INVALID_HANDLE_VALUE) {
      int rc = check_server(h, address, err);
      if (rc == TS_OK)
        rc = new_conn(out, h, 0, err);
      if (rc != TS_OK)
        CloseHandle(h);
      return rc;
    }
    DWORD code = GetLastError();
    if (code == ERROR_FILE_NOT_FOUND || code == ERROR_PATH_NOT_FOUND)
      return ts_err_set(err, TS_EUNSUPPORTED,
                        "ThreadSoup's service is not running (no pipe %s); "
                        "start it with threadsoup service start",
                        address);
    if (code == ERROR_ACCESS_DENIED)
      return ts_err_set(err, TS_EOS,
                        "ThreadSoup's service refused this user on %s: only "
                        "administrators and signed-in accounts may connect",
                        address);
    if (code != ERROR_PIPE_BUSY)
      return os_error(err, code, "cannot connect to", address);
    ULONGLONG now = GetTickCount64();
    if (now >= deadline)
      return ts_err_set(err, TS_EOS,
                        "ThreadSoup's service is busy: no free connection on %s "
                        "within %d s",
                        address, IPC_BUSY_WAIT_MS / 1000);
    /* Every instance is taken: wait for one. A failure here (the pipe vanished in between) is
       sorted out by the next CreateFileW. */
    WaitNamedPipeW(name, (DWORD)(deadline - now));
  }
}

/* ---- connections ----------------------------------------------------------------------------- */

/* One overlapped read or write that waits for its completion or for plat_ipc_shutdown. Returns
   1 with *done bytes, 0 when the connection has ended (shut down or closed by the peer), or an
   error code. Called with conn->lock held shared. */
static int transfer(plat_ipc_conn *conn, int writing, void *buf, DWORD len, DWORD *done,
                    ts_err *err) {
  OVERLAPPED ov;
  memset(&ov, 0, sizeof ov);
  ov.hEvent = writing ? conn->write_done : conn->read_done;
  ResetEvent(ov.hEvent);
  *done = 0;
  BOOL ok = writing ? WriteFile(conn->pipe, buf, len, NULL, &ov)
                    : ReadFile(conn->pipe, buf, len, NULL, &ov);
  DWORD code = ok ? ERROR_SUCCESS : GetLastError();
  if (!ok && code == ERROR_IO_PENDING) {
    HANDLE events[2] = {ov.hEvent, conn->stop};
    if (WaitForMultipleObjects(2, events, FALSE, INFINITE) != WAIT_OBJECT_0)
      CancelIoEx(conn->pipe, &ov); /* shut down: the cancelled call ends below */
    ok = GetOverlappedResult(conn->pipe, &ov, done, TRUE);
    code = ok ? ERROR_SUCCESS : GetLastError();
  } else if (ok) {
    ok = GetOverlappedResult(conn->pipe, &ov, done, TRUE);
    code = ok ? ERROR_SUCCESS : GetLastError();
  }
  if (ok)
    return 1;
  switch (code) {
  case ERROR_BROKEN_PIPE:
  case ERROR_PIPE_NOT_CONNECTED:
  case ERROR_NO_DATA:
  case ERROR_OPERATION_ABORTED:
    return 0;
  case ERROR_MORE_DATA: /* message-mode leftovers cannot happen in byte mode; keep the bytes */
    return 1;
  default:
    return os_error(err, code, writing ? "cannot send on" : "cannot receive on", "the pipe");
  }
}

int plat_ipc_send(plat_ipc_conn *conn, const void *buf, size_t len, ts_err *err) {
  const char *p = buf;
  int rc = TS_OK;
  AcquireSRWLockShared(&conn->lock);
  while (len > 0) {
    if (!conn->pipe) {
      rc = ts_err_set(err, TS_EOS, "cannot send: the connection was closed");
      break;
    }
    DWORD chunk = len > IPC_BUFFER_BYTES ? IPC_BUFFER_BYTES : (DWORD)len, done;
    int got = transfer(conn, 1, (void *)p, chunk, &done, err);
    if (got < 0) {
      rc = got;
      break;
    }
    if (got == 0 || WaitForSingleObject(conn->stop, 0) == WAIT_OBJECT_0) {
      rc = ts_err_set(err, TS_EOS, "cannot send: the other side closed the connection");
      break;
    }
    p += done;
    len -= done;
  }
  ReleaseSRWLockShared(&conn->lock);
  return rc;
}

int plat_ipc_recv(plat_ipc_conn *conn, void *buf, size_t capacity, size_t *got, ts_err *err) {
  *got = 0;
  int rc = TS_OK;
  AcquireSRWLockShared(&conn->lock);
  /* A shut-down connection reads as its end, as a shut-down socket does. */
  if (conn->pipe && capacity > 0 && WaitForSingleObject(conn->stop, 0) != WAIT_OBJECT_0) {
    DWORD want = capacity > IPC_BUFFER_BYTES ? IPC_BUFFER_BYTES : (DWORD)capacity, done;
    int ok = transfer(conn, 0, buf, want, &done, err);
    if (ok < 0)
      rc = ok;
    else if (ok > 0)
      *got = done;
  }
  ReleaseSRWLockShared(&conn->lock);
  return rc;
}

void plat_ipc_shutdown(plat_ipc_conn *conn) {
  if (!conn)
    return;
  /* Wake every wait first (and cancel what is in flight), then close the handle once the woken
     calls have let go of it: the peer reads what was already sent, then the end. */
  SetEvent(conn->stop);
  HANDLE pipe = conn->pipe;
  if (pipe)
    CancelIoEx(pipe, NULL);
  AcquireSRWLockExclusive(&conn->lock);
  if (conn->pipe) {
    CloseHandle(conn->pipe);
    conn->pipe = NULL;
  }
  ReleaseSRWLockExclusive(&conn->lock);
}

void plat_ipc_close(plat_ipc_conn *conn) {
  if (!conn)
    return;
  plat_ipc_shutdown(conn);
  CloseHandle(conn->read_done);
  CloseHandle(conn->write_done);
  CloseHandle(conn->stop);
  free(conn);
}

/* ---- who is on the other end ----------------------------------------------------------------- */

/* The SID of the local group ThreadSoup Users in `sid`; 0 when there is none (never created, or
   a system that keeps no local groups: Wine answers ERROR_NONE_MAPPED). The name is qualified
   with this computer's name so that the lookup stays in the local account database and never
   asks a domain controller for a name it does not have. Called as ourselves: an
   identification-level token cannot ask the LSA. */
int peer_users_group_sid(void *sid, unsigned long sid_size) {
  wchar_t computer[MAX_COMPUTERNAME_LENGTH + 1], name[MAX_COMPUTERNAME_LENGTH + 64];
  DWORD computer_count = sizeof computer / sizeof computer[0];
  if (GetComputerNameW(computer, &computer_count))
    swprintf(name, sizeof name / sizeof name[0], L"%ls\\%ls", computer, L"" PEER_GROUP_WINDOWS);
  else
    swprintf(name, sizeof name / sizeof name[0], L"%ls", L"" PEER_GROUP_WINDOWS);
  wchar_t domain[256];
  DWORD domain_count = sizeof domain / sizeof domain[0];
  SID_NAME_USE use;
  DWORD size = (DWORD)sid_size;
  return LookupAccountNameW(NULL, name, sid, &size, domain, &domain_count, &use) &&
         (use == SidTypeAlias || use == SidTypeGroup || use == SidTypeWellKnownGroup);
}

int peer_facts_from_token(void *token_handle, const void *group_sid, peer_facts *f) {
  HANDLE token = token_handle;
  memset(f, 0, sizeof *f);
  f->windows = 1;
  BYTE info[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
  DWORD size;
  if (!GetTokenInformation(token, TokenUser, info, sizeof info, &size))
    return 0;
  f->is_system = IsWellKnownSid(((TOKEN_USER *)info)->User.Sid, WinLocalSystemSid) ? 1 : 0;
  /* Administrators as the token holds it: enabled (elevated, or UAC off) or deny-only (the
     filtered token UAC gives an administrator's programs). CheckTokenMembership would say "no"
     to both the deny-only administrator and a standard user, and the refusal must tell them
     apart. */
  DWORD groups_size = 0;
  GetTokenInformation(token, TokenGroups, NULL, 0, &groups_size);
  TOKEN_GROUPS *groups = groups_size ? malloc(groups_size) : NULL;
  if (!groups || !GetTokenInformation(token, TokenGroups, groups, groups_size, &groups_size)) {
    free(groups);
    return 0;
  }
  for (DWORD i = 0; i < groups->GroupCount; i++) {
    if (!IsWellKnownSid(groups->Groups[i].Sid, WinBuiltinAdministratorsSid))
      continue;
    DWORD attributes = groups->Groups[i].Attributes;
    if (attributes & SE_GROUP_USE_FOR_DENY_ONLY)
      f->admin_deny_only = 1;
    else if (attributes & SE_GROUP_ENABLED)
      f->admin_enabled = 1;
  }
  free(groups);
  TOKEN_ELEVATION_TYPE type;
  if (GetTokenInformation(token, TokenElevationType, &type, sizeof type, &size))
    f->elevation_type = (int)type;
  /* The group's membership as access checks see it: present and enabled. */
  BOOL member = FALSE;
  if (group_sid && !CheckTokenMembership(token, (PSID)group_sid, &member))
    return 0;
  f->group_member = member ? 1 : 0;
  return 1;
}

/* Whether ThreadSoup Users' own list of members names the account `user` (directly): a user
   added since signing in is listed there before any token of theirs carries the group. Asked as
   ourselves, like the group's SID. */
static int users_group_lists(PSID user) {
  LOCALGROUP_MEMBERS_INFO_0 *members = NULL;
  DWORD read = 0, total = 0;
  int listed = 0;
  if (NetLocalGroupGetMembers(NULL, L"" PEER_GROUP_WINDOWS, 0, (BYTE **)&members,
                              MAX_PREFERRED_LENGTH, &read, &total, NULL) == NERR_Success) {
    for (DWORD i = 0; i < read && !listed; i++)
      listed = EqualSid(members[i].lgrmi0_sid, user) != 0;
  }
  if (members)
    NetApiBufferFree(members);
  return listed;
}

int win32_sign_in_again(void) {
  BYTE group[SECURITY_MAX_SID_SIZE], info[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
  HANDLE process, token = NULL;
  if (!peer_users_group_sid(group, sizeof group) ||
      !OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY | TOKEN_DUPLICATE, &process))
    return 0;
  /* CheckTokenMembership (in peer_facts_from_token) takes an impersonation token only. */
  BOOL copied = DuplicateToken(process, SecurityIdentification, &token);
  CloseHandle(process);
  peer_facts facts;
  DWORD size;
  int known = copied && peer_facts_from_token(token, group, &facts) &&
              GetTokenInformation(token, TokenUser, info, sizeof info, &size);
  if (token != NULL)
    CloseHandle(token);
  if (!known)
    return 0;
  /* The service's own decision, on the same facts it would read from this user's requests. */
  facts.group_listed = users_group_lists(((TOKEN_USER *)info)->User.Sid);
  peer_rights rights;
  peer_rights_decide(&facts, &rights);
  return rights.control_refusal == PEER_REFUSAL_SIGN_IN_AGAIN;
}

/* Reads the impersonated client's facts (peer_facts_from_token) and account SID. Runs while this
   thread impersonates the client; must not return without reverting (the caller reverts). */
static int read_client_token(plat_peer *out, peer_facts *facts, const BYTE *group_sid,
                             BYTE *user_sid, DWORD sid_size, ts_err *err) {
  HANDLE token;
  /* OpenAsSelf: the client grants identification only, so the token is opened with our own
     rights, not the client's. */
  if (!OpenThreadToken(GetCurrentThread(), TOKEN_QUERY, TRUE, &token))
    return os_error(err, GetLastError(), "cannot read the client's token on", "the pipe");
  int rc = TS_OK;
  if (!peer_facts_from_token(token, group_sid, facts))
    rc = os_error(err, GetLastError(), "cannot check the client's groups on", "the pipe");
  BYTE info[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
  DWORD info_size;
  if (rc == TS_OK && GetTokenInformation(token, TokenUser, info, sizeof info, &info_size)) {
    if (!CopySid(sid_size, user_sid, ((TOKEN_USER *)info)->User.Sid))
      user_sid[0] = 0;
  }
  DWORD session, session_size;
  if (GetTokenInformation(token, TokenSessionId, &session, sizeof session, &session_size))
    out->session = (long)session;
  CloseHandle(token);
  return rc;
}

int plat_peer_may_run_programs(const plat_peer *peer) { return peer->may_run_programs; }

long plat_console_session(void) {
  DWORD session = WTSGetActiveConsoleSessionId();
  return session == 0xFFFFFFFF ? -1 : (long)session;
}

/* "DOMAIN\user" for a SID, or its S-1-5-… form when the name cannot be found. */
static void sid_to_name(PSID sid, char *buf, size_t len) {
  wchar_t name[128], domain[128];
  DWORD name_count = sizeof name / sizeof name[0], domain_count = sizeof domain / sizeof domain[0];
  SID_NAME_USE use;
  char n[128], d[128];
  if (LookupAccountSidW(NULL, sid, name, &name_count, domain, &domain_count, &use) &&
      win32_from_wide(name, n, sizeof n) && win32_from_wide(domain, d, sizeof d)) {
    snprintf(buf, len, d[0] ? "%s\\%s" : "%s%s", d, n);
    return;
  }
  wchar_t *text;
  if (ConvertSidToStringSidW(sid, &text)) {
    if (!win32_from_wide(text, buf, len))
      snprintf(buf, len, "%s", "?");
    LocalFree(text);
  } else {
    snprintf(buf, len, "%s", "?");
  }
}

int plat_ipc_peer(plat_ipc_conn *conn, plat_peer *out, ts_err *err) {
  out->pid = -1;
  out->uid = -1;
  out->gid = -1;
  out->privileged = 0;
  out->may_run_programs = 0;
  out->admin_not_elevated = 0;
  out->sign_in_again = 0;
  out->session = -1;
  out->name[0] = '\0';
  out->user_sid[0] = '\0';
  if (!conn->server_side)
    return ts_err_set(err, TS_EINVAL, "only the service's side of a connection has a client");
  int rc = TS_OK;
  AcquireSRWLockShared(&conn->lock);
  if (!conn->pipe) {
    rc = ts_err_set(err, TS_EOS, "the client's connection was closed");
    goto done;
  }
  ULONG pid;
  if (GetNamedPipeClientProcessId(conn->pipe, &pid))
    out->pid = (long)pid;
  /* ThreadSoup Users' SID, looked up before impersonating (as ourselves). */
  BYTE group_sid[SECURITY_MAX_SID_SIZE];
  int has_group = peer_users_group_sid(group_sid, sizeof group_sid);
  /* The rights are read from the client's own token, not from its process: a filtered
     (non-elevated) administrator is no administrator until it elevates. */
  if (!ImpersonateNamedPipeClient(conn->pipe)) {
    rc = os_error(err, GetLastError(), "cannot identify the client of", "the pipe");
    goto done;
  }
  BYTE sid[SECURITY_MAX_SID_SIZE];
  sid[0] = 0;
  peer_facts facts;
  rc = read_client_token(out, &facts, has_group ? group_sid : NULL, sid, sizeof sid, err);
  if (!RevertToSelf()) {
    /* Going on under someone else's identity would be worse than stopping. */
    FatalAppExitW(0, L"ThreadSoup: RevertToSelf failed after identifying a client");
  }
  peer_rights rights = {0, 0, PEER_REFUSAL_NOT_ALLOWED, PEER_REFUSAL_NOT_ALLOWED};
  if (rc == TS_OK) {
    /* The group's list is read only for a client the token alone leaves without control. */
    peer_rights_decide(&facts, &rights);
    if (!rights.privileged && has_group && sid[0]) {
      facts.group_listed = users_group_lists((PSID)sid);
      peer_rights_decide(&facts, &rights);
    }
  }
  out->privileged = rights.privileged;
  out->may_run_programs = rights.may_run_programs;
  out->admin_not_elevated = rights.programs_refusal == PEER_REFUSAL_NOT_ELEVATED;
  out->sign_in_again = rights.control_refusal == PEER_REFUSAL_SIGN_IN_AGAIN;
  /* The name is looked up as ourselves: an identification-level token cannot ask the LSA. */
  if (rc == TS_OK && sid[0])
    sid_to_name((PSID)sid, out->name, sizeof out->name);
  char *sid_text = NULL; /* whose programs are the client's own (a freeze's members rule) */
  if (rc == TS_OK && sid[0] && ConvertSidToStringSidA((PSID)sid, &sid_text)) {
    snprintf(out->user_sid, sizeof out->user_sid, "%s", sid_text);
    LocalFree(sid_text);
  }
done:
  ReleaseSRWLockShared(&conn->lock);
  return rc;
}
