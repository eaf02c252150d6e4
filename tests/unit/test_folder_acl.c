/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_folder_acl.c - who may change a folder, judged from the SDDL Windows gives for real
   folders: C:\Program Files and a folder the MSI makes in it (safe), C:\ with its default
   "Authenticated Users: create folders / append data" entry and a folder unpacked under it, a
   user's Downloads (not safe); and what the service does with its data folder as it finds it
   (keep, reset the access list, or move a squatted folder aside). */
#include <stdio.h>
#include <string.h>

#include "../../shared/src/plat/folder_acl.h"
#include "check.h"

#define TI "S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464"
#define USER "S-1-5-21-1004336348-1177238915-682003330-1001"

/* C:\Program Files on Windows 10 22H2 and 11 (Get-Acl's Sddl). */
static const char program_files[] =
    "O:" TI "G:" TI "D:PAI(A;;FA;;;" TI ")(A;CIIO;GA;;;" TI ")(A;;0x1301bf;;;SY)(A;OICIIO;GA;;;SY)"
    "(A;;0x1301bf;;;BA)(A;OICIIO;GA;;;BA)(A;;0x1200a9;;;BU)(A;OICIIO;GXGR;;;BU)(A;OICIIO;GA;;;CO)"
    "(A;;0x1200a9;;;AC)(A;OICIIO;GXGR;;;AC)(A;;0x1200a9;;;S-1-15-2-2)(A;OICIIO;GXGR;;;S-1-15-2-2)";
/* C:\Program Files\ThreadSoup as the MSI makes it: all inherited. */
static const char program_files_threadsoup[] =
    "O:BAG:SYD:AI(A;ID;FA;;;" TI ")(A;CIIOID;GA;;;" TI ")(A;ID;FA;;;SY)(A;OICIIOID;GA;;;SY)"
    "(A;ID;FA;;;BA)(A;OICIIOID;GA;;;BA)(A;ID;0x1200a9;;;BU)(A;OICIIOID;GXGR;;;BU)"
    "(A;OICIIOID;GA;;;CO)(A;ID;0x1200a9;;;AC)(A;OICIIOID;GXGR;;;AC)";
/* C:\: Authenticated Users may create folders in it (LC, FILE_APPEND_DATA) and change the files
   and folders put in it (an inherit-only Modify entry). */
static const char root[] = "O:" TI "G:" TI "D:PAI(A;OICI;FA;;;BA)(A;OICI;FA;;;SY)"
                           "(A;OICI;0x1200a9;;;BU)(A;OICIIO;SDGXGWGR;;;AU)(A;;LC;;;AU)";
/* C:\ThreadSoup, a zip unpacked under C:\ by an administrator: Modify for Authenticated Users. */
static const char unpacked_under_root[] =
    "O:BAG:S-1-5-21-1004336348-1177238915-682003330-513D:AI(A;ID;FA;;;BA)(A;OICIIOID;GA;;;BA)"
    "(A;ID;FA;;;SY)(A;OICIIOID;GA;;;SY)(A;OICIID;0x1200a9;;;BU)(A;ID;0x1301bf;;;AU)"
    "(A;OICIIOID;SDGXGWGR;;;AU)";
/* C:\Users\someone\Downloads: owned by the user, who has full control. */
static const char downloads[] = "O:" USER "G:" USER "D:AI(A;OICIID;FA;;;SY)(A;OICIID;FA;;;BA)"
                                "(A;OICIID;FA;;;" USER ")";

static int others_may_write(const char *sddl, const char *self, char *reason, size_t len) {
  folder_acl acl;
  char why[256] = "";
  if (folder_acl_parse(sddl, &acl, why, sizeof why) != 0) {
    fprintf(stderr, "  not parsed: %s\n", why);
    return -1;
  }
  return folder_acl_others_may_write(&acl, "FOLDER", self, reason, len);
}

static void program_files_is_safe(void) {
  char reason[256] = "";
  CHECK_INT(others_may_write(program_files, NULL, reason, sizeof reason), 0);
  CHECK_INT(others_may_write(program_files_threadsoup, NULL, reason, sizeof reason), 0);
}

static void root_and_what_is_unpacked_under_it_are_not(void) {
  char reason[256] = "";
  CHECK_INT(others_may_write(root, NULL, reason, sizeof reason), 1);
  CHECK_STR_CONTAINS(reason, "Authenticated Users (S-1-5-11)");
  CHECK_INT(others_may_write(unpacked_under_root, NULL, reason, sizeof reason), 1);
  CHECK_STR_CONTAINS(reason, "Authenticated Users (S-1-5-11) may write to or change FOLDER");
  CHECK_STR_CONTAINS(reason, "0x001301bf");
  /* Without the entry on the folder itself, the one files inherit is enough. */
  const char inherited_only[] = "O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICIIO;SDGXGWGR;;;AU)";
  CHECK_INT(others_may_write(inherited_only, NULL, reason, sizeof reason), 1);
  CHECK_STR_CONTAINS(reason, "may change the files put in FOLDER");
  /* Adding a subfolder alone (LC) counts: a folder others may fill is not the programs' own. */
  CHECK_INT(others_may_write("O:BAD:P(A;OICI;FA;;;SY)(A;;LC;;;BU)", NULL, reason, sizeof reason),
            1);
  CHECK_STR_CONTAINS(reason, "Users (S-1-5-32-545)");
}

static void downloads_is_not(void) {
  char reason[256] = "";
  CHECK_INT(others_may_write(downloads, NULL, reason, sizeof reason), 1);
  CHECK_STR_CONTAINS(reason, "FOLDER is owned by " USER);
  /* Everyone, a NULL access list, and no access list at all. */
  CHECK_INT(others_may_write("O:BAD:P(A;OICI;FA;;;SY)(A;;0x2;;;WD)", NULL, reason, sizeof reason),
            1);
  CHECK_STR_CONTAINS(reason, "Everyone (S-1-1-0)");
  CHECK_INT(others_may_write("O:BAD:NO_ACCESS_CONTROL", NULL, reason, sizeof reason), 1);
  CHECK_STR_CONTAINS(reason, "no access list");
  CHECK_INT(others_may_write("O:BA", NULL, reason, sizeof reason), 1);
  /* Read and execute for everyone changes nothing. */
  CHECK_INT(
      others_may_write("O:SYD:P(A;OICI;FA;;;SY)(A;OICI;GRGX;;;WD)", NULL, reason, sizeof reason),
      0);
}

static folder_data_action action(const char *sddl, const char *self) {
  folder_acl have, want;
  char why[256] = "";
  CHECK(folder_acl_parse(FOLDER_ACL_SERVICE_DATA, &want, why, sizeof why) == 0);
  if (folder_acl_parse(sddl, &have, why, sizeof why) != 0) {
    fprintf(stderr, "  not parsed: %s\n", why);
    return (folder_data_action)-1;
  }
  return folder_acl_data_action(&have, &want, self);
}

static void data_folder_kept_when_it_is_the_one_descriptor(void) {
  /* As Windows reads it back: the owner, AI added, rights in letters or hex, entries in another
     order. */
  CHECK_INT(action("O:SYD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;FR;;;BU)", "S-1-5-18"),
            FOLDER_DATA_KEEP);
  CHECK_INT(action("O:BAD:P(A;OICI;FR;;;BU)(A;OICI;0x1f01ff;;;SY)(A;OICI;GA;;;BA)", "S-1-5-18"),
            FOLDER_DATA_KEEP);
}

static void data_folder_reset_when_it_differs(void) {
  /* The list `service install` once wrote (Users read and execute). */
  CHECK_INT(action("O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;0x1200a9;;;BU)", "S-1-5-18"),
            FOLDER_DATA_RESET);
  /* Made by an older version: inherited from ProgramData, where Users may create folders. */
  CHECK_INT(action("O:SYD:AI(A;OICIID;FA;;;SY)(A;OICIID;FA;;;BA)(A;OICIIOID;GA;;;CO)"
                   "(A;OICIID;0x1200a9;;;BU)(A;CIID;DCLCRPCR;;;BU)",
                   "S-1-5-18"),
            FOLDER_DATA_RESET);
  /* Not protected; an entry more; an entry less; a flag changed. */
  CHECK_INT(action("O:SYD:(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;FR;;;BU)", "S-1-5-18"),
            FOLDER_DATA_RESET);
  CHECK_INT(
      action("O:SYD:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;FR;;;BU)(A;;FA;;;AU)", "S-1-5-18"),
      FOLDER_DATA_RESET);
  CHECK_INT(action("O:SYD:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)", "S-1-5-18"), FOLDER_DATA_RESET);
  CHECK_INT(action("O:SYD:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;CI;FR;;;BU)", "S-1-5-18"),
            FOLDER_DATA_RESET);
  CHECK_INT(action("O:SYD:NO_ACCESS_CONTROL", "S-1-5-18"), FOLDER_DATA_RESET);
}

static void squatted_data_folder_is_moved_aside(void) {
  /* Made before the install by a standard user, who keeps full control of it and of what is in it.
   */
  const char squatted[] = "O:" USER "D:P(A;OICI;FA;;;" USER ")(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)";
  CHECK_INT(action(squatted, "S-1-5-18"), FOLDER_DATA_MOVE_ASIDE);
  /* Even with the right list: its owner may rewrite it at any time. */
  CHECK_INT(action("O:" USER "D:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;FR;;;BU)", "S-1-5-18"),
            FOLDER_DATA_MOVE_ASIDE);
  /* The user's own console service (service run --console) keeps its folder. */
  CHECK_INT(action("O:" USER "D:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;FR;;;BU)", USER),
            FOLDER_DATA_KEEP);
  CHECK_INT(action("O:" TI "D:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;FR;;;BU)", "S-1-5-18"),
            FOLDER_DATA_KEEP);
}

static void bad_descriptors_are_refused_with_the_reason(void) {
  folder_acl acl;
  char why[256] = "";
  CHECK_INT(folder_acl_parse("O:BAD:P(A;OICI;ZZ;;;SY)", &acl, why, sizeof why), -1);
  CHECK_STR_CONTAINS(why, "(A;OICI;ZZ;;;SY) not understood");
  CHECK_INT(folder_acl_parse("X:BA", &acl, why, sizeof why), -1);
  CHECK_STR_CONTAINS(why, "expected O:, G:, D: or S:");
  CHECK_INT(folder_acl_parse("D:P(A;OICI;FA;;;SY", &acl, why, sizeof why), -1);
  CHECK_STR_CONTAINS(why, "not in parentheses");
  CHECK_INT(folder_acl_parse("D:Q(A;;FA;;;SY)", &acl, why, sizeof why), -1);
  CHECK_STR_CONTAINS(why, "known: P, AI, AR");
  /* The parts in any order, with a SACL. */
  CHECK_INT(folder_acl_parse("D:P(A;;FA;;;SY)S:AI(AU;SAFA;FA;;;WD)O:SY", &acl, why, sizeof why), 0);
  CHECK_STR_EQ(acl.owner, "S-1-5-18");
  CHECK_INT(acl.count, 1);
}

int main(void) {
  RUN_CASE(program_files_is_safe);
  RUN_CASE(root_and_what_is_unpacked_under_it_are_not);
  RUN_CASE(downloads_is_not);
  RUN_CASE(data_folder_kept_when_it_is_the_one_descriptor);
  RUN_CASE(data_folder_reset_when_it_differs);
  RUN_CASE(squatted_data_folder_is_moved_aside);
  RUN_CASE(bad_descriptors_are_refused_with_the_reason);
  return check_summary();
}
