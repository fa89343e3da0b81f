/*
 * bench_insert.c: Pier's insert benchmark, against raw SQLite.
 *
 * Three measurements, each repeated and reported as medians
 * (docs/benchmarks.md says what each figure means and how to run it):
 *   1. batched:  100,000 rows of JSON text in batches of 1,000 through
 *                pier_insert_json (durability full), against (a) bare raw
 *                SQLite inserting the same values from C variables and
 *                (b) raw SQLite doing Pier's work by hand: jansson parse,
 *                bind, insert, one change-log row per batch.
 *   2. single:   10,000 rows, one durable write each, against bare raw
 *                SQLite with one transaction per row.
 *   3. widen:    pier_board_widen_column(bigint -> double) on a board of
 *                1,000 rows and one of 1,000,000: the two times should be
 *                about equal, since numeric widening is a catalog change.
 *
 * Every lake and raw database lives in its own fresh temporary directory,
 * removed afterwards. Inputs (JSON text, C values) are built before the
 * clock starts; opening, creating the table or board, and closing are
 * outside the timed part. Within a run, Pier and the baselines take turns
 * going first, so that drift on a shared machine hits both sides alike.
 *
 * Only the public API (pier.h) is used. Targets are printed beside the
 * figures, never enforced: the exit status is 0 unless something failed
 * (1) or the command line is wrong (2).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "pier.h"

#include "bench.h"

#define PROG "bench_insert"

/* ------------------------------------------------------------------ */
/* Configuration                                                        */

#define BOARD "tasks"
/* A second board of the widening lakes, for untimed warm-up writes. */
#define WARMUP_BOARD "warmup"
#define WARMUP_ROW "{\"id\":\"w\",\"n\":1}"
/* Room for the median of --runs; more runs than this add nothing but
 * time. */
#define MAX_RUNS 100
/* A row of the benchmark is at most about 130 bytes of JSON; 256 leaves
 * room for the largest index and score. */
#define ROW_JSON_MAX 256

/* The targets printed beside the figures (Pier / baseline, rows/s). */
#define TARGET_BATCH_BARE 0.4
#define TARGET_BATCH_SAME 0.8
#define TARGET_SINGLE_BARE 0.8
/* Widening is "flat" when the 1M-row board takes less than this many times
 * the 1k-row board: a per-row cost would show as a factor near 1000. */
#define TARGET_WIDEN_FLAT 2.0

enum {
    ONLY_BATCHED = 1,
    ONLY_SINGLE = 2,
    ONLY_WIDEN = 4,
    ONLY_ALL = 7
};

typedef struct bench_config {
    int runs_batched;          /* repetitions of measurement 1 */
    int runs_single;           /* ... of measurement 2 */
    int runs_widen;            /* ... of measurement 3 */
    bool quick;                /* row counts divided by 10 */
    bool json;                 /* one JSON object on stdout, no table */
    unsigned only;             /* ONLY_* bits: measurements to run */
    const char *parent;        /* temporary directories go here */
    size_t batched_rows;       /* 100,000 */
    size_t batch_size;         /* 1,000 rows per pier_insert_json call */
    size_t single_rows;        /* 10,000 */
    size_t widen_small;        /* 1,000 */
    size_t widen_large;        /* 1,000,000 */
    size_t fill_batch;         /* 10,000 rows per call when filling */
} bench_config;

/* Per-run figures: rows per second, except the widening times (seconds). */
typedef struct bench_results {
    double batched_pier[MAX_RUNS];
    double batched_bare[MAX_RUNS];
    double batched_same[MAX_RUNS];
    double batched_ratio_bare[MAX_RUNS];
    double batched_ratio_same[MAX_RUNS];
    double single_pier[MAX_RUNS];
    double single_bare[MAX_RUNS];
    double single_ratio_bare[MAX_RUNS];
    double widen_small_s[MAX_RUNS];
    double widen_large_s[MAX_RUNS];
    double widen_ratio[MAX_RUNS];
    double widen_text_s[MAX_RUNS];
} bench_results;

/* ------------------------------------------------------------------ */
/* Clocks, errors, statistics                                           */

static int pier_fail(const pier_error *err, const char *what)
{
    fprintf(stderr, "bench_insert: error: %s: %s (%s)\n",
            err->tag != NULL ? err->tag : pier_status_tag(err->status),
            err->message, what);
    return -1;
}

static int sql_fail(sqlite3 *db, const char *what)
{
    fprintf(stderr, "bench_insert: error: sqlite: %s: %s\n", what,
            db != NULL ? sqlite3_errmsg(db) : "out of memory");
    return -1;
}

static int oom(void)
{
    fprintf(stderr, "bench_insert: error: out of memory\n");
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
/* The rows                                                             */

/* One row as C values: what the bare baseline binds. */
typedef struct bench_row {
    char id[24];            /* "row-0000001": unique, 7 digits up to 1M */
    char title[64];
    const char *state;
    int64_t priority;       /* 0..99: integers, so inferred bigint */
    double score;           /* k/4 + 1/8: exact in binary, never integral
                               (so always a JSON real), prints short */
    bool done;
} bench_row;

static const char *const STATES[] = { "open", "active", "blocked",
                                      "closed" };

/* Row i (from 1): values vary deterministically with i. */
static void row_make(bench_row *r, size_t i)
{
    snprintf(r->id, sizeof r->id, "row-%07zu", i);
    snprintf(r->title, sizeof r->title, "Task %zu of the benchmark", i);
    r->state = STATES[i % 4];
    r->priority = (int64_t)((i * 37) % 100);
    r->score = (double)(i % 400) / 4.0 + 0.125;
    r->done = i % 3 == 0;
}

/* A growable text buffer. */
typedef struct text_buf {
    char *p;
    size_t len;
    size_t cap;
} text_buf;

static int buf_reserve(text_buf *b, size_t more)
{
    if (b->cap - b->len >= more)
        return 0;
    size_t cap = b->cap != 0 ? b->cap : 4096;
    while (cap - b->len < more)
        cap *= 2;
    char *p = realloc(b->p, cap);
    if (p == NULL)
        return oom();
    b->p = p;
    b->cap = cap;
    return 0;
}

static int buf_putc(text_buf *b, char c)
{
    if (buf_reserve(b, 2) != 0)
        return -1;
    b->p[b->len++] = c;
    b->p[b->len] = '\0';
    return 0;
}

/* Appends row i as a JSON object, members in the same order as the
 * baselines' columns. */
static int buf_row(text_buf *b, size_t i)
{
    bench_row r;
    row_make(&r, i);
    if (buf_reserve(b, ROW_JSON_MAX) != 0)
        return -1;
    int n = snprintf(b->p + b->len, ROW_JSON_MAX,
                     "{\"id\":\"%s\",\"state\":\"%s\",\"title\":\"%s\","
                     "\"priority\":%" PRId64 ",\"score\":%.17g,"
                     "\"done\":%s}",
                     r.id, r.state, r.title, r.priority, r.score,
                     r.done ? "true" : "false");
    if (n < 0 || n >= ROW_JSON_MAX) {
        fprintf(stderr, "bench_insert: error: row %zu too long\n", i);
        return -1;
    }
    b->len += (size_t)n;
    return 0;
}

/* Appends rows first .. first + n - 1 as one JSON array. */
static int buf_batch(text_buf *b, size_t first, size_t n)
{
    if (buf_putc(b, '[') != 0)
        return -1;
    for (size_t j = 0; j < n; j++) {
        if (j > 0 && buf_putc(b, ',') != 0)
            return -1;
        if (buf_row(b, first + j) != 0)
            return -1;
    }
    return buf_putc(b, ']');
}

/* JSON texts back to back: item k is text[start[k] .. start[k + 1]). */
typedef struct json_items {
    char *text;
    size_t *start;
    size_t count;
} json_items;

static void items_free(json_items *it)
{
    free(it->text);
    free(it->start);
    memset(it, 0, sizeof *it);
}

/* Rows 1..nrows as JSON: arrays of `per_item` rows, or (per_item == 0)
 * one object per item. */
static int items_build(json_items *it, size_t nrows, size_t per_item)
{
    text_buf b = { NULL, 0, 0 };
    size_t step = per_item != 0 ? per_item : 1;
    memset(it, 0, sizeof *it);
    it->count = (nrows + step - 1) / step;
    it->start = malloc((it->count + 1) * sizeof *it->start);
    if (it->start == NULL || buf_reserve(&b, nrows * 140) != 0)
        goto fail;
    for (size_t k = 0; k < it->count; k++) {
        size_t first = k * step + 1;
        size_t n = nrows - k * step < step ? nrows - k * step : step;
        it->start[k] = b.len;
        if ((per_item != 0 ? buf_batch(&b, first, n)
                           : buf_row(&b, first)) != 0)
            goto fail;
    }
    it->start[it->count] = b.len;
    it->text = b.p;
    return 0;
fail:
    free(b.p);
    items_free(it);
    return -1;
}

static bench_row *rows_build(size_t nrows)
{
    bench_row *rows = malloc(nrows * sizeof *rows);
    if (rows == NULL) {
        oom();
        return NULL;
    }
    for (size_t i = 0; i < nrows; i++)
        row_make(&rows[i], i + 1);
    return rows;
}

/* ------------------------------------------------------------------ */
/* Raw SQLite                                                           */

/*
 * The baselines' database: the shape of Pier's physical board table (a
 * rowid table, id the TEXT PRIMARY KEY, updated_at integer microseconds,
 * user columns ANY) and, for the same-work baseline, the shape of Pier's
 * change log.
 */
static const char RAW_TABLE[] =
    "CREATE TABLE t(id TEXT PRIMARY KEY NOT NULL, updated_at INTEGER NOT "
    "NULL, state TEXT, title ANY, priority ANY, score ANY, done ANY) "
    "STRICT";
static const char RAW_CHANGES[] =
    "CREATE TABLE changes(watermark INTEGER PRIMARY KEY AUTOINCREMENT, "
    "board TEXT NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL, "
    "committed_at INTEGER NOT NULL) STRICT";
static const char RAW_INSERT[] =
    "INSERT INTO t(id, updated_at, state, title, priority, score, done) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
static const char RAW_CHANGE[] =
    "INSERT INTO changes(board, kind, payload, committed_at) "
    "VALUES (?1, ?2, ?3, ?4)";

/* The user columns in the order of RAW_INSERT's parameters ?3 .. ?7. */
static const char *const RAW_COLUMNS[] = { "state", "title", "priority",
                                           "score", "done" };
#define RAW_NCOLUMNS (sizeof RAW_COLUMNS / sizeof RAW_COLUMNS[0])

typedef struct raw_db {
    sqlite3 *db;
    sqlite3_stmt *begin;
    sqlite3_stmt *commit;
    sqlite3_stmt *insert;
    sqlite3_stmt *change;      /* NULL without the change log */
} raw_db;

static int raw_exec(raw_db *r, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(r->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        fprintf(stderr, "bench_insert: error: sqlite: %s: %s\n", sql,
                msg != NULL ? msg : "?");
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

static int raw_prepare(raw_db *r, sqlite3_stmt **st, const char *sql)
{
    if (sqlite3_prepare_v3(r->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st,
                           NULL) != SQLITE_OK)
        return sql_fail(r->db, sql);
    return 0;
}

/* Steps a statement that returns no row, and resets it. */
static int raw_step(raw_db *r, sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return sql_fail(r->db, sqlite3_sql(st));
    return 0;
}

static void raw_close(raw_db *r)
{
    sqlite3_finalize(r->begin);
    sqlite3_finalize(r->commit);
    sqlite3_finalize(r->insert);
    sqlite3_finalize(r->change);
    if (r->db != NULL && sqlite3_close(r->db) != SQLITE_OK)
        sql_fail(r->db, "close");
    memset(r, 0, sizeof *r);
}

/* Opens dir/raw.sqlite as Pier opens a lake with durability full: WAL,
 * synchronous=FULL (every commit syncs the WAL), no connection mutex (one
 * thread uses it), default page and cache sizes. */
static int raw_open(raw_db *r, const char *dir, bool with_changes)
{
    char path[4096];
    sqlite3_stmt *st = NULL;
    memset(r, 0, sizeof *r);
    snprintf(path, sizeof path, "%s/raw.sqlite", dir);
    if (sqlite3_open_v2(path, &r->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                            SQLITE_OPEN_NOMUTEX,
                        NULL) != SQLITE_OK) {
        sql_fail(r->db, path);
        goto fail;
    }
    /* journal_mode answers with the mode it got: make sure it is WAL. */
    if (raw_prepare(r, &st, "PRAGMA journal_mode=WAL") != 0)
        goto fail;
    const char *mode = sqlite3_step(st) == SQLITE_ROW
                           ? (const char *)sqlite3_column_text(st, 0)
                           : NULL;
    if (mode == NULL || strcmp(mode, "wal") != 0) {
        fprintf(stderr, "bench_insert: error: sqlite: no WAL mode\n");
        goto fail;
    }
    sqlite3_finalize(st);
    st = NULL;
    if (raw_exec(r, "PRAGMA synchronous=FULL") != 0 ||
        raw_exec(r, RAW_TABLE) != 0 ||
        (with_changes && raw_exec(r, RAW_CHANGES) != 0))
        goto fail;
    if (raw_prepare(r, &r->begin, "BEGIN") != 0 ||
        raw_prepare(r, &r->commit, "COMMIT") != 0 ||
        raw_prepare(r, &r->insert, RAW_INSERT) != 0 ||
        (with_changes && raw_prepare(r, &r->change, RAW_CHANGE) != 0))
        goto fail;
    return 0;
fail:
    sqlite3_finalize(st);
    raw_close(r);
    return -1;
}

/* Binds a row's C values to RAW_INSERT. The strings outlive the step. */
static int bind_row(sqlite3_stmt *st, const bench_row *row, int64_t now)
{
    int rc = sqlite3_bind_text(st, 1, row->id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(st, 2, now);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 3, row->state, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 4, row->title, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(st, 5, row->priority);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_double(st, 6, row->score);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int(st, 7, row->done ? 1 : 0);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Measurement 1: batched inserts                                       */

static int pier_open_board(pier_engine **e, const char *dir,
                           const pier_open_options *opts)
{
    pier_error err;
    memset(&err, 0, sizeof err);
    if (pier_open(e, dir, opts, &err) != PIER_OK)
        return pier_fail(&err, "pier_open");
    /* The board exists before the clock starts, as the baselines' table
     * does; its user columns are still inferred by the first write. */
    if (pier_board_create(NULL, *e, BOARD, NULL, &err) != PIER_OK)
        return pier_fail(&err, "pier_board_create");
    return 0;
}

static int pier_check_count(pier_engine *e, size_t nrows)
{
    pier_error err;
    int64_t n = 0;
    memset(&err, 0, sizeof err);
    if (pier_row_count(&n, e, BOARD, &err) != PIER_OK)
        return pier_fail(&err, "pier_row_count");
    if (n != (int64_t)nrows) {
        fprintf(stderr, "bench_insert: error: board '%s' holds %" PRId64
                " rows, expected %zu\n", BOARD, n, nrows);
        return -1;
    }
    return 0;
}

/* pier_insert_json of every item into a fresh lake (default options:
 * durability full). Used by measurements 1 and 2. */
static int run_pier_items(double *rate, const bench_config *cfg,
                          const json_items *items, size_t nrows)
{
    char dir[4096];
    pier_engine *e = NULL;
    pier_error err;
    int rc = -1;
    memset(&err, 0, sizeof err);
    if (bench_tmpdir_make(PROG, cfg->parent, "pier", dir, sizeof dir) != 0)
        return -1;
    if (pier_open_board(&e, dir, NULL) != 0)
        goto done;
    double t0 = now_s();
    for (size_t k = 0; k < items->count; k++) {
        int64_t wm = 0;
        if (pier_insert_json(&wm, e, BOARD, items->text + items->start[k],
                             items->start[k + 1] - items->start[k],
                             &err) != PIER_OK) {
            pier_fail(&err, "pier_insert_json");
            goto done;
        }
    }
    double t1 = now_s();
    if (pier_check_count(e, nrows) != 0)
        goto done;
    *rate = (double)nrows / (t1 - t0);
    rc = 0;
done:
    pier_close(&e);
    if (bench_tmpdir_remove(PROG, dir) != 0)
        rc = -1;
    return rc;
}

/* (a) bare: the same values from C variables, one transaction per batch
 * (batch == 1: one per row, for measurement 2). */
static int run_raw_bare(double *rate, const bench_config *cfg,
                        const bench_row *rows, size_t nrows, size_t batch)
{
    char dir[4096];
    raw_db r;
    int rc = -1;
    if (bench_tmpdir_make(PROG, cfg->parent, "raw", dir, sizeof dir) != 0)
        return -1;
    if (raw_open(&r, dir, false) != 0)
        goto done;
    double t0 = now_s();
    for (size_t i = 0; i < nrows; i += batch) {
        size_t end = i + batch < nrows ? i + batch : nrows;
        if (raw_step(&r, r.begin) != 0)
            goto done;
        int64_t now = wall_us();
        for (size_t j = i; j < end; j++) {
            if (bind_row(r.insert, &rows[j], now) != SQLITE_OK) {
                sql_fail(r.db, "bind");
                goto done;
            }
            if (raw_step(&r, r.insert) != 0)
                goto done;
        }
        if (raw_step(&r, r.commit) != 0)
            goto done;
    }
    double t1 = now_s();
    *rate = (double)nrows / (t1 - t0);
    rc = 0;
done:
    raw_close(&r);
    if (bench_tmpdir_remove(PROG, dir) != 0)
        rc = -1;
    return rc;
}

/* Inserts one parsed batch and its change-log row: the body of one
 * same-work transaction. */
static int raw_same_batch(raw_db *r, json_t *arr)
{
    int64_t now = wall_us();
    size_t k;
    json_t *row;
    json_array_foreach(arr, k, row) {
        const json_t *id = json_object_get(row, "id");
        int rc = json_is_string(id) ? SQLITE_OK : SQLITE_MISMATCH;
        if (rc == SQLITE_OK)
            rc = bench_bind_json(r->insert, 1, id);
        if (rc == SQLITE_OK)
            rc = sqlite3_bind_int64(r->insert, 2, now);
        for (size_t c = 0; c < RAW_NCOLUMNS && rc == SQLITE_OK; c++)
            rc = bench_bind_json(r->insert, (int)c + 3,
                           json_object_get(row, RAW_COLUMNS[c]));
        if (rc != SQLITE_OK)
            return sql_fail(r->db, "bind");
        if (raw_step(r, r->insert) != 0)
            return -1;
    }
    /* The change record: the batch re-serialized, {"rows":[...]}. */
    json_t *doc = json_object();
    if (doc == NULL || json_object_set(doc, "rows", arr) != 0) {
        json_decref(doc);
        return oom();
    }
    char *payload = json_dumps(doc, JSON_COMPACT);
    json_decref(doc);
    if (payload == NULL)
        return oom();
    int rc = sqlite3_bind_text(r->change, 1, BOARD, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(r->change, 2, "insert", -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(r->change, 3, payload, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(r->change, 4, now);
    int out = rc == SQLITE_OK ? raw_step(r, r->change) : sql_fail(r->db,
                                                                  "bind");
    /* The statement must not keep a pointer to the freed payload. */
    sqlite3_clear_bindings(r->change);
    free(payload);
    return out;
}

/* (b) same work: parse each batch's JSON with jansson, bind, insert, stamp
 * updated_at, append one change-log row; one transaction per batch. */
static int run_raw_same(double *rate, const bench_config *cfg,
                        const json_items *items, size_t nrows)
{
    char dir[4096];
    raw_db r;
    int rc = -1;
    if (bench_tmpdir_make(PROG, cfg->parent, "raw", dir, sizeof dir) != 0)
        return -1;
    if (raw_open(&r, dir, true) != 0)
        goto done;
    double t0 = now_s();
    for (size_t k = 0; k < items->count; k++) {
        json_error_t jerr;
        json_t *arr = json_loadb(items->text + items->start[k],
                                 items->start[k + 1] - items->start[k], 0,
                                 &jerr);
        if (!json_is_array(arr)) {
            fprintf(stderr, "bench_insert: error: jansson: %s\n",
                    arr == NULL ? jerr.text : "batch is not an array");
            json_decref(arr);
            goto done;
        }
        int brc = raw_step(&r, r.begin);
        if (brc == 0)
            brc = raw_same_batch(&r, arr);
        /* The bound strings belong to `arr`: unbind before freeing it. */
        sqlite3_clear_bindings(r.insert);
        json_decref(arr);
        if (brc != 0 || raw_step(&r, r.commit) != 0)
            goto done;
    }
    double t1 = now_s();
    *rate = (double)nrows / (t1 - t0);
    rc = 0;
done:
    raw_close(&r);
    if (bench_tmpdir_remove(PROG, dir) != 0)
        rc = -1;
    return rc;
}

static int measure_batched(const bench_config *cfg, bench_results *res)
{
    json_items items;
    bench_row *rows = rows_build(cfg->batched_rows);
    int rc = -1;
    if (rows == NULL)
        return -1;
    if (items_build(&items, cfg->batched_rows, cfg->batch_size) != 0) {
        free(rows);
        return -1;
    }
    for (int run = 0; run < cfg->runs_batched; run++) {
        double *p = &res->batched_pier[run];
        double *a = &res->batched_bare[run];
        double *b = &res->batched_same[run];
        /* Even runs: Pier, bare, same work; odd runs the reverse. */
        if (run % 2 == 0) {
            if (run_pier_items(p, cfg, &items, cfg->batched_rows) != 0 ||
                run_raw_bare(a, cfg, rows, cfg->batched_rows,
                             cfg->batch_size) != 0 ||
                run_raw_same(b, cfg, &items, cfg->batched_rows) != 0)
                goto done;
        } else {
            if (run_raw_same(b, cfg, &items, cfg->batched_rows) != 0 ||
                run_raw_bare(a, cfg, rows, cfg->batched_rows,
                             cfg->batch_size) != 0 ||
                run_pier_items(p, cfg, &items, cfg->batched_rows) != 0)
                goto done;
        }
        res->batched_ratio_bare[run] = *p / *a;
        res->batched_ratio_same[run] = *p / *b;
        fprintf(stderr, "batched run %d/%d: pier %.0f rows/s, bare %.0f "
                "(x%.2f), same work %.0f (x%.2f)\n", run + 1,
                cfg->runs_batched, *p, *a, res->batched_ratio_bare[run], *b,
                res->batched_ratio_same[run]);
    }
    rc = 0;
done:
    items_free(&items);
    free(rows);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Measurement 2: single-row durable inserts                            */

static int measure_single(const bench_config *cfg, bench_results *res)
{
    json_items items;
    bench_row *rows = rows_build(cfg->single_rows);
    int rc = -1;
    if (rows == NULL)
        return -1;
    if (items_build(&items, cfg->single_rows, 0) != 0) {
        free(rows);
        return -1;
    }
    for (int run = 0; run < cfg->runs_single; run++) {
        double *p = &res->single_pier[run];
        double *a = &res->single_bare[run];
        if (run % 2 == 0) {
            if (run_pier_items(p, cfg, &items, cfg->single_rows) != 0 ||
                run_raw_bare(a, cfg, rows, cfg->single_rows, 1) != 0)
                goto done;
        } else {
            if (run_raw_bare(a, cfg, rows, cfg->single_rows, 1) != 0 ||
                run_pier_items(p, cfg, &items, cfg->single_rows) != 0)
                goto done;
        }
        res->single_ratio_bare[run] = *p / *a;
        fprintf(stderr, "single-row run %d/%d: pier %.0f rows/s, bare %.0f "
                "(x%.2f)\n", run + 1, cfg->runs_single, *p, *a,
                res->single_ratio_bare[run]);
    }
    rc = 0;
done:
    items_free(&items);
    free(rows);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Measurement 3: numeric widening                                      */

/* A lake in `dir` with `nrows` rows on BOARD, filled fast (durability
 * normal, big batches); priority must come out bigint. */
static int widen_fill(pier_engine **e, const char *dir,
                      const bench_config *cfg, size_t nrows)
{
    pier_open_options opts = PIER_OPEN_OPTIONS_INIT;
    pier_error err;
    pier_board_info *info = NULL;
    text_buf b = { NULL, 0, 0 };
    int rc = -1;
    memset(&err, 0, sizeof err);
    opts.durability = PIER_DURABILITY_NORMAL;
    if (pier_open_board(e, dir, &opts) != 0)
        return -1;
    for (size_t i = 0; i < nrows; i += cfg->fill_batch) {
        size_t n = nrows - i < cfg->fill_batch ? nrows - i : cfg->fill_batch;
        b.len = 0;
        if (buf_batch(&b, i + 1, n) != 0)
            goto done;
        if (pier_insert_json(NULL, *e, BOARD, b.p, b.len, &err) != PIER_OK) {
            pier_fail(&err, "pier_insert_json (fill)");
            goto done;
        }
    }
    if (pier_check_count(*e, nrows) != 0)
        goto done;
    /* The large fill leaves the WAL for the next write to tidy up: every
     * other 10,000-row commit crosses SQLite's auto-checkpoint threshold
     * (1,000 pages), and the first write after a checkpoint restarts the
     * WAL and syncs its header (about 1.4 ms here; 0.05 ms is the
     * widening itself). The small lake never reaches the threshold. So
     * the engine is closed (which checkpoints and removes the WAL) and
     * reopened, and one untimed write on another board creates a fresh
     * WAL; that board's bigint column lets widen_time() warm up the
     * widening path. */
    pier_close(e);
    if (pier_open(e, dir, &opts, &err) != PIER_OK) {
        pier_fail(&err, "pier_open (reopen)");
        goto done;
    }
    if (pier_insert_json(NULL, *e, WARMUP_BOARD, WARMUP_ROW,
                         strlen(WARMUP_ROW), &err) != PIER_OK) {
        pier_fail(&err, "pier_insert_json (warm-up)");
        goto done;
    }
    if (pier_board_describe(&info, *e, BOARD, &err) != PIER_OK) {
        pier_fail(&err, "pier_board_describe");
        goto done;
    }
    for (size_t c = 0; c < info->ncolumns; c++) {
        if (strcmp(info->columns[c].name, "priority") != 0)
            continue;
        if (strcmp(info->columns[c].type, "bigint") != 0) {
            fprintf(stderr, "bench_insert: error: column priority was "
                    "inferred as %s, expected bigint\n",
                    info->columns[c].type);
            goto done;
        }
        rc = 0;
    }
    if (rc != 0)
        fprintf(stderr, "bench_insert: error: no column priority\n");
done:
    pier_board_info_free(info);
    free(b.p);
    return rc;
}

/* Times widening BOARD.priority to `type`, right after the same widening
 * of WARMUP_BOARD.n, untimed. Without that warm-up, whichever board was
 * widened first in a run took about twice as long as the other (cold
 * caches on a fresh path), which hid any effect of the row count. */
static int widen_time(double *secs, pier_engine *e, const char *type)
{
    pier_error err;
    int64_t wm = 0;
    memset(&err, 0, sizeof err);
    if (pier_board_widen_column(&wm, e, WARMUP_BOARD, "n", type, &err) !=
        PIER_OK)
        return pier_fail(&err, "pier_board_widen_column (warm-up)");
    double t0 = now_s();
    pier_status st = pier_board_widen_column(&wm, e, BOARD, "priority", type,
                                             &err);
    double t1 = now_s();
    if (st != PIER_OK)
        return pier_fail(&err, "pier_board_widen_column");
    *secs = t1 - t0;
    return 0;
}

static int widen_run(const bench_config *cfg, bench_results *res, int run)
{
    char small_dir[4096], large_dir[4096];
    pier_engine *small = NULL, *large = NULL;
    int rc = -1;
    bool have_small = false, have_large = false;
    if (bench_tmpdir_make(PROG, cfg->parent,
                          "widen", small_dir, sizeof small_dir) != 0)
        goto done;
    have_small = true;
    if (bench_tmpdir_make(PROG, cfg->parent,
                          "widen", large_dir, sizeof large_dir) != 0)
        goto done;
    have_large = true;
    if (widen_fill(&small, small_dir, cfg, cfg->widen_small) != 0 ||
        widen_fill(&large, large_dir, cfg, cfg->widen_large) != 0)
        goto done;
    double *s = &res->widen_small_s[run], *l = &res->widen_large_s[run];
    if (run % 2 == 0) {
        if (widen_time(s, small, "double") != 0 ||
            widen_time(l, large, "double") != 0)
            goto done;
    } else {
        if (widen_time(l, large, "double") != 0 ||
            widen_time(s, small, "double") != 0)
            goto done;
    }
    /* For contrast: widening to text rewrites every row. */
    if (widen_time(&res->widen_text_s[run], small, "text") != 0)
        goto done;
    res->widen_ratio[run] = *l / *s;
    fprintf(stderr, "widen run %d/%d: %zu rows %.3f ms, %zu rows %.3f ms "
            "(x%.2f); text on %zu rows %.3f ms\n", run + 1, cfg->runs_widen,
            cfg->widen_small, *s * 1e3, cfg->widen_large, *l * 1e3,
            res->widen_ratio[run], cfg->widen_small,
            res->widen_text_s[run] * 1e3);
    rc = 0;
done:
    pier_close(&small);
    pier_close(&large);
    if (have_small && bench_tmpdir_remove(PROG, small_dir) != 0)
        rc = -1;
    if (have_large && bench_tmpdir_remove(PROG, large_dir) != 0)
        rc = -1;
    return rc;
}

static int measure_widen(const bench_config *cfg, bench_results *res)
{
    for (int run = 0; run < cfg->runs_widen; run++)
        if (widen_run(cfg, res, run) != 0)
            return -1;
    return 0;
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

static const char *verdict(double ratio, double target)
{
    return ratio >= target ? "met" : "MISSED";
}

/* One line of the table: label, figure, and optionally ratio, target and
 * verdict. Fits 80 columns. */
#define ROW_FMT "   %-34s %10s"
#define RATIO_FMT " %8.2f %8s  %s\n"

static void report_table(const bench_config *cfg, const bench_results *res,
                         const struct utsname *un, long cores)
{
    char g1[32], g2[64], date[32];
    printf("Pier %s insert benchmark%s, %s\n", pier_version(),
           cfg->quick ? " --quick" : "", utc_date(date, sizeof date));
    printf("%s, %ld cores, SQLite %s, directories under %s\n",
           un->machine, cores, sqlite3_libversion(), cfg->parent);
    printf("medians of %d runs (batched), %d (single-row), %d (widening)"
           "\n\n", cfg->runs_batched, cfg->runs_single, cfg->runs_widen);

    if (cfg->only & ONLY_BATCHED) {
        int n = cfg->runs_batched;
        double rb = median(res->batched_ratio_bare, n);
        double rs = median(res->batched_ratio_same, n);
        printf("1. Batched inserts: %s rows of JSON, %s per batch, "
               "durability full\n",
               group(g1, sizeof g1, (double)cfg->batched_rows),
               group(g2, sizeof g2, (double)cfg->batch_size));
        printf(ROW_FMT " %8s %8s\n", "", "rows/s", "Pier/x", "target");
        printf(ROW_FMT "\n", "Pier (pier_insert_json)",
               group(g1, sizeof g1, median(res->batched_pier, n)));
        printf(ROW_FMT RATIO_FMT, "raw SQLite, bare (C values)",
               group(g1, sizeof g1, median(res->batched_bare, n)), rb,
               ">= 0.40", verdict(rb, TARGET_BATCH_BARE));
        printf(ROW_FMT RATIO_FMT "\n", "raw SQLite, same work",
               group(g1, sizeof g1, median(res->batched_same, n)), rs,
               ">= 0.80", verdict(rs, TARGET_BATCH_SAME));
    }
    if (cfg->only & ONLY_SINGLE) {
        int n = cfg->runs_single;
        double rb = median(res->single_ratio_bare, n);
        printf("2. Single-row durable inserts: %s rows, one write each\n",
               group(g1, sizeof g1, (double)cfg->single_rows));
        printf(ROW_FMT " %8s %8s\n", "", "rows/s", "Pier/x", "target");
        printf(ROW_FMT "\n", "Pier (pier_insert_json)",
               group(g1, sizeof g1, median(res->single_pier, n)));
        printf(ROW_FMT RATIO_FMT "\n", "raw SQLite, bare (one txn per row)",
               group(g1, sizeof g1, median(res->single_bare, n)), rb,
               ">= 0.80", verdict(rb, TARGET_SINGLE_BARE));
    }
    if (cfg->only & ONLY_WIDEN) {
        int n = cfg->runs_widen;
        double r = median(res->widen_ratio, n);
        char t1[32], t2[32], t3[32];
        snprintf(t1, sizeof t1, "%.3f", 1e3 * median(res->widen_small_s, n));
        snprintf(t2, sizeof t2, "%.3f", 1e3 * median(res->widen_large_s, n));
        snprintf(t3, sizeof t3, "%.3f", 1e3 * median(res->widen_text_s, n));
        printf("3. Widening column priority from bigint to double\n");
        printf(ROW_FMT " %8s %8s\n", "", "ms", "ratio", "target");
        snprintf(g2, sizeof g2, "board of %s rows",
                 group(g1, sizeof g1, (double)cfg->widen_small));
        printf(ROW_FMT "\n", g2, t1);
        snprintf(g2, sizeof g2, "board of %s rows",
                 group(g1, sizeof g1, (double)cfg->widen_large));
        printf(ROW_FMT RATIO_FMT, g2, t2, r, "~1 (<2)",
               r < TARGET_WIDEN_FLAT ? "met" : "MISSED");
        snprintf(g2, sizeof g2, "then to text, %s rows",
                 group(g1, sizeof g1, (double)cfg->widen_small));
        printf(ROW_FMT "  (rewrites every row)\n", g2, t3);
    }
}

/* Adds "name": [per-run values, times `scale`] to obj. */
static void json_series(json_t *obj, const char *name, const double *v,
                        int n, double scale)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_real(v[i] * scale));
    json_object_set_new(obj, name, a);
}

static int report_json(const bench_config *cfg, const bench_results *res,
                       const struct utsname *un, long cores)
{
    char date[32];
    json_t *root = json_pack("{s:s, s:s, s:s, s:s, s:I, s:b, s:s}",
                             "date", utc_date(date, sizeof date),
                             "pier_version", pier_version(),
                             "sqlite_version", sqlite3_libversion(),
                             "machine", un->machine,
                             "cores", (json_int_t)cores,
                             "quick", cfg->quick, "dir", cfg->parent);
    if (root == NULL)
        return oom();
    if (cfg->only & ONLY_BATCHED) {
        int n = cfg->runs_batched;
        json_t *m = json_pack(
            "{s:I, s:I, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
            "rows", (json_int_t)cfg->batched_rows,
            "batch_rows", (json_int_t)cfg->batch_size, "runs", n,
            "pier_rows_per_s", median(res->batched_pier, n),
            "bare_rows_per_s", median(res->batched_bare, n),
            "same_work_rows_per_s", median(res->batched_same, n),
            "ratio_bare", median(res->batched_ratio_bare, n),
            "ratio_same_work", median(res->batched_ratio_same, n),
            "target_ratio_bare", TARGET_BATCH_BARE,
            "target_ratio_same_work", TARGET_BATCH_SAME);
        if (m == NULL)
            goto fail;
        json_series(m, "per_run_pier", res->batched_pier, n, 1.0);
        json_series(m, "per_run_bare", res->batched_bare, n, 1.0);
        json_series(m, "per_run_same_work", res->batched_same, n, 1.0);
        json_object_set_new(root, "batched", m);
    }
    if (cfg->only & ONLY_SINGLE) {
        int n = cfg->runs_single;
        json_t *m = json_pack("{s:I, s:i, s:f, s:f, s:f, s:f}",
                              "rows", (json_int_t)cfg->single_rows,
                              "runs", n,
                              "pier_rows_per_s", median(res->single_pier, n),
                              "bare_rows_per_s", median(res->single_bare, n),
                              "ratio_bare",
                              median(res->single_ratio_bare, n),
                              "target_ratio_bare", TARGET_SINGLE_BARE);
        if (m == NULL)
            goto fail;
        json_series(m, "per_run_pier", res->single_pier, n, 1.0);
        json_series(m, "per_run_bare", res->single_bare, n, 1.0);
        json_object_set_new(root, "single", m);
    }
    if (cfg->only & ONLY_WIDEN) {
        int n = cfg->runs_widen;
        json_t *m = json_pack("{s:I, s:I, s:i, s:f, s:f, s:f, s:f, s:f}",
                              "small_rows", (json_int_t)cfg->widen_small,
                              "large_rows", (json_int_t)cfg->widen_large,
                              "runs", n,
                              "small_double_ms",
                              1e3 * median(res->widen_small_s, n),
                              "large_double_ms",
                              1e3 * median(res->widen_large_s, n),
                              "ratio_large_small",
                              median(res->widen_ratio, n),
                              "small_text_ms",
                              1e3 * median(res->widen_text_s, n),
                              "target_ratio_max", TARGET_WIDEN_FLAT);
        if (m == NULL)
            goto fail;
        json_series(m, "per_run_small_double_ms", res->widen_small_s, n,
                    1e3);
        json_series(m, "per_run_large_double_ms", res->widen_large_s, n,
                    1e3);
        json_series(m, "per_run_small_text_ms", res->widen_text_s, n, 1e3);
        json_object_set_new(root, "widen", m);
    }
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
    json_decref(root);
    if (s == NULL)
        return oom();
    puts(s);
    free(s);
    return 0;
fail:
    json_decref(root);
    return oom();
}

/* ------------------------------------------------------------------ */
/* Command line                                                         */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: bench_insert [--runs N] [--quick] [--json] [--dir DIR]\n"
            "                    [--only batched|single|widen]...\n"
            "  --runs N   repeat each measurement N times (default: 5 for\n"
            "             batched and widen, 3 for single-row)\n"
            "  --quick    divide every row count by 10 (a smoke run)\n"
            "  --json     print one JSON object instead of the table\n"
            "  --dir DIR  make the temporary directories in DIR (default:\n"
            "             $TMPDIR or /tmp); durable figures depend on its\n"
            "             file system\n"
            "  --only M   run only measurement M (repeatable)\n"
            "Progress goes to stderr. See docs/benchmarks.md.\n");
}

/* The names of --only, in the order of the ONLY_* bits. */
static const char *const measurements[] = {
    "batched", "single", "widen", NULL,
};

/* 0: run; 1: --help done; 2: usage error. */
static int parse_args(bench_config *cfg, int argc, char **argv)
{
    memset(cfg, 0, sizeof *cfg);
    bench_args a = { .prog = PROG, .usage = usage, .max_runs = MAX_RUNS,
                     .takes_json = true, .cfg = cfg,
                     .measurements = measurements,
                     .only_bits = &cfg->only };
    int rc = bench_parse_args(&a, argc, argv);
    if (rc != 0)
        return rc;
    int runs = a.runs;
    cfg->quick = a.quick;
    cfg->json = a.json;
    cfg->parent = a.parent;
    if (cfg->only == 0)
        cfg->only = ONLY_ALL;
    cfg->runs_batched = runs != 0 ? runs : 5;
    cfg->runs_single = runs != 0 ? runs : 3;
    cfg->runs_widen = runs != 0 ? runs : 5;
    size_t div = cfg->quick ? 10 : 1;
    cfg->batched_rows = 100000 / div;
    cfg->batch_size = 1000;
    cfg->single_rows = 10000 / div;
    cfg->widen_small = 1000 / div;
    cfg->widen_large = 1000000 / div;
    cfg->fill_batch = 10000;
    return 0;
}

int main(int argc, char **argv)
{
    bench_config cfg;
    struct utsname un;
    int rc = parse_args(&cfg, argc, argv);
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    if (uname(&un) != 0)
        strcpy(un.machine, "unknown");
    long cores = sysconf(_SC_NPROCESSORS_ONLN);

    /* Static so that the per-run arrays stay off the stack. */
    static bench_results res;
    if ((cfg.only & ONLY_BATCHED) && measure_batched(&cfg, &res) != 0)
        return 1;
    if ((cfg.only & ONLY_SINGLE) && measure_single(&cfg, &res) != 0)
        return 1;
    if ((cfg.only & ONLY_WIDEN) && measure_widen(&cfg, &res) != 0)
        return 1;
    if (cfg.json)
        return report_json(&cfg, &res, &un, cores) == 0 ? 0 : 1;
    report_table(&cfg, &res, &un, cores);
    return 0;
}
