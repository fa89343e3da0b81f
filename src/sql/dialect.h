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

#endif /* PIER_SQL_DIALECT_H */
