/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* cores.c - the pure parts of benchmark placement: processor-group arithmetic, the parsing of
   Windows' CPU-set records, and the summaries of core classes a trial stores. */
#include "threadsoup/plat.h"

#include <stdio.h>
#include <string.h>

#include "threadsoup/buf.h"

const char *plat_power_source_from_status(int ac_line_status, int battery_flag) {
  /* SYSTEM_POWER_STATUS: ACLineStatus 0 offline, 1 online, 255 unknown; BatteryFlag 128 means
     "no system battery" (and 255 "unknown status"). */
  if (ac_line_status == 1)
    return battery_flag == 128 ? "ac (no battery)" : "ac";
  if (ac_line_status == 0)
    return "battery";
  return "unknown";
}

int plat_group_for_thread(const int *group_sizes, int groups, long index) {
  long total = 0;
  for (int g = 0; g < groups; g++)
    total += group_sizes[g] > 0 ? group_sizes[g] : 0;
  if (total <= 0 || index < 0)
    return -1;
  /* Thread i takes logical CPU i mod total: as many threads per group as the group has CPUs, so
     64 + 16 CPUs take 64 and 16 of 80 threads, not 40 and 40. */
  long cpu = index % total;
  for (int g = 0; g < groups; g++) {
    long size = group_sizes[g] > 0 ? group_sizes[g] : 0;
    if (cpu < size)
      return g;
    cpu -= size;
  }
  return groups - 1; /* not reached */
}

/* SYSTEM_CPU_SET_INFORMATION (winnt.h, documented layout): DWORD Size; DWORD Type
   (CpuSetInformation = 0); then CpuSet: DWORD Id; WORD Group; BYTE LogicalProcessorIndex;
   BYTE CoreIndex; BYTE LastLevelCacheIndex; BYTE NumaNodeIndex; BYTE EfficiencyClass; BYTE flags;
   DWORD Reserved/SchedulingClass; DWORD64 AllocationTag: 32 bytes today. The structure is of
   variable size "designed for future expansion": the next record starts Size bytes on, and
   records of an unknown Type are skipped, as the documentation asks. */
#define CPU_SET_TYPE_OFFSET 4
#define CPU_SET_GROUP_OFFSET 12
#define CPU_SET_INDEX_OFFSET 14
#define CPU_SET_CLASS_OFFSET 18
#define CPU_SET_MIN_SIZE 19 /* up to and including EfficiencyClass */
#define CPU_SET_MAX_GROUPS 32

static unsigned read_le(const unsigned char *p, int bytes) {
  unsigned v = 0;
  for (int i = bytes - 1; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static int parse_cpu_sets(const unsigned char *bytes, size_t length, plat_core_layout *out,
                          ts_err *err) {
  int group_size[CPU_SET_MAX_GROUPS] = {0};
  /* Two passes: the first finds each group's size, so the second can number CPUs across groups
     as plat_current_cpu does (group g's CPUs follow those of the groups before it). */
  for (int pass = 0; pass < 2; pass++) {
    int group_first[CPU_SET_MAX_GROUPS] = {0};
    for (int g = 1; g < CPU_SET_MAX_GROUPS; g++)
      group_first[g] = group_first[g - 1] + group_size[g - 1];
    for (size_t at = 0; at < length;) {
      if (length - at < 8)
        return ts_err_set(err, TS_EINVAL, "CPU set record at byte %zu is cut short", at);
      unsigned size = read_le(bytes + at, 4);
      if (size < 8 || size > length - at)
        return ts_err_set(err, TS_EINVAL,
                          "CPU set record at byte %zu has size %u (at least 8, at most the %zu "
                          "bytes left)",
                          at, size, length - at);
      const unsigned char *r = bytes + at;
      at += size;
      if (read_le(r + CPU_SET_TYPE_OFFSET, 4) != 0)
        continue; /* not CpuSetInformation */
      if (size < CPU_SET_MIN_SIZE)
        return ts_err_set(err, TS_EINVAL, "CPU set record of %u bytes holds no efficiency class",
                          size);
      unsigned group = read_le(r + CPU_SET_GROUP_OFFSET, 2);
      unsigned index = r[CPU_SET_INDEX_OFFSET];
      if (group >= CPU_SET_MAX_GROUPS)
        return ts_err_set(err, TS_EINVAL, "CPU set in processor group %u (at most %d groups)",
                          group, CPU_SET_MAX_GROUPS);
      if (pass == 0) {
        if ((int)index + 1 > group_size[group])
          group_size[group] = (int)index + 1;
        if ((int)group + 1 > out->groups)
          out->groups = (int)group + 1;
        continue;
      }
      int cpu = group_first[group] + (int)index;
      if (cpu >= PLAT_MAX_CPUS)
        return ts_err_set(err, TS_EINVAL, "CPU %d is beyond the %d this build describes", cpu,
                          PLAT_MAX_CPUS);
      out->cpu_class[cpu] = r[CPU_SET_CLASS_OFFSET];
      if (cpu + 1 > out->cpus)
        out->cpus = cpu + 1;
      if (r[CPU_SET_CLASS_OFFSET] > out->max_class)
        out->max_class = r[CPU_SET_CLASS_OFFSET];
    }
  }
  return TS_OK;
}

int plat_core_layout_from_cpu_sets(const void *buffer, size_t length, plat_core_layout *out,
                                   ts_err *err) {
  memset(out, 0, sizeof *out);
  memset(out->cpu_class, PLAT_CPU_ABSENT, sizeof out->cpu_class);
  int rc = parse_cpu_sets(buffer, length, out, err);
  if (rc != TS_OK) { /* nothing half-read */
    memset(out, 0, sizeof *out);
    memset(out->cpu_class, PLAT_CPU_ABSENT, sizeof out->cpu_class);
  }
  return rc;
}

/* Logical CPUs per class, fastest first. */
void plat_core_layout_summary(const plat_core_layout *layout, char *buf, size_t len) {
  if (layout->cpus <= 0) {
    snprintf(buf, len, "unknown");
    return;
  }
  int present = 0;
  for (int i = 0; i < layout->cpus; i++)
    present += layout->cpu_class[i] != PLAT_CPU_ABSENT;
  if (layout->max_class == 0) {
    snprintf(buf, len, "uniform, %d CPUs", present);
    return;
  }
  ts_buf b = ts_buf_on(buf, len);
  ts_buf_add(&b, "hybrid");
  for (int c = layout->max_class; c >= 0; c--) {
    int n = 0;
    for (int i = 0; i < layout->cpus; i++)
      n += layout->cpu_class[i] == c;
    if (n)
      ts_buf_addf(&b, ", class%d %d CPUs", c, n);
  }
}

void plat_core_classes_of(const plat_core_layout *layout, const int *cpus, int count, char *buf,
                          size_t len) {
  int threads[256] = {0};
  int known = 0;
  for (int i = 0; i < count; i++) {
    if (cpus[i] < 0 || cpus[i] >= layout->cpus || layout->cpu_class[cpus[i]] == PLAT_CPU_ABSENT)
      continue;
    threads[layout->cpu_class[cpus[i]]]++;
    known++;
  }
  if (layout->cpus <= 0 || known == 0) {
    snprintf(buf, len, "unknown");
    return;
  }
  if (layout->max_class == 0) {
    snprintf(buf, len, "uniform");
    return;
  }
  ts_buf b = ts_buf_on(buf, len);
  for (int c = layout->max_class; c >= 0; c--) {
    int present = 0;
    for (int i = 0; i < layout->cpus && !present; i++)
      present = layout->cpu_class[i] == c;
    if (present)
      ts_buf_itemf(&b, ",", "class%d:%d", c, threads[c]);
  }
  if (known < count)
    ts_buf_itemf(&b, ",", "unknown:%d", count - known);
}

int plat_power_on_ac(void) {
  const char *source = plat_power_source();
  if (strcmp(source, "battery") == 0)
    return 0;
  return strncmp(source, "ac", 2) == 0 ? 1 : -1;
}

typedef struct self_test {
  char state[PLAT_BENCH_TEXT_MAX];
} self_test;

static void self_test_thread(void *arg) {
  self_test *t = arg;
  plat_bench_thread_begin(t->state, sizeof t->state);
}

int plat_power_throttling_opt_out_self_test(char *why, size_t len) {
  /* On a thread of its own, so the caller's priority and throttling stay as they were. */
  self_test t = {"not run"};
  plat_thread thread;
  ts_err err;
  if (plat_thread_start(&thread, 0, self_test_thread, &t, &err) != TS_OK) {
    snprintf(why, len, "cannot start a test thread: %s", err.text);
    return 0;
  }
  plat_thread_join(thread);
  /* "off": Windows took the opt-out; "n/a": Linux, where there is nothing to opt out of. Any
     failure to set the priority is appended to either, so only the bare word passes. */
  int ok = strcmp(t.state, "off") == 0 || strcmp(t.state, "n/a") == 0;
  if (strcmp(t.state, "n/a") == 0)
    snprintf(why, len,
             "n/a: Linux has no per-thread power throttling; benchmark threads run at "
             "nice 0 under SCHED_OTHER");
  else if (ok)
    snprintf(why, len, "off: a benchmark thread is out of power throttling, at normal priority");
  else
    snprintf(why, len, "%s", t.state);
  return ok;
}
