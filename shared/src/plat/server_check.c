/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* server_check.c - the client's decision whether the program serving a control connection may be
   ThreadSoup's service (see server_check.h); no OS call here. */
#include "server_check.h"

#include <stdio.h>

static int refuse(char *reason, size_t len, const char *what) {
  snprintf(reason, len, "%s", what);
  return 0;
}

static int windows_trusted(const server_facts *f, char *reason, size_t len) {
  char text[300];
  if (f->token_known) {
    if (f->token_system || f->token_elevated_admin)
      return 1;
    snprintf(text, sizeof text,
             "the pipe is served by %s, which is neither LocalSystem (the service) nor an "
             "elevated administrator (threadsoup service run --console): another program may "
             "have taken the pipe's name; nothing was sent",
             f->server[0] ? f->server : "an unknown process");
    return refuse(reason, len, text);
  }
  if (f->owner_known && f->owner_admin)
    return 1;
  snprintf(text, sizeof text,
           "the pipe is served by %s, whose account cannot be read, and the pipe is %s: "
           "expected SYSTEM or Administrators; nothing was sent",
           f->server[0] ? f->server : "an unknown process",
           f->owner_known ? "owned by another account" : "of unknown owner");
  return refuse(reason, len, text);
}

static int posix_trusted(const server_facts *f, char *reason, size_t len) {
  char text[300];
  const char *expected = f->default_address ? "root (the service's own socket)"
                                            : "root or this user (a --socket address)";
  int peer_ok =
      f->peer_uid == 0 || (!f->default_address && f->peer_uid == f->self_uid && f->self_uid >= 0);
  int file_ok =
      f->file_uid == 0 || (!f->default_address && f->file_uid == f->self_uid && f->self_uid >= 0);
  if (f->peer_uid < 0) {
    snprintf(text, sizeof text,
             "cannot tell who serves the socket (%s); expected %s; nothing was sent",
             f->server[0] ? f->server : "no credentials", expected);
    return refuse(reason, len, text);
  }
  if (!peer_ok) {
    snprintf(text, sizeof text, "the socket is served by %s, expected %s; nothing was sent",
             f->server[0] ? f->server : "another user", expected);
    return refuse(reason, len, text);
  }
  if (!file_ok) {
    snprintf(text, sizeof text, "the socket file belongs to uid %ld, expected %s; nothing was sent",
             f->file_uid, expected);
    return refuse(reason, len, text);
  }
  return 1;
}

int server_trusted(const server_facts *f, char *reason, size_t len) {
  if (len)
    reason[0] = '\0';
  return f->windows ? windows_trusted(f, reason, len) : posix_trusted(f, reason, len);
}
