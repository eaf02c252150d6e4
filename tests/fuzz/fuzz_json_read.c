/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* fuzz_json_read.c - libFuzzer target: any bytes given to the strict JSON reader are parsed or
   refused, never read out of bounds, leaked or crashed on (tests/fuzz/CMakeLists.txt builds it). */
#include <stddef.h>
#include <stdint.h>

#include "threadsoup/json_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ts_json_value *v = NULL;
  ts_err err;
  if (ts_json_parse((const char *)data, size, &v, &err) == TS_OK)
    ts_json_free(v);
  return 0;
}
