/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* sevenzip.h - the parser of `7z b` output, apart from the benchmark so that tests can feed it
   recorded output without running 7-Zip. */
#ifndef THREADSOUP_BENCH_SEVENZIP_H
#define THREADSOUP_BENCH_SEVENZIP_H

#include "bench.h"

/* Reads the benchmark report of 7-Zip (16.02 to 26.x, Linux or Windows line ends): the score is
   the third number of the last line starting with "Tot:" (the mean of the compression and
   decompression ratings, in MIPS); the sub-scores are the two ratings of the last "Avr:" line
   ("compress_mips", "decompress_mips") and the first number of the "Tot:" line
   ("usage_percent"). out->seconds is left at 0. Unreadable output is TS_EBENCH naming the line. */
int sevenzip_parse(const char *output, bench_result *out, ts_err *err);

#endif
