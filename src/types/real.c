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
 * %g and strtod follow LC_NUMERIC; Pier assumes the "C" locale, as the
 * library never calls setlocale.
 */
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

size_t pier__double_format(double d, char out[PIER__DOUBLE_BUF])
{
    int len = 0;
    for (int prec = 15; prec <= 17; prec++) {
        len = snprintf(out, PIER__DOUBLE_BUF, "%.*g", prec, d);
        /* Comparing bits, not values: -0.0 == 0.0 would hide a lost sign.
         * 17 digits read back for every finite double; the loop stops
         * there at the latest. */
        double back = strtod(out, NULL);
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
        len = snprintf(out, PIER__DOUBLE_BUF, "%.*g", prec, (double)f);
        float back = strtof(out, NULL);
        if (memcmp(&back, &f, sizeof f) == 0)
            break;
    }
    return mark_real(out, len);
}
