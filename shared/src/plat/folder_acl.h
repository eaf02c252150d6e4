/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* folder_acl.h - who may change a Windows folder, decided from its security descriptor as SDDL
   text (owner and DACL): the decisions alone, with no OS call, so that tests try them on the
   descriptors of real folders (Program Files, C:\, a user's Downloads) on any system. */
#ifndef THREADSOUP_PLAT_FOLDER_ACL_H
#define THREADSOUP_PLAT_FOLDER_ACL_H

#include <stddef.h>
#include <stdint.h>

/* The service's data folder, %ProgramData%\ThreadSoup: SYSTEM and Administrators full control,
   Users read, for the folder and everything in it; protected ("P"): nothing inherited from
   ProgramData, where every user may create folders. The one descriptor of that folder, made at
   install and checked at every start. */
#define FOLDER_ACL_SERVICE_DATA "D:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;FR;;;BU)"

#define FOLDER_ACL_SID_MAX 96
#define FOLDER_ACL_ACES_MAX 48

/* ACE flags as SDDL writes them (OI, CI, NP, IO, ID): the values of winnt.h. */
enum {
  FOLDER_ACE_OBJECT_INHERIT = 0x01,
  FOLDER_ACE_CONTAINER_INHERIT = 0x02,
  FOLDER_ACE_NO_PROPAGATE = 0x04,
  FOLDER_ACE_INHERIT_ONLY = 0x08,
  FOLDER_ACE_INHERITED = 0x10
};

typedef struct folder_ace {
  char type;      /* 'A' allowed, 'D' denied, '?' any other (audit, object ACEs) */
  unsigned flags; /* FOLDER_ACE_* */
  uint32_t mask;  /* access mask, generic rights mapped to the file rights they stand for */
  char sid[FOLDER_ACL_SID_MAX]; /* "S-1-5-18": aliases (SY, BA, AU…) written out */
} folder_ace;

typedef struct folder_acl {
  char owner[FOLDER_ACL_SID_MAX]; /* "" when the text names none */
  int has_dacl;                   /* a "D:" part was there */
  int null_dacl;                  /* "D:NO_ACCESS_CONTROL": everyone may do everything */
  int protected_dacl;             /* "P": nothing inherited from the parent */
  int count;
  folder_ace aces[FOLDER_ACL_ACES_MAX];
} folder_acl;

/* Reads SDDL text (as ConvertSecurityDescriptorToStringSecurityDescriptor writes it: "O:", "G:",
   "D:" and "S:" parts, rights as letters or hex, SIDs as aliases or S-1-…). 0, or -1 with a
   sentence in why naming what was not understood. */
int folder_acl_parse(const char *sddl, folder_acl *out, char *why, size_t len);

/* SID aliases written out ("SY" → "S-1-5-18"), into buf; unknown aliases stay as they are. */
const char *folder_acl_sid(const char *alias_or_sid, char *buf, size_t len);

/* Whether someone other than SYSTEM, Administrators, TrustedInstaller, CREATOR OWNER and
   `self_sid` (the account of this process, or NULL for none) may change the programs in the
   folder `name`: owns it (an owner may rewrite its DACL), or is granted writing, appending,
   creating or deleting files or changing the DACL or owner, on the folder itself or, through an
   entry files inherit, on the files in it. A missing or NULL DACL lets everyone. 1 with a
   sentence in reason naming who and how; 0 when only those may. */
int folder_acl_others_may_write(const folder_acl *acl, const char *name, const char *self_sid,
                                char *reason, size_t len);

/* What the service does with its data folder as it finds it. */
typedef enum folder_data_action {
  FOLDER_DATA_KEEP,       /* the one descriptor already: nothing written */
  FOLDER_DATA_RESET,      /* ours, with another DACL: FOLDER_ACL_SERVICE_DATA set again */
  FOLDER_DATA_MOVE_ASIDE, /* owned by someone else (made before install by a standard user, who
                             may have left files in it): renamed, and a new one made */
} folder_data_action;

/* The decision for the data folder found with `have`: owned by anyone but SYSTEM,
   Administrators, TrustedInstaller and self_sid → move aside; else a DACL that differs from
   `want` (the protection, or the set of explicit entries; any inherited entry) → reset; else
   keep. */
folder_data_action folder_acl_data_action(const folder_acl *have, const folder_acl *want,
                                          const char *self_sid);

#endif
