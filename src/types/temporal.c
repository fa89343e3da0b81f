/*
 * temporal.c: fields, truncation and calendar arithmetic of the temporal
 * types' values (temporal.h), on the calendar of calendar.c.
 *
 * PostgreSQL is the reference (its EXTRACT, date_trunc, age, and
 * timestamp and interval operators), with its floating-point steps made
 * exact: every field is an integer or a decimal of at most six places,
 * and interval_mul keeps its fractions as decimals until the one rounding
 * to the microsecond. Division is C's (toward zero) where PostgreSQL
 * splits an interval into parts, and floor division where a day number or
 * an instant is split into a day and its time, so that an instant before
 * 1970 still has its time of day counted from its midnight.
 */
#include <string.h>

#include "types/temporal.h"

#define US_PER_MS INT64_C(1000)
#define US_PER_SEC INT64_C(1000000)
#define US_PER_MIN (INT64_C(60) * US_PER_SEC)
#define US_PER_HOUR (INT64_C(60) * US_PER_MIN)
#define US_PER_DAY (INT64_C(24) * US_PER_HOUR)

static const char out_of_calendar[] =
    "the result is outside the years 0001 to 9999";
static const char out_of_interval[] =
    "the result is outside an interval's range (32-bit months and days, "
    "64-bit microseconds)";

/* ---- the calendar ---- */

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return a % b != 0 && (a < 0) != (b < 0) ? q - 1 : q;
}

static bool is_leap(int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int64_t y, int m)
{
    static const int days[12] = { 31, 28, 31, 30, 31, 30,
                                  31, 31, 30, 31, 30, 31 };
    return m == 2 && is_leap(y) ? 29 : days[m - 1];
}

static int64_t min_us(void)
{
    return pier__first_day() * US_PER_DAY;
}

static int64_t max_us(void)
{
    return pier__last_day() * US_PER_DAY + US_PER_DAY - 1;
}

/* A point in time as a calendar names it. */
typedef struct civil {
    int64_t days;              /* since 1970-01-01 */
    int64_t year;
    int month, day;
    int64_t tod;               /* microseconds since midnight */
} civil;

static civil civil_of(int64_t us)
{
    civil c;
    c.days = floor_div(us, US_PER_DAY);
    c.tod = us - c.days * US_PER_DAY;
    pier__civil_from_days(c.days, &c.year, &c.month, &c.day);
    return c;
}

/* 0 Sunday .. 6 Saturday; 1970-01-01 was a Thursday. */
static int dow_of(int64_t days)
{
    return (int)(days + 4 - floor_div(days + 4, 7) * 7);
}

/* The ISO 8601 week and its year: the week belongs to the year of its
 * Thursday, and week 1 is the one holding that year's first Thursday. */
static void iso_week(int64_t days, int64_t *year, int64_t *week)
{
    int dow = dow_of(days);
    int isodow = dow == 0 ? 7 : dow;
    int64_t thursday = days - (isodow - 1) + 3;
    int64_t y;
    int m, d;
    pier__civil_from_days(thursday, &y, &m, &d);
    *year = y;
    *week = (thursday - pier__days_from_civil(y, 1, 1)) / 7 + 1;
}

/* ---- kinds and text ---- */

const char *pier__temporal_kind_name(pier__temporal_kind k)
{
    static const char *const names[] = {
        [PIER__TEMPORAL_DATE] = "DATE",
        [PIER__TEMPORAL_TIME] = "TIME",
        [PIER__TEMPORAL_DATETIME] = "DATETIME",
        [PIER__TEMPORAL_INSTANT] = "INSTANT",
        [PIER__TEMPORAL_INTERVAL] = "INTERVAL",
    };
    return names[k];
}

const char *pier__temporal_parse(const char *s, size_t n,
                                 pier__temporal *out)
{
    memset(out, 0, sizeof *out);
    if (n > 0 && (s[0] == 'P' || s[0] == 'p')) {
        out->kind = PIER__TEMPORAL_INTERVAL;
        return pier__interval_parse(s, n, &out->iv);
    }
    int32_t days;
    if (pier__date_parse(s, n, &days) == NULL) {
        out->kind = PIER__TEMPORAL_DATE;
        out->us = days * US_PER_DAY;
        return NULL;
    }
    out->kind = PIER__TEMPORAL_TIME;
    if (pier__time_parse(s, n, &out->us) == NULL)
        return NULL;
    out->kind = PIER__TEMPORAL_DATETIME;
    if (pier__datetime_parse(s, n, &out->us) == NULL)
        return NULL;
    out->kind = PIER__TEMPORAL_INSTANT;
    if (pier__timestamp_parse(s, n, &out->us))
        return NULL;
    return "not a DATE, TIME, DATETIME, INSTANT or INTERVAL (like "
           "2026-03-01, 10:00:00, 2026-03-01T10:00:00, "
           "2026-03-01T10:00:00Z or P1D)";
}

const char *pier__temporal_instant(int64_t us, pier__temporal *out)
{
    memset(out, 0, sizeof *out);
    if (us < min_us() || us > max_us())
        return "an instant outside the years 0001 to 9999";
    out->kind = PIER__TEMPORAL_INSTANT;
    out->us = us;
    return NULL;
}

size_t pier__temporal_format(const pier__temporal *v,
                             char out[PIER__TEMPORAL_BUF])
{
    switch (v->kind) {
    case PIER__TEMPORAL_DATE:
        return pier__date_format((int32_t)floor_div(v->us, US_PER_DAY), out);
    case PIER__TEMPORAL_TIME:
        return pier__time_format(v->us, out);
    case PIER__TEMPORAL_DATETIME:
        return pier__datetime_format(v->us, out);
    case PIER__TEMPORAL_INSTANT:
        return pier__timestamp_format(v->us, out);
    default:
        return pier__interval_format(v->iv, out);
    }
}

/* ---- fields ---- */

static const char *const field_names[] = {
    [PIER__TF_CENTURY] = "century",
    [PIER__TF_DAY] = "day",
    [PIER__TF_DECADE] = "decade",
    [PIER__TF_DOW] = "dow",
    [PIER__TF_DOY] = "doy",
    [PIER__TF_EPOCH] = "epoch",
    [PIER__TF_HOUR] = "hour",
    [PIER__TF_ISODOW] = "isodow",
    [PIER__TF_ISOYEAR] = "isoyear",
    [PIER__TF_MICROSECONDS] = "microseconds",
    [PIER__TF_MILLENNIUM] = "millennium",
    [PIER__TF_MILLISECONDS] = "milliseconds",
    [PIER__TF_MINUTE] = "minute",
    [PIER__TF_MONTH] = "month",
    [PIER__TF_QUARTER] = "quarter",
    [PIER__TF_SECOND] = "second",
    [PIER__TF_WEEK] = "week",
    [PIER__TF_YEAR] = "year",
};

bool pier__tfield_parse(const char *s, size_t n, pier__tfield *out)
{
    for (size_t k = 0; k < sizeof field_names / sizeof *field_names; k++)
        if (pier__name_eq(s, n, field_names[k], strlen(field_names[k]))) {
            *out = (pier__tfield)k;
            return true;
        }
    return false;
}

const char *pier__tfield_name(pier__tfield f)
{
    return field_names[f];
}

bool pier__tfield_whole(pier__tfield f)
{
    return f != PIER__TF_SECOND && f != PIER__TF_MILLISECONDS &&
           f != PIER__TF_EPOCH;
}

/* Whether f is a field of the time of day (which a DATE lacks). */
static bool time_field(pier__tfield f)
{
    return f == PIER__TF_HOUR || f == PIER__TF_MINUTE ||
           f == PIER__TF_SECOND || f == PIER__TF_MILLISECONDS ||
           f == PIER__TF_MICROSECONDS;
}

static pier__decimal whole(int64_t v)
{
    return (pier__decimal){ v, 0 };
}

/* The fields of the time of day, or of an interval's time: `secs_us` is
 * the seconds with their fraction, in microseconds. */
static pier__decimal seconds_field(pier__tfield f, int64_t secs_us)
{
    switch (f) {
    case PIER__TF_MICROSECONDS:
        return whole(secs_us);
    case PIER__TF_MILLISECONDS:
        return (pier__decimal){ secs_us, 3 };
    default:
        return (pier__decimal){ secs_us, 6 };
    }
}

static const char *point_part(const pier__temporal *v, pier__tfield f,
                              pier__decimal *out)
{
    if (v->kind == PIER__TEMPORAL_DATE && time_field(f))
        return "a DATE has no time of day: its fields are century, day, "
               "decade, dow, doy, epoch, isodow, isoyear, millennium, "
               "month, quarter, week and year";
    civil c = civil_of(v->us);
    int64_t y = c.year, iy, week;
    switch (f) {
    case PIER__TF_CENTURY:
        *out = whole((y + 99) / 100);
        break;
    case PIER__TF_DAY:
        *out = whole(c.day);
        break;
    case PIER__TF_DECADE:
        *out = whole(y / 10);
        break;
    case PIER__TF_DOW:
        *out = whole(dow_of(c.days));
        break;
    case PIER__TF_DOY:
        *out = whole(c.days - pier__days_from_civil(y, 1, 1) + 1);
        break;
    case PIER__TF_EPOCH:
        *out = (pier__decimal){ v->us, 6 };
        break;
    case PIER__TF_HOUR:
        *out = whole(c.tod / US_PER_HOUR);
        break;
    case PIER__TF_ISODOW:
        *out = whole(dow_of(c.days) == 0 ? 7 : dow_of(c.days));
        break;
    case PIER__TF_ISOYEAR:
        iso_week(c.days, &iy, &week);
        *out = whole(iy);
        break;
    case PIER__TF_MILLENNIUM:
        *out = whole((y + 999) / 1000);
        break;
    case PIER__TF_MINUTE:
        *out = whole(c.tod / US_PER_MIN % 60);
        break;
    case PIER__TF_MONTH:
        *out = whole(c.month);
        break;
    case PIER__TF_QUARTER:
        *out = whole((c.month - 1) / 3 + 1);
        break;
    case PIER__TF_WEEK:
        iso_week(c.days, &iy, &week);
        *out = whole(week);
        break;
    case PIER__TF_YEAR:
        *out = whole(y);
        break;
    default:                           /* second, milli-, microseconds */
        *out = seconds_field(f, c.tod % US_PER_MIN);
        break;
    }
    return NULL;
}

static const char *time_part(int64_t tod, pier__tfield f, pier__decimal *out)
{
    switch (f) {
    case PIER__TF_HOUR:
        *out = whole(tod / US_PER_HOUR);
        return NULL;
    case PIER__TF_MINUTE:
        *out = whole(tod / US_PER_MIN % 60);
        return NULL;
    case PIER__TF_EPOCH:
        *out = (pier__decimal){ tod, 6 };
        return NULL;
    case PIER__TF_SECOND:
    case PIER__TF_MILLISECONDS:
    case PIER__TF_MICROSECONDS:
        *out = seconds_field(f, tod % US_PER_MIN);
        return NULL;
    default:
        return "a TIME is a time of day: its fields are hour, minute, "
               "second, milliseconds, microseconds and epoch";
    }
}

/* Seconds in an interval's year and month, as PostgreSQL's epoch counts
 * them: 365.25 days and 30 days. */
#define SECS_PER_YEAR INT64_C(31557600)
#define SECS_PER_MONTH INT64_C(2592000)

static const char *interval_part(pier__interval iv, pier__tfield f,
                                 pier__decimal *out)
{
    int64_t years = iv.months / 12;
    switch (f) {
    case PIER__TF_CENTURY:
        *out = whole(years / 100);
        return NULL;
    case PIER__TF_DAY:
        *out = whole(iv.days);
        return NULL;
    case PIER__TF_DECADE:
        *out = whole(years / 10);
        return NULL;
    case PIER__TF_EPOCH: {
        pier__i128 secs = (pier__i128)SECS_PER_YEAR * years +
                          (pier__i128)SECS_PER_MONTH * (iv.months % 12) +
                          (pier__i128)86400 * iv.days;
        *out = (pier__decimal){ secs * US_PER_SEC + iv.us, 6 };
        return NULL;
    }
    case PIER__TF_HOUR:
        *out = whole(iv.us / US_PER_HOUR);
        return NULL;
    case PIER__TF_MILLENNIUM:
        *out = whole(years / 1000);
        return NULL;
    case PIER__TF_MINUTE:
        *out = whole(iv.us % US_PER_HOUR / US_PER_MIN);
        return NULL;
    case PIER__TF_MONTH:
        *out = whole(iv.months % 12);
        return NULL;
    case PIER__TF_QUARTER:
        *out = whole(iv.months % 12 / 3 + 1);
        return NULL;
    case PIER__TF_YEAR:
        *out = whole(years);
        return NULL;
    case PIER__TF_SECOND:
    case PIER__TF_MILLISECONDS:
    case PIER__TF_MICROSECONDS:
        *out = seconds_field(f, iv.us % US_PER_MIN);
        return NULL;
    default:
        return "an INTERVAL has no calendar: its fields are century, day, "
               "decade, epoch, hour, microseconds, millennium, "
               "milliseconds, minute, month, quarter, second and year";
    }
}

const char *pier__temporal_part(const pier__temporal *v, pier__tfield f,
                                pier__decimal *out)
{
    switch (v->kind) {
    case PIER__TEMPORAL_TIME:
        return time_part(v->us, f, out);
    case PIER__TEMPORAL_INTERVAL:
        return interval_part(v->iv, f, out);
    default:
        return point_part(v, f, out);
    }
}

/* ---- truncation ---- */

/* The units date_trunc takes, smallest first: a unit truncates every
 * smaller one. */
static int unit_rank(pier__tfield f)
{
    switch (f) {
    case PIER__TF_MICROSECONDS: return 0;
    case PIER__TF_MILLISECONDS: return 1;
    case PIER__TF_SECOND: return 2;
    case PIER__TF_MINUTE: return 3;
    case PIER__TF_HOUR: return 4;
    case PIER__TF_DAY: return 5;
    case PIER__TF_WEEK: return 6;
    case PIER__TF_MONTH: return 7;
    case PIER__TF_QUARTER: return 8;
    case PIER__TF_YEAR: return 9;
    case PIER__TF_DECADE: return 10;
    case PIER__TF_CENTURY: return 11;
    case PIER__TF_MILLENNIUM: return 12;
    default: return -1;
    }
}

/* The time of day (or an interval's time) cut to the unit of `rank`,
 * toward zero. */
static int64_t trunc_time(int64_t us, int rank)
{
    static const int64_t unit[] = { 1, US_PER_MS, US_PER_SEC, US_PER_MIN,
                                    US_PER_HOUR };
    if (rank >= 5)
        return 0;
    return us - us % unit[rank];
}

static const char *trunc_point(const pier__temporal *v, int rank,
                               pier__temporal *out)
{
    civil c = civil_of(v->us);
    int64_t y = c.year;
    int m = c.month, d = c.day;
    int64_t days = c.days;
    if (rank == 6) {
        int dow = dow_of(days);
        days -= dow == 0 ? 6 : dow - 1;
    } else if (rank >= 7) {
        d = 1;
        if (rank >= 8)
            m = rank == 8 ? (m - 1) / 3 * 3 + 1 : 1;
        if (rank == 10)
            y = y / 10 * 10;
        else if (rank == 11)
            y = (y + 99) / 100 * 100 - 99;
        else if (rank == 12)
            y = (y + 999) / 1000 * 1000 - 999;
        if (y < 1)
            return out_of_calendar;
        days = pier__days_from_civil(y, m, d);
    }
    *out = *v;
    out->us = days * US_PER_DAY + trunc_time(c.tod, rank);
    if (out->us < min_us())
        return out_of_calendar;
    return NULL;
}

static const char *trunc_interval(pier__interval iv, int rank,
                                  pier__interval *out)
{
    if (rank == 6)
        return "an INTERVAL cannot be cut to weeks: a month has no whole "
               "number of them";
    int64_t years = iv.months / 12, months = iv.months % 12;
    if (rank >= 12)
        years = years / 1000 * 1000;
    if (rank >= 11)
        years = years / 100 * 100;
    if (rank >= 10)
        years = years / 10 * 10;
    if (rank >= 9)
        months = 0;
    if (rank >= 8)
        months = months / 3 * 3;
    out->months = (int32_t)(years * 12 + months);
    out->days = rank >= 7 ? 0 : iv.days;
    out->us = trunc_time(iv.us, rank);
    return NULL;
}

const char *pier__temporal_trunc(const pier__temporal *v, pier__tfield f,
                                 pier__temporal *out)
{
    int rank = unit_rank(f);
    if (rank < 0)
        return "not a unit to cut to: use microseconds, milliseconds, "
               "second, minute, hour, day, week, month, quarter, year, "
               "decade, century or millennium";
    switch (v->kind) {
    case PIER__TEMPORAL_TIME:
        if (rank > 4)
            return "a TIME is a time of day: cut it to hour, minute, "
                   "second, milliseconds or microseconds";
        *out = *v;
        out->us = trunc_time(v->us, rank);
        return NULL;
    case PIER__TEMPORAL_INTERVAL:
        *out = *v;
        return trunc_interval(v->iv, rank, &out->iv);
    case PIER__TEMPORAL_DATE:
        if (rank < 5) {
            *out = *v;               /* its midnight cut to any smaller
                                        unit is itself */
            return NULL;
        }
        return trunc_point(v, rank, out);
    default:
        return trunc_point(v, rank, out);
    }
}

/* ---- arithmetic ---- */

const char *pier__interval_negate(pier__interval iv, pier__interval *out)
{
    if (iv.months == INT32_MIN || iv.days == INT32_MIN || iv.us == INT64_MIN)
        return out_of_interval;
    *out = (pier__interval){ -iv.months, -iv.days, -iv.us };
    return NULL;
}

/* a + b part by part, each part within its range. */
static const char *interval_add(pier__interval a, pier__interval b,
                                pier__interval *out)
{
    int64_t months = (int64_t)a.months + b.months;
    int64_t days = (int64_t)a.days + b.days;
    int64_t us;
    if (months < INT32_MIN || months > INT32_MAX || days < INT32_MIN ||
        days > INT32_MAX || __builtin_add_overflow(a.us, b.us, &us))
        return out_of_interval;
    *out = (pier__interval){ (int32_t)months, (int32_t)days, us };
    return NULL;
}

static const char *add_point(const pier__temporal *v, pier__interval iv,
                             pier__temporal *out)
{
    if (v->kind == PIER__TEMPORAL_DATE && iv.us != 0)
        return "a DATE takes whole days only: the interval has a time of "
               "day (add it to a DATETIME, like 2026-03-01T00:00:00)";
    civil c = civil_of(v->us);
    int64_t days = c.days;
    if (iv.months != 0) {
        int64_t total = c.year * 12 + (c.month - 1) + iv.months;
        int64_t y = floor_div(total, 12);
        int m = (int)(total - y * 12) + 1;
        if (y < 1 || y > 9999)
            return out_of_calendar;
        int d = c.day <= days_in_month(y, m) ? c.day : days_in_month(y, m);
        days = pier__days_from_civil(y, m, d);
    }
    days += iv.days;
    if (days < pier__first_day() || days > pier__last_day())
        return out_of_calendar;
    int64_t us;
    if (__builtin_add_overflow(days * US_PER_DAY + c.tod, iv.us, &us) ||
        us < min_us() || us > max_us())
        return out_of_calendar;
    *out = *v;
    out->us = us;
    return NULL;
}

const char *pier__temporal_add(const pier__temporal *v, pier__interval iv,
                               pier__temporal *out)
{
    switch (v->kind) {
    case PIER__TEMPORAL_TIME:
        *out = *v;
        out->us = (v->us + iv.us % US_PER_DAY + US_PER_DAY) % US_PER_DAY;
        return NULL;
    case PIER__TEMPORAL_INTERVAL:
        *out = *v;
        return interval_add(v->iv, iv, &out->iv);
    default:
        return add_point(v, iv, out);
    }
}

/* Whether a and b are points that may be subtracted (a DATE mixes with
 * either DATETIME or INSTANT, those two not with each other): NULL, or
 * why not. */
static const char *points_mix(const pier__temporal *a,
                              const pier__temporal *b)
{
    pier__temporal_kind ka = a->kind, kb = b->kind;
    if (ka == PIER__TEMPORAL_TIME || kb == PIER__TEMPORAL_TIME ||
        ka == PIER__TEMPORAL_INTERVAL || kb == PIER__TEMPORAL_INTERVAL)
        return NULL;
    if ((ka == PIER__TEMPORAL_INSTANT && kb == PIER__TEMPORAL_DATETIME) ||
        (ka == PIER__TEMPORAL_DATETIME && kb == PIER__TEMPORAL_INSTANT))
        return "an INSTANT and a DATETIME do not mix: a DATETIME names no "
               "zone (write it with Z to read it in UTC)";
    return "";
}

const char *pier__temporal_diff(const pier__temporal *a,
                                const pier__temporal *b,
                                pier__interval *out, bool *days)
{
    *days = false;
    const char *mix = points_mix(a, b);
    if (mix != NULL && mix[0] != '\0')
        return mix;
    if (mix != NULL) {
        int64_t d = a->us - b->us;  /* within 10^4 years: no overflow */
        if (a->kind == PIER__TEMPORAL_DATE && b->kind == PIER__TEMPORAL_DATE) {
            *days = true;
            *out = (pier__interval){ 0, (int32_t)(d / US_PER_DAY), 0 };
        } else {
            *out = (pier__interval){ 0, (int32_t)(d / US_PER_DAY),
                                     d % US_PER_DAY };
        }
        return NULL;
    }
    if (a->kind == PIER__TEMPORAL_TIME && b->kind == PIER__TEMPORAL_TIME) {
        *out = (pier__interval){ 0, 0, a->us - b->us };
        return NULL;
    }
    if (a->kind == PIER__TEMPORAL_INTERVAL &&
        b->kind == PIER__TEMPORAL_INTERVAL) {
        pier__interval neg;
        const char *why = pier__interval_negate(b->iv, &neg);
        return why != NULL ? why : interval_add(a->iv, neg, out);
    }
    return a->kind == PIER__TEMPORAL_INTERVAL ||
                   b->kind == PIER__TEMPORAL_INTERVAL
               ? "an INTERVAL subtracts only from an INTERVAL (take one "
                 "from a date with date_sub)"
               : "a TIME subtracts only from a TIME";
}

const char *pier__temporal_age(const pier__temporal *a,
                               const pier__temporal *b, pier__interval *out)
{
    const char *mix = points_mix(a, b);
    if (mix == NULL)
        return "age takes DATE, DATETIME and INSTANT values";
    if (mix[0] != '\0')
        return mix;
    civil ca = civil_of(a->us), cb = civil_of(b->us);
    bool neg = a->us < b->us;
    int64_t s = neg ? -1 : 1;
    int64_t year = s * (ca.year - cb.year);
    int64_t mon = s * (ca.month - cb.month);
    int64_t mday = s * (ca.day - cb.day);
    int64_t tod = s * (ca.tod - cb.tod);
    /* The time borrows a day at most once: |tod| < one day. */
    if (tod < 0) {
        tod += US_PER_DAY;
        mday--;
    }
    /* A day borrows a month of the earlier value's (PostgreSQL's rule),
     * once or, from a short month, twice. */
    const civil *early = neg ? &ca : &cb;
    while (mday < 0) {
        mday += days_in_month(early->year, early->month);
        mon--;
    }
    while (mon < 0) {
        mon += 12;
        year--;
    }
    *out = (pier__interval){ (int32_t)(s * (year * 12 + mon)),
                             (int32_t)(s * mday), s * tod };
    return NULL;
}

/* ---- intervals from parts, and scaled ---- */

/* d as an integer: NULL, or `fraction` when it has one, or the range's
 * refusal beyond 64 bits. */
static const char *whole_of(pier__decimal d, int64_t *out,
                            const char *fraction)
{
    pier__decimal w, back;
    if (pier__decimal_round(d, 0, PIER__ROUND_DOWN, &w) != NULL ||
        !pier__decimal_rescale(w, d.scale, &back))
        return out_of_interval;      /* not a decimal these functions take */
    if (back.unscaled != d.unscaled)
        return fraction;
    if (w.unscaled > INT64_MAX || w.unscaled < INT64_MIN)
        return out_of_interval;
    *out = (int64_t)w.unscaled;
    return NULL;
}

const char *pier__interval_make(const pier__decimal *parts, size_t n,
                                pier__interval *out)
{
    static const char *const fraction[] = {
        "years must be a whole number (only secs takes a fraction)",
        "months must be a whole number (only secs takes a fraction)",
        "weeks must be a whole number (only secs takes a fraction)",
        "days must be a whole number (only secs takes a fraction)",
        "hours must be a whole number (only secs takes a fraction)",
        "mins must be a whole number (only secs takes a fraction)",
    };
    int64_t v[6] = { 0 };
    for (size_t i = 0; i < n && i < 6; i++) {
        const char *why = whole_of(parts[i], &v[i], fraction[i]);
        if (why != NULL)
            return why;
    }
    pier__i128 secs_us = 0;
    if (n >= 7) {
        pier__decimal r;
        if (pier__decimal_round(parts[6], 6, PIER__ROUND_HALF_EVEN, &r) !=
            NULL)
            return out_of_interval;
        secs_us = r.unscaled;
    }
    /* Each part is within 64 bits, so no product passes 128. */
    pier__i128 months = (pier__i128)v[0] * 12 + v[1];
    pier__i128 days = (pier__i128)v[2] * 7 + v[3];
    pier__i128 us = (pier__i128)v[4] * US_PER_HOUR +
                    (pier__i128)v[5] * US_PER_MIN + secs_us;
    if (months < INT32_MIN || months > INT32_MAX || days < INT32_MIN ||
        days > INT32_MAX || us < INT64_MIN || us > INT64_MAX)
        return out_of_interval;
    *out = (pier__interval){ (int32_t)months, (int32_t)days, (int64_t)us };
    return NULL;
}

/* x cut toward zero to a whole number, and what is left. */
static bool split(pier__decimal x, pier__decimal *whole_part,
                  pier__decimal *frac)
{
    return pier__decimal_round(x, 0, PIER__ROUND_DOWN, whole_part) == NULL &&
           pier__decimal_sub(x, *whole_part, frac);
}

const char *pier__interval_mul(pier__interval v, pier__decimal f,
                               pier__interval *out)
{
    static const char too_long[] =
        "the product needs more than 38 digits (give the factor fewer)";
    pier__decimal m, d, t, mi, mf, di, df, mrd, mrdi, mrdf, extra, ed, ef;
    /* months x f: its fraction of a month becomes days, a month counting
     * 30 (mrd); days x f and those days: their fraction becomes time. */
    if (!pier__decimal_mul(whole(v.months), f, &m) ||
        !pier__decimal_mul(whole(v.days), f, &d) ||
        !pier__decimal_mul(whole(v.us), f, &t))
        return too_long;
    if (!split(m, &mi, &mf) || !split(d, &di, &df) ||
        !pier__decimal_mul(mf, whole(30), &mrd) ||
        !split(mrd, &mrdi, &mrdf) || !pier__decimal_add(df, mrdf, &extra) ||
        !split(extra, &ed, &ef))
        return too_long;
    /* ef is under one day: its microseconds join the time's, and the sum
     * is rounded once. */
    pier__decimal ef_us, time, time_us;
    if (!pier__decimal_mul(ef, whole(US_PER_DAY), &ef_us) ||
        !pier__decimal_add(t, ef_us, &time) ||
        pier__decimal_round(time, 0, PIER__ROUND_HALF_EVEN, &time_us) != NULL)
        return too_long;
    pier__i128 months = mi.unscaled;
    pier__i128 days = di.unscaled + mrdi.unscaled + ed.unscaled;
    if (months < INT32_MIN || months > INT32_MAX || days < INT32_MIN ||
        days > INT32_MAX || time_us.unscaled < INT64_MIN ||
        time_us.unscaled > INT64_MAX)
        return out_of_interval;
    *out = (pier__interval){ (int32_t)months, (int32_t)days,
                             (int64_t)time_us.unscaled };
    return NULL;
}
