/*
 * json_rows.c: the JSON row reader behind pier_insert_json(). It turns one
 * object, an array of objects, or white-space-separated objects (JSON
 * lines) into a pier_rows batch, in a single pass over the text. The same
 * reader takes the array of {"id": ..., "patch": {...}} elements of
 * pier_update_many_json(): each element is one row, its id first, then the
 * patch's members read exactly as a row's.
 *
 * Why not jansson: an integer beyond 64 bits must decide hugeint, and
 * jansson cannot represent one. So the top level (the rows and their
 * members) is read here, and only nested objects and arrays, which are
 * kept as documents, go to pier__json_canonical.
 *
 * Invariants:
 * - The input is `len` bytes and need not be NUL-terminated; nothing reads
 *   past it.
 * - Every offset reported (err->offset and the " at byte N" of a message)
 *   is relative to the start of the whole input, BOM included.
 * - Names and strings are decoded straight into the batch's arena (never
 *   longer than their JSON text), so the fields are pushed as "owned".
 * - A number's text and a nested document's text as written are kept in
 *   its value (pier__value's s and u.doc) pointing into the input: every
 *   caller releases the batch before its input may go (the write calls
 *   read, write and release within one call).
 * - A patch's row starts with its "id" field, whatever the order of the
 *   element's members; the patch's own members follow it, all of them.
 * - On failure the batch may hold the rows read so far; the caller releases
 *   it. Everything this file allocates outside the batch is freed here.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rows.h"

/* Deep enough for any real document, shallow enough that a hostile one
 * cannot make the canonicalizer recurse without bound. */
#define MAX_DEPTH 512

/* An integer of at most 18 digits always fits int64 (which has 19); up to
 * 39 digits it may fit 128 bits (whose limit has 39). */
#define INT64_SAFE_DIGITS 18
#define I128_MAX_DIGITS 39

typedef struct reader reader;

/* What the input holds: rows, or patches. */
typedef struct shape {
    pier_status (*item)(reader *r);  /* reads one element, at its '{' */
    bool lines;             /* may the top level be objects (JSON lines)? */
    const char *noun;       /* "row" or "patch", in limit messages */
    const char *top;        /* expected at the top level */
    const char *first;      /* expected as an array's first element */
    const char *next;       /* expected after an array's ',' */
} shape;

struct reader {
    const char *s;
    size_t n;              /* bytes of input */
    size_t i;              /* the next byte to read */
    const shape *shape;
    pier_rows *rows;
    pier__arena *strings;  /* where strings are decoded: rows->arena, or
                              an operation's own (the ops' arena) */
    pier_error *err;
    pier__buf scratch;     /* number text for strtod; canonical documents */
};

static pier_status bad(reader *r, size_t at, const char *what)
{
    pier__fail(r->err, PIER_E_INVALID_JSON, "%s at byte %zu", what, at);
    if (r->err != NULL)
        r->err->offset = (int64_t)at;
    return PIER_E_INVALID_JSON;
}

static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static void skip_ws(reader *r)
{
    while (r->i < r->n && is_ws(r->s[r->i]))
        r->i++;
}

/* The next byte, or -1 at the end of the input. */
static int peek(const reader *r)
{
    return r->i < r->n ? (unsigned char)r->s[r->i] : -1;
}

/* ---- strings ---- */

/* Four hex digits at s[0..n) as a code unit; false if they are not. */
static bool hex4(const char *s, size_t n, uint32_t *out)
{
    if (n < 4)
        return false;
    uint32_t u = 0;
    for (size_t k = 0; k < 4; k++) {
        char c = s[k];
        uint32_t d;
        if (c >= '0' && c <= '9')
            d = (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (uint32_t)(c - 'A' + 10);
        else
            return false;
        u = u << 4 | d;
    }
    *out = u;
    return true;
}

static size_t utf8_put(char *d, uint32_t cp)
{
    if (cp < 0x80) {
        d[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        d[0] = (char)(0xC0 | cp >> 6);
        d[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        d[0] = (char)(0xE0 | cp >> 12);
        d[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        d[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    d[0] = (char)(0xF0 | cp >> 18);
    d[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    d[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    d[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/*
 * Decodes the escape at s[p] (a backslash) of a string ending at `end`
 * into d; sets *adv to the escape's length in the input and returns the
 * bytes written, or 0 for a bad escape (the error is filled).
 */
static size_t decode_escape(reader *r, size_t p, size_t end, char *d,
                            size_t *adv, pier_status *rc)
{
    const char *s = r->s;
    char c = s[p + 1];     /* exists: the closing quote was found after it */
    *adv = 2;
    switch (c) {
    case '"': *d = '"'; return 1;
    case '\\': *d = '\\'; return 1;
    case '/': *d = '/'; return 1;
    case 'b': *d = '\b'; return 1;
    case 'f': *d = '\f'; return 1;
    case 'n': *d = '\n'; return 1;
    case 'r': *d = '\r'; return 1;
    case 't': *d = '\t'; return 1;
    case 'u': break;
    default:
        *rc = bad(r, p, "invalid escape");
        return 0;
    }
    uint32_t u;
    if (!hex4(s + p + 2, end - (p + 2), &u)) {
        *rc = bad(r, p, "invalid escape: \\u needs four hex digits");
        return 0;
    }
    *adv = 6;
    if (u >= 0xDC00 && u <= 0xDFFF) {
        *rc = bad(r, p, "invalid escape: lone surrogate");
        return 0;
    }
    if (u >= 0xD800 && u <= 0xDBFF) {
        /* A high surrogate is only half a character: the low half must
         * follow at once, or the text is not Unicode. */
        uint32_t lo;
        size_t q = p + 6;
        if (end - q < 6 || s[q] != '\\' || s[q + 1] != 'u' ||
            !hex4(s + q + 2, 4, &lo) || lo < 0xDC00 || lo > 0xDFFF) {
            *rc = bad(r, p, "invalid escape: lone surrogate");
            return 0;
        }
        u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
        *adv = 12;
    }
    return utf8_put(d, u);
}

/*
 * Reads the string whose opening quote is at r->i into the batch's arena
 * (NUL-terminated, for convenience), leaving r->i after the closing quote.
 */
static pier_status read_string(reader *r, const char **out, size_t *out_len)
{
    const char *s = r->s;
    size_t open = r->i;
    /* Find the closing quote first: the decoded text is never longer than
     * the raw one, so one arena allocation of that size holds it. */
    size_t end = open + 1;
    for (;;) {
        if (end >= r->n)
            return bad(r, open, "unterminated string");
        unsigned char c = (unsigned char)s[end];
        if (c == '"')
            break;
        if (c < 0x20)
            return bad(r, end, "control character in string");
        end += c == '\\' ? 2 : 1;
    }
    char *d = pier__arena_alloc(r->strings, end - open);
    if (d == NULL)
        return pier__oom(r->err);
    size_t k = 0;
    size_t p = open + 1;
    while (p < end) {
        unsigned char c = (unsigned char)s[p];
        if (c == '\\') {
            size_t adv;
            pier_status rc = PIER_OK;
            size_t w = decode_escape(r, p, end, d + k, &adv, &rc);
            if (w == 0)
                return rc;
            k += w;
            p += adv;
        } else if (c < 0x80) {
            d[k++] = (char)c;
            p++;
        } else {
            size_t m = pier__utf8_seq(s + p, end - p);
            if (m == 0)
                return bad(r, p, "invalid UTF-8 in string");
            memcpy(d + k, s + p, m);
            k += m;
            p += m;
        }
    }
    d[k] = '\0';
    *out = d;
    *out_len = k;
    r->i = end + 1;
    return PIER_OK;
}

/* ---- numbers ---- */

/* Whether the significand of the number s[0..n) (JSON's grammar) has a
 * digit other than 0. */
static bool has_nonzero_digit(const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i] != 'e' && s[i] != 'E'; i++)
        if (s[i] >= '1' && s[i] <= '9')
            return true;
    return false;
}

/* strtod on s[0..n), which the grammar has already checked, in the "C"
 * locale whatever the application's (base/cnum.c). */
static pier_status read_double(reader *r, size_t start, size_t n, double *out)
{
    pier__buf *b = &r->scratch;
    pier__buf_reset(b);
    pier__buf_append(b, r->s + start, n);
    if (b->oom)
        return pier__oom(r->err);
    char *endp;
    errno = 0;
    double d = pier__strtod(b->p, &endp);
    assert(*endp == '\0');
    /* A subnormal is an approximation like any double; but a number
     * that reads as zero or infinity has lost what it was. */
    if (isinf(d))
        return bad(r, start, "number out of range");
    if (d == 0.0 && has_nonzero_digit(r->s + start, n))
        return bad(r, start, "number out of range: too small for a double, "
                             "it would read as 0");
    *out = d;
    return PIER_OK;
}

/* Reads a number at r->i (a '-' or a digit) by JSON's strict grammar. */
static pier_status read_number(reader *r, pier__value *v)
{
    const char *s = r->s;
    size_t n = r->n;
    size_t start = r->i;
    size_t p = start;
    bool neg = false;
    bool integral = true;
    if (s[p] == '-') {
        neg = true;
        p++;
    }
    if (p >= n || !is_digit(s[p]))
        return bad(r, p, "expected a digit");
    if (s[p] == '0') {
        p++;
        if (p < n && is_digit(s[p]))
            return bad(r, p - 1, "leading zero in a number");
    } else {
        while (p < n && is_digit(s[p]))
            p++;
    }
    size_t ndigits = p - start - (neg ? 1 : 0);
    if (p < n && s[p] == '.') {
        integral = false;
        p++;
        if (p >= n || !is_digit(s[p]))
            return bad(r, p, "expected a digit after '.'");
        while (p < n && is_digit(s[p]))
            p++;
    }
    if (p < n && (s[p] == 'e' || s[p] == 'E')) {
        integral = false;
        p++;
        if (p < n && (s[p] == '+' || s[p] == '-'))
            p++;
        if (p >= n || !is_digit(s[p]))
            return bad(r, p, "expected a digit in the exponent");
        while (p < n && is_digit(s[p]))
            p++;
    }
    r->i = p;
    /* The number as written, for the columns that take it by its digits
     * (a decimal's): the input outlives the batch (see the top). */
    v->s = s + start;
    v->n = p - start;
    if (integral && ndigits <= INT64_SAFE_DIGITS) {
        uint64_t m = 0;
        for (size_t k = start + (neg ? 1 : 0); k < p; k++)
            m = m * 10 + (uint64_t)(s[k] - '0');
        v->kind = PIER_KIND_BIGINT;
        v->u.i = neg ? -(int64_t)m : (int64_t)m;
        return PIER_OK;
    }
    pier__i128 h;
    if (integral && ndigits <= I128_MAX_DIGITS &&
        pier__i128_parse(s + start, p - start, &h)) {
        if (h >= INT64_MIN && h <= INT64_MAX) {
            v->kind = PIER_KIND_BIGINT;
            v->u.i = (int64_t)h;
        } else {
            v->kind = PIER_KIND_HUGEINT;
            v->u.h = h;
        }
        return PIER_OK;
    }
    /* A fraction, an exponent, or an integer beyond 128 bits. */
    v->kind = PIER_KIND_DOUBLE;
    return read_double(r, start, p - start, &v->u.d);
}

/* ---- nested documents ---- */

/*
 * Makes the error pier__json_canonical reported on the span starting at
 * `base` relative to the whole input: the offset, and the " at byte N" in
 * its message (appended if the message has none).
 */
static void relocate(pier_error *err, size_t base)
{
    if (err == NULL)
        return;
    int64_t rel = err->offset >= 0 ? err->offset : 0;
    int64_t abs = rel + (int64_t)base;
    char from[48], to[48];
    snprintf(from, sizeof from, " at byte %" PRId64, rel);
    snprintf(to, sizeof to, " at byte %" PRId64, abs);
    size_t fl = strlen(from);
    size_t ml = strlen(err->message);
    char *hit = NULL;
    for (char *m = strstr(err->message, from); m != NULL;
         m = strstr(m + 1, from)) {
        if (!is_digit(m[fl])) {      /* " at byte 1" must not match 12 */
            hit = m;
            break;
        }
    }
    char msg[sizeof err->message];
    if (hit != NULL) {
        size_t head = (size_t)(hit - err->message);
        snprintf(msg, sizeof msg, "%.*s%s%s", (int)head, err->message, to,
                 hit + fl);
    } else {
        snprintf(msg, sizeof msg, "%.*s%s", (int)ml, err->message, to);
    }
    memcpy(err->message, msg, sizeof msg);
    err->offset = abs;
}

/*
 * Reads the object or array at r->i as a JSON value: finds its end by
 * scanning (strings and escapes respected, depth counted), then has
 * pier__json_canonical validate and canonicalize exactly that span.
 */
static pier_status read_nested(reader *r, pier__value *v)
{
    const char *s = r->s;
    size_t n = r->n;
    size_t start = r->i;
    size_t p = start;
    size_t end = n;        /* stays n if the document never closes */
    int depth = 0;
    while (p < n) {
        char c = s[p];
        if (c == '"') {
            p++;
            while (p < n && s[p] != '"')
                p += s[p] == '\\' ? 2 : 1;
            if (p >= n)
                break;
        } else if (c == '{' || c == '[') {
            if (++depth > MAX_DEPTH)
                return bad(r, p, "nesting too deep");
        } else if (c == '}' || c == ']') {
            if (--depth == 0) {
                end = p + 1;
                break;
            }
        }
        p++;
    }
    /* Brackets that do not match, bad members and an unclosed document are
     * all the canonicalizer's to describe, on the span found. */
    pier__buf *b = &r->scratch;
    pier__buf_reset(b);
    pier_status rc = pier__json_canonical(b, s + start, end - start, r->err);
    if (rc == PIER_E_INVALID_JSON) {
        relocate(r->err, start);
        return rc;
    }
    if (rc != PIER_OK)
        return rc;
    if (b->oom)
        return pier__oom(r->err);
    if (depth != 0)        /* cannot be valid; never trust that it was */
        return bad(r, n, "unexpected end of input");
    char *copy = pier__arena_strndup(r->strings,
                                     b->p != NULL ? b->p : "", b->len);
    if (copy == NULL)
        return pier__oom(r->err);
    v->kind = PIER_KIND_JSON;
    v->s = copy;
    v->n = b->len;
    v->u.doc.p = s + start;             /* as written, for array columns */
    v->u.doc.n = end - start;
    r->i = end;
    return PIER_OK;
}

/* ---- values, rows, the top level ---- */

static bool literal(reader *r, const char *word)
{
    size_t len = strlen(word);
    if (r->n - r->i < len || memcmp(r->s + r->i, word, len) != 0)
        return false;
    r->i += len;
    return true;
}

static pier_status read_value(reader *r, pier__value *v)
{
    memset(v, 0, sizeof *v);
    int c = peek(r);
    switch (c) {
    case '"':
        v->kind = PIER_KIND_TEXT;
        return read_string(r, &v->s, &v->n);
    case '{':
    case '[':
        return read_nested(r, v);
    case 't':
    case 'f':
        if (!literal(r, c == 't' ? "true" : "false"))
            break;
        v->kind = PIER_KIND_BOOLEAN;
        v->u.b = c == 't';
        return PIER_OK;
    case 'n':
        if (!literal(r, "null"))
            break;
        v->kind = PIER_KIND_NULL;
        return PIER_OK;
    default:
        if (c == '-' || (c >= '0' && c <= '9'))
            return read_number(r, v);
        break;
    }
    return bad(r, r->i, "expected a value");
}

/* Rows (and patches) are numbered from 1 in messages, as the insert path
 * numbers them. */
static pier_status too_big(reader *r, size_t row, size_t start)
{
    const char *noun = r->shape->noun;
    return pier__fail(r->err, PIER_E_LIMIT_EXCEEDED,
                      "%s %zu (at byte %zu) is larger than %d bytes, the "
                      "most one %s may take", noun, row + 1, start,
                      PIER_MAX_ROW_BYTES, noun);
}

/*
 * Reads the members of the object at r->i (its '{') as fields of row
 * `row`, the latest, leaving r->i after its '}'. The row's text begins at
 * `start` (before this object, for a patch): the row is refused as soon
 * as it is known to be larger than PIER_MAX_ROW_BYTES.
 */
static pier_status read_members(reader *r, size_t row, size_t start)
{
    r->i++;
    skip_ws(r);
    if (peek(r) == '}') {
        r->i++;
        return PIER_OK;
    }
    bool first = true;
    for (;;) {
        if (peek(r) != '"')
            return bad(r, r->i, first ? "expected a member name or '}'"
                                      : "expected a member name");
        first = false;
        const char *name;
        size_t name_len;
        pier_status rc = read_string(r, &name, &name_len);
        if (rc != PIER_OK)
            return rc;
        skip_ws(r);
        if (peek(r) != ':')
            return bad(r, r->i, "expected ':'");
        r->i++;
        skip_ws(r);
        pier__value v;
        rc = read_value(r, &v);
        if (rc == PIER_OK)
            rc = pier__rows_push_owned(r->rows, name, name_len, &v, r->err);
        if (rc != PIER_OK)
            return rc;
        if (r->i - start > PIER_MAX_ROW_BYTES)
            return too_big(r, row, start);
        skip_ws(r);
        int c = peek(r);
        if (c == '}') {
            r->i++;
            return PIER_OK;
        }
        if (c != ',')
            return bad(r, r->i, "expected ',' or '}'");
        r->i++;
        skip_ws(r);
    }
}

/* Ends row `row`, whose text ran from `start` to r->i: its size. */
static pier_status end_row(reader *r, size_t row, size_t start)
{
    if (r->i - start > PIER_MAX_ROW_BYTES)
        return too_big(r, row, start);
    r->rows->row_bytes[row] = r->i - start;
    return PIER_OK;
}

/* Reads the object at r->i as one row. */
static pier_status read_row(reader *r)
{
    size_t start = r->i;
    size_t row = r->rows->nrows;
    pier_status rc = pier__rows_begin(r->rows, r->err);
    if (rc == PIER_OK)
        rc = read_members(r, row, start);
    if (rc == PIER_OK)
        rc = end_row(r, row, start);
    return rc;
}

/*
 * Reads the object at r->i as one patch, {"id": STRING, "patch": OBJECT}
 * with its members in either order, into one row: the id as its first
 * field, then the patch's members. The id may come last, so its field is
 * pushed first as a placeholder (fields may move as the array grows, hence
 * the index) and filled in when it is read.
 */
static pier_status read_patch(reader *r)
{
    size_t start = r->i;
    size_t row = r->rows->nrows;
    pier_status rc = pier__rows_begin(r->rows, r->err);
    if (rc != PIER_OK)
        return rc;
    pier__value none;
    memset(&none, 0, sizeof none);
    none.kind = PIER_KIND_NULL;
    rc = pier__rows_push_owned(r->rows, "id", 2, &none, r->err);
    if (rc != PIER_OK)
        return rc;
    size_t id_field = r->rows->nfields - 1;
    bool have_id = false;
    bool have_patch = false;
    r->i++;
    skip_ws(r);
    if (peek(r) != '}') {
        for (;;) {
            if (peek(r) != '"')
                return bad(r, r->i, "expected a member name");
            size_t at = r->i;
            const char *name;
            size_t name_len;
            rc = read_string(r, &name, &name_len);
            if (rc != PIER_OK)
                return rc;
            bool is_id = name_len == 2 && memcmp(name, "id", 2) == 0;
            bool is_patch = name_len == 5 && memcmp(name, "patch", 5) == 0;
            if (!is_id && !is_patch)
                return bad(r, at,
                           "expected only \"id\" and \"patch\" in a patch");
            if (is_id ? have_id : have_patch)
                return bad(r, at, is_id ? "duplicate \"id\" in a patch; "
                                          "expected exactly one"
                                        : "duplicate \"patch\" in a patch; "
                                          "expected exactly one");
            skip_ws(r);
            if (peek(r) != ':')
                return bad(r, r->i, "expected ':'");
            r->i++;
            skip_ws(r);
            if (is_id) {
                if (peek(r) != '"')
                    return bad(r, r->i, "\"id\" must be a string");
                pier__field *f = &r->rows->fields[id_field];
                f->name = name;    /* "id", decoded into the arena */
                rc = read_string(r, &f->value.s, &f->value.n);
                if (rc != PIER_OK)
                    return rc;
                f->value.kind = PIER_KIND_TEXT;
                have_id = true;
            } else {
                if (peek(r) != '{')
                    return bad(r, r->i, "\"patch\" must be an object");
                rc = read_members(r, row, start);
                if (rc != PIER_OK)
                    return rc;
                have_patch = true;
            }
            if (r->i - start > PIER_MAX_ROW_BYTES)
                return too_big(r, row, start);
            skip_ws(r);
            int c = peek(r);
            if (c == '}')
                break;
            if (c != ',')
                return bad(r, r->i, "expected ',' or '}'");
            r->i++;
            skip_ws(r);
        }
    }
    /* At the closing brace: what is missing is reported there. */
    if (!have_id || !have_patch)
        return bad(r, r->i, !have_id && !have_patch
                                ? "expected \"id\" and \"patch\" in a patch"
                                : !have_id ? "expected \"id\" in a patch"
                                           : "expected \"patch\" in a patch");
    r->i++;
    return end_row(r, row, start);
}

/* An array of elements (rows or patches), at r->i, up to its ']'. */
static pier_status read_elements(reader *r)
{
    r->i++;
    skip_ws(r);
    if (peek(r) == ']') {
        r->i++;
    } else {
        bool first = true;
        for (;;) {
            if (peek(r) != '{')
                return bad(r, r->i, first ? r->shape->first
                                          : r->shape->next);
            first = false;
            pier_status rc = r->shape->item(r);
            if (rc != PIER_OK)
                return rc;
            skip_ws(r);
            int c = peek(r);
            if (c == ']') {
                r->i++;
                break;
            }
            if (c != ',')
                return bad(r, r->i, "expected ',' or ']'");
            r->i++;
            skip_ws(r);
        }
    }
    return PIER_OK;
}

/* Nothing but white space from r->i to the end. */
static pier_status read_end(reader *r)
{
    skip_ws(r);
    if (r->i < r->n)
        return bad(r, r->i, "trailing characters after the value");
    return PIER_OK;
}

/* The whole input is an array of elements. */
static pier_status read_array(reader *r)
{
    pier_status rc = read_elements(r);
    return rc == PIER_OK ? read_end(r) : rc;
}

/* One object, or several separated by white space (JSON lines). */
static pier_status read_lines(reader *r)
{
    for (;;) {
        pier_status rc = read_row(r);
        if (rc != PIER_OK)
            return rc;
        size_t after = r->i;
        skip_ws(r);
        if (r->i == r->n)
            return PIER_OK;
        if (peek(r) != '{')
            return bad(r, r->i, "trailing characters after the value");
        if (r->i == after)
            return bad(r, r->i, "expected white space between objects");
    }
}

static const shape rows_shape = {
    .item = read_row,
    .lines = true,
    .noun = "row",
    .top = "expected an object or an array of objects",
    .first = "expected an object or ']'",
    .next = "expected an object",
};

static const shape patches_shape = {
    .item = read_patch,
    .lines = false,
    .noun = "patch",
    .top = "expected an array of patches",
    .first = "expected a patch object or ']'",
    .next = "expected a patch object",
};

static pier_status read_input(pier_rows *rows, const char *json, size_t len,
                              const shape *sh, pier_error *err)
{
    assert(rows->nrows == 0 && rows->nfields == 0);
    /* Checked before reading a byte: the limit exists so that no write
     * makes the engine hold more than this much text and its rows. */
    if (len > PIER_MAX_BATCH_BYTES)
        return pier__fail(err, PIER_E_LIMIT_EXCEEDED,
                          "input is %zu bytes; one write takes at most %d",
                          len, PIER_MAX_BATCH_BYTES);
    if (json == NULL && len > 0)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "json is NULL");
    reader r = { .s = json != NULL ? json : "", .n = len, .i = 0,
                 .shape = sh, .rows = rows, .strings = &rows->arena,
                 .err = err };
    pier__buf_init(&r.scratch);
    /* Editors on some systems start UTF-8 files with a byte order mark. */
    if (len >= 3 && memcmp(json, "\xEF\xBB\xBF", 3) == 0)
        r.i = 3;
    skip_ws(&r);
    pier_status rc;
    int c = peek(&r);
    if (c == -1)
        rc = bad(&r, r.i, "empty input");
    else if (c == '[')
        rc = read_array(&r);
    else if (c == '{' && sh->lines)
        rc = read_lines(&r);
    else
        rc = bad(&r, r.i, sh->top);
    pier__buf_free(&r.scratch);
    return rc;
}

pier_status pier__json_rows_read(pier_rows *rows, const char *json,
                                 size_t len, pier_error *err)
{
    return read_input(rows, json, len, &rows_shape, err);
}

pier_status pier__json_patches_read(pier_rows *rows, const char *json,
                                    size_t len, pier_error *err)
{
    return read_input(rows, json, len, &patches_shape, err);
}

/* ---- a transaction's operations ---- */

/* The members an operation may have, and the bit of each. */
enum { M_OP, M_BOARD, M_ID, M_IDS, M_ROWS, M_PATCH, M_COUNT };
static const char *const member_names[M_COUNT] = {
    "op", "board", "id", "ids", "rows", "patch",
};
static const char *const op_names[] = { "insert", "upsert", "update",
                                        "delete" };
/* The members each kind takes besides "op" and "board". */
static const unsigned op_members[] = {
    [PIER__OP_INSERT] = 1u << M_ROWS,
    [PIER__OP_UPSERT] = 1u << M_ROWS,
    [PIER__OP_UPDATE] = 1u << M_ID | 1u << M_PATCH,
    [PIER__OP_DELETE] = 1u << M_IDS,
};

void pier__ops_init(pier__ops *ops)
{
    memset(ops, 0, sizeof *ops);
    pier__arena_init(&ops->arena);
}

void pier__ops_release(pier__ops *ops)
{
    for (size_t i = 0; i < ops->nops; i++)
        pier_rows_free(ops->ops[i].rows);
    free(ops->ops);
    pier__arena_free(&ops->arena);
    pier__ops_init(ops);
}

/* What the value at r->i is, for a message. */
static const char *value_noun(const reader *r)
{
    int c = peek(r);
    switch (c) {
    case '{': return "an object";
    case '[': return "an array";
    case '"': return "a string";
    case 't':
    case 'f': return "a boolean";
    case 'n': return "null";
    default:
        return c == '-' || (c >= '0' && c <= '9') ? "a number" : "a value";
    }
}

static pier_status bad_op(reader *r, size_t at, const char *fmt, ...)
    PIER__PRINTF(3, 4);

/* InvalidJson at byte `at`; the caller names the operation. */
static pier_status bad_op(reader *r, size_t at, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return bad(r, at, what);
}

/* A string member: a string without U+0000 (it becomes a C string). */
static pier_status op_string(reader *r, const char *name, const char **out)
{
    size_t at = r->i;
    if (peek(r) != '"')
        return bad_op(r, at, "member '%s' must be a string, got %s", name,
                      value_noun(r));
    size_t n = 0;
    pier_status rc = read_string(r, out, &n);
    if (rc == PIER_OK && strlen(*out) != n)
        return bad_op(r, at, "member '%s' may not hold \\u0000", name);
    return rc;
}

/* "ids": an array of strings without U+0000, into o->ids (the arena). */
static pier_status op_ids(reader *r, pier__ops *ops, pier__op *o)
{
    if (peek(r) != '[')
        return bad_op(r, r->i, "member 'ids' must be an array, got %s",
                      value_noun(r));
    const char **ids = NULL;
    size_t n = 0, cap = 0;
    pier_status rc = PIER_OK;
    r->i++;
    skip_ws(r);
    bool first = true;
    while (rc == PIER_OK && peek(r) != ']') {
        if (!first) {
            if (peek(r) != ',') {
                rc = bad(r, r->i, "expected ',' or ']'");
                break;
            }
            r->i++;
            skip_ws(r);
        }
        first = false;
        size_t at = r->i;
        if (peek(r) != '"') {
            rc = bad_op(r, at, "member 'ids' must hold strings, got %s "
                        "(element %zu)", value_noun(r), n + 1);
            break;
        }
        if (n == cap) {
            cap = cap == 0 ? 16 : cap * 2;
            const char **grown = cap <= SIZE_MAX / sizeof *ids
                                     ? realloc(ids, cap * sizeof *ids)
                                     : NULL;
            if (grown == NULL) {
                rc = pier__oom(r->err);
                break;
            }
            ids = grown;
        }
        size_t len = 0;
        rc = read_string(r, &ids[n], &len);
        if (rc == PIER_OK && strlen(ids[n]) != len)
            rc = bad_op(r, at, "member 'ids' may not hold \\u0000 "
                        "(element %zu)", n + 1);
        n++;
        skip_ws(r);
    }
    if (rc == PIER_OK) {
        r->i++;                                    /* the ']' */
        o->nids = n;
        o->ids = n > 0 ? pier__arena_alloc(&ops->arena, n * sizeof *ids)
                       : NULL;
        if (n > 0 && o->ids == NULL)
            rc = pier__oom(r->err);
        else if (n > 0)
            memcpy(o->ids, ids, n * sizeof *ids);
    }
    free(ids);
    return rc;
}

/* "rows" (an array of objects) or "patch" (one object) into o->rows, read
 * as pier__json_rows_read reads rows. */
static pier_status op_rows(reader *r, pier__op *o, bool patch)
{
    const char *name = patch ? "patch" : "rows";
    if (peek(r) != (patch ? '{' : '['))
        return bad_op(r, r->i, "member '%s' must be %s, got %s", name,
                      patch ? "an object" : "an array", value_noun(r));
    pier_rows *saved_rows = r->rows;
    pier__arena *saved_strings = r->strings;
    r->rows = o->rows;
    r->strings = &o->rows->arena;
    pier_status rc = patch ? read_row(r) : read_elements(r);
    r->rows = saved_rows;
    r->strings = saved_strings;
    return rc;
}

/* Reads the operation object at r->i into o, and checks it. */
static pier_status read_op(reader *r, pier__ops *ops, pier__op *o)
{
    size_t at[M_COUNT];            /* where each member's name is */
    unsigned seen = 0;
    const char *kind = NULL;
    size_t kind_at = 0;
    const char *unknown = NULL;    /* the first member of no known name */
    size_t unknown_at = 0;
    pier_status rc = PIER_OK;
    r->i++;
    skip_ws(r);
    bool first = true;
    while (peek(r) != '}') {
        if (!first) {
            if (peek(r) != ',')
                return bad(r, r->i, "expected ',' or '}'");
            r->i++;
            skip_ws(r);
        }
        if (peek(r) != '"')
            return bad(r, r->i, first ? "expected a member name or '}'"
                                      : "expected a member name");
        first = false;
        size_t name_at = r->i;
        const char *name = NULL;
        size_t name_len = 0;
        rc = read_string(r, &name, &name_len);
        if (rc != PIER_OK)
            return rc;
        size_t m = 0;
        while (m < M_COUNT && !(strlen(member_names[m]) == name_len &&
                                memcmp(member_names[m], name, name_len) ==
                                    0))
            m++;
        if (m < M_COUNT && (seen & 1u << m))
            return bad_op(r, name_at, "member '%s' appears twice",
                          member_names[m]);
        skip_ws(r);
        if (peek(r) != ':')
            return bad(r, r->i, "expected ':'");
        r->i++;
        skip_ws(r);
        switch (m) {
        case M_OP:
            kind_at = r->i;
            rc = op_string(r, "op", &kind);
            break;
        case M_BOARD:
            rc = op_string(r, "board", &o->board);
            break;
        case M_ID:
            rc = op_string(r, "id", &o->id);
            break;
        case M_IDS:
            rc = op_ids(r, ops, o);
            break;
        case M_ROWS:
        case M_PATCH:
            rc = op_rows(r, o, m == M_PATCH);
            break;
        default: {
            /* Read (so that a later error is found where it is), then
             * reported once the op's kind is known. */
            pier__value ignored;
            rc = read_value(r, &ignored);
            if (unknown == NULL) {
                unknown = name;
                unknown_at = name_at;
            }
            break;
        }
        }
        if (rc != PIER_OK)
            return rc;
        if (m < M_COUNT) {
            seen |= 1u << m;
            at[m] = name_at;
        }
        skip_ws(r);
    }
    size_t close = r->i++;
    /* What is missing is reported at the closing brace. */
    if (kind == NULL)
        return bad_op(r, close, "missing member 'op'");
    size_t k = 0;
    while (k < 4 && strcmp(kind, op_names[k]) != 0)
        k++;
    if (k == 4) {
        char q[64];
        size_t qn = 0;
        for (const char *p = kind; *p != '\0' && qn < 40; p++)
            q[qn++] = (unsigned char)*p < 0x20 ? '?' : *p;
        q[qn] = '\0';
        return bad_op(r, kind_at, "unknown op \"%s%s\": expected insert, "
                      "upsert, update or delete", q,
                      kind[qn] != '\0' ? "..." : "");
    }
    o->kind = (pier__op_kind)k;
    if (o->board == NULL)
        return bad_op(r, close, "missing member 'board'");
    for (size_t m = 0; m < M_COUNT; m++)
        if ((op_members[k] & 1u << m) && !(seen & 1u << m))
            return bad_op(r, close, "missing member '%s'", member_names[m]);
    /* A known member this kind does not take, or an unknown one: the
     * first of them in the text. */
    const char *extra = unknown;
    size_t extra_at = unknown_at;
    for (size_t m = M_ID; m < M_COUNT; m++)
        if ((seen & 1u << m) && !(op_members[k] & 1u << m) &&
            (extra == NULL || at[m] < extra_at)) {
            extra = member_names[m];
            extra_at = at[m];
        }
    if (extra != NULL) {
        char q[64];
        size_t qn = 0;
        for (const char *p = extra; *p != '\0' && qn < 40; p++)
            q[qn++] = (unsigned char)*p < 0x20 ? '?' : *p;
        q[qn] = '\0';
        return bad_op(r, extra_at, "unknown member '%s' in a%s %s operation",
                      q, k == PIER__OP_DELETE ? "" : "n", op_names[k]);
    }
    return PIER_OK;
}

/* Appends " (operation N)" to a failure about operation `k` (from 0). */
static void name_op(pier_error *err, size_t k)
{
    if (err == NULL)
        return;
    size_t n = strlen(err->message);
    snprintf(err->message + n, sizeof err->message - n, " (operation %zu)",
             k + 1);
}

static pier_status read_ops(reader *r, pier__ops *ops)
{
    if (peek(r) != '[')
        return bad_op(r, r->i, "the operations must be a JSON array, got %s",
                      value_noun(r));
    r->i++;
    skip_ws(r);
    if (peek(r) == ']') {
        r->i++;
        return read_end(r);
    }
    for (size_t k = 0;; k++) {
        if (peek(r) != '{') {
            pier_status rc = bad_op(r, r->i, "an operation must be an "
                                    "object, got %s", value_noun(r));
            name_op(r->err, k);
            return rc;
        }
        if (ops->nops == ops->cap) {
            size_t cap = ops->cap == 0 ? 8 : ops->cap * 2;
            pier__op *grown = realloc(ops->ops, cap * sizeof *grown);
            if (grown == NULL)
                return pier__oom(r->err);
            ops->ops = grown;
            ops->cap = cap;
        }
        pier__op *o = &ops->ops[ops->nops];
        memset(o, 0, sizeof *o);
        if ((o->rows = pier_rows_new()) == NULL)
            return pier__oom(r->err);
        ops->nops++;
        pier_status rc = read_op(r, ops, o);
        if (rc != PIER_OK) {
            name_op(r->err, k);
            return rc;
        }
        skip_ws(r);
        int c = peek(r);
        if (c == ']') {
            r->i++;
            return read_end(r);
        }
        if (c != ',')
            return bad(r, r->i, "expected ',' or ']'");
        r->i++;
        skip_ws(r);
    }
}

pier_status pier__json_ops_read(pier__ops *ops, const char *json, size_t len,
                                pier_error *err)
{
    assert(ops->nops == 0);
    if (len > PIER_MAX_BATCH_BYTES)
        return pier__fail(err, PIER_E_LIMIT_EXCEEDED,
                          "the operations are %zu bytes; a transaction's "
                          "document takes at most %d", len,
                          PIER_MAX_BATCH_BYTES);
    if (json == NULL && len > 0)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "json is NULL");
    reader r = { .s = json != NULL ? json : "", .n = len, .i = 0,
                 .shape = &rows_shape, .rows = NULL,
                 .strings = &ops->arena, .err = err };
    pier__buf_init(&r.scratch);
    if (len >= 3 && memcmp(json, "\xEF\xBB\xBF", 3) == 0)
        r.i = 3;
    skip_ws(&r);
    pier_status rc = peek(&r) == -1 ? bad(&r, r.i, "empty input")
                                    : read_ops(&r, ops);
    pier__buf_free(&r.scratch);
    return rc;
}
