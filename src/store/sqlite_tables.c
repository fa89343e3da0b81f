/*
 * sqlite_tables.c: the catalog of declared tables, and the SQL schema as
 * Pier made it.
 *
 *   _pier_tables(table_id AUTOINCREMENT, name, created_at)
 *   _pier_table_columns(column_id AUTOINCREMENT, table_id, position, name,
 *                       type, readonly)     ids are never reused
 *   _pier_schema(name, type, tbl_name, sql) sqlite_schema's rows for the
 *                       dialect's objects, as the last DDL statement of
 *                       pier_exec left them
 * and, from format 3, what migrations keep beside the SQL:
 *   _pier_tables.managed, _pier_boards.managed  a migration made it
 *   _pier_table_columns.rules   1: dflt and backfill are the column's as
 *                       declared (a migration made it); 0: its default
 *                       is the one its SQL says, and it has no backfill
 *   _pier_table_columns.dflt, .backfill  SQL literals, or now() (dflt)
 *   _pier_table_columns.added  1: a migration added it to a table that
 *                       held rows (its SQL's default is its backfill)
 *   _pier_views(name, columns, managed)  a view's declared columns, as
 *                       JSON [[name, type], ...]
 *   _pier_indexes(name, managed)  indexes a migration made
 *
 * A table's physical definition (in sqlite_schema) carries its columns'
 * checks, collations and read-only triggers; the catalog carries what the
 * engine needs without parsing it: ids, names, logical types, read-only
 * bits. _pier_schema is how a change made behind Pier's back (sqlite3 on
 * the file) is noticed: what sqlite_schema holds is compared with what
 * Pier last left there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/sqlite_int.h"
#include "types/spelling.h"

const char pier__sqlite_tables_schema[] =
    "CREATE TABLE _pier_tables("
    "  table_id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  name TEXT NOT NULL UNIQUE COLLATE NOCASE,"
    "  created_at INTEGER NOT NULL) STRICT;"
    "CREATE TABLE _pier_table_columns("
    "  column_id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  table_id INTEGER NOT NULL REFERENCES _pier_tables(table_id),"
    "  position INTEGER NOT NULL,"
    "  name TEXT NOT NULL,"
    "  type TEXT NOT NULL,"
    "  readonly INTEGER NOT NULL,"
    "  UNIQUE (table_id, name COLLATE NOCASE)) STRICT;"
    "CREATE TABLE _pier_schema("
    "  name TEXT PRIMARY KEY,"
    "  type TEXT NOT NULL,"
    "  tbl_name TEXT NOT NULL,"
    "  sql TEXT) STRICT;";

const char pier__sqlite_migrations_schema[] =
    "ALTER TABLE _pier_tables ADD COLUMN managed INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE _pier_boards ADD COLUMN managed INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE _pier_table_columns"
    "  ADD COLUMN rules INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE _pier_table_columns ADD COLUMN dflt TEXT;"
    "ALTER TABLE _pier_table_columns ADD COLUMN backfill TEXT;"
    "ALTER TABLE _pier_table_columns"
    "  ADD COLUMN added INTEGER NOT NULL DEFAULT 0;"
    "CREATE TABLE _pier_views("
    "  name TEXT PRIMARY KEY COLLATE NOCASE,"
    "  columns TEXT NOT NULL,"
    "  managed INTEGER NOT NULL) STRICT;"
    "CREATE TABLE _pier_indexes("
    "  name TEXT PRIMARY KEY COLLATE NOCASE,"
    "  managed INTEGER NOT NULL) STRICT;";

/* The rows of sqlite_schema that belong to the dialect: everything but
 * the engine's own objects (their table's name starts with _pier_) and
 * SQLite's (sqlite_sequence, sqlite_stat1). Indexes SQLite makes for a
 * UNIQUE or PRIMARY KEY constraint follow from their table's SQL. */
#define DIALECT_OBJECTS                                                   \
    "FROM sqlite_schema WHERE tbl_name NOT LIKE '\\_pier\\_%' ESCAPE '\\' " \
    "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "

static pier_status damaged(pier_error *err, const char *table,
                           const char *what)
{
    return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                      "the catalog entry of table '%s' is damaged: %s",
                      table, what);
}

pier_status pier__sqlite_tables_load(pier__sqlite_lake *l,
                                     pier__catalog *out, pier_error *err)
{
    sqlite3_stmt *tables = NULL, *cols = NULL;
    pier_status rc = PIER_OK;
    if (sqlite3_prepare_v2(l->db,
                           "SELECT table_id, name FROM _pier_tables",
                           -1, &tables, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(l->db,
                           "SELECT column_id, name, type, readonly, "
                           "rules AND added AND backfill IS NOT NULL AND "
                           "dflt IS NULL, "
                           "CASE WHEN rules AND added THEN dflt END "
                           "FROM _pier_table_columns WHERE table_id = ?1 "
                           "ORDER BY position", -1, &cols, NULL) !=
            SQLITE_OK) {
        rc = pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                               "cannot read the catalog");
        goto done;
    }
    int step;
    while (rc == PIER_OK && (step = sqlite3_step(tables)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(tables, 1);
        pier__table *t = pier__table_new(name != NULL ? name : "");
        if (t == NULL) {
            rc = pier__oom(err);
            break;
        }
        t->id = sqlite3_column_int64(tables, 0);
        sqlite3_bind_int64(cols, 1, t->id);
        int cstep = SQLITE_DONE;
        while (rc == PIER_OK && (cstep = sqlite3_step(cols)) == SQLITE_ROW) {
            const char *cname = (const char *)sqlite3_column_text(cols, 1);
            const char *type = (const char *)sqlite3_column_text(cols, 2);
            pier__sqltype known;
            if (cname == NULL || type == NULL)
                rc = damaged(err, t->name, "a column has an unknown type");
            else if (!pier__table_append(t, cname, type,
                                         sqlite3_column_int(cols, 3) != 0))
                /* (a type that parses failed for want of memory) */
                rc = pier__sqltype_parse(type, strlen(type), &known, NULL,
                                         NULL) == NULL
                         ? pier__oom(err)
                         : damaged(err, t->name,
                                   "a column has an unknown type");
            else {
                t->columns[t->ncolumns - 1].id =
                    sqlite3_column_int64(cols, 0);
                t->columns[t->ncolumns - 1].named =
                    sqlite3_column_int(cols, 4) != 0;
                const char *fill = (const char *)sqlite3_column_text(cols,
                                                                     5);
                if (fill != NULL &&
                    (t->columns[t->ncolumns - 1].fill =
                         pier__strdup(fill)) == NULL)
                    rc = pier__oom(err);
            }
        }
        sqlite3_reset(cols);
        /* A read that fails part-way must not leave a table with half its
         * columns (and SQLite may have rolled the transaction back). */
        if (rc == PIER_OK && cstep != SQLITE_DONE)
            rc = pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                   "cannot read the catalog");
        if (rc != PIER_OK) {
            pier__table_free(t);
            break;
        }
        if (!pier__catalog_put_table(out, t))
            rc = pier__oom(err);
    }
    if (rc == PIER_OK && step != SQLITE_DONE)
        rc = pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                               "cannot read the catalog");
done:
    sqlite3_finalize(tables);
    sqlite3_finalize(cols);
    return rc;
}

/* Prepares `sql`, or reports why not as a failed catalog change. */
static pier_status prep(pier__sqlite_lake *l, const char *sql,
                        sqlite3_stmt **st, pier_error *err)
{
    if (sqlite3_prepare_v2(l->db, sql, -1, st, NULL) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot change the catalog");
    return PIER_OK;
}

static pier_status done_step(pier__sqlite_lake *l, sqlite3_stmt *st,
                             pier_error *err)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot change the catalog");
    return PIER_OK;
}

pier_status pier__sqlite_table_save(pier__lake *lake, pier__table *t,
                                    pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    sqlite3_stmt *st = NULL, *ins = NULL, *upd = NULL;
    pier_status rc;
    if (t->id == 0) {
        rc = prep(l, "INSERT INTO _pier_tables(name, created_at) "
                  "VALUES (?1, CAST((julianday('now') - 2440587.5) * "
                  "86400000000 AS INTEGER))", &st, err);
    } else {
        rc = prep(l, "UPDATE _pier_tables SET name = ?1 WHERE table_id = ?2",
                  &st, err);
        if (rc == PIER_OK)
            sqlite3_bind_int64(st, 2, t->id);
    }
    if (rc == PIER_OK) {
        sqlite3_bind_text(st, 1, t->name, -1, SQLITE_STATIC);
        rc = done_step(l, st, err);
    }
    if (rc == PIER_OK && t->id == 0)
        t->id = sqlite3_last_insert_rowid(l->db);
    sqlite3_finalize(st);
    st = NULL;
    /* Columns the model no longer has go, then every column takes its
     * position and name. */
    pier__buf keep;
    pier__buf_init(&keep);
    pier__buf_printf(&keep, "DELETE FROM _pier_table_columns WHERE "
                     "table_id = %lld AND column_id NOT IN (",
                     (long long)t->id);
    for (size_t i = 0; i < t->ncolumns; i++)
        pier__buf_printf(&keep, "%s%lld", i > 0 ? "," : "",
                         (long long)t->columns[i].id);
    pier__buf_puts(&keep, ")");
    if (rc == PIER_OK)
        rc = keep.oom ? pier__oom(err)
                      : pier__sqlite_exec(l, keep.p, PIER_E_WRITE_FAILED,
                                          err);
    pier__buf_free(&keep);
    if (rc == PIER_OK)
        rc = prep(l, "INSERT INTO _pier_table_columns(table_id, position, "
                  "name, type, readonly) VALUES (?1, ?2, ?3, ?4, ?5)",
                  &ins, err);
    if (rc == PIER_OK)
        rc = prep(l, "UPDATE _pier_table_columns SET position = ?2, "
                  "name = ?3 WHERE column_id = ?1", &upd, err);
    for (size_t i = 0; rc == PIER_OK && i < t->ncolumns; i++) {
        pier__tcolumn *c = &t->columns[i];
        if (c->id == 0) {
            sqlite3_bind_int64(ins, 1, t->id);
            sqlite3_bind_int64(ins, 2, (int64_t)i);
            sqlite3_bind_text(ins, 3, c->name, -1, SQLITE_STATIC);
            sqlite3_bind_text(ins, 4, c->spelling, -1, SQLITE_STATIC);
            sqlite3_bind_int(ins, 5, c->readonly);
            rc = done_step(l, ins, err);
            c->id = sqlite3_last_insert_rowid(l->db);
        } else {
            sqlite3_bind_int64(upd, 1, c->id);
            sqlite3_bind_int64(upd, 2, (int64_t)i);
            sqlite3_bind_text(upd, 3, c->name, -1, SQLITE_STATIC);
            rc = done_step(l, upd, err);
        }
    }
    sqlite3_finalize(ins);
    sqlite3_finalize(upd);
    return rc;
}

pier_status pier__sqlite_table_forget(pier__lake *lake, int64_t table_id,
                                      pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    char sql[160];
    snprintf(sql, sizeof sql,
             "DELETE FROM _pier_table_columns WHERE table_id = %lld;"
             "DELETE FROM _pier_tables WHERE table_id = %lld;",
             (long long)table_id, (long long)table_id);
    return pier__sqlite_exec(l, sql, PIER_E_WRITE_FAILED, err);
}

/* ---- what migrations keep ---- */

pier_status pier__sqlite_migrate_meta_put(pier__lake *lake,
                                         const pier__migrate_meta *m,
                                         bool forget, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    const char *sql = NULL;
    switch (m->kind) {
    case PIER__META_TABLE:
        sql = "UPDATE _pier_tables SET managed = ?5 WHERE table_id = ?1";
        break;
    case PIER__META_COLUMN:
        sql = "UPDATE _pier_table_columns SET rules = ?5, dflt = ?3, "
              "backfill = ?4, added = ?6 WHERE column_id = ?1";
        break;
    case PIER__META_COLUMN_TYPE:
        sql = "UPDATE _pier_table_columns SET type = ?3 WHERE column_id = ?1";
        break;
    case PIER__META_COLUMN_READONLY:
        sql = "UPDATE _pier_table_columns SET readonly = ?5 "
              "WHERE column_id = ?1";
        break;
    case PIER__META_VIEW:
        sql = forget ? "DELETE FROM _pier_views WHERE name = ?2"
                     : "INSERT OR REPLACE INTO _pier_views(name, columns, "
                       "managed) VALUES (?2, ?3, ?5)";
        break;
    case PIER__META_INDEX:
        sql = forget ? "DELETE FROM _pier_indexes WHERE name = ?2"
                     : "INSERT OR REPLACE INTO _pier_indexes(name, managed) "
                       "VALUES (?2, ?5)";
        break;
    case PIER__META_BOARD:
        sql = "UPDATE _pier_boards SET managed = ?5 WHERE board = ?2";
        break;
    }
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(l->db, sql, -1, &st, NULL) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot record a migration in the catalog");
    sqlite3_bind_int64(st, 1, m->id);
    if (m->name != NULL)
        sqlite3_bind_text(st, 2, m->name, -1, SQLITE_STATIC);
    if (m->a != NULL)
        sqlite3_bind_text(st, 3, m->a, -1, SQLITE_STATIC);
    if (m->b != NULL)
        sqlite3_bind_text(st, 4, m->b, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 5, m->flag ? 1 : 0);
    sqlite3_bind_int(st, 6, m->added ? 1 : 0);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot record a migration in the catalog");
    return PIER_OK;
}

/*
 * SQLite documents this edit for changes that leave the stored format
 * alone (lang_altertable.html, "making other kinds of table schema
 * changes"): sqlite_schema's text rewritten under writable_schema, then
 * schema_version moved on, in one transaction.
 */
pier_status pier__sqlite_schema_sql_set(pier__lake *lake, const char *name,
                                       const char *sql, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    int64_t version = 0;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(l->db, "PRAGMA schema_version", -1, &st,
                                NULL);
    if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        version = sqlite3_column_int64(st, 0);
    else
        rc = SQLITE_ERROR;
    sqlite3_finalize(st);
    st = NULL;
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(l->db, "PRAGMA writable_schema = ON", NULL, NULL,
                          NULL);
    bool writable = rc == SQLITE_OK;
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(l->db, "UPDATE sqlite_schema SET sql = ?1 "
                                "WHERE name = ?2 COLLATE NOCASE AND type IN "
                                "('table', 'view')", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, sql, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
        rc = sqlite3_step(st) == SQLITE_DONE && sqlite3_changes(l->db) == 1
                 ? SQLITE_OK : SQLITE_ERROR;
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_OK) {
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA schema_version = %lld",
                 (long long)version + 1);
        rc = sqlite3_exec(l->db, pragma, NULL, NULL, NULL);
    }
    pier_status out = rc == SQLITE_OK
        ? PIER_OK
        : pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                            "cannot change the SQL of a table");
    if (writable)
        sqlite3_exec(l->db, "PRAGMA writable_schema = OFF", NULL, NULL,
                     NULL);
    return out;
}

pier_status pier__sqlite_duplicate_witnesses(pier__lake *lake,
                                             const char *table,
                                             const char *const *list,
                                             size_t n, const char *where,
                                             int64_t *count, pier__buf *keys,
                                             pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    pier__buf q;
    pier__buf_init(&q);
    pier__buf_puts(&q, "SELECT sum(n) OVER (), count(*) OVER (), d FROM "
                   "(SELECT count(*) AS n, ");
    for (size_t i = 0; i < n; i++)
        pier__buf_printf(&q, "%squote(%s)", i > 0 ? " || ', ' || " : "",
                         list[i]);
    pier__buf_puts(&q, " AS d FROM ");
    pier__sql_ident(&q, table);
    pier__buf_printf(&q, " WHERE (%s)", where != NULL ? where : "1");
    for (size_t i = 0; i < n; i++)
        pier__buf_printf(&q, " AND (%s) IS NOT NULL", list[i]);
    pier__buf_puts(&q, " GROUP BY ");
    for (size_t i = 0; i < n; i++)
        pier__buf_printf(&q, "%s%s", i > 0 ? ", " : "", list[i]);
    pier__buf_puts(&q, " HAVING count(*) > 1) LIMIT 5");
    if (q.oom) {
        pier__buf_free(&q);
        return pier__oom(err);
    }
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(l->db, q.p, -1, &st, NULL);
    pier__buf_free(&q);
    *count = 0;
    int64_t k = 0, groups = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        *count = sqlite3_column_int64(st, 0);
        groups = sqlite3_column_int64(st, 1);
        const unsigned char *v = sqlite3_column_text(st, 2);
        pier__buf_printf(keys, "%s(%s)", k++ > 0 ? ", " : "",
                         v != NULL ? (const char *)v : "NULL");
        rc = SQLITE_OK;
    }
    if (groups > k)
        pier__buf_puts(keys, ", ...");
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return pier__sqlite_fail(l, err, PIER_E_QUERY_FAILED,
                                 "cannot prove an index unique");
    return keys->oom ? pier__oom(err) : PIER_OK;
}

pier_status pier__sqlite_null_witnesses(pier__lake *lake, const char *table,
                                        const char *column, const char *key,
                                        int64_t *count, pier__buf *keys,
                                        pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    pier__buf q;
    pier__buf_init(&q);
    pier__buf_puts(&q, "SELECT count(*) OVER (), ");
    if (key != NULL)
        pier__sql_ident(&q, key);
    else
        pier__buf_puts(&q, "rowid");
    pier__buf_puts(&q, " FROM ");
    pier__sql_ident(&q, table);
    pier__buf_puts(&q, " WHERE ");
    pier__sql_ident(&q, column);
    pier__buf_puts(&q, " IS NULL LIMIT 5");
    if (q.oom) {
        pier__buf_free(&q);
        return pier__oom(err);
    }
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(l->db, q.p, -1, &st, NULL);
    pier__buf_free(&q);
    *count = 0;
    size_t n = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        *count = sqlite3_column_int64(st, 0);
        const unsigned char *v = sqlite3_column_text(st, 1);
        pier__buf_printf(keys, "%s%s", n++ > 0 ? ", " : "",
                         v != NULL ? (const char *)v : "NULL");
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot prove a column holds no null");
    return keys->oom ? pier__oom(err) : PIER_OK;
}

pier_status pier__sqlite_table_rows(pier__lake *lake, const char *name,
                                    int64_t *out, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_puts(&sql, "SELECT count(*) FROM ");
    pier__sql_ident(&sql, name);
    if (sql.oom) {
        pier__buf_free(&sql);
        return pier__oom(err);
    }
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(l->db, sql.p, -1, &st, NULL);
    pier__buf_free(&sql);
    if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        return PIER_OK;
    }
    sqlite3_finalize(st);
    return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                             "cannot count the rows of a table");
}

pier_status pier__sqlite_sequence_get(pier__lake *lake, const char *name,
                                      int64_t *out, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    *out = -1;
    /* sqlite_sequence exists once any AUTOINCREMENT table was made */
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(l->db, "SELECT 1 FROM sqlite_schema WHERE name = "
                           "'sqlite_sequence'", -1, &st, NULL) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read the catalog");
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE)
        return PIER_OK;
    if (rc != SQLITE_ROW ||
        sqlite3_prepare_v2(l->db, "SELECT seq FROM sqlite_sequence WHERE "
                           "name = ?1", -1, &st, NULL) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read the catalog");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read the catalog");
    return PIER_OK;
}

pier_status pier__sqlite_migrate_meta(
    pier__lake *lake, int (*cb)(const pier__migrate_meta *m, void *payload),
    void *payload, pier_error *err)
{
    static const struct {
        pier__meta_kind kind;
        const char *sql;
    } reads[] = {
        { PIER__META_TABLE, "SELECT table_id, NULL, NULL, NULL, managed, 0 "
                            "FROM _pier_tables ORDER BY table_id" },
        { PIER__META_COLUMN, "SELECT column_id, NULL, dflt, backfill, rules, "
                             "added "
                             "FROM _pier_table_columns ORDER BY column_id" },
        { PIER__META_VIEW, "SELECT 0, name, columns, NULL, managed, 0 "
                           "FROM _pier_views ORDER BY name" },
        { PIER__META_INDEX, "SELECT 0, name, NULL, NULL, managed, 0 "
                            "FROM _pier_indexes ORDER BY name" },
        { PIER__META_BOARD, "SELECT 0, board, NULL, NULL, managed, 0 "
                            "FROM _pier_boards ORDER BY board" },
    };
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    for (size_t k = 0; k < sizeof reads / sizeof *reads; k++) {
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(l->db, reads[k].sql, -1, &st, NULL) !=
            SQLITE_OK)
            return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                     "cannot read the catalog");
        int rc;
        bool stop = false;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            pier__migrate_meta m = {
                .kind = reads[k].kind,
                .id = sqlite3_column_int64(st, 0),
                .name = (const char *)sqlite3_column_text(st, 1),
                .a = (const char *)sqlite3_column_text(st, 2),
                .b = (const char *)sqlite3_column_text(st, 3),
                .flag = sqlite3_column_int64(st, 4) != 0,
                .added = sqlite3_column_int64(st, 5) != 0,
            };
            if (cb(&m, payload) != 0) {
                stop = true;
                rc = SQLITE_DONE;
                break;
            }
        }
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE)
            return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                     "cannot read the catalog");
        if (stop)
            break;
    }
    return PIER_OK;
}

/* ---- the remembered schema ---- */

/* cb for every object `query` selects (type, name, tbl_name, sql). */
static pier_status schema_walk(
    pier__sqlite_lake *l, const char *query,
    int (*cb)(const pier__schema_object *o, void *payload), void *payload,
    pier_error *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(l->db, query, -1, &st, NULL) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read the schema");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        pier__schema_object o = {
            .type = (const char *)sqlite3_column_text(st, 0),
            .name = (const char *)sqlite3_column_text(st, 1),
            .table = (const char *)sqlite3_column_text(st, 2),
            .sql = (const char *)sqlite3_column_text(st, 3),
        };
        if (cb(&o, payload) != 0) {
            rc = SQLITE_DONE;
            break;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read the schema");
    return PIER_OK;
}

pier_status pier__sqlite_schema_objects(
    pier__lake *lake, int (*cb)(const pier__schema_object *o, void *payload),
    void *payload, pier_error *err)
{
    return schema_walk((pier__sqlite_lake *)lake, "SELECT type, name, "
                       "tbl_name, sql " DIALECT_OBJECTS "ORDER BY rowid", cb,
                       payload, err);
}

pier_status pier__sqlite_board_indexes(
    pier__lake *lake, int (*cb)(const pier__schema_object *o, void *payload),
    void *payload, pier_error *err)
{
    return schema_walk((pier__sqlite_lake *)lake, "SELECT type, name, "
                       "tbl_name, sql FROM sqlite_schema WHERE type = 'index' "
                       "AND sql IS NOT NULL AND tbl_name LIKE "
                       "'\\_pier\\_b\\_%' ESCAPE '\\' ORDER BY rowid",
                       cb, payload, err);
}

int64_t pier__sqlite_schema_cookie(pier__sqlite_lake *l)
{
    if (l->schema_version == NULL &&
        sqlite3_prepare_v3(l->db, "PRAGMA schema_version", -1,
                           SQLITE_PREPARE_PERSISTENT, &l->schema_version,
                           NULL) != SQLITE_OK)
        return -1;
    int64_t v = -1;
    if (sqlite3_step(l->schema_version) == SQLITE_ROW)
        v = sqlite3_column_int64(l->schema_version, 0);
    sqlite3_reset(l->schema_version);
    return v;
}

pier_status pier__sqlite_schema_remember(pier__lake *lake, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    pier_status rc = pier__sqlite_exec(
        l, "DELETE FROM _pier_schema;"
           "INSERT INTO _pier_schema SELECT name, type, tbl_name, sql "
           DIALECT_OBJECTS ";",
        PIER_E_WRITE_FAILED, err);
    /* The schema now is the one remembered: the next comparison may skip
     * its work until the cookie moves (our own commit does not move it). */
    l->schema_checked = rc == PIER_OK ? pier__sqlite_schema_cookie(l) : -1;
    return rc;
}

pier_status pier__sqlite_schema_compare(pier__lake *lake, pier__buf *report,
                                        pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    int64_t cookie = pier__sqlite_schema_cookie(l);
    if (cookie >= 0 && cookie == l->schema_checked)
        return PIER_OK;
    /* Both sides of a full outer join, by name: present in one, absent in
     * the other, or different. */
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(
            l->db,
            "WITH now AS (SELECT name, type, tbl_name, sql " DIALECT_OBJECTS
            ") "
            "SELECT now.type, now.name, 'created' FROM now "
            "WHERE now.name NOT IN (SELECT name FROM _pier_schema) "
            "UNION ALL "
            "SELECT was.type, was.name, 'dropped' FROM _pier_schema AS was "
            "WHERE was.name NOT IN (SELECT name FROM now) "
            "UNION ALL "
            "SELECT now.type, now.name, 'changed' FROM now "
            "JOIN _pier_schema AS was ON was.name = now.name "
            "WHERE now.sql IS NOT was.sql OR now.type IS NOT was.type "
            "ORDER BY 2",
            -1, &st, NULL) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read the schema");
    size_t before = report->len;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *type = (const char *)sqlite3_column_text(st, 0);
        const char *name = (const char *)sqlite3_column_text(st, 1);
        const char *how = (const char *)sqlite3_column_text(st, 2);
        if (report->len > 0)
            pier__buf_puts(report, "; ");
        pier__buf_printf(report, "%s '%s' was %s without Pier",
                         type != NULL ? type : "object",
                         name != NULL ? name : "", how);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read the schema");
    if (report->oom)
        return pier__oom(err);
    if (report->len == before)
        l->schema_checked = cookie;
    return PIER_OK;
}
