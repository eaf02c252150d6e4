/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_json_read.c - the strict JSON reader: values, escapes and surrogates decoded to UTF-8,
   exact whole numbers, and every malformed text refused with the byte where it went wrong; and
   what the writer writes read back. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "threadsoup/json_read.h"
#include "threadsoup/json_write.h"
#include "threadsoup/plat.h"

static ts_json_value *parse(const char *text) {
  ts_json_value *v = NULL;
  ts_err err;
  if (ts_json_parse(text, strlen(text), &v, &err) != TS_OK)
    fprintf(stderr, "  parse of %s: %s\n", text, err.text);
  return v;
}

/* The message of a refused text; "" when it was accepted. */
static const char *refusal(const char *text, size_t len) {
  static ts_err err;
  ts_json_value *v = NULL;
  err.text[0] = '\0';
  if (ts_json_parse(text, len, &v, &err) == TS_OK) {
    ts_json_free(v);
    return "";
  }
  CHECK(v == NULL);
  return err.text;
}

static void values_of_every_type(void) {
  ts_json_value *v =
      parse(" {\"a\": [1, -2.5e3, true, false, null, \"x\"], \"b\": {}, \"c\": []} ");
  REQUIRE(v != NULL);
  CHECK_INT(v->type, TS_JSON_OBJECT);
  CHECK_INT(v->count, 3);
  const ts_json_value *a = ts_json_get(v, "a");
  REQUIRE(a && a->type == TS_JSON_ARRAY && a->count == 6);
  CHECK(a->items[0]->is_integer && a->items[0]->integer == 1);
  CHECK(!a->items[1]->is_integer && a->items[1]->number == -2500.0);
  CHECK_INT(a->items[2]->type, TS_JSON_TRUE);
  CHECK_INT(a->items[3]->type, TS_JSON_FALSE);
  CHECK_INT(a->items[4]->type, TS_JSON_NULL);
  CHECK_STR_EQ(a->items[5]->text, "x");
  CHECK_INT(ts_json_get(v, "b")->type, TS_JSON_OBJECT);
  CHECK_INT(ts_json_get(v, "c")->count, 0);
  CHECK(ts_json_get(v, "d") == NULL);
  CHECK(ts_json_get(a, "a") == NULL); /* not an object */
  ts_json_free(v);
}

static void escapes_and_surrogates_become_utf8(void) {
  ts_json_value *v =
      parse("\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t \\u00e9 \\u20AC \\ud83d\\ude00 \\u0000\"");
  REQUIRE(v != NULL);
  const char want[] = "q\" b\\ s/ \b\f\n\r\t \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 ";
  CHECK(v->text_len == sizeof want); /* the \u0000 at the end counts */
  CHECK(memcmp(v->text, want, sizeof want - 1) == 0);
  CHECK(v->text[sizeof want - 1] == '\0');
  ts_json_free(v);
  v = parse("\"caf\xc3\xa9\""); /* UTF-8 as it is */
  REQUIRE(v != NULL);
  CHECK_STR_EQ(v->text, "caf\xc3\xa9");
  ts_json_free(v);
}

static void whole_numbers_are_exact(void) {
  ts_json_value *v = parse("[9223372036854775807, -9223372036854775808, 9223372036854775808, "
                           "0.1, 1e2, -0, 123456789012345678]");
  REQUIRE(v != NULL && v->count == 7);
  CHECK(v->items[0]->is_integer && v->items[0]->integer == INT64_MAX);
  CHECK(v->items[1]->is_integer && v->items[1]->integer == INT64_MIN);
  CHECK(!v->items[2]->is_integer); /* past int64: only the double */
  CHECK(v->items[2]->number == 9223372036854775808.0);
  CHECK(!v->items[3]->is_integer && v->items[3]->number == 0.1);
  CHECK(!v->items[4]->is_integer && v->items[4]->number == 100.0);
  CHECK(v->items[5]->is_integer && v->items[5]->integer == 0);
  CHECK(v->items[6]->integer == INT64_C(123456789012345678));
  ts_json_free(v);
  /* Doubles written with 17 digits come back to the same bits. */
  v = parse("[0.10000000000000001, 2.2250738585072014e-308, 1.7976931348623157e+308]");
  REQUIRE(v != NULL);
  CHECK(v->items[0]->number == 0.1);
  CHECK(v->items[1]->number == 2.2250738585072014e-308);
  CHECK(v->items[2]->number == 1.7976931348623157e+308);
  ts_json_free(v);
}

static void malformed_texts_are_refused_with_the_byte(void) {
  CHECK_STR_CONTAINS(refusal("{\"a\":1,}", 8), "member whose name is not a string at byte 8");
  CHECK_STR_CONTAINS(refusal("[1,2", 4), "an array item followed by neither ',' nor ']' at byte 5");
  CHECK_STR_CONTAINS(refusal("[1 2]", 5), "neither ',' nor ']' at byte 4");
  CHECK_STR_CONTAINS(refusal("{\"a\" 1}", 7), "not followed by ':' at byte 6");
  CHECK_STR_CONTAINS(refusal("{\"a\":1,\"a\":2}", 13), "a member name given twice at byte 8");
  CHECK_STR_CONTAINS(refusal("\"abc", 4), "without its closing quote");
  CHECK_STR_CONTAINS(refusal("\"a\tb\"", 5),
                     "a control character in a string (write it as an escape) at byte 3");
  CHECK_STR_CONTAINS(refusal("\"\\x\"", 4), "an unknown escape");
  CHECK_STR_CONTAINS(refusal("\"\\u12x\"", 7), "not 4 hex digits");
  CHECK_STR_CONTAINS(refusal("\"\\u12\"", 6), "a \\u escape cut short at byte 4");
  CHECK_STR_CONTAINS(refusal("\"\\ud800\"", 8), "a high surrogate without a low one");
  CHECK_STR_CONTAINS(refusal("\"\\ud800\\u0041\"", 14), "a high surrogate without a low one");
  CHECK_STR_CONTAINS(refusal("\"\\udc00\"", 8), "a low surrogate without a high one");
  CHECK_STR_CONTAINS(refusal("\"\xc3\x28\"", 4), "bytes that are not UTF-8 in a string at byte 2");
  CHECK_STR_CONTAINS(refusal("01", 2), "more text after the JSON value at byte 2");
  CHECK_STR_CONTAINS(refusal("+1", 2), "a value that is not JSON (accepted: an object, array, "
                                       "string, number, true, false or null) at byte 1");
  CHECK_STR_CONTAINS(refusal("1.", 2), "without digits after its '.'");
  CHECK_STR_CONTAINS(refusal("1e", 2), "without digits in its exponent");
  CHECK_STR_CONTAINS(refusal("-", 1), "a number without digits");
  CHECK_STR_CONTAINS(refusal("1e999", 5), "too large for a double at byte 1");
  CHECK_STR_CONTAINS(refusal("tru", 3), "not JSON");
  CHECK_STR_CONTAINS(refusal("nul", 3), "not JSON");
  CHECK_STR_CONTAINS(refusal("NaN", 3), "not JSON");
  CHECK_STR_CONTAINS(refusal("", 0), "the text ends where a value was expected at byte 1");
  CHECK_STR_CONTAINS(refusal("{} {}", 5), "more text after the JSON value at byte 4");
  /* Refused inside a nested array: the items read so far are freed (a sanitizer build saw them
     leak). */
  CHECK_STR_CONTAINS(refusal("[[1,", 4), "the text ends where a value was expected at byte 5");
  CHECK_STR_CONTAINS(refusal("[{\"a\":[1,]}]", 13), "a value that is not JSON");
  CHECK_STR_CONTAINS(refusal("[[[\"x", 6), "without its closing quote");
  /* A NUL byte inside the length is not the end of the text. */
  CHECK_STR_CONTAINS(refusal("{}\0", 3), "more text after the JSON value at byte 3");
}

static void limits_hold(void) {
  char deep[200];
  memset(deep, '[', 40);
  memset(deep + 40, ']', 40);
  CHECK_STR_CONTAINS(refusal(deep, 80), "nested deeper than 32");
  memset(deep, '[', TS_JSON_MAX_DEPTH);
  memset(deep + TS_JSON_MAX_DEPTH, ']', TS_JSON_MAX_DEPTH);
  CHECK_STR_EQ(refusal(deep, 2 * TS_JSON_MAX_DEPTH), "");
  CHECK_STR_CONTAINS(refusal("1", (size_t)TS_JSON_MAX_TEXT + 1), "at most");
  /* Many members and items grow their lists. */
  char many[16384];
  size_t n = 0;
  many[n++] = '{';
  for (int i = 0; i < 500; i++)
    n += (size_t)snprintf(many + n, sizeof many - n, "%s\"k%d\":[%d,%d]", i ? "," : "", i, i, -i);
  many[n++] = '}';
  ts_json_value *v = NULL;
  ts_err err;
  CHECK_INT(ts_json_parse(many, n, &v, &err), TS_OK);
  REQUIRE(v != NULL);
  CHECK_INT(v->count, 500);
  CHECK_INT(ts_json_get(v, "k499")->items[1]->integer, -499);
  ts_json_free(v);
}

/* The writer's escapes read back as the text written. */
static void written_strings_read_back(void) {
  const char *text = "tab\there \"quoted\" back\\slash \x01 caf\xc3\xa9 new\nline";
  FILE *f = tmpfile();
  REQUIRE(f != NULL);
  ts_json_string(f, text);
  long size = ftell(f);
  rewind(f);
  char buf[256];
  CHECK_INT(fread(buf, 1, (size_t)size, f), size);
  fclose(f);
  ts_json_value *v = NULL;
  ts_err err;
  CHECK_INT(ts_json_parse(buf, (size_t)size, &v, &err), TS_OK);
  REQUIRE(v != NULL);
  CHECK_STR_EQ(v->text, text);
  ts_json_free(v);
}

/* Numbers with the digits asked for, null for what is not finite, members and ranges: the exact
   text, and it reads back. */
static void written_numbers_and_members_read_back(void) {
  FILE *f = tmpfile();
  REQUIRE(f != NULL);
  fputc('{', f);
  ts_json_key(f, "pi");
  ts_json_number(f, 3.14159265358979, 4);
  ts_json_number_member(f, "third", 1.0 / 3, 10);
  ts_json_number_member(f, "none", NAN, 10);
  ts_json_number_member(f, "inf", INFINITY, 10);
  ts_json_string_member(f, "name \"q\"", "a\tb");
  fputs(",\"ci\":", f);
  ts_json_range(f, 1, -1.5, 2.25, 10);
  fputs(",\"no_ci\":", f);
  ts_json_range(f, 0, -1.5, 2.25, 10);
  fputc('}', f);
  long size = ftell(f);
  rewind(f);
  char buf[256] = "";
  REQUIRE(size > 0 && size < (long)sizeof buf);
  CHECK_INT(fread(buf, 1, (size_t)size, f), size);
  fclose(f);
  CHECK_STR_EQ(buf, "{\"pi\":3.142,\"third\":0.3333333333,\"none\":null,\"inf\":null,"
                    "\"name \\\"q\\\"\":\"a\\tb\",\"ci\":[-1.5,2.25],\"no_ci\":null}");
  ts_json_value *v = parse(buf);
  REQUIRE(v != NULL);
  CHECK(ts_json_get(v, "third")->number == 0.3333333333);
  CHECK_INT(ts_json_get(v, "none")->type, TS_JSON_NULL);
  CHECK_STR_EQ(ts_json_get(v, "name \"q\"")->text, "a\tb");
  CHECK_INT(ts_json_get(v, "ci")->count, 2);
  ts_json_free(v);
}

/* {"k0":0,"k1":0,...} of count members, then the member `last` when not NULL; freed by the
   caller. */
static char *object_of(int count, const char *last, size_t *len) {
  size_t cap = (size_t)count * 16 + 64;
  char *text = malloc(cap);
  CHECK(text != NULL);
  if (!text)
    exit(1);
  size_t n = 0;
  text[n++] = '{';
  for (int i = 0; i < count; i++)
    n += (size_t)snprintf(text + n, cap - n, "%s\"k%d\":0", i ? "," : "", i);
  if (last)
    n += (size_t)snprintf(text + n, cap - n, ",%s", last);
  text[n++] = '}';
  text[n] = '\0';
  *len = n;
  return text;
}

/* The check for a name given twice is not linear per member: 60,000 members, which took seconds
   when each name was compared with all before it, read at once (well within the test's timeout,
   even on a busy machine); a name given twice among them is still found, at its second place;
   more members than TS_JSON_MAX_MEMBERS are refused, naming the limit. */
static void wide_objects_are_read_at_once_or_refused(void) {
  size_t len;
  ts_json_value *v = NULL;
  ts_err err;
  char *text = object_of(60000, NULL, &len);
  uint64_t start = plat_clock_ns();
  for (int i = 0; i < 20; i++) {
    CHECK_INT(ts_json_parse(text, len, &v, &err), TS_OK);
    CHECK_INT(v->count, 60000);
    ts_json_free(v);
  }
  /* About a second on a busy machine; compared name by name, over a minute. */
  CHECK((plat_clock_ns() - start) / 1000000000.0 < 20);
  free(text);
  text = object_of(60000, "\"k123\":1", &len);
  CHECK_INT(ts_json_parse(text, len, &v, &err), TS_EINVAL);
  char want[80];
  snprintf(want, sizeof want, "a member name given twice at byte %zu",
           len - strlen("\"k123\":1}") + 1);
  CHECK_STR_CONTAINS(err.text, want);
  free(text);
  text = object_of(TS_JSON_MAX_MEMBERS + 1, NULL, &len);
  CHECK_INT(ts_json_parse(text, len, &v, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "an object of more than 65536 members (accepted: up to 65536)");
  free(text);
}

int main(void) {
  RUN_CASE(values_of_every_type);
  RUN_CASE(escapes_and_surrogates_become_utf8);
  RUN_CASE(whole_numbers_are_exact);
  RUN_CASE(malformed_texts_are_refused_with_the_byte);
  RUN_CASE(limits_hold);
  RUN_CASE(wide_objects_are_read_at_once_or_refused);
  RUN_CASE(written_strings_read_back);
  RUN_CASE(written_numbers_and_members_read_back);
  return check_summary();
}
