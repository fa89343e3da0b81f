/*
 * codecs.h: the text forms of the SQL dialect's scalar types: parsing what
 * a writer gives (validating it) and formatting the canonical text a reader
 * gets back.
 *
 * Each parser takes the text and its length (not NUL-terminated) and
 * returns NULL when the text is a value of the type, or a static phrase
 * saying why not, for an error message ("more digits after the point than
 * scale 2 allows"). Nothing here allocates, does I/O or touches SQLite;
 * tests/unit/test_codecs.c covers every boundary. How the values are
 * stored, ordered and compared inside SQLite is the registry's concern
 * (types.h); these are the edges.
 */
#ifndef PIER_TYPES_CODECS_H
#define PIER_TYPES_CODECS_H

#include "types/types.h"

/* ---- UUID ---- */

/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" and the NUL. */
#define PIER__UUID_BUF 37

/* The canonical 8-4-4-4-12 form in either case, or the same 32 hex digits
 * without hyphens, into 16 bytes (big-endian, as written). */
const char *pier__uuid_parse(const char *s, size_t n, unsigned char out[16]);
/* The canonical form, lowercase; returns 36. */
size_t pier__uuid_format(const unsigned char in[16],
                         char out[PIER__UUID_BUF]);

/* ---- DECIMAL and DECIMAL(p,s) ---- */

/* The most significant digits a decimal holds: 38, which an unscaled
 * 128-bit integer always fits. */
#define PIER__DECIMAL_MAX_DIGITS 38
/* Sign, 38 digits, a point, a leading "0." and the NUL, with room. */
#define PIER__DECIMAL_BUF 48

/*
 * A decimal's value is unscaled / 10^scale. A column DECIMAL(p,s) keeps
 * every value at scale s with at most p digits (p - s before the point);
 * DECIMAL alone keeps any value of up to 38 significant digits at the
 * smallest scale that holds it exactly.
 */
typedef struct pier__decimal {
    pier__i128 unscaled;
    int scale;               /* 0 .. 38 */
} pier__decimal;

/*
 * Parses a decimal number: an optional sign, digits with an optional point
 * (at least one digit on one side), an optional exponent (e or E, an
 * optional sign, digits). For DECIMAL(p,s) (precision > 0) the value is
 * brought to scale s: more digits after the point than s are refused
 * unless they are zeros (nothing is ever rounded), and more than p - s
 * digits before it are refused. For DECIMAL (precision 0) trailing zeros
 * after the point are dropped and at most 38 significant digits are kept.
 * "-0" reads as 0.
 */
const char *pier__decimal_parse(const char *s, size_t n, int precision,
                                int scale, pier__decimal *out);
/* The text with exactly d.scale digits after the point ("12.50", "-0.05",
 * "7"); returns the length. */
size_t pier__decimal_format(pier__decimal d, char out[PIER__DECIMAL_BUF]);
/* The same value at a larger scale (for adding decimals of two scales);
 * false if it would pass 38 digits. */
bool pier__decimal_rescale(pier__decimal d, int scale, pier__decimal *out);

#endif /* PIER_TYPES_CODECS_H */
