/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* json_read.c - a small strict JSON reader (RFC 8259) for the files ThreadSoup reads back: it
   refuses what it does not fully understand rather than guess, with the byte where it stopped. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "threadsoup/json_read.h"
#include "threadsoup/utf8.h"

typedef struct reader {
  const char *text;
  size_t len;
  size_t pos;
  ts_err *err;
} reader;

static int fail(reader *r, const char *what) {
  return ts_err_set(r->err, TS_EINVAL, "%s at byte %zu", what, r->pos + 1);
}

static void skip_space(reader *r) {
  while (r->pos < r->len && (r->text[r->pos] == ' ' || r->text[r->pos] == '\t' ||
                             r->text[r->pos] == '\n' || r->text[r->pos] == '\r'))
    r->pos++;
}

static ts_json_value *new_value(ts_json_type type) {
  ts_json_value *v = calloc(1, sizeof *v);
  if (v)
    v->type = type;
  return v;
}

void ts_json_free(ts_json_value *v) {
  if (!v)
    return;
  for (size_t i = 0; v->items && i < v->count; i++)
    ts_json_free(v->items[i]);
  for (size_t i = 0; v->members && i < v->count; i++) {
    free(v->members[i].key);
    ts_json_free(v->members[i].value);
  }
  free(v->items);
  free(v->members);
  free(v->text);
  free(v);
}

static int hex4(reader *r, unsigned *out) {
  if (r->len - r->pos < 4)
    return fail(r, "a \\u escape cut short");
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char c = r->text[r->pos + (size_t)i];
    v <<= 4;
    if (c >= '0' && c <= '9')
      v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f')
      v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      v |= (unsigned)(c - 'A' + 10);
    else
      return fail(r, "a \\u escape that is not 4 hex digits");
  }
  r->pos += 4;
  *out = v;
  return TS_OK;
}

static size_t put_utf8(char *out, unsigned cp) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xc0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3f));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xe0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[2] = (char)(0x80 | (cp & 0x3f));
    return 3;
  }
  out[0] = (char)(0xf0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
  out[3] = (char)(0x80 | (cp & 0x3f));
  return 4;
}

/* A string at r->pos (its opening quote); the decoded text is never longer than the escaped one,
   so one buffer of that size holds it. */
static int read_string(reader *r, char **out, size_t *out_len) {
  r->pos++; /* the opening quote */
  size_t end = r->pos;
  while (end < r->len && r->text[end] != '"')
    end += r->text[end] == '\\' ? 2 : 1;
  if (end >= r->len)
    return fail(r, "a string without its closing quote");
  char *buf = malloc(end - r->pos + 1);
  if (!buf)
    return ts_err_set(r->err, TS_ENOMEM, "no memory for a string of %zu bytes", end - r->pos);
  size_t n = 0;
  int rc = TS_OK;
  while (rc == TS_OK && r->text[r->pos] != '"') {
    unsigned char c = (unsigned char)r->text[r->pos];
    if (c < 0x20) {
      rc = fail(r, "a control character in a string (write it as an escape)");
    } else if (c != '\\') {
      size_t len = ts_utf8_char((const unsigned char *)r->text + r->pos, r->len - r->pos);
      if (len == 0) {
        rc = fail(r, "bytes that are not UTF-8 in a string");
        break;
      }
      memcpy(buf + n, r->text + r->pos, len);
      n += len;
      r->pos += len;
    } else {
      char e = r->text[++r->pos];
      r->pos++;
      const char *simple = strchr("\"\\/bfnrt", e);
      if (e && simple) {
        static const char decoded[] = "\"\\/\b\f\n\r\t";
        buf[n++] = decoded[simple - "\"\\/bfnrt"];
        continue;
      }
      if (e != 'u') {
        r->pos--;
        rc = fail(r, "an unknown escape in a string (accepted: \\\" \\\\ \\/ \\b \\f \\n \\r \\t "
                     "\\uXXXX)");
        break;
      }
      unsigned cp;
      rc = hex4(r, &cp);
      if (rc != TS_OK)
        break;
      if (cp >= 0xdc00 && cp <= 0xdfff) {
        rc = fail(r, "a low surrogate without a high one before it");
        break;
      }
      if (cp >= 0xd800 && cp <= 0xdbff) {
        unsigned low;
        if (r->len - r->pos < 2 || r->text[r->pos] != '\\' || r->text[r->pos + 1] != 'u') {
          rc = fail(r, "a high surrogate without a low one after it");
          break;
        }
        r->pos += 2;
        rc = hex4(r, &low);
        if (rc == TS_OK && (low < 0xdc00 || low > 0xdfff))
          rc = fail(r, "a high surrogate without a low one after it");
        if (rc != TS_OK)
          break;
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
      }
      n += put_utf8(buf + n, cp);
    }
  }
  if (rc != TS_OK) {
    free(buf);
    return rc;
  }
  r->pos++; /* the closing quote */
  buf[n] = '\0';
  *out = buf;
  *out_len = n;
  return TS_OK;
}

static int digits(reader *r) {
  size_t start = r->pos;
  while (r->pos < r->len && r->text[r->pos] >= '0' && r->text[r->pos] <= '9')
    r->pos++;
  return r->pos > start;
}

/* A number as RFC 8259 writes it (no leading zeros, no '+', no bare '.'), then strtod on a copy:
   the text need not end where the number does. */
static int read_number(reader *r, ts_json_value *v) {
  size_t start = r->pos;
  int whole = 1;
  if (r->text[r->pos] == '-')
    r->pos++;
  if (r->pos < r->len && r->text[r->pos] == '0')
    r->pos++;
  else if (!digits(r))
    return fail(r, "a number without digits");
  if (r->pos < r->len && r->text[r->pos] == '.') {
    r->pos++;
    whole = 0;
    if (!digits(r))
      return fail(r, "a number without digits after its '.'");
  }
  if (r->pos < r->len && (r->text[r->pos] == 'e' || r->text[r->pos] == 'E')) {
    r->pos++;
    whole = 0;
    if (r->pos < r->len && (r->text[r->pos] == '+' || r->text[r->pos] == '-'))
      r->pos++;
    if (!digits(r))
      return fail(r, "a number without digits in its exponent");
  }
  char copy[64];
  size_t n = r->pos - start;
  if (n >= sizeof copy) {
    r->pos = start;
    return fail(r, "a number of more than 63 characters");
  }
  memcpy(copy, r->text + start, n);
  copy[n] = '\0';
  v->number = strtod(copy, NULL);
  if (isinf(v->number)) {
    r->pos = start;
    return fail(r, "a number too large for a double");
  }
  if (whole) {
    errno = 0;
    long long i = strtoll(copy, NULL, 10);
    if (errno == 0) {
      v->is_integer = 1;
      v->integer = i;
    }
  }
  return TS_OK;
}

static int read_value(reader *r, ts_json_value **out, int depth);

/* After an item of an array or object: *more = 1 after ',', 0 after `close`; else an error. */
static int item_end(reader *r, char close, const char *what, int *more) {
  skip_space(r);
  char c = r->pos < r->len ? r->text[r->pos] : '\0';
  if (c != ',' && c != close)
    return fail(r, what);
  r->pos++;
  *more = c == ',';
  return TS_OK;
}

static int read_array(reader *r, ts_json_value *v, int depth) {
  r->pos++;
  skip_space(r);
  if (r->pos < r->len && r->text[r->pos] == ']') {
    r->pos++;
    return TS_OK;
  }
  size_t cap = 0;
  for (;;) {
    if (v->count == cap) {
      size_t more = cap ? cap * 2 : 8;
      ts_json_value **items = realloc(v->items, more * sizeof *items);
      if (!items)
        return ts_err_set(r->err, TS_ENOMEM, "no memory for an array of %zu items", more);
      v->items = items;
      cap = more;
    }
    /* Counted before it is checked: an item read in part is freed with v. */
    int rc = read_value(r, &v->items[v->count++], depth + 1);
    if (rc != TS_OK)
      return rc;
    int more = 0;
    rc = item_end(r, ']', "an array item followed by neither ',' nor ']'", &more);
    if (rc != TS_OK || !more)
      return rc;
  }
}

/* A member's name and where it starts in the text, sorted to find a name given twice. */
typedef struct member_name {
  const char *key;
  size_t pos;
} member_name;

static int compare_names(const void *a, const void *b) {
  const member_name *x = a, *y = b;
  int c = strcmp(x->key, y->key);
  return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/* Refuses a name given twice in the object, at its second place: sorted, O(n log n), where
   comparing each name with all before it took seconds for an object of 80,000 members. */
static int check_unique_names(reader *r, member_name *names, size_t count) {
  qsort(names, count, sizeof *names, compare_names);
  size_t twice = SIZE_MAX;
  for (size_t i = 1; i < count; i++)
    if (strcmp(names[i - 1].key, names[i].key) == 0 && names[i].pos < twice)
      twice = names[i].pos;
  if (twice == SIZE_MAX)
    return TS_OK;
  r->pos = twice;
  return fail(r, "a member name given twice");
}

/* The members of the object, each name's place in names (grown with v->members). */
static int read_members(reader *r, ts_json_value *v, int depth, member_name **names) {
  size_t cap = 0;
  for (;;) {
    skip_space(r);
    if (r->pos >= r->len || r->text[r->pos] != '"')
      return fail(r, "an object member whose name is not a string");
    if (v->count == TS_JSON_MAX_MEMBERS)
      return fail(r, "an object of more than " TS_JSON_STR(
                         TS_JSON_MAX_MEMBERS) " members (accepted: "
                                              "up to " TS_JSON_STR(TS_JSON_MAX_MEMBERS) ")");
    if (v->count == cap) {
      size_t more = cap ? cap * 2 : 8;
      ts_json_member *members = realloc(v->members, more * sizeof *members);
      if (members)
        v->members = members;
      member_name *grown = realloc(*names, more * sizeof *grown);
      if (grown)
        *names = grown;
      if (!members || !grown)
        return ts_err_set(r->err, TS_ENOMEM, "no memory for an object of %zu members", more);
      cap = more;
    }
    ts_json_member *m = &v->members[v->count];
    m->value = NULL;
    size_t key_pos = r->pos, key_len;
    int rc = read_string(r, &m->key, &key_len);
    if (rc != TS_OK)
      return rc;
    (*names)[v->count] = (member_name){m->key, key_pos};
    v->count++; /* from here the member is freed with v */
    if (strlen(m->key) != key_len) {
      r->pos = key_pos;
      return fail(r, "a member name holding \\u0000");
    }
    skip_space(r);
    if (r->pos >= r->len || r->text[r->pos] != ':')
      return fail(r, "an object member name not followed by ':'");
    r->pos++;
    rc = read_value(r, &m->value, depth + 1);
    int more = 0;
    if (rc == TS_OK)
      rc = item_end(r, '}', "an object member followed by neither ',' nor '}'", &more);
    if (rc != TS_OK || !more)
      return rc;
  }
}

static int read_object(reader *r, ts_json_value *v, int depth) {
  r->pos++;
  skip_space(r);
  if (r->pos < r->len && r->text[r->pos] == '}') {
    r->pos++;
    return TS_OK;
  }
  member_name *names = NULL;
  int rc = read_members(r, v, depth, &names);
  if (rc == TS_OK)
    rc = check_unique_names(r, names, v->count);
  free(names);
  return rc;
}

static int not_a_value(reader *r) {
  return fail(r, "a value that is not JSON (accepted: an object, array, string, number, true, "
                 "false or null)");
}

static int read_word(reader *r, const char *word) {
  size_t n = strlen(word);
  if (r->len - r->pos < n || memcmp(r->text + r->pos, word, n) != 0)
    return not_a_value(r);
  r->pos += n;
  return TS_OK;
}

static int read_value(reader *r, ts_json_value **out, int depth) {
  *out = NULL;
  if (depth > TS_JSON_MAX_DEPTH)
    return ts_err_set(r->err, TS_EINVAL, "arrays and objects nested deeper than %d at byte %zu",
                      TS_JSON_MAX_DEPTH, r->pos + 1);
  skip_space(r);
  if (r->pos >= r->len)
    return fail(r, "the text ends where a value was expected");
  char c = r->text[r->pos];
  ts_json_type type = c == '{'                               ? TS_JSON_OBJECT
                      : c == '['                             ? TS_JSON_ARRAY
                      : c == '"'                             ? TS_JSON_STRING
                      : c == 't'                             ? TS_JSON_TRUE
                      : c == 'f'                             ? TS_JSON_FALSE
                      : c == 'n'                             ? TS_JSON_NULL
                      : (c == '-' || (c >= '0' && c <= '9')) ? TS_JSON_NUMBER
                                                             : (ts_json_type)-1;
  if ((int)type == -1)
    return not_a_value(r);
  ts_json_value *v = new_value(type);
  if (!v)
    return ts_err_set(r->err, TS_ENOMEM, "no memory for a JSON value");
  *out = v;
  switch (type) {
  case TS_JSON_OBJECT:
    return read_object(r, v, depth);
  case TS_JSON_ARRAY:
    return read_array(r, v, depth);
  case TS_JSON_STRING:
    return read_string(r, &v->text, &v->text_len);
  case TS_JSON_TRUE:
    return read_word(r, "true");
  case TS_JSON_FALSE:
    return read_word(r, "false");
  case TS_JSON_NULL:
    return read_word(r, "null");
  default:
    return read_number(r, v);
  }
}

int ts_json_parse(const char *text, size_t len, ts_json_value **out, ts_err *err) {
  *out = NULL;
  if (len > TS_JSON_MAX_TEXT)
    return ts_err_set(err, TS_EINVAL, "a JSON text of %zu bytes (at most %u accepted)", len,
                      TS_JSON_MAX_TEXT);
  reader r = {text, len, 0, err};
  ts_json_value *v = NULL;
  int rc = read_value(&r, &v, 1);
  if (rc == TS_OK) {
    skip_space(&r);
    if (r.pos < r.len)
      rc = fail(&r, "more text after the JSON value");
  }
  if (rc != TS_OK) {
    ts_json_free(v);
    return rc;
  }
  *out = v;
  return TS_OK;
}

const ts_json_value *ts_json_get(const ts_json_value *v, const char *key) {
  if (!v || v->type != TS_JSON_OBJECT)
    return NULL;
  for (size_t i = 0; i < v->count; i++)
    if (v->members[i].key && strcmp(v->members[i].key, key) == 0)
      return v->members[i].value;
  return NULL;
}
