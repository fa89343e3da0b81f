/*
 * soak_mixed.c: eight processes on one lake at once, for a bounded time,
 * and every invariant holds during and after: no lock error ever reaches
 * a caller.
 *
 * The processes, each with its own engine on the same data directory:
 * - two transfer writers: each transfer is either a pier_tx over boards
 *   "ledger" and "accounts" (two ledger rows whose deltas cancel out, and
 *   both accounts' rows upserted), or a pier_exec script of two UPDATEs
 *   that move an amount between two rows of the declared table "bank";
 * - one writer of everything else on board "misc": inserts, upserts,
 *   updates, deletes, added and widened columns, truncates;
 * - two readers: board queries (the ledger sums to 0 and holds pairs of
 *   rows, every row a query names is found by pier_row_get), counts, and
 *   through pier_exec the bank's total, which never changes; board lists,
 *   descriptions, stats, feed pages and the head, which never goes back;
 * - two watchers that follow the three boards' feeds: one with a
 *   pier_watch per board on threads of its own, one polling pier_changes;
 *   each logs every record it sees;
 * - one process that runs pier_maintain every 300 ms, its clock 5 s
 *   behind, so that it drops the records older than 5 s (the watchers
 *   keep up well within that) and checkpoints the log.
 * Every call of every process must succeed: a failure, and above all
 * SQLITE_BUSY or "database is locked" surfacing to a caller, fails the
 * run (the process prints it).
 *
 * After SOAK_SECONDS (default 60; the short run of `make test` takes 5)
 * the writers stop; the watchers catch up with the final head and stop.
 * Then: each watcher saw each board's records in order, and together the
 * records of the three boards are exactly watermarks 1 to the head, with
 * no gap and no resync; each board rebuilt from each watcher's records
 * equals the stored board; the ledger sums to 0 and the bank to its
 * opening total; the lake passes integrity_check and pier_schema_check.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "pier.h"
#include "support/crashkit.h"
#include "support/feed_model.h"
#include "support/lakedir.h"

#define NACCOUNTS 16
#define OPENING_BALANCE 1000
#define NBOARDS 3
#define MAINTAIN_EVERY_US 300000
#define MAINTAIN_LAG_US INT64_C(5000000)
#define WATCH_POLL_MS 20
/* How long the watchers may take to catch up once the writers stopped. */
#define CATCH_UP_S 120

static const char *const boards[NBOARDS] = { "ledger", "accounts", "misc" };

typedef enum role {
    ROLE_TRANSFER,
    ROLE_MISC,
    ROLE_QUERY_READER,
    ROLE_EXEC_READER,
    ROLE_WATCH_THREADS,
    ROLE_WATCH_POLL,
    ROLE_MAINTAIN
} role;

static const char *const role_names[] = {
    "transfer writer", "misc writer", "query reader", "exec reader",
    "watcher (pier_watch)", "watcher (pier_changes)", "maintainer",
};

/* The eight processes. */
static const role roles[] = {
    ROLE_TRANSFER, ROLE_TRANSFER, ROLE_MISC, ROLE_QUERY_READER,
    ROLE_EXEC_READER, ROLE_WATCH_THREADS, ROLE_WATCH_POLL, ROLE_MAINTAIN,
};
#define NPROCS (sizeof roles / sizeof roles[0])

/* What a process did, sent to the parent when it ends. */
typedef struct tally {
    int64_t calls;       /* calls on the engine */
    int64_t failures;    /* calls that failed (each printed) */
    int64_t lock_failures; /* ... of them for want of a lock */
    int64_t checks;      /* invariant checks that held */
    int64_t violations;  /* ... that did not (each printed) */
    int64_t transfers;   /* writers: transfers committed */
    int64_t records;     /* watchers: records followed */
    int64_t maintains;   /* maintainer: pier_maintain calls */
} tally;

/* A child's state. */
typedef struct proc {
    int index;
    role role;
    const char *dir;
    double deadline;     /* on ck_now_s() */
    uint64_t rng;
    pier_engine *e;
    tally t;
    int head_fd;         /* watchers: the final head arrives here */
    FILE *log;           /* watchers: the records seen */
} proc;

/* ------------------------------------------------------------------ */
/* Failures and checks inside a child (no cmocka)                      */

static bool is_lock_failure(const pier_error *err)
{
    int code = err->backend_code & 0xff;
    return code == SQLITE_BUSY || code == SQLITE_LOCKED ||
           strstr(err->message, "locked") != NULL ||
           strstr(err->message, "busy") != NULL;
}

/* Counts a call; prints and counts its failure. @return rc == PIER_OK. */
static bool called(proc *p, pier_status rc, const pier_error *err,
                   const char *what)
{
    p->t.calls++;
    if (rc == PIER_OK)
        return true;
    p->t.failures++;
    bool lock = is_lock_failure(err);
    p->t.lock_failures += lock;
    fprintf(stderr, "mixed: %s %d: %s: %s: %s (backend code %d)%s\n",
            role_names[p->role], p->index, what, pier_status_tag(rc),
            err->message, err->backend_code,
            lock ? " <- a lock error reached the caller" : "");
    return false;
}

static void check(proc *p, bool ok, const char *fmt, ...)
{
    if (ok) {
        p->t.checks++;
        return;
    }
    p->t.violations++;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "mixed: %s %d: invariant broken: ", role_names[p->role],
            p->index);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static uint64_t roll(proc *p, uint64_t n)
{
    return ck_rand(&p->rng) % n;
}

static bool running(const proc *p)
{
    return ck_now_s() < p->deadline;
}

/* ------------------------------------------------------------------ */
/* Writers                                                              */

static void transfer_board(proc *p, int64_t n)
{
    int a = (int)roll(p, NACCOUNTS), b = (int)((a + 1 + (int)roll(p,
                                          NACCOUNTS - 1)) % NACCOUNTS);
    int amount = 1 + (int)roll(p, 100);
    char ledger[256], accounts[256];
    snprintf(ledger, sizeof ledger,
             "[{\"id\":\"p%d_%lld_a\",\"account\":\"a%d\",\"delta\":%d},"
             "{\"id\":\"p%d_%lld_b\",\"account\":\"a%d\",\"delta\":%d}]",
             p->index, (long long)n, a, -amount, p->index, (long long)n, b,
             amount);
    snprintf(accounts, sizeof accounts,
             "[{\"id\":\"a%d\",\"last\":%lld,\"by\":%d},"
             "{\"id\":\"a%d\",\"last\":%lld,\"by\":%d}]",
             a, (long long)n, p->index, b, (long long)n, p->index);
    const char *names[] = { "ledger", "accounts" };
    pier_tx *tx = NULL;
    pier_error err;
    if (!called(p, pier_tx_begin(&tx, p->e, names, 2, &err), &err,
                "pier_tx_begin"))
        return;
    pier_status rc = pier_tx_insert_json(tx, "ledger", ledger,
                                         strlen(ledger), &err);
    if (rc == PIER_OK)
        rc = pier_tx_upsert_json(tx, "accounts", accounts, strlen(accounts),
                                 &err);
    if (!called(p, rc, &err, "a write in pier_tx")) {
        pier_tx_rollback(tx);
        return;
    }
    int64_t wm = 0;
    if (called(p, pier_tx_commit(&wm, tx, &err), &err, "pier_tx_commit"))
        p->t.transfers++;
}

static void transfer_bank(proc *p)
{
    int a = (int)roll(p, NACCOUNTS), b = (int)((a + 1 + (int)roll(p,
                                          NACCOUNTS - 1)) % NACCOUNTS);
    char json[96];
    snprintf(json, sizeof json, "{\"amt\":%d,\"a\":%d,\"b\":%d}",
             1 + (int)roll(p, 100), a, b);
    pier_params *params = pier_params_new();
    pier_error err;
    if (params == NULL ||
        !called(p, pier_params_set_json(params, json, strlen(json), &err),
                &err, "pier_params_set_json")) {
        pier_params_free(params);
        return;
    }
    pier_cursor *c = NULL;
    if (called(p, pier_exec(&c, p->e,
                            "UPDATE bank SET balance = balance - :amt "
                            "WHERE id = :a; "
                            "UPDATE bank SET balance = balance + :amt "
                            "WHERE id = :b", params, &err),
               &err, "pier_exec (a transfer)")) {
        check(p, pier_cursor_changes(c) == 1,
              "the second UPDATE of a transfer changed %lld rows",
              (long long)pier_cursor_changes(c));
        p->t.transfers++;
    }
    pier_cursor_close(c);
    pier_params_free(params);
}

static void run_transfers(proc *p)
{
    for (int64_t n = 1; running(p); n++) {
        if (roll(p, 2))
            transfer_board(p, n);
        else
            transfer_bank(p);
    }
}

/* Board "misc": rows m0..m199 come and go; now and then a column is added
 * or widened, or the board emptied. */
static void run_misc(proc *p)
{
    int columns = 0;
    bool widened[64] = { false };
    pier_error err;
    for (int64_t n = 1; running(p); n++) {
        char json[256], id[32], name[32];
        int64_t wm = 0;
        unsigned k = (unsigned)roll(p, 100);
        snprintf(id, sizeof id, "m%d", (int)roll(p, 200));
        if (k < 35) {
            snprintf(json, sizeof json, "{\"id\":\"%s\",\"n\":%lld,"
                     "\"t\":\"text %lld\"}", id, (long long)n,
                     (long long)n);
            called(p, pier_upsert_json(&wm, p->e, "misc", json,
                                       strlen(json), &err),
                   &err, "pier_upsert_json");
        } else if (k < 55) {
            snprintf(json, sizeof json, "{\"id\":\"i%lld\",\"n\":%lld}",
                     (long long)n, (long long)n);
            called(p, pier_insert_json(&wm, p->e, "misc", json,
                                       strlen(json), &err),
                   &err, "pier_insert_json");
        } else if (k < 75) {
            snprintf(json, sizeof json, "{\"n\":%lld,\"state\":\"seen\"}",
                     (long long)n);
            pier_status rc = pier_update_json(&wm, p->e, "misc", id, json,
                                              strlen(json), &err);
            if (rc != PIER_E_ROW_NOT_FOUND)       /* m<k> may be gone */
                called(p, rc, &err, "pier_update_json");
            else
                p->t.calls++;
        } else if (k < 92) {
            const char *ids[] = { id, "nothing" };
            called(p, pier_delete_many(&wm, p->e, "misc", ids, 2, &err),
                   &err, "pier_delete_many");
        } else if (k < 96 && columns < 64) {
            snprintf(name, sizeof name, "c%d", columns++);
            called(p, pier_board_add_column(&wm, p->e, "misc", name,
                                            "bigint", &err),
                   &err, "pier_board_add_column");
        } else if (k < 99 && columns > 0) {
            int c = (int)roll(p, (uint64_t)columns);
            snprintf(name, sizeof name, "c%d", c);
            if (!widened[c]) {
                widened[c] = true;
                called(p, pier_board_widen_column(&wm, p->e, "misc", name,
                                                  roll(p, 2) ? "double"
                                                             : "text", &err),
                       &err, "pier_board_widen_column");
            }
        } else if (k == 99) {
            called(p, pier_board_truncate(&wm, p->e, "misc", &err), &err,
                   "pier_board_truncate");
        }
    }
}

/* ------------------------------------------------------------------ */
/* Readers                                                              */

/* The first row of a query's result, as JSON; NULL (counted) if it
 * failed. */
static json_t *query_row(proc *p, const char *board, const char *sql)
{
    pier_cursor *c = NULL;
    pier_error err;
    json_t *out = NULL;
    if (!called(p, pier_query(&c, p->e, board, sql, NULL, NULL, &err), &err,
                "pier_query"))
        return NULL;
    const pier_row *row = NULL;
    if (called(p, pier_cursor_next(&row, c, &err), &err, "pier_cursor_next")
        && row != NULL) {
        char *text = pier_row_to_json(row);
        out = text != NULL ? json_loads(text, 0, NULL) : NULL;
        pier_free(text);
    }
    pier_cursor_close(c);
    return out;
}

static void run_query_reader(proc *p)
{
    pier_error err;
    while (running(p)) {
        json_t *r = query_row(p, "ledger",
                              "SELECT coalesce(sum(delta), 0) AS s, "
                              "count(*) AS n FROM {{board}}");
        if (r != NULL) {
            json_int_t s = json_integer_value(json_object_get(r, "s"));
            json_int_t n = json_integer_value(json_object_get(r, "n"));
            check(p, s == 0 && n % 2 == 0,
                  "the ledger sums to %lld over %lld rows",
                  (long long)s, (long long)n);
            json_decref(r);
        }
        r = query_row(p, "ledger",
                      "SELECT id FROM {{board}} ORDER BY random() LIMIT 1");
        const char *id = r ? json_string_value(json_object_get(r, "id"))
                           : NULL;
        if (id != NULL) {
            pier_row *row = NULL;
            pier_status rc = pier_row_get(&row, p->e, "ledger", id, &err);
            if (called(p, rc, &err, "pier_row_get"))
                check(p, pier_row_find(row, "delta") != NULL,
                      "ledger row %s has no delta", id);
            pier_row_free(row);
        }
        json_decref(r);
        int64_t n = 0;
        called(p, pier_row_count(&n, p->e, "misc", &err), &err,
               "pier_row_count");
        r = query_row(p, "accounts",
                      "SELECT count(*) AS n FROM {{board}}");
        if (r != NULL) {
            json_int_t a = json_integer_value(json_object_get(r, "n"));
            check(p, a <= NACCOUNTS, "%lld accounts", (long long)a);
            json_decref(r);
        }
    }
}

static void run_exec_reader(proc *p)
{
    pier_error err;
    int64_t head = 0;
    while (running(p)) {
        pier_cursor *c = NULL;
        if (called(p, pier_exec(&c, p->e, "SELECT sum(balance) AS s, "
                                "count(*) AS n FROM bank", NULL, &err),
                   &err, "pier_exec (the bank's total)")) {
            const pier_row *row = NULL;
            if (called(p, pier_cursor_next(&row, c, &err), &err,
                       "pier_cursor_next") && row != NULL) {
                const pier_value *s = pier_row_find(row, "s");
                const pier_value *n = pier_row_find(row, "n");
                check(p, s != NULL && n != NULL && s->text != NULL &&
                      n->as.integer == NACCOUNTS &&
                      strtoll(s->text, NULL, 10) ==
                          NACCOUNTS * OPENING_BALANCE,
                      "the bank holds %s over %s rows",
                      s && s->text ? s->text : "?",
                      n && n->text ? n->text : "?");
            }
        }
        pier_cursor_close(c);
        char **list = NULL;
        if (called(p, pier_board_list(&list, p->e, &err), &err,
                   "pier_board_list")) {
            size_t k = 0;
            while (list[k] != NULL)
                k++;
            check(p, k == NBOARDS, "%zu boards", k);
            pier_strings_free(list);
        }
        pier_board_info *info = NULL;
        if (called(p, pier_board_describe(&info, p->e, "misc", &err), &err,
                   "pier_board_describe"))
            pier_board_info_free(info);
        pier_stats st;
        called(p, pier_stats_get(&st, p->e, &err), &err, "pier_stats_get");
        int64_t h = 0;
        if (called(p, pier_head_from_catalog(&h, p->e, &err), &err,
                   "pier_head_from_catalog")) {
            check(p, h >= head, "the head went back from %lld to %lld",
                  (long long)head, (long long)h);
            head = h;
        }
        pier_changes_page *page = NULL;
        int64_t after = h > 50 ? h - 50 : 0;
        if (called(p, pier_changes(&page, p->e, "ledger", after, 20, &err),
                   &err, "pier_changes")) {
            for (size_t i = 1; i < page->nrecords; i++)
                check(p, page->records[i].watermark >
                             page->records[i - 1].watermark,
                      "a page out of order");
            pier_changes_page_free(page);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Watchers                                                             */

typedef struct seen {
    pthread_mutex_t lock;    /* guards log writes and the fields below */
    int64_t last[NBOARDS];   /* the last watermark seen per board */
} seen;

/* Logs a page's records: "WATERMARK COMMITTED_AT BOARD KIND PAYLOAD",
 * checking the order per board. */
static void log_page(proc *p, seen *s, size_t b,
                     const pier_changes_page *page)
{
    pthread_mutex_lock(&s->lock);
    check(p, !page->resync, "board %s: a resync from %lld", boards[b],
          (long long)page->from);
    if (page->resync)
        s->last[b] = page->from;
    for (size_t i = 0; i < page->nrecords; i++) {
        const pier_change *c = &page->records[i];
        check(p, c->watermark > s->last[b] && strcmp(c->board, boards[b]) ==
                     0, "board %s: record %lld (of %s) after %lld",
              boards[b], (long long)c->watermark, c->board,
              (long long)s->last[b]);
        s->last[b] = c->watermark;
        fprintf(p->log, "%lld %lld %s %s %s\n", (long long)c->watermark,
                (long long)c->committed_at, c->board, c->kind, c->payload);
        p->t.records++;
    }
    pthread_mutex_unlock(&s->lock);
}

typedef struct watch_thread {
    proc *p;
    seen *s;
    size_t board;
    pier_watch *w;
    pthread_t thread;
} watch_thread;

static void *watch_main(void *arg)
{
    watch_thread *wt = arg;
    for (;;) {
        pier_changes_page *page = NULL;
        pier_error err;
        pier_status rc = pier_watch_next(&page, wt->w, &err);
        /* The tally is the process's: counted under the log's lock. */
        pthread_mutex_lock(&wt->s->lock);
        bool ok = called(wt->p, rc, &err, "pier_watch_next");
        pthread_mutex_unlock(&wt->s->lock);
        if (!ok || page == NULL)
            break;
        log_page(wt->p, wt->s, wt->board, page);
        pier_changes_page_free(page);
    }
    return NULL;
}

/* Once the parent sends the final head: whether board b has nothing
 * after what was seen of it (the writers have stopped). */
static bool caught_up(proc *p, seen *s, size_t b)
{
    pthread_mutex_lock(&s->lock);
    int64_t after = s->last[b];
    pthread_mutex_unlock(&s->lock);
    pier_changes_page *page = NULL;
    pier_error err;
    pier_status rc = pier_changes(&page, p->e, boards[b], after, 1, &err);
    pthread_mutex_lock(&s->lock);
    bool ok = called(p, rc, &err, "pier_changes");
    pthread_mutex_unlock(&s->lock);
    if (!ok)
        return true;
    bool done = page->nrecords == 0 && !page->resync;
    pier_changes_page_free(page);
    return done;
}

static int64_t wait_final_head(proc *p)
{
    int64_t head = -1;
    if (ck_recv(p->head_fd, &head, sizeof head) != (ssize_t)sizeof head)
        _exit(6);
    return head;
}

static void run_watch_threads(proc *p)
{
    seen s = { PTHREAD_MUTEX_INITIALIZER, { 0 } };
    watch_thread wt[NBOARDS];
    for (size_t b = 0; b < NBOARDS; b++) {
        pier_watch_options o = PIER_WATCH_OPTIONS_INIT;
        o.poll_ms = WATCH_POLL_MS;
        pier_error err;
        wt[b] = (watch_thread){ p, &s, b, NULL, 0 };
        if (!called(p, pier_watch_open(&wt[b].w, p->e, boards[b], &o, &err),
                    &err, "pier_watch_open") ||
            pthread_create(&wt[b].thread, NULL, watch_main, &wt[b]) != 0)
            _exit(7);
    }
    wait_final_head(p);
    double until = ck_now_s() + CATCH_UP_S;
    for (size_t b = 0; b < NBOARDS; b++)
        while (!caught_up(p, &s, b) && ck_now_s() < until)
            ck_sleep_us(10000);
    for (size_t b = 0; b < NBOARDS; b++) {
        pier_watch_cancel(wt[b].w);
        pthread_join(wt[b].thread, NULL);
        pier_watch_close(wt[b].w);
    }
}

static void run_watch_poll(proc *p)
{
    seen s = { PTHREAD_MUTEX_INITIALIZER, { 0 } };
    bool stopping = false;
    double until = 0;
    for (;;) {
        bool idle = true;
        for (size_t b = 0; b < NBOARDS; b++) {
            pier_changes_page *page = NULL;
            pier_error err;
            if (!called(p, pier_changes(&page, p->e, boards[b], s.last[b],
                                        1 + roll(p, 500), &err),
                        &err, "pier_changes"))
                continue;
            idle = idle && page->nrecords == 0;
            log_page(p, &s, b, page);
            pier_changes_page_free(page);
        }
        if (stopping && (idle || ck_now_s() > until))
            break;
        if (!stopping && !running(p)) {
            wait_final_head(p);       /* the writers have stopped */
            stopping = true;
            until = ck_now_s() + CATCH_UP_S;
        }
        if (idle)
            ck_sleep_us(WATCH_POLL_MS * 1000);
    }
}

/* ------------------------------------------------------------------ */
/* The maintainer                                                       */

static int64_t lagging_clock(void *payload)
{
    (void)payload;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000 -
           MAINTAIN_LAG_US;
}

static void run_maintain(proc *p)
{
    while (running(p)) {
        ck_sleep_us(MAINTAIN_EVERY_US);
        pier_error err;
        if (called(p, pier_maintain(p->e, 0, &err), &err, "pier_maintain"))
            p->t.maintains++;
    }
}

/* ------------------------------------------------------------------ */
/* A child                                                              */

static _Noreturn void child(proc *p, int tally_fd)
{
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    if (p->role == ROLE_MAINTAIN)
        o.clock = lagging_clock;
    pier_error err;
    if (!called(p, pier_open(&p->e, p->dir, &o, &err), &err, "pier_open"))
        _exit(2);
    if (p->log != NULL)
        setvbuf(p->log, NULL, _IOFBF, 1 << 16);
    switch (p->role) {
    case ROLE_TRANSFER: run_transfers(p); break;
    case ROLE_MISC: run_misc(p); break;
    case ROLE_QUERY_READER: run_query_reader(p); break;
    case ROLE_EXEC_READER: run_exec_reader(p); break;
    case ROLE_WATCH_THREADS: run_watch_threads(p); break;
    case ROLE_WATCH_POLL: run_watch_poll(p); break;
    case ROLE_MAINTAIN: run_maintain(p); break;
    }
    pier_close(&p->e);
    if (p->log != NULL && fclose(p->log) != 0)
        _exit(8);
    ck_send(tally_fd, &p->t, sizeof p->t);
    _exit(p->t.failures == 0 && p->t.violations == 0 ? 0 : 1);
}

/* ------------------------------------------------------------------ */
/* The parent                                                           */

static void setup_lake(const char *dir)
{
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, dir, NULL, &err), PIER_OK);
    pier_column_def ledger[] = { { "account", "text" },
                                 { "delta", "bigint" } };
    pier_column_def accounts[] = { { "last", "bigint" }, { "by", "bigint" } };
    pier_board_options o = PIER_BOARD_OPTIONS_INIT;
    o.columns = ledger;
    o.ncolumns = 2;
    o.strict = true;
    assert_int_equal(pier_board_create(NULL, e, "ledger", &o, &err),
                     PIER_OK);
    o.columns = accounts;
    assert_int_equal(pier_board_create(NULL, e, "accounts", &o, &err),
                     PIER_OK);
    assert_int_equal(pier_board_create(NULL, e, "misc", NULL, &err),
                     PIER_OK);
    char sql[2048];
    size_t len = (size_t)snprintf(sql, sizeof sql,
                                  "CREATE TABLE bank (id INT64 PRIMARY KEY, "
                                  "balance INT64 NOT NULL); "
                                  "INSERT INTO bank VALUES ");
    for (int i = 0; i < NACCOUNTS; i++)
        len += (size_t)snprintf(sql + len, sizeof sql - len, "%s(%d, %d)",
                                i ? ", " : "", i, OPENING_BALANCE);
    if (pier_exec(NULL, e, sql, NULL, &err) != PIER_OK)
        fail_msg("%s: %s", err.tag, err.message);
    pier_close(&e);
}

/* One watcher's log, checked: each board's records in order, all boards
 * together exactly watermarks 1..head; then each board rebuilt from them
 * equals the stored board. @return the records in the log. */
static size_t check_log(pier_engine *e, const char *path, int64_t head,
                        const char *who)
{
    size_t n = 0;
    char *text = lakedir_read_file(path, &n);
    if (text == NULL)
        fail_msg("%s: no log %s", who, path);
    size_t count = 0;
    bool *have = calloc((size_t)head + 1, sizeof *have);
    assert_non_null(have);
    fm_board feeds[NBOARDS];
    for (size_t b = 0; b < NBOARDS; b++)
        fm_init(&feeds[b], boards[b]);
    for (char *line = text; *line != '\0';) {
        char *end = strchr(line, '\n');
        assert_non_null(end);
        *end = '\0';
        long long wm = 0, at = 0;
        char board[32], kind[32];
        int used = 0;
        if (sscanf(line, "%lld %lld %31s %31s %n", &wm, &at, board, kind,
                   &used) != 4 || used == 0)
            fail_msg("%s: a log line does not parse: %s", who, line);
        if (wm < 1 || wm > head || have[wm])
            fail_msg("%s: watermark %lld seen twice or beyond the head "
                     "%lld", who, wm, (long long)head);
        have[wm] = true;
        size_t b = 0;
        while (b < NBOARDS && strcmp(boards[b], board) != 0)
            b++;
        if (b == NBOARDS)
            fail_msg("%s: a record of board '%s'", who, board);
        pier_change c = { wm, board, kind, line + used,
                          strlen(line + used), at };
        fm_apply(&feeds[b], &c);        /* in order per board, too */
        count++;
        line = end + 1;
    }
    for (int64_t w = 1; w <= head; w++)
        if (!have[w])
            fail_msg("%s: never saw the record at watermark %lld (head "
                     "%lld)", who, (long long)w, (long long)head);
    char when[128];
    snprintf(when, sizeof when, "%s, at the end", who);
    for (size_t b = 0; b < NBOARDS; b++) {
        fm_compare(&feeds[b], e, when);
        fm_free(&feeds[b]);
    }
    free(have);
    free(text);
    return count;
}

static int64_t query_int(pier_engine *e, const char *board, const char *sql)
{
    pier_cursor *c = NULL;
    pier_error err;
    const pier_row *row = NULL;
    assert_int_equal(pier_query(&c, e, board, sql, NULL, NULL, &err),
                     PIER_OK);
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_non_null(row);
    const pier_value *v = pier_row_value(row, 0);
    int64_t n = v->kind == PIER_KIND_NULL ? 0 : v->as.integer;
    pier_cursor_close(c);
    return n;
}

static void mixed_workload(void **state)
{
    (void)state;
    uint64_t seed = ck_seed(20261130);
    long seconds = ck_env_long("SOAK_SECONDS", 60);
    char *dir = lakedir_make();
    assert_non_null(dir);
    setup_lake(dir);
    double started = ck_now_s();

    pid_t pids[NPROCS];
    int tally_fds[NPROCS], head_fds[NPROCS];
    char *logs[NPROCS] = { NULL };
    for (size_t i = 0; i < NPROCS; i++) {
        int tp[2], hp[2] = { -1, -1 };
        bool watcher = roles[i] == ROLE_WATCH_THREADS ||
                       roles[i] == ROLE_WATCH_POLL;
        assert_int_equal(pipe(tp), 0);
        if (watcher) {
            assert_int_equal(pipe(hp), 0);
            char name[32];
            snprintf(name, sizeof name, "watch-%zu.log", i);
            logs[i] = lakedir_join(dir, name);
        }
        fflush(NULL);
        pids[i] = fork();
        assert_true(pids[i] >= 0);
        if (pids[i] == 0) {
            proc p;
            memset(&p, 0, sizeof p);
            p.index = (int)i;
            p.role = roles[i];
            p.dir = dir;
            p.deadline = started + (double)seconds;
            p.rng = (seed + i) * UINT64_C(0x9e3779b97f4a7c15) | 1;
            p.head_fd = hp[0];
            if (logs[i] != NULL && (p.log = fopen(logs[i], "w")) == NULL)
                _exit(9);
            close(tp[0]);
            child(&p, tp[1]);
        }
        close(tp[1]);
        if (watcher)
            close(hp[0]);
        tally_fds[i] = tp[0];
        head_fds[i] = hp[1];
    }

    /* The writers, readers and maintainer stop at the deadline. */
    int failed = 0;
    for (size_t i = 0; i < NPROCS; i++) {
        if (head_fds[i] >= 0)
            continue;
        int status = 0;
        assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            print_error("%s %zu ended with status %d\n", role_names[roles[i]],
                        i, status);
            failed++;
        }
    }
    double writing = ck_now_s() - started;

    /* Then the watchers catch up with the final head and stop. */
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, dir, NULL, &err), PIER_OK);
    int64_t head = 0;
    assert_int_equal(pier_head_from_catalog(&head, e, &err), PIER_OK);
    for (size_t i = 0; i < NPROCS; i++) {
        if (head_fds[i] < 0)
            continue;
        ck_send(head_fds[i], &head, sizeof head);
        close(head_fds[i]);
    }
    double until = ck_now_s() + CATCH_UP_S + 30;
    for (size_t i = 0; i < NPROCS; i++) {
        if (head_fds[i] < 0)
            continue;
        int status = 0;
        pid_t got;
        while ((got = waitpid(pids[i], &status, WNOHANG)) == 0 &&
               ck_now_s() < until)
            ck_sleep_us(20000);
        if (got == 0) {
            kill(pids[i], SIGKILL);
            waitpid(pids[i], &status, 0);
            print_error("%s %zu did not catch up with head %lld\n",
                        role_names[roles[i]], i, (long long)head);
            failed++;
        } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            print_error("%s %zu ended with status %d\n", role_names[roles[i]],
                        i, status);
            failed++;
        }
    }

    tally sum = { 0 }, by[NPROCS];
    for (size_t i = 0; i < NPROCS; i++) {
        memset(&by[i], 0, sizeof by[i]);
        if (ck_recv(tally_fds[i], &by[i], sizeof by[i]) !=
            (ssize_t)sizeof by[i])
            print_error("%s %zu sent no tally\n", role_names[roles[i]], i);
        close(tally_fds[i]);
        sum.calls += by[i].calls;
        sum.failures += by[i].failures;
        sum.lock_failures += by[i].lock_failures;
        sum.checks += by[i].checks;
        sum.violations += by[i].violations;
        sum.transfers += by[i].transfers;
        sum.records += by[i].records;
        sum.maintains += by[i].maintains;
    }
    if (failed > 0 || sum.failures > 0 || sum.violations > 0)
        fail_msg("%d processes failed; %lld calls failed (%lld for want of "
                 "a lock); %lld invariant checks broke (see above)", failed,
                 (long long)sum.failures, (long long)sum.lock_failures,
                 (long long)sum.violations);

    size_t followed = 0;
    for (size_t i = 0; i < NPROCS; i++) {
        if (logs[i] == NULL)
            continue;
        char who[64];
        snprintf(who, sizeof who, "%s %zu", role_names[roles[i]], i);
        size_t n = check_log(e, logs[i], head, who);
        assert_int_equal((int64_t)n, by[i].records);
        followed += n;
        free(logs[i]);
    }
    assert_int_equal(query_int(e, "ledger", "SELECT coalesce(sum(delta), 0) "
                                            "FROM {{board}}"), 0);
    pier_cursor *c = NULL;
    const pier_row *row = NULL;
    assert_int_equal(pier_exec(&c, e, "SELECT sum(balance) FROM bank", NULL,
                               &err), PIER_OK);
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    assert_int_equal(strtoll(pier_row_value(row, 0)->text, NULL, 10),
                     NACCOUNTS * OPENING_BALANCE);
    pier_cursor_close(c);
    pier_stats st;
    assert_int_equal(pier_stats_get(&st, e, &err), PIER_OK);
    if (pier_schema_check(e, &err) != PIER_OK)
        fail_msg("%s: %s", err.tag, err.message);
    pier_close(&e);
    char *lake = lakedir_join(dir, "lake.sqlite");
    char *ok = ck_integrity_check(lake);
    if (ok == NULL || strcmp(ok, "ok\n") != 0)
        fail_msg("integrity_check: %s", ok ? ok : "failed");
    free(ok);
    free(lake);

    print_message("soak_mixed: %zu processes for %.1f s (%.1f s with the "
                  "watchers' catch-up): %lld calls, 0 failed, 0 lock errors; "
                  "%lld transfers, the totals conserved at every read; "
                  "%lld invariant checks; %zu records followed by %d "
                  "watchers, in order, no gap (head %lld); %lld maintains, "
                  "retention floor at %lld, %lld records kept\n",
                  NPROCS, writing, ck_now_s() - started,
                  (long long)sum.calls, (long long)sum.transfers,
                  (long long)sum.checks, followed, 2, (long long)head,
                  (long long)sum.maintains, (long long)st.floor,
                  (long long)st.change_records);
    for (size_t i = 0; i < NPROCS; i++)
        print_message("soak_mixed:   %-22s %lld calls, %lld checks, %lld "
                      "transfers, %lld records\n", role_names[roles[i]],
                      (long long)by[i].calls, (long long)by[i].checks,
                      (long long)by[i].transfers, (long long)by[i].records);
    assert_int_equal(pier_reset_lake(dir, &err), PIER_OK);
    lakedir_remove_tree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mixed_workload),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
