/*
 * test_pg_catalog.c: a PostgreSQL lake's connection and catalog
 * (src/cluster/pg_catalog.c): made once, found again with the same
 * identity, made by one of several nodes opening it at once, and refused
 * (changing nothing) when it is of a newer format, lost a table, shares
 * its namespace with tables that are not a lake's, lives in a database
 * that is not UTF-8, or cannot be reached; a change log that a reader
 * following "after N" never misses a record of while nodes commit in any
 * order; boards made, loaded back into the engine's model and given
 * columns (src/cluster/pg_boards.c), one board when two nodes make it at
 * once, and a damaged catalog refused.
 *
 * Runs against the throwaway server of tests/support/pg.sh (fixture
 * `pg`); without one it says SKIP and exits 77. Each test works in
 * namespaces named after the process, and drops them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "cluster/head.h"
#include "cluster/pg_catalog.h"
#include "cluster/pg_rows.h"
#include "cluster/replica.h"
#include "engine/replica_set.h"
#include "engine/replica_sync.h"
#include "pier.h"
#include "support/lakedir.h"
#include "support/pgtest.h"

static const char *url;   /* the server's connection string */

static PGconn *connect_ok(void)
{
    PGconn *c = NULL;
    pier_error err;
    if (pier__pg_connect(&c, url, &err) != PIER_OK)
        fail_msg("cannot connect: %s", err.message);
    return c;
}

static void run(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK &&
        PQresultStatus(r) != PGRES_TUPLES_OK)
        fail_msg("%s: %s", sql, PQresultErrorMessage(r));
    PQclear(r);
}

/* A namespace of this process's: "t<pid>_<tag>", dropped first. */
static void fresh_namespace(PGconn *c, const char *tag, char ns[64])
{
    snprintf(ns, 64, "t%ld_%s", (long)getpid(), tag);
    char sql[160];
    snprintf(sql, sizeof sql, "SET client_min_messages TO warning; DROP "
             "SCHEMA IF EXISTS %s CASCADE", ns);
    run(c, sql);
}

static void drop_namespace(PGconn *c, const char *ns)
{
    char sql[160];
    snprintf(sql, sizeof sql, "DROP SCHEMA IF EXISTS %s CASCADE", ns);
    run(c, sql);
}

/* The one value a query gives, as text (static storage). */
static const char *value_of(PGconn *c, const char *sql)
{
    static char out[128];
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1)
        fail_msg("%s: %s", sql, PQresultErrorMessage(r));
    snprintf(out, sizeof out, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    return out;
}

/* A connection and a new lake in namespace "t<pid>_<tag>" (ns); *meta
 * (may be NULL) what it says of itself. */
static PGconn *new_lake(const char *tag, char ns[64], pier__pg_meta *meta)
{
    PGconn *c = connect_ok();
    fresh_namespace(c, tag, ns);
    pier__pg_meta m;
    pier_error err;
    if (pier__pg_catalog_ensure(c, ns, meta != NULL ? meta : &m, &err) !=
        PIER_OK)
        fail_msg("cannot make the lake: %s", err.message);
    return c;
}

/* How many tables the namespace holds. */
static int tables_in(PGconn *c, const char *ns)
{
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM pg_tables WHERE "
             "schemaname = '%s'", ns);
    return atoi(value_of(c, sql));
}

static void test_made_then_found(void **state)
{
    (void)state;
    PGconn *c = connect_ok();
    char ns[64];
    fresh_namespace(c, "found", ns);
    pier__pg_meta m;
    pier_error err;
    char sql[512];
    assert_int_equal(pier__pg_catalog_ensure(c, ns, &m, &err), PIER_OK);
    assert_true(m.created);
    assert_int_equal(m.format, PIER__PG_FORMAT);
    assert_int_equal(m.catalog_version, 0);
    assert_true(m.identity > 0);
    assert_int_equal(tables_in(c, ns), 5);
    snprintf(sql, sizeof sql, "SELECT watermark || ',' || stamp FROM "
             "%s.head", ns);
    assert_string_equal(value_of(c, sql), "0,0");
    /* found again: the same lake, nothing made */
    pier__pg_meta again;
    assert_int_equal(pier__pg_catalog_ensure(c, ns, &again, &err), PIER_OK);
    assert_false(again.created);
    assert_true(again.identity == m.identity);
    /* a column's name is unique as Pier compares names (ASCII folded) */
    snprintf(sql, sizeof sql, "INSERT INTO %s.columns (board, position, "
             "name, type, origin) VALUES ('b', 0, 'Price', 'double', "
             "'inferred'), ('b', 1, 'pRICE', 'text', 'inferred')", ns);
    PGresult *r = PQexec(c, sql);
    assert_string_equal(PQresultErrorField(r, PG_DIAG_SQLSTATE), "23505");
    PQclear(r);
    drop_namespace(c, ns);
    PQfinish(c);
}

enum { MAX_NODES = 8 };

/* What one node (a process of its own) does: a line of its results in
 * line (cap bytes). */
typedef void (*node_fn)(int k, const char *ns, char *line, size_t cap);

/* Runs n nodes at once, each node(k, ns, ...) in a process of its own,
 * and gives back each one's line once all have exited cleanly. */
static void run_nodes(int n, node_fn node, const char *ns,
                      char lines[][64])
{
    int fds[MAX_NODES][2];
    pid_t pids[MAX_NODES];
    assert_true(n <= MAX_NODES);
    for (int k = 0; k < n; k++) {
        assert_int_equal(pipe(fds[k]), 0);
        pids[k] = fork();
        assert_true(pids[k] >= 0);
        if (pids[k] == 0) {
            char line[64] = { 0 };
            node(k, ns, line, sizeof line);
            size_t len = strlen(line);
            _exit(write(fds[k][1], line, len) == (ssize_t)len ? 0 : 1);
        }
        close(fds[k][1]);
    }
    for (int k = 0; k < n; k++) {
        memset(lines[k], 0, 64);
        assert_true(read(fds[k][0], lines[k], 63) > 0);
        close(fds[k][0]);
        int status = 0;
        assert_int_equal(waitpid(pids[k], &status, 0), pids[k]);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
}

/* A node opening the lake: "ok created identity". */
static void opening_node(int k, const char *ns, char *line, size_t cap)
{
    (void)k;
    PGconn *mine = NULL;
    pier_error err;
    pier__pg_meta m = { 0 };
    int ok = pier__pg_connect(&mine, url, &err) == PIER_OK &&
             pier__pg_catalog_ensure(mine, ns, &m, &err) == PIER_OK;
    snprintf(line, cap, "%d %d %lld\n", ok, m.created,
             (long long)m.identity);
    PQfinish(mine);
}

/* Four nodes open a new lake at once: one makes it, all find the same. */
static void test_nodes_at_once(void **state)
{
    (void)state;
    PGconn *c = connect_ok();
    char ns[64];
    fresh_namespace(c, "race", ns);
    enum { NODES = 4 };
    char lines[NODES][64];
    run_nodes(NODES, opening_node, ns, lines);
    long long identity = 0;
    int made = 0;
    for (int k = 0; k < NODES; k++) {
        const char *line = lines[k];
        int ok = 0, created = 0;
        long long id = 0;
        assert_int_equal(sscanf(line, "%d %d %lld", &ok, &created, &id), 3);
        assert_int_equal(ok, 1);
        made += created;
        if (k == 0)
            identity = id;
        assert_true(id == identity && id > 0);
    }
    assert_int_equal(made, 1);
    assert_int_equal(tables_in(c, ns), 5);
    drop_namespace(c, ns);
    PQfinish(c);
}

static void test_refusals_change_nothing(void **state)
{
    (void)state;
    PGconn *c = connect_ok();
    char ns[64], sql[512];
    pier__pg_meta m;
    pier_error err;
    /* a newer format */
    fresh_namespace(c, "newer", ns);
    assert_int_equal(pier__pg_catalog_ensure(c, ns, &m, &err), PIER_OK);
    snprintf(sql, sizeof sql, "UPDATE %s.meta SET value = 3 WHERE key = "
             "'format'", ns);
    run(c, sql);
    assert_int_equal(pier__pg_catalog_ensure(c, ns, &m, &err),
                     PIER_E_LAKE_UNAVAILABLE);
    assert_non_null(strstr(err.message, "format 3, newer than this "
                                        "Pier's 2"));
    /* the format of the lake while it was being built (a column per
     * board column) is not read */
    snprintf(sql, sizeof sql, "UPDATE %s.meta SET value = 1 WHERE key = "
             "'format'", ns);
    run(c, sql);
    assert_int_equal(pier__pg_catalog_ensure(c, ns, &m, &err),
                     PIER_E_LAKE_UNAVAILABLE);
    assert_non_null(strstr(err.message, "format 1, which this Pier does "
                                        "not read"));
    /* a lake that lost a table is not made whole behind its back */
    snprintf(sql, sizeof sql, "UPDATE %s.meta SET value = 2 WHERE key = "
             "'format'; DROP TABLE %s.changes", ns, ns);
    run(c, sql);
    assert_int_equal(pier__pg_catalog_ensure(c, ns, &m, &err),
                     PIER_E_LAKE_UNAVAILABLE);
    assert_non_null(strstr(err.message, "but not changes"));
    assert_int_equal(tables_in(c, ns), 4);
    drop_namespace(c, ns);
    /* a namespace with a table of the same name that is not a lake's */
    fresh_namespace(c, "foreign", ns);
    snprintf(sql, sizeof sql, "CREATE SCHEMA %s; CREATE TABLE %s.boards "
             "(x int)", ns, ns);
    run(c, sql);
    assert_int_equal(pier__pg_catalog_ensure(c, ns, &m, &err),
                     PIER_E_LAKE_UNAVAILABLE);
    assert_non_null(strstr(err.message, "not a PostgreSQL lake"));
    assert_int_equal(tables_in(c, ns), 1);
    drop_namespace(c, ns);
    /* a namespace that needs quoting rules is not one */
    static const char *const bad[] = { "Pier", "1lake", "a-b", "",
                                       "a\"; DROP SCHEMA public; --" };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        assert_int_equal(pier__pg_catalog_ensure(c, bad[k], &m, &err),
                         PIER_E_INVALID_ARGUMENT);
    char longest[65];
    memset(longest, 'a', 64);
    longest[64] = '\0';
    assert_false(pier__pg_namespace_valid(longest));
    longest[63] = '\0';
    assert_true(pier__pg_namespace_valid(longest));
    PQfinish(c);
}

static void test_unreachable_and_not_utf8(void **state)
{
    (void)state;
    PGconn *c = NULL;
    pier_error err;
    assert_int_equal(pier__pg_connect(&c, "postgresql://127.0.0.1:1/lake?"
                                          "connect_timeout=5", &err),
                     PIER_E_LAKE_UNAVAILABLE);
    assert_null(c);
    assert_non_null(strstr(err.message, "cannot connect to the PostgreSQL "
                                        "lake: "));
    assert_non_null(strstr(err.message, "127.0.0.1"));
    assert_int_equal(pier__pg_connect(&c, NULL, &err),
                     PIER_E_INVALID_ARGUMENT);
    /* a database in another encoding */
    PGconn *admin = connect_ok();
    char db[64], sql[256];
    snprintf(db, sizeof db, "t%ld_ascii", (long)getpid());
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", db);
    run(admin, sql);
    snprintf(sql, sizeof sql, "CREATE DATABASE %s ENCODING 'SQL_ASCII' "
             "LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0", db);
    run(admin, sql);
    char conninfo[1024];
    snprintf(conninfo, sizeof conninfo, "%s dbname=%s", url, db);
    assert_int_equal(pier__pg_connect(&c, conninfo, &err),
                     PIER_E_LAKE_UNAVAILABLE);
    assert_null(c);
    assert_non_null(strstr(err.message, "encoded SQL_ASCII"));
    snprintf(sql, sizeof sql, "DROP DATABASE %s", db);
    run(admin, sql);
    PQfinish(admin);
}

/* ---- the change log ---- */

enum { WRITERS = 4, TXS = 25, MAX_RECORDS = WRITERS * TXS * 3 };

static void sleep_us(long us)
{
    struct timespec t = { us / 1000000, (us % 1000000) * 1000L };
    nanosleep(&t, NULL);
}

/* One writer node: TXS transactions of 1 to 3 records each, sleeping
 * between its append and its commit (while it holds the head) and before
 * the next, so that commits of the nodes interleave. Exits 0 when every
 * one committed. */
static void writer(const char *ns, int node)
{
    PGconn *c = NULL;
    pier_error err;
    if (pier__pg_connect(&c, url, &err) != PIER_OK)
        _exit(2);
    srand((unsigned)(getpid() * 7919));
    for (int t = 0; t < TXS; t++) {
        pier__pg_record recs[3];
        char payloads[3][64];
        int n = 1 + (t + node) % 3;
        for (int i = 0; i < n; i++) {
            snprintf(payloads[i], sizeof payloads[i],
                     "{\"node\":%d,\"tx\":%d,\"i\":%d}", node, t, i);
            recs[i] = (pier__pg_record){ "b", "insert", payloads[i] };
        }
        PQclear(PQexec(c, "BEGIN"));
        sleep_us(rand() % 1500);
        int64_t first = 0;
        if (pier__pg_log_append(c, ns, recs, (size_t)n, 1000 + t, t, &first,
                                &err) != PIER_OK)
            _exit(3);
        sleep_us(rand() % 1500);
        PGresult *r = PQexec(c, "COMMIT");
        if (PQresultStatus(r) != PGRES_COMMAND_OK)
            _exit(4);
        PQclear(r);
    }
    PQfinish(c);
    _exit(0);
}

typedef struct seen {
    int64_t last;
    int times[MAX_RECORDS + 2];
    bool ordered;
    bool payload_ok;
} seen;

static bool collect(void *payload, const pier__pg_change *rec)
{
    seen *s = payload;
    int64_t watermark = rec->watermark;
    const char *kind = rec->kind, *record = rec->payload;
    if (watermark <= s->last)
        s->ordered = false;
    s->last = watermark;
    if (watermark >= 1 && watermark <= MAX_RECORDS)
        s->times[watermark]++;
    if (strcmp(kind, "insert") != 0 || strncmp(record, "{\"node\":", 8) ||
        rec->len != strlen(record) || rec->committed_at != rec->stamp + 1000)
        s->payload_ok = false;
    return true;
}

/* Nodes commit in any order while a reader follows "after N" from the
 * watermark it last saw: it never misses a record, and the watermarks
 * are dense from 1. */
static void test_log_never_missed(void **state)
{
    (void)state;
    char ns[64];
    PGconn *c = new_lake("log", ns, NULL);
    pier_error err;
    pid_t pids[WRITERS];
    for (int k = 0; k < WRITERS; k++) {
        pids[k] = fork();
        assert_true(pids[k] >= 0);
        if (pids[k] == 0)
            writer(ns, k);
    }
    static seen s;
    memset(&s, 0, sizeof s);
    s.ordered = s.payload_ok = true;
    int running = WRITERS;
    int64_t head = 0;
    for (;;) {
        while (running > 0) {
            int status = 0;
            pid_t p = waitpid(-1, &status, WNOHANG);
            if (p <= 0)
                break;
            assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
            running--;
        }
        /* (the last read must begin after every writer is done) */
        bool done = running == 0;
        int64_t from = s.last;
        assert_int_equal(pier__pg_log_after(c, ns, "b", from, 7, collect,
                                            &s, &head, &err), PIER_OK);
        if (done && s.last == head && from == s.last)
            break;
        if (from == s.last)
            sleep_us(500);
    }
    int total = 0;
    for (int t = 0; t < TXS; t++)
        for (int k = 0; k < WRITERS; k++)
            total += 1 + (t + k) % 3;
    assert_int_equal(head, total);
    for (int w = 1; w <= total; w++)
        if (s.times[w] != 1)
            fail_msg("watermark %d read %d times", w, s.times[w]);
    assert_true(s.ordered);
    assert_true(s.payload_ok);
    /* another board's reader finds none of them, and the head */
    s.last = 0;
    assert_int_equal(pier__pg_log_after(c, ns, "other", 0, 10, collect, &s,
                                        &head, &err), PIER_OK);
    assert_int_equal(s.last, 0);
    assert_int_equal(head, total);
    /* a payload that needs an array literal's escapes, kept as given */
    pier__pg_record odd = { "b", "update", "{\"q\":\"a\\\"b,{c}\"}" };
    int64_t first = 0;
    PQclear(PQexec(c, "BEGIN"));
    assert_int_equal(pier__pg_log_append(c, ns, &odd, 1, 5, 5, &first, &err),
                     PIER_OK);
    PQclear(PQexec(c, "COMMIT"));
    assert_int_equal(first, total + 1);
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT payload FROM %s.changes WHERE "
             "watermark = %d", ns, total + 1);
    assert_string_equal(value_of(c, sql), odd.payload);
    drop_namespace(c, ns);
    PQfinish(c);
}

/* A node's connection ended by the server (as a restart ends it): the
 * write in flight fails with the server's reason and leaves nothing; the
 * connection is made again, and writes go on. */
static void test_connection_lost(void **state)
{
    (void)state;
    char ns[64], sql[200];
    PGconn *admin = new_lake("lost", ns, NULL);
    PGconn *c = connect_ok();
    pier_error err;
    pier__pg_record rec = { "b", "insert", "{}" };
    int64_t first = 0;
    run(c, "BEGIN");
    assert_int_equal(pier__pg_log_append(c, ns, &rec, 1, 1, 1, &first, &err),
                     PIER_OK);
    /* (waiting up to 5 s for the session to be gone) */
    snprintf(sql, sizeof sql, "SELECT pg_terminate_backend(%d, 5000)",
             PQbackendPID(c));
    run(admin, sql);
    assert_int_equal(pier__pg_log_append(c, ns, &rec, 1, 2, 2, &first, &err),
                     PIER_E_WRITE_FAILED);
    assert_non_null(strstr(err.message, "cannot append to the PostgreSQL "
                                        "lake's change log: "));
    snprintf(sql, sizeof sql, "SELECT count(*) || ',' || (SELECT watermark "
             "FROM %s.head) FROM %s.changes", ns, ns);
    assert_string_equal(value_of(admin, sql), "0,0");
    assert_int_equal(pier__pg_alive(c, &err), PIER_OK);
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    assert_int_equal(pier__pg_log_append(c, ns, &rec, 1, 3, 3, &first, &err),
                     PIER_OK);
    assert_int_equal(first, 1);
    assert_string_equal(value_of(admin, sql), "1,1");
    /* the head, as a node's cache reads it */
    pier__head_cache h;
    pier__head_init(&h, 1000);
    assert_int_equal(pier__head_read(&h, c, ns, 5, &err), PIER_OK);
    assert_int_equal(pier__head_target(&h, 0), 1);
    assert_false(pier__head_stale(&h, 6, 0));
    assert_int_equal(pier__head_read(&h, c, "Bad", 5, &err),
                     PIER_E_INVALID_ARGUMENT);
    /* a live connection: nothing to do */
    assert_int_equal(pier__pg_alive(c, &err), PIER_OK);
    assert_int_equal(pier__pg_alive(NULL, &err), PIER_E_LAKE_UNAVAILABLE);
    PQfinish(c);
    drop_namespace(admin, ns);
    PQfinish(admin);
}

/* ---- boards ---- */

/* A board of the model: its base columns and, for each name, a column
 * of that type, inferred. */
static pier__board *board_of(const char *id, const char *const *names,
                             const char *const *types, size_t n)
{
    pier__board *b = pier__board_new(id, false, 1700);
    assert_non_null(b);
    for (size_t i = 0; i < n; i++) {
        pier__type t;
        char why[PIER__TYPE_WHY];
        assert_int_equal(pier__type_parse(&t, types[i], why), PIER_OK);
        assert_true(pier__board_append(b, names[i], strlen(names[i]), t,
                                       PIER_ORIGIN_INFERRED));
    }
    return b;
}

/* The cells' columns of a board's rows table, in order, joined by ','. */
static const char *table_columns(PGconn *c, const char *ns, int64_t key)
{
    char sql[320];
    snprintf(sql, sizeof sql, "SELECT string_agg(column_name::text, ',' "
             "ORDER BY ordinal_position) FROM information_schema.columns "
             "WHERE table_schema = '%s' AND table_name = 'r%lld'", ns,
             (long long)key);
    return value_of(c, sql);
}

static void test_boards_made_and_loaded(void **state)
{
    (void)state;
    char ns[64], sql[320];
    PGconn *c = new_lake("boards", ns, NULL);
    pier_error err;
    const char *names[] = { "price" }, *types[] = { "double" };
    pier__board *b = board_of("orders", names, types, 1);
    int64_t key = 0;
    run(c, "BEGIN");
    assert_int_equal(pier__pg_board_create(c, ns, b, &key, &err), PIER_OK);
    run(c, "COMMIT");
    assert_true(key > 0);
    for (size_t i = 0; i < b->ncolumns; i++)
        assert_true(b->columns[i].id > (i > 0 ? b->columns[i - 1].id : 0));
    /* (the other columns' cells packed in one) */
    assert_string_equal(table_columns(c, ns, key), "id,updated_at,_v,cells");
    snprintf(sql, sizeof sql, "SELECT value FROM %s.meta WHERE key = "
             "'catalog_version'", ns);
    assert_string_equal(value_of(c, sql), "1");
    /* loaded as the model made it */
    pier__catalog cat;
    pier__catalog_init(&cat);
    assert_int_equal(pier__pg_catalog_load(c, ns, &cat, &err), PIER_OK);
    pier__board *got = pier__catalog_find(&cat, "orders");
    assert_non_null(got);
    assert_false(got->strict);
    assert_int_equal(got->created_at, 1700);
    assert_int_equal(got->ncolumns, 4);
    for (size_t i = 0; i < 4; i++) {
        assert_true(got->columns[i].id == b->columns[i].id);
        assert_string_equal(got->columns[i].name, b->columns[i].name);
        assert_string_equal(pier__type_name(got->columns[i].type),
                            pier__type_name(b->columns[i].type));
    }
    /* a column added to the loaded board */
    pier__type text;
    char why[PIER__TYPE_WHY];
    assert_int_equal(pier__type_parse(&text, "text", why), PIER_OK);
    assert_true(pier__board_append(got, "note", 4, text,
                                   PIER_ORIGIN_INFERRED));
    run(c, "BEGIN");
    assert_int_equal(pier__pg_column_add(c, ns, got, 4, &err), PIER_OK);
    run(c, "COMMIT");
    assert_true(got->columns[4].id > got->columns[3].id);
    /* (a catalog row, no DDL) */
    assert_string_equal(table_columns(c, ns, key), "id,updated_at,_v,cells");
    assert_string_equal(value_of(c, sql), "2");
    /* the same name in another case is the same column: refused, nothing
     * changed (the caller rolls back) */
    assert_int_equal(pier__type_parse(&text, "text", why), PIER_OK);
    assert_true(pier__board_append(got, "NOTE", 4, text,
                                   PIER_ORIGIN_INFERRED));
    run(c, "BEGIN");
    assert_int_equal(pier__pg_column_add(c, ns, got, 5, &err),
                     PIER_E_WRITE_FAILED);
    assert_non_null(strstr(err.message, "23505"));
    run(c, "ROLLBACK");
    assert_string_equal(table_columns(c, ns, key), "id,updated_at,_v,cells");
    assert_string_equal(value_of(c, sql), "2");
    pier__catalog_clear(&cat);
    pier__catalog_init(&cat);
    assert_int_equal(pier__pg_catalog_load(c, ns, &cat, &err), PIER_OK);
    assert_int_equal(pier__catalog_find(&cat, "orders")->ncolumns, 5);
    pier__catalog_clear(&cat);
    /* a row Pier never writes is a damaged catalog, not a column */
    snprintf(sql, sizeof sql, "INSERT INTO %s.columns (board, position, "
             "name, type, origin) VALUES ('orders', 5, 'x', 'nonsense', "
             "'inferred')", ns);
    run(c, sql);
    pier__catalog_init(&cat);
    assert_int_equal(pier__pg_catalog_load(c, ns, &cat, &err),
                     PIER_E_LAKE_UNAVAILABLE);
    assert_non_null(strstr(err.message, "the catalog entry of board "
                                        "'orders' is damaged"));
    pier__catalog_clear(&cat);
    pier__board_free(b);
    drop_namespace(c, ns);
    PQfinish(c);
}

/* A node making board "shared" (with a column of its own) and
 * committing a moment later: its status. */
static void making_node(int k, const char *ns, char *line, size_t cap)
{
    PGconn *mine = NULL;
    pier_error err;
    if (pier__pg_connect(&mine, url, &err) != PIER_OK) {
        snprintf(line, cap, "-1\n");
        return;
    }
    const char *names[] = { k == 0 ? "price" : "qty" };
    const char *types[] = { k == 0 ? "double" : "bigint" };
    pier__board *b = board_of("shared", names, types, 1);
    int64_t key = 0;
    PQclear(PQexec(mine, "BEGIN"));
    pier_status rc = pier__pg_board_create(mine, ns, b, &key, &err);
    sleep_us(20000);
    PQclear(PQexec(mine, rc == PIER_OK ? "COMMIT" : "ROLLBACK"));
    snprintf(line, cap, "%d\n", (int)rc);
    pier__board_free(b);
    PQfinish(mine);
}

/* Two nodes make the same board at once: one board, its columns once;
 * the other is told to reload, and nothing of its attempt remains. */
static void test_board_made_twice_at_once(void **state)
{
    (void)state;
    char ns[64], sql[200];
    PGconn *c = new_lake("twice", ns, NULL);
    enum { NODES = 2 };
    char lines[NODES][64];
    run_nodes(NODES, making_node, ns, lines);
    int ok = 0, told = 0;
    for (int k = 0; k < NODES; k++) {
        int rc = atoi(lines[k]);
        ok += rc == PIER_OK;
        told += rc == PIER_E_WRITE_FAILED;
    }
    assert_int_equal(ok, 1);
    assert_int_equal(told, 1);
    snprintf(sql, sizeof sql, "SELECT count(*) || ',' || count(DISTINCT "
             "position) FROM %s.columns WHERE board = 'shared'", ns);
    assert_string_equal(value_of(c, sql), "4,4");
    snprintf(sql, sizeof sql, "SELECT count(*) FROM pg_tables WHERE "
             "schemaname = '%s' AND tablename LIKE 'r%%'", ns);
    assert_string_equal(value_of(c, sql), "1");
    drop_namespace(c, ns);
    PQfinish(c);
}

/* ---- rows ---- */

/* The rows a scan gave: each cell, copied. */
typedef struct scanned {
    size_t nrows;
    pier__cell cells[8][8];
    char bytes[8][8][16];
} scanned;

static int keep_row(const pier__cell *cells, size_t n, void *payload)
{
    scanned *s = payload;
    assert_true(s->nrows < 8 && n <= 8);
    for (size_t k = 0; k < n; k++) {
        pier__cell c = cells[k];
        if (c.st == PIER__ST_TEXT || c.st == PIER__ST_BLOB) {
            assert_true(c.n <= 16);
            memcpy(s->bytes[s->nrows][k], c.p, c.n);
            c.p = s->bytes[s->nrows][k];
        }
        s->cells[s->nrows][k] = c;
    }
    s->nrows++;
    return 0;
}

/* Whether two cells hold the same value of the same class, byte for byte
 * (a double's sign of zero too). */
static bool same_cell(const pier__cell *a, const pier__cell *b)
{
    if (a->st != b->st)
        return false;
    switch (a->st) {
    case PIER__ST_INT:
        return a->i == b->i;
    case PIER__ST_REAL:
        return memcmp(&a->d, &b->d, sizeof a->d) == 0;
    case PIER__ST_TEXT:
    case PIER__ST_BLOB:
        return a->n == b->n && (a->n == 0 || memcmp(a->p, b->p, a->n) == 0);
    default:
        return true;
    }
}

#define TXT(s, len) ((pier__cell){ .st = PIER__ST_TEXT, .p = (s), .n = (len) })
#define INT(v) ((pier__cell){ .st = PIER__ST_INT, .i = (v) })
#define REAL(v) ((pier__cell){ .st = PIER__ST_REAL, .d = (v) })
#define NUL ((pier__cell){ .st = PIER__ST_NULL })

static void test_rows(void **state)
{
    (void)state;
    char ns[64];
    PGconn *c = new_lake("rows", ns, NULL);
    pier_error err;
    const char *names[] = { "n", "x", "s", "raw" };
    const char *types[] = { "bigint", "double", "text", "text" };
    pier__board *b = board_of("items", names, types, 4);
    int64_t key = 0;
    run(c, "BEGIN");
    assert_int_equal(pier__pg_board_create(c, ns, b, &key, &err), PIER_OK);
    run(c, "COMMIT");
    /* every storage class, a text holding a NUL, a negative zero */
    const pier__cell blob = { .st = PIER__ST_BLOB, .p = "\0\xff", .n = 2 };
    const pier__cell rows[3][7] = {
        { TXT("b", 1), INT(30), NUL, INT(-5), REAL(-0.0), TXT("x\0y", 3),
          blob },
        { TXT("a", 1), INT(10), TXT("open", 4), INT(INT64_MIN),
          REAL(1e300), TXT("", 0), NUL },
        { TXT("ab", 2), INT(20), NUL, NUL, NUL, NUL, NUL },
    };
    size_t failed = 99;
    run(c, "BEGIN");
    assert_int_equal(pier__pg_rows_write(c, ns, key, b, PIER__WRITE_INSERT,
                                         &rows[0][0], 3, 7, &failed, &err),
                     PIER_OK);
    run(c, "COMMIT");
    static scanned s;
    memset(&s, 0, sizeof s);
    assert_int_equal(pier__pg_rows_scan(c, ns, key, b, NULL, keep_row, &s,
                                        &err), PIER_OK);
    assert_int_equal(s.nrows, 3);
    static const int order[3] = { 1, 2, 0 };     /* a, ab, b: bytewise */
    for (size_t r = 0; r < 3; r++)
        for (size_t k = 0; k < 7; k++)
            if (!same_cell(&s.cells[r][k], &rows[order[r]][k]))
                fail_msg("row %zu cell %zu differs", r, k);
    memset(&s, 0, sizeof s);
    assert_int_equal(pier__pg_rows_scan(c, ns, key, b, "ab", keep_row, &s,
                                        &err), PIER_OK);
    assert_int_equal(s.nrows, 1);
    assert_true(same_cell(&s.cells[0][0], &rows[2][0]));
    /* a batch with a stored id: which row, and the caller rolls back */
    const pier__cell dup[2][7] = {
        { TXT("c", 1), INT(1), NUL, NUL, NUL, NUL, NUL },
        { TXT("a", 1), INT(1), NUL, NUL, NUL, NUL, NUL },
    };
    run(c, "BEGIN");
    assert_int_equal(pier__pg_rows_write(c, ns, key, b, PIER__WRITE_INSERT,
                                         &dup[0][0], 2, 8, &failed, &err),
                     PIER_E_DUPLICATE_ID);
    assert_int_equal(failed, 1);
    run(c, "ROLLBACK");
    int64_t n = 0;
    assert_int_equal(pier__pg_rows_count(c, ns, key, &n, &err), PIER_OK);
    assert_int_equal(n, 3);
    /* an upsert replaces a row only with a stamp at least its own */
    const pier__cell newer[7] = { TXT("a", 1), INT(40), NUL, INT(1), NUL,
                                  NUL, NUL };
    assert_int_equal(pier__pg_rows_write(c, ns, key, b, PIER__WRITE_UPSERT,
                                         newer, 1, 6, &failed, &err),
                     PIER_OK);
    memset(&s, 0, sizeof s);
    pier__pg_rows_scan(c, ns, key, b, "a", keep_row, &s, &err);
    assert_true(same_cell(&s.cells[0][3], &rows[1][3]));     /* kept */
    assert_int_equal(pier__pg_rows_write(c, ns, key, b, PIER__WRITE_UPSERT,
                                         newer, 1, 7, &failed, &err),
                     PIER_OK);
    memset(&s, 0, sizeof s);
    pier__pg_rows_scan(c, ns, key, b, "a", keep_row, &s, &err);
    assert_int_equal(s.cells[0][3].i, 1);                    /* replaced */
    assert_int_equal(s.cells[0][1].i, 40);
    /* an update of some columns; of a row that is not there */
    bool found = false;
    const size_t cols[1] = { 4 };
    const pier__cell half[1] = { REAL(2.5) };
    assert_int_equal(pier__pg_row_update(c, ns, key, b, "b", cols, half, 1,
                                         50, 9, &found, &err), PIER_OK);
    assert_true(found);
    memset(&s, 0, sizeof s);
    pier__pg_rows_scan(c, ns, key, b, "b", keep_row, &s, &err);
    assert_true(s.cells[0][4].d == 2.5);
    assert_int_equal(s.cells[0][1].i, 50);
    assert_true(same_cell(&s.cells[0][5], &rows[0][5]));    /* untouched */
    assert_int_equal(pier__pg_row_update(c, ns, key, b, "zz", cols, half, 1,
                                         50, 9, &found, &err), PIER_OK);
    assert_false(found);
    /* deletes count the rows that were there */
    const char *ids[] = { "a", "nope", "ab" };
    int64_t deleted = 0;
    assert_int_equal(pier__pg_rows_delete(c, ns, key, ids, 3, &deleted,
                                          &err), PIER_OK);
    assert_int_equal(deleted, 2);
    assert_int_equal(pier__pg_rows_count(c, ns, key, &n, &err), PIER_OK);
    assert_int_equal(n, 1);
    /* bytes that are no cell's */
    pier__cell cell;
    assert_false(pier__pg_cell_decode("", 0, &cell));
    assert_false(pier__pg_cell_decode("i123", 4, &cell));
    assert_false(pier__pg_cell_decode("q", 1, &cell));
    assert_true(pier__pg_cell_decode("t", 1, &cell));
    assert_int_equal(cell.st, PIER__ST_TEXT);
    assert_int_equal(cell.n, 0);
    pier__board_free(b);
    drop_namespace(c, ns);
    PQfinish(c);
}

/* Widening: bigint to double keeps the cells, to text re-renders each;
 * truncating empties the board; dropping forgets it, and the same board
 * made again gets a new table and column ids never handed out before. */
static void test_widen_truncate_drop(void **state)
{
    (void)state;
    char ns[64], sql[240];
    PGconn *c = new_lake("widen", ns, NULL);
    pier_error err;
    const char *names[] = { "n" }, *types[] = { "bigint" };
    pier__board *b = board_of("w", names, types, 1);
    int64_t key = 0;
    size_t failed = 0;
    const pier__cell rows[3][4] = {
        { TXT("a", 1), INT(1), NUL, INT(5) },
        { TXT("b", 1), INT(1), NUL, INT(-7) },
        { TXT("c", 1), INT(1), NUL, NUL },
    };
    run(c, "BEGIN");
    assert_int_equal(pier__pg_board_create(c, ns, b, &key, &err), PIER_OK);
    assert_int_equal(pier__pg_rows_write(c, ns, key, b, PIER__WRITE_INSERT,
                                         &rows[0][0], 3, 1, &failed, &err),
                     PIER_OK);
    run(c, "COMMIT");
    static const char *const steps[] = { "double", "text" };
    for (size_t i = 0; i < 2; i++) {
        pier__type from = b->columns[3].type, to;
        char why[PIER__TYPE_WHY];
        assert_int_equal(pier__type_parse(&to, steps[i], why), PIER_OK);
        b->columns[3].type = to;
        run(c, "BEGIN");
        assert_int_equal(pier__pg_column_widen(c, ns, b, 3, from, &err),
                         PIER_OK);
        run(c, "COMMIT");
        pier__type_free(&from);
    }
    static scanned s;
    memset(&s, 0, sizeof s);
    assert_int_equal(pier__pg_rows_scan(c, ns, key, b, NULL, keep_row, &s,
                                        &err), PIER_OK);
    assert_int_equal(s.nrows, 3);
    assert_true(same_cell(&s.cells[0][3], &TXT("5.0", 3)));    /* a double's */
    assert_true(same_cell(&s.cells[1][3], &TXT("-7.0", 4)));
    assert_int_equal(s.cells[2][3].st, PIER__ST_NULL);
    pier__catalog cat;
    pier__catalog_init(&cat);
    assert_int_equal(pier__pg_catalog_load(c, ns, &cat, &err), PIER_OK);
    assert_string_equal(
        pier__type_name(pier__catalog_find(&cat, "w")->columns[3].type),
        "text");
    pier__catalog_clear(&cat);
    /* truncate: no rows, the board stays */
    run(c, "BEGIN");
    assert_int_equal(pier__pg_board_truncate(c, ns, b, &err), PIER_OK);
    run(c, "COMMIT");
    int64_t n = -1;
    assert_int_equal(pier__pg_rows_count(c, ns, key, &n, &err), PIER_OK);
    assert_int_equal(n, 0);
    /* drop, then the same board again */
    int64_t last_id = b->columns[3].id;
    run(c, "BEGIN");
    assert_int_equal(pier__pg_board_drop(c, ns, b, &err), PIER_OK);
    run(c, "COMMIT");
    assert_int_equal(tables_in(c, ns), 5);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s.columns", ns);
    assert_string_equal(value_of(c, sql), "0");
    pier__catalog_init(&cat);
    assert_int_equal(pier__pg_catalog_load(c, ns, &cat, &err), PIER_OK);
    assert_null(pier__catalog_find(&cat, "w"));
    pier__catalog_clear(&cat);
    pier__board *again = board_of("w", names, types, 1);
    int64_t key2 = 0;
    run(c, "BEGIN");
    assert_int_equal(pier__pg_board_create(c, ns, again, &key2, &err),
                     PIER_OK);
    run(c, "COMMIT");
    assert_true(key2 > key);
    assert_true(again->columns[0].id > last_id);
    /* a truncate of a board the lake does not have */
    pier__board_free(b);
    b = board_of("ghost", names, types, 1);
    assert_int_equal(pier__pg_board_truncate(c, ns, b, &err),
                     PIER_E_BOARD_NOT_FOUND);
    assert_string_equal(err.board, "ghost");
    pier__board_free(b);
    pier__board_free(again);
    drop_namespace(c, ns);
    PQfinish(c);
}

/* ---- replicas ---- */

/* The rows of `board` in the embedded lake in dir, read through the
 * engine: "id:n:s;" each. */
static void replica_rows(const char *dir, const char *board, char *out,
                         size_t cap)
{
    pier_engine *e = NULL;
    pier_error err;
    if (pier_open(&e, dir, NULL, &err) != PIER_OK)
        fail_msg("the replica does not open: %s", err.message);
    pier_cursor *cur = NULL;
    if (pier_query(&cur, e, board, "SELECT id, n, s FROM {{board}} ORDER "
                   "BY id", NULL, NULL, &err) != PIER_OK)
        fail_msg("the replica does not answer: %s", err.message);
    out[0] = '\0';
    const pier_row *row = NULL;
    while (pier_cursor_next(&row, cur, &err) == PIER_OK && row != NULL) {
        const pier_value *n = pier_row_value(row, 1);
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "%s:%lld:%s;",
                 pier_row_value(row, 0)->text,
                 n->kind == PIER_KIND_NULL ? -1LL : (long long)n->as.integer,
                 pier_row_value(row, 2)->kind == PIER_KIND_NULL
                     ? "-" : pier_row_value(row, 2)->text);
    }
    pier_cursor_close(cur);
    pier_close(&e);
}

/* Board "orders" (n bigint, s text) made, with nrows rows of 5 cells. */
static pier__board *make_orders(PGconn *c, const char *ns,
                                const pier__cell *rows, size_t nrows,
                                int64_t *key)
{
    const char *names[] = { "n", "s" }, *types[] = { "bigint", "text" };
    pier__board *b = board_of("orders", names, types, 2);
    size_t failed = 0;
    pier_error err;
    run(c, "BEGIN");
    assert_int_equal(pier__pg_board_create(c, ns, b, key, &err), PIER_OK);
    assert_int_equal(pier__pg_rows_write(c, ns, *key, b, PIER__WRITE_INSERT,
                                         rows, nrows, 4, &failed, &err),
                     PIER_OK);
    run(c, "COMMIT");
    return b;
}

/* Appends one record of board "orders" in a transaction of its own:
 * its watermark. */
static int64_t append(PGconn *c, const char *ns, const char *kind,
                      const char *payload, int64_t stamp)
{
    pier__pg_record rec = { "orders", kind, payload };
    int64_t w = 0;
    pier_error err;
    run(c, "BEGIN");
    if (pier__pg_log_append(c, ns, &rec, 1, 100 * stamp, stamp, &w, &err) !=
        PIER_OK)
        fail_msg("append: %s", err.message);
    run(c, "COMMIT");
    return w;
}

/* A replica rebuilt from the lake is an embedded lake the engine reads:
 * the board's rows at the head of the snapshot, and what it says of
 * itself; rebuilt again after a change; a failed rebuild leaves the one
 * there was. */
static void test_replica_rebuild(void **state)
{
    (void)state;
    char ns[64];
    pier__pg_meta m;
    PGconn *c = new_lake("replica", ns, &m);
    pier_error err;
    const pier__cell rows[3][5] = {
        { TXT("c", 1), INT(3), NUL, INT(30), NUL },
        { TXT("a", 1), INT(1), NUL, INT(-10), TXT("x\"y", 3) },
        { TXT("b", 1), INT(2), NUL, NUL, TXT("", 0) },
    };
    int64_t key = 0;
    pier__board *b = make_orders(c, ns, &rows[0][0], 3, &key);
    append(c, ns, "insert", "{}", 4);
    char *top = lakedir_make();
    assert_non_null(top);
    char dir[512], got[256];
    snprintf(dir, sizeof dir, "%s/orders", top);
    pier__replica_meta rm, read;
    assert_int_equal(pier__replica_rebuild(c, ns, m.identity, "orders", dir,
                                           &rm, &err), PIER_OK);
    assert_int_equal(rm.watermark, 1);
    assert_true(rm.identity == m.identity);
    assert_int_equal(rm.board_key, key);
    assert_int_equal(pier__replica_meta_read(dir, &read, &err), PIER_OK);
    assert_memory_equal(&read, &rm, sizeof rm);
    replica_rows(dir, "orders", got, sizeof got);
    assert_string_equal(got, "a:-10:x\"y;b:-1:;c:30:-;");
    /* a change, and the replica made again at the new head */
    const char *gone[] = { "b" };
    int64_t deleted = 0;
    assert_int_equal(pier__pg_rows_delete(c, ns, key, gone, 1, &deleted,
                                          &err), PIER_OK);
    append(c, ns, "delete", "{}", 5);
    assert_int_equal(pier__replica_rebuild(c, ns, m.identity, "orders", dir,
                                           &rm, &err), PIER_OK);
    assert_int_equal(rm.watermark, 2);
    replica_rows(dir, "orders", got, sizeof got);
    assert_string_equal(got, "a:-10:x\"y;c:30:-;");
    /* a board the lake does not have: refused, the replica there stays */
    assert_int_equal(pier__replica_rebuild(c, ns, m.identity, "nope", dir,
                                           &rm, &err),
                     PIER_E_BOARD_NOT_FOUND);
    assert_int_equal(pier__replica_meta_read(dir, &read, &err), PIER_OK);
    assert_int_equal(read.watermark, 2);
    /* a directory that holds no replica */
    assert_int_equal(pier__replica_meta_read(top, &read, &err),
                     PIER_E_LAKE_UNAVAILABLE);
    assert_int_equal(lakedir_remove_tree(top), 0);
    free(top);
    pier__board_free(b);
    drop_namespace(c, ns);
    PQfinish(c);
}

/* A sync to `head` that must make the replica again: the lake's rows
 * of test_replica_sync then. */
static void expect_rebuilt(PGconn *c, const char *ns, int64_t identity,
                           const char *dir, int64_t head)
{
    pier__replica_meta rm;
    pier__sync_report rep;
    pier_error err;
    char got[256];
    assert_int_equal(pier__replica_sync(c, ns, identity, "orders", dir, head,
                                        &rm, &rep, &err), PIER_OK);
    assert_true(rep.rebuilt);
    assert_int_equal(rm.watermark, head);
    replica_rows(dir, "orders", got, sizeof got);
    assert_string_equal(got, "a:1:ay;b:2:-;");
}

/* A replica follows the log: rows inserted, upserted (whole), updated
 * (patched) and deleted as records say, a page at a time up to a target;
 * a schema change, a value that does not fit, an update of a row it
 * lacks and a record it cannot read make it rebuild, and so does its
 * directory deleted or its file damaged; a drop removes it. */
static void test_replica_sync(void **state)
{
    (void)state;
    char ns[64];
    pier__pg_meta m;
    PGconn *c = new_lake("sync", ns, &m);
    pier_error err;
    const pier__cell rows[2][5] = {
        { TXT("a", 1), INT(1), NUL, INT(1), TXT("ay", 2) },
        { TXT("b", 1), INT(1), NUL, INT(2), NUL },
    };
    int64_t key = 0;
    pier__board *b = make_orders(c, ns, &rows[0][0], 2, &key);
    char *top = lakedir_make();
    assert_non_null(top);
    char dir[512], got[256];
    snprintf(dir, sizeof dir, "%s/orders", top);
    pier__replica_meta rm;
    pier__sync_report rep;
    /* no replica yet: made */
    assert_int_equal(pier__replica_sync(c, ns, m.identity, "orders", dir, 0,
                                        &rm, &rep, &err), PIER_OK);
    assert_true(rep.rebuilt);
    replica_rows(dir, "orders", got, sizeof got);
    assert_string_equal(got, "a:1:ay;b:2:-;");
    /* four records, applied */
    append(c, ns, "insert", "{\"rows\":[{\"id\":\"c\",\"n\":3,"
                            "\"s\":\"see\"}]}", 10);
    append(c, ns, "upsert", "{\"rows\":[{\"id\":\"a\",\"n\":11}]}", 11);
    append(c, ns, "update", "{\"id\":\"b\",\"patch\":{\"s\":\"bee\"}}",
           12);
    int64_t head = append(c, ns, "delete", "{\"ids\":[\"zz\",\"c\"]}", 13);
    assert_int_equal(pier__replica_sync(c, ns, m.identity, "orders", dir,
                                        head, &rm, &rep, &err), PIER_OK);
    assert_false(rep.rebuilt);
    assert_int_equal(rep.applied, 4);
    assert_int_equal(rm.watermark, head);
    replica_rows(dir, "orders", got, sizeof got);
    assert_string_equal(got, "a:11:-;b:2:bee;");
    assert_int_equal(pier__replica_sync(c, ns, m.identity, "orders", dir,
                                        head, &rm, &rep, &err), PIER_OK);
    assert_int_equal(rep.applied, 0);
    /* up to a target below the head: the records after it wait */
    int64_t w1 = append(c, ns, "insert", "{\"rows\":[{\"id\":\"d\"}]}", 14);
    head = append(c, ns, "insert", "{\"rows\":[{\"id\":\"e\"}]}", 15);
    assert_int_equal(pier__replica_sync(c, ns, m.identity, "orders", dir, w1,
                                        &rm, &rep, &err), PIER_OK);
    assert_int_equal(rm.watermark, w1);
    replica_rows(dir, "orders", got, sizeof got);
    assert_string_equal(got, "a:11:-;b:2:bee;d:-1:-;");
    /* what the replica cannot take exactly: rebuilt from the lake's rows
     * (which, here, never had d or e) */
    static const char *const cannot[][2] = {
        { "insert", "{\"rows\":[{\"id\":\"q\",\"n\":\"nine\"}]}" },
        { "update", "{\"id\":\"ghost\",\"patch\":{\"n\":1}}" },
        { "schema", "{\"op\":\"add_column\"}" },
        { "insert", "{\"rows\":[{\"id\":\"q\",\"nope\":1}]}" },
        { "insert", "{\"rows\":[{\"id\":}]}" },
        { "update", "{\"id\":7}" },
        { "delete", "{\"ids\":\"a\"}" },
    };
    for (size_t i = 0; i < sizeof cannot / sizeof cannot[0]; i++) {
        head = append(c, ns, cannot[i][0], cannot[i][1], 20 + (int64_t)i);
        expect_rebuilt(c, ns, m.identity, dir, head);
    }
    /* a replica deleted under the node: made again at the next sync */
    assert_int_equal(lakedir_remove_tree(dir), 0);
    expect_rebuilt(c, ns, m.identity, dir, head);
    /* a replica file damaged: made again */
    char file[600];
    snprintf(file, sizeof file, "%s/lake.sqlite", dir);
    FILE *f = fopen(file, "r+b");
    assert_non_null(f);
    assert_int_equal(fwrite("garbage garbage garbage", 1, 23, f), 23);
    assert_int_equal(fclose(f), 0);
    expect_rebuilt(c, ns, m.identity, dir, head);
    /* the server gone mid-sync: SyncFailed, the replica as it was; and
     * once connected again, the sync goes on */
    head = append(c, ns, "insert", "{\"rows\":[{\"id\":\"z\"}]}", 40);
    PGconn *admin = connect_ok();
    char sql[120];
    snprintf(sql, sizeof sql, "SELECT pg_terminate_backend(%d, 5000)",
             PQbackendPID(c));
    run(admin, sql);
    PQfinish(admin);
    pier__replica_meta before;
    assert_int_equal(pier__replica_meta_read(dir, &before, &err), PIER_OK);
    assert_int_equal(pier__replica_sync(c, ns, m.identity, "orders", dir,
                                        head, &rm, &rep, &err),
                     PIER_E_SYNC_FAILED);
    assert_string_equal(err.tag, "SyncFailed");
    assert_string_equal(err.board, "orders");
    assert_non_null(strstr(err.message, "cannot sync the replica of board "
                                        "'orders': "));
    assert_int_equal(pier__replica_meta_read(dir, &rm, &err), PIER_OK);
    assert_int_equal(rm.watermark, before.watermark);
    replica_rows(dir, "orders", got, sizeof got);
    assert_string_equal(got, "a:1:ay;b:2:-;");
    assert_int_equal(pier__pg_alive(c, &err), PIER_OK);
    assert_int_equal(pier__replica_sync(c, ns, m.identity, "orders", dir,
                                        head, &rm, &rep, &err), PIER_OK);
    assert_int_equal(rep.applied, 1);
    replica_rows(dir, "orders", got, sizeof got);
    assert_string_equal(got, "a:1:ay;b:2:-;z:-1:-;");
    /* a drop: the replica goes */
    run(c, "BEGIN");
    assert_int_equal(pier__pg_board_drop(c, ns, b, &err), PIER_OK);
    run(c, "COMMIT");
    head = append(c, ns, "drop", "{\"drop\":true}", 30);
    assert_int_equal(pier__replica_sync(c, ns, m.identity, "orders", dir,
                                        head, &rm, &rep, &err),
                     PIER_E_BOARD_NOT_FOUND);
    assert_int_equal(pier__replica_meta_read(dir, &rm, &err),
                     PIER_E_LAKE_UNAVAILABLE);
    assert_int_equal(lakedir_remove_tree(top), 0);
    free(top);
    pier__board_free(b);
    drop_namespace(c, ns);
    PQfinish(c);
}

/* How many rows the board of an open replica answers a count with. */
/* The rows of the board in replica r, counted through its own lake. */
static int64_t count_replica(pier__replica *r)
{
    pier_error err;
    pier__catalog cat;
    pier__catalog_init(&cat);
    int64_t n = -1;
    assert_int_equal(r->lake->ops->begin_read(r->lake, &err), PIER_OK);
    assert_int_equal(r->lake->ops->catalog_load(r->lake, &cat, &err),
                     PIER_OK);
    pier__board *b = pier__catalog_find(&cat, r->board);
    assert_non_null(b);
    assert_int_equal(r->lake->ops->rows_count(r->lake, b, &n, &err),
                     PIER_OK);
    assert_int_equal(r->lake->ops->commit(r->lake, &err), PIER_OK);
    pier__catalog_clear(&cat);
    return n;
}

/* A node's open replicas: synced before each use, at most `cap` open
 * (the least recently used closed), evicted with their files, closed when
 * their board is dropped; the counts it keeps. */
static void test_replica_set(void **state)
{
    (void)state;
    char ns[64];
    pier__pg_meta m;
    PGconn *c = new_lake("set", ns, &m);
    pier_error err;
    const pier__cell rows[2][5] = {
        { TXT("a", 1), INT(1), NUL, INT(1), NUL },
        { TXT("b", 1), INT(1), NUL, INT(2), NUL },
    };
    int64_t key = 0;
    pier__board *orders = make_orders(c, ns, &rows[0][0], 2, &key);
    const char *names[] = { "x" }, *types[] = { "bigint" };
    static const char *const others[2] = { "two", "three" };
    for (size_t i = 0; i < 2; i++) {
        pier__board *b = board_of(others[i], names, types, 1);
        run(c, "BEGIN");
        assert_int_equal(pier__pg_board_create(c, ns, b, &key, &err),
                         PIER_OK);
        run(c, "COMMIT");
        pier__board_free(b);
    }
    char *cache = lakedir_make();
    assert_non_null(cache);
    pier__replica_set set;
    assert_int_equal(pier__replicas_init(&set, cache, 2, &err), PIER_OK);
    pier__replica *r = NULL;
    assert_int_equal(pier__replicas_get(&set, c, ns, m.identity, "orders", 0,
                                        &r, &err), PIER_OK);
    assert_int_equal(count_replica(r), 2);
    /* a reference outlives the set's closing of the replica */
    pier__replica *held = r;
    assert_int_equal(pier__replicas_get(&set, c, ns, m.identity, "two", 0,
                                        &r, &err), PIER_OK);
    pier__replica_release(r);
    assert_int_equal(pier__replicas_get(&set, c, ns, m.identity, "three", 0,
                                        &r, &err), PIER_OK);
    pier__replica_release(r);
    assert_int_equal(set.nopen, 2);                 /* orders was closed */
    assert_int_equal(set.rebuilds, 3);
    for (size_t i = 0; i < set.nopen; i++)
        assert_string_not_equal(set.open[i]->board, "orders");
    assert_int_equal(count_replica(held), 2);
    pier__replica_release(held);
    /* opened again from its files, then a record applied to it */
    int64_t head = append(c, ns, "insert",
                          "{\"rows\":[{\"id\":\"c\",\"n\":3}]}", 9);
    assert_int_equal(pier__replicas_get(&set, c, ns, m.identity, "orders",
                                        head, &r, &err), PIER_OK);
    assert_int_equal(set.rebuilds, 3);
    assert_int_equal(set.applied, 1);
    assert_int_equal(count_replica(r), 3);
    assert_int_equal(set.syncs, 4);
    pier__replica_release(r);
    /* at the target already: no sync */
    assert_int_equal(pier__replicas_get(&set, c, ns, m.identity, "orders",
                                        head, &r, &err), PIER_OK);
    assert_int_equal(set.syncs, 4);
    pier__replica_release(r);
    /* its file removed under it: made again, from the lake's rows (the
     * record above was appended without its row) */
    char file[700];
    snprintf(file, sizeof file, "%s/orders/lake.sqlite", cache);
    assert_int_equal(unlink(file), 0);
    assert_int_equal(pier__replicas_get(&set, c, ns, m.identity, "orders",
                                        head, &r, &err), PIER_OK);
    assert_int_equal(set.rebuilds, 4);
    assert_int_equal(count_replica(r), 2);
    pier__replica_release(r);
    /* evicted: closed, its files gone, made again at the next use */
    char dir[600];
    snprintf(dir, sizeof dir, "%s/orders", cache);
    pier__replica_meta rm;
    assert_int_equal(pier__replicas_evict(&set, "orders", &err), PIER_OK);
    assert_int_equal(pier__replica_meta_read(dir, &rm, &err),
                     PIER_E_LAKE_UNAVAILABLE);
    assert_int_equal(set.nopen, 1);
    assert_int_equal(pier__replicas_get(&set, c, ns, m.identity, "orders",
                                        head, &r, &err), PIER_OK);
    assert_int_equal(set.rebuilds, 5);
    assert_int_equal(count_replica(r), 2);          /* the lake's rows */
    pier__replica_release(r);
    /* dropped on the lake: refused, and the open replica closed */
    run(c, "BEGIN");
    assert_int_equal(pier__pg_board_drop(c, ns, orders, &err), PIER_OK);
    run(c, "COMMIT");
    size_t before = set.nopen;
    assert_int_equal(pier__replicas_get(&set, c, ns, m.identity, "orders",
                                        head, &r, &err), PIER_OK);
    pier__replica_release(r);
    assert_int_equal(pier__replicas_get(&set, c, ns, m.identity, "orders",
                                        head + 1, &r, &err),
                     PIER_E_BOARD_NOT_FOUND);
    assert_null(r);
    assert_int_equal(set.nopen, before - 1);
    pier__replicas_free(&set);
    assert_int_equal(lakedir_remove_tree(cache), 0);
    free(cache);
    pier__board_free(orders);
    drop_namespace(c, ns);
    PQfinish(c);
}

int main(void)
{
    url = pgtest_url("unit/test_pg_catalog");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_made_then_found),
        cmocka_unit_test(test_nodes_at_once),
        cmocka_unit_test(test_refusals_change_nothing),
        cmocka_unit_test(test_unreachable_and_not_utf8),
        cmocka_unit_test(test_log_never_missed),
        cmocka_unit_test(test_connection_lost),
        cmocka_unit_test(test_boards_made_and_loaded),
        cmocka_unit_test(test_board_made_twice_at_once),
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_widen_truncate_drop),
        cmocka_unit_test(test_replica_rebuild),
        cmocka_unit_test(test_replica_sync),
        cmocka_unit_test(test_replica_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
