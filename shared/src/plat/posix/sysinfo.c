/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* sysinfo.c (POSIX) - names the machine a run was measured on. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
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
  struct sysinfo si;
  if (sysinfo(&si) == 0)
    out->memory_bytes = (uint64_t)si.totalram * si.mem_unit;
  /* systemd's and D-Bus's machine id, the same file on every Linux that has one. */
  char os_id[128] = "";
  FILE *f = fopen("/etc/machine-id", "re");
  if (!f)
    f = fopen("/var/lib/dbus/machine-id", "re");
  if (f) {
    if (!fgets(os_id, sizeof os_id, f))
      os_id[0] = '\0';
    fclose(f);
  }
  plat_machine_id_derive(os_id, out->machine_id, sizeof out->machine_id);
}
