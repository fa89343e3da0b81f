/*
 * test_powerloss.c: a power cut at any moment of any write leaves a lake
 * that opens, passes integrity_check and holds exactly a prefix of the
 * writes; with PIER_DURABILITY_FULL that prefix holds every acknowledged
 * write, with NORMAL at least every write a sync has covered since.
 *
 * A child process runs the workload of support/workload.h (every write
 * path: inserts, updates, upserts, deletes, transactions, board DDL,
 * widening, the SQL dialect, migrations, a changeset, versioned
 * migration files, maintain, compact, a reopen) through the
 * fault VFS (support/faultvfs.h), which remembers what each file received
 * since its last sync. After each call returns OK the child reports it to
 * the parent through a pipe, with its watermark and the number of syncs
 * done so far. At the k-th sync (or the k-th write) of the run the VFS
 * cuts the power: it rewrites the files as a power cut could leave them
 * (each unsynced sector kept, reverted or torn, each file at its synced or
 * its current size, the -shm file gone) and ends the child at once.
 *
 * The parent ran the same workload first, without faults, and kept the
 * lake's full contents (every table, every row, lakedir_sql_dump) after
 * each step, and between the versions of an up of migration files, which
 * commits each on its own (workload_parts), with the watermark each call
 * returned and the head. After the cut it opens the lake with SQLite's
 * own VFS and checks:
 * - pier_open succeeds and PRAGMA integrity_check says ok;
 * - each migration file's record is there exactly when what its SQL does
 *   is, and status agrees (support/migfiles.h);
 * - the lake's contents equal those after some step j, all of every step
 *   up to j and nothing of any later one (or, of an up in flight, its
 *   first versions): with FULL, j is the last acknowledged step or the
 *   one in flight (whose commit may have reached the disk before its
 *   acknowledgement); with NORMAL, j lies between the last acknowledged
 *   step followed by a completed sync (everything written before a sync
 *   is durable) and the step in flight;
 * - every acknowledged watermark is the one the clean run handed out for
 *   that step, and the head is the clean run's head after step j;
 * - each board's feed replayed from 0 rebuilds its columns and rows
 *   (support/lakecheck.h);
 * - the lake takes a further write, and up of the migration files, run
 *   again, completes.
 *
 * Trials: PIER_POWERLOSS_TRIALS per durability (default 40) at moments of
 * the whole run; then one at each sync of the steps of migration files,
 * losing what it would have made durable, and PIER_POWERLOSS_FILES_TRIALS
 * (default 12) at their writes: a cut between a version's SQL and its
 * record, were they committed apart, lands there. The moments and the
 * damage come from PIER_SEED (printed; a failure names its trial).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pier.h"
#include "support/faultvfs.h"
#include "support/lakecheck.h"
#include "support/lakedir.h"
#include "support/migfiles.h"
#include "support/workload.h"

#define DEFAULT_TRIALS 40
/* Cuts at writes of the steps that run migration files, beside one at
 * each of their syncs: 12 of their 200 writes. */
#define DEFAULT_FILES_TRIALS 12

/* ---- the clean run ---- */

typedef struct reference {
    size_t steps;
    size_t npoints;
    size_t *pt;                /* [l]: the point after l steps */
    char **dumps;              /* [0]: after pier_open; then after each
                                  transaction a failure can leave apart:
                                  [pt[i + 1]] after step i, and before
                                  it, an up's versions one by one */
    int64_t *heads;            /* the head at each of those points */
    int64_t *wms;              /* [i]: what step i returned */
} reference;

static reference ref;

static uint64_t next_rand(uint64_t *s)
{
    uint64_t x = *s;                              /* xorshift64* */
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * UINT64_C(2685821657736338717);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int64_t head_of(pier_engine *e)
{
    int64_t head = -1;
    pier_error err;
    if (pier_head_from_catalog(&head, e, &err) != PIER_OK)
        fail_msg("head: %s: %s", err.tag, err.message);
    return head;
}

/* Runs the workload once, keeping the lake's contents after each step
 * and between the transactions of a step that commits several (an up of
 * migration files, whose versions a cut may leave part-way). The fault
 * VFS is installed only for its clock. */
static int build_reference(void **state)
{
    (void)state;
    assert_int_equal(faultvfs_install(), 0);
    faultvfs_reset();
    faultvfs_set_real_sync(false);
    ref.steps = workload_steps();
    ref.npoints = 1;
    for (size_t i = 0; i < ref.steps; i++)
        ref.npoints += workload_parts(i);
    ref.pt = calloc(ref.steps + 1, sizeof *ref.pt);
    ref.dumps = calloc(ref.npoints, sizeof *ref.dumps);
    ref.heads = calloc(ref.npoints, sizeof *ref.heads);
    ref.wms = calloc(ref.steps, sizeof *ref.wms);
    assert_true(ref.pt != NULL && ref.dumps != NULL && ref.heads != NULL &&
                ref.wms != NULL);
    char *dir = lakedir_make();
    char *lake = lakedir_join(dir, "lake.sqlite");
    workload w = { .dir = dir, .durability = PIER_DURABILITY_FULL };
    pier_error err;
    if (workload_open(&w, &err) != PIER_OK)
        fail_msg("open: %s", err.message);
    ref.dumps[0] = lakedir_sql_dump(lake);
    ref.heads[0] = head_of(w.e);
    size_t k = 0;
    for (size_t i = 0; i < ref.steps; i++) {
        for (size_t p = 0; p < workload_parts(i); p++) {
            if (workload_run_part(&w, i, p, &ref.wms[i], &err) != PIER_OK)
                fail_msg("step %zu (%s), part %zu: %s: %s", i,
                         workload_step_name(i), p, err.tag, err.message);
            ref.dumps[++k] = lakedir_sql_dump(lake);
            assert_non_null(ref.dumps[k]);
            ref.heads[k] = head_of(w.e);
        }
        ref.pt[i + 1] = k;
    }
    assert_int_equal(k + 1, ref.npoints);
    char why[512];
    size_t skipped = 0;
    if (!lakecheck_feed_matches_rows(w.e, workload_boards, workload_nboards,
                                     &skipped, why, sizeof why))
        fail_msg("the clean run: %s", why);
    workload_close(&w);
    lakedir_remove_tree(dir);
    free(lake);
    free(dir);
    faultvfs_uninstall();
    return 0;
}

static int free_reference(void **state)
{
    (void)state;
    for (size_t i = 0; ref.dumps != NULL && i < ref.npoints; i++)
        free(ref.dumps[i]);
    free(ref.dumps);
    free(ref.pt);
    free(ref.heads);
    free(ref.wms);
    memset(&ref, 0, sizeof ref);
    return 0;
}

/* ---- the child ---- */

enum { MSG_OPENED = 1, MSG_ACKED, MSG_CUT, MSG_DONE, MSG_FAILED };

typedef struct msg {
    int32_t type;
    int32_t step;              /* MSG_ACKED, MSG_FAILED */
    int64_t watermark;         /* MSG_ACKED */
    int64_t syncs;             /* syncs done when it was sent */
    int64_t writes, sync_points; /* the moments a cut can come at so far
                                  (MSG_OPENED, MSG_ACKED; MSG_DONE: the
                                  run's) */
} msg;

static int child_fd = -1;

static void send_msg(const msg *m)
{
    /* One write() of less than PIPE_BUF bytes: all of it or nothing. */
    ssize_t k;
    do
        k = write(child_fd, m, sizeof *m);
    while (k < 0 && errno == EINTR);
    if (k != (ssize_t)sizeof *m)
        _exit(5);
}

static void report_cut(void *payload)
{
    (void)payload;
    msg m = { .type = MSG_CUT, .syncs = faultvfs_syncs_done() };
    send_msg(&m);
}

/* Runs the workload; never returns. cut->k == 0: no cut (the run counts
 * its moments instead). */
static void child(const char *dir, pier_durability durability,
                  const faultvfs_cut *cut)
{
    if (faultvfs_install() != 0)
        _exit(2);
    faultvfs_reset();
    faultvfs_set_real_sync(false);
    faultvfs_track(true);
    faultvfs_arm_cut(cut);
    workload w = { .dir = dir, .durability = durability };
    pier_error err;
    if (workload_open(&w, &err) != PIER_OK) {
        msg m = { .type = MSG_FAILED, .step = -1 };
        send_msg(&m);
        fprintf(stderr, "child: open: %s: %s\n", err.tag, err.message);
        _exit(3);
    }
    long writes = 0, syncs = 0;
    faultvfs_cut_points(&writes, &syncs);
    msg m = { .type = MSG_OPENED, .syncs = faultvfs_syncs_done(),
              .writes = writes, .sync_points = syncs };
    send_msg(&m);
    for (size_t i = 0; i < workload_steps(); i++) {
        int64_t wm = 0;
        if (workload_run(&w, i, &wm, &err) != PIER_OK) {
            msg f = { .type = MSG_FAILED, .step = (int32_t)i };
            send_msg(&f);
            fprintf(stderr, "child: step %zu (%s): %s: %s\n", i,
                    workload_step_name(i), err.tag, err.message);
            _exit(3);
        }
        faultvfs_cut_points(&writes, &syncs);
        msg a = { .type = MSG_ACKED, .step = (int32_t)i, .watermark = wm,
                  .syncs = faultvfs_syncs_done(), .writes = writes,
                  .sync_points = syncs };
        send_msg(&a);
    }
    workload_close(&w);
    faultvfs_cut_points(&writes, &syncs);
    msg d = { .type = MSG_DONE, .sync_points = syncs, .writes = writes };
    send_msg(&d);
    _exit(0);
}

/* What the parent learned from one child. */
typedef struct outcome {
    int level;                 /* the last acknowledged point: 0 opened,
                                  i + 1 step i; -1 none */
    int64_t acked_syncs[64];   /* syncs done at each acknowledged point */
    int64_t acked_writes[64];  /* the moments a cut can come at, up to */
    int64_t acked_sync_points[64]; /* ... each acknowledged point */
    bool cut;
    int64_t cut_syncs;         /* syncs done at the cut */
    int64_t writes, syncs;     /* MSG_DONE */
    int status;                /* the child's exit status */
} outcome;

static void run_child(const char *dir, pier_durability durability,
                      const faultvfs_cut *cut, outcome *out, int trial)
{
    memset(out, 0, sizeof *out);
    out->level = -1;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        child_fd = fds[1];
        child(dir, durability, cut);
    }
    close(fds[1]);
    msg m;
    ssize_t k;
    while ((k = read(fds[0], &m, sizeof m)) != 0) {
        if (k < 0 && errno == EINTR)
            continue;
        assert_int_equal(k, (ssize_t)sizeof m);
        switch (m.type) {
        case MSG_OPENED:
            out->level = 0;
            out->acked_syncs[0] = m.syncs;
            out->acked_writes[0] = m.writes;
            out->acked_sync_points[0] = m.sync_points;
            break;
        case MSG_ACKED:
            assert_int_equal(m.step, out->level);
            if (m.watermark != ref.wms[m.step])
                fail_msg("trial %d: step %d (%s) returned watermark %lld, "
                         "the clean run %lld", trial, m.step,
                         workload_step_name((size_t)m.step),
                         (long long)m.watermark,
                         (long long)ref.wms[m.step]);
            out->level = m.step + 1;
            assert_true(out->level < 64);
            out->acked_syncs[out->level] = m.syncs;
            out->acked_writes[out->level] = m.writes;
            out->acked_sync_points[out->level] = m.sync_points;
            break;
        case MSG_CUT:
            out->cut = true;
            out->cut_syncs = m.syncs;
            break;
        case MSG_DONE:
            out->writes = m.writes;
            out->syncs = m.sync_points;
            break;
        default:
            fail_msg("trial %d: the workload failed at step %d without a "
                     "fault", trial, m.step);
        }
    }
    close(fds[0]);
    assert_int_equal(waitpid(pid, &out->status, 0), pid);
}

/* ---- the checks ---- */

typedef struct tally {
    int trials;
    int cut_at_sync, cut_at_write;
    long acked;                /* acknowledged steps over all trials */
    long lost;                 /* acknowledged steps the lake lacks */
    int inflight_kept;         /* the step in flight reached the disk */
    int part_kept;             /* ... part of it: an up's first versions */
    int files_trials;          /* cuts aimed at the migration files */
    int cut_in_open;           /* before pier_open returned */
    size_t feeds_skipped;
} tally;

/* The point whose contents the lake holds, searched in [lo, hi]; -1. */
static int match(const char *dump, int lo, int hi)
{
    for (int j = hi; j >= lo; j--)
        if (strcmp(dump, ref.dumps[j]) == 0)
            return j;
    return -1;
}

static void check_lake(const char *dir, const outcome *o,
                       pier_durability durability, tally *t, int trial,
                       const char *how)
{
    pier_engine *e = NULL;
    pier_error err;
    char *lake = lakedir_join(dir, "lake.sqlite");
    char *dump = NULL, *files = NULL;
    char why[768] = "";
    assert_non_null(lake);
    if (pier_open(&e, dir, NULL, &err) != PIER_OK) {
        snprintf(why, sizeof why, "the lake does not open: %s: %s", err.tag,
                 err.message);
        goto done;
    }
    if (!lakecheck_integrity(lake, why, sizeof why))
        goto done;

    /* What the record of migration files says agrees with what their SQL
     * did, and with status: each version wholly applied or not at all. */
    files = migfiles_dir_of(dir);
    assert_non_null(files);
    if (!migfiles_check(e, lake, files, NULL, why, sizeof why))
        goto done;

    /* The steps the lake may hold: [lo, hi]; then the points. */
    int last = (int)ref.steps;
    int hi = o->level + 1 < last ? o->level + 1 : last;
    int lo = o->level < 0 ? 0 : o->level;
    if (durability == PIER_DURABILITY_NORMAL) {
        /* The last step a completed sync followed. */
        lo = 0;
        for (int l = o->level; l > 0; l--) {
            if (o->acked_syncs[l] < o->cut_syncs) {
                lo = l;
                break;
            }
        }
    }
    dump = lakedir_sql_dump(lake);
    int j = dump != NULL ? match(dump, (int)ref.pt[lo], (int)ref.pt[hi])
                         : -1;
    if (j < 0) {
        int any = dump != NULL ? match(dump, 0, (int)ref.npoints - 1) : -1;
        snprintf(why, sizeof why, "acknowledged up to step %d, the lake "
                 "holds %s (expected a point in [%zu, %zu], steps %d to "
                 "%d)", o->level,
                 dump == NULL ? "contents that do not read"
                 : any >= 0 ? "another point's contents"
                            : "contents no point of the clean run had",
                 ref.pt[lo], ref.pt[hi], lo, hi);
        goto done;
    }
    int64_t head = head_of(e);
    if (head != ref.heads[j]) {
        snprintf(why, sizeof why, "head %lld, the clean run's at point %d "
                 "is %lld", (long long)head, j, (long long)ref.heads[j]);
        goto done;
    }
    size_t skipped = 0;
    if (!lakecheck_feed_matches_rows(e, workload_boards, workload_nboards,
                                     &skipped, why, sizeof why))
        goto done;
    t->feeds_skipped += skipped;
    int64_t wm = 0;
    static const char row[] = "{\"id\":\"after\",\"n\":1}";
    if (pier_insert_json(&wm, e, "z", row, sizeof row - 1, &err) != PIER_OK ||
        wm <= ref.heads[j]) {
        snprintf(why, sizeof why, "a write after the cut fails: %s: %s",
                 err.tag, err.message);
        goto done;
    }
    /* The files' up, run again, completes. */
    if (!migfiles_rerun(e, lake, files, NULL, why, sizeof why))
        goto done;
    /* The steps the lake holds whole. */
    int whole = 0;
    while (whole < last && (int)ref.pt[whole + 1] <= j)
        whole++;
    if (o->level < 0)
        t->cut_in_open++;
    else
        t->acked += o->level;
    if (whole < o->level)
        t->lost += o->level - whole;
    if (j > (int)ref.pt[o->level < 0 ? 0 : o->level])
        t->inflight_kept++;
    if ((int)ref.pt[whole] != j)
        t->part_kept++;
done:
    free(files);
    free(dump);
    free(lake);
    pier_close(&e);
    if (why[0] != '\0')
        fail_msg("trial %d (%s): %s", trial, how, why);
}

/* The damage profiles: each unsynced sector's chance to be kept and to be
 * torn (else reverted). */
static const struct { int keep, tear; const char *name; } profiles[] = {
    { 0, 0, "all lost" },
    { 100, 0, "all kept" },
    { 50, 0, "half kept" },
    { 34, 33, "kept, lost or torn" },
};

static uint64_t seed_of(void)
{
    uint64_t seed = 20260301;
    const char *env = getenv("PIER_SEED");
    if (env != NULL && *env != '\0')
        seed = strtoull(env, NULL, 10);
    return seed;
}

static int trials_of(void)
{
    const char *env = getenv("PIER_POWERLOSS_TRIALS");
    int n = env != NULL && *env != '\0' ? atoi(env) : DEFAULT_TRIALS;
    return n > 0 ? n : DEFAULT_TRIALS;
}

static int files_trials_of(void)
{
    const char *env = getenv("PIER_POWERLOSS_FILES_TRIALS");
    int n = env != NULL && *env != '\0' ? atoi(env) : DEFAULT_FILES_TRIALS;
    return n >= 0 ? n : DEFAULT_FILES_TRIALS;
}

static void power_cuts(pier_durability durability, uint64_t salt)
{
    uint64_t seed = seed_of();
    print_message("seed %llu (PIER_SEED overrides)\n",
                  (unsigned long long)seed);
    uint64_t rng = (seed ^ salt) * 2 + 1;
    double started = now_s();
    const char *dname = durability == PIER_DURABILITY_FULL ? "full"
                                                           : "normal";

    /* How many writes and syncs a whole run makes. */
    char *dir = lakedir_make();
    assert_non_null(dir);
    faultvfs_cut none = { 0 };
    outcome o;
    run_child(dir, durability, &none, &o, -1);
    if (!WIFEXITED(o.status) || WEXITSTATUS(o.status) != 0)
        fail_msg("the uncut run failed: status %d", o.status);
    assert_int_equal(o.level, (int)ref.steps);
    assert_true(o.writes > 0 && o.syncs > 0);
    {
        /* The uncut run under the fault VFS ends where the clean run did. */
        char *lake = lakedir_join(dir, "lake.sqlite");
        char *dump = lakedir_sql_dump(lake);
        assert_non_null(dump);
        assert_string_equal(dump, ref.dumps[ref.npoints - 1]);
        free(dump);
        free(lake);
    }
    lakedir_remove_tree(dir);
    free(dir);
    long writes = (long)o.writes, syncs = (long)o.syncs;
    /* The moments of the steps that run migration files: were a
     * version's SQL and its record committed apart, a cut between the two
     * would leave one without the other. Besides the trials drawn from
     * the whole run, every sync of those steps is cut at (losing what it
     * would have made durable) and `files_writes` of their writes. */
    long fw_lo = 0, fw_hi = -1, fs_lo = 0, fs_hi = -1;
    for (size_t i = 0; i < ref.steps; i++) {
        if (strncmp(workload_step_name(i), "files_", 6) != 0)
            continue;
        if (fw_hi < 0) {
            fw_lo = (long)o.acked_writes[i] + 1;
            fs_lo = (long)o.acked_sync_points[i] + 1;
        }
        fw_hi = (long)o.acked_writes[i + 1];
        fs_hi = (long)o.acked_sync_points[i + 1];
    }
    assert_true(fw_hi >= fw_lo);
    int file_syncs = (int)(fs_hi - fs_lo + 1);
    int files_writes = files_trials_of();

    tally t = { 0 };
    int trials = trials_of();
    int all = trials + file_syncs + files_writes;
    for (int trial = 0; trial < all; trial++) {
        faultvfs_cut cut = { 0 };
        size_t p = next_rand(&rng) % (sizeof profiles / sizeof *profiles);
        if (trial < trials) {
            cut.at_sync = trial % 2 == 1;
            cut.k = 1 + (long)(next_rand(&rng) %
                               (uint64_t)(cut.at_sync ? syncs : writes));
        } else if (trial < trials + file_syncs) {
            cut.at_sync = true;
            cut.k = fs_lo + (trial - trials);
            p = 0;                                    /* all lost */
            t.files_trials++;
        } else {
            cut.k = fw_lo + (long)(next_rand(&rng) %
                                   (uint64_t)(fw_hi - fw_lo + 1));
            t.files_trials++;
        }
        cut.seed = next_rand(&rng);
        cut.keep_percent = profiles[p].keep;
        cut.tear_percent = profiles[p].tear;
        cut.before = report_cut;
        char how[128];
        snprintf(how, sizeof how, "%s, %s %ld, %s, seed %llu", dname,
                 cut.at_sync ? "sync" : "write", cut.k, profiles[p].name,
                 (unsigned long long)seed);

        dir = lakedir_make();
        assert_non_null(dir);
        run_child(dir, durability, &cut, &o, trial);
        if (!WIFEXITED(o.status) || WEXITSTATUS(o.status) !=
                                        FAULTVFS_CUT_EXIT || !o.cut)
            fail_msg("trial %d (%s): the child did not end at the cut: "
                     "status %d", trial, how, o.status);
        check_lake(dir, &o, durability, &t, trial, how);
        lakedir_remove_tree(dir);
        free(dir);
        t.trials++;
        if (cut.at_sync)
            t.cut_at_sync++;
        else
            t.cut_at_write++;
    }
    print_message("%s: %d power cuts (%d at a sync of %ld, %d at a write "
                  "of %ld; %d in the steps of migration files, writes "
                  "%ld to %ld and %d syncs), %ld acknowledged steps, %ld "
                  "lost, %d in-flight steps kept (%d in part), %d cuts "
                  "while opening, %.1f s\n", dname, t.trials, t.cut_at_sync,
                  syncs, t.cut_at_write, writes, t.files_trials, fw_lo,
                  fw_hi, file_syncs, t.acked, t.lost, t.inflight_kept,
                  t.part_kept, t.cut_in_open, now_s() - started);
    if (durability == PIER_DURABILITY_FULL)
        assert_int_equal(t.lost, 0);
}

static void full_durability_loses_nothing_acknowledged(void **state)
{
    (void)state;
    power_cuts(PIER_DURABILITY_FULL, 0);
}

static void normal_durability_loses_only_an_unsynced_tail(void **state)
{
    (void)state;
    power_cuts(PIER_DURABILITY_NORMAL, UINT64_C(0x9e3779b97f4a7c15));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(full_durability_loses_nothing_acknowledged),
        cmocka_unit_test(normal_durability_loses_only_an_unsynced_tail),
    };
    return cmocka_run_group_tests(tests, build_reference, free_reference);
}
