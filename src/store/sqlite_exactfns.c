/*
 * sqlite_exactfns.c: the operators of a statement that computes on exact
 * values, as functions (docs/sql.md, "Operators on exact values"). The
 * front-end writes a + b as _pxa(a,b) (src/sql/exactops.c) when the store
 * finds that the statement computes on DECIMAL, UINT64 or INT128 values
 * (sqlite_exact.c):
 *
 *   _pxa(a,b) _pxs(a,b) _pxm(a,b) _pxd(a,b) _pxr(a,b)   + - * / %
 *   _pxn(a)                                            unary minus
 *   _pxc(a,b)                                          -1, 0, 1: a < b...
 *
 * An operand that is a number written as text (how exact values are
 * stored) is exact: the result is the exact decimal at its smallest
 * scale, an integer operand promoted exactly. A quotient must terminate
 * (else decimal_div is named), a result must fit 38 digits, a division
 * by zero fails; a REAL with an exact value is refused (which one is
 * wanted is the caller's to say, with CAST). Integers and reals on their
 * own compute as SQLite's operators do (7 / 2 is 3, x / 0 is NULL), except
 * that an integer result past 64 bits is the exact value, not a float.
 * Text that is not a number reads as SQLite reads it (its leading number,
 * else 0), but not beside an exact value.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "store/sqlite_int.h"

typedef enum operand_kind {
    K_NULL, K_INT, K_REAL, K_EXACT, K_OTHER,
    K_TOO_LONG                 /* a number of more than 38 digits */
} operand_kind;

typedef struct operand {
    operand_kind kind;
    int64_t i;
    double r;
    pier__decimal d;
} operand;

/* Whether s is a number as written (sign, digits, point, exponent) that
 * no decimal of 38 digits holds. */
static bool plain_number(const char *s, size_t n)
{
    size_t i = 0, digits = 0;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        i++;
    for (; i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.'); i++)
        digits += s[i] != '.';
    if (digits > 0 && i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '-' || s[i] == '+'))
            i++;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
    }
    return digits > 0 && i == n;
}

/* Whether text reads as a plain number (digits, a point, an exponent):
 * what exact columns store, and what the front-end writes for a literal
 * SQLite would read inexactly. */
static operand read_operand(sqlite3_value *v)
{
    operand o = { .kind = K_NULL };
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        return o;
    case SQLITE_INTEGER:
        o.kind = K_INT;
        o.i = sqlite3_value_int64(v);
        return o;
    case SQLITE_FLOAT:
        o.kind = K_REAL;
        o.r = sqlite3_value_double(v);
        return o;
    case SQLITE_TEXT: {
        const char *s = (const char *)sqlite3_value_text(v);
        size_t n = (size_t)sqlite3_value_bytes(v);
        if (s != NULL && pier__decimal_parse(s, n, 0, 0, &o.d) == NULL) {
            o.kind = K_EXACT;
            return o;
        }
        /* an INT128 of 39 digits (its extremes) */
        if (s != NULL && pier__i128_parse(s, n, &o.d.unscaled)) {
            o.d.scale = 0;
            o.kind = K_EXACT;
            return o;
        }
        if (s != NULL && plain_number(s, n)) {
            o.kind = K_TOO_LONG;
            return o;
        }
        break;
    }
    default:
        break;
    }
    /* as SQLite's arithmetic reads it: its leading number, else 0 */
    o.kind = K_OTHER;
    o.r = sqlite3_value_double(v);
    return o;
}

/* An operand that is not exact, as SQLite's arithmetic holds it. */
static void as_number(operand *o)
{
    if (o->kind != K_OTHER)
        return;
    if (o->r >= -9223372036854775808.0 && o->r < 9223372036854775808.0 &&
        o->r == (double)(int64_t)o->r) {
        o->kind = K_INT;
        o->i = (int64_t)o->r;
    } else {
        o->kind = K_REAL;
    }
}

static double real_of(const operand *o)
{
    return o->kind == K_INT ? (double)o->i : o->r;
}

/* An integer as SQLite converts a real for its % (clamped). */
static int64_t int_of(const operand *o)
{
    if (o->kind == K_INT)
        return o->i;
    if (isnan(o->r))
        return 0;
    if (o->r <= -9223372036854775808.0)
        return INT64_MIN;
    if (o->r >= 9223372036854775807.0)
        return INT64_MAX;
    return (int64_t)o->r;
}

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_REM };
static const char *const signs[] = { "+", "-", "*", "/", "%" };

/* Both operands read: false (the result set) when one is NULL. */
static bool operands(sqlite3_context *ctx, sqlite3_value **argv,
                     operand *a, operand *b)
{
    *a = read_operand(argv[0]);
    *b = read_operand(argv[1]);
    if (a->kind == K_NULL || b->kind == K_NULL) {
        sqlite3_result_null(ctx);
        return false;
    }
    return true;
}

/* An exact operand and another: the other promoted, or the refusal. */
static bool exact_pair(sqlite3_context *ctx, const char *what, operand *a,
                       operand *b)
{
    operand *o[2] = { a, b };
    for (int k = 0; k < 2; k++) {
        if (o[k]->kind == K_INT) {
            o[k]->d = (pier__decimal){ o[k]->i, 0 };
            o[k]->kind = K_EXACT;
        } else if (o[k]->kind == K_REAL) {
            pier__sqlfn_errorf(ctx, "'%s' of an exact value (DECIMAL, "
                               "UINT64, INT128) and a REAL: write "
                               "CAST(x AS DECIMAL) (or the number as a "
                               "string, '1.5') to compute exactly, or "
                               "CAST(... AS REAL) for a floating-point "
                               "result", what);
            return false;
        } else if (o[k]->kind == K_OTHER) {
            pier__sqlfn_errorf(ctx, "'%s' of an exact value and text that "
                               "is not a number", what);
            return false;
        }
    }
    return true;
}

/* The integer result of a op b when it fits 64 bits. */
static bool int_result(int op, int64_t a, int64_t b, int64_t *out)
{
    switch (op) {
    case OP_ADD:
        return !__builtin_add_overflow(a, b, out);
    case OP_SUB:
        return !__builtin_sub_overflow(a, b, out);
    case OP_MUL:
        return !__builtin_mul_overflow(a, b, out);
    case OP_DIV:
        if (a == INT64_MIN && b == -1)
            return false;
        *out = a / b;
        return true;
    default:
        *out = b == -1 ? 0 : a % b;
        return true;
    }
}

/* a % b of decimals: a - b * trunc(a / b), the sign of a. */
static const char *decimal_rem(pier__decimal a, pier__decimal b,
                               pier__decimal *out)
{
    if (b.unscaled == 0)
        return "division by zero";
    int scale = a.scale > b.scale ? a.scale : b.scale;
    pier__decimal x, y;
    if (!pier__decimal_rescale(a, scale, &x) ||
        !pier__decimal_rescale(b, scale, &y))
        return "the result needs more than 38 digits";
    *out = (pier__decimal){ x.unscaled % y.unscaled, scale };
    return NULL;
}

static void exact_op(sqlite3_context *ctx, int op, pier__decimal a,
                     pier__decimal b)
{
    pier__decimal r;
    const char *why = NULL;
    switch (op) {
    case OP_ADD:
        why = pier__decimal_add(a, b, &r) ? NULL : "";
        break;
    case OP_SUB:
        why = pier__decimal_sub(a, b, &r) ? NULL : "";
        break;
    case OP_MUL:
        why = pier__decimal_mul(a, b, &r) ? NULL : "";
        break;
    case OP_DIV:
        why = pier__decimal_div_exact(a, b, &r);
        break;
    default:
        why = decimal_rem(a, b, &r);
        break;
    }
    if (why != NULL && why[0] == '\0')
        why = "the result needs more than 38 digits";
    if (why != NULL) {
        pier__sqlfn_errorf(ctx, "'%s': %s", signs[op], why);
        return;
    }
    pier__sqlfn_result_total(ctx, r);
}

static bool too_long(sqlite3_context *ctx, const char *what,
                     const operand *a, const operand *b)
{
    if (a->kind != K_TOO_LONG && (b == NULL || b->kind != K_TOO_LONG))
        return false;
    pier__sqlfn_errorf(ctx, "'%s' of a number of more than 38 significant "
                       "digits, which no exact value holds", what);
    return true;
}

static void arith(sqlite3_context *ctx, sqlite3_value **argv, int op)
{
    operand a, b;
    if (!operands(ctx, argv, &a, &b) || too_long(ctx, signs[op], &a, &b))
        return;
    if (a.kind == K_EXACT || b.kind == K_EXACT) {
        if (exact_pair(ctx, signs[op], &a, &b))
            exact_op(ctx, op, a.d, b.d);
        return;
    }
    as_number(&a);
    as_number(&b);
    if (a.kind == K_INT && b.kind == K_INT) {
        int64_t r;
        if ((op == OP_DIV || op == OP_REM) && b.i == 0) {
            sqlite3_result_null(ctx);
        } else if (int_result(op, a.i, b.i, &r)) {
            sqlite3_result_int64(ctx, r);
        } else {
            /* past 64 bits: the exact value, never a float */
            exact_op(ctx, op, (pier__decimal){ a.i, 0 },
                     (pier__decimal){ b.i, 0 });
        }
        return;
    }
    double x = real_of(&a), y = real_of(&b), r;
    switch (op) {
    case OP_ADD:
        r = x + y;
        break;
    case OP_SUB:
        r = x - y;
        break;
    case OP_MUL:
        r = x * y;
        break;
    case OP_DIV:
        if (y == 0.0) {
            sqlite3_result_null(ctx);
            return;
        }
        r = x / y;
        break;
    default: {
        int64_t ia = int_of(&a), ib = int_of(&b);
        if (ib == 0) {
            sqlite3_result_null(ctx);
            return;
        }
        r = (double)(ib == -1 ? 0 : ia % ib);
        break;
    }
    }
    if (isnan(r))
        sqlite3_result_null(ctx);
    else
        sqlite3_result_double(ctx, r);
}

static void add_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    arith(ctx, argv, OP_ADD);
}

static void sub_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    arith(ctx, argv, OP_SUB);
}

static void mul_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    arith(ctx, argv, OP_MUL);
}

static void div_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    arith(ctx, argv, OP_DIV);
}

static void rem_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    arith(ctx, argv, OP_REM);
}

static void neg_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    operand a = read_operand(argv[0]);
    if (a.kind == K_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    if (too_long(ctx, "-", &a, NULL))
        return;
    if (a.kind == K_EXACT) {
        a.d.unscaled = -a.d.unscaled;
        pier__sqlfn_result_total(ctx, a.d);
        return;
    }
    as_number(&a);
    if (a.kind == K_INT && a.i == INT64_MIN)
        pier__sqlfn_result_total(ctx, (pier__decimal){
                                          -(pier__i128)a.i, 0 });
    else if (a.kind == K_INT)
        sqlite3_result_int64(ctx, -a.i);
    else
        sqlite3_result_double(ctx, -a.r);
}

/* The order of SQLite's storage classes: numbers, text, blobs. */
static int class_of(sqlite3_value *v)
{
    switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER:
    case SQLITE_FLOAT:
        return 1;
    case SQLITE_TEXT:
        return 2;
    default:
        return 3;
    }
}

static int sign_of(int c)
{
    return (c > 0) - (c < 0);
}

static int compare_reals(double x, double y)
{
    return (x > y) - (x < y);
}

/* A value's text for pier__collate_numeric: a real by its shortest
 * text, anything else as SQLite writes it. */
static size_t number_text(sqlite3_value *v, char buf[PIER__DOUBLE_BUF],
                          const char **out)
{
    if (sqlite3_value_type(v) == SQLITE_FLOAT) {
        *out = buf;
        return pier__double_format(sqlite3_value_double(v), buf);
    }
    *out = (const char *)sqlite3_value_text(v);
    return *out != NULL ? (size_t)sqlite3_value_bytes(v) : 0;
}

/* Two values one of which is a number too long for a decimal: by value,
 * as the pier_numeric collation orders numbers of any length. */
static int long_compare(sqlite3_value *a, sqlite3_value *b)
{
    char ba[PIER__DOUBLE_BUF], bb[PIER__DOUBLE_BUF];
    const char *x, *y;
    size_t nx = number_text(a, ba, &x), ny = number_text(b, bb, &y);
    if (x == NULL || y == NULL)
        return 0;
    return sign_of(pier__collate_numeric(x, nx, y, ny));
}

/* _pxc(a, b): -1, 0 or 1 as a is below, equal to or above b; NULL when
 * one is. Numbers (numeric text included) by value, exactly; anything
 * else in SQLite's order of storage classes, text and blobs by bytes. */
static void cmp_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    operand a, b;
    if (!operands(ctx, argv, &a, &b))
        return;
    if (a.kind == K_TOO_LONG || b.kind == K_TOO_LONG) {
        sqlite3_result_int(ctx, long_compare(argv[0], argv[1]));
        return;
    }
    bool na = a.kind != K_OTHER, nb = b.kind != K_OTHER;
    if (na && nb) {
        if (a.kind == K_INT && b.kind == K_INT) {
            sqlite3_result_int(ctx, (a.i > b.i) - (a.i < b.i));
            return;
        }
        if (a.kind != K_EXACT && b.kind != K_EXACT) {
            sqlite3_result_int(ctx, compare_reals(real_of(&a),
                                                  real_of(&b)));
            return;
        }
        /* an exact value and a number: a real by its shortest text */
        operand *o[2] = { &a, &b };
        bool ok = true;
        for (int k = 0; ok && k < 2; k++) {
            if (o[k]->kind == K_INT)
                o[k]->d = (pier__decimal){ o[k]->i, 0 };
            else if (o[k]->kind == K_REAL)
                ok = isfinite(o[k]->r) &&
                     pier__sqlfn_decimal(argv[k], &o[k]->d) == NULL;
        }
        pier__decimal diff;
        if (ok && pier__decimal_sub(a.d, b.d, &diff)) {
            sqlite3_result_int(ctx, (diff.unscaled > 0) -
                                        (diff.unscaled < 0));
            return;
        }
        /* too far apart for 38 digits (or an infinity): as reals */
        double x = a.kind == K_REAL ? a.r : sqlite3_value_double(argv[0]);
        double y = b.kind == K_REAL ? b.r : sqlite3_value_double(argv[1]);
        sqlite3_result_int(ctx, compare_reals(x, y));
        return;
    }
    int ca = class_of(argv[0]), cb = class_of(argv[1]);
    if (na)
        ca = 1;
    if (nb)
        cb = 1;
    if (ca != cb) {
        sqlite3_result_int(ctx, ca < cb ? -1 : 1);
        return;
    }
    /* two texts or two blobs, one of them not a number */
    const void *x = ca == 2 ? (const void *)sqlite3_value_text(argv[0])
                            : sqlite3_value_blob(argv[0]);
    size_t nx = (size_t)sqlite3_value_bytes(argv[0]);
    const void *y = ca == 2 ? (const void *)sqlite3_value_text(argv[1])
                            : sqlite3_value_blob(argv[1]);
    size_t ny = (size_t)sqlite3_value_bytes(argv[1]);
    size_t m = nx < ny ? nx : ny;
    int c = m > 0 && x != NULL && y != NULL ? memcmp(x, y, m) : 0;
    if (c == 0)
        c = (nx > ny) - (nx < ny);
    sqlite3_result_int(ctx, sign_of(c));
}

int pier__sqlite_register_exact_ops(sqlite3 *db)
{
    static const struct {
        const char *name;
        int nargs;
        void (*fn)(sqlite3_context *, int, sqlite3_value **);
    } fns[] = {
        { "_pxa", 2, add_fn }, { "_pxs", 2, sub_fn }, { "_pxm", 2, mul_fn },
        { "_pxd", 2, div_fn }, { "_pxr", 2, rem_fn }, { "_pxn", 1, neg_fn },
        { "_pxc", 2, cmp_fn },
    };
    const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    int rc = SQLITE_OK;
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof fns / sizeof fns[0];
         i++)
        rc = sqlite3_create_function_v2(db, fns[i].name, fns[i].nargs, flags,
                                        NULL, fns[i].fn, NULL, NULL, NULL);
    return rc;
}
