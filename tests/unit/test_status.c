/*
 * test_status.c: every pier_status has a unique, stable tag, and
 * docs/errors.md lists exactly the same tags with the same values (the
 * page users read cannot drift from the code).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

static char *read_doc(void)
{
    const char *src = getenv("PIER_SOURCE_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/docs/errors.md", src ? src : ".");
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void tags_are_unique_and_known(void **state)
{
    (void)state;
    for (int i = 0; i < PIER_STATUS_COUNT; i++) {
        const char *t = pier_status_tag((pier_status)i);
        assert_string_not_equal(t, "Unknown");
        for (int j = 0; j < i; j++)
            assert_string_not_equal(t, pier_status_tag((pier_status)j));
    }
    assert_string_equal(pier_status_tag((pier_status)PIER_STATUS_COUNT),
                        "Unknown");
    assert_string_equal(pier_status_tag((pier_status)-1), "Unknown");
    assert_string_equal(pier_status_tag(PIER_E_COLUMN_TYPE_CONFLICT),
                        "ColumnTypeConflict");
}

static void docs_list_every_tag_with_its_value(void **state)
{
    (void)state;
    const char *doc = read_doc();
    for (int i = 0; i < PIER_STATUS_COUNT; i++) {
        char row[128];
        snprintf(row, sizeof row, "| `%s` | %d |",
                 pier_status_tag((pier_status)i), i);
        if (strstr(doc, row) == NULL)
            fail_msg("docs/errors.md has no row %s", row);
    }
}

static void docs_list_no_other_tag(void **state)
{
    (void)state;
    const char *doc = read_doc();
    int rows = 0;
    for (const char *p = doc; (p = strstr(p, "\n| `")) != NULL; p++)
        rows++;
    assert_int_equal(rows, PIER_STATUS_COUNT);
}

static void fail_fills_every_field(void **state)
{
    (void)state;
    pier_error err;
    memset(&err, 'x', sizeof err);
    pier_status rc = pier__fail(&err, PIER_E_BOARD_NOT_FOUND, "no board '%s'",
                                "nope");
    assert_int_equal(rc, PIER_E_BOARD_NOT_FOUND);
    assert_int_equal(err.status, PIER_E_BOARD_NOT_FOUND);
    assert_string_equal(err.tag, "BoardNotFound");
    assert_string_equal(err.message, "no board 'nope'");
    assert_string_equal(err.board, "");
    assert_string_equal(err.column, "");
    assert_int_equal(err.offset, -1);
    pier__error_board(&err, "nope");
    pier__error_types(&err, "bigint", "text");
    assert_string_equal(err.board, "nope");
    assert_string_equal(err.column_type, "bigint");
    assert_string_equal(err.value_type, "text");
    /* A NULL error is allowed everywhere. */
    assert_int_equal(pier__fail(NULL, PIER_E_INVALID_JSON, "x"),
                     PIER_E_INVALID_JSON);
    pier__error_board(NULL, "x");
}

static void long_fields_are_cut_on_a_character_boundary(void **state)
{
    (void)state;
    pier_error err;
    pier__fail(&err, PIER_E_UNKNOWN_COLUMN, "x");
    char name[300];
    /* "é" is two bytes: 127 bytes of room must not end half-way. */
    for (size_t i = 0; i < 298; i += 2) {
        name[i] = (char)0xC3;
        name[i + 1] = (char)0xA9;
    }
    name[298] = '\0';
    pier__error_column(&err, name);
    size_t n = strlen(err.column);
    assert_true(n <= sizeof err.column - 1);
    assert_int_equal(n % 2, 0);
    assert_true(pier__utf8_valid(err.column, n));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tags_are_unique_and_known),
        cmocka_unit_test(docs_list_every_tag_with_its_value),
        cmocka_unit_test(docs_list_no_other_tag),
        cmocka_unit_test(fail_fills_every_field),
        cmocka_unit_test(long_fields_are_cut_on_a_character_boundary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
