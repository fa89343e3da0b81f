/*
 * query.c: board-scoped queries (pier_query) and their cursors.
 *
 * A query is compiled in three steps:
 * 1. the template is scanned (scan_template): placeholders {{board}} and
 *    {{board:NAME}} are found outside string literals, quoted identifiers
 *    and comments; a name the options do not list, a statement that is
 *    plainly not a SELECT and any identifier in the engine's reserved
 *    "_pier_" namespace are refused here, before SQLite sees the text;
 * 2. a reader connection is checked out; the engine's lock is taken just
 *    long enough to resolve the boards in the catalog cache and let the
 *    lake prepare the statement (views, authorizer, checks:
 *    sqlite_query.c);
 * 3. the parameters are bound and the statement stepped to its first row;
 *    then the catalog version of the snapshot it reads must be the one it
 *    was compiled against (run_query), or all is done again on a reloaded
 *    catalog.
 * The cursor then steps the statement without the engine's lock: writes
 * commit beside it (WAL), and it reads its own snapshot until it ends.
 *
 * Memory: a cursor is one allocation (its arrays follow the struct) plus
 * its row's arena, which holds only the current row's computed texts and
 * is reset for each row, so streaming any number of rows takes constant
 * memory. A text or json value's text is not copied: it is SQLite's, valid
 * until the statement steps again, which only the next pier_cursor_next or
 * pier_cursor_close does (exactly how long the row may be used).
 *
 * A closed cursor is kept by its engine (one, spare_cursor) and reused by
 * the next query that needs no more columns: a point lookup then allocates
 * nothing. It keeps at most one arena block, so what it holds is bounded.
 * It also remembers the last template it ran and what the scan found in
 * it (templates up to SCANNED_MAX bytes): a query repeating the text and
 * the boards skips step 1, whose outcome depends on nothing else. And it
 * remembers what step 2 made of it, the reader's prepare (its epoch and
 * shape), the catalog version and, in its own arrays, the columns'
 * types: while the catalog is at that version and the reader has
 * prepared nothing since (reader_again), those are what compiling again
 * would make, and step 2 is only the lock (so a query still waits for
 * another thread's transaction) and the version check after the first
 * step, as always.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "sql/sql.h"

/* A template that scanned cleanly, and its placeholders. */
typedef struct scanned {
    char *key;                 /* the template, then each board id the
                                  query could read and a NUL */
    size_t key_len;            /* 0: nothing remembered */
    size_t key_cap;
    size_t sql_len;            /* the template's part of the key */
    pier__placeholder *holes;
    size_t nholes;
    size_t holes_cap;
    bool extract;              /* the template needs pier__sql_rewrite */
    bool compiled;             /* the fields below, and the cursor's names
                                  and types, are this template's compile */
    int64_t version;           /* the catalog version it compiled against */
    pier__query_shape shape;   /* what the reader's prepare made of it */
} scanned;

/* Longer templates are scanned every time: every open cursor would keep a
 * copy, and only a short query's scan is a large share of its time. */
#define SCANNED_MAX 4096

struct pier_cursor {
    pier_engine *engine;       /* keeps the cursor once closed */
    scanned scanned;           /* the template it last ran */
    pier__lake *lake;
    pier__reader *reader;      /* checked out until close */
    pier_row row;              /* handed out; its arena: this row's
                                  computed texts */
    size_t ncolumns;
    size_t cap;                /* columns its arrays have room for */
    pier__type *types;         /* per column, `cap` of them, each owning
                                  its x; kind NULL (no column's type):
                                  computed */
    const pier__cell *first;   /* the first row, stepped to by pier_query;
                                  NULL once handed out or if none */
    bool done;                 /* the statement has no more rows */
    pier_status failed;        /* what ended it early, or PIER_OK */
    pier__guard guard;         /* the query's limits, under which the
                                  reader runs it; `interrupted` is set by
                                  pier_cursor_interrupt from anywhere */
    pier__memrows *mem;        /* pier_exec's result: the rows come from
                                  here, and nothing above is used */
};

/* Attempts at matching a reader's snapshot to the catalog: another
 * connection would have to change the catalog this many times during one
 * query. */
#define CATALOG_ATTEMPTS 8

/* ---- the template ---- */

/* A keyword and its length, so that most identifiers are passed over on
 * their length and first letter alone. */
typedef struct keyword {
    const char *word;          /* lower case */
    size_t len;
} keyword;

#define KW(w) { w, sizeof w - 1 }

/* Statements a query can never be; refused by name before SQLite parses
 * anything (the authorizer and the read-only check refuse them too). */
static const keyword refused_keywords[] = {
    KW("alter"), KW("analyze"), KW("attach"), KW("begin"), KW("commit"),
    KW("create"), KW("delete"), KW("detach"), KW("drop"), KW("end"),
    KW("explain"), KW("insert"), KW("pragma"), KW("reindex"),
    KW("release"), KW("replace"), KW("rollback"), KW("savepoint"),
    KW("update"), KW("vacuum"),
};

/* Keywords that only ever begin a write or a schema change: SQLite lets
 * none of them stand for a name, so outside literals, quoted names and
 * comments they cannot occur in a read-only statement at all (a write in a
 * CTE included). */
static const keyword write_keywords[] = {
    KW("alter"), KW("create"), KW("delete"), KW("drop"), KW("insert"),
    KW("update"),
};

#undef KW

#define RESERVED_PREFIX "_pier_"
#define RESERVED_LEN 6

typedef struct scan {
    const char *const *ids;    /* the boards the query may read */
    size_t nids;
    const char *const *tables; /* the declared tables it may read */
    size_t ntables;
    pier__placeholder *holes;
    size_t nholes;
    size_t cap;
    pier__placeholder inline_holes[8];   /* most templates need no more */
    bool extract;              /* the word EXTRACT is in the code: the
                                  template may need pier__sql_rewrite */
} scan;

/*
 * What a byte can begin, for the scan: one table lookup per byte instead
 * of a chain of comparisons (SQLite's tokenizer does the same, aiClass).
 * Bytes from 0x80 are parts of UTF-8 sequences, which SQLite takes as
 * identifier characters.
 */
enum {
    CC_OTHER = 0,       /* an operator or punctuation: one byte */
    CC_SPACE,           /* space, \t, \n, \v, \f, \r */
    CC_IDENT,           /* A-Z, a-z, _, and every byte from 0x80 */
    CC_DIGIT,           /* 0-9 */
    CC_DOLLAR,          /* $: a parameter's prefix, inside a name a part */
    CC_VAR,             /* : and @: a parameter's prefix */
    CC_STRING,          /* ' */
    CC_QUOTED,          /* ", `, [: a quoted identifier */
    CC_MINUS,           /* - (a -- comment?) */
    CC_SLASH,           /* / (a block comment?) */
    CC_BRACE            /* { (a placeholder?) */
};

static const unsigned char char_class[128] = {
/*         x0 x1 x2 x3 x4 x5 x6 x7 x8 x9 xa xb xc xd xe xf */
/* 0x */    0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0,
/* 1x */    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
/* 2x */    1, 0, 7, 0, 4, 0, 0, 6, 0, 0, 0, 0, 0, 8, 0, 9,
/* 3x */    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 5, 0, 0, 0, 0, 0,
/* 4x */    5, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
/* 5x */    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 7, 0, 0, 0, 2,
/* 6x */    7, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
/* 7x */    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 10, 0, 0, 0, 0,
};

static unsigned char char_class_of(unsigned char c)
{
    return c < 0x80 ? char_class[c] : CC_IDENT;
}

static bool ident_part(unsigned char c)
{
    unsigned char k = char_class_of(c);
    return k == CC_IDENT || k == CC_DIGIT || k == CC_DOLLAR;
}

/* Whether p[0..n) is one of the keywords of `list`. Every identifier of a
 * template meets this: the length and the first letter decide for most. */
static bool keyword_in(const char *p, size_t n, const keyword *list,
                       size_t nlist)
{
    char first = (char)(p[0] | 32);
    for (size_t k = 0; k < nlist; k++)
        if (list[k].len == n && list[k].word[0] == first &&
            pier__name_eq(p, n, list[k].word, n))
            return true;
    return false;
}

static bool reserved_name(const char *p, size_t n)
{
    return n >= RESERVED_LEN && p[0] == '_' &&
           pier__name_eq(p, RESERVED_LEN, RESERVED_PREFIX, RESERVED_LEN);
}

static pier_status refuse_name(const char *p, size_t n, size_t at,
                               pier_error *err)
{
    pier__buf q;
    pier__buf_init(&q);
    pier__quote_name(&q, p, n);
    pier__fail(err, PIER_E_ENTITY_NOT_ALLOWED,
               "a query may not name '%s': names starting with '_pier_' "
               "are the engine's own (read boards as {{board}} and "
               "{{board:NAME}})", q.p != NULL ? q.p : "");
    pier__buf_free(&q);
    /* A board's table: name the board. */
    static const char table[] = "_pier_b_";
    size_t tn = sizeof table - 1;
    if (n > tn && n - tn <= PIER__NAME_MAX &&
        pier__name_eq(p, tn, table, tn) && err != NULL) {
        for (size_t i = 0; i < n - tn; i++)
            err->board[i] = (char)(p[tn + i] >= 'A' && p[tn + i] <= 'Z'
                                       ? p[tn + i] + 32 : p[tn + i]);
        err->board[n - tn] = '\0';
    }
    if (err != NULL)
        err->offset = (int64_t)at;
    return PIER_E_ENTITY_NOT_ALLOWED;
}

static pier_status add_hole(scan *s, size_t offset, size_t len,
                            size_t board, pier__hole_kind kind,
                            pier_error *err)
{
    if (s->nholes == s->cap) {
        size_t cap = s->cap * 2;
        pier__placeholder *h = s->holes == s->inline_holes
            ? malloc(cap * sizeof *h)
            : realloc(s->holes, cap * sizeof *h);
        if (h == NULL)
            return pier__oom(err);
        if (s->holes == s->inline_holes)
            memcpy(h, s->inline_holes, sizeof s->inline_holes);
        s->holes = h;
        s->cap = cap;
    }
    s->holes[s->nholes++] = (pier__placeholder){ offset, len, board, kind };
    return PIER_OK;
}

/* The forms of placeholder: "{{" WORD "}}" or "{{" WORD ":" NAME "}}". */
static const struct hole_form {
    const char *open;
    size_t len;
    pier__hole_kind kind;
    bool bare;                 /* "{{" WORD "}}" means the query's board */
} hole_forms[] = {
    { "{{board", 7, PIER__HOLE_BOARD, true },
    { "{{fts", 5, PIER__HOLE_FTS, true },
    { "{{table", 7, PIER__HOLE_TABLE, false },
};

/* {{table:NAME}} for a table the options do not list, or one no option
 * may list (the engine's, SQLite's). */
static pier_status refuse_table(const char *name, size_t n, size_t at,
                                bool listable, pier_error *err)
{
    pier__buf q;
    pier__buf_init(&q);
    pier__quote_name(&q, name, n);
    const char *t = q.p != NULL ? q.p : "";
    if (listable)
        pier__fail(err, PIER_E_ENTITY_NOT_ALLOWED,
                   "the query reads table '%s', which its options do not "
                   "name (list it in `tables`, or pier query --with-table, "
                   "to read it as {{table:%s}})", t, t);
    else
        pier__fail(err, PIER_E_ENTITY_NOT_ALLOWED,
                   "a query may not read '%s' as a table: names starting "
                   "with '_pier_' or 'sqlite_' are the engine's and "
                   "SQLite's own", t);
    pier__buf_free(&q);
    if (err != NULL)
        err->offset = (int64_t)at;
    return PIER_E_ENTITY_NOT_ALLOWED;
}

/* A placeholder at sql[i] ("{{" seen): *len is 0 if this is none. */
static pier_status placeholder(scan *s, const char *sql, size_t n, size_t i,
                               size_t *len, pier_error *err)
{
    *len = 0;
    const struct hole_form *f = NULL;
    for (size_t k = 0; k < sizeof hole_forms / sizeof *hole_forms; k++)
        if (n - i >= hole_forms[k].len + 2 &&
            memcmp(sql + i, hole_forms[k].open, hole_forms[k].len) == 0)
            f = &hole_forms[k];
    if (f == NULL)
        return PIER_OK;
    size_t j = i + f->len;
    if (sql[j] == '}' && sql[j + 1] == '}') {
        if (!f->bare)
            return PIER_OK;
        *len = f->len + 2;
        return add_hole(s, i, *len, 0, f->kind, err);
    }
    if (sql[j] != ':')
        return PIER_OK;
    size_t name = j + 1, k = name;
    while (k < n && sql[k] != '}' && k - name <= PIER__NAME_MAX)
        k++;
    if (k + 1 >= n || sql[k] != '}' || sql[k + 1] != '}' || k == name)
        return PIER_OK;
    if (f->kind == PIER__HOLE_TABLE) {
        size_t tn = k - name;
        if (reserved_name(sql + name, tn) ||
            (tn >= 7 && pier__name_eq(sql + name, 7, "sqlite_", 7)))
            return refuse_table(sql + name, tn, i, false, err);
        for (size_t t = 0; t < s->ntables; t++) {
            if (strlen(s->tables[t]) == tn &&
                pier__name_eq(s->tables[t], tn, sql + name, tn)) {
                *len = k + 2 - i;
                return add_hole(s, i, *len, t, f->kind, err);
            }
        }
        return refuse_table(sql + name, tn, i, true, err);
    }
    for (size_t b = 0; b < s->nids; b++) {
        if (strlen(s->ids[b]) == k - name &&
            memcmp(s->ids[b], sql + name, k - name) == 0) {
            *len = k + 2 - i;
            return add_hole(s, i, *len, b, f->kind, err);
        }
    }
    pier__buf q;
    pier__buf_init(&q);
    pier__quote_name(&q, sql + name, k - name);
    const char *what = f->kind == PIER__HOLE_FTS
        ? "the full-text index of board" : "board";
    /* {{board:fts}} reads as a board named fts: say where indexes are. */
    bool fts_meant = f->kind != PIER__HOLE_FTS && k - name == 3 &&
                     memcmp(sql + name, "fts", 3) == 0;
    pier__fail(err, PIER_E_ENTITY_NOT_ALLOWED,
               "the query reads %s '%s', which its options do not name "
               "(list it in `with` to read it as {{%s:%s}})%s", what,
               q.p != NULL ? q.p : "",
               f->kind == PIER__HOLE_FTS ? "fts" : "board",
               q.p != NULL ? q.p : "",
               fts_meant ? "; a board's full-text index is {{fts}}, "
                           "another board's {{fts:NAME}}" : "");
    pier__error_board(err, q.p);
    pier__buf_free(&q);
    if (err != NULL)
        err->offset = (int64_t)i;
    return PIER_E_ENTITY_NOT_ALLOWED;
}

/* Skips a quoted token at sql[i] (quote character q, a doubled one
 * escapes it; ']' closes '['); returns the index after it. */
static size_t skip_quoted(const char *sql, size_t n, size_t i, char q)
{
    char close = q == '[' ? ']' : q;
    for (i++; i < n; i++) {
        if (sql[i] != close)
            continue;
        if (q != '[' && i + 1 < n && sql[i + 1] == close) {
            i++;
            continue;
        }
        return i + 1;
    }
    return n;
}

/* The end of the white space and comments from i. */
static size_t blank_end(const char *sql, size_t n, size_t i)
{
    for (;;) {
        while (i < n && char_class_of((unsigned char)sql[i]) == CC_SPACE)
            i++;
        if (i + 1 < n && sql[i] == '-' && sql[i + 1] == '-') {
            while (i < n && sql[i] != '\n')
                i++;
        } else if (i + 1 < n && sql[i] == '/' && sql[i + 1] == '*') {
            size_t k = i + 2;
            while (k + 1 < n && !(sql[k] == '*' && sql[k + 1] == '/'))
                k++;
            i = k + 1 < n ? k + 2 : n;
        } else {
            return i;
        }
    }
}

/* The end of the identifier at i (i itself when there is none). */
static size_t ident_end(const char *sql, size_t n, size_t i)
{
    if (i >= n || char_class_of((unsigned char)sql[i]) != CC_IDENT)
        return i;
    while (i < n && ident_part((unsigned char)sql[i]))
        i++;
    return i;
}

/* Whether the word w (any case) is at i; *end: after it. */
static bool word_at(const char *sql, size_t n, size_t i, const char *w,
                    size_t *end)
{
    size_t e = ident_end(sql, n, i);
    size_t len = strlen(w);
    if (e - i != len || !pier__name_eq(sql + i, len, w, len))
        return false;
    *end = e;
    return true;
}

/* Whether the identifier ending at e names a CTE: what follows it is
 * `[(columns)] AS [NOT] [MATERIALIZED] (` (a window's `w AS (` passes
 * too: a name that is no table's changes nothing). */
static bool names_cte(const char *sql, size_t n, size_t e)
{
    size_t j = blank_end(sql, n, e);
    if (j < n && sql[j] == '(') {
        size_t k = j + 1;
        for (;;) {
            k = blank_end(sql, n, k);
            size_t after = ident_end(sql, n, k);
            if (after == k)
                return false;
            k = blank_end(sql, n, after);
            if (k < n && sql[k] == ',') {
                k++;
                continue;
            }
            if (k < n && sql[k] == ')')
                break;
            return false;
        }
        j = blank_end(sql, n, k + 1);
    }
    size_t end = 0;
    if (!word_at(sql, n, j, "as", &end))
        return false;
    j = blank_end(sql, n, end);
    if (word_at(sql, n, j, "not", &end))
        j = blank_end(sql, n, end);
    if (word_at(sql, n, j, "materialized", &end))
        j = blank_end(sql, n, end);
    return j < n && sql[j] == '(';
}

/* The names the template gives CTEs (unquoted ones: a quoted name is not
 * seen, and a query reading such a CTE as a table is refused). */
static size_t cte_names(const char *sql, size_t n, pier__query_cte *out,
                        size_t cap)
{
    size_t count = 0, i = 0;
    while (i < n && count < cap) {
        size_t b = blank_end(sql, n, i);
        if (b != i) {
            i = b;
            continue;
        }
        unsigned char c = (unsigned char)sql[i];
        switch (char_class_of(c)) {
        case CC_STRING:
            i = skip_quoted(sql, n, i, '\'');
            continue;
        case CC_QUOTED:
            i = skip_quoted(sql, n, i, (char)c);
            continue;
        case CC_IDENT: {
            size_t e = ident_end(sql, n, i);
            if (names_cte(sql, n, e))
                out[count++] = (pier__query_cte){ sql + i, e - i, i };
            i = e;
            continue;
        }
        default:
            i++;
            continue;
        }
    }
    return count;
}

/*
 * Scans the template as SQLite's tokenizer would, far enough to know what
 * is code: string literals, quoted identifiers ("x", `x`, [x]) and
 * comments are skipped whole, so a placeholder inside them stays text.
 */
static pier_status scan_template(scan *s, const char *sql, size_t n,
                                 pier_error *err)
{
    bool first = true;              /* no token seen yet */
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)sql[i];
        switch (char_class_of(c)) {
        case CC_SPACE:
            i++;
            continue;
        case CC_MINUS:
            if (i + 1 < n && sql[i + 1] == '-') {
                while (i < n && sql[i] != '\n')
                    i++;
                continue;
            }
            break;
        case CC_SLASH:
            if (i + 1 < n && sql[i + 1] == '*') {
                const char *end = NULL;
                for (size_t k = i + 2; k + 1 < n && end == NULL; k++)
                    if (sql[k] == '*' && sql[k + 1] == '/')
                        end = sql + k + 2;
                i = end != NULL ? (size_t)(end - sql) : n;
                continue;
            }
            break;
        case CC_STRING:
            i = skip_quoted(sql, n, i, '\'');
            first = false;
            continue;
        case CC_QUOTED: {
            size_t end = skip_quoted(sql, n, i, (char)c);
            if (reserved_name(sql + i + 1, end - i - 1))
                return refuse_name(sql + i + 1, end > i + 2 ? end - i - 2
                                                            : 0, i, err);
            i = end;
            first = false;
            continue;
        }
        case CC_BRACE:
            if (i + 1 < n && sql[i + 1] == '{') {
                size_t len;
                pier_status rc = placeholder(s, sql, n, i, &len, err);
                if (rc != PIER_OK)
                    return rc;
                i += len > 0 ? len : 1;
                first = false;
                continue;
            }
            break;
        case CC_VAR:
        case CC_DOLLAR:
            if (i + 1 < n && ident_part((unsigned char)sql[i + 1])) {
                for (i++; i < n && ident_part((unsigned char)sql[i]); i++)
                    ;
                first = false;
                continue;
            }
            break;
        case CC_IDENT: {
            size_t start = i;
            while (i < n && ident_part((unsigned char)sql[i]))
                i++;
            size_t len = i - start;
            if (reserved_name(sql + start, len))
                return refuse_name(sql + start, len, start, err);
            if ((len == 7 && pier__name_eq(sql + start, 7, "extract", 7)) ||
                (len == 4 && pier__name_eq(sql + start, 4, "cast", 4)))
                s->extract = true;
            /* Every keyword refused has 3 to 9 letters. */
            if (len >= 3 && len <= 9 &&
                (keyword_in(sql + start, len, write_keywords,
                            sizeof write_keywords / sizeof *write_keywords) ||
                 (first && keyword_in(sql + start, len, refused_keywords,
                                      sizeof refused_keywords /
                                          sizeof *refused_keywords)))) {
                pier__fail(err, PIER_E_ENTITY_NOT_ALLOWED,
                           "a query is one read-only SELECT (or WITH ... "
                           "SELECT): %.*s is not allowed", (int)len,
                           sql + start);
                if (err != NULL)
                    err->offset = (int64_t)start;
                return PIER_E_ENTITY_NOT_ALLOWED;
            }
            first = false;
            continue;
        }
        case CC_DIGIT:
            while (i < n && (ident_part((unsigned char)sql[i]) ||
                             sql[i] == '.'))
                i++;
            first = false;
            continue;
        default:
            break;
        }
        /* An operator, or a '-', '/', '{', ':', '@' or '$' that begins
         * nothing: one byte of code. */
        i++;
        first = false;
    }
    return PIER_OK;
}

/* ---- compiling ---- */

typedef struct query_args {
    const char *const *ids;    /* [0]: the query's board, then `with` */
    size_t nids;
    const char *const *tables; /* the options' tables */
    size_t ntables;
    scan *scan;
    const char *sql;
    size_t len;
    pier_cursor *spare;        /* the engine's spare, taken by pier_query;
                                  NULL once a cursor was made of it */
    bool made_of_spare;        /* the query's cursor is that spare */
    const scanned *known;      /* the spare's memory of this template, if
                                  it compiled it; NULL once tried */
    const pier_limits *limits; /* the options' (NULL: the engine's) */
    int64_t max_stale_us;      /* the options' max_stale_ms, in us */
    int64_t version;           /* out: what the query compiled against */
    pier__query_shape shape;   /* out: and what it prepared */
} query_args;

/* Releases the types of the cursor's last compile. */
static void types_release(pier_cursor *c)
{
    for (size_t i = 0; c->types != NULL && i < c->cap; i++)
        pier__type_free(&c->types[i]);
}

static void cursor_free(pier_cursor *c)
{
    if (c == NULL)
        return;
    types_release(c);
    pier__arena_free(&c->row.arena);
    free(c->scanned.key);
    free(c->scanned.holes);
    free(c);
}

/* A table's entry in a remembered key starts with this byte, which no
 * board id holds: boards and tables cannot pass for each other. */
#define TABLE_MARK '\x01'

/* Whether `t` is this template (NUL-terminated) with these boards and
 * tables. A template holds no NUL, so strncmp stops within both texts and
 * then finds the end of `sql` without a strlen of its own. */
static bool scanned_matches(const scanned *t, const char *sql,
                            const query_args *a)
{
    size_t len = t->sql_len;
    if (t->key_len == 0 || strncmp(t->key, sql, len) != 0 ||
        sql[len] != '\0')
        return false;
    const char *p = t->key + len, *end = t->key + t->key_len;
    for (size_t i = 0; i < a->nids; i++) {
        size_t n = strlen(a->ids[i]) + 1;
        if ((size_t)(end - p) < n || memcmp(p, a->ids[i], n) != 0)
            return false;
        p += n;
    }
    for (size_t i = 0; i < a->ntables; i++) {
        size_t n = strlen(a->tables[i]) + 1;
        if ((size_t)(end - p) < n + 1 || p[0] != TABLE_MARK ||
            memcmp(p + 1, a->tables[i], n) != 0)
            return false;
        p += n + 1;
    }
    return p == end;
}

/* Remembers a template that scanned cleanly. Without the memory for it,
 * nothing is remembered (and the next query scans). */
static void scanned_keep(scanned *t, const char *sql, size_t len,
                         const query_args *a, const scan *s)
{
    t->key_len = 0;
    if (len > SCANNED_MAX)
        return;
    size_t need = len;
    for (size_t i = 0; i < a->nids; i++)
        need += strlen(a->ids[i]) + 1;
    for (size_t i = 0; i < a->ntables; i++)
        need += strlen(a->tables[i]) + 2;
    if (need > t->key_cap) {
        char *k = realloc(t->key, need);
        if (k == NULL)
            return;
        t->key = k;
        t->key_cap = need;
    }
    if (s->nholes > t->holes_cap) {
        pier__placeholder *h = realloc(t->holes, s->nholes * sizeof *h);
        if (h == NULL)
            return;
        t->holes = h;
        t->holes_cap = s->nholes;
    }
    memcpy(t->key, sql, len);
    char *p = t->key + len;
    for (size_t i = 0; i < a->nids; i++) {
        size_t n = strlen(a->ids[i]) + 1;
        memcpy(p, a->ids[i], n);
        p += n;
    }
    for (size_t i = 0; i < a->ntables; i++) {
        size_t n = strlen(a->tables[i]) + 1;
        *p++ = TABLE_MARK;
        memcpy(p, a->tables[i], n);
        p += n;
    }
    if (s->nholes > 0)
        memcpy(t->holes, s->holes, s->nholes * sizeof *t->holes);
    t->nholes = s->nholes;
    t->extract = s->extract;
    t->sql_len = len;
    t->key_len = need;
}

/* A cursor for n columns: a->spare (taken from it) or else the engine's
 * spare if it has room, else a new one (the struct, then its arrays). Its
 * lake and reader are unset. */
static pier_cursor *cursor_new(pier_engine *e, query_args *a, size_t n)
{
    pier_cursor *c = a->spare;
    a->spare = NULL;
    a->made_of_spare = c != NULL && c->cap >= n;
    if (c == NULL)
        c = atomic_exchange(&e->spare_cursor, NULL);
    if (c != NULL && c->cap < n) {
        cursor_free(c);
        c = NULL;
    }
    if (c == NULL) {
        size_t size = sizeof(pier_cursor) +
                      n * (sizeof(pier_value) + sizeof(pier__type));
        c = calloc(1, size);
        if (c == NULL)
            return NULL;
        pier__arena_init(&c->row.arena);
        c->cap = n;
        c->row.values = (pier_value *)(void *)(c + 1);
        c->types = (pier__type *)(void *)(c->row.values + n);
    }
    c->engine = e;
    c->lake = NULL;
    c->reader = NULL;
    c->ncolumns = n;
    c->row.ncolumns = n;
    c->first = NULL;
    c->done = false;
    c->failed = PIER_OK;
    return c;
}

/* Gives a cursor (its reader already returned) to its engine for the
 * next query; the one kept before, if any, is freed. */
static void cursor_release(pier_cursor *c)
{
    if (c == NULL)
        return;
    pier__arena_reset(&c->row.arena);
    cursor_free(atomic_exchange(&c->engine->spare_cursor, c));
}

void pier__cursor_spare_free(pier_engine *e)
{
    cursor_free(atomic_exchange(&e->spare_cursor, NULL));
}

/* Under the engine's lock, with the catalog at the reader's snapshot:
 * resolves the boards, prepares the statement and builds the cursor. */
/* Whether a board has a column whose values are exact numbers held as
 * text or digits (decimal, uint64, hugeint): SQLite's operators would
 * read them as floats. */
static bool exact_columns(const pier__board *const *boards, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < boards[i]->ncolumns; k++) {
            pier__type t = boards[i]->columns[k].type;
            const pier__coltype *c = pier__type_sql(t);
            if (t.kind == PIER_KIND_HUGEINT ||
                (c != NULL && c->t.dims == 0 &&
                 strcmp(pier__coltype_collation(c) != NULL
                            ? pier__coltype_collation(c)
                            : "",
                        "pier_numeric") == 0))
                return true;
        }
    return false;
}

/*
 * When one of its boards has exact columns, or it writes a number SQLite
 * would read inexactly, the template with such numbers written as text
 * (pier__sql_exact_literals) and its operators as the dialect's exact
 * ones (pier__sql_exact_ops, docs/sql.md "Operators on exact values"): *q
 * then reads the rewrite (in *text) with its placeholders found again (in
 * *s).
 */
static pier_status exact_template(const pier__board *const *boards,
                                  query_args *a, pier__query_text *q,
                                  pier__buf *text, scan *s, pier_error *err)
{
    /* numbers SQLite would read inexactly, as their text (as pier_exec
     * writes them, docs/sql.md); then the operators */
    pier__buf literals;
    pier__buf_init(&literals);
    bool digits = pier__sql_exact_literals(&literals, q->sql, q->len);
    if (!digits && !literals.oom && !exact_columns(boards, q->nboards)) {
        pier__buf_free(&literals);
        return PIER_OK;
    }
    const char *from = digits ? literals.p : q->sql;
    size_t n = digits ? literals.len : q->len;
    bool ops = false;
    for (size_t i = 0; i < n && !ops; i++)
        ops = from[i] != '\0' && strchr("+-*/%<>=", from[i]) != NULL;
    if (!(ops && pier__sql_exact_ops(text, from, n, NULL))) {
        pier__buf_reset(text);                 /* (what it left) */
        if (digits)
            pier__buf_append(text, literals.p, literals.len);
    }
    pier__buf_free(&literals);
    if (text->oom || literals.oom)
        return pier__oom(err);
    if (text->len == 0)
        return PIER_OK;
    *s = (scan){ .ids = a->scan->ids, .nids = a->scan->nids,
                 .tables = a->scan->tables, .ntables = a->scan->ntables,
                 .cap = 8 };
    s->holes = s->inline_holes;
    pier_status rc = scan_template(s, text->p, text->len, err);
    if (rc != PIER_OK)
        return rc;
    q->sql = text->p;
    q->len = text->len;
    q->holes = s->holes;
    q->nholes = s->nholes;
    return PIER_OK;
}

static pier_status compile_locked(pier_engine *e, pier__reader *r,
                                  query_args *a, int64_t version,
                                  pier_cursor **out, pier__query_shape *shape,
                                  pier_error *err)
{
    const pier__board *boards[PIER__QUERY_MAX_BOARDS];
    for (size_t i = 0; i < a->nids; i++) {
        pier__board *b = NULL;
        pier_status rc = pier__engine_board(e, a->ids[i], &b, err);
        if (rc != PIER_OK)
            return rc;
        boards[i] = b;
    }
    pier__query_cte ctes[PIER__QUERY_MAX_CTES];
    pier__query_text q = {
        .sql = a->sql,
        .len = a->len,
        .holes = a->scan->holes,
        .nholes = a->scan->nholes,
        .boards = boards,
        .nboards = a->nids,
        .tables = a->tables,
        .ntables = a->ntables,
        .catalog_version = version,
        .ctes = ctes,
        .nctes = cte_names(a->sql, a->len, ctes, PIER__QUERY_MAX_CTES),
        .max_stale_us = a->max_stale_us,
    };
    pier__buf text;
    pier__buf_init(&text);
    scan exact = { .holes = NULL };
    pier_status rc = exact_template(boards, a, &q, &text, &exact, err);
    if (rc == PIER_OK)
        rc = e->lake->ops->reader_prepare(r, &q, shape, err);
    if (rc == PIER_E_QUERY_FAILED && q.sql != a->sql) {
        /* the template as written says where it is wrong (the rewrite's
         * offsets are not its own) */
        pier__query_text written = q;
        written.sql = a->sql;
        written.len = a->len;
        written.holes = a->scan->holes;
        written.nholes = a->scan->nholes;
        pier_error again;
        if (e->lake->ops->reader_prepare(r, &written, shape, &again) !=
            PIER_OK) {
            if (err != NULL)
                *err = again;
        } else {
            if (err != NULL)
                err->offset = -1;
            rc = PIER_E_QUERY_FAILED;
        }
    }
    pier__buf_free(&text);
    if (exact.holes != NULL && exact.holes != exact.inline_holes)
        free(exact.holes);
    if (rc != PIER_OK)
        return rc;
    pier_cursor *c = cursor_new(e, a, shape->ncolumns);
    if (c == NULL)
        return pier__oom(err);
    c->scanned.compiled = false;           /* its arrays change below */
    /* The names stay the reader's: they live until the next prepare or
     * reader_close, and the cursor holds the reader until it closes. The
     * types are copied: the catalog may change while the cursor is open. */
    c->row.names = (const char **)(void *)shape->names;
    types_release(c);
    bool ok = true;
    for (size_t i = 0; i < shape->ncolumns; i++) {
        const pier__query_origin *o = &shape->origins[i];
        c->types[i] = (pier__type){ PIER_KIND_NULL, NULL };
        if (o->board >= 0 && ok)
            ok = pier__type_copy(&c->types[i],
                                 boards[o->board]->columns[o->column].type);
    }
    if (!ok) {
        a->made_of_spare = false;
        cursor_release(c);
        return pier__oom(err);
    }
    *out = c;
    return PIER_OK;
}

static pier_status bind_params(pier_cursor *c, const pier__query_shape *sh,
                               const pier_params *params, pier_error *err)
{
    for (size_t i = 0; i < sh->nparams; i++) {
        const char *name = sh->params[i];
        const pier__cell *v = pier__params_find(params, name, (int)i + 1);
        if (v == NULL) {
            char anon[24];
            if (name == NULL) {
                snprintf(anon, sizeof anon, "?%zu", i + 1);
                name = anon;
            }
            pier__fail(err, PIER_E_PLACEHOLDER_UNBOUND,
                       "query parameter '%s' has no value", name);
            pier__error_column(err, name);
            return PIER_E_PLACEHOLDER_UNBOUND;
        }
        pier_status rc = c->lake->ops->reader_bind(c->reader, (int)i + 1, v,
                                                   err);
        if (rc != PIER_OK)
            return rc;
    }
    return PIER_OK;
}

/* Checks the options and gathers the boards the query may read: its own
 * first, then each of opts->with once. */
static pier_status check_boards(const char **ids, size_t *nids,
                                const char *board,
                                const pier_query_options *o,
                                pier_error *err)
{
    if (o->version < 1 || o->version > PIER_QUERY_OPTIONS_VERSION)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "query options version %u is not supported "
                          "(this Pier knows 1 to %d)", o->version,
                          PIER_QUERY_OPTIONS_VERSION);
    if (o->nwith > 0 && o->with == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "query options name %zu boards but give none",
                          o->nwith);
    if (o->min_watermark < 0)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "min_watermark cannot be negative");
    if (o->version >= 3 &&
        (o->max_stale_ms < 0 || o->max_stale_ms > INT64_MAX / 1000))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "max_stale_ms must be between 0 and %lld",
                          (long long)(INT64_MAX / 1000));
    if (o->version >= 4 && o->ntables > 0 && o->tables == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "query options name %zu tables but give none",
                          o->ntables);
    if (o->version >= 4 && o->ntables > PIER__QUERY_MAX_BOARDS)
        return pier__fail(err, PIER_E_LIMIT_EXCEEDED,
                          "a query reads at most %d tables",
                          PIER__QUERY_MAX_BOARDS);
    for (size_t i = 0; o->version >= 4 && i < o->ntables; i++)
        if (o->tables[i] == NULL || o->tables[i][0] == '\0' ||
            strlen(o->tables[i]) > PIER__NAME_MAX)
            return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                              "table %zu of the query options is not a "
                              "name (1 to %d bytes)", i + 1,
                              PIER__NAME_MAX);
    pier_status rc = o->version >= 2 ? pier__limits_check(&o->limits, err)
                                     : PIER_OK;
    if (rc == PIER_OK)
        rc = pier__board_id_check(board, err);
    if (rc != PIER_OK)
        return rc;
    ids[0] = board;
    *nids = 1;
    for (size_t i = 0; i < o->nwith; i++) {
        rc = pier__board_id_check(o->with[i], err);
        if (rc != PIER_OK)
            return rc;
        size_t k = 0;
        while (k < *nids && strcmp(ids[k], o->with[i]) != 0)
            k++;
        if (k < *nids)
            continue;
        if (*nids == PIER__QUERY_MAX_BOARDS)
            return pier__fail(err, PIER_E_LIMIT_EXCEEDED,
                              "a query reads at most %d boards",
                              PIER__QUERY_MAX_BOARDS);
        ids[(*nids)++] = o->with[i];
    }
    return PIER_OK;
}

/* Whether a failure may come from compiling against a catalog older than
 * the reader's snapshot (a board or a column another connection just
 * made), so that the snapshot's catalog version decides. */
static bool maybe_stale(pier_status rc)
{
    return rc == PIER_OK || rc == PIER_E_BOARD_NOT_FOUND ||
           rc == PIER_E_QUERY_FAILED || rc == PIER_E_READ_FAILED;
}

/*
 * Compiles, binds and steps to the first row, on a catalog that matches
 * the reader's snapshot. The engine's catalog cache is used as it is (the
 * lock held only while compiling), and checked afterwards against the
 * snapshot's catalog version, which costs nothing while the lake has not
 * changed. When they differ, the cache is reloaded (pier__engine_begin),
 * a new snapshot begun and everything done again.
 */
static pier_status run_query(pier_engine *e, query_args *a,
                             pier__reader *r, const pier_params *params,
                             pier_cursor **out, pier_error *err)
{
    bool reload = false;
    for (int attempt = 1;; attempt++) {
        pier_cursor *c = NULL;
        pier__query_shape shape;
        bool began = false;
        pier_status rc = PIER_OK;
        pthread_mutex_lock(&e->lock);
        if (reload || e->catalog.version < 0) {
            pthread_mutex_unlock(&e->lock);
            rc = pier__engine_begin(e, false, err);
            if (rc != PIER_OK)
                return rc;
            began = true;
        }
        int64_t version = e->catalog.version;
        const scanned *known = a->known;
        a->known = NULL;
        if (!began && known != NULL && known->version == version &&
            e->lake->ops->reader_again(r, known->shape.epoch)) {
            /* The spare compiled this: its names and types are this
             * compile's (see the top). */
            shape = known->shape;
            c = cursor_new(e, a, shape.ncolumns);
            assert(c != NULL && a->made_of_spare);
        } else {
            rc = compile_locked(e, r, a, version, &c, &shape, err);
        }
        if (began)
            rc = pier__engine_end(e, rc, err);
        else
            pthread_mutex_unlock(&e->lock);
        if (rc == PIER_OK) {
            c->lake = e->lake;
            c->reader = r;
            pier__guard_init(&c->guard, e, a->limits, "query");
            e->lake->ops->reader_guard(r, &c->guard);
            rc = bind_params(c, &shape, params, err);
        }
        if (rc == PIER_OK) {
            rc = e->lake->ops->reader_step(r, &c->first, err);
            c->done = c->first == NULL;
        }
        if (maybe_stale(rc)) {
            /* After a failure nothing was read: ask the lake as it is. */
            pier_error verr;
            int64_t now = -1;
            pier_status vrc = e->lake->ops->reader_version(r, rc != PIER_OK,
                                                           &now, &verr);
            if (vrc == PIER_OK && now != version) {
                a->made_of_spare = false;
                cursor_release(c);
                if (attempt == CATALOG_ATTEMPTS)
                    return pier__fail(err, PIER_E_READ_FAILED,
                                      "the catalog kept changing while the "
                                      "query was compiled; try again");
                e->lake->ops->reader_restart(r);
                reload = true;
                continue;
            }
            if (vrc != PIER_OK && rc == PIER_OK) {
                if (err != NULL)
                    *err = verr;
                rc = vrc;
            }
        }
        if (rc != PIER_OK) {
            cursor_release(c);
            return rc;
        }
        a->version = version;
        a->shape = shape;
        *out = c;
        return PIER_OK;
    }
}

/* A watermark at most the head: the embedded lake is always at its head,
 * so a query is at least that fresh as soon as the watermark was ever
 * handed out. The cached head answers without I/O when it can. */
static pier_status check_watermark(pier_engine *e, int64_t min,
                                   pier_error *err)
{
    if (min <= pier_head(e))
        return PIER_OK;
    int64_t head = 0;
    pier_status rc = pier__engine_begin(e, false, err);
    if (rc != PIER_OK)
        return rc;
    rc = e->lake->ops->head(e->lake, &head, err);
    rc = pier__engine_end(e, rc, err);
    if (rc != PIER_OK)
        return rc;
    pier__feed_saw_head(&e->feed, head);
    if (min > head)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "watermark %lld was never handed out (the head "
                          "is %lld)", (long long)min, (long long)head);
    return PIER_OK;
}

/*
 * A query that names a board as a table (FROM other) finds no such table:
 * boards are read only through {{board}} and {{board:NAME}}. When the
 * missing table is a board, that is an escape attempt, not a typo, and
 * says so; anything else stays QueryFailed.
 */
static pier_status board_by_name(pier_engine *e, pier_error *err)
{
    if (err == NULL || err->board[0] == '\0')
        return PIER_E_QUERY_FAILED;
    char name[sizeof err->board];
    for (size_t i = 0; i < sizeof name; i++)   /* SQL names: any case */
        name[i] = err->board[i] >= 'A' && err->board[i] <= 'Z'
                      ? (char)(err->board[i] - 'A' + 'a')
                      : err->board[i];
    bool has = false;
    pier_error probe;
    if (pier__board_id_check(name, NULL) != PIER_OK ||
        pier_board_has(&has, e, name, &probe) != PIER_OK || !has) {
        err->board[0] = '\0';
        return PIER_E_QUERY_FAILED;
    }
    pier__fail(err, PIER_E_ENTITY_NOT_ALLOWED,
               "a query reads board '%s' only as {{board:%s}}, and only "
               "when its options name it", name, name);
    pier__error_board(err, name);
    return PIER_E_ENTITY_NOT_ALLOWED;
}

PIER_API pier_status pier_query(pier_cursor **out, pier_engine *engine,
                                const char *board, const char *sql,
                                const pier_params *params,
                                const pier_query_options *opts,
                                pier_error *err)
{
    static const pier_query_options defaults = PIER_QUERY_OPTIONS_INIT;
    pier__error_clear(err);
    if (out == NULL || engine == NULL || sql == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a query needs an output, an engine and SQL");
    *out = NULL;
    if (opts == NULL)
        opts = &defaults;
    const char *ids[PIER__QUERY_MAX_BOARDS];
    size_t nids = 0;
    pier_status rc = check_boards(ids, &nids, board, opts, err);
    if (rc != PIER_OK)
        return rc;
    const char *const *tables = opts->version >= 4 ? opts->tables : NULL;
    size_t ntables = opts->version >= 4 ? opts->ntables : 0;
    scan s = { .ids = ids, .nids = nids, .tables = tables,
               .ntables = ntables, .cap = 8 };
    s.holes = s.inline_holes;
    query_args a = { .ids = ids, .nids = nids, .tables = tables,
                     .ntables = ntables, .scan = &s, .sql = sql,
                     .spare = atomic_exchange(&engine->spare_cursor, NULL),
                     .limits = opts->version >= 2 ? &opts->limits : NULL,
                     .max_stale_us = opts->version >= 3
                                         ? opts->max_stale_ms * 1000 : 0 };
    const scanned *known = a.spare != NULL ? &a.spare->scanned : NULL;
    bool rescan = known == NULL || !scanned_matches(known, sql, &a);
    size_t len = rescan ? strlen(sql) : known->sql_len;
    a.len = len;
    a.known = !rescan && known->compiled ? known : NULL;
    if (rescan) {
        rc = scan_template(&s, sql, len, err);
    } else {
        s.extract = known->extract;
        for (size_t i = 0; i < known->nholes && rc == PIER_OK; i++)
            rc = add_hole(&s, known->holes[i].offset, known->holes[i].len,
                          known->holes[i].board, known->holes[i].kind, err);
    }
    /* EXTRACT(field FROM x) becomes date_part('field', x), which SQLite
     * can read, in a text of the same length: the placeholders and every
     * offset stay where they are, and what is remembered of the template
     * is the text as written. */
    char *rewritten = NULL;
    bool oom = false;
    if (rc == PIER_OK && s.extract)
        rewritten = pier__sql_rewrite(sql, len, &oom);
    if (oom)
        rc = pier__oom(err);
    if (rewritten != NULL)
        a.sql = rewritten;
    /* The indexes and declared tables are the embedded lake's. */
    for (size_t i = 0; rc == PIER_OK && i < s.nholes; i++)
        if (s.holes[i].kind != PIER__HOLE_BOARD)
            rc = pier__engine_embedded(engine, "full-text indexes and "
                                       "declared tables in a query", err);
    if (rc == PIER_OK && pier__tx_open_here(engine))
        rc = pier__fail(err, PIER_E_INVALID_ARGUMENT,
                        "this thread has a transaction open on the engine: "
                        "query after it ends");
    if (rc == PIER_OK && opts->min_watermark > 0)
        rc = check_watermark(engine, opts->min_watermark, err);
    pier__reader *reader = NULL;
    if (rc == PIER_OK)
        rc = engine->lake->ops->reader_open(engine->lake, &reader, err);
    pier_cursor *c = NULL;
    if (rc == PIER_OK)
        rc = run_query(engine, &a, reader, params, &c, err);
    /* The spare knew this template; another cursor learns it. Either
     * remembers this compile. */
    if (rc == PIER_OK) {
        if (rescan || !a.made_of_spare)
            scanned_keep(&c->scanned, sql, len, &a, &s);
        c->scanned.compiled = true;
        c->scanned.version = a.version;
        c->scanned.shape = a.shape;
    }
    if (s.holes != s.inline_holes)
        free(s.holes);
    free(rewritten);
    cursor_release(a.spare);                /* if no cursor was made */
    if (rc != PIER_OK) {
        engine->lake->ops->reader_close(reader);
        return rc == PIER_E_QUERY_FAILED ? board_by_name(engine, err) : rc;
    }
    atomic_fetch_add(&engine->feed.queries, 1);
    *out = c;
    return PIER_OK;
}

/* ---- the cursor ---- */

pier_status pier__cursor_of_memrows(pier_cursor **out, pier_engine *e,
                                    pier__memrows *m, pier_error *err)
{
    pier_cursor *c = calloc(1, sizeof *c);
    if (c == NULL) {
        pier__memrows_free(m);
        return pier__oom(err);
    }
    c->engine = e;
    c->mem = m;
    *out = c;
    return PIER_OK;
}

PIER_API int64_t pier_cursor_changes(const pier_cursor *cursor)
{
    return cursor != NULL && cursor->mem != NULL
               ? pier__memrows_changes(cursor->mem)
               : 0;
}

PIER_API size_t pier_cursor_column_count(const pier_cursor *cursor)
{
    if (cursor != NULL && cursor->mem != NULL)
        return pier__memrows_column_count(cursor->mem);
    return cursor != NULL ? cursor->ncolumns : 0;
}

PIER_API const char *pier_cursor_column_name(const pier_cursor *cursor,
                                             size_t i)
{
    if (cursor != NULL && cursor->mem != NULL)
        return pier__memrows_column_name(cursor->mem, i);
    return cursor != NULL && i < cursor->ncolumns ? cursor->row.names[i]
                                                  : NULL;
}

PIER_API const char *pier_cursor_column_type(const pier_cursor *cursor,
                                             size_t i)
{
    if (cursor != NULL && cursor->mem != NULL)
        return pier__memrows_column_type(cursor->mem, i);
    if (cursor == NULL || i >= cursor->ncolumns ||
        cursor->types[i].kind == PIER_KIND_NULL)
        return NULL;
    /* Static, or the cursor's own copy of a dialect type's name. */
    return pier__type_name(cursor->types[i]);
}

PIER_API pier_status pier_cursor_next(const pier_row **row,
                                      pier_cursor *cursor, pier_error *err)
{
    pier__error_clear(err);
    if (row == NULL || cursor == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_cursor_next needs a cursor and an output");
    *row = NULL;
    pier_cursor *c = cursor;
    if (c->mem != NULL) {
        *row = pier__memrows_next(c->mem);
        return PIER_OK;
    }
    if (c->failed != PIER_OK)
        return pier__fail(err, c->failed,
                          "the query failed earlier; it has no more rows");
    if (pier__guard_interrupted(&c->guard)) {
        c->done = true;
        c->failed = pier__fail(err, PIER_E_INTERRUPTED,
                               "the query was interrupted");
        return c->failed;
    }
    const pier__cell *cells = c->first;
    c->first = NULL;
    if (cells == NULL) {
        if (c->done)
            return PIER_OK;
        pier_status rc = c->lake->ops->reader_step(c->reader, &cells, err);
        if (rc != PIER_OK || cells == NULL) {
            c->done = true;
            c->failed = rc;
            return rc;
        }
    }
    pier__arena_reset(&c->row.arena);
    for (size_t i = 0; i < c->ncolumns; i++) {
        pier_value *v = &c->row.values[i];
        /* The cells' texts are SQLite's (sqlite3_value_text: ended with
         * a NUL), valid until the statement steps again: see the top. */
        pier__fit fit = c->types[i].kind != PIER_KIND_NULL
            ? pier__cell_view(v, &cells[i], c->types[i], &c->row.arena)
            : PIER__FIT_CONFLICT;
        /* A computed value reads as what SQLite holds; so does one that is
         * no encoding of its column's type: a compound SELECT takes its
         * columns' origins from its first arm, and a value from another
         * arm may be anything. */
        if (fit == PIER__FIT_CONFLICT)
            fit = pier__value_read(v, &cells[i], NULL, &c->row.arena,
                                   true);
        if (fit != PIER__FIT_OK) {
            c->failed = pier__oom(err);
            return c->failed;
        }
    }
    *row = &c->row;
    return PIER_OK;
}

PIER_API void pier_cursor_interrupt(pier_cursor *cursor)
{
    /* Only a flag: see the top of store/sqlite_guard.c. */
    if (cursor != NULL && cursor->mem == NULL)
        atomic_store(&cursor->guard.interrupted, true);
}

PIER_API void pier_cursor_close(pier_cursor *cursor)
{
    if (cursor == NULL)
        return;
    if (cursor->mem != NULL) {
        pier__memrows_free(cursor->mem);
        free(cursor);
        return;
    }
    cursor->lake->ops->reader_close(cursor->reader);
    cursor_release(cursor);
}
