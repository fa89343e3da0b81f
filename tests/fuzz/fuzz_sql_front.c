/*
 * fuzz_sql_front.c: the SQL dialect's pure front-end (src/sql: lex.c,
 * parse.c), no lake. The input is a script.
 *
 * Invariants:
 * - the tokenizer moves forward over the whole script: each token lies
 *   after the last, inside the script, non-empty; the script ends with END
 *   (start = end = length) or with one BAD token that says why, running
 *   to the end;
 * - pier__sql_parse answers OK, EntityNotAllowed or QueryFailed (with an
 *   offset inside the script), the same answer twice;
 * - on OK, statements lie in order inside the script, and each one's text
 *   parsed alone is one statement of the same kind naming the same
 *   objects (and, for CREATE TABLE and CREATE BOARD, the same columns and
 *   types); the statements joined again parse to the same kinds;
 * - every name read, quoted again (pier__sql_quote_ident) in a DROP
 *   TABLE, reads back as the same name;
 * - the rewrite of each statement's operators (pier__sql_exact_ops), when
 *   there is one, tokenizes to the end with its parentheses balanced, and
 *   holds the statement's operands, words and literals, each still one
 *   token, in order.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sql/lex.h"
#include "sql/sql.h"
#include "support/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_tokens(const char *sql, size_t n)
{
    size_t pos = 0;
    for (;;) {
        pier__token t;
        const char *why = NULL;
        pier__tk k = pier__sql_token(sql, n, pos, &t, &why);
        FZ_CHECK(t.start >= pos && t.start <= t.end && t.end <= n,
                 "token [%zu, %zu) read at %zu of %zu", t.start, t.end, pos,
                 n);
        if (k == PIER__TK_END) {
            FZ_CHECK(t.start == n && t.end == n, "END at %zu", t.start);
            return;
        }
        if (k == PIER__TK_BAD) {
            FZ_CHECK(t.end == n && why != NULL, "BAD token without why");
            return;
        }
        FZ_CHECK(t.end > t.start, "an empty token at %zu", t.start);
        char first = sql[t.start], last = sql[t.end - 1];
        if (k == PIER__TK_STRING)
            FZ_CHECK(first == '\'' && last == '\'' && t.end - t.start >= 2,
                     "string token [%zu, %zu)", t.start, t.end);
        if (k == PIER__TK_QUOTED)
            FZ_CHECK((first == '"' && last == '"') ||
                     (first == '`' && last == '`') ||
                     (first == '[' && last == ']'),
                     "quoted token [%zu, %zu)", t.start, t.end);
        if (k == PIER__TK_LP || k == PIER__TK_RP || k == PIER__TK_COMMA ||
            k == PIER__TK_DOT || k == PIER__TK_SEMI)
            FZ_CHECK(t.end - t.start == 1, "punctuation of %zu bytes",
                     t.end - t.start);
        pos = t.end;
    }
}

/* Whether a token of the statement stays one, as written and in its
 * place, in its rewrite: every operand does (names, literals, parameters)
 * and every word but the predicates rewritten as comparisons (x NOT IN
 * (a) is written (NOT (_pxc(x,a) = 0))) and the aggregates fused with
 * their operators (_pxsum). */
static bool kept(const char *text, const pier__token *t)
{
    static const char *const dropped[] = { "between", "in", "not", "sum",
                                           "avg", "total" };
    if (t->kind == PIER__TK_WORD) {
        for (size_t i = 0; i < sizeof dropped / sizeof *dropped; i++)
            if (pier__name_eq(text + t->start, t->end - t->start,
                              dropped[i], strlen(dropped[i])))
                return false;
        return true;
    }
    return t->kind == PIER__TK_NUMBER || t->kind == PIER__TK_STRING ||
           t->kind == PIER__TK_QUOTED || t->kind == PIER__TK_PARAM ||
           t->kind == PIER__TK_BLOB;
}

/* The statement's kept tokens appear in its rewrite, in order: what the
 * rewrite writes never joins a token next to it (WHERE_pxc(...)). */
static void check_kept(const char *sql, size_t n, const char *rw,
                       size_t rn)
{
    size_t pos = 0, rpos = 0;
    pier__token t, r;
    const char *why;
    while (pier__sql_token(sql, n, pos, &t, &why) != PIER__TK_END) {
        pos = t.end;
        if (!kept(sql, &t))
            continue;
        size_t len = t.end - t.start;
        for (;;) {
            pier__tk k = pier__sql_token(rw, rn, rpos, &r, &why);
            FZ_CHECK(k != PIER__TK_END, "'%.*s' at %zu is not in the "
                     "rewrite: %.*s", (int)len, sql + t.start, t.start,
                     (int)rn, rw);
            rpos = r.end;
            /* (words by name: BETWEEN's AND is written again) */
            if (r.kind == t.kind && r.end - r.start == len &&
                (t.kind == PIER__TK_WORD
                     ? pier__name_eq(rw + r.start, len, sql + t.start, len)
                     : memcmp(rw + r.start, sql + t.start, len) == 0))
                break;
        }
    }
}

/* The rewrite of a statement's operators (exactops.c): when it writes
 * one, its tokens read to the end and its parentheses balance, as the
 * statement's did, and its operands are the statement's; the same text
 * gives the same rewrite. */
static void check_exact_ops(const char *sql, size_t n)
{
    pier__buf a, b;
    pier__buf_init(&a);
    pier__buf_init(&b);
    bool wrote = pier__sql_exact_ops(&a, sql, n, NULL);
    bool again = pier__sql_exact_ops(&b, sql, n, sql);
    FZ_CHECK(wrote == again && (!wrote || (a.len == b.len &&
                                           memcmp(a.p, b.p, a.len) == 0)),
             "two rewrites of one statement differ");
    long depth[2] = { 0, 0 };
    for (int k = 0; k < 2 && wrote; k++) {
        const char *text = k == 0 ? sql : a.p;
        size_t len = k == 0 ? n : a.len;
        size_t pos = 0;
        for (;;) {
            pier__token t;
            const char *why;
            pier__tk kind = pier__sql_token(text, len, pos, &t, &why);
            if (kind == PIER__TK_END)
                break;
            FZ_CHECK(kind != PIER__TK_BAD, "the rewrite reads as BAD: %s",
                     why);
            depth[k] += kind == PIER__TK_LP ? 1 : kind == PIER__TK_RP ? -1
                                                                     : 0;
            pos = t.end;
        }
    }
    FZ_CHECK(depth[0] == depth[1], "the rewrite's parentheses differ");
    if (wrote)
        check_kept(sql, n, a.p, a.len);
    pier__buf_free(&a);
    pier__buf_free(&b);
}

static bool same_str(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    return strcmp(a, b) == 0;
}

static void same_table(const pier__sql_table *a, const pier__sql_table *b)
{
    if (a == NULL || b == NULL) {
        FZ_CHECK(a == b, "a table read once only");
        return;
    }
    FZ_CHECK(a->ncolumns == b->ncolumns, "%zu columns, then %zu",
             a->ncolumns, b->ncolumns);
    for (size_t i = 0; i < a->ncolumns; i++) {
        const pier__sql_column *x = &a->columns[i], *y = &b->columns[i];
        FZ_CHECK(same_str(x->name, y->name) && same_str(x->type, y->type) &&
                 same_str(x->constraints, y->constraints) &&
                 x->readonly == y->readonly &&
                 x->primary_key == y->primary_key &&
                 x->inferred == y->inferred,
                 "column %zu '%s' %s reads as '%s' %s", i, x->name, x->type,
                 y->name, y->type);
    }
    FZ_CHECK(same_str(a->constraints, b->constraints) &&
             a->without_rowid == b->without_rowid &&
             a->strict == b->strict && a->as_select == b->as_select,
             "table options differ");
}

/* The statement alone reads as it read in its script. */
static void check_alone(const char *sql, const pier__sql_stmt *st)
{
    pier__sql_script one;
    pier_error err;
    pier_status rc = pier__sql_parse(&one, sql + st->offset, st->len, &err);
    FZ_CHECK(rc == PIER_OK, "statement '%.*s' alone: %s: %s", (int)st->len,
             sql + st->offset, pier_status_tag(rc), err.message);
    FZ_CHECK(one.nstmts == 1, "statement '%.*s' alone is %zu statements",
             (int)st->len, sql + st->offset, one.nstmts);
    const pier__sql_stmt *t = &one.stmts[0];
    FZ_CHECK(t->kind == st->kind && t->offset == 0 && t->len == st->len,
             "statement '%.*s' alone is a %s of %zu bytes", (int)st->len,
             sql + st->offset, pier__stmt_kind_name(t->kind), t->len);
    FZ_CHECK(same_str(t->schema, st->schema) && same_str(t->name, st->name) &&
             same_str(t->table, st->table) &&
             same_str(t->column, st->column) &&
             same_str(t->new_name, st->new_name) && t->temp == st->temp &&
             t->if_exists == st->if_exists &&
             t->if_not_exists == st->if_not_exists &&
             t->unique == st->unique,
             "statement '%.*s' alone names other objects", (int)st->len,
             sql + st->offset);
    FZ_CHECK(t->name_offset + st->offset == st->name_offset ||
             t->name == NULL, "name offset %zu alone, %zu in the script",
             t->name_offset, st->name_offset);
    same_table(t->create, st->create);
    pier__sql_script_free(&one);
}

/* A name quoted again reads back as itself. */
static void check_name(const char *name)
{
    if (name == NULL)
        return;
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_puts(&b, "DROP TABLE ");
    pier__sql_quote_ident(&b, name);
    FZ_CHECK(!b.oom, "out of memory");
    pier__sql_script s;
    pier_error err;
    pier_status rc = pier__sql_parse(&s, b.p, b.len, &err);
    FZ_CHECK(rc == PIER_OK && s.nstmts == 1 &&
             s.stmts[0].kind == PIER__STMT_DROP_TABLE &&
             strcmp(s.stmts[0].name, name) == 0,
             "name '%s' quoted as %s does not read back (%s)", name, b.p,
             pier_status_tag(rc));
    pier__sql_script_free(&s);
    pier__buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *sql = (const char *)data;
    check_tokens(sql, size);

    pier__sql_script s;
    pier_error err;
    pier_status rc = pier__sql_parse(&s, sql, size, &err);
    /* UnknownType: a CAST to a name the dialect refuses (docs/sql.md). */
    FZ_CHECK(rc == PIER_OK || rc == PIER_E_ENTITY_NOT_ALLOWED ||
             rc == PIER_E_QUERY_FAILED || rc == PIER_E_UNKNOWN_TYPE,
             "parse: %s", pier_status_tag(rc));

    /* One answer per script. */
    pier__sql_script s2;
    pier_error err2;
    pier_status rc2 = pier__sql_parse(&s2, sql, size, &err2);
    FZ_CHECK(rc2 == rc && (rc == PIER_OK ||
                           (err2.offset == err.offset &&
                            strcmp(err.message, err2.message) == 0)),
             "a second parse answers otherwise");
    pier__sql_script_free(&s2);

    if (rc != PIER_OK) {
        FZ_CHECK(err.offset >= 0 && (uint64_t)err.offset <= size,
                 "%s at offset %" PRId64 " of %zu bytes", err.tag,
                 err.offset, size);
        FZ_CHECK(s.nstmts == 0, "statements left after a failure");
        pier__sql_script_free(&s);
        return 0;
    }

    pier__buf joined;
    pier__buf_init(&joined);
    size_t prev_end = 0;
    for (size_t i = 0; i < s.nstmts; i++) {
        const pier__sql_stmt *st = &s.stmts[i];
        FZ_CHECK(st->offset >= prev_end && st->len > 0 &&
                 st->offset + st->len <= size,
                 "statement %zu at [%zu, +%zu) after %zu, of %zu bytes", i,
                 st->offset, st->len, prev_end, size);
        prev_end = st->offset + st->len;
        check_alone(sql, st);
        check_exact_ops(s.text + st->offset, st->len);
        check_name(st->name);
        check_name(st->table);
        check_name(st->column);
        check_name(st->new_name);
        if (i > 0)
            pier__buf_puts(&joined, "\n;\n");
        pier__buf_append(&joined, sql + st->offset, st->len);
    }
    FZ_CHECK(!joined.oom, "out of memory");
    pier__sql_script again;
    rc = pier__sql_parse(&again, joined.p != NULL ? joined.p : "",
                         joined.len, &err);
    FZ_CHECK(rc == PIER_OK && again.nstmts == s.nstmts,
             "the statements joined again: %s, %zu statements of %zu",
             pier_status_tag(rc), again.nstmts, s.nstmts);
    for (size_t i = 0; i < s.nstmts; i++)
        FZ_CHECK(again.stmts[i].kind == s.stmts[i].kind,
                 "statement %zu joined again is a %s", i,
                 pier__stmt_kind_name(again.stmts[i].kind));
    pier__sql_script_free(&again);
    pier__buf_free(&joined);
    pier__sql_script_free(&s);
    return 0;
}
