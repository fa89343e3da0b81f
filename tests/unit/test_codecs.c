/*
 * test_codecs.c: the SQL dialect's scalar text forms (src/types/codecs.h):
 * UUIDs, exact decimals, dates, times, date-times and intervals, at every
 * boundary: what is accepted and the
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

/* Version 4: the random bytes but for the version and variant bits. */
static void test_uuid_v4(void **state)
{
    (void)state;
    unsigned char ones[16], zeros[16] = { 0 }, b[16];
    char text[PIER__UUID_BUF];
    memset(ones, 0xff, sizeof ones);
    pier__uuid_v4(ones, b);
    pier__uuid_format(b, text);
    assert_string_equal(text, "ffffffff-ffff-4fff-bfff-ffffffffffff");
    pier__uuid_v4(zeros, b);
    pier__uuid_format(b, text);
    assert_string_equal(text, "00000000-0000-4000-8000-000000000000");
}

/* pier_uuid_generate: the public generator. Version 7 UUIDs of one
 * generator increase strictly, 4 and 7 carry their version and variant,
 * and another version is refused. */
static void test_uuid_generate(void **state)
{
    (void)state;
    pier_uuid_gen gen = PIER_UUID_GEN_INIT;
    pier_error err;
    char prev[PIER_UUID_TEXT_SIZE] = "", text[PIER_UUID_TEXT_SIZE];
    unsigned char b[16];
    for (int i = 0; i < 5000; i++) {
        assert_int_equal(pier_uuid_generate(text, &gen, 7, &err), PIER_OK);
        assert_int_equal(strlen(text), 36);
        assert_null(pier__uuid_parse(text, 36, b));
        assert_int_equal(text[14], '7');
        assert_non_null(strchr("89ab", text[19]));
        assert_true(strcmp(prev, text) < 0);
        memcpy(prev, text, sizeof text);
    }
    assert_int_equal(pier_uuid_generate(text, &gen, 4, &err), PIER_OK);
    assert_int_equal(text[14], '4');
    assert_non_null(strchr("89ab", text[19]));
    assert_null(pier__uuid_parse(text, 36, b));
    assert_int_equal(pier_uuid_generate(text, &gen, 1, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_string_equal(err.tag, "InvalidArgument");
    assert_int_equal(pier_uuid_generate(text, NULL, 7, &err),
                     PIER_E_INVALID_ARGUMENT);
}

/* Version 7: the millisecond, then a counter that keeps the UUIDs of
 * one generator increasing within a millisecond, across a clock that
 * steps back, and past the counter's end. */
static void test_uuid_v7(void **state)
{
    (void)state;
    pier__uuid_v7_state st = { 0, 0 };
    unsigned char random[10], b[16], prev[16];
    char text[PIER__UUID_BUF];
    memset(random, 0xff, sizeof random);
    /* 2026-01-01T00:00:00Z; the counter starts below 2048. */
    pier__uuid_v7(&st, INT64_C(1767225600000), random, b);
    pier__uuid_format(b, text);
    assert_string_equal(text, "019b76da-a800-77ff-bfff-ffffffffffff");
    memcpy(prev, b, 16);
    memset(random, 0, sizeof random);
    pier__uuid_v7(&st, INT64_C(1767225600000), random, b);
    pier__uuid_format(b, text);
    assert_string_equal(text, "019b76da-a800-7800-8000-000000000000");
    assert_true(memcmp(prev, b, 16) < 0);
    /* The clock stepped back: count on. */
    pier__uuid_v7(&st, INT64_C(1767225599000), random, b);
    pier__uuid_format(b, text);
    assert_string_equal(text, "019b76da-a800-7801-8000-000000000000");
    /* The counter's end moves on to the next millisecond. */
    st.counter = 0xfff;
    memcpy(prev, b, 16);
    pier__uuid_v7(&st, INT64_C(1767225600000), random, b);
    pier__uuid_format(b, text);
    assert_string_equal(text, "019b76da-a801-7000-8000-000000000000");
    assert_true(memcmp(prev, b, 16) < 0);
    /* A later millisecond starts afresh. */
    random[0] = 0x12;
    random[1] = 0x34;
    pier__uuid_v7(&st, INT64_C(1767225600005), random, b);
    pier__uuid_format(b, text);
    assert_string_equal(text, "019b76da-a805-7234-8000-000000000000");
    /* Every one of many is greater than the one before. */
    for (int i = 0; i < 10000; i++) {
        memcpy(prev, b, 16);
        random[0] = (unsigned char)i;
        random[1] = (unsigned char)(i * 7);
        pier__uuid_v7(&st, INT64_C(1767225600005), random, b);
        assert_true(memcmp(prev, b, 16) < 0);
        assert_int_equal(b[6] >> 4, 7);
        assert_int_equal(b[8] >> 6, 2);
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
    /* an INT128's extremes (39 digits), as a computation may meet them:
     * too wide to rescale, but they format */
    pier__decimal least = { (pier__i128)((pier__u128)1 << 127), 0 };
    assert_false(pier__decimal_rescale(least, 0, &out));
    pier__decimal_format(least, text);
    assert_string_equal(text, "-170141183460469231731687303715884105728");
}

/* ---- DATE, TIME, DATETIME ---- */

static void test_dates(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        int32_t days;
    } ok[] = {
        { "1970-01-01", 0 },       { "1969-12-31", -1 },
        { "2000-02-29", 11016 },   { "2026-03-01", 20513 },
        { "0001-01-01", -719162 }, { "9999-12-31", 2932896 },
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        int32_t d = 0;
        char text[PIER__DATE_BUF];
        assert_null(pier__date_parse(ok[i].in, strlen(ok[i].in), &d));
        assert_int_equal(d, ok[i].days);
        assert_int_equal(pier__date_format(d, text), 10);
        assert_string_equal(text, ok[i].in);
    }
    static const char *const bad[] = {
        "", "2026-02-29", "1900-02-29", "2026-13-01", "2026-00-10",
        "2026-04-31", "0000-12-31", "2026-1-01", "2026/01/01", "20260101",
        "2026-01-01T00:00:00", "2026-01-01 ", " 2026-01-01", "+2026-01-01",
        "10000-01-01",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int32_t d;
        if (pier__date_parse(bad[i], strlen(bad[i]), &d) == NULL)
            fail_msg("DATE accepted '%s'", bad[i]);
    }
}

static void test_times(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        int64_t us;
        const char *out;
    } ok[] = {
        { "00:00:00", 0, "00:00:00.000000" },
        { "23:59:59.999999", INT64_C(86399999999), "23:59:59.999999" },
        { "10:30:00.5", INT64_C(37800500000), "10:30:00.500000" },
        /* beyond microseconds: the nearest, a tie to the even one */
        { "10:30:00.123456789", INT64_C(37800123457), "10:30:00.123457" },
        { "10:30:00.1234564", INT64_C(37800123456), "10:30:00.123456" },
        { "10:30:00.1234565", INT64_C(37800123456), "10:30:00.123456" },
        { "10:30:00.1234575", INT64_C(37800123458), "10:30:00.123458" },
        { "10:30:00.123456501", INT64_C(37800123457), "10:30:00.123457" },
        { "10:30:59.9999995", INT64_C(37860000000), "10:31:00.000000" },
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        int64_t us = -1;
        char text[PIER__TIME_BUF];
        assert_null(pier__time_parse(ok[i].in, strlen(ok[i].in), &us));
        assert_int_equal(us, ok[i].us);
        pier__time_format(us, text);
        assert_string_equal(text, ok[i].out);
    }
    static const char *const bad[] = {
        "", "24:00:00", "23:60:00", "23:59:60", "1:00:00", "10:00",
        "10:00:00.", "10:00:00.1234567890", "10-00-00", "100000",
        "23:59:59.9999995",             /* rounds past the day */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int64_t us;
        if (pier__time_parse(bad[i], strlen(bad[i]), &us) == NULL)
            fail_msg("TIME accepted '%s'", bad[i]);
    }
    int64_t us;
    const char *why = pier__time_parse("10:00:00+02:00", 14, &us);
    assert_non_null(why);
    assert_non_null(strstr(why, "no time zone"));
    assert_non_null(strstr(pier__time_parse("10:00:00Z", 9, &us),
                           "no time zone"));
}

/* Sub-microsecond input to INSTANT, DATETIME and INTERVAL rounds to the
 * nearest microsecond, a tie to the even one, carrying into the next
 * second and day; past the last representable value it is refused. */
static void test_sub_microsecond_rounding(void **state)
{
    (void)state;
    int64_t us = 0;
    char text[PIER__TIMESTAMP_BUF + PIER__DATETIME_BUF];
    assert_true(pier__timestamp_parse("2026-01-01T00:00:00.1234565Z", 28,
                                      &us));
    pier__timestamp_format(us, text);
    assert_string_equal(text, "2026-01-01T00:00:00.123456Z");
    assert_true(pier__timestamp_parse("2026-12-31T23:59:59.9999999+00:00",
                                      33, &us));
    pier__timestamp_format(us, text);
    assert_string_equal(text, "2027-01-01T00:00:00.000000Z");
    assert_null(pier__datetime_parse("2026-02-28 23:59:59.99999951", 28,
                                     &us));
    pier__datetime_format(us, text);
    assert_string_equal(text, "2026-03-01T00:00:00.000000");
    assert_non_null(pier__datetime_parse("9999-12-31T23:59:59.9999999", 27,
                                         &us));
    pier__interval v;
    assert_null(pier__interval_parse("PT0.0000005S", 12, &v));
    assert_int_equal(v.us, 0);
    assert_null(pier__interval_parse("PT0.0000015S", 12, &v));
    assert_int_equal(v.us, 2);
    assert_null(pier__interval_parse("PT-1.0000015S", 13, &v));
    assert_int_equal(v.us, -1000002);
}

static void test_datetimes(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        const char *out;
    } ok[] = {
        { "2026-03-01T10:00:00", "2026-03-01T10:00:00.000000" },
        { "2026-03-01 10:00:00.25", "2026-03-01T10:00:00.250000" },
        { "2026-03-01t10:00:00", "2026-03-01T10:00:00.000000" },
        { "1969-12-31T23:59:59.999999", "1969-12-31T23:59:59.999999" },
        { "0001-01-01T00:00:00", "0001-01-01T00:00:00.000000" },
        { "9999-12-31T23:59:59.999999", "9999-12-31T23:59:59.999999" },
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        int64_t us = 0;
        char text[PIER__DATETIME_BUF];
        assert_null(pier__datetime_parse(ok[i].in, strlen(ok[i].in), &us));
        assert_int_equal(pier__datetime_format(us, text), 26);
        assert_string_equal(text, ok[i].out);
    }
    int64_t a = 0, b = 0;
    assert_null(pier__datetime_parse("1970-01-01T00:00:01", 19, &a));
    assert_int_equal(a, 1000000);
    assert_null(pier__datetime_parse("1969-12-31T23:59:59.999999", 26, &b));
    assert_int_equal(b, -1);
    static const char *const bad[] = {
        "", "2026-03-01", "2026-03-01T", "2026-03-01T25:00:00",
        "2026-02-30T10:00:00", "2026-03-01X10:00:00", "10:00:00",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int64_t us;
        if (pier__datetime_parse(bad[i], strlen(bad[i]), &us) == NULL)
            fail_msg("DATETIME accepted '%s'", bad[i]);
    }
    static const char *const zoned[] = {
        "2026-03-01T10:00:00Z", "2026-03-01T10:00:00+02:00",
        "2026-03-01T10:00:00.5-05:00", "2026-03-01T10:00:00z",
    };
    for (size_t i = 0; i < sizeof zoned / sizeof *zoned; i++) {
        int64_t us;
        const char *why = pier__datetime_parse(zoned[i], strlen(zoned[i]),
                                               &us);
        if (why == NULL || strstr(why, "no time zone") == NULL)
            fail_msg("DATETIME '%s': %s", zoned[i], why ? why : "accepted");
    }
}

/* ---- INTERVAL ---- */

static void iv_ok(const char *in, int32_t months, int32_t days, int64_t us,
                  const char *out)
{
    pier__interval v;
    char text[PIER__INTERVAL_BUF];
    const char *why = pier__interval_parse(in, strlen(in), &v);
    if (why != NULL)
        fail_msg("INTERVAL refused '%s': %s", in, why);
    if (v.months != months || v.days != days || v.us != us)
        fail_msg("INTERVAL '%s' -> %d months %d days %lld us", in, v.months,
                 v.days, (long long)v.us);
    pier__interval_format(v, text);
    if (strcmp(text, out) != 0)
        fail_msg("INTERVAL '%s' formats as '%s', want '%s'", in, text, out);
    /* The canonical text reads back as the same interval. */
    pier__interval back;
    assert_null(pier__interval_parse(text, strlen(text), &back));
    assert_true(back.months == months && back.days == days && back.us == us);
}

static void test_intervals(void **state)
{
    (void)state;
    iv_ok("P1Y2M3DT4H5M6.5S", 14, 3,
          INT64_C(14706500000), "P1Y2M3DT4H5M6.5S");
    iv_ok("P1M", 1, 0, 0, "P1M");
    iv_ok("P30D", 0, 30, 0, "P30D");           /* not a month */
    iv_ok("P2W", 0, 14, 0, "P14D");
    iv_ok("PT36H", 0, 0, INT64_C(129600000000), "PT36H");   /* not days */
    iv_ok("PT90M", 0, 0, INT64_C(5400000000), "PT1H30M");
    iv_ok("PT0.000001S", 0, 0, 1, "PT0.000001S");
    iv_ok("PT-0.5S", 0, 0, -500000, "PT-0.5S");
    iv_ok("P-1Y-1M", -13, 0, 0, "P-1Y-1M");
    iv_ok("P1Y-1M", 11, 0, 0, "P11M");
    iv_ok("PT-90M", 0, 0, INT64_C(-5400000000), "PT-1H-30M");
    iv_ok("p1dt1h", 0, 1, INT64_C(3600000000), "P1DT1H");
    iv_ok("P0D", 0, 0, 0, "PT0S");
    iv_ok("PT0S", 0, 0, 0, "PT0S");
    iv_ok("PT1,5S", 0, 0, 1500000, "PT1.5S");
    iv_ok("P178956970Y7M", INT32_MAX, 0, 0, "P178956970Y7M");
    static const char *const bad[] = {
        "", "P", "PT", "1Y", "P1", "P1Y1Y", "P1D1M", "PT1H1H", "P1H",
        "PT1D", "P1.5Y", "PT1.5M", "P1.0D", "PT1.000H", "P1YT", "P 1Y",
        "P1Y ", "PT1.S",
        "P178956970Y8M", "P2147483648D", "PT9999999999999999999H",
        "P--1Y",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        pier__interval v;
        if (pier__interval_parse(bad[i], strlen(bad[i]), &v) == NULL)
            fail_msg("INTERVAL accepted '%s'", bad[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uuid_round_trips),
        cmocka_unit_test(test_uuid_refusals),
        cmocka_unit_test(test_uuid_v4),
        cmocka_unit_test(test_uuid_generate),
        cmocka_unit_test(test_uuid_v7),
        cmocka_unit_test(test_decimal_column_scale),
        cmocka_unit_test(test_decimal_wide),
        cmocka_unit_test(test_decimal_unconstrained),
        cmocka_unit_test(test_decimal_syntax),
        cmocka_unit_test(test_decimal_rescale),
        cmocka_unit_test(test_dates),
        cmocka_unit_test(test_times),
        cmocka_unit_test(test_datetimes),
        cmocka_unit_test(test_sub_microsecond_rounding),
        cmocka_unit_test(test_intervals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
