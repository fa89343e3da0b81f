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

/* A version 4 UUID (RFC 9562, 5.4): the 16 random bytes with the version
 * (4) and variant (10) bits set, 122 of them left random. */
void pier__uuid_v4(const unsigned char random[16], unsigned char out[16]);

/*
 * Version 7 UUIDs (RFC 9562, 5.7) of one generator, each greater than the
 * one before (6.2, method 1: a 12-bit counter in rand_a). A millisecond
 * later than the last one starts the counter at a random value below
 * 2048, leaving room to count; the same millisecond, or an earlier one
 * (the clock stepped back), counts on from the last, and a counter that
 * runs out moves on to the next millisecond.
 */
typedef struct pier__uuid_v7_state {
    int64_t ms;                /* the last UUID's timestamp; 0: none yet */
    unsigned counter;          /* its rand_a, 0 .. 4095 */
} pier__uuid_v7_state;

/* The next UUID at `unix_ms` (milliseconds since the epoch, 48 bits):
 * its timestamp, the counter (random[0..1] seed a new millisecond's),
 * then random[2..9] as rand_b (62 of their bits kept). */
void pier__uuid_v7(pier__uuid_v7_state *st, int64_t unix_ms,
                   const unsigned char random[10], unsigned char out[16]);

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

/* ---- the calendar (calendar.c), shared with instants (timestamp.c) ---- */

/* Days from 1970-01-01 to y-m-d (m 1..12, d 1..31), and back. */
int64_t pier__days_from_civil(int64_t y, int m, int d);
void pier__civil_from_days(int64_t z, int64_t *y, int *m, int *d);
/* The day numbers of 0001-01-01 and 9999-12-31, the calendar's range. */
int64_t pier__first_day(void);
int64_t pier__last_day(void);
/* Reads "YYYY-MM-DD" (a real day, years 0001..9999) at s[*i] into a day
 * number, advancing *i. */
bool pier__date_fields(const char *s, size_t n, size_t *i, int64_t *days);
/* Reads "HH:MM:SS" and an optional fraction of 1 to 9 digits (kept to the
 * microsecond) at s[*i] into microseconds of the day, advancing *i. */
bool pier__time_fields(const char *s, size_t n, size_t *i, int64_t *us);
/* Reads a date, 'T' (or 't' or ' '), and a time at s[*i]: the fields of
 * an instant or a DATETIME, before any zone. */
bool pier__datetime_fields(const char *s, size_t n, size_t *i,
                           int64_t *days, int64_t *us);
/* Write "YYYY-MM-DD" (10 characters) and "HH:MM:SS.ffffff" (15); return
 * the end. No NUL. */
char *pier__date_put(char *p, int64_t days);
char *pier__time_put(char *p, int64_t us_of_day);

/* ---- DATE, TIME, DATETIME ---- */

#define PIER__DATE_BUF 11          /* "2026-03-01" */
#define PIER__TIME_BUF 16          /* "10:00:00.000000" */
#define PIER__DATETIME_BUF 27      /* "2026-03-01T10:00:00.000000" */

/* A date: "YYYY-MM-DD", into days since 1970-01-01. */
const char *pier__date_parse(const char *s, size_t n, int32_t *days);
size_t pier__date_format(int32_t days, char out[PIER__DATE_BUF]);
/* A time of day without a zone: "HH:MM:SS[.fraction]", into microseconds
 * since midnight; an offset is refused, saying so. */
const char *pier__time_parse(const char *s, size_t n, int64_t *us);
size_t pier__time_format(int64_t us, char out[PIER__TIME_BUF]);
/* A date and time without a zone ('T', 't' or ' ' between them), into
 * microseconds since 1970-01-01T00:00:00 on that clock; an offset or Z is
 * refused, saying so (an INSTANT keeps one). */
const char *pier__datetime_parse(const char *s, size_t n, int64_t *us);
size_t pier__datetime_format(int64_t us, char out[PIER__DATETIME_BUF]);

/* ---- INTERVAL ---- */

/* Months, days and microseconds, kept apart: a month has no fixed number
 * of days, nor a day of microseconds (across a change of clocks). */
typedef struct pier__interval {
    int32_t months;
    int32_t days;
    int64_t us;
} pier__interval;

#define PIER__INTERVAL_BUF 64

/*
 * An ISO 8601 duration: P, then nY nM nW nD, then T and nH nM n[.f]S, in
 * that order, each at most once, at least one; each number may have a
 * sign, only seconds a fraction. Years count 12 months, weeks 7 days,
 * hours and minutes their microseconds; months and days must fit 32 bits.
 */
const char *pier__interval_parse(const char *s, size_t n,
                                 pier__interval *out);
/* The canonical duration: years and months from the months, days, then
 * hours, minutes and seconds from the microseconds (the fraction without
 * trailing zeros), each part with its own sign, zero parts left out;
 * "PT0S" for zero. */
size_t pier__interval_format(pier__interval v,
                             char out[PIER__INTERVAL_BUF]);

#endif /* PIER_TYPES_CODECS_H */
