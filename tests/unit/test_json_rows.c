/*
 * test_json_rows.c: the JSON row reader (src/engine/json_rows.c), and its
 * patch reader for pier_update_many_json.
 *
 * Every accepted shape, every value kind with its exact value, string
 * escapes, each InvalidJson case with the exact byte offset it reports,
 * and the size limits. Inputs are copied into buffers of exactly their
 * length, so that AddressSanitizer catches any read past `len`.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rows.h"

typedef pier_status (*read_fn)(pier_rows *rows, const char *json,
                               size_t len, pier_error *err);

/* Reads `n` bytes of `text` with `fn` from an exact-size copy (no NUL
 * after it). */
static pier_status read_with(read_fn fn, pier_rows *rows, const char *text,
                             size_t n, pier_error *err)
{
    char *copy = malloc(n > 0 ? n : 1);
    assert_non_null(copy);
    memcpy(copy, text, n);
    pier__rows_init(rows);
    pier__error_clear(err);
    pier_status rc = fn(rows, copy, n, err);
    free(copy);
    return rc;
}

static pier_status read_n(pier_rows *rows, const char *text, size_t n,
                          pier_error *err)
{
    return read_with(pier__json_rows_read, rows, text, n, err);
}

static pier_status read_s(pier_rows *rows, const char *text, pier_error *err)
{
    return read_n(rows, text, strlen(text), err);
}

/* The value of the only field of the only row of `text`, which must be
 * read without error; the batch stays alive for the caller to release. */
static const pier__field *only_field(pier_rows *rows, const char *text)
{
    pier_error err;
    pier_status rc = read_s(rows, text, &err);
    if (rc != PIER_OK)
        fail_msg("%s: %s", text, err.message);
    assert_int_equal(rows->nrows, 1);
    assert_int_equal(rows->nfields, 1);
    return &rows->fields[0];
}

static void assert_name(const pier__field *f, const char *name)
{
    assert_int_equal(f->name_len, strlen(name));
    assert_memory_equal(f->name, name, f->name_len);
}

static void assert_text(const pier__value *v, pier_kind kind,
                        const char *text, size_t n)
{
    assert_int_equal(v->kind, kind);
    assert_int_equal(v->n, n);
    assert_memory_equal(v->s, text, n);
}

/* Reading `text` with `fn` fails with InvalidJson at `offset`, with a
 * message that contains `what` and ends in " at byte <offset>". */
static void expect_invalid_with(read_fn fn, const char *text, size_t n,
                                int64_t offset, const char *what)
{
    pier_rows rows;
    pier_error err;
    pier_status rc = read_with(fn, &rows, text, n, &err);
    if (rc != PIER_E_INVALID_JSON)
        fail_msg("'%s': status %d, expected InvalidJson", text, (int)rc);
    assert_string_equal(err.tag, "InvalidJson");
    if (err.offset != offset)
        fail_msg("'%s': offset %lld, expected %lld (%s)", text,
                 (long long)err.offset, (long long)offset, err.message);
    if (strstr(err.message, what) == NULL)
        fail_msg("'%s': message '%s' lacks '%s'", text, err.message, what);
    char suffix[64];
    snprintf(suffix, sizeof suffix, "at byte %lld", (long long)offset);
    if (strstr(err.message, suffix) == NULL)
        fail_msg("'%s': message '%s' lacks '%s'", text, err.message, suffix);
    pier__rows_release(&rows);
}

static void expect_invalid(const char *text, size_t n, int64_t offset,
                           const char *what)
{
    expect_invalid_with(pier__json_rows_read, text, n, offset, what);
}

#define INVALID(text, offset, what) \
    expect_invalid(text, sizeof(text) - 1, offset, what)

/* ---- shapes ---- */

static void test_one_object(void **state)
{
    (void)state;
    pier_rows rows;
    pier_error err;
    const char *text = "{\"id\":\"a\", \"n\" : 1 }";
    assert_int_equal(read_s(&rows, text, &err), PIER_OK);
    assert_int_equal(rows.nrows, 1);
    assert_int_equal(rows.nfields, 2);
    assert_int_equal(rows.row_start[0], 0);
    assert_int_equal(pier__rows_row_end(&rows, 0), 2);
    assert_int_equal(rows.row_bytes[0], strlen(text));
    assert_name(&rows.fields[0], "id");
    assert_text(&rows.fields[0].value, PIER_KIND_TEXT, "a", 1);
    assert_name(&rows.fields[1], "n");
    assert_int_equal(rows.fields[1].value.kind, PIER_KIND_BIGINT);
    assert_int_equal(rows.fields[1].value.u.i, 1);
    pier__rows_release(&rows);
}

static void test_array(void **state)
{
    (void)state;
    pier_rows rows;
    pier_error err;
    const char *text =
        " [ {\"id\":\"a\"} ,\n{\"id\":\"b\",\"x\":true}, {} ] \n";
    assert_int_equal(read_s(&rows, text, &err), PIER_OK);
    assert_int_equal(rows.nrows, 3);
    assert_int_equal(rows.nfields, 3);
    assert_int_equal(rows.row_start[0], 0);
    assert_int_equal(rows.row_start[1], 1);
    assert_int_equal(rows.row_start[2], 3);
    assert_int_equal(pier__rows_row_end(&rows, 1), 3);
    assert_int_equal(pier__rows_row_end(&rows, 2), 3);   /* empty row */
    assert_int_equal(rows.row_bytes[0], strlen("{\"id\":\"a\"}"));
    assert_int_equal(rows.row_bytes[1], strlen("{\"id\":\"b\",\"x\":true}"));
    assert_int_equal(rows.row_bytes[2], 2);
    assert_text(&rows.fields[1].value, PIER_KIND_TEXT, "b", 1);
    assert_name(&rows.fields[2], "x");
    assert_int_equal(rows.fields[2].value.kind, PIER_KIND_BOOLEAN);
    assert_true(rows.fields[2].value.u.b);
    pier__rows_release(&rows);
}

static void test_empty_array(void **state)
{
    (void)state;
    static const char *const texts[] = { "[]", " [ \n\t] ", "\r\n[]\n" };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        pier_rows rows;
        pier_error err;
        assert_int_equal(read_s(&rows, texts[i], &err), PIER_OK);
        assert_int_equal(rows.nrows, 0);
        assert_int_equal(rows.nfields, 0);
        pier__rows_release(&rows);
    }
}

static void test_json_lines(void **state)
{
    (void)state;
    pier_rows rows;
    pier_error err;
    const char *text =
        "\n{\"a\":1}\n\n{\"a\":2}\r\n   \n\t{\"a\":3,\"b\":\"x\"}\n\n";
    assert_int_equal(read_s(&rows, text, &err), PIER_OK);
    assert_int_equal(rows.nrows, 3);
    assert_int_equal(rows.nfields, 4);
    for (size_t r = 0; r < 3; r++) {
        const pier__field *f = &rows.fields[rows.row_start[r]];
        assert_name(f, "a");
        assert_int_equal(f->value.kind, PIER_KIND_BIGINT);
        assert_int_equal(f->value.u.i, (int64_t)r + 1);
    }
    assert_int_equal(rows.row_bytes[0], 7);
    assert_int_equal(rows.row_bytes[2], strlen("{\"a\":3,\"b\":\"x\"}"));
    pier__rows_release(&rows);
}

static void test_nested_json(void **state)
{
    (void)state;
    pier_rows rows;
    const pier__field *f = only_field(&rows,
        "{\"doc\": { \"b\" : 1, \"a\" : [1, 2.5, {\"d\":null,"
        " \"c\":\"}]\\\"\"}], \"\" : {} } }");
    assert_name(f, "doc");
    const char *want = "{\"\":{},\"a\":[1,2.5,{\"c\":\"}]\\\"\",\"d\":null}],"
                       "\"b\":1}";
    assert_text(&f->value, PIER_KIND_JSON, want, strlen(want));
    pier__rows_release(&rows);

    f = only_field(&rows, "{\"list\":[ ]}");
    assert_text(&f->value, PIER_KIND_JSON, "[]", 2);
    pier__rows_release(&rows);

    /* Nested values in several rows, between scalar members. */
    pier_error err;
    assert_int_equal(read_s(&rows, "{\"a\":[3,{\"y\":1,\"x\":2}],\"b\":1}\n"
                                   "{\"a\":{\"k\":[]},\"b\":2}", &err),
                     PIER_OK);
    assert_int_equal(rows.nrows, 2);
    assert_text(&rows.fields[0].value, PIER_KIND_JSON,
                "[3,{\"x\":2,\"y\":1}]", 17);
    assert_int_equal(rows.fields[1].value.u.i, 1);
    assert_text(&rows.fields[2].value, PIER_KIND_JSON, "{\"k\":[]}", 8);
    assert_int_equal(rows.fields[3].value.u.i, 2);
    pier__rows_release(&rows);
}

static void test_nesting_depth(void **state)
{
    (void)state;
    /* 512 levels are accepted, 513 are not; the fault is the 513th
     * bracket, at byte 5 + 512. */
    for (size_t depth = 512; depth <= 513; depth++) {
        size_t n = 5 + 2 * depth + 1;
        char *text = malloc(n + 1);
        assert_non_null(text);
        memcpy(text, "{\"a\":", 5);
        memset(text + 5, '[', depth);
        memset(text + 5 + depth, ']', depth);
        text[n - 1] = '}';
        text[n] = '\0';
        if (depth == 512) {
            pier_rows rows;
            const pier__field *f = only_field(&rows, text);
            assert_int_equal(f->value.kind, PIER_KIND_JSON);
            assert_int_equal(f->value.n, 2 * depth);
            pier__rows_release(&rows);
        } else {
            expect_invalid(text, n, 5 + 512, "nesting too deep");
        }
        free(text);
    }
}

static void test_bom(void **state)
{
    (void)state;
    pier_rows rows;
    const pier__field *f = only_field(&rows, "\xEF\xBB\xBF{\"a\":true}");
    assert_name(f, "a");
    pier__rows_release(&rows);
    /* Offsets still count the BOM's three bytes. */
    INVALID("\xEF\xBB\xBF{\"a\" 1}", 8, "expected ':'");
    INVALID("\xEF\xBB\xBF", 3, "empty input");
}

static void test_not_nul_terminated(void **state)
{
    (void)state;
    pier_rows rows;
    pier_error err;
    /* Only the first 7 bytes are the input. */
    pier__rows_init(&rows);
    assert_int_equal(pier__json_rows_read(&rows, "{\"a\":1}garbage", 7, &err),
                     PIER_OK);
    assert_int_equal(rows.nrows, 1);
    pier__rows_release(&rows);
    /* Input that stops mid-token, each at its exact end. */
    INVALID("{\"a\":1", 6, "expected ',' or '}'");
    INVALID("{\"a\":12", 7, "expected ',' or '}'");
    INVALID("{\"a\":-", 6, "expected a digit");
    INVALID("{\"a\":1.", 7, "expected a digit");
    INVALID("{\"a\":1e+", 8, "expected a digit");
    INVALID("{\"a\":tru", 5, "expected a value");
    INVALID("{\"a\":\"x\\", 5, "unterminated string");
    INVALID("{\"a\":\"\\u12", 5, "unterminated string");
    INVALID("{\"a", 1, "unterminated string");
    INVALID("{\"a\"", 4, "expected ':'");
    INVALID("{\"a\":", 5, "expected a value");
    INVALID("{", 1, "expected a member name or '}'");
    INVALID("[", 1, "expected an object or ']'");
    INVALID("[{}", 3, "expected ',' or ']'");
    INVALID("[{},", 4, "expected an object");
}

/* ---- value kinds ---- */

static void test_literals(void **state)
{
    (void)state;
    pier_rows rows;
    pier_error err;
    assert_int_equal(read_s(&rows, "{\"t\":true,\"f\":false,\"n\":null}", &err),
                     PIER_OK);
    assert_int_equal(rows.nfields, 3);
    assert_int_equal(rows.fields[0].value.kind, PIER_KIND_BOOLEAN);
    assert_true(rows.fields[0].value.u.b);
    assert_int_equal(rows.fields[1].value.kind, PIER_KIND_BOOLEAN);
    assert_false(rows.fields[1].value.u.b);
    assert_int_equal(rows.fields[2].value.kind, PIER_KIND_NULL);
    pier__rows_release(&rows);
    INVALID("{\"a\":True}", 5, "expected a value");
    INVALID("{\"a\":nul}", 5, "expected a value");
    INVALID("{\"a\":nullx}", 9, "expected ',' or '}'");
}

static void expect_bigint(const char *text, int64_t want)
{
    pier_rows rows;
    const pier__field *f = only_field(&rows, text);
    if (f->value.kind != PIER_KIND_BIGINT)
        fail_msg("%s: kind %d, expected bigint", text, (int)f->value.kind);
    assert_true(f->value.u.i == want);
    pier__rows_release(&rows);
}

static void expect_hugeint(const char *text, pier__i128 want)
{
    pier_rows rows;
    const pier__field *f = only_field(&rows, text);
    if (f->value.kind != PIER_KIND_HUGEINT)
        fail_msg("%s: kind %d, expected hugeint", text, (int)f->value.kind);
    assert_true(f->value.u.h == want);
    pier__rows_release(&rows);
}

static void expect_double(const char *text, double want)
{
    pier_rows rows;
    const pier__field *f = only_field(&rows, text);
    if (f->value.kind != PIER_KIND_DOUBLE)
        fail_msg("%s: kind %d, expected double", text, (int)f->value.kind);
    if (f->value.u.d != want)
        fail_msg("%s: %.17g, expected %.17g", text, f->value.u.d, want);
    pier__rows_release(&rows);
}

static void test_integers(void **state)
{
    (void)state;
    expect_bigint("{\"a\":0}", 0);
    expect_bigint("{\"a\":-0}", 0);
    expect_bigint("{\"a\":7}", 7);
    expect_bigint("{\"a\":-42}", -42);
    expect_bigint("{\"a\":999999999999999999}", 999999999999999999);
    expect_bigint("{\"a\":9223372036854775807}", INT64_MAX);
    expect_bigint("{\"a\":-9223372036854775808}", INT64_MIN);

    pier__i128 two63 = (pier__i128)1 << 63;
    expect_hugeint("{\"a\":9223372036854775808}", two63);
    expect_hugeint("{\"a\":-9223372036854775809}", -two63 - 1);
    pier__i128 max = (pier__i128)(((pier__u128)1 << 127) - 1);
    expect_hugeint("{\"a\":170141183460469231731687303715884105727}", max);
    expect_hugeint("{\"a\":-170141183460469231731687303715884105728}",
                   -max - 1);

    /* Beyond 128 bits: a double. */
    expect_double("{\"a\":170141183460469231731687303715884105728}",
                  170141183460469231731687303715884105728.0);
    expect_double("{\"a\":340282366920938463463374607431768211456}",
                  340282366920938463463374607431768211456.0);
    expect_double("{\"a\":-1000000000000000000000000000000000000000000}",
                  -1e42);
}

static void test_reals(void **state)
{
    (void)state;
    expect_double("{\"a\":2.5}", 2.5);
    expect_double("{\"a\":-0.125}", -0.125);
    expect_double("{\"a\":1e3}", 1000.0);
    expect_double("{\"a\":1E+3}", 1000.0);
    expect_double("{\"a\":25e-1}", 2.5);
    expect_double("{\"a\":0.1}", 0.1);
    expect_double("{\"a\":1.0}", 1.0);
    expect_double("{\"a\":0e0}", 0.0);
    expect_double("{\"a\":1.7976931348623157e308}", 1.7976931348623157e308);
    /* A subnormal is kept; a number that would read as zero or infinity
     * is refused; zero written with any exponent is zero. */
    expect_double("{\"a\":5e-324}", 5e-324);
    expect_double("{\"a\":0e-400}", 0.0);
    expect_double("{\"a\":-0.000e-999}", -0.0);
    INVALID("{\"a\":1e-400}", 5, "too small for a double");
    INVALID("{\"a\":-2.5e-330}", 5, "too small for a double");
    INVALID("{\"a\":0.0000001e-330}", 5, "too small for a double");
    INVALID("{\"a\":1e400}", 5, "number out of range");
    INVALID("{\"b\":true,\"a\":-1e400}", 14, "number out of range");
    INVALID("{\"a\":1.8e308}", 5, "number out of range");

    /* -0.0 keeps its sign; -0 is the integer 0. */
    pier_rows rows;
    const pier__field *f = only_field(&rows, "{\"a\":-0.0}");
    assert_int_equal(f->value.kind, PIER_KIND_DOUBLE);
    assert_true(signbit(f->value.u.d));
    pier__rows_release(&rows);

    /* An integer with 400 digits is a double that overflows. */
    char text[512];
    memcpy(text, "{\"a\":", 5);
    text[5] = '1';
    memset(text + 6, '0', 400);
    memcpy(text + 406, "}", 2);
    expect_invalid(text, strlen(text), 5, "number out of range");
}

static void test_number_grammar(void **state)
{
    (void)state;
    INVALID("{\"a\":01}", 5, "leading zero");
    INVALID("{\"a\":-01}", 6, "leading zero");
    INVALID("{\"a\":00}", 5, "leading zero");
    INVALID("{\"a\":+1}", 5, "expected a value");
    INVALID("{\"a\":.5}", 5, "expected a value");
    INVALID("{\"a\":1.}", 7, "expected a digit after '.'");
    INVALID("{\"a\":1.e3}", 7, "expected a digit after '.'");
    INVALID("{\"a\":1e}", 7, "expected a digit in the exponent");
    INVALID("{\"a\":1e+}", 8, "expected a digit in the exponent");
    INVALID("{\"a\":-}", 6, "expected a digit");
    INVALID("{\"a\":--1}", 6, "expected a digit");
    INVALID("{\"a\":NaN}", 5, "expected a value");
    INVALID("{\"a\":Infinity}", 5, "expected a value");
    INVALID("{\"a\":-Infinity}", 6, "expected a digit");
    INVALID("{\"a\":0x10}", 6, "expected ',' or '}'");
    INVALID("{\"a\":1.5.2}", 8, "expected ',' or '}'");
}

static void test_strings(void **state)
{
    (void)state;
    pier_rows rows;
    const pier__field *f = only_field(&rows, "{\"a\":\"007\"}");
    assert_text(&f->value, PIER_KIND_TEXT, "007", 3);
    pier__rows_release(&rows);

    f = only_field(&rows, "{\"a\":\"\"}");
    assert_text(&f->value, PIER_KIND_TEXT, "", 0);
    pier__rows_release(&rows);

    f = only_field(&rows, "{\"a\":\"line\\nnext\"}");
    assert_text(&f->value, PIER_KIND_TEXT, "line\nnext", 9);
    pier__rows_release(&rows);

    f = only_field(&rows, "{\"a\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"}");
    assert_text(&f->value, PIER_KIND_TEXT, "\"\\/\b\f\n\r\t", 8);
    pier__rows_release(&rows);

    f = only_field(&rows, "{\"a\":\"caf\\u00e9 \\u00C9\"}");
    assert_text(&f->value, PIER_KIND_TEXT, "caf\xC3\xA9 \xC3\x89", 8);
    pier__rows_release(&rows);

    f = only_field(&rows, "{\"a\":\"\\u20ac\\u0041\"}");
    assert_text(&f->value, PIER_KIND_TEXT, "\xE2\x82\xAC" "A", 4);
    pier__rows_release(&rows);

    /* A surrogate pair is one 4-byte character. */
    f = only_field(&rows, "{\"a\":\"\\ud83d\\ude00\"}");
    assert_text(&f->value, PIER_KIND_TEXT, "\xF0\x9F\x98\x80", 4);
    pier__rows_release(&rows);
    f = only_field(&rows, "{\"a\":\"\\uDBFF\\uDFFF!\"}");
    assert_text(&f->value, PIER_KIND_TEXT, "\xF4\x8F\xBF\xBF!", 5);
    pier__rows_release(&rows);

    /* Raw UTF-8 passes through; \u0000 is a NUL inside the text. */
    f = only_field(&rows, "{\"a\":\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"}");
    assert_text(&f->value, PIER_KIND_TEXT,
                "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", 9);
    pier__rows_release(&rows);
    f = only_field(&rows, "{\"a\":\"x\\u0000y\"}");
    assert_text(&f->value, PIER_KIND_TEXT, "x\0y", 3);
    pier__rows_release(&rows);

    /* Names are decoded too, and kept as written (no case folding). */
    f = only_field(&rows, "{\"N\\u0061me\\n\":1}");
    assert_name(f, "Name\n");
    pier__rows_release(&rows);
}

static void test_string_errors(void **state)
{
    (void)state;
    INVALID("{\"a\":\"\\ud800\"}", 6, "lone surrogate");
    INVALID("{\"a\":\"xy\\ud800z\"}", 8, "lone surrogate");
    INVALID("{\"a\":\"\\ud800\\u0041\"}", 6, "lone surrogate");
    INVALID("{\"a\":\"\\ud800\\ud800\"}", 6, "lone surrogate");
    INVALID("{\"a\":\"\\ude00\"}", 6, "lone surrogate");
    INVALID("{\"a\":\"\\ud83d\"}", 6, "lone surrogate");
    INVALID("{\"a\":\"\\q\"}", 6, "invalid escape");
    INVALID("{\"a\":\"ab\\x41\"}", 8, "invalid escape");
    INVALID("{\"a\":\"\\u12g4\"}", 6, "invalid escape");
    INVALID("{\"a\":\"\\u12\"}", 6, "invalid escape");
    INVALID("{\"a\":\"\\U0041\"}", 6, "invalid escape");
    INVALID("{\"a\":\"x\ty\"}", 7, "control character in string");
    INVALID("{\"a\":\"x\ny\"}", 7, "control character in string");
    INVALID("{\"a\x01\":1}", 3, "control character in string");
    INVALID("{\"a\":\"\xFF\"}", 6, "invalid UTF-8 in string");
    INVALID("{\"a\":\"ok\xC3\"}", 8, "invalid UTF-8 in string");
    INVALID("{\"a\":\"\xC0\x80\"}", 6, "invalid UTF-8 in string");
    INVALID("{\"a\":\"\xE0\x80\x80\"}", 6, "invalid UTF-8 in string");
    INVALID("{\"a\":\"\xED\xA0\x80\"}", 6, "invalid UTF-8 in string");
    INVALID("{\"a\":\"\xF4\x90\x80\x80\"}", 6, "invalid UTF-8 in string");
    INVALID("{\"\x80\":1}", 2, "invalid UTF-8 in string");
    INVALID("{\"a\":\"xyz", 5, "unterminated string");
    INVALID("{\"a\":\"xyz\\\"}", 5, "unterminated string");
}

/* ---- structure errors ---- */

static void test_structure_errors(void **state)
{
    (void)state;
    INVALID("", 0, "empty input");
    INVALID(" \n\t ", 4, "empty input");
    INVALID("42", 0, "expected an object or an array of objects");
    INVALID("  \"id\"", 2, "expected an object or an array of objects");
    INVALID("null", 0, "expected an object or an array of objects");
    INVALID("}", 0, "expected an object or an array of objects");
    INVALID("{\"id\":\"a\", \"n\":1 \"x\":2}", 17, "expected ',' or '}'");
    INVALID("{\"a\" 1}", 5, "expected ':'");
    INVALID("{\"a\":}", 5, "expected a value");
    INVALID("{\"a\":1,}", 7, "expected a member name");
    INVALID("{,}", 1, "expected a member name or '}'");
    INVALID("{a:1}", 1, "expected a member name or '}'");
    INVALID("{'a':1}", 1, "expected a member name or '}'");
    INVALID("{1:1}", 1, "expected a member name or '}'");
    INVALID("{\"a\":1]", 6, "expected ',' or '}'");
    INVALID("{\"a\":1} x", 8, "trailing characters after the value");
    INVALID("{\"a\":1}\n[]", 8, "trailing characters after the value");
    INVALID("{\"a\":1}\n{\"a\":2}\n3", 16,
            "trailing characters after the value");
    INVALID("[{\"a\":1}] {\"b\":2}", 10,
            "trailing characters after the value");
    INVALID("[][]", 2, "trailing characters after the value");
    INVALID("{\"a\":1}{\"a\":2}", 7, "expected white space between objects");
    INVALID("[1]", 1, "expected an object or ']'");
    INVALID("[[{}]]", 1, "expected an object or ']'");
    INVALID("[{\"a\":1},]", 9, "expected an object");
    INVALID("[{\"a\":1}, 2]", 10, "expected an object");
    INVALID("[{\"a\":1} {\"a\":2}]", 9, "expected ',' or ']'");
    INVALID("[{\"a\":1}", 8, "expected ',' or ']'");
    /* The second row fails: the first is read, the batch is released. */
    INVALID("{\"a\":1}\n{\"b\" 2}", 13, "expected ':'");
}

static void test_nested_errors(void **state)
{
    (void)state;
    /* The canonicalizer's offsets are made relative to the whole input,
     * in err->offset and in the message. Mismatched brackets end the span
     * early; the canonicalizer reports the fault inside it. */
    static const char *const texts[] = {
        "{\"a\":[1,2}",
        "{\"b\":1,\"a\":{\"x\":}}",
        "{\"a\":[1,2",
        "{\"a\":{\"x\":\"\\q\"}}",
        "{\"a\":[\"unterminated]}",
        "{\"a\":[01]}",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        const char *text = texts[i];
        size_t start = (size_t)(strpbrk(text + 1, "[{") - text);
        pier_rows rows;
        pier_error err;
        assert_int_equal(read_s(&rows, text, &err), PIER_E_INVALID_JSON);
        pier__rows_release(&rows);
        assert_true(err.offset >= (int64_t)start);
        assert_true(err.offset <= (int64_t)strlen(text));
        char suffix[64];
        snprintf(suffix, sizeof suffix, "at byte %lld",
                 (long long)err.offset);
        if (strstr(err.message, suffix) == NULL)
            fail_msg("'%s': message '%s' lacks '%s'", text, err.message,
                     suffix);
        /* The same document alone reports the offset less `start`. */
        pier__buf b;
        pier__buf_init(&b);
        pier_error inner;
        pier__error_clear(&inner);
        assert_int_equal(pier__json_canonical(&b, text + start,
                                              strlen(text) - start, &inner),
                         PIER_E_INVALID_JSON);
        pier__buf_free(&b);
        assert_int_equal(err.offset, inner.offset + (int64_t)start);
    }
}

/* A NUL byte in a nested document is refused where it is, even after a
 * number, where jansson alone would skip it. */
static void test_nested_nul(void **state)
{
    (void)state;
    static const char text[] = "{\"id\":\"a\",\"s\":{\"k\":[1\0 ]}}";
    pier_rows rows;
    pier_error err;
    assert_int_equal(read_n(&rows, text, sizeof text - 1, &err),
                     PIER_E_INVALID_JSON);
    pier__rows_release(&rows);
    assert_int_equal(err.offset, 21);
    assert_non_null(strstr(err.message, "invalid JSON at byte 21: a NUL byte"));
}

/* ---- limits ---- */

/* {"id":"x","big":"aaa..."} exactly `total` bytes long. */
static char *big_row(size_t total)
{
    static const char head[] = "{\"id\":\"x\",\"big\":\"";
    size_t h = sizeof head - 1;
    char *text = malloc(total);
    assert_non_null(text);
    memcpy(text, head, h);
    memset(text + h, 'a', total - h - 2);
    memcpy(text + total - 2, "\"}", 2);
    return text;
}

static void test_row_limit(void **state)
{
    (void)state;
    pier_rows rows;
    pier_error err;

    /* A row of exactly PIER_MAX_ROW_BYTES bytes is accepted. */
    char *text = big_row(PIER_MAX_ROW_BYTES);
    assert_int_equal(read_n(&rows, text, PIER_MAX_ROW_BYTES, &err), PIER_OK);
    assert_int_equal(rows.row_bytes[0], PIER_MAX_ROW_BYTES);
    assert_int_equal(rows.fields[1].value.n, PIER_MAX_ROW_BYTES - 19);
    pier__rows_release(&rows);
    free(text);

    /* One byte more is not; the message names the row, numbered from 1
     * as the insert path numbers rows. */
    size_t n = PIER_MAX_ROW_BYTES + 1;
    size_t total = 10 + n + 3;
    char *batch = malloc(total);
    assert_non_null(batch);
    memcpy(batch, "[{\"a\":1},\n", 10);
    text = big_row(n);
    memcpy(batch + 10, text, n);
    memcpy(batch + 10 + n, "\n]\n", 3);
    free(text);
    assert_int_equal(read_n(&rows, batch, total, &err),
                     PIER_E_LIMIT_EXCEEDED);
    assert_string_equal(err.tag, "LimitExceeded");
    assert_int_equal(err.offset, -1);
    assert_non_null(strstr(err.message, "row 2 (at byte 10)"));
    assert_non_null(strstr(err.message, "1048576"));
    pier__rows_release(&rows);
    free(batch);

    /* Many small members over the limit fail just the same. */
    size_t members = PIER_MAX_ROW_BYTES / 8 + 1;
    text = malloc(members * 9 + 3);    /* ,"xxxx":1 and the NUL */
    assert_non_null(text);
    size_t k = 0;
    text[k++] = '{';
    for (size_t i = 0; i < members; i++) {
        k += (size_t)sprintf(text + k, "%s\"%04zx\":1", i ? "," : "",
                             i % 0x10000);
    }
    text[k++] = '}';
    assert_int_equal(read_n(&rows, text, k, &err), PIER_E_LIMIT_EXCEEDED);
    assert_non_null(strstr(err.message, "row 1 (at byte 0)"));
    pier__rows_release(&rows);
    free(text);
}

static void test_batch_row_limit(void **state)
{
    (void)state;
    pier_rows rows;
    pier_error err;
    size_t n = (size_t)PIER_MAX_BATCH_ROWS + 1;
    char *text = malloc(3 * n + 1);
    assert_non_null(text);
    for (size_t i = 0; i < n; i++)
        memcpy(text + 3 * i, "{}\n", 3);
    assert_int_equal(read_n(&rows, text, 3 * (n - 1), &err), PIER_OK);
    assert_int_equal(rows.nrows, PIER_MAX_BATCH_ROWS);
    pier__rows_release(&rows);
    assert_int_equal(read_n(&rows, text, 3 * n, &err),
                     PIER_E_LIMIT_EXCEEDED);
    assert_non_null(strstr(err.message, "100000"));
    pier__rows_release(&rows);

    /* In an array too. */
    text[0] = '[';
    for (size_t i = 0; i < n; i++)
        memcpy(text + 3 * i + 1, "{},", 3);
    text[3 * n] = ']';
    assert_int_equal(read_n(&rows, text, 3 * n + 1, &err),
                     PIER_E_LIMIT_EXCEEDED);
    pier__rows_release(&rows);
    free(text);
}

static void test_batch_bytes_limit(void **state)
{
    (void)state;
    pier_rows rows;
    pier_error err;
    /* Refused before a byte is read: all white space would otherwise be
     * "empty input". */
    size_t n = (size_t)PIER_MAX_BATCH_BYTES + 1;
    char *text = malloc(n);
    assert_non_null(text);
    memset(text, ' ', n);
    pier__rows_init(&rows);
    assert_int_equal(pier__json_rows_read(&rows, text, n, &err),
                     PIER_E_LIMIT_EXCEEDED);
    assert_string_equal(err.message,
                        "input is 67108865 bytes; one write takes at most "
                        "67108864");
    assert_int_equal(rows.nrows, 0);
    /* At the limit, it is read. */
    assert_int_equal(pier__json_rows_read(&rows, text, n - 1, &err),
                     PIER_E_INVALID_JSON);
    assert_int_equal(err.offset, (int64_t)n - 1);
    pier__rows_release(&rows);
    free(text);
}

/* ---- the rest ---- */

static void test_duplicates_kept(void **state)
{
    (void)state;
    /* Names are checked by the insert path, not here. */
    pier_rows rows;
    pier_error err;
    assert_int_equal(read_s(&rows, "{\"a\":1,\"A\":2,\"a\":3,\"\":4,\"_x\":5}",
                            &err), PIER_OK);
    assert_int_equal(rows.nfields, 5);
    assert_name(&rows.fields[1], "A");
    assert_name(&rows.fields[3], "");
    assert_int_equal(rows.fields[2].value.u.i, 3);
    pier__rows_release(&rows);
}

static void test_err_may_be_null(void **state)
{
    (void)state;
    pier_rows rows;
    pier__rows_init(&rows);
    assert_int_equal(pier__json_rows_read(&rows, "{\"a\":[1,}", 9, NULL),
                     PIER_E_INVALID_JSON);
    pier__rows_release(&rows);
    pier__rows_init(&rows);
    assert_int_equal(pier__json_rows_read(&rows, "{\"a\":1", 6, NULL),
                     PIER_E_INVALID_JSON);
    pier__rows_release(&rows);
    pier__rows_init(&rows);
    assert_int_equal(pier__json_rows_read(&rows, NULL, 0, NULL),
                     PIER_E_INVALID_JSON);
    pier__rows_release(&rows);
}

static void test_locale_decimal_point(void **state)
{
    (void)state;
    /* strtod follows LC_NUMERIC; the reader must not. */
    static const char *const locales[] = { "de_DE.UTF-8", "fr_FR.UTF-8",
                                           "de_DE", "C.UTF-8" };
    const char *set = NULL;
    for (size_t i = 0; i < sizeof locales / sizeof *locales && set == NULL;
         i++)
        set = setlocale(LC_NUMERIC, locales[i]);
    expect_double("{\"a\":2.5}", 2.5);
    expect_double("{\"a\":-1.25e2}", -125.0);
    setlocale(LC_NUMERIC, "C");
    if (set == NULL)
        print_message("no other locale installed; ran in C only\n");
}

/* ---- patches (pier_update_many_json) ---- */

static pier_status read_patches_n(pier_rows *rows, const char *text, size_t n,
                                  pier_error *err)
{
    return read_with(pier__json_patches_read, rows, text, n, err);
}

static pier_status read_patches(pier_rows *rows, const char *text,
                                 pier_error *err)
{
    return read_patches_n(rows, text, strlen(text), err);
}

/* Reads `text`, which must be accepted, as patches. */
static void patches_ok(pier_rows *rows, const char *text)
{
    pier_error err;
    if (read_patches(rows, text, &err) != PIER_OK)
        fail_msg("%s: %s", text, err.message);
}

/* Field `k` of row `r` is named `name` and holds the text `text`. */
static void assert_text_field(const pier_rows *rows, size_t r, size_t k,
                              const char *name, const char *text)
{
    assert_true(rows->row_start[r] + k < pier__rows_row_end(rows, r));
    const pier__field *f = &rows->fields[rows->row_start[r] + k];
    assert_name(f, name);
    assert_text(&f->value, PIER_KIND_TEXT, text, strlen(text));
}

/* Reading `text` as patches fails with InvalidJson at `offset`, and the
 * message is exactly "<message> at byte <offset>". */
static void expect_patch_invalid(const char *text, size_t n, int64_t offset,
                                 const char *message)
{
    expect_invalid_with(pier__json_patches_read, text, n, offset, message);
    pier_rows rows;
    pier_error err;
    assert_int_equal(read_patches_n(&rows, text, n, &err),
                     PIER_E_INVALID_JSON);
    pier__rows_release(&rows);
    char want[sizeof err.message];
    snprintf(want, sizeof want, "%s at byte %lld", message,
             (long long)offset);
    if (strcmp(err.message, want) != 0)
        fail_msg("'%s': message '%s', expected '%s'", text, err.message,
                 want);
}

#define PATCH_INVALID(text, offset, message) \
    expect_patch_invalid(text, sizeof(text) - 1, offset, message)

/* Field a and field b are the same name and the same value. */
static void assert_same_field(const pier__field *a, const pier__field *b)
{
    assert_int_equal(a->name_len, b->name_len);
    assert_memory_equal(a->name, b->name, a->name_len);
    assert_int_equal(a->value.kind, b->value.kind);
    switch (a->value.kind) {
    case PIER_KIND_TEXT:
    case PIER_KIND_JSON:
        assert_text(&b->value, a->value.kind, a->value.s, a->value.n);
        break;
    case PIER_KIND_BOOLEAN:
        assert_int_equal(a->value.u.b, b->value.u.b);
        break;
    case PIER_KIND_BIGINT:
        assert_true(a->value.u.i == b->value.u.i);
        break;
    case PIER_KIND_HUGEINT:
        assert_true(a->value.u.h == b->value.u.h);
        break;
    case PIER_KIND_DOUBLE:
        assert_memory_equal(&a->value.u.d, &b->value.u.d, sizeof(double));
        break;
    default:
        break;
    }
}

static void test_patch_one(void **state)
{
    (void)state;
    pier_rows rows;
    const char *elem = "{\"id\":\"a\",\"patch\":{\"n\":1,\"s\":\"x\"}}";
    char text[64];
    snprintf(text, sizeof text, "[%s]", elem);
    patches_ok(&rows, text);
    assert_int_equal(rows.nrows, 1);
    assert_int_equal(rows.nfields, 3);
    assert_int_equal(rows.row_start[0], 0);
    assert_int_equal(pier__rows_row_end(&rows, 0), 3);
    assert_int_equal(rows.row_bytes[0], strlen(elem));
    assert_text_field(&rows, 0, 0, "id", "a");
    assert_name(&rows.fields[1], "n");
    assert_int_equal(rows.fields[1].value.kind, PIER_KIND_BIGINT);
    assert_int_equal(rows.fields[1].value.u.i, 1);
    assert_text_field(&rows, 0, 2, "s", "x");
    pier__rows_release(&rows);
}

static void test_patch_many(void **state)
{
    (void)state;
    pier_rows rows;
    /* Members in either order, white space anywhere, an empty patch; the
     * id is always its row's first field. */
    const char *e0 = "{\"id\":\"a\",\"patch\":{\"x\":true}}";
    const char *e1 = "{ \"patch\" : { \"y\" : null , \"x\" : false } ,\n"
                     "  \"id\" : \"b\" }";
    const char *e2 = "{\"patch\":{},\"id\":\"c\"}";
    const char *e3 = "{\"id\":\"a\",\"patch\":{\"x\":2.5}}";
    char text[256];
    snprintf(text, sizeof text, "\n [ %s,\n%s ,%s\t,  %s ]\r\n", e0, e1, e2,
             e3);
    patches_ok(&rows, text);
    assert_int_equal(rows.nrows, 4);
    assert_int_equal(rows.nfields, 8);
    assert_int_equal(rows.row_start[0], 0);
    assert_int_equal(rows.row_start[1], 2);
    assert_int_equal(rows.row_start[2], 5);
    assert_int_equal(rows.row_start[3], 6);
    assert_int_equal(pier__rows_row_end(&rows, 3), 8);
    assert_int_equal(rows.row_bytes[0], strlen(e0));
    assert_int_equal(rows.row_bytes[1], strlen(e1));
    assert_int_equal(rows.row_bytes[2], strlen(e2));
    assert_int_equal(rows.row_bytes[3], strlen(e3));

    assert_text_field(&rows, 0, 0, "id", "a");
    assert_name(&rows.fields[1], "x");
    assert_int_equal(rows.fields[1].value.kind, PIER_KIND_BOOLEAN);
    assert_true(rows.fields[1].value.u.b);

    assert_text_field(&rows, 1, 0, "id", "b");
    assert_name(&rows.fields[3], "y");
    assert_int_equal(rows.fields[3].value.kind, PIER_KIND_NULL);
    assert_name(&rows.fields[4], "x");
    assert_int_equal(rows.fields[4].value.kind, PIER_KIND_BOOLEAN);
    assert_false(rows.fields[4].value.u.b);

    assert_text_field(&rows, 2, 0, "id", "c");   /* the patch is empty */
    assert_int_equal(pier__rows_row_end(&rows, 2), 6);

    /* Two patches to one id are two rows, in array order. */
    assert_text_field(&rows, 3, 0, "id", "a");
    assert_int_equal(rows.fields[7].value.kind, PIER_KIND_DOUBLE);
    assert_true(rows.fields[7].value.u.d == 2.5);
    pier__rows_release(&rows);
}

static void test_patch_empty_array(void **state)
{
    (void)state;
    static const char *const texts[] = { "[]", " [ \n\t] ", "\r\n[]\n",
                                         "\xEF\xBB\xBF[]" };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        pier_rows rows;
        patches_ok(&rows, texts[i]);
        assert_int_equal(rows.nrows, 0);
        assert_int_equal(rows.nfields, 0);
        pier__rows_release(&rows);
    }
}

static void test_patch_id_last(void **state)
{
    (void)state;
    /* A patch of 100 members before its id: the fields array grows (and
     * moves) while the id's place is held; the id still comes first. */
    enum { MEMBERS = 100 };
    char text[2048];
    size_t k = (size_t)sprintf(text, "[{\"id\":\"first\",\"patch\":{}},"
                                     "{\"patch\":{");
    for (size_t i = 0; i < MEMBERS; i++)
        k += (size_t)sprintf(text + k, "%s\"m%zu\":%zu", i ? "," : "", i, i);
    sprintf(text + k, "},\"id\":\"last\"}]");
    pier_rows rows;
    patches_ok(&rows, text);
    assert_int_equal(rows.nrows, 2);
    assert_int_equal(rows.nfields, 1 + 1 + MEMBERS);
    assert_int_equal(rows.row_start[1], 1);
    assert_text_field(&rows, 0, 0, "id", "first");
    assert_text_field(&rows, 1, 0, "id", "last");
    for (size_t i = 0; i < MEMBERS; i++) {
        const pier__field *f = &rows.fields[2 + i];
        char name[16];
        snprintf(name, sizeof name, "m%zu", i);
        assert_name(f, name);
        assert_int_equal(f->value.kind, PIER_KIND_BIGINT);
        assert_int_equal(f->value.u.i, (int64_t)i);
    }
    const char *second = strstr(text, "},{\"patch\"") + 2;
    assert_int_equal(rows.row_bytes[1], strlen(second) - 1);   /* ']' */
    pier__rows_release(&rows);
}

static void test_patch_values(void **state)
{
    (void)state;
    pier_rows rows;
    /* Nested documents are canonical JSON; big integers are decided as in
     * rows; the id's escapes are decoded. */
    patches_ok(&rows,
               "[{\"id\":\"\\u0061b\\n\",\"patch\":{"
               "\"doc\":{ \"b\" : [1, {\"y\":2,\"x\":1}], \"a\" : null },"
               "\"list\":[ ],"
               "\"max\":9223372036854775807,"
               "\"min\":-9223372036854775808,"
               "\"huge\":9223372036854775808,"
               "\"hmin\":-170141183460469231731687303715884105728,"
               "\"dbl\":340282366920938463463374607431768211456}}]");
    assert_int_equal(rows.nrows, 1);
    assert_int_equal(rows.nfields, 8);
    assert_text_field(&rows, 0, 0, "id", "ab\n");
    const pier__field *f = rows.fields;
    const char *doc = "{\"a\":null,\"b\":[1,{\"x\":1,\"y\":2}]}";
    assert_name(&f[1], "doc");
    assert_text(&f[1].value, PIER_KIND_JSON, doc, strlen(doc));
    assert_text(&f[2].value, PIER_KIND_JSON, "[]", 2);
    assert_int_equal(f[3].value.kind, PIER_KIND_BIGINT);
    assert_true(f[3].value.u.i == INT64_MAX);
    assert_int_equal(f[4].value.kind, PIER_KIND_BIGINT);
    assert_true(f[4].value.u.i == INT64_MIN);
    pier__i128 two63 = (pier__i128)1 << 63;
    pier__i128 max = (pier__i128)(((pier__u128)1 << 127) - 1);
    assert_int_equal(f[5].value.kind, PIER_KIND_HUGEINT);
    assert_true(f[5].value.u.h == two63);
    assert_int_equal(f[6].value.kind, PIER_KIND_HUGEINT);
    assert_true(f[6].value.u.h == -max - 1);
    assert_int_equal(f[7].value.kind, PIER_KIND_DOUBLE);
    assert_true(f[7].value.u.d == 340282366920938463463374607431768211456.0);
    pier__rows_release(&rows);

    /* An empty id is read; whether it names a row is the engine's call. */
    patches_ok(&rows, "[{\"id\":\"\",\"patch\":{}}]");
    assert_text_field(&rows, 0, 0, "id", "");
    pier__rows_release(&rows);
}

static void test_patch_own_id_kept(void **state)
{
    (void)state;
    /* A patch member named id, in any case, stays a field after the
     * element's id: the engine decides whether it conflicts. */
    pier_rows rows;
    patches_ok(&rows, "[{\"patch\":{\"id\":\"b\",\"ID\":1,\"Id\":null},"
                      "\"id\":\"a\"}]");
    assert_int_equal(rows.nfields, 4);
    assert_text_field(&rows, 0, 0, "id", "a");
    assert_text_field(&rows, 0, 1, "id", "b");
    assert_name(&rows.fields[2], "ID");
    assert_int_equal(rows.fields[2].value.u.i, 1);
    assert_name(&rows.fields[3], "Id");
    assert_int_equal(rows.fields[3].value.kind, PIER_KIND_NULL);
    pier__rows_release(&rows);
}

static void test_patch_members_as_rows(void **state)
{
    (void)state;
    /* A patch's members are read exactly as a row's: the same fields. */
    static const char *const objects[] = {
        "{}",
        "{\"n\":1,\"s\":\"caf\\u00e9\\ud83d\\ude00\",\"t\":true,\"f\":false,"
        "\"z\":null,\"d\":-0.125,\"e\":1E+3,\"u\":5e-324,\"neg\":-0.0}",
        "{\"big\":-9223372036854775809,\"dbl\":-1e42,"
        "\"x\":170141183460469231731687303715884105728}",
        "{\"doc\":{\"\":{},\"a\":[1,2.5,{\"d\":null,\"c\":\"}]\\\"\"}]},"
        "\"a\":1,\"A\":2,\"a\":3,\"\":4,\"N\\u0061me\\n\":5}",
    };
    for (size_t i = 0; i < sizeof objects / sizeof *objects; i++) {
        pier_rows want, got;
        pier_error err;
        assert_int_equal(read_s(&want, objects[i], &err), PIER_OK);
        for (int id_first = 0; id_first <= 1; id_first++) {
            char text[512];
            snprintf(text, sizeof text,
                     id_first ? "[{\"id\":\"k\",\"patch\":%s}]"
                              : "[{\"patch\":%s,\"id\":\"k\"}]", objects[i]);
            patches_ok(&got, text);
            assert_int_equal(got.nrows, 1);
            assert_int_equal(got.nfields, want.nfields + 1);
            assert_text_field(&got, 0, 0, "id", "k");
            for (size_t k = 0; k < want.nfields; k++)
                assert_same_field(&want.fields[k], &got.fields[k + 1]);
            assert_int_equal(got.row_bytes[0], strlen(text) - 2);
            pier__rows_release(&got);
        }
        pier__rows_release(&want);
    }
}

static void test_patch_structure_errors(void **state)
{
    (void)state;
    /* The top level: an array, nothing else. */
    PATCH_INVALID("", 0, "empty input");
    PATCH_INVALID(" \n ", 3, "empty input");
    PATCH_INVALID("\xEF\xBB\xBF", 3, "empty input");
    PATCH_INVALID("{\"id\":\"a\",\"patch\":{}}", 0,
                  "expected an array of patches");
    PATCH_INVALID("42", 0, "expected an array of patches");
    PATCH_INVALID("  null", 2, "expected an array of patches");
    PATCH_INVALID("[", 1, "expected a patch object or ']'");
    PATCH_INVALID("[1]", 1, "expected a patch object or ']'");
    PATCH_INVALID("[ [] ]", 2, "expected a patch object or ']'");
    PATCH_INVALID("[{\"id\":\"a\",\"patch\":{}},]", 23,
                  "expected a patch object");
    PATCH_INVALID("[{\"id\":\"a\",\"patch\":{}}, 2]", 24,
                  "expected a patch object");
    PATCH_INVALID("[{\"id\":\"a\",\"patch\":{}} {\"id\":\"b\",\"patch\":{}}]",
                  23, "expected ',' or ']'");
    PATCH_INVALID("[{\"id\":\"a\",\"patch\":{}}", 22, "expected ',' or ']'");
    PATCH_INVALID("[{\"id\":\"a\",\"patch\":{}}] x", 24,
                  "trailing characters after the value");
    PATCH_INVALID("[]\n[]", 3, "trailing characters after the value");
    /* Grammar inside an element: the row reader's messages. */
    PATCH_INVALID("[{\"id\" \"a\"}]", 7, "expected ':'");
    PATCH_INVALID("[{\"id\":\"a\" \"patch\":{}}]", 11, "expected ',' or '}'");
    PATCH_INVALID("[{\"id\":\"a\",\"patch\":{}]", 21, "expected ',' or '}'");
    PATCH_INVALID("[{\"id\":\"a\",\"patch\":{}", 21, "expected ',' or '}'");
    PATCH_INVALID("[{\"id\":\"a\",}]", 11, "expected a member name");
    PATCH_INVALID("[{,}]", 2, "expected a member name");
    PATCH_INVALID("[{id:\"a\"}]", 2, "expected a member name");
    PATCH_INVALID("[{\"id", 2, "unterminated string");
    PATCH_INVALID("[{\"id\":\"a", 7, "unterminated string");
    PATCH_INVALID("[{\"id\":\"\\q\",\"patch\":{}}]", 8, "invalid escape");
    PATCH_INVALID("[{\"id\":\"x\\ud800\",\"patch\":{}}]", 9,
                  "invalid escape: lone surrogate");
    PATCH_INVALID("[{\"id\":\"\xFF\",\"patch\":{}}]", 8,
                  "invalid UTF-8 in string");
    PATCH_INVALID("[{\"id\":\"a\nb\",\"patch\":{}}]", 9,
                  "control character in string");
    PATCH_INVALID("[{\"i\x80\":\"a\",\"patch\":{}}]", 4,
                  "invalid UTF-8 in string");
    /* BOM bytes count. */
    PATCH_INVALID("\xEF\xBB\xBF[{\"id\" 1}]", 10, "expected ':'");
}

static void test_patch_shape_errors(void **state)
{
    (void)state;
    /* Missing members are reported at the element's closing brace. */
    PATCH_INVALID("[{}]", 2, "expected \"id\" and \"patch\" in a patch");
    PATCH_INVALID("[{ \n }]", 5, "expected \"id\" and \"patch\" in a patch");
    PATCH_INVALID("[{\"id\":\"a\"}]", 10, "expected \"patch\" in a patch");
    PATCH_INVALID("[{\"patch\":{}}]", 12, "expected \"id\" in a patch");
    PATCH_INVALID("[{\"patch\":{\"id\":\"a\"}}]", 20,
                  "expected \"id\" in a patch");
    /* The second element fails; the first was read. */
    PATCH_INVALID("[{\"id\":\"a\",\"patch\":{}},{\"id\":\"b\" }]", 33,
                  "expected \"patch\" in a patch");

    /* Any other member, at its name; names are case-sensitive. */
    PATCH_INVALID("[{\"id\":\"a\",\"x\":1,\"patch\":{}}]", 11,
                  "expected only \"id\" and \"patch\" in a patch");
    PATCH_INVALID("[{\"ID\":\"a\",\"patch\":{}}]", 2,
                  "expected only \"id\" and \"patch\" in a patch");
    PATCH_INVALID("[{\"id\":\"a\",\"Patch\":{}}]", 11,
                  "expected only \"id\" and \"patch\" in a patch");
    PATCH_INVALID("[{\"id\":\"a\",\"patch\":{},\"\":1}]", 22,
                  "expected only \"id\" and \"patch\" in a patch");
    PATCH_INVALID("[{\"id \":\"a\",\"patch\":{}}]", 2,
                  "expected only \"id\" and \"patch\" in a patch");
    PATCH_INVALID("[{\"id\\u0000\":\"a\",\"patch\":{}}]", 2,
                  "expected only \"id\" and \"patch\" in a patch");

    /* A duplicate, at its name (an escaped name is the same name). */
    PATCH_INVALID("[{\"id\":\"a\",\"id\":\"b\",\"patch\":{}}]", 11,
                  "duplicate \"id\" in a patch; expected exactly one");
    PATCH_INVALID("[{\"id\":\"a\",\"\\u0069d\":\"b\",\"patch\":{}}]", 11,
                  "duplicate \"id\" in a patch; expected exactly one");
    PATCH_INVALID("[{\"patch\":{},\"id\":\"a\",\"patch\":{\"x\":1}}]", 22,
                  "duplicate \"patch\" in a patch; expected exactly one");

    /* The id must be a string, at its value. */
    PATCH_INVALID("[{\"id\":1,\"patch\":{}}]", 7, "\"id\" must be a string");
    PATCH_INVALID("[{\"id\":null,\"patch\":{}}]", 7,
                  "\"id\" must be a string");
    PATCH_INVALID("[{\"id\":{\"a\":1},\"patch\":{}}]", 7,
                  "\"id\" must be a string");
    PATCH_INVALID("[{\"id\":[\"a\"],\"patch\":{}}]", 7,
                  "\"id\" must be a string");
    PATCH_INVALID("[{\"id\": true,\"patch\":{}}]", 8,
                  "\"id\" must be a string");
    PATCH_INVALID("[{\"id\":}]", 7, "\"id\" must be a string");
    PATCH_INVALID("[{\"patch\":{},\"id\":7}]", 18, "\"id\" must be a string");

    /* The patch must be an object, at its value. */
    PATCH_INVALID("[{\"id\":\"a\",\"patch\":[]}]", 19,
                  "\"patch\" must be an object");
    PATCH_INVALID("[{\"id\":\"a\",\"patch\":null}]", 19,
                  "\"patch\" must be an object");
    PATCH_INVALID("[{\"id\":\"a\",\"patch\":\"x\"}]", 19,
                  "\"patch\" must be an object");
    PATCH_INVALID("[{\"id\":\"a\",\"patch\":1}]", 19,
                  "\"patch\" must be an object");
    PATCH_INVALID("[{\"id\":\"a\",\"patch\": }]", 20,
                  "\"patch\" must be an object");
    PATCH_INVALID("[{\"patch\":[{\"a\":1}],\"id\":\"a\"}]", 10,
                  "\"patch\" must be an object");
}

static void test_patch_member_errors(void **state)
{
    (void)state;
    /* An error inside a patch is the row reader's error on the same
     * object, moved by where the object starts. Each fault lies inside
     * its object, so what follows it does not matter. */
    static const char *const objects[] = {
        "{\"a\" 1}", "{\"a\":}", "{\"a\":1,}", "{,}", "{a:1}",
        "{\"a\":1 \"b\":2}", "{\"a\":1]", "{\"a\":01}", "{\"a\":-01}",
        "{\"a\":1.}", "{\"a\":1e}", "{\"a\":tru}", "{\"a\":nullx}",
        "{\"a\":0x10}", "{\"a\":1e400}", "{\"b\":true,\"a\":-1e400}",
        "{\"a\":\"\\q\"}", "{\"a\":\"\\ud800\"}", "{\"a\":\"x\ty\"}",
        "{\"a\":\"\xC0\x80\"}", "{\"\x80\":1}", "{\"a\":[1,2}",
        "{\"b\":1,\"a\":{\"x\":}}", "{\"a\":{\"x\":\"\\q\"}}", "{\"a\":[01]}",
    };
    static const char *const prefixes[] = {
        "[{\"id\":\"k\",\"patch\":",
        "[ {\"id\":\"a\",\"patch\":{}},\n  { \"patch\" : ",
    };
    static const char *const suffixes[] = { "}]", ",\"id\":\"k\"}]" };
    for (size_t i = 0; i < sizeof objects / sizeof *objects; i++) {
        pier_rows rows;
        pier_error want;
        assert_int_equal(read_s(&rows, objects[i], &want),
                         PIER_E_INVALID_JSON);
        pier__rows_release(&rows);
        const char *at = strstr(want.message, " at byte ");
        assert_non_null(at);
        for (size_t p = 0; p < sizeof prefixes / sizeof *prefixes; p++) {
            char text[256];
            snprintf(text, sizeof text, "%s%s%s", prefixes[p], objects[i],
                     suffixes[p]);
            pier_error err;
            assert_int_equal(read_patches(&rows, text, &err),
                             PIER_E_INVALID_JSON);
            pier__rows_release(&rows);
            int64_t offset = want.offset + (int64_t)strlen(prefixes[p]);
            if (err.offset != offset)
                fail_msg("'%s': offset %lld, expected %lld (%s)", text,
                         (long long)err.offset, (long long)offset,
                         err.message);
            /* The same message, but for the byte number. */
            const char *rest = at + strlen(" at byte ");
            rest += strspn(rest, "0123456789");
            char message[sizeof err.message];
            snprintf(message, sizeof message, "%.*s at byte %lld%s",
                     (int)(at - want.message), want.message,
                     (long long)offset, rest);
            assert_string_equal(err.message, message);
        }
    }
}

/* [{"id":"x","patch":{"big":"aaa..."}}] whose element is exactly `total`
 * bytes long, at `text`. */
static void big_patch(char *text, size_t total)
{
    static const char head[] = "{\"id\":\"x\",\"patch\":{\"big\":\"";
    size_t h = sizeof head - 1;
    memcpy(text, head, h);
    memset(text + h, 'a', total - h - 3);
    memcpy(text + total - 3, "\"}}", 3);
}

static void test_patch_row_limit(void **state)
{
    (void)state;
    pier_rows rows;
    pier_error err;

    /* An element of exactly PIER_MAX_ROW_BYTES bytes is accepted; the
     * array's brackets are not part of it. */
    size_t n = PIER_MAX_ROW_BYTES;
    char *text = malloc(n + 2);
    assert_non_null(text);
    text[0] = '[';
    big_patch(text + 1, n);
    text[n + 1] = ']';
    assert_int_equal(read_patches_n(&rows, text, n + 2, &err), PIER_OK);
    assert_int_equal(rows.nrows, 1);
    assert_int_equal(rows.row_bytes[0], PIER_MAX_ROW_BYTES);
    assert_int_equal(rows.fields[1].value.n, PIER_MAX_ROW_BYTES - 29);
    pier__rows_release(&rows);
    free(text);

    /* One byte more is not; the message names the patch, from 1. */
    static const char first[] = "[{\"id\":\"a\",\"patch\":{}},\n";
    size_t f = sizeof first - 1;
    n = PIER_MAX_ROW_BYTES + 1;
    text = malloc(f + n + 1);
    assert_non_null(text);
    memcpy(text, first, f);
    big_patch(text + f, n);
    text[f + n] = ']';
    assert_int_equal(read_patches_n(&rows, text, f + n + 1, &err),
                     PIER_E_LIMIT_EXCEEDED);
    assert_string_equal(err.tag, "LimitExceeded");
    assert_int_equal(err.offset, -1);
    assert_string_equal(err.message,
                        "patch 2 (at byte 24) is larger than 1048576 bytes, "
                        "the most one patch may take");
    pier__rows_release(&rows);
    free(text);

    /* The id counts as much as the patch: an element whose size is
     * nearly all id is accepted at the limit and refused one byte over. */
    for (n = PIER_MAX_ROW_BYTES; n <= PIER_MAX_ROW_BYTES + 1; n++) {
        static const char head[] = "[{\"id\":\"";
        static const char tail[] = "\",\"patch\":{}}]";
        size_t h = sizeof head - 1, t = sizeof tail - 1;
        size_t total = n + 2;              /* the element and "[...]" */
        text = malloc(total);
        assert_non_null(text);
        memcpy(text, head, h);
        memset(text + h, 'i', total - h - t);
        memcpy(text + total - t, tail, t);
        pier_status rc = read_patches_n(&rows, text, total, &err);
        if (n == PIER_MAX_ROW_BYTES) {
            assert_int_equal(rc, PIER_OK);
            assert_int_equal(rows.row_bytes[0], n);
            assert_int_equal(rows.fields[0].value.n, n - 20);
        } else {
            assert_int_equal(rc, PIER_E_LIMIT_EXCEEDED);
            assert_non_null(strstr(err.message, "patch 1 (at byte 1)"));
        }
        pier__rows_release(&rows);
        free(text);
    }

    /* Many small members before the id fail within the patch. */
    size_t members = PIER_MAX_ROW_BYTES / 8 + 1;
    text = malloc(members * 9 + 64);
    assert_non_null(text);
    size_t k = (size_t)sprintf(text, "[{\"patch\":{");
    for (size_t i = 0; i < members; i++)
        k += (size_t)sprintf(text + k, "%s\"%04zx\":1", i ? "," : "",
                             i % 0x10000);
    k += (size_t)sprintf(text + k, "},\"id\":\"a\"}]");
    assert_int_equal(read_patches_n(&rows, text, k, &err),
                     PIER_E_LIMIT_EXCEEDED);
    assert_non_null(strstr(err.message, "patch 1 (at byte 1)"));
    pier__rows_release(&rows);
    free(text);
}

static void test_patch_batch_limits(void **state)
{
    (void)state;
    pier_rows rows;
    pier_error err;
    static const char elem[] = "{\"id\":\"a\",\"patch\":{}},";
    size_t e = sizeof elem - 1;
    size_t n = (size_t)PIER_MAX_BATCH_ROWS + 1;
    char *text = malloc(e * n + 1);
    assert_non_null(text);
    text[0] = '[';
    for (size_t i = 0; i < n; i++)
        memcpy(text + 1 + e * i, elem, e);
    /* PIER_MAX_BATCH_ROWS patches: the last ',' becomes the ']'. */
    text[e * (n - 1)] = ']';
    assert_int_equal(read_patches_n(&rows, text, e * (n - 1) + 1, &err),
                     PIER_OK);
    assert_int_equal(rows.nrows, PIER_MAX_BATCH_ROWS);
    assert_int_equal(rows.nfields, PIER_MAX_BATCH_ROWS);
    assert_int_equal(rows.row_bytes[PIER_MAX_BATCH_ROWS - 1], e - 1);
    pier__rows_release(&rows);
    /* One more is refused. */
    text[e * (n - 1)] = ',';
    text[e * n] = ']';
    assert_int_equal(read_patches_n(&rows, text, e * n + 1, &err),
                     PIER_E_LIMIT_EXCEEDED);
    assert_non_null(strstr(err.message, "100000"));
    pier__rows_release(&rows);
    free(text);

    /* Text over PIER_MAX_BATCH_BYTES is refused before a byte is read. */
    n = (size_t)PIER_MAX_BATCH_BYTES + 1;
    text = malloc(n);
    assert_non_null(text);
    memset(text, ' ', n);
    pier__rows_init(&rows);
    assert_int_equal(pier__json_patches_read(&rows, text, n, &err),
                     PIER_E_LIMIT_EXCEEDED);
    assert_string_equal(err.message,
                        "input is 67108865 bytes; one write takes at most "
                        "67108864");
    assert_int_equal(pier__json_patches_read(&rows, text, n - 1, &err),
                     PIER_E_INVALID_JSON);
    assert_int_equal(err.offset, (int64_t)n - 1);
    pier__rows_release(&rows);
    free(text);
}

static void test_patch_err_may_be_null(void **state)
{
    (void)state;
    pier_rows rows;
    pier__rows_init(&rows);
    assert_int_equal(pier__json_patches_read(&rows, "[{}]", 4, NULL),
                     PIER_E_INVALID_JSON);
    pier__rows_release(&rows);
    pier__rows_init(&rows);
    assert_int_equal(pier__json_patches_read(&rows, NULL, 0, NULL),
                     PIER_E_INVALID_JSON);
    pier__rows_release(&rows);
    pier_error err;
    pier__rows_init(&rows);
    assert_int_equal(pier__json_patches_read(&rows, NULL, 1, &err),
                     PIER_E_INVALID_ARGUMENT);
    pier__rows_release(&rows);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_object),
        cmocka_unit_test(test_array),
        cmocka_unit_test(test_empty_array),
        cmocka_unit_test(test_json_lines),
        cmocka_unit_test(test_nested_json),
        cmocka_unit_test(test_nesting_depth),
        cmocka_unit_test(test_bom),
        cmocka_unit_test(test_not_nul_terminated),
        cmocka_unit_test(test_literals),
        cmocka_unit_test(test_integers),
        cmocka_unit_test(test_reals),
        cmocka_unit_test(test_number_grammar),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_string_errors),
        cmocka_unit_test(test_structure_errors),
        cmocka_unit_test(test_nested_errors),
        cmocka_unit_test(test_nested_nul),
        cmocka_unit_test(test_row_limit),
        cmocka_unit_test(test_batch_row_limit),
        cmocka_unit_test(test_batch_bytes_limit),
        cmocka_unit_test(test_duplicates_kept),
        cmocka_unit_test(test_err_may_be_null),
        cmocka_unit_test(test_locale_decimal_point),
        cmocka_unit_test(test_patch_one),
        cmocka_unit_test(test_patch_many),
        cmocka_unit_test(test_patch_empty_array),
        cmocka_unit_test(test_patch_id_last),
        cmocka_unit_test(test_patch_values),
        cmocka_unit_test(test_patch_own_id_kept),
        cmocka_unit_test(test_patch_members_as_rows),
        cmocka_unit_test(test_patch_structure_errors),
        cmocka_unit_test(test_patch_shape_errors),
        cmocka_unit_test(test_patch_member_errors),
        cmocka_unit_test(test_patch_row_limit),
        cmocka_unit_test(test_patch_batch_limits),
        cmocka_unit_test(test_patch_err_may_be_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
