/*
 * fuzz_rows.c: see fuzz_rows.h.
 */
#include "support/fuzz_rows.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/fuzz_support.h"

static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Copies s[0..n) with every integer literal beyond 64 bits outside
 * strings replaced by the string "\u0001DIGITS". */
static char *mark_bigints(const char *s, size_t n, size_t *out_len)
{
    char *d = malloc(n * 2 + 16);
    FZ_CHECK(d != NULL, "out of memory");
    size_t k = 0, p = 0;
    while (p < n) {
        char c = s[p];
        if (c == '"') {
            d[k++] = s[p++];
            while (p < n && s[p] != '"') {
                if (s[p] == '\\' && p + 1 < n)
                    d[k++] = s[p++];
                d[k++] = s[p++];
            }
            if (p < n)
                d[k++] = s[p++];
            continue;
        }
        if (c != '-' && !(c >= '0' && c <= '9')) {
            d[k++] = s[p++];
            continue;
        }
        size_t start = p;
        bool integral = true;
        p++;
        while (p < n && ((s[p] >= '0' && s[p] <= '9') || s[p] == '.' ||
                         s[p] == 'e' || s[p] == 'E' || s[p] == '+' ||
                         s[p] == '-')) {
            if (s[p] == '.' || s[p] == 'e' || s[p] == 'E')
                integral = false;
            p++;
        }
        size_t len = p - start;
        bool big = false;
        if (integral && len < 64 && !(len == 1 && c == '-')) {
            char buf[64];
            memcpy(buf, s + start, len);
            buf[len] = '\0';
            errno = 0;
            (void)strtoll(buf, NULL, 10);
            big = errno == ERANGE;
        } else if (integral && len >= 64) {
            big = true;
        }
        if (big) {
            memcpy(d + k, "\"\\u0001", 7);
            k += 7;
            memcpy(d + k, s + start, len);
            k += len;
            d[k++] = '"';
        } else {
            memcpy(d + k, s + start, len);
            k += len;
        }
    }
    d[k] = '\0';
    *out_len = k;
    return d;
}

static bool spells_marker(const char *s, size_t n)
{
    return fz_contains(s, n, "u0001", 5);
}

json_t *fz_rows_expected(const char *s, size_t n, bool lines, bool strict)
{
    if (spells_marker(s, n))
        return NULL;
    if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
        s += 3;
        n -= 3;
    }
    size_t tn;
    char *t = mark_bigints(s, n, &tn);
    const size_t flags = JSON_DISABLE_EOF_CHECK | JSON_ALLOW_NUL |
                         JSON_DECODE_ANY |
                         (strict ? JSON_REJECT_DUPLICATES : 0);
    json_t *rows = NULL;
    size_t p = 0;
    while (p < tn && is_ws(t[p]))
        p++;
    json_error_t jerr;
    json_t *first = p < tn ? json_loadb(t + p, tn - p, flags, &jerr) : NULL;
    if (first == NULL)
        goto done;
    p += (size_t)jerr.position;
    if (json_is_array(first)) {
        rows = first;
        while (p < tn && is_ws(t[p]))
            p++;
        if (p < tn) {
            json_decref(rows);
            rows = NULL;
        }
        goto done;
    }
    if (!json_is_object(first)) {
        json_decref(first);
        goto done;
    }
    rows = json_array();
    json_array_append_new(rows, first);
    for (;;) {
        while (p < tn && is_ws(t[p]))
            p++;
        if (p >= tn)
            break;
        json_t *next = lines ? json_loadb(t + p, tn - p, flags, &jerr)
                             : NULL;
        if (next == NULL || !json_is_object(next)) {
            json_decref(next);
            json_decref(rows);
            rows = NULL;
            break;
        }
        p += (size_t)jerr.position;
        json_array_append_new(rows, next);
    }
done:
    free(t);
    return rows;
}

static bool name_eq(const char *a, const char *b)
{
    for (;; a++, b++) {
        char x = *a, y = *b;
        if (x >= 'A' && x <= 'Z')
            x = (char)(x + 32);
        if (y >= 'A' && y <= 'Z')
            y = (char)(y + 32);
        if (x != y)
            return false;
        if (x == '\0')
            return true;
    }
}

json_t *fz_member(const json_t *obj, const char *name, size_t *count)
{
    json_t *found = NULL;
    size_t n = 0;
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)obj, key, value) {
        if (name_eq(key, name)) {
            if (found == NULL)
                found = value;
            n++;
        }
    }
    if (count != NULL)
        *count = n;
    return found;
}

static bool text_is(const pier_value *got, const char *want)
{
    return got->text != NULL && got->len == strlen(want) &&
           memcmp(got->text, want, got->len) == 0;
}

static double text_double(const pier_value *got)
{
    return got->text != NULL ? strtod(got->text, NULL) : 0.0;
}

void fz_check_value(const pier_value *got, const json_t *want,
                    const char *where)
{
    char digits[64];
    switch (json_typeof(want)) {
    case JSON_NULL:
        FZ_CHECK(got->kind == PIER_KIND_NULL && got->text == NULL,
                 "%s: null reads back as %s '%s'", where,
                 pier_kind_name(got->kind), got->text);
        return;
    case JSON_STRING: {
        const char *s = json_string_value(want);
        size_t n = json_string_length(want);
        if (n > 0 && s[0] == '\x01') {      /* an integer beyond 64 bits */
            const char *d = s + 1;
            double dv = strtod(d, NULL);
            bool ok = false;
            if (got->kind == PIER_KIND_HUGEINT)
                ok = text_is(got, d);
            else if (got->kind == PIER_KIND_DOUBLE)
                ok = got->as.real == dv;
            else if (got->kind == PIER_KIND_TEXT)
                ok = text_is(got, d) || text_double(got) == dv;
            FZ_CHECK(ok, "%s: %s reads back as %s '%s'", where, d,
                     pier_kind_name(got->kind), got->text);
            return;
        }
        FZ_CHECK(got->kind == PIER_KIND_TEXT && got->len == n &&
                 memcmp(got->text, s, n) == 0,
                 "%s: string '%s' reads back as %s '%s'", where, s,
                 pier_kind_name(got->kind), got->text);
        return;
    }
    case JSON_TRUE:
    case JSON_FALSE: {
        bool b = json_is_true(want);
        bool ok = false;
        switch (got->kind) {
        case PIER_KIND_BOOLEAN: ok = got->as.boolean == b; break;
        case PIER_KIND_BIGINT: ok = got->as.integer == (b ? 1 : 0); break;
        case PIER_KIND_HUGEINT: ok = text_is(got, b ? "1" : "0"); break;
        case PIER_KIND_DOUBLE: ok = got->as.real == (b ? 1.0 : 0.0); break;
        case PIER_KIND_TEXT: ok = text_is(got, b ? "true" : "false"); break;
        default: break;
        }
        FZ_CHECK(ok, "%s: %s reads back as %s '%s'", where,
                 b ? "true" : "false", pier_kind_name(got->kind), got->text);
        return;
    }
    case JSON_INTEGER: {
        json_int_t v = json_integer_value(want);
        snprintf(digits, sizeof digits, "%" JSON_INTEGER_FORMAT, v);
        bool ok = false;
        switch (got->kind) {
        case PIER_KIND_BIGINT: ok = got->as.integer == (int64_t)v; break;
        case PIER_KIND_HUGEINT:
        case PIER_KIND_TEXT: ok = text_is(got, digits); break;
        case PIER_KIND_DOUBLE: ok = got->as.real == (double)v; break;
        default: break;
        }
        FZ_CHECK(ok, "%s: %s reads back as %s '%s'", where, digits,
                 pier_kind_name(got->kind), got->text);
        return;
    }
    case JSON_REAL: {
        double d = json_real_value(want);
        bool ok = false;
        if (got->kind == PIER_KIND_DOUBLE)
            ok = got->as.real == d && text_double(got) == d;
        else if (got->kind == PIER_KIND_TEXT)
            ok = text_double(got) == d;
        FZ_CHECK(ok, "%s: %.17g reads back as %s '%s'", where, d,
                 pier_kind_name(got->kind), got->text);
        return;
    }
    case JSON_OBJECT:
    case JSON_ARRAY: {
        FZ_CHECK((got->kind == PIER_KIND_JSON ||
                  got->kind == PIER_KIND_TEXT) && got->text != NULL,
                 "%s: a document reads back as %s", where,
                 pier_kind_name(got->kind));
        json_t *doc = fz_json_parse(got->text, got->len, 0);
        FZ_CHECK(doc != NULL && json_equal(doc, want),
                 "%s: a document reads back as '%s'", where, got->text);
        json_decref(doc);
        return;
    }
    }
}

void fz_check_row_json(const pier_row *row)
{
    char *s = pier_row_to_json(row);
    FZ_CHECK(s != NULL, "pier_row_to_json: out of memory");
    size_t n = strlen(s);
    FZ_CHECK(fz_json_valid(s, n), "row JSON is no JSON: %s", s);
    json_t *obj = fz_json_parse(s, n, 0);
    FZ_CHECK(json_is_object(obj) &&
             json_object_size(obj) == pier_row_column_count(row),
             "row JSON %s has other members than the row's %zu columns", s,
             pier_row_column_count(row));
    for (size_t i = 0; i < pier_row_column_count(row); i++)
        FZ_CHECK(json_object_get(obj, pier_row_column_name(row, i)) != NULL,
                 "row JSON %s lacks column '%s'", s,
                 pier_row_column_name(row, i));
    json_decref(obj);
    pier_free(s);
}

void fz_check_row_json_valid(const pier_row *row)
{
    char *s = pier_row_to_json(row);
    FZ_CHECK(s != NULL, "pier_row_to_json: out of memory");
    FZ_CHECK(fz_json_valid(s, strlen(s)), "row JSON is no JSON: %s", s);
    pier_free(s);
}
