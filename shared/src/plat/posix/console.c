/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* console.c (POSIX) - the program's arguments and its console text in UTF-8: they are bytes here,
   passed as the user's locale gives them, so there is nothing to convert. */
#include "threadsoup/plat.h"

void plat_console_utf8(void) {}

void plat_args_utf8(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
}
