/*
 * bench_writes.c: Pier's updates, upserts and deletes, against raw SQLite.
 *
 * For each write kind, on a board pre-filled (untimed) with 50,000 rows:
 *   update:  a patch of two columns, {"priority":N,"state":"done"};
 *   upsert:  complete rows, each replacing the stored row of its id;
 *   delete:  by id;
 * two measurements, each repeated and reported as medians
 * (docs/benchmarks.md says what each figure means and how to run it):
 *   single:  5,000 rows spread over the board, one call per row,
 *            durability full (pier_update_json, pier_upsert_json of one
 *            object, pier_delete);
 *   batched: all 50,000 rows, 1,000 per call (pier_update_many_json,
 *            pier_upsert_json of an array, pier_delete_many).
 * Each is set against two raw SQLite baselines in the same run, one
 * transaction per call in both:
 *   (a) same work: what Pier has to do, by hand with the libraries Pier
 *       uses: parse the JSON text with jansson, write the row, and append
 *       the change-log rows Pier appends (one per patch for updates, one
 *       per call for upserts and deletes). Target: Pier >= 0.8 x this.
 *   (b) bare: the row writes alone, from C values. No target.
 *
 * Every lake and raw database lives in its own fresh temporary directory,
 * removed afterwards. Filling the board, building the JSON text and the C
 * values, opening and closing happen outside the timed part; after the fill
 * each side closes and reopens, so that every side starts with an empty
 * write-ahead log. Within a run the three sides are open together and take
 * turns in fifty slices of the calls, the side going first rotating, so
 * that a slow spell of a shared disk hits them alike; each side's time is
 * the sum of its slices. Only the public API (pier.h) is used. Targets are
 * printed beside the figures, never enforced: the exit status is 0 unless
 * something failed (1) or the command line is wrong (2).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
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

/* ------------------------------------------------------------------ */
/* Configuration                                                        */

#define PROG "bench_writes"
#define BOARD "tasks"
/* Room for the median of --runs. */
#define MAX_RUNS 100
/* A row of the benchmark is at most about 140 bytes of JSON. */
#define ROW_JSON_MAX 256
/* Pier / same-work baseline, rows/s, for every kind and mode. */
#define TARGET_SAME 0.8

enum { K_UPDATE, K_UPSERT, K_DELETE, NKINDS };
enum { M_SINGLE, M_BATCHED, NMODES };
enum { S_PIER, S_SAME, S_BARE, NSIDES };

static const char *const KIND_NAMES[NKINDS] = { "update", "upsert",
                                                "delete" };
static const char *const MODE_NAMES[NMODES] = { "single", "batched" };
static const char *const SIDE_NAMES[NSIDES] = { "pier", "same", "bare" };
static const char *const PIER_CALLS[NKINDS][NMODES] = {
    { "pier_update_json", "pier_update_many_json" },
    { "pier_upsert_json", "pier_upsert_json" },
    { "pier_delete", "pier_delete_many" },
};

typedef struct bench_config {
    int runs[NMODES];          /* repetitions: 3 single, 5 batched */
    bool quick;                /* row counts divided by 10 */
    bool json;                 /* one JSON object on stdout, no table */
    unsigned kinds;            /* bit k: run kind k */
    unsigned modes;            /* bit m: run mode m */
    const char *parent;        /* temporary directories go here */
    size_t board_rows;         /* 50,000 rows filled before timing */
    size_t rows[NMODES];       /* rows written: 5,000 single, 50,000
                                  batched */
    size_t batch_size;         /* 1,000 rows per batched call */
    size_t fill_batch;         /* 10,000 rows per call when filling */
} bench_config;

/* Rows per second of each side, and Pier's ratios, per run. */
typedef struct bench_results {
    double rate[NKINDS][NMODES][NSIDES][MAX_RUNS];
    double ratio_same[NKINDS][NMODES][MAX_RUNS];
    double ratio_bare[NKINDS][NMODES][MAX_RUNS];
} bench_results;

/* ------------------------------------------------------------------ */
/* Clocks, errors, statistics (as in bench_insert.c)                    */

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

static int oom(void)
{
    fprintf(stderr, PROG ": error: out of memory\n");
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

/* One row as C values. */
typedef struct bench_row {
    char id[24];            /* "row-0000001" */
    char title[64];
    const char *state;
    int64_t priority;       /* 0..99: inferred bigint */
    double score;           /* k/4 + 1/8: never integral, prints short */
    bool done;
} bench_row;

static const char *const STATES[] = { "open", "active", "blocked",
                                      "closed" };

/* Row i (from 1) as filled (revised false) or as written by the timed
 * upserts and updates (revised true: every value differs). */
static void row_make(bench_row *r, size_t i, bool revised)
{
    size_t v = revised ? i + 1 : i;
    snprintf(r->id, sizeof r->id, "row-%07zu", i);
    snprintf(r->title, sizeof r->title, "Task %zu of the benchmark%s", i,
             revised ? ", revised" : "");
    r->state = STATES[v % 4];
    r->priority = (int64_t)((v * 37) % 100);
    r->score = (double)(v % 400) / 4.0 + 0.125;
    r->done = v % 3 == 0;
}

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

/* Appends printf-formatted text of at most ROW_JSON_MAX - 1 bytes. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int buf_printf(text_buf *b, const char *fmt, ...);

static int buf_printf(text_buf *b, const char *fmt, ...)
{
    if (buf_reserve(b, ROW_JSON_MAX) != 0)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p + b->len, ROW_JSON_MAX, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= ROW_JSON_MAX) {
        fprintf(stderr, PROG ": error: JSON item too long\n");
        return -1;
    }
    b->len += (size_t)n;
    return 0;
}

/* A row as a JSON object, members in the order of the table's columns. */
static int put_row(text_buf *b, const bench_row *r)
{
    return buf_printf(b, "{\"id\":\"%s\",\"state\":\"%s\",\"title\":\"%s\","
                      "\"priority\":%" PRId64 ",\"score\":%.17g,"
                      "\"done\":%s}",
                      r->id, r->state, r->title, r->priority, r->score,
                      r->done ? "true" : "false");
}

/* The patch of the update benchmark: two columns, one of them a base
 * column. */
static int put_patch(text_buf *b, const bench_row *r)
{
    return buf_printf(b, "{\"priority\":%" PRId64 ",\"state\":\"done\"}",
                      r->priority);
}

/* An element of pier_update_many_json's array. */
static int put_patch_item(text_buf *b, const bench_row *r)
{
    if (buf_printf(b, "{\"id\":\"%s\",\"patch\":", r->id) != 0 ||
        put_patch(b, r) != 0)
        return -1;
    return buf_printf(b, "}");
}

typedef int (*put_fn)(text_buf *b, const bench_row *r);

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

/* One item per `per_call` rows of rows[0..nrows): the row alone when
 * per_call is 1, else an array. */
static int items_build(json_items *it, const bench_row *rows, size_t nrows,
                       size_t per_call, put_fn put)
{
    text_buf b = { NULL, 0, 0 };
    memset(it, 0, sizeof *it);
    it->count = (nrows + per_call - 1) / per_call;
    it->start = malloc((it->count + 1) * sizeof *it->start);
    if (it->start == NULL) {
        oom();
        goto fail;
    }
    for (size_t k = 0; k < it->count; k++) {
        size_t first = k * per_call;
        size_t n = nrows - first < per_call ? nrows - first : per_call;
        it->start[k] = b.len;
        for (size_t j = 0; j < n; j++) {
            const char *sep = per_call == 1 ? "" : j == 0 ? "[" : ",";
            if (buf_printf(&b, "%s", sep) != 0 ||
                put(&b, &rows[first + j]) != 0)
                goto fail;
        }
        if (per_call > 1 && buf_printf(&b, "]") != 0)
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

/*
 * What one measurement writes, built before any clock starts: the rows it
 * touches, spread evenly over the board (every row for batched, every
 * tenth for single), with their revised values; their ids as an array for
 * pier_delete_many; one JSON text per call for updates and upserts.
 */
typedef struct work {
    int kind;
    int mode;
    size_t nrows;              /* rows written */
    size_t per_call;           /* 1 or batch_size */
    size_t ncalls;
    bench_row *vals;
    const char **ids;          /* ids[k] == vals[k].id */
    json_items items;          /* empty for deletes */
} work;

static void work_free(work *w)
{
    free(w->vals);
    free(w->ids);
    items_free(&w->items);
    memset(w, 0, sizeof *w);
}

static int work_build(work *w, const bench_config *cfg, int kind, int mode)
{
    memset(w, 0, sizeof *w);
    w->kind = kind;
    w->mode = mode;
    w->nrows = cfg->rows[mode];
    w->per_call = mode == M_SINGLE ? 1 : cfg->batch_size;
    w->ncalls = (w->nrows + w->per_call - 1) / w->per_call;
    w->vals = malloc(w->nrows * sizeof *w->vals);
    w->ids = malloc(w->nrows * sizeof *w->ids);
    if (w->vals == NULL || w->ids == NULL) {
        work_free(w);
        return oom();
    }
    size_t stride = cfg->board_rows / w->nrows;
    for (size_t k = 0; k < w->nrows; k++) {
        row_make(&w->vals[k], 1 + k * stride, true);
        w->ids[k] = w->vals[k].id;
    }
    int rc = 0;
    if (kind == K_UPDATE)
        rc = items_build(&w->items, w->vals, w->nrows, w->per_call,
                         mode == M_SINGLE ? put_patch : put_patch_item);
    else if (kind == K_UPSERT)
        rc = items_build(&w->items, w->vals, w->nrows, w->per_call,
                         put_row);
    if (rc != 0)
        work_free(w);
    return rc;
}

/* The rows of call c: vals[*first .. *first + *n). */
static void call_rows(const work *w, size_t c, size_t *first, size_t *n)
{
    *first = c * w->per_call;
    *n = w->nrows - *first < w->per_call ? w->nrows - *first : w->per_call;
}

/* Rows first .. first + n - 1 as filled, as one JSON array. */
static int fill_text(text_buf *b, size_t first, size_t n)
{
    bench_row r;
    b->len = 0;
    for (size_t j = 0; j < n; j++) {
        row_make(&r, first + j, false);
        if (buf_printf(b, "%s", j == 0 ? "[" : ",") != 0 ||
            put_row(b, &r) != 0)
            return -1;
    }
    return buf_printf(b, "]");
}

/* ------------------------------------------------------------------ */
/* Raw SQLite                                                           */

/*
 * The shape of Pier's physical board table (with its version stamp
 * column _v) and of its change log, _pier_changes.
 */
static const char RAW_SCHEMA[] =
    "CREATE TABLE t(id TEXT PRIMARY KEY NOT NULL, updated_at INTEGER NOT "
    "NULL, state TEXT, _v INTEGER NOT NULL DEFAULT 0, title ANY, priority "
    "ANY, score ANY, done ANY) STRICT;"
    "CREATE TABLE _pier_changes(watermark INTEGER PRIMARY KEY "
    "AUTOINCREMENT, board TEXT NOT NULL, kind TEXT NOT NULL, payload TEXT "
    "NOT NULL, committed_at INTEGER NOT NULL, stamp INTEGER NOT NULL) "
    "STRICT;"
    "CREATE INDEX _pier_changes_board ON _pier_changes(board, watermark);";
#define RAW_INSERT_SQL                                                    \
    "INSERT INTO t(id, updated_at, _v, state, title, priority, score, "    \
    "done) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
static const char RAW_INSERT[] = RAW_INSERT_SQL;
/* As Pier's upsert: the stored row is replaced when the new stamp is at
 * least the stored one. */
static const char RAW_UPSERT[] =
    RAW_INSERT_SQL " ON CONFLICT(id) DO UPDATE SET updated_at = "
    "excluded.updated_at, state = excluded.state, title = excluded.title, "
    "priority = excluded.priority, score = excluded.score, done = "
    "excluded.done, _v = excluded._v WHERE excluded._v >= _v";
static const char RAW_UPDATE[] =
    "UPDATE t SET priority = ?1, state = ?2, updated_at = ?3, _v = ?4 "
    "WHERE id = ?5";
static const char RAW_DELETE[] = "DELETE FROM t WHERE id = ?1";
static const char RAW_CHANGE[] =
    "INSERT INTO _pier_changes(board, kind, payload, committed_at, stamp) "
    "VALUES (?1, ?2, ?3, ?4, ?5)";

/* The user columns in the order of RAW_INSERT's parameters ?4 .. ?8. */
static const char *const RAW_COLUMNS[] = { "state", "title", "priority",
                                           "score", "done" };
#define RAW_NCOLUMNS (sizeof RAW_COLUMNS / sizeof RAW_COLUMNS[0])

typedef struct raw_db {
    sqlite3 *db;
    sqlite3_stmt *begin, *commit, *insert, *upsert, *update, *del, *change;
    int64_t stamp;             /* the last version stamp handed out */
} raw_db;

static int raw_exec(raw_db *r, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(r->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        fprintf(stderr, PROG ": error: sqlite: %s: %s\n", sql,
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

/* Steps a row write that must change exactly one row. */
static int raw_step_one(raw_db *r, sqlite3_stmt *st)
{
    if (raw_step(r, st) != 0)
        return -1;
    if (sqlite3_changes(r->db) != 1) {
        fprintf(stderr, PROG ": error: sqlite: %s changed %d rows\n",
                sqlite3_sql(st), sqlite3_changes(r->db));
        return -1;
    }
    return 0;
}

static void raw_close(raw_db *r)
{
    sqlite3_stmt *sts[] = { r->begin, r->commit, r->insert, r->upsert,
                            r->update, r->del, r->change };
    for (size_t i = 0; i < sizeof sts / sizeof sts[0]; i++)
        sqlite3_finalize(sts[i]);
    if (r->db != NULL && sqlite3_close(r->db) != SQLITE_OK)
        sql_fail(r->db, "close");
    memset(r, 0, sizeof *r);
}

/* Opens (and with `create`, makes) dir/raw.sqlite as Pier opens a lake at
 * durability full: WAL, synchronous=FULL, no connection mutex. */
static int raw_open(raw_db *r, const char *dir, bool create)
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
    if (raw_prepare(r, &st, "PRAGMA journal_mode=WAL") != 0)
        goto fail;
    const char *mode = sqlite3_step(st) == SQLITE_ROW
                           ? (const char *)sqlite3_column_text(st, 0)
                           : NULL;
    if (mode == NULL || strcmp(mode, "wal") != 0) {
        fprintf(stderr, PROG ": error: sqlite: no WAL mode\n");
        goto fail;
    }
    sqlite3_finalize(st);
    st = NULL;
    if (raw_exec(r, "PRAGMA synchronous=FULL") != 0 ||
        (create && raw_exec(r, RAW_SCHEMA) != 0))
        goto fail;
    if (raw_prepare(r, &r->begin, "BEGIN") != 0 ||
        raw_prepare(r, &r->commit, "COMMIT") != 0 ||
        raw_prepare(r, &r->insert, RAW_INSERT) != 0 ||
        raw_prepare(r, &r->upsert, RAW_UPSERT) != 0 ||
        raw_prepare(r, &r->update, RAW_UPDATE) != 0 ||
        raw_prepare(r, &r->del, RAW_DELETE) != 0 ||
        raw_prepare(r, &r->change, RAW_CHANGE) != 0)
        goto fail;
    return 0;
fail:
    sqlite3_finalize(st);
    raw_close(r);
    return -1;
}

/* A version stamp for a write at `now`: strictly increasing, as Pier's. */
static int64_t raw_stamp(raw_db *r, int64_t now)
{
    r->stamp = now > r->stamp ? now : r->stamp + 1;
    return r->stamp;
}

/* Binds a row's C values to RAW_INSERT or RAW_UPSERT. */
static int bind_row(sqlite3_stmt *st, const bench_row *row, int64_t now,
                    int64_t stamp)
{
    int rc = sqlite3_bind_text(st, 1, row->id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(st, 2, now);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(st, 3, stamp);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 4, row->state, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 5, row->title, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(st, 6, row->priority);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_double(st, 7, row->score);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int(st, 8, row->done ? 1 : 0);
    return rc;
}

/* Appends one change-log row. */
static int raw_change_text(raw_db *r, const char *kind, const char *payload,
                           size_t len, int64_t now, int64_t stamp)
{
    int rc = sqlite3_bind_text(r->change, 1, BOARD, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(r->change, 2, kind, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(r->change, 3, payload, (int)len,
                               SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(r->change, 4, now);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(r->change, 5, stamp);
    int out = rc == SQLITE_OK ? raw_step(r, r->change)
                              : sql_fail(r->db, "bind");
    sqlite3_clear_bindings(r->change);
    return out;
}

/* Appends one change-log row whose payload is `doc` serialized. */
static int raw_change(raw_db *r, const char *kind, const json_t *doc,
                      int64_t now, int64_t stamp)
{
    char *payload = json_dumps(doc, JSON_COMPACT);
    if (payload == NULL)
        return oom();
    int rc = raw_change_text(r, kind, payload, strlen(payload), now, stamp);
    free(payload);
    return rc;
}

static json_t *parse(const char *text, size_t len)
{
    json_error_t jerr;
    json_t *doc = json_loadb(text, len, 0, &jerr);
    if (doc == NULL)
        fprintf(stderr, PROG ": error: jansson: %s\n", jerr.text);
    return doc;
}

/* Same work, one patch: {"id":ID,"patch":{...}} -> UPDATE, then its own
 * change record (Pier writes one per patch). The statement is fixed to the
 * patch's two columns; Pier builds its own from the patch's members. */
static int same_patch(raw_db *r, const json_t *item, int64_t now,
                      int64_t stamp)
{
    const json_t *id = json_object_get(item, "id");
    const json_t *patch = json_object_get(item, "patch");
    if (!json_is_string(id) || !json_is_object(patch)) {
        fprintf(stderr, PROG ": error: a patch without id or members\n");
        return -1;
    }
    int rc = bench_bind_json(r->update, 1, json_object_get(patch, "priority"));
    if (rc == SQLITE_OK)
        rc = bench_bind_json(r->update, 2, json_object_get(patch, "state"));
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(r->update, 3, now);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(r->update, 4, stamp);
    if (rc == SQLITE_OK)
        rc = bench_bind_json(r->update, 5, id);
    int out = rc == SQLITE_OK ? raw_step_one(r, r->update)
                              : sql_fail(r->db, "bind");
    sqlite3_clear_bindings(r->update);
    if (out == 0)
        out = raw_change(r, "update", item, now, stamp);
    return out;
}

static int same_update(raw_db *r, const work *w, size_t c, int64_t now,
                       int64_t stamp)
{
    const json_items *it = &w->items;
    json_t *doc = parse(it->text + it->start[c],
                        it->start[c + 1] - it->start[c]);
    int rc = -1;
    if (doc == NULL)
        return -1;
    if (w->mode == M_SINGLE) {
        /* The id comes as an argument, the text is the patch. */
        json_t *item = json_pack("{s:s, s:O}", "id", w->ids[c], "patch",
                                 doc);
        rc = item != NULL ? same_patch(r, item, now, stamp) : oom();
        json_decref(item);
    } else {
        size_t i;
        json_t *item;
        rc = json_is_array(doc) ? 0 : -1;
        json_array_foreach(doc, i, item) {
            if ((rc = same_patch(r, item, now, stamp)) != 0)
                break;
        }
    }
    json_decref(doc);
    return rc;
}

/* Same work, upsert: every row of the text, then one {"rows":[...]}
 * record for the call. */
static int same_upsert(raw_db *r, const work *w, size_t c, int64_t now,
                       int64_t stamp)
{
    const json_items *it = &w->items;
    json_t *doc = parse(it->text + it->start[c],
                        it->start[c + 1] - it->start[c]);
    if (doc == NULL)
        return -1;
    json_t *rows = json_is_array(doc) ? json_incref(doc)
                                      : json_pack("[O]", doc);
    json_t *record = rows != NULL ? json_pack("{s:O}", "rows", rows) : NULL;
    int rc = record != NULL ? 0 : oom();
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        if (rc != 0)
            break;
        const json_t *id = json_object_get(row, "id");
        int b = json_is_string(id) ? SQLITE_OK : SQLITE_MISMATCH;
        if (b == SQLITE_OK)
            b = bench_bind_json(r->upsert, 1, id);
        if (b == SQLITE_OK)
            b = sqlite3_bind_int64(r->upsert, 2, now);
        if (b == SQLITE_OK)
            b = sqlite3_bind_int64(r->upsert, 3, stamp);
        for (size_t k = 0; k < RAW_NCOLUMNS && b == SQLITE_OK; k++)
            b = bench_bind_json(r->upsert, (int)k + 4,
                          json_object_get(row, RAW_COLUMNS[k]));
        rc = b == SQLITE_OK ? raw_step_one(r, r->upsert)
                            : sql_fail(r->db, "bind");
    }
    sqlite3_clear_bindings(r->upsert);
    if (rc == 0)
        rc = raw_change(r, "upsert", record, now, stamp);
    json_decref(record);
    json_decref(rows);
    json_decref(doc);
    return rc;
}

/* Same work, delete: every id, then one {"ids":[...]} record. */
static int same_delete(raw_db *r, const work *w, size_t c, int64_t now,
                       int64_t stamp)
{
    size_t first, n;
    call_rows(w, c, &first, &n);
    json_t *ids = json_array();
    int rc = ids != NULL ? 0 : oom();
    for (size_t k = first; k < first + n && rc == 0; k++) {
        if (json_array_append_new(ids, json_string(w->ids[k])) != 0) {
            rc = oom();
            break;
        }
        if (sqlite3_bind_text(r->del, 1, w->ids[k], -1, SQLITE_STATIC) !=
            SQLITE_OK)
            rc = sql_fail(r->db, "bind");
        else
            rc = raw_step_one(r, r->del);
    }
    json_t *record = rc == 0 ? json_pack("{s:O}", "ids", ids) : NULL;
    if (rc == 0 && record == NULL)
        rc = oom();
    if (rc == 0)
        rc = raw_change(r, "delete", record, now, stamp);
    json_decref(record);
    json_decref(ids);
    return rc;
}

/* Bare: the row writes of call c from C values. */
static int bare_call(raw_db *r, const work *w, size_t c, int64_t now,
                     int64_t stamp)
{
    size_t first, n;
    call_rows(w, c, &first, &n);
    for (size_t k = first; k < first + n; k++) {
        const bench_row *v = &w->vals[k];
        sqlite3_stmt *st;
        int rc;
        if (w->kind == K_UPDATE) {
            st = r->update;
            rc = sqlite3_bind_int64(st, 1, v->priority);
            if (rc == SQLITE_OK)
                rc = sqlite3_bind_text(st, 2, "done", -1, SQLITE_STATIC);
            if (rc == SQLITE_OK)
                rc = sqlite3_bind_int64(st, 3, now);
            if (rc == SQLITE_OK)
                rc = sqlite3_bind_int64(st, 4, stamp);
            if (rc == SQLITE_OK)
                rc = sqlite3_bind_text(st, 5, v->id, -1, SQLITE_STATIC);
        } else if (w->kind == K_UPSERT) {
            st = r->upsert;
            rc = bind_row(st, v, now, stamp);
        } else {
            st = r->del;
            rc = sqlite3_bind_text(st, 1, v->id, -1, SQLITE_STATIC);
        }
        if (rc != SQLITE_OK)
            return sql_fail(r->db, "bind");
        if (raw_step_one(r, st) != 0)
            return -1;
    }
    return 0;
}

/* One call of a baseline: one transaction. */
static int raw_call(raw_db *r, const work *w, size_t c, bool same)
{
    if (raw_step(r, r->begin) != 0)
        return -1;
    int64_t now = wall_us();
    int64_t stamp = raw_stamp(r, now);
    int rc;
    if (!same)
        rc = bare_call(r, w, c, now, stamp);
    else if (w->kind == K_UPDATE)
        rc = same_update(r, w, c, now, stamp);
    else if (w->kind == K_UPSERT)
        rc = same_upsert(r, w, c, now, stamp);
    else
        rc = same_delete(r, w, c, now, stamp);
    if (rc != 0) {
        raw_exec(r, "ROLLBACK");
        return -1;
    }
    return raw_step(r, r->commit);
}

/* A fresh raw database with the board's rows (and, for the same-work
 * baseline, a change record per fill batch, as Pier's fill leaves),
 * closed and reopened. */
static int raw_fill(raw_db *r, const char *dir, const bench_config *cfg,
                    bool same)
{
    text_buf b = { NULL, 0, 0 };
    bench_row row;
    int rc = -1;
    if (raw_open(r, dir, true) != 0)
        return -1;
    for (size_t i = 1; i <= cfg->board_rows; i += cfg->fill_batch) {
        size_t n = cfg->board_rows - i + 1;
        n = n < cfg->fill_batch ? n : cfg->fill_batch;
        int64_t now = wall_us(), stamp = raw_stamp(r, now);
        if (raw_step(r, r->begin) != 0)
            goto done;
        for (size_t j = i; j < i + n; j++) {
            row_make(&row, j, false);
            if (bind_row(r->insert, &row, now, stamp) != SQLITE_OK) {
                sql_fail(r->db, "bind");
                goto done;
            }
            if (raw_step(r, r->insert) != 0)
                goto done;
        }
        if (same) {
            if (fill_text(&b, i, n) != 0 ||
                raw_change_text(r, "insert", b.p, b.len, now, stamp) != 0)
                goto done;
        }
        if (raw_step(r, r->commit) != 0)
            goto done;
    }
    int64_t stamp = r->stamp;
    raw_close(r);
    if (raw_open(r, dir, false) != 0)
        goto done;
    r->stamp = stamp;
    rc = 0;
done:
    free(b.p);
    if (rc != 0)
        raw_close(r);
    return rc;
}

static int raw_check(raw_db *r, int64_t expected)
{
    sqlite3_stmt *st = NULL;
    if (raw_prepare(r, &st, "SELECT count(*) FROM t") != 0)
        return -1;
    int64_t n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0)
                                               : -1;
    sqlite3_finalize(st);
    if (n != expected) {
        fprintf(stderr, PROG ": error: raw table holds %" PRId64
                " rows, expected %" PRId64 "\n", n, expected);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Pier                                                                 */

/* A fresh lake (default options: durability full) whose board holds the
 * board's rows, closed and reopened. */
static int pier_fill(pier_engine **e, const char *dir,
                     const bench_config *cfg)
{
    pier_error err;
    text_buf b = { NULL, 0, 0 };
    int rc = -1;
    memset(&err, 0, sizeof err);
    if (pier_open(e, dir, NULL, &err) != PIER_OK)
        return pier_fail(&err, "pier_open");
    for (size_t i = 1; i <= cfg->board_rows; i += cfg->fill_batch) {
        size_t n = cfg->board_rows - i + 1;
        n = n < cfg->fill_batch ? n : cfg->fill_batch;
        if (fill_text(&b, i, n) != 0)
            goto done;
        if (pier_insert_json(NULL, *e, BOARD, b.p, b.len, &err) != PIER_OK) {
            pier_fail(&err, "pier_insert_json (fill)");
            goto done;
        }
    }
    pier_close(e);
    if (pier_open(e, dir, NULL, &err) != PIER_OK) {
        pier_fail(&err, "pier_open (reopen)");
        goto done;
    }
    rc = 0;
done:
    free(b.p);
    if (rc != 0)
        pier_close(e);
    return rc;
}

/* Pier's call c. */
static pier_status pier_call(pier_engine *e, const work *w, size_t c,
                             pier_error *err)
{
    const char *text = w->items.text;
    size_t len = 0, first, n;
    call_rows(w, c, &first, &n);
    if (text != NULL) {
        text += w->items.start[c];
        len = w->items.start[c + 1] - w->items.start[c];
    }
    switch (w->kind * NMODES + w->mode) {
    case K_UPDATE * NMODES + M_SINGLE:
        return pier_update_json(NULL, e, BOARD, w->ids[first], text, len,
                                err);
    case K_UPDATE * NMODES + M_BATCHED:
        return pier_update_many_json(NULL, e, BOARD, text, len, err);
    case K_DELETE * NMODES + M_SINGLE:
        return pier_delete(NULL, e, BOARD, w->ids[first], err);
    case K_DELETE * NMODES + M_BATCHED:
        return pier_delete_many(NULL, e, BOARD, w->ids + first, n, err);
    default:
        return pier_upsert_json(NULL, e, BOARD, text, len, err);
    }
}

/* After the timed writes: the row count, and the last row written. */
static int pier_check(pier_engine *e, const work *w, int64_t expected)
{
    pier_error err;
    pier_row *row = NULL;
    int64_t n = 0;
    memset(&err, 0, sizeof err);
    if (pier_row_count(&n, e, BOARD, &err) != PIER_OK)
        return pier_fail(&err, "pier_row_count");
    if (n != expected) {
        fprintf(stderr, PROG ": error: board holds %" PRId64 " rows, "
                "expected %" PRId64 "\n", n, expected);
        return -1;
    }
    const bench_row *last = &w->vals[w->nrows - 1];
    pier_status st = pier_row_get(&row, e, BOARD, last->id, &err);
    if (w->kind == K_DELETE) {
        pier_row_free(row);
        if (st == PIER_E_ROW_NOT_FOUND)
            return 0;
        fprintf(stderr, PROG ": error: row %s was not deleted\n", last->id);
        return -1;
    }
    if (st != PIER_OK)
        return pier_fail(&err, "pier_row_get");
    const char *col = w->kind == K_UPDATE ? "state" : "title";
    const char *want = w->kind == K_UPDATE ? "done" : last->title;
    const pier_value *v = pier_row_find(row, col);
    int rc = 0;
    if (v == NULL || v->text == NULL || strcmp(v->text, want) != 0) {
        fprintf(stderr, PROG ": error: row %s has %s '%s', expected '%s'\n",
                last->id, col, v != NULL && v->text != NULL ? v->text : "",
                want);
        rc = -1;
    }
    pier_row_free(row);
    return rc;
}

/* ------------------------------------------------------------------ */
/* One run: the three sides, interleaved                                */

/* The calls of a run are cut into this many slices (100 single-row calls,
 * or one batched call, each); the sides take turns slice by slice, so that
 * a slow spell of a shared disk (single-row durable writes are bound by its
 * fsync latency, which on a busy machine swings tenfold within seconds)
 * hits every side alike. With 10 slices one run in nine still came out at
 * half the others' ratio. */
#define SLICES 50

typedef struct side {
    char dir[4096];
    bool have_dir;
    pier_engine *e;            /* S_PIER */
    raw_db r;                  /* S_SAME, S_BARE */
    double secs;               /* time spent in its calls */
} side;

/* Calls [from, to) of one side; adds their time to s->secs. */
static int side_calls(side *s, int which, const work *w, size_t from,
                      size_t to)
{
    pier_error err;
    memset(&err, 0, sizeof err);
    double t0 = now_s();
    for (size_t c = from; c < to; c++) {
        if (which != S_PIER) {
            if (raw_call(&s->r, w, c, which == S_SAME) != 0)
                return -1;
        } else if (pier_call(s->e, w, c, &err) != PIER_OK) {
            return pier_fail(&err, PIER_CALLS[w->kind][w->mode]);
        }
    }
    s->secs += now_s() - t0;
    return 0;
}

/* One run: fills a lake and two raw databases (untimed), then makes every
 * side's calls, slice by slice, the side that goes first rotating. */
static int run_once(double rate[NSIDES], const bench_config *cfg,
                    const work *w, int run)
{
    side sides[NSIDES];
    int rc = -1;
    memset(sides, 0, sizeof sides);
    for (int i = 0; i < NSIDES; i++) {
        side *s = &sides[i];
        if (bench_tmpdir_make(PROG, cfg->parent,
                              SIDE_NAMES[i], s->dir, sizeof s->dir) != 0)
            goto done;
        s->have_dir = true;
        if ((i == S_PIER ? pier_fill(&s->e, s->dir, cfg)
                         : raw_fill(&s->r, s->dir, cfg, i == S_SAME)) != 0)
            goto done;
    }
    size_t per_slice = (w->ncalls + SLICES - 1) / SLICES;
    for (size_t j = 0, from = 0; from < w->ncalls; j++, from += per_slice) {
        size_t to = from + per_slice < w->ncalls ? from + per_slice
                                                 : w->ncalls;
        for (int i = 0; i < NSIDES; i++) {
            int which = (int)((j + (size_t)run + (size_t)i) % NSIDES);
            if (side_calls(&sides[which], which, w, from, to) != 0)
                goto done;
        }
    }
    int64_t left = (int64_t)cfg->board_rows;
    if (w->kind == K_DELETE)
        left -= (int64_t)w->nrows;
    if (pier_check(sides[S_PIER].e, w, left) != 0 ||
        raw_check(&sides[S_SAME].r, left) != 0 ||
        raw_check(&sides[S_BARE].r, left) != 0)
        goto done;
    for (int i = 0; i < NSIDES; i++)
        rate[i] = (double)w->nrows / sides[i].secs;
    rc = 0;
done:
    for (int i = 0; i < NSIDES; i++) {
        pier_close(&sides[i].e);
        raw_close(&sides[i].r);
        if (sides[i].have_dir && bench_tmpdir_remove(PROG, sides[i].dir) != 0)
            rc = -1;
    }
    return rc;
}

static int measure(const bench_config *cfg, bench_results *res, int kind,
                   int mode)
{
    work w;
    if (work_build(&w, cfg, kind, mode) != 0)
        return -1;
    int rc = -1;
    for (int run = 0; run < cfg->runs[mode]; run++) {
        double r[NSIDES];
        double *rate[NSIDES];
        if (run_once(r, cfg, &w, run) != 0)
            goto done;
        for (int s = 0; s < NSIDES; s++) {
            rate[s] = &res->rate[kind][mode][s][run];
            *rate[s] = r[s];
        }
        res->ratio_same[kind][mode][run] = *rate[S_PIER] / *rate[S_SAME];
        res->ratio_bare[kind][mode][run] = *rate[S_PIER] / *rate[S_BARE];
        fprintf(stderr, "%s %s run %d/%d: pier %.0f rows/s, same work %.0f "
                "(x%.2f), bare %.0f (x%.2f)\n", KIND_NAMES[kind],
                MODE_NAMES[mode], run + 1, cfg->runs[mode], *rate[S_PIER],
                *rate[S_SAME], res->ratio_same[kind][mode][run],
                *rate[S_BARE], res->ratio_bare[kind][mode][run]);
    }
    rc = 0;
done:
    work_free(&w);
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

#define ROW_FMT "   %-36s %10s"

static const char *const KIND_TITLES[NKINDS] = {
    "Updates: a patch {\"priority\":N,\"state\":\"done\"} per row",
    "Upserts: complete rows replacing stored ones",
    "Deletes by id",
};

static void report_table(const bench_config *cfg, const bench_results *res,
                         const struct utsname *un, long cores)
{
    char g1[32], g2[32], label[80], date[32];
    printf("Pier %s write benchmark%s, %s\n", pier_version(),
           cfg->quick ? " --quick" : "", utc_date(date, sizeof date));
    printf("%s, %ld cores, SQLite %s, directories under %s\n",
           un->machine, cores, sqlite3_libversion(), cfg->parent);
    printf("board of %s rows; durability full; medians of %d runs "
           "(single-row), %d (batched)\n\n",
           group(g1, sizeof g1, (double)cfg->board_rows),
           cfg->runs[M_SINGLE], cfg->runs[M_BATCHED]);
    int num = 0;
    for (int k = 0; k < NKINDS; k++) {
        if (!(cfg->kinds & (1u << k)))
            continue;
        printf("%d. %s\n", ++num, KIND_TITLES[k]);
        printf(ROW_FMT " %8s %8s\n", "", "rows/s", "Pier/x", "target");
        for (int m = 0; m < NMODES; m++) {
            if (!(cfg->modes & (1u << m)))
                continue;
            int n = cfg->runs[m];
            double rs = median(res->ratio_same[k][m], n);
            double rb = median(res->ratio_bare[k][m], n);
            if (m == M_SINGLE)
                printf("   single-row: %s calls, one row each\n",
                       group(g1, sizeof g1, (double)cfg->rows[m]));
            else
                printf("   batched: %s rows, %s per call\n",
                       group(g1, sizeof g1, (double)cfg->rows[m]),
                       group(g2, sizeof g2, (double)cfg->batch_size));
            snprintf(label, sizeof label, "  Pier (%s)", PIER_CALLS[k][m]);
            printf(ROW_FMT "\n", label,
                   group(g1, sizeof g1, median(res->rate[k][m][S_PIER], n)));
            printf(ROW_FMT " %8.2f %8s  %s\n", "  raw SQLite, same work",
                   group(g1, sizeof g1, median(res->rate[k][m][S_SAME], n)),
                   rs, ">= 0.80", rs >= TARGET_SAME ? "met" : "MISSED");
            printf(ROW_FMT " %8.2f %8s\n", "  raw SQLite, bare row writes",
                   group(g1, sizeof g1, median(res->rate[k][m][S_BARE], n)),
                   rb, "-");
        }
        printf("\n");
    }
}

static void json_series(json_t *obj, const char *name, const double *v,
                        int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_real(v[i]));
    json_object_set_new(obj, name, a);
}

static int report_json(const bench_config *cfg, const bench_results *res,
                       const struct utsname *un, long cores)
{
    char date[32];
    json_t *root = json_pack(
        "{s:s, s:s, s:s, s:s, s:I, s:b, s:s, s:I, s:f}",
        "date", utc_date(date, sizeof date), "pier_version", pier_version(),
        "sqlite_version", sqlite3_libversion(), "machine", un->machine,
        "cores", (json_int_t)cores, "quick", cfg->quick, "dir", cfg->parent,
        "board_rows", (json_int_t)cfg->board_rows,
        "target_ratio_same_work", TARGET_SAME);
    if (root == NULL)
        return oom();
    for (int k = 0; k < NKINDS; k++) {
        if (!(cfg->kinds & (1u << k)))
            continue;
        json_t *kobj = json_object();
        if (kobj == NULL || json_object_set_new(root, KIND_NAMES[k], kobj))
            goto fail;
        for (int m = 0; m < NMODES; m++) {
            if (!(cfg->modes & (1u << m)))
                continue;
            int n = cfg->runs[m];
            const double (*rate)[MAX_RUNS] = res->rate[k][m];
            json_t *o = json_pack(
                "{s:s, s:I, s:I, s:i, s:f, s:f, s:f, s:f, s:f}",
                "pier_call", PIER_CALLS[k][m], "rows",
                (json_int_t)cfg->rows[m], "rows_per_call",
                (json_int_t)(m == M_SINGLE ? 1 : cfg->batch_size), "runs",
                n, "pier_rows_per_s", median(rate[S_PIER], n),
                "same_work_rows_per_s", median(rate[S_SAME], n),
                "bare_rows_per_s", median(rate[S_BARE], n),
                "ratio_same_work", median(res->ratio_same[k][m], n),
                "ratio_bare", median(res->ratio_bare[k][m], n));
            if (o == NULL || json_object_set_new(kobj, MODE_NAMES[m], o))
                goto fail;
            json_series(o, "per_run_pier", rate[S_PIER], n);
            json_series(o, "per_run_same_work", rate[S_SAME], n);
            json_series(o, "per_run_bare", rate[S_BARE], n);
        }
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
            "usage: bench_writes [--runs N] [--quick] [--json] [--dir DIR]\n"
            "                    [--only update|upsert|delete|single|"
            "batched]...\n"
            "  --runs N   repeat each measurement N times (default 5)\n"
            "  --quick    divide every row count by 10 (a smoke run)\n"
            "  --json     print one JSON object instead of the table\n"
            "  --dir DIR  make the temporary directories in DIR (default:\n"
            "             $TMPDIR or /tmp); durable figures depend on its\n"
            "             file system\n"
            "  --only X   run only write kind X, or only mode X\n"
            "             (repeatable; kinds and modes combine)\n"
            "Progress goes to stderr. See docs/benchmarks.md.\n");
}

/* 0: run; 1: --help done; 2: usage error. */
/* --only takes a kind (update, upsert, delete) or a mode (single,
 * batched); each narrows its own dimension. */
static int only_measurement(void *payload, const char *x)
{
    bench_config *cfg = payload;
    bool known = false;
    for (int k = 0; k < NKINDS; k++)
        if (strcmp(x, KIND_NAMES[k]) == 0) {
            cfg->kinds |= 1u << k;
            known = true;
        }
    for (int m = 0; m < NMODES; m++)
        if (strcmp(x, MODE_NAMES[m]) == 0) {
            cfg->modes |= 1u << m;
            known = true;
        }
    return known ? 0 : -1;
}

static int parse_args(bench_config *cfg, int argc, char **argv)
{
    memset(cfg, 0, sizeof *cfg);
    bench_args a = { .prog = PROG, .usage = usage, .max_runs = MAX_RUNS,
                     .takes_json = true, .cfg = cfg,
                     .only = only_measurement };
    int rc = bench_parse_args(&a, argc, argv);
    if (rc != 0)
        return rc;
    int runs = a.runs;
    cfg->quick = a.quick;
    cfg->json = a.json;
    cfg->parent = a.parent;
    if (cfg->kinds == 0)
        cfg->kinds = (1u << NKINDS) - 1;
    if (cfg->modes == 0)
        cfg->modes = (1u << NMODES) - 1;
    cfg->runs[M_SINGLE] = runs != 0 ? runs : 5;
    cfg->runs[M_BATCHED] = runs != 0 ? runs : 5;
    size_t div = cfg->quick ? 10 : 1;
    cfg->board_rows = 50000 / div;
    cfg->rows[M_SINGLE] = 5000 / div;
    cfg->rows[M_BATCHED] = 50000 / div;
    cfg->batch_size = 1000;
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

    /* Static: the per-run arrays stay off the stack. */
    static bench_results res;
    for (int k = 0; k < NKINDS; k++)
        for (int m = 0; m < NMODES; m++)
            if ((cfg.kinds & (1u << k)) && (cfg.modes & (1u << m)) &&
                measure(&cfg, &res, k, m) != 0)
                return 1;
    if (cfg.json)
        return report_json(&cfg, &res, &un, cores) == 0 ? 0 : 1;
    report_table(&cfg, &res, &un, cores);
    return 0;
}
