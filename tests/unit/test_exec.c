/*
 * test_exec.c: the SQL dialect through the C API (pier_exec and the
 * declared tables' catalog).
 *
 * Values of every type read back carry their kinds and `as` members and,
 * bound back as parameters (all but bytes, which no parameter carries),
 * fill a table of the same types with the same values; bound parameters of
 * every form reach typed columns, a refused value fills the error's
 * structured fields and leaves nothing behind, column ids stay stable
 * across renames and are never reused, a second engine sees another's
 * tables, a format 1 lake is upgraded when opened, and DDL made with
 * sqlite3 behind Pier's back is reported (the golden files sql_*.t cover
 * the same ground through the CLI, one type per file).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "pier.h"
#include "support/engine_fixture.h"

typedef engine_fixture fixture;

static int setup(void **state)
{
    *state = fixture_open();
    return 0;
}

static int teardown(void **state)
{
    return fixture_close(*state);
}

/* Runs a script that must succeed; returns its cursor (or NULL). */
static pier_cursor *run(pier_engine *e, const char *sql,
                        const pier_params *params)
{
    pier_cursor *c = NULL;
    pier_error err;
    pier_status rc = pier_exec(&c, e, sql, params, &err);
    if (rc != PIER_OK)
        fail_msg("%s: %s: %s", sql, err.tag, err.message);
    return c;
}

static void exec_ok(pier_engine *e, const char *sql)
{
    pier_cursor_close(run(e, sql, NULL));
}

static int64_t count_rows(pier_engine *e, const char *table)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM \"%s\"", table);
    pier_cursor *c = run(e, sql, NULL);
    const pier_row *row = NULL;
    pier_error err;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_non_null(row);
    int64_t n = pier_row_value(row, 0)->as.integer;
    pier_cursor_close(c);
    return n;
}

/* Every type read back: kind, `as` and canonical text. */
static void test_values_carry_their_types(void **state)
{
    fixture *f = *state;
    exec_ok(f->e, "CREATE TABLE v (i8 INT8, u64 UINT64, h INT128, f FLOAT32, "
                  "d DECIMAL(12,2), s VARCHAR(5), e ENUM('a','b'), "
                  "b BOOLEAN, x BLOB, u UUID, i INSTANT, dt DATE, t TIME, "
                  "tm DATETIME, iv INTERVAL, j JSON, arr INT64[], a ANY)");
    pier_params *p = pier_params_new();
    pier_error err;
    assert_int_equal(pier_params_set_int64(p, ":i8", -5, &err), PIER_OK);
    assert_int_equal(pier_params_set_text(p, ":u64", "18446744073709551615",
                                          &err), PIER_OK);
    assert_int_equal(pier_params_set_text(p, ":d", "12.5", &err), PIER_OK);
    assert_int_equal(pier_params_set_bool(p, ":b", true, &err), PIER_OK);
    assert_int_equal(pier_params_set_text(p, ":u",
                                          "A0EEBC99-9C0B-4EF8-BB6D-"
                                          "6BB9BD380A11", &err), PIER_OK);
    assert_int_equal(pier_params_set_text(p, ":i",
                                          "2026-03-01T10:00:00+02:00", &err),
                     PIER_OK);
    assert_int_equal(pier_params_set_double(p, ":a", 2.5, &err), PIER_OK);
    pier_cursor_close(run(f->e,
        "INSERT INTO v VALUES (:i8, :u64, '-170141183460469231731687303715884"
        "105728', 0.1, :d, 'héllo', 'b', :b, x'00ff', :u, :i, '2026-03-01', "
        "'10:00:00.5', '2026-03-01 10:00:00', 'P1M2DT3S', '{\"k\": [1]}', "
        "'[1, 2]', :a)", p));
    pier_params_free(p);

    pier_cursor *c = run(f->e, "SELECT * FROM v", NULL);
    assert_int_equal(pier_cursor_column_count(c), 18);
    assert_string_equal(pier_cursor_column_type(c, 4), "DECIMAL(12,2)");
    assert_string_equal(pier_cursor_column_type(c, 16), "INT64[]");
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_non_null(row);
    const pier_value *v = pier_row_value(row, 0);
    assert_int_equal(v->kind, PIER_KIND_TINYINT);
    assert_int_equal(v->as.integer, -5);
    v = pier_row_value(row, 1);
    assert_int_equal(v->kind, PIER_KIND_UNSIGNED);
    assert_true(v->as.unsigned_integer == UINT64_MAX);
    v = pier_row_value(row, 2);
    assert_int_equal(v->kind, PIER_KIND_HUGEINT);
    assert_true(v->as.hugeint.hi == INT64_MIN && v->as.hugeint.lo == 0);
    v = pier_row_value(row, 3);
    assert_int_equal(v->kind, PIER_KIND_FLOAT);
    assert_string_equal(v->text, "0.1");
    v = pier_row_value(row, 4);
    assert_int_equal(v->kind, PIER_KIND_DECIMAL);
    assert_string_equal(v->text, "12.50");
    assert_true(v->as.decimal.unscaled.lo == 1250 &&
                v->as.decimal.unscaled.hi == 0);
    assert_int_equal(v->as.decimal.scale, 2);
    assert_int_equal(pier_row_value(row, 5)->kind, PIER_KIND_TEXT);
    assert_string_equal(pier_row_value(row, 5)->text, "héllo");
    assert_string_equal(pier_row_value(row, 6)->text, "b");
    v = pier_row_value(row, 7);
    assert_int_equal(v->kind, PIER_KIND_BOOLEAN);
    assert_true(v->as.boolean);
    v = pier_row_value(row, 8);
    assert_int_equal(v->kind, PIER_KIND_BLOB);
    assert_string_equal(v->text, "00FF");
    assert_int_equal(v->as.blob.len, 2);
    assert_memory_equal(v->as.blob.bytes, "\x00\xff", 2);
    v = pier_row_value(row, 9);
    assert_int_equal(v->kind, PIER_KIND_UUID);
    assert_string_equal(v->text, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    assert_int_equal(v->as.uuid[0], 0xa0);
    assert_int_equal(v->as.uuid[15], 0x11);
    v = pier_row_value(row, 10);
    assert_int_equal(v->kind, PIER_KIND_TIMESTAMP);
    assert_string_equal(v->text, "2026-03-01T08:00:00.000000Z");
    assert_true(v->as.timestamp_us == FIXTURE_NOW - INT64_C(7200000000));
    v = pier_row_value(row, 11);
    assert_int_equal(v->kind, PIER_KIND_DATE);
    assert_int_equal(v->as.date_days, 20513);
    v = pier_row_value(row, 12);
    assert_int_equal(v->kind, PIER_KIND_TIME);
    assert_string_equal(v->text, "10:00:00.500000");
    assert_true(v->as.time_us == INT64_C(36000500000));
    v = pier_row_value(row, 13);
    assert_int_equal(v->kind, PIER_KIND_DATETIME);
    assert_string_equal(v->text, "2026-03-01T10:00:00.000000");
    v = pier_row_value(row, 14);
    assert_int_equal(v->kind, PIER_KIND_INTERVAL);
    assert_int_equal(v->as.interval.months, 1);
    assert_int_equal(v->as.interval.days, 2);
    assert_true(v->as.interval.micros == 3000000);
    assert_int_equal(pier_row_value(row, 15)->kind, PIER_KIND_JSON);
    v = pier_row_value(row, 16);
    assert_int_equal(v->kind, PIER_KIND_ARRAY);
    assert_string_equal(v->text, "[1,2]");
    v = pier_row_value(row, 17);               /* ANY: its storage class */
    assert_int_equal(v->kind, PIER_KIND_DOUBLE);
    char *json = pier_row_to_json(row);
    assert_non_null(strstr(json, "\"d\":\"12.50\""));
    assert_non_null(strstr(json, "\"u64\":18446744073709551615"));
    assert_non_null(strstr(json, "\"arr\":[1,2]"));
    pier_free(json);
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_null(row);
    pier_cursor_close(c);
}

/* Binds a value read back as a caller of the C API would: by its `as`
 * member where one maps onto a parameter, else by its canonical text.
 * No parameter carries bytes, so a BLOB cannot be bound back. */
static void bind_back(pier_params *p, const char *name, const pier_value *v)
{
    pier_error err;
    pier_status rc;
    switch (v->kind) {
    case PIER_KIND_NULL:
        rc = pier_params_set_null(p, name, &err);
        break;
    case PIER_KIND_BOOLEAN:
        rc = pier_params_set_bool(p, name, v->as.boolean, &err);
        break;
    case PIER_KIND_TINYINT:
    case PIER_KIND_SMALLINT:
    case PIER_KIND_INTEGER:
    case PIER_KIND_BIGINT:
        rc = pier_params_set_int64(p, name, v->as.integer, &err);
        break;
    case PIER_KIND_UNSIGNED:
        rc = v->as.unsigned_integer <= INT64_MAX
                 ? pier_params_set_int64(p, name,
                                         (int64_t)v->as.unsigned_integer,
                                         &err)
                 : pier_params_set_text(p, name, v->text, &err);
        break;
    case PIER_KIND_FLOAT:
    case PIER_KIND_DOUBLE:
        rc = pier_params_set_double(p, name, v->as.real, &err);
        break;
    case PIER_KIND_BLOB:
        fail_msg("%s: a blob cannot be bound", name);
        return;
    default:                  /* HUGEINT, DECIMAL, the texts, the times */
        rc = pier_params_set_text(p, name, v->text, &err);
        break;
    }
    assert_int_equal(rc, PIER_OK);
}

#define ALL_TYPES                                                         \
    "(k INT64 PRIMARY KEY, i16 INT16, i32 INT32, i64 INTEGER, u8 UINT8, " \
    "u16 UINT16, u32 UINT32, u64 UINT64, h INT128, f FLOAT32, r REAL, "   \
    "dbl DOUBLE, d DECIMAL(12,2), dd DECIMAL, s TEXT, v VARCHAR(5), "     \
    "e ENUM('a','b'), b BOOL, u UUID, i INSTANT, dt DATE, t TIME, "       \
    "tm DATETIME, iv INTERVAL, j JSON, arr INT64[], grid TEXT[][], a ANY)"
#define NTYPES 28

/* The kinds and `as` members test_values_carry_their_types leaves out,
 * at the edges of their ranges; then every value (but bytes) is bound
 * back into a table of the same types, which then holds the same
 * values and reads the same. */
static void test_every_type_binds_back(void **state)
{
    fixture *f = *state;
    exec_ok(f->e, "CREATE TABLE a " ALL_TYPES "; CREATE TABLE b " ALL_TYPES);
    exec_ok(f->e,
        "INSERT INTO a VALUES (1, -32768, 2147483647, -9223372036854775808,"
        " 255, 65535, 4294967295, '9223372036854775808', "
        "'170141183460469231731687303715884105727', -1.25, 0.1, -2.5e-7, "
        "'-12.5', '1e-3', 'text', 'héllo', 'a', FALSE, "
        "'A0EEBC999C0B4EF8BB6D6BB9BD380A11', '2026-03-01T10:00:00+02:00', "
        "'1969-12-31', '23:59:59.999999', '1969-12-31 23:59:59.5', "
        "'P-1Y2M-3DT-4.5S', '{\"k\": [1]}', '[1,2]', '[[\"a\"],null]', "
        "'text'); "
        "INSERT INTO a(k) VALUES (2); "
        "INSERT INTO a(k, a) VALUES (3, 7), (4, 2.5)");

    pier_cursor *c = run(f->e, "SELECT * FROM a ORDER BY k", NULL);
    assert_int_equal(pier_cursor_column_count(c), NTYPES);
    pier_params *back[4] = { NULL };
    const pier_row *row = NULL;
    pier_error err;
    for (size_t n = 0; n < 4; n++) {
        assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
        assert_non_null(row);
        back[n] = pier_params_new();
        for (size_t i = 0; i < NTYPES; i++) {
            char name[64];
            snprintf(name, sizeof name, ":%s",
                     pier_cursor_column_name(c, i));
            bind_back(back[n], name, pier_row_value(row, i));
        }
        if (n == 0) {
            const pier_value *v = pier_row_value(row, 1);
            assert_int_equal(v->kind, PIER_KIND_SMALLINT);
            assert_int_equal(v->as.integer, -32768);
            v = pier_row_value(row, 2);
            assert_int_equal(v->kind, PIER_KIND_INTEGER);
            assert_int_equal(v->as.integer, INT32_MAX);
            v = pier_row_value(row, 3);
            assert_int_equal(v->kind, PIER_KIND_BIGINT);
            assert_true(v->as.integer == INT64_MIN);
            assert_string_equal(v->text, "-9223372036854775808");
            for (size_t i = 4; i <= 6; i++)
                assert_int_equal(pier_row_value(row, i)->kind,
                                 PIER_KIND_UNSIGNED);
            assert_true(pier_row_value(row, 4)->as.unsigned_integer == 255);
            assert_true(pier_row_value(row, 5)->as.unsigned_integer ==
                        UINT16_MAX);
            assert_true(pier_row_value(row, 6)->as.unsigned_integer ==
                        UINT32_MAX);
            v = pier_row_value(row, 7);
            assert_true(v->as.unsigned_integer == UINT64_C(1) << 63);
            assert_string_equal(v->text, "9223372036854775808");
            v = pier_row_value(row, 8);
            assert_int_equal(v->kind, PIER_KIND_HUGEINT);
            assert_true(v->as.hugeint.hi == INT64_MAX &&
                        v->as.hugeint.lo == UINT64_MAX);
            v = pier_row_value(row, 9);
            assert_int_equal(v->kind, PIER_KIND_FLOAT);
            assert_true(v->as.real == -1.25);
            v = pier_row_value(row, 10);
            assert_int_equal(v->kind, PIER_KIND_DOUBLE);
            assert_true(v->as.real == 0.1);
            assert_string_equal(v->text, "0.1");
            v = pier_row_value(row, 11);
            assert_int_equal(v->kind, PIER_KIND_DOUBLE);
            assert_true(v->as.real == -2.5e-7);
            v = pier_row_value(row, 12);               /* -12.50 */
            assert_int_equal(v->kind, PIER_KIND_DECIMAL);
            assert_true(v->as.decimal.unscaled.hi == -1 &&
                        v->as.decimal.unscaled.lo == (uint64_t)-1250);
            assert_int_equal(v->as.decimal.scale, 2);
            assert_string_equal(v->text, "-12.50");
            v = pier_row_value(row, 13);               /* 0.001 */
            assert_true(v->as.decimal.unscaled.hi == 0 &&
                        v->as.decimal.unscaled.lo == 1);
            assert_int_equal(v->as.decimal.scale, 3);
            for (size_t i = 14; i <= 16; i++)
                assert_int_equal(pier_row_value(row, i)->kind,
                                 PIER_KIND_TEXT);
            assert_string_equal(pier_row_value(row, 14)->text, "text");
            assert_int_equal(pier_row_value(row, 15)->len, 6);
            assert_string_equal(pier_row_value(row, 16)->text, "a");
            v = pier_row_value(row, 17);
            assert_int_equal(v->kind, PIER_KIND_BOOLEAN);
            assert_false(v->as.boolean);
            assert_string_equal(v->text, "false");
            v = pier_row_value(row, 18);
            assert_int_equal(v->kind, PIER_KIND_UUID);
            assert_memory_equal(v->as.uuid, "\xa0\xee\xbc\x99\x9c\x0b\x4e"
                                "\xf8\xbb\x6d\x6b\xb9\xbd\x38\x0a\x11", 16);
            v = pier_row_value(row, 19);
            assert_int_equal(v->kind, PIER_KIND_TIMESTAMP);
            assert_true(v->as.timestamp_us == FIXTURE_NOW -
                                              INT64_C(7200000000));
            v = pier_row_value(row, 20);
            assert_int_equal(v->kind, PIER_KIND_DATE);
            assert_int_equal(v->as.date_days, -1);
            v = pier_row_value(row, 21);
            assert_int_equal(v->kind, PIER_KIND_TIME);
            assert_true(v->as.time_us == INT64_C(86399999999));
            v = pier_row_value(row, 22);
            assert_int_equal(v->kind, PIER_KIND_DATETIME);
            assert_true(v->as.datetime_us == INT64_C(-500000));
            assert_string_equal(v->text, "1969-12-31T23:59:59.500000");
            v = pier_row_value(row, 23);
            assert_int_equal(v->kind, PIER_KIND_INTERVAL);
            assert_int_equal(v->as.interval.months, -10);
            assert_int_equal(v->as.interval.days, -3);
            assert_true(v->as.interval.micros == INT64_C(-4500000));
            assert_string_equal(v->text, "P-10M-3DT-4.5S");
            v = pier_row_value(row, 24);
            assert_int_equal(v->kind, PIER_KIND_JSON);
            assert_string_equal(v->text, "{\"k\": [1]}");
            v = pier_row_value(row, 26);
            assert_int_equal(v->kind, PIER_KIND_ARRAY);
            assert_string_equal(v->text, "[[\"a\"],null]");
            v = pier_row_value(row, 27);               /* ANY: text */
            assert_int_equal(v->kind, PIER_KIND_TEXT);
        }
        if (n == 1)                    /* a NULL of every type */
            for (size_t i = 1; i < NTYPES; i++)
                assert_int_equal(pier_row_value(row, i)->kind,
                                 PIER_KIND_NULL);
        if (n == 2) {                  /* ANY: an integer */
            const pier_value *v = pier_row_value(row, NTYPES - 1);
            assert_int_equal(v->kind, PIER_KIND_BIGINT);
            assert_int_equal(v->as.integer, 7);
        }
        if (n == 3) {                  /* ANY: a real */
            const pier_value *v = pier_row_value(row, NTYPES - 1);
            assert_int_equal(v->kind, PIER_KIND_DOUBLE);
            assert_true(v->as.real == 2.5);
        }
    }
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_null(row);
    pier_cursor_close(c);

    char insert[512] = "INSERT INTO b VALUES (:k";
    static const char *const names[NTYPES - 1] = {
        "i16", "i32", "i64", "u8", "u16", "u32", "u64", "h", "f", "r", "dbl",
        "d", "dd", "s", "v", "e", "b", "u", "i", "dt", "t", "tm", "iv", "j",
        "arr", "grid", "a",
    };
    for (size_t i = 0; i < NTYPES - 1; i++) {
        strcat(insert, ", :");
        strcat(insert, names[i]);
    }
    strcat(insert, ")");
    for (size_t n = 0; n < 4; n++) {
        pier_cursor_close(run(f->e, insert, back[n]));
        pier_params_free(back[n]);
    }
    /* The same values (by each column's collation, so by value), and the
     * same storage classes in ANY... */
    c = run(f->e, "SELECT (SELECT count(*) FROM (SELECT * FROM a EXCEPT "
                  "SELECT * FROM b)), (SELECT count(*) FROM (SELECT * "
                  "FROM b EXCEPT SELECT * FROM a)), (SELECT count(*) FROM "
                  "a JOIN b USING (k) WHERE typeof(a.a) IS NOT "
                  "typeof(b.a))", NULL);
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_int_equal(pier_row_value(row, 0)->as.integer, 0);
    assert_int_equal(pier_row_value(row, 1)->as.integer, 0);
    assert_int_equal(pier_row_value(row, 2)->as.integer, 0);
    pier_cursor_close(c);
    /* ...which read the same, as JSON. */
    pier_cursor *ca = run(f->e, "SELECT * FROM a ORDER BY k", NULL);
    pier_cursor *cb = run(f->e, "SELECT * FROM b ORDER BY k", NULL);
    const pier_row *rb = NULL;
    for (;;) {
        assert_int_equal(pier_cursor_next(&row, ca, &err), PIER_OK);
        assert_int_equal(pier_cursor_next(&rb, cb, &err), PIER_OK);
        if (row == NULL || rb == NULL)
            break;
        char *ja = pier_row_to_json(row), *jb = pier_row_to_json(rb);
        assert_string_equal(ja, jb);
        pier_free(ja);
        pier_free(jb);
    }
    assert_null(row);
    assert_null(rb);
    pier_cursor_close(ca);
    pier_cursor_close(cb);
}

/* BLOB and BYTEA read as bytes; so does a blob in ANY. */
static void test_blobs_carry_their_bytes(void **state)
{
    fixture *f = *state;
    pier_cursor *c = run(f->e, "CREATE TABLE x (b BYTEA, a ANY); "
                               "INSERT INTO x VALUES (x'', x'00ff10'); "
                               "SELECT b, a FROM x", NULL);
    assert_string_equal(pier_cursor_column_type(c, 0), "BLOB");
    const pier_row *row = NULL;
    pier_error err;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    const pier_value *v = pier_row_value(row, 0);
    assert_int_equal(v->kind, PIER_KIND_BLOB);
    assert_int_equal(v->as.blob.len, 0);
    assert_non_null(v->as.blob.bytes);
    assert_string_equal(v->text, "");
    v = pier_row_value(row, 1);
    assert_int_equal(v->kind, PIER_KIND_BLOB);
    assert_int_equal(v->as.blob.len, 3);
    assert_memory_equal(v->as.blob.bytes, "\x00\xff\x10", 3);
    assert_string_equal(v->text, "00FF10");
    pier_cursor_close(c);
}

/* A refused value: the error's fields, and nothing of the script. */
static void test_conflict_names_everything(void **state)
{
    fixture *f = *state;
    exec_ok(f->e, "CREATE TABLE t (id INT64 PRIMARY KEY, price "
                  "DECIMAL(5,2))");
    pier_error err;
    pier_cursor *c = NULL;
    assert_int_equal(pier_exec(&c, f->e,
                               "INSERT INTO t VALUES (1, '1.00'); "
                               "INSERT INTO t VALUES (2, '1.234')",
                               NULL, &err),
                     PIER_E_COLUMN_TYPE_CONFLICT);
    assert_null(c);
    assert_string_equal(err.tag, "ColumnTypeConflict");
    assert_string_equal(err.board, "t");
    assert_string_equal(err.column, "price");
    assert_string_equal(err.column_type, "DECIMAL(5,2)");
    assert_non_null(strstr(err.message, "'1.234'"));
    assert_int_equal(count_rows(f->e, "t"), 0);
    /* STRICT's own refusal names the column too. */
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO t VALUES ('x', 1)",
                               NULL, &err),
                     PIER_E_COLUMN_TYPE_CONFLICT);
    assert_int_equal(pier_exec(NULL, f->e,
                               "INSERT INTO t(price) VALUES (x'00')", NULL,
                               &err),
                     PIER_E_COLUMN_TYPE_CONFLICT);
    assert_string_equal(err.column, "price");
    assert_int_equal(count_rows(f->e, "t"), 0);
}

static void test_changes_and_empty_scripts(void **state)
{
    fixture *f = *state;
    pier_cursor *c = run(f->e, "CREATE TABLE t (a INT64); "
                               "INSERT INTO t VALUES (1), (2), (3)", NULL);
    assert_int_equal(pier_cursor_column_count(c), 0);
    assert_int_equal(pier_cursor_changes(c), 3);
    pier_cursor_close(c);
    c = run(f->e, "UPDATE t SET a = a + 1 WHERE a > 1", NULL);
    assert_int_equal(pier_cursor_changes(c), 2);
    pier_cursor_close(c);
    c = run(f->e, "  -- only a comment\n ; ;", NULL);
    assert_int_equal(pier_cursor_column_count(c), 0);
    assert_int_equal(pier_cursor_changes(c), 0);
    const pier_row *row = (const pier_row *)1;
    pier_error err;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_null(row);
    pier_cursor_close(c);
    /* A query's cursor changed nothing. */
    fixture_insert(f->e, "b", "{\"id\":\"x\"}");
    assert_int_equal(pier_query(&c, f->e, "b", "SELECT id FROM {{board}}",
                                NULL, NULL, &err), PIER_OK);
    assert_int_equal(pier_cursor_changes(c), 0);
    pier_cursor_close(c);
}

/* The rows of an exec cursor convert as a query's do. */
static bool to_buf(const char *bytes, size_t len, void *payload)
{
    char *out = payload;
    size_t n = strlen(out);
    if (n + len >= 256)
        return false;
    memcpy(out + n, bytes, len);
    out[n + len] = '\0';
    return true;
}

static void test_cursor_write(void **state)
{
    fixture *f = *state;
    pier_cursor *c = run(f->e, "CREATE TABLE t (a INT64, d DECIMAL(4,1)); "
                               "INSERT INTO t VALUES (1, '2'), (2, NULL); "
                               "SELECT a, d FROM t ORDER BY a", NULL);
    char out[256] = "";
    int64_t n = 0;
    pier_error err;
    assert_int_equal(pier_cursor_write(&n, c, PIER_FORMAT_CSV, to_buf, out,
                                       &err), PIER_OK);
    assert_int_equal(n, 2);
    assert_string_equal(out, "a,d\n1,2.0\n2,\n");
    pier_cursor_close(c);
}

static int64_t column_id(pier_engine *e, const char *table, size_t i)
{
    pier_table_info *info = NULL;
    pier_error err;
    assert_int_equal(pier_table_describe(&info, e, table, &err), PIER_OK);
    assert_true(i < info->ncolumns);
    int64_t id = info->columns[i].id;
    pier_table_info_free(info);
    return id;
}

static void test_catalog_ids(void **state)
{
    fixture *f = *state;
    exec_ok(f->e, "CREATE TABLE Tasks (a INT64, b TEXT READONLY)");
    int64_t a = column_id(f->e, "tasks", 0), b = column_id(f->e, "TASKS", 1);
    assert_true(a > 0 && b > a);
    exec_ok(f->e, "ALTER TABLE tasks RENAME COLUMN b TO c; "
                  "ALTER TABLE tasks RENAME TO jobs");
    assert_int_equal(column_id(f->e, "jobs", 1), b);
    pier_table_info *info = NULL;
    pier_error err;
    assert_int_equal(pier_table_describe(&info, f->e, "jobs", &err),
                     PIER_OK);
    assert_string_equal(info->table, "jobs");
    assert_string_equal(info->columns[1].name, "c");
    assert_string_equal(info->columns[1].type, "TEXT");
    assert_int_equal(info->columns[1].kind, PIER_KIND_TEXT);
    assert_true(info->columns[1].readonly);
    assert_string_equal(info->sql, "CREATE TABLE \"jobs\" (\n"
                                   "    \"a\" INT64,\n"
                                   "    \"c\" TEXT READONLY\n)");
    pier_table_info_free(info);
    exec_ok(f->e, "DROP TABLE jobs; CREATE TABLE t (x INT64)");
    assert_true(column_id(f->e, "t", 0) > b);    /* never reused */
    assert_int_equal(pier_table_describe(&info, f->e, "jobs", &err),
                     PIER_E_TABLE_NOT_FOUND);
    assert_null(info);
    char **names = NULL;
    assert_int_equal(pier_table_list(&names, f->e, &err), PIER_OK);
    assert_string_equal(names[0], "t");
    assert_null(names[1]);
    pier_strings_free(names);
}

/* Another engine on the same lake sees the tables this one made. */
static void test_second_engine(void **state)
{
    fixture *f = *state;
    pier_engine *other = fixture_engine(f);
    exec_ok(f->e, "CREATE TABLE t (d DECIMAL(4,2))");
    exec_ok(other, "INSERT INTO t VALUES ('1.5')");
    pier_cursor *c = run(other, "SELECT d FROM t", NULL);
    const pier_row *row = NULL;
    pier_error err;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_string_equal(pier_row_value(row, 0)->text, "1.50");
    pier_cursor_close(c);
    exec_ok(f->e, "ALTER TABLE t ADD COLUMN n INT8");
    assert_int_equal(pier_exec(NULL, other, "INSERT INTO t(n) VALUES (200)",
                               NULL, &err), PIER_E_COLUMN_TYPE_CONFLICT);
    assert_string_equal(err.column, "n");
    pier_close(&other);
}

/* A catalog change undone by a script's ROLLBACK leaves the catalog
 * version where it was: when another engine then moves it to the number
 * the undone change had, this engine still sees that change. */
static void test_catalog_after_rollback(void **state)
{
    fixture *f = *state;
    pier_engine *other = fixture_engine(f);
    exec_ok(f->e, "CREATE TABLE a (x INT64)");
    exec_ok(other, "INSERT INTO a VALUES (1)");
    exec_ok(f->e, "BEGIN; CREATE TABLE gone (x INT64); ROLLBACK");
    exec_ok(f->e, "INSERT INTO a VALUES (2)");
    exec_ok(other, "CREATE TABLE b (n INT8)");
    pier_table_info *info = NULL;
    pier_error err;
    assert_int_equal(pier_table_describe(&info, f->e, "b", &err), PIER_OK);
    assert_string_equal(info->columns[0].name, "n");
    pier_table_info_free(info);
    assert_int_equal(pier_table_describe(&info, f->e, "gone", &err),
                     PIER_E_TABLE_NOT_FOUND);
    pier_close(&other);
}

/* The one value a statement gives, as text. */
static void one_value(pier_engine *e, const char *sql, const char *want)
{
    pier_cursor *c = run(e, sql, NULL);
    const pier_row *row = NULL;
    pier_error err;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_non_null(row);
    assert_string_equal(pier_row_value(row, 0)->text, want);
    pier_cursor_close(c);
}

/* A statement run before is judged again once the schema changed (here or
 * through another engine): exact when its column became DECIMAL, SQLite's
 * arithmetic when it no longer is one. */
static void test_statements_after_schema_change(void **state)
{
    fixture *f = *state;
    pier_engine *other = fixture_engine(f);
    exec_ok(f->e, "CREATE TABLE u (k INT64 PRIMARY KEY, x TEXT); "
                  "INSERT INTO u VALUES (1, '0.1')");
    one_value(f->e, "SELECT x * 3 FROM u", "0.30000000000000004");
    exec_ok(other, "DROP TABLE u; CREATE TABLE u (k INT64 PRIMARY KEY, "
                   "x DECIMAL); INSERT INTO u VALUES (1, '0.1')");
    one_value(f->e, "SELECT x * 3 FROM u", "0.3");
    one_value(f->e, "SELECT x / 2 FROM u", "0.05");
    exec_ok(f->e, "DROP TABLE u; CREATE TABLE u (k INT64 PRIMARY KEY, "
                  "x TEXT); INSERT INTO u VALUES (1, '7')");
    one_value(f->e, "SELECT x / 2 FROM u", "3");
    pier_close(&other);
}

/* A result column computed on exact values is named as written, though
 * another statement written otherwise reads the same to SQLite (EXTRACT
 * is written as date_part) and its operators were rewritten before. */
static void test_rewritten_names_as_written(void **state)
{
    fixture *f = *state;
    exec_ok(f->e, "CREATE TABLE t (k INT64 PRIMARY KEY, at DATE, "
                  "price DECIMAL(12,2)); INSERT INTO t VALUES (1, "
                  "'2026-03-01', '1.50')");
    static const char *const columns[] = {
        "extract(year FROM at) + price",
        "date_part('year', at) + price",
    };
    for (size_t i = 0; i < 2; i++) {
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT %s FROM t", columns[i]);
        pier_cursor *c = run(f->e, sql, NULL);
        assert_string_equal(pier_cursor_column_name(c, 0), columns[i]);
        pier_cursor_close(c);
    }
}

static void sqlite_exec(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %s", sql, msg);
    sqlite3_close(db);
}

/* DDL behind Pier's back: reported by the check, refused by exec and
 * dump; boards unaffected; undoing it clears the report. */
static void test_schema_drift(void **state)
{
    fixture *f = *state;
    exec_ok(f->e, "CREATE TABLE t (a INT8); CREATE VIEW v AS SELECT a FROM t");
    pier_error err;
    assert_int_equal(pier_schema_check(f->e, &err), PIER_OK);
    sqlite_exec(f->lake, "CREATE TABLE sneaky (x); DROP VIEW v; "
                         "CREATE INDEX t_a ON t(a)");
    assert_int_equal(pier_schema_check(f->e, &err), PIER_E_SCHEMA_DRIFT);
    assert_string_equal(err.tag, "SchemaDrift");
    assert_string_equal(err.message,
                        "the lake's schema was changed without Pier: "
                        "table 'sneaky' was created without Pier; "
                        "index 't_a' was created without Pier; "
                        "view 'v' was dropped without Pier");
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO t VALUES (1)", NULL,
                               &err), PIER_E_SCHEMA_DRIFT);
    char *dump = NULL;
    assert_int_equal(pier_schema_dump(&dump, f->e, &err),
                     PIER_E_SCHEMA_DRIFT);
    assert_null(dump);
    fixture_insert(f->e, "b", "{\"id\":\"x\"}");
    sqlite_exec(f->lake, "DROP TABLE sneaky; DROP INDEX t_a; "
                         "CREATE VIEW v AS SELECT a FROM t");
    assert_int_equal(pier_schema_check(f->e, &err), PIER_OK);
    assert_int_equal(count_rows(f->e, "t"), 0);
    /* A writer without Pier's functions cannot fill a checked column. */
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(f->lake, &db), SQLITE_OK);
    assert_int_not_equal(sqlite3_exec(db, "INSERT INTO t VALUES (1000)",
                                      NULL, NULL, NULL), SQLITE_OK);
    assert_non_null(strstr(sqlite3_errmsg(db), "_pier_fit"));
    sqlite3_close(db);
    assert_int_equal(count_rows(f->e, "t"), 0);
}

/* What format 5 added, taken away again: a format 4 lake. */
static const char to_format_4[] =
    "DROP TABLE _pier_migration_files; PRAGMA user_version = 4";

/* What formats 4 and 5 added, taken away again: a format 3 lake. */
static const char to_format_3[] =
    "DROP TABLE _pier_migration_files; DROP TABLE _pier_commit_triggers; "
    "PRAGMA user_version = 3";

/* What formats 3, 4 and 5 added, taken away again: a format 2 lake. */
static const char to_format_2[] =
    "DROP TABLE _pier_migration_files; DROP TABLE _pier_commit_triggers; "
    "ALTER TABLE _pier_tables DROP COLUMN managed; "
    "ALTER TABLE _pier_boards DROP COLUMN managed; "
    "ALTER TABLE _pier_table_columns DROP COLUMN rules; "
    "ALTER TABLE _pier_table_columns DROP COLUMN dflt; "
    "ALTER TABLE _pier_table_columns DROP COLUMN backfill; "
    "ALTER TABLE _pier_table_columns DROP COLUMN added; "
    "DROP TABLE _pier_views; DROP TABLE _pier_indexes; "
    "PRAGMA user_version = 2";

static int lake_format(const char *lake)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(lake, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st,
                                        NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int format = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return format;
}

/* A lake of format 1 (before declared tables) is upgraded on open, to
 * the current format in one step. */
static void test_format_upgrade(void **state)
{
    fixture *f = *state;
    fixture_insert(f->e, "b", "{\"id\":\"x\",\"n\":1}");
    pier_close(&f->e);
    sqlite_exec(f->lake, to_format_2);
    sqlite_exec(f->lake, "DROP TABLE _pier_table_columns; "
                         "DROP TABLE _pier_tables; DROP TABLE _pier_schema; "
                         "PRAGMA user_version = 1");
    f->e = fixture_engine(f);
    exec_ok(f->e, "CREATE TABLE t (a INT8); INSERT INTO t VALUES (1)");
    assert_int_equal(count_rows(f->e, "t"), 1);
    int64_t n = 0;
    pier_error err;
    assert_int_equal(pier_row_count(&n, f->e, "b", &err), PIER_OK);
    assert_int_equal(n, 1);
    assert_int_equal(lake_format(f->lake), 5);
}

/* A lake of format 2 keeps its declared tables and gains what migrations
 * keep (formats 3 and 4). */
static void test_format_2_upgrade(void **state)
{
    fixture *f = *state;
    exec_ok(f->e, "CREATE TABLE t (a INT8 READONLY); INSERT INTO t VALUES "
                  "(7)");
    pier_close(&f->e);
    sqlite_exec(f->lake, to_format_2);
    assert_int_equal(lake_format(f->lake), 2);
    f->e = fixture_engine(f);
    assert_int_equal(lake_format(f->lake), 5);
    assert_int_equal(count_rows(f->e, "t"), 1);
    exec_ok(f->e, "CREATE TABLE u (b TEXT); INSERT INTO u VALUES ('x')");
    assert_int_equal(count_rows(f->e, "u"), 1);
    pier_error err;
    assert_int_equal(pier_schema_check(f->e, &err), PIER_OK);
}

/* A lake of format 3 gains the commit triggers' catalog (format 4) and
 * the record of migration files (format 5), and keeps its tables. */
static void test_format_3_upgrade(void **state)
{
    fixture *f = *state;
    exec_ok(f->e, "CREATE TABLE t (id INT64 PRIMARY KEY); INSERT INTO t "
                  "VALUES (7)");
    pier_close(&f->e);
    sqlite_exec(f->lake, to_format_3);
    assert_int_equal(lake_format(f->lake), 3);
    f->e = fixture_engine(f);
    assert_int_equal(lake_format(f->lake), 5);
    assert_int_equal(count_rows(f->e, "t"), 1);
    exec_ok(f->e, "CREATE COMMIT TRIGGER c ON t AS DELETE FROM t WHERE "
                  "false");
    pier_error err;
    assert_int_equal(pier_schema_check(f->e, &err), PIER_OK);
}

/* A lake of format 4 gains the record of migration files (format 5) and
 * keeps its commit triggers. */
static void test_format_4_upgrade(void **state)
{
    fixture *f = *state;
    exec_ok(f->e, "CREATE TABLE t (id INT64 PRIMARY KEY); CREATE COMMIT "
                  "TRIGGER c ON t AS DELETE FROM t WHERE false");
    pier_close(&f->e);
    sqlite_exec(f->lake, to_format_4);
    assert_int_equal(lake_format(f->lake), 4);
    f->e = fixture_engine(f);
    assert_int_equal(lake_format(f->lake), 5);
    exec_ok(f->e, "INSERT INTO t VALUES (1)");
    assert_int_equal(count_rows(f->e, "t"), 1);
    pier_error err;
    assert_int_equal(pier_schema_check(f->e, &err), PIER_OK);
}

/* Bad arguments and statements outside the dialect change nothing. */
static void test_refusals(void **state)
{
    fixture *f = *state;
    pier_error err;
    pier_cursor *c = (pier_cursor *)1;
    assert_int_equal(pier_exec(&c, NULL, "SELECT 1", NULL, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_null(c);
    assert_int_equal(pier_exec(NULL, f->e, NULL, NULL, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_exec(NULL, f->e, "CREATE TABLE t (a INT64); "
                               "PRAGMA foreign_keys = OFF", NULL, &err),
                     PIER_E_ENTITY_NOT_ALLOWED);
    assert_int_equal(err.offset, 26);
    assert_int_equal(pier_exec(NULL, f->e, "CREATE TABLE t (a INT64); "
                               "SELECT * FROM _pier_meta", NULL, &err),
                     PIER_E_ENTITY_NOT_ALLOWED);
    assert_int_equal(pier_exec(NULL, f->e, "SELECT ?1, :x", NULL, &err),
                     PIER_E_PLACEHOLDER_UNBOUND);
    char **names = NULL;
    assert_int_equal(pier_table_list(&names, f->e, &err), PIER_OK);
    assert_null(names[0]);
    pier_strings_free(names);
    assert_int_equal(pier_exec(NULL, f->e, "SELECT 1 +", NULL, &err),
                     PIER_E_QUERY_FAILED);
    assert_non_null(strstr(err.message, "of the script)"));
}

/* Bytes bound as a parameter reach a BLOB column as they are, a zero
 * length included; the value of a name may change between text and
 * bytes. */
static void test_blob_parameters(void **state)
{
    fixture *f = *state;
    exec_ok(f->e, "CREATE TABLE b (k INT64, x BLOB)");
    pier_params *p = pier_params_new();
    pier_error err;
    static const unsigned char bytes[] = { 0x00, 0xff, 0x10, 0x00 };
    assert_int_equal(pier_params_set_text(p, ":x", "a longer text", &err),
                     PIER_OK);
    assert_int_equal(pier_params_set_blob(p, ":x", bytes, sizeof bytes,
                                          &err), PIER_OK);
    assert_int_equal(pier_params_set_int64(p, ":k", 1, &err), PIER_OK);
    pier_cursor_close(run(f->e, "INSERT INTO b VALUES (:k, :x)", p));
    assert_int_equal(pier_params_set_blob(p, ":x", NULL, 0, &err), PIER_OK);
    assert_int_equal(pier_params_set_int64(p, ":k", 2, &err), PIER_OK);
    pier_cursor_close(run(f->e, "INSERT INTO b VALUES (:k, :x)", p));
    assert_int_equal(pier_params_set_blob(p, ":x", NULL, 3, &err),
                     PIER_E_INVALID_ARGUMENT);
    /* A text into a BLOB column is STRICT's refusal. */
    assert_int_equal(pier_params_set_text(p, ":x", "not bytes", &err),
                     PIER_OK);
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO b VALUES (3, :x)", p,
                               &err), PIER_E_COLUMN_TYPE_CONFLICT);
    pier_params_free(p);
    pier_cursor *c = run(f->e, "SELECT x FROM b ORDER BY k", NULL);
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    const pier_value *v = pier_row_value(row, 0);
    assert_int_equal(v->kind, PIER_KIND_BLOB);
    assert_int_equal(v->as.blob.len, sizeof bytes);
    assert_memory_equal(v->as.blob.bytes, bytes, sizeof bytes);
    assert_string_equal(v->text, "00FF1000");
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    v = pier_row_value(row, 0);
    assert_int_equal(v->kind, PIER_KIND_BLOB);
    assert_int_equal(v->as.blob.len, 0);
    assert_string_equal(v->text, "");
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_null(row);
    pier_cursor_close(c);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

/* Foreign keys are named in their errors whichever table comes first: a
 * child declared before its parent, the parent dropped and made again, a
 * column added with a reference, the key's own name or the default. */
static void test_foreign_keys_named(void **state)
{
    fixture *f = *state;
    pier_error err;
    exec_ok(f->e, "CREATE TABLE c (id INT64 PRIMARY KEY, p INT64 "
                  "REFERENCES p(id), q TEXT CONSTRAINT owner REFERENCES "
                  "o); CREATE TABLE p (id INT64 PRIMARY KEY); "
                  "CREATE TABLE o (k TEXT PRIMARY KEY)");
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO c VALUES (1, 5, "
                               "NULL)", NULL, &err),
                     PIER_E_CONSTRAINT_FOREIGN_KEY);
    assert_string_equal(err.message, "FOREIGN KEY c_p_fkey has no p row "
                                     "with 5");
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO c VALUES (1, NULL, "
                               "'x')", NULL, &err),
                     PIER_E_CONSTRAINT_FOREIGN_KEY);
    assert_string_equal(err.message, "FOREIGN KEY owner has no o row with "
                                     "'x'");
    exec_ok(f->e, "INSERT INTO p VALUES (5); INSERT INTO o VALUES ('x'); "
                  "INSERT INTO c VALUES (1, 5, 'x')");
    assert_int_equal(pier_exec(NULL, f->e, "UPDATE p SET id = 6", NULL,
                               &err), PIER_E_CONSTRAINT_FOREIGN_KEY);
    assert_string_equal(err.message, "FOREIGN KEY c_p_fkey: rows of c still "
                                     "reference the p row with 5");
    assert_string_equal(err.board, "p");
    assert_int_equal(pier_exec(NULL, f->e, "DELETE FROM o", NULL, &err),
                     PIER_E_CONSTRAINT_FOREIGN_KEY);
    assert_string_equal(err.message, "FOREIGN KEY owner: rows of c still "
                                     "reference the o row with 'x'");
    /* the parent made again: its triggers with it */
    exec_ok(f->e, "DELETE FROM c; DROP TABLE p; CREATE TABLE p (id INT64 "
                  "PRIMARY KEY); INSERT INTO p VALUES (1); "
                  "INSERT INTO c VALUES (2, 1, NULL)");
    assert_int_equal(pier_exec(NULL, f->e, "DELETE FROM p", NULL, &err),
                     PIER_E_CONSTRAINT_FOREIGN_KEY);
    assert_string_equal(err.message, "FOREIGN KEY c_p_fkey: rows of c still "
                                     "reference the p row with 1");
    /* a column added with a reference; a dropped child frees its parent */
    exec_ok(f->e, "ALTER TABLE p ADD COLUMN up INT64 REFERENCES p");
    assert_int_equal(pier_exec(NULL, f->e, "UPDATE p SET up = 7", NULL,
                               &err), PIER_E_CONSTRAINT_FOREIGN_KEY);
    assert_string_equal(err.message, "FOREIGN KEY p_up_fkey has no p row "
                                     "with 7");
    exec_ok(f->e, "DROP TABLE c; DELETE FROM p");
    assert_int_equal(count_rows(f->e, "p"), 0);
    assert_int_equal(pier_schema_check(f->e, &err), PIER_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_values_carry_their_types),
        T(test_every_type_binds_back),
        T(test_blobs_carry_their_bytes),
        T(test_conflict_names_everything),
        T(test_changes_and_empty_scripts),
        T(test_cursor_write),
        T(test_catalog_ids),
        T(test_second_engine),
        T(test_catalog_after_rollback),
        T(test_statements_after_schema_change),
        T(test_rewritten_names_as_written),
        T(test_schema_drift),
        T(test_format_upgrade),
        T(test_format_2_upgrade),
        T(test_format_3_upgrade),
        T(test_format_4_upgrade),
        T(test_refusals),
        T(test_blob_parameters),
        T(test_foreign_keys_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
