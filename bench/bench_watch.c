/*
 * bench_watch.c: how soon a watcher of Pier's change feed sees a write.
 *
 * Two measurements, repeated and reported as medians and 90th percentiles
 * over every write of every run (docs/benchmarks.md says what each figure
 * means and how to run it):
 *   1. local: one engine. A thread blocks in pier_watch_next on the board;
 *      the main thread inserts one row (pier_insert_json, durability full),
 *      waits until the watcher has it, pauses 1 ms, and goes on, 1,000
 *      times. Latency: from the return of pier_insert_json to the return
 *      of pier_watch_next (and, for context, from the call). The same
 *      again with a pier_on_change listener in place of the watch.
 *      Target: median under 1 ms.
 *   2. cross: a child process opens the same lake and inserts 100 rows,
 *      pausing between P and 2P ms (uniformly, so writes fall anywhere in
 *      the poll cycle) before each; the parent watches with poll_ms P (50
 *      and 100). Latency: from the child's return from pier_insert_json to
 *      the parent's return from pier_watch_next (CLOCK_MONOTONIC is one
 *      clock for every process). Target: 90th percentile within P. For
 *      context, the same with raw SQLite: the child commits a row and a
 *      change-log row, and the parent's connection polls every P ms.
 *
 * Every lake lives in its own fresh temporary directory, removed
 * afterwards. The child is forked before the parent opens anything (a
 * SQLite connection must not cross fork()). Only the public API (pier.h)
 * is used. Targets are printed beside the figures, never enforced: the exit
 * status is 0 unless something failed (1) or the command line is wrong (2).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "pier.h"

#include "bench.h"

/* ------------------------------------------------------------------ */
/* Configuration                                                        */

#define PROG "bench_watch"
#define BOARD "tasks"
/* The first row: creates the board and its columns before any watch
 * opens, so that the timed writes append exactly one record each. */
#define FIRST_ROW "{\"id\":\"first\",\"priority\":0,\"state\":\"open\"}"
#define ROW_FMT_JSON                                                      \
    "{\"id\":\"r-%d-%06zu\",\"priority\":%zu,\"state\":\"open\"}"
#define MAX_RUNS 100
#define MAX_POLLS 8
/* Untimed writes before the local measurement, to warm its paths. */
#define LOCAL_WARMUP 20
/* The local watch's poll interval: long, so that only the engine's own
 * wake-up can explain a latency below it. */
#define LOCAL_POLL_MS 1000
/* How long the local writer waits for the watcher before giving up. */
#define LOCAL_TIMEOUT_MS 5000
#define TARGET_LOCAL_MEDIAN_MS 1.0

enum { ONLY_LOCAL = 1, ONLY_CROSS = 2, ONLY_ALL = 3 };

typedef struct bench_config {
    int runs;                  /* repetitions of each measurement */
    bool quick;                /* write counts divided by 10 */
    bool json;                 /* one JSON object on stdout, no table */
    unsigned only;             /* ONLY_* bits */
    const char *parent;        /* temporary directories go here */
    size_t local_writes;       /* 1,000 per run */
    int local_pause_us;        /* 1,000: the watcher is back in
                                  pier_watch_next long before */
    size_t cross_writes;       /* 100 per run and poll interval */
    int polls[MAX_POLLS];      /* poll_ms values: 50, 100 */
    size_t npolls;
} bench_config;

/* Latencies in milliseconds, pooled over the runs. */
typedef struct samples {
    double *v;
    size_t n;
    size_t cap;
} samples;

enum {
    L_INSERT,                  /* the pier_insert_json call */
    L_WATCH_RET,               /* insert returned -> watch_next returned */
    L_WATCH_START,             /* insert called -> watch_next returned */
    L_LISTEN_RET,              /* insert returned -> listener called */
    L_LISTEN_START,
    NLOCAL
};
enum { C_PIER_RET, C_PIER_START, C_RAW_RET, NCROSS };

typedef struct bench_results {
    samples local[NLOCAL];
    samples cross[MAX_POLLS][NCROSS];
} bench_results;

/* ------------------------------------------------------------------ */
/* Clocks, errors, statistics                                           */

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

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

static int samples_add(samples *s, double ms)
{
    if (s->n == s->cap) {
        size_t cap = s->cap != 0 ? 2 * s->cap : 1024;
        double *v = realloc(s->v, cap * sizeof *v);
        if (v == NULL)
            return oom();
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = ms;
    return 0;
}

typedef struct summary {
    size_t n;
    double median, p90, max;
    double within;             /* share of samples <= the bound given */
} summary;

/* Sorts the samples. p90 is the nearest rank: the smallest sample with at
 * least 90% of the samples at or below it. */
static summary summarize(samples *s, double bound)
{
    summary m = { s->n, 0.0, 0.0, 0.0, 0.0 };
    if (s->n == 0)
        return m;
    qsort(s->v, s->n, sizeof *s->v, cmp_double);
    size_t n = s->n, within = 0;
    m.median = n % 2 == 1 ? s->v[n / 2] : (s->v[n / 2 - 1] + s->v[n / 2]) / 2;
    m.p90 = s->v[(9 * n + 9) / 10 - 1];
    m.max = s->v[n - 1];
    for (size_t i = 0; i < n; i++)
        within += s->v[i] <= bound;
    m.within = (double)within / (double)n;
    return m;
}

/* out = dir/name; -1 (with a message) if it does not fit. */
static int path_in(char *out, size_t cap, const char *dir, const char *name)
{
    int n = snprintf(out, cap, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= cap) {
        fprintf(stderr, PROG ": error: path too long in %s\n", dir);
        return -1;
    }
    return 0;
}

/* Opens a lake and writes its first row (which creates the board). */
static int lake_start(pier_engine **e, const char *dir, int64_t *wm)
{
    pier_error err;
    memset(&err, 0, sizeof err);
    if (pier_open(e, dir, NULL, &err) != PIER_OK)
        return pier_fail(&err, "pier_open");
    if (pier_insert_json(wm, *e, BOARD, FIRST_ROW, strlen(FIRST_ROW),
                         &err) != PIER_OK) {
        pier_close(e);
        return pier_fail(&err, "pier_insert_json (first row)");
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* 1. Local: a watch (or listener) on the writer's own engine           */

/* What the watcher (or listener) saw last, for the writer to wait on. */
typedef struct seen_state {
    pthread_mutex_t lock;
    pthread_cond_t cond;       /* on CLOCK_MONOTONIC */
    int64_t wm;                /* the highest watermark seen */
    double t;                  /* when (now_s()) */
    bool failed;               /* the watcher failed: err says why */
    pier_error err;
} seen_state;

static int seen_init(seen_state *s)
{
    pthread_condattr_t attr;
    memset(s, 0, sizeof *s);
    if (pthread_condattr_init(&attr) != 0)
        return -1;
    int rc = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    if (rc == 0)
        rc = pthread_cond_init(&s->cond, &attr);
    pthread_condattr_destroy(&attr);
    if (rc == 0 && pthread_mutex_init(&s->lock, NULL) != 0) {
        pthread_cond_destroy(&s->cond);
        rc = -1;
    }
    if (rc != 0)
        fprintf(stderr, PROG ": error: cannot set up a condition\n");
    return rc != 0 ? -1 : 0;
}

static void seen_destroy(seen_state *s)
{
    pthread_cond_destroy(&s->cond);
    pthread_mutex_destroy(&s->lock);
}

static void seen_post(seen_state *s, int64_t wm, double t)
{
    pthread_mutex_lock(&s->lock);
    if (wm > s->wm) {
        s->wm = wm;
        s->t = t;
    }
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
}

/* Waits until watermark `wm` was seen; *t is when. */
static int seen_wait(seen_state *s, int64_t wm, double *t)
{
    struct timespec deadline;
    int rc = 0;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += LOCAL_TIMEOUT_MS / 1000;
    pthread_mutex_lock(&s->lock);
    while (s->wm < wm && !s->failed && rc == 0)
        rc = pthread_cond_timedwait(&s->cond, &s->lock, &deadline);
    bool ok = s->wm >= wm;
    *t = s->t;
    pthread_mutex_unlock(&s->lock);
    if (ok)
        return 0;
    if (s->failed)
        return pier_fail(&s->err, "pier_watch_next");
    fprintf(stderr, PROG ": error: watermark %" PRId64 " not seen within "
            "%d ms\n", wm, LOCAL_TIMEOUT_MS);
    return -1;
}

typedef struct watcher {
    pier_watch *watch;
    seen_state *seen;
} watcher;

/* The watching thread: posts the last watermark of each page. */
static void *watch_main(void *arg)
{
    watcher *w = arg;
    for (;;) {
        pier_changes_page *page = NULL;
        pier_error err;
        memset(&err, 0, sizeof err);
        pier_status st = pier_watch_next(&page, w->watch, &err);
        double t = now_s();
        if (st != PIER_OK) {
            pthread_mutex_lock(&w->seen->lock);
            w->seen->failed = true;
            w->seen->err = err;
            pthread_cond_broadcast(&w->seen->cond);
            pthread_mutex_unlock(&w->seen->lock);
            break;
        }
        if (page == NULL)  /* cancelled */
            break;
        if (page->nrecords > 0)
            seen_post(w->seen, page->records[page->nrecords - 1].watermark,
                      t);
        pier_changes_page_free(page);
    }
    return NULL;
}

static void on_change(const pier_change_event *ev, void *payload)
{
    double t = now_s();
    if (strcmp(ev->board, BOARD) == 0)
        seen_post(payload, ev->last_watermark, t);
}

/* Inserts one row after another, each once the previous one was seen. */
static int local_writes(pier_engine *e, seen_state *seen,
                        const bench_config *cfg, bool listener, int run,
                        bench_results *res)
{
    char text[128];
    pier_error err;
    memset(&err, 0, sizeof err);
    samples *ret = &res->local[listener ? L_LISTEN_RET : L_WATCH_RET];
    samples *start = &res->local[listener ? L_LISTEN_START : L_WATCH_START];
    size_t total = LOCAL_WARMUP + cfg->local_writes;
    for (size_t k = 0; k < total; k++) {
        int len = snprintf(text, sizeof text, ROW_FMT_JSON, run, k, k % 100);
        int64_t wm = 0;
        double seen_t = 0.0;
        sleep_us(cfg->local_pause_us);
        double t0 = now_s();
        pier_status st = pier_insert_json(&wm, e, BOARD, text, (size_t)len,
                                          &err);
        double t1 = now_s();
        if (st != PIER_OK)
            return pier_fail(&err, "pier_insert_json");
        if (seen_wait(seen, wm, &seen_t) != 0)
            return -1;
        if (k < LOCAL_WARMUP)
            continue;
        if ((!listener && samples_add(&res->local[L_INSERT],
                                      (t1 - t0) * 1e3) != 0) ||
            samples_add(ret, (seen_t - t1) * 1e3) != 0 ||
            samples_add(start, (seen_t - t0) * 1e3) != 0)
            return -1;
    }
    return 0;
}

static int local_run(const bench_config *cfg, bench_results *res, int run,
                     bool listener)
{
    char dir[4096];
    pier_engine *e = NULL;
    pier_watch *watch = NULL;
    pier_listener *l = NULL;
    pier_error err;
    seen_state seen;
    watcher w;
    pthread_t thread;
    bool have_thread = false;
    int64_t wm = 0;
    int rc = -1;
    memset(&err, 0, sizeof err);
    if (seen_init(&seen) != 0)
        return -1;
    if (bench_tmpdir_make(PROG, cfg->parent, "watch", dir, sizeof dir) != 0) {
        seen_destroy(&seen);
        return -1;
    }
    if (lake_start(&e, dir, &wm) != 0)
        goto done;
    seen.wm = wm;
    if (listener) {
        if (pier_on_change(&l, e, on_change, &seen, &err) != PIER_OK) {
            pier_fail(&err, "pier_on_change");
            goto done;
        }
    } else {
        pier_watch_options opts = PIER_WATCH_OPTIONS_INIT;
        opts.after = wm;
        opts.poll_ms = LOCAL_POLL_MS;
        if (pier_watch_open(&watch, e, BOARD, &opts, &err) != PIER_OK) {
            pier_fail(&err, "pier_watch_open");
            goto done;
        }
        w.watch = watch;
        w.seen = &seen;
        if (pthread_create(&thread, NULL, watch_main, &w) != 0) {
            fprintf(stderr, PROG ": error: cannot start a thread\n");
            goto done;
        }
        have_thread = true;
    }
    rc = local_writes(e, &seen, cfg, listener, run, res);
done:
    if (have_thread) {
        pier_watch_cancel(watch);
        pthread_join(thread, NULL);
    }
    pier_watch_close(watch);
    pier_listener_remove(l);
    pier_close(&e);
    if (bench_tmpdir_remove(PROG, dir) != 0)
        rc = -1;
    seen_destroy(&seen);
    return rc;
}

static int measure_local(const bench_config *cfg, bench_results *res)
{
    for (int run = 0; run < cfg->runs; run++) {
        /* Even runs: the watch first; odd runs: the listener first. */
        for (int i = 0; i < 2; i++) {
            bool listener = (i == 1) == (run % 2 == 0);
            if (local_run(cfg, res, run, listener) != 0)
                return -1;
        }
        fprintf(stderr, "local run %d/%d done (%zu writes)\n", run + 1,
                cfg->runs, cfg->local_writes);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* 2. Cross: a child process writes, the parent watches                 */

/* One write of the child: its watermark, and when the call started and
 * returned (now_s()). */
typedef struct child_rec {
    int64_t wm;
    double t0;
    double t1;
} child_rec;

#define CHILD_FILE "child-times.bin"

/* Raw SQLite for the baseline: a row table and a change log shaped like
 * Pier's, WAL, synchronous=FULL. */
static const char RAW_SCHEMA[] =
    "PRAGMA journal_mode=WAL;"
    "CREATE TABLE t(id TEXT PRIMARY KEY NOT NULL, priority ANY, state "
    "TEXT) STRICT;"
    "CREATE TABLE changes(watermark INTEGER PRIMARY KEY AUTOINCREMENT, "
    "board TEXT NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL, "
    "committed_at INTEGER NOT NULL) STRICT;"
    "CREATE INDEX changes_board ON changes(board, watermark);";

static sqlite3 *raw_open(const char *dir)
{
    char path[4096];
    sqlite3 *db = NULL;
    if (path_in(path, sizeof path, dir, "raw.sqlite") != 0)
        return NULL;
    if (sqlite3_open_v2(path, &db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                            SQLITE_OPEN_NOMUTEX,
                        NULL) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA synchronous=FULL", NULL, NULL, NULL) !=
            SQLITE_OK ||
        sqlite3_busy_timeout(db, 5000) != SQLITE_OK) {
        sql_fail(db, path);
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

/* One raw write: the row and its change-log row, one transaction. */
static int raw_write(sqlite3 *db, const char *text, size_t k, int64_t *wm)
{
    static const char *const sql[] = {
        "BEGIN IMMEDIATE",
        "INSERT INTO t(id, priority, state) VALUES (?1, ?2, 'open')",
        "INSERT INTO changes(board, kind, payload, committed_at) "
        "VALUES ('" BOARD "', 'insert', ?3, ?4)",
        "COMMIT",
    };
    char id[32];
    snprintf(id, sizeof id, "r-%06zu", k);
    for (size_t i = 0; i < sizeof sql / sizeof sql[0]; i++) {
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(db, sql[i], -1, &st, NULL) != SQLITE_OK)
            return sql_fail(db, sql[i]);
        if (i == 1) {
            sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
            sqlite3_bind_int64(st, 2, (int64_t)(k % 100));
        } else if (i == 2) {
            sqlite3_bind_text(st, 3, text, -1, SQLITE_STATIC);
            sqlite3_bind_int64(st, 4, wall_us());
        }
        int rc = sqlite3_step(st);
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE) {
            sql_fail(db, sql[i]);
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
        if (i == 2)
            *wm = sqlite3_last_insert_rowid(db);
    }
    return 0;
}

/* The child: opens the lake (or raw database), waits for the parent's go,
 * then writes n rows, pausing between poll_ms and 2 poll_ms before each,
 * and leaves its records in dir/CHILD_FILE. Returns its exit status. */
static int child_main(const char *dir, bool raw, int poll_ms, size_t n,
                      int go_fd, int run)
{
    pier_engine *e = NULL;
    sqlite3 *db = NULL;
    pier_error err;
    child_rec *recs = calloc(n, sizeof *recs);
    char text[128], path[4096];
    int rc = 1;
    /* A fixed pseudo-random sequence: the same pauses in every build. */
    uint32_t x = 2463534242u + (uint32_t)(run * 7919 + poll_ms);
    memset(&err, 0, sizeof err);
    if (recs == NULL)
        goto done;
    if (raw) {
        if ((db = raw_open(dir)) == NULL)
            goto done;
    } else if (pier_open(&e, dir, NULL, &err) != PIER_OK) {
        pier_fail(&err, "pier_open (child)");
        goto done;
    }
    char go;
    if (read(go_fd, &go, 1) != 1)
        goto done;             /* the parent gave up */
    for (size_t k = 0; k < n; k++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        long pause_us = (long)poll_ms * 1000;
        sleep_us(pause_us + (long)(x % (uint32_t)pause_us));
        int len = snprintf(text, sizeof text, ROW_FMT_JSON, run, k, k % 100);
        int64_t wm = 0;
        double t0 = now_s();
        if (raw) {
            if (raw_write(db, text, k, &wm) != 0)
                goto done;
        } else if (pier_insert_json(&wm, e, BOARD, text, (size_t)len,
                                    &err) != PIER_OK) {
            pier_fail(&err, "pier_insert_json (child)");
            goto done;
        }
        recs[k] = (child_rec){ wm, t0, now_s() };
    }
    if (path_in(path, sizeof path, dir, CHILD_FILE) != 0)
        goto done;
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(recs, sizeof *recs, n, f) != n) {
        fprintf(stderr, PROG ": error: cannot write %s\n", path);
        if (f != NULL)
            fclose(f);
        goto done;
    }
    if (fclose(f) != 0)
        goto done;
    rc = 0;
done:
    pier_close(&e);
    sqlite3_close(db);
    free(recs);
    return rc;
}

/*
 * Waits for the child in a thread of its own, so that the parent can stop
 * watching if the child ended without writing everything: `grace_ms` after
 * the child exits, a watch still waiting is cancelled (Pier) or told to
 * stop (raw).
 */
typedef struct reaper {
    pthread_mutex_t lock;
    pthread_cond_t cond;       /* on CLOCK_MONOTONIC */
    pid_t pid;
    int status;                /* waitpid()'s, once the child is gone */
    bool done;                 /* the parent stopped watching */
    bool gave_up;              /* the reaper stopped it */
    pier_watch *watch;         /* to cancel; NULL before it opens */
    int grace_ms;
} reaper;

static void *reaper_main(void *arg)
{
    reaper *r = arg;
    int status = 0;
    while (waitpid(r->pid, &status, 0) < 0 && errno == EINTR)
        ;
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += r->grace_ms / 1000;
    deadline.tv_nsec += (long)(r->grace_ms % 1000) * 1000000;
    if (deadline.tv_nsec >= 1000000000) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&r->lock);
    r->status = status;
    int rc = 0;
    while (!r->done && rc == 0)
        rc = pthread_cond_timedwait(&r->cond, &r->lock, &deadline);
    if (!r->done) {
        r->gave_up = true;
        if (r->watch != NULL)
            pier_watch_cancel(r->watch);
    }
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

/* What the parent saw: watermark and when. */
typedef struct seen_rec {
    int64_t wm;
    double t;
} seen_rec;

static bool reaper_gave_up(reaper *r)
{
    pthread_mutex_lock(&r->lock);
    bool g = r->gave_up;
    pthread_mutex_unlock(&r->lock);
    return g;
}

/* The parent's side with Pier: a watch from the head, until n records. */
static int parent_pier(const char *dir, int poll_ms, size_t n, int go_fd,
                       reaper *rp, seen_rec *seen, size_t *nseen)
{
    pier_engine *e = NULL;
    pier_watch *watch = NULL;
    pier_error err;
    int64_t head = 0;
    int rc = -1;
    memset(&err, 0, sizeof err);
    if (pier_open(&e, dir, NULL, &err) != PIER_OK) {
        pier_fail(&err, "pier_open");
        goto done;
    }
    if (pier_head_from_catalog(&head, e, &err) != PIER_OK) {
        pier_fail(&err, "pier_head_from_catalog");
        goto done;
    }
    pier_watch_options opts = PIER_WATCH_OPTIONS_INIT;
    opts.after = head;
    opts.poll_ms = poll_ms;
    if (pier_watch_open(&watch, e, BOARD, &opts, &err) != PIER_OK) {
        pier_fail(&err, "pier_watch_open");
        goto done;
    }
    pthread_mutex_lock(&rp->lock);
    rp->watch = watch;
    pthread_mutex_unlock(&rp->lock);
    if (write(go_fd, "g", 1) != 1) {
        fprintf(stderr, PROG ": error: cannot start the child\n");
        goto done;
    }
    while (*nseen < n) {
        pier_changes_page *page = NULL;
        pier_status st = pier_watch_next(&page, watch, &err);
        double t = now_s();
        if (st != PIER_OK) {
            pier_fail(&err, "pier_watch_next");
            goto done;
        }
        if (page == NULL) {
            fprintf(stderr, PROG ": error: the child stopped after %zu of "
                    "%zu writes\n", *nseen, n);
            goto done;
        }
        for (size_t i = 0; i < page->nrecords && *nseen < n; i++)
            seen[(*nseen)++] = (seen_rec){ page->records[i].watermark, t };
        pier_changes_page_free(page);
    }
    rc = 0;
done:
    /* The reaper must not cancel a closed watch. */
    pthread_mutex_lock(&rp->lock);
    rp->done = true;
    rp->watch = NULL;
    pthread_cond_broadcast(&rp->cond);
    pthread_mutex_unlock(&rp->lock);
    pier_watch_close(watch);
    pier_close(&e);
    return rc;
}

/* The parent's side with raw SQLite: a second connection that polls the
 * change log every poll_ms. */
static int parent_raw(const char *dir, int poll_ms, size_t n, int go_fd,
                      reaper *rp, seen_rec *seen, size_t *nseen)
{
    static const char sql[] = "SELECT watermark FROM changes WHERE board = "
                              "'" BOARD "' AND watermark > ?1 ORDER BY "
                              "watermark";
    sqlite3 *db = raw_open(dir);
    sqlite3_stmt *st = NULL;
    int64_t after = 0;
    int rc = -1;
    if (db == NULL)
        goto done;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        sql_fail(db, sql);
        goto done;
    }
    if (write(go_fd, "g", 1) != 1) {
        fprintf(stderr, PROG ": error: cannot start the child\n");
        goto done;
    }
    while (*nseen < n) {
        if (reaper_gave_up(rp)) {
            fprintf(stderr, PROG ": error: the raw child stopped after %zu "
                    "of %zu writes\n", *nseen, n);
            goto done;
        }
        sleep_us((long)poll_ms * 1000);
        size_t first = *nseen;
        int s;
        sqlite3_bind_int64(st, 1, after);
        while ((s = sqlite3_step(st)) == SQLITE_ROW && *nseen < n) {
            after = sqlite3_column_int64(st, 0);
            seen[(*nseen)++] = (seen_rec){ after, 0.0 };
        }
        sqlite3_reset(st);
        if (s != SQLITE_ROW && s != SQLITE_DONE) {
            sql_fail(db, sql);
            goto done;
        }
        double t = now_s();
        for (size_t i = first; i < *nseen; i++)
            seen[i].t = t;
    }
    rc = 0;
done:
    pthread_mutex_lock(&rp->lock);
    rp->done = true;
    pthread_cond_broadcast(&rp->cond);
    pthread_mutex_unlock(&rp->lock);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rc;
}

/* Pairs the child's writes with what the parent saw, by watermark. */
static int cross_match(const char *dir, size_t n, const seen_rec *seen,
                       size_t nseen, samples *ret, samples *start)
{
    char path[4096];
    child_rec *recs = calloc(n, sizeof *recs);
    int rc = -1;
    if (recs == NULL)
        return oom();
    if (path_in(path, sizeof path, dir, CHILD_FILE) != 0) {
        free(recs);
        return -1;
    }
    FILE *f = fopen(path, "rb");
    size_t got = f != NULL ? fread(recs, sizeof *recs, n, f) : 0;
    if (f != NULL)
        fclose(f);
    if (got != n || nseen != n) {
        fprintf(stderr, PROG ": error: %zu writes recorded, %zu seen, "
                "expected %zu\n", got, nseen, n);
        goto done;
    }
    for (size_t k = 0, j = 0; k < n; k++) {
        while (j < nseen && seen[j].wm < recs[k].wm)
            j++;
        if (j == nseen || seen[j].wm != recs[k].wm) {
            fprintf(stderr, PROG ": error: watermark %" PRId64 " was "
                    "written but not seen\n", recs[k].wm);
            goto done;
        }
        if (samples_add(ret, (seen[j].t - recs[k].t1) * 1e3) != 0 ||
            (start != NULL &&
             samples_add(start, (seen[j].t - recs[k].t0) * 1e3) != 0))
            goto done;
    }
    rc = 0;
done:
    free(recs);
    return rc;
}

/* Creates the lake (or raw database) and closes it, so that neither the
 * child nor the parent opens it first, and no connection crosses fork(). */
static int cross_setup(const char *dir, bool raw)
{
    if (raw) {
        sqlite3 *db = raw_open(dir);
        if (db == NULL)
            return -1;
        int rc = sqlite3_exec(db, RAW_SCHEMA, NULL, NULL, NULL);
        if (rc != SQLITE_OK)
            sql_fail(db, "schema");
        sqlite3_close(db);
        return rc == SQLITE_OK ? 0 : -1;
    }
    pier_engine *e = NULL;
    int64_t wm = 0;
    if (lake_start(&e, dir, &wm) != 0)
        return -1;
    pier_close(&e);
    return 0;
}

static int cross_run(const bench_config *cfg, bench_results *res, size_t p,
                     int run, bool raw)
{
    char dir[4096];
    int poll_ms = cfg->polls[p];
    size_t n = cfg->cross_writes, nseen = 0;
    seen_rec *seen = calloc(n, sizeof *seen);
    int go[2] = { -1, -1 };
    reaper rp;
    pthread_t thread;
    bool have_dir = false, have_reaper = false;
    int rc = -1;
    memset(&rp, 0, sizeof rp);
    if (seen == NULL)
        return oom();
    if (bench_tmpdir_make(PROG, cfg->parent,
                          raw ? "raw" : "watch", dir, sizeof dir) != 0)
        goto done;
    have_dir = true;
    if (cross_setup(dir, raw) != 0)
        goto done;
    pthread_condattr_t attr;
    if (pipe(go) != 0 || pthread_condattr_init(&attr) != 0) {
        fprintf(stderr, PROG ": error: pipe: %s\n", strerror(errno));
        goto done;
    }
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&rp.cond, &attr);
    pthread_condattr_destroy(&attr);
    pthread_mutex_init(&rp.lock, NULL);
    rp.grace_ms = 3 * poll_ms + 2000;

    fflush(NULL);  /* the child must not write the parent's buffers */
    rp.pid = fork();
    if (rp.pid < 0) {
        fprintf(stderr, PROG ": error: fork: %s\n", strerror(errno));
        goto done;
    }
    if (rp.pid == 0) {
        close(go[1]);
        _exit(child_main(dir, raw, poll_ms, n, go[0], run));
    }
    close(go[0]);
    go[0] = -1;
    if (pthread_create(&thread, NULL, reaper_main, &rp) != 0) {
        fprintf(stderr, PROG ": error: cannot start a thread\n");
        close(go[1]);          /* the child reads EOF and ends */
        go[1] = -1;
        waitpid(rp.pid, NULL, 0);
        goto done;
    }
    have_reaper = true;
    int prc = raw ? parent_raw(dir, poll_ms, n, go[1], &rp, seen, &nseen)
                  : parent_pier(dir, poll_ms, n, go[1], &rp, seen, &nseen);
    close(go[1]);
    go[1] = -1;
    pthread_join(thread, NULL);
    have_reaper = false;
    if (prc != 0)
        goto done;
    if (!WIFEXITED(rp.status) || WEXITSTATUS(rp.status) != 0) {
        fprintf(stderr, PROG ": error: the writing process failed\n");
        goto done;
    }
    samples *c = res->cross[p];
    rc = cross_match(dir, n, seen, nseen, raw ? &c[C_RAW_RET] : &c[C_PIER_RET],
                     raw ? NULL : &c[C_PIER_START]);
done:
    if (have_reaper)
        pthread_join(thread, NULL);
    if (rp.pid != 0) {
        pthread_cond_destroy(&rp.cond);
        pthread_mutex_destroy(&rp.lock);
    }
    if (go[0] >= 0)
        close(go[0]);
    if (go[1] >= 0)
        close(go[1]);
    if (have_dir && bench_tmpdir_remove(PROG, dir) != 0)
        rc = -1;
    free(seen);
    return rc;
}

static int measure_cross(const bench_config *cfg, bench_results *res)
{
    for (size_t p = 0; p < cfg->npolls; p++) {
        for (int run = 0; run < cfg->runs; run++) {
            /* Even runs: Pier first; odd runs: raw SQLite first. */
            for (int i = 0; i < 2; i++) {
                bool raw = (i == 1) == (run % 2 == 0);
                if (cross_run(cfg, res, p, run, raw) != 0)
                    return -1;
            }
            fprintf(stderr, "cross poll %d ms run %d/%d done (%zu writes "
                    "each)\n", cfg->polls[p], run + 1, cfg->runs,
                    cfg->cross_writes);
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Reporting                                                            */

/* "1234567" -> "1,234,567". */
static const char *group(char *out, size_t cap, size_t v)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%zu", v);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < cap; i++) {
        out[o++] = digits[i];
        if ((n - i - 1) % 3 == 0 && i + 1 < n)
            out[o++] = ',';
    }
    out[o] = '\0';
    return out;
}

#define LINE_FMT "   %-32s %8.3f %8.3f %8.3f"
#define HEAD_FMT "   %-32s %8s %8s %8s"

static void report_table(const bench_config *cfg, bench_results *res,
                         const struct utsname *un, long cores)
{
    char date[32], g[32];
    printf("Pier %s watch benchmark%s, %s\n", pier_version(),
           cfg->quick ? " --quick" : "", utc_date(date, sizeof date));
    printf("%s, %ld cores, SQLite %s, directories under %s\n",
           un->machine, cores, sqlite3_libversion(), cfg->parent);
    printf("latencies in ms, over every write of %d runs\n\n", cfg->runs);
    if (cfg->only & ONLY_LOCAL) {
        static const char *const labels[NLOCAL] = {
            "the pier_insert_json call",
            "watch: return -> seen",
            "watch: call -> seen",
            "listener: return -> called",
            "listener: call -> called",
        };
        printf("1. Same process: %s single-row inserts per run "
               "(durability full), one at a\n   time, %d us apart. "
               "Target: median of return -> seen under %.0f ms.\n",
               group(g, sizeof g, cfg->local_writes), cfg->local_pause_us,
               TARGET_LOCAL_MEDIAN_MS);
        printf(HEAD_FMT "  %s\n", "", "median", "p90", "max", "target");
        for (int i = 0; i < NLOCAL; i++) {
            summary m = summarize(&res->local[i], 0.0);
            printf(LINE_FMT, labels[i], m.median, m.p90, m.max);
            if (i == L_WATCH_RET)
                printf("  %s",
                       m.median < TARGET_LOCAL_MEDIAN_MS ? "met" : "MISSED");
            printf("\n");
        }
        printf("\n");
    }
    if (cfg->only & ONLY_CROSS) {
        printf("2. Another process: %s inserts per run by a child, each "
               "after a pause of P\n   to 2P ms; the parent polls every P "
               "ms. Target: Pier's p90 of\n   return -> seen within P.\n",
               group(g, sizeof g, cfg->cross_writes));
        printf(HEAD_FMT " %5s  %s\n", "", "median", "p90", "max", "<= P",
               "target");
        for (size_t p = 0; p < cfg->npolls; p++) {
            double bound = cfg->polls[p];
            summary pr = summarize(&res->cross[p][C_PIER_RET], bound);
            summary ps = summarize(&res->cross[p][C_PIER_START], bound);
            summary rr = summarize(&res->cross[p][C_RAW_RET], bound);
            printf("   P = %d ms\n", cfg->polls[p]);
            printf(LINE_FMT " %4.0f%%  %s\n", "  Pier watch: return -> seen",
                   pr.median, pr.p90, pr.max, 100 * pr.within,
                   pr.p90 <= bound ? "met" : "MISSED");
            printf(LINE_FMT " %4.0f%%\n", "  Pier watch: call -> seen",
                   ps.median, ps.p90, ps.max, 100 * ps.within);
            printf(LINE_FMT " %4.0f%%\n", "  raw SQLite: return -> seen",
                   rr.median, rr.p90, rr.max, 100 * rr.within);
        }
    }
}

static json_t *json_summary(samples *s, double bound)
{
    summary m = summarize(s, bound);
    json_t *o = json_pack("{s:I, s:f, s:f, s:f}", "n", (json_int_t)m.n,
                          "median", m.median, "p90", m.p90, "max", m.max);
    if (o != NULL && bound > 0.0)
        json_object_set_new(o, "within_poll_share", json_real(m.within));
    return o;
}

static int report_json(const bench_config *cfg, bench_results *res,
                       const struct utsname *un, long cores)
{
    char date[32];
    json_t *root = json_pack("{s:s, s:s, s:s, s:s, s:I, s:b, s:s, s:i}",
                             "date", utc_date(date, sizeof date),
                             "pier_version", pier_version(),
                             "sqlite_version", sqlite3_libversion(),
                             "machine", un->machine,
                             "cores", (json_int_t)cores,
                             "quick", cfg->quick, "dir", cfg->parent,
                             "runs", cfg->runs);
    if (root == NULL)
        return oom();
    if (cfg->only & ONLY_LOCAL) {
        json_t *o = json_pack(
            "{s:I, s:i, s:i, s:f, s:o, s:o, s:o, s:o, s:o}",
            "writes_per_run", (json_int_t)cfg->local_writes, "pause_us",
            cfg->local_pause_us, "watch_poll_ms", LOCAL_POLL_MS,
            "target_median_ms", TARGET_LOCAL_MEDIAN_MS,
            "insert_ms", json_summary(&res->local[L_INSERT], 0.0),
            "watch_returned_to_seen_ms",
            json_summary(&res->local[L_WATCH_RET], 0.0),
            "watch_called_to_seen_ms",
            json_summary(&res->local[L_WATCH_START], 0.0),
            "listener_returned_to_called_ms",
            json_summary(&res->local[L_LISTEN_RET], 0.0),
            "listener_called_to_called_ms",
            json_summary(&res->local[L_LISTEN_START], 0.0));
        if (o == NULL || json_object_set_new(root, "local", o) != 0)
            goto fail;
    }
    if (cfg->only & ONLY_CROSS) {
        json_t *a = json_array();
        if (a == NULL || json_object_set_new(root, "cross", a) != 0)
            goto fail;
        for (size_t p = 0; p < cfg->npolls; p++) {
            double bound = cfg->polls[p];
            json_t *o = json_pack(
                "{s:i, s:I, s:s, s:o, s:o, s:o}", "poll_ms", cfg->polls[p],
                "writes_per_run", (json_int_t)cfg->cross_writes, "target",
                "p90 <= poll_ms", "pier_returned_to_seen_ms",
                json_summary(&res->cross[p][C_PIER_RET], bound),
                "pier_called_to_seen_ms",
                json_summary(&res->cross[p][C_PIER_START], bound),
                "raw_returned_to_seen_ms",
                json_summary(&res->cross[p][C_RAW_RET], bound));
            if (o == NULL || json_array_append_new(a, o) != 0)
                goto fail;
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
            "usage: bench_watch [--runs N] [--quick] [--json] [--dir DIR]\n"
            "                   [--only local|cross]... [--poll MS]...\n"
            "  --runs N   repeat each measurement N times (default 3)\n"
            "  --quick    divide every write count by 10 (a smoke run)\n"
            "  --json     print one JSON object instead of the table\n"
            "  --dir DIR  make the temporary directories in DIR (default:\n"
            "             $TMPDIR or /tmp)\n"
            "  --only M   run only measurement M (repeatable)\n"
            "  --poll MS  the cross-process poll interval (repeatable;\n"
            "             default 50 and 100)\n"
            "Progress goes to stderr. See docs/benchmarks.md.\n");
}

/* The names of --only, in the order of the ONLY_* bits. */
static const char *const measurements[] = { "local", "cross", NULL };

/* --poll MS, this program's own option (repeatable). */
static int poll_option(void *payload, int argc, char **argv, int i)
{
    bench_config *cfg = payload;
    if (strcmp(argv[i], "--poll") != 0 || i + 1 >= argc)
        return 0;
    char *end = NULL;
    long v = strtol(argv[i + 1], &end, 10);
    if (end == argv[i + 1] || *end != '\0' || v < 1 || v > 10000) {
        fprintf(stderr, PROG ": --poll takes 1 to 10000\n");
        return -1;
    }
    if (cfg->npolls == MAX_POLLS) {
        fprintf(stderr, PROG ": at most %d --poll\n", MAX_POLLS);
        return -1;
    }
    cfg->polls[cfg->npolls++] = (int)v;
    return 2;
}

static int parse_args(bench_config *cfg, int argc, char **argv)
{
    memset(cfg, 0, sizeof *cfg);
    bench_args a = { .prog = PROG, .usage = usage, .max_runs = MAX_RUNS,
                     .takes_json = true, .cfg = cfg,
                     .measurements = measurements,
                     .only_bits = &cfg->only, .extra = poll_option };
    int rc = bench_parse_args(&a, argc, argv);
    if (rc != 0)
        return rc;
    cfg->quick = a.quick;
    cfg->json = a.json;
    cfg->parent = a.parent;
    cfg->runs = a.runs;
    if (cfg->only == 0)
        cfg->only = ONLY_ALL;
    if (cfg->runs == 0)
        cfg->runs = 3;
    if (cfg->npolls == 0) {
        cfg->polls[0] = 50;
        cfg->polls[1] = 100;
        cfg->npolls = 2;
    }
    size_t div = cfg->quick ? 10 : 1;
    cfg->local_writes = 1000 / div;
    cfg->local_pause_us = 1000;
    cfg->cross_writes = 100 / div;
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

    static bench_results res;
    /* The cross-process runs fork: they go first, before any engine of
     * this process has started a thread. */
    if ((cfg.only & ONLY_CROSS) && measure_cross(&cfg, &res) != 0)
        rc = 1;
    if (rc == 0 && (cfg.only & ONLY_LOCAL) && measure_local(&cfg, &res) != 0)
        rc = 1;
    if (rc == 0)
        rc = cfg.json ? (report_json(&cfg, &res, &un, cores) == 0 ? 0 : 1)
                      : (report_table(&cfg, &res, &un, cores), 0);
    for (int i = 0; i < NLOCAL; i++)
        free(res.local[i].v);
    for (size_t p = 0; p < MAX_POLLS; p++)
        for (int i = 0; i < NCROSS; i++)
            free(res.cross[p][i].v);
    return rc;
}
