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

#include <string.h>

#include "sql/sql.h"

#define X(a, op, b) "(_px" op "(" a "," b ") COLLATE pier_numeric)"

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
    rewritten("UPDATE t SET a = a+1", "UPDATE t SET a = " X("a", "a", "1"));
    /* precedence and associativity */
    rewritten("UPDATE t SET a = a+b*c",
              "UPDATE t SET a = " X("a", "a", X("b", "m", "c")));
    rewritten("UPDATE t SET a = a-b-c",
              "UPDATE t SET a = " X(X("a", "s", "b"), "s", "c"));
    rewritten("UPDATE t SET a = (a+b)/c%d",
              "UPDATE t SET a = "
              X(X("(" X("a", "a", "b") ")", "d", "c"), "r", "d"));
    /* unary minus; a negative literal stays one */
    rewritten("UPDATE t SET a = -a*-2",
              "UPDATE t SET a = " X("(_pxn(a) COLLATE pier_numeric)", "m",
                                    "-2"));
    /* concatenation binds tighter, comparison looser */
    rewritten("DELETE FROM t WHERE a||b+1",
              "DELETE FROM t WHERE " X("a||b", "a", "1"));
    rewritten("DELETE FROM t WHERE a+1>2",
              "DELETE FROM t WHERE _pxc(" X("a", "a", "1") ",2) > 0");
    rewritten("DELETE FROM t WHERE 2 <= a*2 AND b = 1",
              "DELETE FROM t WHERE _pxc(2 , " X("a", "m", "2")
              ") <= 0 AND b = 1");
    /* COLLATE on an operand keeps its comparison */
    rewritten("DELETE FROM t WHERE a*2 = b COLLATE nocase",
              "DELETE FROM t WHERE " X("a", "m", "2") " = b COLLATE nocase");
}

static void test_predicates(void **state)
{
    (void)state;
    rewritten("DELETE FROM t WHERE a*2 BETWEEN 1 AND 3",
              "DELETE FROM t WHERE (_pxc(" X("a", "m", "2") ",1) >= 0 AND "
              "_pxc(" X("a", "m", "2") ",3) <= 0)");
    rewritten("DELETE FROM t WHERE a*2 NOT IN (1, 2)",
              "DELETE FROM t WHERE (NOT (_pxc(" X("a", "m", "2")
              ",1) = 0 OR _pxc(" X("a", "m", "2") ",2) = 0))");
    /* a subquery stays (the store refuses what it cannot compare) */
    rewritten("DELETE FROM t WHERE a*2 IN (SELECT b FROM u)",
              "DELETE FROM t WHERE " X("a", "m", "2")
              " IN (SELECT b FROM u)");
    rewritten("DELETE FROM t WHERE a IS NOT NULL AND a+1 IS NULL",
              "DELETE FROM t WHERE a IS NOT NULL AND " X("a", "a", "1")
              " IS NULL");
    rewritten("DELETE FROM t WHERE a LIKE 'x%' ESCAPE '!' OR a-1 NOTNULL",
              "DELETE FROM t WHERE a LIKE 'x%' ESCAPE '!' OR "
              X("a", "s", "1") " NOTNULL");
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
              "SELECT " X("a", "a", "1") " AS \"a+1\", " X("b", "m", "2")
              " AS d, " X("c", "s", "1") " e, " X("\"x\"\"y\"", "r", "2")
              " AS \"\"\"x\"\"\"\"y\"\"%2\" FROM t");
    rewritten("SELECT DISTINCT a+1 FROM t",
              "SELECT DISTINCT " X("a", "a", "1") " AS \"a+1\" FROM t");
    /* not in the result columns: no name */
    rewritten("SELECT a FROM t ORDER BY a+1",
              "SELECT a FROM t ORDER BY " X("a", "a", "1"));
}

static void test_statements(void **state)
{
    (void)state;
    /* SET's assignments are not comparisons */
    rewritten("UPDATE t SET a = a*2, (b, c) = (1, c-1) WHERE d = 1",
              "UPDATE t SET a = " X("a", "m", "2") ", (b, c) = (1, "
              X("c", "s", "1") ") WHERE d = 1");
    rewritten("INSERT INTO t(a, b) VALUES (1, 2*3) ON CONFLICT(a) DO UPDATE "
              "SET b = b+excluded.b",
              "INSERT INTO t(a, b) VALUES (1, " X("2", "m", "3")
              ") ON CONFLICT(a) DO UPDATE SET b = " X("b", "a", "excluded.b"));
    rewritten("INSERT OR REPLACE INTO t SELECT a/2 FROM u",
              "INSERT OR REPLACE INTO t SELECT " X("a", "d", "2")
              " AS \"a/2\" FROM u");
    rewritten("WITH c(x) AS (SELECT a-1 FROM t) SELECT x FROM c",
              "WITH c(x) AS (SELECT " X("a", "s", "1")
              " AS \"a-1\" FROM t) SELECT x FROM c");
    rewritten("SELECT CASE WHEN a*2 > 1 THEN b ELSE -c END FROM t",
              "SELECT CASE WHEN _pxc(" X("a", "m", "2")
              " , 1) > 0 THEN b ELSE (_pxn(c) COLLATE pier_numeric) END AS "
              "\"CASE WHEN a*2 > 1 THEN b ELSE -c END\" FROM t");
    /* comments and strings are copied as they are */
    rewritten("SELECT a /* + */ + '1+1' -- x+y\n FROM t",
              "SELECT " X("a /* + */ ", "a", " '1+1'")
              " AS \"a /* + */ + '1+1'\" -- x+y\n FROM t");
    /* nothing to rewrite */
    rewritten("SELECT a, b FROM t WHERE a = 1", NULL);
}

static void test_gives_up(void **state)
{
    (void)state;
    rewritten("SELECT a+ FROM t", NULL);
    rewritten("SELECT (a+1 FROM t", NULL);
    rewritten("SELECT a+1) FROM t", NULL);
    rewritten("SELECT 'a+1", NULL);
    rewritten("SELECT CASE WHEN a+1 THEN 1", NULL);
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
        cmocka_unit_test(test_statements),
        cmocka_unit_test(test_gives_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
