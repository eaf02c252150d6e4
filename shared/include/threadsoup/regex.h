/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* regex.h - a small portable regular-expression matcher for pulling a score out of a program's
   output, because MinGW has no <regex.h> and the two platforms must read output the same way.

   Syntax: literals; . (any character but a newline); [abc] [a-z] [^0-9] classes; \d \s \w and
   \D \S \W (also inside classes); \n \r \t and escaped punctuation (\. \( \\ …); the greedy
   quantifiers * + ? {n} {n,} {n,m}, each made lazy by a following ?; ^ and $ at the start and end
   of any line (the text is searched as many lines); ( ) capture groups, (?: ) groups that do not
   capture; | alternation at the top level or inside groups. Matching is byte-wise (UTF-8 text is
   matched as its bytes) and case-sensitive. */
#ifndef THREADSOUP_REGEX_H
#define THREADSOUP_REGEX_H

#include <stddef.h>
#include <stdint.h>

#include "threadsoup/err.h"

#define TS_REGEX_MAX_GROUPS 16 /* capture groups, not counting the whole match */
/* Backtracking steps one search may take before giving up: enough for any sane pattern on a
   megabyte of output, and a few hundred milliseconds at most for a pathological one. */
#define TS_REGEX_DEFAULT_MAX_STEPS 10000000ull

typedef struct ts_regex ts_regex;

/* A match: group 0 is the whole match, 1.. the capture groups in the order of their '('.
   A group that took no part in the match has start == end == (size_t)-1. */
typedef struct ts_regex_match {
  int group_count; /* capture groups of the pattern, not counting group 0 */
  struct {
    size_t start, end; /* byte offsets into the searched text, end exclusive */
  } groups[TS_REGEX_MAX_GROUPS + 1];
} ts_regex_match;

/* Compiles `pattern`; errors are TS_EUSAGE naming the character position (1-based) and what is
   wrong there, e.g. "regex 'a(b': missing ')' for the '(' at character 2". */
int ts_regex_compile(const char *pattern, ts_regex **out, ts_err *err);
void ts_regex_free(ts_regex *re);
int ts_regex_group_count(const ts_regex *re);
/* Replaces the step limit (TS_REGEX_DEFAULT_MAX_STEPS) for later searches. */
void ts_regex_set_max_steps(ts_regex *re, uint64_t max_steps);

/* Finds the leftmost match in `text`. Returns 1 and fills *match when found, 0 when not, or a
   negative TS_E… code (TS_EINVAL when the step limit is reached, with err naming it). */
int ts_regex_search(const ts_regex *re, const char *text, ts_regex_match *match, ts_err *err);

/* Compiles, searches and copies the text of the first capture group of the first match (the
   whole match when the pattern has no group) into buf, NUL-terminated and cut to fit. Returns 1
   when found, 0 when not, or a negative code. */
int ts_regex_first_group(const char *pattern, const char *text, char *buf, size_t len, ts_err *err);

#endif
