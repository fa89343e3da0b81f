/*
 * fts.c: full-text indexes of boards (pier_fts_enable, _disable,
 * _columns; docs/query.md "Full-text search").
 *
 * The lake keeps the index (store/sqlite_fts.c) and every write path
 * keeps it in step; this file checks what the caller asks for against
 * the board, in the write's transaction, so that a refused call writes
 * nothing. Enabling and disabling bump the catalog version: a query
 * compiled against an index that is gone is compiled again.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

static pier_status check_args(pier_engine *e, const char *board,
                              pier_error *err)
{
    pier__error_clear(err);
    if (e == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "no engine");
    pier_status rc = pier__board_id_check(board, err);
    if (rc == PIER_OK)
        rc = pier__engine_embedded(e, "full-text search", err);
    return rc;
}

static void free_columns(char **columns, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(columns[i]);
    free(columns);
}

/* Whether the board has an index (inside the transaction). */
static pier_status has_index(pier_engine *e, const char *board, bool *on,
                             pier_error *err)
{
    char **columns = NULL;
    size_t n = 0;
    pier_status rc = e->lake->ops->fts_columns(e->lake, board, &columns, &n,
                                               err);
    free_columns(columns, n);
    *on = n > 0;
    return rc;
}

static pier_status refuse_column(pier_status status, const char *board,
                                 const char *column, pier_error *err,
                                 const char *why)
{
    pier__fail(err, status, "cannot index column '%s' of board '%s': %s",
               column, board, why);
    pier__error_board(err, board);
    pier__error_column(err, column);
    return status;
}

/* Checks the columns against the board: each a text column of it, not
 * the id, named once. */
static pier_status check_columns(const pier__board *b,
                                 const char *const *columns, size_t n,
                                 pier_error *err)
{
    if (n == 0)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a full-text index of board '%s' needs at least "
                          "one text column", b->id);
    for (size_t i = 0; i < n; i++) {
        const char *c = columns[i];
        if (c == NULL)
            return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                              "column %zu of the index is NULL", i + 1);
        ptrdiff_t at = pier__board_find(b, c, strlen(c));
        if (at < 0) {
            pier__fail(err, PIER_E_UNKNOWN_COLUMN,
                       "board '%s' has no column '%s'", b->id, c);
            pier__error_board(err, b->id);
            pier__error_column(err, c);
            return PIER_E_UNKNOWN_COLUMN;
        }
        const pier__column *col = &b->columns[at];
        if (at == 0)
            return refuse_column(PIER_E_INVALID_ARGUMENT, b->id, c, err,
                                 "the id is always in the index, "
                                 "unindexed, to join on");
        if (col->type.kind != PIER_KIND_TEXT) {
            pier__fail(err, PIER_E_COLUMN_TYPE_CONFLICT,
                       "cannot index column '%s' of board '%s': it is %s, "
                       "not text", col->name, b->id,
                       pier__type_name(col->type));
            pier__error_board(err, b->id);
            pier__error_column(err, col->name);
            return PIER_E_COLUMN_TYPE_CONFLICT;
        }
        /* FTS5 names two columns of its own. */
        if (pier__name_eq(col->name, strlen(col->name), "rank", 4) ||
            pier__name_eq(col->name, strlen(col->name), "rowid", 5))
            return refuse_column(PIER_E_INVALID_ARGUMENT, b->id, col->name,
                                 err, "FTS5 reserves that name");
        for (size_t k = 0; k < i; k++) {
            if (pier__board_find(b, columns[k], strlen(columns[k])) == at) {
                pier__fail(err, PIER_E_DUPLICATE_COLUMN,
                           "column '%s' is named twice for the index of "
                           "board '%s'", col->name, b->id);
                pier__error_board(err, b->id);
                pier__error_column(err, col->name);
                return PIER_E_DUPLICATE_COLUMN;
            }
        }
    }
    return PIER_OK;
}

/* The last step of enabling or disabling: queries see the change. */
static pier_status bump(pier_engine *e, pier_error *err)
{
    int64_t version = 0;
    pier_status rc = e->lake->ops->catalog_bump(e->lake, &version, err);
    if (rc == PIER_OK)
        e->catalog.version = version;
    return rc;
}

PIER_API pier_status pier_fts_enable(pier_engine *engine, const char *board,
                                     const char *const *columns,
                                     size_t ncolumns, pier_error *err)
{
    pier_status rc = check_args(engine, board, err);
    if (rc == PIER_OK && ncolumns > 0 && columns == NULL)
        rc = pier__fail(err, PIER_E_INVALID_ARGUMENT,
                        "%zu columns to index, but none given", ncolumns);
    if (rc != PIER_OK)
        return rc;
    pier__write w;
    rc = pier__write_begin(&w, engine, err);
    if (rc != PIER_OK)
        return rc;
    pier__board *b = NULL;
    bool on = false;
    rc = pier__engine_board(engine, board, &b, err);
    if (rc == PIER_OK)
        rc = check_columns(b, columns, ncolumns, err);
    if (rc == PIER_OK)
        rc = has_index(engine, board, &on, err);
    if (rc == PIER_OK && on) {
        rc = pier__fail(err, PIER_E_INVALID_ARGUMENT,
                        "board '%s' already has a full-text index (pier fts "
                        "disable it first to index other columns)", board);
        pier__error_board(err, board);
    }
    if (rc == PIER_OK) {
        /* The columns as the board spells them. */
        const char **names = malloc(ncolumns * sizeof *names);
        if (names == NULL)
            rc = pier__oom(err);
        for (size_t i = 0; rc == PIER_OK && i < ncolumns; i++)
            names[i] = b->columns[pier__board_find(b, columns[i],
                                                   strlen(columns[i]))]
                           .name;
        if (rc == PIER_OK)
            rc = engine->lake->ops->fts_enable(engine->lake, b, names,
                                               ncolumns, err);
        free(names);
    }
    if (rc == PIER_OK)
        rc = bump(engine, err);
    return pier__write_end(&w, rc, NULL, err);
}

PIER_API pier_status pier_fts_disable(pier_engine *engine, const char *board,
                                      pier_error *err)
{
    pier_status rc = check_args(engine, board, err);
    if (rc != PIER_OK)
        return rc;
    pier__write w;
    rc = pier__write_begin(&w, engine, err);
    if (rc != PIER_OK)
        return rc;
    pier__board *b = NULL;
    bool on = false;
    rc = pier__engine_board(engine, board, &b, err);
    if (rc == PIER_OK)
        rc = has_index(engine, board, &on, err);
    if (rc == PIER_OK && !on) {
        rc = pier__fail(err, PIER_E_INVALID_ARGUMENT,
                        "board '%s' has no full-text index", board);
        pier__error_board(err, board);
    }
    if (rc == PIER_OK)
        rc = engine->lake->ops->fts_disable(engine->lake, b, err);
    if (rc == PIER_OK)
        rc = bump(engine, err);
    return pier__write_end(&w, rc, NULL, err);
}

PIER_API pier_status pier_fts_columns(char **out, pier_engine *engine,
                                      const char *board, pier_error *err)
{
    if (out == NULL) {
        pier__error_clear(err);
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "no output");
    }
    *out = NULL;
    pier_status rc = check_args(engine, board, err);
    if (rc != PIER_OK)
        return rc;
    rc = pier__engine_begin(engine, false, err);
    if (rc != PIER_OK)
        return rc;
    pier__board *b = NULL;
    char **columns = NULL;
    size_t n = 0;
    rc = pier__engine_board(engine, board, &b, err);
    if (rc == PIER_OK)
        rc = engine->lake->ops->fts_columns(engine->lake, board, &columns,
                                            &n, err);
    rc = pier__engine_end(engine, rc, err);
    pier__buf json;
    pier__buf_init(&json);
    pier__buf_putc(&json, '[');
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            pier__buf_putc(&json, ',');
        pier__buf_json_string(&json, columns[i], strlen(columns[i]));
    }
    pier__buf_putc(&json, ']');
    free_columns(columns, n);
    if (rc == PIER_OK && json.oom)
        rc = pier__oom(err);
    if (rc == PIER_OK) {
        *out = json.p;
        return PIER_OK;
    }
    pier__buf_free(&json);
    return rc;
}
