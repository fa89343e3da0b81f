/*
 * test_migrate_edit.c: the metadata edits migrations make to a declared
 * table's SQL (src/migrate/edit.c) and the store's way of writing them
 * (schema_sql_set): the value check of one column retyped, and, on a
 * table of 100,000 rows, an enum widened by an edit that writes a handful
 * of pages (counted in the write-ahead log) and no row, after which the
 * new label is accepted and every old row reads as before.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/engine.h"
#include "migrate/edit.h"
#include "support/engine_fixture.h"

static void test_retype(void **state)
{
    (void)state;
    static const char sql[] =
        "CREATE TABLE \"t\" (\"a\" INTEGER CHECK (_pier_fit(\"a\", 'INT32', "
        "12)), \"s\" TEXT CHECK (_pier_fit( \"s\" , 'ENUM(''x'')' , 7 )) "
        "NOT NULL) STRICT";
    pier__buf b;
    pier__buf_init(&b);
    assert_int_equal(pier__fit_retype(&b, sql, 7, "ENUM('x','it''s')"),
                     PIER_OK);
    assert_string_equal(b.p,
        "CREATE TABLE \"t\" (\"a\" INTEGER CHECK (_pier_fit(\"a\", 'INT32', "
        "12)), \"s\" TEXT CHECK (_pier_fit( \"s\" , 'ENUM(''x'',''it''''s'')' "
        ", 7 )) NOT NULL) STRICT");
    pier__buf_reset(&b);
    assert_int_equal(pier__fit_retype(&b, sql, 12, "INT64"), PIER_OK);
    assert_non_null(strstr(b.p, "_pier_fit(\"a\", 'INT64', 12)"));
    pier__buf_reset(&b);
    /* 1 is in 12, and 2 nowhere: no such column */
    assert_int_equal(pier__fit_retype(&b, sql, 1, "INT64"),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier__fit_retype(&b, sql, 2, "INT64"),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(b.len, 0);
    pier__buf_free(&b);
}

static void test_column_edit(void **state)
{
    (void)state;
    static const char sql[] =
        "CREATE TABLE \"t\" (\"a\" INTEGER CHECK (_pier_fit(\"a\", 'INT64', "
        "1)) NOT NULL DEFAULT -1, [b] TEXT DEFAULT ('x' || 'y'),\n"
        "  c TEXT, \"not null\" TEXT NOT NULL, UNIQUE (\"a\")) STRICT";
    pier__buf b;
    pier__buf_init(&b);
    assert_int_equal(pier__column_edit(&b, sql, "A", 0, NULL, false),
                     PIER_OK);
    assert_string_equal(b.p,
        "CREATE TABLE \"t\" (\"a\" INTEGER CHECK (_pier_fit(\"a\", 'INT64', "
        "1)) DEFAULT -1, [b] TEXT DEFAULT ('x' || 'y'),\n"
        "  c TEXT, \"not null\" TEXT NOT NULL, UNIQUE (\"a\")) STRICT");
    pier__buf_reset(&b);
    assert_int_equal(pier__column_edit(&b, sql, "c", 1, NULL, false),
                     PIER_OK);
    assert_non_null(strstr(b.p, "\n  c TEXT NOT NULL, \"not null\" TEXT "
                                "NOT NULL, UNIQUE"));
    pier__buf_reset(&b);
    assert_int_equal(pier__column_edit(&b, sql, "b", -1, "'z'", false),
                     PIER_OK);
    assert_non_null(strstr(b.p, "[b] TEXT DEFAULT 'z',\n"));
    pier__buf_reset(&b);
    assert_int_equal(pier__column_edit(&b, sql, "a", -1, NULL, true),
                     PIER_OK);
    assert_non_null(strstr(b.p, "1)) NOT NULL, [b]"));
    pier__buf_reset(&b);
    assert_int_equal(pier__column_edit(&b, sql, "not null", 0, NULL, false),
                     PIER_OK);
    assert_non_null(strstr(b.p, "\"not null\" TEXT, UNIQUE"));
    pier__buf_reset(&b);
    assert_int_equal(pier__column_edit(&b, sql, "d", 1, NULL, false),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier__column_edit(&b, sql, "UNIQUE", 1, NULL, false),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(b.len, 0);
    pier__buf_free(&b);
}

static int64_t wal_frames(const char *lake)
{
    char path[4096];
    snprintf(path, sizeof path, "%s-wal", lake);
    struct stat st;
    if (stat(path, &st) != 0 || st.st_size < 32)
        return 0;
    return (st.st_size - 32) / (4096 + 24);
}

static int64_t sql_int(const char *lake, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(lake, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    int64_t v = -1;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    assert_int_equal(rc, SQLITE_DONE);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

static void exec_ok(pier_engine *e, const char *sql)
{
    pier_error err;
    if (pier_exec(NULL, e, sql, NULL, &err) != PIER_OK)
        fail_msg("%s: %s: %s", sql, err.tag, err.message);
}

typedef struct found {
    const char *name;
    char sql[4096];
} found;

static int find_sql(const pier__schema_object *o, void *payload)
{
    found *f = payload;
    if (strcmp(o->type, "table") == 0 && strcmp(o->name, f->name) == 0 &&
        o->sql != NULL)
        snprintf(f->sql, sizeof f->sql, "%s", o->sql);
    return 0;
}

static void test_widen_enum_writes_no_row(void **state)
{
    engine_fixture *f = fixture_open();
    (void)state;
    exec_ok(f->e, "CREATE TABLE t (id INT64 PRIMARY KEY, s ENUM('a', 'b') "
                  "NOT NULL, pad TEXT)");
    exec_ok(f->e, "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 "
                  "FROM r WHERE i < 100000) INSERT INTO t SELECT i, "
                  "CASE i % 2 WHEN 0 THEN 'a' ELSE 'b' END, "
                  "'some text to fill the pages' FROM r");
    pier_error err;
    assert_int_equal(pier_maintain(f->e, 0, &err), PIER_OK);  /* checkpoints */
    int64_t pages = sql_int(f->lake, "SELECT count(*) FROM dbstat "
                                     "WHERE name = 't'");
    assert_true(pages > 300);
    int64_t before = wal_frames(f->lake);

    pier_engine *e = f->e;
    const pier__table *t = pier__catalog_find_table(&e->catalog, "t");
    assert_non_null(t);
    int64_t s_id = t->columns[1].id;
    assert_int_equal(pier__engine_begin(e, true, &err), PIER_OK);
    found fd = { "t", "" };
    assert_int_equal(e->lake->ops->schema_objects(e->lake, find_sql, &fd,
                                                  &err), PIER_OK);
    pier__buf sql;
    pier__buf_init(&sql);
    assert_int_equal(pier__fit_retype(&sql, fd.sql, s_id,
                                      "ENUM('a','b','c')"), PIER_OK);
    pier_status rc = e->lake->ops->schema_sql_set(e->lake, "t", sql.p, &err);
    if (rc == PIER_OK)
        rc = e->lake->ops->schema_remember(e->lake, &err);
    assert_int_equal(pier__engine_end(e, rc, &err), PIER_OK);
    pier__buf_free(&sql);

    /* the edit wrote a handful of pages: the schema, the header */
    int64_t written = wal_frames(f->lake) - before;
    print_message("enum widened on %lld pages of rows: %lld pages "
                  "written\n", (long long)pages, (long long)written);
    assert_true(written <= 4);
    /* the new label is accepted, an unknown one still refused */
    exec_ok(e, "INSERT INTO t VALUES (100001, 'c', NULL)");
    assert_int_equal(pier_exec(NULL, e, "INSERT INTO t VALUES (100002, "
                               "'d', NULL)", NULL, &err),
                     PIER_E_COLUMN_TYPE_CONFLICT);
    assert_int_equal(sql_int(f->lake, "SELECT count(*) FROM t WHERE s = "
                                      "'a'"), 50000);
    assert_int_equal(sql_int(f->lake, "SELECT count(*) FROM t"), 100001);
    assert_int_equal(pier_schema_check(e, &err), PIER_OK);
    /* another engine sees the new SQL too */
    pier_engine *other = fixture_engine(f);
    exec_ok(other, "INSERT INTO t VALUES (100003, 'c', NULL)");
    pier_close(&other);
    assert_int_equal(fixture_close(f), 0);
}

/* A whole migration of metadata and proved steps on 100,000 rows writes
 * a few pages of schema, catalog and change log, and no row. */
static void test_migration_writes_no_row(void **state)
{
    engine_fixture *f = fixture_open();
    (void)state;
    pier_error err;
    static const char v1[] =
        "CREATE TABLE t (id INT64 PRIMARY KEY, s ENUM('a', 'b') NOT NULL, "
        "note TEXT NOT NULL, pad TEXT, k INT64)";
    assert_int_equal(pier_migrate(NULL, f->e, v1, strlen(v1), NULL, NULL,
                                  &err), PIER_OK);
    exec_ok(f->e, "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 "
                  "FROM r WHERE i < 100000) INSERT INTO t SELECT i, "
                  "CASE i % 2 WHEN 0 THEN 'a' ELSE 'b' END, 'n', "
                  "'some text to fill the pages', i FROM r");
    assert_int_equal(pier_maintain(f->e, 0, &err), PIER_OK);  /* checkpoints */
    int64_t pages = sql_int(f->lake, "SELECT count(*) FROM dbstat "
                                     "WHERE name = 't'");
    assert_true(pages > 300);
    int64_t before = wal_frames(f->lake);
    static const char v2[] =
        "CREATE TABLE u RENAMED FROM t (id INT64 PRIMARY KEY AUTOINCREMENT, "
        "s ENUM('a', 'b', 'c') NOT NULL DEFAULT 'c', "
        "memo TEXT RENAMED FROM note, pad TEXT READONLY, k INT64 NOT NULL, "
        "state TEXT NOT NULL BACKFILL 'old', at INSTANT DEFAULT now())";
    pier_migration *m = NULL;
    if (pier_migrate(NULL, f->e, v2, strlen(v2), NULL, &m, &err) != PIER_OK)
        fail_msg("%s: %s", err.tag, err.message);
    char *text = pier_migration_to_text(m);
    print_message("%s", text);
    pier_free(text);
    assert_int_equal(pier_migration_steps(m), 10);
    pier_migration_free(m);
    int64_t written = wal_frames(f->lake) - before;
    print_message("10 steps on %lld pages of rows: %lld pages written\n",
                  (long long)pages, (long long)written);
    assert_true(written <= 24);
    assert_int_equal(sql_int(f->lake, "SELECT count(*) FROM u WHERE state = "
                                      "'old' AND memo = 'n' AND at IS NULL"),
                     100000);
    exec_ok(f->e, "INSERT INTO u(memo, k, state) VALUES ('new', 1, 'x')");
    assert_int_equal(sql_int(f->lake, "SELECT max(id) FROM u"), 100001);
    assert_int_equal(fixture_close(f), 0);
}

/* A typed column added to rows: its value check is in the table's SQL
 * afterwards (new rows are checked), and a default the type refuses is
 * refused, though SQLite did not scan the rows to find out. */
static void test_add_checked_column(void **state)
{
    engine_fixture *f = fixture_open();
    (void)state;
    pier_error err;
    exec_ok(f->e, "CREATE TABLE t (id INT64 PRIMARY KEY, CONSTRAINT pos "
                  "CHECK (id > 0))");
    /* empty: nothing read the default, the check still comes */
    exec_ok(f->e, "ALTER TABLE t ADD COLUMN e ENUM('a', 'b')");
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO t VALUES (1, 'z')",
                               NULL, &err), PIER_E_COLUMN_TYPE_CONFLICT);
    exec_ok(f->e, "INSERT INTO t VALUES (1, 'a'), (2, NULL)");
    assert_int_equal(pier_exec(NULL, f->e, "ALTER TABLE t ADD COLUMN d DATE "
                               "NOT NULL DEFAULT '2026-02-30'", NULL, &err),
                     PIER_E_COLUMN_TYPE_CONFLICT);
    assert_non_null(strstr(err.message, "column 'd' of table 't' is DATE: "
                                        "the rows stored before it read its "
                                        "default, which is not one"));
    assert_int_equal(sql_int(f->lake, "SELECT count(*) FROM pragma_table_info"
                                      "('t')"), 2);
    exec_ok(f->e, "ALTER TABLE t ADD COLUMN d DATE NOT NULL DEFAULT "
                  "'2026-02-28'");
    found fd = { "t", "" };
    assert_int_equal(f->e->lake->ops->schema_objects(f->e->lake, find_sql,
                                                     &fd, &err), PIER_OK);
    assert_non_null(strstr(fd.sql, "\"d\" TEXT CHECK (_pier_fit(\"d\", "
                                   "'DATE', 3)) NOT NULL DEFAULT "
                                   "'2026-02-28', CONSTRAINT pos"));
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO t VALUES (3, 'a', "
                               "'2026-02-30')", NULL, &err),
                     PIER_E_COLUMN_TYPE_CONFLICT);
    assert_int_equal(pier_schema_check(f->e, &err), PIER_OK);
    assert_int_equal(sql_int(f->lake, "SELECT count(*) FROM t WHERE d = "
                                      "'2026-02-28'"), 2);
    assert_int_equal(fixture_close(f), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_retype),
        cmocka_unit_test(test_column_edit),
        cmocka_unit_test(test_migration_writes_no_row),
        cmocka_unit_test(test_add_checked_column),
        cmocka_unit_test(test_widen_enum_writes_no_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
