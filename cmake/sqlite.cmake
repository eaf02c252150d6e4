# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# sqlite.cmake - SQLite for each build: Debian's libsqlite3 natively; for the Windows cross build
# the official amalgamation at the version pinned in scripts/fetch-sqlite.sh (checked by SHA-256).
if(WIN32)
  set(TS_SQLITE_DIR "${CMAKE_SOURCE_DIR}/third_party/sqlite" CACHE PATH
      "folder holding the SQLite amalgamation (sqlite3.c, sqlite3.h)")
  if(NOT EXISTS "${TS_SQLITE_DIR}/sqlite3.c")
    message(FATAL_ERROR "SQLite amalgamation not found in ${TS_SQLITE_DIR}: "
                        "run scripts/fetch-sqlite.sh (make does it for you)")
  endif()
  add_library(ts_sqlite3 STATIC "${TS_SQLITE_DIR}/sqlite3.c")
  target_include_directories(ts_sqlite3 SYSTEM PUBLIC "${TS_SQLITE_DIR}")
  target_compile_definitions(ts_sqlite3 PRIVATE SQLITE_THREADSAFE=1 SQLITE_DQS=0
                             SQLITE_OMIT_LOAD_EXTENSION SQLITE_DEFAULT_FOREIGN_KEYS=1)
  target_compile_options(ts_sqlite3 PRIVATE -w)
else()
  find_package(SQLite3 REQUIRED)
  add_library(ts_sqlite3 INTERFACE)
  target_link_libraries(ts_sqlite3 INTERFACE SQLite::SQLite3)
endif()
