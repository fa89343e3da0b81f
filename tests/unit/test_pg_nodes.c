/*
 * test_pg_nodes.c: the clustered topology with several nodes, through
 * pier.h only (docs/clustered.md). A node is an engine opened on the
 * PostgreSQL lake with a cache directory of its own; the tests run nodes
 * as processes (fork) where a node's death or its own process matters,
 * and in this process otherwise:
 *
 *   - writes on every node, reads on every node converge, and the feed
 *     holds every acknowledged write once, in watermark order;
 *   - a node killed with SIGKILL mid-write and started again on its cache
 *     catches up, and every write it acknowledged is in the lake;
 *   - a drop on one node is seen by another at its next sync;
 *   - a replica file deleted under a running node is made again;
 *   - the server restarted under a writing node costs no acknowledged
 *     write, and the node goes on by itself once the server is back;
 *   - while the server is down, a query fails with SyncFailed unless it
 *     allows the staleness of the node's replica; writes fail with
 *     WriteFailed, and nothing is half-written;
 *   - a power cut while a node writes its replica (support/faultvfs.h,
 *     at every kind of moment: making it, applying records) leaves a
 *     replica that the node, started again, serves right: caught up, or
 *     made again; an I/O error in the replica is SyncFailed, and the node
 *     syncs once the disk is back.
 *
 * Needs the test server (pgtest.h); the cases that stop the server start
 * one of their own (tests/support/pg.sh), so that the tests running
 * beside them keep theirs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "pier.h"
#include "support/faultvfs.h"
#include "support/lakedir.h"
#include "support/pgtest.h"

static const char *url;
static const char *shared_url; /* the test server's */
static char private_dir[512];  /* a server of the test's own, or "" */
static char private_url[512];
static char ns[64];            /* this test's namespace */
static char *root;             /* the nodes' cache directories live here */

static void sleep_ms(long ms)
{
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&t, NULL);
}

/* ---- nodes ---- */

/* The cache directory of node `n`. */
static void cache_of(int n, char *out, size_t cap)
{
    snprintf(out, cap, "%s/node%d", root, n);
}

static pier_status node_try(pier_engine **e, int n, int refresh_ms,
                            pier_error *err)
{
    char cache[512];
    cache_of(n, cache, sizeof cache);
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.lake = url;
    o.lake_namespace = ns;
    o.cache_dir = cache;
    o.head_refresh_ms = refresh_ms;
    return pier_open(e, NULL, &o, err);
}

static pier_engine *node(int n)
{
    pier_engine *e = NULL;
    pier_error err;
    if (node_try(&e, n, 50, &err) != PIER_OK)
        fail_msg("node %d: %s: %s", n, err.tag, err.message);
    return e;
}

static int64_t insert(pier_engine *e, const char *board, const char *json)
{
    int64_t wm = 0;
    pier_error err;
    if (pier_insert_json(&wm, e, board, json, strlen(json), &err) != PIER_OK)
        fail_msg("insert %s: %s: %s", json, err.tag, err.message);
    return wm;
}

/* The rows of `board` as the node reads them after a sync. */
static int64_t count_synced(pier_engine *e, const char *board)
{
    pier_error err;
    if (pier_sync(NULL, e, board, &err) != PIER_OK)
        fail_msg("sync %s: %s: %s", board, err.tag, err.message);
    pier_cursor *c = NULL;
    if (pier_query(&c, e, board, "SELECT count(*) FROM {{board}}", NULL,
                   NULL, &err) != PIER_OK)
        fail_msg("count %s: %s: %s", board, err.tag, err.message);
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    int64_t n = pier_row_value(row, 0)->as.integer;
    pier_cursor_close(c);
    return n;
}

static void drop_namespace(void)
{
    PGconn *c = PQconnectdb(url);
    char sql[160];
    snprintf(sql, sizeof sql, "SET client_min_messages TO warning; DROP "
             "SCHEMA IF EXISTS %s CASCADE", ns);
    PQclear(PQexec(c, sql));
    PQfinish(c);
}

static int setup(void **state)
{
    (void)state;
    static int serial;
    snprintf(ns, sizeof ns, "nodes%ld_%d", (long)getpid(), ++serial);
    drop_namespace();
    root = lakedir_make();
    return root != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    drop_namespace();
    int rc = lakedir_remove_tree(root);
    free(root);
    root = NULL;
    return rc;
}

/* Runs pg.sh with `what` on the test's own server's directory. */
static int pg_sh(const char *what)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "bash '%s/tests/support/pg.sh' %s '%s' "
             ">/dev/null", getenv("PIER_SOURCE_DIR"), what, private_dir);
    return system(cmd);
}

static void server(const char *what)
{
    if (pg_sh(what) != 0)
        fail_msg("pg.sh %s failed", what);
}

/* The cases that stop the server run on one of their own, so that the
 * other tests' server keeps running. False when none can be had. */
static bool own_server(void)
{
    if (getenv("PIER_SOURCE_DIR") == NULL)
        return false;
    char *tmp = lakedir_make();
    assert_non_null(tmp);
    snprintf(private_dir, sizeof private_dir, "%s/pg", tmp);
    free(tmp);
    if (pg_sh("start") != 0)
        return false;
    char path[600];
    snprintf(path, sizeof path, "%s/url", private_dir);
    size_t n = 0;
    char *u = lakedir_read_file(path, &n);
    assert_non_null(u);
    while (n > 0 && (u[n - 1] == '\n' || u[n - 1] == '\r'))
        u[--n] = '\0';
    snprintf(private_url, sizeof private_url, "%s", u);
    free(u);
    url = private_url;
    return true;
}

static int teardown_own(void **state)
{
    (void)state;
    int rc = 0;
    if (private_dir[0] != '\0') {
        rc = pg_sh("stop") == 0 ? 0 : -1;
        char *slash = strrchr(private_dir, '/');
        *slash = '\0';
        rmdir(private_dir);
        private_dir[0] = '\0';
    }
    url = shared_url;
    lakedir_remove_tree(root);
    free(root);
    root = NULL;
    return rc;
}

/* ---- writes on every node converge ---- */

#define NODES 3
#define ROWS 40

static void test_nodes_converge(void **state)
{
    (void)state;
    /* (the lake made once, so that the nodes do not race to make it) */
    pier_engine *first = node(0);
    pier_close(&first);
    pid_t kids[NODES];
    for (int n = 0; n < NODES; n++) {
        kids[n] = fork();
        assert_true(kids[n] >= 0);
        if (kids[n] == 0) {
            pier_engine *e = node(n);
            char json[128], own[16];
            snprintf(own, sizeof own, "own%d", n);
            for (int k = 0; k < ROWS; k++) {
                snprintf(json, sizeof json, "{\"id\":\"n%d-%d\",\"k\":%d,"
                         "\"from\":%d}", n, k, k, n);
                int64_t wm = 0;
                pier_error err;
                if (pier_insert_json(&wm, e, "shared", json, strlen(json),
                                     &err) != PIER_OK ||
                    pier_insert_json(&wm, e, own, json, strlen(json),
                                     &err) != PIER_OK) {
                    fprintf(stderr, "node %d: %s: %s\n", n, err.tag,
                            err.message);
                    _exit(1);
                }
            }
            pier_close(&e);
            _exit(0);
        }
    }
    for (int n = 0; n < NODES; n++) {
        int st = 0;
        assert_int_equal(waitpid(kids[n], &st, 0), kids[n]);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    /* Every node reads every node's writes, on its own replicas. */
    pier_engine *e[NODES];
    for (int n = 0; n < NODES; n++)
        e[n] = node(n);
    for (int n = 0; n < NODES; n++) {
        assert_int_equal(count_synced(e[n], "shared"), NODES * ROWS);
        for (int m = 0; m < NODES; m++) {
            char own[16];
            snprintf(own, sizeof own, "own%d", m);
            assert_int_equal(count_synced(e[n], own), ROWS);
        }
    }
    /* The same query gives the same answer on every node. */
    for (int n = 0; n < NODES; n++) {
        pier_cursor *c = NULL;
        pier_error err;
        assert_int_equal(pier_query(&c, e[n], "shared", "SELECT sum(k), "
                                    "count(DISTINCT \"from\") FROM "
                                    "{{board}}", NULL, NULL, &err),
                         PIER_OK);
        const pier_row *row = NULL;
        assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
        assert_int_equal(pier_row_value(row, 0)->as.integer,
                         NODES * (ROWS * (ROWS - 1) / 2));
        assert_int_equal(pier_row_value(row, 1)->as.integer, NODES);
        pier_cursor_close(c);
    }
    /* The feed: one record per write, watermarks rising; the head is the
     * number of records of the lake (dense from 1). */
    pier_changes_page *p = NULL;
    pier_error err;
    int64_t after = 0, inserts = 0, last = 0;
    for (;;) {
        assert_int_equal(pier_changes(&p, e[1], "shared", after, 0, &err),
                         PIER_OK);
        assert_false(p->resync);
        size_t n = p->nrecords;
        for (size_t i = 0; i < n; i++) {
            const pier_change *c = &p->records[i];
            assert_true(c->watermark > last);
            last = c->watermark;
            inserts += strcmp(c->kind, "insert") == 0;
        }
        after = p->next;
        pier_changes_page_free(p);
        if (n == 0)
            break;
    }
    assert_int_equal(inserts, NODES * ROWS);
    /* 1 + NODES boards made, and two writes per row */
    int64_t head = 0;
    assert_int_equal(pier_head_from_catalog(&head, e[2], &err), PIER_OK);
    assert_int_equal(head, 2 * NODES * ROWS + 1 + NODES);
    pier_stats st;
    assert_int_equal(pier_stats_get(&st, e[2], &err), PIER_OK);
    assert_true(st.syncs >= 1);
    assert_true(st.replicas >= 1);
    for (int n = 0; n < NODES; n++)
        pier_close(&e[n]);
}

/* ---- a node killed and started again ---- */

/* A node writing rows "w<k>" one at a time until killed, writing each
 * acknowledged k to `fd` (and retrying a failed write). */
static void writer(int n, int fd)
{
    pier_engine *e = NULL;
    pier_error err;
    while (node_try(&e, n, 50, &err) != PIER_OK)
        sleep_ms(50);          /* (the server may be restarting) */
    for (int k = 0;; k++) {
        char json[64];
        snprintf(json, sizeof json, "{\"id\":\"w%d\",\"k\":%d}", k, k);
        int64_t wm = 0;
        while (pier_insert_json(&wm, e, "log", json, strlen(json), &err) !=
               PIER_OK) {
            if (err.status == PIER_E_DUPLICATE_ID)
                break;   /* (a commit whose answer was lost: it is there) */
            sleep_ms(20);
        }
        if (write(fd, &k, sizeof k) != (ssize_t)sizeof k)
            _exit(1);
    }
}

/* Starts a writer node; returns its pid and the read end of its acks. */
static pid_t start_writer(int n, int *rd)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        writer(n, fds[1]);
        _exit(0);
    }
    close(fds[1]);
    *rd = fds[0];
    return pid;
}

/* Reads `want` more acks (the highest k acknowledged goes to *top). */
static void read_acks(int rd, int want, int *top)
{
    for (int i = 0; i < want; i++) {
        int k = -1;
        assert_int_equal(read(rd, &k, sizeof k), (ssize_t)sizeof k);
        *top = k;
    }
}

static void kill_writer(pid_t pid, int rd, int *top)
{
    kill(pid, SIGKILL);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    /* (acks written before it died) */
    int k = -1;
    while (read(rd, &k, sizeof k) == (ssize_t)sizeof k)
        *top = k;
    close(rd);
}

/* Every acknowledged row up to `top` is in the lake, read on node n. */
static void all_acked_there(pier_engine *e, int top)
{
    pier_error err;
    for (int k = 0; k <= top; k++) {
        char id[32];
        snprintf(id, sizeof id, "w%d", k);
        pier_row *row = NULL;
        if (pier_row_get(&row, e, "log", id, &err) != PIER_OK)
            fail_msg("acknowledged row %s: %s: %s", id, err.tag,
                     err.message);
        pier_row_free(row);
    }
    assert_true(count_synced(e, "log") >= top + 1);
}

static void test_node_killed_catches_up(void **state)
{
    (void)state;
    pier_engine *first = node(1);
    insert(first, "log", "{\"id\":\"start\",\"k\":-1}");
    assert_int_equal(count_synced(first, "log"), 1);   /* a replica */
    pier_close(&first);
    int rd = -1, top = -1;
    pid_t pid = start_writer(1, &rd);
    read_acks(rd, 30, &top);
    kill_writer(pid, rd, &top);
    assert_true(top >= 29);
    /* the killed node again, on its cache: it catches up */
    pier_engine *again = node(1);
    all_acked_there(again, top);
    pier_error err;
    int64_t wm = -1, head = -1;
    assert_int_equal(pier_sync(&wm, again, "log", &err), PIER_OK);
    assert_int_equal(pier_head_from_catalog(&head, again, &err), PIER_OK);
    assert_int_equal(wm, head);
    assert_int_equal(pier_watermark_of(&wm, again, "log", &err), PIER_OK);
    assert_int_equal(wm, head);
    pier_close(&again);
}

/* ---- one catalog for every node ---- */

/* A type one node inferred binds another, as on one node; a column
 * another node added or widened is seen by the next write. */
static void test_catalog_shared(void **state)
{
    (void)state;
    pier_engine *a = node(0), *b = node(1);
    insert(a, "typed", "{\"id\":\"1\",\"v\":1}");
    pier_error err;
    int64_t wm = -1;
    const char *text_v = "{\"id\":\"2\",\"v\":\"text\"}";
    assert_int_equal(pier_insert_json(&wm, b, "typed", text_v,
                                      strlen(text_v), &err),
                     PIER_E_COLUMN_TYPE_CONFLICT);
    assert_string_equal(err.column, "v");
    assert_string_equal(err.column_type, "bigint");
    assert_int_equal(wm, -1);
    /* widened on one node, the other's text fits */
    assert_int_equal(pier_board_widen_column(NULL, a, "typed", "v", "text",
                                             &err), PIER_OK);
    insert(b, "typed", "{\"id\":\"2\",\"v\":\"text\"}");
    /* strict on one node, refused on the other */
    pier_board_options o = PIER_BOARD_OPTIONS_INIT;
    o.strict = true;
    assert_int_equal(pier_board_create(NULL, a, "strict_one", &o, &err),
                     PIER_OK);
    const char *undeclared = "{\"id\":\"1\",\"x\":1}";
    assert_int_equal(pier_insert_json(NULL, b, "strict_one", undeclared,
                                      strlen(undeclared), &err),
                     PIER_E_UNKNOWN_COLUMN);
    assert_int_equal(count_synced(a, "typed"), 2);
    pier_close(&a);
    pier_close(&b);
}

/* ---- a query's limits on a replica ---- */

static void test_query_limits_on_replica(void **state)
{
    (void)state;
    pier_engine *e = node(0);
    char json[200 * 16 + 2];
    size_t len = 0;
    json[len++] = '[';
    for (int i = 0; i < 200; i++)
        len += (size_t)snprintf(json + len, sizeof json - len,
                                "%s{\"id\":\"%d\"}", i > 0 ? "," : "", i);
    json[len++] = ']';
    json[len] = '\0';
    insert(e, "lim", json);
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    o.limits.time_ms = 50;
    pier_cursor *c = NULL;
    pier_error err;
    const pier_row *row = NULL;
    /* (1.6e9 rows: far longer than the limit) */
    pier_status rc = pier_query(&c, e, "lim", "SELECT count(*) FROM "
                                "{{board}} a, {{board}} b, {{board}} c, "
                                "{{board}} d", NULL, &o, &err);
    if (rc == PIER_OK) {
        rc = pier_cursor_next(&row, c, &err);
        pier_cursor_close(c);
    }
    assert_int_equal(rc, PIER_E_LIMIT_EXCEEDED);
    /* the fence holds on a replica as on the embedded lake */
    assert_int_equal(pier_query(&c, e, "lim", "SELECT * FROM _pier_meta",
                                NULL, NULL, &err),
                     PIER_E_ENTITY_NOT_ALLOWED);
    assert_int_equal(pier_query(&c, e, "lim", "SELECT * FROM {{board}}; "
                                "SELECT 1", NULL, NULL, &err),
                     PIER_E_ENTITY_NOT_ALLOWED);
    /* and the engine answers the next query */
    assert_int_equal(count_synced(e, "lim"), 200);
    pier_close(&e);
}

/* ---- a drop, and a replica deleted ---- */

static void test_drop_seen_at_next_sync(void **state)
{
    (void)state;
    pier_engine *a = node(0), *b = node(1);
    insert(a, "gone", "{\"id\":\"x\"}");
    assert_int_equal(count_synced(b, "gone"), 1);
    char dir[600];
    cache_of(1, dir, 512);
    strcat(dir, "/gone");
    assert_true(lakedir_exists(dir));
    pier_error err;
    assert_int_equal(pier_board_drop(NULL, a, "gone", &err), PIER_OK);
    assert_int_equal(pier_sync(NULL, b, "gone", &err),
                     PIER_E_BOARD_NOT_FOUND);
    assert_false(lakedir_exists(dir));         /* its replica went too */
    pier_cursor *c = NULL;
    assert_int_equal(pier_query(&c, b, "gone", "SELECT 1 FROM {{board}}",
                                NULL, NULL, &err),
                     PIER_E_BOARD_NOT_FOUND);
    /* made again on the other node: a new board, read afresh */
    insert(a, "gone", "{\"id\":\"y\",\"n\":2}");
    assert_int_equal(count_synced(b, "gone"), 1);
    pier_close(&a);
    pier_close(&b);
}

static void test_replica_deleted_is_rebuilt(void **state)
{
    (void)state;
    pier_engine *e = node(0);
    insert(e, "kept", "[{\"id\":\"a\"},{\"id\":\"b\"}]");
    assert_int_equal(count_synced(e, "kept"), 2);
    pier_error err;
    pier_stats before;
    assert_int_equal(pier_stats_get(&before, e, &err), PIER_OK);
    char dir[600], *files[3] = { NULL, NULL, NULL };
    cache_of(0, dir, 512);
    strcat(dir, "/kept");
    const char *names[3] = { "lake.sqlite", "lake.sqlite-wal",
                             "lake.sqlite-shm" };
    for (int i = 0; i < 3; i++) {
        files[i] = lakedir_join(dir, names[i]);
        unlink(files[i]);
        free(files[i]);
    }
    insert(e, "kept", "{\"id\":\"c\"}");
    assert_int_equal(count_synced(e, "kept"), 3);
    pier_stats after;
    assert_int_equal(pier_stats_get(&after, e, &err), PIER_OK);
    assert_int_equal(after.rebuilds, before.rebuilds + 1);
    /* evicted: its files go, and the next read makes it again */
    assert_int_equal(pier_evict(e, "kept", &err), PIER_OK);
    assert_false(lakedir_exists(dir));
    assert_int_equal(count_synced(e, "kept"), 3);
    assert_true(lakedir_exists(dir));
    pier_close(&e);
}

/* ---- the server restarted, and down ---- */

static void test_server_restart_costs_no_acknowledged_write(void **state)
{
    (void)state;
    if (!own_server())
        skip();
    pier_engine *first = node(2);
    insert(first, "log", "{\"id\":\"start\"}");
    pier_close(&first);
    int rd = -1, top = -1;
    pid_t pid = start_writer(2, &rd);
    read_acks(rd, 20, &top);
    server("restart");
    /* the node goes on by itself once the server is back */
    read_acks(rd, 20, &top);
    kill_writer(pid, rd, &top);
    pier_engine *e = node(3);
    all_acked_there(e, top);
    pier_close(&e);
}

static void test_server_down(void **state)
{
    (void)state;
    if (!own_server())
        skip();
    pier_engine *e = NULL;
    pier_error err;
    /* (a refresh interval of 1 ms: every query asks the server) */
    assert_int_equal(node_try(&e, 0, 1, &err), PIER_OK);
    insert(e, "t", "[{\"id\":\"a\"},{\"id\":\"b\"}]");
    assert_int_equal(count_synced(e, "t"), 2);
    server("halt");
    sleep_ms(5);
    pier_cursor *c = NULL;
    assert_int_equal(pier_query(&c, e, "t", "SELECT count(*) FROM {{board}}",
                                NULL, NULL, &err),
                     PIER_E_SYNC_FAILED);
    if (strstr(err.message, "board 't'") == NULL)
        fail_msg("%s", err.message);
    /* a caller that allows a minute's staleness reads the replica */
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    o.max_stale_ms = 60000;
    assert_int_equal(pier_query(&c, e, "t", "SELECT count(*) FROM {{board}}",
                                NULL, &o, &err),
                     PIER_OK);
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_int_equal(pier_row_value(row, 0)->as.integer, 2);
    pier_cursor_close(c);
    /* ... but not one that allows less than its age */
    sleep_ms(20);
    o.max_stale_ms = 10;
    assert_int_equal(pier_query(&c, e, "t", "SELECT count(*) FROM {{board}}",
                                NULL, &o, &err),
                     PIER_E_SYNC_FAILED);
    /* writes fail, with libpq's reason */
    int64_t wm = 0;
    pier_status rc = pier_insert_json(&wm, e, "t", "{\"id\":\"c\"}", 10,
                                      &err);
    assert_int_equal(rc, PIER_E_WRITE_FAILED);
    assert_non_null(strstr(err.message, "PostgreSQL"));
    pier_row *row_a = NULL;
    assert_int_equal(pier_row_get(&row_a, e, "t", "a", &err),
                     PIER_E_READ_FAILED);
    /* opening a node fails with LakeUnavailable */
    pier_engine *none = NULL;
    assert_int_equal(node_try(&none, 5, 50, &err), PIER_E_LAKE_UNAVAILABLE);
    assert_null(none);
    server("resume");
    /* the engine connects again by itself; the failed write left nothing */
    assert_int_equal(count_synced(e, "t"), 2);
    insert(e, "t", "{\"id\":\"c\"}");
    assert_int_equal(count_synced(e, "t"), 3);
    pier_close(&e);
}

/* ---- the replica's disk: a power cut, I/O errors ---- */

/* A node in a child process whose power is cut at the k-th write of a
 * replica file: it makes the replica of "cut", writes ten rows to the
 * lake, syncs them into the replica. Exits 0 if the cut never came. */
static void cut_child(int n, long k)
{
    faultvfs_install();
    faultvfs_set_real_sync(false);
    faultvfs_track(true);
    faultvfs_cut cut = { .at_sync = false, .k = k, .seed = (uint64_t)k,
                         .keep_percent = 40, .tear_percent = 20 };
    faultvfs_arm_cut(&cut);
    pier_engine *e = NULL;
    pier_error err;
    if (node_try(&e, n, 50, &err) != PIER_OK)
        _exit(3);
    if (pier_sync(NULL, e, "cut", &err) != PIER_OK)
        _exit(4);
    for (int i = 0; i < 10; i++) {
        char json[64];
        snprintf(json, sizeof json, "{\"id\":\"c%d-%d\",\"k\":%ld}", n, i,
                 k);
        if (pier_insert_json(NULL, e, "cut", json, strlen(json), &err) !=
            PIER_OK)
            _exit(5);
    }
    if (pier_sync(NULL, e, "cut", &err) != PIER_OK)
        _exit(6);
    pier_close(&e);
    _exit(0);
}

static void test_replica_power_cut(void **state)
{
    (void)state;
    pier_engine *w = node(0);
    for (int i = 0; i < 20; i++) {
        char json[64];
        snprintf(json, sizeof json, "[{\"id\":\"w%d\",\"k\":%d}]", i, i);
        insert(w, "cut", json);
    }
    /* the moments: writes 1, 2, 3... then further apart */
    static const long ks[] = { 1, 2, 3, 5, 8, 12, 17, 25, 40, 60 };
    int cuts = 0;
    for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
        int n = 10 + (int)t;
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0)
            cut_child(n, ks[t]);
        int st = 0;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        assert_true(WIFEXITED(st));
        assert_true(WEXITSTATUS(st) == 0 ||
                    WEXITSTATUS(st) == FAULTVFS_CUT_EXIT);
        cuts += WEXITSTATUS(st) == FAULTVFS_CUT_EXIT;
        /* started again on the same cache, on a disk that works */
        pier_engine *again = node(n);
        int64_t lake = 0;
        pier_error err;
        assert_int_equal(pier_row_count(&lake, w, "cut", &err), PIER_OK);
        assert_int_equal(count_synced(again, "cut"), lake);
        pier_cursor *c = NULL;
        assert_int_equal(pier_query(&c, again, "cut", "SELECT count(*) FROM "
                                    "{{board}} WHERE k IS NULL", NULL,
                                    NULL, &err), PIER_OK);
        const pier_row *row = NULL;
        assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
        assert_int_equal(pier_row_value(row, 0)->as.integer, 0);
        pier_cursor_close(c);
        pier_close(&again);
    }
    assert_true(cuts >= 5);       /* (the early moments all cut) */
    /* I/O errors: a sync fails with SyncFailed, and works once the disk
     * is back */
    faultvfs_install();
    faultvfs_set_real_sync(false);
    pier_engine *e = node(30);
    insert(w, "cut", "{\"id\":\"late\"}");
    faultvfs_arm(FAULTVFS_WRITE, 1, true);
    pier_error err;
    assert_int_equal(pier_sync(NULL, e, "cut", &err), PIER_E_SYNC_FAILED);
    assert_non_null(strstr(err.message, "board 'cut'"));
    faultvfs_disarm();
    int64_t lake = 0;
    assert_int_equal(pier_row_count(&lake, w, "cut", &err), PIER_OK);
    assert_int_equal(count_synced(e, "cut"), lake);
    insert(w, "cut", "{\"id\":\"later\"}");
    faultvfs_arm(FAULTVFS_FULL, 1, true);
    assert_int_equal(pier_sync(NULL, e, "cut", &err), PIER_E_SYNC_FAILED);
    faultvfs_disarm();
    assert_int_equal(count_synced(e, "cut"), lake + 1);
    pier_close(&e);
    faultvfs_reset();
    faultvfs_uninstall();
    pier_close(&w);
}

/* ---- topologies ---- */

/* Counts `board` on e without a sync: what a plain query sees. */
static int64_t count_now(pier_engine *e, const char *board)
{
    pier_error err;
    pier_cursor *c = NULL;
    if (pier_query(&c, e, board, "SELECT count(*) FROM {{board}}", NULL,
                   NULL, &err) != PIER_OK)
        fail_msg("count %s: %s: %s", board, err.tag, err.message);
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    int64_t n = pier_row_value(row, 0)->as.integer;
    pier_cursor_close(c);
    return n;
}

static void test_topologies(void **state)
{
    (void)state;
    /* single-node: the head read once, then only this engine's writes */
    char cache[512];
    cache_of(7, cache, sizeof cache);
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.lake = url;
    o.lake_namespace = ns;
    o.cache_dir = cache;
    o.head_refresh_ms = 1;
    o.topology = PIER_TOPOLOGY_SINGLE_NODE;
    pier_engine *single = NULL;
    pier_error err;
    assert_int_equal(pier_open(&single, NULL, &o, &err), PIER_OK);
    insert(single, "s", "{\"id\":\"a\"}");
    assert_int_equal(count_now(single, "s"), 1);
    insert(single, "s", "{\"id\":\"b\"}");
    assert_int_equal(count_now(single, "s"), 2);   /* its own: at once */
    /* clustered, refreshing every millisecond: another's writes show */
    pier_engine *other = NULL;
    assert_int_equal(node_try(&other, 8, 1, &err), PIER_OK);
    assert_int_equal(count_now(other, "s"), 2);
    insert(other, "s", "{\"id\":\"c\"}");
    sleep_ms(5);
    assert_int_equal(count_now(single, "s"), 2);   /* never read again */
    assert_int_equal(count_synced(single, "s"), 3);
    insert(single, "s", "{\"id\":\"d\"}");
    sleep_ms(5);
    assert_int_equal(count_now(other, "s"), 4);
    pier_close(&other);
    pier_close(&single);
    /* a reader may ask for a lake that exists: none is made */
    pier_open_options r = o;
    r.topology = PIER_TOPOLOGY_DEFAULT;
    r.lake_namespace = "nodes_none";
    r.must_exist = true;
    cache_of(9, cache, sizeof cache);
    r.cache_dir = cache;
    pier_engine *reader = NULL;
    assert_int_equal(pier_open(&reader, NULL, &r, &err),
                     PIER_E_LAKE_UNAVAILABLE);
    assert_non_null(strstr(err.message, "no lake in namespace "
                                        "'nodes_none'"));
    assert_null(reader);
    r.lake_namespace = ns;                 /* (this one exists) */
    assert_int_equal(pier_open(&reader, NULL, &r, &err), PIER_OK);
    pier_close(&reader);
    /* an embedded lake has one node */
    char *dir = lakedir_make();
    pier_open_options e = PIER_OPEN_OPTIONS_INIT;
    e.topology = PIER_TOPOLOGY_CLUSTERED;
    pier_engine *none = NULL;
    assert_int_equal(pier_open(&none, dir, &e, &err),
                     PIER_E_TOPOLOGY_UNSUPPORTED);
    assert_null(none);
    e.topology = PIER_TOPOLOGY_SINGLE_NODE;
    char *sub = lakedir_join(dir, "sub");
    e.must_exist = true;                   /* (none there yet) */
    assert_int_equal(pier_open(&none, sub, &e, &err),
                     PIER_E_LAKE_UNAVAILABLE);
    assert_false(lakedir_exists(sub));
    e.must_exist = false;
    assert_int_equal(pier_open(&none, sub, &e, &err), PIER_OK);
    pier_close(&none);
    e.must_exist = true;
    assert_int_equal(pier_open(&none, sub, &e, &err), PIER_OK);
    pier_close(&none);
    free(sub);
    lakedir_remove_tree(dir);
    free(dir);
    /* options a node refuses */
    o.head_refresh_ms = -1;
    assert_int_equal(pier_open(&none, NULL, &o, &err),
                     PIER_E_INVALID_ARGUMENT);
    o.head_refresh_ms = 0;
    o.lake_namespace = "Bad-Name";
    assert_int_equal(pier_open(&none, NULL, &o, &err),
                     PIER_E_INVALID_ARGUMENT);
    o.lake_namespace = ns;
    o.topology = (pier_topology)9;
    assert_int_equal(pier_open(&none, NULL, &o, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_null(none);
}

int main(void)
{
    shared_url = url = pgtest_url("test_pg_nodes");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_nodes_converge, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_node_killed_catches_up, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_catalog_shared, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_query_limits_on_replica, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_drop_seen_at_next_sync, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_replica_deleted_is_rebuilt,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_topologies, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replica_power_cut, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(
            test_server_restart_costs_no_acknowledged_write, setup,
            teardown_own),
        cmocka_unit_test_setup_teardown(test_server_down, setup,
                                        teardown_own),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
