/*
 * apply.c: pier_migrate: a plan made and applied in one write transaction
 * of the engine.
 *
 * The plan is made under the write lock, against the catalog as it is
 * then, so that two migrators never interleave: the second plans on what
 * the first made. Each step becomes statements of the dialect run as
 * pier_exec would (pier__exec_in_write: tables, views, indexes, boards,
 * renames and drops keep the catalog as pier sql keeps it), or an edit of
 * a table's SQL (pier__fit_retype, schema_sql_set) for what the stored
 * records do not see; then what migrations keep beside the SQL is
 * recorded (managed flags, declared defaults and backfills, a view's
 * declared columns), and the step's change record appended. Any failure
 * rolls the whole migration back.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine/engine.h"
#include "migrate/edit.h"
#include "migrate/migration.h"
#include "migrate/write.h"
#include "sql/dialect.h"
#include "sql/lex.h"
#include "types/codecs.h"
#include "types/spelling.h"

typedef struct applier {
    pier_engine *e;
    const pier__lake_ops *ops;
    bool catalog_changed;
    pier_error *err;
    const pier__schema *live;  /* the catalog the plan was made against */
    const pier__schema *want;  /* the declaration it makes the lake */
} applier;

/* A step whose table's SQL does not define its column as the step needs
 * (a table pier sql made with clauses Pier did not write, or edited
 * outside Pier): refused, naming it, nothing applied. */
static pier_status unappliable(applier *a, const pier__step *s)
{
    return pier__fail(a->err, PIER_E_MIGRATION_REFUSED, "step %s of %s "
                      "'%s'%s%s cannot be applied: the table's SQL does not "
                      "define the column as the step needs",
                      pier__step_name(s->kind),
                      s->on == PIER__OBJ_BOARD ? "board" : "table",
                      s->object, s->column != NULL ? ", column " : "",
                      s->column != NULL ? s->column : "");
}

static pier_status run(applier *a, const pier__buf *sql)
{
    if (sql->oom)
        return pier__oom(a->err);
    return pier__exec_in_write(a->e, sql->p, &a->catalog_changed, a->err);
}

/* After DDL the engine made itself (not through the dialect): the SQL
 * schema is remembered as Pier's, and the catalog version moves so that
 * every engine reads the catalog again. */
static pier_status schema_changed(applier *a)
{
    pier_status rc = a->ops->schema_remember(a->e->lake, a->err);
    if (rc == PIER_OK) {
        int64_t version;
        rc = a->ops->catalog_bump(a->e->lake, &version, a->err);
        a->catalog_changed = true;
    }
    return rc;
}

/* Room for a frozen now(): a quoted INSTANT, the longest. */
#define FROZEN_BUF (PIER__TIMESTAMP_BUF + 4)

/* The SQL literal a value is physically: as declared, or now() frozen to
 * the instant the migration runs, as the column's type (into `frozen`).
 * NULL for a value that is none. */
static const char *literal(applier *a, const pier__mcolumn *c,
                           const pier__mvalue *v, char frozen[FROZEN_BUF])
{
    if (!v->now)
        return v->sql;
    int64_t us = pier__engine_now(a->e);
    const int64_t day = INT64_C(86400000000);
    int64_t days = us / day, in_day = us % day;
    if (in_day < 0) {
        days--;
        in_day += day;
    }
    char text[PIER__TIMESTAMP_BUF];
    switch (c->type.t.base) {
    case PIER__B_INSTANT: pier__timestamp_format(us, text); break;
    case PIER__B_DATE: pier__date_format((int32_t)days, text); break;
    case PIER__B_DATETIME: pier__datetime_format(us, text); break;
    case PIER__B_TIME: pier__time_format(in_day, text); break;
    default: return NULL;       /* the declaration allows none other */
    }
    snprintf(frozen, FROZEN_BUF, "'%s'", text);
    return frozen;
}

/* ---- tables ---- */

static const pier__mkey *single_primary(const pier__mtable *t)
{
    for (size_t k = 0; k < t->nkeys; k++)
        if (t->keys[k].primary && t->keys[k].ncolumns == 1)
            return &t->keys[k];
    return NULL;
}

/* What migrations keep of a table and its columns. */
static pier_status keep_table(applier *a, const pier__mtable *w)
{
    const pier__table *t = pier__catalog_find_table(&a->e->catalog, w->name);
    if (t == NULL || t->ncolumns != w->ncolumns)
        return pier__fail(a->err, PIER_E_WRITE_FAILED, "table '%s' is not "
                          "as the migration made it", w->name);
    pier__migrate_meta m = { .kind = PIER__META_TABLE, .id = t->id,
                             .flag = true };
    pier_status rc = a->ops->migrate_meta_put(a->e->lake, &m, false, a->err);
    for (size_t i = 0; rc == PIER_OK && i < w->ncolumns; i++) {
        const pier__mcolumn *c = &w->columns[i];
        char frozen[FROZEN_BUF];
        pier__migrate_meta cm = { .kind = PIER__META_COLUMN,
                                  .id = t->columns[i].id,
                                  .a = c->dflt.now ? "now()" : c->dflt.sql,
                                  .b = literal(a, c, &c->backfill, frozen),
                                  .flag = true };
        if (rc == PIER_OK)
            rc = a->ops->migrate_meta_put(a->e->lake, &cm, false, a->err);
    }
    return rc;
}

static pier_status create_table(applier *a, const pier__mtable *w)
{
    pier__buf b;
    pier__buf_init(&b);
    pier__mtable_write(&b, w, false, " ");
    pier_status rc = run(a, &b);
    pier__buf_free(&b);
    return rc == PIER_OK ? keep_table(a, w) : rc;
}

/*
 * A column added to a table that may hold rows: its SQL's default is its
 * backfill (none for a nullable column), what the rows stored before it
 * read; its declared default is kept in the catalog, which pier_exec
 * fills into an INSERT that omits the column (the column's fill).
 */
static pier_status add_column(applier *a, const pier__step *s)
{
    const pier__mtable *w = s->table;
    const pier__mcolumn *c = s->def;
    size_t i = (size_t)(c - w->columns);
    bool backfill = c->backfill.sql != NULL || c->backfill.now;
    bool dflt = c->dflt.sql != NULL || c->dflt.now;
    /* the backfill is frozen: now() is the migration's instant */
    char frozen[FROZEN_BUF];
    const char *physical = literal(a, c, &c->backfill, frozen);
    pier_status rc = PIER_OK;
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_puts(&b, "ALTER TABLE ");
    pier__sql_quote_ident(&b, s->object);
    pier__buf_puts(&b, " ADD COLUMN ");
    pier__mcolumn_write(&b, w, i, physical, false);
    if (rc == PIER_OK)
        rc = run(a, &b);
    pier__buf_free(&b);
    const pier__table *t = pier__catalog_find_table(&a->e->catalog,
                                                    s->object);
    if (rc == PIER_OK && t != NULL && (backfill || dflt)) {
        pier__migrate_meta cm = { .kind = PIER__META_COLUMN,
                                  .id = t->columns[t->ncolumns - 1].id,
                                  .a = c->dflt.now ? "now()" : c->dflt.sql,
                                  .b = physical, .flag = true,
                                  .added = true };
        if (rc == PIER_OK)
            rc = a->ops->migrate_meta_put(a->e->lake, &cm, false, a->err);
        /* the column's fill is read with the catalog */
        if (rc == PIER_OK && dflt)
            rc = schema_changed(a);
    }
    return rc;
}

/* A widening of a table's column: its value check retyped in the table's
 * SQL and its type in the catalog, no row touched. */
static pier_status retype(applier *a, const pier__step *s);
static pier_status put_sql(applier *a, const char *table,
                           const pier__buf *edited);

/* ---- views, indexes, boards ---- */

static pier_status view_columns_json(const pier__mview *v, char **out)
{
    json_t *list = json_array();
    bool ok = list != NULL;
    for (size_t i = 0; ok && i < v->ncolumns; i++)
        ok = json_array_append_new(list, json_pack("[ss]",
                                                   v->columns[i].name,
                                                   v->columns[i].spelling))
             == 0;
    *out = ok ? json_dumps(list, JSON_COMPACT) : NULL;
    json_decref(list);
    return *out != NULL ? PIER_OK : PIER_E_OUT_OF_MEMORY;
}

/* The type of the declared table column a view's column is read straight
 * from (*spelling NULL: computed, or not known): as the declaration
 * states it when it states the table (the catalog cached in the engine
 * does not see a widening this migration made), else the catalog's. */
static const pier__coltype *origin(const applier *a, const char *table,
                                   const char *column, const char **spelling)
{
    *spelling = NULL;
    if (table == NULL || column == NULL)
        return NULL;
    const pier__mtable *w = a->want != NULL
                                ? pier__schema_table(a->want, table)
                                : NULL;
    ptrdiff_t k = w != NULL ? pier__mtable_column(w, column) : -1;
    if (k >= 0) {
        *spelling = w->columns[k].spelling;
        return &w->columns[k].type;
    }
    const pier__table *t = pier__catalog_find_table(&a->e->catalog, table);
    k = t != NULL ? pier__table_find(t, column) : -1;
    if (k < 0)
        return NULL;
    *spelling = t->columns[k].spelling;
    return &t->columns[k].type;
}

/* What the view's body produces against what is declared, before the view
 * is made: as many columns, and a column read straight from a declared
 * table's column of the declared type (a computed column's type is its
 * values'). */
static pier_status verify_view(applier *a, const pier__mview *v)
{
    pier__buf q;
    pier__buf_init(&q);
    pier__buf_printf(&q, "SELECT * FROM (%s)", v->body);
    if (q.oom) {
        pier__buf_free(&q);
        return pier__oom(a->err);
    }
    pier__stmt_shape shape;
    pier_status rc = a->ops->stmt_prepare(a->e->lake, q.p, q.len, false,
                                          &shape, a->err);
    pier__buf_free(&q);
    if (rc != PIER_OK)
        return rc;
    if (shape.ncolumns != v->ncolumns)
        rc = pier__fail(a->err, PIER_E_VIEW_MISMATCH, "view '%s' is "
                        "declared with %zu columns, and its body produces "
                        "%zu", v->name, v->ncolumns, shape.ncolumns);
    /* the declared type is the column's, or one its values all fit */
    for (size_t i = 0; rc == PIER_OK && i < v->ncolumns; i++) {
        const char *spelling;
        const pier__coltype *got = origin(a, shape.tables[i],
                                          shape.columns[i], &spelling);
        bool enum_step;
        if (got != NULL &&
            strcmp(spelling, v->columns[i].spelling) != 0 &&
            !pier__coltype_widens(got, &v->columns[i].type, &enum_step))
            rc = pier__fail(a->err, PIER_E_VIEW_MISMATCH, "column '%s' of "
                            "view '%s' is declared %s, and its body reads "
                            "it from %s.%s, which is %s", v->columns[i].name,
                            v->name, v->columns[i].spelling,
                            shape.tables[i], shape.columns[i],
                            spelling);
    }
    a->ops->stmt_finish(a->e->lake);
    return rc;
}

static pier_status create_view(applier *a, const pier__mview *v, bool replace)
{
    pier__buf b;
    pier__buf_init(&b);
    if (replace) {
        pier__buf_puts(&b, "DROP VIEW ");
        pier__sql_quote_ident(&b, v->name);
        pier__buf_puts(&b, "; ");
    }
    pier__buf_puts(&b, "CREATE VIEW ");
    pier__sql_quote_ident(&b, v->name);
    pier__buf_puts(&b, " (");
    for (size_t i = 0; i < v->ncolumns; i++) {
        if (i > 0)
            pier__buf_puts(&b, ", ");
        pier__sql_quote_ident(&b, v->columns[i].name);
    }
    pier__buf_printf(&b, ") AS %s", v->body);
    pier_status rc = verify_view(a, v);
    if (rc == PIER_OK)
        rc = run(a, &b);
    pier__buf_free(&b);
    char *cols = NULL;
    if (rc == PIER_OK && view_columns_json(v, &cols) != PIER_OK)
        rc = pier__oom(a->err);
    pier__migrate_meta m = { .kind = PIER__META_VIEW, .name = v->name,
                             .a = cols, .flag = true };
    if (rc == PIER_OK)
        rc = a->ops->migrate_meta_put(a->e->lake, &m, false, a->err);
    free(cols);
    return rc;
}

/*
 * The proof of a unique index on a table that may hold rows, before it is
 * built: no two rows (where its WHERE holds) share its values, nulls
 * being distinct as in the index. Its body is "(e1, e2 [ASC|DESC], ...)
 * [WHERE cond]"; the proof groups by the expressions, ordering words left
 * out. A failure is ProofFailed with the count and up to five values.
 */
static pier_status unique_proof(applier *a, const pier__mindex *x)
{
    const char *body = x->body;
    size_t n = strlen(body), pos = 0, depth = 0, from = 0, last_end = 0;
    const char *list[64];
    size_t count = 0;
    char *copies[64];
    const char *where = NULL;
    bool ok = true;
    for (;;) {
        pier__token t, u;
        const char *why;
        pier__tk k = pier__sql_token(body, n, pos, &t, &why);
        if (k == PIER__TK_END || k == PIER__TK_BAD)
            break;
        pos = t.end;
        if (k == PIER__TK_LP && depth++ == 0) {
            from = t.end;
            last_end = t.end;
            continue;
        }
        bool closes = k == PIER__TK_RP && depth == 1;
        if ((k == PIER__TK_COMMA && depth == 1) || closes) {
            if (count == sizeof list / sizeof list[0]) {
                ok = false;
                break;
            }
            copies[count] = pier__strndup(body + from, last_end - from);
            if (copies[count] == NULL) {
                ok = false;
                break;
            }
            list[count] = copies[count];
            count++;
            from = t.end;
            if (closes) {
                depth = 0;
                if (pier__sql_token(body, n, pos, &u, &why) ==
                        PIER__TK_WORD &&
                    pier__name_eq(body + u.start, u.end - u.start, "where",
                                  5))
                    where = body + u.end;
                break;
            }
            continue;
        }
        if (k == PIER__TK_RP)
            depth--;
        /* ASC and DESC order the index; they do not group */
        if (!(depth == 1 && k == PIER__TK_WORD &&
              (pier__name_eq(body + t.start, t.end - t.start, "asc", 3) ||
               pier__name_eq(body + t.start, t.end - t.start, "desc", 4))))
            last_end = t.end;
    }
    pier_status rc = PIER_OK;
    int64_t dups = 0;
    pier__buf keys;
    pier__buf_init(&keys);
    if (!ok)
        rc = pier__oom(a->err);
    else if (count > 0)
        rc = a->ops->duplicate_witnesses(a->e->lake, x->table, list, count,
                                         where, &dups, &keys, a->err);
    if (rc == PIER_OK && dups > 0)
        rc = pier__fail(a->err, PIER_E_PROOF_FAILED, "unique index '%s' "
                        "cannot be made on table '%s': %lld rows share "
                        "their values with another (%s)", x->name,
                        x->table, (long long)dups,
                        keys.p != NULL ? keys.p : "");
    pier__buf_free(&keys);
    for (size_t i = 0; i < count; i++)
        free(copies[i]);
    return rc;
}

static pier_status create_index(applier *a, const pier__mindex *x,
                                bool replace)
{
    pier__buf b;
    pier__buf_init(&b);
    bool board = pier__catalog_find(&a->e->catalog, x->table) != NULL &&
                 pier__catalog_find_table(&a->e->catalog, x->table) == NULL;
    if (replace) {
        pier__buf_puts(&b, "DROP INDEX ");
        pier__sql_quote_ident(&b, x->name);
        pier__buf_puts(&b, "; ");
    }
    pier__buf_printf(&b, "CREATE %sINDEX ", x->unique ? "UNIQUE " : "");
    pier__sql_quote_ident(&b, x->name);
    pier__buf_puts(&b, " ON ");
    if (board) {
        char phys[80];
        snprintf(phys, sizeof phys, "_pier_b_%s", x->table);
        pier__sql_quote_ident(&b, phys);
    } else {
        pier__sql_quote_ident(&b, x->table);
    }
    pier__buf_printf(&b, " %s", x->body);
    pier_status rc = PIER_OK;
    if (x->unique && !board)
        rc = unique_proof(a, x);
    if (rc != PIER_OK) {
        /* refused before anything is built */
    } else if (b.oom) {
        rc = pier__oom(a->err);
    } else if (board) {
        /* A board's table is the engine's: the dialect does not reach it. */
        rc = a->ops->ddl(a->e->lake, b.p, a->err);
        if (rc == PIER_OK)
            rc = schema_changed(a);
    } else {
        rc = run(a, &b);
    }
    pier__buf_free(&b);
    pier__migrate_meta m = { .kind = PIER__META_INDEX, .name = x->name,
                             .flag = true };
    if (rc == PIER_OK)
        rc = a->ops->migrate_meta_put(a->e->lake, &m, false, a->err);
    return rc;
}

static pier_status create_board(applier *a, const pier__mboard *bd)
{
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_printf(&b, "CREATE BOARD %s", bd->id);
    if (bd->ncolumns > 0) {
        pier__buf_puts(&b, " (");
        for (size_t i = 0; i < bd->ncolumns; i++) {
            if (i > 0)
                pier__buf_puts(&b, ", ");
            pier__sql_quote_ident(&b, bd->columns[i].name);
            pier__buf_printf(&b, " %s",
                             pier__type_name(bd->columns[i].type));
        }
        pier__buf_putc(&b, ')');
    }
    if (bd->strict)
        pier__buf_puts(&b, " STRICT");
    pier_status rc = run(a, &b);
    pier__buf_free(&b);
    pier__migrate_meta m = { .kind = PIER__META_BOARD, .name = bd->id,
                             .flag = true };
    if (rc == PIER_OK)
        rc = a->ops->migrate_meta_put(a->e->lake, &m, false, a->err);
    return rc;
}

/* A board's column added or widened, or the board dropped, as the board
 * API does it, inside the migration's write: each with its change record. */
static pier_status board_step(applier *a, const pier__step *s)
{
    pier__write w;
    pier_status rc = pier__write_join(&w, a->e, a->err);
    if (rc != PIER_OK)
        return rc;
    a->catalog_changed = true;
    if (s->kind == PIER__STEP_ADD_COLUMN)
        rc = pier__board_add_column_in(&w, s->object, s->column,
                                       pier__type_name(s->bcol->type),
                                       a->err);
    else if (s->kind == PIER__STEP_WIDEN_COLUMN)
        rc = pier__board_widen_column_in(&w, s->object, s->column, s->to,
                                         a->err);
    else
        rc = pier__board_drop_in(&w, s->object, a->err);
    return rc;
}

/* DROP kind "name", and what migrations kept of it. */
static pier_status drop(applier *a, const char *kind, const char *name,
                        pier__meta_kind meta)
{
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_printf(&b, "DROP %s ", kind);
    pier__sql_quote_ident(&b, name);
    pier_status rc = run(a, &b);
    pier__buf_free(&b);
    pier__migrate_meta m = { .kind = meta, .name = name };
    if (rc == PIER_OK &&
        (meta == PIER__META_VIEW || meta == PIER__META_INDEX))
        rc = a->ops->migrate_meta_put(a->e->lake, &m, true, a->err);
    return rc;
}

/* DROP INDEX: a board's through the lake (the dialect does not reach a
 * board's table), a table's as any drop. */
static pier_status drop_index(applier *a, const char *name)
{
    const pier__mindex *x = pier__schema_index(a->live, name);
    if (x == NULL || pier__schema_board(a->live, x->table) == NULL)
        return drop(a, "INDEX", name, PIER__META_INDEX);
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_puts(&b, "DROP INDEX ");
    pier__sql_quote_ident(&b, name);
    pier_status rc = b.oom ? pier__oom(a->err)
                           : a->ops->ddl(a->e->lake, b.p, a->err);
    pier__buf_free(&b);
    if (rc == PIER_OK)
        rc = schema_changed(a);
    pier__migrate_meta m = { .kind = PIER__META_INDEX, .name = name };
    if (rc == PIER_OK)
        rc = a->ops->migrate_meta_put(a->e->lake, &m, true, a->err);
    return rc;
}

static pier_status alter(applier *a, const pier__step *s)
{
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_puts(&b, "ALTER TABLE ");
    if (s->kind == PIER__STEP_RENAME_TABLE) {
        pier__sql_quote_ident(&b, s->from);
        pier__buf_puts(&b, " RENAME TO ");
        pier__sql_quote_ident(&b, s->object);
    } else if (s->kind == PIER__STEP_RENAME_COLUMN) {
        pier__sql_quote_ident(&b, s->object);
        pier__buf_puts(&b, " RENAME COLUMN ");
        pier__sql_quote_ident(&b, s->from);
        pier__buf_puts(&b, " TO ");
        pier__sql_quote_ident(&b, s->column);
    } else {
        pier__sql_quote_ident(&b, s->object);
        pier__buf_puts(&b, " DROP COLUMN ");
        pier__sql_quote_ident(&b, s->column);
    }
    pier_status rc = run(a, &b);
    pier__buf_free(&b);
    return rc;
}

typedef struct table_sql {
    const char *name;
    char *sql;
    bool found;
} table_sql;

static int find_table_sql(const pier__schema_object *o, void *payload)
{
    table_sql *t = payload;
    if (strcmp(o->type, "table") == 0 && o->sql != NULL &&
        pier__name_eq(o->name, strlen(o->name), t->name, strlen(t->name))) {
        t->found = true;
        t->sql = pier__strdup(o->sql);
        return 1;
    }
    return 0;
}

/* The SQL of table `name` (*out: free it). */
static pier_status table_sql_of(applier *a, const char *name, char **out)
{
    table_sql t = { name, NULL, false };
    *out = NULL;
    pier_status rc = a->ops->schema_objects(a->e->lake, find_table_sql, &t,
                                            a->err);
    if (rc == PIER_OK && !t.found)
        rc = pier__fail(a->err, PIER_E_WRITE_FAILED, "table '%s' has no "
                        "SQL", name);
    else if (rc == PIER_OK && t.sql == NULL)
        rc = pier__oom(a->err);
    if (rc == PIER_OK)
        *out = t.sql;
    else
        free(t.sql);
    return rc;
}

static pier_status retype(applier *a, const pier__step *s)
{
    table_sql t = { s->object, NULL, false };
    pier_status rc = table_sql_of(a, s->object, &t.sql);
    pier__buf b;
    pier__buf_init(&b);
    if (rc == PIER_OK) {
        pier_status er = pier__fit_retype(&b, t.sql, s->column_id, s->to);
        if (er == PIER_E_INVALID_ARGUMENT)
            rc = unappliable(a, s);      /* a column with no value check */
        else if (er != PIER_OK)
            rc = pier__oom(a->err);
    }
    pier__migrate_meta m = { .kind = PIER__META_COLUMN_TYPE,
                             .id = s->column_id, .a = s->to };
    if (rc == PIER_OK)
        rc = a->ops->migrate_meta_put(a->e->lake, &m, false, a->err);
    if (rc == PIER_OK)
        rc = put_sql(a, s->object, &b);
    pier__buf_free(&b);
    free(t.sql);
    return rc;
}

/* What an edit of a table's SQL returned, as the step's status: out of
 * memory, or a column the SQL does not define as the edit needs. */
static pier_status edited(applier *a, const pier__step *s, pier_status er)
{
    if (er == PIER_E_OUT_OF_MEMORY)
        return pier__oom(a->err);
    return er == PIER_OK ? PIER_OK : unappliable(a, s);
}

/* Replaces a table's SQL with `edited` (already made from it), in the
 * catalog as Pier made it too. */
static pier_status put_sql(applier *a, const char *table,
                           const pier__buf *edited)
{
    if (edited->oom)
        return pier__oom(a->err);
    pier_status rc = a->ops->schema_sql_set(a->e->lake, table, edited->p,
                                            a->err);
    return rc == PIER_OK ? schema_changed(a) : rc;
}

/* NOT NULL set (after its proof) or dropped: an edit of the table's SQL.
 * Rows stored before the column existed read its default, which SQLite
 * answers for them in the proof's query as for any row. */
static pier_status nullability(applier *a, const pier__step *s)
{
    bool set = s->kind == PIER__STEP_SET_NOT_NULL;
    pier_status rc = PIER_OK;
    if (set) {
        const pier__mkey *pk = single_primary(s->table);
        const char *key = pk != NULL ? s->table->columns[pk->columns[0]].name
                                     : NULL;
        int64_t nulls = 0;
        pier__buf keys;
        pier__buf_init(&keys);
        rc = a->ops->null_witnesses(a->e->lake, s->object, s->column, key,
                                    &nulls, &keys, a->err);
        if (rc == PIER_OK && nulls > 0)
            rc = pier__fail(a->err, PIER_E_PROOF_FAILED, "column '%s' of "
                            "table '%s' cannot be NOT NULL: %lld rows hold "
                            "null (%s %s%s)", s->column, s->object,
                            (long long)nulls, key != NULL ? key : "rowid",
                            keys.p != NULL ? keys.p : "",
                            nulls > 5 ? ", ..." : "");
        pier__buf_free(&keys);
        if (rc != PIER_OK)
            return rc;
    }
    table_sql t = { s->object, NULL, false };
    if (rc == PIER_OK)
        rc = table_sql_of(a, s->object, &t.sql);
    pier__buf b;
    pier__buf_init(&b);
    if (rc == PIER_OK)
        rc = edited(a, s, pier__column_edit(&b, t.sql, s->column,
                                            set ? 1 : 0, NULL, false));
    if (rc == PIER_OK)
        rc = put_sql(a, s->object, &b);
    pier__buf_free(&b);
    free(t.sql);
    /* A column a migration added NOT NULL with a backfill has the backfill
     * as its SQL's default, which an INSERT that omits it must not get:
     * nullable with no default, it is filled with NULL (a "NULL" default
     * in the catalog, which reads as none); NOT NULL again, an INSERT
     * must give it a value. A declared default stays as it is. */
    const pier__mcolumn *was = s->was, *c = s->def;
    if (rc == PIER_OK && was != NULL && was->added &&
        (was->backfill.sql != NULL || was->backfill.now) &&
        c->dflt.sql == NULL && !c->dflt.now) {
        pier__migrate_meta m = {
            .kind = PIER__META_COLUMN, .id = s->column_id,
            .a = set ? NULL : "NULL", .b = was->backfill.sql, .flag = true,
            .added = true,
        };
        rc = a->ops->migrate_meta_put(a->e->lake, &m, false, a->err);
        if (rc == PIER_OK)
            rc = schema_changed(a);
    }
    return rc;
}

/*
 * A default set or dropped. A column a migration added keeps its default
 * in the catalog alone (its SQL's default is the backfill that rows
 * stored before it read): pier_exec fills it into INSERTs. Any other
 * column is in every stored row, so its SQL's DEFAULT, which only new
 * rows read, is edited too. Either way no row is touched.
 */
static pier_status default_step(applier *a, const pier__step *s)
{
    const pier__mcolumn *c = s->def;
    bool set = s->kind == PIER__STEP_SET_DEFAULT;
    pier_status rc = PIER_OK;
    if (s->was == NULL || !s->was->added) {
        table_sql t = { s->object, NULL, false };
        rc = table_sql_of(a, s->object, &t.sql);
        char now[64];
        /* as the dialect writes now() */
        snprintf(now, sizeof now, "(_pier_now('%s'))",
                 c->dflt.now ? pier__sql_now_type(&c->type.t) : "");
        const char *phys = c->dflt.now ? now : c->dflt.sql;
        pier__buf b;
        pier__buf_init(&b);
        /* s->column is the column's name once any rename ran */
        if (rc == PIER_OK)
            rc = edited(a, s, pier__column_edit(&b, t.sql, s->column, -1,
                                                set ? phys : NULL, !set));
        if (rc == PIER_OK)
            rc = put_sql(a, s->object, &b);
        pier__buf_free(&b);
        free(t.sql);
    }
    const pier__mvalue *bf = s->was != NULL ? &s->was->backfill : NULL;
    pier__migrate_meta m = {
        .kind = PIER__META_COLUMN, .id = s->column_id,
        .a = !set ? NULL : c->dflt.now ? "now()" : c->dflt.sql,
        .b = bf != NULL ? bf->sql : NULL, .flag = true,
        .added = s->was != NULL && s->was->added,
    };
    if (rc == PIER_OK)
        rc = a->ops->migrate_meta_put(a->e->lake, &m, false, a->err);
    return rc == PIER_OK ? schema_changed(a) : rc;
}

/*
 * AUTOINCREMENT adopted or dropped: the keyword after the key's PRIMARY
 * KEY in the table's SQL, and SQLite's counter for the table. Adopting
 * seeds the counter with the largest key stored (max(rowid) reads the
 * last entry of the table's b-tree: no scan), so a generated id never
 * meets one already written; SQLite then moves the counter past every
 * explicit id and never hands one out twice. Dropping forgets it.
 */
static pier_status autoincrement(applier *a, const pier__step *s)
{
    bool on = s->kind == PIER__STEP_ADOPT_AUTOINCREMENT;
    table_sql t = { s->object, NULL, false };
    pier_status rc = table_sql_of(a, s->object, &t.sql);
    pier__buf b, seq;
    pier__buf_init(&b);
    pier__buf_init(&seq);
    if (rc == PIER_OK) {
        pier_status er = t.sql == NULL ? PIER_E_INVALID_ARGUMENT
                                       : pier__autoincrement_edit(
                                             &b, t.sql, s->column, on);
        if (er == PIER_E_OUT_OF_MEMORY)
            rc = pier__oom(a->err);
        else if (er != PIER_OK)
            rc = pier__fail(a->err, PIER_E_MIGRATION_REFUSED, "column '%s' "
                            "of table '%s' cannot take AUTOINCREMENT: its "
                            "definition does not say PRIMARY KEY", s->column,
                            s->object);
    }
    if (rc == PIER_OK)
        rc = put_sql(a, s->object, &b);
    /* sqlite_sequence, SQLite's counters, exists once a table with
     * AUTOINCREMENT was ever created */
    if (on)
        pier__buf_puts(&seq, "CREATE TABLE \"_pier_seq\" (k INTEGER "
                       "PRIMARY KEY AUTOINCREMENT); DROP TABLE "
                       "\"_pier_seq\"; ");
    pier__buf_puts(&seq, "DELETE FROM sqlite_sequence WHERE name = ");
    pier__sql_quote_string(&seq, s->object, strlen(s->object));
    if (on) {
        pier__buf_puts(&seq, "; INSERT INTO sqlite_sequence(name, seq) "
                       "SELECT ");
        pier__sql_quote_string(&seq, s->object, strlen(s->object));
        pier__buf_puts(&seq, ", max(coalesce(max(rowid), 0), 0) FROM ");
        pier__sql_quote_ident(&seq, s->object);
    }
    if (rc == PIER_OK)
        rc = seq.oom ? pier__oom(a->err)
                     : a->ops->ddl(a->e->lake, seq.p, a->err);
    pier__buf_free(&b);
    pier__buf_free(&seq);
    free(t.sql);
    return rc == PIER_OK ? schema_changed(a) : rc;
}

/* READONLY set or dropped: the trigger pier_exec gives a read-only
 * column (_pier_ro_<column id>, docs/sql.md), made or dropped, and the
 * catalog's bit. An INT64 primary key's guards the rowid's names too, as
 * pier sql's does. */
static pier_status readonly(applier *a, const pier__step *s)
{
    /* an INT64 primary key is the rowid, which has SQLite's names too */
    static const char *const rowid_names[] = { "rowid", "oid", "_rowid_" };
    const pier__mkey *pk = single_primary(s->table);
    bool rowid = pk != NULL &&
                 s->def == &s->table->columns[pk->columns[0]] &&
                 s->def->type.t.base == PIER__B_INT64 &&
                 s->def->type.t.dims == 0;
    bool set = s->kind == PIER__STEP_SET_READONLY;
    pier__buf b;
    pier__buf_init(&b);
    if (set) {
        pier__buf_printf(&b, "CREATE TRIGGER \"_pier_ro_%lld\" BEFORE "
                         "UPDATE OF ", (long long)s->column_id);
        pier__sql_quote_ident(&b, s->column);
        for (size_t i = 0; rowid && i < 3; i++)
            if (pier__mtable_column(s->table, rowid_names[i]) < 0)
                pier__buf_printf(&b, ", %s", rowid_names[i]);
        pier__buf_puts(&b, " ON ");
        pier__sql_quote_ident(&b, s->object);
        pier__buf_printf(&b, " BEGIN SELECT RAISE(ABORT, "
                         "'_pier_readonly:%lld'); END",
                         (long long)s->column_id);
    } else {
        pier__buf_printf(&b, "DROP TRIGGER \"_pier_ro_%lld\"",
                         (long long)s->column_id);
    }
    pier_status rc = b.oom ? pier__oom(a->err)
                           : a->ops->ddl(a->e->lake, b.p, a->err);
    pier__buf_free(&b);
    pier__migrate_meta m = { .kind = PIER__META_COLUMN_READONLY,
                             .id = s->column_id, .flag = set };
    if (rc == PIER_OK)
        rc = a->ops->migrate_meta_put(a->e->lake, &m, false, a->err);
    return rc == PIER_OK ? schema_changed(a) : rc;
}

/* ---- the steps ---- */

static pier_status apply_step(applier *a, const pier__step *s)
{
    switch (s->kind) {
    case PIER__STEP_CREATE_TABLE: return create_table(a, s->table);
    case PIER__STEP_ADD_COLUMN:
        return s->on == PIER__OBJ_BOARD ? board_step(a, s) : add_column(a, s);
    case PIER__STEP_RENAME_TABLE:
    case PIER__STEP_RENAME_COLUMN:
    case PIER__STEP_DROP_COLUMN:
        return alter(a, s);
    case PIER__STEP_WIDEN_ENUM:
    case PIER__STEP_WIDEN_COLUMN:
        return s->on == PIER__OBJ_BOARD ? board_step(a, s) : retype(a, s);
    case PIER__STEP_SET_NOT_NULL:
    case PIER__STEP_DROP_NOT_NULL:
        return nullability(a, s);
    case PIER__STEP_SET_READONLY:
    case PIER__STEP_DROP_READONLY:
        return readonly(a, s);
    case PIER__STEP_SET_DEFAULT:
    case PIER__STEP_DROP_DEFAULT:
        return default_step(a, s);
    case PIER__STEP_ADOPT_AUTOINCREMENT:
    case PIER__STEP_DROP_AUTOINCREMENT:
        return autoincrement(a, s);
    case PIER__STEP_CREATE_VIEW: return create_view(a, s->view, false);
    case PIER__STEP_REPLACE_VIEW: return create_view(a, s->view, true);
    case PIER__STEP_CREATE_INDEX: return create_index(a, s->index, false);
    case PIER__STEP_REPLACE_INDEX: return create_index(a, s->index, true);
    case PIER__STEP_CREATE_BOARD: return create_board(a, s->board);
    case PIER__STEP_DROP_INDEX:
        return drop_index(a, s->object);
    case PIER__STEP_DROP_VIEW:
        return drop(a, "VIEW", s->object, PIER__META_VIEW);
    case PIER__STEP_DROP_TABLE:
        return drop(a, "TABLE", s->object, PIER__META_TABLE);
    case PIER__STEP_DROP_BOARD:
        return board_step(a, s);
    default:
        return unappliable(a, s);
    }
}

/* A declared column as a change record names it. */
static json_t *column_json(const pier__tcolumn *c)
{
    return json_pack("{sIssss}", "id", (json_int_t)c->id, "name", c->name,
                     "type", c->spelling);
}

/*
 * The schema record of an applied step, appended to the change feed under
 * the object it touched (an index's table; a board's steps append their
 * own records through the board API): the step as the plan's JSON shows
 * it, "op" naming it, and the columns it made or changed with their ids,
 * as the catalog now holds them.
 */
static pier_status step_record(applier *a, const pier__step *s)
{
    if (s->on == PIER__OBJ_BOARD)
        return PIER_OK;
    const char *key = s->object;
    const pier__mindex *was = s->kind == PIER__STEP_DROP_INDEX
                                  ? pier__schema_index(a->live, s->object)
                                  : NULL;
    if (s->index != NULL)
        key = s->index->table;
    else if (was != NULL)
        key = was->table;
    json_t *o = pier__step_json(s, "op");
    bool ok = o != NULL;
    const pier__table *t = pier__catalog_find_table(&a->e->catalog,
                                                    s->object);
    if (ok && t != NULL && s->kind == PIER__STEP_CREATE_TABLE) {
        json_t *cols = json_array();
        ok = cols != NULL && json_object_set_new(o, "table_id",
                                                 json_integer(t->id)) == 0 &&
             json_object_set_new(o, "columns", cols) == 0;
        for (size_t i = 0; ok && i < t->ncolumns; i++)
            ok = json_array_append_new(cols, column_json(&t->columns[i])) ==
                 0;
    } else if (ok && t != NULL && s->column != NULL) {
        ptrdiff_t k = pier__table_find(t, s->column);
        if (k >= 0)
            ok = json_object_set_new(o, "column_id",
                                     json_integer(t->columns[k].id)) == 0 &&
                 json_object_set_new(o, "table_id",
                                     json_integer(t->id)) == 0;
    }
    char *payload = ok ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER)
                       : NULL;
    json_decref(o);
    if (payload == NULL)
        return pier__oom(a->err);
    pier__write w;
    pier_status rc = pier__write_join(&w, a->e, a->err);
    if (rc == PIER_OK)
        rc = pier__change_simple(&w, key, "schema", payload, a->err);
    free(payload);
    return rc;
}

/* A step the lake refused: its message names the step, and no byte of
 * the declaration (what SQLite read was the step's own statement). */
static void step_failed(const pier__step *s, pier_error *err)
{
    if (err == NULL)
        return;
    char msg[sizeof err->message];
    pier__copy_field(msg, sizeof msg, err->message);
    char *at = strstr(msg, " (at byte ");
    if (at != NULL && strstr(at, " of the script)") != NULL)
        *at = '\0';
    if (err->status == PIER_E_MIGRATION_REFUSED ||
        err->status == PIER_E_PROOF_FAILED ||
        err->status == PIER_E_VIEW_MISMATCH) {
        /* these name their step or object already */
        pier__copy_field(err->message, sizeof err->message, msg);
    } else {
        pier__buf b;
        pier__buf_init(&b);
        pier__buf_printf(&b, "step %s of '%s': %s", pier__step_name(s->kind),
                         s->object, msg);
        pier__copy_field(err->message, sizeof err->message,
                         b.oom ? msg : b.p);
        pier__buf_free(&b);
    }
    err->offset = -1;
}

/* Whether the SQL text `s` names `name` (as a word or a quoted name). */
static bool text_names(const char *s, const char *name)
{
    size_t n = strlen(s), pos = 0, nn = strlen(name);
    for (;;) {
        pier__token t;
        const char *why;
        pier__tk k = pier__sql_token(s, n, pos, &t, &why);
        if (k == PIER__TK_END || k == PIER__TK_BAD)
            return false;
        const char *p = s + t.start;
        size_t len = t.end - t.start;
        if (k == PIER__TK_WORD && pier__name_eq(p, len, name, nn))
            return true;
        if (k == PIER__TK_QUOTED && len >= 2 &&
            pier__name_eq(p + 1, len - 2, name, nn))
            return true;
        pos = t.end;
    }
}

/*
 * A declared view the plan leaves as it is, over a table whose column
 * types it widened, is checked again as a view being made is
 * (ViewMismatch): a view declared INT32 over a column now INT64 is
 * refused on this lake as on an empty one.
 */
static pier_status verify_kept_views(applier *a, const pier__schema *want,
                                     const pier__plan *p)
{
    pier_status rc = PIER_OK;
    for (size_t i = 0; rc == PIER_OK && i < want->nviews; i++) {
        const pier__mview *v = &want->views[i];
        bool stepped = false, widened = false;
        for (size_t k = 0; k < p->nsteps; k++) {
            const pier__step *s = &p->steps[k];
            if (s->on == PIER__OBJ_VIEW && s->view == v)
                stepped = true;
            if (s->on == PIER__OBJ_TABLE &&
                (s->kind == PIER__STEP_WIDEN_COLUMN ||
                 s->kind == PIER__STEP_WIDEN_ENUM) &&
                text_names(v->body, s->object))
                widened = true;
        }
        if (widened && !stepped)
            rc = verify_view(a, v);
    }
    return rc;
}

PIER_API pier_status pier_migrate(int64_t *watermark, pier_engine *engine,
                                  const char *declaration, size_t len,
                                  const pier_migrate_options *options,
                                  pier_migration **applied, pier_error *err)
{
    pier__error_clear(err);
    if (applied != NULL)
        *applied = NULL;
    if (engine == NULL || (declaration == NULL && len > 0))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "pier_migrate "
                          "needs an engine and a declaration");
    if (pier__engine_embedded(engine, "migrations", err) != PIER_OK)
        return PIER_E_TOPOLOGY_UNSUPPORTED;
    if (options != NULL && options->version != PIER_MIGRATE_OPTIONS_VERSION)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "pier_migrate: "
                          "options version %u is not %u", options->version,
                          (unsigned)PIER_MIGRATE_OPTIONS_VERSION);
    pier_migration *m = pier__migration_new();
    if (m == NULL)
        return pier__oom(err);
    pier_status rc = pier__engine_begin(engine, true, err);
    if (rc != PIER_OK) {
        pier_migration_free(m);
        return rc;
    }
    applier a = { engine, engine->lake->ops, false, err, &m->live,
                  &m->want };
    rc = pier__schema_drift(engine, err);
    if (rc == PIER_OK)
        rc = pier__migration_plan(m, engine,
                                  declaration != NULL ? declaration : "",
                                  len, options, err);
    for (size_t i = 0; rc == PIER_OK && i < m->plan.nsteps; i++) {
        rc = apply_step(&a, &m->plan.steps[i]);
        if (rc == PIER_OK)
            rc = step_record(&a, &m->plan.steps[i]);
        if (rc != PIER_OK && rc != PIER_E_OUT_OF_MEMORY)
            step_failed(&m->plan.steps[i], err);
    }
    if (rc == PIER_OK)
        rc = verify_kept_views(&a, &m->want, &m->plan);
    int64_t head = 0;
    if (rc == PIER_OK)
        rc = a.ops->head(engine->lake, &head, err);
    /* Steps that edit SQL leave the cached types behind; a failure may
     * leave rolled-back tables in the cache: either way it is read again. */
    if (a.catalog_changed)
        engine->catalog.version = -1;
    rc = pier__engine_end(engine, rc, err);
    if (rc != PIER_OK) {
        pier_migration_free(m);
        return rc;
    }
    if (watermark != NULL)
        *watermark = head;
    if (applied != NULL)
        *applied = m;
    else
        pier_migration_free(m);
    return PIER_OK;
}
