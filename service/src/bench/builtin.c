/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* builtin.c - builtin-st, our own single-thread CPU benchmark: a fixed, deterministic amount of
   integer, compression-like, floating-point and memory-latency work, so a run means the same thing
   on every machine and needs no outside program; and builtin-mt, the same work on N threads at
   once (see its section at the end).

   A work unit is one step of a kernel's inner loop:
     integer   one multiply-xorshift mixing step of one 64-bit lane,
     compress  one input byte parsed by a greedy LZ77 match finder with hash chains,
     float     one Mandelbrot iteration z = z * z + c on doubles,
     memory    one dependent load of a pointer chase through a 256 KiB random cycle of cache
               lines: the latency of the core's own L2 cache.
   Each sub-score is that kernel's work units divided by its own time, in millions of work units
   per second ("Mwork/s"), stored with every trial so each kernel can be judged on its own. The
   score is the geometric mean of the four sub-scores, each first divided by its reference rate
   (REFERENCE_* below), times 100: an index ("index") on which the reference core scores 100, a
   kernel counts the same whatever its work unit, and a kernel 10 % faster raises the score by the
   same 2.4 % as any other kernel 10 % faster. Setup (filling buffers, building the cycle) is not
   timed.

   Each kernel runs a fixed number of rounds (ROUNDS_AT_SCALE_1 times work_scale, at least one);
   at work_scale 1.0 the whole run takes about 1 s on a current x86-64 core. Before timing, one
   round of each kernel is checked against a checksum hard-coded here, which catches a miscompiled
   build or a faulty CPU instead of reporting its speed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "child.h"
#include "threadsoup/parse.h"
#include "threadsoup/plat.h"
#include "threadsoup/rng.h" /* splitmix64: the same buffers on Linux and Windows */
#include "threadsoup/units.h"

/* The float checksum holds only if a * b + c is rounded twice, as C's abstract machine says,
   and not fused into one FMA instruction where the CPU has one (-march=native). Clang obeys the
   standard pragma; GCC ignores it with a warning but has its own (it contracts by default in
   its GNU modes, though not with -std=c11). Without them, such a build fails the self-check. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

/* Rounds of each kernel at work_scale 1.0. Many small rounds rather than few big ones, so that
   a small work_scale still scales the work smoothly (0.05 and 0.1 give 5 and 10 rounds). */
#define ROUNDS_AT_SCALE_1 100.0
/* A bound that keeps the round count far from overflow; nobody waits for a million seconds. */
#define MAX_WORK_SCALE 1000000.0

/* Round sizes, tuned with gcc 12 -O2 on a 2-core x86-64 Xeon VM so that each kernel takes about
   a quarter of the second at work_scale 1.0. */
#define INTEGER_LANES 4 /* independent chains, so the core's multipliers are kept busy */
#define INTEGER_STEPS_PER_LANE 360000

#define COMPRESS_INPUT_BYTES (272u * 1024u)
#define COMPRESS_HASH_BITS 15
#define COMPRESS_WINDOW 32768u /* deflate's window and match lengths, a familiar workload */
#define COMPRESS_MIN_MATCH 4u
#define COMPRESS_MAX_MATCH 258u
#define COMPRESS_MAX_CHAIN 32 /* candidates tried per position, as zlib's level 3 does */
#define COMPRESS_NO_POSITION UINT32_MAX

#define FLOAT_WIDTH 144
#define FLOAT_HEIGHT 96
#define FLOAT_MAX_ITERATIONS 256

/* Within every current core's own L2 (256 KiB and up) and well beyond its L1: a walk that once
   went through 8 MiB, to L3 and RAM, varied run to run by 24-83 % (coefficient of variation) on
   a busy shared 2-core VM, because the L3 and the memory bus are shared with every neighbour;
   through the L2 it varied by about as much as the integer kernel (see docs/methodology.md).
   Cache traffic of the machine's own load (wake-ups evicting lines) still shows, which is what
   the benchmark is for. One slot per cache line, so each load is a line of its own. */
#define MEMORY_BUFFER_BYTES (256u * 1024u)
#define MEMORY_LINE_SLOTS (64u / sizeof(uint32_t))
#define MEMORY_LINES (MEMORY_BUFFER_BYTES / 64u)
#define MEMORY_STEPS_PER_ROUND 600000u

/* The reference core's rate of each kernel, in Mwork/s, rounded: builtin-st's kernels on the
   2-core AMD EPYC VM (gcc 12 -O2) they were tuned on, at a quiet moment (a shared machine's busy
   moments only lower them). Fixed for good: a score is only comparable with scores computed
   from the same references. */
#define REFERENCE_INTEGER 745.0
#define REFERENCE_COMPRESS 106.0
#define REFERENCE_FLOAT 256.0
#define REFERENCE_MEMORY 240.0
#define REFERENCE_SCORE 100.0 /* what the reference core scores */

/* The one-round checksums of a correct build, computed by this code and recorded here. */
#define INTEGER_EXPECTED 0xaca78b7836fff4f3ull
#define COMPRESS_EXPECTED 0x20405728b956d6c2ull
#define FLOAT_EXPECTED 0x79a32b8cbab16d31ull
#define MEMORY_EXPECTED 0x9fdb37c6d8a17290ull

#define CHECKSUM_PRIME 0x100000001b3ull /* FNV-1a's 64-bit prime */

#define BUFFER_BYTES                                                                               \
  (COMPRESS_INPUT_BYTES + (sizeof(uint32_t) << COMPRESS_HASH_BITS) +                               \
   sizeof(uint32_t) * COMPRESS_INPUT_BYTES + MEMORY_BUFFER_BYTES)

static const char builtin_name[] = "builtin-st";

/* Everything a run allocates, in one place so that one function frees it on every path. */
typedef struct builtin_buffers {
  uint8_t *compress_input;
  uint32_t *compress_head; /* latest position for each hash value */
  uint32_t *compress_prev; /* previous position with the same hash, for each position */
  uint32_t *memory_next;   /* memory_next[slot] is the slot visited after slot */
} builtin_buffers;

typedef struct kernel_totals {
  uint64_t units;
  uint64_t nanoseconds;
} kernel_totals;

/* ---- checksums ----------------------------------------------------------------------------- */

static uint64_t checksum_add(uint64_t checksum, uint64_t value) {
  return (checksum ^ value) * CHECKSUM_PRIME;
}

/* ---- integer ------------------------------------------------------------------------------- */

static uint64_t integer_round(uint64_t round, uint64_t *units) {
  uint64_t lanes[INTEGER_LANES];
  for (int lane = 0; lane < INTEGER_LANES; lane++)
    lanes[lane] = (round + 1) * TS_SPLITMIX64_GAMMA ^ ((uint64_t)lane << 56);
  /* Each step depends on the previous one of its lane, so no step can be skipped or reordered;
     the lanes give the core independent work to overlap, as real integer code does. */
  for (uint32_t step = 0; step < INTEGER_STEPS_PER_LANE; step++) {
    for (int lane = 0; lane < INTEGER_LANES; lane++)
      lanes[lane] = ts_splitmix64_mix(lanes[lane] + TS_SPLITMIX64_GAMMA);
  }
  uint64_t checksum = 0;
  for (int lane = 0; lane < INTEGER_LANES; lane++)
    checksum = checksum_add(checksum, lanes[lane]);
  *units += (uint64_t)INTEGER_LANES * INTEGER_STEPS_PER_LANE;
  return checksum;
}

/* ---- compress ------------------------------------------------------------------------------ */

/* Text-like input: short phrases copied from recent output with a few fresh letters between
   them, so the match finder meets the mix of hits and misses that real data gives it. */
static void compress_fill_input(uint8_t *input) {
  uint64_t random_state = 0x636f6d7072657373ull;
  uint32_t filled = 0;
  while (filled < COMPRESS_INPUT_BYTES) {
    uint64_t r = ts_splitmix64(&random_state);
    if (filled < 64 || r % 4 == 0) {
      input[filled++] = (uint8_t)('a' + (r >> 8) % 26);
      continue;
    }
    uint32_t reach = filled < 4096 ? filled : 4096;
    uint32_t distance = 1 + (uint32_t)((r >> 8) % reach);
    uint32_t length = 4 + (uint32_t)((r >> 24) % 28);
    for (uint32_t i = 0; i < length && filled < COMPRESS_INPUT_BYTES; i++, filled++)
      input[filled] = input[filled - distance]; /* byte by byte: overlapping copies repeat */
  }
}

static uint32_t compress_hash(const uint8_t *at) {
  uint32_t four =
      (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
  return (four * 2654435761u) >> (32 - COMPRESS_HASH_BITS);
}

static void compress_insert(const builtin_buffers *buffers, uint32_t position) {
  uint32_t hash = compress_hash(buffers->compress_input + position);
  buffers->compress_prev[position] = buffers->compress_head[hash];
  buffers->compress_head[hash] = position;
}

/* One greedy LZ77 parse of the whole input; the checksum covers every literal and match. */
static uint64_t compress_round(const builtin_buffers *buffers, uint64_t *units) {
  const uint8_t *input = buffers->compress_input;
  const uint32_t *prev = buffers->compress_prev;
  /* Starting from empty chains makes every round the same work. */
  memset(buffers->compress_head, 0xff, sizeof(uint32_t) << COMPRESS_HASH_BITS);
  uint64_t checksum = 0;
  uint32_t position = 0;
  while (position + COMPRESS_MIN_MATCH <= COMPRESS_INPUT_BYTES) {
    uint32_t available = COMPRESS_INPUT_BYTES - position;
    uint32_t longest = available < COMPRESS_MAX_MATCH ? available : COMPRESS_MAX_MATCH;
    uint32_t best_length = 0, best_distance = 0;
    uint32_t candidate = buffers->compress_head[compress_hash(input + position)];
    for (int tries = 0; tries < COMPRESS_MAX_CHAIN && candidate != COMPRESS_NO_POSITION &&
                        position - candidate <= COMPRESS_WINDOW;
         tries++, candidate = prev[candidate]) {
      /* A candidate can only win if it also matches at best_length: test that byte first. */
      if (input[candidate + best_length] != input[position + best_length])
        continue;
      uint32_t length = 0;
      while (length < longest && input[candidate + length] == input[position + length])
        length++;
      if (length > best_length) {
        best_length = length;
        best_distance = position - candidate;
        if (length == longest)
          break;
      }
    }
    if (best_length >= COMPRESS_MIN_MATCH) {
      checksum = checksum_add(checksum, (uint64_t)best_length << 32 | best_distance);
      uint32_t end = position + best_length;
      for (; position < end; position++)
        if (position + COMPRESS_MIN_MATCH <= COMPRESS_INPUT_BYTES)
          compress_insert(buffers, position);
    } else {
      checksum = checksum_add(checksum, input[position]);
      compress_insert(buffers, position);
      position++;
    }
  }
  for (; position < COMPRESS_INPUT_BYTES; position++) /* the tail too short to match */
    checksum = checksum_add(checksum, input[position]);
  *units += COMPRESS_INPUT_BYTES;
  return checksum;
}

/* ---- float --------------------------------------------------------------------------------- */

/* A Mandelbrot grid: only +, - and * on doubles, which IEEE 754 rounds the same everywhere (no
   libm, whose last bits differ between C libraries). `round` nudges the grid by a multiple of
   2^-32, an exact double, so no two rounds are the same computation for the compiler to merge. */
static uint64_t float_round(uint64_t round, uint64_t *units) {
  /* Masked so the nudge stays below 2^-16 of a 3.0-wide picture whatever the round count. */
  const double left = -2.2 + (double)(round & 0xffff) * (1.0 / 4294967296.0);
  const double top = -1.2;
  const double step = 2.4 / FLOAT_HEIGHT;
  uint64_t checksum = 0;
  uint64_t iterations_done = 0;
  for (int row = 0; row < FLOAT_HEIGHT; row++) {
    double c_imag = top + row * step;
    for (int column = 0; column < FLOAT_WIDTH; column++) {
      double c_real = left + column * step;
      double z_real = 0.0, z_imag = 0.0;
      int iteration = 0;
      for (; iteration < FLOAT_MAX_ITERATIONS; iteration++) {
        double real_squared = z_real * z_real, imag_squared = z_imag * z_imag;
        if (real_squared + imag_squared > 4.0)
          break;
        z_imag = 2.0 * z_real * z_imag + c_imag;
        z_real = real_squared - imag_squared + c_real;
      }
      /* The final z's bits, not just the count, so a wrong last bit anywhere shows up. */
      uint64_t z_bits;
      memcpy(&z_bits, &z_real, sizeof z_bits);
      checksum = checksum_add(checksum, z_bits ^ (uint64_t)iteration);
      iterations_done += (uint64_t)iteration;
    }
  }
  *units += iterations_done;
  return checksum;
}

/* ---- memory -------------------------------------------------------------------------------- */

/* Sattolo's shuffle makes one cycle through all lines, in random order, so each load goes to an
   unpredictable cache line and the prefetchers cannot help: the time is the latency. The first
   slot of each line holds the first slot of the next line on the cycle. */
static void memory_build_cycle(uint32_t *next) {
  uint64_t random_state = 0x6d656d6f7279ull;
  memset(next, 0, MEMORY_BUFFER_BYTES);
  for (uint32_t line = 0; line < MEMORY_LINES; line++)
    next[line * MEMORY_LINE_SLOTS] = line * MEMORY_LINE_SLOTS;
  for (uint32_t line = MEMORY_LINES - 1; line > 0; line--) {
    uint32_t other = (uint32_t)(ts_splitmix64(&random_state) % line) * MEMORY_LINE_SLOTS;
    uint32_t kept = next[line * MEMORY_LINE_SLOTS];
    next[line * MEMORY_LINE_SLOTS] = next[other];
    next[other] = kept;
  }
}

/* Continues the walk at *slot (the first slot of a line), so no round repeats another's loads
   for the compiler or the prefetchers to reuse. */
static uint64_t memory_round(const builtin_buffers *buffers, uint32_t *slot, uint64_t *units) {
  const uint32_t *next = buffers->memory_next;
  uint32_t at = *slot;
  uint64_t checksum = 0;
  for (uint32_t step = 0; step < MEMORY_STEPS_PER_ROUND; step++) {
    at = next[at];
    checksum += at;
  }
  *slot = at;
  *units += MEMORY_STEPS_PER_ROUND;
  return checksum_add(checksum, at);
}

/* ---- the run ------------------------------------------------------------------------------- */

static void builtin_free(builtin_buffers *buffers) {
  free(buffers->compress_input);
  free(buffers->compress_head);
  free(buffers->compress_prev);
  free(buffers->memory_next);
}

static int builtin_allocate(builtin_buffers *buffers, ts_err *err) {
  buffers->compress_input = malloc(COMPRESS_INPUT_BYTES);
  buffers->compress_head = malloc(sizeof(uint32_t) << COMPRESS_HASH_BITS);
  buffers->compress_prev = malloc(sizeof(uint32_t) * COMPRESS_INPUT_BYTES);
  buffers->memory_next = malloc(MEMORY_BUFFER_BYTES);
  if (!buffers->compress_input || !buffers->compress_head || !buffers->compress_prev ||
      !buffers->memory_next)
    return ts_err_set(err, TS_ENOMEM, "%s: cannot allocate its %.1f MiB of buffers", builtin_name,
                      BUFFER_BYTES / (1024.0 * 1024.0));
  compress_fill_input(buffers->compress_input);
  memory_build_cycle(buffers->memory_next);
  return 0;
}

static int self_check_failed(const char *kernel, uint64_t checksum, uint64_t expected,
                             ts_err *err) {
  return ts_err_set(err, TS_EBENCH,
                    "%s: self-check failed (%s checksum %016llx, expected %016llx): the CPU or "
                    "the compiler computed a wrong result",
                    builtin_name, kernel, (unsigned long long)checksum,
                    (unsigned long long)expected);
}

/* One untimed round of each kernel against the recorded checksums; it also brings the buffers
   into the caches and page tables, so the first timed round is not slower than the others. */
static int builtin_self_check(const builtin_buffers *buffers, ts_err *err) {
  uint64_t ignored_units = 0;
  uint32_t memory_slot = 0;
  uint64_t checksum;
  if ((checksum = integer_round(0, &ignored_units)) != INTEGER_EXPECTED)
    return self_check_failed("integer", checksum, INTEGER_EXPECTED, err);
  if ((checksum = compress_round(buffers, &ignored_units)) != COMPRESS_EXPECTED)
    return self_check_failed("compress", checksum, COMPRESS_EXPECTED, err);
  if ((checksum = float_round(0, &ignored_units)) != FLOAT_EXPECTED)
    return self_check_failed("float", checksum, FLOAT_EXPECTED, err);
  if ((checksum = memory_round(buffers, &memory_slot, &ignored_units)) != MEMORY_EXPECTED)
    return self_check_failed("memory", checksum, MEMORY_EXPECTED, err);
  return 0;
}

static double per_second_in_millions(const kernel_totals *totals) {
  /* A clock that did not tick still means "faster than we can tell", not a division by zero. */
  uint64_t nanoseconds = totals->nanoseconds ? totals->nanoseconds : 1;
  return (double)totals->units / (double)nanoseconds * 1e3;
}

enum { KERNEL_INTEGER, KERNEL_COMPRESS, KERNEL_FLOAT, KERNEL_MEMORY, KERNEL_COUNT };
/* The kernels' names (the sub-scores' and the child's output's) and their references. */
static const char *const kernel_names[KERNEL_COUNT] = {
    [KERNEL_INTEGER] = "integer",
    [KERNEL_COMPRESS] = "compress",
    [KERNEL_FLOAT] = "float",
    [KERNEL_MEMORY] = "memory",
};
static const double kernel_reference[KERNEL_COUNT] = {
    /* Mwork/s */
    [KERNEL_INTEGER] = REFERENCE_INTEGER,
    [KERNEL_COMPRESS] = REFERENCE_COMPRESS,
    [KERNEL_FLOAT] = REFERENCE_FLOAT,
    [KERNEL_MEMORY] = REFERENCE_MEMORY,
};

/* The score from the kernels' rates (Mwork/s): the geometric mean of each rate over its
   reference, times REFERENCE_SCORE. A geometric mean, not the total work over the total time,
   so that no kernel weighs more for doing more or slower units of work, and a ratio of two
   scores is the geometric mean of the kernels' ratios. */
static double composite_score(const double rates[KERNEL_COUNT]) {
  double log_sum = 0.0;
  for (int k = 0; k < KERNEL_COUNT; k++)
    log_sum += log(rates[k] / kernel_reference[k]);
  return REFERENCE_SCORE * exp(log_sum / KERNEL_COUNT);
}

/* Fills the sub-scores and the score from the kernels' rates. */
static void set_scores(const double rates[KERNEL_COUNT], bench_result *out) {
  out->score = composite_score(rates);
  out->unit = "index";
  out->subscore_count = KERNEL_COUNT;
  for (int k = 0; k < KERNEL_COUNT; k++)
    out->subscores[k] = (bench_subscore){kernel_names[k], rates[k]};
}

/* The measured part: `rounds` rounds of each kernel in turn, each kernel timed on its own; the
   memory walk starts at `memory_slot`. The checksums end in a volatile store, which the compiler
   must perform, so it must also do all the work behind it. Round numbers start after the
   self-check's round 0 so that no timed round is a copy of it for the compiler to reuse. */
static void timed_rounds(const builtin_buffers *buffers, uint64_t rounds, uint32_t memory_slot,
                         kernel_totals kernels[KERNEL_COUNT]) {
  kernel_totals integer = {0}, compress = {0}, floating = {0}, memory = {0};
  uint64_t combined = 0;
  uint64_t started = plat_clock_ns();
  for (uint64_t round = 1; round <= rounds; round++)
    combined = checksum_add(combined, integer_round(round, &integer.units));
  uint64_t integer_done = plat_clock_ns();
  for (uint64_t round = 1; round <= rounds; round++)
    combined = checksum_add(combined, compress_round(buffers, &compress.units));
  uint64_t compress_done = plat_clock_ns();
  for (uint64_t round = 1; round <= rounds; round++)
    combined = checksum_add(combined, float_round(round, &floating.units));
  uint64_t float_done = plat_clock_ns();
  for (uint64_t round = 1; round <= rounds; round++)
    combined = checksum_add(combined, memory_round(buffers, &memory_slot, &memory.units));
  uint64_t memory_done = plat_clock_ns();
  volatile uint64_t checksum_sink = combined;
  (void)checksum_sink;

  integer.nanoseconds = integer_done - started;
  compress.nanoseconds = compress_done - integer_done;
  floating.nanoseconds = float_done - compress_done;
  memory.nanoseconds = memory_done - float_done;
  kernels[KERNEL_INTEGER] = integer;
  kernels[KERNEL_COMPRESS] = compress;
  kernels[KERNEL_FLOAT] = floating;
  kernels[KERNEL_MEMORY] = memory;
}

/* The core classes of the CPUs the threads ran on at the end of their work (plat_current_cpu),
   from this machine's layout, into out->core_classes. */
static void note_core_classes(const int *cpus, int count, bench_result *out) {
  plat_core_layout *layout = malloc(sizeof *layout);
  if (!layout) {
    snprintf(out->core_classes, sizeof out->core_classes, "unknown");
    return;
  }
  plat_core_layout_read(layout);
  plat_core_classes_of(layout, cpus, count, out->core_classes, sizeof out->core_classes);
  free(layout);
}

/* The round count for a work scale, or an error for a scale out of range. */
static int rounds_for(const char *name, double work_scale, uint64_t *rounds, ts_err *err) {
  /* Written so that NaN fails too. */
  if (!(work_scale > 0.0 && work_scale <= MAX_WORK_SCALE))
    return ts_err_set(err, TS_EINVAL, "%s: work scale %g is out of range (above 0, up to %g)", name,
                      work_scale, MAX_WORK_SCALE);
  *rounds = (uint64_t)(ROUNDS_AT_SCALE_1 * work_scale + 0.5);
  if (*rounds < 1)
    *rounds = 1;
  return 0;
}

static int builtin_run_here(const bench_args *args, bench_result *out, ts_err *err) {
  if (args->arg)
    return ts_err_set(err, TS_EUSAGE, "%s takes no argument (got '%s')", builtin_name, args->arg);
  uint64_t rounds = 1;
  if (rounds_for(builtin_name, args->work_scale, &rounds, err))
    return err->code;

  /* Normal priority, out of power throttling (EcoQoS): this thread is the benchmark. */
  char throttling[PLAT_BENCH_TEXT_MAX];
  plat_bench_thread_begin(throttling, sizeof throttling);
  builtin_buffers buffers = {0};
  int rc = builtin_allocate(&buffers, err);
  if (!rc)
    rc = builtin_self_check(&buffers, err);
  if (rc) {
    builtin_free(&buffers);
    return rc;
  }

  kernel_totals kernels[KERNEL_COUNT];
  timed_rounds(&buffers, rounds, 0, kernels);
  int cpu = plat_current_cpu(); /* where the work ended: a sample, not a history */
  builtin_free(&buffers);

  uint64_t nanoseconds = 0;
  double rates[KERNEL_COUNT];
  for (int k = 0; k < KERNEL_COUNT; k++) {
    nanoseconds += kernels[k].nanoseconds;
    rates[k] = per_second_in_millions(&kernels[k]);
  }
  memset(out, 0, sizeof *out);
  set_scores(rates, out);
  out->seconds = (double)nanoseconds / TS_NS_PER_S;
  snprintf(out->power_throttling, sizeof out->power_throttling, "%s", throttling);
  note_core_classes(&cpu, 1, out);
  return 0;
}

/* ---- where the kernels run: a process of their own, or the one holding the load ------------- */

/* `process`, shared by builtin-st and builtin-mt. By default the kernels run in a child process
   of our own program, as the original experiment ran its benchmarks apart from its load: the
   service's process holds the load's thousands of threads, whose memory, locks and scheduler
   queues a benchmark thread beside them would share (see docs/methodology.md for the two
   measured side by side). */
enum { SETTING_PROCESS };
#define PROCESS_SEPARATE "separate"
#define PROCESS_SAME "same"
static const bench_setting builtin_settings[] = {
    [SETTING_PROCESS] = {.key = "process",
                         .kind = BENCH_SETTING_CHOICE,
                         .help = "the built-in benchmarks: run their kernels in a child process "
                                 "of threadsoup (separate) or in the process that holds the load "
                                 "(same)",
                         .choices = PROCESS_SEPARATE "|" PROCESS_SAME,
                         .dflt = PROCESS_SEPARATE},
    {.key = NULL},
};

static const bench_child_expect builtin_child_expect = {"index", kernel_names, KERNEL_COUNT};

static int builtin_in_our_process(const bench_args *args) {
  const char *process = bench_args_setting(args, SETTING_PROCESS);
  return process && strcmp(process, PROCESS_SAME) == 0;
}

/* Runs `run_here` in this process when the plan says process = same, else in a child process
   (`threadsoup bench-child NAME[:ARG]`), after the checks the run itself makes, so that a bad
   argument is refused alike either way. */
static int builtin_dispatch(const char *name, const bench_args *args,
                            int (*run_here)(const bench_args *, bench_result *, ts_err *),
                            bench_result *out, ts_err *err) {
  if (builtin_in_our_process(args))
    return run_here(args, out, err);
  uint64_t rounds;
  if (rounds_for(name, args->work_scale, &rounds, err))
    return err->code;
  char spec[64];
  snprintf(spec, sizeof spec, "%s%s%.40s", name, args->arg ? ":" : "", args->arg ? args->arg : "");
  return bench_child_run_self(spec, args, &builtin_child_expect, out, err);
}

static int builtin_run(const bench_args *args, bench_result *out, ts_err *err) {
  if (args->arg)
    return ts_err_set(err, TS_EUSAGE, "%s takes no argument (got '%s')", builtin_name, args->arg);
  return builtin_dispatch(builtin_name, args, builtin_run_here, out, err);
}

static const char *builtin_unavailable_reason(void) {
  return NULL; /* plain C and malloc: it runs wherever ThreadSoup builds */
}

const bench_def bench_builtin_st = {
    .name = "builtin-st",
    .help =
        "our own single-thread CPU benchmark: fixed integer, compression, floating-point and "
        "L2-latency work, about 1 s; score an index (the geometric mean of the four kernels' rates "
        "over the reference core's, which scores 100)",
    .unavailable_reason = builtin_unavailable_reason,
    .check_arg = NULL,
    .run = builtin_run,
    .settings = builtin_settings,
    .run_here = builtin_run_here,
    .in_our_process = builtin_in_our_process,
};

/* ---- builtin-mt: the same kernels on N threads ---------------------------------------------

   Each thread runs builtin-st's timed rounds, so N threads do N times its work. Each sub-score
   is the sum over the threads of that kernel's own rate, times the share of the wall time (from
   the common start to the last thread's end) that the threads spent on their work, so a thread
   that is held back lowers every sub-score; the score is formed from the sub-scores as
   builtin-st's is. The compression input and the memory cycle are only read, so the threads share
   them (each core keeps its own copy of the cycle in its L2); each thread has its own hash chains,
   and starts its walk of the cycle at its own line. */

static const char builtin_mt_name[] = "builtin-mt";
#define MT_MAX_THREADS 1024
#define MT_STACK_BYTES (256u * 1024u) /* the kernels need little; this leaves a wide margin */

typedef struct mt_worker {
  builtin_buffers buffers; /* compress_head and compress_prev are this thread's own */
  uint64_t rounds;
  plat_waitpoint *start_line;
  long index;
  uint32_t memory_slot;          /* where its walk of the shared cycle starts */
  const volatile int *abandoned; /* set when not every thread could start */
  kernel_totals kernels[KERNEL_COUNT];
  uint64_t done_ns;
  int cpu;                              /* where its work ended, or -1 */
  char throttling[PLAT_BENCH_TEXT_MAX]; /* what became of its power-throttling opt-out */
} mt_worker;

static void mt_worker_main(void *arg) {
  mt_worker *w = arg;
  /* Each thread is a benchmark thread of its own (priority and power throttling are per thread),
     placed in its processor group where there is more than one. */
  plat_bench_thread_spread(w->index);
  plat_bench_thread_begin(w->throttling, sizeof w->throttling);
  /* All threads wait here until every one has started, so that they run side by side. */
  plat_waitpoint_wait(w->start_line, w->index);
  if (*w->abandoned)
    return;
  timed_rounds(&w->buffers, w->rounds, w->memory_slot, w->kernels);
  w->done_ns = plat_clock_ns();
  w->cpu = plat_current_cpu();
}

static int builtin_mt_check_arg(const char *arg, ts_err *err) {
  long threads;
  return arg ? ts_parse_long(arg, 1, MT_MAX_THREADS, "builtin-mt's thread count", &threads, err)
             : 0;
}

/* Shares the read-only buffers of `shared` and allocates the per-thread ones. */
static int mt_allocate(mt_worker *w, const builtin_buffers *shared, ts_err *err) {
  w->buffers.compress_input = shared->compress_input;
  w->buffers.memory_next = shared->memory_next;
  w->buffers.compress_head = malloc(sizeof(uint32_t) << COMPRESS_HASH_BITS);
  w->buffers.compress_prev = malloc(sizeof(uint32_t) * COMPRESS_INPUT_BYTES);
  if (!w->buffers.compress_head || !w->buffers.compress_prev)
    return ts_err_set(err, TS_ENOMEM, "%s: cannot allocate the buffers of thread %ld",
                      builtin_mt_name, w->index + 1);
  return 0;
}

static void mt_free(mt_worker *workers, long count) {
  for (long i = 0; i < count; i++) {
    free(workers[i].buffers.compress_head);
    free(workers[i].buffers.compress_prev);
  }
  free(workers);
}

/* The threads' answers in one: the common one, or the first that differs with how many gave
   it; and the core classes over all threads. */
static void mt_where_it_ran(const mt_worker *workers, long threads, bench_result *out) {
  long differing = 0, first = -1;
  for (long i = 1; i < threads; i++)
    if (strcmp(workers[i].throttling, workers[0].throttling) != 0) {
      differing++;
      if (first < 0)
        first = i;
    }
  if (differing == 0)
    snprintf(out->power_throttling, sizeof out->power_throttling, "%s", workers[0].throttling);
  else
    snprintf(out->power_throttling, sizeof out->power_throttling, "mixed: %s (%ld of %ld)",
             workers[first].throttling, differing, threads);
  int *cpus = malloc(sizeof *cpus * (size_t)threads);
  if (!cpus) {
    snprintf(out->core_classes, sizeof out->core_classes, "unknown");
    return;
  }
  for (long i = 0; i < threads; i++)
    cpus[i] = workers[i].cpu;
  note_core_classes(cpus, (int)threads, out);
  free(cpus);
}

static int builtin_mt_run_here(const bench_args *args, bench_result *out, ts_err *err) {
  long threads;
  if (args->arg) {
    if (builtin_mt_check_arg(args->arg, err))
      return err->code;
    threads = strtol(args->arg, NULL, 10);
  } else {
    plat_sysinfo info;
    plat_sysinfo_read(&info);
    threads = info.logical_cpus >= 1 ? info.logical_cpus : 1;
    if (threads > MT_MAX_THREADS)
      threads = MT_MAX_THREADS;
  }
  uint64_t rounds = 1;
  if (rounds_for(builtin_mt_name, args->work_scale, &rounds, err))
    return err->code;

  builtin_buffers shared = {0};
  mt_worker *workers = calloc((size_t)threads, sizeof *workers);
  plat_waitpoint *start_line = NULL;
  volatile int abandoned = 0;
  int rc = workers ? builtin_allocate(&shared, err)
                   : ts_err_set(err, TS_ENOMEM, "%s: no memory for %ld threads", builtin_mt_name,
                                threads);
  for (long i = 0; !rc && i < threads; i++) {
    workers[i].index = i;
    workers[i].rounds = rounds;
    workers[i].memory_slot =
        (uint32_t)((uint64_t)MEMORY_LINES * (uint64_t)i / (uint64_t)threads) * MEMORY_LINE_SLOTS;
    workers[i].abandoned = &abandoned;
    rc = mt_allocate(&workers[i], &shared, err);
  }
  /* The self-check runs once, on this thread, with the first worker's buffers. */
  if (!rc)
    rc = builtin_self_check(&workers[0].buffers, err);
  if (!rc)
    rc = plat_waitpoint_create(&start_line, PLAT_WAIT_EVENT, threads, err);
  if (rc) {
    if (workers)
      mt_free(workers, threads);
    builtin_free(&shared);
    return rc;
  }

  plat_thread *handles = malloc(sizeof *handles * (size_t)threads);
  long started_threads = 0;
  if (!handles)
    rc = ts_err_set(err, TS_ENOMEM, "%s: no memory for %ld threads", builtin_mt_name, threads);
  for (; !rc && started_threads < threads; started_threads++) {
    workers[started_threads].start_line = start_line;
    rc = plat_thread_start(&handles[started_threads], MT_STACK_BYTES, mt_worker_main,
                           &workers[started_threads], err);
    if (rc) {
      ts_err_prefix(err, "%s: thread %ld of %ld", builtin_mt_name, started_threads + 1, threads);
      break;
    }
  }
  if (rc)
    abandoned = 1; /* the threads that did start wake up and leave at once */
  uint64_t started = plat_clock_ns();
  plat_waitpoint_release(start_line);
  for (long i = 0; i < started_threads; i++)
    plat_thread_join(handles[i]);
  plat_waitpoint_destroy(start_line);
  free(handles);

  if (!rc) {
    double kernel_rates[KERNEL_COUNT] = {0};
    double working_ns = 0.0; /* summed over the threads */
    uint64_t last_done = started;
    for (long i = 0; i < threads; i++) {
      for (int k = 0; k < KERNEL_COUNT; k++) {
        kernel_rates[k] += per_second_in_millions(&workers[i].kernels[k]);
        working_ns += (double)workers[i].kernels[k].nanoseconds;
      }
      if (workers[i].done_ns > last_done)
        last_done = workers[i].done_ns;
    }
    uint64_t wall_ns = last_done > started ? last_done - started : 1;
    double side_by_side = working_ns / (double)threads / (double)wall_ns;
    if (side_by_side > 1.0) /* the clocks' granularity, not more than all of the time */
      side_by_side = 1.0;
    for (int k = 0; k < KERNEL_COUNT; k++)
      kernel_rates[k] *= side_by_side;
    memset(out, 0, sizeof *out);
    set_scores(kernel_rates, out);
    out->seconds = (double)wall_ns / TS_NS_PER_S;
    mt_where_it_ran(workers, threads, out);
  }
  mt_free(workers, threads);
  builtin_free(&shared);
  return rc;
}

static int builtin_mt_run(const bench_args *args, bench_result *out, ts_err *err) {
  if (args->arg && builtin_mt_check_arg(args->arg, err))
    return err->code;
  return builtin_dispatch(builtin_mt_name, args, builtin_mt_run_here, out, err);
}

const bench_def bench_builtin_mt = {
    .name = "builtin-mt",
    .forms = "builtin-mt[:N]",
    .help = "builtin-st's kernels on N threads at once (builtin-mt:N, 1 to 1024; default: one per "
            "logical CPU), each doing builtin-st's work; score an index as builtin-st's, from the "
            "threads' summed rates over the wall time",
    .unavailable_reason = builtin_unavailable_reason,
    .check_arg = builtin_mt_check_arg,
    .run = builtin_mt_run,
    .settings = builtin_settings,
    .run_here = builtin_mt_run_here,
    .in_our_process = builtin_in_our_process,
};
