/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* like.c - a load like a real program: finds a process by PID or name, counts each of its threads'
   context switches over a window, and groups the threads into sleepers at a few rates and
   waiters, as a load spec. */
#include "like.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threadsoup/buf.h"
#include "threadsoup/parse.h"
#include "threadsoup/utf8.h"

/* ---- grouping: pure ------------------------------------------------------------------------- */

/* A wake-up interval rounded to 2 significant digits, in whole nanoseconds (integers only, so the
   same counts give the same spec on every machine). */
static uint64_t round_two_digits(uint64_t ns) {
  uint64_t scale = 1;
  while (ns / scale >= 100)
    scale *= 10;
  return (ns + scale / 2) / scale * scale;
}

static int by_value(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* A class while grouping: a run [first, last] of the sorted intervals. */
typedef struct run {
  long first, last;
} run;

static uint64_t run_median(const uint64_t *sorted, run r) {
  return sorted[r.first + (r.last - r.first) / 2];
}

int like_group(const uint64_t *switches, long count, uint64_t window_ns, like_result *out,
               ts_err *err) {
  memset(out, 0, sizeof *out);
  if (count <= 0 || window_ns == 0)
    return ts_err_set(err, TS_EINVAL, "no threads were seen, so there is nothing to imitate");
  uint64_t *sorted = malloc((size_t)count * sizeof *sorted);
  run *runs = malloc((size_t)count * sizeof *runs);
  if (!sorted || !runs) {
    free(sorted);
    free(runs);
    return ts_err_set(err, TS_ENOMEM, "no memory to group %ld threads", count);
  }
  long wakers = 0;
  for (long i = 0; i < count; i++)
    if (switches[i] > 0)
      sorted[wakers++] = window_ns / switches[i];
  out->threads = count;
  out->waiters = count - wakers;
  qsort(sorted, (size_t)wakers, sizeof *sorted, by_value);

  /* Runs of near intervals: timers of one kind jitter by a few percent, more on a busy machine. */
  long run_count = 0;
  for (long i = 0; i < wakers; i++) {
    if (run_count > 0) {
      run *r = &runs[run_count - 1];
      double prev = (double)sorted[i - 1], first = (double)sorted[r->first];
      if ((double)sorted[i] <= 1.25 * prev && (double)sorted[i] <= 2.0 * first) {
        r->last = i;
        continue;
      }
    }
    runs[run_count].first = runs[run_count].last = i;
    run_count++;
  }
  /* Too many: merge the two neighbours whose medians are closest in ratio. */
  while (run_count > LIKE_MAX_CLASSES) {
    long best = 0;
    double best_ratio = 0;
    for (long i = 0; i + 1 < run_count; i++) {
      double ratio = (double)run_median(sorted, runs[i + 1]) /
                     (double)(run_median(sorted, runs[i]) ? run_median(sorted, runs[i]) : 1);
      if (i == 0 || ratio < best_ratio) {
        best = i;
        best_ratio = ratio;
      }
    }
    runs[best].last = runs[best + 1].last;
    memmove(&runs[best + 1], &runs[best + 2], (size_t)(run_count - best - 2) * sizeof *runs);
    run_count--;
  }
  /* Each run's median interval, as the sleep scenario accepts it; runs that round alike join. */
  for (long i = 0; i < run_count; i++) {
    uint64_t interval = round_two_digits(run_median(sorted, runs[i]));
    if (interval < TS_NS_PER_MS)
      interval = TS_NS_PER_MS;
    if (interval > TS_NS_PER_HOUR)
      interval = TS_NS_PER_HOUR;
    long threads = runs[i].last - runs[i].first + 1;
    if (out->class_count > 0 && out->classes[out->class_count - 1].interval_ns == interval) {
      out->classes[out->class_count - 1].threads += threads;
      continue;
    }
    out->classes[out->class_count].threads = threads;
    out->classes[out->class_count].interval_ns = interval;
    out->class_count++;
  }
  free(sorted);
  free(runs);

  load_spec *spec = &out->spec;
  int rc = TS_OK;
  for (int i = 0; i < out->class_count && rc == TS_OK; i++) {
    load_part *part = &spec->parts[spec->part_count++];
    char threads[24], interval[32];
    snprintf(threads, sizeof threads, "%ld", out->classes[i].threads);
    ts_format_duration(out->classes[i].interval_ns, interval, sizeof interval);
    rc = load_part_init(part, "sleep", err);
    if (rc == TS_OK)
      rc = load_part_set(part, "count", threads, err);
    if (rc == TS_OK)
      rc = load_part_set(part, "interval", interval, err);
  }
  if (rc == TS_OK && out->waiters > 0) {
    load_part *part = &spec->parts[spec->part_count++];
    rc = load_part_init(part, "wait", err);
    part->count = out->waiters;
  }
  return rc == TS_OK ? load_spec_format(spec, err) : rc;
}

/* ---- finding the process -------------------------------------------------------------------- */

/* "12, 34, 56" */
static void list_pids(const plat_process_census *list, const long *match, long n, char *buf,
                      size_t len) {
  ts_buf b = ts_buf_on(buf, len);
  for (long i = 0; i < n; i++)
    ts_buf_itemf(&b, ", ", "%ld", list[match[i]].pid);
}

/* Whether `what` is a number, perhaps negative: a PID, good or bad, rather than a name. */
static int looks_like_pid(const char *what) {
  const char *digits = what[0] == '-' ? what + 1 : what;
  if (!*digits)
    return 0;
  for (const char *p = digits; *p; p++)
    if (!isdigit((unsigned char)*p))
      return 0;
  return 1;
}

static int find_by_pid(const char *what, like_target *out, ts_err *err) {
  errno = 0;
  long pid = strtol(what, NULL, 10);
  if (pid <= 0 || errno == ERANGE)
    return ts_err_set(err, TS_EUSAGE,
                      "--like %s is not a process ID (accepted: a PID above 0, or the name of a "
                      "running program's executable)",
                      what);
  if (pid == plat_self_pid())
    return ts_err_set(err, TS_EUSAGE,
                      "--like %ld is this threadsoup process itself; name another process", pid);
  plat_process_census census;
  plat_thread_switches *threads = NULL;
  long count = 0;
  if (plat_census_threads(pid, &census, &threads, &count, err) != TS_OK)
    return ts_err_set(err, TS_EINVAL, "--like %ld: no running process has this ID", pid);
  free(threads);
  out->pid = pid;
  snprintf(out->name, sizeof out->name, "%s", census.name);
  return TS_OK;
}

/* Whether the process still runs: a Linux zombie (ended, not yet reaped) is in the process list
   but has no threads to imitate. */
static int is_running(long pid) {
  plat_process_census census;
  plat_thread_switches *threads = NULL;
  long count = 0;
  ts_err ignored;
  int rc = plat_census_threads(pid, &census, &threads, &count, &ignored);
  free(threads);
  return rc == TS_OK;
}

static int find_by_name(const char *what, like_target *out, ts_err *err) {
  plat_process_census *list;
  long count;
  int rc = plat_census_processes(&list, &count, err);
  if (rc != TS_OK)
    return rc;
  long *match = malloc((size_t)(count > 0 ? count : 1) * sizeof *match);
  if (!match) {
    free(list);
    return ts_err_set(err, TS_ENOMEM, "no memory to look for '%s'", what);
  }
  long matches = 0, self = 0;
  for (long i = 0; i < count; i++) {
    if (!plat_process_name_matches(list[i].name, what) || !is_running(list[i].pid))
      continue;
    if (list[i].pid == plat_self_pid())
      self = 1;
    else
      match[matches++] = i;
  }
  char pids[512];
  if (matches == 1) {
    out->pid = list[match[0]].pid;
    snprintf(out->name, sizeof out->name, "%s", list[match[0]].name);
  } else if (matches > 1) {
    list_pids(list, match, matches, pids, sizeof pids);
    rc = ts_err_set(err, TS_EINVAL,
                    "--like %s: %ld processes have this name (PIDs %s); give one of their PIDs",
                    what, matches, pids);
  } else if (self) {
    rc = ts_err_set(err, TS_EINVAL,
                    "--like %s: the only process of this name is this threadsoup itself", what);
  } else {
    rc = ts_err_set(err, TS_EINVAL,
                    "--like %s: no running process has this name (accepted: a PID, or the exact "
                    "name of a running program's executable)",
                    what);
  }
  free(match);
  free(list);
  return rc;
}

int like_find(const char *what, like_target *out, ts_err *err) {
  memset(out, 0, sizeof *out);
  if (!what || !*what)
    return ts_err_set(err, TS_EUSAGE, "--like needs a process ID or an executable's name");
  if (looks_like_pid(what))
    return find_by_pid(what, out, err);
  return find_by_name(what, out, err);
}

/* ---- watching it ---------------------------------------------------------------------------- */

static int by_tid(const void *a, const void *b) {
  long x = ((const plat_thread_switches *)a)->tid, y = ((const plat_thread_switches *)b)->tid;
  return (x > y) - (x < y);
}

int like_observe(const like_target *target, uint64_t window_ns, like_result *out, ts_err *err) {
  plat_process_census census;
  plat_thread_switches *before = NULL, *after = NULL;
  long before_count = 0, after_count = 0;
  int rc = plat_census_threads(target->pid, &census, &before, &before_count, err);
  if (rc != TS_OK)
    return ts_err_set(err, TS_EINVAL, "process %ld (%s) is gone", target->pid, target->name);
  uint64_t t0 = plat_clock_ns(), elapsed = 0;
  /* A look once a second ends a long window early when the process ends in it. */
  while (rc == TS_OK && elapsed < window_ns) {
    uint64_t step = window_ns - elapsed < TS_NS_PER_S ? window_ns - elapsed : TS_NS_PER_S;
    if (plat_interrupt_wait(step)) {
      free(before);
      return ts_err_set(err, TS_EINTERRUPTED, "interrupted while watching process %ld (%s)",
                        target->pid, target->name);
    }
    elapsed = plat_clock_ns() - t0;
    if (elapsed < window_ns) {
      rc = plat_census_threads(target->pid, &census, &after, &after_count, err);
      free(after);
      after = NULL;
    }
  }
  if (rc == TS_OK)
    rc = plat_census_threads(target->pid, &census, &after, &after_count, err);
  elapsed = plat_clock_ns() - t0;
  if (rc != TS_OK) {
    free(before);
    char window[32];
    ts_format_duration(window_ns, window, sizeof window);
    return ts_err_set(err, TS_EFAILED, "process %ld (%s) ended during the %s window", target->pid,
                      target->name, window);
  }
  uint64_t *delta = malloc((size_t)(after_count > 0 ? after_count : 1) * sizeof *delta);
  if (!delta) {
    free(before);
    free(after);
    return ts_err_set(err, TS_ENOMEM, "no memory for %ld threads", after_count);
  }
  qsort(before, (size_t)before_count, sizeof *before, by_tid);
  for (long i = 0; i < after_count; i++) {
    const plat_thread_switches *old =
        bsearch(&after[i], before, (size_t)before_count, sizeof *before, by_tid);
    /* A thread that started in the window (or a reused id) counts every switch it made. */
    delta[i] = old && old->switches <= after[i].switches ? after[i].switches - old->switches
                                                         : after[i].switches;
  }
  rc = like_group(delta, after_count, elapsed, out, err);
  free(delta);
  free(before);
  free(after);
  return rc;
}

void like_describe(const like_target *target, const like_result *r, uint64_t window_ns, char *buf,
                   size_t len) {
  ts_buf b = ts_buf_on(buf, len);
  char duration[32], name[sizeof target->name * 4];
  ts_format_duration(window_ns, duration, sizeof duration);
  /* The name is its owner's choice, any user's: escaped, so the line is one line and holds
     nothing a terminal acts on. */
  ts_buf_addf(&b, "process %ld (%s): %ld thread%s in %s", target->pid,
              ts_utf8_printable(target->name, name, sizeof name), r->threads,
              r->threads == 1 ? "" : "s", duration);
  for (int i = 0; i < r->class_count; i++) {
    ts_format_duration(r->classes[i].interval_ns, duration, sizeof duration);
    ts_buf_addf(&b, "%s%ld %severy ~%s", i == 0 ? "; " : ", ", r->classes[i].threads,
                i == 0 ? "woke " : "", duration);
  }
  if (r->waiters > 0)
    ts_buf_addf(&b, "%s%ld waited", r->class_count ? ", " : "; ", r->waiters);
}
