/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* schema.h - the migrations that build a ThreadSoup database (internal to the store). */
#ifndef THREADSOUP_SCHEMA_H
#define THREADSOUP_SCHEMA_H

/* How many migrations exist; equals STORE_SCHEMA_VERSION (a unit test checks it). */
int schema_migration_count(void);
/* The SQL that turns a database of version-1 into `version`; NULL when out of range. */
const char *schema_migration(int version);

#endif
