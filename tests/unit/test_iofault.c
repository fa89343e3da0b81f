/*
 * test_iofault.c: an I/O error at any call of any operation is a clean
 * error that changes nothing, and the engine goes on working.
 *
 * The fault VFS (support/faultvfs.h) fails the N-th call of one kind, for
 * N = 1, 2, ... until the operation no longer makes an N-th call.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "pier.h"
#include "support/faultvfs.h"
#include "support/lakedir.h"
#include "support/workload.h"

typedef struct text {
    char *p;
    size_t len, cap;
} text;

static void put(text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        while (cap < t->len + n + 1)
            cap *= 2;
        t->p = realloc(t->p, cap);
        assert_non_null(t->p);
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

static void puts_(text *t, const char *s)
{
    if (s != NULL)
        put(t, s, strlen(s));
}

/* A persistent fault on a lock makes SQLite report the lake busy, and
 * Pier retry for its busy timeout: a short one keeps those runs short. */
#define BUSY_TIMEOUT_MS 50

/* The workload's engine on `dir` at point i. */
static workload at_point(const char *dir, size_t i)
{
    return (workload){ .dir = dir, .durability = PIER_DURABILITY_FULL,
                       .busy_timeout_ms = BUSY_TIMEOUT_MS,
                       .now = WORKLOAD_T0 + (int64_t)i * 1000000 };
}

static bool io_status(pier_status rc)
{
    return rc == PIER_E_WRITE_FAILED || rc == PIER_E_READ_FAILED ||
           rc == PIER_E_LAKE_UNAVAILABLE;
}

/* ---- targeted cases ---- */

/* An engine on `dir` with the workload's options (no fault armed). */
static pier_engine *open_plain(const char *dir)
{
    workload w = at_point(dir, 0);
    pier_error err;
    if (workload_open(&w, &err) != PIER_OK)
        fail_msg("open %s: %s: %s", dir, err.tag, err.message);
    return w.e;
}

/* The catalog is read in one go when a call finds it changed. A read that
 * fails half-way through a board's or a table's columns fails the call;
 * it never leaves the engine believing in half a board. */
static void a_read_error_never_leaves_half_a_catalog(void **state)
{
    (void)state;
    enum { WIDE = 300 };
    char *dir = lakedir_make();
    assert_non_null(dir);
    pier_engine *e = open_plain(dir);
    pier_column_def cols[WIDE];
    char names[WIDE][8];
    text ddl = { 0 };
    puts_(&ddl, "CREATE TABLE wt (id INT64 PRIMARY KEY");
    for (int i = 0; i < WIDE; i++) {
        snprintf(names[i], sizeof names[i], "c%03d", i);
        cols[i] = (pier_column_def){ names[i], "bigint" };
        puts_(&ddl, ", ");
        puts_(&ddl, names[i]);
        puts_(&ddl, " TEXT");
    }
    puts_(&ddl, ")");
    pier_board_options bo = PIER_BOARD_OPTIONS_INIT;
    bo.columns = cols;
    bo.ncolumns = WIDE;
    pier_error err;
    assert_int_equal(pier_board_create(NULL, e, "wide", &bo, &err), PIER_OK);
    assert_int_equal(pier_exec(NULL, e, ddl.p, NULL, &err), PIER_OK);
    free(ddl.p);
    pier_close(&e);

    long n;
    for (n = 1;; n++) {
        e = open_plain(dir);
        pier_board_info *bi = NULL;
        pier_table_info *ti = NULL;
        faultvfs_arm(FAULTVFS_READ, n, false);
        /* A read that fails is ReadFailed: not a damaged catalog
         * (LakeUnavailable), not a failed write. */
        pier_status b = pier_board_describe(&bi, e, "wide", &err);
        if (b != PIER_OK && b != PIER_E_READ_FAILED)
            fail_msg("read %ld: describing a board: %s: %s", n, err.tag,
                     err.message);
        pier_status t = pier_table_describe(&ti, e, "wt", &err);
        if (t != PIER_OK && t != PIER_E_READ_FAILED)
            fail_msg("read %ld: describing a table: %s: %s", n, err.tag,
                     err.message);
        bool fired = faultvfs_disarm();
        if (b == PIER_OK)
            assert_int_equal(bi->ncolumns, WIDE + 3);
        if (t == PIER_OK)
            assert_int_equal(ti->ncolumns, WIDE + 1);
        pier_board_info_free(bi);
        pier_table_info_free(ti);
        /* And once the lake reads again, the same engine sees it all. */
        assert_int_equal(pier_board_describe(&bi, e, "wide", &err), PIER_OK);
        assert_int_equal(bi->ncolumns, WIDE + 3);
        assert_int_equal(pier_table_describe(&ti, e, "wt", &err), PIER_OK);
        assert_int_equal(ti->ncolumns, WIDE + 1);
        pier_board_info_free(bi);
        pier_table_info_free(ti);
        pier_close(&e);
        if (!fired)
            break;
    }
    print_message("catalog loads: %ld read points\n", n - 1);
    lakedir_remove_tree(dir);
    free(dir);
}

/* A failure of the lake under pier_exec (reading the schema to prepare a
 * statement, writing what DDL changes) is the lake's, WriteFailed, never
 * the statement's QueryFailed, which tells the user to fix the SQL. */
static void the_sql_dialect_reports_io_errors_as_write_failed(void **state)
{
    (void)state;
    static const char script[] = "CREATE TABLE u (id INT64 PRIMARY KEY, "
                                 "e ENUM('a','b') READONLY); "
                                 "CREATE INDEX u_e ON u(e); "
                                 "ALTER TABLE t ADD COLUMN x TEXT; "
                                 "INSERT INTO t (id, x) VALUES (7, 'x')";
    static const char undo[] = "DROP TABLE u; ALTER TABLE t DROP COLUMN x; "
                               "DELETE FROM t WHERE id = 7";
    static const faultvfs_kind kinds[] = { FAULTVFS_READ, FAULTVFS_WRITE,
                                           FAULTVFS_FULL };
    char *dir = lakedir_make();
    assert_non_null(dir);
    pier_engine *e = open_plain(dir);
    pier_error err;
    assert_int_equal(pier_exec(NULL, e, "CREATE TABLE t (id INT64 PRIMARY "
                               "KEY, d DECIMAL(6,2))", NULL, &err), PIER_OK);
    pier_close(&e);
    long covered = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        for (long n = 1;; n++) {
            e = open_plain(dir);
            faultvfs_arm(kinds[k], n, false);
            pier_status rc = pier_exec(NULL, e, script, NULL, &err);
            bool fired = faultvfs_disarm();
            if (rc != PIER_OK && (!io_status(rc) || !fired))
                fail_msg("%s %ld: %s: %s", faultvfs_kind_name(kinds[k]), n,
                         err.tag, err.message);
            if (rc == PIER_OK)
                assert_int_equal(pier_exec(NULL, e, undo, NULL, &err),
                                 PIER_OK);
            pier_close(&e);
            if (!fired)
                break;
            covered++;
        }
    }
    print_message("the SQL dialect: %ld fault points\n", covered);
    lakedir_remove_tree(dir);
    free(dir);
}

static int setup(void **state)
{
    (void)state;
    assert_int_equal(faultvfs_install(), 0);
    faultvfs_reset();
    faultvfs_set_real_sync(false);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    faultvfs_reset();
    faultvfs_uninstall();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_read_error_never_leaves_half_a_catalog),
        cmocka_unit_test(the_sql_dialect_reports_io_errors_as_write_failed),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
