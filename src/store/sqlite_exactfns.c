/*
 * sqlite_exactfns.c: the operators of a statement that computes on exact
 * values, as functions (docs/sql.md, "Operators on exact values"). The
 * front-end writes each tree of + - * / % and unary minus as one call
 * (src/sql/exactops.c) when the store finds that the statement computes
 * on DECIMAL, UINT64 or INT128 values (sqlite_exact.c):
 *
 *   _pxe('program', leaf...)   the tree, in postfix: a * 3 - a / 4 is
 *                              _pxe('xx*xx/-', a, 3, a, 4)
 *   _pxc(a,b)                  -1, 0, 1 as a is below, equal to, above b
 *   _pxmin(a,b,...), _pxmax    the scalar min() and max(), by value
 *
 * One call for the tree keeps the values in between as numbers, not
 * text (docs/benchmarks.md, bench_sql).
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
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "store/sqlite_int.h"

typedef enum operand_kind {
    K_NULL, K_INT, K_REAL, K_EXACT, K_OTHER,
    K_TOO_LONG                 /* a number of more than 38 digits */
} operand_kind;

typedef struct operand {
    operand_kind kind;
    bool small;                /* K_EXACT of at most 18 digits, scale at
                                  most 18: d.unscaled fits 64 bits */
    union {
        int64_t i;             /* K_INT */
        double r;              /* K_REAL, K_OTHER (as SQLite reads it) */
        pier__decimal d;       /* K_EXACT */
    };
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
static void read_into(sqlite3_value *v, operand *out)
{
    operand o = { .kind = K_NULL };
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        *out = o;
        return;
    case SQLITE_INTEGER:
        out->kind = K_INT;
        out->i = sqlite3_value_int64(v);
        return;
    case SQLITE_FLOAT:
        out->kind = K_REAL;
        out->r = sqlite3_value_double(v);
        return;
    case SQLITE_TEXT: {
        const char *s = (const char *)sqlite3_value_text(v);
        size_t n = (size_t)sqlite3_value_bytes(v);
        int64_t u;
        int scale;
        if (s != NULL && pier__sqlfn_plain_decimal((const unsigned char *)s,
                                                   (int)n, &u, &scale)) {
            out->kind = K_EXACT;
            out->small = true;
            out->d = (pier__decimal){ u, scale };
            return;
        }
        if (s != NULL && pier__decimal_parse(s, n, 0, 0, &o.d) == NULL) {
            o.kind = K_EXACT;
            *out = o;
            return;
        }
        /* an INT128 of 39 digits (its extremes) */
        if (s != NULL && pier__i128_parse(s, n, &o.d.unscaled)) {
            o.d.scale = 0;
            o.kind = K_EXACT;
            *out = o;
            return;
        }
        if (s != NULL && plain_number(s, n)) {
            out->kind = K_TOO_LONG;
            return;
        }
        break;
    }
    default:
        break;
    }
    /* as SQLite's arithmetic reads it: its leading number, else 0 */
    out->kind = K_OTHER;
    out->r = sqlite3_value_double(v);
}

/* An operand that is not exact, as SQLite's arithmetic holds it. */
static void as_number(operand *o)
{
    if (o->kind != K_OTHER)
        return;
    double r = o->r;
    if (r >= -9223372036854775808.0 && r < 9223372036854775808.0 &&
        r == (double)(int64_t)r) {
        o->kind = K_INT;
        o->i = (int64_t)r;
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

/* Powers of ten up to 10^18. */
static const int64_t TEN[19] = {
    1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
    1000000000, 10000000000, 100000000000, 1000000000000, 10000000000000,
    100000000000000, 1000000000000000, 10000000000000000,
    100000000000000000, 1000000000000000000,
};

/* Powers of five up to 5^18. */
static const int64_t FIVE[19] = {
    1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625,
    48828125, 244140625, 1220703125, 6103515625, 30517578125,
    152587890625, 762939453125, 3814697265625,
};

/* Fails a step: the message, for the call's error. */
static bool failf(char *why, size_t cap, const char *fmt, ...)
    PIER__PRINTF(3, 4);

static bool failf(char *why, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
    return false;
}

/* x / 10^ascale op y / 10^bscale, all of at most 18 digits, when the
 * result is one too: true with *out, false to take the general way. */
static bool small_calc(int op, int64_t x, int ascale, int64_t y, int bscale,
                       pier__decimal *out)
{
    int64_t r;
    int scale = ascale > bscale ? ascale : bscale;
    if (op == OP_MUL) {
        if (ascale + bscale > 18 || __builtin_mul_overflow(x, y, &r))
            return false;
        *out = (pier__decimal){ r, ascale + bscale };
        return true;
    }
    if (op == OP_DIV) {
        /* x / y * 10^(bscale - ascale). When |y| is 2^a 5^b, x / y is
         * x * 2^(k-a) 5^(k-b) / 10^k, k the larger of a and b: a product,
         * no division. Any other y takes the general way (which says
         * whether the quotient terminates). */
        if (y == 0 || y == INT64_MIN)
            return false;
        int64_t m = y < 0 ? -y : y;
        int twos = 0, fives = 0;
        while (m % 2 == 0) {
            m /= 2;
            twos++;
        }
        while (m % 5 == 0) {
            m /= 5;
            fives++;
        }
        int k = twos > fives ? twos : fives;
        if (m != 1 || k > 18)
            return false;
        /* 2^(k-twos) 5^(k-fives) = 10^k / |y|, below 10^18 */
        int64_t c = FIVE[k - fives] << (k - twos);
        if (__builtin_mul_overflow(x, y < 0 ? -c : c, &r))
            return false;
        int sc = ascale + k - bscale;
        if (sc < 0) {
            if (-sc > 18 || __builtin_mul_overflow(r, TEN[-sc], &r))
                return false;
            sc = 0;
        }
        if (sc > 18)
            return false;
        *out = (pier__decimal){ r, sc };
        return true;
    }
    if (__builtin_mul_overflow(x, TEN[scale - ascale], &x) ||
        __builtin_mul_overflow(y, TEN[scale - bscale], &y))
        return false;
    bool over;
    if (op == OP_ADD) {
        over = __builtin_add_overflow(x, y, &r);
    } else if (op == OP_SUB) {
        over = __builtin_sub_overflow(x, y, &r);
    } else {
        over = y == 0;                 /* (the general way says why) */
        r = over || y == -1 ? 0 : x % y;
    }
    if (over)
        return false;
    *out = (pier__decimal){ r, scale };
    return true;
}

/* a op b on decimals of at most 18 digits whose result is one too. */
static bool small_op(int op, const pier__decimal *pa,
                     const pier__decimal *pb, pier__decimal *out)
{
    if (pa->scale > 18 || pb->scale > 18 || pa->unscaled > INT64_MAX ||
        pa->unscaled < -INT64_MAX || pb->unscaled > INT64_MAX ||
        pb->unscaled < -INT64_MAX)
        return false;
    return small_calc(op, (int64_t)pa->unscaled, pa->scale,
                      (int64_t)pb->unscaled, pb->scale, out);
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

/* a op b exactly into *out; false with the message in why. */
static bool exact_op(int op, const pier__decimal *pa,
                     const pier__decimal *pb, pier__decimal *out, char *why,
                     size_t cap)
{
    if (small_op(op, pa, pb, out))
        return true;
    pier__decimal a = *pa, b = *pb;
    const char *fault = NULL;
    switch (op) {
    case OP_ADD:
        fault = pier__decimal_add(a, b, out) ? NULL : "";
        break;
    case OP_SUB:
        fault = pier__decimal_sub(a, b, out) ? NULL : "";
        break;
    case OP_MUL:
        fault = pier__decimal_mul(a, b, out) ? NULL : "";
        break;
    case OP_DIV:
        fault = pier__decimal_div_exact(a, b, out);
        break;
    default:
        fault = decimal_rem(a, b, out);
        break;
    }
    if (fault == NULL)
        return true;
    return failf(why, cap, "'%s': %s", signs[op],
                 fault[0] != '\0' ? fault
                                  : "the result needs more than 38 digits");
}

/* An exact operand and another: the other promoted (an integer), or why
 * not (a real, text that is no number). */
static bool exact_pair(const char *what, operand *a, operand *b, char *why,
                       size_t cap)
{
    operand *o[2] = { a, b };
    for (int k = 0; k < 2; k++) {
        if (o[k]->kind == K_INT) {
            int64_t i = o[k]->i;
            o[k]->d = (pier__decimal){ i, 0 };
            o[k]->kind = K_EXACT;
        } else if (o[k]->kind == K_REAL) {
            return failf(why, cap, "'%s' of an exact value (DECIMAL, "
                         "UINT64, INT128) and a REAL: write "
                         "CAST(x AS DECIMAL) (or the number as a string, "
                         "'1.5') to compute exactly, or CAST(... AS REAL) "
                         "for a floating-point result", what);
        } else if (o[k]->kind == K_OTHER) {
            return failf(why, cap, "'%s' of an exact value and text that "
                         "is not a number", what);
        }
    }
    return true;
}

static bool too_long(const char *what, const operand *a, const operand *b,
                     char *why, size_t cap)
{
    if (a->kind != K_TOO_LONG && (b == NULL || b->kind != K_TOO_LONG))
        return false;
    failf(why, cap, "'%s' of a number of more than 38 significant digits, "
          "which no exact value holds", what);
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

/* *a = *a op *b; false with the message in why. */
static bool step(int op, operand *a, operand *b, char *why, size_t cap)
{
    if (a->kind == K_NULL || b->kind == K_NULL) {
        a->kind = K_NULL;
        return true;
    }
    if (too_long(signs[op], a, b, why, cap))
        return false;
    if (a->kind == K_EXACT || b->kind == K_EXACT) {
        /* both small (or integers): in 64 bits */
        bool sa = a->kind == K_INT || (a->kind == K_EXACT && a->small);
        bool sb = b->kind == K_INT || (b->kind == K_EXACT && b->small);
        pier__decimal r;
        if (sa && sb &&
            small_calc(op, a->kind == K_INT ? a->i : (int64_t)a->d.unscaled,
                       a->kind == K_INT ? 0 : a->d.scale,
                       b->kind == K_INT ? b->i : (int64_t)b->d.unscaled,
                       b->kind == K_INT ? 0 : b->d.scale, &r)) {
            a->kind = K_EXACT;
            a->small = true;
            a->d = r;
            return true;
        }
        if (!exact_pair(signs[op], a, b, why, cap))
            return false;
        a->small = false;
        return exact_op(op, &a->d, &b->d, &a->d, why, cap);
    }
    as_number(a);
    as_number(b);
    if (a->kind == K_INT && b->kind == K_INT) {
        int64_t r;
        if ((op == OP_DIV || op == OP_REM) && b->i == 0) {
            a->kind = K_NULL;
        } else if (int_result(op, a->i, b->i, &r)) {
            a->i = r;
        } else {
            /* past 64 bits: the exact value, never a float */
            pier__decimal x = { a->i, 0 }, y = { b->i, 0 };
            a->kind = K_EXACT;
            a->small = false;
            return exact_op(op, &x, &y, &a->d, why, cap);
        }
        return true;
    }
    double x = real_of(a), y = real_of(b), r;
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
        r = y == 0.0 ? NAN : x / y;
        break;
    default: {
        int64_t ia = int_of(a), ib = int_of(b);
        r = ib == 0 ? NAN : (double)(ib == -1 ? 0 : ia % ib);
        break;
    }
    }
    a->kind = isnan(r) ? K_NULL : K_REAL;
    a->r = r;
    return true;
}

/* *a = -*a. */
static bool negate(operand *a, char *why, size_t cap)
{
    if (a->kind == K_NULL)
        return true;
    if (too_long("-", a, NULL, why, cap))
        return false;
    if (a->kind == K_EXACT) {
        /* 0 - a: an INT128 of 39 digits is refused, as by the others */
        pier__decimal zero = { 0, a->d.scale };
        if (!pier__decimal_sub(zero, a->d, &a->d))
            return failf(why, cap, "'-': the result needs more than 38 "
                         "digits");
        return true;
    }
    as_number(a);
    if (a->kind == K_INT && a->i == INT64_MIN) {
        a->kind = K_EXACT;
        a->small = false;
        a->d = (pier__decimal){ -(pier__i128)INT64_MIN, 0 };
    } else if (a->kind == K_INT) {
        a->i = -a->i;
    } else {
        a->r = -a->r;
    }
    return true;
}

/* A small decimal's canonical text at its smallest scale. */
static void small_result(sqlite3_context *ctx, int64_t u, int scale)
{
    while (scale > 0 && u % 10 == 0) {
        u /= 10;
        scale--;
    }
    char buf[48], *end = buf + sizeof buf - 1, *p = end;
    *end = '\0';
    uint64_t m = u < 0 ? (uint64_t)0 - (uint64_t)u : (uint64_t)u;
    int k = 0;
    do {
        if (k == scale && scale > 0)
            *--p = '.';
        *--p = (char)('0' + m % 10);
        m /= 10;
        k++;
    } while (m != 0 || k <= scale);
    if (u < 0)
        *--p = '-';
    /* -1: NUL-terminated, so that reading it as text copies nothing */
    sqlite3_result_text(ctx, p, -1, SQLITE_TRANSIENT);
}

static void result_operand(sqlite3_context *ctx, const operand *o)
{
    switch (o->kind) {
    case K_INT:
        sqlite3_result_int64(ctx, o->i);
        break;
    case K_REAL:
        sqlite3_result_double(ctx, o->r);
        break;
    case K_EXACT:
        if (o->d.scale <= 18 && o->d.unscaled <= INT64_MAX &&
            o->d.unscaled >= -INT64_MAX)
            small_result(ctx, (int64_t)o->d.unscaled, o->d.scale);
        else
            pier__sqlfn_result_total(ctx, o->d);
        break;
    default:
        sqlite3_result_null(ctx);
        break;
    }
}

/* The most leaves one call takes (SQLite allows 127 arguments). */
#define MAX_ARGS 127

/* A leaf read as text, kept so that the same column given again (a * 3 -
 * a / 4 passes a twice) is not read twice. */
typedef struct leaf {
    const char *text;
    int len;
    operand value;
} leaf;

#define SEEN 4

static void read_leaf(sqlite3_value **argv, int k, leaf *seen,
                      size_t *nseen, operand *out)
{
    if (sqlite3_value_type(argv[k]) != SQLITE_TEXT) {
        read_into(argv[k], out);
        return;
    }
    const char *text = (const char *)sqlite3_value_text(argv[k]);
    int len = sqlite3_value_bytes(argv[k]);
    for (size_t i = 0; text != NULL && i < *nseen; i++)
        if (seen[i].len == len && memcmp(seen[i].text, text, (size_t)len) ==
                                      0) {
            *out = seen[i].value;
            return;
        }
    read_into(argv[k], out);
    if (text != NULL && *nseen < SEEN)
        seen[(*nseen)++] = (leaf){ text, len, *out };
}

/*
 * Runs the program of _pxe('program', leaf...) (and of the fused
 * aggregates) on its leaves: a tree of operators in postfix. 'x' takes
 * the next leaf; '+', '-', '*', '/' and '%' apply to the two values
 * before them; 'n' negates the one before it. The front-end writes the
 * program (src/sql/exactops.c); one that does not read is an error.
 * False with the error set on the call.
 */
static const operand *run_program(sqlite3_context *ctx, int argc,
                                  sqlite3_value **argv,
                                  operand stack[MAX_ARGS])
{
    const char *prog = (const char *)sqlite3_value_text(argv[0]);
    size_t len = (size_t)sqlite3_value_bytes(argv[0]);
    size_t sp = 0;
    int next = 1;
    char why[256];
    bool ok = prog != NULL;
    leaf seen[SEEN];
    size_t nseen = 0;
    for (size_t i = 0; ok && i < len; i++) {
        int op = -1;
        switch (prog[i]) {
        case 'x':
            ok = next < argc && sp < MAX_ARGS;
            if (ok)
                read_leaf(argv, next++, seen, &nseen, &stack[sp++]);
            continue;
        case 'n':
            ok = sp >= 1;
            if (ok && !negate(&stack[sp - 1], why, sizeof why)) {
                sqlite3_result_error(ctx, why, -1);
                return NULL;
            }
            continue;
        case '+':
            op = OP_ADD;
            break;
        case '-':
            op = OP_SUB;
            break;
        case '*':
            op = OP_MUL;
            break;
        case '/':
            op = OP_DIV;
            break;
        case '%':
            op = OP_REM;
            break;
        default:
            ok = false;
            continue;
        }
        ok = sp >= 2;
        if (ok && !step(op, &stack[sp - 2], &stack[sp - 1], why,
                        sizeof why)) {
            sqlite3_result_error(ctx, why, -1);
            return NULL;
        }
        sp--;
    }
    if (!ok || sp != 1 || next != argc) {
        sqlite3_result_error(ctx, "_pxe: not a program of its arguments",
                             -1);
        return NULL;
    }
    return &stack[0];
}

static void eval_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    operand stack[MAX_ARGS];
    const operand *o = run_program(ctx, argc, argv, stack);
    if (o != NULL)
        result_operand(ctx, o);
}

/* _pxsum('program', leaf...), _pxavg, _pxtotal: sum(), avg() and total()
 * of the tree, each value added as it is computed (no text between). */
static void fused_add(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                      int sign)
{
    operand stack[MAX_ARGS];
    const operand *r = run_program(ctx, argc, argv, stack);
    if (r == NULL)
        return;
    switch (r->kind) {
    case K_INT:
        pier__sqlfn_sum_add(ctx, SQLITE_INTEGER, r->i, 0, NULL, sign);
        break;
    case K_REAL:
        pier__sqlfn_sum_add(ctx, SQLITE_FLOAT, 0, r->r, NULL, sign);
        break;
    case K_EXACT:
        pier__sqlfn_sum_add(ctx, SQLITE_TEXT, 0, 0, &r->d, sign);
        break;
    case K_OTHER: {
        operand o = *r;
        as_number(&o);
        if (o.kind == K_INT)
            pier__sqlfn_sum_add(ctx, SQLITE_INTEGER, o.i, 0, NULL, sign);
        else
            pier__sqlfn_sum_add(ctx, SQLITE_FLOAT, 0, o.r, NULL, sign);
        break;
    }
    case K_TOO_LONG:
        pier__sqlfn_sum_add(ctx, SQLITE_TEXT, 0, 0, NULL, sign);
        break;
    default:
        break;
    }
}

static void fused_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    fused_add(ctx, argc, argv, 1);
}

static void fused_inverse(sqlite3_context *ctx, int argc,
                          sqlite3_value **argv)
{
    fused_add(ctx, argc, argv, -1);
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

/* x against y, neither NULL: -1, 0 or 1. Numbers (numeric text
 * included) by value, exactly; anything else in SQLite's order of storage
 * classes, text and blobs by bytes. */
static int compare_values(sqlite3_value *x, sqlite3_value *y)
{
    sqlite3_value *argv[2] = { x, y };
    operand a, b;
    read_into(x, &a);
    read_into(y, &b);
    if (a.kind == K_TOO_LONG || b.kind == K_TOO_LONG)
        return long_compare(x, y);
    bool na = a.kind != K_OTHER, nb = b.kind != K_OTHER;
    if (na && nb) {
        if (a.kind == K_INT && b.kind == K_INT)
            return (a.i > b.i) - (a.i < b.i);
        if (a.kind != K_EXACT && b.kind != K_EXACT)
            return compare_reals(real_of(&a), real_of(&b));
        /* an exact value and a number: a real by its shortest text */
        operand *o[2] = { &a, &b };
        bool ok = true;
        for (int k = 0; ok && k < 2; k++) {
            int64_t i = o[k]->i;
            if (o[k]->kind == K_INT)
                o[k]->d = (pier__decimal){ i, 0 };
            else if (o[k]->kind == K_REAL)
                ok = isfinite(o[k]->r) &&
                     pier__sqlfn_decimal(argv[k], &o[k]->d) == NULL;
        }
        pier__decimal diff;
        if (ok && pier__decimal_sub(a.d, b.d, &diff))
            return (diff.unscaled > 0) - (diff.unscaled < 0);
        /* too far apart for 38 digits (or an infinity): as reals */
        return compare_reals(sqlite3_value_double(x),
                             sqlite3_value_double(y));
    }
    int ca = class_of(x), cb = class_of(y);
    if (na)
        ca = 1;
    if (nb)
        cb = 1;
    if (ca != cb)
        return ca < cb ? -1 : 1;
    /* two texts or two blobs, one of them not a number */
    const void *bx = ca == 2 ? (const void *)sqlite3_value_text(x)
                             : sqlite3_value_blob(x);
    size_t nx = (size_t)sqlite3_value_bytes(x);
    const void *by = ca == 2 ? (const void *)sqlite3_value_text(y)
                             : sqlite3_value_blob(y);
    size_t ny = (size_t)sqlite3_value_bytes(y);
    size_t m = nx < ny ? nx : ny;
    int c = m > 0 && bx != NULL && by != NULL ? memcmp(bx, by, m) : 0;
    if (c == 0)
        c = (nx > ny) - (nx < ny);
    return sign_of(c);
}

/* _pxc(a, b): -1, 0 or 1 as a is below, equal to or above b
 * (compare_values); NULL when one is. */
static void cmp_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
        sqlite3_value_type(argv[1]) == SQLITE_NULL)
        sqlite3_result_null(ctx);
    else
        sqlite3_result_int(ctx, compare_values(argv[0], argv[1]));
}

/* _pxmin(a, b, ...) and _pxmax: the scalar min() and max() of values one
 * of which may be exact, by compare_values; NULL when an argument is (as
 * SQLite's are). The value chosen is returned as it is, but for a number
 * chosen over an exact value: as its text, so that every row's result is
 * text that the pier_numeric collation orders by value. */
static char want_max;                   /* _pxmax's user data */

static void minmax_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    int want = sqlite3_user_data(ctx) != NULL ? 1 : -1;
    int best = 0;
    bool exact = false;
    for (int k = 0; k < argc; k++) {
        if (sqlite3_value_type(argv[k]) == SQLITE_NULL)
            return;                             /* (the result is NULL) */
        operand o;
        read_into(argv[k], &o);
        exact = exact || o.kind == K_EXACT || o.kind == K_TOO_LONG;
        if (k > 0 && compare_values(argv[k], argv[best]) == want)
            best = k;
    }
    int type = sqlite3_value_type(argv[best]);
    if (!exact || (type != SQLITE_INTEGER && type != SQLITE_FLOAT)) {
        sqlite3_result_value(ctx, argv[best]);
        return;
    }
    char buf[PIER__DOUBLE_BUF];
    const char *text;
    size_t n = number_text(argv[best], buf, &text);
    sqlite3_result_text(ctx, text, (int)n, SQLITE_TRANSIENT);
}

int pier__sqlite_register_exact_ops(sqlite3 *db)
{
    static const struct {
        const char *name;
        int nargs;
        void (*fn)(sqlite3_context *, int, sqlite3_value **);
    } fns[] = {
        { "_pxc", 2, cmp_fn },
    };
    const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    int rc = SQLITE_OK;
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof fns / sizeof fns[0];
         i++)
        rc = sqlite3_create_function_v2(db, fns[i].name, fns[i].nargs, flags,
                                        NULL, fns[i].fn, NULL, NULL, NULL);
    /* _pxe once per count of arguments (the program and its leaves), so
     * that EXPLAIN shows how many a call has (sqlite_exact.c) */
    static const struct {
        const char *name;
        void (*final)(sqlite3_context *);
    } aggregates[] = {
        { "_pxsum", pier__sqlfn_sum_final },
        { "_pxavg", pier__sqlfn_avg_final },
        { "_pxtotal", pier__sqlfn_total_final },
    };
    for (int n = 2; rc == SQLITE_OK && n <= PIER__EXACT_OPS_LEAVES + 1;
         n++) {
        rc = sqlite3_create_function_v2(db, "_pxe", n, flags, NULL, eval_fn,
                                        NULL, NULL, NULL);
        if (rc == SQLITE_OK)
            rc = sqlite3_create_function_v2(db, "_pxmin", n, flags, NULL,
                                            minmax_fn, NULL, NULL, NULL);
        if (rc == SQLITE_OK)
            rc = sqlite3_create_function_v2(db, "_pxmax", n, flags, &want_max,
                                            minmax_fn, NULL, NULL, NULL);
        for (size_t k = 0; rc == SQLITE_OK && k < 3; k++)
            rc = sqlite3_create_window_function(
                db, aggregates[k].name, n, flags, NULL, fused_step,
                aggregates[k].final, aggregates[k].final, fused_inverse,
                NULL);
    }
    return rc;
}
