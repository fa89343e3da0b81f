/*
 * parse.c: the SQL front-end (sql.h): splits a script into statements,
 * names each one's kind from its leading keywords and reads the heads
 * Pier must understand itself.
 *
 * A statement is tokenized whole (lex.c) into the parser's token array,
 * each token carrying its parentheses' depth, before anything is read: a
 * head is then read by index, looking ahead as far as it needs, and a
 * body is skipped as a balanced group. The array is reused by the next
 * statement; what the script keeps lives in its arena.
 *
 * Faults come in a fixed order, so that every script has one answer: a
 * statement of a refused kind (EntityNotAllowed) first, whatever follows
 * its leading keywords; otherwise the earlier of a token fault (an
 * unterminated string, a ')' closing nothing, a '(' never closed) and a
 * fault of the head. The first statement at fault ends the parse.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "sql/lex.h"
#include "sql/sql.h"

typedef struct parser {
    const char *sql;
    size_t n;
    pier__arena *arena;        /* the script's */
    pier_error *err;
    pier__token *toks;         /* the statement's tokens (malloc) */
    size_t ntoks;
    size_t cap;
    size_t fail_offset;        /* where the last QueryFailed points (err
                                  may be NULL) */
} parser;

/* A fault found while tokenizing a statement, reported only if the
 * statement is not refused first. */
typedef struct token_fault {
    bool set;
    bool bad;                  /* a PIER__TK_BAD: show where it begins */
    size_t offset;
    const char *what;
} token_fault;

/* ---- messages ---- */

/* How much of s[0..len) a message shows: at most `max` bytes, up to the
 * first line break, cut at a UTF-8 boundary (messages are one line). */
static size_t snippet(const char *s, size_t len, size_t max)
{
    size_t k = 0;
    while (k < len && k < max && s[k] != '\n' && s[k] != '\r')
        k++;
    if (k < len)
        while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
            k--;
    return k;
}

static pier_status fail_at(parser *p, size_t offset, const char *fmt, ...)
    PIER__PRINTF(3, 4);

static pier_status fail_at(parser *p, size_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pier__failv(p->err, PIER_E_QUERY_FAILED, fmt, ap);
    va_end(ap);
    if (p->err != NULL)
        p->err->offset = (int64_t)offset;
    p->fail_offset = offset;
    return PIER_E_QUERY_FAILED;
}

/* The statement's end: where "found the end of the statement" points. */
static size_t stmt_end(const parser *p)
{
    return p->ntoks > 0 ? p->toks[p->ntoks - 1].end : p->n;
}

/* "expected <what>, found '<token i>'", pointing at token i. */
static pier_status expected(parser *p, size_t i, const char *what)
{
    if (i >= p->ntoks)
        return fail_at(p, stmt_end(p),
                       "expected %s, found the end of the statement", what);
    const pier__token *t = &p->toks[i];
    size_t len = t->end - t->start;
    size_t show = snippet(p->sql + t->start, len, 40);
    /* The script's bytes are shown with control bytes and invalid UTF-8
     * escaped, so that the message stays one line of text. */
    pier__buf q;
    pier__buf_init(&q);
    pier__quote_name(&q, p->sql + t->start, show);
    pier_status rc = fail_at(p, t->start, "expected %s, found '%s%s'", what,
                             q.p != NULL ? q.p : "",
                             show < len ? "..." : "");
    pier__buf_free(&q);
    return rc;
}

/* EntityNotAllowed for the statement, pointing at its start. */
static pier_status refuse(parser *p, const char *what, const char *why)
{
    pier__fail(p->err, PIER_E_ENTITY_NOT_ALLOWED,
               "%s statements are not allowed: %s", what, why);
    if (p->err != NULL)
        p->err->offset = (int64_t)p->toks[0].start;
    return PIER_E_ENTITY_NOT_ALLOWED;
}

/* As refuse(), naming the statement by its first `count` words as
 * written (in capitals): a kind nobody listed. */
static pier_status refuse_words(parser *p, size_t count, const char *why)
{
    char word[32];
    pier__buf what;
    pier__buf_init(&what);
    for (size_t k = 0; k < count && k < p->ntoks; k++) {
        const pier__token *t = &p->toks[k];
        if (t->kind != PIER__TK_WORD)
            break;
        size_t len = snippet(p->sql + t->start, t->end - t->start, 24);
        if (k > 0)
            pier__buf_putc(&what, ' ');
        for (size_t c = 0; c < len; c++) {
            char ch = p->sql[t->start + c];
            word[c] = ch >= 'a' && ch <= 'z' ? (char)(ch - 32) : ch;
        }
        /* A word may hold bytes that are not text: escaped. */
        pier__quote_name(&what, word, len);
    }
    pier_status rc = refuse(p, what.p != NULL ? what.p : "", why);
    pier__buf_free(&what);
    return rc;
}

/* ---- tokens ---- */

static bool kind_at(const parser *p, size_t i, pier__tk kind)
{
    return i < p->ntoks && p->toks[i].kind == kind;
}

/* Whether token i is the bare word `w` (lower case), in any case. */
static bool word(const parser *p, size_t i, const char *w)
{
    if (!kind_at(p, i, PIER__TK_WORD))
        return false;
    const pier__token *t = &p->toks[i];
    return pier__name_eq(p->sql + t->start, t->end - t->start, w,
                         strlen(w));
}

/* Whether token i can be a name: SQLite's `nm` (a word, a quoted name,
 * or a string). */
static bool name_at(const parser *p, size_t i)
{
    return kind_at(p, i, PIER__TK_WORD) || kind_at(p, i, PIER__TK_QUOTED) ||
           kind_at(p, i, PIER__TK_STRING);
}

/* From the '(' at *i to the token after its ')'. False if it is never
 * closed (a token fault then says so). */
static bool skip_group(const parser *p, size_t *i)
{
    size_t depth = p->toks[*i].depth;
    for (size_t k = *i + 1; k < p->ntoks; k++) {
        if (p->toks[k].kind == PIER__TK_RP && p->toks[k].depth == depth) {
            *i = k + 1;
            return true;
        }
    }
    return false;
}

/* ---- the arena ---- */

static void *zalloc(parser *p, size_t size)
{
    void *m = pier__arena_alloc(p->arena, size);
    if (m != NULL)
        memset(m, 0, size);
    return m;
}

/* Room for one more of `size`-byte items in an array of the arena: a
 * larger copy when full (the old one stays in the arena, unused; doubling
 * bounds that waste by what is kept). NULL when out of memory. */
static void *grow(parser *p, void *items, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return items;
    size_t ncap = *cap > 0 ? *cap * 2 : 8;
    if (ncap > SIZE_MAX / size)
        return NULL;
    void *m = pier__arena_alloc(p->arena, ncap * size);
    if (m == NULL)
        return NULL;
    if (n > 0)
        memcpy(m, items, n * size);
    *cap = ncap;
    return m;
}

/* sql[from..to) copied into the arena. */
static char *slice(parser *p, size_t from, size_t to)
{
    return pier__arena_strndup(p->arena, p->sql + from, to - from);
}

/* Token i (name_at) as the name it stands for: quotes taken off, doubled
 * ones undoubled ("a""b" is a"b; [a""b] is a""b). */
static char *unquote(parser *p, size_t i)
{
    const pier__token *t = &p->toks[i];
    const char *s = p->sql + t->start;
    size_t len = t->end - t->start;
    if (t->kind == PIER__TK_WORD)
        return pier__arena_strndup(p->arena, s, len);
    char q = s[0], close = q == '[' ? ']' : q;
    char *out = pier__arena_alloc(p->arena, len);
    if (out == NULL)
        return NULL;
    size_t o = 0;
    /* The tokenizer saw every quote inside the two outer ones doubled. */
    for (size_t k = 1; k + 1 < len; k++) {
        out[o++] = s[k];
        if (q != '[' && s[k] == close)
            k++;
    }
    out[o] = '\0';
    return out;
}

/* ---- pieces of heads ---- */

static pier_status expect_end(parser *p, size_t i)
{
    return i < p->ntoks ? expected(p, i, "the end of the statement")
                        : PIER_OK;
}

/* [schema.]name at *i into st->schema, st->name and st->name_offset. */
static pier_status qualified_name(parser *p, size_t *i, pier__sql_stmt *st,
                                  const char *what)
{
    if (!name_at(p, *i))
        return expected(p, *i, what);
    if (kind_at(p, *i + 1, PIER__TK_DOT)) {
        if (!name_at(p, *i + 2))
            return expected(p, *i + 2, what);
        if ((st->schema = unquote(p, *i)) == NULL)
            return pier__oom(p->err);
        *i += 2;
    }
    if ((st->name = unquote(p, *i)) == NULL)
        return pier__oom(p->err);
    st->name_offset = p->toks[*i].start;
    (*i)++;
    return PIER_OK;
}

/* An optional IF NOT EXISTS (with_not) or IF EXISTS at *i. */
static pier_status if_exists(parser *p, size_t *i, bool with_not,
                             bool *flag)
{
    if (!word(p, *i, "if"))
        return PIER_OK;
    (*i)++;
    if (with_not) {
        if (!word(p, *i, "not"))
            return expected(p, *i, "NOT EXISTS after IF");
        (*i)++;
    }
    if (!word(p, *i, "exists"))
        return expected(p, *i, with_not ? "EXISTS after IF NOT"
                                        : "EXISTS after IF");
    (*i)++;
    *flag = true;
    return PIER_OK;
}

/* The words that end a column's type and begin its constraints. */
static bool column_keyword(const parser *p, size_t i)
{
    static const char *const words[] = {
        "constraint", "primary", "not", "null", "unique", "check",
        "default", "collate", "references", "generated", "as", "readonly",
    };
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
        if (word(p, i, words[k]))
            return true;
    return false;
}

/* Whether the clause toks[s..e) of a table body is a table constraint:
 * [CONSTRAINT name] then PRIMARY KEY (, UNIQUE (, CHECK ( or FOREIGN KEY (
 * (named, the keyword is enough). A column whose name is one of these
 * words must be quoted in SQLite too, but "primary_x" is a name. */
static bool table_constraint(const parser *p, size_t s, size_t e)
{
    if (word(p, s, "constraint")) {
        size_t k = s + 2;
        return name_at(p, s + 1) && k < e &&
               (word(p, k, "primary") || word(p, k, "unique") ||
                word(p, k, "check") || word(p, k, "foreign"));
    }
    if (word(p, s, "primary") || word(p, s, "foreign"))
        return s + 2 < e && word(p, s + 1, "key") &&
               kind_at(p, s + 2, PIER__TK_LP);
    if (word(p, s, "unique") || word(p, s, "check"))
        return s + 1 < e && kind_at(p, s + 1, PIER__TK_LP);
    return false;
}

/*
 * The column constraints toks[j..e) of a column whose name is at depth
 * `depth`: their text with READONLY taken out, and what they say. Only
 * words at the column's own depth count, and not the token after DEFAULT,
 * COLLATE, CONSTRAINT, REFERENCES or MATCH, which is a value or a name
 * (DEFAULT readonly is a default).
 */
static pier_status column_constraints(parser *p, size_t j, size_t e,
                                      size_t depth, pier__sql_column *col)
{
    if (j >= e) {
        col->constraints = pier__arena_strndup(p->arena, "", 0);
        return col->constraints != NULL ? PIER_OK : pier__oom(p->err);
    }
    size_t from = p->toks[j].start, to = p->toks[e - 1].end;
    char *out = pier__arena_alloc(p->arena, to - from + 1);
    if (out == NULL)
        return pier__oom(p->err);
    size_t o = 0, pos = from;
    bool fk = false;
    for (size_t k = j; k < e; k++) {
        const pier__token *t = &p->toks[k];
        if (t->depth != depth || t->kind != PIER__TK_WORD)
            continue;
        if (word(p, k, "readonly")) {
            /* The word goes, and the space after it (or, last, the space
             * before it, which the trim below takes). */
            col->readonly = true;
            memcpy(out + o, p->sql + pos, t->start - pos);
            o += t->start - pos;
            pos = k + 1 < e ? p->toks[k + 1].start : t->end;
        } else if (word(p, k, "primary") && word(p, k + 1, "key")) {
            col->primary_key = true;
            k++;
        } else if (word(p, k, "generated") ||
                   (word(p, k, "as") && kind_at(p, k + 1, PIER__TK_LP))) {
            col->generated = true;
        } else if (word(p, k, "collate")) {
            col->collate = true;
            k++;
        } else if (word(p, k, "references")) {
            fk = true;
            k++;
        } else if (word(p, k, "default") || word(p, k, "constraint") ||
                   word(p, k, "match")) {
            k++;
        } else if (fk && word(p, k, "on") && word(p, k + 1, "update")) {
            k += 2;
            if (word(p, k, "cascade") ||
                (word(p, k, "set") &&
                 (word(p, k + 1, "null") || word(p, k + 1, "default"))))
                col->references_update = true;
        }
    }
    memcpy(out + o, p->sql + pos, to - pos);
    o += to - pos;
    while (o > 0 && (out[o - 1] == ' ' || out[o - 1] == '\t' ||
                     out[o - 1] == '\n' || out[o - 1] == '\r' ||
                     out[o - 1] == '\f'))
        o--;
    out[o] = '\0';
    col->constraints = out;
    return PIER_OK;
}

/* The column definition toks[s..e): name, type spelling, constraints. */
static pier_status column_def(parser *p, size_t s, size_t e,
                              pier__sql_column *col)
{
    if (!name_at(p, s))
        return expected(p, s, "a column's name");
    const pier__token *name = &p->toks[s];
    if ((col->name = unquote(p, s)) == NULL)
        return pier__oom(p->err);
    col->name_offset = name->start;
    /* The type: everything up to the first constraint keyword at the
     * column's own depth, parentheses, quotes and brackets included. */
    size_t k = s + 1;
    while (k < e && !(p->toks[k].depth == name->depth &&
                      column_keyword(p, k)))
        k++;
    if (k > s + 1) {
        col->type_offset = p->toks[s + 1].start;
        col->type = slice(p, p->toks[s + 1].start, p->toks[k - 1].end);
    } else {
        col->type_offset = name->end;
        col->type = slice(p, name->end, name->end);
    }
    if (col->type == NULL)
        return pier__oom(p->err);
    return column_constraints(p, k, e, name->depth, col);
}

/* ---- statements ---- */

/* The body of CREATE TABLE, from the '(' at lp to the ')' at rp. */
static pier_status table_body(parser *p, size_t lp, size_t rp,
                              pier__sql_table *t)
{
    size_t depth = p->toks[lp].depth + 1;
    size_t start = lp + 1, cons = 0, cap = 0;
    bool constraints = false;
    for (size_t k = lp + 1; k <= rp; k++) {
        if (k < rp && !(p->toks[k].kind == PIER__TK_COMMA &&
                        p->toks[k].depth == depth))
            continue;
        if (start == k)
            return expected(p, k, constraints ? "a table constraint"
                                              : "a column definition");
        /* Columns come first; from the first table constraint on, all
         * is constraints (SQLite takes them only there). */
        if (!constraints && table_constraint(p, start, k)) {
            constraints = true;
            cons = start;
        }
        if (!constraints) {
            t->columns = grow(p, t->columns, t->ncolumns, &cap,
                              sizeof *t->columns);
            if (t->columns == NULL)
                return pier__oom(p->err);
            pier__sql_column *col = &t->columns[t->ncolumns++];
            memset(col, 0, sizeof *col);
            pier_status rc = column_def(p, start, k, col);
            if (rc != PIER_OK)
                return rc;
        }
        start = k + 1;
    }
    if (t->ncolumns == 0)
        return expected(p, lp + 1, "a column definition before the table "
                                   "constraints");
    t->constraints = constraints
        ? slice(p, p->toks[cons].start, p->toks[rp - 1].end)
        : slice(p, 0, 0);
    return t->constraints != NULL ? PIER_OK : pier__oom(p->err);
}

/* Table options after CREATE TABLE's ')': WITHOUT ROWID, STRICT, comma
 * separated. */
static pier_status table_options(parser *p, size_t i, pier__sql_table *t)
{
    if (i >= p->ntoks)
        return PIER_OK;
    for (;;) {
        if (word(p, i, "without") && word(p, i + 1, "rowid")) {
            t->without_rowid = true;
            i += 2;
        } else if (word(p, i, "strict")) {
            t->strict = true;
            i++;
        } else {
            return expected(p, i, "a table option (WITHOUT ROWID or "
                                  "STRICT)");
        }
        if (i >= p->ntoks)
            return PIER_OK;
        if (!kind_at(p, i, PIER__TK_COMMA))
            return expected(p, i, "',' or the end of the statement after "
                                  "a table option");
        i++;
    }
}

static pier_status create_table(parser *p, size_t i, pier__sql_stmt *st)
{
    st->kind = PIER__STMT_CREATE_TABLE;
    pier_status rc = if_exists(p, &i, true, &st->if_not_exists);
    if (rc == PIER_OK)
        rc = qualified_name(p, &i, st, "the table's name after CREATE "
                                       "TABLE");
    if (rc != PIER_OK)
        return rc;
    pier__sql_table *t = zalloc(p, sizeof *t);
    if (t == NULL)
        return pier__oom(p->err);
    st->create = t;
    if (word(p, i, "as")) {
        t->as_select = true;
        t->constraints = slice(p, 0, 0);
        return t->constraints != NULL ? PIER_OK : pier__oom(p->err);
    }
    if (!kind_at(p, i, PIER__TK_LP))
        return expected(p, i, "'(' and the table's columns, or AS SELECT, "
                              "after the table's name");
    size_t after = i;
    if (!skip_group(p, &after))
        return expected(p, p->ntoks, "')' after the table's columns");
    rc = table_body(p, i, after - 1, t);
    if (rc != PIER_OK)
        return rc;
    return table_options(p, after, t);
}

static pier_status create_index(parser *p, size_t i, pier__sql_stmt *st)
{
    st->kind = PIER__STMT_CREATE_INDEX;
    pier_status rc = if_exists(p, &i, true, &st->if_not_exists);
    if (rc == PIER_OK)
        rc = qualified_name(p, &i, st, "the index's name after CREATE "
                                       "INDEX");
    if (rc != PIER_OK)
        return rc;
    if (!word(p, i, "on"))
        return expected(p, i, "ON after the index's name");
    i++;
    if (!name_at(p, i))
        return expected(p, i, "the table's name after ON");
    if ((st->table = unquote(p, i)) == NULL)
        return pier__oom(p->err);
    i++;
    if (!kind_at(p, i, PIER__TK_LP))
        return expected(p, i, "'(' and the indexed columns after the "
                              "table's name");
    return PIER_OK;
}

/* CREATE BOARD [IF NOT EXISTS] id [(column type [INFERRED], ...)]
 * [STRICT]: the type is everything between the name and INFERRED or the
 * ',' (a board's types take no constraints). */
static pier_status create_board(parser *p, size_t i, pier__sql_stmt *st)
{
    st->kind = PIER__STMT_CREATE_BOARD;
    pier_status rc = if_exists(p, &i, true, &st->if_not_exists);
    if (rc != PIER_OK)
        return rc;
    if (!name_at(p, i))
        return expected(p, i, "the board's id after CREATE BOARD");
    if ((st->name = unquote(p, i)) == NULL)
        return pier__oom(p->err);
    st->name_offset = p->toks[i].start;
    i++;
    pier__sql_table *t = zalloc(p, sizeof *t);
    if (t == NULL || (t->constraints = slice(p, 0, 0)) == NULL)
        return pier__oom(p->err);
    st->create = t;
    if (kind_at(p, i, PIER__TK_LP)) {
        size_t after = i, cap = 0;
        if (!skip_group(p, &after))
            return expected(p, p->ntoks, "')' after the board's columns");
        size_t rp = after - 1, depth = p->toks[i].depth + 1, start = i + 1;
        for (size_t k = i + 1; k <= rp; k++) {
            if (k < rp && !(p->toks[k].kind == PIER__TK_COMMA &&
                            p->toks[k].depth == depth))
                continue;
            if (start == k || !name_at(p, start))
                return expected(p, start, "a column's name and type");
            t->columns = grow(p, t->columns, t->ncolumns, &cap,
                              sizeof *t->columns);
            if (t->columns == NULL)
                return pier__oom(p->err);
            pier__sql_column *col = &t->columns[t->ncolumns++];
            memset(col, 0, sizeof *col);
            col->name = unquote(p, start);
            col->name_offset = p->toks[start].start;
            size_t end = k;
            if (end > start + 2 && word(p, end - 1, "inferred")) {
                col->inferred = true;
                end--;
            }
            col->type_offset = end > start + 1 ? p->toks[start + 1].start
                                               : p->toks[start].end;
            col->type = end > start + 1
                            ? slice(p, p->toks[start + 1].start,
                                    p->toks[end - 1].end)
                            : slice(p, p->toks[start].end,
                                    p->toks[start].end);
            col->constraints = slice(p, 0, 0);
            if (col->name == NULL || col->type == NULL ||
                col->constraints == NULL)
                return pier__oom(p->err);
            start = k + 1;
        }
        i = after;
    }
    if (word(p, i, "strict")) {
        t->strict = true;
        i++;
    }
    return expect_end(p, i);
}

static pier_status create(parser *p, pier__sql_stmt *st)
{
    size_t i = 1;
    if (word(p, i, "temp") || word(p, i, "temporary")) {
        st->temp = true;
        i++;
    }
    if (word(p, i, "trigger"))
        return refuse(p, "CREATE TRIGGER", "triggers are not supported");
    if (word(p, i, "table"))
        return create_table(p, i + 1, st);
    if (word(p, i, "board") && !st->temp)
        return create_board(p, i + 1, st);
    if (word(p, i, "view")) {
        st->kind = PIER__STMT_CREATE_VIEW;
        i++;
        pier_status rc = if_exists(p, &i, true, &st->if_not_exists);
        if (rc != PIER_OK)
            return rc;
        return qualified_name(p, &i, st, "the view's name after CREATE "
                                         "VIEW");
    }
    if (st->temp) {
        /* An index is temporary when its table is; VIRTUAL takes no
         * TEMP either. */
        if (kind_at(p, i, PIER__TK_WORD) && !word(p, i, "index") &&
            !word(p, i, "unique") && !word(p, i, "virtual"))
            return refuse_words(p, i + 1, "CREATE makes a TABLE, an INDEX "
                                          "or a VIEW");
        return expected(p, i, "TABLE or VIEW after CREATE TEMP");
    }
    if (word(p, i, "virtual"))
        return refuse(p, "CREATE VIRTUAL TABLE",
                      "virtual tables are not supported");
    if (word(p, i, "unique")) {
        st->unique = true;
        i++;
        if (!word(p, i, "index"))
            return expected(p, i, "INDEX after CREATE UNIQUE");
    }
    if (word(p, i, "index"))
        return create_index(p, i + 1, st);
    if (kind_at(p, i, PIER__TK_WORD))
        return refuse_words(p, i + 1, "CREATE makes a TABLE, an INDEX, "
                                      "a VIEW or a BOARD");
    return expected(p, i, "TABLE, INDEX, VIEW or BOARD after CREATE");
}

static pier_status drop(parser *p, pier__sql_stmt *st)
{
    if (word(p, 1, "table"))
        st->kind = PIER__STMT_DROP_TABLE;
    else if (word(p, 1, "index"))
        st->kind = PIER__STMT_DROP_INDEX;
    else if (word(p, 1, "view"))
        st->kind = PIER__STMT_DROP_VIEW;
    else if (word(p, 1, "trigger"))
        return refuse(p, "DROP TRIGGER", "triggers are not supported");
    else if (kind_at(p, 1, PIER__TK_WORD))
        return refuse_words(p, 2, "DROP removes a TABLE, an INDEX or a "
                                  "VIEW");
    else
        return expected(p, 1, "TABLE, INDEX or VIEW after DROP");
    size_t i = 2;
    pier_status rc = if_exists(p, &i, false, &st->if_exists);
    if (rc == PIER_OK)
        rc = qualified_name(p, &i, st,
                            st->kind == PIER__STMT_DROP_TABLE
                                ? "the table's name after DROP TABLE"
                            : st->kind == PIER__STMT_DROP_INDEX
                                ? "the index's name after DROP INDEX"
                                : "the view's name after DROP VIEW");
    return rc == PIER_OK ? expect_end(p, i) : rc;
}

/* ALTER TABLE t ADD [COLUMN]: one column definition, from i to the end. */
static pier_status add_column(parser *p, size_t i, pier__sql_stmt *st)
{
    st->kind = PIER__STMT_ADD_COLUMN;
    if (i >= p->ntoks)
        return expected(p, i, "a column definition after ADD COLUMN");
    for (size_t k = i; k < p->ntoks; k++)
        if (p->toks[k].kind == PIER__TK_COMMA &&
            p->toks[k].depth == p->toks[i].depth)
            return expected(p, k, "the end of the statement (ADD COLUMN "
                                  "adds one column)");
    if (table_constraint(p, i, p->ntoks))
        return expected(p, i, "a column definition after ADD COLUMN (a "
                              "table constraint cannot be added)");
    st->add = zalloc(p, sizeof *st->add);
    if (st->add == NULL)
        return pier__oom(p->err);
    return column_def(p, i, p->ntoks, st->add);
}

/* A column's name at *i into *out. */
static pier_status column_name(parser *p, size_t *i, char **out,
                               const char *what)
{
    if (!name_at(p, *i))
        return expected(p, *i, what);
    if ((*out = unquote(p, *i)) == NULL)
        return pier__oom(p->err);
    (*i)++;
    return PIER_OK;
}

static pier_status alter(parser *p, pier__sql_stmt *st)
{
    if (!word(p, 1, "table")) {
        if (kind_at(p, 1, PIER__TK_WORD))
            return refuse_words(p, 2, "ALTER changes a TABLE");
        return expected(p, 1, "TABLE after ALTER");
    }
    size_t i = 2;
    pier_status rc = qualified_name(p, &i, st, "the table's name after "
                                               "ALTER TABLE");
    if (rc != PIER_OK)
        return rc;
    if (word(p, i, "add")) {
        i++;
        if (word(p, i, "column"))
            i++;
        return add_column(p, i, st);
    }
    if (word(p, i, "rename")) {
        i++;
        /* As SQLite's grammar reads it: TO here is the keyword. */
        if (word(p, i, "to")) {
            st->kind = PIER__STMT_RENAME_TABLE;
            i++;
            rc = column_name(p, &i, &st->new_name,
                             "the table's new name after RENAME TO");
            return rc == PIER_OK ? expect_end(p, i) : rc;
        }
        st->kind = PIER__STMT_RENAME_COLUMN;
        if (word(p, i, "column"))
            i++;
        rc = column_name(p, &i, &st->column, "the column's name after "
                                             "RENAME COLUMN");
        if (rc != PIER_OK)
            return rc;
        if (!word(p, i, "to"))
            return expected(p, i, "TO after the column's name");
        i++;
        rc = column_name(p, &i, &st->new_name, "the column's new name "
                                               "after TO");
        return rc == PIER_OK ? expect_end(p, i) : rc;
    }
    if (word(p, i, "drop")) {
        st->kind = PIER__STMT_DROP_COLUMN;
        i++;
        if (word(p, i, "column"))
            i++;
        rc = column_name(p, &i, &st->column, "the column's name after "
                                             "DROP COLUMN");
        return rc == PIER_OK ? expect_end(p, i) : rc;
    }
    return expected(p, i, "ADD, RENAME or DROP after the table's name");
}

/* [OR conflict-action] after INSERT or UPDATE. */
static pier_status or_action(parser *p, size_t *i, const char *what)
{
    if (!word(p, *i, "or"))
        return PIER_OK;
    (*i)++;
    if (!kind_at(p, *i, PIER__TK_WORD))
        return expected(p, *i, what);
    (*i)++;
    return PIER_OK;
}

/* INSERT, REPLACE, UPDATE or DELETE at i (alone or after WITH). */
static pier_status write_stmt(parser *p, size_t i, pier__sql_stmt *st)
{
    pier_status rc = PIER_OK;
    if (word(p, i, "update")) {
        st->kind = PIER__STMT_UPDATE;
        i++;
        rc = or_action(p, &i, "ROLLBACK, ABORT, REPLACE, FAIL or IGNORE "
                              "after UPDATE OR");
        return rc == PIER_OK ? qualified_name(p, &i, st, "the table's "
                                              "name after UPDATE") : rc;
    }
    if (word(p, i, "delete")) {
        st->kind = PIER__STMT_DELETE;
        i++;
        if (!word(p, i, "from"))
            return expected(p, i, "FROM after DELETE");
        i++;
        return qualified_name(p, &i, st, "the table's name after DELETE "
                                         "FROM");
    }
    st->kind = PIER__STMT_INSERT;
    if (word(p, i, "insert")) {
        i++;
        rc = or_action(p, &i, "ROLLBACK, ABORT, REPLACE, FAIL or IGNORE "
                              "after INSERT OR");
        if (rc != PIER_OK)
            return rc;
    } else {
        assert(word(p, i, "replace"));
        i++;
    }
    if (!word(p, i, "into"))
        return expected(p, i, "INTO");
    i++;
    return qualified_name(p, &i, st, "the table's name after INTO");
}

/* WITH [RECURSIVE] name [(cols)] AS [[NOT] MATERIALIZED] (...), ...
 * then the statement it is for. */
static pier_status with(parser *p, pier__sql_stmt *st)
{
    size_t i = 1;
    if (word(p, i, "recursive"))
        i++;
    for (;;) {
        if (!name_at(p, i))
            return expected(p, i, "the name of a common table expression");
        i++;
        if (kind_at(p, i, PIER__TK_LP) && !skip_group(p, &i))
            return expected(p, p->ntoks, "')' after the column names");
        if (!word(p, i, "as"))
            return expected(p, i, "AS in the WITH clause");
        i++;
        if (word(p, i, "not")) {
            i++;
            if (!word(p, i, "materialized"))
                return expected(p, i, "MATERIALIZED after NOT");
            i++;
        } else if (word(p, i, "materialized")) {
            i++;
        }
        if (!kind_at(p, i, PIER__TK_LP))
            return expected(p, i, "'(' and a SELECT after AS");
        if (!skip_group(p, &i))
            return expected(p, p->ntoks, "')' after the WITH clause's "
                                         "SELECT");
        if (!kind_at(p, i, PIER__TK_COMMA))
            break;
        i++;
    }
    if (word(p, i, "select") || word(p, i, "values")) {
        st->kind = PIER__STMT_SELECT;
        return PIER_OK;
    }
    if (word(p, i, "insert") || word(p, i, "replace") ||
        word(p, i, "update") || word(p, i, "delete"))
        return write_stmt(p, i, st);
    return expected(p, i, "SELECT, VALUES, INSERT, REPLACE, UPDATE or "
                          "DELETE after the WITH clause");
}

/* [TRANSACTION [name]] after BEGIN, COMMIT, END or ROLLBACK; TO is never
 * the name (ROLLBACK TRANSACTION TO x). */
static size_t transaction_opt(const parser *p, size_t i)
{
    if (!word(p, i, "transaction"))
        return i;
    i++;
    if (name_at(p, i) && !word(p, i, "to"))
        i++;
    return i;
}

static pier_status transaction(parser *p, pier__sql_stmt *st)
{
    size_t i = 1;
    if (word(p, 0, "begin")) {
        st->kind = PIER__STMT_BEGIN;
        if (word(p, i, "deferred") || word(p, i, "immediate") ||
            word(p, i, "exclusive"))
            i++;
    } else if (word(p, 0, "rollback")) {
        st->kind = PIER__STMT_ROLLBACK;
        i = transaction_opt(p, i);
        if (word(p, i, "to"))
            return refuse(p, "ROLLBACK TO", "savepoints are not supported");
        return expect_end(p, i);
    } else {
        st->kind = PIER__STMT_COMMIT;
    }
    return expect_end(p, transaction_opt(p, i));
}

/* Statements no script may run, by their first word. */
static const struct refusal {
    const char *word;
    const char *name;
    const char *why;
} refusals[] = {
    { "pragma", "PRAGMA", "the engine keeps its database's settings" },
    { "attach", "ATTACH", "a script works on its own lake's database" },
    { "detach", "DETACH", "a script works on its own lake's database" },
    { "vacuum", "VACUUM", "the engine maintains its database itself" },
    { "analyze", "ANALYZE", "the engine maintains its database itself" },
    { "reindex", "REINDEX", "the engine maintains its database itself" },
    { "savepoint", "SAVEPOINT", "savepoints are not supported" },
    { "release", "RELEASE", "savepoints are not supported" },
    { "explain", "EXPLAIN", "query plans are not part of the dialect" },
};

/* Reads the head of the statement in p->toks into st. */
static pier_status parse_stmt(parser *p, pier__sql_stmt *st)
{
    if (!kind_at(p, 0, PIER__TK_WORD))
        return expected(p, 0, "a statement (SELECT, INSERT, CREATE ...)");
    if (word(p, 0, "select") || word(p, 0, "values")) {
        st->kind = PIER__STMT_SELECT;
        return PIER_OK;
    }
    if (word(p, 0, "with"))
        return with(p, st);
    if (word(p, 0, "insert") || word(p, 0, "replace") ||
        word(p, 0, "update") || word(p, 0, "delete"))
        return write_stmt(p, 0, st);
    if (word(p, 0, "create"))
        return create(p, st);
    if (word(p, 0, "alter"))
        return alter(p, st);
    if (word(p, 0, "drop"))
        return drop(p, st);
    if (word(p, 0, "begin") || word(p, 0, "commit") || word(p, 0, "end") ||
        word(p, 0, "rollback"))
        return transaction(p, st);
    for (size_t k = 0; k < sizeof refusals / sizeof *refusals; k++)
        if (word(p, 0, refusals[k].word))
            return refuse(p, refusals[k].name, refusals[k].why);
    return refuse_words(p, 1, "a statement is SELECT, VALUES, WITH, INSERT, "
                              "REPLACE, UPDATE, DELETE, CREATE, ALTER, DROP, "
                              "BEGIN, COMMIT, END or ROLLBACK");
}

/*
 * Tokenizes the statement at *pos into p->toks, up to its ';' (taken) or
 * the script's end (*more false then), noting the first token fault.
 */
static pier_status read_stmt(parser *p, size_t *pos, bool *more,
                             token_fault *fault)
{
    p->ntoks = 0;
    size_t depth = 0;
    for (;;) {
        pier__token t;
        const char *why = NULL;
        pier__tk kind = pier__sql_token(p->sql, p->n, *pos, &t, &why);
        if (kind == PIER__TK_END || kind == PIER__TK_BAD) {
            *more = false;
            *pos = p->n;
            if (kind == PIER__TK_BAD && !fault->set)
                *fault = (token_fault){ true, true, t.start, why };
            break;
        }
        *pos = t.end;
        if (kind == PIER__TK_SEMI)
            break;
        if (kind == PIER__TK_LP) {
            t.depth = depth++;
        } else if (kind != PIER__TK_RP) {
            t.depth = depth;
        } else if (depth > 0) {
            t.depth = --depth;
        } else {
            t.depth = 0;
            if (!fault->set)
                *fault = (token_fault){ true, false, t.start,
                                        "')' closes no '('" };
        }
        if (p->ntoks == p->cap) {
            size_t cap = p->cap > 0 ? p->cap * 2 : 64;
            pier__token *m = cap <= SIZE_MAX / sizeof *m
                ? realloc(p->toks, cap * sizeof *m) : NULL;
            if (m == NULL)
                return pier__oom(p->err);
            p->toks = m;
            p->cap = cap;
        }
        p->toks[p->ntoks++] = t;
    }
    if (depth > 0 && !fault->set) {
        /* The innermost '(' left open: the last one at the final depth. */
        size_t k = p->ntoks;
        while (!(p->toks[k - 1].kind == PIER__TK_LP &&
                 p->toks[k - 1].depth == depth - 1))
            k--;
        *fault = (token_fault){ true, false, p->toks[k - 1].start,
                                "'(' is never closed" };
    }
    return PIER_OK;
}

static pier_status report_fault(parser *p, const token_fault *f)
{
    if (!f->bad || f->offset >= p->n || p->sql[f->offset] == '\0')
        return fail_at(p, f->offset, "%s", f->what);
    size_t len = snippet(p->sql + f->offset, p->n - f->offset, 24);
    return fail_at(p, f->offset, "%s: %.*s%s", f->what, (int)len,
                   p->sql + f->offset, len < p->n - f->offset ? "..." : "");
}

pier_status pier__sql_parse(pier__sql_script *out, const char *sql,
                            size_t len, pier_error *err)
{
    out->stmts = NULL;
    out->nstmts = 0;
    pier__arena_init(&out->arena);
    assert(sql != NULL || len == 0);
    parser p = { sql, len, &out->arena, err, NULL, 0, 0, 0 };
    pier__sql_stmt *stmts = NULL;
    size_t n = 0, cap = 0, pos = 0;
    bool more = true;
    pier_status rc = PIER_OK;
    while (rc == PIER_OK && more) {
        token_fault fault = { false, false, 0, NULL };
        rc = read_stmt(&p, &pos, &more, &fault);
        if (rc != PIER_OK)
            break;
        if (p.ntoks == 0) {
            if (fault.set)
                rc = report_fault(&p, &fault);
            continue;                       /* an empty statement */
        }
        pier__sql_stmt st;
        memset(&st, 0, sizeof st);
        st.offset = p.toks[0].start;
        st.len = p.toks[p.ntoks - 1].end - st.offset;
        rc = parse_stmt(&p, &st);
        if (rc == PIER_E_ENTITY_NOT_ALLOWED || rc == PIER_E_OUT_OF_MEMORY)
            break;
        /* A head that ran out of tokens ran into the fault, which ended
         * them. */
        if (fault.set && (rc == PIER_OK || fault.offset <= p.fail_offset ||
                          p.fail_offset >= stmt_end(&p)))
            rc = report_fault(&p, &fault);
        if (rc != PIER_OK)
            break;
        stmts = grow(&p, stmts, n, &cap, sizeof *stmts);
        if (stmts == NULL) {
            rc = pier__oom(err);
            break;
        }
        stmts[n++] = st;
    }
    free(p.toks);
    if (rc == PIER_OK) {
        out->stmts = stmts;
        out->nstmts = n;
    }
    return rc;
}

void pier__sql_script_free(pier__sql_script *s)
{
    if (s == NULL)
        return;
    pier__arena_free(&s->arena);
    s->stmts = NULL;
    s->nstmts = 0;
}

const char *pier__stmt_kind_name(pier__stmt_kind kind)
{
    switch (kind) {
    case PIER__STMT_SELECT: return "SELECT";
    case PIER__STMT_INSERT: return "INSERT";
    case PIER__STMT_UPDATE: return "UPDATE";
    case PIER__STMT_DELETE: return "DELETE";
    case PIER__STMT_CREATE_TABLE: return "CREATE TABLE";
    case PIER__STMT_CREATE_INDEX: return "CREATE INDEX";
    case PIER__STMT_CREATE_VIEW: return "CREATE VIEW";
    case PIER__STMT_ADD_COLUMN: return "ALTER TABLE ADD COLUMN";
    case PIER__STMT_RENAME_COLUMN: return "ALTER TABLE RENAME COLUMN";
    case PIER__STMT_RENAME_TABLE: return "ALTER TABLE RENAME TO";
    case PIER__STMT_DROP_COLUMN: return "ALTER TABLE DROP COLUMN";
    case PIER__STMT_DROP_TABLE: return "DROP TABLE";
    case PIER__STMT_DROP_INDEX: return "DROP INDEX";
    case PIER__STMT_DROP_VIEW: return "DROP VIEW";
    case PIER__STMT_BEGIN: return "BEGIN";
    case PIER__STMT_COMMIT: return "COMMIT";
    case PIER__STMT_CREATE_BOARD: return "CREATE BOARD";
    case PIER__STMT_ROLLBACK: return "ROLLBACK";
    }
    return "statement";
}

/* Appends s[0..n) between quotes `q`, each q in it doubled. */
static void quote(pier__buf *b, const char *s, size_t n, char q)
{
    pier__buf_putc(b, q);
    const char *end = s + n;
    while (s < end) {
        const char *at = memchr(s, q, (size_t)(end - s));
        size_t run = at != NULL ? (size_t)(at - s) + 1 : (size_t)(end - s);
        pier__buf_append(b, s, run);
        if (at != NULL)
            pier__buf_putc(b, q);
        s += run;
    }
    pier__buf_putc(b, q);
}

void pier__sql_quote_ident(pier__buf *b, const char *name)
{
    quote(b, name, strlen(name), '"');
}

void pier__sql_quote_string(pier__buf *b, const char *s, size_t n)
{
    quote(b, s, n, '\'');
}
