/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* sections.c - every section of the reports, in the text report's order, with its place in each
   format (report/section.h); adding a section is its file plus one line in REPORT_SECTIONS. */
#include "section.h"

/* clang-format off */
/* One line a section: its name (its file defines report_section_NAME) and its place in each
   format, text csv json html. */
#define REPORT_SECTIONS(X)        \
    X(header,      1,  0,  1,  1) \
    X(headline,    2,  0,  0,  2) \
    X(benchmarks,  3,  3,  5,  4) \
    X(freeze,      4,  4,  6,  5) \
    X(census,      5,  2,  4,  6) \
    X(cost,        6,  5,  2,  7) \
    X(calibration, 7,  6,  7,  8) \
    X(timers,      8,  0,  0,  10) \
    X(time,        9,  7,  9,  11) \
    X(counts,      10, 0,  0,  3) \
    X(checks,      11, 0,  8,  9) \
    X(placement,   12, 0,  0,  12) \
    X(plan,        0,  0,  3,  13) \
    X(trials,      0,  1,  10, 0)

#define DECLARE_SECTION(name, text, csv, json, html) extern const report_section report_section_##name;
REPORT_SECTIONS(DECLARE_SECTION)

#define PLACE_SECTION(name, text, csv, json, html) {&report_section_##name, {text, csv, json, html}},
const report_section_place report_sections[] = {REPORT_SECTIONS(PLACE_SECTION)};
/* clang-format on */

const int report_section_count = (int)(sizeof report_sections / sizeof report_sections[0]);
