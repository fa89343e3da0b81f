/*
 * history.c: change history (docs/history.md): commit triggers made and
 * dropped by the dialect, run just before a pier_exec transaction
 * commits; pier_changeset, pier_changeset_apply and
 * pier_changeset_to_json.
 *
 * A transaction records only when something will read the record: a
 * call on a lake without commit triggers records nothing, so it costs
 * nothing (pier__history_begin returns at once). Otherwise each trigger
 * that exists when the call begins gets a recording of its tables
 * (store/sqlite_history.c). Just before the commit every recording is
 * stopped and its changeset taken, all of them before any trigger runs,
 * so that no trigger's writes show in another's changes and none runs
 * again on them; then each trigger still in the catalog, in creation
 * order, runs its statement with pier_changeset() returning its changes.
 * A trigger whose tables did not change does not run. A trigger that
 * fails fails the call, which rolls back.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/dialect.h"
#include "sql/sql.h"

static const pier__lake_ops *ops(const pier_engine *e)
{
    return e->lake->ops;
}

/* ---- CREATE and DROP COMMIT TRIGGER ---- */

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

/* A trigger's failure names it ("commit trigger 'x' failed: ..."); the
 * status stays the statement's. */
static void trigger_failed(pier_error *err, const char *name,
                           const char *what)
{
    if (err == NULL)
        return;
    char message[sizeof err->message];
    int n = snprintf(message, sizeof message, "commit trigger '%s'%s: ",
                     name, what);
    if (n > 0 && (size_t)n < sizeof message) {
        size_t keep = sizeof message - (size_t)n - 1;
        size_t len = strnlen(err->message, keep);
        memcpy(message + n, err->message, len);
        message[(size_t)n + len] = '\0';
        memcpy(err->message, message, sizeof message);
    }
    err->offset = -1;
}

/* The statement a trigger runs: one INSERT, REPLACE, UPDATE or DELETE
 * (alone or after WITH) of the dialect. */
static pier_status body_check(pier_engine *e, const pier__sql_stmt *st,
                              pier_error *err)
{
    pier__sql_script body;
    pier_error inner;
    pier_status rc = pier__sql_parse(&body, st->body, strlen(st->body),
                                     &inner);
    if (rc == PIER_E_OUT_OF_MEMORY) {
        pier__sql_script_free(&body);
        return pier__oom(err);
    }
    if (rc != PIER_OK) {
        size_t at = st->body_offset + (size_t)(inner.offset >= 0
                                                   ? inner.offset : 0);
        if (err != NULL) {
            *err = inner;
            trigger_failed(err, st->name, "");
            err->offset = (int64_t)at;
        }
        pier__sql_script_free(&body);
        return rc;
    }
    pier__stmt_kind k = body.nstmts == 1 ? body.stmts[0].kind
                                         : PIER__STMT_SELECT;
    if (k != PIER__STMT_INSERT && k != PIER__STMT_UPDATE &&
        k != PIER__STMT_DELETE) {
        pier__sql_script_free(&body);
        return fail_at(err, st->body_offset, PIER_E_ENTITY_NOT_ALLOWED,
                       "commit trigger '%s': a commit trigger runs one "
                       "INSERT, UPDATE or DELETE", st->name);
    }
    /* Prepared as it will run, not run: a statement SQLite refuses (a
     * missing table or column, a syntax the front-end passes) would
     * otherwise fail every later write to the trigger's tables. */
    rc = pier__exec_parsed_check(e, &body, st->body, err);
    pier__sql_script_free(&body);
    if (rc != PIER_OK && err != NULL) {
        int64_t at = (int64_t)st->body_offset +
                     (err->offset >= 0 ? err->offset : 0);
        trigger_failed(err, st->name, "");
        err->offset = at;
    }
    return rc;
}

/* A table a trigger names must be a declared table with a PRIMARY KEY:
 * SQLite's sessions record no other. */
static pier_status covered_check(pier_engine *e, const pier__sql_stmt *st,
                                 size_t i, pier_error *err)
{
    const char *name = st->trigger_tables[i];
    size_t at = st->trigger_table_offsets[i];
    if (pier__object_name_reserved(name) != NULL)
        return fail_at(err, at, PIER_E_ENTITY_NOT_ALLOWED,
                       "commit trigger '%s': '%s' belongs to the engine, "
                       "whose writes are not recorded", st->name, name);
    const pier__table *t = pier__catalog_find_table(&e->catalog, name);
    if (t == NULL) {
        fail_at(err, at, PIER_E_TABLE_NOT_FOUND, "commit trigger '%s': no "
                "table '%s'", st->name, name);
        if (err != NULL)
            snprintf(err->board, sizeof err->board, "%s", name);
        return PIER_E_TABLE_NOT_FOUND;
    }
    bool keyed = false;
    pier_status rc = ops(e)->table_keyed(e->lake, t->name, &keyed, err);
    if (rc == PIER_OK && !keyed)
        rc = fail_at(err, at, PIER_E_ENTITY_NOT_ALLOWED,
                     "commit trigger '%s': table '%s' has no PRIMARY KEY, "
                     "so its changes cannot be recorded", st->name,
                     t->name);
    return rc;
}

pier_status pier__trigger_create(pier_engine *e, const pier__sql_stmt *st,
                                 pier_error *err)
{
    if (st->schema != NULL &&
        !pier__name_eq(st->schema, strlen(st->schema), "main", 4))
        return fail_at(err, st->offset, PIER_E_ENTITY_NOT_ALLOWED,
                       "CREATE COMMIT TRIGGER: only the main database "
                       "is reachable, not '%s'", st->schema);
    const char *why = pier__object_name_why(st->name);
    if (why != NULL)
        return fail_at(err, st->name_offset, PIER_E_QUERY_FAILED,
                       "invalid name for a commit trigger: %s", why);
    const char *prefix = pier__object_name_reserved(st->name);
    if (prefix != NULL)
        return fail_at(err, st->name_offset, PIER_E_ENTITY_NOT_ALLOWED,
                       "the name '%s' is reserved: names starting with "
                       "%s belong to the engine", st->name, prefix);
    if (pier__catalog_find_trigger(&e->catalog, st->name) != NULL) {
        if (st->if_not_exists)
            return PIER_OK;
        return fail_at(err, st->name_offset, PIER_E_QUERY_FAILED,
                       "commit trigger '%s' already exists", st->name);
    }
    pier_status rc = PIER_OK;
    for (size_t i = 0; rc == PIER_OK && i < st->ntrigger_tables; i++)
        rc = covered_check(e, st, i, err);
    if (rc == PIER_OK)
        rc = body_check(e, st, err);
    if (rc != PIER_OK)
        return rc;
    pier__commit_trigger *t = pier__trigger_new(
        st->name, st->body, (const char *const *)st->trigger_tables,
        st->ntrigger_tables);
    if (t == NULL)
        return pier__oom(err);
    rc = ops(e)->trigger_save(e->lake, t, pier__engine_now(e), err);
    if (rc != PIER_OK) {
        free(t);
        return rc;
    }
    return pier__catalog_put_trigger(&e->catalog, t) ? PIER_OK
                                                     : pier__oom(err);
}

pier_status pier__trigger_drop(pier_engine *e, const pier__sql_stmt *st,
                               pier_error *err)
{
    const pier__commit_trigger *t =
        pier__catalog_find_trigger(&e->catalog, st->name);
    if (t == NULL) {
        if (st->if_exists)
            return PIER_OK;
        return fail_at(err, st->name_offset, PIER_E_QUERY_FAILED,
                       "no commit trigger '%s'", st->name);
    }
    pier_status rc = ops(e)->trigger_forget(e->lake, t->name, err);
    if (rc != PIER_OK)
        return rc;
    pier__catalog *c = &e->catalog;
    for (size_t i = 0; i < c->ntriggers; i++) {
        if (c->triggers[i] != t)
            continue;
        free(c->triggers[i]);
        memmove(c->triggers + i, c->triggers + i + 1,
                (c->ntriggers - i - 1) * sizeof *c->triggers);
        c->ntriggers--;
        break;
    }
    return PIER_OK;
}

void pier__trigger_sql(pier__buf *b, const pier__commit_trigger *t)
{
    pier__buf_puts(b, "CREATE COMMIT TRIGGER ");
    pier__sql_quote_ident(b, t->name);
    pier__buf_puts(b, " ON ");
    if (t->ntables == 0)
        pier__buf_puts(b, "ALL");
    for (size_t i = 0; i < t->ntables; i++) {
        if (i > 0)
            pier__buf_puts(b, ", ");
        pier__sql_quote_ident(b, t->tables[i]);
    }
    pier__buf_puts(b, " AS ");
    pier__buf_puts(b, t->sql);
}

/* ---- the triggers' statements, parsed once ---- */

/* Parsing reads nothing but the text, so a parse holds for as long as a
 * trigger has that text: entries are found by it, and a catalog reload or
 * a trigger made again need no invalidation. What SQLite prepares from it
 * is the writer's statement cache's, which SQLite prepares again after a
 * schema change. Entries of dropped triggers go when the cache is cleared
 * (it then holds more than twice the catalog's triggers). */
typedef struct trigger_script {
    char *sql;                 /* owned: the script points into it */
    pier__sql_script script;
} trigger_script;

struct pier__trigger_scripts {
    trigger_script *v;
    size_t n, cap;
};

static void scripts_clear(struct pier__trigger_scripts *s)
{
    for (size_t i = 0; i < s->n; i++) {
        pier__sql_script_free(&s->v[i].script);
        free(s->v[i].sql);
    }
    s->n = 0;
}

void pier__trigger_scripts_free(pier_engine *e)
{
    struct pier__trigger_scripts *s = e->trigger_scripts;
    if (s == NULL)
        return;
    scripts_clear(s);
    free(s->v);
    free(s);
    e->trigger_scripts = NULL;
}

/* The parsed statement of text `sql` (borrowed until the engine's next
 * call), parsed now if it was not yet. */
static pier_status trigger_script_of(pier_engine *e, const char *sql,
                                     const pier__sql_script **out,
                                     pier_error *err)
{
    struct pier__trigger_scripts *s = e->trigger_scripts;
    if (s == NULL) {
        if ((s = calloc(1, sizeof *s)) == NULL)
            return pier__oom(err);
        e->trigger_scripts = s;
    }
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i].sql, sql) == 0) {
            *out = &s->v[i].script;
            return PIER_OK;
        }
    if (s->n > 2 * e->catalog.ntriggers)
        scripts_clear(s);
    if (s->n == s->cap) {
        size_t cap = s->cap == 0 ? 4 : 2 * s->cap;
        trigger_script *v = realloc(s->v, cap * sizeof *v);
        if (v == NULL)
            return pier__oom(err);
        s->v = v;
        s->cap = cap;
    }
    trigger_script *t = &s->v[s->n];
    if ((t->sql = strdup(sql)) == NULL)
        return pier__oom(err);
    pier_status rc = pier__sql_parse(&t->script, t->sql, strlen(t->sql),
                                     err);
    if (rc != PIER_OK) {
        pier__sql_script_free(&t->script);
        free(t->sql);
        return pier__exec_where(rc, err);
    }
    s->n++;
    *out = &t->script;
    return PIER_OK;
}

/* ---- recording a transaction ---- */

void pier__history_end(pier__history *h)
{
    for (size_t i = 0; i < h->n; i++) {
        ops(h->e)->recording_close(h->recs[i]);
        free(h->bytes[i]);
    }
    free(h->recs);
    h->recs = NULL;
    h->names = NULL;
    h->bytes = NULL;
    h->lens = NULL;
    h->n = 0;
}

pier_status pier__history_begin(pier__history *h, pier_engine *e,
                                bool whole, pier_error *err)
{
    h->e = e;
    h->n = 0;
    h->recs = NULL;
    size_t n = e->catalog.ntriggers + (whole ? 1 : 0);
    if (n == 0)
        return PIER_OK;        /* nobody reads: no recording, no cost */
    /* The arrays and the triggers' names, in one allocation (recs's). */
    size_t size = n * (sizeof *h->recs + sizeof *h->names +
                       sizeof *h->bytes + sizeof *h->lens);
    for (size_t i = 0; i < e->catalog.ntriggers; i++)
        size += strlen(e->catalog.triggers[i]->name) + 1;
    if ((h->recs = calloc(1, size)) == NULL)
        return pier__oom(err);
    h->names = (char **)(h->recs + n);
    h->bytes = (void **)(h->names + n);
    h->lens = (size_t *)(h->bytes + n);
    char *text = (char *)(h->lens + n);
    pier_status rc = PIER_OK;
    for (size_t i = 0; rc == PIER_OK && i < n; i++) {
        const pier__commit_trigger *t = i < e->catalog.ntriggers
            ? e->catalog.triggers[i] : NULL;
        if (t != NULL) {
            size_t len = strlen(t->name) + 1;
            h->names[i] = memcpy(text, t->name, len);
            text += len;
        }
        h->n = i + 1;
        rc = ops(e)->recording_open(e->lake, t != NULL ? t->tables : NULL,
                                    t != NULL ? t->ntables : 0,
                                    &h->recs[i], err);
    }
    if (rc != PIER_OK)
        pier__history_end(h);
    return rc;
}

pier_status pier__history_commit(pier__history *h, void **whole,
                                 size_t *whole_len, pier_error *err)
{
    if (whole != NULL) {
        *whole = NULL;
        *whole_len = 0;
    }
    if (h->n == 0)
        return PIER_OK;
    pier_engine *e = h->e;
    ops(e)->recordings_stop(e->lake);
    pier_status rc = PIER_OK;
    for (size_t i = 0; rc == PIER_OK && i < h->n; i++) {
        rc = ops(e)->recording_take(h->recs[i], &h->bytes[i], &h->lens[i],
                                    err);
        if (rc != PIER_OK && h->names[i] != NULL)
            trigger_failed(err, h->names[i], " failed");
        /* The changeset of a whole call (pier_changeset) would leave out
         * what it did to a table without a key: said, not pretended, as
         * a commit trigger naming one is refused. (One ON ALL passes over
         * such tables.) */
        const char *unkeyed = rc == PIER_OK && h->names[i] == NULL
            ? ops(e)->recording_unkeyed(h->recs[i]) : NULL;
        if (unkeyed != NULL) {
            rc = pier__fail(err, PIER_E_ENTITY_NOT_ALLOWED,
                            "table '%s' has no PRIMARY KEY, so its "
                            "changes cannot be recorded: nothing was "
                            "written", unkeyed);
            pier__error_board(err, unkeyed);
        }
    }
    for (size_t i = 0; rc == PIER_OK && i < h->n; i++) {
        if (h->names[i] == NULL || h->bytes[i] == NULL)
            continue;
        /* A trigger dropped by this transaction does not run. */
        const pier__commit_trigger *t =
            pier__catalog_find_trigger(&e->catalog, h->names[i]);
        if (t == NULL)
            continue;
        const pier__sql_script *script = NULL;
        rc = trigger_script_of(e, t->sql, &script, err);
        if (rc != PIER_OK) {
            trigger_failed(err, t->name, " failed");
            break;
        }
        ops(e)->changeset_expose(e->lake, h->bytes[i], h->lens[i]);
        bool catalog_changed = false;
        rc = pier__exec_parsed_in_write(e, script, t->sql,
                                        &catalog_changed, err);
        ops(e)->changeset_expose(e->lake, NULL, 0);
        if (rc != PIER_OK)
            trigger_failed(err, t->name, " failed");
    }
    for (size_t i = 0; i < h->n; i++) {
        if (rc == PIER_OK && whole != NULL && h->names[i] == NULL) {
            *whole = h->bytes[i];
            *whole_len = h->lens[i];
        } else {
            free(h->bytes[i]);
        }
        h->bytes[i] = NULL;
    }
    return rc;
}

/* ---- the C API ---- */

PIER_API pier_status pier_changeset(void **out, size_t *len,
                                    pier_engine *engine, const char *sql,
                                    const pier_params *params,
                                    pier_error *err)
{
    pier__error_clear(err);
    if (out == NULL || len == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_changeset needs somewhere to put the "
                          "changeset");
    *out = NULL;
    *len = 0;
    return pier__exec_call(NULL, out, len, engine, sql, params, err);
}

/* A value check's or a read-only column's refusal during an apply,
 * said of the column by name, after the change it refused ("changeset
 * conflict: insert of a row of t: "). */
static void name_apply_failure(pier_engine *e, pier_status rc,
                               const pier__stmt_failure *f, pier_error *err)
{
    if (err == NULL || f->column_id == 0 ||
        (rc != PIER_E_COLUMN_TYPE_CONFLICT && rc != PIER_E_READONLY_COLUMN))
        return;
    const pier__table *t = NULL;
    const pier__tcolumn *col = NULL;
    for (size_t i = 0; col == NULL && i < e->catalog.ntables; i++)
        for (size_t k = 0; col == NULL && k < e->catalog.tables[i]->ncolumns;
             k++)
            if (e->catalog.tables[i]->columns[k].id == f->column_id) {
                t = e->catalog.tables[i];
                col = &t->columns[k];
            }
    if (col == NULL)
        return;
    char change[sizeof err->message] = "";
    const char *p = strstr(err->message, " of a row of ");
    p = p != NULL ? strstr(p, ": ") : NULL;
    if (p != NULL)
        snprintf(change, sizeof change, "%.*s",
                 (int)(p + 2 - err->message), err->message);
    if (rc == PIER_E_READONLY_COLUMN)
        pier__fail(err, rc, "%scolumn '%s' of table '%s' is READONLY: no "
                   "UPDATE may assign it", change, col->name, t->name);
    else
        pier__fail(err, rc, "%scolumn '%s' of table '%s' is %s, got %s: %s",
                   change, col->name, t->name, col->spelling, f->value,
                   f->reason);
    pier__error_board(err, t->name);
    pier__error_column(err, col->name);
    pier__copy_field(err->column_type, sizeof err->column_type,
                     col->spelling);
}

PIER_API pier_status pier_changeset_apply(pier_apply_result *out,
                                          pier_engine *engine,
                                          const void *bytes, size_t len,
                                          const pier_apply_options *opts,
                                          pier_error *err)
{
    pier__error_clear(err);
    if (out != NULL)
        memset(out, 0, sizeof *out);
    if (engine == NULL || (bytes == NULL && len > 0))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_changeset_apply needs an engine and bytes");
    if (pier__engine_embedded(engine, "changesets", err) != PIER_OK)
        return PIER_E_TOPOLOGY_UNSUPPORTED;
    pier_apply_options o = PIER_APPLY_OPTIONS_INIT;
    if (opts != NULL) {
        if (opts->version < 1 || opts->version > PIER_APPLY_OPTIONS_VERSION)
            return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                              "pier_apply_options version %u is not one "
                              "this library knows", opts->version);
        o = *opts;
    }
    if (o.on_conflict != PIER_ON_CONFLICT_ABORT &&
        o.on_conflict != PIER_ON_CONFLICT_SKIP &&
        o.on_conflict != PIER_ON_CONFLICT_REPLACE)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "on_conflict is abort, skip or replace");
    const char *why = pier__changeset_why(bytes, len);
    if (why != NULL)
        return strcmp(why, "out of memory") == 0
            ? pier__oom(err)
            : pier__fail(err, PIER_E_INVALID_ARGUMENT, "the bytes are %s",
                         why);
    pier_status rc = pier__engine_begin(engine, true, err);
    if (rc != PIER_OK)
        return rc;
    rc = pier__schema_drift(engine, err);
    pier__history h = { .n = 0 };
    bool recording = false;
    if (rc == PIER_OK)
        rc = pier__history_begin(&h, engine, false, err);
    recording = rc == PIER_OK;
    int64_t skipped = 0, replaced = 0, total = 0;
    if (rc == PIER_OK)
        rc = pier__changeset_count(bytes, len, &total, err);
    pier__stmt_failure failure;
    memset(&failure, 0, sizeof failure);
    if (rc == PIER_OK) {
        rc = ops(engine)->changeset_apply(engine->lake, bytes, len, o.invert,
                                          (int)o.on_conflict, &skipped,
                                          &replaced, &failure, err);
        name_apply_failure(engine, rc, &failure, err);
    }
    if (rc == PIER_OK)
        rc = pier__history_commit(&h, NULL, NULL, err);
    if (recording)
        pier__history_end(&h);
    rc = pier__engine_end(engine, rc, err);
    if (rc == PIER_OK && out != NULL) {
        out->applied = total - skipped;
        out->skipped = skipped;
        out->replaced = replaced;
    }
    return rc;
}

/* ---- changesets for people ---- */

typedef struct json_ctx {
    pier_engine *e;            /* NULL: columns by position */
    pier__buf out;
    pier__arena a;
} json_ctx;

/* One side of a change: {"name":value,...} of the columns it holds, each
 * decoded by its column's type when the lake knows the table. */
static void json_side(json_ctx *j, const pier__table *t,
                      const pier__change *c, const pier__cell *cells,
                      const bool *has)
{
    pier__buf *b = &j->out;
    pier__buf_putc(b, '{');
    bool first = true;
    for (size_t i = 0; i < c->ncolumns; i++) {
        if (!has[i])
            continue;
        if (!first)
            pier__buf_putc(b, ',');
        first = false;
        if (t != NULL) {
            pier__buf_json_string(b, t->columns[i].name,
                                  strlen(t->columns[i].name));
        } else {
            char key[32];
            int n = snprintf(key, sizeof key, "c%zu", i + 1);
            pier__buf_json_string(b, key, (size_t)n);
        }
        pier__buf_putc(b, ':');
        pier_value v;
        pier__coltype any = { .t = { .base = PIER__B_ANY } };
        const pier__coltype *type = t != NULL ? &t->columns[i].type : &any;
        if (pier__coltype_decode(&v, type, &cells[i], &j->a) != PIER__FIT_OK &&
            pier__coltype_decode(&v, &any, &cells[i], &j->a) != PIER__FIT_OK) {
            b->oom = true;
            return;
        }
        pier__value_json(b, &v);
    }
    pier__buf_putc(b, '}');
}

static int json_change(const pier__change *c, void *payload)
{
    json_ctx *j = payload;
    const pier__table *t = j->e != NULL
        ? pier__catalog_find_table(&j->e->catalog, c->table) : NULL;
    if (t != NULL && t->ncolumns != c->ncolumns)
        t = NULL;              /* generated columns: not in changesets */
    pier__buf *b = &j->out;
    pier__buf_puts(b, "{\"table\":");
    pier__buf_json_string(b, t != NULL ? t->name : c->table,
                          strlen(t != NULL ? t->name : c->table));
    pier__buf_puts(b, c->op == 'i' ? ",\"op\":\"insert\""
                      : c->op == 'd' ? ",\"op\":\"delete\""
                                     : ",\"op\":\"update\"");
    if (c->indirect)
        pier__buf_puts(b, ",\"indirect\":true");
    if (c->old != NULL) {
        pier__buf_puts(b, ",\"old\":");
        json_side(j, t, c, c->old, c->has_old);
    }
    if (c->new_ != NULL) {
        pier__buf_puts(b, ",\"new\":");
        json_side(j, t, c, c->new_, c->has_new);
    }
    pier__buf_puts(b, "}\n");
    pier__arena_reset(&j->a);
    return b->oom ? 1 : 0;
}

PIER_API pier_status pier_changeset_to_json(char **out, pier_engine *engine,
                                            const void *bytes, size_t len,
                                            pier_error *err)
{
    pier__error_clear(err);
    if (out == NULL || (bytes == NULL && len > 0))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_changeset_to_json needs bytes and "
                          "somewhere to put the text");
    *out = NULL;
    json_ctx j = { .e = engine };
    pier__buf_init(&j.out);
    pier__arena_init(&j.a);
    pier_status rc = PIER_OK;
    if (engine != NULL)
        rc = pier__engine_begin(engine, false, err);
    if (rc == PIER_OK)
        rc = pier__changeset_walk(bytes, len, json_change, &j, err);
    if (rc == PIER_OK && j.out.oom)
        rc = pier__oom(err);
    if (engine != NULL)
        rc = pier__engine_end(engine, rc, err);
    if (rc == PIER_OK) {
        pier__buf_putc(&j.out, '\0');
        if (j.out.oom) {
            rc = pier__oom(err);
        } else {
            *out = j.out.p;
            j.out.p = NULL;
        }
    }
    pier__buf_free(&j.out);
    pier__arena_free(&j.a);
    return rc;
}
