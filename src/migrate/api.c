/*
 * api.c: pier_plan and the plan it hands out: the live model (live.c),
 * the declaration's (decl.c) and the planner (plan.c) put together in one
 * read transaction, the catalog's fingerprint, and the plan as JSON and as
 * text.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine/engine.h"
#include "migrate/migration.h"

/* ---- the fingerprint ---- */

typedef struct fnv {
    uint64_t h;
} fnv;

static void mix(fnv *f, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        f->h ^= b[i];
        f->h *= UINT64_C(0x100000001b3);
    }
}

/* A string and its end, so that ("ab","c") and ("a","bc") differ. */
static void mix_s(fnv *f, const char *s)
{
    if (s != NULL)
        mix(f, s, strlen(s) + 1);
    else
        mix(f, "\xff", 1);
}

static void mix_i(fnv *f, int64_t v)
{
    char b[24];
    int n = snprintf(b, sizeof b, "%" PRId64 ";", v);
    mix(f, b, (size_t)n);
}

static void mix_value(fnv *f, const pier__mvalue *v)
{
    mix_i(f, v->now);
    mix_s(f, v->sql);
}

/* Everything the model of the live catalog says, in its order. */
static uint64_t fingerprint(const pier__schema *s)
{
    fnv f = { UINT64_C(0xcbf29ce484222325) };
    for (size_t i = 0; i < s->ntables; i++) {
        const pier__mtable *t = &s->tables[i];
        mix_s(&f, "table");
        mix_i(&f, t->id);
        mix_s(&f, t->name);
        mix_i(&f, t->managed);
        for (size_t c = 0; c < t->ncolumns; c++) {
            const pier__mcolumn *col = &t->columns[c];
            mix_i(&f, col->id);
            mix_s(&f, col->name);
            mix_s(&f, col->spelling);
            mix_i(&f, col->not_null * 4 + col->readonly * 2 +
                          col->autoincrement);
            mix_value(&f, &col->dflt);
            mix_value(&f, &col->backfill);
        }
        for (size_t k = 0; k < t->nkeys; k++) {
            mix_s(&f, t->keys[k].name);
            mix_i(&f, t->keys[k].primary);
            for (size_t c = 0; c < t->keys[k].ncolumns; c++)
                mix_i(&f, (int64_t)t->keys[k].columns[c]);
        }
        for (size_t k = 0; k < t->nchecks; k++) {
            mix_s(&f, t->checks[k].name);
            mix_s(&f, t->checks[k].expr);
        }
        for (size_t k = 0; k < t->nfks; k++) {
            mix_s(&f, t->fks[k].name);
            mix_i(&f, (int64_t)t->fks[k].column);
            mix_s(&f, t->fks[k].table);
            mix_s(&f, t->fks[k].parent);
            mix_i(&f, t->fks[k].on_delete);
        }
    }
    for (size_t i = 0; i < s->nviews; i++) {
        mix_s(&f, "view");
        mix_s(&f, s->views[i].name);
        mix_s(&f, s->views[i].body);
        for (size_t c = 0; c < s->views[i].ncolumns; c++) {
            mix_s(&f, s->views[i].columns[c].name);
            mix_s(&f, s->views[i].columns[c].spelling);
        }
    }
    for (size_t i = 0; i < s->nindexes; i++) {
        mix_s(&f, "index");
        mix_s(&f, s->indexes[i].name);
        mix_s(&f, s->indexes[i].table);
        mix_s(&f, s->indexes[i].body);
        mix_i(&f, s->indexes[i].unique * 2 + s->indexes[i].managed);
    }
    for (size_t i = 0; i < s->nboards; i++) {
        mix_s(&f, "board");
        mix_s(&f, s->boards[i].id);
        mix_i(&f, s->boards[i].strict * 2 + s->boards[i].managed);
        for (size_t c = 0; c < s->boards[i].ncolumns; c++) {
            mix_s(&f, s->boards[i].columns[c].name);
            mix_s(&f, pier__type_name(s->boards[i].columns[c].type));
        }
    }
    for (size_t i = 0; i < s->nopaque; i++) {
        mix_s(&f, "opaque");
        mix_s(&f, s->opaque[i].name);
    }
    return f.h;
}

/* ---- planning ---- */

/* Row counts of what the plan destroys: only those are counted. */
static pier_status count_destroyed(pier_engine *e, pier__plan *p,
                                   pier_error *err)
{
    for (size_t i = 0; i < p->nsteps; i++) {
        pier__step *s = &p->steps[i];
        if (pier__step_class_of(s) != PIER__CLASS_DESTRUCTIVE ||
            s->kind == PIER__STEP_DROP_VIEW)
            continue;
        if (s->on == PIER__OBJ_BOARD) {
            const pier__board *b = pier__catalog_find(&e->catalog,
                                                      s->object);
            if (b != NULL) {
                pier_status rc = e->lake->ops->rows_count(e->lake, b,
                                                          &s->rows, err);
                if (rc != PIER_OK)
                    return rc;
            }
        } else {
            pier_status rc = e->lake->ops->table_rows(e->lake, s->object,
                                                      &s->rows, err);
            if (rc != PIER_OK)
                return rc;
        }
    }
    return PIER_OK;
}

pier_migration *pier__migration_new(void)
{
    pier_migration *m = calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    pier__schema_init(&m->live);
    pier__schema_init(&m->want);
    pier__plan_init(&m->plan);
    return m;
}

/* The next id the catalog will hand out from its counter `table` (an
 * AUTOINCREMENT key: ids are never reused). */
static pier_status next_id(pier_engine *e, const char *table, int64_t *out,
                           pier_error *err)
{
    int64_t seq = -1;
    pier_status rc = e->lake->ops->sequence_get(e->lake, table, &seq, err);
    *out = seq < 0 ? 1 : seq + 1;
    return rc;
}

/*
 * The ids the plan's new tables and columns will get: the catalog hands
 * them out in the order the steps run, so the plan can say them (a column
 * added has its column_id in the plan as a renamed one has). Exact for a
 * migration, which plans under the write lock; for a plan, as long as the
 * catalog keeps its fingerprint.
 */
static pier_status predict_ids(pier_engine *e, pier__plan *p, pier_error *err)
{
    int64_t table = 0, column = 0, board_column = 0;
    pier_status rc = next_id(e, "_pier_tables", &table, err);
    if (rc == PIER_OK)
        rc = next_id(e, "_pier_table_columns", &column, err);
    if (rc == PIER_OK)
        rc = next_id(e, "_pier_columns", &board_column, err);
    for (size_t i = 0; rc == PIER_OK && i < p->nsteps; i++) {
        pier__step *s = &p->steps[i];
        if (s->kind == PIER__STEP_CREATE_TABLE) {
            s->table_id = table++;
            column += (int64_t)s->table->ncolumns;
        } else if (s->kind == PIER__STEP_ADD_COLUMN &&
                   s->on == PIER__OBJ_TABLE) {
            s->column_id = column++;
        } else if (s->kind == PIER__STEP_CREATE_BOARD) {
            board_column += PIER__BASE_COLUMNS +
                            (int64_t)s->board->ncolumns;
        } else if (s->kind == PIER__STEP_ADD_COLUMN) {
            s->column_id = board_column++;
        }
    }
    return rc;
}

pier_status pier__migration_plan(pier_migration *m, pier_engine *e,
                                 const char *decl, size_t len,
                                 const pier_migrate_options *o,
                                 pier_error *err)
{
    pier_status rc = pier__schema_from_declaration(&m->want, decl, len, err);
    if (rc != PIER_OK)
        return rc;
    rc = pier__schema_from_lake(&m->live, e, err);
    if (rc != PIER_OK)
        return rc;
    snprintf(m->fingerprint, sizeof m->fingerprint, "%016" PRIx64,
             fingerprint(&m->live));
    if (o != NULL && o->expect != NULL &&
        strcmp(o->expect, m->fingerprint) != 0)
        return pier__fail(err, PIER_E_MIGRATION_CONFLICT,
                          "the lake's catalog is %s, not %s as expected: it "
                          "changed since that plan was made", m->fingerprint,
                          o->expect);
    pier__plan_options po = { o != NULL && o->allow_destructive,
                              o != NULL && o->schema_owns_database };
    /* Counts go into the messages of destructive plans: plan with
     * destruction allowed first, count, then judge. */
    pier__plan_options counting = po;
    counting.allow_destructive = true;
    rc = pier__plan_make(&m->plan, &m->live, &m->want, &counting, err);
    if (rc == PIER_OK && m->plan.ndestroys == 0)
        return predict_ids(e, &m->plan, err);
    if (rc != PIER_OK)
        return rc;
    rc = count_destroyed(e, &m->plan, err);
    if (rc != PIER_OK)
        return rc;
    /* the live model learns the counts, and the plan is made again */
    for (size_t i = 0; i < m->plan.nsteps; i++) {
        const pier__step *s = &m->plan.steps[i];
        for (size_t t = 0; t < m->live.ntables; t++)
            if (s->kind != PIER__STEP_DROP_BOARD &&
                pier__name_eq(m->live.tables[t].name,
                              strlen(m->live.tables[t].name), s->object,
                              strlen(s->object)))
                m->live.tables[t].rows = s->rows;
        for (size_t b = 0; b < m->live.nboards; b++)
            if (s->kind == PIER__STEP_DROP_BOARD &&
                strcmp(m->live.boards[b].id, s->object) == 0)
                m->live.boards[b].rows = s->rows;
    }
    pier__plan_free(&m->plan);
    rc = pier__plan_make(&m->plan, &m->live, &m->want, &po, err);
    return rc == PIER_OK ? predict_ids(e, &m->plan, err) : rc;
}

PIER_API pier_status pier_plan(pier_migration **out, pier_engine *engine,
                               const char *declaration, size_t len,
                               const pier_migrate_options *options,
                               pier_error *err)
{
    pier__error_clear(err);
    if (out == NULL || engine == NULL || (declaration == NULL && len > 0))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "pier_plan needs "
                          "an output, an engine and a declaration");
    if (pier__engine_embedded(engine, "migrations", err) != PIER_OK)
        return PIER_E_TOPOLOGY_UNSUPPORTED;
    *out = NULL;
    if (options != NULL && options->version != PIER_MIGRATE_OPTIONS_VERSION)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "pier_plan: "
                          "options version %u is not %u", options->version,
                          (unsigned)PIER_MIGRATE_OPTIONS_VERSION);
    pier_migration *m = pier__migration_new();
    if (m == NULL)
        return pier__oom(err);
    pier_status rc = pier__engine_begin(engine, false, err);
    if (rc == PIER_OK) {
        rc = pier__migration_plan(m, engine,
                                  declaration != NULL ? declaration : "",
                                  len, options, err);
        rc = pier__engine_end(engine, rc, err);
    }
    if (rc != PIER_OK) {
        pier_migration_free(m);
        return rc;
    }
    *out = m;
    return PIER_OK;
}

PIER_API const char *pier_migration_fingerprint(const pier_migration *m)
{
    return m != NULL ? m->fingerprint : "";
}

PIER_API size_t pier_migration_steps(const pier_migration *m)
{
    return m != NULL ? m->plan.nsteps : 0;
}

PIER_API void pier_migration_free(pier_migration *m)
{
    if (m == NULL)
        return;
    pier__plan_free(&m->plan);
    pier__schema_free(&m->want);
    pier__schema_free(&m->live);
    free(m);
}

/* ---- rendering ---- */

static const char *object_key(pier__object_kind on)
{
    switch (on) {
    case PIER__OBJ_TABLE: return "table";
    case PIER__OBJ_VIEW: return "view";
    case PIER__OBJ_INDEX: return "index";
    case PIER__OBJ_BOARD: return "board";
    }
    return "object";
}

/* Appends text from the declaration (an index's body, a literal, a type
 * with its labels) so that a step stays one line of text: control bytes
 * and bytes that are not UTF-8 as \n, \r, \t or \xNN. */
static void put_text(pier__buf *b, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t len = c >= 0x80 ? pier__utf8_seq(s + i, n - i) : 1;
        if (c >= 0x80 && len > 0) {
            pier__buf_append(b, s + i, len);
            i += len;
            continue;
        }
        if (c == '\n')
            pier__buf_puts(b, "\\n");
        else if (c == '\r')
            pier__buf_puts(b, "\\r");
        else if (c == '\t')
            pier__buf_puts(b, "\\t");
        else if (c < 0x20 || c == 0x7f || c >= 0x80)
            pier__buf_printf(b, "\\x%02X", c);
        else
            pier__buf_putc(b, (char)c);
        i++;
    }
}

static void columns(pier__buf *b, size_t n)
{
    pier__buf_printf(b, "%zu column%s", n, n == 1 ? "" : "s");
}

/* What a step does, after "object:" in its line of text. */
static void detail(pier__buf *b, const pier__step *s)
{
    const pier__mcolumn *c = s->def;
    switch (s->kind) {
    case PIER__STEP_RENAME_TABLE:
        pier__buf_printf(b, "renamed from %s", s->from);
        return;
    case PIER__STEP_RENAME_COLUMN:
        pier__buf_printf(b, "%s renamed from %s", s->column, s->from);
        return;
    case PIER__STEP_CREATE_TABLE:
        columns(b, s->table->ncolumns);
        return;
    case PIER__STEP_CREATE_BOARD:
        columns(b, s->board->ncolumns);
        if (s->board->strict)
            pier__buf_puts(b, ", strict");
        return;
    case PIER__STEP_CREATE_VIEW:
    case PIER__STEP_REPLACE_VIEW:
        columns(b, s->view->ncolumns);
        return;
    case PIER__STEP_ADD_COLUMN:
        pier__buf_printf(b, "%s ", s->column);
        if (s->bcol != NULL) {
            put_text(b, pier__type_name(s->bcol->type));
            return;
        }
        put_text(b, c->spelling);
        if (c->not_null)
            pier__buf_puts(b, " NOT NULL");
        if (c->backfill.sql != NULL || c->backfill.now) {
            pier__buf_puts(b, " BACKFILL ");
            put_text(b, c->backfill.now ? "now()" : c->backfill.sql);
        }
        if (c->dflt.sql != NULL || c->dflt.now) {
            pier__buf_puts(b, " DEFAULT ");
            put_text(b, c->dflt.now ? "now()" : c->dflt.sql);
        }
        return;
    case PIER__STEP_WIDEN_ENUM:
    case PIER__STEP_WIDEN_COLUMN:
        pier__buf_printf(b, "%s ", s->column);
        put_text(b, s->from);
        pier__buf_puts(b, " to ");
        put_text(b, s->to);
        if (s->rewrite)
            pier__buf_puts(b, " (rewrites every row)");
        return;
    case PIER__STEP_SET_DEFAULT:
        pier__buf_printf(b, "%s DEFAULT ", s->column);
        put_text(b, s->to);
        return;
    case PIER__STEP_DROP_COLUMN:
        pier__buf_printf(b, "%s (%" PRId64 " rows; rewrites every row)",
                         s->column, s->rows);
        return;
    case PIER__STEP_DROP_TABLE:
    case PIER__STEP_DROP_BOARD:
        pier__buf_printf(b, "%" PRId64 " rows", s->rows);
        return;
    case PIER__STEP_CREATE_INDEX:
    case PIER__STEP_REPLACE_INDEX:
        pier__buf_printf(b, "%son %s ", s->index->unique ? "unique, " : "",
                         s->index->table);
        put_text(b, s->index->body);
        return;
    default:
        if (s->column != NULL)
            pier__buf_puts(b, s->column);
        return;
    }
}

PIER_API char *pier_migration_to_text(const pier_migration *m)
{
    if (m == NULL)
        return NULL;
    pier__buf b;
    pier__buf_init(&b);
    for (size_t i = 0; i < m->plan.nsteps; i++) {
        const pier__step *s = &m->plan.steps[i];
        pier__buf_printf(&b, "%-11s  %-19s  %s: ",
                         pier__class_name(pier__step_class_of(s)),
                         pier__step_name(s->kind), s->object);
        size_t at = b.len;
        detail(&b, s);
        if (b.len == at && !b.oom)
            b.len -= 2;                 /* no detail: no ": " */
        pier__buf_putc(&b, '\n');
    }
    pier__buf_puts(&b, "");
    if (b.oom) {
        pier__buf_free(&b);
        return NULL;
    }
    return b.p != NULL ? b.p : pier__strdup("");
}

static bool put(json_t *o, const char *k, json_t *v)
{
    return v != NULL && json_object_set_new(o, k, v) == 0;
}

json_t *pier__step_json(const pier__step *s, const char *kind_key)
{
    json_t *o = json_object();
    bool ok = o != NULL &&
              put(o, kind_key, json_string(pier__step_name(s->kind))) &&
              put(o, "class", json_string(pier__class_name(
                                  pier__step_class_of(s)))) &&
              put(o, object_key(s->on), json_string(s->object));
    if (ok && s->column != NULL)
        ok = put(o, "column", json_string(s->column));
    if (ok && s->table_id != 0)
        ok = put(o, "table_id", json_integer(s->table_id));
    if (ok && s->column_id != 0)
        ok = put(o, "column_id", json_integer(s->column_id));
    if (ok && s->from != NULL)
        ok = put(o, "from", json_string(s->from));
    if (ok && s->to != NULL)
        ok = put(o, "to", json_string(s->to));
    if (ok && s->rows >= 0)
        ok = put(o, "rows", json_integer(s->rows));
    if (ok && s->rewrite)
        ok = put(o, "rewrite", json_true());
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

PIER_API char *pier_migration_to_json(const pier_migration *m)
{
    if (m == NULL)
        return NULL;
    json_t *root = json_object(), *steps = json_array(),
           *destroys = json_array();
    bool ok = root != NULL && steps != NULL && destroys != NULL;
    for (size_t i = 0; ok && i < m->plan.nsteps; i++)
        ok = json_array_append_new(steps, pier__step_json(
                                              &m->plan.steps[i], "step")) ==
             0;
    for (size_t i = 0; ok && i < m->plan.ndestroys; i++)
        ok = json_array_append_new(destroys,
                                   json_string(m->plan.destroys[i])) == 0;
    char *out = NULL;
    if (ok && put(root, "fingerprint", json_string(m->fingerprint)) &&
        json_object_set(root, "steps", steps) == 0 &&
        json_object_set(root, "destructive", destroys) == 0) {
        char *j = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
        out = j != NULL ? pier__strdup(j) : NULL;
        free(j);
    }
    json_decref(steps);
    json_decref(destroys);
    json_decref(root);
    return out;
}
