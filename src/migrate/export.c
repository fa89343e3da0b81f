/*
 * export.c: the lake's catalog as migrations see it, for people and
 * programs: pier_schema_export (a declaration that plans to zero steps
 * against the lake it came from) and pier_introspect (every object with
 * its ids, types, constraints, defaults, backfills, managed flags and
 * AUTOINCREMENT counters, as JSON).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine/engine.h"
#include "migrate/write.h"
#include "sql/dialect.h"

/* The live model of the lake, read in a read transaction; with
 * `triggers`, a comment naming each commit trigger, which a declaration
 * does not state. */
static pier_status read_live(pier__schema *s, pier_engine *e,
                             pier__buf *triggers, pier_error *err)
{
    pier__schema_init(s);
    pier_status rc = pier__engine_begin(e, false, err);
    if (rc != PIER_OK)
        return rc;
    rc = pier__schema_drift(e, err);
    if (rc == PIER_OK)
        rc = pier__schema_from_lake(s, e, err);
    for (size_t i = 0; rc == PIER_OK && triggers != NULL &&
                       i < e->catalog.ntriggers; i++) {
        pier__buf_puts(triggers, "\n-- commit trigger ");
        pier__sql_quote_ident(triggers, e->catalog.triggers[i]->name);
        pier__buf_puts(triggers, " is not stated here: a declaration holds "
                                 "no commit triggers (pier schema dump "
                                 "shows its SQL)\n");
    }
    return pier__engine_end(e, rc, err);
}

PIER_API pier_status pier_schema_export(char **out, pier_engine *engine,
                                        pier_error *err)
{
    pier__error_clear(err);
    if (out == NULL || engine == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "pier_schema_export "
                          "needs an engine and somewhere to put the text");
    if (pier__engine_embedded(engine, "declared tables", err) != PIER_OK)
        return PIER_E_TOPOLOGY_UNSUPPORTED;
    *out = NULL;
    pier__schema s;
    pier__buf triggers;
    pier__buf_init(&triggers);
    pier_status rc = read_live(&s, engine, &triggers, err);
    pier__buf b;
    pier__buf_init(&b);
    if (rc == PIER_OK) {
        pier__schema_write(&b, &s);
        if (triggers.len > 0)
            pier__buf_append(&b, triggers.p, triggers.len);
        b.oom |= triggers.oom;
    }
    pier__buf_free(&triggers);
    pier__schema_free(&s);
    if (rc == PIER_OK && b.oom)
        rc = pier__oom(err);
    if (rc == PIER_OK)
        *out = pier__buf_detach(&b);
    pier__buf_free(&b);
    return rc;
}

/* ---- introspection ---- */

static json_t *value_json(const pier__mvalue *v)
{
    if (v->now)
        return json_string("now()");
    return v->sql != NULL ? json_string(v->sql) : json_null();
}

static const char *action_name(pier__fk_action x)
{
    switch (x) {
    case PIER__FK_CASCADE: return "cascade";
    case PIER__FK_SET_NULL: return "set null";
    case PIER__FK_RESTRICT: return "restrict";
    }
    return "restrict";
}

static json_t *table_json(pier_engine *e, const pier__mtable *t,
                          pier_error *err, pier_status *rc)
{
    json_t *cols = json_array(), *keys = json_array(), *fks = json_array(),
           *checks = json_array();
    json_t *o = json_pack("{sssIsbsosososo}", "name", t->name, "id",
                          (json_int_t)t->id, "managed", t->managed,
                          "columns", cols, "keys", keys, "foreign_keys",
                          fks, "checks", checks);
    bool ok = o != NULL;
    for (size_t i = 0; ok && i < t->ncolumns; i++) {
        const pier__mcolumn *c = &t->columns[i];
        ok = json_array_append_new(cols, json_pack(
                 "{sIsssssbsososbsbsb}", "id", (json_int_t)c->id, "name",
                 c->name, "type", c->spelling, "nullable", !c->not_null,
                 "default", value_json(&c->dflt), "backfill",
                 value_json(&c->backfill), "readonly", c->readonly,
                 "autoincrement", c->autoincrement, "added", c->added)) == 0;
        if (ok && c->autoincrement) {
            int64_t seq = -1;
            *rc = e->lake->ops->sequence_get(e->lake, t->name, &seq, err);
            ok = *rc == PIER_OK &&
                 json_object_set_new(o, "autoincrement", json_pack(
                     "{sssI}", "column", c->name, "counter",
                     (json_int_t)(seq < 0 ? 0 : seq))) == 0;
        }
    }
    for (size_t k = 0; ok && k < t->nkeys; k++) {
        json_t *names = json_array();
        for (size_t c = 0; names != NULL && c < t->keys[k].ncolumns; c++)
            if (json_array_append_new(names, json_string(
                    t->columns[t->keys[k].columns[c]].name)) != 0) {
                json_decref(names);
                names = NULL;
            }
        ok = names != NULL &&
             json_array_append_new(keys, json_pack(
                 "{sosbso}", "name", t->keys[k].name != NULL
                     ? json_string(t->keys[k].name) : json_null(),
                 "primary", t->keys[k].primary, "columns", names)) == 0;
    }
    for (size_t f = 0; ok && f < t->nfks; f++) {
        const pier__mfk *fk = &t->fks[f];
        const char *column = t->columns[fk->column].name;
        pier__buf name;
        pier__buf_init(&name);
        if (fk->name != NULL)
            pier__buf_puts(&name, fk->name);
        else
            pier__buf_printf(&name, "%s_%s_fkey", t->name, column);
        ok = !name.oom &&
             json_array_append_new(fks, json_pack(
                 "{sssssssoss}", "name", name.p, "column", column,
                 "table", fk->table, "parent_column", fk->parent != NULL
                     ? json_string(fk->parent) : json_null(),
                 "on_delete", action_name(fk->on_delete))) == 0;
        pier__buf_free(&name);
    }
    for (size_t k = 0; ok && k < t->nchecks; k++)
        ok = json_array_append_new(checks, json_pack(
                 "{soss}", "name", t->checks[k].name != NULL
                     ? json_string(t->checks[k].name) : json_null(),
                 "expr", t->checks[k].expr)) == 0;
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *view_json(const pier__mview *v)
{
    json_t *cols = json_array();
    json_t *o = json_pack("{sssbsoss}", "name", v->name, "managed",
                          v->managed, "columns", cols, "sql", v->body);
    for (size_t i = 0; o != NULL && i < v->ncolumns; i++)
        if (json_array_append_new(cols, json_pack(
                "{ssss}", "name", v->columns[i].name, "type",
                v->columns[i].spelling)) != 0) {
            json_decref(o);
            o = NULL;
        }
    return o;
}

static json_t *index_json(const pier__mindex *x)
{
    return json_pack("{sssssbsbss}", "name", x->name, "table", x->table,
                     "unique", x->unique, "managed", x->managed, "sql",
                     x->body);
}

static const char *const origins[] = {
    [PIER_ORIGIN_BASE] = "base",
    [PIER_ORIGIN_DECLARED] = "declared",
    [PIER_ORIGIN_INFERRED] = "inferred",
};

static json_t *board_json(const pier__board *b, const pier__mboard *mb)
{
    json_t *cols = json_array();
    json_t *o = json_pack("{sssbsbso}", "name", b->id, "managed",
                          mb != NULL && mb->managed, "strict", b->strict,
                          "columns", cols);
    for (size_t i = 0; o != NULL && i < b->ncolumns; i++) {
        const pier__column *c = &b->columns[i];
        if (json_array_append_new(cols, json_pack(
                "{sIssssss}", "id", (json_int_t)c->id, "name", c->name,
                "type", pier__type_name(c->type), "origin",
                origins[c->origin])) != 0) {
            json_decref(o);
            o = NULL;
        }
    }
    return o;
}

/* The whole catalog as JSON, inside the engine's read transaction. */
static pier_status introspect(json_t *root, pier_engine *e,
                              const pier__schema *s, pier_error *err)
{
    json_t *tables = json_array(), *views = json_array(),
           *indexes = json_array(), *boards = json_array(),
           *opaque = json_array();
    bool ok = json_object_set_new(root, "tables", tables) == 0 &&
              json_object_set_new(root, "views", views) == 0 &&
              json_object_set_new(root, "indexes", indexes) == 0 &&
              json_object_set_new(root, "boards", boards) == 0 &&
              json_object_set_new(root, "opaque", opaque) == 0;
    pier_status rc = PIER_OK;
    for (size_t i = 0; ok && i < s->ntables; i++)
        ok = json_array_append_new(tables, table_json(e, &s->tables[i], err,
                                                      &rc)) == 0;
    if (rc != PIER_OK)
        return rc;
    for (size_t i = 0; ok && i < s->nviews; i++)
        ok = json_array_append_new(views, view_json(&s->views[i])) == 0;
    for (size_t i = 0; ok && i < s->nindexes; i++)
        ok = json_array_append_new(indexes,
                                   index_json(&s->indexes[i])) == 0;
    const pier__catalog *cat = &e->catalog;
    for (size_t i = 0; ok && i < cat->nboards; i++)
        ok = json_array_append_new(boards, board_json(
                 cat->boards[i], pier__schema_board(s, cat->boards[i]->id))) ==
             0;
    for (size_t i = 0; ok && i < s->nopaque; i++)
        ok = json_array_append_new(opaque, json_pack(
                 "{sssssb}", "name", s->opaque[i].name, "why",
                 s->opaque[i].why, "view", s->opaque[i].view)) == 0;
    return ok ? PIER_OK : pier__oom(err);
}

PIER_API pier_status pier_introspect(char **out, pier_engine *engine,
                                     pier_error *err)
{
    pier__error_clear(err);
    if (out == NULL || engine == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "pier_introspect "
                          "needs an engine and somewhere to put the JSON");
    if (pier__engine_embedded(engine, "declared tables", err) != PIER_OK)
        return PIER_E_TOPOLOGY_UNSUPPORTED;
    *out = NULL;
    pier__schema s;
    pier__schema_init(&s);
    json_t *root = json_object();
    if (root == NULL)
        return pier__oom(err);
    pier_status rc = pier__engine_begin(engine, false, err);
    if (rc == PIER_OK) {
        rc = pier__schema_drift(engine, err);
        if (rc == PIER_OK)
            rc = pier__schema_from_lake(&s, engine, err);
        if (rc == PIER_OK)
            rc = introspect(root, engine, &s, err);
        rc = pier__engine_end(engine, rc, err);
    }
    pier__schema_free(&s);
    if (rc == PIER_OK) {
        char *j = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
        *out = j != NULL ? pier__strdup(j) : NULL;
        free(j);
        if (*out == NULL)
            rc = pier__oom(err);
    }
    json_decref(root);
    return rc;
}
