/*
 * literals.c: numeric literals SQLite would read inexactly, read as their
 * text instead (docs/sql.md, "Numbers written in SQL").
 *
 * SQLite reads an integer literal beyond 64 bits, or a number with more
 * significant digits than a double holds (15 always round-trip), as a
 * REAL: 18446744073709551615 becomes 1.84467440737096e+19 before any
 * column sees it. Written as a string literal instead, it reaches a
 * UINT64, INT128 or DECIMAL column (and their comparisons, which order by
 * value) exactly, and arithmetic converts it as SQLite converts any text.
 * Pure: text in, text out.
 */
#include <string.h>

#include "sql/lex.h"
#include "sql/sql.h"

/* The most significant digits a double keeps for every decimal. */
#define EXACT_DIGITS 15

/* Whether the number token s[0..n) would be read inexactly. */
static bool inexact(const char *s, size_t n, bool negated)
{
    if (n > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return false;                  /* hex: SQLite's own rules */
    size_t digits = 0, i = 0;
    bool point = false, started = false;
    for (; i < n; i++) {
        char c = s[i];
        if (c == '.') {
            point = true;
            continue;
        }
        if (c == 'e' || c == 'E')
            break;
        if (c < '0' || c > '9')
            return false;              /* not a plain number */
        if (c != '0' || started) {
            started = true;
            digits++;
        }
    }
    bool exponent = i < n;
    if (!point && !exponent) {
        /* an integer: beyond 64 bits? (-9223372036854775808 is one) */
        size_t lead = 0;
        while (lead + 1 < n && s[lead] == '0')
            lead++;
        size_t len = n - lead;
        const char *max = negated ? "9223372036854775808"
                                  : "9223372036854775807";
        return len > 19 || (len == 19 && memcmp(s + lead, max, 19) > 0);
    }
    /* trailing zeros after the point add no digit a double must keep */
    if (point) {
        size_t end = exponent ? i : n;
        while (end > 0 && s[end - 1] == '0' && digits > 0) {
            end--;
            digits--;
        }
    }
    return digits > EXACT_DIGITS;
}

bool pier__sql_inexact_number(const char *s, size_t n)
{
    bool negated = n > 0 && s[0] == '-';
    if (n > 0 && (s[0] == '-' || s[0] == '+')) {
        s++;
        n--;
    }
    if (n == 0 || s[0] < '0' || s[0] > '9')
        return false;               /* (".5", "e5": not as SQL writes) */
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == 'e' ||
              s[i] == 'E' || ((s[i] == '-' || s[i] == '+') && i > 0 &&
                              (s[i - 1] == 'e' || s[i - 1] == 'E'))))
            return false;
    return inexact(s, n, negated);
}

/* Whether a '-' after token `before` (of kind k) is a sign, not a
 * subtraction: after nothing, '(', ',', an operator, or a keyword that an
 * operand follows. */
static bool sign_after(const char *sql, const pier__token *before,
                       pier__tk k)
{
    static const char *const words[] = {
        "select", "where", "and", "or", "not", "when", "then", "else",
        "values", "set", "by", "between", "in", "is", "like", "limit",
        "offset", "having", "on", "case", "distinct", "all", "returning",
        NULL,
    };
    if (before == NULL || k == PIER__TK_LP || k == PIER__TK_COMMA ||
        k == PIER__TK_OP)
        return true;
    if (k != PIER__TK_WORD)
        return false;
    for (size_t i = 0; words[i] != NULL; i++)
        if (pier__name_eq(sql + before->start, before->end - before->start,
                          words[i], strlen(words[i])))
            return true;
    return false;
}

/* Whether the text holds 16 digits in a row (a point among them): no
 * number with fewer is read inexactly, and most statements hold none, so
 * they are not tokenized for it. */
static bool long_number(const char *sql, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        char c = sql[i];
        if (c >= '0' && c <= '9') {
            if (++run > EXACT_DIGITS)
                return true;
        } else if (c != '.') {
            run = 0;
        }
    }
    return false;
}

bool pier__sql_exact_literals(pier__buf *out, const char *sql, size_t n)
{
    if (!long_number(sql, n))
        return false;
    size_t pos = 0, copied = 0;
    bool any = false;
    const char *why;
    /* the two tokens before this one */
    pier__token prev = { 0 }, prev2 = { 0 };
    pier__tk kprev = PIER__TK_END, kprev2 = PIER__TK_END;
    for (;;) {
        pier__token t;
        pier__tk k = pier__sql_token(sql, n, pos, &t, &why);
        if (k == PIER__TK_END || k == PIER__TK_BAD)
            break;
        pos = t.end;
        bool sign = kprev == PIER__TK_OP && prev.end - prev.start == 1 &&
                    sql[prev.start] == '-' &&
                    sign_after(sql, kprev2 == PIER__TK_END ? NULL : &prev2,
                               kprev2) &&
                    prev.start >= copied;
        if (k == PIER__TK_NUMBER &&
            inexact(sql + t.start, t.end - t.start, sign)) {
            size_t from = sign ? prev.start : t.start;
            pier__buf_append(out, sql + copied, from - copied);
            pier__buf_puts(out, sign ? "'-" : "'");
            pier__buf_append(out, sql + t.start, t.end - t.start);
            pier__buf_putc(out, '\'');
            copied = t.end;
            any = true;
        }
        prev2 = prev;
        kprev2 = kprev;
        prev = t;
        kprev = k;
    }
    if (any)
        pier__buf_append(out, sql + copied, n - copied);
    return any;
}
