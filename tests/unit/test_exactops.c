/*
 * test_exactops.c: a statement's operators written as Pier's exact
 * functions (src/sql/exactops.c): what each construct becomes, the names
 * of result columns, and the text the reader gives up on.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "sql/sql.h"

/* The call a tree of operators becomes. */
#define E(prog, args) "(_pxe('" prog "', " args ") COLLATE pier_numeric)"

static void rewritten(const char *sql, const char *want)
{
    pier__buf b;
    pier__buf_init(&b);
    bool any = pier__sql_exact_ops(&b, sql, strlen(sql), NULL);
    if (want == NULL) {
        if (any)
            fail_msg("'%s' became '%.*s'", sql, (int)b.len, b.p);
    } else {
        if (!any)
            fail_msg("'%s' was left as it is", sql);
        if (b.len != strlen(want) || memcmp(b.p, want, b.len) != 0)
            fail_msg("'%s' became\n'%.*s', want\n'%s'", sql, (int)b.len,
                     b.p, want);
    }
    pier__buf_free(&b);
}

static void test_operators(void **state)
{
    (void)state;
    rewritten("UPDATE t SET a = a+1", "UPDATE t SET a = " E("xx+", "a, 1"));
    /* one call per tree, in postfix: precedence and associativity */
    rewritten("UPDATE t SET a = a+b*c",
              "UPDATE t SET a = " E("xxx*+", "a, b, c"));
    rewritten("UPDATE t SET a = a-b-c",
              "UPDATE t SET a = " E("xx-x-", "a, b, c"));
    rewritten("UPDATE t SET a = (a+b)/c%d",
              "UPDATE t SET a = " E("xx+x/x%", "a, b, c, d"));
    rewritten("UPDATE t SET a = (a + b) * (c - d)",
              "UPDATE t SET a = " E("xx+xx-*", "a, b, c, d"));
    /* unary minus; a negative literal stays one */
    rewritten("UPDATE t SET a = -a*-2",
              "UPDATE t SET a = " E("xnx*", "a, -2"));
    rewritten("UPDATE t SET a = -(a+b)",
              "UPDATE t SET a = " E("xx+n", "a, b"));
    /* concatenation binds tighter, comparison looser */
    rewritten("DELETE FROM t WHERE a||b+1",
              "DELETE FROM t WHERE " E("xx+", "a||b, 1"));
    rewritten("DELETE FROM t WHERE a+1>2",
              "DELETE FROM t WHERE _pxc(" E("xx+", "a, 1") ",2) > 0");
    rewritten("DELETE FROM t WHERE 2 <= a*2 AND b = 1",
              "DELETE FROM t WHERE _pxc(2 , " E("xx*", "a, 2")
              ") <= 0 AND b = 1");
    /* COLLATE on an operand keeps its comparison */
    rewritten("DELETE FROM t WHERE a*2 = b COLLATE nocase",
              "DELETE FROM t WHERE " E("xx*", "a, 2") " = b COLLATE nocase");
    /* a leaf is any expression: a call, a subquery, CASE */
    rewritten("UPDATE t SET a = f(a, b) * (SELECT count(c) FROM u) + CASE "
              "WHEN a THEN 1 END",
              "UPDATE t SET a = " E("xx*x+", "f(a, b), (SELECT count(c) FROM "
                                           "u), CASE WHEN a THEN 1 END"));
}

static void test_predicates(void **state)
{
    (void)state;
    rewritten("DELETE FROM t WHERE a*2 BETWEEN 1 AND 3",
              "DELETE FROM t WHERE (_pxc(" E("xx*", "a, 2") ",1) >= 0 AND "
              "_pxc(" E("xx*", "a, 2") ",3) <= 0)");
    rewritten("DELETE FROM t WHERE a*2 NOT IN (1, 2)",
              "DELETE FROM t WHERE (NOT (_pxc(" E("xx*", "a, 2")
              ",1) = 0 OR _pxc(" E("xx*", "a, 2") ",2) = 0))");
    /* a subquery stays (the store refuses what it cannot compare) */
    rewritten("DELETE FROM t WHERE a*2 IN (SELECT b FROM u)",
              "DELETE FROM t WHERE " E("xx*", "a, 2")
              " IN (SELECT b FROM u)");
    rewritten("DELETE FROM t WHERE a IS NOT NULL AND a+1 IS NULL",
              "DELETE FROM t WHERE a IS NOT NULL AND " E("xx+", "a, 1")
              " IS NULL");
    rewritten("DELETE FROM t WHERE a LIKE 'x%' ESCAPE '!' OR a-1 NOTNULL",
              "DELETE FROM t WHERE a LIKE 'x%' ESCAPE '!' OR "
              E("xx-", "a, 1") " NOTNULL");
}

static void test_functions_and_names(void **state)
{
    (void)state;
    /* functions computing decimals: the collation, and their comparisons */
    rewritten("SELECT k FROM t GROUP BY k HAVING sum(v) > 1",
              "SELECT k FROM t GROUP BY k HAVING "
              "_pxc((sum(v) COLLATE pier_numeric) , 1) > 0");
    rewritten("SELECT sum(v) FILTER (WHERE v > 0) OVER w FROM t",
              "SELECT (sum(v) FILTER (WHERE v > 0) OVER w COLLATE "
              "pier_numeric) AS \"sum(v) FILTER (WHERE v > 0) OVER w\" "
              "FROM t");
    rewritten("SELECT _pcs(x,'DECIMAL(5,2)') < 1",
              "SELECT _pxc((_pcs(x,'DECIMAL(5,2)') COLLATE pier_numeric) , "
              "1) < 0 AS \"_pcs(x,'DECIMAL(5,2)') < 1\"");
    rewritten("SELECT _pcs(x,'UUID') < 1", NULL);
    /* a result column keeps its name; an alias, explicit or not, stays */
    rewritten("SELECT a+1, b*2 AS d, c-1 e, \"x\"\"y\"%2 FROM t",
              "SELECT " E("xx+", "a, 1") " AS \"a+1\", " E("xx*", "b, 2")
              " AS d, " E("xx-", "c, 1") " e, " E("xx%", "\"x\"\"y\", 2")
              " AS \"\"\"x\"\"\"\"y\"\"%2\" FROM t");
    rewritten("SELECT DISTINCT a+1 FROM t",
              "SELECT DISTINCT " E("xx+", "a, 1") " AS \"a+1\" FROM t");
    rewritten("DELETE FROM t RETURNING a+1, b",
              "DELETE FROM t RETURNING " E("xx+", "a, 1") " AS \"a+1\", b");
    /* a qualified call is no aggregate to fuse (s.sum: SQLite refuses it;
     * main.json_each in FROM is a table) */
    rewritten("SELECT s.sum(a*2) FROM t",
              "SELECT s.sum(" E("xx*", "a, 2") ") AS \"s.sum(a*2)\" FROM t");
    /* not in the result columns: no name */
    rewritten("SELECT a FROM t ORDER BY a+1",
              "SELECT a FROM t ORDER BY " E("xx+", "a, 1"));
}

static void test_choices(void **state)
{
    (void)state;
    /* a choice compared: by value, as any exact value is */
    rewritten("DELETE FROM t WHERE coalesce(a, 0) > 5",
              "DELETE FROM t WHERE _pxc(coalesce(a, 0) , 5) > 0");
    rewritten("DELETE FROM t WHERE 1 = CASE WHEN b THEN a ELSE 0 END",
              "DELETE FROM t WHERE _pxc(1 , CASE WHEN b THEN a ELSE 0 END) "
              "= 0");
    rewritten("DELETE FROM t WHERE ifnull(a, 0) BETWEEN 1 AND 2",
              "DELETE FROM t WHERE (_pxc(ifnull(a, 0),1) >= 0 AND "
              "_pxc(ifnull(a, 0),2) <= 0)");
    rewritten("DELETE FROM t WHERE iif(b, a, 1) IN (1, 2)",
              "DELETE FROM t WHERE (_pxc(iif(b, a, 1),1) = 0 OR "
              "_pxc(iif(b, a, 1),2) = 0)");
    /* not a choice: a function of its own, a qualified name, a COLLATE */
    rewritten("DELETE FROM t WHERE lower(a) > 5", NULL);
    rewritten("DELETE FROM t WHERE s.coalesce(a, 0) > 5", NULL);
    rewritten("DELETE FROM t WHERE coalesce(a, 0) > 5 COLLATE nocase", NULL);
    /* an exact value beside a subquery: one value */
    rewritten("DELETE FROM t WHERE a*1 > (SELECT min(a) FROM t)",
              "DELETE FROM t WHERE _pxc(" E("xx*", "a, 1")
              " , (SELECT (min(a) COLLATE pier_numeric) AS \"min(a)\" "
              "FROM t)) > 0");
    /* the scalar min and max: by value; the aggregates keep their names */
    rewritten("SELECT max(a, 0) FROM t",
              "SELECT (_pxmax(a, 0) COLLATE pier_numeric) AS \"max(a, 0)\" "
              "FROM t");
    rewritten("DELETE FROM t WHERE MIN(a, b, 3) < 1",
              "DELETE FROM t WHERE _pxc((_pxmin(a, b, 3) COLLATE "
              "pier_numeric) , 1) < 0");
    rewritten("SELECT max(a) FROM t",
              "SELECT (max(a) COLLATE pier_numeric) AS \"max(a)\" FROM t");
}

static void test_statements(void **state)
{
    (void)state;
    /* SET's assignments are not comparisons */
    rewritten("UPDATE t SET a = a*2, (b, c) = (1, c-1) WHERE d = 1",
              "UPDATE t SET a = " E("xx*", "a, 2") ", (b, c) = (1, "
              E("xx-", "c, 1") ") WHERE d = 1");
    rewritten("INSERT INTO t(a, b) VALUES (1, 2*3) ON CONFLICT(a) DO UPDATE "
              "SET b = b+excluded.b",
              "INSERT INTO t(a, b) VALUES (1, " E("xx*", "2, 3")
              ") ON CONFLICT (a) DO UPDATE SET b = "
              E("xx+", "b, excluded.b"));
    rewritten("INSERT OR REPLACE INTO t SELECT a/2 FROM u",
              "INSERT OR REPLACE INTO t SELECT " E("xx/", "a, 2")
              " AS \"a/2\" FROM u");
    rewritten("WITH c(x) AS (SELECT a-1 FROM t) SELECT x FROM c",
              "WITH c(x) AS (SELECT " E("xx-", "a, 1")
              " AS \"a-1\" FROM t) SELECT x FROM c");
    rewritten("SELECT CASE WHEN a*2 > 1 THEN b ELSE -c END FROM t",
              "SELECT CASE WHEN _pxc(" E("xx*", "a, 2")
              " , 1) > 0 THEN b ELSE " E("xn", "c") " END AS "
              "\"CASE WHEN a*2 > 1 THEN b ELSE -c END\" FROM t");
    /* comments and strings are copied as they are; a line comment keeps
     * its line feed */
    rewritten("SELECT a /* + */ + '1+1' -- x+y\n FROM t",
              "SELECT " E("xx+", "a /* + */, '1+1'")
              " AS \"a /* + */ + '1+1'\" -- x+y\n FROM t");
    rewritten("SELECT a -- c\n + b FROM t",
              "SELECT " E("xx+", "a -- c\n, b") " AS \"a -- c\n + b\" FROM t");
    /* a board query's placeholders are names */
    rewritten("SELECT {{board}}.d * 2 FROM {{board}} JOIN {{board:o}} ON "
              "{{board:o}}.id = {{board}}.id",
              "SELECT " E("xx*", "{{board}}.d, 2")
              " AS \"{{board}}.d * 2\" FROM {{board}} JOIN {{board:o}} ON "
              "{{board:o}}.id = {{board}}.id");
    /* what the rewrite writes never joins the token before or after it */
    rewritten("DELETE FROM t WHERE(a*2)>1",
              "DELETE FROM t WHERE _pxc(" E("xx*", "a, 2") ",1) > 0");
    rewritten("DELETE FROM t WHERE 1<(a*2)AND b",
              "DELETE FROM t WHERE _pxc(1," E("xx*", "a, 2") ") < 0 AND b");
    /* (a lone '#' is a parameter, one SQLite refuses, yet to be named) */
    rewritten("UPDATE u##=a+2", "UPDATE u # _pxc(#," E("xx+", "a, 2")
              ") = 0");
    /* nothing to rewrite */
    rewritten("SELECT a, b FROM t WHERE a = 1", NULL);
}

static void test_many_leaves(void **state)
{
    (void)state;
    /* past 100 leaves, a tree nests calls */
    char sql[2048] = "SELECT a0";
    for (int i = 1; i < 150; i++)
        sprintf(sql + strlen(sql), "+a%d", i);
    pier__buf b;
    pier__buf_init(&b);
    assert_true(pier__sql_exact_ops(&b, sql, strlen(sql), NULL));
    size_t calls = 0;
    for (size_t i = 0; i + 5 <= b.len; i++)
        calls += memcmp(b.p + i, "_pxe(", 5) == 0;
    assert_true(calls >= 2);
    pier__buf_free(&b);
}

static void test_gives_up(void **state)
{
    (void)state;
    rewritten("SELECT a+ FROM t", NULL);
    rewritten("SELECT (a+1 FROM t", NULL);
    rewritten("SELECT a+1) FROM t", NULL);
    rewritten("SELECT 'a+1", NULL);
    rewritten("SELECT CASE WHEN a+1 THEN 1", NULL);
    /* a parameter's Tcl-style "(...)" left open (SQLite refuses it) */
    rewritten("SELECT a+:b(", NULL);
    /* deeper than the reader goes */
    char deep[2048] = "SELECT ";
    for (int i = 0; i < 300; i++)
        strcat(deep, "(");
    strcat(deep, "a+1");
    for (int i = 0; i < 300; i++)
        strcat(deep, ")");
    rewritten(deep, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_operators),
        cmocka_unit_test(test_predicates),
        cmocka_unit_test(test_functions_and_names),
        cmocka_unit_test(test_choices),
        cmocka_unit_test(test_statements),
        cmocka_unit_test(test_many_leaves),
        cmocka_unit_test(test_gives_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
