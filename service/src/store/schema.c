/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* schema.c - the schema of a ThreadSoup database, one migration per version; migration N turns a
   version N-1 database into version N. */
#include "schema.h"

#include <stddef.h>

/* Never edit a migration that has shipped: add a new one and raise STORE_SCHEMA_VERSION. */
static const char *const migrations[] = {
    /* 1: runs, their trials, and named numbers per trial (sub-scores, census values). */
    "CREATE TABLE run (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  plan_name TEXT NOT NULL,\n"
    "  plan_text TEXT NOT NULL,\n"
    "  seed INTEGER NOT NULL,\n"
    "  status TEXT NOT NULL CHECK (status IN ('running','finished','interrupted','failed')),\n"
    "  status_detail TEXT,\n"
    "  started_at TEXT NOT NULL,\n"
    "  finished_at TEXT,\n"
    "  host TEXT NOT NULL,\n"
    "  os TEXT NOT NULL,\n"
    "  cpu TEXT NOT NULL,\n"
    "  logical_cpus INTEGER NOT NULL,\n"
    "  version TEXT NOT NULL\n"
    ");\n"
    "CREATE TABLE trial (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
    "  seq INTEGER NOT NULL,\n"
    "  block INTEGER NOT NULL,\n"
    "  condition TEXT NOT NULL,\n"
    "  bench TEXT NOT NULL,\n"
    "  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','done','failed')),\n"
    "  started_at TEXT,\n"
    "  finished_at TEXT,\n"
    "  score REAL,\n"
    "  unit TEXT,\n"
    "  seconds REAL,\n"
    "  process_threads INTEGER,\n"
    "  machine_processes INTEGER,\n"
    "  machine_threads INTEGER,\n"
    "  error TEXT,\n"
    "  UNIQUE (run_id, seq)\n"
    ");\n"
    "CREATE TABLE trial_metric (\n"
    "  trial_id INTEGER NOT NULL REFERENCES trial(id) ON DELETE CASCADE,\n"
    "  name TEXT NOT NULL,\n"
    "  value REAL NOT NULL,\n"
    "  PRIMARY KEY (trial_id, name)\n"
    ") WITHOUT ROWID;\n",
    /* 2: warnings on a trial (a skipped quiet gate), where a score came from (measured by us or
       typed in by hand), and the index the runner and reports look trials up by. */
    "ALTER TABLE trial ADD COLUMN warnings TEXT;\n"
    "ALTER TABLE trial ADD COLUMN source TEXT NOT NULL DEFAULT 'measured';\n"
    "CREATE INDEX trial_by_run ON trial(run_id, status, seq);\n",
    /* 3: schedules the service runs unattended, what became of each due time, and which runs a
       schedule started. */
    "CREATE TABLE schedule (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  spec TEXT NOT NULL,\n"
    "  plan_text TEXT NOT NULL,\n"
    "  require_ac INTEGER NOT NULL DEFAULT 0,\n"
    "  require_idle_s INTEGER NOT NULL DEFAULT 0,\n"
    "  grace_s INTEGER NOT NULL DEFAULT 3600,\n"
    "  next_due INTEGER,\n"
    "  enabled INTEGER NOT NULL DEFAULT 1,\n"
    "  created_at TEXT NOT NULL\n"
    ");\n"
    "CREATE TABLE schedule_event (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  schedule_id INTEGER NOT NULL,\n"
    "  at TEXT NOT NULL,\n"
    "  what TEXT NOT NULL CHECK (what IN ('started','missed','skipped')),\n"
    "  run_id INTEGER,\n"
    "  detail TEXT\n"
    ");\n"
    "ALTER TABLE run ADD COLUMN schedule_id INTEGER;\n",
    /* 4: quiet mode's journal: the machine's state before quiet mode changed it (NULL: could not
       be read, so not changed), which parts it changed (set to 1 before the change is made, so a
       crash in between still restores), what it set the pause to (to tell the user's own later
       change from ours), and when it was restored. At most one entry is open at a time. */
    "CREATE TABLE quiet_journal (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  started_at TEXT NOT NULL,\n"
    "  reason TEXT NOT NULL,\n"
    "  defender_was INTEGER CHECK (defender_was IN (0,1)),\n"
    "  update_paused_until_was INTEGER,\n"
    "  defender_changed INTEGER NOT NULL DEFAULT 0,\n"
    "  update_changed INTEGER NOT NULL DEFAULT 0,\n"
    "  update_paused_until_set INTEGER,\n"
    "  restored_at TEXT,\n"
    "  restore_error TEXT\n"
    ");\n"
    "CREATE UNIQUE INDEX quiet_journal_one_open ON quiet_journal((restored_at IS NULL))\n"
    "  WHERE restored_at IS NULL;\n",
    /* 5: a run the service's stop interrupted says so in a column, not only in its detail text:
       such a run resumes at the service's next start. Runs stopped that way before version 5 are
       known by the detail the service wrote then. */
    "ALTER TABLE run ADD COLUMN resume_at_start INTEGER NOT NULL DEFAULT 0;\n"
    "UPDATE run SET resume_at_start=1\n"
    "  WHERE status='interrupted' AND status_detail LIKE 'service stopped%';\n",
    /* 6: the time (Unix s) by which the service restores an open quiet-mode entry by itself:
       Defender has no pause end of its own. NULL for entries from before version 6. */
    "ALTER TABLE quiet_journal ADD COLUMN restore_by INTEGER;\n",
    /* 7: who started a run (the service, or a foreground `threadsoup run`) and whether whoever
       asked may make the service run programs (command benchmarks, tool paths); the same right
       for a schedule, from the client that added it. Older rows get neither right: a run the
       service checkpointed (resume_at_start) or a schedule started was the service's. */
    "ALTER TABLE run ADD COLUMN runner TEXT NOT NULL DEFAULT 'foreground'\n"
    "  CHECK (runner IN ('service','foreground'));\n"
    "ALTER TABLE run ADD COLUMN programs_allowed INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE schedule ADD COLUMN programs_allowed INTEGER NOT NULL DEFAULT 0;\n"
    "UPDATE run SET runner='service' WHERE resume_at_start=1 OR schedule_id IS NOT NULL;\n",
    /* 8: what quiet mode asked for and what it could confirm, per entry and so per run (run_id):
       Defender asked off and read back; the Windows Update pause asked until when, and whether
       the update stack's own signal confirmed it (update_state, update_how say which signal, or
       why not). A pause read back from our own write alone is 'written', not 'confirmed'. */
    "ALTER TABLE quiet_journal ADD COLUMN run_id INTEGER;\n"
    "ALTER TABLE quiet_journal ADD COLUMN defender_asked INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE quiet_journal ADD COLUMN defender_confirmed INTEGER\n"
    "  CHECK (defender_confirmed IN (0,1));\n"
    "ALTER TABLE quiet_journal ADD COLUMN update_asked_until INTEGER;\n"
    "ALTER TABLE quiet_journal ADD COLUMN update_state TEXT\n"
    "  CHECK (update_state IN ('not-asked','confirmed','written','failed','blocked'));\n"
    "ALTER TABLE quiet_journal ADD COLUMN update_how TEXT;\n"
    "CREATE INDEX quiet_journal_run ON quiet_journal(run_id) WHERE run_id IS NOT NULL;\n",
    /* 9: the machine checks (`threadsoup doctor`'s quick checks) run before a run's
       first trial: what each measured, whether it held, what to do. One row per check and run,
       in the order they ran; a resumed run's checks replace the earlier sitting's. */
    "CREATE TABLE run_doctor (\n"
    "  run_id INTEGER NOT NULL,\n"
    "  position INTEGER NOT NULL,\n"
    "  check_name TEXT NOT NULL,\n"
    "  status TEXT NOT NULL CHECK (status IN ('ok','warn','fail','skip')),\n"
    "  measured TEXT NOT NULL,\n"
    "  value REAL,\n"
    "  advice TEXT NOT NULL DEFAULT '',\n"
    "  checked_at TEXT NOT NULL,\n"
    "  PRIMARY KEY (run_id, position)\n"
    ");\n",
    /* 10: the timer resolution of a trial's sleepers: what its condition asked for
       (/resolution=default|high), what the sleepers got (high can fall back to default where the
       OS has no high-resolution timers), and the OS's timer resolution observed, in us. Measured
       trials from before version 10 all slept the default way (observed: not known). */
    "ALTER TABLE trial ADD COLUMN resolution_asked TEXT\n"
    "  CHECK (resolution_asked IN ('default','high'));\n"
    "ALTER TABLE trial ADD COLUMN resolution_obtained TEXT\n"
    "  CHECK (resolution_obtained IN ('default','high'));\n"
    "ALTER TABLE trial ADD COLUMN timer_resolution_us REAL;\n"
    "UPDATE trial SET resolution_asked='default', resolution_obtained='default'\n"
    "  WHERE status='done' AND source='measured';\n",
    /* 11: where a trial's benchmark ran: the power source ('ac', 'battery', 'ac (no battery)',
       'unknown', or 'before->after' when it changed during the benchmark), what became of its
       power-throttling opt-out ('off', 'unsupported', 'n/a' or why not) and the core classes its
       threads ran on ('uniform', 'class1:4,class0:0', 'unknown'). NULL for older trials and for
       scores typed in by hand. Windows 11 runs a service's threads under EcoQoS on hybrid CPUs,
       so a score means little without them. */
    "ALTER TABLE trial ADD COLUMN power_source TEXT;\n"
    "ALTER TABLE trial ADD COLUMN power_throttling TEXT;\n"
    "ALTER TABLE trial ADD COLUMN core_classes TEXT;\n",
    /* 12: runs across machines. uid: the run's identity, 32 random hex digits made with the run
       and kept by export and import, so a run imported twice is found, not copied (older runs
       get one now). machine_id: ThreadSoup's id of the machine (plat_sysinfo), memory_bytes its
       physical memory (both NULL when not known, as for older runs). imported_from and
       imported_at: the file a run was imported from and when; NULL for runs measured here. */
    "ALTER TABLE run ADD COLUMN uid TEXT;\n"
    "UPDATE run SET uid=lower(hex(randomblob(16))) WHERE uid IS NULL;\n"
    "CREATE UNIQUE INDEX run_by_uid ON run(uid);\n"
    "ALTER TABLE run ADD COLUMN machine_id TEXT;\n"
    "ALTER TABLE run ADD COLUMN memory_bytes INTEGER;\n"
    "ALTER TABLE run ADD COLUMN imported_from TEXT;\n"
    "ALTER TABLE run ADD COLUMN imported_at TEXT;\n",
    /* 13: who made a run of scores typed in through the service (the client's user name), so a
       member of group threadsoup (ThreadSoup Users) records only into runs of its own. NULL for
       every other run, and for older ones: those are nobody's but root's. */
    "ALTER TABLE run ADD COLUMN owner TEXT;\n",
    /* 14: quiet mode by parts. parts_asked: 1 Defender, 2 Windows Update, 3 both (NULL before:
       both). defender_how: why Defender was left as it was (Tamper Protection, another antivirus,
       already off), NULL when it was asked off or not asked. owner_pid: the process that entered
       it (a foreground run's, or the service's), so a CLI start can restore an entry whose
       process was killed. */
    "ALTER TABLE quiet_journal ADD COLUMN parts_asked INTEGER CHECK (parts_asked BETWEEN 1 AND "
    "3);\n"
    "ALTER TABLE quiet_journal ADD COLUMN defender_how TEXT;\n"
    "ALTER TABLE quiet_journal ADD COLUMN owner_pid INTEGER;\n",
    /* 15: the programs a freeze froze, written before they are frozen and deleted once they are
       thawed, so that a start of ThreadSoup after a crash thaws what its guardian could not. pid
       and name: the program (thawed only while a process of that pid still has that name);
       owner_pid: the ThreadSoup process that froze it (a live owner's rows are its own). */
    "CREATE TABLE freeze_journal (\n"
    "  pid INTEGER NOT NULL,\n"
    "  name TEXT NOT NULL,\n"
    "  owner_pid INTEGER NOT NULL,\n"
    "  frozen_at TEXT NOT NULL,\n"
    "  PRIMARY KEY (owner_pid, pid)\n"
    ");\n",
    /* 16: a run of scores typed in (`record`: plan "manual", no trial measured) ends with the
       command that typed its score in; before version 16 such runs stayed 'running' forever.
       They end now, when their last score was typed in. Imported runs keep what their file says
       (their contents are compared when the file comes again). */
    "UPDATE run SET status='finished', status_detail='scores typed in',\n"
    "  finished_at=coalesce((SELECT max(finished_at) FROM trial WHERE trial.run_id=run.id),\n"
    "                       started_at)\n"
    "  WHERE status='running' AND plan_name='manual' AND imported_from IS NULL\n"
    "    AND NOT EXISTS (SELECT 1 FROM trial WHERE trial.run_id=run.id AND source<>'manual');\n",
    /* 17: who added a schedule, so that its runs' freezes are judged as that client's own were:
       owner_uid (POSIX; NULL on Windows), owner_sid (the Windows user SID; NULL on POSIX),
       owner_name (for logs and refusals) and owner_member (1: a member of ThreadSoup Users or
       group threadsoup and no more, who may freeze only its own programs; 0: root, SYSTEM or an
       elevated administrator). All NULL for schedules added before: their runs have the stored
       right alone, and a member's freezes are refused. */
    "ALTER TABLE schedule ADD COLUMN owner_uid INTEGER;\n"
    "ALTER TABLE schedule ADD COLUMN owner_sid TEXT;\n"
    "ALTER TABLE schedule ADD COLUMN owner_name TEXT;\n"
    "ALTER TABLE schedule ADD COLUMN owner_member INTEGER CHECK (owner_member IN (0, 1));\n",
    /* 18: whom the service started a run for, with the same four columns a schedule keeps: the
       client that asked (run-start, or run-resume, which makes the run that client's), or the
       schedule's owner; so a run the service resumes at its next start freezes as that client's
       own did. All NULL for foreground runs, imported runs (an export file never carries them)
       and runs from before version 18: those resume with the stored right alone, or as their
       schedule's owner. Not the `owner` of version 13, who made a run of scores typed in. */
    "ALTER TABLE run ADD COLUMN owner_uid INTEGER;\n"
    "ALTER TABLE run ADD COLUMN owner_sid TEXT;\n"
    "ALTER TABLE run ADD COLUMN owner_name TEXT;\n"
    "ALTER TABLE run ADD COLUMN owner_member INTEGER CHECK (owner_member IN (0, 1));\n",
};

int schema_migration_count(void) { return (int)(sizeof migrations / sizeof migrations[0]); }

const char *schema_migration(int version) {
  if (version < 1 || version > schema_migration_count())
    return NULL;
  return migrations[version - 1];
}
