/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* sha256.h - SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), for identities derived from
   secrets that must not leave the machine themselves (the OS's machine id). */
#ifndef THREADSOUP_SHA256_H
#define THREADSOUP_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define TS_SHA256_SIZE 32

typedef struct ts_sha256 {
  uint32_t state[8];
  uint64_t length; /* bytes hashed so far */
  uint8_t block[64];
  size_t used; /* bytes of block filled */
} ts_sha256;

void ts_sha256_init(ts_sha256 *h);
void ts_sha256_update(ts_sha256 *h, const void *data, size_t len);
void ts_sha256_final(ts_sha256 *h, uint8_t out[TS_SHA256_SIZE]);
/* HMAC-SHA-256 of data under key. */
void ts_hmac_sha256(const void *key, size_t key_len, const void *data, size_t len,
                    uint8_t out[TS_SHA256_SIZE]);

#endif
