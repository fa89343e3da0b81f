/*
 * test_lake.c: the lake as a file: pier_open creating, recognizing and
 * refusing data directories and lake files, pier_close, pier_reset_lake,
 * the on-disk format, what survives a reopen, and two engines sharing one
 * data directory (the strict bit and the schema live in the lake, not in
 * an engine).
 *
 * A refused open or reset must leave what it refused byte for byte as it
 * was: a file that is not a Pier lake is someone else's data.
 *
 * Tests that write run twice, once through pier_insert_json and once
 * through pier_rows (support/write_path.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pier.h"
#include "support/lakedir.h"
#include "support/write_path.h"

/* "PIER" in the SQLite header's application_id. */
#define PIER_APPLICATION_ID 0x50494552

typedef struct fixture {
    char *dir;     /* a fresh directory under /tmp, removed afterwards */
    char *data;    /* dir/data: the data directory, not created */
    char *lake;    /* dir/data/lake.sqlite */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (f == NULL)
        return -1;
    f->dir = lakedir_make();
    f->data = f->dir != NULL ? lakedir_join(f->dir, "data") : NULL;
    f->lake = f->data != NULL ? lakedir_join(f->data, "lake.sqlite") : NULL;
    if (f->lake == NULL)
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    /* Some tests leave files that are not a lake (which pier_reset_lake
     * rightly refuses): whatever is left goes with the directory. */
    pier_reset_lake(f->data, NULL);
    int rc = lakedir_remove_tree(f->dir) == 0 ? 0 : -1;
    free(f->lake);
    free(f->data);
    free(f->dir);
    free(f);
    return rc;
}

static int group_json(void **state)
{
    (void)state;
    wp_current = WP_JSON;
    return 0;
}

static int group_rows(void **state)
{
    (void)state;
    wp_current = WP_ROWS;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

static void assert_contains(const char *haystack, const char *needle)
{
    assert_non_null(haystack);
    if (strstr(haystack, needle) == NULL)
        fail_msg("'%s' does not contain '%s'", haystack, needle);
}

static pier_engine *open_ok(const char *dir, const pier_open_options *o)
{
    pier_engine *e = NULL;
    pier_error err;
    pier_status rc = pier_open(&e, dir, o, &err);
    if (rc != PIER_OK)
        fail_msg("pier_open(%s): %s: %s", dir, err.tag, err.message);
    assert_non_null(e);
    return e;
}

/* pier_open must refuse with LakeUnavailable; returns the error. */
static pier_error open_refused(const char *dir)
{
    pier_engine *e = (pier_engine *)&e;      /* must become NULL */
    pier_error err;
    pier_status rc = pier_open(&e, dir, NULL, &err);
    if (rc != PIER_E_LAKE_UNAVAILABLE)
        fail_msg("pier_open(%s): %s (%s), expected LakeUnavailable", dir,
                 pier_status_tag(rc), rc != PIER_OK ? err.message : "");
    assert_null(e);
    assert_int_equal(err.status, PIER_E_LAKE_UNAVAILABLE);
    assert_string_equal(err.tag, "LakeUnavailable");
    return err;
}

static void ins_ok(pier_engine *e, const char *board, const char *json)
{
    pier_error err;
    int64_t wm = -1;
    pier_status rc = wp_insert(e, board, json, &wm, &err);
    if (rc != PIER_OK)
        fail_msg("[%s] insert into %s of %s: %s: %s", wp_name(wp_current),
                 board, json, err.tag, err.message);
    assert_true(wm > 0);
}

static int64_t head_of(pier_engine *e)
{
    int64_t h = -1;
    pier_error err;
    assert_int_equal(pier_head_from_catalog(&h, e, &err), PIER_OK);
    return h;
}

static bool has_board(pier_engine *e, const char *board)
{
    bool has = false;
    pier_error err;
    assert_int_equal(pier_board_has(&has, e, board, &err), PIER_OK);
    return has;
}

static const char *cell(const pier_row *row, const char *column)
{
    const pier_value *v = pier_row_find(row, column);
    assert_non_null(v);
    return v->text;
}

/* The text of one cell, or "NULL"; "missing" if there is no such row. */
static void assert_cell(pier_engine *e, const char *board, const char *id,
                        const char *column, const char *text)
{
    pier_row *row = NULL;
    pier_error err;
    pier_status rc = pier_row_get(&row, e, board, id, &err);
    if (rc != PIER_OK)
        fail_msg("row %s of %s: %s: %s", id, board, err.tag, err.message);
    const char *got = cell(row, column);
    if (got == NULL ? strcmp(text, "NULL") != 0 : strcmp(got, text) != 0)
        fail_msg("%s.%s of %s is '%s', expected '%s'", board, column, id,
                 got != NULL ? got : "NULL", text);
    pier_row_free(row);
}

/* A file's whole content; for free(). */
static char *slurp(const char *path, size_t *n)
{
    char *s = lakedir_read_file(path, n);
    if (s == NULL)
        fail_msg("cannot read %s", path);
    return s;
}

static void assert_file_is(const char *path, const char *content, size_t n)
{
    size_t m = 0;
    char *now = slurp(path, &m);
    assert_int_equal(m, n);
    assert_memory_equal(now, content, n);
    free(now);
}

static void assert_no_journal(const char *data)
{
    static const char *const suffixes[] = { "-wal", "-shm", "-journal" };
    for (size_t i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "lake.sqlite%s", suffixes[i]);
        char *p = lakedir_join(data, name);
        if (lakedir_exists(p))
            fail_msg("%s was left behind", p);
        free(p);
    }
}

/* ------------------------------------------------------------------ */
/* Opening                                                              */

static void test_open_creates_nested_dirs(void **state)
{
    fixture *f = *state;
    char *nested = lakedir_join(f->data, "a/b/c");
    assert_false(lakedir_exists(f->data));
    pier_engine *e = open_ok(nested, NULL);
    assert_true(lakedir_is_dir(nested));
    char *lake = lakedir_join(nested, "lake.sqlite");
    assert_true(lakedir_exists(lake));
    assert_string_equal(pier_data_dir(e), nested);
    assert_int_equal(head_of(e), 0);
    char **list = NULL;
    pier_error err;
    assert_int_equal(pier_board_list(&list, e, &err), PIER_OK);
    assert_null(list[0]);
    pier_strings_free(list);
    pier_close(&e);
    assert_null(e);
    /* A trailing slash names the same directory. */
    char *slash = lakedir_join(nested, "");
    e = open_ok(slash, NULL);
    assert_int_equal(head_of(e), 0);
    pier_close(&e);
    free(slash);
    free(lake);
    free(nested);
}

static void test_open_relative_path(void **state)
{
    fixture *f = *state;
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(f->dir), 0);
    pier_engine *e = NULL;
    pier_error err;
    pier_status rc = pier_open(&e, "data/rel", NULL, &err);
    if (rc == PIER_OK) {
        ins_ok(e, "b", "{\"id\":\"1\"}");
        pier_close(&e);
        rc = pier_reset_lake("data/rel", &err);
    }
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(rc, PIER_OK);
    char *rel = lakedir_join(f->data, "rel");
    assert_false(lakedir_exists(rel));       /* reset removed it */
    assert_true(lakedir_is_dir(f->data));
    free(rel);
}

static void test_lake_format(void **state)
{
    fixture *f = *state;
    pier_engine *e = open_ok(f->data, NULL);
    ins_ok(e, "acme", "{\"id\":\"1\",\"n\":1}");
    assert_int_equal(lakedir_sql_int(f->lake, "PRAGMA application_id", -1),
                     PIER_APPLICATION_ID);
    assert_int_equal(lakedir_sql_int(f->lake, "PRAGMA user_version", -1), 5);
    char *mode = lakedir_sql_text(f->lake, "PRAGMA journal_mode");
    assert_non_null(mode);
    assert_string_equal(mode, "wal\n");
    free(mode);
    char *tables = lakedir_sql_text(f->lake,
                                    "SELECT name FROM sqlite_schema "
                                    "WHERE type = 'table' AND name LIKE "
                                    "'\\_pier\\_%' ESCAPE '\\' "
                                    "ORDER BY name");
    assert_non_null(tables);
    assert_string_equal(tables, "_pier_b_acme\n_pier_boards\n"
                                "_pier_changes\n_pier_columns\n"
                                "_pier_commit_triggers\n"
                                "_pier_indexes\n_pier_meta\n"
                                "_pier_migration_files\n"
                                "_pier_schema\n_pier_table_columns\n"
                                "_pier_tables\n_pier_views\n");
    free(tables);
    char *cols = lakedir_sql_text(f->lake,
                                  "SELECT group_concat(name, ',') FROM "
                                  "pragma_table_info('_pier_b_acme')");
    assert_string_equal(cols, "id,updated_at,state,_v,n\n");
    free(cols);
    pier_close(&e);
}

static void test_empty_lake_file_is_initialized(void **state)
{
    fixture *f = *state;
    assert_int_equal(mkdir(f->data, 0777), 0);
    assert_int_equal(lakedir_write_file(f->lake, "", 0), 0);
    pier_engine *e = open_ok(f->data, NULL);
    ins_ok(e, "b", "{\"id\":\"1\"}");
    pier_close(&e);
    assert_int_equal(lakedir_sql_int(f->lake, "PRAGMA application_id", -1),
                     PIER_APPLICATION_ID);
}

static void check_not_sqlite(fixture *f, size_t size)
{
    assert_int_equal(mkdir(f->data, 0777), 0);
    char *junk = malloc(size);
    assert_non_null(junk);
    for (size_t i = 0; i < size; i++)
        junk[i] = "This is my diary, not a database. "[i % 34];
    assert_int_equal(lakedir_write_file(f->lake, junk, size), 0);
    pier_error err = open_refused(f->data);
    assert_contains(err.message, "not a Pier lake");
    assert_file_is(f->lake, junk, size);
    assert_no_journal(f->data);
    /* pier_reset_lake refuses it too, and leaves it in place. */
    assert_int_equal(pier_reset_lake(f->data, &err),
                     PIER_E_LAKE_UNAVAILABLE);
    assert_string_equal(err.tag, "LakeUnavailable");
    assert_contains(err.message, "not a Pier lake");
    assert_file_is(f->lake, junk, size);
    free(junk);
}

static void test_not_sqlite_at_all(void **state)
{
    check_not_sqlite(*state, 4096);
}

static void test_not_sqlite_short_file(void **state)
{
    check_not_sqlite(*state, 20);
}

static void test_sqlite_of_another_application(void **state)
{
    fixture *f = *state;
    assert_int_equal(mkdir(f->data, 0777), 0);
    assert_int_equal(lakedir_sql_exec(f->lake,
                                      "CREATE TABLE users(name TEXT);"
                                      "INSERT INTO users VALUES ('ann');",
                                      true), 0);
    size_t n = 0;
    char *before = slurp(f->lake, &n);
    pier_error err = open_refused(f->data);
    assert_contains(err.message, "not a Pier lake");
    assert_contains(err.message, "another application");
    /* Left exactly as it was: not even switched to WAL. */
    char *mode = lakedir_sql_text(f->lake, "PRAGMA journal_mode");
    assert_non_null(mode);
    assert_string_equal(mode, "delete\n");
    free(mode);
    assert_file_is(f->lake, before, n);
    assert_no_journal(f->data);
    assert_int_equal(pier_reset_lake(f->data, &err),
                     PIER_E_LAKE_UNAVAILABLE);
    assert_contains(err.message, "not a Pier lake");
    assert_file_is(f->lake, before, n);
    free(before);
    /* Another application's header id is refused as well. */
    assert_int_equal(lakedir_sql_exec(f->lake, "PRAGMA application_id = 7;"
                                      "DROP TABLE users;", false), 0);
    err = open_refused(f->data);
    assert_contains(err.message, "not a Pier lake");
}

static void test_newer_format(void **state)
{
    fixture *f = *state;
    pier_engine *e = open_ok(f->data, NULL);
    ins_ok(e, "b", "{\"id\":\"1\"}");
    pier_close(&e);
    assert_int_equal(lakedir_sql_exec(f->lake, "PRAGMA user_version = 99",
                                      false), 0);
    char *dump = lakedir_sql_dump(f->lake);
    assert_non_null(dump);
    pier_error err = open_refused(f->data);
    assert_contains(err.message, "newer");
    char *after = lakedir_sql_dump(f->lake);
    assert_non_null(after);
    assert_string_equal(after, dump);
    free(after);
    free(dump);
    assert_int_equal(lakedir_sql_int(f->lake, "PRAGMA user_version", -1), 99);
    /* A format below 1 is no Pier lake. */
    assert_int_equal(lakedir_sql_exec(f->lake, "PRAGMA user_version = 0",
                                      false), 0);
    err = open_refused(f->data);
    assert_contains(err.message, "not a Pier lake");
    /* It is still a Pier lake to pier_reset_lake. */
    assert_int_equal(pier_reset_lake(f->data, &err), PIER_OK);
    assert_false(lakedir_exists(f->data));
}

static void test_data_dir_is_a_file(void **state)
{
    fixture *f = *state;
    assert_int_equal(lakedir_write_file(f->data, "hello", 5), 0);
    pier_error err = open_refused(f->data);
    assert_contains(err.message, "not a directory");
    assert_contains(err.message, f->data);
    assert_file_is(f->data, "hello", 5);
    /* Below a file, no directory can be created. */
    char *below = lakedir_join(f->data, "sub");
    err = open_refused(below);
    assert_contains(err.message, below);
    assert_file_is(f->data, "hello", 5);
    free(below);
}

static void test_lake_file_is_a_directory(void **state)
{
    fixture *f = *state;
    assert_int_equal(mkdir(f->data, 0777), 0);
    assert_int_equal(mkdir(f->lake, 0777), 0);
    pier_error err = open_refused(f->data);
    assert_contains(err.message, "not a Pier lake");
    assert_true(lakedir_is_dir(f->lake));
}

static void test_open_bad_arguments(void **state)
{
    fixture *f = *state;
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(NULL, f->data, NULL, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_open(&e, NULL, NULL, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_open(&e, "", NULL, &err), PIER_E_INVALID_ARGUMENT);
    assert_string_equal(err.tag, "InvalidArgument");
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.version = 0;
    assert_int_equal(pier_open(&e, f->data, &o, &err),
                     PIER_E_INVALID_ARGUMENT);
    o = (pier_open_options)PIER_OPEN_OPTIONS_INIT;
    o.version = PIER_OPEN_OPTIONS_VERSION + 1;
    assert_int_equal(pier_open(&e, f->data, &o, &err),
                     PIER_E_INVALID_ARGUMENT);
    o = (pier_open_options)PIER_OPEN_OPTIONS_INIT;
    o.auto_create = (pier_auto_create)7;
    assert_int_equal(pier_open(&e, f->data, &o, &err),
                     PIER_E_INVALID_ARGUMENT);
    o = (pier_open_options)PIER_OPEN_OPTIONS_INIT;
    o.columns = (pier_columns_mode)7;
    assert_int_equal(pier_open(&e, f->data, &o, &err),
                     PIER_E_INVALID_ARGUMENT);
    o = (pier_open_options)PIER_OPEN_OPTIONS_INIT;
    o.busy_timeout_ms = -1;
    assert_int_equal(pier_open(&e, f->data, &o, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_null(e);
    /* Nothing was created for a refused open. */
    assert_false(lakedir_exists(f->data));
}

/* ------------------------------------------------------------------ */
/* Closing and resetting                                                */

static void test_close(void **state)
{
    fixture *f = *state;
    pier_engine *e = open_ok(f->data, NULL);
    ins_ok(e, "b", "{\"id\":\"1\",\"t\":\"kept\"}");
    pier_row *row = NULL;
    pier_board_info *info = NULL;
    pier_error err;
    assert_int_equal(pier_row_get(&row, e, "b", "1", &err), PIER_OK);
    assert_int_equal(pier_board_describe(&info, e, "b", &err), PIER_OK);
    pier_close(&e);
    assert_null(e);
    pier_close(&e);                /* a second call is a no-op */
    assert_null(e);
    pier_close(NULL);
    /* What was handed out outlives the engine. */
    assert_string_equal(cell(row, "t"), "kept");
    assert_string_equal(info->columns[3].name, "t");
    assert_string_equal(info->board, "b");
    pier_row_free(row);
    pier_board_info_free(info);
    /* Closed cleanly: no journal left, and it opens again. */
    assert_no_journal(f->data);
    e = open_ok(f->data, NULL);
    assert_cell(e, "b", "1", "t", "kept");
    pier_close(&e);
}

static void test_reset_lake(void **state)
{
    fixture *f = *state;
    pier_engine *e = open_ok(f->data, NULL);
    ins_ok(e, "b", "{\"id\":\"1\"}");
    pier_close(&e);
    pier_error err;
    assert_int_equal(pier_reset_lake(f->data, &err), PIER_OK);
    assert_false(lakedir_exists(f->lake));
    assert_no_journal(f->data);
    assert_false(lakedir_exists(f->data));   /* it was empty */
    /* A missing directory is fine, again and again. */
    assert_int_equal(pier_reset_lake(f->data, &err), PIER_OK);
    assert_int_equal(pier_reset_lake(f->data, &err), PIER_OK);
    /* Other files keep the directory, and are kept. */
    e = open_ok(f->data, NULL);
    ins_ok(e, "b", "{\"id\":\"1\"}");
    pier_close(&e);
    char *keep = lakedir_join(f->data, "keep.txt");
    assert_int_equal(lakedir_write_file(keep, "mine", 4), 0);
    assert_int_equal(pier_reset_lake(f->data, &err), PIER_OK);
    assert_false(lakedir_exists(f->lake));
    assert_file_is(keep, "mine", 4);
    /* A directory without a lake is not an error. */
    assert_int_equal(pier_reset_lake(f->data, &err), PIER_OK);
    assert_file_is(keep, "mine", 4);
    free(keep);
    /* After a reset, a new lake starts from nothing. */
    e = open_ok(f->data, NULL);
    assert_int_equal(head_of(e), 0);
    assert_false(has_board(e, "b"));
    pier_close(&e);
    assert_int_equal(pier_reset_lake(NULL, &err), PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_reset_lake("", &err), PIER_E_INVALID_ARGUMENT);
}

/* ------------------------------------------------------------------ */
/* Reopening, and two engines on one directory                          */

static void test_reopen_keeps_everything(void **state)
{
    fixture *f = *state;
    pier_engine *e = open_ok(f->data, NULL);
    pier_column_def cols[] = { { "amount", "double" } };
    pier_board_options bo = PIER_BOARD_OPTIONS_INIT;
    bo.columns = cols;
    bo.ncolumns = 1;
    bo.strict = true;
    pier_error err;
    assert_int_equal(pier_board_create(NULL, e, "billing", &bo, &err),
                     PIER_OK);
    ins_ok(e, "billing", "{\"id\":\"b1\",\"amount\":5}");
    ins_ok(e, "notes", "{\"id\":\"n1\",\"v\":7}");
    assert_int_equal(pier_board_widen_column(NULL, e, "notes", "v", "text",
                                             &err), PIER_OK);
    pier_board_info *before = NULL;
    assert_int_equal(pier_board_describe(&before, e, "billing", &err),
                     PIER_OK);
    int64_t head = head_of(e);
    pier_close(&e);

    e = open_ok(f->data, NULL);
    assert_int_equal(head_of(e), head);
    pier_board_info *after = NULL;
    assert_int_equal(pier_board_describe(&after, e, "billing", &err),
                     PIER_OK);
    assert_true(after->strict);
    assert_int_equal(after->ncolumns, before->ncolumns);
    for (size_t i = 0; i < after->ncolumns; i++) {
        assert_int_equal(after->columns[i].id, before->columns[i].id);
        assert_string_equal(after->columns[i].name, before->columns[i].name);
        assert_string_equal(after->columns[i].type, before->columns[i].type);
        assert_int_equal(after->columns[i].origin,
                         before->columns[i].origin);
    }
    pier_board_info_free(before);
    pier_board_info_free(after);
    assert_cell(e, "billing", "b1", "amount", "5.0");
    assert_cell(e, "notes", "n1", "v", "7");
    /* Still strict, still text; watermarks carry on. */
    assert_int_equal(wp_insert(e, "billing", "{\"id\":\"b2\",\"memo\":\"x\"}",
                               NULL, &err), PIER_E_UNKNOWN_COLUMN);
    int64_t wm = -1;
    assert_int_equal(wp_insert(e, "notes", "{\"id\":\"n2\",\"v\":\"x\"}",
                               &wm, &err), PIER_OK);
    assert_true(wm > head);
    pier_close(&e);
}

static void test_second_engine_sees_strict(void **state)
{
    fixture *f = *state;
    pier_engine *e1 = open_ok(f->data, NULL);
    pier_engine *e2 = open_ok(f->data, NULL);   /* opened before the board */
    pier_column_def cols[] = { { "amount", "double" },
                               { "currency", "text" } };
    pier_board_options bo = PIER_BOARD_OPTIONS_INIT;
    bo.columns = cols;
    bo.ncolumns = 2;
    bo.strict = true;
    pier_error err;
    assert_int_equal(pier_board_create(NULL, e1, "billing", &bo, &err),
                     PIER_OK);
    assert_true(has_board(e2, "billing"));
    pier_board_info *info = NULL;
    assert_int_equal(pier_board_describe(&info, e2, "billing", &err),
                     PIER_OK);
    assert_true(info->strict);
    assert_int_equal(info->ncolumns, 5);
    pier_board_info_free(info);

    int64_t head = head_of(e2);
    const char *memo = "{\"id\":\"b1\",\"amount\":5,\"memo\":\"late fee\"}";
    assert_int_equal(wp_insert(e2, "billing", memo, NULL, &err),
                     PIER_E_UNKNOWN_COLUMN);
    assert_string_equal(err.tag, "UnknownColumn");
    assert_string_equal(err.board, "billing");
    assert_string_equal(err.column, "memo");
    assert_int_equal(head_of(e1), head);
    /* An engine opened afterwards, even one that infers, is refused too. */
    pier_engine *e3 = open_ok(f->data, NULL);
    assert_int_equal(wp_insert(e3, "billing", memo, NULL, &err),
                     PIER_E_UNKNOWN_COLUMN);
    /* Declared columns go in from any engine; all see the rows. */
    ins_ok(e2, "billing", "{\"id\":\"b1\",\"amount\":5}");
    assert_cell(e1, "billing", "b1", "amount", "5.0");
    /* A column added by one engine is usable from the others. */
    assert_int_equal(pier_board_add_column(NULL, e1, "billing", "memo",
                                           "text", &err), PIER_OK);
    ins_ok(e2, "billing", "{\"id\":\"b2\",\"memo\":\"late fee\"}");
    ins_ok(e3, "billing", "{\"id\":\"b3\",\"memo\":\"early\"}");
    assert_cell(e1, "billing", "b2", "memo", "late fee");
    assert_cell(e1, "billing", "b3", "memo", "early");
    assert_int_equal(head_of(e1), head_of(e2));
    assert_int_equal(head_of(e1), head_of(e3));
    pier_close(&e3);
    pier_close(&e2);
    pier_close(&e1);
}

static void test_second_engine_sees_schema_changes(void **state)
{
    fixture *f = *state;
    pier_engine *e1 = open_ok(f->data, NULL);
    pier_engine *e2 = open_ok(f->data, NULL);
    pier_error err;
    ins_ok(e1, "b", "{\"id\":\"1\",\"v\":1}");
    /* e2 writes before and after e1 widens: the type is the lake's. */
    ins_ok(e2, "b", "{\"id\":\"2\",\"v\":2}");
    assert_int_equal(wp_insert(e2, "b", "{\"id\":\"3\",\"v\":\"x\"}", NULL,
                               &err), PIER_E_COLUMN_TYPE_CONFLICT);
    assert_string_equal(err.column_type, "bigint");
    assert_int_equal(pier_board_widen_column(NULL, e1, "b", "v", "text",
                                             &err), PIER_OK);
    ins_ok(e2, "b", "{\"id\":\"3\",\"v\":\"x\"}");
    assert_cell(e2, "b", "1", "v", "1");
    assert_cell(e1, "b", "3", "v", "x");
    /* A column e2 infers is e1's to use. */
    ins_ok(e2, "b", "{\"id\":\"4\",\"w\":true}");
    assert_int_equal(wp_insert(e1, "b", "{\"id\":\"5\",\"w\":1}", NULL,
                               &err), PIER_E_COLUMN_TYPE_CONFLICT);
    ins_ok(e1, "b", "{\"id\":\"5\",\"w\":false}");
    /* A drop reaches the other engine; its next write creates anew. */
    int64_t n = -1;
    assert_int_equal(pier_row_count(&n, e2, "b", &err), PIER_OK);
    assert_int_equal(n, 5);
    assert_int_equal(pier_board_drop(NULL, e1, "b", &err), PIER_OK);
    assert_false(has_board(e2, "b"));
    assert_int_equal(pier_row_count(&n, e2, "b", &err),
                     PIER_E_BOARD_NOT_FOUND);
    ins_ok(e2, "b", "{\"id\":\"1\",\"v\":\"now text\",\"w\":2}");
    assert_cell(e1, "b", "1", "w", "2");
    assert_int_equal(pier_row_count(&n, e1, "b", &err), PIER_OK);
    assert_int_equal(n, 1);
    /* A truncate too. */
    assert_int_equal(pier_board_truncate(NULL, e2, "b", &err), PIER_OK);
    assert_int_equal(pier_row_count(&n, e1, "b", &err), PIER_OK);
    assert_int_equal(n, 0);
    pier_close(&e2);
    pier_close(&e1);
}

/*
 * A write that failed part-way in one engine (a new column was added and a
 * row stored before a later row was refused, all rolled back) must leave
 * nothing in that engine that outlives the rollback: another engine then
 * adds a different column, and the first engine writes to it.
 */
static void test_failed_write_then_other_engine_adds_column(void **state)
{
    fixture *f = *state;
    pier_engine *e1 = open_ok(f->data, NULL);
    pier_engine *e2 = open_ok(f->data, NULL);
    pier_error err;
    ins_ok(e1, "b", "{\"id\":\"0\",\"v\":1}");
    assert_int_equal(wp_insert(e1, "b", "[{\"id\":\"1\",\"a\":1},"
                               "{\"id\":\"2\",\"v\":\"x\"}]", NULL, &err),
                     PIER_E_COLUMN_TYPE_CONFLICT);
    ins_ok(e2, "b", "{\"id\":\"3\",\"z\":\"zz\"}");
    pier_status rc = wp_insert(e1, "b", "{\"id\":\"4\",\"z\":\"q\"}", NULL,
                               &err);
    pier_close(&e2);
    pier_close(&e1);
    if (rc != PIER_OK)
        fail_msg("the write after the failed one: %s: %s", err.tag,
                 err.message);
}

static void test_engines_with_different_options(void **state)
{
    fixture *f = *state;
    pier_open_options never = PIER_OPEN_OPTIONS_INIT;
    never.auto_create = PIER_AUTO_CREATE_NEVER;
    never.columns = PIER_COLUMNS_DECLARED;
    pier_engine *infer = open_ok(f->data, NULL);
    pier_engine *strict = open_ok(f->data, &never);
    pier_error err;
    assert_int_equal(wp_insert(strict, "b", "{\"id\":\"1\"}", NULL, &err),
                     PIER_E_BOARD_NOT_FOUND);
    assert_false(has_board(infer, "b"));
    ins_ok(infer, "b", "{\"id\":\"1\",\"v\":1}");
    /* The board is not strict: only the engine that takes declared
     * columns refuses a new one. */
    assert_int_equal(wp_insert(strict, "b", "{\"id\":\"2\",\"w\":1}", NULL,
                               &err), PIER_E_UNKNOWN_COLUMN);
    ins_ok(strict, "b", "{\"id\":\"2\",\"v\":2}");
    ins_ok(infer, "b", "{\"id\":\"3\",\"w\":1}");
    ins_ok(strict, "b", "{\"id\":\"4\",\"w\":2}");
    assert_cell(infer, "b", "4", "w", "2");
    pier_close(&strict);
    pier_close(&infer);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_open_creates_nested_dirs),
        T(test_open_relative_path),
        T(test_lake_format),
        T(test_empty_lake_file_is_initialized),
        T(test_not_sqlite_at_all),
        T(test_not_sqlite_short_file),
        T(test_sqlite_of_another_application),
        T(test_newer_format),
        T(test_data_dir_is_a_file),
        T(test_lake_file_is_a_directory),
        T(test_open_bad_arguments),
        T(test_close),
        T(test_reset_lake),
        T(test_reopen_keeps_everything),
        T(test_second_engine_sees_strict),
        T(test_second_engine_sees_schema_changes),
        T(test_failed_write_then_other_engine_adds_column),
        T(test_engines_with_different_options),
    };
    int failed = 0;
    failed += cmocka_run_group_tests_name("lake via pier_insert_json", tests,
                                          group_json, NULL);
    failed += cmocka_run_group_tests_name("lake via pier_rows", tests,
                                          group_rows, NULL);
    return failed;
}
