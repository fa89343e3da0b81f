/*
 * test_codecs.c: the SQL dialect's scalar text forms (src/types/codecs.h):
 * UUIDs and exact decimals, at every boundary: what is accepted and the
 * canonical text it reads back as, what is refused and why, and that no
 * value is ever rounded.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "types/codecs.h"

/* ---- UUID ---- */

static void test_uuid_round_trips(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        const char *out;
    } cases[] = {
        { "123e4567-e89b-12d3-a456-426614174000",
          "123e4567-e89b-12d3-a456-426614174000" },
        { "123E4567-E89B-12D3-A456-426614174000",
          "123e4567-e89b-12d3-a456-426614174000" },
        { "123e4567e89b12d3a456426614174000",
          "123e4567-e89b-12d3-a456-426614174000" },
        { "00000000-0000-0000-0000-000000000000",
          "00000000-0000-0000-0000-000000000000" },
        { "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
          "ffffffff-ffff-ffff-ffff-ffffffffffff" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        unsigned char b[16];
        char text[PIER__UUID_BUF];
        const char *why = pier__uuid_parse(cases[i].in, strlen(cases[i].in),
                                           b);
        if (why != NULL)
            fail_msg("%s: %s", cases[i].in, why);
        assert_int_equal(pier__uuid_format(b, text), 36);
        assert_string_equal(text, cases[i].out);
    }
    /* The bytes are in the order written, so byte order is text order. */
    unsigned char b[16];
    assert_null(pier__uuid_parse("0102030405060708090a0b0c0d0e0f10", 32, b));
    for (int i = 0; i < 16; i++)
        assert_int_equal(b[i], i + 1);
}

static void test_uuid_refusals(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",
        "123e4567-e89b-12d3-a456-42661417400",     /* 35 characters */
        "123e4567-e89b-12d3-a456-4266141740000",   /* 37 */
        "123e4567-e89b-12d3-a456_426614174000",    /* not a hyphen */
        "123e4567e-89b-12d3-a456-426614174000",    /* hyphen misplaced */
        "123e4567-e89b-12d3-a456-42661417400g",    /* not hex */
        "{23e4567-e89b-12d3-a456-426614174000}",
        "123e4567e89b12d3a45642661417400",         /* 31 digits */
        " 123e4567e89b12d3a456426614174000",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        unsigned char b[16];
        if (pier__uuid_parse(bad[i], strlen(bad[i]), b) == NULL)
            fail_msg("accepted '%s'", bad[i]);
    }
}

/* ---- DECIMAL ---- */

/* Parses `in` for DECIMAL(p,s) (p 0: DECIMAL) and checks its text. */
static void dec_ok(const char *in, int p, int s, const char *want)
{
    pier__decimal d;
    char text[PIER__DECIMAL_BUF];
    const char *why = pier__decimal_parse(in, strlen(in), p, s, &d);
    if (why != NULL)
        fail_msg("DECIMAL(%d,%d) refused '%s': %s", p, s, in, why);
    pier__decimal_format(d, text);
    if (strcmp(text, want) != 0)
        fail_msg("DECIMAL(%d,%d) '%s' -> '%s', want '%s'", p, s, in, text,
                 want);
}

/* Asserts that DECIMAL(p,s) refuses `in` for a reason holding `why`. */
static void dec_bad(const char *in, int p, int s, const char *why)
{
    pier__decimal d;
    const char *got = pier__decimal_parse(in, strlen(in), p, s, &d);
    if (got == NULL)
        fail_msg("DECIMAL(%d,%d) accepted '%s'", p, s, in);
    if (strstr(got, why) == NULL)
        fail_msg("DECIMAL(%d,%d) '%s': '%s', want a reason with '%s'", p, s,
                 in, got, why);
}

static void test_decimal_column_scale(void **state)
{
    (void)state;
    dec_ok("12.5", 12, 2, "12.50");
    dec_ok("12.50", 12, 2, "12.50");
    dec_ok("12.500", 12, 2, "12.50");          /* zeros round nothing */
    dec_ok("12", 12, 2, "12.00");
    dec_ok("-0.05", 12, 2, "-0.05");
    dec_ok("-0", 12, 2, "0.00");
    dec_ok("0", 12, 2, "0.00");
    dec_ok(".5", 12, 2, "0.50");
    dec_ok("5.", 12, 2, "5.00");
    dec_ok("+7", 12, 2, "7.00");
    dec_ok("0001.10", 12, 2, "1.10");
    dec_ok("1.25e1", 12, 2, "12.50");
    dec_ok("125E-2", 12, 2, "1.25");
    dec_ok("1e9", 12, 2, "1000000000.00");
    dec_ok("9999999999.99", 12, 2, "9999999999.99");   /* the largest */
    dec_ok("-9999999999.99", 12, 2, "-9999999999.99");
    dec_ok("7", 1, 0, "7");
    dec_ok("0.1", 1, 1, "0.1");
    dec_ok("3", 5, 0, "3");
    /* Scale: refused, never rounded. */
    dec_bad("12.345", 12, 2, "after the point");
    dec_bad("0.001", 12, 2, "after the point");
    dec_bad("1.5", 5, 0, "after the point");
    dec_bad("1e-3", 12, 2, "after the point");
    /* Precision. */
    dec_bad("10000000000", 12, 2, "before the point");
    dec_bad("10000000000.00", 12, 2, "before the point");
    dec_bad("99999999999", 12, 2, "before the point");
    dec_bad("1e10", 12, 2, "before the point");
    dec_bad("10", 1, 0, "before the point");
    dec_bad("1", 1, 1, "before the point");
}

static void test_decimal_wide(void **state)
{
    (void)state;
    /* 38 digits, the most: DECIMAL(38,0) and DECIMAL(38,38). */
    dec_ok("99999999999999999999999999999999999999", 38, 0,
           "99999999999999999999999999999999999999");
    dec_ok("-99999999999999999999999999999999999999", 38, 0,
           "-99999999999999999999999999999999999999");
    dec_bad("100000000000000000000000000000000000000", 38, 0,
            "before the point");
    dec_ok("0.99999999999999999999999999999999999999", 38, 38,
           "0.99999999999999999999999999999999999999");
    dec_ok("-0.00000000000000000000000000000000000001", 38, 38,
           "-0.00000000000000000000000000000000000001");
    dec_ok("1234567890123456789.0123456789", 38, 10,
           "1234567890123456789.0123456789");
}

static void test_decimal_unconstrained(void **state)
{
    (void)state;
    dec_ok("12.50", 0, 0, "12.5");              /* the smallest scale */
    dec_ok("0.10", 0, 0, "0.1");
    dec_ok("100", 0, 0, "100");
    dec_ok("1e3", 0, 0, "1000");
    dec_ok("1.5e-3", 0, 0, "0.0015");
    dec_ok("-0.000", 0, 0, "0");
    dec_ok("12345678901234567890123456789012345678", 0, 0,
           "12345678901234567890123456789012345678");
    dec_ok("0.00000000000000000000000000000000000001", 0, 0,
           "0.00000000000000000000000000000000000001");
    /* Trailing zeros are free, however many. */
    dec_ok("1.0000000000000000000000000000000000000000000000000000000000"
           "00000000000000000000000000000000000000000000000000000000000000"
           "000000000000000000000000000000000000000000000000000000000000000"
           "0000000000000000000000000000000000000000000000000000000000", 0,
           0, "1");
    dec_ok("0000000000000000000000000000000000000000000000000000000000000"
           "0000000000000000000000000000000000000000000000000000000000000"
           "0000000000000000000000000000000000000000000000000000000000000"
           "000000000000000000000000000000000000000000000000000000000042",
           0, 0, "42");
    dec_bad("123456789012345678901234567890123456789", 0, 0, "38 digits");
    dec_bad("1e38", 0, 0, "38 digits");
    dec_bad("1.00000000000000000000000000000000000001", 0, 0, "38 digits");
    dec_bad("1e-39", 0, 0, "38 digits");
}

static void test_decimal_syntax(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", "-", "+", ".", "-.", "1.2.3", "1,5", "abc", "1e", "1e+",
        "e5", " 1", "1 ", "0x10", "1.5f", "NaN", "Infinity", "--1", "1e5e5",
        "1e1000000",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        pier__decimal d;
        if (pier__decimal_parse(bad[i], strlen(bad[i]), 12, 2, &d) == NULL)
            fail_msg("accepted '%s'", bad[i]);
        if (pier__decimal_parse(bad[i], strlen(bad[i]), 0, 0, &d) == NULL)
            fail_msg("DECIMAL accepted '%s'", bad[i]);
    }
}

static void test_decimal_rescale(void **state)
{
    (void)state;
    pier__decimal d = { 1250, 2 }, out;
    char text[PIER__DECIMAL_BUF];
    assert_true(pier__decimal_rescale(d, 4, &out));
    pier__decimal_format(out, text);
    assert_string_equal(text, "12.5000");
    assert_false(pier__decimal_rescale(d, 1, &out));   /* would round */
    assert_false(pier__decimal_rescale(d, 39, &out));
    pier__decimal wide;
    assert_null(pier__decimal_parse("1234567890123456789012345678901234567",
                                    37, 0, 0, &wide));
    assert_true(pier__decimal_rescale(wide, 1, &out));
    assert_false(pier__decimal_rescale(wide, 2, &out));
    pier__decimal zero = { 0, 0 };
    assert_true(pier__decimal_rescale(zero, 38, &out));
    pier__decimal_format(out, text);
    assert_string_equal(text, "0.00000000000000000000000000000000000000");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uuid_round_trips),
        cmocka_unit_test(test_uuid_refusals),
        cmocka_unit_test(test_decimal_column_scale),
        cmocka_unit_test(test_decimal_wide),
        cmocka_unit_test(test_decimal_unconstrained),
        cmocka_unit_test(test_decimal_syntax),
        cmocka_unit_test(test_decimal_rescale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
