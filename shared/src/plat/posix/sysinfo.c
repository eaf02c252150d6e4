/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* sysinfo.c (POSIX) - names the machine a run was measured on. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static void read_cpu_model(char *buf, size_t len) {
  snprintf(buf, len, "unknown");
  FILE *f = fopen("/proc/cpuinfo", "re");
  if (!f)
    return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "model name", 10) != 0)
      continue;
    char *colon = strchr(line, ':');
    if (!colon)
      continue;
    colon++;
    while (*colon == ' ' || *colon == '\t')
      colon++;
    colon[strcspn(colon, "\n")] = '\0';
    snprintf(buf, len, "%s", colon);
    break;
  }
  fclose(f);
}

void plat_sysinfo_read(plat_sysinfo *out) {
  memset(out, 0, sizeof *out);
  if (gethostname(out->host, sizeof out->host - 1) != 0)
    snprintf(out->host, sizeof out->host, "unknown");
  struct utsname u;
  if (uname(&u) == 0)
    snprintf(out->os, sizeof out->os, "%s %s", u.sysname, u.release);
  else
    snprintf(out->os, sizeof out->os, "POSIX");
  read_cpu_model(out->cpu, sizeof out->cpu);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  out->logical_cpus = n > 0 ? (int)n : 1;
}

int plat_power_on_ac(void) {
  /* /sys/class/power_supply/NAME/{type,online}: any online "Mains" means AC; batteries but no
     mains online means battery; neither (a desktop, a VM) means AC. */
  DIR *dir = opendir("/sys/class/power_supply");
  if (!dir)
    return 1;
  int mains_online = 0, battery = 0;
  struct dirent *de;
  while ((de = readdir(dir)) != NULL) {
    if (de->d_name[0] == '.')
      continue;
    char path[PLAT_PATH_MAX], type[32] = "", online[8] = "";
    snprintf(path, sizeof path, "/sys/class/power_supply/%s/type", de->d_name);
    FILE *f = fopen(path, "re");
    if (f) {
      if (!fgets(type, sizeof type, f))
        type[0] = '\0';
      fclose(f);
    }
    snprintf(path, sizeof path, "/sys/class/power_supply/%s/online", de->d_name);
    f = fopen(path, "re");
    if (f) {
      if (!fgets(online, sizeof online, f))
        online[0] = '\0';
      fclose(f);
    }
    if (strncmp(type, "Battery", 7) == 0)
      battery = 1;
    if (strncmp(type, "Mains", 5) == 0 && online[0] == '1')
      mains_online = 1;
  }
  closedir(dir);
  return mains_online || !battery ? 1 : 0;
}
