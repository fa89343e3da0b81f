/*
 * rows.c: the batch both write paths fill (struct pier_rows), and the
 * public pier_rows_* builder over it.
 *
 * Invariants:
 * - fields[0..nfields) and row_start/row_bytes[0..nrows) are live; the
 *   arrays have room for fields_cap and rows_cap entries (row_start and
 *   row_bytes always grow together, so one capacity covers both).
 * - Every name and string a field points at lives in `arena`, so clearing
 *   or releasing the batch frees them all at once.
 * - A call that fails (out of memory, bad argument) leaves the batch as it
 *   was: arrays are grown before anything is appended, and a field is only
 *   counted once its copies exist. Bytes already copied into the arena by a
 *   call that then fails are merely unreachable until the next clear.
 * - row_bytes[r] is the row's size for the PIER_MAX_ROW_BYTES check in the
 *   insert path: pushes add the bytes of the name and the value, and the
 *   JSON reader overwrites it with the length of the row's object text.
 *
 * Setters do not check column names: the insert path checks them, for
 * both write paths alike.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rows.h"

/* First capacities: most batches are a handful of rows of a few dozen
 * fields, so these avoid several early reallocations at a cost of 1 KiB. */
#define FIELDS_MIN 32
#define ROWS_MIN 8

void pier__rows_init(pier_rows *rows)
{
    pier__arena_init(&rows->arena);
    rows->fields = NULL;
    rows->nfields = 0;
    rows->fields_cap = 0;
    rows->row_start = NULL;
    rows->row_bytes = NULL;
    rows->nrows = 0;
    rows->rows_cap = 0;
}

void pier__rows_release(pier_rows *rows)
{
    pier__arena_free(&rows->arena);
    free(rows->fields);
    free(rows->row_start);
    free(rows->row_bytes);
    pier__rows_init(rows);
}

/* The new capacity for an array that must hold `need` entries of `size`
 * bytes: doubled, so that n appends cost O(n); 0 if it would overflow. */
static size_t grown_cap(size_t cap, size_t need, size_t min, size_t size)
{
    size_t n = cap < min ? min : cap;
    while (n < need) {
        if (n > SIZE_MAX / 2)
            return 0;
        n *= 2;
    }
    return n > SIZE_MAX / size ? 0 : n;
}

static pier_status reserve_rows(pier_rows *rows, pier_error *err)
{
    if (rows->nrows < rows->rows_cap)
        return PIER_OK;
    size_t cap = grown_cap(rows->rows_cap, rows->nrows + 1, ROWS_MIN,
                           sizeof(size_t));
    if (cap == 0)
        return pier__oom(err);
    size_t *start = realloc(rows->row_start, cap * sizeof *start);
    if (start == NULL)
        return pier__oom(err);
    rows->row_start = start;
    /* If this second one fails, row_start is merely larger than rows_cap
     * says; the next attempt reallocates it again, harmlessly. */
    size_t *bytes = realloc(rows->row_bytes, cap * sizeof *bytes);
    if (bytes == NULL)
        return pier__oom(err);
    rows->row_bytes = bytes;
    rows->rows_cap = cap;
    return PIER_OK;
}

static pier_status reserve_field(pier_rows *rows, pier_error *err)
{
    if (rows->nfields < rows->fields_cap)
        return PIER_OK;
    size_t cap = grown_cap(rows->fields_cap, rows->nfields + 1, FIELDS_MIN,
                           sizeof(pier__field));
    if (cap == 0)
        return pier__oom(err);
    pier__field *f = realloc(rows->fields, cap * sizeof *f);
    if (f == NULL)
        return pier__oom(err);
    rows->fields = f;
    rows->fields_cap = cap;
    return PIER_OK;
}

pier_status pier__rows_begin(pier_rows *rows, pier_error *err)
{
    /* Refused here rather than at insert time so that neither path builds
     * a batch that could never be written. */
    if (rows->nrows >= PIER_MAX_BATCH_ROWS)
        return pier__fail(err, PIER_E_LIMIT_EXCEEDED,
                          "more than %d rows; one write takes at most %d",
                          PIER_MAX_BATCH_ROWS, PIER_MAX_BATCH_ROWS);
    pier_status rc = reserve_rows(rows, err);
    if (rc != PIER_OK)
        return rc;
    rows->row_start[rows->nrows] = rows->nfields;
    rows->row_bytes[rows->nrows] = 0;
    rows->nrows++;
    return PIER_OK;
}

/* The bytes a value adds to its row's size: its text, or the width of its
 * fixed-size encoding. */
static size_t value_bytes(const pier__value *v)
{
    switch (v->kind) {
    case PIER_KIND_NULL:
        return 0;
    case PIER_KIND_HUGEINT:
        return 16;
    case PIER_KIND_TEXT:
    case PIER_KIND_JSON:
        return v->n;
    default:
        return 8;
    }
}

static bool has_string(const pier__value *v)
{
    return v->kind == PIER_KIND_TEXT || v->kind == PIER_KIND_JSON;
}

pier_status pier__rows_push_owned(pier_rows *rows, const char *name,
                                  size_t name_len, const pier__value *v,
                                  pier_error *err)
{
    if (rows->nrows == 0)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_rows_add must start a row first");
    pier_status rc = reserve_field(rows, err);
    if (rc != PIER_OK)
        return rc;
    pier__field *f = &rows->fields[rows->nfields++];
    f->name = name;
    f->name_len = name_len;
    f->value = *v;
    rows->row_bytes[rows->nrows - 1] += name_len + value_bytes(v);
    return PIER_OK;
}

pier_status pier__rows_push(pier_rows *rows, const char *name,
                            size_t name_len, const pier__value *v,
                            pier_error *err)
{
    if (rows->nrows == 0)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_rows_add must start a row first");
    /* Grow first, so that a failure after the copies cannot happen. */
    pier_status rc = reserve_field(rows, err);
    if (rc != PIER_OK)
        return rc;
    pier__value copy = *v;
    char *n = pier__arena_strndup(&rows->arena, name, name_len);
    if (n == NULL)
        return pier__oom(err);
    if (has_string(v)) {
        char *s = pier__arena_strndup(&rows->arena, v->s, v->n);
        if (s == NULL)
            return pier__oom(err);
        copy.s = s;
    }
    if (v->kind == PIER_KIND_JSON && v->u.doc.p != NULL) {
        char *doc = pier__arena_strndup(&rows->arena, v->u.doc.p,
                                        v->u.doc.n);
        if (doc == NULL)
            return pier__oom(err);
        copy.u.doc.p = doc;
    }
    return pier__rows_push_owned(rows, n, name_len, &copy, err);
}

/* ---- the public builder ---- */

PIER_API pier_rows *pier_rows_new(void)
{
    pier_rows *rows = malloc(sizeof *rows);
    if (rows != NULL)
        pier__rows_init(rows);
    return rows;
}

PIER_API void pier_rows_free(pier_rows *rows)
{
    if (rows == NULL)
        return;
    pier__rows_release(rows);
    free(rows);
}

PIER_API void pier_rows_clear(pier_rows *rows)
{
    if (rows == NULL)
        return;
    /* Keeps the arrays and one arena block: a batch is typically refilled
     * with rows of the same shape. */
    pier__arena_reset(&rows->arena);
    rows->nfields = 0;
    rows->nrows = 0;
}

PIER_API size_t pier_rows_count(const pier_rows *rows)
{
    return rows == NULL ? 0 : rows->nrows;
}

PIER_API pier_status pier_rows_add(pier_rows *rows, pier_error *err)
{
    if (rows == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "rows is NULL");
    return pier__rows_begin(rows, err);
}

/* The checks every setter shares. */
static pier_status check_set(pier_rows *rows, const char *column,
                             pier_error *err)
{
    if (rows == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "rows is NULL");
    if (column == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "column is NULL");
    if (rows->nrows == 0)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_rows_add must start a row first");
    return PIER_OK;
}

static pier_status set_value(pier_rows *rows, const char *column,
                             const pier__value *v, pier_error *err)
{
    pier_status rc = check_set(rows, column, err);
    if (rc != PIER_OK)
        return rc;
    return pier__rows_push(rows, column, strlen(column), v, err);
}

PIER_API pier_status pier_rows_set_null(pier_rows *rows, const char *column,
                                        pier_error *err)
{
    pier__value v = { .kind = PIER_KIND_NULL };
    return set_value(rows, column, &v, err);
}

PIER_API pier_status pier_rows_set_bool(pier_rows *rows, const char *column,
                                        bool value, pier_error *err)
{
    pier__value v = { .kind = PIER_KIND_BOOLEAN, .u.b = value };
    return set_value(rows, column, &v, err);
}

PIER_API pier_status pier_rows_set_int64(pier_rows *rows, const char *column,
                                         int64_t value, pier_error *err)
{
    pier__value v = { .kind = PIER_KIND_BIGINT, .u.i = value };
    return set_value(rows, column, &v, err);
}

PIER_API pier_status pier_rows_set_hugeint(pier_rows *rows,
                                           const char *column,
                                           pier_hugeint value,
                                           pier_error *err)
{
    pier__value v = { .kind = PIER_KIND_HUGEINT,
                      .u.h = pier__i128_from_public(value) };
    return set_value(rows, column, &v, err);
}

PIER_API pier_status pier_rows_set_double(pier_rows *rows, const char *column,
                                          double value, pier_error *err)
{
    pier_status rc = check_set(rows, column, err);
    if (rc != PIER_OK)
        return rc;
    /* No column type and no JSON text can hold NaN or an infinity. */
    if (!isfinite(value))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "column '%s': a double must be finite", column);
    pier__value v = { .kind = PIER_KIND_DOUBLE, .u.d = value };
    return set_value(rows, column, &v, err);
}

PIER_API pier_status pier_rows_set_text(pier_rows *rows, const char *column,
                                        const char *text, pier_error *err)
{
    pier_status rc = check_set(rows, column, err);
    if (rc != PIER_OK)
        return rc;
    if (text == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "column '%s': text is NULL (use pier_rows_set_null)",
                          column);
    size_t n = strlen(text);
    if (!pier__utf8_valid(text, n))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "column '%s': text is not valid UTF-8", column);
    pier__value v = { .kind = PIER_KIND_TEXT, .s = text, .n = n };
    return set_value(rows, column, &v, err);
}

PIER_API pier_status pier_rows_set_timestamp(pier_rows *rows,
                                             const char *column,
                                             int64_t micros,
                                             pier_error *err)
{
    pier__value v = { .kind = PIER_KIND_TIMESTAMP, .u.i = micros };
    return set_value(rows, column, &v, err);
}

PIER_API pier_status pier_rows_set_json(pier_rows *rows, const char *column,
                                        const char *json, pier_error *err)
{
    pier_status rc = check_set(rows, column, err);
    if (rc != PIER_OK)
        return rc;
    if (json == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "column '%s': json is NULL (use pier_rows_set_null)",
                          column);
    pier__buf canon;
    pier__buf_init(&canon);
    rc = pier__json_canonical(&canon, json, strlen(json), err);
    if (rc == PIER_OK && canon.oom)
        rc = pier__oom(err);
    if (rc == PIER_OK) {
        /* The text as given too: an array column takes its numbers by
         * their digits, which the canonical form rounds to doubles. */
        pier__value v = { .kind = PIER_KIND_JSON, .s = canon.p,
                          .n = canon.len,
                          .u.doc = { json, strlen(json) } };
        rc = set_value(rows, column, &v, err);
    } else if (rc == PIER_E_INVALID_JSON) {
        pier__error_column(err, column);
    }
    pier__buf_free(&canon);
    return rc;
}
