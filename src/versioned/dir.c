/*
 * dir.c: a directory of versioned migration files: reading every one of
 * them (and refusing the directory when one does not parse, so that
 * nothing runs from a directory with a mistake in it), and writing a new
 * one (pier_migration_file_create).
 *
 * Files are read whole: a migration is a script, and a script is run
 * from memory. Entries that are not ".sql", hidden ones and anything but
 * a regular file are not the directory's migrations and are left alone.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "versioned/vfile.h"

/* The largest migration file read: a script with its data (seed rows)
 * may be large, but one over 64 MiB belongs in a load, not a migration;
 * the same bound as a declaration's. */
#define VFILE_MAX_BYTES ((size_t)64 << 20)

/* How many seconds past the first free-looking one a new file's version
 * may move while other files keep taking them: more than enough for any
 * number of people running `new` at once. */
#define VFILE_CREATE_TRIES 1000

char *pier__vfile_join(const char *dir, const char *file)
{
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_puts(&b, dir);
    if (b.len > 0 && b.p[b.len - 1] != '/')
        pier__buf_putc(&b, '/');
    pier__buf_puts(&b, file);
    return pier__buf_detach(&b);
}

void pier__vfile_locate(pier_error *err, const char *text, size_t len,
                        int64_t at, const char *path)
{
    if (err == NULL)
        return;
    size_t n = strlen(err->message);
    if (at < 0 || (size_t)at > len) {
        snprintf(err->message + n, sizeof err->message - n,
                 " (in '%.200s')", path);
        err->offset = -1;
        return;
    }
    size_t line = 1, col = 1;
    for (int64_t i = 0; i < at; i++) {
        if (text[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    snprintf(err->message + n, sizeof err->message - n,
             " (line %zu, column %zu of '%.200s')", line, col, path);
    err->offset = at;
}

void pier__vdir_free(pier__vdir *d)
{
    for (size_t i = 0; i < d->nfiles; i++) {
        free(d->files[i].name);
        free(d->files[i].file);
        free(d->files[i].path);
        free(d->files[i].text);
    }
    free(d->files);
    d->files = NULL;
    d->nfiles = 0;
}

const pier__vfile *pier__vdir_find(const pier__vdir *d, const char *version)
{
    for (size_t i = 0; i < d->nfiles; i++)
        if (strcmp(d->files[i].version, version) == 0)
            return &d->files[i];
    return NULL;
}

/* Reads a regular file whole into f->text. */
static pier_status read_file(pier__vfile *f, pier_error *err)
{
    FILE *in = fopen(f->path, "rb");
    if (in == NULL)
        return pier__fail(err, PIER_E_READ_FAILED, "cannot read migration "
                          "file '%.300s': %s", f->path, strerror(errno));
    pier__buf b;
    pier__buf_init(&b);
    pier_status rc = PIER_OK;
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, in)) > 0) {
        if (b.len + got > VFILE_MAX_BYTES) {
            rc = pier__fail(err, PIER_E_LIMIT_EXCEEDED, "migration file "
                            "'%.300s' is longer than 64 MiB", f->path);
            break;
        }
        pier__buf_append(&b, chunk, got);
    }
    if (rc == PIER_OK && ferror(in))
        rc = pier__fail(err, PIER_E_READ_FAILED, "cannot read migration "
                        "file '%.300s': %s", f->path, strerror(errno));
    fclose(in);
    if (rc == PIER_OK && b.oom)
        rc = pier__oom(err);
    if (rc != PIER_OK) {
        pier__buf_free(&b);
        return rc;
    }
    f->len = b.len;
    f->text = b.p != NULL ? pier__buf_detach(&b) : pier__strdup("");
    return f->text != NULL ? PIER_OK : pier__oom(err);
}

/* Reads and checks one migration file named `fname` in `dir`; *skip when
 * it is not a regular file. */
static pier_status read_one(pier__vfile *f, const char *dir,
                            const char *fname, bool names_only, bool *skip,
                            pier_error *err)
{
    memset(f, 0, sizeof *f);
    *skip = false;
    const char *name = NULL, *why = NULL;
    size_t name_len = 0;
    pier__vfile_kind kind = pier__vfile_name(fname, f->version, &name,
                                             &name_len, &why);
    if (kind == PIER__VFILE_IGNORED) {
        *skip = true;
        return PIER_OK;
    }
    f->path = pier__vfile_join(dir, fname);
    if (f->path == NULL)
        return pier__oom(err);
    struct stat st;
    if (stat(f->path, &st) != 0)
        return pier__fail(err, PIER_E_READ_FAILED, "cannot read migration "
                          "file '%.300s': %s", f->path, strerror(errno));
    if (!S_ISREG(st.st_mode)) {
        *skip = true;
        return PIER_OK;
    }
    if (kind == PIER__VFILE_BAD)
        return pier__fail(err, PIER_E_INVALID_SCHEMA, "'%.300s' is not "
                          "named as a migration file (VERSION_NAME.sql): "
                          "%s", f->path, why);
    f->name = pier__strndup(name, name_len);
    f->file = pier__strdup(fname);
    if (f->name == NULL || f->file == NULL)
        return pier__oom(err);
    if (names_only)
        return PIER_OK;
    pier_status rc = read_file(f, err);
    if (rc != PIER_OK)
        return rc;
    size_t at = 0;
    why = pier__vfile_sections(f->text, f->len, &f->sections, &at);
    if (why != NULL) {
        pier__fail(err, PIER_E_INVALID_SCHEMA, "%s", why);
        pier__vfile_locate(err, f->text, f->len,
                           at == (size_t)-1 ? -1 : (int64_t)at, f->path);
        return PIER_E_INVALID_SCHEMA;
    }
    pier__vfile_checksum(f->text, f->len, f->checksum);
    return PIER_OK;
}

static int by_version(const void *a, const void *b)
{
    const pier__vfile *x = a, *y = b;
    int c = strcmp(x->version, y->version);
    return c != 0 ? c : strcmp(x->file, y->file);
}

pier_status pier__vdir_read(pier__vdir *out, const char *dir,
                            bool names_only, pier_error *err)
{
    out->files = NULL;
    out->nfiles = 0;
    DIR *d = opendir(dir);
    if (d == NULL)
        return pier__fail(err, PIER_E_READ_FAILED, "cannot read migration "
                          "directory '%.300s': %s", dir, strerror(errno));
    size_t cap = 0;
    pier_status rc = PIER_OK;
    for (;;) {
        errno = 0;
        struct dirent *ent = readdir(d);
        if (ent == NULL) {
            if (errno != 0)
                rc = pier__fail(err, PIER_E_READ_FAILED, "cannot read "
                                "migration directory '%.300s': %s", dir,
                                strerror(errno));
            break;
        }
        if (out->nfiles == cap) {
            size_t ncap = cap == 0 ? 16 : cap * 2;
            pier__vfile *v = realloc(out->files, ncap * sizeof *v);
            if (v == NULL) {
                rc = pier__oom(err);
                break;
            }
            out->files = v;
            cap = ncap;
        }
        bool skip = false;
        pier__vfile *f = &out->files[out->nfiles];
        rc = read_one(f, dir, ent->d_name, names_only, &skip, err);
        if (rc == PIER_OK && !skip) {
            out->nfiles++;
            continue;
        }
        free(f->name);
        free(f->file);
        free(f->path);
        free(f->text);
        if (rc != PIER_OK)
            break;
    }
    closedir(d);
    if (rc == PIER_OK && out->nfiles > 1)
        qsort(out->files, out->nfiles, sizeof *out->files, by_version);
    for (size_t i = 1; rc == PIER_OK && i < out->nfiles; i++)
        if (strcmp(out->files[i - 1].version, out->files[i].version) == 0)
            rc = pier__fail(err, PIER_E_INVALID_SCHEMA, "two migration "
                            "files of version %s: '%.200s' and '%.200s' "
                            "(a version names one file)",
                            out->files[i].version, out->files[i - 1].path,
                            out->files[i].path);
    return rc;
}

/* ---- a new file ---- */

static const char template_text[] =
    "-- migrate:up\n"
    "-- SQL to apply, in Pier's dialect (docs/sql.md).\n"
    "\n"
    "-- migrate:down\n"
    "-- SQL that undoes it; with none, the version is irreversible.\n";

/* Writes the template into the file descriptor fd; 0 or errno. */
static int write_template(int fd)
{
    size_t len = sizeof template_text - 1, done = 0;
    int e = 0;
    while (done < len) {
        ssize_t w = write(fd, template_text + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            e = w < 0 ? errno : EIO;
            break;
        }
        done += (size_t)w;
    }
    if (close(fd) != 0 && e == 0)
        e = errno;
    return e;
}

/* Creates `path` holding the template, with O_EXCL, where the file
 * system takes no hard link (the file is then briefly empty). */
static pier_status write_in_place(const char *path, bool *exists,
                                  pier_error *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0) {
        if (errno == EEXIST) {
            *exists = true;
            return PIER_OK;
        }
        return pier__fail(err, PIER_E_WRITE_FAILED, "cannot create "
                          "migration file '%.300s': %s", path,
                          strerror(errno));
    }
    int e = write_template(fd);
    if (e == 0)
        return PIER_OK;
    unlink(path);
    return pier__fail(err, PIER_E_WRITE_FAILED, "cannot write migration "
                      "file '%.300s': %s", path, strerror(e));
}

/*
 * Writes the template to `path` unless it exists (*exists then). The
 * file appears whole or not at all: the template is written to a hidden
 * file of the directory (`tmp`; hidden files are no migrations), then
 * linked to its name, which fails if the name is taken. A process killed
 * meanwhile leaves at most the hidden file, where an empty VERSION_NAME
 * .sql would make every up, down and status refuse the directory.
 */
static pier_status write_new(const char *path, const char *tmp,
                             bool *exists, pier_error *err)
{
    *exists = false;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0)
        return pier__fail(err, PIER_E_WRITE_FAILED, "cannot create "
                          "migration file '%.300s': %s", tmp,
                          strerror(errno));
    int e = write_template(fd);
    if (e != 0) {
        unlink(tmp);
        return pier__fail(err, PIER_E_WRITE_FAILED, "cannot write migration "
                          "file '%.300s': %s", tmp, strerror(e));
    }
    pier_status rc = PIER_OK;
    if (link(tmp, path) != 0) {
        e = errno;
        if (e == EEXIST)
            *exists = true;
        else if (e == EPERM || e == ENOTSUP || e == EOPNOTSUPP ||
                 e == ENOSYS || e == EXDEV)
            rc = write_in_place(path, exists, err);
        else
            rc = pier__fail(err, PIER_E_WRITE_FAILED, "cannot create "
                            "migration file '%.300s': %s", path,
                            strerror(e));
    }
    unlink(tmp);
    return rc;
}

PIER_API pier_status pier_migration_file_create(char **path, const char *dir,
                                                const char *name,
                                                int64_t now_us,
                                                pier_error *err)
{
    pier__error_clear(err);
    if (path != NULL)
        *path = NULL;
    if (path == NULL || dir == NULL || dir[0] == '\0' || name == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_migration_file_create needs a path, a "
                          "directory and a name");
    char clean[PIER__VFILE_NAME_MAX + 1];
    const char *why = pier__vfile_name_clean(name, clean, sizeof clean);
    if (why != NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "bad migration "
                          "name '%.120s': %s", name, why);
    int e = pier__mkdir_p(dir, 0777);
    if (e == ENOMEM)
        return pier__oom(err);
    if (e != 0)
        return pier__fail(err, PIER_E_WRITE_FAILED, "cannot create "
                          "migration directory '%.300s': %s", dir,
                          strerror(e));
    pier__vdir d;
    pier_status rc = pier__vdir_read(&d, dir, true, err);
    /* The second of now_us, or the one after the latest version. */
    int64_t at = now_us / 1000000 - (now_us % 1000000 < 0);
    if (rc == PIER_OK && d.nfiles > 0) {
        const pier__vfile *last = &d.files[d.nfiles - 1];
        int64_t latest = 0;
        if (!pier__vfile_version_time(last->version, &latest))
            rc = pier__fail(err, PIER_E_INVALID_ARGUMENT, "cannot make a "
                            "version after %s ('%.300s'), which is no UTC "
                            "date and time (YYYYMMDDHHMMSS)", last->version,
                            last->path);
        else if (latest >= at)
            at = latest + 1;
    }
    pier__vdir_free(&d);
    char *made = NULL;
    for (int i = 0; rc == PIER_OK && made == NULL; i++, at++) {
        char version[PIER__VFILE_VERSION_DIGITS + 1];
        if (i == VFILE_CREATE_TRIES || !pier__vfile_version_of(at, version)) {
            rc = pier__fail(err, PIER_E_INVALID_ARGUMENT, "no version is "
                            "free for a new migration file in '%.300s'",
                            dir);
            break;
        }
        pier__buf file, hidden;
        pier__buf_init(&file);
        pier__buf_init(&hidden);
        pier__buf_printf(&file, "%s_%s.sql", version, clean);
        pier__buf_printf(&hidden, ".%s_%s.sql.%ld.new", version, clean,
                         (long)getpid());
        char *p = file.oom ? NULL : pier__vfile_join(dir, file.p);
        char *tmp = hidden.oom ? NULL : pier__vfile_join(dir, hidden.p);
        pier__buf_free(&file);
        pier__buf_free(&hidden);
        if (p == NULL || tmp == NULL) {
            free(p);
            free(tmp);
            rc = pier__oom(err);
            break;
        }
        bool exists = false;
        rc = write_new(p, tmp, &exists, err);
        free(tmp);
        if (rc == PIER_OK && !exists)
            made = p;
        else
            free(p);
    }
    if (rc != PIER_OK)
        return rc;
    *path = made;
    return PIER_OK;
}
