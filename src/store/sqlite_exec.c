/*
 * sqlite_exec.c: statements of the SQL dialect (pier_exec) on the writer
 * connection, and the policy they run under.
 *
 * pier_exec runs as the lake's owner: a statement may read and write
 * every declared table, view and index, but never the engine's own
 * objects (names starting with _pier_: the catalog, the change log, the
 * boards' tables), and it may not change the schema in ways the engine
 * would not know about. The front-end (src/sql) sends DML, SELECT and the
 * DDL it lets SQLite do as written (CREATE/DROP INDEX and VIEW); CREATE,
 * ALTER and DROP TABLE it translates itself and runs through `ddl`, outside
 * the policy. The authorizer stays installed for the connection's life
 * and judges only while a user statement is prepared or stepped (SQLite
 * may re-prepare it during a step after a schema change); the engine's
 * own statements pass.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/sqlite_int.h"

static bool reserved(const char *name)
{
    return name != NULL && sqlite3_strnicmp(name, "_pier_", 6) == 0;
}

static int deny(pier__sqlite_lake *l, const char *what, const char *name)
{
    if (l->denied[0] == '\0')
        snprintf(l->denied, sizeof l->denied, name != NULL ? "%s '%s'" : "%s",
                 what, name);
    return SQLITE_DENY;
}

static int authorize(void *payload, int action, const char *a, const char *b,
                     const char *db, const char *via)
{
    (void)db;
    (void)via;
    pier__sqlite_lake *l = payload;
    if (l->importing) {
        /* An export's CREATE statements make the lake's own schema: a
         * temporary object would live on in this connection. (A virtual
         * table's module runs statements of its own here: they are
         * allowed.) */
        switch (action) {
        case SQLITE_CREATE_TEMP_INDEX:
        case SQLITE_CREATE_TEMP_TABLE:
        case SQLITE_CREATE_TEMP_TRIGGER:
        case SQLITE_CREATE_TEMP_VIEW:
        case SQLITE_ATTACH:
        case SQLITE_DETACH:
            l->import_denied = true;
            return SQLITE_DENY;
        default:
            return SQLITE_OK;
        }
    }
    if (!l->user_policy)
        return SQLITE_OK;
    switch (action) {
    case SQLITE_READ:
        /* The schema table names the engine's objects and physical
         * definitions: `pier schema dump` is the dialect's view of it. */
        /* (Setting up a table-valued function such as json_each reads
         * the schema table's ROWID: that reveals nothing.) */
        if (!l->user_ddl && a != NULL &&
            (strcmp(a, "sqlite_master") == 0 ||
             strcmp(a, "sqlite_temp_master") == 0) &&
            (b == NULL || strcmp(b, "ROWID") != 0))
            return deny(l, "the schema table (pier schema dump shows the "
                        "schema)", NULL);
        /* fall through */
    case SQLITE_INSERT:
    case SQLITE_UPDATE:
    case SQLITE_DELETE:
        return reserved(a) ? deny(l, "the engine's own table", a)
                           : SQLITE_OK;
    case SQLITE_CREATE_INDEX:
    case SQLITE_DROP_INDEX:
        if (reserved(a) || reserved(b))
            return deny(l, "an index of the engine's own",
                        reserved(a) ? a : b);
        return SQLITE_OK;
    case SQLITE_CREATE_VIEW:
    case SQLITE_DROP_VIEW:
        return reserved(a) ? deny(l, "a view named", a) : SQLITE_OK;
    case SQLITE_REINDEX:       /* CREATE INDEX fills its index so; the
                                  statement REINDEX never gets here */
        return reserved(a) ? deny(l, "an index of the engine's own", a)
                           : SQLITE_OK;
    case SQLITE_SELECT:
    case SQLITE_FUNCTION:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_PRAGMA:
        return deny(l, "PRAGMA", a);
    case SQLITE_ATTACH:
    case SQLITE_DETACH:
        return deny(l, "attaching databases", NULL);
    case SQLITE_TRANSACTION:
    case SQLITE_SAVEPOINT:
        return deny(l, "a transaction statement here", NULL);
    case SQLITE_CREATE_TRIGGER:
    case SQLITE_CREATE_TEMP_TRIGGER:
    case SQLITE_DROP_TRIGGER:
    case SQLITE_DROP_TEMP_TRIGGER:
        return deny(l, "triggers", NULL);
    case SQLITE_CREATE_VTABLE:
    case SQLITE_DROP_VTABLE:
        return deny(l, "virtual tables", NULL);
    default:
        /* Tables are created, altered and dropped by the front-end; TEMP
         * objects and ANALYZE are not part of the dialect. */
        return deny(l, "this statement", NULL);
    }
}

void pier__sqlite_exec_init(pier__sqlite_lake *l)
{
    pier__arena_init(&l->shape_mem);
    l->schema_checked = -1;
    l->cache_cookie = -1;
    l->fts_cookie = -1;
    sqlite3_set_authorizer(l->db, authorize, l);
}

bool pier__sqlite_in_write(pier__lake *lake)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    return !sqlite3_get_autocommit(l->db);
}

void pier__sqlite_stmt_guard(pier__lake *lake, pier__guard *g)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    /* The engine's own writes run without the handler: they are bounded
     * by the engine's own limits, and pay nothing for it. */
    sqlite3_progress_handler(l->db, g != NULL ? PIER__GUARD_STEPS : 0,
                             g != NULL ? pier__sqlite_guard_progress : NULL,
                             &l->guard);
    pier__sqlite_guard_attach(l->db, &l->guard, g);
    /* The limit on one value is the user's statements' (their binds and
     * steps): the engine's own statements of the call run without it. */
    pier__sqlite_guard_length(l->db, NULL);
    /* One pier_exec call is one span of time, from now. */
    pier__sqlite_guard_step(g, true);
}

/* Whether SQLite's code says that the lake could not carry a statement
 * out (an I/O error, a full disk, a lock, a damaged file), rather than
 * that the statement itself was refused. */
static bool storage_failure(int code)
{
    switch (code & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_READONLY:
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    case SQLITE_CANTOPEN:
    case SQLITE_PROTOCOL:
        return true;
    default:
        return false;
    }
}

pier_status pier__sqlite_ddl(pier__lake *lake, const char *sql,
                             pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    if (l->readonly)
        return pier__fail(err, PIER_E_WRITE_FAILED, "the lake '%s' is open "
                          "read-only (--readonly): nothing was written",
                          l->data_dir);
    pier_status rc = pier__sqlite_exec(l, sql, PIER_E_WRITE_FAILED, err);
    if (rc == PIER_E_WRITE_FAILED &&
        !storage_failure(sqlite3_extended_errcode(l->db))) {
        rc = PIER_E_QUERY_FAILED;
        if (err != NULL) {
            err->status = rc;
            err->tag = pier_status_tag(rc);
        }
    }
    return rc;
}

/* Keeps a finished statement (reset, unbound) at the front of the cache
 * under its text, finalizing the least recently used one if it is full. */
/* The names of a statement's parameters in one block (pointers, then the
 * names), from its shape; NULL if out of memory. */
static char **params_block(const pier__stmt_shape *shape)
{
    size_t bytes = (shape->nparams + 1) * sizeof(char *);
    for (size_t i = 0; i < shape->nparams; i++)
        if (shape->params[i] != NULL)
            bytes += strlen(shape->params[i]) + 1;
    char **block = malloc(bytes);
    if (block == NULL)
        return NULL;
    char *text = (char *)(block + shape->nparams + 1);
    for (size_t i = 0; i < shape->nparams; i++) {
        block[i] = NULL;
        if (shape->params[i] != NULL) {
            size_t n = strlen(shape->params[i]) + 1;
            memcpy(text, shape->params[i], n);
            block[i] = text;
            text += n;
        }
    }
    block[shape->nparams] = NULL;
    return block;
}

static void cache_put(pier__sqlite_lake *l, sqlite3_stmt *st, char **params,
                      size_t nparams, unsigned char *exact)
{
    char *sql = pier__strdup(sqlite3_sql(st));
    if (sql == NULL) {
        free(params);
        free(exact);
        sqlite3_finalize(st);
        return;
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    pier__cached_stmt *c = l->user_cache;
    const size_t n = PIER__USER_STMT_CACHE;
    free(c[n - 1].sql);
    free(c[n - 1].params);
    free(c[n - 1].exact);
    sqlite3_finalize(c[n - 1].stmt);
    memmove(c + 1, c, (n - 1) * sizeof *c);
    c[0] = (pier__cached_stmt){ sql, st, params, nparams, exact };
}

/* Takes the statement of this text out of the cache, if it is there. */
static sqlite3_stmt *cache_take(pier__sqlite_lake *l, const char *sql,
                                size_t len)
{
    pier__cached_stmt *c = l->user_cache;
    for (size_t i = 0; i < PIER__USER_STMT_CACHE && c[i].sql != NULL; i++) {
        if (strncmp(c[i].sql, sql, len) != 0 || c[i].sql[len] != '\0')
            continue;
        sqlite3_stmt *st = c[i].stmt;
        free(c[i].sql);
        l->user_params = c[i].params;
        l->user_nparams = c[i].nparams;
        l->user_exact = c[i].exact;
        memmove(c + i, c + i + 1,
                (PIER__USER_STMT_CACHE - i - 1) * sizeof *c);
        c[PIER__USER_STMT_CACHE - 1] = (pier__cached_stmt){ NULL, NULL,
                                                            NULL, 0, NULL };
        return st;
    }
    return NULL;
}

static void cache_clear(pier__sqlite_lake *l)
{
    for (size_t i = 0; i < PIER__USER_STMT_CACHE; i++) {
        free(l->user_cache[i].sql);
        free(l->user_cache[i].params);
        free(l->user_cache[i].exact);
        sqlite3_finalize(l->user_cache[i].stmt);
        l->user_cache[i] = (pier__cached_stmt){ NULL, NULL, NULL, 0, NULL };
    }
}

void pier__sqlite_exec_close(pier__sqlite_lake *l)
{
    cache_clear(l);
    sqlite3_finalize(l->schema_version);
    l->schema_version = NULL;
}

void pier__sqlite_stmt_finish(pier__lake *lake)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    if (l->user_stmt != NULL && l->user_cacheable) {
        bool kept = l->user_params != NULL;
        char **params = kept ? l->user_params : params_block(&l->shape);
        cache_put(l, l->user_stmt, params,
                  kept ? l->user_nparams : l->shape.nparams, l->user_exact);
    } else {
        free(l->user_params);
        free(l->user_exact);
        sqlite3_finalize(l->user_stmt);
    }
    l->user_params = NULL;
    l->user_nparams = 0;
    l->user_exact = NULL;
    l->user_stmt = NULL;
    l->user_cacheable = false;
    l->user_policy = false;
    pier__arena_reset(&l->shape_mem);
    memset(&l->shape, 0, sizeof l->shape);
}

static char *keep(pier__sqlite_lake *l, const char *s)
{
    return s != NULL ? pier__arena_strndup(&l->shape_mem, s, strlen(s))
                     : NULL;
}

/* Fills l->shape from the prepared statement. */
static pier_status describe(pier__sqlite_lake *l, pier_error *err)
{
    sqlite3_stmt *st = l->user_stmt;
    size_t n = (size_t)sqlite3_column_count(st);
    size_t np = (size_t)sqlite3_bind_parameter_count(st);
    const char **names = pier__arena_alloc(&l->shape_mem,
                                           (3 * n + np + 1) * sizeof *names);
    if (names == NULL)
        return pier__oom(err);
    const char **tables = names + n, **columns = tables + n;
    const char **params = columns + n;
    for (size_t i = 0; i < n; i++) {
        const char *db = sqlite3_column_database_name(st, (int)i);
        bool main_table = db != NULL && strcmp(db, "main") == 0;
        names[i] = keep(l, sqlite3_column_name(st, (int)i));
        tables[i] = main_table ? keep(l, sqlite3_column_table_name(st, (int)i))
                               : NULL;
        columns[i] = main_table
                         ? keep(l, sqlite3_column_origin_name(st, (int)i))
                         : NULL;
        if (names[i] == NULL)
            return pier__oom(err);
    }
    /* SQLite finds each name by walking a list: a statement seen before
     * brings them along */
    if (l->user_params != NULL && l->user_nparams != np) {
        free(l->user_params);      /* not this statement's: read again */
        l->user_params = NULL;
    }
    for (size_t i = 0; i < np; i++)
        params[i] = l->user_params != NULL
                        ? l->user_params[i]
                        : keep(l, sqlite3_bind_parameter_name(st, (int)i + 1));
    if (n > l->cells_cap) {
        pier__cell *cells = realloc(l->cells, n * sizeof *cells);
        if (cells == NULL)
            return pier__oom(err);
        l->cells = cells;
        l->cells_cap = n;
    }
    l->shape = (pier__stmt_shape){ .ncolumns = n, .names = names,
                                   .tables = tables, .columns = columns,
                                   .nparams = np, .params = params };
    return PIER_OK;
}

pier_status pier__sqlite_stmt_prepare(pier__lake *lake, const char *sql,
                                      size_t len, bool ddl,
                                      pier__stmt_shape *shape,
                                      pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    pier__sqlite_stmt_finish(lake);
    /* What the cache holds was checked (sqlite_exact.c) under the schema
     * it was prepared with, which SQLite's own re-prepare does not redo:
     * a schema changed since empties it. */
    int64_t cookie = pier__sqlite_schema_cookie(l);
    if (cookie < 0 || cookie != l->cache_cookie) {
        cache_clear(l);
        l->cache_cookie = cookie;
        lake->schema_epoch++;
    }
    l->user_ddl = ddl;
    l->denied[0] = '\0';
    memset(&l->failure, 0, sizeof l->failure);
    /* DDL runs once; everything else may come again. A statement in the
     * cache passed the policy when it was prepared, and SQLite prepares it
     * again under the policy (during a step) if the schema changed (which,
     * here, it did not). */
    l->user_stmt = ddl ? NULL : cache_take(l, sql, len);
    bool cached = l->user_stmt != NULL;
    int rc = SQLITE_OK;
    if (l->user_stmt == NULL) {
        l->user_policy = true;
        rc = pier__sqlite_prepare(l->db, sql, (int)len,
                                  ddl ? 0 : SQLITE_PREPARE_PERSISTENT,
                                  &l->user_stmt, NULL);
        l->user_policy = false;
    }
    l->user_cacheable = rc == SQLITE_OK && !ddl && l->user_stmt != NULL;
    pier_status exact = PIER_OK;
    lake->exact_ops = false;
    if (l->user_cacheable && !cached)
        exact = pier__sqlite_check_exact(l, sql, len,
                                         lake->exact_rewritten,
                                         &lake->exact_ops, &l->user_exact,
                                         err);
    if (exact != PIER_OK) {
        if (err != NULL)
            err->offset = -1;
        l->user_cacheable = false;
        pier__sqlite_stmt_finish(lake);
        return exact;
    }
    if (rc != SQLITE_OK) {
        pier_status st = PIER_E_QUERY_FAILED;
        if (l->denied[0] != '\0') {
            pier__fail(err, PIER_E_ENTITY_NOT_ALLOWED,
                       "a statement of the SQL dialect may not touch %s",
                       l->denied);
            st = PIER_E_ENTITY_NOT_ALLOWED;
        } else {
            pier__sqlite_fail(l, err, PIER_E_QUERY_FAILED, "SQLite refused "
                              "the statement");
        }
        if (err != NULL)
            err->offset = sqlite3_error_offset(l->db);
        if ((sqlite3_errcode(l->db) & 0xff) == SQLITE_NOMEM)
            st = PIER_E_OUT_OF_MEMORY;
        pier__sqlite_stmt_finish(lake);
        return st;
    }
    if (l->readonly && (ddl || !sqlite3_stmt_readonly(l->user_stmt))) {
        pier__sqlite_stmt_finish(lake);
        return pier__fail(err, PIER_E_WRITE_FAILED, "the lake '%s' is open "
                          "read-only (--readonly): a statement that writes "
                          "is refused, and nothing was written",
                          l->data_dir);
    }
    pier_status st = l->user_stmt != NULL ? describe(l, err) : PIER_OK;
    if (st != PIER_OK) {
        pier__sqlite_stmt_finish(lake);
        return st;
    }
    *shape = l->shape;
    return PIER_OK;
}

pier_status pier__sqlite_stmt_bind(pier__lake *lake, int i,
                                   const pier__cell *c, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    sqlite3_stmt *st = l->user_stmt;
    int rc;
    switch (c->st) {
    case PIER__ST_INT:
        rc = sqlite3_bind_int64(st, i, c->i);
        break;
    case PIER__ST_REAL: {
        /* a parameter an exact column takes: the double's shortest text
         * (SQLite's own conversion keeps 15 digits) */
        size_t k = (size_t)i - 1;
        size_t count = (size_t)sqlite3_bind_parameter_count(st);
        unsigned char how = l->user_exact != NULL && i >= 1 && k < count
                                ? l->user_exact[k]
                                : PIER__PARAM_AS_IS;
        if (how == PIER__PARAM_BOTH && isfinite(c->d)) {
            const char *name = sqlite3_bind_parameter_name(st, i);
            return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                              "parameter %s is a REAL that fills an exact "
                              "column (DECIMAL, UINT64, INT128) and another "
                              "column: bind the number as a string",
                              name != NULL ? name : "?");
        }
        if (how == PIER__PARAM_TEXT && isfinite(c->d)) {
            char text[PIER__DOUBLE_BUF];
            size_t n = pier__double_format(c->d, text);
            rc = sqlite3_bind_text64(st, i, text, n, SQLITE_TRANSIENT,
                                     SQLITE_UTF8);
            break;
        }
        rc = sqlite3_bind_double(st, i, c->d);
        break;
    }
    case PIER__ST_TEXT:
        pier__sqlite_guard_length(l->db, l->guard);
        rc = sqlite3_bind_text64(st, i, c->p, c->n, SQLITE_TRANSIENT,
                                 SQLITE_UTF8);
        pier__sqlite_guard_length(l->db, NULL);
        break;
    case PIER__ST_BLOB:
        pier__sqlite_guard_length(l->db, l->guard);
        rc = sqlite3_bind_blob64(st, i, c->p, c->n, SQLITE_TRANSIENT);
        pier__sqlite_guard_length(l->db, NULL);
        break;
    default:
        rc = sqlite3_bind_null(st, i);
        break;
    }
    if (rc == SQLITE_TOOBIG && l->guard != NULL)
        return pier__sqlite_guard_fail(l->guard, rc, err);
    if (rc != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_INVALID_ARGUMENT,
                                 "cannot bind a parameter");
    return PIER_OK;
}

/* "cannot store TEXT value in INTEGER column t.c": the table and column
 * of a STRICT datatype refusal (SQLite gives no structured form). */
static void datatype_names(pier__sqlite_lake *l, const char *msg)
{
    const char *p = strstr(msg, " column ");
    if (p == NULL)
        return;
    p += strlen(" column ");
    const char *dot = strrchr(p, '.');
    if (dot == NULL)
        return;
    snprintf(l->failure.table, sizeof l->failure.table, "%.*s",
             (int)(dot - p), p);
    snprintf(l->failure.column, sizeof l->failure.column, "%s", dot + 1);
}

pier_status pier__sqlite_step_status(pier__sqlite_lake *l, int code,
                                     const char *msg)
{
    static const char readonly_tag[] = "_pier_readonly:";
    switch (code) {
    case SQLITE_CONSTRAINT_UNIQUE:
        return PIER_E_CONSTRAINT_UNIQUE;
    case SQLITE_CONSTRAINT_PRIMARYKEY:
    case SQLITE_CONSTRAINT_ROWID:
        return PIER_E_CONSTRAINT_PRIMARY_KEY;
    case SQLITE_CONSTRAINT_NOTNULL:
        return PIER_E_CONSTRAINT_NOT_NULL;
    case SQLITE_CONSTRAINT_CHECK:
        return PIER_E_CONSTRAINT_CHECK;
    case SQLITE_CONSTRAINT_FOREIGNKEY:
        return PIER_E_CONSTRAINT_FOREIGN_KEY;
    case SQLITE_CONSTRAINT_DATATYPE:
        datatype_names(l, msg);
        return PIER_E_COLUMN_TYPE_CONFLICT;
    case SQLITE_MISMATCH:          /* a rowid alias given a non-integer */
        return PIER_E_COLUMN_TYPE_CONFLICT;
    case SQLITE_CONSTRAINT_TRIGGER:
        if (strncmp(msg, readonly_tag, sizeof readonly_tag - 1) == 0) {
            l->failure.column_id =
                strtoll(msg + sizeof readonly_tag - 1, NULL, 10);
            return PIER_E_READONLY_COLUMN;
        }
        return PIER_E_CONSTRAINT_CHECK;
    default:
        if (l->failure.fk != 0)
            return PIER_E_CONSTRAINT_FOREIGN_KEY;
        if (l->failure.cast)
            return PIER_E_COLUMN_TYPE_CONFLICT;
        if (l->failure.column_id != 0)
            return PIER_E_COLUMN_TYPE_CONFLICT;
        switch (code & 0xff) {
        case SQLITE_NOMEM:
            return PIER_E_OUT_OF_MEMORY;
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
        case SQLITE_IOERR:
        case SQLITE_FULL:
        case SQLITE_READONLY:
        case SQLITE_CORRUPT:
            return PIER_E_WRITE_FAILED;
        case SQLITE_AUTH:
            return PIER_E_ENTITY_NOT_ALLOWED;
        default:
            return PIER_E_QUERY_FAILED;
        }
    }
}

pier_status pier__sqlite_stmt_step(pier__lake *lake, const pier__cell **cells,
                                   const pier__stmt_failure **failure,
                                   pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    *cells = NULL;
    *failure = &l->failure;
    if (l->user_stmt == NULL)
        return PIER_OK;
    l->user_policy = true;
    pier__sqlite_guard_length(l->db, l->guard);
    int rc = sqlite3_step(l->user_stmt);
    pier__sqlite_guard_length(l->db, NULL);
    l->user_policy = false;
    if (rc == SQLITE_ROW) {
        for (size_t i = 0; i < l->shape.ncolumns; i++)
            pier__sqlite_cell(&l->cells[i],
                              sqlite3_column_value(l->user_stmt, (int)i));
        *cells = l->cells;
        return PIER_OK;
    }
    if (rc == SQLITE_DONE)
        return PIER_OK;
    int code = sqlite3_extended_errcode(l->db);
    pier_status limit = pier__sqlite_guard_fail(l->guard, code, err);
    if (limit != PIER_OK)
        return limit;
    const char *msg = sqlite3_errmsg(l->db);
    pier_status st = l->denied[0] != '\0'
                         ? PIER_E_ENTITY_NOT_ALLOWED
                         : pier__sqlite_step_status(l, code, msg);
    if (st == PIER_E_ENTITY_NOT_ALLOWED)
        pier__fail(err, st, "a statement of the SQL dialect may not touch %s",
                   l->denied);
    else
        pier__fail(err, st, "%s", msg);
    if (err != NULL)
        err->backend_code = code;
    return st;
}

int64_t pier__sqlite_stmt_changes(pier__lake *lake)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    /* sqlite3_changes64 is the last INSERT, UPDATE or DELETE's, whichever
     * statement that was. */
    if (l->user_stmt == NULL || sqlite3_stmt_readonly(l->user_stmt))
        return 0;
    return sqlite3_changes64(l->db);
}
