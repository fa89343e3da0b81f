/*
 * test_sql.c: the SQL front-end (src/sql/sql.h): splitting a script where
 * SQLite would, the kind of every statement, the refused ones with where
 * they start, CREATE TABLE's columns and constraints as written, ALTER
 * TABLE's forms, the malformed heads and unterminated tokens with the
 * byte they point at, the quoting helpers, and declarations (every
 * constraint read, the clauses of pier migrate, what they refuse).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql.h"

/* The byte offset of `needle` in `sql` (its first occurrence). */
static size_t at(const char *sql, const char *needle)
{
    const char *p = strstr(sql, needle);
    if (p == NULL)
        fail_msg("'%s' is not in '%s'", needle, sql);
    return (size_t)(p - sql);
}

/* Parses `sql`, which must hold `n` statements. */
static void parse_ok(pier__sql_script *s, const char *sql, size_t n)
{
    pier_error err;
    pier_status rc = pier__sql_parse(s, sql, strlen(sql), &err);
    if (rc != PIER_OK)
        fail_msg("'%s': %s: %s (at %lld)", sql, err.tag, err.message,
                 (long long)err.offset);
    if (s->nstmts != n)
        fail_msg("'%s': %zu statements, want %zu", sql, s->nstmts, n);
}

/* Parses the one statement `sql` and checks its kind; *s must be freed. */
static const pier__sql_stmt *one(pier__sql_script *s, const char *sql,
                                 pier__stmt_kind kind)
{
    parse_ok(s, sql, 1);
    if (s->stmts[0].kind != kind)
        fail_msg("'%s' is %s, want %s", sql,
                 pier__stmt_kind_name(s->stmts[0].kind),
                 pier__stmt_kind_name(kind));
    return &s->stmts[0];
}

/* Asserts that `sql` fails with `status` at `offset`, with a message
 * holding `why`; freeing the script afterwards is safe. */
typedef pier_status (*parse_fn)(pier__sql_script *, const char *, size_t,
                                pier_error *);

static void parse_bad_with(parse_fn parse, const char *sql, size_t len,
                           pier_status status, size_t offset,
                           const char *why)
{
    pier__sql_script s;
    pier_error err;
    pier_status rc = parse(&s, sql, len, &err);
    if (rc != status)
        fail_msg("'%s': %s (%s), want %s", sql, pier_status_tag(rc),
                 err.message, pier_status_tag(status));
    assert_int_equal(err.status, status);
    assert_string_equal(err.tag, pier_status_tag(status));
    if (err.offset != (int64_t)offset)
        fail_msg("'%s': offset %lld, want %zu (%s)", sql,
                 (long long)err.offset, offset, err.message);
    if (strstr(err.message, why) == NULL)
        fail_msg("'%s': '%s', want a message with '%s'", sql, err.message,
                 why);
    assert_int_equal(s.nstmts, 0);
    assert_null(s.stmts);
    pier__sql_script_free(&s);
    /* Without an error struct too. */
    assert_int_equal(parse(&s, sql, len, NULL), status);
    pier__sql_script_free(&s);
}

static void parse_bad(const char *sql, size_t len, pier_status status,
                      size_t offset, const char *why)
{
    parse_bad_with(pier__sql_parse, sql, len, status, offset, why);
}

static void bad(const char *sql, pier_status status, size_t offset,
                const char *why)
{
    parse_bad(sql, strlen(sql), status, offset, why);
}

/* ---- kinds ---- */

static void test_kinds(void **state)
{
    (void)state;
    static const struct {
        const char *sql;
        pier__stmt_kind kind;
        const char *name;          /* NULL: none */
    } cases[] = {
        { "SELECT 1", PIER__STMT_SELECT, NULL },
        { "select 1", PIER__STMT_SELECT, NULL },
        { "SeLeCt * FROM t", PIER__STMT_SELECT, NULL },
        { "VALUES (1), (2)", PIER__STMT_SELECT, NULL },
        { "WITH a AS (SELECT 1) SELECT * FROM a", PIER__STMT_SELECT, NULL },
        { "with recursive r(n) as (select 1 union all select n + 1 from r "
          "where n < 3) select n from r", PIER__STMT_SELECT, NULL },
        { "WITH a AS MATERIALIZED (SELECT 1), b(x, y) AS NOT MATERIALIZED "
          "(SELECT 2, (3)) VALUES (4)", PIER__STMT_SELECT, NULL },
        { "WITH \"a b\" AS (SELECT ')') SELECT 1", PIER__STMT_SELECT, NULL },
        { "WITH a AS (SELECT 1) INSERT INTO t SELECT * FROM a",
          PIER__STMT_INSERT, "t" },
        { "WITH a AS (SELECT 1) REPLACE INTO t VALUES (1)",
          PIER__STMT_INSERT, "t" },
        { "WITH a AS (SELECT 1) UPDATE t SET x = 1", PIER__STMT_UPDATE,
          "t" },
        { "WITH a(x) AS (SELECT 1) DELETE FROM t WHERE x IN a",
          PIER__STMT_DELETE, "t" },
        { "INSERT INTO t VALUES (1)", PIER__STMT_INSERT, "t" },
        { "insert or replace into t (a) values (1)", PIER__STMT_INSERT,
          "t" },
        { "REPLACE INTO t VALUES (1)", PIER__STMT_INSERT, "t" },
        { "replace into t values (1)", PIER__STMT_INSERT, "t" },
        { "UPDATE t SET a = 1", PIER__STMT_UPDATE, "t" },
        { "UPDATE OR IGNORE t SET a = 1", PIER__STMT_UPDATE, "t" },
        { "DELETE FROM t", PIER__STMT_DELETE, "t" },
        { "delete from t where a = ';'", PIER__STMT_DELETE, "t" },
        { "CREATE TABLE t(a)", PIER__STMT_CREATE_TABLE, "t" },
        { "CREATE INDEX i ON t(a)", PIER__STMT_CREATE_INDEX, "i" },
        { "CREATE UNIQUE INDEX i ON t(a)", PIER__STMT_CREATE_INDEX, "i" },
        { "CREATE VIEW v AS SELECT 1", PIER__STMT_CREATE_VIEW, "v" },
        { "ALTER TABLE t ADD COLUMN c", PIER__STMT_ADD_COLUMN, "t" },
        { "ALTER TABLE t RENAME COLUMN a TO b", PIER__STMT_RENAME_COLUMN,
          "t" },
        { "ALTER TABLE t RENAME TO u", PIER__STMT_RENAME_TABLE, "t" },
        { "ALTER TABLE t DROP COLUMN c", PIER__STMT_DROP_COLUMN, "t" },
        { "DROP TABLE t", PIER__STMT_DROP_TABLE, "t" },
        { "DROP INDEX i", PIER__STMT_DROP_INDEX, "i" },
        { "DROP VIEW v", PIER__STMT_DROP_VIEW, "v" },
        { "BEGIN", PIER__STMT_BEGIN, NULL },
        { "begin deferred", PIER__STMT_BEGIN, NULL },
        { "BEGIN IMMEDIATE TRANSACTION", PIER__STMT_BEGIN, NULL },
        { "BEGIN EXCLUSIVE", PIER__STMT_BEGIN, NULL },
        { "BEGIN TRANSACTION", PIER__STMT_BEGIN, NULL },
        { "COMMIT", PIER__STMT_COMMIT, NULL },
        { "commit transaction", PIER__STMT_COMMIT, NULL },
        { "END", PIER__STMT_COMMIT, NULL },
        { "End Transaction", PIER__STMT_COMMIT, NULL },
        { "ROLLBACK", PIER__STMT_ROLLBACK, NULL },
        { "ROLLBACK TRANSACTION", PIER__STMT_ROLLBACK, NULL },
        { "/* lead */ -- and a line\n  SELECT 1", PIER__STMT_SELECT, NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pier__sql_script s;
        const pier__sql_stmt *st = one(&s, cases[i].sql, cases[i].kind);
        if (cases[i].name == NULL) {
            assert_null(st->name);
        } else {
            assert_non_null(st->name);
            assert_string_equal(st->name, cases[i].name);
        }
        assert_null(st->schema);
        pier__sql_script_free(&s);
    }
}

static void test_write_targets(void **state)
{
    (void)state;
    pier__sql_script s;
    const char *sql = "insert or replace into \"My \"\"T\"\"\" (a) values (1)";
    const pier__sql_stmt *st = one(&s, sql, PIER__STMT_INSERT);
    assert_string_equal(st->name, "My \"T\"");
    assert_int_equal(st->name_offset, at(sql, "\"My"));
    assert_null(st->schema);
    pier__sql_script_free(&s);

    sql = "DELETE FROM temp.[t;1] WHERE 1";
    st = one(&s, sql, PIER__STMT_DELETE);
    assert_string_equal(st->schema, "temp");
    assert_string_equal(st->name, "t;1");
    assert_int_equal(st->name_offset, at(sql, "[t"));
    pier__sql_script_free(&s);

    sql = "WITH a AS (SELECT 1) REPLACE INTO main . `b``c` VALUES (1)";
    st = one(&s, sql, PIER__STMT_INSERT);
    assert_string_equal(st->schema, "main");
    assert_string_equal(st->name, "b`c");
    assert_int_equal(st->name_offset, at(sql, "`b"));
    pier__sql_script_free(&s);

    sql = "UPDATE OR ROLLBACK \"main\".'t' SET a = 1";
    st = one(&s, sql, PIER__STMT_UPDATE);
    assert_string_equal(st->schema, "main");
    assert_string_equal(st->name, "t");
    pier__sql_script_free(&s);
}

static void test_kind_names(void **state)
{
    (void)state;
    assert_string_equal(pier__stmt_kind_name(PIER__STMT_SELECT), "SELECT");
    assert_string_equal(pier__stmt_kind_name(PIER__STMT_INSERT), "INSERT");
    assert_string_equal(pier__stmt_kind_name(PIER__STMT_UPDATE), "UPDATE");
    assert_string_equal(pier__stmt_kind_name(PIER__STMT_DELETE), "DELETE");
    assert_string_equal(pier__stmt_kind_name(PIER__STMT_CREATE_TABLE),
                        "CREATE TABLE");
    assert_string_equal(pier__stmt_kind_name(PIER__STMT_CREATE_INDEX),
                        "CREATE INDEX");
    assert_string_equal(pier__stmt_kind_name(PIER__STMT_CREATE_VIEW),
                        "CREATE VIEW");
    assert_string_equal(pier__stmt_kind_name(PIER__STMT_ADD_COLUMN),
                        "ALTER TABLE ADD COLUMN");
    assert_string_equal(pier__stmt_kind_name(PIER__STMT_RENAME_COLUMN),
                        "ALTER TABLE RENAME COLUMN");
    assert_string_equal(pier__stmt_kind_name(PIER__STMT_RENAME_TABLE),
                        "ALTER TABLE RENAME TO");
    assert_string_equal(pier__stmt_kind_name(PIER__STMT_DROP_COLUMN),
                        "ALTER TABLE DROP COLUMN");
    assert_string_equal(pier__stmt_kind_name(PIER__STMT_DROP_TABLE),
                        "DROP TABLE");
    assert_string_equal(pier__stmt_kind_name(PIER__STMT_DROP_INDEX),
                        "DROP INDEX");
    assert_string_equal(pier__stmt_kind_name(PIER__STMT_DROP_VIEW),
                        "DROP VIEW");
    assert_string_equal(pier__stmt_kind_name(PIER__STMT_BEGIN), "BEGIN");
    assert_string_equal(pier__stmt_kind_name(PIER__STMT_COMMIT), "COMMIT");
    assert_string_equal(pier__stmt_kind_name(PIER__STMT_ROLLBACK),
                        "ROLLBACK");
}

/* ---- splitting ---- */

/* Checks statement i's text. */
static void text_is(const pier__sql_script *s, const char *sql, size_t i,
                    const char *want)
{
    const pier__sql_stmt *st = &s->stmts[i];
    if (st->len != strlen(want) || memcmp(sql + st->offset, want,
                                          st->len) != 0)
        fail_msg("statement %zu is '%.*s', want '%s'", i, (int)st->len,
                 sql + st->offset, want);
}

static void test_split(void **state)
{
    (void)state;
    pier__sql_script s;
    const char *sql = "SELECT 1; SELECT 2";
    parse_ok(&s, sql, 2);
    assert_int_equal(s.stmts[0].offset, 0);
    assert_int_equal(s.stmts[0].len, 8);
    assert_int_equal(s.stmts[1].offset, 10);
    assert_int_equal(s.stmts[1].len, 8);
    pier__sql_script_free(&s);

    /* Semicolons in strings, quoted names of all three kinds, comments. */
    sql = "SELECT ';', 'it''s; so'; SELECT \"a;b\" FROM [c;d]; "
          "SELECT `e;``f`; SELECT 1 -- ; not here\n; SELECT /* ; */ 2";
    parse_ok(&s, sql, 5);
    text_is(&s, sql, 0, "SELECT ';', 'it''s; so'");
    text_is(&s, sql, 1, "SELECT \"a;b\" FROM [c;d]");
    text_is(&s, sql, 2, "SELECT `e;``f`");
    text_is(&s, sql, 3, "SELECT 1");
    text_is(&s, sql, 4, "SELECT /* ; */ 2");
    pier__sql_script_free(&s);

    /* Leading and trailing space and comments are not the statement's. */
    sql = "  /* c; */ -- d;\n\t SELECT 1  /* t; */ -- u\n ;\n";
    parse_ok(&s, sql, 1);
    assert_int_equal(s.stmts[0].offset, at(sql, "SELECT"));
    text_is(&s, sql, 0, "SELECT 1");
    pier__sql_script_free(&s);

    /* Empty statements and statements of comments only are skipped. */
    sql = ";;  ; -- only\n /* c */ ; SELECT 1 ;; ; /* end */";
    parse_ok(&s, sql, 1);
    text_is(&s, sql, 0, "SELECT 1");
    pier__sql_script_free(&s);
    parse_ok(&s, "", 0);
    assert_null(s.stmts);
    pier__sql_script_free(&s);
    parse_ok(&s, "  \n-- nothing", 0);
    pier__sql_script_free(&s);
    assert_int_equal(pier__sql_parse(&s, NULL, 0, NULL), PIER_OK);
    assert_int_equal(s.nstmts, 0);
    pier__sql_script_free(&s);

    /* A block comment left open runs to the end, as in SQLite... */
    parse_ok(&s, "/* open; SELECT 2", 0);
    pier__sql_script_free(&s);
    sql = "SELECT 1; SELECT 2 /* open; SELECT 3";
    parse_ok(&s, sql, 2);
    text_is(&s, sql, 1, "SELECT 2");
    pier__sql_script_free(&s);
    /* ...but "/ *" as the last two bytes is a '/' and a '*'. */
    sql = "SELECT 1 /*";
    parse_ok(&s, sql, 1);
    text_is(&s, sql, 0, "SELECT 1 /*");
    pier__sql_script_free(&s);

    /* A Tcl-style parameter may hold a ';': "$a(;)" is one token. */
    sql = "SELECT $a(;), $b::c(x;y), :d; SELECT @e, ?1, ?";
    parse_ok(&s, sql, 2);
    text_is(&s, sql, 0, "SELECT $a(;), $b::c(x;y), :d");
    text_is(&s, sql, 1, "SELECT @e, ?1, ?");
    pier__sql_script_free(&s);

    /* A blob, numbers and operators are tokens like any other. */
    sql = "SELECT x'00ff', X'', 1.5e-3, .5, 0x1F, 1_000, a->>'$.b', "
          "a || b, a <> b;SELECT 2";
    parse_ok(&s, sql, 2);
    text_is(&s, sql, 1, "SELECT 2");
    pier__sql_script_free(&s);

    /* A byte order mark is white space. */
    sql = "\xEF\xBB\xBFSELECT 1";
    parse_ok(&s, sql, 1);
    assert_int_equal(s.stmts[0].offset, 3);
    pier__sql_script_free(&s);

    /* The script's length, not a NUL, ends it. */
    assert_int_equal(pier__sql_parse(&s, "SELECT 1; SELECT 2", 8, NULL),
                     PIER_OK);
    assert_int_equal(s.nstmts, 1);
    assert_int_equal(s.stmts[0].len, 8);
    pier__sql_script_free(&s);
}

static void test_split_kinds(void **state)
{
    (void)state;
    pier__sql_script s;
    const char *sql =
        "begin;\n"
        "create table t(a int64);\n"
        "insert into t values (1);\n"
        "with x as (select 1) select * from x;\n"
        "end";
    parse_ok(&s, sql, 5);
    assert_int_equal(s.stmts[0].kind, PIER__STMT_BEGIN);
    assert_int_equal(s.stmts[1].kind, PIER__STMT_CREATE_TABLE);
    assert_int_equal(s.stmts[2].kind, PIER__STMT_INSERT);
    assert_int_equal(s.stmts[3].kind, PIER__STMT_SELECT);
    assert_int_equal(s.stmts[4].kind, PIER__STMT_COMMIT);
    text_is(&s, sql, 1, "create table t(a int64)");
    assert_int_equal(s.stmts[1].offset, at(sql, "create"));
    assert_int_equal(s.stmts[4].offset, at(sql, "end"));
    pier__sql_script_free(&s);
}

/* ---- refused statements ---- */

static void test_refused(void **state)
{
    (void)state;
    bad("PRAGMA foreign_keys = ON", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "PRAGMA statements are not allowed: the engine keeps its "
        "database's settings");
    bad("SELECT 1; pragma journal_mode", PIER_E_ENTITY_NOT_ALLOWED, 10,
        "PRAGMA statements are not allowed");
    bad("SELECT 1;\n  ATTACH 'x.db' AS x", PIER_E_ENTITY_NOT_ALLOWED, 12,
        "ATTACH statements are not allowed: a script works on its own "
        "lake's database");
    bad("DETACH x", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "DETACH statements are not allowed");
    bad("VACUUM", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "VACUUM statements are not allowed: the engine maintains its "
        "database itself");
    bad("/* c */ Analyze", PIER_E_ENTITY_NOT_ALLOWED, 8,
        "ANALYZE statements are not allowed");
    bad("REINDEX t", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "REINDEX statements are not allowed");
    bad("BEGIN; SAVEPOINT a", PIER_E_ENTITY_NOT_ALLOWED, 7,
        "SAVEPOINT statements are not allowed: savepoints are not "
        "supported");
    bad("RELEASE SAVEPOINT a", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "RELEASE statements are not allowed: savepoints are not supported");
    bad("ROLLBACK TO a", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "ROLLBACK TO statements are not allowed: savepoints are not "
        "supported");
    bad("SELECT 1; rollback transaction to savepoint a",
        PIER_E_ENTITY_NOT_ALLOWED, 10, "ROLLBACK TO statements are not "
                                       "allowed");
    bad("EXPLAIN QUERY PLAN SELECT 1", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "EXPLAIN statements are not allowed: query plans are not part of "
        "the dialect");
    bad("CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; "
        "SELECT 2; END; SELECT 3", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "CREATE TRIGGER statements are not allowed: triggers are not "
        "supported");
    bad("SELECT 1; CREATE TEMP TRIGGER tr BEFORE DELETE ON t BEGIN "
        "DELETE FROM u; END", PIER_E_ENTITY_NOT_ALLOWED, 10,
        "CREATE TRIGGER statements are not allowed");
    bad("create temporary trigger tr", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "CREATE TRIGGER statements are not allowed");
    bad("CREATE VIRTUAL TABLE f USING fts5(a)", PIER_E_ENTITY_NOT_ALLOWED,
        0, "CREATE VIRTUAL TABLE statements are not allowed: virtual "
           "tables are not supported");
    bad("DROP TRIGGER tr", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "DROP TRIGGER statements are not allowed: triggers are not "
        "supported");
    bad("SELECT 1;\nselec 2", PIER_E_ENTITY_NOT_ALLOWED, 10,
        "SELEC statements are not allowed: a statement is SELECT, VALUES, "
        "WITH, INSERT, REPLACE, UPDATE, DELETE, CREATE, ALTER, DROP, BEGIN, "
        "COMMIT, END or ROLLBACK");
    bad("create function f() returns int", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "CREATE FUNCTION statements are not allowed: CREATE makes a TABLE, "
        "an INDEX, a VIEW or a BOARD");
    bad("CREATE TEMP SEQUENCE q", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "CREATE TEMP SEQUENCE statements are not allowed");
    bad("DROP SCHEMA x", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "DROP SCHEMA statements are not allowed: DROP removes a TABLE, an "
        "INDEX or a VIEW");
    bad("ALTER VIEW v RENAME TO w", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "ALTER VIEW statements are not allowed: ALTER changes a TABLE");

    /* The first statement at fault is the one reported, and a refused
     * statement is refused whatever follows its keywords. */
    bad("PRAGMA x; SELECT 'open", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "PRAGMA statements are not allowed");
    bad("PRAGMA a('x", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "PRAGMA statements are not allowed");
    bad("VACUUM (((", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "VACUUM statements are not allowed");
    bad("SELECT 'open; PRAGMA x", PIER_E_QUERY_FAILED, 7,
        "an unterminated string: 'open; PRAGMA x");
    bad("CREATE TABLE; PRAGMA x", PIER_E_QUERY_FAILED, 12,
        "expected the table's name after CREATE TABLE, found the end of "
        "the statement");
}

/* ---- CREATE TABLE ---- */

typedef struct col_want {
    const char *name;
    const char *type;
    const char *constraints;
    bool readonly, primary_key, generated, collate, references_update;
} col_want;

static void column_is(const pier__sql_column *c, const col_want *w)
{
    assert_string_equal(c->name, w->name);
    assert_string_equal(c->type, w->type);
    assert_string_equal(c->constraints, w->constraints);
    if (c->readonly != w->readonly || c->primary_key != w->primary_key ||
        c->generated != w->generated || c->collate != w->collate ||
        c->references_update != w->references_update)
        fail_msg("column '%s': readonly %d primary_key %d generated %d "
                 "collate %d references_update %d, want %d %d %d %d %d",
                 c->name, c->readonly, c->primary_key, c->generated,
                 c->collate, c->references_update, w->readonly,
                 w->primary_key, w->generated, w->collate,
                 w->references_update);
}

static void test_create_table_columns(void **state)
{
    (void)state;
    static const char sql[] =
        "CREATE TABLE IF NOT EXISTS main.\"Order Lines\" (\n"
        "  id INT64 PRIMARY KEY READONLY,\n"
        "  \"order\" TEXT NOT NULL,\n"
        "  [key] DECIMAL ( 12 , 2 ) DEFAULT 0,\n"
        "  `grp` ENUM('a', 'b,c') READONLY NOT NULL,\n"
        "  tags TEXT[],\n"
        "  m INT64[][] CHECK (m IN (1, 2, 3)),\n"
        "  plain,\n"
        "  d DOUBLE PRECISION DEFAULT 'READONLY',\n"
        "  r INT64 REFERENCES parent(id, \"x\") ON DELETE SET NULL "
        "ON UPDATE CASCADE,\n"
        "  g INT64 GENERATED ALWAYS AS (a + b) STORED,\n"
        "  v INT64 AS (x) VIRTUAL,\n"
        "  c TEXT COLLATE NOCASE,\n"
        "  key INT8 DEFAULT readonly,\n"
        "  primary_x INT8 NOT NULL READONLY DEFAULT (1),\n"
        "  'str''name' TEXT /* why */ READONLY,\n"
        "  ro READONLY,\n"
        "  nt NOT NULL\n"
        ")";
    static const col_want want[] = {
        { "id", "INT64", "PRIMARY KEY", true, true, false, false, false },
        { "order", "TEXT", "NOT NULL", false, false, false, false, false },
        { "key", "DECIMAL ( 12 , 2 )", "DEFAULT 0", false, false, false,
          false, false },
        { "grp", "ENUM('a', 'b,c')", "NOT NULL", true, false, false, false,
          false },
        { "tags", "TEXT[]", "", false, false, false, false, false },
        { "m", "INT64[][]", "CHECK (m IN (1, 2, 3))", false, false, false,
          false, false },
        { "plain", "", "", false, false, false, false, false },
        { "d", "DOUBLE PRECISION", "DEFAULT 'READONLY'", false, false, false,
          false, false },
        { "r", "INT64", "REFERENCES parent(id, \"x\") ON DELETE SET NULL "
                        "ON UPDATE CASCADE", false, false, false, false,
          true },
        { "g", "INT64", "GENERATED ALWAYS AS (a + b) STORED", false, false,
          true, false, false },
        { "v", "INT64", "AS (x) VIRTUAL", false, false, true, false, false },
        { "c", "TEXT", "COLLATE NOCASE", false, false, false, true, false },
        { "key", "INT8", "DEFAULT readonly", false, false, false, false,
          false },
        { "primary_x", "INT8", "NOT NULL DEFAULT (1)", true, false, false,
          false, false },
        { "str'name", "TEXT", "", true, false, false, false, false },
        { "ro", "", "", true, false, false, false, false },
        { "nt", "", "NOT NULL", false, false, false, false, false },
    };
    pier__sql_script s;
    const pier__sql_stmt *st = one(&s, sql, PIER__STMT_CREATE_TABLE);
    assert_string_equal(st->schema, "main");
    assert_string_equal(st->name, "Order Lines");
    assert_int_equal(st->name_offset, at(sql, "\"Order"));
    assert_true(st->if_not_exists);
    assert_false(st->temp);
    assert_non_null(st->create);
    const pier__sql_table *t = st->create;
    assert_int_equal(t->ncolumns, sizeof want / sizeof *want);
    for (size_t i = 0; i < t->ncolumns; i++)
        column_is(&t->columns[i], &want[i]);
    assert_string_equal(t->constraints, "");
    assert_false(t->without_rowid);
    assert_false(t->strict);
    assert_false(t->as_select);
    /* Offsets: a quoted name from its quote, a type from its first byte;
     * with no type, just after the name. */
    assert_int_equal(t->columns[1].name_offset, at(sql, "\"order\""));
    assert_int_equal(t->columns[1].type_offset, at(sql, "TEXT NOT"));
    assert_int_equal(t->columns[2].type_offset, at(sql, "DECIMAL"));
    assert_int_equal(t->columns[6].name_offset, at(sql, "plain"));
    assert_int_equal(t->columns[6].type_offset, at(sql, "plain") + 5);
    assert_int_equal(t->columns[15].type_offset, at(sql, "ro READ") + 2);
    pier__sql_script_free(&s);
}

static void test_create_table_constraints(void **state)
{
    (void)state;
    pier__sql_script s;
    const char *sql =
        "create temp table t (a INT64, b TEXT,\n"
        "  CONSTRAINT pk PRIMARY KEY (a, b), UNIQUE (b),\n"
        "  CHECK (a > 0, 'x'), FOREIGN KEY (b) REFERENCES u(c) /* end */\n"
        ") without rowid, STRICT";
    const pier__sql_stmt *st = one(&s, sql, PIER__STMT_CREATE_TABLE);
    assert_true(st->temp);
    assert_string_equal(st->name, "t");
    const pier__sql_table *t = st->create;
    assert_int_equal(t->ncolumns, 2);
    assert_string_equal(t->columns[0].name, "a");
    assert_string_equal(t->columns[1].name, "b");
    assert_string_equal(t->columns[1].type, "TEXT");
    assert_string_equal(t->constraints,
                        "CONSTRAINT pk PRIMARY KEY (a, b), UNIQUE (b),\n"
                        "  CHECK (a > 0, 'x'), FOREIGN KEY (b) REFERENCES "
                        "u(c)");
    assert_true(t->without_rowid);
    assert_true(t->strict);
    pier__sql_script_free(&s);

    /* Each table constraint can begin the list; a column named like a
     * constraint keyword but not followed by one is a column. */
    static const struct {
        const char *sql;
        size_t ncolumns;
        const char *constraints;
    } cases[] = {
        { "CREATE TABLE t(a, PRIMARY KEY(a))", 1, "PRIMARY KEY(a)" },
        { "CREATE TABLE t(a, unique(a))", 1, "unique(a)" },
        { "CREATE TABLE t(a, Check(a > 1))", 1, "Check(a > 1)" },
        { "CREATE TABLE t(a, foreign key(a) references u)", 1,
          "foreign key(a) references u" },
        { "CREATE TABLE t(a, constraint c check (a))", 1,
          "constraint c check (a)" },
        { "CREATE TABLE t(primary_x, primary INT8, key TEXT)", 3, "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        st = one(&s, cases[i].sql, PIER__STMT_CREATE_TABLE);
        assert_int_equal(st->create->ncolumns, cases[i].ncolumns);
        assert_string_equal(st->create->constraints, cases[i].constraints);
        pier__sql_script_free(&s);
    }
    st = one(&s, "CREATE TABLE t(primary_x, primary INT8, key TEXT)",
             PIER__STMT_CREATE_TABLE);
    assert_string_equal(st->create->columns[1].name, "primary");
    assert_string_equal(st->create->columns[1].type, "INT8");
    assert_false(st->create->columns[1].primary_key);
    assert_string_equal(st->create->columns[2].name, "key");
    pier__sql_script_free(&s);
}

static void test_create_table_options(void **state)
{
    (void)state;
    pier__sql_script s;
    const pier__sql_stmt *st = one(&s, "CREATE TABLE t(a) STRICT",
                                   PIER__STMT_CREATE_TABLE);
    assert_true(st->create->strict);
    assert_false(st->create->without_rowid);
    pier__sql_script_free(&s);
    st = one(&s, "CREATE TABLE t(a PRIMARY KEY) WITHOUT ROWID",
             PIER__STMT_CREATE_TABLE);
    assert_false(st->create->strict);
    assert_true(st->create->without_rowid);
    assert_true(st->create->columns[0].primary_key);
    pier__sql_script_free(&s);
    st = one(&s, "CREATE TABLE t(a PRIMARY KEY) strict , Without Rowid",
             PIER__STMT_CREATE_TABLE);
    assert_true(st->create->strict);
    assert_true(st->create->without_rowid);
    pier__sql_script_free(&s);

    /* AS SELECT: no columns. */
    const char *sql = "CREATE TEMPORARY TABLE IF NOT EXISTS temp.c AS "
                      "SELECT 1 AS x";
    st = one(&s, sql, PIER__STMT_CREATE_TABLE);
    assert_true(st->temp);
    assert_true(st->if_not_exists);
    assert_string_equal(st->schema, "temp");
    assert_string_equal(st->name, "c");
    assert_true(st->create->as_select);
    assert_int_equal(st->create->ncolumns, 0);
    assert_null(st->create->columns);
    assert_string_equal(st->create->constraints, "");
    pier__sql_script_free(&s);
}

static void test_column_flags(void **state)
{
    (void)state;
    static const struct {
        const char *def;           /* after CREATE TABLE t( */
        col_want want;
    } cases[] = {
        { "a INT64 READONLY", { "a", "INT64", "", true, false, false,
                                false, false } },
        { "a READONLY NOT NULL", { "a", "", "NOT NULL", true, false, false,
                                   false, false } },
        { "a INT64 NOT NULL READONLY DEFAULT 0",
          { "a", "INT64", "NOT NULL DEFAULT 0", true, false, false, false,
            false } },
        { "a INT64 readonly", { "a", "INT64", "", true, false, false, false,
                                false } },
        { "a TEXT DEFAULT 'READONLY'",
          { "a", "TEXT", "DEFAULT 'READONLY'", false, false, false, false,
            false } },
        { "a TEXT CHECK (a <> 'x' AND a NOT IN ('READONLY'))",
          { "a", "TEXT", "CHECK (a <> 'x' AND a NOT IN ('READONLY'))",
            false, false, false, false, false } },
        { "\"READONLY\" INT8", { "READONLY", "INT8", "", false, false, false,
                                 false, false } },
        { "a INT8 CONSTRAINT pk PRIMARY KEY DESC ON CONFLICT FAIL",
          { "a", "INT8", "CONSTRAINT pk PRIMARY KEY DESC ON CONFLICT FAIL",
            false, true, false, false, false } },
        { "a INT8 REFERENCES p ON UPDATE SET NULL",
          { "a", "INT8", "REFERENCES p ON UPDATE SET NULL", false, false,
            false, false, true } },
        { "a INT8 REFERENCES p ON DELETE CASCADE ON UPDATE SET DEFAULT",
          { "a", "INT8", "REFERENCES p ON DELETE CASCADE ON UPDATE SET "
                         "DEFAULT", false, false, false, false, true } },
        { "a INT8 REFERENCES p(x) ON UPDATE RESTRICT ON DELETE CASCADE",
          { "a", "INT8", "REFERENCES p(x) ON UPDATE RESTRICT ON DELETE "
                         "CASCADE", false, false, false, false, false } },
        { "a INT8 REFERENCES p ON UPDATE NO ACTION",
          { "a", "INT8", "REFERENCES p ON UPDATE NO ACTION", false, false,
            false, false, false } },
        { "a INT8 REFERENCES p ON DELETE SET NULL",
          { "a", "INT8", "REFERENCES p ON DELETE SET NULL", false, false,
            false, false, false } },
        { "a TEXT COLLATE readonly", { "a", "TEXT", "COLLATE readonly",
                                       false, false, false, true, false } },
        { "a INT8 GENERATED ALWAYS AS (b * 2) VIRTUAL READONLY",
          { "a", "INT8", "GENERATED ALWAYS AS (b * 2) VIRTUAL", true, false,
            true, false, false } },
        { "a DEFAULT (1) AS (2)", { "a", "", "DEFAULT (1) AS (2)", false,
                                    false, true, false, false } },
        { "a VARCHAR(10) NULL", { "a", "VARCHAR(10)", "NULL", false, false,
                                  false, false, false } },
        { "a UNIQUE", { "a", "", "UNIQUE", false, false, false, false,
                        false } },
        { "a INT8\n  -- note\n  PRIMARY KEY", { "a", "INT8", "PRIMARY KEY",
                                              false, true, false, false,
                                              false } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char sql[200];
        snprintf(sql, sizeof sql, "CREATE TABLE t(%s)", cases[i].def);
        pier__sql_script s;
        const pier__sql_stmt *st = one(&s, sql, PIER__STMT_CREATE_TABLE);
        assert_int_equal(st->create->ncolumns, 1);
        column_is(&st->create->columns[0], &cases[i].want);
        pier__sql_script_free(&s);
    }
}

/* ---- other DDL ---- */

/* CREATE BOARD, as a schema dump writes it. */
static void test_create_board(void **state)
{
    (void)state;
    pier__sql_script s;
    const pier__sql_stmt *st =
        one(&s, "CREATE BOARD IF NOT EXISTS notes (body text, amount "
                "decimal(12, 2) INFERRED, kind enum('a', 'b,c')) STRICT",
            PIER__STMT_CREATE_BOARD);
    assert_true(st->if_not_exists);
    assert_string_equal(st->name, "notes");
    assert_int_equal(st->name_offset, 27);
    assert_true(st->create->strict);
    assert_int_equal(st->create->ncolumns, 3);
    assert_string_equal(st->create->columns[0].name, "body");
    assert_string_equal(st->create->columns[0].type, "text");
    assert_false(st->create->columns[0].inferred);
    assert_string_equal(st->create->columns[1].type, "decimal(12, 2)");
    assert_true(st->create->columns[1].inferred);
    assert_string_equal(st->create->columns[2].type, "enum('a', 'b,c')");
    pier__sql_script_free(&s);
    st = one(&s, "create board b", PIER__STMT_CREATE_BOARD);
    assert_string_equal(st->name, "b");
    assert_int_equal(st->create->ncolumns, 0);
    assert_false(st->create->strict);
    pier__sql_script_free(&s);
    /* A column named "inferred" keeps its name; INFERRED alone is a type. */
    st = one(&s, "CREATE BOARD b (inferred text, t inferred)",
             PIER__STMT_CREATE_BOARD);
    assert_string_equal(st->create->columns[0].name, "inferred");
    assert_string_equal(st->create->columns[1].type, "inferred");
    assert_false(st->create->columns[1].inferred);
    pier__sql_script_free(&s);
    bad("CREATE BOARD", PIER_E_QUERY_FAILED, 12,
        "expected the board's id after CREATE BOARD");
    bad("CREATE BOARD b (a text,)", PIER_E_QUERY_FAILED, 23,
        "expected a column's name and type");
    bad("CREATE BOARD b (a text) LOOSE", PIER_E_QUERY_FAILED, 24,
        "expected the end of the statement");
    bad("CREATE BOARD b (a text", PIER_E_QUERY_FAILED, 15, "(");
}

static void test_alter(void **state)
{
    (void)state;
    pier__sql_script s;
    const char *sql = "ALTER TABLE main.t ADD COLUMN \"x y\" DECIMAL(12, 2) "
                      "READONLY DEFAULT 0";
    const pier__sql_stmt *st = one(&s, sql, PIER__STMT_ADD_COLUMN);
    assert_string_equal(st->schema, "main");
    assert_string_equal(st->name, "t");
    assert_int_equal(st->name_offset, at(sql, "t ADD"));
    assert_non_null(st->add);
    column_is(st->add, &(col_want){ "x y", "DECIMAL(12, 2)", "DEFAULT 0",
                                    true, false, false, false, false });
    assert_int_equal(st->add->name_offset, at(sql, "\"x y\""));
    assert_int_equal(st->add->type_offset, at(sql, "DECIMAL"));
    assert_null(st->create);
    pier__sql_script_free(&s);

    st = one(&s, "alter table t add c", PIER__STMT_ADD_COLUMN);
    column_is(st->add, &(col_want){ "c", "", "", false, false, false,
                                    false, false });
    pier__sql_script_free(&s);

    st = one(&s, "ALTER TABLE t ADD COLUMN e ENUM('x', 'y,z') NOT NULL "
                 "DEFAULT 'x'", PIER__STMT_ADD_COLUMN);
    column_is(st->add, &(col_want){ "e", "ENUM('x', 'y,z')",
                                    "NOT NULL DEFAULT 'x'", false, false,
                                    false, false, false });
    pier__sql_script_free(&s);

    st = one(&s, "ALTER TABLE t RENAME COLUMN a TO \"b c\"",
             PIER__STMT_RENAME_COLUMN);
    assert_string_equal(st->name, "t");
    assert_string_equal(st->column, "a");
    assert_string_equal(st->new_name, "b c");
    pier__sql_script_free(&s);

    st = one(&s, "ALTER TABLE t RENAME [a] TO b", PIER__STMT_RENAME_COLUMN);
    assert_string_equal(st->column, "a");
    assert_string_equal(st->new_name, "b");
    pier__sql_script_free(&s);

    st = one(&s, "ALTER TABLE \"T\" RENAME TO u", PIER__STMT_RENAME_TABLE);
    assert_string_equal(st->name, "T");
    assert_null(st->column);
    assert_string_equal(st->new_name, "u");
    pier__sql_script_free(&s);

    st = one(&s, "ALTER TABLE temp.t DROP COLUMN c", PIER__STMT_DROP_COLUMN);
    assert_string_equal(st->schema, "temp");
    assert_string_equal(st->column, "c");
    assert_null(st->new_name);
    pier__sql_script_free(&s);

    st = one(&s, "alter table t drop `c`", PIER__STMT_DROP_COLUMN);
    assert_string_equal(st->column, "c");
    pier__sql_script_free(&s);
}

static void test_index_view_drop(void **state)
{
    (void)state;
    pier__sql_script s;
    const char *sql = "CREATE UNIQUE INDEX IF NOT EXISTS main.ix ON \"T\" "
                      "(a, b DESC) WHERE a > 0";
    const pier__sql_stmt *st = one(&s, sql, PIER__STMT_CREATE_INDEX);
    assert_true(st->unique);
    assert_true(st->if_not_exists);
    assert_string_equal(st->schema, "main");
    assert_string_equal(st->name, "ix");
    assert_int_equal(st->name_offset, at(sql, "ix ON"));
    assert_string_equal(st->table, "T");
    pier__sql_script_free(&s);

    st = one(&s, "create index ix on t(a)", PIER__STMT_CREATE_INDEX);
    assert_false(st->unique);
    assert_false(st->if_not_exists);
    assert_null(st->schema);
    assert_string_equal(st->table, "t");
    pier__sql_script_free(&s);

    st = one(&s, "CREATE TEMP VIEW IF NOT EXISTS v(a) AS SELECT 1",
             PIER__STMT_CREATE_VIEW);
    assert_true(st->temp);
    assert_true(st->if_not_exists);
    assert_string_equal(st->name, "v");
    assert_null(st->create);
    pier__sql_script_free(&s);

    st = one(&s, "DROP TABLE IF EXISTS main.t", PIER__STMT_DROP_TABLE);
    assert_true(st->if_exists);
    assert_string_equal(st->schema, "main");
    assert_string_equal(st->name, "t");
    pier__sql_script_free(&s);

    st = one(&s, "drop index [i]", PIER__STMT_DROP_INDEX);
    assert_false(st->if_exists);
    assert_string_equal(st->name, "i");
    pier__sql_script_free(&s);

    sql = "DROP VIEW IF EXISTS 'v'";
    st = one(&s, sql, PIER__STMT_DROP_VIEW);
    assert_string_equal(st->name, "v");
    assert_int_equal(st->name_offset, at(sql, "'v'"));
    pier__sql_script_free(&s);
}

/* ---- faults ---- */

static void test_malformed_heads(void **state)
{
    (void)state;
    bad("CREATE TABLE t", PIER_E_QUERY_FAILED, 14,
        "expected '(' and the table's columns, or AS SELECT, after the "
        "table's name, found the end of the statement");
    bad("CREATE TABLE t x", PIER_E_QUERY_FAILED, 15, "found 'x'");
    bad("CREATE TABLE (a INT64)", PIER_E_QUERY_FAILED, 13,
        "expected the table's name after CREATE TABLE, found '('");
    bad("CREATE TABLE t()", PIER_E_QUERY_FAILED, 15,
        "expected a column definition, found ')'");
    bad("CREATE TABLE t(a INT64,)", PIER_E_QUERY_FAILED, 23,
        "expected a column definition, found ')'");
    bad("CREATE TABLE t(a,, b)", PIER_E_QUERY_FAILED, 17,
        "expected a column definition, found ','");
    bad("CREATE TABLE t(1 INT64)", PIER_E_QUERY_FAILED, 15,
        "expected a column's name, found '1'");
    bad("CREATE TABLE t(a, (b))", PIER_E_QUERY_FAILED, 18,
        "expected a column's name, found '('");
    bad("CREATE TABLE t(PRIMARY KEY(a))", PIER_E_QUERY_FAILED, 15,
        "expected a column definition before the table constraints, found "
        "'PRIMARY'");
    bad("CREATE TABLE t(a, UNIQUE(a),)", PIER_E_QUERY_FAILED, 28,
        "expected a table constraint, found ')'");
    bad("CREATE TABLE t(a) STRICTER", PIER_E_QUERY_FAILED, 18,
        "expected a table option (WITHOUT ROWID or STRICT), found "
        "'STRICTER'");
    bad("CREATE TABLE t(a) STRICT,", PIER_E_QUERY_FAILED, 25,
        "found the end of the statement");
    bad("CREATE TABLE t(a) STRICT WITHOUT ROWID", PIER_E_QUERY_FAILED, 25,
        "expected ',' or the end of the statement after a table option");
    bad("CREATE TABLE t(a) WITHOUT", PIER_E_QUERY_FAILED, 18,
        "found 'WITHOUT'");
    bad("CREATE TABLE IF EXISTS t(a)", PIER_E_QUERY_FAILED, 16,
        "expected NOT EXISTS after IF, found 'EXISTS'");
    bad("CREATE TEMP INDEX i ON t(a)", PIER_E_QUERY_FAILED, 12,
        "expected TABLE or VIEW after CREATE TEMP, found 'INDEX'");
    bad("CREATE UNIQUE i ON t(a)", PIER_E_QUERY_FAILED, 14,
        "expected INDEX after CREATE UNIQUE, found 'i'");
    bad("CREATE INDEX i ON t", PIER_E_QUERY_FAILED, 19,
        "expected '(' and the indexed columns after the table's name");
    bad("CREATE INDEX i t(a)", PIER_E_QUERY_FAILED, 15,
        "expected ON after the index's name, found 't'");
    bad("CREATE VIEW (a) AS SELECT 1", PIER_E_QUERY_FAILED, 12,
        "expected the view's name after CREATE VIEW, found '('");
    bad("CREATE 1", PIER_E_QUERY_FAILED, 7,
        "expected TABLE, INDEX, VIEW or BOARD after CREATE, found '1'");
    bad("DROP TABLE", PIER_E_QUERY_FAILED, 10,
        "expected the table's name after DROP TABLE, found the end of the "
        "statement");
    bad("DROP TABLE IF EXISTS", PIER_E_QUERY_FAILED, 20,
        "expected the table's name after DROP TABLE");
    bad("DROP INDEX main.", PIER_E_QUERY_FAILED, 16,
        "expected the index's name after DROP INDEX");
    bad("DROP TABLE t u", PIER_E_QUERY_FAILED, 13,
        "expected the end of the statement, found 'u'");
    bad("DROP VIEW IF v", PIER_E_QUERY_FAILED, 13,
        "expected EXISTS after IF, found 'v'");
    bad("DROP (t)", PIER_E_QUERY_FAILED, 5,
        "expected TABLE, INDEX or VIEW after DROP");
    bad("ALTER TABLE t", PIER_E_QUERY_FAILED, 13,
        "expected ADD, RENAME or DROP after the table's name");
    bad("ALTER TABLE t ADD", PIER_E_QUERY_FAILED, 17,
        "expected a column definition after ADD COLUMN");
    bad("ALTER TABLE t ADD COLUMN a INT64, b INT64", PIER_E_QUERY_FAILED,
        32, "expected the end of the statement (ADD COLUMN adds one "
            "column), found ','");
    bad("ALTER TABLE t ADD CHECK (a > 0)", PIER_E_QUERY_FAILED, 18,
        "a table constraint cannot be added");
    bad("ALTER TABLE t RENAME a b", PIER_E_QUERY_FAILED, 23,
        "expected TO after the column's name, found 'b'");
    bad("ALTER TABLE t RENAME TO", PIER_E_QUERY_FAILED, 23,
        "expected the table's new name after RENAME TO");
    bad("ALTER TABLE t DROP COLUMN a b", PIER_E_QUERY_FAILED, 28,
        "expected the end of the statement, found 'b'");
    bad("ALTER t ADD c", PIER_E_ENTITY_NOT_ALLOWED, 0,
        "ALTER T statements are not allowed");
    bad("INSERT t VALUES (1)", PIER_E_QUERY_FAILED, 7,
        "expected INTO, found 't'");
    bad("INSERT OR INTO t VALUES (1)", PIER_E_QUERY_FAILED, 15,
        "expected INTO, found 't'");
    bad("INSERT INTO (a) VALUES (1)", PIER_E_QUERY_FAILED, 12,
        "expected the table's name after INTO");
    bad("DELETE t", PIER_E_QUERY_FAILED, 7, "expected FROM after DELETE");
    bad("UPDATE (t) SET a = 1", PIER_E_QUERY_FAILED, 7,
        "expected the table's name after UPDATE, found '('");
    bad("BEGIN WORK", PIER_E_QUERY_FAILED, 6,
        "expected the end of the statement, found 'WORK'");
    bad("COMMIT TRANSACTION x y", PIER_E_QUERY_FAILED, 21,
        "expected the end of the statement, found 'y'");
    bad("ROLLBACK now", PIER_E_QUERY_FAILED, 9,
        "expected the end of the statement, found 'now'");
    bad("(SELECT 1)", PIER_E_QUERY_FAILED, 0,
        "expected a statement (SELECT, INSERT, CREATE ...), found '('");
    bad("SELECT 1; 42", PIER_E_QUERY_FAILED, 10, "found '42'");
    bad("WITH a AS SELECT 1 SELECT 2", PIER_E_QUERY_FAILED, 10,
        "expected '(' and a SELECT after AS, found 'SELECT'");
    bad("WITH a (SELECT 1) SELECT 2", PIER_E_QUERY_FAILED, 18,
        "expected AS in the WITH clause, found 'SELECT'");
    bad("WITH a AS (SELECT 1) PRAGMA x", PIER_E_QUERY_FAILED, 21,
        "expected SELECT, VALUES, INSERT, REPLACE, UPDATE or DELETE after "
        "the WITH clause, found 'PRAGMA'");
    bad("WITH a AS (SELECT 1),", PIER_E_QUERY_FAILED, 21,
        "expected the name of a common table expression, found the end");
    bad("WITH a AS NOT (SELECT 1) SELECT 2", PIER_E_QUERY_FAILED, 14,
        "expected MATERIALIZED after NOT, found '('");
    bad("SELECT 1;\nCREATE TABLE", PIER_E_QUERY_FAILED, 22,
        "found the end of the statement");
}

static void test_unbalanced(void **state)
{
    (void)state;
    bad("SELECT (1))", PIER_E_QUERY_FAILED, 10, "')' closes no '('");
    bad("SELECT 1); SELECT 2", PIER_E_QUERY_FAILED, 8, "')' closes no '('");
    bad("SELECT ((1)", PIER_E_QUERY_FAILED, 7, "'(' is never closed");
    /* The innermost '(' left open is the one reported. */
    bad("CREATE TABLE t(a INT64, b DECIMAL(12", PIER_E_QUERY_FAILED, 33,
        "'(' is never closed");
    bad("CREATE TABLE t(a INT64, b DECIMAL(12, 2)", PIER_E_QUERY_FAILED, 14,
        "'(' is never closed");
    /* A ';' ends a statement whatever the parentheses. */
    bad("SELECT (1; SELECT 2)", PIER_E_QUERY_FAILED, 7,
        "'(' is never closed");
    bad("WITH a AS (SELECT 1 SELECT 2", PIER_E_QUERY_FAILED, 10,
        "'(' is never closed");
    bad("INSERT INTO t VALUES ((1), (2)", PIER_E_QUERY_FAILED, 21,
        "'(' is never closed");
}

static void test_unterminated(void **state)
{
    (void)state;
    bad("SELECT 'abc", PIER_E_QUERY_FAILED, 7,
        "an unterminated string: 'abc");
    bad("SELECT 'it''s", PIER_E_QUERY_FAILED, 7, "an unterminated string");
    bad("SELECT 1; SELECT \"abc", PIER_E_QUERY_FAILED, 17,
        "an unterminated quoted name: \"abc");
    bad("SELECT [abc", PIER_E_QUERY_FAILED, 7, "an unterminated quoted name");
    bad("SELECT `a``", PIER_E_QUERY_FAILED, 7, "an unterminated quoted name");
    bad("SELECT x'00", PIER_E_QUERY_FAILED, 7, "an unterminated blob: x'00");
    bad("SELECT 'a long string that goes on and on\nand on",
        PIER_E_QUERY_FAILED, 7,
        "an unterminated string: 'a long string that goes...");
    bad("'", PIER_E_QUERY_FAILED, 0, "an unterminated string: '");
    /* The string, not the parenthesis it swallows, is at fault. */
    bad("CREATE TABLE t(a TEXT DEFAULT 'x)", PIER_E_QUERY_FAILED, 30,
        "an unterminated string");
    /* A head fault before it is reported first. */
    bad("CREATE TABLE (a TEXT DEFAULT 'x)", PIER_E_QUERY_FAILED, 13,
        "expected the table's name after CREATE TABLE");
    /* A NUL byte: SQLite would read no further. */
    parse_bad("SELECT 'a\0b'", 12, PIER_E_QUERY_FAILED, 9, "a NUL byte");
    parse_bad("SELECT 1\0", 9, PIER_E_QUERY_FAILED, 8, "a NUL byte");
    parse_bad("SELECT 1 -- \0", 13, PIER_E_QUERY_FAILED, 12, "a NUL byte");
    parse_bad("SELECT 1 /* \0 */", 16, PIER_E_QUERY_FAILED, 12,
              "a NUL byte");
}

/* ---- quoting ---- */

static void test_quote(void **state)
{
    (void)state;
    pier__buf b;
    pier__buf_init(&b);
    pier__sql_quote_ident(&b, "a\"b");
    assert_string_equal(b.p, "\"a\"\"b\"");
    pier__buf_reset(&b);
    pier__sql_quote_ident(&b, "");
    assert_string_equal(b.p, "\"\"");
    pier__buf_reset(&b);
    pier__sql_quote_ident(&b, "\"\"x'");
    assert_string_equal(b.p, "\"\"\"\"\"x'\"");
    pier__buf_reset(&b);
    pier__sql_quote_string(&b, "it's", 4);
    assert_string_equal(b.p, "'it''s'");
    pier__buf_reset(&b);
    pier__sql_quote_string(&b, "''", 2);
    assert_string_equal(b.p, "''''''");
    pier__buf_reset(&b);
    pier__sql_quote_string(&b, "ab'cd", 3);
    assert_string_equal(b.p, "'ab'''");
    pier__buf_reset(&b);
    pier__sql_quote_string(&b, "", 0);
    assert_string_equal(b.p, "''");
    pier__buf_reset(&b);
    /* What the quoting writes, the parser reads back. */
    pier__sql_quote_ident(&b, "we\"ird; name");
    char sql[64];
    snprintf(sql, sizeof sql, "DROP TABLE %s", b.p);
    pier__sql_script s;
    const pier__sql_stmt *st = one(&s, sql, PIER__STMT_DROP_TABLE);
    assert_string_equal(st->name, "we\"ird; name");
    pier__sql_script_free(&s);
    pier__buf_free(&b);
}

/* ---- declarations ---- */

/* Parses the declaration `sql`, which must hold `n` statements. */
static void decl_ok(pier__sql_script *s, const char *sql, size_t n)
{
    pier_error err;
    pier_status rc = pier__sql_parse_declaration(s, sql, strlen(sql), &err);
    if (rc != PIER_OK)
        fail_msg("'%s': %s: %s (at %lld)", sql, err.tag, err.message,
                 (long long)err.offset);
    if (s->nstmts != n)
        fail_msg("'%s': %zu statements, want %zu", sql, s->nstmts, n);
}

static void decl_bad(const char *sql, size_t offset, const char *why)
{
    parse_bad_with(pier__sql_parse_declaration, sql, strlen(sql),
                   PIER_E_INVALID_SCHEMA, offset, why);
}

static void test_declaration_columns(void **state)
{
    (void)state;
    static const char sql[] =
        "CREATE TABLE notes RENAMED FROM memos (\n"
        "  id INT64 PRIMARY KEY AUTOINCREMENT,\n"
        "  slug TEXT NOT NULL UNIQUE DEFAULT 'x',\n"
        "  status ENUM('draft', 'done') NOT NULL DEFAULT 'draft' "
        "BACKFILL 'done',\n"
        "  created INSTANT NOT NULL DEFAULT now() BACKFILL now(),\n"
        "  score DECIMAL(10,2) NULL DEFAULT -1.5 RENAMED FROM points,\n"
        "  qty INT32 NOT NULL BACKFILL (1 + 1) "
        "CONSTRAINT positive_qty CHECK (qty > 0),\n"
        "  parent INT64 REFERENCES parents(id) ON DELETE CASCADE,\n"
        "  other INT64 NULL REFERENCES others ON DELETE SET NULL,\n"
        "  seq INT64 UNIQUE AUTOINCREMENT READONLY,\n"
        "  CONSTRAINT two UNIQUE (slug, status),\n"
        "  CHECK (score < 100),\n"
        "  CONSTRAINT owner_fkey FOREIGN KEY (qty) REFERENCES owners(n) "
        "ON DELETE RESTRICT\n"
        ") STRICT";
    pier__sql_script s;
    decl_ok(&s, sql, 1);
    const pier__sql_stmt *st = &s.stmts[0];
    assert_int_equal(st->kind, PIER__STMT_CREATE_TABLE);
    assert_string_equal(st->name, "notes");
    const pier__sql_table *t = st->create;
    assert_string_equal(t->renamed_from, "memos");
    assert_int_equal(t->renamed_from_offset, at(sql, "memos"));
    assert_true(t->strict);
    assert_int_equal(t->ncolumns, 9);
    const pier__sql_column *c = t->columns;
    assert_true(c[0].primary_key && c[0].autoincrement);
    assert_null(c[0].dflt.text);
    assert_true(c[1].not_null && !c[1].null);
    assert_string_equal(c[1].dflt.text, "'x'");
    assert_string_equal(c[2].type, "ENUM('draft', 'done')");
    assert_string_equal(c[2].dflt.text, "'draft'");
    assert_string_equal(c[2].backfill.text, "'done'");
    assert_int_equal(c[2].backfill.offset, at(sql, "'done',\n"));
    assert_true(c[3].dflt.now && c[3].backfill.now);
    assert_string_equal(c[3].dflt.text, "now()");
    assert_true(c[4].null && !c[4].not_null);
    assert_string_equal(c[4].dflt.text, "-1.5");
    assert_string_equal(c[4].renamed_from, "points");
    assert_int_equal(c[4].renamed_from_offset, at(sql, "points"));
    assert_string_equal(c[5].backfill.text, "(1 + 1)");
    assert_false(c[5].backfill.now);
    assert_true(c[8].autoincrement && c[8].readonly && !c[8].primary_key);
    assert_string_equal(c[8].type, "INT64");

    /* keys: id's PRIMARY KEY, slug's UNIQUE, seq's UNIQUE, then two */
    assert_int_equal(t->nkeys, 4);
    assert_true(t->keys[0].primary);
    assert_int_equal(t->keys[0].ncolumns, 1);
    assert_string_equal(t->keys[0].columns[0], "id");
    assert_false(t->keys[1].primary);
    assert_string_equal(t->keys[1].columns[0], "slug");
    assert_string_equal(t->keys[2].columns[0], "seq");
    assert_string_equal(t->keys[3].name, "two");
    assert_int_equal(t->keys[3].ncolumns, 2);
    assert_string_equal(t->keys[3].columns[1], "status");

    assert_int_equal(t->nchecks, 2);
    assert_string_equal(t->checks[0].name, "positive_qty");
    assert_string_equal(t->checks[0].expr, "qty > 0");
    assert_int_equal(t->checks[0].offset, at(sql, "CONSTRAINT positive"));
    assert_null(t->checks[1].name);
    assert_string_equal(t->checks[1].expr, "score < 100");

    assert_int_equal(t->nfks, 3);
    assert_string_equal(t->fks[0].column, "parent");
    assert_string_equal(t->fks[0].table, "parents");
    assert_string_equal(t->fks[0].parent, "id");
    assert_int_equal(t->fks[0].on_delete, PIER__FK_CASCADE);
    assert_int_equal(t->fks[0].offset, at(sql, "REFERENCES parents"));
    assert_string_equal(t->fks[1].column, "other");
    assert_null(t->fks[1].parent);
    assert_int_equal(t->fks[1].on_delete, PIER__FK_SET_NULL);
    assert_string_equal(t->fks[2].name, "owner_fkey");
    assert_string_equal(t->fks[2].column, "qty");
    assert_string_equal(t->fks[2].table, "owners");
    assert_string_equal(t->fks[2].parent, "n");
    assert_int_equal(t->fks[2].on_delete, PIER__FK_RESTRICT);
    pier__sql_script_free(&s);
}

static void test_declaration_kinds(void **state)
{
    (void)state;
    static const char sql[] =
        "CREATE VIEW active (id INT64, name TEXT) AS\n"
        "  SELECT id, name FROM people WHERE active;\n"
        "CREATE UNIQUE INDEX people_name ON people (lower(name)) "
        "WHERE name IS NOT NULL;\n"
        "CREATE INDEX IF NOT EXISTS people_score ON people (score DESC);\n"
        "CREATE BOARD events (kind text, n bigint INFERRED) STRICT;\n"
        "CREATE TABLE people (id INT64 PRIMARY KEY, name TEXT, "
        "score INT32, active BOOLEAN)";
    pier__sql_script s;
    decl_ok(&s, sql, 5);
    const pier__sql_stmt *v = &s.stmts[0];
    assert_int_equal(v->kind, PIER__STMT_CREATE_VIEW);
    assert_string_equal(v->name, "active");
    assert_int_equal(v->nview_columns, 2);
    assert_string_equal(v->view_columns[0].name, "id");
    assert_string_equal(v->view_columns[0].type, "INT64");
    assert_string_equal(v->view_columns[1].type, "TEXT");
    assert_string_equal(v->body, "SELECT id, name FROM people WHERE active");
    assert_int_equal(v->body_offset, at(sql, "SELECT"));
    const pier__sql_stmt *i = &s.stmts[1];
    assert_int_equal(i->kind, PIER__STMT_CREATE_INDEX);
    assert_true(i->unique);
    assert_string_equal(i->table, "people");
    assert_string_equal(i->body, "(lower(name)) WHERE name IS NOT NULL");
    assert_string_equal(s.stmts[2].body, "(score DESC)");
    assert_true(s.stmts[2].if_not_exists);
    const pier__sql_stmt *b = &s.stmts[3];
    assert_int_equal(b->kind, PIER__STMT_CREATE_BOARD);
    assert_true(b->create->strict);
    assert_int_equal(b->create->ncolumns, 2);
    assert_true(b->create->columns[1].inferred);
    assert_int_equal(s.stmts[4].kind, PIER__STMT_CREATE_TABLE);
    pier__sql_script_free(&s);

    /* The same words are plain SQL outside a declaration: RENAMED and
     * BACKFILL are not the dialect's (SQLite judges the constraints). */
    pier__sql_script x;
    parse_ok(&x, "CREATE TABLE t (a INT64 DEFAULT 1)", 1);
    assert_null(x.stmts[0].create->columns[0].dflt.text);
    assert_int_equal(x.stmts[0].create->nkeys, 0);
    pier__sql_script_free(&x);
    parse_ok(&x, "CREATE VIEW v AS SELECT 1", 1);
    assert_null(x.stmts[0].body);
    pier__sql_script_free(&x);
    bad("CREATE TABLE t RENAMED FROM u (a INT64)", PIER_E_QUERY_FAILED, 15,
        "expected '(' and the table's columns");
}

static void test_declaration_refusals(void **state)
{
    (void)state;
    decl_bad("CREATE TABLE t (a INT64);\nINSERT INTO t VALUES (1)", 26,
             "INSERT statements are not allowed in a declaration: a "
             "declaration holds CREATE TABLE, CREATE VIEW, CREATE BOARD and "
             "CREATE INDEX statements");
    decl_bad("SELECT 1", 0, "SELECT statements are not allowed");
    decl_bad("DROP TABLE t", 0, "DROP statements are not allowed");
    decl_bad("ALTER TABLE t ADD COLUMN b INT64", 0, "ALTER statements");
    decl_bad("CREATE TEMP TABLE t (a INT64)", 0,
             "CREATE TEMP statements are not allowed in a declaration");
    decl_bad("CREATE TRIGGER x AFTER INSERT ON t BEGIN SELECT 1; END", 0,
             "CREATE TRIGGER statements are not allowed in a declaration");
    decl_bad("PRAGMA foreign_keys = 1", 0, "PRAGMA statements");
    decl_bad("CREATE TABLE main.t (a INT64)", 18,
             "a declaration names its objects without a schema ('main.t')");
    decl_bad("CREATE TABLE t AS SELECT 1", 15,
             "CREATE TABLE ... AS SELECT has no place in a declaration");
    decl_bad("CREATE TABLE t RENAMED u (a INT64)", 23, "expected FROM after "
             "RENAMED");
    decl_bad("CREATE TABLE t RENAMED FROM (a INT64)", 28,
             "the table's old name after RENAMED FROM");
    decl_bad("CREATE TABLE t (a INT64 COLLATE NOCASE)", 24,
             "expected a column constraint of a declaration");
    decl_bad("CREATE TABLE t (a INT64 GENERATED ALWAYS AS (1))", 24,
             "expected a column constraint of a declaration");
    decl_bad("CREATE TABLE t (a INT64 NOT NULL ON CONFLICT REPLACE)", 33,
             "ON CONFLICT has no place in a declaration");
    decl_bad("CREATE TABLE t (a INT64 NULL NOT NULL)", 16,
             "column 'a' is declared both NULL and NOT NULL");
    decl_bad("CREATE TABLE t (a INT64 DEFAULT 1 DEFAULT 2)", 34,
             "DEFAULT is given twice");
    decl_bad("CREATE TABLE t (a INT64 BACKFILL)", 32,
             "expected a value (a literal, an expression in parentheses, or "
             "now()), found ')'");
    decl_bad("CREATE TABLE t (a INT64 DEFAULT b)", 32, "expected a value");
    decl_bad("CREATE TABLE t (a INT64 RENAMED FROM b RENAMED FROM c)", 39,
             "RENAMED FROM is given twice");
    decl_bad("CREATE TABLE t (a INT64 REFERENCES p(a, b))", 36,
             "REFERENCES table (column) names one column");
    decl_bad("CREATE TABLE t (a INT64 REFERENCES p ON UPDATE CASCADE)", 40,
             "expected DELETE after ON");
    decl_bad("CREATE TABLE t (a INT64 REFERENCES p ON DELETE SET DEFAULT)",
             47, "expected RESTRICT, CASCADE or SET NULL after ON DELETE");
    decl_bad("CREATE TABLE t (a INT64 CHECK a > 0)", 30,
             "expected '(' and an expression after CHECK");
    decl_bad("CREATE TABLE t (a INT64 CHECK ())", 31, "expected an expression");
    decl_bad("CREATE TABLE t (a INT64, UNIQUE ())", 32,
             "UNIQUE names its columns");
    decl_bad("CREATE TABLE t (a INT64, UNIQUE (a,))", 35,
             "expected a column's name, found ')'");
    decl_bad("CREATE TABLE t (a INT64, UNIQUE (a b))", 35,
             "expected ',' or ')' after a column's name, found 'b'");
    decl_bad("CREATE TABLE t (a INT64, FOREIGN KEY (a) p(a))", 41,
             "expected REFERENCES after FOREIGN KEY (column)");
    decl_bad("CREATE TABLE t (a INT64, CHECK (a > 0) x)", 39,
             "expected ',' or ')' after a table constraint");
    decl_bad("CREATE VIEW v AS SELECT 1", 14,
             "expected '(' and the view's columns with their types");
    decl_bad("CREATE VIEW v (a) AS SELECT 1", 16,
             "expected the column's type");
    decl_bad("CREATE VIEW v (a INT64) SELECT 1", 24,
             "expected AS and the view's SELECT after its columns");
    decl_bad("CREATE VIEW v (a INT64) AS", 26,
             "expected the view's SELECT after AS");
    decl_bad("CREATE TABLE t (a INT64", 15, "'(' is never closed");
    decl_bad("CREATE TABLE t (a 'unterminated)", 18, "unterminated");
}

/* ---- rewriting EXTRACT ---- */

static void rewrites(const char *in, const char *want)
{
    bool oom = true;
    char *out = pier__sql_rewrite(in, strlen(in), &oom);
    assert_false(oom);
    if (want == NULL) {
        if (out != NULL)
            fail_msg("'%s' became '%s'", in, out);
        return;
    }
    if (out == NULL)
        fail_msg("'%s' was kept, want '%s'", in, want);
    if (strcmp(out, want) != 0)
        fail_msg("'%s' became '%s', want '%s'", in, out, want);
    free(out);
}

/* CAST(x AS T) to a type of the dialect becomes _pcs(x,'T') in as many
 * bytes, its ')' where it was; casts to SQLite's own types, and non-casts,
 * stay. */
static void test_rewrite_cast(void **state)
{
    (void)state;
    rewrites("SELECT CAST('1' AS DECIMAL)", "SELECT _pcs('1' ,'DECIMAL')");
    rewrites("SELECT cast(x AS decimal(10, 2)) FROM t",
             "SELECT _pcs(x ,'decimal(10, 2)') FROM t");
    rewrites("SELECT CAST ( x  AS  UUID  )", "SELECT _pcs(  x     ,'UUID')");
    rewrites("SELECT CAST('1'AS INT8)", "SELECT _pcs('1','INT8')");
    rewrites("SELECT CAST(CAST(a AS TEXT) AS TIME)",
             "SELECT _pcs(CAST(a AS TEXT) ,'TIME')");
    rewrites("SELECT CAST(x AS ENUM('a','b'))",
             "SELECT _pcs(x          ,'ENUM')");
    rewrites("SELECT CAST(CAST(x AS DATE) AS DECIMAL)",
             "SELECT _pcs(_pcs(x ,'DATE') ,'DECIMAL')");
    /* arrays, ANY and CHANGESET are the dialect's, of SQLite's own types
     * too (SQLite read INT64[] as an integer affinity) */
    rewrites("SELECT CAST(x AS TEXT[])", "SELECT _pcs(x ,'TEXT[]')");
    rewrites("SELECT CAST(x AS INT64[])", "SELECT _pcs(x ,'INT64[]')");
    rewrites("SELECT CAST(x AS ANY)", "SELECT _pcs(x ,'ANY')");
    rewrites("SELECT CAST(x AS CHANGESET)", "SELECT _pcs(x ,'CHANGESET')");
    /* names CREATE TABLE refuses stay for pier__sql_cast_refused */
    rewrites("SELECT CAST(x AS NUMERIC), CAST(x AS HUGEINT)", NULL);
    rewrites("SELECT CAST(x AS DOUBLE), CAST(x AS INT64), CAST(x AS BLOB)",
             NULL);
    rewrites("SELECT CAST(x AS INTEGER), CAST(x AS REAL), CAST(x AS TEXT)",
             NULL);
    rewrites("SELECT 'CAST(x AS DECIMAL)', t.cast(x AS DECIMAL)", NULL);
    rewrites("SELECT CAST(x AS DECIMAL", NULL);
    /* the cast's ')' stays where it was, so that a statement ending with
     * it (and a result column's name, as written) ends there too */
    const char *sql = "SELECT CAST(x AS ENUM('a', 'b'))";
    pier__sql_script s;
    assert_int_equal(pier__sql_parse(&s, sql, strlen(sql), NULL), PIER_OK);
    assert_int_equal(s.nstmts, 1);
    assert_int_equal(s.stmts[0].len, strlen(sql));
    pier__sql_script_free(&s);
}

/* A CAST to a name CREATE TABLE refuses is found, with its offset and
 * what to write instead; every other cast passes. */
static void test_cast_refused(void **state)
{
    (void)state;
    char why[256];
    size_t at = 0;
    const char *sql = "SELECT CAST(x AS INT64), CAST('0.1' AS NUMERIC)";
    assert_true(pier__sql_cast_refused(sql, strlen(sql), &at, why,
                                       sizeof why));
    assert_int_equal(at, 39);
    assert_non_null(strstr(why, "CAST to NUMERIC"));
    assert_non_null(strstr(why, "use DECIMAL"));
    sql = "SELECT CAST(h AS HUGEINT)";
    assert_true(pier__sql_cast_refused(sql, strlen(sql), &at, why,
                                       sizeof why));
    assert_non_null(strstr(why, "use INT128"));
    sql = "SELECT CAST(x AS DECIMAL(5,2)), CAST(x AS TEXT[]), "
          "CAST(x AS ENUM('a')), 'CAST(x AS NUMERIC)', t.cast(x AS INT)";
    assert_false(pier__sql_cast_refused(sql, strlen(sql), &at, why,
                                        sizeof why));
}

/* EXTRACT(field FROM x) becomes date_part('field', x) in as many bytes,
 * wherever SQLite would read those tokens, and nothing else changes. */
static void test_rewrite_extract(void **state)
{
    (void)state;
    rewrites("SELECT extract(year FROM d) FROM t",
             "SELECT date_part('year', d) FROM t");
    rewrites("SELECT EXTRACT ( Year  FROM d)",
             "SELECT date_part('year',    d)");
    rewrites("SELECT extract('epoch' FROM d)",
             "SELECT date_part('epoch',   d)");
    rewrites("SELECT extract(\"dow\"from d)",
             "SELECT date_part('dow',  d)");
    rewrites("SELECT extract(year/*c*/FROM(d))",
             "SELECT date_part('year',    (d))");
    rewrites("SELECT extract(day FROM extract(x FROM y))",
             "SELECT date_part('day', date_part('x', y))");
    rewrites("SELECT extract(month\n  FROM d); SELECT extract(day FROM e)",
             "SELECT date_part('month',   d); SELECT date_part('day', e)");
    /* Not the pattern, or not code: kept. */
    rewrites("SELECT 'extract(year FROM d)'", NULL);
    rewrites("SELECT \"extract\"(year FROM d)", NULL);
    rewrites("SELECT 1 -- extract(year FROM d)", NULL);
    rewrites("SELECT /* extract(year FROM d) */ 1", NULL);
    rewrites("SELECT extract('year', d)", NULL);
    rewrites("SELECT extract(year, d)", NULL);
    rewrites("SELECT t.extract(year FROM d)", NULL);
    rewrites("SELECT extract FROM t", NULL);
    rewrites("SELECT extract(\"it's\" FROM d)", NULL);
    rewrites("SELECT extract(1 FROM d)", NULL);
    rewrites("SELECT extract(year FROM", "SELECT date_part('year',");
    rewrites("SELECT extract(year FROM 'unterminated",
             "SELECT date_part('year', 'unterminated");
    rewrites("", NULL);
    /* A script parses in the rewritten text, at the offsets written. */
    pier__sql_script s;
    parse_ok(&s, "SELECT 1; CREATE VIEW v AS SELECT extract(year FROM d) "
             "FROM t", 2);
    assert_int_equal(s.stmts[1].kind, PIER__STMT_CREATE_VIEW);
    assert_int_equal(s.stmts[1].offset, 10);
    assert_string_equal(s.text, "SELECT 1; CREATE VIEW v AS SELECT "
                        "date_part('year', d) FROM t");
    pier__sql_script_free(&s);
    const char *plain = "SELECT 1";
    parse_ok(&s, plain, 1);
    assert_ptr_equal(s.text, plain);
    pier__sql_script_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rewrite_extract),
        cmocka_unit_test(test_rewrite_cast),
        cmocka_unit_test(test_cast_refused),
        cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_write_targets),
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_split_kinds),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_create_table_columns),
        cmocka_unit_test(test_create_table_constraints),
        cmocka_unit_test(test_create_table_options),
        cmocka_unit_test(test_column_flags),
        cmocka_unit_test(test_create_board),
        cmocka_unit_test(test_alter),
        cmocka_unit_test(test_index_view_drop),
        cmocka_unit_test(test_malformed_heads),
        cmocka_unit_test(test_unbalanced),
        cmocka_unit_test(test_unterminated),
        cmocka_unit_test(test_quote),
        cmocka_unit_test(test_declaration_columns),
        cmocka_unit_test(test_declaration_kinds),
        cmocka_unit_test(test_declaration_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
