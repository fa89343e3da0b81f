/*
 * replica.c: a board's replica rebuilt from a PostgreSQL lake
 * (replica.h). The replica is an embedded lake made by the SQLite lake's
 * own code (store/), so that the engine reads it as it reads any lake; its
 * board keeps the PostgreSQL lake's column ids and each row its stamp.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "cluster/head.h"
#include "cluster/pg_catalog.h"
#include "cluster/pg_rows.h"
#include "cluster/replica.h"
#include "store/sqlite_int.h"

/* The replica's own rows of _pier_meta. */
static const char *const META_KEYS[3] = {
    "replica_watermark", "replica_identity", "replica_board_key"
};

pier_status pier__replica_meta_write(pier__lake *lake,
                                     const pier__replica_meta *m,
                                     pier_error *err)
{
    char sql[320];
    snprintf(sql, sizeof sql, "INSERT OR REPLACE INTO _pier_meta(key, "
             "value) VALUES ('%s', %lld), ('%s', %lld), ('%s', %lld)",
             META_KEYS[0], (long long)m->watermark, META_KEYS[1],
             (long long)m->identity, META_KEYS[2],
             (long long)m->board_key);
    /* (a replica that cannot be written: the sync fails, SyncFailed) */
    return pier__sqlite_exec((pier__sqlite_lake *)lake, sql,
                             PIER_E_WRITE_FAILED, err);
}

pier_status pier__replica_remove(const char *dir, pier_error *err)
{
    static const char *const files[] = {
        PIER__SQLITE_LAKE_FILE "-wal", PIER__SQLITE_LAKE_FILE "-shm",
        PIER__SQLITE_LAKE_FILE "-journal", PIER__SQLITE_LAKE_FILE,
    };
    size_t n = strlen(dir) + sizeof "/" PIER__SQLITE_LAKE_FILE "-journal";
    char *path = malloc(n);
    if (path == NULL)
        return pier__oom(err);
    pier_status rc = PIER_OK;
    for (size_t i = 0; rc == PIER_OK && i < 4; i++) {
        snprintf(path, n, "%s/%s", dir, files[i]);
        if (unlink(path) != 0 && errno != ENOENT)
            rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE, "cannot remove "
                            "the replica file '%s': %s", path,
                            strerror(errno));
    }
    free(path);
    if (rc == PIER_OK && rmdir(dir) != 0 && errno != ENOENT)
        rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE, "cannot remove the "
                        "replica directory '%s': %s", dir, strerror(errno));
    return rc;
}

/* Each scanned row, written into the replica with its stamp. */
typedef struct copying {
    pier__lake *lake;
    const pier__board *b;
    pier_error *err;
    pier_status rc;
} copying;

static int copy_row(const pier__cell *cells, size_t n, void *payload)
{
    copying *c = payload;
    size_t failed = 0;
    /* (the last cell is the row's stamp) */
    c->rc = c->lake->ops->rows_write(c->lake, c->b, PIER__WRITE_INSERT,
                                     cells, 1, cells[n - 1].i, &failed,
                                     c->err);
    return c->rc != PIER_OK;
}

/* Writes board b, its rows and the meta into the new lake `lake`. */
static pier_status fill(PGconn *c, const char *ns, pier__lake *lake,
                        const pier__board *b, const pier__replica_meta *m,
                        pier_error *err)
{
    pier_status rc = lake->ops->begin_write(lake, err);
    if (rc != PIER_OK)
        return rc;
    rc = pier__sqlite_board_copy(lake, b, err);
    copying cp = { lake, b, err, PIER_OK };
    if (rc == PIER_OK)
        rc = pier__pg_rows_scan_stamped(c, ns, m->board_key, b, copy_row,
                                        &cp, err);
    if (rc == PIER_OK)
        rc = cp.rc;
    if (rc == PIER_OK)
        rc = pier__replica_meta_write(lake, m, err);
    if (rc == PIER_OK)
        rc = lake->ops->commit(lake, err);
    if (rc != PIER_OK)
        lake->ops->rollback(lake);
    return rc;
}

/* In the read-only snapshot: the head, the board, its key. */
static pier_status snapshot(PGconn *c, const char *ns, const char *board,
                            pier__catalog *cat, pier__board **b,
                            pier__replica_meta *m, pier_error *err)
{
    pier__head_cache h;
    pier__head_init(&h, 0);
    pier_status rc = pier__head_read(&h, c, ns, 1, err);
    m->watermark = h.head;
    if (rc == PIER_OK)
        rc = pier__pg_catalog_load(c, ns, cat, err);
    *b = rc == PIER_OK ? pier__catalog_find(cat, board) : NULL;
    if (rc == PIER_OK && *b == NULL) {
        rc = pier__fail(err, PIER_E_BOARD_NOT_FOUND, "no board '%s' in the "
                        "PostgreSQL lake", board);
        pier__error_board(err, board);
    }
    if (rc == PIER_OK)
        rc = pier__pg_board_key(c, ns, board, &m->board_key, err);
    return rc;
}

pier_status pier__replica_rebuild(PGconn *c, const char *ns,
                                  int64_t identity, const char *board,
                                  const char *dir, pier__replica_meta *out,
                                  pier_error *err)
{
    *out = (pier__replica_meta){ .identity = identity };
    if (dir == NULL || board == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a replica needs a board and a directory");
    size_t n = strlen(dir) + sizeof ".new";
    char *fresh = malloc(n);
    if (fresh == NULL)
        return pier__oom(err);
    snprintf(fresh, n, "%s.new", dir);
    pier_status rc = pier__replica_remove(fresh, err);
    PGresult *r = rc == PIER_OK ? PQexec(c, "BEGIN ISOLATION LEVEL "
                                            "REPEATABLE READ READ ONLY")
                                : NULL;
    if (rc == PIER_OK && PQresultStatus(r) != PGRES_COMMAND_OK)
        rc = pier__pg_fail(r, c, PIER_E_READ_FAILED,
                           "cannot read the lake", err);
    PQclear(r);
    bool open_tx = rc == PIER_OK;
    pier__catalog cat;
    pier__catalog_init(&cat);
    pier__board *b = NULL;
    if (rc == PIER_OK)
        rc = snapshot(c, ns, board, &cat, &b, out, err);
    pier__lake *lake = NULL;
    const pier__lake_config cfg = { .durability = PIER_DURABILITY_NORMAL,
                                    .busy_timeout_ms = 5000 };
    if (rc == PIER_OK)
        rc = pier__sqlite_lake_open(&lake, fresh, &cfg, err);
    if (rc == PIER_OK)
        rc = fill(c, ns, lake, b, out, err);
    if (lake != NULL)
        lake->ops->close(lake);
    if (open_tx)
        PQclear(PQexec(c, rc == PIER_OK ? "COMMIT" : "ROLLBACK"));
    pier__catalog_clear(&cat);
    /* the old replica goes, the new one takes its place (a crash between
     * leaves none, which the next read rebuilds) */
    if (rc == PIER_OK)
        rc = pier__replica_remove(dir, err);
    if (rc == PIER_OK && rename(fresh, dir) != 0)
        rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE, "cannot move the "
                        "replica of board '%s' into place: %s", board,
                        strerror(errno));
    if (rc != PIER_OK) {
        pier_error ignored;
        pier__replica_remove(fresh, &ignored);
    }
    free(fresh);
    return rc;
}

pier_status pier__replica_meta_read(const char *dir, pier__replica_meta *out,
                                    pier_error *err)
{
    *out = (pier__replica_meta){ .watermark = -1 };
    size_t n = strlen(dir) + sizeof "/" PIER__SQLITE_LAKE_FILE;
    char *path = malloc(n);
    if (path == NULL)
        return pier__oom(err);
    snprintf(path, n, "%s/%s", dir, PIER__SQLITE_LAKE_FILE);
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    int found = 0;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) ==
            SQLITE_OK &&
        sqlite3_prepare_v2(db, "SELECT key, value FROM _pier_meta WHERE key "
                           "LIKE 'replica\\_%' ESCAPE '\\'", -1, &q,
                           NULL) == SQLITE_OK) {
        while (sqlite3_step(q) == SQLITE_ROW) {
            const char *key = (const char *)sqlite3_column_text(q, 0);
            int64_t *slot[3] = { &out->watermark, &out->identity,
                                 &out->board_key };
            for (int k = 0; key != NULL && k < 3; k++)
                if (strcmp(key, META_KEYS[k]) == 0) {
                    *slot[k] = sqlite3_column_int64(q, 1);
                    found |= 1 << k;
                }
        }
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
    pier_status rc = PIER_OK;
    if (found != 7)
        rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE, "'%s' holds no "
                        "replica", dir);
    free(path);
    return rc;
}
