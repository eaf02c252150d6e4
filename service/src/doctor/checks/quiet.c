/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* quiet.c - the quiet check: Defender read back, Tamper Protection, the Windows Update pause. */
#include <math.h>

#include "../checks.h"
#include "../probe.h"
#include "../../quiet/quiet.h"

static void check_quiet(const doctor_context *ctx, doctor_finding *out) {
  const plat_quiet_ops *ops = ctx->quiet_ops ? ctx->quiet_ops : plat_quiet_system();
  const char *wine = doctor_wine(ctx);
  const char *missing = ops->unavailable_reason ? ops->unavailable_reason() : NULL;
  if (missing) {
    if (wine)
      doctor_set(out, DOCTOR_SKIP, NAN, missing,
                 "not available here: Wine %s has no Defender and no Windows Update", wine);
    else
      doctor_set(out, DOCTOR_SKIP, NAN, missing, "quiet mode is not available here");
    return;
  }
  quiet_machine m;
  quiet_read_machine(ops, &m);
  int tamper = plat_tamper_protection();
  /* The pause as the update stack itself reports it, not only our own values read back. */
  quiet_update_check update;
  quiet_check_update(ops, &update);
  const char *advice = "";
  doctor_status status = DOCTOR_OK;
  if (!m.defender_known || !m.update_known) {
    status = DOCTOR_WARN;
    advice = "quiet mode cannot read back what it changes: run as an administrator; see "
             "`threadsoup quiet status`";
  } else if (tamper == 1) {
    status = DOCTOR_WARN;
    advice = "Tamper Protection keeps Defender on: turn it off in Windows Security (Virus & "
             "threat protection settings) for quiet runs, or accept runs with Defender on (the "
             "report says so)";
  } else if (update.state == QUIET_UPDATE_BLOCKED) {
    status = DOCTOR_WARN;
    advice = "policy (Group Policy or MDM) keeps users from pausing Windows Update: quiet runs "
             "leave updates on (the report says so), or ask the machine's administrator";
  } else if (!update.ok) {
    status = DOCTOR_WARN;
    advice = "Windows Update does not confirm a pause here: quiet runs will say \"written, not "
             "confirmed\"; pause updates in Settings once and run the doctor again";
  }
  doctor_set(out, status, m.defender_known ? m.defender_on : NAN, advice,
             "Defender real-time protection %s (read back)%s%s; Tamper Protection %s; %s",
             m.defender_known ? (m.defender_on ? "on" : "off") : "unknown",
             m.defender_known ? "" : ": ", m.defender_known ? "" : m.defender_error,
             tamper == 1   ? "on"
             : tamper == 0 ? "off"
                           : "unknown",
             update.text);
}

const doctor_check doctor_check_quiet = {
    "quiet", "quiet mode can read back and change Defender and the Windows Update pause",
    DOCTOR_SLOW, check_quiet};
