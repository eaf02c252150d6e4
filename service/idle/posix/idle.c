/* idle.c (POSIX) - threadsoup-idle: the smallest process that waits forever, one per unit of the
   process scenarios. It does nothing after start-up, so it costs only its memory. */
#include <unistd.h>

int main(void) {
  for (;;)
    pause(); /* returns only when a signal handler ran; none is installed, so never */
}
