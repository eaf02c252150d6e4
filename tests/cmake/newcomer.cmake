# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# newcomer.cmake - keeps the newcomer's path short: the native profile of scripts/bootstrap.sh
# installs no Windows toolchain, Wine, browser or image tools, `make run` (and the other native
# targets) ask only for that profile, the tests ask for all of it, and `make help` lists every
# `make` target README.md names. Run as `cmake -DSOURCE_DIR=… -P newcomer.cmake`.
cmake_minimum_required(VERSION 3.20)
set(failures "")

function(packages profile out)
  execute_process(COMMAND sh "${SOURCE_DIR}/scripts/bootstrap.sh" --list ${profile}
                  OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "scripts/bootstrap.sh --list ${profile} failed (${rc})")
  endif()
  string(REGEX REPLACE "\n$" "" text "${text}")
  string(REPLACE "\n" ";" list "${text}")
  set(${out} "${list}" PARENT_SCOPE)
endfunction()

# What only the tests and the Windows build use; the native profile must hold none of it, and
# the full profile must hold each (else this check would pass on an empty list).
set(heavy mingw wine chromium imagemagick wixl xvfb)
packages(native native_packages)
packages(all all_packages)
foreach(word IN LISTS heavy)
  foreach(p IN LISTS native_packages)
    if(p MATCHES "${word}")
      string(APPEND failures "bootstrap.sh's native profile installs ${p} (a ${word} package); "
                             "it belongs to the profile 'all' only\n")
    endif()
  endforeach()
  if(NOT all_packages MATCHES "${word}")
    string(APPEND failures "bootstrap.sh's profile 'all' has no ${word} package, which the tests need\n")
  endif()
endforeach()
foreach(p IN LISTS native_packages)
  if(NOT p IN_LIST all_packages)
    string(APPEND failures "bootstrap.sh's profile 'all' lacks the native package ${p}\n")
  endif()
endforeach()

# What each target would run (make -n prints the commands without running them).
function(dry_run target out)
  execute_process(COMMAND make --no-print-directory -n -C "${SOURCE_DIR}" ${target}
                  OUTPUT_VARIABLE text ERROR_VARIABLE errors RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "make -n ${target} failed (${rc}): ${errors}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
foreach(target run linux bench install)
  dry_run(${target} text)
  if(NOT text MATCHES "bootstrap\\.sh native")
    string(APPEND failures "make ${target} does not install the native profile (bootstrap.sh native)\n")
  endif()
  if(text MATCHES "bootstrap\\.sh all" OR text MATCHES "bootstrap\\.sh *\n")
    string(APPEND failures "make ${target} would install the full profile (bootstrap.sh all), "
                           "which only the tests and the Windows build need\n")
  endif()
endforeach()
foreach(target windows test-linux test-windows)
  dry_run(${target} text)
  if(NOT text MATCHES "bootstrap\\.sh all")
    string(APPEND failures "make ${target} does not install the full profile (bootstrap.sh all)\n")
  endif()
endforeach()
# .ci/run installs through bootstrap.sh's default, which must stay the full profile.
file(READ "${SOURCE_DIR}/.ci/run" ci)
if(NOT ci MATCHES "sh scripts/bootstrap\\.sh( all)?\n")
  string(APPEND failures ".ci/run does not run scripts/bootstrap.sh with the full profile\n")
endif()

# Every `make TARGET` of README.md is in `make help`: a command, in backticks or at the start of a
# line (prose such as the report's "make this benchmark slower" is not one).
file(READ "${SOURCE_DIR}/README.md" readme)
string(REGEX MATCHALL "[`\n]make [a-z][a-z-]*" found "${readme}")
set(named "")
foreach(item IN LISTS found)
  string(SUBSTRING "${item}" 1 -1 command)
  list(APPEND named "${command}")
endforeach()
list(REMOVE_DUPLICATES named)
execute_process(COMMAND make --no-print-directory -s -C "${SOURCE_DIR}" help OUTPUT_VARIABLE help)
foreach(command IN LISTS named)
  if(NOT help MATCHES "${command}([ \n]|$)")
    string(APPEND failures "README.md names `${command}`, which `make help` does not list\n")
  endif()
endforeach()
list(LENGTH named named_count)
message("bootstrap.sh: ${native_packages} natively; make help lists the ${named_count} make commands of README.md")
if(failures)
  message(FATAL_ERROR "${failures}")
endif()
