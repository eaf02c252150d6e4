/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* sections.c - every section of the reports, in the text report's order, with its place in each
   format (report/section.h); adding a section is its file plus one line here. */
#include "section.h"

/* clang-format off */
const report_section_place report_sections[] = {
    /* section                      text csv json html */
    {&report_section_header,      {1,  0,  1,  1}},
    {&report_section_headline,    {2,  0,  0,  0}},
    {&report_section_benchmarks,  {3,  0,  5,  3}},
    {&report_section_census,      {4,  2,  4,  4}},
    {&report_section_cost,        {5,  0,  2,  5}},
    {&report_section_calibration, {6,  0,  6,  6}},
    {&report_section_timers,      {7,  0,  0,  8}},
    {&report_section_counts,      {8,  0,  0,  2}},
    {&report_section_checks,      {9,  0,  7,  7}},
    {&report_section_placement,   {10, 0,  0,  9}},
    {&report_section_plan,        {0,  0,  3,  10}},
    {&report_section_trials,      {0,  1,  8,  0}},
};
/* clang-format on */

const int report_section_count = (int)(sizeof report_sections / sizeof report_sections[0]);
