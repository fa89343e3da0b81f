/*
 * edit.c: edits of a declared table's SQL (its CREATE TABLE text, as
 * sqlite_schema keeps it) that change what a column accepts without
 * touching a stored row. Pure: text in, text out.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "migrate/edit.h"
#include "sql/lex.h"

/* The next token after `pos` (space and comments skipped). */
static pier__tk next(const char *s, size_t n, size_t pos, pier__token *t)
{
    const char *why;
    return pier__sql_token(s, n, pos, t, &why);
}

pier_status pier__fit_retype(pier__buf *out, const char *sql,
                             int64_t column_id, const char *spelling)
{
    size_t n = strlen(sql), pos = 0;
    for (;;) {
        pier__token t;
        pier__tk k = next(sql, n, pos, &t);
        if (k == PIER__TK_END || k == PIER__TK_BAD)
            return PIER_E_INVALID_ARGUMENT;
        pos = t.end;
        if (k != PIER__TK_WORD ||
            !pier__name_eq(sql + t.start, t.end - t.start, "_pier_fit", 9))
            continue;
        /* _pier_fit ( value , 'TYPE' , id ) */
        pier__token lp, v, c1, type, c2, id, rp;
        if (next(sql, n, t.end, &lp) != PIER__TK_LP)
            continue;
        size_t at = lp.end;
        if (next(sql, n, at, &v) == PIER__TK_END)
            return PIER_E_INVALID_ARGUMENT;
        if (next(sql, n, v.end, &c1) != PIER__TK_COMMA ||
            next(sql, n, c1.end, &type) != PIER__TK_STRING ||
            next(sql, n, type.end, &c2) != PIER__TK_COMMA ||
            next(sql, n, c2.end, &id) != PIER__TK_NUMBER ||
            next(sql, n, id.end, &rp) != PIER__TK_RP)
            continue;
        char digits[24];
        size_t dn = id.end - id.start;
        if (dn >= sizeof digits)
            continue;
        memcpy(digits, sql + id.start, dn);
        digits[dn] = '\0';
        char *end;
        long long got = strtoll(digits, &end, 10);
        if (*end != '\0' || got != column_id)
            continue;
        pier__buf_append(out, sql, type.start);
        pier__sql_quote_string(out, spelling, strlen(spelling));
        pier__buf_puts(out, sql + type.end);
        return out->oom ? PIER_E_OUT_OF_MEMORY : PIER_OK;
    }
}

/* ---- a column's constraints ---- */

/* Whether a bare word opening a part of a table's body opens a table
 * constraint (a column of such a name is quoted). */
static bool is_constraint_word(const char *p, size_t len)
{
    static const char *const words[] = { "constraint", "primary", "unique",
                                         "check", "foreign" };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (pier__name_eq(p, len, words[i], strlen(words[i])))
            return true;
    return false;
}

/* The byte range [*from, *to) of column `name`'s definition in the
 * CREATE TABLE text `sql` (from its name to before its ',' or ')'). */
static bool column_span(const char *sql, const char *name, size_t *from,
                        size_t *to)
{
    size_t n = strlen(sql), pos = 0, depth = 0;
    bool in_body = false, first = true;
    for (;;) {
        pier__token t;
        pier__tk k = next(sql, n, pos, &t);
        if (k == PIER__TK_END || k == PIER__TK_BAD)
            return false;
        pos = t.end;
        if (k == PIER__TK_LP) {
            if (depth++ == 0) {
                in_body = true;
                first = true;
            }
            continue;
        }
        if (!in_body)
            continue;
        if (k == PIER__TK_RP && --depth == 0) {
            /* the last segment */
            return false;
        }
        if (depth != 1)
            continue;
        if (first) {
            first = false;
            /* the segment's first token: a column's name? */
            char x[256];
            size_t len = t.end - t.start;
            const char *p = sql + t.start;
            size_t o = 0;
            if (k == PIER__TK_QUOTED && len >= 2 && len - 2 < sizeof x) {
                for (size_t i = 1; i + 1 < len; i++) {
                    x[o++] = p[i];
                    if (p[0] != '[' && p[i] == p[0])
                        i++;
                }
            } else if (k == PIER__TK_WORD && len < sizeof x &&
                       !is_constraint_word(p, len)) {
                memcpy(x, p, len);
                o = len;
            }
            x[o] = '\0';
            if (o > 0 && pier__name_eq(x, o, name, strlen(name))) {
                *from = t.start;
                /* to the ',' or ')' at depth 1 */
                size_t d = 1, at = t.end;
                for (;;) {
                    pier__token u;
                    pier__tk uk = next(sql, n, at, &u);
                    if (uk == PIER__TK_END || uk == PIER__TK_BAD)
                        return false;
                    if (uk == PIER__TK_LP)
                        d++;
                    else if (uk == PIER__TK_RP && --d == 0) {
                        *to = u.start;
                        return true;
                    } else if (uk == PIER__TK_COMMA && d == 1) {
                        *to = u.start;
                        return true;
                    }
                    at = u.end;
                }
            }
        }
        if (k == PIER__TK_COMMA)
            first = true;
    }
}

/* Whether token t of `s` is the word w. */
static bool is_word(const char *s, const pier__token *t, pier__tk k,
                    const char *w)
{
    return k == PIER__TK_WORD &&
           pier__name_eq(s + t->start, t->end - t->start, w, strlen(w));
}

pier_status pier__column_edit(pier__buf *out, const char *sql,
                              const char *column, int not_null,
                              const char *dflt, bool drop_default)
{
    size_t from, to;
    if (!column_span(sql, column, &from, &to))
        return PIER_E_INVALID_ARGUMENT;
    /* The definition less the clauses being replaced: NOT NULL when
     * nullability changes, DEFAULT and its value when the default does. */
    pier__buf def;
    pier__buf_init(&def);
    size_t pos = from, kept = from;
    while (pos < to) {
        pier__token t, u;
        pier__tk k = next(sql, to, pos, &t);
        if (k == PIER__TK_END || k == PIER__TK_BAD)
            break;
        size_t cut_end = 0;
        if (not_null >= 0 && is_word(sql, &t, k, "not")) {
            pier__tk k2 = next(sql, to, t.end, &u);
            if (is_word(sql, &u, k2, "null"))
                cut_end = u.end;
        } else if ((dflt != NULL || drop_default) &&
                   is_word(sql, &t, k, "default")) {
            pier__tk k2 = next(sql, to, t.end, &u);
            cut_end = u.end;
            if (k2 == PIER__TK_OP) {                 /* -1, +1 */
                pier__token v;
                if (next(sql, to, u.end, &v) == PIER__TK_NUMBER)
                    cut_end = v.end;
            } else if (k2 == PIER__TK_LP) {          /* (expr) */
                size_t d = 1, at = u.end;
                pier__token v;
                while (d > 0) {
                    pier__tk vk = next(sql, to, at, &v);
                    if (vk == PIER__TK_END || vk == PIER__TK_BAD)
                        break;
                    d += vk == PIER__TK_LP;
                    d -= vk == PIER__TK_RP;
                    at = v.end;
                }
                cut_end = at;
            }
        }
        if (cut_end > 0) {
            /* drop the clause and the space before it */
            size_t start = t.start;
            while (start > kept && (sql[start - 1] == ' ' ||
                                    sql[start - 1] == '\t' ||
                                    sql[start - 1] == '\n'))
                start--;
            pier__buf_append(&def, sql + kept, start - kept);
            kept = pos = cut_end;
            continue;
        }
        pos = t.end;
    }
    pier__buf_append(&def, sql + kept, to - kept);
    /* trailing space before the ',' or ')' stays after the clauses */
    size_t body = def.len;
    while (body > 0 && (def.p[body - 1] == ' ' || def.p[body - 1] == '\t' ||
                        def.p[body - 1] == '\n'))
        body--;
    pier__buf_append(out, sql, from);
    pier__buf_append(out, def.p, body);
    if (not_null == 1)
        pier__buf_puts(out, " NOT NULL");
    if (dflt != NULL)
        pier__buf_printf(out, " DEFAULT %s", dflt);
    pier__buf_append(out, def.p + body, def.len - body);
    pier__buf_puts(out, sql + to);
    bool oom = def.oom || out->oom;
    pier__buf_free(&def);
    return oom ? PIER_E_OUT_OF_MEMORY : PIER_OK;
}

pier_status pier__autoincrement_edit(pier__buf *out, const char *sql,
                                     const char *column, bool on)
{
    size_t from, to;
    if (!column_span(sql, column, &from, &to))
        return PIER_E_INVALID_ARGUMENT;
    /* PRIMARY KEY [ASC|DESC] [AUTOINCREMENT] in the column's definition */
    size_t pos = from, after_key = 0, auto_from = 0, auto_to = 0;
    pier__token t, u;
    pier__tk k;
    while (pos < to && (k = next(sql, to, pos, &t)) != PIER__TK_END &&
           k != PIER__TK_BAD) {
        pos = t.end;
        if (!is_word(sql, &t, k, "primary") ||
            !is_word(sql, &u, next(sql, to, t.end, &u), "key"))
            continue;
        after_key = u.end;
        k = next(sql, to, u.end, &t);
        if (is_word(sql, &t, k, "asc") || is_word(sql, &t, k, "desc")) {
            after_key = t.end;
            k = next(sql, to, t.end, &t);
        }
        if (is_word(sql, &t, k, "autoincrement")) {
            auto_from = after_key;
            auto_to = t.end;
        }
        break;
    }
    if (after_key == 0)
        return PIER_E_INVALID_ARGUMENT;
    if (on && auto_to == 0) {
        pier__buf_append(out, sql, after_key);
        pier__buf_puts(out, " AUTOINCREMENT");
        pier__buf_puts(out, sql + after_key);
    } else if (!on && auto_to != 0) {
        pier__buf_append(out, sql, auto_from);
        pier__buf_puts(out, sql + auto_to);
    } else {
        pier__buf_puts(out, sql);
    }
    return out->oom ? PIER_E_OUT_OF_MEMORY : PIER_OK;
}
