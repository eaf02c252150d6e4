/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* rng.h - splitmix64, the one pseudo-random generator of ThreadSoup: fixed-width arithmetic only,
   so every platform draws the same numbers from the same seed (trial orders, the built-in
   benchmark's buffers, the bootstrap's seeds, test data). Not for anything secret. */
#ifndef THREADSOUP_RNG_H
#define THREADSOUP_RNG_H

#include <stdint.h>

/* 2^64 / the golden ratio: splitmix64's increment, and an odd constant that spreads seeds. */
#define TS_SPLITMIX64_GAMMA 0x9e3779b97f4a7c15ull

/* splitmix64's output function: a 64-bit mix in which every input bit moves every output bit. */
static inline uint64_t ts_splitmix64_mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* The next number of the sequence that *state stands at; advances *state. */
static inline uint64_t ts_splitmix64(uint64_t *state) {
  return ts_splitmix64_mix(*state += TS_SPLITMIX64_GAMMA);
}

#endif
