/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_resources.c (Windows) - every program carries its application manifest and version
   information: the manifest resource Windows reads at start (RT_MANIFEST 1, the only one) is read
   back from each built .exe and checked (asInvoker, Windows 10/11 among the supported OS ids,
   per-monitor v2 DPI awareness, common controls 6 except in the idle child), then handed to the
   OS's own manifest parser (CreateActCtx), which must accept it and report the DPI awareness. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "check.h"
#include "threadsoup/version.h"

#include <windows.h>

static const char *folder;

static BOOL CALLBACK count_language(HMODULE m, LPCWSTR type, LPCWSTR name, WORD lang, LONG_PTR n) {
  (void)m, (void)type, (void)name, (void)lang;
  ++*(int *)n;
  return TRUE;
}

static BOOL CALLBACK count_name(HMODULE m, LPCWSTR type, LPWSTR name, LONG_PTR n) {
  EnumResourceLanguagesW(m, type, name, count_language, n);
  return TRUE;
}

static void check_program(const char *exe, int wants_common_controls, const char *description) {
  fprintf(stderr, "  %s\n", exe);
  wchar_t path[MAX_PATH];
  swprintf(path, MAX_PATH, L"%hs\\%hs", folder, exe);
  HMODULE m = LoadLibraryExW(path, NULL, LOAD_LIBRARY_AS_DATAFILE | LOAD_LIBRARY_AS_IMAGE_RESOURCE);
  REQUIRE(m != NULL);
  int manifests = 0;
  EnumResourceNamesW(m, (LPCWSTR)RT_MANIFEST, count_name, (LONG_PTR)&manifests);
  CHECK_INT(manifests, 1); /* ours, and no toolchain default beside it */
  HRSRC r = FindResourceW(m, MAKEINTRESOURCEW(1), (LPCWSTR)RT_MANIFEST);
  CHECK(r != NULL);
  if (r) {
    DWORD size = SizeofResource(m, r);
    const char *bytes = LockResource(LoadResource(m, r));
    char *text = calloc(1, size + 1);
    REQUIRE(bytes && text);
    memcpy(text, bytes, size);
    CHECK_STR_CONTAINS(text, "<requestedExecutionLevel level=\"asInvoker\" uiAccess=\"false\"/>");
    CHECK_STR_CONTAINS(text, "<supportedOS Id=\"{8e0f7a12-bfb3-4fe8-b9a5-48fd50a15a9a}\"/>");
    CHECK_STR_CONTAINS(text, "<supportedOS Id=\"{35138b9a-5d96-4fbd-8e2d-a2440225f93a}\"/>");
    CHECK_STR_CONTAINS(text, ">PerMonitorV2, PerMonitor</dpiAwareness>");
    CHECK_STR_CONTAINS(text, ">true/pm</dpiAware>");
    CHECK(!wants_common_controls == !strstr(text, "name=\"Microsoft.Windows.Common-Controls\" "
                                                  "version=\"6.0.0.0\""));
    free(text);
  }
  /* The version information Explorer shows. */
  DWORD ignored = 0, size = GetFileVersionInfoSizeW(path, &ignored);
  CHECK(size > 0);
  void *info = size ? malloc(size) : NULL;
  if (info && GetFileVersionInfoW(path, 0, size, info)) {
    wchar_t *value = NULL;
    UINT len = 0;
    CHECK(
        VerQueryValueW(info, L"\\StringFileInfo\\040904B0\\ProductVersion", (void **)&value, &len));
    if (value)
      CHECK(wcscmp(value, L"" TS_VERSION) == 0);
    value = NULL;
    CHECK(VerQueryValueW(info, L"\\StringFileInfo\\040904B0\\FileDescription", (void **)&value,
                         &len));
    char got[256] = "";
    if (value)
      WideCharToMultiByte(CP_UTF8, 0, value, -1, got, sizeof got, NULL, NULL);
    CHECK_STR_CONTAINS(got, description);
  }
  free(info);
  FreeLibrary(m);
  /* The OS's manifest parser accepts it and reads the DPI awareness from it. */
  ACTCTXW actctx;
  ZeroMemory(&actctx, sizeof actctx);
  actctx.cbSize = sizeof actctx;
  actctx.dwFlags = ACTCTX_FLAG_RESOURCE_NAME_VALID;
  actctx.lpSource = path;
  actctx.lpResourceName = MAKEINTRESOURCEW(1);
  HANDLE context = CreateActCtxW(&actctx);
  CHECK(context != INVALID_HANDLE_VALUE);
  if (context != INVALID_HANDLE_VALUE) {
    wchar_t awareness[64] = L"", aware[64] = L"";
    SIZE_T written = 0;
    /* dpiAwareness is in the 2016 namespace, dpiAware in the default (2005) one. */
    CHECK(QueryActCtxSettingsW(0, context, L"http://schemas.microsoft.com/SMI/2016/WindowsSettings",
                               L"dpiAwareness", awareness, 64, &written));
    CHECK(wcscmp(awareness, L"PerMonitorV2, PerMonitor") == 0);
    CHECK(QueryActCtxSettingsW(0, context, NULL, L"dpiAware", aware, 64, &written));
    CHECK(wcscmp(aware, L"true/pm") == 0);
    ReleaseActCtx(context);
  }
}

static void every_program_has_its_manifest(void) {
  check_program("threadsoup.exe", 1, "ThreadSoup command line and service");
  check_program("threadsoup-tray.exe", 1, "ThreadSoup tray controller");
  check_program("threadsoup-idle.exe", 0, "ThreadSoup idle child process");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_resources FOLDER-OF-THE-PROGRAMS\n");
    return 2;
  }
  folder = argv[1];
  RUN_CASE(every_program_has_its_manifest);
  return check_summary();
}
