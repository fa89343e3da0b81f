/*
 * exec.c: pier_exec, the SQL dialect run as the lake's owner.
 *
 * A script is parsed (parse.c) before anything runs, then run statement by
 * statement inside one write transaction of the engine: it is atomic, and
 * BEGIN / COMMIT / ROLLBACK in it become a savepoint, its release, and a
 * rollback to it. DML, SELECT and the DDL of indexes and views go to
 * SQLite as written, under the owner's policy (the store's authorizer);
 * CREATE TABLE and ALTER TABLE are Pier's to translate, because their
 * types are logical types: each column becomes its STRICT storage type,
 * the collation that compares its values by value, a CHECK calling
 * _pier_fit, and, for a READONLY column, a trigger (docs/sql.md). The
 * catalog (_pier_tables, _pier_table_columns) changes in the same
 * transaction, and the schema Pier made is remembered after each DDL
 * statement so that a change made behind its back is noticed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/dialect.h"
#include "sql/lex.h"
#include "sql/sql.h"

/* The savepoint that BEGIN opens inside the script's transaction. */
#define USER_TX "_pier_user_tx"

typedef struct exec_ctx {
    pier_engine *e;
    const char *sql;           /* the script, as SQLite reads it (its
                                  offsets are the one written's) */
    const char *written;       /* the script as written (the same
                                  length) */
    const pier__sql_stmt *st;  /* the statement running */
    const pier_params *params;
    bool catalog_changed;      /* a DDL statement ran: the cache must be
                                  reloaded if the script fails */
    bool in_user_tx;           /* between BEGIN and COMMIT/ROLLBACK */
    pier__memrows *rows;       /* the last statement's result */
    pier__guard guard;         /* the call's limits (limits.c) */
    bool prepare_only;         /* DML is prepared, not run
                                  (pier__exec_parsed_check) */
} exec_ctx;

static const pier__lake_ops *ops(const exec_ctx *x)
{
    return x->e->lake->ops;
}

/* A failure at a byte of the script. */
static pier_status fail_at(pier_error *err, size_t offset, pier_status st,
                           const char *fmt, ...) PIER__PRINTF(4, 5);

static pier_status fail_at(pier_error *err, size_t offset, pier_status st,
                           const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pier__failv(err, st, fmt, ap);
    va_end(ap);
    if (err != NULL)
        err->offset = (int64_t)offset;
    return st;
}

/* ---- names ---- */

/* A table, index or view name: 1 to 63 bytes of UTF-8 without control
 * characters, not in the engine's namespace (_pier_) or SQLite's. */
static pier_status object_name_check(const char *name, size_t offset,
                                     pier_error *err)
{
    const char *why = pier__object_name_why(name);
    if (why != NULL) {
        pier__buf q;                 /* control bytes shown as \xNN */
        pier__buf_init(&q);
        pier__quote_name(&q, name, strlen(name));
        fail_at(err, offset, PIER_E_QUERY_FAILED, "invalid name '%s': %s",
                q.p != NULL ? q.p : "", why);
        pier__buf_free(&q);
        return PIER_E_QUERY_FAILED;
    }
    const char *prefix = pier__object_name_reserved(name);
    if (prefix != NULL)
        return fail_at(err, offset, PIER_E_ENTITY_NOT_ALLOWED,
                       "the name '%s' is reserved: names starting with "
                       "%s belong to the engine", name, prefix);
    return PIER_OK;
}

/* A table or view may not take a board's name: boards, declared tables
 * and views share one namespace, which pier schema and migrations read
 * by name alone. */
static pier_status board_name_check(const exec_ctx *x, const char *name,
                                    size_t offset, pier_error *err)
{
    char id[PIER__NAME_MAX + 1];
    size_t n = strlen(name);
    if (n > PIER__NAME_MAX)
        return PIER_OK;                /* no board id is that long */
    for (size_t i = 0; i <= n; i++)
        id[i] = name[i] >= 'A' && name[i] <= 'Z' ? (char)(name[i] + 32)
                                                 : name[i];
    if (pier__catalog_find(&x->e->catalog, id) == NULL)
        return PIER_OK;
    pier_status rc = fail_at(err, offset, PIER_E_QUERY_FAILED,
                             "'%s' is a board: boards, tables and views "
                             "share one namespace; choose another name",
                             id);
    pier__error_board(err, id);
    return rc;
}

/* Declared tables live in the main database only. */
static pier_status main_only(const exec_ctx *x, pier_error *err)
{
    const pier__sql_stmt *st = x->st;
    if (st->temp)
        return fail_at(err, st->offset, PIER_E_ENTITY_NOT_ALLOWED,
                       "%s: TEMP objects are not part of the dialect",
                       pier__stmt_kind_name(st->kind));
    if (st->schema != NULL &&
        !pier__name_eq(st->schema, strlen(st->schema), "main", 4))
        return fail_at(err, st->offset, PIER_E_ENTITY_NOT_ALLOWED,
                       "%s: only the main database is reachable, not "
                       "'%s'", pier__stmt_kind_name(st->kind), st->schema);
    return PIER_OK;
}

/* ---- the catalog in the script's transaction ---- */

/* After a DDL statement: the schema as Pier made it is remembered, the
 * catalog version moves (other engines reload), and the cache takes the
 * new version. */
static pier_status ddl_done(exec_ctx *x, pier_error *err)
{
    int64_t version;
    x->catalog_changed = true;
    pier_status rc = ops(x)->schema_remember(x->e->lake, err);
    if (rc == PIER_OK)
        rc = ops(x)->catalog_bump(x->e->lake, &version, err);
    /* A cache that missed a change (out of memory) stays marked stale. */
    if (rc == PIER_OK && x->e->catalog.version >= 0)
        x->e->catalog.version = version;
    return rc;
}

static pier_status table_of(const exec_ctx *x, const char *name,
                            size_t offset, pier__table **out,
                            pier_error *err)
{
    *out = pier__catalog_find_table(&x->e->catalog, name);
    if (*out != NULL)
        return PIER_OK;
    fail_at(err, offset, PIER_E_TABLE_NOT_FOUND, "no table '%s'", name);
    pier__error_board(err, name);
    return PIER_E_TABLE_NOT_FOUND;
}

/* Runs DDL the engine wrote; SQLite's refusal is the statement's, a
 * failure to carry it out (WriteFailed) the lake's. */
static pier_status run_ddl(const exec_ctx *x, const pier__buf *sql,
                           pier_error *err)
{
    if (sql->oom)
        return pier__oom(err);
    pier_status rc = ops(x)->ddl(x->e->lake, sql->p, err);
    if (rc == PIER_E_QUERY_FAILED && err != NULL) {
        /* "the lake refused a statement: <SQLite's message>" */
        const char *msg = strstr(err->message, ": ");
        char copy[sizeof err->message];
        pier__copy_field(copy, sizeof copy,
                         msg != NULL ? msg + 2 : err->message);
        fail_at(err, x->st->offset, PIER_E_QUERY_FAILED, "%s", copy);
        return PIER_E_QUERY_FAILED;
    }
    return rc;
}

/* ---- column definitions ---- */

const char *pier__sql_now_type(const pier__sqltype *t)
{
    if (t->dims != 0)
        return NULL;
    switch (t->base) {
    case PIER__B_INSTANT: return "INSTANT";
    case PIER__B_DATE: return "DATE";
    case PIER__B_DATETIME: return "DATETIME";
    case PIER__B_TIME: return "TIME";
    default: return NULL;
    }
}

/*
 * Checks a column definition of CREATE TABLE or ADD COLUMN and appends it
 * to the model (its id comes when the table is saved).
 */
static pier_status column_check(pier__table *t, const pier__sql_column *c,
                                pier_error *err)
{
    pier_status rc = pier__column_name_check(c->name, strlen(c->name),
                                             t->name, err);
    if (rc != PIER_OK) {
        if (err != NULL)
            err->offset = (int64_t)c->name_offset;
        return rc;
    }
    if (pier__table_find(t, c->name) >= 0) {
        fail_at(err, c->name_offset, PIER_E_DUPLICATE_COLUMN,
                "table '%s' names column '%s' twice", t->name, c->name);
        pier__error_board(err, t->name);
        pier__error_column(err, c->name);
        return PIER_E_DUPLICATE_COLUMN;
    }
    if (c->type[0] == '\0') {
        fail_at(err, c->type_offset, PIER_E_UNKNOWN_TYPE,
                "column '%s' of table '%s' declares no type: tables are "
                "STRICT, so every column declares one (ANY keeps any "
                "value)", c->name, t->name);
        pier__error_board(err, t->name);
        pier__error_column(err, c->name);
        return PIER_E_UNKNOWN_TYPE;
    }
    pier__sqltype type;
    pier__buf labels, spelling;
    pier__buf_init(&labels);
    pier__buf_init(&spelling);
    pier__sqltype_error why;
    const char *refused = pier__sqltype_parse(c->type, strlen(c->type),
                                              &type, &labels, &why);
    if (labels.oom) {
        rc = pier__oom(err);
    } else if (refused != NULL) {
        fail_at(err, c->type_offset, PIER_E_UNKNOWN_TYPE,
                "column '%s': %s", c->name, why.message);
        pier__error_board(err, t->name);
        pier__error_column(err, c->name);
        rc = PIER_E_UNKNOWN_TYPE;
    } else {
        pier__sqltype_write(&spelling, &type, labels.p);
    }
    pier__coltype ct = { type, NULL };
    if (rc == PIER_OK && c->collate && pier__coltype_collation(&ct) != NULL)
        rc = fail_at(err, c->name_offset, PIER_E_QUERY_FAILED,
                     "column '%s' is %s, which compares by value: it takes "
                     "no COLLATE", c->name, spelling.p);
    if (rc == PIER_OK && c->default_now && pier__sql_now_type(&type) == NULL)
        rc = fail_at(err, c->name_offset, PIER_E_QUERY_FAILED,
                     "column '%s' is %s: DEFAULT now() fills INSTANT, DATE, "
                     "DATETIME and TIME columns", c->name, spelling.p);
    if (rc == PIER_OK && c->readonly && c->generated)
        rc = fail_at(err, c->name_offset, PIER_E_QUERY_FAILED,
                     "column '%s' is generated: it cannot be READONLY "
                     "(nothing assigns it)", c->name);
    if (rc == PIER_OK && c->readonly && c->references_update)
        rc = fail_at(err, c->name_offset, PIER_E_QUERY_FAILED,
                     "column '%s' cannot be READONLY: its foreign key "
                     "changes it ON UPDATE", c->name);
    if (rc == PIER_OK && (spelling.oom || labels.oom))
        rc = pier__oom(err);
    if (rc == PIER_OK && !pier__table_append(t, c->name, spelling.p,
                                             c->readonly))
        rc = pier__oom(err);
    pier__buf_free(&labels);
    pier__buf_free(&spelling);
    return rc;
}

/* Appends a string literal, quotes doubled. */
static void put_string(pier__buf *b, const char *s)
{
    pier__sql_quote_string(b, s, strlen(s));
}

/* The expression of a column's DEFAULT in its constraints (as SQLite
 * reads one: a literal, a signed number, or an expression in
 * parentheses), as [*from, *to); false when it has none. */
static bool default_span(const char *c, size_t *from, size_t *to)
{
    size_t n = strlen(c), pos = 0;
    pier__token t;
    const char *why;
    int depth = 0;
    for (;;) {
        pier__tk k = pier__sql_token(c, n, pos, &t, &why);
        if (k == PIER__TK_END || k == PIER__TK_BAD)
            return false;
        pos = t.end;
        if (k == PIER__TK_LP)
            depth++;
        else if (k == PIER__TK_RP)
            depth--;
        if (depth == 0 && k == PIER__TK_WORD &&
            pier__name_eq(c + t.start, t.end - t.start, "default", 7))
            break;
    }
    pier__tk k = pier__sql_token(c, n, pos, &t, &why);
    *from = t.start;
    if (k == PIER__TK_OP && t.end - t.start == 1 &&
        (c[t.start] == '-' || c[t.start] == '+'))
        k = pier__sql_token(c, n, t.end, &t, &why);
    if (k == PIER__TK_LP) {
        for (depth = 1; depth > 0;) {
            k = pier__sql_token(c, n, t.end, &t, &why);
            if (k == PIER__TK_END || k == PIER__TK_BAD)
                return false;
            depth += k == PIER__TK_LP ? 1 : k == PIER__TK_RP ? -1 : 0;
        }
    } else if (k == PIER__TK_END || k == PIER__TK_BAD) {
        return false;
    }
    *to = t.end;
    return true;
}

/* The user's constraints, with a DEFAULT's numbers that SQLite would read
 * inexactly (DEFAULT 123456789.12345678, DEFAULT 18446744073709551615)
 * written as their digits, as in a statement (literals.c): the column
 * takes them exactly. */
static void put_constraints(pier__buf *b, const char *c)
{
    size_t from, to;
    pier__buf exact;
    pier__buf_init(&exact);
    if (default_span(c, &from, &to) &&
        pier__sql_exact_literals(&exact, c + from, to - from)) {
        pier__buf_append(b, c, from);
        pier__buf_append(b, exact.p, exact.len);
        pier__buf_puts(b, c + to);
    } else {
        pier__buf_puts(b, c);
    }
    if (exact.oom)
        b->oom = true;
    pier__buf_free(&exact);
}

/*
 * A column's DEFAULT that the column cannot hold (ENUM('x','y') DEFAULT
 * 'z', INT8 DEFAULT 300) would fail every INSERT that omits the column:
 * refused with the table. The default is evaluated once, given the
 * column's storage affinity as SQLite gives it when it fills the column,
 * and checked as the column checks a value.
 */
static pier_status default_fits(const exec_ctx *x, const pier__table *t,
                                const pier__tcolumn *col,
                                const pier__sql_column *def, pier_error *err)
{
    size_t from, to;
    if (def->default_now || def->generated ||
        col->type.t.base == PIER__B_ANY ||
        !default_span(def->constraints, &from, &to))
        return PIER_OK;
    const char *storage = pier__coltype_storage(&col->type);
    pier__buf q;
    pier__buf_init(&q);
    pier__buf_puts(&q, "SELECT CASE WHEN v IS NULL THEN 1 ELSE _pier_fit(");
    if (strcmp(storage, "TEXT") == 0)
        pier__buf_puts(&q, "CASE WHEN typeof(v) IN ('integer', 'real') THEN "
                       "CAST(v AS TEXT) ELSE v END");
    else if (strcmp(storage, "INTEGER") == 0)
        pier__buf_puts(&q, "CASE WHEN typeof(w) = 'real' AND abs(w) < 9e18 "
                       "AND w = CAST(w AS INTEGER) THEN CAST(w AS INTEGER) "
                       "ELSE w END");
    else if (strcmp(storage, "REAL") == 0)
        pier__buf_puts(&q, "CASE WHEN typeof(w) = 'integer' THEN "
                       "CAST(w AS REAL) ELSE w END");
    else
        pier__buf_puts(&q, "v");
    pier__buf_puts(&q, ", ");
    put_string(&q, col->spelling);
    pier__buf_printf(&q, ", %lld) END FROM (SELECT v, CASE WHEN typeof(v) "
                     "= 'text' AND trim(v) <> '' AND NOT trim(v) GLOB "
                     "'*[^0-9.eE+-]*' THEN CAST(trim(v) AS NUMERIC) ELSE v "
                     "END AS w FROM (SELECT ", (long long)col->id);
    /* (the default as the table holds it: its numbers exact) */
    pier__buf written, expr;
    pier__buf_init(&written);
    pier__buf_init(&expr);
    pier__buf_puts(&written, "DEFAULT ");
    pier__buf_append(&written, def->constraints + from, to - from);
    if (!written.oom)
        put_constraints(&expr, written.p);
    pier__buf_puts(&q, expr.len > 8 ? expr.p + 8 : "NULL");
    pier__buf_puts(&q, " AS v))");
    bool oom = q.oom || expr.oom || written.oom;
    pier__buf_free(&written);
    pier__buf_free(&expr);
    if (oom) {
        pier__buf_free(&q);
        return pier__oom(err);
    }
    pier_error perr;
    pier__error_clear(&perr);
    pier_status pr = ops(x)->ddl(x->e->lake, q.p, &perr);
    pier__buf_free(&q);
    if (pr == PIER_OK)
        return PIER_OK;
    if (pr == PIER_E_OUT_OF_MEMORY || strstr(perr.message, "out of memory"))
        return pier__oom(err);
    /* _pier_fit's "... is not a TYPE: why": the why */
    const char *refusal = strstr(perr.message, "is not a");
    const char *why = refusal != NULL ? strstr(refusal, col->spelling) : NULL;
    why = why != NULL && strncmp(why + strlen(col->spelling), ": ", 2) == 0
              ? why + strlen(col->spelling) + 2
          : refusal != NULL ? refusal
                            : perr.message;
    pier_status rc = fail_at(err, x->st->offset, PIER_E_COLUMN_TYPE_CONFLICT,
                             "column '%s' of table '%s' is %s: its DEFAULT "
                             "%.*s is not one (%s), so every INSERT that "
                             "omits it would fail", col->name, t->name,
                             col->spelling, (int)(to - from),
                             def->constraints + from, why);
    pier__error_board(err, t->name);
    pier__error_column(err, col->name);
    return rc;
}

/*
 * The expressions of the CHECKs and generated columns in constraints `c`
 * (a column's or the table's): each one's "(...)" after CHECK or AS, read
 * as a SELECT on the table. SQLite computes them inside its own writes,
 * where the front-end's rewrite of operators (technique 5) cannot reach:
 * one that computes on an exact value with SQLite's arithmetic (d + '0.1'
 * as a float) is refused with the table, naming what to write instead.
 */
static pier_status exprs_exact(const exec_ctx *x, const pier__table *t,
                               const char *c, pier_error *err)
{
    size_t n = strlen(c), pos = 0;
    pier__token tk, lp;
    const char *why;
    int depth = 0;
    pier_status rc = PIER_OK;
    while (rc == PIER_OK) {
        pier__tk k = pier__sql_token(c, n, pos, &tk, &why);
        if (k == PIER__TK_END || k == PIER__TK_BAD)
            break;
        pos = tk.end;
        if (k == PIER__TK_LP)
            depth++;
        else if (k == PIER__TK_RP)
            depth--;
        bool check = pier__name_eq(c + tk.start, tk.end - tk.start, "check",
                                   5);
        if (depth != 0 || k != PIER__TK_WORD ||
            (!check && !pier__name_eq(c + tk.start, tk.end - tk.start, "as",
                                      2)) ||
            pier__sql_token(c, n, tk.end, &lp, &why) != PIER__TK_LP)
            continue;
        /* the expression, to its ')' */
        size_t end = lp.end;
        pier__token u;
        for (int d = 1; d > 0;) {
            pier__tk uk = pier__sql_token(c, n, end, &u, &why);
            if (uk == PIER__TK_END || uk == PIER__TK_BAD)
                return PIER_OK;        /* (SQLite said why) */
            end = u.end;
            d += uk == PIER__TK_LP ? 1 : uk == PIER__TK_RP ? -1 : 0;
        }
        pier__buf q;
        pier__buf_init(&q);
        pier__buf_puts(&q, "SELECT ");
        pier__buf_append(&q, c + lp.start, end - lp.start);
        pier__buf_puts(&q, " FROM ");
        pier__sql_quote_ident(&q, t->name);
        if (q.oom) {
            pier__buf_free(&q);
            return pier__oom(err);
        }
        pier_error perr;
        pier__error_clear(&perr);
        pier__stmt_shape shape;
        pier__lake *lake = x->e->lake;
        pier_status pr = ops(x)->stmt_prepare(lake, q.p, q.len, false,
                                              &shape, &perr);
        bool refused = pr == PIER_E_QUERY_FAILED && lake->exact_ops;
        if (pr == PIER_OK)
            ops(x)->stmt_finish(lake);
        lake->exact_ops = false;
        pier__buf_free(&q);
        pos = end;
        if (pr == PIER_E_OUT_OF_MEMORY)
            rc = pier__oom(err);
        else if (refused) {
            rc = fail_at(err, x->st->offset, PIER_E_QUERY_FAILED,
                         "%s (%.*s) of table '%s' would compute on an exact "
                         "value with SQLite's floating-point arithmetic, "
                         "which the rewrite of operators cannot reach "
                         "there (%s): write %s", check ? "CHECK"
                                                       : "the generated column",
                         (int)(end - lp.end - 1), c + lp.end, t->name,
                         perr.message,
                         check ? "the comparison on the column itself (d <= "
                                 "'0.1'), which goes by value"
                               : "decimal_add, decimal_sub, decimal_mul or "
                                 "decimal_div(a, b, scale), which are exact");
            pier__error_board(err, t->name);
        }
    }
    return rc;
}

/* The physical definition of column `col`: storage type, collation,
 * value check, then the user's constraints as written. */
static void physical_column(pier__buf *b, const pier__tcolumn *col,
                            const pier__sql_column *def, bool check)
{
    pier__sql_quote_ident(b, col->name);
    pier__buf_printf(b, " %s", pier__coltype_storage(&col->type));
    const char *coll = pier__coltype_collation(&col->type);
    if (coll != NULL)
        pier__buf_printf(b, " COLLATE %s", coll);
    if (check && pier__coltype_checked(&col->type)) {
        pier__buf_puts(b, " CHECK (_pier_fit(");
        pier__sql_quote_ident(b, col->name);
        pier__buf_puts(b, ", ");
        put_string(b, col->spelling);
        pier__buf_printf(b, ", %lld))", (long long)col->id);
    }
    if (def->constraints[0] == '\0')
        return;
    pier__buf_putc(b, ' ');
    if (!def->default_now) {
        put_constraints(b, def->constraints);
        return;
    }
    /* DEFAULT now(): the statement's instant as the column's type */
    pier__buf_append(b, def->constraints, def->default_now_at);
    pier__buf_printf(b, "(_pier_now('%s'))", pier__sql_now_type(&col->type.t));
    pier__buf_puts(b, def->constraints + def->default_now_at + 5);
}

/* Whether the table's rowid is also reachable as `name` (no column of its
 * own has that name). */
static bool rowid_name_free(const pier__table *t, const char *name)
{
    return pier__table_find(t, name) < 0;
}

/* The trigger that refuses every UPDATE assigning a READONLY column
 * (SET x = x included: UPDATE OF fires on the SET list, not on a change).
 * A read-only rowid alias is also guarded under SQLite's names for the
 * rowid. */
static pier_status readonly_trigger(const exec_ctx *x, const pier__table *t,
                                    const pier__tcolumn *col, bool rowid_alias,
                                    pier_error *err)
{
    static const char *const rowid_names[] = { "rowid", "oid", "_rowid_" };
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_printf(&b, "CREATE TRIGGER \"_pier_ro_%lld\" BEFORE UPDATE OF ",
                     (long long)col->id);
    pier__sql_quote_ident(&b, col->name);
    for (size_t i = 0; rowid_alias && i < 3; i++)
        if (rowid_name_free(t, rowid_names[i]))
            pier__buf_printf(&b, ", %s", rowid_names[i]);
    pier__buf_puts(&b, " ON ");
    pier__sql_quote_ident(&b, t->name);
    pier__buf_printf(&b, " BEGIN SELECT RAISE(ABORT, '_pier_readonly:%lld'); "
                     "END", (long long)col->id);
    pier_status rc = run_ddl(x, &b, err);
    pier__buf_free(&b);
    return rc;
}

/* ---- foreign keys that name themselves ---- */

typedef struct key_find {
    const char *table;
    char column[128];
    bool found;
} key_find;

/* The single-column primary key of a table, from its SQL. */
static void key_of_sql(key_find *k, const char *sql)
{
    pier__sql_script s;
    if (pier__sql_parse(&s, sql, strlen(sql), NULL) == PIER_OK &&
        s.nstmts == 1 && s.stmts[0].kind == PIER__STMT_CREATE_TABLE) {
        const pier__sql_table *def = s.stmts[0].create;
        for (size_t i = 0; i < def->ncolumns; i++)
            if (def->columns[i].primary_key) {
                snprintf(k->column, sizeof k->column, "%s",
                         def->columns[i].name);
                k->found = true;
            }
    }
    pier__sql_script_free(&s);
}

static int find_key(const pier__schema_object *o, void *payload)
{
    key_find *k = payload;
    if (strcmp(o->type, "table") != 0 || o->sql == NULL ||
        !pier__name_eq(o->name, strlen(o->name), k->table, strlen(k->table)))
        return 0;
    key_of_sql(k, o->sql);
    return 1;
}

/* The SQL of table `name` as the lake holds it (a copy), or NULL. */
typedef struct sql_find {
    const char *name;
    char *sql;
    bool found;
} sql_find;

static int find_sql(const pier__schema_object *o, void *payload)
{
    sql_find *f = payload;
    if (strcmp(o->type, "table") != 0 || o->sql == NULL ||
        !pier__name_eq(o->name, strlen(o->name), f->name, strlen(f->name)))
        return 0;
    f->found = true;
    f->sql = pier__strdup(o->sql);
    return 1;
}

/*
 * The triggers that give a column's foreign key its name in errors
 * (docs/sql.md): before a child row names a parent that is not there
 * (_pier_fk_<id>, _pier_fku_<id>), and, for ON DELETE RESTRICT or NO
 * ACTION, before a parent row that children still name is deleted or its
 * key changed (_pier_fkp_<id>, _pier_fkq_<id> on the parent). Each calls
 * _pier_fk(column id, side, value), which fails the statement and says
 * which. SQLite's own foreign key stays: these only run first. A trigger
 * on the parent needs the parent: one declared later gets them when it is
 * created (fk_adopt). `made`: a table this statement just created, which
 * the catalog does not hold yet (or NULL).
 */
static pier_status fk_triggers(const exec_ctx *x, const pier__table *t,
                               const pier__tcolumn *col,
                               const pier__sql_column *def,
                               const char *table_constraints,
                               const char *made, pier_error *err)
{
    pier__sql_fkref fk;
    if (!pier__sql_fk_of(t->name, col->name, def->constraints,
                         table_constraints, &fk))
        return PIER_OK;
    size_t plen = strlen(fk.parent);
    bool has_parent = pier__catalog_find_table(&x->e->catalog, fk.parent) !=
                          NULL ||
                  pier__name_eq(fk.parent, plen, t->name, strlen(t->name)) ||
                  (made != NULL &&
                   pier__name_eq(fk.parent, plen, made, strlen(made)));
    if (!has_parent)
        return PIER_OK;            /* it gets them when it is created */
    if (fk.parent_column[0] == '\0') {
        /* the parent's key: its own SQL's, or this table's */
        key_find k = { fk.parent, "", false };
        const pier__sql_table *self = x->st->create;
        if (self != NULL && pier__name_eq(fk.parent, strlen(fk.parent),
                                          t->name, strlen(t->name))) {
            for (size_t i = 0; i < self->ncolumns; i++)
                if (self->columns[i].primary_key) {
                    snprintf(k.column, sizeof k.column, "%s",
                             self->columns[i].name);
                    k.found = true;
                }
        } else {
            pier_status rc = ops(x)->schema_objects(x->e->lake, find_key, &k,
                                                    err);
            if (rc != PIER_OK)
                return rc;
        }
        if (!k.found)
            return PIER_OK;            /* SQLite's own error says it */
        snprintf(fk.parent_column, sizeof fk.parent_column, "%s", k.column);
    }
    long long id = (long long)col->id;
    pier__buf b, parent, pcol, child, ccol;
    pier__buf_init(&b);
    pier__buf_init(&parent);
    pier__buf_init(&pcol);
    pier__buf_init(&child);
    pier__buf_init(&ccol);
    pier__sql_quote_ident(&parent, fk.parent);
    pier__sql_quote_ident(&pcol, fk.parent_column);
    pier__sql_quote_ident(&child, t->name);
    pier__sql_quote_ident(&ccol, col->name);
    static const char *const child_events[] = { "INSERT", "UPDATE OF " };
    static const char *const child_names[] = { "fk", "fku" };
    for (size_t i = 0; i < 2; i++)
        pier__buf_printf(&b, "CREATE TRIGGER IF NOT EXISTS \"_pier_%s_%lld\" "
                         "BEFORE %s%s ON "
                         "%s WHEN NEW.%s IS NOT NULL AND NOT EXISTS (SELECT "
                         "1 FROM %s WHERE %s = NEW.%s) BEGIN SELECT "
                         "_pier_fk(%lld, 1, NEW.%s); END; ", child_names[i],
                         id, child_events[i], i == 1 ? ccol.p : "", child.p,
                         ccol.p, parent.p, pcol.p, ccol.p, id, ccol.p);
    if (fk.restrict_delete) {
        pier__buf_printf(&b, "CREATE TRIGGER IF NOT EXISTS "
                         "\"_pier_fkp_%lld\" BEFORE DELETE ON %s WHEN "
                         "EXISTS (SELECT 1 FROM %s WHERE %s = OLD.%s) BEGIN "
                         "SELECT _pier_fk(%lld, 2, OLD.%s); END; ", id,
                         parent.p, child.p, ccol.p, pcol.p, id, pcol.p);
        pier__buf_printf(&b, "CREATE TRIGGER IF NOT EXISTS "
                         "\"_pier_fkq_%lld\" BEFORE UPDATE OF %s ON %s WHEN "
                         "OLD.%s IS NOT NEW.%s AND EXISTS "
                         "(SELECT 1 FROM %s WHERE %s = OLD.%s) BEGIN SELECT "
                         "_pier_fk(%lld, 2, OLD.%s); END;", id, pcol.p,
                         parent.p, pcol.p, pcol.p, child.p, ccol.p, pcol.p,
                         id, pcol.p);
    }
    bool oom = parent.oom || pcol.oom || child.oom || ccol.oom;
    pier__buf_free(&parent);
    pier__buf_free(&pcol);
    pier__buf_free(&child);
    pier__buf_free(&ccol);
    pier_status rc = oom || b.oom ? pier__oom(err) : run_ddl(x, &b, err);
    pier__buf_free(&b);
    return rc;
}

/* The tables whose SQL names a table just created: their foreign keys
 * onto it may lack their triggers (the parent came after the child). */
typedef struct adopt {
    const char *name;
    char **sql;
    size_t n, cap;
    bool oom;
} adopt;

static int find_children(const pier__schema_object *o, void *payload)
{
    adopt *ad = payload;
    if (strcmp(o->type, "table") != 0 || o->sql == NULL ||
        pier__name_eq(o->name, strlen(o->name), ad->name, strlen(ad->name)) ||
        strstr(o->sql, "REFERENCES") == NULL)
        return 0;
    if (ad->n == ad->cap) {
        size_t cap = ad->cap == 0 ? 8 : ad->cap * 2;
        char **v = realloc(ad->sql, cap * sizeof *v);
        if (v == NULL) {
            ad->oom = true;
            return 1;
        }
        ad->sql = v;
        ad->cap = cap;
    }
    if ((ad->sql[ad->n] = pier__strdup(o->sql)) == NULL) {
        ad->oom = true;
        return 1;
    }
    ad->n++;
    return 0;
}

/* After table `made` is created: the triggers of every foreign key onto
 * it that a table declared before it holds. */
static pier_status fk_adopt(const exec_ctx *x, const char *made,
                            pier_error *err)
{
    adopt ad = { made, NULL, 0, 0, false };
    pier_status rc = ops(x)->schema_objects(x->e->lake, find_children, &ad,
                                            err);
    if (rc == PIER_OK && ad.oom)
        rc = pier__oom(err);
    for (size_t i = 0; rc == PIER_OK && i < ad.n; i++) {
        pier__sql_script s;
        pier_status prc = pier__sql_parse(&s, ad.sql[i], strlen(ad.sql[i]),
                                          NULL);
        if (prc == PIER_E_OUT_OF_MEMORY)
            rc = pier__oom(err);
        const pier__sql_table *def = prc == PIER_OK && s.nstmts == 1
                                         ? s.stmts[0].create : NULL;
        const pier__table *t = def != NULL
            ? pier__catalog_find_table(&x->e->catalog, s.stmts[0].name)
            : NULL;
        for (size_t c = 0; rc == PIER_OK && t != NULL && c < def->ncolumns;
             c++) {
            ptrdiff_t k = pier__table_find(t, def->columns[c].name);
            pier__sql_fkref fk;
            if (k >= 0 &&
                pier__sql_fk_of(t->name, def->columns[c].name,
                                def->columns[c].constraints,
                                def->constraints, &fk) &&
                pier__name_eq(fk.parent, strlen(fk.parent), made,
                              strlen(made)))
                rc = fk_triggers(x, t, &t->columns[k], &def->columns[c],
                                 def->constraints, made, err);
        }
        pier__sql_script_free(&s);
    }
    for (size_t i = 0; i < ad.n; i++)
        free(ad.sql[i]);
    free(ad.sql);
    return rc;
}

/* A dropped table's triggers on its parents go with it. */
static pier_status fk_triggers_drop(const exec_ctx *x, const pier__table *t,
                                    pier_error *err)
{
    pier__buf b;
    pier__buf_init(&b);
    for (size_t i = 0; i < t->ncolumns; i++)
        pier__buf_printf(&b, "DROP TRIGGER IF EXISTS \"_pier_fkp_%lld\"; "
                         "DROP TRIGGER IF EXISTS \"_pier_fkq_%lld\"; ",
                         (long long)t->columns[i].id,
                         (long long)t->columns[i].id);
    pier_status rc = PIER_OK;
    if (b.oom)
        rc = pier__oom(err);
    else if (b.len > 0)
        rc = run_ddl(x, &b, err);
    pier__buf_free(&b);
    return rc;
}

/* Whether a column definition makes the table's rowid alias: an INT64
 * PRIMARY KEY of a table with a rowid. */
static bool is_rowid_alias(const pier__tcolumn *col,
                           const pier__sql_column *def, bool without_rowid)
{
    return !without_rowid && def->primary_key &&
           col->type.t.base == PIER__B_INT64 && col->type.t.dims == 0;
}

/* Puts a changed clone in the cache in place of the table. Out of
 * memory fails the script: the statements after it read the cache. */
static pier_status install(exec_ctx *x, const char *old_name, pier__table *t,
                           pier_error *err)
{
    if (old_name != NULL)
        pier__catalog_remove_table(&x->e->catalog, old_name);
    if (pier__catalog_put_table(&x->e->catalog, t))
        return PIER_OK;
    x->e->catalog.version = -1;
    return pier__oom(err);
}

/* ---- CREATE TABLE ---- */

static pier_status create_table(exec_ctx *x, pier_error *err)
{
    const pier__sql_stmt *st = x->st;
    const pier__sql_table *def = st->create;
    pier_status rc = main_only(x, err);
    if (rc == PIER_OK)
        rc = object_name_check(st->name, st->name_offset, err);
    if (rc == PIER_OK)
        rc = board_name_check(x, st->name, st->name_offset, err);
    if (rc != PIER_OK)
        return rc;
    if (def->as_select)
        return fail_at(err, st->offset, PIER_E_QUERY_FAILED,
                       "CREATE TABLE ... AS SELECT cannot declare its "
                       "columns' types: create table '%s' with its "
                       "columns, then INSERT ... SELECT", st->name);
    if (pier__catalog_find_table(&x->e->catalog, st->name) != NULL) {
        if (st->if_not_exists)
            return PIER_OK;
        return fail_at(err, st->name_offset, PIER_E_QUERY_FAILED,
                       "table '%s' already exists", st->name);
    }
    pier__table *t = pier__table_new(st->name);
    if (t == NULL)
        return pier__oom(err);
    for (size_t i = 0; rc == PIER_OK && i < def->ncolumns; i++)
        rc = column_check(t, &def->columns[i], err);
    if (rc == PIER_OK)
        rc = ops(x)->table_save(x->e->lake, t, err);
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_puts(&b, "CREATE TABLE ");
    pier__sql_quote_ident(&b, t->name);
    pier__buf_puts(&b, " (");
    for (size_t i = 0; i < t->ncolumns; i++) {
        if (i > 0)
            pier__buf_puts(&b, ", ");
        physical_column(&b, &t->columns[i], &def->columns[i], true);
    }
    if (def->constraints[0] != '\0') {
        pier__buf_puts(&b, ", ");
        pier__buf_puts(&b, def->constraints);
    }
    pier__buf_puts(&b, def->without_rowid ? ") STRICT, WITHOUT ROWID"
                                          : ") STRICT");
    if (rc == PIER_OK)
        rc = run_ddl(x, &b, err);
    pier__buf_free(&b);
    for (size_t i = 0; rc == PIER_OK && i < t->ncolumns; i++)
        rc = default_fits(x, t, &t->columns[i], &def->columns[i], err);
    for (size_t i = 0; rc == PIER_OK && i < t->ncolumns; i++)
        rc = exprs_exact(x, t, def->columns[i].constraints, err);
    if (rc == PIER_OK)
        rc = exprs_exact(x, t, def->constraints, err);
    for (size_t i = 0; rc == PIER_OK && i < t->ncolumns; i++)
        if (t->columns[i].readonly)
            rc = readonly_trigger(x, t, &t->columns[i],
                                  is_rowid_alias(&t->columns[i],
                                                 &def->columns[i],
                                                 def->without_rowid),
                                  err);
    for (size_t i = 0; rc == PIER_OK && i < t->ncolumns; i++)
        rc = fk_triggers(x, t, &t->columns[i], &def->columns[i],
                         def->constraints, NULL, err);
    if (rc == PIER_OK)
        rc = fk_adopt(x, t->name, err);
    if (rc == PIER_OK)
        rc = ddl_done(x, err);
    if (rc != PIER_OK) {
        pier__table_free(t);
        return rc;
    }
    return install(x, NULL, t, err);
}

/* ---- ALTER TABLE ---- */

/*
 * A typed column added to a table that may hold rows. SQLite's ADD COLUMN
 * checks every stored row against the table's CHECKs when the new column
 * has one, a scan of the whole table; so the column is added without its
 * value check, one stored row (they all read the column's default) is
 * checked instead, and the check is then written into the table's SQL
 * (an edit SQLite documents as safe: it changes no stored record).
 */
static pier_status add_checked(exec_ctx *x, const pier__table *t,
                               const pier__tcolumn *col,
                               const pier__sql_column *def, pier_error *err)
{
    pier__buf plain, checked, probe;
    pier__buf_init(&plain);
    pier__buf_init(&checked);
    pier__buf_init(&probe);
    physical_column(&plain, col, def, false);
    physical_column(&checked, col, def, true);
    pier__buf_puts(&probe, "SELECT _pier_fit(");
    pier__sql_quote_ident(&probe, col->name);
    pier__buf_puts(&probe, ", ");
    put_string(&probe, col->spelling);
    pier__buf_printf(&probe, ", %lld) FROM ", (long long)col->id);
    pier__sql_quote_ident(&probe, t->name);
    pier__buf_puts(&probe, " LIMIT 1");
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_puts(&b, "ALTER TABLE ");
    pier__sql_quote_ident(&b, t->name);
    pier__buf_puts(&b, " ADD COLUMN ");
    pier__buf_append(&b, plain.p, plain.len);
    pier_status rc = b.oom || plain.oom || checked.oom || probe.oom
                         ? pier__oom(err)
                         : run_ddl(x, &b, err);
    if (rc == PIER_OK) {
        pier_error perr;
        pier__error_clear(&perr);
        pier_status pr = ops(x)->ddl(x->e->lake, probe.p, &perr);
        const char *refusal = strstr(perr.message, "is not a");
        if (pr == PIER_E_OUT_OF_MEMORY ||
            (pr != PIER_OK && strstr(perr.message, "out of memory"))) {
            rc = pier__oom(err);
        } else if (pr != PIER_OK && (pr != PIER_E_QUERY_FAILED ||
                                     refusal == NULL)) {
            rc = pr;                   /* the lake's failure, as it is */
            if (err != NULL)
                *err = perr;
        } else if (pr != PIER_OK) {
            /* _pier_fit's "... is not a TYPE: why": the why */
            const char *why = strstr(refusal, col->spelling);
            why = why != NULL && strncmp(why + strlen(col->spelling), ": ",
                                         2) == 0
                      ? why + strlen(col->spelling) + 2 : perr.message;
            rc = fail_at(err, x->st->offset, PIER_E_COLUMN_TYPE_CONFLICT,
                         "column '%s' of table '%s' is %s: the rows stored "
                         "before it read its default, which is not one: %s",
                         col->name, t->name, col->spelling, why);
            pier__error_board(err, t->name);
            pier__error_column(err, col->name);
        }
    }
    sql_find sf = { t->name, NULL, false };
    if (rc == PIER_OK)
        rc = ops(x)->schema_objects(x->e->lake, find_sql, &sf, err);
    if (rc == PIER_OK && sf.found && sf.sql == NULL)
        rc = pier__oom(err);
    /* the definition SQLite appended, the check put in */
    const char *at = NULL;
    for (const char *p = sf.sql; p != NULL && (p = strstr(p, plain.p));
         p++)
        at = p;
    if (rc == PIER_OK && at == NULL)
        rc = pier__fail(err, PIER_E_WRITE_FAILED, "table '%s': the added "
                        "column's definition is not in its SQL", t->name);
    pier__buf edited;
    pier__buf_init(&edited);
    if (rc == PIER_OK) {
        pier__buf_append(&edited, sf.sql, (size_t)(at - sf.sql));
        pier__buf_append(&edited, checked.p, checked.len);
        pier__buf_puts(&edited, at + plain.len);
        rc = edited.oom ? pier__oom(err)
                        : ops(x)->schema_sql_set(x->e->lake, t->name,
                                                 edited.p, err);
    }
    pier__buf_free(&edited);
    free(sf.sql);
    pier__buf_free(&b);
    pier__buf_free(&plain);
    pier__buf_free(&checked);
    pier__buf_free(&probe);
    return rc;
}

static pier_status add_column(exec_ctx *x, pier__table *orig,
                              pier_error *err)
{
    const pier__sql_column *def = x->st->add;
    pier__table *t = pier__table_clone(orig);
    if (t == NULL)
        return pier__oom(err);
    pier_status rc = column_check(t, def, err);
    if (rc == PIER_OK)
        rc = ops(x)->table_save(x->e->lake, t, err);
    pier__tcolumn *col = &t->columns[t->ncolumns - 1];
    if (rc == PIER_OK && pier__coltype_checked(&col->type)) {
        rc = add_checked(x, t, col, def, err);
    } else if (rc == PIER_OK) {
        pier__buf b;
        pier__buf_init(&b);
        pier__buf_puts(&b, "ALTER TABLE ");
        pier__sql_quote_ident(&b, t->name);
        pier__buf_puts(&b, " ADD COLUMN ");
        physical_column(&b, col, def, true);
        rc = run_ddl(x, &b, err);
        pier__buf_free(&b);
    }
    if (rc == PIER_OK)
        rc = default_fits(x, t, col, def, err);
    if (rc == PIER_OK)
        rc = exprs_exact(x, t, def->constraints, err);
    if (rc == PIER_OK && col->readonly)
        rc = readonly_trigger(x, t, col, false, err);
    if (rc == PIER_OK)
        rc = fk_triggers(x, t, col, def, "", NULL, err);
    if (rc == PIER_OK)
        rc = ddl_done(x, err);
    if (rc != PIER_OK) {
        pier__table_free(t);
        return rc;
    }
    return install(x, NULL, t, err);
}

static pier_status column_of(const exec_ctx *x, const pier__table *t,
                             const char *name, size_t *out, pier_error *err)
{
    ptrdiff_t i = pier__table_find(t, name);
    if (i >= 0) {
        *out = (size_t)i;
        return PIER_OK;
    }
    fail_at(err, x->st->offset, PIER_E_UNKNOWN_COLUMN,
            "table '%s' has no column '%s'", t->name, name);
    pier__error_board(err, t->name);
    pier__error_column(err, name);
    return PIER_E_UNKNOWN_COLUMN;
}

/* RENAME COLUMN, RENAME TO, DROP COLUMN: SQLite rewrites the table's
 * checks and triggers itself; the catalog follows. */
static pier_status alter_table(exec_ctx *x, pier__table *orig,
                               pier_error *err)
{
    const pier__sql_stmt *st = x->st;
    size_t col = 0;
    pier_status rc = PIER_OK;
    if (st->kind != PIER__STMT_RENAME_TABLE)
        rc = column_of(x, orig, st->column, &col, err);
    if (rc == PIER_OK && st->kind == PIER__STMT_RENAME_COLUMN) {
        rc = pier__column_name_check(st->new_name, strlen(st->new_name),
                                     orig->name, err);
        ptrdiff_t other = pier__table_find(orig, st->new_name);
        if (rc == PIER_OK && other >= 0 && (size_t)other != col)
            rc = fail_at(err, st->offset, PIER_E_COLUMN_EXISTS,
                         "table '%s' already has a column '%s'", orig->name,
                         st->new_name);
    }
    if (rc == PIER_OK && st->kind == PIER__STMT_RENAME_TABLE) {
        rc = object_name_check(st->new_name, st->offset, err);
        pier__table *other =
            pier__catalog_find_table(&x->e->catalog, st->new_name);
        if (rc == PIER_OK && other != NULL && other != orig)
            rc = fail_at(err, st->offset, PIER_E_QUERY_FAILED,
                         "table '%s' already exists", st->new_name);
        if (rc == PIER_OK)
            rc = board_name_check(x, st->new_name, st->offset, err);
    }
    if (rc != PIER_OK)
        return rc;
    pier__table *t = pier__table_clone(orig);
    if (t == NULL)
        return pier__oom(err);
    pier__buf b;
    pier__buf_init(&b);
    if (st->kind == PIER__STMT_DROP_COLUMN && t->columns[col].readonly)
        pier__buf_printf(&b, "DROP TRIGGER \"_pier_ro_%lld\"; ",
                         (long long)t->columns[col].id);
    pier__buf_puts(&b, "ALTER TABLE ");
    pier__sql_quote_ident(&b, orig->name);
    char *renamed = NULL;
    bool ok = true;
    switch (st->kind) {
    case PIER__STMT_RENAME_COLUMN:
        pier__buf_puts(&b, " RENAME COLUMN ");
        pier__sql_quote_ident(&b, orig->columns[col].name);
        pier__buf_puts(&b, " TO ");
        pier__sql_quote_ident(&b, st->new_name);
        renamed = pier__strdup(st->new_name);
        ok = renamed != NULL;
        if (ok) {
            free(t->columns[col].name);
            t->columns[col].name = renamed;
        }
        break;
    case PIER__STMT_RENAME_TABLE:
        pier__buf_puts(&b, " RENAME TO ");
        pier__sql_quote_ident(&b, st->new_name);
        renamed = pier__strdup(st->new_name);
        ok = renamed != NULL;
        if (ok) {
            free(t->name);
            t->name = renamed;
        }
        break;
    default:                   /* DROP COLUMN */
        pier__buf_puts(&b, " DROP COLUMN ");
        pier__sql_quote_ident(&b, orig->columns[col].name);
        free(t->columns[col].name);
        free(t->columns[col].spelling);
        free((char *)t->columns[col].type.labels);
        memmove(t->columns + col, t->columns + col + 1,
                (t->ncolumns - col - 1) * sizeof *t->columns);
        t->ncolumns--;
        break;
    }
    rc = ok ? run_ddl(x, &b, err) : pier__oom(err);
    pier__buf_free(&b);
    if (rc == PIER_OK)
        rc = ops(x)->table_save(x->e->lake, t, err);
    if (rc == PIER_OK)
        rc = ddl_done(x, err);
    if (rc != PIER_OK) {
        pier__table_free(t);
        return rc;
    }
    return install(x, orig->name, t, err);
}

/* ---- DROP TABLE ---- */

static pier_status drop_table(exec_ctx *x, pier_error *err)
{
    const pier__sql_stmt *st = x->st;
    pier_status rc = main_only(x, err);
    if (rc != PIER_OK)
        return rc;
    pier__table *t = pier__catalog_find_table(&x->e->catalog, st->name);
    if (t == NULL) {
        if (pier__object_name_reserved(st->name) != NULL)
            return object_name_check(st->name, st->name_offset, err);
        if (st->if_exists)
            return PIER_OK;
        return table_of(x, st->name, st->name_offset, &t, err);
    }
    rc = fk_triggers_drop(x, t, err);
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_puts(&b, "DROP TABLE ");
    pier__sql_quote_ident(&b, t->name);
    if (rc == PIER_OK)
        rc = run_ddl(x, &b, err);
    pier__buf_free(&b);
    if (rc == PIER_OK)
        rc = ops(x)->table_forget(x->e->lake, t->id, err);
    if (rc == PIER_OK)
        rc = ddl_done(x, err);
    if (rc == PIER_OK)
        pier__catalog_remove_table(&x->e->catalog, st->name);
    return rc;
}

/* ---- CREATE BOARD ---- */

/* A board, as pier_board_create makes one: the form a schema dump writes
 * boards in, so that running a dump recreates them. */
static pier_status create_board(exec_ctx *x, pier_error *err)
{
    const pier__sql_stmt *st = x->st;
    const pier__sql_table *def = st->create;
    pier_status rc = pier__board_id_check(st->name, err);
    if (rc != PIER_OK) {
        if (err != NULL)
            err->offset = (int64_t)st->name_offset;
        return rc;
    }
    if (st->if_not_exists &&
        pier__catalog_find(&x->e->catalog, st->name) != NULL)
        return PIER_OK;
    size_t n = def->ncolumns;
    pier_column_def *cols = calloc(n + 1, sizeof *cols);
    pier_column_origin *origins = calloc(n + 1, sizeof *origins);
    if (cols == NULL || origins == NULL) {
        free(cols);
        free(origins);
        return pier__oom(err);
    }
    for (size_t i = 0; i < n; i++) {
        cols[i] = (pier_column_def){ def->columns[i].name,
                                     def->columns[i].type };
        origins[i] = def->columns[i].inferred ? PIER_ORIGIN_INFERRED
                                              : PIER_ORIGIN_DECLARED;
    }
    pier_board_options o = PIER_BOARD_OPTIONS_INIT;
    o.columns = cols;
    o.ncolumns = n;
    o.strict = def->strict;
    pier__write w;
    rc = pier__write_join(&w, x->e, err);
    if (rc == PIER_OK) {
        x->catalog_changed = true;
        rc = pier__board_create_in(&w, st->name, &o, origins, err);
    }
    if (rc != PIER_OK && err != NULL && err->offset < 0)
        err->offset = (int64_t)st->offset;
    free(cols);
    free(origins);
    return rc;
}

/* ---- statements SQLite runs as written ---- */

/* The declared column a stored value came from, if any. */
static const pier__tcolumn *origin_column(const exec_ctx *x,
                                          const char *table,
                                          const char *column)
{
    if (table == NULL || column == NULL)
        return NULL;
    const pier__table *t = pier__catalog_find_table(&x->e->catalog, table);
    ptrdiff_t i = t != NULL ? pier__table_find(t, column) : -1;
    return i >= 0 ? &t->columns[i] : NULL;
}

/* Finds a declared column by its id: the table and the column. */
static const pier__tcolumn *column_by_id(const exec_ctx *x, int64_t id,
                                         const pier__table **table)
{
    const pier__catalog *c = &x->e->catalog;
    for (size_t i = 0; i < c->ntables; i++)
        for (size_t k = 0; k < c->tables[i]->ncolumns; k++)
            if (c->tables[i]->columns[k].id == id) {
                *table = c->tables[i];
                return &c->tables[i]->columns[k];
            }
    return NULL;
}

/* STRICT's own refusal, "cannot store TEXT value in INTEGER column t.c":
 * the class of the value given is what it names. */
static void datatype_failure(pier_error *err, pier_status rc,
                             const pier__table *t, const pier__tcolumn *col,
                             const char *sqlite_msg)
{
    char cls[16] = "";
    const char *p = strstr(sqlite_msg, "cannot store ");
    if (p != NULL) {
        p += strlen("cannot store ");
        size_t n = 0;
        while (n + 1 < sizeof cls && p[n] >= 'A' && p[n] <= 'Z') {
            cls[n] = (char)(p[n] - 'A' + 'a');
            n++;
        }
        cls[n] = '\0';
    }
    if (cls[0] == '\0') {
        pier__fail(err, rc, "column '%s' of table '%s' is %s: %s", col->name,
                   t->name, col->spelling, sqlite_msg);
        return;
    }
    /* SQLite's class names, as a reader says them. */
    static const struct { const char *sqlite, *said, *type; } classes[] = {
        { "int", "an integer", "integer" }, { "real", "a real", "real" },
        { "text", "a text", "text" },       { "blob", "a blob", "blob" },
    };
    const char *said = cls, *type = cls;
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        if (strcmp(cls, classes[i].sqlite) == 0) {
            said = classes[i].said;
            type = classes[i].type;
        }
    pier__fail(err, rc, "column '%s' of table '%s' is %s, got %s value",
               col->name, t->name, col->spelling, said);
    pier__copy_field(err->value_type, sizeof err->value_type, type);
}

/* Names the table and column of a value check's or a read-only
 * trigger's refusal, and of a STRICT datatype refusal. */
/* A foreign key's trigger failed the statement: which key, which value. */
static pier_status fk_failure(const exec_ctx *x, pier_status rc,
                              const pier__stmt_failure *f, pier_error *err)
{
    const pier__table *t = NULL;
    const pier__tcolumn *col = column_by_id(x, f->column_id, &t);
    if (col == NULL)
        return rc;
    sql_find sf = { t->name, NULL, false };
    pier_error ignored;
    if (ops(x)->schema_objects(x->e->lake, find_sql, &sf, &ignored) !=
            PIER_OK || sf.sql == NULL) {
        free(sf.sql);
        return rc;
    }
    pier__sql_fkref fk;
    bool found = false;
    pier__sql_script s;
    if (pier__sql_parse(&s, sf.sql, strlen(sf.sql), NULL) == PIER_OK &&
        s.nstmts == 1 && s.stmts[0].kind == PIER__STMT_CREATE_TABLE) {
        const pier__sql_table *def = s.stmts[0].create;
        for (size_t i = 0; !found && i < def->ncolumns; i++)
            if (pier__name_eq(def->columns[i].name,
                              strlen(def->columns[i].name), col->name,
                              strlen(col->name)))
                found = pier__sql_fk_of(t->name, col->name,
                                        def->columns[i].constraints,
                                        def->constraints, &fk);
    }
    pier__sql_script_free(&s);
    free(sf.sql);
    if (!found)
        return rc;
    if (f->fk == 1)
        pier__fail(err, rc, "FOREIGN KEY %s has no %s row with %s", fk.name,
                   fk.parent, f->value);
    else
        pier__fail(err, rc, "FOREIGN KEY %s: rows of %s still reference the "
                   "%s row with %s", fk.name, t->name, fk.parent, f->value);
    pier__error_board(err, f->fk == 1 ? t->name : fk.parent);
    pier__error_column(err, f->fk == 1 ? col->name : fk.parent_column);
    return rc;
}

/* SQLite's "CHECK constraint failed: NAME" (or the expression, for a check
 * with no name), said of the statement's table. */
static void check_failure(const exec_ctx *x, pier_error *err)
{
    static const char prefix[] = "CHECK constraint failed: ";
    const char *table = x->st->name;
    if (table == NULL ||
        strncmp(err->message, prefix, sizeof prefix - 1) != 0)
        return;
    char what[sizeof err->message];
    pier__copy_field(what, sizeof what, err->message + sizeof prefix - 1);
    bool name = what[0] != '\0';
    for (const char *c = what; *c != '\0'; c++)
        if (!(*c == '_' || (*c >= '0' && *c <= '9') ||
              ((*c | 0x20) >= 'a' && (*c | 0x20) <= 'z')))
            name = false;
    pier__fail(err, PIER_E_CONSTRAINT_CHECK, name ? "CHECK %s failed for a "
               "row of %s" : "CHECK (%s) failed for a row of %s", what,
               table);
    pier__error_board(err, table);
}

static pier_status name_failure(const exec_ctx *x, pier_status rc,
                                const pier__stmt_failure *f,
                                pier_error *err)
{
    if (err != NULL && f->fk != 0)
        return fk_failure(x, rc, f, err);
    if (err != NULL && rc == PIER_E_CONSTRAINT_CHECK && f->column_id == 0) {
        check_failure(x, err);
        return rc;
    }
    const pier__table *t = NULL;
    const pier__tcolumn *col = NULL;
    if (f->column_id != 0) {
        col = column_by_id(x, f->column_id, &t);
    } else if (f->table[0] != '\0') {
        t = pier__catalog_find_table(&x->e->catalog, f->table);
        col = origin_column(x, f->table, f->column);
    }
    if (col == NULL || err == NULL)
        return rc;
    char sqlite_msg[sizeof err->message];
    pier__copy_field(sqlite_msg, sizeof sqlite_msg, err->message);
    if (rc == PIER_E_READONLY_COLUMN)
        pier__fail(err, rc, "column '%s' of table '%s' is READONLY: no "
                   "UPDATE may assign it", col->name, t->name);
    else if (f->column_id != 0)
        pier__fail(err, rc, "column '%s' of table '%s' is %s, got %s: %s",
                   col->name, t->name, col->spelling, f->value, f->reason);
    else
        datatype_failure(err, rc, t, col, sqlite_msg);
    pier__error_board(err, t->name);
    pier__error_column(err, col->name);
    pier__copy_field(err->column_type, sizeof err->column_type,
                     col->spelling);
    return rc;
}

/* Binds every parameter the statement names. */
static pier_status bind(const exec_ctx *x, const pier__stmt_shape *shape,
                        pier_error *err)
{
    for (size_t i = 0; i < shape->nparams; i++) {
        const char *name = shape->params[i];
        const pier__cell *v = pier__params_find(x->params, name, (int)i + 1);
        if (v == NULL) {
            char anon[24];
            if (name == NULL) {
                snprintf(anon, sizeof anon, "?%zu", i + 1);
                name = anon;
            }
            fail_at(err, x->st->offset, PIER_E_PLACEHOLDER_UNBOUND,
                    "parameter '%s' has no value", name);
            pier__error_column(err, name);
            return PIER_E_PLACEHOLDER_UNBOUND;
        }
        pier_status rc = ops(x)->stmt_bind(x->e->lake, (int)i + 1, v, err);
        if (rc != PIER_OK)
            return rc;
    }
    return PIER_OK;
}

/*
 * A statement that names a board as a table finds no such table: boards
 * live under the engine's names and are read with pier_query. When the
 * missing table is a board, say so (SQLite reports no structured name:
 * its message is read).
 */
static pier_status board_by_name(const exec_ctx *x, pier_error *err)
{
    static const char prefix[] = "no such table: ";
    const char *p = err != NULL ? strstr(err->message, prefix) : NULL;
    if (p == NULL)
        return PIER_E_QUERY_FAILED;
    p += sizeof prefix - 1;
    if (strncmp(p, "main.", 5) == 0)
        p += 5;
    char name[PIER__NAME_MAX + 1];
    size_t n = 0;
    for (; p[n] != '\0' && p[n] != ' ' && n < PIER__NAME_MAX; n++)
        name[n] = p[n] >= 'A' && p[n] <= 'Z' ? (char)(p[n] - 'A' + 'a')
                                             : p[n];
    name[n] = '\0';
    if (pier__catalog_find(&x->e->catalog, name) == NULL)
        return PIER_E_QUERY_FAILED;
    pier__fail(err, PIER_E_ENTITY_NOT_ALLOWED,
               "'%s' is a board: boards are read with a board query "
               "(pier query, {{board}}), not by name in the SQL dialect",
               name);
    pier__error_board(err, name);
    return PIER_E_ENTITY_NOT_ALLOWED;
}

/* Decodes one row into the result. */
static pier_status keep_row(exec_ctx *x, const pier__tcolumn *const *cols,
                            const pier__cell *cells, pier_value *values,
                            pier__arena *a, pier_error *err)
{
    size_t n = pier__memrows_column_count(x->rows);
    pier__arena_reset(a);
    for (size_t i = 0; i < n; i++) {
        pier__fit fit = cols[i] != NULL
            ? pier__coltype_decode(&values[i], &cols[i]->type, &cells[i], a)
            : PIER__FIT_CONFLICT;
        /* A computed value, or one from another arm of a compound SELECT,
         * reads as what SQLite holds. */
        if (fit == PIER__FIT_CONFLICT)
            fit = pier__value_read(&values[i], &cells[i], NULL, a, false);
        if (fit != PIER__FIT_OK)
            return pier__oom(err);
    }
    return pier__memrows_add(x->rows, values, err);
}

/*
 * An INSERT into a declared table names every column it must: a column a
 * migration added NOT NULL with a backfill and no default has the backfill
 * as its SQL's default (what rows stored before it read), which SQLite
 * would put in a new row that omits it: such a row is refused instead.
 */
static pier_status insert_names(const exec_ctx *x, pier_error *err)
{
    const pier__sql_stmt *st = x->st;
    const pier__table *t = pier__catalog_find_table(&x->e->catalog,
                                                    st->name);
    if (t == NULL || (!st->insert_list && !st->insert_default_values))
        return PIER_OK;
    for (size_t i = 0; i < t->ncolumns; i++) {
        const pier__tcolumn *c = &t->columns[i];
        if (!c->named)
            continue;
        bool given = false;
        for (size_t k = 0; !given && k < st->ninsert_columns; k++)
            given = pier__name_eq(st->insert_columns[k],
                                  strlen(st->insert_columns[k]), c->name,
                                  strlen(c->name));
        if (given)
            continue;
        fail_at(err, st->offset, PIER_E_CONSTRAINT_NOT_NULL,
                "column '%s' of table '%s' is NOT NULL and has no default: "
                "an INSERT gives it a value (rows stored before it was "
                "added read its backfill)", c->name, t->name);
        pier__error_board(err, t->name);
        pier__error_column(err, c->name);
        return PIER_E_CONSTRAINT_NOT_NULL;
    }
    return PIER_OK;
}

/* ---- defaults an INSERT's SQL cannot fill ---- */

/* Whether the INSERT names column c. */
static bool insert_gives(const pier__sql_stmt *st, const pier__tcolumn *c)
{
    for (size_t k = 0; k < st->ninsert_columns; k++)
        if (pier__name_eq(st->insert_columns[k], strlen(st->insert_columns[k]),
                          c->name, strlen(c->name)))
            return true;
    return false;
}

/* Column c's fill as an SQL expression. */
static void put_fill(pier__buf *b, const pier__tcolumn *c)
{
    if (strcmp(c->fill, "now()") == 0) {
        const char *type = pier__sql_now_type(&c->type.t);
        pier__buf_printf(b, "_pier_now('%s')", type != NULL ? type : "");
    } else {
        pier__buf_puts(b, c->fill);
    }
}

/* The fills of the columns the INSERT omits, each after ", " (names, or
 * values). */
static void put_fills(pier__buf *b, const pier__table *t,
                      const pier__sql_stmt *st, bool names)
{
    for (size_t i = 0; i < t->ncolumns; i++) {
        const pier__tcolumn *c = &t->columns[i];
        if (c->fill == NULL || insert_gives(st, c))
            continue;
        if (b->len > 0 && b->p[b->len - 1] != '(')
            pier__buf_puts(b, ", ");
        if (names)
            pier__sql_quote_ident(b, c->name);
        else
            put_fill(b, c);
    }
}

/*
 * An INSERT into a table with a column whose default its SQL does not hold
 * (a migration added it to rows that read its backfill, or set its default
 * since), written out with that column and its default: into *out, empty
 * when the INSERT needs no change. VALUES rows each get the values; a
 * SELECT is read from as a subquery; DEFAULT VALUES becomes VALUES.
 */
static void insert_fill(const exec_ctx *x, pier__buf *out)
{
    const pier__sql_stmt *st = x->st;
    const pier__table *t = pier__catalog_find_table(&x->e->catalog,
                                                    st->name);
    if (t == NULL || (!st->insert_list && !st->insert_default_values))
        return;
    bool any = false;
    for (size_t i = 0; !any && i < t->ncolumns; i++)
        any = t->columns[i].fill != NULL && !insert_gives(st, &t->columns[i]);
    if (!any)
        return;
    const char *sql = x->sql;
    size_t end = st->offset + st->len;
    pier__buf_append(out, sql + st->offset, st->insert_at - st->offset);
    if (st->insert_default_values) {
        pier__buf_putc(out, '(');
        put_fills(out, t, st, true);
        pier__buf_puts(out, ") VALUES (");
        put_fills(out, t, st, false);
        pier__buf_putc(out, ')');
        pier__buf_append(out, sql + st->insert_rest, end - st->insert_rest);
        return;
    }
    put_fills(out, t, st, true);
    pier__buf_putc(out, ')');
    const char *why;
    pier__token tok;
    size_t pos = st->insert_rest;
    pier__tk k = pier__sql_token(sql, end, pos, &tok, &why);
    if (k == PIER__TK_WORD &&
        pier__name_eq(sql + tok.start, tok.end - tok.start, "values", 6)) {
        /* each row's ')' gets the values before it */
        size_t depth = 0;
        pier__buf_append(out, sql + pos, tok.end - pos);
        pos = tok.end;
        for (;;) {
            k = pier__sql_token(sql, end, pos, &tok, &why);
            if (k == PIER__TK_END || k == PIER__TK_BAD)
                break;
            if (k == PIER__TK_LP)
                depth++;
            if (k == PIER__TK_RP && depth > 0 && --depth == 0) {
                pier__buf_append(out, sql + pos, tok.start - pos);
                put_fills(out, t, st, false);
                pos = tok.start;
                k = pier__sql_token(sql, end, tok.end, &tok, &why);
                pier__buf_append(out, sql + pos, tok.start - pos);
                pos = tok.start;
                if (k != PIER__TK_COMMA)
                    break;
                continue;
            }
            if (depth == 0 && k != PIER__TK_COMMA)
                break;
            pier__buf_append(out, sql + pos, tok.end - pos);
            pos = tok.end;
        }
        pier__buf_append(out, sql + pos, end - pos);
        return;
    }
    /* a SELECT, up to an upsert clause or RETURNING */
    size_t depth = 0, stop = end;
    bool upsert = false;
    for (size_t at = pos;; at = tok.end) {
        k = pier__sql_token(sql, end, at, &tok, &why);
        if (k == PIER__TK_END || k == PIER__TK_BAD)
            break;
        if (k == PIER__TK_LP)
            depth++;
        else if (k == PIER__TK_RP && depth > 0)
            depth--;
        if (depth > 0 || k != PIER__TK_WORD)
            continue;
        if (pier__name_eq(sql + tok.start, tok.end - tok.start,
                          "returning", 9)) {
            stop = tok.start;
            break;
        }
        pier__token next;
        if (pier__name_eq(sql + tok.start, tok.end - tok.start, "on", 2) &&
            pier__sql_token(sql, end, tok.end, &next, &why) ==
                PIER__TK_WORD &&
            pier__name_eq(sql + next.start, next.end - next.start,
                          "conflict", 8)) {
            stop = tok.start;
            upsert = true;
            break;
        }
    }
    pier__buf_puts(out, " SELECT *");
    put_fills(out, t, st, false);
    pier__buf_puts(out, " FROM (");
    pier__buf_append(out, sql + pos, stop - pos);
    pier__buf_puts(out, upsert ? ") WHERE true " : ") ");
    pier__buf_append(out, sql + stop, end - stop);
}

/* The memo's entry for text[0..n), moved to the front; NULL if none. The
 * text is the statement as written (or as filled): the rewrite names
 * result columns by it, and another text may read the same to SQLite
 * (EXTRACT is written as date_part). */
static const pier__exact_memo *memo_find(pier_engine *e, const char *text,
                                         size_t n)
{
    pier__exact_memo *m = e->exact_memo;
    for (size_t i = 0; i < PIER__EXACT_MEMO && m[i].from != NULL; i++) {
        if (strncmp(m[i].from, text, n) != 0 || m[i].from[n] != '\0')
            continue;
        pier__exact_memo hit = m[i];
        memmove(m + 1, m, i * sizeof *m);
        m[0] = hit;
        return &m[0];
    }
    return NULL;
}

static void memo_put(pier_engine *e, const char *from, size_t nfrom,
                     const char *to, size_t nto, uint64_t epoch)
{
    char *a = pier__strndup(from, nfrom), *b = pier__strndup(to, nto);
    if (a == NULL || b == NULL) {
        free(a);
        free(b);
        return;                    /* (only a memo) */
    }
    pier__exact_memo *m = e->exact_memo;
    free(m[PIER__EXACT_MEMO - 1].from);
    free(m[PIER__EXACT_MEMO - 1].to);
    memmove(m + 1, m, (PIER__EXACT_MEMO - 1) * sizeof *m);
    m[0] = (pier__exact_memo){ a, b, epoch };
}

/* Forgets every rewrite: the schema they were made under is gone. */
static void memo_clear(pier_engine *e)
{
    for (size_t i = 0; i < PIER__EXACT_MEMO; i++) {
        free(e->exact_memo[i].from);
        free(e->exact_memo[i].to);
        e->exact_memo[i] = (pier__exact_memo){ NULL, NULL, 0 };
    }
}

/*
 * The statement (`filled`, else as written) was refused for computing on
 * exact values with SQLite's operators: written with Pier's exact ones
 * (pier__sql_exact_ops) and prepared again. On success `filled` holds the
 * text prepared; a refusal of the rewrite for the same cause (an operator
 * it could not read, a numeric function) is reported, any other the first
 * refusal.
 */
static pier_status prepare_exact_ops(exec_ctx *x, pier__buf *filled,
                                     bool ddl, pier__stmt_shape *shape,
                                     pier_error *err)
{
    pier__buf text;
    pier__buf_init(&text);
    const pier__sql_stmt *st = x->st;
    if (!pier__sql_exact_ops(&text, filled->len > 0 ? filled->p
                                                   : x->sql + st->offset,
                             filled->len > 0 ? filled->len : st->len,
                             filled->len > 0 ? NULL
                                             : x->written + st->offset)) {
        bool oom = text.oom;
        pier__buf_free(&text);
        return oom ? pier__oom(err) : PIER_E_QUERY_FAILED;
    }
    pier_error first;
    if (err != NULL)
        first = *err;
    pier__lake *lake = x->e->lake;
    lake->exact_rewritten = true;
    pier_status rc = ops(x)->stmt_prepare(lake, text.p, text.len, ddl, shape,
                                          err);
    lake->exact_rewritten = false;
    if (rc == PIER_OK) {
        memo_put(x->e, filled->len > 0 ? filled->p : x->written + st->offset,
                 filled->len > 0 ? filled->len : st->len, text.p, text.len,
                 lake->schema_epoch);
        pier__buf_free(filled);
        *filled = text;
        return PIER_OK;
    }
    pier__buf_free(&text);
    if (!lake->exact_ops && rc != PIER_E_OUT_OF_MEMORY) {
        rc = PIER_E_QUERY_FAILED;
        if (err != NULL)
            *err = first;
    }
    return rc;
}


/*
 * A result column's name as the user wrote it. SQLite names a column
 * that is an expression by its text, which is the text the front-end
 * rewrote in the same length (a CAST written as _pcs(...), EXTRACT as
 * date_part): the same bytes of the statement as written are its name.
 * A name found nowhere in the statement (an alias the rewrite of
 * operators wrote) is kept, and so is any name without those calls.
 */
static const char *as_written(const exec_ctx *x, const char *name,
                              pier__buf *scratch)
{
    /* (only a name holding what the front-end writes: an alias or a
     * column's name may also be found inside a rewritten span) */
    if (name == NULL || x->written == x->sql ||
        (strstr(name, "_pcs(") == NULL && strstr(name, "date_part(") == NULL))
        return name;
    const char *sql = x->sql + x->st->offset;
    size_t n = strlen(name), len = x->st->len;
    if (n == 0 || n > len)
        return name;
    for (size_t at = 0; at + n <= len; at++) {
        if (memcmp(sql + at, name, n) != 0)
            continue;
        const char *w = x->written + x->st->offset + at;
        if (memcmp(w, name, n) == 0)
            return name;               /* (written so) */
        pier__buf_reset(scratch);
        pier__buf_append(scratch, w, n);
        return scratch->oom ? name : scratch->p;
    }
    /* a number SQLite would read inexactly was quoted (technique 6,
     * literals.c), which changed the length: the name with such numbers
     * unquoted is what the same-length text holds */
    pier__buf plain;
    pier__buf_init(&plain);
    bool unquoted = false;
    for (size_t i = 0; i < n;) {
        const char *close = name[i] == '\'' ? strchr(name + i + 1, '\'')
                                            : NULL;
        pier__buf quoted;
        pier__buf_init(&quoted);
        size_t k = close != NULL ? (size_t)(close - name) - i - 1 : 0;
        if (close != NULL && k > 0 && k == strspn(name + i + 1,
                                                  "0123456789.eE+-") &&
            pier__sql_exact_literals(&quoted, name + i + 1, k) &&
            quoted.len == k + 2) {
            pier__buf_append(&plain, name + i + 1, k);
            i += k + 2;
            unquoted = true;
        } else {
            pier__buf_putc(&plain, name[i++]);
        }
        pier__buf_free(&quoted);
    }
    const char *found = name;
    for (size_t at = 0; unquoted && !plain.oom && at + plain.len <= len;
         at++) {
        if (memcmp(sql + at, plain.p, plain.len) != 0)
            continue;
        pier__buf_reset(scratch);
        pier__buf_append(scratch, x->written + x->st->offset + at,
                         plain.len);
        found = scratch->oom ? name : scratch->p;
        break;
    }
    pier__buf_free(&plain);
    return found;
}

static pier_status run_plain(exec_ctx *x, bool last, pier_error *err)
{
    const pier__sql_stmt *st = x->st;
    pier_status rc = PIER_OK;
    switch (st->kind) {
    case PIER__STMT_CREATE_INDEX:
    case PIER__STMT_CREATE_VIEW:
        rc = main_only(x, err);
        if (rc == PIER_OK)
            rc = object_name_check(st->name, st->name_offset, err);
        if (rc == PIER_OK && st->kind == PIER__STMT_CREATE_VIEW)
            rc = board_name_check(x, st->name, st->name_offset, err);
        break;
    case PIER__STMT_INSERT:
        rc = insert_names(x, err);
        break;
    default:
        break;
    }
    if (rc != PIER_OK)
        return rc;
    bool ddl = st->kind == PIER__STMT_CREATE_INDEX ||
               st->kind == PIER__STMT_CREATE_VIEW ||
               st->kind == PIER__STMT_DROP_INDEX ||
               st->kind == PIER__STMT_DROP_VIEW;
    /* one instant for every DEFAULT now() the statement fills */
    x->e->lake->stmt_now = pier__engine_now(x->e);
    pier__buf filled;
    pier__buf_init(&filled);
    if (st->kind == PIER__STMT_INSERT)
        insert_fill(x, &filled);
    /* numbers SQLite would read inexactly, as their text */
    if (!ddl && !filled.oom) {
        pier__buf exact;
        pier__buf_init(&exact);
        if (pier__sql_exact_literals(&exact, filled.len > 0
                                                 ? filled.p
                                                 : x->sql + st->offset,
                                     filled.len > 0 ? filled.len
                                                    : st->len)) {
            pier__buf_free(&filled);
            filled = exact;
        } else {
            pier__buf_free(&exact);
        }
    }
    if (filled.oom) {
        pier__buf_free(&filled);
        return pier__oom(err);
    }
    pier__stmt_shape shape;
    /* a statement seen before whose operators were rewritten */
    const pier__exact_memo *memo =
        ddl ? NULL
            : memo_find(x->e,
                        filled.len > 0 ? filled.p : x->written + st->offset,
                        filled.len > 0 ? filled.len : st->len);
    rc = PIER_E_QUERY_FAILED;
    if (memo != NULL) {
        x->e->lake->exact_rewritten = true;
        rc = ops(x)->stmt_prepare(x->e->lake, memo->to, strlen(memo->to),
                                  ddl, &shape, err);
        x->e->lake->exact_rewritten = false;
        /* (preparing tells whether the schema changed since) */
        if (rc == PIER_OK && memo->epoch != x->e->lake->schema_epoch) {
            ops(x)->stmt_finish(x->e->lake);
            memo_clear(x->e);
            rc = PIER_E_QUERY_FAILED;
        } else if (rc == PIER_OK) {
            pier__buf_reset(&filled);
            pier__buf_puts(&filled, memo->to);
        }
    }
    if (rc != PIER_OK)
        rc = ops(x)->stmt_prepare(x->e->lake,
                                  filled.len > 0 ? filled.p
                                                 : x->sql + st->offset,
                                  filled.len > 0 ? filled.len : st->len,
                                  ddl, &shape, err);
    if (rc == PIER_E_QUERY_FAILED && x->e->lake->exact_ops)
        rc = prepare_exact_ops(x, &filled, ddl, &shape, err);
    if (rc == PIER_E_QUERY_FAILED)
        rc = board_by_name(x, err);
    if (rc != PIER_OK) {
        /* a byte of the statement as written, not as filled */
        if (err != NULL)
            err->offset = (int64_t)st->offset +
                          (err->offset >= 0 && filled.len == 0 ? err->offset
                                                               : 0);
        pier__buf_free(&filled);
        return rc;
    }
    pier__buf_free(&filled);
    if (x->prepare_only) {
        ops(x)->stmt_finish(x->e->lake);
        return PIER_OK;
    }
    rc = bind(x, &shape, err);
    pier__memrows *rows = NULL;
    if (rc == PIER_OK && last) {
        rows = pier__memrows_new(shape.ncolumns);
        if (rows == NULL)
            rc = pier__oom(err);
    }
    const pier__tcolumn **cols = NULL;
    pier_value *values = NULL;
    if (rows != NULL && shape.ncolumns > 0) {
        cols = calloc(shape.ncolumns, sizeof *cols);
        values = calloc(shape.ncolumns, sizeof *values);
        if (cols == NULL || values == NULL)
            rc = pier__oom(err);
    }
    pier__buf name;
    pier__buf_init(&name);
    for (size_t i = 0; rc == PIER_OK && rows != NULL &&
                       i < shape.ncolumns; i++) {
        cols[i] = origin_column(x, shape.tables[i], shape.columns[i]);
        rc = pier__memrows_column(rows, i,
                                  as_written(x, shape.names[i], &name),
                                  cols[i] != NULL ? cols[i]->spelling : NULL,
                                  err);
    }
    pier__buf_free(&name);
    pier__memrows_free(x->rows);
    x->rows = rows;
    pier__arena a;
    pier__arena_init(&a);
    while (rc == PIER_OK) {
        const pier__cell *cells = NULL;
        const pier__stmt_failure *failure = NULL;
        rc = ops(x)->stmt_step(x->e->lake, &cells, &failure, err);
        if (rc != PIER_OK) {
            rc = name_failure(x, rc, failure, err);
            if (err != NULL && err->offset < 0)
                err->offset = (int64_t)st->offset;
        }
        if (rc != PIER_OK || cells == NULL)
            break;
        if (rows != NULL)
            rc = keep_row(x, cols, cells, values, &a, err);
        /* The result's rows count toward the memory limit. */
        if (rc == PIER_OK && rows != NULL) {
            x->guard.held_bytes = (int64_t)pier__memrows_bytes(rows);
            rc = ops(x)->guard_check(x->e->lake, &x->guard, err);
        }
    }
    pier__arena_free(&a);
    free(cols);
    free(values);
    bool dml = st->kind == PIER__STMT_INSERT ||
               st->kind == PIER__STMT_UPDATE || st->kind == PIER__STMT_DELETE;
    if (rc == PIER_OK && rows != NULL && dml)
        pier__memrows_set_changes(rows, ops(x)->stmt_changes(x->e->lake));
    ops(x)->stmt_finish(x->e->lake);
    if (rc == PIER_OK && ddl)
        rc = ddl_done(x, err);
    return rc;
}

/* ---- transaction statements ---- */

/* Reloads the cache from the lake inside the script's transaction (after
 * a ROLLBACK undid DDL the cache had taken). */
static pier_status reload(exec_ctx *x, pier_error *err)
{
    pier__catalog fresh;
    pier__catalog_init(&fresh);
    int64_t version;
    pier_status rc = ops(x)->catalog_version(x->e->lake, &version, err);
    if (rc == PIER_OK)
        rc = ops(x)->catalog_load(x->e->lake, &fresh, err);
    if (rc != PIER_OK) {
        pier__catalog_clear(&fresh);
        return rc;
    }
    pier__catalog_clear(&x->e->catalog);
    x->e->catalog = fresh;
    x->e->catalog.version = version;
    return PIER_OK;
}

static pier_status run_tx(exec_ctx *x, pier_error *err)
{
    const pier__sql_stmt *st = x->st;
    pier__buf b;
    pier__buf_init(&b);
    pier_status rc = PIER_OK;
    if (st->kind == PIER__STMT_BEGIN) {
        if (x->in_user_tx)
            return fail_at(err, st->offset, PIER_E_QUERY_FAILED,
                           "BEGIN inside a transaction: a transaction "
                           "cannot start within another");
        pier__buf_puts(&b, "SAVEPOINT " USER_TX);
        x->in_user_tx = true;
    } else {
        if (!x->in_user_tx)
            return fail_at(err, st->offset, PIER_E_QUERY_FAILED,
                           "%s without BEGIN: no transaction is open",
                           pier__stmt_kind_name(st->kind));
        if (st->kind == PIER__STMT_ROLLBACK)
            pier__buf_puts(&b, "ROLLBACK TO " USER_TX "; ");
        pier__buf_puts(&b, "RELEASE " USER_TX);
        x->in_user_tx = false;
    }
    rc = run_ddl(x, &b, err);
    pier__buf_free(&b);
    if (rc == PIER_OK && st->kind == PIER__STMT_ROLLBACK &&
        x->catalog_changed)
        rc = reload(x, err);
    return rc;
}

/* ---- the script ---- */

/* A table a commit trigger names by name keeps its name: dropped or
 * renamed, the trigger would stop recording it without a word. */
static pier_status trigger_names(const exec_ctx *x, const char *table,
                                 pier_error *err)
{
    const pier__catalog *c = &x->e->catalog;
    for (size_t i = 0; table != NULL && i < c->ntriggers; i++) {
        const pier__commit_trigger *t = c->triggers[i];
        if (t->ntables > 0 && pier__trigger_covers(t, table))
            return fail_at(err, x->st->name_offset,
                           PIER_E_ENTITY_NOT_ALLOWED,
                           "%s: commit trigger '%s' records table '%s'; "
                           "drop the trigger first",
                           pier__stmt_kind_name(x->st->kind), t->name,
                           table);
    }
    return PIER_OK;
}

static pier_status run_stmt(exec_ctx *x, bool last, pier_error *err)
{
    const pier__sql_stmt *st = x->st;
    pier__table *t = NULL;
    pier_status rc = PIER_OK;
    switch (st->kind) {
    case PIER__STMT_CREATE_TABLE:
        return create_table(x, err);
    case PIER__STMT_CREATE_BOARD:
        return create_board(x, err);
    case PIER__STMT_DROP_TABLE:
        rc = trigger_names(x, st->name, err);
        return rc == PIER_OK ? drop_table(x, err) : rc;
    case PIER__STMT_ADD_COLUMN:
    case PIER__STMT_RENAME_COLUMN:
    case PIER__STMT_RENAME_TABLE:
    case PIER__STMT_DROP_COLUMN:
        rc = main_only(x, err);
        if (rc == PIER_OK)
            rc = table_of(x, st->name, st->name_offset, &t, err);
        if (rc == PIER_OK && st->kind == PIER__STMT_RENAME_TABLE)
            rc = trigger_names(x, t->name, err);
        if (rc != PIER_OK)
            return rc;
        return st->kind == PIER__STMT_ADD_COLUMN ? add_column(x, t, err)
                                                 : alter_table(x, t, err);
    case PIER__STMT_BEGIN:
    case PIER__STMT_COMMIT:
    case PIER__STMT_ROLLBACK:
        return run_tx(x, err);
    case PIER__STMT_CREATE_COMMIT_TRIGGER:
    case PIER__STMT_DROP_COMMIT_TRIGGER:
        rc = st->kind == PIER__STMT_CREATE_COMMIT_TRIGGER
            ? pier__trigger_create(x->e, st, err)
            : pier__trigger_drop(x->e, st, err);
        return rc == PIER_OK ? ddl_done(x, err) : rc;
    default:
        return run_plain(x, last, err);
    }
}

/* A malformed script's message says where, whether the front-end or
 * SQLite found the fault (err->offset has it too). */
static pier_status where(pier_status rc, pier_error *err)
{
    return pier__exec_where(rc, err);
}

pier_status pier__exec_where(pier_status rc, pier_error *err)
{
    if (rc == PIER_E_QUERY_FAILED && err != NULL && err->offset >= 0 &&
        strstr(err->message, " of the script)") == NULL) {
        size_t n = strlen(err->message);
        snprintf(err->message + n, sizeof err->message - n,
                 " (at byte %lld of the script)", (long long)err->offset);
    }
    return rc;
}

/* Runs the script's statements in order (the guard is on the lake), the
 * result being the last one's; a transaction the script opens must
 * close in it. */
static pier_status run_script(exec_ctx *x, const pier__sql_script *s,
                              pier_error *err)
{
    pier_status rc = PIER_OK;
    for (size_t i = 0; rc == PIER_OK && i < s->nstmts; i++) {
        x->st = &s->stmts[i];
        bool last = i + 1 == s->nstmts;
        if (last) {            /* the result is the last statement's */
            pier__memrows_free(x->rows);
            x->rows = NULL;
        }
        rc = run_stmt(x, last, err);
    }
    if (rc == PIER_OK && x->in_user_tx)
        rc = fail_at(err, strlen(x->sql), PIER_E_QUERY_FAILED,
                     "the script ends inside a transaction: BEGIN has no "
                     "COMMIT or ROLLBACK");
    return rc;
}

pier_status pier__exec_script(pier_engine *e, const char *sql,
                              bool *catalog_changed, pier_error *err)
{
    pier__sql_script script;
    pier_status rc = pier__sql_parse(&script, sql, strlen(sql), err);
    /* SQLite reads the rewritten text (EXTRACT made date_part, exact
     * operators made functions), as pier_exec's statements do; offsets
     * hold in both. */
    exec_ctx x = { .e = e, .sql = script.text, .written = sql,
                   .params = NULL };
    if (rc == PIER_OK) {
        pier__guard_init(&x.guard, e, NULL, "script");
        ops(&x)->stmt_guard(e->lake, &x.guard);
        rc = run_script(&x, &script, err);
        ops(&x)->stmt_guard(e->lake, NULL);
    }
    pier__memrows_free(x.rows);
    pier__sql_script_free(&script);
    if (x.catalog_changed)
        *catalog_changed = true;
    return where(rc, err);
}

pier_status pier__exec_parsed_in_write(pier_engine *e,
                                       const pier__sql_script *script,
                                       const char *written,
                                       bool *catalog_changed,
                                       pier_error *err)
{
    pier_status rc = PIER_OK;
    exec_ctx x = { .e = e, .sql = script->text, .written = written,
                   .params = NULL };
    for (size_t i = 0; rc == PIER_OK && i < script->nstmts; i++) {
        x.st = &script->stmts[i];
        rc = run_stmt(&x, i + 1 == script->nstmts, err);
    }
    pier__memrows_free(x.rows);
    if (x.catalog_changed)
        *catalog_changed = true;
    return where(rc, err);
}

pier_status pier__exec_parsed_check(pier_engine *e,
                                    const pier__sql_script *script,
                                    const char *written, pier_error *err)
{
    pier_status rc = PIER_OK;
    exec_ctx x = { .e = e, .sql = script->text, .written = written,
                   .params = NULL, .prepare_only = true };
    for (size_t i = 0; rc == PIER_OK && i < script->nstmts; i++) {
        x.st = &script->stmts[i];
        rc = run_plain(&x, false, err);
    }
    return rc;
}

pier_status pier__exec_in_write(pier_engine *e, const char *sql,
                                bool *catalog_changed, pier_error *err)
{
    pier__sql_script script;
    pier_status rc = pier__sql_parse(&script, sql, strlen(sql), err);
    if (rc == PIER_OK)
        rc = pier__exec_parsed_in_write(e, &script, sql, catalog_changed,
                                        err);
    else
        where(rc, err);
    pier__sql_script_free(&script);
    return rc;
}

pier_status pier__exec_call(pier_cursor **out, void **changeset,
                            size_t *changeset_len, pier_engine *engine,
                            const char *sql, const pier_params *params,
                            pier_error *err)
{
    if (out != NULL)
        *out = NULL;
    if (engine == NULL || sql == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_exec needs an engine and SQL");
    if (pier__engine_embedded(engine, "the SQL dialect (pier_exec)", err) !=
        PIER_OK)
        return PIER_E_TOPOLOGY_UNSUPPORTED;
    pier__sql_script script;
    pier_status rc = pier__sql_parse(&script, sql, strlen(sql), err);
    if (rc != PIER_OK) {
        pier__sql_script_free(&script);
        return where(rc, err);
    }
    exec_ctx x = { .e = engine, .sql = script.text, .written = sql,
                   .params = params };
    pier__guard_init(&x.guard, engine, NULL, "script");
    /* A read-only engine reads in a snapshot; the lake refuses any
     * statement that would write (sqlite_exec.c). */
    rc = pier__engine_begin(engine, !engine->opts.readonly, err);
    if (rc != PIER_OK) {
        pier__sql_script_free(&script);
        return rc;
    }
    ops(&x)->stmt_guard(engine->lake, &x.guard);
    rc = pier__schema_drift(engine, err);
    pier__history h = { .n = 0 };
    bool recording = false;
    if (rc == PIER_OK) {
        rc = pier__history_begin(&h, engine, changeset != NULL, err);
        recording = rc == PIER_OK;
    }
    if (rc == PIER_OK)
        rc = run_script(&x, &script, err);
    where(rc, err);
    /* Commit triggers run last, inside the transaction: one that fails
     * fails the call. */
    void *cs = NULL;
    size_t cs_len = 0;
    if (rc == PIER_OK)
        rc = pier__history_commit(&h, changeset != NULL ? &cs : NULL,
                                  &cs_len, err);
    if (recording)
        pier__history_end(&h);
    /* The result is made before the commit, so that a call that fails
     * (out of memory) has changed nothing. */
    if (rc == PIER_OK && x.rows == NULL && (x.rows = pier__memrows_new(0)) ==
                                              NULL)
        rc = pier__oom(err);
    pier_cursor *c = NULL;
    if (rc == PIER_OK && out != NULL) {
        rc = pier__cursor_of_memrows(&c, engine, x.rows, err);
        x.rows = NULL;                 /* the cursor has them, or freed them */
    }
    if (rc != PIER_OK && x.catalog_changed)
        engine->catalog.version = -1;  /* the cache took rolled-back DDL */
    ops(&x)->stmt_guard(engine->lake, NULL);
    rc = pier__engine_end(engine, rc, err);
    pier__sql_script_free(&script);
    pier__memrows_free(x.rows);
    if (rc != PIER_OK) {
        pier_cursor_close(c);
        free(cs);
        return rc;
    }
    if (out != NULL)
        *out = c;
    if (changeset != NULL) {
        *changeset = cs;
        *changeset_len = cs_len;
    }
    return PIER_OK;
}

PIER_API pier_status pier_exec(pier_cursor **out, pier_engine *engine,
                               const char *sql, const pier_params *params,
                               pier_error *err)
{
    pier__error_clear(err);
    return pier__exec_call(out, NULL, NULL, engine, sql, params, err);
}
