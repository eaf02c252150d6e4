/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* regex.c - a small backtracking regular-expression matcher (syntax in regex.h), with a step
   limit so that a pathological pattern fails with an error instead of hanging a benchmark run. */
#include "threadsoup/regex.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define NO_POSITION ((size_t)-1)
#define MAX_REPEAT 1000 /* the largest count in {n,m}: enough for text, far from overflow */
/* Nested choice points a match may hold open. Each costs a few hundred bytes of stack, and the
   caller may be a thread with a small stack: this keeps the worst case under about 400 KiB. */
#define MAX_DEPTH 1500
#define CAPTURE_NONE (-1) /* a (?: ) group */

typedef enum node_kind { N_CHAR, N_ANY, N_CLASS, N_LINE_START, N_LINE_END, N_GROUP } node_kind;

typedef struct node node;
typedef struct alternative alternative;

struct alternative {
  node *first; /* NULL: the empty sequence */
  alternative *next;
};

struct node {
  node_kind kind;
  unsigned char ch;
  unsigned char set[32]; /* N_CLASS: bit c is set when byte c belongs to the class */
  int min, max;          /* repetition; max < 0 means unbounded */
  int lazy;
  int capture; /* N_GROUP: group number (0 is the whole pattern) or CAPTURE_NONE */
  alternative *alternatives;
  node *next;
};

struct ts_regex {
  node *root; /* a group with capture 0, so group 0 is recorded like any other */
  int group_count;
  uint64_t max_steps;
  node *nodes;
  alternative *alternative_pool;
};

/* ---- compiling ------------------------------------------------------------------------------ */

typedef struct parser {
  const char *pattern;
  const char *at;
  node *nodes;
  size_t node_count, node_capacity;
  alternative *alternatives;
  size_t alternative_count, alternative_capacity;
  int group_count;
  ts_err *err;
} parser;

static int position(const parser *p, const char *where) { return (int)(where - p->pattern) + 1; }

static int syntax_error(parser *p, const char *where, const char *problem) {
  return ts_err_set(p->err, TS_EUSAGE, "regex '%.80s': %s at character %d", p->pattern, problem,
                    position(p, where));
}

/* Both pools are sized from the pattern's length before parsing, so these never fail; the asserts
   keep a new construct that takes more than that from writing past them. */
static node *new_node(parser *p, node_kind kind) {
  assert(p->node_count < p->node_capacity);
  node *n = &p->nodes[p->node_count++];
  memset(n, 0, sizeof *n);
  n->kind = kind;
  n->min = n->max = 1;
  return n;
}

static alternative *new_alternative(parser *p) {
  assert(p->alternative_count < p->alternative_capacity);
  alternative *a = &p->alternatives[p->alternative_count++];
  a->first = NULL;
  a->next = NULL;
  return a;
}

static void set_add(unsigned char *set, unsigned c) {
  set[c >> 3] |= (unsigned char)(1u << (c & 7));
}
static int set_has(const unsigned char *set, unsigned c) { return (set[c >> 3] >> (c & 7)) & 1; }

static int is_digit(unsigned c) { return c >= '0' && c <= '9'; }
static int is_space(unsigned c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static int is_word(unsigned c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* \d \s \w and their negations into `set`; returns 0 when `letter` is none of them. */
static int add_shorthand(unsigned char *set, char letter) {
  int (*test)(unsigned) = NULL;
  switch (letter) {
  case 'd':
  case 'D':
    test = is_digit;
    break;
  case 's':
  case 'S':
    test = is_space;
    break;
  case 'w':
  case 'W':
    test = is_word;
    break;
  default:
    return 0;
  }
  int negated = letter >= 'A' && letter <= 'Z';
  for (unsigned c = 0; c < 256; c++)
    if (test(c) != negated)
      set_add(set, c);
  return 1;
}

/* An escaped single character (after the backslash); -1 when the escape is unknown. Letters and
   digits are reserved so that a typo such as \q is an error rather than a silent literal. */
static int escaped_char(char c) {
  switch (c) {
  case 'n':
    return '\n';
  case 'r':
    return '\r';
  case 't':
    return '\t';
  case 'f':
    return '\f';
  case 'v':
    return '\v';
  case '0':
    return '\0';
  default:
    break;
  }
  if (is_word((unsigned char)c) || c == '\0')
    return -1;
  return (unsigned char)c;
}

static int parse_class(parser *p, node *n) {
  const char *open = p->at++;
  int negated = 0;
  unsigned char set[32] = {0};
  if (*p->at == '^') {
    negated = 1;
    p->at++;
  }
  int first = 1;
  while (*p->at != ']' || first) {
    first = 0;
    const char *item = p->at;
    int low;
    if (*p->at == '\0')
      return syntax_error(p, open, "missing ']' for the '['");
    if (*p->at == '\\') {
      p->at++;
      if (add_shorthand(set, *p->at)) {
        p->at++;
        if (*p->at == '-' && p->at[1] != ']' && p->at[1] != '\0')
          return syntax_error(p, item, "a range cannot start at a \\d, \\s or \\w");
        continue;
      }
      if ((low = escaped_char(*p->at)) < 0)
        return syntax_error(p, item, "unknown escape");
    } else {
      low = (unsigned char)*p->at;
    }
    p->at++;
    int high = low;
    if (*p->at == '-' && p->at[1] != ']' && p->at[1] != '\0') {
      p->at++;
      if (*p->at == '\\') {
        p->at++;
        if ((high = escaped_char(*p->at)) < 0)
          return syntax_error(p, p->at - 1, "a range must end at a single character");
      } else {
        high = (unsigned char)*p->at;
      }
      p->at++;
      if (high < low)
        return syntax_error(p, item, "the range is reversed (write the smaller end first)");
    }
    for (int c = low; c <= high; c++)
      set_add(set, (unsigned)c);
  }
  p->at++; /* the ']' */
  for (int i = 0; i < 32; i++)
    n->set[i] = negated ? (unsigned char)~set[i] : set[i];
  return TS_OK;
}

static int parse_count(parser *p, int *out) {
  if (!is_digit((unsigned char)*p->at))
    return 0;
  long value = 0;
  while (is_digit((unsigned char)*p->at)) {
    value = value * 10 + (*p->at++ - '0');
    if (value > MAX_REPEAT)
      value = MAX_REPEAT + 1; /* keep reading digits; the caller reports it */
  }
  *out = (int)value;
  return 1;
}

/* Reads a quantifier after an atom, if there is one. */
static int parse_quantifier(parser *p, node *n) {
  const char *q = p->at;
  switch (*q) {
  case '*':
    n->min = 0;
    n->max = -1;
    p->at++;
    break;
  case '+':
    n->min = 1;
    n->max = -1;
    p->at++;
    break;
  case '?':
    n->min = 0;
    n->max = 1;
    p->at++;
    break;
  case '{': {
    p->at++;
    int low, high;
    if (!parse_count(p, &low))
      return syntax_error(p, q,
                          "'{' must start a count such as {2} or {1,3} (write \\{ for the "
                          "character)");
    high = low;
    if (*p->at == ',') {
      p->at++;
      if (!parse_count(p, &high))
        high = -1;
    }
    if (*p->at != '}')
      return syntax_error(p, q, "missing '}' after the count");
    p->at++;
    if (low > MAX_REPEAT || high > MAX_REPEAT)
      return syntax_error(p, q, "the count is too large (at most 1000)");
    if (high >= 0 && high < low)
      return syntax_error(p, q, "the count's range is reversed");
    n->min = low;
    n->max = high;
    break;
  }
  default:
    return TS_OK;
  }
  if (n->kind == N_LINE_START || n->kind == N_LINE_END)
    return syntax_error(p, q, "an anchor (^ or $) cannot be repeated");
  if (*p->at == '?') {
    n->lazy = 1;
    p->at++;
  }
  if (*p->at == '*' || *p->at == '+' || *p->at == '?' || *p->at == '{')
    return syntax_error(p, p->at, "a quantifier cannot follow another quantifier");
  return TS_OK;
}

static int parse_alternatives(parser *p, node *group, const char *open);

static int parse_atom(parser *p, node **out) {
  const char *start = p->at;
  char c = *p->at;
  node *n = NULL;
  switch (c) {
  case '*':
  case '+':
  case '?':
  case '{':
    return syntax_error(p, start, "the quantifier has nothing to repeat");
  case '.':
    n = new_node(p, N_ANY);
    p->at++;
    break;
  case '^':
    n = new_node(p, N_LINE_START);
    p->at++;
    break;
  case '$':
    n = new_node(p, N_LINE_END);
    p->at++;
    break;
  case '[':
    n = new_node(p, N_CLASS);
    if (parse_class(p, n) != TS_OK)
      return p->err->code;
    break;
  case '(': {
    n = new_node(p, N_GROUP);
    p->at++;
    if (p->at[0] == '?' && p->at[1] == ':') {
      n->capture = CAPTURE_NONE;
      p->at += 2;
    } else if (p->at[0] == '?') {
      return syntax_error(p, start, "only (?: ) groups are supported after '(?'");
    } else {
      if (p->group_count == TS_REGEX_MAX_GROUPS)
        return syntax_error(p, start, "too many groups (at most 16)");
      n->capture = ++p->group_count;
    }
    if (parse_alternatives(p, n, start) != TS_OK)
      return p->err->code;
    if (*p->at != ')')
      return syntax_error(p, start, "missing ')' for the '('");
    p->at++;
    break;
  }
  case '\\': {
    p->at++;
    n = new_node(p, N_CLASS);
    if (add_shorthand(n->set, *p->at)) {
      p->at++;
      break;
    }
    int literal = escaped_char(*p->at);
    if (literal < 0)
      return syntax_error(p, start,
                          *p->at ? "unknown escape" : "the pattern ends with a lone '\\'");
    n->kind = N_CHAR;
    n->ch = (unsigned char)literal;
    p->at++;
    break;
  }
  default:
    n = new_node(p, N_CHAR);
    n->ch = (unsigned char)c;
    p->at++;
    break;
  }
  if (parse_quantifier(p, n) != TS_OK)
    return p->err->code;
  *out = n;
  return TS_OK;
}

/* A sequence of atoms, up to '|', ')' or the end. */
static int parse_sequence(parser *p, node **first) {
  node **link = first;
  *first = NULL;
  while (*p->at && *p->at != '|' && *p->at != ')') {
    node *n = NULL;
    if (parse_atom(p, &n) != TS_OK)
      return p->err->code;
    *link = n;
    link = &n->next;
  }
  return TS_OK;
}

static int parse_alternatives(parser *p, node *group, const char *open) {
  alternative **link = &group->alternatives;
  for (;;) {
    alternative *a = new_alternative(p);
    *link = a;
    link = &a->next;
    if (parse_sequence(p, &a->first) != TS_OK)
      return p->err->code;
    if (*p->at != '|')
      break;
    p->at++;
  }
  if (*p->at == ')' && !open)
    return syntax_error(p, p->at, "unmatched ')'");
  return TS_OK;
}

int ts_regex_compile(const char *pattern, ts_regex **out, ts_err *err) {
  *out = NULL;
  if (!pattern)
    return ts_err_set(err, TS_EUSAGE, "no regular expression given");
  size_t length = strlen(pattern);
  ts_regex *re = calloc(1, sizeof *re);
  /* Every pattern character makes at most one node and one alternative; the root adds one of
     each. */
  parser p = {pattern, pattern, NULL, 0, length + 1, NULL, 0, length + 1, 0, err};
  if (re) {
    re->nodes = p.nodes = malloc(p.node_capacity * sizeof *p.nodes);
    re->alternative_pool = p.alternatives = malloc(p.alternative_capacity * sizeof *p.alternatives);
  }
  if (!re || !p.nodes || !p.alternatives) {
    ts_regex_free(re);
    return ts_err_set(err, TS_ENOMEM, "no memory to compile the regex '%.80s'", pattern);
  }
  re->root = new_node(&p, N_GROUP);
  re->root->capture = 0;
  if (parse_alternatives(&p, re->root, NULL) != TS_OK) {
    ts_regex_free(re);
    return err->code;
  }
  re->group_count = p.group_count;
  re->max_steps = TS_REGEX_DEFAULT_MAX_STEPS;
  *out = re;
  return TS_OK;
}

void ts_regex_free(ts_regex *re) {
  if (!re)
    return;
  free(re->nodes);
  free(re->alternative_pool);
  free(re);
}

int ts_regex_group_count(const ts_regex *re) { return re->group_count; }

void ts_regex_set_max_steps(ts_regex *re, uint64_t max_steps) { re->max_steps = max_steps; }

/* ---- matching ------------------------------------------------------------------------------- */

/* What to do when an alternative of a group has matched: record the group, then go on after it
   (or try another repetition). These frames live on the C stack, one per open group. */
typedef struct continuation {
  const node *group;
  size_t start; /* where this repetition of the group began */
  int count;    /* repetitions completed before this one */
  const struct continuation *up;
} continuation;

typedef struct matcher {
  const char *text;
  size_t length;
  size_t captures[TS_REGEX_MAX_GROUPS + 1][2];
  uint64_t steps, max_steps;
  int depth;
  int failure; /* 0, or why the search was abandoned */
} matcher;

enum { GAVE_UP_STEPS = 1, GAVE_UP_DEPTH = 2 };

static int match_sequence(matcher *m, const node *n, size_t pos, const continuation *k);

static int single_matches(const matcher *m, const node *n, size_t pos) {
  if (n->kind == N_LINE_START)
    return pos == 0 || m->text[pos - 1] == '\n';
  if (n->kind == N_LINE_END)
    return pos == m->length || m->text[pos] == '\n' ||
           (m->text[pos] == '\r' && pos + 1 < m->length && m->text[pos + 1] == '\n');
  if (pos >= m->length)
    return 0;
  unsigned char c = (unsigned char)m->text[pos];
  switch (n->kind) {
  case N_CHAR:
    return c == n->ch;
  case N_ANY:
    return c != '\n';
  case N_CLASS:
    return set_has(n->set, c);
  default:
    return 0;
  }
}

static int single_width(const node *n) {
  return n->kind == N_LINE_START || n->kind == N_LINE_END ? 0 : 1;
}

/* Tries one more repetition of `group` at pos (count already done), with every alternative. */
static int group_repeat_once(matcher *m, const node *group, size_t pos, int count,
                             const continuation *k) {
  continuation here = {group, pos, count, k};
  for (const alternative *a = group->alternatives; a; a = a->next) {
    int r = match_sequence(m, a->first, pos, &here);
    if (r)
      return r;
  }
  return 0;
}

/* At pos after `count` repetitions of group: repeat again or go on, in the quantifier's order. */
static int group_continue(matcher *m, const node *group, size_t pos, int count,
                          const continuation *k) {
  int may_repeat = group->max < 0 || count < group->max;
  int may_stop = count >= group->min;
  int r;
  if (!group->lazy && may_repeat && (r = group_repeat_once(m, group, pos, count, k)))
    return r;
  if (may_stop && (r = match_sequence(m, group->next, pos, k)))
    return r;
  if (group->lazy && may_repeat)
    return group_repeat_once(m, group, pos, count, k);
  return 0;
}

/* An alternative of k->group has matched up to pos. */
static int group_matched(matcher *m, size_t pos, const continuation *k) {
  const node *group = k->group;
  /* A repetition that matched nothing, beyond those required, would loop forever. */
  if (pos == k->start && k->count >= group->min && (group->max < 0 || group->max > 1))
    return 0;
  size_t saved[2] = {0, 0};
  if (group->capture != CAPTURE_NONE) {
    memcpy(saved, m->captures[group->capture], sizeof saved);
    m->captures[group->capture][0] = k->start;
    m->captures[group->capture][1] = pos;
  }
  int r = group_continue(m, group, pos, k->count + 1, k->up);
  if (r == 0 && group->capture != CAPTURE_NONE)
    memcpy(m->captures[group->capture], saved, sizeof saved); /* backtracked: undo */
  return r;
}

/* Matches the sequence from n onwards, then the continuations. 1: matched; 0: no match here;
   -1: gave up (m->failure says why). */
static int match_sequence(matcher *m, const node *n, size_t pos, const continuation *k) {
  if (m->failure)
    return -1;
  if (++m->depth > MAX_DEPTH) {
    m->failure = GAVE_UP_DEPTH;
    return -1;
  }
  int result = 0;
  for (;;) {
    if (++m->steps > m->max_steps) {
      m->failure = GAVE_UP_STEPS;
      result = -1;
      break;
    }
    if (!n) {
      result = k ? group_matched(m, pos, k) : 1;
      break;
    }
    if (n->kind == N_GROUP) {
      result = group_continue(m, n, pos, 0, k);
      break;
    }
    if (n->min == 1 && n->max == 1) {
      /* A plain atom: no choice to remember, so no recursion. */
      if (!single_matches(m, n, pos))
        break;
      pos += (size_t)single_width(n);
      n = n->next;
      continue;
    }
    /* A repeated single character: count how far it can go, then try the rest from the longest
       (greedy) or the shortest (lazy) run. */
    size_t most = 0;
    while ((n->max < 0 || most < (size_t)n->max) && single_matches(m, n, pos + most))
      most++;
    if (most < (size_t)n->min)
      break;
    for (size_t i = 0; i <= most - (size_t)n->min; i++) {
      size_t run = n->lazy ? (size_t)n->min + i : most - i;
      if ((result = match_sequence(m, n->next, pos + run, k)) != 0)
        break;
    }
    break;
  }
  m->depth--;
  return result;
}

int ts_regex_search(const ts_regex *re, const char *text, ts_regex_match *match, ts_err *err) {
  matcher m;
  memset(&m, 0, sizeof m);
  m.text = text;
  m.length = strlen(text);
  m.max_steps = re->max_steps;
  for (size_t start = 0; start <= m.length; start++) {
    for (int g = 0; g <= TS_REGEX_MAX_GROUPS; g++)
      m.captures[g][0] = m.captures[g][1] = NO_POSITION;
    int r = match_sequence(&m, re->root, start, NULL);
    if (r > 0) {
      match->group_count = re->group_count;
      for (int g = 0; g <= TS_REGEX_MAX_GROUPS; g++) {
        match->groups[g].start = m.captures[g][0];
        match->groups[g].end = m.captures[g][1];
      }
      return 1;
    }
    if (r < 0)
      return ts_err_set(err, TS_EINVAL,
                        m.failure == GAVE_UP_STEPS
                            ? "regex: gave up after %llu steps of backtracking (simplify the "
                              "pattern, e.g. avoid nested repeats such as (a*)*)"
                            : "regex: gave up, the pattern nests too deeply for this text "
                              "(%llu steps; avoid repeating a group thousands of times)",
                        (unsigned long long)m.steps);
  }
  return 0;
}

int ts_regex_first_group(const char *pattern, const char *text, char *buf, size_t len,
                         ts_err *err) {
  ts_regex *re;
  int rc = ts_regex_compile(pattern, &re, err);
  if (rc != TS_OK)
    return rc;
  ts_regex_match match;
  int found = ts_regex_search(re, text, &match, err);
  if (found == 1) {
    int g = re->group_count > 0 ? 1 : 0;
    size_t start = match.groups[g].start, end = match.groups[g].end;
    size_t n = start == NO_POSITION ? 0 : end - start;
    if (len > 0) {
      if (n >= len)
        n = len - 1;
      if (n > 0)
        memcpy(buf, text + start, n);
      buf[n] = '\0';
    }
  }
  ts_regex_free(re);
  return found;
}
