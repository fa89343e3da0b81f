/*
 * lex.c: SQLite's tokenizer rules (tokenize.c), over a script of known
 * length that SQLite would read as a NUL-terminated string.
 *
 * Invariants: a token is never empty; every index read is checked against
 * `n` (byte() reads 0 past the end, as SQLite reads its terminating NUL);
 * a NUL byte inside the script is a fault, since SQLite would stop there
 * and silently ignore the rest.
 */
#include "sql/lex.h"

/* The byte at i, or 0 past the end. */
static unsigned char byte(const char *s, size_t n, size_t i)
{
    return i < n ? (unsigned char)s[i] : 0;
}

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static bool is_xdigit(unsigned char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* What SQLite's IdChar() takes: letters, digits, '_', '$' and every byte
 * of a UTF-8 sequence. */
static bool id_char(unsigned char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           c == '_' || c == '$' || c >= 0x80;
}

/* White space between tokens: SQLite's aiClass takes these (not \v). */
static bool space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

/* White space, a UTF-8 byte order mark and comments from i on. */
static size_t skip_space(const char *s, size_t n, size_t i)
{
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (space(c)) {
            i++;
        } else if (c == 0xEF && byte(s, n, i + 1) == 0xBB &&
                   byte(s, n, i + 2) == 0xBF) {
            i += 3;
        } else if (c == '-' && byte(s, n, i + 1) == '-') {
            /* A NUL ends the comment too: it is then read as a fault. */
            for (i += 2; i < n && s[i] != '\n' && s[i] != '\0'; i++)
                ;
        } else if (c == '/' && byte(s, n, i + 1) == '*' && i + 2 < n) {
            /* As in SQLite, "/ *" as the very last bytes is a '/' and a
             * '*', and "/ * /" does not close itself. */
            size_t k = i + 2;
            while (k < n && s[k] != '\0' &&
                   !(s[k] == '*' && byte(s, n, k + 1) == '/'))
                k++;
            i = k < n && s[k] == '*' ? k + 2 : k;
        } else {
            break;
        }
    }
    return i;
}

/* A quoted token at i whose quote is `q` ('\'', '"', '`' or '['); a
 * doubled quote escapes it, except in [...]. Returns its end, or 0 if it
 * is not closed; *nul is where a NUL stopped it (else n). */
static size_t quoted(const char *s, size_t n, size_t i, size_t *nul)
{
    char q = s[i];
    char close = q == '[' ? ']' : q;
    *nul = n;
    for (size_t k = i + 1; k < n; k++) {
        if (s[k] == '\0') {
            *nul = k;
            return 0;
        }
        if (s[k] != close)
            continue;
        if (q != '[' && byte(s, n, k + 1) == (unsigned char)close) {
            k++;
            continue;
        }
        return k + 1;
    }
    return 0;
}

/* A number at i (a digit, or '.' before one). What SQLite reads as one
 * token, though it may refuse it: letters running on are part of it. */
static size_t number(const char *s, size_t n, size_t i)
{
    size_t k = i;
    if (s[i] == '0' && (byte(s, n, i + 1) | 32) == 'x' &&
        is_xdigit(byte(s, n, i + 2))) {
        for (k = i + 3; is_xdigit(byte(s, n, k)) ||
                        (byte(s, n, k) == '_' &&
                         is_xdigit(byte(s, n, k + 1))); k++)
            ;
    } else {
        /* '_' separates digits (SQLite 3.46). */
        while (is_digit(byte(s, n, k)) ||
               (byte(s, n, k) == '_' && is_digit(byte(s, n, k + 1))))
            k++;
        if (byte(s, n, k) == '.')
            for (k++; is_digit(byte(s, n, k)) ||
                      (byte(s, n, k) == '_' && is_digit(byte(s, n, k + 1)));
                 k++)
                ;
        unsigned char e = byte(s, n, k + 1);
        if ((byte(s, n, k) | 32) == 'e' &&
            (is_digit(e) ||
             ((e == '+' || e == '-') && is_digit(byte(s, n, k + 2))))) {
            for (k += 2; is_digit(byte(s, n, k)); k++)
                ;
        }
    }
    while (id_char(byte(s, n, k)))
        k++;
    return k;
}

/* A parameter at i: '?' and digits, or a prefix ($ @ : #) and a name. A
 * name may go on with "::" and end in "(...)" (Tcl's variables, which
 * SQLite reads unless built without them): "$a::b(x;y)" is one token. */
static size_t parameter(const char *s, size_t n, size_t i)
{
    size_t k = i + 1;
    if (s[i] == '?') {
        while (is_digit(byte(s, n, k)))
            k++;
        return k;
    }
    size_t letters = 0;
    for (;;) {
        unsigned char c = byte(s, n, k);
        if (id_char(c)) {
            letters++;
            k++;
        } else if (c == '(' && letters > 0) {
            /* Up to ')' or white space; SQLite refuses the latter, but
             * the token ends there all the same. */
            for (k++; k < n && s[k] != '\0' && s[k] != ')' &&
                      !space((unsigned char)s[k]) && s[k] != '\v'; k++)
                ;
            if (byte(s, n, k) == ')')
                k++;
            return k;
        } else if (c == ':' && byte(s, n, k + 1) == ':') {
            k += 2;
        } else {
            return k;
        }
    }
}

/* An operator at i: the length of SQLite's longest match. */
static size_t operator_len(const char *s, size_t n, size_t i)
{
    unsigned char c = (unsigned char)s[i], d = byte(s, n, i + 1);
    switch (c) {
    case '-':
        return d == '>' ? (byte(s, n, i + 2) == '>' ? 3 : 2) : 1;
    case '<':
        return d == '=' || d == '>' || d == '<' ? 2 : 1;
    case '>':
        return d == '=' || d == '>' ? 2 : 1;
    case '=':
        return d == '=' ? 2 : 1;
    case '!':
        return d == '=' ? 2 : 1;
    case '|':
        return d == '|' ? 2 : 1;
    default:
        return 1;
    }
}

pier__tk pier__sql_token(const char *sql, size_t n, size_t pos,
                         pier__token *t, const char **why)
{
    size_t i = skip_space(sql, n, pos);
    t->start = i;
    t->end = n;
    if (i >= n) {
        t->start = n;
        return t->kind = PIER__TK_END;
    }
    unsigned char c = (unsigned char)sql[i];
    size_t end, nul;
    pier__tk kind;
    switch (c) {
    case '\0':
        *why = "a NUL byte";
        return t->kind = PIER__TK_BAD;
    case '\'':
    case '"':
    case '`':
    case '[':
        end = quoted(sql, n, i, &nul);
        if (end == 0) {
            *why = nul < n ? "a NUL byte"
                 : c == '\'' ? "an unterminated string"
                             : "an unterminated quoted name";
            t->start = nul < n ? nul : i;
            return t->kind = PIER__TK_BAD;
        }
        kind = c == '\'' ? PIER__TK_STRING : PIER__TK_QUOTED;
        break;
    case '(':
    case ')':
    case ',':
    case ';':
        end = i + 1;
        kind = c == '(' ? PIER__TK_LP : c == ')' ? PIER__TK_RP
             : c == ',' ? PIER__TK_COMMA : PIER__TK_SEMI;
        break;
    case '.':
        if (!is_digit(byte(sql, n, i + 1))) {
            end = i + 1;
            kind = PIER__TK_DOT;
            break;
        }
        end = number(sql, n, i);
        kind = PIER__TK_NUMBER;
        break;
    case '?':
    case '$':
    case '@':
    case ':':
    case '#':
        end = parameter(sql, n, i);
        kind = PIER__TK_PARAM;
        break;
    default:
        if (is_digit(c)) {
            end = number(sql, n, i);
            kind = PIER__TK_NUMBER;
        } else if ((c | 32) == 'x' && byte(sql, n, i + 1) == '\'') {
            size_t k = i + 2;
            while (k < n && sql[k] != '\'' && sql[k] != '\0')
                k++;
            if (k >= n || sql[k] == '\0') {
                *why = k < n ? "a NUL byte" : "an unterminated blob";
                t->start = k < n ? k : i;
                return t->kind = PIER__TK_BAD;
            }
            end = k + 1;
            kind = PIER__TK_BLOB;
        } else if (id_char(c) && !is_digit(c) && c != '$') {
            for (end = i + 1; id_char(byte(sql, n, end)); end++)
                ;
            kind = PIER__TK_WORD;
        } else {
            end = i + operator_len(sql, n, i);
            kind = PIER__TK_OP;
        }
        break;
    }
    t->end = end;
    return t->kind = kind;
}
