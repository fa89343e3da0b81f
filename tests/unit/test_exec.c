/*
 * test_exec.c: the SQL dialect through the C API (pier_exec and the
 * declared tables' catalog).
 *
 * Values read back carry their kinds and `as` members, bound parameters of
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

/* A lake of format 1 (before declared tables) is upgraded on open. */
static void test_format_upgrade(void **state)
{
    fixture *f = *state;
    fixture_insert(f->e, "b", "{\"id\":\"x\",\"n\":1}");
    pier_close(&f->e);
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
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(f->lake, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st,
                                        NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), 2);
    sqlite3_finalize(st);
    sqlite3_close(db);
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

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_values_carry_their_types),
        T(test_conflict_names_everything),
        T(test_changes_and_empty_scripts),
        T(test_cursor_write),
        T(test_catalog_ids),
        T(test_second_engine),
        T(test_schema_drift),
        T(test_format_upgrade),
        T(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
