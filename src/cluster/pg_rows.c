/*
 * pg_rows.c: a board's rows in a PostgreSQL lake (pg_rows.h).
 *
 * Every parameter and every scanned value travels in PostgreSQL's binary
 * format: a cell's bytes as they are (no escaping), an id as its bytes,
 * integers as 8 bytes in network order.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/pg_rows.h"

/* ---- cells ---- */

static void put_be64(unsigned char out[8], uint64_t v)
{
    for (int i = 7; i >= 0; i--) {
        out[i] = (unsigned char)(v & 0xff);
        v >>= 8;
    }
}

static uint64_t get_be64(const unsigned char in[8])
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | in[i];
    return v;
}

bool pier__pg_cell_encode(pier__buf *out, const pier__cell *c)
{
    unsigned char n[8];
    switch (c->st) {
    case PIER__ST_INT:
        pier__buf_putc(out, 'i');
        put_be64(n, (uint64_t)c->i);
        pier__buf_append(out, n, 8);
        return true;
    case PIER__ST_REAL: {
        uint64_t bits;
        memcpy(&bits, &c->d, 8);
        pier__buf_putc(out, 'r');
        put_be64(n, bits);
        pier__buf_append(out, n, 8);
        return true;
    }
    case PIER__ST_TEXT:
    case PIER__ST_BLOB:
        pier__buf_putc(out, c->st == PIER__ST_TEXT ? 't' : 'b');
        pier__buf_append(out, c->p, c->n);
        return true;
    default:
        return false;
    }
}

bool pier__pg_cell_decode(const char *p, size_t n, pier__cell *out)
{
    *out = (pier__cell){ .st = PIER__ST_NULL };
    if (n == 0)
        return false;
    const unsigned char *u = (const unsigned char *)p;
    switch (p[0]) {
    case 'i':
        if (n != 9)
            return false;
        out->st = PIER__ST_INT;
        out->i = (int64_t)get_be64(u + 1);
        return true;
    case 'r': {
        if (n != 9)
            return false;
        uint64_t bits = get_be64(u + 1);
        out->st = PIER__ST_REAL;
        memcpy(&out->d, &bits, 8);
        return true;
    }
    case 't':
    case 'b':
        out->st = p[0] == 't' ? PIER__ST_TEXT : PIER__ST_BLOB;
        out->p = p + 1;
        out->n = n - 1;
        return true;
    default:
        return false;
    }
}

/* ---- statements ---- */

/* The binary parameters of one statement: values, lengths, formats (all
 * binary), their bytes kept in `bytes` (offsets until it stops growing). */
typedef struct params {
    pier__buf bytes;
    size_t *at;                /* each value's offset in bytes, or SIZE_MAX
                                  for NULL */
    int *len;
    int *fmt;
    const char **val;
    int n, cap;
} params;

static bool params_init(params *q, int cap)
{
    pier__buf_init(&q->bytes);
    q->n = 0;
    q->cap = cap;
    q->at = calloc((size_t)cap, sizeof *q->at);
    q->len = calloc((size_t)cap, sizeof *q->len);
    q->fmt = calloc((size_t)cap, sizeof *q->fmt);
    q->val = calloc((size_t)cap, sizeof *q->val);
    return q->at != NULL && q->len != NULL && q->fmt != NULL &&
           q->val != NULL;
}

static void params_free(params *q)
{
    pier__buf_free(&q->bytes);
    free(q->at);
    free(q->len);
    free(q->fmt);
    free(q->val);
}

static void params_reset(params *q)
{
    q->bytes.len = 0;
    q->n = 0;
}

/* The next parameter: n bytes (p NULL: SQL NULL). */
static void param_bytes(params *q, const void *p, size_t n)
{
    if (q->n >= q->cap)
        return;
    q->fmt[q->n] = 1;
    q->at[q->n] = p == NULL ? SIZE_MAX : q->bytes.len;
    q->len[q->n] = (int)n;
    if (p != NULL)
        pier__buf_append(&q->bytes, p, n);
    q->n++;
}

static void param_int(params *q, int64_t v)
{
    unsigned char n[8];
    put_be64(n, (uint64_t)v);
    param_bytes(q, n, 8);
}

/* The next parameter: a cell's bytes, written where they go. */
static void param_cell(params *q, const pier__cell *c)
{
    if (q->n >= q->cap)
        return;
    size_t before = q->bytes.len;
    bool present = pier__pg_cell_encode(&q->bytes, c);
    q->fmt[q->n] = 1;
    q->at[q->n] = present ? before : SIZE_MAX;
    q->len[q->n] = (int)(q->bytes.len - before);
    q->n++;
}

/* Runs sql with q's parameters; results in binary when `binary`. */
static PGresult *run_params(PGconn *c, const char *sql, params *q,
                            bool binary)
{
    for (int i = 0; i < q->n; i++)
        q->val[i] = q->at[i] == SIZE_MAX ? NULL : q->bytes.p + q->at[i];
    return PQexecParams(c, sql, q->n, NULL, q->val, q->len, q->fmt,
                        binary ? 1 : 0);
}

static bool is_state(PGresult *r, const char *state)
{
    const char *s = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    return s != NULL && strcmp(s, state) == 0;
}

/* Runs a statement of no rows with q's parameters; *count: the rows it
 * changed. */
static pier_status run_count(PGconn *c, const char *sql, params *q,
                             const char *what, int64_t *count,
                             pier_error *err)
{
    if (q->bytes.oom)
        return pier__oom(err);
    PGresult *res = run_params(c, sql, q, false);
    pier_status rc = PIER_OK;
    if (PQresultStatus(res) != PGRES_COMMAND_OK)
        rc = pier__pg_fail(res, c, PIER_E_WRITE_FAILED, what, err);
    else
        *count = strtoll(PQcmdTuples(res), NULL, 10);
    PQclear(res);
    return rc;
}

/* The statement writing a row: INSERT, or an upsert whose update happens
 * only for a stamp at least the stored one's. */
static void write_sql(pier__buf *sql, const char *ns, int64_t key,
                      const pier__board *b, int mode)
{
    pier__buf_printf(sql, "INSERT INTO \"%s\".r%" PRId64 " AS t (id, "
                     "updated_at, _v", ns, key);
    for (size_t i = PIER__COL_STATE; i < b->ncolumns; i++)
        pier__buf_printf(sql, ", c%" PRId64, b->columns[i].id);
    pier__buf_puts(sql, ") VALUES ($1, $2, $3");
    for (size_t i = PIER__COL_STATE; i < b->ncolumns; i++)
        pier__buf_printf(sql, ", $%zu", i + 2);
    pier__buf_putc(sql, ')');
    if (mode != PIER__WRITE_UPSERT)
        return;
    pier__buf_puts(sql, " ON CONFLICT (id) DO UPDATE SET updated_at = "
                        "excluded.updated_at, _v = excluded._v");
    for (size_t i = PIER__COL_STATE; i < b->ncolumns; i++)
        pier__buf_printf(sql, ", c%" PRId64 " = excluded.c%" PRId64,
                         b->columns[i].id, b->columns[i].id);
    pier__buf_puts(sql, " WHERE excluded._v >= t._v");
}

static bool valid(const char *ns, const pier__board *b, pier_error *err)
{
    if (pier__pg_namespace_valid(ns) && b != NULL &&
        b->ncolumns >= PIER__BASE_COLUMNS)
        return true;
    pier__fail(err, PIER_E_INVALID_ARGUMENT,
               "rows need a lake and a board");
    return false;
}

pier_status pier__pg_rows_write(PGconn *c, const char *ns, int64_t key,
                                const pier__board *b, int mode,
                                const pier__cell *cells, size_t nrows,
                                int64_t stamp, size_t *failed_row,
                                pier_error *err)
{
    if (!valid(ns, b, err))
        return PIER_E_INVALID_ARGUMENT;
    pier__buf sql;
    pier__buf_init(&sql);
    write_sql(&sql, ns, key, b, mode);
    params q;
    pier_status rc = PIER_OK;
    if (!params_init(&q, (int)b->ncolumns + 1) || sql.oom)
        rc = pier__oom(err);
    const size_t w = b->ncolumns;
    for (size_t r = 0; rc == PIER_OK && r < nrows; r++) {
        const pier__cell *row = cells + r * w;
        params_reset(&q);
        param_bytes(&q, row[PIER__COL_ID].p, row[PIER__COL_ID].n);
        param_int(&q, row[PIER__COL_UPDATED_AT].i);
        param_int(&q, stamp);
        for (size_t k = PIER__COL_STATE; k < w; k++)
            param_cell(&q, &row[k]);
        if (q.bytes.oom) {
            rc = pier__oom(err);
            break;
        }
        PGresult *res = run_params(c, sql.p, &q, false);
        if (PQresultStatus(res) != PGRES_COMMAND_OK) {
            *failed_row = r;
            rc = is_state(res, "23505")
                     ? pier__fail(err, PIER_E_DUPLICATE_ID, "duplicate id")
                     : pier__pg_fail(res, c, PIER_E_WRITE_FAILED,
                                 "cannot write a row", err);
        }
        PQclear(res);
    }
    params_free(&q);
    pier__buf_free(&sql);
    return rc;
}

pier_status pier__pg_row_update(PGconn *c, const char *ns, int64_t key,
                                const pier__board *b, const char *id,
                                const size_t *cols, const pier__cell *cells,
                                size_t n, int64_t updated_at, int64_t stamp,
                                bool *found, pier_error *err)
{
    *found = false;
    if (!valid(ns, b, err) || id == NULL)
        return PIER_E_INVALID_ARGUMENT;
    for (size_t i = 0; i < n; i++)
        if (cols[i] < PIER__COL_STATE || cols[i] >= b->ncolumns)
            return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                              "an update sets a column of the board");
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_printf(&sql, "UPDATE \"%s\".r%" PRId64 " SET ", ns, key);
    for (size_t i = 0; i < n; i++)
        pier__buf_printf(&sql, "c%" PRId64 " = $%zu, ",
                         b->columns[cols[i]].id, i + 1);
    pier__buf_printf(&sql, "updated_at = $%zu, _v = $%zu WHERE id = $%zu",
                     n + 1, n + 2, n + 3);
    params q;
    pier_status rc = PIER_OK;
    if (!params_init(&q, (int)n + 3) || sql.oom) {
        rc = pier__oom(err);
    } else {
        for (size_t i = 0; i < n; i++)
            param_cell(&q, &cells[i]);
        param_int(&q, updated_at);
        param_int(&q, stamp);
        param_bytes(&q, id, strlen(id));
        int64_t changed = 0;
        rc = run_count(c, sql.p, &q, "cannot update a row", &changed, err);
        *found = changed > 0;
    }
    params_free(&q);
    pier__buf_free(&sql);
    return rc;
}

pier_status pier__pg_rows_delete(PGconn *c, const char *ns, int64_t key,
                                 const char *const *ids, size_t nids,
                                 int64_t *deleted, pier_error *err)
{
    *deleted = 0;
    if (!pier__pg_namespace_valid(ns))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "rows need a lake and a board");
    char sql[160];
    snprintf(sql, sizeof sql, "DELETE FROM \"%s\".r%" PRId64 " WHERE id = "
             "$1", ns, key);
    params q;
    pier_status rc = params_init(&q, 1) ? PIER_OK : pier__oom(err);
    for (size_t i = 0; rc == PIER_OK && i < nids; i++) {
        params_reset(&q);
        param_bytes(&q, ids[i], strlen(ids[i]));
        int64_t gone = 0;
        rc = run_count(c, sql, &q, "cannot delete a row", &gone, err);
        *deleted += gone;
    }
    params_free(&q);
    return rc;
}

/* The scan of pier__pg_rows_scan, each row's stamp after its cells when
 * `stamped`. */
static pier_status scan(PGconn *c, const char *ns, int64_t key,
                        const pier__board *b, const char *id, bool stamped,
                        pier__row_cb cb, void *payload, pier_error *err)
{
    if (!valid(ns, b, err))
        return PIER_E_INVALID_ARGUMENT;
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_puts(&sql, "SELECT id, updated_at");
    for (size_t i = PIER__COL_STATE; i < b->ncolumns; i++)
        pier__buf_printf(&sql, ", c%" PRId64, b->columns[i].id);
    pier__buf_printf(&sql, ", _v FROM \"%s\".r%" PRId64 "%s", ns, key,
                     id != NULL ? " WHERE id = $1" : " ORDER BY id");
    params q;
    pier__cell *cells = calloc(b->ncolumns + 1, sizeof *cells);
    pier_status rc = PIER_OK;
    if (!params_init(&q, 1) || cells == NULL || sql.oom) {
        rc = pier__oom(err);
        goto done;
    }
    if (id != NULL)
        param_bytes(&q, id, strlen(id));
    PGresult *res = run_params(c, sql.p, &q, true);
    if (PQresultStatus(res) != PGRES_TUPLES_OK) {
        rc = pier__pg_fail(res, c, PIER_E_READ_FAILED, "cannot read a board",
                       err);
        PQclear(res);
        goto done;
    }
    for (int r = 0; rc == PIER_OK && r < PQntuples(res); r++) {
        cells[PIER__COL_ID] = (pier__cell){ .st = PIER__ST_TEXT,
                                            .p = PQgetvalue(res, r, 0),
                                            .n = (size_t)PQgetlength(res, r,
                                                                     0) };
        if (PQgetlength(res, r, 1) != 8) {
            rc = pier__fail(err, PIER_E_READ_FAILED, "a row of board '%s' "
                            "has no updated_at", b->id);
            break;
        }
        cells[PIER__COL_UPDATED_AT] = (pier__cell){
            .st = PIER__ST_INT,
            .i = (int64_t)get_be64(
                (const unsigned char *)PQgetvalue(res, r, 1)),
        };
        for (size_t k = PIER__COL_STATE; rc == PIER_OK && k < b->ncolumns;
             k++) {
            int f = (int)k - PIER__COL_STATE + 2;
            if (PQgetisnull(res, r, f))
                cells[k] = (pier__cell){ .st = PIER__ST_NULL };
            else if (!pier__pg_cell_decode(PQgetvalue(res, r, f),
                                           (size_t)PQgetlength(res, r, f),
                                           &cells[k]))
                rc = pier__fail(err, PIER_E_READ_FAILED, "a cell of board "
                                "'%s' is damaged", b->id);
        }
        int v = (int)b->ncolumns - PIER__COL_STATE + 2;
        if (PQgetlength(res, r, v) != 8) {
            rc = pier__fail(err, PIER_E_READ_FAILED, "a row of board '%s' "
                            "has no stamp", b->id);
            break;
        }
        cells[b->ncolumns] = (pier__cell){
            .st = PIER__ST_INT,
            .i = (int64_t)get_be64(
                (const unsigned char *)PQgetvalue(res, r, v)),
        };
        if (rc == PIER_OK &&
            cb(cells, b->ncolumns + (stamped ? 1 : 0), payload) != 0)
            break;
    }
    PQclear(res);
done:
    params_free(&q);
    free(cells);
    pier__buf_free(&sql);
    return rc;
}

pier_status pier__pg_rows_scan(PGconn *c, const char *ns, int64_t key,
                               const pier__board *b, const char *id,
                               pier__row_cb cb, void *payload,
                               pier_error *err)
{
    return scan(c, ns, key, b, id, false, cb, payload, err);
}

pier_status pier__pg_rows_scan_stamped(PGconn *c, const char *ns,
                                       int64_t key, const pier__board *b,
                                       pier__row_cb cb, void *payload,
                                       pier_error *err)
{
    return scan(c, ns, key, b, NULL, true, cb, payload, err);
}

pier_status pier__pg_rows_count(PGconn *c, const char *ns, int64_t key,
                                int64_t *out, pier_error *err)
{
    *out = 0;
    if (!pier__pg_namespace_valid(ns))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "rows need a lake and a board");
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM \"%s\".r%" PRId64, ns,
             key);
    PGresult *res = PQexec(c, sql);
    pier_status rc = PIER_OK;
    if (PQresultStatus(res) != PGRES_TUPLES_OK)
        rc = pier__pg_fail(res, c, PIER_E_READ_FAILED, "cannot count a board",
                       err);
    else
        *out = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
    PQclear(res);
    return rc;
}

pier_status pier__pg_cells_to_text(PGconn *c, const char *ns, int64_t key,
                                   int64_t column_id, pier__type from,
                                   pier_error *err)
{
    if (!pier__pg_namespace_valid(ns))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "rows need a lake and a board");
    char read[200], write[200];
    snprintf(read, sizeof read, "SELECT id, c%" PRId64 " FROM \"%s\".r%"
             PRId64 " WHERE c%" PRId64 " IS NOT NULL", column_id, ns, key,
             column_id);
    snprintf(write, sizeof write, "UPDATE \"%s\".r%" PRId64 " SET c%"
             PRId64 " = $1 WHERE id = $2", ns, key, column_id);
    params q;
    if (!params_init(&q, 2)) {
        params_free(&q);
        return pier__oom(err);
    }
    PGresult *res = run_params(c, read, &q, true);
    pier_status rc = PIER_OK;
    if (PQresultStatus(res) != PGRES_TUPLES_OK)
        rc = pier__pg_fail(res, c, PIER_E_WRITE_FAILED,
                           "cannot read the column to re-render", err);
    pier__arena a;
    pier__arena_init(&a);
    for (int r = 0; rc == PIER_OK && r < PQntuples(res); r++) {
        pier__cell in, out;
        if (!pier__pg_cell_decode(PQgetvalue(res, r, 1),
                                  (size_t)PQgetlength(res, r, 1), &in) ||
            pier__cell_to_text(&out, &in, from, &a) != PIER__FIT_OK) {
            rc = pier__fail(err, PIER_E_WRITE_FAILED, "a stored value does "
                            "not match its column's type");
            break;
        }
        params_reset(&q);
        param_cell(&q, &out);
        param_bytes(&q, PQgetvalue(res, r, 0),
                    (size_t)PQgetlength(res, r, 0));
        int64_t changed = 0;
        rc = run_count(c, write, &q, "cannot re-render a cell", &changed,
                       err);
        pier__arena_reset(&a);
    }
    pier__arena_free(&a);
    PQclear(res);
    params_free(&q);
    return rc;
}
