/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_windows_facts.c - Windows's answers as the Windows half reads them, recorded: a release's
   name at the Windows 10 / 11 boundary, which refused moves are tried again and for how long,
   and which paths are in a cloud-synced folder (OneDrive's folders as its environment names
   them, and the cloud files placeholders' attributes). */
#include "check.h"
#include "threadsoup/plat.h"

/* RtlGetVersion's answers of real releases, with their registry's DisplayVersion. */
static const struct {
  plat_windows_version version;
  const char *name;
} releases[] = {
    {{10, 0, 21999, 1, ""}, "Windows 10 (10.0.21999)"},
    {{10, 0, 22000, 1, "21H2"}, "Windows 11 21H2 (10.0.22000)"},
    {{10, 0, 22631, 1, "23H2"}, "Windows 11 23H2 (10.0.22631)"},
    {{10, 0, 26100, 1, "24H2"}, "Windows 11 24H2 (10.0.26100)"},
    {{10, 0, 19045, 1, "22H2"}, "Windows 10 22H2 (10.0.19045)"},
    /* Windows Server 2022 (20348) and 2025 (26100) are 10.0 too, neither 10 nor 11. */
    {{10, 0, 26100, 0, "24H2"}, "Windows Server 24H2 (10.0.26100)"},
    {{6, 3, 9600, 1, ""}, "Windows 8.1 (6.3.9600)"},
    {{6, 1, 7601, 1, ""}, "Windows 7 (6.1.7601)"},
};

static void windows_11_is_named_from_its_build(void) {
  for (size_t i = 0; i < sizeof releases / sizeof releases[0]; i++) {
    char name[128];
    plat_windows_name(&releases[i].version, name, sizeof name);
    CHECK_STR_EQ(name, releases[i].name);
  }
}

enum { ACCESS_DENIED = 5, SHARING_VIOLATION = 32, FILE_EXISTS = 80, ALREADY_EXISTS = 183 };

static void brief_locks_are_waited_out_and_exists_is_not(void) {
  int total = 0, tries = 0;
  for (int wait; (wait = plat_rename_retry_wait_ms(SHARING_VIOLATION, tries + 1)) >= 0;) {
    CHECK(wait > 0);
    total += wait;
    tries++;
  }
  /* 8 tries in all: the first and 7 more after a wait each, about 2 s. */
  CHECK_INT(tries, 7);
  CHECK(total >= 1500 && total <= 2500);
  CHECK(plat_rename_retry_wait_ms(ACCESS_DENIED, 1) > 0);
  CHECK(plat_rename_retry_wait_ms(ACCESS_DENIED, 7) > plat_rename_retry_wait_ms(ACCESS_DENIED, 1));
  CHECK_INT(plat_rename_retry_wait_ms(ACCESS_DENIED, 8), -1);
  CHECK_INT(plat_rename_retry_wait_ms(FILE_EXISTS, 1), -1);
  CHECK_INT(plat_rename_retry_wait_ms(ALREADY_EXISTS, 1), -1);
  CHECK_INT(plat_rename_retry_wait_ms(2 /* ERROR_FILE_NOT_FOUND */, 1), -1);
}

static void onedrive_folders_are_cloud_synced(void) {
  /* %OneDrive% as OneDrive sets it, for a user named Jörg. */
  const char *root = "C:\\Users\\J\xC3\xB6rg\\OneDrive";
  CHECK(plat_path_is_under("C:\\Users\\J\xC3\xB6rg\\OneDrive\\Documents\\ts.db", root));
  CHECK(plat_path_is_under("c:/users/J\xC3\xB6rg/onedrive/ts.db", root));
  CHECK(
      plat_path_is_under("C:\\Users\\J\xC3\xB6rg\\OneDrive", "C:\\Users\\J\xC3\xB6rg\\OneDrive\\"));
  CHECK(!plat_path_is_under("C:\\Users\\J\xC3\xB6rg\\OneDrive2\\ts.db", root));
  CHECK(!plat_path_is_under("C:\\Users\\J\xC3\xB6rg\\ts.db", root));
  CHECK(!plat_path_is_under("C:\\Users\\J\xC3\xB6rg\\OneDrive\\ts.db", ""));
  /* A placeholder: FILE_ATTRIBUTE_RECALL_ON_DATA_ACCESS, or the reparse tag IO_REPARSE_TAG_CLOUD_3
     on a reparse point; a junction (IO_REPARSE_TAG_MOUNT_POINT) is a link, not a cloud file. */
  CHECK(plat_cloud_file(0x400000ul | 0x20ul, 0));
  CHECK(plat_cloud_file(0x80000ul, 0));
  CHECK(plat_cloud_file(0x400ul | 0x10ul, 0x9000301Aul));
  CHECK(plat_cloud_file(0x400ul, 0x9000001Aul));
  CHECK(!plat_cloud_file(0x400ul | 0x10ul, 0xA0000003ul));
  CHECK(!plat_cloud_file(0x20ul, 0x9000001Aul));
  CHECK(!plat_cloud_file(0x80ul, 0));
}

int main(void) {
  RUN_CASE(windows_11_is_named_from_its_build);
  RUN_CASE(brief_locks_are_waited_out_and_exists_is_not);
  RUN_CASE(onedrive_folders_are_cloud_synced);
  return check_summary();
}
