/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* machine_id.c - ThreadSoup's own identity for a machine, derived from the OS's machine id so
   that runs exported from one PC group together wherever they are imported. */
#include "threadsoup/plat.h"
#include "threadsoup/sha256.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Fixed and ThreadSoup's own: the same machine gets another id in every other product. */
static const char MACHINE_ID_KEY[] = "ThreadSoup machine id v1";

void plat_machine_id_derive(const char *os_id, char *out, size_t len) {
  char id[128];
  size_t n = 0;
  if (len)
    out[0] = '\0';
  for (const char *p = os_id ? os_id : ""; *p && n + 1 < sizeof id; p++)
    if (!isspace((unsigned char)*p))
      id[n++] = (char)tolower((unsigned char)*p);
  id[n] = '\0';
  if (n == 0 || len < 33)
    return;
  uint8_t mac[TS_SHA256_SIZE];
  ts_hmac_sha256(MACHINE_ID_KEY, strlen(MACHINE_ID_KEY), id, n, mac);
  for (int i = 0; i < 16; i++)
    snprintf(out + 2 * i, 3, "%02x", mac[i]);
}
