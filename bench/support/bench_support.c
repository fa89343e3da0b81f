/*
 * bench_support.c: what every benchmark program does alike, linked into
 * each (bench/bench.h declares it): the options they share, their
 * temporary directories, and binding a JSON value as Pier stores it.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

static int only(bench_args *a, const char *name)
{
    if (a->measurements == NULL)
        return a->only(a->cfg, name);
    for (unsigned i = 0; a->measurements[i] != NULL; i++)
        if (strcmp(name, a->measurements[i]) == 0) {
            *a->only_bits |= 1u << i;
            return 0;
        }
    return -1;
}

int bench_parse_args(bench_args *a, int argc, char **argv)
{
    const char *tmp = getenv("TMPDIR");
    a->parent = tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp";
    a->quick = a->json = false;
    a->runs = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            a->usage(stdout);
            return 1;
        } else if (strcmp(o, "--quick") == 0) {
            a->quick = true;
        } else if (strcmp(o, "--json") == 0 && a->takes_json) {
            a->json = true;
        } else if (strcmp(o, "--runs") == 0 && has_value) {
            char *end = NULL;
            long v = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end != '\0' || v < 1 || v > a->max_runs) {
                fprintf(stderr, "%s: --runs takes 1 to %d\n", a->prog,
                        a->max_runs);
                return 2;
            }
            a->runs = (int)v;
        } else if (strcmp(o, "--dir") == 0 && has_value) {
            a->parent = argv[++i];
        } else if (strcmp(o, "--only") == 0 && has_value &&
                   (a->only != NULL || a->measurements != NULL)) {
            if (only(a, argv[++i]) != 0) {
                fprintf(stderr, "%s: unknown measurement '%s'\n", a->prog,
                        argv[i]);
                return 2;
            }
        } else {
            int took = a->extra != NULL ? a->extra(a->cfg, argc, argv, i)
                                        : 0;
            if (took < 0)
                return 2;
            if (took == 0) {
                fprintf(stderr, "%s: bad argument '%s'\n", a->prog, o);
                a->usage(stderr);
                return 2;
            }
            i += took - 1;
        }
    }
    return 0;
}

int bench_tmpdir_make(const char *prog, const char *parent, const char *what,
                      char *out, size_t cap)
{
    int n = snprintf(out, cap, "%s/pier-bench-%s-XXXXXX", parent, what);
    if (n < 0 || (size_t)n >= cap) {
        fprintf(stderr, "%s: error: directory name too long\n", prog);
        return -1;
    }
    if (mkdtemp(out) == NULL) {
        fprintf(stderr, "%s: error: cannot create %s: %s\n", prog, out,
                strerror(errno));
        return -1;
    }
    return 0;
}

int bench_tmpdir_remove(const char *prog, const char *dir)
{
    char path[4096 + 256 + 2];        /* the directory, '/', a d_name */
    int rc = 0;
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "%s: error: cannot open %s: %s\n", prog, dir,
                strerror(errno));
        return -1;
    }
    for (struct dirent *de = readdir(d); de != NULL; de = readdir(d)) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        int n = snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (n < 0 || (size_t)n >= sizeof path || unlink(path) != 0) {
            fprintf(stderr, "%s: error: cannot remove %s: %s\n", prog, path,
                    strerror(errno));
            rc = -1;
        }
    }
    closedir(d);
    if (rmdir(dir) != 0) {
        fprintf(stderr, "%s: error: cannot remove %s: %s\n", prog, dir,
                strerror(errno));
        rc = -1;
    }
    return rc;
}

int bench_bind_json(sqlite3_stmt *st, int i, const json_t *v)
{
    if (v == NULL)
        return sqlite3_bind_null(st, i);
    switch (json_typeof(v)) {
    case JSON_STRING:
        return sqlite3_bind_text(st, i, json_string_value(v),
                                 (int)json_string_length(v), SQLITE_STATIC);
    case JSON_INTEGER:
        return sqlite3_bind_int64(st, i, json_integer_value(v));
    case JSON_REAL:
        return sqlite3_bind_double(st, i, json_real_value(v));
    case JSON_TRUE:
        return sqlite3_bind_int(st, i, 1);
    case JSON_FALSE:
        return sqlite3_bind_int(st, i, 0);
    case JSON_OBJECT:
    case JSON_ARRAY: {
        char *s = json_dumps(v, JSON_COMPACT);
        if (s == NULL)
            return SQLITE_NOMEM;
        return sqlite3_bind_text(st, i, s, -1, free);
    }
    case JSON_NULL:
        break;
    }
    return sqlite3_bind_null(st, i);
}
