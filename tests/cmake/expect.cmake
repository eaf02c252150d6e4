# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# expect.cmake - runs one command and checks its exit code and output; optionally checks a SQLite
# database afterwards with the sqlite3 shell. Used by CTest as `cmake -D… -P expect.cmake`.
#   CMD          the command, a ;-list (the Wine wrapper first for Windows programs)
#   EXPECT_RC    the exit code expected (default 0)
#   STDOUT_HAS   ;-list of regular expressions stdout must match
#   STDERR_HAS   ;-list of regular expressions stderr must match
#   STDOUT_LACKS ;-list of regular expressions stdout must not match
#   PRE_REMOVE   a file to delete before running (a fresh database)
#   PRE_WRITE    a file to create before running, with PRE_WRITE_TEXT as content
#   DB, SQL, SQL_EQUALS   after the run, `sqlite3 DB SQL` must print exactly SQL_EQUALS
#   UNCHANGED    a file whose content must be the same after the run as before it
if(NOT DEFINED EXPECT_RC)
  set(EXPECT_RC 0)
endif()
if(DEFINED PRE_REMOVE)
  file(REMOVE "${PRE_REMOVE}" "${PRE_REMOVE}-wal" "${PRE_REMOVE}-shm")
endif()
if(DEFINED PRE_WRITE)
  get_filename_component(pre_dir "${PRE_WRITE}" DIRECTORY)
  file(MAKE_DIRECTORY "${pre_dir}")
  file(WRITE "${PRE_WRITE}" "${PRE_WRITE_TEXT}")
endif()
if(DEFINED UNCHANGED)
  file(SHA256 "${UNCHANGED}" unchanged_before)
endif()

string(REPLACE "|" ";" CMD "${CMD}")
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 600)
message("command: ${CMD}\nexit code: ${rc}\n--- stdout\n${out}--- stderr\n${err}---")

set(failures "")
if(NOT "${rc}" STREQUAL "${EXPECT_RC}")
  string(APPEND failures "exit code ${rc}, expected ${EXPECT_RC}\n")
endif()
foreach(re IN LISTS STDOUT_HAS)
  if(NOT out MATCHES "${re}")
    string(APPEND failures "stdout does not match: ${re}\n")
  endif()
endforeach()
foreach(re IN LISTS STDOUT_LACKS)
  if(out MATCHES "${re}")
    string(APPEND failures "stdout matches what it must not: ${re}\n")
  endif()
endforeach()
foreach(re IN LISTS STDERR_HAS)
  if(NOT err MATCHES "${re}")
    string(APPEND failures "stderr does not match: ${re}\n")
  endif()
endforeach()
if(DEFINED UNCHANGED)
  file(SHA256 "${UNCHANGED}" unchanged_after)
  if(NOT unchanged_before STREQUAL unchanged_after)
    string(APPEND failures "${UNCHANGED} was modified\n")
  endif()
endif()
if(DEFINED SQL)
  execute_process(COMMAND sqlite3 "${DB}" "${SQL}" RESULT_VARIABLE sql_rc OUTPUT_VARIABLE sql_out
                  ERROR_VARIABLE sql_err OUTPUT_STRIP_TRAILING_WHITESPACE)
  message("sql: ${SQL}\n=> ${sql_out}${sql_err}")
  if(NOT sql_rc EQUAL 0 OR NOT sql_out STREQUAL "${SQL_EQUALS}")
    string(APPEND failures "sqlite3 ${DB} '${SQL}' printed '${sql_out}${sql_err}', expected '${SQL_EQUALS}'\n")
  endif()
endif()
if(failures)
  message(FATAL_ERROR "${failures}")
endif()
