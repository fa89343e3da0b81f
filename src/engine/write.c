/*
 * write.c: the one write path behind inserts, upserts and updates, from
 * JSON text and from the C row builder alike, and deletes.
 *
 * A write of rows runs in three passes inside one write transaction:
 *  1. resolve: every field meets its column: an existing one, or a new one
 *     whose type is the least upper bound of all of this write's values
 *     for it (nulls decide nothing; a column given only nulls is not
 *     created). Name rules and strictness are checked here.
 *  2. schema: a new board and new columns are created, each with its
 *     change record (the catalog version is bumped once, at the end).
 *  3. rows: each row is encoded against its columns (base columns by their
 *     own rules, updated_at set to the write's time, _v to its version
 *     stamp) and stored. An insert or upsert appends one change record
 *     with every row's logical values; an update applies its patches in
 *     order, each with its own record, and fails with RowNotFound on a
 *     missing row.
 * Any failure rolls the transaction back and leaves the catalog cache
 * untouched: the board is cloned before it changes and the clone is only
 * installed after everything succeeded. Inside a pier_tx the same code
 * runs, and the transaction's commit or rollback decides.
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

typedef struct write_ctx {
    pier__write *w;
    const char *board_id;
    const pier_rows *rows;
    pier__write_mode mode;
    const pier__idref *ids;    /* update: each patch's row, or NULL */
    pier__board *board;        /* the board as committed, or NULL if new */
    pier__board *draft;        /* the board as this write leaves it */
    bool strict;
    pending *pend;
    size_t npend, pend_cap;
    size_t *pend_hash;         /* open addressing: pending index + 1, 0
                                  free; names hashed without case, so that
                                  finding one costs the same for the
                                  10th column as for the 100,000th */
    size_t pend_hash_cap;      /* a power of two, at least twice npend */
    ptrdiff_t *field_col;      /* per field: a combined index (see below),
                                  then a draft column index, or -1 */
    size_t *seen;              /* per combined index: last row + 1 */
    size_t seen_cap;
} write_ctx;

/* Combined indexes number the board's columns first, then pending ones:
 * index < board_width means a board column. */
static size_t board_width(const write_ctx *c)
{
    return c->board != NULL ? c->board->ncolumns : PIER__BASE_COLUMNS;
}

static void error_row(pier_error *err, const write_ctx *c, size_t row)
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
        if (v->s != NULL) {             /* as written */
            pier__buf_append(b, v->s, v->n > 48 ? 45 : v->n);
            if (v->n > 48)
                pier__buf_puts(b, "...");
            break;
        }
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

static pier_status conflict(const write_ctx *c, size_t row,
                            const char *column, pier__type col_type,
                            const pier__value *v, const char *why,
                            pier_error *err)
{
    pier__buf p;
    pier__buf_init(&p);
    preview(&p, v);
    const char *vt = pier__value_wide_integer(v)
        ? "integer" : pier__type_name(pier__value_type(v));
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
    static const pier__type lo = { PIER_KIND_TINYINT, NULL },
                            hi = { PIER_KIND_HUGEINT, NULL };
    int rank = pier__type_rank(col);
    return (v->kind == PIER_KIND_BIGINT || v->kind == PIER_KIND_HUGEINT) &&
           rank >= pier__type_rank(lo) && rank <= pier__type_rank(hi);
}

static bool grow_seen(write_ctx *c, size_t need)
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

/* A name's hash, ASCII case folded as pier__name_eq compares (FNV-1a). */
static size_t name_hash(const char *p, size_t n)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)p[i];
        if (ch >= 'A' && ch <= 'Z')
            ch = (unsigned char)(ch - 'A' + 'a');
        h = (h ^ ch) * UINT64_C(1099511628211);
    }
    return (size_t)h;
}

/* The slot of pending name (p, n): where it is, or the free slot where
 * it goes. */
static size_t pend_slot(const write_ctx *c, const char *p, size_t n)
{
    size_t mask = c->pend_hash_cap - 1;
    size_t at = name_hash(p, n) & mask;
    while (c->pend_hash[at] != 0) {
        const pending *q = &c->pend[c->pend_hash[at] - 1];
        if (pier__name_eq(q->name, q->len, p, n))
            break;
        at = (at + 1) & mask;
    }
    return at;
}

/* Makes room in the hash for one more pending name. */
static bool pend_hash_grow(write_ctx *c)
{
    if ((c->npend + 1) * 2 <= c->pend_hash_cap)
        return true;
    size_t cap = c->pend_hash_cap == 0 ? 16 : c->pend_hash_cap * 2;
    size_t *h = calloc(cap, sizeof *h);
    if (h == NULL)
        return false;
    free(c->pend_hash);
    c->pend_hash = h;
    c->pend_hash_cap = cap;
    for (size_t k = 0; k < c->npend; k++)
        c->pend_hash[pend_slot(c, c->pend[k].name, c->pend[k].len)] = k + 1;
    return true;
}

/* Finds or adds the pending column for a name that is not on the board. */
static pier_status pend_column(write_ctx *c, const pier__field *f,
                               size_t row, size_t *out, pier_error *err)
{
    if (!pend_hash_grow(c))
        return pier__oom(err);
    size_t slot = pend_slot(c, f->name, f->name_len);
    if (c->pend_hash[slot] != 0) {
        *out = c->pend_hash[slot] - 1;
        return PIER_OK;
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
        .type = { PIER_KIND_NULL, NULL }, .col = -1,
    };
    c->pend_hash[slot] = c->npend + 1;
    *out = c->npend++;
    return PIER_OK;
}

/* Pass 1: every field to a column; new columns and their types. */
static pier_status resolve(write_ctx *c, pier_error *err)
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
            if (at == PIER__COL_UPDATED_AT) {
                /* Taking it would store a time the write did not happen
                 * at; dropping it would lose the caller's value unsaid. */
                pier__fail(err, PIER_E_RESERVED_COLUMN_NAME,
                           "column 'updated_at' is the engine's: every "
                           "write sets it to its own time; leave it out "
                           "of the row (pier export and import keep "
                           "timestamps)");
                error_row(err, c, r);
                pier__error_board(err, c->board_id);
                pier__error_column(err, "updated_at");
                return PIER_E_RESERVED_COLUMN_NAME;
            }
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
            /* A patch list names each row by id and its patch may repeat
             * it: the id alone may appear twice in an update. */
            bool again = c->seen[idx] == r + 1 &&
                         !(c->mode == PIER__MODE_UPDATE &&
                           idx == PIER__COL_ID);
            if (again) {
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
static pier_status plan_columns(write_ctx *c, pier_error *err)
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
        c->draft = pier__board_new(c->board_id, false, c->w->now);
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
static pier_status apply_schema(write_ctx *c, pier_error *err)
{
    if (c->draft == NULL)
        return PIER_OK;
    pier__lake *lake = c->w->e->lake;
    pier_status rc;
    if (c->board == NULL) {
        rc = lake->ops->board_create(lake, c->draft, err);
        if (rc == PIER_OK)
            rc = pier__change_board_created(c->w, c->draft, err);
    } else {
        rc = PIER_OK;
        for (size_t i = c->board->ncolumns;
             rc == PIER_OK && i < c->draft->ncolumns; i++) {
            rc = lake->ops->column_add(lake, c->draft, i, err);
            if (rc == PIER_OK)
                rc = pier__change_column_added(c->w, c->draft, i, err);
        }
    }
    return rc;
}

/* An id is a non-empty string. */
static pier_status check_id(const write_ctx *c, size_t r,
                            const pier__value *id, pier_error *err)
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
    if (id->kind != PIER_KIND_TEXT)
        return conflict(c, r, "id", (pier__type){ PIER_KIND_TEXT, NULL },
                        id, "; an id is a string", err);
    /* (one rule on every path: no call naming a row by a C string, and
     * no command line, could reach such a row) */
    if (id->n > 0 && memchr(id->s, '\0', id->n) != NULL) {
        pier__fail(err, PIER_E_INVALID_ARGUMENT, "an id may not hold "
                   "U+0000: nothing could name the row afterwards");
        error_row(err, c, r);
        pier__error_board(err, c->board_id);
        pier__error_column(err, "id");
        return PIER_E_INVALID_ARGUMENT;
    }
    return PIER_OK;
}

/* state is a string or null. */
static pier_status check_state(const write_ctx *c, size_t r,
                               const pier__value *state, pier_error *err)
{
    if (state != NULL && state->kind != PIER_KIND_TEXT &&
        state->kind != PIER_KIND_NULL)
        return conflict(c, r, "state",
                        (pier__type){ PIER_KIND_TEXT, NULL }, state,
                        "; state is a string or null", err);
    return PIER_OK;
}

/* Encodes one row's base columns: id, updated_at, state. */
static pier_status encode_base(const write_ctx *c, size_t r,
                               pier__cell *cells, const pier__value *id,
                               const pier__value *state, pier_error *err)
{
    pier_status rc = check_id(c, r, id, err);
    if (rc == PIER_OK)
        rc = check_state(c, r, state, err);
    if (rc != PIER_OK)
        return rc;
    cells[PIER__COL_ID] = (pier__cell){
        .st = PIER__ST_TEXT, .p = id->s, .n = id->n,
    };
    cells[PIER__COL_UPDATED_AT] = (pier__cell){
        .st = PIER__ST_INT, .i = c->w->now,
    };
    if (state != NULL && state->kind == PIER_KIND_TEXT)
        cells[PIER__COL_STATE] = (pier__cell){
            .st = PIER__ST_TEXT, .p = state->s, .n = state->n,
        };
    return PIER_OK;
}

/* Whether row r's id was already given by an earlier row of this write;
 * if so, which (1-based). */
static size_t earlier_row_with_id(const write_ctx *c, size_t r,
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

static pier_status duplicate(const write_ctx *c, size_t r,
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

/* Each column's `"name":` for change records, escaped once per write
 * instead of once per row: keys->p + at[k] up to at[k + 1]. */
typedef struct json_keys {
    pier__buf buf;
    size_t *at;
} json_keys;

static pier_status keys_init(json_keys *k, const pier__board *b,
                             pier_error *err)
{
    pier__buf_init(&k->buf);
    k->at = malloc((b->ncolumns + 1) * sizeof *k->at);
    if (k->at == NULL)
        return pier__oom(err);
    for (size_t i = 0; i < b->ncolumns; i++) {
        k->at[i] = k->buf.len;
        const char *name = b->columns[i].name;
        pier__buf_json_string(&k->buf, name, strlen(name));
        pier__buf_putc(&k->buf, ':');
    }
    k->at[b->ncolumns] = k->buf.len;
    return k->buf.oom ? pier__oom(err) : PIER_OK;
}

static void keys_put(pier__buf *out, const json_keys *k, size_t col)
{
    pier__buf_append(out, k->buf.p + k->at[col], k->at[col + 1] - k->at[col]);
}

static void keys_free(json_keys *k)
{
    pier__buf_free(&k->buf);
    free(k->at);
}

static pier_status check_row_size(const write_ctx *c, size_t r,
                                  pier_error *err)
{
    if (c->rows->row_bytes[r] <= PIER_MAX_ROW_BYTES)
        return PIER_OK;
    pier__fail(err, PIER_E_LIMIT_EXCEEDED,
               "row %zu is larger than %d bytes, the most one row may take",
               r + 1, PIER_MAX_ROW_BYTES);
    pier__error_board(err, c->board_id);
    return PIER_E_LIMIT_EXCEEDED;
}

/* Encodes field i of a row into its column's cell. */
static pier_status encode_field(const write_ctx *c, const pier__board *b,
                                size_t r, size_t i, pier__cell *cell,
                                pier__arena *scratch, pier_error *err)
{
    const pier__column *cd = &b->columns[c->field_col[i]];
    const pier__value *v = &c->rows->fields[i].value;
    const char *why = NULL;
    switch (pier__value_encode(cell, v, cd->type, scratch, &why)) {
    case PIER__FIT_OK:
        return PIER_OK;
    case PIER__FIT_OOM:
        return pier__oom(err);
    default: {
        /* A column this write infers from such a value has no type to be
         * at odds with: the value itself is what no column holds. */
        bool inferred_here = c->board == NULL ||
                             (size_t)c->field_col[i] >= c->board->ncolumns;
        if (pier__value_wide_integer(v) && inferred_here) {
            pier__buf p;
            pier__buf_init(&p);
            preview(&p, v);
            pier__fail(err, PIER_E_COLUMN_TYPE_CONFLICT,
                       "column '%s' of board '%s' cannot take integer "
                       "%s: it is beyond 128 bits, which no number column "
                       "holds exactly; write it as a string", cd->name,
                       c->board_id, p.p != NULL ? p.p : "");
            pier__buf_free(&p);
            error_row(err, c, r);
            pier__error_board(err, c->board_id);
            pier__error_column(err, cd->name);
            pier__error_types(err, pier__type_name(cd->type), "integer");
            return PIER_E_COLUMN_TYPE_CONFLICT;
        }
        char because[160] = "";
        if (why != NULL)
            snprintf(because, sizeof because, ": %s", why);
        else if (out_of_range(v, cd->type))
            snprintf(because, sizeof because, ", out of its range");
        return conflict(c, r, cd->name, cd->type, v, because, err);
    }
    }
}

/* Pass 3 of an insert or upsert: encode, store and record every row. */
static pier_status write_full_rows(write_ctx *c, pier_error *err)
{
    const pier_rows *rows = c->rows;
    const pier__board *b = c->draft != NULL ? c->draft : c->board;
    pier__cell *cells = malloc(b->ncolumns * sizeof *cells);
    pier__arena scratch;
    pier__arena_init(&scratch);
    pier__buf payload;
    pier__buf_init(&payload);
    json_keys keys;
    pier_status rc = keys_init(&keys, b, err);
    if (rc == PIER_OK && cells == NULL)
        rc = pier__oom(err);
    int store_mode = c->mode == PIER__MODE_UPSERT ? PIER__WRITE_UPSERT
                                                  : PIER__WRITE_INSERT;
    pier__buf_puts(&payload, "{\"rows\":[");
    for (size_t r = 0; rc == PIER_OK && r < rows->nrows; r++) {
        rc = check_row_size(c, r, err);
        if (rc != PIER_OK)
            break;
        pier__arena_reset(&scratch);
        memset(cells, 0, b->ncolumns * sizeof *cells);
        const pier__value *id = NULL, *state = NULL;
        size_t end = pier__rows_row_end(rows, r);
        for (size_t i = rows->row_start[r]; rc == PIER_OK && i < end; i++) {
            ptrdiff_t col = c->field_col[i];
            if (col == PIER__COL_ID)
                id = &rows->fields[i].value;
            else if (col == PIER__COL_STATE)
                state = &rows->fields[i].value;
            if (col >= PIER__BASE_COLUMNS)  /* not base, not left out */
                rc = encode_field(c, b, r, i, &cells[col], &scratch, err);
        }
        if (rc == PIER_OK)
            rc = encode_base(c, r, cells, id, state, err);
        size_t failed = 0;
        if (rc == PIER_OK) {
            rc = c->w->e->lake->ops->rows_write(c->w->e->lake, b, store_mode,
                                                cells, 1, c->w->stamp,
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
            keys_put(&payload, &keys, k);
            pier__cell_to_json(&payload, &cells[k], b->columns[k].type);
        }
        pier__buf_putc(&payload, '}');
    }
    pier__buf_puts(&payload, "]}");
    if (rc == PIER_OK)
        rc = pier__change_append(c->w, c->board_id,
                                 c->mode == PIER__MODE_UPSERT ? "upsert"
                                                              : "insert",
                                 &payload, err);
    free(cells);
    keys_free(&keys);
    pier__arena_free(&scratch);
    pier__buf_free(&payload);
    return rc;
}

/* The row a patch applies to: ids[r], or the row's own first id field. */
static pier_status patch_target(const write_ctx *c, size_t r,
                                pier__idref *out, pier_error *err)
{
    if (c->ids != NULL) {
        *out = c->ids[r];
        return PIER_OK;
    }
    const pier_rows *rows = c->rows;
    size_t end = pier__rows_row_end(rows, r);
    for (size_t i = rows->row_start[r]; i < end; i++) {
        if (c->field_col[i] != PIER__COL_ID)
            continue;
        const pier__value *v = &rows->fields[i].value;
        pier_status rc = check_id(c, r, v, err);
        if (rc != PIER_OK)
            return rc;
        *out = (pier__idref){ v->s, v->n };
        return PIER_OK;
    }
    return check_id(c, r, NULL, err);                 /* MissingId */
}

static pier_status row_not_found(const write_ctx *c, size_t r,
                                 pier__idref id, pier_error *err)
{
    pier__buf q;
    pier__buf_init(&q);
    pier__quote_name(&q, id.p, id.n);
    pier__fail(err, PIER_E_ROW_NOT_FOUND, "board '%s' has no row with id "
               "'%s'", c->board_id, q.p != NULL ? q.p : "");
    error_row(err, c, r);
    pier__error_board(err, c->board_id);
    pier__buf_free(&q);
    return PIER_E_ROW_NOT_FOUND;
}

static pier_status id_change(const write_ctx *c, size_t r, pier__idref id,
                             const pier__value *to, pier_error *err)
{
    pier__buf from, q;
    pier__buf_init(&from);
    pier__buf_init(&q);
    pier__quote_name(&from, id.p, id.n);
    pier__quote_name(&q, to->s, to->n);
    pier__fail(err, PIER_E_INVALID_ARGUMENT, "a patch cannot change a row's "
               "id (from '%s' to '%s')", from.p != NULL ? from.p : "",
               q.p != NULL ? q.p : "");
    error_row(err, c, r);
    pier__error_board(err, c->board_id);
    pier__error_column(err, "id");
    pier__buf_free(&from);
    pier__buf_free(&q);
    return PIER_E_INVALID_ARGUMENT;
}

/* Pass 3 of an update: apply each patch in order, one record each. */
static pier_status write_patches(write_ctx *c, pier_error *err)
{
    const pier_rows *rows = c->rows;
    const pier__board *b = c->draft != NULL ? c->draft : c->board;
    pier__cell *cells = malloc(b->ncolumns * sizeof *cells);
    size_t *cols = malloc(b->ncolumns * sizeof *cols);
    pier__arena scratch;
    pier__arena_init(&scratch);
    json_keys keys;
    pier_status rc = keys_init(&keys, b, err);
    if (rc == PIER_OK && (cells == NULL || cols == NULL))
        rc = pier__oom(err);
    for (size_t r = 0; rc == PIER_OK && r < rows->nrows; r++) {
        pier__idref target;
        rc = check_row_size(c, r, err);
        if (rc == PIER_OK)
            rc = patch_target(c, r, &target, err);
        if (rc != PIER_OK)
            break;
        pier__arena_reset(&scratch);
        size_t n = 0, end = pier__rows_row_end(rows, r);
        for (size_t i = rows->row_start[r]; rc == PIER_OK && i < end; i++) {
            ptrdiff_t col = c->field_col[i];
            const pier__value *v = &rows->fields[i].value;
            if (col == PIER__COL_ID) {
                /* The row's own id may be named; another would move it. */
                rc = check_id(c, r, v, err);
                if (rc == PIER_OK && (v->n != target.n ||
                                      memcmp(v->s, target.p, target.n) != 0))
                    rc = id_change(c, r, target, v, err);
                continue;
            }
            if (col < 0 || col == PIER__COL_UPDATED_AT)
                continue;
            if (col == PIER__COL_STATE) {
                rc = check_state(c, r, v, err);
                cells[n] = v->kind == PIER_KIND_TEXT
                    ? (pier__cell){ .st = PIER__ST_TEXT, .p = v->s, .n = v->n }
                    : (pier__cell){ .st = PIER__ST_NULL };
            } else {
                rc = encode_field(c, b, r, i, &cells[n], &scratch, err);
            }
            cols[n++] = (size_t)col;
        }
        bool found = false;
        if (rc == PIER_OK)
            rc = c->w->e->lake->ops->row_update(c->w->e->lake, b, target.p,
                                                target.n, cols, cells, n,
                                                c->w->now, c->w->stamp,
                                                &found, err);
        if (rc == PIER_OK && !found)
            rc = row_not_found(c, r, target, err);
        if (rc != PIER_OK)
            break;
        pier__buf payload;
        pier__buf_init(&payload);
        pier__buf_puts(&payload, "{\"id\":");
        pier__buf_json_string(&payload, target.p, target.n);
        pier__buf_puts(&payload, ",\"patch\":{");
        for (size_t k = 0; k < n; k++) {
            if (k > 0)
                pier__buf_putc(&payload, ',');
            keys_put(&payload, &keys, cols[k]);
            pier__cell_to_json(&payload, &cells[k], b->columns[cols[k]].type);
        }
        pier__buf_puts(&payload, "}}");
        rc = pier__change_append(c->w, c->board_id, "update", &payload, err);
    }
    free(cells);
    free(cols);
    keys_free(&keys);
    pier__arena_free(&scratch);
    return rc;
}

pier_status pier__write_rows(pier__write *w, const char *board,
                             pier__write_mode mode, const pier_rows *rows,
                             const pier__idref *ids, pier_error *err)
{
    pier_engine *e = w->e;
    write_ctx c = {
        .w = w, .board_id = board, .rows = rows, .mode = mode, .ids = ids,
        .board = pier__catalog_find(&e->catalog, board),
    };
    pier_status rc = PIER_OK;
    if (c.board == NULL && (mode == PIER__MODE_UPDATE ||
                            e->opts.auto_create == PIER_AUTO_CREATE_NEVER)) {
        if (mode == PIER__MODE_UPDATE)
            rc = pier__fail(err, PIER_E_BOARD_NOT_FOUND, "no board '%s'",
                            board);
        else
            rc = pier__fail(err, PIER_E_BOARD_NOT_FOUND,
                            "no board '%s', and this engine creates boards "
                            "only explicitly (auto-create is never)", board);
        pier__error_board(err, board);
        return rc;
    }
    if (rows->nrows == 0)                   /* nothing to write */
        return PIER_OK;
    c.strict = e->opts.columns == PIER_COLUMNS_DECLARED ||
               (c.board != NULL && c.board->strict);
    rc = resolve(&c, err);
    if (rc == PIER_OK)
        rc = plan_columns(&c, err);
    if (rc == PIER_OK)
        rc = apply_schema(&c, err);
    if (rc == PIER_OK)
        rc = mode == PIER__MODE_UPDATE ? write_patches(&c, err)
                                       : write_full_rows(&c, err);
    if (rc == PIER_OK && c.draft != NULL)
        rc = pier__engine_install(e, &c.draft, err);
    pier__board_free(c.draft);
    free(c.pend);
    free(c.pend_hash);
    free(c.field_col);
    free(c.seen);
    return rc;
}

pier_status pier__write_delete(pier__write *w, const char *board,
                               const char *const *ids, size_t nids,
                               pier_error *err)
{
    if (nids > 0 && ids == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "%zu ids to delete but no array", nids);
    if (nids > PIER_MAX_BATCH_ROWS)
        return pier__fail(err, PIER_E_LIMIT_EXCEEDED,
                          "%zu ids in one write; one write takes at most %d",
                          nids, PIER_MAX_BATCH_ROWS);
    for (size_t i = 0; i < nids; i++)
        if (ids[i] == NULL || !pier__utf8_valid(ids[i], strlen(ids[i])))
            return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                              "id %zu to delete is NULL or not UTF-8", i + 1);
    pier__board *b = NULL;
    pier_status rc = pier__engine_board(w->e, board, &b, err);
    if (rc != PIER_OK || nids == 0)        /* nothing to delete: no record */
        return rc;
    int64_t deleted = 0;
    if (rc == PIER_OK)
        rc = w->e->lake->ops->rows_delete(w->e->lake, b, ids, nids, &deleted,
                                          err);
    if (rc != PIER_OK)
        return rc;
    pier__buf payload;
    pier__buf_init(&payload);
    pier__buf_puts(&payload, "{\"ids\":[");
    for (size_t i = 0; i < nids; i++) {
        if (i > 0)
            pier__buf_putc(&payload, ',');
        pier__buf_json_string(&payload, ids[i], strlen(ids[i]));
    }
    pier__buf_puts(&payload, "]}");
    return pier__change_append(w, board, "delete", &payload, err);
}

/* ---- the public write calls ---- */

static pier_status check_write_args(pier_engine *e, const char *board,
                                    const void *input, pier_error *err)
{
    pier__error_clear(err);
    if (e == NULL || input == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a write needs an engine and its input");
    return pier__board_id_check(board, err);
}

static pier_status check_batch(const pier_rows *rows, pier_error *err)
{
    if (rows->nrows > PIER_MAX_BATCH_ROWS)
        return pier__fail(err, PIER_E_LIMIT_EXCEEDED,
                          "%zu rows in one write; one write takes at most "
                          "%d", rows->nrows, PIER_MAX_BATCH_ROWS);
    return PIER_OK;
}

/* Runs one batch as a standalone write. */
static pier_status run_rows(int64_t *watermark, pier_engine *e,
                            const char *board, pier__write_mode mode,
                            const pier_rows *rows, const pier__idref *ids,
                            pier_error *err)
{
    pier__write w;
    pier_status rc;
    int attempts = 0;
    do {
        rc = pier__write_begin(&w, e, err);
        if (rc != PIER_OK)
            return rc;
        rc = pier__write_rows(&w, board, mode, rows, ids, err);
        rc = pier__write_end(&w, rc, watermark, err);
    } while (pier__write_again(&w, rc, &attempts));
    return rc;
}

pier_status pier__read_json(pier_rows *rows, pier__write_mode mode,
                            const char *json, size_t len, pier_error *err)
{
    if (mode != PIER__MODE_UPDATE)
        return pier__json_rows_read(rows, json, len, err);
    /* One patch: exactly one object. */
    size_t i = 0;
    while (i < len && (json[i] == ' ' || json[i] == '\t' || json[i] == '\n'
                       || json[i] == '\r'))
        i++;
    if (i < len && json[i] != '{') {
        pier__fail(err, PIER_E_INVALID_JSON, "a patch is one JSON object "
                   "at byte %zu", i);
        if (err != NULL)
            err->offset = (int64_t)i;
        return PIER_E_INVALID_JSON;
    }
    pier_status rc = pier__json_rows_read(rows, json, len, err);
    if (rc == PIER_OK && rows->nrows != 1) {
        size_t at = rows->nrows > 1 ? rows->row_bytes[0] + i : i;
        pier__fail(err, PIER_E_INVALID_JSON, "a patch is one JSON object "
                   "at byte %zu", at);
        if (err != NULL)
            err->offset = (int64_t)at;
        rc = PIER_E_INVALID_JSON;
    }
    return rc;
}

static pier_status run_json(int64_t *watermark, pier_engine *e,
                            const char *board, pier__write_mode mode,
                            const char *json, size_t len,
                            const pier__idref *ids, pier_error *err)
{
    pier_status rc = check_write_args(e, board, json, err);
    if (rc != PIER_OK)
        return rc;
    pier_rows rows;
    pier__rows_init(&rows);
    rc = pier__read_json(&rows, mode, json, len, err);
    if (rc == PIER_OK)
        rc = run_rows(watermark, e, board, mode, &rows, ids, err);
    pier__rows_release(&rows);
    return rc;
}

PIER_API pier_status pier_insert_json(int64_t *watermark, pier_engine *engine,
                                      const char *board, const char *json,
                                      size_t len, pier_error *err)
{
    return run_json(watermark, engine, board, PIER__MODE_INSERT, json, len,
                    NULL, err);
}

PIER_API pier_status pier_upsert_json(int64_t *watermark, pier_engine *engine,
                                      const char *board, const char *json,
                                      size_t len, pier_error *err)
{
    return run_json(watermark, engine, board, PIER__MODE_UPSERT, json, len,
                    NULL, err);
}

PIER_API pier_status pier_update_json(int64_t *watermark, pier_engine *engine,
                                      const char *board, const char *id,
                                      const char *patch, size_t len,
                                      pier_error *err)
{
    if (id == NULL)
        return pier__fail(err, PIER_E_MISSING_ID, "an update needs an id");
    pier__idref ref = { id, strlen(id) };
    return run_json(watermark, engine, board, PIER__MODE_UPDATE, patch, len,
                    &ref, err);
}

PIER_API pier_status pier_update_many_json(int64_t *watermark,
                                           pier_engine *engine,
                                           const char *board,
                                           const char *json, size_t len,
                                           pier_error *err)
{
    pier_status rc = check_write_args(engine, board, json, err);
    if (rc != PIER_OK)
        return rc;
    pier_rows rows;
    pier__rows_init(&rows);
    rc = pier__json_patches_read(&rows, json, len, err);
    if (rc == PIER_OK)
        rc = run_rows(watermark, engine, board, PIER__MODE_UPDATE, &rows,
                      NULL, err);
    pier__rows_release(&rows);
    return rc;
}

static pier_status run_builder(int64_t *watermark, pier_engine *e,
                               const char *board, pier__write_mode mode,
                               const pier_rows *rows, pier_error *err)
{
    pier_status rc = check_write_args(e, board, rows, err);
    if (rc == PIER_OK)
        rc = check_batch(rows, err);
    if (rc == PIER_OK)
        rc = run_rows(watermark, e, board, mode, rows, NULL, err);
    return rc;
}

PIER_API pier_status pier_insert_rows(int64_t *watermark, pier_engine *engine,
                                      const char *board,
                                      const pier_rows *rows, pier_error *err)
{
    return run_builder(watermark, engine, board, PIER__MODE_INSERT, rows,
                       err);
}

PIER_API pier_status pier_upsert_rows(int64_t *watermark, pier_engine *engine,
                                      const char *board,
                                      const pier_rows *rows, pier_error *err)
{
    return run_builder(watermark, engine, board, PIER__MODE_UPSERT, rows,
                       err);
}

PIER_API pier_status pier_update_rows(int64_t *watermark, pier_engine *engine,
                                      const char *board,
                                      const pier_rows *patches,
                                      pier_error *err)
{
    return run_builder(watermark, engine, board, PIER__MODE_UPDATE, patches,
                       err);
}

PIER_API pier_status pier_delete_many(int64_t *watermark, pier_engine *engine,
                                      const char *board,
                                      const char *const *ids, size_t nids,
                                      pier_error *err)
{
    pier_status rc = check_write_args(engine, board, engine, err);
    if (rc != PIER_OK)
        return rc;
    pier__write w;
    int attempts = 0;
    do {
        rc = pier__write_begin(&w, engine, err);
        if (rc != PIER_OK)
            return rc;
        rc = pier__write_delete(&w, board, ids, nids, err);
        rc = pier__write_end(&w, rc, watermark, err);
    } while (pier__write_again(&w, rc, &attempts));
    return rc;
}

PIER_API pier_status pier_delete(int64_t *watermark, pier_engine *engine,
                                 const char *board, const char *id,
                                 pier_error *err)
{
    if (id == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "no id to delete");
    const char *ids[1] = { id };
    return pier_delete_many(watermark, engine, board, ids, 1, err);
}

PIER_API pier_status pier_compact(int64_t *reclaimed, pier_engine *engine,
                                  const char *board, pier_error *err)
{
    pier_status rc = check_write_args(engine, board, engine, err);
    if (rc != PIER_OK)
        return rc;
    rc = pier__engine_begin(engine, false, err);
    if (rc != PIER_OK)
        return rc;
    pier__board *b = NULL;
    rc = pier__engine_board(engine, board, &b, err);
    rc = pier__engine_end(engine, rc, err);
    /* Upserts replace rows in place: no superseded version is kept. */
    if (rc == PIER_OK && reclaimed != NULL)
        *reclaimed = 0;
    return rc;
}
