/*
 * catalog.h: the catalog model: boards, their columns, and the naming rules.
 *
 * The model is plain memory; the store persists it (src/store) and the
 * engine keeps one copy per open lake as a cache, valid for one catalog
 * version. A write works on a clone of the board it changes and installs
 * the clone only after its transaction commits, so a failed write leaves
 * the cache exactly as it was.
 *
 * Invariants: a board's columns are in board order, the three base columns
 * first (id, updated_at, state); names are unique under ASCII case folding;
 * every persisted column has a stable id > 0 that is never reused; the
 * catalog's boards are sorted by id (bytewise).
 */
#ifndef PIER_CATALOG_H
#define PIER_CATALOG_H

#include "base/base.h"
#include "types/sqlcol.h"
#include "types/types.h"

/* The longest board id and column name, in bytes. */
#define PIER__NAME_MAX 63
/* Column names starting with this are the engine's own. */
#define PIER__RESERVED_PREFIX '_'

enum { PIER__COL_ID = 0, PIER__COL_UPDATED_AT = 1, PIER__COL_STATE = 2,
       PIER__BASE_COLUMNS = 3 };

typedef struct pier__column {
    int64_t id;               /* stable; 0 until the store assigns it */
    char *name;               /* the first spelling, kept */
    pier__type type;          /* owned (its x, if any) */
    pier_column_origin origin;
} pier__column;

typedef struct pier__board {
    char *id;
    bool strict;
    int64_t created_at;       /* microseconds, UTC */
    pier__column *columns;
    size_t ncolumns;
    size_t cap;
} pier__board;

/* A column of a declared table (CREATE TABLE in the SQL dialect). */
typedef struct pier__tcolumn {
    int64_t id;               /* stable; 0 until the store assigns it */
    char *name;
    char *spelling;           /* the type's canonical spelling */
    pier__coltype type;       /* parsed from it; labels owned */
    bool readonly;
    bool named;               /* an INSERT must name it: NOT NULL with no
                                 default for new rows, its SQL's default
                                 being the backfill rows stored before it
                                 existed read (a migration added it) */
    char *fill;               /* what an INSERT that omits it gives a new
                                 row when its SQL's default cannot say
                                 (that is the backfill of rows stored
                                 before a migration added it): an SQL
                                 literal or now(); NULL: the SQL's */
} pier__tcolumn;

/* A declared table: its name as created (compared case-insensitively, as
 * SQL does) and its columns in table order. */
typedef struct pier__table {
    int64_t id;               /* stable; 0 until the store assigns it */
    char *name;
    pier__tcolumn *columns;
    size_t ncolumns;
    size_t cap;
} pier__table;

/* A commit trigger (docs/history.md): SQL run just before a transaction
 * of pier_exec commits, reading the transaction's changes to its tables
 * through pier_changeset(). One allocation: the strings follow it. */
typedef struct pier__commit_trigger {
    const char *name;         /* as created; compared case-insensitively */
    const char *sql;          /* the statement after AS */
    const char *const *tables;/* the tables it covers, as written; NULL
                                 (ntables 0): every declared table */
    size_t ntables;
} pier__commit_trigger;

typedef struct pier__catalog {
    pier__board **boards;     /* sorted by id */
    size_t nboards;
    size_t cap;
    pier__table **tables;     /* sorted by name, case-folded */
    size_t ntables;
    size_t tables_cap;
    pier__commit_trigger **triggers; /* in creation order, the order they
                                 run in */
    size_t ntriggers;
    size_t triggers_cap;
    int64_t version;          /* the lake's catalog version it reflects;
                                 -1: never loaded */
} pier__catalog;

/* ---- names (names.c) ---- */

/* A board id matches [a-z][a-z0-9_]{0,62}; else PIER_E_INVALID_BOARD_ID. */
pier_status pier__board_id_check(const char *id, pier_error *err);
/*
 * A column name is 1 to 63 bytes of UTF-8 without control characters
 * (PIER_E_INVALID_COLUMN_NAME) and does not start with '_'
 * (PIER_E_RESERVED_COLUMN_NAME). `board` only names the board in the error.
 */
pier_status pier__column_name_check(const char *name, size_t len,
                                    const char *board, pier_error *err);
/* Why `name` cannot name a table, view or index (1 to 63 bytes of UTF-8
 * without control characters), or NULL if it can. */
const char *pier__object_name_why(const char *name);
/* The reserved prefix `name` starts with ("_pier_", the engine's, or
 * "sqlite_", SQLite's), compared in ASCII case, or NULL. */
const char *pier__object_name_reserved(const char *name);
/* Whether `name` is one of the base columns (case-insensitive); if so its
 * index (PIER__COL_*). */
int pier__base_column_index(const char *name, size_t len);
/* Appends a name for an error message: printable ASCII and valid UTF-8 as
 * they are, anything else as \xNN, cut after 64 bytes with "...". */
void pier__quote_name(pier__buf *b, const char *s, size_t n);

/* ---- boards (catalog.c) ---- */

/* A new board with only its base columns (ids 0). NULL if out of memory. */
pier__board *pier__board_new(const char *id, bool strict,
                             int64_t created_at);
pier__board *pier__board_clone(const pier__board *b);
void pier__board_free(pier__board *b);
/* The index of a column by name (case-insensitive), or -1. */
ptrdiff_t pier__board_find(const pier__board *b, const char *name,
                           size_t len);
/* Appends a column (id 0 until the store assigns one). False if out of
 * memory; the board is then unchanged. */
bool pier__board_append(pier__board *b, const char *name, size_t len,
                        pier__type type, pier_column_origin origin);

/* ---- boards as a lake's catalog tables hold them (catalog.c) ---- */

/* How a lake's catalog spells a column's origin ("base", "declared",
 * "inferred"), and reads it back (false: not one). */
const char *pier__origin_name(pier_column_origin o);
bool pier__origin_parse(const char *s, pier_column_origin *out);

/*
 * Takes the column at `position` of board b, as a lake's catalog rows
 * give them in position order, after checking what the rows say (a lake
 * trusts no row it reads): the base columns first, in their order (they
 * only take their ids), then columns whose names are column names, each
 * named once, of a type and origin Pier spells. A NULL string is a damaged
 * row.
 * @return PIER_E_LAKE_UNAVAILABLE naming the board ("the catalog entry of
 *         board 'b' is damaged: ..."); PIER_E_OUT_OF_MEMORY.
 */
pier_status pier__board_load_column(pier__board *b, size_t position,
                                    int64_t id, const char *name,
                                    const char *type, const char *origin,
                                    pier_error *err);
/* After the last of n columns: refused if the base columns were not all
 * there. */
pier_status pier__board_load_done(const pier__board *b, size_t n,
                                  pier_error *err);

void pier__catalog_init(pier__catalog *c);
void pier__catalog_clear(pier__catalog *c);   /* frees the boards */
pier__board *pier__catalog_find(const pier__catalog *c, const char *id);
/* Puts `b` in the catalog, replacing (and freeing) a board with its id.
 * Takes ownership of `b` even on failure (false: out of memory). */
bool pier__catalog_put(pier__catalog *c, pier__board *b);
/* Removes and frees the board with this id, if any. */
void pier__catalog_remove(pier__catalog *c, const char *id);

/* ---- declared tables (tables.c) ---- */

pier__table *pier__table_new(const char *name);
void pier__table_free(pier__table *t);
pier__table *pier__table_clone(const pier__table *t);
/* The index of a column by name (case-insensitive), or -1. */
ptrdiff_t pier__table_find(const pier__table *t, const char *name);
/* Appends a column of the type spelled `spelling` (canonical, as
 * pier__sqltype_write gives it). False if out of memory or if the
 * spelling does not parse; the table is then unchanged. */
bool pier__table_append(pier__table *t, const char *name,
                        const char *spelling, bool readonly);
/* Puts `t` in the catalog, replacing (and freeing) a table of its name.
 * Takes ownership of `t` even on failure (false: out of memory). */
bool pier__catalog_put_table(pier__catalog *c, pier__table *t);
pier__table *pier__catalog_find_table(const pier__catalog *c,
                                      const char *name);
/* Removes and frees the table of this name, if any. */
void pier__catalog_remove_table(pier__catalog *c, const char *name);

/* ---- commit triggers (tables.c) ---- */

/* A new trigger, copying its strings; NULL if out of memory. */
pier__commit_trigger *pier__trigger_new(const char *name, const char *sql,
                                        const char *const *tables,
                                        size_t ntables);
/* Appends `t` (the newest runs last). Takes ownership of `t` even on
 * failure (false: out of memory). */
bool pier__catalog_put_trigger(pier__catalog *c, pier__commit_trigger *t);
/* The trigger of this name (case-insensitive), or NULL. */
const pier__commit_trigger *pier__catalog_find_trigger(const pier__catalog *c,
                                                       const char *name);
/* Whether trigger `t` covers the table `name` (case-insensitive). */
bool pier__trigger_covers(const pier__commit_trigger *t, const char *name);

#endif /* PIER_CATALOG_H */
