/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* version.h - the product's version, one place for the CLI, the tray, the store and the files. */
#ifndef THREADSOUP_VERSION_H
#define THREADSOUP_VERSION_H

#define TS_VERSION_MAJOR 0
#define TS_VERSION_MINOR 1
#define TS_VERSION_PATCH 0
#define TS_VERSION "0.1.0"

#endif
