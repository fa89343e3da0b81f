/*
 * sqlite_rows.c: rows of board tables and the change log.
 *
 * Writes go through statements kept prepared in a small most-recently-used
 * cache keyed by their SQL text: a batch of a thousand rows binds and
 * steps one statement a thousand times and parses SQL once.
 */
#include <stdlib.h>
#include <string.h>

#include "store/sqlite_int.h"

void pier__sqlite_cell(pier__cell *out, sqlite3_value *v)
{
    switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER:
        *out = (pier__cell){ .st = PIER__ST_INT,
                             .i = sqlite3_value_int64(v) };
        break;
    case SQLITE_FLOAT:
        *out = (pier__cell){ .st = PIER__ST_REAL,
                             .d = sqlite3_value_double(v) };
        break;
    case SQLITE_TEXT:
        /* The text first: the length is of the text as converted. */
        out->p = (const char *)sqlite3_value_text(v);
        out->n = (size_t)sqlite3_value_bytes(v);
        out->st = PIER__ST_TEXT;
        out->i = 0;
        out->d = 0;
        break;
    case SQLITE_BLOB:
        out->p = sqlite3_value_blob(v);
        out->n = (size_t)sqlite3_value_bytes(v);
        out->st = PIER__ST_BLOB;
        out->i = 0;
        out->d = 0;
        break;
    default:
        *out = (pier__cell){ .st = PIER__ST_NULL };
        break;
    }
}

static int bind_cell(sqlite3_stmt *st, int i, const pier__cell *c)
{
    switch (c->st) {
    case PIER__ST_INT:
        return sqlite3_bind_int64(st, i, c->i);
    case PIER__ST_REAL:
        return sqlite3_bind_double(st, i, c->d);
    case PIER__ST_TEXT:
        return sqlite3_bind_text64(st, i, c->p, c->n, SQLITE_STATIC,
                                   SQLITE_UTF8);
    case PIER__ST_BLOB:
        return sqlite3_bind_blob64(st, i, c->p, c->n, SQLITE_STATIC);
    default:
        return sqlite3_bind_null(st, i);
    }
}

pier_status pier__sqlite_stmt(pier__sqlite_lake *l, const pier__buf *sql,
                              sqlite3_stmt **out, pier_error *err)
{
    if (sql->oom)
        return pier__oom(err);
    size_t i = 0;
    for (; i < PIER__STMT_CACHE && l->stmts[i].sql != NULL; i++)
        if (strcmp(l->stmts[i].sql, sql->p) == 0)
            break;
    pier__cached_stmt hit;
    if (i < PIER__STMT_CACHE && l->stmts[i].sql != NULL) {
        hit = l->stmts[i];
    } else {
        hit.sql = pier__strndup(sql->p, sql->len);
        if (hit.sql == NULL)
            return pier__oom(err);
        if (sqlite3_prepare_v3(l->db, sql->p, (int)sql->len,
                               SQLITE_PREPARE_PERSISTENT, &hit.stmt,
                               NULL) != SQLITE_OK) {
            free(hit.sql);
            return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                     "cannot prepare a write");
        }
        if (i == PIER__STMT_CACHE) {       /* full: evict the last */
            i = PIER__STMT_CACHE - 1;
            sqlite3_finalize(l->stmts[i].stmt);
            free(l->stmts[i].sql);
        }
    }
    /* Move to the front, most recently used first. */
    memmove(&l->stmts[1], &l->stmts[0], i * sizeof hit);
    l->stmts[0] = hit;
    sqlite3_reset(hit.stmt);
    sqlite3_clear_bindings(hit.stmt);
    *out = hit.stmt;
    return PIER_OK;
}

void pier__sqlite_forget_statements(pier__sqlite_lake *l)
{
    for (size_t i = 0; i < PIER__STMT_CACHE; i++) {
        sqlite3_finalize(l->stmts[i].stmt);
        free(l->stmts[i].sql);
        l->stmts[i] = (pier__cached_stmt){ 0 };
    }
}

/* INSERT (or upsert) of every column of the board and the stamp. */
static void write_sql(pier__buf *sql, const pier__board *b, int mode)
{
    pier__buf_puts(sql, "INSERT INTO ");
    pier__sql_board_table(sql, b->id);
    pier__buf_puts(sql, " (");
    for (size_t c = 0; c < b->ncolumns; c++) {
        pier__sql_ident(sql, b->columns[c].name);
        pier__buf_puts(sql, ", ");
    }
    pier__buf_puts(sql, "_v) VALUES (");
    for (size_t c = 0; c < b->ncolumns; c++)
        pier__buf_puts(sql, "?, ");
    pier__buf_puts(sql, "?)");
    if (mode != PIER__WRITE_UPSERT)
        return;
    /* A complete row replaces the stored one when its stamp is at least
     * the stored stamp: stamps only grow on a lake, and within one write
     * (one stamp) later rows win. */
    pier__buf_puts(sql, " ON CONFLICT(id) DO UPDATE SET ");
    for (size_t c = 1; c < b->ncolumns; c++) {
        pier__sql_ident(sql, b->columns[c].name);
        pier__buf_puts(sql, " = excluded.");
        pier__sql_ident(sql, b->columns[c].name);
        pier__buf_puts(sql, ", ");
    }
    pier__buf_puts(sql, "_v = excluded._v WHERE excluded._v >= _v");
}

pier_status pier__sqlite_rows_write(pier__lake *lake, const pier__board *b,
                                    int mode, const pier__cell *cells,
                                    size_t nrows, int64_t stamp,
                                    size_t *failed_row, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    /* A board with a full-text index: each row's entry is written again
     * after the row (sqlite_fts.c); a new row has none to remove. */
    sqlite3_stmt *remove = NULL, *add = NULL;
    pier_status rc = pier__sqlite_fts_stmts(l, b->id, &remove, &add, err);
    if (rc != PIER_OK)
        return rc;
    if (mode != PIER__WRITE_UPSERT)
        remove = NULL;
    pier__buf sql;
    pier__buf_init(&sql);
    write_sql(&sql, b, mode);
    sqlite3_stmt *st = NULL;
    rc = pier__sqlite_stmt(l, &sql, &st, err);
    pier__buf_free(&sql);
    if (rc != PIER_OK)
        return rc;
    const size_t w = b->ncolumns;
    for (size_t r = 0; r < nrows; r++) {
        const pier__cell *row = cells + r * w;
        for (size_t c = 0; c < w; c++)
            bind_cell(st, (int)c + 1, &row[c]);
        sqlite3_bind_int64(st, (int)w + 1, stamp);
        int step = sqlite3_step(st);
        sqlite3_reset(st);
        if (step == SQLITE_DONE) {
            rc = pier__sqlite_fts_run(l, remove, row[0].p, row[0].n, err);
            if (rc == PIER_OK)
                rc = pier__sqlite_fts_run(l, add, row[0].p, row[0].n, err);
            if (rc != PIER_OK) {
                *failed_row = r;
                return rc;
            }
            continue;
        }
        *failed_row = r;
        int code = sqlite3_extended_errcode(l->db);
        if (code == SQLITE_CONSTRAINT_PRIMARYKEY ||
            code == SQLITE_CONSTRAINT_UNIQUE)
            return pier__fail(err, PIER_E_DUPLICATE_ID, "duplicate id");
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot write a row");
    }
    return PIER_OK;
}

pier_status pier__sqlite_row_update(pier__lake *lake, const pier__board *b,
                                    const char *id, size_t id_len,
                                    const size_t *cols,
                                    const pier__cell *cells, size_t n,
                                    int64_t updated_at, int64_t stamp,
                                    bool *found, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    sqlite3_stmt *remove = NULL, *add = NULL;
    pier_status rc = pier__sqlite_fts_stmts(l, b->id, &remove, &add, err);
    if (rc != PIER_OK)
        return rc;
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_puts(&sql, "UPDATE ");
    pier__sql_board_table(&sql, b->id);
    pier__buf_puts(&sql, " SET ");
    for (size_t i = 0; i < n; i++) {
        pier__sql_ident(&sql, b->columns[cols[i]].name);
        pier__buf_puts(&sql, " = ?, ");
    }
    pier__buf_puts(&sql, "updated_at = ?, _v = ? WHERE id = ?");
    sqlite3_stmt *st = NULL;
    rc = pier__sqlite_stmt(l, &sql, &st, err);
    pier__buf_free(&sql);
    if (rc != PIER_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        bind_cell(st, (int)i + 1, &cells[i]);
    sqlite3_bind_int64(st, (int)n + 1, updated_at);
    sqlite3_bind_int64(st, (int)n + 2, stamp);
    sqlite3_bind_text64(st, (int)n + 3, id, id_len, SQLITE_STATIC,
                        SQLITE_UTF8);
    int step = sqlite3_step(st);
    sqlite3_reset(st);
    if (step != SQLITE_DONE)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot update a row");
    *found = sqlite3_changes(l->db) > 0;
    if (!*found)
        return PIER_OK;
    rc = pier__sqlite_fts_run(l, remove, id, id_len, err);
    if (rc == PIER_OK)
        rc = pier__sqlite_fts_run(l, add, id, id_len, err);
    return rc;
}

pier_status pier__sqlite_rows_delete(pier__lake *lake, const pier__board *b,
                                     const char *const *ids, size_t nids,
                                     int64_t *deleted, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    /* The entry goes first: it is found through the row's rowid. */
    sqlite3_stmt *remove = NULL;
    pier_status rc = pier__sqlite_fts_stmts(l, b->id, &remove, NULL, err);
    if (rc != PIER_OK)
        return rc;
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_puts(&sql, "DELETE FROM ");
    pier__sql_board_table(&sql, b->id);
    pier__buf_puts(&sql, " WHERE id = ?");
    sqlite3_stmt *st = NULL;
    rc = pier__sqlite_stmt(l, &sql, &st, err);
    pier__buf_free(&sql);
    if (rc != PIER_OK)
        return rc;
    *deleted = 0;
    for (size_t i = 0; i < nids; i++) {
        rc = pier__sqlite_fts_run(l, remove, ids[i], strlen(ids[i]), err);
        if (rc != PIER_OK)
            return rc;
        sqlite3_bind_text(st, 1, ids[i], -1, SQLITE_STATIC);
        int step = sqlite3_step(st);
        sqlite3_reset(st);
        if (step != SQLITE_DONE)
            return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                     "cannot delete a row");
        *deleted += sqlite3_changes(l->db);
    }
    return PIER_OK;
}

pier_status pier__sqlite_last_stamp(pier__lake *lake, int64_t *out,
                                    pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    sqlite3_stmt *st = l->get_stamp;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot read the last version stamp");
    return PIER_OK;
}

pier_status pier__sqlite_rows_scan(pier__lake *lake, const pier__board *b,
                                   const char *id, pier__row_cb cb,
                                   void *payload, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_puts(&sql, "SELECT ");
    for (size_t c = 0; c < b->ncolumns; c++) {
        if (c > 0)
            pier__buf_puts(&sql, ", ");
        pier__sql_ident(&sql, b->columns[c].name);
    }
    pier__buf_puts(&sql, " FROM ");
    pier__sql_board_table(&sql, b->id);
    pier__buf_puts(&sql, id != NULL ? " WHERE id = ?1" : " ORDER BY id");
    pier__cell *cells = calloc(b->ncolumns, sizeof *cells);
    sqlite3_stmt *st = NULL;
    pier_status rc = PIER_OK;
    if (sql.oom || cells == NULL) {
        rc = pier__oom(err);
        goto done;
    }
    if (sqlite3_prepare_v2(l->db, sql.p, (int)sql.len, &st, NULL) !=
        SQLITE_OK) {
        rc = pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                               "cannot read a board");
        goto done;
    }
    if (id != NULL)
        sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        for (size_t c = 0; c < b->ncolumns; c++)
            pier__sqlite_cell(&cells[c], sqlite3_column_value(st, (int)c));
        if (cb(cells, b->ncolumns, payload) != 0) {
            step = SQLITE_DONE;
            break;
        }
    }
    if (step != SQLITE_DONE)
        rc = pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                               "cannot read a board");
done:
    sqlite3_finalize(st);
    free(cells);
    pier__buf_free(&sql);
    return rc;
}

pier_status pier__sqlite_rows_count(pier__lake *lake, const pier__board *b,
                                    int64_t *out, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_puts(&sql, "SELECT count(*) FROM ");
    pier__sql_board_table(&sql, b->id);
    sqlite3_stmt *st = NULL;
    pier_status rc = PIER_OK;
    if (sql.oom)
        rc = pier__oom(err);
    else if (sqlite3_prepare_v2(l->db, sql.p, (int)sql.len, &st, NULL) !=
                 SQLITE_OK ||
             sqlite3_step(st) != SQLITE_ROW)
        rc = pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                               "cannot count a board's rows");
    else
        *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    pier__buf_free(&sql);
    return rc;
}

pier_status pier__sqlite_change_append(pier__lake *lake, const char *board,
                                       const char *kind, const char *payload,
                                       size_t len, int64_t committed_at,
                                       int64_t stamp, int64_t *watermark,
                                       pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    sqlite3_stmt *st = l->append_change;
    sqlite3_bind_text(st, 1, board, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
    sqlite3_bind_text64(st, 3, payload, len, SQLITE_STATIC, SQLITE_UTF8);
    sqlite3_bind_int64(st, 4, committed_at);
    sqlite3_bind_int64(st, 5, stamp);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc != SQLITE_DONE)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot append to the change log");
    *watermark = sqlite3_last_insert_rowid(l->db);
    return PIER_OK;
}

pier_status pier__sqlite_head(pier__lake *lake, int64_t *out,
                              pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    sqlite3_stmt *st = l->get_head;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read the head");
    return PIER_OK;
}
