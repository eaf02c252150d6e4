/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* fs.c (POSIX) - data folders and paths. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
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

int plat_path_exists(const char *path, int *exists, ts_err *err) {
  struct stat st;
  *exists = stat(path, &st) == 0;
  if (*exists || errno == ENOENT || errno == ENOTDIR)
    return TS_OK;
  return ts_err_set(err, TS_EOS, "cannot look at %s: %s", path, strerror(errno));
}

int plat_is_folder(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A hard link cannot replace a file, so link-then-unlink never overwrites; file systems without
   hard links (some network shares) get renameat2's RENAME_NOREPLACE. from and to are relative to
   dir (AT_FDCWD: paths); shown names `to` in messages. */
static int rename_new_at(int dir, const char *from, const char *to, const char *shown,
                         ts_err *err) {
  if (linkat(dir, from, dir, to, 0) == 0) {
    unlinkat(dir, from, 0);
    return TS_OK;
  }
  if (errno == EEXIST)
    return ts_err_set(err, TS_EINVAL, "%s already exists", shown);
  if (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP && errno != EMLINK &&
      errno != ENOSYS)
    return ts_err_set(err, TS_EOS, "cannot move %s to %s: %s", from, shown, strerror(errno));
  if (renameat2(dir, from, dir, to, RENAME_NOREPLACE) == 0)
    return TS_OK;
  if (errno == EEXIST)
    return ts_err_set(err, TS_EINVAL, "%s already exists", shown);
  /* Nor that (older kernels, some shares): a check before the rename, racy only against another
     writer of the same name. */
  struct stat st;
  if ((errno == EINVAL || errno == ENOSYS) && fstatat(dir, to, &st, AT_SYMLINK_NOFOLLOW) == 0)
    return ts_err_set(err, TS_EINVAL, "%s already exists", shown);
  if ((errno == ENOENT || errno == EINVAL || errno == ENOSYS) && renameat(dir, from, dir, to) == 0)
    return TS_OK;
  return ts_err_set(err, TS_EOS, "cannot move %s to %s: %s", from, shown, strerror(errno));
}

FILE *plat_fopen(const char *path, const char *mode) { return fopen(path, mode); }

int plat_rename_new(const char *from, const char *to, ts_err *err) {
  return rename_new_at(AT_FDCWD, from, to, to, err);
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

int plat_folder_tree_exposed(const char *folder, int *exposed, char *reason, size_t len,
                             ts_err *err) {
  char path[PLAT_PATH_MAX];
  *exposed = 0;
  reason[0] = '\0';
  if (folder[0] != '/') {
    char cwd[PLAT_PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
      return ts_err_set(err, TS_EOS, "cannot read the current folder: %s", strerror(errno));
    if (snprintf(path, sizeof path, "%s/%s", cwd, folder) >= (int)sizeof path)
      return ts_err_set(err, TS_EINVAL, "the folder's path is too long: %s", folder);
  } else if (snprintf(path, sizeof path, "%s", folder) >= (int)sizeof path) {
    return ts_err_set(err, TS_EINVAL, "the folder's path is too long: %s", folder);
  }
  /* From the folder up to /, each as it stands (a link is judged as the folder it names too, by
     stat): the first that others may change is the answer. */
  for (;;) {
    struct stat st;
    if (stat(path, &st) == 0) {
      int open_to_others = (st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX);
      if (st.st_uid != 0 && st.st_uid != geteuid()) {
        char owner[96];
        describe_uid(st.st_uid, owner, sizeof owner);
        snprintf(reason, len, "%s belongs to %s, who may replace what is below it", path, owner);
        *exposed = 1;
      } else if (open_to_others) {
        snprintf(reason, len,
                 "%s is writable by %s without the sticky bit (mode %04o): they may replace what "
                 "is below it",
                 path, (st.st_mode & S_IWOTH) ? "everyone" : "its group",
                 (unsigned)(st.st_mode & 07777));
        *exposed = 1;
      }
      if (*exposed)
        return TS_OK;
    } else if (errno != ENOENT && errno != ENOTDIR) {
      return ts_err_set(err, TS_EOS, "cannot inspect %s: %s", path, strerror(errno));
    }
    char *slash = strrchr(path, '/');
    if (!slash || (slash == path && path[1] == '\0'))
      return TS_OK;
    if (slash == path)
      slash[1] = '\0';
    else
      *slash = '\0';
  }
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

struct plat_claim {
  int fd;
};

int plat_claim_take(const char *path, plat_claim **out, ts_err *err) {
  *out = NULL;
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
  if (fd < 0)
    return ts_err_set(err, TS_EOS, "cannot open the lock file %s: %s%s", path, strerror(errno),
                      errno == ELOOP ? " (a link: refused)" : "");
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return ts_err_set(err, TS_EDENIED, "the lock file %s is not a plain file: refused", path);
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int code = errno;
    char holder[32] = "";
    ssize_t n = pread(fd, holder, sizeof holder - 1, 0);
    holder[n > 0 ? n : 0] = '\0';
    holder[strcspn(holder, "\r\n")] = '\0';
    close(fd);
    if (code == EWOULDBLOCK)
      return ts_err_set(err, TS_EBUSY, "another ThreadSoup service (pid %s) holds %s",
                        holder[0] ? holder : "unknown", path);
    return ts_err_set(err, TS_EOS, "cannot lock %s: %s", path, strerror(code));
  }
  /* Ours now: the pid for the next one's message. */
  char pid[32];
  int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
  if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)len, 0) != len) {
    /* The lock holds without the pid; only the message of a second service is poorer. */
  }
  plat_claim *c = malloc(sizeof *c);
  if (!c) {
    close(fd);
    return ts_err_set(err, TS_ENOMEM, "no memory for the lock of %s", path);
  }
  c->fd = fd;
  *out = c;
  return TS_OK;
}

void plat_claim_release(plat_claim *c) {
  if (!c)
    return;
  close(c->fd); /* the lock goes with the descriptor */
  free(c);
}

/* Nothing is in the way of looking at a file another connection is deleting. */
int plat_database_sidecars_inspectable(const char *path) {
  (void)path;
  return 1;
}

int plat_mkdir_service_data(const char *path, char *note, size_t note_len, ts_err *err) {
  if (note_len)
    note[0] = '\0';
  return plat_mkdir_p(path, err);
}

int plat_program_folder_safe(const char *folder, int *safe, char *reason, size_t len, ts_err *err) {
  return plat_folder_is_admin_only(folder, safe, reason, len, err);
}

/* ---- files another user may have placed: every name relative to an open folder ----------------
 */

struct plat_folder {
  int fd;
  char path[PLAT_PATH_MAX];
};

void plat_folder_path(const plat_folder *d, const char *name, char *buf, size_t len) {
  size_t n = strlen(d->path);
  snprintf(buf, len, "%s%s%s", d->path, n && d->path[n - 1] != '/' ? "/" : "", name);
}

/* What a file that is not a regular one is, for a refusal. */
static const char *kind_of(mode_t mode) {
  return S_ISLNK(mode)                    ? "a symbolic link"
         : S_ISFIFO(mode)                 ? "a FIFO (named pipe)"
         : S_ISDIR(mode)                  ? "a folder"
         : S_ISSOCK(mode)                 ? "a socket"
         : S_ISCHR(mode) || S_ISBLK(mode) ? "a device"
                                          : "not a regular file";
}

int plat_folder_open(const char *path, plat_folder **out, ts_err *err) {
  *out = NULL;
  char trimmed[PLAT_PATH_MAX];
  if (snprintf(trimmed, sizeof trimmed, "%s", path[0] ? path : ".") >= (int)sizeof trimmed)
    return ts_err_set(err, TS_EINVAL, "path too long (at most %d bytes): %s", PLAT_PATH_MAX - 1,
                      path);
  /* A trailing '/' would make the kernel follow a link O_NOFOLLOW is there to refuse. */
  for (size_t n = strlen(trimmed); n > 1 && trimmed[n - 1] == '/'; n--)
    trimmed[n - 1] = '\0';
  int fd = open(trimmed, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    struct stat st;
    if (lstat(trimmed, &st) == 0 && S_ISLNK(st.st_mode))
      return ts_err_set(err, TS_EINVAL,
                        "%s is a symbolic link: refused (accepted: the folder itself, not a link "
                        "to it)",
                        path);
    if (e == ENOTDIR)
      return ts_err_set(err, TS_EINVAL, "%s is not a folder (give an existing folder)", path);
    return ts_err_set(err, TS_EOS, "cannot open the folder %s: %s", path, strerror(e));
  }
  plat_folder *d = malloc(sizeof *d);
  if (!d) {
    close(fd);
    return ts_err_set(err, TS_ENOMEM, "no memory to open the folder %s", path);
  }
  d->fd = fd;
  snprintf(d->path, sizeof d->path, "%s", path);
  *out = d;
  return TS_OK;
}

void plat_folder_close(plat_folder *d) {
  if (!d)
    return;
  close(d->fd);
  free(d);
}

/* Opens name relative to dir_fd (AT_FDCWD: a path) without following a link at its last part or
   waiting on a FIFO, and keeps it only when fstat says it is a regular file. */
static int open_regular_at(int dir_fd, const char *name, const char *shown, FILE **out,
                           ts_err *err) {
  *out = NULL;
  int fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    struct stat st;
    if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode))
      return ts_err_set(err, TS_EINVAL, "%s is %s: refused (accepted: a regular file)", shown,
                        kind_of(st.st_mode));
    return ts_err_set(err, TS_EOS, "cannot read %s: %s", shown, strerror(e));
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return ts_err_set(err, TS_EOS, "cannot inspect %s: %s", shown, strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return ts_err_set(err, TS_EINVAL, "%s is %s: refused (accepted: a regular file)", shown,
                      kind_of(st.st_mode));
  }
  /* A regular file never blocks; reads go back to the ordinary kind. */
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  if (!(*out = fdopen(fd, "rb"))) {
    close(fd);
    return ts_err_set(err, TS_ENOMEM, "no memory to read %s", shown);
  }
  return TS_OK;
}

int plat_folder_open_regular(plat_folder *d, const char *name, FILE **out, ts_err *err) {
  char shown[PLAT_PATH_MAX];
  plat_folder_path(d, name, shown, sizeof shown);
  return open_regular_at(d->fd, name, shown, out, err);
}

int plat_open_regular(const char *path, FILE **out, ts_err *err) {
  return open_regular_at(AT_FDCWD, path, path, out, err);
}

int plat_temp_file(FILE **out, ts_err *err) {
  /* glibc's tmpfile() makes an unnamed file (O_TMPFILE) under /tmp: nothing to find or plant. */
  if (!(*out = tmpfile()))
    return ts_err_set(err, TS_EOS, "cannot create a temporary file: %s", strerror(errno));
  return TS_OK;
}

/* 64 unpredictable bits: a temporary file's name another user cannot guess ahead. */
static unsigned long long random_bits(void) {
  unsigned long long bits = 0;
  if (getrandom(&bits, sizeof bits, GRND_NONBLOCK) != (ssize_t)sizeof bits) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    bits ^= (unsigned long long)now.tv_nsec * 0x9E3779B97F4A7C15ull ^ (unsigned long long)getpid();
  }
  return bits;
}

int plat_folder_create_temp(plat_folder *d, const char *prefix, char *name, size_t len, FILE **out,
                            ts_err *err) {
  *out = NULL;
  for (int attempt = 0; attempt < 16; attempt++) {
    snprintf(name, len, "%s.%016llx.tmp", prefix, random_bits());
    int fd = openat(d->fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0640);
    if (fd < 0 && errno == EEXIST)
      continue;
    char shown[PLAT_PATH_MAX];
    plat_folder_path(d, name, shown, sizeof shown);
    if (fd < 0)
      return ts_err_set(err, TS_EOS, "cannot create %s: %s", shown, strerror(errno));
    if (!(*out = fdopen(fd, "wb"))) {
      close(fd);
      unlinkat(d->fd, name, 0);
      return ts_err_set(err, TS_ENOMEM, "no memory to write %s", shown);
    }
    return TS_OK;
  }
  return ts_err_set(err, TS_EOS, "cannot create a temporary file in %s: 16 random names taken",
                    d->path);
}

int plat_folder_rename_new(plat_folder *d, const char *from, const char *to, ts_err *err) {
  char shown[PLAT_PATH_MAX];
  plat_folder_path(d, to, shown, sizeof shown);
  return rename_new_at(d->fd, from, to, shown, err);
}

void plat_folder_remove(plat_folder *d, const char *name) { unlinkat(d->fd, name, 0); }
