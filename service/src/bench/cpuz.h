/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* cpuz.h - the parser of CPU-Z's benchmark result file, apart from the benchmark so that tests can
   feed it a recorded file on any system. */
#ifndef THREADSOUP_BENCH_CPUZ_H
#define THREADSOUP_BENCH_CPUZ_H

#include "bench.h"

/* Reads the file `cpuz.exe -bench` writes (named after the computer, e.g. DESKTOP-1.txt): its
   last line holding two numbers separated by a comma, usually quoted, "single","multi" (a decimal
   comma inside quotes is accepted too). `multi` picks the multi-thread score as the score; the
   other becomes the sub-score "single_thread" or "multi_thread". out->seconds is left at 0. */
int cpuz_parse(const char *text, int multi, bench_result *out, ts_err *err);

#endif
