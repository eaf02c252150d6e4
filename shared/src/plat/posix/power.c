/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* power.c (POSIX) - benchmark placement on Linux: the power source and the core classes from
   sysfs, benchmark threads at nice 0 under SCHED_OTHER, and the CPU a thread runs on. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The first line of root/rel (one sysfs value), without its newline; 0 when it cannot be read. */
static int read_value(const char *root, const char *rel, char *buf, size_t len) {
  char path[PLAT_PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  FILE *f = fopen(path, "re");
  if (!f)
    return 0;
  int ok = fgets(buf, (int)len, f) != NULL;
  fclose(f);
  if (ok)
    buf[strcspn(buf, "\n")] = '\0';
  return ok;
}

/* class/power_supply/NAME/{type,online,status} (the kernel's power-supply class ABI). Mains
   online means AC. Batteries without mains online: "battery" when one discharges, "ac" when one
   charges or is full (some laptops list no mains entry), otherwise "battery" if a mains entry is
   offline and "unknown" if there is none. No supply at all (a desktop, a server, a VM) is mains
   power without a battery. USB and UPS entries are ignored. */
const char *plat_power_source_at(const char *sysfs_root) {
  char dir_path[PLAT_PATH_MAX];
  snprintf(dir_path, sizeof dir_path, "%s/class/power_supply", sysfs_root);
  DIR *dir = opendir(dir_path);
  if (!dir)
    return "unknown";
  int mains = 0, mains_online = 0, battery = 0, discharging = 0, charging = 0;
  struct dirent *de;
  while ((de = readdir(dir)) != NULL) {
    if (de->d_name[0] == '.')
      continue;
    char rel[PLAT_PATH_MAX], type[32] = "", online[8] = "", status[32] = "";
    snprintf(rel, sizeof rel, "class/power_supply/%s/type", de->d_name);
    read_value(sysfs_root, rel, type, sizeof type);
    snprintf(rel, sizeof rel, "class/power_supply/%s/online", de->d_name);
    read_value(sysfs_root, rel, online, sizeof online);
    snprintf(rel, sizeof rel, "class/power_supply/%s/status", de->d_name);
    read_value(sysfs_root, rel, status, sizeof status);
    if (strcmp(type, "Mains") == 0) {
      mains = 1;
      mains_online |= strcmp(online, "1") == 0;
    } else if (strcmp(type, "Battery") == 0) {
      battery = 1;
      discharging |= strcmp(status, "Discharging") == 0;
      charging |= strcmp(status, "Charging") == 0 || strcmp(status, "Full") == 0 ||
                  strcmp(status, "Not charging") == 0;
    }
  }
  closedir(dir);
  if (mains_online)
    return "ac";
  if (!battery)
    return mains ? "unknown" : "ac (no battery)";
  if (discharging)
    return "battery";
  if (charging)
    return "ac";
  return mains ? "battery" : "unknown";
}

const char *plat_power_source(void) { return plat_power_source_at("/sys"); }

/* Marks the CPUs of a kernel cpulist ("0-7,16,18-19") with `cls`; the count marked. */
static int mark_cpulist(const char *list, unsigned char cls, plat_core_layout *out) {
  int marked = 0;
  for (const char *p = list; *p;) {
    char *end;
    long first = strtol(p, &end, 10), last = first;
    if (end == p)
      break;
    if (*end == '-')
      last = strtol(end + 1, &end, 10);
    for (long c = first; c <= last && c >= 0 && c < PLAT_MAX_CPUS; c++, marked++) {
      out->cpu_class[c] = cls;
      if (c + 1 > out->cpus)
        out->cpus = (int)c + 1;
    }
    p = *end == ',' ? end + 1 : end + strlen(end);
  }
  if (marked && cls > out->max_class)
    out->max_class = cls;
  return marked;
}

/* Hybrid Intel CPUs have two PMUs, each listing its CPUs: devices/cpu_core/cpus (performance
   cores, class 1) and devices/cpu_atom/cpus (efficiency cores, class 0). ARM big.LITTLE (and
   other asymmetric systems) give each CPU a capacity, devices/system/cpu/cpuN/cpu_capacity
   (1024 for the biggest): distinct capacities ranked from 0 become the classes. Otherwise the
   online CPUs are one class. */
void plat_core_layout_read_at(const char *sysfs_root, plat_core_layout *out) {
  memset(out, 0, sizeof *out);
  memset(out->cpu_class, PLAT_CPU_ABSENT, sizeof out->cpu_class);
  out->groups = 1;
  char list[4096];
  if (read_value(sysfs_root, "devices/cpu_core/cpus", list, sizeof list) &&
      read_value(sysfs_root, "devices/cpu_atom/cpus", list, sizeof list)) {
    read_value(sysfs_root, "devices/cpu_atom/cpus", list, sizeof list);
    mark_cpulist(list, 0, out);
    read_value(sysfs_root, "devices/cpu_core/cpus", list, sizeof list);
    mark_cpulist(list, 1, out);
    return;
  }
  if (!read_value(sysfs_root, "devices/system/cpu/online", list, sizeof list) ||
      !mark_cpulist(list, 0, out))
    return;
  long *capacity = malloc(sizeof *capacity * (size_t)out->cpus);
  if (!capacity)
    return; /* uniform, as far as this can tell */
  long distinct[256];
  int distinct_count = 0;
  for (int c = 0; c < out->cpus; c++) {
    char rel[96], value[32];
    capacity[c] = -1;
    if (out->cpu_class[c] == PLAT_CPU_ABSENT)
      continue;
    snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/cpu_capacity", c);
    capacity[c] = read_value(sysfs_root, rel, value, sizeof value) ? strtol(value, NULL, 10) : -1;
    int seen = 0;
    for (int k = 0; k < distinct_count; k++)
      seen |= distinct[k] == capacity[c];
    if (!seen && capacity[c] >= 0 && distinct_count < 256)
      distinct[distinct_count++] = capacity[c];
  }
  if (distinct_count < 2) {
    free(capacity);
    return; /* no capacities, or all alike: uniform */
  }
  for (int c = 0; c < out->cpus; c++) {
    if (out->cpu_class[c] == PLAT_CPU_ABSENT)
      continue;
    int rank = 0;
    for (int k = 0; k < distinct_count; k++)
      rank += distinct[k] < capacity[c];
    out->cpu_class[c] = (unsigned char)(capacity[c] < 0 ? 0 : rank);
    if (out->cpu_class[c] > out->max_class)
      out->max_class = out->cpu_class[c];
  }
  free(capacity);
}

void plat_core_layout_read(plat_core_layout *out) { plat_core_layout_read_at("/sys", out); }

/* Linux has no per-thread power-throttling switch like Windows' EcoQoS: the frequency governor
   and intel_pstate's energy-performance preference act on whole CPUs, not on a thread. What a
   thread does control is its nice value (its own, on Linux: setpriority with a thread id) and its
   policy, and a child started from it inherits both. */
void plat_bench_thread_begin(char *state, size_t len) {
  snprintf(state, len, "n/a");
  struct sched_param param = {0};
  int rc = pthread_setschedparam(pthread_self(), SCHED_OTHER, &param);
  if (rc != 0) {
    size_t used = strlen(state);
    snprintf(state + used, len - used, "; cannot set SCHED_OTHER: %s", strerror(rc));
  }
  id_t tid = (id_t)syscall(SYS_gettid);
  errno = 0;
  int nice_now = getpriority(PRIO_PROCESS, tid);
  if (errno == 0 && nice_now != 0 && setpriority(PRIO_PROCESS, tid, 0) != 0) {
    size_t used = strlen(state);
    snprintf(state + used, len - used, "; nice %d, cannot reset to 0: %s", nice_now,
             strerror(errno));
  }
}

void plat_bench_thread_spread(long index) { (void)index; /* Linux has no processor groups */ }

int plat_current_cpu(void) { return sched_getcpu(); }
