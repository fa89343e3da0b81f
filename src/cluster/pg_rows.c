/*
 * pg_rows.c: a board's rows in a PostgreSQL lake (pg_rows.h).
 *
 * Every parameter and every scanned value travels in PostgreSQL's binary
 * format: a row's cells as they are (no escaping), an id as its bytes,
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

/* ---- a row's cells, packed ---- */

bool pier__pg_cells_pack(pier__buf *out, const pier__board *b,
                         const pier__cell *row)
{
    for (size_t k = PIER__COL_STATE; k < b->ncolumns; k++) {
        unsigned char head[12];
        put_be64(head, (uint64_t)b->columns[k].id);
        size_t at = out->len;
        pier__buf_append(out, head, 12);
        if (!pier__pg_cell_encode(out, &row[k])) {
            out->len = at;                  /* (null: nothing) */
            continue;
        }
        size_t n = out->len - at - 12;
        if (n > UINT32_MAX)
            return false;
        if (!out->oom)
            for (int i = 0; i < 4; i++)
                out->p[at + 8 + (size_t)i] =
                    (char)((n >> (8 * (3 - i))) & 0xff);
    }
    return !out->oom;
}

bool pier__pg_cells_unpack(const char *p, size_t n, const pier__board *b,
                           pier__cell *row)
{
    for (size_t k = PIER__COL_STATE; k < b->ncolumns; k++)
        row[k] = (pier__cell){ .st = PIER__ST_NULL };
    const unsigned char *u = (const unsigned char *)p;
    size_t at = 0, next = PIER__COL_STATE;
    while (at < n) {
        if (n - at < 12)
            return false;
        int64_t id = (int64_t)get_be64(u + at);
        size_t len = (size_t)u[at + 8] << 24 | (size_t)u[at + 9] << 16 |
                     (size_t)u[at + 10] << 8 | (size_t)u[at + 11];
        at += 12;
        if (len > n - at)
            return false;
        /* (packed in board order: the next column is the likely one) */
        size_t k = next, tries = 0;
        while (tries < b->ncolumns && b->columns[k].id != id) {
            k = k + 1 < b->ncolumns ? k + 1 : PIER__COL_STATE;
            tries++;
        }
        if (tries < b->ncolumns && k >= PIER__COL_STATE) {
            if (!pier__pg_cell_decode(p + at, len, &row[k]))
                return false;
            next = k + 1 < b->ncolumns ? k + 1 : PIER__COL_STATE;
        }
        at += len;
    }
    return true;
}

void pier__pg_rows_write_sql(pier__buf *sql, const char *ns, int64_t key,
                             int mode)
{
    pier__buf_printf(sql, "INSERT INTO \"%s\".r%" PRId64 " AS t (id, "
                     "updated_at, _v, cells) VALUES ($1, $2, $3, $4)", ns,
                     key);
    if (mode == PIER__WRITE_UPSERT)
        pier__buf_puts(sql, " ON CONFLICT (id) DO UPDATE SET updated_at = "
                            "excluded.updated_at, _v = excluded._v, cells = "
                            "excluded.cells WHERE excluded._v >= t._v");
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

/* The next parameter: row's cells, packed. */
static bool param_cells(params *q, const pier__board *b,
                        const pier__cell *row)
{
    if (q->n >= q->cap)
        return false;
    size_t before = q->bytes.len;
    if (!pier__pg_cells_pack(&q->bytes, b, row))
        return false;
    q->fmt[q->n] = 1;
    q->at[q->n] = before;
    q->len[q->n] = (int)(q->bytes.len - before);
    q->n++;
    return q->bytes.len - before <= INT32_MAX;
}

pier_status pier__pg_rows_write(PGconn *c, const char *ns, int64_t key,
                                const pier__board *b, int mode,
                                const pier__cell *cells, size_t nrows,
                                int64_t stamp, size_t *failed_row,
                                pier_error *err)
{
    return pier__pg_rows_write_as(c, NULL, ns, key, b, mode, cells, nrows,
                                  stamp, failed_row, err);
}

pier_status pier__pg_rows_write_as(PGconn *c, const char *prepared,
                                   const char *ns, int64_t key,
                                   const pier__board *b, int mode,
                                   const pier__cell *cells, size_t nrows,
                                   int64_t stamp, size_t *failed_row,
                                   pier_error *err)
{
    if (!valid(ns, b, err))
        return PIER_E_INVALID_ARGUMENT;
    pier__buf sql;
    pier__buf_init(&sql);
    if (prepared == NULL)
        pier__pg_rows_write_sql(&sql, ns, key, mode);
    params q;
    pier_status rc = PIER_OK;
    if (!params_init(&q, 4) || sql.oom)
        rc = pier__oom(err);
    const size_t w = b->ncolumns;
    for (size_t r = 0; rc == PIER_OK && r < nrows; r++) {
        const pier__cell *row = cells + r * w;
        params_reset(&q);
        param_bytes(&q, row[PIER__COL_ID].p, row[PIER__COL_ID].n);
        param_int(&q, row[PIER__COL_UPDATED_AT].i);
        param_int(&q, stamp);
        if (!param_cells(&q, b, row) || q.bytes.oom) {
            rc = pier__oom(err);
            break;
        }
        for (int i = 0; i < q.n; i++)
            q.val[i] = q.at[i] == SIZE_MAX ? NULL : q.bytes.p + q.at[i];
        PGresult *res = prepared != NULL
            ? PQexecPrepared(c, prepared, q.n, q.val, q.len, q.fmt, 0)
            : run_params(c, sql.p, &q, false);
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

/* Reads row `id`'s cells (locked for the transaction) into row; *found
 * false when there is none. */
static pier_status read_locked(PGconn *c, const char *ns, int64_t key,
                               const pier__board *b, const char *id,
                               size_t id_len, pier__cell *row,
                               PGresult **keep, bool *found,
                               pier_error *err)
{
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT cells FROM \"%s\".r%" PRId64 " WHERE "
             "id = $1 FOR UPDATE", ns, key);
    params q;
    if (!params_init(&q, 1)) {
        params_free(&q);
        return pier__oom(err);
    }
    param_bytes(&q, id, id_len);
    PGresult *res = run_params(c, sql, &q, true);
    params_free(&q);
    pier_status rc = PIER_OK;
    if (PQresultStatus(res) != PGRES_TUPLES_OK)
        rc = pier__pg_fail(res, c, PIER_E_WRITE_FAILED, "cannot read a row "
                           "to update", err);
    *found = rc == PIER_OK && PQntuples(res) == 1;
    if (*found && !pier__pg_cells_unpack(PQgetvalue(res, 0, 0),
                                         (size_t)PQgetlength(res, 0, 0), b,
                                         row))
        rc = pier__fail(err, PIER_E_WRITE_FAILED, "a row of board '%s' is "
                        "damaged", b->id);
    *keep = res;                 /* (the cells point into it) */
    return rc;
}

/* Stores row `id`'s cells again, with updated_at and the stamp. */
static pier_status rewrite(PGconn *c, const char *ns, int64_t key,
                           const pier__board *b, const char *id,
                           size_t id_len, const pier__cell *row,
                           const int64_t *updated_at, int64_t stamp,
                           pier_error *err)
{
    char sql[200];
    if (updated_at != NULL)
        snprintf(sql, sizeof sql, "UPDATE \"%s\".r%" PRId64 " SET cells = "
                 "$1, updated_at = $3, _v = $4 WHERE id = $2", ns, key);
    else
        snprintf(sql, sizeof sql, "UPDATE \"%s\".r%" PRId64 " SET cells = "
                 "$1 WHERE id = $2", ns, key);
    params q;
    pier_status rc = PIER_OK;
    if (!params_init(&q, 4) || !param_cells(&q, b, row)) {
        rc = pier__oom(err);
    } else {
        param_bytes(&q, id, id_len);
        if (updated_at != NULL) {
            param_int(&q, *updated_at);
            param_int(&q, stamp);
        }
        int64_t changed = 0;
        rc = run_count(c, sql, &q, "cannot update a row", &changed, err);
    }
    params_free(&q);
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
    pier__cell *row = calloc(b->ncolumns, sizeof *row);
    if (row == NULL)
        return pier__oom(err);
    PGresult *keep = NULL;
    size_t id_len = strlen(id);
    pier_status rc = read_locked(c, ns, key, b, id, id_len, row, &keep,
                                 found, err);
    if (rc == PIER_OK && *found) {
        for (size_t i = 0; i < n; i++)
            row[cols[i]] = cells[i];
        rc = rewrite(c, ns, key, b, id, id_len, row, &updated_at, stamp,
                     err);
    }
    PQclear(keep);
    free(row);
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

/* The value of a bigint column of a binary result. */
static bool int_at(PGresult *res, int r, int f, int64_t *out)
{
    if (PQgetisnull(res, r, f) || PQgetlength(res, r, f) != 8)
        return false;
    *out = (int64_t)get_be64((const unsigned char *)PQgetvalue(res, r, f));
    return true;
}

/* The scan of pier__pg_rows_scan, each row's stamp after its cells when
 * `stamped`. */
static pier_status scan(PGconn *c, const char *ns, int64_t key,
                        const pier__board *b, const char *id, bool stamped,
                        pier__row_cb cb, void *payload, pier_error *err)
{
    if (!valid(ns, b, err))
        return PIER_E_INVALID_ARGUMENT;
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT id, updated_at, _v, cells FROM "
             "\"%s\".r%" PRId64 "%s", ns, key,
             id != NULL ? " WHERE id = $1" : " ORDER BY id");
    params q;
    pier__cell *cells = calloc(b->ncolumns + 1, sizeof *cells);
    pier_status rc = PIER_OK;
    if (!params_init(&q, 1) || cells == NULL) {
        rc = pier__oom(err);
        goto done;
    }
    if (id != NULL)
        param_bytes(&q, id, strlen(id));
    PGresult *res = run_params(c, sql, &q, true);
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
        cells[PIER__COL_UPDATED_AT].st = PIER__ST_INT;
        cells[b->ncolumns].st = PIER__ST_INT;
        if (!int_at(res, r, 1, &cells[PIER__COL_UPDATED_AT].i) ||
            !int_at(res, r, 2, &cells[b->ncolumns].i) ||
            !pier__pg_cells_unpack(PQgetvalue(res, r, 3),
                                   (size_t)PQgetlength(res, r, 3), b,
                                   cells)) {
            rc = pier__fail(err, PIER_E_READ_FAILED, "a row of board '%s' "
                            "is damaged", b->id);
            break;
        }
        if (cb(cells, b->ncolumns + (stamped ? 1 : 0), payload) != 0)
            break;
    }
    PQclear(res);
done:
    params_free(&q);
    free(cells);
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
                                   const pier__board *b, size_t col,
                                   pier__type from, pier_error *err)
{
    if (!valid(ns, b, err) || col < PIER__COL_STATE || col >= b->ncolumns)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a column to re-render needs a board");
    char read[200];
    snprintf(read, sizeof read, "SELECT id, cells FROM \"%s\".r%" PRId64,
             ns, key);
    params q;
    pier__cell *row = calloc(b->ncolumns, sizeof *row);
    if (!params_init(&q, 1) || row == NULL) {
        params_free(&q);
        free(row);
        return pier__oom(err);
    }
    PGresult *res = run_params(c, read, &q, true);
    params_free(&q);
    pier_status rc = PIER_OK;
    if (PQresultStatus(res) != PGRES_TUPLES_OK)
        rc = pier__pg_fail(res, c, PIER_E_WRITE_FAILED,
                           "cannot read the column to re-render", err);
    pier__arena a;
    pier__arena_init(&a);
    for (int r = 0; rc == PIER_OK && r < PQntuples(res); r++) {
        if (!pier__pg_cells_unpack(PQgetvalue(res, r, 1),
                                   (size_t)PQgetlength(res, r, 1), b,
                                   row)) {
            rc = pier__fail(err, PIER_E_WRITE_FAILED, "a row of board '%s' "
                            "is damaged", b->id);
            break;
        }
        if (row[col].st == PIER__ST_NULL)
            continue;
        pier__cell out;
        if (pier__cell_to_text(&out, &row[col], from, &a) != PIER__FIT_OK) {
            rc = pier__fail(err, PIER_E_WRITE_FAILED, "a stored value does "
                            "not match its column's type");
            break;
        }
        row[col] = out;
        rc = rewrite(c, ns, key, b, PQgetvalue(res, r, 0),
                     (size_t)PQgetlength(res, r, 0), row, NULL, 0, err);
        pier__arena_reset(&a);
    }
    pier__arena_free(&a);
    PQclear(res);
    free(row);
    return rc;
}
