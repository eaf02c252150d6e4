/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* quiet.c (Windows) - quiet mode's system functions: Defender's real-time protection through
   PowerShell's Defender cmdlets, and the Windows Update pause through the registry values the
   Settings app writes. */
#include "threadsoup/plat.h"
#include "threadsoup/plat_doctor.h"
#include "threadsoup/plat_knobs.h"

#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "threadsoup/civil.h"
#include "threadsoup/units.h"
#include "win32.h"

/* PowerShell starts in 1-5 s, Get-MpComputerStatus can take as long again on a busy machine; a
   minute means "hung", and the run goes on without that part. */
#define POWERSHELL_TIMEOUT_NS TS_NS_PER_MIN

/* Where the Settings app keeps the pause (REG_SZ values, ISO 8601 UTC such as
   "2026-12-07T10:00:00Z"). The service reads and writes HKLM, so it needs to run elevated. */
#define UPDATE_KEY_DEFAULT L"SOFTWARE\\Microsoft\\WindowsUpdate\\UX\\Settings"
#define DEFENDER_KEY L"SOFTWARE\\Microsoft\\Windows Defender"
#define WINDOWS_UPDATE_KEY L"SOFTWARE\\Microsoft\\WindowsUpdate"

/* The values "Pause updates" writes: one expiry for all updates plus start and end times for
   feature and quality updates. Ends get the pause's end; starts are written only when missing,
   so extending a pause the user had set keeps its start. */
static const wchar_t *const pause_end_values[] = {
    L"PauseUpdatesExpiryTime", L"PauseFeatureUpdatesEndTime", L"PauseQualityUpdatesEndTime"};
static const wchar_t *const pause_start_values[] = {
    L"PauseUpdatesStartTime", L"PauseFeatureUpdatesStartTime", L"PauseQualityUpdatesStartTime"};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

#define KEY_MAX 256

/* A test's HKLM subkey (a text knob) in `buf`, or NULL when the knob is off. */
static const wchar_t *test_key(plat_knob knob, wchar_t buf[KEY_MAX]) {
  const char *subkey = plat_knob_text(knob);
  return subkey && win32_to_wide(subkey, buf, KEY_MAX) ? buf : NULL;
}

/* The key of the pause values: the real one, or a test's (PLAT_KNOB_UPDATE_KEY). */
static const wchar_t *update_key(wchar_t buf[KEY_MAX]) {
  const wchar_t *key = test_key(PLAT_KNOB_UPDATE_KEY, buf);
  return key ? key : UPDATE_KEY_DEFAULT;
}

/* ---- Defender through PowerShell ----------------------------------------------------------- */

/* The system's own PowerShell by full path: the service runs as an administrator, and a
   powershell.exe found through PATH could be anyone's. */
static int powershell_path(char *buf, size_t len) {
  wchar_t dir[MAX_PATH], path[MAX_PATH + 64];
  UINT n = GetSystemDirectoryW(dir, MAX_PATH);
  if (n == 0 || n >= MAX_PATH)
    return 0;
  _snwprintf(path, COUNT(path), L"%ls\\WindowsPowerShell\\v1.0\\powershell.exe", dir);
  path[COUNT(path) - 1] = L'\0';
  DWORD attributes = GetFileAttributesW(path);
  if (attributes == INVALID_FILE_ATTRIBUTES || (attributes & FILE_ATTRIBUTE_DIRECTORY))
    return 0;
  return win32_from_wide(path, buf, len);
}

static int key_exists(const wchar_t *subkey) {
  HKEY key;
  if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, subkey, 0, KEY_READ | KEY_WOW64_64KEY, &key) !=
      ERROR_SUCCESS)
    return 0;
  RegCloseKey(key);
  return 1;
}

static int defender_present(void) {
  char path[PLAT_PATH_MAX];
  return powershell_path(path, sizeof path) && key_exists(DEFENDER_KEY);
}

/* The first non-empty line of PowerShell's output, for error messages. */
static void first_line(const char *text, char *buf, size_t len) {
  while (*text == '\r' || *text == '\n' || *text == ' ')
    text++;
  size_t n = strcspn(text, "\r\n");
  if (n >= len)
    n = len - 1;
  memcpy(buf, text, n);
  buf[n] = '\0';
}

/* Runs one PowerShell command; output gets what it printed. A failing command (exit code not 0,
   with $ErrorActionPreference 'Stop') is an error quoting PowerShell's first line. */
static int run_powershell(const char *command, char *output, size_t capacity, ts_err *err) {
  char path[PLAT_PATH_MAX];
  if (!powershell_path(path, sizeof path))
    return ts_err_set(err, TS_EUNSUPPORTED,
                      "Defender cannot be controlled: Windows PowerShell (powershell.exe in the "
                      "system folder) is missing");
  char script[1024];
  snprintf(script, sizeof script, "$ErrorActionPreference='Stop'; %s", command);
  const char *const argv[] = {path, "-NoProfile", "-NonInteractive", "-Command", script, NULL};
  int exit_code = -1;
  size_t got = 0;
  int rc =
      plat_proc_run(argv, NULL, output, capacity, &got, POWERSHELL_TIMEOUT_NS, &exit_code, err);
  if (rc != TS_OK)
    return ts_err_prefix(err, "Defender: PowerShell (%s) failed", command);
  if (exit_code != 0) {
    char line[300];
    first_line(output, line, sizeof line);
    return ts_err_set(err, TS_EOS, "Defender: PowerShell's %s failed (exit code %d): %s", command,
                      exit_code, line[0] ? line : "no message");
  }
  return TS_OK;
}

static int defender_get(int *realtime_on, ts_err *err) {
  char output[1024];
  *realtime_on = 0;
  if (!defender_present())
    return ts_err_set(err, TS_EUNSUPPORTED,
                      "Windows Defender is not installed here (no Defender registry key or no "
                      "Windows PowerShell)");
  int rc = run_powershell("(Get-MpComputerStatus).RealTimeProtectionEnabled", output, sizeof output,
                          err);
  if (rc != TS_OK)
    return rc;
  char line[300];
  first_line(output, line, sizeof line);
  if (_stricmp(line, "True") == 0) {
    *realtime_on = 1;
    return TS_OK;
  }
  if (_stricmp(line, "False") == 0)
    return TS_OK;
  return ts_err_set(err, TS_EOS,
                    "Defender: Get-MpComputerStatus gave '%s' for RealTimeProtectionEnabled "
                    "(expected True or False)",
                    line);
}

static int defender_set(int realtime_on, ts_err *err) {
  char output[1024];
  if (!defender_present())
    return ts_err_set(err, TS_EUNSUPPORTED,
                      "Windows Defender is not installed here (no Defender registry key or no "
                      "Windows PowerShell)");
  /* Tamper Protection makes this succeed and change nothing; the caller reads the state back. */
  return run_powershell(realtime_on ? "Set-MpPreference -DisableRealtimeMonitoring $false"
                                    : "Set-MpPreference -DisableRealtimeMonitoring $true",
                        output, sizeof output, err);
}

/* Everything quiet mode must know before it asks Defender anything, in one PowerShell: real-time
   protection, Tamper Protection and the running mode (Get-MpComputerStatus: AMRunningMode
   "Normal" is Defender as the PC's antivirus; "Passive Mode", "SxS Passive Mode" and "EDR Block
   Mode" leave that to another product; the cmdlet fails when Defender's service does not run,
   as when another antivirus has switched it off), and the antivirus products Security Center
   knows (root\SecurityCenter2, Windows clients only: servers have none, hence the second try). */
static const char facts_command[] =
    "try { $s = Get-MpComputerStatus; 'realtime=' + $s.RealTimeProtectionEnabled; "
    "'tamper=' + $s.IsTamperProtected; 'mode=' + $s.AMRunningMode } "
    "catch { 'mode=Not running'; 'error=' + $_.Exception.Message }; "
    "try { Get-CimInstance -Namespace root/SecurityCenter2 -ClassName AntiVirusProduct | "
    "ForEach-Object { 'av=' + $_.displayName + '|' + $_.productState } } catch { }";

static int defender_facts(plat_defender_facts *out, ts_err *err) {
  char output[4096];
  memset(out, 0, sizeof *out);
  out->realtime_on = out->tamper = -1;
  if (!defender_present())
    return ts_err_set(err, TS_EUNSUPPORTED,
                      "Windows Defender is not installed here (no Defender registry key or no "
                      "Windows PowerShell)");
  int rc = run_powershell(facts_command, output, sizeof output, err);
  if (rc != TS_OK)
    return rc;
  plat_defender_facts_parse(output, out);
  /* Defender platforms older than IsTamperProtected: Windows Security's own value. */
  if (out->tamper < 0)
    out->tamper = plat_tamper_protection();
  return TS_OK;
}

/* ---- the Windows Update pause in the registry ----------------------------------------------- */

/* "2026-12-07T10:00:00Z" (fractions of a second and a missing Z are accepted) to Unix seconds. */
static int parse_iso_utc(const wchar_t *text, int64_t *out) {
  int y, mo, d, h, mi, s;
  if (swscanf(text, L"%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &s) != 6 || mo < 1 ||
      mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
    return 0;
  *out = civil_to_days(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
  return 1;
}

static void format_iso_utc(int64_t t, wchar_t *buf, size_t count) {
  int64_t days = t >= 0 ? t / 86400 : (t - 86399) / 86400, y;
  int64_t secs = t - days * 86400;
  int m, d;
  civil_from_days(days, &y, &m, &d);
  _snwprintf(buf, count, L"%04d-%02d-%02dT%02d:%02d:%02dZ", (int)y, m, d, (int)(secs / 3600),
             (int)(secs / 60 % 60), (int)(secs % 60));
  buf[count - 1] = L'\0';
}

static int registry_error(ts_err *err, LSTATUS status, const char *doing) {
  char text[256], key[300];
  wchar_t where[KEY_MAX];
  win32_error_text((DWORD)status, text, sizeof text);
  if (!win32_from_wide(update_key(where), key, sizeof key))
    snprintf(key, sizeof key, "?");
  if (status == ERROR_ACCESS_DENIED)
    return ts_err_set(err, TS_EOS,
                      "Windows Update: cannot %s HKLM\\%s: %s (quiet mode needs the service or an "
                      "elevated command prompt)",
                      doing, key, text);
  return ts_err_set(err, TS_EOS, "Windows Update: cannot %s HKLM\\%s: %s", doing, key, text);
}

/* One pause value: *present = 0 when it is not there. */
static int read_time_value(HKEY key, const wchar_t *name, int64_t *out, int *present, ts_err *err) {
  wchar_t text[64];
  DWORD type = 0, size = sizeof text - sizeof text[0];
  *present = 0;
  LSTATUS status = RegQueryValueExW(key, name, NULL, &type, (BYTE *)text, &size);
  if (status == ERROR_FILE_NOT_FOUND)
    return TS_OK;
  if (status != ERROR_SUCCESS)
    return registry_error(err, status, "read the pause in");
  text[size / sizeof text[0]] = L'\0';
  char name8[64], text8[64];
  win32_from_wide(name, name8, sizeof name8);
  win32_from_wide(text, text8, sizeof text8);
  if (type != REG_SZ || !parse_iso_utc(text, out))
    return ts_err_set(err, TS_EOS,
                      "Windows Update: the registry value %s is '%s', not a time such as "
                      "2026-12-07T10:00:00Z",
                      name8, type == REG_SZ ? text8 : "(not a string)");
  *present = 1;
  return TS_OK;
}

static int update_get(int64_t *paused_until_unix, ts_err *err) {
  *paused_until_unix = 0;
  HKEY key;
  wchar_t where[KEY_MAX];
  LSTATUS status = RegOpenKeyExW(HKEY_LOCAL_MACHINE, update_key(where), 0,
                                 KEY_QUERY_VALUE | KEY_WOW64_64KEY, &key);
  if (status == ERROR_FILE_NOT_FOUND)
    return key_exists(WINDOWS_UPDATE_KEY) || plat_knob_is_set(PLAT_KNOB_UPDATE_KEY)
               ? TS_OK
               : ts_err_set(err, TS_EUNSUPPORTED,
                            "Windows Update is not there (no HKLM\\SOFTWARE\\Microsoft\\"
                            "WindowsUpdate key)");
  if (status != ERROR_SUCCESS)
    return registry_error(err, status, "open");
  /* The expiry is what Settings shows; older builds wrote only the feature and quality ends,
     and then the later of them is the pause's end. */
  int rc = TS_OK;
  for (size_t i = 0; i < COUNT(pause_end_values) && rc == TS_OK; i++) {
    int64_t t = 0;
    int present = 0;
    rc = read_time_value(key, pause_end_values[i], &t, &present, err);
    if (rc == TS_OK && present && (i == 0 || t > *paused_until_unix))
      *paused_until_unix = t;
    if (rc == TS_OK && present && i == 0)
      break;
  }
  RegCloseKey(key);
  return rc;
}

static int write_time_value(HKEY key, const wchar_t *name, int64_t t, ts_err *err) {
  wchar_t text[64];
  format_iso_utc(t, text, COUNT(text));
  LSTATUS status = RegSetValueExW(key, name, 0, REG_SZ, (const BYTE *)text,
                                  (DWORD)((wcslen(text) + 1) * sizeof text[0]));
  return status == ERROR_SUCCESS ? TS_OK : registry_error(err, status, "write the pause to");
}

static int update_set(int64_t paused_until_unix, ts_err *err) {
  HKEY key;
  LSTATUS status;
  wchar_t where[KEY_MAX];
  if (paused_until_unix == 0) {
    /* "Resume updates" removes the values; no key means nothing is paused already. */
    status = RegOpenKeyExW(HKEY_LOCAL_MACHINE, update_key(where), 0,
                           KEY_SET_VALUE | KEY_WOW64_64KEY, &key);
    if (status == ERROR_FILE_NOT_FOUND)
      return TS_OK;
    if (status != ERROR_SUCCESS)
      return registry_error(err, status, "open");
    int rc = TS_OK;
    for (size_t i = 0; i < COUNT(pause_end_values) * 2 && rc == TS_OK; i++) {
      const wchar_t *name = i < COUNT(pause_end_values)
                                ? pause_end_values[i]
                                : pause_start_values[i - COUNT(pause_end_values)];
      status = RegDeleteValueW(key, name);
      if (status != ERROR_SUCCESS && status != ERROR_FILE_NOT_FOUND)
        rc = registry_error(err, status, "remove the pause from");
    }
    RegCloseKey(key);
    return rc;
  }
  if (!plat_knob_is_set(PLAT_KNOB_UPDATE_KEY) && !key_exists(WINDOWS_UPDATE_KEY))
    return ts_err_set(err, TS_EUNSUPPORTED,
                      "Windows Update is not there (no HKLM\\SOFTWARE\\Microsoft\\WindowsUpdate "
                      "key)");
  status = RegCreateKeyExW(HKEY_LOCAL_MACHINE, update_key(where), 0, NULL, 0,
                           KEY_SET_VALUE | KEY_QUERY_VALUE | KEY_WOW64_64KEY, NULL, &key, NULL);
  if (status != ERROR_SUCCESS)
    return registry_error(err, status, "create");
  FILETIME now_ft;
  GetSystemTimeAsFileTime(&now_ft);
  int64_t now =
      (int64_t)((((uint64_t)now_ft.dwHighDateTime << 32) | now_ft.dwLowDateTime) / 10000000ull -
                11644473600ull);
  int rc = TS_OK;
  for (size_t i = 0; i < COUNT(pause_start_values) && rc == TS_OK; i++) {
    int64_t t;
    int present = 0;
    if (read_time_value(key, pause_start_values[i], &t, &present, err) != TS_OK || !present)
      rc = write_time_value(key, pause_start_values[i], now, err);
  }
  for (size_t i = 0; i < COUNT(pause_end_values) && rc == TS_OK; i++)
    rc = write_time_value(key, pause_end_values[i], paused_until_unix, err);
  RegCloseKey(key);
  return rc;
}

/* ---- the update stack's own signal and the policy over the pause ---------------------------- */

/* Where the update stack and policy keep what they say about the pause. The Settings app's values
   above are what quiet mode writes; these are written by others: PausedQualityStatus and
   PausedFeatureStatus by the update service when it takes or ends a pause (documented by
   Microsoft for the policy pause: 0 not paused, 1 paused, 2 resumed after the pause; seen after a
   Settings pause on Windows 10 22H2 and Windows 11), PolicyState by the update stack as its
   effective policy (undocumented; seen on Windows 10 and 11). Sources: docs/user-guide.md. */
enum { SIG_SETTINGS, SIG_STATE, SIG_GP, SIG_GP_AU, SIG_MDM, SIG_COUNT };
static const wchar_t *const signal_keys[SIG_COUNT] = {
    L"SOFTWARE\\Microsoft\\WindowsUpdate\\UpdatePolicy\\Settings",
    L"SOFTWARE\\Microsoft\\WindowsUpdate\\UpdatePolicy\\PolicyState",
    L"SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate",
    L"SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate\\AU",
    L"SOFTWARE\\Microsoft\\PolicyManager\\current\\device\\Update"};
/* The same under a test root (PLAT_KNOB_UPDATE_SIGNAL_ROOT). */
static const wchar_t *const signal_test_keys[SIG_COUNT] = {
    L"UpdatePolicy\\Settings", L"UpdatePolicy\\PolicyState", L"Policies\\WindowsUpdate",
    L"Policies\\WindowsUpdate\\AU", L"PolicyManager\\Update"};

/* Opens one of the keys for reading; NULL when it is not there (or cannot be read). */
static HKEY open_signal_key(int which) {
  wchar_t path[400], root_buf[KEY_MAX];
  const wchar_t *root = test_key(PLAT_KNOB_UPDATE_SIGNAL_ROOT, root_buf);
  if (root)
    _snwprintf(path, COUNT(path), L"%ls\\%ls", root, signal_test_keys[which]);
  else
    _snwprintf(path, COUNT(path), L"%ls", signal_keys[which]);
  path[COUNT(path) - 1] = L'\0';
  HKEY key;
  if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, path, 0, KEY_QUERY_VALUE | KEY_WOW64_64KEY, &key) !=
      ERROR_SUCCESS)
    return NULL;
  return key;
}

/* A REG_DWORD, or -1 when absent or of another type. */
static int read_dword(HKEY key, const wchar_t *name) {
  DWORD value = 0, type = 0, size = sizeof value;
  if (!key || RegQueryValueExW(key, name, NULL, &type, (BYTE *)&value, &size) != ERROR_SUCCESS ||
      type != REG_DWORD)
    return -1;
  return (int)value;
}

/* A REG_SZ time, or 0 when absent or not a time. */
static int64_t read_time(HKEY key, const wchar_t *name) {
  int64_t t = 0;
  int present = 0;
  ts_err ignored;
  if (!key || read_time_value(key, name, &t, &present, &ignored) != TS_OK || !present)
    return 0;
  return t;
}

static void note_policy(plat_update_signal *out, const char *where) {
  if (!out->policy_where[0])
    snprintf(out->policy_where, sizeof out->policy_where, "%s", where);
}

static int update_signal(plat_update_signal *out, ts_err *err) {
  memset(out, 0, sizeof *out);
  if (!plat_knob_is_set(PLAT_KNOB_UPDATE_SIGNAL_ROOT) && !key_exists(WINDOWS_UPDATE_KEY))
    return ts_err_set(err, TS_EUNSUPPORTED,
                      "Windows Update is not there (no HKLM\\SOFTWARE\\Microsoft\\WindowsUpdate "
                      "key)");
  HKEY keys[SIG_COUNT];
  for (int i = 0; i < SIG_COUNT; i++)
    keys[i] = open_signal_key(i);
  out->quality_status = read_dword(keys[SIG_SETTINGS], L"PausedQualityStatus");
  out->feature_status = read_dword(keys[SIG_SETTINGS], L"PausedFeatureStatus");
  out->quality_paused = read_dword(keys[SIG_STATE], L"QualityUpdatesPaused");
  out->feature_paused = read_dword(keys[SIG_STATE], L"FeatureUpdatesPaused");
  out->quality_end = read_time(keys[SIG_STATE], L"PauseQualityUpdatesEndTime");
  out->feature_end = read_time(keys[SIG_STATE], L"PauseFeatureUpdatesEndTime");
  /* Policy over the pause, first found named in policy_where. */
  static const char gp[] =
      "Group Policy (HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate)";
  static const char mdm[] =
      "MDM (HKLM\\SOFTWARE\\Microsoft\\PolicyManager\\current\\device\\Update)";
  static const char gp_au[] =
      "Group Policy (HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate\\AU)";
  const struct {
    int key;
    const wchar_t *name;
    int *flag;
    const char *where;
  } policies[] = {
      {SIG_GP, L"SetDisablePauseUXAccess", &out->pause_ux_disabled, gp},
      {SIG_MDM, L"SetDisablePauseUXAccess", &out->pause_ux_disabled, mdm},
      {SIG_GP, L"SetDisableUXWUAccess", &out->wu_ux_disabled, gp},
      {SIG_MDM, L"SetDisableUXWUAccess", &out->wu_ux_disabled, mdm},
      {SIG_GP_AU, L"UseWUServer", &out->wsus, gp_au},
  };
  for (size_t i = 0; i < COUNT(policies); i++)
    if (read_dword(keys[policies[i].key], policies[i].name) == 1) {
      *policies[i].flag = 1;
      note_policy(out, policies[i].where);
    }
  for (int i = 0; i < SIG_COUNT; i++)
    if (keys[i])
      RegCloseKey(keys[i]);
  return TS_OK;
}

/* ---- the table ------------------------------------------------------------------------------ */

static const char *unavailable_reason(void) {
  int defender = defender_present(), update = key_exists(WINDOWS_UPDATE_KEY);
  if (defender && update)
    return NULL;
  if (!defender && !update)
    return "this Windows has neither Defender (with Windows PowerShell) nor Windows Update "
           "(as under Wine); quiet mode has nothing to quiet";
  if (!defender)
    return "Windows Defender is not installed here (no Defender registry key or no Windows "
           "PowerShell); quiet mode can only pause Windows Update";
  return "Windows Update is not there (no HKLM\\SOFTWARE\\Microsoft\\WindowsUpdate key); quiet "
         "mode can only turn Defender's real-time protection off";
}

static const plat_quiet_ops win32_quiet_ops = {defender_get,  defender_set,       update_get,
                                               update_set,    unavailable_reason, update_signal,
                                               defender_facts};

const plat_quiet_ops *plat_quiet_system(void) { return &win32_quiet_ops; }
