/*
 * test_result.c: a query's result as text (pier_cursor_write in its three
 * formats, pier_row_to_csv) and one parameter from a JSON value
 * (pier_params_set_json_value).
 *
 * The outputs are compared whole: JSON values by their logical type (a
 * timestamp as RFC 3339 text, booleans bare, json documents inline), CSV
 * fields quoted exactly when RFC 4180 (or a null beside an empty text)
 * needs it. A writer that fails stops the conversion with WriteFailed and
 * the count of rows written; the writer is handed one row at a time.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "pier.h"
#include "support/engine_fixture.h"

static int setup(void **state)
{
    engine_fixture *f = fixture_open();
    static const pier_column_def cols[] = {
        { "flag", "boolean" }, { "n", "bigint" }, { "d", "double" },
        { "name", "text" }, { "ts", "timestamp" }, { "doc", "json" },
    };
    pier_board_options o = PIER_BOARD_OPTIONS_INIT;
    o.columns = cols;
    o.ncolumns = sizeof cols / sizeof *cols;
    pier_error err;
    if (pier_board_create(NULL, f->e, "t", &o, &err) != PIER_OK)
        fail_msg("create: %s: %s", err.tag, err.message);
    fixture_insert(f->e, "t",
                   "[{\"id\":\"a\",\"flag\":true,\"n\":-3,\"d\":0.5,"
                   "\"name\":\"say \\\"hi\\\", twice\",\"ts\":"
                   "\"2026-01-02T03:04:05+02:00\",\"doc\":{\"k\":[1,2]}},"
                   "{\"id\":\"b\",\"name\":\"\"},"
                   "{\"id\":\"c\",\"name\":\"two\\nlines\",\"flag\":false},"
                   "{\"id\":\"d\",\"name\":\" padded\"}]");
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    return fixture_close(*state);
}

/* Collects what the writer is handed; fails once `fail_at` calls were
 * made (never when 0). */
typedef struct sink {
    char *text;
    size_t len;
    int calls;
    int fail_at;
} sink;

static bool sink_write(const char *bytes, size_t len, void *payload)
{
    sink *s = payload;
    s->calls++;
    if (s->fail_at != 0 && s->calls >= s->fail_at)
        return false;
    s->text = realloc(s->text, s->len + len + 1);
    assert_non_null(s->text);
    memcpy(s->text + s->len, bytes, len);
    s->len += len;
    s->text[s->len] = '\0';
    return true;
}

/* Runs `sql` on board t and converts it in `format`. */
static pier_status convert(pier_engine *e, const char *sql,
                           pier_format format, sink *s, int64_t *nrows,
                           pier_error *err)
{
    pier_cursor *c = NULL;
    pier_status rc = pier_query(&c, e, "t", sql, NULL, NULL, err);
    if (rc != PIER_OK)
        fail_msg("%s: %s: %s", sql, err->tag, err->message);
    rc = pier_cursor_write(nrows, c, format, sink_write, s, err);
    pier_cursor_close(c);
    return rc;
}

static void expect_text(pier_engine *e, const char *sql, pier_format format,
                        const char *want, int64_t want_rows)
{
    sink s = { 0 };
    int64_t n = -1;
    pier_error err;
    if (convert(e, sql, format, &s, &n, &err) != PIER_OK)
        fail_msg("%s: %s: %s", sql, err.tag, err.message);
    assert_string_equal(s.text != NULL ? s.text : "", want);
    assert_int_equal(n, want_rows);
    free(s.text);
}

#define ALL "SELECT id, flag, n, d, name, ts, doc FROM {{board}} ORDER BY id"

static void test_json_array(void **state)
{
    engine_fixture *f = *state;
    expect_text(f->e, ALL, PIER_FORMAT_JSON,
                "[\n"
                "{\"id\":\"a\",\"flag\":true,\"n\":-3,\"d\":0.5,\"name\":"
                "\"say \\\"hi\\\", twice\",\"ts\":"
                "\"2026-01-02T01:04:05.000000Z\",\"doc\":{\"k\":[1,2]}},\n"
                "{\"id\":\"b\",\"flag\":null,\"n\":null,\"d\":null,"
                "\"name\":\"\",\"ts\":null,\"doc\":null},\n"
                "{\"id\":\"c\",\"flag\":false,\"n\":null,\"d\":null,"
                "\"name\":\"two\\nlines\",\"ts\":null,\"doc\":null},\n"
                "{\"id\":\"d\",\"flag\":null,\"n\":null,\"d\":null,"
                "\"name\":\" padded\",\"ts\":null,\"doc\":null}\n"
                "]\n",
                4);
}

static void test_jsonl_and_computed(void **state)
{
    engine_fixture *f = *state;
    expect_text(f->e,
                "SELECT id, n * 2 AS twice, x'00ff' AS raw, 1e999 AS big "
                "FROM {{board}} WHERE id <= 'b' ORDER BY id",
                PIER_FORMAT_JSONL,
                "{\"id\":\"a\",\"twice\":-6,\"raw\":\"00FF\",\"big\":9e999}\n"
                "{\"id\":\"b\",\"twice\":null,\"raw\":\"00FF\","
                "\"big\":9e999}\n",
                2);
}

static void test_csv(void **state)
{
    engine_fixture *f = *state;
    expect_text(f->e, ALL, PIER_FORMAT_CSV,
                "id,flag,n,d,name,ts,doc\n"
                "a,true,-3,0.5,\"say \"\"hi\"\", twice\","
                "2026-01-02T01:04:05.000000Z,\"{\"\"k\"\":[1,2]}\"\n"
                "b,,,,\"\",,\n"
                "c,false,,,\"two\nlines\",,\n"
                "d,,,,\" padded\",,\n",
                4);
    /* Header names are fields too. */
    expect_text(f->e,
                "SELECT id AS \"a,b\", name AS \"say \"\"x\"\"\" FROM "
                "{{board}} WHERE id = 'c'",
                PIER_FORMAT_CSV,
                "\"a,b\",\"say \"\"x\"\"\"\nc,\"two\nlines\"\n", 1);
}

static void test_empty_results(void **state)
{
    engine_fixture *f = *state;
    const char *none = "SELECT id, name FROM {{board}} WHERE id = 'zz'";
    expect_text(f->e, none, PIER_FORMAT_JSON, "[]\n", 0);
    expect_text(f->e, none, PIER_FORMAT_JSONL, "", 0);
    expect_text(f->e, none, PIER_FORMAT_CSV, "id,name\n", 0);
}

/* The writer gets one call per row (the head and the first row go
 * together), so nothing holds more than a row. */
static void test_one_row_per_call(void **state)
{
    engine_fixture *f = *state;
    sink s = { 0 };
    int64_t n = 0;
    pier_error err;
    assert_int_equal(convert(f->e, ALL, PIER_FORMAT_JSON, &s, &n, &err),
                     PIER_OK);
    assert_int_equal(n, 4);
    assert_int_equal(s.calls, 5);      /* 4 rows, then the closing "]" */
    free(s.text);
}

static void test_writer_failure(void **state)
{
    engine_fixture *f = *state;
    sink s = { .fail_at = 3 };
    int64_t n = -1;
    pier_error err;
    assert_int_equal(convert(f->e, ALL, PIER_FORMAT_JSONL, &s, &n, &err),
                     PIER_E_WRITE_FAILED);
    assert_string_equal(err.tag, "WriteFailed");
    assert_int_equal(n, 2);            /* two rows made it out */
    assert_int_equal(s.calls, 3);
    free(s.text);
}

static void test_bad_arguments(void **state)
{
    engine_fixture *f = *state;
    pier_error err;
    int64_t n = 7;
    sink s = { 0 };
    assert_int_equal(pier_cursor_write(&n, NULL, PIER_FORMAT_CSV, sink_write,
                                       &s, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(n, 0);
    pier_cursor *c = NULL;
    assert_int_equal(pier_query(&c, f->e, "t", ALL, NULL, NULL, &err),
                     PIER_OK);
    assert_int_equal(pier_cursor_write(NULL, c, (pier_format)9, sink_write,
                                       &s, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_cursor_write(NULL, c, PIER_FORMAT_CSV, NULL, &s,
                                       &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(s.calls, 0);
    pier_cursor_close(c);
    assert_null(pier_row_to_csv(NULL));
}

static void test_row_to_csv(void **state)
{
    engine_fixture *f = *state;
    pier_row *row = NULL;
    pier_error err;
    assert_int_equal(pier_row_get(&row, f->e, "t", "a", &err), PIER_OK);
    char *csv = pier_row_to_csv(row);
    assert_non_null(csv);
    /* Board order: id, updated_at, state, then the declared columns. */
    assert_string_equal(csv,
                        "a," FIXTURE_NOW_TEXT ",,true,-3,0.5,"
                        "\"say \"\"hi\"\", twice\","
                        "2026-01-02T01:04:05.000000Z,\"{\"\"k\"\":[1,2]}\"");
    pier_free(csv);
    pier_row_free(row);
}

/* ---- pier_params_set_json_value ---- */

static void expect_bound(pier_engine *e, const pier_params *p,
                         const char *want)
{
    pier_cursor *c = NULL;
    pier_error err;
    if (pier_query(&c, e, "t",
                   "SELECT typeof(:v) AS t, :v AS v FROM {{board}} "
                   "WHERE id = 'a'",
                   p, NULL, &err) != PIER_OK)
        fail_msg("%s: %s", err.tag, err.message);
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_non_null(row);
    char *json = pier_row_to_json(row);
    assert_string_equal(json, want);
    pier_free(json);
    pier_cursor_close(c);
}

static void test_param_json_value(void **state)
{
    engine_fixture *f = *state;
    pier_params *p = pier_params_new();
    pier_error err;
    static const struct {
        const char *json;
        const char *want;
    } cases[] = {
        { "5", "{\"t\":\"integer\",\"v\":5}" },
        { "-2.5", "{\"t\":\"real\",\"v\":-2.5}" },
        { "true", "{\"t\":\"integer\",\"v\":1}" },
        { "null", "{\"t\":\"null\",\"v\":null}" },
        { "\"5\"", "{\"t\":\"text\",\"v\":\"5\"}" },
        { " {\"b\": 1, \"a\": [true]} ",
          "{\"t\":\"text\",\"v\":\"{\\\"a\\\":[true],\\\"b\\\":1}\"}" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        assert_int_equal(pier_params_set_json_value(p, "v", cases[i].json,
                                                    strlen(cases[i].json),
                                                    &err),
                         PIER_OK);
        expect_bound(f->e, p, cases[i].want);
    }
    /* Not JSON: refused with where, and the value bound before stays. */
    assert_int_equal(pier_params_set_json_value(p, "v", "[1,", 3, &err),
                     PIER_E_INVALID_JSON);
    assert_string_equal(err.tag, "InvalidJson");
    assert_true(err.offset >= 0 && err.offset <= 3);
    assert_non_null(strstr(err.message, "'v'"));
    expect_bound(f->e, p,
                 "{\"t\":\"text\",\"v\":\"{\\\"a\\\":[true],\\\"b\\\":1}\"}");
    assert_int_equal(pier_params_set_json_value(p, "v", "alice", 5, &err),
                     PIER_E_INVALID_JSON);
    /* A NUL byte is no JSON, also after a number or a literal, where
     * jansson alone would stop reading ("1\0" would bind 1). */
    assert_int_equal(pier_params_set_json_value(p, "v", "1\0", 2, &err),
                     PIER_E_INVALID_JSON);
    assert_int_equal(err.offset, 1);
    assert_int_equal(pier_params_set_json(p, "{\"v\":true\0}", 10, &err),
                     PIER_E_INVALID_JSON);
    assert_int_equal(err.offset, 9);
    expect_bound(f->e, p,
                 "{\"t\":\"text\",\"v\":\"{\\\"a\\\":[true],\\\"b\\\":1}\"}");
    assert_int_equal(pier_params_set_json_value(NULL, "v", "1", 1, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_params_set_json_value(p, "", "1", 1, &err),
                     PIER_E_INVALID_ARGUMENT);
    pier_params_free(p);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_json_array),      T(test_jsonl_and_computed),
        T(test_csv),             T(test_empty_results),
        T(test_one_row_per_call), T(test_writer_failure),
        T(test_bad_arguments),   T(test_row_to_csv),
        T(test_param_json_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
