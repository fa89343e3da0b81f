/*
 * test_board_types.c: board columns declared with the SQL dialect's types
 * (uint8 .. uint64, decimal, varchar(n), enum(...), uuid, date, time,
 * datetime, interval, arrays), end to end.
 *
 * The registry: every spelling the board vocabulary takes and its one
 * canonical name, the refusals and their reasons, which values fit which
 * type and the cell each is stored as (canonical text, so that SQLite's
 * equality is the type's), and the widening rules. The engine: declaring,
 * describing and reloading such columns; writes through JSON and through
 * the row builder, exact decimals by their digits, refusals that leave
 * nothing written; reads, change records, widening to text. Queries: the
 * board's view gives each column the collation that compares it by value,
 * and SQLite carries it into =, <, ORDER BY, MIN/MAX, GROUP BY, DISTINCT
 * of the outer query (a subquery and a join too); numbers compare with
 * decimal text as numbers; hugeint orders by value beyond 64 bits; and
 * the cursor still decodes every such column with its kind.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pier.h"
#include "support/engine_fixture.h"
#include "support/write_path.h"
#include "types/sqlcol.h"

typedef engine_fixture fixture;

/* ------------------------------------------------------------------ */
/* The registry                                                         */

static pier__type parse_ok(const char *spelling)
{
    pier__type t = { PIER_KIND_NULL, NULL };
    char why[PIER__TYPE_WHY];
    pier_status rc = pier__type_parse(&t, spelling, why);
    if (rc != PIER_OK)
        fail_msg("'%s' refused: %s", spelling, why);
    return t;
}

static void test_spellings(void **state)
{
    (void)state;
    static const struct {
        const char *spelling;
        const char *name;         /* canonical */
        pier_kind kind;
        bool dialect;             /* has an x */
    } cases[] = {
        /* the dialect's aliases of the board's kinds */
        { "INT8", "tinyint", PIER_KIND_TINYINT, false },
        { "int16", "smallint", PIER_KIND_SMALLINT, false },
        { "Int32", "integer", PIER_KIND_INTEGER, false },
        { "INT64", "bigint", PIER_KIND_BIGINT, false },
        { "INT128", "hugeint", PIER_KIND_HUGEINT, false },
        { "FLOAT32", "float", PIER_KIND_FLOAT, false },
        { "REAL", "double", PIER_KIND_DOUBLE, false },
        { "double", "double", PIER_KIND_DOUBLE, false },
        { "INSTANT", "timestamp", PIER_KIND_TIMESTAMP, false },
        { "BOOL", "boolean", PIER_KIND_BOOLEAN, false },
        { "BOOLEAN", "boolean", PIER_KIND_BOOLEAN, false },
        { "JSON", "json", PIER_KIND_JSON, false },
        { "TEXT", "text", PIER_KIND_TEXT, false },
        /* the board's integer is 32-bit, whatever the dialect says */
        { "INTEGER", "integer", PIER_KIND_INTEGER, false },
        { "VARCHAR", "text", PIER_KIND_TEXT, false },
        /* the dialect's further types */
        { "UINT8", "uint8", PIER_KIND_UNSIGNED, true },
        { "uint16", "uint16", PIER_KIND_UNSIGNED, true },
        { "UInt32", "uint32", PIER_KIND_UNSIGNED, true },
        { "UINT64", "uint64", PIER_KIND_UNSIGNED, true },
        { "DECIMAL", "decimal", PIER_KIND_DECIMAL, true },
        { "decimal(12,2)", "decimal(12,2)", PIER_KIND_DECIMAL, true },
        { "DECIMAL ( 12 , 2 )", "decimal(12,2)", PIER_KIND_DECIMAL, true },
        { "decimal(5)", "decimal(5,0)", PIER_KIND_DECIMAL, true },
        { "VARCHAR(200)", "varchar(200)", PIER_KIND_TEXT, true },
        { "ENUM('todo','Doing','it''s')", "enum('todo','Doing','it''s')",
          PIER_KIND_TEXT, true },
        { "UUID", "uuid", PIER_KIND_UUID, true },
        { "Date", "date", PIER_KIND_DATE, true },
        { "TIME", "time", PIER_KIND_TIME, true },
        { "DATETIME", "datetime", PIER_KIND_DATETIME, true },
        { "INTERVAL", "interval", PIER_KIND_INTERVAL, true },
        /* arrays: board element names where the board has the kind */
        { "text[]", "text[]", PIER_KIND_ARRAY, true },
        { "TEXT []", "text[]", PIER_KIND_ARRAY, true },
        { "integer[]", "integer[]", PIER_KIND_ARRAY, true },
        { "INT32[]", "integer[]", PIER_KIND_ARRAY, true },
        { "bigint[][]", "bigint[][]", PIER_KIND_ARRAY, true },
        { "timestamp[]", "timestamp[]", PIER_KIND_ARRAY, true },
        { "instant[]", "timestamp[]", PIER_KIND_ARRAY, true },
        { "float[]", "float[]", PIER_KIND_ARRAY, true },
        { "boolean[]", "boolean[]", PIER_KIND_ARRAY, true },
        { "hugeint[]", "hugeint[]", PIER_KIND_ARRAY, true },
        { "decimal(12,2)[]", "decimal(12,2)[]", PIER_KIND_ARRAY, true },
        { "UUID[][]", "uuid[][]", PIER_KIND_ARRAY, true },
        { "enum('a','b')[]", "enum('a','b')[]", PIER_KIND_ARRAY, true },
        { "uint64[]", "uint64[]", PIER_KIND_ARRAY, true },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pier__type t = parse_ok(cases[i].spelling);
        if (strcmp(pier__type_name(t), cases[i].name) != 0 ||
            t.kind != cases[i].kind || (t.x != NULL) != cases[i].dialect)
            fail_msg("'%s' read as %s (%s), want %s (%s)",
                     cases[i].spelling, pier__type_name(t),
                     pier_kind_name(t.kind), cases[i].name,
                     pier_kind_name(cases[i].kind));
        /* The canonical name parses back to the same type. */
        pier__type back = parse_ok(pier__type_name(t));
        assert_true(pier__type_eq(t, back));
        /* A copy is the same type and owns its own memory. */
        pier__type copy;
        assert_true(pier__type_copy(&copy, t));
        assert_true(pier__type_eq(copy, t));
        assert_true(copy.x == NULL || copy.x != t.x);
        pier__type_free(&t);
        assert_null(t.x);
        assert_string_equal(pier__type_name(copy), cases[i].name);
        pier__type_free(&copy);
        pier__type_free(&back);
    }
    /* An enum's labels survive a copy. */
    pier__type e = parse_ok("enum('x','it''s')");
    pier__type copy;
    assert_true(pier__type_copy(&copy, e));
    pier__type_free(&e);
    const pier__coltype *c = pier__type_sql(copy);
    assert_int_equal(c->t.nlabels, 2);
    assert_string_equal(c->labels, "x");
    assert_string_equal(c->labels + 2, "it's");
    pier__type_free(&copy);
    /* Same kind, other type. */
    pier__type a = parse_ok("varchar(10)"), b = parse_ok("varchar(11)");
    pier__type text = { PIER_KIND_TEXT, NULL };
    assert_false(pier__type_eq(a, b));
    assert_false(pier__type_eq(a, text));
    pier__type_free(&a);
    pier__type_free(&b);
}

static void test_refusals(void **state)
{
    (void)state;
    static const struct {
        const char *spelling;
        const char *why;          /* "": none (no type of the vocabulary) */
    } cases[] = {
        { "int", "" },
        { "numeric", "" },
        { "unsigned", "" },
        { "string[]", "" },
        { " uuid", "" },
        { "uuid ", "" },
        { "decimal(40,2)", "DECIMAL(p,s) takes a precision p from 1 to 38" },
        { "decimal(5,6)", "DECIMAL(p,s) takes a scale s from 0 to p" },
        { "varchar(0)",
          "VARCHAR(n) takes a length n from 1 to 1000000000 characters" },
        { "enum()", "ENUM takes its labels as quoted strings, ENUM('a','b')" },
        { "enum('a','a')", "ENUM label 'a' is listed twice" },
        { "text[][][]", "arrays have at most two dimensions (T[][])" },
        { "bigint[][][]", "arrays have at most two dimensions (T[][])" },
        /* the board's own names: never the dialect's word on them */
        { "bigint(5)", "" },
        { "float(3)", "" },
        { "timestamp[x]", "" },
        { "json[]", "JSON has no arrays: a JSON column holds any array" },
        { "uuid x", "unexpected text after type uuid" },
        { "blob", "blob is not a board type: JSON cannot carry bytes (keep "
                  "them as text, or in a declared table)" },
        { "BYTEA", "blob is not a board type: JSON cannot carry bytes "
                   "(keep them as text, or in a declared table)" },
        { "blob[]", "blob is not a board type: JSON cannot carry bytes "
                    "(keep them as text, or in a declared table)" },
        { "any", "any is not a board type: a board column has one type "
                 "(use json for mixed values)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pier__type t = { PIER_KIND_BIGINT, NULL };
        char why[PIER__TYPE_WHY];
        pier_status rc = pier__type_parse(&t, cases[i].spelling, why);
        if (rc != PIER_E_UNKNOWN_TYPE || strcmp(why, cases[i].why) != 0)
            fail_msg("'%s': %s '%s', want UnknownType '%s'",
                     cases[i].spelling, pier_status_tag(rc), why,
                     cases[i].why);
        assert_int_equal(t.kind, PIER_KIND_BIGINT);   /* untouched */
    }
}

static void test_widening_rules(void **state)
{
    (void)state;
    pier__type dec = parse_ok("decimal(12,2)"), u16 = parse_ok("uint16");
    pier__type arr = parse_ok("text[]"), vc = parse_ok("varchar(3)");
    pier__type text = { PIER_KIND_TEXT, NULL };
    pier__type dbl = { PIER_KIND_DOUBLE, NULL };
    pier__type big = { PIER_KIND_BIGINT, NULL };
    /* Off the lattice: to text only; nothing widens into them. */
    assert_int_equal(pier__type_rank(dec), -1);
    assert_true(pier__type_can_widen(dec, dec));
    assert_true(pier__type_can_widen(dec, text));
    assert_true(pier__type_can_widen(u16, text));
    assert_true(pier__type_can_widen(arr, text));
    assert_true(pier__type_can_widen(vc, text));
    assert_false(pier__type_can_widen(dec, dbl));
    assert_false(pier__type_can_widen(u16, big));
    assert_false(pier__type_can_widen(big, dec));
    assert_false(pier__type_can_widen(text, vc));
    assert_false(pier__type_can_widen(u16, dec));
    /* Only cells that are not their canonical text are rewritten. */
    assert_true(pier__type_widen_rewrites(u16, text));
    assert_false(pier__type_widen_rewrites(dec, text));
    assert_false(pier__type_widen_rewrites(arr, text));
    assert_false(pier__type_widen_rewrites(vc, text));
    assert_false(pier__type_widen_rewrites(dec, dbl));
    /* Inference never meets them, but a lub with one is text. */
    assert_int_equal(pier__type_lub(dec, big).kind, PIER_KIND_TEXT);
    assert_null(pier__type_lub(dec, big).x);
    pier__type_free(&dec);
    pier__type_free(&u16);
    pier__type_free(&arr);
    pier__type_free(&vc);
}

/* Values as the JSON reader gives them: numbers keep their text. */
static pier__value num(pier_kind kind, const char *text)
{
    pier__value v;
    memset(&v, 0, sizeof v);
    v.kind = kind;
    v.s = text;
    v.n = strlen(text);
    if (kind == PIER_KIND_BIGINT)
        v.u.i = strtoll(text, NULL, 10);
    else if (kind == PIER_KIND_DOUBLE)
        v.u.d = strtod(text, NULL);
    else if (kind == PIER_KIND_HUGEINT)
        pier__i128_parse(text, v.n, &v.u.h);
    return v;
}

static pier__value str(const char *text)
{
    pier__value v;
    memset(&v, 0, sizeof v);
    v.kind = PIER_KIND_TEXT;
    v.s = text;
    v.n = strlen(text);
    return v;
}

/* A document: its canonical text and its text as written. */
static pier__value doc(const char *canonical, const char *written)
{
    pier__value v = str(canonical);
    v.kind = PIER_KIND_JSON;
    v.u.doc.p = written;
    v.u.doc.n = strlen(written);
    return v;
}

/* Encodes `v` for `spelling`: "" and the stored text (or "#N" for an
 * INT cell N), or "!" and the reason of a conflict. */
static void assert_encodes(const char *spelling, pier__value v,
                           const char *want)
{
    pier__type t = parse_ok(spelling);
    pier__arena a;
    pier__arena_init(&a);
    pier__cell c;
    const char *why = NULL;
    char got[256];
    switch (pier__value_encode(&c, &v, t, &a, &why)) {
    case PIER__FIT_OK:
        if (c.st == PIER__ST_INT)
            snprintf(got, sizeof got, "#%lld", (long long)c.i);
        else if (c.st == PIER__ST_TEXT)
            snprintf(got, sizeof got, "%.*s", (int)c.n, c.p);
        else
            snprintf(got, sizeof got, "storage %d", (int)c.st);
        break;
    case PIER__FIT_CONFLICT:
        snprintf(got, sizeof got, "!%s", why != NULL ? why : "");
        break;
    default:
        snprintf(got, sizeof got, "out of memory");
    }
    if (strcmp(got, want) != 0)
        fail_msg("%s <- %.*s: got '%s', want '%s'", spelling,
                 (int)(v.s != NULL ? v.n : 4), v.s != NULL ? v.s : "null",
                 got, want);
    pier__arena_free(&a);
    pier__type_free(&t);
}

static void test_encodings(void **state)
{
    (void)state;
    pier__value yes;
    memset(&yes, 0, sizeof yes);
    yes.kind = PIER_KIND_BOOLEAN;
    yes.u.b = true;
    /* decimals: numbers by their digits, strings by their parser, stored
     * canonical (padded to the scale; DECIMAL at its smallest scale) */
    assert_encodes("decimal(12,2)", num(PIER_KIND_DOUBLE, "12.5"), "12.50");
    assert_encodes("decimal(12,2)", str("12.5"), "12.50");
    assert_encodes("decimal(12,2)", num(PIER_KIND_BIGINT, "7"), "7.00");
    assert_encodes("decimal(12,2)", num(PIER_KIND_DOUBLE, "1.25e1"),
                   "12.50");
    assert_encodes("decimal(12,2)", str("-0.00"), "0.00");
    assert_encodes("decimal(20,15)",
                   num(PIER_KIND_DOUBLE, "12.345678901234567"),
                   "12.345678901234567");
    assert_encodes("decimal(38,20)",
                   num(PIER_KIND_DOUBLE, "0.12345678901234567890"),
                   "0.12345678901234567890");
    assert_encodes("decimal", num(PIER_KIND_DOUBLE, "0.10"), "0.1");
    assert_encodes("decimal", num(PIER_KIND_DOUBLE, "0.1"), "0.1");
    assert_encodes("decimal",
                   num(PIER_KIND_HUGEINT,
                       "170141183460469231731687303715884105727"),
                   "!a decimal of more than 38 digits");
    assert_encodes("decimal(12,2)", num(PIER_KIND_DOUBLE, "12.345"),
                   "!more digits after the point than the column's scale "
                   "allows (values are never rounded)");
    assert_encodes("decimal(3,2)", num(PIER_KIND_BIGINT, "10"),
                   "!more digits before the point than the column's "
                   "precision allows");
    assert_encodes("decimal(12,2)", str("abc"),
                   "!a decimal needs digits (like 12.50)");
    assert_encodes("decimal(12,2)", yes, "!");
    /* a C builder's double has no text: its shortest round trip */
    pier__value d = num(PIER_KIND_DOUBLE, "0.1");
    d.s = NULL;
    assert_encodes("decimal(12,2)", d, "0.10");
    /* unsigned: integers; uint64 also digits as a string; stored as
     * integers up to 32 bits, as canonical digits beyond */
    assert_encodes("uint8", num(PIER_KIND_BIGINT, "255"), "#255");
    assert_encodes("uint8", num(PIER_KIND_BIGINT, "256"),
                   "!out of range for UINT8");
    assert_encodes("uint8", num(PIER_KIND_BIGINT, "-1"),
                   "!out of range for UINT8");
    assert_encodes("uint32", num(PIER_KIND_BIGINT, "4294967295"),
                   "#4294967295");
    assert_encodes("uint32",
                   num(PIER_KIND_HUGEINT, "18446744073709551615"),
                   "!out of its range");
    assert_encodes("uint16", str("5"), "!");
    assert_encodes("uint16", num(PIER_KIND_DOUBLE, "5.0"), "!");
    assert_encodes("uint64", num(PIER_KIND_BIGINT, "5"), "5");
    assert_encodes("uint64",
                   num(PIER_KIND_HUGEINT, "18446744073709551615"),
                   "18446744073709551615");
    assert_encodes("uint64", str("0018446744073709551615"),
                   "18446744073709551615");
    assert_encodes("uint64",
                   num(PIER_KIND_HUGEINT, "18446744073709551616"),
                   "!out of range for UINT64");
    assert_encodes("uint64", str("-1"), "!out of range for UINT64");
    /* text-spelled scalars: canonical text */
    assert_encodes("uuid", str("A0EEBC999C0B4EF8BB6D6BB9BD380A11"),
                   "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    assert_encodes("uuid", str("nope"),
                   "!a UUID is 32 hex digits, as 8-4-4-4-12 with hyphens");
    assert_encodes("uuid", num(PIER_KIND_BIGINT, "5"), "!");
    assert_encodes("date", str("2026-03-01"), "2026-03-01");
    assert_encodes("date", str("2026-02-30"),
                   "!a date is YYYY-MM-DD, a real day of the years 0001 to "
                   "9999");
    assert_encodes("time", str("10:00:00.5"), "10:00:00.500000");
    assert_encodes("datetime", str("2026-03-01 10:00:00"),
                   "2026-03-01T10:00:00.000000");
    assert_encodes("interval", str("P1Y14M"), "P2Y2M");
    assert_encodes("varchar(3)", str("abc"), "abc");
    assert_encodes("varchar(3)", str("żółw"),
                   "!longer than the column's length");
    assert_encodes("varchar(4)", str("żółw"), "żółw");
    assert_encodes("enum('todo','done')", str("done"), "done");
    assert_encodes("enum('todo','done')", str("Done"),
                   "!not one of the labels");
    /* arrays: from a document's text as written, elements canonical */
    assert_encodes("text[]", doc("[\"a\",null]", "[ \"a\" , null ]"),
                   "[\"a\",null]");
    assert_encodes("decimal(20,15)[]",
                   doc("[12.345678901234567]", "[12.3456789012345670]"),
                   "[\"12.345678901234567\"]");
    assert_encodes("integer[][]", doc("[[1],[]]", "[[1],[]]"),
                   "[[1],[]]");
    assert_encodes("integer[]", doc("[2147483648]", "[2147483648]"),
                   "!an element is not an INT32 (a JSON integer of 32 "
                   "bits) or null");
    assert_encodes("uuid[]", doc("{\"a\":1}", "{\"a\":1}"),
                   "!not a JSON array");
    assert_encodes("text[]", str("[\"a\"]"), "!");
    /* a builder's document: its canonical text */
    pier__value built = doc("[\"x\"]", "");
    built.u.doc.p = NULL;
    assert_encodes("text[]", built, "[\"x\"]");
}

/* Decodes a stored cell of `spelling`: its kind and text. */
static pier_value decode(const char *spelling, pier__cell c, pier__arena *a)
{
    pier__type t = parse_ok(spelling);
    pier_value v;
    if (pier__cell_decode(&v, &c, t, a) != PIER__FIT_OK)
        fail_msg("a %s cell did not decode", spelling);
    pier__cell stored = c;
    pier_value view;
    assert_int_equal(pier__cell_view(&view, &stored, t, a), PIER__FIT_OK);
    assert_int_equal(view.kind, v.kind);
    assert_string_equal(view.text, v.text);
    pier__type_free(&t);
    return v;
}

static pier__cell text_cell(const char *s)
{
    return (pier__cell){ .st = PIER__ST_TEXT, .p = s, .n = strlen(s) };
}

static void test_decodings(void **state)
{
    (void)state;
    pier__arena a;
    pier__arena_init(&a);
    pier_value v = decode("decimal(12,2)", text_cell("12.50"), &a);
    assert_int_equal(v.kind, PIER_KIND_DECIMAL);
    assert_string_equal(v.text, "12.50");
    assert_int_equal(v.as.decimal.unscaled.lo, 1250);
    assert_int_equal(v.as.decimal.scale, 2);
    v = decode("uint8", (pier__cell){ .st = PIER__ST_INT, .i = 200 }, &a);
    assert_int_equal(v.kind, PIER_KIND_UNSIGNED);
    assert_int_equal(v.as.unsigned_integer, 200);
    v = decode("uint64", text_cell("18446744073709551615"), &a);
    assert_true(v.as.unsigned_integer == UINT64_MAX);
    v = decode("uuid", text_cell("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"),
               &a);
    assert_int_equal(v.kind, PIER_KIND_UUID);
    assert_int_equal(v.as.uuid[0], 0xa0);
    v = decode("date", text_cell("1970-01-02"), &a);
    assert_int_equal(v.as.date_days, 1);
    v = decode("time", text_cell("00:00:01.000000"), &a);
    assert_int_equal(v.as.time_us, 1000000);
    v = decode("interval", text_cell("P1M2D"), &a);
    assert_int_equal(v.as.interval.months, 1);
    assert_int_equal(v.as.interval.days, 2);
    v = decode("enum('a','b')", text_cell("b"), &a);
    assert_int_equal(v.kind, PIER_KIND_TEXT);
    assert_string_equal(v.text, "b");
    v = decode("decimal(5,1)[]", text_cell("[\"1.5\",null]"), &a);
    assert_int_equal(v.kind, PIER_KIND_ARRAY);
    assert_string_equal(v.text, "[\"1.5\",null]");
    /* A hugeint as digits, as the query views give it. */
    v = decode("hugeint", text_cell("-170141183460469231731687303715884105728"),
               &a);
    assert_int_equal(v.kind, PIER_KIND_HUGEINT);
    assert_true(v.as.hugeint.hi == INT64_MIN && v.as.hugeint.lo == 0);
    /* A cell no write stores: refused. */
    pier__type t = parse_ok("uuid");
    pier__cell bad = text_cell("nope");
    assert_int_equal(pier__cell_decode(&v, &bad, t, &a), PIER__FIT_CONFLICT);
    pier__type_free(&t);
    /* As JSON: decimals as strings, unsigned as numbers. */
    pier__buf b;
    pier__buf_init(&b);
    t = parse_ok("decimal(12,2)");
    pier__cell dc = text_cell("12.50");
    pier__cell_to_json(&b, &dc, t);
    pier__type_free(&t);
    t = parse_ok("uint64");
    pier__cell uc = text_cell("18446744073709551615");
    pier__buf_putc(&b, ' ');
    pier__cell_to_json(&b, &uc, t);
    pier__type_free(&t);
    assert_string_equal(b.p, "\"12.50\" 18446744073709551615");
    pier__buf_free(&b);
    /* Widening re-renders a uint16's integer as its digits. */
    t = parse_ok("uint16");
    pier__cell out, in = { .st = PIER__ST_INT, .i = 65535 };
    assert_int_equal(pier__cell_to_text(&out, &in, t, &a), PIER__FIT_OK);
    assert_int_equal(out.st, PIER__ST_TEXT);
    assert_string_equal(out.p, "65535");
    pier__type_free(&t);
    pier__arena_free(&a);
}

/* ------------------------------------------------------------------ */
/* The engine                                                           */

static int setup(void **state)
{
    *state = fixture_open();
    return 0;
}

static int teardown(void **state)
{
    return fixture_close(*state);
}

static int group_json(void **state)
{
    (void)state;
    wp_current = WP_JSON;
    return 0;
}

static int group_rows(void **state)
{
    (void)state;
    wp_current = WP_ROWS;
    return 0;
}

static const pier_column_def shop_columns[] = {
    { "price", "DECIMAL(12,2)" }, { "qty", "uint16" },
    { "serial", "uint64" },       { "ref", "uuid" },
    { "day", "date" },            { "at", "time" },
    { "local", "datetime" },      { "span", "interval" },
    { "code", "varchar(4)" },     { "status", "enum('todo','done')" },
    { "tags", "text[]" },         { "grid", "integer[][]" },
    { "exact", "decimal" },       { "big", "hugeint" },
};
#define NSHOP (sizeof shop_columns / sizeof *shop_columns)

static void make_shop(pier_engine *e)
{
    pier_board_options o = PIER_BOARD_OPTIONS_INIT;
    o.columns = shop_columns;
    o.ncolumns = NSHOP;
    pier_error err;
    if (pier_board_create(NULL, e, "shop", &o, &err) != PIER_OK)
        fail_msg("create shop: %s: %s", err.tag, err.message);
}

static void insert_ok(pier_engine *e, const char *board, const char *json)
{
    pier_error err;
    if (wp_insert(e, board, json, NULL, &err) != PIER_OK)
        fail_msg("[%s] %s: %s: %s", wp_name(wp_current), json, err.tag,
                 err.message);
}

/* The row as JSON. */
static char *row_json(pier_engine *e, const char *board, const char *id)
{
    pier_row *row = NULL;
    pier_error err;
    if (pier_row_get(&row, e, board, id, &err) != PIER_OK)
        fail_msg("get %s/%s: %s: %s", board, id, err.tag, err.message);
    char *json = pier_row_to_json(row);
    pier_row_free(row);
    return json;
}

static void test_declare_and_describe(void **state)
{
    fixture *f = *state;
    make_shop(f->e);
    static const struct {
        const char *type;
        pier_kind kind;
    } want[NSHOP] = {
        { "decimal(12,2)", PIER_KIND_DECIMAL },
        { "uint16", PIER_KIND_UNSIGNED },
        { "uint64", PIER_KIND_UNSIGNED },       { "uuid", PIER_KIND_UUID },
        { "date", PIER_KIND_DATE },             { "time", PIER_KIND_TIME },
        { "datetime", PIER_KIND_DATETIME },
        { "interval", PIER_KIND_INTERVAL },
        { "varchar(4)", PIER_KIND_TEXT },
        { "enum('todo','done')", PIER_KIND_TEXT },
        { "text[]", PIER_KIND_ARRAY },
        { "integer[][]", PIER_KIND_ARRAY },
        { "decimal", PIER_KIND_DECIMAL },
        { "hugeint", PIER_KIND_HUGEINT },
    };
    /* As described, and as another engine reads the catalog. */
    pier_engine *other = fixture_engine(f);
    pier_engine *engines[2] = { f->e, other };
    for (int k = 0; k < 2; k++) {
        pier_board_info *info = NULL;
        pier_error err;
        assert_int_equal(pier_board_describe(&info, engines[k], "shop",
                                             &err), PIER_OK);
        assert_int_equal(info->ncolumns, 3 + NSHOP);
        for (size_t i = 0; i < NSHOP; i++) {
            const pier_column_info *c = &info->columns[3 + i];
            assert_string_equal(c->name, shop_columns[i].name);
            assert_string_equal(c->type, want[i].type);
            assert_int_equal(c->kind, want[i].kind);
            assert_int_equal(c->origin, PIER_ORIGIN_DECLARED);
        }
        pier_board_info_free(info);
    }
    pier_close(&other);
    /* add_column takes them too; a bad one changes nothing. */
    pier_error err;
    int64_t head = pier_head(f->e);
    assert_int_equal(pier_board_add_column(NULL, f->e, "shop", "labels",
                                           "ENUM('a','it''s')[]", &err),
                     PIER_OK);
    assert_int_equal(pier_board_add_column(NULL, f->e, "shop", "blob",
                                           "blob", &err),
                     PIER_E_UNKNOWN_TYPE);
    assert_string_equal(err.message,
                        "type 'blob' for column 'blob' is refused: blob is "
                        "not a board type: JSON cannot carry bytes (keep "
                        "them as text, or in a declared table)");
    assert_string_equal(err.board, "shop");
    assert_string_equal(err.column, "blob");
    assert_int_equal(pier_board_add_column(NULL, f->e, "shop", "n", "int",
                                           &err),
                     PIER_E_UNKNOWN_TYPE);
    assert_non_null(strstr(err.message, "unknown type 'int' for column 'n': "
                                        "use boolean, tinyint"));
    assert_non_null(strstr(err.message, "uint64, decimal or decimal(p,s), "
                                        "varchar(n), enum('a',...), uuid"));
    assert_int_equal(pier_head(f->e), head + 1);
    pier_board_info *info = NULL;
    assert_int_equal(pier_board_describe(&info, f->e, "shop", &err),
                     PIER_OK);
    assert_int_equal(info->ncolumns, 3 + NSHOP + 1);
    assert_string_equal(info->columns[3 + NSHOP].type,
                        "enum('a','it''s')[]");
    pier_board_info_free(info);
    /* The schema record spells the type in full, as JSON. */
    pier_changes_page *page = NULL;
    assert_int_equal(pier_changes(&page, f->e, "shop", head, 0, &err),
                     PIER_OK);
    assert_int_equal(page->nrecords, 1);
    assert_non_null(strstr(page->records[0].payload,
                           "\"type\":\"enum('a','it''s')[]\""));
    pier_changes_page_free(page);
}

static void test_write_and_read(void **state)
{
    fixture *f = *state;
    make_shop(f->e);
    insert_ok(f->e, "shop",
              "[{\"id\":\"a\",\"price\":12.5,\"qty\":65535,"
              "\"serial\":\"18446744073709551615\","
              "\"ref\":\"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11\","
              "\"day\":\"2026-03-01\",\"at\":\"10:00:00.5\","
              "\"local\":\"2026-03-01 10:00:00\",\"span\":\"P1Y14M\","
              "\"code\":\"żółw\",\"status\":\"done\","
              "\"tags\":[\"x\",null],\"grid\":[[1,2],[]],"
              "\"exact\":0.1,\"big\":-5},"
              "{\"id\":\"b\",\"price\":\"7\",\"serial\":5,"
              "\"exact\":\"0.10\"}]");
    char *a = row_json(f->e, "shop", "a");
    assert_string_equal(a,
        "{\"id\":\"a\",\"updated_at\":\"" FIXTURE_NOW_TEXT "\","
        "\"state\":null,\"price\":\"12.50\",\"qty\":65535,"
        "\"serial\":18446744073709551615,"
        "\"ref\":\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\","
        "\"day\":\"2026-03-01\",\"at\":\"10:00:00.500000\","
        "\"local\":\"2026-03-01T10:00:00.000000\",\"span\":\"P2Y2M\","
        "\"code\":\"żółw\",\"status\":\"done\",\"tags\":[\"x\",null],"
        "\"grid\":[[1,2],[]],\"exact\":\"0.1\",\"big\":-5}");
    pier_free(a);
    char *b = row_json(f->e, "shop", "b");
    assert_non_null(strstr(b, "\"price\":\"7.00\",\"qty\":null,"
                              "\"serial\":5,"));
    assert_non_null(strstr(b, "\"exact\":\"0.1\""));
    pier_free(b);
    /* The values' kinds and members. */
    pier_row *row = NULL;
    pier_error err;
    assert_int_equal(pier_row_get(&row, f->e, "shop", "a", &err), PIER_OK);
    const pier_value *v = pier_row_find(row, "price");
    assert_int_equal(v->kind, PIER_KIND_DECIMAL);
    assert_int_equal(v->as.decimal.unscaled.lo, 1250);
    assert_int_equal(v->as.decimal.scale, 2);
    v = pier_row_find(row, "serial");
    assert_int_equal(v->kind, PIER_KIND_UNSIGNED);
    assert_true(v->as.unsigned_integer == UINT64_MAX);
    v = pier_row_find(row, "ref");
    assert_int_equal(v->kind, PIER_KIND_UUID);
    assert_int_equal(v->as.uuid[15], 0x11);
    v = pier_row_find(row, "span");
    assert_int_equal(v->kind, PIER_KIND_INTERVAL);
    assert_int_equal(v->as.interval.months, 26);
    v = pier_row_find(row, "grid");
    assert_int_equal(v->kind, PIER_KIND_ARRAY);
    pier_row_free(row);
}

/* Exact decimals by their digits: only JSON keeps a number's text. */
static void test_decimals_are_exact(void **state)
{
    fixture *f = *state;
    static const pier_column_def cols[] = {
        { "d", "decimal(20,15)" }, { "m", "decimal" },
        { "ds", "decimal(38,20)[]" },
    };
    pier_board_options o = PIER_BOARD_OPTIONS_INIT;
    o.columns = cols;
    o.ncolumns = 3;
    pier_error err;
    assert_int_equal(pier_board_create(NULL, f->e, "x", &o, &err), PIER_OK);
    fixture_insert(f->e, "x",
                   "{\"id\":\"a\",\"d\":12.345678901234567,"
                   "\"m\":0.12345678901234567890123,"
                   "\"ds\":[0.12345678901234567890,1e-20,null]}");
    char *a = row_json(f->e, "x", "a");
    assert_string_equal(a, "{\"id\":\"a\",\"updated_at\":\"" FIXTURE_NOW_TEXT
                           "\",\"state\":null,\"d\":\"12.345678901234567\","
                           "\"m\":\"0.12345678901234567890123\","
                           "\"ds\":[\"0.12345678901234567890\","
                           "\"0.00000000000000000001\",null]}");
    pier_free(a);
    /* The builder: text is exact, a double is its shortest text. */
    pier_rows *rows = pier_rows_new();
    assert_int_equal(pier_rows_add(rows, &err), PIER_OK);
    assert_int_equal(pier_rows_set_text(rows, "id", "b", &err), PIER_OK);
    assert_int_equal(pier_rows_set_text(rows, "d", "0.000000000000001",
                                        &err), PIER_OK);
    assert_int_equal(pier_rows_set_double(rows, "m", 0.1, &err), PIER_OK);
    assert_int_equal(pier_rows_set_json(rows, "ds",
                                        "[0.12345678901234567891]", &err),
                     PIER_OK);
    assert_int_equal(pier_insert_rows(NULL, f->e, "x", rows, &err),
                     PIER_OK);
    pier_rows_free(rows);
    char *b = row_json(f->e, "x", "b");
    assert_non_null(strstr(b, "\"d\":\"0.000000000000001\",\"m\":\"0.1\","
                              "\"ds\":[\"0.12345678901234567891\"]"));
    pier_free(b);
}

typedef struct refusal {
    const char *json;
    const char *message;
} refusal;

static void test_refusals_write_nothing(void **state)
{
    fixture *f = *state;
    make_shop(f->e);
    insert_ok(f->e, "shop", "{\"id\":\"keep\",\"price\":1}");
    static const refusal cases[] = {
        { "{\"id\":\"x\",\"price\":12.345}",
          "column 'price' of board 'shop' is decimal(12,2), got double "
          "12.345: more digits after the point than the column's scale "
          "allows (values are never rounded)" },
        { "{\"id\":\"x\",\"price\":true}",
          "column 'price' of board 'shop' is decimal(12,2), got boolean "
          "true" },
        { "{\"id\":\"x\",\"qty\":65536}",
          "column 'qty' of board 'shop' is uint16, got bigint 65536: out "
          "of range for UINT16" },
        { "{\"id\":\"x\",\"qty\":\"5\"}",
          "column 'qty' of board 'shop' is uint16, got text \"5\"" },
        { "{\"id\":\"x\",\"serial\":-1}",
          "column 'serial' of board 'shop' is uint64, got bigint -1: out of "
          "range for UINT64" },
        { "{\"id\":\"x\",\"ref\":\"not-a-uuid\"}",
          "column 'ref' of board 'shop' is uuid, got text \"not-a-uuid\": "
          "a UUID is 32 hex digits, as 8-4-4-4-12 with hyphens" },
        { "{\"id\":\"x\",\"day\":\"2026-02-30\"}",
          "column 'day' of board 'shop' is date, got text \"2026-02-30\": "
          "a date is YYYY-MM-DD, a real day of the years 0001 to 9999" },
        { "{\"id\":\"x\",\"code\":\"abcde\"}",
          "column 'code' of board 'shop' is varchar(4), got text "
          "\"abcde\": longer than the column's length" },
        { "{\"id\":\"x\",\"status\":\"TODO\"}",
          "column 'status' of board 'shop' is enum('todo','done'), got "
          "text \"TODO\": not one of the labels" },
        { "{\"id\":\"x\",\"tags\":[1]}",
          "column 'tags' of board 'shop' is text[], got json [1]: an "
          "element is not a string or null" },
        { "{\"id\":\"x\",\"tags\":\"x\"}",
          "column 'tags' of board 'shop' is text[], got text \"x\"" },
        { "{\"id\":\"x\",\"grid\":[1]}",
          "column 'grid' of board 'shop' is integer[][], got json [1]: an "
          "element is not an array or null (the type has two dimensions)" },
        /* the second row fails: the first is not written either */
        { "[{\"id\":\"x\",\"price\":1},{\"id\":\"y\",\"at\":\"25:00:00\"}]",
          "column 'at' of board 'shop' is time, got text \"25:00:00\": a "
          "time is HH:MM:SS with an optional fraction, 00:00:00 to "
          "23:59:59.999999 (rounded to the microsecond) (row 2)" },
    };
    int64_t head = pier_head(f->e);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pier_error err;
        pier_status rc = wp_insert(f->e, "shop", cases[i].json, NULL, &err);
        if (rc != PIER_E_COLUMN_TYPE_CONFLICT ||
            strcmp(err.message, cases[i].message) != 0)
            fail_msg("[%s] %s\n  -> %s: %s\n  want: %s", wp_name(wp_current),
                     cases[i].json, pier_status_tag(rc), err.message,
                     cases[i].message);
        assert_string_equal(err.board, "shop");
        int64_t n = 0;
        assert_int_equal(pier_row_count(&n, f->e, "shop", &err), PIER_OK);
        assert_int_equal(n, 1);
        assert_int_equal(pier_head(f->e), head);
    }
    pier_error err;
    pier_status rc = wp_insert(f->e, "shop", "{\"id\":\"x\",\"qty\":1}",
                               NULL, &err);
    assert_int_equal(rc, PIER_OK);
    assert_string_equal(err.column, "");
    rc = wp_insert(f->e, "shop", "{\"id\":\"z\",\"status\":\"nope\"}", NULL,
                   &err);
    assert_int_equal(rc, PIER_E_COLUMN_TYPE_CONFLICT);
    assert_string_equal(err.column, "status");
    assert_string_equal(err.column_type, "enum('todo','done')");
    assert_string_equal(err.value_type, "text");
}

static void test_updates_and_changes(void **state)
{
    fixture *f = *state;
    make_shop(f->e);
    insert_ok(f->e, "shop", "{\"id\":\"a\",\"price\":1,\"tags\":[\"x\"]}");
    pier_error err;
    int64_t head = pier_head(f->e);
    const char *patch = "{\"price\":\"2.5\",\"serial\":9223372036854775808}";
    assert_int_equal(pier_update_json(NULL, f->e, "shop", "a", patch,
                                      strlen(patch), &err), PIER_OK);
    const char *bad = "{\"price\":\"2.555\"}";
    assert_int_equal(pier_update_json(NULL, f->e, "shop", "a", bad,
                                      strlen(bad), &err),
                     PIER_E_COLUMN_TYPE_CONFLICT);
    const char *up = "{\"id\":\"a\",\"price\":3,\"tags\":[\"y\",\"z\"]}";
    assert_int_equal(pier_upsert_json(NULL, f->e, "shop", up, strlen(up),
                                      &err), PIER_OK);
    char *a = row_json(f->e, "shop", "a");
    assert_non_null(strstr(a, "\"price\":\"3.00\""));
    assert_non_null(strstr(a, "\"serial\":null"));
    assert_non_null(strstr(a, "\"tags\":[\"y\",\"z\"]"));
    pier_free(a);
    /* Change records carry the logical values: decimals as strings. */
    pier_changes_page *page = NULL;
    assert_int_equal(pier_changes(&page, f->e, "shop", head, 0, &err),
                     PIER_OK);
    assert_int_equal(page->nrecords, 2);
    assert_string_equal(page->records[0].payload,
                        "{\"id\":\"a\",\"patch\":{\"price\":\"2.50\","
                        "\"serial\":9223372036854775808}}");
    assert_string_equal(page->records[1].payload,
                        "{\"rows\":[{\"id\":\"a\",\"price\":\"3.00\","
                        "\"tags\":[\"y\",\"z\"]}]}");
    pier_changes_page_free(page);
}

static void test_widen_to_text(void **state)
{
    fixture *f = *state;
    make_shop(f->e);
    insert_ok(f->e, "shop",
              "[{\"id\":\"a\",\"price\":12.5,\"qty\":7,\"status\":\"done\","
              "\"tags\":[\"x\"]},{\"id\":\"b\"}]");
    pier_error err;
    static const char *const to_text[] = { "price", "qty", "status",
                                           "tags" };
    for (size_t i = 0; i < sizeof to_text / sizeof *to_text; i++)
        if (pier_board_widen_column(NULL, f->e, "shop", to_text[i], "text",
                                    &err) != PIER_OK)
            fail_msg("widen %s: %s: %s", to_text[i], err.tag, err.message);
    char *a = row_json(f->e, "shop", "a");
    assert_non_null(strstr(a, "\"price\":\"12.50\",\"qty\":\"7\","));
    assert_non_null(strstr(a, "\"status\":\"done\",\"tags\":\"[\\\"x\\\"]\""));
    pier_free(a);
    /* Now text: anything fits. */
    insert_ok(f->e, "shop", "{\"id\":\"c\",\"price\":\"cheap\"}");
    /* Nothing widens into them, and they widen to text only. */
    int64_t head = pier_head(f->e);
    assert_int_equal(pier_board_widen_column(NULL, f->e, "shop", "serial",
                                             "decimal", &err),
                     PIER_E_COLUMN_TYPE_CONFLICT);
    assert_string_equal(err.message,
                        "cannot widen column 'serial' of board 'shop' from "
                        "uint64 to decimal: the SQL dialect's types sit "
                        "outside the widening lattice and widen only to "
                        "text");
    assert_int_equal(pier_board_widen_column(NULL, f->e, "shop", "big",
                                             "decimal(38,0)", &err),
                     PIER_E_COLUMN_TYPE_CONFLICT);
    assert_string_equal(err.message,
                        "cannot widen column 'big' of board 'shop' from "
                        "hugeint to decimal(38,0): nothing widens into the "
                        "SQL dialect's types, which sit outside the "
                        "widening lattice");
    /* Its own type: a no-op. */
    assert_int_equal(pier_board_widen_column(NULL, f->e, "shop", "code",
                                             "VARCHAR(4)", &err), PIER_OK);
    assert_int_equal(pier_head(f->e), head);
}

/* ------------------------------------------------------------------ */
/* Queries                                                              */

static pier_status run(pier_engine *e, const char *board, const char *sql,
                       char **out, pier_error *err)
{
    *out = NULL;
    pier_cursor *c = NULL;
    pier_status rc = pier_query(&c, e, board, sql, NULL, NULL, err);
    if (rc != PIER_OK)
        return rc;
    size_t len = 0;
    char *text = calloc(1, 1);
    const pier_row *row;
    while ((rc = pier_cursor_next(&row, c, err)) == PIER_OK && row != NULL) {
        char *json = pier_row_to_json(row);
        size_t n = strlen(json);
        text = realloc(text, len + n + 2);
        memcpy(text + len, json, n);
        len += n;
        text[len++] = '\n';
        text[len] = '\0';
        pier_free(json);
    }
    pier_cursor_close(c);
    if (rc != PIER_OK) {
        free(text);
        return rc;
    }
    *out = text;
    return PIER_OK;
}

static void expect(pier_engine *e, const char *sql, const char *want)
{
    char *got = NULL;
    pier_error err;
    if (run(e, "shop", sql, &got, &err) != PIER_OK)
        fail_msg("%s\n  -> %s: %s", sql, err.tag, err.message);
    if (strcmp(got, want) != 0)
        fail_msg("%s\n  got:  %s\n  want: %s", sql, got, want);
    free(got);
}

static int setup_rows(void **state)
{
    fixture *f = fixture_open();
    make_shop(f->e);
    fixture_insert(f->e, "shop",
        "[{\"id\":\"a\",\"price\":\"12.5\",\"serial\":18446744073709551615,"
        "\"ref\":\"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11\","
        "\"at\":\"10:00:00.5\",\"span\":\"P1M\",\"code\":\"b\","
        "\"big\":-170141183460469231731687303715884105728},"
        "{\"id\":\"b\",\"price\":9,\"serial\":9223372036854775808,"
        "\"at\":\"09:00:00\",\"span\":\"P30D\",\"code\":\"a\","
        "\"big\":170141183460469231731687303715884105727},"
        "{\"id\":\"c\",\"price\":\"12.50\",\"serial\":10,"
        "\"at\":\"10:00:00.500\",\"span\":\"P1Y\",\"big\":5},"
        "{\"id\":\"d\",\"price\":100,\"serial\":9,"
        "\"big\":-9223372036854775809},"
        "{\"id\":\"e\"}]");
    fixture_insert(f->e, "plain",
                   "[{\"id\":\"a\",\"n\":1},{\"id\":\"c\",\"n\":3}]");
    *state = f;
    return 0;
}

/* The view's collation reaches every comparison of the outer query. */
static void test_view_collations_reach_the_query(void **state)
{
    fixture *f = *state;
    /* = with texts and numbers: 12.5 is 12.50 */
    expect(f->e, "SELECT id FROM {{board}} WHERE price = '12.500' ORDER BY id",
           "{\"id\":\"a\"}\n{\"id\":\"c\"}\n");
    expect(f->e, "SELECT id FROM {{board}} WHERE price = 12.5 ORDER BY id",
           "{\"id\":\"a\"}\n{\"id\":\"c\"}\n");
    expect(f->e, "SELECT id FROM {{board}} WHERE price > 10 ORDER BY id",
           "{\"id\":\"a\"}\n{\"id\":\"c\"}\n{\"id\":\"d\"}\n");
    expect(f->e, "SELECT id FROM {{board}} WHERE price IN (9, '100.0') "
           "ORDER BY id", "{\"id\":\"b\"}\n{\"id\":\"d\"}\n");
    /* ORDER BY, by value ("9.00" before "100.00") */
    expect(f->e, "SELECT id, price FROM {{board}} WHERE price IS NOT NULL "
           "ORDER BY price, id",
           "{\"id\":\"b\",\"price\":\"9.00\"}\n"
           "{\"id\":\"a\",\"price\":\"12.50\"}\n"
           "{\"id\":\"c\",\"price\":\"12.50\"}\n"
           "{\"id\":\"d\",\"price\":\"100.00\"}\n");
    /* MIN/MAX, GROUP BY, DISTINCT: computed, so SQLite's text */
    expect(f->e, "SELECT min(price) AS lo, max(price) AS hi FROM {{board}}",
           "{\"lo\":\"9.00\",\"hi\":\"100.00\"}\n");
    expect(f->e, "SELECT price, count(*) AS n FROM {{board}} "
           "WHERE price IS NOT NULL GROUP BY price ORDER BY price",
           "{\"price\":\"9.00\",\"n\":1}\n{\"price\":\"12.50\",\"n\":2}\n"
           "{\"price\":\"100.00\",\"n\":1}\n");
    expect(f->e, "SELECT count(DISTINCT price) AS n FROM {{board}}",
           "{\"n\":3}\n");
    /* uint64 above 2^63 after smaller ones; compared with integers */
    expect(f->e, "SELECT id FROM {{board}} WHERE serial IS NOT NULL "
           "ORDER BY serial",
           "{\"id\":\"d\"}\n{\"id\":\"c\"}\n{\"id\":\"b\"}\n{\"id\":\"a\"}\n");
    expect(f->e, "SELECT id FROM {{board}} WHERE serial > 9223372036854775807 "
           "ORDER BY serial DESC", "{\"id\":\"a\"}\n{\"id\":\"b\"}\n");
    expect(f->e, "SELECT max(serial) AS m FROM {{board}}",
           "{\"m\":\"18446744073709551615\"}\n");
    /* a uuid in any spelling; times and intervals by value */
    expect(f->e, "SELECT id FROM {{board}} WHERE ref = "
           "'A0EEBC999C0B4EF8BB6D6BB9BD380A11'", "{\"id\":\"a\"}\n");
    expect(f->e, "SELECT id FROM {{board}} WHERE at = '10:00:00.5' "
           "ORDER BY id", "{\"id\":\"a\"}\n{\"id\":\"c\"}\n");
    expect(f->e, "SELECT id FROM {{board}} WHERE at IS NOT NULL "
           "ORDER BY at, id",
           "{\"id\":\"b\"}\n{\"id\":\"a\"}\n{\"id\":\"c\"}\n");
    expect(f->e, "SELECT id FROM {{board}} WHERE span IS NOT NULL "
           "ORDER BY span", "{\"id\":\"b\"}\n{\"id\":\"a\"}\n{\"id\":\"c\"}\n");
    /* through a subquery, a CTE and a self-join */
    expect(f->e, "SELECT id FROM (SELECT id, price FROM {{board}}) "
           "WHERE price = 12.5 ORDER BY price DESC, id",
           "{\"id\":\"a\"}\n{\"id\":\"c\"}\n");
    expect(f->e, "WITH p AS (SELECT price FROM {{board}}) "
           "SELECT max(price) AS m FROM p", "{\"m\":\"100.00\"}\n");
    expect(f->e, "SELECT x.id AS a, y.id AS b FROM {{board}} x "
           "JOIN {{board}} y ON x.price = y.price AND x.id < y.id",
           "{\"a\":\"a\",\"b\":\"c\"}\n");
    /* varchar orders as text */
    expect(f->e, "SELECT id FROM {{board}} WHERE code IS NOT NULL "
           "ORDER BY code", "{\"id\":\"b\"}\n{\"id\":\"a\"}\n");
}

/* hugeint: every value in its order, whatever its width. */
static void test_hugeint_orders_by_value(void **state)
{
    fixture *f = *state;
    expect(f->e, "SELECT id, big FROM {{board}} WHERE big IS NOT NULL "
           "ORDER BY big",
           "{\"id\":\"a\",\"big\":-170141183460469231731687303715884105728}\n"
           "{\"id\":\"d\",\"big\":-9223372036854775809}\n"
           "{\"id\":\"c\",\"big\":5}\n"
           "{\"id\":\"b\",\"big\":170141183460469231731687303715884105727}\n");
    expect(f->e, "SELECT id FROM {{board}} WHERE big < -9223372036854775808 "
           "ORDER BY id", "{\"id\":\"a\"}\n{\"id\":\"d\"}\n");
    expect(f->e, "SELECT id FROM {{board}} WHERE big = 5", "{\"id\":\"c\"}\n");
    expect(f->e, "SELECT min(big) AS lo FROM {{board}}",
           "{\"lo\":\"-170141183460469231731687303715884105728\"}\n");
    /* sums are exact beyond 64 bits (as decimals: up to 38 digits) */
    expect(f->e, "SELECT sum(big) AS s FROM {{board}} WHERE id IN ('c', 'd')",
           "{\"s\":\"-9223372036854775804\"}\n");
}

/* The cursor decodes shaped columns with their kinds, however read. */
static void test_cursor_kinds(void **state)
{
    fixture *f = *state;
    pier_cursor *c = NULL;
    pier_error err;
    const char *sql = "SELECT p.price, p.serial, p.ref, p.span, p.big, "
                      "q.n, p.price || '' AS computed FROM {{board}} AS p "
                      "JOIN {{board:plain}} AS q USING (id) WHERE p.id = 'a'";
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    const char *with[] = { "plain" };
    o.with = with;
    o.nwith = 1;
    assert_int_equal(pier_query(&c, f->e, "shop", sql, NULL, &o, &err),
                     PIER_OK);
    assert_string_equal(pier_cursor_column_type(c, 0), "decimal(12,2)");
    assert_string_equal(pier_cursor_column_type(c, 1), "uint64");
    assert_string_equal(pier_cursor_column_type(c, 2), "uuid");
    assert_string_equal(pier_cursor_column_type(c, 3), "interval");
    assert_string_equal(pier_cursor_column_type(c, 4), "hugeint");
    assert_string_equal(pier_cursor_column_type(c, 5), "bigint");
    assert_null(pier_cursor_column_type(c, 6));
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_non_null(row);
    const pier_value *v = pier_row_value(row, 0);
    assert_int_equal(v->kind, PIER_KIND_DECIMAL);
    assert_int_equal(v->as.decimal.unscaled.lo, 1250);
    v = pier_row_value(row, 1);
    assert_int_equal(v->kind, PIER_KIND_UNSIGNED);
    assert_true(v->as.unsigned_integer == UINT64_MAX);
    v = pier_row_value(row, 2);
    assert_int_equal(v->kind, PIER_KIND_UUID);
    assert_string_equal(v->text, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    v = pier_row_value(row, 4);
    assert_int_equal(v->kind, PIER_KIND_HUGEINT);
    assert_true(v->as.hugeint.hi == INT64_MIN);
    v = pier_row_value(row, 6);
    assert_int_equal(v->kind, PIER_KIND_TEXT);
    assert_string_equal(v->text, "12.50");
    char *json = pier_row_to_json(row);
    assert_string_equal(json,
        "{\"price\":\"12.50\",\"serial\":18446744073709551615,"
        "\"ref\":\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\",\"span\":\"P1M\","
        "\"big\":-170141183460469231731687303715884105728,\"n\":1,"
        "\"computed\":\"12.50\"}");
    pier_free(json);
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_null(row);
    pier_cursor_close(c);
    /* The same query again (the engine's spare cursor), then after the
     * catalog changed: the types still follow. */
    assert_int_equal(pier_query(&c, f->e, "shop", sql, NULL, &o, &err),
                     PIER_OK);
    assert_string_equal(pier_cursor_column_type(c, 0), "decimal(12,2)");
    pier_cursor_close(c);
    assert_int_equal(pier_board_widen_column(NULL, f->e, "shop", "price",
                                             "text", &err), PIER_OK);
    assert_int_equal(pier_query(&c, f->e, "shop", sql, NULL, &o, &err),
                     PIER_OK);
    assert_string_equal(pier_cursor_column_type(c, 0), "text");
    assert_string_equal(pier_cursor_column_type(c, 1), "uint64");
    pier_cursor_close(c);
    /* As text, the widened column compares bytewise. */
    expect(f->e, "SELECT id FROM {{board}} WHERE price = '12.5'", "");
}

int main(void)
{
    const struct CMUnitTest registry[] = {
        cmocka_unit_test(test_spellings),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_widening_rules),
        cmocka_unit_test(test_encodings),
        cmocka_unit_test(test_decodings),
    };
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest writes[] = {
        T(test_declare_and_describe),
        T(test_write_and_read),
        T(test_refusals_write_nothing),
        T(test_updates_and_changes),
        T(test_widen_to_text),
    };
    const struct CMUnitTest exact[] = {
        T(test_decimals_are_exact),
    };
#undef T
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup_rows, teardown)
    const struct CMUnitTest queries[] = {
        T(test_view_collations_reach_the_query),
        T(test_hugeint_orders_by_value),
        T(test_cursor_kinds),
    };
#undef T
    int failed = cmocka_run_group_tests_name("registry", registry, NULL,
                                             NULL);
    failed += cmocka_run_group_tests_name("writes through json", writes,
                                          group_json, NULL);
    failed += cmocka_run_group_tests_name("writes through rows", writes,
                                          group_rows, NULL);
    failed += cmocka_run_group_tests_name("exact decimals", exact, NULL,
                                          NULL);
    failed += cmocka_run_group_tests_name("queries", queries, NULL, NULL);
    return failed;
}
