/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_machine_id.c - SHA-256 and HMAC-SHA-256 give the published test vectors, the machine id is
   the HMAC of the OS's id that Python's hmac module computes, and the machine read here has one
   (where the OS has an id) and its physical memory. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "threadsoup/plat.h"
#include "threadsoup/sha256.h"

static void hex(const uint8_t *bytes, size_t n, char *out) {
  for (size_t i = 0; i < n; i++)
    snprintf(out + 2 * i, 3, "%02x", bytes[i]);
}

static void sha256_hex(const void *data, size_t len, char out[65]) {
  uint8_t digest[TS_SHA256_SIZE];
  ts_sha256 h;
  ts_sha256_init(&h);
  /* In odd pieces, so that block boundaries fall inside updates. */
  const char *p = data;
  for (size_t done = 0; done < len;) {
    size_t piece = len - done < 7 ? len - done : 7;
    ts_sha256_update(&h, p + done, piece);
    done += piece;
  }
  ts_sha256_final(&h, digest);
  hex(digest, sizeof digest, out);
}

/* FIPS 180-4's examples and the empty message. */
static void sha256_vectors(void) {
  char got[65];
  sha256_hex("", 0, got);
  CHECK_STR_EQ(got, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  sha256_hex("abc", 3, got);
  CHECK_STR_EQ(got, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const char *two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  sha256_hex(two_blocks, strlen(two_blocks), got);
  CHECK_STR_EQ(got, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  char thousand[1000];
  memset(thousand, 'a', sizeof thousand);
  sha256_hex(thousand, sizeof thousand, got);
  CHECK_STR_EQ(got, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

/* RFC 4231's test cases 2 (short key) and 6 (a key longer than a block, hashed first). */
static void hmac_vectors(void) {
  uint8_t mac[TS_SHA256_SIZE];
  char got[65];
  const char *data = "what do ya want for nothing?";
  ts_hmac_sha256("Jefe", 4, data, strlen(data), mac);
  hex(mac, sizeof mac, got);
  CHECK_STR_EQ(got, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  uint8_t long_key[131];
  memset(long_key, 0xaa, sizeof long_key);
  const char *big = "Test Using Larger Than Block-Size Key - Hash Key First";
  ts_hmac_sha256(long_key, sizeof long_key, big, strlen(big), mac);
  hex(mac, sizeof mac, got);
  CHECK_STR_EQ(got, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

/* The id is the first 16 bytes of HMAC-SHA-256 under ThreadSoup's key (Python:
   hmac.new(b'ThreadSoup machine id v1', id, hashlib.sha256).hexdigest()[:32]); case and white space
   do not matter. */
static void machine_id_is_the_keyed_hash(void) {
  char id[40], again[40];
  plat_machine_id_derive("0123456789abcdef0123456789abcdef\n", id, sizeof id);
  CHECK_STR_EQ(id, "4a6c8d77e0d342e5537794a28f1775c8");
  plat_machine_id_derive(" 0123456789ABCDEF0123456789ABCDEF", again, sizeof again);
  CHECK_STR_EQ(again, id);
  plat_machine_id_derive("0123456789abcdef0123456789abcdee", again, sizeof again);
  CHECK(strcmp(again, id) != 0);
  plat_machine_id_derive(" \n", again, sizeof again);
  CHECK_STR_EQ(again, "");
  plat_machine_id_derive(NULL, again, sizeof again);
  CHECK_STR_EQ(again, "");
}

/* This machine: an id when the OS keeps one (never the OS's id itself), and its memory. */
static void this_machine(void) {
  plat_sysinfo sys;
  plat_sysinfo_read(&sys);
  printf("  machine id %s, memory %llu bytes\n", sys.machine_id[0] ? sys.machine_id : "(none)",
         (unsigned long long)sys.memory_bytes);
  CHECK(sys.memory_bytes > 64ull * 1024 * 1024);
#ifndef _WIN32
  char os_id[128] = "";
  FILE *f = fopen("/etc/machine-id", "r");
  if (!f)
    f = fopen("/var/lib/dbus/machine-id", "r");
  if (f) {
    if (!fgets(os_id, sizeof os_id, f))
      os_id[0] = '\0';
    fclose(f);
  }
  char expected[40];
  plat_machine_id_derive(os_id, expected, sizeof expected);
  CHECK_STR_EQ(sys.machine_id, expected);
  if (os_id[0])
    CHECK(strncmp(sys.machine_id, os_id, 8) != 0);
#endif
  if (sys.machine_id[0])
    CHECK_INT(strlen(sys.machine_id), 32);
}

int main(void) {
  RUN_CASE(sha256_vectors);
  RUN_CASE(hmac_vectors);
  RUN_CASE(machine_id_is_the_keyed_hash);
  RUN_CASE(this_machine);
  return check_summary();
}
