/*
 * lex.h: SQLite's tokenizer, as far as the front-end needs it (lex.c).
 *
 * Tokens are byte ranges of the script; nothing is copied. The rules are
 * SQLite's own (tokenize.c, sqlite3GetToken), so that the front-end splits
 * and reads a script exactly where SQLite would: what SQLite takes as one
 * token is one token here too, even when SQLite would then refuse it (a
 * number running into letters, a lone '!'), since refusing is SQLite's part.
 */
#ifndef PIER_SQL_LEX_H
#define PIER_SQL_LEX_H

#include "base/base.h"

typedef enum pier__tk {
    PIER__TK_END = 0,   /* no token: the script ends */
    PIER__TK_BAD,       /* one SQLite cannot read; the script ends there */
    PIER__TK_WORD,      /* a bare word: a keyword, or a name */
    PIER__TK_QUOTED,    /* "name", `name` or [name] */
    PIER__TK_STRING,    /* 'text' */
    PIER__TK_BLOB,      /* x'hex' */
    PIER__TK_NUMBER,    /* 12, 1.5e3, .5, 0x1F, 1_000 */
    PIER__TK_PARAM,     /* ?, ?NNN, :name, @name, $name, #name */
    PIER__TK_LP,        /* ( */
    PIER__TK_RP,        /* ) */
    PIER__TK_COMMA,     /* , */
    PIER__TK_DOT,       /* . */
    PIER__TK_SEMI,      /* ; */
    PIER__TK_OP         /* any other operator or punctuation */
} pier__tk;

typedef struct pier__token {
    pier__tk kind;
    size_t start;       /* its first byte in the script */
    size_t end;         /* the byte after it */
    size_t depth;       /* parentheses open around it (a '(' and its ')'
                           count as outside); the caller sets it */
} pier__token;

/*
 * Reads the token at or after sql[pos], skipping white space and comments
 * (a block comment left open runs to the end, as in SQLite).
 * @return its kind, with t->start and t->end set;
 *         PIER__TK_END (t->start == t->end == n) when only space and
 *         comments remain;
 *         PIER__TK_BAD for an unterminated string, quoted name or blob, or
 *         a NUL byte (SQLite reads no further than one): t->start is the
 *         fault's byte, t->end is n, and *why says what it is.
 */
pier__tk pier__sql_token(const char *sql, size_t n, size_t pos,
                         pier__token *t, const char **why);

#endif /* PIER_SQL_LEX_H */
