/*
 * value.c: values meeting columns. Encodes a writer's value for a column
 * (or refuses it), and decodes stored cells back to logical values, as
 * public pier_values, as JSON or as text.
 *
 * Invariant: a cell of a column of type T is an encoding of a value of T
 * or of a type below T (a column widens without rewriting its numeric
 * cells), so decoding dispatches on the column's type and the cell's
 * storage class together. Anything else is a corrupt or foreign cell.
 *
 * The SQL dialect's types (pier__type.x) are the registry's declared
 * columns' types (sqlcol.c): a value meets one as the cell a declared
 * table would hold for it, checked and rendered canonical by sqlcol.c, so
 * that a board and a declared table agree on every value.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "types/sqlcol.h"

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

bool pier__hugeint_cell(const pier__cell *c, pier__i128 *out)
{
    if (c->st == PIER__ST_INT) {
        *out = c->i;
        return true;
    }
    if (c->st != PIER__ST_BLOB || c->n != HUGE_BLOB || c->p == NULL)
        return false;
    *out = huge_from_blob((const unsigned char *)c->p);
    return true;
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

/* ---- the SQL dialect's types ---- */

static bool is_uint(pier__base b)
{
    return b >= PIER__B_UINT8 && b <= PIER__B_UINT64;
}

/* Whether a string is a value a scalar of base `b` may be spelled as. */
static bool takes_string(pier__base b)
{
    switch (b) {
    case PIER__B_DECIMAL: case PIER__B_UINT64: case PIER__B_VARCHAR:
    case PIER__B_ENUM: case PIER__B_UUID: case PIER__B_DATE:
    case PIER__B_TIME: case PIER__B_DATETIME: case PIER__B_INTERVAL:
        return true;
    default:
        return false;
    }
}

/* A number's text: as written, or rendered from the value (the C
 * builder's), into buf. */
static void number_text(const pier__value *v, char buf[PIER__I128_BUF],
                        const char **p, size_t *n)
{
    if (v->s != NULL) {
        *p = v->s;
        *n = v->n;
        return;
    }
    *p = buf;
    *n = v->kind == PIER_KIND_DOUBLE ? pier__double_format(v->u.d, buf)
         : v->kind == PIER_KIND_HUGEINT ? pier__i128_format(v->u.h, buf)
                                        : pier__i128_format(v->u.i, buf);
}

/*
 * The cell a declared column of type `c` would hold for `v` (SQLite's
 * value, before its check), if `v` is a kind of value the type takes at
 * all; `buf` holds a number's rendered text.
 */
static bool candidate(pier__cell *out, const pier__value *v,
                      const pier__coltype *c, char buf[PIER__I128_BUF])
{
    pier__base b = c->t.base;
    memset(out, 0, sizeof *out);
    if (c->t.dims > 0) {
        if (v->kind != PIER_KIND_JSON)
            return false;
        out->st = PIER__ST_TEXT;
        out->p = v->u.doc.p != NULL ? v->u.doc.p : v->s;
        out->n = v->u.doc.p != NULL ? v->u.doc.n : v->n;
        return true;
    }
    switch (v->kind) {
    case PIER_KIND_BIGINT:
        if (!is_uint(b) && b != PIER__B_DECIMAL)
            return false;
        out->st = PIER__ST_INT;
        out->i = v->u.i;
        return true;
    case PIER_KIND_HUGEINT:
    case PIER_KIND_DOUBLE:
        /* Integers beyond 64 bits are UINT64's or DECIMAL's (past their
         * range, as the check says), fractions and exponents DECIMAL's;
         * both as SQLite would take their digits, as text. */
        if (b != PIER__B_DECIMAL &&
            !(v->kind == PIER_KIND_HUGEINT && is_uint(b)))
            return false;
        out->st = PIER__ST_TEXT;
        number_text(v, buf, &out->p, &out->n);
        return true;
    case PIER_KIND_TEXT:
        if (!takes_string(b))
            return false;
        out->st = PIER__ST_TEXT;
        out->p = v->s != NULL ? v->s : "";
        out->n = v->s != NULL ? v->n : 0;
        return true;
    default:
        return false;
    }
}

static pier__fit encode_sql(pier__cell *out, const pier__value *v,
                            const pier__coltype *c, pier__arena *scratch,
                            const char **why)
{
    char buf[PIER__I128_BUF];
    pier__cell cell;
    if (!candidate(&cell, v, c, buf))
        return PIER__FIT_CONFLICT;
    /* An integer beyond 64 bits is past every UINT but UINT64; as text it
     * would be refused for not being an integer, which it is. */
    if (v->kind == PIER_KIND_HUGEINT && c->t.base != PIER__B_UINT64 &&
        c->t.base != PIER__B_DECIMAL) {
        if (why != NULL)
            *why = "out of its range";
        return PIER__FIT_CONFLICT;
    }
    /* buf need not outlive this call: pier__coltype_decode renders a
     * DECIMAL's or a UINT64's text into `scratch`, never borrows it. */
    const char *reason = pier__coltype_fit(c, &cell);
    if (reason != NULL) {
        if (why != NULL)
            *why = reason;
        return PIER__FIT_CONFLICT;
    }
    if (cell.st == PIER__ST_INT &&
        strcmp(pier__coltype_storage(c), "INTEGER") == 0) {
        *out = cell;                  /* UINT8 .. UINT32: an integer */
        return PIER__FIT_OK;
    }
    if (c->t.dims == 0 &&
        (c->t.base == PIER__B_VARCHAR || c->t.base == PIER__B_ENUM)) {
        *out = cell;                  /* the text itself is canonical */
        return PIER__FIT_OK;
    }
    pier_value r;
    pier__fit fit = pier__coltype_decode(&r, c, &cell, scratch);
    if (fit != PIER__FIT_OK)
        return fit;
    out->st = PIER__ST_TEXT;
    out->p = r.text;
    out->n = r.len;
    return PIER__FIT_OK;
}

bool pier__value_wide_integer(const pier__value *v)
{
    if (v->kind != PIER_KIND_DOUBLE || v->s == NULL)
        return false;
    for (size_t i = 0; i < v->n; i++)
        if (v->s[i] == '.' || v->s[i] == 'e' || v->s[i] == 'E')
            return false;
    return true;
}

pier__fit pier__value_encode(pier__cell *out, const pier__value *v,
                             pier__type col, pier__arena *scratch,
                             const char **why)
{
    memset(out, 0, sizeof *out);
    if (why != NULL)
        *why = NULL;
    if (v->kind == PIER_KIND_NULL) {
        out->st = PIER__ST_NULL;
        return PIER__FIT_OK;
    }
    if (col.x != NULL)
        return encode_sql(out, v, &col.x->c, scratch, why);
    if (pier__value_wide_integer(v)) {
        if (col.kind == PIER_KIND_TEXT) {        /* its digits, exactly */
            out->st = PIER__ST_TEXT;
            out->p = v->s;
            out->n = v->n;
            return PIER__FIT_OK;
        }
        if (why != NULL)
            *why = "an integer beyond 128 bits, which no number column "
                   "holds exactly; write it as a string";
        return PIER__FIT_CONFLICT;
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
        if (col == PIER_KIND_HUGEINT)   /* as a query's view renders it */
            return c->p != NULL && pier__i128_parse(c->p, c->n, &l->h);
        if (!is_stringy(col))
            return false;
        l->s = c->p != NULL ? c->p : "";
        l->n = c->p != NULL ? c->n : 0;
        /* A json value is handed out as it is stored: text that is not
         * JSON was written behind Pier's back. */
        return col != PIER_KIND_JSON || pier__json_check(l->s, l->n) == NULL;
    case PIER__ST_BLOB:
        return decode_blob(l, c, col);
    }
    return false;
}

/* A cell of a dialect-typed column, by sqlcol.c. Its text is the cell's
 * own only when `borrow` allows (varchar and enum values). */
static pier__fit sql_value(pier_value *out, const pier__cell *c,
                           const pier__coltype *t, pier__arena *a,
                           bool borrow)
{
    pier_value v;
    pier__fit fit = pier__coltype_decode(&v, t, c, a);
    if (fit != PIER__FIT_OK)
        return fit;
    if (!borrow && v.text != NULL && v.text == c->p) {
        v.text = pier__arena_strndup(a, c->p, c->n);
        if (v.text == NULL)
            return PIER__FIT_OOM;
    }
    *out = v;
    return PIER__FIT_OK;
}

/* pier__cell_decode and pier__cell_view: `borrow` leaves a text or json
 * value's text in the cell. */
static pier__fit cell_value(pier_value *out, const pier__cell *c,
                            pier__type col, pier__arena *a, bool borrow)
{
    if (col.x != NULL)
        return sql_value(out, c, &col.x->c, a, borrow);
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
    if (col.x != NULL)
        return sql_value(out, c, &col.x->c, a, true);
    switch (c->st) {
    case PIER__ST_NULL:
        *out = (pier_value){ .kind = PIER_KIND_NULL };
        return PIER__FIT_OK;
    case PIER__ST_TEXT:
        if (col.kind == PIER_KIND_HUGEINT)
            break;
        if (!is_stringy(col.kind) ||
            (col.kind == PIER_KIND_JSON &&
             pier__json_check(c->p != NULL ? c->p : "",
                              c->p != NULL ? c->n : 0) != NULL))
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
    if (col.x != NULL) {
        pier__arena a;
        pier__arena_init(&a);
        pier_value v;
        pier__fit fit = pier__coltype_decode(&v, &col.x->c, c, &a);
        if (fit == PIER__FIT_OOM)
            b->oom = true;            /* the caller sees a failed buffer */
        else if (fit != PIER__FIT_OK)
            v = (pier_value){ .kind = PIER_KIND_NULL };
        if (fit != PIER__FIT_OOM)
            pier__value_json(b, &v);
        pier__arena_free(&a);
        return;
    }
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
        pier__json_embed(b, l.s, l.n);  /* the file may be damaged */
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
    if (from.x != NULL) {
        pier_value v;
        pier__fit fit = sql_value(&v, in, &from.x->c, a, false);
        if (fit != PIER__FIT_OK)
            return fit;
        memset(out, 0, sizeof *out);
        out->st = v.kind == PIER_KIND_NULL ? PIER__ST_NULL : PIER__ST_TEXT;
        out->p = v.text;
        out->n = v.len;
        return PIER__FIT_OK;
    }
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
