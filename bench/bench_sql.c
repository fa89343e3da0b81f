/*
 * bench_sql.c: the SQL dialect's benchmark (pier_exec on a declared table),
 * against raw SQLite doing the same work in the same run.
 *
 *   1. insert: 100,000 rows into a table of ten typed columns (INT64,
 *      DECIMAL(12,2), VARCHAR(200), ENUM, INSTANT, UUID, BOOLEAN, DOUBLE,
 *      DATE, JSON), one pier_exec per row with the values bound as
 *      parameters, against raw SQLite inserting the same values into an
 *      untyped table through one prepared statement. Each row is its own
 *      transaction on both sides, both in WAL mode with synchronous=NORMAL
 *      (durability=normal: a commit is an append to the log, not an fsync,
 *      so the figure is about the work per statement, not the disk).
 *   2. exact: SELECT sum(amount), avg(amount) and sum(amount * 3 -
 *      amount / 4) over 1,000,000 DECIMAL(12,2) values (exact; the last
 *      through the operators' rewrite, docs/sql.md) against raw SQLite's
 *      floating-point sum over the same values stored as REAL.
 *   3. history: the inserts of 1, into a lake whose table has a commit
 *      trigger that stores each transaction's changeset in a CHANGESET
 *      column (docs/history.md), against the same inserts into a lake
 *      without one: what recording costs a write. (The raw side of this
 *      one is Pier without the trigger, in the same run.) First at Pier's
 *      default durability (full: each commit is synced, as a write is
 *      made unless the application asks otherwise), 2,000 rows; then at
 *      durability normal, the rows of 1, with two references: the floor,
 *      a third lake without a trigger where each call also inserts as
 *      many bytes (a row's changeset) into a second table itself, and
 *      raw SQLite making the same two commits (a row; a row and those
 *      bytes in a second table): what storing a second row costs a
 *      write, recorded or not, in Pier and in SQLite itself.
 *
 * Each measurement runs --runs times (default 3), the two sides taking
 * turns going first; the medians are reported with their ratio (Pier's
 * speed over raw SQLite's). Targets are printed, never enforced: the exit
 * status is 0 unless something failed (1) or the command line is wrong (2).
 * docs/benchmarks.md has the figures and how to read them.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <sqlite3.h>

#include "pier.h"

#include "bench.h"

#define MAX_RUNS 25
#define TARGET_INSERT 0.6
#define TARGET_EXACT 0.5
#define TARGET_HISTORY 0.7
/* Rows each side writes in its turn at durability full (history). */
#define DURABLE_TURN 100

static const char CREATE_TABLE[] =
    "CREATE TABLE items (id INT64 PRIMARY KEY, amount DECIMAL(12,2), "
    "title VARCHAR(200), status ENUM('todo','doing','done'), due INSTANT, "
    "owner UUID, done BOOLEAN, score DOUBLE, day DATE, meta JSON)";
static const char INSERT_ROW[] =
    "INSERT INTO items VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
static const char HISTORY_SETUP[] =
    "CREATE TABLE history (id INT64 PRIMARY KEY, changes CHANGESET NOT "
    "NULL); CREATE COMMIT TRIGGER record ON items AS INSERT INTO "
    "history(changes) VALUES (pier_changeset())";
static const char FLOOR_SETUP[] =
    "CREATE TABLE history (id INT64 PRIMARY KEY, changes BLOB NOT NULL)";
static const char INSERT_ROW_AND_BYTES[] =
    "INSERT INTO items VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10); "
    "INSERT INTO history(changes) VALUES (?11)";
static const char RAW_CREATE[] =
    "CREATE TABLE items (id, amount, title, status, due, owner, done, "
    "score, day, meta)";
static const char RAW_INSERT[] =
    "INSERT INTO items VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
static const char RAW_HISTORY[] =
    "CREATE TABLE history (id INTEGER PRIMARY KEY, changes BLOB NOT NULL)";
static const char RAW_INSERT_BYTES[] =
    "INSERT INTO history(changes) VALUES (?1)";

typedef struct config {
    int runs;
    size_t rows;               /* rows inserted per side and run */
    size_t durable_rows;       /* the same at durability full (history) */
    size_t sum_rows;           /* values summed */
    const char *parent;        /* where the temporary directory goes */
} config;

/* One row's values, as both sides bind them. */
typedef struct row {
    int64_t id;
    char amount[24];
    char title[64];
    const char *status;
    char due[32];
    char owner[40];
    bool done;
    double score;
    char day[16];
    char meta[32];
} row;

static void make_row(row *r, int64_t i)
{
    static const char *const statuses[] = { "todo", "doing", "done" };
    r->id = i;
    snprintf(r->amount, sizeof r->amount, "%" PRId64 ".%02d",
             (i * 37) % 1000000, (int)(i % 100));
    snprintf(r->title, sizeof r->title, "task number %" PRId64
             " of the benchmark", i);
    r->status = statuses[i % 3];
    snprintf(r->due, sizeof r->due, "2026-03-%02dT%02d:00:00+02:00",
             (int)(i % 28) + 1, (int)(i % 24));
    snprintf(r->owner, sizeof r->owner,
             "a0eebc99-9c0b-4ef8-bb6d-%012" PRIx64, (uint64_t)i);
    r->done = i % 2 == 0;
    r->score = (double)i * 0.5;
    snprintf(r->day, sizeof r->day, "2026-04-%02d", (int)(i % 30) + 1);
    snprintf(r->meta, sizeof r->meta, "{\"n\":%" PRId64 "}", i);
}

/* Binds a row's ten values as ?1 .. ?10. */
static bool bind_row(pier_params *p, const row *r, pier_error *err)
{
    return pier_params_set_int64(p, "1", r->id, err) == PIER_OK &&
           pier_params_set_text(p, "2", r->amount, err) == PIER_OK &&
           pier_params_set_text(p, "3", r->title, err) == PIER_OK &&
           pier_params_set_text(p, "4", r->status, err) == PIER_OK &&
           pier_params_set_text(p, "5", r->due, err) == PIER_OK &&
           pier_params_set_text(p, "6", r->owner, err) == PIER_OK &&
           pier_params_set_bool(p, "7", r->done, err) == PIER_OK &&
           pier_params_set_double(p, "8", r->score, err) == PIER_OK &&
           pier_params_set_text(p, "9", r->day, err) == PIER_OK &&
           pier_params_set_text(p, "10", r->meta, err) == PIER_OK;
}

static int pier_fail(const pier_error *err, const char *what)
{
    fprintf(stderr, "bench_sql: error: %s: %s (%s)\n", err->tag,
            err->message, what);
    return -1;
}

static int sql_fail(sqlite3 *db, const char *what)
{
    fprintf(stderr, "bench_sql: error: sqlite: %s: %s\n", what,
            sqlite3_errmsg(db));
    return -1;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* ---- insert ---- */

/* Bytes each call also stores in table history (the floor), or none. */
typedef struct extra_bytes {
    const void *p;
    size_t len;
} extra_bytes;

/* Rows [first, first + n) through pier_exec, one call each, each with the
 * extra bytes x (NULL: none). */
static int pier_inserts(pier_engine *e, int64_t first, size_t n,
                        const extra_bytes *x, double *rows_per_s)
{
    pier_params *p = pier_params_new();
    if (p == NULL)
        return -1;
    pier_error err;
    row r;
    double t0 = now_s();
    for (size_t k = 0; k < n; k++) {
        make_row(&r, first + (int64_t)k);
        if (!bind_row(p, &r, &err) ||
            (x != NULL &&
             pier_params_set_blob(p, "11", x->p, x->len, &err) != PIER_OK) ||
            pier_exec(NULL, e, x != NULL ? INSERT_ROW_AND_BYTES : INSERT_ROW,
                      p, &err) != PIER_OK) {
            pier_params_free(p);
            return pier_fail(&err, "inserting a row");
        }
    }
    *rows_per_s = (double)n / (now_s() - t0);
    pier_params_free(p);
    return 0;
}

/* Binds a row's ten values to raw SQLite's insert. */
static void raw_bind_row(sqlite3_stmt *st, const row *r)
{
    sqlite3_bind_int64(st, 1, r->id);
    sqlite3_bind_text(st, 2, r->amount, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, r->title, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, r->status, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, r->due, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, r->owner, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 7, r->done);
    sqlite3_bind_double(st, 8, r->score);
    sqlite3_bind_text(st, 9, r->day, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 10, r->meta, -1, SQLITE_STATIC);
}

static int raw_inserts(sqlite3 *db, int64_t first, size_t n,
                       double *rows_per_s)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, RAW_INSERT, -1, &st, NULL) != SQLITE_OK)
        return sql_fail(db, "preparing the insert");
    row r;
    double t0 = now_s();
    for (size_t k = 0; k < n; k++) {
        make_row(&r, first + (int64_t)k);
        raw_bind_row(st, &r);
        if (sqlite3_step(st) != SQLITE_DONE) {
            sqlite3_finalize(st);
            return sql_fail(db, "inserting a row");
        }
        sqlite3_reset(st);
    }
    *rows_per_s = (double)n / (now_s() - t0);
    sqlite3_finalize(st);
    return 0;
}

/* Steps a prepared statement that returns no row, then resets it. */
static bool raw_step(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE;
}

/* Raw SQLite's history reference: rows [first, first + n), each in its
 * own BEGIN .. COMMIT with the extra bytes x in table history besides
 * (NULL: none), so both of its sides make their commits alike. */
static int raw_commits(sqlite3 *db, int64_t first, size_t n,
                       const extra_bytes *x, double *rows_per_s)
{
    sqlite3_stmt *begin = NULL, *ins = NULL, *bytes = NULL, *commit = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(db, "BEGIN", -1, &begin, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, RAW_INSERT, -1, &ins, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, RAW_INSERT_BYTES, -1, &bytes, NULL) !=
            SQLITE_OK ||
        sqlite3_prepare_v2(db, "COMMIT", -1, &commit, NULL) != SQLITE_OK)
        rc = sql_fail(db, "preparing the commits");
    row r;
    double t0 = now_s();
    for (size_t k = 0; rc == 0 && k < n; k++) {
        make_row(&r, first + (int64_t)k);
        raw_bind_row(ins, &r);
        if (x != NULL)
            sqlite3_bind_blob(bytes, 1, x->p, (int)x->len, SQLITE_STATIC);
        if (!raw_step(begin) || !raw_step(ins) ||
            (x != NULL && !raw_step(bytes)) || !raw_step(commit))
            rc = sql_fail(db, "committing a row");
    }
    if (rc == 0)
        *rows_per_s = (double)n / (now_s() - t0);
    sqlite3_finalize(begin);
    sqlite3_finalize(ins);
    sqlite3_finalize(bytes);
    sqlite3_finalize(commit);
    return rc;
}

/* ---- exact aggregates and arithmetic ---- */

/* What the second part measures: one query, each side's text of it (the
 * same SQL: Pier's over DECIMAL(12,2), raw SQLite's over REAL). */
static const struct {
    const char *name;
    const char *sql;
} EXACT[] = {
    { "sum", "SELECT sum(amount) FROM sums" },
    { "avg", "SELECT avg(amount) FROM sums" },
    { "arithmetic", "SELECT sum(amount * 3 - amount / 4) FROM sums" },
};
#define NEXACT (sizeof EXACT / sizeof EXACT[0])

static int pier_exact(pier_engine *e, const char *sql, double *seconds,
                      char *out, size_t cap)
{
    pier_error err;
    pier_cursor *c = NULL;
    double t0 = now_s();
    if (pier_exec(&c, e, sql, NULL, &err) != PIER_OK)
        return pier_fail(&err, sql);
    const pier_row *r = NULL;
    if (pier_cursor_next(&r, c, &err) != PIER_OK || r == NULL) {
        pier_cursor_close(c);
        return pier_fail(&err, "reading the result");
    }
    *seconds = now_s() - t0;
    snprintf(out, cap, "%s", pier_row_value(r, 0)->text);
    pier_cursor_close(c);
    return 0;
}

static int raw_exact(sqlite3 *db, const char *sql, double *seconds,
                     double *out)
{
    sqlite3_stmt *st = NULL;
    double t0 = now_s();
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_finalize(st);
        return sql_fail(db, sql);
    }
    *out = sqlite3_column_double(st, 0);
    *seconds = now_s() - t0;
    sqlite3_finalize(st);
    return 0;
}

/* Fills both sides' sum tables with the same values (not timed):
 * amount i is (i * 37 % 1000000).(i % 100). */
static int fill_sums(pier_engine *e, sqlite3 *db, size_t n)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "CREATE TABLE sums (amount DECIMAL(12,2)); "
             "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k "
             "WHERE i < %zu) INSERT INTO sums SELECT printf('%%d.%%02d', "
             "i * 37 %% 1000000, i %% 100) FROM k", n);
    pier_error err;
    if (pier_exec(NULL, e, sql, NULL, &err) != PIER_OK)
        return pier_fail(&err, "filling the decimals");
    snprintf(sql, sizeof sql,
             "CREATE TABLE sums (amount REAL); "
             "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k "
             "WHERE i < %zu) INSERT INTO sums SELECT CAST(printf('%%d.%%02d', "
             "i * 37 %% 1000000, i %% 100) AS REAL) FROM k", n);
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return sql_fail(db, "filling the reals");
    return 0;
}

/* ---- the run ---- */

static void usage(FILE *out)
{
    fprintf(out, "usage: bench_sql [--quick] [--runs N] [--dir DIR]\n"
                 "  --quick    a tenth of the rows\n"
                 "  --runs N   repetitions of each measurement (default 3)\n"
                 "  --dir DIR  where the temporary lakes go (default: "
                 "$TMPDIR or /tmp)\n"
                 "See docs/benchmarks.md.\n");
}

/* 0: run; 1: --help done; 2: usage error. */
static int parse_args(config *c, int argc, char **argv)
{
    bench_args a = { .prog = "bench_sql", .usage = usage,
                     .max_runs = MAX_RUNS };
    int rc = bench_parse_args(&a, argc, argv);
    if (rc != 0)
        return rc;
    size_t div = a.quick ? 10 : 1;
    *c = (config){ .runs = a.runs != 0 ? a.runs : 3, .rows = 100000 / div,
                   .durable_rows = 2000 / div, .sum_rows = 1000000 / div,
                   .parent = a.parent };
    return 0;
}

/* Opens lake `name` in dir at durability d (normal: as raw SQLite's
 * synchronous=NORMAL) with the items table, and `extra` SQL (or NULL). */
static int open_lake(const char *dir, const char *name, pier_durability d,
                     const char *extra, pier_engine **e)
{
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.durability = d;
    pier_error err;
    char lake[4200];
    snprintf(lake, sizeof lake, "%s/%s", dir, name);
    if (pier_open(e, lake, &o, &err) != PIER_OK)
        return pier_fail(&err, "opening a lake");
    if (pier_exec(NULL, *e, CREATE_TABLE, NULL, &err) != PIER_OK)
        return pier_fail(&err, "creating the table");
    if (extra != NULL && pier_exec(NULL, *e, extra, NULL, &err) != PIER_OK)
        return pier_fail(&err, "creating the commit trigger");
    return 0;
}

static int open_raw(const char *dir, sqlite3 **db)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/raw.sqlite", dir);
    if (sqlite3_open(path, db) != SQLITE_OK)
        return sql_fail(*db, "opening the raw database");
    if (sqlite3_exec(*db, "PRAGMA journal_mode = WAL; "
                          "PRAGMA synchronous = NORMAL", NULL, NULL,
                     NULL) != SQLITE_OK ||
        sqlite3_exec(*db, RAW_CREATE, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(*db, RAW_HISTORY, NULL, NULL, NULL) != SQLITE_OK)
        return sql_fail(*db, "setting up the raw database");
    return 0;
}

/* The bytes the floor stores per row: a row's changeset, recorded in the
 * floor's lake (its key, 0, is below every measured row's). */
static int floor_bytes(pier_engine *f, void **bytes, size_t *len)
{
    pier_params *p = pier_params_new();
    if (p == NULL)
        return -1;
    pier_error err;
    row r;
    make_row(&r, 0);
    int rc = 0;
    if (!bind_row(p, &r, &err) ||
        pier_changeset(bytes, len, f, INSERT_ROW, p, &err) != PIER_OK)
        rc = pier_fail(&err, "recording a row's changeset");
    pier_params_free(p);
    return rc;
}

/* The count of `table` in lake e, which must be `want`. */
static int check_count(pier_engine *e, const char *table, int64_t want)
{
    char sql[64];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
    pier_error err;
    pier_cursor *cur = NULL;
    const pier_row *r = NULL;
    int rc = 0;
    if (pier_exec(&cur, e, sql, NULL, &err) != PIER_OK ||
        pier_cursor_next(&r, cur, &err) != PIER_OK || r == NULL)
        rc = pier_fail(&err, "counting the history");
    else if (pier_row_value(r, 0)->as.integer != want) {
        fprintf(stderr, "bench_sql: error: the history holds %" PRId64
                " rows, not %" PRId64 "\n", pier_row_value(r, 0)->as.integer,
                want);
        rc = -1;
    }
    pier_cursor_close(cur);
    return rc;
}

/* The lakes and database the history measurement writes. */
typedef struct history_lakes {
    pier_engine *e;            /* no trigger (the insert's lake) */
    pier_engine *h;            /* the commit trigger */
    pier_engine *f;            /* the floor: the bytes stored by each call */
    pier_engine *de, *dh;      /* e and h at durability full */
    sqlite3 *db;               /* raw SQLite */
} history_lakes;

/* Its figures, one per run. */
typedef struct history_figures {
    /* durability full */
    double d_with[MAX_RUNS], d_without[MAX_RUNS], d_ratio[MAX_RUNS];
    /* durability normal */
    double with[MAX_RUNS], without[MAX_RUNS], ratio[MAX_RUNS];
    double floor[MAX_RUNS], floor_ratio[MAX_RUNS];
    double raw_one[MAX_RUNS], raw_two[MAX_RUNS], raw_ratio[MAX_RUNS];
    size_t floor_len;          /* bytes of one row's changeset */
} history_figures;

/* Run k's measurement at durability normal: the same rows into the lake
 * with the commit trigger, the one without, the floor's, and raw SQLite
 * with and without the second row, taking turns going first. */
static int history_normal(const config *c, const history_lakes *l,
                          const extra_bytes *x, int k, history_figures *g)
{
    /* keys past the insert measurement's, fresh in every lake */
    int64_t first = (int64_t)((c->runs + k) * c->rows) + 1;
    int rc = 0;
    for (int i = 0; rc == 0 && i < 5; i++) {
        switch ((k + i) % 5) {
        case 0:
            rc = pier_inserts(l->h, first, c->rows, NULL, &g->with[k]);
            break;
        case 1:
            rc = pier_inserts(l->e, first, c->rows, NULL, &g->without[k]);
            break;
        case 2:
            rc = pier_inserts(l->f, first, c->rows, x, &g->floor[k]);
            break;
        case 3:
            rc = raw_commits(l->db, first, c->rows, NULL, &g->raw_one[k]);
            break;
        default:
            rc = raw_commits(l->db, first, c->rows, x, &g->raw_two[k]);
            break;
        }
    }
    g->ratio[k] = g->with[k] / g->without[k];
    g->floor_ratio[k] = g->floor[k] / g->without[k];
    g->raw_ratio[k] = g->raw_two[k] / g->raw_one[k];
    return rc;
}

/* Run k's measurement at durability full: the same rows into the lake
 * with the commit trigger and the one without, in turns of DURABLE_TURN
 * rows, so that both meet the disk's changing latency alike. */
static int history_durable(const config *c, const history_lakes *l, int k,
                           history_figures *g)
{
    double seconds[2] = { 0, 0 };
    pier_engine *lake[2] = { l->dh, l->de };
    int64_t first = (int64_t)(k * c->durable_rows) + 1;
    int rc = 0;
    for (size_t done = 0; rc == 0 && done < c->durable_rows;) {
        size_t n = c->durable_rows - done < DURABLE_TURN
                       ? c->durable_rows - done : DURABLE_TURN;
        for (int i = 0; rc == 0 && i < 2; i++) {
            int side = (k + (int)(done / DURABLE_TURN) + i) % 2;
            double rate = 0;
            rc = pier_inserts(lake[side], first + (int64_t)done, n, NULL,
                              &rate);
            seconds[side] += (double)n / rate;
        }
        done += n;
    }
    g->d_with[k] = (double)c->durable_rows / seconds[0];
    g->d_without[k] = (double)c->durable_rows / seconds[1];
    g->d_ratio[k] = g->d_with[k] / g->d_without[k];
    return rc;
}

/* The history measurement: at durability full, then normal. */
static int history_runs(const config *c, const history_lakes *l,
                        history_figures *g)
{
    extra_bytes x = { NULL, 0 };
    void *bytes = NULL;
    int rc = floor_bytes(l->f, &bytes, &x.len);
    x.p = bytes;
    g->floor_len = x.len;
    for (int k = 0; rc == 0 && k < c->runs; k++)
        rc = history_durable(c, l, k, g);
    for (int k = 0; rc == 0 && k < c->runs; k++)
        rc = history_normal(c, l, &x, k, g);
    pier_free(bytes);
    /* every transaction left its changeset (the floor: its bytes) */
    if (rc == 0)
        rc = check_count(l->dh, "history",
                         (int64_t)(c->runs * c->durable_rows));
    if (rc == 0)
        rc = check_count(l->h, "history", (int64_t)(c->runs * c->rows));
    if (rc == 0)
        rc = check_count(l->f, "history", (int64_t)(c->runs * c->rows));
    return rc;
}

/* Prints the history's figures. */
static void history_print(const config *c, history_figures *g)
{
    int n = c->runs;
    printf("\nhistory: a commit trigger storing each transaction's "
           "changeset, against the same writes without\n"
           "  durability full (Pier's default), %zu rows, one pier_exec "
           "each:\n"
           "    with %.0f rows/s   without %.0f rows/s   ratio %.2f "
           "(target %.1f)\n", c->durable_rows, median(g->d_with, n),
           median(g->d_without, n), median(g->d_ratio, n), TARGET_HISTORY);
    printf("  durability normal, the insert's %zu rows:\n"
           "    with %.0f rows/s   without %.0f rows/s   ratio %.2f\n",
           c->rows, median(g->with, n), median(g->without, n),
           median(g->ratio, n));
    printf("    floor: each call storing %zu bytes itself, no trigger: "
           "%.0f rows/s   ratio %.2f\n", g->floor_len, median(g->floor, n),
           median(g->floor_ratio, n));
    printf("    raw SQLite, the same bytes as a second row of each commit: "
           "%.0f rows/s against %.0f   ratio %.2f\n", median(g->raw_two, n),
           median(g->raw_one, n), median(g->raw_ratio, n));
}

static int run(const config *c, char *dir)
{
    history_lakes l = { 0 };
    const pier_durability normal = PIER_DURABILITY_NORMAL;
    int rc = open_lake(dir, "lake", normal, NULL, &l.e);
    if (rc == 0)
        rc = open_lake(dir, "lake_history", normal, HISTORY_SETUP, &l.h);
    if (rc == 0)
        rc = open_lake(dir, "lake_floor", normal, FLOOR_SETUP, &l.f);
    if (rc == 0)
        rc = open_lake(dir, "lake_durable", PIER_DURABILITY_FULL, NULL,
                       &l.de);
    if (rc == 0)
        rc = open_lake(dir, "lake_durable_history", PIER_DURABILITY_FULL,
                       HISTORY_SETUP, &l.dh);
    if (rc == 0)
        rc = open_raw(dir, &l.db);
    pier_engine *e = l.e;
    sqlite3 *db = l.db;
    double ins_pier[MAX_RUNS], ins_raw[MAX_RUNS], ins_ratio[MAX_RUNS];
    for (int k = 0; rc == 0 && k < c->runs; k++) {
        int64_t first = (int64_t)(k * c->rows) + 1;
        if (k % 2 == 0) {
            rc = pier_inserts(e, first, c->rows, NULL, &ins_pier[k]);
            if (rc == 0)
                rc = raw_inserts(db, first, c->rows, &ins_raw[k]);
        } else {
            rc = raw_inserts(db, first, c->rows, &ins_raw[k]);
            if (rc == 0)
                rc = pier_inserts(e, first, c->rows, NULL, &ins_pier[k]);
        }
        ins_ratio[k] = ins_pier[k] / ins_raw[k];
    }
    history_figures his;
    if (rc == 0)
        rc = history_runs(c, &l, &his);
    if (rc == 0)
        rc = fill_sums(e, db, c->sum_rows);
    double ex_pier[NEXACT][MAX_RUNS], ex_raw[NEXACT][MAX_RUNS];
    double ex_ratio[NEXACT][MAX_RUNS];
    char exact[NEXACT][64];
    double approx[NEXACT];
    for (size_t q = 0; q < NEXACT; q++) {
        const char *sql = EXACT[q].sql;
        for (int k = 0; rc == 0 && k < c->runs; k++) {
            if (k % 2 == 0) {
                rc = pier_exact(e, sql, &ex_pier[q][k], exact[q],
                                sizeof exact[q]);
                if (rc == 0)
                    rc = raw_exact(db, sql, &ex_raw[q][k], &approx[q]);
            } else {
                rc = raw_exact(db, sql, &ex_raw[q][k], &approx[q]);
                if (rc == 0)
                    rc = pier_exact(e, sql, &ex_pier[q][k], exact[q],
                                    sizeof exact[q]);
            }
            ex_ratio[q][k] = ex_raw[q][k] / ex_pier[q][k];
        }
    }
    if (rc == 0) {
        struct utsname un;
        char date[64];
        if (uname(&un) != 0)
            strcpy(un.machine, "unknown");
        printf("bench_sql: %s, %s, %ld cores, SQLite %s, %d runs "
               "(medians)\n\n", utc_date(date, sizeof date), un.machine,
               sysconf(_SC_NPROCESSORS_ONLN), sqlite3_libversion(), c->runs);
        double ratio = median(ins_ratio, c->runs);
        printf("insert: %zu rows, ten typed columns, one pier_exec per row "
               "(synchronous=NORMAL)\n"
               "  pier %.0f rows/s   raw SQLite %.0f rows/s   ratio %.2f "
               "(target %.1f)\n\n", c->rows, median(ins_pier, c->runs),
               median(ins_raw, c->runs), ratio, TARGET_INSERT);
        for (size_t q = 0; q < NEXACT; q++) {
            ratio = median(ex_ratio[q], c->runs);
            printf("%s: %s, over %zu DECIMAL(12,2) values (exact) against "
                   "the same over REAL\n"
                   "  pier %.1f ms (%s)   raw SQLite %.1f ms (%.17g)   "
                   "ratio %.2f (target %.1f)\n", EXACT[q].name,
                   EXACT[q].sql, c->sum_rows,
                   median(ex_pier[q], c->runs) * 1e3, exact[q],
                   median(ex_raw[q], c->runs) * 1e3, approx[q], ratio,
                   TARGET_EXACT);
        }
        history_print(c, &his);
    }
    sqlite3_close(l.db);
    pier_close(&l.e);
    pier_close(&l.h);
    pier_close(&l.f);
    pier_close(&l.de);
    pier_close(&l.dh);
    return rc;
}

int main(int argc, char **argv)
{
    config c;
    int rc = parse_args(&c, argc, argv);
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    char dir[4096];
    if (bench_tmpdir_make("bench_sql", c.parent, "sql", dir, sizeof dir) !=
        0)
        return 1;
    rc = run(&c, dir);
    /* The lakes' directories first (pier_reset_lake removes each
     * whole), then the raw database's files and the directory. */
    static const char *const lakes[] = { "lake", "lake_history",
                                         "lake_floor", "lake_durable",
                                         "lake_durable_history" };
    for (size_t i = 0; i < sizeof lakes / sizeof lakes[0]; i++) {
        char lake[4200];
        pier_error err;
        snprintf(lake, sizeof lake, "%s/%s", dir, lakes[i]);
        if (pier_reset_lake(lake, &err) != PIER_OK) {
            fprintf(stderr, "bench_sql: error: %s\n", err.message);
            rc = 1;
        }
    }
    if (bench_tmpdir_remove("bench_sql", dir) != 0)
        rc = 1;
    return rc == 0 ? 0 : 1;
}
