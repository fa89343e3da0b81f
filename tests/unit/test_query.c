/*
 * test_query.c: board-scoped queries (pier_query, pier_params, cursors).
 *
 * What a query returns: every column type decoded to its logical value,
 * computed columns by their SQLite value, column names and types. How it
 * binds: every parameter form, and PlaceholderUnbound. How it fails:
 * QueryFailed with the offset in the template, BoardNotFound (creating
 * nothing), InvalidBoardId. Scope: {{board:NAME}} joins when the options
 * name NAME, and the escape table, every entry of which must fail with
 * EntityNotAllowed and leave the lake byte-identical (the lake file is
 * dumped before and after, support/lakedir.h); a few entries also go
 * straight to the lake's prepare step, to show that the authorizer refuses
 * them without the template scan's help. Streaming: 200,000 rows through
 * one row buffer in constant memory, a write committing while a cursor is
 * open, and threads querying beside a writer (tests/e2e/test_tsan.sh can
 * run this program under ThreadSanitizer).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "engine/engine.h"
#include "pier.h"
#include "support/engine_fixture.h"
#include "support/lakedir.h"
#include "support/testlake.h"

#define T0 FIXTURE_NOW
#define T0_TEXT FIXTURE_NOW_TEXT

typedef engine_fixture fixture;

static void ins(pier_engine *e, const char *board, const char *json)
{
    fixture_insert(e, board, json);
}

/* "items": one column of every type, two rows; "other": two rows. */
static void make_boards(pier_engine *e)
{
    static const pier_column_def cols[] = {
        { "flag", "boolean" }, { "tiny", "tinyint" },
        { "small", "smallint" }, { "num", "integer" },
        { "big", "bigint" }, { "huge", "hugeint" }, { "f", "float" },
        { "d", "double" }, { "name", "text" }, { "ts", "timestamp" },
        { "doc", "json" },
    };
    pier_board_options o = PIER_BOARD_OPTIONS_INIT;
    o.columns = cols;
    o.ncolumns = sizeof cols / sizeof *cols;
    pier_error err;
    if (pier_board_create(NULL, e, "items", &o, &err) != PIER_OK)
        fail_msg("create items: %s: %s", err.tag, err.message);
    ins(e, "items",
        "[{\"id\":\"a\",\"flag\":true,\"tiny\":-7,\"small\":300,"
        "\"num\":70000,\"big\":9007199254740993,"
        "\"huge\":170141183460469231731687303715884105727,\"f\":0.1,"
        "\"d\":2.5,\"name\":\"Ann\",\"ts\":\"2026-01-02T03:04:05.5+02:00\","
        "\"doc\":{\"b\":[1,2],\"a\":null}},"
        "{\"id\":\"b\",\"flag\":false,\"big\":-1,\"huge\":-5,"
        "\"name\":\"Bob\",\"state\":\"open\"}]");
    ins(e, "other", "[{\"id\":\"a\",\"v\":1},{\"id\":\"z\",\"v\":2}]");
}

static int setup(void **state)
{
    fixture *f = fixture_open();
    make_boards(f->e);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    return fixture_close(*state);
}

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

/* Runs a query to its end; returns its status and (on success) every
 * row as JSON, one per line, in *out (for free()). */
static pier_status run(pier_engine *e, const char *board, const char *sql,
                       const pier_params *params,
                       const pier_query_options *opts, char **out,
                       pier_error *err)
{
    *out = NULL;
    pier_cursor *c = NULL;
    pier_status rc = pier_query(&c, e, board, sql, params, opts, err);
    if (rc != PIER_OK) {
        assert_null(c);
        return rc;
    }
    size_t len = 0;
    char *text = calloc(1, 1);
    const pier_row *row;
    while ((rc = pier_cursor_next(&row, c, err)) == PIER_OK && row != NULL) {
        char *json = pier_row_to_json(row);
        assert_non_null(json);
        size_t n = strlen(json);
        text = realloc(text, len + n + 2);
        memcpy(text + len, json, n);
        len += n;
        text[len++] = '\n';
        text[len] = '\0';
        pier_free(json);
    }
    pier_cursor_close(c);
    if (rc != PIER_OK) {
        free(text);
        return rc;
    }
    *out = text;
    return PIER_OK;
}

/* Asserts that a query succeeds with exactly these rows. */
static void expect(pier_engine *e, const char *board, const char *sql,
                   const pier_params *params,
                   const pier_query_options *opts, const char *want)
{
    char *got = NULL;
    pier_error err;
    pier_status rc = run(e, board, sql, params, opts, &got, &err);
    if (rc != PIER_OK)
        fail_msg("%s\n  -> %s: %s", sql, err.tag, err.message);
    if (strcmp(got, want) != 0)
        fail_msg("%s\n  got:  %s\n  want: %s", sql, got, want);
    free(got);
}

/* Asserts that a query fails with `status`; returns the error. */
static pier_error expect_fail(pier_engine *e, const char *board,
                              const char *sql, const pier_params *params,
                              const pier_query_options *opts,
                              pier_status status)
{
    char *got = NULL;
    pier_error err;
    pier_status rc = run(e, board, sql, params, opts, &got, &err);
    if (rc != status)
        fail_msg("%s\n  -> %s (%s), want %s%s%s", sql, pier_status_tag(rc),
                 rc == PIER_OK ? "" : err.message, pier_status_tag(status),
                 rc == PIER_OK ? "; rows: " : "", got != NULL ? got : "");
    assert_int_equal(err.status, status);
    free(got);
    return err;
}

static pier_query_options with_other(void)
{
    static const char *const other[] = { "other" };
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    o.with = other;
    o.nwith = 1;
    return o;
}

/* ------------------------------------------------------------------ */
/* Results                                                              */

static void test_every_type_decodes(void **state)
{
    fixture *f = *state;
    pier_cursor *c = NULL;
    pier_error err;
    assert_int_equal(pier_query(&c, f->e, "items",
                                "SELECT * FROM {{board}} WHERE id = 'a'",
                                NULL, NULL, &err), PIER_OK);
    static const char *const names[] = {
        "id", "updated_at", "state", "flag", "tiny", "small", "num", "big",
        "huge", "f", "d", "name", "ts", "doc",
    };
    static const char *const types[] = {
        "text", "timestamp", "text", "boolean", "tinyint", "smallint",
        "integer", "bigint", "hugeint", "float", "double", "text",
        "timestamp", "json",
    };
    assert_int_equal(pier_cursor_column_count(c), 14);   /* no _v */
    for (size_t i = 0; i < 14; i++) {
        assert_string_equal(pier_cursor_column_name(c, i), names[i]);
        assert_string_equal(pier_cursor_column_type(c, i), types[i]);
    }
    assert_null(pier_cursor_column_name(c, 14));
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_non_null(row);
    assert_int_equal(pier_row_column_count(row), 14);
    const pier_value *v = pier_row_find(row, "updated_at");
    assert_int_equal(v->kind, PIER_KIND_TIMESTAMP);
    assert_string_equal(v->text, T0_TEXT);
    assert_int_equal(pier_row_find(row, "state")->kind, PIER_KIND_NULL);
    v = pier_row_find(row, "flag");
    assert_int_equal(v->kind, PIER_KIND_BOOLEAN);
    assert_true(v->as.boolean);
    assert_string_equal(v->text, "true");
    v = pier_row_find(row, "tiny");
    assert_int_equal(v->kind, PIER_KIND_TINYINT);
    assert_int_equal(v->as.integer, -7);
    assert_int_equal(pier_row_find(row, "small")->as.integer, 300);
    assert_int_equal(pier_row_find(row, "num")->kind, PIER_KIND_INTEGER);
    v = pier_row_find(row, "big");
    assert_int_equal(v->kind, PIER_KIND_BIGINT);
    assert_string_equal(v->text, "9007199254740993");
    v = pier_row_find(row, "huge");
    assert_int_equal(v->kind, PIER_KIND_HUGEINT);
    assert_string_equal(v->text, "170141183460469231731687303715884105727");
    assert_int_equal(v->as.hugeint.hi, INT64_MAX);
    v = pier_row_find(row, "f");
    assert_int_equal(v->kind, PIER_KIND_FLOAT);
    assert_string_equal(v->text, "0.1");
    v = pier_row_find(row, "d");
    assert_int_equal(v->kind, PIER_KIND_DOUBLE);
    assert_true(v->as.real == 2.5);
    v = pier_row_find(row, "name");
    assert_int_equal(v->kind, PIER_KIND_TEXT);
    assert_string_equal(v->text, "Ann");
    v = pier_row_find(row, "ts");
    assert_int_equal(v->kind, PIER_KIND_TIMESTAMP);
    assert_string_equal(v->text, "2026-01-02T01:04:05.500000Z");
    v = pier_row_find(row, "doc");
    assert_int_equal(v->kind, PIER_KIND_JSON);
    assert_string_equal(v->text, "{\"a\":null,\"b\":[1,2]}");
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_null(row);
    /* The end is sticky. */
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_null(row);
    pier_cursor_close(c);

    expect(f->e, "items", "SELECT id, flag, huge, ts, doc FROM {{board}} "
           "ORDER BY id", NULL, NULL,
           "{\"id\":\"a\",\"flag\":true,"
           "\"huge\":170141183460469231731687303715884105727,"
           "\"ts\":\"2026-01-02T01:04:05.500000Z\","
           "\"doc\":{\"a\":null,\"b\":[1,2]}}\n"
           "{\"id\":\"b\",\"flag\":false,\"huge\":-5,\"ts\":null,"
           "\"doc\":null}\n");
}

static void test_origins_through_aliases_ctes_subqueries(void **state)
{
    fixture *f = *state;
    static const char *const sqls[] = {
        "SELECT t.ts AS at, t.flag FROM {{board}} AS t WHERE t.id = 'a'",
        "SELECT t.ts AS at, flag FROM {{board}} t WHERE id = 'a'",
        "WITH r AS (SELECT * FROM {{board}}) SELECT r.ts AS at, r.flag "
        "FROM r WHERE r.id = 'a'",
        "SELECT ts AS at, flag FROM (SELECT * FROM {{board}} WHERE id = 'a')",
        "SELECT x.ts AS at, x.flag FROM {{board}} x JOIN {{board}} y "
        "ON y.id = x.id WHERE x.id IN (SELECT id FROM {{board}} "
        "WHERE name = 'Ann')",
        "SELECT ts AS at, flag FROM {{board:items}} WHERE id = 'a'",
    };
    for (size_t i = 0; i < sizeof sqls / sizeof *sqls; i++) {
        pier_cursor *c = NULL;
        pier_error err;
        if (pier_query(&c, f->e, "items", sqls[i], NULL, NULL, &err) !=
            PIER_OK)
            fail_msg("%s: %s: %s", sqls[i], err.tag, err.message);
        assert_string_equal(pier_cursor_column_name(c, 0), "at");
        assert_string_equal(pier_cursor_column_type(c, 0), "timestamp");
        assert_string_equal(pier_cursor_column_type(c, 1), "boolean");
        pier_cursor_close(c);
        expect(f->e, "items", sqls[i], NULL, NULL,
               "{\"at\":\"2026-01-02T01:04:05.500000Z\",\"flag\":true}\n");
    }
}

static void test_computed_columns(void **state)
{
    fixture *f = *state;
    pier_cursor *c = NULL;
    pier_error err;
    assert_int_equal(pier_query(&c, f->e, "items",
        "SELECT count(*) AS n, sum(big) AS s, avg(d) AS a, "
        "max(name) || '!' AS t, NULL AS z, x'00FF10' AS b, 1e999 AS inf, "
        "-1e999 AS ninf, ts + 0 AS micros, flag AND 1 AS both "
        "FROM {{board}} WHERE id = 'a'", NULL, NULL, &err), PIER_OK);
    assert_int_equal(pier_cursor_column_count(c), 10);
    for (size_t i = 0; i < 10; i++)
        assert_null(pier_cursor_column_type(c, i));   /* all computed */
    assert_string_equal(pier_cursor_column_name(c, 0), "n");
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_non_null(row);
    const pier_value *v = pier_row_value(row, 0);
    assert_int_equal(v->kind, PIER_KIND_BIGINT);
    assert_int_equal(v->as.integer, 1);
    v = pier_row_value(row, 1);
    assert_int_equal(v->kind, PIER_KIND_BIGINT);
    assert_string_equal(v->text, "9007199254740993");
    v = pier_row_value(row, 2);
    assert_int_equal(v->kind, PIER_KIND_DOUBLE);
    assert_string_equal(v->text, "2.5");
    v = pier_row_value(row, 3);
    assert_int_equal(v->kind, PIER_KIND_TEXT);
    assert_string_equal(v->text, "Ann!");
    assert_int_equal(pier_row_value(row, 4)->kind, PIER_KIND_NULL);
    v = pier_row_value(row, 5);
    assert_int_equal(v->kind, PIER_KIND_TEXT);
    assert_string_equal(v->text, "00FF10");
    v = pier_row_value(row, 6);
    assert_int_equal(v->kind, PIER_KIND_DOUBLE);
    assert_string_equal(v->text, "9e999");
    assert_string_equal(pier_row_value(row, 7)->text, "-9e999");
    v = pier_row_value(row, 8);
    assert_int_equal(v->kind, PIER_KIND_BIGINT);
    assert_int_equal(v->as.integer, INT64_C(1767315845500000));
    assert_int_equal(pier_row_value(row, 9)->as.integer, 1);
    char *json = pier_row_to_json(row);
    assert_string_equal(json, "{\"n\":1,\"s\":9007199254740993,\"a\":2.5,"
                        "\"t\":\"Ann!\",\"z\":null,\"b\":\"00FF10\","
                        "\"inf\":9e999,\"ninf\":-9e999,"
                        "\"micros\":1767315845500000,\"both\":1}");
    pier_free(json);
    pier_cursor_close(c);

    /* A compound SELECT takes its column's origin from its first arm; a
     * value of another arm reads as its SQLite value. */
    expect(f->e, "items", "SELECT ts FROM {{board}} WHERE id = 'a' "
           "UNION ALL SELECT 'not a time' UNION ALL SELECT 5.5 "
           "UNION ALL SELECT 5", NULL, NULL,
           "{\"ts\":\"2026-01-02T01:04:05.500000Z\"}\n"
           "{\"ts\":\"not a time\"}\n{\"ts\":5.5}\n"
           "{\"ts\":\"1970-01-01T00:00:00.000005Z\"}\n");
    /* Keywords of writes are fine in literals and quoted names, and
     * replace() is a function. */
    expect(f->e, "items", "SELECT replace(name, 'A', 'a') AS \"update\", "
           "'delete' AS \"drop\" FROM {{board}} WHERE id = 'a'", NULL,
           NULL, "{\"update\":\"ann\",\"drop\":\"delete\"}\n");
    /* Table-valued JSON functions read only their arguments. */
    expect(f->e, "items", "SELECT j.value AS v FROM {{board}} AS t, "
           "json_each(t.doc, '$.b') AS j WHERE t.id = 'a'", NULL, NULL,
           "{\"v\":1}\n{\"v\":2}\n");
    /* Recursive CTEs, window functions, JSON and date functions. */
    expect(f->e, "items", "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
           "SELECT i + 1 FROM n WHERE i < 3) SELECT i, "
           "row_number() OVER (ORDER BY i DESC) AS r, "
           "json_object('i', i) ->> '$.i' AS j, "
           "date('2026-01-01', '+' || i || ' days') AS d FROM n", NULL,
           NULL,
           "{\"i\":3,\"r\":1,\"j\":3,\"d\":\"2026-01-04\"}\n"
           "{\"i\":2,\"r\":2,\"j\":2,\"d\":\"2026-01-03\"}\n"
           "{\"i\":1,\"r\":3,\"j\":1,\"d\":\"2026-01-02\"}\n");
}

static void test_placeholders_only_in_code(void **state)
{
    fixture *f = *state;
    /* In a string literal, a quoted identifier or a comment a placeholder
     * is text. */
    expect(f->e, "items", "SELECT '{{board}}' AS s, 'it''s {{board:x}}' AS "
           "t /* {{board:nope}} */ -- {{board:nope}}\n", NULL, NULL,
           "{\"s\":\"{{board}}\",\"t\":\"it's {{board:x}}\"}\n");
    pier_cursor *c = NULL;
    pier_error err;
    assert_int_equal(pier_query(&c, f->e, "items",
                                "SELECT 1 AS \"{{board}}\", 2 AS [{{board}}],"
                                " 3 AS `{{board:zz}}`", NULL, NULL, &err),
                     PIER_OK);
    assert_string_equal(pier_cursor_column_name(c, 0), "{{board}}");
    assert_string_equal(pier_cursor_column_name(c, 1), "{{board}}");
    assert_string_equal(pier_cursor_column_name(c, 2), "{{board:zz}}");
    pier_cursor_close(c);
    /* A placeholder is a table name, qualified names included. */
    expect(f->e, "items", "SELECT {{board}}.id FROM {{board}} WHERE "
           "{{board}}.id = 'a'", NULL, NULL, "{\"id\":\"a\"}\n");
    expect(f->e, "items", "VALUES (1, 'x')", NULL, NULL,
           "{\"column1\":1,\"column2\":\"x\"}\n");
    /* Placeholders touching other tokens stay tokens of their own. */
    expect(f->e, "items", "SELECT count(*) AS n FROM{{board}}WHERE id='a'",
           NULL, NULL, "{\"n\":1}\n");
    /* Not a placeholder: left to SQLite, which cannot parse it. */
    pier_error e = expect_fail(f->e, "items", "SELECT * FROM {{ board }}",
                               NULL, NULL, PIER_E_QUERY_FAILED);
    assert_int_equal(e.offset, 14);
    /* A quoted "{{board}}" is a name, not a placeholder. */
    expect_fail(f->e, "items", "SELECT * FROM \"{{board}}\"", NULL, NULL,
                PIER_E_QUERY_FAILED);
}

/* ------------------------------------------------------------------ */
/* Parameters                                                           */

static void test_parameter_forms(void **state)
{
    fixture *f = *state;
    pier_params *p = pier_params_new();
    assert_non_null(p);
    pier_error err;
    assert_int_equal(pier_params_set_text(p, ":c", "a", &err), PIER_OK);
    assert_int_equal(pier_params_set_text(p, "$d", "a", &err), PIER_OK);
    assert_int_equal(pier_params_set_text(p, "@e", "a", &err), PIER_OK);
    assert_int_equal(pier_params_set_text(p, "?1", "a", &err), PIER_OK);
    assert_int_equal(pier_params_set_text(p, "2", "b", &err), PIER_OK);
    assert_int_equal(pier_params_set_text(p, "bare", "b", &err), PIER_OK);
    static const struct { const char *sql, *want; } cases[] = {
        { "SELECT id FROM {{board}} WHERE id = :c", "{\"id\":\"a\"}\n" },
        { "SELECT id FROM {{board}} WHERE id = $d", "{\"id\":\"a\"}\n" },
        { "SELECT id FROM {{board}} WHERE id = @e", "{\"id\":\"a\"}\n" },
        { "SELECT id FROM {{board}} WHERE id = ?1", "{\"id\":\"a\"}\n" },
        { "SELECT id FROM {{board}} WHERE id IN (?, ?) ORDER BY id",
          "{\"id\":\"a\"}\n{\"id\":\"b\"}\n" },
        { "SELECT id FROM {{board}} WHERE id = ?2", "{\"id\":\"b\"}\n" },
        { "SELECT id FROM {{board}} WHERE id = :bare", "{\"id\":\"b\"}\n" },
        { "SELECT id FROM {{board}} WHERE id = $bare", "{\"id\":\"b\"}\n" },
        { "SELECT id FROM {{board}} WHERE id = @bare", "{\"id\":\"b\"}\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        expect(f->e, "items", cases[i].sql, p, NULL, cases[i].want);

    /* The exact spelling wins over a bare name; setting again replaces. */
    assert_int_equal(pier_params_set_text(p, ":bare", "a", &err), PIER_OK);
    expect(f->e, "items", "SELECT id FROM {{board}} WHERE id = :bare", p,
           NULL, "{\"id\":\"a\"}\n");
    expect(f->e, "items", "SELECT id FROM {{board}} WHERE id = @bare", p,
           NULL, "{\"id\":\"b\"}\n");
    assert_int_equal(pier_params_set_text(p, "1", "b", &err), PIER_OK);
    expect(f->e, "items", "SELECT id FROM {{board}} WHERE id = ?1", p,
           NULL, "{\"id\":\"b\"}\n");

    /* Typed values bind as themselves. */
    assert_int_equal(pier_params_set_int64(p, ":i", 70000, &err), PIER_OK);
    assert_int_equal(pier_params_set_double(p, ":x", 2.5, &err), PIER_OK);
    assert_int_equal(pier_params_set_bool(p, ":t", true, &err), PIER_OK);
    assert_int_equal(pier_params_set_null(p, ":n", &err), PIER_OK);
    expect(f->e, "items", "SELECT id, :n IS NULL AS unset FROM {{board}} "
           "WHERE num = :i AND d = :x AND flag = :t", p, NULL,
           "{\"id\":\"a\",\"unset\":1}\n");
    /* A value is bound, never spliced. */
    assert_int_equal(pier_params_set_text(p, ":c", "a' OR '1'='1", &err),
                     PIER_OK);
    expect(f->e, "items", "SELECT id FROM {{board}} WHERE id = :c", p, NULL,
           "");
    pier_params_free(p);
}

/* One set reused across queries, as a loop of lookups does: each query
 * binds the values set when it ran, whether a new value was copied into
 * the old one's buffer or into a new one, and a change after pier_query
 * does not reach a cursor already open. */
static void test_params_reused_across_queries(void **state)
{
    fixture *f = *state;
    pier_params *p = pier_params_new();
    assert_non_null(p);
    pier_error err;
    const char *by_id = "SELECT id FROM {{board}} WHERE id = :id";
    assert_int_equal(pier_params_set_text(p, ":id", "a", &err), PIER_OK);
    expect(f->e, "items", by_id, p, NULL, "{\"id\":\"a\"}\n");
    assert_int_equal(pier_params_set_text(p, ":id", "b", &err), PIER_OK);
    expect(f->e, "items", by_id, p, NULL, "{\"id\":\"b\"}\n");
    assert_int_equal(pier_params_set_text(p, ":id", "a longer id than the "
                                          "buffer had room for", &err),
                     PIER_OK);
    expect(f->e, "items", by_id, p, NULL, "");
    assert_int_equal(pier_params_set_text(p, ":id", "", &err), PIER_OK);
    expect(f->e, "items", by_id, p, NULL, "");
    assert_int_equal(pier_params_set_int64(p, ":id", 1, &err), PIER_OK);
    expect(f->e, "items", by_id, p, NULL, "");
    assert_int_equal(pier_params_set_text(p, ":id", "a", &err), PIER_OK);
    expect(f->e, "items", by_id, p, NULL, "{\"id\":\"a\"}\n");

    /* The name is compared on every row; "Bob" is copied over "Zed" in
     * place while the cursor is open. */
    assert_int_equal(pier_params_set_text(p, ":x", "Zed", &err), PIER_OK);
    pier_cursor *c = NULL;
    assert_int_equal(pier_query(&c, f->e, "items", "SELECT id FROM "
                                "{{board}} WHERE name <> :x", p, NULL, &err),
                     PIER_OK);
    assert_int_equal(pier_params_set_text(p, ":x", "Bob", &err), PIER_OK);
    const pier_row *row = NULL;
    int rows = 0;
    while (pier_cursor_next(&row, c, &err) == PIER_OK && row != NULL)
        rows++;
    assert_int_equal(err.status, PIER_OK);
    assert_int_equal(rows, 2);
    pier_cursor_close(c);
    expect(f->e, "items", "SELECT id FROM {{board}} WHERE name <> :x", p,
           NULL, "{\"id\":\"a\"}\n");
    pier_params_free(p);
}

/* A cached statement keeps no value of an earlier query: a parameter the
 * next query does not set is unbound, not the old value. */
static void test_bindings_do_not_outlive_their_query(void **state)
{
    fixture *f = *state;
    const char *sql = "SELECT :v AS v, ?2 AS w";
    pier_params *p = pier_params_new();
    pier_error err;
    assert_int_equal(pier_params_set_text(p, ":v", "x", &err), PIER_OK);
    assert_int_equal(pier_params_set_int64(p, "2", 7, &err), PIER_OK);
    expect(f->e, "items", sql, p, NULL, "{\"v\":\"x\",\"w\":7}\n");
    pier_params *q = pier_params_new();
    assert_int_equal(pier_params_set_null(q, ":v", &err), PIER_OK);
    pier_error e = expect_fail(f->e, "items", sql, q, NULL,
                               PIER_E_PLACEHOLDER_UNBOUND);
    assert_string_equal(e.column, "?2");
    e = expect_fail(f->e, "items", sql, NULL, NULL,
                    PIER_E_PLACEHOLDER_UNBOUND);
    assert_string_equal(e.column, ":v");
    assert_int_equal(pier_params_set_text(q, "2", "y", &err), PIER_OK);
    expect(f->e, "items", sql, q, NULL, "{\"v\":null,\"w\":\"y\"}\n");
    expect(f->e, "items", sql, p, NULL, "{\"v\":\"x\",\"w\":7}\n");
    pier_params_free(q);
    pier_params_free(p);
}

/* A closed cursor is reused by the next query: nothing of the earlier
 * query's columns shows through, and cursors open together are never the
 * same one. */
static void test_cursors_reused_start_afresh(void **state)
{
    fixture *f = *state;
    pier_error err;
    pier_cursor *wide = NULL;
    assert_int_equal(pier_query(&wide, f->e, "items", "SELECT * FROM "
                                "{{board}} WHERE id = 'a'", NULL, NULL,
                                &err), PIER_OK);
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, wide, &err), PIER_OK);
    assert_non_null(row);
    pier_cursor_close(wide);

    pier_cursor *c = NULL, *d = NULL;
    assert_int_equal(pier_query(&c, f->e, "items", "SELECT 1 AS one, ts "
                                "FROM {{board}} ORDER BY id", NULL, NULL,
                                &err), PIER_OK);
    assert_int_equal(pier_query(&d, f->e, "items", "SELECT name FROM "
                                "{{board}} ORDER BY id", NULL, NULL, &err),
                     PIER_OK);
    assert_ptr_not_equal(c, d);
    assert_int_equal(pier_cursor_column_count(c), 2);
    assert_null(pier_cursor_column_type(c, 0));
    assert_string_equal(pier_cursor_column_type(c, 1), "timestamp");
    assert_null(pier_cursor_column_name(c, 2));
    assert_string_equal(pier_cursor_column_type(d, 0), "text");
    const pier_row *rc = NULL, *rd = NULL;
    assert_int_equal(pier_cursor_next(&rc, c, &err), PIER_OK);
    assert_int_equal(pier_cursor_next(&rd, d, &err), PIER_OK);
    assert_int_equal(pier_row_column_count(rc), 2);
    assert_int_equal(pier_row_value(rc, 0)->kind, PIER_KIND_BIGINT);
    assert_string_equal(pier_row_value(rc, 1)->text,
                        "2026-01-02T01:04:05.500000Z");
    assert_string_equal(pier_row_value(rd, 0)->text, "Ann");
    assert_int_equal(pier_cursor_next(&rc, c, &err), PIER_OK);
    assert_int_equal(pier_cursor_next(&rd, d, &err), PIER_OK);
    assert_int_equal(pier_row_value(rc, 1)->kind, PIER_KIND_NULL);
    assert_string_equal(pier_row_value(rd, 0)->text, "Bob");
    pier_cursor_close(d);
    pier_cursor_close(c);
}

/* A repeated template skips the scan, but only with the same boards: what
 * {{board:NAME}} may name depends on them, and a refusal is never
 * remembered. */
static void test_template_remembered_with_its_boards(void **state)
{
    fixture *f = *state;
    const char *sql = "SELECT id FROM {{board:other}} ORDER BY id";
    pier_query_options o = with_other();
    for (int i = 0; i < 2; i++) {
        expect(f->e, "items", sql, NULL, &o,
               "{\"id\":\"a\"}\n{\"id\":\"z\"}\n");
        pier_error e = expect_fail(f->e, "items", sql, NULL, NULL,
                                   PIER_E_ENTITY_NOT_ALLOWED);
        assert_string_equal(e.board, "other");
        assert_int_equal(e.offset, 15);
    }
    /* The same text for another board reads that board. */
    expect(f->e, "other", "SELECT id FROM {{board}} WHERE id = 'a'", NULL,
           NULL, "{\"id\":\"a\"}\n");
    expect(f->e, "items", "SELECT id FROM {{board}} WHERE id = 'a'", NULL,
           NULL, "{\"id\":\"a\"}\n");
    expect(f->e, "other", "SELECT id FROM {{board}} WHERE id = 'z'", NULL,
           NULL, "{\"id\":\"z\"}\n");
    expect(f->e, "items", "SELECT id FROM {{board}} WHERE id = 'z'", NULL,
           NULL, "");
    /* A template that begins another, or is begun by it, is another. */
    expect(f->e, "items", "SELECT id FROM {{board}} WHERE id = 'a'", NULL,
           NULL, "{\"id\":\"a\"}\n");
    expect(f->e, "items", "SELECT id FROM {{board}}", NULL, NULL,
           "{\"id\":\"a\"}\n{\"id\":\"b\"}\n");
    expect(f->e, "items", "SELECT id FROM {{board}} WHERE id = 'b'", NULL,
           NULL, "{\"id\":\"b\"}\n");
    expect_fail(f->e, "items", "SELECT id FROM {{board}} WHERE id = 'b'; "
                "DROP TABLE x", NULL, NULL, PIER_E_ENTITY_NOT_ALLOWED);
}

/* Checks one row of "SELECT id, ts FROM {{board}} WHERE id = :id" for
 * id a: its columns' types and values. */
static void expect_typed_a(pier_engine *e, const pier_params *p)
{
    pier_cursor *c = NULL;
    pier_error err;
    assert_int_equal(pier_query(&c, e, "items", "SELECT id, ts FROM "
                                "{{board}} WHERE id = :id", p, NULL, &err),
                     PIER_OK);
    assert_int_equal(pier_cursor_column_count(c), 2);
    assert_string_equal(pier_cursor_column_name(c, 1), "ts");
    assert_string_equal(pier_cursor_column_type(c, 1), "timestamp");
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_non_null(row);
    assert_int_equal(pier_row_value(row, 1)->kind, PIER_KIND_TIMESTAMP);
    assert_string_equal(pier_row_value(row, 1)->text,
                        "2026-01-02T01:04:05.500000Z");
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_null(row);
    pier_cursor_close(c);
}

/* A query run again uses what its last compile made only while nothing
 * it depends on changed: other templates compiled in between (on the same
 * reader or another, one of them failing after compiling), cursors held
 * open, a column added. */
static void test_compiled_query_reused_only_while_valid(void **state)
{
    fixture *f = *state;
    pier_params *p = pier_params_new();
    pier_error err;
    assert_int_equal(pier_params_set_text(p, ":id", "a", &err), PIER_OK);
    expect_typed_a(f->e, p);
    expect_typed_a(f->e, p);
    /* Another template on the same reader, failing after it compiled. */
    expect_fail(f->e, "items", "SELECT name FROM {{board}} WHERE id = :x",
                p, NULL, PIER_E_PLACEHOLDER_UNBOUND);
    expect_typed_a(f->e, p);
    /* Cursors held open: the next queries take other readers. */
    pier_cursor *held = NULL, *held2 = NULL;
    assert_int_equal(pier_query(&held, f->e, "items", "SELECT * FROM "
                                "{{board}}", NULL, NULL, &err), PIER_OK);
    expect_typed_a(f->e, p);
    assert_int_equal(pier_query(&held2, f->e, "items", "SELECT flag FROM "
                                "{{board}} WHERE id = 'b'", NULL, NULL,
                                &err), PIER_OK);
    expect_fail(f->e, "items", "SELECT huge, ts FROM {{board}} WHERE id = "
                ":missing", p, NULL, PIER_E_PLACEHOLDER_UNBOUND);
    expect_typed_a(f->e, p);
    pier_cursor_close(held);
    expect_typed_a(f->e, p);
    pier_cursor_close(held2);
    expect_typed_a(f->e, p);
    /* A column added by this engine: SELECT * shows it at once. */
    const char *all = "SELECT * FROM {{board:other}} WHERE id = 'z'";
    pier_query_options o = with_other();
    expect(f->e, "items", all, NULL, &o,
           "{\"id\":\"z\",\"updated_at\":\"" T0_TEXT "\",\"state\":null,"
           "\"v\":2}\n");
    ins(f->e, "other", "{\"id\":\"y\",\"w\":true}");
    expect(f->e, "items", all, NULL, &o,
           "{\"id\":\"z\",\"updated_at\":\"" T0_TEXT "\",\"state\":null,"
           "\"v\":2,\"w\":null}\n");
    expect_typed_a(f->e, p);
    pier_params_free(p);
}

static void test_parameters_from_json(void **state)
{
    fixture *f = *state;
    pier_params *p = pier_params_new();
    pier_error err;
    const char *obj = "{\"id\":\"a\",\"big\":9007199254740993,\"d\":2.5,"
                      "\"flag\":true,\"none\":null,\"doc\":{\"b\":[1,2],"
                      "\"a\":null}}";
    assert_int_equal(pier_params_set_json(p, obj, strlen(obj), &err),
                     PIER_OK);
    expect(f->e, "items", "SELECT id FROM {{board}} WHERE id = :id AND "
           "big = $big AND d = @d AND flag = :flag AND :none IS NULL AND "
           "doc = :doc", p, NULL, "{\"id\":\"a\"}\n");
    pier_params_free(p);

    p = pier_params_new();
    const char *arr = "[\"b\", -1]";
    assert_int_equal(pier_params_set_json(p, arr, strlen(arr), &err),
                     PIER_OK);
    expect(f->e, "items", "SELECT id FROM {{board}} WHERE id = ?1 AND "
           "big = ?2", p, NULL, "{\"id\":\"b\"}\n");
    expect(f->e, "items", "SELECT id FROM {{board}} WHERE id = ? AND "
           "big = ?", p, NULL, "{\"id\":\"b\"}\n");
    pier_params_free(p);
}

/* Thousands of parameters: each found by its own key, set again in place,
 * merged from JSON, named, prefixed and numbered alike. */
static void test_many_parameters(void **state)
{
    (void)state;
    pier_params *p = pier_params_new();
    pier_error err;
    char name[32];
    for (int i = 0; i < 3000; i++) {
        snprintf(name, sizeof name, ":p%d", i);
        assert_int_equal(pier_params_set_int64(p, name, i, &err), PIER_OK);
        snprintf(name, sizeof name, "%d", i + 1);
        assert_int_equal(pier_params_set_int64(p, name, -i, &err), PIER_OK);
    }
    for (int i = 0; i < 3000; i += 7) {
        snprintf(name, sizeof name, ":p%d", i);
        assert_int_equal(pier_params_set_int64(p, name, 10 * i, &err),
                         PIER_OK);
    }
    const char *doc = "{\"p5\":\"bare\",\":p6\":\"six\",\"$q\":1}";
    assert_int_equal(pier_params_set_json(p, doc, strlen(doc), &err),
                     PIER_OK);
    for (int i = 0; i < 3000; i++) {
        snprintf(name, sizeof name, ":p%d", i);
        const pier__cell *c = pier__params_find(p, name, 0);
        assert_non_null(c);
        if (i == 6) {
            assert_int_equal(c->st, PIER__ST_TEXT);
            continue;
        }
        assert_int_equal(c->i, i % 7 == 0 ? 10 * i : i);
        snprintf(name, sizeof name, "?%d", i + 1);
        assert_int_equal(pier__params_find(p, name, 0)->i, -i);
        assert_int_equal(pier__params_find(p, NULL, i + 1)->i, -i);
    }
    /* a bare name binds any prefix; the exact spelling wins */
    assert_string_equal(pier__params_find(p, "$p5", 0)->p, "bare");
    assert_int_equal(pier__params_find(p, ":p5", 0)->i, 5);
    assert_non_null(pier__params_find(p, "$q", 0));
    assert_null(pier__params_find(p, ":q", 0));
    assert_null(pier__params_find(p, "?3001", 0));
    pier_params_free(p);
}

static void test_params_refusals(void **state)
{
    (void)state;
    pier_params *p = pier_params_new();
    pier_error err;
    static const char *const bad[] = { "", "?", "?0", "0", ":", "$", "@",
                                       "a b", "?x", "1x" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(pier_params_set_int64(p, bad[i], 1, &err),
                         PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_params_set_text(p, NULL, "x", &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_params_set_text(p, ":a", NULL, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_params_set_text(p, ":a", "\xff", &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_params_set_double(p, ":a", 1.0 / 0.0, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_params_set_json(p, "{\"a\":", 5, &err),
                     PIER_E_INVALID_JSON);
    assert_int_equal(err.offset, 5);
    assert_int_equal(pier_params_set_json(p, "5", 1, &err),
                     PIER_E_INVALID_ARGUMENT);
    /* A failed JSON set changes nothing: "?0" is refused after "a". */
    const char *half = "{\"a\":1,\"?0\":2}";
    assert_int_equal(pier_params_set_json(p, half, strlen(half), &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_null(pier__params_find(p, ":a", 1));
    assert_int_equal(pier_params_set_int64(NULL, ":a", 1, &err),
                     PIER_E_INVALID_ARGUMENT);
    pier_params_free(p);
    pier_params_free(NULL);
}

static void test_placeholder_unbound(void **state)
{
    fixture *f = *state;
    pier_params *p = pier_params_new();
    pier_error err;
    assert_int_equal(pier_params_set_text(p, ":id", "a", &err), PIER_OK);
    pier_error e = expect_fail(f->e, "items", "SELECT * FROM {{board}} "
                               "WHERE id = :id AND name = :missing", p,
                               NULL, PIER_E_PLACEHOLDER_UNBOUND);
    assert_string_equal(e.column, ":missing");
    assert_non_null(strstr(e.message, ":missing"));
    /* $missing is not :missing with another prefix set. */
    e = expect_fail(f->e, "items", "SELECT * FROM {{board}} WHERE id = "
                    "$id", NULL, NULL, PIER_E_PLACEHOLDER_UNBOUND);
    assert_string_equal(e.column, "$id");
    e = expect_fail(f->e, "items", "SELECT * FROM {{board}} WHERE id = ?1 "
                    "OR id = ?", p, NULL, PIER_E_PLACEHOLDER_UNBOUND);
    assert_string_equal(e.column, "?1");
    e = expect_fail(f->e, "items", "SELECT :id, ?", p, NULL,
                    PIER_E_PLACEHOLDER_UNBOUND);
    assert_string_equal(e.column, "?2");
    pier_params_free(p);
}

/* ------------------------------------------------------------------ */
/* Failures                                                             */

static void test_query_failed_with_offset(void **state)
{
    fixture *f = *state;
    const char *sql = "SELECT * FROM {{board}} AS t WHERE t.id = = 1";
    pier_error e = expect_fail(f->e, "items", sql, NULL, NULL,
                               PIER_E_QUERY_FAILED);
    /* The offset is the template's, not the expanded text's. */
    assert_int_equal(e.offset, strstr(sql, "= 1") - sql);
    assert_non_null(strstr(e.message, "syntax error"));
    assert_int_not_equal(e.backend_code, 0);
    sql = "SELEC * FROM {{board}}";
    e = expect_fail(f->e, "items", sql, NULL, NULL, PIER_E_QUERY_FAILED);
    assert_int_equal(e.offset, 0);
    assert_non_null(strstr(e.message, "(at byte 0 of the query)"));
    e = expect_fail(f->e, "items", "SELECT nope FROM {{board}}", NULL, NULL,
                    PIER_E_QUERY_FAILED);
    assert_non_null(strstr(e.message, "no such column: nope"));
    /* A missing table that is no board is a typo, not an escape. */
    e = expect_fail(f->e, "items", "SELECT * FROM nope", NULL, NULL,
                    PIER_E_QUERY_FAILED);
    assert_non_null(strstr(e.message, "no such table: nope"));
    assert_string_equal(e.board, "");
    expect_fail(f->e, "items", "", NULL, NULL, PIER_E_QUERY_FAILED);
    expect_fail(f->e, "items", "  -- nothing\n", NULL, NULL,
                PIER_E_QUERY_FAILED);
    /* _v is not a column of a board. */
    expect_fail(f->e, "items", "SELECT _v FROM {{board}}", NULL, NULL,
                PIER_E_QUERY_FAILED);
    expect_fail(f->e, "items", "SELECT t._v FROM {{board}} t", NULL, NULL,
                PIER_E_QUERY_FAILED);
    /* Nor is the physical rowid. */
    expect_fail(f->e, "items", "SELECT rowid FROM {{board}}", NULL, NULL,
                PIER_E_ENTITY_NOT_ALLOWED);
    expect_fail(f->e, "items", "SELECT t.oid FROM {{board}} t", NULL, NULL,
                PIER_E_ENTITY_NOT_ALLOWED);
    /* ... unless a column of the board has that name. */
    ins(f->e, "named", "{\"id\":\"n\",\"ROWID\":7}");
    expect(f->e, "named", "SELECT rowid AS r FROM {{board}}", NULL, NULL,
           "{\"r\":7}\n");
}

static void test_board_not_found(void **state)
{
    fixture *f = *state;
    char *before = testlake_dump(f->dir);
    pier_error e = expect_fail(f->e, "nope", "SELECT * FROM {{board}}",
                               NULL, NULL, PIER_E_BOARD_NOT_FOUND);
    assert_string_equal(e.board, "nope");
    expect_fail(f->e, "nope", "SELECT 1", NULL, NULL,
                PIER_E_BOARD_NOT_FOUND);
    static const char *const w[] = { "missing" };
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    o.with = w;
    o.nwith = 1;
    e = expect_fail(f->e, "items", "SELECT * FROM {{board:missing}}", NULL,
                    &o, PIER_E_BOARD_NOT_FOUND);
    assert_string_equal(e.board, "missing");
    bool has = true;
    pier_error err;
    assert_int_equal(pier_board_has(&has, f->e, "nope", &err), PIER_OK);
    assert_false(has);
    assert_int_equal(pier_board_has(&has, f->e, "missing", &err), PIER_OK);
    assert_false(has);
    char *after = testlake_dump(f->dir);
    assert_string_equal(before, after);
    free(before);
    free(after);
}

static void test_invalid_arguments(void **state)
{
    fixture *f = *state;
    expect_fail(f->e, "Items", "SELECT 1", NULL, NULL,
                PIER_E_INVALID_BOARD_ID);
    expect_fail(f->e, "", "SELECT 1", NULL, NULL, PIER_E_INVALID_BOARD_ID);
    expect_fail(f->e, NULL, "SELECT 1", NULL, NULL, PIER_E_INVALID_BOARD_ID);
    static const char *const w[] = { "bad-id" };
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    o.with = w;
    o.nwith = 1;
    expect_fail(f->e, "items", "SELECT 1", NULL, &o,
                PIER_E_INVALID_BOARD_ID);
    o = (pier_query_options)PIER_QUERY_OPTIONS_INIT;
    o.version = 99;
    expect_fail(f->e, "items", "SELECT 1", NULL, &o,
                PIER_E_INVALID_ARGUMENT);
    o = (pier_query_options)PIER_QUERY_OPTIONS_INIT;
    o.nwith = 2;
    expect_fail(f->e, "items", "SELECT 1", NULL, &o,
                PIER_E_INVALID_ARGUMENT);
    pier_cursor *c = NULL;
    pier_error err;
    assert_int_equal(pier_query(&c, f->e, "items", NULL, NULL, NULL, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_query(NULL, f->e, "items", "SELECT 1", NULL, NULL,
                                &err), PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_query(&c, NULL, "items", "SELECT 1", NULL, NULL,
                                &err), PIER_E_INVALID_ARGUMENT);
    const pier_row *row;
    assert_int_equal(pier_cursor_next(&row, NULL, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_cursor_column_count(NULL), 0);
    pier_cursor_close(NULL);
}

static void test_min_watermark(void **state)
{
    fixture *f = *state;
    int64_t head = pier_head(f->e);
    assert_true(head > 0);
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    o.min_watermark = head;
    expect(f->e, "items", "SELECT count(*) AS n FROM {{board}}", NULL, &o,
           "{\"n\":2}\n");
    o.min_watermark = head + 1;
    pier_error e = expect_fail(f->e, "items", "SELECT 1", NULL, &o,
                               PIER_E_INVALID_ARGUMENT);
    assert_non_null(strstr(e.message, "never handed out"));
    o.min_watermark = -1;
    expect_fail(f->e, "items", "SELECT 1", NULL, &o,
                PIER_E_INVALID_ARGUMENT);
    /* A write's own watermark reads that write. */
    int64_t wm = 0;
    pier_error err;
    assert_int_equal(pier_insert_json(&wm, f->e, "items", "{\"id\":\"c\"}",
                                      10, &err), PIER_OK);
    o.min_watermark = wm;
    expect(f->e, "items", "SELECT id FROM {{board}} WHERE id = 'c'", NULL,
           &o, "{\"id\":\"c\"}\n");
}

static void test_queries_are_counted(void **state)
{
    fixture *f = *state;
    pier_stats s;
    pier_error err;
    assert_int_equal(pier_stats_get(&s, f->e, &err), PIER_OK);
    int64_t before = s.queries;
    expect(f->e, "items", "SELECT 1 AS one", NULL, NULL, "{\"one\":1}\n");
    expect_fail(f->e, "items", "SELECT * FROM sqlite_master", NULL, NULL,
                PIER_E_ENTITY_NOT_ALLOWED);
    assert_int_equal(pier_stats_get(&s, f->e, &err), PIER_OK);
    assert_int_equal(s.queries, before + 1);
}

static void test_query_inside_own_transaction_refused(void **state)
{
    fixture *f = *state;
    pier_tx *tx = NULL;
    pier_error err;
    static const char *const b[] = { "items" };
    assert_int_equal(pier_tx_begin(&tx, f->e, b, 1, &err), PIER_OK);
    pier_cursor *c = NULL;
    assert_int_equal(pier_query(&c, f->e, "items", "SELECT 1", NULL, NULL,
                                &err), PIER_E_INVALID_ARGUMENT);
    assert_null(c);
    pier_tx_rollback(tx);
    expect(f->e, "items", "SELECT 1 AS one", NULL, NULL, "{\"one\":1}\n");
}

/* ------------------------------------------------------------------ */
/* Scope                                                                */

static void test_join_named_boards(void **state)
{
    fixture *f = *state;
    pier_query_options o = with_other();
    const char *join = "SELECT a.id, a.name, b.v FROM {{board}} AS a "
                       "JOIN {{board:other}} AS b ON b.id = a.id";
    expect(f->e, "items", join, NULL, &o,
           "{\"id\":\"a\",\"name\":\"Ann\",\"v\":1}\n");
    pier_cursor *c = NULL;
    pier_error err;
    assert_int_equal(pier_query(&c, f->e, "items", join, NULL, &o, &err),
                     PIER_OK);
    assert_string_equal(pier_cursor_column_type(c, 1), "text");
    assert_string_equal(pier_cursor_column_type(c, 2), "bigint");
    pier_cursor_close(c);
    expect(f->e, "items", "SELECT id FROM {{board:other}} EXCEPT "
           "SELECT id FROM {{board}}", NULL, &o, "{\"id\":\"z\"}\n");
    /* The same text without the option: refused, not run. */
    char *before = testlake_dump(f->dir);
    pier_error e = expect_fail(f->e, "items", join, NULL, NULL,
                               PIER_E_ENTITY_NOT_ALLOWED);
    assert_string_equal(e.board, "other");
    /* Once the reader has "other"'s view, a statement cached with it is
     * still refused without the option. */
    e = expect_fail(f->e, "items", "SELECT id FROM {{board:other}}", NULL,
                    NULL, PIER_E_ENTITY_NOT_ALLOWED);
    char *after = testlake_dump(f->dir);
    assert_string_equal(before, after);
    free(before);
    free(after);
}

typedef struct escape {
    const char *sql;
    pier_status status;   /* EntityNotAllowed, or QueryFailed where SQLite
                             cannot parse the text at all */
} escape;

#define NA PIER_E_ENTITY_NOT_ALLOWED
static const escape escapes[] = {
    /* other boards by their own name, which is no table on a reader */
    { "SELECT * FROM other", NA },
    { "SELECT * FROM \"Other\"", NA },
    { "SELECT * FROM main.other", NA },
    { "SELECT * FROM {{board}} JOIN temp.other USING (id)", NA },
    /* other boards by physical name */
    { "SELECT * FROM _pier_b_other", NA },
    { "SELECT * FROM \"_pier_b_other\"", NA },
    { "SELECT * FROM [_pier_b_other]", NA },
    { "SELECT * FROM `_pier_b_other`", NA },
    { "SELECT * FROM _PIER_B_OTHER", NA },
    { "SELECT * FROM \"_Pier_B_Other\"", NA },
    { "SELECT * FROM main._pier_b_other", NA },
    { "SELECT * FROM main.\"_pier_b_other\"", NA },
    { "SELECT * FROM {{board}} WHERE id IN (SELECT id FROM _pier_b_other)",
      NA },
    { "SELECT _v FROM _pier_b_items", NA },
    /* the catalog and the change log */
    { "SELECT * FROM _pier_boards", NA },
    { "SELECT * FROM _pier_columns", NA },
    { "SELECT * FROM _pier_changes", NA },
    { "SELECT * FROM _pier_meta", NA },
    { "SELECT count(*) FROM main._pier_changes", NA },
    /* SQLite's own tables */
    { "SELECT * FROM sqlite_master", NA },
    { "SELECT * FROM sqlite_schema", NA },
    { "SELECT * FROM sqlite_temp_master", NA },
    { "SELECT * FROM sqlite_temp_schema", NA },
    { "SELECT * FROM main.sqlite_master", NA },
    { "SELECT name FROM \"sqlite_master\"", NA },
    { "SELECT count(*) FROM sqlite_schema", NA },
    { "SELECT * FROM sqlite_sequence", NA },
    { "SELECT * FROM temp.sqlite_master", NA },
    { "SELECT * FROM temp.sqlite_schema", NA },
    { "SELECT * FROM temp.\"_pier_v_other\"", NA },
    { "SELECT * FROM temp._pier_v_items", NA },
    { "SELECT * FROM dbstat", NA },
    /* pragmas, as table-valued functions and as statements */
    { "SELECT * FROM pragma_table_info('x')", NA },
    { "SELECT * FROM pragma_table_info('_pier_b_other')", NA },
    { "SELECT count(*) FROM pragma_table_info('items')", NA },
    { "SELECT * FROM pragma_database_list", NA },
    { "SELECT name FROM pragma_table_list", NA },
    { "SELECT * FROM main.pragma_index_list('x')", NA },
    { "PRAGMA table_info(x)", NA },
    { "PRAGMA writable_schema = 1", NA },
    { "pragma journal_mode", NA },
    /* attached databases and extensions */
    { "ATTACH 'x' AS y", NA },
    { "ATTACH DATABASE ':memory:' AS y", NA },
    { "DETACH y", NA },
    { "SELECT load_extension('x')", NA },
    { "SELECT id FROM {{board}} WHERE load_extension('x') IS NULL", NA },
    { "SELECT fts3_tokenizer('simple')", NA },
    { "SELECT sqlite_compileoption_get(0)", NA },
    /* writes, also in a CTE */
    { "INSERT INTO {{board}}(id) VALUES ('z')", NA },
    { "UPDATE {{board}} SET state = 'x'", NA },
    { "DELETE FROM {{board}}", NA },
    { "REPLACE INTO {{board}}(id) VALUES ('z')", NA },
    { "WITH x AS (SELECT 1) DELETE FROM {{board}}", NA },
    { "WITH x AS (SELECT 'z' AS id) INSERT INTO {{board}}(id) "
      "SELECT id FROM x", NA },
    /* SQLite could not even parse these: a CTE holds no write */
    { "WITH x AS (DELETE FROM {{board}} RETURNING id) SELECT * FROM x", NA },
    { "WITH x AS (INSERT INTO {{board}}(id) VALUES ('z') RETURNING id) "
      "SELECT * FROM x", NA },
    { "WITH x AS (SELECT 1) UPDATE sqlite_master SET sql = ''", NA },
    { "WITH x AS (SELECT 1) REPLACE INTO {{board}}(id) VALUES ('z')", NA },
    /* schema, transactions, maintenance */
    { "CREATE TABLE t(x)", NA },
    { "CREATE TEMP TABLE t(x)", NA },
    { "CREATE TEMP VIEW v AS SELECT 1", NA },
    { "CREATE VIRTUAL TABLE temp.t USING fts5(x)", NA },
    { "DROP TABLE _pier_b_other", NA },
    { "DROP VIEW temp.x", NA },
    { "ALTER TABLE x ADD COLUMN y", NA },
    { "BEGIN", NA },
    { "BEGIN IMMEDIATE", NA },
    { "COMMIT", NA },
    { "END", NA },
    { "ROLLBACK", NA },
    { "SAVEPOINT s", NA },
    { "RELEASE s", NA },
    { "VACUUM", NA },
    { "VACUUM INTO '/tmp/pier-escape.sqlite'", NA },
    { "ANALYZE", NA },
    { "REINDEX", NA },
    { "EXPLAIN SELECT 1", NA },
    { "EXPLAIN QUERY PLAN SELECT * FROM {{board}}", NA },
    /* second statements */
    { "SELECT 1; DROP TABLE x", NA },
    { "SELECT * FROM {{board}}; SELECT * FROM _pier_changes", NA },
    { "SELECT * FROM {{board}}; SELECT 1", NA },
    { "SELECT 1;; SELECT 2", NA },
    { "SELECT 1; x", NA },
    /* comment tricks */
    { "SELECT * FROM {{board}} /* ; */ ; DELETE FROM {{board}}", NA },
    { "SELECT * FROM {{board}} -- the rest\n; DROP TABLE x", NA },
    { "SELECT * FROM /* {{board}} */ _pier_b_other", NA },
    { "SELECT * FROM {{board}} --\n, _pier_changes", NA },
    { "/* SELECT */ DELETE FROM {{board}}", NA },
    { "-- SELECT\nDELETE FROM {{board}}", NA },
    { "SELECT * FROM {{board}}/**/;/**/SELECT 1", NA },
    { "SELECT * FROM sqlite_master -- {{board}}", NA },
    /* {{board:NAME}} for a board the options do not name */
    { "SELECT * FROM {{board:other}}", NA },
    { "SELECT * FROM {{board}} a JOIN {{board:other}} b ON a.id = b.id",
      NA },
    { "SELECT * FROM {{board:Other}}", NA },
    { "SELECT * FROM {{board:nope}}", NA },
    { "SELECT * FROM {{board:_pier_b_other}}", NA },
    /* a CTE's name is the CTE's only: a table's name is refused as one,
     * and a CTE's name in one scope lets no table by that name through
     * in another */
    { "WITH sqlite_schema AS (SELECT 1) SELECT count(*) FROM sqlite_schema",
      NA },
    { "SELECT (WITH sqlite_master AS (SELECT 1) SELECT 1), (SELECT "
      "count(*) FROM sqlite_master)", NA },
    { "SELECT (WITH other AS (SELECT 1) SELECT 1), (SELECT count(*) FROM "
      "other)", NA },
    { "WITH t AS (SELECT 1) SELECT count(*) FROM sqlite_schema", NA },
    { "WITH x AS MATERIALIZED (SELECT * FROM {{board}}) SELECT count(*) "
      "FROM x, sqlite_master", NA },
    { "WITH \"_pier_b_other\" AS (SELECT 1) SELECT count(*) FROM "
      "\"_pier_b_other\"", NA },
    { "WITH main AS (SELECT 1) SELECT count(*) FROM main.sqlite_master",
      NA },
};
#undef NA

static void test_escapes_are_refused(void **state)
{
    fixture *f = *state;
    /* Give the reader the other board's view, so that a refusal cannot
     * be a mere "no such table". */
    pier_query_options o = with_other();
    expect(f->e, "items", "SELECT count(*) AS n FROM {{board:other}}", NULL,
           &o, "{\"n\":2}\n");
    char *before = testlake_dump(f->dir);
    assert_non_null(before);
    pier_error e = expect_fail(f->e, "items", "SELECT * FROM "
                               "\"_PIER_B_Other\"", NULL, NULL,
                               PIER_E_ENTITY_NOT_ALLOWED);
    assert_string_equal(e.board, "other");
    assert_int_equal(e.offset, 14);
    for (size_t i = 0; i < sizeof escapes / sizeof *escapes; i++) {
        expect_fail(f->e, "items", escapes[i].sql, NULL, NULL,
                    escapes[i].status);
        char *after = testlake_dump(f->dir);
        if (strcmp(before, after) != 0)
            fail_msg("the lake changed after: %s", escapes[i].sql);
        free(after);
    }
    free(before);
    bool has = true;
    pier_error err;
    assert_int_equal(pier_board_has(&has, f->e, "z", &err), PIER_OK);
    assert_false(has);
    assert_false(lakedir_exists("/tmp/pier-escape.sqlite"));
    /* The engine still works. */
    expect(f->e, "items", "SELECT count(*) AS n FROM {{board}}", NULL, NULL,
           "{\"n\":2}\n");
}

/* CTEs: their own names are no other table, flattened or not, recursive
 * or materialized; a CTE named like a table of the lake is refused. */
static void test_ctes(void **state)
{
    fixture *f = *state;
    expect(f->e, "items", "WITH t AS (SELECT id FROM {{board}} GROUP BY id) "
           "SELECT count(*) AS n FROM t", NULL, NULL, "{\"n\":2}\n");
    expect(f->e, "items", "WITH c(x) AS (SELECT 1) SELECT count(*) AS n "
           "FROM c", NULL, NULL, "{\"n\":1}\n");
    expect(f->e, "items", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL "
           "SELECT x + 1 FROM c WHERE x < 5) SELECT count(*) AS n FROM c",
           NULL, NULL, "{\"n\":5}\n");
    expect(f->e, "items", "WITH t AS MATERIALIZED (SELECT id FROM "
           "{{board}}) SELECT count(*) AS n, max(id) AS m FROM t", NULL,
           NULL, "{\"n\":2,\"m\":\"b\"}\n");
    expect(f->e, "items", "WITH a AS NOT MATERIALIZED (SELECT id FROM "
           "{{board}}), b AS (SELECT * FROM a) SELECT count(*) AS n FROM b",
           NULL, NULL, "{\"n\":2}\n");
    expect(f->e, "items", "SELECT (WITH t AS (SELECT 1) SELECT count(*) "
           "FROM t) AS n", NULL, NULL, "{\"n\":1}\n");
    /* named like a table: refused, where the name is */
    pier_error e = expect_fail(f->e, "items", "WITH sqlite_schema AS "
                               "(SELECT 1) SELECT 1", NULL, NULL,
                               PIER_E_ENTITY_NOT_ALLOWED);
    assert_int_equal(e.offset, 5);
    assert_non_null(strstr(e.message, "'sqlite_schema'"));
}

/* The lake's prepare step refuses these on its own (the authorizer and
 * the one-statement and read-only checks), without the template scan. */
static void test_authorizer_alone(void **state)
{
    testlake_embedded_only();   /* (the embedded lake's authorizer) */
    fixture *f = *state;
    pier_query_options o = with_other();
    expect(f->e, "items", "SELECT count(*) AS n FROM {{board}}, "
           "{{board:other}}", NULL, &o, "{\"n\":4}\n");
    pier_engine *e = f->e;
    static const struct { const char *sql; pier_status status; } cases[] = {
        { "SELECT * FROM _pier_b_other", PIER_E_ENTITY_NOT_ALLOWED },
        { "SELECT * FROM main.\"_PIER_B_OTHER\"", PIER_E_ENTITY_NOT_ALLOWED },
        { "SELECT id FROM _pier_b_items", PIER_E_ENTITY_NOT_ALLOWED },
        { "SELECT * FROM temp._pier_v_other", PIER_E_ENTITY_NOT_ALLOWED },
        { "WITH \"_pier_v_items\" AS (SELECT _v FROM main._pier_b_items) "
          "SELECT * FROM \"_pier_v_items\"", PIER_E_ENTITY_NOT_ALLOWED },
        { "SELECT * FROM _pier_changes", PIER_E_ENTITY_NOT_ALLOWED },
        { "SELECT count(*) FROM _pier_boards", PIER_E_ENTITY_NOT_ALLOWED },
        { "DELETE FROM _pier_b_items", PIER_E_ENTITY_NOT_ALLOWED },
        { "INSERT INTO temp._pier_v_items(id) VALUES ('x')",
          PIER_E_ENTITY_NOT_ALLOWED },
        { "PRAGMA writable_schema", PIER_E_ENTITY_NOT_ALLOWED },
        { "BEGIN", PIER_E_ENTITY_NOT_ALLOWED },
        { "VACUUM", PIER_E_ENTITY_NOT_ALLOWED },
        { "EXPLAIN SELECT 1", PIER_E_ENTITY_NOT_ALLOWED },
        { "SELECT 1; SELECT 2", PIER_E_ENTITY_NOT_ALLOWED },
        { "WITH x AS (SELECT 1) UPDATE _pier_b_items SET state = 'x'",
          PIER_E_ENTITY_NOT_ALLOWED },
        /* SQLite refuses this itself, before the authorizer */
        { "WITH x AS (SELECT 1) UPDATE sqlite_master SET sql = ''",
          PIER_E_QUERY_FAILED },
        { "SELECT * FROM dbstat", PIER_E_ENTITY_NOT_ALLOWED },
        { "SELECT rowid FROM sqlite_master", PIER_E_ENTITY_NOT_ALLOWED },
        { "SELECT count(*) FROM pragma_table_info('_pier_b_other')",
          PIER_E_ENTITY_NOT_ALLOWED },
        { "SELECT id FROM temp._pier_v_items", PIER_OK },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pier__reader *r = NULL;
        int64_t version = -1;
        pier_error err;
        assert_int_equal(e->lake->ops->reader_open(e->lake, &r, &err),
                         PIER_OK);
        assert_int_equal(e->lake->ops->reader_version(r, true, &version,
                                                      &err), PIER_OK);
        pthread_mutex_lock(&e->lock);
        assert_int_equal(e->catalog.version, version);
        const pier__board *b = pier__catalog_find(&e->catalog, "items");
        assert_non_null(b);
        pier__query_text q = {
            .sql = cases[i].sql, .len = strlen(cases[i].sql),
            .holes = NULL, .nholes = 0, .boards = &b, .nboards = 1,
            .catalog_version = version,
        };
        pier__query_shape shape;
        pier_status rc = e->lake->ops->reader_prepare(r, &q, &shape, &err);
        pthread_mutex_unlock(&e->lock);
        if (rc != cases[i].status)
            fail_msg("%s -> %s: %s", cases[i].sql, pier_status_tag(rc),
                     rc != PIER_OK ? err.message : "");
        e->lake->ops->reader_close(r);
    }
}

/* ------------------------------------------------------------------ */
/* Full-text indexes and declared tables                                */

static void exec_ok(pier_engine *e, const char *sql)
{
    pier_cursor *c = NULL;
    pier_error err;
    if (pier_exec(&c, e, sql, NULL, &err) != PIER_OK)
        fail_msg("%s: %s: %s", sql, err.tag, err.message);
    pier_cursor_close(c);
}

static void fts_on(pier_engine *e, const char *board, const char *column)
{
    pier_error err;
    if (pier_fts_enable(e, board, &column, 1, &err) != PIER_OK)
        fail_msg("fts %s: %s: %s", board, err.tag, err.message);
}

/* "notes" and "memos", each with an index over "body", and a declared
 * table "prices" and a view over it. */
static void make_fts(pier_engine *e)
{
    ins(e, "notes", "[{\"id\":\"n1\",\"body\":\"blue water\"},"
        "{\"id\":\"n2\",\"body\":\"green grass\"}]");
    ins(e, "memos", "[{\"id\":\"m1\",\"body\":\"secret water plan\"}]");
    fts_on(e, "notes", "body");
    fts_on(e, "memos", "body");
    exec_ok(e, "CREATE TABLE prices(sku TEXT PRIMARY KEY, amount INTEGER)");
    exec_ok(e, "INSERT INTO prices VALUES ('n1', 10), ('n2', 20)");
    exec_ok(e, "CREATE TABLE hidden(x TEXT)");
    exec_ok(e, "CREATE VIEW cheap AS SELECT sku FROM prices "
               "WHERE amount < 15");
}

/* On a PostgreSQL lake both are refused with TopologyUnsupported, and
 * nothing is written. */
static void test_fts_and_tables_topology(void **state)
{
    fixture *f = *state;
    if (!testlake_pg())
        skip();
    ins(f->e, "notes", "{\"id\":\"n1\",\"body\":\"x\"}");
    char *before = testlake_dump(f->dir);
    const char *col = "body";
    pier_error err;
    assert_int_equal(pier_fts_enable(f->e, "notes", &col, 1, &err),
                     PIER_E_TOPOLOGY_UNSUPPORTED);
    assert_int_equal(pier_fts_disable(f->e, "notes", &err),
                     PIER_E_TOPOLOGY_UNSUPPORTED);
    expect_fail(f->e, "notes", "SELECT id FROM {{fts}}", NULL, NULL,
                PIER_E_TOPOLOGY_UNSUPPORTED);
    static const char *const t[] = { "prices" };
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    o.tables = t;
    o.ntables = 1;
    expect_fail(f->e, "notes", "SELECT * FROM {{table:prices}}", NULL, &o,
                PIER_E_TOPOLOGY_UNSUPPORTED);
    char *after = testlake_dump(f->dir);
    assert_string_equal(before, after);
    free(before);
    free(after);
}

/* {{fts}}, {{fts:NAME}} and {{table:NAME}} read real values. */
static void test_fts_and_tables_read(void **state)
{
    testlake_embedded_only();
    fixture *f = *state;
    make_fts(f->e);
    expect(f->e, "notes", "SELECT n.id, bm25({{fts}}) < 0 AS ranked FROM "
           "{{board}} n JOIN {{fts}} x ON x.id = n.id WHERE {{fts}} MATCH "
           "'water'", NULL, NULL, "{\"id\":\"n1\",\"ranked\":1}\n");
    static const char *const memos[] = { "memos" };
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    o.with = memos;
    o.nwith = 1;
    expect(f->e, "notes", "SELECT id, highlight({{fts:memos}}, 1, '[', ']') "
           "AS h FROM {{fts:memos}} WHERE {{fts:memos}} MATCH 'water'", NULL,
           &o, "{\"id\":\"m1\",\"h\":\"secret [water] plan\"}\n");
    static const char *const prices[] = { "prices", "cheap" };
    o = (pier_query_options)PIER_QUERY_OPTIONS_INIT;
    o.tables = prices;
    o.ntables = 2;
    expect(f->e, "notes", "SELECT n.id, p.amount FROM {{board}} n JOIN "
           "{{table:prices}} p ON p.sku = n.id WHERE n.id IN (SELECT sku "
           "FROM {{table:cheap}}) ORDER BY n.id", NULL, &o,
           "{\"id\":\"n1\",\"amount\":10}\n");
    /* A template remembered with the tables it may read: the same text
     * without them is refused, not run from memory. */
    expect_fail(f->e, "notes", "SELECT n.id, p.amount FROM {{board}} n JOIN "
                "{{table:prices}} p ON p.sku = n.id WHERE n.id IN (SELECT "
                "sku FROM {{table:cheap}}) ORDER BY n.id", NULL, NULL,
                PIER_E_ENTITY_NOT_ALLOWED);
    o.ntables = 1;
    expect_fail(f->e, "notes", "SELECT n.id, p.amount FROM {{board}} n JOIN "
                "{{table:prices}} p ON p.sku = n.id WHERE n.id IN (SELECT "
                "sku FROM {{table:cheap}}) ORDER BY n.id", NULL, &o,
                PIER_E_ENTITY_NOT_ALLOWED);
    /* the missing ones */
    ins(f->e, "plain", "{\"id\":\"p\"}");
    pier_error e = expect_fail(f->e, "plain", "SELECT id FROM {{fts}}", NULL,
                               NULL, PIER_E_QUERY_FAILED);
    assert_int_equal(e.offset, 15);
    static const char *const nope[] = { "nope" };
    o.tables = nope;
    o.ntables = 1;
    e = expect_fail(f->e, "notes", "SELECT * FROM {{table:nope}}", NULL, &o,
                    PIER_E_TABLE_NOT_FOUND);
    assert_int_equal(e.offset, 14);
    /* bad options */
    o.tables = NULL;
    expect_fail(f->e, "notes", "SELECT 1", NULL, &o,
                PIER_E_INVALID_ARGUMENT);
    static const char *const empty[] = { "" };
    o.tables = empty;
    expect_fail(f->e, "notes", "SELECT 1", NULL, &o,
                PIER_E_INVALID_ARGUMENT);
}

static const escape fts_escapes[] = {
    /* the tables FTS5 keeps an index in, and another board's index */
    { "SELECT * FROM _pier_f_notes$_data", PIER_E_ENTITY_NOT_ALLOWED },
    { "SELECT * FROM \"_pier_f_notes$_content\"", PIER_E_ENTITY_NOT_ALLOWED },
    { "SELECT * FROM {{fts}}, _pier_f_notes$_idx", PIER_E_ENTITY_NOT_ALLOWED },
    { "SELECT * FROM [_pier_f_notes$_docsize]", PIER_E_ENTITY_NOT_ALLOWED },
    { "SELECT * FROM main._pier_f_notes$_config", PIER_E_ENTITY_NOT_ALLOWED },
    { "SELECT * FROM _pier_f_memos$", PIER_E_ENTITY_NOT_ALLOWED },
    { "SELECT * FROM {{fts:memos}}", PIER_E_ENTITY_NOT_ALLOWED },
    { "SELECT id FROM {{fts}} WHERE id IN (SELECT id FROM "
      "{{fts:memos}} WHERE {{fts:memos}} MATCH 'water')",
      PIER_E_ENTITY_NOT_ALLOWED },
    { "SELECT * FROM {{fts:Memos}}", PIER_E_ENTITY_NOT_ALLOWED },
    /* fts5vocab, the fts5() function, the data version */
    { "CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, _pier_f_memos$, "
      "'row')", PIER_E_ENTITY_NOT_ALLOWED },
    { "SELECT * FROM fts5vocab('main', '_pier_f_memos$', 'row')",
      PIER_E_QUERY_FAILED },
    { "SELECT fts5(NULL)", PIER_E_ENTITY_NOT_ALLOWED },
    { "SELECT fts5_source_id()", PIER_E_ENTITY_NOT_ALLOWED },
    { "PRAGMA data_version", PIER_E_ENTITY_NOT_ALLOWED },
    { "SELECT * FROM pragma_data_version", PIER_E_ENTITY_NOT_ALLOWED },
    /* FTS5's special INSERTs write */
    { "INSERT INTO {{fts}}({{fts}}) VALUES ('delete-all')",
      PIER_E_ENTITY_NOT_ALLOWED },
    { "INSERT INTO {{fts}}({{fts}}, rank) VALUES ('rank', 'bm25(9)')",
      PIER_E_ENTITY_NOT_ALLOWED },
    { "WITH x AS (SELECT 1) INSERT INTO {{fts}}({{fts}}) VALUES "
      "('rebuild')", PIER_E_ENTITY_NOT_ALLOWED },
    { "DELETE FROM {{fts}}", PIER_E_ENTITY_NOT_ALLOWED },
    /* declared tables: not listed, or by their own name */
    { "SELECT * FROM {{table:prices}}", PIER_E_ENTITY_NOT_ALLOWED },
    { "SELECT * FROM prices", PIER_E_ENTITY_NOT_ALLOWED },
    { "SELECT * FROM hidden", PIER_E_ENTITY_NOT_ALLOWED },
    { "SELECT * FROM {{table:_pier_boards}}", PIER_E_ENTITY_NOT_ALLOWED },
    { "SELECT * FROM {{table:sqlite_master}}", PIER_E_ENTITY_NOT_ALLOWED },
};

/* Every escape through the index or the tables is refused, and the lake
 * is byte-for-byte what it was. */
static void test_fts_escapes_are_refused(void **state)
{
    testlake_embedded_only();
    fixture *f = *state;
    make_fts(f->e);
    /* The reader has the index open, so that a refusal is no "no such
     * table". */
    expect(f->e, "notes", "SELECT count(*) AS n FROM {{fts}}", NULL, NULL,
           "{\"n\":2}\n");
    char *before = testlake_dump(f->dir);
    assert_non_null(before);
    for (size_t i = 0; i < sizeof fts_escapes / sizeof *fts_escapes; i++) {
        expect_fail(f->e, "notes", fts_escapes[i].sql, NULL, NULL,
                    fts_escapes[i].status);
        char *after = testlake_dump(f->dir);
        if (strcmp(before, after) != 0)
            fail_msg("the lake changed after: %s", fts_escapes[i].sql);
        free(after);
    }
    free(before);
    expect(f->e, "notes", "SELECT id FROM {{fts}} WHERE {{fts}} MATCH "
           "'grass'", NULL, NULL, "{\"id\":\"n2\"}\n");
}

/* The lake's prepare step alone (no template scan) refuses the tables
 * FTS5 keeps an index in unless the statement names the index, another
 * board's index even when it does, declared tables it does not name, and
 * the FTS5 writes. */
static void test_fts_authorizer_alone(void **state)
{
    testlake_embedded_only();
    fixture *f = *state;
    make_fts(f->e);
    pier_engine *e = f->e;
    expect(e, "notes", "SELECT count(*) AS n FROM {{fts}}", NULL, NULL,
           "{\"n\":2}\n");
    static const struct {
        const char *sql;
        bool fts;              /* the statement names notes' index at 0 */
        pier_status status;
    } cases[] = {
        { "SELECT * FROM _pier_f_notes$", false, PIER_E_ENTITY_NOT_ALLOWED },
        { "SELECT * FROM _pier_f_notes$_content", false,
          PIER_E_ENTITY_NOT_ALLOWED },
        { "PRAGMA data_version", false, PIER_E_ENTITY_NOT_ALLOWED },
        { "SELECT * FROM prices", false, PIER_E_ENTITY_NOT_ALLOWED },
        { "SELECT * FROM cheap", false, PIER_E_ENTITY_NOT_ALLOWED },
        { "SELECT id FROM {{fts}} WHERE 1", true, PIER_OK },
        { "SELECT id FROM {{fts}} UNION SELECT id FROM _pier_f_memos$", true,
          PIER_E_ENTITY_NOT_ALLOWED },
        { "SELECT id FROM {{fts}} UNION SELECT c0 FROM "
          "_pier_f_memos$_content", true, PIER_E_ENTITY_NOT_ALLOWED },
        { "SELECT id FROM {{fts}} UNION SELECT sku FROM prices", true,
          PIER_E_ENTITY_NOT_ALLOWED },
        { "INSERT INTO _pier_f_notes$(_pier_f_notes$) VALUES ('delete-all')",
          false, PIER_E_ENTITY_NOT_ALLOWED },
        /* SQLite refuses this itself (defensive mode: FTS5's tables are
         * read-only to SQL), before the authorizer */
        { "DELETE FROM _pier_f_notes$_data", false, PIER_E_QUERY_FAILED },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        /* "{{fts}}" stands where the text has it. */
        const char *at = strstr(cases[i].sql, "{{fts}}");
        pier__placeholder hole = {
            at != NULL ? (size_t)(at - cases[i].sql) : 0, 7, 0,
            PIER__HOLE_FTS };
        pier__reader *r = NULL;
        int64_t version = -1;
        pier_error err;
        assert_int_equal(e->lake->ops->reader_open(e->lake, &r, &err),
                         PIER_OK);
        assert_int_equal(e->lake->ops->reader_version(r, true, &version,
                                                      &err), PIER_OK);
        pthread_mutex_lock(&e->lock);
        const pier__board *b = pier__catalog_find(&e->catalog, "notes");
        assert_non_null(b);
        pier__query_text q = {
            .sql = cases[i].sql, .len = strlen(cases[i].sql),
            .holes = cases[i].fts ? &hole : NULL,
            .nholes = cases[i].fts ? 1 : 0, .boards = &b, .nboards = 1,
            .catalog_version = version,
        };
        pier__query_shape shape;
        pier_status rc = e->lake->ops->reader_prepare(r, &q, &shape, &err);
        pthread_mutex_unlock(&e->lock);
        if (rc != cases[i].status)
            fail_msg("%s -> %s: %s", cases[i].sql, pier_status_tag(rc),
                     rc != PIER_OK ? err.message : "");
        e->lake->ops->reader_close(r);
    }
}

/* ------------------------------------------------------------------ */
/* Catalog changes                                                      */

static void test_schema_changes_are_followed(void **state)
{
    fixture *f = *state;
    const char *all = "SELECT * FROM {{board:other}} WHERE id = 'a'";
    pier_query_options o = with_other();
    expect(f->e, "items", all, NULL, &o,
           "{\"id\":\"a\",\"updated_at\":\"" T0_TEXT "\",\"state\":null,"
           "\"v\":1}\n");
    /* A new column shows in SELECT * at once. */
    ins(f->e, "other", "{\"id\":\"q\",\"w\":\"x\"}");
    expect(f->e, "items", all, NULL, &o,
           "{\"id\":\"a\",\"updated_at\":\"" T0_TEXT "\",\"state\":null,"
           "\"v\":1,\"w\":null}\n");
    /* A widening changes the column's type and decoding. */
    pier_error err;
    assert_int_equal(pier_board_widen_column(NULL, f->e, "other", "v",
                                             "double", &err), PIER_OK);
    pier_cursor *c = NULL;
    assert_int_equal(pier_query(&c, f->e, "items", all, NULL, &o, &err),
                     PIER_OK);
    assert_string_equal(pier_cursor_column_type(c, 3), "double");
    pier_cursor_close(c);
    expect(f->e, "items", all, NULL, &o,
           "{\"id\":\"a\",\"updated_at\":\"" T0_TEXT "\",\"state\":null,"
           "\"v\":1.0,\"w\":null}\n");
    assert_int_equal(pier_board_widen_column(NULL, f->e, "other", "v",
                                             "text", &err), PIER_OK);
    expect(f->e, "items", all, NULL, &o,
           "{\"id\":\"a\",\"updated_at\":\"" T0_TEXT "\",\"state\":null,"
           "\"v\":\"1.0\",\"w\":null}\n");
    /* A dropped board is not found; created again, it is read afresh. */
    assert_int_equal(pier_board_drop(NULL, f->e, "other", &err), PIER_OK);
    expect_fail(f->e, "items", all, NULL, &o, PIER_E_BOARD_NOT_FOUND);
    ins(f->e, "other", "{\"id\":\"a\",\"k\":true}");
    expect(f->e, "items", all, NULL, &o,
           "{\"id\":\"a\",\"updated_at\":\"" T0_TEXT "\",\"state\":null,"
           "\"k\":true}\n");
}

/* Brings engine e's replica of `board` to the lake's head on a
 * PostgreSQL lake, where a node reads other nodes' writes after its next
 * head refresh or a sync; nothing on the embedded lake. */
static void catch_up(pier_engine *e, const char *board)
{
    pier_error err;
    if (testlake_pg() && pier_sync(NULL, e, board, &err) != PIER_OK)
        fail_msg("sync %s: %s", board, err.message);
}

static void test_other_engines_changes_are_seen(void **state)
{
    fixture *f = *state;
    const char *sql = "SELECT * FROM {{board}} WHERE id = 'a'";
    expect(f->e, "other", sql, NULL, NULL,
           "{\"id\":\"a\",\"updated_at\":\"" T0_TEXT "\",\"state\":null,"
           "\"v\":1}\n");
    pier_engine *e2 = fixture_engine(f);
    ins(e2, "other", "{\"id\":\"a2\",\"extra\":[1]}");
    pier_error err;
    assert_int_equal(pier_board_widen_column(NULL, e2, "other", "v",
                                             "double", &err), PIER_OK);
    /* (on a PostgreSQL lake another node's write is seen after a head
     * refresh, or a sync: docs/clustered.md) */
    catch_up(f->e, "other");
    expect(f->e, "other", sql, NULL, NULL,
           "{\"id\":\"a\",\"updated_at\":\"" T0_TEXT "\",\"state\":null,"
           "\"v\":1.0,\"extra\":null}\n");
    /* This engine's cache knows neither the new board nor the new
     * column: the snapshot's catalog version says it is stale. */
    ins(e2, "fresh", "{\"id\":\"f\"}");
    catch_up(f->e, "fresh");
    expect(f->e, "fresh", "SELECT id FROM {{board}}", NULL, NULL,
           "{\"id\":\"f\"}\n");
    ins(e2, "other", "{\"id\":\"a3\",\"later\":5}");
    catch_up(f->e, "other");
    expect(f->e, "other", "SELECT id, later FROM {{board}} WHERE later = 5",
           NULL, NULL, "{\"id\":\"a3\",\"later\":5}\n");
    assert_int_equal(pier_board_drop(NULL, e2, "fresh", &err), PIER_OK);
    catch_up(f->e, "other");
    expect_fail(f->e, "fresh", "SELECT id FROM {{board}}", NULL, NULL,
                PIER_E_BOARD_NOT_FOUND);
    pier_close(&e2);
}

/* ------------------------------------------------------------------ */
/* Streaming                                                            */

static void fill(pier_engine *e, const char *board, int from, int n)
{
    size_t cap = (size_t)n * 64 + 16;
    char *json = malloc(cap);
    size_t len = 0;
    json[len++] = '[';
    for (int i = from; i < from + n; i++)
        len += (size_t)snprintf(json + len, cap - len,
                                "%s{\"id\":\"r%07d\",\"n\":%d,"
                                "\"s\":\"row number %d\"}",
                                i > from ? "," : "", i, i, i);
    json[len++] = ']';
    pier_error err;
    if (pier_insert_json(NULL, e, board, json, len, &err) != PIER_OK)
        fail_msg("fill: %s: %s", err.tag, err.message);
    free(json);
}

/* Blocks in an arena (the row buffer's memory). */
static size_t arena_blocks(const pier_row *row)
{
    struct block { struct block *next; };
    size_t n = 0;
    for (const struct block *b = (const void *)row->arena.head; b != NULL;
         b = b->next)
        n++;
    return n;
}

static void test_streaming_in_constant_memory(void **state)
{
    fixture *f = *state;
    const int rows = 200000;
    for (int i = 0; i < rows; i += 50000)
        fill(f->e, "big", i, 50000);
    pier_cursor *c = NULL;
    pier_error err;
    assert_int_equal(pier_query(&c, f->e, "big", "SELECT id, n, s, "
                                "n * 2 AS twice FROM {{board}} ORDER BY id",
                                NULL, NULL, &err), PIER_OK);
    const pier_row *row = NULL, *first = NULL;
    sqlite3_int64 mem_early = 0, mem_peak = 0;
    int count = 0;
    while (pier_cursor_next(&row, c, &err) == PIER_OK && row != NULL) {
        if (first == NULL)
            first = row;
        assert_ptr_equal(row, first);          /* one row buffer */
        assert_true(arena_blocks(row) <= 1);   /* reset for each row */
        if (count % 10000 == 0) {
            char id[16];
            snprintf(id, sizeof id, "r%07d", count);
            assert_string_equal(pier_row_value(row, 0)->text, id);
            assert_int_equal(pier_row_value(row, 3)->as.integer, 2 * count);
        }
        if (count == rows / 2)
            mem_early = sqlite3_memory_used();
        if (count > rows / 2 && sqlite3_memory_used() > mem_peak)
            mem_peak = sqlite3_memory_used();
        count++;
    }
    assert_int_equal(err.status, PIER_OK);
    assert_int_equal(count, rows);
    /* The rows (some 10 MB) are never held: once SQLite's page cache is
     * full (2 MB by default), the second half of the result streams
     * without its memory growing. */
    if (mem_peak - mem_early >= 256 * 1024)
        fail_msg("SQLite's memory grew by %lld bytes",
                 (long long)(mem_peak - mem_early));
    pier_cursor_close(c);
}

static void test_write_commits_while_cursor_open(void **state)
{
    fixture *f = *state;
    fill(f->e, "log", 0, 1000);
    pier_cursor *c = NULL;
    pier_error err;
    assert_int_equal(pier_query(&c, f->e, "log", "SELECT id FROM {{board}} "
                                "ORDER BY id", NULL, NULL, &err), PIER_OK);
    const pier_row *row = NULL;
    int count = 0;
    for (; count < 10; count++) {
        assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
        assert_non_null(row);
    }
    /* Mid-result: a write, a schema change and another query commit. */
    int64_t wm = 0;
    assert_int_equal(pier_insert_json(&wm, f->e, "log",
                                      "{\"id\":\"zz\",\"new\":1}", 19, &err),
                     PIER_OK);
    assert_true(wm > 0);
    assert_int_equal(pier_delete(NULL, f->e, "log", "r0000500", &err),
                     PIER_OK);
    expect(f->e, "log", "SELECT count(*) AS n FROM {{board}}", NULL, NULL,
           "{\"n\":1000}\n");
    /* The open cursor reads its snapshot to the end. */
    while (pier_cursor_next(&row, c, &err) == PIER_OK && row != NULL)
        count++;
    assert_int_equal(err.status, PIER_OK);
    assert_int_equal(count, 1000);
    pier_cursor_close(c);
}

/* ------------------------------------------------------------------ */
/* Threads                                                              */

typedef struct worker {
    pier_engine *e;
    int failures;
} worker;

static void *query_worker(void *payload)
{
    worker *w = payload;
    pier_params *p = pier_params_new();
    for (int i = 0; i < 200; i++) {
        pier_error err;
        char id[16];
        snprintf(id, sizeof id, "r%07d", i % 100);
        pier_params_set_text(p, ":id", id, &err);
        pier_cursor *c = NULL;
        const char *sql = i % 2 == 0
            ? "SELECT id, n FROM {{board}} WHERE id = :id"
            : "SELECT count(*) AS n, sum(n) AS s FROM {{board}} "
              "WHERE id >= :id";
        if (pier_query(&c, w->e, "log", sql, p, NULL, &err) != PIER_OK) {
            w->failures++;
            continue;
        }
        const pier_row *row;
        int rows = 0;
        while (pier_cursor_next(&row, c, &err) == PIER_OK && row != NULL)
            rows++;
        if (err.status != PIER_OK || rows != 1)
            w->failures++;
        pier_cursor_close(c);
    }
    pier_params_free(p);
    return NULL;
}

static void test_threads_query_beside_writes(void **state)
{
    fixture *f = *state;
    fill(f->e, "log", 0, 100);
    enum { N = 4 };
    pthread_t t[N];
    worker w[N];
    for (int i = 0; i < N; i++) {
        w[i] = (worker){ f->e, 0 };
        assert_int_equal(pthread_create(&t[i], NULL, query_worker, &w[i]),
                         0);
    }
    for (int i = 0; i < 20; i++)
        fill(f->e, "log", 1000 + i * 10, 10);
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(w[i].failures, 0);
    }
    expect(f->e, "log", "SELECT count(*) AS n FROM {{board}}", NULL, NULL,
           "{\"n\":300}\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_every_type_decodes),
        T(test_origins_through_aliases_ctes_subqueries),
        T(test_computed_columns),
        T(test_placeholders_only_in_code),
        T(test_parameter_forms),
        T(test_params_reused_across_queries),
        T(test_bindings_do_not_outlive_their_query),
        T(test_cursors_reused_start_afresh),
        T(test_template_remembered_with_its_boards),
        T(test_compiled_query_reused_only_while_valid),
        T(test_parameters_from_json),
        T(test_params_refusals),
        T(test_many_parameters),
        T(test_placeholder_unbound),
        T(test_query_failed_with_offset),
        T(test_board_not_found),
        T(test_invalid_arguments),
        T(test_min_watermark),
        T(test_queries_are_counted),
        T(test_query_inside_own_transaction_refused),
        T(test_join_named_boards),
        T(test_escapes_are_refused),
        T(test_ctes),
        T(test_authorizer_alone),
        T(test_fts_and_tables_topology),
        T(test_fts_and_tables_read),
        T(test_fts_escapes_are_refused),
        T(test_fts_authorizer_alone),
        T(test_schema_changes_are_followed),
        T(test_other_engines_changes_are_seen),
        T(test_streaming_in_constant_memory),
        T(test_write_commits_while_cursor_open),
        T(test_threads_query_beside_writes),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
