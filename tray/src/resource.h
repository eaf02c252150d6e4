/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* resource.h - resource and command IDs of threadsoup-tray, shared by the tray's parts and tray.rc.
 */
#ifndef THREADSOUP_TRAY_RESOURCE_H
#define THREADSOUP_TRAY_RESOURCE_H

/* Only #defines here: windres reads this file too. */

#define TRAY_VERSION_MAJOR 0
#define TRAY_VERSION_MINOR 1
#define TRAY_VERSION_PATCH 0
#define TRAY_VERSION_STR "0.1.0"

/* The lowest icon ID is the one Explorer shows for the .exe, so the tray icon comes first. */
#define IDI_TRAY 101
/* The notification icon per state, in the order of shell.h's tray_kind (res/make-icons.sh). */
#define IDI_STATE_IDLE 102
#define IDI_STATE_LOAD 103
#define IDI_STATE_RUN 104
#define IDI_STATE_QUIET 105
#define IDI_STATE_UNREACHABLE 106

/* Popup menu commands; the status line is disabled and never sent. */
#define IDM_STATUS 1001
#define IDM_EXIT 1002
#define IDM_LOAD_STOP 1003
#define IDM_RUN_STOP 1004
#define IDM_QUIET_NOW 1005
#define IDM_BACKGROUND 1007
/* Results: the latest report, the history (parts/results.c). */
#define IDM_RESULTS_LATEST 1020
#define IDM_RESULTS_HISTORY 1021
#define IDD_HISTORY 3000
#define IDC_HISTORY_LIST 3001
#define IDC_HISTORY_OPEN 3002
#define IDC_HISTORY_LABEL 3003
/* Schedules and Start the service (parts/schedules.c): menu 1030-1039, dialogs and controls
 * 4000-4999. */
#define IDM_SCHEDULES 1030
#define IDM_START_SERVICE 1031
#define IDD_SCHEDULES 4000
#define IDC_SCHED_LIST 4001
#define IDC_SCHED_ADD 4002
#define IDC_SCHED_REMOVE 4003
#define IDC_SCHED_STATUS 4004
#define IDD_SCHED_ADD 4100
#define IDC_SCHED_PRESET 4101
#define IDC_SCHED_FILE 4102
#define IDC_SCHED_WHEN 4103
#define IDC_SCHED_REQUIRE 4104
#define IDC_SCHED_ERROR 4105
/* The Custom load and Record a score dialogs (parts/dialogs.c): menu items, templates, controls. */
#define IDM_CUSTOM_LOAD 1010
#define IDM_RECORD_SCORE 1011
#define IDD_CUSTOM_LOAD 2000
#define IDD_RECORD_SCORE 2001
#define IDC_LOAD_SCENARIO 2010
#define IDC_LOAD_COUNT 2011
#define IDC_LOAD_INTERVAL 2012
#define IDC_LOAD_PHASE 2013
#define IDC_LOAD_TIMER 2014
#define IDC_LOAD_RESOLUTION 2015
#define IDC_LOAD_STACK 2016
#define IDC_LOAD_JOINED 2017
#define IDC_LOAD_ERROR 2018
#define IDC_RECORD_BENCH 2020
#define IDC_RECORD_CONDITION 2021
#define IDC_RECORD_SCORE 2022
#define IDC_RECORD_RUN 2023
#define IDC_RECORD_ERROR 2024
/* Ranges: one ID per row of the suggested loads (menu_items.c) and of the service's presets
   (parts/menus.c), counted from the first. */
#define IDM_LOAD_FIRST 1100
#define IDM_RUN_FIRST 1200
#define IDM_RUN_COUNT 32
/* Quiet mode during experiments' choices (menu_items.c's TRAY_QUIET_CHOICES), 1040-1049. */
#define IDM_QUIET_RUNS_FIRST 1040

#endif
