/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_requests.c - the service's request table: docs/protocol.md documents each request with its
   fields and right and nothing else; server_dispatch refuses by the table's right and required
   fields before a handler runs; `catalog` lists the service's presets, scenarios and benchmarks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "server/internal.h"

static char *doc; /* docs/protocol.md, whole */

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *text = malloc((size_t)n + 1);
  if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
    free(text);
    text = NULL;
  }
  if (text)
    text[n] = '\0';
  fclose(f);
  return text;
}

/* One row of the doc's request table: its cells (split at '|' not written "\|"). */
typedef struct doc_row {
  char verb[PROTO_MAX_NAME];
  char fields[4096];
  char who[256];
} doc_row;

#define MAX_ROWS 64
static doc_row rows[MAX_ROWS];
static int row_count;

/* Reads the rows of the table under "## Requests" ("| `VERB` | fields | reply | who |"). */
static void read_rows(void) {
  const char *at = strstr(doc, "\n## Requests\n");
  const char *end = at ? strstr(at + 1, "\n## ") : NULL;
  for (const char *line = at; line && line < end && row_count < MAX_ROWS;) {
    line = strchr(line, '\n');
    if (!line || line >= end)
      break;
    line++;
    if (strncmp(line, "| `", 3) != 0)
      continue;
    char cells[4][4096];
    int cell = -1;
    size_t used = 0;
    for (const char *p = line; *p && *p != '\n'; p++) {
      if (*p == '|' && (p == line || p[-1] != '\\')) {
        if (cell >= 0 && cell < 4) {
          while (used > 0 && cells[cell][used - 1] == ' ')
            used--;
          cells[cell][used] = '\0';
        }
        cell++;
        used = 0;
        while (p[1] == ' ')
          p++;
        continue;
      }
      if (cell >= 0 && cell < 4 && used + 1 < sizeof cells[cell])
        cells[cell][used++] = *p;
    }
    if (cell < 4)
      continue;
    doc_row *r = &rows[row_count++];
    snprintf(r->verb, sizeof r->verb, "%.*s", (int)strcspn(cells[0] + 1, "`"), cells[0] + 1);
    snprintf(r->fields, sizeof r->fields, "%s", cells[1]);
    snprintf(r->who, sizeof r->who, "%s", cells[3]);
  }
}

static const doc_row *doc_row_of(const char *verb) {
  for (int i = 0; i < row_count; i++)
    if (strcmp(rows[i].verb, verb) == 0)
      return &rows[i];
  return NULL;
}

/* How many fields a cell documents: each is "`NAME` (required): " or "`NAME` (optional): ". */
static int documented_fields(const char *cell) {
  int n = 0;
  for (const char *p = cell; (p = strstr(p, "` (")) != NULL; p++)
    if (strncmp(p, "` (required): ", 14) == 0 || strncmp(p, "` (optional): ", 14) == 0)
      n++;
  return n;
}

static void every_request_is_documented_with_its_fields_and_right(void) {
  REQUIRE(row_count > 0);
  for (size_t i = 0; i < server_request_count; i++) {
    const request_def *def = &server_requests[i];
    const doc_row *row = doc_row_of(def->verb);
    if (!row) {
      fprintf(stderr, "  docs/protocol.md has no row for request '%s'\n", def->verb);
      CHECK(row != NULL);
      continue;
    }
    char who[256];
    snprintf(who, sizeof who, "%s%s", request_right_name(def->right),
             def->programs ? ", and programs for a plan that runs them" : "");
    if (strcmp(row->who, who) != 0)
      fprintf(stderr, "  %s: the doc says who '%s', the table '%s'\n", def->verb, row->who, who);
    CHECK_STR_EQ(row->who, who);
    int fields = 0;
    for (; fields < REQUEST_MAX_FIELDS && def->fields[fields].name; fields++) {
      const request_field *f = &def->fields[fields];
      char line[600];
      snprintf(line, sizeof line, "`%s` (%s): %s", f->name, f->required ? "required" : "optional",
               f->help);
      if (!strstr(row->fields, line))
        fprintf(stderr, "  %s: the doc's fields lack \"%s\"\n", def->verb, line);
      CHECK_STR_CONTAINS(row->fields, line);
    }
    if (documented_fields(row->fields) != fields)
      fprintf(stderr, "  %s: the doc documents %d fields, the table %d\n", def->verb,
              documented_fields(row->fields), fields);
    CHECK_INT(documented_fields(row->fields), fields);
  }
}

static void nothing_is_documented_that_the_table_lacks(void) {
  for (int i = 0; i < row_count; i++) {
    int found = 0;
    for (size_t k = 0; k < server_request_count; k++)
      found |= strcmp(server_requests[k].verb, rows[i].verb) == 0;
    if (!found)
      fprintf(stderr, "  docs/protocol.md documents '%s', which the table lacks\n", rows[i].verb);
    CHECK(found);
  }
}

/* ---- dispatch: the table's checks come before any handler ---- */

static proto_message in, out;
static client from;

static void ask(const char *verb, const char *key, const char *value, int privileged) {
  ts_err err;
  memset(&from, 0, sizeof from);
  from.peer.uid = 1000;
  from.peer.privileged = privileged;
  snprintf(from.peer.name, sizeof from.peer.name, "nobody");
  proto_init(&in, PROTO_REQUEST, verb);
  if (key)
    proto_add(&in, key, value, &err);
  request r = {NULL, &from, &in, &out, {0}};
  server_dispatch(&r); /* no server: every case below is answered before one is needed */
}

static void control_requests_are_refused_without_the_right(void) {
  ask("load-start", "spec", "sleep:5", 0);
  CHECK_INT(out.kind, PROTO_ERROR);
  CHECK_STR_EQ(out.verb, "denied");
  CHECK_STR_CONTAINS(proto_get(&out, "message"), "load-start");
  CHECK_STR_CONTAINS(proto_get(&out, "message"), "nobody");
}

/* Connecting is open to every authenticated account on Windows (the pipe's DACL): the table
   decides each request. A client without the control right is refused every control request
   ("denied") and passes the right check of every read request (here it stops at the missing
   field, "usage"); a privileged client passes both. Each request with a required field is asked
   without it, so no handler runs. */
static void each_right_class_is_decided_per_request(void) {
  int read_seen = 0, control_seen = 0;
  for (size_t i = 0; i < server_request_count; i++) {
    const request_def *def = &server_requests[i];
    int required = 0;
    for (int f = 0; f < REQUEST_MAX_FIELDS && def->fields[f].name; f++)
      required |= def->fields[f].required;
    if (!required)
      continue;
    ask(def->verb, NULL, NULL, 0);
    const char *expected = def->right == REQUEST_CONTROL ? "denied" : "usage";
    if (strcmp(out.verb, expected) != 0)
      fprintf(stderr, "  %s (%s) from an ordinary user: %s, expected %s\n", def->verb,
              request_right_name(def->right), out.verb, expected);
    CHECK_STR_EQ(out.verb, expected);
    ask(def->verb, NULL, NULL, 1);
    CHECK_STR_EQ(out.verb, "usage");
    read_seen += def->right != REQUEST_CONTROL;
    control_seen += def->right == REQUEST_CONTROL;
  }
  CHECK(read_seen > 0);
  CHECK(control_seen > 0);
}

static void required_fields_are_named_with_what_is_accepted(void) {
  ask("user-idle", NULL, NULL, 0);
  CHECK_STR_EQ(out.verb, "usage");
  CHECK_STR_EQ(proto_get(&out, "message"),
               "user-idle needs field 'seconds' (how long the user has been idle, 0 to 2678400)");
  ask("record", "bench", "builtin-st", 1);
  CHECK_STR_EQ(proto_get(&out, "message"), "record needs field 'condition' (a condition)");
  ask("schedule-add", "when", "", 1); /* empty is missing */
  CHECK_STR_CONTAINS(proto_get(&out, "message"), "schedule-add needs field 'when'");
}

/* ---- catalog ---- */

/* Whether a field `key` has a value starting with `start`. */
static int has(const char *key, const char *start) {
  for (int i = 0; i < out.field_count; i++)
    if (strcmp(out.fields[i].key, key) == 0 &&
        strncmp(proto_value(&out, i), start, strlen(start)) == 0)
      return 1;
  return 0;
}

static void catalog_lists_presets_scenarios_and_benchmarks(void) {
  ask("catalog", NULL, NULL, 0);
  REQUIRE(out.kind == PROTO_OK);
  /* Every preset of the plan table, with its help, in order; the tray once missed the last two. */
  for (size_t i = 0; plan_preset_name(i); i++) {
    char start[64];
    snprintf(start, sizeof start, "%s|", plan_preset_name(i));
    CHECK(has("preset", start));
  }
  CHECK(has("preset", "cost|idle threads"));
  CHECK(has("preset", "calibrate|a positive control"));
  CHECK(has("preset-default", "quick"));
  /* Every scenario with its options; wait's kinds named. */
  for (size_t i = 0; scenario_table[i]; i++) {
    char start[64];
    snprintf(start, sizeof start, "%s|", scenario_table[i]->name);
    CHECK(has("scenario", start));
  }
  CHECK(has("scenario-option", "sleep|interval|sleep time between wake-ups"));
  CHECK(has("scenario-option", "sleep|phase|"));
  CHECK(!has("scenario-option", "wait|interval|"));
  CHECK(has("scenario-option", "wait|kind|what the threads wait on: event (default)"));
  CHECK(has("scenario-option", "burn|duty|"));
  /* Benchmarks, and cpuz's reason where it cannot run (no cpuz.exe on Linux). */
  CHECK(has("bench", "builtin-st|"));
  CHECK(has("bench", "cpuz|"));
  CHECK(!has("bench-unavailable", "builtin-st|"));
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_requests PROTOCOL.MD\n");
    return 2;
  }
  doc = read_file(argv[1]);
  if (!doc) {
    fprintf(stderr, "test_requests: cannot read %s\n", argv[1]);
    return 1;
  }
  read_rows();
  RUN_CASE(every_request_is_documented_with_its_fields_and_right);
  RUN_CASE(nothing_is_documented_that_the_table_lacks);
  RUN_CASE(control_requests_are_refused_without_the_right);
  RUN_CASE(each_right_class_is_decided_per_request);
  RUN_CASE(required_fields_are_named_with_what_is_accepted);
  RUN_CASE(catalog_lists_presets_scenarios_and_benchmarks);
  free(doc);
  return check_summary();
}
