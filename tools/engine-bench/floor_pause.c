/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* floor_pause.c - threadsoup-floor-pause: the floor of an idle process, a program without libc
   that only waits for a signal, forever (the procs scenario's threadsoup-idle is measured
   against it). */

#if defined(__x86_64__) && defined(THREADSOUP_IDLE_NOLIBC)

/* pause() is system call 34; it returns only when a handled signal arrives, and none is. */
static long raw_syscall0(long number) {
  long result;
  __asm__ volatile("syscall" : "=a"(result) : "a"(number) : "rcx", "r11", "memory");
  return result;
}
#define FLOOR_WAIT() raw_syscall0(34)

#elif defined(__aarch64__) && defined(THREADSOUP_IDLE_NOLIBC)

/* arm64 has no pause: ppoll (73) with no descriptors and no timeout waits the same way. */
static long raw_syscall0(long number) {
  register long x8 __asm__("x8") = number;
  register long x0 __asm__("x0") = 0;
  register long x1 __asm__("x1") = 0;
  register long x2 __asm__("x2") = 0;
  register long x3 __asm__("x3") = 0;
  __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
  return x0;
}
#define FLOOR_WAIT() raw_syscall0(73)

#endif

#ifdef FLOOR_WAIT

void _start(void) __attribute__((noreturn));
void _start(void) {
  for (;;)
    FLOOR_WAIT();
}

#else /* other architectures: the same with libc */

#include <unistd.h>

int main(void) {
  for (;;)
    pause();
}

#endif
