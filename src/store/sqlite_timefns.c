/*
 * sqlite_timefns.c: the SQL dialect's temporal functions, now() and the
 * UUID makers, registered on every connection of the lake beside the
 * decimal ones (sqlite_sqlfns.c); docs/sql.md lists them.
 *
 *   date_part(field, x), extract(field, x)   a field, exactly
 *   date_trunc(unit, x)                      x cut to the unit
 *   date_add(x, interval), date_sub(x, interval)
 *   date_diff(a, b)                          a - b
 *   age(a, b), age(a)                        a - b in years, months, days
 *   make_interval([years [, months ... [, secs]]])
 *   interval_mul(interval, factor)
 *   now()                                    the statement's INSTANT
 *   uuid_v4(), uuid_v7()
 *
 * The arithmetic is temporal.c's; this file reads SQLite values into it
 * and writes its results back as the canonical text of their type (an
 * INTEGER for the days between two dates), so that a result reads, sorts
 * and stores as a value of its type. A value's type is its text's form
 * (temporal.h); an INTEGER is a board's timestamp, microseconds since the
 * epoch. A NULL argument makes the result NULL; anything else refused
 * fails the statement with a message naming the function.
 *
 * All but now(), age(a) and the UUID makers are deterministic. Those read
 * a per-connection state: the instant of the statement being run (the
 * lake's stmt_now on the writer, the query's on a reader), so that every
 * call in one statement sees the same now, and the last version 7 UUID,
 * so that the connection's v7 UUIDs increase.
 */
#include <stdlib.h>
#include <string.h>

#include "store/sqlite_int.h"
#include "types/temporal.h"

#define US_PER_DAY INT64_C(86400000000)

/* ---- arguments ---- */

/* Whether any argument is NULL, which makes the result NULL (set). */
static bool null_arg(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    for (int i = 0; i < argc; i++)
        if (sqlite3_value_type(argv[i]) == SQLITE_NULL) {
            sqlite3_result_null(ctx);
            return true;
        }
    return false;
}

/* A temporal value: text by its form, an INTEGER as microseconds since
 * the epoch (a board's timestamp). False, the error set, otherwise. */
static bool temporal_arg(sqlite3_context *ctx, sqlite3_value *v,
                         const char *fn, pier__temporal *out)
{
    const char *why;
    if (sqlite3_value_type(v) == SQLITE_INTEGER) {
        why = pier__temporal_instant(sqlite3_value_int64(v), out);
    } else if (sqlite3_value_type(v) == SQLITE_TEXT) {
        why = pier__temporal_parse((const char *)sqlite3_value_text(v),
                                   (size_t)sqlite3_value_bytes(v), out);
    } else {
        why = "not a DATE, TIME, DATETIME, INSTANT or INTERVAL (give their "
              "text, like 2026-03-01)";
    }
    if (why == NULL)
        return true;
    char shown[160];
    pier__sqlfn_describe(shown, sizeof shown, v);
    /* "'x' is not a DATE ...", or "'P1X': an interval is ..." */
    pier__sqlfn_errorf(ctx, "%s: %s%s %s", fn, shown,
                       strncmp(why, "not ", 4) == 0 ? " is" : ":", why);
    return false;
}

static bool interval_arg(sqlite3_context *ctx, sqlite3_value *v,
                         const char *fn, pier__interval *out)
{
    pier__temporal t;
    if (!temporal_arg(ctx, v, fn, &t))
        return false;
    if (t.kind == PIER__TEMPORAL_INTERVAL) {
        *out = t.iv;
        return true;
    }
    char shown[160];
    pier__sqlfn_describe(shown, sizeof shown, v);
    pier__sqlfn_errorf(ctx, "%s: %s is a %s, not an INTERVAL (like P1D or "
                       "PT1H30M)", fn, shown,
                       pier__temporal_kind_name(t.kind));
    return false;
}

/* The field or unit argument, spelled as a name ('year'). */
static bool field_arg(sqlite3_context *ctx, sqlite3_value *v, const char *fn,
                      pier__tfield *out)
{
    const char *s = (const char *)sqlite3_value_text(v);
    if (s != NULL && pier__tfield_parse(s, (size_t)sqlite3_value_bytes(v),
                                        out))
        return true;
    char shown[160];
    pier__sqlfn_describe(shown, sizeof shown, v);
    pier__sqlfn_errorf(ctx, "%s: unknown field %s: use " PIER__TFIELD_NAMES,
                       fn, shown);
    return false;
}

/* ---- results ---- */

static void result_temporal(sqlite3_context *ctx, const pier__temporal *t)
{
    char text[PIER__TEMPORAL_BUF];
    size_t n = pier__temporal_format(t, text);
    sqlite3_result_text(ctx, text, (int)n, SQLITE_TRANSIENT);
}

static void result_interval(sqlite3_context *ctx, pier__interval iv)
{
    pier__temporal t = { PIER__TEMPORAL_INTERVAL, 0, iv };
    result_temporal(ctx, &t);
}

/* ---- fields and truncation ---- */

/* date_part(field, x), and extract(field, x), which the front-end also
 * writes extract(field FROM x) as. A field that is always a whole number
 * (year, day...) is an INTEGER, so that it compares with numbers as it
 * reads (a text never equals 2024 in SQLite); second, milliseconds and
 * epoch may have a fraction and are exact DECIMAL text. */
static void part_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const char *fn = sqlite3_user_data(ctx);
    pier__tfield f;
    pier__temporal t;
    pier__decimal d;
    if (null_arg(ctx, argc, argv) || !field_arg(ctx, argv[0], fn, &f) ||
        !temporal_arg(ctx, argv[1], fn, &t))
        return;
    const char *why = pier__temporal_part(&t, f, &d);
    if (why != NULL)
        pier__sqlfn_errorf(ctx, "%s('%s'): %s", fn, pier__tfield_name(f),
                           why);
    else if (pier__tfield_whole(f))
        sqlite3_result_int64(ctx, (int64_t)d.unscaled);
    else
        pier__sqlfn_result_total(ctx, d);
}

static void trunc_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    pier__tfield f;
    pier__temporal t, r;
    if (null_arg(ctx, argc, argv) ||
        !field_arg(ctx, argv[0], "date_trunc", &f) ||
        !temporal_arg(ctx, argv[1], "date_trunc", &t))
        return;
    const char *why = pier__temporal_trunc(&t, f, &r);
    if (why != NULL)
        pier__sqlfn_errorf(ctx, "date_trunc('%s'): %s", pier__tfield_name(f),
                           why);
    else
        result_temporal(ctx, &r);
}

/* ---- arithmetic ---- */

/* date_add(x, interval) and date_sub(x, interval) (user data "date_sub"
 * negates the interval). */
static void add_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const char *fn = sqlite3_user_data(ctx);
    pier__temporal t, r;
    pier__interval iv;
    if (null_arg(ctx, argc, argv) || !temporal_arg(ctx, argv[0], fn, &t) ||
        !interval_arg(ctx, argv[1], fn, &iv))
        return;
    const char *why = NULL;
    if (strcmp(fn, "date_sub") == 0)
        why = pier__interval_negate(iv, &iv);
    if (why == NULL)
        why = pier__temporal_add(&t, iv, &r);
    if (why != NULL)
        pier__sqlfn_errorf(ctx, "%s: %s", fn, why);
    else
        result_temporal(ctx, &r);
}

static void diff_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    pier__temporal a, b;
    pier__interval iv;
    bool days;
    if (null_arg(ctx, argc, argv) ||
        !temporal_arg(ctx, argv[0], "date_diff", &a) ||
        !temporal_arg(ctx, argv[1], "date_diff", &b))
        return;
    const char *why = pier__temporal_diff(&a, &b, &iv, &days);
    if (why != NULL)
        pier__sqlfn_errorf(ctx, "date_diff: %s", why);
    else if (days)
        sqlite3_result_int64(ctx, iv.days);
    else
        result_interval(ctx, iv);
}

/* The per-connection state of the functions that are not deterministic.
 * SQLite owns it once registered (now() frees it); every other function
 * borrows it. */
typedef struct clock_state {
    const int64_t *stmt_now;   /* the running statement's instant; *0 or
                                  NULL: none, read the system clock */
    pier__uuid_v7_state v7;
} clock_state;

/* The instant of the running statement, microseconds since the epoch. */
static int64_t statement_now(sqlite3_context *ctx)
{
    const clock_state *cs = sqlite3_user_data(ctx);
    int64_t us = cs->stmt_now != NULL ? *cs->stmt_now : 0;
    return us != 0 ? us : pier__clock_system(NULL);
}

/* age(a, b), and age(a): from the midnight (UTC) that began the
 * statement's day, in a's kind. */
static void age_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    pier__temporal a, b;
    pier__interval iv;
    if (null_arg(ctx, argc, argv) || !temporal_arg(ctx, argv[0], "age", &a))
        return;
    if (argc == 2) {
        if (!temporal_arg(ctx, argv[1], "age", &b))
            return;
    } else {
        b = a;
        int64_t now = statement_now(ctx);
        a.us = (now / US_PER_DAY - (now % US_PER_DAY < 0)) * US_PER_DAY;
    }
    const char *why = pier__temporal_age(&a, &b, &iv);
    if (why != NULL)
        pier__sqlfn_errorf(ctx, "age: %s", why);
    else
        result_interval(ctx, iv);
}

/* make_interval(years, months, weeks, days, hours, mins, secs), any
 * number of them from the left. */
static void make_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    static const char *const names[] = { "years", "months", "weeks", "days",
                                         "hours", "mins", "secs" };
    pier__decimal parts[7];
    if (null_arg(ctx, argc, argv))
        return;
    for (int i = 0; i < argc; i++) {
        const char *why = pier__sqlfn_decimal(argv[i], &parts[i]);
        if (why != NULL) {
            char shown[160];
            pier__sqlfn_describe(shown, sizeof shown, argv[i]);
            pier__sqlfn_errorf(ctx, "make_interval: %s %s is not a number: "
                               "%s", names[i], shown, why);
            return;
        }
    }
    pier__interval iv;
    const char *why = pier__interval_make(parts, (size_t)argc, &iv);
    if (why != NULL)
        pier__sqlfn_errorf(ctx, "make_interval: %s", why);
    else
        result_interval(ctx, iv);
}

static void mul_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    pier__interval iv, r;
    pier__decimal f;
    if (null_arg(ctx, argc, argv) ||
        !interval_arg(ctx, argv[0], "interval_mul", &iv))
        return;
    const char *why = pier__sqlfn_decimal(argv[1], &f);
    if (why != NULL) {
        char shown[160];
        pier__sqlfn_describe(shown, sizeof shown, argv[1]);
        pier__sqlfn_errorf(ctx, "interval_mul: the factor %s is not a "
                           "number: %s", shown, why);
        return;
    }
    why = pier__interval_mul(iv, f, &r);
    if (why != NULL)
        pier__sqlfn_errorf(ctx, "interval_mul: %s", why);
    else
        result_interval(ctx, r);
}

/* ---- now() and UUIDs ---- */

static void now_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    pier__temporal t;
    if (pier__temporal_instant(statement_now(ctx), &t) != NULL) {
        sqlite3_result_error(ctx, "now(): the clock is outside the years "
                             "0001 to 9999", -1);
        return;
    }
    result_temporal(ctx, &t);
}

static void result_uuid(sqlite3_context *ctx, const unsigned char b[16])
{
    char text[PIER__UUID_BUF];
    size_t n = pier__uuid_format(b, text);
    sqlite3_result_text(ctx, text, (int)n, SQLITE_TRANSIENT);
}

static void uuid_v4_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    unsigned char random[16], b[16];
    if (!pier__random_bytes(random, sizeof random)) {
        sqlite3_result_error(ctx, "uuid_v4(): the system gave no random "
                             "bytes", -1);
        return;
    }
    pier__uuid_v4(random, b);
    result_uuid(ctx, b);
}

/* A version 7 UUID with the statement's millisecond (or a later one, so
 * that the connection's UUIDs increase). */
static void uuid_v7_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    clock_state *cs = sqlite3_user_data(ctx);
    unsigned char random[10], b[16];
    if (!pier__random_bytes(random, sizeof random)) {
        sqlite3_result_error(ctx, "uuid_v7(): the system gave no random "
                             "bytes", -1);
        return;
    }
    int64_t us = statement_now(ctx);
    int64_t ms = us / 1000 - (us % 1000 < 0);
    pier__uuid_v7(&cs->v7, ms, random, b);
    result_uuid(ctx, b);
}

/* ---- registration ---- */

typedef void (*scalar_fn)(sqlite3_context *, int, sqlite3_value **);

static const struct {
    const char *name;
    int nargs;
    scalar_fn fn;
} pure[] = {
    { "date_part", 2, part_fn },     { "extract", 2, part_fn },
    { "date_trunc", 2, trunc_fn },   { "date_add", 2, add_fn },
    { "date_sub", 2, add_fn },       { "date_diff", 2, diff_fn },
    { "age", 2, age_fn },            { "interval_mul", 2, mul_fn },
    { "make_interval", 0, make_fn }, { "make_interval", 1, make_fn },
    { "make_interval", 2, make_fn }, { "make_interval", 3, make_fn },
    { "make_interval", 4, make_fn }, { "make_interval", 5, make_fn },
    { "make_interval", 6, make_fn }, { "make_interval", 7, make_fn },
};

static const struct {
    const char *name;
    int nargs;
    scalar_fn fn;
} of_now[] = {
    { "age", 1, age_fn },
    { "uuid_v4", 0, uuid_v4_fn },
    { "uuid_v7", 0, uuid_v7_fn },
};

int pier__sqlite_register_time(sqlite3 *db, const int64_t *stmt_now)
{
    /* Innocuous: a view or a DEFAULT may call them (trusted_schema is
     * off). The user data of the pure ones is their name, for messages. */
    const int flags = SQLITE_UTF8 | SQLITE_INNOCUOUS;
    int rc = SQLITE_OK;
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof pure / sizeof *pure;
         i++)
        rc = sqlite3_create_function_v2(db, pure[i].name, pure[i].nargs,
                                        flags | SQLITE_DETERMINISTIC,
                                        (void *)pure[i].name, pure[i].fn,
                                        NULL, NULL, NULL);
    clock_state *cs = calloc(1, sizeof *cs);
    if (cs == NULL)
        return rc == SQLITE_OK ? SQLITE_NOMEM : rc;
    cs->stmt_now = stmt_now;
    /* SQLite owns cs from here: it frees it when now() goes, or at once
     * if registering fails. */
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "now", 0, flags, cs, now_fn,
                                        NULL, NULL, free);
    else
        free(cs);
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof of_now / sizeof *of_now;
         i++)
        rc = sqlite3_create_function_v2(db, of_now[i].name, of_now[i].nargs,
                                        flags, cs, of_now[i].fn, NULL, NULL,
                                        NULL);
    return rc;
}
