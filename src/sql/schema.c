/*
 * schema.c: declared tables described (pier_table_list, _describe), the
 * lake's schema written back as a script of the dialect
 * (pier_schema_dump), and the check for changes made behind Pier's back
 * (pier_schema_check).
 *
 * A table's CREATE TABLE is rebuilt from two sources: the catalog gives
 * each column's logical type and READONLY bit; SQLite's own copy of the
 * physical definition (sqlite_schema, which SQLite keeps current through
 * every RENAME) gives the constraints as the user wrote them, after the
 * storage type, collation and value check Pier put in front of them
 * (exec.c, physical_column) are taken off again.
 */
#include <stdlib.h>
#include <string.h>

#include "sql/dialect.h"
#include "sql/sql.h"

/* ---- taking Pier's part off a physical column definition ---- */

/* Skips white space from s[i]. */
static size_t skip_space(const char *s, size_t i)
{
    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
        i++;
    return i;
}

/* Whether s[i..] starts with `word` (case-insensitive) followed by a
 * character that cannot continue a word. */
static bool word_at(const char *s, size_t i, const char *word)
{
    size_t n = strlen(word);
    if (!pier__name_eq(s + i, strnlen(s + i, n), word, n))
        return false;
    char c = s[i + n];
    return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
             (c >= '0' && c <= '9') || c == '_');
}

/* The index just past the parenthesis that closes the one at s[i],
 * passing over quoted strings and identifiers. */
static size_t past_parens(const char *s, size_t i)
{
    int depth = 0;
    for (; s[i] != '\0'; i++) {
        char c = s[i];
        if (c == '\'' || c == '"') {
            for (i++; s[i] != '\0'; i++)
                if (s[i] == c) {
                    if (s[i + 1] != c)
                        break;
                    i++;
                }
            if (s[i] == '\0')
                return i;
        } else if (c == '(') {
            depth++;
        } else if (c == ')' && --depth == 0) {
            return i + 1;
        }
    }
    return i;
}

/* The user's constraints of a physical column: what follows Pier's
 * COLLATE pier_... and CHECK (_pier_fit(...)). */
static const char *user_constraints(const char *c)
{
    size_t i = skip_space(c, 0);
    if (word_at(c, i, "COLLATE")) {
        size_t j = skip_space(c, i + 7);
        if (pier__name_eq(c + j, strnlen(c + j, 5), "pier_", 5)) {
            while (c[j] != '\0' && c[j] != ' ')
                j++;
            i = skip_space(c, j);
        }
    }
    if (word_at(c, i, "CHECK")) {
        size_t j = skip_space(c, i + 5);
        if (c[j] == '(' &&
            strncmp(c + skip_space(c, j + 1), "_pier_fit(", 10) == 0)
            i = skip_space(c, past_parens(c, j));
    }
    return c + i;
}

/* Appends the table's CREATE TABLE in the dialect, from the catalog and
 * its physical definition. */
static pier_status table_sql(pier__buf *out, const pier__table *t,
                             const char *physical, pier_error *err)
{
    pier__sql_script s;
    pier_status rc = pier__sql_parse(&s, physical, strlen(physical), err);
    const pier__sql_table *def = NULL;
    if (rc == PIER_OK && s.nstmts == 1 &&
        s.stmts[0].kind == PIER__STMT_CREATE_TABLE)
        def = s.stmts[0].create;
    if (rc == PIER_OK && def == NULL)
        rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                        "the definition of table '%s' is damaged", t->name);
    if (rc == PIER_OK) {
        pier__buf_puts(out, "CREATE TABLE ");
        pier__sql_quote_ident(out, t->name);
        pier__buf_puts(out, " (");
    }
    for (size_t i = 0; rc == PIER_OK && i < def->ncolumns; i++) {
        const pier__sql_column *pc = &def->columns[i];
        ptrdiff_t k = pier__table_find(t, pc->name);
        if (k < 0) {
            rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                            "table '%s' has a column '%s' its catalog does "
                            "not know", t->name, pc->name);
            break;
        }
        const pier__tcolumn *col = &t->columns[k];
        pier__buf_puts(out, i > 0 ? ",\n    " : "\n    ");
        pier__sql_quote_ident(out, col->name);
        pier__buf_printf(out, " %s", col->spelling);
        if (col->readonly)
            pier__buf_puts(out, " READONLY");
        const char *rest = user_constraints(pc->constraints);
        if (rest[0] != '\0')
            pier__buf_printf(out, " %s", rest);
    }
    if (rc == PIER_OK && def->constraints[0] != '\0')
        pier__buf_printf(out, ",\n    %s", def->constraints);
    if (rc == PIER_OK)
        pier__buf_puts(out, def->without_rowid ? "\n) WITHOUT ROWID"
                                               : "\n)");
    pier__sql_script_free(&s);
    if (rc == PIER_OK && out->oom)
        rc = pier__oom(err);
    return rc;
}

pier_status pier__schema_drift(pier_engine *e, pier_error *err)
{
    pier__buf report;
    pier__buf_init(&report);
    pier_status rc = e->lake->ops->schema_compare(e->lake, &report, err);
    if (rc == PIER_OK && report.len > 0)
        rc = pier__fail(err, PIER_E_SCHEMA_DRIFT,
                        "the lake's schema was changed without Pier: %s",
                        report.p);
    pier__buf_free(&report);
    return rc;
}

/* ---- walking the schema ---- */

typedef struct walk {
    pier_engine *e;
    pier__buf *out;
    const char *only;          /* one table's CREATE TABLE, or all */
    bool found;
    pier_status rc;
    pier_error *err;
} walk;

/* The triggers of READONLY columns and of foreign keys: their columns'
 * definitions say them. */
static bool is_pier_trigger(const pier__schema_object *o)
{
    return strcmp(o->type, "trigger") == 0 &&
           (strncmp(o->name, "_pier_ro_", 9) == 0 ||
            strncmp(o->name, "_pier_fk", 8) == 0);
}

static int walk_object(const pier__schema_object *o, void *payload)
{
    walk *w = payload;
    if (o->sql == NULL || is_pier_trigger(o))
        return 0;              /* SQLite's own indexes; Pier's triggers */
    bool table = strcmp(o->type, "table") == 0;
    if (w->only != NULL) {
        if (!table || !pier__name_eq(o->name, strlen(o->name), w->only,
                                     strlen(w->only)))
            return 0;
    }
    if (table) {
        const pier__table *t =
            pier__catalog_find_table(&w->e->catalog, o->name);
        if (t == NULL) {
            w->rc = pier__fail(w->err, PIER_E_SCHEMA_DRIFT,
                               "table '%s' is not in Pier's catalog: it was "
                               "created without Pier", o->name);
            return 1;
        }
        w->rc = table_sql(w->out, t, o->sql, w->err);
    } else {
        pier__buf_puts(w->out, o->sql);
    }
    pier__buf_puts(w->out, w->only != NULL ? "" : ";\n");
    w->found = true;
    return w->rc != PIER_OK || w->only != NULL;
}

/* A board as the dialect creates one: CREATE BOARD with its columns (base
 * columns implied), their origins and its strict bit. */
static void board_sql(pier__buf *out, const pier__board *b)
{
    pier__buf_printf(out, "CREATE BOARD %s", b->id);
    for (size_t i = PIER__BASE_COLUMNS; i < b->ncolumns; i++) {
        const pier__column *c = &b->columns[i];
        pier__buf_puts(out, i == PIER__BASE_COLUMNS ? " (\n    "
                                                    : ",\n    ");
        pier__sql_quote_ident(out, c->name);
        pier__buf_printf(out, " %s%s", pier__type_name(c->type),
                         c->origin == PIER_ORIGIN_INFERRED ? " INFERRED"
                                                           : "");
    }
    if (b->ncolumns > PIER__BASE_COLUMNS)
        pier__buf_puts(out, "\n)");
    pier__buf_puts(out, b->strict ? " STRICT;\n" : ";\n");
}

static pier_status walk_schema(walk *w)
{
    pier_engine *e = w->e;
    pier_status rc = pier__engine_begin(e, false, w->err);
    if (rc != PIER_OK)
        return rc;
    rc = pier__schema_drift(e, w->err);
    if (rc == PIER_OK && w->only == NULL)
        for (size_t i = 0; i < e->catalog.nboards; i++)
            board_sql(w->out, e->catalog.boards[i]);
    if (rc == PIER_OK)
        rc = e->lake->ops->schema_objects(e->lake, walk_object, w, w->err);
    if (rc == PIER_OK)
        rc = w->rc;
    /* Commit triggers last: their tables exist by then. */
    for (size_t i = 0; rc == PIER_OK && w->only == NULL &&
                       i < e->catalog.ntriggers; i++) {
        pier__trigger_sql(w->out, e->catalog.triggers[i]);
        pier__buf_puts(w->out, ";\n");
    }
    return pier__engine_end(e, rc, w->err);
}

PIER_API pier_status pier_schema_dump(char **out, pier_engine *engine,
                                      pier_error *err)
{
    pier__error_clear(err);
    if (out == NULL || engine == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_schema_dump needs an output and an engine");
    if (pier__engine_embedded(engine, "declared tables", err) != PIER_OK)
        return PIER_E_TOPOLOGY_UNSUPPORTED;
    *out = NULL;
    pier__buf b;
    pier__buf_init(&b);
    walk w = { .e = engine, .out = &b, .err = err };
    pier_status rc = walk_schema(&w);
    if (rc == PIER_OK && b.oom)
        rc = pier__oom(err);
    if (rc == PIER_OK)
        *out = pier__buf_detach(&b);
    pier__buf_free(&b);
    return rc;
}

PIER_API pier_status pier_schema_check(pier_engine *engine, pier_error *err)
{
    pier__error_clear(err);
    if (engine == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_schema_check needs an engine");
    if (pier__engine_embedded(engine, "declared tables", err) != PIER_OK)
        return PIER_E_TOPOLOGY_UNSUPPORTED;
    pier_status rc = pier__engine_begin(engine, false, err);
    if (rc != PIER_OK)
        return rc;
    return pier__engine_end(engine, pier__schema_drift(engine, err), err);
}

/* ---- tables ---- */

PIER_API pier_status pier_table_list(char ***out, pier_engine *engine,
                                     pier_error *err)
{
    pier__error_clear(err);
    if (out == NULL || engine == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_table_list needs an output and an engine");
    if (pier__engine_embedded(engine, "declared tables", err) != PIER_OK)
        return PIER_E_TOPOLOGY_UNSUPPORTED;
    *out = NULL;
    pier_status rc = pier__engine_begin(engine, false, err);
    if (rc != PIER_OK)
        return rc;
    rc = pier__schema_drift(engine, err);
    const pier__catalog *c = &engine->catalog;
    char **names = rc == PIER_OK ? calloc(c->ntables + 1, sizeof *names)
                                 : NULL;
    if (rc == PIER_OK && names == NULL)
        rc = pier__oom(err);
    for (size_t i = 0; rc == PIER_OK && i < c->ntables; i++)
        if ((names[i] = pier__strdup(c->tables[i]->name)) == NULL)
            rc = pier__oom(err);
    rc = pier__engine_end(engine, rc, err);
    if (rc != PIER_OK) {
        pier_strings_free(names);
        return rc;
    }
    *out = names;
    return PIER_OK;
}

/* A description and everything it points at, in one allocation's arena. */
typedef struct table_info {
    pier_table_info info;
    pier__arena arena;
} table_info;

PIER_API void pier_table_info_free(pier_table_info *info)
{
    if (info == NULL)
        return;
    table_info *ti = (table_info *)info;
    pier__arena_free(&ti->arena);
    free(ti);
}

static const char *keep(pier__arena *a, const char *s)
{
    return pier__arena_strndup(a, s, strlen(s));
}

PIER_API pier_status pier_table_describe(pier_table_info **out,
                                         pier_engine *engine,
                                         const char *table, pier_error *err)
{
    pier__error_clear(err);
    if (out == NULL || engine == NULL || table == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_table_describe needs an output, an engine "
                          "and a table");
    *out = NULL;
    if (pier__engine_embedded(engine, "declared tables", err) != PIER_OK)
        return PIER_E_TOPOLOGY_UNSUPPORTED;
    table_info *ti = calloc(1, sizeof *ti);
    if (ti == NULL)
        return pier__oom(err);
    pier__arena_init(&ti->arena);
    pier__buf sql;
    pier__buf_init(&sql);
    walk w = { .e = engine, .out = &sql, .only = table, .err = err };
    pier_status rc = pier__engine_begin(engine, false, err);
    const pier__table *t = NULL;
    bool began = rc == PIER_OK;
    if (rc == PIER_OK)
        rc = pier__schema_drift(engine, err);
    if (rc == PIER_OK) {
        t = pier__catalog_find_table(&engine->catalog, table);
        if (t == NULL) {
            pier__fail(err, PIER_E_TABLE_NOT_FOUND, "no table '%s'", table);
            pier__error_board(err, table);
            rc = PIER_E_TABLE_NOT_FOUND;
        }
    }
    if (rc == PIER_OK)
        rc = engine->lake->ops->schema_objects(engine->lake, walk_object, &w,
                                               err);
    if (rc == PIER_OK)
        rc = w.rc;
    pier_table_column *cols = NULL;
    if (rc == PIER_OK) {
        cols = pier__arena_alloc(&ti->arena,
                                 (t->ncolumns + 1) * sizeof *cols);
        ti->info.table = keep(&ti->arena, t->name);
        ti->info.sql = keep(&ti->arena, sql.oom || sql.p == NULL ? ""
                                                                 : sql.p);
        if (cols == NULL || ti->info.table == NULL || ti->info.sql == NULL)
            rc = pier__oom(err);
    }
    for (size_t i = 0; rc == PIER_OK && i < t->ncolumns; i++) {
        const pier__tcolumn *c = &t->columns[i];
        cols[i] = (pier_table_column){
            .id = c->id,
            .name = keep(&ti->arena, c->name),
            .type = keep(&ti->arena, c->spelling),
            .kind = pier__coltype_kind(&c->type),
            .readonly = c->readonly,
        };
        if (cols[i].name == NULL || cols[i].type == NULL)
            rc = pier__oom(err);
    }
    if (rc == PIER_OK) {
        ti->info.id = t->id;
        ti->info.ncolumns = t->ncolumns;
        ti->info.columns = cols;
    }
    if (began)
        rc = pier__engine_end(engine, rc, err);
    pier__buf_free(&sql);
    if (rc != PIER_OK) {
        pier_table_info_free(&ti->info);
        return rc;
    }
    *out = &ti->info;
    return PIER_OK;
}
