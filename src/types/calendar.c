/*
 * calendar.c: dates, times of day, date-times without a zone and
 * intervals as text, and the calendar arithmetic instants share
 * (timestamp.c).
 *
 * Calendar arithmetic is the proleptic Gregorian days-from-civil algorithm
 * (Howard Hinnant's), in pure integers: no libc time zone functions, so
 * the result never depends on TZ or on the C library. Every calendar value
 * lies within the years 0001 to 9999, so that every accepted text formats
 * back to the same value. Fractions of a second keep six digits: further
 * digits (up to nine) are dropped, as for instants.
 */
#include <stdio.h>
#include <string.h>

#include "types/codecs.h"

#define US_PER_SEC INT64_C(1000000)
#define US_PER_MIN (INT64_C(60) * US_PER_SEC)
#define US_PER_HOUR (INT64_C(60) * US_PER_MIN)
#define US_PER_DAY (INT64_C(24) * US_PER_HOUR)

/* ---- the calendar ---- */

int64_t pier__days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;                              /* 0..399 */
    int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;      /* 0..146096 */
    return era * 146097 + doe - 719468;
}

void pier__civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
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

int64_t pier__first_day(void)
{
    return pier__days_from_civil(1, 1, 1);
}

int64_t pier__last_day(void)
{
    return pier__days_from_civil(9999, 12, 31);
}

/* ---- reading fields ---- */

/* Reads exactly `k` ASCII digits at s[*i], advancing *i. */
static bool read_digits(const char *s, size_t n, size_t *i, int k, int *out)
{
    if (n - *i < (size_t)k)
        return false;
    int v = 0;
    for (int j = 0; j < k; j++) {
        char c = s[*i + (size_t)j];
        if (c < '0' || c > '9')
            return false;
        v = v * 10 + (c - '0');
    }
    *i += (size_t)k;
    *out = v;
    return true;
}

static bool expect(const char *s, size_t n, size_t *i, char c)
{
    if (*i >= n || s[*i] != c)
        return false;
    (*i)++;
    return true;
}

bool pier__date_fields(const char *s, size_t n, size_t *i, int64_t *days)
{
    int y = 0, m = 0, d = 0;
    if (!read_digits(s, n, i, 4, &y) || !expect(s, n, i, '-') ||
        !read_digits(s, n, i, 2, &m) || !expect(s, n, i, '-') ||
        !read_digits(s, n, i, 2, &d))
        return false;
    if (y < 1 || m < 1 || m > 12 || d < 1 || d > days_in_month(y, m))
        return false;
    *days = pier__days_from_civil(y, m, d);
    return true;
}

/*
 * The fraction of a second after the '.' at s[*i - 1]: 1 to 9 digits,
 * rounded to the nearest microsecond, a tie to the even one (.1234565 is
 * .123456, .1234575 is .123458), into *us (0 to 1,000,000: .9999995
 * rounds up to a whole second).
 */
static bool read_fraction(const char *s, size_t n, size_t *i, int64_t *us)
{
    int64_t frac = 0;
    int digits = 0, next = -1;        /* the 7th digit */
    bool rest = false;                /* a non-zero digit after it */
    for (; *i < n && s[*i] >= '0' && s[*i] <= '9'; (*i)++, digits++) {
        int d = s[*i] - '0';
        if (digits < 6)
            frac = frac * 10 + d;
        else if (digits == 6)
            next = d;
        else if (d != 0)
            rest = true;
    }
    if (digits < 1 || digits > 9)
        return false;
    for (int k = digits; k < 6; k++)
        frac *= 10;
    if (next > 5 || (next == 5 && (rest || frac % 2 == 1)))
        frac++;
    *us = frac;
    return true;
}

bool pier__time_fields(const char *s, size_t n, size_t *i, int64_t *us)
{
    int h = 0, m = 0, sec = 0;
    if (!read_digits(s, n, i, 2, &h) || !expect(s, n, i, ':') ||
        !read_digits(s, n, i, 2, &m) || !expect(s, n, i, ':') ||
        !read_digits(s, n, i, 2, &sec))
        return false;
    if (h > 23 || m > 59 || sec > 59)
        return false;
    int64_t frac = 0;
    if (*i < n && s[*i] == '.') {
        (*i)++;
        if (!read_fraction(s, n, i, &frac))
            return false;
    }
    /* rounding may carry into the next second, and the next day */
    *us = h * US_PER_HOUR + m * US_PER_MIN + sec * US_PER_SEC + frac;
    return true;
}

bool pier__datetime_fields(const char *s, size_t n, size_t *i,
                           int64_t *days, int64_t *us)
{
    if (!pier__date_fields(s, n, i, days))
        return false;
    if (*i >= n || (s[*i] != 'T' && s[*i] != 't' && s[*i] != ' '))
        return false;
    (*i)++;
    return pier__time_fields(s, n, i, us);
}

/* ---- writing fields ---- */

static char *put2(char *p, int v)
{
    memcpy(p, pier__digit_pairs + 2 * v, 2);
    return p + 2;
}

char *pier__date_put(char *p, int64_t days)
{
    int64_t y;
    int m, d;
    pier__civil_from_days(days, &y, &m, &d);
    p = put2(p, (int)(y / 100));
    p = put2(p, (int)(y % 100));
    *p++ = '-';
    p = put2(p, m);
    *p++ = '-';
    return put2(p, d);
}

char *pier__time_put(char *p, int64_t us)
{
    int64_t secs = us / US_PER_SEC;
    int frac = (int)(us % US_PER_SEC);
    p = put2(p, (int)(secs / 3600));
    *p++ = ':';
    p = put2(p, (int)(secs / 60 % 60));
    *p++ = ':';
    p = put2(p, (int)(secs % 60));
    *p++ = '.';
    p = put2(p, frac / 10000);
    p = put2(p, frac / 100 % 100);
    return put2(p, frac % 100);
}

/* ---- DATE, TIME, DATETIME ---- */

const char *pier__date_parse(const char *s, size_t n, int32_t *days)
{
    size_t i = 0;
    int64_t d = 0;
    if (!pier__date_fields(s, n, &i, &d) || i != n)
        return "a date is YYYY-MM-DD, a real day of the years 0001 to 9999";
    *days = (int32_t)d;
    return NULL;
}

size_t pier__date_format(int32_t days, char out[PIER__DATE_BUF])
{
    if (days < pier__first_day())
        days = (int32_t)pier__first_day();
    if (days > pier__last_day())
        days = (int32_t)pier__last_day();
    char *p = pier__date_put(out, days);
    *p = '\0';
    return (size_t)(p - out);
}

const char *pier__time_parse(const char *s, size_t n, int64_t *us)
{
    size_t i = 0;
    if (!pier__time_fields(s, n, &i, us) || *us >= US_PER_DAY)
        return "a time is HH:MM:SS with an optional fraction, 00:00:00 to "
               "23:59:59.999999 (rounded to the microsecond)";
    if (i != n)
        return i < n && (s[i] == 'Z' || s[i] == 'z' || s[i] == '+' ||
                         s[i] == '-')
                   ? "a time has no time zone: drop the offset"
                   : "a time is HH:MM:SS with an optional fraction";
    return NULL;
}

size_t pier__time_format(int64_t us, char out[PIER__TIME_BUF])
{
    if (us < 0 || us >= US_PER_DAY)
        us = us < 0 ? 0 : US_PER_DAY - 1;
    char *p = pier__time_put(out, us);
    *p = '\0';
    return (size_t)(p - out);
}

const char *pier__datetime_parse(const char *s, size_t n, int64_t *us)
{
    static const char form[] =
        "a datetime is YYYY-MM-DDTHH:MM:SS with an optional fraction, in "
        "the years 0001 to 9999";
    size_t i = 0;
    int64_t days = 0, tod = 0;
    if (!pier__datetime_fields(s, n, &i, &days, &tod) ||
        (tod >= US_PER_DAY && days >= pier__last_day()))
        return form;
    if (i != n)
        return s[i] == 'Z' || s[i] == 'z' || s[i] == '+' || s[i] == '-'
                   ? "a datetime has no time zone: drop the offset (an "
                     "instant keeps one)"
                   : form;
    *us = days * US_PER_DAY + tod;
    return NULL;
}

size_t pier__datetime_format(int64_t us, char out[PIER__DATETIME_BUF])
{
    int64_t lo = pier__first_day() * US_PER_DAY;
    int64_t hi = pier__last_day() * US_PER_DAY + US_PER_DAY - 1;
    us = us < lo ? lo : us > hi ? hi : us;
    /* Floor division: -1 us is the last microsecond of 1969-12-31. */
    int64_t days = us / US_PER_DAY, rem = us % US_PER_DAY;
    if (rem < 0) {
        rem += US_PER_DAY;
        days--;
    }
    char *p = pier__date_put(out, days);
    *p++ = 'T';
    p = pier__time_put(p, rem);
    *p = '\0';
    return (size_t)(p - out);
}

/* ---- INTERVAL ---- */

/* Reads an optionally signed integer at s[*i] (at most 18 digits);
 * *negative tells the sign, also of a zero. */
static bool read_signed(const char *s, size_t n, size_t *i, int64_t *out,
                        bool *negative)
{
    *negative = false;
    if (*i < n && (s[*i] == '-' || s[*i] == '+'))
        *negative = s[(*i)++] == '-';
    size_t start = *i;
    int64_t v = 0;
    for (; *i < n && s[*i] >= '0' && s[*i] <= '9'; (*i)++) {
        if (*i - start >= 18)
            return false;
        v = v * 10 + (s[*i] - '0');
    }
    if (*i == start)
        return false;
    *out = *negative ? -v : v;
    return true;
}

/* Adds a * k to *acc within [lo, hi]. */
static bool add_scaled(int64_t *acc, int64_t a, int64_t k, int64_t lo,
                       int64_t hi)
{
    if (a != 0 && (a > INT64_MAX / k || a < INT64_MIN / k))
        return false;
    int64_t v = a * k;
    if ((v > 0 && *acc > hi - v) || (v < 0 && *acc < lo - v))
        return false;
    *acc += v;
    return true;
}

const char *pier__interval_parse(const char *s, size_t n,
                                 pier__interval *out)
{
    static const char form[] =
        "an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each "
        "part may have a sign)";
    static const char range[] =
        "an interval's months and days are 32-bit, its time 64-bit "
        "microseconds";
    size_t i = 0;
    if (n < 2 || (s[i] != 'P' && s[i] != 'p'))
        return form;
    i++;
    int64_t months = 0, days = 0, us = 0;
    bool time = false, any = false;
    /* Designators must come in this order; each at most once. */
    static const char order[] = "YMWDHMS";
    size_t next = 0;                  /* first designator still allowed */
    while (i < n) {
        if (!time && (s[i] == 'T' || s[i] == 't')) {
            time = true;
            i++;
            next = 4;                 /* H, M, S */
            if (i == n)
                return form;          /* "T" with nothing after it */
            continue;
        }
        int64_t v = 0;
        bool negative = false;
        if (!read_signed(s, n, &i, &v, &negative))
            return form;
        int64_t frac = 0;             /* microseconds, seconds only */
        bool has_frac = false;        /* even an all-zero one */
        if (i < n && (s[i] == '.' || s[i] == ',')) {
            has_frac = true;
            i++;
            if (!read_fraction(s, n, &i, &frac))
                return form;
            if (negative)
                frac = -frac;
        }
        if (i >= n)
            return form;
        char c = (char)(s[i] >= 'a' && s[i] <= 'z' ? s[i] - 32 : s[i]);
        i++;
        size_t at = next;
        while (at < sizeof order - 1 && !(order[at] == c &&
                                          (at >= 4) == time))
            at++;
        if (at == sizeof order - 1)
            return form;
        next = at + 1;
        if (has_frac && c != 'S')
            return "only an interval's seconds may have a fraction";
        bool ok = true;
        switch (at) {
        case 0: ok = add_scaled(&months, v, 12, INT32_MIN, INT32_MAX); break;
        case 1: ok = add_scaled(&months, v, 1, INT32_MIN, INT32_MAX); break;
        case 2: ok = add_scaled(&days, v, 7, INT32_MIN, INT32_MAX); break;
        case 3: ok = add_scaled(&days, v, 1, INT32_MIN, INT32_MAX); break;
        case 4: ok = add_scaled(&us, v, US_PER_HOUR, INT64_MIN, INT64_MAX);
                break;
        case 5: ok = add_scaled(&us, v, US_PER_MIN, INT64_MIN, INT64_MAX);
                break;
        default:
            ok = add_scaled(&us, v, US_PER_SEC, INT64_MIN, INT64_MAX) &&
                 add_scaled(&us, frac, 1, INT64_MIN, INT64_MAX);
        }
        if (!ok)
            return range;
        any = true;
    }
    if (!any)
        return form;
    out->months = (int32_t)months;
    out->days = (int32_t)days;
    out->us = us;
    return NULL;
}

/* Appends v and its designator, when v is not zero. */
static char *put_part(char *p, int64_t v, char designator)
{
    if (v == 0)
        return p;
    char digits[24];
    int k = 0;
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        digits[k++] = (char)('0' + mag % 10);
        mag /= 10;
    } while (mag != 0);
    if (v < 0)
        *p++ = '-';
    while (k > 0)
        *p++ = digits[--k];
    *p++ = designator;
    return p;
}

size_t pier__interval_format(pier__interval v, char out[PIER__INTERVAL_BUF])
{
    char *p = out;
    *p++ = 'P';
    p = put_part(p, v.months / 12, 'Y');
    p = put_part(p, v.months % 12, 'M');
    p = put_part(p, v.days, 'D');
    if (v.us != 0) {
        *p++ = 'T';
        p = put_part(p, v.us / US_PER_HOUR, 'H');
        p = put_part(p, v.us % US_PER_HOUR / US_PER_MIN, 'M');
        int64_t sec_us = v.us % US_PER_MIN;
        if (sec_us != 0) {
            /* Seconds with the fraction's trailing zeros dropped. */
            int64_t mag = sec_us < 0 ? -sec_us : sec_us;
            int len = snprintf(p, 32, "%s%lld.%06lld", sec_us < 0 ? "-" : "",
                               (long long)(mag / US_PER_SEC),
                               (long long)(mag % US_PER_SEC));
            p += len;
            while (p[-1] == '0')
                p--;
            if (p[-1] == '.')
                p--;
            *p++ = 'S';
        }
    }
    if (p == out + 1) {               /* zero */
        memcpy(p, "T0S", 3);
        p += 3;
    }
    *p = '\0';
    return (size_t)(p - out);
}
