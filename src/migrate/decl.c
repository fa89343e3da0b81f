/*
 * decl.c: a declaration read into the migrations' model (schema.h), with
 * every check that needs neither the live catalog nor SQLite.
 *
 * The front-end (pier__sql_parse_declaration) has read the statements and
 * their clauses; this file gives them meaning: canonical type spellings,
 * keys and foreign keys as column indexes, values classified, and every
 * declaration that cannot mean anything refused with InvalidSchema at the
 * byte that says so.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "migrate/schema.h"
#include "types/spelling.h"
#include "types/sqlcol.h"

typedef struct reader {
    pier__schema *s;
    pier_error *err;
    size_t tables_cap, views_cap, indexes_cap, boards_cap;
} reader;

static pier_status fail(reader *r, size_t offset, const char *fmt, ...)
    PIER__PRINTF(3, 4);

static pier_status fail(reader *r, size_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pier__failv(r->err, PIER_E_INVALID_SCHEMA, fmt, ap);
    va_end(ap);
    if (r->err != NULL)
        r->err->offset = (int64_t)offset;
    return PIER_E_INVALID_SCHEMA;
}

static pier_status oom(reader *r)
{
    return pier__oom(r->err);
}

static char *copy(reader *r, const char *s)
{
    return s != NULL ? pier__arena_strndup(&r->s->arena, s, strlen(s))
                     : NULL;
}

/* Room for n items of `size` bytes in the arena, zeroed. */
static void *zalloc(reader *r, size_t n, size_t size)
{
    if (n == 0)
        return NULL;
    if (n > SIZE_MAX / size)
        return NULL;
    void *m = pier__arena_alloc(&r->s->arena, n * size);
    if (m != NULL)
        memset(m, 0, n * size);
    return m;
}

static bool same(const char *a, const char *b)
{
    return pier__name_eq(a, strlen(a), b, strlen(b));
}

/* ---- names ---- */

/* A table, view or index name: valid and not reserved. */
static pier_status object_name(reader *r, const char *name, size_t offset,
                               const char *what)
{
    const char *why = pier__object_name_why(name);
    const char *prefix = why == NULL ? pier__object_name_reserved(name)
                                     : NULL;
    if (why == NULL && prefix == NULL)
        return PIER_OK;
    pier__buf q;
    pier__buf_init(&q);
    pier__quote_name(&q, name, strlen(name));
    pier_status rc =
        why != NULL
            ? fail(r, offset, "invalid %s name '%s': %s", what,
                   q.p != NULL ? q.p : "", why)
            : fail(r, offset, "the %s name '%s' is reserved: names "
                   "starting with %s belong to the engine", what,
                   q.p != NULL ? q.p : "", prefix);
    pier__buf_free(&q);
    return rc;
}

/* What already has this name among tables, views and indexes ("table",
 * "view", "index"), or NULL; *spelled: its name as declared. */
static const char *taken(const pier__schema *s, const char *name,
                         const char **spelled)
{
    const pier__mtable *t = pier__schema_table(s, name);
    const pier__mview *v = pier__schema_view(s, name);
    const pier__mindex *x = pier__schema_index(s, name);
    *spelled = t != NULL ? t->name : v != NULL ? v->name
             : x != NULL ? x->name : NULL;
    return t != NULL ? "table" : v != NULL ? "view"
         : x != NULL ? "index" : NULL;
}

static pier_status fresh_name(reader *r, const char *name, size_t offset,
                              const char *what)
{
    pier_status rc = object_name(r, name, offset, what);
    if (rc != PIER_OK)
        return rc;
    const char *spelled;
    const char *other = taken(r->s, name, &spelled);
    if (other != NULL)
        return fail(r, offset, "the declaration names %s '%s' and %s '%s': "
                    "tables, views and indexes need names of their own",
                    other, spelled, what, name);
    const pier__mboard *b = pier__schema_board(r->s, name);
    if (strcmp(what, "index") != 0 && b != NULL)
        return fail(r, offset, "the declaration names board '%s' and %s "
                    "'%s': a board and a %s of one name cannot be told "
                    "apart", b->id, what, name, what);
    return PIER_OK;
}

/* A column name of table or view `owner`: valid, not reserved. */
static pier_status column_name(reader *r, const char *name, size_t offset,
                               const char *owner)
{
    pier_error e;
    if (pier__column_name_check(name, strlen(name), owner, &e) == PIER_OK)
        return PIER_OK;
    return fail(r, offset, "%s", e.message);
}

/* ---- types and values ---- */

/* Parses the spelling `type` (at `offset`) of column `name` into its
 * canonical spelling and type, labels copied into the arena. */
static pier_status column_type(reader *r, const char *name, const char *type,
                               size_t offset, char **spelling,
                               pier__coltype *out)
{
    if (type[0] == '\0')
        return fail(r, offset, "column '%s' declares no type: every column "
                    "of a declaration has one (ANY keeps any value)", name);
    pier__sqltype t;
    pier__buf labels, canon;
    pier__buf_init(&labels);
    pier__buf_init(&canon);
    pier__sqltype_error why;
    const char *refused = pier__sqltype_parse(type, strlen(type), &t,
                                              &labels, &why);
    pier_status rc = PIER_OK;
    if (labels.oom) {
        rc = oom(r);
    } else if (refused != NULL) {
        rc = fail(r, offset, "column '%s': %s", name, why.message);
    } else {
        pier__sqltype_write(&canon, &t, labels.p);
        *spelling = canon.oom ? NULL : copy(r, canon.p);
        out->t = t;
        out->labels = NULL;
        if (*spelling == NULL) {
            rc = oom(r);
        } else if (t.base == PIER__B_ENUM) {
            char *l = pier__arena_alloc(&r->s->arena, labels.len + 1);
            if (l == NULL) {
                rc = oom(r);
            } else {
                memcpy(l, labels.p, labels.len);
                l[labels.len] = '\0';
                out->labels = l;
            }
        }
    }
    pier__buf_free(&labels);
    pier__buf_free(&canon);
    return rc;
}

static bool temporal(const pier__coltype *c)
{
    return c->t.dims == 0 &&
           (c->t.base == PIER__B_INSTANT || c->t.base == PIER__B_DATE ||
            c->t.base == PIER__B_TIME || c->t.base == PIER__B_DATETIME);
}

/* Whether the literal `sql` is NULL, in any case. */
static bool is_null(const char *sql)
{
    return pier__name_eq(sql, strlen(sql), "null", 4);
}

/* Whether c holds numbers as their digits: UINT64, INT128, DECIMAL. */
static bool digits_type(const pier__coltype *c)
{
    return c->t.dims == 0 &&
           (c->t.base == PIER__B_UINT64 || c->t.base == PIER__B_INT128 ||
            c->t.base == PIER__B_DECIMAL);
}

/* Whether s[0..n) is an optional sign, digits, and an optional fraction;
 * *significant: how many digits count (leading zeros do not). */
static bool plain_number(const char *s, size_t n, size_t *significant,
                         bool *fraction)
{
    size_t i = 0, digits = 0;
    *significant = 0;
    *fraction = false;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        i++;
    bool leading = true;
    for (; i < n; i++) {
        if (s[i] == '.' && !*fraction) {
            *fraction = true;
            continue;
        }
        if (s[i] < '0' || s[i] > '9')
            return false;
        digits++;
        if (s[i] != '0')
            leading = false;
        if (!leading)
            (*significant)++;
    }
    return digits > 0;
}

/* (schema.h) */
bool pier__mvalue_wide_number(const pier__coltype *c, const char *sql)
{
    size_t significant;
    bool fraction;
    if (sql == NULL || !digits_type(c) ||
        !plain_number(sql, strlen(sql), &significant, &fraction))
        return false;
    if (fraction)
        return significant > 15;
    errno = 0;
    char *end = NULL;
    (void)strtoll(sql, &end, 10);
    return errno == ERANGE;
}

/*
 * Why the literal `sql` is not a value of column c's type, or NULL: a
 * string literal for a type SQLite stores as text, an integer for one it
 * stores as an integer, checked as the column's value check checks what
 * is stored (other literals are left to SQLite and the check, which see
 * them when a row takes them).
 */
static const char *literal_misfit(reader *r, const pier__mcolumn *c,
                                  const char *sql)
{
    const char *storage = pier__coltype_storage(&c->type);
    pier__cell cell = { 0 };
    if (sql[0] == '\'' && strcmp(storage, "TEXT") == 0) {
        size_t n = strlen(sql);
        char *text = pier__arena_alloc(&r->s->arena, n + 1);
        if (text == NULL)
            return NULL;
        size_t o = 0;
        for (size_t i = 1; i + 1 < n; i++) {
            text[o++] = sql[i];
            if (sql[i] == '\'' && sql[i + 1] == '\'')
                i++;
        }
        text[o] = '\0';
        cell = (pier__cell){ .st = PIER__ST_TEXT, .p = text, .n = o };
    } else if (strcmp(storage, "INTEGER") == 0 &&
               (sql[0] == '-' || sql[0] == '+' ||
                (sql[0] >= '0' && sql[0] <= '9')) &&
               strspn(sql + 1, "0123456789") == strlen(sql + 1)) {
        errno = 0;
        char *end = NULL;
        long long v = strtoll(sql, &end, 10);
        if (errno == ERANGE)
            return "out of range: beyond 64 bits";
        if (errno != 0 || end == NULL || *end != '\0')
            return NULL;
        cell = (pier__cell){ .st = PIER__ST_INT, .i = v };
    } else if (digits_type(&c->type) &&
               plain_number(sql, strlen(sql), &(size_t){ 0 },
                            &(bool){ false })) {
        /* its digits, exactly, as the column stores them */
        const char *digits = sql[0] == '+' ? sql + 1 : sql;
        cell = (pier__cell){ .st = PIER__ST_TEXT, .p = digits,
                             .n = strlen(digits) };
    } else {
        return NULL;
    }
    return pier__coltype_fit(&c->type, &cell);
}

/* DEFAULT or BACKFILL `v` of column `c` into *out: a literal or now(). */
static pier_status column_value(reader *r, const pier__mcolumn *c,
                                const pier__sql_value *v, const char *what,
                                pier__mvalue *out)
{
    if (v->text == NULL)
        return PIER_OK;
    if (v->now) {
        if (!temporal(&c->type))
            return fail(r, v->offset, "%s now() of column '%s': now() "
                        "gives an instant, for INSTANT, DATE, TIME and "
                        "DATETIME columns, not %s", what, c->name,
                        c->spelling);
        out->now = true;
        return PIER_OK;
    }
    if (v->text[0] == '(')
        return fail(r, v->offset, "%s of column '%s' is an expression: a "
                    "%s is a literal ('text', 12, -1.5, x'00', TRUE, "
                    "NULL) or now()", what, c->name, what);
    const char *text = v->text;
    size_t n = strlen(text);
    if (n > 2 && text[0] == '\'' && text[n - 1] == '\'') {
        /* a wide number as SQL is written for a digits column: the
         * number (pier__mvalue_wide_number) */
        char *inner = pier__arena_strndup(&r->s->arena, text + 1, n - 2);
        if (inner == NULL)
            return oom(r);
        if (pier__mvalue_wide_number(&c->type, inner))
            text = inner;
    }
    const char *why = literal_misfit(r, c, text);
    if (why != NULL)
        return fail(r, v->offset, "%s %s of column '%s' is not a value of "
                    "%s: %s", what, v->text, c->name, c->spelling, why);
    out->sql = copy(r, text);
    return out->sql != NULL ? PIER_OK : oom(r);
}

/* ---- tables ---- */

static pier_status table_columns(reader *r, const pier__sql_table *st,
                                 pier__mtable *t)
{
    t->ncolumns = st->ncolumns;
    t->columns = zalloc(r, st->ncolumns, sizeof *t->columns);
    if (t->columns == NULL)
        return oom(r);
    for (size_t i = 0; i < st->ncolumns; i++) {
        const pier__sql_column *sc = &st->columns[i];
        pier__mcolumn *c = &t->columns[i];
        pier_status rc = column_name(r, sc->name, sc->name_offset, t->name);
        if (rc != PIER_OK)
            return rc;
        for (size_t j = 0; j < i; j++)
            if (same(t->columns[j].name, sc->name))
                return fail(r, sc->name_offset, "table '%s' names column "
                            "'%s' twice", t->name, sc->name);
        c->name = copy(r, sc->name);
        c->offset = sc->name_offset;
        if (c->name == NULL)
            return oom(r);
        rc = column_type(r, sc->name, sc->type, sc->type_offset,
                         &c->spelling, &c->type);
        if (rc != PIER_OK)
            return rc;
        if (sc->renamed_from != NULL) {
            if (same(sc->renamed_from, sc->name))
                return fail(r, sc->renamed_from_offset, "column '%s' is "
                            "RENAMED FROM its own name", sc->name);
            for (size_t j = 0; j < i; j++)
                if (t->columns[j].renamed_from != NULL &&
                    same(t->columns[j].renamed_from, sc->renamed_from))
                    return fail(r, sc->renamed_from_offset, "columns '%s' "
                                "and '%s' are both RENAMED FROM '%s'",
                                t->columns[j].name, sc->name,
                                sc->renamed_from);
            if ((c->renamed_from = copy(r, sc->renamed_from)) == NULL)
                return oom(r);
        }
        c->not_null = sc->not_null || sc->primary_key;
        c->readonly = sc->readonly;
        c->autoincrement = sc->autoincrement;
        rc = column_value(r, c, &sc->dflt, "DEFAULT", &c->dflt);
        if (rc == PIER_OK)
            rc = column_value(r, c, &sc->backfill, "BACKFILL", &c->backfill);
        if (rc != PIER_OK)
            return rc;
        if (c->backfill.sql != NULL || c->backfill.now) {
            if (!c->not_null)
                return fail(r, sc->backfill.offset, "column '%s' is "
                            "nullable: rows stored before it existed read "
                            "NULL, so a BACKFILL has nothing to do (declare "
                            "it NOT NULL, or drop the BACKFILL)", c->name);
            if (c->backfill.sql != NULL && is_null(c->backfill.sql))
                return fail(r, sc->backfill.offset, "column '%s' is NOT "
                            "NULL: its BACKFILL cannot be NULL", c->name);
        }
        if (c->not_null && c->dflt.sql != NULL && is_null(c->dflt.sql))
            return fail(r, sc->dflt.offset, "column '%s' is NOT NULL: its "
                        "DEFAULT cannot be NULL", c->name);
    }
    return PIER_OK;
}

/* The index of column `name` of t, or a failure at `offset`. */
static pier_status find_column(reader *r, const pier__mtable *t,
                               const char *name, size_t offset, size_t *out)
{
    ptrdiff_t k = pier__mtable_column(t, name);
    if (k < 0)
        return fail(r, offset, "table '%s' has no column '%s'", t->name,
                    name);
    *out = (size_t)k;
    return PIER_OK;
}

static bool integer_key_type(const pier__coltype *c)
{
    if (c->t.dims != 0)
        return false;
    switch (c->t.base) {
    case PIER__B_INT8: case PIER__B_INT16: case PIER__B_INT32:
    case PIER__B_INT64: case PIER__B_UINT8: case PIER__B_UINT16:
    case PIER__B_UINT32:
        return true;
    default:
        return false;
    }
}

static pier_status table_keys(reader *r, const pier__sql_table *st,
                              pier__mtable *t)
{
    t->nkeys = st->nkeys;
    t->keys = zalloc(r, st->nkeys, sizeof *t->keys);
    if (st->nkeys > 0 && t->keys == NULL)
        return oom(r);
    const pier__mkey *primary = NULL;
    for (size_t i = 0; i < st->nkeys; i++) {
        const pier__sql_key *sk = &st->keys[i];
        pier__mkey *k = &t->keys[i];
        if (sk->primary && primary != NULL)
            return fail(r, sk->offset, "table '%s' declares two primary "
                        "keys", t->name);
        k->primary = sk->primary;
        k->name = copy(r, sk->name);
        k->ncolumns = sk->ncolumns;
        k->columns = zalloc(r, sk->ncolumns, sizeof *k->columns);
        if ((sk->name != NULL && k->name == NULL) || k->columns == NULL)
            return oom(r);
        for (size_t j = 0; j < sk->ncolumns; j++) {
            pier_status rc = find_column(r, t, sk->columns[j], sk->offset,
                                         &k->columns[j]);
            if (rc != PIER_OK)
                return rc;
            for (size_t m = 0; m < j; m++)
                if (k->columns[m] == k->columns[j])
                    return fail(r, sk->offset, "a key of table '%s' names "
                                "column '%s' twice", t->name,
                                sk->columns[j]);
            if (sk->primary)
                t->columns[k->columns[j]].not_null = true;
        }
        if (sk->primary)
            primary = k;
    }
    for (size_t i = 0; i < t->ncolumns; i++) {
        const pier__mcolumn *c = &t->columns[i];
        if (!c->autoincrement)
            continue;
        if (primary == NULL || primary->ncolumns != 1 ||
            primary->columns[0] != i || !integer_key_type(&c->type))
            return fail(r, c->offset, "column '%s' cannot be AUTOINCREMENT: "
                        "the counter takes the table's integer primary key "
                        "alone (%s PRIMARY KEY AUTOINCREMENT)", c->name,
                        integer_key_type(&c->type) ? c->spelling : "INT64");
        if (c->dflt.sql != NULL || c->dflt.now || c->backfill.sql != NULL ||
            c->backfill.now)
            return fail(r, c->offset, "column '%s' is AUTOINCREMENT: the "
                        "counter fills it, so it takes no DEFAULT or "
                        "BACKFILL", c->name);
    }
    return PIER_OK;
}

static pier_status table_checks(reader *r, const pier__sql_table *st,
                                pier__mtable *t)
{
    t->nchecks = st->nchecks;
    t->checks = zalloc(r, st->nchecks, sizeof *t->checks);
    if (st->nchecks > 0 && t->checks == NULL)
        return oom(r);
    for (size_t i = 0; i < st->nchecks; i++) {
        const pier__sql_check *sc = &st->checks[i];
        if (sc->name != NULL)
            for (size_t j = 0; j < i; j++)
                if (t->checks[j].name != NULL &&
                    same(t->checks[j].name, sc->name))
                    return fail(r, sc->offset, "table '%s' names check "
                                "'%s' twice", t->name, sc->name);
        t->checks[i].name = copy(r, sc->name);
        t->checks[i].expr = copy(r, sc->expr);
        if ((sc->name != NULL && t->checks[i].name == NULL) ||
            t->checks[i].expr == NULL)
            return oom(r);
    }
    return PIER_OK;
}

static pier_status table_fks(reader *r, const pier__sql_table *st,
                             pier__mtable *t)
{
    t->nfks = st->nfks;
    t->fks = zalloc(r, st->nfks, sizeof *t->fks);
    if (st->nfks > 0 && t->fks == NULL)
        return oom(r);
    for (size_t i = 0; i < st->nfks; i++) {
        const pier__sql_fk *sf = &st->fks[i];
        pier__mfk *f = &t->fks[i];
        pier_status rc = find_column(r, t, sf->column, sf->offset,
                                     &f->column);
        if (rc != PIER_OK)
            return rc;
        for (size_t j = 0; j < i; j++)
            if (t->fks[j].column == f->column)
                return fail(r, sf->offset, "column '%s' of table '%s' "
                            "references two parents", sf->column, t->name);
        const pier__mcolumn *c = &t->columns[f->column];
        if (sf->on_delete == PIER__FK_SET_NULL && c->not_null)
            return fail(r, sf->offset, "column '%s' is NOT NULL: ON DELETE "
                        "SET NULL needs a nullable column", c->name);
        f->name = copy(r, sf->name);
        f->table = copy(r, sf->table);
        f->parent = copy(r, sf->parent);
        f->offset = sf->offset;
        f->on_delete = sf->on_delete;
        if ((sf->name != NULL && f->name == NULL) || f->table == NULL ||
            (sf->parent != NULL && f->parent == NULL))
            return oom(r);
    }
    return PIER_OK;
}

static pier_status read_table(reader *r, const pier__sql_stmt *st)
{
    pier_status rc = fresh_name(r, st->name, st->name_offset, "table");
    if (rc != PIER_OK)
        return rc;
    pier__schema *s = r->s;
    s->tables = pier__arena_grow(&s->arena, s->tables, s->ntables,
                                 &r->tables_cap, sizeof *s->tables);
    if (s->tables == NULL)
        return oom(r);
    pier__mtable *t = &s->tables[s->ntables];
    memset(t, 0, sizeof *t);
    t->name = copy(r, st->name);
    t->offset = st->name_offset;
    t->rows = -1;
    if (t->name == NULL)
        return oom(r);
    const pier__sql_table *body = st->create;
    if (body->renamed_from != NULL) {
        if (same(body->renamed_from, st->name))
            return fail(r, body->renamed_from_offset, "table '%s' is "
                        "RENAMED FROM its own name", st->name);
        for (size_t i = 0; i < s->ntables; i++)
            if (s->tables[i].renamed_from != NULL &&
                same(s->tables[i].renamed_from, body->renamed_from))
                return fail(r, body->renamed_from_offset, "tables '%s' and "
                            "'%s' are both RENAMED FROM '%s'",
                            s->tables[i].name, st->name,
                            body->renamed_from);
        if ((t->renamed_from = copy(r, body->renamed_from)) == NULL)
            return oom(r);
    }
    rc = table_columns(r, body, t);
    if (rc == PIER_OK)
        rc = table_keys(r, body, t);
    if (rc == PIER_OK)
        rc = table_checks(r, body, t);
    if (rc == PIER_OK)
        rc = table_fks(r, body, t);
    if (rc != PIER_OK)
        return rc;
    if (body->without_rowid)
        return fail(r, st->name_offset, "table '%s': WITHOUT ROWID has no "
                    "place in a declaration", st->name);
    s->ntables++;
    return PIER_OK;
}

/* ---- views, indexes, boards ---- */

static pier_status read_view(reader *r, const pier__sql_stmt *st)
{
    pier_status rc = fresh_name(r, st->name, st->name_offset, "view");
    if (rc != PIER_OK)
        return rc;
    pier__schema *s = r->s;
    s->views = pier__arena_grow(&s->arena, s->views, s->nviews,
                                &r->views_cap, sizeof *s->views);
    if (s->views == NULL)
        return oom(r);
    pier__mview *v = &s->views[s->nviews];
    memset(v, 0, sizeof *v);
    v->name = copy(r, st->name);
    v->offset = st->name_offset;
    v->body = copy(r, st->body);
    v->ncolumns = st->nview_columns;
    v->columns = zalloc(r, st->nview_columns, sizeof *v->columns);
    if (v->name == NULL || v->body == NULL || v->columns == NULL)
        return oom(r);
    for (size_t i = 0; i < st->nview_columns; i++) {
        const pier__sql_column *sc = &st->view_columns[i];
        rc = column_name(r, sc->name, sc->name_offset, st->name);
        if (rc != PIER_OK)
            return rc;
        for (size_t j = 0; j < i; j++)
            if (same(v->columns[j].name, sc->name))
                return fail(r, sc->name_offset, "view '%s' names column "
                            "'%s' twice", st->name, sc->name);
        if ((v->columns[i].name = copy(r, sc->name)) == NULL)
            return oom(r);
        rc = column_type(r, sc->name, sc->type, sc->type_offset,
                         &v->columns[i].spelling, &v->columns[i].type);
        if (rc != PIER_OK)
            return rc;
    }
    s->nviews++;
    return PIER_OK;
}

static pier_status read_index(reader *r, const pier__sql_stmt *st)
{
    pier_status rc = fresh_name(r, st->name, st->name_offset, "index");
    if (rc != PIER_OK)
        return rc;
    pier__schema *s = r->s;
    s->indexes = pier__arena_grow(&s->arena, s->indexes, s->nindexes,
                                  &r->indexes_cap, sizeof *s->indexes);
    if (s->indexes == NULL)
        return oom(r);
    pier__mindex *x = &s->indexes[s->nindexes];
    memset(x, 0, sizeof *x);
    x->name = copy(r, st->name);
    x->offset = st->name_offset;
    x->unique = st->unique;
    x->table = copy(r, st->table);
    x->body = copy(r, st->body);
    if (x->name == NULL || x->table == NULL || x->body == NULL)
        return oom(r);
    s->nindexes++;
    return PIER_OK;
}

static pier_status read_board(reader *r, const pier__sql_stmt *st)
{
    pier_error e;
    if (pier__board_id_check(st->name, &e) != PIER_OK)
        return fail(r, st->name_offset, "%s", e.message);
    pier__schema *s = r->s;
    if (pier__schema_board(s, st->name) != NULL)
        return fail(r, st->name_offset, "the declaration names board '%s' "
                    "twice", st->name);
    const char *spelled;
    const char *other = taken(s, st->name, &spelled);
    if (other != NULL && strcmp(other, "index") != 0)
        return fail(r, st->name_offset, "the declaration names %s '%s' and "
                    "board '%s': a board and a %s of one name cannot be "
                    "told apart", other, spelled, st->name, other);
    s->boards = pier__arena_grow(&s->arena, s->boards, s->nboards,
                                 &r->boards_cap, sizeof *s->boards);
    if (s->boards == NULL)
        return oom(r);
    pier__mboard *b = &s->boards[s->nboards];
    memset(b, 0, sizeof *b);
    b->id = copy(r, st->name);
    b->offset = st->name_offset;
    b->strict = st->create->strict;
    b->rows = -1;
    const pier__sql_table *body = st->create;
    b->columns = zalloc(r, body->ncolumns, sizeof *b->columns);
    if (b->id == NULL || (body->ncolumns > 0 && b->columns == NULL))
        return oom(r);
    s->nboards++;                      /* its types are freed from here */
    for (size_t i = 0; i < body->ncolumns; i++) {
        const pier__sql_column *sc = &body->columns[i];
        if (pier__base_column_index(sc->name, strlen(sc->name)) >= 0)
            return fail(r, sc->name_offset, "column '%s' of board '%s' is "
                        "a base column: every board has it", sc->name,
                        st->name);
        pier_status rc = column_name(r, sc->name, sc->name_offset,
                                     st->name);
        if (rc != PIER_OK)
            return rc;
        for (size_t j = 0; j < b->ncolumns; j++)
            if (same(b->columns[j].name, sc->name))
                return fail(r, sc->name_offset, "board '%s' names column "
                            "'%s' twice", st->name, sc->name);
        pier__mbcol *c = &b->columns[b->ncolumns];
        if ((c->name = copy(r, sc->name)) == NULL)
            return oom(r);
        c->offset = sc->name_offset;
        if (sc->type[0] == '\0')
            return fail(r, sc->type_offset, "column '%s' of board '%s' "
                        "declares no type", sc->name, st->name);
        char why[PIER__TYPE_WHY];
        rc = pier__type_parse(&c->type, sc->type, why);
        if (rc == PIER_E_OUT_OF_MEMORY)
            return oom(r);
        if (rc != PIER_OK)
            return fail(r, sc->type_offset, "column '%s' of board '%s': %s",
                        sc->name, st->name, why);
        b->ncolumns++;
    }
    return PIER_OK;
}

/* ---- the whole ---- */

void pier__schema_init(pier__schema *s)
{
    memset(s, 0, sizeof *s);
    pier__arena_init(&s->arena);
}

void pier__schema_free(pier__schema *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->nboards; i++)
        for (size_t j = 0; j < s->boards[i].ncolumns; j++)
            pier__type_free(&s->boards[i].columns[j].type);
    pier__arena_free(&s->arena);
    pier__schema_init(s);
}

pier_status pier__schema_from_declaration(pier__schema *out,
                                          const char *text, size_t len,
                                          pier_error *err)
{
    pier__schema_init(out);
    pier__sql_script script;
    pier_status rc = pier__sql_parse_declaration(&script, text, len, err);
    reader r = { out, err, 0, 0, 0, 0 };
    for (size_t i = 0; rc == PIER_OK && i < script.nstmts; i++) {
        const pier__sql_stmt *st = &script.stmts[i];
        switch (st->kind) {
        case PIER__STMT_CREATE_TABLE: rc = read_table(&r, st); break;
        case PIER__STMT_CREATE_VIEW: rc = read_view(&r, st); break;
        case PIER__STMT_CREATE_INDEX: rc = read_index(&r, st); break;
        case PIER__STMT_CREATE_BOARD: rc = read_board(&r, st); break;
        default:
            rc = fail(&r, st->offset, "a declaration holds CREATE TABLE, "
                      "VIEW, BOARD and INDEX statements");
            break;
        }
    }
    pier__sql_script_free(&script);
    if (rc != PIER_OK)
        pier__schema_free(out);
    return rc;
}

/* ---- lookups ---- */

const pier__mtable *pier__schema_table(const pier__schema *s,
                                       const char *name)
{
    for (size_t i = 0; i < s->ntables; i++)
        if (same(s->tables[i].name, name))
            return &s->tables[i];
    return NULL;
}

const pier__mview *pier__schema_view(const pier__schema *s,
                                     const char *name)
{
    for (size_t i = 0; i < s->nviews; i++)
        if (same(s->views[i].name, name))
            return &s->views[i];
    return NULL;
}

const pier__mindex *pier__schema_index(const pier__schema *s,
                                       const char *name)
{
    for (size_t i = 0; i < s->nindexes; i++)
        if (same(s->indexes[i].name, name))
            return &s->indexes[i];
    return NULL;
}

const pier__mboard *pier__schema_board(const pier__schema *s,
                                       const char *id)
{
    for (size_t i = 0; i < s->nboards; i++)
        if (strcmp(s->boards[i].id, id) == 0)
            return &s->boards[i];
    return NULL;
}

const pier__mopaque *pier__schema_opaque(const pier__schema *s,
                                         const char *name)
{
    for (size_t i = 0; i < s->nopaque; i++)
        if (same(s->opaque[i].name, name))
            return &s->opaque[i];
    return NULL;
}

ptrdiff_t pier__mtable_column(const pier__mtable *t, const char *name)
{
    for (size_t i = 0; i < t->ncolumns; i++)
        if (same(t->columns[i].name, name))
            return (ptrdiff_t)i;
    return -1;
}
