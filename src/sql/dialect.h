/*
 * dialect.h: what the SQL dialect's engine-facing files share (exec.c,
 * schema.c); sql.h is the pure front-end they both read scripts with.
 */
#ifndef PIER_SQL_DIALECT_H
#define PIER_SQL_DIALECT_H

#include "engine/engine.h"
#include "sql/sql.h"

/* Inside a transaction of the engine: PIER_E_SCHEMA_DRIFT naming every
 * object of the SQL schema created, changed or dropped without Pier, or
 * PIER_OK when the schema is the one Pier made. */
pier_status pier__schema_drift(pier_engine *e, pier_error *err);

/* The type _pier_now('TYPE') is asked for when DEFAULT now() fills a
 * column of type t ("INSTANT", "DATE", "DATETIME", "TIME"); NULL for a
 * type now() does not fill. */
const char *pier__sql_now_type(const pier__sqltype *t);

/* Runs a script of the dialect inside the engine's open write
 * transaction (no limits, no parameters, no result): how migrations make
 * tables, views, indexes and boards as pier_exec would. *catalog_changed
 * becomes true when DDL ran (the caller drops the cache if it then rolls
 * back). */
pier_status pier__exec_in_write(pier_engine *e, const char *sql,
                                bool *catalog_changed, pier_error *err);
/* Says in err's message where in the script a statement failed to parse
 * or prepare (QueryFailed with err->offset), as pier_exec does; returns
 * rc. */
pier_status pier__exec_where(pier_status rc, pier_error *err);
/* The same for a script parsed already from `written` (both stay the
 * caller's). */
/* Prepares each statement of a parsed script in the open write
 * transaction, as pier__exec_parsed_in_write would, without running any
 * (a DML statement's names, columns and syntax as SQLite sees them);
 * fails as that would at its prepare. */
pier_status pier__exec_parsed_check(pier_engine *e,
                                    const pier__sql_script *script,
                                    const char *written, pier_error *err);
pier_status pier__exec_parsed_in_write(pier_engine *e,
                                       const pier__sql_script *script,
                                       const char *written,
                                       bool *catalog_changed,
                                       pier_error *err);

/*
 * pier_exec and pier_changeset (exec.c): runs `sql` in one write
 * transaction, with its commit triggers; `*out` (may be NULL) as
 * pier_exec; `changeset` (may be NULL) receives the changes the script
 * made to declared tables (malloc; NULL, 0 when none), taken before the
 * commit triggers ran.
 */
pier_status pier__exec_call(pier_cursor **out, void **changeset,
                            size_t *changeset_len, pier_engine *engine,
                            const char *sql, const pier_params *params,
                            pier_error *err);

/* ---- change history (history.c; docs/history.md) ---- */

/* CREATE and DROP COMMIT TRIGGER, in the script's transaction (the
 * caller bumps the catalog version after). */
pier_status pier__trigger_create(pier_engine *e, const pier__sql_stmt *st,
                                 pier_error *err);
pier_status pier__trigger_drop(pier_engine *e, const pier__sql_stmt *st,
                               pier_error *err);

/* Appends the statement that makes trigger t again (without ';'). */
void pier__trigger_sql(pier__buf *b, const pier__commit_trigger *t);

/* What one write transaction records for its commit triggers (and for
 * the caller of pier_changeset). */
typedef struct pier__history {
    pier_engine *e;
    size_t n;                  /* recordings; 0 when nobody reads */
    pier__recording **recs;    /* owns the arrays below and the names */
    char **names;              /* the trigger each is for; NULL: the
                                  whole transaction's, for the caller */
    void **bytes;              /* each one's changeset (malloc), at the
                                  commit */
    size_t *lens;
} pier__history;

/* After pier__engine_begin: opens a recording for each commit trigger of
 * the catalog and, with `whole`, one of every declared table. Opens
 * nothing (no cost) on a lake without commit triggers. */
pier_status pier__history_begin(pier__history *h, pier_engine *e,
                                bool whole, pier_error *err);
/* Just before the commit: stops recording, runs the commit triggers
 * (those the transaction did not drop), and gives the whole
 * transaction's changeset to *whole (may be NULL; malloc). A trigger
 * that fails fails the call; its message names it. */
pier_status pier__history_commit(pier__history *h, void **whole,
                                 size_t *whole_len, pier_error *err);
/* Ends the recordings. */
void pier__history_end(pier__history *h);

/* Runs a script of the dialect as pier_exec runs it (the engine's
 * limits, a transaction the script opens closed in it), inside the
 * engine's open write transaction, without parameters or a result: a
 * versioned migration file's section (src/versioned/). The caller checked
 * for drift. Fails as pier_exec does, err->offset a byte of `sql`;
 * *catalog_changed as for pier__exec_in_write. */
pier_status pier__exec_script(pier_engine *e, const char *sql,
                              bool *catalog_changed, pier_error *err);

#endif /* PIER_SQL_DIALECT_H */
