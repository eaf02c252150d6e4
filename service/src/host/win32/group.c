/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* group.c (Windows) - the local group ThreadSoup Users, whose members control the service without
   elevating (as Docker Desktop's docker-users): created by `service install`, the MSI and the
   service's own start, and the installing user added to it. */
#include "../host.h"

#include <stdio.h>
#include <string.h>
#include <windows.h>
#include <lm.h> /* needs windows.h first */
#include <sddl.h>

#include "plat/peer_rights.h"
#include "threadsoup/plat_win32.h"

/* What the documentation says and this relies on: NetLocalGroupAdd (level 1: name and comment)
   answers ERROR_ALIAS_EXISTS or NERR_GroupExists for a group that is there already, and only
   administrators may call it; NetLocalGroupAddMembers (level 0: a SID) answers
   ERROR_MEMBER_IN_ALIAS for a member already in. A new membership reaches a user's token only at
   the next sign-in. Wine 8 (measured): NetLocalGroupAdd and NetLocalGroupAddMembers answer
   success and keep nothing; LookupAccountNameW then cannot find the group (ERROR_NONE_MAPPED). */

#define GROUP_W L"" PEER_GROUP_WINDOWS
#define GROUP_COMMENT_W                                                                            \
  L"Members may start and stop ThreadSoup's load and experiments, and manage its schedules and "   \
  L"quiet mode, without elevating. Plans that run programs stay with elevated administrators."

static void add_said(char *said, size_t len, const char *text) {
  size_t used = strlen(said);
  if (used < len)
    snprintf(said + used, len - used, "%s%s", used ? "; " : "", text);
}

static int net_error(ts_err *err, NET_API_STATUS code, const char *what) {
  char text[256];
  if (code == NERR_GroupExists || code == NERR_UserNotFound || code == NERR_GroupNotFound ||
      code == NERR_InvalidComputer || code == NERR_NotPrimary)
    snprintf(text, sizeof text, "network management error %lu", (unsigned long)code);
  else
    win32_error_text(code, text, sizeof text);
  return ts_err_set(err, TS_EOS, "%s: %s", what, text);
}

/* "DOMAIN\\user" for `sid`, or `fallback`. */
static void account_name(PSID sid, const char *fallback, char *name, size_t len) {
  wchar_t n[128], d[128];
  DWORD n_count = sizeof n / sizeof n[0], d_count = sizeof d / sizeof d[0];
  SID_NAME_USE use;
  char nn[128], dd[128];
  if (LookupAccountSidW(NULL, sid, n, &n_count, d, &d_count, &use) &&
      win32_from_wide(n, nn, sizeof nn) && win32_from_wide(d, dd, sizeof dd))
    snprintf(name, len, dd[0] ? "%s\\%s" : "%s%s", dd, nn);
  else
    snprintf(name, len, "%s", fallback);
}

/* The account named `who` ("PC\ann", "ann", or a SID "S-1-5-21-…") in `sid`, and its name. */
static int find_account(const char *who, BYTE *sid, DWORD sid_size, char *name, size_t name_len,
                        ts_err *err) {
  wchar_t wwho[256];
  if (!win32_to_wide(who, wwho, sizeof wwho / sizeof wwho[0]))
    return ts_err_set(err, TS_EUSAGE, "user name too long or not UTF-8: %s", who);
  if (wcsncmp(wwho, L"S-", 2) == 0) {
    PSID parsed;
    if (!ConvertStringSidToSidW(wwho, &parsed))
      return ts_err_set(err, TS_EUSAGE, "'%s' is not a SID (S-1-5-21-…) of an account", who);
    int ok = CopySid(sid_size, sid, parsed);
    LocalFree(parsed);
    if (!ok)
      return ts_err_set(err, TS_EUSAGE, "'%s': a SID too long", who);
  } else {
    wchar_t domain[256];
    DWORD domain_count = sizeof domain / sizeof domain[0];
    SID_NAME_USE use;
    if (!LookupAccountNameW(NULL, wwho, sid, &sid_size, domain, &domain_count, &use))
      return ts_err_set(err, TS_EUSAGE,
                        "no account named '%s' (accepted: a user name, DOMAIN\\user, or a SID)",
                        who);
  }
  account_name(sid, who, name, name_len);
  return TS_OK;
}

/* The caller's own account, when its token is an elevated administrator's (not SYSTEM): the one
   `service install` adds. 0 otherwise. */
static int caller_to_add(BYTE *sid, DWORD sid_size) {
  HANDLE token, impersonation = NULL;
  if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY | TOKEN_DUPLICATE, &token))
    return 0;
  peer_facts f;
  int ok = DuplicateToken(token, SecurityIdentification, &impersonation) &&
           peer_facts_from_token(impersonation, NULL, &f) && f.admin_enabled && !f.is_system;
  BYTE info[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
  DWORD size;
  ok = ok && GetTokenInformation(token, TokenUser, info, sizeof info, &size) &&
       CopySid(sid_size, sid, ((TOKEN_USER *)info)->User.Sid);
  if (impersonation)
    CloseHandle(impersonation);
  CloseHandle(token);
  return ok;
}

int host_users_group(const char *member, char *said, size_t len, ts_err *err) {
  said[0] = '\0';
  LOCALGROUP_INFO_1 info = {GROUP_W, GROUP_COMMENT_W};
  DWORD bad = 0;
  NET_API_STATUS code = NetLocalGroupAdd(NULL, 1, (LPBYTE)&info, &bad);
  if (code != NERR_Success && code != ERROR_ALIAS_EXISTS && code != NERR_GroupExists)
    return net_error(err, code, "cannot create the local group " PEER_GROUP_WINDOWS);
  BYTE group[SECURITY_MAX_SID_SIZE];
  if (!peer_users_group_sid(group, sizeof group))
    return ts_err_set(err, TS_EUNSUPPORTED,
                      "the local group " PEER_GROUP_WINDOWS " was %s but cannot be found (this "
                      "system keeps no local groups, as Wine): only elevated administrators and "
                      "SYSTEM may control the service here",
                      code == NERR_Success ? "reported created" : "reported present");
  add_said(said, len,
           code == NERR_Success ? "created the local group " PEER_GROUP_WINDOWS
                                : "the local group " PEER_GROUP_WINDOWS " exists");
  if (!member)
    return TS_OK;
  BYTE sid[SECURITY_MAX_SID_SIZE];
  char name[260], text[400];
  if (member[0]) {
    int rc = find_account(member, sid, sizeof sid, name, sizeof name, err);
    if (rc != TS_OK)
      return rc;
  } else if (caller_to_add(sid, sizeof sid)) {
    account_name(sid, "this user", name, sizeof name);
  } else {
    add_said(said, len, "no user added (the caller is not an elevated administrator)");
    return TS_OK;
  }
  LOCALGROUP_MEMBERS_INFO_0 one = {sid};
  code = NetLocalGroupAddMembers(NULL, GROUP_W, 0, (LPBYTE)&one, 1);
  if (code == ERROR_MEMBER_IN_ALIAS) {
    snprintf(text, sizeof text, "%s is a member already", name);
  } else if (code == NERR_Success) {
    snprintf(text, sizeof text,
             "added %s to " PEER_GROUP_WINDOWS " (it counts from that user's next sign-in)", name);
  } else {
    snprintf(text, sizeof text, "cannot add %s to the local group " PEER_GROUP_WINDOWS, name);
    return net_error(err, code, text);
  }
  add_said(said, len, text);
  return TS_OK;
}
