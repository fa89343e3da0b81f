/*
 * sqlite_fts.c: full-text indexes of boards on the SQLite lake (pier fts,
 * docs/query.md "Full-text search").
 *
 * A board's index is an FTS5 table of its own, main."_pier_f_<board>$",
 * whose first column is the row's id (UNINDEXED, so that a query joins
 * on it) and whose other columns are the indexed text columns, by their
 * names; its rowid is the board row's rowid. The board's rowid is
 * always read as _rowid_: a board may have a column of its own named
 * "rowid" or "oid", which would shadow those names, but no board column
 * starts with '_' (catalog/names.c). What the index holds is
 * found in the schema itself (the table's columns): there is no catalog
 * row to keep in step, and dropping the table forgets everything.
 *
 * Why not triggers: the writer runs with trusted_schema off, under which
 * SQLite refuses a trigger that writes an FTS5 table ("unsafe use of
 * virtual table"). So the lake's write paths keep the index in step
 * themselves, in the same transaction, through the functions below:
 * rows_write (insert, upsert), row_update, rows_delete, board_truncate
 * and board_drop, which are every path that changes a board's rows (the
 * SQL dialect's policy refuses every _pier_ table; widening a column
 * rewrites only columns that were not text, so none that is indexed).
 * A board row's rowid never changes: rows are updated in place (an
 * upsert is ON CONFLICT DO UPDATE) and the lake is never VACUUMed
 * (compaction is incremental_vacuum), so the rowid ties a row to its
 * entry for as long as both live.
 *
 * The '$', which no board id holds, ends the board's part of the name:
 * FTS5 names its own tables after the index ("..$_data", "..$_idx"...),
 * and without it the tables of board "a"'s index would be named like the
 * index of board "a_data".
 *
 * Invariant: for a board with an index, every row of the board has
 * exactly one entry, of the same rowid, holding the row's id and the
 * current values of the indexed columns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/sqlite_int.h"

#define FTS_PREFIX "_pier_f_"
#define FTS_END "$"

static void fts_table(pier__buf *b, const char *board)
{
    /* Board ids are [a-z][a-z0-9_]*: nothing to escape. */
    pier__buf_printf(b, "\"" FTS_PREFIX "%s" FTS_END "\"", board);
}

void pier__sqlite_fts_free(pier__sqlite_fts *f)
{
    for (size_t i = 0; i < f->ncolumns; i++)
        free(f->columns[i]);
    free(f->columns);
    *f = (pier__sqlite_fts){ 0 };
}

/*
 * Whether any board has an index, by the schema as it stands: known
 * without a look at the schema while its cookie stays where it was, so
 * that the writes of a lake without indexes pay one kept PRAGMA for them.
 */
static pier_status any_index(pier__sqlite_lake *l, bool *out,
                             pier_error *err)
{
    int64_t cookie = pier__sqlite_schema_cookie(l);
    if (cookie >= 0 && cookie == l->fts_cookie) {
        *out = l->fts_any;
        return PIER_OK;
    }
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(l->db, "SELECT 1 FROM main.sqlite_schema WHERE "
                           "type = 'table' AND name GLOB '" FTS_PREFIX "*"
                           FTS_END "' LIMIT 1", -1, &st, NULL) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read the lake's schema");
    int step = sqlite3_step(st);
    sqlite3_finalize(st);
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read the lake's schema");
    *out = step == SQLITE_ROW;
    l->fts_any = *out;
    l->fts_cookie = cookie;
    return PIER_OK;
}

pier_status pier__sqlite_fts_get(pier__sqlite_lake *l, const char *board,
                                 pier__sqlite_fts *out, pier_error *err)
{
    *out = (pier__sqlite_fts){ 0 };
    bool any = false;
    pier_status arc = any_index(l, &any, err);
    if (arc != PIER_OK || !any)
        return arc;
    pier__buf sql;
    pier__buf_init(&sql);
    /* The index's columns but its first (the id), in order; none when the
     * board has no index. */
    pier__buf_puts(&sql, "SELECT name FROM pragma_table_info(?1) "
                         "WHERE cid > 0 ORDER BY cid");
    sqlite3_stmt *st = NULL;
    pier_status rc = pier__sqlite_stmt(l, &sql, &st, err);
    pier__buf_free(&sql);
    if (rc != PIER_OK)
        return rc;
    char name[PIER__NAME_MAX + sizeof FTS_PREFIX + sizeof FTS_END];
    snprintf(name, sizeof name, FTS_PREFIX "%s" FTS_END, board);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (out->ncolumns == out->cap) {
            size_t cap = out->cap > 0 ? out->cap * 2 : 4;
            char **p = realloc(out->columns, cap * sizeof *p);
            if (p == NULL) {
                step = SQLITE_NOMEM;
                break;
            }
            out->columns = p;
            out->cap = cap;
        }
        char *c = pier__strdup((const char *)sqlite3_column_text(st, 0));
        if (c == NULL) {
            step = SQLITE_NOMEM;
            break;
        }
        out->columns[out->ncolumns++] = c;
    }
    sqlite3_reset(st);
    if (step == SQLITE_DONE) {
        out->on = out->ncolumns > 0;
        return PIER_OK;
    }
    pier__sqlite_fts_free(out);
    if (step == SQLITE_NOMEM)
        return pier__oom(err);
    return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                             "cannot read a board's full-text index");
}

/* ", c1, c2": the index's columns but the id. */
static void column_list(pier__buf *b, const pier__sqlite_fts *f)
{
    for (size_t i = 0; i < f->ncolumns; i++) {
        pier__buf_puts(b, ", ");
        pier__sql_ident(b, f->columns[i]);
    }
}

/* INSERT INTO index(rowid, id, cols) SELECT _rowid_, id, cols FROM board
 * [WHERE id = ?1]: the entries of one row, or of every row. */
static void fill_sql(pier__buf *b, const char *board,
                     const pier__sqlite_fts *f, bool one)
{
    pier__buf_puts(b, "INSERT INTO ");
    fts_table(b, board);
    pier__buf_puts(b, "(rowid, \"id\"");
    column_list(b, f);
    pier__buf_puts(b, ") SELECT _rowid_, \"id\"");
    column_list(b, f);
    pier__buf_puts(b, " FROM ");
    pier__sql_board_table(b, board);
    if (one)
        pier__buf_puts(b, " WHERE \"id\" = ?1");
}

pier_status pier__sqlite_fts_enable(pier__lake *lake, const pier__board *b,
                                    const char *const *columns, size_t n,
                                    pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_puts(&sql, "CREATE VIRTUAL TABLE main.");
    fts_table(&sql, b->id);
    pier__buf_puts(&sql, " USING fts5(\"id\" UNINDEXED");
    for (size_t i = 0; i < n; i++) {
        pier__buf_puts(&sql, ", ");
        pier__sql_ident(&sql, columns[i]);
    }
    /* unicode61 folds case; remove_diacritics 2 makes "cafe" find
     * "café" too, as a reader of text expects. */
    pier__buf_puts(&sql, ", tokenize = 'unicode61 remove_diacritics 2')");
    pier_status rc = sql.oom ? pier__oom(err)
                             : pier__sqlite_exec(l, sql.p,
                                                 PIER_E_WRITE_FAILED, err);
    pier__buf_free(&sql);
    if (rc != PIER_OK)
        return rc;
    /* The rows already there. */
    pier__sqlite_fts f = { .on = true, .columns = (char **)columns,
                           .ncolumns = n };
    pier__buf_init(&sql);
    fill_sql(&sql, b->id, &f, false);
    rc = sql.oom ? pier__oom(err)
                 : pier__sqlite_exec(l, sql.p, PIER_E_WRITE_FAILED, err);
    pier__buf_free(&sql);
    return rc;
}

pier_status pier__sqlite_fts_drop(pier__sqlite_lake *l, const char *board,
                                  pier_error *err)
{
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_puts(&sql, "DROP TABLE IF EXISTS main.");
    fts_table(&sql, board);
    pier_status rc = sql.oom ? pier__oom(err)
                             : pier__sqlite_exec(l, sql.p,
                                                 PIER_E_WRITE_FAILED, err);
    pier__buf_free(&sql);
    return rc;
}

pier_status pier__sqlite_fts_disable(pier__lake *lake, const pier__board *b,
                                     pier_error *err)
{
    return pier__sqlite_fts_drop((pier__sqlite_lake *)lake, b->id, err);
}

pier_status pier__sqlite_fts_columns(pier__lake *lake, const char *board,
                                     char ***columns, size_t *n,
                                     pier_error *err)
{
    pier__sqlite_fts f;
    pier_status rc = pier__sqlite_fts_get((pier__sqlite_lake *)lake, board,
                                          &f, err);
    if (rc != PIER_OK)
        return rc;
    *columns = f.columns;
    *n = f.ncolumns;
    return PIER_OK;
}

/* The statements for an index `f` that the board has. */
static pier_status index_stmts(pier__sqlite_lake *l, const char *board,
                               const pier__sqlite_fts *f,
                               sqlite3_stmt **remove, sqlite3_stmt **add,
                               pier_error *err)
{
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_puts(&sql, "DELETE FROM ");
    fts_table(&sql, board);
    pier__buf_puts(&sql, " WHERE rowid = (SELECT _rowid_ FROM ");
    pier__sql_board_table(&sql, board);
    pier__buf_puts(&sql, " WHERE \"id\" = ?1)");
    pier_status rc = pier__sqlite_stmt(l, &sql, remove, err);
    pier__buf_free(&sql);
    if (rc != PIER_OK || add == NULL)
        return rc;
    pier__buf_init(&sql);
    fill_sql(&sql, board, f, true);
    rc = pier__sqlite_stmt(l, &sql, add, err);
    pier__buf_free(&sql);
    return rc;
}

pier_status pier__sqlite_fts_stmts(pier__sqlite_lake *l, const char *board,
                                   sqlite3_stmt **remove, sqlite3_stmt **add,
                                   pier_error *err)
{
    *remove = NULL;
    if (add != NULL)
        *add = NULL;
    pier__sqlite_fts f;
    pier_status rc = pier__sqlite_fts_get(l, board, &f, err);
    if (rc == PIER_OK && f.on)
        rc = index_stmts(l, board, &f, remove, add, err);
    pier__sqlite_fts_free(&f);
    return rc;
}

pier_status pier__sqlite_fts_run(pier__sqlite_lake *l, sqlite3_stmt *st,
                                 const char *id, size_t id_len,
                                 pier_error *err)
{
    if (st == NULL)
        return PIER_OK;
    sqlite3_bind_text64(st, 1, id, id_len, SQLITE_STATIC, SQLITE_UTF8);
    int step = sqlite3_step(st);
    sqlite3_reset(st);
    if (step != SQLITE_DONE)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot update a board's full-text index");
    return PIER_OK;
}

pier_status pier__sqlite_fts_truncate(pier__sqlite_lake *l,
                                      const char *board, pier_error *err)
{
    pier__sqlite_fts f;
    pier_status rc = pier__sqlite_fts_get(l, board, &f, err);
    if (rc != PIER_OK || !f.on)
        return rc;
    pier__sqlite_fts_free(&f);
    /* An FTS5 table with its own content empties with a DELETE; its
     * 'delete-all' command is only for external-content tables. */
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_puts(&sql, "DELETE FROM main.");
    fts_table(&sql, board);
    rc = sql.oom ? pier__oom(err)
                 : pier__sqlite_exec(l, sql.p, PIER_E_WRITE_FAILED, err);
    pier__buf_free(&sql);
    return rc;
}
