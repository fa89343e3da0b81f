/*
 * real.c: the canonical text of a double, and of a float.
 *
 * The text is the shortest of %.15g, %.16g and %.17g that strtod reads
 * back as the same double: 15 digits round-trip every decimal a person
 * typed with up to 15 significant digits ("0.1" stays "0.1"), and 17 digits
 * round-trip every double. Staying at 15 or more digits keeps %g in fixed
 * notation for everyday magnitudes ("100.0", not "1e+02"). The result is
 * therefore not always the absolute shortest: 5e-324 reads
 * "4.94065645841247e-324".
 *
 * %g and strtod follow LC_NUMERIC: they run in the "C" locale
 * (base/cnum.c), whatever locale the application set.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "types/types.h"

/* Without a point, an exponent or "inf"/"nan" the text reads as an
 * integer; ".0" keeps it a real number in JSON and in text. */
static size_t mark_real(char *out, int len)
{
    if (strpbrk(out, ".eni") == NULL) {
        out[len++] = '.';
        out[len++] = '0';
        out[len] = '\0';
    }
    return (size_t)len;
}

/*
 * The common case without snprintf and strtod: a value that is some
 * integer n over 10^k, n < 2^53 with at most 15 digits, and between 1e-4
 * and 1e15 (where %g prints fixed notation). IEEE division is correctly
 * rounded, so (double)n / 10^k is the double nearest to the decimal n/10^k,
 * which is what strtod makes of its text: when that equals the value, the
 * text reads back exactly, and the smallest such k gives the digits that
 * %.15g would print. Returns 0 when the value is not of this form.
 */
static size_t fast_format(double d, char out[PIER__DOUBLE_BUF])
{
    static const double pow10[] = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
        1e13, 1e14, 1e15,
    };
    double a = d < 0 ? -d : d;
    if (!(a >= 1e-4 && a < 1e15))
        return 0;
    for (int k = 0; k <= 15; k++) {
        double scaled = a * pow10[k];
        if (scaled >= 1e15)               /* more than 15 digits */
            return 0;
        int64_t n = (int64_t)(scaled + 0.5);
        if ((double)n / pow10[k] != a)
            continue;
        char digits[24];
        int nd = 0;
        do {
            digits[nd++] = (char)('0' + n % 10);
            n /= 10;
        } while (n > 0);
        while (nd <= k)                   /* "0.00x": leading zeros */
            digits[nd++] = '0';
        size_t len = 0;
        if (d < 0)
            out[len++] = '-';
        for (int i = nd - 1; i >= 0; i--) {
            out[len++] = digits[i];
            if (i == k && k > 0)
                out[len++] = '.';
        }
        if (k == 0) {
            out[len++] = '.';
            out[len++] = '0';
        }
        out[len] = '\0';
        return len;
    }
    return 0;
}

size_t pier__double_format(double d, char out[PIER__DOUBLE_BUF])
{
    if (isinf(d)) {
        /* JSON has no infinity; a number too large for a double reads
         * back as one, and SQLite writes it so too. */
        strcpy(out, d > 0 ? "9e999" : "-9e999");
        return strlen(out);
    }
    size_t fast = fast_format(d, out);
    if (fast > 0)
        return fast;
    int len = 0;
    for (int prec = 15; prec <= 17; prec++) {
        len = pier__snprintf_c(out, PIER__DOUBLE_BUF, "%.*g", prec, d);
        /* Comparing bits, not values: -0.0 == 0.0 would hide a lost sign.
         * 17 digits read back for every finite double; the loop stops
         * there at the latest. */
        double back = pier__strtod(out, NULL);
        if (memcmp(&back, &d, sizeof d) == 0)
            break;
    }
    return mark_real(out, len);
}

/* The same for a 32-bit float: the shortest of 6 to 9 significant digits
 * that reads back as the same float, so that a float column holding 0.1
 * reads "0.1", not the double nearest to the float ("0.10000000149..."). */
size_t pier__float_format(float f, char out[PIER__DOUBLE_BUF])
{
    int len = 0;
    for (int prec = 6; prec <= 9; prec++) {
        len = pier__snprintf_c(out, PIER__DOUBLE_BUF, "%.*g", prec,
                               (double)f);
        float back = pier__strtof(out, NULL);
        if (memcmp(&back, &f, sizeof f) == 0)
            break;
    }
    return mark_real(out, len);
}
