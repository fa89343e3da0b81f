/*
 * sqlite_sqlfns.c: what a connection must have registered for the SQL
 * dialect's types to keep their meaning inside SQLite (docs/sql.md):
 *
 *   _pier_fit(value, 'TYPE', column_id)
 *       the CHECK of every typed column of a declared table: 1 when the
 *       stored value is a value of the type, else an error naming the
 *       column, which aborts (and rolls back) the whole statement. A
 *       connection without it (sqlite3 on the file) cannot write the
 *       column at all, rather than write it unchecked.
 *   collations pier_numeric, pier_uuid, pier_instant, pier_time,
 *       pier_datetime, pier_interval: compare stored values by value.
 *   sum(x), avg(x): the built-ins, made exact over decimal texts.
 *   decimal_add/sub/mul(a, b), decimal_div(a, b, scale [, mode]),
 *   decimal_round(a, scale [, mode]), decimal(a): exact arithmetic on
 *   decimal values, as canonical text.
 *   _pier_fk(column_id, side, value): a foreign key's trigger failing
 *       the statement, naming the key (exec.c).
 *   _pier_hugeint_text(x): a board's hugeint cell as its digits, which
 *       pier_numeric orders (the query views call it).
 * and, from sqlite_timefns.c, the temporal functions, now() and the UUID
 * makers.
 *
 * Everything here is deterministic and innocuous (the lake runs with
 * trusted_schema off, and the schema's CHECKs call _pier_fit).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/sqlite_int.h"

/* ---- _pier_fit ---- */

typedef struct fit_type {
    pier__coltype c;
    char labels[];             /* ENUM labels, NUL-separated */
} fit_type;

/* Parsed types of one connection by spelling: a statement's constant
 * argument is parsed once per run of the statement otherwise (SQLite
 * drops auxdata when the statement is reset), and a table has only a few
 * spellings. */
#define FIT_CACHE 64

typedef struct fit_state {
    pier__stmt_failure *failure;
    const pier__exposed *made; /* may be NULL */
    size_t n;
    struct {
        char *spelling;
        fit_type *type;
    } cache[FIT_CACHE];
} fit_state;

static void fit_state_free(void *p)
{
    fit_state *fs = p;
    for (size_t i = 0; i < fs->n; i++) {
        free(fs->cache[i].spelling);
        free(fs->cache[i].type);
    }
    free(fs);
}

/* NULL when `s` is no type (*oom false) or memory ran out (*oom true). */
static fit_type *fit_type_parse(const char *s, size_t n, bool *oom)
{
    pier__buf labels;
    pier__buf_init(&labels);
    pier__sqltype t;
    const char *why = pier__sqltype_parse(s, n, &t, &labels, NULL);
    fit_type *ft = why == NULL && !labels.oom
                       ? malloc(sizeof *ft + labels.len + 1)
                       : NULL;
    *oom = labels.oom || (why == NULL && ft == NULL);
    if (ft != NULL) {
        ft->c.t = t;
        if (labels.len > 0)
            memcpy(ft->labels, labels.p, labels.len);
        ft->labels[labels.len] = '\0';
        ft->c.labels = t.base == PIER__B_ENUM ? ft->labels : NULL;
    }
    pier__buf_free(&labels);
    return ft;
}

/* The parsed type of the call's constant type argument: kept with the
 * statement's run by SQLite (auxdata), else found in the connection's
 * cache, else parsed (and cached while there is room). */
static const pier__coltype *fit_type_of(sqlite3_context *ctx,
                                        sqlite3_value *spelling, bool *oom)
{
    *oom = false;
    fit_type *ft = sqlite3_get_auxdata(ctx, 1);
    if (ft != NULL)
        return &ft->c;
    const char *s = (const char *)sqlite3_value_text(spelling);
    size_t n = (size_t)sqlite3_value_bytes(spelling);
    if (s == NULL)
        return NULL;
    fit_state *fs = sqlite3_user_data(ctx);
    for (size_t i = 0; i < fs->n; i++)
        if (strcmp(fs->cache[i].spelling, s) == 0) {
            sqlite3_set_auxdata(ctx, 1, fs->cache[i].type, NULL);
            return &fs->cache[i].type->c;
        }
    ft = fit_type_parse(s, n, oom);
    if (ft == NULL)
        return NULL;
    char *key = fs->n < FIT_CACHE ? pier__strndup(s, n) : NULL;
    if (key != NULL) {
        fs->cache[fs->n].spelling = key;
        fs->cache[fs->n].type = ft;
        fs->n++;
        sqlite3_set_auxdata(ctx, 1, ft, NULL);
        return &ft->c;
    }
    sqlite3_set_auxdata(ctx, 1, ft, free);
    /* SQLite may free it at once (out of memory): ask again. */
    ft = sqlite3_get_auxdata(ctx, 1);
    *oom = ft == NULL;
    return ft != NULL ? &ft->c : NULL;
}

/* Renders a refused value for the error: text quoted and cut, numbers as
 * SQLite writes them, blobs by their size. */
static void describe_value(char *out, size_t cap, sqlite3_value *v)
{
    switch (sqlite3_value_type(v)) {
    case SQLITE_BLOB:
        snprintf(out, cap, "a blob of %d bytes", sqlite3_value_bytes(v));
        return;
    case SQLITE_TEXT: {
        pier__buf b;
        pier__buf_init(&b);
        pier__quote_name(&b, (const char *)sqlite3_value_text(v),
                         (size_t)sqlite3_value_bytes(v));
        snprintf(out, cap, "'%s'", b.oom ? "?" : b.p != NULL ? b.p : "");
        pier__buf_free(&b);
        return;
    }
    default:
        snprintf(out, cap, "%s", (const char *)sqlite3_value_text(v));
        return;
    }
}

/* Whether a blob is byte for byte the changeset the engine exposes. */
static bool made_here(sqlite3_context *ctx, const pier__cell *cell)
{
    const pier__exposed *m = ((fit_state *)sqlite3_user_data(ctx))->made;
    return m != NULL && m->p != NULL && m->len == cell->n &&
           (cell->n == 0 || memcmp(m->p, cell->p, cell->n) == 0);
}

static void fit_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    bool oom = false;
    const pier__coltype *t = fit_type_of(ctx, argv[1], &oom);
    if (t == NULL && oom) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (t == NULL) {
        sqlite3_result_error(ctx, "_pier_fit: not a type of the dialect",
                             -1);
        return;
    }
    pier__cell cell;
    pier__sqlite_cell(&cell, argv[0]);
    const char *why = pier__coltype_fit(t, &cell);
    /* The type registry is pure: reading a changeset takes SQLite. The
     * changeset a commit trigger is storing is the engine's own, written
     * from a recording (a changeset by construction), so bytes equal to
     * it need not be read and inverted again. */
    if (why == NULL && t->t.base == PIER__B_CHANGESET &&
        cell.st == PIER__ST_BLOB && !made_here(ctx, &cell))
        why = pier__changeset_why(cell.p, cell.n);
    if (why != NULL && strcmp(why, "out of memory") == 0) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (why == NULL) {
        sqlite3_result_int(ctx, 1);
        return;
    }
    pier__stmt_failure *f = ((fit_state *)sqlite3_user_data(ctx))->failure;
    if (f != NULL) {
        f->column_id = sqlite3_value_int64(argv[2]);
        snprintf(f->reason, sizeof f->reason, "%s", why);
        describe_value(f->value, sizeof f->value, argv[0]);
    }
    if (f != NULL && f->applying) {
        /* the CHECK fails: a constraint conflict of the apply */
        sqlite3_result_int(ctx, 0);
        return;
    }
    char msg[256];
    snprintf(msg, sizeof msg, "a value of column %lld is not a %s: %s",
             (long long)sqlite3_value_int64(argv[2]),
             (const char *)sqlite3_value_text(argv[1]), why);
    sqlite3_result_error(ctx, msg, -1);
}

/* ---- collations ---- */

#define COLLATION(name, fn)                                               \
    static int name(void *payload, int na, const void *a, int nb,         \
                    const void *b)                                        \
    {                                                                     \
        (void)payload;                                                    \
        return fn(a, (size_t)na, b, (size_t)nb);                          \
    }

COLLATION(numeric_cmp, pier__collate_numeric)
COLLATION(uuid_cmp, pier__collate_uuid)
COLLATION(instant_cmp, pier__collate_instant)
COLLATION(time_cmp, pier__collate_time)
COLLATION(datetime_cmp, pier__collate_datetime)
COLLATION(interval_cmp, pier__collate_interval)
COLLATION(json_compact_cmp, pier__collate_json_compact)

/* ---- decimal values of SQLite values ---- */

/* A value as a decimal: an integer as itself, text and reals by their
 * text (0.1 reads "0.1"). NULL or why not. */
static const char *decimal_of(sqlite3_value *v, pier__decimal *out)
{
    if (sqlite3_value_type(v) == SQLITE_INTEGER) {
        *out = (pier__decimal){ sqlite3_value_int64(v), 0 };
        return NULL;
    }
    if (sqlite3_value_type(v) == SQLITE_FLOAT) {
        /* its shortest text that reads back as the same double (SQLite's
         * own has 15 digits: 0.30000000000000004 would read 0.3) */
        double d = sqlite3_value_double(v);
        if (!isfinite(d))
            return "not a number";
        char text[PIER__DOUBLE_BUF];
        size_t n = pier__double_format(d, text);
        return pier__decimal_parse(text, n, 0, 0, out);
    }
    const char *s = (const char *)sqlite3_value_text(v);
    if (s == NULL)
        return "not a number";
    return pier__decimal_parse(s, (size_t)sqlite3_value_bytes(v), 0, 0,
                               out);
}

/* The canonical text of a decimal as the function's result. */
static void result_decimal(sqlite3_context *ctx, pier__decimal d)
{
    char text[PIER__DECIMAL_BUF];
    pier__decimal_format(d, text);
    /* -1: NUL-terminated, so that reading it as text copies nothing */
    sqlite3_result_text(ctx, text, -1, SQLITE_TRANSIENT);
}

/* A computed decimal at its smallest scale ("0.3", not "0.30"): values are
 * stored as written, and "0.10" or "0.1" must not decide how a result
 * reads. */
static void result_total(sqlite3_context *ctx, pier__decimal d)
{
    while (d.scale > 0 && d.unscaled % 10 == 0) {
        d.unscaled /= 10;
        d.scale--;
    }
    result_decimal(ctx, d);
}

static void result_errorf(sqlite3_context *ctx, const char *fmt, ...)
    PIER__PRINTF(2, 3);

static void result_errorf(sqlite3_context *ctx, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sqlite3_result_error(ctx, msg, -1);
}

/* decimal_add(a, b) and its siblings: null in, null out. */
static bool decimal_args(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                         pier__decimal *d, const char *fn)
{
    for (int i = 0; i < argc; i++) {
        if (sqlite3_value_type(argv[i]) == SQLITE_NULL) {
            sqlite3_result_null(ctx);
            return false;
        }
        const char *why = decimal_of(argv[i], &d[i]);
        if (why != NULL) {
            result_errorf(ctx, "%s: %s", fn, why);
            return false;
        }
    }
    return true;
}

static void decimal_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    pier__decimal d;
    if (decimal_args(ctx, argc, argv, &d, "decimal"))
        result_total(ctx, d);
}

typedef bool (*decimal_op)(pier__decimal, pier__decimal, pier__decimal *);

static void binary_fn(sqlite3_context *ctx, sqlite3_value **argv,
                      decimal_op op, const char *name)
{
    pier__decimal d[2], r;
    if (!decimal_args(ctx, 2, argv, d, name))
        return;
    if (!op(d[0], d[1], &r)) {
        result_errorf(ctx, "%s: the result needs more than 38 digits",
                      name);
        return;
    }
    result_total(ctx, r);
}

static void add_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    binary_fn(ctx, argv, pier__decimal_add, "decimal_add");
}

static void sub_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    binary_fn(ctx, argv, pier__decimal_sub, "decimal_sub");
}

static void mul_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    binary_fn(ctx, argv, pier__decimal_mul, "decimal_mul");
}

/* The scale argument of decimal_div and decimal_round: an integer from
 * 0 to 38; false (the error set) otherwise. */
static bool scale_arg(sqlite3_context *ctx, sqlite3_value *v, const char *fn,
                      int *out)
{
    if (sqlite3_value_type(v) != SQLITE_INTEGER ||
        sqlite3_value_int64(v) < 0 ||
        sqlite3_value_int64(v) > PIER__DECIMAL_MAX_DIGITS) {
        result_errorf(ctx, "%s: the scale is an integer from 0 to 38, the "
                      "digits to keep after the point", fn);
        return false;
    }
    *out = (int)sqlite3_value_int64(v);
    return true;
}

/* The rounding mode argument (argv[i] when argc > i, else half_even);
 * false (the error set) for a name that is no mode. */
static bool rounding_arg(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                         int i, const char *fn, pier__rounding *out)
{
    *out = PIER__ROUND_HALF_EVEN;
    if (argc <= i)
        return true;
    const char *m = (const char *)sqlite3_value_text(argv[i]);
    if (m != NULL &&
        pier__rounding_parse(m, (size_t)sqlite3_value_bytes(argv[i]), out))
        return true;
    result_errorf(ctx, "%s: unknown rounding mode '%s': use "
                  PIER__ROUNDING_NAMES, fn, m != NULL ? m : "");
    return false;
}

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

/* decimal_div(a, b, scale [, mode]): rounded to `scale` digits. */
static void div_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    pier__decimal d[2], r;
    int scale;
    pier__rounding mode;
    if (null_arg(ctx, argc, argv) ||
        !decimal_args(ctx, 2, argv, d, "decimal_div") ||
        !scale_arg(ctx, argv[2], "decimal_div", &scale) ||
        !rounding_arg(ctx, argc, argv, 3, "decimal_div", &mode))
        return;
    const char *why = pier__decimal_div(d[0], d[1], scale, mode, &r);
    if (why != NULL) {
        result_errorf(ctx, "decimal_div: %s", why);
        return;
    }
    result_decimal(ctx, r);
}

/* decimal_round(x, scale [, mode]): x at `scale` digits, rounded. */
static void round_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    pier__decimal d, r;
    int scale;
    pier__rounding mode;
    if (null_arg(ctx, argc, argv) ||
        !decimal_args(ctx, 1, argv, &d, "decimal_round") ||
        !scale_arg(ctx, argv[1], "decimal_round", &scale) ||
        !rounding_arg(ctx, argc, argv, 2, "decimal_round", &mode))
        return;
    const char *why = pier__decimal_round(d, scale, mode, &r);
    if (why != NULL) {
        result_errorf(ctx, "decimal_round: %s", why);
        return;
    }
    result_decimal(ctx, r);
}

/* ---- sum and avg ---- */

/*
 * The built-ins' behaviour for integers and reals, and exact decimals for
 * text that reads as one. Integers are summed in 128 bits so that a window
 * may subtract what it added; the result is checked against 64 bits at
 * the end, as the built-in checks as it goes.
 */
/* SQLite's aggregate context is aligned for 8 bytes only: the 128-bit
 * totals live there as a type that asks for no more. */
typedef pier__i128 acc_i128 __attribute__((aligned(8)));

typedef struct sum_acc {
    int64_t count;             /* non-null values */
    acc_i128 ints;             /* integers */
    double reals;              /* reals, text that is no decimal, and
                                  decimals beyond 38 digits */
    int64_t nreals;
    int64_t ntexts;            /* of nreals: text that is no number */
    acc_i128 decs;             /* decimal texts: unscaled ... */
    int scale;                 /* ... at this scale */
    int64_t ndecs;
    bool overflow;             /* the decimals passed 38 digits */
} sum_acc;

/* 10^38 - 1: the most a decimal's unscaled value may be. */
#define DECIMAL_MAX                                                       \
    ((pier__i128)UINT64_C(5421010862427522170) * ((pier__i128)1 << 64) +  \
     (pier__i128)UINT64_C(687399551400673279))

/* The common stored form, "-123.45" (at most 18 digits, no exponent),
 * without the general parser. */
bool pier__sqlfn_plain_decimal(const unsigned char *p, int n,
                               int64_t *unscaled, int *scale)
{
    int i = 0, digits = 0, point = -1;
    bool neg = n > 0 && p[0] == '-';
    int64_t v = 0;
    for (i = neg; i < n; i++) {
        if (p[i] >= '0' && p[i] <= '9') {
            if (++digits > 18)
                return false;
            v = v * 10 + (p[i] - '0');
        } else if (p[i] == '.' && point < 0) {
            point = i;
        } else {
            return false;
        }
    }
    if (digits == 0)
        return false;
    *unscaled = neg ? -v : v;
    *scale = point < 0 ? 0 : n - point - 1;
    return true;
}

/* Whether a text is spelled as a decimal number (a sign, digits with a
 * point, an exponent), whether or not its value fits 38 digits. */
static bool decimal_spelling(const unsigned char *p, int n)
{
    int i = 0, digits = 0;
    if (i < n && (p[i] == '-' || p[i] == '+'))
        i++;
    bool point = false;
    for (; i < n; i++) {
        if (p[i] >= '0' && p[i] <= '9')
            digits++;
        else if (p[i] == '.' && !point)
            point = true;
        else
            break;
    }
    if (digits == 0)
        return false;
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        if (i < n && (p[i] == '-' || p[i] == '+'))
            i++;
        int start = i;
        while (i < n && p[i] >= '0' && p[i] <= '9')
            i++;
        if (i == start)
            return false;
    }
    return i == n;
}

static void sum_decimal(sum_acc *s, pier__decimal d, int sign)
{
    if (sign < 0)
        d.unscaled = -d.unscaled;
    pier__decimal r, total = { s->decs, s->scale };
    if (!pier__decimal_add(total, d, &r)) {
        s->overflow = true;
        return;
    }
    s->decs = r.unscaled;
    s->scale = r.scale;
}

/* Multiplies *v by 10^k; false if it would pass 38 digits. */
static bool times_ten(pier__i128 *v, int k)
{
    for (; k > 0; k--) {
        if (*v > DECIMAL_MAX / 10 || *v < -DECIMAL_MAX / 10)
            return false;
        *v *= 10;
    }
    return true;
}

/* The total and a value of the common form brought to one scale (the
 * larger): *value the value's unscaled digits at it. False (nothing
 * changed) when either would pass 38 digits. */
static bool common_scale(sum_acc *s, int64_t unscaled, int scale,
                         pier__i128 *value)
{
    *value = unscaled;
    if (s->ndecs == 0 && s->decs == 0) {
        s->scale = scale;
        return true;
    }
    if (scale <= s->scale)
        return times_ten(value, s->scale - scale);
    pier__i128 total = s->decs;
    if (!times_ten(&total, scale - s->scale))
        return false;
    s->decs = total;
    s->scale = scale;
    return true;
}

static void sum_value(sum_acc *s, sqlite3_value *v, int sign)
{
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        return;
    case SQLITE_INTEGER:
        s->ints += sign * (pier__i128)sqlite3_value_int64(v);
        break;
    case SQLITE_TEXT: {
        const unsigned char *p = sqlite3_value_text(v);
        int n = sqlite3_value_bytes(v);
        int64_t unscaled;
        int scale;
        pier__decimal d;
        pier__i128 value = 0;
        if (pier__sqlfn_plain_decimal(p, n, &unscaled, &scale) &&
            common_scale(s, unscaled, scale, &value)) {
            s->decs += sign * value;
            if (s->decs > DECIMAL_MAX || s->decs < -DECIMAL_MAX)
                s->overflow = true;
        } else if (decimal_of(v, &d) == NULL) {
            sum_decimal(s, d, sign);
        } else if (decimal_spelling(p, n)) {
            /* An exact number beyond 38 digits (an INT128 of 39): no
             * exact total holds it, and a float total would drop digits
             * without a word. Only a total that is a float anyway (a
             * real is among the values) takes it, as a float. */
            s->overflow = true;
            s->reals += sign * sqlite3_value_double(v);
        } else {
            s->reals += sign * sqlite3_value_double(v);
            s->nreals += sign;
            if (sqlite3_value_numeric_type(v) == SQLITE_TEXT)
                s->ntexts += sign;
            break;
        }
        s->ndecs += sign;
        break;
    }
    default:                   /* reals; blobs read as the built-in reads */
        s->reals += sign * sqlite3_value_double(v);
        s->nreals += sign;
        break;
    }
    s->count += sign;
}

void pier__sqlfn_sum_add(sqlite3_context *ctx, int type, int64_t i,
                         double r, const pier__decimal *d, int sign)
{
    sum_acc *s = sqlite3_aggregate_context(ctx, sizeof *s);
    if (s == NULL || type == SQLITE_NULL)
        return;
    switch (type) {
    case SQLITE_INTEGER:
        s->ints += sign * (pier__i128)i;
        break;
    case SQLITE_FLOAT:
        s->reals += sign * r;
        s->nreals += sign;
        break;
    default: {
        pier__i128 value = 0;
        if (d == NULL) {
            s->overflow = true;        /* beyond 38 digits */
        } else if (d->scale <= 18 && d->unscaled <= INT64_MAX &&
                   d->unscaled >= -INT64_MAX &&
                   common_scale(s, (int64_t)d->unscaled, d->scale,
                                &value)) {
            s->decs += sign * value;
            if (s->decs > DECIMAL_MAX || s->decs < -DECIMAL_MAX)
                s->overflow = true;
        } else {
            sum_decimal(s, *d, sign);
        }
        s->ndecs += sign;
        break;
    }
    }
    s->count += sign;
}

static void acc_add(sqlite3_context *ctx, sqlite3_value *v, int sign)
{
    sum_acc *s = sqlite3_aggregate_context(ctx, sizeof *s);
    if (s != NULL)
        sum_value(s, v, sign);
}

static void sum_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    acc_add(ctx, argv[0], 1);
}

static void sum_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    acc_add(ctx, argv[0], -1);
}

/* The exact total of integers and decimals; false on overflow. The
 * integers' total fits 38 digits: at most 2^64 values of at most 2^63. */
static bool sum_exact(const sum_acc *s, pier__decimal *out)
{
    return !s->overflow &&
           pier__decimal_add((pier__decimal){ s->decs, s->scale },
                             (pier__decimal){ s->ints, 0 }, out);
}

/* The total as the built-in gives it once a real is among the values. */
static double sum_double(const sum_acc *s)
{
    double total = s->reals + (double)s->ints;
    if (s->ndecs > 0) {
        char text[PIER__DECIMAL_BUF];
        pier__decimal_format((pier__decimal){ s->decs, s->scale }, text);
        total += pier__strtod(text, NULL);
    }
    return total;
}

/* REALs and DECIMALs together cannot be totalled exactly, and silently
 * inexact is what the types exist to prevent: refused, saying how to ask
 * for either. */
static bool mixed(sqlite3_context *ctx, const sum_acc *s, const char *fn)
{
    if (s->nreals == 0 || s->ndecs == 0)
        return false;
    if (s->ntexts > 0) {
        result_errorf(ctx, "%s: text that is not a number (which SQLite "
                      "would count as 0) among decimal values cannot be "
                      "totalled exactly: leave it out (WHERE), or write "
                      "%s(CAST(x AS REAL)) for a float", fn, fn);
        return true;
    }
    result_errorf(ctx, "%s: REAL and DECIMAL values together cannot be "
                  "totalled exactly: write %s(CAST(x AS REAL)) for a float, "
                  "or %s(decimal(x)) for an exact decimal", fn, fn, fn);
    return true;
}

static void sum_result(sqlite3_context *ctx, const sum_acc *s)
{
    if (s == NULL || s->count == 0) {
        sqlite3_result_null(ctx);
        return;
    }
    if (mixed(ctx, s, "sum"))
        return;
    if (s->nreals > 0) {
        sqlite3_result_double(ctx, sum_double(s));
        return;
    }
    pier__decimal d;
    if (s->ndecs == 0) {
        if (s->ints > INT64_MAX || s->ints < INT64_MIN)
            sqlite3_result_error(ctx, "integer overflow", -1);
        else
            sqlite3_result_int64(ctx, (int64_t)s->ints);
        return;
    }
    if (!sum_exact(s, &d)) {
        sqlite3_result_error(ctx, "sum: the decimal total needs more than "
                             "38 digits", -1);
        return;
    }
    result_total(ctx, d);
}

/* The final result and a window's current one are the same. */
static void sum_final(sqlite3_context *ctx)
{
    sum_result(ctx, sqlite3_aggregate_context(ctx, 0));
}

static void avg_result(sqlite3_context *ctx, const sum_acc *s)
{
    if (s == NULL || s->count == 0) {
        sqlite3_result_null(ctx);
        return;
    }
    if (mixed(ctx, s, "avg"))
        return;
    if (s->ndecs == 0 || s->nreals > 0) {
        sqlite3_result_double(ctx, sum_double(s) / (double)s->count);
        return;
    }
    pier__decimal total, n = { s->count, 0 }, q;
    if (!sum_exact(s, &total)) {
        sqlite3_result_error(ctx, "avg: the decimal total needs more than "
                             "38 digits", -1);
        return;
    }
    const char *why = pier__decimal_div_exact(total, n, &q);
    if (why != NULL) {
        char msg[256];
        snprintf(msg, sizeof msg, "avg: %s", why);
        sqlite3_result_error(ctx, msg, -1);
        return;
    }
    result_total(ctx, q);
}

/* total(x): as the built-in, a float (0.0 of no rows) over integers and
 * reals; over decimals their exact total (0 of none), as sum's. */
static void total_final(sqlite3_context *ctx)
{
    const sum_acc *s = sqlite3_aggregate_context(ctx, 0);
    if (s == NULL || s->count == 0) {
        sqlite3_result_double(ctx, 0.0);
        return;
    }
    if (mixed(ctx, s, "total"))
        return;
    if (s->ndecs == 0) {
        sqlite3_result_double(ctx, sum_double(s));
        return;
    }
    pier__decimal d;
    if (!sum_exact(s, &d)) {
        sqlite3_result_error(ctx, "total: the decimal total needs more "
                             "than 38 digits", -1);
        return;
    }
    result_total(ctx, d);
}

static void avg_final(sqlite3_context *ctx)
{
    avg_result(ctx, sqlite3_aggregate_context(ctx, 0));
}

void pier__sqlfn_sum_final(sqlite3_context *ctx)
{
    sum_final(ctx);
}

void pier__sqlfn_avg_final(sqlite3_context *ctx)
{
    avg_final(ctx);
}

void pier__sqlfn_total_final(sqlite3_context *ctx)
{
    total_final(ctx);
}

/* ---- hugeint cells ---- */

/* _pier_hugeint_text(x): an INTEGER, or the 16-byte BLOB of a hugeint
 * beyond 64 bits, as its digits; anything else (NULL) as it is. */
static void hugeint_text_fn(sqlite3_context *ctx, int argc,
                            sqlite3_value **argv)
{
    (void)argc;
    pier__cell c;
    pier__sqlite_cell(&c, argv[0]);
    pier__i128 h;
    if (!pier__hugeint_cell(&c, &h)) {
        sqlite3_result_value(ctx, argv[0]);
        return;
    }
    char digits[PIER__I128_BUF];
    size_t n = pier__i128_format(h, digits);
    sqlite3_result_text(ctx, digits, (int)n, SQLITE_TRANSIENT);
}

/* ---- CAST(x AS T) ---- */

/*
 * _pcs(x, 'T'): CAST(x AS T) for a type of the dialect (the front-end
 * writes one as the other, src/sql/rewrite.c): the canonical value of T,
 * or an error when x is not one (a refused cast is ColumnTypeConflict).
 * SQLite's own CAST maps an unknown type name to an affinity: DECIMAL
 * became NUMERIC (a float), a UUID or a TIME 0 or a number. A REAL reads
 * by its shortest text that reads back as the same double. ENUM is
 * refused: its labels belong to a column.
 */
static void cast_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    fit_state *fs = sqlite3_user_data(ctx);
    const char *spelling = (const char *)sqlite3_value_text(argv[1]);
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    if (spelling != NULL && pier__name_eq(spelling, strlen(spelling) < 4
                                                        ? strlen(spelling)
                                                        : 4, "enum", 4)) {
        if (fs->failure != NULL)
            fs->failure->cast = true;
        sqlite3_result_error(ctx, "CAST to ENUM is refused: an ENUM's labels "
                             "are a column's; compare the text with them",
                             -1);
        return;
    }
    bool oom = false;
    const pier__coltype *t = fit_type_of(ctx, argv[1], &oom);
    if (t == NULL) {
        if (oom)
            sqlite3_result_error_nomem(ctx);
        else
            sqlite3_result_error(ctx, "CAST: not a type of the dialect", -1);
        return;
    }
    pier__cell cell;
    pier__sqlite_cell(&cell, argv[0]);
    /* a number written as text, for a type SQLite stores as a number (as
     * its affinity would read it) */
    const char *storage = pier__coltype_storage(t);
    if (cell.st == PIER__ST_TEXT && (strcmp(storage, "INTEGER") == 0 ||
                                     strcmp(storage, "REAL") == 0)) {
        int64_t i;
        double d;
        sqlite3_value *v = argv[0];
        if (sqlite3_value_numeric_type(v) == SQLITE_INTEGER) {
            i = sqlite3_value_int64(v);
            cell = (pier__cell){ .st = PIER__ST_INT, .i = i };
        } else if (sqlite3_value_numeric_type(v) == SQLITE_FLOAT) {
            d = sqlite3_value_double(v);
            cell = (pier__cell){ .st = PIER__ST_REAL, .d = d };
        }
    }
    /* a number, for a type SQLite stores as text other than the exact
     * numbers: its text, as the column's TEXT affinity makes it (a
     * VARCHAR(3) column takes 12 as '12') */
    bool exact = t->t.base == PIER__B_DECIMAL ||
                 t->t.base == PIER__B_UINT64 || t->t.base == PIER__B_INT128;
    if ((cell.st == PIER__ST_INT || cell.st == PIER__ST_REAL) &&
        t->t.dims == 0 && !exact && strcmp(storage, "TEXT") == 0) {
        const unsigned char *p = sqlite3_value_text(argv[0]);
        if (p == NULL) {
            sqlite3_result_error_nomem(ctx);
            return;
        }
        cell = (pier__cell){ .st = PIER__ST_TEXT, .p = (const char *)p,
                             .n = (size_t)sqlite3_value_bytes(argv[0]) };
    }
    char text[PIER__DOUBLE_BUF];
    if (cell.st == PIER__ST_REAL && isfinite(cell.d) &&
        t->t.base != PIER__B_DOUBLE && t->t.base != PIER__B_FLOAT32) {
        size_t n = pier__double_format(cell.d, text);
        cell = (pier__cell){ .st = PIER__ST_TEXT, .p = text, .n = n };
    }
    const char *why = pier__coltype_fit(t, &cell);
    /* (a changeset is read as the column reads it: with SQLite's reader) */
    if (why == NULL && t->t.base == PIER__B_CHANGESET && t->t.dims == 0 &&
        cell.st == PIER__ST_BLOB && !made_here(ctx, &cell))
        why = pier__changeset_why(cell.p, cell.n);
    if (why != NULL && strcmp(why, "out of memory") == 0) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (why != NULL) {
        if (fs->failure != NULL)
            fs->failure->cast = true;
        result_errorf(ctx, "CAST to %s: %s", spelling, why);
        return;
    }
    pier__arena a;
    pier__arena_init(&a);
    pier_value v;
    if (pier__coltype_decode(&v, t, &cell, &a) != PIER__FIT_OK) {
        pier__arena_free(&a);
        sqlite3_result_error_nomem(ctx);
        return;
    }
    switch (v.kind) {
    case PIER_KIND_BOOLEAN:
        sqlite3_result_int(ctx, v.as.boolean ? 1 : 0);
        break;
    case PIER_KIND_TINYINT: case PIER_KIND_SMALLINT: case PIER_KIND_INTEGER:
    case PIER_KIND_BIGINT:
        sqlite3_result_int64(ctx, v.as.integer);
        break;
    case PIER_KIND_FLOAT: case PIER_KIND_DOUBLE:
        sqlite3_result_double(ctx, v.as.real);
        break;
    default:
        if (v.text != NULL)
            sqlite3_result_text(ctx, v.text, (int)v.len, SQLITE_TRANSIENT);
        else
            sqlite3_result_value(ctx, argv[0]);
    }
    pier__arena_free(&a);
}

/* ---- _pier_fk ---- */

/* _pier_fk(column_id, side, value): what a foreign key's trigger calls
 * when a write would break it (exec.c, fk_triggers): records which key
 * and value for the error, and fails the statement. A changeset's apply
 * checks keys once at its end, as SQLite's apply does: an order of
 * changes that passes through an orphan is not one. */
static void fk_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    pier__stmt_failure *f = ((fit_state *)sqlite3_user_data(ctx))->failure;
    if (f != NULL && f->applying) {
        /* SQLite's own key, deferred by the apply, judges at its end */
        sqlite3_result_null(ctx);
        return;
    }
    if (f != NULL) {
        f->column_id = sqlite3_value_int64(argv[0]);
        f->fk = sqlite3_value_int(argv[1]);
        describe_value(f->value, sizeof f->value, argv[2]);
    }
    sqlite3_result_error(ctx, "FOREIGN KEY constraint failed", -1);
}

/* ---- what the other function files share (sqlite_int.h) ---- */

const char *pier__sqlfn_decimal(sqlite3_value *v, pier__decimal *out)
{
    return decimal_of(v, out);
}

void pier__sqlfn_result_total(sqlite3_context *ctx, pier__decimal d)
{
    result_total(ctx, d);
}

void pier__sqlfn_errorf(sqlite3_context *ctx, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sqlite3_result_error(ctx, msg, -1);
}

void pier__sqlfn_describe(char *out, size_t cap, sqlite3_value *v)
{
    describe_value(out, cap, v);
}

/* ---- registration ---- */

static const struct {
    const char *name;
    int (*cmp)(void *, int, const void *, int, const void *);
} collations[] = {
    { "pier_numeric", numeric_cmp },   { "pier_uuid", uuid_cmp },
    { "pier_instant", instant_cmp },   { "pier_time", time_cmp },
    { "pier_datetime", datetime_cmp }, { "pier_interval", interval_cmp },
    { "pier_json_compact", json_compact_cmp },
};

static const struct {
    const char *name;
    int nargs;
    void (*fn)(sqlite3_context *, int, sqlite3_value **);
} scalars[] = {
    { "decimal", 1, decimal_fn },     { "decimal_add", 2, add_fn },
    { "decimal_sub", 2, sub_fn },     { "decimal_mul", 2, mul_fn },
    { "decimal_div", 3, div_fn },     { "decimal_div", 4, div_fn },
    { "decimal_round", 2, round_fn }, { "decimal_round", 3, round_fn },
    { "_pier_hugeint_text", 1, hugeint_text_fn },
};

int pier__sqlite_register_dialect(sqlite3 *db, pier__stmt_failure *failure,
                                  const int64_t *stmt_now,
                                  const pier__exposed *made)
{
    const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    fit_state *fs = calloc(1, sizeof *fs);
    if (fs == NULL)
        return SQLITE_NOMEM;
    fs->failure = failure;
    fs->made = made;
    /* SQLite owns fs from here: it calls fit_state_free when the function
     * goes (or at once if registering fails). */
    int rc = sqlite3_create_function_v2(db, "_pier_fit", 3, flags, fs,
                                        fit_fn, NULL, NULL, fit_state_free);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "_pier_fk", 3, flags, fs, fk_fn,
                                        NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "_pcs", 2, flags, fs, cast_fn,
                                        NULL, NULL, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof collations /
                                                  sizeof collations[0]; i++)
        rc = sqlite3_create_collation_v2(db, collations[i].name, SQLITE_UTF8,
                                         NULL, collations[i].cmp, NULL);
    for (size_t i = 0;
         rc == SQLITE_OK && i < sizeof scalars / sizeof scalars[0]; i++)
        rc = sqlite3_create_function_v2(db, scalars[i].name,
                                        scalars[i].nargs, flags, NULL,
                                        scalars[i].fn, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_window_function(db, "sum", 1, flags, NULL,
                                            sum_step, sum_final, sum_final,
                                            sum_inverse, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_window_function(db, "avg", 1, flags, NULL,
                                            sum_step, avg_final, avg_final,
                                            sum_inverse, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_window_function(db, "total", 1, flags, NULL,
                                            sum_step, total_final,
                                            total_final, sum_inverse, NULL);
    if (rc == SQLITE_OK)
        rc = pier__sqlite_register_exact_ops(db);
    if (rc == SQLITE_OK)
        rc = pier__sqlite_register_time(db, stmt_now);
    return rc;
}
