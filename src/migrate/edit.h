/*
 * edit.h: edits of a declared table's SQL that a metadata step makes
 * (edit.c). Pure.
 */
#ifndef PIER_MIGRATE_EDIT_H
#define PIER_MIGRATE_EDIT_H

#include "base/base.h"
#include "sql/sql.h"

/*
 * Appends to `out` the table's SQL `sql` with the type that column
 * `column_id`'s value check (_pier_fit(value, 'TYPE', id)) names replaced
 * by `spelling`: how an ENUM gains labels, a VARCHAR length or a DECIMAL
 * precision grows, an INT32 becomes an INT64, the storage type staying.
 * @return PIER_OK; PIER_E_INVALID_ARGUMENT if the SQL has no check of that
 *         column (nothing appended); PIER_E_OUT_OF_MEMORY.
 */
pier_status pier__fit_retype(pier__buf *out, const char *sql,
                             int64_t column_id, const char *spelling);

/*
 * Appends to `out` the table's SQL `sql` with column `column`'s
 * definition changed: `not_null` 1 makes it NOT NULL, 0 takes NOT NULL
 * away, -1 leaves it; `dflt` (a literal) becomes its DEFAULT, in place of
 * any it had, and with `drop_default` it has none. The column's other
 * clauses, and every other column, stay as written.
 * @return PIER_OK; PIER_E_INVALID_ARGUMENT if the SQL has no such column
 *         (nothing appended); PIER_E_OUT_OF_MEMORY.
 */
pier_status pier__column_edit(pier__buf *out, const char *sql,
                              const char *column, int not_null,
                              const char *dflt, bool drop_default);

/*
 * Appends to `out` the table's SQL `sql` with AUTOINCREMENT after column
 * `column`'s PRIMARY KEY (`on`), or taken away; the rest as written.
 * @return PIER_OK; PIER_E_INVALID_ARGUMENT if the column is not the
 *         table's PRIMARY KEY in its own definition (nothing appended);
 *         PIER_E_OUT_OF_MEMORY.
 */
pier_status pier__autoincrement_edit(pier__buf *out, const char *sql,
                                     const char *column, bool on);

#endif /* PIER_MIGRATE_EDIT_H */
