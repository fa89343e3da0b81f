/*
 * test_migrate_live.c: a lake's catalog read into the migrations' model
 * (src/migrate/live.c): tables made with pier sql keep their ids and read
 * back with the constraints their SQL holds, indexes and boards too; what
 * a declaration cannot state is listed as opaque; and the declaration a
 * user would write for that lake plans to zero steps against it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

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
    assert_int_equal(p.steps[0].kind, PIER__STEP_WIDEN_COLUMN);
    assert_string_equal(p.steps[0].column, "qty");
    assert_string_equal(p.steps[0].from, "DECIMAL(10,2)");
    assert_int_equal(p.steps[0].column_id, c->columns[2].id);
    assert_int_equal(p.steps[1].kind, PIER__STEP_RENAME_COLUMN);
    assert_string_equal(p.steps[1].from, "note");
    assert_int_equal(p.steps[1].column_id, c->columns[3].id);
    assert_int_equal(p.steps[1].table_id, c->id);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tables_read_back, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_what_cannot_be_stated, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
