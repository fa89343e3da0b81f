/*
 * read.c: reading rows back: one row by id, a board's row count, and a scan
 * of every row in id order. Values are decoded to their column's logical
 * type as they leave the lake (pier__value_read, which query cursors share).
 * No read ever creates a board.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

static void row_release(pier_row *row)
{
    pier__arena_free(&row->arena);
}

PIER_API void pier_row_free(pier_row *row)
{
    if (row == NULL)
        return;
    row_release(row);
    free(row);
}

/* The text of a computed real that is not finite: what SQLite's json()
 * writes for one, so that the row's JSON stays a number. */
static const char *infinity_text(double d)
{
    return d > 0 ? "9e999" : "-9e999";
}

pier__fit pier__value_read(pier_value *out, const pier__cell *cell,
                           const pier__type *type, pier__arena *a,
                           bool borrow)
{
    if (type != NULL)
        return borrow ? pier__cell_view(out, cell, *type, a)
                      : pier__cell_decode(out, cell, *type, a);
    pier__type as = { PIER_KIND_TEXT, NULL };
    switch (cell->st) {
    case PIER__ST_INT:
        as.kind = PIER_KIND_BIGINT;
        break;
    case PIER__ST_REAL:
        as.kind = PIER_KIND_DOUBLE;
        if (!isfinite(cell->d)) {   /* SQLite turns NaN into NULL */
            const char *t = infinity_text(cell->d);
            *out = (pier_value){ .kind = PIER_KIND_DOUBLE,
                                 .as.real = cell->d, .len = strlen(t) };
            out->text = borrow ? t : pier__arena_strndup(a, t, out->len);
            return out->text != NULL ? PIER__FIT_OK : PIER__FIT_OOM;
        }
        break;
    case PIER__ST_BLOB: {
        static const char hex[] = "0123456789ABCDEF";
        char *t = pier__arena_alloc(a, cell->n * 2 + 1);
        if (t == NULL)
            return PIER__FIT_OOM;
        const unsigned char *p = (const unsigned char *)cell->p;
        for (size_t i = 0; i < cell->n; i++) {
            t[2 * i] = hex[p[i] >> 4];
            t[2 * i + 1] = hex[p[i] & 15];
        }
        t[cell->n * 2] = '\0';
        *out = (pier_value){ .kind = PIER_KIND_TEXT, .text = t,
                             .len = cell->n * 2 };
        return PIER__FIT_OK;
    }
    default:                       /* text, null */
        break;
    }
    return borrow ? pier__cell_view(out, cell, as, a)
                  : pier__cell_decode(out, cell, as, a);
}

/* The ReadFailed of a stored value that does not match its column's
 * type. */
static pier_status value_mismatch(pier_error *err, const char *board,
                                  const char *column, pier__type type)
{
    pier__fail(err, PIER_E_READ_FAILED,
               "a stored value of column '%s' of board '%s' does not match "
               "its type %s", column, board, pier__type_name(type));
    pier__error_board(err, board);
    pier__error_column(err, column);
    return PIER_E_READ_FAILED;
}

/* Decodes a stored row into `row` (whose arena is empty). */
static pier_status decode(pier_row *row, const pier__board *b,
                          const pier__cell *cells, pier_error *err)
{
    row->ncolumns = b->ncolumns;
    row->names = pier__arena_alloc(&row->arena,
                                   b->ncolumns * sizeof *row->names);
    row->values = pier__arena_alloc(&row->arena,
                                    b->ncolumns * sizeof *row->values);
    if (row->names == NULL || row->values == NULL)
        return pier__oom(err);
    for (size_t i = 0; i < b->ncolumns; i++) {
        const pier__column *c = &b->columns[i];
        char *name = pier__arena_strndup(&row->arena, c->name,
                                         strlen(c->name));
        if (name == NULL)
            return pier__oom(err);
        row->names[i] = name;
        switch (pier__value_read(&row->values[i], &cells[i], &c->type,
                                 &row->arena, false)) {
        case PIER__FIT_OK:
            break;
        case PIER__FIT_OOM:
            return pier__oom(err);
        default:
            return value_mismatch(err, b->id, c->name, c->type);
        }
    }
    return PIER_OK;
}

typedef struct get_ctx {
    const pier__board *board;
    pier_row *row;
    bool found;
    pier_status rc;
    pier_error *err;
} get_ctx;

static int get_cb(const pier__cell *cells, size_t n, void *payload)
{
    (void)n;
    get_ctx *g = payload;
    g->found = true;
    g->rc = decode(g->row, g->board, cells, g->err);
    return 1;
}

static pier_status check_read_args(pier_engine *e, const char *board,
                                   const void *out, pier_error *err)
{
    pier__error_clear(err);
    if (e == NULL || out == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a read needs an engine and an output");
    return pier__board_id_check(board, err);
}

PIER_API pier_status pier_row_get(pier_row **out, pier_engine *engine,
                                  const char *board, const char *id,
                                  pier_error *err)
{
    pier_status rc = check_read_args(engine, board, out, err);
    if (rc != PIER_OK)
        return rc;
    *out = NULL;
    if (id == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "no id given");
    pier_row *row = calloc(1, sizeof *row);
    if (row == NULL)
        return pier__oom(err);
    pier__arena_init(&row->arena);
    rc = pier__engine_begin(engine, false, err);
    if (rc != PIER_OK) {
        pier_row_free(row);
        return rc;
    }
    pier__board *b = NULL;
    get_ctx g = { .row = row, .rc = PIER_OK, .err = err };
    rc = pier__engine_board(engine, board, &b, err);
    if (rc == PIER_OK) {
        g.board = b;
        rc = engine->lake->ops->rows_scan(engine->lake, b, id, get_cb, &g,
                                          err);
    }
    if (rc == PIER_OK)
        rc = g.rc;
    if (rc == PIER_OK && !g.found) {
        pier__buf q;
        pier__buf_init(&q);
        pier__quote_name(&q, id, strlen(id));
        rc = pier__fail(err, PIER_E_ROW_NOT_FOUND,
                        "board '%s' has no row with id '%s'", board,
                        q.p != NULL ? q.p : "");
        pier__error_board(err, board);
        pier__buf_free(&q);
    }
    rc = pier__engine_end(engine, rc, err);
    if (rc == PIER_OK)
        *out = row;
    else
        pier_row_free(row);
    return rc;
}

PIER_API size_t pier_row_column_count(const pier_row *row)
{
    return row != NULL ? row->ncolumns : 0;
}

PIER_API const char *pier_row_column_name(const pier_row *row, size_t i)
{
    return row != NULL && i < row->ncolumns ? row->names[i] : NULL;
}

PIER_API const pier_value *pier_row_value(const pier_row *row, size_t i)
{
    return row != NULL && i < row->ncolumns ? &row->values[i] : NULL;
}

PIER_API const pier_value *pier_row_find(const pier_row *row,
                                         const char *column)
{
    if (row == NULL || column == NULL)
        return NULL;
    size_t n = strlen(column);
    for (size_t i = 0; i < row->ncolumns; i++)
        if (pier__name_eq(row->names[i], strlen(row->names[i]), column, n))
            return &row->values[i];
    return NULL;
}

void pier__row_json(pier__buf *b, const pier_row *row)
{
    pier__buf_putc(b, '{');
    for (size_t i = 0; i < row->ncolumns; i++) {
        const pier_value *v = &row->values[i];
        if (i > 0)
            pier__buf_putc(b, ',');
        pier__buf_json_string(b, row->names[i], strlen(row->names[i]));
        pier__buf_putc(b, ':');
        pier__value_json(b, v);
    }
    pier__buf_putc(b, '}');
}

PIER_API char *pier_row_to_json(const pier_row *row)
{
    if (row == NULL)
        return NULL;
    pier__buf b;
    pier__buf_init(&b);
    pier__row_json(&b, row);
    return pier__buf_detach(&b);
}

PIER_API pier_status pier_row_count(int64_t *out, pier_engine *engine,
                                    const char *board, pier_error *err)
{
    pier_status rc = check_read_args(engine, board, out, err);
    if (rc != PIER_OK)
        return rc;
    rc = pier__engine_begin(engine, false, err);
    if (rc != PIER_OK)
        return rc;
    pier__board *b = NULL;
    rc = pier__engine_board(engine, board, &b, err);
    if (rc == PIER_OK)
        rc = engine->lake->ops->rows_count(engine->lake, b, out, err);
    return pier__engine_end(engine, rc, err);
}

typedef struct scan_ctx {
    const pier__board *board;
    pier_row row;
    pier_row_fn fn;
    void *payload;
    pier_status rc;
    pier_error *err;
} scan_ctx;

static int scan_cb(const pier__cell *cells, size_t n, void *payload)
{
    (void)n;
    scan_ctx *s = payload;
    pier__arena_reset(&s->row.arena);
    s->rc = decode(&s->row, s->board, cells, s->err);
    if (s->rc != PIER_OK)
        return 1;
    return s->fn(&s->row, s->payload);
}

PIER_API pier_status pier_board_scan(pier_engine *engine, const char *board,
                                     pier_row_fn fn, void *payload,
                                     pier_error *err)
{
    pier_status rc = check_read_args(engine, board, engine, err);
    if (rc != PIER_OK)
        return rc;
    if (fn == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "no row callback");
    rc = pier__engine_begin(engine, false, err);
    if (rc != PIER_OK)
        return rc;
    pier__board *b = NULL;
    scan_ctx s = { .fn = fn, .payload = payload, .rc = PIER_OK, .err = err };
    pier__arena_init(&s.row.arena);
    rc = pier__engine_board(engine, board, &b, err);
    if (rc == PIER_OK) {
        s.board = b;
        rc = engine->lake->ops->rows_scan(engine->lake, b, NULL, scan_cb, &s,
                                          err);
    }
    if (rc == PIER_OK)
        rc = s.rc;
    row_release(&s.row);
    return pier__engine_end(engine, rc, err);
}
