/*
 * bench.h: what every benchmark program shares: clocks, the comparison
 * for sorting samples and the date stamped on the figures (static inline,
 * below), and, in support/bench_support.c (linked into each program), the
 * options they take alike, their temporary directories and binding a
 * JSON value as Pier stores it.
 */
#ifndef PIER_BENCH_H
#define PIER_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <jansson.h>
#include <sqlite3.h>

/* ---- the options every benchmark takes (bench_support.c) ---- */

typedef struct bench_args {
    /* Set by the program: */
    const char *prog;              /* "bench_query", for messages */
    void (*usage)(FILE *out);      /* the program's --help text */
    int max_runs;                  /* --runs takes 1 to this */
    bool takes_json;               /* --json is an option */
    void *cfg;                     /* handed to the callbacks */
    /* --only NAME, the simple way: NAME is measurements[i] (a NULL-ended
     * list), which sets bit i of *only_bits... */
    const char *const *measurements;
    unsigned *only_bits;
    /* ... or the program's own way: 0 if NAME is a measurement (recorded
     * in cfg), else -1. Neither: no --only. */
    int (*only)(void *cfg, const char *name);
    /* An option of the program's own at argv[i]: how many arguments it
     * took (1 or 2), 0 if it is none, -1 after printing a usage error;
     * NULL: none. */
    int (*extra)(void *cfg, int argc, char **argv, int i);
    /* Read from the command line: */
    bool quick;                    /* --quick: a tenth of the work */
    bool json;                     /* --json */
    int runs;                      /* --runs N; 0 when not given */
    const char *parent;            /* --dir, else $TMPDIR, else /tmp */
} bench_args;

/* Parses --help/-h, --quick, --json, --runs N, --dir DIR, --only M and
 * the program's own options. @return 0 to run, 1 after --help, 2 after a
 * usage error (printed). */
int bench_parse_args(bench_args *a, int argc, char **argv);

/* Makes PARENT/pier-bench-WHAT-XXXXXX into out; -1 after printing why. */
int bench_tmpdir_make(const char *prog, const char *parent, const char *what,
                      char *out, size_t cap);
/* Removes the directory and the files in it (a lake or a raw database
 * and their journals: nothing nests); -1 after printing why. */
int bench_tmpdir_remove(const char *prog, const char *dir);

/* Binds one JSON value as Pier stores it: strings as TEXT, integers as
 * INT, reals as REAL, booleans as INT 0/1, objects and arrays as their
 * compact text, null or a missing member (NULL) as NULL. A string stays
 * owned by `v`, which must outlive the step. */
int bench_bind_json(sqlite3_stmt *st, int i, const json_t *v);

/* ---- small helpers ---- */

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
