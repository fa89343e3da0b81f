/*
 * lake.h: the lake behind one interface, so that the PostgreSQL lake of the
 * clustered topology can join the SQLite one without touching the engine.
 *
 * A lake holds the catalog, the rows of every board and the change log.
 * The engine drives it in transactions: begin_write (or begin_read), any
 * number of calls, then commit or rollback. Every call that changes
 * something must run inside a write transaction; a failed call leaves the
 * transaction to be rolled back by the engine. The lake never decides
 * policy (types, names, strictness): it stores what the engine decided.
 */
#ifndef PIER_STORE_LAKE_H
#define PIER_STORE_LAKE_H

#include <stdatomic.h>

#include "base/base.h"
#include "catalog/catalog.h"
#include "types/types.h"

typedef struct pier__lake pier__lake;

typedef struct pier__lake_config {
    pier_durability durability;
    int busy_timeout_ms;
    bool must_exist;           /* refuse a missing lake: make nothing */
    bool readonly;             /* SQLITE_OPEN_READONLY: write nothing, not
                                  even at open (sqlite_lake.c) */
} pier__lake_config;

/* Called once per stored row, in order, with one cell per column of the
 * board (board order). Cells are valid during the call only. A non-zero
 * return stops the scan. */
typedef int (*pier__row_cb)(const pier__cell *cells, size_t ncells,
                            void *payload);

/* ---- limits on statements (sqlite_guard.c; docs/query.md, Limits) ---- */

/* Why a guard stopped its statement. */
typedef enum pier__trip {
    PIER__TRIP_NONE = 0,
    PIER__TRIP_TIME,           /* it ran past time_us */
    PIER__TRIP_MEMORY,         /* it grew the heap past memory_bytes */
    PIER__TRIP_VALUE,          /* a value longer than value_bytes */
    PIER__TRIP_INTERRUPT       /* pier_cursor_interrupt or pier_interrupt */
} pier__trip;

/*
 * What stops one statement (a query) or one pier_exec call while it runs
 * in the lake. The engine owns it and fills the limits before handing it
 * to the lake (reader_guard, stmt_guard); the lake keeps the rest while
 * the statement runs, checking at least every PIER__GUARD_STEPS virtual
 * machine steps and between rows. Only `interrupted` is touched by other
 * threads (and signal handlers).
 */
typedef struct pier__guard {
    int64_t time_us;           /* 0: no limit */
    int64_t value_bytes;       /* 0: SQLite's own maximum */
    int64_t memory_bytes;      /* 0: no limit */
    const char *noun;          /* what runs, in messages: "query" */
    atomic_bool interrupted;   /* pier_cursor_interrupt */
    const atomic_uint_fast64_t *interrupts; /* the engine's pier_interrupt
                                  count; NULL: none */
    uint64_t interrupts_seen;  /* ... when the statement began */
    int64_t now_us;            /* the instant it began, by the engine's
                                  clock (microseconds, UTC): what now()
                                  gives in a query */
    /* Kept by the lake: */
    int64_t used_us;           /* the time of the steps that ended */
    int64_t step_began_us;     /* when the running step began; 0: none */
    int64_t memory_base;       /* the heap when the statement began */
    int64_t held_bytes;        /* memory the engine holds for it besides
                                  (pier_exec's result rows) */
    pier__trip tripped;        /* what stopped it */
} pier__guard;

/* The engine's limits check a running statement this often. */
#define PIER__GUARD_STEPS 1000

/* ---- board-scoped queries ---- */

/* The most boards one query may read: its own and those its options
 * name. */
#define PIER__QUERY_MAX_BOARDS 64

/* A read-only connection with a snapshot open on it (sqlite_query.c). */
typedef struct pier__reader pier__reader;

/* What a placeholder stands for. */
typedef enum pier__hole_kind {
    PIER__HOLE_BOARD = 0,      /* {{board}}, {{board:NAME}}: a board's rows */
    PIER__HOLE_FTS,            /* {{fts}}, {{fts:NAME}}: a board's full-text
                                  index */
    PIER__HOLE_TABLE           /* {{table:NAME}}: a declared table or view */
} pier__hole_kind;

/* A placeholder of a query template. */
typedef struct pier__placeholder {
    size_t offset;             /* where it starts in the template, bytes */
    size_t len;                /* its length, braces included */
    size_t board;              /* what it stands for: an index into
                                  pier__query_text.boards, or for
                                  PIER__HOLE_TABLE into .tables */
    pier__hole_kind kind;
} pier__placeholder;

/* A name the query's text gives a CTE of its own (`name [(columns)] AS
 * [NOT] [MATERIALIZED] (`), not NUL-terminated. */
typedef struct pier__query_cte {
    const char *name;
    size_t len;
    size_t offset;             /* where it is in the template */
} pier__query_cte;

/* The most CTE names a query's policy keeps (more are not allowed as
 * tables: a refusal, never an escape). */
#define PIER__QUERY_MAX_CTES 32

/* A query as the engine hands it to the lake. */
typedef struct pier__query_text {
    const char *sql;           /* the template, not NUL-terminated */
    size_t len;
    const pier__placeholder *holes;   /* in template order */
    size_t nholes;
    const pier__board *const *boards; /* the boards it may read; [0] is the
                                         query's own */
    size_t nboards;
    const char *const *tables; /* the declared tables and views it may
                                  read (as the options name them) */
    size_t ntables;
    int64_t catalog_version;   /* the version `boards` reflect */
    const pier__query_cte *ctes; /* the names its text gives CTEs */
    size_t nctes;
    int64_t max_stale_us;      /* a PostgreSQL lake's replicas may answer
                                  as they stand when the lake cannot be
                                  reached, if they were at its head at most
                                  this long ago; 0: never */
} pier__query_text;

/* Where a result column comes from: a board column, or nothing (a
 * computed value: board and column are -1). */
typedef struct pier__query_origin {
    ptrdiff_t board;           /* index into pier__query_text.boards */
    ptrdiff_t column;          /* index into that board's columns */
} pier__query_origin;

/* A prepared query's result columns and parameters. */
typedef struct pier__query_shape {
    size_t ncolumns;
    const char *const *names;
    const pier__query_origin *origins;
    size_t nparams;
    const char *const *params; /* parameter i + 1 as spelled in the SQL
                                  (":n", "$n", "@n", "?3"); NULL for an
                                  anonymous "?" */
    uint64_t epoch;            /* this prepare, for reader_again; no two
                                  prepares of a lake share one */
} pier__query_shape;

/* ---- SQL statements as the lake's owner (pier_exec) ---- */

/* A prepared statement's result columns and parameters. */
typedef struct pier__stmt_shape {
    size_t ncolumns;
    const char *const *names;
    const char *const *tables;   /* per column: the table a value read
                                    straight from a column comes from, or
                                    NULL (computed) */
    const char *const *columns;  /* ... and that column's name */
    size_t nparams;
    const char *const *params;   /* as in pier__query_shape */
} pier__stmt_shape;

/* What made a statement fail, beyond SQLite's message: the declared column
 * whose value check or read-only trigger refused it. */
typedef struct pier__stmt_failure {
    int64_t column_id;         /* 0: none */
    char reason[128];          /* the value check's reason */
    char value[128];           /* the refused value, shortened, quoted */
    char table[128];           /* a STRICT datatype refusal: the table... */
    char column[128];          /* ... and the column SQLite named */
    bool cast;                 /* a CAST to a type of the dialect refused
                                  the value (_pcs) */
    int fk;                    /* a foreign key's trigger (column_id's):
                                  1 no parent row has the value; 2 child
                                  rows still name it; 0 neither */
    bool applying;             /* set while a changeset applies: a value
                                  check fails its CHECK rather than the
                                  statement, so that the apply meets a
                                  constraint conflict it can skip, and a
                                  foreign key's trigger lets the write
                                  through, leaving the key to SQLite's
                                  check at the apply's end */
} pier__stmt_failure;

/* One object of the lake's SQL schema (a declared table, an index, a view,
 * a read-only trigger), as sqlite_schema holds it. */
typedef struct pier__schema_object {
    const char *type;          /* "table", "index", "view", "trigger" */
    const char *name;
    const char *table;         /* the table it belongs to */
    const char *sql;           /* NULL for an index SQLite made itself */
} pier__schema_object;

/* What the catalog keeps for migrations beside the SQL (format 3), one
 * entry at a time. */
typedef enum pier__meta_kind {
    PIER__META_TABLE,          /* id: table id; flag: managed */
    PIER__META_COLUMN,         /* id: column id; flag: rules (a, b: the
                                  declared default and backfill, or NULL) */
    PIER__META_VIEW,           /* name; a: its declared columns (JSON);
                                  flag: managed */
    PIER__META_INDEX,          /* name; flag: managed */
    PIER__META_BOARD,          /* name: the board id; flag: managed */
    PIER__META_COLUMN_TYPE,    /* migrate_meta_put only: id: column id;
                                  a: its type's new spelling */
    PIER__META_COLUMN_READONLY /* migrate_meta_put only: id: column id;
                                  flag: READONLY */
} pier__meta_kind;

typedef struct pier__migrate_meta {
    pier__meta_kind kind;
    int64_t id;
    const char *name;
    const char *a, *b;
    bool flag;
    bool added;                /* COLUMN: added to a table holding rows */
} pier__migrate_meta;

/* ---- change history (sqlite_history.c; docs/history.md) ---- */

/* What a recording sees: the changes made on the writer connection to
 * declared tables with a PRIMARY KEY (tables without one, boards and the
 * catalog are never recorded), until the recordings are stopped. */
typedef struct pier__recording pier__recording;

/* How pier_changeset_apply meets a conflict (pier_on_conflict's values). */
enum { PIER__APPLY_ABORT = 0, PIER__APPLY_SKIP = 1, PIER__APPLY_REPLACE = 2 };

/* One change of a changeset, as pier__changeset_walk hands it over. */
typedef struct pier__change {
    const char *table;
    char op;                   /* 'i' insert, 'u' update, 'd' delete */
    bool indirect;             /* made by a trigger or a foreign key's
                                  action, not by the statement itself */
    size_t ncolumns;
    const unsigned char *pk;   /* per column: non-zero for a key column */
    const pier__cell *old;     /* per column: the row before (delete,
                                  update), or NULL (insert) */
    const bool *has_old;       /* ... and which of them the change holds
                                  (an update holds the key and the columns
                                  it changed) */
    const pier__cell *new_;    /* the row after (insert, update), or NULL */
    const bool *has_new;
} pier__change;

/* Whether bytes[0..len) are a changeset: NULL if SQLite's reader reads
 * them to the end and can invert them (a patchset cannot be: it is
 * refused), else why not, in static storage. Empty bytes are the empty
 * changeset. */
const char *pier__changeset_why(const void *bytes, size_t len);

/* Calls cb for every change of a changeset, in order; a non-zero return
 * stops. @return PIER_E_INVALID_ARGUMENT for bytes that are not a
 * changeset, PIER_E_OUT_OF_MEMORY. */
pier_status pier__changeset_walk(const void *bytes, size_t len,
                                 int (*cb)(const pier__change *c,
                                           void *payload),
                                 void *payload, pier_error *err);

/* How many changes a changeset holds (checked as pier__changeset_walk
 * checks it). */
pier_status pier__changeset_count(const void *bytes, size_t len,
                                  int64_t *out, pier_error *err);

/* One versioned migration file applied to the lake (format 4): what
 * _pier_migration_files keeps of it. */
typedef struct pier__file_record {
    const char *version;       /* 14 digits, YYYYMMDDHHMMSS */
    const char *name;          /* the part of its file's name after them */
    const char *checksum;      /* of the file as applied: 16 hex digits */
    int64_t applied_at;        /* microseconds since the epoch, UTC */
} pier__file_record;

typedef struct pier__lake_ops {
    const char *name;                                  /* "sqlite" */
    void (*close)(pier__lake *lake);

    pier_status (*begin_write)(pier__lake *lake, pier_error *err);
    pier_status (*begin_read)(pier__lake *lake, pier_error *err);
    pier_status (*commit)(pier__lake *lake, pier_error *err);
    void (*rollback)(pier__lake *lake);

    /* The catalog version: bumped by every transaction that changes the
     * catalog, so that a cached model knows when to reload. */
    pier_status (*catalog_version)(pier__lake *lake, int64_t *out,
                                   pier_error *err);
    pier_status (*catalog_bump)(pier__lake *lake, int64_t *out,
                                pier_error *err);
    /* Loads every board into an empty catalog. */
    pier_status (*catalog_load)(pier__lake *lake, pier__catalog *out,
                                pier_error *err);

    /* Creates a board (its physical table and catalog rows) and assigns
     * ids to its columns. */
    pier_status (*board_create)(pier__lake *lake, pier__board *b,
                                pier_error *err);
    pier_status (*board_drop)(pier__lake *lake, const pier__board *b,
                              pier_error *err);
    pier_status (*board_truncate)(pier__lake *lake, const pier__board *b,
                                  pier_error *err);
    /* Adds b->columns[col] (already appended to the model); assigns its
     * id. */
    pier_status (*column_add)(pier__lake *lake, pier__board *b, size_t col,
                              pier_error *err);
    /* Records b->columns[col]'s new type, `from` being the old one, and
     * rewrites the stored cells when pier__type_widen_rewrites says so. */
    pier_status (*column_widen)(pier__lake *lake, const pier__board *b,
                                size_t col, pier__type from,
                                pier_error *err);

    /* ---- full-text indexes (sqlite_fts.c); NULL on a lake without ---- */

    /* Makes board b's full-text index over columns[0..n) (text columns
     * of b, checked by the caller) and indexes its rows. */
    pier_status (*fts_enable)(pier__lake *lake, const pier__board *b,
                              const char *const *columns, size_t n,
                              pier_error *err);
    /* Drops board b's index (the caller checked it has one). */
    pier_status (*fts_disable)(pier__lake *lake, const pier__board *b,
                               pier_error *err);
    /* The columns board's index holds, in order (*n 0, *columns NULL:
     * it has none); the caller frees each and the array. */
    pier_status (*fts_columns)(pier__lake *lake, const char *board,
                               char ***columns, size_t *n, pier_error *err);

    /* Calls cb for the row with this id (id != NULL) or for every row in
     * id order (id == NULL). */
    pier_status (*rows_scan)(pier__lake *lake, const pier__board *b,
                             const char *id, pier__row_cb cb, void *payload,
                             pier_error *err);
    pier_status (*rows_count)(pier__lake *lake, const pier__board *b,
                              int64_t *out, pier_error *err);

    /* Appends a change record, stamped with the write's version stamp;
     * *watermark is its position. */
    pier_status (*change_append)(pier__lake *lake, const char *board,
                                 const char *kind, const char *payload,
                                 size_t len, int64_t committed_at,
                                 int64_t stamp, int64_t *watermark,
                                 pier_error *err);
    /* The newest watermark ever handed out (0 if none). */
    pier_status (*head)(pier__lake *lake, int64_t *out, pier_error *err);

    /* ---- writes beyond insert (sqlite_rows.c) ---- */

    /* The version stamp of the newest change record (0 if none); a write's
     * own stamp is one more than this at least. */
    pier_status (*last_stamp)(pier__lake *lake, int64_t *out,
                              pier_error *err);
    /* Writes nrows rows of b->ncolumns cells (row-major) with version stamp
     * `stamp`. PIER__WRITE_INSERT fails with PIER_E_DUPLICATE_ID on a
     * stored id (*failed_row says which row); PIER__WRITE_UPSERT replaces
     * the stored row of the same id when `stamp` is at least the stored
     * one's, else keeps the stored row. */
    pier_status (*rows_write)(pier__lake *lake, const pier__board *b,
                              int mode, const pier__cell *cells,
                              size_t nrows, int64_t stamp,
                              size_t *failed_row, pier_error *err);
    /* Sets the columns cols[0..n) of row `id` to cells[0..n), updated_at
     * to `updated_at` and the stamp; *found is false (and nothing changes)
     * when there is no such row. */
    pier_status (*row_update)(pier__lake *lake, const pier__board *b,
                              const char *id, size_t id_len,
                              const size_t *cols, const pier__cell *cells,
                              size_t n, int64_t updated_at, int64_t stamp,
                              bool *found, pier_error *err);
    /* Deletes the rows with these ids; *deleted counts those that were
     * there. */
    pier_status (*rows_delete)(pier__lake *lake, const pier__board *b,
                               const char *const *ids, size_t nids,
                               int64_t *deleted, pier_error *err);

    /* ---- the feed and operations (sqlite_feed.c) ---- */

    /* Calls cb for each record of `board` with watermark > after, in
     * ascending order, at most `limit` of them. The record's strings are
     * valid during the call only. */
    pier_status (*changes_read)(pier__lake *lake, const char *board,
                                int64_t after, size_t limit,
                                int (*cb)(const pier_change *rec,
                                          void *payload),
                                void *payload, pier_error *err);
    /* The retention floor: records at or below it may have been dropped. */
    pier_status (*floor)(pier__lake *lake, int64_t *out, pier_error *err);
    /* Drops records committed before `before` (microseconds), never the
     * newest; raises the floor to the highest watermark dropped; records
     * `now` as the last maintenance. *dropped counts them. Runs in a write
     * transaction. */
    pier_status (*changes_expire)(pier__lake *lake, int64_t before,
                                  int64_t now, int64_t *dropped,
                                  pier_error *err);
    /* Outside any transaction: copies the log into the lake file and
     * empties it, which needs no room beyond the pages the log adds to
     * the file and gives the log's space back. */
    pier_status (*checkpoint)(pier__lake *lake, pier_error *err);
    /* Outside any transaction: returns free pages to the file system and
     * checkpoints the log. */
    pier_status (*compact_files)(pier__lake *lake, pier_error *err);
    /* Outside any transaction: copies the whole lake, as it stands at one
     * commit, into the new file `dest_file` (sqlite_backup.c), failing
     * with PIER_E_INTERRUPTED once *interrupts moves (pier_interrupt;
     * NULL: never). NULL on a lake that cannot (PostgreSQL: pg_dump). */
    pier_status (*backup)(pier__lake *lake, const char *dest_file,
                          const atomic_uint_fast64_t *interrupts,
                          pier_error *err);
    /* In a read transaction: writes the whole lake as JSON lines to `fn`
     * (sqlite_export.c). NULL on a lake that cannot. */
    pier_status (*export_lines)(pier__lake *lake, pier_write_fn fn,
                                void *payload, pier_error *err);
    /* In a write transaction: loads an export, read from `fn` a part at
     * a time, into a new lake, refusing one that holds anything. */
    pier_status (*import_lines)(pier__lake *lake, pier_read_fn fn,
                                void *payload, pier_error *err);
    /* Fills what the lake knows of pier_stats (boards, rows, records,
     * head, floor, file sizes, last maintenance). Read transaction. */
    pier_status (*stats)(pier__lake *lake, const pier__catalog *cat,
                         pier_stats *out, pier_error *err);
    /* Fills one board's figures past `version` (rows, bytes, change
     * records; the engine counts the columns). Read transaction. NULL:
     * the lake cannot tell (pier_board_stats_get refuses). */
    pier_status (*board_stats)(pier__lake *lake, const pier__board *b,
                               pier_board_stats *out, pier_error *err);

    /* ---- board-scoped queries (sqlite_query.c; docs/query.md) ---- */

    /* Checks a reader out of the lake's pool (opening one if none is
     * idle). It belongs to the caller until reader_close; no engine lock
     * is needed to use it. A statement on it reads one snapshot, from its
     * first step to its last row. */
    pier_status (*reader_open)(pier__lake *lake, pier__reader **out,
                               pier_error *err);
    /* Compiles a query on the reader: replaces its placeholders, checks
     * it is one read-only statement touching nothing but q->boards, and
     * describes its columns and parameters in *shape (borrowed until the
     * next prepare or reader_close). q->boards are read during the call
     * only.
     * @return PIER_E_ENTITY_NOT_ALLOWED, PIER_E_QUERY_FAILED (err->offset
     *         in the template). */
    pier_status (*reader_prepare)(pier__reader *r, const pier__query_text *q,
                                  pier__query_shape *shape, pier_error *err);
    /* Prepares again what the prepare that gave shape->epoch prepared, if
     * that was the reader's last prepare: the same statement, policy and
     * shape (still borrowed as that prepare's). False when it was not
     * (prepare then). Only a query compiled against the same catalog
     * version may ask. */
    bool (*reader_again)(pier__reader *r, uint64_t epoch);
    /* Binds parameter i (1-based) of the prepared statement; text and
     * blobs are copied. */
    pier_status (*reader_bind)(pier__reader *r, int i, const pier__cell *c,
                               pier_error *err);
    /* The next row of the prepared statement: *cells (one per column,
     * borrowed until the next step, restart or close; a text cell's bytes
     * end with a NUL, so cursors hand them out as they are), or NULL at
     * the end, where the snapshot ends too. */
    pier_status (*reader_step)(pier__reader *r, const pier__cell **cells,
                               pier_error *err);
    /* The catalog version the reader's latest read of the lake saw: the
     * statement's snapshot once it has stepped (and read the lake); costs
     * no I/O while the lake has not changed since the reader last asked.
     * fresh: the lake's current version, read now. */
    pier_status (*reader_version)(pier__reader *r, bool fresh,
                                  int64_t *version, pier_error *err);
    /* Ends the statement's snapshot (resets it), before another prepare. */
    void (*reader_restart)(pier__reader *r);
    /* Puts the reader's statement under guard g (NULL: none) from now to
     * the end of its snapshot: its steps count toward g's time, values
     * and bound parameters longer than g->value_bytes fail, and so does
     * a step once g trips (PIER_E_LIMIT_EXCEEDED, PIER_E_INTERRUPTED). */
    void (*reader_guard)(pier__reader *r, pier__guard *g);
    /* Ends the snapshot and returns the reader to the pool. NULL: no-op. */
    void (*reader_close)(pier__reader *r);

    /* ---- declared tables (sqlite_tables.c; docs/sql.md) ---- */

    /* Makes the catalog rows of table t match the model: records the table
     * and the columns that have no id yet (assigning ids), renames and
     * reorders the others, forgets the table's columns the model no longer
     * has. */
    pier_status (*table_save)(pier__lake *lake, pier__table *t,
                              pier_error *err);
    /* Forgets the table and its columns. */
    pier_status (*table_forget)(pier__lake *lake, int64_t table_id,
                                pier_error *err);

    /* Prepares one statement of the SQL dialect on the writer connection,
     * under the owner's policy: it may touch anything but the engine's
     * own objects (names starting with _pier_, boards' tables) and may not
     * attach, detach, run pragmas or create triggers or virtual tables;
     * unless it is DDL (`ddl`: CREATE or DROP INDEX or VIEW, which SQLite
     * carries out by reading sqlite_schema), it may not read the schema
     * table either. *shape is borrowed until stmt_finish.
     * @return PIER_E_ENTITY_NOT_ALLOWED, PIER_E_QUERY_FAILED (err->offset
     *         relative to `sql`). */
    pier_status (*stmt_prepare)(pier__lake *lake, const char *sql,
                                size_t len, bool ddl,
                                pier__stmt_shape *shape, pier_error *err);
    /* Binds parameter i (1-based); text and blobs are copied. */
    pier_status (*stmt_bind)(pier__lake *lake, int i, const pier__cell *c,
                             pier_error *err);
    /* The next row (*cells, borrowed until the next step or finish), or
     * NULL when the statement is done. A refusal fills *failure (which
     * stays valid until the next prepare): the constraint statuses, and
     * PIER_E_COLUMN_TYPE_CONFLICT or PIER_E_READONLY_COLUMN with the
     * column (the caller names it from its catalog). */
    pier_status (*stmt_step)(pier__lake *lake, const pier__cell **cells,
                             const pier__stmt_failure **failure,
                             pier_error *err);
    /* Rows the last statement inserted, updated or deleted. */
    int64_t (*stmt_changes)(pier__lake *lake);
    void (*stmt_finish)(pier__lake *lake);
    /* Runs DDL the engine wrote itself (a declared table's physical
     * definition, its read-only triggers), outside the owner's policy.
     * @return PIER_E_QUERY_FAILED when SQLite refuses the statement (its
     *         message after "the lake refused a statement: "),
     *         PIER_E_WRITE_FAILED when the lake cannot carry it out (an
     *         I/O error, a full disk, a lock). */
    pier_status (*ddl)(pier__lake *lake, const char *sql, pier_error *err);
    /* Whether a write transaction is open on the writer. */
    bool (*in_write)(pier__lake *lake);
    /* Puts the writer's statements under guard g from now until
     * stmt_guard(lake, NULL): one pier_exec call, whose time runs from
     * here. Failures as for reader_guard. */
    void (*stmt_guard)(pier__lake *lake, pier__guard *g);
    /* Checks g now, between rows: PIER_OK, or the status of what it
     * tripped on. */
    pier_status (*guard_check)(pier__lake *lake, pier__guard *g,
                               pier_error *err);

    /* Calls cb for every object of the SQL schema that is not the
     * engine's own (catalog, boards), in creation order. A non-zero return
     * stops. */
    pier_status (*schema_objects)(pier__lake *lake,
                                  int (*cb)(const pier__schema_object *o,
                                            void *payload),
                                  void *payload, pier_error *err);
    /* Calls cb for every index made on a board's table (by a migration;
     * its SQL names the board's physical table), in creation order. A
     * non-zero return stops. */
    pier_status (*board_indexes)(pier__lake *lake,
                                 int (*cb)(const pier__schema_object *o,
                                           void *payload),
                                 void *payload, pier_error *err);
    /* Replaces the SQL of the schema object `name` (a table or a view)
     * in sqlite_schema, in the open write transaction, and moves the
     * schema's version so that every connection reads it again: a change
     * the stored records do not see (a value check, a default). */
    pier_status (*schema_sql_set)(pier__lake *lake, const char *name,
                                  const char *sql, pier_error *err);
    /* Records one entry of what migrations keep (as migrate_meta gives
     * them); a VIEW or INDEX with `forget` is removed. */
    pier_status (*migrate_meta_put)(pier__lake *lake,
                                    const pier__migrate_meta *m, bool forget,
                                    pier_error *err);
    /* How many rows of declared table `table` hold null in `column`
     * (*count), and the values of `key` (NULL: the rowid) of up to five
     * of them, as text separated by ", " (keys). */
    pier_status (*null_witnesses)(pier__lake *lake, const char *table,
                                  const char *column, const char *key,
                                  int64_t *count, pier__buf *keys,
                                  pier_error *err);
    /* The proof of a unique index: how many rows of `table` share the
     * values of `list` (SQL expressions, each after ", ") with another row
     * where `where` (SQL, or NULL) holds and none is null (*count), and up
     * to five such values, each a group's quoted values, into `keys`
     * (", ..." after them when there are more). */
    pier_status (*duplicate_witnesses)(pier__lake *lake, const char *table,
                                       const char *const *list, size_t n,
                                       const char *where, int64_t *count,
                                       pier__buf *keys, pier_error *err);
    /* How many rows the declared table `name` holds (a scan). */
    pier_status (*table_rows)(pier__lake *lake, const char *name,
                              int64_t *out, pier_error *err);
    /* The AUTOINCREMENT counter of declared table `name`: the largest key
     * it handed out or was given (*out; -1 when it has none). */
    pier_status (*sequence_get)(pier__lake *lake, const char *name,
                                int64_t *out, pier_error *err);
    /* Calls cb for every entry migrations keep beside the SQL: tables,
     * then columns, views, indexes and boards. A non-zero return stops. */
    pier_status (*migrate_meta)(pier__lake *lake,
                                int (*cb)(const pier__migrate_meta *m,
                                          void *payload),
                                void *payload, pier_error *err);
    /* Records the SQL schema as it is now as the schema Pier made (after
     * every DDL statement of the dialect, in its transaction). */
    pier_status (*schema_remember)(pier__lake *lake, pier_error *err);
    /* Compares the SQL schema with the one Pier remembers; appends one
     * line per difference to *report ("table x: created without Pier"),
     * nothing when they agree. Costs no I/O while SQLite's schema has not
     * changed since the last comparison that found them equal. */
    pier_status (*schema_compare)(pier__lake *lake, pier__buf *report,
                                  pier_error *err);

    /* ---- change history (sqlite_history.c; docs/history.md) ---- */

    /* Records commit trigger t in the catalog, after the others;
     * created_at in microseconds since the epoch. */
    pier_status (*trigger_save)(pier__lake *lake,
                                const pier__commit_trigger *t,
                                int64_t created_at, pier_error *err);
    /* Whether main table `name` has a PRIMARY KEY (what sessions
     * record). */
    pier_status (*table_keyed)(pier__lake *lake, const char *name,
                               bool *out, pier_error *err);
    /* Forgets the commit trigger of this name. */
    pier_status (*trigger_forget)(pier__lake *lake, const char *name,
                                  pier_error *err);
    /* Starts recording the changes to `tables` (ntables 0: every declared
     * table) made on the writer from now on; enabled. */
    pier_status (*recording_open)(pier__lake *lake,
                                  const char *const *tables, size_t ntables,
                                  pier__recording **out, pier_error *err);
    /* Stops every open recording: the writes that follow are not
     * recorded (what was recorded stays, for recording_take). */
    void (*recordings_stop)(pier__lake *lake);
    /* The changes recorded so far, as a changeset in *bytes (malloc; NULL
     * and 0 when there are none). */
    pier_status (*recording_take)(pier__recording *r, void **bytes,
                                  size_t *len, pier_error *err);
    /* A table the recording takes that the transaction changed but that
     * has no PRIMARY KEY, so that none of its changes are recorded (its
     * name, borrowed until the recording closes), or NULL. */
    const char *(*recording_unkeyed)(pier__recording *r);
    /* Ends the recording. NULL: no-op. */
    void (*recording_close)(pier__recording *r);
    /* Makes bytes[0..len) what the SQL function pier_changeset() returns
     * on the writer (borrowed until the next call), or NULL (bytes NULL),
     * as it returns outside a commit trigger. */
    void (*changeset_expose)(pier__lake *lake, const void *bytes,
                             size_t len);
    /* Applies a changeset (or its inverse) in the open write transaction
     * with conflict policy `policy` (PIER__APPLY_*); counts the changes
     * skipped and the rows replaced. Every table it names must be a table
     * of the dialect whose columns and key match the change's.
     * @return PIER_E_INVALID_ARGUMENT (not a changeset),
     *         PIER_E_ENTITY_NOT_ALLOWED (an engine's table),
     *         PIER_E_TABLE_NOT_FOUND (a table missing, or with other
     *         columns), PIER_E_CHANGESET_CONFLICT (a conflict under
     *         abort), the constraint statuses, PIER_E_WRITE_FAILED;
     *         for a value check's or a read-only column's refusal,
     *         *failure says which column (column_id) and value. */
    pier_status (*changeset_apply)(pier__lake *lake, const void *bytes,
                                   size_t len, bool invert, int policy,
                                   int64_t *skipped, int64_t *replaced,
                                   pier__stmt_failure *failure,
                                   pier_error *err);

    /* ---- versioned migration files (sqlite_files.c) ---- */

    /* Calls cb for every version applied, in ascending order; the
     * record's strings are valid during the call only. A non-zero return
     * stops. */
    pier_status (*files_applied)(pier__lake *lake,
                                 int (*cb)(const pier__file_record *r,
                                           void *payload),
                                 void *payload, pier_error *err);
    /* Records a version as applied (in the transaction that applied it). */
    pier_status (*file_record)(pier__lake *lake, const pier__file_record *r,
                               pier_error *err);
    /* Forgets an applied version (in the transaction that rolled it
     * back). */
    pier_status (*file_forget)(pier__lake *lake, const char *version,
                               pier_error *err);

    /* ---- replicas (a PostgreSQL lake's node; NULL on SQLite, where a
     * board is always at the head) ---- */

    /* Outside any transaction: brings the board's replica to the head
     * (read now); *watermark is where it is. */
    pier_status (*sync)(pier__lake *lake, const char *board,
                        int64_t *watermark, pier_error *err);
    /* The watermark the board's replica reflects, without I/O (0: the
     * node holds none). */
    int64_t (*replica_watermark)(pier__lake *lake, const char *board);
    /* Outside any transaction: closes the board's replica and deletes its
     * files; the next read makes it again from the lake. */
    pier_status (*evict)(pier__lake *lake, const char *board,
                         pier_error *err);
    /* Adds the node's replica counts to *out (syncs, records_applied,
     * rebuilds, replicas). */
    void (*replica_stats)(pier__lake *lake, pier_stats *out);
    /* After a commit: what to add to the watermarks change_append handed
     * out in that transaction to get the ones the records took (a
     * PostgreSQL lake numbers them from the head as the transaction
     * began, and learns where they went as it commits). NULL: 0. */
    int64_t (*commit_shift)(pier__lake *lake);
    /* After a failed write: whether it failed only because another node
     * changed the catalog meanwhile (or deadlocked with one), so that
     * writing it again from the start may succeed; clears the answer.
     * NULL: never. */
    bool (*write_moved)(pier__lake *lake);
} pier__lake_ops;

/* rows_write modes. */
enum { PIER__WRITE_INSERT = 0, PIER__WRITE_UPSERT = 1 };

struct pier__lake {
    const pier__lake_ops *ops;
    /* The instant of the statement the SQL dialect runs (microseconds,
     * UTC; 0: none): what DEFAULT now() fills in, one instant for all its
     * rows. pier_exec sets it before each statement. */
    int64_t stmt_now;
    /* Set by stmt_prepare when it refused the statement for computing on
     * exact values with operators SQLite reads inexactly: the SQL dialect
     * writes them as Pier's functions (pier__sql_exact_ops) and prepares
     * the statement again with exact_rewritten set, under which a refusal
     * is final. */
    bool exact_ops;
    bool exact_rewritten;
    /* Moves when stmt_prepare finds the schema changed since the statement
     * before it (a statement of this engine's, or another process's):
     * what is kept by a statement's text, from the store's prepared
     * statements to the dialect's rewrites (exec.c), holds within one. */
    uint64_t schema_epoch;
};

/* The embedded lake: `lake.sqlite` in data_dir (created with the directory
 * if missing). */
#define PIER__SQLITE_LAKE_FILE "lake.sqlite"
pier_status pier__sqlite_lake_open(pier__lake **out, const char *data_dir,
                                   const pier__lake_config *cfg,
                                   pier_error *err);
/* Makes the boards attached to a reader of the embedded lake exactly
 * boards[0..n): board i's table read from the embedded lake in file
 * paths[i] (a PostgreSQL lake's replica of it), tokens[i] saying which
 * file that is (another token: attached again). A query on the reader
 * then reads those boards there, and its own from the reader's lake.
 * @return PIER_E_LIMIT_EXCEEDED past 10 boards; PIER_E_READ_FAILED. */
pier_status pier__sqlite_reader_attach(pier__reader *r,
                                       const char *const *boards,
                                       const char *const *paths,
                                       const uint64_t *tokens, size_t n,
                                       pier_error *err);

/* A PostgreSQL lake (src/engine/pg_lake.c; docs/clustered.md): what
 * pier_open_options says of it, defaults filled in. */
typedef struct pier__pg_config {
    const char *conninfo;
    const char *ns;            /* the namespace */
    const char *cache_dir;     /* the node's replicas */
    int64_t head_refresh_us;
    bool single_node;          /* the head is read once, then followed */
    size_t replicas_open;
    pier_durability durability;
    bool must_exist;           /* find the lake, never make it */
} pier__pg_config;

pier_status pier__pg_lake_open(pier__lake **out, const pier__pg_config *cfg,
                               pier_error *err);

/* Replaces the embedded lake in data_dir (made if missing) with the
 * lake `source` (an embedded lake open read-only), atomically, if no
 * other process has it open (sqlite_backup.c; see pier_restore). */
pier_status pier__sqlite_lake_restore(const char *data_dir,
                                      pier__lake *source, pier_error *err);

/* PIER_OK if no other connection has the lake file `path` open (it
 * takes the exclusive lock for a moment); PIER_E_WRITE_FAILED if one
 * does (sqlite_backup.c). */
pier_status pier__sqlite_lake_unused(const char *path, pier_error *err);

/* Removes the embedded lake in data_dir (see pier_reset_lake). */
pier_status pier__sqlite_lake_reset(const char *data_dir, pier_error *err);

#endif /* PIER_STORE_LAKE_H */
