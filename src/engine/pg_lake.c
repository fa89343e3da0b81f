/*
 * pg_lake.c: the PostgreSQL lake behind the lake vtable (store/lake.h;
 * docs/clustered.md, docs/architecture.md "The PostgreSQL lake").
 *
 * The catalog, the rows and the change log live in PostgreSQL
 * (src/cluster/); every board query runs on the node's SQLite replica of
 * its board, synced first (sync-then-query), by the embedded lake's own
 * query code: one dialect, one query path.
 *
 * Transactions. A write begins (READ COMMITTED) with a snapshot of the
 * head and the catalog version, and takes no lock while it writes its
 * rows; its change records are queued and sent with COMMIT in one
 * pipeline, whose first statement moves the head row (its row lock, held
 * to the end, orders the writers of every node: watermarks in commit
 * order, the "serialized head") and whose second, the guard, fails when
 * the catalog version moved since the write began: the engine then runs
 * the write again (write_moved). A change of the catalog takes the head's
 * row lock and checks the guard as it starts (lock_now), so it runs
 * alone. A read transaction is REPEATABLE READ READ ONLY: one snapshot.
 * Each begins in one round trip, which also reads the head and the
 * catalog version.
 *
 * The head cache (cluster/head.h) decides where a query syncs to: read
 * at most once per head_refresh_us (clustered), or once and then only
 * raised by the node's own writes (single-node). The catalog version is
 * read with the head, so that a query compiled against an older catalog
 * than its replica reflects is compiled again (reader_version).
 *
 * Threads: the engine's lock serializes every call but a cursor's steps
 * and its reader's close, which touch only the reader's replica (a
 * reference keeps its lake open) and the catalog version (atomic).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cluster/head.h"
#include "cluster/pg_catalog.h"
#include "cluster/pg_rows.h"
#include "engine/replica_set.h"
#include "store/lake.h"

/* A board's rows table key, as the catalog gave it. */
typedef struct board_key {
    char board[PIER__NAME_MAX + 1];
    int64_t key;
} board_key;

typedef struct pg_lake {
    pier__lake base;
    PGconn *conn;
    char ns[64];
    int64_t identity;
    pier__pg_config cfg;
    char *cache_dir;
    int lock_fd;               /* flock on <cache>/node.lock */
    int backend;               /* the server process the session's settings
                                  and prepared statements were made on */
    bool append_prepared;      /* "pier_append" and "pier_guard" are, on
                                  that session */
    int64_t prepared[32];      /* the rows statements prepared on it, as
                                  key * 2 + mode ("pier_w<that>") */
    size_t nprepared;
    bool in_tx;
    bool writing;
    int64_t tx_head;           /* the head as the transaction began: its
                                  records are numbered from tx_head + 1
                                  until the commit says where they went */
    int64_t tx_stamp;          /* ... and the newest stamp */
    int64_t tx_version;        /* ... and the catalog version */
    bool locked;               /* the transaction holds the head's lock */
    bool moved;                /* the last write failed because another
                                  node changed the catalog, or a deadlock
                                  with one: the engine writes again */
    int64_t shift;             /* what the last commit added to its
                                  records' numbers */
    int64_t appended;          /* the last watermark this transaction
                                  appended; 0: none */
    /* The records the transaction appends, sent with its COMMIT as arrays
     * (PostgreSQL's text form): boards, kinds, payloads, commit times,
     * stamps. */
    pier__buf q_board, q_kind, q_payload, q_at, q_stamp;
    size_t queued;
    int64_t q_max_stamp;
    pier__head_cache head;
    _Atomic int64_t version;   /* the newest catalog version known */
    board_key *keys;
    size_t nkeys;
    size_t keys_cap;
    pier__replica_set replicas;
} pg_lake;

/* A query's reader: the replica of its board, and a reader of that. */
typedef struct pg_reader {
    pg_lake *lake;
    pier__replica *replica;    /* a reference; NULL before a prepare */
    pier__reader *inner;       /* on replica->lake */
    pier__replica *others[PIER__QUERY_MAX_BOARDS]; /* the other boards the
                                  query reads, attached to inner */
    size_t nothers;
    int64_t version;           /* the catalog version the replica was
                                  synced under */
} pg_reader;

static pg_lake *of(pier__lake *lake)
{
    return (pg_lake *)lake;
}

static void raise_version(pg_lake *l, int64_t v)
{
    int64_t now = atomic_load(&l->version);
    while (v > now && !atomic_compare_exchange_weak(&l->version, &now, v)) {
    }
}

/* ---- statements ---- */

/* Runs one statement with text parameters; *out gets its result (NULL:
 * cleared here). A statement expected to return rows is TUPLES_OK. */
static pier_status run(pg_lake *l, const char *sql, int n,
                       const char *const *params, PGresult **out,
                       pier_status status, const char *what,
                       pier_error *err)
{
    PGresult *r = PQexecParams(l->conn, sql, n, NULL, params, NULL, NULL, 0);
    ExecStatusType st = PQresultStatus(r);
    pier_status rc = PIER_OK;
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
        rc = pier__pg_fail(r, l->conn, status, what, err);
    if (out != NULL && rc == PIER_OK)
        *out = r;
    else
        PQclear(r);
    return rc;
}

/* A statement of one row of bigint columns into out[0..n). */
static pier_status ints(pg_lake *l, const char *sql, int64_t *out, int n,
                        pier_status status, const char *what,
                        pier_error *err)
{
    PGresult *r = NULL;
    pier_status rc = run(l, sql, 0, NULL, &r, status, what, err);
    if (rc == PIER_OK && (PQntuples(r) != 1 || PQnfields(r) < n))
        rc = pier__fail(err, status, "%s: the lake's tables are damaged",
                        what);
    for (int i = 0; rc == PIER_OK && i < n; i++)
        out[i] = PQgetisnull(r, 0, i) ? 0
                                      : strtoll(PQgetvalue(r, 0, i), NULL,
                                                10);
    PQclear(r);
    return rc;
}

/*
 * Sends a script of statements in one round trip and reads each result;
 * the last one's first row, bigint columns, goes to out[0..n).
 */
static pier_status script(pg_lake *l, const char *sql, int64_t *out, int n,
                          pier_status status, const char *what,
                          pier_error *err)
{
    if (!PQsendQuery(l->conn, sql))
        return pier__pg_fail(NULL, l->conn, status, what, err);
    pier_status rc = PIER_OK;
    PGresult *r, *last = NULL;
    while ((r = PQgetResult(l->conn)) != NULL) {
        ExecStatusType st = PQresultStatus(r);
        if (rc == PIER_OK && st != PGRES_COMMAND_OK &&
            st != PGRES_TUPLES_OK)
            rc = pier__pg_fail(r, l->conn, status, what, err);
        if (st == PGRES_TUPLES_OK) {
            PQclear(last);
            last = r;
        } else {
            PQclear(r);
        }
    }
    if (rc == PIER_OK &&
        (last == NULL || PQntuples(last) != 1 || PQnfields(last) < n))
        rc = pier__fail(err, status, "%s: the lake's tables are damaged",
                        what);
    for (int i = 0; rc == PIER_OK && i < n; i++)
        out[i] = strtoll(PQgetvalue(last, 0, i), NULL, 10);
    PQclear(last);
    return rc;
}

/* ---- the records a write transaction appends ---- */

static void queue_clear(pg_lake *l)
{
    pier__buf_reset(&l->q_board);
    pier__buf_reset(&l->q_kind);
    pier__buf_reset(&l->q_payload);
    pier__buf_reset(&l->q_at);
    pier__buf_reset(&l->q_stamp);
    l->queued = 0;
    l->q_max_stamp = 0;
}

/* Appends a quoted element of a text array: "...", with " and \
 * escaped. */
static void array_text(pier__buf *b, bool first, const char *s, size_t n)
{
    pier__buf_puts(b, first ? "{\"" : ",\"");
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"' || s[i] == '\\')
            pier__buf_putc(b, '\\');
        pier__buf_putc(b, s[i]);
    }
    pier__buf_putc(b, '"');
}

static void array_int(pier__buf *b, bool first, int64_t v)
{
    pier__buf_printf(b, "%s%" PRId64, first ? "{" : ",", v);
}

/* Whether a failed statement's SQLSTATE makes the write worth running
 * again: a deadlock or a serialization failure with another node. */
static bool retryable(PGresult *r)
{
    const char *st = r != NULL ? PQresultErrorField(r, PG_DIAG_SQLSTATE)
                               : NULL;
    return st != NULL && (strcmp(st, "40P01") == 0 ||
                          strcmp(st, "40001") == 0);
}

/* The write fails because another node changed the catalog since it
 * began (the engine writes again: moved). */
static pier_status moved(pg_lake *l, pier_error *err)
{
    l->moved = true;
    return pier__fail(err, PIER_E_WRITE_FAILED, "another node changed the "
                      "catalog while this write ran: write again");
}

/* The statements of a commit, prepared once per session: the guard (the
 * catalog version as the write began; a division by zero when it moved)
 * and the append. */
static pier_status prepare_commit(pg_lake *l, pier_error *err)
{
    if (l->append_prepared)
        return PIER_OK;
    char lock[160], guard[300], append[900];
    /* (the guard a statement of its own: its snapshot is taken once the
     * head's row lock is held, READ COMMITTED) */
    snprintf(lock, sizeof lock, "SELECT watermark FROM \"%s\".head FOR "
             "UPDATE", l->ns);
    snprintf(guard, sizeof guard, "SELECT 1 / (value = $1::bigint)::int "
             "FROM \"%s\".meta WHERE key = 'catalog_version'", l->ns);
    snprintf(append, sizeof append,
             "WITH h AS (UPDATE \"%s\".head SET watermark = watermark + "
             "$1, stamp = greatest(stamp, $2) RETURNING watermark) "
             "INSERT INTO \"%s\".changes (watermark, board, kind, payload, "
             "committed_at, stamp) SELECT h.watermark - $1 + r.ord, "
             "r.board, r.kind, r.payload, r.at, r.st FROM h, unnest("
             "$3::text[], $4::text[], $5::text[], $6::bigint[], "
             "$7::bigint[]) WITH ORDINALITY AS r(board, kind, payload, at, "
             "st, ord) RETURNING watermark", l->ns, l->ns);
    const char *names[3] = { "pier_lock", "pier_guard", "pier_append" };
    const char *texts[3] = { lock, guard, append };
    const int nparams[3] = { 0, 1, 7 };
    for (int i = 0; i < 3; i++) {
        PGresult *r = PQprepare(l->conn, names[i], texts[i], nparams[i],
                                NULL);
        pier_status rc = PQresultStatus(r) == PGRES_COMMAND_OK
            ? PIER_OK
            : pier__pg_fail(r, l->conn, PIER_E_WRITE_FAILED, "cannot "
                            "append to the change log", err);
        PQclear(r);
        if (rc != PIER_OK)
            return rc;
    }
    l->append_prepared = true;
    return PIER_OK;
}

/*
 * Sends the queued records and COMMIT in one round trip (a pipeline):
 * the head row moved by their number in the statement that inserts them
 * (its row lock, held to the end, orders the writers of every node), the
 * guard (unless a change of the catalog took the lock and checked before),
 * then COMMIT. The records were numbered from tx_head + 1; l->shift is
 * what that numbering was off by.
 */
static pier_status commit_appending(pg_lake *l, pier_error *err)
{
    pier__buf *arrays[5] = { &l->q_board, &l->q_kind, &l->q_payload,
                             &l->q_at, &l->q_stamp };
    bool oom = false;
    for (int i = 0; i < 5; i++) {
        pier__buf_putc(arrays[i], '}');
        oom = oom || arrays[i]->oom;
    }
    if (oom)
        return pier__oom(err);
    pier_status rc = prepare_commit(l, err);
    if (rc != PIER_OK)
        return rc;
    char n[24], st[24], v[24];
    snprintf(n, sizeof n, "%zu", l->queued);
    snprintf(st, sizeof st, "%" PRId64, l->q_max_stamp);
    snprintf(v, sizeof v, "%" PRId64, l->tx_version);
    const char *gparams[1] = { v };
    const char *params[7] = { n, st, l->q_board.p, l->q_kind.p,
                              l->q_payload.p, l->q_at.p, l->q_stamp.p };
    if (!PQenterPipelineMode(l->conn))
        return pier__pg_fail(NULL, l->conn, PIER_E_WRITE_FAILED,
                             "cannot append to the change log", err);
    /* the append (its update of the head takes the head's row lock, as
     * a catalog change's lock_now does), the guard unless the lock was
     * taken before, COMMIT, the sync */
    bool guarded = !l->locked;
    bool sent = PQsendQueryPrepared(l->conn, "pier_append", 7, params, NULL,
                                    NULL, 0) &&
                (!guarded || PQsendQueryPrepared(l->conn, "pier_guard", 1,
                                                 gparams, NULL, NULL, 0)) &&
                PQsendQueryParams(l->conn, "COMMIT", 0, NULL, NULL, NULL,
                                  NULL, 0) &&
                PQpipelineSync(l->conn);
    const int append_at = 0, guard_at = guarded ? 1 : -1;
    const int commit_at = guarded ? 2 : 1, steps = commit_at + 2;
    if (!sent)
        rc = pier__pg_fail(NULL, l->conn, PIER_E_WRITE_FAILED, "cannot "
                           "append to the change log", err);
    int64_t first = INT64_MAX;
    /* each result but the sync's ends with a NULL */
    for (int step = 0; sent && step < steps; step++) {
        PGresult *r = PQgetResult(l->conn);
        if (r == NULL) {
            if (rc == PIER_OK)
                rc = pier__pg_fail(NULL, l->conn, PIER_E_WRITE_FAILED,
                                   "the PostgreSQL lake did not commit",
                                   err);
            break;
        }
        ExecStatusType es = PQresultStatus(r);
        const char *tag = PQcmdStatus(r);
        bool ok = es == PGRES_COMMAND_OK || es == PGRES_TUPLES_OK ||
                  es == PGRES_PIPELINE_SYNC;
        if (rc == PIER_OK && !ok) {
            if (step == guard_at || retryable(r))
                rc = moved(l, err);     /* (the guard's division) */
            else
                rc = pier__pg_fail(r, l->conn, PIER_E_WRITE_FAILED,
                                   step == append_at
                                       ? "cannot append to the change log"
                                       : "the PostgreSQL lake did not "
                                         "commit", err);
        } else if (rc == PIER_OK && step == append_at) {
            for (int i = 0; i < PQntuples(r); i++) {
                int64_t w = strtoll(PQgetvalue(r, i, 0), NULL, 10);
                if (w < first)
                    first = w;
            }
            if (PQntuples(r) != (int)l->queued)
                rc = pier__fail(err, PIER_E_WRITE_FAILED, "the change log "
                                "took %d records of %zu", PQntuples(r),
                                l->queued);
        } else if (rc == PIER_OK && step == commit_at && tag != NULL &&
                   strcmp(tag, "ROLLBACK") == 0) {
            rc = pier__fail(err, PIER_E_WRITE_FAILED, "the PostgreSQL lake "
                            "did not commit");
        }
        PQclear(r);
        if (es != PGRES_PIPELINE_SYNC)
            PQclear(PQgetResult(l->conn));        /* (its NULL) */
    }
    PQexitPipelineMode(l->conn);
    if (rc == PIER_OK)
        l->shift = first - (l->tx_head + 1);
    return rc;
}

/* Takes the head's lock now, for the rest of the transaction (a change
 * of the catalog: it runs alone), and checks that the catalog is still
 * the one the write began with. */
static pier_status lock_now(pg_lake *l, pier_error *err)
{
    if (l->locked)
        return PIER_OK;
    pier_status rc = prepare_commit(l, err);
    if (rc != PIER_OK)
        return rc;
    char v[24];
    snprintf(v, sizeof v, "%" PRId64, l->tx_version);
    const char *params[1] = { v };
    PGresult *r = PQexecPrepared(l->conn, "pier_lock", 0, NULL, NULL, NULL,
                                 0);
    if (PQresultStatus(r) == PGRES_TUPLES_OK) {
        PQclear(r);
        r = PQexecPrepared(l->conn, "pier_guard", 1, params, NULL, NULL, 0);
    }
    if (PQresultStatus(r) == PGRES_TUPLES_OK)
        l->locked = true;
    else if (PQresultErrorField(r, PG_DIAG_SQLSTATE) != NULL &&
             (strcmp(PQresultErrorField(r, PG_DIAG_SQLSTATE), "22012") ==
                  0 ||
              retryable(r)))
        rc = moved(l, err);
    else
        rc = pier__pg_fail(r, l->conn, PIER_E_WRITE_FAILED, "cannot lock "
                           "the head", err);
    PQclear(r);
    return rc;
}

/* ---- transactions ---- */

/* The head's read of the cache: the head and the catalog version, in one
 * statement (one snapshot). */
static pier_status head_heard(pg_lake *l, pier_status status,
                              pier_error *err)
{
    char sql[320];
    snprintf(sql, sizeof sql, "SELECT h.watermark, m.value FROM \"%s\".head "
             "h, \"%s\".meta m WHERE m.key = 'catalog_version'", l->ns,
             l->ns);
    int64_t v[2];
    pier_status rc = ints(l, sql, v, 2, status, "cannot read the lake's "
                          "head", err);
    if (rc == PIER_OK) {
        pier__head_heard(&l->head, v[0], pier__clock_monotonic());
        raise_version(l, v[1]);
    }
    return rc;
}

/* The connection, made again if it was lost, with the session's
 * settings. */
static pier_status session_alive(pg_lake *l, pier_error *err)
{
    pier_status rc = pier__pg_alive(l->conn, err);
    if (rc != PIER_OK || PQbackendPID(l->conn) == l->backend)
        return rc;
    if (l->cfg.durability == PIER_DURABILITY_NORMAL)
        rc = run(l, "SET synchronous_commit = off", 0, NULL, NULL,
                 PIER_E_LAKE_UNAVAILABLE, "cannot set the durability", err);
    if (rc == PIER_OK) {
        l->backend = PQbackendPID(l->conn);
        l->append_prepared = false;
        l->nprepared = 0;
    }
    return rc;
}

static pier_status begin(pg_lake *l, bool write, pier_error *err)
{
    pier_status status = write ? PIER_E_WRITE_FAILED : PIER_E_READ_FAILED;
    pier_status rc = session_alive(l, err);
    if (rc != PIER_OK) {
        /* (an open lake that cannot be reached now: the call fails) */
        char why[sizeof err->message];
        pier__copy_field(why, sizeof why, err != NULL ? err->message : "");
        return pier__fail(err, status, "%s", why);
    }
    char sql[640];
    /* A write takes no lock yet: its commit (or its first change of the
     * catalog) takes the head's and checks that the catalog version is
     * still this one (commit_appending, lock_now). */
    if (write)
        snprintf(sql, sizeof sql, "BEGIN; SELECT h.watermark, h.stamp, "
                 "m.value FROM \"%s\".head h, \"%s\".meta m WHERE m.key = "
                 "'catalog_version'", l->ns, l->ns);
    else
        snprintf(sql, sizeof sql, "BEGIN ISOLATION LEVEL REPEATABLE READ "
                 "READ ONLY; SELECT h.watermark, h.stamp, m.value FROM "
                 "\"%s\".head h, \"%s\".meta m WHERE m.key = "
                 "'catalog_version'", l->ns, l->ns);
    int64_t v[3] = { 0, 0, 0 };
    rc = script(l, sql, v, 3, status, write ? "cannot begin a write on the "
                "PostgreSQL lake" : "cannot read the PostgreSQL lake", err);
    if (rc != PIER_OK) {
        PQclear(PQexec(l->conn, "ROLLBACK"));
        return rc;
    }
    l->in_tx = true;
    l->writing = write;
    l->tx_head = v[0];
    l->tx_stamp = v[1];
    l->tx_version = v[2];
    l->appended = 0;
    l->locked = false;
    l->moved = false;
    l->shift = 0;
    queue_clear(l);
    pier__head_heard(&l->head, v[0], pier__clock_monotonic());
    raise_version(l, v[2]);
    return PIER_OK;
}

static pier_status pg_begin_write(pier__lake *lake, pier_error *err)
{
    return begin(of(lake), true, err);
}

static pier_status pg_begin_read(pier__lake *lake, pier_error *err)
{
    return begin(of(lake), false, err);
}

static pier_status pg_commit(pier__lake *lake, pier_error *err)
{
    pg_lake *l = of(lake);
    if (!l->in_tx)
        return PIER_OK;        /* (a read a sync ended: replica_get) */
    if (l->queued > 0) {
        pier_status rc = commit_appending(l, err);
        queue_clear(l);
        if (rc == PIER_OK)
            pier__head_raise(&l->head, l->appended + l->shift);
        l->in_tx = rc == PIER_OK ? false : l->in_tx;
        return rc;
    }
    PGresult *r = PQexec(l->conn, "COMMIT");
    pier_status rc = PIER_OK;
    /* (a COMMIT of a failed transaction answers ROLLBACK, not an error) */
    const char *tag = PQcmdStatus(r);
    if (PQresultStatus(r) != PGRES_COMMAND_OK ||
        (tag != NULL && strcmp(tag, "ROLLBACK") == 0))
        rc = pier__pg_fail(r, l->conn, l->writing ? PIER_E_WRITE_FAILED
                                                  : PIER_E_READ_FAILED,
                           "the PostgreSQL lake did not commit", err);
    PQclear(r);
    if (rc == PIER_OK && l->appended > 0)
        pier__head_raise(&l->head, l->appended);
    l->in_tx = false;
    return rc;
}

static void pg_rollback(pier__lake *lake)
{
    pg_lake *l = of(lake);
    queue_clear(l);
    if (PQstatus(l->conn) == CONNECTION_OK &&
        PQtransactionStatus(l->conn) != PQTRANS_IDLE)
        PQclear(PQexec(l->conn, "ROLLBACK"));
    l->in_tx = false;
}

/* ---- the catalog ---- */

static pier_status pg_catalog_version(pier__lake *lake, int64_t *out,
                                      pier_error *err)
{
    (void)err;
    *out = of(lake)->tx_version;
    return PIER_OK;
}

static pier_status pg_catalog_bump(pier__lake *lake, int64_t *out,
                                   pier_error *err)
{
    pg_lake *l = of(lake);
    pier_status lrc = lock_now(l, err);
    if (lrc != PIER_OK)
        return lrc;
    char sql[160];
    snprintf(sql, sizeof sql, "UPDATE \"%s\".meta SET value = value + 1 "
             "WHERE key = 'catalog_version' RETURNING value", l->ns);
    pier_status rc = ints(l, sql, out, 1, PIER_E_WRITE_FAILED,
                          "cannot move the catalog version", err);
    if (rc == PIER_OK)
        l->tx_version = *out;
    return rc;
}

static board_key *key_find(pg_lake *l, const char *board)
{
    for (size_t i = 0; i < l->nkeys; i++)
        if (strcmp(l->keys[i].board, board) == 0)
            return &l->keys[i];
    return NULL;
}

static pier_status key_put(pg_lake *l, const char *board, int64_t key,
                           pier_error *err)
{
    board_key *k = key_find(l, board);
    if (k == NULL) {
        if (l->nkeys == l->keys_cap) {
            size_t cap = l->keys_cap == 0 ? 16 : l->keys_cap * 2;
            board_key *p = realloc(l->keys, cap * sizeof *p);
            if (p == NULL)
                return pier__oom(err);
            l->keys = p;
            l->keys_cap = cap;
        }
        k = &l->keys[l->nkeys++];
        pier__copy_field(k->board, sizeof k->board, board);
    }
    k->key = key;
    return PIER_OK;
}

/* The rows table key of board b. */
static pier_status key_of(pg_lake *l, const pier__board *b, int64_t *out,
                          pier_error *err)
{
    board_key *k = key_find(l, b->id);
    if (k != NULL) {
        *out = k->key;
        return PIER_OK;
    }
    pier_status rc = pier__pg_board_key(l->conn, l->ns, b->id, out, err);
    if (rc == PIER_OK)
        rc = key_put(l, b->id, *out, err);
    return rc;
}

static pier_status pg_catalog_load(pier__lake *lake, pier__catalog *out,
                                   pier_error *err)
{
    pg_lake *l = of(lake);
    pier_status rc = pier__pg_catalog_load(l->conn, l->ns, out, err);
    if (rc != PIER_OK)
        return rc;
    char sql[120];
    snprintf(sql, sizeof sql, "SELECT board, board_key FROM \"%s\".boards",
             l->ns);
    PGresult *r = NULL;
    rc = run(l, sql, 0, NULL, &r, PIER_E_READ_FAILED,
             "cannot read the lake's boards", err);
    l->nkeys = 0;
    for (int i = 0; rc == PIER_OK && i < PQntuples(r); i++)
        rc = key_put(l, PQgetvalue(r, i, 0),
                     strtoll(PQgetvalue(r, i, 1), NULL, 10), err);
    PQclear(r);
    /* The replicas of boards dropped meanwhile (on any node) go. */
    for (size_t i = l->replicas.nopen; rc == PIER_OK && i-- > 0;) {
        const char *board = l->replicas.open[i]->board;
        if (pier__catalog_find(out, board) == NULL) {
            pier_error ignored;
            pier__replicas_evict(&l->replicas, board, &ignored);
        }
    }
    return rc;
}

static pier_status pg_board_create(pier__lake *lake, pier__board *b,
                                   pier_error *err)
{
    pg_lake *l = of(lake);
    int64_t key = 0;
    pier_status rc = lock_now(l, err);
    if (rc == PIER_OK)
        rc = pier__pg_board_create(l->conn, l->ns, b, &key, err);
    if (rc == PIER_OK)
        rc = key_put(l, b->id, key, err);
    return rc;
}

static pier_status pg_board_drop(pier__lake *lake, const pier__board *b,
                                 pier_error *err)
{
    pg_lake *l = of(lake);
    pier_status rc = lock_now(l, err);
    if (rc == PIER_OK)
        rc = pier__pg_board_drop(l->conn, l->ns, b, err);
    board_key *k = key_find(l, b->id);
    if (rc == PIER_OK && k != NULL)
        *k = l->keys[--l->nkeys];
    return rc;
}

static pier_status pg_board_truncate(pier__lake *lake, const pier__board *b,
                                     pier_error *err)
{
    pg_lake *l = of(lake);
    pier_status rc = lock_now(l, err);
    return rc == PIER_OK ? pier__pg_board_truncate(l->conn, l->ns, b, err)
                         : rc;
}

static pier_status pg_column_add(pier__lake *lake, pier__board *b,
                                 size_t col, pier_error *err)
{
    pg_lake *l = of(lake);
    pier_status rc = lock_now(l, err);
    return rc == PIER_OK ? pier__pg_column_add(l->conn, l->ns, b, col, err)
                         : rc;
}

static pier_status pg_column_widen(pier__lake *lake, const pier__board *b,
                                   size_t col, pier__type from,
                                   pier_error *err)
{
    pg_lake *l = of(lake);
    pier_status rc = lock_now(l, err);
    return rc == PIER_OK
               ? pier__pg_column_widen(l->conn, l->ns, b, col, from, err)
               : rc;
}

/* ---- rows ---- */

static pier_status pg_rows_scan(pier__lake *lake, const pier__board *b,
                                const char *id, pier__row_cb cb,
                                void *payload, pier_error *err)
{
    pg_lake *l = of(lake);
    int64_t key = 0;
    pier_status rc = key_of(l, b, &key, err);
    if (rc == PIER_OK)
        rc = pier__pg_rows_scan(l->conn, l->ns, key, b, id, cb, payload,
                                err);
    return rc;
}

static pier_status pg_rows_count(pier__lake *lake, const pier__board *b,
                                 int64_t *out, pier_error *err)
{
    pg_lake *l = of(lake);
    int64_t key = 0;
    pier_status rc = key_of(l, b, &key, err);
    if (rc == PIER_OK)
        rc = pier__pg_rows_count(l->conn, l->ns, key, out, err);
    return rc;
}

static pier_status pg_rows_write(pier__lake *lake, const pier__board *b,
                                 int mode, const pier__cell *cells,
                                 size_t nrows, int64_t stamp,
                                 size_t *failed_row, pier_error *err)
{
    pg_lake *l = of(lake);
    int64_t key = 0;
    pier_status rc = key_of(l, b, &key, err);
    if (rc != PIER_OK)
        return rc;
    /* (prepared once per board and mode: a write spends no time in the
     * server's parser and planner while it holds the head) */
    int64_t which = key * 2 + (mode == PIER__WRITE_UPSERT);
    char name[40];
    snprintf(name, sizeof name, "pier_w%" PRId64, which);
    bool ready = false;
    for (size_t i = 0; i < l->nprepared && !ready; i++)
        ready = l->prepared[i] == which;
    if (!ready) {
        if (l->nprepared == sizeof l->prepared / sizeof l->prepared[0]) {
            PQclear(PQexec(l->conn, "DEALLOCATE ALL"));
            l->nprepared = 0;
            l->append_prepared = false;
        }
        pier__buf sql;
        pier__buf_init(&sql);
        pier__pg_rows_write_sql(&sql, l->ns, key, mode);
        PGresult *r = sql.oom ? NULL : PQprepare(l->conn, name, sql.p, 4,
                                                 NULL);
        rc = sql.oom ? pier__oom(err)
             : PQresultStatus(r) != PGRES_COMMAND_OK
                 ? pier__pg_fail(r, l->conn, PIER_E_WRITE_FAILED,
                                 "cannot write a row", err)
                 : PIER_OK;
        PQclear(r);
        pier__buf_free(&sql);
        if (rc != PIER_OK)
            return rc;
        l->prepared[l->nprepared++] = which;
    }
    return pier__pg_rows_write_as(l->conn, name, l->ns, key, b, mode, cells,
                                  nrows, stamp, failed_row, err);
}

static pier_status pg_row_update(pier__lake *lake, const pier__board *b,
                                 const char *id, size_t id_len,
                                 const size_t *cols, const pier__cell *cells,
                                 size_t n, int64_t updated_at, int64_t stamp,
                                 bool *found, pier_error *err)
{
    pg_lake *l = of(lake);
    *found = false;
    /* (ids are text: one holding U+0000 names no row) */
    if (memchr(id, '\0', id_len) != NULL)
        return PIER_OK;
    char *z = pier__strndup(id, id_len);
    if (z == NULL)
        return pier__oom(err);
    int64_t key = 0;
    pier_status rc = key_of(l, b, &key, err);
    if (rc == PIER_OK)
        rc = pier__pg_row_update(l->conn, l->ns, key, b, z, cols, cells, n,
                                 updated_at, stamp, found, err);
    free(z);
    return rc;
}

static pier_status pg_rows_delete(pier__lake *lake, const pier__board *b,
                                  const char *const *ids, size_t nids,
                                  int64_t *deleted, pier_error *err)
{
    pg_lake *l = of(lake);
    int64_t key = 0;
    pier_status rc = key_of(l, b, &key, err);
    if (rc == PIER_OK)
        rc = pier__pg_rows_delete(l->conn, l->ns, key, ids, nids, deleted,
                                  err);
    return rc;
}

/* ---- the change log ---- */

static pier_status pg_change_append(pier__lake *lake, const char *board,
                                    const char *kind, const char *payload,
                                    size_t len, int64_t committed_at,
                                    int64_t stamp, int64_t *watermark,
                                    pier_error *err)
{
    pg_lake *l = of(lake);
    bool first = l->queued == 0;
    array_text(&l->q_board, first, board, strlen(board));
    array_text(&l->q_kind, first, kind, strlen(kind));
    array_text(&l->q_payload, first, payload, len);
    array_int(&l->q_at, first, committed_at);
    array_int(&l->q_stamp, first, stamp);
    if (l->q_board.oom || l->q_kind.oom || l->q_payload.oom ||
        l->q_at.oom || l->q_stamp.oom)
        return pier__oom(err);
    l->queued++;
    if (stamp > l->q_max_stamp)
        l->q_max_stamp = stamp;
    if (stamp > l->tx_stamp)
        l->tx_stamp = stamp;
    /* (the head is this transaction's until it ends) */
    *watermark = l->tx_head + (int64_t)l->queued;
    l->appended = *watermark;
    return PIER_OK;
}

static int64_t pg_commit_shift(pier__lake *lake)
{
    return of(lake)->shift;
}

static bool pg_write_moved(pier__lake *lake)
{
    pg_lake *l = of(lake);
    bool m = l->moved;
    l->moved = false;
    return m;
}

static pier_status pg_head(pier__lake *lake, int64_t *out, pier_error *err)
{
    pg_lake *l = of(lake);
    if (l->in_tx) {
        /* (the head as the transaction began, and its own appends) */
        *out = l->appended > 0 ? l->appended : l->tx_head;
        return PIER_OK;
    }
    pier_status rc = head_heard(l, PIER_E_READ_FAILED, err);
    if (rc == PIER_OK)
        *out = l->head.head;
    return rc;
}

static pier_status pg_last_stamp(pier__lake *lake, int64_t *out,
                                 pier_error *err)
{
    (void)err;
    *out = of(lake)->tx_stamp;
    return PIER_OK;
}

typedef struct reading {
    const char *board;
    int (*cb)(const pier_change *rec, void *payload);
    void *payload;
} reading;

static bool read_one(void *payload, const pier__pg_change *rec)
{
    reading *rd = payload;
    const pier_change c = {
        .watermark = rec->watermark,
        .board = rd->board,
        .kind = rec->kind,
        .payload = rec->payload,
        .payload_len = rec->len,
        .committed_at = rec->committed_at,
    };
    return rd->cb(&c, rd->payload) == 0;
}

static pier_status pg_changes_read(pier__lake *lake, const char *board,
                                   int64_t after, size_t limit,
                                   int (*cb)(const pier_change *rec,
                                             void *payload),
                                   void *payload, pier_error *err)
{
    pg_lake *l = of(lake);
    reading rd = { board, cb, payload };
    int64_t head = 0;
    int64_t lim = limit > (size_t)INT64_MAX ? INT64_MAX : (int64_t)limit;
    return pier__pg_log_after(l->conn, l->ns, board, after, lim, read_one,
                              &rd, &head, err);
}

static pier_status meta_get(pg_lake *l, const char *key, int64_t *out,
                            pier_status status, pier_error *err)
{
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT value FROM \"%s\".meta WHERE key = "
             "'%s'", l->ns, key);
    return ints(l, sql, out, 1, status, "cannot read the lake's meta", err);
}

static pier_status pg_floor(pier__lake *lake, int64_t *out, pier_error *err)
{
    return meta_get(of(lake), "floor", out, PIER_E_READ_FAILED, err);
}

static pier_status pg_changes_expire(pier__lake *lake, int64_t before,
                                     int64_t now, int64_t *dropped,
                                     pier_error *err)
{
    pg_lake *l = of(lake);
    char sql[900], b[24], n[24];
    snprintf(b, sizeof b, "%" PRId64, before);
    snprintf(n, sizeof n, "%" PRId64, now);
    /* never the newest record; the floor rises to the highest dropped */
    snprintf(sql, sizeof sql,
             "WITH d AS (DELETE FROM \"%s\".changes WHERE committed_at < "
             "$1::bigint AND watermark < (SELECT max(watermark) FROM "
             "\"%s\".changes) RETURNING watermark), f AS (UPDATE \"%s\".meta "
             "SET value = greatest(value, (SELECT coalesce(max(watermark), "
             "0) FROM d)) WHERE key = 'floor'), m AS (UPDATE \"%s\".meta SET "
             "value = $2::bigint WHERE key = 'last_maintenance') SELECT "
             "count(*) FROM d", l->ns, l->ns, l->ns, l->ns);
    const char *params[2] = { b, n };
    PGresult *r = NULL;
    pier_status rc = run(l, sql, 2, params, &r, PIER_E_WRITE_FAILED,
                         "cannot drop old change records", err);
    if (rc == PIER_OK)
        *dropped = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    return rc;
}

/* PostgreSQL reclaims space itself (vacuum): nothing to do. */
static pier_status pg_nothing(pier__lake *lake, pier_error *err)
{
    (void)lake;
    (void)err;
    return PIER_OK;
}

static pier_status pg_stats(pier__lake *lake, const pier__catalog *cat,
                            pier_stats *out, pier_error *err)
{
    pg_lake *l = of(lake);
    out->boards = (int64_t)cat->nboards;
    out->rows = 0;
    pier_status rc = PIER_OK;
    for (size_t i = 0; rc == PIER_OK && i < cat->nboards; i++) {
        int64_t n = 0;
        rc = pg_rows_count(lake, cat->boards[i], &n, err);
        out->rows += n;
    }
    char sql[800];
    snprintf(sql, sizeof sql, "SELECT (SELECT count(*) FROM \"%s\".changes), "
             "(SELECT value FROM \"%s\".meta WHERE key = 'floor'), (SELECT "
             "value FROM \"%s\".meta WHERE key = 'last_maintenance'), "
             "(SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM "
             "pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
             "WHERE n.nspname = '%s' AND c.relkind = 'r')", l->ns, l->ns,
             l->ns, l->ns);
    int64_t v[4] = { 0, 0, 0, 0 };
    if (rc == PIER_OK)
        rc = ints(l, sql, v, 4, PIER_E_READ_FAILED,
                  "cannot read the lake's figures", err);
    if (rc != PIER_OK)
        return rc;
    out->change_records = v[0];
    out->floor = v[1];
    out->last_maintenance = v[2];
    out->lake_bytes = v[3];
    out->wal_bytes = 0;
    return pg_head(lake, &out->head, err);
}

/* ---- replicas ---- */

/* The board's replica synced to the head cache's target (read again when
 * stale), or to the head read now (`now`). A reference on success. */
/* A failure to reach the lake while syncing board's replica. */
static pier_status sync_failed(const char *board, pier_error *err)
{
    char why[sizeof err->message];
    pier__copy_field(why, sizeof why, err != NULL ? err->message : "");
    pier__fail(err, PIER_E_SYNC_FAILED, "cannot sync the replica of board "
               "'%s': %s", board, why);
    pier__error_board(err, board);
    return PIER_E_SYNC_FAILED;
}

static pier_status replica_sync(pg_lake *l, const char *board, bool now,
                                pier__replica **out, pier_error *err)
{
    pier_status rc = session_alive(l, err);
    if (rc != PIER_OK)
        return sync_failed(board, err);
    /* A query compiled in a read transaction (the engine reloading its
     * catalog) syncs after it: that read is over, and a sync takes
     * snapshots of its own. */
    if (l->in_tx && !l->writing) {
        PQclear(PQexec(l->conn, "COMMIT"));
        l->in_tx = false;
    } else if (l->in_tx) {
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "a replica cannot "
                          "sync inside a write");
    }
    int64_t at = pier__clock_monotonic();
    if (now || l->head.read_at_us == 0 ||
        (!l->cfg.single_node && pier__head_stale(&l->head, at, 0)))
        if (head_heard(l, PIER_E_SYNC_FAILED, err) != PIER_OK)
            return sync_failed(board, err);
    if (rc == PIER_OK)
        rc = pier__replicas_get(&l->replicas, l->conn, l->ns, l->identity,
                                board, pier__head_target(&l->head, 0), out,
                                err);
    if (rc == PIER_OK)
        (*out)->fresh_at_us = l->head.read_at_us;
    return rc;
}

/* replica_sync; when the lake cannot be reached (SyncFailed), the open
 * replica as it stands if it was at the head at most max_stale_us ago. */
static pier_status replica_get(pg_lake *l, const char *board, bool now,
                               int64_t max_stale_us, pier__replica **out,
                               pier_error *err)
{
    pier_status rc = replica_sync(l, board, now, out, err);
    if (rc != PIER_E_SYNC_FAILED || max_stale_us <= 0)
        return rc;
    pier__replica *r = pier__replicas_find(&l->replicas, board);
    if (r == NULL || r->fresh_at_us == 0 ||
        pier__clock_monotonic() - r->fresh_at_us > max_stale_us)
        return rc;
    atomic_fetch_add(&r->refs, 1);
    *out = r;
    pier__error_clear(err);
    return PIER_OK;
}

static pier_status pg_sync(pier__lake *lake, const char *board,
                           int64_t *watermark, pier_error *err)
{
    pier__replica *r = NULL;
    pier_status rc = replica_get(of(lake), board, true, 0, &r, err);
    if (rc == PIER_OK)
        *watermark = r->meta.watermark;
    pier__replica_release(r);
    return rc;
}

static int64_t pg_replica_watermark(pier__lake *lake, const char *board)
{
    pier__replica *r = pier__replicas_find(&of(lake)->replicas, board);
    return r != NULL ? r->meta.watermark : 0;
}

static pier_status pg_evict(pier__lake *lake, const char *board,
                            pier_error *err)
{
    return pier__replicas_evict(&of(lake)->replicas, board, err);
}

static void pg_replica_stats(pier__lake *lake, pier_stats *out)
{
    const pier__replica_set *s = &of(lake)->replicas;
    out->syncs = s->syncs;
    out->records_applied = s->applied;
    out->rebuilds = s->rebuilds;
    out->replicas = (int64_t)s->nopen;
}

/* ---- queries: on the replica ---- */

static pier_status pg_reader_open(pier__lake *lake, pier__reader **out,
                                  pier_error *err)
{
    pg_reader *r = calloc(1, sizeof *r);
    if (r == NULL)
        return pier__oom(err);
    r->lake = of(lake);
    *out = (pier__reader *)r;
    return PIER_OK;
}

static pg_reader *reader_of(pier__reader *r)
{
    return (pg_reader *)r;
}

/* Points the reader at replica rep (taking the reference). */
static pier_status reader_on(pg_reader *r, pier__replica *rep,
                             pier_error *err)
{
    if (r->replica == rep) {
        pier__replica_release(rep);          /* (it holds one already) */
        return PIER_OK;
    }
    if (r->inner != NULL)
        r->replica->lake->ops->reader_close(r->inner);
    r->inner = NULL;
    pier__replica_release(r->replica);
    r->replica = rep;
    return rep->lake->ops->reader_open(rep->lake, &r->inner, err);
}

static void others_release(pg_reader *r)
{
    for (size_t i = 0; i < r->nothers; i++)
        pier__replica_release(r->others[i]);
    r->nothers = 0;
}

/* Syncs the query's other boards and attaches their replicas to the
 * reader's (a board named twice, or the query's own, once). */
static pier_status attach_others(pg_reader *r, const pier__query_text *q,
                                 pier_error *err)
{
    pier__replica *got[PIER__QUERY_MAX_BOARDS] = { NULL };
    const char *ids[PIER__QUERY_MAX_BOARDS] = { NULL };
    char *paths[PIER__QUERY_MAX_BOARDS] = { NULL };
    uint64_t tokens[PIER__QUERY_MAX_BOARDS] = { 0 };
    size_t n = 0;
    pier_status rc = PIER_OK;
    for (size_t i = 1; rc == PIER_OK && i < q->nboards; i++) {
        const char *id = q->boards[i]->id;
        bool seen = strcmp(id, q->boards[0]->id) == 0;
        for (size_t k = 0; k < n && !seen; k++)
            seen = strcmp(ids[k], id) == 0;
        if (seen)
            continue;
        rc = replica_get(r->lake, id, false, q->max_stale_us, &got[n], err);
        if (rc != PIER_OK)
            break;
        ids[n] = got[n]->board;
        tokens[n] = (uint64_t)got[n]->ino ^ ((uint64_t)got[n]->dev << 40);
        size_t len = strlen(r->lake->cache_dir) + strlen(id) +
                     sizeof "//" PIER__SQLITE_LAKE_FILE;
        paths[n] = malloc(len);
        if (paths[n] == NULL) {
            pier__replica_release(got[n]);
            rc = pier__oom(err);
            break;
        }
        snprintf(paths[n], len, "%s/%s/%s", r->lake->cache_dir, id,
                 PIER__SQLITE_LAKE_FILE);
        n++;
    }
    if (rc == PIER_OK)
        rc = pier__sqlite_reader_attach(r->inner, ids,
                                        (const char *const *)paths, tokens,
                                        n, err);
    for (size_t k = 0; k < n; k++)
        free(paths[k]);
    others_release(r);
    if (rc != PIER_OK) {
        for (size_t k = 0; k < n; k++)
            pier__replica_release(got[k]);
        return rc;
    }
    memcpy(r->others, got, n * sizeof *got);
    r->nothers = n;
    return PIER_OK;
}

static pier_status pg_reader_prepare(pier__reader *rd,
                                     const pier__query_text *q,
                                     pier__query_shape *shape,
                                     pier_error *err)
{
    pg_reader *r = reader_of(rd);
    pier__replica *rep = NULL;
    pier_status rc = replica_get(r->lake, q->boards[0]->id, false,
                                 q->max_stale_us, &rep, err);
    if (rc == PIER_OK)
        rc = reader_on(r, rep, err);
    if (rc == PIER_OK)
        rc = attach_others(r, q, err);
    if (rc != PIER_OK)
        return rc;
    r->version = atomic_load(&r->lake->version);
    return r->replica->lake->ops->reader_prepare(r->inner, q, shape, err);
}

static bool pg_reader_again(pier__reader *rd, uint64_t epoch)
{
    pg_reader *r = reader_of(rd);
    /* (a query of several boards prepares again: each syncs) */
    if (r->replica == NULL || r->inner == NULL || r->nothers > 0)
        return false;
    /* synced as a prepare syncs, and still on the same replica */
    pier_error ignored;
    pier__replica *rep = NULL;
    if (replica_sync(r->lake, r->replica->board, false, &rep, &ignored) !=
        PIER_OK)
        return false;
    bool same = rep == r->replica;
    pier__replica_release(rep);
    if (!same)
        return false;
    r->version = atomic_load(&r->lake->version);
    return r->replica->lake->ops->reader_again(r->inner, epoch);
}

static pier_status pg_reader_bind(pier__reader *rd, int i,
                                  const pier__cell *c, pier_error *err)
{
    pg_reader *r = reader_of(rd);
    return r->replica->lake->ops->reader_bind(r->inner, i, c, err);
}

static pier_status pg_reader_step(pier__reader *rd, const pier__cell **cells,
                                  pier_error *err)
{
    pg_reader *r = reader_of(rd);
    return r->replica->lake->ops->reader_step(r->inner, cells, err);
}

static pier_status pg_reader_version(pier__reader *rd, bool fresh,
                                     int64_t *version, pier_error *err)
{
    (void)err;
    pg_reader *r = reader_of(rd);
    /* (the newest known: a failed prepare may come from a catalog older
     * than the replica's) */
    *version = fresh || r->replica == NULL ? atomic_load(&r->lake->version)
                                           : r->version;
    return PIER_OK;
}

static void pg_reader_restart(pier__reader *rd)
{
    pg_reader *r = reader_of(rd);
    if (r->inner != NULL)
        r->replica->lake->ops->reader_restart(r->inner);
}

static void pg_reader_guard(pier__reader *rd, pier__guard *g)
{
    pg_reader *r = reader_of(rd);
    if (r->inner != NULL)
        r->replica->lake->ops->reader_guard(r->inner, g);
}

static void pg_reader_close(pier__reader *rd)
{
    pg_reader *r = reader_of(rd);
    if (r == NULL)
        return;
    if (r->inner != NULL)
        r->replica->lake->ops->reader_close(r->inner);
    others_release(r);
    pier__replica_release(r->replica);
    free(r);
}

/* ---- opening ---- */

static void pg_close(pier__lake *lake)
{
    pg_lake *l = of(lake);
    pier__replicas_free(&l->replicas);
    if (l->conn != NULL)
        PQfinish(l->conn);
    if (l->lock_fd >= 0)
        close(l->lock_fd);
    free(l->keys);
    free(l->cache_dir);
    pier__buf *bufs[5] = { &l->q_board, &l->q_kind, &l->q_payload, &l->q_at,
                           &l->q_stamp };
    for (int i = 0; i < 5; i++)
        pier__buf_free(bufs[i]);
    free(l);
}

static const pier__lake_ops pg_ops = {
    .name = "postgres",
    .close = pg_close,
    .begin_write = pg_begin_write,
    .begin_read = pg_begin_read,
    .commit = pg_commit,
    .rollback = pg_rollback,
    .catalog_version = pg_catalog_version,
    .catalog_bump = pg_catalog_bump,
    .catalog_load = pg_catalog_load,
    .board_create = pg_board_create,
    .board_drop = pg_board_drop,
    .board_truncate = pg_board_truncate,
    .column_add = pg_column_add,
    .column_widen = pg_column_widen,
    .rows_scan = pg_rows_scan,
    .rows_count = pg_rows_count,
    .change_append = pg_change_append,
    .head = pg_head,
    .last_stamp = pg_last_stamp,
    .rows_write = pg_rows_write,
    .row_update = pg_row_update,
    .rows_delete = pg_rows_delete,
    .changes_read = pg_changes_read,
    .floor = pg_floor,
    .changes_expire = pg_changes_expire,
    .checkpoint = pg_nothing,
    .compact_files = pg_nothing,
    .stats = pg_stats,
    .reader_open = pg_reader_open,
    .reader_prepare = pg_reader_prepare,
    .reader_again = pg_reader_again,
    .reader_bind = pg_reader_bind,
    .reader_step = pg_reader_step,
    .reader_version = pg_reader_version,
    .reader_restart = pg_reader_restart,
    .reader_guard = pg_reader_guard,
    .reader_close = pg_reader_close,
    .sync = pg_sync,
    .replica_watermark = pg_replica_watermark,
    .evict = pg_evict,
    .replica_stats = pg_replica_stats,
    .commit_shift = pg_commit_shift,
    .write_moved = pg_write_moved,
};

/* The node's cache directory: the caller's, or one under the user's cache
 * named by the lake (identity and namespace); made, and locked so that
 * no other node uses it. */
static pier_status cache_open(pg_lake *l, pier_error *err)
{
    pier__buf b;
    pier__buf_init(&b);
    if (l->cfg.cache_dir != NULL && l->cfg.cache_dir[0] != '\0') {
        pier__buf_puts(&b, l->cfg.cache_dir);
    } else {
        const char *xdg = getenv("XDG_CACHE_HOME");
        const char *home = getenv("HOME");
        if (xdg != NULL && xdg[0] == '/')
            pier__buf_puts(&b, xdg);
        else if (home != NULL && home[0] == '/')
            pier__buf_printf(&b, "%s/.cache", home);
        else
            pier__buf_puts(&b, "/tmp");
        pier__buf_printf(&b, "/pier/%" PRId64 "-%s", l->identity, l->ns);
    }
    if (b.oom) {
        pier__buf_free(&b);
        return pier__oom(err);
    }
    l->cache_dir = pier__strdup(b.p);
    pier__buf_free(&b);
    if (l->cache_dir == NULL)
        return pier__oom(err);
    int e = pier__mkdir_p(l->cache_dir, 0700);     /* (a node's own) */
    if (e != 0)
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE, "cannot make the "
                          "node's cache directory '%s': %s", l->cache_dir,
                          strerror(e));
    size_t n = strlen(l->cache_dir) + sizeof "/node.lock";
    char *path = malloc(n);
    if (path == NULL)
        return pier__oom(err);
    snprintf(path, n, "%s/node.lock", l->cache_dir);
    l->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    pier_status rc = PIER_OK;
    if (l->lock_fd < 0)
        rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE, "cannot open '%s': %s",
                        path, strerror(errno));
    else if (flock(l->lock_fd, LOCK_EX | LOCK_NB) != 0)
        rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE, "the cache directory "
                        "'%s' is in use by another node: give each node "
                        "its own cache directory", l->cache_dir);
    free(path);
    if (rc == PIER_OK)
        rc = pier__replicas_init(&l->replicas, l->cache_dir,
                                 l->cfg.replicas_open, err);
    return rc;
}

pier_status pier__pg_lake_open(pier__lake **out, const pier__pg_config *cfg,
                               pier_error *err)
{
    *out = NULL;
    pg_lake *l = calloc(1, sizeof *l);
    if (l == NULL)
        return pier__oom(err);
    l->base.ops = &pg_ops;
    l->cfg = *cfg;
    pier__buf *bufs[5] = { &l->q_board, &l->q_kind, &l->q_payload, &l->q_at,
                           &l->q_stamp };
    for (int i = 0; i < 5; i++)
        pier__buf_init(bufs[i]);
    l->lock_fd = -1;
    atomic_init(&l->version, 0);
    pier__head_init(&l->head, cfg->head_refresh_us);
    const char *ns = cfg->ns != NULL ? cfg->ns : PIER__PG_NAMESPACE;
    pier_status rc = PIER_OK;
    if (!pier__pg_namespace_valid(ns))
        rc = pier__fail(err, PIER_E_INVALID_ARGUMENT, "'%s' cannot name a "
                        "PostgreSQL lake's namespace: use lower-case "
                        "letters, digits and '_' (63 at most, not first a "
                        "digit)", ns);
    else
        snprintf(l->ns, sizeof l->ns, "%s", ns);
    if (rc == PIER_OK)
        rc = pier__pg_connect(&l->conn, cfg->conninfo, err);
    pier__pg_meta meta;
    if (rc == PIER_OK)
        rc = pier__pg_catalog_open(l->conn, l->ns, !cfg->must_exist, &meta,
                                   err);
    if (rc == PIER_OK)
        rc = session_alive(l, err);
    if (rc == PIER_OK) {
        l->identity = meta.identity;
        raise_version(l, meta.catalog_version);
        rc = cache_open(l, err);
    }
    if (rc != PIER_OK) {
        pg_close(&l->base);
        return rc;
    }
    *out = &l->base;
    return PIER_OK;
}
