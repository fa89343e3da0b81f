/*
 * sqlite_lake.c: the embedded lake on SQLite: opening (and recognizing) the
 * lake file, its pragmas, transactions, and removing a lake.
 *
 * A file is a Pier lake when its header's application_id is "PIER"; its
 * user_version is the on-disk format. A new file (or an empty one left by
 * a crash during creation) is initialized in one transaction, so a lake is
 * either complete or absent. Two processes creating the same lake at once
 * both take the write lock before initializing, and the second finds the
 * work done.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/sqlite_int.h"
#include "store/sqlite_record.h"

static const pier__lake_ops sqlite_ops;

pier_status pier__sqlite_fail(pier__sqlite_lake *l, pier_error *err,
                              pier_status status, const char *what)
{
    int code = sqlite3_extended_errcode(l->db);
    /* A limit of pier_exec, or an interruption, stopped it. */
    pier_status limit = pier__sqlite_guard_fail(l->guard, code, err);
    if (limit != PIER_OK)
        return limit;
    if ((code & 0xff) == SQLITE_NOMEM)
        status = PIER_E_OUT_OF_MEMORY;      /* whatever was being done */
    if ((code & 0xff) == SQLITE_READONLY && l->readonly) {
        /* (a path the engine's own refusal does not cover: SQLite's is
         * the last guard) */
        pier__fail(err, PIER_E_WRITE_FAILED, "the lake '%s' is open "
                   "read-only (--readonly): nothing was written (%s)",
                   l->data_dir, what);
        if (err != NULL)
            err->backend_code = code;
        return PIER_E_WRITE_FAILED;
    }
    pier__fail(err, status, "%s: %s", what, sqlite3_errmsg(l->db));
    if (err != NULL)
        err->backend_code = code;
    return status;
}

pier_status pier__sqlite_exec(pier__sqlite_lake *l, const char *sql,
                              pier_status status, pier_error *err)
{
    /* (whatever it is, a ROLLBACK TO among it may undo a catalog bump:
     * the version is read again, sqlite_catalog.c) */
    l->catalog_known = false;
    l->fts_cookie = -1;
    if (sqlite3_exec(l->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return pier__sqlite_fail(l, err, status, "the lake refused a "
                                 "statement");
    return PIER_OK;
}

void pier__sql_ident(pier__buf *b, const char *name)
{
    pier__buf_putc(b, '"');
    for (const char *p = name; *p != '\0'; p++) {
        if (*p == '"')
            pier__buf_putc(b, '"');
        pier__buf_putc(b, *p);
    }
    pier__buf_putc(b, '"');
}

void pier__sql_board_table(pier__buf *b, const char *board)
{
    /* Board ids are [a-z][a-z0-9_]*: nothing to escape. */
    pier__buf_printf(b, "\"_pier_b_%s\"", board);
}

/* ---- opening ---- */

char *pier__sqlite_lake_path(const char *data_dir, const char *suffix)
{
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_puts(&b, data_dir);
    if (b.len > 0 && b.p[b.len - 1] != '/')
        pier__buf_putc(&b, '/');
    pier__buf_puts(&b, PIER__SQLITE_LAKE_FILE);
    pier__buf_puts(&b, suffix);
    return pier__buf_detach(&b);
}

/* Reads one integer pragma. */
static pier_status pragma_int(pier__sqlite_lake *l, const char *sql,
                              int64_t *out, pier_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(l->db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_OK)
        return PIER_OK;
    if ((rc & 0xff) == SQLITE_NOTADB)
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "'%s' is not a Pier lake (not a SQLite database)",
                          l->path);
    return pier__sqlite_fail(l, err, PIER_E_LAKE_UNAVAILABLE,
                             "cannot read the lake");
}

static const char schema_sql[] =
    "CREATE TABLE _pier_meta(key TEXT PRIMARY KEY, value ANY) STRICT;"
    "INSERT INTO _pier_meta VALUES ('catalog_version', 0), ('floor', 0),"
    "  ('last_maintenance', 0);"
    "CREATE TABLE _pier_boards("
    "  board TEXT PRIMARY KEY,"
    "  strict INTEGER NOT NULL,"
    "  created_at INTEGER NOT NULL) STRICT;"
    "CREATE TABLE _pier_columns("
    "  column_id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  board TEXT NOT NULL REFERENCES _pier_boards(board),"
    "  position INTEGER NOT NULL,"
    "  name TEXT NOT NULL,"
    "  type TEXT NOT NULL,"
    "  origin TEXT NOT NULL,"
    "  UNIQUE (board, name COLLATE NOCASE),"
    "  UNIQUE (board, position)) STRICT;"
    "CREATE TABLE _pier_changes("
    "  watermark INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  board TEXT NOT NULL,"
    "  kind TEXT NOT NULL,"
    "  payload TEXT NOT NULL,"
    "  committed_at INTEGER NOT NULL,"
    "  stamp INTEGER NOT NULL) STRICT;"
    "CREATE INDEX _pier_changes_board ON _pier_changes(board, watermark);";

/*
 * Runs a setup statement of pier_open, retrying while another process holds
 * the lake's locks, for up to the busy timeout. SQLite does not call its
 * busy handler for every lock these statements need (switching a new file
 * to WAL, for one), and processes opening a new lake at once meet exactly
 * there.
 */
static pier_status exec_setup(pier__sqlite_lake *l, const char *sql,
                              pier_error *err)
{
    for (int waited_ms = 0;; waited_ms += 5) {
        int rc = sqlite3_exec(l->db, sql, NULL, NULL, NULL);
        int code = rc & 0xff;
        if ((code != SQLITE_BUSY && code != SQLITE_LOCKED) ||
            waited_ms >= l->busy_timeout_ms)
            break;
        sqlite3_sleep(5);
    }
    if (sqlite3_errcode(l->db) == SQLITE_OK)
        return PIER_OK;
    return pier__sqlite_fail(l, err, PIER_E_LAKE_UNAVAILABLE,
                             "the lake refused a statement");
}

/* Makes a new (empty) file a lake, unless another process just did. */
static pier_status initialize(pier__sqlite_lake *l, pier_error *err)
{
    /* Incremental auto-vacuum lets maintenance return free pages to the
     * file system without rewriting the file; SQLite takes it only before
     * the first table exists, and outside a transaction. */
    pier_status rc = exec_setup(l, "PRAGMA auto_vacuum = INCREMENTAL", err);
    if (rc == PIER_OK)
        rc = exec_setup(l, "BEGIN IMMEDIATE", err);
    if (rc != PIER_OK)
        return rc;
    int64_t app = 0, objects = 0;
    rc = pragma_int(l, "PRAGMA application_id", &app, err);
    if (rc == PIER_OK)
        rc = pragma_int(l, "SELECT count(*) FROM sqlite_schema", &objects,
                        err);
    if (rc == PIER_OK && app == 0 && objects == 0) {
        char pragmas[96];
        snprintf(pragmas, sizeof pragmas,
                 "PRAGMA application_id = %d; PRAGMA user_version = %d;",
                 PIER__APPLICATION_ID, PIER__FORMAT);
        rc = pier__sqlite_exec(l, schema_sql, PIER_E_LAKE_UNAVAILABLE, err);
        if (rc == PIER_OK)
            rc = pier__sqlite_exec(l, pier__sqlite_tables_schema,
                                   PIER_E_LAKE_UNAVAILABLE, err);
        if (rc == PIER_OK)
            rc = pier__sqlite_exec(l, pier__sqlite_migrations_schema,
                                   PIER_E_LAKE_UNAVAILABLE, err);
        if (rc == PIER_OK)
            rc = pier__sqlite_exec(l, pier__sqlite_history_schema,
                                   PIER_E_LAKE_UNAVAILABLE, err);
        if (rc == PIER_OK)
            rc = pier__sqlite_exec(l, pier__sqlite_files_schema,
                                   PIER_E_LAKE_UNAVAILABLE, err);
        if (rc == PIER_OK)
            rc = pier__sqlite_exec(l, pragmas, PIER_E_LAKE_UNAVAILABLE, err);
    }
    if (rc == PIER_OK)
        rc = pier__sqlite_exec(l, "COMMIT", PIER_E_LAKE_UNAVAILABLE, err);
    if (rc != PIER_OK)
        sqlite3_exec(l->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* Checks that the open file is a lake this code can read, initializing a
 * new one. */
/*
 * Reads the application id and the number of schema objects in one read
 * transaction: a lake that another process is creating right now is then
 * seen before its creation or after it, never half-way (an id of 0 beside
 * the new tables would read as another application's database).
 */
static pier_status read_header(pier__sqlite_lake *l, int64_t *app,
                               int64_t *objects, pier_error *err)
{
    pier_status rc = pier__sqlite_exec(l, "BEGIN", PIER_E_LAKE_UNAVAILABLE,
                                       err);
    if (rc != PIER_OK)
        return rc;
    rc = pragma_int(l, "PRAGMA application_id", app, err);
    if (rc == PIER_OK)
        rc = pragma_int(l, "SELECT count(*) FROM sqlite_schema", objects,
                        err);
    sqlite3_exec(l->db, rc == PIER_OK ? "COMMIT" : "ROLLBACK", NULL, NULL,
                 NULL);
    return rc;
}

/* Brings an older lake to the current format in one transaction: format
 * 1 gains the declared tables' catalog (2), then what migrations keep (3),
 * then the commit triggers (4), then the record of migration files
 * applied (5); unless another process just did. */
static pier_status upgrade(pier__sqlite_lake *l, pier_error *err)
{
    pier_status rc = exec_setup(l, "BEGIN IMMEDIATE", err);
    if (rc != PIER_OK)
        return rc;
    int64_t format = 0;
    rc = pragma_int(l, "PRAGMA user_version", &format, err);
    if (rc == PIER_OK && format >= 1 && format < PIER__FORMAT) {
        char pragma[48];
        snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d",
                 PIER__FORMAT);
        if (format < 2)
            rc = pier__sqlite_exec(l, pier__sqlite_tables_schema,
                                   PIER_E_LAKE_UNAVAILABLE, err);
        if (rc == PIER_OK && format < 3)
            rc = pier__sqlite_exec(l, pier__sqlite_migrations_schema,
                                   PIER_E_LAKE_UNAVAILABLE, err);
        if (rc == PIER_OK && format < 4)
            rc = pier__sqlite_exec(l, pier__sqlite_history_schema,
                                   PIER_E_LAKE_UNAVAILABLE, err);
        if (rc == PIER_OK && format < 5)
            rc = pier__sqlite_exec(l, pier__sqlite_files_schema,
                                   PIER_E_LAKE_UNAVAILABLE, err);
        if (rc == PIER_OK)
            rc = pier__sqlite_exec(l, pragma, PIER_E_LAKE_UNAVAILABLE, err);
    }
    if (rc == PIER_OK)
        rc = pier__sqlite_exec(l, "COMMIT", PIER_E_LAKE_UNAVAILABLE, err);
    if (rc != PIER_OK)
        sqlite3_exec(l->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

static pier_status check_format(pier__sqlite_lake *l, pier_error *err)
{
    int64_t app = 0, format = 0, objects = 0;
    pier_status rc = read_header(l, &app, &objects, err);
    if (rc == PIER_OK && app == 0) {
        if (objects > 0)
            return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                              "'%s' is not a Pier lake (a SQLite database "
                              "of another application)", l->path);
        if (l->readonly)        /* (made by a crash during its creation) */
            return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                              "'%s' is an empty file, not a Pier lake yet "
                              "(read-only: it is not made one)", l->path);
        rc = initialize(l, err);
        if (rc == PIER_OK)
            rc = pragma_int(l, "PRAGMA application_id", &app, err);
    }
    if (rc != PIER_OK)
        return rc;
    if (app != PIER__APPLICATION_ID)
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "'%s' is not a Pier lake (application id %lld)",
                          l->path, (long long)app);
    rc = pragma_int(l, "PRAGMA user_version", &format, err);
    if (rc != PIER_OK)
        return rc;
    if (format > PIER__FORMAT)
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "'%s' was written by a newer Pier (format %lld; "
                          "this Pier reads format %d)", l->path,
                          (long long)format, PIER__FORMAT);
    if (format < 1)
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "'%s' is not a Pier lake (format %lld)", l->path,
                          (long long)format);
    if (format < PIER__FORMAT && l->readonly)
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "'%s' is in format %lld and needs an upgrade to "
                          "format %d, which a read-only open cannot make: "
                          "open it once for writing", l->path,
                          (long long)format, PIER__FORMAT);
    return format < PIER__FORMAT ? upgrade(l, err) : PIER_OK;
}

static pier_status prepare(pier__sqlite_lake *l, const char *sql,
                           sqlite3_stmt **out, pier_error *err)
{
    if (sqlite3_prepare_v3(l->db, sql, -1, SQLITE_PREPARE_PERSISTENT, out,
                           NULL) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_LAKE_UNAVAILABLE,
                                 "cannot prepare the lake's statements");
    return PIER_OK;
}

/* Sets the pragmas of an open lake (after check_format: a file that is
 * not a lake must be refused before anything is written to it). */
static pier_status configure(pier__sqlite_lake *l,
                             const pier__lake_config *cfg, pier_error *err)
{
    /* WAL lets readers run beside the writer and makes a commit one
     * append; FULL syncs the WAL on every commit, so an acknowledged write
     * survives power loss. NORMAL syncs only at checkpoints. */
    const char *sync = cfg->durability == PIER_DURABILITY_FULL
                           ? "PRAGMA synchronous = FULL"
                           : "PRAGMA synchronous = NORMAL";
    /* (a read-only connection keeps the file's mode: switching is a
     * write) */
    pier_status rc = l->readonly ? PIER_OK
                     : exec_setup(l, "PRAGMA journal_mode = WAL", err);
    if (rc == PIER_OK)
        rc = exec_setup(l, sync, err);
    if (rc == PIER_OK)
        rc = pier__sqlite_exec(l, "PRAGMA foreign_keys = ON; "
                               "PRAGMA trusted_schema = OFF",
                               PIER_E_LAKE_UNAVAILABLE, err);
    return rc;
}

/* Opens the writer connection, making the file if it is missing. */
static pier_status open_writer(pier__sqlite_lake *l, bool exists,
                               pier_error *err)
{
    /* The engine serializes calls on its connections itself. */
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
                (exists ? 0 : SQLITE_OPEN_CREATE);
    if (sqlite3_open_v2(l->path, &l->db, flags, NULL) != SQLITE_OK) {
        int sys = l->db != NULL ? sqlite3_system_errno(l->db) : 0;
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "cannot open lake '%s': %s", l->path,
                          sys != 0 ? strerror(sys)
                          : l->db != NULL ? sqlite3_errmsg(l->db)
                                          : "out of memory");
    }
    if (sqlite3_db_readonly(l->db, "main") == 1) {
        /* SQLite fell back to reading, and keeps no errno of the open it
         * could not make: ask the file system why (EROFS, EACCES...). */
        int why = access(l->path, W_OK) != 0 ? errno : 0;
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "cannot open lake '%s' for writing: %s (a "
                          "read-only open reads it: --readonly)", l->path,
                          why != 0 ? strerror(why)
                                   : "SQLite opened it read-only");
    }
    return PIER_OK;
}

/* l->path as a file: URI opening it immutable (RFC 3986: '%', '?' and
 * '#' escaped, as SQLite's URI parser wants). */
static char *immutable_uri(const char *path)
{
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_puts(&b, "file:");
    for (const char *p = path; *p != '\0'; p++) {
        if (*p == '%' || *p == '?' || *p == '#')
            pier__buf_printf(&b, "%%%02X", (unsigned char)*p);
        else
            pier__buf_putc(&b, *p);
    }
    pier__buf_puts(&b, "?immutable=1");
    return pier__buf_detach(&b);
}

/*
 * Opens a lake for reading only (pier_open_options.readonly): the
 * connection is SQLITE_OPEN_READONLY, so nothing can be written whatever
 * runs on it. A lake is in WAL mode, and reading one needs its -shm
 * index: SQLite makes it when the directory is writable, or uses one
 * that is there. In a directory nobody may write (0555, another user's)
 * with no -shm, no writer can be running either (it would have made
 * one), and the file is opened immutable: SQLite then takes no locks and
 * reads the file as it stands.
 */
static pier_status open_readonly(pier__sqlite_lake *l, const char *data_dir,
                                 pier_error *err)
{
    int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX;
    char *shm = pier__sqlite_lake_path(data_dir, "-shm");
    if (shm == NULL)
        return pier__oom(err);
    bool immutable = access(shm, F_OK) != 0 && access(data_dir, W_OK) != 0;
    free(shm);
    if (immutable) {
        char *uri = immutable_uri(l->path);
        if (uri == NULL)
            return pier__oom(err);
        free(l->open_name);
        l->open_name = uri;
        l->open_flags = SQLITE_OPEN_URI;
    }
    if (sqlite3_open_v2(l->open_name, &l->db, flags | l->open_flags, NULL) !=
        SQLITE_OK) {
        int sys = l->db != NULL ? sqlite3_system_errno(l->db) : 0;
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "cannot open lake '%s' for reading: %s", l->path,
                          sys != 0 ? strerror(sys)
                          : l->db != NULL ? sqlite3_errmsg(l->db)
                                          : "out of memory");
    }
    return PIER_OK;
}

pier_status pier__sqlite_lake_open(pier__lake **out, const char *data_dir,
                                   const pier__lake_config *cfg,
                                   pier_error *err)
{
    *out = NULL;
    if (cfg->must_exist) {
        /* (a read: neither the directory nor the file is made) */
        char *file = pier__sqlite_lake_path(data_dir, "");
        struct stat fs;
        bool there = file != NULL && stat(file, &fs) == 0;
        pier_status rc = file == NULL ? pier__oom(err)
                         : there      ? PIER_OK
                                      : pier__fail(err,
                                                   PIER_E_LAKE_UNAVAILABLE,
                                                   "no lake at '%s': '%s' "
                                                   "does not exist (a read "
                                                   "makes no lake)",
                                                   data_dir, file);
        free(file);
        if (rc != PIER_OK)
            return rc;
    }
    int e = cfg->readonly ? 0 : pier__mkdir_p(data_dir, 0777);
    if (e != 0)
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "cannot create data directory '%s': %s", data_dir,
                          strerror(e));
    struct stat st;
    if (stat(data_dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "data directory '%s' is not a directory",
                          data_dir);

    pier__sqlite_lake *l = calloc(1, sizeof *l);
    if (l == NULL)
        return pier__oom(err);
    l->base.ops = &sqlite_ops;
    l->path = pier__sqlite_lake_path(data_dir, "");
    l->data_dir = pier__strdup(data_dir);
    l->open_name = pier__strdup(l->path != NULL ? l->path : "");
    l->readonly = cfg->readonly;
    pier_status rc = PIER_OK;
    if (l->path == NULL || l->data_dir == NULL || l->open_name == NULL) {
        rc = pier__oom(err);
        goto done;
    }
    bool exists = stat(l->path, &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                        "'%s' is not a Pier lake (not a regular file)",
                        l->path);
        goto done;
    }
    rc = cfg->readonly ? open_readonly(l, data_dir, err)
                       : open_writer(l, exists, err);
    if (rc != PIER_OK)
        goto done;
    sqlite3_busy_timeout(l->db, cfg->busy_timeout_ms);
    l->busy_timeout_ms = cfg->busy_timeout_ms;
    sqlite3_extended_result_codes(l->db, 1);
    rc = check_format(l, err);
    if (rc == PIER_OK)
        rc = configure(l, cfg, err);
    if (rc == PIER_OK)
        rc = pier__sqlite_register_functions(l, err);
    if (rc == PIER_OK)
        pier__sqlite_exec_init(l);
    if (rc == PIER_OK)
        rc = pier__sqlite_readers_init(l, cfg->busy_timeout_ms, err);
    if (rc == PIER_OK)
        rc = prepare(l, "SELECT value FROM _pier_meta "
                     "WHERE key = 'catalog_version'", &l->get_version, err);
    if (rc == PIER_OK)
        rc = prepare(l, "UPDATE _pier_meta SET value = value + 1 "
                     "WHERE key = 'catalog_version' RETURNING value",
                     &l->bump_version, err);
    if (rc == PIER_OK)
        rc = prepare(l, "INSERT INTO _pier_changes(board, kind, payload, "
                     "committed_at, stamp) VALUES (?1, ?2, ?3, ?4, ?5)",
                     &l->append_change, err);
    if (rc == PIER_OK)
        rc = prepare(l, "SELECT coalesce((SELECT stamp FROM _pier_changes "
                     "ORDER BY watermark DESC LIMIT 1), 0)", &l->get_stamp,
                     err);
    if (rc == PIER_OK)
        rc = prepare(l, "SELECT coalesce((SELECT seq FROM sqlite_sequence "
                     "WHERE name = '_pier_changes'), 0)", &l->get_head,
                     err);
done:
    if (rc != PIER_OK) {
        sqlite_ops.close(&l->base);
        return rc;
    }
    *out = &l->base;
    return PIER_OK;
}

static void sqlite_close(pier__lake *lake)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    pier__sqlite_readers_close(l);
    pier__recorder_free(l->recorder);
    pier__sqlite_forget_statements(l);
    pier__sqlite_stmt_finish(lake);
    pier__sqlite_exec_close(l);
    pier__arena_free(&l->shape_mem);
    free(l->cells);
    sqlite3_finalize(l->get_version);
    sqlite3_finalize(l->bump_version);
    sqlite3_finalize(l->append_change);
    sqlite3_finalize(l->get_head);
    sqlite3_finalize(l->get_stamp);
    for (size_t i = 0; i < sizeof l->txn / sizeof l->txn[0]; i++)
        sqlite3_finalize(l->txn[i]);
    sqlite3_finalize(l->data_version);
    sqlite3_close(l->db);           /* NULL is a no-op */
    free(l->open_name);
    free(l->path);
    free(l->data_dir);
    free(l);
}

/* ---- transactions ---- */

enum { TXN_BEGIN_WRITE, TXN_BEGIN_READ, TXN_COMMIT, TXN_ROLLBACK };

/* Runs one of the transaction statements, kept prepared: each write
 * begins and ends one, and parsing them again was a sixth of a
 * one-row write's instructions. An SQLite result code; an error's
 * message stays on the connection. */
static int txn(pier__sqlite_lake *l, int which)
{
    static const char *const sql[] = { "BEGIN IMMEDIATE", "BEGIN", "COMMIT",
                                       "ROLLBACK" };
    if (l->txn[which] == NULL) {
        int rc = sqlite3_prepare_v3(l->db, sql[which], -1,
                                    SQLITE_PREPARE_PERSISTENT,
                                    &l->txn[which], NULL);
        if (rc != SQLITE_OK)
            return rc;
    }
    int rc = sqlite3_step(l->txn[which]);
    sqlite3_reset(l->txn[which]);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static pier_status begin_write(pier__lake *lake, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    if (l->readonly)            /* (the engine refuses before: a guard) */
        return pier__fail(err, PIER_E_WRITE_FAILED, "the lake '%s' is open "
                          "read-only (--readonly): nothing was written",
                          l->data_dir);
    /* IMMEDIATE takes the write lock now, waiting up to the busy timeout,
     * so that a write never fails half-way for want of the lock. */
    if (txn(l, TXN_BEGIN_WRITE) == SQLITE_OK)
        return PIER_OK;
    if ((sqlite3_extended_errcode(l->db) & 0xff) == SQLITE_BUSY)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "the lake is locked by another writer");
    return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                             "cannot start a write");
}

static pier_status begin_read(pier__lake *lake, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    if (txn(l, TXN_BEGIN_READ) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot start a read");
    return PIER_OK;
}

static pier_status commit(pier__lake *lake, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    if (txn(l, TXN_COMMIT) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot commit");
    return PIER_OK;
}

static void rollback(pier__lake *lake)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    if (!sqlite3_get_autocommit(l->db))
        txn(l, TXN_ROLLBACK);
    l->catalog_known = false;          /* (a bump may be undone) */
    l->fts_cookie = -1;                /* (so may an index) */
    /* Statements prepared inside the rolled-back transaction may name
     * columns that no longer exist: forget them (SQLite would re-prepare
     * them and fail, but the next write should not pay for that). */
    pier__sqlite_forget_statements(l);
}

static const pier__lake_ops sqlite_ops = {
    .name = "sqlite",
    .close = sqlite_close,
    .begin_write = begin_write,
    .begin_read = begin_read,
    .commit = commit,
    .rollback = rollback,
    .catalog_version = pier__sqlite_catalog_version,
    .catalog_bump = pier__sqlite_catalog_bump,
    .catalog_load = pier__sqlite_catalog_load,
    .board_create = pier__sqlite_board_create,
    .board_drop = pier__sqlite_board_drop,
    .board_truncate = pier__sqlite_board_truncate,
    .column_add = pier__sqlite_column_add,
    .column_widen = pier__sqlite_column_widen,
    .fts_enable = pier__sqlite_fts_enable,
    .fts_disable = pier__sqlite_fts_disable,
    .fts_columns = pier__sqlite_fts_columns,
    .rows_write = pier__sqlite_rows_write,
    .row_update = pier__sqlite_row_update,
    .rows_delete = pier__sqlite_rows_delete,
    .last_stamp = pier__sqlite_last_stamp,
    .changes_read = pier__sqlite_changes_read,
    .floor = pier__sqlite_floor,
    .changes_expire = pier__sqlite_changes_expire,
    .checkpoint = pier__sqlite_checkpoint,
    .compact_files = pier__sqlite_compact_files,
    .backup = pier__sqlite_backup,
    .export_lines = pier__sqlite_export,
    .import_lines = pier__sqlite_import,
    .stats = pier__sqlite_stats,
    .board_stats = pier__sqlite_board_stats,
    .rows_scan = pier__sqlite_rows_scan,
    .rows_count = pier__sqlite_rows_count,
    .change_append = pier__sqlite_change_append,
    .head = pier__sqlite_head,
    .reader_open = pier__sqlite_reader_open,
    .reader_prepare = pier__sqlite_reader_prepare,
    .reader_bind = pier__sqlite_reader_bind,
    .reader_step = pier__sqlite_reader_step,
    .reader_version = pier__sqlite_reader_version,
    .reader_again = pier__sqlite_reader_again,
    .reader_restart = pier__sqlite_reader_restart,
    .reader_guard = pier__sqlite_reader_guard,
    .reader_close = pier__sqlite_reader_close,
    .table_save = pier__sqlite_table_save,
    .table_forget = pier__sqlite_table_forget,
    .stmt_prepare = pier__sqlite_stmt_prepare,
    .stmt_bind = pier__sqlite_stmt_bind,
    .stmt_step = pier__sqlite_stmt_step,
    .stmt_changes = pier__sqlite_stmt_changes,
    .stmt_finish = pier__sqlite_stmt_finish,
    .ddl = pier__sqlite_ddl,
    .in_write = pier__sqlite_in_write,
    .stmt_guard = pier__sqlite_stmt_guard,
    .guard_check = pier__sqlite_guard_check,
    .schema_objects = pier__sqlite_schema_objects,
    .board_indexes = pier__sqlite_board_indexes,
    .migrate_meta = pier__sqlite_migrate_meta,
    .table_rows = pier__sqlite_table_rows,
    .duplicate_witnesses = pier__sqlite_duplicate_witnesses,
    .sequence_get = pier__sqlite_sequence_get,
    .schema_sql_set = pier__sqlite_schema_sql_set,
    .migrate_meta_put = pier__sqlite_migrate_meta_put,
    .null_witnesses = pier__sqlite_null_witnesses,
    .schema_remember = pier__sqlite_schema_remember,
    .schema_compare = pier__sqlite_schema_compare,
    .trigger_save = pier__sqlite_trigger_save,
    .trigger_forget = pier__sqlite_trigger_forget,
    .table_keyed = pier__sqlite_table_keyed,
    .recording_open = pier__sqlite_recording_open,
    .recordings_stop = pier__sqlite_recordings_stop,
    .recording_take = pier__sqlite_recording_take,
    .recording_unkeyed = pier__sqlite_recording_unkeyed,
    .recording_close = pier__sqlite_recording_close,
    .changeset_expose = pier__sqlite_changeset_expose,
    .changeset_apply = pier__sqlite_changeset_apply,
    .files_applied = pier__sqlite_files_applied,
    .file_record = pier__sqlite_file_record,
    .file_forget = pier__sqlite_file_forget,
};

/* ---- removing a lake ---- */

pier_status pier__sqlite_lake_reset(const char *data_dir, pier_error *err)
{
    struct stat st;
    if (stat(data_dir, &st) != 0 && errno == ENOENT)
        return PIER_OK;
    char *path = pier__sqlite_lake_path(data_dir, "");
    if (path == NULL)
        return pier__oom(err);
    pier_status rc = PIER_OK;
    if (stat(path, &st) == 0 && st.st_size > 0) {
        /* Only a lake is removed: look at the header first. */
        sqlite3 *db = NULL;
        sqlite3_stmt *q = NULL;
        int64_t app = -1;
        if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) ==
                SQLITE_OK &&
            sqlite3_prepare_v2(db, "PRAGMA application_id", -1, &q, NULL) ==
                SQLITE_OK &&
            sqlite3_step(q) == SQLITE_ROW)
            app = sqlite3_column_int64(q, 0);
        sqlite3_finalize(q);
        sqlite3_close(db);
        if (app != PIER__APPLICATION_ID)
            rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                            "'%s' is not a Pier lake; it was left alone",
                            path);
    }
    static const char *const suffixes[] = { "-wal", "-shm", "-journal", "" };
    for (size_t i = 0; rc == PIER_OK && i < 4; i++) {
        char *f = pier__sqlite_lake_path(data_dir, suffixes[i]);
        if (f == NULL) {
            rc = pier__oom(err);
            break;
        }
        if (unlink(f) != 0 && errno != ENOENT)
            rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                            "cannot remove '%s': %s", f, strerror(errno));
        free(f);
    }
    if (rc == PIER_OK && rmdir(data_dir) != 0 && errno != ENOTEMPTY &&
        errno != EEXIST && errno != ENOENT)
        rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                        "cannot remove data directory '%s': %s", data_dir,
                        strerror(errno));
    free(path);
    return rc;
}
