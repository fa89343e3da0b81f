/*
 * pg_boards.c: boards in a PostgreSQL lake's catalog (pg_catalog.h;
 * docs/architecture.md, "Catalog" and "Rows"): reading them into the
 * engine's model, making a board with its rows table, adding a column.
 *
 * A board's rows live in "<ns>".r<board_key>, named by the board's key
 * (new each time a board of that id is made) so that nothing prepared
 * against a dropped board reaches its successor; a column's cells in
 * c<column_id>, bytea, but for id and updated_at. Every change runs in
 * the caller's transaction under the board's advisory lock, taken
 * exclusively, and moves the catalog version (a truncate but for the
 * lock: TRUNCATE waits for the board's writers by itself, and changes no
 * catalog).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/pg_catalog.h"
#include "cluster/pg_rows.h"

/* Runs sql with text parameters; *out (may be NULL) takes the result of
 * rows, else it is cleared. */
static pier_status exec_params(PGconn *c, const char *sql, int n,
                               const char *const *params, PGresult **out,
                               pier_status status, const char *what,
                               pier_error *err)
{
    PGresult *r = PQexecParams(c, sql, n, NULL, params, NULL, NULL, 0);
    ExecStatusType st = PQresultStatus(r);
    pier_status rc = PIER_OK;
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
        rc = pier__pg_fail(r, c, status, what, err);
    if (rc == PIER_OK && out != NULL) {
        *out = r;
        return PIER_OK;
    }
    PQclear(r);
    return rc;
}

/* The one value of a statement of one row, as an integer. */
static pier_status one_int(PGconn *c, const char *sql, int n,
                           const char *const *params, int64_t *out,
                           const char *what, pier_error *err)
{
    PGresult *r = NULL;
    pier_status rc = exec_params(c, sql, n, params, &r, PIER_E_WRITE_FAILED,
                                 what, err);
    if (rc != PIER_OK)
        return rc;
    if (PQntuples(r) != 1 || PQgetisnull(r, 0, 0))
        rc = pier__fail(err, PIER_E_WRITE_FAILED, "%s: no row", what);
    else
        *out = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    return rc;
}

/* Takes the board's advisory lock for the rest of the transaction,
 * exclusively: its catalog changes wait for each other, and for its
 * writers, which take it shared. */
static pier_status lock_board(PGconn *c, const char *ns, const char *board,
                              pier_error *err)
{
    const char *params[2] = { ns, board };
    return exec_params(c, "SELECT pg_advisory_xact_lock(hashtext('pier "
                       "board ' || $1 || '.' || $2))", 2, params, NULL,
                       PIER_E_WRITE_FAILED, "cannot lock the board", err);
}

/* Moves the catalog version, so that other nodes reload. */
static pier_status bump(PGconn *c, const char *ns, pier_error *err)
{
    char sql[160];
    snprintf(sql, sizeof sql, "UPDATE \"%s\".meta SET value = value + 1 "
             "WHERE key = 'catalog_version' RETURNING value", ns);
    int64_t v;
    return one_int(c, sql, 0, NULL, &v, "cannot move the catalog version",
                   err);
}

/* Records b->columns[col] and takes the id it got. */
static pier_status insert_column(PGconn *c, const char *ns, pier__board *b,
                                 size_t col, pier_error *err)
{
    char sql[200], position[24];
    snprintf(sql, sizeof sql, "INSERT INTO \"%s\".columns (board, "
             "position, name, type, origin) VALUES ($1, $2, $3, $4, $5) "
             "RETURNING column_id", ns);
    snprintf(position, sizeof position, "%zu", col);
    pier__column *k = &b->columns[col];
    const char *params[5] = { b->id, position, k->name,
                              pier__type_name(k->type),
                              pier__origin_name(k->origin) };
    return one_int(c, sql, 5, params, &k->id, "cannot record a column",
                   err);
}

static bool valid(const char *ns, const pier__board *b, pier_error *err)
{
    if (!pier__pg_namespace_valid(ns) || b == NULL ||
        pier__board_id_check(b->id, NULL) != PIER_OK) {
        pier__fail(err, PIER_E_INVALID_ARGUMENT,
                   "a board change needs a lake and a board");
        return false;
    }
    return true;
}

pier_status pier__pg_board_create(PGconn *c, const char *ns, pier__board *b,
                                  int64_t *board_key, pier_error *err)
{
    *board_key = 0;
    if (!valid(ns, b, err))
        return PIER_E_INVALID_ARGUMENT;
    pier_status rc = lock_board(c, ns, b->id, err);
    char sql[240], strict[8], created[24];
    snprintf(sql, sizeof sql, "INSERT INTO \"%s\".boards (board, strict, "
             "created_at) VALUES ($1, $2, $3) ON CONFLICT (board) DO "
             "NOTHING RETURNING board_key", ns);
    snprintf(strict, sizeof strict, "%s", b->strict ? "true" : "false");
    snprintf(created, sizeof created, "%" PRId64, b->created_at);
    const char *params[3] = { b->id, strict, created };
    PGresult *r = NULL;
    if (rc == PIER_OK)
        rc = exec_params(c, sql, 3, params, &r, PIER_E_WRITE_FAILED,
                         "cannot record a board", err);
    if (rc == PIER_OK && PQntuples(r) != 1)
        rc = pier__fail(err, PIER_E_WRITE_FAILED,
                        "board '%s' was made by another node meanwhile: "
                        "reload the catalog and write again", b->id);
    if (rc == PIER_OK)
        *board_key = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    for (size_t i = 0; rc == PIER_OK && i < b->ncolumns; i++)
        rc = insert_column(c, ns, b, i, err);
    pier__buf ddl;
    pier__buf_init(&ddl);
    pier__buf_printf(&ddl, "CREATE TABLE \"%s\".r%" PRId64 " (id text "
                     "COLLATE \"C\" PRIMARY KEY, updated_at bigint NOT "
                     "NULL, _v bigint NOT NULL DEFAULT 0, cells bytea NOT "
                     "NULL)", ns, *board_key);
    if (rc == PIER_OK && ddl.oom)
        rc = pier__oom(err);
    if (rc == PIER_OK)
        rc = exec_params(c, ddl.p, 0, NULL, NULL, PIER_E_WRITE_FAILED,
                         "cannot make the board's table", err);
    pier__buf_free(&ddl);
    if (rc == PIER_OK)
        rc = bump(c, ns, err);
    return rc;
}

pier_status pier__pg_board_key(PGconn *c, const char *ns, const char *id,
                               int64_t *key, pier_error *err)
{
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT board_key FROM \"%s\".boards WHERE "
             "board = $1", ns);
    const char *params[1] = { id };
    PGresult *r = NULL;
    pier_status rc = exec_params(c, sql, 1, params, &r, PIER_E_WRITE_FAILED,
                                 "cannot find the board", err);
    if (rc != PIER_OK)
        return rc;
    if (PQntuples(r) != 1) {
        rc = pier__fail(err, PIER_E_BOARD_NOT_FOUND, "no board '%s' in the "
                        "PostgreSQL lake", id);
        pier__error_board(err, id);
    } else {
        *key = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    }
    PQclear(r);
    return rc;
}

pier_status pier__pg_column_add(PGconn *c, const char *ns, pier__board *b,
                                size_t col, pier_error *err)
{
    if (!valid(ns, b, err) || col < PIER__BASE_COLUMNS ||
        col >= b->ncolumns)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a column to add needs a board and its column");
    /* (a catalog row only: rows hold their cells packed, so a column
     * takes no DDL) */
    pier_status rc = lock_board(c, ns, b->id, err);
    int64_t key = 0;
    if (rc == PIER_OK)
        rc = pier__pg_board_key(c, ns, b->id, &key, err);
    if (rc == PIER_OK)
        rc = insert_column(c, ns, b, col, err);
    if (rc == PIER_OK)
        rc = bump(c, ns, err);
    return rc;
}

pier_status pier__pg_catalog_load(PGconn *c, const char *ns,
                                  pier__catalog *out, pier_error *err)
{
    if (!pier__pg_namespace_valid(ns))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "reading a catalog needs a lake");
    char sql[400];
    snprintf(sql, sizeof sql, "SELECT b.board, b.strict, b.created_at, "
             "c.column_id, c.name, c.type, c.origin FROM \"%s\".boards b "
             "LEFT JOIN \"%s\".columns c ON c.board = b.board ORDER BY "
             "b.board, c.position", ns, ns);
    PGresult *r = NULL;
    pier_status rc = exec_params(c, sql, 0, NULL, &r, PIER_E_READ_FAILED,
                                 "cannot read the catalog", err);
    if (rc != PIER_OK)
        return rc;
    pier__board *b = NULL;
    size_t n = 0;
    for (int i = 0; rc == PIER_OK && i <= PQntuples(r); i++) {
        const char *id = i < PQntuples(r) ? PQgetvalue(r, i, 0) : NULL;
        if (b != NULL && (id == NULL || strcmp(id, b->id) != 0)) {
            rc = pier__board_load_done(b, n, err);
            if (rc == PIER_OK && !pier__catalog_put(out, b))
                rc = pier__oom(err);
            else if (rc != PIER_OK)
                pier__board_free(b);
            b = NULL;
        }
        if (rc != PIER_OK || id == NULL)
            break;
        if (b == NULL) {
            /* (what the server holds is not trusted: an id Pier never
             * writes means the catalog is damaged) */
            if (pier__board_id_check(id, NULL) != PIER_OK) {
                rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                                "the catalog is damaged: a board's id is "
                                "not a board id");
                break;
            }
            b = pier__board_new(id, PQgetvalue(r, i, 1)[0] == 't',
                                strtoll(PQgetvalue(r, i, 2), NULL, 10));
            n = 0;
            if (b == NULL) {
                rc = pier__oom(err);
                break;
            }
        }
        if (PQgetisnull(r, i, 3))
            continue;                   /* (a board with no columns) */
        rc = pier__board_load_column(b, n++,
                                     strtoll(PQgetvalue(r, i, 3), NULL, 10),
                                     PQgetvalue(r, i, 4),
                                     PQgetvalue(r, i, 5),
                                     PQgetvalue(r, i, 6), err);
    }
    if (rc != PIER_OK)
        pier__board_free(b);           /* (NULL: a no-op) */
    PQclear(r);
    return rc;
}

pier_status pier__pg_board_drop(PGconn *c, const char *ns,
                                const pier__board *b, pier_error *err)
{
    if (!valid(ns, b, err))
        return PIER_E_INVALID_ARGUMENT;
    int64_t key = 0;
    pier_status rc = lock_board(c, ns, b->id, err);
    if (rc == PIER_OK)
        rc = pier__pg_board_key(c, ns, b->id, &key, err);
    char sql[200];
    const char *params[1] = { b->id };
    if (rc == PIER_OK) {
        snprintf(sql, sizeof sql, "DROP TABLE \"%s\".r%" PRId64, ns, key);
        rc = exec_params(c, sql, 0, NULL, NULL, PIER_E_WRITE_FAILED,
                         "cannot drop the board's table", err);
    }
    if (rc == PIER_OK) {
        snprintf(sql, sizeof sql, "DELETE FROM \"%s\".columns WHERE board "
                 "= $1", ns);
        rc = exec_params(c, sql, 1, params, NULL, PIER_E_WRITE_FAILED,
                         "cannot forget the board's columns", err);
    }
    if (rc == PIER_OK) {
        snprintf(sql, sizeof sql, "DELETE FROM \"%s\".boards WHERE board "
                 "= $1", ns);
        rc = exec_params(c, sql, 1, params, NULL, PIER_E_WRITE_FAILED,
                         "cannot forget the board", err);
    }
    if (rc == PIER_OK)
        rc = bump(c, ns, err);
    return rc;
}

pier_status pier__pg_board_truncate(PGconn *c, const char *ns,
                                    const pier__board *b, pier_error *err)
{
    if (!valid(ns, b, err))
        return PIER_E_INVALID_ARGUMENT;
    int64_t key = 0;
    pier_status rc = pier__pg_board_key(c, ns, b->id, &key, err);
    if (rc == PIER_OK) {
        char sql[160];
        snprintf(sql, sizeof sql, "TRUNCATE \"%s\".r%" PRId64, ns, key);
        rc = exec_params(c, sql, 0, NULL, NULL, PIER_E_WRITE_FAILED,
                         "cannot truncate the board", err);
    }
    return rc;
}

pier_status pier__pg_column_widen(PGconn *c, const char *ns,
                                  const pier__board *b, size_t col,
                                  pier__type from, pier_error *err)
{
    if (!valid(ns, b, err) || col < PIER__COL_STATE || col >= b->ncolumns)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a column to widen needs a board and its column");
    const pier__column *k = &b->columns[col];
    int64_t key = 0;
    pier_status rc = lock_board(c, ns, b->id, err);
    if (rc == PIER_OK)
        rc = pier__pg_board_key(c, ns, b->id, &key, err);
    if (rc == PIER_OK) {
        char sql[160], id[24];
        snprintf(sql, sizeof sql, "UPDATE \"%s\".columns SET type = $1 "
                 "WHERE column_id = $2", ns);
        snprintf(id, sizeof id, "%" PRId64, k->id);
        const char *params[2] = { pier__type_name(k->type), id };
        rc = exec_params(c, sql, 2, params, NULL, PIER_E_WRITE_FAILED,
                         "cannot record the column's type", err);
    }
    /* widening to text re-renders every stored value, in this same
     * transaction: all rows change or none do */
    if (rc == PIER_OK && pier__type_widen_rewrites(from, k->type))
        rc = pier__pg_cells_to_text(c, ns, key, b, col, from, err);
    if (rc == PIER_OK)
        rc = bump(c, ns, err);
    return rc;
}
