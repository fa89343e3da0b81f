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
#include <stdlib.h>
#include <string.h>

#include "sql/lex.h"
#include "sql/sql.h"

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

/* The types SQLite's CAST gets wrong (it maps an unknown name to an
 * affinity), which _pcs casts to as the dialect's columns hold them. */
static bool cast_type(const char *s, size_t n)
{
    static const char *const names[] = {
        "decimal", "uint8", "uint16", "uint32", "uint64", "int8", "int16",
        "int32", "int128", "uuid", "instant", "timestamp", "date", "time",
        "datetime", "interval", "enum", "varchar", "boolean", "bool",
        "json", "float32", "bytea", NULL,
    };
    for (size_t i = 0; names[i] != NULL; i++)
        if (pier__name_eq(s, n, names[i], strlen(names[i])))
            return true;
    return false;
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
    /* the last AS at the cast's own depth, and its ')' */
    pier__token u, as = { 0 }, type = { 0 };
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
                 next(sql, n, u.end, &type) == PIER__TK_WORD) {
            as = u;
            have_as = true;
        }
    }
    const pier__token rp = u;
    if (!have_as || !cast_type(sql + type.start, type.end - type.start))
        return false;
    size_t from = type.start, to = rp.start;
    while (to > from && (sql[to - 1] == ' ' || sql[to - 1] == '\t' ||
                         sql[to - 1] == '\n' || sql[to - 1] == '\r'))
        to--;
    bool quoted = memchr(sql + from, '\'', to - from) != NULL ||
                  memchr(sql + from, '-', to - from) != NULL ||
                  memchr(sql + from, '/', to - from) != NULL;
    if (quoted) {                  /* ENUM('a'), or a comment: as ENUM */
        from = type.start;
        to = type.end;
    }
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
