/*
 * test_backend.c: what the lake itself refuses reaches the caller with a
 * stable tag and SQLite's own code: a write that cannot get the lock
 * within the busy timeout is WriteFailed (and writes nothing), and a stored
 * value that does not match its column's type is ReadFailed, naming the
 * board and column.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pier.h"
#include "support/lakedir.h"

typedef struct fixture {
    char *dir;
    char *lake;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->dir = lakedir_make();
    assert_non_null(f->dir);
    f->lake = lakedir_join(f->dir, "lake.sqlite");
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    lakedir_remove_tree(f->dir);
    free(f->dir);
    free(f->lake);
    free(f);
    return 0;
}

static pier_engine *open_engine(const fixture *f, int busy_timeout_ms)
{
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.busy_timeout_ms = busy_timeout_ms;
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, f->dir, &o, &err), PIER_OK);
    return e;
}

static void insert_ok(pier_engine *e, const char *board, const char *json)
{
    pier_error err;
    if (pier_insert_json(NULL, e, board, json, strlen(json), &err) != PIER_OK)
        fail_msg("%s: %s", err.tag, err.message);
}

static void a_locked_lake_is_write_failed(void **state)
{
    fixture *f = *state;
    pier_engine *e = open_engine(f, 0);
    insert_ok(e, "b", "{\"id\":\"a\",\"n\":1}");
    char *before = lakedir_sql_dump(f->lake);
    assert_non_null(before);

    /* Another connection holds the write lock. */
    sqlite3 *other = NULL;
    assert_int_equal(sqlite3_open(f->lake, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL),
                     SQLITE_OK);

    pier_error err;
    const char row[] = "{\"id\":\"b\",\"n\":2,\"new\":true}";
    int64_t wm = -7;
    assert_int_equal(pier_insert_json(&wm, e, "b", row, sizeof row - 1,
                                      &err), PIER_E_WRITE_FAILED);
    assert_string_equal(err.tag, "WriteFailed");
    assert_non_null(strstr(err.message, "locked by another writer"));
    assert_int_equal(err.backend_code & 0xff, SQLITE_BUSY);
    assert_int_equal(wm, -7);             /* no watermark was handed out */
    assert_int_equal(pier_board_create(NULL, e, "c", NULL, &err),
                     PIER_E_WRITE_FAILED);
    assert_int_equal(pier_board_drop(NULL, e, "b", &err),
                     PIER_E_WRITE_FAILED);

    /* Reads still work beside the writer (WAL). */
    int64_t n = 0;
    assert_int_equal(pier_row_count(&n, e, "b", &err), PIER_OK);
    assert_int_equal(n, 1);

    sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(other);
    char *after = lakedir_sql_dump(f->lake);
    assert_string_equal(before, after);   /* nothing was written */
    free(before);
    free(after);

    /* With the lock free again, the same write goes through. */
    assert_int_equal(pier_insert_json(&wm, e, "b", row, sizeof row - 1,
                                      &err), PIER_OK);
    pier_close(&e);
}

static void *release_later(void *db)
{
    struct timespec ts = { 0, 200 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    return NULL;
}

static void a_busy_timeout_waits_for_the_lock(void **state)
{
    fixture *f = *state;
    pier_engine *e = open_engine(f, 5000);
    insert_ok(e, "b", "{\"id\":\"a\"}");
    /* The lock is held for 200 ms by another connection: a write waits for
     * it instead of failing. */
    sqlite3 *other = NULL;
    assert_int_equal(sqlite3_open(f->lake, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL),
                     SQLITE_OK);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, release_later, other), 0);
    insert_ok(e, "b", "{\"id\":\"c\"}");
    pthread_join(t, NULL);
    sqlite3_close(other);
    pier_error err;
    int64_t n = 0;
    assert_int_equal(pier_row_count(&n, e, "b", &err), PIER_OK);
    assert_int_equal(n, 2);
    pier_close(&e);
}

static int count_rows(const pier_row *row, void *payload)
{
    (void)row;
    ++*(int *)payload;
    return 0;
}

static void a_value_that_does_not_match_its_type_is_read_failed(void **state)
{
    fixture *f = *state;
    pier_engine *e = open_engine(f, 0);
    insert_ok(e, "b", "[{\"id\":\"a\",\"n\":1},{\"id\":\"z\",\"n\":2}]");
    pier_close(&e);
    /* Something that bypassed Pier wrote text into a bigint column. */
    assert_int_equal(lakedir_sql_exec(f->lake, "UPDATE \"_pier_b_b\" "
                                      "SET n = 'oops' WHERE id = 'a'",
                                      false), SQLITE_OK);
    e = open_engine(f, 0);
    pier_error err;
    pier_row *row = NULL;
    assert_int_equal(pier_row_get(&row, e, "b", "a", &err),
                     PIER_E_READ_FAILED);
    assert_null(row);
    assert_string_equal(err.tag, "ReadFailed");
    assert_string_equal(err.board, "b");
    assert_string_equal(err.column, "n");
    assert_non_null(strstr(err.message, "bigint"));
    /* The healthy row still reads; a scan stops at the damaged one. */
    assert_int_equal(pier_row_get(&row, e, "b", "z", &err), PIER_OK);
    assert_string_equal(pier_row_find(row, "n")->text, "2");
    pier_row_free(row);
    int seen = 0;
    assert_int_equal(pier_board_scan(e, "b", count_rows, &seen, &err),
                     PIER_E_READ_FAILED);
    assert_int_equal(seen, 0);
    pier_close(&e);
}

/* A json cell is handed out as it is stored (rows, query results and
 * their JSON embed it): one that is not JSON, written behind Pier's back,
 * fails the read as any value that does not match its type. */
static void a_json_value_that_is_not_json_is_read_failed(void **state)
{
    fixture *f = *state;
    pier_engine *e = open_engine(f, 0);
    insert_ok(e, "b", "[{\"id\":\"a\",\"j\":{\"k\":1}},"
                      "{\"id\":\"z\",\"j\":[2]}]");
    pier_close(&e);
    assert_int_equal(lakedir_sql_exec(f->lake, "UPDATE \"_pier_b_b\" "
                                      "SET j = '{\"k\":' WHERE id = 'a'",
                                      false), SQLITE_OK);
    e = open_engine(f, 0);
    pier_error err;
    pier_row *row = NULL;
    assert_int_equal(pier_row_get(&row, e, "b", "a", &err),
                     PIER_E_READ_FAILED);
    assert_null(row);
    assert_string_equal(err.column, "j");
    assert_int_equal(pier_row_get(&row, e, "b", "z", &err), PIER_OK);
    assert_string_equal(pier_row_find(row, "j")->text, "[2]");
    pier_row_free(row);
    /* A query reads a value that is no encoding of its column's type as
     * what SQLite holds (docs/query.md): here text, so its JSON quotes it. */
    pier_cursor *c = NULL;
    assert_int_equal(pier_query(&c, e, "b", "SELECT id, j FROM {{board}} "
                                "ORDER BY id", NULL, NULL, &err), PIER_OK);
    const pier_row *r = NULL;
    assert_int_equal(pier_cursor_next(&r, c, &err), PIER_OK);
    assert_int_equal(pier_row_find(r, "j")->kind, PIER_KIND_TEXT);
    char *json = pier_row_to_json(r);
    assert_string_equal(json, "{\"id\":\"a\",\"j\":\"{\\\"k\\\":\"}");
    pier_free(json);
    pier_cursor_close(c);
    pier_close(&e);
}

static void a_damaged_catalog_is_lake_unavailable_on_read(void **state)
{
    fixture *f = *state;
    pier_engine *e = open_engine(f, 0);
    insert_ok(e, "b", "{\"id\":\"a\",\"n\":1}");
    pier_close(&e);
    assert_int_equal(lakedir_sql_exec(f->lake,
                                      "UPDATE _pier_columns SET type = "
                                      "'strnig' WHERE name = 'n'; "
                                      "UPDATE _pier_meta SET value = value "
                                      "+ 1 WHERE key = 'catalog_version'",
                                      false), SQLITE_OK);
    e = open_engine(f, 0);
    pier_error err;
    int64_t n = 0;
    assert_int_equal(pier_row_count(&n, e, "b", &err),
                     PIER_E_LAKE_UNAVAILABLE);
    assert_non_null(strstr(err.message, "damaged"));
    pier_close(&e);
}

/* A board's catalog entry whose id is not a board id is damage too (so
 * is a NULL one, which only a damaged file can hold: the table is STRICT,
 * its key NOT NULL). */
static void a_damaged_board_id_is_lake_unavailable(void **state)
{
    fixture *f = *state;
    static const char *const ids[] = { "'Not an id'", "''", "'a\"b'" };
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        pier_engine *e = open_engine(f, 0);
        insert_ok(e, "b", "{\"id\":\"a\",\"n\":1}");
        pier_close(&e);
        char sql[300];
        snprintf(sql, sizeof sql,
                 "UPDATE _pier_boards SET board = %s WHERE board = 'b'; "
                 "UPDATE _pier_columns SET board = %s WHERE board = 'b'; "
                 "UPDATE _pier_meta SET value = value + 1 "
                 "WHERE key = 'catalog_version'", ids[i], ids[i]);
        assert_int_equal(lakedir_sql_exec(f->lake, sql, false), SQLITE_OK);
        e = open_engine(f, 0);
        pier_error err;
        char **boards = NULL;
        assert_int_equal(pier_board_list(&boards, e, &err),
                         PIER_E_LAKE_UNAVAILABLE);
        assert_null(boards);
        assert_non_null(strstr(err.message, "damaged"));
        pier_close(&e);
        assert_int_equal(lakedir_sql_exec(f->lake,
                                          "DELETE FROM _pier_columns; "
                                          "DELETE FROM _pier_boards; "
                                          "DROP TABLE \"_pier_b_b\"; "
                                          "UPDATE _pier_meta SET value = "
                                          "value + 1 WHERE key = "
                                          "'catalog_version'", false),
                         SQLITE_OK);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_locked_lake_is_write_failed, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_busy_timeout_waits_for_the_lock,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(
            a_value_that_does_not_match_its_type_is_read_failed, setup,
            teardown),
        cmocka_unit_test_setup_teardown(
            a_json_value_that_is_not_json_is_read_failed, setup, teardown),
        cmocka_unit_test_setup_teardown(
            a_damaged_catalog_is_lake_unavailable_on_read, setup, teardown),
        cmocka_unit_test_setup_teardown(
            a_damaged_board_id_is_lake_unavailable, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
