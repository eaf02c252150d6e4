/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_proto.c - the control protocol: messages survive encode and decode unchanged, every kind
   of malformed input is refused with a reason, and random or mutated bytes never crash it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "threadsoup/proto.h"
#include "threadsoup/rng.h"

static proto_message a, b;
static char wire[PROTO_MAX_MESSAGE + 1024];

static void round_trip(void) {
  ts_err err;
  size_t n = 0, used = 0;
  proto_init(&a, PROTO_REQUEST, "load-start");
  CHECK_INT(proto_add(&a, "spec", "sleep:500@500ms", &err), TS_OK);
  CHECK_INT(proto_add(&a, "note", "two\nlines with \\ and\ttab and ünïcödé", &err), TS_OK);
  CHECK_INT(proto_add(&a, "empty", "", &err), TS_OK);
  CHECK_INT(proto_add(&a, "run", "1", &err), TS_OK);
  CHECK_INT(proto_add(&a, "run", "2", &err), TS_OK);
  CHECK_INT(proto_encode(&a, wire, sizeof wire, &n, &err), TS_OK);
  static const char head[] = "TS1 request load-start\nspec: sleep:500@500ms\n";
  CHECK(memcmp(wire, head, sizeof head - 1) == 0);
  CHECK_INT(proto_decode(wire, n, &used, &b, &err), TS_OK);
  CHECK_INT(used, n);
  CHECK_INT(b.kind, PROTO_REQUEST);
  CHECK_STR_CONTAINS(b.verb, "load-start");
  CHECK_INT(b.field_count, 5);
  CHECK(strcmp(proto_get(&b, "note"), "two\nlines with \\ and\ttab and ünïcödé") == 0);
  CHECK(strcmp(proto_get(&b, "empty"), "") == 0);
  CHECK(strcmp(proto_value(&b, 4), "2") == 0);
  CHECK(proto_get(&b, "missing") == NULL);
}

static void partial_then_complete(void) {
  ts_err err;
  size_t n = 0, used = 99;
  proto_init(&a, PROTO_EVENT, "trial-done");
  proto_add(&a, "done", "3", &err);
  proto_encode(&a, wire, sizeof wire, &n, &err);
  for (size_t cut = 0; cut < n; cut++) {
    CHECK_INT(proto_decode(wire, cut, &used, &b, &err), TS_OK);
    CHECK_INT(used, 0);
  }
  /* Two messages back to back: the first is taken, the rest left for the next call. */
  memcpy(wire + n, wire, n);
  CHECK_INT(proto_decode(wire, 2 * n, &used, &b, &err), TS_OK);
  CHECK_INT(used, n);
}

static void malformed_refused(void) {
  static const struct {
    const char *text;
    const char *says;
  } bad[] = {
      {"HTTP/1.1 GET /\n\n", "is not \"TS1 KIND VERB\""},
      {"TS2 request status\n\n", "protocol version 2"},
      {"TS1 shout status\n\n", "kind 'shout'"},
      {"TS1 request Status\n\n", "is not a verb"},
      {"TS1 request status extra\n\n", "extra text"},
      {"TS1 request status\nno colon here\n\n", "line 2 is not \"key: value\""},
      {"TS1 request status\nKey: v\n\n", "line 2: 'Key' is not a field name"},
      {"TS1 request status\nk: bad \\q escape\n\n", "unknown escape"},
      {"TS1 request status\nk: ends \\\n\n", "lone backslash"},
      {"TS1 request status\nk: \xff\xfe\n\n", "not UTF-8"},
      /* Lead bytes F5-FF start no character, even with continuation bytes after them. */
      {"TS1 request record\nbench: \xff\x80\x80\n\n", "field 'bench': the value is not UTF-8"},
      {"TS1 request record\nbench: a\xf5\x80\x80\x80\n\n", "not UTF-8 text (byte 2)"},
      {"TS1 request status\nk: \xf8\x88\x80\x80\x80\n\n", "not UTF-8"},
      {"TS1 request status\nk: \x01\n\n", "control character"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ts_err err;
    size_t used = 0;
    err.text[0] = '\0';
    CHECK_INT(proto_decode(bad[i].text, strlen(bad[i].text), &used, &b, &err), TS_EINVAL);
    CHECK_STR_CONTAINS(err.text, bad[i].says);
  }
  /* Endless input without an end of message is refused once it passes the limit. */
  char *big = malloc(PROTO_MAX_MESSAGE + 10);
  memcpy(big, "TS1 request status\nk: ", 22);
  memset(big + 22, 'x', PROTO_MAX_MESSAGE + 10 - 22);
  ts_err err;
  size_t used = 0;
  CHECK_INT(proto_decode(big, PROTO_MAX_MESSAGE + 10, &used, &b, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "no end of message");
  free(big);
  /* Too many fields. */
  proto_init(&a, PROTO_OK, "history");
  int rc = TS_OK;
  for (int i = 0; i <= PROTO_MAX_FIELDS && rc == TS_OK; i++)
    rc = proto_add(&a, "run", "x", &err);
  CHECK_INT(rc, TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "more than 256 fields");
  CHECK_INT(proto_add(&a, "Bad_Key", "x", &err), TS_EINVAL);
}

static void random_and_mutated_input_never_crashes(void) {
  ts_err err;
  size_t n = 0;
  uint64_t seed = 42;
  proto_init(&a, PROTO_REQUEST, "run-start");
  proto_add(&a, "plan", "conditions = baseline, sleep:5000\nreps = 3\n", &err);
  proto_add(&a, "db", "C:\\ProgramData\\ThreadSoup\\threadsoup.db", &err);
  proto_encode(&a, wire, sizeof wire, &n, &err);
  static char buf[4096];
  int accepted = 0, refused = 0, incomplete = 0;
  for (int round = 0; round < 20000; round++) {
    size_t len = n;
    memcpy(buf, wire, n);
    if (round % 2) {
      int flips = 1 + (int)(ts_splitmix64(&seed) % 8);
      for (int f = 0; f < flips; f++)
        buf[ts_splitmix64(&seed) % len] = (char)ts_splitmix64(&seed);
    } else {
      len = ts_splitmix64(&seed) % sizeof buf;
      for (size_t i = 0; i < len; i++)
        buf[i] = ts_splitmix64(&seed) % 4 ? "TS1 ok:\n\\a\xc3"[ts_splitmix64(&seed) % 12]
                                          : (char)ts_splitmix64(&seed);
    }
    size_t used = 0;
    int rc = proto_decode(buf, len, &used, &b, &err);
    if (rc != TS_OK)
      refused++;
    else if (used == 0)
      incomplete++;
    else
      accepted++;
    CHECK(used <= len);
  }
  fprintf(stderr, "  20000 inputs: %d accepted, %d refused, %d incomplete\n", accepted, refused,
          incomplete);
  CHECK(refused > 1000);
}

/* Error codes travel by the protocol's names from the one table in err.h: each code has a name,
   each name comes back as a code with that name, and "usage" is a usage error (exit code 2). */
/* A sender that dribbles one byte at a time: the decoder goes on where its last search stopped,
   so every byte is searched once (the whole buffer used to be searched again on every read:
   quadratic, seconds of CPU for one 60 KiB message). Proved by planting an end of message in the
   part already searched: a decoder that searched it again would find it. */
static void byte_at_a_time_scans_each_byte_once(void) {
  ts_err err;
  size_t n = 0, consumed = 0, scanned = 0;
  proto_init(&a, PROTO_REQUEST, "status");
  static char big[30000];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  CHECK_INT(proto_add(&a, "pad", big, &err), TS_OK);
  CHECK_INT(proto_encode(&a, wire, sizeof wire, &n, &err), TS_OK);
  size_t work = 0, calls = 0;
  for (size_t len = 1; len <= n; len++) {
    size_t before = scanned;
    CHECK_INT(proto_decode_resume(wire, len, &scanned, &consumed, &b, &err), TS_OK);
    calls++;
    if (consumed) {
      work += len - (before ? before : 1) + 1;
      CHECK_INT(len, n);
      break;
    }
    CHECK_INT(scanned, len);
    work += len - before;
  }
  CHECK_INT(consumed, n);
  CHECK_INT(scanned, 0);
  CHECK_STR_CONTAINS(proto_get(&b, "pad"), "xxxx");
  fprintf(stderr, "  %zu bytes one at a time: %zu decode calls, %zu bytes searched\n", n, calls,
          work);
  CHECK(work <= n + 1);

  /* The search resumes at *scanned: an end planted before it is not searched again. */
  static const char planted[] = "TS1 request status\n\nTS1 request hello\nversion: 1\n";
  scanned = 25; /* past the first message's "\n\n" */
  CHECK_INT(proto_decode_resume(planted, sizeof planted - 1, &scanned, &consumed, &b, &err), TS_OK);
  CHECK_INT(consumed, 0);
  CHECK_INT(scanned, sizeof planted - 1);
  /* The pair straddling two reads is found: the last byte searched is looked at again. */
  static const char straddle[] = "TS1 request status\n\n";
  scanned = sizeof straddle - 2; /* the first '\n' was the last byte of the previous read */
  CHECK_INT(proto_decode_resume(straddle, sizeof straddle - 1, &scanned, &consumed, &b, &err),
            TS_OK);
  CHECK_INT(consumed, sizeof straddle - 1);
  CHECK_STR_CONTAINS(b.verb, "status");
}

static void error_codes_have_protocol_names(void) {
  static const int codes[] = {TS_EUSAGE,       TS_EINVAL,      TS_ENOMEM,    TS_EOS,
                              TS_ESTORE,       TS_EFOREIGN_DB, TS_ENEWER_DB, TS_EUNSUPPORTED,
                              TS_EINTERRUPTED, TS_EBENCH,      TS_EBUSY,     TS_EDENIED,
                              TS_EMALFORMED,   TS_EVERSION,    TS_EFAILED};
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
    const char *name = ts_code_wire_name(codes[i]);
    CHECK(name && *name);
    CHECK(strcmp(ts_code_name(codes[i]), "UNKNOWN") != 0);
    CHECK_STR_CONTAINS(ts_code_wire_name(ts_code_from_wire_name(name)), name);
  }
  CHECK_INT(ts_code_from_wire_name("usage"), TS_EUSAGE);
  CHECK_INT(ts_code_from_wire_name("busy"), TS_EBUSY);
  CHECK_INT(ts_code_from_wire_name("denied"), TS_EDENIED);
  CHECK_INT(ts_code_from_wire_name("no-such-name"), TS_EFAILED);
  CHECK_INT(ts_code_from_wire_name(NULL), TS_EFAILED);
  CHECK_STR_CONTAINS(ts_code_wire_name(TS_EINVAL), "usage");
  CHECK_STR_CONTAINS(ts_code_wire_name(-999), "failed");
}

int main(void) {
  RUN_CASE(round_trip);
  RUN_CASE(error_codes_have_protocol_names);
  RUN_CASE(partial_then_complete);
  RUN_CASE(byte_at_a_time_scans_each_byte_once);
  RUN_CASE(malformed_refused);
  RUN_CASE(random_and_mutated_input_never_crashes);
  return check_summary();
}
