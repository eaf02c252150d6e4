# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# sources.cmake - every source file of every program, in one place, per platform half. The
# Visual Studio projects list the Windows halves of the same files (tests/cmake/vcxproj.cmake
# checks that they agree).
set(TS_SHARED_SOURCES
  shared/src/buf.c
  shared/src/civil.c
  shared/src/err.c
  shared/src/json_read.c
  shared/src/json_write.c
  shared/src/log.c
  shared/src/ntprocinfo.c
  shared/src/parse.c
  shared/src/plat/cores.c
  shared/src/plat/fault.c
  shared/src/plat/machine_id.c
  shared/src/plat/peer_rights.c
  shared/src/plat/run_deadline.c
  shared/src/plat/server_check.c
  shared/src/plat/spin_probe.c
  shared/src/proto.c
  shared/src/plat/${TS_PLATFORM}/census.c
  shared/src/plat/${TS_PLATFORM}/child.c
  shared/src/plat/${TS_PLATFORM}/doctor.c
  shared/src/plat/${TS_PLATFORM}/fs.c
  shared/src/plat/${TS_PLATFORM}/interrupt.c
  shared/src/plat/${TS_PLATFORM}/ipc.c
  shared/src/plat/${TS_PLATFORM}/power.c
  shared/src/plat/${TS_PLATFORM}/proc.c
  shared/src/plat/${TS_PLATFORM}/quiet.c
  shared/src/plat/${TS_PLATFORM}/sysinfo.c
  shared/src/plat/${TS_PLATFORM}/thread.c
  shared/src/plat/${TS_PLATFORM}/time.c
  shared/src/plat/${TS_PLATFORM}/wait.c
  shared/src/regex.c
  shared/src/sha256.c
  shared/src/utf8.c
)
if(WIN32)
  list(APPEND TS_SHARED_SOURCES shared/src/plat/win32/win32.c)
endif()

set(TS_CORE_SOURCES
  service/src/bench/bench.c
  service/src/bench/builtin.c
  service/src/bench/command.c
  service/src/bench/cpuz.c
  service/src/bench/sevenzip.c
  service/src/doctor/checks.c
  service/src/doctor/doctor.c
  service/src/engine/engine.c
  service/src/exchange/export.c
  service/src/exchange/import.c
  service/src/engine/like.c
  service/src/engine/probe.c
  service/src/engine/scenarios.c
  service/src/engine/scenarios/burn.c
  service/src/engine/scenarios/procs.c
  service/src/engine/scenarios/sleep.c
  service/src/engine/scenarios/wait.c
  service/src/engine/scenarios/yield.c
  service/src/engine/spec.c
  service/src/experiment/estimate.c
  service/src/experiment/experiment.c
  service/src/experiment/plan.c
  service/src/experiment/precision.c
  service/src/quiet/quiet.c
  service/src/report/census.c
  service/src/report/cost.c
  service/src/report/calibration.c
  service/src/report/compare.c
  service/src/report/csv.c
  service/src/report/data.c
  service/src/report/headline.c
  service/src/report/html.c
  service/src/report/json.c
  service/src/report/text.c
  service/src/server/events.c
  service/src/server/handlers.c
  service/src/server/quiet_guard.c
  service/src/server/runner.c
  service/src/server/schedule.c
  service/src/server/scheduler.c
  service/src/server/server.c
  service/src/stats/fit.c
  service/src/stats/stats.c
  service/src/store/schema.c
  service/src/store/store.c
)

set(TS_CLI_SOURCES
  service/src/main.c
  service/src/cli/args.c
  service/src/cli/census.c
  service/src/cli/client.c
  service/src/cli/doctor.c
  service/src/cli/exchange.c
  service/src/cli/history.c
  service/src/cli/load.c
  service/src/cli/record.c
  service/src/cli/report.c
  service/src/cli/run.c
  service/src/cli/service.c
  service/src/host/${TS_PLATFORM}/host.c
)
if(WIN32)
  list(APPEND TS_CLI_SOURCES service/src/host/win32/pending.c service/res/threadsoup.rc)
  list(APPEND TS_CLI_SOURCES service/src/host/win32/group.c)
endif()

set(TS_IDLE_SOURCES service/idle/${TS_PLATFORM}/idle.c)
if(WIN32)
  list(APPEND TS_IDLE_SOURCES service/res/idle.rc)
endif()

set(TS_TRAY_SOURCES
  tray/src/schedules.c
  tray/src/tray.c
  tray/src/results.c
  tray/src/load_form.c
  tray/src/menu_items.c
  tray/src/dialogs.c
  tray/tray.rc
)
