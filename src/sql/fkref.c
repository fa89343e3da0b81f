/*
 * fkref.c: a column's foreign key as its table's SQL states it, read from
 * the column's constraints (REFERENCES) or the table's (FOREIGN KEY), for
 * the triggers that name a foreign key in its errors (exec.c) and for the
 * error itself. Pure: text in, fields out.
 */
#include <stdio.h>
#include <string.h>

#include "sql/lex.h"
#include "sql/sql.h"

typedef struct scan {
    const char *sql;
    size_t n;
    pier__token t[512];        /* the tokens at depth 0 and 1 */
    size_t depth[512];
    size_t count;
} scan;

static void tokenize(scan *s, const char *sql)
{
    s->sql = sql;
    s->n = strlen(sql);
    s->count = 0;
    size_t pos = 0, depth = 0;
    const char *why;
    while (s->count < sizeof s->t / sizeof s->t[0]) {
        pier__token tok;
        pier__tk k = pier__sql_token(sql, s->n, pos, &tok, &why);
        if (k == PIER__TK_END || k == PIER__TK_BAD)
            break;
        tok.kind = k;
        if (k == PIER__TK_RP && depth > 0)
            depth--;
        s->depth[s->count] = depth;
        s->t[s->count++] = tok;
        if (k == PIER__TK_LP)
            depth++;
        pos = tok.end;
    }
}

static bool word_is(const scan *s, size_t i, size_t depth, const char *w)
{
    return i < s->count && s->t[i].kind == PIER__TK_WORD &&
           s->depth[i] == depth &&
           pier__name_eq(s->sql + s->t[i].start, s->t[i].end - s->t[i].start,
                         w, strlen(w));
}

static bool kind_is(const scan *s, size_t i, pier__tk k)
{
    return i < s->count && s->t[i].kind == k;
}

/* Token i as a name (a word, or quoted with its quotes undone) into out;
 * false if it is neither. */
static bool name_of(const scan *s, size_t i, char *out, size_t cap)
{
    if (i >= s->count || cap == 0)
        return false;
    const pier__token *t = &s->t[i];
    const char *p = s->sql + t->start;
    size_t len = t->end - t->start, o = 0;
    if (t->kind == PIER__TK_WORD) {
        snprintf(out, cap, "%.*s", (int)len, p);
        return true;
    }
    if (t->kind != PIER__TK_QUOTED && t->kind != PIER__TK_STRING)
        return false;
    char close = p[0] == '[' ? ']' : p[0];
    for (size_t k = 1; k + 1 < len && o + 1 < cap; k++) {
        out[o++] = p[k];
        if (p[k] == close && k + 2 < len && p[k + 1] == close)
            k++;
    }
    out[o] = '\0';
    return true;
}

/* REFERENCES at token i (at `depth`): the parent, its column and ON
 * DELETE, up to the end of the constraint. */
static void references(const scan *s, size_t i, size_t depth,
                       pier__sql_fkref *out)
{
    name_of(s, i + 1, out->parent, sizeof out->parent);
    size_t k = i + 2;
    if (kind_is(s, k, PIER__TK_LP) && kind_is(s, k + 2, PIER__TK_RP)) {
        name_of(s, k + 1, out->parent_column, sizeof out->parent_column);
        k += 3;
    }
    out->restrict_delete = true;
    for (; k < s->count && !kind_is(s, k, PIER__TK_COMMA); k++) {
        if (word_is(s, k, depth, "constraint") ||
            word_is(s, k, depth, "references"))
            break;
        if (word_is(s, k, depth, "on") && word_is(s, k + 1, depth, "delete"))
            out->restrict_delete = word_is(s, k + 2, depth, "restrict") ||
                                   word_is(s, k + 2, depth, "no");
    }
}

bool pier__sql_fk_of(const char *table, const char *column,
                     const char *column_constraints,
                     const char *table_constraints, pier__sql_fkref *out)
{
    memset(out, 0, sizeof *out);
    scan storage;
    scan *sc = &storage;
    tokenize(sc, column_constraints);
    bool found = false;
    for (size_t i = 0; !found && i < sc->count; i++) {
        if (!word_is(sc, i, 0, "references"))
            continue;
        found = true;
        if (i >= 2 && word_is(sc, i - 2, 0, "constraint"))
            name_of(sc, i - 1, out->name, sizeof out->name);
        references(sc, i, 0, out);
    }
    if (!found) {
        /* [CONSTRAINT name] FOREIGN KEY (column) REFERENCES ... */
        tokenize(sc, table_constraints);
        for (size_t i = 0; !found && i < sc->count; i++) {
            char col[128];
            if (!word_is(sc, i, 0, "foreign") ||
                !word_is(sc, i + 1, 0, "key") ||
                !kind_is(sc, i + 2, PIER__TK_LP) ||
                !kind_is(sc, i + 4, PIER__TK_RP) ||
                !name_of(sc, i + 3, col, sizeof col) ||
                !pier__name_eq(col, strlen(col), column, strlen(column)) ||
                !word_is(sc, i + 5, 0, "references"))
                continue;
            found = true;
            if (i >= 2 && word_is(sc, i - 2, 0, "constraint"))
                name_of(sc, i - 1, out->name, sizeof out->name);
            references(sc, i + 5, 0, out);
        }
    }
    if (found && out->name[0] == '\0')
        snprintf(out->name, sizeof out->name, "%s_%s_fkey", table, column);
    return found && out->parent[0] != '\0';
}
