/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* peer_rights.h - what a control client may do, decided from facts each platform's ipc.c reads
   from its token or credentials: the decision alone, with no OS call, so tests can try it. */
#ifndef THREADSOUP_PLAT_PEER_RIGHTS_H
#define THREADSOUP_PLAT_PEER_RIGHTS_H

#include <stddef.h>

/* The local group whose members control load, experiments, schedules and quiet mode. */
#define PEER_GROUP_WINDOWS "ThreadSoup Users"
#define PEER_GROUP_POSIX "threadsoup"

/* TOKEN_ELEVATION_TYPE's values (winnt.h), and 0 where the system does not say (POSIX, or
   GetTokenInformation refused). */
enum {
  PEER_ELEVATION_UNKNOWN = 0,
  PEER_ELEVATION_DEFAULT = 1,
  PEER_ELEVATION_FULL = 2,
  PEER_ELEVATION_LIMITED = 3
};

/* What the OS says about a client. */
typedef struct peer_facts {
  int windows; /* which half of the facts below applies */
  /* Windows, from the client's impersonation token. */
  int is_system;       /* TokenUser is LocalSystem */
  int admin_enabled;   /* BUILTIN\Administrators among TokenGroups with SE_GROUP_ENABLED: an
                          elevated token, or an administrator where UAC is off */
  int admin_deny_only; /* BUILTIN\Administrators with SE_GROUP_USE_FOR_DENY_ONLY: an
                          administrator's UAC-filtered (unelevated) token */
  int elevation_type;  /* TokenElevationType, PEER_ELEVATION_* */
  /* POSIX, from SO_PEERCRED. */
  int is_root; /* uid 0 */
  /* Both: a member of PEER_GROUP_WINDOWS (enabled in the token; a missing group is no
     membership) or of group PEER_GROUP_POSIX. */
  int group_member;
  /* Windows: the account is listed among PEER_GROUP_WINDOWS's members (the group's own list,
     NetLocalGroupGetMembers), which a token carries only from the sign-in after it was added. */
  int group_listed;
} peer_facts;

/* Why a client may not control, or may not run programs. */
typedef enum peer_refusal {
  PEER_REFUSAL_NONE = 0,          /* allowed */
  PEER_REFUSAL_NOT_ELEVATED = 1,  /* Windows: an administrator whose token is not elevated */
  PEER_REFUSAL_NOT_ALLOWED = 2,   /* neither administrator/root, SYSTEM, nor a group member */
  PEER_REFUSAL_SIGN_IN_AGAIN = 3, /* Windows: listed in the group, but this sign-in's token
                                     predates it */
} peer_refusal;

typedef struct peer_rights {
  int privileged;       /* may control: load, experiments, record, schedules, quiet mode */
  int may_run_programs; /* may make the service run programs (command benchmarks, tool paths) */
  peer_refusal control_refusal;  /* why !privileged */
  peer_refusal programs_refusal; /* why !may_run_programs */
} peer_rights;

/* Windows: SYSTEM, an administrator with the Administrators SID enabled (elevated) and members of
   ThreadSoup Users control; SYSTEM and elevated administrators run programs. POSIX: root and
   members of group threadsoup control; root alone runs programs. An administrator whose token
   holds Administrators deny-only, or whose token is TokenElevationTypeLimited, is refused as
   "not elevated" (whatever it may still do as a group member). A user listed in ThreadSoup Users
   whose token lacks it is refused control as "sign in again": membership counts from the next
   sign-in, and that is all such a user has to do. */
void peer_rights_decide(const peer_facts *f, peer_rights *out);

/* The sentence refusing control (`verb` asked by `name`): what it needs, which case it is, and
   what to do. Refusals of programs are worded where a plan is refused (runner.c, handlers.c). */
void peer_refusal_text(peer_refusal why, int windows, const char *verb, const char *name, char *buf,
                       size_t len);

#ifdef _WIN32
/* Reads the facts from a token (a HANDLE with TOKEN_QUERY; an impersonation token when
   `group_sid` is given, as CheckTokenMembership needs) and membership of `group_sid` (ThreadSoup
   Users' SID; NULL when the group does not exist). 0 with GetLastError set when the token cannot
   be read. In shared/src/plat/win32/ipc.c. */
int peer_facts_from_token(void *token, const void *group_sid, peer_facts *f);
/* ThreadSoup Users' SID (looked up as COMPUTER\ThreadSoup Users: the local accounts only, never a
   domain controller) in `sid`; 0 when the group does not exist. Not while impersonating at the
   identification level (the LSA refuses such a caller). */
int peer_users_group_sid(void *sid, unsigned long sid_size);
#endif

#endif
