/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* counts.c - the report's trial counts section: how many trials are pending, failed or kept a
   warning, when any did (the JSON report has them in its "run" member). */
#include "section.h"

/* The sentence; 0 when every trial is done without a warning (nothing to say). */
static int counts_sentence(const report_data *r, char *buf, size_t len) {
  if (!r->pending && !r->failed && !r->warnings)
    return 0;
  snprintf(buf, len, "%d trial(s) pending, %d failed, %d with warnings (a skipped quiet gate).",
           r->pending, r->failed, r->warnings);
  return 1;
}

static void write_text(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  char sentence[160];
  if (counts_sentence(r, sentence, sizeof sentence))
    fprintf(out, "\n%s\n", sentence);
}

static void write_html(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  char sentence[160];
  if (counts_sentence(r, sentence, sizeof sentence))
    fprintf(out, "<p class=\"note\">%s</p>\n", sentence);
}

const report_section report_section_counts = {
    "counts", NULL, NULL, {write_text, NULL, NULL, write_html}};
