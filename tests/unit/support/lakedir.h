/*
 * lakedir.h: test helpers for data directories and the files in them:
 * temporary directories under /tmp, removing a tree, writing and reading
 * whole files, and looking inside a SQLite file (the lake) with a
 * connection of its own.
 *
 * Every string returned is malloc'ed: release it with free(). Nothing here
 * uses cmocka: a helper reports failure by its return value.
 */
#ifndef PIER_TEST_LAKEDIR_H
#define PIER_TEST_LAKEDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A new empty directory /tmp/pier-test-XXXXXX; NULL on failure. */
char *lakedir_make(void);

/* Removes `path` and everything under it (like rm -rf). 0 on success,
 * also when nothing is there. */
int lakedir_remove_tree(const char *path);

/* `dir` "/" `name`. */
char *lakedir_join(const char *dir, const char *name);

/* Whether something (file, directory...) exists at `path`. */
bool lakedir_exists(const char *path);
bool lakedir_is_dir(const char *path);

/* Writes `n` bytes to `path`, creating or truncating it. 0 on success. */
int lakedir_write_file(const char *path, const void *data, size_t n);

/* The whole content of `path` (NUL-terminated too, *n bytes without the
 * NUL); NULL if it cannot be read. */
char *lakedir_read_file(const char *path, size_t *n);

/*
 * Runs `sql` (one or more statements) on the SQLite file `db`, creating it
 * if `create`. Returns 0, or SQLite's result code.
 */
int lakedir_sql_exec(const char *db, const char *sql, bool create);

/*
 * Runs one query on the SQLite file `db` (which must exist) and returns
 * its result as text: columns joined by '|', rows ended by '\n', NULL
 * values as "NULL". NULL if the query fails.
 */
char *lakedir_sql_text(const char *db, const char *sql);

/* The first column of the first row of a query as an integer; `fallback`
 * if the query fails or yields no row. */
int64_t lakedir_sql_int(const char *db, const char *sql, int64_t fallback);

/*
 * Every table of the SQLite file `db` (sqlite_sequence included), sorted
 * by name, with every row rendered by quote(): a text that changes when
 * anything stored changes. NULL on failure.
 */
char *lakedir_sql_dump(const char *db);

#endif /* PIER_TEST_LAKEDIR_H */
