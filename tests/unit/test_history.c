/*
 * test_history.c: change history through the C API (docs/history.md):
 * pier_changeset records a script's changes, pier_changeset_apply
 * applies them (and their inverse) under each conflict policy or not at
 * all, commit triggers run before the commit and abort it when they fail,
 * and a CHANGESET column refuses bytes that are not a changeset. Every
 * refusal checks that nothing changed. The golden files history_*.t and
 * sql_type_changeset.t cover the same ground through the CLI.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "pier.h"
#include "store/lake.h"
#include "support/engine_fixture.h"

typedef engine_fixture fixture;

static int setup(void **state)
{
    fixture *f = fixture_open();
    *state = f;
    pier_error err;
    assert_int_equal(pier_exec(NULL, f->e,
        "CREATE TABLE tasks (id INT64 PRIMARY KEY, title TEXT NOT NULL, "
        "budget DECIMAL(12,2)); "
        "CREATE TABLE log (id INT64 PRIMARY KEY, cs CHANGESET NOT NULL); "
        "CREATE TABLE loose (a INT64)", NULL, &err), PIER_OK);
    return 0;
}

static int teardown(void **state)
{
    return fixture_close(*state);
}

static void exec_ok(pier_engine *e, const char *sql)
{
    pier_error err;
    if (pier_exec(NULL, e, sql, NULL, &err) != PIER_OK)
        fail_msg("%s: %s: %s", sql, err.tag, err.message);
}

/* The first value of the first row of `sql` as text (malloc), or NULL. */
static char *scalar(pier_engine *e, const char *sql)
{
    pier_cursor *c = NULL;
    pier_error err;
    if (pier_exec(&c, e, sql, NULL, &err) != PIER_OK)
        fail_msg("%s: %s: %s", sql, err.tag, err.message);
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_non_null(row);
    const pier_value *v = pier_row_value(row, 0);
    char *s = v->text != NULL ? strdup(v->text) : NULL;
    pier_cursor_close(c);
    return s;
}

/* The whole table as one line of text, to compare states. */
static char *state_of(pier_engine *e)
{
    return scalar(e, "SELECT coalesce(group_concat(id || ':' || title || "
                     "':' || coalesce(budget, '-'), ' '), '') FROM "
                     "(SELECT * FROM tasks ORDER BY id)");
}

static void assert_state(pier_engine *e, const char *want)
{
    char *got = state_of(e);
    assert_string_equal(got, want);
    free(got);
}

static void record(fixture *f, const char *sql, void **cs, size_t *len)
{
    pier_error err;
    if (pier_changeset(cs, len, f->e, sql, NULL, &err) != PIER_OK)
        fail_msg("%s: %s: %s", sql, err.tag, err.message);
}

static pier_status apply(fixture *f, const void *cs, size_t len,
                         bool invert, pier_on_conflict policy,
                         pier_apply_result *r, pier_error *err)
{
    pier_apply_options o = PIER_APPLY_OPTIONS_INIT;
    o.invert = invert;
    o.on_conflict = policy;
    return pier_changeset_apply(r, f->e, cs, len, &o, err);
}

/* A script's changes, applied inverted, undo it; applied again, redo
 * it. Changes a ROLLBACK undid are not in the changeset. */
static void test_record_invert_redo(void **state)
{
    fixture *f = *state;
    exec_ok(f->e, "INSERT INTO tasks VALUES (1, 'Ship', '12.5')");
    void *cs = NULL;
    size_t len = 0;
    record(f, "UPDATE tasks SET title = 'Shipped' WHERE id = 1; "
              "INSERT INTO tasks VALUES (2, 'Test', NULL); "
              "BEGIN; DELETE FROM tasks WHERE id = 1; ROLLBACK", &cs, &len);
    assert_non_null(cs);
    assert_true(len > 0);
    assert_state(f->e, "1:Shipped:12.5 2:Test:-");
    pier_apply_result r;
    pier_error err;
    assert_int_equal(apply(f, cs, len, true, PIER_ON_CONFLICT_ABORT, &r,
                           &err), PIER_OK);
    assert_int_equal(r.applied, 2);
    assert_int_equal(r.skipped, 0);
    assert_state(f->e, "1:Ship:12.5");
    assert_int_equal(apply(f, cs, len, false, PIER_ON_CONFLICT_ABORT, &r,
                           &err), PIER_OK);
    assert_state(f->e, "1:Shipped:12.5 2:Test:-");
    /* the stored bytes come back as they were written */
    char *b = scalar(f->e, "SELECT budget || '|' || typeof(budget) FROM "
                           "tasks WHERE id = 1");
    assert_string_equal(b, "12.5|text");
    free(b);
    pier_free(cs);

    /* nothing changed: no bytes */
    record(f, "SELECT 1", &cs, &len);
    assert_null(cs);
    assert_int_equal(len, 0);
    /* a table without a key is not recorded: a script that changes one
     * is refused rather than given a changeset without its changes, and
     * nothing of it is kept */
    assert_int_equal(pier_changeset(&cs, &len, f->e,
                                    "INSERT INTO tasks VALUES (3, 'T', "
                                    "NULL); INSERT INTO loose VALUES (1)",
                                    NULL, &err), PIER_E_ENTITY_NOT_ALLOWED);
    assert_string_equal(err.board, "loose");
    assert_null(cs);
    assert_int_equal(len, 0);
    assert_state(f->e, "1:Shipped:12.5 2:Test:-");
    char *n = scalar(f->e, "SELECT count(*) FROM loose");
    assert_string_equal(n, "0");
    free(n);
    assert_int_equal(pier_changeset(NULL, &len, f->e, "SELECT 1", NULL,
                                    &err), PIER_E_INVALID_ARGUMENT);
}

/* Each policy against the three row conflicts: a key taken, a row
 * missing, a row holding other values. */
static void test_conflict_policies(void **state)
{
    fixture *f = *state;
    void *ins = NULL, *upd = NULL;
    size_t ins_len = 0, upd_len = 0;
    record(f, "INSERT INTO tasks VALUES (1, 'A', NULL), (2, 'B', NULL)",
           &ins, &ins_len);
    record(f, "UPDATE tasks SET title = 'B2' WHERE id = 2", &upd, &upd_len);
    pier_error err;
    pier_apply_result r;

    /* the rows are there: inserting them again conflicts */
    assert_int_equal(apply(f, ins, ins_len, false, PIER_ON_CONFLICT_ABORT,
                           &r, &err), PIER_E_CHANGESET_CONFLICT);
    assert_string_equal(err.tag, "ChangesetConflict");
    assert_non_null(strstr(err.message, "tasks"));
    assert_string_equal(err.board, "tasks");
    assert_state(f->e, "1:A:- 2:B2:-");

    assert_int_equal(apply(f, ins, ins_len, false, PIER_ON_CONFLICT_SKIP,
                           &r, &err), PIER_OK);
    assert_int_equal(r.applied, 0);
    assert_int_equal(r.skipped, 2);
    assert_state(f->e, "1:A:- 2:B2:-");

    assert_int_equal(apply(f, ins, ins_len, false, PIER_ON_CONFLICT_REPLACE,
                           &r, &err), PIER_OK);
    assert_int_equal(r.applied, 2);
    assert_int_equal(r.replaced, 2);
    assert_state(f->e, "1:A:- 2:B:-");

    /* the update expects 'B' and finds it: fine; applied again it finds
     * 'B2', other values than it expects */
    assert_int_equal(apply(f, upd, upd_len, false, PIER_ON_CONFLICT_ABORT,
                           &r, &err), PIER_OK);
    assert_int_equal(apply(f, upd, upd_len, false, PIER_ON_CONFLICT_ABORT,
                           &r, &err), PIER_E_CHANGESET_CONFLICT);
    assert_state(f->e, "1:A:- 2:B2:-");
    exec_ok(f->e, "UPDATE tasks SET title = 'X' WHERE id = 2");
    assert_int_equal(apply(f, upd, upd_len, false, PIER_ON_CONFLICT_SKIP,
                           &r, &err), PIER_OK);
    assert_int_equal(r.skipped, 1);
    assert_state(f->e, "1:A:- 2:X:-");
    assert_int_equal(apply(f, upd, upd_len, false, PIER_ON_CONFLICT_REPLACE,
                           &r, &err), PIER_OK);
    assert_state(f->e, "1:A:- 2:B2:-");

    /* a missing row: aborts, or is skipped under both other policies */
    exec_ok(f->e, "DELETE FROM tasks WHERE id = 2");
    assert_int_equal(apply(f, upd, upd_len, false, PIER_ON_CONFLICT_ABORT,
                           &r, &err), PIER_E_CHANGESET_CONFLICT);
    assert_int_equal(apply(f, upd, upd_len, false, PIER_ON_CONFLICT_REPLACE,
                           &r, &err), PIER_OK);
    assert_int_equal(r.skipped, 1);
    assert_int_equal(r.applied, 0);
    assert_state(f->e, "1:A:-");

    /* abort is all or nothing: the first change applied, the second
     * conflicted, the first is gone again */
    exec_ok(f->e, "DELETE FROM tasks WHERE id = 1; INSERT INTO tasks "
                  "VALUES (2, 'Z', NULL)");
    assert_int_equal(apply(f, ins, ins_len, false, PIER_ON_CONFLICT_ABORT,
                           &r, &err), PIER_E_CHANGESET_CONFLICT);
    assert_state(f->e, "2:Z:-");
    pier_free(ins);
    pier_free(upd);
}

/* Bytes that are not a changeset, tables the lake lacks or with other
 * columns, the engine's tables, bad options: refused, nothing changed. */
static void test_apply_refusals(void **state)
{
    fixture *f = *state;
    exec_ok(f->e, "INSERT INTO tasks VALUES (1, 'A', NULL)");
    pier_error err;
    pier_apply_result r;
    assert_int_equal(apply(f, "nonsense", 8, false, PIER_ON_CONFLICT_ABORT,
                           &r, &err), PIER_E_INVALID_ARGUMENT);
    /* damaged: a table's name runs to the end (SQLite's reader would
     * loop without end), a change cut short, an unknown operation */
    static const unsigned char damaged[][10] = {
        { 'T', 3, 1, 0, 0, 'C', 'r', 'e', 'a' },
        { 'T', 1, 1, 't', 0, 18, 0, 1, 0, 0 },
        { 'T', 1, 1, 't', 0, 77, 0, 5 },
    };
    static const size_t damaged_len[] = { 9, 10, 8 };
    for (size_t i = 0; i < 3; i++) {
        assert_non_null(pier__changeset_why(damaged[i], damaged_len[i]));
        assert_int_equal(apply(f, damaged[i], damaged_len[i], false,
                               PIER_ON_CONFLICT_ABORT, &r, &err),
                         PIER_E_INVALID_ARGUMENT);
    }
    /* a patchset */
    static const unsigned char patch[] = {
        0x50, 0x02, 0x01, 0x00, 't', 'a', 's', 'k', 's', 0x00, 0x12, 0x00,
        0x01, 0, 0, 0, 0, 0, 0, 0, 9, 0x03, 0x01, 'x'
    };
    assert_int_equal(apply(f, patch, sizeof patch, false,
                           PIER_ON_CONFLICT_ABORT, &r, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "patchset"));
    /* the same change as a changeset names tasks with 2 columns: the
     * lake's has 3 */
    unsigned char cs[sizeof patch];
    memcpy(cs, patch, sizeof patch);
    cs[0] = 0x54;
    assert_int_equal(apply(f, cs, sizeof cs, false, PIER_ON_CONFLICT_SKIP,
                           &r, &err), PIER_E_TABLE_NOT_FOUND);
    /* a table it does not have */
    memcpy(cs + 4, "nopes", 5);
    assert_int_equal(apply(f, cs, sizeof cs, false, PIER_ON_CONFLICT_SKIP,
                           &r, &err), PIER_E_TABLE_NOT_FOUND);
    assert_string_equal(err.board, "nopes");
    /* the engine's own */
    unsigned char own[] = {
        0x54, 0x02, 0x01, 0x00, '_', 'p', 'i', 'e', 'r', '_', 'm', 'e',
        't', 'a', 0x00, 0x12, 0x00, 0x03, 0x01, 'k', 0x03, 0x01, 'v'
    };
    assert_int_equal(apply(f, own, sizeof own, false,
                           PIER_ON_CONFLICT_REPLACE, &r, &err),
                     PIER_E_ENTITY_NOT_ALLOWED);
    pier_apply_options bad = PIER_APPLY_OPTIONS_INIT;
    bad.on_conflict = (pier_on_conflict)7;
    assert_int_equal(pier_changeset_apply(&r, f->e, cs, sizeof cs, &bad,
                                          &err), PIER_E_INVALID_ARGUMENT);
    bad = (pier_apply_options)PIER_APPLY_OPTIONS_INIT;
    bad.version = 99;
    assert_int_equal(pier_changeset_apply(&r, f->e, cs, sizeof cs, &bad,
                                          &err), PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_changeset_apply(&r, NULL, cs, sizeof cs, NULL,
                                          &err), PIER_E_INVALID_ARGUMENT);
    /* the empty changeset applies nothing */
    assert_int_equal(pier_changeset_apply(&r, f->e, NULL, 0, NULL, &err),
                     PIER_OK);
    assert_int_equal(r.applied, 0);
    assert_state(f->e, "1:A:-");
}

/* A change the lake's value checks refuse fails the apply with the
 * check's status; nothing of it stays. */
static void test_apply_checks_values(void **state)
{
    fixture *f = *state;
    void *cs = NULL;
    size_t len = 0;
    record(f, "INSERT INTO tasks VALUES (1, 'A', '1.5'), (2, 'B', NULL)", &cs,
           &len);
    exec_ok(f->e, "DELETE FROM tasks");
    /* the same columns, a narrower decimal: '1.5' no longer fits */
    exec_ok(f->e, "DROP TABLE tasks; CREATE TABLE tasks (id INT64 PRIMARY "
                  "KEY, title TEXT NOT NULL, budget DECIMAL(2,0))");
    pier_error err;
    pier_apply_result r;
    assert_int_equal(apply(f, cs, len, false, PIER_ON_CONFLICT_ABORT, &r,
                           &err), PIER_E_COLUMN_TYPE_CONFLICT);
    assert_string_equal(err.board, "tasks");
    assert_string_equal(err.column, "budget");
    assert_string_equal(err.column_type, "DECIMAL(2,0)");
    assert_state(f->e, "");
    /* skip leaves the refused row out, as it does a CHECK failure */
    assert_int_equal(apply(f, cs, len, false, PIER_ON_CONFLICT_SKIP, &r,
                           &err), PIER_OK);
    assert_int_equal(r.applied, 1);
    assert_int_equal(r.skipped, 1);
    assert_state(f->e, "2:B:-");
    pier_free(cs);
}

/* A CHANGESET column takes a changeset, and refuses other bytes. */
static void test_changeset_column(void **state)
{
    fixture *f = *state;
    void *cs = NULL;
    size_t len = 0;
    record(f, "INSERT INTO tasks VALUES (1, 'A', NULL)", &cs, &len);
    pier_params *p = pier_params_new();
    pier_error err;
    assert_int_equal(pier_params_set_blob(p, "cs", cs, len, &err), PIER_OK);
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO log VALUES (1, :cs)",
                               p, &err), PIER_OK);
    unsigned char bad[16];
    memcpy(bad, cs, sizeof bad);       /* cut short */
    assert_int_equal(pier_params_set_blob(p, "cs", bad, sizeof bad, &err),
                     PIER_OK);
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO log VALUES (2, :cs)",
                               p, &err), PIER_E_COLUMN_TYPE_CONFLICT);
    assert_string_equal(err.column, "cs");
    assert_string_equal(err.column_type, "CHANGESET");
    pier_params_free(p);
    char *n = scalar(f->e, "SELECT count(*) FROM log");
    assert_string_equal(n, "1");
    free(n);
    /* it reads back as hex, and shows as JSON */
    pier_cursor *c = NULL;
    assert_int_equal(pier_exec(&c, f->e, "SELECT cs FROM log", NULL, &err),
                     PIER_OK);
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    const pier_value *v = pier_row_value(row, 0);
    assert_int_equal(v->kind, PIER_KIND_BLOB);
    assert_int_equal(v->as.blob.len, len);
    assert_memory_equal(v->as.blob.bytes, cs, len);
    assert_int_equal(strlen(v->text), 2 * len);
    pier_cursor_close(c);
    char *json = NULL;
    assert_int_equal(pier_changeset_to_json(&json, f->e, cs, len, &err),
                     PIER_OK);
    assert_string_equal(json, "{\"table\":\"tasks\",\"op\":\"insert\","
                              "\"new\":{\"id\":1,\"title\":\"A\","
                              "\"budget\":null}}\n");
    pier_free(json);
    assert_int_equal(pier_changeset_to_json(&json, NULL, cs, len, &err),
                     PIER_OK);
    assert_string_equal(json, "{\"table\":\"tasks\",\"op\":\"insert\","
                              "\"new\":{\"c1\":1,\"c2\":\"A\","
                              "\"c3\":null}}\n");
    pier_free(json);
    assert_int_equal(pier_changeset_to_json(&json, NULL, bad, sizeof bad,
                                            &err), PIER_E_INVALID_ARGUMENT);
    assert_null(json);
    pier_free(cs);
}

/* Commit triggers see the transaction's changes to their tables, run
 * once, are not recorded by each other, and abort the commit when they
 * fail. */
static void test_commit_triggers(void **state)
{
    fixture *f = *state;
    exec_ok(f->e, "CREATE COMMIT TRIGGER keep ON Tasks AS "
                  "INSERT INTO log(cs) VALUES (pier_changeset()); "
                  "CREATE COMMIT TRIGGER audit ON ALL AS "
                  "INSERT INTO log(cs) VALUES (pier_changeset())");
    /* the script itself made them: they run from the next call on */
    char *n = scalar(f->e, "SELECT count(*) FROM log");
    assert_string_equal(n, "0");
    free(n);
    void *whole = NULL;
    size_t whole_len = 0;
    record(f, "INSERT INTO tasks VALUES (1, 'A', NULL)", &whole, &whole_len);
    n = scalar(f->e, "SELECT count(*) || ' ' || sum(length(cs)) FROM log");
    char want[64];
    snprintf(want, sizeof want, "2 %zu", 2 * whole_len);
    assert_string_equal(n, want);      /* both saw just the insert */
    free(n);
    /* the log's own rows are not recorded: 'audit' saw only tasks */
    char *json = NULL;
    pier_error err;
    pier_cursor *c = NULL;
    assert_int_equal(pier_exec(&c, f->e, "SELECT cs FROM log WHERE id = 2",
                               NULL, &err), PIER_OK);
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    const pier_value *v = pier_row_value(row, 0);
    assert_memory_equal(v->as.blob.bytes, whole, whole_len);
    pier_cursor_close(c);
    pier_free(whole);
    (void)json;

    /* a write the 'keep' trigger does not cover: only 'audit' runs */
    exec_ok(f->e, "INSERT INTO log(cs) VALUES (x'')");
    n = scalar(f->e, "SELECT count(*) FROM log");
    assert_string_equal(n, "4");
    free(n);

    /* a trigger that fails aborts the whole call */
    exec_ok(f->e, "CREATE COMMIT TRIGGER broken ON tasks AS "
                  "INSERT INTO log(id, cs) VALUES (1, x'')");
    assert_int_equal(pier_exec(NULL, f->e, "UPDATE tasks SET title = 'B'",
                               NULL, &err), PIER_E_CONSTRAINT_PRIMARY_KEY);
    assert_non_null(strstr(err.message, "commit trigger 'broken' failed"));
    assert_state(f->e, "1:A:-");
    n = scalar(f->e, "SELECT count(*) FROM log");
    assert_string_equal(n, "4");
    free(n);
    /* ... and so does an apply it runs for */
    void *cs = NULL;
    size_t len = 0;
    exec_ok(f->e, "DROP COMMIT TRIGGER broken");
    record(f, "UPDATE tasks SET title = 'B'", &cs, &len);
    exec_ok(f->e, "CREATE COMMIT TRIGGER broken ON tasks AS "
                  "INSERT INTO log(id, cs) VALUES (1, x'')");
    pier_apply_result r;
    assert_int_equal(apply(f, cs, len, true, PIER_ON_CONFLICT_ABORT, &r,
                           &err), PIER_E_CONSTRAINT_PRIMARY_KEY);
    assert_state(f->e, "1:B:-");
    exec_ok(f->e, "DROP COMMIT TRIGGER broken");
    assert_int_equal(apply(f, cs, len, true, PIER_ON_CONFLICT_ABORT, &r,
                           &err), PIER_OK);
    assert_state(f->e, "1:A:-");
    pier_free(cs);

    /* another engine sees the triggers (the catalog version moved) */
    pier_engine *e2 = fixture_engine(f);
    assert_int_equal(pier_exec(NULL, e2, "DELETE FROM tasks", NULL, &err),
                     PIER_OK);
    n = scalar(e2, "SELECT count(*) FROM log");
    assert_int_equal(atoi(n) > 4, 1);
    free(n);
    pier_close(&e2);
}

/* Without commit triggers nothing is recorded: a write that changes a
 * table's columns after writing it succeeds; with one covering it, the
 * change cannot be recorded and the call fails whole. */
static void test_no_trigger_no_recording(void **state)
{
    fixture *f = *state;
    exec_ok(f->e, "INSERT INTO tasks VALUES (1, 'A', NULL); "
                  "ALTER TABLE tasks ADD COLUMN note TEXT; "
                  "INSERT INTO tasks(id, title) VALUES (2, 'B')");
    exec_ok(f->e, "CREATE COMMIT TRIGGER keep ON tasks AS "
                  "INSERT INTO log(cs) VALUES (pier_changeset())");
    pier_error err;
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO tasks(id, title) "
                               "VALUES (3, 'C'); ALTER TABLE tasks ADD "
                               "COLUMN more TEXT; INSERT INTO tasks(id, "
                               "title) VALUES (4, 'D')", NULL, &err),
                     PIER_E_QUERY_FAILED);
    assert_non_null(strstr(err.message, "commit trigger 'keep'"));
    char *n = scalar(f->e, "SELECT count(*) FROM tasks");
    assert_string_equal(n, "2");
    free(n);
    /* boards write as before */
    fixture_insert(f->e, "things", "{\"id\":\"x\"}");
    n = scalar(f->e, "SELECT count(*) FROM log");
    assert_string_equal(n, "0");
    free(n);
}

/* A trigger's statement is parsed once and kept: a trigger made again
 * under its name runs its new statement, one whose table changed runs
 * against the new columns, and only the changeset the engine made itself
 * is taken unread by a CHANGESET column (other bytes are checked). */
static void test_trigger_statements(void **state)
{
    fixture *f = *state;
    exec_ok(f->e, "CREATE COMMIT TRIGGER keep ON tasks AS "
                  "INSERT INTO log(cs) VALUES (pier_changeset())");
    exec_ok(f->e, "INSERT INTO tasks VALUES (1, 'A', NULL)");
    exec_ok(f->e, "ALTER TABLE log ADD COLUMN note TEXT");
    exec_ok(f->e, "INSERT INTO tasks VALUES (2, 'B', NULL)");
    exec_ok(f->e, "DROP COMMIT TRIGGER keep; "
                  "CREATE COMMIT TRIGGER keep ON tasks AS "
                  "INSERT INTO log(cs, note) VALUES (pier_changeset(), "
                  "'again')");
    exec_ok(f->e, "INSERT INTO tasks VALUES (3, 'C', NULL)");
    char *n = scalar(f->e, "SELECT group_concat(coalesce(note, '-'), ' ') "
                           "FROM (SELECT note FROM log ORDER BY id)");
    assert_string_equal(n, "- - again");
    free(n);
    /* bytes other than the engine's are read: one short is refused */
    exec_ok(f->e, "CREATE COMMIT TRIGGER cut ON tasks AS "
                  "INSERT INTO log(cs) VALUES (substr(pier_changeset(), 1, "
                  "length(pier_changeset()) - 1))");
    pier_error err;
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO tasks VALUES "
                               "(4, 'D', NULL)", NULL, &err),
                     PIER_E_COLUMN_TYPE_CONFLICT);
    assert_non_null(strstr(err.message, "commit trigger 'cut' failed"));
    assert_state(f->e, "1:A:- 2:B:- 3:C:-");
    n = scalar(f->e, "SELECT count(*) FROM log");
    assert_string_equal(n, "3");
    free(n);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_record_invert_redo),
        T(test_conflict_policies),
        T(test_apply_refusals),
        T(test_apply_checks_values),
        T(test_changeset_column),
        T(test_commit_triggers),
        T(test_no_trigger_no_recording),
        T(test_trigger_statements),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
