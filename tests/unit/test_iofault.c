/*
 * test_iofault.c: an I/O error at any call of any operation is a clean
 * error that changes nothing, and the engine goes on working.
 *
 * First, two targeted cases: a read that fails while an engine loads a
 * wide catalog, and failures under the SQL dialect's DDL.
 *
 * Then the sweep. The operations: every step of the workload of
 * support/workload.h (every write path), pier_open of an existing lake
 * and of a new one, and the reads pier_query (a cursor to its end),
 * pier_changes, pier_row_get, pier_stats_get and pier_schema_dump. For
 * each operation, each kind of call the fault VFS can fail
 * (support/faultvfs.h: open, read, write, a full disk, sync, truncate,
 * file size, lock, unlock, shared-memory map and lock, access, delete)
 * and N = 1, 2, ... until the operation no longer makes an N-th call of
 * that kind, the operation runs on a copy of the lake as a clean run of
 * the workload left it before that step, on an engine just opened (which
 * for every other step has read the catalog already), with the N-th call
 * failing once (and, at N = 1, from then on: a persistent fault). Then,
 * with no fault armed:
 * - the call returned PIER_OK or a status with its tag and a message, and
 *   an I/O failure is reported as one (WriteFailed, ReadFailed,
 *   LakeUnavailable), never as a wrong tag;
 * - the lake holds exactly what the clean run held before the operation
 *   (it failed) or after it (it succeeded), compared table by table and
 *   row by row with a connection of its own (pier_maintain, which works
 *   in steps, may fail after dropping records, and then says so; an up
 *   of migration files, which commits each version on its own, may fail
 *   keeping the versions before the one that failed);
 * - after a step of migration files, each version's record is there
 *   exactly when what its SQL does is (support/migfiles.h), and status
 *   agrees, as at every fourth point of the other steps;
 * - PRAGMA integrity_check is ok;
 * - a read that succeeded returned what the clean run read;
 * - the engine that saw the fault reads the lake's head and schema as
 *   the clean run's engine did at that point (its cached catalog is the
 *   lake's), and a further write and a read of it succeed;
 * - at every fourth N and the last: a new engine opens the lake and reads
 *   the same, the first engine's feed replayed from 0 equals each
 *   board's rows and columns, and up of the migration files, run again,
 *   completes.
 * The clean run's feed was checked against its rows at every point. ASan
 * and UBSan watch for leaks and undefined behaviour throughout; a hang
 * would be the test's time-out.
 *
 * PIER_IOFAULT_FULL=1 runs every step on a new engine, the persistent
 * fault at every N and every check at every fault point;
 * PIER_IOFAULT_OP=<name> runs one operation.
 * The fault points covered per operation are printed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "pier.h"
#include "support/faultvfs.h"
#include "support/lakecheck.h"
#include "support/lakedir.h"
#include "support/migfiles.h"
#include "support/workload.h"

/* ---- the clean run ---- */

/* The lake at one point of the workload: after pier_open (0) or after
 * step i (i + 1). */
typedef struct point {
    char *lake, *wal;          /* the files' bytes (wal NULL: none) */
    size_t lake_len, wal_len;
    char *dump;                /* lakedir_sql_dump */
    char *view;                /* what an engine reads (engine_view) */
} point;

static point *points;
static size_t nsteps;
/* mids[i][p]: the lake between step i's transactions, after its part p
 * (support/workload.h, workload_parts), for the steps of more than one:
 * an up of several migration files keeps the versions it committed
 * before a failure. */
static point **mids;

static char *read_if_there(const char *path, size_t *n)
{
    *n = 0;
    return lakedir_exists(path) ? lakedir_read_file(path, n) : NULL;
}

/* What an engine reads of the lake's shape: its head and its schema as
 * pier_schema_dump writes it from the engine's catalog. NULL (and `why`)
 * if it cannot read them. */
static char *engine_view(pier_engine *e, char *why, size_t cap)
{
    pier_error err;
    int64_t head = -1;
    char *schema = NULL;
    if (pier_head_from_catalog(&head, e, &err) != PIER_OK ||
        pier_schema_dump(&schema, e, &err) != PIER_OK) {
        snprintf(why, cap, "the engine cannot read the lake: %s: %s",
                 err.tag, err.message);
        return NULL;
    }
    size_t n = strlen(schema) + 32;
    char *view = malloc(n);
    assert_non_null(view);
    snprintf(view, n, "head %lld\n%s", (long long)head, schema);
    pier_free(schema);
    return view;
}

static void keep_point(point *p, const char *dir, pier_engine *e)
{
    char why[256];
    p->view = engine_view(e, why, sizeof why);
    if (p->view == NULL)
        fail_msg("%s", why);
    char *lake = lakedir_join(dir, "lake.sqlite");
    char *wal = lakedir_join(dir, "lake.sqlite-wal");
    p->lake = read_if_there(lake, &p->lake_len);
    p->wal = read_if_there(wal, &p->wal_len);
    p->dump = lakedir_sql_dump(lake);
    assert_non_null(p->lake);
    assert_non_null(p->dump);
    free(lake);
    free(wal);
}

/* A new directory holding the lake as it was at point i. */
static char *restore(size_t i)
{
    char *dir = lakedir_make();
    assert_non_null(dir);
    char *lake = lakedir_join(dir, "lake.sqlite");
    assert_int_equal(lakedir_write_file(lake, points[i].lake,
                                        points[i].lake_len), 0);
    if (points[i].wal != NULL) {
        char *wal = lakedir_join(dir, "lake.sqlite-wal");
        assert_int_equal(lakedir_write_file(wal, points[i].wal,
                                            points[i].wal_len), 0);
        free(wal);
    }
    free(lake);
    return dir;
}

/* ---- the reads ---- */

typedef struct text {
    char *p;
    size_t len, cap;
} text;

static void put(text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        while (cap < t->len + n + 1)
            cap *= 2;
        t->p = realloc(t->p, cap);
        assert_non_null(t->p);
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

static void puts_(text *t, const char *s)
{
    if (s != NULL)
        put(t, s, strlen(s));
}

static bool to_text(const char *bytes, size_t len, void *payload)
{
    put(payload, bytes, len);
    return true;
}

static pier_status read_query(pier_engine *e, text *out, pier_error *err)
{
    pier_params *p = pier_params_new();
    assert_non_null(p);
    pier_status rc = pier_params_set_int64(p, ":m", 5, err);
    pier_cursor *c = NULL;
    if (rc == PIER_OK)
        rc = pier_query(&c, e, "a", "SELECT id, n, w, t FROM {{board}} "
                        "WHERE n > :m ORDER BY id", p, NULL, err);
    if (rc == PIER_OK)
        rc = pier_cursor_write(NULL, c, PIER_FORMAT_JSON, to_text, out, err);
    pier_cursor_close(c);
    pier_params_free(p);
    return rc;
}

static pier_status read_changes(pier_engine *e, text *out, pier_error *err)
{
    pier_changes_page *page = NULL;
    pier_status rc = pier_changes(&page, e, "a", 0, 0, err);
    if (rc == PIER_OK) {
        char *json = pier_changes_page_to_json(page);
        puts_(out, json);
        pier_free(json);
    }
    pier_changes_page_free(page);
    return rc;
}

static pier_status read_row(pier_engine *e, text *out, pier_error *err)
{
    pier_row *row = NULL;
    pier_status rc = pier_row_get(&row, e, "a", "a1", err);
    if (rc == PIER_OK) {
        char *json = pier_row_to_json(row);
        puts_(out, json);
        pier_free(json);
    }
    pier_row_free(row);
    return rc;
}

static pier_status read_stats(pier_engine *e, text *out, pier_error *err)
{
    pier_stats s;
    pier_status rc = pier_stats_get(&s, e, err);
    if (rc == PIER_OK) {
        /* File sizes and this engine's counters are not the lake's
         * contents. */
        char line[256];
        snprintf(line, sizeof line, "%lld %lld %lld %lld %lld %lld",
                 (long long)s.boards, (long long)s.rows,
                 (long long)s.change_records, (long long)s.head,
                 (long long)s.floor, (long long)s.last_maintenance);
        puts_(out, line);
    }
    return rc;
}

static pier_status read_schema(pier_engine *e, text *out, pier_error *err)
{
    char *dump = NULL;
    pier_status rc = pier_schema_dump(&dump, e, err);
    if (rc == PIER_OK)
        puts_(out, dump);
    pier_free(dump);
    return rc;
}

typedef pier_status (*read_fn)(pier_engine *e, text *out, pier_error *err);

/* ---- the operations ---- */

enum { OP_STEP, OP_OPEN_EXISTING, OP_OPEN_NEW, OP_READ };

typedef struct op {
    const char *name;
    int type;
    size_t step;               /* OP_STEP: the step; else the point */
    read_fn read;              /* OP_READ */
    char *clean;               /* OP_READ: the clean run's result */
    long points[FAULTVFS_KINDS]; /* fault points covered: one-shot */
    long persistent;           /* ... and persistent */
    long failed;               /* runs that returned an error */
    long part_kept;            /* ... leaving an up's first versions, or
                                  all of them */
    double seconds;
} op;

static op *ops;
static size_t nops;

/* The point reads and pier_open of an existing lake run at: before the
 * last step, which drops most of the feed. */
static size_t read_point(void)
{
    return nsteps - 1;
}

static int setup(void **state)
{
    (void)state;
    assert_int_equal(faultvfs_install(), 0);
    faultvfs_reset();
    faultvfs_set_real_sync(false);
    nsteps = workload_steps();
    points = calloc(nsteps + 1, sizeof *points);
    assert_non_null(points);
    char *dir = lakedir_make();
    workload w = { .dir = dir, .durability = PIER_DURABILITY_FULL };
    pier_error err;
    assert_int_equal(workload_open(&w, &err), PIER_OK);
    keep_point(&points[0], dir, w.e);
    char why[512];
    mids = calloc(nsteps, sizeof *mids);
    assert_non_null(mids);
    for (size_t i = 0; i < nsteps; i++) {
        size_t parts = workload_parts(i);
        if (parts > 1) {
            mids[i] = calloc(parts - 1, sizeof *mids[i]);
            assert_non_null(mids[i]);
        }
        for (size_t p = 0; p < parts; p++) {
            if (workload_run_part(&w, i, p, NULL, &err) != PIER_OK)
                fail_msg("step %s, part %zu: %s", workload_step_name(i), p,
                         err.message);
            keep_point(p + 1 < parts ? &mids[i][p] : &points[i + 1], dir,
                       w.e);
        }
        if (!lakecheck_feed_matches_rows(w.e, workload_boards,
                                         workload_nboards, NULL, why,
                                         sizeof why))
            fail_msg("the clean run after %s: %s", workload_step_name(i),
                     why);
    }
    workload_close(&w);
    lakedir_remove_tree(dir);
    free(dir);

    static const struct { const char *name; read_fn fn; } reads[] = {
        { "pier_query", read_query },
        { "pier_changes", read_changes },
        { "pier_row_get", read_row },
        { "pier_stats_get", read_stats },
        { "pier_schema_dump", read_schema },
    };
    size_t nreads = sizeof reads / sizeof *reads;
    nops = 2 + nsteps + nreads;
    ops = calloc(nops, sizeof *ops);
    assert_non_null(ops);
    size_t k = 0;
    ops[k++] = (op){ .name = "pier_open (new lake)", .type = OP_OPEN_NEW };
    ops[k++] = (op){ .name = "pier_open (existing lake)",
                     .type = OP_OPEN_EXISTING, .step = read_point() };
    for (size_t i = 0; i < nsteps; i++)
        ops[k++] = (op){ .name = workload_step_name(i), .type = OP_STEP,
                         .step = i };
    /* The clean reads, on a restored copy as the faulty ones run. */
    dir = restore(read_point());
    w = (workload){ .dir = dir, .durability = PIER_DURABILITY_FULL,
                    .now = WORKLOAD_T0 + (int64_t)read_point() * 1000000 };
    assert_int_equal(workload_open(&w, &err), PIER_OK);
    for (size_t i = 0; i < nreads; i++) {
        text t = { 0 };
        puts_(&t, "");
        if (reads[i].fn(w.e, &t, &err) != PIER_OK)
            fail_msg("%s: %s", reads[i].name, err.message);
        ops[k++] = (op){ .name = reads[i].name, .type = OP_READ,
                         .step = read_point(), .read = reads[i].fn,
                         .clean = t.p };
    }
    workload_close(&w);
    lakedir_remove_tree(dir);
    free(dir);
    return 0;
}

static void free_point(point *p)
{
    free(p->lake);
    free(p->wal);
    free(p->dump);
    free(p->view);
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; points != NULL && i <= nsteps; i++)
        free_point(&points[i]);
    free(points);
    for (size_t i = 0; mids != NULL && i < nsteps; i++) {
        for (size_t p = 0; mids[i] != NULL && p + 1 < workload_parts(i); p++)
            free_point(&mids[i][p]);
        free(mids[i]);
    }
    free(mids);
    for (size_t i = 0; ops != NULL && i < nops; i++)
        free(ops[i].clean);
    free(ops);
    faultvfs_reset();
    faultvfs_uninstall();
    return 0;
}

/* ---- one run ---- */

/* PIER_IOFAULT_FULL: every check at every fault point. */
static bool full_sweep;

/* A persistent fault on a lock makes SQLite report the lake busy, and
 * Pier retry for its busy timeout: a short one keeps those runs short. */
#define BUSY_TIMEOUT_MS 50

/* The workload's engine on `dir` at point i. */
static workload at_point(const char *dir, size_t i)
{
    return (workload){ .dir = dir, .durability = PIER_DURABILITY_FULL,
                       .busy_timeout_ms = BUSY_TIMEOUT_MS,
                       .now = WORKLOAD_T0 + (int64_t)i * 1000000 };
}

static bool io_status(pier_status rc)
{
    return rc == PIER_E_WRITE_FAILED || rc == PIER_E_READ_FAILED ||
           rc == PIER_E_LAKE_UNAVAILABLE;
}

/* What the lake in a directory holds, read once to compare with the
 * clean run's points. */
typedef struct held {
    char *dump;                /* NULL: none, or it did not read */
    bool none;                 /* no file, or one without a table, which
                                  pier_open makes a lake */
} held;

static held read_held(const char *dir)
{
    char *lake = lakedir_join(dir, "lake.sqlite");
    struct stat st;
    bool empty = stat(lake, &st) != 0 || st.st_size == 0;
    held h = { empty ? NULL : lakedir_sql_dump(lake), empty };
    h.none = empty || (h.dump != NULL && h.dump[0] == '\0');
    free(lake);
    return h;
}

/* Whether it is what the clean run held at point pt; with NULL: whether
 * it is no lake. */
static bool holds(const held *h, const point *pt)
{
    return pt == NULL ? h->none
                      : h->dump != NULL && strcmp(h->dump, pt->dump) == 0;
}

/* The checks through an engine after the fault: it reads the shape of
 * the lake at point pt (so its cached catalog is the lake's); with `feed`,
 * each board's feed replayed from 0 equals the rows and columns it reads;
 * with `write`, a further write and its read succeed. */
static bool engine_agrees(pier_engine *e, const point *pt, bool feed,
                          bool write, const char *who, char *why, size_t cap)
{
    char *view = engine_view(e, why, cap);
    if (view == NULL)
        return false;
    bool same = strcmp(view, pt->view) == 0;
    if (!same)
        snprintf(why, cap, "%s reads %.300s where the lake holds %.300s", who,
                 view, pt->view);
    free(view);
    if (!same)
        return false;
    if (feed && !lakecheck_feed_matches_rows(e, workload_boards,
                                             workload_nboards, NULL, why,
                                             cap))
        return false;
    if (!write)
        return true;
    pier_error err;
    int64_t wm = 0;
    static const char row[] = "{\"id\":\"after\",\"n\":1}";
    pier_status rc = pier_upsert_json(&wm, e, "z", row, sizeof row - 1,
                                      &err);
    pier_row *r = NULL;
    if (rc == PIER_OK)
        rc = pier_row_get(&r, e, "z", "after", &err);
    pier_row_free(r);
    if (rc != PIER_OK) {
        snprintf(why, cap, "%s: a write and its read after the fault: "
                 "%s: %s", who, err.tag, err.message);
        return false;
    }
    return true;
}

/* Runs `o` with the n-th call of `kind` failing; returns whether the
 * fault fired. Fails the test on any broken promise. */
static bool run_once(op *o, faultvfs_kind kind, long n, bool persistent)
{
    char *dir = o->type == OP_OPEN_NEW ? lakedir_make() : restore(o->step);
    assert_non_null(dir);
    workload w = at_point(dir, o->step);
    pier_error err;
    if (o->type == OP_STEP || o->type == OP_READ)
        assert_int_equal(workload_open(&w, &err), PIER_OK);
    /* Every other step runs on an engine that has read the catalog
     * already, as in a long-lived application; the others on a new one,
     * as in each pier command, whose first call loads it. */
    int64_t head = 0;
    if (o->type == OP_STEP && o->step % 2 == 1 && !full_sweep)
        assert_int_equal(pier_head_from_catalog(&head, w.e, &err), PIER_OK);

    text got = { 0 };
    pier_status rc;
    memset(&err, 0, sizeof err);
    faultvfs_arm(kind, n, persistent);
    if (o->type == OP_STEP)
        rc = workload_run(&w, o->step, NULL, &err);
    else if (o->type == OP_READ)
        rc = o->read(w.e, &got, &err);
    else
        rc = workload_open(&w, &err);
    bool fired = faultvfs_disarm();

    char why[1024] = "";
    if (rc != PIER_OK) {
        o->failed++;
        if (err.tag == NULL || strcmp(err.tag, pier_status_tag(rc)) != 0 ||
            err.message[0] == '\0')
            snprintf(why, sizeof why, "status %d without its tag and "
                     "message", rc);
        else if (!fired)
            snprintf(why, sizeof why, "failed with no fault: %s: %s",
                     err.tag, err.message);
        else if (!io_status(rc))
            snprintf(why, sizeof why, "an I/O failure reported as %s: %s",
                     err.tag, err.message);
    }
    if (why[0] == '\0' && o->type == OP_READ && rc == PIER_OK &&
        strcmp(got.p != NULL ? got.p : "", o->clean) != 0)
        snprintf(why, sizeof why, "read %.300s, the clean run %.300s",
                 got.p != NULL ? got.p : "", o->clean);

    /* Whole before or whole after. */
    size_t before = o->type == OP_OPEN_NEW ? 0 : o->step;
    size_t after = o->type == OP_STEP ? before + 1 : before;
    /* pier_maintain works in steps: when its last one fails, the records
     * it dropped stay dropped, and its message says so. */
    bool done = rc == PIER_OK ||
                strstr(err.message, "were dropped, but") != NULL;
    const point *at = &points[done ? after : before];
    /* A migration file's record is there exactly when what its SQL does
     * is (read off the lake alone; status is asked below). */
    bool files = o->type == OP_STEP &&
                 strncmp(o->name, "files_", 6) == 0;
    if (why[0] == '\0' && files) {
        char *lake = lakedir_join(dir, "lake.sqlite");
        migfiles_check(NULL, lake, NULL, NULL, why, sizeof why);
        free(lake);
    }
    held h = read_held(dir);
    bool none = o->type == OP_OPEN_NEW && !done && holds(&h, NULL);
    /* An up of migration files commits each version on its own: one that
     * fails keeps the versions before it, all of them when it fails
     * after the last (looking for another). Each whole, or absent. */
    if (why[0] == '\0' && files && !done && !holds(&h, at)) {
        size_t parts = workload_parts(o->step);
        for (size_t p = 0; p + 1 < parts; p++) {
            if (holds(&h, &mids[o->step][p])) {
                at = &mids[o->step][p];
                o->part_kept++;
            }
        }
        if (at == &points[before] && strncmp(o->name, "files_up", 8) == 0 &&
            holds(&h, &points[after])) {
            at = &points[after];
            o->part_kept++;
        }
    }
    if (why[0] == '\0' && !none && !holds(&h, at))
        snprintf(why, sizeof why, "%s, and the lake holds %s",
                 done ? "it succeeded" : "it failed",
                 holds(&h, NULL) ? "nothing"
                 : holds(&h, &points[before]) ? "the state before"
                 : holds(&h, &points[after]) ? "the state after"
                 : files ? "no state between the versions, nor before or "
                           "after"
                         : "neither the state before nor after");
    if (why[0] == '\0' && !none) {
        char *lake = lakedir_join(dir, "lake.sqlite");
        lakecheck_integrity(lake, why, sizeof why);
        free(lake);
    }
    /* A new engine (which makes a lake where there was none) reads what
     * the lake holds; then the engine that saw the fault does, with its
     * feed replayed, and takes a write. The new engine and the feed are
     * checked at every fourth point and the last (at every point where
     * PIER_IOFAULT_FULL asks). */
    bool deep = full_sweep || !fired || n % 4 == 1;
    if (why[0] == '\0' && deep) {
        workload fresh = at_point(dir, o->step);
        if (workload_open(&fresh, &err) != PIER_OK)
            snprintf(why, sizeof why, "a new engine cannot open the lake: "
                     "%s: %s", err.tag, err.message);
        else
            engine_agrees(fresh.e, at, false, false, "a new engine", why,
                          sizeof why);
        workload_close(&fresh);
    }
    if (why[0] == '\0' && w.e != NULL)
        engine_agrees(w.e, at, deep, true, "the engine", why, sizeof why);
    /* The record of migration files agrees with what their SQL did, and
     * with status (after each step of migration files, and at the deep
     * points of the others); at the deep points their up, run again,
     * completes. */
    if (why[0] == '\0' && w.e != NULL && o->type == OP_STEP &&
        (files || deep)) {
        char *lake = lakedir_join(dir, "lake.sqlite");
        char *mdir = migfiles_dir_of(dir);
        if (migfiles_check(w.e, lake, mdir, NULL, why, sizeof why) && deep)
            migfiles_rerun(w.e, lake, mdir, NULL, why, sizeof why);
        free(mdir);
        free(lake);
    }
    workload_close(&w);
    free(got.p);
    free(h.dump);
    if (why[0] != '\0')
        fail_msg("%s, %s call %ld failing%s (returned %s: %s): %s", o->name,
                 faultvfs_kind_name(kind), n,
                 persistent ? " from then on" : "",
                 pier_status_tag(rc), rc != PIER_OK ? err.message : "",
                 why);
    lakedir_remove_tree(dir);
    free(dir);
    return fired;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Every fault point of every operation in [from, to). */
static void cover(size_t from, size_t to)
{
    const char *env = getenv("PIER_IOFAULT_FULL");
    full_sweep = env != NULL && *env != '\0' && *env != '0';
    const char *only = getenv("PIER_IOFAULT_OP");
    for (size_t i = from; i < to; i++) {
        op *o = &ops[i];
        if (only != NULL && *only != '\0' && strcmp(only, o->name) != 0)
            continue;
        double started = now_s();
        for (int k = 0; k < FAULTVFS_KINDS; k++) {
            long n;
            for (n = 1; run_once(o, (faultvfs_kind)k, n, false); n++) {
                if ((full_sweep || n == 1) &&
                    run_once(o, (faultvfs_kind)k, n, true))
                    o->persistent++;
            }
            o->points[k] = n - 1;
        }
        o->seconds = now_s() - started;
        long total = 0;
        char line[512];
        size_t len = 0;
        for (int k = 0; k < FAULTVFS_KINDS; k++) {
            total += o->points[k];
            len += (size_t)snprintf(line + len, sizeof line - len, " %s %ld",
                                    faultvfs_kind_name((faultvfs_kind)k),
                                    o->points[k]);
        }
        char kept[64] = "";
        if (o->part_kept > 0)
            snprintf(kept, sizeof kept, " (%ld keeping versions applied)",
                     o->part_kept);
        print_message("%-26s %4ld points (+%ld persistent), %ld errors%s, "
                      "%.1f s:%s\n", o->name, total, o->persistent,
                      o->failed, kept, o->seconds, line);
    }
}

/* ---- targeted cases ---- */

/* An engine on `dir` with the workload's options (no fault armed). */
static pier_engine *open_plain(const char *dir)
{
    /* the engine's clock reads it: it outlives the call */
    static workload w;
    w = at_point(dir, 0);
    pier_error err;
    if (workload_open(&w, &err) != PIER_OK)
        fail_msg("open %s: %s: %s", dir, err.tag, err.message);
    return w.e;
}

/* The catalog is read in one go when a call finds it changed. A read that
 * fails half-way through a board's or a table's columns fails the call;
 * it never leaves the engine believing in half a board. */
static void a_read_error_never_leaves_half_a_catalog(void **state)
{
    (void)state;
    enum { WIDE = 300 };
    char *dir = lakedir_make();
    assert_non_null(dir);
    pier_engine *e = open_plain(dir);
    pier_column_def cols[WIDE];
    char names[WIDE][8];
    text ddl = { 0 };
    puts_(&ddl, "CREATE TABLE wt (id INT64 PRIMARY KEY");
    for (int i = 0; i < WIDE; i++) {
        snprintf(names[i], sizeof names[i], "c%03d", i);
        cols[i] = (pier_column_def){ names[i], "bigint" };
        puts_(&ddl, ", ");
        puts_(&ddl, names[i]);
        puts_(&ddl, " TEXT");
    }
    puts_(&ddl, ")");
    pier_board_options bo = PIER_BOARD_OPTIONS_INIT;
    bo.columns = cols;
    bo.ncolumns = WIDE;
    pier_error err;
    assert_int_equal(pier_board_create(NULL, e, "wide", &bo, &err), PIER_OK);
    assert_int_equal(pier_exec(NULL, e, ddl.p, NULL, &err), PIER_OK);
    free(ddl.p);
    pier_close(&e);

    long n;
    for (n = 1;; n++) {
        e = open_plain(dir);
        pier_board_info *bi = NULL;
        pier_table_info *ti = NULL;
        faultvfs_arm(FAULTVFS_READ, n, false);
        /* A read that fails is ReadFailed: not a damaged catalog
         * (LakeUnavailable), not a failed write. */
        pier_status b = pier_board_describe(&bi, e, "wide", &err);
        if (b != PIER_OK && b != PIER_E_READ_FAILED)
            fail_msg("read %ld: describing a board: %s: %s", n, err.tag,
                     err.message);
        pier_status t = pier_table_describe(&ti, e, "wt", &err);
        if (t != PIER_OK && t != PIER_E_READ_FAILED)
            fail_msg("read %ld: describing a table: %s: %s", n, err.tag,
                     err.message);
        bool fired = faultvfs_disarm();
        if (b == PIER_OK)
            assert_int_equal(bi->ncolumns, WIDE + 3);
        if (t == PIER_OK)
            assert_int_equal(ti->ncolumns, WIDE + 1);
        pier_board_info_free(bi);
        pier_table_info_free(ti);
        /* And once the lake reads again, the same engine sees it all. */
        assert_int_equal(pier_board_describe(&bi, e, "wide", &err), PIER_OK);
        assert_int_equal(bi->ncolumns, WIDE + 3);
        assert_int_equal(pier_table_describe(&ti, e, "wt", &err), PIER_OK);
        assert_int_equal(ti->ncolumns, WIDE + 1);
        pier_board_info_free(bi);
        pier_table_info_free(ti);
        pier_close(&e);
        if (!fired)
            break;
    }
    print_message("catalog loads: %ld read points\n", n - 1);
    lakedir_remove_tree(dir);
    free(dir);
}

/* A failure of the lake under pier_exec (reading the schema to prepare a
 * statement, writing what DDL changes) is the lake's, WriteFailed, never
 * the statement's QueryFailed, which tells the user to fix the SQL. */
static void the_sql_dialect_reports_io_errors_as_write_failed(void **state)
{
    (void)state;
    static const char script[] = "CREATE TABLE u (id INT64 PRIMARY KEY, "
                                 "e ENUM('a','b') READONLY); "
                                 "CREATE INDEX u_e ON u(e); "
                                 "ALTER TABLE t ADD COLUMN x TEXT; "
                                 "INSERT INTO t (id, x) VALUES (7, 'x')";
    static const char undo[] = "DROP TABLE u; ALTER TABLE t DROP COLUMN x; "
                               "DELETE FROM t WHERE id = 7";
    static const faultvfs_kind kinds[] = { FAULTVFS_READ, FAULTVFS_WRITE,
                                           FAULTVFS_FULL };
    char *dir = lakedir_make();
    assert_non_null(dir);
    pier_engine *e = open_plain(dir);
    pier_error err;
    assert_int_equal(pier_exec(NULL, e, "CREATE TABLE t (id INT64 PRIMARY "
                               "KEY, d DECIMAL(6,2))", NULL, &err), PIER_OK);
    pier_close(&e);
    long covered = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        for (long n = 1;; n++) {
            e = open_plain(dir);
            faultvfs_arm(kinds[k], n, false);
            pier_status rc = pier_exec(NULL, e, script, NULL, &err);
            bool fired = faultvfs_disarm();
            if (rc != PIER_OK && (!io_status(rc) || !fired))
                fail_msg("%s %ld: %s: %s", faultvfs_kind_name(kinds[k]), n,
                         err.tag, err.message);
            if (rc == PIER_OK)
                assert_int_equal(pier_exec(NULL, e, undo, NULL, &err),
                                 PIER_OK);
            pier_close(&e);
            if (!fired)
                break;
            covered++;
        }
    }
    print_message("the SQL dialect: %ld fault points\n", covered);
    lakedir_remove_tree(dir);
    free(dir);
}

/* A migration under every fault (a read, a write, a full disk at each
 * point it reaches) fails with the lake's error and leaves the lake at
 * the catalog it had, or succeeds: never between. Read back by a fresh
 * engine, the declaration plans to all its steps or to none. */
static void a_migration_is_all_or_nothing_under_every_fault(void **state)
{
    (void)state;
    static const char v1[] =
        "CREATE TABLE t (id INT64 PRIMARY KEY, s ENUM('a','b') NOT NULL, "
        "note TEXT NOT NULL, k INT64)";
    static const char v2[] =
        "CREATE TABLE u RENAMED FROM t (id INT64 PRIMARY KEY AUTOINCREMENT, "
        "s ENUM('a','b','c') NOT NULL DEFAULT 'c', memo TEXT RENAMED FROM "
        "note, k INT64 NOT NULL, state TEXT NOT NULL BACKFILL 'old');"
        "CREATE UNIQUE INDEX u_k ON u (k);"
        "CREATE VIEW memos (memo TEXT) AS SELECT memo FROM u;"
        "CREATE BOARD ev (kind text)";
    static const faultvfs_kind kinds[] = { FAULTVFS_READ, FAULTVFS_WRITE,
                                           FAULTVFS_FULL };
    pier_error err;
    size_t full = 0;
    long covered = 0, applied = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        for (long n = 1;; n++) {
            char *dir = lakedir_make();
            assert_non_null(dir);
            pier_engine *e = open_plain(dir);
            assert_int_equal(pier_migrate(NULL, e, v1, strlen(v1), NULL,
                                          NULL, &err), PIER_OK);
            assert_int_equal(pier_exec(NULL, e, "WITH RECURSIVE r(i) AS "
                                       "(SELECT 1 UNION ALL SELECT i + 1 "
                                       "FROM r WHERE i < 200) INSERT INTO t "
                                       "SELECT i, 'a', 'n', i FROM r", NULL,
                                       &err), PIER_OK);
            if (full == 0) {
                pier_migration *m = NULL;
                assert_int_equal(pier_plan(&m, e, v2, strlen(v2), NULL,
                                           &err), PIER_OK);
                full = pier_migration_steps(m);
                pier_migration_free(m);
            }
            pier_close(&e);
            e = open_plain(dir);
            faultvfs_arm(kinds[k], n, false);
            pier_status rc = pier_migrate(NULL, e, v2, strlen(v2), NULL,
                                          NULL, &err);
            bool fired = faultvfs_disarm();
            if (rc != PIER_OK && (!io_status(rc) || !fired))
                fail_msg("%s %ld: %s: %s", faultvfs_kind_name(kinds[k]), n,
                         err.tag, err.message);
            pier_close(&e);
            /* a fresh engine: the old catalog or the new, whole */
            e = open_plain(dir);
            pier_migration *m = NULL;
            assert_int_equal(pier_plan(&m, e, v2, strlen(v2), NULL, &err),
                             PIER_OK);
            size_t left = pier_migration_steps(m);
            pier_migration_free(m);
            if (left != (rc == PIER_OK ? 0 : full))
                fail_msg("%s %ld: %s, and %zu of %zu steps are left",
                         faultvfs_kind_name(kinds[k]), n,
                         rc == PIER_OK ? "applied" : err.message, left, full);
            assert_int_equal(pier_schema_check(e, &err), PIER_OK);
            int64_t rows = 0;
            pier_cursor *c = NULL;
            const pier_row *row = NULL;
            assert_int_equal(pier_exec(&c, e, rc == PIER_OK
                                           ? "SELECT count(*) FROM u"
                                           : "SELECT count(*) FROM t",
                                       NULL, &err), PIER_OK);
            assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
            rows = pier_row_value(row, 0)->as.integer;
            pier_cursor_close(c);
            assert_int_equal(rows, 200);
            pier_close(&e);
            lakedir_remove_tree(dir);
            free(dir);
            applied += rc == PIER_OK;
            if (!fired)
                break;
            covered++;
        }
    }
    print_message("a migration of %zu steps: %ld fault points, %ld applied "
                  "despite the fault\n", full, covered, applied - 3);
}

static void opening_survives_every_fault(void **state)
{
    (void)state;
    cover(0, 2);
}

static void every_write_path_survives_every_fault(void **state)
{
    (void)state;
    cover(2, 2 + nsteps);
}

static void reads_survive_every_fault(void **state)
{
    (void)state;
    cover(2 + nsteps, nops);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_read_error_never_leaves_half_a_catalog),
        cmocka_unit_test(the_sql_dialect_reports_io_errors_as_write_failed),
        cmocka_unit_test(a_migration_is_all_or_nothing_under_every_fault),
        cmocka_unit_test(opening_survives_every_fault),
        cmocka_unit_test(every_write_path_survives_every_fault),
        cmocka_unit_test(reads_survive_every_fault),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
