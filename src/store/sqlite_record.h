/*
 * sqlite_record.h: a connection's changes, recorded from SQLite's
 * pre-update hook and written in SQLite's changeset format, byte for byte
 * as a session (sqlite3session, attached to every table of "main") would
 * write them (sqlite_record.c says how, and why not a session).
 *
 * One recorder per connection, which it must not share with a session
 * (both use the connection's one pre-update hook) nor outlive. It records
 * one transaction at a time: pier__recorder_start ... _stop, inside the
 * transaction. What it learns of tables (their columns, key and SELECT)
 * it keeps across transactions, for as long as SQLite's schema cookie
 * says that the schema is the one it read them in.
 */
#ifndef PIER_STORE_SQLITE_RECORD_H
#define PIER_STORE_SQLITE_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include <sqlite3.h>

typedef struct pier__recorder pier__recorder;

/* Which tables: called with a table's name (as its schema spells it) when
 * a transaction first changes it, or when a changeset is written; nonzero
 * to take it. The same name must always get the same answer. */
typedef int (*pier__recorder_filter)(void *payload, const char *table);

/* A recorder of db's changes, or NULL (out of memory). While it runs its
 * own statements (the schema cookie, PRAGMA table_info, each table's
 * SELECT, from inside the hook too) it sets *policy (may be NULL) to
 * false, and back: the owner's authorizer judges only while it is true. */
pier__recorder *pier__recorder_new(sqlite3 *db, bool *policy);
/* Stops it if it runs, then frees it and its statements. NULL: no-op. */
void pier__recorder_free(pier__recorder *r);

/* Starts recording the changes made from now on to the tables `filter`
 * takes (sqlite_ tables never). Call it inside a write transaction.
 * Returns SQLite's code. */
int pier__recorder_start(pier__recorder *r, pier__recorder_filter filter,
                         void *payload);
/* Stops recording (writes that follow are not recorded) but keeps what
 * was recorded, for pier__recorder_changeset. */
void pier__recorder_pause(pier__recorder *r);
/* The changes recorded to the tables `take` takes (NULL: all), as a
 * changeset in *out (malloc; NULL and 0 when there is none), from the
 * rows as they are now. Returns SQLite's code, as
 * sqlite3session_changeset would: SQLITE_SCHEMA when a table's columns
 * changed after it was written, SQLITE_NOMEM... */
int pier__recorder_changeset(pier__recorder *r, pier__recorder_filter take,
                             void *payload, void **out, size_t *len);
/* A table `take` takes (NULL: all) that the transaction changed, with no
 * PRIMARY KEY, so that none of its changes are recorded: its name
 * (borrowed until the recorder stops), or NULL. */
const char *pier__recorder_unkeyed(pier__recorder *r,
                                   pier__recorder_filter take,
                                   void *payload);
/* Ends the transaction's recording: removes the hook, forgets the
 * changes. Not running: no-op. */
void pier__recorder_stop(pier__recorder *r);

#endif /* PIER_STORE_SQLITE_RECORD_H */
