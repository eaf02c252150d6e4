/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* checks.c - the doctor's table of checks: adding one is one file in checks/ (exporting its
   doctor_check_NAME) plus one line here. */
#include "checks.h"

/* One line per check, in the order they run and print; each is checks/NAME.c. */
#define DOCTOR_CHECKS(X)                                                                           \
  X(timer)                                                                                         \
  X(children)                                                                                      \
  X(rights)                                                                                        \
  X(server)                                                                                        \
  X(restart)                                                                                       \
  X(image_folder)                                                                                  \
  X(data)                                                                                          \
  X(export_folders)                                                                                \
  X(quiet)                                                                                         \
  X(power)                                                                                         \
  X(sleep)                                                                                         \
  X(wake_timers)                                                                                   \
  X(fast_startup)                                                                                  \
  X(burn_clock)                                                                                    \
  X(pid_max)                                                                                       \
  X(threads_max)                                                                                   \
  X(pids_max)                                                                                      \
  X(open_files)                                                                                    \
  X(user_tasks)

#define DECLARE_CHECK(name) extern const doctor_check doctor_check_##name;
DOCTOR_CHECKS(DECLARE_CHECK)

#define LIST_CHECK(name) &doctor_check_##name,
static const doctor_check *const checks[] = {DOCTOR_CHECKS(LIST_CHECK)};

size_t doctor_check_count(void) { return sizeof checks / sizeof checks[0]; }

const doctor_check *doctor_check_at(size_t i) {
  return i < doctor_check_count() ? checks[i] : NULL;
}
