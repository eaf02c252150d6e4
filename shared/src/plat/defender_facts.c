/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* defender_facts.c - the answer of quiet mode's Defender probe read into plat_defender_facts,
   written once beside the halves so that recorded Windows answers are tested on every build. */
#include <stdio.h>
#include <string.h>

#include "threadsoup/plat.h"

/* Security Center's names for Defender itself (Windows 10 and 11). */
static const char *const defender_names[] = {"Windows Defender", "Microsoft Defender Antivirus"};

static int ascii_equal_nocase(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    char x = (*a >= 'A' && *a <= 'Z') ? (char)(*a + 32) : *a;
    char y = (*b >= 'A' && *b <= 'Z') ? (char)(*b + 32) : *b;
    if (x != y)
      return 0;
  }
  return *a == *b;
}

/* "True" 1, "False" 0, anything else -1. */
static int truth(const char *v) {
  return ascii_equal_nocase(v, "True") ? 1 : ascii_equal_nocase(v, "False") ? 0 : -1;
}

static void add_antivirus(plat_defender_facts *out, const char *value) {
  char name[160];
  const char *bar = strrchr(value, '|');
  size_t n = bar ? (size_t)(bar - value) : strlen(value);
  snprintf(name, sizeof name, "%.*s", (int)n, value);
  long state = 0;
  /* productState: the byte 0x0000FF00 is the scanner's state; 0x10 there means enabled. */
  if (!bar || sscanf(bar + 1, "%ld", &state) != 1 || !(state & 0x1000) || !name[0])
    return;
  for (size_t i = 0; i < sizeof defender_names / sizeof defender_names[0]; i++)
    if (ascii_equal_nocase(name, defender_names[i]))
      return;
  size_t used = strlen(out->antivirus);
  snprintf(out->antivirus + used, sizeof out->antivirus - used, "%s%s", used ? ", " : "", name);
}

void plat_defender_facts_parse(const char *output, plat_defender_facts *out) {
  memset(out, 0, sizeof *out);
  out->realtime_on = out->tamper = -1;
  const char *line = output;
  while (line && *line) {
    size_t n = strcspn(line, "\r\n");
    char text[300];
    snprintf(text, sizeof text, "%.*s", (int)(n < sizeof text ? n : sizeof text - 1), line);
    char *eq = strchr(text, '=');
    if (eq) {
      *eq = '\0';
      const char *key = text, *value = eq + 1;
      if (strcmp(key, "realtime") == 0)
        out->realtime_on = truth(value);
      else if (strcmp(key, "tamper") == 0)
        out->tamper = truth(value);
      else if (strcmp(key, "mode") == 0)
        snprintf(out->running_mode, sizeof out->running_mode, "%s", value);
      else if (strcmp(key, "error") == 0)
        snprintf(out->error, sizeof out->error, "%s", value);
      else if (strcmp(key, "av") == 0)
        add_antivirus(out, value);
    }
    line += n;
    while (*line == '\r' || *line == '\n')
      line++;
  }
}
