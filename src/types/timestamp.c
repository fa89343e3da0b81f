/*
 * timestamp.c: RFC 3339 instants <-> microseconds since the Unix epoch.
 *
 * The calendar (days from civil dates, reading and writing the date and
 * time fields) is calendar.c's, shared with DATE, TIME and DATETIME.
 *
 * Parsed instants are kept within 0001-01-01T00:00:00Z ..
 * 9999-12-31T23:59:59.999999Z (also after the offset is applied), so that
 * every accepted text formats back to the same instant.
 */
#include "types/codecs.h"

#define US_PER_SEC INT64_C(1000000)
#define US_PER_DAY (INT64_C(86400) * US_PER_SEC)

static int64_t min_micros(void)
{
    return pier__first_day() * US_PER_DAY;
}

static int64_t max_micros(void)
{
    return pier__last_day() * US_PER_DAY + US_PER_DAY - 1;
}

/* Reads exactly two digits at s[*i], advancing *i. */
static bool read2(const char *s, size_t n, size_t *i, int *out)
{
    if (n - *i < 2 || s[*i] < '0' || s[*i] > '9' || s[*i + 1] < '0' ||
        s[*i + 1] > '9')
        return false;
    *out = (s[*i] - '0') * 10 + (s[*i + 1] - '0');
    *i += 2;
    return true;
}

bool pier__timestamp_parse(const char *s, size_t n, int64_t *micros)
{
    size_t i = 0;
    int64_t days = 0, tod = 0;
    if (!pier__datetime_fields(s, n, &i, &days, &tod))
        return false;

    int64_t offset_s = 0;
    if (i < n && (s[i] == 'Z' || s[i] == 'z')) {
        i++;
    } else if (i < n && (s[i] == '+' || s[i] == '-')) {
        int sign = s[i] == '-' ? -1 : 1;
        int oh, om;
        i++;
        if (!read2(s, n, &i, &oh) || i >= n || s[i++] != ':' ||
            !read2(s, n, &i, &om) || oh > 23 || om > 59)
            return false;
        offset_s = sign * (oh * INT64_C(3600) + om * INT64_C(60));
    } else {
        return false;               /* a local time names no instant */
    }
    if (i != n)
        return false;

    int64_t us = days * US_PER_DAY + tod - offset_s * US_PER_SEC;
    if (us < min_micros() || us > max_micros())
        return false;
    *micros = us;
    return true;
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
    char *p = pier__date_put(out, days);
    *p++ = 'T';
    p = pier__time_put(p, rem);
    *p++ = 'Z';
    *p = '\0';
    return (size_t)(p - out);
}
