/*
 * rewrite.c: the dialect's syntax that SQLite's grammar lacks, written as
 * SQL it has (sql.h, pier__sql_rewrite): today EXTRACT(field FROM x),
 * which becomes date_part('field', x), a function of Pier's connections.
 *
 * A rewrite never changes the text's length: the replacement is never
 * longer than what it replaces (date_part('f', is 13 bytes and the field,
 * extract(f FROM at least as many, since f and FROM need a space or a
 * quote between them), and spaces make up the rest. So every byte offset
 * into the script, a statement's or an error's, is the same in both texts,
 * and a message pointing into the rewritten one points at what the user
 * wrote.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/lex.h"
#include "sql/sql.h"
#include "types/spelling.h"

/* The next token at or after pos, END or BAD ending the text. */
static pier__tk next(const char *sql, size_t n, size_t pos, pier__token *t)
{
    const char *why;
    return pier__sql_token(sql, n, pos, t, &why);
}

/* Whether the field token t (a name, 'string' or "quoted" name) is one a
 * string literal can hold as it is: no quote of any kind in it. */
static bool plain_field(const char *sql, const pier__token *t, size_t *from,
                        size_t *to)
{
    *from = t->start;
    *to = t->end;
    if (t->kind != PIER__TK_WORD) {
        (*from)++;
        (*to)--;
    }
    for (size_t i = *from; i < *to; i++)
        if (sql[i] == '\'' || sql[i] == '"' || sql[i] == '`' ||
            sql[i] == '[' || sql[i] == ']')
            return false;
    return *to > *from;
}

/* Where a CAST's type is read. */
enum cast_way {
    CAST_SQLITE,     /* SQLite's own: INTEGER, INT64, REAL, DOUBLE, TEXT,
                        BLOB */
    CAST_DIALECT,    /* a type of the dialect: written as _pcs(x,'T') */
    CAST_REFUSED     /* a name CREATE TABLE refuses */
};

/* How CAST(x AS T) reads `T` (s, n: the type's text; `word`, `wn`: its
 * first word). SQLite's CAST maps a name it does not know to an affinity
 * (DECIMAL became a float, a UUID or TIME 0 or a number, INT64[] 0), so
 * every spelling CREATE TABLE takes casts as that type's columns hold it,
 * but for SQLite's own names, whose casts are SQLite's; a name CREATE
 * TABLE refuses is refused (e->message says what to write). */
static enum cast_way cast_way(const char *s, size_t n, const char *word,
                              size_t wn, pier__sqltype_error *e)
{
    if (pier__name_eq(word, wn, "enum", 4) ||
        pier__name_eq(word, wn, "bytea", 5))
        return CAST_DIALECT;
    pier__sqltype t;
    if (pier__sqltype_parse(s, n, &t, NULL, e) != NULL)
        return CAST_REFUSED;
    if (t.dims == 0 && (t.base == PIER__B_INT64 || t.base == PIER__B_DOUBLE ||
                        t.base == PIER__B_TEXT || t.base == PIER__B_BLOB))
        return CAST_SQLITE;
    return CAST_DIALECT;
}

/* A CAST(x AS T) at its '(' lp: the last AS at the cast's own depth, the
 * type's first word, the ')' and the type's text [*from, *to) (its first
 * word alone when the text holds a quote or a comment: ENUM('a')).
 * False when there is none. */
static bool find_cast(const char *sql, size_t n, const pier__token *lp,
                      pier__token *as, pier__token *type, pier__token *rp,
                      size_t *from, size_t *to, bool *quoted)
{
    pier__token u;
    size_t depth = 1, pos = lp->end;
    bool have_as = false;
    for (;;) {
        pier__tk k = next(sql, n, pos, &u);
        if (k == PIER__TK_END || k == PIER__TK_BAD)
            return false;
        pos = u.end;
        if (k == PIER__TK_LP)
            depth++;
        else if (k == PIER__TK_RP && --depth == 0)
            break;
        else if (depth == 1 && k == PIER__TK_WORD &&
                 pier__name_eq(sql + u.start, u.end - u.start, "as", 2) &&
                 next(sql, n, u.end, type) == PIER__TK_WORD) {
            *as = u;
            have_as = true;
        }
    }
    *rp = u;
    if (!have_as)
        return false;
    *from = type->start;
    *to = rp->start;
    while (*to > *from && (sql[*to - 1] == ' ' || sql[*to - 1] == '\t' ||
                           sql[*to - 1] == '\n' || sql[*to - 1] == '\r'))
        (*to)--;
    *quoted = memchr(sql + *from, '\'', *to - *from) != NULL ||
              memchr(sql + *from, '-', *to - *from) != NULL ||
              memchr(sql + *from, '/', *to - *from) != NULL;
    if (*quoted)
        *to = type->end;
    return true;
}

/*
 * CAST(x AS T) at token t (CAST), lp its '(': written as _pcs(x,'T') when
 * T is a type of the dialect (or an array of one) in the same bytes:
 * "CAST(" and "_pcs(" are as long, and "AS T)" as ",'T')" (the spaces the
 * first has more go before the comma). T holding a quote (an ENUM's
 * labels) becomes 'ENUM', which _pcs refuses. *end: where scanning goes
 * on.
 */
static bool rewrite_cast(const char *sql, size_t n, const pier__token *t,
                         const pier__token *lp, char **out, bool *oom,
                         size_t *end)
{
    pier__token as, type, rp;
    size_t from, to;
    bool quoted;
    if (!find_cast(sql, n, lp, &as, &type, &rp, &from, &to, &quoted))
        return false;
    pier__sqltype_error why;
    if (cast_way(sql + from, to - from, sql + type.start,
                 type.end - type.start, &why) != CAST_DIALECT)
        return false;
    if (*out == NULL) {
        *out = malloc(n + 1);
        if (*out == NULL) {
            *oom = true;
            return false;
        }
        memcpy(*out, sql, n);
        (*out)[n] = '\0';
    }
    char *p = *out + t->start;
    memcpy(p, "_pcs(", 5);
    memset(p + 5, ' ', lp->end - t->start - 5);
    /* the spaces before the comma, so that the ')' stays where it was
     * (a statement or an operand ending with the cast ends there) */
    p = *out + rp.end - (to - from) - 4;
    memset(*out + as.start, ' ', (size_t)(p - (*out + as.start)));
    *p++ = ',';
    *p++ = '\'';
    memcpy(p, sql + from, to - from);
    p += to - from;
    *p++ = '\'';
    *p = ')';
    *end = rp.end;
    return true;
}

bool pier__sql_cast_refused(const char *sql, size_t n, size_t *at,
                            char *why, size_t why_size)
{
    pier__token t, lp;
    bool after_dot = false;
    for (size_t pos = 0; next(sql, n, pos, &t) != PIER__TK_END &&
                         t.kind != PIER__TK_BAD;
         pos = t.end) {
        bool cast = !after_dot && t.kind == PIER__TK_WORD &&
                    pier__name_eq(sql + t.start, t.end - t.start, "cast",
                                  4) &&
                    next(sql, n, t.end, &lp) == PIER__TK_LP;
        after_dot = t.kind == PIER__TK_DOT;
        pier__token as, type, rp;
        size_t from, to;
        bool quoted;
        pier__sqltype_error e;
        if (cast && find_cast(sql, n, &lp, &as, &type, &rp, &from, &to,
                              &quoted) &&
            cast_way(sql + from, to - from, sql + type.start,
                     type.end - type.start, &e) == CAST_REFUSED) {
            *at = type.start;
            snprintf(why, why_size, "CAST to %.*s: %s", (int)(to - from),
                     sql + from, e.message);
            return true;
        }
    }
    return false;
}

char *pier__sql_rewrite(const char *sql, size_t n, bool *oom)
{
    *oom = false;
    char *out = NULL;
    pier__token t, lp, field, from;
    bool after_dot = false;
    for (size_t pos = 0; next(sql, n, pos, &t) != PIER__TK_END &&
                         t.kind != PIER__TK_BAD;
         pos = t.end) {
        bool dot = t.kind == PIER__TK_DOT;
        if (!after_dot && t.kind == PIER__TK_WORD &&
            pier__name_eq(sql + t.start, t.end - t.start, "cast", 4) &&
            next(sql, n, t.end, &lp) == PIER__TK_LP) {
            size_t end = 0;
            /* the x of CAST(x AS T) is rewritten in its turn */
            if (rewrite_cast(sql, n, &t, &lp, &out, oom, &end))
                t.end = lp.end;
            if (*oom)
                return NULL;
            after_dot = false;
            continue;
        }
        bool here = !after_dot && t.kind == PIER__TK_WORD &&
                    pier__name_eq(sql + t.start, t.end - t.start, "extract",
                                  7);
        after_dot = dot;
        if (!here || next(sql, n, t.end, &lp) != PIER__TK_LP)
            continue;
        pier__tk fk = next(sql, n, lp.end, &field);
        size_t f0, f1;
        if ((fk != PIER__TK_WORD && fk != PIER__TK_STRING &&
             fk != PIER__TK_QUOTED) ||
            !plain_field(sql, &field, &f0, &f1) ||
            next(sql, n, field.end, &from) != PIER__TK_WORD ||
            !pier__name_eq(sql + from.start, from.end - from.start, "from",
                           4))
            continue;
        if (out == NULL) {
            out = malloc(n + 1);
            if (out == NULL) {
                *oom = true;
                return NULL;
            }
            memcpy(out, sql, n);
            out[n] = '\0';
        }
        /* date_part('field', then spaces up to the end of FROM */
        char *p = out + t.start;
        memcpy(p, "date_part('", 11);
        p += 11;
        for (size_t i = f0; i < f1; i++) {
            char c = sql[i];
            *p++ = c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
        }
        *p++ = '\'';
        *p++ = ',';
        memset(p, ' ', (size_t)(out + from.end - p));
        t = from;
        after_dot = false;
    }
    return out;
}
