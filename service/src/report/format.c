/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* format.c - the report's format primitives (report/format.h): CSV quoting, JSON arrays of rows,
   HTML escaping, the HTML page's style and palette, and the axes its SVG charts share. */
#include "format.h"

#include "threadsoup/json_write.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- CSV ------------------------------------------------------------------------------------ */

/* Whether text is a plain number ("-4.8", "+1e3"): a spreadsheet reads it as one, no formula. */
static int plain_number(const char *text) {
  char *end;
  if (strspn(text, "+-.0123456789eE") != strlen(text))
    return 0;
  strtod(text, &end);
  return end != text && *end == '\0';
}

/* A field goes through the printable filter (line breaks stay: RFC 4180 quotes them; other
   control characters, stray bytes and hidden characters are replaced), so a CSV shown in a
   terminal or opened in a spreadsheet acts on nothing in it. It is quoted only when it must be: a
   comma, a quote or a line break inside. Text that a spreadsheet would run as a formula (starting
   with = + - @) gets a leading apostrophe, which spreadsheets show as text; plain numbers stay
   numbers. (A tab or carriage return, which spreadsheets skip before a formula, is escaped.) */
void report_csv_field(FILE *out, const char *text) {
  int formula = strchr("=+-@", text[0]) != NULL && text[0] != '\0' && !plain_number(text);
  int quoted = strpbrk(text, ",\"\n") != NULL;
  if (quoted)
    fputc('"', out);
  if (formula)
    fputc('\'', out);
  char piece[TS_UTF8_PIECE_SIZE];
  for (size_t left = strlen(text), used; left > 0; text += used, left -= used) {
    used = ts_utf8_printable_piece(text, left, TS_UTF8_KEEP_NEWLINE, piece);
    if (quoted && piece[0] == '"')
      fputc('"', out);
    fputs(piece, out);
  }
  if (quoted)
    fputc('"', out);
}

/* Numbers that were not measured stay empty, not "nan", so spreadsheets read the column. */
void report_csv_number(FILE *out, double value) {
  if (isfinite(value))
    fprintf(out, "%.10g", value);
}

/* The comparison's numbers, NaN where the cell has none. */
static void comparison_values(const report_cell *cell, double v[9]) {
  int has = cell && cell->compared && cell->cmp.status == BLOCKED_OK;
  const blocked_result *c = has ? &cell->cmp : NULL;
  v[0] = has ? c->ci_low : NAN;
  v[1] = has ? c->ci_high : NAN;
  v[2] = has ? c->confidence : NAN;
  v[3] = has ? c->eq_low : NAN;
  v[4] = has ? c->eq_high : NAN;
  v[5] = has ? c->p : NAN;
  v[6] = has ? cell->p_holm : NAN;
  v[7] = has ? (double)c->pairs : NAN;
  v[8] = has ? cell->variance_ratio : NAN;
}

void report_csv_comparison(FILE *out, const report_cell *cell) {
  double v[9];
  comparison_values(cell, v);
  for (int i = 0; i < 7; i++) {
    fputc(',', out);
    report_csv_number(out, v[i]);
  }
  fputc(',', out);
  if (isfinite(v[0]))
    fputs(cell->cmp.paired ? "yes" : "no", out);
  fputc(',', out);
  report_csv_number(out, v[7]);
  fputc(',', out);
  report_csv_number(out, v[8]);
}

void report_json_comparison(FILE *out, const report_cell *cell) {
  double v[9];
  comparison_values(cell, v);
  fputs(",\"ci\":", out);
  ts_json_range(out, isfinite(v[0]), v[0], v[1], REPORT_JSON_DIGITS);
  ts_json_number_member(out, "ci_confidence", v[2], REPORT_JSON_DIGITS);
  fputs(",\"equivalence_interval\":", out);
  ts_json_range(out, isfinite(v[3]), v[3], v[4], REPORT_JSON_DIGITS);
  ts_json_number_member(out, "p", v[5], REPORT_JSON_DIGITS);
  ts_json_number_member(out, "p_holm", v[6], REPORT_JSON_DIGITS);
  fprintf(out, ",\"paired\":%s", !isfinite(v[0]) ? "null" : cell->cmp.paired ? "true" : "false");
  ts_json_number_member(out, "pairs", v[7], REPORT_JSON_DIGITS);
  ts_json_number_member(out, "variance_ratio", v[8], REPORT_JSON_DIGITS);
}

void report_json_drift(FILE *out, const drift_trend *d) {
  int ok = d && d->status == DRIFT_OK;
  ts_json_number_member(out, "baseline_drift_percent", ok ? d->change_percent : NAN,
                        REPORT_JSON_DIGITS);
  fputs(",\"baseline_drift_ci\":", out);
  ts_json_range(out, ok, ok ? d->change_low : NAN, ok ? d->change_high : NAN, REPORT_JSON_DIGITS);
  fprintf(out, ",\"baseline_drift_flagged\":%s", ok && d->flagged ? "true" : "false");
}

void report_json_array(FILE *out, report_json_layout layout, int count,
                       report_json_element *element, const report_data *r, const void *prepared) {
  const char *first = layout == REPORT_JSON_LINES ? "\n " : "";
  const char *next = layout == REPORT_JSON_LINES ? ",\n " : ",";
  fputc('[', out);
  for (int i = 0; i < count; i++) {
    fputs(i ? next : first, out);
    element(r, prepared, i, out);
  }
  fputc(']', out);
}

void report_csv_names(FILE *out, const char *const *names, size_t count) {
  for (size_t i = 0; i < count; i++)
    fprintf(out, "%s%s", i ? "," : "", names[i]);
}

/* ---- HTML ----------------------------------------------------------------------------------- */

/* Condition names, plan names and host names come from users: every text is escaped. A byte
   that is not UTF-8 (stored before names were checked) and a control character other than tab
   and line break, which HTML text may not hold, become U+FFFD; a hidden character (bidi control,
   zero-width, U+2028) is shown by name, as the printable filter writes it. */
void report_html_text(FILE *out, const char *text) {
  const unsigned char *p = (const unsigned char *)text;
  size_t left = strlen(text);
  while (left > 0) {
    size_t len = ts_utf8_char(p, left);
    if (len == 0 || (len == 1 && ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f)) ||
        (len == 2 && p[0] == 0xC2 && p[1] < 0xA0))
      fputs("&#xFFFD;", out);
    else if (len > 1 && ts_utf8_hidden(ts_utf8_decode(p, len)))
      fprintf(out, "&lt;U+%04" PRIX32 "&gt;", ts_utf8_decode(p, len));
    else if (len > 1)
      fwrite(p, 1, len, out);
    else if (*p == '&')
      fputs("&amp;", out);
    else if (*p == '<')
      fputs("&lt;", out);
    else if (*p == '>')
      fputs("&gt;", out);
    else if (*p == '"')
      fputs("&quot;", out);
    else if (*p == '\'')
      fputs("&#39;", out);
    else
      fputc(*p, out);
    len = len ? len : 1;
    p += len;
    left -= len;
  }
}

void report_html_name(FILE *out, const char *text) {
  fputs("<bdi>", out);
  report_html_text(out, text);
  fputs("</bdi>", out);
}

/* Okabe-Ito colours, told apart by colour-blind readers too. */
static const char *const palette[] = {"#0072b2", "#e69f00", "#009e73", "#cc79a7",
                                      "#d55e00", "#56b4e9", "#882255", "#999933"};

const char *report_html_palette(int k) {
  return palette[k % (int)(sizeof palette / sizeof palette[0])];
}

const char *report_html_verdict_class(int compared, stats_verdict verdict) {
  if (!compared)
    return "ref";
  switch (verdict) {
  case STATS_SLOWER:
    return "slower";
  case STATS_FASTER:
    return "faster";
  case STATS_NO_EFFECT:
    return "same";
  default:
    return "unsure";
  }
}

static const char style[] =
    "<style>\n"
    ":root{color-scheme:light}\n"
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1a1a1a;"
    "background:#fff;margin:0 auto;max-width:1100px;padding:16px 20px}\n"
    "h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin:1.6em 0 .4em;"
    "border-bottom:2px solid #ddd;padding-bottom:.2em}h3{font-size:1em;margin:1.2em 0 .3em}\n"
    "dl.run{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:.6em 0}\n"
    "dl.run dt{font-weight:600;color:#555}dl.run dd{margin:0;overflow-wrap:anywhere}\n"
    ".wrap{overflow-x:auto}\n"
    "table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:.92em}\n"
    "th,td{padding:4px 8px;border-bottom:1px solid #e3e3e3;text-align:right;white-space:nowrap}\n"
    "th{background:#f4f4f4;font-weight:600}\n"
    "td.cond,th.cond{text-align:left;white-space:normal;overflow-wrap:anywhere;max-width:22em}\n"
    "table.prose{width:100%}table.prose td{text-align:left;white-space:normal;"
    "overflow-wrap:anywhere}table.prose th{text-align:left}table.prose td:first-child{"
    "white-space:nowrap}\n"
    "p.headline{font-size:1.05em;margin:.6em 0;overflow-wrap:anywhere}\n"
    ".swatch{display:inline-block;width:.8em;height:.8em;border-radius:50%;margin-right:.4em;"
    "vertical-align:-.05em}\n"
    ".verdict{font-weight:600}.slower{color:#b00020}.faster{color:#1b7f3a}"
    ".same{color:#555}.unsure{color:#8a6100}.ref{color:#555;font-weight:400}\n"
    "ul.verdicts{padding-left:1.2em;margin:.5em 0}ul.verdicts li{margin:.15em 0}\n"
    ".note{color:#555;font-size:.92em}.warn{color:#b00020}\n"
    "figure{margin:1em 0}figcaption{font-size:.9em;color:#444;margin-bottom:.3em}\n"
    "svg{width:100%;height:auto;max-width:760px;display:block}\n"
    "svg text{font:12px system-ui,sans-serif;fill:#333}\n"
    ".legend{list-style:none;padding:0;margin:.3em 0;display:flex;flex-wrap:wrap;gap:4px 16px;"
    "font-size:.9em}\n"
    "@media (max-width:640px){body{padding:10px;font-size:14px}th,td{padding:3px 5px}}\n"
    "@media print{body{max-width:none;padding:0;font-size:10pt}section.bench{break-inside:avoid}"
    "figure{break-inside:avoid}.wrap{overflow:visible}a{color:inherit}}\n"
    "</style>\n";

void report_html_style(FILE *out) { fputs(style, out); }

/* A round step for about `count` ticks over `span`: 1, 2 or 5 times a power of ten. */
double report_html_step(double span, int count) {
  if (!isfinite(span) || !(span > 0) || count < 1)
    return 0;
  double raw = span / count;
  double power = pow(10, floor(log10(raw)));
  double f = raw / power;
  return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * power;
}

double report_chart_clamp(double v, double limit) {
  return v > limit ? limit : v < -limit ? -limit : v;
}

/* A name cut to fit a chart's label column (the full name is in the table). */
void report_html_short_label(FILE *out, const char *name) {
  char buf[40];
  size_t len = strlen(name);
  if (len < 28) {
    report_html_text(out, name);
    return;
  }
  /* Cut on a character boundary so the UTF-8 stays valid. */
  size_t cut = 25;
  while (cut > 0 && ((unsigned char)name[cut] & 0xC0) == 0x80)
    cut--;
  memcpy(buf, name, cut);
  buf[cut] = '\0';
  report_html_text(out, buf);
  fputs("&#8230;", out);
}

/* The x axis of a chart of % differences from -range to +range between x = left and right: a
   grid line every step from top to bottom (the zero line darker) and its label under bottom. */
void report_html_percent_axis(FILE *out, double range, double step, double left, double right,
                              double top, double bottom) {
#define X_OF(v) (left + ((v) + range) / (2 * range) * (right - left))
  if (!(step > 0) || !isfinite(range) || !(range > 0))
    return;
  for (int tick = 0; tick <= REPORT_CHART_TICKS_MAX; tick++) {
    double v = -range + tick * step;
    if (v > range + step / 2)
      break;
    double x = X_OF(v);
    int zero = fabs(v) < step / 2;
    fprintf(out,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
            "stroke-width=\"%s\"/>\n",
            x, top, x, bottom, zero ? "#222" : "#ddd", zero ? "1.5" : "1");
    if (zero)
      fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">0</text>\n", x, bottom + 18);
    else
      fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%+.*f %%</text>\n", x,
              bottom + 18, step < 1 ? (step < 0.1 ? 2 : 1) : 0, v);
  }
#undef X_OF
}
