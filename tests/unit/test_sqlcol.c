/*
 * test_sqlcol.c: a declared table's columns (src/types/sqlcol.h): the
 * collations' orders, and exact decimal arithmetic with every rounding.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "types/sqlcol.h"

/* ---- collations ---- */

typedef int (*collation)(const char *, size_t, const char *, size_t);

static int coll(collation f, const char *a, const char *b)
{
    return f(a, strlen(a), b, strlen(b));
}

static void assert_order(collation f, const char *a, const char *b,
                         int want)
{
    int got = coll(f, a, b), back = coll(f, b, a);
    if (got != want || back != -want)
        fail_msg("'%s' vs '%s': %d and back %d, want %d", a, b, got, back,
                 want);
}

/* `texts` are in ascending order with the groups of equal ones marked by
 * equal ranks: every pair compares as its ranks do (which also checks
 * antisymmetry), and every triple is transitive. */
static void assert_sorted(collation f, const char *const *texts,
                          const int *ranks, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            int want = (ranks[i] > ranks[j]) - (ranks[i] < ranks[j]);
            int got = coll(f, texts[i], texts[j]);
            if (got != want)
                fail_msg("'%s' vs '%s': %d, want %d", texts[i], texts[j],
                         got, want);
        }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            for (size_t k = 0; k < n; k++)
                if (coll(f, texts[i], texts[j]) <= 0 &&
                    coll(f, texts[j], texts[k]) <= 0)
                    assert_true(coll(f, texts[i], texts[k]) <= 0);
}

static void test_collate_numeric(void **state)
{
    (void)state;
    collation f = pier__collate_numeric;
    assert_order(f, "12.5", "12.50", 0);
    assert_order(f, "12.5", "1.25e1", 0);
    assert_order(f, "12.5", "125E-1", 0);
    assert_order(f, "12.5", "+012.500", 0);
    assert_order(f, "-0", "0", 0);
    assert_order(f, "0", "0.000e5", 0);
    assert_order(f, "-0.0", ".0", 0);
    assert_order(f, "9", "10", -1);
    assert_order(f, "-9", "-10", 1);
    assert_order(f, "0.001", "0.01", -1);
    assert_order(f, "-0.001", "0", -1);
    assert_order(f, "18446744073709551615", "9223372036854775808", 1);
    assert_order(f, "1e100000", "9", 1);
    assert_order(f, "1e-100000", "0", 1);
    assert_order(f, "100", "1e2", 0);
    assert_order(f, "1.000001", "1", 1);
    assert_order(f, "0.999999", "1", -1);
    /* No limit on digits: 60-digit integers and fractions. */
    assert_order(f,
                 "12345678901234567890123456789012345678901234567890"
                 "1234567890",
                 "12345678901234567890123456789012345678901234567890"
                 "1234567891",
                 -1);
    assert_order(f, "0.000000000000000000000000000000000000000000000000001",
                 "0.0000000000000000000000000000000000000000000000000009",
                 1);
    assert_order(f, "-99999999999999999999999999999999999999999999.5",
                 "-99999999999999999999999999999999999999999999.50000", 0);
    /* Texts that are not numbers sort last, bytewise among themselves. */
    assert_order(f, "abc", "1e100000", 1);
    assert_order(f, "1e100001", "5", 1);
    assert_order(f, "", "-5", 1);
    assert_order(f, "abc", "abd", -1);
    assert_order(f, "ab", "abc", -1);
    assert_order(f, "abc", "abc", 0);
    assert_order(f, "1.2.3", "Inf", -1);
    assert_order(f, "12.5", "12.5 ", -1);
    static const char *const texts[] = {
        "-1e3", "-999.99", "-1", "-1.0", "-0.5", "0", "-0", "0.00", "1e-3",
        "0.01", "1", "1.00", "10", "1e1", "18446744073709551615", "1e30",
        "", "-", "1.2.3", "Inf", "abc",
    };
    static const int ranks[] = {
        0, 1, 2, 2, 3, 4, 4, 4, 5, 6, 7, 7, 8, 8, 9, 10, 11, 12, 13, 14, 15,
    };
    assert_sorted(f, texts, ranks, sizeof texts / sizeof *texts);
}

static void test_collate_uuid(void **state)
{
    (void)state;
    collation f = pier__collate_uuid;
    assert_order(f, "123e4567-e89b-12d3-a456-426614174000",
                 "123E4567-E89B-12D3-A456-426614174000", 0);
    assert_order(f, "123e4567-e89b-12d3-a456-426614174000",
                 "123e4567e89b12d3a456426614174000", 0);
    assert_order(f, "00000000-0000-0000-0000-00000000000a",
                 "00000000-0000-0000-0000-00000000000B", -1);
    static const char *const texts[] = {
        "00000000000000000000000000000000",
        "00000000-0000-0000-0000-000000000001",
        "0000000000000000000000000000000F",
        "00000000-0000-0000-0000-000000000010",
        "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
        "ffffffffffffffffffffffffffffffff",
        "", "not a uuid", "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz",
    };
    static const int ranks[] = { 0, 1, 2, 3, 4, 4, 5, 6, 7 };
    assert_sorted(f, texts, ranks, sizeof texts / sizeof *texts);
}

static void test_collate_instant(void **state)
{
    (void)state;
    collation f = pier__collate_instant;
    assert_order(f, "2026-03-01T10:00:00+02:00", "2026-03-01T08:00:00Z", 0);
    assert_order(f, "2026-03-01T10:00:00.5Z", "2026-03-01t10:00:00.500000z",
                 0);
    assert_order(f, "2026-03-01 10:00:00Z", "2026-03-01T10:00:00Z", 0);
    /* Later by the clock, earlier in time. */
    assert_order(f, "2026-03-01T10:00:00+05:00", "2026-03-01T06:00:00Z", -1);
    assert_order(f, "2026-03-01T00:30:00+01:00", "2026-02-28T23:15:00Z", 1);
    assert_order(f, "2026-03-01T00:30:00+01:00", "2026-02-28T23:45:00Z", -1);
    static const char *const texts[] = {
        "0001-01-01T00:00:00Z", "1969-12-31T23:59:59.999999Z",
        "1970-01-01T01:00:00+01:00", "1970-01-01T00:00:00Z",
        "1970-01-01T00:00:00.000001Z", "9999-12-31T23:59:59.999999Z",
        "1970-01-01T00:00:00", "2026-02-30T00:00:00Z", "x",
    };
    static const int ranks[] = { 0, 1, 2, 2, 3, 4, 5, 6, 7 };
    assert_sorted(f, texts, ranks, sizeof texts / sizeof *texts);
}

static void test_collate_time_datetime(void **state)
{
    (void)state;
    collation t = pier__collate_time;
    assert_order(t, "10:00:00.5", "10:00:00.500", 0);
    assert_order(t, "10:00:00", "10:00:00.000000", 0);
    assert_order(t, "10:00:00.1234567", "10:00:00.123456", 0);
    assert_order(t, "09:59:59.999999", "10:00:00", -1);
    assert_order(t, "23:59:59", "24:00:00", -1);      /* not a time: last */
    assert_order(t, "10:00:00Z", "00:00:00", 1);
    static const char *const times[] = {
        "00:00:00", "00:00:00.000001", "09:59:59.999999", "10:00:00.0",
        "10:00:00", "10:00:00.5", "23:59:59.999999", "", "10:00", "ab",
    };
    static const int time_ranks[] = { 0, 1, 2, 3, 3, 4, 5, 6, 7, 8 };
    assert_sorted(t, times, time_ranks, sizeof times / sizeof *times);
    collation d = pier__collate_datetime;
    assert_order(d, "2026-03-01T10:00:00", "2026-03-01 10:00:00.000", 0);
    assert_order(d, "2026-03-01t10:00:00", "2026-03-01T10:00:00", 0);
    assert_order(d, "2026-03-01T10:00:00", "2026-03-02T09:00:00", -1);
    assert_order(d, "0001-01-01T00:00:00", "1970-01-01T00:00:00", -1);
    assert_order(d, "2026-03-01T10:00:00Z", "2026-03-01T10:00:00", 1);
    static const char *const dts[] = {
        "0001-01-01T00:00:00", "1969-12-31T23:59:59.999999",
        "1970-01-01 00:00:00", "1970-01-01T00:00:00.000",
        "9999-12-31T23:59:59.999999", "2026-03-01T10:00:00+01:00",
        "nope",
    };
    static const int dt_ranks[] = { 0, 1, 2, 2, 3, 4, 5 };
    assert_sorted(d, dts, dt_ranks, sizeof dts / sizeof *dts);
}

static void test_collate_interval(void **state)
{
    (void)state;
    collation f = pier__collate_interval;
    assert_order(f, "P1Y", "P12M", 0);
    assert_order(f, "PT60M", "PT1H", 0);
    assert_order(f, "P2W", "P14D", 0);
    assert_order(f, "P0D", "PT0S", 0);
    assert_order(f, "p1dt1h", "P1DT1H", 0);
    /* Months, then days, then time: a month is not 30 days. */
    assert_order(f, "P1M", "P30D", 1);
    assert_order(f, "P1M", "P31D", 1);
    assert_order(f, "P1D", "PT24H", 1);
    assert_order(f, "P1D", "PT25H", 1);
    assert_order(f, "P-1M", "PT0S", -1);
    static const char *const texts[] = {
        "P-1Y", "P-1M", "PT-1S", "PT0S", "P0D", "PT1S", "PT24H", "P1D",
        "P1DT1S", "P30D", "P1M", "P1MT1S", "P1Y", "P12M", "", "P", "xyz",
    };
    static const int ranks[] = {
        0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11, 12, 13, 14,
    };
    assert_sorted(f, texts, ranks, sizeof texts / sizeof *texts);
}

/* ---- decimal arithmetic ---- */

static pier__decimal dec(const char *text)
{
    pier__decimal d;
    const char *why = pier__decimal_parse(text, strlen(text), 0, 0, &d);
    if (why != NULL)
        fail_msg("'%s': %s", text, why);
    return d;
}

/* A decimal at an explicit scale ("1.00" keeps scale 2). */
static pier__decimal dec_at(const char *text, int scale)
{
    pier__decimal d;
    const char *why = pier__decimal_parse(text, strlen(text), 38, scale, &d);
    if (why != NULL)
        fail_msg("'%s': %s", text, why);
    return d;
}

static void assert_dec(pier__decimal d, const char *want)
{
    char text[PIER__DECIMAL_BUF];
    pier__decimal_format(d, text);
    if (strcmp(text, want) != 0)
        fail_msg("got %s, want %s", text, want);
}

static const char nines38[] = "99999999999999999999999999999999999999";

static void test_decimal_add_sub_mul(void **state)
{
    (void)state;
    pier__decimal r;
    assert_true(pier__decimal_add(dec("12.5"), dec("0.05"), &r));
    assert_dec(r, "12.55");
    assert_int_equal(r.scale, 2);
    assert_true(pier__decimal_add(dec_at("1.10", 2), dec("-1.1"), &r));
    assert_dec(r, "0.00");
    assert_true(pier__decimal_sub(dec("1"), dec("2.5"), &r));
    assert_dec(r, "-1.5");
    assert_true(pier__decimal_sub(dec("-1"), dec("-1"), &r));
    assert_dec(r, "0");
    assert_true(pier__decimal_add(dec(nines38), dec("0"), &r));
    assert_dec(r, nines38);
    /* 38 digits and one more. */
    pier__decimal minus38 = dec("-99999999999999999999999999999999999999");
    r = dec("7");
    assert_false(pier__decimal_add(dec(nines38), dec("1"), &r));
    assert_dec(r, "7");                     /* unchanged */
    assert_false(pier__decimal_sub(minus38, dec("1"), &r));
    assert_true(pier__decimal_add(dec(nines38), minus38, &r));
    assert_dec(r, "0");
    /* The smaller scale grows past 38 digits, yet the sum fits. */
    assert_true(pier__decimal_add(
        dec("1e36"), dec("-999999999999999999999999999999999999.99"), &r));
    assert_dec(r, "0.01");
    /* ... and past 128 bits, and the sum cannot fit. */
    assert_false(pier__decimal_add(
        dec(nines38), dec("0.00000000000000000000000000000000000001"), &r));
    assert_false(pier__decimal_add(dec("2e37"), dec("0.1"), &r));
    /* Products at the sum of the scales. */
    assert_true(pier__decimal_mul(dec("1.5"), dec("-0.2"), &r));
    assert_dec(r, "-0.30");
    assert_true(pier__decimal_mul(dec("-3"), dec("-4"), &r));
    assert_dec(r, "12");
    assert_true(pier__decimal_mul(dec("0"), dec(nines38), &r));
    assert_dec(r, "0");
    assert_true(pier__decimal_mul(dec("9999999999999999999"),
                                  dec("10000000000000000000"), &r));
    assert_dec(r, "99999999999999999990000000000000000000");
    assert_false(pier__decimal_mul(dec("10000000000000000000"),
                                   dec("10000000000000000000"), &r));
    assert_false(pier__decimal_mul(dec(nines38), dec(nines38), &r));
    assert_false(pier__decimal_mul(dec("0.00000000000000000001"),
                                   dec("0.0000000000000000001"), &r));
    assert_true(pier__decimal_mul(dec("0.0000000000000000001"),
                                  dec("0.0000000000000000001"), &r));
    assert_dec(r, "0.00000000000000000000000000000000000001");
    /* Operands that are not decimals. */
    pier__decimal big = { (pier__i128)(((pier__u128)1 << 127) - 1), 0 };
    assert_false(pier__decimal_add(big, dec("0"), &r));
    pier__decimal bad_scale = { 1, 39 };
    assert_false(pier__decimal_mul(bad_scale, dec("1"), &r));
    assert_false(pier__decimal_sub(dec("1"), bad_scale, &r));
}

static void test_rounding_parse(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        pier__rounding mode;
    } names[] = {
        { "half_even", PIER__ROUND_HALF_EVEN },
        { "HALF_UP", PIER__ROUND_HALF_UP },
        { "down", PIER__ROUND_DOWN },
        { "Up", PIER__ROUND_UP },
        { "floor", PIER__ROUND_FLOOR },
        { "CEILING", PIER__ROUND_CEILING },
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        pier__rounding m = PIER__ROUND_DOWN;
        if (names[i].mode == PIER__ROUND_DOWN)
            m = PIER__ROUND_UP;
        assert_true(pier__rounding_parse(names[i].name,
                                         strlen(names[i].name), &m));
        assert_int_equal(m, names[i].mode);
    }
    static const char *const bad[] = {
        "", "half", "half-even", "halfeven", "round", "ceil", "down ",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        pier__rounding m = PIER__ROUND_FLOOR;
        assert_false(pier__rounding_parse(bad[i], strlen(bad[i]), &m));
        assert_int_equal(m, PIER__ROUND_FLOOR);
    }
}

static void div_is(const char *a, const char *b, int scale,
                   pier__rounding mode, const char *want)
{
    pier__decimal r;
    const char *why = pier__decimal_div(dec(a), dec(b), scale, mode, &r);
    if (why != NULL)
        fail_msg("%s / %s at %d (mode %d): %s", a, b, scale, mode, why);
    char text[PIER__DECIMAL_BUF];
    pier__decimal_format(r, text);
    if (strcmp(text, want) != 0)
        fail_msg("%s / %s at %d (mode %d): %s, want %s", a, b, scale, mode,
                 text, want);
    assert_int_equal(r.scale, scale);
}

static void test_decimal_div_rounding(void **state)
{
    (void)state;
    /* Each mode on ties (x.5), below and above ties, by sign:
     *          HALF_EVEN HALF_UP DOWN UP FLOOR CEILING */
    static const struct {
        const char *a, *b;
        int scale;
        const char *want[6];
    } cases[] = {
        { "5", "2", 0, { "2", "3", "2", "3", "2", "3" } },       /* 2.5 */
        { "-5", "2", 0, { "-2", "-3", "-2", "-3", "-3", "-2" } },
        { "5", "-2", 0, { "-2", "-3", "-2", "-3", "-3", "-2" } },
        { "-5", "-2", 0, { "2", "3", "2", "3", "2", "3" } },
        { "7", "2", 0, { "4", "4", "3", "4", "3", "4" } },        /* 3.5 */
        { "-7", "2", 0, { "-4", "-4", "-3", "-4", "-4", "-3" } },
        { "1", "3", 2, { "0.33", "0.33", "0.33", "0.34", "0.33", "0.34" } },
        { "-1", "3", 2,
          { "-0.33", "-0.33", "-0.33", "-0.34", "-0.34", "-0.33" } },
        { "2", "3", 2, { "0.67", "0.67", "0.66", "0.67", "0.66", "0.67" } },
        { "-2", "3", 2,
          { "-0.67", "-0.67", "-0.66", "-0.67", "-0.67", "-0.66" } },
        { "0.125", "1", 2,
          { "0.12", "0.13", "0.12", "0.13", "0.12", "0.13" } },
        { "-0.125", "1", 2,
          { "-0.12", "-0.13", "-0.12", "-0.13", "-0.13", "-0.12" } },
        { "0.135", "1", 2,
          { "0.14", "0.14", "0.13", "0.14", "0.13", "0.14" } },
        { "6", "3", 1, { "2.0", "2.0", "2.0", "2.0", "2.0", "2.0" } },
        { "-6", "3", 0, { "-2", "-2", "-2", "-2", "-2", "-2" } },
        { "0", "-7", 3,
          { "0.000", "0.000", "0.000", "0.000", "0.000", "0.000" } },
        /* A quotient below one unit rounds to 0 or to one unit. */
        { "1", "3", 0, { "0", "0", "0", "1", "0", "1" } },
        { "-1", "3", 0, { "0", "0", "0", "-1", "-1", "0" } },
        { "1", "2", 0, { "0", "1", "0", "1", "0", "1" } },
        { "-1", "2", 0, { "0", "-1", "0", "-1", "-1", "0" } },
        /* The divisor takes the power of ten (a's scale > the result's),
         * beyond 128 bits in the last two. */
        { "0.00000000000000000000000000000000000005", "1", 37,
          { "0.0000000000000000000000000000000000000",
            "0.0000000000000000000000000000000000001",
            "0.0000000000000000000000000000000000000",
            "0.0000000000000000000000000000000000001",
            "0.0000000000000000000000000000000000000",
            "0.0000000000000000000000000000000000001" } },
        { "0.00000000000000000000000000000000000001", nines38, 0,
          { "0", "0", "0", "1", "0", "1" } },
        { "-0.99999999999999999999999999999999999999", nines38, 0,
          { "0", "0", "0", "-1", "-1", "0" } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (int m = 0; m < 6; m++)
            div_is(cases[i].a, cases[i].b, cases[i].scale, (pier__rounding)m,
                   cases[i].want[m]);
    /* 38 digits of a long division, some of whose remainders pass
     * 128 bits when multiplied by ten. */
    div_is("1", "3", 38, PIER__ROUND_HALF_EVEN,
           "0.33333333333333333333333333333333333333");
    div_is("2", "3", 38, PIER__ROUND_HALF_EVEN,
           "0.66666666666666666666666666666666666667");
    div_is("1", nines38, 38, PIER__ROUND_HALF_EVEN,
           "0.00000000000000000000000000000000000001");
    div_is("98765432109876543210987654321098765432", nines38, 37,
           PIER__ROUND_HALF_EVEN, "0.9876543210987654321098765432109876543");
    div_is("12345678901234567890123456789012345678", "7", 0,
           PIER__ROUND_DOWN, "1763668414462081127160493827001763668");
    div_is("12345678901234567890123456789012345678", "7", 0,
           PIER__ROUND_HALF_UP, "1763668414462081127160493827001763668");
    div_is("12345678901234567890123456789012345678", "-7", 0,
           PIER__ROUND_FLOOR, "-1763668414462081127160493827001763669");
    div_is("1.5", "0.25", 3, PIER__ROUND_HALF_EVEN, "6.000");
    div_is(nines38, "1", 0, PIER__ROUND_UP, nines38);
    /* Refusals leave *out alone. */
    pier__decimal r = dec("7");
    assert_non_null(strstr(pier__decimal_div(dec("1"), dec("0"), 2,
                                             PIER__ROUND_HALF_EVEN, &r),
                           "division by zero"));
    assert_non_null(strstr(pier__decimal_div(dec("10"), dec("3"), 38,
                                             PIER__ROUND_DOWN, &r),
                           "more than 38 digits"));
    assert_non_null(strstr(pier__decimal_div(dec(nines38), dec("0.1"), 0,
                                             PIER__ROUND_DOWN, &r),
                           "more than 38 digits"));
    assert_non_null(pier__decimal_div(dec("1"), dec("3"), 39,
                                      PIER__ROUND_DOWN, &r));
    assert_non_null(pier__decimal_div(dec("1"), dec("3"), -1,
                                      PIER__ROUND_DOWN, &r));
    assert_dec(r, "7");
}

static void exact_is(pier__decimal a, pier__decimal b, const char *want)
{
    pier__decimal r;
    const char *why = pier__decimal_div_exact(a, b, &r);
    if (why != NULL)
        fail_msg("exact division refused: %s", why);
    assert_dec(r, want);
}

static void test_decimal_div_exact(void **state)
{
    (void)state;
    exact_is(dec("1"), dec("4"), "0.25");
    exact_is(dec("1"), dec("-8"), "-0.125");
    exact_is(dec_at("1.00", 2), dec("2"), "0.50");  /* at least a's scale */
    exact_is(dec("1"), dec("0.5"), "2");
    exact_is(dec("1.5"), dec("0.25"), "6.0");
    exact_is(dec("-10"), dec("4"), "-2.5");
    exact_is(dec("3"), dec("3"), "1");
    exact_is(dec("0"), dec("7"), "0");
    exact_is(dec_at("0", 3), dec("-7"), "0.000");
    exact_is(dec("6"), dec("0.3"), "20");
    exact_is(dec("1"), dec("1024"), "0.0009765625");
    exact_is(dec("1"), dec("0.0000000000000000000000000000000000001"),
             "10000000000000000000000000000000000000");
    exact_is(dec("1"), dec("2e37"),
             "0.00000000000000000000000000000000000005");
    /* Not terminating, or not within 38 digits. */
    pier__decimal r = dec("7");
    const char *why = pier__decimal_div_exact(dec("1"), dec("3"), &r);
    assert_non_null(why);
    assert_non_null(strstr(why, "does not terminate"));
    assert_non_null(pier__decimal_div_exact(dec("1"), dec("6"), &r));
    assert_non_null(pier__decimal_div_exact(dec("22"), dec("7"), &r));
    /* 1 / 2^40 needs 40 places. */
    assert_non_null(pier__decimal_div_exact(dec("1"), dec("1099511627776"),
                                            &r));
    why = pier__decimal_div_exact(dec(nines38), dec("0.1"), &r);
    assert_non_null(why);
    assert_non_null(strstr(why, "more than 38 digits"));
    why = pier__decimal_div_exact(dec("1"), dec("0"), &r);
    assert_non_null(strstr(why, "division by zero"));
    assert_dec(r, "7");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collate_numeric),
        cmocka_unit_test(test_collate_uuid),
        cmocka_unit_test(test_collate_instant),
        cmocka_unit_test(test_collate_time_datetime),
        cmocka_unit_test(test_collate_interval),
        cmocka_unit_test(test_decimal_add_sub_mul),
        cmocka_unit_test(test_rounding_parse),
        cmocka_unit_test(test_decimal_div_rounding),
        cmocka_unit_test(test_decimal_div_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

