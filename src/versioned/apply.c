/*
 * apply.c: pier_migration_files_status, _up and _down: a directory of
 * versioned migration files compared with, applied to and rolled back
 * from the lake's record of them (_pier_migration_files, sqlite_files.c).
 *
 * Each version runs in a write transaction of its own, in which its
 * section, run as pier_exec runs a script (pier__exec_script: the
 * lake's owner, the dialect, the engine's limits), and the change to its
 * record commit together, or neither does. The record is read again
 * under the write lock before each version, so that two processes
 * applying one directory never apply a version twice. The directory is
 * read and checked whole before anything runs.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "sql/dialect.h"
#include "versioned/vfile.h"

/* ---- the lake's record, copied out of its transaction ---- */

typedef struct record {
    char *version, *name, *checksum;
    int64_t applied_at;
} record;

typedef struct records {
    record *v;
    size_t n, cap;
    bool oom;
} records;

static void records_clear(records *rs)
{
    for (size_t i = 0; i < rs->n; i++) {
        free(rs->v[i].version);
        free(rs->v[i].name);
        free(rs->v[i].checksum);
    }
    rs->n = 0;
    rs->oom = false;
}

static void records_free(records *rs)
{
    records_clear(rs);
    free(rs->v);
    rs->v = NULL;
    rs->cap = 0;
}

static int keep_record(const pier__file_record *r, void *payload)
{
    records *rs = payload;
    if (rs->n == rs->cap) {
        size_t cap = rs->cap == 0 ? 16 : rs->cap * 2;
        record *v = realloc(rs->v, cap * sizeof *v);
        if (v == NULL) {
            rs->oom = true;
            return 1;
        }
        rs->v = v;
        rs->cap = cap;
    }
    record *k = &rs->v[rs->n];
    k->version = pier__strdup(r->version);
    k->name = pier__strdup(r->name);
    k->checksum = pier__strdup(r->checksum);
    k->applied_at = r->applied_at;
    rs->n++;
    if (k->version == NULL || k->name == NULL || k->checksum == NULL) {
        rs->oom = true;
        return 1;
    }
    return 0;
}

/* Every version applied, ascending (inside a transaction). */
static pier_status records_read(pier_engine *e, records *rs,
                                pier_error *err)
{
    records_clear(rs);
    pier_status rc = e->lake->ops->files_applied(e->lake, keep_record, rs,
                                                 err);
    if (rc == PIER_OK && rs->oom)
        rc = pier__oom(err);
    return rc;
}

static const record *records_find(const records *rs, const char *version)
{
    for (size_t i = 0; i < rs->n; i++)
        if (strcmp(rs->v[i].version, version) == 0)
            return &rs->v[i];
    return NULL;
}

/* ---- the lists handed out ---- */

typedef struct vlist {
    pier_migration_files pub;  /* first: what the caller holds */
    pier__arena arena;         /* the strings */
    pier_migration_file *items;
    size_t cap;
} vlist;

static vlist *vlist_new(void)
{
    vlist *l = calloc(1, sizeof *l);
    if (l != NULL)
        pier__arena_init(&l->arena);
    return l;
}

PIER_API void pier_migration_files_free(pier_migration_files *files)
{
    if (files == NULL)
        return;
    vlist *l = (vlist *)files;
    pier__arena_free(&l->arena);
    free(l->items);
    free(l);
}

static const char *vlist_str(vlist *l, const char *s, bool *ok)
{
    char *c = pier__arena_strndup(&l->arena, s, strlen(s));
    if (c == NULL)
        *ok = false;
    return c != NULL ? c : "";
}

/* Appends a version: from its file `f` (NULL: missing) and its record `r`
 * (NULL: not applied). @return false if out of memory. */
static bool vlist_add(vlist *l, const pier__vfile *f, const record *r,
                      pier_migration_file_state state)
{
    if (l->pub.nfiles == l->cap) {
        size_t cap = l->cap == 0 ? 16 : l->cap * 2;
        pier_migration_file *v = realloc(l->items, cap * sizeof *v);
        if (v == NULL)
            return false;
        l->items = v;
        l->cap = cap;
        l->pub.files = v;
    }
    pier_migration_file *m = &l->items[l->pub.nfiles];
    bool ok = true;
    m->version = vlist_str(l, f != NULL ? f->version : r->version, &ok);
    m->name = vlist_str(l, f != NULL ? f->name : r->name, &ok);
    if (f != NULL) {
        m->file = vlist_str(l, f->file, &ok);
    } else {
        pier__buf b;
        pier__buf_init(&b);
        pier__buf_printf(&b, "%s_%s.sql", r->version, r->name);
        m->file = b.oom ? "" : vlist_str(l, b.p, &ok);
        ok = ok && !b.oom;
        pier__buf_free(&b);
    }
    m->state = state;
    m->checksum = vlist_str(l, f != NULL ? f->checksum : "", &ok);
    m->applied_checksum = vlist_str(l, r != NULL ? r->checksum : "", &ok);
    m->applied_at = r != NULL ? r->applied_at : 0;
    m->reversible = f != NULL && f->sections.reversible;
    if (ok)
        l->pub.nfiles++;
    return ok;
}

/* ---- running a section ---- */

/* Runs text[at..at + len) of file f as a script; a failure says where in
 * the file it is. */
static pier_status run_section(pier_engine *e, const pier__vfile *f,
                               size_t at, size_t len, bool *changed,
                               pier_error *err)
{
    char *sql = pier__strndup(f->text + at, len);
    if (sql == NULL)
        return pier__oom(err);
    pier_status rc = pier__exec_script(e, sql, changed, err);
    free(sql);
    if (rc == PIER_OK || rc == PIER_E_OUT_OF_MEMORY || err == NULL)
        return rc;
    /* " (at byte N of the script)" gives way to the place in the file */
    static const char tail[] = " of the script)";
    size_t n = strlen(err->message), tn = sizeof tail - 1;
    char *cut = NULL;
    for (char *p = strstr(err->message, " (at byte "); p != NULL;
         p = strstr(p + 1, " (at byte "))
        cut = p;
    if (cut != NULL && n >= tn && strcmp(err->message + n - tn, tail) == 0)
        *cut = '\0';
    pier__vfile_locate(err, f->text, f->len,
                       err->offset >= 0 ? (int64_t)at + err->offset : -1,
                       f->path);
    return rc;
}

/* ---- status ---- */

PIER_API pier_status pier_migration_files_status(pier_migration_files **out,
                                                 pier_engine *engine,
                                                 const char *dir,
                                                 pier_error *err)
{
    pier__error_clear(err);
    if (out != NULL)
        *out = NULL;
    if (out == NULL || engine == NULL || dir == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_migration_files_status needs an engine, a "
                          "directory and somewhere to put the list");
    if (pier__engine_embedded(engine, "migration files", err) != PIER_OK)
        return PIER_E_TOPOLOGY_UNSUPPORTED;
    vlist *l = vlist_new();
    if (l == NULL)
        return pier__oom(err);
    pier__vdir d;
    records rs = { NULL, 0, 0, false };
    pier_status rc = pier__vdir_read(&d, dir, false, err);
    if (rc == PIER_OK) {
        rc = pier__engine_begin(engine, false, err);
        if (rc == PIER_OK) {
            rc = records_read(engine, &rs, err);
            rc = pier__engine_end(engine, rc, err);
        }
    }
    /* Both are ascending: merge them. */
    size_t i = 0, j = 0;
    while (rc == PIER_OK && (i < d.nfiles || j < rs.n)) {
        int c = i == d.nfiles ? 1
              : j == rs.n     ? -1
                              : strcmp(d.files[i].version, rs.v[j].version);
        bool ok;
        if (c < 0) {
            ok = vlist_add(l, &d.files[i++], NULL,
                           PIER_MIGRATION_FILE_PENDING);
        } else if (c > 0) {
            ok = vlist_add(l, NULL, &rs.v[j++],
                           PIER_MIGRATION_FILE_MISSING);
        } else {
            const pier__vfile *f = &d.files[i++];
            const record *r = &rs.v[j++];
            ok = vlist_add(l, f, r, strcmp(f->checksum, r->checksum) == 0
                                        ? PIER_MIGRATION_FILE_APPLIED
                                        : PIER_MIGRATION_FILE_MODIFIED);
        }
        if (!ok)
            rc = pier__oom(err);
    }
    pier__vdir_free(&d);
    records_free(&rs);
    if (rc != PIER_OK) {
        pier_migration_files_free(&l->pub);
        return rc;
    }
    *out = &l->pub;
    return PIER_OK;
}

/* ---- up and down ---- */

/* The checks every entry point shares; `what` names it. */
static pier_status start(pier_engine *engine, const char *dir,
                         const char *what, vlist **list,
                         pier_migration_files **out, pier_error *err)
{
    pier__error_clear(err);
    if (out != NULL)
        *out = NULL;
    if (engine == NULL || dir == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "%s needs an "
                          "engine and a directory", what);
    if (pier__engine_embedded(engine, "migration files", err) != PIER_OK)
        return PIER_E_TOPOLOGY_UNSUPPORTED;
    *list = vlist_new();
    return *list != NULL ? PIER_OK : pier__oom(err);
}

/* Hands the list to the caller (out may be NULL). */
static void finish(vlist *l, pier_migration_files **out)
{
    if (out != NULL)
        *out = &l->pub;
    else
        pier_migration_files_free(&l->pub);
}

PIER_API pier_status pier_migration_files_up(int64_t *watermark,
                                             pier_engine *engine,
                                             const char *dir,
                                             pier_migration_files **applied,
                                             pier_error *err)
{
    vlist *done = NULL;
    pier_status rc = start(engine, dir, "pier_migration_files_up", &done,
                           applied, err);
    if (rc != PIER_OK)
        return rc;
    pier__vdir d;
    records rs = { NULL, 0, 0, false };
    int64_t head = 0;
    rc = pier__vdir_read(&d, dir, false, err);
    const pier__lake_ops *ops = engine->lake->ops;
    for (bool more = rc == PIER_OK; more;) {
        rc = pier__engine_begin(engine, true, err);
        if (rc != PIER_OK)
            break;
        bool changed = false;
        const pier__vfile *next = NULL;
        pier__file_record r = { NULL, NULL, NULL, 0 };
        rc = pier__schema_drift(engine, err);
        if (rc == PIER_OK)
            rc = records_read(engine, &rs, err);
        /* The first pending version is next; none of them may be
         * without SQL (checked before the first runs). */
        for (size_t i = 0; rc == PIER_OK && i < d.nfiles; i++) {
            const pier__vfile *f = &d.files[i];
            if (records_find(&rs, f->version) != NULL)
                continue;
            if (next == NULL)
                next = f;
            if (!f->sections.applies) {
                pier__fail(err, PIER_E_INVALID_SCHEMA, "the '-- migrate:up' "
                           "section holds no SQL: a version applies "
                           "something");
                pier__vfile_locate(err, f->text, f->len,
                                   (int64_t)f->sections.up_line, f->path);
                rc = PIER_E_INVALID_SCHEMA;
            }
        }
        if (rc == PIER_OK && next != NULL) {
            rc = run_section(engine, next, next->sections.up,
                             next->sections.up_len, &changed, err);
            r = (pier__file_record){ next->version, next->name,
                                     next->checksum,
                                     pier__engine_now(engine) };
            if (rc == PIER_OK)
                rc = ops->file_record(engine->lake, &r, err);
        }
        if (rc == PIER_OK)
            rc = ops->head(engine->lake, &head, err);
        /* The version is listed before the commit, so that one committed
         * is always listed; a failed commit takes it off again. */
        bool listed = false;
        if (rc == PIER_OK && next != NULL) {
            record as_applied = { NULL, NULL, (char *)next->checksum,
                                  r.applied_at };
            listed = vlist_add(done, next, &as_applied,
                               PIER_MIGRATION_FILE_APPLIED);
            if (!listed)
                rc = pier__oom(err);
        }
        if (rc != PIER_OK && changed)
            engine->catalog.version = -1;  /* it took rolled-back DDL */
        rc = pier__engine_end(engine, rc, err);
        if (rc != PIER_OK) {
            if (listed)
                done->pub.nfiles--;
            break;
        }
        more = next != NULL;
    }
    pier__vdir_free(&d);
    records_free(&rs);
    if (rc == PIER_OK && watermark != NULL)
        *watermark = head;
    finish(done, applied);
    return rc;
}

PIER_API pier_status pier_migration_files_down(int64_t *watermark,
                                               pier_engine *engine,
                                               const char *dir,
                                               pier_migration_files **reverted,
                                               pier_error *err)
{
    vlist *done = NULL;
    pier_status rc = start(engine, dir, "pier_migration_files_down", &done,
                           reverted, err);
    if (rc != PIER_OK)
        return rc;
    pier__vdir d;
    records rs = { NULL, 0, 0, false };
    int64_t head = 0;
    bool changed = false;
    const pier__vfile *f = NULL;
    rc = pier__vdir_read(&d, dir, false, err);
    if (rc == PIER_OK)
        rc = pier__engine_begin(engine, true, err);
    if (rc != PIER_OK)
        goto done;
    rc = pier__schema_drift(engine, err);
    if (rc == PIER_OK)
        rc = records_read(engine, &rs, err);
    const record *last = rc == PIER_OK && rs.n > 0 ? &rs.v[rs.n - 1] : NULL;
    if (last != NULL) {
        f = pier__vdir_find(&d, last->version);
        if (f == NULL)
            rc = pier__fail(err, PIER_E_MIGRATION_REFUSED, "version %s "
                            "(%s) is applied, but its file is not in "
                            "'%.300s': its down section cannot run; nothing "
                            "was rolled back", last->version, last->name,
                            dir);
        else if (!f->sections.reversible)
            rc = pier__fail(err, PIER_E_MIGRATION_REFUSED, "version %s is "
                            "irreversible: '%.300s' has %s; nothing was "
                            "rolled back", last->version, f->path,
                            f->sections.has_down
                                ? "no SQL in its '-- migrate:down' section"
                                : "no '-- migrate:down' section");
    }
    if (rc == PIER_OK && f != NULL)
        rc = run_section(engine, f, f->sections.down, f->sections.down_len,
                         &changed, err);
    if (rc == PIER_OK && f != NULL)
        rc = engine->lake->ops->file_forget(engine->lake, f->version, err);
    if (rc == PIER_OK)
        rc = engine->lake->ops->head(engine->lake, &head, err);
    if (rc == PIER_OK && f != NULL &&
        !vlist_add(done, f, NULL, PIER_MIGRATION_FILE_PENDING))
        rc = pier__oom(err);
    if (rc != PIER_OK && changed)
        engine->catalog.version = -1;      /* it took rolled-back DDL */
    rc = pier__engine_end(engine, rc, err);
    if (rc != PIER_OK)
        done->pub.nfiles = 0;
done:
    pier__vdir_free(&d);
    records_free(&rs);
    if (rc == PIER_OK && watermark != NULL)
        *watermark = head;
    finish(done, reverted);
    return rc;
}
