/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_parse.c - the parsers accept what the docs promise and name what they refuse; the text
   builder (buf.h) that writes their lists never overruns and cuts only whole characters. */
#include "check.h"
#include "threadsoup/buf.h"
#include "threadsoup/civil.h"
#include "threadsoup/parse.h"
#include "threadsoup/utf8.h"
#include "threadsoup/units.h"

static void durations_with_units(void) {
  uint64_t ns = 0;
  ts_err err;
  CHECK_INT(ts_parse_duration("500ms", 0, UINT64_MAX / 2, "d", &ns, &err), TS_OK);
  CHECK_INT(ns, 500 * TS_NS_PER_MS);
  CHECK_INT(ts_parse_duration("2s", 0, UINT64_MAX / 2, "d", &ns, &err), TS_OK);
  CHECK_INT(ns, 2 * TS_NS_PER_S);
  CHECK_INT(ts_parse_duration("5m", 0, UINT64_MAX / 2, "d", &ns, &err), TS_OK);
  CHECK_INT(ns, 5 * TS_NS_PER_MIN);
  CHECK_INT(ts_parse_duration("1.5s", 0, UINT64_MAX / 2, "d", &ns, &err), TS_OK);
  CHECK_INT(ns, 1500 * TS_NS_PER_MS);
  CHECK_INT(ts_parse_duration("1h", 0, UINT64_MAX / 2, "d", &ns, &err), TS_OK);
  CHECK_INT(ns, TS_NS_PER_HOUR);
}

static void durations_refused(void) {
  uint64_t ns = 7;
  ts_err err;
  CHECK_INT(ts_parse_duration("500", 0, 10 * TS_NS_PER_S, "--settle", &ns, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "--settle: '500' is not a duration");
  CHECK_STR_CONTAINS(err.text, "500ms, 2s, 5m");
  CHECK_INT(ts_parse_duration("-2s", 0, 10 * TS_NS_PER_S, "--settle", &ns, &err), TS_EUSAGE);
  CHECK_INT(ts_parse_duration("2 s", 0, 10 * TS_NS_PER_S, "--settle", &ns, &err), TS_EUSAGE);
  CHECK_INT(ts_parse_duration("", 0, 10 * TS_NS_PER_S, "--settle", &ns, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "needs a duration");
  CHECK_INT(ts_parse_duration("11s", 0, 10 * TS_NS_PER_S, "--settle", &ns, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "out of range (accepted: 0s to 10s)");
  CHECK_INT(ns, 7); /* untouched on failure */
}

static void whole_numbers(void) {
  long v = 0;
  ts_err err;
  CHECK_INT(ts_parse_long("42", 1, 100, "--reps", &v, &err), TS_OK);
  CHECK_INT(v, 42);
  CHECK_INT(ts_parse_long("4x", 1, 100, "--reps", &v, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "'4x' is not a whole number (accepted: 1 to 100)");
  CHECK_INT(ts_parse_long("101", 1, 100, "--reps", &v, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "101 is out of range");
  CHECK_INT(ts_parse_long("99999999999999999999", 1, 100, "--reps", &v, &err), TS_EUSAGE);
  CHECK_INT(v, 42);
}

static void durations_format_round_trip(void) {
  char buf[32];
  uint64_t values[] = {500 * TS_NS_PER_MS, 2 * TS_NS_PER_S,     TS_NS_PER_MIN,
                       TS_NS_PER_HOUR,     1500 * TS_NS_PER_MS, 0};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
    uint64_t back = 1;
    ts_err err;
    ts_format_duration(values[i], buf, sizeof buf);
    CHECK_INT(ts_parse_duration(buf, 0, UINT64_MAX / 2, "d", &back, &err), TS_OK);
    CHECK_INT(back, values[i]);
  }
  ts_format_duration(500 * TS_NS_PER_MS, buf, sizeof buf);
  CHECK_STR_CONTAINS(buf, "500ms");
}

static void utf8_names(void) {
  CHECK(ts_utf8_valid_str("cpuz-single"));
  CHECK(ts_utf8_valid_str("Prüfstand-Ω-测试"));
  CHECK(!ts_utf8_valid_str("caf\xe9"));          /* Latin-1, not UTF-8 */
  CHECK(!ts_utf8_valid_str("\xc0\xaf"));         /* overlong '/' */
  CHECK(!ts_utf8_valid_str("\xed\xa0\x80"));     /* a surrogate */
  CHECK(!ts_utf8_valid_str("\xf4\x90\x80\x80")); /* past U+10FFFF */
  CHECK(!ts_utf8_valid_str("\xff\x80\x80"));     /* lead byte FF */
}

/* One rule for names stored with a score, whoever sends them. */
static void record_names(void) {
  ts_err err;
  CHECK_INT(ts_parse_name("cpuz-single", "--bench", &err), TS_OK);
  CHECK_INT(ts_parse_name("Pr\xc3\xbc"
                          "fstand",
                          "--bench", &err),
            TS_OK);
  char longest[64];
  memset(longest, 'x', 63);
  longest[63] = '\0';
  CHECK_INT(ts_parse_name(longest, "--bench", &err), TS_OK);
  static const struct {
    const char *name, *says;
  } bad[] = {
      {"", "--bench: 0 bytes long (accepted: 1 to 63 bytes of UTF-8 text without spaces, commas"},
      {"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "64 bytes long"},
      {"\xff\x80\x80", "--bench: not UTF-8 text"},
      {"a\nb", "--bench 'a\\x0Ab': a control character at byte 2"},
      {"a\rb", "a control character at byte 2"},
      {"a\x1b[2J", "'a\\x1B[2J': a control character"},
      {"a\x7f", "a control character"},
      {"a\xc2\x9b"
       "1m",
       "a control character at byte 2"},
      {"a b", "a space at byte 2"},
      {"a,b", "a comma at byte 2"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    err.text[0] = '\0';
    CHECK_INT(ts_parse_name(bad[i].name, "--bench", &err), TS_EINVAL);
    CHECK_STR_CONTAINS(err.text, bad[i].says);
  }
}

static void lists_join_and_cut_safely(void) {
  char text[16];
  ts_buf b = ts_buf_on(text, sizeof text);
  CHECK(text[0] == '\0');
  const char *names[] = {"sleep", "yield", "wait"};
  for (int i = 0; i < 3; i++)
    ts_buf_item(&b, ", ", names[i]);
  CHECK(strcmp(text, "sleep, yield, w") == 0 && b.cut && b.len == 15);
  ts_buf_add(&b, "x"); /* after a cut nothing more is added */
  CHECK(strcmp(text, "sleep, yield, w") == 0);

  b = ts_buf_on(text, sizeof text);
  ts_buf_itemf(&b, ", ", "%d %s", 15000, "S");
  ts_buf_itemf(&b, ", ", "%d %s", 1, "R");
  CHECK(strcmp(text, "15000 S, 1 R") == 0 && !b.cut && b.len == 12);

  /* A cut after a whole character keeps it; a cut inside one (the 2-byte ü, the second 3-byte
     character) drops all of that character. */
  char small[5];
  b = ts_buf_on(small, sizeof small);
  ts_buf_add(&b, "Prüf");
  CHECK(strcmp(small, "Prü") == 0 && b.cut);
  b = ts_buf_on(small, 4);
  ts_buf_add(&b, "Prü");
  CHECK(strcmp(small, "Pr") == 0 && b.cut && b.len == 2);
  b = ts_buf_on(small, sizeof small);
  ts_buf_add(&b, "测试");
  CHECK(strcmp(small, "测") == 0 && b.cut);

  b = ts_buf_on(NULL, 0); /* no room at all: nothing written, and said so */
  ts_buf_add(&b, "a");
  CHECK(b.cut && b.len == 0);
}

/* Calendar dates and Unix days: known days, and a round trip over ±2,700 years. */
static void civil_dates_round_trip(void) {
  CHECK_INT(civil_to_days(1970, 1, 1), 0);
  CHECK_INT(civil_to_days(2000, 3, 1), 11017);
  CHECK_INT(civil_to_days(1969, 12, 31), -1);
  CHECK_INT(civil_to_days(2026, 11, 30), 20787);
  int bad = 0;
  for (int64_t z = -1000000; z <= 1000000; z += 997) {
    int64_t y;
    int m, d;
    civil_from_days(z, &y, &m, &d);
    bad += m < 1 || m > 12 || d < 1 || d > 31 || civil_to_days(y, m, d) != z;
  }
  CHECK_INT(bad, 0);
}

int main(void) {
  RUN_CASE(civil_dates_round_trip);
  RUN_CASE(durations_with_units);
  RUN_CASE(durations_refused);
  RUN_CASE(whole_numbers);
  RUN_CASE(durations_format_round_trip);
  RUN_CASE(utf8_names);
  RUN_CASE(record_names);
  RUN_CASE(lists_join_and_cut_safely);
  return check_summary();
}
