/*
 * insert.c: the one insert path behind pier_insert_json and
 * pier_insert_rows.
 *
 * An insert runs in three passes inside one write transaction:
 *  1. resolve: every field meets its column: an existing one, or a new one
 *     whose type is the least upper bound of all of this write's values
 *     for it (nulls decide nothing; a column given only nulls is not
 *     created). Name rules and strictness are checked here.
 *  2. schema: a new board and new columns are created, each with its
 *     change record (the catalog version is bumped once, at the end).
 *  3. rows: each row is encoded against its columns (base columns by their
 *     own rules, updated_at set to the write's time) and stored; its
 *     logical values are appended to the insert's change record.
 * Any failure rolls the transaction back and leaves the catalog cache
 * untouched: the board is cloned before it changes and the clone is only
 * installed after everything succeeded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/rows.h"

/* A column this write introduces. */
typedef struct pending {
    const char *name;          /* the first spelling, in the batch's arena */
    size_t len;
    pier__type type;           /* lub of the values so far; NULL: only
                                  nulls seen */
    ptrdiff_t col;             /* its index in the draft, or -1 if it is not
                                  created */
} pending;

typedef struct insert_ctx {
    pier_engine *e;
    const char *board_id;
    const pier_rows *rows;
    pier__board *board;        /* the board as committed, or NULL if new */
    pier__board *draft;        /* the board as this write leaves it */
    bool strict;
    pending *pend;
    size_t npend, pend_cap;
    ptrdiff_t *field_col;      /* per field: a combined index (see below),
                                  then a draft column index, or -1 */
    size_t *seen;              /* per combined index: last row + 1 */
    size_t seen_cap;
    int64_t now;
} insert_ctx;

/* Combined indexes number the board's columns first, then pending ones:
 * index < board_width means a board column. */
static size_t board_width(const insert_ctx *c)
{
    return c->board != NULL ? c->board->ncolumns : PIER__BASE_COLUMNS;
}

static void error_row(pier_error *err, const insert_ctx *c, size_t row)
{
    if (err == NULL || c->rows->nrows < 2)
        return;
    size_t n = strlen(err->message);
    snprintf(err->message + n, sizeof err->message - n, " (row %zu)",
             row + 1);
}

static void preview(pier__buf *b, const pier__value *v)
{
    char tmp[PIER__TIMESTAMP_BUF + PIER__I128_BUF];
    switch (v->kind) {
    case PIER_KIND_BOOLEAN:
        pier__buf_puts(b, v->u.b ? "true" : "false");
        break;
    case PIER_KIND_BIGINT:
        pier__buf_printf(b, "%lld", (long long)v->u.i);
        break;
    case PIER_KIND_HUGEINT:
        pier__i128_format(v->u.h, tmp);
        pier__buf_puts(b, tmp);
        break;
    case PIER_KIND_DOUBLE:
        pier__double_format(v->u.d, tmp);
        pier__buf_puts(b, tmp);
        break;
    case PIER_KIND_TIMESTAMP:
        pier__timestamp_format(v->u.i, tmp);
        pier__buf_json_string(b, tmp, strlen(tmp));
        break;
    case PIER_KIND_TEXT:
    case PIER_KIND_JSON: {
        size_t n = v->n > 40 ? 40 : v->n;
        while (n < v->n && n > 0 && ((unsigned char)v->s[n] & 0xC0) == 0x80)
            n--;
        if (v->kind == PIER_KIND_TEXT)
            pier__buf_json_string(b, v->s, n);
        else
            pier__buf_append(b, v->s, n);
        if (n < v->n)
            pier__buf_puts(b, "...");
        break;
    }
    default:
        pier__buf_puts(b, "null");
    }
}

static pier_status conflict(const insert_ctx *c, size_t row,
                            const char *column, pier__type col_type,
                            const pier__value *v, const char *why,
                            pier_error *err)
{
    pier__buf p;
    pier__buf_init(&p);
    preview(&p, v);
    const char *vt = pier__type_name(pier__value_type(v));
    pier__fail(err, PIER_E_COLUMN_TYPE_CONFLICT,
               "column '%s' of board '%s' is %s, got %s %s%s", column,
               c->board_id, pier__type_name(col_type), vt,
               p.p != NULL ? p.p : "", why);
    pier__buf_free(&p);
    error_row(err, c, row);
    pier__error_board(err, c->board_id);
    pier__error_column(err, column);
    pier__error_types(err, pier__type_name(col_type), vt);
    return PIER_E_COLUMN_TYPE_CONFLICT;
}

/* Whether an integer value missed an integer column only by its range. */
static bool out_of_range(const pier__value *v, pier__type col)
{
    int rank = pier__type_rank(col);
    return (v->kind == PIER_KIND_BIGINT || v->kind == PIER_KIND_HUGEINT) &&
           rank >= pier__type_rank((pier__type){ PIER_KIND_TINYINT }) &&
           rank <= pier__type_rank((pier__type){ PIER_KIND_HUGEINT });
}

static bool grow_seen(insert_ctx *c, size_t need)
{
    if (need <= c->seen_cap)
        return true;
    size_t cap = c->seen_cap * 2 > need ? c->seen_cap * 2 : need + 16;
    size_t *s = realloc(c->seen, cap * sizeof *s);
    if (s == NULL)
        return false;
    memset(s + c->seen_cap, 0, (cap - c->seen_cap) * sizeof *s);
    c->seen = s;
    c->seen_cap = cap;
    return true;
}

/* Finds or adds the pending column for a name that is not on the board. */
static pier_status pend_column(insert_ctx *c, const pier__field *f,
                               size_t row, size_t *out, pier_error *err)
{
    for (size_t k = 0; k < c->npend; k++) {
        if (pier__name_eq(c->pend[k].name, c->pend[k].len, f->name,
                          f->name_len)) {
            *out = k;
            return PIER_OK;
        }
    }
    pier_status rc = pier__column_name_check(f->name, f->name_len,
                                             c->board_id, err);
    if (rc != PIER_OK) {
        error_row(err, c, row);
        return rc;
    }
    if (c->strict) {
        pier__buf q;
        pier__buf_init(&q);
        pier__quote_name(&q, f->name, f->name_len);
        const char *name = q.p != NULL ? q.p : "";
        bool own = c->board != NULL && c->board->strict;
        pier__fail(err, PIER_E_UNKNOWN_COLUMN,
                   "column '%s' was never declared on board '%s', %s", name,
                   c->board_id,
                   own ? "which is strict"
                       : "and this engine takes declared columns only");
        error_row(err, c, row);
        pier__error_board(err, c->board_id);
        pier__error_column(err, name);
        pier__buf_free(&q);
        return PIER_E_UNKNOWN_COLUMN;
    }
    if (c->npend == c->pend_cap) {
        size_t cap = c->pend_cap == 0 ? 8 : c->pend_cap * 2;
        pending *p = realloc(c->pend, cap * sizeof *p);
        if (p == NULL)
            return pier__oom(err);
        c->pend = p;
        c->pend_cap = cap;
    }
    c->pend[c->npend] = (pending){
        .name = f->name, .len = f->name_len,
        .type = { PIER_KIND_NULL }, .col = -1,
    };
    *out = c->npend++;
    return PIER_OK;
}

/* Pass 1: every field to a column; new columns and their types. */
static pier_status resolve(insert_ctx *c, pier_error *err)
{
    const pier_rows *rows = c->rows;
    c->field_col = malloc((rows->nfields + 1) * sizeof *c->field_col);
    if (c->field_col == NULL || !grow_seen(c, board_width(c) + 16))
        return pier__oom(err);
    for (size_t r = 0; r < rows->nrows; r++) {
        size_t end = pier__rows_row_end(rows, r);
        for (size_t i = rows->row_start[r]; i < end; i++) {
            const pier__field *f = &rows->fields[i];
            ptrdiff_t at = c->board != NULL
                ? pier__board_find(c->board, f->name, f->name_len)
                : pier__base_column_index(f->name, f->name_len);
            size_t idx;
            if (at >= 0) {
                idx = (size_t)at;
            } else {
                size_t k = 0;
                pier_status rc = pend_column(c, f, r, &k, err);
                if (rc != PIER_OK)
                    return rc;
                c->pend[k].type = pier__type_lub(c->pend[k].type,
                                                 pier__value_type(&f->value));
                idx = board_width(c) + k;
            }
            if (!grow_seen(c, idx + 1))
                return pier__oom(err);
            if (c->seen[idx] == r + 1) {
                pier__buf q;
                pier__buf_init(&q);
                pier__quote_name(&q, f->name, f->name_len);
                pier__fail(err, PIER_E_DUPLICATE_COLUMN,
                           "a row names column '%s' twice (names are "
                           "compared without regard to case)",
                           q.p != NULL ? q.p : "");
                error_row(err, c, r);
                pier__error_board(err, c->board_id);
                pier__error_column(err, q.p != NULL ? q.p : "");
                pier__buf_free(&q);
                return PIER_E_DUPLICATE_COLUMN;
            }
            c->seen[idx] = r + 1;
            c->field_col[i] = (ptrdiff_t)idx;
        }
    }
    return PIER_OK;
}

/* Builds the draft board with the new columns and maps every field to a
 * draft column (-1: a column given only nulls, not created). */
static pier_status plan_columns(insert_ctx *c, pier_error *err)
{
    size_t created = 0;
    for (size_t k = 0; k < c->npend; k++)
        created += c->pend[k].type.kind != PIER_KIND_NULL;
    size_t width = board_width(c);
    if (width + created > PIER_MAX_COLUMNS) {
        pier__fail(err, PIER_E_LIMIT_EXCEEDED,
                   "this write would give board '%s' %zu columns; a board "
                   "has at most %d", c->board_id, width + created,
                   PIER_MAX_COLUMNS);
        pier__error_board(err, c->board_id);
        return PIER_E_LIMIT_EXCEEDED;
    }
    if (c->board == NULL)
        c->draft = pier__board_new(c->board_id, false, c->now);
    else if (created > 0)
        c->draft = pier__board_clone(c->board);
    if (c->board == NULL || created > 0) {
        if (c->draft == NULL)
            return pier__oom(err);
        for (size_t k = 0; k < c->npend; k++) {
            pending *p = &c->pend[k];
            if (p->type.kind == PIER_KIND_NULL)
                continue;
            if (!pier__board_append(c->draft, p->name, p->len, p->type,
                                    PIER_ORIGIN_INFERRED))
                return pier__oom(err);
            p->col = (ptrdiff_t)c->draft->ncolumns - 1;
        }
    }
    for (size_t i = 0; i < c->rows->nfields; i++) {
        size_t idx = (size_t)c->field_col[i];
        if (idx >= width)
            c->field_col[i] = c->pend[idx - width].col;
    }
    return PIER_OK;
}

/* Pass 2: the new board or columns, each with its schema record. */
static pier_status apply_schema(insert_ctx *c, pier_error *err)
{
    if (c->draft == NULL)
        return PIER_OK;
    pier__lake *lake = c->e->lake;
    int64_t wm;
    pier_status rc;
    if (c->board == NULL) {
        rc = lake->ops->board_create(lake, c->draft, err);
        if (rc == PIER_OK)
            rc = pier__change_board_created(c->e, c->draft, c->now, &wm,
                                            err);
    } else {
        rc = PIER_OK;
        for (size_t i = c->board->ncolumns;
             rc == PIER_OK && i < c->draft->ncolumns; i++) {
            rc = lake->ops->column_add(lake, c->draft, i, err);
            if (rc == PIER_OK)
                rc = pier__change_column_added(c->e, c->draft, i, c->now,
                                               &wm, err);
        }
    }
    return rc;
}

/* Encodes one row's base columns: id, updated_at, state. */
static pier_status encode_base(const insert_ctx *c, size_t r,
                               pier__cell *cells, const pier__value *id,
                               const pier__value *state, pier_error *err)
{
    if (id == NULL || id->kind == PIER_KIND_NULL ||
        (id->kind == PIER_KIND_TEXT && id->n == 0)) {
        pier__fail(err, PIER_E_MISSING_ID,
                   "every row needs an id (a non-empty string)");
        error_row(err, c, r);
        pier__error_board(err, c->board_id);
        pier__error_column(err, "id");
        return PIER_E_MISSING_ID;
    }
    pier__type text = { PIER_KIND_TEXT };
    if (id->kind != PIER_KIND_TEXT)
        return conflict(c, r, "id", text, id, "; an id is a string", err);
    if (state != NULL && state->kind != PIER_KIND_TEXT &&
        state->kind != PIER_KIND_NULL)
        return conflict(c, r, "state", text, state, "; state is a string "
                        "or null", err);
    cells[PIER__COL_ID] = (pier__cell){
        .st = PIER__ST_TEXT, .p = id->s, .n = id->n,
    };
    cells[PIER__COL_UPDATED_AT] = (pier__cell){
        .st = PIER__ST_INT, .i = c->now,
    };
    if (state != NULL && state->kind == PIER_KIND_TEXT)
        cells[PIER__COL_STATE] = (pier__cell){
            .st = PIER__ST_TEXT, .p = state->s, .n = state->n,
        };
    return PIER_OK;
}

/* Whether row r's id was already given by an earlier row of this write;
 * if so, which (1-based). */
static size_t earlier_row_with_id(const insert_ctx *c, size_t r,
                                  const pier__cell *id)
{
    const pier_rows *rows = c->rows;
    for (size_t q = 0; q < r; q++) {
        size_t end = pier__rows_row_end(rows, q);
        for (size_t i = rows->row_start[q]; i < end; i++) {
            const pier__value *v = &rows->fields[i].value;
            if (c->field_col[i] == PIER__COL_ID && v->kind == PIER_KIND_TEXT
                && v->n == id->n && memcmp(v->s, id->p, id->n) == 0)
                return q + 1;
        }
    }
    return 0;
}

static pier_status duplicate(const insert_ctx *c, size_t r,
                             const pier__cell *id, pier_error *err)
{
    pier__buf q;
    pier__buf_init(&q);
    pier__quote_name(&q, id->p, id->n);
    const char *shown = q.p != NULL ? q.p : "";
    size_t first = earlier_row_with_id(c, r, id);
    if (first > 0)
        pier__fail(err, PIER_E_DUPLICATE_ID,
                   "id '%s' is given twice in this write (rows %zu and "
                   "%zu)", shown, first, r + 1);
    else {
        pier__fail(err, PIER_E_DUPLICATE_ID,
                   "board '%s' already has a row with id '%s'", c->board_id,
                   shown);
        error_row(err, c, r);
    }
    pier__error_board(err, c->board_id);
    pier__error_column(err, "id");
    pier__buf_free(&q);
    return PIER_E_DUPLICATE_ID;
}

/* Pass 3: encode, store and record every row. */
static pier_status write_rows(insert_ctx *c, int64_t *wm, pier_error *err)
{
    const pier_rows *rows = c->rows;
    const pier__board *b = c->draft != NULL ? c->draft : c->board;
    pier__cell *cells = malloc(b->ncolumns * sizeof *cells);
    pier__arena scratch;
    pier__arena_init(&scratch);
    pier__buf payload, keys;
    pier__buf_init(&payload);
    pier__buf_init(&keys);
    /* Each column's `"name":` for the change record, escaped once per
     * write instead of once per row: keys.p + key_at[k] up to
     * key_at[k + 1]. */
    size_t *key_at = malloc((b->ncolumns + 1) * sizeof *key_at);
    pier_status rc = PIER_OK;
    if (cells == NULL || key_at == NULL) {
        rc = pier__oom(err);
        goto done;
    }
    for (size_t k = 0; k < b->ncolumns; k++) {
        key_at[k] = keys.len;
        const char *name = b->columns[k].name;
        pier__buf_json_string(&keys, name, strlen(name));
        pier__buf_putc(&keys, ':');
    }
    key_at[b->ncolumns] = keys.len;
    if (keys.oom) {
        rc = pier__oom(err);
        goto done;
    }
    pier__buf_puts(&payload, "{\"rows\":[");
    for (size_t r = 0; rc == PIER_OK && r < rows->nrows; r++) {
        if (rows->row_bytes[r] > PIER_MAX_ROW_BYTES) {
            rc = pier__fail(err, PIER_E_LIMIT_EXCEEDED,
                            "row %zu is larger than %d bytes, the most one "
                            "row may take", r + 1, PIER_MAX_ROW_BYTES);
            pier__error_board(err, c->board_id);
            break;
        }
        pier__arena_reset(&scratch);
        memset(cells, 0, b->ncolumns * sizeof *cells);
        const pier__value *id = NULL, *state = NULL;
        size_t end = pier__rows_row_end(rows, r);
        for (size_t i = rows->row_start[r]; rc == PIER_OK && i < end; i++) {
            ptrdiff_t col = c->field_col[i];
            const pier__value *v = &rows->fields[i].value;
            if (col == PIER__COL_ID)
                id = v;
            else if (col == PIER__COL_STATE)
                state = v;
            if (col < PIER__BASE_COLUMNS)   /* base, or not created */
                continue;
            const pier__column *cd = &b->columns[col];
            switch (pier__value_encode(&cells[col], v, cd->type, &scratch)) {
            case PIER__FIT_OK:
                break;
            case PIER__FIT_OOM:
                rc = pier__oom(err);
                break;
            default:
                rc = conflict(c, r, cd->name, cd->type, v,
                              out_of_range(v, cd->type) ? ", out of its range"
                                                        : "", err);
            }
        }
        if (rc == PIER_OK)
            rc = encode_base(c, r, cells, id, state, err);
        size_t failed = 0;
        if (rc == PIER_OK) {
            rc = c->e->lake->ops->rows_insert(c->e->lake, b, cells, 1,
                                              &failed, err);
            if (rc == PIER_E_DUPLICATE_ID)
                rc = duplicate(c, r, &cells[PIER__COL_ID], err);
        }
        if (rc != PIER_OK)
            break;
        if (r > 0)
            pier__buf_putc(&payload, ',');
        pier__buf_putc(&payload, '{');
        for (size_t k = 0; k < b->ncolumns; k++) {
            /* updated_at is the record's committed_at: not repeated. */
            if (cells[k].st == PIER__ST_NULL || k == PIER__COL_UPDATED_AT)
                continue;
            if (k > 0)
                pier__buf_putc(&payload, ',');
            pier__buf_append(&payload, keys.p + key_at[k],
                             key_at[k + 1] - key_at[k]);
            pier__cell_to_json(&payload, &cells[k], b->columns[k].type);
        }
        pier__buf_putc(&payload, '}');
    }
    pier__buf_puts(&payload, "]}");
    if (rc == PIER_OK && payload.oom)
        rc = pier__oom(err);
    if (rc == PIER_OK)
        rc = c->e->lake->ops->change_append(c->e->lake, c->board_id,
                                            "insert", payload.p, payload.len,
                                            c->now, wm, err);
done:
    free(cells);
    free(key_at);
    pier__arena_free(&scratch);
    pier__buf_free(&payload);
    pier__buf_free(&keys);
    return rc;
}

pier_status pier__insert(int64_t *watermark, pier_engine *e,
                         const char *board, const pier_rows *rows,
                         pier_error *err)
{
    pier_status rc = pier__engine_begin(e, true, err);
    if (rc != PIER_OK)
        return rc;
    insert_ctx c = {
        .e = e, .board_id = board, .rows = rows,
        .board = pier__catalog_find(&e->catalog, board),
        .now = pier__engine_now(e),
    };
    int64_t wm = 0;
    if (c.board == NULL && e->opts.auto_create == PIER_AUTO_CREATE_NEVER) {
        rc = pier__fail(err, PIER_E_BOARD_NOT_FOUND,
                        "no board '%s', and this engine creates boards only "
                        "explicitly (auto-create is never)", board);
        pier__error_board(err, board);
        goto done;
    }
    if (rows->nrows == 0) {                 /* nothing to write */
        rc = e->lake->ops->head(e->lake, &wm, err);
        goto done;
    }
    c.strict = e->opts.columns == PIER_COLUMNS_DECLARED ||
               (c.board != NULL && c.board->strict);
    rc = resolve(&c, err);
    if (rc == PIER_OK)
        rc = plan_columns(&c, err);
    if (rc == PIER_OK)
        rc = apply_schema(&c, err);
    if (rc == PIER_OK)
        rc = write_rows(&c, &wm, err);
    if (rc == PIER_OK && c.draft != NULL)
        rc = pier__engine_install(e, &c.draft, err);
done:
    pier__board_free(c.draft);
    free(c.pend);
    free(c.field_col);
    free(c.seen);
    rc = pier__engine_end(e, rc, err);
    if (rc == PIER_OK && watermark != NULL)
        *watermark = wm;
    return rc;
}

static pier_status check_insert_args(pier_engine *e, const char *board,
                                     const void *input, pier_error *err)
{
    pier__error_clear(err);
    if (e == NULL || input == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "an insert needs an engine and rows");
    return pier__board_id_check(board, err);
}

PIER_API pier_status pier_insert_json(int64_t *watermark, pier_engine *engine,
                                      const char *board, const char *json,
                                      size_t len, pier_error *err)
{
    pier_status rc = check_insert_args(engine, board, json, err);
    if (rc != PIER_OK)
        return rc;
    pier_rows rows;
    pier__rows_init(&rows);
    rc = pier__json_rows_read(&rows, json, len, err);
    if (rc == PIER_OK)
        rc = pier__insert(watermark, engine, board, &rows, err);
    pier__rows_release(&rows);
    return rc;
}

PIER_API pier_status pier_insert_rows(int64_t *watermark, pier_engine *engine,
                                      const char *board,
                                      const pier_rows *rows, pier_error *err)
{
    pier_status rc = check_insert_args(engine, board, rows, err);
    if (rc != PIER_OK)
        return rc;
    if (rows->nrows > PIER_MAX_BATCH_ROWS)
        return pier__fail(err, PIER_E_LIMIT_EXCEEDED,
                          "%zu rows in one write; one write takes at most "
                          "%d", rows->nrows, PIER_MAX_BATCH_ROWS);
    return pier__insert(watermark, engine, board, rows, err);
}
