/*
 * test_temporal.c: the temporal functions' arithmetic (src/types/
 * temporal.h), against what PostgreSQL answers for the same values:
 * reading a value's kind from its text, every field of every kind (leap
 * days, ISO weeks around New Year, instants before 1970, negative
 * intervals), truncation, adding intervals with month-end clamping,
 * differences, age, make_interval and interval_mul, and each refusal.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "types/temporal.h"

static pier__temporal val(const char *text)
{
    pier__temporal v;
    const char *why = pier__temporal_parse(text, strlen(text), &v);
    if (why != NULL)
        fail_msg("'%s': %s", text, why);
    return v;
}

static void assert_text(const pier__temporal *v, const char *want)
{
    char text[PIER__TEMPORAL_BUF];
    pier__temporal_format(v, text);
    if (strcmp(text, want) != 0)
        fail_msg("got %s, want %s", text, want);
}

static pier__tfield field(const char *name)
{
    pier__tfield f;
    if (!pier__tfield_parse(name, strlen(name), &f))
        fail_msg("no field '%s'", name);
    return f;
}

/* The field as date_part shows it: at its smallest scale. */
static void part_is(const char *value, const char *name, const char *want)
{
    pier__temporal v = val(value);
    pier__decimal d;
    const char *why = pier__temporal_part(&v, field(name), &d);
    if (why != NULL)
        fail_msg("%s of %s: %s", name, value, why);
    while (d.scale > 0 && d.unscaled % 10 == 0) {
        d.unscaled /= 10;
        d.scale--;
    }
    char text[PIER__DECIMAL_BUF];
    pier__decimal_format(d, text);
    if (strcmp(text, want) != 0)
        fail_msg("%s of %s: %s, want %s", name, value, text, want);
}

static void part_refused(const char *value, const char *name,
                         const char *why_has)
{
    pier__temporal v = val(value);
    pier__decimal d;
    const char *why = pier__temporal_part(&v, field(name), &d);
    if (why == NULL || strstr(why, why_has) == NULL)
        fail_msg("%s of %s: %s", name, value, why != NULL ? why : "taken");
}

/* ---- reading values ---- */

static void test_parse_kinds(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        pier__temporal_kind kind;
        const char *out;
    } cases[] = {
        { "2024-02-29", PIER__TEMPORAL_DATE, "2024-02-29" },
        { "10:00:00.5", PIER__TEMPORAL_TIME, "10:00:00.500000" },
        { "2026-03-01 10:00:00", PIER__TEMPORAL_DATETIME,
          "2026-03-01T10:00:00.000000" },
        { "2026-03-01T10:00:00+02:00", PIER__TEMPORAL_INSTANT,
          "2026-03-01T08:00:00.000000Z" },
        { "1969-12-31T23:59:59.999999Z", PIER__TEMPORAL_INSTANT,
          "1969-12-31T23:59:59.999999Z" },
        { "P1Y2M3DT4H5M6.5S", PIER__TEMPORAL_INTERVAL, "P1Y2M3DT4H5M6.5S" },
        { "p-1w", PIER__TEMPORAL_INTERVAL, "P-7D" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pier__temporal v = val(cases[i].in);
        assert_int_equal(v.kind, cases[i].kind);
        assert_text(&v, cases[i].out);
    }
    static const char *const bad[] = {
        "", "2026-02-30", "24:00:00", "10:00:00Z", "2026-3-1", "1 day",
        "P", "yesterday", "2026-03-01T10:00:00+25:00",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        pier__temporal v;
        if (pier__temporal_parse(bad[i], strlen(bad[i]), &v) == NULL)
            fail_msg("read '%s'", bad[i]);
    }
    pier__temporal v;
    assert_null(pier__temporal_instant(-1, &v));
    assert_text(&v, "1969-12-31T23:59:59.999999Z");
    assert_non_null(pier__temporal_instant(INT64_MIN, &v));
    assert_non_null(pier__temporal_instant(INT64_C(253402300800000000), &v));
}

static void test_field_names(void **state)
{
    (void)state;
    pier__tfield f;
    assert_true(pier__tfield_parse("YEAR", 4, &f));
    assert_int_equal(f, PIER__TF_YEAR);
    assert_string_equal(pier__tfield_name(f), "year");
    assert_true(pier__tfield_parse("IsoDow", 6, &f));
    assert_int_equal(f, PIER__TF_ISODOW);
    static const char *const bad[] = { "", "years", "yr", "timezone",
                                       "julian", "microsecond", "year " };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_false(pier__tfield_parse(bad[i], strlen(bad[i]), &f));
}

/* ---- fields ---- */

static void test_date_fields(void **state)
{
    (void)state;
    part_is("2024-02-29", "year", "2024");
    part_is("2024-02-29", "month", "2");
    part_is("2024-02-29", "day", "29");
    part_is("2024-02-29", "doy", "60");
    part_is("2024-12-31", "doy", "366");
    part_is("2023-12-31", "doy", "365");
    part_is("2024-02-29", "quarter", "1");
    part_is("2024-10-01", "quarter", "4");
    part_is("2024-02-29", "dow", "4");            /* a Thursday */
    part_is("2024-03-03", "dow", "0");            /* a Sunday */
    part_is("2024-03-03", "isodow", "7");
    part_is("2024-03-04", "isodow", "1");
    part_is("2024-02-29", "epoch", "1709164800");
    part_is("1969-12-31", "epoch", "-86400");
    part_is("2021-01-03", "millennium", "3");
    part_is("2000-12-31", "millennium", "2");
    part_is("2001-01-01", "millennium", "3");
    part_is("2000-12-31", "century", "20");
    part_is("2001-01-01", "century", "21");
    part_is("0001-01-01", "century", "1");
    part_is("2024-02-29", "decade", "202");
    part_is("0009-06-01", "decade", "0");
    part_refused("2024-02-29", "hour", "a DATE has no time of day");
    part_refused("2024-02-29", "second", "a DATE has no time of day");
    part_refused("2024-02-29", "microseconds", "a DATE has no time of day");
}

/* ISO weeks belong to the year of their Thursday. */
static void test_iso_weeks(void **state)
{
    (void)state;
    static const struct {
        const char *date;
        const char *week, *isoyear;
    } cases[] = {
        { "2021-01-03", "53", "2020" },   /* a Sunday: 2020's last week */
        { "2021-01-04", "1", "2021" },
        { "2020-12-31", "53", "2020" },
        { "2024-12-29", "52", "2024" },
        { "2024-12-30", "1", "2025" },    /* a Monday: 2025's first week */
        { "2025-12-31", "1", "2026" },
        { "2026-01-01", "1", "2026" },
        { "2027-01-01", "53", "2026" },   /* a Friday */
        { "2027-01-03", "53", "2026" },
        { "2027-01-04", "1", "2027" },
        { "2008-12-29", "1", "2009" },
        { "2010-01-03", "53", "2009" },
        { "0001-01-01", "1", "1" },       /* a Monday */
        { "9999-12-31", "52", "9999" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        part_is(cases[i].date, "week", cases[i].week);
        part_is(cases[i].date, "isoyear", cases[i].isoyear);
    }
}

static void test_datetime_instant_fields(void **state)
{
    (void)state;
    const char *dt = "2024-02-29T12:34:56.123456";
    part_is(dt, "second", "56.123456");
    part_is(dt, "milliseconds", "56123.456");
    part_is(dt, "microseconds", "56123456");
    part_is(dt, "minute", "34");
    part_is(dt, "hour", "12");
    part_is(dt, "day", "29");
    part_is(dt, "epoch", "1709210096.123456");
    part_is("2024-02-29T12:34:00", "second", "0");
    part_is("1969-12-31T23:59:59.999999Z", "epoch", "-0.000001");
    part_is("1969-12-31T23:59:59.999999Z", "second", "59.999999");
    part_is("1969-12-31T23:59:59.999999Z", "hour", "23");
    part_is("1969-12-31T23:59:59.999999Z", "year", "1969");
    part_is("1969-12-31T23:59:59.999999Z", "dow", "3");
    part_is("0001-01-01T00:00:00Z", "epoch", "-62135596800");
    /* An instant's fields are UTC's. */
    part_is("2026-01-01T01:00:00+02:00", "year", "2025");
    part_is("2026-01-01T01:00:00+02:00", "hour", "23");
    part_is("2026-01-01T01:00:00+02:00", "epoch", "1767222000");
}

static void test_time_fields(void **state)
{
    (void)state;
    part_is("12:34:56.5", "hour", "12");
    part_is("12:34:56.5", "minute", "34");
    part_is("12:34:56.5", "second", "56.5");
    part_is("12:34:56.5", "milliseconds", "56500");
    part_is("12:34:56.5", "microseconds", "56500000");
    part_is("12:34:56.5", "epoch", "45296.5");
    part_is("00:00:00", "epoch", "0");
    part_refused("12:34:56", "day", "a TIME is a time of day");
    part_refused("12:34:56", "year", "a TIME is a time of day");
}

static void test_interval_fields(void **state)
{
    (void)state;
    part_is("P2Y13M", "month", "1");
    part_is("P2Y13M", "year", "3");
    part_is("P2Y13M", "quarter", "1");
    part_is("P11M", "quarter", "4");
    part_is("P-1Y-4M", "month", "-4");
    part_is("P-1Y-4M", "year", "-1");
    part_is("P-1Y-4M", "quarter", "0");
    part_is("P1234Y", "decade", "123");
    part_is("P1234Y", "century", "12");
    part_is("P1234Y", "millennium", "1");
    part_is("P-1234Y", "century", "-12");
    part_is("P3D", "day", "3");
    part_is("PT49H5M6.5S", "hour", "49");
    part_is("PT49H5M6.5S", "minute", "5");
    part_is("PT49H5M6.5S", "second", "6.5");
    part_is("PT49H5M6.5S", "milliseconds", "6500");
    part_is("PT49H5M6.5S", "microseconds", "6500000");
    part_is("PT-1H-30M-0.25S", "hour", "-1");
    part_is("PT-1H-30M-0.25S", "minute", "-30");
    part_is("PT-1H-30M-0.25S", "second", "-0.25");
    /* A year as 365.25 days, a month as 30. */
    part_is("P1Y", "epoch", "31557600");
    part_is("P1M", "epoch", "2592000");
    part_is("P1Y1M1DT1.000001S", "epoch", "34236001.000001");
    part_is("P-1D", "epoch", "-86400");
    part_is("PT0S", "epoch", "0");
    part_refused("P1D", "week", "an INTERVAL has no calendar");
    part_refused("P1D", "dow", "an INTERVAL has no calendar");
    part_refused("P1D", "isoyear", "an INTERVAL has no calendar");
}

/* The fields that are whole numbers (date_part gives them as INTEGERs)
 * come at scale 0 for every kind; the others may have a fraction. */
static void test_whole_fields(void **state)
{
    (void)state;
    static const char *const values[] = {
        "2024-02-29", "12:34:56.5", "2024-02-29T12:34:56.123456",
        "1969-12-31T23:59:59.999999Z", "P-1Y-2M-3DT-4H-5M-6.5S",
    };
    for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
        pier__temporal t = val(values[v]);
        for (int f = PIER__TF_CENTURY; f <= PIER__TF_YEAR; f++) {
            pier__decimal d;
            if (pier__temporal_part(&t, (pier__tfield)f, &d) != NULL ||
                !pier__tfield_whole((pier__tfield)f))
                continue;
            if (d.scale != 0)
                fail_msg("%s of %s has scale %d", pier__tfield_name(f),
                         values[v], d.scale);
        }
    }
    assert_false(pier__tfield_whole(PIER__TF_SECOND));
    assert_false(pier__tfield_whole(PIER__TF_MILLISECONDS));
    assert_false(pier__tfield_whole(PIER__TF_EPOCH));
    assert_true(pier__tfield_whole(PIER__TF_MICROSECONDS));
}

/* ---- truncation ---- */

static void trunc_is(const char *value, const char *name, const char *want)
{
    pier__temporal v = val(value), r;
    const char *why = pier__temporal_trunc(&v, field(name), &r);
    if (why != NULL)
        fail_msg("%s of %s: %s", name, value, why);
    assert_int_equal(r.kind, v.kind);
    assert_text(&r, want);
}

static void trunc_refused(const char *value, const char *name,
                          const char *because)
{
    pier__temporal v = val(value), r;
    const char *why = pier__temporal_trunc(&v, field(name), &r);
    if (why == NULL || strstr(why, because) == NULL)
        fail_msg("%s of %s: %s", name, value, why != NULL ? why : "taken");
}

static void test_trunc(void **state)
{
    (void)state;
    const char *dt = "2024-05-29T12:34:56.123456";
    trunc_is(dt, "microseconds", "2024-05-29T12:34:56.123456");
    trunc_is(dt, "milliseconds", "2024-05-29T12:34:56.123000");
    trunc_is(dt, "second", "2024-05-29T12:34:56.000000");
    trunc_is(dt, "minute", "2024-05-29T12:34:00.000000");
    trunc_is(dt, "hour", "2024-05-29T12:00:00.000000");
    trunc_is(dt, "day", "2024-05-29T00:00:00.000000");
    trunc_is(dt, "week", "2024-05-27T00:00:00.000000");
    trunc_is(dt, "month", "2024-05-01T00:00:00.000000");
    trunc_is(dt, "quarter", "2024-04-01T00:00:00.000000");
    trunc_is(dt, "year", "2024-01-01T00:00:00.000000");
    trunc_is(dt, "decade", "2020-01-01T00:00:00.000000");
    trunc_is(dt, "century", "2001-01-01T00:00:00.000000");
    trunc_is(dt, "millennium", "2001-01-01T00:00:00.000000");
    trunc_is("2000-06-01T00:00:00", "century", "1901-01-01T00:00:00.000000");
    trunc_is("2000-06-01T00:00:00", "millennium",
             "1001-01-01T00:00:00.000000");
    trunc_is("1969-12-31T23:59:59.999999Z", "second",
             "1969-12-31T23:59:59.000000Z");
    trunc_is("1969-12-31T23:59:59.999999Z", "day",
             "1969-12-31T00:00:00.000000Z");
    /* A week may begin in the year before. */
    trunc_is("2021-01-03", "week", "2020-12-28");
    trunc_is("2024-12-31", "quarter", "2024-10-01");
    trunc_is("2024-02-29", "hour", "2024-02-29");
    trunc_is("0001-01-01", "week", "0001-01-01");
    trunc_is("0001-06-01", "century", "0001-01-01");
    trunc_refused("0009-06-01", "decade", "outside the years");
    trunc_is("10:11:12.345678", "milliseconds", "10:11:12.345000");
    trunc_is("10:11:12.345678", "hour", "10:00:00.000000");
    trunc_refused("10:11:12", "day", "a TIME is a time of day");
    /* Intervals: parts cut toward zero, as PostgreSQL. */
    trunc_is("P1Y5M3DT4H5M6.789S", "minute", "P1Y5M3DT4H5M");
    trunc_is("P1Y5M3DT4H5M6.789S", "day", "P1Y5M3D");
    trunc_is("P1Y5M3DT4H5M6.789S", "month", "P1Y5M");
    trunc_is("P1Y5M3DT4H5M6.789S", "quarter", "P1Y3M");
    trunc_is("P1Y5M3DT4H5M6.789S", "year", "P1Y");
    trunc_is("P1234Y", "decade", "P1230Y");
    trunc_is("P1234Y", "century", "P1200Y");
    trunc_is("P1234Y", "millennium", "P1000Y");
    trunc_is("P-1Y-5MT-1.5S", "quarter", "P-1Y-3M");
    trunc_is("PT-1.5S", "second", "PT-1S");
    trunc_refused("P1M", "week", "cannot be cut to weeks");
    trunc_refused("2024-01-01", "dow", "not a unit");
    trunc_refused("2024-01-01", "epoch", "not a unit");
}

/* ---- arithmetic ---- */

static pier__interval iv(const char *text)
{
    return val(text).iv;
}

static void add_is(const char *value, const char *interval, const char *want)
{
    pier__temporal v = val(value), r;
    const char *why = pier__temporal_add(&v, iv(interval), &r);
    if (why != NULL)
        fail_msg("%s + %s: %s", value, interval, why);
    assert_int_equal(r.kind, v.kind);
    assert_text(&r, want);
}

static void add_refused(const char *value, const char *interval,
                        const char *because)
{
    pier__temporal v = val(value), r;
    const char *why = pier__temporal_add(&v, iv(interval), &r);
    if (why == NULL || strstr(why, because) == NULL)
        fail_msg("%s + %s: %s", value, interval, why != NULL ? why : "taken");
}

static void test_add(void **state)
{
    (void)state;
    /* Months first, the day brought back to the month's end. */
    add_is("2024-01-31", "P1M", "2024-02-29");
    add_is("2023-01-31", "P1M", "2023-02-28");
    add_is("2024-03-31", "P-1M", "2024-02-29");
    add_is("2024-02-29", "P1Y", "2025-02-28");
    add_is("2024-02-29", "P4Y", "2028-02-29");
    add_is("2024-01-31", "P1M1D", "2024-03-01");
    add_is("2024-12-31", "P1D", "2025-01-01");
    add_is("2024-01-31T10:00:00", "P1MT14H", "2024-03-01T00:00:00.000000");
    add_is("2024-01-31T10:00:00Z", "P1MT-10H", "2024-02-29T00:00:00.000000Z");
    add_is("1970-01-01T00:00:00Z", "PT-0.000001S",
           "1969-12-31T23:59:59.999999Z");
    add_is("2024-11-30T00:00:00", "P-13M", "2023-10-30T00:00:00.000000");
    add_is("9999-12-31T23:59:59.999999", "PT0S",
           "9999-12-31T23:59:59.999999");
    add_refused("9999-12-31T23:59:59.999999", "PT0.000001S",
                "outside the years");
    add_refused("0001-01-01", "P-1D", "outside the years");
    add_refused("9999-12-01", "P1M", "outside the years");
    add_refused("2024-01-01", "PT1H", "a DATE takes whole days only");
    add_refused("2024-01-01T00:00:00", "PT9223372036854S",
                "outside the years");
    /* A TIME goes around the clock and ignores months and days. */
    add_is("23:00:00", "PT2H", "01:00:00.000000");
    add_is("01:00:00", "PT-2H", "23:00:00.000000");
    add_is("10:00:00", "P1M1DT1S", "10:00:01.000000");
    add_is("10:00:00", "PT-48H", "10:00:00.000000");
    /* Intervals add part by part. */
    add_is("P1M", "P1DT1H", "P1M1DT1H");
    add_is("P1M", "P-1M", "PT0S");
    add_refused("P178956970Y7M", "P1M", "an interval's range");
    /* Negation, for date_sub. */
    pier__interval n;
    assert_null(pier__interval_negate(iv("P1Y-2DT3S"), &n));
    assert_int_equal(n.months, -12);
    assert_int_equal(n.days, 2);
    assert_int_equal(n.us, -3000000);
    assert_non_null(pier__interval_negate(
        (pier__interval){ INT32_MIN, 0, 0 }, &n));
}

static void diff_is(const char *a, const char *b, bool days,
                    const char *want)
{
    pier__temporal x = val(a), y = val(b);
    pier__interval r;
    bool d = !days;
    const char *why = pier__temporal_diff(&x, &y, &r, &d);
    if (why != NULL)
        fail_msg("%s - %s: %s", a, b, why);
    assert_int_equal(d, days);
    if (days) {
        char text[24];
        snprintf(text, sizeof text, "%d", r.days);
        assert_string_equal(text, want);
    } else {
        pier__temporal t = { PIER__TEMPORAL_INTERVAL, 0, r };
        assert_text(&t, want);
    }
}

static void diff_refused(const char *a, const char *b, const char *because)
{
    pier__temporal x = val(a), y = val(b);
    pier__interval r;
    bool d;
    const char *why = pier__temporal_diff(&x, &y, &r, &d);
    if (why == NULL || strstr(why, because) == NULL)
        fail_msg("%s - %s: %s", a, b, why != NULL ? why : "taken");
}

static void test_diff(void **state)
{
    (void)state;
    diff_is("2024-03-01", "2024-02-01", true, "29");
    diff_is("2023-03-01", "2023-02-01", true, "28");
    diff_is("2024-01-01", "2024-12-31", true, "-365");
    diff_is("9999-12-31", "0001-01-01", true, "3652058");
    diff_is("2024-03-01T00:00:00", "2024-02-28T12:00:00", false, "P1DT12H");
    diff_is("2024-02-28T12:00:00", "2024-03-01T00:00:00", false,
            "P-1DT-12H");
    diff_is("2024-03-01T00:00:00Z", "1969-12-31T23:59:59.999999Z", false,
            "P19783DT0.000001S");
    diff_is("2024-03-01", "2024-02-29T06:00:00", false, "PT18H");
    diff_is("2024-03-01T06:00:00Z", "2024-03-01", false, "PT6H");
    diff_is("10:00:00", "12:30:00", false, "PT-2H-30M");
    diff_is("P1Y", "P1M1D", false, "P11M-1D");
    diff_refused("2024-03-01T00:00:00Z", "2024-03-01T00:00:00",
                 "an INSTANT and a DATETIME do not mix");
    diff_refused("10:00:00", "2024-03-01", "a TIME subtracts only");
    diff_refused("P1D", "2024-03-01", "an INTERVAL subtracts only");
    diff_refused("2024-03-01", "P1D", "an INTERVAL subtracts only");
}

static void age_is(const char *a, const char *b, const char *want)
{
    pier__temporal x = val(a), y = val(b);
    pier__interval r;
    const char *why = pier__temporal_age(&x, &y, &r);
    if (why != NULL)
        fail_msg("age(%s, %s): %s", a, b, why);
    pier__temporal t = { PIER__TEMPORAL_INTERVAL, 0, r };
    assert_text(&t, want);
}

static void test_age(void **state)
{
    (void)state;
    /* PostgreSQL's own example: 43 years 9 mons 27 days. */
    age_is("2001-04-10", "1957-06-13", "P43Y9M27D");
    age_is("1957-06-13", "2001-04-10", "P-43Y-9M-27D");
    age_is("2024-03-01", "2024-01-31", "P1M1D");
    age_is("2024-01-31", "2024-03-01", "P-1M-1D");
    age_is("2024-02-29", "2023-02-28", "P1Y1D");
    age_is("2025-02-28", "2024-02-29", "P11M28D");
    age_is("2024-03-01T00:00:00", "2024-02-28T12:00:00", "P1DT12H");
    age_is("2024-03-01T00:00:00Z", "2023-12-31T23:59:59.5Z",
           "P2MT0.5S");
    age_is("2024-03-01", "2024-03-01", "PT0S");
    age_is("2024-03-01", "2024-02-29T06:00:00", "PT18H");
    pier__temporal x = val("2024-03-01T00:00:00Z");
    pier__temporal y = val("2024-03-01T00:00:00");
    pier__temporal t = val("10:00:00");
    pier__interval r;
    assert_non_null(strstr(pier__temporal_age(&x, &y, &r), "do not mix"));
    assert_non_null(strstr(pier__temporal_age(&t, &t, &r),
                           "DATE, DATETIME and INSTANT"));
}

/* ---- make_interval and interval_mul ---- */

static pier__decimal dec(const char *text)
{
    pier__decimal d;
    const char *why = pier__decimal_parse(text, strlen(text), 0, 0, &d);
    if (why != NULL)
        fail_msg("'%s': %s", text, why);
    return d;
}

static const char *make(const char *const *parts, size_t n, char *text)
{
    pier__decimal d[7] = { { 0, 0 } };
    for (size_t i = 0; i < n; i++)
        d[i] = dec(parts[i]);
    pier__temporal t = { PIER__TEMPORAL_INTERVAL, 0, { 0, 0, 0 } };
    const char *why = pier__interval_make(d, n, &t.iv);
    if (why == NULL)
        pier__temporal_format(&t, text);
    return why;
}

static void test_make_interval(void **state)
{
    (void)state;
    char text[PIER__TEMPORAL_BUF];
    assert_null(make(NULL, 0, text));
    assert_string_equal(text, "PT0S");
    static const char *const all[] = { "1", "2", "3", "4", "5", "6",
                                       "7.1234565" };
    assert_null(make(all, 7, text));
    assert_string_equal(text, "P1Y2M25DT5H6M7.123456S");
    static const char *const up[] = { "0", "0", "0", "0", "0", "0",
                                      "7.1234575" };
    assert_null(make(up, 7, text));
    assert_string_equal(text, "PT7.123458S");
    static const char *const neg[] = { "-1", "0", "-1", "0", "0", "0",
                                       "-0.0000005" };
    assert_null(make(neg, 7, text));
    assert_string_equal(text, "P-1Y-7D");
    static const char *const years[] = { "2.0" };
    assert_null(make(years, 1, text));
    assert_string_equal(text, "P2Y");
    static const char *const max[] = { "0", "2147483647" };
    assert_null(make(max, 2, text));
    static const char *const over[] = { "178956970", "8" };
    assert_non_null(strstr(make(over, 2, text), "range"));
    static const char *const frac[] = { "1.5" };
    assert_non_null(strstr(make(frac, 1, text), "years must be a whole"));
    static const char *const mins[] = { "0", "0", "0", "0", "0", "0.5" };
    assert_non_null(strstr(make(mins, 6, text), "mins must be a whole"));
    static const char *const huge[] = { "1e30" };
    assert_non_null(strstr(make(huge, 1, text), "range"));
    static const char *const hours[] = { "0", "0", "0", "0",
                                         "2562047789" };
    assert_non_null(strstr(make(hours, 5, text), "range"));
}

static void mul_is(const char *interval, const char *f, const char *want)
{
    pier__temporal t = { PIER__TEMPORAL_INTERVAL, 0, { 0, 0, 0 } };
    const char *why = pier__interval_mul(iv(interval), dec(f), &t.iv);
    if (why != NULL)
        fail_msg("%s x %s: %s", interval, f, why);
    assert_text(&t, want);
}

static void test_interval_mul(void **state)
{
    (void)state;
    mul_is("P1M", "0.5", "P15D");
    mul_is("P1D", "1.5", "P1DT12H");
    mul_is("P1Y2M3DT4H", "2", "P2Y4M6DT8H");
    mul_is("P1M", "-0.5", "P-15D");
    mul_is("P1M1D", "0.1", "P3DT2H24M");
    mul_is("P1M", "0.01", "PT7H12M");
    mul_is("PT1S", "0.0000005", "PT0S");
    mul_is("PT1S", "0.0000015", "PT0.000002S");
    mul_is("PT1S", "-0.0000015", "PT-0.000002S");
    mul_is("PT1H", "0.333333333333333333333", "PT20M");
    mul_is("P1D", "0", "PT0S");
    mul_is("P3M", "0.3333333", "P29DT23H59M59.7408S");
    pier__interval r;
    assert_non_null(strstr(pier__interval_mul(iv("P100Y"), dec("2e7"), &r),
                           "range"));
    assert_non_null(pier__interval_mul(
        iv("PT2562047788H"), dec("1.000000000000000000001"), &r));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_kinds),
        cmocka_unit_test(test_field_names),
        cmocka_unit_test(test_date_fields),
        cmocka_unit_test(test_iso_weeks),
        cmocka_unit_test(test_datetime_instant_fields),
        cmocka_unit_test(test_time_fields),
        cmocka_unit_test(test_interval_fields),
        cmocka_unit_test(test_whole_fields),
        cmocka_unit_test(test_trunc),
        cmocka_unit_test(test_add),
        cmocka_unit_test(test_diff),
        cmocka_unit_test(test_age),
        cmocka_unit_test(test_make_interval),
        cmocka_unit_test(test_interval_mul),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
