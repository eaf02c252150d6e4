/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* headline.h - a run's one-line headline, e.g. "15,000 sleepers: builtin-st −4.8 % (98.3 % CI
   −5.4 to −4.2 %), slower; p 0.0004, Holm 0.0012, paired, variance ratio 1.10" (the interval that
   decided, at its Holm level): the compared cell with the largest effect whose verdict is slower
   or faster, else the compared cell of the condition with the most threads. */
#ifndef THREADSOUP_REPORT_HEADLINE_H
#define THREADSOUP_REPORT_HEADLINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "data.h"

/* The cell the headline speaks of (indexes into r->benches and r->conditions); 0 when no cell is
   compared. r needs REPORT_WITH_STATS. */
int report_headline_pick(const report_data *r, int *bench, int *condition);
/* The headline in UTF-8, through the printable filter (utf8.h: a stored name's control and bidi
   characters escaped); "no condition compared with baseline" when there is nothing to say. */
void report_headline(const report_data *r, char *buf, size_t len);
/* Reads run_id's statistics from the database and writes its headline. */
int report_headline_load(store *s, int64_t run_id, char *buf, size_t len, ts_err *err);

#endif
