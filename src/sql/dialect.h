/*
 * dialect.h: what the SQL dialect's engine-facing files share (exec.c,
 * schema.c); sql.h is the pure front-end they both read scripts with.
 */
#ifndef PIER_SQL_DIALECT_H
#define PIER_SQL_DIALECT_H

#include "engine/engine.h"

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

/* Runs a script of the dialect as pier_exec runs it (the engine's
 * limits, a transaction the script opens closed in it), inside the
 * engine's open write transaction, without parameters or a result: a
 * versioned migration file's section (src/versioned/). The caller checked
 * for drift. Fails as pier_exec does, err->offset a byte of `sql`;
 * *catalog_changed as for pier__exec_in_write. */
pier_status pier__exec_script(pier_engine *e, const char *sql,
                              bool *catalog_changed, pier_error *err);

#endif /* PIER_SQL_DIALECT_H */
