#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# admin_or_skip.sh - runs a test that needs an administrator of ThreadSoup's service (root or a
# member of group threadsoup: the service gives load, runs and schedules to no one else). Run by
# anyone else it prints why and exits 77, which CTest reports as skipped (SKIP_RETURN_CODE).
# Usage: admin_or_skip.sh PROGRAM [ARGUMENT...]
if [ "$(id -u)" -ne 0 ] && ! id -nG | tr ' ' '\n' | grep -qx threadsoup; then
  echo "skipped: $(basename "$1") needs root or group threadsoup, and $(id -un) is neither"
  exit 77
fi
exec "$@"
