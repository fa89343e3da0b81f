/*
 * bench.h: the small helpers every benchmark program shares: clocks, the
 * comparison for sorting samples, and the date stamped on the figures.
 * Header-only (each benchmark .c file is its own program), so they are
 * static inline.
 */
#ifndef PIER_BENCH_H
#define PIER_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* Seconds on the monotonic clock: for intervals only. */
static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wall-clock microseconds since the epoch: the baselines' updated_at and
 * committed_at, as Pier stamps them. */
static inline int64_t wall_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* qsort order of doubles. */
static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* "2026-11-30 03:30 UTC": when the figures were taken. */
static inline const char *utc_date(char *out, size_t cap)
{
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm) == NULL ||
        strftime(out, cap, "%Y-%m-%d %H:%M UTC", &tm) == 0)
        snprintf(out, cap, "unknown date");
    return out;
}

#endif /* PIER_BENCH_H */
