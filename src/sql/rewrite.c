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
