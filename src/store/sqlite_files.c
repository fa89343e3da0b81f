/*
 * sqlite_files.c: the record of versioned migration files applied to the
 * lake (format 5; src/versioned/ reads the files and applies them):
 *
 *   _pier_migration_files(version, name, checksum, applied_at)
 *       one row per version applied: its 14 digits (the key), the name
 *       after them in its file's name, the checksum of the file as it was
 *       applied (16 hexadecimal digits), and when (microseconds, UTC)
 *
 * A version's row is written and removed in the transaction that runs
 * its up or down section, so the record and the schema never disagree.
 * Like every _pier_ table it is out of the dialect's reach (the
 * authorizer refuses the prefix) and out of schema dumps and drift checks
 * (their queries leave _pier_ tables out).
 */
#include "store/sqlite_int.h"

const char pier__sqlite_files_schema[] =
    "CREATE TABLE _pier_migration_files("
    "  version TEXT PRIMARY KEY,"
    "  name TEXT NOT NULL,"
    "  checksum TEXT NOT NULL,"
    "  applied_at INTEGER NOT NULL) STRICT;";

pier_status pier__sqlite_files_applied(
    pier__lake *lake, int (*cb)(const pier__file_record *r, void *payload),
    void *payload, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(l->db, "SELECT version, name, checksum, "
                           "applied_at FROM _pier_migration_files "
                           "ORDER BY version", -1, &st, NULL) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read the applied migration files");
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        pier__file_record r;
        r.version = (const char *)sqlite3_column_text(st, 0);
        r.name = (const char *)sqlite3_column_text(st, 1);
        r.checksum = (const char *)sqlite3_column_text(st, 2);
        r.applied_at = sqlite3_column_int64(st, 3);
        if (r.version == NULL || r.name == NULL || r.checksum == NULL) {
            sqlite3_finalize(st);
            return pier__fail(err, PIER_E_READ_FAILED, "the record of the "
                              "applied migration files is damaged");
        }
        if (cb(&r, payload) != 0) {
            step = SQLITE_DONE;
            break;
        }
    }
    pier_status rc = PIER_OK;
    if (step != SQLITE_DONE)
        rc = pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                               "cannot read the applied migration files");
    sqlite3_finalize(st);
    return rc;
}

pier_status pier__sqlite_file_record(pier__lake *lake,
                                     const pier__file_record *r,
                                     pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(l->db, "INSERT INTO _pier_migration_files("
                           "version, name, checksum, applied_at) "
                           "VALUES (?1, ?2, ?3, ?4)", -1, &st, NULL) !=
        SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot record a migration file");
    sqlite3_bind_text(st, 1, r->version, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, r->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, r->checksum, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, r->applied_at);
    int step = sqlite3_step(st);
    pier_status rc = step == SQLITE_DONE
        ? PIER_OK
        : pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                            "cannot record a migration file");
    sqlite3_finalize(st);
    return rc;
}

pier_status pier__sqlite_file_forget(pier__lake *lake, const char *version,
                                     pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(l->db, "DELETE FROM _pier_migration_files "
                           "WHERE version = ?1", -1, &st, NULL) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                 "cannot forget a migration file");
    sqlite3_bind_text(st, 1, version, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    pier_status rc = step == SQLITE_DONE
        ? PIER_OK
        : pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                            "cannot forget a migration file");
    sqlite3_finalize(st);
    return rc;
}
