/*
 * sqlite_rows.c: rows of board tables and the change log.
 *
 * Inserts go through one prepared statement per board and column set,
 * kept in a small most-recently-used cache: a batch of a thousand rows
 * binds and steps one statement a thousand times and parses SQL once.
 */
#include <stdlib.h>
#include <string.h>

#include "store/sqlite_int.h"

pier__cell pier__sqlite_cell(sqlite3_value *v)
{
    pier__cell c = { .st = PIER__ST_NULL };
    switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER:
        c.st = PIER__ST_INT;
        c.i = sqlite3_value_int64(v);
        break;
    case SQLITE_FLOAT:
        c.st = PIER__ST_REAL;
        c.d = sqlite3_value_double(v);
        break;
    case SQLITE_TEXT:
        c.st = PIER__ST_TEXT;
        c.p = (const char *)sqlite3_value_text(v);
        c.n = (size_t)sqlite3_value_bytes(v);
        break;
    case SQLITE_BLOB:
        c.st = PIER__ST_BLOB;
        c.p = sqlite3_value_blob(v);
        c.n = (size_t)sqlite3_value_bytes(v);
        break;
    default:
        break;
    }
    return c;
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

/* The cached INSERT for this board's current columns, prepared if needed. */
static pier_status insert_stmt(pier__sqlite_lake *l, const pier__board *b,
                               sqlite3_stmt **out, pier_error *err)
{
    pier__insert_stmt *hit = NULL;
    size_t i = 0;
    for (; i < PIER__INSERT_CACHE; i++) {
        pier__insert_stmt *s = &l->inserts[i];
        if (s->board != NULL && strcmp(s->board, b->id) == 0) {
            if (s->ncolumns == b->ncolumns &&
                s->catalog_version == l->catalog_version)
                hit = s;
            break;
        }
    }
    if (hit == NULL) {
        if (i < PIER__INSERT_CACHE)          /* stale entry of this board */
            pier__sqlite_forget_inserts(l, b->id);
        pier__buf sql;
        pier__buf_init(&sql);
        pier__buf_puts(&sql, "INSERT INTO ");
        pier__sql_board_table(&sql, b->id);
        pier__buf_puts(&sql, " (");
        for (size_t c = 0; c < b->ncolumns; c++) {
            if (c > 0)
                pier__buf_puts(&sql, ", ");
            pier__sql_ident(&sql, b->columns[c].name);
        }
        pier__buf_puts(&sql, ") VALUES (");
        for (size_t c = 0; c < b->ncolumns; c++)
            pier__buf_puts(&sql, c > 0 ? ", ?" : "?");
        pier__buf_putc(&sql, ')');
        sqlite3_stmt *st = NULL;
        char *board = pier__strdup(b->id);
        if (sql.oom || board == NULL) {
            pier__buf_free(&sql);
            free(board);
            return pier__oom(err);
        }
        int rc = sqlite3_prepare_v3(l->db, sql.p, (int)sql.len,
                                    SQLITE_PREPARE_PERSISTENT, &st, NULL);
        pier__buf_free(&sql);
        if (rc != SQLITE_OK) {
            free(board);
            return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                     "cannot prepare an insert");
        }
        /* Take a free slot, else evict the least recently used (last). */
        pier__insert_stmt *last = &l->inserts[PIER__INSERT_CACHE - 1];
        for (size_t k = 0; k < PIER__INSERT_CACHE; k++) {
            if (l->inserts[k].board == NULL) {
                last = &l->inserts[k];
                break;
            }
        }
        sqlite3_finalize(last->stmt);
        free(last->board);
        *last = (pier__insert_stmt){
            .board = board, .ncolumns = b->ncolumns,
            .catalog_version = l->catalog_version, .stmt = st,
        };
        hit = last;
    }
    /* Move to the front. */
    pier__insert_stmt tmp = *hit;
    memmove(&l->inserts[1], &l->inserts[0],
            (size_t)(hit - l->inserts) * sizeof tmp);
    l->inserts[0] = tmp;
    *out = tmp.stmt;
    return PIER_OK;
}

pier_status pier__sqlite_rows_insert(pier__lake *lake, const pier__board *b,
                                     const pier__cell *cells, size_t nrows,
                                     size_t *failed_row, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    sqlite3_stmt *st = NULL;
    pier_status rc = insert_stmt(l, b, &st, err);
    if (rc != PIER_OK)
        return rc;
    const size_t w = b->ncolumns;
    for (size_t r = 0; r < nrows; r++) {
        const pier__cell *row = cells + r * w;
        for (size_t c = 0; c < w; c++)
            bind_cell(st, (int)c + 1, &row[c]);
        int step = sqlite3_step(st);
        sqlite3_reset(st);
        if (step == SQLITE_DONE)
            continue;
        *failed_row = r;
        int code = sqlite3_extended_errcode(l->db);
        if (code == SQLITE_CONSTRAINT_PRIMARYKEY ||
            code == SQLITE_CONSTRAINT_UNIQUE)
            return pier__fail(err, PIER_E_DUPLICATE_ID, "duplicate id");
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot insert a row");
    }
    sqlite3_clear_bindings(st);
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
            cells[c] = pier__sqlite_cell(sqlite3_column_value(st, (int)c));
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
                                       int64_t *watermark, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    sqlite3_stmt *st = l->append_change;
    sqlite3_bind_text(st, 1, board, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
    sqlite3_bind_text64(st, 3, payload, len, SQLITE_STATIC, SQLITE_UTF8);
    sqlite3_bind_int64(st, 4, committed_at);
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
