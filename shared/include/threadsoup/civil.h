/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* civil.h - calendar dates and Unix days without the C library: no time zone, no thread-unsafe
   gmtime, no timegm (MinGW has none). H. Hinnant's algorithms. */
#ifndef THREADSOUP_CIVIL_H
#define THREADSOUP_CIVIL_H

#include <stdint.h>

/* Days since 1970-01-01 of year y, month m (1-12), day d (1-31). */
int64_t civil_to_days(int64_t y, int m, int d);
/* The civil date of day z since 1970-01-01 (z may be negative). */
void civil_from_days(int64_t z, int64_t *y, int *m, int *d);

#endif
