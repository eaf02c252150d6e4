/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* ntsnapshot.h - builds SystemProcessInformation buffers in the real x64 layout, as a Windows
   machine would return them, so tests can feed the census exact and realistic thread states. */
#ifndef THREADSOUP_NTSNAPSHOT_H
#define THREADSOUP_NTSNAPSHOT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threadsoup/ntprocinfo.h"

/* What a test says about one process; unset fields stay 0. Times in 100 ns units. */
typedef struct nts_proc {
  uint32_t pid, parent_pid;
  const char
      *name; /* UTF-8; NULL for no name at all (Length 0, Buffer NULL), as the Idle process */
  uint32_t handles, session;
  int32_t base_priority;
  uint64_t create_time, kernel_time, user_time;
  uint64_t working_set; /* bytes */
} nts_proc;

/* One thread. */
typedef struct nts_thread {
  uint32_t tid, state, wait_reason, context_switches;
  int32_t priority, base_priority;
  uint64_t kernel_time, user_time, start_address;
} nts_thread;

/* The buffer being built; `base` is the address the buffer pretends to have had when captured. */
typedef struct nts_builder {
  unsigned char *buf;
  size_t len, cap;
  uint64_t base;
  size_t current;     /* offset of the open process entry; (size_t)-1 before the first */
  uint16_t name[256]; /* the open entry's UTF-16 name, written after its threads */
  size_t name_units;
  int has_name;
} nts_builder;

/* Little-endian stores and loads, also for tests that damage a buffer on purpose. */
static inline void nts_put(unsigned char *p, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}
static inline uint64_t nts_get(const unsigned char *p, size_t n) {
  uint64_t v = 0;
  for (size_t i = n; i-- > 0;)
    v = (v << 8) | p[i];
  return v;
}

/* Grows the buffer by n zero bytes and returns the offset of the first; aborts on no memory,
   which in a test is a failure anyway. */
static inline size_t nts_grow(nts_builder *b, size_t n) {
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n)
      cap *= 2;
    unsigned char *p = (unsigned char *)realloc(b->buf, cap);
    if (!p) {
      fprintf(stderr, "ntsnapshot: out of memory\n");
      abort();
    }
    b->buf = p;
    b->cap = cap;
  }
  size_t at = b->len;
  memset(b->buf + at, 0, n);
  b->len += n;
  return at;
}

static inline void nts_init(nts_builder *b, uint64_t base) {
  memset(b, 0, sizeof *b);
  b->base = base;
  b->current = (size_t)-1;
}

static inline void nts_free(nts_builder *b) {
  free(b->buf);
  b->buf = NULL;
  b->len = b->cap = 0;
}

/* UTF-8 to UTF-16 for test names (valid input assumed; surrogate pairs for astral characters). */
static inline size_t nts_utf16(const char *s, uint16_t *out, size_t cap) {
  const unsigned char *p = (const unsigned char *)s;
  size_t n = 0;
  while (*p && n + 2 <= cap) {
    uint32_t cp;
    if (*p < 0x80) {
      cp = *p++;
    } else if (*p < 0xE0) {
      cp = (uint32_t)(p[0] & 0x1F) << 6 | (p[1] & 0x3F);
      p += 2;
    } else if (*p < 0xF0) {
      cp = (uint32_t)(p[0] & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
      p += 3;
    } else {
      cp = (uint32_t)(p[0] & 0x07) << 18 | (uint32_t)(p[1] & 0x3F) << 12 |
           (uint32_t)(p[2] & 0x3F) << 6 | (p[3] & 0x3F);
      p += 4;
    }
    if (cp >= 0x10000) {
      out[n++] = (uint16_t)(0xD800 + ((cp - 0x10000) >> 10));
      out[n++] = (uint16_t)(0xDC00 + ((cp - 0x10000) & 0x3FF));
    } else {
      out[n++] = (uint16_t)cp;
    }
  }
  return n;
}

/* Ends the open entry as Windows lays it out: the name's characters and a NUL after the threads,
   padded to 8 bytes, with ImageName pointing there (MaximumLength = Length + 2). */
static inline void nts_close_entry(nts_builder *b) {
  if (b->current == (size_t)-1 || !b->has_name)
    return;
  size_t bytes = b->name_units * 2;
  size_t at = nts_grow(b, bytes + 2);
  for (size_t i = 0; i < b->name_units; i++)
    nts_put(b->buf + at + 2 * i, b->name[i], 2);
  unsigned char *e = b->buf + b->current;
  nts_put(e + 56, bytes, 2);
  nts_put(e + 58, bytes + 2, 2);
  nts_put(e + 64, b->base + at, 8);
  b->has_name = 0;
}

static inline void nts_align8(nts_builder *b) {
  if (b->len % 8)
    nts_grow(b, 8 - b->len % 8);
}

/* Starts a process entry; its threads follow through nts_add_thread. */
static inline void nts_add_process(nts_builder *b, const nts_proc *p) {
  nts_close_entry(b);
  nts_align8(b);
  size_t at = nts_grow(b, NTPROC_PROCESS_ENTRY_LENGTH);
  if (b->current != (size_t)-1)
    nts_put(b->buf + b->current, at - b->current, 4); /* NextEntryOffset of the previous entry */
  b->current = at;
  unsigned char *e = b->buf + at;
  nts_put(e + 32, p->create_time, 8);
  nts_put(e + 40, p->user_time, 8);
  nts_put(e + 48, p->kernel_time, 8);
  nts_put(e + 72, (uint32_t)p->base_priority, 4);
  nts_put(e + 80, p->pid, 8);
  nts_put(e + 88, p->parent_pid, 8);
  nts_put(e + 96, p->handles, 4);
  nts_put(e + 100, p->session, 4);
  nts_put(e + 144, p->working_set, 8);
  b->has_name = p->name != NULL;
  b->name_units = p->name ? nts_utf16(p->name, b->name, sizeof b->name / sizeof b->name[0]) : 0;
}

/* Like nts_add_process, with the name given as raw UTF-16 units (to test broken names). */
static inline void nts_add_process_utf16(nts_builder *b, const nts_proc *p, const uint16_t *name,
                                         size_t units) {
  nts_proc q = *p;
  q.name = "";
  nts_add_process(b, &q);
  if (units > sizeof b->name / sizeof b->name[0])
    units = sizeof b->name / sizeof b->name[0];
  memcpy(b->name, name, units * sizeof name[0]);
  b->name_units = units;
}

/* Appends `count` threads like `t` to the open process, with thread ids t->tid, t->tid + 4, …
   as Windows hands them out. */
static inline void nts_add_threads(nts_builder *b, uint32_t count, const nts_thread *t) {
  unsigned char *e0 = b->buf + b->current;
  uint32_t pid = (uint32_t)nts_get(e0 + 80, 4);
  for (uint32_t i = 0; i < count; i++) {
    size_t at = nts_grow(b, NTPROC_THREAD_ENTRY_LENGTH);
    unsigned char *e = b->buf + at;
    nts_put(e + 0, t->kernel_time, 8);
    nts_put(e + 8, t->user_time, 8);
    nts_put(e + 32, t->start_address, 8);
    nts_put(e + 40, pid, 8);
    nts_put(e + 48, t->tid + 4ull * i, 8);
    nts_put(e + 56, (uint32_t)t->priority, 4);
    nts_put(e + 60, (uint32_t)t->base_priority, 4);
    nts_put(e + 64, t->context_switches, 4);
    nts_put(e + 68, t->state, 4);
    nts_put(e + 72, t->wait_reason, 4);
  }
  unsigned char *e = b->buf + b->current; /* the buffer may have moved */
  nts_put(e + 4, nts_get(e + 4, 4) + count, 4);
}

static inline void nts_finish(nts_builder *b) {
  nts_close_entry(b);
  nts_align8(b);
}

/* Writes the recorded-snapshot file format of ntprocinfo.h: base address, then the buffer. */
static inline int nts_write_file(const nts_builder *b, const char *path) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return 0;
  unsigned char header[NTPROC_SNAPSHOT_HEADER_LENGTH];
  nts_put(header, b->base, sizeof header);
  int ok = fwrite(header, 1, sizeof header, f) == sizeof header &&
           fwrite(b->buf, 1, b->len, f) == b->len;
  return fclose(f) == 0 && ok;
}

#endif
