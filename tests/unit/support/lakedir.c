/*
 * lakedir.c: see lakedir.h.
 */
#include "support/lakedir.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

char *lakedir_make(void)
{
    char tmpl[] = "/tmp/pier-test-XXXXXX";
    if (mkdtemp(tmpl) == NULL)
        return NULL;
    size_t n = strlen(tmpl) + 1;
    char *dir = malloc(n);
    if (dir != NULL)
        memcpy(dir, tmpl, n);
    return dir;
}

char *lakedir_join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *p = malloc(a + b + 2);
    if (p == NULL)
        return NULL;
    memcpy(p, dir, a);
    p[a] = '/';
    memcpy(p + a + 1, name, b + 1);
    return p;
}

int lakedir_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode))
        return unlink(path);
    DIR *d = opendir(path);
    if (d == NULL)
        return -1;
    int rc = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0)
            continue;
        char *child = lakedir_join(path, ent->d_name);
        if (child == NULL || lakedir_remove_tree(child) != 0)
            rc = -1;
        free(child);
    }
    closedir(d);
    if (rc == 0 && rmdir(path) != 0)
        rc = -1;
    return rc;
}

bool lakedir_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

bool lakedir_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int lakedir_write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return -1;
    size_t w = n > 0 ? fwrite(data, 1, n, f) : 0;
    int rc = fclose(f);
    return w == n && rc == 0 ? 0 : -1;
}

char *lakedir_read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap + 1);
    while (buf != NULL) {
        size_t r = fread(buf + len, 1, cap - len, f);
        len += r;
        if (len < cap)
            break;
        char *grown = realloc(buf, cap * 2 + 1);
        if (grown == NULL) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    bool failed = ferror(f) != 0;
    fclose(f);
    if (buf == NULL || failed) {
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    if (n != NULL)
        *n = len;
    return buf;
}

static sqlite3 *open_db(const char *db, bool create)
{
    sqlite3 *h = NULL;
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(db, &h, flags, NULL) != SQLITE_OK) {
        sqlite3_close(h);
        return NULL;
    }
    sqlite3_busy_timeout(h, 5000);
    return h;
}

int lakedir_sql_exec(const char *db, const char *sql, bool create)
{
    sqlite3 *h = open_db(db, create);
    if (h == NULL)
        return SQLITE_CANTOPEN;
    int rc = sqlite3_exec(h, sql, NULL, NULL, NULL);
    sqlite3_close(h);
    return rc;
}

/* A growing string. */
typedef struct text {
    char *p;
    size_t len, cap;
    bool oom;
} text;

static void put(text *t, const char *s, size_t n)
{
    if (t->oom)
        return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap == 0 ? 256 : t->cap;
        while (cap < t->len + n + 1)
            cap *= 2;
        char *p = realloc(t->p, cap);
        if (p == NULL) {
            t->oom = true;
            return;
        }
        t->p = p;
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

static void puts_(text *t, const char *s)
{
    put(t, s, strlen(s));
}

/* Appends the rows of `sql` to `t`; false if the query fails. */
static bool query_into(sqlite3 *h, const char *sql, text *t)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
        return false;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int n = sqlite3_column_count(st);
        for (int i = 0; i < n; i++) {
            if (i > 0)
                puts_(t, "|");
            const unsigned char *v = sqlite3_column_text(st, i);
            if (v == NULL)
                puts_(t, "NULL");
            else
                put(t, (const char *)v,
                    (size_t)sqlite3_column_bytes(st, i));
        }
        puts_(t, "\n");
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE;
}

char *lakedir_sql_text(const char *db, const char *sql)
{
    sqlite3 *h = open_db(db, false);
    if (h == NULL)
        return NULL;
    text t = { 0 };
    puts_(&t, "");
    bool ok = query_into(h, sql, &t);
    sqlite3_close(h);
    if (!ok || t.oom) {
        free(t.p);
        return NULL;
    }
    return t.p;
}

int64_t lakedir_sql_int(const char *db, const char *sql, int64_t fallback)
{
    sqlite3 *h = open_db(db, false);
    if (h == NULL)
        return fallback;
    sqlite3_stmt *st = NULL;
    int64_t v = fallback;
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW &&
        sqlite3_column_type(st, 0) != SQLITE_NULL)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return v;
}

char *lakedir_sql_dump(const char *db)
{
    sqlite3 *h = open_db(db, false);
    if (h == NULL)
        return NULL;
    text t = { 0 };
    puts_(&t, "");
    sqlite3_stmt *tables = NULL;
    bool ok = sqlite3_prepare_v2(h,
                                 "SELECT name, sql FROM sqlite_schema "
                                 "WHERE type = 'table' ORDER BY name",
                                 -1, &tables, NULL) == SQLITE_OK;
    while (ok && sqlite3_step(tables) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(tables, 0);
        const char *ddl = (const char *)sqlite3_column_text(tables, 1);
        puts_(&t, "== ");
        puts_(&t, name);
        puts_(&t, "\n");
        puts_(&t, ddl != NULL ? ddl : "");
        puts_(&t, "\n");
        /* One quote() per column: the stored bytes and storage class.
         * Separate result columns rather than one || chain, which would
         * exceed SQLite's expression depth on a wide table. */
        char *cols = sqlite3_mprintf("SELECT group_concat("
                                     "'quote(\"' || replace(name, '\"', "
                                     "'\"\"') || '\")', ', ') "
                                     "FROM pragma_table_info(%Q)", name);
        char *expr = NULL;
        sqlite3_stmt *q = NULL;
        if (cols != NULL &&
            sqlite3_prepare_v2(h, cols, -1, &q, NULL) == SQLITE_OK &&
            sqlite3_step(q) == SQLITE_ROW &&
            sqlite3_column_text(q, 0) != NULL)
            expr = sqlite3_mprintf("%s", sqlite3_column_text(q, 0));
        sqlite3_finalize(q);
        sqlite3_free(cols);
        char *sel = expr != NULL
            ? sqlite3_mprintf("SELECT %s FROM \"%w\" ORDER BY 1", expr, name)
            : NULL;
        ok = sel != NULL && query_into(h, sel, &t);
        sqlite3_free(sel);
        sqlite3_free(expr);
    }
    sqlite3_finalize(tables);
    sqlite3_close(h);
    if (!ok || t.oom) {
        free(t.p);
        return NULL;
    }
    return t.p;
}
