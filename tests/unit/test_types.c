/*
 * test_types.c: the logical type registry (src/types/), exhaustively and
 * with real values: spellings, the lattice, which values fit which
 * columns, storage round trips, and the scalar text formats.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "types/types.h"

/* ---- helpers ---- */

static pier__type ty(pier_kind k)
{
    return (pier__type){ k, NULL };
}

static pier__value v_null(void)
{
    pier__value v;
    memset(&v, 0, sizeof v);
    v.kind = PIER_KIND_NULL;
    return v;
}

static pier__value v_bool(bool b)
{
    pier__value v = v_null();
    v.kind = PIER_KIND_BOOLEAN;
    v.u.b = b;
    return v;
}

static pier__value v_int(int64_t i)
{
    pier__value v = v_null();
    v.kind = PIER_KIND_BIGINT;
    v.u.i = i;
    return v;
}

static pier__value v_huge(pier__i128 h)
{
    pier__value v = v_null();
    v.kind = PIER_KIND_HUGEINT;
    v.u.h = h;
    return v;
}

static pier__value v_double(double d)
{
    pier__value v = v_null();
    v.kind = PIER_KIND_DOUBLE;
    v.u.d = d;
    return v;
}

static pier__value v_text(const char *s)
{
    pier__value v = v_null();
    v.kind = PIER_KIND_TEXT;
    v.s = s;
    v.n = strlen(s);
    return v;
}

static pier__value v_ts(int64_t us)
{
    pier__value v = v_null();
    v.kind = PIER_KIND_TIMESTAMP;
    v.u.i = us;
    return v;
}

static pier__value v_json(const char *s)
{
    pier__value v = v_null();
    v.kind = PIER_KIND_JSON;
    v.s = s;
    v.n = strlen(s);
    return v;
}

static pier__i128 i128_max(void)
{
    return (pier__i128)(((pier__u128)1 << 127) - 1);
}

static pier__i128 i128_min(void)
{
    return -i128_max() - 1;
}

static pier__i128 pow2(int k)
{
    return (pier__i128)((pier__u128)1 << k);
}

/* Encodes `v` for a column of kind `col`; returns the fit. */
static pier__fit enc(pier__cell *c, pier__value v, pier_kind col,
                     pier__arena *a)
{
    return pier__value_encode(c, &v, ty(col), a, NULL);
}

static bool fits(pier__value v, pier_kind col)
{
    pier__arena a;
    pier__arena_init(&a);
    pier__cell c;
    pier__fit f = enc(&c, v, col, &a);
    pier__arena_free(&a);
    assert_true(f == PIER__FIT_OK || f == PIER__FIT_CONFLICT);
    return f == PIER__FIT_OK;
}

static void assert_fits(pier__value v, pier_kind col)
{
    if (!fits(v, col))
        fail_msg("value of kind %s does not fit %s", pier_kind_name(v.kind),
                 pier_kind_name(col));
}

static void assert_conflicts(pier__value v, pier_kind col)
{
    if (fits(v, col))
        fail_msg("value of kind %s fits %s", pier_kind_name(v.kind),
                 pier_kind_name(col));
}

/* pier__cell_view (a cursor's decoding) agrees with pier__cell_decode on
 * this cell, and leaves a text or json value's text in the cell. It reads
 * only texts that end with a NUL, as SQLite's do; a writer's cell may hold
 * the first bytes of a longer string, which only pier__cell_decode takes. */
static void assert_view_agrees(const pier__cell *c, pier_kind col,
                               const pier_value *decoded, pier__arena *a)
{
    if (c->st == PIER__ST_TEXT && c->p != NULL && c->p[c->n] != '\0')
        return;
    pier_value v;
    assert_int_equal(pier__cell_view(&v, c, ty(col), a), PIER__FIT_OK);
    assert_int_equal(v.kind, decoded->kind);
    assert_memory_equal(&v.as, &decoded->as, sizeof v.as);
    assert_int_equal(v.len, decoded->len);
    if (decoded->text == NULL) {
        assert_null(v.text);
        return;
    }
    assert_string_equal(v.text, decoded->text);
    if (c->st == PIER__ST_TEXT && c->p != NULL)
        assert_ptr_equal(v.text, c->p);
}

/* Encodes, decodes, and checks the decoded text. */
static void round_trip(pier__value v, pier_kind col, const char *text,
                       pier_value *out, pier__arena *a)
{
    pier__cell c;
    assert_int_equal(enc(&c, v, col, a), PIER__FIT_OK);
    assert_int_equal(pier__cell_decode(out, &c, ty(col), a), PIER__FIT_OK);
    assert_view_agrees(&c, col, out, a);
    assert_int_equal(out->kind, col);
    assert_non_null(out->text);
    assert_string_equal(out->text, text);
    assert_int_equal(out->len, strlen(text));
}

static void assert_json(const pier__cell *c, pier_kind col, const char *want)
{
    pier__buf b;
    pier__buf_init(&b);
    pier__cell_to_json(&b, c, ty(col));
    assert_false(b.oom);
    assert_non_null(b.p);
    assert_string_equal(b.p, want);
    pier__buf_free(&b);
}

static void assert_dfmt(double d, const char *want)
{
    char out[PIER__DOUBLE_BUF];
    size_t n = pier__double_format(d, out);
    assert_string_equal(out, want);
    assert_int_equal(n, strlen(want));
    /* It reads back to the very same double. */
    double back = strtod(out, NULL);
    assert_memory_equal(&back, &d, sizeof d);
}

static int64_t ts(const char *s)
{
    int64_t us = 0;
    if (!pier__timestamp_parse(s, strlen(s), &us))
        fail_msg("timestamp '%s' refused", s);
    return us;
}

static bool ts_ok(const char *s)
{
    int64_t us;
    return pier__timestamp_parse(s, strlen(s), &us);
}

static void assert_ts_fmt(int64_t us, const char *want)
{
    char out[PIER__TIMESTAMP_BUF];
    size_t n = pier__timestamp_format(us, out);
    assert_string_equal(out, want);
    assert_int_equal(n, strlen(want));
}

/* ---- the registry ---- */

static void test_parse_spellings(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        pier_kind k;
    } ok[] = {
        { "boolean", PIER_KIND_BOOLEAN },   { "tinyint", PIER_KIND_TINYINT },
        { "smallint", PIER_KIND_SMALLINT }, { "integer", PIER_KIND_INTEGER },
        { "bigint", PIER_KIND_BIGINT },     { "hugeint", PIER_KIND_HUGEINT },
        { "float", PIER_KIND_FLOAT },       { "double", PIER_KIND_DOUBLE },
        { "text", PIER_KIND_TEXT },
        { "timestamp", PIER_KIND_TIMESTAMP },
        { "json", PIER_KIND_JSON },
        { "BOOLEAN", PIER_KIND_BOOLEAN },   { "TINYINT", PIER_KIND_TINYINT },
        { "SMALLINT", PIER_KIND_SMALLINT }, { "INTEGER", PIER_KIND_INTEGER },
        { "BIGINT", PIER_KIND_BIGINT },     { "HUGEINT", PIER_KIND_HUGEINT },
        { "FLOAT", PIER_KIND_FLOAT },       { "DOUBLE", PIER_KIND_DOUBLE },
        { "VARCHAR", PIER_KIND_TEXT },
        { "TIMESTAMP", PIER_KIND_TIMESTAMP },
        { "JSON", PIER_KIND_JSON },
        { "BigInt", PIER_KIND_BIGINT },     { "varchar", PIER_KIND_TEXT },
        { "Text", PIER_KIND_TEXT },         { "TEXT", PIER_KIND_TEXT },
        { "tImEsTaMp", PIER_KIND_TIMESTAMP },
    };
    char why[PIER__TYPE_WHY];
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        pier__type t = ty(PIER_KIND_NULL);
        if (pier__type_parse(&t, ok[i].s, why) != PIER_OK)
            fail_msg("'%s' refused", ok[i].s);
        assert_int_equal(t.kind, ok[i].k);
        assert_null(t.x);
    }
    /* Names no type of the vocabulary: no reason given. */
    static const char *const bad[] = {
        "int", "", "null", "NULL", "string", " bigint", "bigint ",
        "jsonb", "timestamptz", "big int", "unsigned", "numeric",
        " int64", "int64 ", "float4", "char(3)", "character varying",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pier__type t = ty(PIER_KIND_BIGINT);
        if (pier__type_parse(&t, bad[i], why) != PIER_E_UNKNOWN_TYPE)
            fail_msg("'%s' accepted", bad[i]);
        assert_int_equal(t.kind, PIER_KIND_BIGINT);     /* untouched */
        if (why[0] != '\0')
            fail_msg("'%s' refused for a reason: %s", bad[i], why);
    }
    pier__type t;
    assert_int_equal(pier__type_parse(&t, NULL, why), PIER_E_UNKNOWN_TYPE);
}

static void test_names(void **state)
{
    (void)state;
    static const char *const names[] = {
        "null", "boolean", "tinyint", "smallint", "integer", "bigint",
        "hugeint", "float", "double", "text", "timestamp", "json",
    };
    for (int k = PIER_KIND_NULL; k <= PIER_KIND_JSON; k++) {
        assert_string_equal(pier_kind_name((pier_kind)k), names[k]);
        assert_string_equal(pier__type_name(ty((pier_kind)k)), names[k]);
        if (k != PIER_KIND_NULL) {      /* the name parses back */
            pier__type t;
            char why[PIER__TYPE_WHY];
            assert_int_equal(pier__type_parse(&t, names[k], why), PIER_OK);
            assert_int_equal(t.kind, k);
        }
    }
    assert_string_equal(pier_kind_name((pier_kind)99), "unknown");
}

static void test_rank(void **state)
{
    (void)state;
    static const pier_kind lattice[] = {
        PIER_KIND_BOOLEAN, PIER_KIND_TINYINT, PIER_KIND_SMALLINT,
        PIER_KIND_INTEGER, PIER_KIND_BIGINT,  PIER_KIND_HUGEINT,
        PIER_KIND_FLOAT,   PIER_KIND_DOUBLE,  PIER_KIND_TEXT,
    };
    for (int r = 0; r < 9; r++)
        assert_int_equal(pier__type_rank(ty(lattice[r])), r);
    assert_int_equal(pier__type_rank(ty(PIER_KIND_TIMESTAMP)), -1);
    assert_int_equal(pier__type_rank(ty(PIER_KIND_JSON)), -1);
    assert_int_equal(pier__type_rank(ty(PIER_KIND_NULL)), -1);
}

static void assert_lub(pier_kind a, pier_kind b, pier_kind want)
{
    pier__type ab = pier__type_lub(ty(a), ty(b));
    pier__type ba = pier__type_lub(ty(b), ty(a));
    if (ab.kind != want || ba.kind != want)
        fail_msg("lub(%s, %s) = %s / %s, want %s", pier_kind_name(a),
                 pier_kind_name(b), pier_kind_name(ab.kind),
                 pier_kind_name(ba.kind), pier_kind_name(want));
}

static void test_lub(void **state)
{
    (void)state;
    assert_lub(PIER_KIND_BIGINT, PIER_KIND_DOUBLE, PIER_KIND_DOUBLE);
    assert_lub(PIER_KIND_BIGINT, PIER_KIND_TEXT, PIER_KIND_TEXT);
    assert_lub(PIER_KIND_JSON, PIER_KIND_BIGINT, PIER_KIND_TEXT);
    assert_lub(PIER_KIND_JSON, PIER_KIND_TEXT, PIER_KIND_TEXT);
    assert_lub(PIER_KIND_JSON, PIER_KIND_TIMESTAMP, PIER_KIND_TEXT);
    assert_lub(PIER_KIND_JSON, PIER_KIND_JSON, PIER_KIND_JSON);
    assert_lub(PIER_KIND_TIMESTAMP, PIER_KIND_TIMESTAMP,
               PIER_KIND_TIMESTAMP);
    assert_lub(PIER_KIND_TIMESTAMP, PIER_KIND_TEXT, PIER_KIND_TEXT);
    assert_lub(PIER_KIND_TIMESTAMP, PIER_KIND_BOOLEAN, PIER_KIND_TEXT);
    assert_lub(PIER_KIND_BOOLEAN, PIER_KIND_TINYINT, PIER_KIND_TINYINT);
    assert_lub(PIER_KIND_BOOLEAN, PIER_KIND_BIGINT, PIER_KIND_BIGINT);
    assert_lub(PIER_KIND_BIGINT, PIER_KIND_HUGEINT, PIER_KIND_HUGEINT);
    assert_lub(PIER_KIND_HUGEINT, PIER_KIND_FLOAT, PIER_KIND_FLOAT);
    assert_lub(PIER_KIND_FLOAT, PIER_KIND_DOUBLE, PIER_KIND_DOUBLE);
    /* null is the identity, also for off-lattice types. */
    for (int k = PIER_KIND_NULL; k <= PIER_KIND_JSON; k++)
        assert_lub(PIER_KIND_NULL, (pier_kind)k, (pier_kind)k);
    /* Equal types give themselves; lattice pairs give the higher. */
    for (int a = PIER_KIND_BOOLEAN; a <= PIER_KIND_TEXT; a++)
        for (int b = PIER_KIND_BOOLEAN; b <= PIER_KIND_TEXT; b++)
            assert_lub((pier_kind)a, (pier_kind)b,
                       (pier_kind)(a > b ? a : b));
}

static void test_can_widen(void **state)
{
    (void)state;
    /* Along the lattice: up or same is allowed, down never. */
    for (int a = PIER_KIND_BOOLEAN; a <= PIER_KIND_TEXT; a++)
        for (int b = PIER_KIND_BOOLEAN; b <= PIER_KIND_TEXT; b++)
            assert_int_equal(pier__type_can_widen(ty((pier_kind)a),
                                                  ty((pier_kind)b)),
                             b >= a);
    /* timestamp: only to itself, and nothing to it. */
    for (int k = PIER_KIND_BOOLEAN; k <= PIER_KIND_JSON; k++) {
        bool same = k == PIER_KIND_TIMESTAMP;
        assert_int_equal(pier__type_can_widen(ty(PIER_KIND_TIMESTAMP),
                                              ty((pier_kind)k)), same);
        assert_int_equal(pier__type_can_widen(ty((pier_kind)k),
                                              ty(PIER_KIND_TIMESTAMP)),
                         same);
    }
    /* json: to itself and to text only; nothing widens to json. */
    for (int k = PIER_KIND_BOOLEAN; k <= PIER_KIND_JSON; k++) {
        bool ok = k == PIER_KIND_JSON || k == PIER_KIND_TEXT;
        assert_int_equal(pier__type_can_widen(ty(PIER_KIND_JSON),
                                              ty((pier_kind)k)), ok);
        assert_int_equal(pier__type_can_widen(ty((pier_kind)k),
                                              ty(PIER_KIND_JSON)),
                         k == PIER_KIND_JSON);
    }
    /* text widens to nothing but text. */
    for (int k = PIER_KIND_BOOLEAN; k <= PIER_KIND_JSON; k++)
        assert_int_equal(pier__type_can_widen(ty(PIER_KIND_TEXT),
                                              ty((pier_kind)k)),
                         k == PIER_KIND_TEXT);
    assert_false(pier__type_can_widen(ty(PIER_KIND_BIGINT),
                                      ty(PIER_KIND_INTEGER)));
    assert_false(pier__type_can_widen(ty(PIER_KIND_DOUBLE),
                                      ty(PIER_KIND_FLOAT)));
    assert_true(pier__type_can_widen(ty(PIER_KIND_BOOLEAN),
                                     ty(PIER_KIND_DOUBLE)));
}

static void test_widen_rewrites(void **state)
{
    (void)state;
    for (int k = PIER_KIND_BOOLEAN; k <= PIER_KIND_DOUBLE; k++) {
        assert_true(pier__type_widen_rewrites(ty((pier_kind)k),
                                              ty(PIER_KIND_TEXT)));
        /* Within the numeric chain only the catalog changes. */
        for (int to = k; to <= PIER_KIND_DOUBLE; to++)
            assert_false(pier__type_widen_rewrites(ty((pier_kind)k),
                                                   ty((pier_kind)to)));
    }
    assert_false(pier__type_widen_rewrites(ty(PIER_KIND_TEXT),
                                           ty(PIER_KIND_TEXT)));
    assert_false(pier__type_widen_rewrites(ty(PIER_KIND_JSON),
                                           ty(PIER_KIND_TEXT)));
    assert_false(pier__type_widen_rewrites(ty(PIER_KIND_JSON),
                                           ty(PIER_KIND_JSON)));
    assert_false(pier__type_widen_rewrites(ty(PIER_KIND_TIMESTAMP),
                                           ty(PIER_KIND_TIMESTAMP)));
    /* Refused widenings rewrite nothing. */
    assert_false(pier__type_widen_rewrites(ty(PIER_KIND_TIMESTAMP),
                                           ty(PIER_KIND_TEXT)));
    assert_false(pier__type_widen_rewrites(ty(PIER_KIND_TEXT),
                                           ty(PIER_KIND_BIGINT)));
}

static void test_value_type(void **state)
{
    (void)state;
    pier__value vs[] = {
        v_null(), v_bool(true), v_int(1), v_huge(pow2(70)), v_double(1.5),
        v_text("x"), v_ts(0), v_json("[]"),
    };
    pier_kind want[] = {
        PIER_KIND_NULL, PIER_KIND_BOOLEAN, PIER_KIND_BIGINT,
        PIER_KIND_HUGEINT, PIER_KIND_DOUBLE, PIER_KIND_TEXT,
        PIER_KIND_TIMESTAMP, PIER_KIND_JSON,
    };
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++)
        assert_int_equal(pier__value_type(&vs[i]).kind, want[i]);
}

/* ---- fitting ---- */

static void test_fit_integers(void **state)
{
    (void)state;
    assert_fits(v_int(127), PIER_KIND_TINYINT);
    assert_conflicts(v_int(128), PIER_KIND_TINYINT);
    assert_fits(v_int(-128), PIER_KIND_TINYINT);
    assert_conflicts(v_int(-129), PIER_KIND_TINYINT);
    assert_fits(v_int(32767), PIER_KIND_SMALLINT);
    assert_conflicts(v_int(32768), PIER_KIND_SMALLINT);
    assert_fits(v_int(-32768), PIER_KIND_SMALLINT);
    assert_conflicts(v_int(-32769), PIER_KIND_SMALLINT);
    assert_fits(v_int(INT32_MAX), PIER_KIND_INTEGER);
    assert_conflicts(v_int((int64_t)INT32_MAX + 1), PIER_KIND_INTEGER);
    assert_fits(v_int(INT32_MIN), PIER_KIND_INTEGER);
    assert_conflicts(v_int((int64_t)INT32_MIN - 1), PIER_KIND_INTEGER);
    assert_fits(v_int(INT64_MIN), PIER_KIND_BIGINT);
    assert_fits(v_int(INT64_MAX), PIER_KIND_BIGINT);
    assert_fits(v_int(INT64_MIN), PIER_KIND_HUGEINT);
    /* A hugeint value fits a narrower column when its number does. */
    assert_fits(v_huge(5), PIER_KIND_TINYINT);
    assert_fits(v_huge(INT64_MIN), PIER_KIND_BIGINT);
    assert_conflicts(v_huge(pow2(63)), PIER_KIND_BIGINT);
    assert_fits(v_huge(pow2(63)), PIER_KIND_HUGEINT);
    assert_conflicts(v_huge((pier__i128)INT64_MIN - 1), PIER_KIND_BIGINT);
    assert_fits(v_huge(i128_max()), PIER_KIND_HUGEINT);
    assert_fits(v_huge(i128_min()), PIER_KIND_HUGEINT);
    /* Integers never fit a boolean column, not even 0 and 1. */
    assert_conflicts(v_int(0), PIER_KIND_BOOLEAN);
    assert_conflicts(v_int(1), PIER_KIND_BOOLEAN);
    assert_conflicts(v_huge(1), PIER_KIND_BOOLEAN);
    /* Integers fit the real columns. */
    assert_fits(v_int(INT64_MAX), PIER_KIND_FLOAT);
    assert_fits(v_int(INT64_MIN), PIER_KIND_DOUBLE);
    assert_fits(v_huge(i128_max()), PIER_KIND_FLOAT);
    assert_fits(v_huge(i128_min()), PIER_KIND_DOUBLE);
    /* ...and text; never timestamp or json. */
    assert_fits(v_int(42), PIER_KIND_TEXT);
    assert_fits(v_huge(pow2(100)), PIER_KIND_TEXT);
    assert_conflicts(v_int(42), PIER_KIND_TIMESTAMP);
    assert_conflicts(v_int(42), PIER_KIND_JSON);
    assert_conflicts(v_huge(42), PIER_KIND_TIMESTAMP);
    assert_conflicts(v_huge(42), PIER_KIND_JSON);
}

static void test_fit_booleans(void **state)
{
    (void)state;
    for (int k = PIER_KIND_BOOLEAN; k <= PIER_KIND_TEXT; k++) {
        assert_fits(v_bool(true), (pier_kind)k);
        assert_fits(v_bool(false), (pier_kind)k);
    }
    assert_conflicts(v_bool(true), PIER_KIND_TIMESTAMP);
    assert_conflicts(v_bool(true), PIER_KIND_JSON);
}

static void test_fit_doubles(void **state)
{
    (void)state;
    static const pier_kind ints[] = {
        PIER_KIND_BOOLEAN, PIER_KIND_TINYINT, PIER_KIND_SMALLINT,
        PIER_KIND_INTEGER, PIER_KIND_BIGINT, PIER_KIND_HUGEINT,
    };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        assert_conflicts(v_double(2.5), ints[i]);
        assert_conflicts(v_double(2.0), ints[i]);   /* still a double */
        assert_conflicts(v_double(0.0), ints[i]);
    }
    assert_fits(v_double(2.5), PIER_KIND_FLOAT);
    assert_fits(v_double(2.5), PIER_KIND_DOUBLE);
    assert_fits(v_double(2.5), PIER_KIND_TEXT);
    assert_fits(v_double(FLT_MAX), PIER_KIND_FLOAT);
    assert_fits(v_double(-FLT_MAX), PIER_KIND_FLOAT);
    assert_conflicts(v_double(1e39), PIER_KIND_FLOAT);
    assert_conflicts(v_double(-1e39), PIER_KIND_FLOAT);
    /* The next double above FLT_MAX (one rounding up: no libm needed). */
    double above = (double)FLT_MAX * (1.0 + DBL_EPSILON);
    assert_true(above > (double)FLT_MAX);
    assert_conflicts(v_double(above), PIER_KIND_FLOAT);
    assert_fits(v_double(1e39), PIER_KIND_DOUBLE);
    assert_fits(v_double(DBL_MAX), PIER_KIND_DOUBLE);
    assert_fits(v_double(1e-50), PIER_KIND_FLOAT);  /* rounds to 0 */
    assert_conflicts(v_double(INFINITY), PIER_KIND_DOUBLE);
    assert_conflicts(v_double(NAN), PIER_KIND_FLOAT);
    assert_conflicts(v_double(1.0), PIER_KIND_TIMESTAMP);
    assert_conflicts(v_double(1.0), PIER_KIND_JSON);
}

static void test_fit_text(void **state)
{
    (void)state;
    assert_fits(v_text("hello"), PIER_KIND_TEXT);
    assert_fits(v_text(""), PIER_KIND_TEXT);
    for (int k = PIER_KIND_BOOLEAN; k <= PIER_KIND_DOUBLE; k++) {
        assert_conflicts(v_text("007"), (pier_kind)k);
        assert_conflicts(v_text("1"), (pier_kind)k);
        assert_conflicts(v_text("true"), (pier_kind)k);
    }
    assert_conflicts(v_text("[1]"), PIER_KIND_JSON);
    assert_conflicts(v_text("hello"), PIER_KIND_TIMESTAMP);
    assert_fits(v_text("2026-01-02T03:04:05Z"), PIER_KIND_TIMESTAMP);
    assert_conflicts(v_text("2026-01-02T03:04:05"), PIER_KIND_TIMESTAMP);
    assert_conflicts(v_text("2023-02-29T00:00:00Z"), PIER_KIND_TIMESTAMP);
}

static void test_fit_timestamp_json(void **state)
{
    (void)state;
    assert_fits(v_ts(0), PIER_KIND_TIMESTAMP);
    assert_fits(v_ts(-1), PIER_KIND_TEXT);
    for (int k = PIER_KIND_BOOLEAN; k <= PIER_KIND_DOUBLE; k++) {
        assert_conflicts(v_ts(0), (pier_kind)k);
        assert_conflicts(v_json("[1]"), (pier_kind)k);
    }
    assert_conflicts(v_ts(0), PIER_KIND_JSON);
    assert_fits(v_json("{\"a\":1}"), PIER_KIND_JSON);
    assert_fits(v_json("{\"a\":1}"), PIER_KIND_TEXT);
    assert_conflicts(v_json("[1]"), PIER_KIND_TIMESTAMP);
}

static void test_null_encodes_as_null(void **state)
{
    (void)state;
    pier__arena a;
    pier__arena_init(&a);
    for (int k = PIER_KIND_BOOLEAN; k <= PIER_KIND_JSON; k++) {
        pier__cell c;
        assert_int_equal(enc(&c, v_null(), (pier_kind)k, &a), PIER__FIT_OK);
        assert_int_equal(c.st, PIER__ST_NULL);
        pier_value pv;
        assert_int_equal(pier__cell_decode(&pv, &c, ty((pier_kind)k), &a),
                         PIER__FIT_OK);
        assert_int_equal(pv.kind, PIER_KIND_NULL);
        assert_null(pv.text);
        assert_int_equal(pv.len, 0);
        assert_view_agrees(&c, (pier_kind)k, &pv, &a);
        assert_json(&c, (pier_kind)k, "null");
        pier__cell t;
        assert_int_equal(pier__cell_to_text(&t, &c, ty((pier_kind)k), &a),
                         PIER__FIT_OK);
        assert_int_equal(t.st, PIER__ST_NULL);
    }
    pier__arena_free(&a);
}

/* ---- encodings ---- */

static void test_encodings(void **state)
{
    (void)state;
    pier__arena a;
    pier__arena_init(&a);
    pier__cell c;

    assert_int_equal(enc(&c, v_bool(true), PIER_KIND_BOOLEAN, &a), 0);
    assert_int_equal(c.st, PIER__ST_INT);
    assert_int_equal(c.i, 1);
    assert_int_equal(enc(&c, v_bool(false), PIER_KIND_BIGINT, &a), 0);
    assert_int_equal(c.st, PIER__ST_INT);
    assert_int_equal(c.i, 0);
    assert_int_equal(enc(&c, v_bool(true), PIER_KIND_DOUBLE, &a), 0);
    assert_int_equal(c.st, PIER__ST_REAL);
    assert_true(c.d == 1.0);
    assert_int_equal(enc(&c, v_bool(true), PIER_KIND_TEXT, &a), 0);
    assert_int_equal(c.st, PIER__ST_TEXT);
    assert_int_equal(c.n, 4);
    assert_memory_equal(c.p, "true", 4);

    /* hugeint within 64 bits: INT. */
    assert_int_equal(enc(&c, v_huge(-5), PIER_KIND_HUGEINT, &a), 0);
    assert_int_equal(c.st, PIER__ST_INT);
    assert_int_equal(c.i, -5);
    assert_int_equal(enc(&c, v_int(INT64_MAX), PIER_KIND_HUGEINT, &a), 0);
    assert_int_equal(c.st, PIER__ST_INT);

    /* Beyond: big-endian, sign bit flipped. */
    assert_int_equal(enc(&c, v_huge(pow2(64)), PIER_KIND_HUGEINT, &a), 0);
    assert_int_equal(c.st, PIER__ST_BLOB);
    assert_int_equal(c.n, 16);
    static const unsigned char two64[16] = {
        0x80, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0,
    };
    assert_memory_equal(c.p, two64, 16);
    assert_int_equal(enc(&c, v_huge(-pow2(64)), PIER_KIND_HUGEINT, &a), 0);
    static const unsigned char minus_two64[16] = {
        0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0,
    };
    assert_memory_equal(c.p, minus_two64, 16);
    assert_int_equal(enc(&c, v_huge(i128_min()), PIER_KIND_HUGEINT, &a), 0);
    static const unsigned char zeros[16] = { 0 };
    assert_memory_equal(c.p, zeros, 16);

    /* Blob order is number order. */
    pier__i128 ordered[] = {
        i128_min(), -pow2(100), (pier__i128)INT64_MIN - 1, pow2(63),
        pow2(64), pow2(100), i128_max(),
    };
    unsigned char prev[16];
    for (size_t i = 0; i < sizeof ordered / sizeof ordered[0]; i++) {
        assert_int_equal(enc(&c, v_huge(ordered[i]), PIER_KIND_HUGEINT, &a),
                         0);
        assert_int_equal(c.st, PIER__ST_BLOB);
        if (i > 0)
            assert_true(memcmp(prev, c.p, 16) < 0);
        memcpy(prev, c.p, 16);
    }

    /* float rounds to 32 bits; double keeps every bit. */
    assert_int_equal(enc(&c, v_double(0.1), PIER_KIND_FLOAT, &a), 0);
    assert_int_equal(c.st, PIER__ST_REAL);
    assert_true(c.d == (double)0.1f);
    assert_int_equal(enc(&c, v_double(0.1), PIER_KIND_DOUBLE, &a), 0);
    assert_true(c.d == 0.1);
    assert_int_equal(enc(&c, v_int(16777217), PIER_KIND_FLOAT, &a), 0);
    assert_true(c.d == 16777216.0);
    assert_int_equal(enc(&c, v_int(16777217), PIER_KIND_DOUBLE, &a), 0);
    assert_true(c.d == 16777217.0);

    /* timestamp: INT microseconds; json: its text. */
    assert_int_equal(enc(&c, v_ts(-1), PIER_KIND_TIMESTAMP, &a), 0);
    assert_int_equal(c.st, PIER__ST_INT);
    assert_int_equal(c.i, -1);
    assert_int_equal(enc(&c, v_text("2026-01-02T03:04:05+02:00"),
                         PIER_KIND_TIMESTAMP, &a), 0);
    assert_int_equal(c.st, PIER__ST_INT);
    assert_int_equal(c.i, ts("2026-01-02T01:04:05Z"));
    assert_int_equal(enc(&c, v_json("[1,2]"), PIER_KIND_JSON, &a), 0);
    assert_int_equal(c.st, PIER__ST_TEXT);
    assert_int_equal(c.n, 5);
    assert_memory_equal(c.p, "[1,2]", 5);

    /* Text into text borrows; the value need not be NUL-terminated. */
    pier__value part = v_text("abcdef");
    part.n = 3;
    assert_int_equal(pier__value_encode(&c, &part, ty(PIER_KIND_TEXT), &a,
                                        NULL),
                     0);
    assert_int_equal(c.st, PIER__ST_TEXT);
    assert_int_equal(c.n, 3);
    assert_memory_equal(c.p, "abc", 3);
    /* An empty string without a pointer still encodes as "", not NULL. */
    pier__value empty = v_text("");
    empty.s = NULL;
    assert_int_equal(pier__value_encode(&c, &empty, ty(PIER_KIND_TEXT), &a,
                                        NULL),
                     0);
    assert_int_equal(c.st, PIER__ST_TEXT);
    assert_non_null(c.p);
    assert_int_equal(c.n, 0);
    pier__arena_free(&a);
}

static void assert_text_encoding(pier__value v, const char *want)
{
    pier__arena a;
    pier__arena_init(&a);
    pier__cell c;
    assert_int_equal(enc(&c, v, PIER_KIND_TEXT, &a), PIER__FIT_OK);
    assert_int_equal(c.st, PIER__ST_TEXT);
    assert_int_equal(c.n, strlen(want));
    assert_memory_equal(c.p, want, c.n);
    pier__arena_free(&a);
}

static void test_text_renderings(void **state)
{
    (void)state;
    assert_text_encoding(v_bool(true), "true");
    assert_text_encoding(v_bool(false), "false");
    assert_text_encoding(v_int(0), "0");
    assert_text_encoding(v_int(-42), "-42");
    assert_text_encoding(v_int(INT64_MIN), "-9223372036854775808");
    assert_text_encoding(v_huge(i128_min()),
                         "-170141183460469231731687303715884105728");
    assert_text_encoding(v_double(2.0), "2.0");
    assert_text_encoding(v_double(0.1), "0.1");
    assert_text_encoding(v_ts(-1), "1969-12-31T23:59:59.999999Z");
    assert_text_encoding(v_json("{\"a\":[1]}"), "{\"a\":[1]}");
    assert_text_encoding(v_text("plain"), "plain");
}

/* ---- round trips ---- */

static void test_round_trips(void **state)
{
    (void)state;
    pier__arena a;
    pier__arena_init(&a);
    pier_value pv;

    round_trip(v_bool(true), PIER_KIND_BOOLEAN, "true", &pv, &a);
    assert_true(pv.as.boolean);
    round_trip(v_bool(false), PIER_KIND_BOOLEAN, "false", &pv, &a);
    assert_false(pv.as.boolean);

    round_trip(v_int(-128), PIER_KIND_TINYINT, "-128", &pv, &a);
    assert_int_equal(pv.as.integer, -128);
    round_trip(v_int(32767), PIER_KIND_SMALLINT, "32767", &pv, &a);
    assert_int_equal(pv.as.integer, 32767);
    round_trip(v_int(INT32_MIN), PIER_KIND_INTEGER, "-2147483648", &pv, &a);
    assert_int_equal(pv.as.integer, INT32_MIN);
    round_trip(v_int(INT64_MIN), PIER_KIND_BIGINT, "-9223372036854775808",
               &pv, &a);
    assert_true(pv.as.integer == INT64_MIN);
    round_trip(v_int(INT64_MAX), PIER_KIND_BIGINT, "9223372036854775807",
               &pv, &a);
    assert_true(pv.as.integer == INT64_MAX);

    /* hugeint: within 64 bits, beyond, negative, both ends. */
    round_trip(v_int(-7), PIER_KIND_HUGEINT, "-7", &pv, &a);
    assert_true(pv.as.hugeint.hi == -1 && pv.as.hugeint.lo == (uint64_t)-7);
    round_trip(v_huge(pow2(64) + 5), PIER_KIND_HUGEINT,
               "18446744073709551621", &pv, &a);
    assert_true(pv.as.hugeint.hi == 1 && pv.as.hugeint.lo == 5);
    round_trip(v_huge(-pow2(64) - 5), PIER_KIND_HUGEINT,
               "-18446744073709551621", &pv, &a);
    assert_true(pier__i128_from_public(pv.as.hugeint) == -pow2(64) - 5);
    round_trip(v_huge(i128_max()), PIER_KIND_HUGEINT,
               "170141183460469231731687303715884105727", &pv, &a);
    assert_true(pier__i128_from_public(pv.as.hugeint) == i128_max());
    round_trip(v_huge(i128_min()), PIER_KIND_HUGEINT,
               "-170141183460469231731687303715884105728", &pv, &a);
    assert_true(pier__i128_from_public(pv.as.hugeint) == i128_min());

    /* Reals. A float's text is the shortest that reads back as the same
     * float; its value is the float, widened to a double. */
    round_trip(v_double(2.5), PIER_KIND_FLOAT, "2.5", &pv, &a);
    assert_true(pv.as.real == 2.5);
    round_trip(v_double(0.1), PIER_KIND_FLOAT, "0.1", &pv, &a);
    assert_true(pv.as.real == (double)0.1f);
    round_trip(v_double(16777217.0), PIER_KIND_FLOAT, "16777216.0", &pv,
               &a);
    round_trip(v_double(3.4028234663852886e38), PIER_KIND_FLOAT,
               "3.4028235e+38", &pv, &a);
    round_trip(v_double(1.0e-45), PIER_KIND_FLOAT, "1.4013e-45", &pv,
               &a);
    round_trip(v_double(0.1), PIER_KIND_DOUBLE, "0.1", &pv, &a);
    round_trip(v_double(-0.0), PIER_KIND_DOUBLE, "-0.0", &pv, &a);
    assert_true(signbit(pv.as.real));
    round_trip(v_double(1e300), PIER_KIND_DOUBLE, "1e+300", &pv, &a);
    round_trip(v_int(3), PIER_KIND_DOUBLE, "3.0", &pv, &a);
    round_trip(v_bool(true), PIER_KIND_FLOAT, "1.0", &pv, &a);
    round_trip(v_huge(pow2(80)), PIER_KIND_DOUBLE, "1.2089258196146292e+24",
               &pv, &a);
    assert_true(pv.as.real == (double)pow2(80));

    /* Text, json, timestamps; text also when not NUL-terminated. */
    round_trip(v_text("héllo"), PIER_KIND_TEXT, "héllo", &pv, &a);
    round_trip(v_text(""), PIER_KIND_TEXT, "", &pv, &a);
    pier__value part = v_text("abcdef");
    part.n = 2;
    round_trip(part, PIER_KIND_TEXT, "ab", &pv, &a);
    round_trip(v_json("{\"a\":[1,2.5]}"), PIER_KIND_JSON, "{\"a\":[1,2.5]}",
               &pv, &a);
    round_trip(v_ts(0), PIER_KIND_TIMESTAMP, "1970-01-01T00:00:00.000000Z",
               &pv, &a);
    assert_int_equal(pv.as.timestamp_us, 0);
    round_trip(v_text("2026-01-02T03:04:05+02:00"), PIER_KIND_TIMESTAMP,
               "2026-01-02T01:04:05.000000Z", &pv, &a);
    assert_int_equal(pv.as.timestamp_us, INT64_C(1767315845000000));

    /* Anything into text reads back as its text. */
    round_trip(v_huge(-pow2(100)), PIER_KIND_TEXT,
               "-1267650600228229401496703205376", &pv, &a);
    round_trip(v_ts(1), PIER_KIND_TEXT, "1970-01-01T00:00:00.000001Z", &pv,
               &a);
    pier__arena_free(&a);
}

static void decode_cell(pier__cell c, pier_kind col, const char *text,
                        pier_value *pv, pier__arena *a)
{
    assert_int_equal(pier__cell_decode(pv, &c, ty(col), a), PIER__FIT_OK);
    assert_view_agrees(&c, col, pv, a);
    assert_int_equal(pv->kind, col);
    assert_string_equal(pv->text, text);
    assert_int_equal(pv->len, strlen(text));
}

static pier__cell int_cell(int64_t i)
{
    return (pier__cell){ .st = PIER__ST_INT, .i = i };
}

static void test_decode_after_widening(void **state)
{
    (void)state;
    pier__arena a;
    pier__arena_init(&a);
    pier_value pv;
    pier__cell c;

    /* An INT cell written when the column was bigint, now double. */
    decode_cell(int_cell(42), PIER_KIND_DOUBLE, "42.0", &pv, &a);
    assert_true(pv.as.real == 42.0);
    decode_cell(int_cell(16777217), PIER_KIND_FLOAT, "16777216.0", &pv, &a);
    assert_true(pv.as.real == 16777216.0);
    /* A boolean INT cell in a bigint (and a hugeint) column. */
    decode_cell(int_cell(1), PIER_KIND_BIGINT, "1", &pv, &a);
    assert_int_equal(pv.as.integer, 1);
    decode_cell(int_cell(0), PIER_KIND_HUGEINT, "0", &pv, &a);
    assert_true(pv.as.hugeint.hi == 0 && pv.as.hugeint.lo == 0);
    /* A hugeint BLOB cell in a double column. */
    assert_int_equal(enc(&c, v_huge(pow2(100)), PIER_KIND_HUGEINT, &a), 0);
    assert_int_equal(c.st, PIER__ST_BLOB);
    decode_cell(c, PIER_KIND_DOUBLE, "1.2676506002282294e+30", &pv, &a);
    assert_true(pv.as.real == (double)pow2(100));
    decode_cell(c, PIER_KIND_FLOAT, "1.2676506e+30", &pv, &a);
    assert_true(pv.as.real == (double)pow2(100));
    assert_json(&c, PIER_KIND_DOUBLE, "1.2676506002282294e+30");
    assert_json(&c, PIER_KIND_HUGEINT, "1267650600228229401496703205376");
    /* A tinyint cell read in a smallint column. */
    decode_cell(int_cell(-128), PIER_KIND_SMALLINT, "-128", &pv, &a);
    pier__arena_free(&a);
}

static void assert_bad_cell(pier__cell c, pier_kind col)
{
    pier__arena a;
    pier__arena_init(&a);
    pier_value pv;
    if (pier__cell_decode(&pv, &c, ty(col), &a) != PIER__FIT_CONFLICT ||
        pier__cell_view(&pv, &c, ty(col), &a) != PIER__FIT_CONFLICT)
        fail_msg("cell of storage %d decoded as %s", (int)c.st,
                 pier_kind_name(col));
    pier__cell t;
    assert_int_equal(pier__cell_to_text(&t, &c, ty(col), &a),
                     PIER__FIT_CONFLICT);
    assert_json(&c, col, "null");
    pier__arena_free(&a);
}

static void test_decode_refuses_foreign_cells(void **state)
{
    (void)state;
    pier__cell text = { .st = PIER__ST_TEXT, .p = "12", .n = 2 };
    pier__cell real = { .st = PIER__ST_REAL, .d = 1.5 };
    pier__cell blob = { .st = PIER__ST_BLOB, .p = "0123456789abcdef",
                        .n = 16 };
    pier__cell short_blob = { .st = PIER__ST_BLOB, .p = "0123", .n = 4 };
    pier__cell inf = { .st = PIER__ST_REAL, .d = INFINITY };
    pier__cell big_real = { .st = PIER__ST_REAL, .d = 1e39 };

    /* A text column holds TEXT only; json too. */
    assert_bad_cell(int_cell(1), PIER_KIND_TEXT);
    assert_bad_cell(real, PIER_KIND_TEXT);
    assert_bad_cell(blob, PIER_KIND_TEXT);
    assert_bad_cell(int_cell(1), PIER_KIND_JSON);
    /* Numbers never hold TEXT (but hugeint its digits, as a query's view
     * renders it); integers never REAL. */
    pier__cell word = { .st = PIER__ST_TEXT, .p = "12x", .n = 3 };
    for (int k = PIER_KIND_BOOLEAN; k <= PIER_KIND_DOUBLE; k++)
        if (k != PIER_KIND_HUGEINT)
            assert_bad_cell(text, (pier_kind)k);
    assert_bad_cell(word, PIER_KIND_HUGEINT);
    for (int k = PIER_KIND_BOOLEAN; k <= PIER_KIND_HUGEINT; k++)
        assert_bad_cell(real, (pier_kind)k);
    /* Out of range for the column: a corrupt cell. */
    assert_bad_cell(int_cell(2), PIER_KIND_BOOLEAN);
    assert_bad_cell(int_cell(128), PIER_KIND_TINYINT);
    assert_bad_cell(int_cell(-32769), PIER_KIND_SMALLINT);
    assert_bad_cell(int_cell(INT64_C(1) << 31), PIER_KIND_INTEGER);
    /* BLOBs only for hugeint and the reals above it, 16 bytes exactly. */
    assert_bad_cell(blob, PIER_KIND_BIGINT);
    assert_bad_cell(short_blob, PIER_KIND_HUGEINT);
    assert_bad_cell(blob, PIER_KIND_TIMESTAMP);
    /* Reals a write never stores. */
    assert_bad_cell(inf, PIER_KIND_DOUBLE);
    assert_bad_cell(big_real, PIER_KIND_FLOAT);
    assert_bad_cell(text, PIER_KIND_TIMESTAMP);
    assert_bad_cell(real, PIER_KIND_TIMESTAMP);
}

static void assert_cell_text(pier__cell c, pier_kind from, const char *want)
{
    pier__arena a;
    pier__arena_init(&a);
    pier__cell t;
    assert_int_equal(pier__cell_to_text(&t, &c, ty(from), &a), PIER__FIT_OK);
    assert_int_equal(t.st, PIER__ST_TEXT);
    assert_int_equal(t.n, strlen(want));
    assert_memory_equal(t.p, want, t.n);
    /* And the text cell reads back in the widened column. */
    pier_value pv;
    assert_int_equal(pier__cell_decode(&pv, &t, ty(PIER_KIND_TEXT), &a),
                     PIER__FIT_OK);
    assert_string_equal(pv.text, want);
    pier__arena_free(&a);
}

static void test_cell_to_text(void **state)
{
    (void)state;
    pier__arena a;
    pier__arena_init(&a);
    pier__cell c;

    assert_cell_text(int_cell(1), PIER_KIND_BOOLEAN, "true");
    assert_cell_text(int_cell(0), PIER_KIND_BOOLEAN, "false");
    assert_cell_text(int_cell(-5), PIER_KIND_TINYINT, "-5");
    assert_cell_text(int_cell(1), PIER_KIND_BIGINT, "1");
    assert_cell_text(int_cell(INT64_MAX), PIER_KIND_HUGEINT,
                     "9223372036854775807");
    assert_cell_text(int_cell(7), PIER_KIND_DOUBLE, "7.0");
    assert_cell_text((pier__cell){ .st = PIER__ST_REAL, .d = 0.25 },
                     PIER_KIND_FLOAT, "0.25");
    assert_cell_text((pier__cell){ .st = PIER__ST_REAL, .d = 1e21 },
                     PIER_KIND_DOUBLE, "1e+21");
    assert_cell_text(int_cell(0), PIER_KIND_TIMESTAMP,
                     "1970-01-01T00:00:00.000000Z");
    assert_cell_text((pier__cell){ .st = PIER__ST_TEXT, .p = "[1,{}]",
                                   .n = 6 },
                     PIER_KIND_JSON, "[1,{}]");
    assert_cell_text((pier__cell){ .st = PIER__ST_TEXT, .p = "same",
                                   .n = 4 },
                     PIER_KIND_TEXT, "same");
    assert_int_equal(enc(&c, v_huge(-pow2(90)), PIER_KIND_HUGEINT, &a), 0);
    assert_cell_text(c, PIER_KIND_HUGEINT,
                     "-1237940039285380274899124224");
    pier__arena_free(&a);
}

static void test_cell_to_json(void **state)
{
    (void)state;
    pier__arena a;
    pier__arena_init(&a);
    pier__cell c;

    assert_json(&(pier__cell){ .st = PIER__ST_NULL }, PIER_KIND_BIGINT,
                "null");
    assert_json(&(pier__cell){ .st = PIER__ST_INT, .i = 1 },
                PIER_KIND_BOOLEAN, "true");
    assert_json(&(pier__cell){ .st = PIER__ST_INT, .i = 0 },
                PIER_KIND_BOOLEAN, "false");
    assert_json(&(pier__cell){ .st = PIER__ST_INT, .i = -12 },
                PIER_KIND_INTEGER, "-12");
    assert_json(&(pier__cell){ .st = PIER__ST_INT, .i = 1 },
                PIER_KIND_BIGINT, "1");
    assert_int_equal(enc(&c, v_huge(i128_min()), PIER_KIND_HUGEINT, &a), 0);
    assert_json(&c, PIER_KIND_HUGEINT,
                "-170141183460469231731687303715884105728");
    assert_json(&(pier__cell){ .st = PIER__ST_REAL, .d = 2.0 },
                PIER_KIND_DOUBLE, "2.0");
    assert_json(&(pier__cell){ .st = PIER__ST_REAL, .d = 0.1 },
                PIER_KIND_DOUBLE, "0.1");
    assert_json(&(pier__cell){ .st = PIER__ST_INT, .i = 5 },
                PIER_KIND_DOUBLE, "5.0");
    assert_json(&(pier__cell){ .st = PIER__ST_TEXT, .p = "a\"b\n",
                               .n = 4 },
                PIER_KIND_TEXT, "\"a\\\"b\\n\"");
    assert_json(&(pier__cell){ .st = PIER__ST_TEXT, .p = "a\0b", .n = 3 },
                PIER_KIND_TEXT, "\"a\\u0000b\"");
    assert_json(&(pier__cell){ .st = PIER__ST_TEXT, .p = "{\"k\":[]}",
                               .n = 8 },
                PIER_KIND_JSON, "{\"k\":[]}");
    assert_json(&(pier__cell){ .st = PIER__ST_INT, .i = -1 },
                PIER_KIND_TIMESTAMP, "\"1969-12-31T23:59:59.999999Z\"");
    pier__arena_free(&a);
}

/* ---- scalar formats ---- */

/* The definition pier__double_format's fast path must agree with: the
 * shortest of %.15g, %.16g and %.17g that reads back, plus ".0". */
static size_t reference_double(double d, char *out)
{
    int len = 0;
    for (int prec = 15; prec <= 17; prec++) {
        len = snprintf(out, 32, "%.*g", prec, d);
        double back = strtod(out, NULL);
        if (memcmp(&back, &d, sizeof d) == 0)
            break;
    }
    if (strpbrk(out, ".eni") == NULL) {
        out[len++] = '.';
        out[len++] = '0';
        out[len] = '\0';
    }
    return (size_t)len;
}

static void test_double_format_matches_reference(void **state)
{
    (void)state;
    char got[PIER__DOUBLE_BUF], want[32];
    uint64_t x = 88172645463325252u;          /* xorshift, fixed seed */
    for (long i = 0; i < 300000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double d;
        switch (i % 5) {
        case 0: memcpy(&d, &x, sizeof d); break;      /* any bits */
        case 1: d = (double)(int64_t)(x % 2000000001) / 1000.0 - 1e6; break;
        case 2: d = (double)(x % 100000) / (double)(1 + x % 64); break;
        case 3: d = (double)(int64_t)(x >> 11) / 1e6; break;
        default: d = (double)(x % 1000) * 0.125 + (double)(x % 7) * 1e-4;
        }
        if (d != d || d - d != 0)               /* NaN or infinite */
            continue;
        size_t n = pier__double_format(d, got);
        reference_double(d, want);
        if (strcmp(got, want) != 0 || n != strlen(want))
            fail_msg("%.17g: got %s, want %s", d, got, want);
    }
}

static void test_double_format(void **state)
{
    (void)state;
    assert_dfmt(0.1, "0.1");
    assert_dfmt(2.0, "2.0");
    assert_dfmt(-2.0, "-2.0");
    assert_dfmt(0.0, "0.0");
    assert_dfmt(-0.0, "-0.0");
    assert_dfmt(1e300, "1e+300");
    assert_dfmt(1e-300, "1e-300");
    assert_dfmt(100.0, "100.0");
    assert_dfmt(2.5, "2.5");
    assert_dfmt(1e15, "1e+15");
    assert_dfmt(123456789012345.0, "123456789012345.0");
    assert_dfmt(0.30000000000000004, "0.30000000000000004");
    assert_dfmt(0.1 + 0.2, "0.30000000000000004");
    /* The smallest subnormal needs only 15 digits to read back. */
    assert_dfmt(5e-324, "4.94065645841247e-324");
    assert_dfmt(DBL_MAX, "1.7976931348623157e+308");
    assert_dfmt(DBL_MIN, "2.2250738585072014e-308");
    assert_dfmt(9007199254740993.0, "9007199254740992.0");
    assert_dfmt(1.0 / 3.0, "0.3333333333333333");
    assert_dfmt(-1.5e-7, "-1.5e-07");
    assert_dfmt(123.456, "123.456");
    char out[PIER__DOUBLE_BUF];
    pier__double_format(INFINITY, out);      /* reads back as infinity */
    assert_string_equal(out, "9e999");
    pier__double_format(-INFINITY, out);
    assert_string_equal(out, "-9e999");
}

static void test_hugeint(void **state)
{
    (void)state;
    char out[PIER__I128_BUF];
    pier__i128 v = 1;
    static const char max[] = "170141183460469231731687303715884105727";
    static const char min[] = "-170141183460469231731687303715884105728";

    assert_true(pier__i128_parse(max, strlen(max), &v));
    assert_true(v == i128_max());
    assert_int_equal(pier__i128_format(v, out), strlen(max));
    assert_string_equal(out, max);
    assert_true(pier__i128_parse(min, strlen(min), &v));
    assert_true(v == i128_min());
    assert_int_equal(pier__i128_format(v, out), strlen(min));
    assert_string_equal(out, min);

    /* One past either end overflows; so does anything longer. */
    static const char *const bad[] = {
        "170141183460469231731687303715884105728",
        "-170141183460469231731687303715884105729",
        "1701411834604692317316873037158841057270",
        "999999999999999999999999999999999999999999",
        "", "-", "+1", "1a", " 1", "1 ", "--1", "1.0", "0x10", "-+1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = 77;
        if (pier__i128_parse(bad[i], strlen(bad[i]), &v))
            fail_msg("'%s' accepted", bad[i]);
        assert_true(v == 77);
    }

    static const struct {
        const char *in, *out;
    } ok[] = {
        { "0", "0" },   { "-0", "0" },   { "007", "7" },   { "-007", "-7" },
        { "9223372036854775808", "9223372036854775808" },
        { "-9223372036854775809", "-9223372036854775809" },
        { "18446744073709551616", "18446744073709551616" },
        { "00000000000000000000000000000000000000000000000001", "1" },
        /* Both sides of the 64-bit magnitudes' fast path, and digits
         * taken two at a time: odd and even counts. */
        { "9", "9" }, { "10", "10" }, { "99", "99" }, { "100", "100" },
        { "-1000", "-1000" }, { "90807", "90807" },
        { "-9223372036854775808", "-9223372036854775808" },
        { "18446744073709551615", "18446744073709551615" },
        { "-18446744073709551615", "-18446744073709551615" },
        { "-18446744073709551616", "-18446744073709551616" },
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        assert_true(pier__i128_parse(ok[i].in, strlen(ok[i].in), &v));
        pier__i128_format(v, out);
        assert_string_equal(out, ok[i].out);
    }
    /* Only n bytes are read. */
    assert_true(pier__i128_parse("123456", 3, &v));
    assert_true(v == 123);

    /* The public form: hi * 2^64 + lo. */
    pier__i128 samples[] = {
        0, 1, -1, INT64_MAX, INT64_MIN, pow2(64), -pow2(64), pow2(64) + 3,
        i128_max(), i128_min(),
    };
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        pier_hugeint h = pier__i128_to_public(samples[i]);
        assert_true(pier__i128_from_public(h) == samples[i]);
        assert_true((pier__i128)h.hi * pow2(64) + (pier__i128)h.lo ==
                    samples[i]);
    }
    pier_hugeint m1 = pier__i128_to_public(-1);
    assert_true(m1.hi == -1 && m1.lo == UINT64_MAX);
    pier_hugeint mn = pier__i128_to_public(i128_min());
    assert_true(mn.hi == INT64_MIN && mn.lo == 0);
}

static void test_timestamp_parse(void **state)
{
    (void)state;
    assert_int_equal(ts("1970-01-01T00:00:00Z"), 0);
    assert_int_equal(ts("2026-01-02T03:04:05+02:00"),
                     ts("2026-01-02T01:04:05Z"));
    assert_int_equal(ts("2026-01-02T01:04:05Z"), INT64_C(1767315845000000));
    assert_int_equal(ts("2026-01-02t03:04:05.5z"),
                     INT64_C(1767323045500000));
    assert_int_equal(ts("2026-01-02 03:04:05.123456789-01:30"),
                     ts("2026-01-02T04:34:05.123457Z"));    /* rounded */
    assert_int_equal(ts("1970-01-01T00:00:00.000001Z"), 1);
    assert_int_equal(ts("1969-12-31T23:59:59.999999Z"), -1);
    assert_int_equal(ts("1970-01-01T00:00:00.1Z"), 100000);
    assert_int_equal(ts("1970-01-01T00:00:00.9999994Z"), 999999);
    assert_int_equal(ts("1970-01-01T00:00:00.9999995Z"), 1000000);
    assert_int_equal(ts("1970-01-01T00:00:00+23:59"),
                     -(INT64_C(23) * 3600 + 59 * 60) * 1000000);
    assert_int_equal(ts("1970-01-01T00:00:00-23:59"),
                     (INT64_C(23) * 3600 + 59 * 60) * 1000000);
    assert_int_equal(ts("2000-01-01T00:00:00Z"), INT64_C(946684800000000));
    /* Leap days: 2024 and 2000 have one; 2023 and 1900 do not. */
    assert_true(ts_ok("2024-02-29T00:00:00Z"));
    assert_true(ts_ok("2000-02-29T00:00:00Z"));
    assert_true(ts_ok("0001-01-01T00:00:00Z"));
    assert_true(ts_ok("9999-12-31T23:59:59.999999Z"));
    assert_true(ts_ok("2026-12-31T23:59:59Z"));
    assert_true(ts_ok("2026-04-30T00:00:00Z"));

    static const char *const bad[] = {
        "2023-02-29T00:00:00Z",
        "1900-02-29T00:00:00Z",
        "2024-02-30T00:00:00Z",
        "2026-04-31T00:00:00Z",
        "2026-13-01T00:00:00Z",
        "2026-00-01T00:00:00Z",
        "2026-01-00T00:00:00Z",
        "2026-01-32T00:00:00Z",
        "2026-01-02T24:00:00Z",
        "2026-01-02T12:60:00Z",
        "2026-01-02T12:00:60Z",         /* no leap second */
        "2026-01-02T03:04:05",          /* missing zone */
        "2026-01-02T03:04:05+02",
        "2026-01-02T03:04:05+0200",
        "2026-01-02T03:04:05+24:00",
        "2026-01-02T03:04:05-02:60",
        "2026-01-02T03:04:05.Z",        /* a point needs digits */
        "2026-01-02T03:04:05.1234567890Z",  /* ten digits */
        "2026-01-02T03:04:05ZZ",
        "2026-01-02T03:04:05Z ",
        " 2026-01-02T03:04:05Z",
        "2026-01-02X03:04:05Z",
        "2026-01-02",
        "2026-1-02T03:04:05Z",
        "26-01-02T03:04:05Z",
        "0000-01-01T00:00:00Z",
        "+2026-01-02T03:04:05Z",
        "2026-01-02T3:04:05Z",
        "",
        "0001-01-01T00:00:00+00:01",    /* before year 1 in UTC */
        "9999-12-31T23:59:59-00:01",    /* after year 9999 in UTC */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int64_t us = 42;
        if (pier__timestamp_parse(bad[i], strlen(bad[i]), &us))
            fail_msg("'%s' accepted", bad[i]);
        assert_int_equal(us, 42);
    }
    /* Only n bytes are read: a valid prefix is not an instant. */
    int64_t us;
    assert_false(pier__timestamp_parse("2026-01-02T03:04:05Z", 19, &us));
    assert_true(pier__timestamp_parse("2026-01-02T03:04:05Zjunk", 20, &us));
}

static void test_timestamp_format(void **state)
{
    (void)state;
    assert_ts_fmt(0, "1970-01-01T00:00:00.000000Z");
    assert_ts_fmt(-1, "1969-12-31T23:59:59.999999Z");
    assert_ts_fmt(-1000000, "1969-12-31T23:59:59.000000Z");
    assert_ts_fmt(-86400000000, "1969-12-31T00:00:00.000000Z");
    assert_ts_fmt(-86400000001, "1969-12-30T23:59:59.999999Z");
    assert_ts_fmt(INT64_C(1767315845000000), "2026-01-02T01:04:05.000000Z");
    assert_ts_fmt(INT64_C(951782400000000), "2000-02-29T00:00:00.000000Z");
    assert_ts_fmt(INT64_C(-2203891200000000), "1900-03-01T00:00:00.000000Z");
    /* Clamped to years 0001..9999. */
    assert_ts_fmt(INT64_MIN, "0001-01-01T00:00:00.000000Z");
    assert_ts_fmt(INT64_MAX, "9999-12-31T23:59:59.999999Z");
    /* Parse and format agree, microsecond by microsecond at the edges. */
    static const char *const texts[] = {
        "0001-01-01T00:00:00.000000Z", "9999-12-31T23:59:59.999999Z",
        "1600-02-29T12:34:56.654321Z", "2038-01-19T03:14:08.000001Z",
        "1969-12-31T23:59:59.999999Z", "2100-02-28T23:59:59.500000Z",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        assert_ts_fmt(ts(texts[i]), texts[i]);
    /* A sweep over days from 0001-01-01 to 9999-12-31, both sides of the
     * epoch, each way round. */
    for (int64_t day = -719162; day <= 2932896; day += 997) {
        char out[PIER__TIMESTAMP_BUF];
        int64_t t = day * INT64_C(86400000000) + 12345;
        size_t n = pier__timestamp_format(t, out);
        int64_t back;
        assert_true(pier__timestamp_parse(out, n, &back));
        assert_true(back == t);
    }
}

/* ---- json ---- */

static void assert_canon(const char *in, const char *want)
{
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_puts(&b, "prefix:");      /* it appends */
    pier_error err;
    pier__error_clear(&err);
    pier_status rc = pier__json_canonical(&b, in, strlen(in), &err);
    if (rc != PIER_OK)
        fail_msg("'%s' refused: %s", in, err.message);
    assert_string_equal(b.p + 7, want);
    pier__buf_free(&b);
}

static void assert_bad_json(const char *in, int64_t offset,
                            const char *message)
{
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_puts(&b, "keep");
    pier_error err;
    pier__error_clear(&err);
    assert_int_equal(pier__json_canonical(&b, in, strlen(in), &err),
                     PIER_E_INVALID_JSON);
    assert_int_equal(err.status, PIER_E_INVALID_JSON);
    assert_string_equal(err.tag, "InvalidJson");
    assert_int_equal(err.offset, offset);
    if (strstr(err.message, message) == NULL)
        fail_msg("message '%s' lacks '%s'", err.message, message);
    assert_string_equal(b.p, "keep");   /* nothing appended */
    pier__buf_free(&b);
}

static void test_json_canonical(void **state)
{
    (void)state;
    assert_canon("{\"b\":1,\"a\":[1,2.5,\"x\"]}",
                 "{\"a\":[1,2.5,\"x\"],\"b\":1}");
    assert_canon(" { \"a\" : [ 1 , 2 ] ,\n\t\"c\" : { } }\r\n",
                 "{\"a\":[1,2],\"c\":{}}");
    assert_canon("[]", "[]");
    assert_canon("{}", "{}");
    assert_canon("[true,false,null]", "[true,false,null]");
    assert_canon("[1.0,1e2,-0.0,0.1,1E300,-5]",
                 "[1.0,100.0,-0.0,0.1,1e+300,-5]");
    assert_canon("[9223372036854775807,-9223372036854775808]",
                 "[9223372036854775807,-9223372036854775808]");
    /* Keys sorted by bytes: a prefix first, uppercase before lowercase,
     * UTF-8 after ASCII; nested objects too. */
    assert_canon("{\"ab\":1,\"a\":2,\"B\":3,\"é\":4,\"z\":{\"y\":1,\"x\":2}}",
                 "{\"B\":3,\"a\":2,\"ab\":1,\"z\":{\"x\":2,\"y\":1},"
                 "\"é\":4}");
    /* Strings: escapes resolved and re-escaped minimally. */
    assert_canon("[\"\\u0041\\n\\\"\\/\\u00e9\"]", "[\"A\\n\\\"/é\"]");
    assert_canon("[\"a\\u0000b\"]", "[\"a\\u0000b\"]");
    assert_canon("[\"\\ud83d\\ude00\"]", "[\"\xf0\x9f\x98\x80\"]");
    /* Duplicate keys: the last wins. */
    assert_canon("{\"a\":1,\"a\":2}", "{\"a\":2}");
    /* Canonical text is a fixed point. */
    assert_canon("{\"a\":[1,2.5,\"x\"],\"b\":1}",
                 "{\"a\":[1,2.5,\"x\"],\"b\":1}");

    assert_bad_json("3", 0, "a json value must be an object or an array");
    assert_bad_json("  \"s\"", 2, "must be an object or an array");
    assert_bad_json("null", 0, "must be an object or an array");
    assert_bad_json("{\"a\":}", 5, "invalid JSON at byte 5:");
    assert_bad_json("[1,", 3, "invalid JSON at byte 3:");
    assert_bad_json("[1,2] x", 6, "invalid JSON at byte 6:");
    assert_bad_json("", 0, "invalid JSON at byte 0:");
    assert_bad_json("{\"a\":[1,{\"b\":99999999999999999999}]}", 13,
                    "integer beyond 64 bits inside a json value at byte 13");
    assert_bad_json("[-99999999999999999999]", 22,
                    "integer beyond 64 bits");
    assert_bad_json("[1e400]", 1, "invalid JSON at byte 1:");
    assert_bad_json("[\"\xff\"]", 1, "invalid JSON at byte");
    assert_bad_json("{\"a\\u0000\":1}", 1, "invalid JSON at byte 1:");

    /* A NUL byte is no JSON anywhere, also where jansson would skip it
     * (after a number or a literal: "[1\0]" would read [1]). */
    static const struct {
        const char *text;
        size_t len;
        int64_t offset;
    } nul[] = {
        { "[1\0]", 4, 2 },
        { "{\"a\":true\0}", 10, 9 },
        { "[\"a\0\"]", 6, 3 },
        { "[1]\0", 4, 3 },
    };
    for (size_t i = 0; i < sizeof nul / sizeof *nul; i++) {
        pier__buf k;
        pier__buf_init(&k);
        pier_error err;
        assert_int_equal(pier__json_canonical(&k, nul[i].text, nul[i].len,
                                              &err),
                         PIER_E_INVALID_JSON);
        assert_int_equal(err.offset, nul[i].offset);
        assert_non_null(strstr(err.message, "NUL byte"));
        assert_int_equal(k.len, 0);
        pier__buf_free(&k);
    }

    /* A NULL err is allowed. */
    pier__buf b;
    pier__buf_init(&b);
    assert_int_equal(pier__json_canonical(&b, "x", 1, NULL),
                     PIER_E_INVALID_JSON);
    assert_int_equal(pier__json_canonical(&b, "1", 1, NULL),
                     PIER_E_INVALID_JSON);
    /* Only n bytes are read. */
    assert_int_equal(pier__json_canonical(&b, "[1]]]", 3, NULL), PIER_OK);
    assert_string_equal(b.p, "[1]");
    pier__buf_free(&b);
}

/* JSON strings: escapes, and bytes that are no UTF-8 (SQLite's TEXT may
 * hold any) as U+FFFD, so that the output stays valid JSON. */
static void test_json_string(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        size_t n;
        const char *out;
    } cases[] = {
        { "plain", 5, "\"plain\"" },
        { "q\"b\\n\n\x01", 7, "\"q\\\"b\\\\n\\n\\u0001\"" },
        { "h\xc3\xa9", 3, "\"h\xc3\xa9\"" },              /* é */
        { "\xff" "A", 2, "\"\xef\xbf\xbd" "A\"" },          /* bad lead */
        { "a\xc3", 2, "\"a\xef\xbf\xbd\"" },                 /* cut short */
        { "\xed\xa0\x80", 3,                                 /* a surrogate */
          "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" },
        { "\xf0\x9f\x98\x80!", 5, "\"\xf0\x9f\x98\x80!\"" },   /* 4 bytes */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pier__buf b;
        pier__buf_init(&b);
        pier__buf_json_string(&b, cases[i].in, cases[i].n);
        char *got = pier__buf_detach(&b);
        assert_non_null(got);
        assert_string_equal(got, cases[i].out);
        free(got);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_spellings),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_rank),
        cmocka_unit_test(test_lub),
        cmocka_unit_test(test_can_widen),
        cmocka_unit_test(test_widen_rewrites),
        cmocka_unit_test(test_value_type),
        cmocka_unit_test(test_fit_integers),
        cmocka_unit_test(test_fit_booleans),
        cmocka_unit_test(test_fit_doubles),
        cmocka_unit_test(test_fit_text),
        cmocka_unit_test(test_fit_timestamp_json),
        cmocka_unit_test(test_null_encodes_as_null),
        cmocka_unit_test(test_encodings),
        cmocka_unit_test(test_text_renderings),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_decode_after_widening),
        cmocka_unit_test(test_decode_refuses_foreign_cells),
        cmocka_unit_test(test_cell_to_text),
        cmocka_unit_test(test_cell_to_json),
        cmocka_unit_test(test_double_format),
        cmocka_unit_test(test_double_format_matches_reference),
        cmocka_unit_test(test_hugeint),
        cmocka_unit_test(test_timestamp_parse),
        cmocka_unit_test(test_timestamp_format),
        cmocka_unit_test(test_json_canonical),
        cmocka_unit_test(test_json_string),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
