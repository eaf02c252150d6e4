/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_ipc.c - the control connection of plat.h (Unix socket or named pipe): echo through a real
   server, many clients at once, waking blocked calls from another thread, refusals and the peer's
   identity. Usage: test_ipc ADDRESS (a socket path, or \\.\pipe\NAME on Windows). */
#ifndef _WIN32
#define _DEFAULT_SOURCE /* lstat, symlink, S_ISSOCK */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

#ifndef _WIN32
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h> /* geteuid: only root is known to be privileged on POSIX */
#else
#include <windows.h> /* ProcessIdToSessionId: the session the client's token should name */
#endif

#define MAX_CONNS 64
#define MANY_CLIENTS 20
#define BIG_BYTES (256 * 1024)
#define WAKE_LIMIT_NS (5 * TS_NS_PER_S) /* a woken call must return well within this */
/* The threads of this test hold 16 KiB buffers: more than the smallest stack (16 KiB on POSIX). */
#define TEST_STACK (256 * 1024)

static const char *address;

/* ---- an echo server: one accepting thread, one thread per connection ------------------------- */

typedef struct echo_server {
  plat_ipc_server *listener;
  plat_thread acceptor;
  volatile int accept_rc; /* what the final plat_ipc_accept returned */
  volatile long accepted;
  plat_ipc_conn *conns[MAX_CONNS];
  plat_thread handlers[MAX_CONNS];
  volatile int handler_done[MAX_CONNS];
} echo_server;

typedef struct handler_arg {
  echo_server *server;
  long index;
} handler_arg;

/* Echoes every byte back; "peer?" is answered with what plat_ipc_peer says instead. */
static void echo_handler(void *p) {
  handler_arg *arg = p;
  echo_server *s = arg->server;
  long i = arg->index;
  free(arg);
  plat_ipc_conn *conn = s->conns[i];
  char buf[16384];
  for (;;) {
    size_t got;
    ts_err err;
    if (plat_ipc_recv(conn, buf, sizeof buf, &got, &err) != TS_OK || got == 0)
      break;
    if (got == 5 && memcmp(buf, "peer?", 5) == 0) {
      plat_peer peer;
      char reply[200];
      if (plat_ipc_peer(conn, &peer, &err) == TS_OK)
        snprintf(reply, sizeof reply, "pid=%ld privileged=%d programs=%d session=%ld name=%s|",
                 peer.pid, peer.privileged, plat_peer_may_run_programs(&peer), peer.session,
                 peer.name);
      else
        snprintf(reply, sizeof reply, "error=%s|", err.text);
      if (plat_ipc_send(conn, reply, strlen(reply), &err) != TS_OK)
        break;
      continue;
    }
    if (plat_ipc_send(conn, buf, got, &err) != TS_OK)
      break;
  }
  s->handler_done[i] = 1;
}

static void echo_acceptor(void *p) {
  echo_server *s = p;
  for (;;) {
    plat_ipc_conn *conn;
    ts_err err;
    int rc = plat_ipc_accept(s->listener, &conn, &err);
    if (rc != TS_OK) {
      s->accept_rc = rc;
      if (rc != TS_EINTERRUPTED)
        fprintf(stderr, "  accept: %s\n", err.text);
      return;
    }
    long i = s->accepted;
    handler_arg *arg = malloc(sizeof *arg);
    if (i >= MAX_CONNS || !arg) {
      free(arg);
      plat_ipc_close(conn);
      continue;
    }
    arg->server = s;
    arg->index = i;
    s->conns[i] = conn;
    if (plat_thread_start(&s->handlers[i], TEST_STACK, echo_handler, arg, &err) != TS_OK) {
      fprintf(stderr, "  handler thread: %s\n", err.text);
      free(arg);
      plat_ipc_close(conn);
      s->conns[i] = NULL;
      continue;
    }
    s->accepted = i + 1;
  }
}

static int echo_start(echo_server *s) {
  memset(s, 0, sizeof *s);
  ts_err err;
  if (plat_ipc_listen(&s->listener, address, &err) != TS_OK) {
    fprintf(stderr, "  listen on %s: %s\n", address, err.text);
    return 0;
  }
  if (plat_thread_start(&s->acceptor, TEST_STACK, echo_acceptor, s, &err) != TS_OK) {
    fprintf(stderr, "  acceptor thread: %s\n", err.text);
    plat_ipc_server_free(s->listener);
    return 0;
  }
  return 1;
}

/* Waits up to WAKE_LIMIT_NS for *flag; 0 when it never came (the thread is stuck). */
static int wait_flag(volatile int *flag) {
  uint64_t end = plat_clock_ns() + WAKE_LIMIT_NS;
  while (!*flag && plat_clock_ns() < end)
    plat_sleep_ns(5 * TS_NS_PER_MS);
  return *flag != 0;
}

/* Stops accepting, shuts every connection (waking handlers blocked in recv) and joins. */
static void echo_stop(echo_server *s) {
  plat_ipc_server_close(s->listener);
  plat_thread_join(s->acceptor);
  CHECK_INT(s->accept_rc, TS_EINTERRUPTED);
  for (long i = 0; i < s->accepted; i++) {
    plat_ipc_shutdown(s->conns[i]);
    if (!wait_flag(&s->handler_done[i])) {
      fprintf(stderr, "  handler %ld did not wake up after plat_ipc_shutdown\n", i);
      exit(1); /* a stuck thread cannot be joined */
    }
    plat_thread_join(s->handlers[i]);
    plat_ipc_close(s->conns[i]);
  }
  plat_ipc_server_free(s->listener);
}

/* ---- client helpers -------------------------------------------------------------------------- */

static int recv_exactly(plat_ipc_conn *conn, char *buf, size_t len) {
  size_t have = 0;
  while (have < len) {
    size_t got;
    ts_err err;
    if (plat_ipc_recv(conn, buf + have, len - have, &got, &err) != TS_OK) {
      fprintf(stderr, "  recv: %s\n", err.text);
      return 0;
    }
    if (got == 0)
      return 0;
    have += got;
  }
  return 1;
}

/* Reads up to and including '|'. */
static int recv_line(plat_ipc_conn *conn, char *buf, size_t cap) {
  size_t have = 0;
  while (have + 1 < cap) {
    if (!recv_exactly(conn, buf + have, 1))
      return 0;
    if (buf[have++] == '|')
      break;
  }
  buf[have] = '\0';
  return 1;
}

static plat_ipc_conn *connect_or_report(void) {
  plat_ipc_conn *conn = NULL;
  ts_err err;
  if (plat_ipc_connect(&conn, address, &err) != TS_OK) {
    fprintf(stderr, "  connect to %s: %s\n", address, err.text);
    return NULL;
  }
  return conn;
}

/* ---- cases ----------------------------------------------------------------------------------- */

static void echo_one_client(void) {
  echo_server s;
  if (!echo_start(&s)) {
    CHECK(0);
    return;
  }
  plat_ipc_conn *conn = connect_or_report();
  CHECK(conn != NULL);
  if (conn) {
    ts_err err;
    const char hello[] = "hello, service";
    CHECK_INT(plat_ipc_send(conn, hello, sizeof hello - 1, &err), TS_OK);
    char buf[64] = {0};
    CHECK(recv_exactly(conn, buf, sizeof hello - 1));
    CHECK(strcmp(buf, hello) == 0);
    /* The end of the stream: the server's handler ends when we close, and we see its end when
       the server shuts the connection. */
    plat_ipc_shutdown(conn);
    size_t got = 1;
    CHECK_INT(plat_ipc_recv(conn, buf, sizeof buf, &got, &err), TS_OK);
    CHECK_INT(got, 0);
    plat_ipc_close(conn);
  }
  echo_stop(&s);
  CHECK_INT(s.accepted, 1);
}

typedef struct big_sender {
  plat_ipc_conn *conn;
  const char *data;
  int rc;
} big_sender;

static void send_big(void *p) {
  big_sender *b = p;
  ts_err err;
  b->rc = plat_ipc_send(b->conn, b->data, BIG_BYTES, &err);
}

/* More than the pipe's buffers hold, sent and echoed at once: sends block until the other side
   reads, from two threads on one connection. */
static void echo_big_message(void) {
  echo_server s;
  if (!echo_start(&s)) {
    CHECK(0);
    return;
  }
  char *out = malloc(BIG_BYTES), *in = malloc(BIG_BYTES);
  plat_ipc_conn *conn = connect_or_report();
  CHECK(conn != NULL && out && in);
  if (conn && out && in) {
    for (size_t i = 0; i < BIG_BYTES; i++)
      out[i] = (char)(i * 7 + i / 251);
    big_sender b = {conn, out, -1};
    plat_thread t;
    ts_err err;
    CHECK_INT(plat_thread_start(&t, TEST_STACK, send_big, &b, &err), TS_OK);
    CHECK(recv_exactly(conn, in, BIG_BYTES));
    plat_thread_join(t);
    CHECK_INT(b.rc, TS_OK);
    CHECK(memcmp(in, out, BIG_BYTES) == 0);
  }
  plat_ipc_close(conn);
  free(out);
  free(in);
  echo_stop(&s);
}

static void many_clients_at_once(void) {
  echo_server s;
  if (!echo_start(&s)) {
    CHECK(0);
    return;
  }
  plat_ipc_conn *conns[MANY_CLIENTS];
  int connected = 0;
  for (int i = 0; i < MANY_CLIENTS; i++) {
    conns[i] = connect_or_report();
    if (conns[i])
      connected++;
  }
  CHECK_INT(connected, MANY_CLIENTS);
  /* Every client talks while all are connected; each gets its own words back. */
  for (int i = 0; i < MANY_CLIENTS; i++) {
    char msg[32];
    ts_err err;
    int n = snprintf(msg, sizeof msg, "client %02d|", i);
    if (conns[i])
      CHECK_INT(plat_ipc_send(conns[i], msg, (size_t)n, &err), TS_OK);
  }
  for (int i = 0; i < MANY_CLIENTS; i++) {
    char want[32], got[32];
    snprintf(want, sizeof want, "client %02d|", i);
    if (conns[i]) {
      CHECK(recv_line(conns[i], got, sizeof got));
      CHECK(strcmp(got, want) == 0);
    }
  }
  for (int i = 0; i < MANY_CLIENTS; i++)
    plat_ipc_close(conns[i]);
  echo_stop(&s);
  CHECK_INT(s.accepted, MANY_CLIENTS);
}

typedef struct blocked_reader {
  plat_ipc_conn *conn;
  volatile int done;
  int rc;
  size_t got;
} blocked_reader;

static void read_and_block(void *p) {
  blocked_reader *r = p;
  char buf[64];
  ts_err err;
  r->rc = plat_ipc_recv(r->conn, buf, sizeof buf, &r->got, &err);
  r->done = 1;
}

/* A client thread blocked in recv (the server never answers) is woken by plat_ipc_shutdown. */
static void shutdown_wakes_blocked_recv(void) {
  echo_server s;
  if (!echo_start(&s)) {
    CHECK(0);
    return;
  }
  plat_ipc_conn *conn = connect_or_report();
  CHECK(conn != NULL);
  if (conn) {
    blocked_reader r = {conn, 0, -1, 99};
    plat_thread t;
    ts_err err;
    CHECK_INT(plat_thread_start(&t, TEST_STACK, read_and_block, &r, &err), TS_OK);
    plat_sleep_ns(300 * TS_NS_PER_MS);
    CHECK(!r.done);
    uint64_t t0 = plat_clock_ns();
    plat_ipc_shutdown(conn);
    if (!wait_flag(&r.done)) {
      fprintf(stderr, "  plat_ipc_shutdown did not wake the blocked recv\n");
      exit(1);
    }
    fprintf(stderr, "  woken after %.1f ms\n", (double)(plat_clock_ns() - t0) / TS_NS_PER_MS);
    plat_thread_join(t);
    CHECK_INT(r.rc, TS_OK);
    CHECK_INT(r.got, 0);
    /* Sending on a shut-down connection fails instead of blocking. */
    CHECK(plat_ipc_send(conn, "x", 1, &err) != TS_OK);
    plat_ipc_close(conn);
  }
  echo_stop(&s);
}

/* The service's side shuts a connection whose client sends nothing: the handler blocked in recv
   wakes, and the client sees the end of the stream. */
static void server_shutdown_ends_client(void) {
  echo_server s;
  if (!echo_start(&s)) {
    CHECK(0);
    return;
  }
  plat_ipc_conn *conn = connect_or_report();
  CHECK(conn != NULL);
  /* Once the server holds the connection, its handler is blocked in recv. */
  uint64_t end = plat_clock_ns() + WAKE_LIMIT_NS;
  while (s.accepted < 1 && plat_clock_ns() < end)
    plat_sleep_ns(5 * TS_NS_PER_MS);
  CHECK_INT(s.accepted, 1);
  if (conn && s.accepted == 1) {
    plat_sleep_ns(100 * TS_NS_PER_MS);
    plat_ipc_shutdown(s.conns[0]);
    CHECK(wait_flag(&s.handler_done[0]));
    char buf[8];
    size_t got = 1;
    ts_err err;
    CHECK_INT(plat_ipc_recv(conn, buf, sizeof buf, &got, &err), TS_OK);
    CHECK_INT(got, 0);
  }
  plat_ipc_close(conn);
  echo_stop(&s);
}

typedef struct blocked_accept {
  plat_ipc_server *server;
  volatile int done;
  int rc;
} blocked_accept;

static void accept_and_block(void *p) {
  blocked_accept *a = p;
  plat_ipc_conn *conn = NULL;
  ts_err err;
  a->rc = plat_ipc_accept(a->server, &conn, &err);
  if (a->rc == TS_OK)
    plat_ipc_close(conn);
  a->done = 1;
}

static void server_close_wakes_accept(void) {
  blocked_accept a = {NULL, 0, -1};
  ts_err err;
  REQUIRE(plat_ipc_listen(&a.server, address, &err) == TS_OK);
  plat_thread t;
  CHECK_INT(plat_thread_start(&t, TEST_STACK, accept_and_block, &a, &err), TS_OK);
  plat_sleep_ns(300 * TS_NS_PER_MS);
  CHECK(!a.done);
  plat_ipc_server_close(a.server);
  if (!wait_flag(&a.done)) {
    fprintf(stderr, "  plat_ipc_server_close did not wake the blocked accept\n");
    exit(1);
  }
  plat_thread_join(t);
  CHECK_INT(a.rc, TS_EINTERRUPTED);
  plat_ipc_server_free(a.server);
  /* Closed means gone: no client can reach it any more. */
  plat_ipc_conn *conn = NULL;
  CHECK_INT(plat_ipc_connect(&conn, address, &err), TS_EUNSUPPORTED);
}

/* A second service on a live address is refused; the first one keeps working. */
static void second_listener_refused(void) {
  echo_server s;
  if (!echo_start(&s)) {
    CHECK(0);
    return;
  }
  plat_ipc_server *other = NULL;
  ts_err err;
  CHECK(plat_ipc_listen(&other, address, &err) != TS_OK);
  if (other)
    plat_ipc_server_free(other);
  else
    fprintf(stderr, "  refused as expected: %s\n", err.text);
  plat_ipc_conn *conn = connect_or_report();
  CHECK(conn != NULL);
  if (conn) {
    char buf[4] = {0};
    CHECK_INT(plat_ipc_send(conn, "ok|", 3, &err), TS_OK);
    CHECK(recv_exactly(conn, buf, 3));
    CHECK(strcmp(buf, "ok|") == 0);
    plat_ipc_close(conn);
  }
  echo_stop(&s);
}

static void connect_when_nothing_listens(void) {
  char nowhere[PLAT_PATH_MAX];
  snprintf(nowhere, sizeof nowhere, "%s-nobody", address);
  plat_ipc_conn *conn = NULL;
  ts_err err;
  CHECK_INT(plat_ipc_connect(&conn, nowhere, &err), TS_EUNSUPPORTED);
  CHECK_STR_CONTAINS(err.text, "not running");
  CHECK(conn == NULL);
}

static void peer_is_us(void) {
  echo_server s;
  if (!echo_start(&s)) {
    CHECK(0);
    return;
  }
  plat_ipc_conn *conn = connect_or_report();
  CHECK(conn != NULL);
  if (conn) {
    ts_err err;
    char reply[200];
    CHECK_INT(plat_ipc_send(conn, "peer?", 5, &err), TS_OK);
    CHECK(recv_line(conn, reply, sizeof reply));
    fprintf(stderr, "  peer: %s\n", reply);
    char want[64];
    snprintf(want, sizeof want, "pid=%ld ", plat_self_pid());
    CHECK_STR_CONTAINS(reply, want);
    /* Wine counts every process as an administrator; on POSIX only root is sure to be. */
#ifdef _WIN32
    CHECK_STR_CONTAINS(reply, "privileged=1");
    /* The client is this process, in the console's session: the session the service compares a
       tray's idle answer against (WTSGetActiveConsoleSessionId) is the one the token names. */
    DWORD own_session = 0;
    CHECK(ProcessIdToSessionId(GetCurrentProcessId(), &own_session));
    snprintf(want, sizeof want, "session=%lu ", (unsigned long)own_session);
    CHECK_STR_CONTAINS(reply, want);
    fprintf(stderr, "  console session %ld, this process's %lu\n", plat_console_session(),
            (unsigned long)own_session);
#else
    CHECK_STR_CONTAINS(reply, "session=-1 ");
    CHECK_INT(plat_console_session(), -1);
    if (geteuid() == 0)
      CHECK_STR_CONTAINS(reply, "privileged=1");
    /* Programs: uid 0 only, whatever the groups. */
    CHECK_STR_CONTAINS(reply, geteuid() == 0 ? "programs=1" : "programs=0");
    plat_peer member = {.uid = 1000, .privileged = 1};
    CHECK(!plat_peer_may_run_programs(&member));
#endif
    CHECK(strstr(reply, "name=|") == NULL);
    plat_ipc_close(conn);
  }
  echo_stop(&s);
}

#ifndef _WIN32
static void write_file(const char *path, const char *text, mode_t mode) {
  FILE *f = fopen(path, "w");
  REQUIRE(f != NULL);
  fputs(text, f);
  fclose(f);
  chmod(path, mode);
}

static int file_holds(const char *path, const char *text) {
  char got[64] = "";
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  size_t n = fread(got, 1, sizeof got - 1, f);
  got[n] = '\0';
  fclose(f);
  return strcmp(got, text) == 0;
}

/* The socket is mode 0660: root and group threadsoup reach the service, no other user, reads
   included (docs/protocol.md, who may do what; the doctor's rights check says the same). */
static void socket_is_closed_to_others(void) {
  ts_err err;
  plat_ipc_server *server = NULL;
  REQUIRE(plat_ipc_listen(&server, address, &err) == TS_OK);
  struct stat st;
  CHECK(lstat(address, &st) == 0 && S_ISSOCK(st.st_mode));
  CHECK_INT((long)(st.st_mode & 0777), 0660);
  plat_ipc_server_close(server);
  plat_ipc_server_free(server);
}

/* --socket PATH naming a regular file, a folder or a symbolic link: refused, and whatever is there
   is left exactly as it was (neither removed, nor chmod'ed or chown'ed through the link). */
static void listen_refuses_what_is_not_a_stale_socket(void) {
  char file[300], dir[300], target[300], link[300];
  snprintf(file, sizeof file, "%s-file", address);
  snprintf(dir, sizeof dir, "%s-dir", address);
  snprintf(target, sizeof target, "%s-target", address);
  snprintf(link, sizeof link, "%s-link", address);
  remove(file);
  rmdir(dir);
  remove(target);
  remove(link);
  ts_err err;
  plat_ipc_server *server = NULL;

  write_file(file, "keep me", 0644);
  CHECK_INT(plat_ipc_listen(&server, file, &err), TS_EINVAL);
  CHECK(server == NULL);
  CHECK_STR_CONTAINS(err.text, "exists and is not a socket (a regular file): refusing to replace");
  CHECK(file_holds(file, "keep me"));

  REQUIRE(mkdir(dir, 0755) == 0);
  CHECK_INT(plat_ipc_listen(&server, dir, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "(a folder)");
  struct stat st;
  CHECK(stat(dir, &st) == 0 && S_ISDIR(st.st_mode));

  write_file(target, "secret", 0600);
  struct stat before, after;
  REQUIRE(stat(target, &before) == 0);
  REQUIRE(symlink(target, link) == 0);
  CHECK_INT(plat_ipc_listen(&server, link, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "(a symbolic link)");
  REQUIRE(stat(target, &after) == 0);
  CHECK_INT((long)(after.st_mode & 07777), 0600);
  CHECK_INT((long)after.st_gid, (long)before.st_gid);
  CHECK_INT((long)after.st_uid, (long)before.st_uid);
  CHECK(file_holds(target, "secret"));
  CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));

  remove(file);
  rmdir(dir);
  remove(link);
  remove(target);
}

/* A socket left by a killed service (nothing listens) is replaced; the new one is mode 0660, and
   at the end the server removes only the socket it made, not a file put in its place. */
static void stale_socket_replaced_and_only_ours_removed(void) {
  char path[300];
  snprintf(path, sizeof path, "%s-stale", address);
  remove(path);
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0);
  close(fd); /* the file stays, with no server behind it */
  ts_err err;
  plat_ipc_server *server = NULL;
  CHECK_INT(plat_ipc_listen(&server, path, &err), TS_OK);
  struct stat st;
  CHECK(lstat(path, &st) == 0 && S_ISSOCK(st.st_mode) && (st.st_mode & 0777) == 0660);
  /* Someone removes the socket and puts a file there: the server's end leaves it alone. */
  remove(path);
  write_file(path, "not yours", 0644);
  plat_ipc_server_close(server);
  plat_ipc_server_free(server);
  CHECK(file_holds(path, "not yours"));
  remove(path);
}
#endif

int main(int argc, char **argv) {
  if (argc < 2 || !argv[1][0]) {
    fprintf(stderr, "usage: test_ipc ADDRESS\n");
    return 2;
  }
  address = argv[1];
  RUN_CASE(connect_when_nothing_listens);
  RUN_CASE(echo_one_client);
  RUN_CASE(echo_big_message);
  RUN_CASE(many_clients_at_once);
  RUN_CASE(shutdown_wakes_blocked_recv);
  RUN_CASE(server_shutdown_ends_client);
  RUN_CASE(server_close_wakes_accept);
  RUN_CASE(second_listener_refused);
  RUN_CASE(peer_is_us);
#ifndef _WIN32
  RUN_CASE(socket_is_closed_to_others);
  RUN_CASE(listen_refuses_what_is_not_a_stale_socket);
  RUN_CASE(stale_socket_replaced_and_only_ours_removed);
#endif
  return check_summary();
}
