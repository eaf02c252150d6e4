/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* handlers.c - the protocol's requests (docs/protocol.md), one function and one table line each:
   parse the request, call the runner, the store or the quiet module, reply. The table declares
   each request's right and fields; server_dispatch checks both before the handler runs. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../engine/freeze.h"
#include "../exchange/export.h"
#include "../experiment/estimate.h"
#include "../quiet/quiet.h"
#include "../report/headline.h"
#include "../report/program_costs.h"
#include "../report/report.h"
#include "../plan/schedule.h"
#include "peer_rights.h" /* shared/src/plat/, an include directory of ts_core */
#include "threadsoup/buf.h"
#include "threadsoup/parse.h"
#include "threadsoup/utf8.h"
#include "threadsoup/version.h"

/* Replaces the reply with the error `err`: the protocol's name for its code, and its message. */
static int reply_err(request *r, const ts_err *err) {
  ts_err ignored;
  proto_init(r->out, PROTO_ERROR, ts_code_wire_name(err->code));
  proto_add(r->out, "message", err->text, &ignored);
  return err->code;
}

/* ---- reading fields ---- */

/* A required field, or TS_EUSAGE naming it and what is accepted. */
static int need(const request *r, const char *key, const char *accepted, const char **value,
                ts_err *err) {
  *value = proto_get(r->in, key);
  if (!*value || !**value)
    return ts_err_set(err, TS_EUSAGE, "%s needs field '%s' (%s)", r->in->verb, key, accepted);
  return TS_OK;
}

static int long_field(const request *r, const char *key, long min, long max, long *out,
                      ts_err *err) {
  const char *v;
  int rc = need(r, key, "a whole number", &v, err);
  return rc == TS_OK ? ts_parse_long(v, min, max, key, out, err) : rc;
}

#define ID_MAX 2147483647L

/* A plan from a request: "plan" is a preset name or plan text; "set" fields are KEY=VALUE. */
static int request_plan(const request *r, plan *p, ts_err *err) {
  const char *text = proto_get(r->in, "plan"); /* required: the table checked it */
  int rc = strchr(text, '=') ? plan_parse(text, "plan", p, err) : plan_preset(text, p, err);
  for (int i = 0; rc == TS_OK && i < r->in->field_count; i++) {
    if (strcmp(r->in->fields[i].key, "set") != 0)
      continue;
    char setting[PLAN_TEXT_MAX + 64];
    snprintf(setting, sizeof setting, "%s", proto_value(r->in, i));
    char *eq = strchr(setting, '=');
    if (!eq)
      return ts_err_set(err, TS_EUSAGE, "set: '%s' is not KEY=VALUE", setting);
    *eq = '\0';
    rc = plan_set(p, setting, eq + 1, err);
  }
  if (rc == TS_OK)
    rc = plan_check(p, err);
  return rc; /* who may run it is the runner's to decide, where it runs */
}

/* ---- anyone ---- */

static int handle_hello(request *r) {
  const char *v = proto_get(r->in, "version");
  if (v && atoi(v) != PROTO_VERSION) {
    ts_err err;
    ts_err_set(&err, TS_EVERSION, "protocol version %s is not spoken here (accepted: %d)", v,
               PROTO_VERSION);
    return reply_err(r, &err);
  }
  proto_addf(r->out, &r->err, "version", "%d", PROTO_VERSION);
  proto_addf(r->out, &r->err, "server", "threadsoup %s", TS_VERSION);
  proto_addf(r->out, &r->err, "privileged", "%s", r->from->peer.privileged ? "yes" : "no");
  return TS_OK;
}

/* Quiet mode as the journal has it now (a quick read: the machine itself is quiet-status's):
   whether it is on, until when the service restores it, and which parts it changed. */
static void add_quiet_now(request *r) {
  store_quiet_entry *e = malloc(sizeof *e);
  int found = 0;
  ts_err err;
  if (e) {
    plat_mutex_lock(&r->svc->db_lock);
    if (store_quiet_open_entry(r->svc->db, e, &found, &err) != TS_OK)
      found = 0;
    plat_mutex_unlock(&r->svc->db_lock);
  }
  proto_add(r->out, "quiet", found ? "on" : "off", &r->err);
  if (found) {
    proto_addf(r->out, &r->err, "quiet-until", "%lld", (long long)e->restore_by);
    proto_add(r->out, "quiet-defender", e->defender_changed ? "off" : "unchanged", &r->err);
    proto_addf(r->out, &r->err, "quiet-updates", "%s", e->update_changed ? "paused" : "unchanged");
  }
  free(e);
}

static int handle_status(request *r) {
  server *svc = r->svc;
  ts_err err;
  long threads = plat_process_thread_count(plat_self_pid(), &err);
  runner_status st;
  runner_get_status(svc, &st);
  proto_addf(r->out, &r->err, "server", "threadsoup %s", TS_VERSION);
  proto_addf(r->out, &r->err, "pid", "%ld", plat_self_pid());
  proto_addf(r->out, &r->err, "db", "%s", svc->db_path);
  proto_addf(r->out, &r->err, "load", "%s", st.load);
  proto_addf(r->out, &r->err, "threads", "%ld", threads);
  proto_addf(r->out, &r->err, "load-threads", "%ld", st.load_threads);
  proto_addf(r->out, &r->err, "load-processes", "%ld", st.load_processes);
  proto_addf(r->out, &r->err, "load-wakeups", "%.0f", st.load_wakeups);
  if (st.run_active) {
    proto_addf(r->out, &r->err, "run", "%lld", (long long)st.run_id);
    proto_addf(r->out, &r->err, "run-progress", "%d/%d", st.run_done, st.run_total);
    if (st.run_eta_s >= 0)
      proto_addf(r->out, &r->err, "run-eta", "%ld", st.run_eta_s);
    else
      proto_add(r->out, "run-eta", "unknown", &r->err);
  } else {
    proto_add(r->out, "run", "none", &r->err);
  }
  add_quiet_now(r);
  /* Fixed when the service starts: read without the lock. */
  proto_addf(r->out, &r->err, "command-benchmarks", "%s",
             svc->commands_allowed ? "allowed" : svc->commands_reason);
  return TS_OK;
}

static int handle_census(request *r) {
  plat_census m;
  ts_err err;
  if (plat_census_machine(&m, &err) != TS_OK)
    return reply_err(r, &err);
  proto_addf(r->out, &r->err, "processes", "%ld", m.processes);
  proto_addf(r->out, &r->err, "threads", "%ld", m.threads);
  proto_addf(r->out, &r->err, "handles", "%ld", m.handles);
  proto_addf(r->out, &r->err, "run-queue", "%ld", m.run_queue);
  plat_process_census self;
  if (plat_census_process(plat_self_pid(), &self, &err) == TS_OK) {
    proto_addf(r->out, &r->err, "service-threads", "%ld", self.threads);
    for (int i = 0; i < self.state_count; i++)
      proto_addf(r->out, &r->err, "service-state", "%ld %s", self.states[i].threads,
                 self.states[i].name);
  }
  return TS_OK;
}

/* How much of stored text's layout the protocol's value keeps (wire_text). */
typedef enum wire_keep {
  WIRE_COLUMN,  /* a column of a row "ID|AT|PLAN|…" before the last: one line, no '|' */
  WIRE_LAST,    /* the row's last column: one line, '|' kept */
  WIRE_DOCUMENT /* a report: line breaks and tabs kept */
} wire_keep;

/* Stored text made fit for a protocol value: the text any database may hold (an imported run's
   names, a detail quoting a program) sent visibly marked instead of refused. Bytes that are not
   UTF-8, control characters (but the layout `keep` keeps), the bidirectional overrides and, in a
   column before the last, the '|' between columns each become U+FFFD, so the value is sent, and
   the rows after it too. Returns out. */
static const char *wire_text(const char *text, wire_keep keep, char *out, size_t size) {
  static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */
  size_t n = 0, len = strlen(text);
  for (size_t i = 0; i < len;) {
    const unsigned char *c = (const unsigned char *)text + i;
    size_t width = ts_utf8_char(c, len - i);
    unsigned code = width == 1   ? c[0]
                    : width == 2 ? ((c[0] & 0x1Fu) << 6) | (c[1] & 0x3Fu)
                    : width == 3 ? ((c[0] & 0x0Fu) << 12) | ((c[1] & 0x3Fu) << 6) | (c[2] & 0x3Fu)
                                 : 0x10000;
    int layout = keep == WIRE_DOCUMENT && (code == '\n' || code == '\t' || code == '\r');
    int replace = width == 0 || (code < 0x20 && !layout) || (code >= 0x7F && code <= 0x9F) ||
                  (code >= 0x202A && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069) ||
                  (code == '|' && keep == WIRE_COLUMN);
    const char *piece = replace ? replacement : (const char *)c;
    size_t piece_len = replace ? sizeof replacement - 1 : width;
    if (n + piece_len + 1 > size)
      break;
    memcpy(out + n, piece, piece_len);
    n += piece_len;
    i += width ? width : 1;
  }
  out[n] = '\0';
  return out;
}

/* Adds a report's text as field "text", made fit for the protocol by wire_text. */
static int add_document(request *r, const char *text, ts_err *err) {
  size_t size = strlen(text) * 3 + 1; /* each byte may become U+FFFD */
  char *shown = malloc(size);
  if (!shown)
    return ts_err_set(err, TS_ENOMEM, "no memory for the report");
  int rc = proto_add(r->out, "text", wire_text(text, WIRE_DOCUMENT, shown, size), err);
  free(shown);
  return rc;
}

/* The history's rows, and with `headlines: yes` a "headline" field per run ("ID|HEADLINE"). The
   run rows are read first: the store's cursor is closed before any headline reads the database. */
typedef struct history_ctx {
  request *r;
  int64_t ids[200];
  int count;
  char last_host[sizeof(((store_run_row *)0)->host)]; /* the host field sent last */
} history_ctx;

static int add_history_row(void *ctx, const store_run_row *row) {
  history_ctx *h = ctx;
  char at[sizeof row->started_at * 3], name[sizeof row->plan_name * 3];
  char detail[sizeof row->status_detail * 3];
  if (h->count < (int)(sizeof h->ids / sizeof h->ids[0]))
    h->ids[h->count++] = row->id;
  /* Only a full reply stops the list: each row's text was made fit for the protocol. */
  int rc = proto_addf(h->r->out, &h->r->err, "run", "%lld|%s|%s|%s|%d/%d|%s", (long long)row->id,
                      wire_text(row->started_at, WIRE_COLUMN, at, sizeof at),
                      wire_text(row->plan_name, WIRE_COLUMN, name, sizeof name),
                      store_run_status_name(row->status), row->trials_done, row->trials_total,
                      wire_text(row->status_detail, WIRE_LAST, detail, sizeof detail));
  /* The host, a schedule's run and an imported run each say so in a field of their own after
     the row ("ID|HOST", "ID|SCHEDULE", "ID|WHEN|FILE"), so the row's six columns stay as the tray
     reads them. The host only where it differs from the one sent last (a reply holds 256
     fields: a host per row would halve the runs it can list). */
  if (rc == TS_OK && (h->count == 1 || strcmp(row->host, h->last_host) != 0)) {
    snprintf(h->last_host, sizeof h->last_host, "%s", row->host);
    rc = proto_addf(h->r->out, &h->r->err, "host", "%lld|%s", (long long)row->id,
                    wire_text(row->host, WIRE_LAST, detail, sizeof detail));
  }
  if (rc == TS_OK && row->schedule_id)
    rc = proto_addf(h->r->out, &h->r->err, "scheduled", "%lld|%lld", (long long)row->id,
                    (long long)row->schedule_id);
  if (rc == TS_OK && row->imported_from[0])
    rc = proto_addf(h->r->out, &h->r->err, "imported", "%lld|%s|%s", (long long)row->id,
                    wire_text(row->imported_at, WIRE_COLUMN, at, sizeof at),
                    wire_text(row->imported_from, WIRE_LAST, detail, sizeof detail));
  return rc != TS_OK;
}

static int handle_history(request *r) {
  long limit = 20;
  ts_err err;
  if (proto_get(r->in, "limit") && long_field(r, "limit", 1, 200, &limit, &err) != TS_OK)
    return reply_err(r, &err);
  const char *headlines = proto_get(r->in, "headlines");
  if (headlines && strcmp(headlines, "yes") != 0 && strcmp(headlines, "no") != 0) {
    ts_err_set(&err, TS_EUSAGE, "headlines: '%s' is not yes or no", headlines);
    return reply_err(r, &err);
  }
  history_ctx *h = calloc(1, sizeof *h);
  if (!h) {
    ts_err_set(&err, TS_ENOMEM, "no memory for the history");
    return reply_err(r, &err);
  }
  h->r = r;
  plat_mutex_lock(&r->svc->db_lock);
  int rc = store_runs(r->svc->db, (int)limit, add_history_row, h, &err);
  for (int i = 0; rc == TS_OK && headlines && strcmp(headlines, "yes") == 0 && i < h->count; i++) {
    char line[512];
    ts_err ignored;
    char shown[sizeof line * 3];
    if (report_headline_load(r->svc->db, h->ids[i], line, sizeof line, &ignored) != TS_OK)
      snprintf(line, sizeof line, "%s", "");
    proto_addf(r->out, &r->err, "headline", "%lld|%s", (long long)h->ids[i],
               wire_text(line, WIRE_LAST, shown, sizeof shown));
  }
  plat_mutex_unlock(&r->svc->db_lock);
  free(h);
  return rc == TS_OK ? TS_OK : reply_err(r, &err);
}

/* 1 once the service is stopping: a report being written is abandoned. */
static int report_unwanted(void *ctx) { return ((server *)ctx)->stopping; }

/* Writes the run's report in `format` to a new temporary file (removed when closed), reading the
   database under its lock and computing and writing after releasing it, so other requests are
   answered while a long report is computed or written; at most REPORT_OUTPUT_MAX bytes, and
   abandoned when the service stops. */
static int report_to_temp(server *svc, int64_t run_id, report_format format, FILE **out,
                          ts_err *err) {
  /* The report writes to a FILE; a temporary file keeps this portable. */
  FILE *f = tmpfile();
  if (!f)
    return ts_err_set(err, TS_EFAILED, "cannot create a temporary file for the report");
  report_prepared *p = NULL;
  plat_mutex_lock(&svc->db_lock);
  int rc = report_read(svc->db, run_id, format, &p, err);
  plat_mutex_unlock(&svc->db_lock);
  if (rc == TS_OK)
    rc = report_compute(p, err);
  if (rc == TS_OK)
    rc = report_write(p, f, REPORT_OUTPUT_MAX, report_unwanted, svc, err);
  report_prepared_free(p);
  if (rc != TS_OK) {
    fclose(f);
    return rc;
  }
  *out = f;
  return TS_OK;
}

/* The report of a run in `format`, as text that fits one message; *text is malloc'd. */
static int render_report(server *svc, int64_t run_id, report_format format, char **text,
                         ts_err *err) {
  FILE *f = NULL;
  *text = NULL;
  int rc = report_to_temp(svc, run_id, format, &f, err);
  if (rc != TS_OK)
    return rc;
  /* Read one byte more than a message holds: a report that long cannot be sent whole, and a
     cut-off CSV, JSON or HTML document would mislead, so it is refused instead. */
  *text = rc == TS_OK ? malloc(PROTO_MAX_MESSAGE + 1) : NULL;
  if (rc == TS_OK && !*text)
    rc = ts_err_set(err, TS_ENOMEM, "no memory for the report");
  if (rc == TS_OK) {
    rewind(f);
    size_t n = fread(*text, 1, PROTO_MAX_MESSAGE, f);
    (*text)[n] = '\0';
    if (n == PROTO_MAX_MESSAGE)
      rc = ts_err_set(err, TS_EFAILED,
                      "too large for one message; read the database with threadsoup report --db");
  }
  fclose(f);
  if (rc != TS_OK) {
    free(*text);
    *text = NULL;
  }
  return rc;
}

/* One page (`offset`, `size`) of the document in f (at its end): each reply holds at most
   PAGE_MAX bytes of it, so that even escaped it fits one message, cut where a UTF-8 character
   begins; `total` is the document's length and `next` where the following page starts (total at
   the end). `what` names the document in the refusal of an offset past its end. */
#define PAGE_MAX 24576
static int send_page(request *r, FILE *f, const char *what, ts_err *err) {
  long offset = 0, size = PAGE_MAX;
  if (proto_get(r->in, "offset") && long_field(r, "offset", 0, ID_MAX, &offset, err) != TS_OK)
    return err->code;
  if (proto_get(r->in, "size") && long_field(r, "size", 16, PAGE_MAX, &size, err) != TS_OK)
    return err->code;
  char *page = malloc((size_t)size + 1);
  if (!page)
    return ts_err_set(err, TS_ENOMEM, "no memory for the %s", what);
  int rc = TS_OK;
  long total = ftell(f);
  if (offset > total)
    rc = ts_err_set(err, TS_EUSAGE, "offset %ld is past the %s's end (%ld bytes)", offset, what,
                    total);
  size_t n = 0;
  if (rc == TS_OK) {
    fseek(f, offset, SEEK_SET);
    n = fread(page, 1, (size_t)size, f);
    /* A page ends before a UTF-8 continuation byte's lead, unless the document ends there. */
    if (offset + (long)n < total)
      while (n > 0 && ((unsigned char)page[n] & 0xC0) == 0x80)
        n--;
    page[n] = '\0';
    rc = add_document(r, page, err);
  }
  if (rc == TS_OK) {
    proto_addf(r->out, err, "total", "%ld", total);
    proto_addf(r->out, err, "next", "%ld", offset + (long)n);
  }
  free(page);
  return rc;
}

/* A report read in pages (send_page). */
static int handle_report_page(request *r, long run_id, report_format format, ts_err *err) {
  FILE *f = NULL;
  int rc = report_to_temp(r->svc, run_id, format, &f, err);
  if (rc != TS_OK)
    return rc;
  rc = send_page(r, f, "report", err);
  fclose(f);
  return rc;
}

static int handle_report(request *r) {
  long run_id;
  report_format format = REPORT_FORMAT_TEXT;
  const char *format_text = proto_get(r->in, "format");
  char *text = NULL;
  ts_err err;
  int rc = long_field(r, "run", 1, ID_MAX, &run_id, &err);
  if (rc == TS_OK && format_text)
    rc = report_format_parse(format_text, &format, &err);
  if (rc == TS_OK && (proto_get(r->in, "offset") || proto_get(r->in, "size"))) {
    rc = handle_report_page(r, run_id, format, &err);
    return rc == TS_OK ? TS_OK : reply_err(r, &err);
  }
  if (rc == TS_OK)
    rc = render_report(r->svc, run_id, format, &text, &err);
  if (rc == TS_OK && add_document(r, text, &err) != TS_OK) {
    /* Too large, or text the protocol cannot carry: proto_add's sentence says which. */
    ts_err_prefix(&err,
                  "run %ld's report cannot be sent (read the database with threadsoup "
                  "report --db)",
                  run_id);
    rc = TS_EFAILED;
    err.code = TS_EFAILED;
  }
  free(text);
  return rc == TS_OK ? TS_OK : reply_err(r, &err);
}

/* A run's export file (the bytes threadsoup export --db writes), read in pages (send_page): the
   database is read under its lock into a temporary file, as a report is. */
static int handle_export(request *r) {
  long run_id;
  ts_err err;
  FILE *f = NULL;
  int rc = long_field(r, "run", 1, ID_MAX, &run_id, &err);
  if (rc == TS_OK && !(f = tmpfile()))
    rc = ts_err_set(&err, TS_EFAILED, "cannot create a temporary file for the export");
  if (rc == TS_OK) {
    plat_mutex_lock(&r->svc->db_lock);
    rc = exchange_export_stream(r->svc->db, run_id, f, &err);
    plat_mutex_unlock(&r->svc->db_lock);
  }
  if (rc == TS_OK)
    rc = send_page(r, f, "export", &err);
  if (f)
    fclose(f);
  return rc == TS_OK ? TS_OK : reply_err(r, &err);
}

/* census --cost --service: what each running program a client counted costs, from the service's
   database (its latest cost run's prediction, the newest freeze run's measurement). Each
   `program` field ("SWITCHES THREADS NAME") gets a `cost` field "PREDICTED|MEASURED" in the same
   order, after one `source` field saying what the predictions stand on. */
#define PROGRAM_COSTS_MAX 100
typedef struct program_asked {
  double switches_per_s;
  long threads;
  const char *name;
} program_asked;

static int handle_program_costs(request *r) {
  program_asked asked[PROGRAM_COSTS_MAX];
  int n = 0;
  ts_err err;
  for (int f = 0; f < r->in->field_count; f++) {
    if (strcmp(r->in->fields[f].key, "program") != 0)
      continue;
    const char *value = proto_value(r->in, f);
    int used = 0;
    if (n == PROGRAM_COSTS_MAX) {
      ts_err_set(&err, TS_EUSAGE, "program-costs: more than %d programs (at most %d a request)",
                 PROGRAM_COSTS_MAX, PROGRAM_COSTS_MAX);
      return reply_err(r, &err);
    }
    if (sscanf(value, "%lf %ld %n", &asked[n].switches_per_s, &asked[n].threads, &used) != 2 ||
        used == 0 || !value[used] || !(asked[n].switches_per_s >= 0)) {
      ts_err_set(&err, TS_EUSAGE,
                 "program: '%s' is not SWITCHES THREADS NAME (wake-ups per second, threads, and "
                 "an executable's name, e.g. 5000 4 firefox)",
                 value);
      return reply_err(r, &err);
    }
    asked[n++].name = value + used;
  }
  report_program_costs *pc = malloc(sizeof *pc);
  if (!pc) {
    ts_err_set(&err, TS_ENOMEM, "no memory for the programs' costs");
    return reply_err(r, &err);
  }
  char source[REPORT_PROGRAM_COSTS_SOURCE_MAX], predicted[REPORT_PROGRAM_COST_MAX],
      measured[REPORT_PROGRAM_COST_MAX];
  plat_mutex_lock(&r->svc->db_lock);
  int rc = report_program_costs_load(r->svc->db, NULL, pc, &err);
  if (rc == TS_OK) {
    report_program_costs_source(pc, source, sizeof source);
    proto_add(r->out, "source", source, &r->err);
  }
  for (int i = 0; rc == TS_OK && i < n; i++) {
    report_program_costs_columns(pc, asked[i].name, asked[i].switches_per_s, asked[i].threads,
                                 predicted, measured);
    proto_addf(r->out, &r->err, "cost", "%s|%s", predicted, measured);
  }
  report_program_costs_free(pc);
  plat_mutex_unlock(&r->svc->db_lock);
  free(pc);
  return rc == TS_OK ? TS_OK : reply_err(r, &err);
}

/* The value of `key` in stored plan text (plan_format writes "KEY = VALUE" lines); "" when the
   text does not set it. Matched at the start of a line: a value may hold another key's words. */
static void stored_setting(const char *text, const char *key, char *buf, size_t len) {
  size_t key_len = strlen(key);
  buf[0] = '\0';
  for (const char *line = text; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t line_len = end ? (size_t)(end - line) : strlen(line);
    if (line_len > key_len + 3 && strncmp(line, key, key_len) == 0 &&
        strncmp(line + key_len, " = ", 3) == 0) {
      snprintf(buf, len, "%.*s", (int)(line_len - key_len - 3), line + key_len + 3);
      return;
    }
    line = end ? end + 1 : NULL;
  }
}

static int add_schedule_row(void *ctx, const store_schedule *sc) {
  request *r = ctx;
  char due[32], name[PLAN_NAME_MAX], export_to[PLAN_TEXT_MAX];
  if (sc->next_due == 0 && sc->enabled && strncmp(sc->spec, "boot ", 5) == 0)
    snprintf(due, sizeof due, "next service start");
  else
    schedule_format_local(sc->next_due, due, sizeof due);
  stored_setting(sc->plan_text, "name", name, sizeof name);
  stored_setting(sc->plan_text, "export-to", export_to, sizeof export_to);
  int rc =
      proto_addf(r->out, &r->err, "schedule", "%lld|%s|%s|%s|%s%s%s|%s", (long long)sc->id,
                 sc->spec, due, name[0] ? name : "?", sc->enabled ? "enabled" : "done",
                 sc->require_ac ? ",ac" : "", sc->require_idle_s ? ",idle" : "", sc->last_event);
  /* A field of its own after its row, so the row's six columns stay as the tray reads them. */
  if (rc == TS_OK && export_to[0])
    rc = proto_addf(r->out, &r->err, "export-to", "%lld|%s", (long long)sc->id, export_to);
  return rc != TS_OK;
}

static int handle_schedule_list(request *r) {
  ts_err err;
  plat_mutex_lock(&r->svc->db_lock);
  int rc = store_schedules(r->svc->db, add_schedule_row, r, &err);
  plat_mutex_unlock(&r->svc->db_lock);
  if (rc != TS_OK)
    return reply_err(r, &err);
  /* What the scheduler's wake timer does (scheduler.c). */
  char wake[sizeof r->svc->wake_state];
  plat_mutex_lock(&r->svc->lock);
  snprintf(wake, sizeof wake, "%s", r->svc->wake_state);
  plat_mutex_unlock(&r->svc->lock);
  if (wake[0])
    proto_add(r->out, "wake", wake, &r->err);
  return TS_OK;
}

static int handle_quiet_status(request *r) {
  quiet_state *q = malloc(sizeof *q);
  ts_err err;
  if (!q) {
    ts_err_set(&err, TS_ENOMEM, "no memory for quiet mode's state");
    return reply_err(r, &err);
  }
  int rc = server_quiet_status(r->svc, q, &err); /* not under db_lock: it may be slow */
  if (rc == TS_OK) {
    proto_add(r->out, "quiet", q->on ? "on" : "off", &r->err);
    proto_add(r->out, "available", q->unavailable[0] ? "no" : "yes", &r->err);
    if (q->unavailable[0])
      proto_add(r->out, "reason", q->unavailable, &r->err);
    proto_add(r->out, "text", q->text, &r->err);
  }
  free(q);
  return rc == TS_OK ? TS_OK : reply_err(r, &err);
}

static int handle_subscribe(request *r) {
  plat_mutex_lock(&r->svc->lock);
  r->from->subscribed = 1;
  plat_mutex_unlock(&r->svc->lock);
  return TS_OK;
}

static int handle_user_idle(request *r) {
  long seconds;
  ts_err err;
  if (long_field(r, "seconds", 0, 31L * 86400, &seconds, &err) != TS_OK)
    return reply_err(r, &err);
  long console = plat_console_session();
  if (!schedule_idle_answer_counts(r->from->peer.session, console)) {
    proto_add(r->out, "counted", "no", &r->err);
    proto_addf(r->out, &r->err, "reason",
               "the answer came from session %ld; only the console's session (%ld) is asked",
               r->from->peer.session, console);
    return TS_OK;
  }
  proto_add(r->out, "counted", "yes", &r->err);
  plat_mutex_lock(&r->svc->lock);
  r->svc->idle_report_s = seconds;
  r->svc->idle_report_at = (int64_t)time(NULL);
  plat_cond_broadcast(&r->svc->changed);
  plat_mutex_unlock(&r->svc->lock);
  return TS_OK;
}

/* ---- administrators ---- */

static int handle_load_start(request *r) {
  const char *text = proto_get(r->in, "spec");
  load_spec spec;
  ts_err err;
  int rc = load_spec_parse(text, &spec, &err);
  if (rc == TS_OK && spec.part_count == 0)
    rc = ts_err_set(&err, TS_EUSAGE, "'%s' creates no load", text);
  if (rc == TS_OK)
    rc = runner_start_load(r->svc, &spec, &r->from->peer, &err);
  if (rc != TS_OK)
    return reply_err(r, &err);
  ts_log(TS_LOG_INFO, "load %s started for %s", spec.text, r->from->peer.name);
  proto_add(r->out, "load", spec.text, &r->err);
  proto_addf(r->out, &r->err, "threads", "%ld", load_spec_threads(&spec));
  proto_addf(r->out, &r->err, "processes", "%ld", load_spec_processes(&spec));
  return TS_OK;
}

static int handle_load_stop(request *r) {
  char text[LOAD_TEXT_MAX];
  ts_err err;
  if (runner_stop_load(r->svc, text, sizeof text, &err) != TS_OK)
    return reply_err(r, &err);
  ts_log(TS_LOG_INFO, "load %s stopped for %s", text, r->from->peer.name);
  proto_add(r->out, "load", text, &r->err);
  return TS_OK;
}

/* What the plan can detect and how long it takes, from the service's database: one line per
   benchmark, as `threadsoup run` prints before a run; malloc'd, NULL when it cannot be
   estimated (*err says why). run-start reads it before the run starts, so none of its own trials
   count. */
static char *estimate_text(server *svc, const plan *p, ts_err *err) {
  estimate *e = malloc(sizeof *e);
  size_t size = PLAN_MAX_BENCHES * 600;
  char *text = malloc(size);
  int rc = e && text ? TS_OK : ts_err_set(err, TS_ENOMEM, "no memory for the estimate");
  if (rc == TS_OK) {
    plat_mutex_lock(&svc->db_lock);
    rc = estimate_plan(svc->db, p, NULL, e, err);
    plat_mutex_unlock(&svc->db_lock);
  }
  ts_buf b = ts_buf_on(text, text ? size : 0);
  for (int i = 0; rc == TS_OK && i < e->bench_count; i++) {
    char line[600];
    if (e->benches[i].have_history)
      estimate_line(e, p, i, line, sizeof line);
    else
      snprintf(line, sizeof line,
               "no history of %s in the service's database yet: its finished runs give one",
               e->benches[i].bench);
    ts_buf_item(&b, "\n", line);
  }
  free(e);
  if (rc != TS_OK) {
    free(text);
    return NULL;
  }
  return text;
}

/* The client of `r` asking for a run; `owner` (the caller's) gets who it is, to be stored with
   the run. */
static runner_asker client_asker(const request *r, store_owner *owner) {
  runner_owner_of(&r->from->peer, owner);
  runner_asker asker = {r->from->peer.name, plat_peer_may_run_programs(&r->from->peer),
                        r->from->peer.admin_not_elevated, &r->from->peer, owner};
  return asker;
}

static int handle_run_start(request *r) {
  plan *p = malloc(sizeof *p);
  ts_err err;
  int64_t run_id = 0;
  int rc = p ? request_plan(r, p, &err) : ts_err_set(&err, TS_ENOMEM, "no memory for a plan");
  uint64_t seed = plat_clock_ns() ^ ((uint64_t)plat_self_pid() << 32);
  const char *seed_text = proto_get(r->in, "seed");
  if (rc == TS_OK && seed_text)
    rc = ts_parse_u64(seed_text, "seed", &seed, &err);
  store_owner owner;
  runner_asker asker = client_asker(r, &owner);
  ts_err estimate_err;
  char *expected = rc == TS_OK ? estimate_text(r->svc, p, &estimate_err) : NULL;
  if (rc == TS_OK)
    rc = runner_start_run(r->svc, p, seed, 0, &asker, &run_id, &err);
  free(p);
  if (rc != TS_OK) {
    free(expected);
    return reply_err(r, &err);
  }
  ts_log(TS_LOG_INFO, "run %lld started for %s", (long long)run_id, r->from->peer.name);
  proto_addf(r->out, &r->err, "run", "%lld", (long long)run_id);
  if (expected)
    proto_add(r->out, "estimate", expected, &r->err);
  free(expected);
  return TS_OK;
}

static int handle_run_stop(request *r) {
  int64_t run_id = 0;
  ts_err err;
  if (runner_stop_run(r->svc, &run_id, &err) != TS_OK)
    return reply_err(r, &err);
  proto_addf(r->out, &r->err, "run", "%lld", (long long)run_id);
  return TS_OK;
}

static int handle_run_resume(request *r) {
  long run_id;
  ts_err err;
  int rc = long_field(r, "run", 1, ID_MAX, &run_id, &err);
  store_owner owner;
  runner_asker asker = client_asker(r, &owner);
  if (rc == TS_OK)
    rc = runner_resume_run(r->svc, run_id, &asker, &err);
  if (rc != TS_OK)
    return reply_err(r, &err);
  proto_addf(r->out, &r->err, "run", "%ld", run_id);
  return TS_OK;
}

/* Whether `r`'s client may add a score to run `row`. No one adds to an imported run: it belongs to
   the machine that measured it, nor to a run ThreadSoup measured (store_score_record refuses
   both). Root (SYSTEM, an elevated administrator) adds to any other run of scores typed in; a
   member of group threadsoup (ThreadSoup Users) only to a run of scores typed in that it made
   (run new), never to root's measured, running or typed-in runs. */
static int record_allowed(const request *r, const store_run_row *row, ts_err *err) {
  const plat_peer *peer = &r->from->peer;
  if (row->imported_from[0])
    return ts_err_set(err, TS_EDENIED,
                      "run %lld was imported from %s: it belongs to the machine that measured "
                      "it; record into a run of this machine (run new makes one)",
                      (long long)row->id, row->imported_from);
  if (plat_peer_may_run_programs(peer))
    return TS_OK;
  int manual = strcmp(row->plan_name, "manual") == 0;
  if (manual && strcmp(row->owner, peer->name) == 0)
    return TS_OK;
  const char *what = !manual && row->status == STORE_RUN_RUNNING ? "a run being measured"
                     : !manual                                   ? "a measured run"
                     : row->owner[0] ? "a run of scores typed in by someone else"
                                     : "a run of scores typed in outside the service";
  return ts_err_set(err, TS_EDENIED,
                    "run %lld is %s: %s may record only into a run of its own (run new makes "
                    "one); only root (on Windows SYSTEM or an elevated administrator) records "
                    "into other runs",
                    (long long)row->id, what, peer->name);
}

static int handle_record(request *r) {
  long run_id;
  double score;
  load_spec spec;
  /* All four are required: the table checked them. */
  const char *bench = proto_get(r->in, "bench"), *condition = proto_get(r->in, "condition");
  const char *score_text = proto_get(r->in, "score"), *run_text = proto_get(r->in, "run");
  ts_err err;
  int rc = TS_OK;
  /* "new" makes a run of plan "manual" for the score, as `threadsoup record --run new` does. */
  int new_run = strcmp(run_text, "new") == 0;
  run_id = 0;
  if (!new_run)
    rc = ts_parse_long(run_text, 1, ID_MAX, "run", &run_id, &err);
  if (rc == TS_OK)
    rc = ts_parse_double(score_text, 0, 1e15, "score", &score, &err);
  if (rc == TS_OK)
    rc = load_spec_parse(condition, &spec, &err);
  /* The names the command line checks, checked the same way here. */
  if (rc == TS_OK)
    rc = ts_parse_name(bench, "bench", &err);
  if (rc == TS_OK && proto_get(r->in, "unit"))
    rc = ts_parse_name(proto_get(r->in, "unit"), "unit", &err);
  char at[32];
  int64_t trial_id = 0;
  plat_utc_timestamp(at, sizeof at);
  if (rc == TS_OK) {
    plat_mutex_lock(&r->svc->db_lock);
    if (new_run) {
      plat_sysinfo sys;
      plat_sysinfo_read(&sys);
      store_run_info info = store_run_info_here(&sys, "manual", "name = manual\n", 0, at);
      int64_t created = 0;
      rc = store_run_create_owned(r->svc->db, &info, r->from->peer.name, &created, &err);
      run_id = (long)created;
    } else {
      store_run_row *row = malloc(sizeof *row);
      rc = row ? store_run_get(r->svc->db, run_id, row, &err)
               : ts_err_set(&err, TS_ENOMEM, "no memory to read run %ld", run_id);
      if (rc == TS_OK)
        rc = record_allowed(r, row, &err);
      free(row);
    }
    if (rc == TS_OK)
      rc = store_score_record(r->svc->db, run_id, spec.text, bench, score, proto_get(r->in, "unit"),
                              at, &trial_id, &err);
    plat_mutex_unlock(&r->svc->db_lock);
  }
  if (rc != TS_OK)
    return reply_err(r, &err);
  proto_addf(r->out, &r->err, "trial", "%lld", (long long)trial_id);
  proto_addf(r->out, &r->err, "run", "%ld", run_id);
  return TS_OK;
}

static void wake_scheduler(server *svc) {
  plat_mutex_lock(&svc->lock);
  plat_cond_broadcast(&svc->changed);
  plat_mutex_unlock(&svc->lock);
}

/* Finds an enabled schedule that would run the same plan at the same times under the same
   conditions: adding it again (an installer run once more, a script repeated) would run every
   experiment twice. A plan that freezes programs is the same only for the same owner, or added
   by root or an administrator: its freezes are judged as its owner's were. */
typedef struct same_schedule {
  const store_schedule *wanted;
  int freezes; /* the wanted plan freezes programs */
  int64_t id;
  int64_t next_due;
} same_schedule;

static int plan_freezes(const plan *p) {
  for (int c = 0; c < p->condition_count; c++)
    if (freeze_spec_has(&p->conditions[c]))
      return 1;
  return 0;
}

/* Whether schedule sc's freezes are judged as the wanted one's would be, or with more right. */
static int freezes_alike(const store_schedule *sc, const store_schedule *w) {
  const store_owner *have = &sc->owner, *want = &w->owner;
  if (sc->programs_allowed && !(have->known && have->member))
    return 1;
  return have->known && have->member == want->member && have->uid == want->uid &&
         strcmp(have->sid, want->sid) == 0;
}

static int find_same_schedule(void *ctx, const store_schedule *sc) {
  same_schedule *same = ctx;
  const store_schedule *w = same->wanted;
  if (same->id == 0 && sc->enabled && strcmp(sc->spec, w->spec) == 0 &&
      strcmp(sc->plan_text, w->plan_text) == 0 && sc->require_ac == w->require_ac &&
      sc->require_idle_s == w->require_idle_s && sc->grace_s == w->grace_s &&
      (sc->programs_allowed || !w->programs_allowed) && (!same->freezes || freezes_alike(sc, w))) {
    same->id = sc->id;
    same->next_due = sc->next_due;
  }
  return 0;
}

static int handle_schedule_add(request *r) {
  const char *when_text = proto_get(r->in, "when");
  schedule_when when;
  schedule_conditions conditions;
  ts_err err;
  store_schedule *sc = calloc(1, sizeof *sc);
  plan *p = malloc(sizeof *p);
  int rc = sc && p ? TS_OK : ts_err_set(&err, TS_ENOMEM, "no memory for a schedule");
  if (rc == TS_OK)
    rc = schedule_parse(when_text, &when, &err);
  if (rc == TS_OK)
    rc = request_plan(r, p, &err);
  char what[PLAN_TEXT_MAX + 32];
  if (rc == TS_OK && plan_runs_programs(p, what, sizeof what) &&
      !plat_peer_may_run_programs(&r->from->peer))
    /* It would be refused at every due time (scheduler.c); say so now. */
    rc = ts_err_set(&err, TS_EDENIED,
                    "the plan runs programs (%s): only root (on Windows SYSTEM or an elevated "
                    "administrator, not members of ThreadSoup Users) may schedule it%s",
                    what,
                    r->from->peer.admin_not_elevated
                        ? "; your administrator rights are not elevated: run it elevated"
                        : "");
  if (rc == TS_OK)
    rc = schedule_parse_conditions(proto_get(r->in, "require"), proto_get(r->in, "grace"),
                                   &conditions, &err);
  int64_t id = 0;
  same_schedule same = {sc, rc == TS_OK && plan_freezes(p), 0, 0};
  if (rc == TS_OK) {
    snprintf(sc->spec, sizeof sc->spec, "%s", when.text);
    plan_format(p, sc->plan_text, sizeof sc->plan_text);
    sc->enabled = 1;
    sc->require_ac = conditions.require_ac;
    sc->require_idle_s = conditions.require_idle_s;
    sc->grace_s = conditions.grace_s;
    sc->programs_allowed = plat_peer_may_run_programs(&r->from->peer);
    /* Who adds it: when it fires, the freeze rules judge its runs as this client's own. */
    runner_owner_of(&r->from->peer, &sc->owner);
    /* A boot schedule added now is for the service's next starts, not for the start that has
       already happened (which would fire it at once, or never). */
    sc->next_due = when.kind == SCHEDULE_BOOT
                       ? 0
                       : schedule_next(&when, (int64_t)time(NULL), r->svc->started_at);
  }
  if (rc == TS_OK && when.kind == SCHEDULE_ONCE && sc->next_due == 0) {
    char now[32];
    schedule_format_local((int64_t)time(NULL), now, sizeof now);
    rc = ts_err_set(&err, TS_EUSAGE,
                    "%s is in the past (it is %s here): give a future date and time", when.text,
                    now);
  }
  if (rc == TS_OK) {
    char at[32];
    plat_utc_timestamp(at, sizeof at);
    plat_mutex_lock(&r->svc->db_lock);
    rc = store_schedules(r->svc->db, find_same_schedule, &same, &err);
    if (rc == TS_OK && same.id == 0)
      rc = store_schedule_add(r->svc->db, sc, at, &id, &err);
    plat_mutex_unlock(&r->svc->db_lock);
    if (same.id != 0) {
      id = same.id;
      sc->next_due = same.next_due;
    }
    if (rc == TS_OK && same.id == 0)
      wake_scheduler(r->svc);
  }
  if (rc == TS_OK) {
    char due[32];
    if (when.kind == SCHEDULE_BOOT && sc->next_due == 0)
      snprintf(due, sizeof due, "at the next service start");
    else
      schedule_format_local(sc->next_due, due, sizeof due);
    proto_addf(r->out, &r->err, "schedule", "%lld", (long long)id);
    proto_add(r->out, "when", when.text, &r->err);
    proto_add(r->out, "next", due, &r->err);
    if (same.id != 0)
      proto_addf(r->out, &r->err, "note",
                 "schedule %lld is the same (when, plan, require, grace): not added again",
                 (long long)id);
    ts_log(TS_LOG_INFO, "schedule %lld %s (%s, next %s) by %s", (long long)id,
           same.id != 0 ? "asked for again, not added" : "added", when.text, due,
           r->from->peer.name);
  }
  free(sc);
  free(p);
  return rc == TS_OK ? TS_OK : reply_err(r, &err);
}

static int handle_schedule_remove(request *r) {
  long id;
  ts_err err;
  int rc = long_field(r, "schedule", 1, ID_MAX, &id, &err);
  if (rc == TS_OK) {
    plat_mutex_lock(&r->svc->db_lock);
    rc = store_schedule_remove(r->svc->db, id, &err);
    plat_mutex_unlock(&r->svc->db_lock);
  }
  if (rc != TS_OK)
    return reply_err(r, &err);
  wake_scheduler(r->svc);
  proto_addf(r->out, &r->err, "schedule", "%ld", id);
  return TS_OK;
}

/* quiet-on / quiet-off by hand (a plan's "quiet = on" does it around its run by itself). */
static int handle_quiet_change(request *r, int on) {
  long hours = 4, seconds = 0;
  quiet_outcome outcome;
  ts_err err;
  int rc = TS_OK;
  if (on && proto_get(r->in, "hours") && proto_get(r->in, "seconds"))
    rc = ts_err_set(&err, TS_EUSAGE, "quiet-on takes 'hours' or 'seconds', not both");
  else if (on && proto_get(r->in, "seconds"))
    rc = long_field(r, "seconds", QUIET_MIN_S, QUIET_MAX_S, &seconds, &err);
  else if (on && proto_get(r->in, "hours"))
    rc = long_field(r, "hours", 1, QUIET_MAX_HOURS, &hours, &err);
  const char *word = on ? proto_get(r->in, "parts") : NULL;
  int parts = !on ? 0 : word ? quiet_parts_parse(word) : QUIET_BOTH;
  if (rc == TS_OK && on && !parts)
    rc = ts_err_set(&err, TS_EUSAGE,
                    "parts: '%.40s' is not accepted (accepted: defender, "
                    "updates, on)",
                    word);
  if (rc == TS_OK)
    rc = server_quiet_change(r->svc, parts, seconds ? seconds : hours * 3600, r->from->peer.name,
                             &outcome, &err);
  if (rc != TS_OK)
    return reply_err(r, &err);
  ts_log(TS_LOG_INFO, "quiet mode %s for %s: %s", on ? "on" : "off", r->from->peer.name,
         outcome.text);
  proto_add(r->out, "text", outcome.text, &r->err);
  return TS_OK;
}
static int handle_quiet_on(request *r) { return handle_quiet_change(r, 1); }
static int handle_quiet_off(request *r) { return handle_quiet_change(r, 0); }

/* What a plan can detect and how long it takes, from the service's database; nothing runs (a pilot
   is a run: run-start). Anyone may ask, as anyone may read the history. */
static int handle_run_estimate(request *r) {
  plan *p = malloc(sizeof *p);
  ts_err err;
  int rc = p ? request_plan(r, p, &err) : ts_err_set(&err, TS_ENOMEM, "no memory for a plan");
  char *expected = rc == TS_OK ? estimate_text(r->svc, p, &err) : NULL;
  free(p);
  if (!expected)
    return reply_err(r, &err);
  proto_add(r->out, "estimate", expected, &r->err);
  free(expected);
  return TS_OK;
}

/* ---- the table ---- */

#define PLAN_HELP "a preset name or plan text"
#define SET_HELP "repeated KEY=VALUE: a plan setting, as run --set"
#define REQUIRED 1
#define OPTIONAL 0

/* The protocol's requests (docs/protocol.md, which test_protocol_doc holds to this table): one
   line each. A required field missing or empty is refused before the handler runs, with its help
   as what is accepted. */
const request_def server_requests[] = {
    {"hello", REQUEST_READ, 0, handle_hello, {{"version", OPTIONAL, "the protocol version, 1"}}},
    {"status", REQUEST_READ, 0, handle_status, {{0}}},
    {"census", REQUEST_READ, 0, handle_census, {{0}}},
    {"catalog", REQUEST_READ, 0, handle_catalog, {{0}}},
    {"history",
     REQUEST_READ,
     0,
     handle_history,
     {{"limit", OPTIONAL, "how many runs, 1 to 200 (default 20)"},
      {"headlines", OPTIONAL, "yes or no (default no)"}}},
    {"report",
     REQUEST_READ,
     0,
     handle_report,
     {{"run", REQUIRED, "a whole number"},
      {"format", OPTIONAL, "text (default), csv, json or html"},
      {"offset", OPTIONAL, "for paging: where the page starts, in bytes"},
      {"size", OPTIONAL, "for paging: the page's most bytes, 16 to 24576 (default 24576)"}}},
    {"export",
     REQUEST_READ,
     0,
     handle_export,
     {{"run", REQUIRED, "a whole number"},
      {"offset", OPTIONAL, "where the page starts, in bytes (default 0)"},
      {"size", OPTIONAL, "the page's most bytes, 16 to 24576 (default 24576)"}}},
    {"program-costs",
     REQUEST_READ,
     0,
     handle_program_costs,
     {{"program", REQUIRED,
       "repeated, at most 100: SWITCHES THREADS NAME, a running program's wake-ups per second, "
       "threads and executable name"}}},
    {"run-estimate",
     REQUEST_READ,
     0,
     handle_run_estimate,
     {{"plan", REQUIRED, PLAN_HELP}, {"set", OPTIONAL, SET_HELP}}},
    {"schedule-list", REQUEST_READ, 0, handle_schedule_list, {{0}}},
    {"quiet-status", REQUEST_READ, 0, handle_quiet_status, {{0}}},
    {"subscribe", REQUEST_READ, 0, handle_subscribe, {{0}}},
    {"user-idle",
     REQUEST_READ,
     0,
     handle_user_idle,
     {{"seconds", REQUIRED, "how long the user has been idle, 0 to 2678400"}}},
    {"load-start",
     REQUEST_CONTROL,
     0,
     handle_load_start,
     {{"spec", REQUIRED, "a condition such as sleep:500 or wait:100:event+procs:10"}}},
    {"load-stop", REQUEST_CONTROL, 0, handle_load_stop, {{0}}},
    {"run-start",
     REQUEST_CONTROL,
     1,
     handle_run_start,
     {{"plan", REQUIRED, PLAN_HELP},
      {"set", OPTIONAL, SET_HELP},
      {"seed", OPTIONAL, "the seed of the trial order (default: from the clock)"}}},
    {"run-stop", REQUEST_CONTROL, 0, handle_run_stop, {{0}}},
    {"run-resume", REQUEST_CONTROL, 1, handle_run_resume, {{"run", REQUIRED, "a whole number"}}},
    {"record",
     REQUEST_CONTROL,
     0,
     handle_record,
     {{"bench", REQUIRED, "a benchmark name"},
      {"condition", REQUIRED, "a condition"},
      {"score", REQUIRED, "0, or a number from 1e-9 to 1e15"},
      {"run", REQUIRED, "a run number, or new"},
      {"unit", OPTIONAL, "the score's unit"}}},
    {"schedule-add",
     REQUEST_CONTROL,
     1,
     handle_schedule_add,
     {{"when", REQUIRED, "daily HH:MM, weekly DAY HH:MM, once DATE HH:MM, boot D"},
      {"plan", REQUIRED, PLAN_HELP},
      {"set", OPTIONAL, SET_HELP},
      {"require", OPTIONAL, "ac, idle:MINUTES, or both joined with ','"},
      {"grace", OPTIONAL, "a duration such as 1h (default 1h)"}}},
    {"schedule-remove",
     REQUEST_CONTROL,
     0,
     handle_schedule_remove,
     {{"schedule", REQUIRED, "a whole number"}}},
    {"quiet-on",
     REQUEST_CONTROL,
     0,
     handle_quiet_on,
     {{"hours", OPTIONAL, "how long quiet mode lasts, 1 to 839 (default 4)"},
      {"seconds", OPTIONAL, "the same in seconds, 10 to 3020400, instead of hours"},
      {"parts", OPTIONAL, "defender, updates or on (both; the default)"}}},
    {"quiet-off", REQUEST_CONTROL, 0, handle_quiet_off, {{0}}},
};
const size_t server_request_count = sizeof server_requests / sizeof server_requests[0];

const char *request_right_name(request_right right) {
  return right == REQUEST_CONTROL ? "control" : "read";
}

/* The table's check of a request: the right, then each required field in the table's order. */
static int request_allowed(const request *r, const request_def *def, ts_err *err) {
  if (def->right == REQUEST_CONTROL && !r->from->peer.privileged) {
    char why[400];
    peer_refusal_text(r->from->peer.sign_in_again        ? PEER_REFUSAL_SIGN_IN_AGAIN
                      : r->from->peer.admin_not_elevated ? PEER_REFUSAL_NOT_ELEVATED
                                                         : PEER_REFUSAL_NOT_ALLOWED,
                      r->from->peer.uid < 0, r->in->verb, r->from->peer.name, why, sizeof why);
    return ts_err_set(err, TS_EDENIED, "%s", why);
  }
  for (int i = 0; i < REQUEST_MAX_FIELDS && def->fields[i].name; i++) {
    const char *value;
    if (def->fields[i].required &&
        need(r, def->fields[i].name, def->fields[i].help, &value, err) != TS_OK)
      return err->code;
  }
  return TS_OK;
}

void server_dispatch(request *r) {
  ts_err err;
  if (r->in->kind != PROTO_REQUEST) {
    ts_err_set(&err, TS_EUSAGE, "expected a request, got '%s %s'", proto_kind_name(r->in->kind),
               r->in->verb);
    reply_err(r, &err);
    return;
  }
  for (size_t i = 0; i < server_request_count; i++) {
    const request_def *def = &server_requests[i];
    if (strcmp(def->verb, r->in->verb) != 0)
      continue;
    if (request_allowed(r, def, &err) != TS_OK) {
      reply_err(r, &err);
      return;
    }
    proto_init(r->out, PROTO_OK, r->in->verb);
    def->handle(r);
    return;
  }
  char verbs[1024];
  ts_buf known = ts_buf_on(verbs, sizeof verbs);
  for (size_t i = 0; i < server_request_count; i++)
    ts_buf_item(&known, ", ", server_requests[i].verb);
  ts_err_set(&err, TS_EUSAGE, "unknown request '%s' (known: %s)", r->in->verb, verbs);
  reply_err(r, &err);
}
