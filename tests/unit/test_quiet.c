/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_quiet.c - quiet mode against a fake Windows (Defender on, Windows Update not paused, Tamper
   Protection, failures) through a real database: journaled before changing, restored exactly,
   recovered after a crash, the user's own changes respected; and the real system's functions. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _WIN32
#include <windows.h>
#endif

#include "check.h"
#include "testdb.h"
#include "quiet/quiet.h"
#include "store/store.h"
#include "threadsoup/civil.h"
#include "threadsoup/plat.h"
#include "threadsoup/plat_knobs.h"

/* 2026-12-07T10:00:00Z, as the Settings app writes a pause end; 2023-11-14T22:13:20Z, a pause
   that has ended long ago but is still stored. */
#define DEC_2026 INT64_C(1796637600)
#define NOV_2023 INT64_C(1700000000)

/* ---- the fake machine ------------------------------------------------------------------------ */

static struct fake_machine {
  int defender_on;
  int64_t paused_until;
  int tamper_protection; /* defender_set succeeds and changes nothing, as on real Windows */
  int defender_broken;   /* every Defender call fails as a hung PowerShell would */
  int defender_set_broken;
  int update_missing; /* no Windows Update at all */
  int update_set_broken;
  int defender_sets, update_sets;
  store *journal; /* when set: every change checks that it is journaled first */
  int unjournaled_changes;
  /* The update stack's signal: what it says about the pause (sig), and whether it takes a new
     pause in (after signal_delay reads it writes status 1 and PolicyState's end, as the update
     service does when it takes a pause). */
  plat_update_signal sig;
  int signal_takes_pause, signal_delay, signal_reads;
} fake;

/* Nothing written by the update stack yet: every value absent. */
static void signal_absent(plat_update_signal *sig) {
  memset(sig, 0, sizeof *sig);
  sig->quality_status = sig->feature_status = -1;
  sig->quality_paused = sig->feature_paused = -1;
}

static void fake_reset(void) {
  memset(&fake, 0, sizeof fake);
  fake.defender_on = 1; /* a normal Windows 10/11 machine */
  signal_absent(&fake.sig);
}

/* The open journal entry must already say that this part is being changed. */
static void fake_check_journal(int defender_part) {
  if (!fake.journal)
    return;
  store_quiet_entry e;
  int found = 0;
  ts_err err;
  if (store_quiet_open_entry(fake.journal, &e, &found, &err) != TS_OK || !found ||
      !(defender_part ? e.defender_changed : e.update_changed))
    fake.unjournaled_changes++;
}

static int fake_defender_get(int *on, ts_err *err) {
  if (fake.defender_broken)
    return ts_err_set(err, TS_EOS,
                      "Defender: PowerShell (Get-MpComputerStatus) ran longer than "
                      "60 s and was stopped");
  if (on)
    *on = fake.defender_on;
  return TS_OK;
}

static int fake_defender_set(int on, ts_err *err) {
  if (fake.defender_broken || fake.defender_set_broken)
    return ts_err_set(err, TS_EOS,
                      "Defender: PowerShell's Set-MpPreference failed (exit code 1): "
                      "Access is denied");
  fake.defender_sets++;
  if (!on)
    fake_check_journal(1);
  if (!fake.tamper_protection)
    fake.defender_on = on;
  return TS_OK;
}

static int fake_update_get(int64_t *until, ts_err *err) {
  if (fake.update_missing)
    return ts_err_set(err, TS_EUNSUPPORTED, "Windows Update is not there");
  *until = fake.paused_until;
  return TS_OK;
}

static int fake_update_set(int64_t until, ts_err *err) {
  if (fake.update_missing)
    return ts_err_set(err, TS_EUNSUPPORTED, "Windows Update is not there");
  if (fake.update_set_broken)
    return ts_err_set(err, TS_EOS, "Windows Update: cannot write the pause: Access is denied");
  fake.update_sets++;
  if (until != 0 && until > fake.paused_until)
    fake_check_journal(0);
  fake.paused_until = until;
  return TS_OK;
}

static const char *fake_unavailable(void) { return NULL; }

static int fake_update_signal(plat_update_signal *out, ts_err *err) {
  if (fake.update_missing)
    return ts_err_set(err, TS_EUNSUPPORTED, "Windows Update is not there");
  fake.signal_reads++;
  if (fake.signal_takes_pause && fake.signal_reads > fake.signal_delay && fake.paused_until) {
    /* As read on Windows 10 22H2 / 11 23H2 after a pause from Settings. */
    fake.sig.quality_status = fake.sig.feature_status = 1;
    fake.sig.quality_paused = fake.sig.feature_paused = 1;
    fake.sig.quality_end = fake.sig.feature_end = fake.paused_until;
  }
  *out = fake.sig;
  return TS_OK;
}

/* The Defender probe's answer as recorded (the lines quiet mode's one PowerShell prints); NULL:
   a machine where Defender is the antivirus and Tamper Protection is off. Real-time protection
   follows the fake machine when the answer does not say it. */
static const char *fake_facts_answer;

static int fake_defender_facts(plat_defender_facts *out, ts_err *err) {
  if (fake.defender_broken)
    return fake_defender_get(NULL, err);
  plat_defender_facts_parse(
      fake_facts_answer ? fake_facts_answer : "tamper=False\r\nmode=Normal\r\n", out);
  if (out->realtime_on < 0 && strcmp(out->running_mode, "Normal") == 0)
    out->realtime_on = fake.defender_on;
  return TS_OK;
}

static const plat_quiet_ops probe_ops = {fake_defender_get,  fake_defender_set, fake_update_get,
                                         fake_update_set,    fake_unavailable,  fake_update_signal,
                                         fake_defender_facts};

static const plat_quiet_ops fake_ops = {fake_defender_get,
                                        fake_defender_set,
                                        fake_update_get,
                                        fake_update_set,
                                        fake_unavailable,
                                        fake_update_signal,
                                        NULL};

/* ---- helpers --------------------------------------------------------------------------------- */

static store *fresh_store(const char *path) {
  store *s = NULL;
  ts_err err;
  remove_db(path);
  CHECK_INT(store_open(&s, path, &err), TS_OK);
  fake_reset();
  fake.journal = s;
  return s;
}
#define RAW_NULL (-1000)

static int64_t now_s(void) { return (int64_t)time(NULL); }

/* ---- cases ----------------------------------------------------------------------------------- */

static void enter_journals_first_then_changes(void) {
  const char *path = "quiet_enter.db";
  store *s = fresh_store(path);
  REQUIRE(s != NULL);
  quiet_outcome out;
  ts_err err;
  int64_t before = now_s();
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 3600, "run 7", &out, &err), TS_OK);
  int64_t after = now_s();
  CHECK_INT(fake.defender_on, 0);
  CHECK(fake.paused_until >= before + 3600 + QUIET_MARGIN_S);
  CHECK(fake.paused_until <= after + 3600 + QUIET_MARGIN_S);
  CHECK_INT(fake.unjournaled_changes, 0);
  CHECK_INT(out.defender_changed, 1);
  CHECK_INT(out.update_changed, 1);
  CHECK_INT(out.problems, 0);
  CHECK_STR_CONTAINS(out.text, "Defender real-time protection: turned off (was on)");
  CHECK_STR_CONTAINS(out.text, "Windows Update: paused until");
  CHECK_STR_CONTAINS(out.text, "(was not paused)");
  /* Another reader sees the journal with the original state. */
  CHECK_INT(raw_query(path, "SELECT count(*) FROM quiet_journal WHERE restored_at IS NULL"), 1);
  CHECK_INT(raw_query(path, "SELECT defender_was FROM quiet_journal"), 1);
  CHECK_INT(raw_query(path, "SELECT update_paused_until_was FROM quiet_journal"), 0);
  CHECK_INT(raw_query(path, "SELECT defender_changed + update_changed FROM quiet_journal"), 2);
  CHECK_INT(raw_query(path, "SELECT update_paused_until_set FROM quiet_journal"),
            fake.paused_until);
  quiet_state st;
  CHECK_INT(quiet_status(s, &fake_ops, &st, &err), TS_OK);
  CHECK_INT(st.on, 1);
  CHECK_STR_CONTAINS(st.text, "quiet mode: on since");
  CHECK_STR_CONTAINS(st.text, "(run 7)");
  CHECK_STR_CONTAINS(st.text, "Defender real-time protection: off");
  store_close(s);
}

static void leave_restores_exactly(void) {
  const char *path = "quiet_leave.db";
  store *s = fresh_store(path);
  REQUIRE(s != NULL);
  quiet_outcome out;
  ts_err err;
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 600, "run 8", &out, &err), TS_OK);
  CHECK_INT(quiet_leave(s, &fake_ops, &out, &err), TS_OK);
  CHECK_INT(fake.defender_on, 1);
  CHECK_INT(fake.paused_until, 0);
  CHECK_INT(out.defender_changed, 1);
  CHECK_INT(out.update_changed, 1);
  CHECK_STR_CONTAINS(out.text, "Defender real-time protection: turned back on");
  CHECK_STR_CONTAINS(out.text, "Windows Update: resumed (was not paused)");
  CHECK_INT(raw_query(path, "SELECT count(*) FROM quiet_journal WHERE restored_at IS NOT NULL "
                            "AND restore_error IS NULL"),
            1);
  /* Leaving again is harmless. */
  CHECK_INT(quiet_leave(s, &fake_ops, &out, &err), TS_OK);
  CHECK_STR_CONTAINS(out.text, "quiet mode is not on");
  quiet_state st;
  CHECK_INT(quiet_status(s, &fake_ops, &st, &err), TS_OK);
  CHECK_INT(st.on, 0);
  CHECK_STR_CONTAINS(st.text, "quiet mode: off (last on");

  /* A stale pause (ended in 2023, still stored) comes back as the very same value. */
  fake.paused_until = NOV_2023;
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 600, "run 9", &out, &err), TS_OK);
  CHECK(fake.paused_until > now_s());
  CHECK_INT(quiet_leave(s, &fake_ops, &out, &err), TS_OK);
  CHECK_INT(fake.paused_until, NOV_2023);
  CHECK_STR_CONTAINS(out.text, "pause put back as before");

  /* The user's own shorter pause is extended for the run, then put back. */
  int64_t users = now_s() + 600;
  fake.paused_until = users;
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 7200, "run 10", &out, &err), TS_OK);
  CHECK(fake.paused_until > users);
  CHECK_INT(quiet_leave(s, &fake_ops, &out, &err), TS_OK);
  CHECK_INT(fake.paused_until, users);
  CHECK_INT(fake.unjournaled_changes, 0);
  store_close(s);
}

static void a_longer_pause_is_left_alone(void) {
  store *s = fresh_store("quiet_longer.db");
  REQUIRE(s != NULL);
  quiet_outcome out;
  ts_err err;
  fake.paused_until = DEC_2026 > now_s() + 86400 ? DEC_2026 : now_s() + 30 * 86400;
  int64_t users = fake.paused_until;
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 3600, "run", &out, &err), TS_OK);
  CHECK_INT(fake.update_sets, 0);
  CHECK_STR_CONTAINS(out.text, "Windows Update: already paused until");
  CHECK_INT(quiet_leave(s, &fake_ops, &out, &err), TS_OK);
  CHECK_INT(fake.update_sets, 0);
  CHECK_INT(fake.paused_until, users);
  CHECK_INT(fake.defender_on, 1);
  store_close(s);
}

static void a_crash_is_recovered_at_the_next_start(void) {
  const char *path = "quiet_crash.db";
  store *s = fresh_store(path);
  REQUIRE(s != NULL);
  quiet_outcome out;
  ts_err err;
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 3600, "run 11", &out, &err), TS_OK);
  store_close(s); /* the service dies: no leave */
  CHECK_INT(fake.defender_on, 0);

  REQUIRE(store_open(&s, path, &err) == TS_OK); /* the next start */
  fake.journal = s;
  quiet_state st;
  CHECK_INT(quiet_status(s, &fake_ops, &st, &err), TS_OK);
  CHECK_INT(st.on, 1);
  CHECK_INT(quiet_recover(s, &fake_ops, &out, &err), TS_OK);
  CHECK_STR_CONTAINS(out.text, "quiet mode left on since");
  CHECK_STR_CONTAINS(out.text, "(run 11)");
  CHECK_INT(fake.defender_on, 1);
  CHECK_INT(fake.paused_until, 0);
  CHECK_INT(raw_query(path, "SELECT restored_at IS NOT NULL FROM quiet_journal"), 1);
  /* Nothing left to recover. */
  int sets = fake.defender_sets + fake.update_sets;
  CHECK_INT(quiet_recover(s, &fake_ops, &out, &err), TS_OK);
  CHECK_INT(fake.defender_sets + fake.update_sets, sets);
  store_close(s);
}

/* A crash after the journal said "changing" but before the change: recovery sets nothing wrong. */
static void a_crash_before_the_change_restores_nothing_wrong(void) {
  const char *path = "quiet_crash_early.db";
  store *s = fresh_store(path);
  REQUIRE(s != NULL);
  ts_err err;
  store_quiet_entry e;
  memset(&e, 0, sizeof e);
  snprintf(e.started_at, sizeof e.started_at, "2026-12-07T09:00:00.000Z");
  snprintf(e.reason, sizeof e.reason, "run 12");
  e.defender_was = 1;
  e.update_paused_until_was = 0;
  int64_t id = 0;
  CHECK_INT(store_quiet_begin(s, &e, &id, &err), TS_OK);
  CHECK_INT(store_quiet_set_changed(s, id, 1, 1, DEC_2026, &err), TS_OK);
  store_close(s);

  REQUIRE(store_open(&s, path, &err) == TS_OK);
  fake.journal = s;
  quiet_outcome out;
  CHECK_INT(quiet_recover(s, &fake_ops, &out, &err), TS_OK);
  CHECK_INT(fake.defender_on, 1);
  CHECK_INT(fake.paused_until, 0);
  CHECK_INT(fake.defender_sets, 0);
  CHECK_INT(fake.update_sets, 0);
  CHECK_STR_CONTAINS(out.text, "already back on");
  CHECK_STR_CONTAINS(out.text, "already as before");
  CHECK_INT(raw_query(path, "SELECT restored_at IS NOT NULL FROM quiet_journal"), 1);
  store_close(s);
}

static void the_users_own_changes_are_respected(void) {
  store *s = fresh_store("quiet_user.db");
  REQUIRE(s != NULL);
  quiet_outcome out;
  ts_err err;
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 3600, "run 13", &out, &err), TS_OK);
  /* During the run the user turns Defender back on and pauses updates for two days. */
  fake.defender_on = 1;
  int64_t users = now_s() + 2 * 86400;
  fake.paused_until = users;
  int defender_sets = fake.defender_sets, update_sets = fake.update_sets;
  CHECK_INT(quiet_leave(s, &fake_ops, &out, &err), TS_OK);
  CHECK_INT(fake.defender_sets, defender_sets);
  CHECK_INT(fake.update_sets, update_sets);
  CHECK_INT(fake.defender_on, 1);
  CHECK_INT(fake.paused_until, users);
  CHECK_STR_CONTAINS(out.text, "already back on (turned on by hand");
  CHECK_STR_CONTAINS(out.text, "the pause was changed during quiet mode");
  CHECK_STR_CONTAINS(out.text, "left as it was set");
  CHECK_INT(out.defender_changed, 0);
  CHECK_INT(out.update_changed, 0);
  store_close(s);
}

static void entering_twice_is_refused(void) {
  const char *path = "quiet_twice.db";
  store *s = fresh_store(path);
  REQUIRE(s != NULL);
  quiet_outcome out;
  ts_err err;
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 3600, "run 14", &out, &err), TS_OK);
  int64_t until = fake.paused_until;
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 7200, "run 15", &out, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "quiet mode is already on since");
  CHECK_STR_CONTAINS(err.text, "(run 14)");
  CHECK_INT(fake.paused_until, until);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM quiet_journal"), 1);
  /* The database itself refuses a second open entry (another process racing this one). */
  store_quiet_entry e;
  memset(&e, 0, sizeof e);
  e.defender_was = 0;
  e.update_paused_until_was = until;
  int64_t id = 0;
  CHECK_INT(store_quiet_begin(s, &e, &id, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "already on");
  CHECK_INT(quiet_leave(s, &fake_ops, &out, &err), TS_OK);
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 3600, "run 16", &out, &err), TS_OK);
  CHECK_INT(quiet_leave(s, &fake_ops, &out, &err), TS_OK);
  /* Durations are checked before anything happens. */
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 5, "run", &out, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "out of range");
  CHECK_INT(raw_query(path, "SELECT count(*) FROM quiet_journal"), 2);
  store_close(s);
}

/* Recorded answers of the Defender probe: a default Windows 11 23H2 (Tamper Protection on), the
   same with Tamper Protection turned off, Defender in passive mode under Norton 360, and
   Defender switched off by another antivirus (Get-MpComputerStatus fails, Security Center still
   answers). productState 397568 (0x61100) is enabled, 393472 (0x60100) disabled. */
static const char answer_tamper_on[] = "realtime=True\r\ntamper=True\r\nmode=Normal\r\n"
                                       "av=Windows Defender|397568\r\n";
static const char answer_tamper_off[] = "realtime=True\r\ntamper=False\r\nmode=Normal\r\n"
                                        "av=Windows Defender|397568\r\n";
static const char answer_passive[] = "realtime=False\r\ntamper=True\r\nmode=Passive Mode\r\n"
                                     "av=Norton 360|266240\r\nav=Windows Defender|393472\r\n";
static const char answer_not_running[] =
    "mode=Not running\r\nerror=Operation failed with the following error: 0x800106ba. The "
    "operation could not be completed due to an unexpected error.\r\n"
    "av=Bitdefender Antivirus|266240\r\nav=Windows Defender|393472\r\n";

static void probe_answers_read(void) {
  plat_defender_facts f;
  plat_defender_facts_parse(answer_tamper_on, &f);
  CHECK_INT(f.realtime_on, 1);
  CHECK_INT(f.tamper, 1);
  CHECK_STR_EQ(f.running_mode, "Normal");
  CHECK_STR_EQ(f.antivirus, ""); /* Defender itself is not "another" antivirus */
  plat_defender_facts_parse(answer_passive, &f);
  CHECK_INT(f.realtime_on, 0);
  CHECK_STR_EQ(f.running_mode, "Passive Mode");
  CHECK_STR_EQ(f.antivirus, "Norton 360");
  plat_defender_facts_parse(answer_not_running, &f);
  CHECK_INT(f.realtime_on, -1);
  CHECK_INT(f.tamper, -1);
  CHECK_STR_EQ(f.running_mode, "Not running");
  CHECK_STR_EQ(f.antivirus, "Bitdefender Antivirus");
  CHECK_STR_CONTAINS(f.error, "0x800106ba");
  /* A product Security Center lists as disabled is nobody's antivirus. */
  plat_defender_facts_parse("mode=Normal\nav=Old Suite|262144\n", &f);
  CHECK_STR_EQ(f.antivirus, "");
}

/* Tamper Protection on (the default): Defender is not asked, the user is told what to do, updates
   are still paused, and the journal keeps what was asked, done and confirmed; restoring undoes
   only the pause. */
static void tamper_protection_leaves_defender_and_pauses_updates(void) {
  const char *path = "quiet_tamper.db";
  store *s = fresh_store(path);
  REQUIRE(s != NULL);
  fake_facts_answer = answer_tamper_on;
  quiet_outcome out;
  ts_err err;
  CHECK_INT(quiet_enter(s, &probe_ops, QUIET_BOTH, 3600, "run 17", &out, &err), TS_OK);
  CHECK_STR_CONTAINS(out.text,
                     "Defender real-time protection: left as is: Tamper Protection is on");
  CHECK_STR_CONTAINS(out.text, "turn real-time protection off by hand in Windows Security");
  CHECK_STR_CONTAINS(out.text, "Windows Update: paused until");
  CHECK_INT(fake.defender_sets, 0);
  CHECK_INT(fake.defender_on, 1);
  CHECK(fake.paused_until > now_s());
  CHECK_INT(out.defender_changed, 0);
  CHECK_INT(out.update_changed, 1);
  CHECK_INT(raw_query(path, "SELECT parts_asked FROM quiet_journal"), 3);
  CHECK_INT(raw_query(path, "SELECT defender_changed*10+update_changed FROM quiet_journal"), 1);
  CHECK_INT(raw_query(path, "SELECT defender_how LIKE 'Tamper Protection is on%' "
                            "FROM quiet_journal"),
            1);
  CHECK_INT(raw_query(path, "SELECT owner_pid FROM quiet_journal"), (int)plat_self_pid());
  store_quiet_entry e;
  int found = 0;
  CHECK_INT(store_quiet_open_entry(s, &e, &found, &err), TS_OK);
  char said[900];
  quiet_describe_entry(&e, said, sizeof said);
  CHECK_STR_CONTAINS(said, "Defender real-time off asked, left as is: Tamper");
  CHECK_STR_CONTAINS(said, "Windows Update pause asked until");
  CHECK_INT(quiet_leave(s, &probe_ops, &out, &err), TS_OK);
  CHECK_INT(fake.defender_sets, 0);
  CHECK_INT(fake.paused_until, 0);

  /* Only Defender asked: nothing can be done, nothing stays open, the caller hears why. */
  CHECK_INT(quiet_enter(s, &probe_ops, QUIET_DEFENDER, 3600, "by hand", &out, &err), TS_EOS);
  CHECK_STR_CONTAINS(err.text, "quiet mode changed nothing");
  CHECK_STR_CONTAINS(err.text, "Tamper Protection is on");
  CHECK_INT(raw_query(path, "SELECT count(*) FROM quiet_journal WHERE restored_at IS NULL"), 0);
  CHECK_INT(fake.update_sets, 2);

  /* Tamper Protection off: Defender is turned off and read back. */
  fake_facts_answer = answer_tamper_off;
  CHECK_INT(quiet_enter(s, &probe_ops, QUIET_DEFENDER, 3600, "by hand", &out, &err), TS_OK);
  CHECK_INT(fake.defender_on, 0);
  CHECK_INT(fake.update_sets, 2); /* updates were not asked */
  CHECK_STR_CONTAINS(out.text, "Windows Update: not asked");
  CHECK_INT(quiet_leave(s, &probe_ops, &out, &err), TS_OK);
  CHECK_INT(fake.defender_on, 1);
  CHECK_INT(fake.unjournaled_changes, 0);
  fake_facts_answer = NULL;
  store_close(s);
}

/* Defender in passive mode under another antivirus, or switched off by one: not a failure; the
   run names the PC's antivirus and goes on with the pause. */
static void another_antivirus_is_named(void) {
  const char *path = "quiet_other_av.db";
  store *s = fresh_store(path);
  REQUIRE(s != NULL);
  quiet_outcome out;
  ts_err err;
  fake_facts_answer = answer_passive;
  CHECK_INT(quiet_enter(s, &probe_ops, QUIET_BOTH, 3600, "run 30", &out, &err), TS_OK);
  CHECK_STR_CONTAINS(out.text,
                     "Defender is not this PC's antivirus (Norton 360 is; Defender: Passive Mode)");
  CHECK_INT(out.problems, 0);
  CHECK_INT(fake.defender_sets, 0);
  CHECK_INT(out.update_changed, 1);
  CHECK_INT(quiet_leave(s, &probe_ops, &out, &err), TS_OK);
  fake_facts_answer = answer_not_running;
  CHECK_INT(quiet_enter(s, &probe_ops, QUIET_BOTH, 3600, "run 31", &out, &err), TS_OK);
  CHECK_STR_CONTAINS(out.text, "(Bitdefender Antivirus is; Defender: Not running)");
  CHECK_INT(out.problems, 0);
  CHECK_INT(fake.defender_sets, 0);
  CHECK_INT(quiet_leave(s, &probe_ops, &out, &err), TS_OK);
  /* Only Defender asked, and it is not the PC's: nothing to do, and that is fine. */
  CHECK_INT(quiet_enter(s, &probe_ops, QUIET_DEFENDER, 3600, "run 32", &out, &err), TS_OK);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM quiet_journal WHERE restored_at IS NULL"), 0);
  fake_facts_answer = NULL;
  store_close(s);
}

/* The update pause failing: Defender stays off for the run, the pause's attempt is undone alone,
   and restoring turns Defender back on without touching the pause again. Without the probe
   (tamper unknown), a Defender that stays on after the request is a problem and the pause still
   goes on. */
static void one_part_failing_leaves_the_other(void) {
  const char *path = "quiet_fail.db";
  store *s = fresh_store(path);
  REQUIRE(s != NULL);
  quiet_outcome out;
  ts_err err;
  fake.update_set_broken = 1;
  CHECK_INT(quiet_enter(s, &probe_ops, QUIET_BOTH, 3600, "run 18", &out, &err), TS_OK);
  CHECK_STR_CONTAINS(out.text, "Windows Update: not paused: Windows Update: cannot write");
  CHECK_INT(out.problems, 1);
  CHECK_INT(fake.defender_on, 0);
  CHECK_INT(raw_query(path, "SELECT defender_changed*10+update_changed FROM quiet_journal"), 10);
  fake.update_set_broken = 0;
  int update_sets = fake.update_sets;
  CHECK_INT(quiet_leave(s, &probe_ops, &out, &err), TS_OK);
  CHECK_INT(fake.defender_on, 1);
  CHECK_INT(fake.update_sets, update_sets);

  fake_reset();
  fake.journal = s;
  fake.tamper_protection = 1;
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 3600, "run 19", &out, &err), TS_OK);
  CHECK_STR_CONTAINS(out.text, "Defender refused: Tamper Protection is on");
  CHECK_INT(fake.defender_on, 1);
  CHECK(fake.paused_until > now_s());
  CHECK_INT(raw_query(path, "SELECT defender_changed*10+update_changed FROM quiet_journal "
                            "WHERE restored_at IS NULL"),
            1);
  CHECK_INT(quiet_leave(s, &fake_ops, &out, &err), TS_OK);
  CHECK_INT(fake.paused_until, 0);

  /* Defender unreadable (PowerShell hung): Defender is left alone, updates are paused. */
  fake_reset();
  fake.journal = s;
  fake.defender_broken = 1;
  CHECK_INT(quiet_enter(s, &probe_ops, QUIET_BOTH, 3600, "run 19", &out, &err), TS_OK);
  CHECK_STR_CONTAINS(out.text, "Defender: left as is: its state cannot be read");
  CHECK_INT(fake.update_sets, 1);
  CHECK_INT(quiet_leave(s, &probe_ops, &out, &err), TS_OK);

  /* No Windows Update and Defender unreadable: nothing can be done. */
  fake.update_missing = 1;
  CHECK_INT(quiet_enter(s, &probe_ops, QUIET_BOTH, 3600, "run 19", &out, &err), TS_EOS);
  CHECK_STR_CONTAINS(err.text, "quiet mode changed nothing");
  CHECK_STR_CONTAINS(err.text, "Windows Update: not on this machine");
  CHECK_INT(raw_query(path, "SELECT count(*) FROM quiet_journal WHERE restored_at IS NULL"), 0);

  /* A machine without Windows Update at all: Defender alone is quiet mode. */
  fake_reset();
  fake.journal = s;
  fake.update_missing = 1;
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 3600, "run 20", &out, &err), TS_OK);
  CHECK_INT(fake.defender_on, 0);
  CHECK_STR_CONTAINS(out.text, "Windows Update: not on this machine");

  /* Restoring fails: the entry stays open with the reason, and a later leave finishes it. */
  fake.defender_set_broken = 1;
  CHECK_INT(quiet_leave(s, &fake_ops, &out, &err), TS_EOS);
  CHECK_STR_CONTAINS(err.text, "could not turn real-time protection back on");
  CHECK_STR_CONTAINS(err.text, "stays on");
  quiet_state st;
  CHECK_INT(quiet_status(s, &fake_ops, &st, &err), TS_OK);
  CHECK_INT(st.on, 1);
  CHECK_STR_CONTAINS(st.text, "restoring failed");
  CHECK_INT(fake.defender_on, 0);
  fake.defender_set_broken = 0;
  CHECK_INT(quiet_leave(s, &fake_ops, &out, &err), TS_OK);
  CHECK_INT(fake.defender_on, 1);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM quiet_journal WHERE restored_at IS NULL"), 0);
  CHECK_INT(fake.unjournaled_changes, 0);
  store_close(s);
}

/* Defender has no end of its own: the journal holds a deadline, and at it everything is put
   back (the service's scheduler calls quiet_expire when it falls due). */
static void the_deadline_restores_defender(void) {
  const char *path = "quiet_deadline.db";
  store *s = fresh_store(path);
  REQUIRE(s != NULL);
  quiet_outcome out;
  ts_err err;
  int64_t before = now_s();
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 600, "by hand", &out, &err), TS_OK);
  int64_t after = now_s();
  CHECK_STR_CONTAINS(out.text, "restored by the service at");
  store_quiet_entry e;
  int found = 0;
  CHECK_INT(store_quiet_open_entry(s, &e, &found, &err), TS_OK);
  CHECK(e.restore_by >= before + 600 && e.restore_by <= after + 600);
  quiet_state st;
  CHECK_INT(quiet_status(s, &fake_ops, &st, &err), TS_OK);
  CHECK_STR_CONTAINS(st.text, "; restored at ");

  /* Before the deadline: nothing is touched, and the deadline is the next wake-up. */
  int64_t next = 0;
  int sets = fake.defender_sets + fake.update_sets;
  CHECK_INT(quiet_expire(s, &fake_ops, e.restore_by - 1, &next, &out, &err), TS_OK);
  CHECK_INT(next, e.restore_by);
  CHECK_INT(fake.defender_sets + fake.update_sets, sets);
  CHECK_INT(fake.defender_on, 0);

  /* At it: Defender back on, the pause removed, the entry closed, nothing more to wait for. */
  CHECK_INT(quiet_expire(s, &fake_ops, e.restore_by, &next, &out, &err), TS_OK);
  CHECK_INT(next, 0);
  CHECK_INT(fake.defender_on, 1);
  CHECK_INT(fake.paused_until, 0);
  CHECK_STR_CONTAINS(out.text, "ran out at");
  CHECK_STR_CONTAINS(out.text, "Defender real-time protection: turned back on");
  CHECK_INT(raw_query(path, "SELECT count(*) FROM quiet_journal WHERE restored_at IS NULL"), 0);

  /* Restoring at the deadline fails: still open, still due (the caller retries). */
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 600, "by hand", &out, &err), TS_OK);
  CHECK_INT(store_quiet_open_entry(s, &e, &found, &err), TS_OK);
  fake.defender_set_broken = 1;
  CHECK_INT(quiet_expire(s, &fake_ops, e.restore_by + 5, &next, &out, &err), TS_EOS);
  CHECK_INT(next, e.restore_by);
  fake.defender_set_broken = 0;
  CHECK_INT(quiet_expire(s, &fake_ops, e.restore_by + 65, &next, &out, &err), TS_OK);
  CHECK_INT(next, 0);
  CHECK_INT(fake.defender_on, 1);

  /* Nothing open: nothing to wait for. */
  CHECK_INT(quiet_expire(s, &fake_ops, e.restore_by + 999999, &next, &out, &err), TS_OK);
  CHECK_INT(next, 0);
  store_close(s);
}

static int on_linux(void) {
  plat_sysinfo si;
  plat_sysinfo_read(&si);
  return strncmp(si.os, "Linux", 5) == 0;
}

/* The real machine's functions. Never changes a real Windows: quiet_enter runs on them only
   where neither part exists (Linux, Wine). */
static void the_system_says_why_it_cannot(void) {
  const plat_quiet_ops *sys = plat_quiet_system();
  const char *reason = sys->unavailable_reason();
  ts_err err;
  int on = 0;
  int64_t until = 0;
  int defender_rc = sys->defender_get(&on, &err);
  int update_rc = sys->update_get(&until, &err);
  if (on_linux()) {
    CHECK_STR_CONTAINS(reason, "Linux has no Defender or Windows Update; quiet mode is "
                               "Windows-only");
    CHECK_INT(defender_rc, TS_EUNSUPPORTED);
    CHECK_INT(update_rc, TS_EUNSUPPORTED);
    CHECK_INT(sys->defender_set(0, &err), TS_EUNSUPPORTED);
    CHECK_STR_CONTAINS(err.text, "Windows-only");
    CHECK_INT(sys->update_set(DEC_2026, &err), TS_EUNSUPPORTED);
  } else if (reason) {
    CHECK(reason[0] != '\0');
    fprintf(stderr, "  (this Windows: %s)\n", reason);
  }
  if (defender_rc != TS_OK && update_rc != TS_OK) {
    const char *path = "quiet_system.db";
    store *s = fresh_store(path);
    REQUIRE(s != NULL);
    quiet_outcome out;
    CHECK(quiet_enter(s, sys, QUIET_BOTH, 3600, "run", &out, &err) != TS_OK);
    CHECK_STR_CONTAINS(err.text, "quiet mode cannot change anything here");
    fprintf(stderr, "  (%s)\n", err.text);
    CHECK_INT(raw_query(path, "SELECT count(*) FROM quiet_journal"), 0);
    quiet_state st;
    CHECK_INT(quiet_status(s, sys, &st, &err), TS_OK);
    CHECK_STR_CONTAINS(st.text, "quiet mode: off (never used)");
    CHECK_STR_CONTAINS(st.text, "note: ");
    store_close(s);
  }
}

/* The Windows half's registry code, on a test key instead of the real pause (under Wine every
   process may write HKLM; on Linux the functions are unsupported and this checks nothing). */
static void the_registry_pause_round_trips(void) {
  const plat_quiet_ops *sys = plat_quiet_system();
  ts_err err;
  plat_knob_set_text(PLAT_KNOB_UPDATE_KEY,
                     "SOFTWARE\\ThreadSoupTests\\WindowsUpdate\\UX\\Settings");
  int rc = sys->update_set(DEC_2026, &err);
  if (rc == TS_EUNSUPPORTED || (rc != TS_OK && strstr(err.text, "elevated"))) {
    plat_knob_set_text(PLAT_KNOB_UPDATE_KEY, NULL);
    return;
  }
  CHECK_INT(rc, TS_OK);
  int64_t until = 0;
  CHECK_INT(sys->update_get(&until, &err), TS_OK);
  CHECK_INT(until, DEC_2026);
  CHECK_INT(sys->update_set(NOV_2023, &err), TS_OK);
  CHECK_INT(sys->update_get(&until, &err), TS_OK);
  CHECK_INT(until, NOV_2023);
  CHECK_INT(sys->update_set(0, &err), TS_OK);
  CHECK_INT(sys->update_get(&until, &err), TS_OK);
  CHECK_INT(until, 0);
  plat_knob_set_text(PLAT_KNOB_UPDATE_KEY, NULL);
}

#ifdef _WIN32
/* The real registry code under Wine: quiet.c writes the Settings values to a test key and reads
   the update stack's signal and the policy from a test root, where this test plays the update
   service (and Group Policy) by writing the values they write on Windows 10 22H2 / 11 23H2. */
#define TEST_ROOT "SOFTWARE\\ThreadSoupTests\\WindowsUpdateSignal"
#define TEST_ROOT_W L"SOFTWARE\\ThreadSoupTests\\WindowsUpdateSignal"

static void reg_set(const wchar_t *sub, const wchar_t *name, DWORD type, const void *data,
                    DWORD size) {
  wchar_t path[256];
  HKEY key;
  _snwprintf(path, 256, L"%ls\\%ls", TEST_ROOT_W, sub);
  path[255] = L'\0';
  CHECK_INT(RegCreateKeyExW(HKEY_LOCAL_MACHINE, path, 0, NULL, 0, KEY_SET_VALUE, NULL, &key, NULL),
            ERROR_SUCCESS);
  CHECK_INT(RegSetValueExW(key, name, 0, type, (const BYTE *)data, size), ERROR_SUCCESS);
  RegCloseKey(key);
}

static void reg_dword(const wchar_t *sub, const wchar_t *name, DWORD value) {
  reg_set(sub, name, REG_DWORD, &value, sizeof value);
}

static void reg_time(const wchar_t *sub, const wchar_t *name, int64_t t) {
  wchar_t text[40];
  int64_t days = t / 86400, y;
  int m, d;
  civil_from_days(days, &y, &m, &d);
  _snwprintf(text, 40, L"%04d-%02d-%02dT%02d:%02d:%02dZ", (int)y, m, d, (int)(t % 86400 / 3600),
             (int)(t % 3600 / 60), (int)(t % 60));
  text[39] = L'\0';
  reg_set(sub, name, REG_SZ, text, (DWORD)((wcslen(text) + 1) * sizeof(wchar_t)));
}

static void reg_clear(void) { RegDeleteTreeW(HKEY_LOCAL_MACHINE, TEST_ROOT_W); }

static void the_real_registry_confirms_blocks_or_only_writes(void) {
  const plat_quiet_ops *sys = plat_quiet_system();
  ts_err err;
  reg_clear();
  plat_knob_set_text(PLAT_KNOB_UPDATE_KEY, TEST_ROOT "\\UX\\Settings");
  plat_knob_set_text(PLAT_KNOB_UPDATE_SIGNAL_ROOT, TEST_ROOT);
  plat_update_signal sig;
  int rc = sys->update_signal(&sig, &err);
  if (rc != TS_OK) { /* a Windows where HKLM is not writable by this test: nothing to show */
    plat_knob_set_text(PLAT_KNOB_UPDATE_KEY, NULL);
    plat_knob_set_text(PLAT_KNOB_UPDATE_SIGNAL_ROOT, NULL);
    return;
  }
  CHECK_INT(sig.quality_status, -1);
  CHECK_INT(sig.quality_paused, -1);
  CHECK_INT(sig.pause_ux_disabled, 0);
  const char *path = "quiet_registry.db";

  /* 1. Nothing from the update service: written, not confirmed (our values read back). */
  store *s = fresh_store(path);
  REQUIRE(s != NULL);
  quiet_outcome out;
  CHECK_INT(quiet_enter(s, sys, QUIET_BOTH, 3600, "run 21", &out, &err), TS_OK);
  if (out.update_state == QUIET_UPDATE_NOT_ASKED)
    fprintf(stderr, "  (%s / %s)\n", out.text, err.text);
  CHECK_INT(out.update_state, QUIET_UPDATE_WRITTEN);
  CHECK_STR_CONTAINS(out.text, "written, not confirmed: the update service has not taken");
  int64_t asked = out.update_asked_until;
  CHECK_INT(quiet_leave(s, sys, &out, &err), TS_OK);
  store_close(s);

  /* 2. The update service's values as Windows 11 23H2 leaves them after a Settings pause:
     confirmed, read through the same registry code. */
  reg_dword(L"UpdatePolicy\\Settings", L"PausedQualityStatus", 1);
  reg_dword(L"UpdatePolicy\\Settings", L"PausedFeatureStatus", 1);
  reg_dword(L"UpdatePolicy\\PolicyState", L"QualityUpdatesPaused", 1);
  reg_dword(L"UpdatePolicy\\PolicyState", L"FeatureUpdatesPaused", 1);
  reg_time(L"UpdatePolicy\\PolicyState", L"PauseQualityUpdatesEndTime", asked + 86400);
  reg_time(L"UpdatePolicy\\PolicyState", L"PauseFeatureUpdatesEndTime", asked + 86400);
  CHECK_INT(sys->update_signal(&sig, &err), TS_OK);
  CHECK_INT(sig.quality_status, 1);
  CHECK_INT(sig.feature_paused, 1);
  CHECK_INT(sig.quality_end, asked + 86400);
  s = fresh_store(path);
  REQUIRE(s != NULL);
  CHECK_INT(quiet_enter(s, sys, QUIET_BOTH, 3600, "run 22", &out, &err), TS_OK);
  CHECK_INT(out.update_state, QUIET_UPDATE_CONFIRMED);
  CHECK_STR_CONTAINS(out.text, "confirmed by the update service: PausedQualityStatus=1, "
                               "PolicyState PauseQualityUpdatesEndTime");
  CHECK_INT(raw_query(path, "SELECT update_state='confirmed' FROM quiet_journal"), 1);
  fprintf(stderr, "  (Wine's registry: %s)\n", out.text);
  quiet_update_check check;
  quiet_check_update(sys, &check);
  CHECK_INT(check.ok, 1);
  CHECK_STR_CONTAINS(check.text, "confirmed by the update service");
  CHECK_INT(quiet_leave(s, sys, &out, &err), TS_OK);
  store_close(s);

  /* 3. Group Policy removes the pause from users: nothing written, blocked. */
  reg_dword(L"Policies\\WindowsUpdate", L"SetDisablePauseUXAccess", 1);
  s = fresh_store(path);
  REQUIRE(s != NULL);
  /* Where Defender is not there either (Wine), no part asked could be done: refused, saying
     why; with Defender the run goes on with the pause blocked. Either way nothing is written. */
  int blocked_rc = quiet_enter(s, sys, QUIET_BOTH, 3600, "run 23", &out, &err);
  CHECK(blocked_rc == TS_OK || out.update_state == QUIET_UPDATE_BLOCKED ||
        strstr(err.text, "SetDisablePauseUXAccess=1") != NULL);
  if (blocked_rc == TS_OK) {
    CHECK_INT(out.update_state, QUIET_UPDATE_BLOCKED);
    CHECK_STR_CONTAINS(out.text, "SetDisablePauseUXAccess=1");
  } else {
    fprintf(stderr, "  (refused: %s)\n", err.text);
  }
  int64_t until = -1;
  CHECK_INT(sys->update_get(&until, &err), TS_OK);
  CHECK_INT(until, 0); /* not written */
  quiet_leave(s, sys, &out, &err);
  store_close(s);

  reg_clear();
  plat_knob_set_text(PLAT_KNOB_UPDATE_KEY, NULL);
  plat_knob_set_text(PLAT_KNOB_UPDATE_SIGNAL_ROOT, NULL);
}
#endif

/* ---- asked versus confirmed ----------------------------------------------------------------- */

/* Windows 10 22H2 / 11 23H2 taking the pause a moment after the Settings values are written:
   confirmed by the update service's own values, and the journal keeps asked and confirmed. */
static void a_pause_the_update_service_takes_is_confirmed(void) {
  const char *path = "quiet_confirmed.db";
  store *s = fresh_store(path);
  REQUIRE(s != NULL);
  fake.signal_takes_pause = 1;
  fake.signal_delay = 2; /* written asynchronously: the third read sees it */
  plat_knob_set_number(PLAT_KNOB_QUIET_CONFIRM_WAIT_MS, 2000);
  quiet_outcome out;
  ts_err err;
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 3600, "run 3", &out, &err), TS_OK);
  CHECK_INT(out.update_state, QUIET_UPDATE_CONFIRMED);
  CHECK_INT(fake.signal_reads, 3); /* the policy read before writing, then two polls */
  CHECK_INT(out.update_asked_until, fake.paused_until);
  CHECK_STR_CONTAINS(out.text, "confirmed by the update service: PausedQualityStatus=1");
  CHECK_INT(raw_query(path, "SELECT update_asked_until FROM quiet_journal"), fake.paused_until);
  CHECK_INT(raw_query(path, "SELECT update_state='confirmed' FROM quiet_journal"), 1);
  CHECK_INT(raw_query(path, "SELECT defender_asked*10 + defender_confirmed FROM quiet_journal"),
            11);
  quiet_state st;
  CHECK_INT(quiet_status(s, &fake_ops, &st, &err), TS_OK);
  CHECK_STR_CONTAINS(st.text, "asked and confirmed: Defender real-time off asked, confirmed off "
                              "(read back); Windows Update pause asked until");
  CHECK_STR_CONTAINS(st.text, "confirmed by the update service: PausedQualityStatus=1, "
                              "PolicyState PauseQualityUpdatesEndTime");
  quiet_update_check check;
  quiet_check_update(&fake_ops, &check);
  CHECK_INT(check.ok, 1);
  CHECK_INT(check.state, QUIET_UPDATE_CONFIRMED);
  CHECK_STR_CONTAINS(check.text, "confirmed by the update service");
  plat_knob_set_number(PLAT_KNOB_QUIET_CONFIRM_WAIT_MS, 0);
  store_close(s);
}

/* Our values read back, but the update stack writes nothing within the bound (a registry write
   the update service has not scanned yet): "written, not confirmed", and quiet mode stays on. */
static void a_pause_only_read_back_is_written_not_confirmed(void) {
  const char *path = "quiet_written.db";
  store *s = fresh_store(path);
  REQUIRE(s != NULL);
  plat_knob_set_number(PLAT_KNOB_QUIET_CONFIRM_WAIT_MS, 500);
  quiet_outcome out;
  ts_err err;
  uint64_t t0 = plat_clock_ns();
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 3600, "run 4", &out, &err), TS_OK);
  uint64_t took = plat_clock_ns() - t0;
  CHECK(took >= 450000000u && took < 3000000000u); /* the bound, not more */
  CHECK_INT(out.update_state, QUIET_UPDATE_WRITTEN);
  CHECK_INT(out.update_changed, 1);
  CHECK_STR_CONTAINS(out.text, "written, not confirmed: the update service has not taken the "
                               "pause into its state");
  CHECK_STR_CONTAINS(out.text, "(after 0.5 s)");
  CHECK_INT(raw_query(path, "SELECT update_state='written' FROM quiet_journal"), 1);
  /* A pause Windows says has ended (status 2, as after an expired pause), or an end earlier than
     asked, contradicts the write. */
  plat_update_signal sig;
  char how[300];
  signal_absent(&sig);
  sig.quality_status = sig.feature_status = 2;
  CHECK_INT(quiet_update_classify(&sig, DEC_2026, how, sizeof how), QUIET_UPDATE_WRITTEN);
  CHECK_STR_CONTAINS(how, "PausedQualityStatus=2: the update service says the pause ended");
  signal_absent(&sig);
  sig.quality_status = 1;
  sig.quality_paused = 1;
  sig.quality_end = NOV_2023;
  CHECK_INT(quiet_update_classify(&sig, DEC_2026, how, sizeof how), QUIET_UPDATE_WRITTEN);
  CHECK_STR_CONTAINS(how, "PauseQualityUpdatesEndTime is 2023-11-14 22:13 UTC, before the "
                          "2026-12-07 10:00 UTC asked");
  plat_knob_set_number(PLAT_KNOB_QUIET_CONFIRM_WAIT_MS, 0);
  store_close(s);
}

/* Group Policy's "Remove access to Pause updates" (SetDisablePauseUXAccess=1): nothing is written,
   the run says who blocks it, and the doctor's check fails with the same reason. */
static void a_pause_policy_takes_away_is_not_written(void) {
  const char *path = "quiet_blocked.db";
  store *s = fresh_store(path);
  REQUIRE(s != NULL);
  fake.sig.pause_ux_disabled = 1;
  snprintf(fake.sig.policy_where, sizeof fake.sig.policy_where,
           "Group Policy (HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate)");
  quiet_outcome out;
  ts_err err;
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 3600, "run 5", &out, &err), TS_OK);
  CHECK_INT(fake.update_sets, 0);
  CHECK_INT(out.update_changed, 0);
  CHECK_INT(out.update_state, QUIET_UPDATE_BLOCKED);
  CHECK_STR_CONTAINS(out.text, "Windows Update: not paused: Group Policy (HKLM\\SOFTWARE\\Policies"
                               "\\Microsoft\\Windows\\WindowsUpdate) sets "
                               "SetDisablePauseUXAccess=1");
  CHECK_INT(
      raw_query(path, "SELECT update_state='blocked' AND update_changed=0 FROM quiet_journal"), 1);
  quiet_update_check check;
  quiet_check_update(&fake_ops, &check);
  CHECK_INT(check.ok, 0);
  CHECK_INT(check.state, QUIET_UPDATE_BLOCKED);
  CHECK_STR_CONTAINS(check.text, "blocked: Group Policy");
  /* WSUS only: the pause is written, with a note. */
  fake.sig.pause_ux_disabled = 0;
  fake.sig.wsus = 1;
  char policy[400];
  CHECK_INT(quiet_update_policy(&fake.sig, policy, sizeof policy), 0);
  CHECK_STR_CONTAINS(policy, "an update server (WSUS, UseWUServer=1");
  store_close(s);
}

/* A run's entry is found by its run id and described as the report shows it. */
static void a_run_keeps_what_was_asked_and_confirmed(void) {
  const char *path = "quiet_run.db";
  store *s = fresh_store(path);
  REQUIRE(s != NULL);
  plat_knob_set_number(PLAT_KNOB_QUIET_CONFIRM_WAIT_MS, 0);
  quiet_outcome out;
  ts_err err;
  CHECK_INT(quiet_enter(s, &fake_ops, QUIET_BOTH, 3600, "run 9", &out, &err), TS_OK);
  CHECK_INT(store_quiet_set_run(s, out.entry_id, 9, &err), TS_OK);
  store_quiet_entry e;
  int found = 0;
  CHECK_INT(store_quiet_run_entry(s, 9, &e, &found, &err), TS_OK);
  CHECK_INT(found, 1);
  CHECK_INT(store_quiet_run_entry(s, 8, &e, &found, &err), TS_OK);
  CHECK_INT(found, 0);
  CHECK_INT(store_quiet_run_entry(s, 9, &e, &found, &err), TS_OK);
  char line[700];
  quiet_describe_entry(&e, line, sizeof line);
  CHECK_STR_CONTAINS(line, "Defender real-time off asked, confirmed off (read back); Windows "
                           "Update pause asked until ");
  CHECK_STR_CONTAINS(line, "written, not confirmed: the update service has not taken");
  plat_knob_set_number(PLAT_KNOB_QUIET_CONFIRM_WAIT_MS, 0);
  store_close(s);
}

/* A pause's time read back from the journal may be any integer: the ends of int64 are written as
   the dates they are, without overflow (the floor division once subtracted 86399 from INT64_MIN).
 */
static void times_at_the_ends_of_int64(void) {
  static const struct {
    int64_t t;
    const char *shown;
  } ends[] = {
      {INT64_MIN, "-292277022657-01-27 08:29 UTC"},
      {INT64_MIN + 86399, "-292277022657-01-28 08:29 UTC"},
      {-1, "1969-12-31 23:59 UTC"},
      {0, "1970-01-01 00:00 UTC"},
      {INT64_MAX, "292277026596-12-04 15:30 UTC"},
  };
  for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
    store_quiet_entry e;
    memset(&e, 0, sizeof e);
    snprintf(e.update_state, sizeof e.update_state, "written");
    e.update_asked_until = ends[i].t;
    char text[1024];
    quiet_describe_entry(&e, text, sizeof text);
    CHECK_STR_CONTAINS(text, ends[i].shown);
  }
}

int main(void) {
  /* The fake update stack never confirms unless a case says so: no case waits for it. */
  plat_knob_set_number(PLAT_KNOB_QUIET_CONFIRM_WAIT_MS, 0);
  RUN_CASE(times_at_the_ends_of_int64);
  RUN_CASE(enter_journals_first_then_changes);
  RUN_CASE(leave_restores_exactly);
  RUN_CASE(a_longer_pause_is_left_alone);
  RUN_CASE(a_crash_is_recovered_at_the_next_start);
  RUN_CASE(a_crash_before_the_change_restores_nothing_wrong);
  RUN_CASE(the_users_own_changes_are_respected);
  RUN_CASE(entering_twice_is_refused);
  RUN_CASE(probe_answers_read);
  RUN_CASE(tamper_protection_leaves_defender_and_pauses_updates);
  RUN_CASE(another_antivirus_is_named);
  RUN_CASE(one_part_failing_leaves_the_other);
  RUN_CASE(the_deadline_restores_defender);
  RUN_CASE(the_system_says_why_it_cannot);
  RUN_CASE(the_registry_pause_round_trips);
  RUN_CASE(a_pause_the_update_service_takes_is_confirmed);
  RUN_CASE(a_pause_only_read_back_is_written_not_confirmed);
  RUN_CASE(a_pause_policy_takes_away_is_not_written);
  RUN_CASE(a_run_keeps_what_was_asked_and_confirmed);
#ifdef _WIN32
  RUN_CASE(the_real_registry_confirms_blocks_or_only_writes);
#endif
  return check_summary();
}
