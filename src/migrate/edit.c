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
