/*
 * sqlite_feed.c: the SQLite lake's side of the change feed and of the
 * operations: reading a board's records, the retention floor, expiring old
 * records, compacting the files, and the lake's part of pier_stats.
 *
 * The change log is _pier_changes; its AUTOINCREMENT key is the watermark,
 * so the head (sqlite_sequence) never moves back when records are dropped.
 * _pier_meta keeps two rows for retention:
 *   'floor'             the highest watermark maintenance dropped (0:
 *                       none): every record at or below it is gone,
 *                       every record above it is still stored
 *   'last_maintenance'  microseconds since the epoch of the last
 *                       maintenance that committed (0: never)
 * A lake created before those rows existed reads them as 0 and gains them
 * at its first maintenance.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/sqlite_int.h"

/* Runs a query that yields one integer (NULL reads as `fallback`). The
 * parameters ?1 and ?2, when the SQL names them, are a and b. */
static pier_status query_int(pier__sqlite_lake *l, const char *sql,
                             int64_t a, int64_t b, int64_t fallback,
                             int64_t *out, pier_status status,
                             const char *what, pier_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(l->db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        int n = sqlite3_bind_parameter_count(st);
        if (n >= 1)
            sqlite3_bind_int64(st, 1, a);
        if (n >= 2)
            sqlite3_bind_int64(st, 2, b);
        rc = sqlite3_step(st);
    }
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_type(st, 0) == SQLITE_NULL
                   ? fallback
                   : sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
        *out = fallback;
        rc = SQLITE_OK;
    }
    pier_status ps = PIER_OK;
    if (rc != SQLITE_OK)
        ps = pier__sqlite_fail(l, err, status, what);
    sqlite3_finalize(st);
    return ps;
}

/* Runs a statement without results, binding ?1 and ?2 as query_int. */
static pier_status exec_int(pier__sqlite_lake *l, const char *sql,
                            int64_t a, int64_t b, pier_status status,
                            const char *what, pier_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(l->db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        int n = sqlite3_bind_parameter_count(st);
        if (n >= 1)
            sqlite3_bind_int64(st, 1, a);
        if (n >= 2)
            sqlite3_bind_int64(st, 2, b);
        rc = sqlite3_step(st);
    }
    pier_status ps = PIER_OK;
    if (rc != SQLITE_DONE)
        ps = pier__sqlite_fail(l, err, status, what);
    sqlite3_finalize(st);
    return ps;
}

static pier_status meta_int(pier__sqlite_lake *l, const char *key,
                            int64_t *out, pier_error *err)
{
    const char *sql = strcmp(key, "floor") == 0
        ? "SELECT value FROM _pier_meta WHERE key = 'floor'"
        : "SELECT value FROM _pier_meta WHERE key = 'last_maintenance'";
    return query_int(l, sql, 0, 0, 0, out, PIER_E_READ_FAILED,
                     "cannot read the change log's retention", err);
}

/* ---- reading ---- */

pier_status pier__sqlite_changes_read(pier__lake *lake, const char *board,
                                      int64_t after, size_t limit,
                                      int (*cb)(const pier_change *rec,
                                                void *payload),
                                      void *payload, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    /* The index (board, watermark) makes this a range scan of one board.
     * Prepared per call: a few microseconds next to the page it reads. */
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(l->db,
                                "SELECT watermark, board, kind, payload, "
                                "committed_at FROM _pier_changes "
                                "WHERE board = ?1 AND watermark > ?2 "
                                "ORDER BY watermark LIMIT ?3",
                                -1, &st, NULL);
    if (rc != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read the change log");
    sqlite3_bind_text(st, 1, board, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, after);
    sqlite3_bind_int64(st, 3, limit > (size_t)INT64_MAX ? INT64_MAX
                                                        : (int64_t)limit);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        pier_change rec;
        rec.watermark = sqlite3_column_int64(st, 0);
        rec.board = (const char *)sqlite3_column_text(st, 1);
        rec.kind = (const char *)sqlite3_column_text(st, 2);
        rec.payload = (const char *)sqlite3_column_text(st, 3);
        rec.payload_len = (size_t)sqlite3_column_bytes(st, 3);
        rec.committed_at = sqlite3_column_int64(st, 4);
        if (rec.board == NULL || rec.kind == NULL || rec.payload == NULL) {
            /* The columns are NOT NULL text: only memory can fail here. */
            sqlite3_finalize(st);
            return pier__oom(err);
        }
        if (cb(&rec, payload) != 0) {
            rc = SQLITE_DONE;
            break;
        }
    }
    pier_status ps = PIER_OK;
    if (rc != SQLITE_DONE)
        ps = pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                               "cannot read the change log");
    sqlite3_finalize(st);
    return ps;
}

pier_status pier__sqlite_floor(pier__lake *lake, int64_t *out,
                               pier_error *err)
{
    return meta_int((pier__sqlite_lake *)lake, "floor", out, err);
}

/* ---- retention ---- */

pier_status pier__sqlite_changes_expire(pier__lake *lake, int64_t before,
                                        int64_t now, int64_t *dropped,
                                        pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    static const char what[] = "cannot expire change records";
    *dropped = 0;
    /* The newest record stays, whatever its age: a consumer that has read
     * everything can still tell where the log ends. */
    int64_t newest = 0, highest = 0;
    pier_status rc = query_int(l, "SELECT max(watermark) FROM _pier_changes",
                               0, 0, 0, &newest, PIER_E_WRITE_FAILED, what,
                               err);
    if (rc == PIER_OK)
        rc = query_int(l, "SELECT max(watermark) FROM _pier_changes "
                       "WHERE committed_at < ?1 AND watermark < ?2",
                       before, newest, 0, &highest, PIER_E_WRITE_FAILED,
                       what, err);
    if (rc == PIER_OK && highest > 0) {
        /* Everything up to the highest expired record goes, also a
         * younger one among them (a clock that stepped back): the floor
         * then says exactly what is gone. */
        rc = exec_int(l, "DELETE FROM _pier_changes WHERE watermark <= ?1",
                      highest, 0, PIER_E_WRITE_FAILED, what, err);
        if (rc == PIER_OK)
            *dropped = sqlite3_changes64(l->db);
        /* The floor only rises. */
        if (rc == PIER_OK)
            rc = exec_int(l, "INSERT INTO _pier_meta(key, value) "
                          "VALUES ('floor', ?1) ON CONFLICT(key) DO UPDATE "
                          "SET value = max(value, excluded.value)",
                          highest, 0, PIER_E_WRITE_FAILED, what, err);
    }
    if (rc == PIER_OK)
        rc = exec_int(l, "INSERT INTO _pier_meta(key, value) "
                      "VALUES ('last_maintenance', ?1) ON CONFLICT(key) "
                      "DO UPDATE SET value = excluded.value",
                      now, 0, PIER_E_WRITE_FAILED, what, err);
    return rc;
}

/* Copies the log into the lake file and empties it (shortening the file
 * to the pages in use). BUSY: another connection is reading or writing;
 * what could be copied was, and the next maintenance finishes the job.
 * Not a failure.
 * It first copies what can be copied without waiting for anyone, then
 * empties the log only if that can be done at once: a truncating
 * checkpoint holds the writer lock while it waits for the log's readers,
 * so waiting for them (up to the busy timeout) would lock every writer of
 * every process out for as long, and one with a shorter timeout would fail
 * with "database is locked". */
static pier_status checkpoint(pier__sqlite_lake *l, pier_error *err)
{
    int log = 0, done = 0;
    int code = sqlite3_wal_checkpoint_v2(l->db, "main",
                                         SQLITE_CHECKPOINT_PASSIVE, &log,
                                         &done);
    if (code == SQLITE_OK) {
        sqlite3_busy_timeout(l->db, 0);
        code = sqlite3_wal_checkpoint_v2(l->db, "main",
                                         SQLITE_CHECKPOINT_TRUNCATE, &log,
                                         &done);
        sqlite3_busy_timeout(l->db, l->busy_timeout_ms);
    }
    if (code != SQLITE_OK && (code & 0xff) != SQLITE_BUSY &&
        (code & 0xff) != SQLITE_LOCKED)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot checkpoint the lake");
    return PIER_OK;
}

pier_status pier__sqlite_checkpoint(pier__lake *lake, pier_error *err)
{
    return checkpoint((pier__sqlite_lake *)lake, err);
}

pier_status pier__sqlite_compact_files(pier__lake *lake, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    /* The vacuum first: it moves pages in a write of its own, into the
     * WAL; the checkpoint after it copies them into the lake file,
     * shortens the file to the pages in use and empties the WAL. Without
     * auto_vacuum=INCREMENTAL (lakes created before it) the vacuum does
     * nothing and the checkpoint still runs. */
    pier_status rc = pier__sqlite_exec(l, "PRAGMA incremental_vacuum",
                                       PIER_E_WRITE_FAILED, err);
    if (rc != PIER_OK)
        return rc;
    return checkpoint(l, err);
}

/* ---- statistics ---- */

/* The size of a file in bytes; 0 if it is not there. */
static int64_t file_bytes(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    return (int64_t)st.st_size;
}

/* Runs `sql` with ?1 bound to the text `s`; *out gets the integer of its
 * one row (NULL: 0). *missing says that a table it reads is not there
 * (and then nothing is failed): dbstat, in a libsqlite3 built without
 * it. */
static pier_status query_text_int(pier__sqlite_lake *l, const char *sql,
                                  const char *s, int64_t *out,
                                  bool *missing, const char *what,
                                  pier_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(l->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK && missing != NULL &&
        strstr(sqlite3_errmsg(l->db), "no such table") != NULL) {
        *missing = true;
        return PIER_OK;
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 1, s, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    }
    pier_status ps = PIER_OK;
    if (rc != SQLITE_OK)
        ps = pier__sqlite_fail(l, err, PIER_E_READ_FAILED, what);
    sqlite3_finalize(st);
    return ps;
}

/*
 * The bytes of a board are the pages of its table and of its indexes
 * (the primary key's among them), as SQLite's dbstat table counts them:
 * each page whole, used or not, as it takes room in the lake file. Pages
 * on the freelist belong to no board. Debian's libsqlite3 is built with
 * SQLITE_ENABLE_DBSTAT_VTAB; without it the size is -1, unknown.
 */
pier_status pier__sqlite_board_stats(pier__lake *lake, const pier__board *b,
                                     pier_board_stats *out, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    pier__buf table;
    pier__buf_init(&table);
    pier__buf_printf(&table, "_pier_b_%s", b->id);
    if (table.oom) {
        pier__buf_free(&table);
        return pier__oom(err);
    }
    bool no_dbstat = false;
    pier_status rc = pier__sqlite_rows_count(lake, b, &out->rows, err);
    if (rc == PIER_OK)
        rc = query_text_int(l, "SELECT count(*) FROM _pier_changes "
                            "WHERE board = ?1", b->id, &out->change_records,
                            NULL, "cannot count the board's change records",
                            err);
    if (rc == PIER_OK)
        rc = query_text_int(l, "SELECT coalesce(sum(pgsize), 0) FROM dbstat "
                            "WHERE name IN (SELECT name FROM sqlite_schema "
                            "WHERE tbl_name = ?1)", table.p, &out->bytes,
                            &no_dbstat, "cannot measure the board", err);
    if (rc == PIER_OK && no_dbstat)
        out->bytes = -1;
    pier__buf_free(&table);
    return rc;
}

pier_status pier__sqlite_stats(pier__lake *lake, const pier__catalog *cat,
                               pier_stats *out, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    out->boards = (int64_t)cat->nboards;
    out->rows = 0;
    pier_status rc = PIER_OK;
    for (size_t i = 0; rc == PIER_OK && i < cat->nboards; i++) {
        int64_t n = 0;
        rc = pier__sqlite_rows_count(lake, cat->boards[i], &n, err);
        out->rows += n;
    }
    if (rc == PIER_OK)
        rc = query_int(l, "SELECT count(*) FROM _pier_changes", 0, 0, 0,
                       &out->change_records, PIER_E_READ_FAILED,
                       "cannot count the change records", err);
    if (rc == PIER_OK)
        rc = pier__sqlite_head(lake, &out->head, err);
    if (rc == PIER_OK)
        rc = meta_int(l, "floor", &out->floor, err);
    if (rc == PIER_OK)
        rc = meta_int(l, "last_maintenance", &out->last_maintenance, err);
    if (rc != PIER_OK)
        return rc;
    out->lake_bytes = file_bytes(l->path);
    size_t n = strlen(l->path);
    char *wal = malloc(n + sizeof "-wal");
    if (wal == NULL)
        return pier__oom(err);
    memcpy(wal, l->path, n);
    memcpy(wal + n, "-wal", sizeof "-wal");
    out->wal_bytes = file_bytes(wal);
    free(wal);
    return PIER_OK;
}
