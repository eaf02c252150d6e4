/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* idle.c (POSIX) - threadsoup-idle: the smallest process that waits for its owner to end. It
   blocks reading fd 3, the inherited read end of its owner's lifeline pipe, and exits when the
   read returns: end-of-file once the owner is gone. Built without libc (on x86-64 and arm64) so a
   child costs a few pages, not a C runtime: 15,000 of them are the experiment's mode 6. */

#if defined(__x86_64__) && defined(THREADSOUP_IDLE_NOLIBC)

static long raw_syscall3(long number, long a, long b, long c) {
  long result;
  __asm__ volatile("syscall"
                   : "=a"(result)
                   : "a"(number), "D"(a), "S"(b), "d"(c)
                   : "rcx", "r11", "memory");
  return result;
}
#define SYSCALL_READ 0
#define SYSCALL_EXIT_GROUP 231

#elif defined(__aarch64__) && defined(THREADSOUP_IDLE_NOLIBC)

static long raw_syscall3(long number, long a, long b, long c) {
  register long x8 __asm__("x8") = number;
  register long x0 __asm__("x0") = a;
  register long x1 __asm__("x1") = b;
  register long x2 __asm__("x2") = c;
  __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
  return x0;
}
#define SYSCALL_READ 63
#define SYSCALL_EXIT_GROUP 94

#endif

#ifdef SYSCALL_READ

void _start(void) __attribute__((noreturn));
void _start(void) {
  char byte;
  /* Bytes (none are ever written) keep it waiting; end-of-file or an error ends it. */
  while (raw_syscall3(SYSCALL_READ, 3, (long)&byte, 1) > 0) {
  }
  raw_syscall3(SYSCALL_EXIT_GROUP, 0, 0, 0);
  for (;;) {
  }
}

#else /* other architectures: the same with libc */

#include <unistd.h>

int main(void) {
  char byte;
  while (read(3, &byte, 1) > 0) {
  }
  return 0;
}

#endif
