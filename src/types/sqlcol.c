/*
 * sqlcol.c: a declared table's column: each SQL type's storage type,
 * collation and public kind, which stored values are values of the type
 * (what _pier_fit checks), how a stored value decodes to its canonical
 * form, and a decoded value as JSON.
 *
 * A scalar's text forms are codecs.h's: this file decides which storage
 * classes each type takes and reads them through those parsers, so that a
 * CHECK, a read and a collation (collate.c) never disagree about what a
 * text means.
 *
 * JSON (a JSON column, and the arrays T[] and T[][]) is read by a
 * validating scanner of its own, not by jansson: jansson refuses integers
 * beyond 64 bits and reals beyond a double's range, which RFC 8259 allows,
 * and keeps a number only as an int64 or a double, where an element of an
 * INT128[] or DECIMAL(38,10)[] needs its exact digits. The scanner holds
 * RFC 8259's grammar exactly, with two limits of its own: containers nest
 * at most JSON_MAX_DEPTH deep, and a \u escape must name a character (a
 * lone surrogate is refused, as jansson refuses it). Duplicate object keys
 * are allowed: a JSON column keeps its document as written and never looks
 * inside it.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "types/sqlcol.h"

/* Room for the longest canonical scalar text: an interval's. */
#define SCALAR_BUF PIER__INTERVAL_BUF

/* As deep as SQLite's own JSON functions nest (JSON_MAX_DEPTH there). */
#define JSON_MAX_DEPTH 1000

/* The longest string element, once unescaped, of a type spelled by a
 * short text (a UUID, a date, a decimal...) that holds a \ escape; one
 * without escapes is read where it stands, at any length. */
#define ELEMENT_BUF 256

/* ---- the types ---- */

typedef struct base_info {
    const char *storage;     /* the STRICT storage type */
    const char *collation;   /* NULL: BINARY */
    pier_kind kind;          /* the public kind of a value */
    bool checked;            /* whether the storage type alone is not the
                                type */
    const char *wrong;       /* why a stored value that is not one is not */
    const char *element;     /* why an array element that is not one is
                                not */
} base_info;

static const base_info bases[] = {
    [PIER__B_INT8] = { "INTEGER", NULL, PIER_KIND_TINYINT, true,
        "an INT8 is an integer",
        "an element is not an INT8 (a JSON integer from -128 to 127) or "
        "null" },
    [PIER__B_INT16] = { "INTEGER", NULL, PIER_KIND_SMALLINT, true,
        "an INT16 is an integer",
        "an element is not an INT16 (a JSON integer from -32768 to 32767) "
        "or null" },
    [PIER__B_INT32] = { "INTEGER", NULL, PIER_KIND_INTEGER, true,
        "an INT32 is an integer",
        "an element is not an INT32 (a JSON integer of 32 bits) or null" },
    [PIER__B_INT64] = { "INTEGER", NULL, PIER_KIND_BIGINT, false,
        "an INT64 is an integer",
        "an element is not an INT64 (a JSON integer of 64 bits) or null" },
    [PIER__B_UINT8] = { "INTEGER", NULL, PIER_KIND_UNSIGNED, true,
        "a UINT8 is an integer",
        "an element is not a UINT8 (a JSON integer from 0 to 255) or "
        "null" },
    [PIER__B_UINT16] = { "INTEGER", NULL, PIER_KIND_UNSIGNED, true,
        "a UINT16 is an integer",
        "an element is not a UINT16 (a JSON integer from 0 to 65535) or "
        "null" },
    [PIER__B_UINT32] = { "INTEGER", NULL, PIER_KIND_UNSIGNED, true,
        "a UINT32 is an integer",
        "an element is not a UINT32 (a JSON integer from 0 to 4294967295) "
        "or null" },
    [PIER__B_UINT64] = { "TEXT", "pier_numeric", PIER_KIND_UNSIGNED, true,
        "a UINT64 is digits (like 42), or an integer",
        "an element is not a UINT64 (a JSON integer or a string of digits, "
        "0 to 18446744073709551615) or null" },
    [PIER__B_INT128] = { "TEXT", "pier_numeric", PIER_KIND_HUGEINT, true,
        "an INT128 is digits with an optional '-' (like -42), or an "
        "integer",
        "an element is not an INT128 (a JSON integer or a string of "
        "digits, of 128 bits) or null" },
    [PIER__B_FLOAT32] = { "REAL", NULL, PIER_KIND_FLOAT, true,
        "a FLOAT32 is a number",
        "an element is not a FLOAT32 (a JSON number within a float's "
        "range) or null" },
    [PIER__B_DOUBLE] = { "REAL", NULL, PIER_KIND_DOUBLE, false,
        "a DOUBLE is a number",
        "an element is not a DOUBLE (a JSON number within a double's "
        "range) or null" },
    [PIER__B_DECIMAL] = { "TEXT", "pier_numeric", PIER_KIND_DECIMAL, true,
        "a decimal is text like 12.50, or a number",
        "an element is not a decimal of the column's precision and scale "
        "(a JSON number or string) or null" },
    [PIER__B_TEXT] = { "TEXT", NULL, PIER_KIND_TEXT, false,
        "a TEXT is text",
        "an element is not a string or null" },
    [PIER__B_VARCHAR] = { "TEXT", NULL, PIER_KIND_TEXT, true,
        "a VARCHAR is text",
        "an element is not a string within the column's length, or null" },
    [PIER__B_ENUM] = { "TEXT", NULL, PIER_KIND_TEXT, true,
        "an ENUM is text, one of its labels",
        "an element is not one of the labels (a string) or null" },
    [PIER__B_BOOLEAN] = { "INTEGER", NULL, PIER_KIND_BOOLEAN, true,
        "a BOOLEAN is 0 or 1",
        "an element is not true, false or null" },
    [PIER__B_BLOB] = { "BLOB", NULL, PIER_KIND_BLOB, false,
        "a BLOB is bytes",
        "an element is not a BLOB (a string of hex digits, two a byte) or "
        "null" },
    [PIER__B_UUID] = { "TEXT", "pier_uuid", PIER_KIND_UUID, true,
        "a UUID is text like 123e4567-e89b-12d3-a456-426614174000",
        "an element is not a UUID (a string) or null" },
    [PIER__B_INSTANT] = { "TEXT", "pier_instant", PIER_KIND_TIMESTAMP, true,
        "an instant is RFC 3339 text with Z or an offset, like "
        "2026-03-01T10:00:00Z, in the years 0001 to 9999",
        "an element is not an instant (an RFC 3339 string with Z or an "
        "offset) or null" },
    [PIER__B_DATE] = { "TEXT", NULL, PIER_KIND_DATE, true,
        "a date is text like 2026-03-01",
        "an element is not a date (a string YYYY-MM-DD) or null" },
    [PIER__B_TIME] = { "TEXT", "pier_time", PIER_KIND_TIME, true,
        "a time is text like 10:00:00",
        "an element is not a time (a string HH:MM:SS, no zone) or null" },
    [PIER__B_DATETIME] = { "TEXT", "pier_datetime", PIER_KIND_DATETIME, true,
        "a datetime is text like 2026-03-01T10:00:00",
        "an element is not a datetime (a string, no zone) or null" },
    [PIER__B_INTERVAL] = { "TEXT", "pier_interval", PIER_KIND_INTERVAL, true,
        "an interval is text like P1Y2M3DT4H5M6.5S",
        "an element is not an interval (an ISO 8601 duration string) or "
        "null" },
    /* Neither is ever an array's element type (pier__sqltype_parse). */
    [PIER__B_JSON] = { "TEXT", NULL, PIER_KIND_JSON, true,
        "a JSON value is text", "an element of JSON is not a type" },
    [PIER__B_ANY] = { "ANY", NULL, PIER_KIND_NULL, false,
        "any value is one of ANY", "an element of ANY is not a type" },
    /* Bytes here; that they read as a changeset is the lake's check
     * (SQLite's changeset reader, in _pier_fit). */
    [PIER__B_CHANGESET] = { "BLOB", NULL, PIER_KIND_BLOB, true,
        "a CHANGESET is the bytes of a changeset",
        "an element of CHANGESET is not a type" },
};

const char *pier__coltype_storage(const pier__coltype *c)
{
    return c->t.dims > 0 ? "TEXT" : bases[c->t.base].storage;
}

const char *pier__coltype_collation(const pier__coltype *c)
{
    return c->t.dims > 0 ? "pier_json_compact" : bases[c->t.base].collation;
}

bool pier__coltype_checked(const pier__coltype *c)
{
    return c->t.dims > 0 || bases[c->t.base].checked;
}

pier_kind pier__coltype_kind(const pier__coltype *c)
{
    return c->t.dims > 0 ? PIER_KIND_ARRAY : bases[c->t.base].kind;
}

/* ---- integers ---- */

static bool is_unsigned(pier__base b)
{
    return b >= PIER__B_UINT8 && b <= PIER__B_UINT64;
}

/* The range of the integer type `b` (INT8 .. INT128) and why a value
 * outside it is not one. */
static const char *int_bounds(pier__base b, pier__i128 *lo, pier__i128 *hi)
{
    *lo = 0;
    switch (b) {
    case PIER__B_INT8:
        *lo = INT8_MIN;
        *hi = INT8_MAX;
        return "out of range for INT8";
    case PIER__B_INT16:
        *lo = INT16_MIN;
        *hi = INT16_MAX;
        return "out of range for INT16";
    case PIER__B_INT32:
        *lo = INT32_MIN;
        *hi = INT32_MAX;
        return "out of range for INT32";
    case PIER__B_INT64:
        *lo = INT64_MIN;
        *hi = INT64_MAX;
        return "out of range for INT64";
    case PIER__B_UINT8:
        *hi = UINT8_MAX;
        return "out of range for UINT8";
    case PIER__B_UINT16:
        *hi = UINT16_MAX;
        return "out of range for UINT16";
    case PIER__B_UINT32:
        *hi = UINT32_MAX;
        return "out of range for UINT32";
    case PIER__B_UINT64:
        *hi = UINT64_MAX;
        return "out of range for UINT64";
    default:                        /* INT128 */
        *hi = (pier__i128)(((pier__u128)1 << 127) - 1);
        *lo = -*hi - 1;
        return "out of range for INT128";
    }
}

/* Whether `v` is within the range of the integer type `b`, or why not. */
static const char *int_in_range(pier__base b, pier__i128 v)
{
    pier__i128 lo, hi;
    const char *why = int_bounds(b, &lo, &hi);
    return v < lo || v > hi ? why : NULL;
}

/* An integer type's value spelled as text: digits with an optional '-'
 * (never for an unsigned type, not even "-0"), within the type's range. */
static const char *read_integer(pier__base b, const char *s, size_t n,
                                pier__i128 *out)
{
    bool negative = n > 0 && s[0] == '-';
    if (n == (size_t)negative)
        return bases[b].wrong;
    for (size_t k = negative; k < n; k++)
        if (s[k] < '0' || s[k] > '9')
            return bases[b].wrong;
    pier__i128 lo, hi;
    const char *range = int_bounds(b, &lo, &hi);
    if ((negative && is_unsigned(b)) || !pier__i128_parse(s, n, out))
        return range;                   /* digits: it can only overflow */
    return *out < lo || *out > hi ? range : NULL;
}

/* ---- a scalar value, read from a cell or an array element ---- */

typedef struct scalar {
    union {
        pier__i128 h;         /* every integer type */
        double d;             /* FLOAT32 (rounded to a float), DOUBLE */
        pier__decimal dec;
        unsigned char uuid[16];
        int32_t days;         /* DATE */
        int64_t us;           /* INSTANT, TIME, DATETIME */
        pier__interval iv;
        bool b;               /* BOOLEAN */
    } u;
    const char *s;            /* TEXT, VARCHAR, ENUM, JSON: the text;
                                 BLOB: the bytes, or an element's hex */
    size_t n;
} scalar;

static const char *json_check(const char *s, size_t n);

static const char *varchar_check(const char *s, size_t n, int64_t length)
{
    int64_t chars = 0;
    size_t i = 0;
    while (i < n) {
        size_t len = (unsigned char)s[i] < 0x80 ? 1
                                                : pier__utf8_seq(s + i, n - i);
        if (len == 0)
            return "not valid UTF-8";
        i += len;
        if (++chars > length)
            return "longer than the column's length";
    }
    return NULL;
}

static const char *enum_check(const pier__coltype *c, const char *s,
                              size_t n)
{
    const char *label = c->labels;
    for (size_t k = 0; k < c->t.nlabels; k++) {
        size_t len = strlen(label);
        if (len == n && memcmp(label, s, n) == 0)
            return NULL;
        label += len + 1;
    }
    return "not one of the labels";
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* A value of a type spelled as text: a TEXT cell's, or a string element's
 * (BLOB: hex digits, only as an element). */
static const char *read_text(const pier__coltype *c, const char *s,
                             size_t n, scalar *v)
{
    pier__base b = c->t.base;
    v->s = s;
    v->n = n;
    switch (b) {
    case PIER__B_UINT64:
    case PIER__B_INT128:
        return read_integer(b, s, n, &v->u.h);
    case PIER__B_DECIMAL:
        return pier__decimal_parse(s, n, c->t.precision, c->t.scale,
                                   &v->u.dec);
    case PIER__B_TEXT:
        return NULL;
    case PIER__B_VARCHAR:
        return varchar_check(s, n, c->t.length);
    case PIER__B_ENUM:
        return enum_check(c, s, n);
    case PIER__B_BLOB:
        if (n % 2 != 0)
            return bases[b].element;
        for (size_t i = 0; i < n; i++)
            if (hex_value(s[i]) < 0)
                return bases[b].element;
        return NULL;
    case PIER__B_UUID:
        return pier__uuid_parse(s, n, v->u.uuid);
    case PIER__B_INSTANT:
        return pier__timestamp_parse(s, n, &v->u.us) ? NULL : bases[b].wrong;
    case PIER__B_DATE:
        return pier__date_parse(s, n, &v->u.days);
    case PIER__B_TIME:
        return pier__time_parse(s, n, &v->u.us);
    case PIER__B_DATETIME:
        return pier__datetime_parse(s, n, &v->u.us);
    case PIER__B_INTERVAL:
        return pier__interval_parse(s, n, &v->u.iv);
    case PIER__B_JSON:
        return json_check(s, n);
    default:
        return bases[b].wrong;
    }
}

/* Whether a TEXT cell may be a value of a scalar of base `b`. */
static bool takes_text(pier__base b)
{
    switch (b) {
    case PIER__B_UINT64: case PIER__B_INT128: case PIER__B_DECIMAL:
    case PIER__B_TEXT: case PIER__B_VARCHAR: case PIER__B_ENUM:
    case PIER__B_UUID: case PIER__B_INSTANT: case PIER__B_DATE:
    case PIER__B_TIME: case PIER__B_DATETIME: case PIER__B_INTERVAL:
    case PIER__B_JSON:
        return true;
    default:
        return false;
    }
}

/* Half a unit in the last place above FLT_MAX: a double below it rounds
 * to a finite float (at most FLT_MAX, whose own text "3.4028235e+38" is
 * such a double), one at or above it to infinity. */
#define FLOAT32_LIMIT 0x1.ffffffp127

static const char *read_float(pier__base b, double d, scalar *v)
{
    if (b == PIER__B_FLOAT32) {
        if (!isfinite(d) || fabs(d) >= FLOAT32_LIMIT)
            return "out of range for FLOAT32";
        /* (a nonzero value nearer 0 than the least float would read as
         * 0: refused as one too large is) */
        if (d != 0 && (float)d == 0)
            return "too near 0 for FLOAT32 (it would read as 0)";
        d = (double)(float)d;
    }
    v->u.d = d;
    return NULL;
}

/* The value of a non-null cell of a scalar column other than ANY. */
static const char *read_cell(const pier__coltype *c, const pier__cell *cell,
                             scalar *v)
{
    pier__base b = c->t.base;
    memset(v, 0, sizeof *v);
    switch (cell->st) {
    case PIER__ST_INT:
        if (b <= PIER__B_INT128) {
            v->u.h = cell->i;
            return int_in_range(b, cell->i);
        }
        if (b == PIER__B_BOOLEAN) {
            v->u.b = cell->i == 1;
            return cell->i == 0 || cell->i == 1 ? NULL : bases[b].wrong;
        }
        if (b == PIER__B_FLOAT32 || b == PIER__B_DOUBLE)
            return read_float(b, (double)cell->i, v);
        if (b == PIER__B_DECIMAL) {       /* read by its digits */
            char digits[PIER__I128_BUF];
            size_t n = pier__i128_format(cell->i, digits);
            return read_text(c, digits, n, v);
        }
        return bases[b].wrong;
    case PIER__ST_REAL:
        if (b == PIER__B_FLOAT32 || b == PIER__B_DOUBLE)
            return read_float(b, cell->d, v);
        if (b == PIER__B_DECIMAL) {
            /* Read by its shortest text that reads back as the same
             * double (0.30000000000000004, not SQLite's 15 digits); an
             * infinity reads "inf" and is refused. */
            char text[PIER__DOUBLE_BUF];
            size_t n = isfinite(cell->d)
                ? pier__double_format(cell->d, text)
                : (size_t)pier__snprintf_c(text, sizeof text, "%g",
                                           cell->d);
            return read_text(c, text, n, v);
        }
        return bases[b].wrong;
    case PIER__ST_TEXT:
        if (!takes_text(b))
            return bases[b].wrong;
        return read_text(c, cell->p != NULL ? cell->p : "", cell->n, v);
    case PIER__ST_BLOB:
        if (b != PIER__B_BLOB && b != PIER__B_CHANGESET)
            return bases[b].wrong;
        v->s = cell->p != NULL ? cell->p : "";
        v->n = cell->n;
        return NULL;
    default:
        return NULL;                      /* a null is a value of any type */
    }
}

/* Whether the canonical text of base `b` is a JSON number (or literal)
 * inside an array, rather than a string. */
static bool bare_in_json(pier__base b)
{
    return b <= PIER__B_DOUBLE || b == PIER__B_BOOLEAN;
}

/* The canonical text of a scalar whose text is not its stored bytes
 * (everything but TEXT, VARCHAR, ENUM, JSON and BLOB). */
static size_t scalar_format(pier__base b, const scalar *v,
                            char out[SCALAR_BUF])
{
    switch (b) {
    case PIER__B_FLOAT32:
        return pier__float_format((float)v->u.d, out);
    case PIER__B_DOUBLE:
        return pier__double_format(v->u.d, out);
    case PIER__B_DECIMAL:
        return pier__decimal_format(v->u.dec, out);
    case PIER__B_BOOLEAN:
        memcpy(out, v->u.b ? "true" : "false", v->u.b ? 5 : 6);
        return v->u.b ? 4 : 5;
    case PIER__B_UUID:
        return pier__uuid_format(v->u.uuid, out);
    case PIER__B_INSTANT:
        return pier__timestamp_format(v->u.us, out);
    case PIER__B_DATE:
        return pier__date_format(v->u.days, out);
    case PIER__B_TIME:
        return pier__time_format(v->u.us, out);
    case PIER__B_DATETIME:
        return pier__datetime_format(v->u.us, out);
    case PIER__B_INTERVAL:
        return pier__interval_format(v->u.iv, out);
    default:                          /* the integers */
        return pier__i128_format(v->u.h, out);
    }
}

/* Fills out->as for a scalar of base `b`. */
static void scalar_public(pier__base b, const scalar *v, pier_value *out)
{
    switch (b) {
    case PIER__B_INT8: case PIER__B_INT16: case PIER__B_INT32:
    case PIER__B_INT64:
        out->as.integer = (int64_t)v->u.h;
        break;
    case PIER__B_UINT8: case PIER__B_UINT16: case PIER__B_UINT32:
    case PIER__B_UINT64:
        out->as.unsigned_integer = (uint64_t)v->u.h;
        break;
    case PIER__B_INT128:
        out->as.hugeint = pier__i128_to_public(v->u.h);
        break;
    case PIER__B_FLOAT32: case PIER__B_DOUBLE:
        out->as.real = v->u.d;
        break;
    case PIER__B_DECIMAL:
        out->as.decimal.unscaled = pier__i128_to_public(v->u.dec.unscaled);
        out->as.decimal.scale = v->u.dec.scale;
        break;
    case PIER__B_BOOLEAN:
        out->as.boolean = v->u.b;
        break;
    case PIER__B_BLOB:
    case PIER__B_CHANGESET:
        out->as.blob.bytes = v->s;
        out->as.blob.len = v->n;
        break;
    case PIER__B_UUID:
        memcpy(out->as.uuid, v->u.uuid, 16);
        break;
    case PIER__B_INSTANT:
        out->as.timestamp_us = v->u.us;
        break;
    case PIER__B_DATE:
        out->as.date_days = v->u.days;
        break;
    case PIER__B_TIME:
        out->as.time_us = v->u.us;
        break;
    case PIER__B_DATETIME:
        out->as.datetime_us = v->u.us;
        break;
    case PIER__B_INTERVAL:
        out->as.interval.months = v->u.iv.months;
        out->as.interval.days = v->u.iv.days;
        out->as.interval.micros = v->u.iv.us;
        break;
    default:                          /* TEXT, VARCHAR, ENUM, JSON */
        break;
    }
}

/* ---- scanning JSON ---- */

static const char bad_json[] = "not valid JSON";

typedef struct jscan {
    const char *s;
    size_t n;
    size_t i;                 /* the next byte to read */
} jscan;

/* A string token: the bytes between its quotes. */
typedef struct jstring {
    const char *p;
    size_t n;
    bool escaped;             /* holds a \ escape */
    size_t chars;             /* code points, once unescaped */
} jstring;

static void skip_ws(jscan *j)
{
    while (j->i < j->n && (j->s[j->i] == ' ' || j->s[j->i] == '\t' ||
                           j->s[j->i] == '\n' || j->s[j->i] == '\r'))
        j->i++;
}

/* Four hex digits at s[at]. */
static bool hex4(const char *s, size_t n, size_t at, unsigned *out)
{
    if (n < 4 || at > n - 4)
        return false;
    unsigned v = 0;
    for (size_t k = at; k < at + 4; k++) {
        int h = hex_value(s[k]);
        if (h < 0)
            return false;
        v = v << 4 | (unsigned)h;
    }
    *out = v;
    return true;
}

/* The string at j->s[j->i] == '"', validated: escapes, UTF-8, no control
 * characters; j->i moves past its closing quote. */
static bool scan_string(jscan *j, jstring *out)
{
    const char *s = j->s;
    size_t n = j->n, i = j->i + 1;
    out->p = s + i;
    out->escaped = false;
    out->chars = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"') {
            out->n = (size_t)(s + i - out->p);
            j->i = i + 1;
            return true;
        }
        out->chars++;
        if (c >= 0x20 && c < 0x80 && c != '\\') {
            i++;
            continue;
        }
        if (c < 0x20)
            return false;
        if (c >= 0x80) {
            size_t len = pier__utf8_seq(s + i, n - i);
            if (len == 0)
                return false;
            i += len;
            continue;
        }
        out->escaped = true;
        if (i + 1 >= n)
            return false;
        switch (s[i + 1]) {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n':
        case 'r': case 't':
            i += 2;
            continue;
        case 'u':
            break;
        default:
            return false;
        }
        unsigned u, lo;
        if (!hex4(s, n, i + 2, &u))
            return false;
        i += 6;
        if (u >= 0xDC00 && u <= 0xDFFF)
            return false;                 /* a lone low surrogate */
        if (u >= 0xD800 && u <= 0xDBFF) { /* needs its low half */
            if (i + 1 >= n || s[i] != '\\' || s[i + 1] != 'u' ||
                !hex4(s, n, i + 2, &lo) || lo < 0xDC00 || lo > 0xDFFF)
                return false;
            i += 6;
        }
    }
    return false;
}

/* The next character of a validated string's bytes at p[*k], unescaped,
 * as UTF-8 into out; returns its length. */
static size_t unescape_next(const char *p, size_t n, size_t *k, char out[4])
{
    size_t i = *k;
    if (p[i] != '\\') {
        size_t len = (unsigned char)p[i] < 0x80 ? 1
                                                : pier__utf8_seq(p + i, n - i);
        memcpy(out, p + i, len);
        *k = i + len;
        return len;
    }
    char e = p[i + 1];
    *k = i + 2;
    switch (e) {
    case 'b': out[0] = '\b'; return 1;
    case 'f': out[0] = '\f'; return 1;
    case 'n': out[0] = '\n'; return 1;
    case 'r': out[0] = '\r'; return 1;
    case 't': out[0] = '\t'; return 1;
    case 'u': break;
    default: out[0] = e; return 1;         /* " \ / */
    }
    unsigned cp = 0, lo = 0;
    hex4(p, n, i + 2, &cp);
    *k = i + 6;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        hex4(p, n, i + 8, &lo);
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        *k = i + 12;
    }
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Whether a validated string, unescaped, is `label` (NUL-terminated). */
static bool jstring_is(const jstring *str, const char *label)
{
    size_t k = 0, at = 0;
    char ch[4];
    while (k < str->n) {
        size_t len = unescape_next(str->p, str->n, &k, ch);
        for (size_t x = 0; x < len; x++, at++)
            if (label[at] == '\0' || label[at] != ch[x])
                return false;
    }
    return label[at] == '\0';
}

/* A validated string, unescaped, into buf; SIZE_MAX if it passes cap. */
static size_t unescape_into(const jstring *str, char *buf, size_t cap)
{
    size_t k = 0, len = 0;
    char ch[4];
    while (k < str->n) {
        size_t m = unescape_next(str->p, str->n, &k, ch);
        if (m > cap - len)
            return SIZE_MAX;
        memcpy(buf + len, ch, m);
        len += m;
    }
    return len;
}

/* A number at j->s[j->i]; *integer: without a fraction or exponent. */
static bool scan_number(jscan *j, bool *integer)
{
    const char *s = j->s;
    size_t n = j->n, i = j->i;
    if (i < n && s[i] == '-')
        i++;
    if (i < n && s[i] == '0') {
        i++;
    } else if (i < n && s[i] >= '1' && s[i] <= '9') {
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
    } else {
        return false;
    }
    *integer = true;
    if (i < n && s[i] == '.') {
        size_t start = ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == start)
            return false;
        *integer = false;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t start = i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == start)
            return false;
        *integer = false;
    }
    j->i = i;
    return true;
}

static bool scan_literal(jscan *j, const char *word, size_t len)
{
    if (j->n - j->i < len || memcmp(j->s + j->i, word, len) != 0)
        return false;
    j->i += len;
    return true;
}

/* A string, number, true, false or null at j->s[j->i]. */
static bool scan_scalar(jscan *j)
{
    jstring str;
    bool integer;
    switch (j->s[j->i]) {
    case '"': return scan_string(j, &str);
    case 't': return scan_literal(j, "true", 4);
    case 'f': return scan_literal(j, "false", 5);
    case 'n': return scan_literal(j, "null", 4);
    default: return scan_number(j, &integer);
    }
}

/* An object's key and its colon, after '{' or ','. */
static bool scan_key(jscan *j)
{
    jstring key;
    skip_ws(j);
    if (j->i >= j->n || j->s[j->i] != '"' || !scan_string(j, &key))
        return false;
    skip_ws(j);
    if (j->i >= j->n || j->s[j->i] != ':')
        return false;
    j->i++;
    return true;
}

/* One value, iteratively: a bit a level says whether the container open
 * there is an object. */
static const char *scan_value(jscan *j)
{
    unsigned char object[JSON_MAX_DEPTH / 8 + 1];
    size_t depth = 0;
    for (;;) {
        skip_ws(j);
        if (j->i >= j->n)
            return bad_json;
        char c = j->s[j->i];
        if (c == '{' || c == '[') {
            if (depth == JSON_MAX_DEPTH)
                return "not valid JSON: nested more than 1000 deep";
            unsigned char bit = (unsigned char)(1u << (depth % 8));
            if (c == '{')
                object[depth / 8] |= bit;
            else
                object[depth / 8] &= (unsigned char)~bit;
            depth++;
            j->i++;
            skip_ws(j);
            if (j->i >= j->n || j->s[j->i] != (c == '{' ? '}' : ']')) {
                if (c == '{' && !scan_key(j))
                    return bad_json;
                continue;                 /* its first value */
            }
            j->i++;                       /* empty: closed at once */
            depth--;
        } else if (!scan_scalar(j)) {
            return bad_json;
        }
        /* After a value: a comma, or the ends of the containers it
         * completes. */
        for (;;) {
            if (depth == 0)
                return NULL;
            skip_ws(j);
            if (j->i >= j->n)
                return bad_json;
            bool in_object = object[(depth - 1) / 8] >> ((depth - 1) % 8) & 1;
            char d = j->s[j->i++];
            if (d == ',') {
                if (in_object && !scan_key(j))
                    return bad_json;
                break;
            }
            if (d != (in_object ? '}' : ']'))
                return bad_json;
            depth--;
        }
    }
}

/* Whether s[0..n) is one JSON text (RFC 8259), or why not. */
static const char *json_check(const char *s, size_t n)
{
    jscan j = { s, n, 0 };
    const char *why = scan_value(&j);
    if (why != NULL)
        return why;
    skip_ws(&j);
    return j.i == n ? NULL : bad_json;
}

const char *pier__json_check(const char *s, size_t n)
{
    return json_check(s, n);
}

/* ---- arrays ---- */

typedef struct walk {
    jscan j;
    const pier__coltype *c;
    pier__buf *out;           /* the canonical text; NULL: only checking */
} walk;

static void put(walk *w, const char *s, size_t n)
{
    if (w->out != NULL)
        pier__buf_append(w->out, s, n);
}

/* A text element in its canonical JSON form: pier__buf_json_string's
 * escapes, applied to the unescaped string. */
static void put_string(walk *w, const jstring *str)
{
    if (w->out == NULL)
        return;
    if (!str->escaped) {              /* nothing in it needs an escape */
        pier__buf_putc(w->out, '"');
        pier__buf_append(w->out, str->p, str->n);
        pier__buf_putc(w->out, '"');
        return;
    }
    pier__buf tmp;
    pier__buf_init(&tmp);
    size_t k = 0;
    char ch[4];
    while (k < str->n) {
        size_t len = unescape_next(str->p, str->n, &k, ch);
        pier__buf_append(&tmp, ch, len);
    }
    if (tmp.oom)
        w->out->oom = true;
    else
        pier__buf_json_string(w->out, tmp.p != NULL ? tmp.p : "", tmp.len);
    pier__buf_free(&tmp);
}

/* A scalar element's canonical text: bare for numbers and booleans,
 * quoted for the rest (whose canonical texts need no escapes). */
static void put_scalar(walk *w, const scalar *v)
{
    pier__base b = w->c->t.base;
    if (w->out == NULL)
        return;
    if (b == PIER__B_BLOB) {          /* uppercase hex */
        pier__buf_putc(w->out, '"');
        for (size_t i = 0; i < v->n; i++) {
            char c = v->s[i];
            pier__buf_putc(w->out, c >= 'a' ? (char)(c - 32) : c);
        }
        pier__buf_putc(w->out, '"');
        return;
    }
    char text[SCALAR_BUF];
    size_t n = scalar_format(b, v, text);
    bool bare = bare_in_json(b);
    if (!bare)
        pier__buf_putc(w->out, '"');
    pier__buf_append(w->out, text, n);
    if (!bare)
        pier__buf_putc(w->out, '"');
}

static const char *string_element(walk *w, const jstring *str)
{
    const pier__coltype *c = w->c;
    pier__base b = c->t.base;
    const char *wrong = bases[b].element;
    switch (b) {
    case PIER__B_TEXT:
        break;
    case PIER__B_VARCHAR:
        if (str->chars > (uint64_t)c->t.length)
            return wrong;
        break;
    case PIER__B_ENUM: {
        if (!str->escaped) {
            if (enum_check(c, str->p, str->n) != NULL)
                return wrong;
            break;
        }
        const char *label = c->labels;
        size_t k = 0;
        for (; k < c->t.nlabels && !jstring_is(str, label); k++)
            label += strlen(label) + 1;
        if (k == c->t.nlabels)
            return wrong;
        break;
    }
    case PIER__B_UINT64: case PIER__B_INT128: case PIER__B_DECIMAL:
    case PIER__B_BLOB: case PIER__B_UUID: case PIER__B_INSTANT:
    case PIER__B_DATE: case PIER__B_TIME: case PIER__B_DATETIME:
    case PIER__B_INTERVAL: {
        char buf[ELEMENT_BUF];
        const char *p = str->p;
        size_t n = str->n;
        if (str->escaped) {
            n = unescape_into(str, buf, sizeof buf);
            if (n == SIZE_MAX)
                return wrong;
            p = buf;
        }
        scalar v;
        if (read_text(c, p, n, &v) != NULL)
            return wrong;
        put_scalar(w, &v);
        return NULL;
    }
    default:
        return wrong;
    }
    put_string(w, str);
    return NULL;
}

/* A number element, s[start .. j->i). */
static const char *number_element(walk *w, size_t start, bool integer)
{
    jscan *j = &w->j;
    pier__base b = w->c->t.base;
    const char *s = j->s + start;
    size_t n = j->i - start;
    const char *wrong = bases[b].element;
    scalar v;
    memset(&v, 0, sizeof v);
    switch (b) {
    case PIER__B_FLOAT32:
    case PIER__B_DOUBLE: {
        /* strtod stops where the number does only if a byte follows that
         * ends it; inside an array one must (white space, ',' or ']'). */
        char next = j->i < j->n ? j->s[j->i] : 'x';
        if (next != ' ' && next != '\t' && next != '\n' && next != '\r' &&
            next != ',' && next != ']')
            return bad_json;
        char *end;
        double d = pier__strtod(s, &end);
        if (end != s + n || read_float(b, d, &v) != NULL ||
            !isfinite(d))
            return wrong;
        break;
    }
    case PIER__B_DECIMAL:
        if (pier__decimal_parse(s, n, w->c->t.precision, w->c->t.scale,
                                &v.u.dec) != NULL)
            return wrong;
        break;
    default:
        if (b > PIER__B_INT128 || !integer ||
            read_integer(b, s, n, &v.u.h) != NULL)
            return wrong;
        break;
    }
    put_scalar(w, &v);
    return NULL;
}

/* An element of a one-dimensional array (not null) at j->s[j->i]. */
static const char *element(walk *w)
{
    jscan *j = &w->j;
    pier__base b = w->c->t.base;
    size_t start = j->i;
    char c = j->s[j->i];
    if (c == '"') {
        jstring str;
        if (!scan_string(j, &str))
            return bad_json;
        return string_element(w, &str);
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        bool integer;
        if (!scan_number(j, &integer))
            return bad_json;
        return number_element(w, start, integer);
    }
    if (c == 't' || c == 'f') {
        bool t = c == 't';
        if (!scan_literal(j, t ? "true" : "false", t ? 4 : 5))
            return bad_json;
        if (b != PIER__B_BOOLEAN)
            return bases[b].element;
        put(w, t ? "true" : "false", t ? 4 : 5);
        return NULL;
    }
    return c == '[' || c == '{' ? bases[b].element : bad_json;
}

/* The array at j->s[j->i] == '[', of `dims` dimensions. */
static const char *walk_array(walk *w, int dims)
{
    jscan *j = &w->j;
    j->i++;
    put(w, "[", 1);
    skip_ws(j);
    if (j->i < j->n && j->s[j->i] == ']') {
        j->i++;
        put(w, "]", 1);
        return NULL;
    }
    for (;;) {
        skip_ws(j);
        if (j->i >= j->n)
            return bad_json;
        const char *why = NULL;
        if (j->s[j->i] == 'n') {
            if (!scan_literal(j, "null", 4))
                return bad_json;
            put(w, "null", 4);
        } else if (dims > 1) {
            if (j->s[j->i] != '[')
                return "an element is not an array or null (the type has "
                       "two dimensions)";
            why = walk_array(w, dims - 1);
        } else {
            why = element(w);
        }
        if (why != NULL)
            return why;
        skip_ws(j);
        if (j->i >= j->n)
            return bad_json;
        char d = j->s[j->i++];
        if (d == ']') {
            put(w, "]", 1);
            return NULL;
        }
        if (d != ',')
            return bad_json;
        put(w, ",", 1);
    }
}

/* Checks an array column's stored value, writing its canonical text to
 * `out` when given. */
static const char *array_read(const pier__coltype *c,
                              const pier__cell *cell, pier__buf *out)
{
    if (cell->st != PIER__ST_TEXT)
        return "an array is stored as JSON text";
    walk w = { { cell->p != NULL ? cell->p : "", cell->n, 0 }, c, out };
    skip_ws(&w.j);
    if (w.j.i >= w.j.n || w.j.s[w.j.i] != '[')
        return "not a JSON array";
    const char *why = walk_array(&w, c->t.dims);
    if (why != NULL)
        return why;
    skip_ws(&w.j);
    return w.j.i == w.j.n ? NULL : bad_json;
}

/* ---- fit and decode ---- */

const char *pier__coltype_fit(const pier__coltype *c, const pier__cell *v)
{
    if (v->st == PIER__ST_NULL || c->t.base == PIER__B_ANY)
        return NULL;
    if (c->t.dims > 0)
        return array_read(c, v, NULL);
    scalar s;
    return read_cell(c, v, &s);
}

/* A stored text that is its own canonical text: the cell's bytes, which
 * end with a NUL (SQLite's text does). */
static void borrow_text(pier_value *out, const pier__cell *cell)
{
    if (cell->p == NULL || cell->n == 0) {
        out->text = "";
        out->len = 0;
        return;
    }
    assert(cell->p[cell->n] == '\0');
    out->text = cell->p;
    out->len = cell->n;
}

static pier__fit hex_text(pier_value *out, const char *p, size_t n,
                          pier__arena *a)
{
    static const char hex[] = "0123456789ABCDEF";
    char *text = pier__arena_alloc(a, 2 * n + 1);
    if (text == NULL)
        return PIER__FIT_OOM;
    for (size_t i = 0; i < n; i++) {
        unsigned char byte = (unsigned char)p[i];
        text[2 * i] = hex[byte >> 4];
        text[2 * i + 1] = hex[byte & 15];
    }
    text[2 * n] = '\0';
    out->text = text;
    out->len = 2 * n;
    return PIER__FIT_OK;
}

static pier__fit decode_any(pier_value *out, const pier__cell *v,
                            pier__arena *a)
{
    char buf[SCALAR_BUF];
    size_t n;
    switch (v->st) {
    case PIER__ST_INT:
        out->kind = PIER_KIND_BIGINT;
        out->as.integer = v->i;
        n = pier__i128_format(v->i, buf);
        break;
    case PIER__ST_REAL:
        out->kind = PIER_KIND_DOUBLE;
        out->as.real = v->d;
        n = pier__double_format(v->d, buf);
        break;
    case PIER__ST_TEXT:
        out->kind = PIER_KIND_TEXT;
        borrow_text(out, v);
        return PIER__FIT_OK;
    default:
        out->kind = PIER_KIND_BLOB;
        out->as.blob.bytes = v->p != NULL ? v->p : "";
        out->as.blob.len = v->n;
        return hex_text(out, out->as.blob.bytes, v->n, a);
    }
    char *text = pier__arena_strndup(a, buf, n);
    if (text == NULL)
        return PIER__FIT_OOM;
    out->text = text;
    out->len = n;
    return PIER__FIT_OK;
}

static pier__fit decode_array(pier_value *out, const pier__coltype *c,
                              const pier__cell *v, pier__arena *a)
{
    pier__buf b;
    pier__buf_init(&b);
    pier__fit fit = PIER__FIT_OK;
    if (array_read(c, v, &b) != NULL) {
        fit = PIER__FIT_CONFLICT;
    } else if (b.oom) {
        fit = PIER__FIT_OOM;
    } else {
        char *text = pier__arena_strndup(a, b.p, b.len);
        if (text == NULL) {
            fit = PIER__FIT_OOM;
        } else {
            out->kind = PIER_KIND_ARRAY;
            out->text = text;
            out->len = b.len;
        }
    }
    pier__buf_free(&b);
    return fit;
}

pier__fit pier__coltype_decode(pier_value *out, const pier__coltype *c,
                               const pier__cell *v, pier__arena *a)
{
    pier_value r;
    memset(&r, 0, sizeof r);
    pier__fit fit = PIER__FIT_OK;
    pier__base b = c->t.base;
    if (v->st == PIER__ST_NULL) {
        r.kind = PIER_KIND_NULL;
    } else if (c->t.dims > 0) {
        fit = decode_array(&r, c, v, a);
    } else if (b == PIER__B_ANY) {
        fit = decode_any(&r, v, a);
    } else {
        scalar s;
        if (read_cell(c, v, &s) != NULL)
            return PIER__FIT_CONFLICT;
        r.kind = bases[b].kind;
        scalar_public(b, &s, &r);
        if (b == PIER__B_TEXT || b == PIER__B_VARCHAR ||
            b == PIER__B_ENUM || b == PIER__B_JSON) {
            borrow_text(&r, v);
        } else if (b == PIER__B_BLOB || b == PIER__B_CHANGESET) {
            fit = hex_text(&r, s.s, s.n, a);
        } else {
            char buf[SCALAR_BUF];
            size_t n = scalar_format(b, &s, buf);
            r.text = pier__arena_strndup(a, buf, n);
            r.len = n;
            if (r.text == NULL)
                fit = PIER__FIT_OOM;
        }
    }
    if (fit == PIER__FIT_OK)
        *out = r;
    return fit;
}

void pier__value_json(pier__buf *b, const pier_value *v)
{
    if (v->kind == PIER_KIND_NULL || v->text == NULL) {
        pier__buf_append(b, "null", 4);
        return;
    }
    switch (v->kind) {
    case PIER_KIND_FLOAT:
    case PIER_KIND_DOUBLE:    /* an infinity's text is 9e999 */
    case PIER_KIND_BOOLEAN:
    case PIER_KIND_TINYINT:
    case PIER_KIND_SMALLINT:
    case PIER_KIND_INTEGER:
    case PIER_KIND_BIGINT:
    case PIER_KIND_HUGEINT:
    case PIER_KIND_UNSIGNED:
        pier__buf_append(b, v->text, v->len);
        return;
    case PIER_KIND_JSON:
    case PIER_KIND_ARRAY:
        pier__json_embed(b, v->text, v->len);   /* the file may be damaged */
        return;
    default:
        pier__buf_json_string(b, v->text, v->len);
        return;
    }
}
