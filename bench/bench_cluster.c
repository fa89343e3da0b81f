/*
 * bench_cluster.c: the clustered topology (docs/clustered.md) against raw
 * libpq and raw SQLite doing the same work in the same run.
 *
 *   1. writes-1: one node's durable single-row writes (pier_insert_json of
 *      one row, durability full) against raw libpq doing the same work in
 *      one transaction per row: the row (id, updated_at, stamp, cells),
 *      and a change-log row whose watermark comes from the head row,
 *      updated in the same statement (the head Pier keeps: watermarks in
 *      commit order). Target: Pier >= 0.8 x raw.
 *   2. writes-4: the same with four nodes (four processes, each an engine
 *      with its own cache directory, or a libpq connection), writing at
 *      once; the figure is the rows per second of the four together.
 *      Target: Pier >= 0.8 x raw.
 *   3. query: a board-scoped query (a filtered count over 20,000 rows) on
 *      a node's synced replica, against the same query on an embedded
 *      lake holding the same rows (the single-node topology): the cost of
 *      the sync check and of the replica's own reader. No target.
 *   4. sync: a node bringing its replica up to 2,000 records written by
 *      another (one row each), against raw libpq reading those records
 *      and raw SQLite inserting their rows in one transaction: the cost
 *      per applied record. No target.
 *
 * It needs a PostgreSQL server: $PIER_BENCH_PG_URL, a libpq connection
 * string (`make bench-cluster` starts a throwaway one with fsync on, as
 * durable writes need, and stops it after). Each run uses fresh
 * namespaces, dropped afterwards. Medians of --runs (default 3), the sides
 * taking turns going first. Targets are printed, never enforced.
 */
#define _XOPEN_SOURCE 700      /* nftw */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "pier.h"

#include "bench.h"

#define PROG "bench_cluster"
#define MAX_RUNS 25
#define NODES 4
#define TARGET_WRITES 0.8

typedef struct config {
    int runs;
    int writes;                /* rows per writes measurement */
    int query_rows;
    int queries;
    int sync_records;
    const char *url;
    const char *parent;
    unsigned only;             /* bit per measurement; 0: all */
} config;

enum { M_WRITES1, M_WRITES4, M_QUERY, M_SYNC, NMEAS };
static const char *const MEASUREMENTS[] = { "writes-1", "writes-4",
                                            "query", "sync", NULL };

static void usage(FILE *out)
{
    fprintf(out,
            "usage: " PROG " [--quick] [--runs N] [--json] [--dir DIR] "
            "[--only writes-1|writes-4|query|sync]\n"
            "Needs PIER_BENCH_PG_URL (make bench-cluster sets it).\n");
}

static void die(const char *what, const char *why)
{
    fprintf(stderr, PROG ": %s: %s\n", what, why);
    exit(1);
}

/* Removes a benchmark directory and the nodes' caches nested in it. */
static int remove_one(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void tree_remove(const char *dir)
{
    if (nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
        fprintf(stderr, PROG ": cannot remove %s\n", dir);
}

/* ---- raw libpq ---- */

static PGconn *pg(const config *c)
{
    PGconn *conn = PQconnectdb(c->url);
    if (PQstatus(conn) != CONNECTION_OK)
        die("cannot connect", PQerrorMessage(conn));
    PQclear(PQexec(conn, "SET client_min_messages = warning"));
    return conn;
}

static void pg_run(PGconn *conn, const char *sql)
{
    PGresult *r = PQexec(conn, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK &&
        PQresultStatus(r) != PGRES_TUPLES_OK)
        die(sql, PQresultErrorMessage(r));
    PQclear(r);
}

static void drop_ns(const config *c, const char *ns)
{
    PGconn *conn = pg(c);
    char sql[128];
    snprintf(sql, sizeof sql, "DROP SCHEMA IF EXISTS %s CASCADE", ns);
    pg_run(conn, sql);
    PQfinish(conn);
}

/* The raw side's tables, as Pier's lake has them for one board. */
static void raw_make(const config *c, const char *ns)
{
    drop_ns(c, ns);
    PGconn *conn = pg(c);
    char sql[1024];
    snprintf(sql, sizeof sql,
             "CREATE SCHEMA %s; "
             "CREATE TABLE %s.head (watermark bigint NOT NULL, stamp bigint "
             "NOT NULL) WITH (fillfactor = 10); "
             "INSERT INTO %s.head VALUES (0, 0); "
             "CREATE TABLE %s.changes (watermark bigint PRIMARY KEY, board "
             "text COLLATE \"C\" NOT NULL, kind text NOT NULL, payload text "
             "NOT NULL, committed_at bigint NOT NULL, stamp bigint NOT "
             "NULL); CREATE INDEX ON %s.changes (board, watermark); "
             "CREATE TABLE %s.r1 (id text COLLATE \"C\" PRIMARY KEY, "
             "updated_at bigint NOT NULL, _v bigint NOT NULL, cells bytea "
             "NOT NULL)", ns, ns, ns, ns, ns, ns);
    pg_run(conn, sql);
    PQfinish(conn);
}

static void row_json(char *out, size_t cap, int node, int i)
{
    snprintf(out, cap, "{\"id\":\"n%d-%d\",\"n\":%d,\"title\":\"task number "
             "%d of the benchmark\"}", node, i, i, i);
}

/* One raw write: the row and its log record, one transaction. */
static void raw_write(PGconn *conn, const char *ns, int node, int i)
{
    char json[160], id[32], now[24], rows[200];
    row_json(json, sizeof json, node, i);
    snprintf(id, sizeof id, "n%d-%d", node, i);
    snprintf(now, sizeof now, "%" PRId64, wall_us());
    snprintf(rows, sizeof rows, "{\"rows\":[%s]}", json);
    char ins[200], log[600];
    snprintf(ins, sizeof ins, "INSERT INTO %s.r1 VALUES ($1, $2, $2, $3)",
             ns);
    snprintf(log, sizeof log,
             "WITH h AS (UPDATE %s.head SET watermark = watermark + 1, "
             "stamp = greatest(stamp, $1::bigint) RETURNING watermark) "
             "INSERT INTO %s.changes SELECT h.watermark, 'b', 'insert', $2, "
             "$1, $1 FROM h", ns, ns);
    pg_run(conn, "BEGIN");
    const char *p1[3] = { id, now, json };
    PGresult *r = PQexecParams(conn, ins, 3, NULL, p1, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        die("raw insert", PQresultErrorMessage(r));
    PQclear(r);
    const char *p2[2] = { now, rows };
    r = PQexecParams(conn, log, 2, NULL, p2, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        die("raw log", PQresultErrorMessage(r));
    PQclear(r);
    pg_run(conn, "COMMIT");
}

/* ---- Pier's nodes ---- */

static pier_engine *node(const config *c, const char *ns, const char *cache)
{
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.lake = c->url;
    o.lake_namespace = ns;
    o.cache_dir = cache;
    pier_engine *e = NULL;
    pier_error err;
    if (pier_open(&e, NULL, &o, &err) != PIER_OK)
        die("pier_open", err.message);
    return e;
}

static void pier_write(pier_engine *e, int node_no, int i)
{
    char json[160];
    row_json(json, sizeof json, node_no, i);
    pier_error err;
    if (pier_insert_json(NULL, e, "b", json, strlen(json), &err) != PIER_OK)
        die("pier_insert_json", err.message);
}

/* ---- writes: 1 and 4 nodes ---- */

/* Seconds for `nodes` processes writing c->writes rows between them, on
 * Pier (pier) or raw libpq. */
static double writes(const config *c, bool pier, int nodes, int run)
{
    char ns[64], dir[512];
    snprintf(ns, sizeof ns, "bench_%s_%d_%ld", pier ? "pier" : "raw", run,
             (long)getpid());
    if (bench_tmpdir_make(PROG, c->parent, "node", dir, sizeof dir) != 0)
        exit(1);
    if (pier) {
        drop_ns(c, ns);
        char cache[600];
        snprintf(cache, sizeof cache, "%s/setup", dir);
        pier_engine *e = node(c, ns, cache);
        pier_write(e, 99, 0);     /* (the board made, untimed) */
        pier_close(&e);
    } else {
        raw_make(c, ns);
    }
    int per = c->writes / nodes;
    int go[2];
    if (pipe(go) != 0)
        die("pipe", "failed");
    pid_t kids[NODES];
    for (int n = 0; n < nodes; n++) {
        kids[n] = fork();
        if (kids[n] < 0)
            die("fork", "failed");
        if (kids[n] == 0) {
            close(go[1]);
            char cache[600];
            snprintf(cache, sizeof cache, "%s/node%d", dir, n);
            pier_engine *e = pier ? node(c, ns, cache) : NULL;
            PGconn *conn = pier ? NULL : pg(c);
            char b;
            if (read(go[0], &b, 1) != 0)    /* (closed: go) */
                _exit(1);
            for (int i = 0; i < per; i++) {
                if (pier)
                    pier_write(e, n, i);
                else
                    raw_write(conn, ns, n, i);
            }
            pier_close(&e);
            if (conn != NULL)
                PQfinish(conn);
            _exit(0);
        }
    }
    close(go[0]);
    sleep(1);                       /* (every node connected) */
    double t0 = now_s();
    close(go[1]);
    for (int n = 0; n < nodes; n++) {
        int st = 0;
        if (waitpid(kids[n], &st, 0) != kids[n] || !WIFEXITED(st) ||
            WEXITSTATUS(st) != 0)
            die("a node", "failed");
    }
    double t = now_s() - t0;
    drop_ns(c, ns);
    tree_remove(dir);
    return t;
}

/* ---- a query on a synced replica, against the embedded lake ---- */

static const char QUERY[] = "SELECT count(*) FROM {{board}} WHERE n % 7 = 3";

static void fill(pier_engine *e, int rows)
{
    size_t cap = (size_t)rows * 80 + 16;
    char *json = malloc(cap);
    size_t len = 0;
    json[len++] = '[';
    for (int i = 0; i < rows; i++)
        len += (size_t)snprintf(json + len, cap - len, "%s{\"id\":\"r%d\","
                                "\"n\":%d,\"title\":\"row %d\"}",
                                i > 0 ? "," : "", i, i, i);
    json[len++] = ']';
    pier_error err;
    if (pier_insert_json(NULL, e, "b", json, len, &err) != PIER_OK)
        die("fill", err.message);
    free(json);
}

static double queries(pier_engine *e, int n)
{
    double t0 = now_s();
    for (int i = 0; i < n; i++) {
        pier_cursor *cur = NULL;
        pier_error err;
        const pier_row *row = NULL;
        if (pier_query(&cur, e, "b", QUERY, NULL, NULL, &err) != PIER_OK ||
            pier_cursor_next(&row, cur, &err) != PIER_OK || row == NULL)
            die("query", err.message);
        pier_cursor_close(cur);
    }
    return now_s() - t0;
}

/* Seconds for c->queries queries: on a node (pier) or an embedded lake. */
static double query(const config *c, bool on_pg, int run)
{
    char ns[64], dir[512];
    snprintf(ns, sizeof ns, "bench_query_%d_%ld", run, (long)getpid());
    if (bench_tmpdir_make(PROG, c->parent, "query", dir, sizeof dir) != 0)
        exit(1);
    pier_engine *e = NULL;
    if (on_pg) {
        drop_ns(c, ns);
        char cache[600];
        snprintf(cache, sizeof cache, "%s/cache", dir);
        e = node(c, ns, cache);
    } else {
        pier_open_options o = PIER_OPEN_OPTIONS_INIT;
        pier_error err;
        if (pier_open(&e, dir, &o, &err) != PIER_OK)
            die("pier_open", err.message);
    }
    fill(e, c->query_rows);
    queries(e, 10);                 /* (synced, warm) */
    double t = queries(e, c->queries);
    pier_close(&e);
    if (on_pg)
        drop_ns(c, ns);
    tree_remove(dir);
    return t;
}

/* ---- sync cost per record ---- */

/* Seconds for applying c->sync_records records: a node's sync (pier), or
 * raw libpq reading the records and raw SQLite inserting their rows. */
static double sync_cost(const config *c, bool pier, int run)
{
    char ns[64], dir[512];
    snprintf(ns, sizeof ns, "bench_sync_%d_%ld", run, (long)getpid());
    if (bench_tmpdir_make(PROG, c->parent, "sync", dir, sizeof dir) != 0)
        exit(1);
    drop_ns(c, ns);
    char writer_cache[600], reader_cache[600];
    snprintf(writer_cache, sizeof writer_cache, "%s/writer", dir);
    snprintf(reader_cache, sizeof reader_cache, "%s/reader", dir);
    pier_engine *w = node(c, ns, writer_cache);
    pier_write(w, 0, -1);
    pier_engine *r = node(c, ns, reader_cache);
    pier_error err;
    if (pier_sync(NULL, r, "b", &err) != PIER_OK)   /* (its replica) */
        die("sync", err.message);
    pier_stats before;
    pier_stats_get(&before, r, &err);
    for (int i = 0; i < c->sync_records; i++)
        pier_write(w, 0, i);
    double t = 0;
    if (pier) {
        double t0 = now_s();
        if (pier_sync(NULL, r, "b", &err) != PIER_OK)
            die("sync", err.message);
        t = now_s() - t0;
        pier_stats after;
        pier_stats_get(&after, r, &err);
        if (after.records_applied - before.records_applied !=
            c->sync_records)
            die("sync", "did not apply every record");
    } else {
        char path[600];
        snprintf(path, sizeof path, "%s/raw.sqlite", dir);
        sqlite3 *db = NULL;
        sqlite3_open(path, &db);
        sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = "
                     "NORMAL; CREATE TABLE b (id TEXT PRIMARY KEY, "
                     "updated_at INT, _v INT, n ANY, title ANY) STRICT",
                     NULL, NULL, NULL);
        PGconn *conn = pg(c);
        char sql[300];
        snprintf(sql, sizeof sql, "SELECT watermark, payload, committed_at, "
                 "stamp FROM %s.changes WHERE board = 'b' AND watermark > 2 "
                 "ORDER BY watermark LIMIT 500 OFFSET $1", ns);
        double t0 = now_s();
        sqlite3_stmt *ins = NULL;
        sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO b VALUES (?1, ?2, "
                           "?3, ?4, ?5)", -1, &ins, NULL);
        for (int off = 0; off < c->sync_records; off += 500) {
            char o[16];
            snprintf(o, sizeof o, "%d", off);
            const char *p[1] = { o };
            PGresult *res = PQexecParams(conn, sql, 1, NULL, p, NULL, NULL,
                                         0);
            sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
            for (int k = 0; k < PQntuples(res); k++) {
                json_t *doc = json_loads(PQgetvalue(res, k, 1), 0, NULL);
                json_t *row = json_array_get(json_object_get(doc, "rows"),
                                             0);
                sqlite3_bind_text(ins, 1, json_string_value(json_object_get(
                                              row, "id")), -1,
                                  SQLITE_STATIC);
                sqlite3_bind_int64(ins, 2, strtoll(PQgetvalue(res, k, 2),
                                                   NULL, 10));
                sqlite3_bind_int64(ins, 3, strtoll(PQgetvalue(res, k, 3),
                                                   NULL, 10));
                bench_bind_json(ins, 4, json_object_get(row, "n"));
                bench_bind_json(ins, 5, json_object_get(row, "title"));
                sqlite3_step(ins);
                sqlite3_reset(ins);
                json_decref(doc);
            }
            sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
            PQclear(res);
        }
        t = now_s() - t0;
        sqlite3_finalize(ins);
        sqlite3_close(db);
        PQfinish(conn);
    }
    pier_close(&w);
    pier_close(&r);
    drop_ns(c, ns);
    tree_remove(dir);
    return t;
}

/* ---- the runs ---- */

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

typedef struct figure {
    const char *name;
    double pier_s, raw_s;      /* medians */
    double units;              /* rows, queries or records per side */
    const char *unit;
    double target;             /* 0: none */
} figure;

static void measure(const config *c, int m, figure *f)
{
    double p[MAX_RUNS], r[MAX_RUNS];
    for (int run = 0; run < c->runs; run++) {
        bool pier_first = run % 2 == 0;
        for (int side = 0; side < 2; side++) {
            bool pier = (side == 0) == pier_first;
            double t = m == M_WRITES1 ? writes(c, pier, 1, run)
                       : m == M_WRITES4 ? writes(c, pier, NODES, run)
                       : m == M_QUERY   ? query(c, pier, run)
                                        : sync_cost(c, pier, run);
            (pier ? p : r)[run] = t;
        }
    }
    f->name = MEASUREMENTS[m];
    f->pier_s = median(p, c->runs);
    f->raw_s = median(r, c->runs);
    f->units = m == M_QUERY ? c->queries
               : m == M_SYNC ? c->sync_records
                             : (c->writes / (m == M_WRITES4 ? NODES : 1)) *
                                   (m == M_WRITES4 ? NODES : 1);
    f->unit = m == M_QUERY ? "queries/s" : m == M_SYNC ? "records/s"
                                                       : "rows/s";
    f->target = m == M_WRITES1 || m == M_WRITES4 ? TARGET_WRITES : 0;
}

static int only(void *cfg, const char *name)
{
    config *c = cfg;
    for (int m = 0; MEASUREMENTS[m] != NULL; m++)
        if (strcmp(name, MEASUREMENTS[m]) == 0) {
            c->only |= 1u << m;
            return 0;
        }
    return -1;
}

int main(int argc, char **argv)
{
    config c = { .runs = 3, .writes = 2000, .query_rows = 20000,
                 .queries = 2000, .sync_records = 2000 };
    bench_args a = { .prog = PROG, .usage = usage, .max_runs = MAX_RUNS,
                     .takes_json = true, .cfg = &c, .only = only };
    int rc = bench_parse_args(&a, argc, argv);
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    if (a.runs > 0)
        c.runs = a.runs;
    if (a.quick) {
        c.writes /= 10;
        c.query_rows /= 10;
        c.queries /= 10;
        c.sync_records /= 10;
    }
    c.parent = a.parent;
    c.url = getenv("PIER_BENCH_PG_URL");
    if (c.url == NULL || c.url[0] == '\0') {
        fprintf(stderr, PROG ": PIER_BENCH_PG_URL is not set: run it with "
                "`make bench-cluster`, which starts a PostgreSQL for it\n");
        return 2;
    }
    figure figs[NMEAS];
    int nfigs = 0;
    for (int m = 0; m < NMEAS; m++)
        if (c.only == 0 || (c.only & (1u << m)))
            measure(&c, m, &figs[nfigs++]);
    char date[40];
    if (a.json) {
        printf("{\"benchmark\":\"" PROG "\",\"date\":\"%s\",\"runs\":%d,"
               "\"figures\":[", utc_date(date, sizeof date), c.runs);
        for (int i = 0; i < nfigs; i++)
            printf("%s{\"name\":\"%s\",\"pier\":%.1f,\"raw\":%.1f,"
                   "\"unit\":\"%s\",\"ratio\":%.2f,\"target\":%.2f}",
                   i > 0 ? "," : "", figs[i].name,
                   figs[i].units / figs[i].pier_s,
                   figs[i].units / figs[i].raw_s, figs[i].unit,
                   figs[i].raw_s / figs[i].pier_s, figs[i].target);
        printf("]}\n");
        return 0;
    }
    printf(PROG " (%s), medians of %d runs\n", utc_date(date, sizeof date),
           c.runs);
    printf("%-9s %14s %14s %10s  %s\n", "", "pier", "raw", "ratio",
           "target");
    for (int i = 0; i < nfigs; i++) {
        const figure *f = &figs[i];
        double ratio = f->raw_s / f->pier_s;
        printf("%-9s %10.0f %-3s %10.0f %-3s %6.2f     %s\n", f->name,
               f->units / f->pier_s, "", f->units / f->raw_s, "", ratio,
               f->target > 0 ? (ratio >= f->target ? ">= 0.80 met"
                                                   : ">= 0.80 MISSED")
                             : "-");
    }
    printf("(rows/s for writes, queries/s for query, records/s for sync; "
           "raw: libpq for writes, the embedded lake for query, libpq and "
           "SQLite for sync)\n");
    return 0;
}
