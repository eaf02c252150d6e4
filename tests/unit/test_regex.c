/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_regex.c - the score-extraction regex: what it matches and captures, its classes, escapes,
   quantifiers and anchors, its compile errors with positions, and its step limit. */
#include <string.h>

#include "check.h"
#include "threadsoup/regex.h"

/* The first group (or whole match) of pattern in text, or "<none>" / "<error>". */
static const char *first(const char *pattern, const char *text) {
  static char buf[256];
  ts_err err;
  int found = ts_regex_first_group(pattern, text, buf, sizeof buf, &err);
  if (found < 0) {
    fprintf(stderr, "  unexpected error: %s\n", err.text);
    return "<error>";
  }
  return found ? buf : "<none>";
}

#define CHECK_FIRST(pattern, text, expected)                                                       \
  do {                                                                                             \
    const char *got_ = first(pattern, text);                                                       \
    if (strcmp(got_, expected) != 0) {                                                             \
      fprintf(stderr, "  %s:%d: /%s/ on \"%s\" gave \"%s\", expected \"%s\"\n", __FILE__,          \
              __LINE__, pattern, text, got_, expected);                                            \
      check_failures_in_case++;                                                                    \
    }                                                                                              \
  } while (0)

static void literals_and_search_anywhere(void) {
  CHECK_FIRST("abc", "xxabcxx", "abc");
  CHECK_FIRST("abc", "ab ac bc", "<none>");
  CHECK_FIRST("", "anything", "");
  CHECK_FIRST("a.c", "a-c", "a-c");
  CHECK_FIRST("a.c", "a\nc", "<none>"); /* . stops at line ends */
  CHECK_FIRST("score", "line one\nline two\nscore here", "score");
}

static void captures(void) {
  CHECK_FIRST("score: (\\d+)", "score: 1234 points", "1234");
  CHECK_FIRST("x(a)(b)", "xab", "a");
  CHECK_FIRST("(?:ab)+(c)", "ababc", "c");
  ts_regex *re;
  ts_err err;
  CHECK_INT(ts_regex_compile("(\\w+)=(\\d+)(;)?", &re, &err), TS_OK);
  CHECK_INT(ts_regex_group_count(re), 3);
  ts_regex_match m;
  const char *text = "set speed=42 now";
  CHECK_INT(ts_regex_search(re, text, &m, &err), 1);
  CHECK_INT(m.groups[0].start, 4);
  CHECK_INT(m.groups[0].end, 12);
  CHECK_INT(m.groups[1].start, 4);
  CHECK_INT(m.groups[1].end, 9);
  CHECK_INT(m.groups[2].start, 10);
  CHECK_INT(m.groups[2].end, 12);
  CHECK(m.groups[3].start == (size_t)-1); /* the optional group took no part */
  ts_regex_free(re);
  /* A group inside a repetition keeps its last repetition. */
  CHECK_FIRST("(\\d)+", "x 123", "3");
  /* Captures undone by backtracking do not leak into the match. */
  CHECK_FIRST("(a+)b|(a+)c", "aac", "");
}

static void classes_and_escapes(void) {
  CHECK_FIRST("[0-9]+", "abc 0815 x", "0815");
  CHECK_FIRST("[^ ]+$", "one two three", "three");
  CHECK_FIRST("[a-cx]+", "zzbaxcz", "baxc");
  CHECK_FIRST("[]a]+", "x]a]", "]a]");
  CHECK_FIRST("[a-]+", "x-a-", "-a-");
  CHECK_FIRST("[\\d.]+", "v 3.14!", "3.14");
  CHECK_FIRST("\\d+\\.\\d+", "1. 2.5", "2.5");
  CHECK_FIRST("\\s+(\\S+)", "a \t b", "b");
  CHECK_FIRST("\\w+", "  foo_bar9 ", "foo_bar9");
  CHECK_FIRST("\\W+", "ab, cd", ", ");
  CHECK_FIRST("\\D+", "12ab34", "ab");
  CHECK_FIRST("\\(x\\)", "f(x)", "(x)");
  CHECK_FIRST("a\\tb", "a\tb", "a\tb");
  CHECK_FIRST("\\\\", "C:\\dir", "\\");
}

static void quantifiers(void) {
  CHECK_FIRST("ab*c", "ac abc abbc", "ac");
  CHECK_FIRST("ab+c", "ac abbc", "abbc");
  CHECK_FIRST("colou?r", "color", "color");
  CHECK_FIRST("colou?r", "colour", "colour");
  CHECK_FIRST("<.*>", "<a><b>", "<a><b>"); /* greedy */
  CHECK_FIRST("<.*?>", "<a><b>", "<a>");   /* lazy */
  CHECK_FIRST("\\d{3}", "12 3456", "345");
  CHECK_FIRST("\\d{2,}", "1 22 333", "22");
  CHECK_FIRST("x\\d{1,2}y", "x123y x12y", "x12y");
  CHECK_FIRST("(ab){2}", "ab abab", "ab");
  CHECK_FIRST("a(b|cd)+e", "acdbcde", "cd"); /* the last repetition */
}

static void alternation(void) {
  CHECK_FIRST("cat|dog", "hotdog", "dog");
  CHECK_FIRST("(cat|dog)s", "dogs", "dog");
  CHECK_FIRST("total: (\\d+|n/a)", "total: n/a", "n/a");
  CHECK_FIRST("a(|b)c", "ac", "");
}

static void anchors(void) {
  CHECK_FIRST("^Tot:\\s+\\d+\\s+\\d+\\s+(\\d+)", "Avr: 1 2 3\nTot:  98  3454  3383\n", "3383");
  CHECK_FIRST("^b", "ab\nb", "b");
  CHECK_FIRST("^a", "ba", "<none>");
  CHECK_FIRST("(\\d+)$", "12 x\r\n34 56\n", "56");
  CHECK_FIRST("x$", "x\r\ny", "x");
  CHECK_FIRST("^$", "a\n\nb", "");
  /* The census line the command test uses. */
  CHECK_FIRST("processes\\s+(\\d+)", "processes  76\nthreads    109\n", "76");
}

static void compile_error(const char *pattern, const char *expected) {
  ts_regex *re = NULL;
  ts_err err;
  memset(&err, 0, sizeof err);
  int rc = ts_regex_compile(pattern, &re, &err);
  CHECK_INT(rc, TS_EUSAGE);
  CHECK(re == NULL);
  CHECK_STR_CONTAINS(err.text, expected);
  ts_regex_free(re);
}

static void errors_name_position_and_problem(void) {
  compile_error("a(b", "regex 'a(b': missing ')' for the '(' at character 2");
  compile_error("ab)", "unmatched ')' at character 3");
  compile_error("*a", "nothing to repeat at character 1");
  compile_error("a|+", "nothing to repeat at character 3");
  compile_error("a**", "cannot follow another quantifier at character 3");
  compile_error("[abc", "missing ']' for the '[' at character 1");
  compile_error("[z-a]", "the range is reversed (write the smaller end first) at character 2");
  compile_error("\\q", "unknown escape at character 1");
  compile_error("ab\\", "lone '\\' at character 3");
  compile_error("a{2", "missing '}' after the count at character 2");
  compile_error("a{x}", "'{' must start a count");
  compile_error("a{3,1}", "reversed at character 2");
  compile_error("a{5000}", "too large");
  compile_error("^*", "anchor (^ or $) cannot be repeated at character 2");
  compile_error("(?=a)", "only (?: ) groups");
  compile_error("(((((((((((((((((a)))))))))))))))))", "too many groups");
  /* The search reports a bad pattern the same way. */
  char buf[8];
  ts_err err;
  CHECK_INT(ts_regex_first_group("(", "text", buf, sizeof buf, &err), TS_EUSAGE);
}

/* Nested repetition on a near-miss is exponential; it must stop with an error, quickly. */
static void step_limit_stops_pathological_patterns(void) {
  char text[64];
  memset(text, 'a', 40);
  text[40] = '\0';
  ts_regex *re;
  ts_err err;
  CHECK_INT(ts_regex_compile("(a*)*b", &re, &err), TS_OK);
  ts_regex_match m;
  int rc = ts_regex_search(re, text, &m, &err);
  CHECK_INT(rc, TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "gave up after 10000001 steps");
  /* A smaller limit gives up sooner; a plain pattern is well within it. */
  ts_regex_set_max_steps(re, 1000);
  CHECK_INT(ts_regex_search(re, text, &m, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "1001 steps");
  ts_regex_free(re);
  CHECK_INT(ts_regex_compile("a+b", &re, &err), TS_OK);
  ts_regex_set_max_steps(re, 1000);
  CHECK_INT(ts_regex_search(re, "xxaab", &m, &err), 1);
  ts_regex_free(re);
}

static void captured_text_is_cut_to_fit(void) {
  char small[4];
  ts_err err;
  CHECK_INT(ts_regex_first_group("(\\d+)", "x 123456", small, sizeof small, &err), 1);
  CHECK(strcmp(small, "123") == 0);
}

int main(void) {
  RUN_CASE(literals_and_search_anywhere);
  RUN_CASE(captures);
  RUN_CASE(classes_and_escapes);
  RUN_CASE(quantifiers);
  RUN_CASE(alternation);
  RUN_CASE(anchors);
  RUN_CASE(errors_name_position_and_problem);
  RUN_CASE(step_limit_stops_pathological_patterns);
  RUN_CASE(captured_text_is_cut_to_fit);
  return check_summary();
}
