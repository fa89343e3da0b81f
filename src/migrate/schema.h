/*
 * schema.h: the model migrations work on (src/migrate): tables, views,
 * indexes and boards as a declaration states them or as the live catalog
 * holds them, in one shape, so that the planner compares the two field by
 * field.
 *
 * A model is immutable once built and lives in its own arena: every string
 * and array below belongs to it, and pier__schema_free releases all of it.
 * Names keep the spelling they were given; they compare in ASCII case, as
 * SQL compares identifiers (pier__name_eq).
 *
 * Pure: no SQLite handle, no I/O. tests/unit/test_migrate_decl.c covers
 * reading declarations into it.
 */
#ifndef PIER_MIGRATE_SCHEMA_H
#define PIER_MIGRATE_SCHEMA_H

#include "base/base.h"
#include "sql/sql.h"
#include "types/sqlcol.h"
#include "types/types.h"

/* A column's DEFAULT or BACKFILL: nothing, a literal, or now(). */
typedef struct pier__mvalue {
    char *sql;                 /* the literal as SQL writes it ('a''b', 12,
                                  -1.5, x'00', TRUE); NULL: no value */
    bool now;                  /* now(): the instant the statement runs
                                  (DEFAULT), or the migration (BACKFILL) */
} pier__mvalue;

/*
 * Whether the literal `sql` is a number (an optional sign, digits, an
 * optional fraction) that SQLite would not keep exactly as a number (an
 * integer beyond 64 bits, or more than 15 significant digits), for a
 * column of type c that holds such numbers as their digits (UINT64,
 * INT128, DECIMAL). Such a value is written to SQL as a string literal
 * of its digits, which the column stores as given; the model keeps it as
 * the number.
 */
bool pier__mvalue_wide_number(const pier__coltype *c,
                              const char *sql);

/* A column of a table. */
typedef struct pier__mcolumn {
    int64_t id;                /* the live column's stable id; 0 declared */
    char *name;
    size_t offset;             /* declared: where its name is written */
    char *renamed_from;        /* declared: RENAMED FROM, or NULL */
    char *spelling;            /* the type's canonical spelling */
    pier__coltype type;        /* parsed from it (labels in the arena) */
    bool not_null;             /* NOT NULL, or the primary key */
    bool readonly;
    bool autoincrement;        /* on the table's integer primary key */
    pier__mvalue dflt;
    pier__mvalue backfill;
    bool added;                /* live: a migration added it to a table,
                                  whose SQL's default is then its backfill
                                  (the default is the catalog's) */
} pier__mcolumn;

/* PRIMARY KEY or UNIQUE over columns (indexes into the table's). */
typedef struct pier__mkey {
    char *name;                /* CONSTRAINT name, or NULL */
    size_t *columns;
    size_t ncolumns;
    bool primary;
} pier__mkey;

/* CHECK (expr) over the table's own columns. */
typedef struct pier__mcheck {
    char *name;                /* CONSTRAINT name, or NULL */
    char *expr;                /* as written */
} pier__mcheck;

/* A column's REFERENCES parent(column) ON DELETE ... */
typedef struct pier__mfk {
    char *name;                /* CONSTRAINT name, or NULL */
    size_t column;             /* the referencing column (an index) */
    char *table;               /* the parent table */
    char *parent;              /* its column; NULL: its primary key */
    size_t offset;             /* declared: where REFERENCES is written */
    pier__fk_action on_delete;
} pier__mfk;

typedef struct pier__mtable {
    int64_t id;                /* the live table's id; 0 declared */
    char *name;
    size_t offset;
    char *renamed_from;        /* declared: RENAMED FROM, or NULL */
    bool managed;              /* live: a migration made it */
    int64_t rows;              /* live: how many rows it holds; -1 else */
    pier__mcolumn *columns;
    size_t ncolumns;
    pier__mkey *keys;
    size_t nkeys;
    pier__mcheck *checks;
    size_t nchecks;
    pier__mfk *fks;
    size_t nfks;
} pier__mtable;

/* A view's declared output column. */
typedef struct pier__mviewcol {
    char *name;
    char *spelling;
    pier__coltype type;
} pier__mviewcol;

typedef struct pier__mview {
    char *name;
    size_t offset;
    bool managed;
    pier__mviewcol *columns;
    size_t ncolumns;
    char *body;                /* the SELECT, as written */
} pier__mview;

typedef struct pier__mindex {
    char *name;
    size_t offset;
    bool managed;
    bool unique;
    char *table;               /* a table or a board */
    char *body;                /* "(columns) [WHERE ...]", as written */
} pier__mindex;

/* A board column: a name and a board type. */
typedef struct pier__mbcol {
    char *name;
    size_t offset;
    pier__type type;           /* its x (if any) owned by the model */
} pier__mbcol;

typedef struct pier__mboard {
    char *id;
    size_t offset;
    bool strict;
    bool managed;              /* live: a migration made it */
    int64_t rows;              /* live: how many rows it holds; -1 else */
    pier__mbcol *columns;      /* the user columns, without the base ones */
    size_t ncolumns;
} pier__mboard;

/* A live object the model cannot state: a table made by pier_exec with
 * clauses a declaration does not take, or a view made by pier_exec (whose
 * columns were never declared). */
typedef struct pier__mopaque {
    char *name;
    char *why;
    bool view;
} pier__mopaque;

typedef struct pier__schema {
    pier__mtable *tables;
    size_t ntables;
    pier__mview *views;
    size_t nviews;
    pier__mindex *indexes;
    size_t nindexes;
    pier__mboard *boards;
    size_t nboards;
    pier__mopaque *opaque;     /* live only */
    size_t nopaque;
    pier__arena arena;
} pier__schema;

void pier__schema_init(pier__schema *s);
void pier__schema_free(pier__schema *s);

/*
 * Reads a declaration (pier__sql_parse_declaration) into *out and checks
 * what it can alone: names (valid, not reserved, none declared twice
 * among tables, views and indexes, nor boards among boards; a board and a
 * table or view of one name), column names and types, keys naming
 * declared columns (one primary key), a backfill only on a NOT NULL
 * column and never NULL, a NULL default only on a nullable column, now()
 * only on INSTANT, DATE, TIME and DATETIME columns, DEFAULT and BACKFILL
 * as literals or now(), AUTOINCREMENT only on an integer primary key of
 * one column, ON DELETE SET NULL only on a nullable column, foreign keys
 * of declared columns, check names used once per table, RENAMED FROM
 * naming another name and no old name twice. What needs the live catalog
 * (parents, renamed objects) or SQLite (checks, view bodies, values that
 * fit their column) is the planner's and the verifier's.
 * @return PIER_OK; PIER_E_INVALID_SCHEMA with err->offset at the fault;
 *         PIER_E_OUT_OF_MEMORY. *out is initialized either way; free it.
 */
pier_status pier__schema_from_declaration(pier__schema *out,
                                          const char *text, size_t len,
                                          pier_error *err);

/* The live object of this name the model cannot state, or NULL. */
const pier__mopaque *pier__schema_opaque(const pier__schema *s,
                                         const char *name);

/*
 * The live catalog of the engine's lake as a model (live.c): every
 * declared table with its ids, constraints as its SQL states them and its
 * default and backfill as declared, views with their declared columns,
 * indexes, boards with their columns, and which of them a migration made.
 * Row counts are left unknown (-1). Tables and views it cannot state are
 * listed in `opaque`. Call inside the engine's transaction (the catalog
 * fresh).
 * @return PIER_OK; PIER_E_READ_FAILED; PIER_E_LAKE_UNAVAILABLE for a
 *         catalog entry that is damaged; PIER_E_OUT_OF_MEMORY.
 */
pier_status pier__schema_from_lake(pier__schema *out, pier_engine *e,
                                   pier_error *err);

/* The table, view, index or board of a name (ASCII case), or NULL. */
const pier__mtable *pier__schema_table(const pier__schema *s,
                                       const char *name);
const pier__mview *pier__schema_view(const pier__schema *s,
                                     const char *name);
const pier__mindex *pier__schema_index(const pier__schema *s,
                                       const char *name);
const pier__mboard *pier__schema_board(const pier__schema *s,
                                       const char *id);
/* The index of a table's column by name (ASCII case), or -1. */
ptrdiff_t pier__mtable_column(const pier__mtable *t, const char *name);

#endif /* PIER_MIGRATE_SCHEMA_H */
