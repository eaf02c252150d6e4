/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* standalone.c - runs a libFuzzer target without libFuzzer, as a short test: every file of the
   seed corpus folders given, then random inputs (fresh bytes, or a corpus file with bytes
   changed), from a seed printed so a failure can be replayed. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threadsoup/rng.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define INPUT_MAX 4096

typedef struct corpus {
  uint8_t (*items)[INPUT_MAX];
  size_t *sizes;
  size_t count, cap;
} corpus;

/* Reads one file into the corpus (its first INPUT_MAX bytes) and runs it. */
static int run_file(corpus *c, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "standalone: cannot read %s\n", path);
    return -1;
  }
  if (c->count == c->cap) {
    size_t cap = c->cap ? c->cap * 2 : 16;
    void *items = realloc(c->items, cap * sizeof *c->items);
    if (items)
      c->items = items;
    void *sizes = items ? realloc(c->sizes, cap * sizeof *c->sizes) : NULL;
    if (!sizes) {
      fclose(f);
      return -1;
    }
    c->sizes = sizes;
    c->cap = cap;
  }
  size_t n = fread(c->items[c->count], 1, INPUT_MAX, f);
  fclose(f);
  c->sizes[c->count] = n;
  LLVMFuzzerTestOneInput(c->items[c->count++], n);
  return 0;
}

/* Every regular file of a folder, in the order the folder lists them. */
static int run_folder(corpus *c, const char *folder) {
  DIR *d = opendir(folder);
  if (!d)
    return run_file(c, folder); /* a file given by itself */
  struct dirent *e;
  char path[4096];
  int rc = 0;
  while (rc == 0 && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
    rc = run_file(c, path);
  }
  closedir(d);
  return rc;
}

int main(int argc, char **argv) {
  long iterations = 100;
  uint64_t seed = 1;
  corpus c = {0};
  int i = 1;
  for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
    if (strcmp(argv[i], "--iterations") == 0)
      iterations = atol(argv[i + 1]);
    else if (strcmp(argv[i], "--seed") == 0)
      seed = strtoull(argv[i + 1], NULL, 10);
    else
      break;
  }
  if (i < argc && argv[i][0] == '-') {
    fprintf(stderr, "usage: %s [--iterations N] [--seed S] [CORPUS_FOLDER_OR_FILE...]\n", argv[0]);
    return 2;
  }
  for (; i < argc; i++)
    if (run_folder(&c, argv[i]) != 0)
      return 1;
  printf("%zu corpus inputs; %ld random inputs from seed %llu\n", c.count, iterations,
         (unsigned long long)seed);
  fflush(stdout);
  static uint8_t input[INPUT_MAX];
  uint64_t state = seed;
  for (long k = 0; k < iterations; k++) {
    size_t size;
    if (c.count && ts_splitmix64(&state) % 2) {
      size_t from = (size_t)(ts_splitmix64(&state) % c.count);
      size = c.sizes[from];
      memcpy(input, c.items[from], size);
      for (int changes = 1 + (int)(ts_splitmix64(&state) % 8); size && changes > 0; changes--)
        input[ts_splitmix64(&state) % size] = (uint8_t)ts_splitmix64(&state);
    } else {
      size = (size_t)(ts_splitmix64(&state) % 1024);
      for (size_t b = 0; b < size; b++)
        input[b] = (uint8_t)ts_splitmix64(&state);
    }
    LLVMFuzzerTestOneInput(input, size);
  }
  free(c.items);
  free(c.sizes);
  printf("all inputs ended\n");
  return 0;
}
