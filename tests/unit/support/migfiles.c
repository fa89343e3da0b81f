/*
 * migfiles.c: see migfiles.h.
 */
#include "support/migfiles.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/sqlite_int.h"
#include "support/lakecheck.h"
#include "versioned/vfile.h"

/* The versions a check looks for past the last one it finds: none of the
 * tests writes more than a few hundred. */
#define MAX_VERSIONS 100000

static const char *const kind_names[MIGFILES_PER_GEN] = {
    "create_table", "add_rows", "add_index", "bump", "add_note"
};

void migfiles_version(size_t i, char *out)
{
    if (!pier__vfile_version_of(MIGFILES_T0 + (int64_t)i, out))
        snprintf(out, PIER__VFILE_VERSION_DIGITS + 1, "%s", "?");
}

static void name_of(size_t i, char *out, size_t cap)
{
    snprintf(out, cap, "%s_%zu", kind_names[i % MIGFILES_PER_GEN],
             i / MIGFILES_PER_GEN);
}

void migfiles_file(size_t i, char *out, size_t cap)
{
    char version[PIER__VFILE_VERSION_DIGITS + 1], name[64];
    migfiles_version(i, version);
    name_of(i, name, sizeof name);
    snprintf(out, cap, "%s_%s.sql", version, name);
}

bool migfiles_reversible(size_t i)
{
    return i % MIGFILES_PER_GEN != MIGFILES_BUMP;
}

char *migfiles_dir_of(const char *data_dir)
{
    size_t n = strlen(data_dir) + sizeof "/migrations";
    char *p = malloc(n);
    if (p != NULL)
        snprintf(p, n, "%s/migrations", data_dir);
    return p;
}

/* Version i's text into out (cap bytes). */
static void text_of(size_t i, char *out, size_t cap)
{
    size_t g = i / MIGFILES_PER_GEN;
    switch (i % MIGFILES_PER_GEN) {
    case MIGFILES_CREATE:
        snprintf(out, cap, "-- The table of generation %zu.\n"
                 "-- migrate:up\n"
                 "CREATE TABLE mf%zu (id INT64 PRIMARY KEY, "
                 "label TEXT NOT NULL,\n    qty INT64 NOT NULL);\n"
                 "-- migrate:down\n"
                 "DROP TABLE mf%zu;\n", g, g, g);
        break;
    case MIGFILES_ADD_ROWS:
        snprintf(out, cap, "-- migrate:up\n"
                 "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 "
                 "FROM r\n    WHERE i < %d)\n"
                 "INSERT INTO mf%zu (id, label, qty)\n"
                 "    SELECT i, printf('%%-200s', 'row ' || i), i FROM r;\n"
                 "-- migrate:down\n"
                 "DELETE FROM mf%zu WHERE id <= %d;\n", MIGFILES_ROWS, g, g,
                 MIGFILES_ROWS);
        break;
    case MIGFILES_ADD_INDEX:
        snprintf(out, cap, "-- migrate:up\n"
                 "CREATE INDEX mf%zu_label ON mf%zu (label);\n"
                 "-- migrate:down\n"
                 "DROP INDEX mf%zu_label;\n", g, g, g);
        break;
    case MIGFILES_BUMP:
        snprintf(out, cap, "-- migrate:up\n"
                 "UPDATE mf%zu SET qty = qty + 1000;\n"
                 "INSERT INTO mf%zu (id, label, qty) VALUES (1000, "
                 "'bumped', 1000);\n%s", g, g,
                 g % 2 == 0 ? "-- migrate:down\n-- Irreversible: the "
                              "quantities before are not kept.\n"
                            : "");
        break;
    default:
        snprintf(out, cap, "-- migrate:up\n"
                 "BEGIN;\n"
                 "ALTER TABLE mf%zu ADD COLUMN note TEXT;\n"
                 "UPDATE mf%zu SET note = 'n' || id;\n"
                 "COMMIT;\n"
                 "-- migrate:down\n"
                 "ALTER TABLE mf%zu DROP COLUMN note;\n", g, g, g);
    }
}

/* ---- writing ---- */

static pier_status sys_fail(pier_error *err, const char *what,
                            const char *path)
{
    return pier__fail(err, PIER_E_WRITE_FAILED, "%s '%.300s': %s", what,
                      path, strerror(errno));
}

static pier_status make_dirs(const char *dir, pier_error *err)
{
    char path[1024];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return sys_fail(err, "cannot make", path);
        *p = saved;
        if (saved == '\0')
            return PIER_OK;
    }
}

/* Whether `path` holds exactly text[0..len). */
static bool holds(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return false;
    char buf[2048];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return n == len && memcmp(buf, text, len) == 0;
}

/* Writes text to a hidden file of `dir`, then renames it to `path`. */
static pier_status put_whole(const char *dir, const char *path,
                             const char *text, size_t len, pier_error *err)
{
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s/.migfiles-%ld.tmp", dir, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (f == NULL)
        return sys_fail(err, "cannot write", tmp);
    bool ok = fwrite(text, 1, len, f) == len;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        pier_status rc = sys_fail(err, "cannot write", path);
        unlink(tmp);
        return rc;
    }
    return PIER_OK;
}

pier_status migfiles_write(const char *dir, size_t n, bool create,
                           pier_error *err)
{
    pier_status rc = make_dirs(dir, err);
    for (size_t i = 0; rc == PIER_OK && i < n; i++) {
        char file[160], path[1200], text[1024];
        migfiles_file(i, file, sizeof file);
        snprintf(path, sizeof path, "%s/%s", dir, file);
        text_of(i, text, sizeof text);
        size_t len = strlen(text);
        if (holds(path, text, len))
            continue;
        if (create && access(path, F_OK) != 0) {
            char name[64], *made = NULL;
            name_of(i, name, sizeof name);
            int64_t at = (MIGFILES_T0 + (int64_t)i) * INT64_C(1000000);
            rc = pier_migration_file_create(&made, dir, name, at, err);
            if (rc == PIER_OK && strcmp(made, path) != 0) {
                unlink(made);
                rc = pier__fail(err, PIER_E_INVALID_ARGUMENT, "version %zu "
                                "was made as '%.300s', not '%.300s'", i,
                                made, path);
            }
            pier_free(made);
        }
        if (rc == PIER_OK)
            rc = put_whole(dir, path, text, len, err);
    }
    return rc;
}

/* ---- reading the lake ---- */

typedef struct reader {
    sqlite3 *db;
    bool bad;
    char *why;
    size_t cap;
} reader;

/* The first column of the first row of `sql` (printf-style), or -1 with
 * r->bad and a reason. */
static int64_t num(reader *r, const char *fmt, ...)
{
    char sql[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sql, sizeof sql, fmt, ap);
    va_end(ap);
    sqlite3_stmt *st = NULL;
    int64_t v = -1;
    if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    else if (!r->bad)
        failf(r->why, r->cap, "%s: %s", sql, sqlite3_errmsg(r->db));
    if (v < 0)
        r->bad = true;
    sqlite3_finalize(st);
    return v;
}

/* What the lake shows of version i's SQL: *on, whether it took effect;
 * false (a reason in r->why) when it took effect only in part. */
static bool effect(reader *r, size_t i, bool *on)
{
    size_t g = i / MIGFILES_PER_GEN;
    char v[PIER__VFILE_VERSION_DIGITS + 1];
    migfiles_version(i, v);
    *on = false;
    if (num(r, "SELECT count(*) FROM sqlite_master WHERE type = 'table' "
            "AND name = 'mf%zu'", g) != 1)
        return !r->bad;
    if (i % MIGFILES_PER_GEN == MIGFILES_CREATE) {
        *on = true;
        return true;
    }
    int64_t n, odd;
    switch (i % MIGFILES_PER_GEN) {
    case MIGFILES_ADD_ROWS:
        n = num(r, "SELECT count(*) FROM mf%zu WHERE id <= %d", g,
                MIGFILES_ROWS);
        *on = n == MIGFILES_ROWS;
        if (!r->bad && n != 0 && n != MIGFILES_ROWS)
            return failf(r->why, r->cap, "version %s: %lld of its %d rows "
                         "in mf%zu", v, (long long)n, MIGFILES_ROWS, g);
        break;
    case MIGFILES_ADD_INDEX:
        *on = num(r, "SELECT count(*) FROM sqlite_master WHERE type = "
                  "'index' AND name = 'mf%zu_label'", g) == 1;
        break;
    case MIGFILES_BUMP:
        *on = num(r, "SELECT count(*) FROM mf%zu WHERE id = 1000", g) == 1;
        odd = num(r, "SELECT count(*) FROM mf%zu WHERE id <= %d AND "
                  "(qty >= 1000) != %d", g, MIGFILES_ROWS, *on ? 1 : 0);
        if (!r->bad && odd != 0)
            return failf(r->why, r->cap, "version %s: row 1000 is %s, but "
                         "%lld rows of mf%zu are %s", v,
                         *on ? "there" : "not", (long long)odd, g,
                         *on ? "not bumped" : "bumped");
        break;
    default:
        *on = num(r, "SELECT count(*) FROM pragma_table_info('mf%zu') "
                  "WHERE name = 'note'", g) == 1;
        odd = !*on ? 0
                   : num(r, "SELECT count(*) FROM mf%zu WHERE note IS NULL "
                         "OR note != 'n' || id", g);
        if (!r->bad && odd != 0)
            return failf(r->why, r->cap, "version %s: %lld rows of mf%zu "
                         "without their note", v, (long long)odd, g);
    }
    return !r->bad;
}

/* The kit's index of a version, or -1 if it is none of the kit's. */
static long index_of(const char *version)
{
    int64_t s = 0;
    if (!pier__vfile_version_time(version, &s) || s < MIGFILES_T0 ||
        s - MIGFILES_T0 >= MAX_VERSIONS)
        return -1;
    return (long)(s - MIGFILES_T0);
}

/* The record: recorded[i] for i < *n (malloc), or NULL (r->why). */
static bool *read_record(reader *r, size_t *n)
{
    sqlite3_stmt *st = NULL;
    bool *rec = calloc(MAX_VERSIONS, sizeof *rec);
    *n = 0;
    if (rec == NULL ||
        sqlite3_prepare_v2(r->db, "SELECT version, name, checksum FROM "
                           "_pier_migration_files", -1, &st, NULL) !=
            SQLITE_OK) {
        failf(r->why, r->cap, "cannot read _pier_migration_files: %s",
              sqlite3_errmsg(r->db));
        free(rec);
        return NULL;
    }
    bool ok = true;
    int step;
    while (ok && (step = sqlite3_step(st)) == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(st, 0);
        const char *name = (const char *)sqlite3_column_text(st, 1);
        const char *sum = (const char *)sqlite3_column_text(st, 2);
        long i = v != NULL ? index_of(v) : -1;
        char want[64], text[1024], want_sum[17];
        if (i < 0 || name == NULL || sum == NULL) {
            ok = failf(r->why, r->cap, "the record holds version %s, "
                       "which no test file has", v != NULL ? v : "NULL");
            break;
        }
        name_of((size_t)i, want, sizeof want);
        text_of((size_t)i, text, sizeof text);
        pier__vfile_checksum(text, strlen(text), want_sum);
        if (strcmp(name, want) != 0 || strcmp(sum, want_sum) != 0)
            ok = failf(r->why, r->cap, "the record of version %s says %s "
                       "(checksum %s), its file is %s (%s)", v, name, sum,
                       want, want_sum);
        rec[i] = true;
        if ((size_t)i + 1 > *n)
            *n = (size_t)i + 1;
    }
    if (ok && step != SQLITE_DONE)
        ok = failf(r->why, r->cap, "cannot read _pier_migration_files: %s",
                   sqlite3_errmsg(r->db));
    sqlite3_finalize(st);
    if (!ok) {
        free(rec);
        return NULL;
    }
    return rec;
}

/* Each version of the record and of the lake agree; *applied: the
 * record's length; *n: the versions looked at; *on: what took effect
 * (malloc, n entries). */
static bool record_agrees(const char *lake, size_t *applied, size_t *n,
                          bool **on, char *why, size_t cap)
{
    reader r = { NULL, false, why, cap };
    *on = NULL;
    int rc = sqlite3_open_v2(lake, &r.db, SQLITE_OPEN_READWRITE, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_busy_timeout(r.db, 5000);
    if (rc == SQLITE_OK)
        rc = pier__sqlite_register_dialect(r.db, NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        failf(why, cap, "cannot open %s: %s", lake, sqlite3_errmsg(r.db));
        sqlite3_close(r.db);
        return false;
    }
    /* One read transaction: what the lake held at one moment. */
    sqlite3_exec(r.db, "BEGIN", NULL, NULL, NULL);
    size_t nrec = 0;
    bool *rec = read_record(&r, &nrec);
    bool ok = rec != NULL;
    /* Every generation with a record or a table of its own. */
    size_t gens = (nrec + MIGFILES_PER_GEN - 1) / MIGFILES_PER_GEN;
    while (ok && num(&r, "SELECT count(*) FROM sqlite_master WHERE name = "
                     "'mf%zu'", gens) > 0)
        gens++;
    ok = ok && !r.bad;
    *n = gens * MIGFILES_PER_GEN;
    *on = calloc(*n + 1, sizeof **on);
    ok = ok && *on != NULL;
    *applied = 0;
    for (size_t i = 0; ok && i < *n; i++) {
        char v[PIER__VFILE_VERSION_DIGITS + 1];
        migfiles_version(i, v);
        ok = effect(&r, i, &(*on)[i]);
        if (ok && rec[i] != (*on)[i])
            ok = failf(why, cap, "version %s: %s", v,
                       rec[i] ? "its record is there, but what its SQL "
                                "does is not"
                              : "what its SQL does is there, but its "
                                "record is not");
        if (ok && rec[i] && i != *applied)
            ok = failf(why, cap, "version %s is recorded, but version %zu "
                       "before it is not", v, *applied);
        if (ok && rec[i])
            ++*applied;
    }
    sqlite3_exec(r.db, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(r.db);
    free(rec);
    return ok;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static const char *state_name(pier_migration_file_state s)
{
    switch (s) {
    case PIER_MIGRATION_FILE_PENDING:
        return "pending";
    case PIER_MIGRATION_FILE_APPLIED:
        return "applied";
    case PIER_MIGRATION_FILE_MODIFIED:
        return "modified";
    default:
        return "missing";
    }
}

/* What status lists agrees with what took effect. */
static bool status_agrees(pier_engine *e, const char *dir, const bool *on,
                          size_t n, size_t applied, char *why, size_t cap)
{
    pier_migration_files *l = NULL;
    pier_error err;
    if (pier_migration_files_status(&l, e, dir, &err) != PIER_OK)
        return failf(why, cap, "status: %s: %s", err.tag, err.message);
    bool ok = true;
    size_t listed = 0;
    for (size_t j = 0; ok && j < l->nfiles; j++) {
        const pier_migration_file *f = &l->files[j];
        long i = index_of(f->version);
        bool took = i >= 0 && (size_t)i < n && on[i];
        pier_migration_file_state want = took ? PIER_MIGRATION_FILE_APPLIED
                                              : PIER_MIGRATION_FILE_PENDING;
        if (f->state == PIER_MIGRATION_FILE_MISSING && took)
            want = f->state;              /* the file is not (yet) there */
        if (i < 0 || f->state != want)
            ok = failf(why, cap, "status lists %s %s, but its SQL %s",
                       f->file, state_name(f->state),
                       took ? "took effect" : "did not take effect");
        listed += f->state != PIER_MIGRATION_FILE_PENDING;
    }
    if (ok && listed != applied)
        ok = failf(why, cap, "status lists %zu versions applied, the "
                   "record %zu", listed, applied);
    pier_migration_files_free(l);
    return ok;
}

bool migfiles_check(pier_engine *e, const char *lake, const char *dir,
                    size_t *applied, char *why, size_t cap)
{
    size_t k = 0, n = 0;
    bool *on = NULL;
    bool ok = record_agrees(lake, &k, &n, &on, why, cap);
    if (ok && dir != NULL && is_dir(dir))
        ok = status_agrees(e, dir, on, n, k, why, cap);
    free(on);
    if (applied != NULL)
        *applied = k;
    return ok;
}

bool migfiles_rerun(pier_engine *e, const char *lake, const char *dir,
                    size_t *applied, char *why, size_t cap)
{
    if (!is_dir(dir))
        return migfiles_check(e, lake, NULL, applied, why, cap);
    /* A process killed between making a file and writing its text left
     * the template: give the files there their texts. */
    size_t present = 0;
    for (;; present++) {
        char file[160], path[1200];
        migfiles_file(present, file, sizeof file);
        snprintf(path, sizeof path, "%s/%s", dir, file);
        if (access(path, F_OK) != 0)
            break;
    }
    pier_error err;
    if (migfiles_write(dir, present, false, &err) != PIER_OK)
        return failf(why, cap, "rewriting the files: %s", err.message);
    if (pier_migration_files_up(NULL, e, dir, NULL, &err) != PIER_OK)
        return failf(why, cap, "up again after recovery: %s: %s", err.tag,
                     err.message);
    size_t k = 0;
    if (!migfiles_check(e, lake, dir, &k, why, cap))
        return false;
    if (k != present)
        return failf(why, cap, "up again after recovery applied %zu of the "
                     "%zu versions", k, present);
    if (applied != NULL)
        *applied = k;
    return true;
}
