/* census.c (POSIX) - counts processes and threads from /proc, as the kernel reports them. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads num_threads (field 20) of /proc/PID/stat; -1 when the process is gone. The command name
   (field 2) may hold spaces and parentheses, so parsing starts after the last ')'. */
static long stat_num_threads(const char *pid_text) {
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%s/stat", pid_text);
  FILE *f = fopen(path, "re");
  if (!f)
    return -1;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  char *p = strrchr(buf, ')');
  if (!p)
    return -1;
  p++;
  /* After ')': state is field 3; num_threads is field 20, i.e. the 18th token here. */
  for (int field = 3; field < 20; field++) {
    while (*p == ' ')
      p++;
    while (*p && *p != ' ')
      p++;
  }
  return strtol(p, NULL, 10);
}

int plat_census_machine(plat_census *out, ts_err *err) {
  DIR *dir = opendir("/proc");
  if (!dir)
    return ts_err_set(err, TS_EOS, "cannot read /proc: %s", strerror(errno));
  long processes = 0, threads = 0;
  struct dirent *de;
  while ((de = readdir(dir)) != NULL) {
    if (!isdigit((unsigned char)de->d_name[0]))
      continue;
    long n = stat_num_threads(de->d_name);
    if (n < 0)
      continue; /* ended while we looked */
    processes++;
    threads += n;
  }
  closedir(dir);
  out->processes = processes;
  out->threads = threads;
  return TS_OK;
}

long plat_process_thread_count(long pid, ts_err *err) {
  char pid_text[32];
  snprintf(pid_text, sizeof pid_text, "%ld", pid);
  long n = stat_num_threads(pid_text);
  if (n < 0)
    ts_err_set(err, TS_EOS, "process %ld not found in /proc", pid);
  return n;
}

long plat_self_pid(void) { return (long)getpid(); }
