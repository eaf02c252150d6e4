/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* console.c (Windows) - the program's arguments and its console text in UTF-8, whatever the ANSI
   code page: the C library's argv is in that code page, where "Jörg" or "結果" may not exist. */
#include "threadsoup/plat.h"

#include <stdlib.h>

#include "win32.h"
/* After windows.h (win32.h): CommandLineToArgvW. */
#include <shellapi.h>

/* The console's output code page before ours, put back at exit (the console outlives us and
   belongs to the shell that started us). Static: an atexit handler takes no context. */
static UINT console_cp_before;

static void restore_console_cp(void) { SetConsoleOutputCP(console_cp_before); }

void plat_console_utf8(void) {
  /* 0: no console (output redirected to a file or a pipe takes our bytes as they are). */
  UINT cp = GetConsoleOutputCP();
  if (cp == 0 || cp == CP_UTF8 || !SetConsoleOutputCP(CP_UTF8))
    return;
  console_cp_before = cp;
  atexit(restore_console_cp);
}

void plat_args_utf8(int *argc, char ***argv) {
  int count = 0;
  wchar_t **wide = CommandLineToArgvW(GetCommandLineW(), &count);
  char **utf8 = wide ? calloc((size_t)count + 1, sizeof *utf8) : NULL;
  int i = 0;
  for (; utf8 && i < count; i++) {
    int size = WideCharToMultiByte(CP_UTF8, 0, wide[i], -1, NULL, 0, NULL, NULL);
    if (size <= 0 || !(utf8[i] = malloc((size_t)size)) ||
        WideCharToMultiByte(CP_UTF8, 0, wide[i], -1, utf8[i], size, NULL, NULL) != size)
      break;
  }
  if (wide)
    LocalFree(wide);
  if (!utf8 || i < count) {
    /* No memory: the C library's arguments, right for every ASCII name. The copies made so far
       are freed; a full set lives as long as the program, as argv does. */
    for (int j = 0; utf8 && j <= i && j < count; j++)
      free(utf8[j]);
    free(utf8);
    return;
  }
  *argc = count;
  *argv = utf8;
}
