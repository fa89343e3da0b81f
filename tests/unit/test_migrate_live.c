/*
 * test_migrate_live.c: a lake's catalog read into the migrations' model
 * (src/migrate/live.c): tables made with pier sql keep their ids and read
 * back with the constraints their SQL holds, indexes and boards too; what
 * a declaration cannot state is listed as opaque; and the declaration a
 * user would write for that lake plans to zero steps against it. Then
 * pier_plan, the public face of planning: its text, JSON, fingerprint and
 * refusals, and that planning writes nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "engine/engine.h"
#include "migrate/plan.h"
#include "support/engine_fixture.h"

static int setup(void **state)
{
    *state = fixture_open();
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

/* The live model of e's lake. */
static void live(pier_engine *e, pier__schema *s)
{
    pier_error err;
    assert_int_equal(pier__engine_begin(e, false, &err), PIER_OK);
    pier_status rc = pier__schema_from_lake(s, e, &err);
    pier__engine_end(e, PIER_OK, NULL);
    if (rc != PIER_OK)
        fail_msg("live: %s: %s", err.tag, err.message);
}

static const char shop[] =
    "CREATE TABLE parents (id INT64 PRIMARY KEY, label TEXT NOT NULL);\n"
    "CREATE TABLE children (id INT64 PRIMARY KEY AUTOINCREMENT,\n"
    "  parent_id INT64 NOT NULL REFERENCES parents(id) ON DELETE CASCADE,\n"
    "  qty DECIMAL(10,2) NOT NULL DEFAULT 1,\n"
    "  note VARCHAR(20) READONLY,\n"
    "  kind ENUM('a', 'b') UNIQUE,\n"
    "  CONSTRAINT positive_qty CHECK (qty > 0));\n"
    "CREATE UNIQUE INDEX children_note ON children (note) WHERE note IS "
    "NOT NULL;\n";

static void test_tables_read_back(void **state)
{
    engine_fixture *f = *state;
    exec_ok(f->e, shop);
    exec_ok(f->e, "CREATE BOARD events (kind text, n decimal(12,2)) STRICT");
    fixture_insert(f->e, "loose", "{\"id\":\"1\",\"n\":1.5}");
    pier__schema s;
    live(f->e, &s);
    assert_int_equal(s.ntables, 2);
    assert_int_equal(s.nopaque, 0);
    const pier__mtable *c = pier__schema_table(&s, "children");
    assert_non_null(c);
    assert_true(c->id > 0);
    assert_false(c->managed);
    assert_int_equal(c->ncolumns, 5);
    assert_true(c->columns[0].id > 0);
    assert_true(c->columns[0].autoincrement);
    assert_true(c->columns[1].not_null);
    assert_string_equal(c->columns[2].spelling, "DECIMAL(10,2)");
    assert_string_equal(c->columns[2].dflt.sql, "1");
    assert_true(c->columns[3].readonly);
    assert_false(c->columns[3].not_null);
    assert_int_equal(c->nfks, 1);
    assert_string_equal(c->fks[0].table, "parents");
    assert_int_equal(c->fks[0].on_delete, PIER__FK_CASCADE);
    assert_int_equal(c->nchecks, 1);
    assert_string_equal(c->checks[0].name, "positive_qty");
    assert_int_equal(c->nkeys, 2);
    const pier__mindex *x = pier__schema_index(&s, "children_note");
    assert_non_null(x);
    assert_true(x->unique);
    assert_false(x->managed);
    assert_string_equal(x->body, "(note) WHERE note IS NOT NULL");
    assert_int_equal(s.nboards, 2);
    const pier__mboard *b = pier__schema_board(&s, "events");
    assert_true(b->strict);
    assert_int_equal(b->ncolumns, 2);
    const pier__mboard *loose = pier__schema_board(&s, "loose");
    assert_false(loose->strict);
    assert_int_equal(loose->ncolumns, 1);
    assert_string_equal(loose->columns[0].name, "n");
    assert_int_equal(loose->columns[0].type.kind, PIER_KIND_DOUBLE);

    /* The declaration a user would write plans to nothing. */
    pier__schema want;
    pier_error err;
    static const char declared[] =
        "CREATE BOARD loose (n double);\n"
        "CREATE BOARD events (kind text, n decimal(12,2)) STRICT;\n";
    char text[2048];
    strcpy(text, shop);
    strcat(text, declared);
    assert_int_equal(pier__schema_from_declaration(&want, text, strlen(text),
                                                   &err), PIER_OK);
    pier__plan p;
    pier__plan_options owns = { true, true };
    assert_int_equal(pier__plan_make(&p, &s, &want, &owns, &err), PIER_OK);
    assert_int_equal(p.nsteps, 0);
    pier__plan_free(&p);
    pier__schema_free(&want);

    /* A change to it plans its steps, by the live ids. */
    static const char changed[] =
        "CREATE TABLE children (id INT64 PRIMARY KEY AUTOINCREMENT,\n"
        "  parent_id INT64 NOT NULL REFERENCES parents(id) ON DELETE "
        "CASCADE,\n"
        "  qty DECIMAL(12,2) NOT NULL DEFAULT 1,\n"
        "  memo VARCHAR(40) RENAMED FROM note READONLY,\n"
        "  kind ENUM('a', 'b', 'c') UNIQUE,\n"
        "  CONSTRAINT positive_qty CHECK (qty > 0));\n";
    assert_int_equal(pier__schema_from_declaration(
                         &want, changed, strlen(changed), &err), PIER_OK);
    assert_int_equal(pier__plan_make(&p, &s, &want, NULL, &err), PIER_OK);
    assert_int_equal(p.nsteps, 4);
    assert_int_equal(p.steps[0].kind, PIER__STEP_RENAME_COLUMN);
    assert_string_equal(p.steps[0].from, "note");
    assert_int_equal(p.steps[0].column_id, c->columns[3].id);
    assert_int_equal(p.steps[0].table_id, c->id);
    assert_int_equal(p.steps[1].kind, PIER__STEP_WIDEN_COLUMN);
    assert_string_equal(p.steps[1].column, "qty");
    assert_string_equal(p.steps[1].from, "DECIMAL(10,2)");
    assert_int_equal(p.steps[1].column_id, c->columns[2].id);
    assert_int_equal(p.steps[2].kind, PIER__STEP_WIDEN_COLUMN);
    assert_int_equal(p.steps[3].kind, PIER__STEP_WIDEN_ENUM);
    pier__plan_free(&p);
    pier__schema_free(&want);
    pier__schema_free(&s);
}

static void test_what_cannot_be_stated(void **state)
{
    engine_fixture *f = *state;
    exec_ok(f->e, "CREATE TABLE odd (a TEXT COLLATE NOCASE, b INT64);\n"
                  "CREATE TABLE plain (a INT64);\n"
                  "CREATE VIEW v AS SELECT a FROM plain;");
    pier__schema s;
    live(f->e, &s);
    assert_int_equal(s.ntables, 1);
    assert_non_null(pier__schema_table(&s, "plain"));
    assert_int_equal(s.nopaque, 2);
    const pier__mopaque *odd = pier__schema_opaque(&s, "ODD");
    assert_non_null(odd);
    assert_false(odd->view);
    assert_non_null(strstr(odd->why, "COLLATE"));
    const pier__mopaque *v = pier__schema_opaque(&s, "v");
    assert_true(v->view);

    /* declaring the view replaces it; declaring the table is refused */
    pier__schema want;
    pier_error err;
    static const char text[] =
        "CREATE TABLE plain (a INT64);\n"
        "CREATE VIEW v (a INT64) AS SELECT a FROM plain;\n"
        "CREATE TABLE odd (a TEXT, b INT64);\n";
    assert_int_equal(pier__schema_from_declaration(&want, text, strlen(text),
                                                   &err), PIER_OK);
    pier__plan p;
    assert_int_equal(pier__plan_make(&p, &s, &want, NULL, &err),
                     PIER_E_MIGRATION_REFUSED);
    assert_non_null(strstr(err.message, "table 'odd' of the lake cannot be "
                                        "stated as a declaration"));
    pier__plan_free(&p);
    pier__schema_free(&want);
    size_t first_two = (size_t)(strstr(text, "CREATE TABLE odd") - text);
    assert_int_equal(pier__schema_from_declaration(&want, text, first_two,
                                                   &err), PIER_OK);
    assert_int_equal(pier__plan_make(&p, &s, &want, NULL, &err), PIER_OK);
    assert_int_equal(p.nsteps, 1);
    assert_int_equal(p.steps[0].kind, PIER__STEP_REPLACE_VIEW);
    pier__plan_free(&p);
    pier__schema_free(&want);
    pier__schema_free(&s);
}

static pier_status plan_of(pier_engine *e, const char *decl,
                           const pier_migrate_options *o,
                           pier_migration **m, pier_error *err)
{
    return pier_plan(m, e, decl, strlen(decl), o, err);
}

static void test_pier_plan(void **state)
{
    engine_fixture *f = *state;
    exec_ok(f->e, "CREATE TABLE t (a INT64 PRIMARY KEY, b TEXT);\n"
                  "INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, NULL);");
    int64_t head = 0;
    pier_error err;
    assert_int_equal(pier_head_from_catalog(&head, f->e, &err), PIER_OK);

    pier_migration *m = NULL;
    assert_int_equal(plan_of(f->e, "CREATE TABLE t (a INT64 PRIMARY KEY, "
                             "b TEXT, c INT32 NOT NULL BACKFILL 0 DEFAULT "
                             "5);\nCREATE TABLE u (x TEXT);", NULL, &m,
                             &err), PIER_OK);
    assert_int_equal(pier_migration_steps(m), 2);
    const char *fp = pier_migration_fingerprint(m);
    assert_int_equal(strlen(fp), 16);
    assert_true(strspn(fp, "0123456789abcdef") == 16);
    char *text = pier_migration_to_text(m);
    assert_string_equal(text,
        "metadata     create_table         u: 1 column\n"
        "metadata     add_column           t: c INT32 NOT NULL BACKFILL 0 "
        "DEFAULT 5\n");
    pier_free(text);
    char *json = pier_migration_to_json(m);
    json_error_t je;
    json_t *doc = json_loads(json, 0, &je);
    assert_non_null(doc);
    assert_string_equal(json_string_value(json_object_get(doc,
                                                          "fingerprint")),
                        fp);
    json_t *steps = json_object_get(doc, "steps");
    assert_int_equal(json_array_size(steps), 2);
    json_t *add = json_array_get(steps, 1);
    assert_string_equal(json_string_value(json_object_get(add, "step")),
                        "add_column");
    assert_string_equal(json_string_value(json_object_get(add, "class")),
                        "metadata");
    assert_string_equal(json_string_value(json_object_get(add, "table")),
                        "t");
    assert_string_equal(json_string_value(json_object_get(add, "column")),
                        "c");
    assert_true(json_integer_value(json_object_get(add, "table_id")) > 0);
    assert_int_equal(json_array_size(json_object_get(doc, "destructive")),
                     0);
    json_decref(doc);
    pier_free(json);

    /* the same plan, expected against this catalog */
    char expect[17];
    strcpy(expect, fp);
    pier_migration_free(m);
    pier_migrate_options o = { PIER_MIGRATE_OPTIONS_VERSION, false, false,
                               expect };
    assert_int_equal(plan_of(f->e, "CREATE TABLE t (a INT64 PRIMARY KEY, "
                             "b TEXT)", &o, &m, &err), PIER_OK);
    assert_int_equal(pier_migration_steps(m), 0);
    pier_migration_free(m);
    /* the catalog changes: the fingerprint with it */
    exec_ok(f->e, "CREATE TABLE w (z INT64)");
    assert_int_equal(plan_of(f->e, "CREATE TABLE t (a INT64 PRIMARY KEY, "
                             "b TEXT)", &o, &m, &err),
                     PIER_E_MIGRATION_CONFLICT);
    assert_null(m);
    assert_string_equal(err.tag, "MigrationConflict");
    assert_non_null(strstr(err.message, expect));

    /* a drop is destructive, with the rows it destroys */
    assert_int_equal(plan_of(f->e, "CREATE TABLE t (a INT64 PRIMARY KEY)",
                             NULL, &m, &err), PIER_E_DESTRUCTIVE_CHANGE);
    assert_string_equal(err.message, "the migration would destroy data, "
                        "and destruction is not allowed: column 'b' of "
                        "table 't' (3 rows)");
    o.expect = NULL;
    o.allow_destructive = true;
    assert_int_equal(plan_of(f->e, "CREATE TABLE t (a INT64 PRIMARY KEY)",
                             &o, &m, &err), PIER_OK);
    text = pier_migration_to_text(m);
    assert_string_equal(text, "destructive  drop_column          t: b (3 "
                              "rows; rewrites every row)\n");
    pier_free(text);
    pier_migration_free(m);

    /* text from the declaration cannot break a step's line: control
     * bytes are shown escaped (found by fuzzing) */
    assert_int_equal(plan_of(f->e, "CREATE TABLE t (a INT64 PRIMARY KEY, "
                             "b TEXT); CREATE TABLE w (z INT64); CREATE "
                             "INDEX t_b ON t (b) WHERE b <> 'x\n\x1b[2J'",
                             NULL, &m,
                             &err), PIER_OK);
    text = pier_migration_to_text(m);
    assert_string_equal(text, "build        create_index         t_b: on t "
                              "(b) WHERE b <> 'x\\n\\x1B[2J'\n");
    pier_free(text);
    pier_migration_free(m);

    /* refusals and bad declarations */
    assert_int_equal(plan_of(f->e, "CREATE TABLE t (a INT32 PRIMARY KEY, "
                             "b TEXT)", NULL, &m, &err),
                     PIER_E_MIGRATION_REFUSED);
    assert_non_null(strstr(err.message, "INT64 to INT32"));
    assert_int_equal(plan_of(f->e, "CREATE TABLE t (a INT64 PRIMARY KEY, "
                             "b TEXT BACKFILL 'x')", NULL, &m, &err),
                     PIER_E_INVALID_SCHEMA);
    assert_int_equal(err.offset, 53);          /* the backfill's value */
    assert_int_equal(pier_plan(&m, f->e, NULL, 3, NULL, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_plan(NULL, f->e, "", 0, NULL, &err),
                     PIER_E_INVALID_ARGUMENT);
    o.version = 99;
    assert_int_equal(plan_of(f->e, "", &o, &m, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_null(pier_migration_to_text(NULL));
    assert_null(pier_migration_to_json(NULL));
    assert_int_equal(pier_migration_steps(NULL), 0);
    pier_migration_free(NULL);

    /* planning wrote nothing */
    int64_t after = 0;
    assert_int_equal(pier_head_from_catalog(&after, f->e, &err), PIER_OK);
    assert_int_equal(after, head);
    char **tables = NULL;
    assert_int_equal(pier_table_list(&tables, f->e, &err), PIER_OK);
    assert_string_equal(tables[0], "t");
    assert_string_equal(tables[1], "w");
    assert_null(tables[2]);
    pier_strings_free(tables);
}

/* pier_migrate applies a plan whole, and a second run has nothing to do;
 * a step that fails undoes every step before it. */
static void test_pier_migrate(void **state)
{
    engine_fixture *f = *state;
    pier_error err;
    static const char v1[] =
        "CREATE TABLE parents (id INT64 PRIMARY KEY, label TEXT NOT NULL);\n"
        "CREATE TABLE children (id INT64 PRIMARY KEY, parent_id INT64 NOT "
        "NULL REFERENCES parents(id) ON DELETE CASCADE, qty INT64 NOT NULL, "
        "CONSTRAINT positive_qty CHECK (qty > 0));\n"
        "CREATE TABLE tickets (id INT64 PRIMARY KEY AUTOINCREMENT, status "
        "ENUM('open', 'closed') NOT NULL DEFAULT 'open');\n"
        "CREATE VIEW open_tickets (id INT64) AS SELECT id FROM tickets "
        "WHERE status = 'open';\n"
        "CREATE INDEX children_parent ON children (parent_id);\n"
        "CREATE BOARD events (kind text) STRICT;\n";
    pier_migration *m = NULL;
    int64_t wm = -1;
    assert_int_equal(pier_migrate(&wm, f->e, v1, strlen(v1), NULL, &m,
                                  &err), PIER_OK);
    assert_int_equal(pier_migration_steps(m), 6);
    pier_migration_free(m);
    assert_true(wm >= 1);
    assert_int_equal(pier_migrate(NULL, f->e, v1, strlen(v1), NULL, &m,
                                  &err), PIER_OK);
    assert_int_equal(pier_migration_steps(m), 0);
    pier_migration_free(m);
    exec_ok(f->e, "INSERT INTO parents VALUES (1, 'a'); INSERT INTO "
                  "tickets(status) VALUES ('open'), ('closed')");
    pier_cursor *c = NULL;
    const pier_row *row = NULL;
    assert_int_equal(pier_exec(&c, f->e, "SELECT count(*) FROM open_tickets",
                               NULL, &err), PIER_OK);
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_int_equal(pier_row_value(row, 0)->as.integer, 1);
    pier_cursor_close(c);
    /* the constraints are real */
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO children VALUES (1, "
                               "1, 0)", NULL, &err),
                     PIER_E_CONSTRAINT_CHECK);
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO children VALUES (1, "
                               "9, 1)", NULL, &err),
                     PIER_E_CONSTRAINT_FOREIGN_KEY);

    /* v2: an enum widened, a column renamed and one added, a view
     * replaced, the index no longer declared dropped */
    static const char v2[] =
        "CREATE TABLE parents (id INT64 PRIMARY KEY, name TEXT NOT NULL "
        "RENAMED FROM label, note TEXT);\n"
        "CREATE TABLE children (id INT64 PRIMARY KEY, parent_id INT64 NOT "
        "NULL REFERENCES parents(id) ON DELETE CASCADE, qty INT64 NOT NULL, "
        "CONSTRAINT positive_qty CHECK (qty > 0));\n"
        "CREATE TABLE tickets (id INT64 PRIMARY KEY AUTOINCREMENT, status "
        "ENUM('open', 'closed', 'parked') NOT NULL DEFAULT 'open');\n"
        "CREATE VIEW open_tickets (id INT64, status TEXT) AS SELECT id, "
        "status FROM tickets WHERE status <> 'closed';\n"
        "CREATE BOARD events (kind text) STRICT;\n";
    assert_int_equal(pier_migrate(NULL, f->e, v2, strlen(v2), NULL, &m,
                                  &err), PIER_OK);
    char *text = pier_migration_to_text(m);
    assert_string_equal(text,
        "metadata     rename_column        parents: name renamed from label\n"
        "metadata     add_column           parents: note TEXT\n"
        "metadata     widen_enum           tickets: status ENUM('open',"
        "'closed') to ENUM('open','closed','parked')\n"
        "metadata     replace_view         open_tickets: 2 columns\n"
        "metadata     drop_index           children_parent\n");
    pier_free(text);
    pier_migration_free(m);
    exec_ok(f->e, "INSERT INTO tickets(status) VALUES ('parked'); "
                  "UPDATE parents SET name = 'b' WHERE id = 1");
    assert_int_equal(pier_migrate(NULL, f->e, v2, strlen(v2), NULL, &m,
                                  &err), PIER_OK);
    assert_int_equal(pier_migration_steps(m), 0);
    pier_migration_free(m);
    assert_int_equal(pier_schema_check(f->e, &err), PIER_OK);

    /* a step SQLite refuses (a check that cannot run, an index on no
     * column) fails the migration, naming the step, and nothing is made */
    static const char bad_check[] =
        "CREATE TABLE more (a INT64 CHECK (nosuchfn(a)))";
    assert_int_equal(pier_migrate(NULL, f->e, bad_check, strlen(bad_check),
                                  NULL, NULL, &err), PIER_E_QUERY_FAILED);
    assert_string_equal(err.message, "step create_table of 'more': no such "
                        "function: nosuchfn");
    assert_int_equal(err.offset, -1);
    static const char bad_index[] =
        "CREATE TABLE more (a INT64); CREATE INDEX more_z ON more (z)";
    assert_int_equal(pier_migrate(NULL, f->e, bad_index, strlen(bad_index),
                                  NULL, NULL, &err), PIER_E_QUERY_FAILED);
    assert_string_equal(err.message, "step create_index of 'more_z': SQLite "
                        "refused the statement: no such column: z");
    char **names = NULL;
    assert_int_equal(pier_table_list(&names, f->e, &err), PIER_OK);
    for (size_t i = 0; names[i] != NULL; i++)
        assert_string_not_equal(names[i], "more");
    pier_strings_free(names);

    /* a view's body is checked against its declared columns */
    static const char bad_view[] =
        "CREATE VIEW open_tickets (id INT32, status TEXT) AS SELECT id, "
        "status FROM tickets WHERE status <> 'closed'";
    assert_int_equal(pier_migrate(NULL, f->e, bad_view, strlen(bad_view),
                                  NULL, NULL, &err), PIER_E_VIEW_MISMATCH);
    assert_string_equal(err.message, "column 'id' of view 'open_tickets' is "
                        "declared INT32, and its body reads it from "
                        "tickets.id, which is INT64");
    static const char short_view[] =
        "CREATE VIEW open_tickets (id INT64) AS SELECT id, status FROM "
        "tickets";
    assert_int_equal(pier_migrate(NULL, f->e, short_view,
                                  strlen(short_view), NULL, NULL, &err),
                     PIER_E_VIEW_MISMATCH);
    assert_string_equal(err.message, "view 'open_tickets' is declared with "
                        "1 columns, and its body produces 2");

    /* NOT NULL is proved before it is set: a step that fails undoes the
     * steps before it */
    static const char v3[] =
        "CREATE TABLE fresh (a INT64);\n"
        "CREATE TABLE parents (id INT64 PRIMARY KEY, name TEXT NOT NULL, "
        "note TEXT NOT NULL);\n";
    assert_int_equal(pier_migrate(NULL, f->e, v3, strlen(v3), NULL, &m,
                                  &err), PIER_E_PROOF_FAILED);
    assert_string_equal(err.message, "column 'note' of table 'parents' "
                        "cannot be NOT NULL: 1 rows hold null (id 1)");
    assert_null(m);
    char **tables = NULL;
    assert_int_equal(pier_table_list(&tables, f->e, &err), PIER_OK);
    for (size_t i = 0; tables[i] != NULL; i++)
        assert_string_not_equal(tables[i], "fresh");
    pier_strings_free(tables);
    /* with the rows fixed, NOT NULL is set, and holds; then dropped */
    exec_ok(f->e, "UPDATE parents SET note = 'n'");
    assert_int_equal(pier_migrate(NULL, f->e, v3, strlen(v3), NULL, &m,
                                  &err), PIER_OK);
    assert_int_equal(pier_migration_steps(m), 2);
    pier_migration_free(m);
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO parents VALUES (2, "
                               "'x', NULL)", NULL, &err),
                     PIER_E_CONSTRAINT_NOT_NULL);
    static const char v4[] =
        "CREATE TABLE fresh (a INT64);\n"
        "CREATE TABLE parents (id INT64 PRIMARY KEY, name TEXT NOT NULL, "
        "note TEXT);\n";
    assert_int_equal(pier_migrate(NULL, f->e, v4, strlen(v4), NULL, &m,
                                  &err), PIER_OK);
    assert_int_equal(pier_migration_steps(m), 1);
    assert_int_equal(m == NULL, false);
    pier_migration_free(m);
    exec_ok(f->e, "INSERT INTO parents VALUES (2, 'x', NULL)");
    assert_int_equal(pier_schema_check(f->e, &err), PIER_OK);
    assert_int_equal(pier_migrate(NULL, NULL, v3, 3, NULL, NULL, &err),
                     PIER_E_INVALID_ARGUMENT);
}

/* A NOT NULL column added to a table holding rows: those rows read its
 * backfill (in filters too), nothing is rewritten, and a new row must give
 * it a value. */
static void test_backfill(void **state)
{
    engine_fixture *f = *state;
    pier_error err;
    static const char v1[] =
        "CREATE TABLE notes (id INT64 PRIMARY KEY, body TEXT NOT NULL)";
    assert_int_equal(pier_migrate(NULL, f->e, v1, strlen(v1), NULL, NULL,
                                  &err), PIER_OK);
    exec_ok(f->e, "INSERT INTO notes VALUES (1, 'old'), (2, 'older')");
    static const char v2[] =
        "CREATE TABLE notes (id INT64 PRIMARY KEY, body TEXT NOT NULL, "
        "status TEXT NOT NULL BACKFILL 'archived', "
        "at INSTANT NOT NULL BACKFILL now(), "
        "kind TEXT NOT NULL DEFAULT 'note' BACKFILL 'note')";
    assert_int_equal(pier_migrate(NULL, f->e, v2, strlen(v2), NULL, NULL,
                                  &err), PIER_OK);
    pier_cursor *c = NULL;
    const pier_row *row = NULL;
    assert_int_equal(pier_exec(&c, f->e, "SELECT count(*), min(at), "
                               "min(kind) FROM notes WHERE status = "
                               "'archived'", NULL, &err), PIER_OK);
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_int_equal(pier_row_value(row, 0)->as.integer, 2);
    assert_string_equal(pier_row_value(row, 1)->text, FIXTURE_NOW_TEXT);
    assert_string_equal(pier_row_value(row, 2)->text, "note");
    pier_cursor_close(c);
    /* status and at have no default: a new row names them */
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO notes(id, body) "
                               "VALUES (3, 'new')", NULL, &err),
                     PIER_E_CONSTRAINT_NOT_NULL);
    assert_non_null(strstr(err.message, "column 'status' of table 'notes' "
                                        "is NOT NULL and has no default"));
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO notes DEFAULT "
                               "VALUES", NULL, &err),
                     PIER_E_CONSTRAINT_NOT_NULL);
    exec_ok(f->e, "INSERT INTO notes(id, body, status, at) VALUES (3, "
                  "'new', 'draft', '2026-02-01T00:00:00Z')");
    exec_ok(f->e, "INSERT INTO notes VALUES (4, 'all', 'x', "
                  "'2026-02-01T00:00:00Z', 'memo')");
    assert_int_equal(pier_exec(&c, f->e, "SELECT kind FROM notes WHERE id = "
                               "3", NULL, &err), PIER_OK);
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_string_equal(pier_row_value(row, 0)->text, "note");
    pier_cursor_close(c);
    /* again: nothing to do */
    pier_migration *m = NULL;
    assert_int_equal(pier_migrate(NULL, f->e, v2, strlen(v2), NULL, &m,
                                  &err), PIER_OK);
    assert_int_equal(pier_migration_steps(m), 0);
    pier_migration_free(m);
    /* another engine knows the rule too */
    pier_engine *other = fixture_engine(f);
    assert_int_equal(pier_exec(NULL, other, "INSERT INTO notes(id, body) "
                               "VALUES (5, 'x')", NULL, &err),
                     PIER_E_CONSTRAINT_NOT_NULL);
    pier_close(&other);
}

/* The text of the only row of `sql`, columns joined by '|' (null: "-"). */
static void one_row(pier_engine *e, const char *sql, char *out, size_t cap)
{
    pier_error err;
    pier_cursor *c = NULL;
    const pier_row *row = NULL;
    if (pier_exec(&c, e, sql, NULL, &err) != PIER_OK)
        fail_msg("%s: %s: %s", sql, err.tag, err.message);
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_non_null(row);
    size_t n = 0;
    out[0] = '\0';
    for (size_t i = 0; i < pier_row_column_count(row); i++) {
        const pier_value *v = pier_row_value(row, i);
        char cell[64];
        if (v->kind == PIER_KIND_NULL)
            snprintf(cell, sizeof cell, "-");
        else if (v->kind == PIER_KIND_BIGINT || v->kind == PIER_KIND_INTEGER)
            snprintf(cell, sizeof cell, "%lld", (long long)v->as.integer);
        else
            snprintf(cell, sizeof cell, "%s", v->text);
        n += (size_t)snprintf(out + n, cap - n, "%s%s", i > 0 ? "|" : "",
                              cell);
    }
    pier_cursor_close(c);
}

static void migrate_ok(pier_engine *e, const char *decl, size_t steps)
{
    pier_error err;
    pier_migration *m = NULL;
    if (pier_migrate(NULL, e, decl, strlen(decl), NULL, &m, &err) != PIER_OK)
        fail_msg("migrate: %s: %s", err.tag, err.message);
    assert_int_equal(pier_migration_steps(m), steps);
    pier_migration_free(m);
}

/* DEFAULT literals and now(): one instant per statement, set and dropped
 * by metadata steps, filled for columns added to rows that read a
 * backfill, by every engine; no stored row changes. */
static void test_defaults(void **state)
{
    engine_fixture *f = *state;
    pier_error err;
    char got[256];
    static const char v1[] =
        "CREATE TABLE notes (id INT64 PRIMARY KEY, "
        "status TEXT NOT NULL DEFAULT 'draft', "
        "created INSTANT NOT NULL DEFAULT now(), body TEXT NOT NULL)";
    migrate_ok(f->e, v1, 1);
    exec_ok(f->e, "INSERT INTO notes(id, body) VALUES (1, 'a'), (2, 'b')");
    one_row(f->e, "SELECT count(DISTINCT created), min(created), "
                  "min(status) FROM notes", got, sizeof got);
    assert_string_equal(got, "1|" FIXTURE_NOW_TEXT "|draft");
    f->now += 1000001;                  /* a second and a microsecond on */
    exec_ok(f->e, "INSERT INTO notes(id, body) VALUES (3, 'c')");
    one_row(f->e, "SELECT created FROM notes WHERE id = 3", got,
            sizeof got);
    assert_string_equal(got, "2026-03-01T10:00:01.000001Z");
    static const char v2[] =
        "CREATE TABLE notes (id INT64 PRIMARY KEY, "
        "status TEXT NOT NULL DEFAULT 'open', "
        "created INSTANT NOT NULL DEFAULT now(), body TEXT NOT NULL, "
        "prio INT32 DEFAULT 3, "
        "seen DATE NOT NULL DEFAULT now() BACKFILL '2000-01-01', "
        "tag TEXT NOT NULL DEFAULT 'x' BACKFILL 'old')";
    pier_migration *m = NULL;
    assert_int_equal(pier_plan(&m, f->e, v2, strlen(v2), NULL, &err),
                     PIER_OK);
    char *text = pier_migration_to_text(m);
    assert_non_null(strstr(text, "metadata     set_default          notes: "
                                 "status DEFAULT 'open'"));
    pier_free(text);
    pier_migration_free(m);
    migrate_ok(f->e, v2, 4);
    /* stored rows read the backfill, or null; new ones the defaults */
    one_row(f->e, "SELECT status, prio, seen, tag FROM notes WHERE id = 1",
            got, sizeof got);
    assert_string_equal(got, "draft|-|2000-01-01|old");
    exec_ok(f->e, "INSERT INTO notes(id, body) VALUES (4, 'd'), (5, 'e')");
    one_row(f->e, "SELECT status, prio, seen, tag, count(*) FROM notes "
                  "WHERE id >= 4 GROUP BY 1, 2, 3, 4", got, sizeof got);
    assert_string_equal(got, "open|3|2026-03-01|x|2");
    /* every form of INSERT: SELECT, upsert, RETURNING, a given null */
    exec_ok(f->e, "INSERT INTO notes(id, body, prio) SELECT 6, 'f', NULL "
                  "UNION ALL SELECT 7, 'g', 9");
    exec_ok(f->e, "INSERT INTO notes(id, body) SELECT 8, 'h' ON CONFLICT "
                  "DO NOTHING");
    one_row(f->e, "SELECT group_concat(id || ':' || coalesce(prio, '-') || "
                  "':' || tag, ',') FROM (SELECT * FROM notes WHERE id >= 6 "
                  "ORDER BY id)", got, sizeof got);
    assert_string_equal(got, "6:-:x,7:9:x,8:3:x");
    pier_cursor *c = NULL;
    const pier_row *row = NULL;
    assert_int_equal(pier_exec(&c, f->e, "INSERT INTO notes(id, body) "
                               "VALUES (9, 'i') RETURNING tag, seen", NULL,
                               &err), PIER_OK);
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_string_equal(pier_row_value(row, 0)->text, "x");
    assert_string_equal(pier_row_value(row, 1)->text, "2026-03-01");
    pier_cursor_close(c);
    /* another engine fills them too */
    pier_engine *other = fixture_engine(f);
    exec_ok(other, "INSERT INTO notes(id, body) VALUES (10, 'j')");
    pier_close(&other);
    one_row(f->e, "SELECT prio, tag FROM notes WHERE id = 10", got,
            sizeof got);
    assert_string_equal(got, "3|x");
    /* defaults dropped and changed: rows stay as stored */
    static const char v3[] =
        "CREATE TABLE notes (id INT64 PRIMARY KEY, "
        "status TEXT NOT NULL, "
        "created INSTANT NOT NULL DEFAULT now(), body TEXT NOT NULL, "
        "prio INT32 DEFAULT 4, "
        "seen DATE NOT NULL DEFAULT now() BACKFILL '2000-01-01', "
        "tag TEXT NOT NULL BACKFILL 'old')";
    migrate_ok(f->e, v3, 3);
    migrate_ok(f->e, v3, 0);
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO notes(id, body, "
                               "tag) VALUES (11, 'k', 't')", NULL, &err),
                     PIER_E_CONSTRAINT_NOT_NULL);
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO notes(id, body, "
                               "status) VALUES (11, 'k', 's')", NULL, &err),
                     PIER_E_CONSTRAINT_NOT_NULL);
    assert_non_null(strstr(err.message, "column 'tag'"));
    exec_ok(f->e, "INSERT INTO notes(id, body, status, tag) VALUES (11, 'k', "
                  "'s', 't')");
    one_row(f->e, "SELECT prio, tag, (SELECT count(*) FROM notes WHERE "
                  "tag = 'old'), (SELECT status FROM notes WHERE id = 4) "
                  "FROM notes WHERE id = 11", got, sizeof got);
    assert_string_equal(got, "4|t|3|open");
    /* a long default is kept whole; BACKFILL now() of TIME and DATETIME
     * columns is the migration's instant as each type writes it */
    static const char v4[] =
        "CREATE TABLE notes (id INT64 PRIMARY KEY, "
        "status TEXT NOT NULL, "
        "created INSTANT NOT NULL DEFAULT now(), body TEXT NOT NULL, "
        "prio INT32 DEFAULT 4, "
        "seen DATE NOT NULL DEFAULT now() BACKFILL '2000-01-01', "
        "tag TEXT NOT NULL BACKFILL 'old', "
        "at TIME NOT NULL BACKFILL now(), on_ DATETIME NOT NULL BACKFILL "
        "now(), long TEXT DEFAULT '"
        "0123456789012345678901234567890123456789012345678901234567890123456"
        "7890123456789012345678901234567890123456789012345678901234567890123"
        "4567890123456789012345678901234567890123456789')";
    f->now += 3600000000;               /* 11:00:01.000001 */
    migrate_ok(f->e, v4, 3);
    migrate_ok(f->e, v4, 0);
    one_row(f->e, "SELECT at, on_ FROM notes WHERE id = 1", got, sizeof got);
    assert_string_equal(got, "11:00:01.000001|2026-03-01T11:00:01.000001");
    exec_ok(f->e, "INSERT INTO notes(id, body, status, tag, at, on_) VALUES "
                  "(12, 'l', 's', 't', '00:00:00', '2026-01-01 00:00:00')");
    one_row(f->e, "SELECT length(long) FROM notes WHERE id = 12", got,
            sizeof got);
    assert_string_equal(got, "180");
    /* now() fills temporal columns only */
    assert_int_equal(pier_exec(NULL, f->e, "CREATE TABLE bad (n INT64 "
                               "DEFAULT now())", NULL, &err),
                     PIER_E_QUERY_FAILED);
    assert_non_null(strstr(err.message, "DEFAULT now() fills INSTANT"));
}

/* AUTOINCREMENT adopted on a table holding keys (the counter starts past
 * the largest, and ids are never reused), and dropped. */
static void test_autoincrement_steps(void **state)
{
    engine_fixture *f = *state;
    pier_error err;
    char got[256];
    static const char plain[] =
        "CREATE TABLE t (id INT64 PRIMARY KEY, v TEXT)";
    static const char counted[] =
        "CREATE TABLE t (id INT64 PRIMARY KEY AUTOINCREMENT, v TEXT)";
    migrate_ok(f->e, plain, 1);
    exec_ok(f->e, "INSERT INTO t VALUES (10, 'a'), (5, 'b')");
    pier_migration *m = NULL;
    assert_int_equal(pier_plan(&m, f->e, counted, strlen(counted), NULL,
                               &err), PIER_OK);
    char *text = pier_migration_to_text(m);
    assert_non_null(strstr(text, "proved       adopt_autoincrement  t: id"));
    pier_free(text);
    pier_migration_free(m);
    migrate_ok(f->e, counted, 1);
    migrate_ok(f->e, counted, 0);
    /* past the largest key, also after it is deleted; past explicit ids */
    exec_ok(f->e, "DELETE FROM t WHERE id = 10");
    exec_ok(f->e, "INSERT INTO t(v) VALUES ('c')");
    exec_ok(f->e, "INSERT INTO t VALUES (100, 'd')");
    exec_ok(f->e, "DELETE FROM t WHERE id = 100");
    exec_ok(f->e, "INSERT INTO t(v) VALUES ('e')");
    one_row(f->e, "SELECT group_concat(id || v, ',') FROM (SELECT * FROM t "
                  "ORDER BY id)", got, sizeof got);
    assert_string_equal(got, "5b,11c,101e");
    /* another engine's writes take the counter too */
    pier_engine *other = fixture_engine(f);
    exec_ok(other, "INSERT INTO t(v) VALUES ('f')");
    pier_close(&other);
    one_row(f->e, "SELECT max(id) FROM t", got, sizeof got);
    assert_string_equal(got, "102");
    /* dropped: the key is the largest plus one again, as SQLite's */
    migrate_ok(f->e, plain, 1);
    migrate_ok(f->e, plain, 0);
    exec_ok(f->e, "DELETE FROM t WHERE id = 102");
    exec_ok(f->e, "INSERT INTO t(v) VALUES ('g')");
    one_row(f->e, "SELECT max(id) FROM t", got, sizeof got);
    assert_string_equal(got, "102");
}

/* Every applied step appends a schema record to the feed of what it
 * touched, with column ids; the watermark is the last of them. */
static void test_change_records(void **state)
{
    engine_fixture *f = *state;
    pier_error err;
    static const char v1[] =
        "CREATE TABLE notes (id INT64 PRIMARY KEY, body TEXT NOT NULL);"
        "CREATE INDEX notes_body ON notes (body);"
        "CREATE BOARD ev (kind text)";
    static const char v2[] =
        "CREATE TABLE notes (id INT64 PRIMARY KEY, text TEXT NOT NULL "
        "RENAMED FROM body, status TEXT NOT NULL BACKFILL 'old');"
        "CREATE INDEX notes_body ON notes (text);"
        "CREATE BOARD ev (kind text, n bigint)";
    int64_t wm1 = 0, wm2 = 0;
    assert_int_equal(pier_migrate(&wm1, f->e, v1, strlen(v1), NULL, NULL,
                                  &err), PIER_OK);
    assert_int_equal(pier_migrate(&wm2, f->e, v2, strlen(v2), NULL, NULL,
                                  &err), PIER_OK);
    pier_changes_page *p = NULL;
    assert_int_equal(pier_changes(&p, f->e, "notes", 0, 0, &err), PIER_OK);
    /* the index follows the rename by itself: no step */
    assert_int_equal(p->nrecords, 4);
    static const char *const ops[] = {
        "\"op\":\"create_table\"", "\"op\":\"create_index\"",
        "\"op\":\"rename_column\"", "\"op\":\"add_column\"",
    };
    for (size_t i = 0; i < 4; i++) {
        assert_string_equal(p->records[i].kind, "schema");
        if (strstr(p->records[i].payload, ops[i]) == NULL)
            fail_msg("record %zu: %s", i, p->records[i].payload);
    }
    assert_non_null(strstr(p->records[0].payload, "\"columns\":[{\"id\":1,"
                           "\"name\":\"id\",\"type\":\"INT64\"},{\"id\":2,"
                           "\"name\":\"body\",\"type\":\"TEXT\"}]"));
    assert_non_null(strstr(p->records[2].payload, "\"column\":\"text\","
                                                  "\"table_id\":1,"
                                                  "\"column_id\":2,"
                                                  "\"from\":\"body\""));
    assert_non_null(strstr(p->records[3].payload, "\"column_id\":3"));
    pier_changes_page_free(p);
    assert_int_equal(pier_changes(&p, f->e, "ev", 0, 0, &err), PIER_OK);
    assert_int_equal(p->nrecords, 2);
    assert_non_null(strstr(p->records[1].payload, "\"op\":\"add_column\""));
    assert_int_equal(p->records[1].watermark, wm2);
    pier_changes_page_free(p);
    assert_true(wm1 > 0 && wm2 > wm1);
}

/* The lake exported as a declaration plans to zero steps against it:
 * tables made by pier sql and by migrations, defaults and backfills,
 * indexes, views, boards with inferred columns; introspection reports
 * ids, managed flags and counters. */
static void test_export_round_trip(void **state)
{
    engine_fixture *f = *state;
    pier_error err;
    exec_ok(f->e, shop);
    static const char decl[] =
        "CREATE TABLE notes (id INT64 PRIMARY KEY AUTOINCREMENT, "
        "created INSTANT NOT NULL DEFAULT now(), body TEXT NOT NULL, "
        "CONSTRAINT short CHECK (length(body) < 100));"
        "CREATE VIEW recent (id INT64, body TEXT) AS SELECT id, body FROM "
        "notes WHERE created > '2000-01-01T00:00:00Z';"
        "CREATE BOARD ev (kind text) STRICT";
    migrate_ok(f->e, decl, 3);
    exec_ok(f->e, "INSERT INTO notes(body) VALUES ('a'), ('b')");
    static const char later[] =
        "CREATE TABLE notes (id INT64 PRIMARY KEY AUTOINCREMENT, "
        "created INSTANT NOT NULL DEFAULT now(), body TEXT NOT NULL, "
        "tag TEXT NOT NULL DEFAULT 'x' BACKFILL 'old', "
        "CONSTRAINT short CHECK (length(body) < 100));";
    migrate_ok(f->e, later, 1);
    fixture_insert(f->e, "loose", "{\"id\":\"1\",\"n\":1.5,\"t\":\"x\"}");
    char *text = NULL;
    assert_int_equal(pier_schema_export(&text, f->e, &err), PIER_OK);
    assert_non_null(strstr(text, "\"tag\" TEXT NOT NULL DEFAULT 'x' "
                                 "BACKFILL 'old'"));
    assert_non_null(strstr(text, "CREATE BOARD loose (\"n\" double, \"t\" "
                                 "text);"));
    assert_non_null(strstr(text, "-- table \"children\": not managed"));
    assert_non_null(strstr(text, "-- table \"notes\": managed"));
    pier_migration *m = NULL;
    if (pier_plan(&m, f->e, text, strlen(text), NULL, &err) != PIER_OK)
        fail_msg("%s: %s\n%s", err.tag, err.message, text);
    if (pier_migration_steps(m) != 0)
        fail_msg("%s\n%s", pier_migration_to_text(m), text);
    pier_migration_free(m);
    pier_free(text);
    char *json = NULL;
    assert_int_equal(pier_introspect(&json, f->e, &err), PIER_OK);
    json_error_t je;
    json_t *root = json_loads(json, 0, &je);
    pier_free(json);
    assert_non_null(root);
    json_t *tables = json_object_get(root, "tables");
    json_t *notes = NULL;
    size_t i;
    json_t *t;
    json_array_foreach(tables, i, t)
        if (strcmp(json_string_value(json_object_get(t, "name")),
                   "notes") == 0)
            notes = t;
    assert_non_null(notes);
    assert_true(json_is_true(json_object_get(notes, "managed")));
    json_t *ai = json_object_get(notes, "autoincrement");
    assert_int_equal(json_integer_value(json_object_get(ai, "counter")), 2);
    json_t *tag = json_array_get(json_object_get(notes, "columns"), 3);
    assert_string_equal(json_string_value(json_object_get(tag, "backfill")),
                        "'old'");
    assert_true(json_is_true(json_object_get(tag, "added")));
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(json_object_get(notes, "checks"),
                                           0), "name")), "short");
    json_array_foreach(tables, i, t)
        if (strcmp(json_string_value(json_object_get(t, "name")),
                   "children") == 0) {
            json_t *fk = json_array_get(json_object_get(t, "foreign_keys"),
                                        0);
            assert_string_equal(json_string_value(json_object_get(fk,
                                                                  "name")),
                                "children_parent_id_fkey");
            assert_false(json_is_true(json_object_get(t, "managed")));
        }
    assert_int_equal(json_array_size(json_object_get(root, "views")), 1);
    assert_int_equal(json_array_size(json_object_get(root, "boards")), 2);
    json_decref(root);
}

/* A unique index on rows is proved first: duplicates are refused with
 * their values, nulls are distinct, a WHERE limits the proof. */
static void test_unique_index_proof(void **state)
{
    engine_fixture *f = *state;
    pier_error err;
    static const char plain[] = "CREATE TABLE t (id INT64 PRIMARY KEY, "
                                "e TEXT, n INT64)";
    migrate_ok(f->e, plain, 1);
    exec_ok(f->e, "INSERT INTO t VALUES (1, 'a', 1), (2, 'a', 1), "
                  "(3, 'b', NULL), (4, 'b', NULL), (5, NULL, 2), "
                  "(6, NULL, 2)");
    static const char on_e[] = "CREATE TABLE t (id INT64 PRIMARY KEY, "
                               "e TEXT, n INT64);"
                               "CREATE UNIQUE INDEX t_e ON t (e DESC)";
    assert_int_equal(pier_migrate(NULL, f->e, on_e, strlen(on_e), NULL,
                                  NULL, &err), PIER_E_PROOF_FAILED);
    assert_string_equal(err.message, "unique index 't_e' cannot be made on "
                        "table 't': 4 rows share their values with another "
                        "(('a'), ('b'))");
    /* two columns: (b, NULL) twice is not a duplicate */
    static const char on_en[] = "CREATE TABLE t (id INT64 PRIMARY KEY, "
                                "e TEXT, n INT64);"
                                "CREATE UNIQUE INDEX t_en ON t (e, n)";
    assert_int_equal(pier_migrate(NULL, f->e, on_en, strlen(on_en), NULL,
                                  NULL, &err), PIER_E_PROOF_FAILED);
    assert_non_null(strstr(err.message, "2 rows share their values with "
                                        "another (('a', 1))"));
    static const char partial[] = "CREATE TABLE t (id INT64 PRIMARY KEY, "
                                  "e TEXT, n INT64);"
                                  "CREATE UNIQUE INDEX t_e ON t (e) "
                                  "WHERE id > 2 AND id < 4 OR id > 4";
    migrate_ok(f->e, partial, 1);
    assert_int_equal(pier_exec(NULL, f->e, "INSERT INTO t VALUES (7, 'b', "
                               "0)", NULL, &err), PIER_E_CONSTRAINT_UNIQUE);
}

/* READONLY added and taken away by migrations, as pier sql would make it. */
static void test_readonly_steps(void **state)
{
    engine_fixture *f = *state;
    pier_error err;
    static const char plain[] =
        "CREATE TABLE t (id INT64 PRIMARY KEY, a TEXT, b INT64)";
    static const char ro[] =
        "CREATE TABLE t (id INT64 PRIMARY KEY, a TEXT READONLY, b INT64)";
    assert_int_equal(pier_migrate(NULL, f->e, plain, strlen(plain), NULL,
                                  NULL, &err), PIER_OK);
    exec_ok(f->e, "INSERT INTO t VALUES (1, 'x', 2)");
    pier_migration *m = NULL;
    assert_int_equal(pier_migrate(NULL, f->e, ro, strlen(ro), NULL, &m,
                                  &err), PIER_OK);
    assert_int_equal(pier_migration_steps(m), 1);
    pier_migration_free(m);
    assert_int_equal(pier_exec(NULL, f->e, "UPDATE t SET a = 'y'", NULL,
                               &err), PIER_E_READONLY_COLUMN);
    exec_ok(f->e, "UPDATE t SET b = 3");
    assert_int_equal(pier_migrate(NULL, f->e, ro, strlen(ro), NULL, &m,
                                  &err), PIER_OK);
    assert_int_equal(pier_migration_steps(m), 0);
    pier_migration_free(m);
    assert_int_equal(pier_migrate(NULL, f->e, plain, strlen(plain), NULL,
                                  NULL, &err), PIER_OK);
    exec_ok(f->e, "UPDATE t SET a = 'y'");
    assert_int_equal(pier_schema_check(f->e, &err), PIER_OK);
    /* a primary key's guards the rowid's names too, as pier sql's does */
    static const char pk[] =
        "CREATE TABLE t (id INT64 PRIMARY KEY READONLY, a TEXT, b INT64)";
    migrate_ok(f->e, pk, 1);
    migrate_ok(f->e, pk, 0);
    static const char *const updates[] = {
        "UPDATE t SET id = 7", "UPDATE t SET rowid = 7", "UPDATE t SET oid = 7",
        "UPDATE t SET _rowid_ = 7",
    };
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(pier_exec(NULL, f->e, updates[i], NULL, &err),
                         PIER_E_READONLY_COLUMN);
    exec_ok(f->e, "UPDATE t SET a = 'z'");
    migrate_ok(f->e, plain, 1);
    exec_ok(f->e, "UPDATE t SET id = 7");
    assert_int_equal(pier_schema_check(f->e, &err), PIER_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tables_read_back, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_what_cannot_be_stated, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_pier_plan, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pier_migrate, setup, teardown),
        cmocka_unit_test_setup_teardown(test_backfill, setup, teardown),
        cmocka_unit_test_setup_teardown(test_defaults, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unique_index_proof, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_export_round_trip, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_change_records, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_autoincrement_steps, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_readonly_steps, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
