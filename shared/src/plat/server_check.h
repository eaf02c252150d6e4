/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* server_check.h - whether the program serving a control connection may be ThreadSoup's service:
   the decision alone, on facts each platform's ipc.c reads from the OS, so tests can try it. */
#ifndef THREADSOUP_PLAT_SERVER_CHECK_H
#define THREADSOUP_PLAT_SERVER_CHECK_H

#include <stddef.h>

/* What a client learned about the server at the other end, before sending anything. */
typedef struct server_facts {
  int windows; /* which half of the facts below applies */

  /* Windows: the token of the pipe's server process (GetNamedPipeServerProcessId), and the pipe
     object's owner for when that token cannot be read (a LocalSystem process is closed to
     ordinary users). */
  int token_known;
  int token_system;         /* the token's user is LocalSystem */
  int token_elevated_admin; /* an elevated member of Administrators (threadsoup service run
                               --console by an administrator) */
  int owner_known;
  int owner_admin; /* the pipe's owner is SYSTEM or Administrators */

  /* POSIX: the kernel's credentials of the listening process (SO_PEERCRED) and the owner of the
     socket file; -1 when unknown. */
  int default_address; /* the service's own address, not one given with --socket */
  long peer_uid;
  long file_uid;
  long self_uid; /* the client's effective uid */

  char server[96]; /* who serves, in words, for the refusal ("pid 42, user bob") */
} server_facts;

/* 1 when the server may be ThreadSoup's service; 0 with a sentence in `reason` saying who serves
   and what was expected. Windows: LocalSystem or an elevated administrator; without its token,
   a pipe owned by SYSTEM or Administrators. POSIX: at the default address root only; at a
   --socket address root or the client's own user; the socket file's owner likewise. */
int server_trusted(const server_facts *f, char *reason, size_t len);

#endif
