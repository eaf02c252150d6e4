/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* check.h - the tiny test harness of the unit tests: named cases, checks that report file and line,
   and a closing "N passed, N failed" line; each test program is one CTest test. */
#ifndef THREADSOUP_CHECK_H
#define THREADSOUP_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_failures_in_case;
static int check_cases_passed;
static int check_cases_failed;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "  %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                   \
      check_failures_in_case++;                                                                    \
    }                                                                                              \
  } while (0)

/* Like CHECK, and a failure also ends the current case (a `return` from it): for what later
   checks depend on, such as a pointer they dereference. Only in functions returning void. */
#define REQUIRE(cond)                                                                              \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "  %s:%d: check failed, case ended: %s\n", __FILE__, __LINE__, #cond);       \
      check_failures_in_case++;                                                                    \
      return;                                                                                      \
    }                                                                                              \
  } while (0)

#define CHECK_INT(actual, expected)                                                                \
  do {                                                                                             \
    long long check_a_ = (long long)(actual), check_e_ = (long long)(expected);                    \
    if (check_a_ != check_e_) {                                                                    \
      fprintf(stderr, "  %s:%d: %s is %lld, expected %lld\n", __FILE__, __LINE__, #actual,         \
              check_a_, check_e_);                                                                 \
      check_failures_in_case++;                                                                    \
    }                                                                                              \
  } while (0)

#define CHECK_STR_CONTAINS(haystack, needle)                                                       \
  do {                                                                                             \
    const char *check_h_ = (haystack);                                                             \
    if (!check_h_ || !strstr(check_h_, (needle))) {                                                \
      fprintf(stderr, "  %s:%d: \"%s\" does not contain \"%s\"\n", __FILE__, __LINE__,             \
              check_h_ ? check_h_ : "(null)", (needle));                                           \
      check_failures_in_case++;                                                                    \
    }                                                                                              \
  } while (0)

#define CHECK_STR_EQ(actual, expected)                                                             \
  do {                                                                                             \
    const char *check_a_ = (actual), *check_e_ = (expected);                                       \
    if (!check_a_ || strcmp(check_a_, check_e_) != 0) {                                            \
      fprintf(stderr, "  %s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #actual,     \
              check_a_ ? check_a_ : "(null)", check_e_);                                           \
      check_failures_in_case++;                                                                    \
    }                                                                                              \
  } while (0)

/* |a - b| <= rel * |b| (or both exactly equal): numbers checked against reference values. */
static inline int rel_close(double a, double b, double rel) {
  return a == b || fabs(a - b) <= rel * fabs(b);
}

#define CHECK_REL(actual, expected, rel)                                                           \
  do {                                                                                             \
    double check_ra_ = (actual), check_re_ = (expected);                                           \
    if (!rel_close(check_ra_, check_re_, (rel))) {                                                 \
      fprintf(stderr, "  %s:%d: %s is %.17g, expected %.17g\n", __FILE__, __LINE__, #actual,       \
              check_ra_, check_re_);                                                               \
      check_failures_in_case++;                                                                    \
    }                                                                                              \
  } while (0)

/* Runs one case: a function taking no arguments. */
#define RUN_CASE(fn)                                                                               \
  do {                                                                                             \
    check_failures_in_case = 0;                                                                    \
    fprintf(stderr, "case %s\n", #fn);                                                             \
    fn();                                                                                          \
    if (check_failures_in_case) {                                                                  \
      check_cases_failed++;                                                                        \
      fprintf(stderr, "FAIL %s\n", #fn);                                                           \
    } else {                                                                                       \
      check_cases_passed++;                                                                        \
    }                                                                                              \
  } while (0)

#ifdef __linux__
/* The kernel's one-letter state of process `pid` ('R', 'S', 'T' stopped, 'Z' a zombie, …) from
   /proc/PID/stat, or 0 when there is no such process. The letter follows the last ')', since a
   program's name may hold one. */
static inline char check_proc_state(long pid) {
  char path[64], stat[256] = "";
  snprintf(path, sizeof path, "/proc/%ld/stat", pid);
  FILE *f = pid > 0 ? fopen(path, "r") : NULL;
  if (!f)
    return 0;
  size_t n = fread(stat, 1, sizeof stat - 1, f);
  fclose(f);
  stat[n] = '\0';
  const char *close_paren = strrchr(stat, ')');
  return close_paren && close_paren[1] == ' ' ? close_paren[2] : 0;
}

/* 1 while `pid` runs: neither gone nor a zombie waiting for a parent that does not reap it. */
static inline int check_proc_running(long pid) {
  char state = check_proc_state(pid);
  return state && state != 'Z';
}
#endif

/* The closing line and the exit code of a test program. */
static inline int check_summary(void) {
  printf("%d passed, %d failed\n", check_cases_passed, check_cases_failed);
  return check_cases_failed ? 1 : 0;
}

#endif
