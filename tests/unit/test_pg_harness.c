/*
 * test_pg_harness.c: the throwaway PostgreSQL that tests/support/pg.sh
 * starts for the tests of the PostgreSQL lake answers on the connection
 * string it hands them, and libpq reports what the lake will have to turn
 * into statuses: a statement's SQLSTATE, a refused password, a server that
 * is not there.
 *
 * ctest runs it through `pg.sh run` with the fixture `pg`; without
 * PIER_TEST_PG_URL it says SKIP and exits 77 (support/pgtest.h). Each test
 * works in a schema of its own, named after the process, and drops it, so
 * that runs sharing one server do not meet.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "support/lakedir.h"
#include "support/pgtest.h"

static const char *url;   /* the server's connection string */

/* Connects with `url`, its keywords overridden by keys[i] = values[i]
 * (n of them): libpq lets later keywords win over the string's. */
static PGconn *connect_with(const char *const *keys,
                            const char *const *values, size_t n)
{
    const char *k[8] = {"dbname", "connect_timeout"};
    const char *v[8] = {url, "10"};
    assert_true(n + 3 <= sizeof k / sizeof k[0]);
    for (size_t i = 0; i < n; i++) {
        k[2 + i] = keys[i];
        v[2 + i] = values[i];
    }
    PGconn *c = PQconnectdbParams(k, v, 1);
    assert_non_null(c); /* NULL only when libpq cannot allocate */
    return c;
}

static PGconn *connect_ok(void)
{
    PGconn *c = connect_with(NULL, NULL, 0);
    if (PQstatus(c) != CONNECTION_OK) {
        char why[512];
        snprintf(why, sizeof why, "%s", PQerrorMessage(c));
        PQfinish(c);
        fail_msg("cannot connect to the test server: %s", why);
    }
    return c;
}

/* Runs a statement that returns no rows; fails the test if it fails. */
static void run(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        fail_msg("%s: %s", sql, PQresultErrorMessage(r));
    PQclear(r);
}

/* Makes this process's schema and puts it first on the search path. */
static void enter_schema(PGconn *c)
{
    char sql[192];
    snprintf(sql, sizeof sql, "SET client_min_messages TO warning; "
             "DROP SCHEMA IF EXISTS harness_%ld CASCADE; "
             "CREATE SCHEMA harness_%ld; SET search_path TO harness_%ld",
             (long)getpid(), (long)getpid(), (long)getpid());
    run(c, sql);
}

static void leave_schema(PGconn *c)
{
    char sql[64];
    snprintf(sql, sizeof sql, "DROP SCHEMA harness_%ld CASCADE",
             (long)getpid());
    run(c, sql);
}

/* A table made, a row written with parameters and read back, typed. */
static void test_round_trip(void **state)
{
    (void)state;
    PGconn *c = connect_ok();
    assert_true(PQserverVersion(c) >= 100000);
    enter_schema(c);
    run(c, "CREATE TABLE tasks (id text PRIMARY KEY, priority bigint)");

    const char *params[] = {"task-1", "3"};
    PGresult *r = PQexecParams(c, "INSERT INTO tasks VALUES ($1, $2)", 2,
                               NULL, params, NULL, NULL, 0);
    assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
    assert_string_equal(PQcmdTuples(r), "1");
    PQclear(r);

    r = PQexecParams(c, "SELECT id, priority + 1 FROM tasks WHERE id = $1",
                     1, NULL, params, NULL, NULL, 0);
    assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
    assert_int_equal(PQntuples(r), 1);
    assert_int_equal(PQnfields(r), 2);
    assert_string_equal(PQgetvalue(r, 0, 0), "task-1");
    assert_string_equal(PQgetvalue(r, 0, 1), "4");
    PQclear(r);

    leave_schema(c);
    PQfinish(c);
}

/* A refused statement carries its SQLSTATE, which the lake will map onto
 * a status (23505: DuplicateId), and leaves the connection usable. */
static void test_statement_error(void **state)
{
    (void)state;
    PGconn *c = connect_ok();
    enter_schema(c);
    run(c, "CREATE TABLE tasks (id text PRIMARY KEY)");
    run(c, "INSERT INTO tasks VALUES ('a')");

    PGresult *r = PQexec(c, "INSERT INTO tasks VALUES ('a')");
    assert_int_equal(PQresultStatus(r), PGRES_FATAL_ERROR);
    assert_string_equal(PQresultErrorField(r, PG_DIAG_SQLSTATE), "23505");
    assert_string_equal(PQresultErrorField(r, PG_DIAG_TABLE_NAME), "tasks");
    assert_non_null(strstr(PQresultErrorMessage(r),
                           "duplicate key value violates unique constraint"));
    PQclear(r);
    assert_int_equal(PQtransactionStatus(c), PQTRANS_IDLE);

    r = PQexec(c, "SELECT count(*) FROM tasks");
    assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
    assert_string_equal(PQgetvalue(r, 0, 0), "1");
    PQclear(r);

    leave_schema(c);
    PQfinish(c);
}

/* What a connection that must fail left: libpq's message, and the user and
 * port it tried, copied before the connection goes, so that a failing
 * assertion leaks nothing. */
typedef struct refusal {
    char message[512];
    char user[64];
    char port[16];
} refusal;

/* Connects with keyword `key` set to `value`, which must fail. */
static void refuse(const char *key, const char *value, refusal *out)
{
    const char *k[] = {key}, *v[] = {value};
    PGconn *c = connect_with(k, v, 1);
    ConnStatusType status = PQstatus(c);
    snprintf(out->message, sizeof out->message, "%s", PQerrorMessage(c));
    snprintf(out->user, sizeof out->user, "%s", PQuser(c));
    snprintf(out->port, sizeof out->port, "%s", PQport(c));
    PQfinish(c);
    if (status != CONNECTION_BAD)
        fail_msg("%s=%s: the connection did not fail", key, value);
}

/* The server asks for the password, and names the role it refused. */
static void test_wrong_password(void **state)
{
    (void)state;
    refusal r;
    refuse("password", "not-the-password", &r);
    char want[256];
    snprintf(want, sizeof want,
             "FATAL:  password authentication failed for user \"%s\"",
             r.user);
    if (strstr(r.message, want) == NULL)
        fail_msg("expected \"%s\" in: %s", want, r.message);
}

/* No server on the socket: libpq names the socket it tried and why. */
static void test_no_server(void **state)
{
    (void)state;
    char *dir = lakedir_make();    /* a directory with no socket in it */
    assert_non_null(dir);
    refusal r;
    refuse("host", dir, &r);
    char want[256];
    snprintf(want, sizeof want, "\"%s/.s.PGSQL.%s\"", dir, r.port);
    assert_int_equal(lakedir_remove_tree(dir), 0);
    free(dir);
    if (strstr(r.message, want) == NULL ||
        strstr(r.message, "No such file or directory") == NULL)
        fail_msg("expected %s and ENOENT in: %s", want, r.message);
}

int main(void)
{
    url = pgtest_url("unit/test_pg_harness");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_statement_error),
        cmocka_unit_test(test_wrong_password),
        cmocka_unit_test(test_no_server),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
