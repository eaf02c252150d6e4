/* interrupt.c (Windows) - turns Ctrl+C, Ctrl+Break and console close into a flag and an event, so
   waits end at once without any polling timer. */
#include "threadsoup/plat.h"

#include "threadsoup/units.h"
#include "win32.h"

/* The console handler runs on a thread of its own and can only reach static state. */
static struct {
  volatile LONG raised;
  HANDLE event;
} interrupt_state;

static BOOL WINAPI interrupt_console_handler(DWORD type) {
  switch (type) {
  case CTRL_C_EVENT:
  case CTRL_BREAK_EVENT:
  case CTRL_CLOSE_EVENT:
  case CTRL_SHUTDOWN_EVENT:
    plat_interrupt_raise();
    return TRUE;
  default:
    return FALSE;
  }
}

int plat_interrupt_install(ts_err *err) {
  if (interrupt_state.event)
    return TS_OK;
  /* Manual reset: once raised, every later wait returns at once. */
  interrupt_state.event = CreateEventW(NULL, TRUE, FALSE, NULL);
  if (!interrupt_state.event)
    return ts_err_set(err, TS_EOS, "cannot create the interrupt event (error %lu)",
                      (unsigned long)GetLastError());
  SetConsoleCtrlHandler(interrupt_console_handler, TRUE);
  return TS_OK;
}

int plat_interrupted(void) { return InterlockedCompareExchange(&interrupt_state.raised, 0, 0); }

int plat_interrupt_wait(uint64_t ns) {
  if (!interrupt_state.event) {
    plat_sleep_ns(ns);
    return 0;
  }
  /* Saturate: "wait forever" is UINT64_MAX, which must not wrap into a deadline in the past. */
  uint64_t start = plat_clock_ns();
  uint64_t deadline = ns > UINT64_MAX - start ? UINT64_MAX : start + ns;
  for (;;) {
    if (plat_interrupted())
      return 1;
    uint64_t now = plat_clock_ns();
    if (now >= deadline)
      return 0;
    uint64_t left_ms = (deadline - now + TS_NS_PER_MS - 1) / TS_NS_PER_MS;
    DWORD wait = left_ms > 0xFFFFFFFEu ? 0xFFFFFFFEu : (DWORD)left_ms;
    if (WaitForSingleObject(interrupt_state.event, wait) == WAIT_OBJECT_0)
      return 1;
  }
}

void plat_interrupt_raise(void) {
  InterlockedExchange(&interrupt_state.raised, 1);
  if (interrupt_state.event)
    SetEvent(interrupt_state.event);
}

void plat_interrupt_reset(void) {
  InterlockedExchange(&interrupt_state.raised, 0);
  if (interrupt_state.event)
    ResetEvent(interrupt_state.event);
}
