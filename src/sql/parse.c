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
 * The text read is pier__sql_rewrite's (rewrite.c), of the same length as
 * the script given, so every offset is one into the script as written.
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
    bool declaration;          /* pier__sql_parse_declaration: its
                                  clauses, and InvalidSchema for faults */
    bool refused;              /* the statement's kind was refused */
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
    pier_status status = p->declaration ? PIER_E_INVALID_SCHEMA
                                        : PIER_E_QUERY_FAILED;
    va_list ap;
    va_start(ap, fmt);
    pier__failv(p->err, status, fmt, ap);
    va_end(ap);
    if (p->err != NULL)
        p->err->offset = (int64_t)offset;
    p->fail_offset = offset;
    return status;
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
    pier_status status = p->declaration ? PIER_E_INVALID_SCHEMA
                                        : PIER_E_ENTITY_NOT_ALLOWED;
    pier__fail(p->err, status, "%s statements are not allowed%s: %s", what,
               p->declaration ? " in a declaration" : "", why);
    if (p->err != NULL)
        p->err->offset = (int64_t)p->toks[0].start;
    p->refused = true;
    return status;
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

static void *grow(parser *p, void *items, size_t n, size_t *cap, size_t size)
{
    return pier__arena_grow(p->arena, items, n, cap, size);
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
    return p->declaration &&
           (word(p, i, "renamed") || word(p, i, "backfill") ||
            word(p, i, "autoincrement"));
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

/* How many tokens of toks[k..e) are now(), (now()) or the form exec.c
 * writes it in, (_pier_now('TYPE')); 0 if they are none. Each is at
 * least as long as "now()", which takes its place: the text never grows. */
static size_t default_now(const parser *p, size_t k, size_t e)
{
    if (word(p, k, "now"))
        return k + 2 < e && kind_at(p, k + 1, PIER__TK_LP) &&
               kind_at(p, k + 2, PIER__TK_RP) ? 3 : 0;
    if (!kind_at(p, k, PIER__TK_LP))
        return 0;
    if (word(p, k + 1, "now"))
        return k + 4 < e && kind_at(p, k + 2, PIER__TK_LP) &&
               kind_at(p, k + 3, PIER__TK_RP) &&
               kind_at(p, k + 4, PIER__TK_RP) ? 5 : 0;
    return k + 5 < e && word(p, k + 1, "_pier_now") &&
           kind_at(p, k + 2, PIER__TK_LP) &&
           kind_at(p, k + 3, PIER__TK_STRING) &&
           kind_at(p, k + 4, PIER__TK_RP) &&
           kind_at(p, k + 5, PIER__TK_RP) ? 6 : 0;
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
        } else if (word(p, k, "default") && default_now(p, k + 1, e)) {
            /* now(), (now()) or (_pier_now('TYPE')), read as now() */
            size_t last = k + default_now(p, k + 1, e);
            memcpy(out + o, p->sql + pos, p->toks[k + 1].start - pos);
            o += p->toks[k + 1].start - pos;
            col->default_now = true;
            col->default_now_at = o;
            memcpy(out + o, "now()", 5);
            o += 5;
            pos = p->toks[last].end;
            k = last;
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

/* ---- declarations: every constraint, read ---- */

/* Adds an empty item to one of t's arrays. */
#define DECL_PUSH(p, arr, n, cap)                                         \
    ((arr) = grow((p), (arr), (n), (cap), sizeof *(arr)),                 \
     (arr) == NULL ? NULL : memset(&(arr)[(n)++], 0, sizeof *(arr)))

/* A DEFAULT or BACKFILL value at *i: a literal, a signed number, an
 * expression in parentheses or now(). */
static pier_status decl_value(parser *p, size_t *i, size_t e,
                              pier__sql_value *v, const char *what)
{
    size_t k = *i;
    if (v->text != NULL)
        return fail_at(p, p->toks[k - 1].start, "%s is given twice", what);
    if (k >= e)
        return expected(p, k, "a value (a literal, an expression in "
                              "parentheses, or now())");
    const pier__token *t = &p->toks[k];
    size_t last = k;
    if (word(p, k, "now") && k + 2 < e && kind_at(p, k + 1, PIER__TK_LP) &&
        kind_at(p, k + 2, PIER__TK_RP)) {
        v->now = true;
        last = k + 2;
    } else if (t->kind == PIER__TK_LP) {
        size_t after = k;
        if (!skip_group(p, &after) || after > e)
            return expected(p, e, "')'");
        last = after - 1;
    } else if (t->kind == PIER__TK_OP && t->end - t->start == 1 &&
               (p->sql[t->start] == '-' || p->sql[t->start] == '+') &&
               k + 1 < e && kind_at(p, k + 1, PIER__TK_NUMBER)) {
        last = k + 1;
    } else if (!(t->kind == PIER__TK_STRING || t->kind == PIER__TK_NUMBER ||
                 t->kind == PIER__TK_BLOB || word(p, k, "null") ||
                 word(p, k, "true") || word(p, k, "false"))) {
        return expected(p, k, "a value (a literal, an expression in "
                              "parentheses, or now())");
    }
    v->offset = t->start;
    v->text = slice(p, t->start, p->toks[last].end);
    if (v->text == NULL)
        return pier__oom(p->err);
    *i = last + 1;
    return PIER_OK;
}

/* ( name, ... ) at *i into a key's columns; `one`: exactly one name. */
static pier_status decl_names(parser *p, size_t *i, size_t e, char ***out,
                              size_t *n, bool one, const char *what)
{
    size_t k = *i;
    if (k >= e || !kind_at(p, k, PIER__TK_LP))
        return expected(p, k, what);
    size_t after = k;
    if (!skip_group(p, &after) || after > e)
        return expected(p, e, "')'");
    size_t cap = 0;
    *n = 0;
    /* name, name, ... name: a name every other token */
    for (k++; k < after - 1; k += 2) {
        if (!name_at(p, k))
            return expected(p, k, "a column's name");
        *out = grow(p, *out, *n, &cap, sizeof **out);
        if (*out == NULL || ((*out)[(*n)++] = unquote(p, k)) == NULL)
            return pier__oom(p->err);
        if (k + 1 < after - 1 && !kind_at(p, k + 1, PIER__TK_COMMA))
            return expected(p, k + 1, "',' or ')' after a column's name");
        if (k + 2 == after - 1 && kind_at(p, k + 1, PIER__TK_COMMA))
            return expected(p, k + 2, "a column's name");
    }
    if (*n == 0 || (one && *n != 1))
        return fail_at(p, p->toks[*i].start, one ? "%s names one column"
                                                 : "%s names its columns",
                       what);
    *i = after;
    return PIER_OK;
}

/* REFERENCES table [(column)] [ON DELETE RESTRICT|CASCADE|SET NULL] at *i
 * (on REFERENCES). */
static pier_status decl_references(parser *p, size_t *i, size_t e,
                                   pier__sql_fk *fk)
{
    size_t k = *i;
    fk->offset = p->toks[k].start;
    k++;
    if (k >= e || !name_at(p, k))
        return expected(p, k, "the parent table's name after REFERENCES");
    if ((fk->table = unquote(p, k)) == NULL)
        return pier__oom(p->err);
    k++;
    if (k < e && kind_at(p, k, PIER__TK_LP)) {
        char **cols = NULL;
        size_t n = 0;
        pier_status rc = decl_names(p, &k, e, &cols, &n, true,
                                    "REFERENCES table (column)");
        if (rc != PIER_OK)
            return rc;
        fk->parent = cols[0];
    }
    while (k < e && word(p, k, "on")) {
        if (!word(p, k + 1, "delete"))
            return expected(p, k + 1, "DELETE after ON (a declaration's "
                                      "references take ON DELETE only)");
        k += 2;
        if (word(p, k, "restrict")) {
            fk->on_delete = PIER__FK_RESTRICT;
            k++;
        } else if (word(p, k, "cascade")) {
            fk->on_delete = PIER__FK_CASCADE;
            k++;
        } else if (word(p, k, "set") && word(p, k + 1, "null")) {
            fk->on_delete = PIER__FK_SET_NULL;
            k += 2;
        } else {
            return expected(p, k, "RESTRICT, CASCADE or SET NULL after ON "
                                  "DELETE");
        }
    }
    *i = k;
    return PIER_OK;
}

/* CHECK (expr) at *i (on CHECK), named `name` (or NULL), written from
 * byte `at`: added to t. */
static pier_status decl_check(parser *p, size_t *i, size_t e,
                              pier__sql_table *t, size_t *cap, char *name,
                              size_t at)
{
    pier__sql_check *c = DECL_PUSH(p, t->checks, t->nchecks, cap);
    if (c == NULL)
        return pier__oom(p->err);
    c->name = name;
    c->offset = at;
    size_t k = *i + 1;
    if (k >= e || !kind_at(p, k, PIER__TK_LP))
        return expected(p, k, "'(' and an expression after CHECK");
    size_t after = k;
    if (!skip_group(p, &after) || after > e)
        return expected(p, e, "')'");
    if (after == k + 2)
        return expected(p, k + 1, "an expression");
    c->expr = slice(p, p->toks[k + 1].start, p->toks[after - 2].end);
    if (c->expr == NULL)
        return pier__oom(p->err);
    *i = after;
    return PIER_OK;
}

/* A key, a check or a foreign key, named by CONSTRAINT `name` (or NULL),
 * added to t. */
static pier_status decl_push_key(parser *p, pier__sql_table *t, size_t *cap,
                                 char *name, bool primary, size_t at,
                                 pier__sql_key **out)
{
    pier__sql_key *key = DECL_PUSH(p, t->keys, t->nkeys, cap);
    if (key == NULL)
        return pier__oom(p->err);
    key->name = name;
    key->primary = primary;
    key->offset = p->toks[at].start;
    *out = key;
    return PIER_OK;
}

/* The capacities of a table's arrays while its body is read. */
typedef struct decl_caps {
    size_t keys, checks, fks;
} decl_caps;

/* PRIMARY KEY or UNIQUE of column `col` alone, added to t. */
static pier_status column_key(parser *p, pier__sql_table *t, decl_caps *caps,
                              char *name, bool primary, size_t at,
                              const pier__sql_column *col)
{
    pier__sql_key *key = NULL;
    pier_status rc = decl_push_key(p, t, &caps->keys, name, primary, at,
                                   &key);
    if (rc != PIER_OK)
        return rc;
    key->columns = pier__arena_alloc(p->arena, sizeof *key->columns);
    if (key->columns == NULL)
        return pier__oom(p->err);
    key->columns[0] = col->name;
    key->ncolumns = 1;
    return PIER_OK;
}

/*
 * The constraints toks[j..e) of column `col` of table `t`, read whole:
 * [CONSTRAINT name] then PRIMARY KEY [AUTOINCREMENT], NOT NULL, NULL,
 * UNIQUE, CHECK (expr), DEFAULT value, REFERENCES ..., READONLY, and the
 * declarations' AUTOINCREMENT, BACKFILL value, RENAMED FROM name.
 */
static pier_status decl_constraints(parser *p, size_t j, size_t e,
                                    pier__sql_column *col,
                                    pier__sql_table *t, decl_caps *caps)
{
    size_t k = j;
    while (k < e) {
        char *name = NULL;
        size_t at = k;
        if (word(p, k, "constraint")) {
            if (!name_at(p, k + 1) || k + 1 >= e)
                return expected(p, k + 1, "the constraint's name");
            if ((name = unquote(p, k + 1)) == NULL)
                return pier__oom(p->err);
            k += 2;
        }
        pier_status rc = PIER_OK;
        if (word(p, k, "primary") && word(p, k + 1, "key")) {
            rc = column_key(p, t, caps, name, true, at, col);
            if (rc != PIER_OK)
                return rc;
            k += 2;
            if (word(p, k, "autoincrement")) {
                col->autoincrement = true;
                k++;
            }
        } else if (word(p, k, "unique")) {
            rc = column_key(p, t, caps, name, false, at, col);
            if (rc != PIER_OK)
                return rc;
            k++;
        } else if (word(p, k, "not") && word(p, k + 1, "null")) {
            col->not_null = true;
            k += 2;
        } else if (word(p, k, "null")) {
            col->null = true;
            k++;
        } else if (word(p, k, "check")) {
            rc = decl_check(p, &k, e, t, &caps->checks, name,
                            p->toks[at].start);
        } else if (word(p, k, "default") || word(p, k, "backfill")) {
            bool dflt = word(p, k, "default");
            k++;
            rc = decl_value(p, &k, e, dflt ? &col->dflt : &col->backfill,
                            dflt ? "DEFAULT" : "BACKFILL");
        } else if (word(p, k, "references")) {
            pier__sql_fk *fk = DECL_PUSH(p, t->fks, t->nfks, &caps->fks);
            if (fk == NULL)
                return pier__oom(p->err);
            fk->name = name;
            fk->column = col->name;
            rc = decl_references(p, &k, e, fk);
        } else if (name == NULL && word(p, k, "readonly")) {
            k++;
        } else if (name == NULL && word(p, k, "autoincrement")) {
            col->autoincrement = true;
            k++;
        } else if (name == NULL && word(p, k, "renamed")) {
            if (!word(p, k + 1, "from"))
                return expected(p, k + 1, "FROM after RENAMED");
            if (k + 2 >= e || !name_at(p, k + 2))
                return expected(p, k + 2, "the column's old name after "
                                          "RENAMED FROM");
            if (col->renamed_from != NULL)
                return fail_at(p, p->toks[k].start,
                               "RENAMED FROM is given twice");
            if ((col->renamed_from = unquote(p, k + 2)) == NULL)
                return pier__oom(p->err);
            col->renamed_from_offset = p->toks[k + 2].start;
            k += 3;
        } else {
            return expected(p, k, "a column constraint of a declaration "
                                  "(NOT NULL, NULL, UNIQUE, PRIMARY KEY, "
                                  "CHECK, DEFAULT, BACKFILL, REFERENCES, "
                                  "AUTOINCREMENT, READONLY or RENAMED "
                                  "FROM)");
        }
        if (rc != PIER_OK)
            return rc;
        if (k < e && word(p, k, "on") && word(p, k + 1, "conflict"))
            return fail_at(p, p->toks[k].start,
                           "ON CONFLICT has no place in a declaration");
    }
    if (col->not_null && col->null)
        return fail_at(p, col->name_offset, "column '%s' is declared both "
                       "NULL and NOT NULL", col->name);
    return PIER_OK;
}

/* A table constraint toks[s..e) of a declaration: [CONSTRAINT name] then
 * PRIMARY KEY (columns), UNIQUE (columns), CHECK (expr) or FOREIGN KEY
 * (column) REFERENCES ... */
static pier_status decl_table_constraint(parser *p, size_t s, size_t e,
                                         pier__sql_table *t,
                                         decl_caps *caps)
{
    size_t k = s;
    char *name = NULL;
    if (word(p, k, "constraint")) {
        if ((name = unquote(p, k + 1)) == NULL)
            return pier__oom(p->err);
        k += 2;
    }
    pier_status rc;
    if (word(p, k, "primary") || word(p, k, "unique")) {
        bool primary = word(p, k, "primary");
        pier__sql_key *key = NULL;
        rc = decl_push_key(p, t, &caps->keys, name, primary, s, &key);
        if (rc != PIER_OK)
            return rc;
        k += primary ? 2 : 1;
        rc = decl_names(p, &k, e, &key->columns, &key->ncolumns, false,
                        primary ? "PRIMARY KEY" : "UNIQUE");
    } else if (word(p, k, "check")) {
        rc = decl_check(p, &k, e, t, &caps->checks, name, p->toks[s].start);
    } else {
        /* FOREIGN KEY (table_constraint said so) */
        pier__sql_fk *fk = DECL_PUSH(p, t->fks, t->nfks, &caps->fks);
        if (fk == NULL)
            return pier__oom(p->err);
        fk->name = name;
        k += 2;
        char **cols = NULL;
        size_t n = 0;
        rc = decl_names(p, &k, e, &cols, &n, true, "FOREIGN KEY (column)");
        if (rc != PIER_OK)
            return rc;
        fk->column = cols[0];
        if (!word(p, k, "references"))
            return expected(p, k, "REFERENCES after FOREIGN KEY (column)");
        rc = decl_references(p, &k, e, fk);
    }
    if (rc != PIER_OK)
        return rc;
    return k < e ? expected(p, k, "',' or ')' after a table constraint")
                 : PIER_OK;
}

/* The column definition toks[s..e): name, type spelling, constraints. */
static pier_status column_def(parser *p, size_t s, size_t e,
                              pier__sql_column *col, pier__sql_table *t,
                              decl_caps *caps)
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
    pier_status rc = column_constraints(p, k, e, name->depth, col);
    if (rc == PIER_OK && p->declaration)
        rc = decl_constraints(p, k, e, col, t, caps);
    return rc;
}

/* ---- statements ---- */

/* The body of CREATE TABLE, from the '(' at lp to the ')' at rp. */
static pier_status table_body(parser *p, size_t lp, size_t rp,
                              pier__sql_table *t)
{
    size_t depth = p->toks[lp].depth + 1;
    size_t start = lp + 1, cons = 0, cap = 0;
    bool constraints = false;
    decl_caps caps = { 0, 0, 0 };
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
            pier_status rc = column_def(p, start, k, col, t, &caps);
            if (rc != PIER_OK)
                return rc;
        } else if (p->declaration) {
            pier_status rc = decl_table_constraint(p, start, k, t, &caps);
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
    if (p->declaration && word(p, i, "renamed")) {
        if (!word(p, i + 1, "from"))
            return expected(p, i + 1, "FROM after RENAMED");
        if (!name_at(p, i + 2))
            return expected(p, i + 2, "the table's old name after RENAMED "
                                      "FROM");
        if ((t->renamed_from = unquote(p, i + 2)) == NULL)
            return pier__oom(p->err);
        t->renamed_from_offset = p->toks[i + 2].start;
        i += 3;
    }
    if (p->declaration && word(p, i, "as"))
        return fail_at(p, p->toks[i].start, "a declared table lists its "
                       "columns: CREATE TABLE ... AS SELECT has no place in "
                       "a declaration");
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
    if (p->declaration) {
        st->body_offset = p->toks[i].start;
        st->body = slice(p, p->toks[i].start, stmt_end(p));
        if (st->body == NULL)
            return pier__oom(p->err);
    }
    return PIER_OK;
}

/*
 * (name type, ...) from the '(' at *i to the token after its ')', into
 * *out: a board's columns (a type may be followed by INFERRED) or a
 * declared view's. The type is everything between the name and INFERRED
 * or the ',' (such types take no constraints).
 */
static pier_status typed_columns(parser *p, size_t *i, pier__sql_column **out,
                                 size_t *n, bool board, const char *what)
{
    size_t after = *i, cap = 0;
    if (!skip_group(p, &after))
        return fail_at(p, stmt_end(p), "expected ')' after %s, found the "
                       "end of the statement", what);
    size_t rp = after - 1, depth = p->toks[*i].depth + 1, start = *i + 1;
    for (size_t k = *i + 1; k <= rp; k++) {
        if (k < rp && !(p->toks[k].kind == PIER__TK_COMMA &&
                        p->toks[k].depth == depth))
            continue;
        if (start == k || !name_at(p, start))
            return expected(p, start, "a column's name and type");
        *out = grow(p, *out, *n, &cap, sizeof **out);
        if (*out == NULL)
            return pier__oom(p->err);
        pier__sql_column *col = &(*out)[(*n)++];
        memset(col, 0, sizeof *col);
        col->name = unquote(p, start);
        col->name_offset = p->toks[start].start;
        size_t end = k;
        if (board && end > start + 2 && word(p, end - 1, "inferred")) {
            col->inferred = true;
            end--;
        }
        if (!board && end == start + 1)
            return expected(p, end, "the column's type");
        col->type_offset = end > start + 1 ? p->toks[start + 1].start
                                           : p->toks[start].end;
        col->type = end > start + 1
                        ? slice(p, p->toks[start + 1].start,
                                p->toks[end - 1].end)
                        : slice(p, p->toks[start].end, p->toks[start].end);
        col->constraints = slice(p, 0, 0);
        if (col->name == NULL || col->type == NULL ||
            col->constraints == NULL)
            return pier__oom(p->err);
        start = k + 1;
    }
    *i = after;
    return PIER_OK;
}

/* A declaration's view after its name at i: (name TYPE, ...) AS select. */
static pier_status decl_view(parser *p, size_t i, pier__sql_stmt *st)
{
    if (!kind_at(p, i, PIER__TK_LP))
        return expected(p, i, "'(' and the view's columns with their types "
                              "(a declared view says what it produces)");
    pier_status rc = typed_columns(p, &i, &st->view_columns,
                                   &st->nview_columns, false,
                                   "the view's columns");
    if (rc != PIER_OK)
        return rc;
    if (!word(p, i, "as"))
        return expected(p, i, "AS and the view's SELECT after its columns");
    if (i + 1 >= p->ntoks)
        return expected(p, i + 1, "the view's SELECT after AS");
    st->body_offset = p->toks[i + 1].start;
    st->body = slice(p, st->body_offset, stmt_end(p));
    return st->body != NULL ? PIER_OK : pier__oom(p->err);
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
        size_t after = i;
        rc = typed_columns(p, &after, &t->columns, &t->ncolumns, true,
                           "the board's columns");
        if (rc != PIER_OK)
            return rc;
        i = after;
    }
    if (word(p, i, "strict")) {
        t->strict = true;
        i++;
    }
    return expect_end(p, i);
}

/* CREATE COMMIT TRIGGER [IF NOT EXISTS] name ON (ALL | table, ...) AS
 * statement, from TRIGGER at i: the statement is the rest, up to the
 * ';', which pier_exec reads when it makes the trigger. ALL is the bare
 * word; "all" quoted is a table. */
static pier_status commit_trigger(parser *p, size_t i, pier__sql_stmt *st)
{
    st->kind = PIER__STMT_CREATE_COMMIT_TRIGGER;
    if (!word(p, i, "trigger"))
        return expected(p, i, "TRIGGER after CREATE COMMIT");
    i++;
    pier_status rc = if_exists(p, &i, true, &st->if_not_exists);
    if (rc == PIER_OK)
        rc = qualified_name(p, &i, st, "the trigger's name after CREATE "
                                       "COMMIT TRIGGER");
    if (rc != PIER_OK)
        return rc;
    if (!word(p, i, "on"))
        return expected(p, i, "ON and the tables (or ALL) the trigger "
                              "covers");
    i++;
    if (word(p, i, "all")) {
        i++;
    } else {
        size_t cap = 0;
        for (;;) {
            if (!name_at(p, i))
                return expected(p, i, "a table's name (or ALL) after ON");
            size_t n = st->ntrigger_tables;
            size_t cap2 = cap;
            char **names = grow(p, st->trigger_tables, n, &cap,
                                sizeof *names);
            size_t *at = grow(p, st->trigger_table_offsets, n, &cap2,
                              sizeof *at);
            if (names == NULL || at == NULL)
                return pier__oom(p->err);
            st->trigger_tables = names;
            st->trigger_table_offsets = at;
            if ((names[n] = unquote(p, i)) == NULL)
                return pier__oom(p->err);
            at[n] = p->toks[i].start;
            st->ntrigger_tables = n + 1;
            i++;
            if (!kind_at(p, i, PIER__TK_COMMA))
                break;
            i++;
        }
    }
    if (!word(p, i, "as"))
        return expected(p, i, "AS and the statement the trigger runs");
    i++;
    if (i >= p->ntoks)
        return expected(p, i, "the statement the trigger runs after AS");
    st->body_offset = p->toks[i].start;
    st->body = slice(p, st->body_offset, stmt_end(p));
    return st->body != NULL ? PIER_OK : pier__oom(p->err);
}

static pier_status create(parser *p, pier__sql_stmt *st)
{
    size_t i = 1;
    if (word(p, i, "temp") || word(p, i, "temporary")) {
        st->temp = true;
        i++;
    }
    if (word(p, i, "commit") && !st->temp && !p->declaration)
        return commit_trigger(p, i + 1, st);
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
        rc = qualified_name(p, &i, st, "the view's name after CREATE "
                                       "VIEW");
        if (rc != PIER_OK || !p->declaration)
            return rc;
        return decl_view(p, i, st);
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
    else if (word(p, 1, "commit") && word(p, 2, "trigger")) {
        st->kind = PIER__STMT_DROP_COMMIT_TRIGGER;
        size_t i = 3;
        pier_status rc = if_exists(p, &i, false, &st->if_exists);
        if (rc == PIER_OK)
            rc = qualified_name(p, &i, st, "the trigger's name after DROP "
                                           "COMMIT TRIGGER");
        return rc == PIER_OK ? expect_end(p, i) : rc;
    }
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
    return column_def(p, i, p->ntoks, st->add, NULL, NULL);
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

/* What an INSERT's target is followed by: [AS alias] then the column
 * list, DEFAULT VALUES, or neither (every column, in order). A list that
 * does not read as names is left to SQLite to refuse. */
static pier_status insert_columns(parser *p, size_t i, pier__sql_stmt *st)
{
    if (word(p, i, "as") && name_at(p, i + 1))
        i += 2;
    if (word(p, i, "default") && word(p, i + 1, "values")) {
        st->insert_default_values = true;
        st->insert_at = p->toks[i].start;
        st->insert_rest = p->toks[i + 1].end;
        return PIER_OK;
    }
    if (!kind_at(p, i, PIER__TK_LP))
        return PIER_OK;
    size_t after = i, cap = 0;
    if (!skip_group(p, &after))
        return PIER_OK;                 /* the token fault says so */
    for (size_t k = i + 1; k < after - 1; k += 2) {
        if (!name_at(p, k) ||
            (k + 1 < after - 1 && !kind_at(p, k + 1, PIER__TK_COMMA)))
            return PIER_OK;             /* not a column list */
        st->insert_columns = grow(p, st->insert_columns,
                                  st->ninsert_columns, &cap,
                                  sizeof *st->insert_columns);
        if (st->insert_columns == NULL ||
            (st->insert_columns[st->ninsert_columns++] = unquote(p, k)) ==
                NULL)
            return pier__oom(p->err);
    }
    st->insert_list = true;
    st->insert_at = p->toks[after - 1].start;
    st->insert_rest = p->toks[after - 1].end;
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
    rc = qualified_name(p, &i, st, "the table's name after INTO");
    if (rc != PIER_OK)
        return rc;
    return insert_columns(p, i, st);
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

/* A declaration's statement: CREATE TABLE, VIEW, BOARD or [UNIQUE]
 * INDEX, of objects named without a schema. */
static pier_status parse_decl_stmt(parser *p, pier__sql_stmt *st)
{
    static const char why[] = "a declaration holds CREATE TABLE, CREATE "
                              "VIEW, CREATE BOARD and CREATE INDEX "
                              "statements";
    if (!kind_at(p, 0, PIER__TK_WORD))
        return expected(p, 0, "CREATE TABLE, VIEW, BOARD or INDEX");
    if (!word(p, 0, "create"))
        return refuse_words(p, 1, why);
    if (word(p, 1, "temp") || word(p, 1, "temporary"))
        return refuse_words(p, 2, why);
    pier_status rc = create(p, st);
    if (rc == PIER_OK && st->schema != NULL)
        return fail_at(p, st->name_offset, "a declaration names its "
                       "objects without a schema ('%s.%s')", st->schema,
                       st->name);
    return rc;
}

/* Reads the head of the statement in p->toks into st. */
static pier_status parse_stmt(parser *p, pier__sql_stmt *st)
{
    if (p->declaration)
        return parse_decl_stmt(p, st);
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

static pier_status parse_script(pier__sql_script *out, const char *sql,
                                size_t len, bool declaration,
                                pier_error *err)
{
    out->stmts = NULL;
    out->nstmts = 0;
    out->text = sql;
    pier__arena_init(&out->arena);
    assert(sql != NULL || len == 0);
    bool oom;
    out->rewritten = NULL;
    /* a CAST to a name CREATE TABLE refuses, refused as the column is */
    char why[256];
    size_t at;
    if (len > 0 && pier__sql_cast_refused(sql, len, &at, why, sizeof why)) {
        pier__fail(err, PIER_E_UNKNOWN_TYPE, "%s", why);
        if (err != NULL)
            err->offset = (int64_t)at;
        return PIER_E_UNKNOWN_TYPE;
    }
    out->rewritten = len > 0 ? pier__sql_rewrite(sql, len, &oom) : NULL;
    if (out->rewritten != NULL)
        out->text = sql = out->rewritten;
    else if (len > 0 && oom)
        return pier__oom(err);
    parser p = { sql, len, &out->arena, err, NULL, 0, 0, 0, declaration,
                 false };
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
        if (p.refused || rc == PIER_E_OUT_OF_MEMORY)
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

pier_status pier__sql_parse(pier__sql_script *out, const char *sql,
                            size_t len, pier_error *err)
{
    return parse_script(out, sql, len, false, err);
}

pier_status pier__sql_parse_declaration(pier__sql_script *out,
                                        const char *sql, size_t len,
                                        pier_error *err)
{
    return parse_script(out, sql, len, true, err);
}

void pier__sql_script_free(pier__sql_script *s)
{
    if (s == NULL)
        return;
    pier__arena_free(&s->arena);
    free(s->rewritten);
    s->rewritten = NULL;
    s->text = NULL;
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
    case PIER__STMT_CREATE_COMMIT_TRIGGER: return "CREATE COMMIT TRIGGER";
    case PIER__STMT_DROP_COMMIT_TRIGGER: return "DROP COMMIT TRIGGER";
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
