/*
 * pg_catalog.h: the PostgreSQL lake's connection and catalog
 * (docs/architecture.md, "The PostgreSQL lake"): a node connects with a
 * libpq connection string and finds, or makes, the lake's tables in its
 * namespace (a PostgreSQL schema).
 *
 * The first piece of the clustered topology (issue 14): nothing opens a
 * PostgreSQL lake through pier_open yet.
 */
#ifndef PIER_CLUSTER_PG_CATALOG_H
#define PIER_CLUSTER_PG_CATALOG_H

#include <stdint.h>

#include <libpq-fe.h>

#include "base/base.h"
#include "catalog/catalog.h"

/* The format of the lake's tables this Pier reads and writes. */
#define PIER__PG_FORMAT 2

/* The namespace a lake lives in when none is named. */
#define PIER__PG_NAMESPACE "pier"

/* What a lake's meta table says of it. */
typedef struct pier__pg_meta {
    int64_t format;
    int64_t identity;          /* random, positive: which lake this is */
    int64_t catalog_version;
    bool created;              /* this call made the lake */
} pier__pg_meta;

/*
 * Connects to the server that `conninfo` names (a postgres:// URL or
 * libpq's key=value form), whose database must be UTF-8; the session then
 * speaks UTF-8. A connection string's own connect_timeout wins over the
 * default of 10 s.
 * @return PIER_E_LAKE_UNAVAILABLE with libpq's reason (unreachable, a
 *         refused login, no such database) or the database's encoding.
 */
pier_status pier__pg_connect(PGconn **out, const char *conninfo,
                             pier_error *err);

/* A failed statement (r may be NULL: the connection's error) as
 * `status`, its message "<what>: <the server's first line> (SQLSTATE
 * xxxxx)". */
pier_status pier__pg_fail(PGresult *r, PGconn *c, pier_status status,
                          const char *what, pier_error *err);

/*
 * Makes sure c can be used: when its connection was lost (the server went
 * away, restarted, or ended the session), makes it again once (PQreset),
 * with the session setup of pier__pg_connect. Whatever transaction c had
 * open is gone (the server rolled it back). Cheap when c is fine: no
 * round trip.
 * @return PIER_E_LAKE_UNAVAILABLE with libpq's reason when the server
 *         cannot be reached.
 */
pier_status pier__pg_alive(PGconn *c, pier_error *err);

/* Whether `ns` may name a namespace: [a-z_][a-z0-9_]*, at most 63 bytes
 * (PostgreSQL's longest identifier), so that it needs no quoting rules
 * beyond double quotes. */
bool pier__pg_namespace_valid(const char *ns);

/*
 * Finds the lake in namespace `ns` of the connected database, or makes it:
 * its schema, meta, head, boards, columns and changes tables, in one
 * transaction under an advisory lock on the namespace, so that nodes
 * opening a new lake at once find none of it or all of it.
 * @return PIER_E_INVALID_ARGUMENT for a namespace that is not valid;
 *         PIER_E_LAKE_UNAVAILABLE for a lake of a newer format, one whose
 *         tables are missing, a namespace holding tables of the same
 *         names that are not a lake's, or a failed statement (the
 *         server's message and SQLSTATE); nothing is left half-made.
 */
pier_status pier__pg_catalog_ensure(PGconn *c, const char *ns,
                                    pier__pg_meta *out, pier_error *err);

/* pier__pg_catalog_ensure, or with create false, only finding the lake:
 * PIER_E_LAKE_UNAVAILABLE when the namespace holds none. */
pier_status pier__pg_catalog_open(PGconn *c, const char *ns, bool create,
                                  pier__pg_meta *out, pier_error *err);

/* One record of the change log, as a write appends it. */
typedef struct pier__pg_record {
    const char *board;
    const char *kind;          /* "insert", "update", "delete", ... */
    const char *payload;       /* the record's JSON, as the SQLite lake's */
} pier__pg_record;

/*
 * Appends n records (n > 0) to the change log of the lake in `ns`, as the
 * last statement of the caller's open transaction: the head row is
 * updated in the same statement, and its row lock, held to the end of the
 * transaction, makes writers of every node hand out watermarks in the
 * order they commit (docs/architecture.md, "Watermarks: a serialized
 * head"). *first is the first record's watermark; the others follow it.
 * committed_at and stamp go on every record.
 * @return PIER_E_WRITE_FAILED with the server's message.
 */
pier_status pier__pg_log_append(PGconn *c, const char *ns,
                                const pier__pg_record *recs, size_t n,
                                int64_t committed_at, int64_t stamp,
                                int64_t *first, pier_error *err);

/* A record as the change log gives it back (strings valid during the
 * call that gets it). */
typedef struct pier__pg_change {
    int64_t watermark;
    const char *kind;
    const char *payload;
    size_t len;
    int64_t committed_at;
    int64_t stamp;
} pier__pg_change;

/*
 * The records of `board` after watermark `after`, at most `limit`, in
 * order: each given to fn; fn returning false stops. The lake's head is
 * in *head (read in the same snapshot).
 * @return PIER_E_READ_FAILED with the server's message.
 */
pier_status pier__pg_log_after(PGconn *c, const char *ns, const char *board,
                               int64_t after, int64_t limit,
                               bool (*fn)(void *payload,
                                          const pier__pg_change *rec),
                               void *payload, int64_t *head,
                               pier_error *err);

/* ---- boards (pg_boards.c) ---- */

/*
 * Loads every board of the lake into an empty catalog (the engine's
 * model), checking each row as the SQLite lake does
 * (pier__board_load_column).
 * @return PIER_E_READ_FAILED; PIER_E_LAKE_UNAVAILABLE for a damaged
 *         catalog.
 */
pier_status pier__pg_catalog_load(PGconn *c, const char *ns,
                                  pier__catalog *out, pier_error *err);

/*
 * Makes board b in the caller's transaction: its catalog rows (the
 * columns' ids are assigned), its rows table "<ns>".r<board_key>, a new
 * catalog version; under the board's advisory lock.
 * @return PIER_E_WRITE_FAILED, also when another node made the board
 *         first (the caller reloads the catalog and writes again).
 */
pier_status pier__pg_board_create(PGconn *c, const char *ns, pier__board *b,
                                  int64_t *board_key, pier_error *err);

/* Adds b->columns[col] (appended to the model already) in the caller's
 * transaction: its catalog row (its id assigned), its cells' column, a
 * new catalog version; under the board's advisory lock.
 * @return PIER_E_WRITE_FAILED (a column of that name made by another node
 *         meanwhile among the reasons). */
pier_status pier__pg_column_add(PGconn *c, const char *ns, pier__board *b,
                                size_t col, pier_error *err);

/* The key that names board `id`'s rows table ("<ns>".r<key>).
 * @return PIER_E_BOARD_NOT_FOUND; PIER_E_WRITE_FAILED (the server). */
pier_status pier__pg_board_key(PGconn *c, const char *ns, const char *id,
                               int64_t *key, pier_error *err);

/* Drops board b in the caller's transaction: its rows table and catalog
 * rows (its column ids are never handed out again), a new catalog
 * version; under the board's advisory lock. */
pier_status pier__pg_board_drop(PGconn *c, const char *ns,
                                const pier__board *b, pier_error *err);
/* Empties board b's rows table in the caller's transaction.
 * @return PIER_E_BOARD_NOT_FOUND; PIER_E_WRITE_FAILED. */
pier_status pier__pg_board_truncate(PGconn *c, const char *ns,
                                    const pier__board *b, pier_error *err);
/* Records b->columns[col]'s new type (`from` the old one) in the caller's
 * transaction, re-rendering its stored cells as text when
 * pier__type_widen_rewrites says so; a new catalog version; under the
 * board's advisory lock. */
pier_status pier__pg_column_widen(PGconn *c, const char *ns,
                                  const pier__board *b, size_t col,
                                  pier__type from, pier_error *err);

#endif /* PIER_CLUSTER_PG_CATALOG_H */
