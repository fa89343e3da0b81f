/*
 * decimal.c: exact decimal numbers as text.
 *
 * A decimal is an unscaled 128-bit integer and a scale (value = unscaled /
 * 10^scale). Parsing reads the text's digits and exponent into a digit
 * string and a power of ten, without the zeros that carry no information
 * (leading ones, and trailing ones, which move the power), and only then
 * decides whether the value fits the column: the text is
 * never rounded, only refused. At most 38 digits are ever kept, so every
 * unscaled value fits 128 bits (10^38 < 2^127).
 *
 * The arithmetic SQL functions need (sqlcol.h) follows: exact sums,
 * differences and products, and division at a given scale and rounding.
 */
#include <string.h>

#include "types/sqlcol.h"

/* Digits read before giving up on a text as absurdly long: far more than
 * any value that fits, so that a refusal says what is wrong. */
#define MAX_READ_DIGITS 200
/* The largest exponent read; beyond it no value fits anyway. */
#define MAX_EXPONENT 100000

/* 10^k for k in 0..38. */
static pier__i128 pow10_i128(int k)
{
    pier__i128 v = 1;
    while (k-- > 0)
        v *= 10;
    return v;
}

/* The digits of a decimal's text, without leading or trailing zeros, and
 * the power of ten they are multiplied by. */
typedef struct mantissa {
    char d[MAX_READ_DIGITS];
    int n;
    long power;
    bool negative;
} mantissa;

static const char *read_number(const char *s, size_t n, mantissa *out)
{
    size_t i = 0;
    memset(out, 0, sizeof *out);
    if (i < n && (s[i] == '-' || s[i] == '+'))
        out->negative = s[i++] == '-';
    long seen = 0;               /* digits in the mantissa, zeros too */
    long frac = 0;               /* of them, after the point */
    long zeros = 0;              /* zeros since the last other digit */
    bool point = false;
    for (; i < n; i++) {
        char c = s[i];
        if (c == '.' && !point) {
            point = true;
            continue;
        }
        if (c < '0' || c > '9')
            break;
        seen++;
        if (point)
            frac++;
        if (c == '0') {          /* kept only if another digit follows */
            zeros += out->n > 0;
            continue;
        }
        if (out->n + zeros >= MAX_READ_DIGITS)
            return "a decimal of more than 38 digits";
        for (; zeros > 0; zeros--)
            out->d[out->n++] = '0';
        out->d[out->n++] = c;
    }
    if (seen == 0)
        return "a decimal needs digits (like 12.50)";
    long exp = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool neg = false;
        if (i < n && (s[i] == '-' || s[i] == '+'))
            neg = s[i++] == '-';
        size_t start = i;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            if (exp <= MAX_EXPONENT)
                exp = exp * 10 + (s[i] - '0');
        if (i == start)
            return "a decimal's exponent needs digits (like 1.5e3)";
        if (exp > MAX_EXPONENT)
            return "a decimal's exponent is out of range";
        if (neg)
            exp = -exp;
    }
    if (i != n)
        return "a decimal is digits with an optional point and exponent "
               "(like 12.50 or -1.5e3)";
    out->power = exp - frac + zeros;    /* trailing zeros: a power */
    return NULL;
}

/* The digits times 10^shift (shift >= 0, and n + shift <= 38). */
static pier__i128 scaled(const mantissa *d, long shift)
{
    pier__i128 v = 0;
    for (int k = 0; k < d->n; k++)
        v = v * 10 + (d->d[k] - '0');
    return v * pow10_i128((int)shift);
}

const char *pier__decimal_parse(const char *s, size_t n, int precision,
                                int scale, pier__decimal *out)
{
    mantissa d;
    const char *why = read_number(s, n, &d);
    if (why != NULL)
        return why;
    if (d.n == 0) {                               /* zero, of any sign */
        out->unscaled = 0;
        out->scale = precision > 0 ? scale : 0;
        return NULL;
    }
    int to_scale;
    if (precision > 0) {
        if (d.power < -(long)scale)
            return "more digits after the point than the column's scale "
                   "allows (values are never rounded)";
        if (d.n + d.power + scale > precision)
            return "more digits before the point than the column's "
                   "precision allows";
        to_scale = scale;
    } else {
        if (d.power < -PIER__DECIMAL_MAX_DIGITS)
            return "a decimal of more than 38 digits after the point";
        to_scale = d.power < 0 ? (int)-d.power : 0;
        if (d.n + d.power + to_scale > PIER__DECIMAL_MAX_DIGITS)
            return "a decimal of more than 38 digits";
    }
    pier__i128 v = scaled(&d, d.power + to_scale);
    out->unscaled = d.negative ? -v : v;
    out->scale = to_scale;
    return NULL;
}

size_t pier__decimal_format(pier__decimal d, char out[PIER__DECIMAL_BUF])
{
    char rev[PIER__DECIMAL_BUF];
    int n = 0;
    bool negative = d.unscaled < 0;
    /* Digits of the magnitude, least significant first; unsigned, so that
     * an INT128's extremes (39 digits, as a computation may pass them on)
     * read too. */
    pier__u128 v = negative ? (pier__u128)0 - (pier__u128)d.unscaled
                            : (pier__u128)d.unscaled;
    do {
        rev[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v != 0);
    while (n <= d.scale)                /* at least one digit before "." */
        rev[n++] = '0';
    char *p = out;
    if (negative)
        *p++ = '-';
    for (int k = n - 1; k >= 0; k--) {
        *p++ = rev[k];
        if (k == d.scale && k > 0)
            *p++ = '.';
    }
    *p = '\0';
    return (size_t)(p - out);
}

bool pier__decimal_rescale(pier__decimal d, int scale, pier__decimal *out)
{
    if (scale < d.scale || scale > PIER__DECIMAL_MAX_DIGITS)
        return false;
    /* (unsigned: the smallest INT128 has no negation) */
    pier__u128 mag = d.unscaled < 0 ? (pier__u128)0 - (pier__u128)d.unscaled
                                    : (pier__u128)d.unscaled;
    int digits = 0;
    for (pier__u128 v = mag; v != 0; v /= 10)
        digits++;
    if (mag != 0 && digits + (scale - d.scale) > PIER__DECIMAL_MAX_DIGITS)
        return false;
    out->unscaled = d.unscaled * pow10_i128(scale - d.scale);
    out->scale = scale;
    return true;
}

/* ---- arithmetic ----
 *
 * Exact, on magnitudes in unsigned 128 bits with the sign apart: a sum of
 * two 38-digit values or a product's overflow test never wraps, and every
 * test comes before the operation it guards. A result of more than 38
 * digits is refused, never rounded; only division rounds, and only as it
 * is told.
 */

#define U128_MAX (~(pier__u128)0)

/* 10^38 - 1: the largest magnitude of 38 digits. */
static pier__u128 max_magnitude(void)
{
    return (pier__u128)pow10_i128(PIER__DECIMAL_MAX_DIGITS) - 1;
}

static pier__u128 magnitude(pier__i128 v)
{
    return v < 0 ? (pier__u128)0 - (pier__u128)v : (pier__u128)v;
}

/* Whether `d` is a decimal these functions take: 38 digits at most, at a
 * scale of 0 to 38. */
static bool in_range(pier__decimal d)
{
    return d.scale >= 0 && d.scale <= PIER__DECIMAL_MAX_DIGITS &&
           magnitude(d.unscaled) <= max_magnitude();
}

/* The decimal of this sign and magnitude at `scale`, if it has at most 38
 * digits. */
static bool make(bool negative, pier__u128 mag, int scale,
                 pier__decimal *out)
{
    if (mag > max_magnitude())
        return false;
    out->unscaled = negative ? -(pier__i128)mag : (pier__i128)mag;
    out->scale = scale;
    return true;
}

/* |v| * 10^k, false if it passes 128 bits. */
static bool scaled_magnitude(pier__i128 v, int k, pier__u128 *out)
{
    pier__u128 m = magnitude(v);
    for (; k > 0; k--) {
        if (m > U128_MAX / 10)
            return false;
        m *= 10;
    }
    *out = m;
    return true;
}

bool pier__decimal_add(pier__decimal a, pier__decimal b, pier__decimal *out)
{
    if (!in_range(a) || !in_range(b))
        return false;
    int scale = a.scale > b.scale ? a.scale : b.scale;
    /* Only the operand of the smaller scale grows. If it passes 128 bits
     * (over 3.4e38) the other, below 1e38, cannot bring the sum back to
     * 38 digits. */
    pier__u128 ma, mb;
    if (!scaled_magnitude(a.unscaled, scale - a.scale, &ma) ||
        !scaled_magnitude(b.unscaled, scale - b.scale, &mb))
        return false;
    bool na = a.unscaled < 0, nb = b.unscaled < 0;
    if (na == nb) {
        if (ma > max_magnitude() || mb > max_magnitude() - ma)
            return false;
        return make(na, ma + mb, scale, out);
    }
    return ma >= mb ? make(na, ma - mb, scale, out)
                    : make(nb, mb - ma, scale, out);
}

bool pier__decimal_sub(pier__decimal a, pier__decimal b, pier__decimal *out)
{
    if (!in_range(b))
        return false;
    b.unscaled = -b.unscaled;             /* 38 digits: cannot overflow */
    return pier__decimal_add(a, b, out);
}

bool pier__decimal_mul(pier__decimal a, pier__decimal b, pier__decimal *out)
{
    if (!in_range(a) || !in_range(b) ||
        a.scale + b.scale > PIER__DECIMAL_MAX_DIGITS)
        return false;
    pier__u128 ma = magnitude(a.unscaled), mb = magnitude(b.unscaled);
    if (ma != 0 && mb > max_magnitude() / ma)
        return false;
    return make((a.unscaled < 0) != (b.unscaled < 0), ma * mb,
                a.scale + b.scale, out);
}

bool pier__rounding_parse(const char *s, size_t n, pier__rounding *out)
{
    static const char *const names[] = {
        [PIER__ROUND_HALF_EVEN] = "half_even",
        [PIER__ROUND_HALF_UP] = "half_up",
        [PIER__ROUND_DOWN] = "down",
        [PIER__ROUND_UP] = "up",
        [PIER__ROUND_FLOOR] = "floor",
        [PIER__ROUND_CEILING] = "ceiling",
        [PIER__ROUND_HALF_DOWN] = "half_down",
    };
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        if (pier__name_eq(s, n, names[k], strlen(names[k]))) {
            *out = (pier__rounding)k;
            return true;
        }
    }
    return false;
}

/* 10r / d and 10r % d for r < d, though 10r may pass 128 bits. */
static pier__u128 next_digit(pier__u128 r, pier__u128 d, unsigned *digit)
{
    if (r <= U128_MAX / 10) {
        pier__u128 t = r * 10;
        *digit = (unsigned)(t / d);
        return t % d;
    }
    /* Adds r ten times modulo d, counting the wraps; acc < d throughout,
     * and acc + r >= d is tested as acc >= d - r, which cannot wrap. */
    pier__u128 acc = 0;
    unsigned k = 0;
    for (int i = 0; i < 10; i++) {
        if (acc >= d - r) {
            acc -= d - r;
            k++;
        } else {
            acc += r;
        }
    }
    *digit = k;
    return acc;
}

/* Where a division's remainder r stands against its divisor d. */
typedef enum rest {
    REST_NONE,         /* exact */
    REST_BELOW_HALF,
    REST_HALF,
    REST_ABOVE_HALF
} rest;

static const char too_many[] = "the result needs more than 38 digits";

/*
 * |a| / |b| at `scale`, truncated: its magnitude and where the rest
 * stands. The quotient's unscaled value is |A| * 10^e / |B| with e = b's
 * scale + scale - a's scale (-38 .. 76): long division, one digit per
 * power of ten, stops as soon as the quotient passes 38 digits (rounding
 * can only make it larger).
 */
static const char *divide(pier__decimal a, pier__decimal b, int scale,
                          pier__u128 *q_out, rest *rest_out)
{
    pier__u128 n = magnitude(a.unscaled), d = magnitude(b.unscaled);
    int e = b.scale + scale - a.scale;
    pier__u128 q, r;
    if (e < 0) {
        /* The divisor takes the power of ten. Past 128 bits it is more
         * than twice any dividend: the quotient is 0, the rest below
         * half. */
        for (; e < 0; e++) {
            if (d > U128_MAX / 10) {
                *q_out = 0;
                *rest_out = n == 0 ? REST_NONE : REST_BELOW_HALF;
                return NULL;
            }
            d *= 10;
        }
        q = n / d;
        r = n % d;
    } else {
        q = n / d;
        r = n % d;
        for (; e > 0; e--) {
            unsigned digit;
            r = next_digit(r, d, &digit);
            if (q > (max_magnitude() - digit) / 10)
                return too_many;
            q = q * 10 + digit;
        }
    }
    if (q > max_magnitude())
        return too_many;
    *q_out = q;
    /* r against d - r: 2r could pass 128 bits. */
    *rest_out = r == 0 ? REST_NONE
              : r < d - r ? REST_BELOW_HALF
              : r == d - r ? REST_HALF
              : REST_ABOVE_HALF;
    return NULL;
}

const char *pier__decimal_div(pier__decimal a, pier__decimal b, int scale,
                              pier__rounding mode, pier__decimal *out)
{
    if (scale < 0 || scale > PIER__DECIMAL_MAX_DIGITS)
        return "a decimal's scale is 0 to 38";
    if (!in_range(a) || !in_range(b))
        return "an operand is not a decimal of at most 38 digits";
    if (b.unscaled == 0)
        return "division by zero";
    pier__u128 q;
    rest r;
    const char *why = divide(a, b, scale, &q, &r);
    if (why != NULL)
        return why;
    bool negative = (a.unscaled < 0) != (b.unscaled < 0);
    bool away;                            /* from zero, by one unit */
    switch (mode) {
    case PIER__ROUND_HALF_EVEN:
        away = r == REST_ABOVE_HALF || (r == REST_HALF && (q & 1) != 0);
        break;
    case PIER__ROUND_HALF_UP:
        away = r == REST_HALF || r == REST_ABOVE_HALF;
        break;
    case PIER__ROUND_HALF_DOWN:
        away = r == REST_ABOVE_HALF;
        break;
    case PIER__ROUND_DOWN:
        away = false;
        break;
    case PIER__ROUND_UP:
        away = r != REST_NONE;
        break;
    case PIER__ROUND_FLOOR:
        away = r != REST_NONE && negative;
        break;
    case PIER__ROUND_CEILING:
        away = r != REST_NONE && !negative;
        break;
    default:
        return "an unknown rounding mode";
    }
    /* q <= 10^38 - 1, so q + 1 cannot wrap; make() refuses 10^38. */
    if (!make(negative, q + away, scale, out))
        return too_many;
    return NULL;
}

const char *pier__decimal_round(pier__decimal d, int scale,
                                pier__rounding mode, pier__decimal *out)
{
    /* Division by one rounds exactly as division does. */
    return pier__decimal_div(d, (pier__decimal){ 1, 0 }, scale, mode, out);
}

static pier__u128 gcd(pier__u128 x, pier__u128 y)
{
    while (y != 0) {
        pier__u128 t = x % y;
        x = y;
        y = t;
    }
    return x;
}

const char *pier__decimal_div_exact(pier__decimal a, pier__decimal b,
                                    pier__decimal *out)
{
    if (!in_range(a) || !in_range(b))
        return "an operand is not a decimal of at most 38 digits";
    if (b.unscaled == 0)
        return "division by zero";
    /* |A| / |B| terminates when B, with the factors it shares with A
     * taken out, is 2^i 5^j; it then needs max(i, j) digits after the
     * point, and a / b = (A / B) * 10^(b's scale - a's scale). */
    pier__u128 n = magnitude(a.unscaled), d = magnitude(b.unscaled);
    d /= gcd(n, d);
    int twos = 0, fives = 0;
    for (; d % 2 == 0; d /= 2)
        twos++;
    for (; d % 5 == 0; d /= 5)
        fives++;
    int places = (twos > fives ? twos : fives) + a.scale - b.scale;
    int scale = places > a.scale ? places : a.scale;
    if (d != 1 || scale > PIER__DECIMAL_MAX_DIGITS)
        return "the quotient does not terminate within 38 digits after "
               "the point (like 1/3): use decimal_div with a scale and a "
               "rounding mode";
    /* Exact at this scale: any mode gives the same result. */
    return pier__decimal_div(a, b, scale, PIER__ROUND_DOWN, out);
}
