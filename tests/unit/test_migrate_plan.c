/*
 * test_migrate_plan.c: the migration planner (src/migrate/plan.h) on
 * models read from declarations, the live one given ids, row counts and
 * managed flags as a lake would: every step and its class, the order of
 * steps, idempotence (a declaration planned against what it made is zero
 * steps), every refusal, destruction only when allowed, and declarations
 * that cannot mean anything against the catalog.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "migrate/plan.h"

/* A live model: `text` as a lake holding it would show it, every table
 * and board made by a migration and holding 10 rows; table ids from 1,
 * column ids from 100. */
static void live_of(pier__schema *s, const char *text)
{
    pier_error err;
    if (pier__schema_from_declaration(s, text, strlen(text), &err) !=
        PIER_OK)
        fail_msg("live: %s: %s", err.tag, err.message);
    int64_t col = 100;
    for (size_t i = 0; i < s->ntables; i++) {
        pier__mtable *t = &s->tables[i];
        t->id = (int64_t)i + 1;
        t->managed = true;
        t->rows = 10;
        t->renamed_from = NULL;
        for (size_t c = 0; c < t->ncolumns; c++) {
            t->columns[c].id = col++;
            t->columns[c].renamed_from = NULL;
        }
    }
    for (size_t i = 0; i < s->nviews; i++)
        s->views[i].managed = true;
    for (size_t i = 0; i < s->nindexes; i++)
        s->indexes[i].managed = true;
    for (size_t i = 0; i < s->nboards; i++) {
        s->boards[i].managed = true;
        s->boards[i].rows = 10;
    }
}

static void want_of(pier__schema *s, const char *text)
{
    pier_error err;
    if (pier__schema_from_declaration(s, text, strlen(text), &err) !=
        PIER_OK)
        fail_msg("want: %s: %s", err.tag, err.message);
}

/* The plan as lines "class step object[.column]", joined by '\n'. */
static void render(const pier__plan *p, char *out, size_t cap)
{
    size_t o = 0;
    out[0] = '\0';
    for (size_t i = 0; i < p->nsteps; i++) {
        const pier__step *s = &p->steps[i];
        int n = snprintf(out + o, cap - o, "%s%s %s %s%s%s", i ? "\n" : "",
                         pier__class_name(pier__step_class_of(s)),
                         pier__step_name(s->kind), s->object,
                         s->column != NULL ? "." : "",
                         s->column != NULL ? s->column : "");
        if (n < 0 || (size_t)n >= cap - o)
            fail_msg("plan too long");
        o += (size_t)n;
    }
}

/* Plans `want` against `live` with `opt`, expecting `status` and, for a
 * plan, exactly the steps `steps`; for a failure, `steps` is a part of
 * the message. */
static void plan_is(const char *live, const char *want,
                    pier__plan_options opt, pier_status status,
                    const char *steps)
{
    pier__schema l, w;
    live_of(&l, live);
    want_of(&w, want);
    pier__plan p;
    pier_error err;
    pier_status rc = pier__plan_make(&p, &l, &w, &opt, &err);
    char got[4096];
    render(&p, got, sizeof got);
    if (rc != status)
        fail_msg("%s, want %s: %s\n%s", pier_status_tag(rc),
                 pier_status_tag(status), rc != PIER_OK ? err.message : "",
                 got);
    if (status == PIER_OK && strcmp(got, steps) != 0)
        fail_msg("plan:\n%s\nwant:\n%s", got, steps);
    if (status != PIER_OK && strstr(err.message, steps) == NULL)
        fail_msg("'%s', want a message with '%s'", err.message, steps);
    if (status != PIER_OK)
        assert_string_equal(err.tag, pier_status_tag(status));
    pier__plan_free(&p);
    pier__schema_free(&l);
    pier__schema_free(&w);
}

static const pier__plan_options plain = { false, false };
static const pier__plan_options destroy = { true, false };
static const pier__plan_options owns = { true, true };

static const char shop[] =
    "CREATE TABLE parents (id INT64 PRIMARY KEY, label TEXT NOT NULL);\n"
    "CREATE TABLE children (id INT64 PRIMARY KEY,\n"
    "  parent_id INT64 NOT NULL REFERENCES parents(id) ON DELETE CASCADE,\n"
    "  qty INT64 NOT NULL, CONSTRAINT positive_qty CHECK (qty > 0));\n"
    "CREATE VIEW labels (label TEXT) AS SELECT label FROM parents;\n"
    "CREATE INDEX children_qty ON children (qty);\n"
    "CREATE BOARD events (kind text) STRICT;\n";

static void test_from_nothing_and_back(void **state)
{
    (void)state;
    /* children are declared first; parents are created first */
    static const char reversed[] =
        "CREATE BOARD events (kind text) STRICT;\n"
        "CREATE INDEX children_qty ON children (qty);\n"
        "CREATE VIEW labels (label TEXT) AS SELECT label FROM parents;\n"
        "CREATE TABLE children (id INT64 PRIMARY KEY,\n"
        "  parent_id INT64 NOT NULL REFERENCES parents(id) ON DELETE "
        "CASCADE,\n"
        "  qty INT64 NOT NULL, CONSTRAINT positive_qty CHECK (qty > 0));\n"
        "CREATE TABLE parents (id INT64 PRIMARY KEY, label TEXT NOT "
        "NULL);\n";
    plan_is("", reversed, plain, PIER_OK,
            "metadata create_table parents\n"
            "metadata create_table children\n"
            "metadata create_board events\n"
            "metadata create_view labels\n"
            "build create_index children_qty");
    /* against what it made: nothing to do, however it is spelled */
    plan_is(shop, reversed, plain, PIER_OK, "");
    plan_is(shop, shop, owns, PIER_OK, "");
    plan_is(shop,
            "CREATE TABLE PARENTS (ID int64 primary key, Label text not "
            "null);\n"
            "CREATE TABLE children (id INT64 PRIMARY KEY, parent_id INT64 "
            "NOT NULL REFERENCES \"parents\"(\"id\") ON DELETE CASCADE, qty "
            "INT64 NOT NULL, CONSTRAINT positive_qty CHECK ( \"qty\">0 ));\n"
            "CREATE VIEW labels (label TEXT) AS SELECT [label] FROM "
            "parents;\n"
            "CREATE INDEX children_qty ON children (\"qty\");\n"
            "CREATE BOARD events (kind text) STRICT;",
            plain, PIER_OK, "");
    /* a declaration that speaks for part of the lake drops nothing of
     * the rest, but the indexes of its own tables are what it says */
    plan_is(shop, "CREATE TABLE parents (id INT64 PRIMARY KEY, label TEXT "
                  "NOT NULL)", plain, PIER_OK, "");
    plan_is(shop, "CREATE TABLE parents (id INT64 PRIMARY KEY, label TEXT "
                  "NOT NULL); CREATE TABLE children (id INT64 PRIMARY KEY, "
                  "parent_id INT64 NOT NULL REFERENCES parents(id) ON "
                  "DELETE CASCADE, qty INT64 NOT NULL, CONSTRAINT "
                  "positive_qty CHECK (qty > 0))", plain, PIER_OK,
            "metadata drop_index children_qty");
}

static void test_columns(void **state)
{
    (void)state;
    static const char notes[] =
        "CREATE TABLE notes (id INT64 PRIMARY KEY, body TEXT NOT NULL, "
        "n INT32, status ENUM('a', 'b') NOT NULL DEFAULT 'a', "
        "tag VARCHAR(20), price DECIMAL(10,2), at INSTANT)";
    plan_is(notes,
            "CREATE TABLE notes (id INT64 PRIMARY KEY AUTOINCREMENT, "
            "text TEXT RENAMED FROM body, n INT64 NOT NULL, "
            "status ENUM('a', 'b', 'c') NOT NULL DEFAULT 'b', "
            "tag VARCHAR(50) READONLY, price DECIMAL(12,2), "
            "at INSTANT DEFAULT now(), "
            "added TEXT, required INT64 NOT NULL BACKFILL 0)",
            plain, PIER_OK,
            "metadata rename_column notes.text\n"
            "proved adopt_autoincrement notes.id\n"
            "metadata drop_not_null notes.text\n"
            "metadata widen_column notes.n\n"
            "proved set_not_null notes.n\n"
            "metadata widen_enum notes.status\n"
            "metadata set_default notes.status\n"
            "metadata widen_column notes.tag\n"
            "metadata set_readonly notes.tag\n"
            "metadata widen_column notes.price\n"
            "metadata set_default notes.at\n"
            "metadata add_column notes.added\n"
            "metadata add_column notes.required");
    /* a column renamed away, and its old name declared anew */
    plan_is("CREATE TABLE t (id INT64 PRIMARY KEY, x TEXT)",
            "CREATE TABLE t (id INT64 PRIMARY KEY, x INT32, z TEXT "
            "RENAMED FROM x)", plain, PIER_OK,
            "metadata rename_column t.z\nmetadata add_column t.x");
    plan_is("CREATE TABLE t (id INT64 PRIMARY KEY, z TEXT, x INT32)",
            "CREATE TABLE t (id INT64 PRIMARY KEY, x INT32, z TEXT "
            "RENAMED FROM x)", plain, PIER_OK, "");
    /* the other way round */
    plan_is("CREATE TABLE t (id INT64 PRIMARY KEY AUTOINCREMENT, "
            "s ENUM('a') DEFAULT 'a' READONLY, v VARCHAR(5))",
            "CREATE TABLE t (id INT64 PRIMARY KEY, s TEXT, v TEXT)",
            plain, PIER_OK,
            "metadata drop_autoincrement t.id\n"
            "metadata widen_enum t.s\n"
            "metadata drop_default t.s\n"
            "metadata drop_readonly t.s\n"
            "metadata widen_column t.v");
    /* after the rename ran, the clause is inert */
    plan_is("CREATE TABLE t (b INT64)",
            "CREATE TABLE t (b INT64 RENAMED FROM a)", plain, PIER_OK, "");
    plan_is("CREATE TABLE persons (a INT64)",
            "CREATE TABLE people RENAMED FROM persons (a INT64)", plain,
            PIER_OK, "metadata rename_table people");
    plan_is("CREATE TABLE people (a INT64)",
            "CREATE TABLE people RENAMED FROM persons (a INT64)", plain,
            PIER_OK, "");
    /* widenings of every kind that keeps the stored values */
    plan_is("CREATE TABLE t (a INT8, b UINT16, c FLOAT32, d DECIMAL(4,1), "
            "e VARCHAR(3))",
            "CREATE TABLE t (a INT16, b INT32, c DOUBLE, d DECIMAL, e TEXT)",
            plain, PIER_OK,
            "metadata widen_column t.a\nmetadata widen_column t.b\n"
            "metadata widen_column t.c\nmetadata widen_column t.d\n"
            "metadata widen_column t.e");
}

static void test_refusals(void **state)
{
    (void)state;
    plan_is("CREATE TABLE t (a INT64)", "CREATE TABLE t (a INT32)", plain,
            PIER_E_MIGRATION_REFUSED, "column 'a' of table 't': INT64 to "
            "INT32 is a type change");
    plan_is("CREATE TABLE t (a TEXT)", "CREATE TABLE t (a INT64)", plain,
            PIER_E_MIGRATION_REFUSED, "TEXT to INT64 is a type change");
    plan_is("CREATE TABLE t (a UINT32)", "CREATE TABLE t (a INT32)", plain,
            PIER_E_MIGRATION_REFUSED, "UINT32 to INT32");
    plan_is("CREATE TABLE t (a DECIMAL(10,2))",
            "CREATE TABLE t (a DECIMAL(10,3))", plain,
            PIER_E_MIGRATION_REFUSED, "DECIMAL(10,2) to DECIMAL(10,3)");
    plan_is("CREATE TABLE t (a ENUM('x', 'y'))",
            "CREATE TABLE t (a ENUM('x'))", plain, PIER_E_MIGRATION_REFUSED,
            "removes enum labels");
    plan_is("CREATE TABLE t (a TEXT)", "CREATE TABLE t (a ENUM('x'))",
            plain, PIER_E_MIGRATION_REFUSED, "tightens a column into an "
            "enum");
    plan_is("CREATE TABLE t (a INT64)",
            "CREATE TABLE t (a INT64, b INT64 NOT NULL)", plain,
            PIER_E_MIGRATION_REFUSED, "column 'b' of table 't' is added NOT "
            "NULL without a BACKFILL");
    plan_is("CREATE TABLE t (a INT64)", "CREATE TABLE t (a INT64 UNIQUE)",
            plain, PIER_E_MIGRATION_REFUSED, "table 't': its primary or "
            "unique keys change");
    plan_is("CREATE TABLE t (a INT64, b INT64)",
            "CREATE TABLE t (a INT64, b INT64, CHECK (a > 0))", plain,
            PIER_E_MIGRATION_REFUSED, "table 't': its CHECK constraints "
            "change");
    plan_is("CREATE TABLE p (id INT64 PRIMARY KEY); CREATE TABLE t (a "
            "INT64)",
            "CREATE TABLE p (id INT64 PRIMARY KEY); CREATE TABLE t (a INT64 "
            "REFERENCES p)", plain, PIER_E_MIGRATION_REFUSED,
            "table 't': its foreign keys change");
    plan_is("CREATE TABLE t (a INT64 NOT NULL BACKFILL 1)",
            "CREATE TABLE t (a INT64 NOT NULL BACKFILL 2)", plain,
            PIER_E_MIGRATION_REFUSED, "its BACKFILL was fixed when the "
            "column was added (1)");
    /* a check over a renamed column is the same check */
    plan_is("CREATE TABLE t (a INT64, CHECK (a > 0))",
            "CREATE TABLE t (b INT64 RENAMED FROM a, CHECK (b > 0))", plain,
            PIER_OK, "metadata rename_column t.b");
    /* every offending change is named, and nothing else is planned */
    plan_is("CREATE TABLE t (a INT64, b TEXT); CREATE BOARD x STRICT",
            "CREATE TABLE t (a INT8, b INT64); CREATE BOARD x",
            plain, PIER_E_MIGRATION_REFUSED,
            "the migration is refused: column 'a' of table 't': INT64 to "
            "INT8 is a type change, and migrations only widen a type "
            "without touching its values; column 'b' of table 't': TEXT to "
            "INT64 is a type change, and migrations only widen a type "
            "without touching its values; board 'x' is strict in the lake");
}

static void test_drops(void **state)
{
    (void)state;
    static const char two[] =
        "CREATE TABLE a (x INT64 PRIMARY KEY, y TEXT, z INT64 UNIQUE);\n"
        "CREATE TABLE b (x INT64);\n"
        "CREATE VIEW v (x INT64) AS SELECT x FROM b;\n"
        "CREATE BOARD e;\n";
    plan_is(two, "CREATE TABLE a (x INT64 PRIMARY KEY, z INT64 UNIQUE)",
            plain, PIER_E_DESTRUCTIVE_CHANGE,
            "the migration would destroy data, and destruction is not "
            "allowed: column 'y' of table 'a' (10 rows)");
    plan_is(two, "CREATE TABLE a (x INT64 PRIMARY KEY, z INT64 UNIQUE)",
            destroy, PIER_OK, "destructive drop_column a.y");
    plan_is(two, "CREATE TABLE a (x INT64 PRIMARY KEY, y TEXT, z INT64 "
                 "UNIQUE)", owns, PIER_OK,
            "destructive drop_view v\ndestructive drop_table b\n"
            "destructive drop_board e");
    plan_is(two, "CREATE TABLE a (x INT64 PRIMARY KEY, y TEXT, z INT64 "
                 "UNIQUE)", (pier__plan_options){ false, true },
            PIER_E_DESTRUCTIVE_CHANGE, "view 'v'; table 'b' (10 rows); "
            "board 'e' (10 rows)");
    plan_is(two, "CREATE TABLE a (x INT64 PRIMARY KEY, y TEXT)", owns,
            PIER_E_MIGRATION_REFUSED, "column 'z' of table 'a' is dropped, "
            "but a UNIQUE key names it");
    plan_is("CREATE TABLE p (id INT64 PRIMARY KEY, k INT64 UNIQUE); "
            "CREATE TABLE c (r INT64 REFERENCES p(k))",
            "CREATE TABLE p (id INT64 PRIMARY KEY); CREATE TABLE c (r "
            "INT64 REFERENCES p(id))", owns, PIER_E_MIGRATION_REFUSED,
            "column 'k' of table 'p' is dropped, but a UNIQUE key names it");
    plan_is("CREATE TABLE t (a INT64, b INT64, CHECK (b > 0))",
            "CREATE TABLE t (a INT64, CHECK (b > 0))", owns,
            PIER_E_MIGRATION_REFUSED, "column 'b' of table 't' is dropped, "
            "but a CHECK names it");
    /* children go before their parents */
    plan_is("CREATE TABLE p (id INT64 PRIMARY KEY); "
            "CREATE TABLE c (r INT64 REFERENCES p)",
            "CREATE TABLE o (x INT64)", owns, PIER_OK,
            "metadata create_table o\ndestructive drop_table c\n"
            "destructive drop_table p");
    /* what stops naming a dropped column goes first: the index dropped,
     * the view replaced */
    static const char named[] =
        "CREATE TABLE c (id INT64 PRIMARY KEY, extra TEXT, k INT32);\n"
        "CREATE INDEX c_extra ON c (extra);\n"
        "CREATE VIEW v (id INT64, extra TEXT) AS SELECT id, extra FROM c;\n";
    plan_is(named, "CREATE TABLE c (id INT64 PRIMARY KEY, k INT32); "
            "CREATE VIEW v (id INT64) AS SELECT id FROM c", destroy,
            PIER_OK, "metadata replace_view v\nmetadata drop_index c_extra\n"
            "destructive drop_column c.extra");
    plan_is(named, "CREATE TABLE c (id INT64 PRIMARY KEY, k INT32)", owns,
            PIER_OK, "metadata drop_index c_extra\ndestructive drop_view v\n"
            "destructive drop_column c.extra");
    plan_is(named, "CREATE TABLE c (id INT64 PRIMARY KEY, k INT32); "
            "CREATE INDEX c_extra ON c (extra)", destroy,
            PIER_E_MIGRATION_REFUSED, "column 'extra' of table 'c' is "
            "dropped, but index 'c_extra', which stays, names it");
    plan_is(named, "CREATE TABLE c (id INT64 PRIMARY KEY, k INT32); "
            "CREATE VIEW v (id INT64, extra TEXT) AS SELECT id, extra "
            "FROM c", destroy, PIER_E_MIGRATION_REFUSED, "column 'extra' "
            "of table 'c' is dropped, but view 'v', which stays, names it");
    /* a view the declaration does not state stays, unless it owns the
     * lake */
    plan_is(named, "CREATE TABLE c (id INT64 PRIMARY KEY, k INT32)",
            destroy, PIER_E_MIGRATION_REFUSED, "column 'extra' of table "
            "'c' is dropped, but view 'v', which stays, names it");
}

static void test_views_indexes_boards(void **state)
{
    (void)state;
    static const char base[] =
        "CREATE TABLE t (a INT64, b TEXT);\n"
        "CREATE VIEW v (a INT64) AS SELECT a FROM t;\n"
        "CREATE INDEX t_a ON t (a);\n"
        "CREATE BOARD e (n bigint);\n";
    plan_is(base,
            "CREATE TABLE t (a INT64, b TEXT);\n"
            "CREATE VIEW v (a INT64, b TEXT) AS SELECT a, b FROM t;\n"
            "CREATE UNIQUE INDEX t_a ON t (a);\n"
            "CREATE INDEX t_b ON t (b) WHERE b IS NOT NULL;\n"
            "CREATE INDEX e_n ON e (n);\n"
            "CREATE BOARD e (n double, m text);\n",
            plain, PIER_OK,
            "metadata widen_column e.n\n"
            "metadata add_column e.m\n"
            "metadata replace_view v\n"
            "build replace_index t_a\n"
            "build create_index t_b\n"
            "build create_index e_n");
    /* an index on a renamed column is the same index */
    plan_is(base,
            "CREATE TABLE t (x INT64 RENAMED FROM a, b TEXT);\n"
            "CREATE VIEW v (a INT64) AS SELECT x AS a FROM t;\n"
            "CREATE INDEX t_a ON t (x);\n"
            "CREATE BOARD e (n bigint);\n",
            plain, PIER_OK,
            "metadata rename_column t.x\nmetadata replace_view v");
    plan_is(base, "CREATE TABLE t (a INT64, b TEXT); CREATE BOARD e (n "
                  "integer)", plain, PIER_E_MIGRATION_REFUSED,
            "column 'n' of board 'e'");
    plan_is(base, "CREATE BOARD e (n text)", owns, PIER_OK,
            "metadata widen_column e.n\nmetadata drop_index t_a\n"
            "destructive drop_view v\ndestructive drop_table t");
}

static void test_views_through_renames(void **state)
{
    (void)state;
    static const char memos[] =
        "CREATE TABLE memos (id INT64 PRIMARY KEY, text TEXT);\n"
        "CREATE VIEW mv (id INT64, text TEXT) AS SELECT id, text FROM "
        "memos;\n";
    /* SQLite carries the rename into the view's body: the body declared
     * under the new names is the view as it will be */
    plan_is(memos, "CREATE TABLE memos (id INT64 PRIMARY KEY, body TEXT "
            "RENAMED FROM text); CREATE VIEW mv (id INT64, text TEXT) AS "
            "SELECT id, body FROM memos", plain, PIER_OK,
            "metadata rename_column memos.body");
    /* and the body under the old names is a change, as on an empty lake */
    plan_is(memos, "CREATE TABLE memos (id INT64 PRIMARY KEY, body TEXT "
            "RENAMED FROM text); CREATE VIEW mv (id INT64, text TEXT) AS "
            "SELECT id, text FROM memos", plain, PIER_OK,
            "metadata rename_column memos.body\nmetadata replace_view mv");
    /* a table renamed too */
    plan_is(memos, "CREATE TABLE notes RENAMED FROM memos (id INT64 "
            "PRIMARY KEY, body TEXT RENAMED FROM text); CREATE VIEW mv "
            "(id INT64, text TEXT) AS SELECT id, body FROM notes", plain,
            PIER_OK, "metadata rename_table notes\n"
            "metadata rename_column notes.body");
}

static void test_invalid_against_the_lake(void **state)
{
    (void)state;
    plan_is("", "CREATE TABLE c (r INT64 REFERENCES nowhere)", plain,
            PIER_E_INVALID_SCHEMA, "column 'r' of table 'c' references "
            "table 'nowhere', which is neither declared nor in the lake");
    plan_is("CREATE TABLE p (id INT64)", "CREATE TABLE c (r INT64 "
            "REFERENCES p(id))", plain, PIER_E_INVALID_SCHEMA,
            "references 'p(id)', which is not unique");
    plan_is("", "CREATE TABLE p (id INT64); CREATE TABLE c (r INT64 "
            "REFERENCES p)", plain, PIER_E_INVALID_SCHEMA,
            "which has no primary key of one column");
    plan_is("", "CREATE TABLE p (id INT64 PRIMARY KEY); CREATE TABLE c (r "
            "INT64 REFERENCES p(nope))", plain, PIER_E_INVALID_SCHEMA,
            "references 'p(nope)', which has no such column");
    plan_is("CREATE TABLE p (id INT64 PRIMARY KEY)", "CREATE TABLE c (r "
            "INT64 REFERENCES p)", plain, PIER_OK,
            "metadata create_table c");
    /* a parent the migration drops is no parent: as on an empty lake */
    static const char family[] =
        "CREATE TABLE children (id INT64 PRIMARY KEY, parent_id INT64 "
        "REFERENCES parents(id)); CREATE TABLE parents (id INT64 PRIMARY "
        "KEY)";
    static const char orphan[] =
        "CREATE TABLE children (id INT64 PRIMARY KEY, parent_id INT64 "
        "REFERENCES parents(id))";
    plan_is(family, orphan, owns, PIER_E_INVALID_SCHEMA, "column "
            "'parent_id' of table 'children' references table 'parents', "
            "which is neither declared nor kept in the lake: the "
            "declaration owns the lake and does not state it, so the "
            "migration would drop it");
    plan_is("", orphan, owns, PIER_E_INVALID_SCHEMA, "column "
            "'parent_id' of table 'children' references table 'parents', "
            "which is neither declared nor in the lake");
    plan_is(family, orphan, plain, PIER_OK, "");
    plan_is("", "CREATE INDEX i ON nowhere (a)", plain,
            PIER_E_INVALID_SCHEMA, "index 'i' is on 'nowhere', which is "
            "neither a table nor a board");
    plan_is("CREATE TABLE a (x INT64); CREATE TABLE b (x INT64)",
            "CREATE TABLE b RENAMED FROM a (x INT64); CREATE TABLE c "
            "RENAMED FROM b (x INT64)", plain, PIER_E_INVALID_SCHEMA,
            "tables 'b' and 'c' would both be table 'b' of the lake");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_from_nothing_and_back),
        cmocka_unit_test(test_columns),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_drops),
        cmocka_unit_test(test_views_indexes_boards),
        cmocka_unit_test(test_views_through_renames),
        cmocka_unit_test(test_invalid_against_the_lake),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
