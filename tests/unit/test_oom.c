/*
 * test_oom.c: every allocation Pier makes may fail, and each failure ends
 * the call cleanly: OutOfMemory (or a status that says why), no leak, no
 * crash, and nothing half-written in the lake.
 *
 * The program is linked with --wrap=malloc,calloc,realloc (see
 * CMakeLists.txt), so every allocation in libpier's own code goes through
 * the counters below; the Nth one fails, for N = 1, 2, ... until a run
 * completes without reaching N. SQLite and jansson keep their own
 * allocators: their failures are theirs to test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pier.h"
#include "support/lakedir.h"
#include "support/migfiles.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);

static long fail_at = -1;   /* the allocation to fail; -1: none */
static long calls;

static bool should_fail(void)
{
    return fail_at >= 0 && ++calls == fail_at;
}

void *__wrap_malloc(size_t n)
{
    return should_fail() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
    return should_fail() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
    return should_fail() ? NULL : __real_realloc(p, n);
}

static void arm(long n)
{
    calls = 0;
    fail_at = n;
}

/* Disarms; returns whether the armed failure happened. */
static bool disarm(void)
{
    bool hit = fail_at >= 0 && calls >= fail_at;
    fail_at = -1;
    return hit;
}

static char dir[64];

static void fresh_dir(void)
{
    pier_error err;
    if (dir[0] != '\0')
        assert_int_equal(pier_reset_lake(dir, &err), PIER_OK);
    strcpy(dir, "/tmp/pier-oom-XXXXXX");
    assert_non_null(mkdtemp(dir));
}

static const char rows_json[] =
    "[{\"id\":\"a\",\"n\":1,\"t\":\"x\",\"doc\":{\"k\":[1,2]}},"
    "{\"id\":\"b\",\"n\":2.5,\"big\":123456789012345678901234567890},"
    "{\"id\":\"c\",\"state\":\"done\",\"t\":\"y\"}]";

/* What a fresh engine, with allocations working, sees of board "b". */
static int64_t stored_rows(bool *has)
{
    pier_engine *e = NULL;
    pier_error err;
    int64_t n = 0;
    assert_int_equal(pier_open(&e, dir, NULL, &err), PIER_OK);
    assert_int_equal(pier_board_has(has, e, "b", &err), PIER_OK);
    if (*has)
        assert_int_equal(pier_row_count(&n, e, "b", &err), PIER_OK);
    pier_close(&e);
    return n;
}

static void check_failure(pier_status rc, const pier_error *err)
{
    if (rc == PIER_OK)
        return;
    /* The lake may also fail to open when its own setup cannot allocate;
     * any other status would be a wrong report of an allocation failure. */
    if (rc != PIER_E_OUT_OF_MEMORY && rc != PIER_E_LAKE_UNAVAILABLE)
        fail_msg("an allocation failure was reported as %s: %s", err->tag,
                 err->message);
}

static void open_and_insert_survive_every_failure(void **state)
{
    (void)state;
    long n;
    for (n = 1;; n++) {
        fresh_dir();
        pier_engine *e = NULL;
        pier_error err;
        pier_status ins = PIER_E_OUT_OF_MEMORY;
        arm(n);
        pier_status rc = pier_open(&e, dir, NULL, &err);
        check_failure(rc, &err);
        if (rc == PIER_OK) {
            ins = pier_insert_json(NULL, e, "b", rows_json,
                                   sizeof rows_json - 1, &err);
            check_failure(ins, &err);
        }
        pier_close(&e);
        bool hit = disarm();
        bool has = false;
        int64_t stored = stored_rows(&has);
        if (ins == PIER_OK)
            assert_int_equal(stored, 3);
        else
            assert_false(has);                  /* nothing half-written */
        if (!hit)
            break;
    }
    print_message("open + insert: %ld allocation points\n", n - 1);
}

static void reads_and_lifecycle_survive_every_failure(void **state)
{
    (void)state;
    fresh_dir();
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, dir, NULL, &err), PIER_OK);
    long n;
    for (n = 1;; n++) {
        /* The same starting board every time. */
        bool has = false;
        assert_int_equal(pier_board_has(&has, e, "b", &err), PIER_OK);
        if (has)
            assert_int_equal(pier_board_drop(NULL, e, "b", &err), PIER_OK);
        assert_int_equal(pier_insert_json(NULL, e, "b", rows_json,
                                          sizeof rows_json - 1, &err),
                         PIER_OK);
        pier_row *row = NULL;
        pier_board_info *info = NULL;
        char **list = NULL;
        char *json = NULL;
        const char more[] = "{\"id\":\"d\",\"added\":true}";
        arm(n);
        pier_status get = pier_row_get(&row, e, "b", "a", &err);
        check_failure(get, &err);
        if (get == PIER_OK)
            json = pier_row_to_json(row);
        check_failure(pier_board_describe(&info, e, "b", &err), &err);
        check_failure(pier_board_list(&list, e, &err), &err);
        pier_status add = pier_insert_json(NULL, e, "b", more,
                                           sizeof more - 1, &err);
        check_failure(add, &err);
        pier_status widen = pier_board_widen_column(NULL, e, "b", "n", "text",
                                                    &err);
        check_failure(widen, &err);
        bool hit = disarm();
        pier_free(json);
        pier_row_free(row);
        pier_board_info_free(info);
        pier_strings_free(list);
        /* Whatever failed, the engine still works and the lake is whole. */
        int64_t count = 0;
        assert_int_equal(pier_row_count(&count, e, "b", &err), PIER_OK);
        assert_int_equal(count, add == PIER_OK ? 4 : 3);
        pier_board_info *after = NULL;
        assert_int_equal(pier_board_describe(&after, e, "b", &err), PIER_OK);
        assert_int_equal(after->ncolumns, add == PIER_OK ? 8 : 7);
        assert_string_equal(after->columns[3].name, "n");
        assert_string_equal(after->columns[3].type,
                            widen == PIER_OK ? "text" : "double");
        pier_board_info_free(after);
        if (!hit)
            break;
    }
    pier_close(&e);
    print_message("reads and lifecycle: %ld allocation points\n", n - 1);
}

static void writes_and_feed_survive_every_failure(void **state)
{
    (void)state;
    fresh_dir();
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, dir, NULL, &err), PIER_OK);
    long n;
    for (n = 1;; n++) {
        bool has = false;
        assert_int_equal(pier_board_has(&has, e, "b", &err), PIER_OK);
        if (has)
            assert_int_equal(pier_board_drop(NULL, e, "b", &err), PIER_OK);
        assert_int_equal(pier_insert_json(NULL, e, "b", rows_json,
                                          sizeof rows_json - 1, &err),
                         PIER_OK);
        int64_t head = 0;
        assert_int_equal(pier_head_from_catalog(&head, e, &err), PIER_OK);
        const char patches[] = "[{\"id\":\"a\",\"patch\":{\"n\":7,"
                               "\"added\":\"x\"}}]";
        const char upserts[] = "[{\"id\":\"a\",\"t\":\"z\"},"
                               "{\"id\":\"e\",\"n\":1}]";
        const char *ids[] = { "b", "nope" };
        const char *boards[] = { "b", "t" };
        pier_changes_page *page = NULL;
        char *json = NULL;
        pier_tx *tx = NULL;
        arm(n);
        pier_status upd = pier_update_many_json(NULL, e, "b", patches,
                                                sizeof patches - 1, &err);
        check_failure(upd, &err);
        pier_status ups = pier_upsert_json(NULL, e, "b", upserts,
                                           sizeof upserts - 1, &err);
        check_failure(ups, &err);
        pier_status del = pier_delete_many(NULL, e, "b", ids, 2, &err);
        check_failure(del, &err);
        pier_status txs = pier_tx_begin(&tx, e, boards, 2, &err);
        check_failure(txs, &err);
        if (txs == PIER_OK) {
            check_failure(pier_tx_insert_json(tx, "t", "{\"id\":\"q\"}",
                                              10, &err), &err);
            const char doc[] = "[{\"op\":\"insert\",\"board\":\"t\","
                               "\"rows\":[{\"id\":\"r\",\"v\":1.5}]},"
                               "{\"op\":\"update\",\"board\":\"t\","
                               "\"id\":\"q\",\"patch\":{\"v\":2}},"
                               "{\"op\":\"delete\",\"board\":\"t\","
                               "\"ids\":[\"r\"]}]";
            check_failure(pier_tx_apply_json(tx, doc, sizeof doc - 1, &err),
                          &err);
            txs = pier_tx_commit(NULL, tx, &err);
            check_failure(txs, &err);
        }
        pier_status chg = pier_changes(&page, e, "b", 0, 0, &err);
        check_failure(chg, &err);
        if (chg == PIER_OK)
            json = pier_changes_page_to_json(page);
        bool hit = disarm();
        pier_free(json);
        pier_changes_page_free(page);
        /* Each write is there wholly or not at all. */
        int64_t count = 0;
        assert_int_equal(pier_row_count(&count, e, "b", &err), PIER_OK);
        assert_int_equal(count, 3 + (ups == PIER_OK) - (del == PIER_OK));
        pier_row *row = NULL;
        assert_int_equal(pier_row_get(&row, e, "b", "a", &err), PIER_OK);
        const pier_value *t = pier_row_find(row, "t");
        assert_string_equal(t->text != NULL ? t->text : "null",
                            ups == PIER_OK ? "z" : "x");
        pier_row_free(row);
        assert_int_equal(pier_board_has(&has, e, "t", &err), PIER_OK);
        assert_int_equal(has, txs == PIER_OK);
        if (has)
            assert_int_equal(pier_board_drop(NULL, e, "t", &err), PIER_OK);
        if (!hit)
            break;
    }
    pier_close(&e);
    print_message("writes and feed: %ld allocation points\n", n - 1);
}

/* The SQL dialect: a script creating and filling a declared table, a
 * refused value, describing and dumping. A script is whole or absent. */
static void the_sql_dialect_survives_every_failure(void **state)
{
    (void)state;
    fresh_dir();
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, dir, NULL, &err), PIER_OK);
    static const char script[] =
        "CREATE TABLE t (id INT64 PRIMARY KEY READONLY, d DECIMAL(6,2), "
        "e ENUM('a','b') NOT NULL, tags TEXT[], u UUID); "
        "CREATE INDEX t_d ON t(d); "
        "INSERT INTO t VALUES (1, '1.5', 'a', '[\"x\"]', "
        "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), (2, 3, 'b', NULL, NULL); "
        "UPDATE t SET d = d * 2 - '0.5' WHERE id = 2; "
        "SELECT id, d, e, tags, u, sum(d) OVER () AS s, d * 3 / 4 AS x "
        "FROM t WHERE d * 2 > 1 ORDER BY id";
    long n;
    for (n = 1;; n++) {
        pier_cursor *c = NULL;
        assert_int_equal(pier_exec(NULL, e, "DROP TABLE IF EXISTS t", NULL,
                                   &err), PIER_OK);
        pier_table_info *info = NULL;
        char *dump = NULL;
        arm(n);
        pier_status rc = pier_exec(&c, e, script, NULL, &err);
        check_failure(rc, &err);
        pier_status bad = pier_exec(NULL, e, "INSERT INTO t VALUES (3, "
                                    "'1.234', 'a', NULL, NULL)", NULL, &err);
        if (bad != PIER_E_OUT_OF_MEMORY)
            assert_int_equal(bad, rc == PIER_OK
                                      ? PIER_E_COLUMN_TYPE_CONFLICT
                                      : PIER_E_QUERY_FAILED);
        check_failure(pier_table_describe(&info, e, "t", &err) ==
                              PIER_E_TABLE_NOT_FOUND
                          ? PIER_OK
                          : err.status, &err);
        check_failure(pier_schema_dump(&dump, e, &err), &err);
        bool hit = disarm();
        const pier_row *row = NULL;
        if (rc == PIER_OK) {
            assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
            assert_string_equal(pier_row_value(row, 1)->text, "1.50");
            assert_string_equal(pier_row_value(row, 5)->text, "7");
            assert_string_equal(pier_row_value(row, 6)->text, "1.125");
        }
        pier_cursor_close(c);
        pier_table_info_free(info);
        pier_free(dump);
        /* Whatever failed, the table is there whole or not at all. */
        char **names = NULL;
        assert_int_equal(pier_table_list(&names, e, &err), PIER_OK);
        assert_int_equal(names[0] != NULL, rc == PIER_OK);
        pier_strings_free(names);
        if (rc == PIER_OK) {
            assert_int_equal(pier_exec(&c, e, "SELECT count(*) FROM t", NULL,
                                       &err), PIER_OK);
            assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
            assert_int_equal(pier_row_value(row, 0)->as.integer, 2);
            pier_cursor_close(c);
        }
        assert_int_equal(pier_schema_check(e, &err), PIER_OK);
        if (!hit)
            break;
    }
    pier_close(&e);
    print_message("sql dialect: %ld allocation points\n", n - 1);
}

/* The count of `sql`'s one value, with allocations working. */
static int64_t count_of(pier_engine *e, const char *sql)
{
    pier_cursor *c = NULL;
    pier_error err;
    const pier_row *row = NULL;
    assert_int_equal(pier_exec(&c, e, sql, NULL, &err), PIER_OK);
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    int64_t n = pier_row_value(row, 0)->as.integer;
    pier_cursor_close(c);
    return n;
}

/* A recorded transaction (a commit trigger storing its changeset, and
 * pier_changeset) on an engine opened just before, so that its recorder
 * is made under the failures too: the write and its history are kept
 * together or not at all. */
static void recording_survives_every_failure(void **state)
{
    (void)state;
    fresh_dir();
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, dir, NULL, &err), PIER_OK);
    assert_int_equal(pier_exec(NULL, e, "CREATE TABLE t (id INT64 PRIMARY "
                               "KEY, v TEXT); CREATE TABLE h (id INT64 "
                               "PRIMARY KEY, cs CHANGESET NOT NULL); "
                               "CREATE COMMIT TRIGGER keep ON t AS INSERT "
                               "INTO h(cs) VALUES (pier_changeset())", NULL,
                               &err), PIER_OK);
    pier_close(&e);
    long n;
    int64_t kept = 0;
    for (n = 1;; n++) {
        assert_int_equal(pier_open(&e, dir, NULL, &err), PIER_OK);
        char sql[160];
        snprintf(sql, sizeof sql, "INSERT INTO t VALUES (%ld, 'x'); UPDATE "
                 "t SET v = 'y' WHERE id = %ld", 2 * n, 2 * n);
        void *cs = NULL;
        size_t len = 0;
        arm(n);
        pier_status rc = pier_exec(NULL, e, sql, NULL, &err);
        check_failure(rc, &err);
        snprintf(sql, sizeof sql, "INSERT INTO t VALUES (%ld, 'z')",
                 2 * n + 1);
        pier_status rc2 = pier_changeset(&cs, &len, e, sql, NULL, &err);
        check_failure(rc2, &err);
        bool hit = disarm();
        assert_int_equal(rc2 == PIER_OK, cs != NULL);
        pier_free(cs);
        kept += (rc == PIER_OK) + (rc2 == PIER_OK);
        assert_int_equal(count_of(e, "SELECT count(*) FROM t"), kept);
        assert_int_equal(count_of(e, "SELECT count(*) FROM h"), kept);
        pier_close(&e);
        if (!hit)
            break;
    }
    print_message("recording: %ld allocation points\n", n - 1);
}

static void the_row_builder_survives_every_failure(void **state)
{
    (void)state;
    long n;
    for (n = 1;; n++) {
        pier_error err;
        arm(n);
        pier_rows *rows = pier_rows_new();
        pier_status rc = rows != NULL ? PIER_OK : PIER_E_OUT_OF_MEMORY;
        for (int i = 0; rc == PIER_OK && i < 50; i++) {
            rc = pier_rows_add(rows, &err);
            if (rc == PIER_OK)
                rc = pier_rows_set_text(rows, "id", "some id", &err);
            if (rc == PIER_OK)
                rc = pier_rows_set_json(rows, "doc", "{\"a\":[1,2,3]}", &err);
            if (rc == PIER_OK)
                rc = pier_rows_set_int64(rows, "n", i, &err);
        }
        bool hit = disarm();
        if (rc != PIER_OK)
            assert_int_equal(rc, PIER_E_OUT_OF_MEMORY);
        else
            assert_int_equal(pier_rows_count(rows), 50);
        pier_rows_free(rows);
        if (!hit)
            break;
    }
    print_message("row builder: %ld allocation points\n", n - 1);
}

static int teardown(void **state)
{
    (void)state;
    pier_error err;
    if (dir[0] != '\0')
        pier_reset_lake(dir, &err);
    dir[0] = '\0';
    return 0;
}

/* Planning a migration: the declaration read, the live catalog read,
 * the plan made and rendered; every failure is OutOfMemory and leaves
 * nothing behind. */
static void planning_survives_every_failure(void **state)
{
    (void)state;
    fresh_dir();
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, dir, NULL, &err), PIER_OK);
    assert_int_equal(pier_exec(NULL, e, "CREATE TABLE p (id INT64 PRIMARY "
                               "KEY, label TEXT NOT NULL); CREATE TABLE c "
                               "(id INT64 PRIMARY KEY, p INT64 REFERENCES "
                               "p(id), q DECIMAL(6,2), CONSTRAINT pos CHECK "
                               "(q > 0)); CREATE INDEX c_q ON c (q); "
                               "INSERT INTO p VALUES (1, 'a'); "
                               "CREATE BOARD events (kind text)", NULL,
                               &err),
                     PIER_OK);
    static const char decl[] =
        "CREATE TABLE p (id INT64 PRIMARY KEY, label TEXT NOT NULL, "
        "note VARCHAR(10) NOT NULL BACKFILL 'none');\n"
        "CREATE TABLE c (id INT64 PRIMARY KEY, p INT64 REFERENCES p(id), "
        "q DECIMAL(8,2), CONSTRAINT pos CHECK (q > 0));\n"
        "CREATE VIEW v (label TEXT) AS SELECT label FROM p;\n"
        "CREATE INDEX c_p ON c (p);\n"
        "CREATE BOARD events (kind text);\n";
    long n;
    for (n = 1;; n++) {
        pier_migration *m = NULL;
        arm(n);
        pier_status rc = pier_plan(&m, e, decl, sizeof decl - 1, NULL, &err);
        check_failure(rc, &err);
        char *text = rc == PIER_OK ? pier_migration_to_text(m) : NULL;
        char *json = rc == PIER_OK ? pier_migration_to_json(m) : NULL;
        bool hit = disarm();
        if (rc == PIER_OK && text != NULL)
            assert_non_null(strstr(text, "add_column"));
        if (rc == PIER_OK && !hit) {
            assert_int_equal(pier_migration_steps(m), 4);
            assert_non_null(text);
            assert_non_null(json);
        }
        pier_free(text);
        pier_free(json);
        pier_migration_free(m);
        if (!hit)
            break;
    }
    print_message("planning: %ld allocation points\n", n - 1);
    pier_close(&e);
}

/* Migrating: planned and applied in one transaction, every step's change
 * record, the engine's caches; a failure anywhere is OutOfMemory and the
 * lake keeps its catalog (the declaration still plans to every step), so
 * the same lake takes the next attempt. Then the lake exported and
 * introspected under the same failures. */
static void migrating_survives_every_failure(void **state)
{
    (void)state;
    fresh_dir();
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, dir, NULL, &err), PIER_OK);
    static const char v1[] =
        "CREATE TABLE p (id INT64 PRIMARY KEY, label TEXT NOT NULL);\n"
        "CREATE TABLE c (id INT64 PRIMARY KEY, p INT64 REFERENCES p(id), "
        "q DECIMAL(6,2), s ENUM('a', 'b'), CONSTRAINT pos CHECK (q > 0));\n"
        "CREATE BOARD events (kind text);\n";
    assert_int_equal(pier_migrate(NULL, e, v1, sizeof v1 - 1, NULL, NULL,
                                  &err), PIER_OK);
    assert_int_equal(pier_exec(NULL, e, "INSERT INTO p VALUES (1, 'a'); "
                               "INSERT INTO c VALUES (1, 1, 2.5, 'a')", NULL,
                               &err), PIER_OK);
    static const char v2[] =
        "CREATE TABLE p (id INT64 PRIMARY KEY AUTOINCREMENT, label TEXT NOT "
        "NULL DEFAULT 'x', note VARCHAR(10) NOT NULL BACKFILL 'none', "
        "at INSTANT DEFAULT now());\n"
        "CREATE TABLE c (id INT64 PRIMARY KEY, p INT64 REFERENCES p(id), "
        "q DECIMAL(8,2) NOT NULL, kind ENUM('a', 'b', 'c') RENAMED FROM s, "
        "CONSTRAINT pos CHECK (q > 0));\n"
        "CREATE VIEW v (label TEXT) AS SELECT label FROM p;\n"
        "CREATE UNIQUE INDEX c_p ON c (p);\n"
        "CREATE BOARD events (kind text, n bigint);\n";
    pier_migration *plan = NULL;
    assert_int_equal(pier_plan(&plan, e, v2, sizeof v2 - 1, NULL, &err),
                     PIER_OK);
    size_t steps = pier_migration_steps(plan);
    pier_migration_free(plan);
    long n;
    for (n = 1;; n++) {
        arm(n);
        pier_status rc = pier_migrate(NULL, e, v2, sizeof v2 - 1, NULL,
                                      NULL, &err);
        bool hit = disarm();
        check_failure(rc, &err);
        pier_migration *m = NULL;
        assert_int_equal(pier_plan(&m, e, v2, sizeof v2 - 1, NULL, &err),
                         PIER_OK);
        assert_int_equal(pier_migration_steps(m), rc == PIER_OK ? 0 : steps);
        pier_migration_free(m);
        if (rc == PIER_OK)
            break;
        assert_true(hit);
    }
    print_message("migrating: %ld allocation points\n", n - 1);
    assert_int_equal(pier_schema_check(e, &err), PIER_OK);
    char *want = NULL, *want_json = NULL;
    assert_int_equal(pier_schema_export(&want, e, &err), PIER_OK);
    assert_int_equal(pier_introspect(&want_json, e, &err), PIER_OK);
    for (n = 1;; n++) {
        char *text = NULL, *json = NULL;
        arm(n);
        pier_status rc = pier_schema_export(&text, e, &err);
        check_failure(rc, &err);
        pier_status rj = pier_introspect(&json, e, &err);
        check_failure(rj, &err);
        bool hit = disarm();
        if (rc == PIER_OK)
            assert_string_equal(text, want);
        if (rj == PIER_OK)
            assert_string_equal(json, want_json);
        pier_free(text);
        pier_free(json);
        if (!hit)
            break;
    }
    print_message("export and introspect: %ld allocation points\n", n - 1);
    pier_free(want);
    pier_free(want_json);
    pier_close(&e);
}

/* Versioned migration files (support/migfiles.h): the versions of one
 * generation (a table, its rows, an index, an irreversible bump, a column
 * added) applied up to version 1, the last rolled back, all applied, the
 * last rolled back, then a rollback refused at the irreversible one. Each
 * call runs with every allocation failing in turn, each time on the lake
 * as it was before the call (its files kept and put back), on a new
 * engine; then, with allocations working: the call failed cleanly
 * (OutOfMemory) or did its work; each version's record is there exactly
 * when what its SQL does is, and status says so (migfiles_check); up
 * listed exactly the versions it applied, also when it failed part-way,
 * and a down that failed changed nothing; and up, run again, completes. */
static char files[64];

/* The lake's files as they were at one moment. */
typedef struct saved {
    char *lake, *wal;          /* wal NULL: none */
    size_t lake_len, wal_len;
} saved;

static char *lake_file(const char *suffix)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/lake.sqlite%s", dir, suffix);
    return path;
}

static void save_lake(saved *s)
{
    memset(s, 0, sizeof *s);
    s->lake = lakedir_read_file(lake_file(""), &s->lake_len);
    assert_non_null(s->lake);
    if (lakedir_exists(lake_file("-wal")))
        s->wal = lakedir_read_file(lake_file("-wal"), &s->wal_len);
}

static void restore_lake(const saved *s)
{
    assert_int_equal(lakedir_write_file(lake_file(""), s->lake,
                                        s->lake_len), 0);
    if (s->wal != NULL)
        assert_int_equal(lakedir_write_file(lake_file("-wal"), s->wal,
                                            s->wal_len), 0);
    else
        unlink(lake_file("-wal"));
    unlink(lake_file("-shm"));
}

static void free_saved(saved *s)
{
    free(s->lake);
    free(s->wal);
}

static pier_engine *open_lake(void)
{
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, dir, NULL, &err), PIER_OK);
    return e;
}

/* How many versions are applied; fails the test unless the record and
 * the lake agree. */
static size_t files_agree(pier_engine *e, long n, const char *what)
{
    char why[512];
    size_t k = 0;
    if (!migfiles_check(e, lake_file(""), files, &k, why, sizeof why))
        fail_msg("%s, allocation %ld failing: %s", what, n, why);
    return k;
}

enum { FILES_UP, FILES_DOWN };

/* One call of the sequence: up with the first `nfiles` versions in the
 * directory, or down; from `from` versions applied to `to` (`to` ==
 * `from`: refused, changing nothing). Leaves the lake as the call leaves
 * it. */
static void files_call(int kind, size_t nfiles, size_t from, size_t to,
                       const char *what)
{
    pier_error err;
    assert_int_equal(migfiles_write(files, nfiles, true, &err), PIER_OK);
    saved before;
    save_lake(&before);
    long n;
    for (n = 1;; n++) {
        restore_lake(&before);
        pier_engine *e = open_lake();
        pier_migration_files *l = NULL;
        arm(n);
        pier_status rc = kind == FILES_UP
            ? pier_migration_files_up(NULL, e, files, &l, &err)
            : pier_migration_files_down(NULL, e, files, &l, &err);
        bool hit = disarm();
        if (rc == PIER_E_MIGRATION_REFUSED && to == from)
            rc = PIER_OK;
        check_failure(rc, &err);
        size_t k = files_agree(e, n, what);
        size_t listed = l != NULL ? l->nfiles : 0;
        pier_migration_files_free(l);
        if (rc == PIER_OK && k != to)
            fail_msg("%s, allocation %ld failing: it succeeded with %zu "
                     "versions applied, not %zu", what, n, k, to);
        if (kind == FILES_UP && (k < from || k > to || listed != k - from))
            fail_msg("%s, allocation %ld failing: %zu versions applied "
                     "from %zu, %zu listed", what, n, k, from, listed);
        if (kind == FILES_DOWN && rc != PIER_OK && k != from)
            fail_msg("%s, allocation %ld failing: it failed, and %zu "
                     "versions are applied, not %zu", what, n, k, from);
        if (kind == FILES_DOWN && listed != from - k)
            fail_msg("%s, allocation %ld failing: %zu listed", what, n,
                     listed);
        char why[512];
        if (!migfiles_rerun(e, lake_file(""), files, NULL, why, sizeof why))
            fail_msg("%s, allocation %ld failing: %s", what, n, why);
        pier_close(&e);
        if (!hit)
            break;
    }
    print_message("migration files %s: %ld allocation points\n", what,
                  n - 1);
    /* The state after the call, for the next one. */
    restore_lake(&before);
    free_saved(&before);
    pier_engine *e = open_lake();
    pier_status rc = kind == FILES_UP
        ? pier_migration_files_up(NULL, e, files, NULL, &err)
        : pier_migration_files_down(NULL, e, files, NULL, &err);
    assert_int_equal(rc, to == from ? PIER_E_MIGRATION_REFUSED : PIER_OK);
    assert_int_equal(files_agree(e, 0, what), to);
    pier_close(&e);
}

static void migration_files_survive_every_failure(void **state)
{
    (void)state;
    fresh_dir();
    strcpy(files, "/tmp/pier-oom-files-XXXXXX");
    assert_non_null(mkdtemp(files));
    pier_engine *e = open_lake();
    pier_close(&e);
    files_call(FILES_UP, 2, 0, 2, "up to version 1");
    files_call(FILES_DOWN, 2, 2, 1, "down");
    files_call(FILES_UP, MIGFILES_PER_GEN, 1, MIGFILES_PER_GEN, "up all");
    files_call(FILES_DOWN, MIGFILES_PER_GEN, MIGFILES_PER_GEN,
               MIGFILES_PER_GEN - 1, "down again");
    files_call(FILES_DOWN, MIGFILES_PER_GEN, MIGFILES_PER_GEN - 1,
               MIGFILES_PER_GEN - 1, "down refused");

    e = open_lake();
    pier_error err;
    long n;
    for (n = 1;; n++) {
        pier_migration_files *l = NULL;
        arm(n);
        pier_status rc = pier_migration_files_status(&l, e, files, &err);
        bool hit = disarm();
        check_failure(rc, &err);
        if (rc == PIER_OK) {
            assert_int_equal(l->nfiles, MIGFILES_PER_GEN);
            assert_int_equal(l->files[MIGFILES_PER_GEN - 2].state,
                             PIER_MIGRATION_FILE_APPLIED);
            assert_int_equal(l->files[MIGFILES_PER_GEN - 1].state,
                             PIER_MIGRATION_FILE_PENDING);
        } else {
            assert_null(l);
        }
        pier_migration_files_free(l);
        if (!hit)
            break;
    }
    print_message("migration files status: %ld allocation points\n", n - 1);
    for (n = 1;; n++) {
        char *path = NULL;
        arm(n);
        pier_status rc = pier_migration_file_create(&path, files, "c",
                                                    INT64_C(1767225600000000),
                                                    &err);
        bool hit = disarm();
        check_failure(rc, &err);
        if (rc == PIER_OK) {
            char version[16];
            migfiles_version(MIGFILES_PER_GEN, version);
            assert_non_null(strstr(path, version));
            assert_int_equal(unlink(path), 0);
        } else {
            assert_null(path);
        }
        pier_free(path);
        if (!hit)
            break;
    }
    print_message("migration file create: %ld allocation points\n", n - 1);
    assert_int_equal(files_agree(e, 0, "the end"), MIGFILES_PER_GEN - 1);
    pier_close(&e);
    assert_int_equal(lakedir_remove_tree(files), 0);
}

/* Code generation: the declaration read, the shapes built and written;
 * every failure is OutOfMemory with nothing handed out, and an output is
 * whole (the same as with allocations working). */
static void codegen_survives_every_failure(void **state)
{
    (void)state;
    static const char decl[] =
        "CREATE TABLE t (id INT64 PRIMARY KEY AUTOINCREMENT, "
        "e ENUM('a', 'b') NOT NULL DEFAULT 'a', d DECIMAL(8,2), "
        "\"1x\" UUID READONLY, arr TEXT[]);\n"
        "CREATE VIEW v (id INT64) AS SELECT id FROM t;\n"
        "CREATE BOARD events (kind text, n hugeint) STRICT;\n";
    for (int target = 0; target < 2; target++) {
        pier_error err;
        char *want = NULL;
        assert_int_equal(pier_schema_codegen(&want, decl, sizeof decl - 1,
                                             (pier_codegen_target)target,
                                             NULL, &err),
                         PIER_OK);
        long n;
        for (n = 1;; n++) {
            char *out = NULL;
            arm(n);
            pier_status rc = pier_schema_codegen(&out, decl,
                                                 sizeof decl - 1,
                                                 (pier_codegen_target)target,
                                                 NULL, &err);
            bool hit = disarm();
            if (rc != PIER_OK) {
                assert_int_equal(rc, PIER_E_OUT_OF_MEMORY);
                assert_null(out);
            } else {
                assert_string_equal(out, want);
            }
            pier_free(out);
            if (!hit)
                break;
        }
        print_message("codegen %d: %ld allocation points\n", target, n - 1);
        pier_free(want);
    }
}

/* An export's bytes, counted and hashed without allocating (the test's
 * own allocations fail too while armed). */
typedef struct digest {
    size_t len;
    uint64_t hash;             /* FNV-1a */
} digest;

static bool digest_write(const char *bytes, size_t len, void *payload)
{
    digest *d = payload;
    for (size_t i = 0; i < len; i++) {
        d->hash ^= (unsigned char)bytes[i];
        d->hash *= UINT64_C(1099511628211);
    }
    d->len += len;
    return true;
}

typedef struct collected {
    char *p;
    size_t len;
} collected;

static bool collect_write(const char *bytes, size_t len, void *payload)
{
    collected *c = payload;
    char *p = realloc(c->p, c->len + len);
    if (p == NULL)
        return false;
    memcpy(p + c->len, bytes, len);
    c->p = p;
    c->len += len;
    return true;
}

static digest export_digest(pier_engine *e)
{
    digest d = { 0, UINT64_C(14695981039346656037) };
    pier_error err;
    assert_int_equal(pier_export(e, digest_write, &d, &err), PIER_OK);
    return d;
}

/* Whether anything named like a backup's temporary directories is left
 * in `parent`. */
static bool leftovers(const char *parent)
{
    DIR *d = opendir(parent);
    assert_non_null(d);
    bool found = false;
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        found = found || strstr(de->d_name, ".pier-tmp-") != NULL ||
                strstr(de->d_name, ".pier-old-") != NULL;
    closedir(d);
    return found;
}

/* Backup, restore, export and import: every failure is OutOfMemory (or
 * a status that says why), leaves no partial copy, no half-imported
 * lake, and the lake as it was. */
static void backup_and_export_survive_every_failure(void **state)
{
    (void)state;
    fresh_dir();
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, dir, NULL, &err), PIER_OK);
    assert_int_equal(pier_insert_json(NULL, e, "b", rows_json,
                                      sizeof rows_json - 1, &err), PIER_OK);
    assert_int_equal(pier_exec(NULL, e, "CREATE TABLE t (id INT64 PRIMARY "
                               "KEY, d DECIMAL(6,2)); INSERT INTO t VALUES "
                               "(1, 1.5)", NULL, &err), PIER_OK);
    digest want = export_digest(e);
    char side[64];
    strcpy(side, "/tmp/pier-oom-side-XXXXXX");
    assert_non_null(mkdtemp(side));
    char *dest = lakedir_join(side, "bk");
    char *fresh = lakedir_join(side, "fresh");
    long n;
    for (n = 1;; n++) {
        lakedir_remove_tree(dest);
        arm(n);
        pier_status rc = pier_backup(e, dest, 0, &err);
        check_failure(rc, &err);
        digest d = { 0, UINT64_C(14695981039346656037) };
        pier_status ex = pier_export(e, digest_write, &d, &err);
        check_failure(ex, &err);
        bool hit = disarm();
        assert_false(leftovers(side));
        if (rc == PIER_OK) {
            pier_engine *copy = NULL;
            assert_int_equal(pier_open(&copy, dest, NULL, &err), PIER_OK);
            digest c = export_digest(copy);
            assert_int_equal(c.len, want.len);
            assert_true(c.hash == want.hash);
            pier_close(&copy);
        } else {
            assert_false(lakedir_exists(dest));
        }
        if (ex == PIER_OK) {
            assert_int_equal(d.len, want.len);
            assert_true(d.hash == want.hash);
        }
        if (!hit)
            break;
    }
    print_message("backup and export: %ld allocation points\n", n - 1);
    free(dest);
    free(fresh);
    dest = lakedir_join(side, "bk");
    fresh = lakedir_join(side, "fresh");

    /* The export's text, collected while nothing is armed. */
    collected text = { 0 };
    assert_int_equal(pier_export(e, collect_write, &text, &err), PIER_OK);
    lakedir_remove_tree(dest);
    assert_int_equal(pier_backup(e, dest, 0, &err), PIER_OK);
    pier_close(&e);
    for (n = 1;; n++) {
        lakedir_remove_tree(fresh);
        pier_engine *f = NULL;
        assert_int_equal(pier_open(&f, fresh, NULL, &err), PIER_OK);
        arm(n);
        pier_status rc = pier_import(f, text.p, text.len, &err);
        check_failure(rc, &err);
        bool hit = disarm();
        if (rc == PIER_OK) {
            digest c = export_digest(f);
            assert_int_equal(c.len, want.len);
            assert_true(c.hash == want.hash);
        } else {
            bool has = true;
            assert_int_equal(pier_board_has(&has, f, "b", &err), PIER_OK);
            assert_false(has);
            assert_int_equal(pier_head(f), 0);
        }
        pier_close(&f);
        if (!hit)
            break;
    }
    print_message("import: %ld allocation points\n", n - 1);
    free(text.p);
    for (n = 1;; n++) {
        lakedir_remove_tree(fresh);
        arm(n);
        pier_status rc = pier_restore(fresh, dest, &err);
        check_failure(rc, &err);
        bool hit = disarm();
        pier_engine *f = NULL;
        assert_int_equal(pier_open(&f, fresh, NULL, &err), PIER_OK);
        if (rc == PIER_OK) {
            digest c = export_digest(f);
            assert_int_equal(c.len, want.len);
            assert_true(c.hash == want.hash);
        } else {
            int64_t head = -1;
            assert_int_equal(pier_head_from_catalog(&head, f, &err),
                             PIER_OK);
            assert_int_equal(head, 0);
        }
        pier_close(&f);
        if (!hit)
            break;
    }
    print_message("restore: %ld allocation points\n", n - 1);
    lakedir_remove_tree(side);
    free(dest);
    free(fresh);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(open_and_insert_survive_every_failure,
                                  teardown),
        cmocka_unit_test_teardown(reads_and_lifecycle_survive_every_failure,
                                  teardown),
        cmocka_unit_test_teardown(writes_and_feed_survive_every_failure,
                                  teardown),
        cmocka_unit_test_teardown(the_sql_dialect_survives_every_failure,
                                  teardown),
        cmocka_unit_test_teardown(planning_survives_every_failure,
                                  teardown),
        cmocka_unit_test_teardown(migrating_survives_every_failure,
                                  teardown),
        cmocka_unit_test_teardown(migration_files_survive_every_failure,
                                  teardown),
        cmocka_unit_test_teardown(recording_survives_every_failure,
                                  teardown),
        cmocka_unit_test_teardown(backup_and_export_survive_every_failure,
                                  teardown),
        cmocka_unit_test(the_row_builder_survives_every_failure),
        cmocka_unit_test(codegen_survives_every_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
