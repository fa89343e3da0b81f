/*
 * bench_migrate.c: what declarative migrations cost (pier_migrate), and
 * what a table they made costs to write, against raw SQLite in the same
 * run.
 *
 *   1. steps: each migration step below timed by pier_migrate on a
 *      declared table of 1,000 rows and on one of 1,000,000, in two lakes
 *      of the same run. A step that only changes the schema costs the same
 *      on both, so the figure is the ratio of the two times (large / small,
 *      the median of the per-run ratios): about 1 for a metadata step, a
 *      per-row cost would show as a factor near 1,000.
 *        add      add_column  aK INT64 NOT NULL BACKFILL 7
 *        checked  add_column  dK DATE NOT NULL BACKFILL '2026-01-01' (a
 *                 column with a value check: SQLite would verify every
 *                 stored row against it; Pier adds it without, checks one
 *                 row and writes the check into the table's SQL)
 *        rename   rename_column  mK RENAMED FROM mK-1 (a DECIMAL)
 *        widen    widen_enum  kind gains a label
 *        relax    drop_not_null  nK INT64 NOT NULL becomes nullable
 *      For reference, raw SQLite's ALTER TABLE ADD COLUMN on the same lake
 *      files (INTEGER NOT NULL DEFAULT 7; the engines closed, after Pier's
 *      runs), and on tables of its own of the same shape and row counts
 *      (hand-written CHECKs in place of Pier's value checks) adding a
 *      column with a CHECK, which SQLite verifies as it does for Pier.
 *   2. insert: 100,000 rows into a table made by pier migrate, with a
 *      foreign key, a CHECK and five typed columns (INT64, DECIMAL(12,2),
 *      VARCHAR(40), ENUM('a','b','c'), DATE), through pier_exec with the
 *      values bound as parameters, 100 rows per call (one multi-row INSERT,
 *      one transaction), against raw SQLite inserting the same values into
 *      a table with the same constraints written by hand (REFERENCES, the
 *      CHECK, and CHECKs standing in for the type checks), 100 rows per
 *      transaction through one prepared statement.
 *
 * Everything runs at durability normal (synchronous=NORMAL, WAL): a commit
 * appends to the log, so the figures are the work of the step or the
 * insert, not the disk's flush latency. Filling the tables, warming up and
 * closing are outside the timed part; within a run the two sides (small
 * and large lake, Pier and raw) take turns going first. Targets are
 * printed beside the figures, never enforced: the exit status is 0 unless
 * something failed (1) or the command line is wrong (2).
 * docs/benchmarks.md has the figures and how to read them.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <sqlite3.h>

#include "pier.h"

#include "bench.h"

#define PROG "bench_migrate"
/* Every run (and the warm-up round) adds or relaxes a column of its own,
 * so the runs are bounded by the columns a table can reasonably grow: 15
 * runs add 32 columns. */
#define MAX_RUNS 15
/* A declaration of the two tables after MAX_RUNS runs is about 2 KB. */
#define DECL_MAX 8192
/* Rows of the warm-up table: each timed step is first made, untimed, on
 * it, so that the timed call does not pay for a cold path. */
#define WARM_ROWS 10
/* A step is "flat" when the large table takes less than this many times
 * the small one: a per-row cost would show as a factor near 1000. */
#define TARGET_FLAT 2.0
/* Rows of the parent table of the insert measurement. */
#define PARENTS 1000
/* The largest batch: 7 parameters a row, and pier_params looks a name up
 * in a list, so that a batch costs a time quadratic in its size. */
#define MAX_BATCH 2000

/* ------------------------------------------------------------------ */
/* Configuration and results                                            */

enum {
    STEP_ADD,
    STEP_CHECKED,
    STEP_RENAME,
    STEP_WIDEN,
    STEP_RELAX,
    NSTEPS
};

/* The names of --only: the steps, then the reference and the insert. */
static const char *const measurements[] = {
    "add", "checked", "rename", "widen", "relax", "raw", "insert", NULL,
};
#define ONLY_RAW (1u << NSTEPS)
#define ONLY_INSERT (1u << (NSTEPS + 1))
#define ONLY_ALL ((1u << (NSTEPS + 2)) - 1)

static const char *const step_labels[NSTEPS] = {
    "add_column INT64 NOT NULL BACKFILL",
    "add_column DATE NOT NULL BACKFILL",
    "rename_column, a DECIMAL(12,2)",
    "widen_enum, a label added",
    "drop_not_null, an INT64",
};

typedef struct config {
    int runs;
    unsigned only;             /* bits: measurements[i] */
    size_t small_rows;         /* 1,000 */
    size_t large_rows;         /* 1,000,000 */
    size_t insert_rows;        /* 100,000 */
    size_t batch;              /* rows per transaction: 100 */
    bool quick;
    const char *parent;        /* temporary directories go here */
} config;

/* Per-run times in seconds (steps), rows per second (insert). */
typedef struct results {
    double small_s[NSTEPS][MAX_RUNS];
    double large_s[NSTEPS][MAX_RUNS];
    double ratio[NSTEPS][MAX_RUNS];
    double raw_small_s[MAX_RUNS], raw_large_s[MAX_RUNS];
    double raw_ratio[MAX_RUNS];
    double rawc_small_s[MAX_RUNS], rawc_large_s[MAX_RUNS];
    double rawc_ratio[MAX_RUNS];
    double ins_pier[MAX_RUNS], ins_raw[MAX_RUNS], ins_ratio[MAX_RUNS];
} results;

/* ------------------------------------------------------------------ */
/* Errors and statistics                                                */

static int pier_fail(const pier_error *err, const char *what)
{
    fprintf(stderr, PROG ": error: %s: %s (%s)\n",
            err->tag != NULL ? err->tag : pier_status_tag(err->status),
            err->message, what);
    return -1;
}

static int sql_fail(sqlite3 *db, const char *what)
{
    fprintf(stderr, PROG ": error: sqlite: %s: %s\n", what,
            db != NULL ? sqlite3_errmsg(db) : "out of memory");
    return -1;
}

static double median(const double *v, int n)
{
    double s[MAX_RUNS];
    if (n <= 0)
        return 0.0;
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

/* ------------------------------------------------------------------ */
/* The declaration                                                      */

/*
 * What a table has become after the steps so far. Both tables of a lake
 * (big: the rows; warm: WARM_ROWS rows for the warm-up) start alike and
 * take the same steps, warm first.
 */
typedef struct shape {
    char added[2 * MAX_RUNS + 3]; /* 'a' or 'd' per added column, in
                                     order */
    int nadded, nchecked;
    int renamed;               /* the DECIMAL column is m<renamed> */
    int labels;                /* kind is ENUM('k0', .., 'k<labels-1>') */
    int relaxed;               /* n1 .. n<relaxed> are nullable */
    int nrelax;                /* columns n1 .. n<nrelax> */
} shape;

typedef struct decl {
    char text[DECL_MAX];
    size_t len;
    bool overflow;
} decl;

static void put(decl *d, const char *s)
{
    size_t n = strlen(s);
    if (d->len + n >= sizeof d->text) {
        d->overflow = true;
        return;
    }
    memcpy(d->text + d->len, s, n + 1);
    d->len += n;
}

static void put_int(decl *d, const char *prefix, int v, const char *suffix)
{
    char s[64];
    snprintf(s, sizeof s, "%d", v);
    put(d, prefix);
    put(d, s);
    put(d, suffix);
}

static void put_table(decl *d, const char *name, const shape *s)
{
    put(d, "CREATE TABLE ");
    put(d, name);
    put(d, " (\n  id INT64 PRIMARY KEY,\n  v INT64 NOT NULL,\n");
    put_int(d, "  m", s->renamed, " DECIMAL(12,2) NOT NULL");
    if (s->renamed > 0)
        put_int(d, " RENAMED FROM m", s->renamed - 1, "");
    put(d, ",\n  note VARCHAR(40),\n  kind ENUM(");
    for (int k = 0; k < s->labels; k++)
        put_int(d, k > 0 ? ", 'k" : "'k", k, "'");
    put(d, ") NOT NULL,\n  day DATE NOT NULL");
    for (int k = 1; k <= s->nrelax; k++)
        put_int(d, ",\n  n", k, k <= s->relaxed ? " INT64" :
                " INT64 NOT NULL");
    int a = 0, c = 0;
    for (int k = 0; s->added[k] != '\0'; k++) {
        if (s->added[k] == 'a')
            put_int(d, ",\n  a", ++a, " INT64 NOT NULL BACKFILL 7");
        else
            put_int(d, ",\n  d", ++c, " DATE NOT NULL BACKFILL "
                    "'2026-01-01'");
    }
    put(d, "\n);\n");
}

static int decl_make(decl *d, const shape *big, const shape *warm)
{
    d->len = 0;
    d->text[0] = '\0';
    d->overflow = false;
    put_table(d, "big", big);
    put_table(d, "warm", warm);
    if (d->overflow) {
        fprintf(stderr, PROG ": error: the declaration outgrew %d bytes\n",
                DECL_MAX);
        return -1;
    }
    return 0;
}

static void shape_init(shape *s, int nrelax)
{
    memset(s, 0, sizeof *s);
    s->labels = 2;
    s->nrelax = nrelax;
}

/* Takes one step of kind `k`. */
static void shape_step(shape *s, int k)
{
    switch (k) {
    case STEP_ADD:
        s->added[s->nadded + s->nchecked] = 'a';
        s->nadded++;
        break;
    case STEP_CHECKED:
        s->added[s->nadded + s->nchecked] = 'd';
        s->nchecked++;
        break;
    case STEP_RENAME:
        s->renamed++;
        break;
    case STEP_WIDEN:
        s->labels++;
        break;
    default:
        s->relaxed++;
        break;
    }
}

/* ------------------------------------------------------------------ */
/* 1. Migration steps                                                   */

typedef struct lake {
    char dir[4096];            /* the temporary directory */
    char path[4200];           /* its lake */
    bool made;
    pier_engine *e;
    size_t rows;
    shape big, warm;
} lake;

static int lake_open(lake *l)
{
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.durability = PIER_DURABILITY_NORMAL;
    o.limits.time_ms = PIER_LIMIT_NONE;
    o.limits.memory_bytes = PIER_LIMIT_NONE;
    pier_error err;
    if (pier_open(&l->e, l->path, &o, &err) != PIER_OK)
        return pier_fail(&err, "opening a lake");
    return 0;
}

/* Migrates l to its shapes; *secs (may be NULL) is the time of the call.
 * The plan must have had `want` steps. */
static int migrate(lake *l, size_t want, double *secs)
{
    decl d;
    if (decl_make(&d, &l->big, &l->warm) != 0)
        return -1;
    pier_error err;
    pier_migration *m = NULL;
    int64_t wm = 0;
    double t0 = now_s();
    pier_status st = pier_migrate(&wm, l->e, d.text, d.len, NULL, &m, &err);
    double t1 = now_s();
    if (st != PIER_OK)
        return pier_fail(&err, "pier_migrate");
    size_t n = pier_migration_steps(m);
    pier_migration_free(m);
    if (n != want) {
        fprintf(stderr, PROG ": error: the migration had %zu steps, not "
                "%zu\n", n, want);
        return -1;
    }
    if (secs != NULL)
        *secs = t1 - t0;
    return 0;
}

/* Fills `table` with rows 1..n: the DECIMAL, text, enum and date columns
 * vary with the row, each n column holds a small integer. */
static int fill_table(lake *l, const char *table, size_t n)
{
    char sql[2048];
    int len = snprintf(sql, sizeof sql,
                       "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT "
                       "i + 1 FROM k WHERE i < %zu) INSERT INTO %s SELECT "
                       "i, i * 7, printf('%%d.%%02d', i %% 100000, i %% 100),"
                       " 'note ' || i, CASE i %% 2 WHEN 0 THEN 'k0' ELSE "
                       "'k1' END, date('2026-01-01', '+' || (i %% 365) || "
                       "' days')", n, table);
    for (int k = 1; k <= l->big.nrelax && len > 0 &&
                    (size_t)len < sizeof sql; k++)
        len += snprintf(sql + len, sizeof sql - (size_t)len,
                        ", (i + %d) %% 100", k);
    if (len <= 0 || (size_t)len + 16 >= sizeof sql) {
        fprintf(stderr, PROG ": error: fill statement too long\n");
        return -1;
    }
    snprintf(sql + len, sizeof sql - (size_t)len, " FROM k");
    pier_error err;
    if (pier_exec(NULL, l->e, sql, NULL, &err) != PIER_OK)
        return pier_fail(&err, "filling a table");
    return 0;
}

/* A fresh lake: both tables made by pier_migrate, `rows` rows in big,
 * then closed (which checkpoints and removes the log the fill left, so
 * that no step meets the fill's checkpoint) and opened again. */
static int lake_make(lake *l, const config *c, size_t rows)
{
    memset(l, 0, sizeof *l);
    l->rows = rows;
    if (bench_tmpdir_make(PROG, c->parent, "migrate", l->dir,
                          sizeof l->dir) != 0)
        return -1;
    l->made = true;
    snprintf(l->path, sizeof l->path, "%s/lake", l->dir);
    shape_init(&l->big, c->runs + 1);     /* + 1: the warm-up round */
    shape_init(&l->warm, c->runs + 1);
    fprintf(stderr, "filling a table of %zu rows\n", rows);
    if (lake_open(l) != 0 || migrate(l, 2, NULL) != 0 ||
        fill_table(l, "big", rows) != 0 ||
        fill_table(l, "warm", WARM_ROWS) != 0)
        return -1;
    pier_close(&l->e);
    return lake_open(l);
}

static int lake_remove(lake *l)
{
    pier_close(&l->e);
    if (!l->made)
        return 0;
    pier_error err;
    int rc = 0;
    if (pier_reset_lake(l->path, &err) != PIER_OK)
        rc = pier_fail(&err, "removing a lake");
    if (bench_tmpdir_remove(PROG, l->dir) != 0)
        rc = -1;
    l->made = false;
    return rc;
}

/* One step of kind k on lake l: made untimed on warm, then timed on big. */
static int step_time(lake *l, int k, double *secs)
{
    shape_step(&l->warm, k);
    if (migrate(l, 1, NULL) != 0)
        return -1;
    shape_step(&l->big, k);
    return migrate(l, 1, secs);
}

static int measure_steps(const config *c, results *res, lake *small,
                         lake *large)
{
    /* A round of every step first, untimed: in the first timed round,
     * each first step of its kind took up to ten times as long as the
     * same step later (a cold path of the engine and of SQLite). */
    double untimed;
    for (int k = 0; k < NSTEPS; k++)
        if ((c->only & (1u << k)) && (step_time(small, k, &untimed) != 0 ||
                                      step_time(large, k, &untimed) != 0))
            return -1;
    for (int run = 0; run < c->runs; run++) {
        for (int k = 0; k < NSTEPS; k++) {
            if (!(c->only & (1u << k)))
                continue;
            double *s = &res->small_s[k][run], *g = &res->large_s[k][run];
            int rc = run % 2 == 0
                         ? (step_time(small, k, s) || step_time(large, k, g))
                         : (step_time(large, k, g) || step_time(small, k, s));
            if (rc != 0)
                return -1;
            res->ratio[k][run] = *g / *s;
            fprintf(stderr, "run %d/%d %-8s %zu rows %.3f ms, %zu rows "
                    "%.3f ms (x%.2f)\n", run + 1, c->runs, measurements[k],
                    small->rows, *s * 1e3, large->rows, *g * 1e3,
                    res->ratio[k][run]);
        }
    }
    return 0;
}

/* ---- the raw SQLite references ---- */

static int raw_open(sqlite3 **db, const char *path)
{
    if (sqlite3_open(path, db) != SQLITE_OK)
        return sql_fail(*db, "opening a database");
    if (sqlite3_exec(*db, "PRAGMA journal_mode = WAL; "
                          "PRAGMA synchronous = NORMAL; "
                          "PRAGMA foreign_keys = ON", NULL, NULL,
                     NULL) != SQLITE_OK)
        return sql_fail(*db, "setting up a database");
    return 0;
}

static int raw_time(sqlite3 *db, const char *sql, double *secs)
{
    double t0 = now_s();
    int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    *secs = now_s() - t0;
    return rc == SQLITE_OK ? 0 : sql_fail(db, sql);
}

/* ALTER TABLE big ADD COLUMN on each lake's file, through a connection
 * of raw SQLite's own (the engines are closed: Pier would see the change
 * as drift, and the lakes are not used again). */
static int measure_raw_lake(const config *c, results *res, lake *small,
                            lake *large)
{
    sqlite3 *dbs = NULL, *dbl = NULL;
    char ps[4300], pl[4300];
    pier_close(&small->e);
    pier_close(&large->e);
    snprintf(ps, sizeof ps, "%s/lake.sqlite", small->path);
    snprintf(pl, sizeof pl, "%s/lake.sqlite", large->path);
    int rc = raw_open(&dbs, ps);
    if (rc == 0)
        rc = raw_open(&dbl, pl);
    /* The first ALTER of a connection reads the schema and took fifty
     * times as long as the next: one each, untimed. */
    double untimed;
    static const char warm[] = "ALTER TABLE big ADD COLUMN raw_warm "
                               "INTEGER NOT NULL DEFAULT 7";
    if (rc == 0 && (raw_time(dbs, warm, &untimed) != 0 ||
                    raw_time(dbl, warm, &untimed) != 0))
        rc = -1;
    for (int run = 0; rc == 0 && run < c->runs; run++) {
        char sql[128];
        snprintf(sql, sizeof sql, "ALTER TABLE big ADD COLUMN raw%d "
                 "INTEGER NOT NULL DEFAULT 7", run);
        double *s = &res->raw_small_s[run], *g = &res->raw_large_s[run];
        rc = run % 2 == 0 ? (raw_time(dbs, sql, s) || raw_time(dbl, sql, g))
                          : (raw_time(dbl, sql, g) || raw_time(dbs, sql, s));
        if (rc == 0) {
            res->raw_ratio[run] = *g / *s;
            fprintf(stderr, "run %d/%d raw      %.3f ms, %.3f ms (x%.2f)\n",
                    run + 1, c->runs, *s * 1e3, *g * 1e3,
                    res->raw_ratio[run]);
        }
    }
    sqlite3_close(dbs);
    sqlite3_close(dbl);
    return rc;
}

/* The shape of big in raw SQLite, hand-written CHECKs in place of Pier's
 * value checks. */
static const char RAW_BIG[] =
    "CREATE TABLE big (id INTEGER PRIMARY KEY NOT NULL, v INTEGER NOT NULL,"
    " m0 TEXT NOT NULL CHECK (m0 GLOB '*[0-9].[0-9][0-9]' AND m0 NOT GLOB "
    "'*[^0-9.]*' AND length(m0) <= 13), note TEXT CHECK (length(note) <= "
    "40), kind TEXT NOT NULL CHECK (kind IN ('k0', 'k1')), day TEXT NOT NULL"
    " CHECK (date(day, '+0 days') IS day)) STRICT";

static int raw_big(sqlite3 **db, const char *dir, const char *name,
                   size_t n)
{
    char path[4300], sql[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (raw_open(db, path) != 0)
        return -1;
    snprintf(sql, sizeof sql,
             "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k "
             "WHERE i < %zu) INSERT INTO big SELECT i, i * 7, printf("
             "'%%d.%%02d', i %% 100000, i %% 100), 'note ' || i, CASE i %% 2"
             " WHEN 0 THEN 'k0' ELSE 'k1' END, date('2026-01-01', '+' || "
             "(i %% 365) || ' days') FROM k", n);
    if (sqlite3_exec(*db, RAW_BIG, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(*db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return sql_fail(*db, "filling a raw table");
    return 0;
}

/* ADD COLUMN ... CHECK on raw tables of big's shape: SQLite checks every
 * stored row against the table's CHECKs (pragma_quick_check) when the
 * column it adds has one. */
static int measure_raw_checked(const config *c, results *res)
{
    char dir[4096];
    sqlite3 *dbs = NULL, *dbl = NULL;
    if (bench_tmpdir_make(PROG, c->parent, "raw", dir, sizeof dir) != 0)
        return -1;
    fprintf(stderr, "filling raw tables of %zu and %zu rows\n",
            c->small_rows, c->large_rows);
    int rc = raw_big(&dbs, dir, "small.sqlite", c->small_rows);
    if (rc == 0)
        rc = raw_big(&dbl, dir, "large.sqlite", c->large_rows);
    for (int run = 0; rc == 0 && run < c->runs; run++) {
        char sql[160];
        snprintf(sql, sizeof sql, "ALTER TABLE big ADD COLUMN d%d TEXT NOT "
                 "NULL DEFAULT '2026-01-01' CHECK (date(d%d, '+0 days') IS "
                 "d%d)", run, run, run);
        double *s = &res->rawc_small_s[run], *g = &res->rawc_large_s[run];
        rc = run % 2 == 0 ? (raw_time(dbs, sql, s) || raw_time(dbl, sql, g))
                          : (raw_time(dbl, sql, g) || raw_time(dbs, sql, s));
        if (rc == 0) {
            res->rawc_ratio[run] = *g / *s;
            fprintf(stderr, "run %d/%d raw CHECK %.3f ms, %.3f ms (x%.2f)\n",
                    run + 1, c->runs, *s * 1e3, *g * 1e3,
                    res->rawc_ratio[run]);
        }
    }
    sqlite3_close(dbs);
    sqlite3_close(dbl);
    if (bench_tmpdir_remove(PROG, dir) != 0)
        rc = -1;
    return rc;
}

static int measure_migrations(const config *c, results *res)
{
    lake small, large;
    memset(&small, 0, sizeof small);
    memset(&large, 0, sizeof large);
    int rc = lake_make(&small, c, c->small_rows);
    if (rc == 0)
        rc = lake_make(&large, c, c->large_rows);
    if (rc == 0)
        rc = measure_steps(c, res, &small, &large);
    if (rc == 0 && (c->only & ONLY_RAW))
        rc = measure_raw_lake(c, res, &small, &large);
    if (lake_remove(&small) != 0)
        rc = -1;
    if (lake_remove(&large) != 0)
        rc = -1;
    if (rc == 0 && (c->only & ONLY_RAW))
        rc = measure_raw_checked(c, res);
    return rc;
}

/* ------------------------------------------------------------------ */
/* 2. Inserts into a table a migration made                             */

static const char INSERT_DECL[] =
    "CREATE TABLE parents (id INT64 PRIMARY KEY, name TEXT NOT NULL);\n"
    "CREATE TABLE items (\n"
    "  id     INT64 PRIMARY KEY,\n"
    "  parent INT64 NOT NULL REFERENCES parents(id),\n"
    "  qty    INT64 NOT NULL,\n"
    "  amount DECIMAL(12,2) NOT NULL,\n"
    "  title  VARCHAR(40) NOT NULL,\n"
    "  kind   ENUM('a','b','c') NOT NULL,\n"
    "  due    DATE NOT NULL,\n"
    "  CONSTRAINT positive_qty CHECK (qty > 0)\n"
    ");\n";

/* The same constraints by hand: the key, the foreign key and the CHECK as
 * declared, and a CHECK for each typed column in place of Pier's value
 * check (the DECIMAL's digits, the VARCHAR's length, the ENUM's labels, a
 * real calendar date). */
static const char RAW_TABLES[] =
    "CREATE TABLE parents (id INTEGER PRIMARY KEY NOT NULL, name TEXT NOT "
    "NULL) STRICT;"
    "CREATE TABLE items ("
    " id INTEGER PRIMARY KEY NOT NULL,"
    " parent INTEGER NOT NULL REFERENCES parents (id) ON DELETE RESTRICT,"
    " qty INTEGER NOT NULL,"
    " amount TEXT NOT NULL CHECK (amount GLOB '*[0-9].[0-9][0-9]' AND "
    "amount NOT GLOB '*[^0-9.]*' AND length(amount) <= 13),"
    " title TEXT NOT NULL CHECK (length(title) <= 40),"
    " kind TEXT NOT NULL CHECK (kind IN ('a', 'b', 'c')),"
    " due TEXT NOT NULL CHECK (date(due, '+0 days') IS due),"
    " CONSTRAINT positive_qty CHECK (qty > 0)) STRICT";

#define INSERT_COLUMNS 7

/* Row i's values, as both sides bind them. */
typedef struct item {
    int64_t id, parent, qty;
    char amount[24];
    char title[48];
    const char *kind;
    char due[16];
} item;

static void item_make(item *r, int64_t i)
{
    static const char *const kinds[] = { "a", "b", "c" };
    r->id = i;
    r->parent = 1 + i % PARENTS;
    r->qty = 1 + i % 50;
    snprintf(r->amount, sizeof r->amount, "%" PRId64 ".%02d",
             (i * 37) % 1000000, (int)(i % 100));
    snprintf(r->title, sizeof r->title, "item %" PRId64 " of the run", i);
    r->kind = kinds[i % 3];
    snprintf(r->due, sizeof r->due, "2026-%02d-%02d", (int)(i % 12) + 1,
             (int)(i % 28) + 1);
}

/* "INSERT INTO items VALUES (?1, ..., ?7), (?8, ...)..." for n rows. */
static char *multi_insert(size_t n)
{
    size_t cap = 32 + n * INSERT_COLUMNS * 12;
    char *s = malloc(cap);
    if (s == NULL)
        return NULL;
    size_t len = (size_t)snprintf(s, cap, "INSERT INTO items VALUES ");
    for (size_t r = 0; r < n; r++) {
        for (int k = 0; k < INSERT_COLUMNS; k++)
            len += (size_t)snprintf(s + len, cap - len, "%s?%zu",
                                    k == 0 ? (r == 0 ? "(" : ", (") : ", ",
                                    r * INSERT_COLUMNS + (size_t)k + 1);
        len += (size_t)snprintf(s + len, cap - len, ")");
    }
    return s;
}

/* Rows [first, first + n) through pier_exec, `batch` rows a call. */
static int pier_inserts(pier_engine *e, const char *sql, int64_t first,
                        size_t n, size_t batch, double *rows_per_s)
{
    pier_params *p = pier_params_new();
    if (p == NULL) {
        fprintf(stderr, PROG ": error: out of memory\n");
        return -1;
    }
    pier_error err;
    item r;
    char name[24];
    int rc = 0;
    double t0 = now_s();
    for (size_t done = 0; rc == 0 && done < n; done += batch) {
        for (size_t k = 0; rc == 0 && k < batch; k++) {
            item_make(&r, first + (int64_t)(done + k));
            size_t base = k * INSERT_COLUMNS;
#define NAME(j) (snprintf(name, sizeof name, "%zu", base + (j)), name)
            if (pier_params_set_int64(p, NAME(1), r.id, &err) != PIER_OK ||
                pier_params_set_int64(p, NAME(2), r.parent, &err) !=
                    PIER_OK ||
                pier_params_set_int64(p, NAME(3), r.qty, &err) != PIER_OK ||
                pier_params_set_text(p, NAME(4), r.amount, &err) !=
                    PIER_OK ||
                pier_params_set_text(p, NAME(5), r.title, &err) != PIER_OK ||
                pier_params_set_text(p, NAME(6), r.kind, &err) != PIER_OK ||
                pier_params_set_text(p, NAME(7), r.due, &err) != PIER_OK)
                rc = pier_fail(&err, "setting a parameter");
#undef NAME
        }
        if (rc == 0 && pier_exec(NULL, e, sql, p, &err) != PIER_OK)
            rc = pier_fail(&err, "inserting a batch");
    }
    *rows_per_s = (double)n / (now_s() - t0);
    pier_params_free(p);
    return rc;
}

typedef struct raw_ins {
    sqlite3 *db;
    sqlite3_stmt *begin, *insert, *commit;
} raw_ins;

static int raw_step(raw_ins *x, sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : sql_fail(x->db, "a statement");
}

/* The same rows through one prepared statement, `batch` rows a
 * transaction. */
static int raw_inserts(raw_ins *x, int64_t first, size_t n, size_t batch,
                       double *rows_per_s)
{
    item r;
    int rc = 0;
    double t0 = now_s();
    for (size_t done = 0; rc == 0 && done < n; done += batch) {
        rc = raw_step(x, x->begin);
        for (size_t k = 0; rc == 0 && k < batch; k++) {
            item_make(&r, first + (int64_t)(done + k));
            sqlite3_stmt *st = x->insert;
            sqlite3_bind_int64(st, 1, r.id);
            sqlite3_bind_int64(st, 2, r.parent);
            sqlite3_bind_int64(st, 3, r.qty);
            sqlite3_bind_text(st, 4, r.amount, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 5, r.title, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 6, r.kind, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 7, r.due, -1, SQLITE_STATIC);
            rc = raw_step(x, st);
        }
        if (rc == 0)
            rc = raw_step(x, x->commit);
    }
    *rows_per_s = (double)n / (now_s() - t0);
    return rc;
}

/* Both sides' tables, with the parents, in directory dir. */
static int insert_setup(pier_engine **e, raw_ins *x, const char *dir)
{
    char path[4300];
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.durability = PIER_DURABILITY_NORMAL;
    pier_error err;
    snprintf(path, sizeof path, "%s/lake", dir);
    if (pier_open(e, path, &o, &err) != PIER_OK)
        return pier_fail(&err, "opening the lake");
    if (pier_migrate(NULL, *e, INSERT_DECL, strlen(INSERT_DECL), NULL, NULL,
                     &err) != PIER_OK)
        return pier_fail(&err, "migrating");
    char fill[256];
    snprintf(fill, sizeof fill,
             "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k "
             "WHERE i < %d) INSERT INTO parents SELECT i, 'parent ' || i "
             "FROM k", PARENTS);
    if (pier_exec(NULL, *e, fill, NULL, &err) != PIER_OK)
        return pier_fail(&err, "filling the parents");
    snprintf(path, sizeof path, "%s/raw.sqlite", dir);
    if (raw_open(&x->db, path) != 0)
        return -1;
    if (sqlite3_exec(x->db, RAW_TABLES, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(x->db, fill, NULL, NULL, NULL) != SQLITE_OK)
        return sql_fail(x->db, "making the raw tables");
    if (sqlite3_prepare_v3(x->db, "BEGIN", -1, SQLITE_PREPARE_PERSISTENT,
                           &x->begin, NULL) != SQLITE_OK ||
        sqlite3_prepare_v3(x->db, "COMMIT", -1, SQLITE_PREPARE_PERSISTENT,
                           &x->commit, NULL) != SQLITE_OK ||
        sqlite3_prepare_v3(x->db, "INSERT INTO items VALUES (?1, ?2, ?3, "
                           "?4, ?5, ?6, ?7)", -1, SQLITE_PREPARE_PERSISTENT,
                           &x->insert, NULL) != SQLITE_OK)
        return sql_fail(x->db, "preparing");
    return 0;
}

/* Both tables must hold exactly `n` rows, and a row that breaks each
 * constraint must be refused by both. */
static int insert_verify(pier_engine *e, raw_ins *x, int64_t n)
{
    static const char *const bad[] = {
        "INSERT INTO items VALUES (-1, 99999, 1, '1.00', 't', 'a', "
        "'2026-01-01')",                                   /* the FK */
        "INSERT INTO items VALUES (-1, 1, 0, '1.00', 't', 'a', '2026-01-01')",
        "INSERT INTO items VALUES (-1, 1, 1, '1.001', 't', 'a', "
        "'2026-01-01')",
        "INSERT INTO items VALUES (-1, 1, 1, '1.00', "
        "'a title longer than forty characters, by far', 'a', '2026-01-01')",
        "INSERT INTO items VALUES (-1, 1, 1, '1.00', 't', 'd', '2026-01-01')",
        "INSERT INTO items VALUES (-1, 1, 1, '1.00', 't', 'a', '2026-02-30')",
    };
    pier_error err;
    pier_cursor *cur = NULL;
    const pier_row *row = NULL;
    int64_t got = -1;
    if (pier_exec(&cur, e, "SELECT count(*) FROM items", NULL, &err) ==
            PIER_OK &&
        pier_cursor_next(&row, cur, &err) == PIER_OK && row != NULL)
        got = strtoll(pier_row_value(row, 0)->text, NULL, 10);
    pier_cursor_close(cur);
    sqlite3_stmt *st = NULL;
    int64_t raw = -1;
    if (sqlite3_prepare_v2(x->db, "SELECT count(*) FROM items", -1, &st,
                           NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        raw = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (got != n || raw != n) {
        fprintf(stderr, PROG ": error: %lld rows in Pier's table and %lld "
                "in raw SQLite's, not %lld\n", (long long)got,
                (long long)raw, (long long)n);
        return -1;
    }
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        if (pier_exec(NULL, e, bad[k], NULL, &err) == PIER_OK ||
            sqlite3_exec(x->db, bad[k], NULL, NULL, NULL) == SQLITE_OK) {
            fprintf(stderr, PROG ": error: a side took %s\n", bad[k]);
            return -1;
        }
    }
    return 0;
}

static int measure_insert(const config *c, results *res)
{
    char dir[4096];
    if (bench_tmpdir_make(PROG, c->parent, "insert", dir, sizeof dir) != 0)
        return -1;
    pier_engine *e = NULL;
    raw_ins x = { NULL, NULL, NULL, NULL };
    char *sql = multi_insert(c->batch);
    int rc = sql != NULL ? insert_setup(&e, &x, dir) : -1;
    for (int run = 0; rc == 0 && run < c->runs; run++) {
        int64_t first = (int64_t)((size_t)run * c->insert_rows) + 1;
        double *p = &res->ins_pier[run], *r = &res->ins_raw[run];
        size_t n = c->insert_rows, b = c->batch;
        rc = run % 2 == 0 ? (pier_inserts(e, sql, first, n, b, p) ||
                             raw_inserts(&x, first, n, b, r))
                          : (raw_inserts(&x, first, n, b, r) ||
                             pier_inserts(e, sql, first, n, b, p));
        if (rc == 0) {
            res->ins_ratio[run] = *p / *r;
            fprintf(stderr, "run %d/%d insert   pier %.0f rows/s, raw %.0f "
                    "rows/s (x%.2f)\n", run + 1, c->runs, *p, *r,
                    res->ins_ratio[run]);
        }
    }
    if (rc == 0)
        rc = insert_verify(e, &x, (int64_t)(c->insert_rows *
                                            (size_t)c->runs));
    free(sql);
    sqlite3_finalize(x.begin);
    sqlite3_finalize(x.insert);
    sqlite3_finalize(x.commit);
    sqlite3_close(x.db);
    pier_close(&e);
    char lake_path[4300];
    pier_error err;
    snprintf(lake_path, sizeof lake_path, "%s/lake", dir);
    if (pier_reset_lake(lake_path, &err) != PIER_OK)
        rc = pier_fail(&err, "removing the lake");
    if (bench_tmpdir_remove(PROG, dir) != 0)
        rc = -1;
    return rc;
}

/* ------------------------------------------------------------------ */
/* Reporting                                                            */

/* "1234567" -> "1,234,567". */
static const char *group(char *out, size_t cap, double v)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%.0f", v);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < cap; i++) {
        out[o++] = digits[i];
        if (digits[i] != '-' && (n - i - 1) % 3 == 0 && i + 1 < n)
            out[o++] = ',';
    }
    out[o] = '\0';
    return out;
}

/* One line: the label, the two median times, the median ratio, and the
 * verdict (`note` instead, for a line without a target). */
static void report_line(const char *label, const double *s, const double *g,
                        const double *ratio, int n, const char *note)
{
    double r = median(ratio, n);
    printf("   %-34s %9.3f %9.3f %7.2f  %s\n", label, 1e3 * median(s, n),
           1e3 * median(g, n), r,
           note != NULL ? note
                        : r < TARGET_FLAT ? "~1 (<2), met"
                                          : "~1 (<2), MISSED");
}

static void report(const config *c, const results *res)
{
    struct utsname un;
    char date[64], g1[32], g2[32];
    if (uname(&un) != 0)
        strcpy(un.machine, "unknown");
    printf("Pier %s migration benchmark%s, %s\n", pier_version(),
           c->quick ? " --quick" : "", utc_date(date, sizeof date));
    printf("%s, %ld cores, SQLite %s, directories under %s; medians of %d "
           "runs\n\n", un.machine, sysconf(_SC_NPROCESSORS_ONLN),
           sqlite3_libversion(), c->parent, c->runs);
    if (c->only & (ONLY_RAW | ((1u << NSTEPS) - 1))) {
        printf("1. Steps of pier_migrate on a declared table of %s and of "
               "%s rows\n", group(g1, sizeof g1, (double)c->small_rows),
               group(g2, sizeof g2, (double)c->large_rows));
        printf("   %-34s %9s %9s %7s  %s\n", "", "small ms", "large ms",
               "ratio", "target");
        for (int k = 0; k < NSTEPS; k++)
            if (c->only & (1u << k))
                report_line(step_labels[k], res->small_s[k],
                            res->large_s[k], res->ratio[k], c->runs,
                            NULL);
        if (c->only & ONLY_RAW) {
            report_line("raw SQLite ADD COLUMN, same file", res->raw_small_s,
                        res->raw_large_s, res->raw_ratio, c->runs,
                        "(reference)");
            report_line("raw SQLite ADD COLUMN with a CHECK",
                        res->rawc_small_s, res->rawc_large_s,
                        res->rawc_ratio, c->runs, "(reference)");
        }
        printf("\n");
    }
    if (c->only & ONLY_INSERT) {
        int n = c->runs;
        printf("2. Inserts into a table made by pier migrate (foreign key, "
               "CHECK, five typed\n   columns): %s rows a run, %zu per "
               "transaction\n", group(g1, sizeof g1,
                                      (double)c->insert_rows), c->batch);
        printf("   Pier (pier_exec)   %s rows/s\n",
               group(g1, sizeof g1, median(res->ins_pier, n)));
        printf("   raw SQLite         %s rows/s   Pier / raw %.2f\n",
               group(g2, sizeof g2, median(res->ins_raw, n)),
               median(res->ins_ratio, n));
    }
}

/* ------------------------------------------------------------------ */
/* Command line                                                         */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: " PROG " [--runs N] [--quick] [--dir DIR] [--batch N]\n"
            "                     [--only M]...\n"
            "  --runs N   repeat each measurement N times (default 5, at "
            "most %d)\n"
            "  --quick    a tenth of the rows (1,000 and 100,000; 10,000 "
            "inserted)\n"
            "  --dir DIR  make the temporary directories in DIR (default:\n"
            "             $TMPDIR or /tmp)\n"
            "  --batch N  rows per transaction of the inserts (default 100,"
            " at most %d)\n"
            "  --only M   run only measurement M (repeatable): add, checked,"
            "\n"
            "             rename, widen, relax, raw, insert\n"
            "Progress goes to stderr. See docs/benchmarks.md.\n",
            MAX_RUNS, MAX_BATCH);
}

static int extra(void *cfg, int argc, char **argv, int i)
{
    config *c = cfg;
    if (strcmp(argv[i], "--batch") != 0 || i + 1 >= argc)
        return 0;
    char *end = NULL;
    long v = strtol(argv[i + 1], &end, 10);
    if (end == argv[i + 1] || *end != '\0' || v < 1 || v > MAX_BATCH) {
        fprintf(stderr, PROG ": --batch takes 1 to %d\n", MAX_BATCH);
        return -1;
    }
    c->batch = (size_t)v;
    return 2;
}

/* 0: run; 1: --help done; 2: usage error. */
static int parse_args(config *c, int argc, char **argv)
{
    memset(c, 0, sizeof *c);
    c->batch = 100;
    bench_args a = { .prog = PROG, .usage = usage, .max_runs = MAX_RUNS,
                     .cfg = c, .measurements = measurements,
                     .only_bits = &c->only, .extra = extra };
    int rc = bench_parse_args(&a, argc, argv);
    if (rc != 0)
        return rc;
    if (c->only == 0)
        c->only = ONLY_ALL;
    size_t div = a.quick ? 10 : 1;
    c->quick = a.quick;
    c->runs = a.runs != 0 ? a.runs : 5;
    c->parent = a.parent;
    c->small_rows = 1000 / div;
    c->large_rows = 1000000 / div;
    c->insert_rows = 100000 / div;
    if (c->insert_rows % c->batch != 0) {
        fprintf(stderr, PROG ": --batch must divide %zu\n", c->insert_rows);
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    config c;
    int rc = parse_args(&c, argc, argv);
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    /* Static so that the per-run arrays stay off the stack. */
    static results res;
    if ((c.only & (ONLY_RAW | ((1u << NSTEPS) - 1))) &&
        measure_migrations(&c, &res) != 0)
        return 1;
    if ((c.only & ONLY_INSERT) && measure_insert(&c, &res) != 0)
        return 1;
    report(&c, &res);
    return 0;
}
