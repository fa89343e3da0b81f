/*
 * sqlite_catalog.c: the catalog tables and the DDL of board tables.
 *
 * Every catalog change happens inside the engine's write transaction, next
 * to the physical DDL it describes, so the catalog and the tables can never
 * disagree after a crash. Column ids come from an AUTOINCREMENT key: SQLite
 * then never hands out an id twice, even after the board that held it is
 * dropped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/sqlite_int.h"
#include "types/codecs.h"

/*
 * SQLite's data version of the writer's connection, which moves when
 * another connection (of any process) commits and never for this one's
 * own commits; -1 if it cannot be read. While it stands still, the
 * catalog version is the one this connection last read or wrote, and each
 * write (which asks for it first) need not read the meta table again.
 */
static int64_t data_version(pier__sqlite_lake *l)
{
    if (l->data_version == NULL &&
        sqlite3_prepare_v3(l->db, "PRAGMA data_version", -1,
                           SQLITE_PREPARE_PERSISTENT, &l->data_version,
                           NULL) != SQLITE_OK)
        return -1;
    int64_t v = -1;
    if (sqlite3_step(l->data_version) == SQLITE_ROW)
        v = sqlite3_column_int64(l->data_version, 0);
    sqlite3_reset(l->data_version);
    return v;
}

pier_status pier__sqlite_catalog_version(pier__lake *lake, int64_t *out,
                                         pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    int64_t at = data_version(l);
    if (l->catalog_known && at >= 0 && at == l->catalog_seen_at) {
        *out = l->catalog_seen;
        return PIER_OK;
    }
    sqlite3_stmt *st = l->get_version;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (rc == SQLITE_DONE)      /* (a damaged file, or an edited export) */
        return pier__fail(err, PIER_E_READ_FAILED, "the lake's catalog "
                          "version is missing: the lake is damaged");
    if (rc != SQLITE_ROW)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read the catalog version");
    l->catalog_seen = *out;
    l->catalog_seen_at = at;
    l->catalog_known = at >= 0;
    return PIER_OK;
}

pier_status pier__sqlite_catalog_bump(pier__lake *lake, int64_t *out,
                                      pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    sqlite3_stmt *st = l->bump_version;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    /* (a rollback forgets it again: sqlite_lake.c) */
    l->catalog_known = false;
    if (rc != SQLITE_ROW)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot update the catalog version");
    int64_t at = data_version(l);
    l->catalog_seen = *out;
    l->catalog_seen_at = at;
    l->catalog_known = at >= 0;
    return PIER_OK;
}

pier_status pier__sqlite_catalog_load(pier__lake *lake, pier__catalog *out,
                                      pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    sqlite3_stmt *boards = NULL, *cols = NULL;
    pier_status rc = PIER_OK;
    if (sqlite3_prepare_v2(l->db,
                           "SELECT board, strict, created_at "
                           "FROM _pier_boards ORDER BY board",
                           -1, &boards, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(l->db,
                           "SELECT column_id, name, type, origin, position "
                           "FROM _pier_columns WHERE board = ?1 "
                           "ORDER BY position",
                           -1, &cols, NULL) != SQLITE_OK) {
        rc = pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                               "cannot read the catalog");
        goto done;
    }
    int step;
    while (rc == PIER_OK && (step = sqlite3_step(boards)) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(boards, 0);
        /* What the file holds is not trusted: an id Pier never writes
         * means the catalog is damaged (and an id becomes a table name
         * in SQL, where only a valid one needs no escaping). */
        if (id == NULL || pier__board_id_check(id, NULL) != PIER_OK) {
            rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                            "the catalog is damaged: a board's id is not a "
                            "board id");
            break;
        }
        pier__board *b = pier__board_new(id,
                                         sqlite3_column_int(boards, 1) != 0,
                                         sqlite3_column_int64(boards, 2));
        if (b == NULL) {
            rc = pier__oom(err);
            break;
        }
        sqlite3_bind_text(cols, 1, id, -1, SQLITE_STATIC);
        size_t n = 0;
        int cstep = SQLITE_DONE;
        while (rc == PIER_OK && (cstep = sqlite3_step(cols)) == SQLITE_ROW)
            rc = pier__board_load_column(
                b, n++, sqlite3_column_int64(cols, 0),
                (const char *)sqlite3_column_text(cols, 1),
                (const char *)sqlite3_column_text(cols, 2),
                (const char *)sqlite3_column_text(cols, 3), err);
        sqlite3_reset(cols);
        /* A read that fails part-way must not leave a board with half its
         * columns (and SQLite may have rolled the transaction back). */
        if (rc == PIER_OK && cstep != SQLITE_DONE)
            rc = pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                   "cannot read the catalog");
        if (rc == PIER_OK)
            rc = pier__board_load_done(b, n, err);
        if (rc != PIER_OK) {
            pier__board_free(b);
            break;
        }
        if (!pier__catalog_put(out, b))
            rc = pier__oom(err);
    }
    if (rc == PIER_OK && step != SQLITE_DONE)
        rc = pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                               "cannot read the catalog");
    if (rc == PIER_OK)
        rc = pier__sqlite_tables_load(l, out, err);
    if (rc == PIER_OK)
        rc = pier__sqlite_triggers_load(l, out, err);
done:
    sqlite3_finalize(boards);
    sqlite3_finalize(cols);
    return rc;
}

/* Runs one statement whose parameters are given by `types`: 't' binds the
 * next of t1, t2 as text, 'i' binds i1. */
static pier_status run(pier__sqlite_lake *l, const char *sql,
                       const char *types, const char *t1, int64_t i1,
                       const char *t2, pier_error *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(l->db, sql, -1, &st, NULL) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot change the catalog");
    int p = 1;
    for (const char *c = types; *c != '\0'; c++, p++) {
        if (*c == 't') {
            sqlite3_bind_text(st, p, t1, -1, SQLITE_STATIC);
            t1 = t2;
        } else {
            sqlite3_bind_int64(st, p, i1);
        }
    }
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot change the catalog");
    return PIER_OK;
}

/* Records b->columns[col] in _pier_columns and takes the id it got, or
 * (keep_id) gives it the id it has. */
static pier_status insert_column(pier__sqlite_lake *l, pier__board *b,
                                 size_t col, bool keep_id, pier_error *err)
{
    pier__column *c = &b->columns[col];
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(l->db,
                           "INSERT INTO _pier_columns(board, position, "
                           "name, type, origin, column_id) VALUES (?1, ?2, "
                           "?3, ?4, ?5, ?6)",
                           -1, &st, NULL) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot record a column");
    sqlite3_bind_text(st, 1, b->id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, (int64_t)col);
    sqlite3_bind_text(st, 3, c->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, pier__type_name(c->type), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, pier__origin_name(c->origin), -1, SQLITE_STATIC);
    if (keep_id)
        sqlite3_bind_int64(st, 6, c->id);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot record a column");
    c->id = sqlite3_last_insert_rowid(l->db);
    return PIER_OK;
}

static pier_status exec_buf(pier__sqlite_lake *l, pier__buf *sql,
                            pier_error *err)
{
    if (sql->oom)
        return pier__oom(err);
    return pier__sqlite_exec(l, sql->p, PIER_E_WRITE_FAILED, err);
}

static pier_status insert_board(pier__sqlite_lake *l, const pier__board *b,
                                pier_error *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(l->db, "INSERT INTO _pier_boards(board, strict, "
                           "created_at) VALUES (?1, ?2, ?3)", -1, &st,
                           NULL) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot record a board");
    sqlite3_bind_text(st, 1, b->id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, b->strict);
    sqlite3_bind_int64(st, 3, b->created_at);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot record a board");
    return PIER_OK;
}

/* A board may not take the name of a declared table or view: boards,
 * tables and views share one namespace (docs/sql.md). */
static pier_status name_free(pier__sqlite_lake *l, const char *id,
                             pier_error *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(l->db, "SELECT type FROM main.sqlite_schema "
                           "WHERE type IN ('table', 'view') AND name = ?1 "
                           "COLLATE NOCASE", -1, &st, NULL) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read the lake's schema");
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    char type[8] = "";
    if (rc == SQLITE_ROW)
        snprintf(type, sizeof type, "%s",
                 (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE)
        return PIER_OK;
    if (rc != SQLITE_ROW)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read the lake's schema");
    pier__fail(err, PIER_E_BOARD_EXISTS,
               "'%s' is a declared %s: boards, tables and views share one "
               "namespace; choose another board id", id, type);
    pier__error_board(err, id);
    return PIER_E_BOARD_EXISTS;
}

static pier_status create_board(pier__sqlite_lake *l, pier__board *b,
                                bool keep_ids, pier_error *err)
{
    pier_status rc = keep_ids ? PIER_OK : name_free(l, b->id, err);
    if (rc != PIER_OK)
        return rc;
    rc = insert_board(l, b, err);
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_puts(&sql, "CREATE TABLE ");
    pier__sql_board_table(&sql, b->id);
    pier__buf_puts(&sql, " (id TEXT PRIMARY KEY NOT NULL, "
                         "updated_at INTEGER NOT NULL, state TEXT, "
                         "_v INTEGER NOT NULL DEFAULT 0");
    for (size_t i = PIER__BASE_COLUMNS; i < b->ncolumns; i++) {
        pier__buf_puts(&sql, ", ");
        pier__sql_ident(&sql, b->columns[i].name);
        pier__buf_puts(&sql, " ANY");
    }
    pier__buf_puts(&sql, ") STRICT");
    if (rc == PIER_OK)
        rc = exec_buf(l, &sql, err);
    pier__buf_free(&sql);
    for (size_t i = 0; rc == PIER_OK && i < b->ncolumns; i++)
        rc = insert_column(l, b, i, keep_ids, err);
    return rc;
}

pier_status pier__sqlite_board_create(pier__lake *lake, pier__board *b,
                                      pier_error *err)
{
    return create_board((pier__sqlite_lake *)lake, b, false, err);
}

pier_status pier__sqlite_board_copy(pier__lake *lake, const pier__board *b,
                                    pier_error *err)
{
    pier__board *copy = pier__board_clone(b);
    if (copy == NULL)
        return pier__oom(err);
    pier_status rc = create_board((pier__sqlite_lake *)lake, copy, true, err);
    pier__board_free(copy);
    return rc;
}

pier_status pier__sqlite_board_drop(pier__lake *lake, const pier__board *b,
                                    pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    /* Its full-text index goes with it (sqlite_fts.c). */
    pier_status rc = pier__sqlite_fts_drop(l, b->id, err);
    if (rc != PIER_OK)
        return rc;
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_puts(&sql, "DROP TABLE ");
    pier__sql_board_table(&sql, b->id);
    rc = exec_buf(l, &sql, err);
    pier__buf_free(&sql);
    if (rc == PIER_OK)
        rc = run(l, "DELETE FROM _pier_columns WHERE board = ?1", "t",
                 b->id, 0, NULL, err);
    if (rc == PIER_OK)
        rc = run(l, "DELETE FROM _pier_boards WHERE board = ?1", "t", b->id,
                 0, NULL, err);
    return rc;
}

pier_status pier__sqlite_board_truncate(pier__lake *lake,
                                        const pier__board *b,
                                        pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    pier_status rc = pier__sqlite_fts_truncate(l, b->id, err);
    if (rc != PIER_OK)
        return rc;
    pier__buf sql;
    pier__buf_init(&sql);
    /* Without a WHERE clause SQLite empties the table in one step instead
     * of deleting row by row. */
    pier__buf_puts(&sql, "DELETE FROM ");
    pier__sql_board_table(&sql, b->id);
    rc = exec_buf(l, &sql, err);
    pier__buf_free(&sql);
    return rc;
}

pier_status pier__sqlite_column_add(pier__lake *lake, pier__board *b,
                                    size_t col, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_puts(&sql, "ALTER TABLE ");
    pier__sql_board_table(&sql, b->id);
    pier__buf_puts(&sql, " ADD COLUMN ");
    pier__sql_ident(&sql, b->columns[col].name);
    pier__buf_puts(&sql, " ANY");
    pier_status rc = exec_buf(l, &sql, err);
    pier__buf_free(&sql);
    if (rc == PIER_OK)
        rc = insert_column(l, b, col, false, err);
    return rc;
}

pier_status pier__sqlite_column_widen(pier__lake *lake, const pier__board *b,
                                      size_t col, pier__type from,
                                      pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    const pier__column *c = &b->columns[col];
    pier_status rc = run(l, "UPDATE _pier_columns SET type = ?1 "
                         "WHERE column_id = ?2", "ti",
                         pier__type_name(c->type), c->id, NULL, err);
    if (rc != PIER_OK || !pier__type_widen_rewrites(from, c->type))
        return rc;
    /* Widening to text re-renders every stored value, in this same
     * transaction: all rows change or none do. */
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_puts(&sql, "UPDATE ");
    pier__sql_board_table(&sql, b->id);
    pier__buf_puts(&sql, " SET ");
    pier__sql_ident(&sql, c->name);
    pier__buf_printf(&sql, " = _pier_to_text(");
    pier__sql_ident(&sql, c->name);
    /* A type's name may hold quotes (an enum's labels): doubled. */
    pier__buf_puts(&sql, ", '");
    for (const char *p = pier__type_name(from); *p != '\0'; p++) {
        if (*p == '\'')
            pier__buf_putc(&sql, '\'');
        pier__buf_putc(&sql, *p);
    }
    pier__buf_puts(&sql, "') WHERE ");
    pier__sql_ident(&sql, c->name);
    pier__buf_puts(&sql, " IS NOT NULL");
    rc = exec_buf(l, &sql, err);
    pier__buf_free(&sql);
    return rc;
}

static void type_release(void *p)
{
    pier__type *t = p;
    pier__type_free(t);
    free(t);
}

/* The parsed type of the call's constant type argument, kept with the
 * statement's run (auxdata): one parse per widening, not per row. NULL,
 * with the call's error set, when there is none. */
static const pier__type *to_text_type(sqlite3_context *ctx,
                                      sqlite3_value *name)
{
    pier__type *t = sqlite3_get_auxdata(ctx, 1);
    if (t != NULL)
        return t;
    const char *tname = (const char *)sqlite3_value_text(name);
    char why[PIER__TYPE_WHY];
    t = malloc(sizeof *t);
    pier_status rc = t == NULL ? PIER_E_OUT_OF_MEMORY
                     : tname == NULL ? PIER_E_UNKNOWN_TYPE
                                     : pier__type_parse(t, tname, why);
    if (rc == PIER_OK) {
        sqlite3_set_auxdata(ctx, 1, t, type_release);
        /* SQLite may release it at once (out of memory): ask again. */
        t = sqlite3_get_auxdata(ctx, 1);
        if (t == NULL)
            sqlite3_result_error_nomem(ctx);
        return t;
    }
    free(t);
    if (rc == PIER_E_OUT_OF_MEMORY)
        sqlite3_result_error_nomem(ctx);
    else
        sqlite3_result_error(ctx, "_pier_to_text: unknown type", -1);
    return NULL;
}

/* _pier_to_text(value, from_type): a stored value re-rendered as text. */
static void to_text_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const pier__type *from = to_text_type(ctx, argv[1]);
    if (from == NULL)
        return;
    pier__cell in, out;
    pier__sqlite_cell(&in, argv[0]);
    pier__arena a;
    pier__arena_init(&a);
    switch (pier__cell_to_text(&out, &in, *from, &a)) {
    case PIER__FIT_OK:
        if (out.st == PIER__ST_NULL)
            sqlite3_result_null(ctx);
        else
            sqlite3_result_text(ctx, out.p, (int)out.n, SQLITE_TRANSIENT);
        break;
    case PIER__FIT_OOM:
        sqlite3_result_error_nomem(ctx);
        break;
    default:
        sqlite3_result_error(ctx, "_pier_to_text: a stored value does not "
                             "match its column's type", -1);
    }
    pier__arena_free(&a);
}

/*
 * _pier_now('TYPE'): what a column's DEFAULT now() fills in, as the
 * canonical text of TYPE (INSTANT, DATE, DATETIME or TIME, read in UTC):
 * the instant of the statement being run (pier__lake.stmt_now), so that
 * every row of one statement gets the same one; the clock's, outside one.
 */
static void now_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const pier__lake *lake = sqlite3_user_data(ctx);
    int64_t us = lake->stmt_now;
    if (us == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        us = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
    }
    const char *type = (const char *)sqlite3_value_text(argv[0]);
    const int64_t day = INT64_C(86400000000);
    int64_t days = us / day, in_day = us % day;
    if (in_day < 0) {
        days--;
        in_day += day;
    }
    char out[PIER__TIMESTAMP_BUF + PIER__DATETIME_BUF];
    size_t n;
    if (type == NULL) {
        n = 0;
    } else if (strcmp(type, "INSTANT") == 0) {
        n = pier__timestamp_format(us, out);
    } else if (strcmp(type, "DATE") == 0) {
        n = pier__date_format((int32_t)days, out);
    } else if (strcmp(type, "DATETIME") == 0) {
        n = pier__datetime_format(us, out);
    } else if (strcmp(type, "TIME") == 0) {
        n = pier__time_format(in_day, out);
    } else {
        n = 0;
    }
    if (n == 0)
        sqlite3_result_error(ctx, "_pier_now: now() fills INSTANT, DATE, "
                             "DATETIME and TIME columns", -1);
    else
        sqlite3_result_text(ctx, out, (int)n, SQLITE_TRANSIENT);
}

pier_status pier__sqlite_register_functions(pier__sqlite_lake *l,
                                            pier_error *err)
{
    if (sqlite3_create_function_v2(l->db, "_pier_to_text", 2,
                                   SQLITE_UTF8 | SQLITE_DETERMINISTIC |
                                       SQLITE_DIRECTONLY,
                                   NULL, to_text_fn, NULL, NULL,
                                   NULL) != SQLITE_OK ||
        /* not deterministic; called from the schema's DEFAULTs */
        sqlite3_create_function_v2(l->db, "_pier_now", 1,
                                   SQLITE_UTF8 | SQLITE_INNOCUOUS, &l->base,
                                   now_fn, NULL, NULL, NULL) != SQLITE_OK ||
        pier__sqlite_register_dialect(l->db, &l->failure,
                                      &l->base.stmt_now,
                                      &l->exposed) != SQLITE_OK ||
        pier__sqlite_register_history(l) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_LAKE_UNAVAILABLE,
                                 "cannot register the lake's functions");
    return PIER_OK;
}
