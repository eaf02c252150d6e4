/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* fs.c (Windows) - data folders and paths; UTF-8 outside, UTF-16 to the API. */
#include "threadsoup/plat.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "win32.h"

#include "threadsoup/plat_doctor.h"

#include "../folder_acl.h"
/* After windows.h (win32.h): RtlGenRandom, advapi32's SystemFunction036. */
#include <ntsecapi.h>

const char *plat_getenv(const char *name, char *buf, size_t len) {
  wchar_t wname[128], value[PLAT_PATH_MAX];
  if (!win32_to_wide(name, wname, sizeof wname / sizeof wname[0]))
    return NULL;
  DWORD n = GetEnvironmentVariableW(wname, value, sizeof value / sizeof value[0]);
  if (n == 0 || n >= sizeof value / sizeof value[0])
    return NULL;
  return win32_from_wide(value, buf, len) ? buf : NULL;
}

int plat_user_data_dir(char *buf, size_t len, ts_err *err) {
  char env[PLAT_PATH_MAX];
  if (!plat_getenv("LOCALAPPDATA", env, sizeof env))
    return ts_err_set(err, TS_EOS, "LOCALAPPDATA is not set: give --db PATH");
  snprintf(buf, len, "%s\\ThreadSoup", env);
  return TS_OK;
}

static int is_separator(char c) { return c == '\\' || c == '/'; }

static int make_one_dir(const char *path, ts_err *err) {
  wchar_t wide[PLAT_PATH_MAX];
  if (!win32_to_wide(path, wide, sizeof wide / sizeof wide[0]))
    return ts_err_set(err, TS_EINVAL, "path too long or not UTF-8: %s", path);
  if (CreateDirectoryW(wide, NULL) || GetLastError() == ERROR_ALREADY_EXISTS)
    return TS_OK;
  char text[256];
  win32_error_text(GetLastError(), text, sizeof text);
  return ts_err_set(err, TS_EOS, "cannot create folder %s: %s", path, text);
}

int plat_mkdir_p(const char *path, ts_err *err) {
  char tmp[PLAT_PATH_MAX];
  if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp)
    return ts_err_set(err, TS_EINVAL, "path too long (at most %d bytes): %s", PLAT_PATH_MAX - 1,
                      path);
  /* Skip a drive ("C:\") or the server and share of a UNC path: they cannot be created. */
  char *p = tmp;
  if (p[0] && p[1] == ':')
    p += 2;
  else if (is_separator(p[0]) && is_separator(p[1])) {
    int seps = 0;
    for (p += 2; *p && seps < 2; p++)
      if (is_separator(*p))
        seps++;
  }
  while (is_separator(*p))
    p++;
  for (; *p; p++) {
    if (!is_separator(*p))
      continue;
    char saved = *p;
    *p = '\0';
    int rc = make_one_dir(tmp, err);
    *p = saved;
    if (rc != TS_OK)
      return rc;
  }
  return make_one_dir(tmp, err);
}

void plat_path_dirname(const char *path, char *buf, size_t len) {
  const char *last = NULL;
  for (const char *p = path; *p; p++)
    if (is_separator(*p))
      last = p;
  if (!last) {
    snprintf(buf, len, "%s", "");
    return;
  }
  size_t n = (size_t)(last - path);
  if (n == 0 || (n == 2 && path[1] == ':'))
    n++; /* keep the root: "\" or "C:\" */
  snprintf(buf, len, "%.*s", (int)n, path);
}

char plat_path_separator(void) { return '\\'; }

int plat_file_exists(const char *path) {
  wchar_t wide[PLAT_PATH_MAX];
  if (!win32_to_wide(path, wide, sizeof wide / sizeof wide[0]))
    return 0;
  return GetFileAttributesW(wide) != INVALID_FILE_ATTRIBUTES;
}

int plat_path_exists(const char *path, int *exists, ts_err *err) {
  wchar_t wide[PLAT_PATH_MAX];
  *exists = 0;
  if (!win32_to_wide(path, wide, sizeof wide / sizeof wide[0]))
    return ts_err_set(err, TS_EOS, "cannot look at %s: the path is not UTF-8 or too long", path);
  *exists = GetFileAttributesW(wide) != INVALID_FILE_ATTRIBUTES;
  DWORD e = *exists ? ERROR_SUCCESS : GetLastError();
  if (*exists || e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND)
    return TS_OK;
  char text[256];
  win32_error_text(e, text, sizeof text);
  return ts_err_set(err, TS_EOS, "cannot look at %s: %s", path, text);
}

int plat_is_folder(const char *path) {
  wchar_t wide[PLAT_PATH_MAX];
  if (!win32_to_wide(path, wide, sizeof wide / sizeof wide[0]))
    return 0;
  DWORD attributes = GetFileAttributesW(wide);
  return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY);
}

FILE *plat_fopen(const char *path, const char *mode) {
  wchar_t wide[PLAT_PATH_MAX], wide_mode[16];
  if (!win32_to_wide(path, wide, sizeof wide / sizeof wide[0]) ||
      !win32_to_wide(mode, wide_mode, sizeof wide_mode / sizeof wide_mode[0])) {
    errno = EINVAL;
    return NULL;
  }
  return _wfopen(wide, wide_mode);
}

/* Without MOVEFILE_REPLACE_EXISTING the move fails when the target exists. */
int plat_rename_new(const char *from, const char *to, ts_err *err) {
  wchar_t wfrom[PLAT_PATH_MAX], wto[PLAT_PATH_MAX];
  if (!win32_to_wide(from, wfrom, sizeof wfrom / sizeof wfrom[0]) ||
      !win32_to_wide(to, wto, sizeof wto / sizeof wto[0]))
    return ts_err_set(err, TS_EINVAL, "the path %s is too long or not UTF-8", to);
  DWORD e = ERROR_SUCCESS;
  int tries = 0, wait_ms;
  do {
    if (MoveFileExW(wfrom, wto, MOVEFILE_WRITE_THROUGH))
      return TS_OK;
    e = GetLastError();
    wait_ms = plat_rename_retry_wait_ms(e, ++tries);
    if (wait_ms >= 0)
      Sleep((DWORD)wait_ms);
  } while (wait_ms >= 0);
  if (e == ERROR_ALREADY_EXISTS || e == ERROR_FILE_EXISTS)
    return ts_err_set(err, TS_EINVAL, "%s already exists", to);
  char text[256];
  win32_error_text(e, text, sizeof text);
  return ts_err_set(err, TS_EOS, "cannot move %s to %s: %s (error %lu, %d tries)", from, to, text,
                    (unsigned long)e, tries);
}

int plat_list_folder(const char *folder, int (*fn)(void *ctx, const char *name), void *ctx,
                     ts_err *err) {
  char pattern[PLAT_PATH_MAX + 4];
  wchar_t wide[PLAT_PATH_MAX + 4];
  snprintf(pattern, sizeof pattern, "%s\\*", folder);
  if (!win32_to_wide(pattern, wide, sizeof wide / sizeof wide[0]))
    return ts_err_set(err, TS_EINVAL, "the folder %s is too long or not UTF-8", folder);
  WIN32_FIND_DATAW found;
  HANDLE h = FindFirstFileW(wide, &found);
  if (h == INVALID_HANDLE_VALUE)
    return ts_err_set(err, TS_EOS, "cannot read the folder %s (error %lu)", folder,
                      (unsigned long)GetLastError());
  do {
    char name[PLAT_PATH_MAX];
    if (!win32_from_wide(found.cFileName, name, sizeof name) || strcmp(name, ".") == 0 ||
        strcmp(name, "..") == 0)
      continue;
    if (fn(ctx, name) != 0)
      break;
  } while (FindNextFileW(h, &found));
  FindClose(h);
  return TS_OK;
}

int plat_program_dir(char *buf, size_t len, ts_err *err) {
  wchar_t wide[PLAT_PATH_MAX];
  char exe[PLAT_PATH_MAX];
  DWORD n = GetModuleFileNameW(NULL, wide, sizeof wide / sizeof wide[0]);
  if (n == 0 || n >= sizeof wide / sizeof wide[0] || !win32_from_wide(wide, exe, sizeof exe))
    return ts_err_set(err, TS_EOS, "cannot find this program's folder (error %lu)",
                      (unsigned long)GetLastError());
  plat_path_dirname(exe, buf, len);
  return TS_OK;
}

void plat_program_name(const char *base, char *buf, size_t len) {
  snprintf(buf, len, "%s.exe", base);
}

/* ---- the service's data folder and who may write to it -------------------------------------- */

#include <aclapi.h> /* security descriptors of files; after windows.h, which they need */
#include <sddl.h>
#include <shlobj.h> /* SHGetKnownFolderPath */

int plat_service_data_dir(char *buf, size_t len, ts_err *err) {
  char base[PLAT_PATH_MAX];
  /* The known folder, not the environment: under Wine, services.exe gives the service
     ProgramData=C:\users\Public while users see C:\ProgramData, and install and service must
     agree on the folder. */
  wchar_t *known = NULL;
  int found = SUCCEEDED(SHGetKnownFolderPath(&FOLDERID_ProgramData, 0, NULL, &known)) &&
              win32_from_wide(known, base, sizeof base);
  CoTaskMemFree(known);
  if (!found && !plat_getenv("ProgramData", base, sizeof base) &&
      !plat_getenv("ALLUSERSPROFILE", base, sizeof base))
    return ts_err_set(err, TS_EOS,
                      "cannot find the ProgramData folder (neither the known folder "
                      "nor ProgramData or ALLUSERSPROFILE is set)");
  if (snprintf(buf, len, "%s\\ThreadSoup", base) >= (int)len)
    return ts_err_set(err, TS_EINVAL, "the service's data folder path is too long: %s\\ThreadSoup",
                      base);
  return TS_OK;
}

/* Rights that let a holder change what is in the folder or who may: writing or appending data,
   adding files or subfolders, deleting, and rewriting the DACL or the owner. */
#define FS_CHANGE_RIGHTS                                                                           \
  (FILE_WRITE_DATA | FILE_APPEND_DATA | FILE_DELETE_CHILD | DELETE | WRITE_DAC | WRITE_OWNER |     \
   GENERIC_WRITE | GENERIC_ALL)

/* The SIDs that may hold change rights on an admin-only folder. */
typedef struct trusted_sids {
  BYTE sid[5][SECURITY_MAX_SID_SIZE];
  int count;
} trusted_sids;

static void add_well_known(trusted_sids *t, WELL_KNOWN_SID_TYPE type) {
  DWORD size = SECURITY_MAX_SID_SIZE;
  if (CreateWellKnownSid(type, NULL, t->sid[t->count], &size))
    t->count++;
}

static void trusted_sids_init(trusted_sids *t) {
  t->count = 0;
  add_well_known(t, WinLocalSystemSid);
  add_well_known(t, WinBuiltinAdministratorsSid);
  add_well_known(t, WinCreatorOwnerSid);
  /* NT SERVICE\TrustedInstaller has no WELL_KNOWN_SID_TYPE: it is the service SID of its name. */
  PSID installer;
  if (ConvertStringSidToSidW(L"S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464",
                             &installer)) {
    if (CopySid(SECURITY_MAX_SID_SIZE, t->sid[t->count], installer))
      t->count++;
    LocalFree(installer);
  }
  /* The account this process runs as: LocalSystem for the service, the user in a console run. */
  HANDLE token;
  if (OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) {
    BYTE info[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
    DWORD size;
    if (GetTokenInformation(token, TokenUser, info, sizeof info, &size) &&
        CopySid(SECURITY_MAX_SID_SIZE, t->sid[t->count], ((TOKEN_USER *)info)->User.Sid))
      t->count++;
    CloseHandle(token);
  }
}

static int is_trusted(const trusted_sids *t, PSID sid) {
  for (int i = 0; i < t->count; i++)
    if (EqualSid((PSID)t->sid[i], sid))
      return 1;
  return 0;
}

/* "BUILTIN\Users (S-1-5-32-545)": a SID as a person reads it, with its string form. */
static void describe_sid(PSID sid, char *buf, size_t len) {
  char text[96] = "?", name[160] = "";
  wchar_t *wtext;
  if (ConvertSidToStringSidW(sid, &wtext)) {
    if (!win32_from_wide(wtext, text, sizeof text))
      snprintf(text, sizeof text, "%s", "?");
    LocalFree(wtext);
  }
  wchar_t account[64], domain[64];
  DWORD account_count = 64, domain_count = 64;
  SID_NAME_USE use;
  char a[64], d[64];
  if (LookupAccountSidW(NULL, sid, account, &account_count, domain, &domain_count, &use) &&
      win32_from_wide(account, a, sizeof a) && win32_from_wide(domain, d, sizeof d))
    snprintf(name, sizeof name, d[0] ? "%s\\%s " : "%s%s ", d, a);
  snprintf(buf, len, "%s(%s)", name, text);
}

/* Whether only trusted accounts hold any of `rights` on folder (and own it): the rule of
   plat_folder_is_admin_only and of each folder plat_folder_tree_exposed walks. */
static int folder_trusted_only(const char *folder, DWORD rights, int *admin_only, char *reason,
                               size_t len, ts_err *err) {
  wchar_t wide[PLAT_PATH_MAX];
  if (!win32_to_wide(folder, wide, sizeof wide / sizeof wide[0]))
    return ts_err_set(err, TS_EINVAL, "path too long or not UTF-8: %s", folder);
  PSID owner = NULL;
  PACL dacl = NULL;
  PSECURITY_DESCRIPTOR sd = NULL;
  DWORD code = GetNamedSecurityInfoW(wide, SE_FILE_OBJECT,
                                     OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION, &owner,
                                     NULL, &dacl, NULL, &sd);
  if (code != ERROR_SUCCESS) {
    char text[256];
    win32_error_text(code, text, sizeof text);
    return ts_err_set(err, TS_EOS, "cannot read who may write to %s: %s", folder, text);
  }
  trusted_sids trusted;
  trusted_sids_init(&trusted);
  char who[200];
  *admin_only = 1;
  if (reason && len)
    reason[0] = '\0';
  if (!dacl) {
    /* A NULL DACL grants everyone everything. */
    *admin_only = 0;
    snprintf(reason, len, "%s has no access list: everyone may change it", folder);
  } else if (owner && !is_trusted(&trusted, owner)) {
    /* An owner may always rewrite the access list, whatever it says. */
    *admin_only = 0;
    describe_sid(owner, who, sizeof who);
    snprintf(reason, len, "%s is owned by %s, who may change its access list", folder, who);
  } else {
    for (DWORD i = 0; i < dacl->AceCount && *admin_only; i++) {
      ACE_HEADER *ace;
      if (!GetAce(dacl, i, (void **)&ace) || ace->AceType != ACCESS_ALLOWED_ACE_TYPE)
        continue;
      /* Inherit-only entries count too: they grant rights on the files created inside, such as
         the database. */
      ACCESS_ALLOWED_ACE *allowed = (ACCESS_ALLOWED_ACE *)ace;
      PSID sid = (PSID)&allowed->SidStart;
      if (!(allowed->Mask & rights) || is_trusted(&trusted, sid))
        continue;
      *admin_only = 0;
      describe_sid(sid, who, sizeof who);
      snprintf(reason, len, "%s may write to or change %s (access mask 0x%08lx)", who, folder,
               (unsigned long)allowed->Mask);
    }
  }
  LocalFree(sd);
  return TS_OK;
}

int plat_folder_is_admin_only(const char *folder, int *admin_only, char *reason, size_t len,
                              ts_err *err) {
  return folder_trusted_only(folder, FS_CHANGE_RIGHTS, admin_only, reason, len, err);
}

/* What lets someone replace what a folder holds, as POSIX's write without the sticky bit does:
   deleting a child, deleting or renaming the folder, or changing its access list or owner
   (adding a file or a subfolder, as every user may in C:\, replaces nothing). */
#define FS_REPLACE_RIGHTS (FILE_DELETE_CHILD | DELETE | WRITE_DAC | WRITE_OWNER | GENERIC_ALL)

int plat_folder_tree_exposed(const char *folder, int *exposed, char *reason, size_t len,
                             ts_err *err) {
  wchar_t wide[PLAT_PATH_MAX], full[PLAT_PATH_MAX];
  char path[PLAT_PATH_MAX * 3];
  *exposed = 0;
  reason[0] = '\0';
  if (!win32_to_wide(folder, wide, sizeof wide / sizeof wide[0]))
    return ts_err_set(err, TS_EINVAL, "path too long or not UTF-8: %s", folder);
  DWORD n = GetFullPathNameW(wide, PLAT_PATH_MAX, full, NULL);
  if (n == 0 || n >= PLAT_PATH_MAX || !win32_from_wide(full, path, sizeof path))
    return ts_err_set(err, TS_EINVAL, "cannot resolve the folder %s", folder);
  for (;;) {
    size_t at = strlen(path);
    while (at > 3 && (path[at - 1] == '\\' || path[at - 1] == '/'))
      path[--at] = '\0';
    if (win32_to_wide(path, wide, sizeof wide / sizeof wide[0]) &&
        GetFileAttributesW(wide) != INVALID_FILE_ATTRIBUTES) {
      int only = 1;
      int rc = folder_trusted_only(path, FS_REPLACE_RIGHTS, &only, reason, len, err);
      if (rc != TS_OK)
        return rc;
      if (!only) {
        *exposed = 1;
        return TS_OK;
      }
    }
    char *cut = strrchr(path, '\\');
    char *slash = strrchr(path, '/');
    if (slash && (!cut || slash > cut))
      cut = slash;
    if (!cut || at <= 3) /* "C:\" or a share's root: the top */
      return TS_OK;
    cut[cut - path < 3 ? 1 : 0] = '\0';
  }
}

/* The folders of OneDrive's accounts, as OneDrive sets them in every user's environment. */
static const char *const cloud_root_variables[] = {"OneDrive", "OneDriveCommercial",
                                                   "OneDriveConsumer"};

/* Whether the file `wide` (its attributes and reparse tag read from h, or its full path under a
   OneDrive folder) is in a folder a sync client uploads, locks and replaces files of. */
static int in_cloud_folder(const wchar_t *wide, HANDLE h) {
  FILE_ATTRIBUTE_TAG_INFO tag;
  if (GetFileInformationByHandleEx(h, FileAttributeTagInfo, &tag, sizeof tag) &&
      plat_cloud_file(tag.FileAttributes, tag.ReparseTag))
    return 1;
  wchar_t full[PLAT_PATH_MAX];
  char path[PLAT_PATH_MAX * 3], root[PLAT_PATH_MAX];
  DWORD n = GetFullPathNameW(wide, PLAT_PATH_MAX, full, NULL);
  if (n == 0 || n >= PLAT_PATH_MAX || !win32_from_wide(full, path, sizeof path))
    return 0;
  for (size_t i = 0; i < sizeof cloud_root_variables / sizeof cloud_root_variables[0]; i++)
    if (plat_getenv(cloud_root_variables[i], root, sizeof root) && plat_path_is_under(path, root))
      return 1;
  return 0;
}

int plat_check_own_file(const char *path, ts_err *err) {
  wchar_t wide[PLAT_PATH_MAX];
  if (!win32_to_wide(path, wide, sizeof wide / sizeof wide[0]))
    return ts_err_set(err, TS_EINVAL, "path too long or not UTF-8: %s", path);
  /* Opened as itself (not what a link points to), sharing everything: SQLite may be deleting a
     journal in another connection at this moment. */
  HANDLE h =
      CreateFileW(wide, READ_CONTROL | FILE_READ_ATTRIBUTES,
                  FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                  FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
  if (h == INVALID_HANDLE_VALUE) {
    DWORD code = GetLastError();
    if (code == ERROR_FILE_NOT_FOUND || code == ERROR_PATH_NOT_FOUND)
      return TS_OK;
    char text[256];
    win32_error_text(code, text, sizeof text);
    return ts_err_set(err, TS_EOS, "cannot inspect %s: %s", path, text);
  }
  BY_HANDLE_FILE_INFORMATION info;
  int rc = TS_OK;
  /* Before "a link": OneDrive's folders and files are reparse points too, and the user needs to
     hear what to do about them. */
  if (in_cloud_folder(wide, h))
    rc = ts_err_set(err, TS_EDENIED,
                    "%s is in a cloud-synced folder: use a local one (a sync client such as "
                    "OneDrive uploads, locks and replaces the database's files while they are "
                    "written; the default database is in %%LOCALAPPDATA%%\\ThreadSoup)",
                    path);
  else if (GetFileInformationByHandle(h, &info) &&
           (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT))
    rc = ts_err_set(err, TS_EDENIED,
                    "%s is a link (a reparse point): refused; the database, its folder and its "
                    "-wal, -shm and -journal files must be plain files",
                    path);
  PSID owner = NULL;
  PSECURITY_DESCRIPTOR sd = NULL;
  DWORD code = rc == TS_OK ? GetSecurityInfo(h, SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION, &owner,
                                             NULL, NULL, NULL, &sd)
                           : ERROR_SUCCESS;
  CloseHandle(h);
  if (code != ERROR_SUCCESS) {
    char text[256];
    win32_error_text(code, text, sizeof text);
    return ts_err_set(err, TS_EOS, "cannot read who owns %s: %s", path, text);
  }
  trusted_sids trusted;
  trusted_sids_init(&trusted);
  if (rc == TS_OK && owner && !is_trusted(&trusted, owner)) {
    char who[200];
    describe_sid(owner, who, sizeof who);
    rc = ts_err_set(err, TS_EDENIED,
                    "%s is owned by %s, not by SYSTEM, Administrators or this program's user: "
                    "refused (someone else could change what this program reads and runs); "
                    "remove it",
                    path, who);
  }
  LocalFree(sd);
  return rc;
}

struct plat_claim {
  HANDLE file;
};

int plat_claim_take(const char *path, plat_claim **out, ts_err *err) {
  *out = NULL;
  wchar_t wide[PLAT_PATH_MAX];
  if (!win32_to_wide(path, wide, sizeof wide / sizeof wide[0]))
    return ts_err_set(err, TS_EINVAL, "path too long or not UTF-8: %s", path);
  /* Readable by others (for the holder's pid), never a reparse point's target. */
  HANDLE h =
      CreateFileW(wide, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                  OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
  if (h == INVALID_HANDLE_VALUE) {
    char text[256];
    win32_error_text(GetLastError(), text, sizeof text);
    return ts_err_set(err, TS_EOS, "cannot open the lock file %s: %s", path, text);
  }
  BY_HANDLE_FILE_INFORMATION info;
  if (!GetFileInformationByHandle(h, &info) ||
      (info.dwFileAttributes & (FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_DIRECTORY))) {
    CloseHandle(h);
    return ts_err_set(err, TS_EDENIED, "the lock file %s is not a plain file: refused", path);
  }
  /* The lock covers a byte past any content, so the pid written at 0 stays readable. */
  OVERLAPPED where;
  ZeroMemory(&where, sizeof where);
  where.Offset = 0x10000;
  if (!LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &where)) {
    DWORD code = GetLastError();
    char holder[32] = "";
    DWORD got = 0;
    if (ReadFile(h, holder, sizeof holder - 1, &got, NULL))
      holder[got] = '\0';
    holder[strcspn(holder, "\r\n")] = '\0';
    CloseHandle(h);
    if (code == ERROR_LOCK_VIOLATION || code == ERROR_IO_PENDING)
      return ts_err_set(err, TS_EBUSY, "another ThreadSoup service (pid %s) holds %s",
                        holder[0] ? holder : "unknown", path);
    char text[256];
    win32_error_text(code, text, sizeof text);
    return ts_err_set(err, TS_EOS, "cannot lock %s: %s", path, text);
  }
  char pid[32];
  int len = snprintf(pid, sizeof pid, "%lu\r\n", (unsigned long)GetCurrentProcessId());
  DWORD wrote = 0;
  SetFilePointer(h, 0, NULL, FILE_BEGIN);
  WriteFile(h, pid, (DWORD)len, &wrote, NULL);
  SetEndOfFile(h);
  plat_claim *c = malloc(sizeof *c);
  if (!c) {
    CloseHandle(h);
    return ts_err_set(err, TS_ENOMEM, "no memory for the lock of %s", path);
  }
  c->file = h;
  *out = c;
  return TS_OK;
}

void plat_claim_release(plat_claim *c) {
  if (!c)
    return;
  CloseHandle(c->file); /* the lock goes with the handle */
  free(c);
}

/* Once the database exists, SQLite may be deleting a journal in another connection, and a handle
   opened on it now would fail that connection. */
int plat_database_sidecars_inspectable(const char *path) { return !plat_file_exists(path); }

/* ---- who may change a folder, read as SDDL and judged by folder_acl.c ----------------------- */

/* The folder's owner and DACL as SDDL text, into buf. */
static int read_sddl(const char *path, char *buf, size_t len, ts_err *err) {
  wchar_t wide[PLAT_PATH_MAX];
  if (!win32_to_wide(path, wide, sizeof wide / sizeof wide[0]))
    return ts_err_set(err, TS_EINVAL, "path too long or not UTF-8: %s", path);
  PSECURITY_DESCRIPTOR sd = NULL;
  DWORD code = GetNamedSecurityInfoW(wide, SE_FILE_OBJECT,
                                     OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION, NULL,
                                     NULL, NULL, NULL, &sd);
  char text[256];
  if (code != ERROR_SUCCESS) {
    win32_error_text(code, text, sizeof text);
    return ts_err_set(err, TS_EOS, "cannot read who may change %s: %s", path, text);
  }
  char *sddl = NULL;
  int rc = TS_OK;
  if (!ConvertSecurityDescriptorToStringSecurityDescriptorA(
          sd, SDDL_REVISION_1, OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION, &sddl,
          NULL)) {
    win32_error_text(GetLastError(), text, sizeof text);
    rc = ts_err_set(err, TS_EOS, "cannot read who may change %s: %s", path, text);
  } else if (strlen(sddl) >= len) {
    rc = ts_err_set(err, TS_EOS, "the access list of %s is too long to check", path);
  } else {
    snprintf(buf, len, "%s", sddl);
  }
  LocalFree(sddl);
  LocalFree(sd);
  return rc;
}

static int read_acl(const char *path, folder_acl *acl, ts_err *err) {
  char sddl[8192], why[512];
  int rc = read_sddl(path, sddl, sizeof sddl, err);
  if (rc == TS_OK && folder_acl_parse(sddl, acl, why, sizeof why) != 0)
    rc = ts_err_set(err, TS_EOS, "the access list of %s cannot be read: %s", path, why);
  return rc;
}

/* This process's account as "S-1-5-…" ("" when the token cannot be read). */
static void self_sid(char *buf, size_t len) {
  buf[0] = '\0';
  HANDLE token;
  if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token))
    return;
  BYTE info[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
  DWORD size;
  char *text = NULL;
  if (GetTokenInformation(token, TokenUser, info, sizeof info, &size) &&
      ConvertSidToStringSidA(((TOKEN_USER *)info)->User.Sid, &text))
    snprintf(buf, len, "%s", text);
  LocalFree(text);
  CloseHandle(token);
}

int plat_program_folder_safe(const char *folder, int *safe, char *reason, size_t len, ts_err *err) {
  folder_acl acl;
  *safe = 0;
  int rc = read_acl(folder, &acl, err);
  if (rc != TS_OK)
    return rc;
  /* The account installing is not trusted: an administrator's own folders (Downloads) are
     writable by every program it runs unelevated. Wine has one account, the prefix's
     administrator, and shows its folders as owned by it. */
  char self[FOLDER_ACL_SID_MAX];
  self_sid(self, sizeof self);
  *safe =
      !folder_acl_others_may_write(&acl, folder, plat_wine_version() ? self : NULL, reason, len);
  return TS_OK;
}

/* The data folder found owned by someone else, renamed beside itself with the time in its name
   ("ThreadSoup.untrusted-20261205T074000Z"), out of the service's way but kept for its owner. */
static int move_aside(const char *path, const wchar_t *wide, char *aside, size_t len, ts_err *err) {
  SYSTEMTIME t;
  GetSystemTime(&t);
  snprintf(aside, len, "%s.untrusted-%04u%02u%02uT%02u%02u%02uZ", path, t.wYear, t.wMonth, t.wDay,
           t.wHour, t.wMinute, t.wSecond);
  wchar_t wide_aside[PLAT_PATH_MAX];
  if (!win32_to_wide(aside, wide_aside, sizeof wide_aside / sizeof wide_aside[0]))
    return ts_err_set(err, TS_EINVAL, "path too long or not UTF-8: %s", aside);
  if (MoveFileExW(wide, wide_aside, 0))
    return TS_OK;
  char text[256];
  win32_error_text(GetLastError(), text, sizeof text);
  return ts_err_set(err, TS_EOS, "cannot move %s aside to %s: %s", path, aside, text);
}

int plat_mkdir_service_data(const char *path, char *note, size_t note_len, ts_err *err) {
  char parent[PLAT_PATH_MAX];
  if (note_len)
    note[0] = '\0';
  plat_path_dirname(path, parent, sizeof parent);
  int rc = parent[0] ? plat_mkdir_p(parent, err) : TS_OK;
  wchar_t wide[PLAT_PATH_MAX];
  if (rc == TS_OK && !win32_to_wide(path, wide, sizeof wide / sizeof wide[0]))
    rc = ts_err_set(err, TS_EINVAL, "path too long or not UTF-8: %s", path);
  if (rc != TS_OK)
    return rc;
  PSECURITY_DESCRIPTOR sd = NULL;
  if (!ConvertStringSecurityDescriptorToSecurityDescriptorA(FOLDER_ACL_SERVICE_DATA,
                                                            SDDL_REVISION_1, &sd, NULL))
    return ts_err_set(err, TS_EOS, "cannot build the data folder's access list");
  SECURITY_ATTRIBUTES sa = {sizeof sa, sd, FALSE};
  char text[256], aside[PLAT_PATH_MAX + 32];
  folder_acl have, want;
  char self[FOLDER_ACL_SID_MAX], why[256];
  if (CreateDirectoryW(wide, &sa))
    goto done;
  DWORD code = GetLastError();
  if (code != ERROR_ALREADY_EXISTS) {
    win32_error_text(code, text, sizeof text);
    rc = ts_err_set(err, TS_EOS, "cannot create folder %s: %s", path, text);
    goto done;
  }
  /* A link (a junction planted there) is moved aside as it is, never judged by its target. */
  DWORD attributes = GetFileAttributesW(wide);
  folder_data_action action = FOLDER_DATA_MOVE_ASIDE;
  memset(&have, 0, sizeof have);
  if (attributes == INVALID_FILE_ATTRIBUTES || !(attributes & FILE_ATTRIBUTE_REPARSE_POINT)) {
    rc = read_acl(path, &have, err);
    if (rc != TS_OK)
      goto done;
    folder_acl_parse(FOLDER_ACL_SERVICE_DATA, &want, why, sizeof why);
    self_sid(self, sizeof self);
    action = folder_acl_data_action(&have, &want, self);
  }
  if (action == FOLDER_DATA_MOVE_ASIDE) {
    /* Taking it over would keep whatever its owner left inside (files, links); a new folder
       holds only what the service writes. */
    rc = move_aside(path, wide, aside, sizeof aside, err);
    if (rc == TS_OK && !CreateDirectoryW(wide, &sa)) {
      win32_error_text(GetLastError(), text, sizeof text);
      rc = ts_err_set(err, TS_EOS, "cannot create folder %s: %s", path, text);
    }
    if (rc == TS_OK)
      snprintf(note, note_len,
               "%s was there before, owned by %s or a link: moved aside to %s (its owner may "
               "delete it) and made anew for SYSTEM and Administrators",
               path, have.owner[0] ? have.owner : "someone else", aside);
  } else if (action == FOLDER_DATA_RESET) {
    BOOL present = FALSE, defaulted = FALSE;
    PACL dacl = NULL;
    GetSecurityDescriptorDacl(sd, &present, &dacl, &defaulted);
    code = SetNamedSecurityInfoW(wide, SE_FILE_OBJECT,
                                 DACL_SECURITY_INFORMATION | PROTECTED_DACL_SECURITY_INFORMATION,
                                 NULL, NULL, dacl, NULL);
    if (code != ERROR_SUCCESS) {
      win32_error_text(code, text, sizeof text);
      rc = ts_err_set(err, TS_EOS, "cannot protect folder %s: %s", path, text);
    }
  }
done:
  LocalFree(sd);
  return rc;
}

/* ---- files another user may have placed: no reparse point followed, no pipe or device opened --
 */

struct plat_folder {
  HANDLE handle; /* held without FILE_SHARE_DELETE: the folder cannot be moved or replaced */
  char path[PLAT_PATH_MAX];
};

void plat_folder_path(const plat_folder *d, const char *name, char *buf, size_t len) {
  size_t n = strlen(d->path);
  int has_sep = n && (d->path[n - 1] == '\\' || d->path[n - 1] == '/');
  snprintf(buf, len, "%s%s%s", d->path, n && !has_sep ? "\\" : "", name);
}

int plat_folder_open(const char *path, plat_folder **out, ts_err *err) {
  *out = NULL;
  wchar_t wide[PLAT_PATH_MAX];
  if (!win32_to_wide(path[0] ? path : ".", wide, sizeof wide / sizeof wide[0]))
    return ts_err_set(err, TS_EINVAL, "the folder %s is too long or not UTF-8", path);
  HANDLE h = CreateFileW(wide, FILE_LIST_DIRECTORY | FILE_READ_ATTRIBUTES,
                         FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING,
                         FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
  if (h == INVALID_HANDLE_VALUE)
    return ts_err_set(err, TS_EOS, "cannot open the folder %s (error %lu)", path,
                      (unsigned long)GetLastError());
  BY_HANDLE_FILE_INFORMATION info;
  const char *refusal = NULL;
  if (!GetFileInformationByHandle(h, &info))
    refusal = "cannot be inspected";
  else if (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)
    refusal = "is a link (a reparse point: symbolic link or junction): refused (accepted: the "
              "folder itself, not a link to it)";
  else if (!(info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY))
    refusal = "is not a folder (give an existing folder)";
  plat_folder *d = refusal ? NULL : malloc(sizeof *d);
  if (!d) {
    CloseHandle(h);
    return refusal ? ts_err_set(err, TS_EINVAL, "%s %s", path, refusal)
                   : ts_err_set(err, TS_ENOMEM, "no memory to open the folder %s", path);
  }
  d->handle = h;
  snprintf(d->path, sizeof d->path, "%s", path);
  *out = d;
  return TS_OK;
}

void plat_folder_close(plat_folder *d) {
  if (!d)
    return;
  CloseHandle(d->handle);
  free(d);
}

/* A stdio stream on the handle h, which it then owns; NULL (h closed) when there is no memory. */
static FILE *stream_of(HANDLE h, int flags, const char *mode) {
  int fd = _open_osfhandle((intptr_t)h, flags | _O_BINARY);
  if (fd < 0) {
    CloseHandle(h);
    return NULL;
  }
  FILE *f = _fdopen(fd, mode);
  if (!f)
    _close(fd);
  return f;
}

int plat_temp_file(FILE **out, ts_err *err) {
  *out = NULL;
  /* The user's own temporary folder (%TEMP%, under the profile): no other user writes there.
     GetTempFileNameW creates the file under a name not yet taken; it is then opened again to be
     deleted when closed. */
  wchar_t folder[MAX_PATH + 1], path[MAX_PATH + 1];
  DWORD n = GetTempPathW(MAX_PATH + 1, folder);
  if (n == 0 || n > MAX_PATH || !GetTempFileNameW(folder, L"ts", 0, path))
    return ts_err_set(err, TS_EOS,
                      "cannot create a temporary file in the user's temporary "
                      "folder (error %lu)",
                      (unsigned long)GetLastError());
  HANDLE h = CreateFileW(path, GENERIC_READ | GENERIC_WRITE, 0, NULL, TRUNCATE_EXISTING,
                         FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, NULL);
  if (h == INVALID_HANDLE_VALUE) {
    DWORD code = GetLastError();
    DeleteFileW(path);
    return ts_err_set(err, TS_EOS, "cannot open a temporary file (error %lu)", (unsigned long)code);
  }
  if (!(*out = stream_of(h, _O_RDWR, "w+b")))
    return ts_err_set(err, TS_ENOMEM, "no memory for a temporary file");
  return TS_OK;
}

int plat_open_regular(const char *path, FILE **out, ts_err *err) {
  *out = NULL;
  wchar_t wide[PLAT_PATH_MAX];
  if (!win32_to_wide(path, wide, sizeof wide / sizeof wide[0]))
    return ts_err_set(err, TS_EINVAL, "the path %s is too long or not UTF-8", path);
  /* The reparse point itself is opened, never what it points at; a pipe or device is refused
     below before anything is read from it. */
  HANDLE h = CreateFileW(wide, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING,
                         FILE_FLAG_OPEN_REPARSE_POINT | FILE_FLAG_BACKUP_SEMANTICS, NULL);
  if (h == INVALID_HANDLE_VALUE)
    return ts_err_set(err, TS_EOS, "cannot read %s (error %lu)", path,
                      (unsigned long)GetLastError());
  BY_HANDLE_FILE_INFORMATION info;
  const char *kind = NULL;
  if (GetFileType(h) != FILE_TYPE_DISK)
    kind = "a named pipe or a device";
  else if (!GetFileInformationByHandle(h, &info))
    kind = "a file that cannot be inspected";
  else if (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)
    kind = "a link (a reparse point)";
  else if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)
    kind = "a folder";
  if (kind) {
    CloseHandle(h);
    return ts_err_set(err, TS_EINVAL, "%s is %s: refused (accepted: a regular file)", path, kind);
  }
  if (!(*out = stream_of(h, _O_RDONLY, "rb")))
    return ts_err_set(err, TS_ENOMEM, "no memory to read %s", path);
  return TS_OK;
}

int plat_folder_open_regular(plat_folder *d, const char *name, FILE **out, ts_err *err) {
  char path[PLAT_PATH_MAX];
  plat_folder_path(d, name, path, sizeof path);
  return plat_open_regular(path, out, err);
}

int plat_folder_create_temp(plat_folder *d, const char *prefix, char *name, size_t len, FILE **out,
                            ts_err *err) {
  *out = NULL;
  char path[PLAT_PATH_MAX];
  wchar_t wide[PLAT_PATH_MAX];
  for (int attempt = 0; attempt < 16; attempt++) {
    unsigned long long bits = 0;
    if (!RtlGenRandom(&bits, sizeof bits))
      bits = (unsigned long long)GetTickCount64() * 0x9E3779B97F4A7C15ull ^ GetCurrentProcessId();
    snprintf(name, len, "%s.%016llx.tmp", prefix, bits);
    plat_folder_path(d, name, path, sizeof path);
    if (!win32_to_wide(path, wide, sizeof wide / sizeof wide[0]))
      return ts_err_set(err, TS_EINVAL, "the path %s is too long or not UTF-8", path);
    /* CREATE_NEW: never a file (or pipe) that is there already. */
    HANDLE h = CreateFileW(wide, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE && GetLastError() == ERROR_FILE_EXISTS)
      continue;
    if (h == INVALID_HANDLE_VALUE)
      return ts_err_set(err, TS_EOS, "cannot create %s (error %lu)", path,
                        (unsigned long)GetLastError());
    if (!(*out = stream_of(h, _O_WRONLY, "wb"))) {
      DeleteFileW(wide);
      return ts_err_set(err, TS_ENOMEM, "no memory to write %s", path);
    }
    return TS_OK;
  }
  return ts_err_set(err, TS_EOS, "cannot create a temporary file in %s: 16 random names taken",
                    d->path);
}

int plat_folder_rename_new(plat_folder *d, const char *from, const char *to, ts_err *err) {
  char path_from[PLAT_PATH_MAX], path_to[PLAT_PATH_MAX];
  plat_folder_path(d, from, path_from, sizeof path_from);
  plat_folder_path(d, to, path_to, sizeof path_to);
  return plat_rename_new(path_from, path_to, err);
}

/* DeleteFileW removes a symbolic link itself, not its target. */
void plat_folder_remove(plat_folder *d, const char *name) {
  char path[PLAT_PATH_MAX];
  wchar_t wide[PLAT_PATH_MAX];
  plat_folder_path(d, name, path, sizeof path);
  if (win32_to_wide(path, wide, sizeof wide / sizeof wide[0]))
    DeleteFileW(wide);
}
