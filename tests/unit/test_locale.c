/*
 * test_locale.c: every parser and writer of numbers reads and writes '.'
 * as the decimal point whatever locale the application set.
 *
 * An application may call setlocale(LC_ALL, "") under a locale whose
 * decimal point is a comma (de_DE.UTF-8 here), or switch one thread with
 * uselocale(); strtod, strtof and printf's %g then read and write "1,5".
 * Each test runs the same checks twice: once with the process's locale set
 * (setlocale) and once with only the calling thread's (uselocale). The
 * checks go through every path a number takes: JSON rows and patches
 * (the row reader), a transaction's document, the shortest text of a double (values like
 * 0.30000000000000004 that need printf), nested JSON documents, the SQL
 * dialect's REAL, FLOAT32, DECIMAL and array columns, literals and
 * parameters, query parameters and results in JSON and CSV, the change
 * feed's payloads and the temporal types' fractions.
 *
 * The locale is generated into a temporary directory with localedef when
 * the system has not installed it (Debian's `locales` package, which the
 * setup step installs, brings the sources); the test fails if it cannot be
 * had, rather than pass without testing anything.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pier.h"
#include "support/engine_fixture.h"
#include "support/lakedir.h"

#define COMMA_LOCALE "de_DE.UTF-8"

static char *locale_dir;          /* a generated locale's LOCPATH */

/* glibc's setlocale keeps a copy of LOCPATH's directory list, made with
 * argz, that it never frees: not Pier's to fix. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:__argz_add_sep\n";
}
static locale_t comma;            /* the locale object, for uselocale */

/* Makes COMMA_LOCALE loadable: installed, or generated with localedef. */
static int group_setup(void **state)
{
    (void)state;
    comma = newlocale(LC_ALL_MASK, COMMA_LOCALE, (locale_t)0);
    if (comma == (locale_t)0) {
        locale_dir = lakedir_make();
        char cmd[512];
        snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 '%s/%s' "
                 ">/dev/null 2>&1", locale_dir, COMMA_LOCALE);
        if (locale_dir == NULL || system(cmd) != 0)
            fail_msg("cannot make the %s locale with localedef (Debian's "
                     "`locales` package; scripts/setup.sh installs it)",
                     COMMA_LOCALE);
        setenv("LOCPATH", locale_dir, 1);
        comma = newlocale(LC_ALL_MASK, COMMA_LOCALE, (locale_t)0);
    }
    if (comma == (locale_t)0)
        fail_msg("the %s locale cannot be loaded", COMMA_LOCALE);
    /* The locale must really write a comma, or the test proves nothing. */
    locale_t saved = uselocale(comma);
    char probe[16];
    snprintf(probe, sizeof probe, "%.1f", 1.5);
    uselocale(saved);
    if (strcmp(probe, "1,5") != 0)
        fail_msg("%s writes 1.5 as \"%s\"", COMMA_LOCALE, probe);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    freelocale(comma);
    if (locale_dir != NULL) {
        lakedir_remove_tree(locale_dir);
        free(locale_dir);
    }
    return 0;
}

typedef enum locale_way { GLOBAL, THREAD } locale_way;

typedef struct fixture {
    engine_fixture *f;
    locale_way how;
    locale_t saved;
} fixture;

/* Opens a lake, then sets the comma locale the way the test says. */
static int setup(void **state, locale_way how)
{
    fixture *fx = calloc(1, sizeof *fx);
    assert_non_null(fx);
    fx->f = fixture_open();
    fx->how = how;
    if (how == GLOBAL) {
        if (setlocale(LC_ALL, COMMA_LOCALE) == NULL)
            fail_msg("setlocale(%s) failed", COMMA_LOCALE);
    } else {
        fx->saved = uselocale(comma);
    }
    *state = fx;
    return 0;
}

static int setup_global(void **state)
{
    return setup(state, GLOBAL);
}

static int setup_thread(void **state)
{
    return setup(state, THREAD);
}

static int teardown(void **state)
{
    fixture *fx = *state;
    if (fx->how == GLOBAL)
        setlocale(LC_ALL, "C");
    else
        uselocale(fx->saved);
    int rc = fixture_close(fx->f);
    free(fx);
    return rc;
}

static char *row_json(pier_engine *e, const char *board, const char *id)
{
    pier_row *r = NULL;
    pier_error err;
    if (pier_row_get(&r, e, board, id, &err) != PIER_OK)
        fail_msg("get %s/%s: %s: %s", board, id, err.tag, err.message);
    char *json = pier_row_to_json(r);
    pier_row_free(r);
    assert_non_null(json);
    return json;
}

/* JSON rows and patches: numbers read as written, and written back with
 * '.' (0.30000000000000004 and 5e-324 need printf's %g). */
static void test_json_rows(void **state)
{
    fixture *fx = *state;
    pier_engine *e = fx->f->e;
    fixture_insert(e, "m", "{\"id\":\"a\",\"x\":1.5,\"y\":0.30000000000000004,"
                   "\"z\":5e-324,\"w\":2.5e300,\"doc\":{\"r\":0.1,"
                   "\"s\":[1.25e-5,-7.5]}}");
    char *json = row_json(e, "m", "a");
    assert_string_equal(json,
                        "{\"id\":\"a\",\"updated_at\":\"" FIXTURE_NOW_TEXT
                        "\",\"state\":null,\"x\":1.5,"
                        "\"y\":0.30000000000000004,"
                        "\"z\":4.94065645841247e-324,\"w\":2.5e+300,"
                        "\"doc\":{\"r\":0.1,\"s\":[1.25e-05,-7.5]}}");
    pier_free(json);
    pier_error err;
    const char patch[] = "{\"x\":-0.125,\"y\":1e-7}";
    assert_int_equal(pier_update_json(NULL, e, "m", "a", patch,
                                      strlen(patch), &err), PIER_OK);
    const char many[] = "[{\"id\":\"a\",\"patch\":{\"w\":3.25}}]";
    assert_int_equal(pier_update_many_json(NULL, e, "m", many, strlen(many),
                                           &err), PIER_OK);
    json = row_json(e, "m", "a");
    assert_non_null(strstr(json, "\"x\":-0.125,\"y\":1e-07,\"z\""));
    assert_non_null(strstr(json, "\"w\":3.25"));
    pier_free(json);
    /* The C builder's doubles, and a float column's shortest text. */
    pier_rows *rows = pier_rows_new();
    assert_int_equal(pier_rows_add(rows, &err), PIER_OK);
    assert_int_equal(pier_rows_set_text(rows, "id", "b", &err), PIER_OK);
    assert_int_equal(pier_rows_set_double(rows, "x", 0.1 + 0.2, &err),
                     PIER_OK);
    assert_int_equal(pier_insert_rows(NULL, e, "m", rows, &err), PIER_OK);
    pier_rows_free(rows);
    json = row_json(e, "m", "b");
    assert_non_null(strstr(json, "\"x\":0.30000000000000004"));
    pier_free(json);
    static const pier_column_def cols[] = { { "f", "float" } };
    pier_board_options o = PIER_BOARD_OPTIONS_INIT;
    o.columns = cols;
    o.ncolumns = 1;
    assert_int_equal(pier_board_create(NULL, e, "fl", &o, &err), PIER_OK);
    fixture_insert(e, "fl", "{\"id\":\"a\",\"f\":0.1}");
    json = row_json(e, "fl", "a");
    assert_non_null(strstr(json, "\"f\":0.1}"));
    pier_free(json);
}

/* A transaction's document of operations. */
static void test_tx_document(void **state)
{
    fixture *fx = *state;
    pier_engine *e = fx->f->e;
    const char *boards[] = { "m" };
    pier_tx *tx = NULL;
    pier_error err;
    assert_int_equal(pier_tx_begin(&tx, e, boards, 1, &err), PIER_OK);
    const char doc[] = "[{\"op\":\"insert\",\"board\":\"m\",\"rows\":"
                       "[{\"id\":\"a\",\"x\":1.5,\"y\":2.5e-3}]},"
                       "{\"op\":\"update\",\"board\":\"m\",\"id\":\"a\","
                       "\"patch\":{\"x\":0.30000000000000004}}]";
    assert_int_equal(pier_tx_apply_json(tx, doc, sizeof doc - 1, &err),
                     PIER_OK);
    assert_int_equal(pier_tx_commit(NULL, tx, &err), PIER_OK);
    char *json = row_json(e, "m", "a");
    assert_non_null(strstr(json, "\"x\":0.30000000000000004,"
                                 "\"y\":0.0025}"));
    pier_free(json);
}

/* The change feed's payloads are JSON with '.'. */
static void test_feed_payloads(void **state)
{
    fixture *fx = *state;
    pier_engine *e = fx->f->e;
    fixture_insert(e, "m", "{\"id\":\"a\",\"x\":0.30000000000000004}");
    pier_changes_page *page = NULL;
    pier_error err;
    assert_int_equal(pier_changes(&page, e, "m", 0, 0, &err), PIER_OK);
    assert_int_equal(page->nrecords, 2);
    assert_string_equal(page->records[1].payload,
                        "{\"rows\":[{\"id\":\"a\","
                        "\"x\":0.30000000000000004}]}");
    pier_changes_page_free(page);
}

/* Runs a script and returns its result as JSON. */
static char *exec_json(pier_engine *e, const char *sql,
                       const pier_params *p)
{
    pier_cursor *c = NULL;
    pier_error err;
    if (pier_exec(&c, e, sql, p, &err) != PIER_OK)
        fail_msg("%s: %s: %s", sql, err.tag, err.message);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_non_null(f);
    const pier_row *row = NULL;
    while (pier_cursor_next(&row, c, &err) == PIER_OK && row != NULL) {
        char *j = pier_row_to_json(row);
        fputs(j, f);
        pier_free(j);
    }
    fclose(f);
    pier_cursor_close(c);
    return out;
}

/* The SQL dialect: literals, parameters (JSON and C), casts, every
 * column kind that holds a fraction, and exact sums. */
static void test_sql_dialect(void **state)
{
    fixture *fx = *state;
    pier_engine *e = fx->f->e;
    char *out = exec_json(e, "CREATE TABLE t (r REAL, f FLOAT32, "
                          "d DECIMAL(12,3), a DOUBLE[], "
                          "i INTERVAL, tm TIME)", NULL);
    free(out);
    pier_params *p = pier_params_new();
    pier_error err;
    const char params[] = "{\"r\":2.25,\"d\":\"4.125\"}";
    assert_int_equal(pier_params_set_json(p, params, sizeof params - 1,
                                          &err), PIER_OK);
    assert_int_equal(pier_params_set_double(p, ":f", 0.5, &err), PIER_OK);
    out = exec_json(e, "INSERT INTO t VALUES (1.5, 0.1, 12.5, "
                    "'[1.5, 0.30000000000000004]', 'PT1.5S', "
                    "'10:00:00.25'); INSERT INTO t (r, f, d) VALUES "
                    "(:r, :f, :d)", p);
    free(out);
    pier_params_free(p);
    out = exec_json(e, "SELECT r, f, d, a, i, tm FROM t ORDER BY r", NULL);
    assert_string_equal(out,
                        "{\"r\":1.5,\"f\":0.1,\"d\":\"12.500\","
                        "\"a\":[1.5,0.30000000000000004],"
                        "\"i\":\"PT1.5S\",\"tm\":\"10:00:00.250000\"}"
                        "{\"r\":2.25,\"f\":0.5,\"d\":\"4.125\",\"a\":null,"
                        "\"i\":null,\"tm\":null}");
    free(out);
    out = exec_json(e, "SELECT sum(d) AS s, sum(r) AS sr, "
                    "CAST('2.5' AS REAL) * 2 AS c FROM t", NULL);
    assert_string_equal(out, "{\"s\":\"16.625\",\"sr\":3.75,\"c\":5.0}");
    free(out);
}

static bool collect(const char *bytes, size_t len, void *payload)
{
    return fwrite(bytes, 1, len, payload) == len;
}

/* Query parameters from JSON and results in JSON and CSV. */
static void test_query_params_and_output(void **state)
{
    fixture *fx = *state;
    pier_engine *e = fx->f->e;
    fixture_insert(e, "m", "[{\"id\":\"a\",\"x\":1.5},{\"id\":\"b\","
                   "\"x\":0.25}]");
    pier_params *p = pier_params_new();
    pier_error err;
    assert_int_equal(pier_params_set_json_value(p, ":k", "0.5", 3, &err),
                     PIER_OK);
    static const pier_format formats[] = { PIER_FORMAT_JSON,
                                           PIER_FORMAT_CSV };
    static const char *const want[] = {
        "[\n{\"id\":\"a\",\"y\":0.75,\"z\":0.30000000000000004}\n]\n",
        "id,y,z\na,0.75,0.30000000000000004\n",
    };
    for (size_t i = 0; i < 2; i++) {
        pier_cursor *c = NULL;
        assert_int_equal(pier_query(&c, e, "m", "SELECT id, x * :k AS y, "
                                    "0.1 + 0.2 AS z FROM {{board}} "
                                    "WHERE x > :k", p, NULL, &err), PIER_OK);
        char *out = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&out, &len);
        assert_non_null(f);
        assert_int_equal(pier_cursor_write(NULL, c, formats[i], collect, f,
                                           &err), PIER_OK);
        fclose(f);
        pier_cursor_close(c);
        assert_string_equal(out, want[i]);
        free(out);
    }
    pier_params_free(p);
}

/* A board column of the dialect's types: decimals and intervals from
 * JSON numbers and texts. */
static void test_board_typed_columns(void **state)
{
    fixture *fx = *state;
    pier_engine *e = fx->f->e;
    static const pier_column_def cols[] = {
        { "price", "decimal(10,2)" }, { "span", "interval" },
        { "at", "timestamp" },
    };
    pier_board_options o = PIER_BOARD_OPTIONS_INIT;
    o.columns = cols;
    o.ncolumns = 3;
    pier_error err;
    assert_int_equal(pier_board_create(NULL, e, "shop", &o, &err), PIER_OK);
    fixture_insert(e, "shop", "{\"id\":\"a\",\"price\":12.5,"
                   "\"span\":\"PT0.5S\",\"at\":\"2026-01-01T00:00:00.5Z\"}");
    char *json = row_json(e, "shop", "a");
    assert_non_null(strstr(json, "\"price\":\"12.50\",\"span\":\"PT0.5S\","
                           "\"at\":\"2026-01-01T00:00:00.500000Z\""));
    pier_free(json);
}

int main(void)
{
#define T(fn)                                                             \
    cmocka_unit_test_setup_teardown(fn, setup_global, teardown),          \
        cmocka_unit_test_setup_teardown(fn, setup_thread, teardown)
    const struct CMUnitTest tests[] = {
        T(test_json_rows),
        T(test_tx_document),
        T(test_feed_payloads),
        T(test_sql_dialect),
        T(test_query_params_and_output),
        T(test_board_typed_columns),
    };
#undef T
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
