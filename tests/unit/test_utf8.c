/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_utf8.c - the one UTF-8 check accepts every well-formed sequence and refuses the rest (lead
   bytes C0, C1 and F5-FF, overlong forms, surrogates, past U+10FFFF, cut sequences), and text
   output escapes control characters and stray bytes. */
#include <string.h>

#include "check.h"
#include "threadsoup/json_write.h"
#include "threadsoup/parse.h"
#include "threadsoup/utf8.h"

static const struct {
  const char *bytes;
  int valid;
  const char *what;
} table[] = {
    {"", 1, "empty"},
    {"cpuz-single", 1, "ASCII"},
    {"\x7f", 1, "DEL is a character (printing escapes it)"},
    {"\xc2\x80", 1, "U+0080, the first two-byte character"},
    {"\xdf\xbf", 1, "U+07FF"},
    {"\xe0\xa0\x80", 1, "U+0800, the first three-byte character"},
    {"\xed\x9f\xbf", 1, "U+D7FF, just below the surrogates"},
    {"\xee\x80\x80", 1, "U+E000, just above the surrogates"},
    {"\xef\xbf\xbf", 1, "U+FFFF"},
    {"\xf0\x90\x80\x80", 1, "U+10000, the first four-byte character"},
    {"\xf4\x8f\xbf\xbf", 1, "U+10FFFF, the last code point"},
    {"Pr\xc3\xbc"
     "fstand-\xce\xa9-\xe6\xb5\x8b",
     1, "mixed scripts"},
    {"\x80", 0, "a lone continuation byte"},
    {"\xbf", 0, "another lone continuation byte"},
    {"\xc0\x80", 0, "lead C0 (overlong NUL)"},
    {"\xc1\xbf", 0, "lead C1 (overlong)"},
    {"\xe0\x80\xaf", 0, "overlong three-byte '/'"},
    {"\xe0\x9f\xbf", 0, "overlong three-byte U+07FF"},
    {"\xf0\x80\x80\xaf", 0, "overlong four-byte '/'"},
    {"\xf0\x8f\xbf\xbf", 0, "overlong four-byte U+FFFF"},
    {"\xed\xa0\x80", 0, "surrogate U+D800"},
    {"\xed\xbf\xbf", 0, "surrogate U+DFFF"},
    {"\xf4\x90\x80\x80", 0, "U+110000, past the last code point"},
    {"\xf5\x80\x80\x80", 0, "lead F5"},
    {"\xf7\xbf\xbf\xbf", 0, "lead F7"},
    {"\xf8\x88\x80\x80\x80", 0, "lead F8 (five-byte form)"},
    {"\xfc\x84\x80\x80\x80\x80", 0, "lead FC (six-byte form)"},
    {"\xfe", 0, "lead FE"},
    {"\xff\x80\x80", 0, "lead FF with continuation bytes"},
    {"\xc3", 0, "two-byte sequence cut"},
    {"\xe2\x82", 0, "three-byte sequence cut"},
    {"\xf0\x9f\x98", 0, "four-byte sequence cut"},
    {"\xe2\x28\xa1", 0, "a continuation byte missing"},
    {"caf\xe9", 0, "Latin-1"},
};

static void table_of_sequences(void) {
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    int got = ts_utf8_valid_str(table[i].bytes);
    if (got != table[i].valid)
      fprintf(stderr, "  %s: expected %s\n", table[i].what, table[i].valid ? "valid" : "invalid");
    CHECK_INT(got, table[i].valid);
    /* The command line's check is the same check. */
    CHECK_INT(ts_utf8_valid_str(table[i].bytes), table[i].valid);
    /* The same bytes cut short by a length are judged on those bytes only. */
    size_t n = strlen(table[i].bytes);
    if (n > 0 && table[i].valid && (unsigned char)table[i].bytes[n - 1] >= 0x80)
      CHECK_INT(ts_utf8_valid(table[i].bytes, n - 1), 0);
  }
  /* Every lead byte F5-FF is refused whatever follows it. */
  for (int lead = 0xF5; lead <= 0xFF; lead++) {
    unsigned char s[4] = {(unsigned char)lead, 0x80, 0x80, 0x80};
    CHECK_INT((int)ts_utf8_char(s, 4), 0);
  }
  /* A NUL inside a length-given text is the character U+0000. */
  CHECK_INT(ts_utf8_valid("a\0b", 3), 1);
}

static void printable_escapes_controls(void) {
  char out[64];
  CHECK(strcmp(ts_utf8_printable("cpuz-single", out, sizeof out), "cpuz-single") == 0);
  CHECK(strcmp(ts_utf8_printable("a\nb\rc\x1b[2J", out, sizeof out), "a\\x0Ab\\x0Dc\\x1B[2J") == 0);
  CHECK(strcmp(ts_utf8_printable("x\xc2\x9b"
                                 "31m",
                                 out, sizeof out),
               "x\\xC2\\x9B31m") == 0);
  CHECK(strcmp(ts_utf8_printable("\xff\x80\x80", out, sizeof out), "\\xFF\\x80\\x80") == 0);
  CHECK(strcmp(ts_utf8_printable("Pr\xc3\xbc"
                                 "f",
                                 out, sizeof out),
               "Pr\xc3\xbc"
               "f") == 0);
  CHECK(strcmp(ts_utf8_printable("a\x7f", out, sizeof out), "a\\x7F") == 0);
  /* A cut keeps whole characters and whole escapes. */
  char small[6];
  CHECK(strcmp(ts_utf8_printable("ab\n", small, sizeof small), "ab") == 0);
  CHECK(strcmp(ts_utf8_printable("abcd\xc3\xbc", small, sizeof small), "abcd") == 0);
  CHECK(ts_utf8_valid_str(small));
}

/* What was written to the temporary file f, which it closes. */
static void read_back(FILE *f, char *got, size_t size) {
  rewind(f);
  size_t n = fread(got, 1, size - 1, f);
  got[n] = '\0';
  fclose(f);
}

/* Messages for stderr keep their line breaks and escape the rest. */
static void messages_keep_line_breaks(void) {
  FILE *f = tmpfile();
  REQUIRE(f != NULL);
  ts_utf8_fputs_printable("line 1\nname 'a\x1b]0;x\x07\xff'\tend", f);
  char got[128];
  read_back(f, got, sizeof got);
  CHECK(strcmp(got, "line 1\nname 'a\\x1B]0;x\\x07\\xFF'\\x09end") == 0);
}

/* Characters that print nothing yet reorder or hide text are named, in every output: the bidi
   controls, the marks, zero-width characters, a tag past U+FFFF, the line separators. */
static void hidden_characters_are_named(void) {
  char out[128];
  CHECK(strcmp(ts_utf8_printable("txt\xe2\x80\xae"
                                 "exe",
                                 out, sizeof out),
               "txt<U+202E>exe") == 0);
  static const struct {
    const char *bytes, *shown;
  } hidden[] = {
      {"\xe2\x80\xaa", "<U+202A>"}, {"\xe2\x81\xa6", "<U+2066>"},      {"\xe2\x81\xa9", "<U+2069>"},
      {"\xe2\x80\x8e", "<U+200E>"}, {"\xe2\x80\x8f", "<U+200F>"},      {"\xd8\x9c", "<U+061C>"},
      {"\xe2\x80\x8b", "<U+200B>"}, {"\xef\xbb\xbf", "<U+FEFF>"},      {"\xe2\x80\xa8", "<U+2028>"},
      {"\xe2\x80\xa9", "<U+2029>"}, {"\xf3\xa0\x80\x81", "<U+E0001>"}, {"\xc2\xad", "<U+00AD>"},
  };
  for (size_t i = 0; i < sizeof hidden / sizeof hidden[0]; i++)
    CHECK(strcmp(ts_utf8_printable(hidden[i].bytes, out, sizeof out), hidden[i].shown) == 0);
  /* Letters of right-to-left scripts, and other characters next to the ranges, stay. */
  CHECK(strcmp(ts_utf8_printable("\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d \xe2\x80\x90 \xe2\x81\xb0", out,
                                 sizeof out),
               "\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d \xe2\x80\x90 \xe2\x81\xb0") == 0);
  CHECK(!ts_utf8_hidden(0x202F) && !ts_utf8_hidden(0x2065 - 6) && ts_utf8_hidden(0x2065));
  /* A cut never splits a name. */
  char small[8];
  CHECK(strcmp(ts_utf8_printable("ab\xe2\x80\xae", small, sizeof small), "ab") == 0);
  /* Windows and balloons keep their line breaks. */
  CHECK(strcmp(ts_utf8_printable_lines("Run 3\nplan\xe2\x80\xae\x1b", out, sizeof out),
               "Run 3\nplan<U+202E>\\x1B") == 0);
}

/* fprintf through the filter: the format's own line breaks stay, an argument's escapes do not. */
static void formatted_lines_are_filtered(void) {
  FILE *f = tmpfile();
  REQUIRE(f != NULL);
  ts_utf8_fprintf_printable(f, "%5d  %s\n", 42, "\x1b]52;c;aGk=\x07\xe2\x80\xae");
  char got[128];
  read_back(f, got, sizeof got);
  CHECK(strcmp(got, "   42  \\x1B]52;c;aGk=\\x07<U+202E>\n") == 0);
}

/* JSON keeps the value but escapes what would reorder or hide text where it is shown. */
static void json_escapes_hidden_characters(void) {
  FILE *f = tmpfile();
  REQUIRE(f != NULL);
  ts_json_string(f, "a\xe2\x80\xae\xe2\x80\xa8\xe2\x81\xa6\xf3\xa0\x80\x81\xc3\xbc\x1b");
  char got[128];
  read_back(f, got, sizeof got);
  CHECK(strcmp(got, "\"a\\u202e\\u2028\\u2066\\udb40\\udc01\xc3\xbc\\u001b\"") == 0);
}

int main(void) {
  RUN_CASE(table_of_sequences);
  RUN_CASE(printable_escapes_controls);
  RUN_CASE(messages_keep_line_breaks);
  RUN_CASE(hidden_characters_are_named);
  RUN_CASE(formatted_lines_are_filtered);
  RUN_CASE(json_escapes_hidden_characters);
  return check_summary();
}
