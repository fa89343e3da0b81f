/*
 * test_rows.c: the pier_rows builder and the batch under it
 * (src/engine/rows.c).
 *
 * Every setter stores the value it was given, copied, with the row's byte
 * size kept up to date; every refused call returns its exact status and
 * leaves the batch as it was; a cleared batch is reusable.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/rows.h"

static void assert_name(const pier__field *f, const char *name)
{
    assert_int_equal(f->name_len, strlen(name));
    assert_memory_equal(f->name, name, f->name_len);
}

/* The batch still holds exactly `nrows` rows and `nfields` fields. */
static void assert_shape(const pier_rows *rows, size_t nrows, size_t nfields)
{
    assert_int_equal(pier_rows_count(rows), nrows);
    assert_int_equal(rows->nrows, nrows);
    assert_int_equal(rows->nfields, nfields);
}

static void test_new_free(void **state)
{
    (void)state;
    pier_rows *rows = pier_rows_new();
    assert_non_null(rows);
    assert_shape(rows, 0, 0);
    pier_rows_free(rows);
    pier_rows_free(NULL);
    pier_rows_clear(NULL);
    assert_int_equal(pier_rows_count(NULL), 0);
}

static void test_no_row_started(void **state)
{
    (void)state;
    pier_rows *rows = pier_rows_new();
    assert_non_null(rows);
    pier_error err;
    pier_hugeint h = { 0, 1 };
    pier_status rcs[] = {
        pier_rows_set_null(rows, "a", &err),
        pier_rows_set_bool(rows, "a", true, &err),
        pier_rows_set_int64(rows, "a", 1, &err),
        pier_rows_set_hugeint(rows, "a", h, &err),
        pier_rows_set_double(rows, "a", 1.5, &err),
        pier_rows_set_text(rows, "a", "x", &err),
        pier_rows_set_timestamp(rows, "a", 0, &err),
        pier_rows_set_json(rows, "a", "{}", &err),
    };
    for (size_t i = 0; i < sizeof rcs / sizeof *rcs; i++)
        assert_int_equal(rcs[i], PIER_E_INVALID_ARGUMENT);
    assert_string_equal(err.tag, "InvalidArgument");
    assert_string_equal(err.message, "pier_rows_add must start a row first");
    assert_shape(rows, 0, 0);

    /* err may be NULL. */
    assert_int_equal(pier_rows_set_int64(rows, "a", 1, NULL),
                     PIER_E_INVALID_ARGUMENT);
    pier_rows_free(rows);
}

static void test_null_arguments(void **state)
{
    (void)state;
    pier_error err;
    assert_int_equal(pier_rows_add(NULL, &err), PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_rows_set_int64(NULL, "a", 1, &err),
                     PIER_E_INVALID_ARGUMENT);

    pier_rows *rows = pier_rows_new();
    assert_non_null(rows);
    assert_int_equal(pier_rows_add(rows, &err), PIER_OK);
    pier_hugeint h = { 0, 1 };
    pier_status rcs[] = {
        pier_rows_set_null(rows, NULL, &err),
        pier_rows_set_bool(rows, NULL, true, &err),
        pier_rows_set_int64(rows, NULL, 1, &err),
        pier_rows_set_hugeint(rows, NULL, h, &err),
        pier_rows_set_double(rows, NULL, 1.5, &err),
        pier_rows_set_text(rows, NULL, "x", &err),
        pier_rows_set_timestamp(rows, NULL, 0, &err),
        pier_rows_set_json(rows, NULL, "{}", &err),
        pier_rows_set_text(rows, "a", NULL, &err),
        pier_rows_set_json(rows, "a", NULL, &err),
    };
    for (size_t i = 0; i < sizeof rcs / sizeof *rcs; i++)
        assert_int_equal(rcs[i], PIER_E_INVALID_ARGUMENT);
    assert_shape(rows, 1, 0);
    assert_int_equal(rows->row_bytes[0], 0);
    pier_rows_free(rows);
}

static void test_every_setter(void **state)
{
    (void)state;
    pier_rows *rows = pier_rows_new();
    assert_non_null(rows);
    pier_error err;
    pier_hugeint h = { INT64_MIN, 0 };          /* -2^127 */
    assert_int_equal(pier_rows_add(rows, &err), PIER_OK);
    assert_int_equal(pier_rows_set_text(rows, "id", "r1", &err), PIER_OK);
    assert_int_equal(pier_rows_set_null(rows, "gone", &err), PIER_OK);
    assert_int_equal(pier_rows_set_bool(rows, "ok", true, &err), PIER_OK);
    assert_int_equal(pier_rows_set_bool(rows, "no", false, &err), PIER_OK);
    assert_int_equal(pier_rows_set_int64(rows, "n", INT64_MIN, &err),
                     PIER_OK);
    assert_int_equal(pier_rows_set_hugeint(rows, "h", h, &err), PIER_OK);
    assert_int_equal(pier_rows_set_double(rows, "d", -2.5, &err), PIER_OK);
    assert_int_equal(pier_rows_set_timestamp(rows, "at",
                                             1767322800123456, &err),
                     PIER_OK);
    assert_int_equal(pier_rows_set_json(rows, "doc",
                                        " { \"b\" : [true, null],"
                                        " \"a\" : {\"y\":2, \"x\":1.5} } ",
                                        &err),
                     PIER_OK);
    assert_int_equal(pier_rows_set_text(rows, "name", "caf\xC3\xA9", &err),
                     PIER_OK);
    assert_shape(rows, 1, 10);
    assert_int_equal(rows->row_start[0], 0);
    assert_int_equal(pier__rows_row_end(rows, 0), 10);

    const pier__field *f = rows->fields;
    assert_name(&f[0], "id");
    assert_int_equal(f[0].value.kind, PIER_KIND_TEXT);
    assert_int_equal(f[0].value.n, 2);
    assert_memory_equal(f[0].value.s, "r1", 2);
    assert_name(&f[1], "gone");
    assert_int_equal(f[1].value.kind, PIER_KIND_NULL);
    assert_int_equal(f[2].value.kind, PIER_KIND_BOOLEAN);
    assert_true(f[2].value.u.b);
    assert_int_equal(f[3].value.kind, PIER_KIND_BOOLEAN);
    assert_false(f[3].value.u.b);
    assert_int_equal(f[4].value.kind, PIER_KIND_BIGINT);
    assert_true(f[4].value.u.i == INT64_MIN);
    assert_int_equal(f[5].value.kind, PIER_KIND_HUGEINT);
    assert_true(f[5].value.u.h == (pier__i128)((pier__u128)1 << 127));
    assert_int_equal(f[6].value.kind, PIER_KIND_DOUBLE);
    assert_true(f[6].value.u.d == -2.5);
    assert_name(&f[7], "at");
    assert_int_equal(f[7].value.kind, PIER_KIND_TIMESTAMP);
    assert_true(f[7].value.u.i == 1767322800123456);
    assert_name(&f[8], "doc");
    assert_int_equal(f[8].value.kind, PIER_KIND_JSON);
    const char *canon = "{\"a\":{\"x\":1.5,\"y\":2},\"b\":[true,null]}";
    assert_int_equal(f[8].value.n, strlen(canon));
    assert_memory_equal(f[8].value.s, canon, f[8].value.n);
    assert_int_equal(f[9].value.kind, PIER_KIND_TEXT);
    assert_int_equal(f[9].value.n, 5);
    assert_memory_equal(f[9].value.s, "caf\xC3\xA9", 5);

    /* Names and values: id 2+2, gone 4+0, ok 2+8, no 2+8, n 1+8, h 1+16,
     * d 1+8, at 2+8, doc 3+canonical, name 4+5. */
    size_t want = 4 + 4 + 10 + 10 + 9 + 17 + 9 + 10 + 3 + strlen(canon) + 9;
    assert_int_equal(rows->row_bytes[0], want);
    pier_rows_free(rows);
}

static void test_hugeint_values(void **state)
{
    (void)state;
    static const pier_hugeint cases[] = {
        { 0, 0 }, { 0, UINT64_MAX }, { -1, UINT64_MAX }, { -1, 0 },
        { INT64_MAX, UINT64_MAX }, { INT64_MIN, 0 }, { 1, 2 },
    };
    pier_rows *rows = pier_rows_new();
    assert_non_null(rows);
    assert_int_equal(pier_rows_add(rows, NULL), PIER_OK);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_int_equal(pier_rows_set_hugeint(rows, "h", cases[i], NULL),
                         PIER_OK);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pier__i128 want = (pier__i128)(((pier__u128)(uint64_t)cases[i].hi
                                        << 64) | cases[i].lo);
        assert_int_equal(rows->fields[i].value.kind, PIER_KIND_HUGEINT);
        assert_true(rows->fields[i].value.u.h == want);
    }
    pier_rows_free(rows);
}

static void test_values_are_copied(void **state)
{
    (void)state;
    pier_rows *rows = pier_rows_new();
    assert_non_null(rows);
    char name[] = "col";
    char text[] = "hello";
    char json[] = "[1,2]";
    assert_int_equal(pier_rows_add(rows, NULL), PIER_OK);
    assert_int_equal(pier_rows_set_text(rows, name, text, NULL), PIER_OK);
    assert_int_equal(pier_rows_set_json(rows, name, json, NULL), PIER_OK);
    memset(name, 'X', 3);
    memset(text, 'X', 5);
    memset(json, 'X', 5);
    assert_name(&rows->fields[0], "col");
    assert_memory_equal(rows->fields[0].value.s, "hello", 5);
    assert_name(&rows->fields[1], "col");
    assert_memory_equal(rows->fields[1].value.s, "[1,2]", 5);
    assert_true(rows->fields[0].name != name);
    pier_rows_free(rows);
}

static void test_names_not_checked(void **state)
{
    (void)state;
    /* The insert path checks names for both write paths alike. */
    pier_rows *rows = pier_rows_new();
    assert_non_null(rows);
    assert_int_equal(pier_rows_add(rows, NULL), PIER_OK);
    assert_int_equal(pier_rows_set_int64(rows, "", 1, NULL), PIER_OK);
    assert_int_equal(pier_rows_set_int64(rows, "_reserved", 2, NULL),
                     PIER_OK);
    assert_int_equal(pier_rows_set_int64(rows, "A", 3, NULL), PIER_OK);
    assert_int_equal(pier_rows_set_int64(rows, "a", 4, NULL), PIER_OK);
    assert_int_equal(pier_rows_set_int64(rows, "a", 5, NULL), PIER_OK);
    assert_shape(rows, 1, 5);
    assert_name(&rows->fields[0], "");
    assert_int_equal(rows->fields[4].value.u.i, 5);
    pier_rows_free(rows);
}

static void test_double_not_finite(void **state)
{
    (void)state;
    pier_rows *rows = pier_rows_new();
    assert_non_null(rows);
    pier_error err;
    assert_int_equal(pier_rows_add(rows, &err), PIER_OK);
    assert_int_equal(pier_rows_set_double(rows, "d", 1.0, &err), PIER_OK);
    size_t bytes = rows->row_bytes[0];
    const double bad[] = { NAN, -NAN, INFINITY, -INFINITY };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(pier_rows_set_double(rows, "d", bad[i], &err),
                         PIER_E_INVALID_ARGUMENT);
        assert_string_equal(err.tag, "InvalidArgument");
        assert_non_null(strstr(err.message, "'d'"));
    }
    assert_shape(rows, 1, 1);
    assert_int_equal(rows->row_bytes[0], bytes);
    /* The extremes of the finite range are fine. */
    assert_int_equal(pier_rows_set_double(rows, "d", 1.7976931348623157e308,
                                          &err), PIER_OK);
    assert_int_equal(pier_rows_set_double(rows, "d", -0.0, &err), PIER_OK);
    assert_int_equal(pier_rows_set_double(rows, "d", 4.9e-324, &err),
                     PIER_OK);
    assert_true(signbit(rows->fields[2].value.u.d));
    pier_rows_free(rows);
}

static void test_text_utf8(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "\xFF", "ab\xC3", "\xC0\x80", "\xE0\x80\x80", "\xED\xA0\x80",
        "\xF4\x90\x80\x80", "\x80", "ok\xF0\x9F\x98",
    };
    pier_rows *rows = pier_rows_new();
    assert_non_null(rows);
    pier_error err;
    assert_int_equal(pier_rows_add(rows, &err), PIER_OK);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(pier_rows_set_text(rows, "t", bad[i], &err),
                         PIER_E_INVALID_ARGUMENT);
        assert_non_null(strstr(err.message, "UTF-8"));
    }
    assert_shape(rows, 1, 0);
    assert_int_equal(rows->row_bytes[0], 0);
    assert_int_equal(pier_rows_set_text(rows, "t", "", &err), PIER_OK);
    assert_int_equal(pier_rows_set_text(rows, "t", "\xF0\x9F\x98\x80", &err),
                     PIER_OK);
    assert_int_equal(rows->fields[0].value.n, 0);
    assert_int_equal(rows->fields[1].value.n, 4);
    assert_int_equal(rows->row_bytes[0], 1 + 0 + 1 + 4);
    pier_rows_free(rows);
}

static void test_json_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", "{", "{\"a\":}", "[1,]", "{'a':1}", "1", "\"text\"", "null",
        "{} {}", "[1e400]",
    };
    pier_rows *rows = pier_rows_new();
    assert_non_null(rows);
    pier_error err;
    assert_int_equal(pier_rows_add(rows, &err), PIER_OK);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        pier_status rc = pier_rows_set_json(rows, "doc", bad[i], &err);
        if (rc != PIER_E_INVALID_JSON)
            fail_msg("'%s': status %d", bad[i], (int)rc);
        assert_string_equal(err.tag, "InvalidJson");
        assert_true(err.offset >= 0);
        assert_string_equal(err.column, "doc");
    }
    assert_shape(rows, 1, 0);
    assert_int_equal(rows->row_bytes[0], 0);
    pier_rows_free(rows);
}

static void test_many_rows(void **state)
{
    (void)state;
    /* Enough rows and fields to grow every array several times. */
    pier_rows *rows = pier_rows_new();
    assert_non_null(rows);
    char name[16];
    for (size_t r = 0; r < 1000; r++) {
        assert_int_equal(pier_rows_add(rows, NULL), PIER_OK);
        for (size_t c = 0; c < r % 7; c++) {
            snprintf(name, sizeof name, "c%zu", c);
            assert_int_equal(pier_rows_set_int64(rows, name,
                                                 (int64_t)(r * 10 + c), NULL),
                             PIER_OK);
        }
    }
    assert_int_equal(pier_rows_count(rows), 1000);
    size_t k = 0;
    for (size_t r = 0; r < 1000; r++) {
        assert_int_equal(rows->row_start[r], k);
        assert_int_equal(pier__rows_row_end(rows, r) - k, r % 7);
        assert_int_equal(rows->row_bytes[r], (r % 7) * (2 + 8));
        for (size_t c = 0; c < r % 7; c++, k++) {
            snprintf(name, sizeof name, "c%zu", c);
            assert_name(&rows->fields[k], name);
            assert_true(rows->fields[k].value.u.i == (int64_t)(r * 10 + c));
        }
    }
    assert_int_equal(rows->nfields, k);

    /* One wide row. */
    pier_rows_clear(rows);
    assert_int_equal(pier_rows_add(rows, NULL), PIER_OK);
    for (size_t c = 0; c < 10000; c++) {
        snprintf(name, sizeof name, "c%zu", c);
        assert_int_equal(pier_rows_set_text(rows, name, name, NULL),
                         PIER_OK);
    }
    assert_shape(rows, 1, 10000);
    assert_name(&rows->fields[9999], "c9999");
    assert_memory_equal(rows->fields[9999].value.s, "c9999", 5);
    pier_rows_free(rows);
}

static void test_clear_and_reuse(void **state)
{
    (void)state;
    pier_rows *rows = pier_rows_new();
    assert_non_null(rows);
    pier_error err;
    for (int round = 0; round < 3; round++) {
        assert_int_equal(pier_rows_add(rows, &err), PIER_OK);
        assert_int_equal(pier_rows_set_text(rows, "id", "a", &err), PIER_OK);
        assert_int_equal(pier_rows_add(rows, &err), PIER_OK);
        assert_int_equal(pier_rows_set_text(rows, "id", "b", &err), PIER_OK);
        assert_int_equal(pier_rows_set_int64(rows, "n", round, &err),
                         PIER_OK);
        assert_shape(rows, 2, 3);
        assert_int_equal(rows->row_start[1], 1);
        assert_int_equal(rows->row_bytes[0], 3);
        assert_int_equal(rows->row_bytes[1], 3 + 9);
        assert_true(rows->fields[2].value.u.i == round);
        pier_rows_clear(rows);
        assert_shape(rows, 0, 0);
        /* After a clear no row is started. */
        assert_int_equal(pier_rows_set_text(rows, "id", "c", &err),
                         PIER_E_INVALID_ARGUMENT);
    }
    pier_rows_free(rows);
}

static void test_empty_rows(void **state)
{
    (void)state;
    pier_rows *rows = pier_rows_new();
    assert_non_null(rows);
    assert_int_equal(pier_rows_add(rows, NULL), PIER_OK);
    assert_int_equal(pier_rows_add(rows, NULL), PIER_OK);
    assert_int_equal(pier_rows_set_bool(rows, "b", true, NULL), PIER_OK);
    assert_int_equal(pier_rows_add(rows, NULL), PIER_OK);
    assert_shape(rows, 3, 1);
    assert_int_equal(pier__rows_row_end(rows, 0), 0);
    assert_int_equal(rows->row_start[1], 0);
    assert_int_equal(pier__rows_row_end(rows, 1), 1);
    assert_int_equal(rows->row_start[2], 1);
    assert_int_equal(pier__rows_row_end(rows, 2), 1);
    assert_int_equal(rows->row_bytes[0], 0);
    assert_int_equal(rows->row_bytes[1], 9);
    pier_rows_free(rows);
}

static void test_batch_row_limit(void **state)
{
    (void)state;
    pier_rows *rows = pier_rows_new();
    assert_non_null(rows);
    pier_error err;
    for (size_t r = 0; r < PIER_MAX_BATCH_ROWS; r++)
        assert_int_equal(pier_rows_add(rows, &err), PIER_OK);
    assert_int_equal(pier_rows_add(rows, &err), PIER_E_LIMIT_EXCEEDED);
    assert_string_equal(err.tag, "LimitExceeded");
    assert_int_equal(pier_rows_count(rows), PIER_MAX_BATCH_ROWS);
    /* The latest row is still the one the setters fill. */
    assert_int_equal(pier_rows_set_int64(rows, "n", 1, &err), PIER_OK);
    assert_int_equal(rows->row_start[PIER_MAX_BATCH_ROWS - 1], 0);
    pier_rows_clear(rows);
    assert_int_equal(pier_rows_add(rows, &err), PIER_OK);
    pier_rows_free(rows);
}

static void test_internal_push(void **state)
{
    (void)state;
    pier_rows rows;
    pier__rows_init(&rows);
    pier_error err;
    pier__value v = { .kind = PIER_KIND_TEXT, .s = "abcdef", .n = 3 };
    assert_int_equal(pier__rows_push(&rows, "x", 1, &v, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier__rows_begin(&rows, &err), PIER_OK);
    /* Names and strings are taken by length, not up to a NUL. */
    assert_int_equal(pier__rows_push(&rows, "name_and_more", 4, &v, &err),
                     PIER_OK);
    assert_name(&rows.fields[0], "name");
    assert_int_equal(rows.fields[0].value.n, 3);
    assert_memory_equal(rows.fields[0].value.s, "abc", 3);
    assert_true(rows.fields[0].value.s != v.s);
    /* push_owned keeps the pointers it is given. */
    char *owned = pier__arena_strndup(&rows.arena, "kept", 4);
    assert_non_null(owned);
    pier__value w = { .kind = PIER_KIND_TEXT, .s = owned, .n = 4 };
    assert_int_equal(pier__rows_push_owned(&rows, owned, 4, &w, &err),
                     PIER_OK);
    assert_ptr_equal(rows.fields[1].name, owned);
    assert_ptr_equal(rows.fields[1].value.s, owned);
    assert_int_equal(rows.row_bytes[0], 4 + 3 + 4 + 4);
    pier__rows_release(&rows);
    assert_int_equal(rows.nrows, 0);
    pier__rows_release(&rows);          /* twice is harmless */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_free),
        cmocka_unit_test(test_no_row_started),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_every_setter),
        cmocka_unit_test(test_hugeint_values),
        cmocka_unit_test(test_values_are_copied),
        cmocka_unit_test(test_names_not_checked),
        cmocka_unit_test(test_double_not_finite),
        cmocka_unit_test(test_text_utf8),
        cmocka_unit_test(test_json_refused),
        cmocka_unit_test(test_many_rows),
        cmocka_unit_test(test_clear_and_reuse),
        cmocka_unit_test(test_empty_rows),
        cmocka_unit_test(test_batch_row_limit),
        cmocka_unit_test(test_internal_push),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
