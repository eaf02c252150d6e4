/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* peer_rights.c - the service's decision what a control client may do, and the words of a
   refusal (see peer_rights.h); no OS call here. */
#include "peer_rights.h"

#include <stdio.h>

/* What Windows' documentation says and this relies on:
   - CheckTokenMembership reports a SID as a member only when it is present with SE_GROUP_ENABLED;
     a deny-only SID (SE_GROUP_USE_FOR_DENY_ONLY, never enabled, cannot be re-enabled) is not a
     member. Under UAC an administrator's unelevated token is such a filtered token: Administrators
     is there deny-only, so the old test "member of Administrators" refused the tray.
   - TokenElevationType: Default (no linked token: a standard user, or UAC off), Full (an elevated
     token), Limited (the filtered half of an administrator's pair: elevation is possible).
   So: Administrators enabled = an administrator acting with its rights; deny-only or Limited =
   an administrator who has not elevated. */
void peer_rights_decide(const peer_facts *f, peer_rights *out) {
  int admin;
  int not_elevated = 0;
  if (f->windows) {
    admin = f->is_system || f->admin_enabled;
    not_elevated = !admin && (f->admin_deny_only || f->elevation_type == PEER_ELEVATION_LIMITED);
  } else {
    admin = f->is_root;
  }
  out->may_run_programs = admin;
  out->privileged = admin || f->group_member;
  peer_refusal why = not_elevated ? PEER_REFUSAL_NOT_ELEVATED : PEER_REFUSAL_NOT_ALLOWED;
  out->programs_refusal = out->may_run_programs ? PEER_REFUSAL_NONE : why;
  out->control_refusal = out->privileged ? PEER_REFUSAL_NONE
                         : f->windows && f->group_listed && !f->group_member
                             ? PEER_REFUSAL_SIGN_IN_AGAIN
                             : why;
}

void peer_refusal_text(peer_refusal why, int windows, const char *verb, const char *name, char *buf,
                       size_t len) {
  const char *who = name && name[0] ? name : "this user";
  if (why == PEER_REFUSAL_NONE) {
    snprintf(buf, len, "%s is allowed", who);
  } else if (why == PEER_REFUSAL_SIGN_IN_AGAIN) {
    snprintf(buf, len,
             "%s needs an administrator (elevated), SYSTEM or a member of " PEER_GROUP_WINDOWS
             ": %s is in " PEER_GROUP_WINDOWS " but signed in before being added, and "
             "membership counts from the next sign-in: sign out and in once",
             verb, who);
  } else if (why == PEER_REFUSAL_NOT_ELEVATED) {
    snprintf(buf, len,
             "%s needs an administrator (elevated), SYSTEM or a member of " PEER_GROUP_WINDOWS
             ": your administrator rights are not elevated: join " PEER_GROUP_WINDOWS
             " or run elevated",
             verb);
  } else if (windows) {
    snprintf(buf, len,
             "%s needs an administrator: %s is not an administrator, SYSTEM or a member "
             "of " PEER_GROUP_WINDOWS,
             verb, who);
  } else {
    snprintf(buf, len, "%s needs an administrator: %s is not root or in group " PEER_GROUP_POSIX,
             verb, who);
  }
}
