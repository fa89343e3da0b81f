/*
 * spelling.c: the SQL dialect's type names, parsed into a type
 * description, and written back in their one canonical spelling.
 *
 * A spelling is read case-insensitively, with white space allowed
 * between its tokens ("decimal ( 12 , 2 )", "TEXT []"). The names the
 * dialect does not take (INT, BIGINT, FLOAT, NUMERIC...) are refused with
 * the name to use instead, because the same word means different widths in
 * different databases and a schema should say exactly what it means.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "types/spelling.h"

/* ---- tokens ---- */

typedef struct lexer {
    const char *s;
    size_t n;
    size_t i;
} lexer;

static void skip_space(lexer *lx)
{
    while (lx->i < lx->n && (lx->s[lx->i] == ' ' || lx->s[lx->i] == '\t' ||
                             lx->s[lx->i] == '\n' || lx->s[lx->i] == '\r'))
        lx->i++;
}

static bool is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

/* The next word (letters, digits, '_'), as [*p, *p + *len). */
static bool next_word(lexer *lx, const char **p, size_t *len)
{
    skip_space(lx);
    size_t start = lx->i;
    while (lx->i < lx->n && is_word_char(lx->s[lx->i]))
        lx->i++;
    *p = lx->s + start;
    *len = lx->i - start;
    return *len > 0;
}

static bool eat(lexer *lx, char c)
{
    skip_space(lx);
    if (lx->i < lx->n && lx->s[lx->i] == c) {
        lx->i++;
        return true;
    }
    return false;
}

static bool word_is(const char *p, size_t len, const char *word)
{
    size_t n = strlen(word);
    if (len != n)
        return false;
    for (size_t k = 0; k < n; k++) {
        char c = p[k];
        if (c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        if (c != word[k])
            return false;
    }
    return true;
}

/* A decimal integer of 1 to 10 digits, within [lo, hi]. */
static bool read_int(lexer *lx, int64_t lo, int64_t hi, int64_t *out)
{
    skip_space(lx);
    size_t start = lx->i;
    int64_t v = 0;
    while (lx->i < lx->n && lx->s[lx->i] >= '0' && lx->s[lx->i] <= '9' &&
           lx->i - start < 10)
        v = v * 10 + (lx->s[lx->i++] - '0');
    if (lx->i == start || (lx->i < lx->n && lx->s[lx->i] >= '0' &&
                           lx->s[lx->i] <= '9'))
        return false;
    *out = v;
    return v >= lo && v <= hi;
}

/* ---- the names ---- */

typedef struct name {
    const char *word;
    pier__base base;
} name;

/* The names that stand alone (no parameters), and the two that take them
 * (DECIMAL, VARCHAR) or must (ENUM). */
static const name names[] = {
    { "INT8", PIER__B_INT8 },       { "INT16", PIER__B_INT16 },
    { "INT32", PIER__B_INT32 },     { "INT64", PIER__B_INT64 },
    { "INTEGER", PIER__B_INT64 },   { "UINT8", PIER__B_UINT8 },
    { "UINT16", PIER__B_UINT16 },   { "UINT32", PIER__B_UINT32 },
    { "UINT64", PIER__B_UINT64 },   { "INT128", PIER__B_INT128 },
    { "FLOAT32", PIER__B_FLOAT32 }, { "REAL", PIER__B_DOUBLE },
    { "DOUBLE", PIER__B_DOUBLE },   { "DECIMAL", PIER__B_DECIMAL },
    { "TEXT", PIER__B_TEXT },       { "VARCHAR", PIER__B_VARCHAR },
    { "ENUM", PIER__B_ENUM },       { "BOOLEAN", PIER__B_BOOLEAN },
    { "BOOL", PIER__B_BOOLEAN },    { "BLOB", PIER__B_BLOB },
    { "BYTEA", PIER__B_BLOB },      { "UUID", PIER__B_UUID },
    { "INSTANT", PIER__B_INSTANT }, { "DATE", PIER__B_DATE },
    { "TIME", PIER__B_TIME },       { "DATETIME", PIER__B_DATETIME },
    { "INTERVAL", PIER__B_INTERVAL }, { "JSON", PIER__B_JSON },
    { "ANY", PIER__B_ANY },         { "CHANGESET", PIER__B_CHANGESET },
};

/* Names other databases use, refused with what to say instead. */
typedef struct refusal {
    const char *word;
    const char *instead;
} refusal;

static const refusal refusals[] = {
    { "INT", "INT32 or INT64 (INTEGER is INT64)" },
    { "TINYINT", "INT8" },
    { "SMALLINT", "INT16" },
    { "MEDIUMINT", "INT32" },
    { "BIGINT", "INT64" },
    { "HUGEINT", "INT128" },
    { "FLOAT", "REAL or DOUBLE (FLOAT32 for 32 bits)" },
    { "FLOAT4", "FLOAT32" },
    { "FLOAT8", "DOUBLE" },
    { "NUMERIC", "DECIMAL or DECIMAL(p,s)" },
    { "NUMBER", "DECIMAL or DECIMAL(p,s)" },
    { "CHAR", "VARCHAR(n) or TEXT" },
    { "CHARACTER", "VARCHAR(n) or TEXT" },
    { "NCHAR", "VARCHAR(n) or TEXT" },
    { "NVARCHAR", "VARCHAR(n) or TEXT" },
    { "CLOB", "TEXT" },
    { "STRING", "TEXT" },
    { "BINARY", "BLOB" },
    { "VARBINARY", "BLOB" },
    { "TIMESTAMP", "INSTANT (a point in time) or DATETIME (no zone)" },
    { "TIMESTAMPTZ", "INSTANT" },
    { "JSONB", "JSON" },
    { "SERIAL", "INT64 PRIMARY KEY" },
    { "BIGSERIAL", "INT64 PRIMARY KEY" },
    { "UNSIGNED", "UINT8, UINT16, UINT32 or UINT64" },
};

/* ---- parsing ---- */

static const char *refuse(pier__sqltype_error *e, const char *fmt, ...)
    PIER__PRINTF(2, 3);

/* Fills e->message (when there is an e) and returns it. */
static const char *refuse(pier__sqltype_error *e, const char *fmt, ...)
{
    if (e == NULL)
        return "not a type of the SQL dialect";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    return e->message;
}

/* DECIMAL's "(p)" or "(p,s)"; DECIMAL alone keeps precision 0. */
static const char *decimal_params(lexer *lx, pier__sqltype *t,
                                  pier__sqltype_error *e)
{
    if (!eat(lx, '('))
        return NULL;
    int64_t p = 0, s = 0;
    if (!read_int(lx, 1, PIER__DECIMAL_MAX_DIGITS, &p))
        return refuse(e, "DECIMAL(p,s) takes a precision p from 1 to 38");
    if (eat(lx, ',') && !read_int(lx, 0, p, &s))
        return refuse(e, "DECIMAL(p,s) takes a scale s from 0 to p");
    if (!eat(lx, ')'))
        return refuse(e, "DECIMAL(p,s) is missing its ')'");
    t->precision = (int)p;
    t->scale = (int)s;
    return NULL;
}

static const char *varchar_params(lexer *lx, pier__sqltype *t,
                                  pier__sqltype_error *e)
{
    int64_t n = 0;
    if (!eat(lx, '('))
        return refuse(e, "VARCHAR takes its maximum length, VARCHAR(n) "
                      "(or use TEXT)");
    if (!read_int(lx, 1, PIER__VARCHAR_MAX, &n) || !eat(lx, ')'))
        return refuse(e, "VARCHAR(n) takes a length n from 1 to "
                      "1000000000 characters");
    t->length = n;
    return NULL;
}

/* ENUM('a','b',...): SQL string literals ('' is a quote), at least one,
 * any text (the empty label too), no two alike. The labels go to
 * `labels` NUL-separated. */
static const char *enum_params(lexer *lx, pier__sqltype *t,
                               pier__buf *labels, pier__sqltype_error *e)
{
    static const char form[] =
        "ENUM takes its labels as quoted strings, ENUM('a','b')";
    if (!eat(lx, '('))
        return refuse(e, "%s", form);
    size_t first = labels->len;
    do {
        skip_space(lx);
        if (lx->i >= lx->n || lx->s[lx->i] != '\'')
            return refuse(e, "%s", form);
        lx->i++;
        pier__buf label;
        pier__buf_init(&label);
        for (;;) {
            if (lx->i >= lx->n) {
                pier__buf_free(&label);
                return refuse(e, "an ENUM label is missing its closing "
                              "quote");
            }
            char c = lx->s[lx->i++];
            if (c == '\'') {
                if (lx->i < lx->n && lx->s[lx->i] == '\'') {
                    lx->i++;
                    pier__buf_putc(&label, '\'');
                    continue;
                }
                break;
            }
            if (c == '\0') {
                pier__buf_free(&label);
                return refuse(e, "an ENUM label may not hold a NUL");
            }
            pier__buf_putc(&label, c);
        }
        if (label.oom) {
            pier__buf_free(&label);
            labels->oom = true;        /* the caller tells it apart so */
            return refuse(e, "out of memory");
        }
        const char *text = label.len > 0 ? label.p : "";
        /* any text, the empty label too */
        if (!pier__utf8_valid(text, label.len)) {
            pier__buf_free(&label);
            return refuse(e, "an ENUM label is UTF-8 text");
        }
        {
            /* No two alike: compare with the labels so far. */
            for (size_t at = first; at < labels->len;) {
                size_t len = strlen(labels->p + at);
                if (len == label.len &&
                    memcmp(labels->p + at, text, len) == 0) {
                    char shown[64];
                    snprintf(shown, sizeof shown, "%.60s", text);
                    pier__buf_free(&label);
                    return refuse(e, "ENUM label '%s' is listed twice",
                                  shown);
                }
                at += len + 1;
            }
            pier__buf_append(labels, text, label.len);
            pier__buf_putc(labels, '\0');
        }
        pier__buf_free(&label);
        if (++t->nlabels > PIER__ENUM_MAX_LABELS)
            return refuse(e, "an ENUM has at most 1000 labels");
    } while (eat(lx, ','));
    if (!eat(lx, ')'))
        return refuse(e, "%s", form);
    if (labels->oom)
        return refuse(e, "out of memory");
    return NULL;
}

const char *pier__sqltype_parse(const char *s, size_t n, pier__sqltype *t,
                                pier__buf *labels, pier__sqltype_error *e)
{
    memset(t, 0, sizeof *t);
    lexer lx = { s, n, 0 };
    const char *w;
    size_t wn;
    if (!next_word(&lx, &w, &wn))
        return refuse(e, "a column needs a type (like INT64, TEXT or "
                      "DECIMAL(12,2))");
    char shown[40];
    snprintf(shown, sizeof shown, "%.*s", (int)(wn < 32 ? wn : 32), w);
    /* Two-word names first. */
    size_t mark = lx.i;
    const char *w2;
    size_t wn2;
    if (word_is(w, wn, "DOUBLE") && next_word(&lx, &w2, &wn2) &&
        word_is(w2, wn2, "PRECISION"))
        return refuse(e, "type DOUBLE PRECISION is not supported: use "
                      "DOUBLE");
    if (word_is(w, wn, "CHARACTER") && next_word(&lx, &w2, &wn2) &&
        word_is(w2, wn2, "VARYING"))
        return refuse(e, "type CHARACTER VARYING is not supported: use "
                      "VARCHAR(n) or TEXT");
    lx.i = mark;
    const name *found = NULL;
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (word_is(w, wn, names[k].word))
            found = &names[k];
    if (found == NULL) {
        for (size_t k = 0; k < sizeof refusals / sizeof *refusals; k++)
            if (word_is(w, wn, refusals[k].word))
                return refuse(e, "type %s is not supported: use %s", shown,
                              refusals[k].instead);
        return refuse(e, "unknown type '%s'", shown);
    }
    t->base = found->base;
    const char *why = NULL;
    switch (t->base) {
    case PIER__B_DECIMAL: why = decimal_params(&lx, t, e); break;
    case PIER__B_VARCHAR: why = varchar_params(&lx, t, e); break;
    case PIER__B_ENUM: {
        /* The labels are kept to tell two alike apart, even when the
         * caller does not want them. */
        pier__buf own;
        pier__buf_init(&own);
        why = enum_params(&lx, t, labels != NULL ? labels : &own, e);
        pier__buf_free(&own);
        break;
    }
    default: break;
    }
    if (why != NULL)
        return why;
    while (eat(&lx, '[')) {
        if (!eat(&lx, ']'))
            return refuse(e, "an array type ends in [] (like TEXT[])");
        if (++t->dims > 2)
            return refuse(e, "arrays have at most two dimensions "
                          "(T[][])");
    }
    if (t->dims > 0 && (t->base == PIER__B_ANY || t->base == PIER__B_JSON))
        return refuse(e, "%s has no arrays: a JSON column holds any "
                      "array", t->base == PIER__B_ANY ? "ANY" : "JSON");
    if (t->dims > 0 && t->base == PIER__B_CHANGESET)
        return refuse(e, "CHANGESET has no arrays: one changeset holds "
                      "any number of changes");
    skip_space(&lx);
    if (lx.i != lx.n)
        return refuse(e, "unexpected text after type %s", shown);
    return NULL;
}

/* ---- writing ---- */

static const char *base_word(pier__base b)
{
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (names[k].base == b && strcmp(names[k].word, "INTEGER") != 0 &&
            strcmp(names[k].word, "REAL") != 0 &&
            strcmp(names[k].word, "BOOL") != 0 &&
            strcmp(names[k].word, "BYTEA") != 0)
            return names[k].word;
    return "ANY";
}

void pier__sqltype_write(pier__buf *out, const pier__sqltype *t,
                         const char *labels)
{
    pier__buf_puts(out, base_word(t->base));
    if (t->base == PIER__B_DECIMAL && t->precision > 0)
        pier__buf_printf(out, "(%d,%d)", t->precision, t->scale);
    if (t->base == PIER__B_VARCHAR)
        pier__buf_printf(out, "(%lld)", (long long)t->length);
    if (t->base == PIER__B_ENUM) {
        pier__buf_putc(out, '(');
        const char *p = labels;
        for (size_t k = 0; k < t->nlabels; k++) {
            if (k > 0)
                pier__buf_putc(out, ',');
            pier__buf_putc(out, '\'');
            for (; *p != '\0'; p++) {
                if (*p == '\'')
                    pier__buf_putc(out, '\'');
                pier__buf_putc(out, *p);
            }
            p++;
            pier__buf_putc(out, '\'');
        }
        pier__buf_putc(out, ')');
    }
    for (int d = 0; d < t->dims; d++)
        pier__buf_puts(out, "[]");
}
