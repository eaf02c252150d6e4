/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* fs.c (POSIX) - data folders and paths. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *plat_getenv(const char *name, char *buf, size_t len) {
  const char *v = getenv(name);
  if (!v || !*v)
    return NULL;
  snprintf(buf, len, "%s", v);
  return buf;
}

int plat_user_data_dir(char *buf, size_t len, ts_err *err) {
  char env[PLAT_PATH_MAX];
  if (plat_getenv("XDG_DATA_HOME", env, sizeof env)) {
    snprintf(buf, len, "%s/threadsoup", env);
    return TS_OK;
  }
  if (plat_getenv("HOME", env, sizeof env)) {
    snprintf(buf, len, "%s/.local/share/threadsoup", env);
    return TS_OK;
  }
  return ts_err_set(err, TS_EOS, "neither XDG_DATA_HOME nor HOME is set: give --db PATH");
}

int plat_mkdir_p(const char *path, ts_err *err) {
  char tmp[PLAT_PATH_MAX];
  if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp)
    return ts_err_set(err, TS_EINVAL, "path too long (at most %d bytes): %s", PLAT_PATH_MAX - 1,
                      path);
  for (char *p = tmp + 1; *p; p++) {
    if (*p != '/')
      continue;
    *p = '\0';
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
      return ts_err_set(err, TS_EOS, "cannot create folder %s: %s", tmp, strerror(errno));
    *p = '/';
  }
  if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
    return ts_err_set(err, TS_EOS, "cannot create folder %s: %s", tmp, strerror(errno));
  return TS_OK;
}

void plat_path_dirname(const char *path, char *buf, size_t len) {
  const char *slash = strrchr(path, '/');
  if (!slash) {
    snprintf(buf, len, "%s", "");
    return;
  }
  size_t n = (size_t)(slash - path);
  if (n == 0)
    n = 1; /* "/x" lives in "/" */
  snprintf(buf, len, "%.*s", (int)n, path);
}

char plat_path_separator(void) { return '/'; }

int plat_file_exists(const char *path) { return access(path, F_OK) == 0; }

int plat_is_folder(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A hard link cannot replace a file, so link-then-unlink never overwrites; file systems without
   hard links (some network shares) get a check before rename, racy only against another writer
   of the same name. */
int plat_rename_new(const char *from, const char *to, ts_err *err) {
  if (link(from, to) == 0) {
    unlink(from);
    return TS_OK;
  }
  if (errno == EEXIST)
    return ts_err_set(err, TS_EINVAL, "%s already exists", to);
  if (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP && errno != EMLINK &&
      errno != ENOSYS)
    return ts_err_set(err, TS_EOS, "cannot move %s to %s: %s", from, to, strerror(errno));
  if (access(to, F_OK) == 0)
    return ts_err_set(err, TS_EINVAL, "%s already exists", to);
  if (rename(from, to) != 0)
    return ts_err_set(err, TS_EOS, "cannot move %s to %s: %s", from, to, strerror(errno));
  return TS_OK;
}

int plat_list_folder(const char *folder, int (*fn)(void *ctx, const char *name), void *ctx,
                     ts_err *err) {
  DIR *d = opendir(folder);
  if (!d)
    return ts_err_set(err, TS_EOS, "cannot read the folder %s: %s", folder, strerror(errno));
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && fn(ctx, e->d_name) != 0)
      break;
  closedir(d);
  return TS_OK;
}

int plat_program_dir(char *buf, size_t len, ts_err *err) {
  char exe[PLAT_PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return ts_err_set(err, TS_EOS, "cannot find this program's folder: %s", strerror(errno));
  exe[n] = '\0';
  plat_path_dirname(exe, buf, len);
  return TS_OK;
}

void plat_program_name(const char *base, char *buf, size_t len) { snprintf(buf, len, "%s", base); }

int plat_service_data_dir(char *buf, size_t len, ts_err *err) {
  (void)err;
  snprintf(buf, len, "/var/lib/threadsoup");
  return TS_OK;
}

int plat_folder_is_admin_only(const char *folder, int *admin_only, char *reason, size_t len,
                              ts_err *err) {
  struct stat st;
  *admin_only = 0;
  reason[0] = '\0';
  if (stat(folder, &st) != 0)
    return ts_err_set(err, TS_EOS, "cannot inspect %s: %s", folder, strerror(errno));
  /* Only root or the service's own user may own it, and no one else may write to it. */
  if (st.st_uid != 0 && st.st_uid != geteuid())
    snprintf(reason, len, "%s belongs to uid %ld, not to root or the service", folder,
             (long)st.st_uid);
  else if (st.st_mode & (S_IWGRP | S_IWOTH))
    snprintf(reason, len, "%s is writable by its group or by everyone (mode %03o)", folder,
             (unsigned)(st.st_mode & 0777));
  else
    *admin_only = 1;
  return TS_OK;
}

/* "alice (uid 1000)", thread-safe. */
static void describe_uid(uid_t uid, char *buf, size_t len) {
  char lookup[4096];
  struct passwd pwd, *pw = NULL;
  if (getpwuid_r(uid, &pwd, lookup, sizeof lookup, &pw) == 0 && pw)
    snprintf(buf, len, "%s (uid %ld)", pw->pw_name, (long)uid);
  else
    snprintf(buf, len, "uid %ld", (long)uid);
}

int plat_check_own_file(const char *path, ts_err *err) {
  struct stat st;
  if (lstat(path, &st) != 0)
    return errno == ENOENT
               ? TS_OK
               : ts_err_set(err, TS_EOS, "cannot inspect %s: %s", path, strerror(errno));
  char owner[96], me[96];
  describe_uid(st.st_uid, owner, sizeof owner);
  describe_uid(geteuid(), me, sizeof me);
  if (S_ISLNK(st.st_mode))
    return ts_err_set(err, TS_EDENIED,
                      "%s is a symbolic link (owned by %s): refused; the database, its folder and "
                      "its -wal, -shm and -journal files must be plain files",
                      path, owner);
  if (st.st_uid != 0 && st.st_uid != geteuid())
    return ts_err_set(err, TS_EDENIED,
                      "%s belongs to %s, not to %s or root: refused (someone else could change "
                      "what this program reads and runs); remove it or give it to %s",
                      path, owner, me, me);
  int sticky_folder = S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX);
  if (!sticky_folder && ((st.st_mode & S_IWOTH) ||
                         ((st.st_mode & S_IWGRP) && st.st_gid != getegid() && st.st_gid != 0)))
    return ts_err_set(err, TS_EDENIED,
                      "%s (owned by %s) is writable by %s (mode %03o, group %ld): refused; "
                      "chmod go-w it",
                      path, owner, (st.st_mode & S_IWOTH) ? "everyone" : "its group",
                      (unsigned)(st.st_mode & 0777), (long)st.st_gid);
  return TS_OK;
}

/* Nothing is in the way of looking at a file another connection is deleting. */
int plat_database_sidecars_inspectable(const char *path) {
  (void)path;
  return 1;
}

int plat_mkdir_service_data(const char *path, ts_err *err) { return plat_mkdir_p(path, err); }
