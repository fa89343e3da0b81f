/*
 * plan.c: the migration planner (plan.h). Pure: two models in, steps out.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate/plan.h"
#include "sql/lex.h"
#include "types/spelling.h"

/* How a declared table relates to the live catalog. */
typedef struct tmatch {
    const pier__mtable *want;
    const pier__mtable *live;    /* NULL: created */
    bool renamed;
    ptrdiff_t *cols;             /* per declared column: the live column's
                                    index, or -1 (added) */
} tmatch;

typedef struct planner {
    pier__plan *p;
    const pier__schema *live, *want;
    const pier__plan_options *opt;
    pier_error *err;
    size_t steps_cap, refusals_cap, destroys_cap;
    tmatch *tables;              /* one per declared table */
    bool oom;
} planner;

static bool same(const char *a, const char *b)
{
    return pier__name_eq(a, strlen(a), b, strlen(b));
}

/* ---- collecting ---- */

static pier__step *add_step(planner *pl, pier__step_kind kind,
                            pier__object_kind on, const char *object)
{
    pier__plan *p = pl->p;
    p->steps = pier__arena_grow(&p->arena, p->steps, p->nsteps,
                                &pl->steps_cap, sizeof *p->steps);
    if (p->steps == NULL) {
        pl->oom = true;
        return NULL;
    }
    pier__step *s = &p->steps[p->nsteps++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->on = on;
    s->object = object;
    s->rows = -1;
    return s;
}

static void add_text(planner *pl, char ***list, size_t *n, size_t *cap,
                     const char *fmt, va_list ap) PIER__PRINTF(5, 0);

static void add_text(planner *pl, char ***list, size_t *n, size_t *cap,
                     const char *fmt, va_list ap)
{
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_vprintf(&b, fmt, ap);
    char *s = b.oom ? NULL
                    : pier__arena_strndup(&pl->p->arena, b.p, b.len);
    pier__buf_free(&b);
    *list = s == NULL ? NULL
                      : pier__arena_grow(&pl->p->arena, *list, *n, cap,
                                         sizeof **list);
    if (s == NULL || *list == NULL) {
        pl->oom = true;
        return;
    }
    (*list)[(*n)++] = s;
}

static void refuse(planner *pl, const char *fmt, ...) PIER__PRINTF(2, 3);

/* A change that cannot be a step. */
static void refuse(planner *pl, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_text(pl, &pl->p->refusals, &pl->p->nrefusals, &pl->refusals_cap,
             fmt, ap);
    va_end(ap);
}

static void destroys(planner *pl, const char *fmt, ...) PIER__PRINTF(2, 3);

static void destroys(planner *pl, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_text(pl, &pl->p->destroys, &pl->p->ndestroys, &pl->destroys_cap,
             fmt, ap);
    va_end(ap);
}

static pier_status invalid(planner *pl, size_t offset, const char *fmt, ...)
    PIER__PRINTF(3, 4);

static pier_status invalid(planner *pl, size_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pier__failv(pl->err, PIER_E_INVALID_SCHEMA, fmt, ap);
    va_end(ap);
    if (pl->err != NULL)
        pl->err->offset = (int64_t)offset;
    return PIER_E_INVALID_SCHEMA;
}

/* ---- comparing SQL text ---- */

/* A column renamed (its old name to its new), for comparing text written
 * before the rename with text written after. */
typedef struct name_map {
    const char *from, *to;
} name_map;

/* Token t of `s` as a name (quotes off, quotes inside undoubled) into
 * buf; false if it is not a name or too long. */
static bool token_name(const char *s, const pier__token *t, char *buf,
                       size_t cap)
{
    size_t n = t->end - t->start;
    const char *p = s + t->start;
    size_t o = 0;
    if (t->kind == PIER__TK_WORD) {
        if (n >= cap)
            return false;
        memcpy(buf, p, n);
        buf[n] = '\0';
        return true;
    }
    if (t->kind != PIER__TK_QUOTED || n < 2)
        return false;
    char close = p[0] == '[' ? ']' : p[0];
    for (size_t k = 1; k + 1 < n; k++) {
        if (o + 1 >= cap)
            return false;
        buf[o++] = p[k];
        if (p[0] != '[' && p[k] == close)
            k++;
    }
    buf[o] = '\0';
    return true;
}

/* A name through the renames (old name to new). */
static const char *renamed(const char *name, const name_map *r, size_t nr)
{
    for (size_t i = 0; i < nr; i++)
        if (same(r[i].from, name))
            return r[i].to;
    return name;
}

/*
 * Whether two texts of SQL say the same: the same tokens, names compared
 * without regard to quotes or ASCII case (`a`, "A" and [a] are one name),
 * with the names of `a` read through the renames; everything else byte
 * for byte. White space and comments do not count.
 */
static bool same_sql(const char *a, const char *b, const name_map *r,
                     size_t nr)
{
    size_t na = strlen(a), nb = strlen(b), pa = 0, pb = 0;
    for (;;) {
        pier__token ta, tb;
        const char *why;
        pier__tk ka = pier__sql_token(a, na, pa, &ta, &why);
        pier__tk kb = pier__sql_token(b, nb, pb, &tb, &why);
        if (ka == PIER__TK_END || kb == PIER__TK_END)
            return ka == kb;
        if (ka == PIER__TK_BAD || kb == PIER__TK_BAD)
            return false;
        char xa[256], xb[256];
        bool name_a = token_name(a, &ta, xa, sizeof xa);
        bool name_b = token_name(b, &tb, xb, sizeof xb);
        if (name_a || name_b) {
            if (!(name_a && name_b) || !same(renamed(xa, r, nr), xb))
                return false;
        } else if (ka != kb || ta.end - ta.start != tb.end - tb.start ||
                   memcmp(a + ta.start, b + tb.start,
                          ta.end - ta.start) != 0) {
            return false;
        }
        pa = ta.end;
        pb = tb.end;
    }
}

/* Whether the SQL text `s` names `name` (as a word or a quoted name). */
static bool names(const char *s, const char *name)
{
    size_t n = strlen(s), pos = 0;
    for (;;) {
        pier__token t;
        const char *why;
        pier__tk k = pier__sql_token(s, n, pos, &t, &why);
        if (k == PIER__TK_END || k == PIER__TK_BAD)
            return false;
        char x[256];
        if (token_name(s, &t, x, sizeof x) && same(x, name))
            return true;
        pos = t.end;
    }
}

/* ---- types ---- */

/* The range of an integer type stored as INTEGER; false for the rest. */
static bool int_range(pier__base b, int64_t *lo, int64_t *hi)
{
    switch (b) {
    case PIER__B_INT8: *lo = INT8_MIN; *hi = INT8_MAX; return true;
    case PIER__B_INT16: *lo = INT16_MIN; *hi = INT16_MAX; return true;
    case PIER__B_INT32: *lo = INT32_MIN; *hi = INT32_MAX; return true;
    case PIER__B_INT64: *lo = INT64_MIN; *hi = INT64_MAX; return true;
    case PIER__B_UINT8: *lo = 0; *hi = UINT8_MAX; return true;
    case PIER__B_UINT16: *lo = 0; *hi = UINT16_MAX; return true;
    case PIER__B_UINT32: *lo = 0; *hi = UINT32_MAX; return true;
    default: return false;
    }
}

/* Whether label `l` is one of c's. */
static bool has_label(const pier__coltype *c, const char *l)
{
    const char *p = c->labels;
    for (size_t i = 0; i < c->t.nlabels; i++, p += strlen(p) + 1)
        if (strcmp(p, l) == 0)
            return true;
    return false;
}

/* (plan.h) */
bool pier__coltype_widens(const pier__coltype *from,
                          const pier__coltype *to, bool *enum_step)
{
    const pier__sqltype *f = &from->t, *t = &to->t;
    *enum_step = false;
    if (f->dims != 0 || t->dims != 0)
        return false;
    int64_t flo, fhi, tlo, thi;
    if (int_range(f->base, &flo, &fhi))
        return int_range(t->base, &tlo, &thi) && tlo <= flo && fhi <= thi;
    switch (f->base) {
    case PIER__B_FLOAT32:
        return t->base == PIER__B_DOUBLE;
    case PIER__B_VARCHAR:
        return t->base == PIER__B_TEXT ||
               (t->base == PIER__B_VARCHAR && t->length >= f->length);
    case PIER__B_ENUM:
        *enum_step = true;
        if (t->base == PIER__B_TEXT)
            return true;
        if (t->base != PIER__B_ENUM)
            return false;
        for (const char *l = from->labels; l != NULL && *l != '\0';
             l += strlen(l) + 1)
            if (!has_label(to, l))
                return false;
        return true;
    case PIER__B_DECIMAL:
        if (t->base != PIER__B_DECIMAL)
            return false;
        if (t->precision == 0)
            return true;
        return f->precision != 0 && t->scale >= f->scale &&
               t->precision - t->scale >= f->precision - f->scale;
    default:
        return false;
    }
}

/* ---- matching ---- */

static const pier__mtable *live_table(const planner *pl, const char *name)
{
    return pier__schema_table(pl->live, name);
}

/* The declared table's match, by its declared name. */
static const tmatch *match_of(const planner *pl, const char *name)
{
    for (size_t i = 0; i < pl->want->ntables; i++)
        if (same(pl->tables[i].want->name, name))
            return &pl->tables[i];
    return NULL;
}

/* Whether the live table is what some declared table matched. */
static bool live_matched(const planner *pl, const pier__mtable *live)
{
    for (size_t i = 0; i < pl->want->ntables; i++)
        if (pl->tables[i].live == live)
            return true;
    return false;
}

static pier_status match_tables(planner *pl)
{
    size_t n = pl->want->ntables;
    pl->tables = calloc(n > 0 ? n : 1, sizeof *pl->tables);
    if (pl->tables == NULL)
        return pier__oom(pl->err);
    for (size_t i = 0; i < n; i++) {
        const pier__mtable *w = &pl->want->tables[i];
        tmatch *m = &pl->tables[i];
        m->want = w;
        m->live = live_table(pl, w->name);
        if (m->live == NULL && w->renamed_from != NULL) {
            m->live = live_table(pl, w->renamed_from);
            m->renamed = m->live != NULL;
        }
        if (m->live == NULL && pier__schema_view(pl->live, w->name) != NULL)
            refuse(pl, "table '%s': the lake has a view of that name",
                   w->name);
        const pier__mopaque *o = pier__schema_opaque(pl->live, w->name);
        if (m->live == NULL && o != NULL)
            refuse(pl, "%s '%s' of the lake cannot be stated as a "
                   "declaration (%s): a migration does not change it",
                   o->view ? "view" : "table", o->name, o->why);
        m->cols = pier__arena_alloc(&pl->p->arena,
                                    (w->ncolumns + 1) * sizeof *m->cols);
        if (m->cols == NULL)
            return pier__oom(pl->err);
        for (size_t c = 0; c < w->ncolumns; c++) {
            const pier__mcolumn *wc = &w->columns[c];
            ptrdiff_t k = -1;
            if (m->live != NULL) {
                k = pier__mtable_column(m->live, wc->name);
                if (k < 0 && wc->renamed_from != NULL)
                    k = pier__mtable_column(m->live, wc->renamed_from);
            }
            m->cols[c] = k;
        }
        /* `z RENAMED FROM x, x ...`: the live x becomes z, and the
         * declared x is a new column */
        for (size_t c = 0; m->live != NULL && c < w->ncolumns; c++) {
            const char *from = w->columns[c].renamed_from;
            if (from == NULL || m->cols[c] < 0 ||
                !same(m->live->columns[m->cols[c]].name, from))
                continue;
            for (size_t d = 0; d < w->ncolumns; d++)
                if (d != c && m->cols[d] == m->cols[c])
                    m->cols[d] = -1;
        }
    }
    /* Two declared tables may not take one live table. */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            if (pl->tables[i].live != NULL &&
                pl->tables[i].live == pl->tables[j].live)
                return invalid(pl, pl->tables[i].want->offset,
                               "tables '%s' and '%s' would both be table "
                               "'%s' of the lake", pl->tables[j].want->name,
                               pl->tables[i].want->name,
                               pl->tables[i].live->name);
    return PIER_OK;
}

/* The renames of a matched table's columns (live name to declared), in
 * the plan's arena (NULL when out of memory: pl->oom). */
static size_t column_renames(planner *pl, const tmatch *m, name_map **out)
{
    size_t n = 0;
    *out = m->live == NULL ? NULL
         : pier__arena_alloc(&pl->p->arena,
                             (m->want->ncolumns + 1) * sizeof **out);
    if (m->live != NULL && *out == NULL)
        pl->oom = true;
    for (size_t c = 0; *out != NULL && c < m->want->ncolumns; c++) {
        ptrdiff_t k = m->cols[c];
        if (k >= 0 && !same(m->live->columns[k].name,
                            m->want->columns[c].name))
            (*out)[n++] = (name_map){ m->live->columns[k].name,
                                      m->want->columns[c].name };
    }
    return n;
}

/* ---- references ---- */

/* Whether column `col` of table t is a key of its own (a primary key or
 * UNIQUE of that column alone). */
static bool unique_column(const pier__mtable *t, size_t col)
{
    for (size_t i = 0; i < t->nkeys; i++)
        if (t->keys[i].ncolumns == 1 && t->keys[i].columns[0] == col)
            return true;
    return false;
}

static ptrdiff_t primary_column(const pier__mtable *t)
{
    for (size_t i = 0; i < t->nkeys; i++)
        if (t->keys[i].primary && t->keys[i].ncolumns == 1)
            return (ptrdiff_t)t->keys[i].columns[0];
    return -1;
}

/* Whether the migration drops live table l: the declaration owns the
 * lake, a migration made l, and no declared table stands for it. */
static bool table_dropped(const planner *pl, const pier__mtable *l)
{
    return pl->opt->schema_owns_database && l->managed &&
           !live_matched(pl, l);
}

/* Every foreign key of the declaration names a table that is declared or
 * stays in the lake, and a column of it that is its own key; a table the
 * migration leaves undeclared and in place names none it drops. */
static pier_status check_references(planner *pl)
{
    for (size_t i = 0; i < pl->want->ntables; i++) {
        const pier__mtable *w = &pl->want->tables[i];
        for (size_t f = 0; f < w->nfks; f++) {
            const pier__mfk *fk = &w->fks[f];
            const pier__mtable *parent = pier__schema_table(pl->want,
                                                            fk->table);
            bool dropped = false;
            if (parent == NULL) {
                parent = live_table(pl, fk->table);
                dropped = parent != NULL && table_dropped(pl, parent);
                if (parent != NULL && (live_matched(pl, parent) || dropped))
                    parent = NULL;     /* renamed: declared otherwise; or
                                          dropped by this migration */
            }
            if (parent == NULL)
                return invalid(pl, fk->offset, "column '%s' of table '%s' "
                               "references table '%s', which is neither "
                               "declared nor %s the lake%s",
                               w->columns[fk->column].name, w->name,
                               fk->table, dropped ? "kept in" : "in",
                               dropped ? ": the declaration owns the lake "
                               "and does not state it, so the migration "
                               "would drop it" : "");
            ptrdiff_t col = fk->parent != NULL
                                ? pier__mtable_column(parent, fk->parent)
                                : primary_column(parent);
            if (col < 0)
                return invalid(pl, fk->offset, fk->parent != NULL
                               ? "column '%s' of table '%s' references "
                                 "'%s(%s)', which has no such column"
                               : "column '%s' of table '%s' references "
                                 "table '%s'%s, which has no primary key "
                                 "of one column",
                               w->columns[fk->column].name, w->name,
                               parent->name,
                               fk->parent != NULL ? fk->parent : "");
            if (!unique_column(parent, (size_t)col))
                return invalid(pl, fk->offset, "column '%s' of table '%s' "
                               "references '%s(%s)', which is not unique: "
                               "a parent column is its table's key",
                               w->columns[fk->column].name, w->name,
                               parent->name, parent->columns[col].name);
        }
    }
    /* a table the declaration does not state stays as it is, foreign
     * keys and all: its parents cannot go */
    for (size_t i = 0; i < pl->live->ntables; i++) {
        const pier__mtable *l = &pl->live->tables[i];
        if (live_matched(pl, l) || table_dropped(pl, l))
            continue;
        for (size_t f = 0; f < l->nfks; f++) {
            const pier__mtable *parent = live_table(pl, l->fks[f].table);
            if (parent != NULL && parent != l && table_dropped(pl, parent))
                refuse(pl, "table '%s' is dropped, but column '%s' of "
                       "table '%s' (which the declaration does not state, "
                       "so it stays) references it", parent->name,
                       l->columns[l->fks[f].column].name, l->name);
        }
    }
    return PIER_OK;
}

/* ---- tables ---- */

/* Whether two defaults (or backfills) are the same. */
static bool same_value(const pier__mvalue *a, const pier__mvalue *b)
{
    if (a->now != b->now)
        return false;
    if (a->sql == NULL || b->sql == NULL)
        return a->sql == b->sql;
    return strcmp(a->sql, b->sql) == 0;
}

static bool has_value(const pier__mvalue *v)
{
    return v->sql != NULL || v->now;
}

static const char *value_text(const pier__mvalue *v)
{
    return v->now ? "now()" : v->sql;
}

/* The live key a declared key stands for, through the column matches. */
static bool same_keys(const tmatch *m)
{
    const pier__mtable *w = m->want, *l = m->live;
    if (w->nkeys != l->nkeys)
        return false;
    for (size_t i = 0; i < w->nkeys; i++) {
        bool found = false;
        for (size_t j = 0; !found && j < l->nkeys; j++) {
            const pier__mkey *a = &w->keys[i], *b = &l->keys[j];
            if (a->primary != b->primary || a->ncolumns != b->ncolumns)
                continue;
            bool all = true;
            for (size_t c = 0; all && c < a->ncolumns; c++)
                all = m->cols[a->columns[c]] == (ptrdiff_t)b->columns[c];
            found = all;
        }
        if (!found)
            return false;
    }
    return true;
}

static bool same_checks(const tmatch *m, const name_map *r, size_t nr)
{
    const pier__mtable *w = m->want, *l = m->live;
    if (w->nchecks != l->nchecks)
        return false;
    for (size_t i = 0; i < w->nchecks; i++) {
        const pier__mcheck *a = &w->checks[i], *b = &l->checks[i];
        if ((a->name == NULL) != (b->name == NULL) ||
            (a->name != NULL && !same(a->name, b->name)) ||
            !same_sql(b->expr, a->expr, r, nr))
            return false;
    }
    return true;
}

/* The live table a declared or live parent name stands for now. */
static const pier__mtable *parent_live(const planner *pl, const char *name)
{
    const tmatch *m = match_of(pl, name);
    if (m != NULL)
        return m->live;
    return live_table(pl, name);
}

static bool same_fks(const planner *pl, const tmatch *m)
{
    const pier__mtable *w = m->want, *l = m->live;
    if (w->nfks != l->nfks)
        return false;
    for (size_t i = 0; i < w->nfks; i++) {
        const pier__mfk *a = &w->fks[i];
        bool found = false;
        for (size_t j = 0; !found && j < l->nfks; j++) {
            const pier__mfk *b = &l->fks[j];
            if (m->cols[a->column] != (ptrdiff_t)b->column ||
                a->on_delete != b->on_delete)
                continue;
            const pier__mtable *pa = parent_live(pl, a->table);
            const pier__mtable *pb = live_table(pl, b->table);
            if (pa == NULL || pa != pb)
                continue;
            /* the parent column, through the parent's renames */
            const tmatch *pm = match_of(pl, a->table);
            ptrdiff_t ca = a->parent == NULL ? primary_column(pb) : -1;
            if (a->parent != NULL) {
                ptrdiff_t dc = pm != NULL
                                   ? pier__mtable_column(pm->want, a->parent)
                                   : -1;
                ca = pm != NULL ? (dc >= 0 ? pm->cols[dc] : -1)
                                : pier__mtable_column(pb, a->parent);
            }
            ptrdiff_t cb = b->parent == NULL
                               ? primary_column(pb)
                               : pier__mtable_column(pb, b->parent);
            found = ca >= 0 && ca == cb;
        }
        if (!found)
            return false;
    }
    return true;
}

/* Whether a key, check or foreign key of live table l (or of another
 * table, pointing at it) names its column `col`. */
static const char *column_in_use(const planner *pl, const pier__mtable *l,
                                 size_t col)
{
    for (size_t i = 0; i < l->nkeys; i++)
        for (size_t c = 0; c < l->keys[i].ncolumns; c++)
            if (l->keys[i].columns[c] == col)
                return l->keys[i].primary ? "the primary key" : "a UNIQUE key";
    for (size_t i = 0; i < l->nfks; i++)
        if (l->fks[i].column == col)
            return "a foreign key";
    for (size_t i = 0; i < l->nchecks; i++)
        if (names(l->checks[i].expr, l->columns[col].name))
            return "a CHECK";
    for (size_t t = 0; t < pl->live->ntables; t++) {
        const pier__mtable *o = &pl->live->tables[t];
        for (size_t i = 0; i < o->nfks; i++) {
            const pier__mfk *fk = &o->fks[i];
            if (!same(fk->table, l->name))
                continue;
            ptrdiff_t pc = fk->parent != NULL
                               ? pier__mtable_column(l, fk->parent)
                               : primary_column(l);
            if (pc == (ptrdiff_t)col)
                return "a foreign key of another table";
        }
    }
    return NULL;
}

/* A step on column wc of matched table m (live column lc). */
static pier__step *column_step(planner *pl, const tmatch *m,
                               pier__step_kind kind,
                               const pier__mcolumn *wc,
                               const pier__mcolumn *lc)
{
    pier__step *s = add_step(pl, kind, PIER__OBJ_TABLE, m->want->name);
    if (s == NULL)
        return NULL;
    s->column = wc->name;
    s->table_id = m->live->id;
    s->column_id = lc != NULL ? lc->id : 0;
    s->table = m->want;
    s->def = wc;
    s->was = lc;
    return s;
}

static void plan_column(planner *pl, const tmatch *m, size_t c)
{
    const pier__mtable *w = m->want;
    const pier__mcolumn *wc = &w->columns[c];
    const pier__mcolumn *lc = &m->live->columns[m->cols[c]];
    pier__step *s;
    if (strcmp(lc->spelling, wc->spelling) != 0) {
        bool enum_step;
        if (pier__coltype_widens(&lc->type, &wc->type, &enum_step)) {
            s = column_step(pl, m, enum_step ? PIER__STEP_WIDEN_ENUM
                                             : PIER__STEP_WIDEN_COLUMN,
                            wc, lc);
            if (s == NULL)
                return;
            s->from = lc->spelling;
            s->to = wc->spelling;
        } else if (lc->type.t.base == PIER__B_ENUM &&
                   wc->type.t.base == PIER__B_ENUM) {
            refuse(pl, "column '%s' of table '%s': %s to %s removes enum "
                   "labels (stored rows may hold them)", wc->name, w->name,
                   lc->spelling, wc->spelling);
        } else if (wc->type.t.base == PIER__B_ENUM) {
            refuse(pl, "column '%s' of table '%s': %s to %s tightens a "
                   "column into an enum (stored rows may hold other "
                   "values)", wc->name, w->name, lc->spelling, wc->spelling);
        } else {
            refuse(pl, "column '%s' of table '%s': %s to %s is a type "
                   "change, and migrations only widen a type without "
                   "touching its values", wc->name, w->name, lc->spelling,
                   wc->spelling);
        }
    }
    if (lc->not_null != wc->not_null)
        column_step(pl, m, wc->not_null ? PIER__STEP_SET_NOT_NULL
                                        : PIER__STEP_DROP_NOT_NULL, wc, lc);
    if (!same_value(&lc->dflt, &wc->dflt)) {
        s = column_step(pl, m, has_value(&wc->dflt) ? PIER__STEP_SET_DEFAULT
                                                    : PIER__STEP_DROP_DEFAULT,
                        wc, lc);
        if (s == NULL)
            return;
        s->from = value_text(&lc->dflt);
        s->to = value_text(&wc->dflt);
    }
    /* A backfill is fixed when its column is added: what rows written
     * before then read. A declared now() stands for the instant frozen
     * then. */
    bool backfill_same = same_value(&lc->backfill, &wc->backfill) ||
                         (wc->backfill.now && lc->backfill.sql != NULL) ||
                         (!wc->not_null && !has_value(&wc->backfill));
    /* (a nullable column declares no backfill: the one fixed when it
     * was added stays what the rows stored before then read) */
    if (!backfill_same)
        refuse(pl, "column '%s' of table '%s': its BACKFILL was fixed when "
               "the column was added (%s); changing it would change what "
               "rows stored before then read", wc->name, w->name,
               has_value(&lc->backfill) ? value_text(&lc->backfill)
                                        : "none");
    if (lc->readonly != wc->readonly)
        column_step(pl, m, wc->readonly ? PIER__STEP_SET_READONLY
                                        : PIER__STEP_DROP_READONLY, wc, lc);
    if (lc->autoincrement != wc->autoincrement)
        column_step(pl, m,
                    wc->autoincrement ? PIER__STEP_ADOPT_AUTOINCREMENT
                                      : PIER__STEP_DROP_AUTOINCREMENT,
                    wc, lc);
}

static void plan_add_column(planner *pl, const tmatch *m, size_t c)
{
    const pier__mtable *w = m->want;
    const pier__mcolumn *wc = &w->columns[c];
    if (wc->not_null && !has_value(&wc->backfill))
        refuse(pl, "column '%s' of table '%s' is added NOT NULL without a "
               "BACKFILL: the rows already stored would have no value (give "
               "it a BACKFILL, or make it nullable)", wc->name,
               w->name);
    if (wc->autoincrement)
        refuse(pl, "column '%s' of table '%s' is added as the "
               "AUTOINCREMENT key: the primary key cannot change",
               wc->name, w->name);
    column_step(pl, m, PIER__STEP_ADD_COLUMN, wc, NULL);
}

static void plan_table(planner *pl, const tmatch *m)
{
    const pier__mtable *w = m->want;
    /* renames first: a column may then be added under an old name */
    for (size_t c = 0; c < w->ncolumns; c++) {
        if (m->cols[c] < 0)
            continue;
        const pier__mcolumn *lc = &m->live->columns[m->cols[c]];
        if (same(lc->name, w->columns[c].name))
            continue;
        pier__step *s = column_step(pl, m, PIER__STEP_RENAME_COLUMN,
                                    &w->columns[c], lc);
        if (s == NULL)
            return;
        s->from = lc->name;
    }
    for (size_t c = 0; c < w->ncolumns; c++) {
        if (m->cols[c] >= 0)
            plan_column(pl, m, c);
        else
            plan_add_column(pl, m, c);
    }
    name_map *r;
    size_t nr = column_renames(pl, m, &r);
    if (!same_keys(m))
        refuse(pl, "table '%s': its primary or unique keys change, which "
               "a migration does not do (create a new table and copy)",
               w->name);
    if (!same_checks(m, r, nr))
        refuse(pl, "table '%s': its CHECK constraints change, which a "
               "migration does not do (they are declared when the table "
               "is created; create a new table and copy)", w->name);
    if (!same_fks(pl, m))
        refuse(pl, "table '%s': its foreign keys change, which a migration "
               "does not do (they are declared when the table is created; "
               "create a new table and copy)", w->name);
}

/* An index on matched table m that this migration leaves naming live
 * column `col`: a declared one, or one pier sql made (which no
 * migration drops); NULL if none. */
static const char *index_keeping(const planner *pl, const tmatch *m,
                                 size_t col)
{
    const char *name = m->live->columns[col].name;
    for (size_t i = 0; i < pl->want->nindexes; i++) {
        const pier__mindex *x = &pl->want->indexes[i];
        if (match_of(pl, x->table) == m && names(x->body, name))
            return x->name;
    }
    for (size_t i = 0; i < pl->live->nindexes; i++) {
        const pier__mindex *x = &pl->live->indexes[i];
        if (!x->managed && live_table(pl, x->table) == m->live &&
            pier__schema_index(pl->want, x->name) == NULL &&
            names(x->body, name))
            return x->name;
    }
    return NULL;
}

/* A view this migration leaves naming live column `col` of matched table
 * m, by its body's words: a declared one, or one of the lake no
 * migration drops; NULL if none. */
static const char *view_keeping(const planner *pl, const tmatch *m,
                                size_t col)
{
    const char *name = m->live->columns[col].name;
    for (size_t i = 0; i < pl->want->nviews; i++) {
        const pier__mview *w = &pl->want->views[i];
        if ((names(w->body, m->want->name) ||
             names(w->body, m->live->name)) && names(w->body, name))
            return w->name;
    }
    for (size_t i = 0; i < pl->live->nviews; i++) {
        const pier__mview *l = &pl->live->views[i];
        if (pier__schema_view(pl->want, l->name) != NULL ||
            (pl->opt->schema_owns_database && l->managed))
            continue;             /* declared (above), or dropped */
        if (names(l->body, m->live->name) && names(l->body, name))
            return l->name;
    }
    return NULL;
}

/* The drop_column steps of a matched table: live columns the declaration
 * no longer has. They come after the index and view drops and the view
 * replacements, which may be what stops naming the column. */
static void plan_dropped_columns(planner *pl, const tmatch *m)
{
    const pier__mtable *w = m->want, *l = m->live;
    for (size_t k = 0; k < l->ncolumns; k++) {
        bool kept = false;
        for (size_t c = 0; !kept && c < w->ncolumns; c++)
            kept = m->cols[c] == (ptrdiff_t)k;
        if (kept)
            continue;
        const char *use = column_in_use(pl, l, k);
        const char *index = use == NULL ? index_keeping(pl, m, k) : NULL;
        const char *view = use == NULL && index == NULL
                               ? view_keeping(pl, m, k) : NULL;
        if (index != NULL || view != NULL) {
            refuse(pl, "column '%s' of table '%s' is dropped, but %s "
                   "'%s', which stays, names it", l->columns[k].name,
                   w->name, index != NULL ? "index" : "view",
                   index != NULL ? index : view);
            continue;
        }
        if (use != NULL) {
            refuse(pl, "column '%s' of table '%s' is dropped, but %s names "
                   "it", l->columns[k].name, w->name, use);
            continue;
        }
        pier__step *s = add_step(pl, PIER__STEP_DROP_COLUMN, PIER__OBJ_TABLE,
                                 w->name);
        if (s == NULL)
            return;
        s->column = l->columns[k].name;
        s->table_id = l->id;
        s->column_id = l->columns[k].id;
        s->rows = l->rows;
        s->rewrite = true;            /* SQLite rewrites every row */
    }
}

/* The declared tables to create, parents before the tables that
 * reference them (a cycle keeps declaration order). */
static void plan_creates(planner *pl)
{
    size_t n = pl->want->ntables;
    bool *done = calloc(n > 0 ? n : 1, sizeof *done);
    if (done == NULL) {
        pl->oom = true;
        return;
    }
    for (size_t i = 0; i < n; i++)
        done[i] = pl->tables[i].live != NULL;
    bool progress = true;
    while (progress) {
        progress = false;
        for (size_t i = 0; i < n; i++) {
            if (done[i])
                continue;
            const pier__mtable *w = pl->tables[i].want;
            bool ready = true;
            for (size_t f = 0; ready && f < w->nfks; f++)
                for (size_t j = 0; ready && j < n; j++)
                    if (j != i && !done[j] &&
                        same(pl->tables[j].want->name, w->fks[f].table))
                        ready = false;
            if (!ready)
                continue;
            pier__step *s = add_step(pl, PIER__STEP_CREATE_TABLE,
                                     PIER__OBJ_TABLE, w->name);
            if (s != NULL)
                s->table = w;
            done[i] = progress = true;
        }
    }
    for (size_t i = 0; i < n; i++) {        /* a cycle */
        if (done[i])
            continue;
        pier__step *s = add_step(pl, PIER__STEP_CREATE_TABLE,
                                 PIER__OBJ_TABLE, pl->tables[i].want->name);
        if (s != NULL)
            s->table = pl->tables[i].want;
    }
    free(done);
}

/* ---- boards ---- */

static void plan_boards(planner *pl)
{
    for (size_t i = 0; i < pl->want->nboards; i++) {
        const pier__mboard *w = &pl->want->boards[i];
        const pier__mboard *l = pier__schema_board(pl->live, w->id);
        pier__step *s;
        if (l == NULL) {
            s = add_step(pl, PIER__STEP_CREATE_BOARD, PIER__OBJ_BOARD, w->id);
            if (s != NULL)
                s->board = w;
            continue;
        }
        if (l->strict != w->strict)
            refuse(pl, "board '%s' is %sstrict in the lake: a board's "
                   "strict flag is fixed when it is created", w->id,
                   l->strict ? "" : "not ");
        for (size_t c = 0; c < w->ncolumns; c++) {
            const pier__mbcol *wc = &w->columns[c];
            const pier__mbcol *lc = NULL;
            for (size_t k = 0; lc == NULL && k < l->ncolumns; k++)
                if (same(l->columns[k].name, wc->name))
                    lc = &l->columns[k];
            if (lc == NULL) {
                s = add_step(pl, PIER__STEP_ADD_COLUMN, PIER__OBJ_BOARD,
                             w->id);
                if (s != NULL) {
                    s->column = wc->name;
                    s->board = w;
                    s->bcol = wc;
                }
            } else if (!pier__type_eq(lc->type, wc->type)) {
                if (!pier__type_can_widen(lc->type, wc->type)) {
                    refuse(pl, "column '%s' of board '%s': %s to %s is not "
                           "a widening along the lattice", wc->name, w->id,
                           pier__type_name(lc->type),
                           pier__type_name(wc->type));
                    continue;
                }
                s = add_step(pl, PIER__STEP_WIDEN_COLUMN, PIER__OBJ_BOARD,
                             w->id);
                if (s != NULL) {
                    s->column = wc->name;
                    s->from = pier__type_name(lc->type);
                    s->to = pier__type_name(wc->type);
                    s->rewrite = pier__type_widen_rewrites(lc->type,
                                                           wc->type);
                    s->rows = l->rows;
                    s->board = w;
                    s->bcol = wc;
                }
            }
        }
    }
}

/* ---- views and indexes ---- */

/* The renames this plan makes that a live view's body sees: of the
 * tables it names (live name to declared) and of their columns. SQLite
 * carries a rename into the bodies of views, so the live body is read
 * through them. NULL when out of memory (pl->oom). */
static size_t view_renames(planner *pl, const pier__mview *l,
                           name_map **out)
{
    size_t n = 0, cap = 1;
    for (size_t i = 0; i < pl->want->ntables; i++)
        if (pl->tables[i].live != NULL)
            cap += 1 + pl->tables[i].want->ncolumns;
    *out = pier__arena_alloc(&pl->p->arena, cap * sizeof **out);
    if (*out == NULL) {
        pl->oom = true;
        return 0;
    }
    for (size_t i = 0; i < pl->want->ntables; i++) {
        const tmatch *m = &pl->tables[i];
        if (m->live == NULL || !names(l->body, m->live->name))
            continue;
        if (m->renamed)
            (*out)[n++] = (name_map){ m->live->name, m->want->name };
        name_map *r;
        size_t nr = column_renames(pl, m, &r);
        for (size_t k = 0; k < nr; k++)
            (*out)[n++] = r[k];
    }
    return n;
}

static bool same_view(planner *pl, const pier__mview *l,
                      const pier__mview *w)
{
    name_map *r;
    size_t nr = view_renames(pl, l, &r);
    if (l->ncolumns != w->ncolumns || !same_sql(l->body, w->body, r, nr))
        return false;
    for (size_t i = 0; i < w->ncolumns; i++)
        if (strcmp(l->columns[i].name, w->columns[i].name) != 0 ||
            strcmp(l->columns[i].spelling, w->columns[i].spelling) != 0)
            return false;
    return true;
}

static void plan_views(planner *pl)
{
    for (size_t i = 0; i < pl->want->nviews; i++) {
        const pier__mview *w = &pl->want->views[i];
        const pier__mview *l = pier__schema_view(pl->live, w->name);
        const pier__mopaque *o = pier__schema_opaque(pl->live, w->name);
        if (l == NULL && o != NULL && !o->view)
            refuse(pl, "view '%s': the lake has a table of that name",
                   w->name);
        if (l == NULL && o != NULL && o->view) {
            /* a view pier sql made: replaced by its declaration (nothing
             * is stored under a view) */
            pier__step *s = add_step(pl, PIER__STEP_REPLACE_VIEW,
                                     PIER__OBJ_VIEW, w->name);
            if (s != NULL)
                s->view = w;
            continue;
        }
        if (l == NULL && live_table(pl, w->name) != NULL &&
            !live_matched(pl, live_table(pl, w->name)))
            refuse(pl, "view '%s': the lake has a table of that name",
                   w->name);
        if (l != NULL && same_view(pl, l, w))
            continue;
        pier__step *s = add_step(pl, l == NULL ? PIER__STEP_CREATE_VIEW
                                               : PIER__STEP_REPLACE_VIEW,
                                 PIER__OBJ_VIEW, w->name);
        if (s != NULL)
            s->view = w;
    }
}

/* The table or board an index is on, now: checks it is declared or in
 * the lake; *renames: the column renames planned for it. */
static pier_status index_target(planner *pl, const pier__mindex *x,
                                name_map **r, size_t *nr)
{
    *nr = 0;
    *r = NULL;
    const tmatch *m = match_of(pl, x->table);
    if (m != NULL) {
        *nr = column_renames(pl, m, r);
        return PIER_OK;
    }
    if (pier__schema_board(pl->want, x->table) != NULL ||
        pier__schema_board(pl->live, x->table) != NULL)
        return PIER_OK;
    const pier__mtable *l = live_table(pl, x->table);
    if (l != NULL && !live_matched(pl, l))
        return PIER_OK;
    return invalid(pl, x->offset, "index '%s' is on '%s', which is neither "
                   "a table nor a board, declared or in the lake", x->name,
                   x->table);
}

static pier_status plan_indexes(planner *pl)
{
    for (size_t i = 0; i < pl->want->nindexes; i++) {
        const pier__mindex *w = &pl->want->indexes[i];
        name_map *r;
        size_t nr;
        pier_status rc = index_target(pl, w, &r, &nr);
        if (rc != PIER_OK)
            return rc;
        const pier__mindex *l = pier__schema_index(pl->live, w->name);
        if (l != NULL && l->unique == w->unique &&
            parent_live(pl, w->table) == live_table(pl, l->table) &&
            same_sql(l->body, w->body, r, nr))
            continue;
        pier__step *s = add_step(pl, l == NULL ? PIER__STEP_CREATE_INDEX
                                               : PIER__STEP_REPLACE_INDEX,
                                 PIER__OBJ_INDEX, w->name);
        if (s != NULL)
            s->index = w;
    }
    return PIER_OK;
}

/* ---- drops ---- */

/* Whether the declaration states the live table or board `name` (under
 * its name, or as the table a declared one is renamed from). */
static bool declared_for(const planner *pl, const char *name)
{
    if (pier__schema_board(pl->want, name) != NULL)
        return true;
    const pier__mtable *l = live_table(pl, name);
    for (size_t i = 0; l != NULL && i < pl->want->ntables; i++)
        if (pl->tables[i].live == l)
            return true;
    return false;
}

/* Whether a live table to be dropped and not yet `gone` references l. */
static bool still_referenced(const planner *pl, const pier__mtable *l,
                             const bool *gone)
{
    for (size_t i = 0; i < pl->live->ntables; i++) {
        const pier__mtable *o = &pl->live->tables[i];
        if (o == l || gone[i] || !table_dropped(pl, o))
            continue;
        for (size_t f = 0; f < o->nfks; f++)
            if (same(o->fks[f].table, l->name))
                return true;
    }
    return false;
}

static void plan_drops(planner *pl)
{
    const pier__schema *L = pl->live;
    bool owns = pl->opt->schema_owns_database;
    /* A managed index the declaration no longer names goes (it holds no
     * data), when the declaration speaks for its table. */
    for (size_t i = 0; i < L->nindexes; i++) {
        const pier__mindex *l = &L->indexes[i];
        bool spoken = owns || declared_for(pl, l->table);
        if (spoken && l->managed &&
            pier__schema_index(pl->want, l->name) == NULL) {
            pier__step *s = add_step(pl, PIER__STEP_DROP_INDEX,
                                     PIER__OBJ_INDEX, l->name);
            if (s == NULL)
                return;
        }
    }
    for (size_t i = 0; owns && i < L->nviews; i++) {
        const pier__mview *l = &L->views[i];
        if (l->managed && pier__schema_view(pl->want, l->name) == NULL) {
            if (add_step(pl, PIER__STEP_DROP_VIEW, PIER__OBJ_VIEW,
                         l->name) == NULL)
                return;
            destroys(pl, "view '%s'", l->name);
        }
    }
    for (size_t i = 0; i < pl->want->ntables; i++)
        if (pl->tables[i].live != NULL)
            plan_dropped_columns(pl, &pl->tables[i]);
    for (size_t i = 0; i < pl->p->nsteps; i++) {
        const pier__step *s = &pl->p->steps[i];
        if (s->kind == PIER__STEP_DROP_COLUMN)
            destroys(pl, "column '%s' of table '%s' (%lld rows)", s->column,
                     s->object, (long long)s->rows);
    }
    /* tables that reference others go first, so that no foreign key
     * outlives its parent (a cycle keeps the catalog's order) */
    bool *gone = calloc(L->ntables > 0 ? L->ntables : 1, sizeof *gone);
    if (gone == NULL) {
        pl->oom = true;
        return;
    }
    for (int pass = 0; owns && pass < 2; pass++) {
        bool progress = true;
        while (progress) {
            progress = false;
            for (size_t i = 0; i < L->ntables; i++) {
                const pier__mtable *l = &L->tables[i];
                if (gone[i] || !table_dropped(pl, l) ||
                    (pass == 0 && still_referenced(pl, l, gone)))
                    continue;
                pier__step *s = add_step(pl, PIER__STEP_DROP_TABLE,
                                         PIER__OBJ_TABLE, l->name);
                if (s == NULL)
                    break;
                s->table_id = l->id;
                s->rows = l->rows;
                destroys(pl, "table '%s' (%lld rows)", l->name,
                         (long long)l->rows);
                gone[i] = progress = true;
            }
        }
    }
    free(gone);
    for (size_t i = 0; owns && i < L->nboards; i++) {
        const pier__mboard *l = &L->boards[i];
        if (!l->managed || pier__schema_board(pl->want, l->id) != NULL)
            continue;
        pier__step *s = add_step(pl, PIER__STEP_DROP_BOARD, PIER__OBJ_BOARD,
                                 l->id);
        if (s == NULL)
            return;
        s->rows = l->rows;
        destroys(pl, "board '%s' (%lld rows)", l->id, (long long)l->rows);
    }
}

/* ---- the plan ---- */

void pier__plan_init(pier__plan *p)
{
    memset(p, 0, sizeof *p);
    pier__arena_init(&p->arena);
}

void pier__plan_free(pier__plan *p)
{
    if (p == NULL)
        return;
    pier__arena_free(&p->arena);
    pier__plan_init(p);
}

/* "a; b; c" of a list, into err's message under `status`. */
static pier_status list_failure(pier_error *err, pier_status status,
                                const char *head, char **items, size_t n)
{
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_puts(&b, head);
    for (size_t i = 0; i < n; i++)
        pier__buf_printf(&b, "%s%s", i == 0 ? ": " : "; ", items[i]);
    pier_status rc = b.oom ? pier__oom(err)
                           : pier__fail(err, status, "%s", b.p);
    pier__buf_free(&b);
    return rc;
}

pier_status pier__plan_make(pier__plan *p, const pier__schema *live,
                            const pier__schema *want,
                            const pier__plan_options *options,
                            pier_error *err)
{
    pier__plan_init(p);
    static const pier__plan_options none = { false, false };
    planner pl = { p, live, want, options != NULL ? options : &none, err,
                   0, 0, 0, NULL, false };
    pier_status rc = match_tables(&pl);
    if (rc == PIER_OK)
        rc = check_references(&pl);
    if (rc == PIER_OK) {
        for (size_t i = 0; i < want->ntables; i++) {
            const tmatch *m = &pl.tables[i];
            if (m->renamed) {
                pier__step *s = add_step(&pl, PIER__STEP_RENAME_TABLE,
                                         PIER__OBJ_TABLE, m->want->name);
                if (s != NULL) {
                    s->from = m->live->name;
                    s->table_id = m->live->id;
                    s->table = m->want;
                }
            }
        }
        plan_creates(&pl);
        for (size_t i = 0; i < want->ntables; i++)
            if (pl.tables[i].live != NULL)
                plan_table(&pl, &pl.tables[i]);
        plan_boards(&pl);
        plan_views(&pl);
        rc = plan_indexes(&pl);
    }
    if (rc == PIER_OK)
        plan_drops(&pl);
    free(pl.tables);
    if (rc == PIER_OK && pl.oom)
        rc = pier__oom(err);
    if (rc == PIER_OK && p->nrefusals > 0)
        rc = list_failure(err, PIER_E_MIGRATION_REFUSED,
                          "the migration is refused", p->refusals,
                          p->nrefusals);
    if (rc == PIER_OK && p->ndestroys > 0 &&
        !pl.opt->allow_destructive)
        rc = list_failure(err, PIER_E_DESTRUCTIVE_CHANGE,
                          "the migration would destroy data, and "
                          "destruction is not allowed", p->destroys,
                          p->ndestroys);
    return rc;
}

const char *pier__step_name(pier__step_kind kind)
{
    switch (kind) {
    case PIER__STEP_RENAME_TABLE: return "rename_table";
    case PIER__STEP_RENAME_COLUMN: return "rename_column";
    case PIER__STEP_CREATE_TABLE: return "create_table";
    case PIER__STEP_CREATE_BOARD: return "create_board";
    case PIER__STEP_ADD_COLUMN: return "add_column";
    case PIER__STEP_DROP_NOT_NULL: return "drop_not_null";
    case PIER__STEP_SET_NOT_NULL: return "set_not_null";
    case PIER__STEP_WIDEN_ENUM: return "widen_enum";
    case PIER__STEP_WIDEN_COLUMN: return "widen_column";
    case PIER__STEP_SET_DEFAULT: return "set_default";
    case PIER__STEP_DROP_DEFAULT: return "drop_default";
    case PIER__STEP_SET_READONLY: return "set_readonly";
    case PIER__STEP_DROP_READONLY: return "drop_readonly";
    case PIER__STEP_ADOPT_AUTOINCREMENT: return "adopt_autoincrement";
    case PIER__STEP_DROP_AUTOINCREMENT: return "drop_autoincrement";
    case PIER__STEP_CREATE_VIEW: return "create_view";
    case PIER__STEP_REPLACE_VIEW: return "replace_view";
    case PIER__STEP_CREATE_INDEX: return "create_index";
    case PIER__STEP_REPLACE_INDEX: return "replace_index";
    case PIER__STEP_DROP_INDEX: return "drop_index";
    case PIER__STEP_DROP_VIEW: return "drop_view";
    case PIER__STEP_DROP_COLUMN: return "drop_column";
    case PIER__STEP_DROP_TABLE: return "drop_table";
    case PIER__STEP_DROP_BOARD: return "drop_board";
    }
    return "step";
}

const char *pier__class_name(pier__step_class c)
{
    switch (c) {
    case PIER__CLASS_METADATA: return "metadata";
    case PIER__CLASS_PROVED: return "proved";
    case PIER__CLASS_BUILD: return "build";
    case PIER__CLASS_DESTRUCTIVE: return "destructive";
    }
    return "class";
}

pier__step_class pier__step_class_of(const pier__step *s)
{
    switch (s->kind) {
    case PIER__STEP_SET_NOT_NULL:
    case PIER__STEP_ADOPT_AUTOINCREMENT:
        return PIER__CLASS_PROVED;
    case PIER__STEP_CREATE_INDEX:
    case PIER__STEP_REPLACE_INDEX:
        return PIER__CLASS_BUILD;
    case PIER__STEP_DROP_VIEW:
    case PIER__STEP_DROP_COLUMN:
    case PIER__STEP_DROP_TABLE:
    case PIER__STEP_DROP_BOARD:
        return PIER__CLASS_DESTRUCTIVE;
    default:
        return PIER__CLASS_METADATA;
    }
}
