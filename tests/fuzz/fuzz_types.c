/*
 * fuzz_types.c: the text forms of the logical types (src/types: codecs.h,
 * spelling.h, sqlcol.h, types.h), pure, no lake.
 *
 * The first byte picks what the rest is (a letter, or any byte modulo the
 * number of forms):
 *   d  DECIMAL: a precision byte (modulo 39; 0 is DECIMAL alone), a scale
 *      byte (modulo p + 1), then the text
 *   i  an instant (RFC 3339)      D  a DATE      t  a TIME
 *   T  a DATETIME                 v  an INTERVAL u  a UUID
 *   s  a type spelling, in the dialect and in the board vocabulary
 *   j  a JSON text: pier__json_canonical and a JSON column
 *   c  a column: a type spelling, a NUL byte, a stored value (enums,
 *      arrays, varchar, and every other type through its column)
 *
 * Invariants, for every form: what parses renders a canonical text that
 * parses again to the same value and renders the same text (idempotent);
 * where a collation exists, it finds the input equal to its canonical
 * text (not for arrays, which compare as their compact text).
 * Independent checks: a decimal's value against a reference reading of
 * its digits and exponent; instants, dates, times and datetimes against
 * timegm(3) of their canonical fields; a UUID against its hex digits; a
 * JSON document against jansson's reading of it (same document), and only
 * valid JSON is ever accepted.
 */
#define _DEFAULT_SOURCE  /* timegm */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "support/fuzz_support.h"
#include "types/sqlcol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- decimals ---- */

/*
 * A reference reading of a decimal text, by digits alone: the value is
 * sign * digits * 10^exp with `digits` free of leading and trailing zeros
 * ("" for zero, whose sign and exp are then 0). False when the text is not
 * a number by the grammar of pier__decimal_parse (sign, digits with an
 * optional point, an exponent), its exponent is beyond +-10^9 or it has
 * more significant digits than `digits` holds (no decimal has).
 */
typedef struct refdec {
    int sign;
    char digits[100];
    long long exp;
} refdec;

static bool is_dig(char c)
{
    return c >= '0' && c <= '9';
}

static bool refdec_read(const char *s, size_t n, refdec *out)
{
    size_t p = 0;
    memset(out, 0, sizeof *out);
    int sign = 1;
    if (p < n && (s[p] == '+' || s[p] == '-'))
        sign = s[p++] == '-' ? -1 : 1;
    size_t int_start = p;
    while (p < n && is_dig(s[p]))
        p++;
    size_t int_end = p, frac_start = p, frac_end = p;
    if (p < n && s[p] == '.') {
        frac_start = ++p;
        while (p < n && is_dig(s[p]))
            p++;
        frac_end = p;
    }
    if (int_end == int_start && frac_end == frac_start)
        return false;
    long long e = 0;
    if (p < n && (s[p] == 'e' || s[p] == 'E')) {
        p++;
        int esign = 1;
        if (p < n && (s[p] == '+' || s[p] == '-'))
            esign = s[p++] == '-' ? -1 : 1;
        if (p >= n || !is_dig(s[p]))
            return false;
        while (p < n && is_dig(s[p])) {
            if (e > 1000000000)
                return false;
            e = e * 10 + (s[p++] - '0');
        }
        e *= esign;
    }
    if (p != n)
        return false;
    /* The mantissa's digits, the point left out: integer part, then the
     * fraction; value = mantissa * 10^(e - fraction digits). */
    size_t ni = int_end - int_start, nf = frac_end - frac_start;
    size_t total = ni + nf;
#define MDIGIT(k) ((k) < ni ? s[int_start + (k)] : s[frac_start + (k) - ni])
    size_t lo = 0, hi = total;
    while (lo < hi && MDIGIT(lo) == '0')
        lo++;
    while (hi > lo && MDIGIT(hi - 1) == '0')
        hi--;
    if (lo == hi)
        return true;                         /* zero */
    if (hi - lo >= sizeof out->digits)
        return false;
    for (size_t k = lo; k < hi; k++)
        out->digits[k - lo] = MDIGIT(k);
#undef MDIGIT
    out->digits[hi - lo] = '\0';
    out->sign = sign;
    out->exp = e - (long long)nf + (long long)(total - hi);
    return true;
}

static bool refdec_eq(const refdec *a, const refdec *b)
{
    return a->sign == b->sign && a->exp == b->exp &&
           strcmp(a->digits, b->digits) == 0;
}

static void check_decimal(const uint8_t *data, size_t size)
{
    if (size < 2)
        return;
    int precision = data[0] % 39;
    int scale = precision > 0 ? data[1] % (precision + 1) : 0;
    const char *s = (const char *)data + 2;
    size_t n = size - 2;

    pier__decimal d;
    if (pier__decimal_parse(s, n, precision, scale, &d) != NULL)
        return;
    FZ_CHECK(d.scale >= 0 && d.scale <= PIER__DECIMAL_MAX_DIGITS,
             "scale %d", d.scale);
    if (precision > 0)
        FZ_CHECK(d.scale == scale, "DECIMAL(%d,%d) read at scale %d",
                 precision, scale, d.scale);
    char text[PIER__DECIMAL_BUF];
    size_t len = pier__decimal_format(d, text);
    FZ_CHECK(len < sizeof text && strlen(text) == len, "format length");

    pier__decimal again;
    const char *why = pier__decimal_parse(text, len, precision, scale,
                                          &again);
    FZ_CHECK(why == NULL, "'%.*s' read, its text '%s' refused: %s", (int)n,
             s, text, why);
    FZ_CHECK(again.unscaled == d.unscaled && again.scale == d.scale,
             "'%s' reads back as another decimal", text);
    char text2[PIER__DECIMAL_BUF];
    size_t len2 = pier__decimal_format(again, text2);
    FZ_CHECK(len2 == len && memcmp(text, text2, len) == 0,
             "'%s' renders '%s'", text, text2);

    /* The value, by digits: never rounded. */
    refdec want, got;
    FZ_CHECK(refdec_read(s, n, &want),
             "'%.*s' read as a decimal, but is no number of at most 99 "
             "digits", (int)n, s);
    FZ_CHECK(refdec_read(text, len, &got), "'%s' is no number", text);
    FZ_CHECK(refdec_eq(&want, &got), "'%.*s' read as '%s'", (int)n, s,
             text);
    FZ_CHECK(strlen(got.digits) <= PIER__DECIMAL_MAX_DIGITS,
             "'%s' has more than 38 digits", text);
    FZ_CHECK(pier__collate_numeric(s, n, text, len) == 0,
             "pier_numeric: '%.*s' differs from its own value '%s'", (int)n,
             s, text);
}

/* ---- instants, dates, times ---- */

/* Microseconds since the epoch of y-m-d h:mi:s + us, by timegm(3). */
static int64_t ref_micros(int y, int m, int d, int h, int mi, int s,
                          long us)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    tm.tm_year = y - 1900;
    tm.tm_mon = m - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = s;
    time_t t = timegm(&tm);
    return (int64_t)t * 1000000 + us;
}

static void check_instant(const char *s, size_t n)
{
    int64_t us;
    if (!pier__timestamp_parse(s, n, &us))
        return;
    char text[PIER__TIMESTAMP_BUF];
    size_t len = pier__timestamp_format(us, text);
    int64_t again;
    FZ_CHECK(pier__timestamp_parse(text, len, &again) && again == us,
             "'%s' does not read back as %" PRId64, text, us);
    char text2[PIER__TIMESTAMP_BUF];
    FZ_CHECK(pier__timestamp_format(again, text2) == len &&
             memcmp(text, text2, len) == 0, "'%s' renders '%s'", text,
             text2);
    int y, m, d, h, mi, sec;
    long frac;
    char z;
    FZ_CHECK(len == 27 &&
             sscanf(text, "%4d-%2d-%2dT%2d:%2d:%2d.%6ld%c", &y, &m, &d, &h,
                    &mi, &sec, &frac, &z) == 8 && z == 'Z',
             "'%s' is not the canonical form", text);
    FZ_CHECK(ref_micros(y, m, d, h, mi, sec, frac) == us,
             "'%s' is not %" PRId64 " by timegm", text, us);
    FZ_CHECK(pier__collate_instant(s, n, text, len) == 0,
             "pier_instant: '%.*s' differs from '%s'", (int)n, s, text);
}

static void check_date(const char *s, size_t n)
{
    int32_t days;
    if (pier__date_parse(s, n, &days) != NULL)
        return;
    char text[PIER__DATE_BUF];
    size_t len = pier__date_format(days, text);
    int32_t again;
    FZ_CHECK(pier__date_parse(text, len, &again) == NULL && again == days,
             "'%s' does not read back", text);
    /* One spelling per day: the input was already canonical. */
    FZ_CHECK(len == n && memcmp(s, text, n) == 0,
             "date '%.*s' renders '%s'", (int)n, s, text);
    int y, m, d;
    FZ_CHECK(sscanf(text, "%4d-%2d-%2d", &y, &m, &d) == 3, "'%s'", text);
    FZ_CHECK(ref_micros(y, m, d, 0, 0, 0, 0) == (int64_t)days * 86400000000,
             "'%s' is not day %d by timegm", text, (int)days);
}

static void check_time(const char *s, size_t n)
{
    int64_t us;
    if (pier__time_parse(s, n, &us) != NULL)
        return;
    FZ_CHECK(us >= 0 && us < INT64_C(86400000000), "time %" PRId64, us);
    char text[PIER__TIME_BUF];
    size_t len = pier__time_format(us, text);
    int64_t again;
    FZ_CHECK(pier__time_parse(text, len, &again) == NULL && again == us,
             "'%s' does not read back", text);
    int h, mi, sec;
    long frac;
    FZ_CHECK(len == 15 &&
             sscanf(text, "%2d:%2d:%2d.%6ld", &h, &mi, &sec, &frac) == 4,
             "'%s' is not the canonical form", text);
    FZ_CHECK(((int64_t)h * 3600 + mi * 60 + sec) * 1000000 + frac == us,
             "'%s' is not %" PRId64, text, us);
    FZ_CHECK(pier__collate_time(s, n, text, len) == 0,
             "pier_time: '%.*s' differs from '%s'", (int)n, s, text);
}

static void check_datetime(const char *s, size_t n)
{
    int64_t us;
    if (pier__datetime_parse(s, n, &us) != NULL)
        return;
    char text[PIER__DATETIME_BUF];
    size_t len = pier__datetime_format(us, text);
    int64_t again;
    FZ_CHECK(pier__datetime_parse(text, len, &again) == NULL && again == us,
             "'%s' does not read back", text);
    int y, m, d, h, mi, sec;
    long frac;
    FZ_CHECK(len == 26 &&
             sscanf(text, "%4d-%2d-%2dT%2d:%2d:%2d.%6ld", &y, &m, &d, &h,
                    &mi, &sec, &frac) == 7,
             "'%s' is not the canonical form", text);
    FZ_CHECK(ref_micros(y, m, d, h, mi, sec, frac) == us,
             "'%s' is not %" PRId64 " by timegm", text, us);
    FZ_CHECK(pier__collate_datetime(s, n, text, len) == 0,
             "pier_datetime: '%.*s' differs from '%s'", (int)n, s, text);
}

static void check_interval(const char *s, size_t n)
{
    pier__interval v;
    if (pier__interval_parse(s, n, &v) != NULL)
        return;
    char text[PIER__INTERVAL_BUF];
    size_t len = pier__interval_format(v, text);
    FZ_CHECK(len < sizeof text && strlen(text) == len, "format length");
    pier__interval again;
    const char *why = pier__interval_parse(text, len, &again);
    FZ_CHECK(why == NULL, "'%.*s' read, its text '%s' refused: %s", (int)n,
             s, text, why);
    FZ_CHECK(again.months == v.months && again.days == v.days &&
             again.us == v.us, "'%s' reads back as another interval",
             text);
    char text2[PIER__INTERVAL_BUF];
    FZ_CHECK(pier__interval_format(again, text2) == len &&
             memcmp(text, text2, len) == 0, "'%s' renders '%s'", text,
             text2);
    FZ_CHECK(pier__collate_interval(s, n, text, len) == 0,
             "pier_interval: '%.*s' differs from '%s'", (int)n, s, text);
}

static void check_uuid(const char *s, size_t n)
{
    unsigned char bytes[16];
    if (pier__uuid_parse(s, n, bytes) != NULL)
        return;
    char text[PIER__UUID_BUF];
    FZ_CHECK(pier__uuid_format(bytes, text) == 36, "uuid length");
    unsigned char again[16];
    FZ_CHECK(pier__uuid_parse(text, 36, again) == NULL &&
             memcmp(again, bytes, 16) == 0, "'%s' does not read back",
             text);
    /* The hex digits, in order and lower case, are the value. */
    char want[33], got[33];
    size_t nw = 0, ng = 0;
    for (size_t i = 0; i < n && nw < 32; i++)
        if (s[i] != '-')
            want[nw++] = (char)(s[i] >= 'A' && s[i] <= 'F' ? s[i] + 32
                                                           : s[i]);
    for (size_t i = 0; i < 36; i++)
        if (text[i] != '-')
            got[ng++] = text[i];
    FZ_CHECK(nw == 32 && ng == 32 && memcmp(want, got, 32) == 0,
             "uuid '%.*s' read as '%s'", (int)n, s, text);
    FZ_CHECK(pier__collate_uuid(s, n, text, 36) == 0,
             "pier_uuid: '%.*s' differs from '%s'", (int)n, s, text);
}

/* ---- type spellings ---- */

static void check_spelling(const char *s, size_t n)
{
    pier__sqltype t;
    pier__buf labels;
    pier__buf_init(&labels);
    if (pier__sqltype_parse(s, n, &t, &labels, NULL) == NULL) {
        pier__buf text;
        pier__buf_init(&text);
        pier__sqltype_write(&text, &t, labels.p);
        FZ_CHECK(!text.oom && text.p != NULL, "out of memory");
        pier__sqltype t2;
        pier__buf labels2;
        pier__buf_init(&labels2);
        const char *why = pier__sqltype_parse(text.p, text.len, &t2,
                                              &labels2, NULL);
        FZ_CHECK(why == NULL, "'%.*s' read, its canonical '%s' refused: "
                 "%s", (int)n, s, text.p, why);
        FZ_CHECK(t2.base == t.base && t2.dims == t.dims &&
                 t2.precision == t.precision && t2.scale == t.scale &&
                 t2.length == t.length && t2.nlabels == t.nlabels,
                 "'%s' reads back as another type", text.p);
        FZ_CHECK(labels2.len == labels.len &&
                 (labels.len == 0 ||
                  memcmp(labels.p, labels2.p, labels.len) == 0),
                 "'%s' reads back with other labels", text.p);
        pier__buf text2;
        pier__buf_init(&text2);
        pier__sqltype_write(&text2, &t2, labels2.p);
        FZ_CHECK(text2.len == text.len &&
                 memcmp(text.p, text2.p, text.len) == 0,
                 "'%s' renders '%s'", text.p, text2.p);
        pier__buf_free(&text2);
        pier__buf_free(&labels2);
        pier__buf_free(&text);
    }
    pier__buf_free(&labels);

    /* The board vocabulary takes a C string. */
    char *c = fz_strndup((const uint8_t *)s, n);
    pier__type bt;
    char why[PIER__TYPE_WHY];
    pier_status rc = pier__type_parse(&bt, c, why);
    FZ_CHECK(rc == PIER_OK || rc == PIER_E_UNKNOWN_TYPE,
             "board type '%s': %s", c, pier_status_tag(rc));
    if (rc == PIER_OK) {
        const char *name = pier__type_name(bt);
        pier__type bt2;
        rc = pier__type_parse(&bt2, name, why);
        FZ_CHECK(rc == PIER_OK, "board type '%s' read, its name '%s' "
                 "refused: %s", c, name, why);
        FZ_CHECK(pier__type_eq(bt, bt2) &&
                 strcmp(pier__type_name(bt2), name) == 0,
                 "board type '%s' reads back as '%s'", name,
                 pier__type_name(bt2));
        pier__type_free(&bt2);
        pier__type_free(&bt);
    }
    free(c);
}

/* ---- JSON ---- */

static void check_json(const char *s, size_t n)
{
    pier__buf out;
    pier__buf_init(&out);
    pier_error err;
    pier_status rc = pier__json_canonical(&out, s, n, &err);
    FZ_CHECK(rc == PIER_OK || rc == PIER_E_INVALID_JSON, "canonical: %s",
             pier_status_tag(rc));
    if (rc == PIER_E_INVALID_JSON)
        FZ_CHECK(err.offset >= 0 && (size_t)err.offset <= n,
                 "offset %" PRId64 " of %zu bytes", err.offset, n);
    if (rc == PIER_OK) {
        FZ_CHECK(fz_json_valid(s, n), "'%.*s' is no JSON, yet accepted",
                 (int)n, s);
        const char *c = out.p != NULL ? out.p : "";
        FZ_CHECK(fz_json_valid(c, out.len), "canonical '%s' is no JSON",
                 c);
        pier__buf again;
        pier__buf_init(&again);
        FZ_OK(pier__json_canonical(&again, c, out.len, &err), &err);
        FZ_CHECK(again.len == out.len &&
                 (out.len == 0 || memcmp(again.p, c, out.len) == 0),
                 "canonical '%s' renders '%s'", c, again.p);
        pier__buf_free(&again);
        json_t *want = fz_json_parse(s, n, JSON_REJECT_DUPLICATES);
        json_t *got = fz_json_parse(c, out.len, 0);
        FZ_CHECK(got != NULL, "canonical '%s' does not parse", c);
        if (want != NULL)
            FZ_CHECK(json_equal(want, got),
                     "'%.*s' became another document, '%s'", (int)n, s, c);
        json_decref(want);
        json_decref(got);
    }
    pier__buf_free(&out);

    /* A JSON column takes any JSON text nested at most 1000 deep. */
    static pier__coltype json_col;
    json_col.t.base = PIER__B_JSON;
    char *copy = fz_strndup((const uint8_t *)s, n);
    pier__cell cell = { .st = PIER__ST_TEXT, .p = copy, .n = n };
    const char *why = pier__coltype_fit(&json_col, &cell);
    if (why == NULL)
        FZ_CHECK(fz_json_valid(s, n), "a JSON column took '%.*s'", (int)n,
                 s);
    else if (fz_json_valid(s, n) && fz_json_depth(s, n) <= 1000 &&
             memchr(s, '\0', n) == NULL)
        FZ_CHECK(false, "a JSON column refused valid JSON '%.*s': %s",
                 (int)n, s, why);
    free(copy);
}

/* ---- a value in a declared column ---- */

typedef int (*collate_fn)(const char *, size_t, const char *, size_t);

static collate_fn collation(const pier__coltype *c)
{
    const char *name = pier__coltype_collation(c);
    if (name == NULL)
        return NULL;
    static const struct {
        const char *name;
        collate_fn fn;
    } all[] = {
        { "pier_numeric", pier__collate_numeric },
        { "pier_uuid", pier__collate_uuid },
        { "pier_instant", pier__collate_instant },
        { "pier_time", pier__collate_time },
        { "pier_datetime", pier__collate_datetime },
        { "pier_interval", pier__collate_interval },
        { "pier_json_compact", pier__collate_json_compact },
    };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        if (strcmp(all[i].name, name) == 0)
            return all[i].fn;
    FZ_CHECK(false, "unknown collation %s", name);
    return NULL;
}

/* The cell of a value given as text, in the column's storage type; false
 * when the text is no value of that storage class. */
static bool make_cell(const pier__coltype *c, const char *s, size_t n,
                      pier__cell *cell)
{
    const char *st = pier__coltype_storage(c);
    memset(cell, 0, sizeof *cell);
    if (strcmp(st, "TEXT") == 0 || strcmp(st, "ANY") == 0) {
        cell->st = PIER__ST_TEXT;
        cell->p = s;
        cell->n = n;
        return true;
    }
    if (strcmp(st, "BLOB") == 0) {
        cell->st = PIER__ST_BLOB;
        cell->p = s;
        cell->n = n;
        return true;
    }
    char *end;
    if (strcmp(st, "INTEGER") == 0) {
        long long i = strtoll(s, &end, 10);
        if (n == 0 || end != s + n)
            return false;
        cell->st = PIER__ST_INT;
        cell->i = i;
        return true;
    }
    double d = strtod(s, &end);
    if (n == 0 || end != s + n)
        return false;
    cell->st = PIER__ST_REAL;
    cell->d = d;
    return true;
}

static void check_column(const char *s, size_t n)
{
    const char *nul = memchr(s, '\0', n);
    if (nul == NULL)
        return;
    size_t tn = (size_t)(nul - s);
    pier__coltype c;
    memset(&c, 0, sizeof c);
    pier__buf labels;
    pier__buf_init(&labels);
    if (pier__sqltype_parse(s, tn, &c.t, &labels, NULL) != NULL) {
        pier__buf_free(&labels);
        return;
    }
    c.labels = c.t.base == PIER__B_ENUM ? labels.p : NULL;
    /* The value, NUL-terminated as SQLite's text is. */
    char *v = fz_strndup((const uint8_t *)nul + 1, n - tn - 1);
    size_t vn = n - tn - 1;
    pier__cell cell;
    pier__arena a;
    pier__arena_init(&a);
    if (make_cell(&c, v, vn, &cell) && pier__coltype_fit(&c, &cell) == NULL) {
        pier_value got;
        FZ_CHECK(pier__coltype_decode(&got, &c, &cell, &a) == PIER__FIT_OK,
                 "'%s' fits %.*s but does not decode", v, (int)tn, s);
        FZ_CHECK(got.kind == pier__coltype_kind(&c) ||
                 pier__coltype_kind(&c) == PIER_KIND_NULL,
                 "kind %d for a column of kind %d", (int)got.kind,
                 (int)pier__coltype_kind(&c));
        FZ_CHECK(got.text != NULL && got.text[got.len] == '\0',
                 "decoded text");
        pier__buf j;
        pier__buf_init(&j);
        pier__value_json(&j, &got);
        FZ_CHECK(!j.oom && fz_json_valid(j.p, j.len),
                 "the JSON of '%s' in %.*s is no JSON: %s", v, (int)tn, s,
                 j.p);
        pier__buf_free(&j);
        if (cell.st == PIER__ST_TEXT) {
            /* The canonical text is a value too, of the same text. */
            char *canon = fz_strndup((const uint8_t *)got.text, got.len);
            pier__cell again = { .st = PIER__ST_TEXT, .p = canon,
                                 .n = got.len };
            const char *why = pier__coltype_fit(&c, &again);
            FZ_CHECK(why == NULL, "%.*s: '%s' fits, its canonical '%s' "
                     "does not: %s", (int)tn, s, v, canon, why);
            pier_value got2;
            FZ_CHECK(pier__coltype_decode(&got2, &c, &again, &a) ==
                     PIER__FIT_OK && got2.len == got.len &&
                     memcmp(got2.text, got.text, got.len) == 0,
                     "%.*s: '%s' renders '%s'", (int)tn, s, canon,
                     got2.text);
            /* Arrays compare as their compact text, not element by
             * element (docs/sql.md, "Limits"): '[-0]' is not '[0]'. */
            collate_fn cmp = c.t.dims == 0 ? collation(&c) : NULL;
            if (cmp != NULL)
                FZ_CHECK(cmp(v, vn, canon, got.len) == 0,
                         "%.*s: '%s' and its canonical '%s' differ by the "
                         "collation", (int)tn, s, v, canon);
            free(canon);
        }
    }
    pier__arena_free(&a);
    free(v);
    pier__buf_free(&labels);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char forms[] = "diDtTvusjc";
    if (size == 0)
        return 0;
    const char *f = memchr(forms, data[0], sizeof forms - 1);
    char form = f != NULL ? *f : forms[data[0] % (sizeof forms - 1)];
    const char *s = (const char *)data + 1;
    size_t n = size - 1;
    switch (form) {
    case 'd': check_decimal(data + 1, size - 1); break;
    case 'i': check_instant(s, n); break;
    case 'D': check_date(s, n); break;
    case 't': check_time(s, n); break;
    case 'T': check_datetime(s, n); break;
    case 'v': check_interval(s, n); break;
    case 'u': check_uuid(s, n); break;
    case 's': check_spelling(s, n); break;
    case 'j': check_json(s, n); break;
    default: check_column(s, n); break;
    }
    return 0;
}
