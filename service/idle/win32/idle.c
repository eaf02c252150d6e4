/* idle.c (Windows) - threadsoup-idle: the smallest process that waits forever, one per unit of the
   process scenarios. It does nothing after start-up, so it costs only its memory. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

int main(void) {
  for (;;)
    Sleep(INFINITE); /* a wait that is never satisfied; the owner's job object ends us */
}
