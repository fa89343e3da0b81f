/*
 * value.c: values meeting columns. Encodes a writer's value for a column
 * (or refuses it), and decodes stored cells back to logical values, as
 * public pier_values, as JSON or as text.
 *
 * Invariant: a cell of a column of type T is an encoding of a value of T
 * or of a type below T (a column widens without rewriting its numeric
 * cells), so decoding dispatches on the column's type and the cell's
 * storage class together. Anything else is a corrupt or foreign cell.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "types/types.h"

/* Room for the longest scalar text: a hugeint's 40 digits and sign. */
#define SCALAR_BUF PIER__I128_BUF

/* A logical value: a decoded cell (kind: its column's) or a writer's value
 * (kind: its own). Which member is set follows the kind. */
typedef struct logical {
    pier_kind kind;
    bool b;              /* BOOLEAN */
    int64_t i;           /* TINYINT .. BIGINT, TIMESTAMP */
    pier__i128 h;        /* HUGEINT */
    double d;            /* FLOAT (rounded to float), DOUBLE */
    const char *s;       /* TEXT, JSON */
    size_t n;
} logical;

static logical from_value(const pier__value *v)
{
    logical l;
    memset(&l, 0, sizeof l);
    l.kind = v->kind;
    switch (v->kind) {
    case PIER_KIND_BOOLEAN: l.b = v->u.b; break;
    case PIER_KIND_HUGEINT: l.h = v->u.h; break;
    case PIER_KIND_DOUBLE: l.d = v->u.d; break;
    case PIER_KIND_TEXT:
    case PIER_KIND_JSON: l.s = v->s; l.n = v->n; break;
    default: l.i = v->u.i; break;
    }
    return l;
}

/* The range of an integer column; false for other kinds. */
static bool int_range(pier_kind k, pier__i128 *lo, pier__i128 *hi)
{
    switch (k) {
    case PIER_KIND_TINYINT: *lo = INT8_MIN; *hi = INT8_MAX; return true;
    case PIER_KIND_SMALLINT: *lo = INT16_MIN; *hi = INT16_MAX; return true;
    case PIER_KIND_INTEGER: *lo = INT32_MIN; *hi = INT32_MAX; return true;
    case PIER_KIND_BIGINT: *lo = INT64_MIN; *hi = INT64_MAX; return true;
    case PIER_KIND_HUGEINT:
        *hi = (pier__i128)(((pier__u128)1 << 127) - 1);
        *lo = -*hi - 1;
        return true;
    default:
        return false;
    }
}

static bool fits_int64(pier__i128 h)
{
    return h >= INT64_MIN && h <= INT64_MAX;
}

/* ---- the hugeint BLOB: big-endian two's complement, sign bit flipped,
 * so that memcmp orders blobs as their numbers ---- */

#define HUGE_BLOB 16
#define SIGN_BIT ((pier__u128)1 << 127)

static void huge_to_blob(pier__i128 h, unsigned char out[HUGE_BLOB])
{
    pier__u128 u = (pier__u128)h ^ SIGN_BIT;
    for (int k = HUGE_BLOB - 1; k >= 0; k--) {
        out[k] = (unsigned char)u;
        u >>= 8;
    }
}

static pier__i128 huge_from_blob(const unsigned char in[HUGE_BLOB])
{
    pier__u128 u = 0;
    for (int k = 0; k < HUGE_BLOB; k++)
        u = (u << 8) | in[k];
    return (pier__i128)(u ^ SIGN_BIT);
}

/* ---- canonical text ---- */

/* The text of a scalar logical value (everything but TEXT and JSON). */
static size_t scalar_text(const logical *l, char out[SCALAR_BUF])
{
    switch (l->kind) {
    case PIER_KIND_BOOLEAN:
        memcpy(out, l->b ? "true" : "false", l->b ? 5 : 6);
        return l->b ? 4 : 5;
    case PIER_KIND_HUGEINT:
        return pier__i128_format(l->h, out);
    case PIER_KIND_FLOAT:
        return pier__float_format((float)l->d, out);
    case PIER_KIND_DOUBLE:
        return pier__double_format(l->d, out);
    case PIER_KIND_TIMESTAMP:
        return pier__timestamp_format(l->i, out);
    default:                        /* TINYINT .. BIGINT */
        return pier__i128_format(l->i, out);
    }
}

static bool is_stringy(pier_kind k)
{
    return k == PIER_KIND_TEXT || k == PIER_KIND_JSON;
}

/* The canonical text of `l` as a NUL-terminated arena copy. */
static pier__fit text_copy(const logical *l, pier__arena *a, const char **p,
                           size_t *n)
{
    char buf[SCALAR_BUF];
    const char *src = l->s;
    size_t len = l->n;
    if (!is_stringy(l->kind)) {
        len = scalar_text(l, buf);
        src = buf;
    }
    char *copy = pier__arena_strndup(a, src, len);
    if (copy == NULL)
        return PIER__FIT_OOM;
    *p = copy;
    *n = len;
    return PIER__FIT_OK;
}

/* ---- encoding ---- */

static void set_int(pier__cell *out, int64_t i)
{
    out->st = PIER__ST_INT;
    out->i = i;
}

static void set_real(pier__cell *out, double d)
{
    out->st = PIER__ST_REAL;
    out->d = d;
}

/* A NULL pointer would bind as SQL NULL: an empty string stays "". */
static void borrow_text(pier__cell *out, const logical *l)
{
    out->p = l->s != NULL ? l->s : "";
    out->n = l->s != NULL ? l->n : 0;
}

static pier__fit encode_text(pier__cell *out, const logical *l,
                             pier__arena *scratch)
{
    out->st = PIER__ST_TEXT;
    if (is_stringy(l->kind)) {      /* already canonical: borrow it */
        borrow_text(out, l);
        return PIER__FIT_OK;
    }
    return text_copy(l, scratch, &out->p, &out->n);
}

static pier__fit encode_integer(pier__cell *out, const logical *l,
                                pier_kind col, pier__arena *scratch)
{
    pier__i128 v;
    switch (l->kind) {
    case PIER_KIND_BOOLEAN: v = l->b; break;
    case PIER_KIND_BIGINT: v = l->i; break;
    case PIER_KIND_HUGEINT: v = l->h; break;
    default: return PIER__FIT_CONFLICT;     /* doubles never, even 2.0 */
    }
    pier__i128 lo, hi;
    int_range(col, &lo, &hi);
    if (v < lo || v > hi)
        return PIER__FIT_CONFLICT;
    if (fits_int64(v)) {
        set_int(out, (int64_t)v);
        return PIER__FIT_OK;
    }
    unsigned char *blob = pier__arena_alloc(scratch, HUGE_BLOB);
    if (blob == NULL)
        return PIER__FIT_OOM;
    huge_to_blob(v, blob);
    out->st = PIER__ST_BLOB;
    out->p = (const char *)blob;
    out->n = HUGE_BLOB;
    return PIER__FIT_OK;
}

static pier__fit encode_real(pier__cell *out, const logical *l,
                             pier_kind col)
{
    bool is_float = col == PIER_KIND_FLOAT;
    double d;
    /* Each conversion rounds once, straight to the column's width. */
    switch (l->kind) {
    case PIER_KIND_BOOLEAN:
        d = l->b ? 1.0 : 0.0;
        break;
    case PIER_KIND_BIGINT:
        d = is_float ? (double)(float)l->i : (double)l->i;
        break;
    case PIER_KIND_HUGEINT:
        d = is_float ? (double)(float)l->h : (double)l->h;
        break;
    case PIER_KIND_DOUBLE:
        d = l->d;
        if (!isfinite(d) || (is_float && fabs(d) > FLT_MAX))
            return PIER__FIT_CONFLICT;
        if (is_float)
            d = (double)(float)d;
        break;
    default:
        return PIER__FIT_CONFLICT;
    }
    if (!isfinite(d))
        return PIER__FIT_CONFLICT;
    set_real(out, d);
    return PIER__FIT_OK;
}

pier__fit pier__value_encode(pier__cell *out, const pier__value *v,
                             pier__type col, pier__arena *scratch)
{
    memset(out, 0, sizeof *out);
    if (v->kind == PIER_KIND_NULL) {
        out->st = PIER__ST_NULL;
        return PIER__FIT_OK;
    }
    logical l = from_value(v);
    switch (col.kind) {
    case PIER_KIND_BOOLEAN:
        if (l.kind != PIER_KIND_BOOLEAN)
            return PIER__FIT_CONFLICT;
        set_int(out, l.b);
        return PIER__FIT_OK;
    case PIER_KIND_TINYINT:
    case PIER_KIND_SMALLINT:
    case PIER_KIND_INTEGER:
    case PIER_KIND_BIGINT:
    case PIER_KIND_HUGEINT:
        return encode_integer(out, &l, col.kind, scratch);
    case PIER_KIND_FLOAT:
    case PIER_KIND_DOUBLE:
        return encode_real(out, &l, col.kind);
    case PIER_KIND_TEXT:
        return encode_text(out, &l, scratch);
    case PIER_KIND_TIMESTAMP:
        if (l.kind == PIER_KIND_TIMESTAMP) {
            set_int(out, l.i);
            return PIER__FIT_OK;
        }
        if (l.kind == PIER_KIND_TEXT &&
            pier__timestamp_parse(l.s, l.n, &out->i)) {
            out->st = PIER__ST_INT;
            return PIER__FIT_OK;
        }
        return PIER__FIT_CONFLICT;
    case PIER_KIND_JSON:
        if (l.kind != PIER_KIND_JSON)
            return PIER__FIT_CONFLICT;
        out->st = PIER__ST_TEXT;
        borrow_text(out, &l);
        return PIER__FIT_OK;
    default:
        return PIER__FIT_CONFLICT;
    }
}

/* ---- decoding ---- */

static bool decode_int(logical *l, int64_t i, pier_kind col)
{
    pier__i128 lo, hi;
    switch (col) {
    case PIER_KIND_BOOLEAN:
        if (i != 0 && i != 1)
            return false;
        l->b = i == 1;
        return true;
    case PIER_KIND_TINYINT:
    case PIER_KIND_SMALLINT:
    case PIER_KIND_INTEGER:
    case PIER_KIND_BIGINT:
        int_range(col, &lo, &hi);
        if (i < lo || i > hi)
            return false;
        l->i = i;
        return true;
    case PIER_KIND_HUGEINT:
        l->h = i;
        return true;
    case PIER_KIND_FLOAT:           /* an integer from before a widening */
        l->d = (double)(float)i;
        return true;
    case PIER_KIND_DOUBLE:
        l->d = (double)i;
        return true;
    case PIER_KIND_TIMESTAMP:
        l->i = i;
        return true;
    default:
        return false;
    }
}

static bool decode_blob(logical *l, const pier__cell *c, pier_kind col)
{
    if (c->n != HUGE_BLOB || c->p == NULL)
        return false;
    pier__i128 h = huge_from_blob((const unsigned char *)c->p);
    switch (col) {
    case PIER_KIND_HUGEINT: l->h = h; return true;
    case PIER_KIND_FLOAT: l->d = (double)(float)h; return true;
    case PIER_KIND_DOUBLE: l->d = (double)h; return true;
    default: return false;
    }
}

/* The logical value of a cell of a column of kind `col`; false if the
 * cell is no encoding that column can hold. A null cell gives NULL. */
static bool decode(logical *l, const pier__cell *c, pier_kind col)
{
    memset(l, 0, sizeof *l);
    l->kind = col;
    switch (c->st) {
    case PIER__ST_NULL:
        l->kind = PIER_KIND_NULL;
        return true;
    case PIER__ST_INT:
        return decode_int(l, c->i, col);
    case PIER__ST_REAL:
        /* Writes never store a non-finite real, nor one beyond a float
         * column's range. */
        if (!isfinite(c->d))
            return false;
        if (col == PIER_KIND_FLOAT && fabs(c->d) <= FLT_MAX) {
            l->d = (double)(float)c->d;
            return true;
        }
        if (col == PIER_KIND_DOUBLE) {
            l->d = c->d;
            return true;
        }
        return false;
    case PIER__ST_TEXT:
        if (!is_stringy(col))
            return false;
        l->s = c->p != NULL ? c->p : "";
        l->n = c->p != NULL ? c->n : 0;
        return true;
    case PIER__ST_BLOB:
        return decode_blob(l, c, col);
    }
    return false;
}

/* pier__cell_decode and pier__cell_view: `borrow` leaves a text or json
 * value's text in the cell. */
static pier__fit cell_value(pier_value *out, const pier__cell *c,
                            pier__type col, pier__arena *a, bool borrow)
{
    logical l;
    if (!decode(&l, c, col.kind))
        return PIER__FIT_CONFLICT;
    pier_value v;
    memset(&v, 0, sizeof v);
    v.kind = l.kind;
    switch (l.kind) {
    case PIER_KIND_NULL:
        *out = v;                   /* text NULL, len 0 */
        return PIER__FIT_OK;
    case PIER_KIND_BOOLEAN: v.as.boolean = l.b; break;
    case PIER_KIND_HUGEINT: v.as.hugeint = pier__i128_to_public(l.h); break;
    case PIER_KIND_FLOAT:
    case PIER_KIND_DOUBLE: v.as.real = l.d; break;
    case PIER_KIND_TIMESTAMP: v.as.timestamp_us = l.i; break;
    case PIER_KIND_TEXT:
    case PIER_KIND_JSON:
        if (borrow) {
            /* The cell's own text (or "" for none): the caller vouched
             * for its NUL. */
            v.text = l.s;
            v.len = l.n;
            *out = v;
            return PIER__FIT_OK;
        }
        break;
    default: v.as.integer = l.i; break;
    }
    pier__fit fit = text_copy(&l, a, &v.text, &v.len);
    if (fit != PIER__FIT_OK)
        return fit;
    *out = v;
    return PIER__FIT_OK;
}

pier__fit pier__cell_decode(pier_value *out, const pier__cell *c,
                            pier__type col, pier__arena *a)
{
    return cell_value(out, c, col, a, false);
}

/* A value whose rendered text is in buf[0..n): the text goes to `a`. */
static pier__fit view_rendered(pier_value *out, pier_value v,
                               const char *buf, size_t n, pier__arena *a)
{
    v.text = pier__arena_strndup(a, buf, n);
    if (v.text == NULL)
        return PIER__FIT_OOM;
    v.len = n;
    *out = v;
    return PIER__FIT_OK;
}

pier__fit pier__cell_view(pier_value *out, const pier__cell *c,
                          pier__type col, pier__arena *a)
{
    /* A cursor meets these for most columns, and each is what decode()
     * and cell_value() make of it, without their intermediate values:
     * null, text, an integer in a bigint or timestamp column, a boolean,
     * a finite real in a double column. */
    char buf[SCALAR_BUF];
    switch (c->st) {
    case PIER__ST_NULL:
        *out = (pier_value){ .kind = PIER_KIND_NULL };
        return PIER__FIT_OK;
    case PIER__ST_TEXT:
        if (!is_stringy(col.kind))
            return PIER__FIT_CONFLICT;
        *out = (pier_value){ .kind = col.kind,
                             .text = c->p != NULL ? c->p : "",
                             .len = c->p != NULL ? c->n : 0 };
        return PIER__FIT_OK;
    case PIER__ST_INT:
        switch (col.kind) {
        case PIER_KIND_BIGINT:
            return view_rendered(out, (pier_value){ .kind = col.kind,
                                                    .as.integer = c->i },
                                 buf, pier__i128_format(c->i, buf), a);
        case PIER_KIND_TIMESTAMP:
            return view_rendered(out, (pier_value){ .kind = col.kind,
                                                    .as.timestamp_us = c->i },
                                 buf, pier__timestamp_format(c->i, buf), a);
        case PIER_KIND_BOOLEAN:
            if (c->i != 0 && c->i != 1)
                return PIER__FIT_CONFLICT;
            /* Static text: it outlives any row. */
            *out = (pier_value){ .kind = col.kind, .as.boolean = c->i == 1,
                                 .text = c->i == 1 ? "true" : "false",
                                 .len = c->i == 1 ? 4 : 5 };
            return PIER__FIT_OK;
        default:
            break;
        }
        break;
    case PIER__ST_REAL:
        if (col.kind == PIER_KIND_DOUBLE && isfinite(c->d))
            return view_rendered(out, (pier_value){ .kind = col.kind,
                                                    .as.real = c->d },
                                 buf, pier__double_format(c->d, buf), a);
        break;
    default:
        break;
    }
    return cell_value(out, c, col, a, true);
}

void pier__cell_to_json(pier__buf *b, const pier__cell *c, pier__type col)
{
    logical l;
    /* No status to return: a cell no column could hold reads as null, as
     * it would in SQL. */
    if (!decode(&l, c, col.kind) || l.kind == PIER_KIND_NULL) {
        pier__buf_append(b, "null", 4);
        return;
    }
    char buf[SCALAR_BUF];
    switch (l.kind) {
    case PIER_KIND_TEXT:
        pier__buf_json_string(b, l.s, l.n);
        return;
    case PIER_KIND_JSON:
        pier__buf_append(b, l.s, l.n);
        return;
    case PIER_KIND_TIMESTAMP:
        pier__buf_json_string(b, buf, scalar_text(&l, buf));
        return;
    default:                        /* booleans and numbers, bare */
        pier__buf_append(b, buf, scalar_text(&l, buf));
        return;
    }
}

pier__fit pier__cell_to_text(pier__cell *out, const pier__cell *in,
                             pier__type from, pier__arena *a)
{
    logical l;
    if (!decode(&l, in, from.kind))
        return PIER__FIT_CONFLICT;
    memset(out, 0, sizeof *out);
    if (l.kind == PIER_KIND_NULL) {
        out->st = PIER__ST_NULL;
        return PIER__FIT_OK;
    }
    return encode_text(out, &l, a);
}
