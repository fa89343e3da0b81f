/*
 * backup.c: pier_backup and pier_restore, the directory work around the
 * store's page copies (src/store/sqlite_backup.c; docs/backup.md).
 *
 * A backup is made in a temporary directory beside its destination
 * (DEST.pier-tmp-XXXXXX) and renamed into place once it is complete and
 * synced, so the destination is the whole copy or absent; a failure
 * removes the temporary directory. --force swaps an existing destination
 * out (to DEST.pier-old-XXXXXX) before the rename and removes it after.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "sql/dialect.h"

/* A lake directory's own files: what --force may replace. */
static bool lake_file(const char *name)
{
    static const char *const names[] = {
        PIER__SQLITE_LAKE_FILE, PIER__SQLITE_LAKE_FILE "-wal",
        PIER__SQLITE_LAKE_FILE "-shm", PIER__SQLITE_LAKE_FILE "-journal",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/* Whether dest (which exists) may be replaced: a directory holding a
 * Pier lake no other process has open, and nothing else; or nothing. */
static pier_status check_replaceable(const char *dest, pier_error *err)
{
    DIR *d = opendir(dest);
    if (d == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "'%s' exists and "
                          "is not a directory holding a lake: it was left "
                          "alone", dest);
    bool lake = false, other = false;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (strcmp(de->d_name, PIER__SQLITE_LAKE_FILE) == 0)
            lake = true;
        else if (!lake_file(de->d_name))
            other = true;
    }
    closedir(d);
    if (other)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "'%s' holds more "
                          "than a lake: it was left alone", dest);
    if (!lake)
        return PIER_OK;
    pier__lake *l = NULL;
    pier__lake_config cfg = { .must_exist = true, .readonly = true };
    pier_status rc = pier__sqlite_lake_open(&l, dest, &cfg, err);
    if (l != NULL)
        l->ops->close(l);
    /* A lake another process has open is not swapped out from under it
     * (it would go on writing to a file nobody reads). */
    if (rc == PIER_OK) {
        pier__buf b;
        pier__buf_init(&b);
        pier__buf_printf(&b, "%s/%s", dest, PIER__SQLITE_LAKE_FILE);
        char *file = pier__buf_detach(&b);
        rc = file != NULL ? pier__sqlite_lake_unused(file, err)
                          : pier__oom(err);
        free(file);
    }
    return rc;
}

/* Syncs a directory, so that a rename in it survives power loss. */
static void sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* The directory holding `path` (".": none named). */
static char *parent_of(const char *path)
{
    char *p = pier__strdup(path);
    if (p == NULL)
        return NULL;
    size_t n = strlen(p);
    while (n > 1 && p[n - 1] == '/')
        p[--n] = '\0';
    char *slash = strrchr(p, '/');
    if (slash == NULL) {
        free(p);
        return pier__strdup(".");
    }
    if (slash == p)
        slash[1] = '\0';
    else
        *slash = '\0';
    return p;
}

/* `dest` + suffix + 12 random hexadecimal digits, made a new empty
 * directory (mode 0777 less the umask, as the lake's own); NULL with
 * errno set if it cannot be. */
static char *temp_dir(const char *dest, const char *suffix)
{
    for (int attempt = 0; attempt < 8; attempt++) {
        unsigned char r[6];
        if (!pier__random_bytes(r, sizeof r)) {
            errno = EIO;
            return NULL;
        }
        pier__buf b;
        pier__buf_init(&b);
        pier__buf_puts(&b, dest);
        while (b.len > 1 && b.p[b.len - 1] == '/')
            b.p[--b.len] = '\0';
        pier__buf_puts(&b, suffix);
        for (size_t i = 0; i < sizeof r; i++)
            pier__buf_printf(&b, "%02x", r[i]);
        char *t = pier__buf_detach(&b);
        if (t == NULL) {
            errno = ENOMEM;
            return NULL;
        }
        if (mkdir(t, 0777) == 0)
            return t;
        int e = errno;
        free(t);
        errno = e;
        if (e != EEXIST)
            return NULL;
    }
    return NULL;
}

/* Whether two paths name one existing directory. */
static bool same_dir(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

PIER_API pier_status pier_backup(pier_engine *engine, const char *dest_dir,
                                 unsigned flags, pier_error *err)
{
    pier__error_clear(err);
    if (engine == NULL || dest_dir == NULL || dest_dir[0] == '\0')
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_backup needs an engine and a destination");
    if ((flags & ~PIER_BACKUP_FORCE) != 0)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "unknown backup flags 0x%x", flags);
    if (engine->lake->ops->backup == NULL)
        return pier__fail(err, PIER_E_TOPOLOGY_UNSUPPORTED,
                          "backup: not available on a PostgreSQL lake (back "
                          "its database up with pg_dump)");
    if (pier__tx_open_here(engine))
        return pier__engine_begin(engine, false, err);
    struct stat st;
    bool exists = lstat(dest_dir, &st) == 0;
    if (exists && (flags & PIER_BACKUP_FORCE) == 0)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "'%s' exists: back "
                          "up to a new directory (or replace it with "
                          "--force)", dest_dir);
    if (exists && same_dir(dest_dir, engine->data_dir))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "'%s' is the lake "
                          "being backed up", dest_dir);
    pier_status rc = exists ? check_replaceable(dest_dir, err) : PIER_OK;
    if (rc != PIER_OK)
        return rc;
    char *parent = parent_of(dest_dir);
    if (parent == NULL)
        return pier__oom(err);
    int e = pier__mkdir_p(parent, 0777);
    char *tmp = e == 0 ? temp_dir(dest_dir, ".pier-tmp-") : NULL;
    char *old = NULL, *file = NULL;
    if (tmp == NULL) {
        int why = e != 0 ? e : errno;
        rc = why == ENOMEM ? pier__oom(err)
                           : pier__fail(err, PIER_E_WRITE_FAILED, "cannot "
                                        "make a directory beside '%s': %s",
                                        dest_dir, strerror(why));
        goto done;
    }
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_printf(&b, "%s/%s", tmp, PIER__SQLITE_LAKE_FILE);
    file = pier__buf_detach(&b);
    if (file == NULL) {
        rc = pier__oom(err);
        goto done;
    }
    /* The engine's connection, with no transaction open on it. */
    pthread_mutex_lock(&engine->lock);
    rc = engine->lake->ops->backup(engine->lake, file, &engine->interrupts,
                                   err);
    pthread_mutex_unlock(&engine->lock);
    if (rc != PIER_OK)
        goto done;
    sync_dir(tmp);
    if (exists) {
        old = temp_dir(dest_dir, ".pier-old-");
        if (old == NULL || rename(dest_dir, old) != 0) {
            rc = errno == ENOMEM ? pier__oom(err)
                                 : pier__fail(err, PIER_E_WRITE_FAILED,
                                              "cannot move '%s' aside: %s",
                                              dest_dir, strerror(errno));
            goto done;
        }
    }
    if (rename(tmp, dest_dir) != 0) {
        rc = pier__fail(err, PIER_E_WRITE_FAILED, "cannot rename the copy "
                        "to '%s': %s", dest_dir, strerror(errno));
        if (old != NULL)
            rename(old, dest_dir);        /* (put the old one back) */
        goto done;
    }
    free(tmp);
    tmp = NULL;
    sync_dir(parent);
done:
    if (tmp != NULL)
        pier__sqlite_lake_reset(tmp, NULL);   /* (rmdir when empty) */
    if (old != NULL)
        pier__sqlite_lake_reset(old, NULL);
    free(file);
    free(old);
    free(tmp);
    free(parent);
    return rc;
}

/* Whether a location names a PostgreSQL lake by URL. */
static bool postgres_url(const char *s)
{
    return strncmp(s, "postgres://", 11) == 0 ||
           strncmp(s, "postgresql://", 13) == 0;
}

PIER_API pier_status pier_restore(const char *data_dir, const char *src_dir,
                                  pier_error *err)
{
    pier__error_clear(err);
    if (data_dir == NULL || data_dir[0] == '\0' || src_dir == NULL ||
        src_dir[0] == '\0')
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_restore needs a data directory and a "
                          "source");
    if (postgres_url(data_dir))
        return pier__fail(err, PIER_E_TOPOLOGY_UNSUPPORTED,
                          "restore: not available on a PostgreSQL lake "
                          "(restore its database with pg_restore)");
    pier__lake *src = NULL;
    pier__lake_config cfg = { .must_exist = true, .readonly = true };
    pier_status rc = pier__sqlite_lake_open(&src, src_dir, &cfg, err);
    if (rc == PIER_OK && same_dir(data_dir, src_dir))
        rc = pier__fail(err, PIER_E_INVALID_ARGUMENT, "'%s' is the lake "
                        "being restored: restore from a backup of it",
                        src_dir);
    if (rc == PIER_OK)
        rc = pier__sqlite_lake_restore(data_dir, src, err);
    if (src != NULL)
        src->ops->close(src);
    return rc;
}

/* ---- export and import (src/store/sqlite_export.c) ---- */

PIER_API pier_status pier_export(pier_engine *engine, pier_write_fn fn,
                                 void *payload, pier_error *err)
{
    pier__error_clear(err);
    if (engine == NULL || fn == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_export needs an engine and a writer");
    if (engine->lake->ops->export_lines == NULL)
        return pier__fail(err, PIER_E_TOPOLOGY_UNSUPPORTED,
                          "export: not available on a PostgreSQL lake "
                          "(dump its database with pg_dump)");
    pier_status rc = pier__engine_begin(engine, false, err);
    if (rc != PIER_OK)
        return rc;
    rc = engine->lake->ops->export_lines(engine->lake, fn, payload, err);
    return pier__engine_end(engine, rc, err);
}

/* What every later call reads first must read back from what the import
 * wrote (an export may be edited, or made by hand): the catalog's
 * version and the catalog, the head, the last version stamp, the floor,
 * and the schema as the lake remembers it. Before anything is
 * committed. */
static pier_status check_imported(pier_engine *e, pier_error *err)
{
    pier__lake *l = e->lake;
    int64_t v = 0;
    pier__catalog cat;
    pier__catalog_init(&cat);
    pier_status rc = l->ops->catalog_version(l, &v, err);
    if (rc == PIER_OK)
        rc = l->ops->catalog_load(l, &cat, err);
    pier__catalog_clear(&cat);
    if (rc == PIER_OK)
        rc = l->ops->head(l, &v, err);
    if (rc == PIER_OK)
        rc = l->ops->last_stamp(l, &v, err);
    if (rc == PIER_OK)
        rc = l->ops->floor(l, &v, err);
    if (rc == PIER_OK)
        rc = pier__schema_drift(e, err);
    if (rc == PIER_OK || rc == PIER_E_OUT_OF_MEMORY)
        return rc;
    if (err != NULL) {
        char why[sizeof err->message];
        pier__copy_field(why, sizeof why, err->message);
        pier__fail(err, PIER_E_INVALID_JSON, "the export does not make a "
                   "lake this Pier reads (%s): nothing was written", why);
    }
    return PIER_E_INVALID_JSON;
}

/* pier_import's text, read as pier_import_read reads. */
typedef struct text_reader {
    const char *p;
    size_t left;
} text_reader;

static bool read_text(char *buf, size_t cap, size_t *got, void *payload)
{
    text_reader *t = payload;
    *got = t->left < cap ? t->left : cap;
    if (*got > 0)
        memcpy(buf, t->p, *got);
    t->p += *got;
    t->left -= *got;
    return true;
}

PIER_API pier_status pier_import(pier_engine *engine, const char *text,
                                 size_t len, pier_error *err)
{
    pier__error_clear(err);
    if (engine == NULL || (text == NULL && len > 0))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_import needs an engine and the export");
    text_reader t = { text, len };
    return pier_import_read(engine, read_text, &t, err);
}

PIER_API pier_status pier_import_read(pier_engine *engine, pier_read_fn fn,
                                      void *payload, pier_error *err)
{
    pier__error_clear(err);
    if (engine == NULL || fn == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_import_read needs an engine and a reader");
    if (engine->lake->ops->import_lines == NULL)
        return pier__fail(err, PIER_E_TOPOLOGY_UNSUPPORTED,
                          "import: not available on a PostgreSQL lake "
                          "(restore its database with pg_restore)");
    pier_status rc = pier__engine_begin(engine, true, err);
    if (rc != PIER_OK)
        return rc;
    rc = engine->lake->ops->import_lines(engine->lake, fn, payload, err);
    if (rc == PIER_OK)
        rc = check_imported(engine, err);
    engine->catalog.version = -1;          /* (read it again, whatever) */
    rc = pier__engine_end(engine, rc, err);
    if (rc == PIER_OK) {
        int64_t head = 0;
        pier_error ignored;
        if (pier__engine_begin(engine, false, &ignored) == PIER_OK) {
            if (engine->lake->ops->head(engine->lake, &head, &ignored) ==
                PIER_OK)
                pier__feed_saw_head(&engine->feed, head);
            pier__engine_end(engine, PIER_OK, &ignored);
        }
    }
    return rc;
}
