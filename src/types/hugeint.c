/*
 * hugeint.c: 128-bit integers as decimal text and as the public
 * pier_hugeint struct; the digit pairs every integer formatter shares.
 *
 * Arithmetic runs on the unsigned magnitude so that INT128_MIN, whose
 * magnitude has no signed form, parses and formats like any other value.
 */
#include <string.h>

#include "types/types.h"

/* 2^127: the magnitude of INT128_MIN, one more than INT128_MAX. */
#define I128_MIN_MAGNITUDE ((pier__u128)1 << 127)

bool pier__i128_parse(const char *s, size_t n, pier__i128 *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < n && s[i] == '-') {
        neg = true;
        i++;
    }
    if (i == n)
        return false;               /* "" or a lone "-" */
    pier__u128 limit = neg ? I128_MIN_MAGNITUDE : I128_MIN_MAGNITUDE - 1;
    pier__u128 mag = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        unsigned d = (unsigned)(s[i] - '0');
        if (mag > (limit - d) / 10)
            return false;           /* mag * 10 + d would pass the limit */
        mag = mag * 10 + d;
    }
    /* Negating in unsigned arithmetic wraps to the two's complement form;
     * converting that to signed is modular on every gcc/clang target. */
    *out = (pier__i128)(neg ? (pier__u128)0 - mag : mag);
    return true;
}

const char pier__digit_pairs[201] =
    "0001020304050607080910111213141516171819"
    "2021222324252627282930313233343536373839"
    "4041424344454647484950515253545556575859"
    "6061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* The digits of a 64-bit magnitude, two per division (a division of a
 * 64-bit value by a constant is a multiplication; a 128-bit one is a call
 * into libgcc). */
static size_t u64_format(uint64_t v, char *out)
{
    char tmp[20];
    size_t k = sizeof tmp;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100);
        v /= 100;
        k -= 2;
        memcpy(tmp + k, pier__digit_pairs + 2 * d, 2);
    }
    if (v >= 10) {
        k -= 2;
        memcpy(tmp + k, pier__digit_pairs + 2 * v, 2);
    } else {
        tmp[--k] = (char)('0' + v);
    }
    memcpy(out, tmp + k, sizeof tmp - k);
    return sizeof tmp - k;
}

size_t pier__i128_format(pier__i128 v, char out[PIER__I128_BUF])
{
    size_t len = 0;
    pier__u128 mag = v < 0 ? (pier__u128)0 - (pier__u128)v : (pier__u128)v;
    if (v < 0)
        out[len++] = '-';
    if (mag <= UINT64_MAX) {           /* every integer but a hugeint's */
        len += u64_format((uint64_t)mag, out + len);
        out[len] = '\0';
        return len;
    }
    char tmp[PIER__I128_BUF];
    size_t k = 0;
    do {
        tmp[k++] = (char)('0' + (unsigned)(mag % 10));
        mag /= 10;
    } while (mag != 0);
    while (k > 0)
        out[len++] = tmp[--k];
    out[len] = '\0';
    return len;
}

pier_hugeint pier__i128_to_public(pier__i128 v)
{
    pier__u128 u = (pier__u128)v;
    pier_hugeint h;
    h.hi = (int64_t)(uint64_t)(u >> 64);
    h.lo = (uint64_t)u;
    return h;
}

pier__i128 pier__i128_from_public(pier_hugeint v)
{
    pier__u128 u = ((pier__u128)(uint64_t)v.hi << 64) | v.lo;
    return (pier__i128)u;
}
