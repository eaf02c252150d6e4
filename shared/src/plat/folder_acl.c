/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* folder_acl.c - who may change a Windows folder, from its SDDL text (see folder_acl.h); no OS
   call here. */
#include "folder_acl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The SDDL aliases of the SIDs a file system's DACLs name ("SID strings" in Microsoft's SDDL
   documentation), with the names Windows shows for them. */
static const struct {
  const char *alias, *sid, *name;
} sids[] = {
    {"SY", "S-1-5-18", "SYSTEM"},
    {"BA", "S-1-5-32-544", "Administrators"},
    {"BU", "S-1-5-32-545", "Users"},
    {"BG", "S-1-5-32-546", "Guests"},
    {"PU", "S-1-5-32-547", "Power Users"},
    {"RD", "S-1-5-32-555", "Remote Desktop Users"},
    {"AU", "S-1-5-11", "Authenticated Users"},
    {"WD", "S-1-1-0", "Everyone"},
    {"IU", "S-1-5-4", "INTERACTIVE"},
    {"NU", "S-1-5-2", "NETWORK"},
    {"SU", "S-1-5-6", "SERVICE"},
    {"AN", "S-1-5-7", "ANONYMOUS LOGON"},
    {"PS", "S-1-5-10", "SELF"},
    {"CO", "S-1-3-0", "CREATOR OWNER"},
    {"CG", "S-1-3-1", "CREATOR GROUP"},
    {"OW", "S-1-3-4", "OWNER RIGHTS"},
    {"LS", "S-1-5-19", "LOCAL SERVICE"},
    {"NS", "S-1-5-20", "NETWORK SERVICE"},
    {"AC", "S-1-15-2-1", "ALL APPLICATION PACKAGES"},
};

/* NT SERVICE\TrustedInstaller, which owns Program Files and the system's folders: a service SID,
   with no alias. */
#define FOLDER_ACL_TRUSTED_INSTALLER                                                               \
  "S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464"

/* Those who may change what the service runs and keeps anyway: SYSTEM, Administrators,
   TrustedInstaller, and CREATOR OWNER (in an entry files inherit it stands for whoever creates
   the file: where only the trusted may create files, one of them). */
static const char *const trusted[] = {"S-1-5-18", "S-1-5-32-544", "S-1-3-0",
                                      FOLDER_ACL_TRUSTED_INSTALLER};

/* The two-letter rights of SDDL. For files the directory-service names stand for the file bits
   of the same values (CC list, DC add a file, LC add a subfolder, DT delete a child…); the generic
   rights are mapped to the file rights they mean (FILE_GENERIC_READ and so on), so that masks
   compare whichever way a descriptor was written. */
/* A two-letter SDDL code and the bits it stands for. */
typedef struct code_bits {
  const char *code;
  uint32_t bits;
} code_bits;

static const code_bits rights[] = {
    {"GA", 0x1F01FF}, {"GR", 0x120089}, {"GW", 0x120116}, {"GX", 0x1200A0}, {"FA", 0x1F01FF},
    {"FR", 0x120089}, {"FW", 0x120116}, {"FX", 0x1200A0}, {"RC", 0x20000},  {"SD", 0x10000},
    {"WD", 0x40000},  {"WO", 0x80000},  {"CC", 0x1},      {"DC", 0x2},      {"LC", 0x4},
    {"SW", 0x8},      {"RP", 0x10},     {"WP", 0x20},     {"DT", 0x40},     {"LO", 0x80},
    {"CR", 0x100},    {"KA", 0xF003F},  {"KR", 0x20019},  {"KW", 0x20006},  {"KX", 0x20019},
};

/* Generic rights in a hex mask (GENERIC_ALL, _EXECUTE, _WRITE, _READ) as the file rights. */
static uint32_t map_generic(uint32_t mask) {
  static const uint32_t generic[4][2] = {{0x10000000, 0x1F01FF},
                                         {0x20000000, 0x1200A0},
                                         {0x40000000, 0x120116},
                                         {0x80000000u, 0x120089}};
  for (int i = 0; i < 4; i++)
    if (mask & generic[i][0])
      mask = (mask & ~generic[i][0]) | generic[i][1];
  return mask;
}

static const code_bits ace_flags[] = {{"OI", FOLDER_ACE_OBJECT_INHERIT},
                                      {"CI", FOLDER_ACE_CONTAINER_INHERIT},
                                      {"NP", FOLDER_ACE_NO_PROPAGATE},
                                      {"IO", FOLDER_ACE_INHERIT_ONLY},
                                      {"ID", FOLDER_ACE_INHERITED},
                                      {"SA", 0},
                                      {"FA", 0}};

/* What changes the programs a folder holds: adding a file (FILE_WRITE_DATA), a subfolder or data
   at the end (FILE_APPEND_DATA), deleting a child or the thing itself, and rewriting the DACL or
   the owner. */
#define FOLDER_ACL_CHANGE_RIGHTS (0x2u | 0x4u | 0x40u | 0x10000u | 0x40000u | 0x80000u)

const char *folder_acl_sid(const char *alias_or_sid, char *buf, size_t len) {
  for (size_t i = 0; i < sizeof sids / sizeof sids[0]; i++)
    if (strcmp(alias_or_sid, sids[i].alias) == 0) {
      snprintf(buf, len, "%s", sids[i].sid);
      return buf;
    }
  snprintf(buf, len, "%s", alias_or_sid);
  return buf;
}

/* "Authenticated Users (S-1-5-11)", or the SID alone for an account the table does not name. */
static void describe(const char *sid, char *buf, size_t len) {
  for (size_t i = 0; i < sizeof sids / sizeof sids[0]; i++)
    if (strcmp(sid, sids[i].sid) == 0) {
      snprintf(buf, len, "%s (%s)", sids[i].name, sid);
      return;
    }
  snprintf(buf, len, "%s", sid);
}

static int is_trusted(const char *sid, const char *self_sid) {
  for (size_t i = 0; i < sizeof trusted / sizeof trusted[0]; i++)
    if (strcmp(sid, trusted[i]) == 0)
      return 1;
  char self[FOLDER_ACL_SID_MAX];
  return self_sid && self_sid[0] && strcmp(sid, folder_acl_sid(self_sid, self, sizeof self)) == 0;
}

/* Copies the n bytes at s into buf as a string; 0 when they do not fit. */
static int take(const char *s, size_t n, char *buf, size_t len) {
  if (n >= len)
    return 0;
  memcpy(buf, s, n);
  buf[n] = '\0';
  return 1;
}

/* The n characters at s as two-letter codes of table, their bits or'd into *out; 0 when one is
   not in it. */
static int parse_codes(const char *s, size_t n, const code_bits *table, size_t count,
                       uint32_t *out) {
  *out = 0;
  if (n % 2)
    return 0;
  for (size_t at = 0; at < n; at += 2) {
    size_t i = 0;
    while (i < count && strncmp(s + at, table[i].code, 2))
      i++;
    if (i == count)
      return 0;
    *out |= table[i].bits;
  }
  return 1;
}

/* Rights as hex ("0x1200a9") or as codes ("FA", "SDGXGWGR"). */
static int parse_rights(const char *s, size_t n, uint32_t *out) {
  char text[64];
  if (!take(s, n, text, sizeof text) || n == 0)
    return 0;
  if (text[0] != '0' || (text[1] != 'x' && text[1] != 'X'))
    return parse_codes(text, n, rights, sizeof rights / sizeof rights[0], out);
  char *end;
  unsigned long v = strtoul(text, &end, 16);
  if (*end || v > 0xFFFFFFFFul)
    return 0;
  *out = map_generic((uint32_t)v);
  return 1;
}

/* One "(type;flags;rights;object;inherited object;sid…)" without its parentheses. */
static int parse_ace(const char *s, size_t n, folder_ace *ace) {
  const char *field[6];
  size_t flen[6];
  size_t k = 0, start = 0;
  for (size_t i = 0; i <= n && k < 6; i++)
    if (i == n || s[i] == ';') {
      field[k] = s + start;
      flen[k++] = i - start;
      start = i + 1;
    }
  if (k < 6)
    return 0;
  ace->type = flen[0] == 1 && (s[0] == 'A' || s[0] == 'D') ? s[0] : '?';
  char sid[FOLDER_ACL_SID_MAX];
  /* A conditional ACE's resource part would follow the SID after another ';'. */
  size_t sid_len = strcspn(field[5], ";");
  if (sid_len > flen[5])
    sid_len = flen[5];
  uint32_t flags = 0;
  if (!parse_codes(field[1], flen[1], ace_flags, sizeof ace_flags / sizeof ace_flags[0], &flags) ||
      !parse_rights(field[2], flen[2], &ace->mask) || sid_len == 0 ||
      !take(field[5], sid_len, sid, sizeof sid))
    return 0;
  ace->flags = flags;
  folder_acl_sid(sid, ace->sid, sizeof ace->sid);
  return 1;
}

/* Where the part starting at s ends: at the next "O:", "G:", "D:" or "S:" outside parentheses. */
static size_t part_length(const char *s) {
  int depth = 0;
  size_t i = 0;
  for (; s[i]; i++) {
    if (s[i] == '(')
      depth++;
    else if (s[i] == ')')
      depth--;
    else if (depth == 0 && i > 0 && s[i + 1] == ':' && strchr("OGDS", s[i]))
      break;
  }
  return i;
}

static int parse_dacl(const char *s, size_t n, folder_acl *out, char *why, size_t len) {
  size_t at = 0;
  out->has_dacl = 1;
  if (n >= 17 && strncmp(s, "NO_ACCESS_CONTROL", 17) == 0) {
    out->null_dacl = 1;
    at = 17;
  }
  while (at < n && s[at] != '(') {
    if (s[at] == 'P')
      out->protected_dacl = 1;
    else if (s[at] != 'A' || at + 1 >= n || (s[at + 1] != 'I' && s[at + 1] != 'R')) {
      snprintf(why, len, "unknown DACL flag at \"%.*s\" (known: P, AI, AR)", (int)(n - at), s + at);
      return -1;
    } else {
      at++;
    }
    at++;
  }
  while (at < n) {
    const char *close = memchr(s + at, ')', n - at);
    if (s[at] != '(' || !close) {
      snprintf(why, len, "an access entry is not in parentheses at \"%.*s\"", (int)(n - at),
               s + at);
      return -1;
    }
    if (out->count == FOLDER_ACL_ACES_MAX) {
      snprintf(why, len, "more than %d access entries", FOLDER_ACL_ACES_MAX);
      return -1;
    }
    size_t ace_len = (size_t)(close - (s + at + 1));
    if (!parse_ace(s + at + 1, ace_len, &out->aces[out->count])) {
      snprintf(why, len,
               "access entry (%.*s) not understood (expected type;flags;rights;;;SID with flags "
               "of OI, CI, NP, IO, ID and rights as hex or letters such as FA, GR, WD)",
               (int)ace_len, s + at + 1);
      return -1;
    }
    out->count++;
    at += ace_len + 2;
  }
  return 0;
}

int folder_acl_parse(const char *sddl, folder_acl *out, char *why, size_t len) {
  memset(out, 0, sizeof *out);
  const char *s = sddl;
  while (*s) {
    if (s[1] != ':' || !strchr("OGDS", s[0])) {
      snprintf(why, len, "not a security descriptor at \"%s\" (expected O:, G:, D: or S:)", s);
      return -1;
    }
    char kind = s[0];
    s += 2;
    size_t n = part_length(s);
    if (kind == 'O') {
      char sid[FOLDER_ACL_SID_MAX];
      if (!take(s, n, sid, sizeof sid)) {
        snprintf(why, len, "the owner \"%.*s\" is too long for a SID", (int)n, s);
        return -1;
      }
      folder_acl_sid(sid, out->owner, sizeof out->owner);
    } else if (kind == 'D' && parse_dacl(s, n, out, why, len) != 0) {
      return -1;
    }
    s += n;
  }
  return 0;
}

int folder_acl_others_may_write(const folder_acl *acl, const char *name, const char *self_sid,
                                char *reason, size_t len) {
  char who[FOLDER_ACL_SID_MAX + 64];
  if (acl->owner[0] && !is_trusted(acl->owner, self_sid)) {
    describe(acl->owner, who, sizeof who);
    snprintf(reason, len, "%s is owned by %s, who may change its access list", name, who);
    return 1;
  }
  if (!acl->has_dacl || acl->null_dacl) {
    snprintf(reason, len, "%s has no access list: everyone may change it", name);
    return 1;
  }
  /* Denied entries are not subtracted: a folder that needs one to be safe is refused too. */
  for (int i = 0; i < acl->count; i++) {
    const folder_ace *a = &acl->aces[i];
    int on_folder = !(a->flags & FOLDER_ACE_INHERIT_ONLY);
    int on_files = (a->flags & FOLDER_ACE_OBJECT_INHERIT) != 0;
    if (a->type != 'A' || !(a->mask & FOLDER_ACL_CHANGE_RIGHTS) || !(on_folder || on_files) ||
        is_trusted(a->sid, self_sid))
      continue;
    describe(a->sid, who, sizeof who);
    snprintf(reason, len, "%s may %s %s (access mask 0x%08lx)", who,
             on_folder ? "write to or change" : "change the files put in", name,
             (unsigned long)a->mask);
    return 1;
  }
  if (reason && len)
    reason[0] = '\0';
  return 0;
}

static int same_ace(const folder_ace *a, const folder_ace *b) {
  return a->type == b->type && (a->flags & ~FOLDER_ACE_INHERITED) == b->flags &&
         a->mask == b->mask && strcmp(a->sid, b->sid) == 0;
}

/* Whether every entry of a has its like in b. */
static int aces_within(const folder_acl *a, const folder_acl *b) {
  for (int i = 0; i < a->count; i++) {
    int found = 0;
    for (int j = 0; j < b->count && !found; j++)
      found = same_ace(&a->aces[i], &b->aces[j]);
    if (!found)
      return 0;
  }
  return 1;
}

folder_data_action folder_acl_data_action(const folder_acl *have, const folder_acl *want,
                                          const char *self_sid) {
  if (have->owner[0] && !is_trusted(have->owner, self_sid))
    return FOLDER_DATA_MOVE_ASIDE;
  if (!have->has_dacl || have->null_dacl || have->protected_dacl != want->protected_dacl ||
      have->count != want->count)
    return FOLDER_DATA_RESET;
  for (int i = 0; i < have->count; i++)
    if (have->aces[i].flags & FOLDER_ACE_INHERITED)
      return FOLDER_DATA_RESET;
  return aces_within(have, want) && aces_within(want, have) ? FOLDER_DATA_KEEP : FOLDER_DATA_RESET;
}
