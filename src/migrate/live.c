/*
 * live.c: the live catalog read into the migrations' model.
 *
 * The lake is written out as the declaration that states it, and that
 * text is read by the declaration reader (decl.c), so that the live model
 * and a declared one are built by one reader and compare field by field:
 * - a declared table: its columns from the catalog (names, canonical
 *   types, READONLY) with the constraints its SQL holds (sqlite_schema),
 *   less what Pier itself adds to a column there (the type's COLLATE and
 *   its _pier_fit check), and its table constraints;
 * - an index: its SQL as SQLite keeps it (a board's physical table read
 *   back as the board);
 * - a view made by a migration: its declared columns and its body;
 * - a board: its user columns and their types, STRICT.
 * Then ids, managed flags, and the declared defaults and backfills of
 * columns a migration made are put on the model from the catalog.
 *
 * A table whose SQL says what a declaration cannot (pier_exec takes
 * COLLATE, GENERATED columns, ON CONFLICT...) is tried alone first and, if
 * the reader refuses it, left out and listed as opaque with the reason;
 * so is a view pier_exec made, whose columns were never declared.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine/engine.h"
#include "migrate/schema.h"
#include "sql/lex.h"

/* The objects of the SQL schema, copied. */
typedef struct object {
    char *type, *name, *table, *sql;
} object;

/* What migrations keep, by id or name. */
typedef struct meta {
    pier__migrate_meta m;     /* strings copied */
} meta;

typedef struct loader {
    pier_engine *e;
    pier__arena arena;         /* the loader's own copies */
    object *objects;
    size_t nobjects, objects_cap;
    meta *metas;
    size_t nmetas, metas_cap;
    bool oom;
} loader;

static char *keep(loader *ld, const char *s)
{
    if (s == NULL)
        return NULL;
    char *c = pier__arena_strndup(&ld->arena, s, strlen(s));
    if (c == NULL)
        ld->oom = true;
    return c;
}

static int take_object(const pier__schema_object *o, void *payload)
{
    loader *ld = payload;
    ld->objects = pier__arena_grow(&ld->arena, ld->objects, ld->nobjects,
                                   &ld->objects_cap, sizeof *ld->objects);
    if (ld->objects == NULL) {
        ld->oom = true;
        return 1;
    }
    object *c = &ld->objects[ld->nobjects++];
    c->type = keep(ld, o->type != NULL ? o->type : "");
    c->name = keep(ld, o->name != NULL ? o->name : "");
    c->table = keep(ld, o->table != NULL ? o->table : "");
    c->sql = keep(ld, o->sql);
    return ld->oom ? 1 : 0;
}

static int take_meta(const pier__migrate_meta *m, void *payload)
{
    loader *ld = payload;
    ld->metas = pier__arena_grow(&ld->arena, ld->metas, ld->nmetas,
                                 &ld->metas_cap, sizeof *ld->metas);
    if (ld->metas == NULL) {
        ld->oom = true;
        return 1;
    }
    meta *c = &ld->metas[ld->nmetas++];
    c->m = *m;
    c->m.name = keep(ld, m->name);
    c->m.a = keep(ld, m->a);
    c->m.b = keep(ld, m->b);
    return ld->oom ? 1 : 0;
}

static bool same(const char *a, const char *b)
{
    return pier__name_eq(a, strlen(a), b, strlen(b));
}

static const object *find_object(const loader *ld, const char *type,
                                 const char *name)
{
    for (size_t i = 0; i < ld->nobjects; i++)
        if (strcmp(ld->objects[i].type, type) == 0 &&
            same(ld->objects[i].name, name))
            return &ld->objects[i];
    return NULL;
}

static const pier__migrate_meta *find_meta(const loader *ld,
                                           pier__meta_kind kind, int64_t id,
                                           const char *name)
{
    for (size_t i = 0; i < ld->nmetas; i++) {
        const pier__migrate_meta *m = &ld->metas[i].m;
        if (m->kind == kind &&
            (name != NULL ? m->name != NULL && same(m->name, name)
                          : m->id == id))
            return m;
    }
    return NULL;
}

/* ---- tables ---- */

/* The constraints of a column of type `type` as its SQL holds them, less
 * what Pier writes before them (exec.c, physical_column): the type's
 * COLLATE, if it has one, then its _pier_fit check, if it has one (a
 * column widened to a type that needs none, INT32 to INT64, keeps the
 * check it had, retyped). */
static const char *user_constraints(const char *c, const pier__coltype *type)
{
    size_t n = strlen(c), pos = 0;
    bool collate = pier__coltype_collation(type) != NULL;
    bool check = true;
    for (;;) {
        pier__token t, u;
        const char *why;
        if (pier__sql_token(c, n, pos, &t, &why) != PIER__TK_WORD)
            return c + pos;
        size_t len = t.end - t.start;
        if (collate && pier__name_eq(c + t.start, len, "collate", 7)) {
            if (pier__sql_token(c, n, t.end, &u, &why) == PIER__TK_END)
                return c + pos;
            pos = u.end;
            collate = false;
            continue;
        }
        if (!check || !pier__name_eq(c + t.start, len, "check", 5) ||
            pier__sql_token(c, n, t.end, &u, &why) != PIER__TK_LP)
            return c + pos;
        pier__token f;
        if (pier__sql_token(c, n, u.end, &f, &why) != PIER__TK_WORD ||
            !pier__name_eq(c + f.start, f.end - f.start, "_pier_fit", 9))
            return c + pos;
        /* to the ')' closing the check */
        size_t depth = 0, at = u.end;
        pier__token x;
        for (;;) {
            pier__tk k = pier__sql_token(c, n, at, &x, &why);
            if (k == PIER__TK_END || k == PIER__TK_BAD)
                return c + pos;
            at = x.end;
            if (k == PIER__TK_LP)
                depth++;
            else if (k == PIER__TK_RP && depth-- == 0)
                break;
        }
        pos = at;
        check = false;
    }
}

/* Appends the declaration of catalog table t (its SQL `sql`), or sets
 * *why to why it cannot be stated. */
static pier_status table_text(pier__buf *b, const pier__table *t,
                              const char *sql, const char **why_out,
                              pier_error *err)
{
    *why_out = NULL;
    if (sql == NULL) {
        *why_out = "its SQL is missing";
        return PIER_OK;
    }
    pier__sql_script script;
    pier_status prc = pier__sql_parse(&script, sql, strlen(sql), NULL);
    if (prc == PIER_E_OUT_OF_MEMORY) {
        pier__sql_script_free(&script);
        return pier__oom(err);
    }
    if (prc != PIER_OK || script.nstmts != 1 ||
        script.stmts[0].create == NULL) {
        pier__sql_script_free(&script);
        *why_out = "its SQL does not read as CREATE TABLE";
        return PIER_OK;
    }
    const pier__sql_table *phys = script.stmts[0].create;
    const char *why = NULL;
    pier__buf_puts(b, "CREATE TABLE ");
    pier__sql_quote_ident(b, t->name);
    pier__buf_puts(b, " (");
    for (size_t i = 0; why == NULL && i < t->ncolumns; i++) {
        const pier__tcolumn *col = &t->columns[i];
        const pier__sql_column *pc = NULL;
        for (size_t k = 0; pc == NULL && k < phys->ncolumns; k++)
            if (same(phys->columns[k].name, col->name))
                pc = &phys->columns[k];
        if (pc == NULL) {
            why = "a column of the catalog is not in its SQL";
            break;
        }
        if (i > 0)
            pier__buf_puts(b, ", ");
        pier__sql_quote_ident(b, col->name);
        pier__buf_printf(b, " %s", col->spelling);
        if (col->readonly)
            pier__buf_puts(b, " READONLY");
        const char *user = user_constraints(pc->constraints, &col->type);
        if (*user != '\0')
            pier__buf_printf(b, " %s", user);
    }
    if (why == NULL && phys->constraints[0] != '\0')
        pier__buf_printf(b, ", %s", phys->constraints);
    pier__buf_puts(b, ");\n");
    pier__sql_script_free(&script);
    *why_out = why;
    return b->oom ? pier__oom(err) : PIER_OK;
}

/* Whether `text` reads as a declaration (*ok); if not, why (in `why`). */
static pier_status readable(const char *text, size_t len, bool *ok,
                            char *why, size_t cap, pier_error *err)
{
    pier__schema s;
    pier_error perr;
    pier_status rc = pier__schema_from_declaration(&s, text, len, &perr);
    pier__schema_free(&s);
    *ok = rc == PIER_OK;
    if (rc == PIER_E_OUT_OF_MEMORY)
        return pier__oom(err);
    if (!*ok)
        pier__copy_field(why, cap, perr.message);
    return PIER_OK;
}

/* ---- views, indexes, boards ---- */

/* The body of CREATE VIEW's SQL: what follows its AS. */
static const char *view_body(const char *sql)
{
    size_t n = strlen(sql), pos = 0, depth = 0;
    for (;;) {
        pier__token t;
        const char *why;
        pier__tk k = pier__sql_token(sql, n, pos, &t, &why);
        if (k == PIER__TK_END || k == PIER__TK_BAD)
            return NULL;
        pos = t.end;
        if (k == PIER__TK_LP)
            depth++;
        else if (k == PIER__TK_RP && depth > 0)
            depth--;
        else if (k == PIER__TK_WORD && depth == 0 &&
                 pier__name_eq(sql + t.start, t.end - t.start, "as", 2)) {
            pier__token u;
            if (pier__sql_token(sql, n, pos, &u, &why) != PIER__TK_WORD)
                return NULL;
            return sql + u.start;
        }
    }
}

/* Appends CREATE VIEW with the declared columns `cols` (JSON
 * [[name, type], ...]); false if they do not read. */
static bool view_text(pier__buf *b, const object *o, const char *cols)
{
    const char *body = view_body(o->sql != NULL ? o->sql : "");
    json_error_t je;
    json_t *list = json_loads(cols, 0, &je);
    bool ok = body != NULL && json_is_array(list) &&
              json_array_size(list) > 0;
    for (size_t i = 0; ok && i < json_array_size(list); i++) {
        json_t *pair = json_array_get(list, i);
        ok = json_is_array(pair) && json_array_size(pair) == 2 &&
             json_is_string(json_array_get(pair, 0)) &&
             json_is_string(json_array_get(pair, 1));
    }
    if (ok) {
        pier__buf_puts(b, "CREATE VIEW ");
        pier__sql_quote_ident(b, o->name);
        pier__buf_puts(b, " (");
        for (size_t i = 0; i < json_array_size(list); i++) {
            json_t *pair = json_array_get(list, i);
            if (i > 0)
                pier__buf_puts(b, ", ");
            pier__sql_quote_ident(b,
                                  json_string_value(json_array_get(pair, 0)));
            pier__buf_printf(b, " %s",
                             json_string_value(json_array_get(pair, 1)));
        }
        pier__buf_printf(b, ") AS %s;\n", body);
    }
    json_decref(list);
    return ok;
}

/* Appends a board as CREATE BOARD. */
static void board_text(pier__buf *b, const pier__board *bd)
{
    pier__buf_printf(b, "CREATE BOARD %s", bd->id);
    if (bd->ncolumns > PIER__BASE_COLUMNS) {
        pier__buf_puts(b, " (");
        for (size_t i = PIER__BASE_COLUMNS; i < bd->ncolumns; i++) {
            if (i > PIER__BASE_COLUMNS)
                pier__buf_puts(b, ", ");
            pier__sql_quote_ident(b, bd->columns[i].name);
            pier__buf_printf(b, " %s", pier__type_name(bd->columns[i].type));
        }
        pier__buf_puts(b, ")");
    }
    pier__buf_puts(b, bd->strict ? " STRICT;\n" : ";\n");
}

/* ---- putting it together ---- */

static bool add_opaque(pier__schema *s, size_t *cap, const char *name,
                       const char *why, bool view)
{
    s->opaque = pier__arena_grow(&s->arena, s->opaque, s->nopaque, cap,
                                 sizeof *s->opaque);
    if (s->opaque == NULL)
        return false;
    pier__mopaque *o = &s->opaque[s->nopaque++];
    o->name = pier__arena_strndup(&s->arena, name, strlen(name));
    o->why = pier__arena_strndup(&s->arena, why, strlen(why));
    o->view = view;
    return o->name != NULL && o->why != NULL;
}

/* A value kept in the catalog (an SQL literal, or now()) into *v. */
static bool kept_value(pier__schema *s, const char *text, pier__mvalue *v)
{
    *v = (pier__mvalue){ NULL, false };
    if (text == NULL)
        return true;
    if (strcmp(text, "now()") == 0) {
        v->now = true;
        return true;
    }
    if (pier__name_eq(text, strlen(text), "NULL", 4))
        return true;            /* a NULL default is none */
    v->sql = pier__arena_strndup(&s->arena, text, strlen(text));
    return v->sql != NULL;
}

/* Ids, managed flags, declared defaults and backfills, onto the model. */
static pier_status decorate(const loader *ld, pier__schema *s,
                            pier_error *err)
{
    const pier__catalog *cat = &ld->e->catalog;
    for (size_t i = 0; i < s->ntables; i++) {
        pier__mtable *t = &s->tables[i];
        const pier__table *ct = pier__catalog_find_table(cat, t->name);
        if (ct == NULL || ct->ncolumns != t->ncolumns)
            return pier__fail(err, PIER_E_LAKE_UNAVAILABLE, "the catalog "
                              "entry of table '%s' is damaged: its columns "
                              "do not match its SQL", t->name);
        t->id = ct->id;
        const pier__migrate_meta *tm = find_meta(ld, PIER__META_TABLE,
                                                 ct->id, NULL);
        t->managed = tm != NULL && tm->flag;
        for (size_t c = 0; c < t->ncolumns; c++) {
            pier__mcolumn *col = &t->columns[c];
            col->id = ct->columns[c].id;
            const pier__migrate_meta *cm = find_meta(ld, PIER__META_COLUMN,
                                                     col->id, NULL);
            if (cm == NULL || !cm->flag)
                continue;
            col->added = cm->added;
            if (!kept_value(s, cm->a, &col->dflt) ||
                !kept_value(s, cm->b, &col->backfill))
                return pier__oom(err);
        }
    }
    for (size_t i = 0; i < s->nviews; i++)
        s->views[i].managed = true;     /* only a migration declares one */
    for (size_t i = 0; i < s->nindexes; i++) {
        pier__mindex *x = &s->indexes[i];
        const pier__migrate_meta *im = find_meta(ld, PIER__META_INDEX, 0,
                                                 x->name);
        x->managed = im != NULL && im->flag;
        if (strncmp(x->table, "_pier_b_", 8) == 0)
            x->table += 8;              /* a board's table: the board */
    }
    for (size_t i = 0; i < s->nboards; i++) {
        const pier__migrate_meta *bm = find_meta(ld, PIER__META_BOARD, 0,
                                                 s->boards[i].id);
        s->boards[i].managed = bm != NULL && bm->flag;
    }
    return PIER_OK;
}

pier_status pier__schema_from_lake(pier__schema *out, pier_engine *e,
                                   pier_error *err)
{
    pier__schema_init(out);
    loader ld;
    memset(&ld, 0, sizeof ld);
    ld.e = e;
    pier__arena_init(&ld.arena);
    pier__buf text, one;
    pier__buf_init(&text);
    pier__buf_init(&one);
    pier__schema opaque;                /* the opaque list, kept aside */
    pier__schema_init(&opaque);
    size_t opaque_cap = 0;
    const pier__lake_ops *ops = e->lake->ops;
    pier_status rc = ops->schema_objects(e->lake, take_object, &ld, err);
    if (rc == PIER_OK)      /* a board's indexes, on its physical table */
        rc = ops->board_indexes(e->lake, take_object, &ld, err);
    if (rc == PIER_OK)
        rc = ops->migrate_meta(e->lake, take_meta, &ld, err);
    if (rc == PIER_OK && ld.oom)
        rc = pier__oom(err);
    char why[256];
    const pier__catalog *cat = &e->catalog;
    for (size_t i = 0; rc == PIER_OK && i < cat->ntables; i++) {
        const pier__table *t = cat->tables[i];
        const object *o = find_object(&ld, "table", t->name);
        pier__buf_reset(&one);
        const char *cannot = NULL;
        bool ok = false;
        rc = table_text(&one, t, o != NULL ? o->sql : NULL, &cannot, err);
        if (rc == PIER_OK && cannot == NULL)
            rc = readable(one.p, one.len, &ok, why, sizeof why, err);
        if (rc != PIER_OK)
            break;
        if (ok)
            pier__buf_append(&text, one.p, one.len);
        else if (!add_opaque(&opaque, &opaque_cap, t->name,
                             cannot != NULL ? cannot : why, false))
            rc = pier__oom(err);
    }
    for (size_t i = 0; rc == PIER_OK && i < ld.nobjects; i++) {
        const object *o = &ld.objects[i];
        if (strcmp(o->type, "index") == 0 && o->sql != NULL) {
            pier__buf_printf(&text, "%s;\n", o->sql);
        } else if (strcmp(o->type, "view") == 0) {
            const pier__migrate_meta *vm = find_meta(&ld, PIER__META_VIEW, 0,
                                                     o->name);
            pier__buf_reset(&one);
            bool stated = vm != NULL && vm->a != NULL &&
                          view_text(&one, o, vm->a);
            if (one.oom)
                rc = pier__oom(err);
            if (rc == PIER_OK && stated)
                rc = readable(one.p, one.len, &stated, why, sizeof why,
                              err);
            if (rc != PIER_OK)
                break;
            if (stated)
                pier__buf_append(&text, one.p, one.len);
            else if (!add_opaque(&opaque, &opaque_cap, o->name,
                                 "a view made by pier sql, whose columns "
                                 "were never declared", true))
                rc = pier__oom(err);
        }
    }
    for (size_t i = 0; rc == PIER_OK && i < cat->nboards; i++)
        board_text(&text, cat->boards[i]);
    if (rc == PIER_OK && text.oom)
        rc = pier__oom(err);
    if (rc == PIER_OK) {
        pier_error perr;
        rc = pier__schema_from_declaration(out, text.p != NULL ? text.p : "",
                                           text.len, &perr);
        if (rc == PIER_E_OUT_OF_MEMORY)
            rc = pier__oom(err);
        else if (rc != PIER_OK)
            rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE, "the catalog does "
                            "not read as a declaration: %s", perr.message);
    }
    if (rc == PIER_OK)
        rc = decorate(&ld, out, err);
    /* the opaque list moves into the model's arena */
    size_t cap = 0;
    for (size_t i = 0; rc == PIER_OK && i < opaque.nopaque; i++)
        if (!add_opaque(out, &cap, opaque.opaque[i].name,
                        opaque.opaque[i].why, opaque.opaque[i].view))
            rc = pier__oom(err);
    pier__schema_free(&opaque);
    pier__buf_free(&text);
    pier__buf_free(&one);
    pier__arena_free(&ld.arena);
    if (rc != PIER_OK)
        pier__schema_free(out);
    return rc;
}
