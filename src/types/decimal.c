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
 */
#include <string.h>

#include "types/codecs.h"

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
    /* Digits of the magnitude, least significant first; a 38-digit
     * magnitude's negation cannot overflow. */
    pier__i128 v = negative ? -d.unscaled : d.unscaled;
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
    pier__i128 mag = d.unscaled < 0 ? -d.unscaled : d.unscaled;
    int digits = 0;
    for (pier__i128 v = mag; v != 0; v /= 10)
        digits++;
    if (mag != 0 && digits + (scale - d.scale) > PIER__DECIMAL_MAX_DIGITS)
        return false;
    out->unscaled = d.unscaled * pow10_i128(scale - d.scale);
    out->scale = scale;
    return true;
}
