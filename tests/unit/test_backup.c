/*
 * test_backup.c: read-only opens (pier_open_options.readonly, version 4)
 * and pier_backup / pier_restore through the C API: exact statuses, and
 * nothing written after a refusal (docs/backup.md). The CLI's cases are
 * in tests/golden/cli_readonly.t and cli_backup.t, the concurrent ones in
 * tests/e2e/test_backup_concurrent.sh and test_restore.sh.
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
#include "support/lakedir.h"

typedef struct fixture {
    char *dir;                 /* a temporary directory */
    char *lake;                /* dir/lake: a lake with board b, 2 rows */
} fixture;

static pier_status ins(pier_engine *e, const char *json, pier_error *err)
{
    return pier_insert_json(NULL, e, "b", json, strlen(json), err);
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->dir = lakedir_make();
    f->lake = lakedir_join(f->dir, "lake");
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, f->lake, NULL, &err), PIER_OK);
    assert_int_equal(ins(e, "[{\"id\":\"a\"},"
                                      "{\"id\":\"b\",\"n\":2}]", &err),
                     PIER_OK);
    pier_close(&e);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    lakedir_remove_tree(f->dir);
    free(f->lake);
    free(f->dir);
    free(f);
    return 0;
}

static char *lake_bytes(const fixture *f, size_t *n)
{
    char *file = lakedir_join(f->lake, "lake.sqlite");
    char *bytes = lakedir_read_file(file, n);
    free(file);
    assert_non_null(bytes);
    return bytes;
}

static int64_t count(pier_engine *e, const char *board)
{
    int64_t n = -1;
    pier_error err;
    assert_int_equal(pier_row_count(&n, e, board, &err), PIER_OK);
    return n;
}

/* A read-only engine reads, refuses every write with WriteFailed, and
 * leaves the file byte for byte. */
static void test_readonly_refuses_writes(void **state)
{
    fixture *f = *state;
    size_t n0, n1;
    char *before = lake_bytes(f, &n0);
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.readonly = true;
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, f->lake, &o, &err), PIER_OK);
    assert_int_equal(count(e, "b"), 2);
    assert_int_equal(ins(e, "{\"id\":\"c\"}", &err),
                     PIER_E_WRITE_FAILED);
    assert_string_equal(err.tag, "WriteFailed");
    assert_non_null(strstr(err.message, "is open read-only"));
    assert_int_equal(pier_board_drop(NULL, e, "b", &err), PIER_E_WRITE_FAILED);
    assert_int_equal(pier_maintain(e, 0, &err), PIER_E_WRITE_FAILED);
    pier_cursor *c = NULL;
    assert_int_equal(pier_exec(&c, e, "CREATE TABLE t(x INTEGER)", NULL,
                               &err), PIER_E_WRITE_FAILED);
    assert_null(c);
    assert_int_equal(pier_exec(&c, e, "SELECT 1 AS x", NULL, &err),
                     PIER_OK);
    pier_cursor_close(c);
    assert_int_equal(count(e, "b"), 2);
    pier_close(&e);
    char *after = lake_bytes(f, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    free(before);
    free(after);
}

/* A missing lake is LakeUnavailable under readonly, and is not made. */
static void test_readonly_missing_lake(void **state)
{
    fixture *f = *state;
    char *nope = lakedir_join(f->dir, "nope");
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.readonly = true;
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, nope, &o, &err),
                     PIER_E_LAKE_UNAVAILABLE);
    assert_null(e);
    assert_false(lakedir_exists(nope));
    free(nope);
}

/* A version 3 caller has no readonly field: whatever lies past its
 * struct is ignored, and the engine writes. */
static void test_version_3_options(void **state)
{
    fixture *f = *state;
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.version = 3;
    o.readonly = true;                /* not part of a version 3 struct */
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, f->lake, &o, &err), PIER_OK);
    assert_int_equal(ins(e, "{\"id\":\"c\"}", &err),
                     PIER_OK);
    pier_close(&e);
    o.version = 5;
    assert_int_equal(pier_open(&e, f->lake, &o, &err),
                     PIER_E_INVALID_ARGUMENT);
}

/* Backup: a complete lake in a new directory; refusals write nothing. */
static void test_backup(void **state)
{
    fixture *f = *state;
    char *dest = lakedir_join(f->dir, "bk");
    pier_engine *e = NULL, *copy = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, f->lake, NULL, &err), PIER_OK);
    assert_int_equal(pier_backup(e, dest, 2, &err), PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_backup(e, NULL, 0, &err), PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_backup(NULL, dest, 0, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_false(lakedir_exists(dest));
    assert_int_equal(pier_backup(e, dest, 0, &err), PIER_OK);
    assert_int_equal(pier_backup(e, dest, 0, &err), PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_backup(e, f->lake, PIER_BACKUP_FORCE, &err),
                     PIER_E_INVALID_ARGUMENT);
    /* In a transaction of this thread: refused, as every call is. */
    pier_tx *tx = NULL;
    const char *boards[] = { "b" };
    assert_int_equal(pier_tx_begin(&tx, e, boards, 1, &err), PIER_OK);
    assert_int_equal(pier_backup(e, dest, PIER_BACKUP_FORCE, &err),
                     PIER_E_INVALID_ARGUMENT);
    pier_tx_rollback(tx);
    pier_close(&e);
    assert_int_equal(pier_open(&copy, dest, NULL, &err), PIER_OK);
    assert_int_equal(count(copy, "b"), 2);
    pier_close(&copy);
    free(dest);
}

/* Restore: the copy replaces the lake; refusals leave it. */
static void test_restore(void **state)
{
    fixture *f = *state;
    char *dest = lakedir_join(f->dir, "bk");
    char *alien = lakedir_join(f->dir, "alien");
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, f->lake, NULL, &err), PIER_OK);
    assert_int_equal(pier_backup(e, dest, 0, &err), PIER_OK);
    assert_int_equal(ins(e, "{\"id\":\"c\"}", &err),
                     PIER_OK);
    /* This engine has the lake open: refused. */
    assert_int_equal(pier_restore(f->lake, dest, &err),
                     PIER_E_WRITE_FAILED);
    assert_int_equal(count(e, "b"), 3);
    pier_close(&e);
    assert_int_equal(pier_restore(NULL, dest, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_restore(f->lake, alien, &err),
                     PIER_E_LAKE_UNAVAILABLE);
    assert_int_equal(pier_restore(f->lake, f->lake, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_restore("postgres://x/y", dest, &err),
                     PIER_E_TOPOLOGY_UNSUPPORTED);
    assert_int_equal(pier_restore(f->lake, dest, &err), PIER_OK);
    assert_int_equal(pier_open(&e, f->lake, NULL, &err), PIER_OK);
    assert_int_equal(count(e, "b"), 2);
    pier_close(&e);
    free(alien);
    free(dest);
}


/* Collects an export's text. */
typedef struct sink {
    char *p;
    size_t len;
    size_t fail_after;         /* refuse the write after this many; 0: never */
    size_t writes;
} sink;

static bool collect(const char *bytes, size_t len, void *payload)
{
    sink *s = payload;
    if (s->fail_after != 0 && ++s->writes > s->fail_after)
        return false;
    s->p = realloc(s->p, s->len + len + 1);
    memcpy(s->p + s->len, bytes, len);
    s->len += len;
    s->p[s->len] = '\0';
    return true;
}

/* Export, import into a new lake, export again: the same bytes. A writer
 * that fails stops the export with WriteFailed; an import that fails
 * leaves the lake new. */
static void test_export_import(void **state)
{
    fixture *f = *state;
    pier_engine *e = NULL, *n = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, f->lake, NULL, &err), PIER_OK);
    pier_cursor *c = NULL;
    assert_int_equal(pier_exec(&c, e, "CREATE TABLE t (id INT64 PRIMARY "
                               "KEY, d DECIMAL(8,2), f DOUBLE, x BLOB); "
                               "INSERT INTO t VALUES (1, 1.25, 0.1, "
                               "x'00ff'), (2, NULL, -1e300, NULL), "
                               "(3, NULL, 5e-324, NULL), (4, NULL, -0.0, "
                               "NULL), (5, NULL, 0.30000000000000004, "
                               "NULL)", NULL,
                               &err), PIER_OK);
    pier_cursor_close(c);
    sink one = { 0 }, two = { 0 }, broken = { .fail_after = 3 };
    assert_int_equal(pier_export(e, collect, &one, &err), PIER_OK);
    assert_int_equal(pier_export(e, collect, &broken, &err),
                     PIER_E_WRITE_FAILED);
    assert_int_equal(pier_export(e, NULL, NULL, &err),
                     PIER_E_INVALID_ARGUMENT);
    /* Not a new lake. */
    assert_int_equal(pier_import(e, one.p, one.len, &err),
                     PIER_E_INVALID_ARGUMENT);
    pier_close(&e);

    char *fresh = lakedir_join(f->dir, "fresh");
    assert_int_equal(pier_open(&n, fresh, NULL, &err), PIER_OK);
    assert_int_equal(pier_import(NULL, one.p, one.len, &err),
                     PIER_E_INVALID_ARGUMENT);
    /* Cut short: refused, and the lake is still new. */
    assert_int_equal(pier_import(n, one.p, one.len / 2, &err),
                     PIER_E_INVALID_JSON);
    int64_t head = -1;
    assert_int_equal(pier_head_from_catalog(&head, n, &err), PIER_OK);
    assert_int_equal(head, 0);
    assert_int_equal(pier_import(n, one.p, one.len, &err), PIER_OK);
    /* The engine follows the imported lake at once: its head, its
     * boards. */
    assert_int_equal(pier_head(n), 2);
    assert_int_equal(pier_head_from_catalog(&head, n, &err), PIER_OK);
    assert_int_equal(head, 2);
    assert_int_equal(count(n, "b"), 2);
    assert_int_equal(pier_export(n, collect, &two, &err), PIER_OK);
    assert_int_equal(one.len, two.len);
    assert_memory_equal(one.p, two.p, one.len);
    assert_int_equal(ins(n, "{\"id\":\"c\"}", &err), PIER_OK);
    pier_close(&n);
    free(one.p);
    free(two.p);
    free(broken.p);
    free(fresh);
}

/* An export read a part at a time: `step` bytes a read (0: as many as
 * asked), failing once `fail_at` bytes are read (0: never). */
typedef struct source {
    const char *p;
    size_t len, at, step, fail_at;
    size_t reads;
} source;

static bool from_source(char *buf, size_t cap, size_t *got, void *payload)
{
    source *s = payload;
    assert_true(cap > 0);
    s->reads++;
    if (s->fail_at != 0 && s->at >= s->fail_at)
        return false;
    size_t n = s->len - s->at;
    if (s->step != 0 && n > s->step)
        n = s->step;
    if (n > cap)
        n = cap;
    memcpy(buf, s->p + s->at, n);
    s->at += n;
    *got = n;
    return true;
}

/* Imports `src` into a new lake dir/NAME and returns its export (or NULL
 * after a refusal, whose status goes to *st). */
static char *import_from(const fixture *f, const char *name, source *src,
                         pier_status *st, size_t *len)
{
    char *lake = lakedir_join(f->dir, name);
    pier_engine *n = NULL;
    pier_error err;
    assert_int_equal(pier_open(&n, lake, NULL, &err), PIER_OK);
    *st = pier_import_read(n, from_source, src, &err);
    sink out = { 0 };
    if (*st == PIER_OK)
        assert_int_equal(pier_export(n, collect, &out, &err), PIER_OK);
    else {
        /* refused: the lake is still new */
        int64_t head = -1;
        assert_int_equal(pier_head_from_catalog(&head, n, &err), PIER_OK);
        assert_int_equal(head, 0);
        bool has = true;
        assert_int_equal(pier_board_has(&has, n, "b", &err), PIER_OK);
        assert_false(has);
    }
    pier_close(&n);
    free(lake);
    *len = out.len;
    return out.p;
}

/* pier_import_read: lines split across reads of any size, a line longer
 * than the reader's buffer, a last line without its newline, and a
 * reader that fails (ReadFailed, the lake still new). */
static void test_import_read(void **state)
{
    fixture *f = *state;
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, f->lake, NULL, &err), PIER_OK);
    /* a row of 200,000 bytes: longer than a read */
    size_t big = 200000;
    char *json = malloc(big + 64);
    int k = snprintf(json, big + 64, "{\"id\":\"long\",\"s\":\"");
    memset(json + k, 'x', big);
    strcpy(json + k + big, "\"}");
    assert_int_equal(ins(e, json, &err), PIER_OK);
    free(json);
    sink one = { 0 };
    assert_int_equal(pier_export(e, collect, &one, &err), PIER_OK);
    pier_close(&e);
    assert_true(one.len > big);
    assert_int_equal(one.p[one.len - 1], '\n');

    static const size_t steps[] = { 0, 1, 7, 4096, 65536 };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "step%zu", steps[i]);
        source src = { .p = one.p, .len = one.len, .step = steps[i] };
        pier_status st;
        size_t len = 0;
        char *two = import_from(f, name, &src, &st, &len);
        assert_int_equal(st, PIER_OK);
        assert_int_equal(len, one.len);
        assert_memory_equal(two, one.p, one.len);
        free(two);
    }
    /* the last line without its newline */
    source cut = { .p = one.p, .len = one.len - 1 };
    pier_status st;
    size_t len = 0;
    char *two = import_from(f, "nonl", &cut, &st, &len);
    assert_int_equal(st, PIER_OK);
    assert_int_equal(len, one.len);
    free(two);
    /* a reader that fails, early and in the long line */
    static const size_t fails[] = { 1, 100000 };
    for (size_t i = 0; i < 2; i++) {
        char name[32];
        snprintf(name, sizeof name, "fail%zu", i);
        source src = { .p = one.p, .len = one.len, .step = 4096,
                       .fail_at = fails[i] };
        assert_null(import_from(f, name, &src, &st, &len));
        assert_int_equal(st, PIER_E_READ_FAILED);
    }
    /* no reader */
    assert_int_equal(pier_import_read(NULL, from_source, &cut, &err),
                     PIER_E_INVALID_ARGUMENT);
    free(one.p);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_readonly_refuses_writes),
        T(test_readonly_missing_lake),
        T(test_version_3_options),
        T(test_backup),
        T(test_restore),
        T(test_export_import),
        T(test_import_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
