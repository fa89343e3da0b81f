/*
 * exactops.c: a statement's operators written as Pier's exact functions
 * (sql.h, pier__sql_exact_ops; docs/sql.md, "Operators on exact values").
 *
 * SQLite's + - * / % read a DECIMAL, UINT64 or INT128 value (text) as a
 * float, and its comparisons order a computed decimal (text, without the
 * column's affinity) after every number. When the store finds such a
 * statement (sqlite_exact.c), the front-end writes it again:
 *
 *   a + b, a - b, a * b, a / b, a % b, -a, and every tree of them
 *       (_pxe('program', leaf, ...) COLLATE pier_numeric): one call
 *       computing the whole tree (a * 3 - a / 4 is _pxe('xx*xx/-', a, 3,
 *       a, 4)), exact on numbers written as text, SQLite's own arithmetic
 *       on integers and reals; the collation makes ORDER BY, GROUP BY,
 *       DISTINCT, min() and max() of the result order by value.
 *   a < b (<=, >, >=, =, ==, !=, <>), when a or b is such a result, one
 *       of the functions computing decimals (sum, avg, total, decimal*,
 *       a CAST to an exact type) or a choice of values that may be exact
 *       (CASE, coalesce, ifnull, nullif, iif): _pxc(a,b) < 0, by value;
 *       BETWEEN and IN (list) likewise.
 *   sum(x), avg(x), total(x), decimal*(...), CAST to an exact type:
 *       (f(...) COLLATE pier_numeric), for the same orderings.
 *   min(a, b, ...), max(a, b, ...): (_pxmin(...) COLLATE pier_numeric),
 *       _pxmax, by value (SQLite's put every number below every text).
 *
 * The reader knows SQLite's expression grammar as far as it must to find
 * each operator's operands: precedence, parenthesized groups (lists and
 * subqueries are read as statements in their turn), function calls with
 * FILTER and OVER, CASE, BETWEEN ... AND, the assignments of SET. Words
 * that begin a clause end an expression. What it cannot read it leaves:
 * the statement is then prepared as written and the store refuses it, as
 * before. Text is copied byte for byte (comments included) except where it
 * is rewritten. Pure.
 */
#include <string.h>

#include "sql/lex.h"
#include "sql/sql.h"
#include "types/sqlcol.h"
#include "types/temporal.h"

/* Statements longer than this are not rewritten (the rewrite moves bytes
 * of the output for each operator: it is quadratic in the worst case). */
#define MAX_TEXT (256 * 1024)
#define MAX_DEPTH 200

/* Precedence, lowest first (SQLite's parse.y). */
enum {
    P_OR = 1, P_AND, P_NOT, P_EQ, P_CMP, P_BIT, P_ADD, P_MUL, P_CONCAT,
    P_COLLATE, P_UNARY
};

typedef enum xkind {
    X_SIMPLE,      /* a name, a literal, a parameter */
    X_COMPUTED,    /* anything else */
    X_EXACT,       /* an operator rewritten, or a function of decimals */
    X_VECTOR       /* a list in parentheses or a subquery */
} xkind;

typedef struct xval {
    size_t at;     /* where it begins in the output */
    xkind kind;
    bool collate;  /* has a COLLATE of its own */
    bool arith;    /* it is an _pxe call the rewrite wrote (ARITH_HEAD
                      ... ARITH_TAIL), which an operator on it extends */
    bool choice;   /* CASE, coalesce(), ifnull(), nullif(), iif(): one of
                      its operands, which may be exact, without the
                      column's affinity */
} xval;

/* How the rewrite writes arithmetic: one call for a whole tree of
 * operators, its program in postfix ('x' takes the next argument, an
 * operator applies to the two values before it, 'n' negates one), its
 * leaves the arguments in order. */
#define ARITH_HEAD "(_pxe('"
#define ARITH_TAIL ") COLLATE pier_numeric)"
/* Leaves of one call at most (sql.h): a larger tree nests calls. */
#define MAX_LEAVES PIER__EXACT_OPS_LEAVES

typedef struct xp {
    const char *sql;
    size_t n;
    const char *written;       /* for names: the same, as written */
    pier__buf *out;
    size_t emitted;            /* source bytes copied so far */
    pier__token t;             /* the current token */
    int depth;
    bool bad;                  /* cannot read it: give up */
    bool changed;
} xp;

static void advance(xp *p)
{
    const char *why;
    if (pier__sql_token(p->sql, p->n, p->t.end, &p->t, &why) ==
        PIER__TK_BAD)
        p->bad = true;
}

static bool is_word(const xp *p, const char *w)
{
    return p->t.kind == PIER__TK_WORD &&
           pier__name_eq(p->sql + p->t.start, p->t.end - p->t.start, w,
                         strlen(w));
}

static bool is_op(const xp *p, const char *op)
{
    size_t n = strlen(op);
    return p->t.kind == PIER__TK_OP && p->t.end - p->t.start == n &&
           memcmp(p->sql + p->t.start, op, n) == 0;
}

/* Copies the source up to pos. */
static void emit_to(xp *p, size_t pos)
{
    if (pos > p->emitted) {
        pier__buf_append(p->out, p->sql + p->emitted, pos - p->emitted);
        p->emitted = pos;
    }
}

/* Whether a byte may go on a word, a number or a parameter (SQLite's
 * IdChar). */
static bool id_byte(char b)
{
    unsigned char c = (unsigned char)b;
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '$' || c >= 0x80;
}

/* Before an operand that follows a word, a number or a parameter with
 * nothing between (WHERE(a * 2) > 1), a space: what the rewrite may write
 * in front of the operand (_pxc(, a '(') would otherwise join that token
 * (WHERE_pxc, a parameter's Tcl-style "(...)", the name of a parameter
 * that has none yet: a lone '#', ':' or '@'). */
static void separate(xp *p)
{
    pier__buf *o = p->out;
    char last = o->len > 0 ? o->p[o->len - 1] : ' ';
    if (id_byte(last) || last == '#' || last == ':' || last == '@')
        pier__buf_putc(o, ' ');
}

/* Copies the current token (and what precedes it) and moves on. */
static void take(xp *p)
{
    emit_to(p, p->t.end);
    advance(p);
}

/* Inserts s at output offset at. */
static void insert_at(xp *p, size_t at, const char *s)
{
    size_t n = strlen(s), len = p->out->len;
    if (!pier__buf_reserve(p->out, n) || at > len)
        return;
    memmove(p->out->p + at + n, p->out->p + at, len - at);
    memcpy(p->out->p + at, s, n);
    p->out->len += n;
}

/* Replaces out[at .. at+len) by s. */
static void replace_at(xp *p, size_t at, size_t len, const char *s)
{
    size_t n = strlen(s), total = p->out->len;
    if (at + len > total)
        return;
    if (n > len && !pier__buf_reserve(p->out, n - len))
        return;
    memmove(p->out->p + at + n, p->out->p + at + len, total - at - len);
    memcpy(p->out->p + at, s, n);
    p->out->len = total - len + n;
}

/* The output from `at` on replaced by b's text. */
static void replace_tail(xp *p, size_t at, pier__buf *b)
{
    if (b->oom) {
        p->out->oom = true;
        return;
    }
    p->out->len = at;
    pier__buf_append(p->out, b->p, b->len);
    p->changed = true;
}

/* Words that begin a clause (or end a CASE): never an operand. */
static bool clause_word(const xp *p)
{
    static const char *const words[] = {
        "select", "from", "where", "group", "having", "order", "limit",
        "offset", "as", "on", "using", "join", "inner", "left", "right",
        "full", "outer", "cross", "natural", "union", "intersect",
        "except", "all", "distinct", "values", "set", "into", "insert",
        "update", "delete", "returning", "with", "recursive",
        "window", "partition", "rows", "range", "groups", "then", "when",
        "else", "end", "asc", "desc", "nulls", "do", "nothing", "conflict",
        "filter", "over", "indexed", "default", "escape", "and", "or",
        "by", "materialized", "exclude", "preceding", "following",
        "unbounded", NULL,
    };
    if (p->t.kind != PIER__TK_WORD)
        return false;
    for (size_t i = 0; words[i] != NULL; i++)
        if (is_word(p, words[i]))
            return true;
    return false;
}

static xval expr(xp *p, int minprec);
static int seq(xp *p, bool until_end_word, xkind *last);
static void arith(xp *p, xval *l, size_t l_end, const xval *r, char op);

/* A group in parentheses at the current '(' , read as a statement; its
 * kind: a list or a subquery is a vector, one expression its own kind. */
static xkind group_of(xp *p, int *items)
{
    take(p);                                   /* ( */
    bool query = is_word(p, "select") || is_word(p, "values") ||
                 is_word(p, "with");
    xkind last = X_SIMPLE;
    *items = seq(p, false, &last);
    if (p->bad || p->t.kind != PIER__TK_RP) {
        p->bad = true;
        return X_COMPUTED;
    }
    take(p);                                   /* ) */
    return query || *items != 1 ? X_VECTOR : last;
}

static xkind group(xp *p)
{
    int items;
    return group_of(p, &items);
}

/* Whether the function named s[0..n) computes decimals. */
static bool exact_function(const char *s, size_t n)
{
    static const char *const names[] = {
        "sum", "avg", "total", "min", "max", "decimal", "decimal_add",
        "decimal_sub", "decimal_mul", "decimal_div", "decimal_round",
        "date_part", "extract", NULL,
    };
    for (size_t i = 0; names[i] != NULL; i++)
        if (pier__name_eq(s, n, names[i], strlen(names[i])))
            return true;
    return false;
}

/* Whether date_part (extract) called with the arguments at s (its '(')
 * gives an INTEGER: its field is a string literal naming a field that is
 * always a whole number ('year'); second, milliseconds, epoch or a field
 * not written out may be exact text. */
static bool whole_part(const char *s, size_t n)
{
    pier__token t;
    const char *why;
    if (pier__sql_token(s, n, 1, &t, &why) != PIER__TK_STRING ||
        t.end - t.start < 2)
        return false;
    pier__token next;
    pier__tfield f;
    return pier__sql_token(s, n, t.end, &next, &why) == PIER__TK_COMMA &&
           pier__tfield_parse(s + t.start + 1, t.end - t.start - 2, &f) &&
           pier__tfield_whole(f);
}

/* Whether the function named s[0..n) returns one of its arguments. */
static bool choosing(const char *s, size_t n)
{
    static const char *const names[] = {
        "coalesce", "ifnull", "nullif", "iif", "likely", "unlikely",
        "likelihood", NULL,
    };
    for (size_t i = 0; names[i] != NULL; i++)
        if (pier__name_eq(s, n, names[i], strlen(names[i])))
            return true;
    return false;
}

/* Whether the source of a _pcs( call, from its '(' to its ')', casts to an
 * exact type (the rewrite of CAST writes the type last, quoted). */
static bool exact_cast(const char *s, size_t n)
{
    static const char *const types[] = { "'decimal", "'uint64", "'int128" };
    const char *quote = NULL;
    for (size_t i = 0; i + 1 < n; i++)
        if (s[i] == ',' && s[i + 1] == '\'')
            quote = s + i + 1;
    for (size_t i = 0; quote != NULL && i < 3; i++) {
        size_t k = strlen(types[i]);
        if ((size_t)(s + n - quote) >= k &&
            pier__name_eq(quote, k, types[i], k))
            return true;
    }
    return false;
}

/* Whether the output from `at` on is one _pxe call in parentheses: then
 * they go, so that an operator on the group extends the call. */
static bool unwrap(xp *p, size_t at)
{
    pier__buf *o = p->out;
    size_t head = strlen(ARITH_HEAD), tail = strlen(ARITH_TAIL);
    if (o->len < at + 2)              /* (an output that failed to grow) */
        return false;
    size_t from = at + 1, to = o->len - 1;
    while (from < to && (o->p[from] == ' ' || o->p[from] == '\t' ||
                         o->p[from] == '\n' || o->p[from] == '\r'))
        from++;
    while (to > from && (o->p[to - 1] == ' ' || o->p[to - 1] == '\t' ||
                         o->p[to - 1] == '\n' || o->p[to - 1] == '\r'))
        to--;
    if (o->p[at] != '(' || o->p[o->len - 1] != ')' ||
        to - from < head + tail || memcmp(o->p + from, ARITH_HEAD, head) ||
        memcmp(o->p + to - tail, ARITH_TAIL, tail))
        return false;
    /* one call: its head's parenthesis closes at its end */
    long depth = 0;
    bool quoted = false;
    for (size_t i = from; i < to; i++) {
        char c = o->p[i];
        if (c == '\'')
            quoted = !quoted;
        else if (!quoted && c == '(')
            depth++;
        else if (!quoted && c == ')' && --depth == 0 && i + 1 != to)
            return false;
    }
    memmove(o->p + at, o->p + from, to - from);
    o->len = at + (to - from);
    return true;
}

/*
 * sum(x), avg(x) and total(x) of one tree of operators, the call written
 * at out[fn_at ..] with its arguments from args_at: one aggregate that
 * computes the tree and totals it, _pxsum('program', leaf...) (_pxavg,
 * _pxtotal), so that no value in between is text.
 */
static void fuse_aggregate(xp *p, const pier__token *name, size_t fn_at,
                           size_t args_at)
{
    static const char *const fns[] = { "sum", "avg", "total" };
    static const char *const fused[] = { "_pxsum(", "_pxavg(", "_pxtotal(" };
    size_t which = 3;
    for (size_t i = 0; i < 3; i++)
        if (pier__name_eq(p->sql + name->start, name->end - name->start,
                          fns[i], strlen(fns[i])))
            which = i;
    if (which == 3 || p->bad)
        return;
    /* the arguments, unwrapped, are one call (then the parentheses
     * around it are gone) */
    if (!unwrap(p, args_at))
        return;
    size_t head = strlen("(_pxe("), tail = strlen(ARITH_TAIL);
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_puts(&b, fused[which]);
    pier__buf_append(&b, p->out->p + args_at + head,
                     p->out->len - args_at - head - tail);
    pier__buf_putc(&b, ')');
    replace_tail(p, fn_at, &b);
    pier__buf_free(&b);
}

/*
 * min(a, b, ...) and max(a, b, ...), of two arguments or more, the call's
 * name at out[fn_at ..]: as _pxmin and _pxmax, which compare by value
 * where SQLite's put every number below every text (max(price, 0) would
 * be price, even when it is -5).
 */
static void scalar_minmax(xp *p, const pier__token *name, size_t fn_at,
                          int nargs)
{
    size_t n = name->end - name->start;
    const char *s = p->sql + name->start;
    bool min = pier__name_eq(s, n, "min", 3);
    if (p->bad || nargs < 2 || nargs > MAX_LEAVES + 1 ||
        !(min || pier__name_eq(s, n, "max", 3)))
        return;
    replace_at(p, fn_at, n, min ? "_pxmin" : "_pxmax");
    p->changed = true;
}

/* An operand: a literal, a name, a call, a group, CASE, a prefix
 * operator and its operand. */
static xval primary(xp *p)
{
    xval v = { .at = 0, .kind = X_SIMPLE, .collate = false };
    emit_to(p, p->t.start);
    separate(p);
    v.at = p->out->len;
    if (p->bad)
        return v;
    switch (p->t.kind) {
    case PIER__TK_PARAM:
        /* a Tcl-style "(..." left open, which SQLite refuses: what the
         * rewrite writes after it would close it */
        if (memchr(p->sql + p->t.start, '(', p->t.end - p->t.start) !=
                NULL && p->sql[p->t.end - 1] != ')') {
            p->bad = true;
            return v;
        }
        take(p);
        return v;
    case PIER__TK_NUMBER:
    case PIER__TK_STRING:
    case PIER__TK_BLOB:
        take(p);
        return v;
    case PIER__TK_LP:
        v.kind = group(p);
        if (v.kind == X_EXACT)
            v.arith = unwrap(p, v.at);
        return v;
    case PIER__TK_OP:
        if (is_op(p, "*")) {                  /* SELECT *, count(*) */
            take(p);
            return v;
        }
        if (is_op(p, "{") && p->t.start + 1 < p->n &&
            p->sql[p->t.start + 1] == '{') {
            /* a board query's placeholder, {{board}}: a table's name */
            size_t end = p->t.start + 2;
            while (end + 1 < p->n &&
                   !(p->sql[end] == '}' && p->sql[end + 1] == '}'))
                end++;
            if (end + 1 >= p->n) {
                p->bad = true;
                return v;
            }
            emit_to(p, end + 2);
            p->t.end = end + 2;
            advance(p);
            while (!p->bad && p->t.kind == PIER__TK_DOT) {   /* .column */
                take(p);
                if (p->t.kind != PIER__TK_WORD &&
                    p->t.kind != PIER__TK_QUOTED && !is_op(p, "*"))
                    p->bad = true;
                else
                    take(p);
            }
            return v;
        }
        if (is_op(p, "-")) {
            size_t minus = p->t.start;
            advance(p);
            if (p->t.kind == PIER__TK_NUMBER) {   /* a negative literal */
                emit_to(p, p->t.end);
                advance(p);
                return v;
            }
            /* -x: its operand binds tighter than any operator */
            emit_to(p, minus);
            p->emitted = minus + 1;
            xval x = expr(p, P_COLLATE);
            arith(p, NULL, 0, &x, 'n');
            x.kind = X_EXACT;
            x.collate = false;
            x.arith = true;
            return x;
        }
        if (is_op(p, "+") || is_op(p, "~")) {
            take(p);
            xval x = expr(p, P_COLLATE);
            x.at = v.at;
            x.arith = false;
            if (x.kind == X_SIMPLE)
                x.kind = X_COMPUTED;
            return x;
        }
        p->bad = true;
        return v;
    case PIER__TK_WORD:
        if (is_word(p, "not")) {
            take(p);
            xval x = expr(p, P_EQ);
            x.at = v.at;
            x.kind = X_COMPUTED;
            x.arith = false;
            x.choice = false;
            return x;
        }
        if (is_word(p, "exists")) {
            take(p);
            if (p->t.kind != PIER__TK_LP) {
                p->bad = true;
                return v;
            }
            group(p);
            v.kind = X_COMPUTED;
            return v;
        }
        if (is_word(p, "case")) {
            take(p);
            xkind last;
            seq(p, true, &last);
            if (p->bad || !is_word(p, "end")) {
                p->bad = true;
                return v;
            }
            take(p);
            v.kind = X_COMPUTED;
            v.choice = true;
            return v;
        }
        if (clause_word(p)) {
            p->bad = true;
            return v;
        }
        break;
    case PIER__TK_QUOTED:
        break;
    default:
        p->bad = true;
        return v;
    }
    /* a name, a qualified name (t.c, s.t.c, t.*), or a call */
    pier__token name = p->t;
    bool qualified = false;
    take(p);
    while (!p->bad && p->t.kind == PIER__TK_DOT) {
        qualified = true;
        take(p);
        if (p->t.kind != PIER__TK_WORD && p->t.kind != PIER__TK_QUOTED &&
            !is_op(p, "*")) {
            p->bad = true;
            return v;
        }
        name = p->t;
        take(p);
    }
    if (p->t.kind != PIER__TK_LP)
        return v;
    size_t args = p->t.start;
    emit_to(p, args);
    size_t args_at = p->out->len;
    int nargs;
    group_of(p, &nargs);
    /* (a qualified call, a table-valued function's in FROM, is none of
     * these) */
    if (!qualified) {
        fuse_aggregate(p, &name, v.at, args_at);
        scalar_minmax(p, &name, v.at, nargs);
    }
    bool part = pier__name_eq(p->sql + name.start, name.end - name.start,
                              "date_part", 9) ||
                pier__name_eq(p->sql + name.start, name.end - name.start,
                              "extract", 7);
    bool exact = !qualified &&
                 !(part && whole_part(p->sql + args, p->emitted - args)) &&
                 (exact_function(p->sql + name.start, name.end - name.start) ||
                  (pier__name_eq(p->sql + name.start, name.end - name.start,
                                 "_pcs", 4) &&
                   exact_cast(p->sql + args, p->emitted - args)));
    if (is_word(p, "filter")) {
        take(p);
        if (p->t.kind != PIER__TK_LP) {
            p->bad = true;
            return v;
        }
        group(p);
    }
    if (is_word(p, "over")) {
        take(p);
        if (p->t.kind == PIER__TK_LP)
            group(p);
        else if (p->t.kind == PIER__TK_WORD || p->t.kind == PIER__TK_QUOTED)
            take(p);
        else
            p->bad = true;
    }
    v.kind = X_COMPUTED;
    v.choice = !qualified && choosing(p->sql + name.start,
                                      name.end - name.start);
    if (exact) {
        insert_at(p, v.at, "(");
        pier__buf_puts(p->out, " COLLATE pier_numeric)");
        p->changed = true;
        v.kind = X_EXACT;
    }
    return v;
}

/* The binary operator at the current token: its precedence, or 0. */
static int binary(const xp *p)
{
    if (p->t.kind == PIER__TK_OP) {
        static const struct { const char *op; int prec; } ops[] = {
            { "||", P_CONCAT }, { "->>", P_CONCAT }, { "->", P_CONCAT },
            { "*", P_MUL },     { "/", P_MUL },      { "%", P_MUL },
            { "+", P_ADD },     { "-", P_ADD },      { "&", P_BIT },
            { "|", P_BIT },     { "<<", P_BIT },     { ">>", P_BIT },
            { "<", P_CMP },     { "<=", P_CMP },     { ">", P_CMP },
            { ">=", P_CMP },    { "=", P_EQ },       { "==", P_EQ },
            { "!=", P_EQ },     { "<>", P_EQ },
        };
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
            if (is_op(p, ops[i].op))
                return ops[i].prec;
        return 0;
    }
    if (is_word(p, "or"))
        return P_OR;
    if (is_word(p, "and"))
        return P_AND;
    if (is_word(p, "is") || is_word(p, "in") || is_word(p, "like") ||
        is_word(p, "glob") || is_word(p, "match") || is_word(p, "regexp") ||
        is_word(p, "between") || is_word(p, "isnull") ||
        is_word(p, "notnull") || is_word(p, "not"))
        return P_EQ;
    if (is_word(p, "collate"))
        return P_COLLATE;
    return 0;
}

/* The output's bytes [from, to) appended to b, trailing space cut. */
static void put_span(pier__buf *b, const xp *p, size_t from, size_t to)
{
    /* (not a line feed: it may end a comment) */
    while (to > from && (p->out->p[to - 1] == ' ' ||
                         p->out->p[to - 1] == '\t'))
        to--;
    pier__buf_append(b, p->out->p + from, to - from);
}

/*
 * The predicates after an operand l: IS [NOT] [DISTINCT FROM] y,
 * [NOT] BETWEEN a AND b, [NOT] IN (...), [NOT] LIKE/GLOB/MATCH/REGEXP y
 * [ESCAPE z], ISNULL, NOTNULL, NOT NULL. BETWEEN and IN of a list with an
 * exact value are written as the comparisons they are:
 * (_pxc(x,a) >= 0 AND _pxc(x,b) <= 0), (_pxc(x,a) = 0 OR ...).
 */
static xval predicate(xp *p, xval l)
{
    emit_to(p, p->t.start);
    size_t x_end = p->out->len;
    xval v = { .at = l.at, .kind = X_COMPUTED, .collate = false };
    if (is_word(p, "isnull") || is_word(p, "notnull")) {
        take(p);
        return v;
    }
    bool negated = false;
    if (is_word(p, "not")) {
        take(p);
        negated = true;
        if (is_word(p, "null")) {
            take(p);
            return v;
        }
    } else if (is_word(p, "is")) {
        take(p);
        if (is_word(p, "not"))
            take(p);
        if (is_word(p, "distinct")) {
            take(p);
            if (!is_word(p, "from")) {
                p->bad = true;
                return v;
            }
            take(p);
        }
        expr(p, P_EQ + 1);
        return v;
    }
    bool between = is_word(p, "between"), in = is_word(p, "in");
    if (!between && !in && !is_word(p, "like") && !is_word(p, "glob") &&
        !is_word(p, "match") && !is_word(p, "regexp")) {
        p->bad = true;
        return v;
    }
    take(p);
    bool exact = l.kind == X_EXACT || l.choice;
    bool plain = !l.collate && l.kind != X_VECTOR;
    size_t spans[2 * 64];
    size_t nspans = 0;
    if (between) {
        xval a = expr(p, P_EQ + 1);
        emit_to(p, p->t.start);
        spans[nspans++] = a.at;
        spans[nspans++] = p->out->len;
        if (!is_word(p, "and")) {
            p->bad = true;
            return v;
        }
        take(p);
        xval b = expr(p, P_EQ + 1);
        spans[nspans++] = b.at;
        spans[nspans++] = p->out->len;
        exact = exact || a.kind == X_EXACT || b.kind == X_EXACT ||
                a.choice || b.choice;
        plain = plain && !a.collate && !b.collate && a.kind != X_VECTOR &&
                b.kind != X_VECTOR;
    } else if (in && p->t.kind == PIER__TK_LP && exact && plain) {
        /* a list (not a subquery): each item's span */
        take(p);
        if (is_word(p, "select") || is_word(p, "values") ||
            is_word(p, "with")) {
            xkind last;
            seq(p, false, &last);
            plain = false;
        }
        while (plain && !p->bad && p->t.kind != PIER__TK_RP) {
            xval item = expr(p, P_OR);
            emit_to(p, p->t.start);
            if (nspans + 2 > sizeof spans / sizeof spans[0] ||
                item.collate || item.kind == X_VECTOR) {
                plain = false;
                break;
            }
            spans[nspans++] = item.at;
            spans[nspans++] = p->out->len;
            if (p->t.kind != PIER__TK_COMMA)
                break;
            take(p);
        }
        if (!plain) {
            xkind last;
            seq(p, false, &last);
        }
        if (p->t.kind != PIER__TK_RP) {
            p->bad = true;
            return v;
        }
        take(p);
    } else if (in) {
        primary(p);                        /* (list), a table, t(args) */
        return v;
    } else {
        expr(p, P_EQ + 1);
        if (is_word(p, "escape")) {
            take(p);
            expr(p, P_EQ + 1);
        }
        return v;
    }
    if (p->bad || !exact || !plain || nspans == 0)
        return v;
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_puts(&b, negated ? "(NOT (" : "(");
    for (size_t k = 0; k < nspans; k += 2) {
        if (k > 0)
            pier__buf_puts(&b, between ? " AND " : " OR ");
        pier__buf_puts(&b, "_pxc(");
        put_span(&b, p, l.at, x_end);
        pier__buf_putc(&b, ',');
        put_span(&b, p, spans[k], spans[k + 1]);
        pier__buf_puts(&b, !between ? ") = 0" : k == 0 ? ") >= 0"
                                                        : ") <= 0");
    }
    pier__buf_puts(&b, negated ? "))" : ")");
    replace_tail(p, l.at, &b);
    pier__buf_free(&b);
    return v;
}

/* The program and the leaves (their text, joined by ", ") of the output
 * out[v->at .. end): an _pxe call's own, or a program of one leaf. */
static void tree_parts(const xp *p, const xval *v, size_t end,
                       pier__buf *prog, pier__buf *args, size_t *nleaves)
{
    if (p->out->p == NULL || end < v->at) {
        pier__buf_putc(prog, 'x');             /* (nothing written yet) */
        *nleaves = 1;
        return;
    }
    const char *text = p->out->p + v->at;
    size_t n = end - v->at;
    /* (not a line feed: it may end a comment) */
    while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t'))
        n--;
    size_t head = strlen(ARITH_HEAD), tail = strlen(ARITH_TAIL);
    if (v->arith && n >= head + tail &&
        memcmp(text, ARITH_HEAD, head) == 0 &&
        memcmp(text + n - tail, ARITH_TAIL, tail) == 0) {
        const char *quote = memchr(text + head, '\'', n - head);
        size_t plen = (size_t)(quote - (text + head));
        pier__buf_append(prog, text + head, plen);
        size_t from = head + plen + 3;         /* past "', " */
        pier__buf_append(args, text + from, n - tail - from);
        *nleaves = 0;
        for (size_t i = 0; i < plen; i++)
            *nleaves += text[head + i] == 'x';
        return;
    }
    pier__buf_putc(prog, 'x');
    pier__buf_append(args, text, n);
    *nleaves = 1;
}

/* L op R (L at l->at, up to l_end; R from r->at to the output's end) as
 * one _pxe call, or op R alone (l NULL: 'n', a negation). A side that is
 * such a call already lends its program and leaves, unless the whole
 * would have too many leaves: then each side is a leaf of its own. */
static void arith(xp *p, xval *l, size_t l_end, const xval *r, char op)
{
    if (p->bad)
        return;
    pier__buf prog, args, side;
    pier__buf_init(&prog);
    pier__buf_init(&args);
    pier__buf_init(&side);
    const xval *sides[2] = { l, r };
    size_t ends[2] = { l_end, p->out->len }, counts[2] = { 0, 0 };
    for (int pass = 0; pass < 2; pass++) {
        pier__buf_reset(&prog);
        pier__buf_reset(&args);
        for (int k = 0; k < 2; k++) {
            if (sides[k] == NULL)
                continue;
            xval leaf = *sides[k];
            if (pass == 1)
                leaf.arith = false;            /* a nested call */
            pier__buf_reset(&side);
            tree_parts(p, &leaf, ends[k], &prog, &side, &counts[k]);
            if (args.len > 0)
                pier__buf_puts(&args, ", ");
            pier__buf_append(&args, side.p, side.len);
            if (side.oom)
                args.oom = true;       /* (the next side resets `side`) */
        }
        if (counts[0] + counts[1] <= MAX_LEAVES)
            break;
    }
    pier__buf_putc(&prog, op);
    pier__buf text;
    pier__buf_init(&text);
    pier__buf_puts(&text, ARITH_HEAD);
    pier__buf_append(&text, prog.p, prog.len);
    pier__buf_puts(&text, "', ");
    pier__buf_append(&text, args.p, args.len);
    pier__buf_puts(&text, ARITH_TAIL);
    if (prog.oom || args.oom || side.oom)
        text.oom = true;
    size_t at = l != NULL ? l->at : r->at;
    replace_tail(p, at, &text);
    pier__buf_free(&text);
    pier__buf_free(&prog);
    pier__buf_free(&args);
    pier__buf_free(&side);
    if (l != NULL) {
        l->kind = X_EXACT;
        l->collate = false;
        l->arith = true;
    }
}

static xval expr(xp *p, int minprec)
{
    if (++p->depth > MAX_DEPTH)
        p->bad = true;
    xval l = primary(p);
    for (;;) {
        int prec = p->bad ? 0 : binary(p);
        if (prec == 0 || prec < minprec)
            break;
        if (prec == P_COLLATE) {
            take(p);                           /* COLLATE */
            /* (pier_numeric compares by value, as _pxc does: a
             * comparison under it is rewritten as any other) */
            if (!(p->t.kind == PIER__TK_WORD &&
                  pier__name_eq(p->sql + p->t.start, p->t.end - p->t.start,
                                "pier_numeric", 12)))
                l.collate = true;
            take(p);                           /* its name */
            l.arith = false;
            continue;
        }
        if (prec == P_EQ && p->t.kind == PIER__TK_WORD) {
            l = predicate(p, l);
            continue;
        }
        /* a symbol, or AND / OR */
        size_t op_start = p->t.start, op_len = p->t.end - p->t.start;
        char op[4] = { 0 };
        if (op_len < sizeof op)
            memcpy(op, p->sql + op_start, op_len);
        emit_to(p, op_start);
        size_t op_at = p->out->len;
        take(p);
        xval r = expr(p, prec + 1);
        if (p->bad)
            break;
        if (prec == P_ADD || prec == P_MUL) {
            arith(p, &l, op_at, &r, op[0]);
            continue;
        }
        /* (a subquery beside an exact value is one value; a list there
         * is an error as it was) */
        if ((prec == P_CMP || prec == P_EQ) &&
            (l.kind == X_EXACT || r.kind == X_EXACT || l.choice ||
             r.choice) &&
            !l.collate && !r.collate &&
            !(l.kind == X_VECTOR && r.kind == X_VECTOR)) {
            replace_at(p, op_at, op_len, ",");
            insert_at(p, l.at, "_pxc(");
            pier__buf_puts(p->out, ") ");
            pier__buf_puts(p->out, op);
            pier__buf_puts(p->out, " 0");
            /* (a word right after: (a*2)AND b) */
            if (p->emitted < p->n && id_byte(p->sql[p->emitted]))
                pier__buf_putc(p->out, ' ');
            p->changed = true;
        }
        l.kind = X_COMPUTED;
        l.collate = false;
        l.arith = false;
        l.choice = false;
    }
    p->depth--;
    return l;
}

/* A result column (of a SELECT or a RETURNING) without an alias that the
 * rewrite changed gets the name SQLite would have given it, its text as
 * written (src .. here). */
static void keep_name(xp *p, size_t src, size_t at)
{
    bool alias = is_word(p, "as") || p->t.kind == PIER__TK_QUOTED ||
                 p->t.kind == PIER__TK_STRING ||
                 (p->t.kind == PIER__TK_WORD && !clause_word(p));
    size_t n = p->emitted - src;
    if (alias || (p->out->len - at == n &&
                  memcmp(p->out->p + at, p->sql + src, n) == 0))
        return;
    pier__buf_puts(p->out, " AS \"");
    for (size_t i = src; i < p->emitted; i++) {
        if (p->written[i] == '"')
            pier__buf_putc(p->out, '"');
        pier__buf_putc(p->out, p->written[i]);
    }
    pier__buf_putc(p->out, '"');
}

/* Reads a statement (or what a group or a CASE holds) up to its ')' or
 * END (until_end_word) or the text's end: clause words are copied,
 * everything else is read as expressions. Returns how many expressions
 * were read at this level outside clauses; *last the kind of the last. */
static int seq(xp *p, bool until_end_word, xkind *last)
{
    int items = 0;
    bool list = false;         /* in the result columns of a SELECT or a
                                  RETURNING */
    if (++p->depth > MAX_DEPTH)
        p->bad = true;
    while (!p->bad) {
        switch (p->t.kind) {
        case PIER__TK_END:
            if (until_end_word)
                p->bad = true;
            p->depth--;
            return items;
        case PIER__TK_RP:
            if (until_end_word)
                p->bad = true;
            p->depth--;
            return items;
        case PIER__TK_COMMA:
        case PIER__TK_SEMI:
            take(p);
            items++;
            continue;
        default:
            break;
        }
        if (until_end_word && is_word(p, "end")) {
            p->depth--;
            return items;
        }
        if (is_word(p, "set")) {
            /* assignments: name = expr, (a, b) = (...) */
            take(p);
            for (;;) {
                if (p->t.kind == PIER__TK_LP) {
                    xkind ignored;
                    take(p);
                    seq(p, false, &ignored);
                    if (p->t.kind != PIER__TK_RP)
                        p->bad = true;
                }
                if (p->bad)
                    break;
                take(p);                       /* the name, or ')' */
                if (!is_op(p, "=")) {
                    p->bad = true;
                    break;
                }
                take(p);
                expr(p, P_OR);
                if (p->bad || p->t.kind != PIER__TK_COMMA)
                    break;
                take(p);
            }
            continue;
        }
        if (clause_word(p) && !is_word(p, "and") && !is_word(p, "or")) {
            bool select = is_word(p, "select") || is_word(p, "returning");
            if (!(list && (is_word(p, "distinct") || is_word(p, "all") ||
                           is_word(p, "as"))))
                list = select;
            take(p);
            items = 0;
            continue;
        }
        if (is_word(p, "and") || is_word(p, "or")) {
            take(p);                  /* (BETWEEN ... AND in a frame) */
            continue;
        }
        emit_to(p, p->t.start);
        separate(p);
        size_t src = p->t.start, at = p->out->len;
        xval v = expr(p, P_OR);
        if (items == 0)
            items = 1;
        *last = v.kind;
        if (list && !p->bad)
            keep_name(p, src, at);
    }
    p->depth--;
    return items;
}

bool pier__sql_exact_ops(pier__buf *out, const char *sql, size_t n,
                         const char *written)
{
    if (n > MAX_TEXT)
        return false;
    xp p = { .sql = sql, .n = n, .written = written != NULL ? written : sql,
             .out = out };
    p.t.end = 0;
    advance(&p);
    xkind last;
    seq(&p, false, &last);
    if (p.bad || p.t.kind != PIER__TK_END || !p.changed || out->oom)
        return false;
    emit_to(&p, n);
    return !out->oom;
}
