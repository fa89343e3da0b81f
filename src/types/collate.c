/*
 * collate.c: the collations of declared columns whose values have more
 * than one spelling: decimals and wide integers, UUIDs, instants, times,
 * date-times and intervals.
 *
 * SQLite calls a collation on every comparison of an ORDER BY, an index
 * lookup, a GROUP BY, with any two texts the column holds (and the texts
 * of the expressions they meet), so each is a total order over all byte
 * strings: values by value, then every text that is not a value, bytewise.
 * Equal values compare 0 whatever their spelling, so an index keeps one
 * place for '12.5' and '12.50'.
 *
 * Speed: equal bytes are settled by one memcmp (for values and non-values
 * alike they compare 0); otherwise each side is read once, with no
 * allocation and nothing converted beyond the codecs' own fields.
 */
#include <string.h>

#include "types/sqlcol.h"

/* The largest exponent a numeric text may have, as pier__decimal_parse
 * reads it: beyond it the text is not a value. */
#define MAX_EXPONENT 100000

/* Bytes order, a prefix first: how texts that are not values compare. */
static int bytes_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    size_t n = na < nb ? na : nb;
    int c = n > 0 ? memcmp(a, b, n) : 0;
    if (c != 0)
        return c < 0 ? -1 : 1;
    return (na > nb) - (na < nb);
}

static bool same_bytes(const char *a, size_t na, const char *b, size_t nb)
{
    return na == nb && (na == 0 || memcmp(a, b, na) == 0);
}

/* Orders two texts, given whether each is a value and, when both are,
 * how their values compare. */
static int settle(bool va, bool vb, int by_value, const char *a, size_t na,
                  const char *b, size_t nb)
{
    if (va && vb)
        return by_value;
    if (va != vb)
        return va ? -1 : 1;                  /* a value comes first */
    return bytes_cmp(a, na, b, nb);
}

static int cmp_i64(int64_t x, int64_t y)
{
    return (x > y) - (x < y);
}

/* ---- numbers ---- */

/* A decimal text read in place: value = 0.d1 d2 ... * 10^exp10, where the
 * digits d run from s[first] to s[end) (skipping the point). */
typedef struct num {
    const char *s;
    size_t first;          /* the first nonzero digit; end when zero */
    size_t end;            /* past the last digit of the mantissa */
    bool negative;
    int64_t exp10;
} num;

static bool num_read(const char *s, size_t n, num *out)
{
    size_t i = 0, point = SIZE_MAX, first = SIZE_MAX, digits = 0;
    out->negative = false;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        out->negative = s[i++] == '-';
    for (; i < n; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            digits++;
            if (c != '0' && first == SIZE_MAX)
                first = i;
        } else if (c == '.' && point == SIZE_MAX) {
            point = i;
        } else {
            break;
        }
    }
    if (digits == 0)
        return false;
    size_t end = i;
    int64_t exp = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool neg = false;
        if (i < n && (s[i] == '-' || s[i] == '+'))
            neg = s[i++] == '-';
        size_t start = i;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            if (exp <= MAX_EXPONENT)
                exp = exp * 10 + (s[i] - '0');
        if (i == start || exp > MAX_EXPONENT)
            return false;
        if (neg)
            exp = -exp;
    }
    if (i != n)
        return false;
    out->s = s;
    out->end = end;
    if (first == SIZE_MAX) {                 /* zero, of either sign */
        out->first = end;
        out->exp10 = 0;
        return true;
    }
    if (point == SIZE_MAX)
        point = end;
    out->first = first;
    /* Digits between the first and the point, or minus the zeros between
     * the point and the first. Texts are shorter than 2^62 bytes. */
    out->exp10 = exp + (first < point ? (int64_t)(point - first)
                                      : -(int64_t)(first - point - 1));
    return true;
}

/* Compares the digits of two magnitudes of the same exp10. */
static int digits_cmp(const num *a, const num *b)
{
    size_t i = a->first, j = b->first;
    for (;;) {
        if (i < a->end && a->s[i] == '.')
            i++;
        if (j < b->end && b->s[j] == '.')
            j++;
        if (i == a->end || j == b->end)
            break;
        if (a->s[i] != b->s[j])
            return a->s[i] < b->s[j] ? -1 : 1;
        i++;
        j++;
    }
    /* One ran out: the other is larger if a digit it has left is not 0. */
    for (; i < a->end; i++)
        if (a->s[i] >= '1' && a->s[i] <= '9')
            return 1;
    for (; j < b->end; j++)
        if (b->s[j] >= '1' && b->s[j] <= '9')
            return -1;
    return 0;
}

static int num_cmp(const num *a, const num *b)
{
    int sa = a->first == a->end ? 0 : a->negative ? -1 : 1;
    int sb = b->first == b->end ? 0 : b->negative ? -1 : 1;
    if (sa != sb)
        return sa < sb ? -1 : 1;
    if (sa == 0)
        return 0;
    int mag = a->exp10 != b->exp10 ? (a->exp10 < b->exp10 ? -1 : 1)
                                   : digits_cmp(a, b);
    return sa > 0 ? mag : -mag;
}

int pier__collate_numeric(const char *a, size_t na, const char *b,
                          size_t nb)
{
    if (same_bytes(a, na, b, nb))
        return 0;
    num x, y;
    bool va = num_read(a, na, &x), vb = num_read(b, nb, &y);
    return settle(va, vb, va && vb ? num_cmp(&x, &y) : 0, a, na, b, nb);
}

/* ---- UUIDs ---- */

int pier__collate_uuid(const char *a, size_t na, const char *b, size_t nb)
{
    if (same_bytes(a, na, b, nb))
        return 0;
    unsigned char x[16], y[16];
    bool va = pier__uuid_parse(a, na, x) == NULL;
    bool vb = pier__uuid_parse(b, nb, y) == NULL;
    int c = va && vb ? memcmp(x, y, 16) : 0;
    return settle(va, vb, (c > 0) - (c < 0), a, na, b, nb);
}

/* ---- instants, times, date-times ---- */

int pier__collate_instant(const char *a, size_t na, const char *b,
                          size_t nb)
{
    if (same_bytes(a, na, b, nb))
        return 0;
    int64_t x = 0, y = 0;
    bool va = pier__timestamp_parse(a, na, &x);
    bool vb = pier__timestamp_parse(b, nb, &y);
    return settle(va, vb, cmp_i64(x, y), a, na, b, nb);
}

int pier__collate_time(const char *a, size_t na, const char *b, size_t nb)
{
    if (same_bytes(a, na, b, nb))
        return 0;
    int64_t x = 0, y = 0;
    bool va = pier__time_parse(a, na, &x) == NULL;
    bool vb = pier__time_parse(b, nb, &y) == NULL;
    return settle(va, vb, cmp_i64(x, y), a, na, b, nb);
}

int pier__collate_datetime(const char *a, size_t na, const char *b,
                           size_t nb)
{
    if (same_bytes(a, na, b, nb))
        return 0;
    int64_t x = 0, y = 0;
    bool va = pier__datetime_parse(a, na, &x) == NULL;
    bool vb = pier__datetime_parse(b, nb, &y) == NULL;
    return settle(va, vb, cmp_i64(x, y), a, na, b, nb);
}

/* ---- intervals ---- */

int pier__collate_interval(const char *a, size_t na, const char *b,
                           size_t nb)
{
    if (same_bytes(a, na, b, nb))
        return 0;
    pier__interval x = { 0, 0, 0 }, y = { 0, 0, 0 };
    bool va = pier__interval_parse(a, na, &x) == NULL;
    bool vb = pier__interval_parse(b, nb, &y) == NULL;
    int c = cmp_i64(x.months, y.months);
    if (c == 0)
        c = cmp_i64(x.days, y.days);
    if (c == 0)
        c = cmp_i64(x.us, y.us);
    return settle(va, vb, c, a, na, b, nb);
}

/* ---- JSON, white space aside ---- */

/* The next byte of a JSON text that counts: white space outside strings
 * is passed over; *in_string follows the quotes (and escapes). -1 at the
 * end. */
static int json_next(const char *s, size_t n, size_t *i, bool *in_string,
                     bool *escaped)
{
    while (*i < n) {
        char c = s[(*i)++];
        if (*in_string) {
            if (*escaped)
                *escaped = false;
            else if (c == '\\')
                *escaped = true;
            else if (c == '"')
                *in_string = false;
            return (unsigned char)c;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
            continue;
        if (c == '"')
            *in_string = true;
        return (unsigned char)c;
    }
    return -1;
}

int pier__collate_json_compact(const char *a, size_t na, const char *b,
                               size_t nb)
{
    size_t i = 0, j = 0;
    bool sa = false, sb = false, ea = false, eb = false;
    for (;;) {
        int ca = json_next(a, na, &i, &sa, &ea);
        int cb = json_next(b, nb, &j, &sb, &eb);
        if (ca != cb)
            return ca < cb ? -1 : 1;
        if (ca < 0)
            return 0;
    }
}
