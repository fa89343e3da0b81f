/*
 * test_limits.c: limits on statements (pier_limits) and interrupting them
 * (pier_cursor_interrupt, pier_interrupt), for board queries and for
 * pier_exec.
 *
 * Each limit is reached by a statement that would otherwise run forever
 * or take the machine (a recursive CTE without end, zeroblob(1e9), a
 * growing queue of large values) and must fail with LimitExceeded naming
 * the limit; a pier_exec that fails so changes nothing. The defaults hold
 * without any option; the options of the engine and of one query change
 * them, PIER_LIMIT_NONE lifts them, and bad values are InvalidArgument. A
 * reader stopped by a limit serves the next query with that query's own
 * limits. Interruptions come from another thread, while the statement
 * runs and while the cursor waits between rows; the engine stays usable.
 * No assertion is about time: a statement that is not stopped makes the
 * test hang, which ctest reports.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pier.h"
#include "support/engine_fixture.h"

typedef engine_fixture fixture;

/* A query that never ends and never yields a row. */
#define ENDLESS                                                           \
    "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) "    \
    "SELECT i FROM r WHERE i < 0"
/* ... one that yields its first row at once, then never another. */
#define ONE_THEN_ENDLESS                                                  \
    "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) "    \
    "SELECT i FROM r WHERE i = 1 OR i < 0"

static int setup(void **state)
{
    fixture *f = fixture_open();
    fixture_insert(f->e, "b",
                   "[{\"id\":\"a\",\"n\":1},{\"id\":\"b\",\"n\":2}]");
    pier_error err;
    if (pier_exec(NULL, f->e, "CREATE TABLE t (n INT64)", NULL, &err) !=
        PIER_OK)
        fail_msg("create t: %s: %s", err.tag, err.message);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    return fixture_close(*state);
}

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* Runs a query to its end: the status of the first failure, else OK. */
static pier_status query_all(pier_engine *e, const char *sql,
                             const pier_query_options *o, int64_t *rows,
                             pier_error *err)
{
    pier_cursor *c = NULL;
    pier_status rc = pier_query(&c, e, "b", sql, NULL, o, err);
    int64_t n = 0;
    const pier_row *row = NULL;
    while (rc == PIER_OK &&
           (rc = pier_cursor_next(&row, c, err)) == PIER_OK && row != NULL)
        n++;
    pier_cursor_close(c);
    if (rows != NULL)
        *rows = n;
    return rc;
}

static int64_t count_t(pier_engine *e)
{
    pier_cursor *c = NULL;
    pier_error err;
    const pier_row *row = NULL;
    if (pier_exec(&c, e, "SELECT count(*) FROM t", NULL, &err) != PIER_OK ||
        pier_cursor_next(&row, c, &err) != PIER_OK || row == NULL)
        fail_msg("count t: %s: %s", err.tag, err.message);
    int64_t n = pier_row_value(row, 0)->as.integer;
    pier_cursor_close(c);
    return n;
}

static pier_engine *open_with(fixture *f, pier_limits limits)
{
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.durability = PIER_DURABILITY_NORMAL;
    o.limits = limits;
    pier_engine *e = NULL;
    pier_error err;
    if (pier_open(&e, f->dir, &o, &err) != PIER_OK)
        fail_msg("open: %s: %s", err.tag, err.message);
    return e;
}

/* ---- time ---- */

static void test_time_limit_of_a_query(void **state)
{
    fixture *f = *state;
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    o.limits.time_ms = 200;
    pier_error err;
    assert_int_equal(query_all(f->e, ENDLESS, &o, NULL, &err),
                     PIER_E_LIMIT_EXCEEDED);
    assert_string_equal(err.tag, "LimitExceeded");
    assert_string_equal(err.message,
                        "the query ran for more than 200 ms, its time limit");
    /* The same reader runs the next query, which has all the time. */
    int64_t rows = 0;
    assert_int_equal(query_all(f->e, "SELECT * FROM {{board}}", &o, &rows,
                               &err), PIER_OK);
    assert_int_equal(rows, 2);
}

/* Only the statement's own steps count: a caller slow between rows does
 * not use the query's time. */
static void test_time_between_rows_is_the_callers(void **state)
{
    fixture *f = *state;
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    o.limits.time_ms = 100;
    pier_cursor *c = NULL;
    pier_error err;
    assert_int_equal(pier_query(&c, f->e, "b", "SELECT id FROM {{board}} "
                                "ORDER BY id", NULL, &o, &err), PIER_OK);
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_non_null(row);
    sleep_ms(300);
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_non_null(row);
    assert_string_equal(pier_row_value(row, 0)->text, "b");
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_null(row);
    pier_cursor_close(c);
}

/* The engine's own limit applies to every query that sets none; a
 * query's own replaces it, and PIER_LIMIT_NONE lifts it. */
static void test_engine_limits_and_query_limits(void **state)
{
    fixture *f = *state;
    pier_limits l = PIER_LIMITS_INIT;
    l.time_ms = 150;
    pier_engine *e = open_with(f, l);
    pier_error err;
    assert_int_equal(query_all(e, ENDLESS, NULL, NULL, &err),
                     PIER_E_LIMIT_EXCEEDED);
    assert_string_equal(err.message,
                        "the query ran for more than 150 ms, its time limit");
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    o.limits.time_ms = 50;
    assert_int_equal(query_all(e, ENDLESS, &o, NULL, &err),
                     PIER_E_LIMIT_EXCEEDED);
    assert_string_equal(err.message,
                        "the query ran for more than 50 ms, its time limit");
    /* A finite query longer than the engine's limit, allowed by its own:
     * 2,000,000 rows of a CTE take far more than 150 ms under ASan. */
    o.limits.time_ms = PIER_LIMIT_NONE;
    int64_t rows = 0;
    assert_int_equal(query_all(e, "WITH RECURSIVE r(i) AS (SELECT 1 UNION "
                               "ALL SELECT i + 1 FROM r WHERE i < 2000000) "
                               "SELECT sum(i) FROM r", &o, &rows, &err),
                     PIER_OK);
    assert_int_equal(rows, 1);
    pier_close(&e);
}

/* pier_exec: the whole call counts, and nothing of it is written. */
static void test_time_limit_of_exec(void **state)
{
    fixture *f = *state;
    pier_limits l = PIER_LIMITS_INIT;
    l.time_ms = 200;
    pier_engine *e = open_with(f, l);
    pier_error err;
    assert_int_equal(pier_exec(NULL, e, "INSERT INTO t VALUES (1); INSERT "
                               "INTO t WITH RECURSIVE r(i) AS (SELECT 1 "
                               "UNION ALL SELECT i + 1 FROM r) SELECT i "
                               "FROM r", NULL, &err),
                     PIER_E_LIMIT_EXCEEDED);
    assert_string_equal(err.message,
                        "the script ran for more than 200 ms, its time "
                        "limit");
    assert_int_equal(count_t(e), 0);
    /* The engine writes on. */
    assert_int_equal(pier_exec(NULL, e, "INSERT INTO t VALUES (2)", NULL,
                               &err), PIER_OK);
    assert_int_equal(count_t(e), 1);
    pier_close(&e);
}

/* ---- one value ---- */

static void test_value_limit_default(void **state)
{
    fixture *f = *state;
    pier_error err;
    /* A gigabyte of zeros, which JSON would make two. */
    assert_int_equal(query_all(f->e, "SELECT zeroblob(1000000000) AS z",
                               NULL, NULL, &err), PIER_E_LIMIT_EXCEEDED);
    assert_string_equal(err.message, "the query made or read a value longer "
                        "than 64 MiB, its limit on one value");
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO t VALUES "
                               "(length(zeroblob(1000000000)))", NULL, &err),
                     PIER_E_LIMIT_EXCEEDED);
    assert_string_equal(err.message, "the script made or read a value "
                        "longer than 64 MiB, its limit on one value");
    assert_int_equal(count_t(f->e), 0);
}

static void test_value_limit_of_a_query(void **state)
{
    fixture *f = *state;
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    o.limits.value_bytes = 1000;
    pier_error err;
    assert_int_equal(query_all(f->e, "SELECT randomblob(1001)", &o, NULL,
                               &err), PIER_E_LIMIT_EXCEEDED);
    assert_string_equal(err.message, "the query made or read a value longer "
                        "than 1000 bytes, its limit on one value");
    assert_int_equal(query_all(f->e, "SELECT group_concat(hex(randomblob("
                               "100))) FROM {{board}}, {{board}} AS x, "
                               "{{board}} AS y", &o, NULL, &err),
                     PIER_E_LIMIT_EXCEEDED);
    int64_t rows = 0;
    assert_int_equal(query_all(f->e, "SELECT randomblob(1000)", &o, &rows,
                               &err), PIER_OK);
    assert_int_equal(rows, 1);
    /* A parameter longer than the limit is refused before anything runs. */
    char *big = malloc(1002);
    assert_non_null(big);
    memset(big, 'x', 1001);
    big[1001] = '\0';
    pier_params *p = pier_params_new();
    assert_int_equal(pier_params_set_text(p, ":s", big, &err), PIER_OK);
    pier_cursor *c = NULL;
    assert_int_equal(pier_query(&c, f->e, "b", "SELECT length(:s)", p, &o,
                                &err), PIER_E_LIMIT_EXCEEDED);
    assert_null(c);
    assert_string_equal(err.message, "query parameter 1 is longer than 1000 "
                        "bytes, the query's limit on one value");
    pier_params_free(p);
    free(big);
    /* The reader is back to the defaults for the next query. */
    assert_int_equal(query_all(f->e, "SELECT randomblob(100000)", NULL,
                               &rows, &err), PIER_OK);
    assert_int_equal(rows, 1);
}

/* A stored value longer than the limit cannot be read either. */
static void test_value_limit_on_stored_rows(void **state)
{
    fixture *f = *state;
    char row[3000];
    snprintf(row, sizeof row, "{\"id\":\"long\",\"s\":\"%02000d\"}", 0);
    fixture_insert(f->e, "b", row);
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    o.limits.value_bytes = 1500;
    pier_error err;
    assert_int_equal(query_all(f->e, "SELECT s FROM {{board}} WHERE id = "
                               "'long'", &o, NULL, &err),
                     PIER_E_LIMIT_EXCEEDED);
    o.limits.value_bytes = 4000;
    int64_t rows = 0;
    assert_int_equal(query_all(f->e, "SELECT s FROM {{board}} WHERE id = "
                               "'long'", &o, &rows, &err), PIER_OK);
    assert_int_equal(rows, 1);
}

/* ---- memory ---- */

/* A queue of a hundred 1 MB values held for a sort. */
#define BIG_SORT                                                          \
    "WITH RECURSIVE r(i, s) AS (SELECT 1, randomblob(1000000) UNION ALL " \
    "SELECT i + 1, randomblob(1000000) FROM r WHERE i < 100) "            \
    "SELECT i, length(s) FROM (SELECT * FROM r ORDER BY s)"

static void test_memory_limit_of_a_query(void **state)
{
    fixture *f = *state;
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    o.limits.memory_bytes = 8 * 1024 * 1024;
    pier_error err;
    assert_int_equal(query_all(f->e, BIG_SORT, &o, NULL, &err),
                     PIER_E_LIMIT_EXCEEDED);
    assert_string_equal(err.message, "the query took more than 8 MiB of "
                        "memory, its memory limit");
    o.limits.memory_bytes = PIER_LIMIT_NONE;
    int64_t rows = 0;
    assert_int_equal(query_all(f->e, BIG_SORT, &o, &rows, &err), PIER_OK);
    assert_int_equal(rows, 100);
}

/* pier_exec holds its result's rows: they count. */
static void test_memory_limit_of_exec_result(void **state)
{
    fixture *f = *state;
    pier_limits l = PIER_LIMITS_INIT;
    l.memory_bytes = 1024 * 1024;
    pier_engine *e = open_with(f, l);
    pier_cursor *c = NULL;
    pier_error err;
    assert_int_equal(pier_exec(&c, e, "INSERT INTO t VALUES (7); WITH "
                               "RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT "
                               "i + 1 FROM r WHERE i < 1000) SELECT i, "
                               "randomblob(10000) FROM r", NULL, &err),
                     PIER_E_LIMIT_EXCEEDED);
    assert_null(c);
    assert_string_equal(err.message, "the script took more than 1 MiB of "
                        "memory, its memory limit");
    assert_int_equal(count_t(e), 0);
    assert_int_equal(pier_exec(&c, e, "WITH RECURSIVE r(i) AS (SELECT 1 "
                               "UNION ALL SELECT i + 1 FROM r WHERE i < 10) "
                               "SELECT i, randomblob(10000) FROM r", NULL,
                               &err), PIER_OK);
    pier_cursor_close(c);
    pier_close(&e);
}

/* ---- bad limits ---- */

static void test_bad_limits(void **state)
{
    fixture *f = *state;
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.limits.memory_bytes = -2;
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, f->dir, &o, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_null(e);
    assert_string_equal(err.message, "limit memory_bytes is -2: a limit is "
                        "positive, 0 (the default) or PIER_LIMIT_NONE");
    pier_query_options q = PIER_QUERY_OPTIONS_INIT;
    q.limits.time_ms = INT64_MIN;
    pier_cursor *c = NULL;
    assert_int_equal(pier_query(&c, f->e, "b", "SELECT 1", NULL, &q, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_null(c);
}

/* Callers built against the first version of the options structs, which
 * had no limits, get the defaults. */
static void test_version_1_options(void **state)
{
    fixture *f = *state;
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.version = 1;
    o.limits.time_ms = -5;            /* not part of a version 1 struct */
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, f->dir, &o, &err), PIER_OK);
    pier_query_options q = PIER_QUERY_OPTIONS_INIT;
    q.version = 1;
    q.limits.value_bytes = -5;
    assert_int_equal(query_all(e, "SELECT zeroblob(1000000000)", &q, NULL,
                               &err), PIER_E_LIMIT_EXCEEDED);
    assert_string_equal(err.message, "the query made or read a value longer "
                        "than 64 MiB, its limit on one value");
    pier_close(&e);
}

/* ---- interruptions ---- */

typedef struct interrupter {
    pier_cursor *cursor;       /* pier_cursor_interrupt this one... */
    pier_engine *engine;       /* ... or pier_interrupt this one... */
    atomic_bool done;          /* ... every 20 ms until this is set */
} interrupter;

static void *interrupt_until_done(void *arg)
{
    interrupter *in = arg;
    while (!atomic_load(&in->done)) {
        sleep_ms(20);
        if (in->cursor != NULL)
            pier_cursor_interrupt(in->cursor);
        else
            pier_interrupt(in->engine);
    }
    return NULL;
}

static void start(pthread_t *t, interrupter *in)
{
    atomic_init(&in->done, false);
    assert_int_equal(pthread_create(t, NULL, interrupt_until_done, in), 0);
}

static void stop(pthread_t t, interrupter *in)
{
    atomic_store(&in->done, true);
    pthread_join(t, NULL);
}

/* From another thread, while pier_cursor_next runs: it fails, and every
 * call after it; the engine queries on. */
static void test_cursor_interrupt_while_running(void **state)
{
    fixture *f = *state;
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    o.limits.time_ms = PIER_LIMIT_NONE;
    pier_cursor *c = NULL;
    pier_error err;
    assert_int_equal(pier_query(&c, f->e, "b", ONE_THEN_ENDLESS, NULL, &o,
                                &err), PIER_OK);
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_non_null(row);
    interrupter in = { .cursor = c };
    pthread_t t;
    start(&t, &in);
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_E_INTERRUPTED);
    stop(t, &in);
    assert_string_equal(err.tag, "Interrupted");
    assert_string_equal(err.message, "the query was interrupted");
    assert_null(row);
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_E_INTERRUPTED);
    pier_cursor_close(c);
    int64_t rows = 0;
    assert_int_equal(query_all(f->e, "SELECT * FROM {{board}}", NULL, &rows,
                               &err), PIER_OK);
    assert_int_equal(rows, 2);
}

/* Between rows: the next call fails at once, whatever the statement. */
static void test_cursor_interrupt_between_rows(void **state)
{
    fixture *f = *state;
    pier_cursor *c = NULL;
    pier_error err;
    assert_int_equal(pier_query(&c, f->e, "b", "SELECT id FROM {{board}}",
                                NULL, NULL, &err), PIER_OK);
    pier_cursor_interrupt(c);
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_E_INTERRUPTED);
    assert_null(row);
    pier_cursor_close(c);
    /* A cursor of pier_exec has nothing to stop. */
    assert_int_equal(pier_exec(&c, f->e, "SELECT 1", NULL, &err), PIER_OK);
    pier_cursor_interrupt(c);
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_non_null(row);
    pier_cursor_close(c);
    pier_cursor_interrupt(NULL);
    pier_interrupt(NULL);
}

/* pier_interrupt stops a query that runs inside pier_query itself. */
static void test_engine_interrupt_stops_a_query(void **state)
{
    fixture *f = *state;
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    o.limits.time_ms = PIER_LIMIT_NONE;
    interrupter in = { .engine = f->e };
    pthread_t t;
    start(&t, &in);
    pier_error err;
    assert_int_equal(query_all(f->e, ENDLESS, &o, NULL, &err),
                     PIER_E_INTERRUPTED);
    stop(t, &in);
    /* Statements begun after it run. */
    int64_t rows = 0;
    assert_int_equal(query_all(f->e, "SELECT * FROM {{board}}", NULL, &rows,
                               &err), PIER_OK);
    assert_int_equal(rows, 2);
}

/* ... and an open cursor waiting between rows. */
static void test_engine_interrupt_stops_open_cursors(void **state)
{
    fixture *f = *state;
    pier_cursor *c = NULL;
    pier_error err;
    assert_int_equal(pier_query(&c, f->e, "b", "SELECT id FROM {{board}}",
                                NULL, NULL, &err), PIER_OK);
    pier_interrupt(f->e);
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_E_INTERRUPTED);
    pier_cursor_close(c);
    int64_t rows = 0;
    assert_int_equal(query_all(f->e, "SELECT * FROM {{board}}", NULL, &rows,
                               &err), PIER_OK);
    assert_int_equal(rows, 2);
}

/* ... and a pier_exec in progress, which then changes nothing. */
static void test_engine_interrupt_stops_exec(void **state)
{
    fixture *f = *state;
    pier_limits l = PIER_LIMITS_INIT;
    l.time_ms = PIER_LIMIT_NONE;
    pier_engine *e = open_with(f, l);
    interrupter in = { .engine = e };
    pthread_t t;
    start(&t, &in);
    pier_error err;
    assert_int_equal(pier_exec(NULL, e, "INSERT INTO t VALUES (1); INSERT "
                               "INTO t WITH RECURSIVE r(i) AS (SELECT 1 "
                               "UNION ALL SELECT i + 1 FROM r) SELECT i "
                               "FROM r", NULL, &err),
                     PIER_E_INTERRUPTED);
    stop(t, &in);
    assert_string_equal(err.message, "the script was interrupted");
    assert_int_equal(count_t(e), 0);
    /* Board writes are never interrupted, and the engine writes on. */
    pier_interrupt(e);
    fixture_insert(e, "b", "{\"id\":\"c\"}");
    assert_int_equal(pier_exec(NULL, e, "INSERT INTO t VALUES (1)", NULL,
                               &err), PIER_OK);
    assert_int_equal(count_t(e), 1);
    pier_close(&e);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_time_limit_of_a_query),
        T(test_time_between_rows_is_the_callers),
        T(test_engine_limits_and_query_limits),
        T(test_time_limit_of_exec),
        T(test_value_limit_default),
        T(test_value_limit_of_a_query),
        T(test_value_limit_on_stored_rows),
        T(test_memory_limit_of_a_query),
        T(test_memory_limit_of_exec_result),
        T(test_bad_limits),
        T(test_version_1_options),
        T(test_cursor_interrupt_while_running),
        T(test_cursor_interrupt_between_rows),
        T(test_engine_interrupt_stops_a_query),
        T(test_engine_interrupt_stops_open_cursors),
        T(test_engine_interrupt_stops_exec),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
