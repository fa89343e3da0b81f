/*
 * testlake.c: see testlake.h.
 */
#include "support/testlake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "support/lakedir.h"
#include "support/pgtest.h"

/* Every lake opened for a directory, so that its strings outlive the
 * engines opened on it. */
typedef struct opened {
    char *dir;
    char ns[64];
    char **caches;             /* one per engine opened: each a node */
    size_t ncaches;
    struct opened *next;
} opened;

static opened *lakes;

bool testlake_pg(void)
{
    const char *v = getenv("PIER_TEST_LAKE");
    return v != NULL && strcmp(v, "postgres") == 0;
}

static const char *url(void)
{
    const char *u = getenv("PIER_TEST_PG_URL");
    if (u == NULL || u[0] == '\0')
        return pgtest_url("a test on a PostgreSQL lake"); /* (exits 77) */
    return u;
}

/* The namespace of dir: "t_" and its name's letters and digits. */
static opened *lake_of(const char *dir)
{
    for (opened *o = lakes; o != NULL; o = o->next)
        if (strcmp(o->dir, dir) == 0)
            return o;
    opened *o = calloc(1, sizeof *o);
    if (o == NULL)
        abort();
    o->dir = strdup(dir);
    if (o->dir == NULL)
        abort();
    const char *base = strrchr(dir, '/');
    base = base != NULL ? base + 1 : dir;
    size_t n = 0;
    n += (size_t)snprintf(o->ns, sizeof o->ns, "t_");
    for (const char *p = base; *p != '\0' && n + 1 < sizeof o->ns; p++) {
        char c = *p;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            o->ns[n++] = c;
        else if (c == '-' || c == '_')
            o->ns[n++] = '_';
    }
    o->ns[n] = '\0';
    o->next = lakes;
    lakes = o;
    return o;
}

void testlake_options(pier_open_options *o, const char *dir)
{
    if (!testlake_pg())
        return;
    opened *l = lake_of(dir);
    char name[48];
    /* (the process's id too: a forked child is another node) */
    snprintf(name, sizeof name, "cache-%ld-%zu", (long)getpid(),
             l->ncaches + 1);
    char **more = realloc(l->caches, (l->ncaches + 1) * sizeof *more);
    if (more == NULL)
        abort();
    l->caches = more;
    l->caches[l->ncaches] = lakedir_join(dir, name);
    if (l->caches[l->ncaches] == NULL)
        abort();
    o->lake = url();
    o->lake_namespace = l->ns;
    o->cache_dir = l->caches[l->ncaches++];
}

/* A connection to the test server, or NULL. */
static PGconn *connect_server(void)
{
    PGconn *c = PQconnectdb(url());
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "testlake: %s", PQerrorMessage(c));
        PQfinish(c);
        return NULL;
    }
    PQclear(PQexec(c, "SET client_min_messages = warning"));
    return c;
}

int testlake_reset(const char *dir)
{
    if (!testlake_pg())
        return 0;
    opened **at = &lakes;
    while (*at != NULL && strcmp((*at)->dir, dir) != 0)
        at = &(*at)->next;
    if (*at == NULL)
        return 0;
    opened *o = *at;
    *at = o->next;
    int rc = -1;
    PGconn *c = connect_server();
    if (c != NULL) {
        char sql[128];
        snprintf(sql, sizeof sql, "DROP SCHEMA IF EXISTS \"%s\" CASCADE",
                 o->ns);
        PGresult *r = PQexec(c, sql);
        rc = PQresultStatus(r) == PGRES_COMMAND_OK ? 0 : -1;
        if (rc != 0)
            fprintf(stderr, "testlake: %s", PQresultErrorMessage(r));
        PQclear(r);
        PQfinish(c);
    }
    free(o->dir);
    for (size_t i = 0; i < o->ncaches; i++)
        free(o->caches[i]);
    free(o->caches);
    free(o);
    return rc;
}

/* Appends the text of every row of r, '|' between columns. */
static bool append_rows(PGresult *r, char **out, size_t *len, size_t *cap)
{
    for (int i = 0; i < PQntuples(r); i++) {
        for (int j = 0; j < PQnfields(r); j++) {
            const char *v = PQgetisnull(r, i, j) ? "NULL"
                                                 : PQgetvalue(r, i, j);
            size_t n = strlen(v) + 2;
            if (*len + n + 1 > *cap) {
                size_t nc = (*cap + n) * 2;
                char *p = realloc(*out, nc);
                if (p == NULL)
                    return false;
                *out = p;
                *cap = nc;
            }
            *len += (size_t)sprintf(*out + *len, "%s%c", v,
                                    j + 1 < PQnfields(r) ? '|' : '\n');
        }
    }
    return true;
}

char *testlake_dump(const char *dir)
{
    if (!testlake_pg()) {
        char *file = lakedir_join(dir, "lake.sqlite");
        char *d = file != NULL ? lakedir_sql_dump(file) : NULL;
        free(file);
        return d;
    }
    opened *o = lake_of(dir);
    PGconn *c = connect_server();
    if (c == NULL)
        return NULL;
    const char *params[1] = { o->ns };
    PGresult *t = PQexecParams(c, "SELECT c.relname FROM pg_class c JOIN "
                               "pg_namespace n ON n.oid = c.relnamespace "
                               "WHERE n.nspname = $1 AND c.relkind = 'r' "
                               "ORDER BY 1", 1, NULL, params, NULL, NULL, 0);
    char *out = calloc(1, 1);
    size_t len = 0, cap = 1;
    bool ok = out != NULL && PQresultStatus(t) == PGRES_TUPLES_OK;
    for (int i = 0; ok && i < PQntuples(t); i++) {
        char sql[200];
        const char *name = PQgetvalue(t, i, 0);
        snprintf(sql, sizeof sql, "SELECT '%s', * FROM \"%s\".\"%s\" t "
                 "ORDER BY t::text COLLATE \"C\"", name, o->ns, name);
        PGresult *r = PQexec(c, sql);
        ok = PQresultStatus(r) == PGRES_TUPLES_OK &&
             append_rows(r, &out, &len, &cap);
        PQclear(r);
    }
    PQclear(t);
    PQfinish(c);
    if (!ok) {
        free(out);
        return NULL;
    }
    return out;
}

int64_t testlake_changes(const char *dir)
{
    if (!testlake_pg()) {
        char *file = lakedir_join(dir, "lake.sqlite");
        int64_t n = file != NULL ? lakedir_sql_int(file, "SELECT count(*) "
                                                   "FROM _pier_changes", -1)
                                 : -1;
        free(file);
        return n;
    }
    opened *o = lake_of(dir);
    PGconn *c = connect_server();
    if (c == NULL)
        return -1;
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM \"%s\".changes", o->ns);
    PGresult *r = PQexec(c, sql);
    int64_t n = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1
                    ? strtoll(PQgetvalue(r, 0, 0), NULL, 10)
                    : -1;
    PQclear(r);
    PQfinish(c);
    return n;
}

int testlake_exec(const char *dir, const char *sqlite_sql,
                  const char *pg_sql)
{
    if (!testlake_pg()) {
        char *file = lakedir_join(dir, "lake.sqlite");
        int rc = file != NULL ? lakedir_sql_exec(file, sqlite_sql, false)
                              : -1;
        free(file);
        return rc;
    }
    opened *o = lake_of(dir);
    PGconn *c = connect_server();
    if (c == NULL)
        return -1;
    char path[128];
    snprintf(path, sizeof path, "SET search_path = \"%s\"", o->ns);
    PQclear(PQexec(c, path));
    PGresult *r = PQexec(c, pg_sql);
    int rc = PQresultStatus(r) == PGRES_COMMAND_OK ||
                     PQresultStatus(r) == PGRES_TUPLES_OK
                 ? 0
                 : -1;
    if (rc != 0)
        fprintf(stderr, "testlake: %s", PQresultErrorMessage(r));
    PQclear(r);
    PQfinish(c);
    return rc;
}

/* sql with the embedded lake's change log named as a PostgreSQL lake's
 * ("_pier_changes" becomes "changes"). */
static char *pg_spelling(const char *sql)
{
    size_t n = strlen(sql);
    char *out = malloc(n + 1);
    if (out == NULL)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        if (strncmp(sql + i, "_pier_changes", 13) == 0) {
            memcpy(out + o, "changes", 7);
            o += 7;
            i += 13;
        } else {
            out[o++] = sql[i++];
        }
    }
    out[o] = '\0';
    return out;
}

char *testlake_text(const char *dir, const char *sql)
{
    if (!testlake_pg()) {
        char *file = lakedir_join(dir, "lake.sqlite");
        char *t = file != NULL ? lakedir_sql_text(file, sql) : NULL;
        free(file);
        return t;
    }
    opened *o = lake_of(dir);
    PGconn *c = connect_server();
    char *q = pg_spelling(sql);
    if (c == NULL || q == NULL) {
        free(q);
        PQfinish(c);
        return NULL;
    }
    char path[128];
    snprintf(path, sizeof path, "SET search_path = \"%s\"", o->ns);
    PQclear(PQexec(c, path));
    PGresult *r = PQexec(c, q);
    char *out = calloc(1, 1);
    size_t len = 0, cap = 1;
    bool ok = out != NULL && PQresultStatus(r) == PGRES_TUPLES_OK &&
              append_rows(r, &out, &len, &cap);
    PQclear(r);
    PQfinish(c);
    free(q);
    if (!ok) {
        free(out);
        return NULL;
    }
    return out;
}

int64_t testlake_int(const char *dir, const char *sql, int64_t fallback)
{
    char *t = testlake_text(dir, sql);
    int64_t v = fallback;
    if (t != NULL && t[0] != '\0' && strncmp(t, "NULL", 4) != 0)
        v = strtoll(t, NULL, 10);
    free(t);
    return v;
}
