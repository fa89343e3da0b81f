/*
 * test_complete.c: what the shell's Tab offers (tools/pier/complete.c),
 * from a line, the cursor and a lake's names; no terminal. The shell's own
 * use of it, on a terminal, is in test_shell.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "complete.h"

static const char *const boards[] = { "notes", "tasks", "tags" };
static const char *const tables[] = { "Orders", "parts" };
static const cli_owned_column columns[] = {
    { "tasks", "id" },     { "tasks", "title" },  { "tasks", "done" },
    { "notes", "id" },     { "notes", "text" },   { "tags", "tag" },
    { "Orders", "total" }, { "Orders", "item" },  { "parts", "qty" },
};

static cli_names names(const char *board, bool sql_mode)
{
    cli_names n = { boards, 3, tables, 2, columns,
                    sizeof columns / sizeof *columns, board, sql_mode };
    return n;
}

/* Completes `line` with the cursor at its '|' (or at its end) and checks
 * the candidates: `want` is them joined by ' ', "" for none. */
static void check_at(const char *line, const cli_names *nm,
                     size_t want_start, const char *want)
{
    char buf[256];
    const char *bar = strchr(line, '|');
    size_t cursor = bar != NULL ? (size_t)(bar - line) : strlen(line);
    snprintf(buf, sizeof buf, "%.*s%s", (int)cursor, line,
             bar != NULL ? bar + 1 : "");
    cli_completion c;
    assert_true(cli_complete(&c, buf, cursor, nm));
    char got[1024] = "";
    for (size_t i = 0; i < c.n; i++) {
        if (i > 0)
            strcat(got, " ");
        strcat(got, c.items[i]);
    }
    assert_string_equal(got, want);
    assert_int_equal(c.start, want_start);
    assert_int_equal(c.kind, CLI_COMPLETE_WORDS);
    cli_completion_free(&c);
}

static void test_dot_commands(void **state)
{
    (void)state;
    cli_names n = names(NULL, false);
    check_at(".u", &n, 0, ".use");
    check_at("  .s", &n, 2, ".schema .sql");
    check_at(".h", &n, 0, ".headers .help");
    check_at(".o", &n, 0, ".once .output");
    check_at(".", &n, 0,
             ".boards .dump .exit .format .headers .help .import .mode "
             ".once .output .pager .param .quit .read .schema .sql "
             ".tables .timer .use .with .with-table");
    check_at(".zz", &n, 0, "");
    check_at(".u| tasks", &n, 0, ".use");
}

static void test_dot_arguments(void **state)
{
    (void)state;
    cli_names n = names(NULL, false);
    check_at(".use ta", &n, 5, "tags tasks");
    check_at(".use  ", &n, 6, "notes tags tasks");
    check_at(".use tasks ", &n, 11, "");          /* one argument only */
    check_at(".schema n", &n, 8, "notes");
    check_at(".with tasks t", &n, 12, "tags tasks");   /* any number */
    check_at(".with-table ", &n, 12, "Orders parts");   /* tables only */
    check_at(".with-table Orders p", &n, 19, "parts");
    check_at(".dump ", &n, 6, "Orders notes parts tags tasks");
    check_at(".dump o", &n, 6, "Orders");
    check_at(".import rows.json t", &n, 18, "tags tasks");
    check_at(".mode b", &n, 6, "box");
    check_at(".format j", &n, 8, "json jsonl");
    check_at(".headers o", &n, 9, "off on");
    check_at(".pager of", &n, 7, "off");
    check_at(".timer x", &n, 7, "");
    check_at(".param ", &n, 7, "");
    check_at(".nope ", &n, 6, "");
    check_at(".quit ", &n, 6, "");
}

static void test_files(void **state)
{
    (void)state;
    cli_names n = names(NULL, false);
    const char *lines[] = { ".read sc", ".output /tmp/x", ".once ",
                            ".import da" };
    size_t starts[] = { 6, 8, 6, 8 };
    for (size_t i = 0; i < 4; i++) {
        cli_completion c;
        assert_true(cli_complete(&c, lines[i], strlen(lines[i]), &n));
        assert_int_equal(c.kind, CLI_COMPLETE_FILES);
        assert_int_equal(c.start, starts[i]);
        assert_int_equal(c.n, 0);
        assert_false(c.closed);
        cli_completion_free(&c);
    }
}

static void test_keywords_and_names(void **state)
{
    (void)state;
    cli_names n = names(NULL, false);
    check_at("SEL", &n, 0, "SELECT");
    check_at("sel", &n, 0, "select");           /* the prefix's case */
    check_at("select * fr", &n, 9, "from");
    check_at("SELECT * FROM ta", &n, 14, "table tag tags tasks");
    check_at("SELECT * FROM or", &n, 14, "Orders or order");
    check_at("", &n, 0,
             "ALL ALTER AND AS ASC AVG BEGIN BETWEEN BY CASE CAST CHECK "
             "COMMIT CONFLICT COUNT CREATE CROSS DEFAULT DELETE DESC "
             "DISTINCT DROP ELSE END EXCEPT EXISTS FROM GLOB GROUP "
             "HAVING IN INDEX INNER INSERT INTERSECT INTO IS JOIN KEY LEFT "
             "LIKE LIMIT MAX MIN NOT NULL OFFSET ON OR ORDER Orders PRIMARY "
             "REFERENCES RETURNING ROLLBACK SELECT SET SUM TABLE THEN UNION "
             "UNIQUE UPDATE USING VALUES VIEW WHEN WHERE WITH done id item "
             "notes parts qty tag tags tasks text title total");
}

static void test_templates(void **state)
{
    (void)state;
    cli_names n = names("tasks", false);
    check_at("SELECT * FROM {{", &n, 16,
             "board:notes}} board:tags}} board:tasks}} board}}");
    check_at("SELECT * FROM {{board:t", &n, 22, "tags}} tasks}}");
    check_at("SELECT * FROM {{board:|}}", &n, 22,
             "notes}} tags}} tasks}}");
}

static void test_columns(void **state)
{
    (void)state;
    cli_names q = names("tasks", false);
    /* the current board's, when the line names no other */
    check_at("SELECT ti", &q, 7, "title");
    check_at("SELECT t", &q, 7, "table tags tasks then title");
    /* of the boards the line names, before or after the cursor */
    check_at("SELECT te| FROM {{board:notes}}", &q, 7, "text");
    check_at("SELECT t| FROM {{board}} JOIN {{board:tags}} USING (id)", &q,
             7, "table tag tags tasks then title");
    /* NAME.: the columns of NAME only, no keywords */
    check_at("SELECT notes.", &q, 13, "id text");
    check_at("SELECT x.t| FROM {{board}} x", &q, 9, "title");
    check_at("SELECT | {{board:notes}}", &q, 7, "ALL ALTER AND AS ASC AVG "
             "BEGIN BETWEEN BY CASE CAST CHECK COMMIT CONFLICT COUNT CREATE "
             "CROSS DEFAULT DELETE DESC DISTINCT DROP ELSE END EXCEPT EXISTS "
             "FROM GLOB GROUP HAVING IN INDEX INNER INSERT INTERSECT INTO IS "
             "JOIN KEY LEFT LIKE LIMIT MAX MIN NOT NULL OFFSET ON OR ORDER "
             "Orders PRIMARY REFERENCES RETURNING ROLLBACK SELECT SET SUM "
             "TABLE THEN UNION UNIQUE UPDATE USING VALUES VIEW WHEN WHERE "
             "WITH id notes parts tags tasks text");
    check_at("SELECT |{{board:notes}}", &q, 7, "ALL ALTER AND AS ASC AVG "
             "BEGIN BETWEEN BY CASE CAST CHECK COMMIT CONFLICT COUNT CREATE "
             "CROSS DEFAULT DELETE DESC DISTINCT DROP ELSE END EXCEPT EXISTS "
             "FROM GLOB GROUP HAVING IN INDEX INNER INSERT INTERSECT INTO IS "
             "JOIN KEY LEFT LIKE LIMIT MAX MIN NOT NULL OFFSET ON OR ORDER "
             "Orders PRIMARY REFERENCES RETURNING ROLLBACK SELECT SET SUM "
             "TABLE THEN UNION UNIQUE UPDATE USING VALUES VIEW WHEN WHERE "
             "WITH id notes parts tags tasks text");
    /* in SQL mode, of the tables named, case aside */
    cli_names s = names("tasks", true);
    check_at("SELECT it| FROM orders", &s, 7, "item");
    check_at("SELECT q| FROM parts", &s, 7, "qty");
    check_at("SELECT orders.t", &s, 14, "total");
    /* unclear (no board in use, nothing named): every column */
    cli_names none = names(NULL, true);
    check_at("SELECT t", &none, 7,
             "table tag tags tasks text then title total");
    /* the word being completed is no owner of itself */
    check_at("SELECT * FROM tasks", &none, 14, "tasks");
}

static void test_nothing_to_offer(void **state)
{
    (void)state;
    cli_names empty = { NULL, 0, NULL, 0, NULL, 0, NULL, false };
    check_at(".use ", &empty, 5, "");
    check_at("SELECT * FROM {{board:", &empty, 22, "");
    check_at("zzz", &empty, 0, "");
    /* a cursor past the end is the end */
    cli_completion c;
    assert_true(cli_complete(&c, ".us", 99, &empty));
    assert_int_equal(c.n, 1);
    assert_string_equal(c.items[0], ".use");
    assert_true(c.closed);
    cli_completion_free(&c);
    cli_completion_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dot_commands),
        cmocka_unit_test(test_dot_arguments),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_keywords_and_names),
        cmocka_unit_test(test_templates),
        cmocka_unit_test(test_columns),
        cmocka_unit_test(test_nothing_to_offer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
