/*
 * test_sqlcol.c: a declared table's columns (src/types/sqlcol.h): each
 * type's storage, collation, checking and kind; which stored values fit,
 * at every boundary, and why the others do not; what a stored value
 * decodes to (kind, `as` and canonical text) and its JSON; the
 * collations' orders; and exact decimal arithmetic with every rounding.
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

/* ---- columns, cells and values ---- */

/* Label buffers of the ENUM columns a test made, freed after it. */
#define MAX_COLUMNS 64
static pier__buf labels[MAX_COLUMNS];
static size_t ncolumns;
/* The arena decoded values live in, freed after each test. */
static pier__arena arena;

static int setup(void **state)
{
    (void)state;
    ncolumns = 0;
    pier__arena_init(&arena);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < ncolumns; i++)
        pier__buf_free(&labels[i]);
    pier__arena_free(&arena);
    return 0;
}

/* The column type that DDL spells `spelling`. */
static pier__coltype col(const char *spelling)
{
    assert_true(ncolumns < MAX_COLUMNS);
    pier__buf *b = &labels[ncolumns++];
    pier__buf_init(b);
    pier__coltype c;
    memset(&c, 0, sizeof c);
    const char *why = pier__sqltype_parse(spelling, strlen(spelling), &c.t,
                                          b, NULL);
    if (why != NULL)
        fail_msg("type '%s': %s", spelling, why);
    if (c.t.base == PIER__B_ENUM) {
        c.labels = b->p;
    } else {                            /* no labels to keep */
        pier__buf_free(b);
        ncolumns--;
    }
    return c;
}

static pier__cell c_null(void)
{
    pier__cell c;
    memset(&c, 0, sizeof c);
    c.st = PIER__ST_NULL;
    return c;
}

static pier__cell c_int(int64_t i)
{
    pier__cell c = c_null();
    c.st = PIER__ST_INT;
    c.i = i;
    return c;
}

static pier__cell c_real(double d)
{
    pier__cell c = c_null();
    c.st = PIER__ST_REAL;
    c.d = d;
    return c;
}

/* A TEXT cell over a NUL-terminated string, as SQLite's are. */
static pier__cell c_text(const char *s)
{
    pier__cell c = c_null();
    c.st = PIER__ST_TEXT;
    c.p = s;
    c.n = strlen(s);
    return c;
}

static pier__cell c_blob(const void *p, size_t n)
{
    pier__cell c = c_null();
    c.st = PIER__ST_BLOB;
    c.p = p;
    c.n = n;
    return c;
}

static const char *cell_name(const pier__cell *v)
{
    static char buf[64];
    switch (v->st) {
    case PIER__ST_INT:
        snprintf(buf, sizeof buf, "INTEGER %lld", (long long)v->i);
        return buf;
    case PIER__ST_REAL:
        snprintf(buf, sizeof buf, "REAL %.17g", v->d);
        return buf;
    case PIER__ST_TEXT:
        return v->p;
    case PIER__ST_BLOB:
        return "a BLOB";
    default:
        return "NULL";
    }
}

static void fits(const char *type, pier__cell v)
{
    pier__coltype c = col(type);
    const char *why = pier__coltype_fit(&c, &v);
    if (why != NULL)
        fail_msg("%s refused '%s': %s", type, cell_name(&v), why);
}

/* Refused, for a reason holding `reason`; and decode refuses it too. */
static void refuses(const char *type, pier__cell v, const char *reason)
{
    pier__coltype c = col(type);
    const char *why = pier__coltype_fit(&c, &v);
    if (why == NULL)
        fail_msg("%s accepted '%s'", type, cell_name(&v));
    if (strstr(why, reason) == NULL)
        fail_msg("%s refused '%s' for '%s', want a reason with '%s'", type,
                 cell_name(&v), why, reason);
    pier_value out;
    memset(&out, 0, sizeof out);
    assert_int_equal(pier__coltype_decode(&out, &c, &v, &arena),
                     PIER__FIT_CONFLICT);
}

static void fits_text(const char *type, const char *text)
{
    fits(type, c_text(text));
}

static void refuses_text(const char *type, const char *text,
                         const char *reason)
{
    refuses(type, c_text(text), reason);
}

/* Decodes `v`, which must fit, checking its kind and text. */
static pier_value decoded(const char *type, pier__cell v, pier_kind kind,
                          const char *text)
{
    pier__coltype c = col(type);
    const char *why = pier__coltype_fit(&c, &v);
    if (why != NULL)
        fail_msg("%s refused '%s': %s", type, cell_name(&v), why);
    pier_value out;
    memset(&out, 0xA5, sizeof out);
    assert_int_equal(pier__coltype_decode(&out, &c, &v, &arena),
                     PIER__FIT_OK);
    assert_int_equal(out.kind, kind);
    if (text == NULL) {
        assert_null(out.text);
        return out;
    }
    assert_non_null(out.text);
    if (strcmp(out.text, text) != 0)
        fail_msg("%s '%s' decodes to '%s', want '%s'", type, cell_name(&v),
                 out.text, text);
    assert_int_equal(out.len, strlen(text));
    return out;
}

/* The canonical text of a text cell of `type` (which must fit). */
static void reads(const char *type, const char *in, pier_kind kind,
                  const char *text)
{
    decoded(type, c_text(in), kind, text);
}

/* ---- the type tables ---- */

static void test_storage_collation_checked_kind(void **state)
{
    (void)state;
    static const struct {
        const char *type;
        const char *storage;
        const char *collation;       /* NULL: BINARY */
        bool checked;
        pier_kind kind;
    } cases[] = {
        { "INT8", "INTEGER", NULL, true, PIER_KIND_TINYINT },
        { "INT16", "INTEGER", NULL, true, PIER_KIND_SMALLINT },
        { "INT32", "INTEGER", NULL, true, PIER_KIND_INTEGER },
        { "INT64", "INTEGER", NULL, false, PIER_KIND_BIGINT },
        { "INTEGER", "INTEGER", NULL, false, PIER_KIND_BIGINT },
        { "UINT8", "INTEGER", NULL, true, PIER_KIND_UNSIGNED },
        { "UINT16", "INTEGER", NULL, true, PIER_KIND_UNSIGNED },
        { "UINT32", "INTEGER", NULL, true, PIER_KIND_UNSIGNED },
        { "UINT64", "TEXT", "pier_numeric", true, PIER_KIND_UNSIGNED },
        { "INT128", "TEXT", "pier_numeric", true, PIER_KIND_HUGEINT },
        { "FLOAT32", "REAL", NULL, true, PIER_KIND_FLOAT },
        { "DOUBLE", "REAL", NULL, false, PIER_KIND_DOUBLE },
        { "REAL", "REAL", NULL, false, PIER_KIND_DOUBLE },
        { "DECIMAL", "TEXT", "pier_numeric", true, PIER_KIND_DECIMAL },
        { "DECIMAL(12,2)", "TEXT", "pier_numeric", true, PIER_KIND_DECIMAL },
        { "TEXT", "TEXT", NULL, false, PIER_KIND_TEXT },
        { "VARCHAR(10)", "TEXT", NULL, true, PIER_KIND_TEXT },
        { "ENUM('a','b')", "TEXT", NULL, true, PIER_KIND_TEXT },
        { "BOOLEAN", "INTEGER", NULL, true, PIER_KIND_BOOLEAN },
        { "BLOB", "BLOB", NULL, false, PIER_KIND_BLOB },
        { "UUID", "TEXT", "pier_uuid", true, PIER_KIND_UUID },
        { "INSTANT", "TEXT", "pier_instant", true, PIER_KIND_TIMESTAMP },
        { "DATE", "TEXT", NULL, true, PIER_KIND_DATE },
        { "TIME", "TEXT", "pier_time", true, PIER_KIND_TIME },
        { "DATETIME", "TEXT", "pier_datetime", true, PIER_KIND_DATETIME },
        { "INTERVAL", "TEXT", "pier_interval", true, PIER_KIND_INTERVAL },
        { "JSON", "TEXT", NULL, true, PIER_KIND_JSON },
        { "ANY", "ANY", NULL, false, PIER_KIND_NULL },
        /* Arrays are JSON text, checked, compared white space aside. */
        { "INT8[]", "TEXT", "pier_json_compact", true, PIER_KIND_ARRAY },
        { "TEXT[]", "TEXT", "pier_json_compact", true, PIER_KIND_ARRAY },
        { "DECIMAL(5,2)[]", "TEXT", "pier_json_compact", true,
          PIER_KIND_ARRAY },
        { "UUID[][]", "TEXT", "pier_json_compact", true, PIER_KIND_ARRAY },
        { "BLOB[]", "TEXT", "pier_json_compact", true, PIER_KIND_ARRAY },
        { "INT64[]", "TEXT", "pier_json_compact", true, PIER_KIND_ARRAY },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pier__coltype c = col(cases[i].type);
        assert_string_equal(pier__coltype_storage(&c), cases[i].storage);
        const char *coll = pier__coltype_collation(&c);
        if (cases[i].collation == NULL && coll != NULL)
            fail_msg("%s: collation %s, want BINARY", cases[i].type, coll);
        if (cases[i].collation != NULL)
            assert_string_equal(coll, cases[i].collation);
        if (pier__coltype_checked(&c) != cases[i].checked)
            fail_msg("%s: checked is %d", cases[i].type, !cases[i].checked);
        if (pier__coltype_kind(&c) != cases[i].kind)
            fail_msg("%s: kind %d, want %d", cases[i].type,
                     pier__coltype_kind(&c), cases[i].kind);
    }
}

/* ---- fit: integers ---- */

static void test_fit_integers(void **state)
{
    (void)state;
    static const struct {
        const char *type;
        int64_t lo, hi;
    } ranges[] = {
        { "INT8", -128, 127 },
        { "INT16", -32768, 32767 },
        { "INT32", INT32_MIN, INT32_MAX },
        { "UINT8", 0, 255 },
        { "UINT16", 0, 65535 },
        { "UINT32", 0, INT64_C(4294967295) },
    };
    for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++) {
        const char *t = ranges[i].type;
        fits(t, c_int(ranges[i].lo));
        fits(t, c_int(ranges[i].hi));
        fits(t, c_int(0));
        fits(t, c_null());
        refuses(t, c_int(ranges[i].lo - 1), "out of range for");
        refuses(t, c_int(ranges[i].hi + 1), "out of range for");
        refuses(t, c_int(INT64_MIN), "out of range for");
        refuses(t, c_int(INT64_MAX), "out of range for");
        refuses(t, c_real(1.0), "is an integer");
        refuses(t, c_text("1"), "is an integer");
        refuses(t, c_blob("\x01", 1), "is an integer");
    }
    refuses("INT8", c_int(128), "out of range for INT8");
    refuses("UINT8", c_int(256), "out of range for UINT8");
    refuses("UINT8", c_int(-1), "out of range for UINT8");
    refuses("UINT32", c_int(-1), "out of range for UINT32");
    /* INT64: the storage type is the type. */
    fits("INT64", c_int(INT64_MIN));
    fits("INT64", c_int(INT64_MAX));
    refuses("INT64", c_text("1"), "is an integer");
    refuses("INT64", c_real(1.5), "is an integer");
}

static void test_fit_wide_integers(void **state)
{
    (void)state;
    /* UINT64: digits, or a non-negative INTEGER. */
    fits_text("UINT64", "18446744073709551615");
    fits_text("UINT64", "0");
    fits_text("UINT64", "00018446744073709551615");     /* leading zeros */
    refuses_text("UINT64", "18446744073709551616", "out of range for UINT64");
    refuses_text("UINT64", "99999999999999999999999999999999999999999999",
                 "out of range for UINT64");
    refuses_text("UINT64", "-1", "out of range for UINT64");
    refuses_text("UINT64", "-0", "out of range for UINT64");
    refuses_text("UINT64", "", "is digits");
    refuses_text("UINT64", "+5", "is digits");
    refuses_text("UINT64", " 5", "is digits");
    refuses_text("UINT64", "5.0", "is digits");
    refuses_text("UINT64", "1e3", "is digits");
    fits("UINT64", c_int(0));
    fits("UINT64", c_int(INT64_MAX));
    refuses("UINT64", c_int(-1), "out of range for UINT64");
    refuses("UINT64", c_real(1.0), "is digits");
    /* INT128: digits with an optional '-'. */
    fits_text("INT128", "170141183460469231731687303715884105727");
    fits_text("INT128", "-170141183460469231731687303715884105728");
    fits_text("INT128", "-0");
    refuses_text("INT128", "170141183460469231731687303715884105728",
                 "out of range for INT128");
    refuses_text("INT128", "-170141183460469231731687303715884105729",
                 "out of range for INT128");
    refuses_text("INT128", "-", "digits");
    refuses_text("INT128", "--1", "digits");
    refuses_text("INT128", "12a", "digits");
    fits("INT128", c_int(INT64_MIN));
    refuses("INT128", c_real(2.0), "digits");
}

static void test_fit_floats(void **state)
{
    (void)state;
    fits("FLOAT32", c_real(3.4e38));
    fits("FLOAT32", c_real(-3.4e38));
    fits("FLOAT32", c_real(FLT_MAX));
    /* FLT_MAX reads back "3.4028235e+38", a double above it that still
     * rounds to it; half an ulp above FLT_MAX rounds to infinity. */
    fits("FLOAT32", c_real(3.4028235e38));
    fits("FLOAT32", c_real(-0x1.fffffefffffffp127));
    refuses("FLOAT32", c_real(0x1.ffffffp127), "out of range for FLOAT32");
    refuses("FLOAT32", c_real(-0x1.ffffffp127), "out of range for FLOAT32");
    refuses("FLOAT32", c_real(1e-50),             /* would read as 0 */
            "too near 0 for FLOAT32 (it would read as 0)");
    fits("FLOAT32", c_real(1e-40));               /* a subnormal float */
    fits("FLOAT32", c_real(-0.0));
    fits("FLOAT32", c_int(INT64_MAX));
    refuses("FLOAT32", c_real(3.5e38), "out of range for FLOAT32");
    refuses("FLOAT32", c_real(-3.5e38), "out of range for FLOAT32");
    refuses("FLOAT32", c_real(INFINITY), "out of range for FLOAT32");
    refuses("FLOAT32", c_text("1.5"), "is a number");
    fits("DOUBLE", c_real(1e308));
    fits("DOUBLE", c_real(INFINITY));          /* SQLite's REAL holds it */
    fits("DOUBLE", c_int(7));
    refuses("DOUBLE", c_text("1.5"), "is a number");
    refuses("DOUBLE", c_blob("", 0), "is a number");
}

static void test_fit_decimals(void **state)
{
    (void)state;
    fits_text("DECIMAL(5,2)", "999.99");
    fits_text("DECIMAL(5,2)", "-999.99");
    fits_text("DECIMAL(5,2)", "1.230");            /* a zero is not lost */
    fits_text("DECIMAL(5,2)", "0");
    fits_text("DECIMAL(5,2)", "1.5e2");
    refuses_text("DECIMAL(5,2)", "1000.00", "before the point");
    refuses_text("DECIMAL(5,2)", "-1000", "before the point");
    refuses_text("DECIMAL(5,2)", "1.234", "after the point");
    refuses_text("DECIMAL(5,2)", "12,5", "digits");
    refuses_text("DECIMAL(5,2)", "", "digits");
    /* An INTEGER or a REAL reads by its text. */
    fits("DECIMAL(5,2)", c_int(999));
    refuses("DECIMAL(5,2)", c_int(1000), "before the point");
    fits("DECIMAL(5,2)", c_real(12.5));
    fits("DECIMAL(5,2)", c_real(0.1));             /* "0.1", not 0.1000..1 */
    refuses("DECIMAL(5,2)", c_real(1.234), "after the point");
    refuses("DECIMAL(5,2)", c_real(INFINITY), "decimal");
    refuses("DECIMAL(5,2)", c_blob("1", 1), "a decimal is text");
    /* What SQLite's TEXT affinity makes of a REAL ("%!.15g"). */
    fits_text("DECIMAL(38,0)", "1.0e+20");
    fits_text("DECIMAL(12,6)", "1.0e-05");
    fits_text("DECIMAL(12,2)", "100.0");
    fits_text("DECIMAL", "1.23456789012346e+17");
    fits_text("DECIMAL", "2.5e-07");
    refuses_text("DECIMAL", "Inf", "digits");
    refuses_text("DECIMAL", "-Inf", "digits");
    /* DECIMAL alone: any 38 digits. */
    fits_text("DECIMAL", "12345678901234567890123456789012345678");
    refuses_text("DECIMAL", "123456789012345678901234567890123456789",
                 "38 digits");
}

/* ---- fit: text, booleans, blobs ---- */

static void test_fit_text_types(void **state)
{
    (void)state;
    fits_text("TEXT", "");
    fits_text("TEXT", "anything \xff at all");  /* TEXT is TEXT */
    refuses("TEXT", c_int(1), "is text");
    /* VARCHAR counts characters, not bytes. */
    fits_text("VARCHAR(3)", "h\xc3\xa9\xc3\xa9");     /* "héé" */
    fits_text("VARCHAR(3)", "abc");
    fits_text("VARCHAR(3)", "");
    fits_text("VARCHAR(1)", "\xf0\x9f\x98\x80");      /* one emoji */
    refuses_text("VARCHAR(3)", "abcd", "longer than the column's length");
    refuses_text("VARCHAR(3)", "h\xc3\xa9\xc3\xa9!", "longer");
    refuses_text("VARCHAR(3)", "a\xff", "not valid UTF-8");
    refuses_text("VARCHAR(3)", "\xc3", "not valid UTF-8");
    refuses("VARCHAR(3)", c_int(1), "is text");
    /* ENUM: one of the labels, exactly. */
    fits_text("ENUM('a','B','it''s')", "a");
    fits_text("ENUM('a','B','it''s')", "B");
    fits_text("ENUM('a','B','it''s')", "it's");
    refuses_text("ENUM('a','B','it''s')", "A", "not one of the labels");
    refuses_text("ENUM('a','B','it''s')", "b", "not one of the labels");
    refuses_text("ENUM('a','B','it''s')", "", "not one of the labels");
    refuses_text("ENUM('a','B','it''s')", "a ", "not one of the labels");
    refuses("ENUM('a','B')", c_int(0), "is text");
    /* BOOLEAN: 0 or 1. */
    fits("BOOLEAN", c_int(0));
    fits("BOOLEAN", c_int(1));
    refuses("BOOLEAN", c_int(2), "0 or 1");
    refuses("BOOLEAN", c_int(-1), "0 or 1");
    refuses("BOOLEAN", c_text("true"), "0 or 1");
    refuses("BOOLEAN", c_real(1.0), "0 or 1");
    /* BLOB: bytes. */
    fits("BLOB", c_blob("\x00\x01", 2));
    fits("BLOB", c_blob(NULL, 0));
    refuses("BLOB", c_text("00"), "bytes");
    /* ANY: everything. */
    fits("ANY", c_int(1));
    fits("ANY", c_real(1.5));
    fits("ANY", c_text("x"));
    fits("ANY", c_blob("x", 1));
}

/* ---- fit: UUIDs, instants, the calendar ---- */

static void test_fit_uuid_and_time(void **state)
{
    (void)state;
    fits_text("UUID", "123e4567-e89b-12d3-a456-426614174000");
    fits_text("UUID", "123E4567-E89B-12D3-A456-426614174000");
    fits_text("UUID", "123e4567e89b12d3a456426614174000");
    refuses_text("UUID", "123e4567-e89b-12d3-a456-42661417400", "32 hex");
    refuses_text("UUID", "{123e4567-e89b-12d3-a456-426614174000}", "UUID");
    refuses_text("UUID", "123e4567-e89b-12d3-a456-42661417400g", "hex");
    refuses("UUID", c_blob("0123456789abcdef", 16), "a UUID is text");
    /* INSTANT: RFC 3339, with Z or an offset. */
    fits_text("INSTANT", "2026-03-01T10:00:00Z");
    fits_text("INSTANT", "2026-03-01T10:00:00.5+02:00");
    fits_text("INSTANT", "2026-03-01 10:00:00-05:30");
    fits_text("INSTANT", "0001-01-01T00:00:00Z");
    refuses_text("INSTANT", "2026-03-01T10:00:00", "Z or an offset");
    refuses_text("INSTANT", "0001-01-01T00:00:00+00:01", "Z or an offset");
    refuses_text("INSTANT", "2026-02-30T10:00:00Z", "instant");
    refuses("INSTANT", c_int(0), "instant");
    /* DATE, TIME, DATETIME: no zone. */
    fits_text("DATE", "2024-02-29");
    fits_text("DATE", "9999-12-31");
    refuses_text("DATE", "2023-02-29", "real day");
    refuses_text("DATE", "2026-03-01T00:00:00", "YYYY-MM-DD");
    refuses("DATE", c_int(20000), "a date is text");
    fits_text("TIME", "00:00:00");
    fits_text("TIME", "23:59:59.999999");
    refuses_text("TIME", "24:00:00", "a time is");
    refuses_text("TIME", "10:00:00Z", "drop the offset");
    refuses_text("TIME", "10:00:00+01:00", "drop the offset");
    fits_text("DATETIME", "2026-03-01T10:00:00");
    fits_text("DATETIME", "2026-03-01 10:00:00.123");
    refuses_text("DATETIME", "2026-03-01T10:00:00Z", "drop the offset");
    refuses_text("DATETIME", "2026-03-01T10:00:00+02:00", "drop the offset");
    refuses_text("DATETIME", "2026-03-01", "a datetime is");
    /* INTERVAL: ISO 8601 durations. */
    fits_text("INTERVAL", "P1Y2M3DT4H5M6.5S");
    fits_text("INTERVAL", "PT-90M");
    refuses_text("INTERVAL", "P", "ISO 8601");
    refuses_text("INTERVAL", "1 day", "ISO 8601");
    refuses_text("INTERVAL", "P2147483648D", "32-bit");
}

/* ---- fit: JSON ---- */

static void test_fit_json(void **state)
{
    (void)state;
    static const char *const good[] = {
        "{}", "[]", "0", "-0", "1.5e-300", "1E+2", "\"\"", "null", "true",
        "false", " {\"a\" : [1, 2.5, \"x\", null, true, {}]} ",
        "{\"a\":1,\"a\":2}",                      /* duplicates: allowed */
        "123456789012345678901234567890",         /* beyond 64 bits */
        "1e400",                                  /* beyond a double */
        "\"\\u00e9\\ud83d\\ude00\\n\\\"\\\\\\/\"",
        "\"h\xc3\xa9\"", "[[[[[]]]]]", "\t\r\n[1]\n",
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        fits_text("JSON", good[i]);
    static const char *const bad[] = {
        "", " ", "{", "[", "]", "[1,]", "[,1]", "{\"a\"}", "{\"a\":}",
        "{a:1}", "{\"a\":1,}", "01", "1.", ".5", "-", "+1", "1e", "0x10",
        "NaN", "Infinity", "tru", "nul", "'a'", "\"a", "\"\\x\"",
        "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"",
        "\"a\tb\"", "\"\xff\"", "\"\xc3\"", "[1] [2]", "{} x", "[1 2]",
        "{\"a\":1 \"b\":2}", "[}", "{]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        refuses_text("JSON", bad[i], "not valid JSON");
    refuses("JSON", c_int(1), "text");
    /* Nesting: 1000 levels, not 1001. */
    char deep[2 * 1001 + 1];   /* 1001 levels and the NUL */
    for (int i = 0; i < 1000; i++) {
        deep[i] = '[';
        deep[1000 + i] = ']';
    }
    deep[2000] = '\0';
    fits_text("JSON", deep);
    for (int i = 0; i < 1001; i++) {
        deep[i] = '[';
        deep[1001 + i] = ']';
    }
    deep[2002] = '\0';
    refuses_text("JSON", deep, "nested more than 1000 deep");
    /* A document decodes as stored. */
    reads("JSON", " {\"b\": 1, \"a\": 2} ", PIER_KIND_JSON,
          " {\"b\": 1, \"a\": 2} ");
}

/* ---- fit and decode: arrays ---- */

static void array_reads(const char *type, const char *in, const char *out)
{
    reads(type, in, PIER_KIND_ARRAY, out);
}

static void test_arrays(void **state)
{
    (void)state;
    /* Integers: JSON integers within range, and nulls. */
    array_reads("INT8[]", "[1, -128, 127, null]", "[1,-128,127,null]");
    array_reads("INT8[]", " [ ] ", "[]");
    array_reads("INT8[]", "[-0]", "[0]");
    refuses_text("INT8[]", "[128]", "not an INT8");
    refuses_text("INT8[]", "[-129]", "not an INT8");
    refuses_text("INT8[]", "[1.0]", "not an INT8");
    refuses_text("INT8[]", "[1e2]", "not an INT8");
    refuses_text("INT8[]", "[\"1\"]", "not an INT8");
    refuses_text("INT8[]", "[true]", "not an INT8");
    refuses_text("INT8[]", "[[1]]", "not an INT8");
    refuses_text("INT8[]", "[{}]", "not an INT8");
    refuses_text("UINT8[]", "[256]", "not a UINT8");
    refuses_text("UINT8[]", "[-1]", "not a UINT8");
    refuses_text("UINT8[]", "[-0]", "not a UINT8");
    array_reads("UINT32[]", "[4294967295]", "[4294967295]");
    refuses_text("UINT32[]", "[4294967296]", "not a UINT32");
    array_reads("INT64[]", "[-9223372036854775808]",
                "[-9223372036854775808]");
    refuses_text("INT64[]", "[9223372036854775808]", "not an INT64");
    /* UINT64 and INT128: a number or a string of digits; numbers out. */
    array_reads("UINT64[]", "[\"18446744073709551615\", 5, \"007\"]",
                "[18446744073709551615,5,7]");
    refuses_text("UINT64[]", "[18446744073709551616]", "not a UINT64");
    refuses_text("UINT64[]", "[\"-1\"]", "not a UINT64");
    refuses_text("UINT64[]", "[\"1.5\"]", "not a UINT64");
    array_reads("INT128[]",
                "[\"-170141183460469231731687303715884105728\", "
                "170141183460469231731687303715884105727]",
                "[-170141183460469231731687303715884105728,"
                "170141183460469231731687303715884105727]");
    refuses_text("INT128[]", "[170141183460469231731687303715884105728]",
                 "not an INT128");
    /* Floats: any JSON number within range. */
    array_reads("DOUBLE[]", "[0.1, 1, -0.0, 1e300, 1E-400]",
                "[0.1,1.0,-0.0,1e+300,0.0]");
    refuses_text("DOUBLE[]", "[1e400]", "not a DOUBLE");
    refuses_text("DOUBLE[]", "[\"1.5\"]", "not a DOUBLE");
    array_reads("FLOAT32[]", "[3.4e38, 0.1]", "[3.4e+38,0.1]");
    refuses_text("FLOAT32[]", "[3.5e38]", "not a FLOAT32");
    /* DECIMAL: a number or a string, read exactly; strings out. */
    array_reads("DECIMAL(5,2)[]", "[1.5, \"2.25\", null, -0, 999.99]",
                "[\"1.50\",\"2.25\",null,\"0.00\",\"999.99\"]");
    array_reads("DECIMAL[]", "[0.10, \"1e3\"]", "[\"0.1\",\"1000\"]");
    array_reads("DECIMAL(38,10)[]", "[1234567890123456789012345678.0123456789]",
                "[\"1234567890123456789012345678.0123456789\"]");
    /* A string without escapes is read where it stands, at any length;
     * one with escapes must unescape within 256 bytes. */
    char zeros[600];
    strcpy(zeros, "[\"1.");
    memset(zeros + 4, '0', 500);
    strcpy(zeros + 504, "\"]");
    array_reads("DECIMAL(5,2)[]", zeros, "[\"1.00\"]");
    /* "1." spelled \u0031. and zeros: 256 bytes unescaped, then 257. */
    memcpy(zeros, "[\"\\u0031.", 9);
    memset(zeros + 9, '0', 254);
    strcpy(zeros + 9 + 254, "\"]");
    array_reads("DECIMAL[]", zeros, "[\"1\"]");
    memset(zeros + 9, '0', 255);
    strcpy(zeros + 9 + 255, "\"]");
    refuses_text("DECIMAL[]", zeros, "not a decimal");
    refuses_text("DECIMAL(5,2)[]", "[1.234]", "not a decimal");
    refuses_text("DECIMAL(5,2)[]", "[\"1000\"]", "not a decimal");
    refuses_text("DECIMAL(5,2)[]", "[true]", "not a decimal");
    /* Booleans. */
    array_reads("BOOLEAN[]", "[true,false,null]", "[true,false,null]");
    refuses_text("BOOLEAN[]", "[1]", "not true, false or null");
    refuses_text("BOOLEAN[]", "[\"true\"]", "not true, false or null");
    /* Text: strings, re-escaped canonically. */
    array_reads("TEXT[]", "[\"a\", \"\\u00e9\\/\\t\\u0001\", \"\"]",
                "[\"a\",\"\xc3\xa9/\\t\\u0001\",\"\"]");
    array_reads("TEXT[]", "[\"\\ud83d\\ude00\"]", "[\"\xf0\x9f\x98\x80\"]");
    refuses_text("TEXT[]", "[1]", "not a string");
    array_reads("VARCHAR(2)[]", "[\"\\u00e9\xc3\xa9\", \"ab\"]",
                "[\"\xc3\xa9\xc3\xa9\",\"ab\"]");
    refuses_text("VARCHAR(2)[]", "[\"abc\"]", "within the column's length");
    refuses_text("VARCHAR(2)[]", "[\"a\\u0062c\"]", "within");
    array_reads("ENUM('a','b','\xc3\xa9')[]", "[\"a\", \"\\u0062\", "
                "\"\\u00e9\", null]",
                "[\"a\",\"b\",\"\xc3\xa9\",null]");
    refuses_text("ENUM('a','b')[]", "[\"c\"]", "not one of the labels");
    refuses_text("ENUM('a','b')[]", "[\"A\"]", "not one of the labels");
    refuses_text("ENUM('a','b')[]", "[\"a\\u0000\"]", "not one of the labels");
    refuses_text("ENUM('ab','b')[]", "[\"\\u0061\"]",
                 "not one of the labels");
    /* Text-spelled types: strings, in their canonical text. */
    array_reads("UUID[]",
                "[\"123E4567-E89B-12D3-A456-426614174000\", "
                "\"123e4567e89b12d3a456426614174000\", null]",
                "[\"123e4567-e89b-12d3-a456-426614174000\","
                "\"123e4567-e89b-12d3-a456-426614174000\",null]");
    array_reads("UUID[]", "[\"\\u003123e4567e89b12d3a456426614174000\"]",
                "[\"123e4567-e89b-12d3-a456-426614174000\"]");
    refuses_text("UUID[]", "[\"nope\"]", "not a UUID");
    array_reads("INSTANT[]", "[\"2026-03-01T10:00:00+02:00\"]",
                "[\"2026-03-01T08:00:00.000000Z\"]");
    refuses_text("INSTANT[]", "[\"2026-03-01T10:00:00\"]", "not an instant");
    array_reads("DATE[]", "[\"2026-03-01\"]", "[\"2026-03-01\"]");
    refuses_text("DATE[]", "[\"2026-02-30\"]", "not a date");
    array_reads("TIME[]", "[\"10:00:00.5\"]", "[\"10:00:00.500000\"]");
    refuses_text("TIME[]", "[\"10:00:00Z\"]", "not a time");
    array_reads("DATETIME[]", "[\"2026-03-01 10:00:00\"]",
                "[\"2026-03-01T10:00:00.000000\"]");
    array_reads("INTERVAL[]", "[\"PT90M\", \"P0D\"]",
                "[\"PT1H30M\",\"PT0S\"]");
    refuses_text("INTERVAL[]", "[\"1 day\"]", "not an interval");
    array_reads("BLOB[]", "[\"00ff\", \"\", \"AbCd\"]",
                "[\"00FF\",\"\",\"ABCD\"]");
    refuses_text("BLOB[]", "[\"0\"]", "not a BLOB");
    refuses_text("BLOB[]", "[\"zz\"]", "not a BLOB");
    /* Two dimensions: arrays (or nulls) of elements, ragged. */
    array_reads("INT32[][]", "[[1, 2], [3], null, [], [null]]",
                "[[1,2],[3],null,[],[null]]");
    refuses_text("INT32[][]", "[1]", "not an array or null");
    refuses_text("INT32[][]", "[[[1]]]", "not an INT32");
    refuses_text("INT32[][]", "[[2147483648]]", "not an INT32");
    array_reads("UUID[][]",
                "[[\"123E4567E89B12D3A456426614174000\"]]",
                "[[\"123e4567-e89b-12d3-a456-426614174000\"]]");
    /* Not an array, or not JSON. */
    refuses_text("INT8[]", "5", "not a JSON array");
    refuses_text("INT8[]", "{}", "not a JSON array");
    refuses_text("INT8[]", "", "not a JSON array");
    refuses_text("INT8[]", "null", "not a JSON array");
    refuses_text("INT8[]", "[1,", "not valid JSON");
    refuses_text("INT8[]", "[1,]", "not valid JSON");
    refuses_text("INT8[]", "[1 2]", "not valid JSON");
    refuses_text("INT8[]", "[1] x", "not valid JSON");
    refuses_text("INT8[]", "[01]", "not valid JSON");
    refuses_text("DOUBLE[]", "[1.5", "not valid JSON");
    refuses_text("TEXT[]", "[\"a]", "not valid JSON");
    refuses_text("TEXT[]", "[\"\\ud800\"]", "not valid JSON");
    refuses_text("INT8[]", "[nul]", "not valid JSON");
    refuses("INT8[]", c_int(1), "stored as JSON text");
    refuses("INT8[]", c_blob("[1]", 3), "stored as JSON text");
    fits("INT8[]", c_null());
}

/* ---- decode ---- */

static void test_decode_numbers(void **state)
{
    (void)state;
    pier_value v;
    v = decoded("INT8", c_int(-128), PIER_KIND_TINYINT, "-128");
    assert_int_equal(v.as.integer, -128);
    v = decoded("INT16", c_int(32767), PIER_KIND_SMALLINT, "32767");
    assert_int_equal(v.as.integer, 32767);
    v = decoded("INT32", c_int(INT32_MIN), PIER_KIND_INTEGER, "-2147483648");
    assert_int_equal(v.as.integer, INT32_MIN);
    v = decoded("INT64", c_int(INT64_MIN), PIER_KIND_BIGINT,
                "-9223372036854775808");
    assert_true(v.as.integer == INT64_MIN);
    v = decoded("UINT8", c_int(255), PIER_KIND_UNSIGNED, "255");
    assert_int_equal(v.as.unsigned_integer, 255);
    v = decoded("UINT32", c_int(INT64_C(4294967295)), PIER_KIND_UNSIGNED,
                "4294967295");
    assert_int_equal(v.as.unsigned_integer, UINT32_MAX);
    v = decoded("UINT64", c_text("18446744073709551615"), PIER_KIND_UNSIGNED,
                "18446744073709551615");
    assert_true(v.as.unsigned_integer == UINT64_MAX);
    v = decoded("UINT64", c_text("0042"), PIER_KIND_UNSIGNED, "42");
    assert_int_equal(v.as.unsigned_integer, 42);
    v = decoded("UINT64", c_int(7), PIER_KIND_UNSIGNED, "7");
    assert_int_equal(v.as.unsigned_integer, 7);
    v = decoded("INT128", c_text("-170141183460469231731687303715884105728"),
                PIER_KIND_HUGEINT, "-170141183460469231731687303715884105728");
    assert_true(v.as.hugeint.hi == INT64_MIN && v.as.hugeint.lo == 0);
    v = decoded("INT128", c_text("-0"), PIER_KIND_HUGEINT, "0");
    assert_true(v.as.hugeint.hi == 0 && v.as.hugeint.lo == 0);
    v = decoded("INT128", c_int(-1), PIER_KIND_HUGEINT, "-1");
    assert_true(v.as.hugeint.hi == -1 && v.as.hugeint.lo == UINT64_MAX);
    v = decoded("FLOAT32", c_real(0.1), PIER_KIND_FLOAT, "0.1");
    assert_true(v.as.real == (double)0.1f);
    v = decoded("FLOAT32", c_int(3), PIER_KIND_FLOAT, "3.0");
    assert_true(v.as.real == 3.0);
    v = decoded("DOUBLE", c_real(0.1), PIER_KIND_DOUBLE, "0.1");
    assert_true(v.as.real == 0.1);
    v = decoded("DOUBLE", c_real(1e300), PIER_KIND_DOUBLE, "1e+300");
    v = decoded("DOUBLE", c_int(-2), PIER_KIND_DOUBLE, "-2.0");
    assert_true(v.as.real == -2.0);
    v = decoded("DOUBLE", c_real(INFINITY), PIER_KIND_DOUBLE, "9e999");
    assert_true(isinf(v.as.real));
    v = decoded("BOOLEAN", c_int(1), PIER_KIND_BOOLEAN, "true");
    assert_true(v.as.boolean);
    v = decoded("BOOLEAN", c_int(0), PIER_KIND_BOOLEAN, "false");
    assert_false(v.as.boolean);
}

static void assert_decimal(const pier_value *v, int64_t unscaled, int scale)
{
    pier__i128 u = pier__i128_from_public(v->as.decimal.unscaled);
    assert_true(u == unscaled);
    assert_int_equal(v->as.decimal.scale, scale);
}

static void test_decode_decimals(void **state)
{
    (void)state;
    pier_value v;
    /* DECIMAL(p,s) pads to its scale; DECIMAL keeps the smallest. */
    v = decoded("DECIMAL(12,2)", c_text("12.5"), PIER_KIND_DECIMAL, "12.50");
    assert_decimal(&v, 1250, 2);
    v = decoded("DECIMAL(12,2)", c_text("-0"), PIER_KIND_DECIMAL, "0.00");
    assert_decimal(&v, 0, 2);
    v = decoded("DECIMAL(12,2)", c_text("-.05"), PIER_KIND_DECIMAL, "-0.05");
    assert_decimal(&v, -5, 2);
    v = decoded("DECIMAL", c_text("12.50"), PIER_KIND_DECIMAL, "12.5");
    assert_decimal(&v, 125, 1);
    v = decoded("DECIMAL", c_text("1.5e3"), PIER_KIND_DECIMAL, "1500");
    assert_decimal(&v, 1500, 0);
    v = decoded("DECIMAL(5,2)", c_text("1.230"), PIER_KIND_DECIMAL, "1.23");
    assert_decimal(&v, 123, 2);
    v = decoded("DECIMAL(38,0)", c_text("1.0e+20"), PIER_KIND_DECIMAL,
                "100000000000000000000");
    assert_true(pier__i128_from_public(v.as.decimal.unscaled) ==
                (pier__i128)100000000000 * 1000000000);
    /* An INTEGER or a REAL reads by its text. */
    v = decoded("DECIMAL(5,2)", c_int(-7), PIER_KIND_DECIMAL, "-7.00");
    assert_decimal(&v, -700, 2);
    v = decoded("DECIMAL(5,2)", c_real(12.5), PIER_KIND_DECIMAL, "12.50");
    assert_decimal(&v, 1250, 2);
    v = decoded("DECIMAL", c_real(0.1), PIER_KIND_DECIMAL, "0.1");
    assert_decimal(&v, 1, 1);
    /* the double's own value, not 15 digits of it */
    v = decoded("DECIMAL", c_real(0.1 + 0.2), PIER_KIND_DECIMAL,
                "0.30000000000000004");
    assert_decimal(&v, INT64_C(30000000000000004), 17);
    v = decoded("DECIMAL", c_real(1e20), PIER_KIND_DECIMAL,
                "100000000000000000000");
    v = decoded("DECIMAL(38,38)",
                c_text("-0.00000000000000000000000000000000000001"),
                PIER_KIND_DECIMAL,
                "-0.00000000000000000000000000000000000001");
    assert_decimal(&v, -1, 38);
}

static void test_decode_text_types(void **state)
{
    (void)state;
    pier_value v;
    pier__cell c = c_text("h\xc3\xa9llo");
    v = decoded("TEXT", c, PIER_KIND_TEXT, "h\xc3\xa9llo");
    assert_ptr_equal(v.text, c.p);           /* the cell's own text */
    v = decoded("VARCHAR(5)", c, PIER_KIND_TEXT, "h\xc3\xa9llo");
    assert_ptr_equal(v.text, c.p);
    c = c_text("b");
    v = decoded("ENUM('a','b')", c, PIER_KIND_TEXT, "b");
    assert_ptr_equal(v.text, c.p);
    decoded("TEXT", c_text(""), PIER_KIND_TEXT, "");
    /* A BLOB: uppercase hex, and its bytes. */
    static const unsigned char bytes[] = { 0x00, 0xAB, 0x7f, 0xff };
    c = c_blob(bytes, sizeof bytes);
    v = decoded("BLOB", c, PIER_KIND_BLOB, "00AB7FFF");
    assert_ptr_equal(v.as.blob.bytes, bytes);
    assert_int_equal(v.as.blob.len, 4);
    v = decoded("BLOB", c_blob(NULL, 0), PIER_KIND_BLOB, "");
    assert_int_equal(v.as.blob.len, 0);
    /* UUID: lowercase with hyphens, and the 16 bytes. */
    v = decoded("UUID", c_text("0102030405060708090A0B0C0D0E0F10"),
                PIER_KIND_UUID, "01020304-0506-0708-090a-0b0c0d0e0f10");
    for (int i = 0; i < 16; i++)
        assert_int_equal(v.as.uuid[i], i + 1);
    /* INSTANT: UTC, six fraction digits. */
    v = decoded("INSTANT", c_text("2026-03-01T10:00:00.5+02:00"),
                PIER_KIND_TIMESTAMP, "2026-03-01T08:00:00.500000Z");
    assert_true(v.as.timestamp_us == INT64_C(1772352000500000));
    v = decoded("INSTANT", c_text("1970-01-01t00:00:00z"),
                PIER_KIND_TIMESTAMP, "1970-01-01T00:00:00.000000Z");
    assert_true(v.as.timestamp_us == 0);
    /* DATE, TIME, DATETIME, INTERVAL. */
    v = decoded("DATE", c_text("1970-01-02"), PIER_KIND_DATE, "1970-01-02");
    assert_int_equal(v.as.date_days, 1);
    v = decoded("DATE", c_text("1969-12-31"), PIER_KIND_DATE, "1969-12-31");
    assert_int_equal(v.as.date_days, -1);
    v = decoded("TIME", c_text("10:00:00.5"), PIER_KIND_TIME,
                "10:00:00.500000");
    assert_true(v.as.time_us == INT64_C(36000500000));
    v = decoded("DATETIME", c_text("1970-01-01 00:00:01"),
                PIER_KIND_DATETIME, "1970-01-01T00:00:01.000000");
    assert_true(v.as.datetime_us == 1000000);
    v = decoded("INTERVAL", c_text("P1Y2M3DT4H5M6.5S"), PIER_KIND_INTERVAL,
                "P1Y2M3DT4H5M6.5S");
    assert_int_equal(v.as.interval.months, 14);
    assert_int_equal(v.as.interval.days, 3);
    assert_true(v.as.interval.micros == INT64_C(14706500000));
    v = decoded("INTERVAL", c_text("P2W"), PIER_KIND_INTERVAL, "P14D");
    assert_int_equal(v.as.interval.days, 14);
    /* JSON: as stored. */
    c = c_text("[1, 2]");
    v = decoded("JSON", c, PIER_KIND_JSON, "[1, 2]");
    assert_ptr_equal(v.text, c.p);
}

static void test_decode_any_and_null(void **state)
{
    (void)state;
    pier_value v;
    v = decoded("ANY", c_int(-5), PIER_KIND_BIGINT, "-5");
    assert_int_equal(v.as.integer, -5);
    v = decoded("ANY", c_real(2.5), PIER_KIND_DOUBLE, "2.5");
    assert_true(v.as.real == 2.5);
    pier__cell c = c_text("12.50");
    v = decoded("ANY", c, PIER_KIND_TEXT, "12.50");   /* never converted */
    assert_ptr_equal(v.text, c.p);
    v = decoded("ANY", c_blob("\x01\x02", 2), PIER_KIND_BLOB, "0102");
    assert_int_equal(v.as.blob.len, 2);
    /* A null is a null in every column. */
    static const char *const types[] = {
        "INT8", "UINT64", "DECIMAL(5,2)", "TEXT", "BLOB", "UUID", "JSON",
        "ANY", "INT8[]", "TEXT[][]",
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        v = decoded(types[i], c_null(), PIER_KIND_NULL, NULL);
        assert_int_equal(v.len, 0);
    }
    /* A refused value decodes to a conflict and leaves *out alone. */
    pier__coltype t = col("INT8");
    pier__cell bad = c_int(1000);
    memset(&v, 0x5A, sizeof v);
    pier_value before = v;
    assert_int_equal(pier__coltype_decode(&v, &t, &bad, &arena),
                     PIER__FIT_CONFLICT);
    assert_memory_equal(&v, &before, sizeof v);
}

/* ---- values as JSON ---- */

static void json_is(const char *type, pier__cell c, const char *want)
{
    pier__coltype t = col(type);
    pier_value v;
    assert_int_equal(pier__coltype_decode(&v, &t, &c, &arena), PIER__FIT_OK);
    pier__buf b;
    pier__buf_init(&b);
    pier__value_json(&b, &v);
    assert_false(b.oom);
    if (strcmp(b.p, want) != 0)
        fail_msg("%s '%s' as JSON: '%s', want '%s'", type, cell_name(&c),
                 b.p, want);
    pier__buf_free(&b);
}

static void test_value_json(void **state)
{
    (void)state;
    json_is("INT8", c_int(-5), "-5");
    json_is("UINT64", c_text("18446744073709551615"),
            "18446744073709551615");
    json_is("INT128", c_text("-170141183460469231731687303715884105728"),
            "-170141183460469231731687303715884105728");
    json_is("FLOAT32", c_real(0.1), "0.1");
    json_is("DOUBLE", c_real(2.0), "2.0");
    json_is("DOUBLE", c_real(-INFINITY), "-9e999");  /* reads as -inf */
    json_is("BOOLEAN", c_int(1), "true");
    json_is("DECIMAL(5,2)", c_text("1.5"), "\"1.50\"");
    json_is("TEXT", c_text("a\"b\n"), "\"a\\\"b\\n\"");
    json_is("BLOB", c_blob("\xff", 1), "\"FF\"");
    json_is("UUID", c_text("123E4567E89B12D3A456426614174000"),
            "\"123e4567-e89b-12d3-a456-426614174000\"");
    json_is("INSTANT", c_text("2026-03-01T10:00:00Z"),
            "\"2026-03-01T10:00:00.000000Z\"");
    json_is("DATE", c_text("2026-03-01"), "\"2026-03-01\"");
    json_is("TIME", c_text("10:00:00"), "\"10:00:00.000000\"");
    json_is("DATETIME", c_text("2026-03-01T10:00:00"),
            "\"2026-03-01T10:00:00.000000\"");
    json_is("INTERVAL", c_text("P1M"), "\"P1M\"");
    json_is("JSON", c_text("{\"a\":[1]}"), "{\"a\":[1]}");
    json_is("DECIMAL(5,2)[]", c_text("[1, null]"), "[\"1.00\",null]");
    json_is("ANY", c_text("x"), "\"x\"");
    json_is("ANY", c_null(), "null");
}

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
    assert_order(t, "10:00:00.1234564", "10:00:00.123456", 0);  /* rounded */
    assert_order(t, "10:00:00.1234567", "10:00:00.123456", 1);
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
        { "Half_Down", PIER__ROUND_HALF_DOWN },
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

/* half_down, the mode added last, on the cases above that tell it apart:
 * ties go toward zero, the rest to the nearest. */
static void test_decimal_div_half_down(void **state)
{
    (void)state;
    div_is("5", "2", 0, PIER__ROUND_HALF_DOWN, "2");
    div_is("-5", "2", 0, PIER__ROUND_HALF_DOWN, "-2");
    div_is("7", "2", 0, PIER__ROUND_HALF_DOWN, "3");
    div_is("-7", "2", 0, PIER__ROUND_HALF_DOWN, "-3");
    div_is("2", "3", 2, PIER__ROUND_HALF_DOWN, "0.67");
    div_is("-2", "3", 2, PIER__ROUND_HALF_DOWN, "-0.67");
    div_is("1", "3", 2, PIER__ROUND_HALF_DOWN, "0.33");
    div_is("0.125", "1", 2, PIER__ROUND_HALF_DOWN, "0.12");
    div_is("0.135", "1", 2, PIER__ROUND_HALF_DOWN, "0.13");
    div_is("0.1351", "1", 2, PIER__ROUND_HALF_DOWN, "0.14");
    div_is("1", "2", 0, PIER__ROUND_HALF_DOWN, "0");
}

static void round_is(const char *x, int scale, pier__rounding mode,
                     const char *want)
{
    pier__decimal r;
    const char *why = pier__decimal_round(dec(x), scale, mode, &r);
    if (why != NULL)
        fail_msg("round %s to %d (mode %d): %s", x, scale, mode, why);
    char text[PIER__DECIMAL_BUF];
    pier__decimal_format(r, text);
    if (strcmp(text, want) != 0)
        fail_msg("round %s to %d (mode %d): %s, want %s", x, scale, mode,
                 text, want);
    assert_int_equal(r.scale, scale);
}

/* decimal_round: every mode on ties, below and above them, by sign; a
 * scale above the value's pads it; at the edge of 38 digits. */
static void test_decimal_round(void **state)
{
    (void)state;
    /*          HALF_EVEN HALF_UP DOWN UP FLOOR CEILING HALF_DOWN */
    static const struct {
        const char *x;
        int scale;
        const char *want[7];
    } cases[] = {
        { "123.456", 2,
          { "123.46", "123.46", "123.45", "123.46", "123.45", "123.46",
            "123.46" } },
        { "2.5", 0, { "2", "3", "2", "3", "2", "3", "2" } },
        { "3.5", 0, { "4", "4", "3", "4", "3", "4", "3" } },
        { "-2.5", 0, { "-2", "-3", "-2", "-3", "-3", "-2", "-2" } },
        { "-2.51", 0, { "-3", "-3", "-2", "-3", "-3", "-2", "-3" } },
        { "0.005", 2,
          { "0.00", "0.01", "0.00", "0.01", "0.00", "0.01", "0.00" } },
        { "-0.001", 2,
          { "0.00", "0.00", "0.00", "-0.01", "-0.01", "0.00", "0.00" } },
        { "7", 2,
          { "7.00", "7.00", "7.00", "7.00", "7.00", "7.00", "7.00" } },
        { "1.2", 1, { "1.2", "1.2", "1.2", "1.2", "1.2", "1.2", "1.2" } },
        { "9.99", 1,
          { "10.0", "10.0", "9.9", "10.0", "9.9", "10.0", "10.0" } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (int m = 0; m < 7; m++)
            round_is(cases[i].x, cases[i].scale, (pier__rounding)m,
                     cases[i].want[m]);
    round_is("0.99999999999999999999999999999999999999", 0,
             PIER__ROUND_HALF_EVEN, "1");
    round_is(nines38, 0, PIER__ROUND_DOWN, nines38);
    /* Rounding away a digit never passes 38 digits (one is dropped for
     * the one a carry may add); padding past them is refused, and so is a
     * scale above 38, leaving *out alone. */
    round_is("9999999999999999999999999999999999999.9", 0, PIER__ROUND_UP,
             "10000000000000000000000000000000000000");
    pier__decimal r = dec("7");
    assert_non_null(strstr(pier__decimal_round(dec(nines38), 1,
                                               PIER__ROUND_DOWN, &r),
                           "more than 38 digits"));
    assert_non_null(pier__decimal_round(dec("1"), 39, PIER__ROUND_DOWN, &r));
    assert_dec(r, "7");
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

/* Arrays compare as their compact text: white space outside strings
 * does not count, inside strings it does. */
static void test_collate_json_compact(void **state)
{
    (void)state;
    static const struct {
        const char *a, *b;
        int want;
    } cases[] = {
        { "[1,2]", "[1, 2]", 0 },
        { " [ 1 ,\n\t2 ] ", "[1,2]", 0 },
        { "[\"a b\"]", "[\"ab\"]", -1 },          /* ' ' < 'b' */
        { "[\"a\\\" b\"]", "[\"a\\\"b\"]", -1 }, /* escaped quote */
        { "[10]", "[2]", -1 },                    /* the compact text's order */
        { "[]", "[\"b\"]", 1 },
        { "[1]", "[1,2]", 1 },                    /* ']' after ',' */
        { "", "", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int got = pier__collate_json_compact(cases[i].a, strlen(cases[i].a),
                                             cases[i].b, strlen(cases[i].b));
        int back = pier__collate_json_compact(cases[i].b, strlen(cases[i].b),
                                              cases[i].a,
                                              strlen(cases[i].a));
        if ((got > 0) - (got < 0) != cases[i].want || back != -got)
            fail_msg("'%s' vs '%s': %d and %d, want %d", cases[i].a,
                     cases[i].b, got, back, cases[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collate_json_compact),
        cmocka_unit_test_setup_teardown(test_storage_collation_checked_kind,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_fit_integers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fit_wide_integers, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_fit_floats, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fit_decimals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fit_text_types, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_fit_uuid_and_time, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_fit_json, setup, teardown),
        cmocka_unit_test_setup_teardown(test_arrays, setup, teardown),
        cmocka_unit_test_setup_teardown(test_decode_numbers, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_decode_decimals, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_decode_text_types, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_decode_any_and_null, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_value_json, setup, teardown),
        cmocka_unit_test(test_collate_numeric),
        cmocka_unit_test(test_collate_uuid),
        cmocka_unit_test(test_collate_instant),
        cmocka_unit_test(test_collate_time_datetime),
        cmocka_unit_test(test_collate_interval),
        cmocka_unit_test(test_decimal_add_sub_mul),
        cmocka_unit_test(test_rounding_parse),
        cmocka_unit_test(test_decimal_div_rounding),
        cmocka_unit_test(test_decimal_div_half_down),
        cmocka_unit_test(test_decimal_round),
        cmocka_unit_test(test_decimal_div_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
