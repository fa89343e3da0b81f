/*
 * sqlite_exact.c: refusing inexact arithmetic on exact columns.
 *
 * DECIMAL, UINT64 and INT128 values are stored as text (under the
 * pier_numeric collation). SQLite's + - * / and its numeric functions
 * would read them as floating-point numbers and hand back an approximation
 * without a word, so a statement that computes on such a column is refused
 * when it is prepared, with a message naming the exact function to use
 * (decimal_add, decimal_sub, decimal_mul, decimal_div); sum(), avg() and
 * total() are exact (sqlite_sqlfns.c) and stay allowed.
 *
 * SQLite reports no expression tree, so the statement's bytecode is read
 * instead (EXPLAIN): a register loaded by OP_Column from an exact column
 * (through any cursor on the table, its indexes, or a WITHOUT ROWID
 * table's key) is "exact"; copies carry that on; a register written by
 * another known producer (a constant, a function, a cast...) is not. An
 * arithmetic opcode or a numeric function that reads an exact register is
 * the refusal. CAST(x AS REAL) says the approximation is wanted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql.h"
#include "store/sqlite_int.h"
#include "types/temporal.h"

/* The storage columns of one b-tree (a table, a WITHOUT ROWID table's
 * key, an index): which are exact, and their names for the message. */
typedef struct tree {
    int root;
    char table[128];
    int ncols;
    char (*names)[128];        /* per storage column; "" when not exact */
    char *numeric;             /* per storage column: 1 when SQLite reads
                                  text stored in it as a number (INTEGER
                                  or REAL), else 0 */
} tree;

/* In `reg`: a register written with a value that is not exact (0 is one never
 * written, in address order: where paths meet, it takes the other's). */
enum { PLAIN = 1 << 29 };

/* A register's exactness whose value was chosen where paths met (met),
 * so that rows may hold an exact value or a number: a flag on it. */
enum { CHOSEN = 1 << 28 };

/* The exactness (as `reg` holds it) of each field of a record. */
typedef struct fields {
    int *v;
    size_t n;
    long from;                 /* a record MakeRecord made: its first
                                  register + 1; else 0 */
} fields;

typedef struct analysis {
    pier__sqlite_lake *l;
    tree *trees;
    size_t ntrees;
    int *cursor_root;          /* per VDBE cursor: its root page, or 0 */
    fields *recs;              /* per register: the fields of the record
                                  MakeRecord or SorterData put there */
    size_t nrecs;
    fields *curs;              /* per cursor: the fields of the records
                                  written to it (a sorter, an ephemeral
                                  table), for Column to read back */
    size_t ncurs;
    size_t ncursors;
    int *reg;                  /* per register: index+1 of the exact
                                  column's name in `names` (negative: a
                                  value computed from one, which has no
                                  column's affinity), or 0 */
    size_t nregs;
    char (*names)[160];        /* "table.column" of exact registers */
    size_t nnames;
    int *param;                /* per register: the parameter (1-based)
                                  whose value it holds, or 0 */
    size_t nparam_regs;
    fields *precs;             /* per register: the parameters of the
                                  fields of the record MakeRecord put
                                  there */
    size_t nprecs;
    unsigned char *uses;       /* per parameter: PARAM_EXACT_USE and
                                  PARAM_OTHER_USE */
    size_t nuses;
    fields *joins;             /* per address: the registers' exactness
                                  on the jumps to it seen so far (merged) */
    size_t njoins;
    fields *join_params;       /* and the parameters they hold */
    size_t njoin_params;
    size_t max_args;           /* at most this many arguments to a call
                                  (the statement's commas, plus one) */
    int *pending;              /* per register: a record MakeRecord made
                                  of a computed exact value (its name, as
                                  `reg` holds it), refused unless it is
                                  stored in a table or its index */
    size_t npending;
    int *konst;                /* per register: what the string constant
                                  it was last loaded with is (K_WHOLE,
                                  K_WIDE), or 0 */
    size_t nkonst;
    bool rewritten;            /* the statement is the front-end's rewrite
                                  of its operators */
    bool rewrite;              /* out: refused for what that rewrite
                                  computes exactly */
} analysis;

/* Whether the schema has any exact column at all: the check costs a
 * second prepare, which most lakes never need. Kept per schema cookie. */
static bool any_exact(pier__sqlite_lake *l)
{
    sqlite3_stmt *st = NULL;
    bool any = false;
    if (sqlite3_prepare_v2(l->db,
                           "SELECT 1 FROM sqlite_schema WHERE type = 'table' "
                           "AND sql LIKE '%COLLATE pier\\_numeric%' ESCAPE "
                           "'\\' AND name NOT LIKE '\\_pier\\_%' ESCAPE '\\' "
                           "LIMIT 1", -1, &st, NULL) == SQLITE_OK)
        any = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return any;
}

/* The exact columns of `table`, in table order (cid), into names[cid]
 * ("" for the others). Returns the number of columns, or -1. */
static int table_columns(sqlite3 *db, const char *table,
                         char (**names)[128], int **pk, char **numeric)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "SELECT name, pk, hidden FROM "
                           "pragma_table_xinfo(?1) ORDER BY cid", -1, &st,
                           NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    int n = 0, cap = 0;
    *names = NULL;
    *pk = NULL;
    *numeric = NULL;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap == 0 ? 16 : cap * 2;
            char(*nn)[128] = realloc(*names, (size_t)cap * sizeof **names);
            int *np = realloc(*pk, (size_t)cap * sizeof **pk);
            char *nu = realloc(*numeric, (size_t)cap);
            if (nn != NULL)
                *names = nn;
            if (np != NULL)
                *pk = np;
            if (nu != NULL)
                *numeric = nu;
            if (nn == NULL || np == NULL || nu == NULL) {
                sqlite3_finalize(st);
                return -1;
            }
        }
        const char *name = (const char *)sqlite3_column_text(st, 0);
        const char *coll = NULL, *type = NULL;
        sqlite3_table_column_metadata(db, "main", table, name, &type, &coll,
                                      NULL, NULL, NULL);
        bool exact = coll != NULL && strcmp(coll, "pier_numeric") == 0;
        (*numeric)[n] = type != NULL && (strcmp(type, "INTEGER") == 0 ||
                                         strcmp(type, "INT") == 0 ||
                                         strcmp(type, "REAL") == 0);
        snprintf((*names)[n], 128, "%s", exact && name != NULL ? name : "");
        /* A VIRTUAL generated column (hidden 2) has no storage: mark it so
         * that storage order skips it. */
        (*pk)[n] = sqlite3_column_int(st, 2) == 2 ? -1
                                                  : sqlite3_column_int(st, 1);
        n++;
    }
    sqlite3_finalize(st);
    return n;
}

/* The next storage column of t. */
static void keep_column(tree *t, const char name[128], char numeric)
{
    memcpy(t->names[t->ncols], name, 128);
    t->numeric[t->ncols++] = numeric;
}

/* Builds the storage columns of every b-tree of the main schema. */
static int load_trees(analysis *a)
{
    sqlite3 *db = a->l->db;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, rootpage, "
                           "sql LIKE '%WITHOUT ROWID%' FROM sqlite_schema "
                           "WHERE rootpage > 0 AND tbl_name NOT LIKE "
                           "'\\_pier\\_%' ESCAPE '\\'", -1, &st,
                           NULL) != SQLITE_OK)
        return -1;
    int rc = 0;
    while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
        const char *type = (const char *)sqlite3_column_text(st, 0);
        const char *name = (const char *)sqlite3_column_text(st, 1);
        const char *tbl = (const char *)sqlite3_column_text(st, 2);
        tree *grown = realloc(a->trees, (a->ntrees + 1) * sizeof *a->trees);
        if (grown == NULL || type == NULL || name == NULL || tbl == NULL) {
            if (grown != NULL)
                a->trees = grown;
            rc = -1;
            break;
        }
        a->trees = grown;
        tree *t = &a->trees[a->ntrees++];
        *t = (tree){ .root = sqlite3_column_int(st, 3) };
        snprintf(t->table, sizeof t->table, "%s", tbl);
        char(*cols)[128] = NULL;
        int *pk = NULL;
        char *numeric = NULL;
        int n = table_columns(db, tbl, &cols, &pk, &numeric);
        if (n >= 0) {
            t->names = calloc((size_t)n + 1, sizeof *t->names);
            t->numeric = calloc((size_t)n + 1, 1);
        }
        if (n < 0 || t->names == NULL || t->numeric == NULL) {
            free(cols);
            free(pk);
            free(numeric);
            rc = -1;
            break;
        }
        if (strcmp(type, "index") == 0) {
            /* An index's columns, in index order: the table's columns
             * they hold (the rowid and expressions are not exact). */
            sqlite3_stmt *ix = NULL;
            if (sqlite3_prepare_v2(db, "SELECT cid FROM "
                                   "pragma_index_xinfo(?1) ORDER BY seqno",
                                   -1, &ix, NULL) == SQLITE_OK) {
                sqlite3_bind_text(ix, 1, name, -1, SQLITE_STATIC);
                while (sqlite3_step(ix) == SQLITE_ROW &&
                       t->ncols < n + 1) {
                    int cid = sqlite3_column_int(ix, 0);
                    if (cid >= 0 && cid < n) {
                        memcpy(t->names[t->ncols], cols[cid], 128);
                        t->numeric[t->ncols] = numeric[cid];
                    } else {
                        t->numeric[t->ncols] = cid == -1;   /* the rowid */
                    }
                    t->ncols++;
                }
            }
            sqlite3_finalize(ix);
        } else if (sqlite3_column_int(st, 4)) {
            /* A WITHOUT ROWID table stores its key columns first. */
            for (int k = 1; k <= n; k++)
                for (int c = 0; c < n; c++)
                    if (pk[c] == k)
                        keep_column(t, cols[c], numeric[c]);
            for (int c = 0; c < n; c++)
                if (pk[c] == 0)
                    keep_column(t, cols[c], numeric[c]);
        } else {
            for (int c = 0; c < n; c++)
                if (pk[c] >= 0)
                    keep_column(t, cols[c], numeric[c]);
        }
        free(cols);
        free(pk);
        free(numeric);
    }
    sqlite3_finalize(st);
    return rc;
}

static const tree *tree_of(const analysis *a, int root)
{
    for (size_t i = 0; i < a->ntrees; i++)
        if (a->trees[i].root == root)
            return &a->trees[i];
    return NULL;
}

/* Grows a per-index array of ints to hold index i. */
static bool room(int **v, size_t *n, size_t i)
{
    if (i < *n)
        return true;
    size_t cap = i + 64;
    int *grown = realloc(*v, cap * sizeof *grown);
    if (grown == NULL)
        return false;
    memset(grown + *n, 0, (cap - *n) * sizeof *grown);
    *v = grown;
    *n = cap;
    return true;
}

/* The record slot i of *arr, grown to hold it; NULL when out of memory
 * (or i negative). */
static fields *slot(fields **arr, size_t *n, long i)
{
    if (i < 0)
        return NULL;
    if ((size_t)i >= *n) {
        size_t cap = (size_t)i + 16;
        fields *grown = realloc(*arr, cap * sizeof *grown);
        if (grown == NULL)
            return NULL;
        memset(grown + *n, 0, (cap - *n) * sizeof *grown);
        *arr = grown;
        *n = cap;
    }
    return &(*arr)[i];
}

/* dst takes src's fields: a copy, or (merge) each exact field added. */
static bool fields_put(fields *dst, const int *src, size_t n, bool merge)
{
    if (!merge)
        dst->n = 0;
    if (n > dst->n) {
        int *grown = realloc(dst->v, n * sizeof *grown);
        if (grown == NULL)
            return false;
        memset(grown + dst->n, 0, (n - dst->n) * sizeof *grown);
        dst->v = grown;
        dst->n = n;
    }
    for (size_t k = 0; k < n; k++)
        if (!merge || (src[k] != 0 && src[k] != PLAIN))
            dst->v[k] = src[k];
    return true;
}

static void fields_free(fields *arr, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(arr[i].v);
    free(arr);
}

static bool set_reg(analysis *a, long r, int value)
{
    if (r < 0 || !room(&a->reg, &a->nregs, (size_t)r))
        return r < 0;
    a->reg[r] = value != 0 ? value : PLAIN;
    if ((size_t)r < a->nparam_regs)
        a->param[r] = 0;               /* (a parameter's is set after) */
    if ((size_t)r < a->nkonst)
        a->konst[r] = 0;               /* (a constant's is set after) */
    return true;
}

/* What a string constant is, for what reads it: */
enum {
    K_WHOLE = 1,   /* the name of a date_part field that is always a whole
                      number ('year'): date_part of it is an INTEGER, not
                      exact text */
    K_WIDE = 2     /* a number SQLite reads inexactly (technique 6 wrote
                      18446744073709551615 so): arithmetic on it is exact */
};

/* Notes what the string constant `p4` loaded into r is. */
static bool set_konst(analysis *a, long r, const char *p4)
{
    pier__tfield f;
    if (r < 0 || p4 == NULL)
        return true;
    size_t n = strlen(p4);
    int k = pier__tfield_parse(p4, n, &f) && pier__tfield_whole(f) ? K_WHOLE
            : pier__sql_inexact_number(p4, n)                      ? K_WIDE
                                                                   : 0;
    if (k == 0)
        return true;
    if (!room(&a->konst, &a->nkonst, (size_t)r))
        return false;
    a->konst[r] = k;
    return true;
}

static int konst_of(const analysis *a, long r)
{
    return r >= 0 && (size_t)r < a->nkonst ? a->konst[r] : 0;
}

/* Whether date_part (extract), its arguments from r, gives an INTEGER. */
static bool whole_part(const analysis *a, long r)
{
    return konst_of(a, r) == K_WHOLE;
}

/* A comparison's affinity in its p5 (SQLite's SQLITE_AFF_MASK and
 * SQLITE_AFF_TEXT). */
enum { AFF_MASK = 0x47, AFF_TEXT = 0x42 };

/* What a parameter's value reaches. */
enum { PARAM_EXACT_USE = 1, PARAM_OTHER_USE = 2 };

static bool set_param(analysis *a, long r, int param)
{
    if (r < 0 || !room(&a->param, &a->nparam_regs, (size_t)r))
        return r < 0;
    a->param[r] = param;
    return true;
}

static int get_param(const analysis *a, long r)
{
    return r >= 0 && (size_t)r < a->nparam_regs ? a->param[r] : 0;
}

static bool use_param(analysis *a, int param, unsigned char use)
{
    if (param <= 0)
        return true;
    if ((size_t)param > a->nuses) {
        unsigned char *grown = realloc(a->uses, (size_t)param + 16);
        if (grown == NULL)
            return false;
        memset(grown + a->nuses, 0, (size_t)param + 16 - a->nuses);
        a->uses = grown;
        a->nuses = (size_t)param + 16;
    }
    a->uses[param - 1] |= use;
    return true;
}

static int get_reg(const analysis *a, long r)
{
    int v = r >= 0 && (size_t)r < a->nregs ? a->reg[r] : 0;
    return v != PLAIN ? v : 0;
}

static const char *name_of(const analysis *a, int named)
{
    return a->names[((named < 0 ? -named : named) & ~CHOSEN) - 1];
}

static bool chosen(int named)
{
    return named < 0 && ((-named) & CHOSEN) != 0;
}

/* The exact value among registers r .. r+n-1, as a computed one. */
static int computed_of(const analysis *a, long r, long n)
{
    for (long k = 0; k < n; k++) {
        int v = get_reg(a, r + k);
        if (v != 0)
            return v < 0 ? v : -v;
    }
    return 0;
}

/*
 * Where control meets. The walk follows the program in address order, so
 * that what a jump carries must be kept for the address it goes to: the
 * value of a register that two paths meet with, such as CASE WHEN c THEN
 * price ELSE 0 END, coalesce(price, 0) or ifnull(...), is the one on
 * either path. Where they differ it is a computed value (it has no
 * column's affinity). Only forward jumps are kept: a loop's registers
 * are written before they are read, but for accumulators, which come
 * before what reads them.
 */

/* The opcodes that may jump to the address in p2 (SQLite's vdbe.c);
 * Jump goes to p1, p2 or p3. */
static bool jumps(const char *op)
{
    static const char *const names[] = {
        "Goto", "Gosub", "InitCoroutine", "If", "IfNot", "IsNull",
        "NotNull", "IfNullRow", "Once", "Eq", "Ne", "Lt", "Le", "Gt", "Ge",
        "ElseEq", "NoConflict", "NotFound", "Found", "IfNoHope",
        "SeekRowid", "NotExists", "SeekLT", "SeekLE", "SeekGE", "SeekGT",
        "SeekScan", "IfNotOpen", "Last", "Sort", "SorterSort", "Rewind",
        "Next", "Prev", "SorterNext", "IdxLE", "IdxGT", "IdxLT", "IdxGE",
        "RowSetRead", "RowSetTest", "Program", "FkIfZero", "IfPos",
        "IfNotZero", "DecrJumpZero", "VFilter", "VNext", "Init", "Filter",
        "MustBeInt", "SequenceTest", "IncrVacuum", "IfSmaller", "IsType",
        "IfSizeBetween", "Jump", NULL,
    };
    for (size_t i = 0; names[i] != NULL; i++)
        if (strcmp(op, names[i]) == 0)
            return true;
    return false;
}

/* Two paths' exactness of one register, met: a value written on one
 * path only is that one; a different one on each, a choice. */
static int met(const analysis *a, int x, int y)
{
    if (x == 0 || x == y)
        return y;
    if (y == 0)
        return x;
    if (x == PLAIN || y == PLAIN) {
        int v = x != PLAIN ? x : y;
        return -((v < 0 ? -v : v) | CHOSEN);
    }
    if (x > 0 && y > 0 && strcmp(name_of(a, x), name_of(a, y)) == 0)
        return x;
    return -((x < 0 ? -x : x) | CHOSEN);
}

/* The registers as they are now, kept for address `to` (a jump there). */
static bool keep_for(analysis *a, long to)
{
    fields *j = slot(&a->joins, &a->njoins, to);
    fields *jp = slot(&a->join_params, &a->njoin_params, to);
    if (j == NULL || jp == NULL)
        return false;
    if (j->from == 0) {                     /* the first jump there */
        j->from = 1;
        return fields_put(j, a->reg, a->nregs, false) &&
               fields_put(jp, a->param, a->nparam_regs, false);
    }
    if (!room(&j->v, &j->n, a->nregs) ||
        !room(&jp->v, &jp->n, a->nparam_regs))
        return false;
    for (size_t k = 0; k < a->nregs; k++)
        j->v[k] = met(a, j->v[k], a->reg[k]);
    for (size_t k = 0; k < a->nparam_regs; k++)
        if (jp->v[k] == 0)
            jp->v[k] = a->param[k];
    return true;
}

/* At address `at`: the registers met with what the jumps there carry. */
static bool meet_at(analysis *a, long at)
{
    if (at < 0 || (size_t)at >= a->njoins || a->joins[at].from == 0)
        return true;
    fields *j = &a->joins[at], *jp = &a->join_params[at];
    if (!room(&a->reg, &a->nregs, j->n) ||
        !room(&a->param, &a->nparam_regs, jp->n))
        return false;
    for (size_t k = 0; k < j->n; k++)
        a->reg[k] = met(a, a->reg[k], j->v[k]);
    for (size_t k = 0; k < jp->n; k++)
        if (a->param[k] == 0)
            a->param[k] = jp->v[k];
    free(j->v);                 /* (no jump comes here from after it) */
    free(jp->v);
    *j = (fields){ NULL, 0, 0 };
    *jp = (fields){ NULL, 0, 0 };
    return true;
}

/* Functions whose result is a computed exact value when an argument is
 * exact (the operators as the front-end writes them, the aggregates that
 * total decimals), or always (the decimal functions). */
static bool passes_exact(const char *p4)
{
    static const char *const names[] = {
        "_pxe(", "_pxsum(", "_pxavg(", "_pxtotal(", "_pxmin(",
        "_pxmax(", "sum(", "avg(", "total(", "min(", "max(", "nullif(",
        NULL,
    };
    for (size_t i = 0; p4 != NULL && names[i] != NULL; i++)
        if (strncmp(p4, names[i], strlen(names[i])) == 0)
            return true;
    return false;
}

/* A function whose result is an exact value: the decimal functions, and
 * date_part (extract), whose second, milliseconds and epoch are decimal
 * text (its other fields are INTEGERs: whole_part). */
static bool date_part(const char *p4)
{
    return p4 != NULL && (strncmp(p4, "date_part(", 10) == 0 ||
                          strncmp(p4, "extract(", 8) == 0);
}

static bool makes_exact(const char *p4)
{
    return p4 != NULL &&
           ((strncmp(p4, "decimal", 7) == 0 &&
             (p4[7] == '(' || p4[7] == '_')) ||
            date_part(p4));
}

/* Numeric functions that would read an exact value as a float or a
 * 64-bit integer (SQLite's math functions, printf and format), each with
 * what to write instead: an exact form where the dialect has one. */
static const char *numeric_function(const char *p4)
{
    static const char no_exact[] =
        "it has no exact form: CAST the value AS REAL to ask for the "
        "approximation";
    static const struct { const char *name, *instead; } names[] = {
        { "abs(", "write CASE WHEN x < 0 THEN -x ELSE x END, which is "
          "exact" },
        { "sign(", "write CASE WHEN x > 0 THEN 1 WHEN x < 0 THEN -1 ELSE 0 "
          "END, which is exact" },
        { "round(", "use decimal_round(x, scale[, mode])" },
        { "ceil(", "use decimal_round(x, 0, 'ceiling')" },
        { "ceiling(", "use decimal_round(x, 0, 'ceiling')" },
        { "floor(", "use decimal_round(x, 0, 'floor')" },
        { "trunc(", "use decimal_round(x, 0, 'down')" },
        { "mod(", "write x % y, which is exact" },
        { "pow(", "write the product x * x * ..., which is exact, or CAST "
          "the value AS REAL to ask for the approximation" },
        { "power(", "write the product x * x * ..., which is exact, or CAST "
          "the value AS REAL to ask for the approximation" },
        { "printf(", "pass CAST(x AS TEXT) to a %s for its digits, "
          "decimal_round(x, scale) for fixed places, or CAST the value AS "
          "REAL to ask for the approximation" },
        { "format(", "pass CAST(x AS TEXT) to a %s for its digits, "
          "decimal_round(x, scale) for fixed places, or CAST the value AS "
          "REAL to ask for the approximation" },
        { "sqrt(", no_exact }, { "exp(", no_exact }, { "ln(", no_exact },
        { "log(", no_exact }, { "log10(", no_exact },
        { "log2(", no_exact }, { "sin(", no_exact }, { "cos(", no_exact },
        { "tan(", no_exact }, { "asin(", no_exact }, { "acos(", no_exact },
        { "atan(", no_exact }, { "atan2(", no_exact },
        { "sinh(", no_exact }, { "cosh(", no_exact },
        { "tanh(", no_exact }, { "asinh(", no_exact },
        { "acosh(", no_exact }, { "atanh(", no_exact },
        { "radians(", no_exact }, { "degrees(", no_exact },
    };
    for (size_t i = 0; p4 != NULL && i < sizeof names / sizeof names[0]; i++)
        if (strncmp(p4, names[i].name, strlen(names[i].name)) == 0)
            return names[i].instead;
    return NULL;
}

/* SQLite's bitwise operators, which read a value as a 64-bit integer (a
 * UINT64 above 2^63 - 1 or an INT128 clamped, a DECIMAL truncated). */
static const char *bitwise_op(const char *op)
{
    static const struct { const char *op, *sign; } ops[] = {
        { "BitAnd", "&" }, { "BitOr", "|" }, { "ShiftLeft", "<<" },
        { "ShiftRight", ">>" }, { "BitNot", "~" },
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(op, ops[i].op) == 0)
            return ops[i].sign;
    return NULL;
}

static pier_status refuse(analysis *a, int named, const char *what,
                          pier_error *err)
{
    const char *col = name_of(a, named);
    a->rewrite = true;
    pier__fail(err, PIER_E_QUERY_FAILED,
               "%s on %s would compute with a floating-point approximation "
               "of an exact value: use decimal_add, decimal_sub, "
               "decimal_mul or decimal_div (or CAST it AS REAL to ask for "
               "the approximation)", what, col);
    return PIER_E_QUERY_FAILED;
}

/* A numeric function reached by an exact value: what to write instead. */
static pier_status refuse_function(analysis *a, int named, const char *what,
                                   const char *instead, pier_error *err)
{
    const char *col = name_of(a, named);
    a->rewrite = true;
    pier__fail(err, PIER_E_QUERY_FAILED,
               "%s on %s would compute with a floating-point or 64-bit "
               "approximation of an exact value: %s", what, col, instead);
    return PIER_E_QUERY_FAILED;
}

/* A bitwise operator reached by an exact value. */
static pier_status refuse_bitwise(analysis *a, int named, const char *sign,
                                  pier_error *err)
{
    const char *col = name_of(a, named);
    a->rewrite = true;
    pier__fail(err, PIER_E_QUERY_FAILED,
               "'%s' on %s would read an exact value as a 64-bit integer "
               "(a UINT64 past 9223372036854775807 or an INT128 clamped, a "
               "DECIMAL cut): bitwise operators have no exact form; CAST "
               "it AS INT64 to ask for that reading", sign, col);
    return PIER_E_QUERY_FAILED;
}

/* ASCII case-insensitive comparison of n bytes. */
static int strncasecmp_c(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x >= 'A' && x <= 'Z')
            x += 32;
        if (y >= 'A' && y <= 'Z')
            y += 32;
        if (x != y || x == 0)
            return x - y;
    }
    return 0;
}

/* Whether a string constant names an exact type: the type argument of a
 * CAST to DECIMAL, UINT64 or INT128 (_pcs, src/sql/rewrite.c). */
static bool exact_type_name(const char *s)
{
    static const char *const names[] = { "decimal", "uint64", "int128" };
    for (size_t i = 0; s != NULL && i < 3; i++) {
        size_t n = strlen(names[i]);
        if (strncasecmp_c(s, names[i], n) == 0 &&
            (s[n] == '\0' || s[n] == '(' || s[n] == ' '))
            return true;
    }
    return false;
}

/* A name for the registers a CAST to an exact type (`type`), or a
 * function computing decimals (`type` NULL, `fn` its p4), makes. */
static int value_name(analysis *a, const char *type, const char *fn)
{
    char(*grown)[160] = realloc(a->names, (a->nnames + 1) * sizeof *a->names);
    if (grown == NULL)
        return -1;
    a->names = grown;
    if (type != NULL) {
        snprintf(a->names[a->nnames], 160, "CAST(... AS %s)", type);
    } else {
        const char *f = fn != NULL ? fn : "";
        snprintf(a->names[a->nnames], 160, "%.*s()", (int)strcspn(f, "("),
                 f);
    }
    return (int)++a->nnames;
}

/* A name (as a computed value's) for a number SQLite reads inexactly
 * (K_WIDE), or 0 when out of memory. */
static int wide_name(analysis *a)
{
    char(*grown)[160] = realloc(a->names, (a->nnames + 1) * sizeof *a->names);
    if (grown == NULL)
        return 0;
    a->names = grown;
    snprintf(a->names[a->nnames], 160,
             "a number of more digits than a double holds");
    return -(int)++a->nnames;
}

/* A name for what storage column k of t holds ("table.column"). */
static int column_name(analysis *a, const tree *t, int k)
{
    char(*grown)[160] = realloc(a->names, (a->nnames + 1) * sizeof *a->names);
    if (grown == NULL)
        return -1;
    a->names = grown;
    snprintf(a->names[a->nnames], 160, "%s.%s", t->table, t->names[k]);
    return (int)++a->nnames;
}

/* A row inserted into cursor p1's table from record p2: the registers the
 * record was made from hold, from then on, what the table's exact columns
 * store, which a RETURNING clause reads. */
static bool stored_exact(analysis *a, long p1, long p2)
{
    int root = p1 >= 0 && (size_t)p1 < a->ncursors ? a->cursor_root[p1] : 0;
    const tree *t = root != 0 ? tree_of(a, root) : NULL;
    if (t == NULL || p2 < 0 || (size_t)p2 >= a->nrecs ||
        a->recs[p2].from == 0)
        return true;
    long from = a->recs[p2].from - 1;
    for (int k = 0; k < t->ncols && (size_t)k < a->recs[p2].n; k++) {
        if (t->names[k][0] == '\0')
            continue;
        int named = column_name(a, t, k);
        if (named < 0 || !set_reg(a, from + k, named))
            return false;
    }
    return true;
}

static pier_status compare_refusal(analysis *a, int named, pier_error *err)
{
    const char *what = name_of(a, named);
    pier__fail(err, PIER_E_QUERY_FAILED,
               "a value computed from %s is exact text without a column's "
               "type, which SQLite would compare and order as text, not "
               "by value: compare it where it is computed, or as "
               "CAST(x AS DECIMAL) (< <= > >= = <> BETWEEN and IN (...) "
               "then compare by value), or CAST it AS REAL", what);
    return PIER_E_QUERY_FAILED;
}

/* An ordering (ORDER BY, GROUP BY, DISTINCT, min(), max()) of a value
 * chosen between an exact one and others. */
static pier_status chosen_refusal(analysis *a, int named, pier_error *err)
{
    a->rewrite = true;          /* (what the rewrite cannot change: it is
                                   refused again, by this) */
    pier__fail(err, PIER_E_QUERY_FAILED,
               "a value chosen between %s and other values (by CASE, "
               "coalesce, ifnull, nullif or iif) may be exact text in one "
               "row and a number in another, which SQLite would order "
               "numbers first, not by value: CAST the choice AS DECIMAL "
               "(or AS REAL to ask for the approximation)",
               name_of(a, named));
    return PIER_E_QUERY_FAILED;
}

/* The scalar min() or max() (p4) of an exact value and others. */
static pier_status minmax_refusal(analysis *a, int named, const char *p4,
                                  pier_error *err)
{
    const char *what = name_of(a, named);
    a->rewrite = true;
    pier__fail(err, PIER_E_QUERY_FAILED,
               "%.3s() of %s and other values would order them as SQLite "
               "does, every number below every text, not by value: write "
               "it as %.3s(a, b, ...) by name, with at most %d arguments, "
               "or CAST the exact value AS REAL", p4, what, p4,
               PIER__EXACT_OPS_LEAVES + 1);
    return PIER_E_QUERY_FAILED;
}

/* Records carry exactness: MakeRecord p1..p1+p2-1 into p3; an insert of
 * record p2 into cursor p1; SorterData reads sorter p1's record into p2
 * for the pseudo-cursor p3. */
static bool carry_fields(analysis *a, const char *op, long p1, long p2,
                         long p3)
{
    if (strcmp(op, "MakeRecord") == 0) {
        fields *f = slot(&a->recs, &a->nrecs, p3);
        fields *pf = slot(&a->precs, &a->nprecs, p3);
        if (f == NULL || pf == NULL || p2 < 0 ||
            !room(&a->reg, &a->nregs, (size_t)(p1 + p2)) ||
            !room(&a->param, &a->nparam_regs, (size_t)(p1 + p2)))
            return p3 < 0;
        f->from = p1 + 1;
        return fields_put(f, a->reg + p1, (size_t)p2, false) &&
               fields_put(pf, a->param + p1, (size_t)p2, false);
    }
    if (strcmp(op, "SorterData") == 0) {
        fields *from = slot(&a->curs, &a->ncurs, p1);
        fields *rec = slot(&a->recs, &a->nrecs, p2);
        fields *pseudo = slot(&a->curs, &a->ncurs, p3);
        from = slot(&a->curs, &a->ncurs, p1);  /* (may have moved) */
        if (from == NULL || rec == NULL || pseudo == NULL)
            return false;
        int *copy = from->n > 0 ? malloc(from->n * sizeof *copy) : NULL;
        if (from->n > 0 && copy == NULL)
            return false;
        if (copy != NULL)
            memcpy(copy, from->v, from->n * sizeof *copy);
        size_t n = from->n;
        a->recs[p2].from = 0;
        bool ok = fields_put(&a->recs[p2], copy, n, false) &&
                  fields_put(&a->curs[p3], copy, n, false);
        free(copy);
        return ok;
    }
    /* an insert: a parameter that fills a column of a table (or one of
     * its indexes) is used by an exact column, by one that reads text as
     * a number (no matter), or by another */
    int root = p1 >= 0 && (size_t)p1 < a->ncursors ? a->cursor_root[p1] : 0;
    const tree *t = root != 0 ? tree_of(a, root) : NULL;
    for (size_t k = 0; t != NULL && p2 >= 0 && (size_t)p2 < a->nprecs &&
                       k < a->precs[p2].n;
         k++) {
        bool in = k < (size_t)t->ncols;
        unsigned char use = in && t->names[k][0] != '\0' ? PARAM_EXACT_USE
                            : in && t->numeric[k]        ? 0
                                                         : PARAM_OTHER_USE;
        if (!use_param(a, a->precs[p2].v[k], use))
            return false;
    }
    if (p2 < 0 || (size_t)p2 >= a->nrecs || a->recs[p2].n == 0)
        return true;
    fields *to = slot(&a->curs, &a->ncurs, p1);
    return to != NULL && fields_put(to, a->recs[p2].v, a->recs[p2].n,
                                    true);
}

/* What the program's prologue (after its first Halt, where SQLite loads
 * constants once, to be read before in program order) puts in registers:
 * parameters, and the type of a CAST to an exact type (so that the cast
 * of a column, in a loop, is exact too). Leaves `st` reset. */
static bool prologue_constants(analysis *a, sqlite3_stmt *st)
{
    bool prologue = false, ok = true;
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        const char *op = (const char *)sqlite3_column_text(st, 1);
        const char *p4 = (const char *)sqlite3_column_text(st, 5);
        if (op == NULL)
            continue;
        if (strcmp(op, "Halt") == 0) {
            prologue = true;
        } else if (prologue && strcmp(op, "Variable") == 0) {
            ok = set_param(a, sqlite3_column_int(st, 3),
                           sqlite3_column_int(st, 2));
        } else if (prologue && strcmp(op, "String8") == 0 &&
                   exact_type_name(p4)) {
            int named = value_name(a, p4, NULL);
            ok = named > 0 && set_reg(a, sqlite3_column_int(st, 3), named);
        } else if (prologue && strcmp(op, "String8") == 0) {
            ok = set_konst(a, sqlite3_column_int(st, 3), p4);
        }
    }
    sqlite3_reset(st);
    return ok;
}

/* Follows the program of `st` (an EXPLAIN statement). */
static pier_status follow(analysis *a, sqlite3_stmt *st, pier_error *err)
{
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *op = (const char *)sqlite3_column_text(st, 1);
        long p1 = sqlite3_column_int(st, 2), p2 = sqlite3_column_int(st, 3);
        long p3 = sqlite3_column_int(st, 4);
        const char *p4 = (const char *)sqlite3_column_text(st, 5);
        long addr = sqlite3_column_int(st, 0);
        bool ok = true;
        if (op == NULL)
            continue;
        if (!meet_at(a, addr))
            return pier__oom(err);
        if (strcmp(op, "OpenRead") == 0 || strcmp(op, "OpenWrite") == 0) {
            ok = p1 >= 0 && room(&a->cursor_root, &a->ncursors, (size_t)p1);
            if (ok)
                a->cursor_root[p1] = p3 == 0 ? (int)p2 : 0;
        } else if (strcmp(op, "Column") == 0) {
            int root = p1 >= 0 && (size_t)p1 < a->ncursors
                           ? a->cursor_root[p1] : 0;
            const tree *t = root != 0 ? tree_of(a, root) : NULL;
            int named = 0;
            if (t != NULL && p2 >= 0 && p2 < t->ncols &&
                t->names[p2][0] != '\0') {
                named = column_name(a, t, (int)p2);
                ok = named > 0;
            }
            if (t == NULL && p1 >= 0 && (size_t)p1 < a->ncurs &&
                p2 >= 0 && (size_t)p2 < a->curs[p1].n)
                named = a->curs[p1].v[p2];     /* read back as written */
            ok = ok && set_reg(a, p3, named);
        } else if (strcmp(op, "MakeRecord") == 0 ||
                   strcmp(op, "SorterData") == 0 ||
                   strcmp(op, "SorterInsert") == 0 ||
                   strcmp(op, "IdxInsert") == 0 ||
                   strcmp(op, "Insert") == 0) {
            /* a sort key, a group or a DISTINCT of computed exact values
             * orders by bytes, unless the rewrite gives it the numeric
             * collation (which is all it changes when nothing else is) */
            /* (a record stored in a table, such as the row of a
             * STORED generated column computing decimals, takes the
             * column's type: which one is known at its Insert) */
            int computed = 0;
            for (long k = 0; strcmp(op, "MakeRecord") == 0 &&
                             !a->rewritten && computed == 0 && k < p2; k++)
                if (get_reg(a, p1 + k) < 0)
                    computed = get_reg(a, p1 + k);
            if (strcmp(op, "MakeRecord") == 0 && p3 >= 0 &&
                (computed != 0 || (size_t)p3 < a->npending) &&
                !room(&a->pending, &a->npending, (size_t)p3))
                return pier__oom(err);
            if (strcmp(op, "MakeRecord") == 0 && p3 >= 0 &&
                (size_t)p3 < a->npending)
                a->pending[p3] = computed;
            /* where a record of one goes: a table of the schema (or its
             * index) or scratch (a sorter, an ephemeral table) */
            bool inserts = strcmp(op, "Insert") == 0 ||
                           strcmp(op, "IdxInsert") == 0 ||
                           strcmp(op, "SorterInsert") == 0;
            int held = inserts && p2 >= 0 && (size_t)p2 < a->npending
                           ? a->pending[p2] : 0;
            bool real = p1 >= 0 && (size_t)p1 < a->ncursors &&
                        a->cursor_root[p1] != 0;
            if (held != 0 && !real) {
                a->rewrite = true;
                return chosen(held) ? chosen_refusal(a, held, err)
                                    : compare_refusal(a, held, err);
            }
            if (held != 0)
                a->pending[p2] = 0;    /* stored: the column's type */
            /* a key of a sorter or of an ephemeral index that may be a
             * number in one row and exact text in another */
            bool scratch = p1 >= 0 && ((size_t)p1 >= a->ncursors ||
                                       a->cursor_root[p1] == 0);
            if ((strcmp(op, "SorterInsert") == 0 ||
                 strcmp(op, "IdxInsert") == 0) && scratch && p2 >= 0 &&
                (size_t)p2 < a->nrecs)
                for (size_t k = 0; k < a->recs[p2].n; k++)
                    if (chosen(a->recs[p2].v[k]))
                        return chosen_refusal(a, a->recs[p2].v[k], err);
            ok = carry_fields(a, op, p1, p2, p3);
            if (ok && strcmp(op, "MakeRecord") == 0)
                ok = set_reg(a, p3, 0);
            if (ok && strcmp(op, "Insert") == 0)
                ok = stored_exact(a, p1, p2);
        } else if (strcmp(op, "OpenEphemeral") == 0 ||
                   strcmp(op, "OpenAutoindex") == 0 ||
                   strcmp(op, "SorterOpen") == 0) {
            fields *f = slot(&a->curs, &a->ncurs, p1);
            ok = f != NULL && room(&a->cursor_root, &a->ncursors,
                                   (size_t)p1);
            if (ok) {
                f->n = 0;
                a->cursor_root[p1] = 0;
            }
        } else if (strcmp(op, "Copy") == 0 || strcmp(op, "SCopy") == 0 ||
                   strcmp(op, "IntCopy") == 0) {
            long extra = strcmp(op, "Copy") == 0 ? p3 : 0;
            for (long k = 0; ok && k <= extra; k++)
                ok = set_reg(a, p2 + k, get_reg(a, p1 + k)) &&
                     set_param(a, p2 + k, get_param(a, p1 + k));
        } else if (strcmp(op, "Add") == 0 || strcmp(op, "Subtract") == 0 ||
                   strcmp(op, "Multiply") == 0 ||
                   strcmp(op, "Divide") == 0 ||
                   strcmp(op, "Remainder") == 0) {
            static const struct { const char *op, *sign; } signs[] = {
                { "Add", "+" }, { "Subtract", "-" }, { "Multiply", "*" },
                { "Divide", "/" }, { "Remainder", "%" },
            };
            int named = get_reg(a, p1) != 0 ? get_reg(a, p1) : get_reg(a, p2);
            /* a number SQLite would read inexactly, written as its text
             * (technique 6): the rewrite computes on it exactly */
            long wide = konst_of(a, p1) == K_WIDE   ? p1
                        : konst_of(a, p2) == K_WIDE ? p2
                                                    : -1;
            if (named == 0 && wide >= 0 && (named = wide_name(a)) == 0)
                return pier__oom(err);
            if (named != 0) {
                char what[16] = "arithmetic";
                for (size_t k = 0; k < 5; k++)
                    if (strcmp(op, signs[k].op) == 0)
                        snprintf(what, sizeof what, "'%s'", signs[k].sign);
                a->rewrite = true;
                return refuse(a, named, what, err);
            }
            ok = set_reg(a, p3, 0);
        } else if (bitwise_op(op) != NULL) {
            /* BitNot reads p1 into p2; the others p1 and p2 into p3 */
            bool unary = strcmp(op, "BitNot") == 0;
            int named = get_reg(a, p1) != 0 ? get_reg(a, p1)
                        : unary             ? 0
                                            : get_reg(a, p2);
            if (named != 0)
                return refuse_bitwise(a, named, bitwise_op(op), err);
            ok = set_reg(a, unary ? p2 : p3, 0);
        } else if (strcmp(op, "Lt") == 0 || strcmp(op, "Le") == 0 ||
                   strcmp(op, "Gt") == 0 || strcmp(op, "Ge") == 0 ||
                   strcmp(op, "Eq") == 0 || strcmp(op, "Ne") == 0) {
            /* a computed exact value is text without affinity: SQLite
             * orders it after every number and compares it by bytes */
            int named = get_reg(a, p1) < 0 ? get_reg(a, p1)
                                           : get_reg(a, p3);
            /* a parameter compared with an exact column */
            if (get_reg(a, p1) > 0)
                ok = use_param(a, get_param(a, p3), PARAM_EXACT_USE);
            if (ok && get_reg(a, p3) > 0)
                ok = use_param(a, get_param(a, p1), PARAM_EXACT_USE);
            /* (unless the other is an exact column: then SQLite gives
             * the value its TEXT affinity, a number becoming text, and
             * compares by the column's collation, by value) */
            int p5 = sqlite3_column_int(st, 6);
            bool by_value = p4 != NULL &&
                            strncmp(p4, "pier_numeric-", 13) == 0 &&
                            (p5 & AFF_MASK) == AFF_TEXT;
            if (named < 0 && !by_value) {
                a->rewrite = true;
                return compare_refusal(a, named, err);
            }
        } else if (strcmp(op, "Function") == 0 ||
                   strcmp(op, "PureFunc") == 0 ||
                   strcmp(op, "AggStep") == 0 ||
                   strcmp(op, "AggStep1") == 0) {
            /* p2: the first argument; p4 "name(nargs)", nargs -1 for a
             * function of any number (p5 has the call's) */
            int nargs = 0;
            const char *paren = p4 != NULL ? strchr(p4, '(') : NULL;
            if (paren != NULL)
                nargs = atoi(paren + 1);
            /* (a function of any number of arguments: the program does
             * not say how many this call has, so every register that may
             * be one is read) */
            if (nargs < 0)
                nargs = (int)a->max_args;
            if (op[0] == 'A' && p4 != NULL &&
                (strncmp(p4, "min(", 4) == 0 ||
                 strncmp(p4, "max(", 4) == 0) &&
                chosen(get_reg(a, p2)))
                return chosen_refusal(a, get_reg(a, p2), err);
            if (paren != NULL && strcmp(paren, "(-1)") == 0 &&
                (strncmp(p4, "min(", 4) == 0 ||
                 strncmp(p4, "max(", 4) == 0) &&
                computed_of(a, p2, nargs) != 0)
                return minmax_refusal(a, computed_of(a, p2, nargs), p4,
                                      err);
            const char *instead = numeric_function(p4);
            for (int k = 0; instead != NULL && k < nargs; k++) {
                int named = get_reg(a, p2 + k);
                if (named != 0) {
                    char what[64];
                    snprintf(what, sizeof what, "%.*s()",
                             (int)(paren - p4), p4);
                    return refuse_function(a, named, what, instead, err);
                }
            }
            bool call = op[0] == 'F' || op[0] == 'P';
            if (call && p4 != NULL && strncmp(p4, "_pcs(", 5) == 0) {
                /* a CAST to an exact type: its value is exact too */
                ok = set_reg(a, p3, computed_of(a, p2 + 1, 1));
            } else if (passes_exact(p4)) {
                /* a function's result, or an aggregate's accumulator */
                ok = set_reg(a, p3, computed_of(a, p2, nargs));
            } else if (call && date_part(p4) && whole_part(a, p2)) {
                ok = set_reg(a, p3, 0);  /* ('year': an INTEGER) */
            } else if (call && makes_exact(p4)) {
                int named = value_name(a, NULL, p4);
                ok = named > 0 && set_reg(a, p3, -named);
            } else if (call) {
                ok = set_reg(a, p3, 0);
            }
        } else if (strcmp(op, "Cast") == 0) {
            ok = set_reg(a, p1, 0);     /* asks for the approximation */
        } else if (strcmp(op, "String8") == 0 && exact_type_name(p4)) {
            int named = value_name(a, p4, NULL);
            ok = named > 0 && set_reg(a, p2, named);
        } else if (strcmp(op, "String8") == 0) {
            ok = set_reg(a, p2, 0) && set_konst(a, p2, p4);
        } else if (strcmp(op, "Integer") == 0 || strcmp(op, "Int64") == 0 ||
                   strcmp(op, "Real") == 0 || strcmp(op, "String8") == 0 ||
                   strcmp(op, "String") == 0 || strcmp(op, "Variable") == 0 ||
                   strcmp(op, "Rowid") == 0 || strcmp(op, "Blob") == 0) {
            ok = set_reg(a, p2, 0);
            if (ok && strcmp(op, "Variable") == 0)
                ok = set_param(a, p2, (int)p1);
        } else if (strcmp(op, "Null") == 0) {
            for (long k = p2; ok && k <= (p3 > p2 ? p3 : p2); k++)
                ok = set_reg(a, k, 0);
        }
        if (ok && jumps(op)) {
            bool three = strcmp(op, "Jump") == 0;
            long to[3] = { three ? p1 : -1, p2, three ? p3 : -1 };
            for (int k = 0; ok && k < 3; k++)
                if (to[k] > addr)
                    ok = keep_for(a, to[k]);
        }
        if (!ok)
            return pier__oom(err);
    }
    return PIER_OK;
}

/* Each parameter's PIER__PARAM_* from what its value reached; *out NULL
 * when every one is bound as it is. */
static pier_status param_ways(const analysis *a, int nparams,
                              unsigned char **out, pier_error *err)
{
    bool any = false;
    for (size_t k = 0; k < a->nuses && k < (size_t)nparams; k++)
        any = any || (a->uses[k] & PARAM_EXACT_USE) != 0;
    if (!any)
        return PIER_OK;
    *out = calloc((size_t)nparams, 1);
    if (*out == NULL)
        return pier__oom(err);
    for (size_t k = 0; k < a->nuses && k < (size_t)nparams; k++)
        if (a->uses[k] & PARAM_EXACT_USE)
            (*out)[k] = a->uses[k] & PARAM_OTHER_USE ? PIER__PARAM_BOTH
                                                     : PIER__PARAM_TEXT;
    return PIER_OK;
}

/* Whether sql[0..len) holds a string literal that is a number SQLite
 * reads inexactly (technique 6 writes such numbers so): arithmetic on it
 * is made exact on any lake. */
static bool wide_string(const char *sql, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (sql[i] != '\'')
            continue;
        const char *close = memchr(sql + i + 1, '\'', len - i - 1);
        if (close == NULL)
            return false;
        size_t n = (size_t)(close - sql) - i - 1;
        if (n > 15 && pier__sql_inexact_number(sql + i + 1, n))
            return true;
        i += n + 1;
    }
    return false;
}

pier_status pier__sqlite_check_exact(pier__sqlite_lake *l, const char *sql,
                                     size_t len, bool rewritten,
                                     bool *rewrite, unsigned char **params,
                                     pier_error *err)
{
    *rewrite = false;
    *params = NULL;
    /* a CAST to an exact type, a decimal function and date_part make
     * exact values on any lake */
    bool casts = false;
    for (size_t i = 0; !casts && i + 5 <= len; i++)
        casts = memcmp(sql + i, "_pcs(", 5) == 0 ||
                (i + 7 <= len && strncasecmp_c(sql + i, "decimal", 7) == 0) ||
                (i + 9 <= len && strncasecmp_c(sql + i, "date_part", 9) == 0) ||
                (i + 7 <= len && strncasecmp_c(sql + i, "extract", 7) == 0);
    if (!casts && !wide_string(sql, len) && !any_exact(l))
        return PIER_OK;
    pier__buf text;
    pier__buf_init(&text);
    pier__buf_puts(&text, "EXPLAIN ");
    pier__buf_append(&text, sql, len);
    if (text.oom) {
        pier__buf_free(&text);
        return pier__oom(err);
    }
    analysis a = { .l = l, .rewritten = rewritten, .max_args = 1 };
    for (size_t i = 0; i < len; i++)
        a.max_args += sql[i] == ',';
    sqlite3_stmt *st = NULL;
    pier_status rc = PIER_OK;
    if (load_trees(&a) != 0)
        rc = pier__oom(err);
    else if (sqlite3_prepare_v2(l->db, text.p, (int)text.len, &st, NULL) ==
             SQLITE_OK)
        rc = prologue_constants(&a, st) ? follow(&a, st, err)
                                        : pier__oom(err);
    *rewrite = a.rewrite;
    if (rc == PIER_OK && st != NULL)
        rc = param_ways(&a, sqlite3_bind_parameter_count(st), params, err);
    /* (A statement that does not prepare here did prepare as itself: it
     * is judged by that.) */
    sqlite3_finalize(st);
    pier__buf_free(&text);
    for (size_t i = 0; i < a.ntrees; i++) {
        free(a.trees[i].names);
        free(a.trees[i].numeric);
    }
    free(a.trees);
    free(a.cursor_root);
    free(a.param);
    free(a.uses);
    fields_free(a.precs, a.nprecs);
    fields_free(a.recs, a.nrecs);
    fields_free(a.curs, a.ncurs);
    fields_free(a.joins, a.njoins);
    fields_free(a.join_params, a.njoin_params);
    free(a.reg);
    free(a.konst);
    free(a.pending);
    free(a.names);
    return rc;
}
