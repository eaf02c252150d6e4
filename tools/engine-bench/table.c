/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* table.c - gathers every measured figure and prints them at the end as one table with totals. */
#include "engine_bench.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define TABLE_MAX 160

/* A section title, a note or a row; kept until the end so progress output does not split it. */
typedef struct table_line {
  enum { LINE_SECTION, LINE_NOTE, LINE_ROW } kind;
  char measure[200];
  char engine[24], floor[24], target[32];
  double ratio;
  int verdict;
} table_line;

static table_line table_lines[TABLE_MAX];
static int table_count;

static table_line *table_add(int kind) {
  if (table_count == TABLE_MAX)
    return NULL; /* the table is far larger than the rows we make; drop rather than overflow */
  table_line *line = &table_lines[table_count++];
  memset(line, 0, sizeof *line);
  line->kind = kind;
  return line;
}

void table_section(const char *title) {
  table_line *line = table_add(LINE_SECTION);
  if (line)
    snprintf(line->measure, sizeof line->measure, "%s", title);
}

void table_row(const char *measure, const char *engine, const char *floor, double ratio,
               const char *target, int verdict) {
  table_line *line = table_add(LINE_ROW);
  if (!line)
    return;
  snprintf(line->measure, sizeof line->measure, "%s", measure);
  snprintf(line->engine, sizeof line->engine, "%s", engine);
  snprintf(line->floor, sizeof line->floor, "%s", floor);
  snprintf(line->target, sizeof line->target, "%s", target);
  line->ratio = ratio;
  line->verdict = verdict;
}

void table_note(const char *fmt, ...) {
  table_line *line = table_add(LINE_NOTE);
  if (!line)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line->measure, sizeof line->measure, fmt, ap);
  va_end(ap);
}

void progress(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "bench: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
}

int table_print(double elapsed_s) {
  static const char rule[] = "-------------------------------------------------------------------"
                             "-----------------------------------------------------";
  int ok = 0, missed = 0, info = 0;
  printf("\n%-50s %13s %13s %7s %-18s %s\n", "measure", "engine", "floor", "ratio", "target",
         "verdict");
  printf("%.*s\n", 112, rule);
  for (int i = 0; i < table_count; i++) {
    const table_line *l = &table_lines[i];
    if (l->kind == LINE_SECTION) {
      printf("%s%s\n", i ? "\n" : "", l->measure);
      continue;
    }
    if (l->kind == LINE_NOTE) {
      printf("    note: %s\n", l->measure);
      continue;
    }
    char ratio[16] = "-";
    if (l->ratio >= 0)
      snprintf(ratio, sizeof ratio, "%.3f", l->ratio);
    const char *verdict = l->verdict == VERDICT_OK       ? "OK"
                          : l->verdict == VERDICT_MISSED ? "MISSED"
                                                         : "info";
    ok += l->verdict == VERDICT_OK;
    missed += l->verdict == VERDICT_MISSED;
    info += l->verdict == VERDICT_INFO;
    printf("  %-48s %13s %13s %7s %-18s %s\n", l->measure, l->engine, l->floor, ratio, l->target,
           verdict);
  }
  printf("%.*s\n", 112, rule);
  printf("totals: %d targets, %d OK, %d MISSED; %d informational rows; %.0f s in all\n",
         ok + missed, ok, missed, info, elapsed_s);
  fflush(stdout);
  return missed;
}
