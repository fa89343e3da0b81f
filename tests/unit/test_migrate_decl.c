/*
 * test_migrate_decl.c: declarations read into the migrations' model
 * (src/migrate/schema.h): the reference page's examples in the dialect,
 * every field a declaration sets, and every declaration that cannot mean
 * anything refused with InvalidSchema at the byte that says so.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "migrate/schema.h"

static size_t at(const char *text, const char *needle)
{
    const char *p = strstr(text, needle);
    if (p == NULL)
        fail_msg("'%s' is not in the declaration", needle);
    return (size_t)(p - text);
}

static void read_ok(pier__schema *s, const char *text)
{
    pier_error err;
    pier_status rc = pier__schema_from_declaration(s, text, strlen(text),
                                                   &err);
    if (rc != PIER_OK)
        fail_msg("%s: %s (at %lld)", err.tag, err.message,
                 (long long)err.offset);
}

/* `text` is refused with InvalidSchema at byte `offset`, with `why` in the
 * message, and nothing is left in the model. */
static void refused_at(const char *text, size_t offset, const char *why)
{
    pier__schema s;
    pier_error err;
    pier_status rc = pier__schema_from_declaration(&s, text, strlen(text),
                                                   &err);
    if (rc != PIER_E_INVALID_SCHEMA)
        fail_msg("'%s': %s (%s), want InvalidSchema", text,
                 pier_status_tag(rc), rc == PIER_OK ? "" : err.message);
    assert_string_equal(err.tag, "InvalidSchema");
    if (err.offset != (int64_t)offset)
        fail_msg("'%s': offset %lld, want %zu (%s)", text,
                 (long long)err.offset, offset, err.message);
    if (strstr(err.message, why) == NULL)
        fail_msg("'%s': '%s', want a message with '%s'", text, err.message,
                 why);
    assert_int_equal(s.ntables + s.nviews + s.nindexes + s.nboards, 0);
    pier__schema_free(&s);
    assert_int_equal(pier__schema_from_declaration(&s, text, strlen(text),
                                                   NULL),
                     PIER_E_INVALID_SCHEMA);
    pier__schema_free(&s);
}

/* The same, at the first occurrence of `where`. */
static void refused(const char *text, const char *where, const char *why)
{
    refused_at(text, at(text, where), why);
}

static const char reference[] =
    "-- the examples of the schema page, in Pier's dialect\n"
    "CREATE TABLE people (\n"
    "  name TEXT NOT NULL UNIQUE,\n"
    "  score DOUBLE NOT NULL,\n"
    "  joined INSTANT\n"
    ");\n"
    "CREATE TABLE tickets (\n"
    "  id INT64 PRIMARY KEY AUTOINCREMENT,\n"
    "  status ENUM('open', 'closed', 'reopened') NOT NULL DEFAULT 'open'\n"
    ");\n"
    "CREATE TABLE notes (\n"
    "  id INT64 PRIMARY KEY AUTOINCREMENT,\n"
    "  status TEXT NOT NULL DEFAULT 'draft' BACKFILL 'archived',\n"
    "  created instant NOT NULL DEFAULT now() BACKFILL now(),\n"
    "  body TEXT NOT NULL\n"
    ");\n"
    "CREATE TABLE children (\n"
    "  id INT64 PRIMARY KEY,\n"
    "  parent_id INT64 NOT NULL REFERENCES parents(id) ON DELETE CASCADE,\n"
    "  qty INT64 NOT NULL,\n"
    "  CONSTRAINT positive_qty CHECK (qty > 0)\n"
    ");\n"
    "CREATE TABLE parents (id INT64 PRIMARY KEY, label TEXT NOT NULL);\n"
    "CREATE VIEW active_customers (customer_id INT64, name TEXT) AS\n"
    "  SELECT customer_id, name FROM customers WHERE status = 'active';\n"
    "CREATE BOARD events (kind text, n decimal(12,2)) STRICT;\n"
    "CREATE UNIQUE INDEX people_score ON people (score) WHERE score > 0;\n";

static void test_reference_examples(void **state)
{
    (void)state;
    pier__schema s;
    read_ok(&s, reference);
    assert_int_equal(s.ntables, 5);
    assert_int_equal(s.nviews, 1);
    assert_int_equal(s.nindexes, 1);
    assert_int_equal(s.nboards, 1);

    const pier__mtable *people = pier__schema_table(&s, "PEOPLE");
    assert_non_null(people);
    assert_string_equal(people->name, "people");
    assert_int_equal(people->offset, at(reference, "people ("));
    assert_int_equal(people->ncolumns, 3);
    assert_string_equal(people->columns[1].spelling, "DOUBLE");
    assert_true(people->columns[0].not_null);
    assert_false(people->columns[2].not_null);
    assert_int_equal(people->nkeys, 1);
    assert_false(people->keys[0].primary);
    assert_int_equal(people->keys[0].ncolumns, 1);
    assert_int_equal(people->keys[0].columns[0], 0);
    assert_int_equal(people->columns[0].id, 0);

    const pier__mtable *tickets = pier__schema_table(&s, "tickets");
    assert_true(tickets->columns[0].autoincrement);
    assert_true(tickets->columns[0].not_null);     /* the primary key */
    assert_string_equal(tickets->columns[1].spelling,
                        "ENUM('open','closed','reopened')");
    assert_int_equal(tickets->columns[1].type.t.nlabels, 3);
    assert_string_equal(tickets->columns[1].type.labels, "open");
    assert_string_equal(tickets->columns[1].dflt.sql, "'open'");
    assert_true(tickets->keys[0].primary);

    const pier__mtable *notes = pier__schema_table(&s, "notes");
    assert_string_equal(notes->columns[1].dflt.sql, "'draft'");
    assert_string_equal(notes->columns[1].backfill.sql, "'archived'");
    assert_string_equal(notes->columns[2].spelling, "INSTANT");
    assert_true(notes->columns[2].dflt.now);
    assert_null(notes->columns[2].dflt.sql);
    assert_true(notes->columns[2].backfill.now);

    const pier__mtable *children = pier__schema_table(&s, "children");
    assert_int_equal(children->nchecks, 1);
    assert_string_equal(children->checks[0].name, "positive_qty");
    assert_string_equal(children->checks[0].expr, "qty > 0");
    assert_int_equal(children->nfks, 1);
    assert_int_equal(children->fks[0].column, 1);
    assert_string_equal(children->fks[0].table, "parents");
    assert_string_equal(children->fks[0].parent, "id");
    assert_int_equal(children->fks[0].on_delete, PIER__FK_CASCADE);
    assert_int_equal(children->fks[0].offset,
                     at(reference, "REFERENCES parents"));
    assert_int_equal(pier__mtable_column(children, "QTY"), 2);
    assert_int_equal(pier__mtable_column(children, "nope"), -1);

    const pier__mview *v = pier__schema_view(&s, "active_customers");
    assert_non_null(v);
    assert_int_equal(v->ncolumns, 2);
    assert_string_equal(v->columns[0].name, "customer_id");
    assert_string_equal(v->columns[0].spelling, "INT64");
    assert_string_equal(v->body, "SELECT customer_id, name FROM customers "
                                 "WHERE status = 'active'");

    const pier__mboard *b = pier__schema_board(&s, "events");
    assert_non_null(b);
    assert_true(b->strict);
    assert_int_equal(b->ncolumns, 2);
    assert_int_equal(b->columns[0].type.kind, PIER_KIND_TEXT);
    assert_string_equal(pier__type_name(b->columns[1].type),
                        "decimal(12,2)");

    const pier__mindex *x = pier__schema_index(&s, "people_score");
    assert_true(x->unique);
    assert_string_equal(x->table, "people");
    assert_string_equal(x->body, "(score) WHERE score > 0");
    assert_null(pier__schema_table(&s, "active_customers"));
    assert_null(pier__schema_view(&s, "people"));
    pier__schema_free(&s);

    /* An empty declaration declares nothing. */
    read_ok(&s, " -- nothing\n;;");
    assert_int_equal(s.ntables + s.nviews + s.nindexes + s.nboards, 0);
    pier__schema_free(&s);
}

static void test_renames_and_keys(void **state)
{
    (void)state;
    static const char text[] =
        "CREATE TABLE people RENAMED FROM persons (\n"
        "  full_name TEXT NOT NULL RENAMED FROM name,\n"
        "  a INT32, b INT32 NULL,\n"
        "  CONSTRAINT ab UNIQUE (a, b),\n"
        "  PRIMARY KEY (full_name),\n"
        "  CONSTRAINT owner FOREIGN KEY (b) REFERENCES owners ON DELETE SET "
        "NULL)";
    pier__schema s;
    read_ok(&s, text);
    const pier__mtable *t = &s.tables[0];
    assert_string_equal(t->renamed_from, "persons");
    assert_string_equal(t->columns[0].renamed_from, "name");
    assert_null(t->columns[1].renamed_from);
    assert_int_equal(t->nkeys, 2);
    assert_string_equal(t->keys[0].name, "ab");
    assert_int_equal(t->keys[0].ncolumns, 2);
    assert_int_equal(t->keys[0].columns[1], 2);
    assert_true(t->keys[1].primary);
    assert_true(t->columns[0].not_null);
    assert_false(t->columns[2].not_null);
    assert_string_equal(t->fks[0].name, "owner");
    assert_null(t->fks[0].parent);
    assert_int_equal(t->fks[0].on_delete, PIER__FK_SET_NULL);
    pier__schema_free(&s);
}

static void test_refusals(void **state)
{
    (void)state;
    /* what the front-end refuses comes through */
    refused("CREATE TABLE t (a INT64); DROP TABLE u", "DROP",
            "DROP statements are not allowed in a declaration");
    /* names */
    refused("CREATE TABLE _pier_x (a INT64)", "_pier_x",
            "the table name '_pier_x' is reserved");
    refused("CREATE VIEW sqlite_v (a INT64) AS SELECT 1", "sqlite_v",
            "the view name 'sqlite_v' is reserved");
    refused("CREATE TABLE t (a INT64); CREATE VIEW T (a INT64) AS SELECT 1",
            "T (", "the declaration names table 't' and view 'T'");
    refused("CREATE TABLE t (a INT64); CREATE INDEX t ON t (a)", "t ON",
            "the declaration names table 't' and index 't'");
    refused("CREATE TABLE t (a INT64); CREATE TABLE t (b INT64)",
            "t (b", "names table 't' and table 't'");
    refused_at("CREATE BOARD b; CREATE BOARD b", 29,
               "the declaration names board 'b' twice");
    refused("CREATE BOARD b (x text); CREATE TABLE b (a INT64)", "b (a",
            "a board and a table of one name cannot be told apart");
    refused_at("CREATE TABLE b (a INT64); CREATE BOARD b", 39,
               "names table 'b' and board 'b': a board and a table of one "
               "name cannot be told apart");
    refused("CREATE BOARD Bad", "Bad", "a board id matches");
    /* columns */
    refused("CREATE TABLE t (a INT64, A TEXT)", "A TEXT",
            "table 't' names column 'A' twice");
    refused("CREATE TABLE t (_a INT64)", "_a", "is reserved");
    refused("CREATE TABLE t (a)", ")", "column 'a' declares no type");
    refused("CREATE TABLE t (a STRING)", "STRING", "column 'a': ");
    refused("CREATE VIEW v (a INT64, a TEXT) AS SELECT 1, 2", "a TEXT",
            "view 'v' names column 'a' twice");
    refused("CREATE VIEW v (a NUMBER) AS SELECT 1", "NUMBER",
            "column 'a': ");
    refused("CREATE BOARD b (id text)", "id text",
            "column 'id' of board 'b' is a base column");
    refused("CREATE BOARD b (x text, X bigint)", "X bigint",
            "board 'b' names column 'X' twice");
    refused("CREATE BOARD b (x number)", "number",
            "column 'x' of board 'b': ");
    /* values */
    refused("CREATE TABLE t (a INT64 BACKFILL 1)", "1)",
            "column 'a' is nullable: rows stored before it existed read "
            "NULL, so a BACKFILL has nothing to do");
    refused("CREATE TABLE t (a INT64 NOT NULL BACKFILL NULL)", "NULL)",
            "its BACKFILL cannot be NULL");
    refused("CREATE TABLE t (a INT64 NOT NULL DEFAULT null)", "null)",
            "its DEFAULT cannot be NULL");
    refused("CREATE TABLE t (a INT64 DEFAULT now())", "now",
            "now() gives an instant, for INSTANT, DATE, TIME and DATETIME "
            "columns, not INT64");
    refused("CREATE TABLE t (a INT64 NOT NULL BACKFILL (1 + 1))", "(1 + 1)",
            "BACKFILL of column 'a' is an expression");
    refused("CREATE TABLE t (a TEXT DEFAULT (lower('X')))", "(lower",
            "a DEFAULT is a literal");
    /* a literal the column's type does not take */
    refused("CREATE TABLE t (a ENUM('x', 'y') NOT NULL DEFAULT 'z')", "'z'",
            "DEFAULT 'z' of column 'a' is not a value of ENUM('x','y'): not "
            "one of the labels");
    refused("CREATE TABLE t (a INT8 NOT NULL BACKFILL -300)", "-300",
            "BACKFILL -300 of column 'a' is not a value of INT8");
    refused("CREATE TABLE t (a DATE DEFAULT '2026-02-30')", "'2026-02-30'",
            "DEFAULT '2026-02-30' of column 'a' is not a value of DATE");
    refused("CREATE TABLE t (a VARCHAR(3) DEFAULT 'it''s')", "'it''s'",
            "is not a value of VARCHAR(3): longer than the column's length");
    /* keys */
    refused("CREATE TABLE t (a INT64 PRIMARY KEY, b INT64, PRIMARY KEY (b))",
            "PRIMARY KEY (b)", "table 't' declares two primary keys");
    refused("CREATE TABLE t (a INT64, UNIQUE (a, c))", "UNIQUE (a, c)",
            "table 't' has no column 'c'");
    refused("CREATE TABLE t (a INT64, UNIQUE (a, A))", "UNIQUE",
            "a key of table 't' names column 'A' twice");
    refused("CREATE TABLE t (a INT64 UNIQUE AUTOINCREMENT)", "a INT64",
            "column 'a' cannot be AUTOINCREMENT: the counter takes the "
            "table's integer primary key alone (INT64 PRIMARY KEY "
            "AUTOINCREMENT)");
    refused("CREATE TABLE t (a TEXT PRIMARY KEY AUTOINCREMENT)", "a TEXT",
            "(INT64 PRIMARY KEY AUTOINCREMENT)");
    refused("CREATE TABLE t (a INT64 PRIMARY KEY AUTOINCREMENT DEFAULT 1)",
            "a INT64", "the counter fills it, so it takes no DEFAULT");
    /* checks and foreign keys */
    refused("CREATE TABLE t (a INT64 CONSTRAINT c CHECK (a > 0), "
            "CONSTRAINT C CHECK (a < 9))", "CONSTRAINT C",
            "table 't' names check 'C' twice");
    refused("CREATE TABLE t (a INT64 NOT NULL REFERENCES p ON DELETE SET "
            "NULL)", "REFERENCES", "column 'a' is NOT NULL: ON DELETE SET "
            "NULL needs a nullable column");
    refused("CREATE TABLE t (a INT64, FOREIGN KEY (b) REFERENCES p(x))",
            "REFERENCES", "table 't' has no column 'b'");
    refused("CREATE TABLE t (a INT64 REFERENCES p, FOREIGN KEY (a) "
            "REFERENCES q)", "REFERENCES q", "column 'a' of table 't' "
            "references two parents");
    /* renames */
    refused("CREATE TABLE t RENAMED FROM T (a INT64)", "T (a",
            "table 't' is RENAMED FROM its own name");
    refused("CREATE TABLE t RENAMED FROM o (a INT64); CREATE TABLE u "
            "RENAMED FROM O (a INT64)", "O (a",
            "tables 't' and 'u' are both RENAMED FROM 'O'");
    refused("CREATE TABLE t (a INT64 RENAMED FROM a)", "a)",
            "column 'a' is RENAMED FROM its own name");
    refused("CREATE TABLE t (a INT64 RENAMED FROM x, b INT64 RENAMED FROM "
            "x)", "x)", "columns 'a' and 'b' are both RENAMED FROM 'x'");
    refused("CREATE TABLE t (a INT64) WITHOUT ROWID", "t (",
            "WITHOUT ROWID has no place in a declaration");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_examples),
        cmocka_unit_test(test_renames_and_keys),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
