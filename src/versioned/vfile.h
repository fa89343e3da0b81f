/*
 * vfile.h: versioned migration files (docs/migrations.md, "Versioned
 * migration files"): reading one file's name and text (parse.c, pure: no
 * I/O), a directory of them (dir.c), and applying them to a lake
 * (apply.c: pier_migration_files_up, _down, _status).
 *
 * A file is VERSION_NAME.sql: VERSION 14 digits (YYYYMMDDHHMMSS, UTC, as
 * pier_migration_file_create makes it; the digits alone order the files),
 * NAME lowercase letters, digits and '_'. Its text is
 *
 *     -- any comments
 *     -- migrate:up
 *     SQL to apply
 *     -- migrate:down
 *     SQL that undoes it
 *
 * A marker is a line of its own: "--", optional blanks, "migrate:up" or
 * "migrate:down", optional trailing blanks. Exactly one up marker, before
 * the down marker if there is one; before it only blank and comment
 * lines. The up section must hold SQL (a statement, not only comments)
 * for the version to be applied (a template just written holds none, and
 * is no mistake until then); an empty or absent down section makes the
 * version irreversible.
 */
#ifndef PIER_VERSIONED_VFILE_H
#define PIER_VERSIONED_VFILE_H

#include "base/base.h"

/* The digits of a version, and the longest NAME a file may carry (a file
 * name then stays far below the 255 bytes file systems allow). */
#define PIER__VFILE_VERSION_DIGITS 14
#define PIER__VFILE_NAME_MAX 100

/* How a directory entry's name reads. */
typedef enum pier__vfile_kind {
    PIER__VFILE_IGNORED = 0,   /* not ".sql", or hidden: not ours */
    PIER__VFILE_MIGRATION,     /* VERSION_NAME.sql */
    PIER__VFILE_BAD            /* ".sql", but not VERSION_NAME.sql */
} pier__vfile_kind;

/*
 * Reads a directory entry's name. For a migration, version (15 bytes)
 * gets its digits and *name, *name_len the NAME part of `fname`; for a
 * bad one, *why says what is wrong.
 */
pier__vfile_kind pier__vfile_name(const char *fname, char *version,
                                  const char **name, size_t *name_len,
                                  const char **why);

/* A file's sections: byte ranges of its text, each starting after its
 * marker's line. */
typedef struct pier__vsections {
    size_t up_line;            /* where the up marker's line starts */
    size_t up, up_len;         /* the up section */
    size_t down, down_len;     /* the down section; down_len 0 and down
                                  at the end of the text when absent */
    bool has_down;             /* a down marker is there */
    bool applies;              /* the up section holds a statement (a
                                  version without one cannot be applied) */
    bool reversible;           /* the down section holds a statement */
} pier__vsections;

/*
 * Splits a file's text into its sections.
 * @return NULL, or why the text cannot be a migration ("no '-- migrate:up'
 *         line...", a phrase for a message), with *at the byte at fault
 *         (a marker's line, the stray SQL), or (size_t)-1 when the fault
 *         is nowhere in particular (a marker missing).
 */
const char *pier__vfile_sections(const char *text, size_t len,
                                 pier__vsections *out, size_t *at);

/* Whether text[0..len) holds a statement: anything but white space,
 * comments and semicolons. */
bool pier__vfile_has_sql(const char *text, size_t len);

/* The checksum of a file's bytes (a change to any byte shows): 64-bit
 * FNV-1a, as 16 lowercase hexadecimal digits and a NUL. Not a defence
 * against someone forging a file: a check that nobody edited one. */
void pier__vfile_checksum(const char *text, size_t len, char *out);

/*
 * Makes `name` a file name's NAME into out (cap bytes, at least
 * PIER__VFILE_NAME_MAX + 1): ASCII letters lowered, spaces and '-' become
 * '_', runs of '_' one '_', none at either end.
 * @return NULL, or why it cannot be one (empty, another character, too
 *         long).
 */
const char *pier__vfile_name_clean(const char *name, char *out, size_t cap);

/* The version of an instant (seconds since the epoch, UTC) into version
 * (15 bytes). @return false outside the years 0001 to 9999. */
bool pier__vfile_version_of(int64_t seconds, char *version);
/* The instant a version names, in seconds since the epoch. @return false
 * if its digits are no date and time (month 13, hour 24...). */
bool pier__vfile_version_time(const char *version, int64_t *seconds);

/* ---- a directory (dir.c) ---- */

/* One migration file, read whole. */
typedef struct pier__vfile {
    char version[PIER__VFILE_VERSION_DIGITS + 1];
    char *name;                /* NAME */
    char *file;                /* VERSION_NAME.sql */
    char *path;                /* dir/VERSION_NAME.sql, for messages */
    char *text;                /* the bytes, NUL-terminated */
    size_t len;
    char checksum[17];
    pier__vsections sections;
} pier__vfile;

typedef struct pier__vdir {
    pier__vfile *files;        /* ascending versions, none twice */
    size_t nfiles;
} pier__vdir;

/*
 * Reads every migration file of `dir` and checks it (name, sections, one
 * file per version); with `names_only`, the names alone (text, checksum
 * and sections are then left empty).
 * @return PIER_OK (*out: release with pier__vdir_free, also after a
 *         failure); PIER_E_INVALID_SCHEMA naming the file (err->offset:
 *         the byte at fault, or -1); PIER_E_READ_FAILED;
 *         PIER_E_LIMIT_EXCEEDED (a file over 64 MiB);
 *         PIER_E_OUT_OF_MEMORY.
 */
pier_status pier__vdir_read(pier__vdir *out, const char *dir,
                            bool names_only, pier_error *err);
void pier__vdir_free(pier__vdir *d);
/* The file of `version`, or NULL. */
const pier__vfile *pier__vdir_find(const pier__vdir *d, const char *version);
/* dir/file, with one '/' between them; NULL if out of memory. */
char *pier__vfile_join(const char *dir, const char *file);
/* Appends to err's message where in file `path` (whose text is
 * text[0..len)) byte `at` is: " (line L, column C of 'PATH')", lines and
 * columns (bytes) counted from 1, and sets err->offset to it; with `at`
 * outside the text, " (in 'PATH')" and -1. */
void pier__vfile_locate(pier_error *err, const char *text, size_t len,
                        int64_t at, const char *path);

#endif /* PIER_VERSIONED_VFILE_H */
