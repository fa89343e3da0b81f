/*
 * fuzz_query.c: board-scoped query templates and their parameters
 * (pier_query, pier_params_set_json, pier_params_set_json_value) on a lake
 * in /dev/shm with tight limits (200 ms, 1 MiB values, 64 MiB memory).
 *
 * The lake: board "pub", which the query may read (columns of every kind
 * JSON decides and of the dialect's types), with a full-text index over
 * "t" ({{fts}}), board "pub2", which it may read when the input asks for
 * it, the declared table "pub_t" and view "pub_v", which it may read as
 * {{table:NAME}} when the input asks for them, and a planted secret it
 * must never read: in board "secret" (a value, and a column's name) and
 * its full-text index (and the tables FTS5 keeps it in), in the declared
 * table "secret_t" (a value) and the view "secret_v" over it, in the
 * change log and the catalog.
 *
 * Input: byte 0 says whether "pub2" is in the query's `with` (bit 0), how
 * the result is written (bits 1-2: rows one by one, JSON, JSON lines,
 * CSV) and whether "pub_t" and "pub_v" are in its `tables` (bit 3); then
 * the template, and after a NUL byte the parameters: a JSON
 * object or array (pier_params_set_json), or NAME=JSON
 * (pier_params_set_json_value) when it starts with ':', '$', '@' or '?'.
 *
 * Invariants:
 * - every status is one pier_query documents; the lake is untouched (head
 *   and every board's rows);
 * - the secret appears in no value of any row (every column, as text and
 *   as the hex of blobs), in no column name, no error message and no
 *   written output; an input that itself holds a piece of the secret is
 *   not judged;
 * - a result written as JSON or JSON lines (pier_cursor_write) is valid
 *   JSON (a document, or one per line); every row's pier_row_to_json too.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/fuzz_rows.h"
#include "support/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Random enough that no input holds it by chance. */
#define SECRET "Qz7vKx9W3xJp2Lm"

static pier_engine *engine;
static int64_t base_head;

static void make_lake(void)
{
    pier_open_options o = fz_open_options();
    o.limits.time_ms = 200;
    o.limits.value_bytes = 1024 * 1024;
    o.limits.memory_bytes = 64 * 1024 * 1024;
    pier_error err;
    FZ_OK(pier_open(&engine, fz_dir("query"), &o, &err), &err);
    static const pier_column_def cols[] = {
        { "d", "decimal(12,2)" }, { "u", "uuid" },
        { "e", "enum('a','b')" }, { "at", "timestamp" },
        { "tags", "text[]" }, { "big", "uint64" }, { "iv", "interval" },
        { "dt", "date" }, { "tm", "time" }, { "dtm", "datetime" },
        { "f", "float" }, { "v", "varchar(8)" }, { "nums", "integer[]" },
    };
    pier_board_options bo = PIER_BOARD_OPTIONS_INIT;
    bo.columns = cols;
    bo.ncolumns = sizeof cols / sizeof *cols;
    FZ_OK(pier_board_create(NULL, engine, "pub", &bo, &err), &err);
    static const char pub[] =
        "[{\"id\":\"a\",\"state\":\"open\",\"n\":1,\"x\":2.5,\"t\":\"text\","
        "\"b\":true,\"j\":{\"k\":[1,\"x\"]},"
        "\"h\":170141183460469231731687303715884105727,"
        "\"d\":\"12.5\",\"u\":\"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11\","
        "\"e\":\"b\",\"at\":\"2026-03-01T10:00:00+02:00\","
        "\"tags\":[\"p\",null],\"big\":\"18446744073709551615\","
        "\"iv\":\"P1Y2DT3.5S\",\"dt\":\"2024-02-29\",\"tm\":\"10:00:00.5\","
        "\"dtm\":\"2026-03-01 10:00:00\",\"f\":0.1,\"v\":\"short\","
        "\"nums\":[1,2,3]},"
        "{\"id\":\"b\",\"state\":\"done\",\"n\":-2,\"x\":-0.5,\"t\":\"two\","
        "\"b\":false,\"j\":[],\"h\":-5,\"d\":\"-0.01\",\"e\":\"a\"},"
        "{\"id\":\"c\",\"n\":3,\"t\":\"\\u00e9\\n\\\"q\\\"\"}]";
    FZ_OK(pier_insert_json(NULL, engine, "pub", pub, sizeof pub - 1, &err),
          &err);
    static const char pub2[] =
        "[{\"id\":\"a\",\"w\":10},{\"id\":\"z\",\"w\":20}]";
    FZ_OK(pier_insert_json(NULL, engine, "pub2", pub2, sizeof pub2 - 1,
                           &err), &err);
    static const char secret[] =
        "[{\"id\":\"a\",\"n\":1,\"t\":\"" SECRET "\","
        "\"zz" SECRET "\":\"x\",\"j\":{\"s\":\"" SECRET "\"}}]";
    FZ_OK(pier_insert_json(NULL, engine, "secret", secret, sizeof secret - 1,
                           &err), &err);
    FZ_OK(pier_exec(NULL, engine,
                    "CREATE TABLE secret_t (id INT64 PRIMARY KEY, s TEXT);"
                    "INSERT INTO secret_t VALUES (1, '" SECRET "');"
                    "CREATE VIEW secret_v AS SELECT s FROM secret_t;"
                    "CREATE TABLE pub_t (id INT64 PRIMARY KEY, w TEXT);"
                    "INSERT INTO pub_t VALUES (1, 'a'), (2, 'text');"
                    "CREATE VIEW pub_v AS SELECT id, w FROM pub_t;",
                    NULL, &err), &err);
    const char *t = "t";
    FZ_OK(pier_fts_enable(engine, "pub", &t, 1, &err), &err);
    FZ_OK(pier_fts_enable(engine, "secret", &t, 1, &err), &err);
    base_head = fz_head(engine);
}

/* ---- looking for the secret ---- */

/* The secret, and its hex in both cases (how blobs and hex() show it). */
static const char *const needles[] = {
    SECRET, "517A37764B78395733784A70324C6D", "517a37764b78395733784a70324c6d",
};

/* Whether the input holds a piece of the secret (4 bytes of it, or of
 * its hex), with which it could spell the secret itself. */
static bool input_knows(const uint8_t *data, size_t size)
{
    for (size_t k = 0; k < sizeof needles / sizeof *needles; k++) {
        size_t m = strlen(needles[k]);
        for (size_t i = 0; i + 4 <= m; i++)
            if (fz_contains((const char *)data, size, needles[k] + i, 4))
                return true;
    }
    return false;
}

static bool judged;

static void no_secret(const char *s, size_t n, const char *what)
{
    if (!judged || s == NULL)
        return;
    for (size_t k = 0; k < sizeof needles / sizeof *needles; k++)
        FZ_CHECK(!fz_contains(s, n, needles[k], strlen(needles[k])),
                 "the secret leaked through %s: %.*s", what, (int)n, s);
}

static void scan_row(const pier_row *row)
{
    for (size_t i = 0; i < pier_row_column_count(row); i++) {
        const pier_value *v = pier_row_value(row, i);
        no_secret(v->text, v->len, "a value");
        if (v->kind == PIER_KIND_BLOB)
            no_secret(v->as.blob.bytes, v->as.blob.len, "a blob");
        const char *name = pier_row_column_name(row, i);
        no_secret(name, strlen(name), "a column name");
    }
    fz_check_row_json_valid(row);
}

/* ---- writing the result ---- */

/* Output kept for checking; a result that writes more is cut there (the
 * writer stops it: WriteFailed). */
#define OUT_MAX (1024 * 1024)

typedef struct out {
    char *p;
    size_t len, cap;
    bool cut;
} out;

static bool collect(const char *bytes, size_t len, void *payload)
{
    out *o = payload;
    if (o->len + len > OUT_MAX) {
        o->cut = true;
        return false;
    }
    if (o->len + len + 1 > o->cap) {
        o->cap = (o->len + len + 1) * 2;
        o->p = realloc(o->p, o->cap);
        FZ_CHECK(o->p != NULL, "out of memory");
    }
    memcpy(o->p + o->len, bytes, len);
    o->len += len;
    o->p[o->len] = '\0';
    return true;
}

static void check_output(const out *o, pier_format format)
{
    no_secret(o->p, o->len, "written output");
    if (o->cut || format == PIER_FORMAT_CSV)
        return;
    if (format == PIER_FORMAT_JSON) {
        FZ_CHECK(fz_json_valid(o->p, o->len), "JSON output is no JSON: %s",
                 o->p);
        return;
    }
    size_t start = 0;
    for (size_t i = 0; i < o->len; i++) {
        if (o->p[i] != '\n')
            continue;
        FZ_CHECK(fz_json_valid(o->p + start, i - start),
                 "a JSON line is no JSON: %.*s", (int)(i - start),
                 o->p + start);
        start = i + 1;
    }
    FZ_CHECK(start == o->len, "JSON lines output does not end a line");
}

/* ---- the input ---- */

static bool query_refusal(pier_status rc)
{
    switch (rc) {
    case PIER_E_INVALID_BOARD_ID:
    case PIER_E_BOARD_NOT_FOUND:
    case PIER_E_TABLE_NOT_FOUND:
    case PIER_E_ENTITY_NOT_ALLOWED:
    case PIER_E_PLACEHOLDER_UNBOUND:
    case PIER_E_QUERY_FAILED:
    case PIER_E_READ_FAILED:
    case PIER_E_INVALID_ARGUMENT:
    case PIER_E_LIMIT_EXCEEDED:
        return true;
    default:
        return false;
    }
}

static pier_params *make_params(const char *s, size_t n)
{
    pier_params *p = pier_params_new();
    FZ_CHECK(p != NULL, "out of memory");
    pier_error err;
    pier_status rc;
    if (n > 0 && (s[0] == ':' || s[0] == '$' || s[0] == '@' || s[0] == '?')) {
        const char *eq = memchr(s, '=', n);
        if (eq == NULL)
            return p;
        char *name = fz_strndup((const uint8_t *)s, (size_t)(eq - s));
        rc = pier_params_set_json_value(p, name, eq + 1,
                                        n - (size_t)(eq - s) - 1, &err);
        free(name);
    } else {
        rc = pier_params_set_json(p, s, n, &err);
    }
    FZ_CHECK(rc == PIER_OK || rc == PIER_E_INVALID_JSON ||
             rc == PIER_E_INVALID_ARGUMENT || rc == PIER_E_LIMIT_EXCEEDED,
             "parameters: %s: %s", pier_status_tag(rc), err.message);
    no_secret(err.message, strlen(err.message), "a parameter's error");
    return p;
}

static int64_t count_rows(const char *board)
{
    int64_t n = -1;
    pier_error err;
    FZ_OK(pier_row_count(&n, engine, board, &err), &err);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (engine == NULL)
        make_lake();
    if (size < 1)
        return 0;
    judged = !input_knows(data, size);
    const char *with[] = { "pub2" };
    pier_query_options qo = PIER_QUERY_OPTIONS_INIT;
    if (data[0] & 1) {
        qo.with = with;
        qo.nwith = 1;
    }
    const char *tables[] = { "pub_t", "pub_v" };
    if (data[0] & 8) {
        qo.tables = tables;
        qo.ntables = 2;
    }
    int how = (data[0] >> 1) & 3;
    const char *rest = (const char *)data + 1;
    size_t n = size - 1;
    const char *nul = memchr(rest, '\0', n);
    size_t tn = nul != NULL ? (size_t)(nul - rest) : n;
    char *sql = fz_strndup((const uint8_t *)rest, tn);
    pier_params *params = nul != NULL
        ? make_params(nul + 1, n - tn - 1) : NULL;

    pier_cursor *c = NULL;
    pier_error err;
    pier_status rc = pier_query(&c, engine, "pub", sql, params, &qo, &err);
    FZ_CHECK(rc == PIER_OK || query_refusal(rc), "pier_query: %s: %s",
             pier_status_tag(rc), err.message);
    FZ_CHECK((rc == PIER_OK) == (c != NULL), "a cursor only with PIER_OK");
    if (rc != PIER_OK) {
        no_secret(err.message, strlen(err.message), "an error message");
    } else {
        for (size_t i = 0; i < pier_cursor_column_count(c); i++) {
            const char *name = pier_cursor_column_name(c, i);
            no_secret(name, strlen(name), "a column name");
        }
        if (how == 0) {
            const pier_row *row;
            size_t rows = 0;
            while (rows < 10000 &&
                   (rc = pier_cursor_next(&row, c, &err)) == PIER_OK &&
                   row != NULL) {
                scan_row(row);
                rows++;
            }
        } else {
            pier_format f = how == 1   ? PIER_FORMAT_JSON
                            : how == 2 ? PIER_FORMAT_JSONL
                                       : PIER_FORMAT_CSV;
            out o = { NULL, 0, 0, false };
            int64_t nrows = 0;
            rc = pier_cursor_write(&nrows, c, f, collect, &o, &err);
            if (rc == PIER_OK)
                check_output(&o, f);
            else
                no_secret(o.p, o.len, "written output");
            free(o.p);
        }
        FZ_CHECK(rc == PIER_OK || query_refusal(rc) ||
                 rc == PIER_E_WRITE_FAILED, "cursor: %s: %s",
                 pier_status_tag(rc), err.message);
        if (rc != PIER_OK)
            no_secret(err.message, strlen(err.message), "an error message");
        pier_cursor_close(c);
    }
    pier_params_free(params);
    free(sql);

    /* Nothing was written. */
    FZ_CHECK(fz_head(engine) == base_head, "a query moved the head");
    FZ_CHECK(count_rows("pub") == 3 && count_rows("pub2") == 2 &&
             count_rows("secret") == 1, "a query changed a board's rows");
    return 0;
}
