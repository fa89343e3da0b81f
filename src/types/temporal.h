/*
 * temporal.h: what the SQL dialect's temporal functions compute on DATE,
 * TIME, DATETIME, INSTANT and INTERVAL values (temporal.c): their fields
 * (date_part), truncation (date_trunc), calendar arithmetic (date_add,
 * date_sub, date_diff, age) and intervals made from parts or scaled
 * (make_interval, interval_mul), by PostgreSQL's rules where it has them.
 *
 * Values are the codecs' (codecs.h): a DATE is its midnight, a DATETIME
 * microseconds on its own clock, an INSTANT microseconds in UTC (its
 * fields are UTC's: there are no zones), all counted from
 * 1970-01-01T00:00:00 and kept within the years 0001 to 9999; a TIME is
 * microseconds since midnight; an INTERVAL months, days and microseconds
 * kept apart. Results are exact: a field with a fraction is a decimal, and
 * the only rounding is to the microsecond, half to even, where a fraction
 * of one is made (make_interval's seconds, interval_mul).
 *
 * Each function returns NULL or a static phrase saying why not, for a
 * message that the caller prefixes with the function's name. Pure: no I/O,
 * no clock, no SQLite; tests/unit/test_temporal.c covers it.
 */
#ifndef PIER_TYPES_TEMPORAL_H
#define PIER_TYPES_TEMPORAL_H

#include "types/sqlcol.h"

typedef enum pier__temporal_kind {
    PIER__TEMPORAL_DATE = 0,
    PIER__TEMPORAL_TIME,
    PIER__TEMPORAL_DATETIME,
    PIER__TEMPORAL_INSTANT,
    PIER__TEMPORAL_INTERVAL
} pier__temporal_kind;

typedef struct pier__temporal {
    pier__temporal_kind kind;
    int64_t us;                /* DATE, DATETIME, INSTANT: microseconds
                                  since 1970-01-01T00:00:00 (a DATE's is
                                  its midnight); TIME: since midnight */
    pier__interval iv;         /* INTERVAL */
} pier__temporal;

/* The longest canonical text of any kind (an interval's), and the NUL. */
#define PIER__TEMPORAL_BUF PIER__INTERVAL_BUF

/* The kind's name in messages: "DATE", "TIME", "DATETIME", "INSTANT",
 * "INTERVAL". */
const char *pier__temporal_kind_name(pier__temporal_kind k);

/*
 * Reads a value of any temporal type from its text, deciding the kind by
 * the form: an ISO 8601 duration (P...) is an INTERVAL, YYYY-MM-DD a
 * DATE, HH:MM:SS[.f] a TIME, a date and a time a DATETIME, and with a Z or
 * an offset an INSTANT (in UTC from then on).
 */
const char *pier__temporal_parse(const char *s, size_t n,
                                 pier__temporal *out);
/* An INSTANT of microseconds since the epoch (a board's timestamp cell),
 * refused outside the years 0001 to 9999. */
const char *pier__temporal_instant(int64_t us, pier__temporal *out);
/* The value's canonical text (the codecs' formatters); returns the
 * length. */
size_t pier__temporal_format(const pier__temporal *v,
                             char out[PIER__TEMPORAL_BUF]);

/* ---- fields ---- */

typedef enum pier__tfield {
    PIER__TF_CENTURY = 0,
    PIER__TF_DAY,
    PIER__TF_DECADE,
    PIER__TF_DOW,              /* 0 Sunday .. 6 Saturday */
    PIER__TF_DOY,              /* 1 .. 366 */
    PIER__TF_EPOCH,            /* seconds since 1970-01-01T00:00:00 */
    PIER__TF_HOUR,
    PIER__TF_ISODOW,           /* 1 Monday .. 7 Sunday */
    PIER__TF_ISOYEAR,          /* the ISO 8601 week-numbering year */
    PIER__TF_MICROSECONDS,     /* the seconds, fraction included, x 10^6 */
    PIER__TF_MILLENNIUM,
    PIER__TF_MILLISECONDS,     /* the seconds, fraction included, x 10^3 */
    PIER__TF_MINUTE,
    PIER__TF_MONTH,
    PIER__TF_QUARTER,
    PIER__TF_SECOND,           /* with its fraction */
    PIER__TF_WEEK,             /* the ISO 8601 week, 1 .. 53 */
    PIER__TF_YEAR
} pier__tfield;

/* Every field's name, as a refusal lists them. */
#define PIER__TFIELD_NAMES                                                \
    "century, day, decade, dow, doy, epoch, hour, isodow, isoyear, "      \
    "microseconds, millennium, milliseconds, minute, month, quarter, "    \
    "second, week or year"

/* Parses a field's name (case-insensitive); false if it is none. */
bool pier__tfield_parse(const char *s, size_t n, pier__tfield *out);
const char *pier__tfield_name(pier__tfield f);
/* Whether the field is a whole number for every value (all but second,
 * milliseconds and epoch, which may have a fraction): its decimal from
 * pier__temporal_part then has scale 0 and fits 64 bits. */
bool pier__tfield_whole(pier__tfield f);

/*
 * The field of v, exactly, as PostgreSQL's EXTRACT gives it (at the scale
 * its fraction needs; the caller drops trailing zeros):
 *   DATE, DATETIME, INSTANT: century (the 21st began in 2001), decade,
 *     millennium (the 3rd began in 2001), year, isoyear, quarter, month,
 *     week, day, doy, dow, isodow, epoch; DATETIME and INSTANT also hour,
 *     minute, second, milliseconds, microseconds, which a DATE refuses (it
 *     has no time of day);
 *   TIME: hour, minute, second, milliseconds, microseconds, epoch
 *     (seconds since midnight);
 *   INTERVAL: each part of its months, days and microseconds (years are
 *     months / 12, month months % 12, quarter month / 3 + 1, hour the
 *     whole hours of the time, possibly past 24; decade, century and
 *     millennium of the years), and epoch counting a year as 365.25 days
 *     and a month as 30; a part's sign is its own. It has no week, doy,
 *     dow, isodow or isoyear.
 */
const char *pier__temporal_part(const pier__temporal *v, pier__tfield f,
                                pier__decimal *out);

/*
 * v with every field smaller than f set to its start, as date_trunc:
 * microseconds, milliseconds, second, minute, hour, day, week (to its
 * Monday), month, quarter, year, decade, century (to the year ..01, as
 * PostgreSQL), millennium; dow, doy, epoch, isodow and isoyear are no
 * units. A DATE stays a DATE (to a unit below a day it is itself); a TIME
 * takes units up to hour; an INTERVAL's parts are cut toward zero, and
 * it has no weeks. A result before 0001-01-01 is refused.
 */
const char *pier__temporal_trunc(const pier__temporal *v, pier__tfield f,
                                 pier__temporal *out);

/* ---- arithmetic ---- */

/*
 * v + iv, as PostgreSQL adds an interval: for DATE, DATETIME and INSTANT
 * the months first, the day kept but brought back to the last of a
 * shorter month (2024-01-31 + P1M is 2024-02-29), then the days, then the
 * microseconds; a DATE takes whole days only (an interval with a time
 * would make it a DATETIME). A TIME takes the microseconds only, around
 * the clock (23:00:00 + PT2H is 01:00:00); an INTERVAL adds part by part.
 * The result keeps v's kind; one outside the years 0001 to 9999, or an
 * interval's part outside its range, is refused.
 */
const char *pier__temporal_add(const pier__temporal *v, pier__interval iv,
                               pier__temporal *out);
/* -iv, part by part; refused when a part is the most negative value. */
const char *pier__interval_negate(pier__interval iv, pier__interval *out);

/*
 * a - b: for two DATEs the days between them (*days true, out->days);
 * otherwise an INTERVAL: of two TIMEs their microseconds; of two
 * INTERVALs part by part; of DATETIMEs, INSTANTs and DATEs (a DATE is its
 * midnight) the whole days and the rest, both with the sign of the
 * difference (PostgreSQL's timestamp - timestamp: 2024-03-01T00:00 -
 * 2024-02-28T12:00 is P1DT12H). An INSTANT and a DATETIME do not mix (a
 * DATETIME names no zone), nor a TIME or an INTERVAL with another kind.
 */
const char *pier__temporal_diff(const pier__temporal *a,
                                const pier__temporal *b,
                                pier__interval *out, bool *days);

/*
 * age(a, b): a - b in years, months and days as a calendar counts them
 * (PostgreSQL's age): field by field, a negative field borrowing from the
 * next (a day from the earlier value's month: age(2024-03-01, 2024-01-31)
 * is P1M1D), with the sign of a - b on every part. DATE, DATETIME and
 * INSTANT, mixed as for pier__temporal_diff.
 */
const char *pier__temporal_age(const pier__temporal *a,
                               const pier__temporal *b, pier__interval *out);

/*
 * make_interval(years, months, weeks, days, hours, mins, secs): the n
 * parts given (n <= 7; the rest are 0). All but secs must be whole
 * numbers; secs is exact, rounded half to even to the microsecond. Years
 * and months must make 32-bit months, weeks and days 32-bit days, and the
 * time 64-bit microseconds.
 */
const char *pier__interval_make(const pier__decimal *parts, size_t n,
                                pier__interval *out);

/*
 * v x f, exactly, as PostgreSQL scales an interval: months, days and
 * microseconds are each multiplied; a fraction of a month becomes days (a
 * month as 30 days) and a fraction of a day microseconds, and the time is
 * rounded half to even to the microsecond. Parts outside their ranges
 * are refused.
 */
const char *pier__interval_mul(pier__interval v, pier__decimal f,
                               pier__interval *out);

#endif /* PIER_TYPES_TEMPORAL_H */
