# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# doctor.cmake - runs the real `threadsoup doctor` on this machine (natively, or under Wine) and
# checks that it is honest: its exit code agrees with its printed verdict and its fail lines, the
# JSON form agrees with the text, every check is printed, and under Wine it says what Wine lacks.
#   CMD   the program, a |-list (the Wine wrapper first for the Windows build)
#   WINE  1 for the Windows build under Wine
string(REPLACE "|" ";" CMD "${CMD}")
set(failures "")

string(TIMESTAMP t0 "%s")
execute_process(COMMAND ${CMD} doctor RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 300)
string(TIMESTAMP t1 "%s")
math(EXPR took "${t1} - ${t0}")
message("threadsoup doctor: exit code ${rc}, ${took} s\n--- stdout\n${out}--- stderr\n${err}---")

if(out MATCHES "verdict: all hold \\(exit 0\\)")
  set(printed 0)
elseif(out MATCHES "verdict: some do not hold \\(exit 1\\)")
  set(printed 1)
else()
  set(printed none)
  string(APPEND failures "no verdict line\n")
endif()
if(NOT "${rc}" STREQUAL "${printed}")
  string(APPEND failures "exit code ${rc}, but the printed verdict says ${printed}\n")
endif()
string(REGEX MATCHALL "(^|\n)fail  " fail_lines "${out}")
list(LENGTH fail_lines fails)
if((fails GREATER 0 AND NOT rc EQUAL 1) OR (fails EQUAL 0 AND NOT rc EQUAL 0))
  string(APPEND failures "${fails} fail lines, yet exit code ${rc}\n")
endif()
foreach(check timer children rights server data quiet pid-max threads-max pids-max open-files
              user-tasks)
  if(NOT out MATCHES "(^|\n)(ok|warn|fail|skip) +${check} ")
    string(APPEND failures "check ${check} is not printed\n")
  endif()
endforeach()
if(NOT out MATCHES "(^|\n)[a-z]+ +timer +a 1 ms sleep took [0-9.]+ ms \\(median\\)")
  string(APPEND failures "the timer line has no measured median\n")
endif()
if(WINE)
  # What Wine lacks is said plainly, as a skip with its reason, never as a pass.
  if(NOT out MATCHES "skip +quiet +not available here: Wine [^\n]* has no Defender")
    string(APPEND failures "the quiet line does not say that Wine has no Defender\n")
  endif()
  if(NOT out MATCHES "skip +pid-max +[^\n]*\n +why: Windows has no pid_max")
    string(APPEND failures "pid-max under Wine is not a skip saying Windows has none\n")
  endif()
endif()

execute_process(COMMAND ${CMD} doctor --quick --json RESULT_VARIABLE jrc OUTPUT_VARIABLE json
                ERROR_VARIABLE jerr TIMEOUT 300)
message("threadsoup doctor --quick --json: exit code ${jrc}\n${json}")
if(NOT json MATCHES "\"exit_code\":${jrc},")
  string(APPEND failures "the JSON's exit_code disagrees with the exit code ${jrc}\n")
endif()
if(json MATCHES "\"check\":\"children\"")
  string(APPEND failures "--quick ran the children check\n")
endif()

if(failures)
  message(FATAL_ERROR "${failures}")
endif()
