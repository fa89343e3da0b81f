/*
 * sqlite_backup.c: copying an embedded lake whole, with SQLite's online
 * backup API (sqlite3_backup_init/step/finish), in both directions:
 *
 *   backup   the engine's lake into a new file. Every page is copied
 *            inside one read transaction of the source, so the copy is
 *            the lake at one commit, whatever other processes write
 *            meanwhile (WAL lets them: a reader does not block them). The
 *            pages go BACKUP_STEP_PAGES at a time, and pier_interrupt
 *            stops the copy between two steps (Ctrl-C in pier backup).
 *   restore  another lake's file into this data directory's lake. The
 *            pages are written in one write transaction of the lake being
 *            replaced, through its own journal (its WAL): a failure or a
 *            crash half-way leaves the old lake as it was. The lake is
 *            first locked exclusively (locking_mode EXCLUSIVE, which an
 *            idle connection of any other process already prevents), so
 *            no engine is left holding a catalog cache or a feed position
 *            of the lake that went away; the lock is held until the copy
 *            ends.
 *
 * A lake is one file, lake.sqlite; its -wal and -shm belong to SQLite
 * and are never copied by hand (the backup reads through them).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/sqlite_int.h"

/* Pages copied between two looks at the interrupt counter: 4 MiB of the
 * lake's 4 KiB pages, a few milliseconds of copying. */
#define BACKUP_STEP_PAGES 1024

/* Copies everything of `src` into `dst` ("main" to "main"). With
 * `interrupts`, a step at a time, inside a read transaction of the
 * source that the caller holds (without one a step would restart
 * whenever another process commits), until *interrupts moves from
 * `seen`; without, in one step. On failure the message names `what`. */
static pier_status copy_pages(sqlite3 *dst, sqlite3 *src, const char *what,
                              const atomic_uint_fast64_t *interrupts,
                              uint64_t seen, pier_error *err)
{
    sqlite3_backup *b = sqlite3_backup_init(dst, "main", src, "main");
    if (b == NULL)
        return pier__fail(err, PIER_E_WRITE_FAILED, "%s: %s", what,
                          sqlite3_errmsg(dst));
    int step;
    do {
        if (interrupts != NULL && atomic_load(interrupts) != seen) {
            sqlite3_backup_finish(b);
            return pier__fail(err, PIER_E_INTERRUPTED, "%s: interrupted",
                              what);
        }
        step = sqlite3_backup_step(b, interrupts != NULL ? BACKUP_STEP_PAGES
                                                         : -1);
    } while (step == SQLITE_OK);
    int done = sqlite3_backup_finish(b);
    if (step == SQLITE_DONE && done == SQLITE_OK)
        return PIER_OK;
    int code = sqlite3_extended_errcode(dst);
    pier_status st = (code & 0xff) == SQLITE_NOMEM ? PIER_E_OUT_OF_MEMORY
                                                   : PIER_E_WRITE_FAILED;
    pier__fail(err, st, "%s: %s", what,
               step == SQLITE_BUSY || step == SQLITE_LOCKED
                   ? "the lake stayed locked"
                   : sqlite3_errstr(step != SQLITE_DONE ? step : done));
    if (err != NULL)
        err->backend_code = step != SQLITE_DONE ? step : done;
    return st;
}

pier_status pier__sqlite_backup(pier__lake *lake, const char *dest_file,
                                const atomic_uint_fast64_t *interrupts,
                                pier_error *err)
{
    uint64_t seen = interrupts != NULL ? atomic_load(interrupts) : 0;
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    sqlite3 *dst = NULL;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                SQLITE_OPEN_NOMUTEX;
    pier_status rc = PIER_OK;
    if (sqlite3_open_v2(dest_file, &dst, flags, NULL) != SQLITE_OK) {
        rc = pier__fail(err, PIER_E_WRITE_FAILED, "cannot create '%s': %s",
                        dest_file, dst != NULL ? sqlite3_errmsg(dst)
                                               : "out of memory");
        goto done;
    }
    /* The copy is synced before it is renamed into place (backup.c). */
    sqlite3_exec(dst, "PRAGMA synchronous = FULL", NULL, NULL, NULL);
    /* The read transaction every step copies from. */
    bool reading = sqlite3_exec(l->db, "BEGIN; SELECT count(*) FROM "
                                "main.sqlite_schema", NULL, NULL,
                                NULL) == SQLITE_OK;
    if (!reading)
        rc = pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                               "cannot read the lake");
    else
        rc = copy_pages(dst, l->db, "cannot copy the lake", interrupts,
                        seen, err);
    /* (ends it, or what BEGIN began when the SELECT failed) */
    sqlite3_exec(l->db, "COMMIT", NULL, NULL, NULL);
    if (rc == PIER_OK &&
        sqlite3_exec(dst, "PRAGMA journal_mode = WAL", NULL, NULL, NULL) !=
            SQLITE_OK)
        rc = pier__fail(err, PIER_E_WRITE_FAILED, "cannot finish '%s': %s",
                        dest_file, sqlite3_errmsg(dst));
done:
    /* (the last connection's close checkpoints and removes the -wal) */
    if (sqlite3_close(dst) != SQLITE_OK && rc == PIER_OK)
        rc = pier__fail(err, PIER_E_WRITE_FAILED, "cannot close '%s'",
                        dest_file);
    return rc;
}

/* Whether the file open on `db` is a Pier lake or empty (nothing to
 * lose): its application id, read in a read transaction. */
static pier_status check_replaceable(sqlite3 *db, const char *path,
                                     pier_error *err)
{
    sqlite3_stmt *st = NULL;
    int64_t app = -1, objects = -1;
    if (sqlite3_prepare_v2(db, "SELECT (SELECT application_id FROM "
                           "pragma_application_id), (SELECT count(*) FROM "
                           "sqlite_schema)", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
        app = sqlite3_column_int64(st, 0);
        objects = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    int code = sqlite3_errcode(db) & 0xff;
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
        return pier__fail(err, PIER_E_WRITE_FAILED, "the lake '%s' is open "
                          "in another process: stop it, then restore",
                          path);
    if (app == PIER__APPLICATION_ID || (app == 0 && objects == 0))
        return PIER_OK;
    return pier__fail(err, PIER_E_LAKE_UNAVAILABLE, "'%s' is not a Pier "
                      "lake; it was left alone", path);
}

pier_status pier__sqlite_lake_restore(const char *data_dir,
                                      pier__lake *source, pier_error *err)
{
    pier__sqlite_lake *src = (pier__sqlite_lake *)source;
    int e = pier__mkdir_p(data_dir, 0777);
    if (e != 0)
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "cannot create data directory '%s': %s", data_dir,
                          strerror(e));
    char *path = pier__sqlite_lake_path(data_dir, "");
    if (path == NULL)
        return pier__oom(err);
    pier_status rc = PIER_OK;
    if (strcmp(path, src->path) == 0) {
        rc = pier__fail(err, PIER_E_INVALID_ARGUMENT, "'%s' is the lake "
                        "being restored: restore from a backup of it",
                        path);
        free(path);
        return rc;
    }
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE |
                        SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        NULL) != SQLITE_OK) {
        rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE, "cannot open lake "
                        "'%s': %s", path, db != NULL ? sqlite3_errmsg(db)
                                                     : "out of memory");
        goto done;
    }
    /* Exclusive from the first lock to the close: no other process may
     * read the lake while it is replaced, nor hold it open. */
    if (sqlite3_exec(db, "PRAGMA locking_mode = EXCLUSIVE", NULL, NULL,
                     NULL) != SQLITE_OK) {
        rc = pier__fail(err, PIER_E_WRITE_FAILED, "cannot lock '%s': %s",
                        path, sqlite3_errmsg(db));
        goto done;
    }
    if (sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL) != SQLITE_OK) {
        int code = sqlite3_errcode(db) & 0xff;
        rc = code == SQLITE_NOTADB
                 ? pier__fail(err, PIER_E_LAKE_UNAVAILABLE, "'%s' is not a "
                              "Pier lake; it was left alone", path)
             : code == SQLITE_BUSY || code == SQLITE_LOCKED
                 ? pier__fail(err, PIER_E_WRITE_FAILED, "the lake '%s' is "
                              "open in another process: stop it, then "
                              "restore", path)
                 : pier__fail(err, PIER_E_WRITE_FAILED, "cannot lock "
                              "'%s': %s", path, sqlite3_errmsg(db));
        goto done;
    }
    rc = check_replaceable(db, path, err);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);  /* (the lock stays) */
    if (rc == PIER_OK)
        rc = copy_pages(db, src->db, "cannot restore the lake", NULL, 0,
                        err);
done:
    sqlite3_close(db);
    free(path);
    return rc;
}

pier_status pier__sqlite_lake_unused(const char *path, pier_error *err)
{
    sqlite3 *db = NULL;
    pier_status rc = PIER_OK;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE |
                        SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE, "cannot open lake "
                        "'%s': %s", path, db != NULL ? sqlite3_errmsg(db)
                                                     : "out of memory");
    } else if (sqlite3_exec(db, "PRAGMA locking_mode = EXCLUSIVE; "
                            "BEGIN EXCLUSIVE", NULL, NULL, NULL) !=
               SQLITE_OK) {
        int code = sqlite3_errcode(db) & 0xff;
        rc = code == SQLITE_BUSY || code == SQLITE_LOCKED
                 ? pier__fail(err, PIER_E_WRITE_FAILED, "the lake '%s' is "
                              "open in another process: it was left "
                              "alone", path)
                 : pier__fail(err, PIER_E_LAKE_UNAVAILABLE, "cannot lock "
                              "'%s': %s", path, sqlite3_errmsg(db));
    }
    sqlite3_close(db);              /* (rolls back, and unlocks) */
    return rc;
}
