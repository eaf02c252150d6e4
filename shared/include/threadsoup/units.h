/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* units.h - every duration in ThreadSoup is a uint64_t count of nanoseconds; these name the
   factors, so that 250 * TS_NS_PER_MS reads as what it is and no power of ten is miscounted. */
#ifndef THREADSOUP_UNITS_H
#define THREADSOUP_UNITS_H

#define TS_NS_PER_US 1000ull
#define TS_NS_PER_MS 1000000ull
#define TS_NS_PER_S 1000000000ull
#define TS_NS_PER_MIN (60ull * TS_NS_PER_S)
#define TS_NS_PER_HOUR (3600ull * TS_NS_PER_S)
#define TS_NS_PER_DAY (86400ull * TS_NS_PER_S)

#endif
