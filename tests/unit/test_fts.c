/*
 * test_fts.c: a board's full-text index (pier_fts_enable, _disable,
 * _columns) on the embedded lake.
 *
 * The invariant it keeps (src/store/sqlite_fts.c): every row of the board
 * has exactly one entry in the index, of the same rowid, holding the row's
 * id and its indexed columns' current values. After each write path
 * (insert, upsert, update, delete, a transaction committed and one rolled
 * back, truncate, adding and widening columns) the index is compared with
 * the board as stored, straight from the lake file. Every refusal returns
 * its exact status and leaves the lake byte-for-byte what it was.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pier.h"
#include "support/engine_fixture.h"
#include "support/testlake.h"

typedef engine_fixture fixture;

static int setup(void **state)
{
    fixture *f = fixture_open();
    fixture_insert(f->e, "notes",
                   "[{\"id\":\"a\",\"title\":\"Lake\",\"body\":\"blue water\","
                   "\"n\":1},{\"id\":\"b\",\"title\":\"Hill\",\"body\":"
                   "\"green grass\",\"n\":2}]");
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    return fixture_close(*state);
}

/* The board's rows as stored, and the index's entries, as text. */
#define ROWS "SELECT rowid, id, title, body FROM _pier_b_notes ORDER BY rowid"
#define ENTRIES                                                          \
    "SELECT rowid, id, title, body FROM _pier_f_notes$ ORDER BY rowid"

/* Asserts the invariant: one entry per row, equal to it. */
static void in_step(fixture *f)
{
    char *rows = testlake_text(f->dir, ROWS);
    char *entries = testlake_text(f->dir, ENTRIES);
    assert_non_null(rows);
    assert_non_null(entries);
    assert_string_equal(entries, rows);
    free(rows);
    free(entries);
}

static void enable(fixture *f)
{
    static const char *const cols[] = { "title", "body" };
    pier_error err;
    assert_int_equal(pier_fts_enable(f->e, "notes", cols, 2, &err),
                     PIER_OK);
}

static void test_enable_indexes_rows_there(void **state)
{
    fixture *f = *state;
    char *json = NULL;
    pier_error err;
    assert_int_equal(pier_fts_columns(&json, f->e, "notes", &err), PIER_OK);
    assert_string_equal(json, "[]");
    pier_free(json);
    enable(f);
    assert_int_equal(pier_fts_columns(&json, f->e, "notes", &err), PIER_OK);
    assert_string_equal(json, "[\"title\",\"body\"]");
    pier_free(json);
    char *entries = testlake_text(f->dir, ENTRIES);
    assert_string_equal(entries, "1|a|Lake|blue water\n"
                                 "2|b|Hill|green grass\n");
    free(entries);
    in_step(f);
}

static void test_every_write_path_keeps_it_in_step(void **state)
{
    fixture *f = *state;
    enable(f);
    pier_error err;
    fixture_insert(f->e, "notes", "{\"id\":\"c\",\"title\":\"Mill\"}");
    in_step(f);
    const char *up = "[{\"id\":\"a\",\"body\":\"boat\"},{\"id\":\"d\","
                     "\"title\":\"Sea\"}]";
    assert_int_equal(pier_upsert_json(NULL, f->e, "notes", up, strlen(up),
                                      &err), PIER_OK);
    in_step(f);
    const char *patch = "{\"title\":\"Mountain\"}";
    assert_int_equal(pier_update_json(NULL, f->e, "notes", "b", patch,
                                      strlen(patch), &err), PIER_OK);
    in_step(f);
    assert_int_equal(pier_delete(NULL, f->e, "notes", "c", &err), PIER_OK);
    in_step(f);
    /* a transaction: committed, then one rolled back */
    static const char *const boards[] = { "notes" };
    pier_tx *tx = NULL;
    assert_int_equal(pier_tx_begin(&tx, f->e, boards, 1, &err), PIER_OK);
    const char *ops = "[{\"op\":\"insert\",\"board\":\"notes\",\"rows\":"
                      "[{\"id\":\"e\",\"body\":\"trees\"}]},{\"op\":"
                      "\"update\",\"board\":\"notes\",\"id\":\"d\","
                      "\"patch\":{\"body\":\"waves\"}},{\"op\":\"delete\","
                      "\"board\":\"notes\",\"ids\":[\"a\"]}]";
    assert_int_equal(pier_tx_apply_json(tx, ops, strlen(ops), &err),
                     PIER_OK);
    assert_int_equal(pier_tx_commit(NULL, tx, &err), PIER_OK);
    in_step(f);
    char *before = testlake_dump(f->dir);
    assert_int_equal(pier_tx_begin(&tx, f->e, boards, 1, &err), PIER_OK);
    const char *more = "[{\"op\":\"delete\",\"board\":\"notes\",\"ids\":"
                       "[\"e\"]}]";
    assert_int_equal(pier_tx_apply_json(tx, more, strlen(more), &err),
                     PIER_OK);
    pier_tx_rollback(tx);
    char *after = testlake_dump(f->dir);
    assert_string_equal(before, after);
    free(before);
    free(after);
    in_step(f);
    /* a failed write changes neither */
    const char *dup = "[{\"id\":\"f\",\"body\":\"x\"},{\"id\":\"e\"}]";
    assert_int_equal(pier_insert_json(NULL, f->e, "notes", dup, strlen(dup),
                                      &err), PIER_E_DUPLICATE_ID);
    in_step(f);
    assert_int_equal(testlake_int(f->dir, "SELECT count(*) FROM "
                                  "_pier_f_notes$ WHERE id = 'f'", -1), 0);
    /* columns added and widened */
    assert_int_equal(pier_board_add_column(NULL, f->e, "notes", "extra",
                                           "text", &err), PIER_OK);
    assert_int_equal(pier_board_widen_column(NULL, f->e, "notes", "n",
                                             "text", &err), PIER_OK);
    fixture_insert(f->e, "notes", "{\"id\":\"g\",\"title\":\"River\","
                   "\"extra\":\"y\",\"n\":\"z\"}");
    in_step(f);
    assert_int_equal(testlake_int(f->dir, "SELECT count(*) FROM "
                                  "_pier_b_notes", -1), 4);
    /* truncate */
    assert_int_equal(pier_board_truncate(NULL, f->e, "notes", &err),
                     PIER_OK);
    assert_int_equal(testlake_int(f->dir, "SELECT count(*) FROM "
                                  "_pier_f_notes$", -1), 0);
    fixture_insert(f->e, "notes", "{\"id\":\"h\",\"title\":\"After\"}");
    in_step(f);
    /* drop takes the index and its tables with the board */
    assert_int_equal(pier_board_drop(NULL, f->e, "notes", &err), PIER_OK);
    assert_int_equal(testlake_int(f->dir, "SELECT count(*) FROM "
                                  "sqlite_schema WHERE name LIKE "
                                  "'\\_pier\\_f\\_%' ESCAPE '\\'", -1), 0);
}

/* Each refusal: its status, its fields, and nothing written. */
static void test_refusals_write_nothing(void **state)
{
    fixture *f = *state;
    fixture_insert(f->e, "other", "{\"id\":\"x\",\"t\":\"text\"}");
    static const char *const t[] = { "t" };
    pier_error err;
    assert_int_equal(pier_fts_enable(f->e, "other", t, 1, &err), PIER_OK);
    char *before = testlake_dump(f->dir);
    assert_non_null(before);
    static const struct {
        const char *board;
        const char *cols[3];
        size_t n;
        pier_status status;
        const char *column;        /* err->column, or NULL */
    } cases[] = {
        { "nope", { "title" }, 1, PIER_E_BOARD_NOT_FOUND, NULL },
        { "Bad-Id", { "title" }, 1, PIER_E_INVALID_BOARD_ID, NULL },
        { "notes", { "nope" }, 1, PIER_E_UNKNOWN_COLUMN, "nope" },
        { "notes", { "title", "nope" }, 2, PIER_E_UNKNOWN_COLUMN, "nope" },
        { "notes", { "n" }, 1, PIER_E_COLUMN_TYPE_CONFLICT, "n" },
        { "notes", { "updated_at" }, 1, PIER_E_COLUMN_TYPE_CONFLICT,
          "updated_at" },
        { "notes", { "id" }, 1, PIER_E_INVALID_ARGUMENT, "id" },
        { "notes", { "title", "Title" }, 2, PIER_E_DUPLICATE_COLUMN,
          "title" },
        { "notes", { NULL }, 0, PIER_E_INVALID_ARGUMENT, NULL },
        { "notes", { NULL }, 1, PIER_E_INVALID_ARGUMENT, NULL },
        { "other", { "t" }, 1, PIER_E_INVALID_ARGUMENT, NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pier_status rc = pier_fts_enable(f->e, cases[i].board,
                                         cases[i].cols, cases[i].n, &err);
        if (rc != cases[i].status)
            fail_msg("case %zu: %s (%s), want %s", i, pier_status_tag(rc),
                     err.message, pier_status_tag(cases[i].status));
        if (cases[i].column != NULL)
            assert_string_equal(err.column, cases[i].column);
        char *after = testlake_dump(f->dir);
        if (strcmp(before, after) != 0)
            fail_msg("case %zu wrote", i);
        free(after);
    }
    assert_int_equal(pier_fts_disable(f->e, "notes", &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_string_equal(err.board, "notes");
    assert_int_equal(pier_fts_disable(f->e, "nope", &err),
                     PIER_E_BOARD_NOT_FOUND);
    char *json = NULL;
    assert_int_equal(pier_fts_columns(&json, f->e, "nope", &err),
                     PIER_E_BOARD_NOT_FOUND);
    assert_null(json);
    assert_int_equal(pier_fts_columns(NULL, f->e, "notes", &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_fts_enable(NULL, "notes", t, 1, &err),
                     PIER_E_INVALID_ARGUMENT);
    char *after = testlake_dump(f->dir);
    assert_string_equal(before, after);
    free(after);
    free(before);
    /* disable, then enable again over other columns */
    assert_int_equal(pier_fts_disable(f->e, "other", &err), PIER_OK);
    assert_int_equal(pier_fts_columns(&json, f->e, "other", &err), PIER_OK);
    assert_string_equal(json, "[]");
    pier_free(json);
}

/* Board ids may hold '_', and FTS5 names its tables after the index
 * ("..._data"): the index of board "x" and that of board "x_data" must not
 * be taken for each other (the '$' that ends the board's part of the
 * name). */
static void test_boards_named_like_an_index_table(void **state)
{
    fixture *f = *state;
    fixture_insert(f->e, "x", "{\"id\":\"1\",\"t\":\"alpha\"}");
    fixture_insert(f->e, "x_data", "{\"id\":\"2\",\"t\":\"beta\"}");
    fixture_insert(f->e, "x_idx", "{\"id\":\"3\",\"t\":\"gamma\"}");
    const char *t = "t";
    pier_error err;
    assert_int_equal(pier_fts_enable(f->e, "x", &t, 1, &err), PIER_OK);
    /* x_data has no index: its writes and status say so */
    char *json = NULL;
    assert_int_equal(pier_fts_columns(&json, f->e, "x_data", &err),
                     PIER_OK);
    assert_string_equal(json, "[]");
    pier_free(json);
    fixture_insert(f->e, "x_data", "{\"id\":\"4\",\"t\":\"delta\"}");
    assert_int_equal(pier_delete(NULL, f->e, "x_data", "2", &err), PIER_OK);
    pier_cursor *c = NULL;
    assert_int_equal(pier_query(&c, f->e, "x_data", "SELECT id FROM {{fts}}",
                                NULL, NULL, &err), PIER_E_QUERY_FAILED);
    /* both indexed, each its own */
    assert_int_equal(pier_fts_enable(f->e, "x_data", &t, 1, &err), PIER_OK);
    assert_int_equal(pier_fts_enable(f->e, "x_idx", &t, 1, &err), PIER_OK);
    assert_int_equal(pier_query(&c, f->e, "x_data", "SELECT group_concat(t) "
                                "AS t FROM {{fts}}", NULL, NULL, &err),
                     PIER_OK);
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_non_null(row);
    assert_string_equal(pier_row_value(row, 0)->text, "delta");
    pier_cursor_close(c);
    /* dropping x_data leaves x's index whole */
    assert_int_equal(pier_board_drop(NULL, f->e, "x_data", &err), PIER_OK);
    fixture_insert(f->e, "x", "{\"id\":\"5\",\"t\":\"alpha two\"}");
    assert_int_equal(testlake_int(f->dir, "SELECT count(*) FROM _pier_f_x$ "
                                  "WHERE _pier_f_x$ MATCH 'alpha'", -1), 2);
    assert_int_equal(testlake_int(f->dir, "SELECT count(*) FROM "
                                  "_pier_f_x_idx$", -1), 1);
}

/* Runs a one-value query of "notes" and checks its text. */
static void query_is(pier_engine *e, const char *sql, const char *want)
{
    pier_cursor *c = NULL;
    pier_error err;
    if (pier_query(&c, e, "notes", sql, NULL, NULL, &err) != PIER_OK)
        fail_msg("%s: %s: %s", sql, err.tag, err.message);
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_non_null(row);
    assert_string_equal(pier_row_value(row, 0)->text, want);
    pier_cursor_close(c);
}

/* A query of an index, repeated after the lake's schema changed (SQLite
 * then compiles the statement again, and connects the index again) by
 * this engine or another one, still runs. */
static void test_query_again_after_schema_changes(void **state)
{
    fixture *f = *state;
    enable(f);
    const char *q = "SELECT group_concat(id) AS ids FROM {{fts}} WHERE "
                    "{{fts}} MATCH 'water OR grass'";
    query_is(f->e, q, "a,b");
    pier_cursor *c = NULL;
    pier_error err;
    assert_int_equal(pier_exec(&c, f->e, "CREATE TABLE t1(a INT64)", NULL,
                               &err), PIER_OK);
    pier_cursor_close(c);
    query_is(f->e, q, "a,b");
    pier_engine *other = fixture_engine(f);
    assert_int_equal(pier_exec(&c, other, "CREATE TABLE t2(a INT64); "
                               "CREATE INDEX t2a ON t2(a)", NULL, &err),
                     PIER_OK);
    pier_cursor_close(c);
    fixture_insert(other, "more", "{\"id\":\"m\",\"t\":\"x\"}");
    const char *t = "t";
    assert_int_equal(pier_fts_enable(other, "more", &t, 1, &err), PIER_OK);
    pier_close(&other);
    query_is(f->e, q, "a,b");
    fixture_insert(f->e, "notes", "{\"id\":\"c\",\"body\":\"water\"}");
    query_is(f->e, q, "a,b,c");
}

int main(void)
{
    if (testlake_pg())
        return 77;      /* the embedded lake's: see test_query for pg */
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_enable_indexes_rows_there),
        T(test_every_write_path_keeps_it_in_step),
        T(test_refusals_write_nothing),
        T(test_boards_named_like_an_index_table),
        T(test_query_again_after_schema_changes),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
