/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* ipc.c (POSIX) - the service's control connection: a Unix stream socket, mode 0660, group
   "threadsoup"; peers are identified by the kernel (SO_PEERCRED). */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "../peer_rights.h"
#include "../server_check.h"

struct plat_ipc_server {
  int fd;
  int wake[2]; /* closing the server writes here to end a blocked accept */
  char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
  dev_t dev; /* the socket file this server made: removed at the end only if still the same */
  ino_t ino;
};

struct plat_ipc_conn {
  int fd;
};

const char *plat_ipc_default_address(void) { return "/run/threadsoup/control.sock"; }

static int socket_address(const char *path, struct sockaddr_un *sa, ts_err *err) {
  memset(sa, 0, sizeof *sa);
  sa->sun_family = AF_UNIX;
  if (strlen(path) >= sizeof sa->sun_path)
    return ts_err_set(err, TS_EINVAL, "socket path too long (at most %zu bytes): %s",
                      sizeof sa->sun_path - 1, path);
  memcpy(sa->sun_path, path, strlen(path) + 1);
  return TS_OK;
}

/* The group "threadsoup"'s id into *gid, and whether uid (named user) is in it, with the re-entrant
   lookups: connection threads ask at the same time. 0 when there is no such group. */
static int threadsoup_group(gid_t *gid, uid_t uid, const char *user, int *member) {
  size_t size = 4096;
  char *buf = NULL;
  struct group g, *found = NULL;
  int rc;
  /* A group with many members needs a larger buffer: grow until it fits (up to 1 MiB). */
  do {
    free(buf);
    buf = malloc(size);
    if (!buf)
      return 0;
    rc = getgrnam_r("threadsoup", &g, buf, size, &found);
    size *= 2;
  } while (rc == ERANGE && size <= (1u << 20));
  if (rc != 0 || !found) {
    free(buf);
    return 0;
  }
  *gid = g.gr_gid;
  if (member) {
    *member = 0;
    for (char **m = g.gr_mem; *m && user; m++)
      if (strcmp(*m, user) == 0)
        *member = 1;
    struct passwd pw, *pw_found = NULL;
    char pw_buf[4096];
    if (!*member && getpwuid_r(uid, &pw, pw_buf, sizeof pw_buf, &pw_found) == 0 && pw_found &&
        pw.pw_gid == g.gr_gid)
      *member = 1;
  }
  free(buf);
  return 1;
}

/* What stands at path before the service listens there: nothing, or a socket no server answers
   on (left by a killed service, removed here). Anything else is refused and left as it is: a
   regular file, a folder, a symbolic link, or a socket some server still answers on. */
static int clear_stale_socket(const char *path, const struct sockaddr_un *sa, ts_err *err) {
  struct stat st;
  if (lstat(path, &st) != 0) {
    if (errno == ENOENT)
      return TS_OK;
    return ts_err_set(err, TS_EOS, "cannot inspect %s: %s", path, strerror(errno));
  }
  if (!S_ISSOCK(st.st_mode))
    return ts_err_set(err, TS_EINVAL,
                      "%s exists and is not a socket (%s): refusing to replace it; remove it "
                      "yourself or give another path (--socket PATH names the socket to create)",
                      path,
                      S_ISREG(st.st_mode)   ? "a regular file"
                      : S_ISDIR(st.st_mode) ? "a folder"
                      : S_ISLNK(st.st_mode) ? "a symbolic link"
                                            : "not a socket");
  int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (probe < 0)
    return ts_err_set(err, TS_EOS, "cannot create a socket: %s", strerror(errno));
  int connected = connect(probe, (const struct sockaddr *)sa, sizeof *sa);
  int e = errno;
  close(probe);
  if (connected == 0)
    return ts_err_set(err, TS_EINVAL, "another ThreadSoup service already listens on %s", path);
  if (e != ECONNREFUSED)
    return ts_err_set(err, TS_EOS,
                      "%s is a socket, but whether a server still uses it is unknown (%s): "
                      "refusing to replace it",
                      path, strerror(e));
  /* Stale: nothing listens. unlink does not follow a link, and the path was a socket. */
  if (unlink(path) != 0 && errno != ENOENT)
    return ts_err_set(err, TS_EOS, "cannot remove the stale socket %s: %s", path, strerror(errno));
  return TS_OK;
}

int plat_ipc_listen(plat_ipc_server **out, const char *address, ts_err *err) {
  *out = NULL;
  struct sockaddr_un sa;
  int rc = socket_address(address, &sa, err);
  if (rc != TS_OK)
    return rc;
  rc = clear_stale_socket(address, &sa, err);
  if (rc != TS_OK)
    return rc;

  plat_ipc_server *s = calloc(1, sizeof *s);
  if (!s)
    return ts_err_set(err, TS_ENOMEM, "no memory for the control socket");
  snprintf(s->path, sizeof s->path, "%s", address);
  s->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s->fd < 0 || pipe2(s->wake, O_CLOEXEC) != 0) {
    int e = errno;
    if (s->fd >= 0)
      close(s->fd);
    free(s);
    return ts_err_set(err, TS_EOS, "cannot create the control socket: %s", strerror(e));
  }
  /* Created mode 0660 by the umask: no permissions for others at any moment, and no chmod by
     path afterwards (which would follow a link put in the socket's place). */
  mode_t old = umask(0117);
  int bound = bind(s->fd, (struct sockaddr *)&sa, sizeof sa);
  umask(old);
  if (bound != 0 || listen(s->fd, 64) != 0) {
    int e = errno;
    s->path[0] = '\0'; /* not ours to remove */
    plat_ipc_server_free(s);
    return ts_err_set(err, TS_EOS, "cannot listen on %s: %s", address, strerror(e));
  }
  struct stat st;
  if (lstat(address, &st) == 0) {
    s->dev = st.st_dev;
    s->ino = st.st_ino;
  }
  gid_t gid;
  /* Opened to the group; AT_SYMLINK_NOFOLLOW: a link put in the socket's place is not followed. */
  if (threadsoup_group(&gid, 0, NULL, NULL) &&
      fchownat(AT_FDCWD, address, (uid_t)-1, gid, AT_SYMLINK_NOFOLLOW) != 0) {
    /* not fatal: the socket stays root-only */
  }
  *out = s;
  return TS_OK;
}

int plat_ipc_accept(plat_ipc_server *s, plat_ipc_conn **out, ts_err *err) {
  *out = NULL;
  for (;;) {
    struct pollfd fds[2] = {{s->fd, POLLIN, 0}, {s->wake[0], POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR)
        continue;
      return ts_err_set(err, TS_EOS, "waiting for clients failed: %s", strerror(errno));
    }
    if (fds[1].revents)
      return ts_err_set(err, TS_EINTERRUPTED, "the control socket was closed");
    int fd = accept4(s->fd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED || errno == EAGAIN)
        continue;
      return ts_err_set(err, TS_EOS, "accepting a client failed: %s", strerror(errno));
    }
    plat_ipc_conn *c = malloc(sizeof *c);
    if (!c) {
      close(fd);
      return ts_err_set(err, TS_ENOMEM, "no memory for a client");
    }
    c->fd = fd;
    *out = c;
    return TS_OK;
  }
}

void plat_ipc_server_close(plat_ipc_server *s) {
  if (s && s->wake[1] >= 0) {
    if (write(s->wake[1], "x", 1) < 0) {
      /* the pipe is already readable */
    }
  }
}

void plat_ipc_server_free(plat_ipc_server *s) {
  if (!s)
    return;
  close(s->fd);
  close(s->wake[0]);
  close(s->wake[1]);
  struct stat st;
  if (s->path[0] && lstat(s->path, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == s->dev &&
      st.st_ino == s->ino)
    unlink(s->path);
  free(s);
}

/* The first folder on the way to path that this user may not pass through (no search
   permission), into folder; 0 when every folder on the way can be entered. */
static int closed_folder_on_path(const char *path, char *folder, size_t size) {
  size_t len = strlen(path);
  if (len >= size)
    return 0;
  if (path[0] != '/' && faccessat(AT_FDCWD, ".", X_OK, AT_EACCESS) != 0 && errno == EACCES) {
    snprintf(folder, size, ".");
    return 1;
  }
  for (size_t i = 0; i < len; i++) {
    if (path[i] != '/')
      continue;
    size_t n = i == 0 ? 1 : i; /* "/" itself, then each folder below it */
    memcpy(folder, path, n);
    folder[n] = '\0';
    if (faccessat(AT_FDCWD, folder, X_OK, AT_EACCESS) != 0 && errno == EACCES)
      return 1;
  }
  return 0;
}

/* Before a word is sent: the listening process (its credentials as the kernel kept them at
   listen) and the socket file must belong to root, or at a --socket address to this user, so
   that a socket another user put there cannot answer. */
static int check_server(int fd, const char *address, ts_err *err) {
  server_facts f;
  memset(&f, 0, sizeof f);
  f.default_address = strcmp(address, plat_ipc_default_address()) == 0;
  f.self_uid = (long)geteuid();
  f.peer_uid = f.file_uid = -1;
  struct ucred cred;
  socklen_t len = sizeof cred;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0) {
    f.peer_uid = (long)cred.uid;
    struct passwd *pw = getpwuid(cred.uid);
    snprintf(f.server, sizeof f.server, "pid %ld, user %s (uid %ld)", (long)cred.pid,
             pw ? pw->pw_name : "?", (long)cred.uid);
  }
  struct stat st;
  if (stat(address, &st) == 0)
    f.file_uid = (long)st.st_uid;
  char reason[300];
  if (server_trusted(&f, reason, sizeof reason))
    return TS_OK;
  return ts_err_set(err, TS_EDENIED, "refusing ThreadSoup's service at %s: %s", address, reason);
}

int plat_ipc_connect(plat_ipc_conn **out, const char *address, ts_err *err) {
  *out = NULL;
  struct sockaddr_un sa;
  int rc = socket_address(address, &sa, err);
  if (rc != TS_OK)
    return rc;
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return ts_err_set(err, TS_EOS, "cannot create a socket: %s", strerror(errno));
  if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
    int e = errno;
    close(fd);
    if (e == ENOENT || e == ECONNREFUSED)
      return ts_err_set(err, TS_EUNSUPPORTED,
                        "ThreadSoup's service is not running (nothing listens on %s); start it "
                        "with 'systemctl start threadsoup' or 'threadsoup service run'",
                        address);
    /* EACCES is either a folder on the way this user may not enter, or the socket itself (mode
       0660, group threadsoup) not open to this user: two different remedies. */
    char folder[sizeof sa.sun_path];
    if (e == EACCES && closed_folder_on_path(address, folder, sizeof folder))
      return ts_err_set(err, TS_EUNSUPPORTED,
                        "cannot reach the socket's folder: %s cannot be entered by this user (no "
                        "search permission), so ThreadSoup's service at %s is out of reach "
                        "whatever it allows; run as root, or have the service listen in a folder "
                        "every user can enter (threadsoup service run --socket PATH)",
                        folder, address);
    if (e == EACCES)
      return ts_err_set(err, TS_EUNSUPPORTED,
                        "not allowed to connect to ThreadSoup's service at %s: the socket is open "
                        "to root and group threadsoup only; join group threadsoup or run as root",
                        address);
    return ts_err_set(err, TS_EOS, "cannot connect to %s: %s", address, strerror(e));
  }
  rc = check_server(fd, address, err);
  if (rc != TS_OK) {
    close(fd);
    return rc;
  }
  plat_ipc_conn *c = malloc(sizeof *c);
  if (!c) {
    close(fd);
    return ts_err_set(err, TS_ENOMEM, "no memory for a connection");
  }
  c->fd = fd;
  *out = c;
  return TS_OK;
}

int plat_ipc_send(plat_ipc_conn *c, const void *buf, size_t len, ts_err *err) {
  const char *p = buf;
  while (len > 0) {
    /* MSG_NOSIGNAL: a client that went away is an error here, not a SIGPIPE for the service. */
    ssize_t n = send(c->fd, p, len, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return ts_err_set(err, TS_EOS, "sending failed: %s", strerror(errno));
    }
    p += n;
    len -= (size_t)n;
  }
  return TS_OK;
}

int plat_ipc_recv(plat_ipc_conn *c, void *buf, size_t capacity, size_t *got, ts_err *err) {
  for (;;) {
    ssize_t n = recv(c->fd, buf, capacity, 0);
    if (n >= 0) {
      *got = (size_t)n;
      return TS_OK;
    }
    if (errno != EINTR)
      return ts_err_set(err, TS_EOS, "receiving failed: %s", strerror(errno));
  }
}

/* Whether uid is a member of group "threadsoup" (peer_rights.h decides what that allows). The _r
   lookups: clients are identified on their own threads at once. */
static int uid_in_group(uid_t uid, const char *user) {
  gid_t gid;
  int member = 0;
  return threadsoup_group(&gid, uid, user, &member) && member;
}

long plat_console_session(void) { return -1; }

int plat_peer_may_run_programs(const plat_peer *peer) {
  return peer->uid == 0; /* members of group threadsoup control load and experiments only */
}

int plat_ipc_peer(plat_ipc_conn *c, plat_peer *out, ts_err *err) {
  struct ucred cred;
  socklen_t len = sizeof cred;
  memset(out, 0, sizeof *out);
  if (getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0)
    return ts_err_set(err, TS_EOS, "cannot identify the client: %s", strerror(errno));
  out->pid = (long)cred.pid;
  out->uid = (long)cred.uid;
  out->gid = (long)cred.gid;
  out->session = -1;
  char buf[4096];
  struct passwd pwd, *pw = NULL;
  if (getpwuid_r(cred.uid, &pwd, buf, sizeof buf, &pw) == 0 && pw)
    snprintf(out->name, sizeof out->name, "%s", pw->pw_name);
  else
    snprintf(out->name, sizeof out->name, "uid %ld", out->uid);
  peer_facts facts = {0};
  facts.is_root = cred.uid == 0;
  facts.group_member = uid_in_group(cred.uid, out->name);
  peer_rights rights;
  peer_rights_decide(&facts, &rights);
  out->privileged = rights.privileged;
  out->may_run_programs = rights.may_run_programs;
  return TS_OK;
}

void plat_ipc_shutdown(plat_ipc_conn *c) {
  if (c)
    shutdown(c->fd, SHUT_RDWR);
}

void plat_ipc_close(plat_ipc_conn *c) {
  if (!c)
    return;
  close(c->fd);
  free(c);
}
