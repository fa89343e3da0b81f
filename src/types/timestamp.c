/*
 * timestamp.c: RFC 3339 instants <-> microseconds since the Unix epoch.
 *
 * Calendar arithmetic is the proleptic Gregorian days-from-civil algorithm
 * (Howard Hinnant's), in pure integers: no libc time zone functions, so
 * the result never depends on TZ or on the C library.
 *
 * Parsed instants are kept within 0001-01-01T00:00:00Z ..
 * 9999-12-31T23:59:59.999999Z (also after the offset is applied), so that
 * every accepted text formats back to the same instant.
 */
#include <string.h>

#include "types/types.h"

#define US_PER_SEC INT64_C(1000000)
#define US_PER_DAY (INT64_C(86400) * US_PER_SEC)

/* Days from 1970-01-01 to y-m-d (m 1..12, d 1..31). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;                              /* 0..399 */
    int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;      /* 0..146096 */
    return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
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

static int64_t min_micros(void)
{
    return days_from_civil(1, 1, 1) * US_PER_DAY;
}

static int64_t max_micros(void)
{
    return days_from_civil(9999, 12, 31) * US_PER_DAY + US_PER_DAY - 1;
}

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

bool pier__timestamp_parse(const char *s, size_t n, int64_t *micros)
{
    size_t i = 0;
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!read_digits(s, n, &i, 4, &year) || !expect(s, n, &i, '-') ||
        !read_digits(s, n, &i, 2, &month) || !expect(s, n, &i, '-') ||
        !read_digits(s, n, &i, 2, &day))
        return false;
    if (i >= n || (s[i] != 'T' && s[i] != 't' && s[i] != ' '))
        return false;
    i++;
    if (!read_digits(s, n, &i, 2, &hour) || !expect(s, n, &i, ':') ||
        !read_digits(s, n, &i, 2, &minute) || !expect(s, n, &i, ':') ||
        !read_digits(s, n, &i, 2, &second))
        return false;
    if (year < 1 || month < 1 || month > 12 || day < 1 ||
        day > days_in_month(year, month) || hour > 23 || minute > 59 ||
        second > 59)
        return false;

    int64_t frac_us = 0;
    if (i < n && s[i] == '.') {
        i++;
        int digits = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            if (digits < 6)         /* truncate beyond microseconds */
                frac_us = frac_us * 10 + (s[i] - '0');
            digits++;
            i++;
        }
        if (digits < 1 || digits > 9)
            return false;
        for (int k = digits; k < 6; k++)
            frac_us *= 10;
    }

    int64_t offset_s = 0;
    if (i < n && (s[i] == 'Z' || s[i] == 'z')) {
        i++;
    } else if (i < n && (s[i] == '+' || s[i] == '-')) {
        int sign = s[i] == '-' ? -1 : 1;
        int oh, om;
        i++;
        if (!read_digits(s, n, &i, 2, &oh) || !expect(s, n, &i, ':') ||
            !read_digits(s, n, &i, 2, &om) || oh > 23 || om > 59)
            return false;
        offset_s = sign * (oh * INT64_C(3600) + om * INT64_C(60));
    } else {
        return false;               /* a local time names no instant */
    }
    if (i != n)
        return false;

    int64_t secs = days_from_civil(year, month, day) * 86400 +
                   hour * INT64_C(3600) + minute * INT64_C(60) + second -
                   offset_s;
    int64_t us = secs * US_PER_SEC + frac_us;
    if (us < min_micros() || us > max_micros())
        return false;
    *micros = us;
    return true;
}

static char *put2(char *p, int v)
{
    memcpy(p, pier__digit_pairs + 2 * v, 2);
    return p + 2;
}

size_t pier__timestamp_format(int64_t micros, char out[PIER__TIMESTAMP_BUF])
{
    if (micros < min_micros())
        micros = min_micros();
    if (micros > max_micros())
        micros = max_micros();
    /* Floor division: -1 us is the last microsecond of 1969-12-31. */
    int64_t days = micros / US_PER_DAY;
    int64_t rem = micros % US_PER_DAY;
    if (rem < 0) {
        rem += US_PER_DAY;
        days--;
    }
    int64_t y;
    int m, d;
    civil_from_days(days, &y, &m, &d);
    int64_t secs = rem / US_PER_SEC;
    int us = (int)(rem % US_PER_SEC);

    char *p = out;
    p = put2(p, (int)(y / 100));
    p = put2(p, (int)(y % 100));
    *p++ = '-';
    p = put2(p, m);
    *p++ = '-';
    p = put2(p, d);
    *p++ = 'T';
    p = put2(p, (int)(secs / 3600));
    *p++ = ':';
    p = put2(p, (int)(secs / 60 % 60));
    *p++ = ':';
    p = put2(p, (int)(secs % 60));
    *p++ = '.';
    p = put2(p, us / 10000);
    p = put2(p, us / 100 % 100);
    p = put2(p, us % 100);
    *p++ = 'Z';
    *p = '\0';
    return (size_t)(p - out);
}
