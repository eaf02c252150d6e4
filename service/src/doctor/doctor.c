/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* doctor.c - the doctor's runner: runs the table's checks (checks.c) in order, counts them, gives
   the verdict (0 when every check holds, 1 otherwise) and writes the findings as text or JSON. */
#include "doctor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../store/store.h"
#include "threadsoup/buf.h"
#include "threadsoup/json_write.h"
#include "threadsoup/units.h"
#include "threadsoup/utf8.h"

void doctor_count(doctor_report *r) {
  switch (r->findings[r->count - 1].status) {
  case DOCTOR_OK:
    r->ok++;
    break;
  case DOCTOR_WARN:
    r->warned++;
    break;
  case DOCTOR_FAIL:
    r->failed++;
    break;
  default:
    r->skipped++;
  }
}

static void run_check(const doctor_check *c, const doctor_context *ctx, doctor_finding *f) {
  memset(f, 0, sizeof *f);
  snprintf(f->check, sizeof f->check, "%s", c->name);
  f->value = NAN;
  f->status = DOCTOR_SKIP;
  c->run(ctx, f);
}

void doctor_run(const doctor_context *ctx, int kinds, int exclude, doctor_report *out) {
  memset(out, 0, sizeof *out);
  uint64_t began = plat_clock_ns();
  for (size_t i = 0; i < doctor_check_count() && out->count < DOCTOR_MAX_FINDINGS; i++) {
    const doctor_check *c = doctor_check_at(i);
    if (!(c->kind & kinds) || (c->kind & exclude))
      continue;
    run_check(c, ctx, &out->findings[out->count++]);
    doctor_count(out);
  }
  out->elapsed_ns = plat_clock_ns() - began;
}

int doctor_run_one(const doctor_context *ctx, const char *name, doctor_finding *out) {
  for (size_t i = 0; i < doctor_check_count(); i++)
    if (strcmp(doctor_check_at(i)->name, name) == 0) {
      run_check(doctor_check_at(i), ctx, out);
      return 1;
    }
  return 0;
}

int doctor_holds(const doctor_report *r) { return r->failed == 0; }

/* A finding quotes what the OS said (an OS version, a path, a program's output): written through
   the printable filter, as every output of text from outside is. */
void doctor_write_text(const doctor_report *r, FILE *out) {
  for (int i = 0; i < r->count; i++) {
    const doctor_finding *f = &r->findings[i];
    ts_utf8_fprintf_printable(out, "%-4s  %-13s %s\n", doctor_status_name(f->status), f->check,
                              f->measured);
    if (f->advice[0])
      ts_utf8_fprintf_printable(out, "      %-13s %s %s\n", "",
                                f->status == DOCTOR_SKIP ? "why:" : "do:", f->advice);
  }
  char summary[256];
  doctor_summary(r, summary, sizeof summary);
  fprintf(out, "\n%s\nverdict: %s\n", summary,
          doctor_holds(r) ? "all hold (exit 0)" : "some do not hold (exit 1)");
}

void doctor_write_json(const doctor_report *r, FILE *out) {
  fprintf(out, "{\"verdict\":\"%s\",\"exit_code\":%d,\"elapsed_ms\":%.1f,",
          doctor_holds(r) ? "hold" : "fail", doctor_holds(r) ? 0 : 1,
          (double)r->elapsed_ns / TS_NS_PER_MS);
  fprintf(out, "\"ok\":%d,\"warn\":%d,\"fail\":%d,\"skip\":%d,\"checks\":[", r->ok, r->warned,
          r->failed, r->skipped);
  for (int i = 0; i < r->count; i++) {
    const doctor_finding *f = &r->findings[i];
    if (i)
      fputc(',', out);
    doctor_json_check(out, f->check, doctor_status_name(f->status), f->measured, f->value,
                      f->advice, NULL);
  }
  fputs("]}\n", out);
}

void doctor_json_check(FILE *out, const char *check, const char *status, const char *measured,
                       double value, const char *advice, const char *checked_at) {
  fputc('{', out);
  ts_json_key(out, "check");
  ts_json_string(out, check);
  ts_json_string_member(out, "status", status);
  ts_json_string_member(out, "measured", measured);
  ts_json_number_member(out, "value", value, 10);
  ts_json_string_member(out, "advice", advice);
  if (checked_at)
    ts_json_string_member(out, "checked_at", checked_at);
  fputc('}', out);
}

void doctor_summary(const doctor_report *r, char *buf, size_t len) {
  char failed[160] = "";
  size_t used = 0;
  for (int i = 0; i < r->count && used < sizeof failed - 40; i++)
    if (r->findings[i].status == DOCTOR_FAIL)
      used += (size_t)snprintf(failed + used, sizeof failed - used, "%s%s", used ? ", " : " (",
                               r->findings[i].check);
  if (used)
    snprintf(failed + used, sizeof failed - used, ")");
  snprintf(buf, len,
           "machine checks: %d hold (%d with a warning), %d fail%s%s, %d skipped; %.0f ms",
           r->ok + r->warned, r->warned, r->failed, r->failed == 1 ? "s" : "", failed, r->skipped,
           (double)r->elapsed_ns / TS_NS_PER_MS);
}

int doctor_check_run(store *s, int64_t run_id, long load_tasks, char *note, size_t len,
                     ts_err *err) {
  doctor_report *r = malloc(sizeof *r);
  store_doctor_row *rows = calloc(DOCTOR_MAX_FINDINGS, sizeof *rows);
  if (!r || !rows) {
    free(r);
    free(rows);
    return ts_err_set(err, TS_ENOMEM, "no memory for the machine checks");
  }
  doctor_context ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.in_run = 1;
  ctx.machine_tasks = -1;
  ctx.load_tasks = load_tasks;
  doctor_run(&ctx, DOCTOR_CHEAP, DOCTOR_CLIENT, r);
  char at[32];
  plat_utc_timestamp(at, sizeof at);
  ts_buf text = ts_buf_on(note, len);
  char summary[256];
  doctor_summary(r, summary, sizeof summary);
  ts_buf_addf(&text, "%s", summary);
  for (int i = 0; i < r->count; i++) {
    const doctor_finding *f = &r->findings[i];
    snprintf(rows[i].check, sizeof rows[i].check, "%s", f->check);
    snprintf(rows[i].status, sizeof rows[i].status, "%s", doctor_status_name(f->status));
    snprintf(rows[i].measured, sizeof rows[i].measured, "%s", f->measured);
    snprintf(rows[i].advice, sizeof rows[i].advice, "%s", f->advice);
    snprintf(rows[i].checked_at, sizeof rows[i].checked_at, "%s", at);
    rows[i].value = f->value;
    if (f->status == DOCTOR_WARN || f->status == DOCTOR_FAIL)
      ts_buf_addf(&text, "\n  %s %s: %s; do: %s", doctor_status_name(f->status), f->check,
                  f->measured, f->advice);
  }
  int rc = store_doctor_save(s, run_id, rows, r->count, err);
  free(r);
  free(rows);
  return rc;
}
