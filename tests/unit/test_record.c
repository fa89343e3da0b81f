/*
 * test_record.c: the recorder (src/store/sqlite_record.c) writes the
 * changeset SQLite's session extension writes, byte for byte.
 *
 * Twin databases run the same statements with the same values: `a` is
 * recorded by sessions (one per filter, attached to every table), `b` by
 * the recorder, which then writes a changeset per filter. Both must give
 * the same bytes, or fail with the same code. The workloads are random
 * (PIER_SEED overrides the seed, PIER_RECORD_TRIALS the number of
 * transactions; a failure names both): inserts (OR REPLACE, OR IGNORE,
 * many rows at once, some failing half-way), updates (of keys too, of
 * many rows), deletes, savepoints released and rolled back, on rowid and
 * WITHOUT ROWID tables with integer, real, text, blob and composite keys,
 * a table without a key, foreign keys that cascade and a trigger (their
 * changes are indirect), NULLs, empty and long values, extreme integers
 * and reals; now and then a column added or a table made again with
 * another key, inside the transaction (the recorder must read the
 * columns again, or fail as the session does) or between transactions
 * (its kept columns must be read again). Changesets are taken halfway
 * through a transaction too, and each transaction then commits or rolls
 * back. A short list of scenarios runs first, one behaviour each.
 *
 * `b` has an authorizer that refuses every PRAGMA while `policy` is set,
 * as the lake's does while a statement of the dialect runs: the recorder
 * must lift it around its own statements.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "store/sqlite_record.h"

#define DEFAULT_TRIALS 300
#define MAX_OPS 40

/* What the comparisons saw, so that a run shows it tested something. */
static struct {
    int compared, nonempty, failed;
    long bytes;
} seen;

typedef struct twin {
    sqlite3 *a;                /* recorded by sessions */
    sqlite3 *b;                /* recorded by the recorder */
    pier__recorder *rec;
    bool policy;               /* b's authorizer refuses PRAGMAs */
    bool guard;                /* statements on b run with policy set */
    uint64_t rng;
    const char *what;          /* the trial, for messages */
    int t5_shape;              /* which definition t5 has now (0 or 1) */
} twin;

/* ---- randomness (splitmix64) ---- */

static uint64_t next(twin *w)
{
    uint64_t z = (w->rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static int below(twin *w, int n)
{
    return (int)(next(w) % (uint64_t)n);
}

static bool chance(twin *w, int percent)
{
    return below(w, 100) < percent;
}

/* ---- running the same statement on both ---- */

static int authorize(void *payload, int action, const char *x, const char *y,
                     const char *db, const char *via)
{
    (void)x;
    (void)y;
    (void)db;
    (void)via;
    const twin *w = payload;
    return w->policy && action == SQLITE_PRAGMA ? SQLITE_DENY : SQLITE_OK;
}

/* A value to bind: kind 0 NULL, 1 integer, 2 real, 3 text, 4 blob. */
typedef struct val {
    int kind;
    sqlite3_int64 i;
    double d;
    char s[320];
    int n;
} val;

static void bind_val(sqlite3_stmt *st, int at, const val *v)
{
    switch (v->kind) {
    case 1: sqlite3_bind_int64(st, at, v->i); break;
    case 2: sqlite3_bind_double(st, at, v->d); break;
    case 3: sqlite3_bind_text(st, at, v->s, v->n, SQLITE_TRANSIENT); break;
    case 4: sqlite3_bind_blob(st, at, v->s, v->n, SQLITE_TRANSIENT); break;
    default: sqlite3_bind_null(st, at); break;
    }
}

/* Runs sql on one database with the values bound; SQLite's code. */
static int run_one(twin *w, sqlite3 *db, const char *sql, const val *v,
                   int nv)
{
    bool guarded = db == w->b && w->guard;
    sqlite3_stmt *st = NULL;
    const char *tail = sql;
    int rc = SQLITE_OK;
    while (rc == SQLITE_OK && tail != NULL && *tail != '\0') {
        w->policy = guarded;
        rc = sqlite3_prepare_v2(db, tail, -1, &st, &tail);
        if (rc == SQLITE_OK && st != NULL) {
            for (int i = 0; i < nv && i < sqlite3_bind_parameter_count(st);
                 i++)
                bind_val(st, i + 1, &v[i]);
            while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            }
            if (rc == SQLITE_DONE)
                rc = SQLITE_OK;
            sqlite3_finalize(st);
            st = NULL;
        }
        w->policy = false;
    }
    return rc;
}

/* Runs sql on both, which must agree on the outcome. */
static int both(twin *w, const char *sql, const val *v, int nv)
{
    int ra = run_one(w, w->a, sql, v, nv);
    int rb = run_one(w, w->b, sql, v, nv);
    if (ra != rb)
        fail_msg("%s: '%s' gave %d on the sessions' side, %d on the "
                 "recorder's", w->what, sql, ra, rb);
    return ra;
}

static void both_ok(twin *w, const char *sql)
{
    int rc = both(w, sql, NULL, 0);
    if (rc != SQLITE_OK)
        fail_msg("%s: '%s': %s", w->what, sql, sqlite3_errmsg(w->a));
}

/* ---- the schema ---- */

static const char *const table_names[] = {
    "t1", "t2", "t3", "t4", "t5", "Odd \"T\"", "MixedCase", "t7", "t8",
    "t9",
};
#define NTABLES (sizeof table_names / sizeof *table_names)

static const char schema[] =
    "PRAGMA foreign_keys = ON;"
    "CREATE TABLE t1(id INTEGER PRIMARY KEY, a, b REAL);"
    /* a key in another order than the columns' */
    "CREATE TABLE t2(k TEXT, n INTEGER, v, PRIMARY KEY(n, k));"
    "CREATE TABLE t3(k BLOB PRIMARY KEY, r REAL, x) WITHOUT ROWID;"
    "CREATE TABLE t4(a, b);"   /* no key: never recorded */
    "CREATE TABLE t5(x REAL PRIMARY KEY, y);"
    "CREATE TABLE \"Odd \"\"T\"\"\"(id INTEGER PRIMARY KEY, v TEXT);"
    "CREATE TABLE MixedCase(id INT PRIMARY KEY, v);" /* keys may be NULL */
    "CREATE TABLE t7(id INTEGER PRIMARY KEY, p INTEGER REFERENCES t1(id) "
    "  ON DELETE CASCADE ON UPDATE CASCADE, v);"
    /* the rowid, and (SQLite's quirk) not the rowid */
    "CREATE TABLE t8(id INTEGER, v, PRIMARY KEY(id DESC));"
    "CREATE TABLE t9(id INTEGER PRIMARY KEY DESC, v);"
    "CREATE TRIGGER t1_a AFTER UPDATE OF a ON t1 BEGIN "
    "  INSERT INTO t4(a, b) VALUES (new.id, new.a); "
    "  UPDATE t2 SET v = new.a WHERE n = new.id; END;";

static int open_db(sqlite3 **db)
{
    return sqlite3_open_v2(":memory:", db,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
}

static twin *twin_new(uint64_t seed)
{
    twin *w = calloc(1, sizeof *w);
    assert_non_null(w);
    w->rng = seed;
    w->what = "setup";
    assert_int_equal(open_db(&w->a), SQLITE_OK);
    assert_int_equal(open_db(&w->b), SQLITE_OK);
    sqlite3_set_authorizer(w->b, authorize, w);
    both_ok(w, schema);
    w->rec = pier__recorder_new(w->b, &w->policy);
    assert_non_null(w->rec);
    w->guard = true;
    return w;
}

static void twin_free(twin *w)
{
    pier__recorder_free(w->rec);
    assert_int_equal(sqlite3_close(w->a), SQLITE_OK);
    assert_int_equal(sqlite3_close(w->b), SQLITE_OK);
    free(w);
}

/* ---- filters: a set of tables by their bits ---- */

typedef struct filter {
    unsigned mask;             /* bit i: table_names[i] */
} filter;

static int filter_takes(void *payload, const char *table)
{
    const filter *f = payload;
    for (size_t i = 0; i < NTABLES; i++)
        if (sqlite3_stricmp(table_names[i], table) == 0)
            return (f->mask >> i) & 1;
    return 0;
}

/* ---- comparing changesets ---- */

static void hex(char *out, size_t cap, const void *p, int n)
{
    size_t at = 0;
    for (int i = 0; i < n && at + 3 < cap; i++)
        at += (size_t)snprintf(out + at, cap - at, "%02x",
                               ((const unsigned char *)p)[i]);
    out[at] = '\0';
}

/* The session's changeset (code, bytes) against the recorder's for the
 * same filter. */
static void compare(twin *w, sqlite3_session *s, const filter *f,
                    const char *when)
{
    int na = 0;
    void *pa = NULL;
    int ra = sqlite3session_changeset(s, &na, &pa);
    void *pb = NULL;
    size_t nb = 0;
    int rb = pier__recorder_changeset(w->rec, filter_takes, (void *)f, &pb,
                                      &nb);
    bool same = ra == rb &&
                (ra != SQLITE_OK ||
                 ((size_t)na == nb && (na == 0 || memcmp(pa, pb, nb) == 0)));
    seen.compared++;
    seen.nonempty += ra == SQLITE_OK && na > 0;
    seen.failed += ra != SQLITE_OK;
    seen.bytes += ra == SQLITE_OK ? na : 0;
    if (!same) {
        static char ha[8192], hb[8192];
        hex(ha, sizeof ha, pa, ra == SQLITE_OK ? na : 0);
        hex(hb, sizeof hb, pb, rb == SQLITE_OK ? (int)nb : 0);
        fail_msg("%s (%s, tables 0x%x): the session gave %d, %d bytes:\n"
                 "%s\nthe recorder %d, %zu bytes:\n%s", w->what, when,
                 f->mask, ra, na, ha, rb, nb, hb);
    }
    sqlite3_free(pa);
    free(pb);
}

/* The two databases hold the same rows. */
static void same_rows(twin *w)
{
    static const char dump[] =
        "SELECT (SELECT group_concat(quote(id) || quote(a) || quote(b)) "
        "        FROM (SELECT * FROM t1 ORDER BY id)) || '/' || "
        "       (SELECT group_concat(quote(n) || quote(k) || quote(v)) "
        "        FROM (SELECT * FROM t2 ORDER BY n, k)) || '/' || "
        "       (SELECT group_concat(quote(k) || quote(r) || quote(x)) "
        "        FROM (SELECT * FROM t3 ORDER BY k)) || '/' || "
        "       (SELECT count(*) FROM t4) || '/' || "
        "       (SELECT group_concat(quote(x) || quote(y)) "
        "        FROM (SELECT x, y FROM t5 ORDER BY x, y)) || '/' || "
        "       (SELECT group_concat(quote(id) || quote(v)) "
        "        FROM (SELECT * FROM \"Odd \"\"T\"\"\" ORDER BY id)) || "
        "       '/' || (SELECT group_concat(quote(id) || quote(v)) "
        "        FROM (SELECT * FROM MixedCase ORDER BY id, v)) || '/' || "
        "       (SELECT group_concat(quote(id) || quote(p) || quote(v)) "
        "        FROM (SELECT * FROM t7 ORDER BY id)) || '/' || "
        "       (SELECT group_concat(quote(id) || quote(v)) "
        "        FROM (SELECT id, v FROM t8 ORDER BY id)) || '/' || "
        "       (SELECT group_concat(quote(id) || quote(v)) "
        "        FROM (SELECT id, v FROM t9 ORDER BY id))";
    char *got[2] = { NULL, NULL };
    sqlite3 *dbs[2] = { w->a, w->b };
    for (int k = 0; k < 2; k++) {
        sqlite3_stmt *st = NULL;
        assert_int_equal(sqlite3_prepare_v2(dbs[k], dump, -1, &st, NULL),
                         SQLITE_OK);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        const char *t = (const char *)sqlite3_column_text(st, 0);
        got[k] = strdup(t != NULL ? t : "");
        sqlite3_finalize(st);
    }
    if (strcmp(got[0], got[1]) != 0)
        fail_msg("%s: the twins' rows differ", w->what);
    free(got[0]);
    free(got[1]);
}

/* ---- one recorded transaction ---- */

typedef struct recording {
    sqlite3_session *s[2];
    filter f[2];               /* f[1]'s tables are some of f[0]'s */
} recording;

static void record_begin(twin *w, recording *r, unsigned all, unsigned some)
{
    r->f[0].mask = all;
    r->f[1].mask = all & some;
    for (int k = 0; k < 2; k++) {
        assert_int_equal(sqlite3session_create(w->a, "main", &r->s[k]),
                         SQLITE_OK);
        sqlite3session_table_filter(r->s[k], filter_takes, &r->f[k]);
        assert_int_equal(sqlite3session_attach(r->s[k], NULL), SQLITE_OK);
    }
    w->policy = false;
    assert_int_equal(pier__recorder_start(w->rec, filter_takes, &r->f[0]),
                     SQLITE_OK);
}

static void record_compare(twin *w, recording *r, const char *when)
{
    compare(w, r->s[0], &r->f[0], when);
    compare(w, r->s[1], &r->f[1], when);
}

static void record_end(twin *w, recording *r)
{
    pier__recorder_stop(w->rec);
    sqlite3session_delete(r->s[0]);
    sqlite3session_delete(r->s[1]);
}

/* ---- the scenarios ---- */

static void test_scenarios(void **state)
{
    (void)state;
    /* Each runs in a transaction on fresh twins holding rows 1 and 2 of
     * t1 and one row of t2, recorded for every table. */
    static const char *const scenarios[] = {
        "INSERT INTO t1 VALUES (3, 'x', 1.5)",
        "UPDATE t1 SET a = 'y' WHERE id = 1",
        "DELETE FROM t1 WHERE id = 2",
        /* coalesced: an insert then an update is the insert of the last
         * values; then a delete is nothing */
        "INSERT INTO t1 VALUES (3, 'x', 1); UPDATE t1 SET b = 2 WHERE "
        "id = 3",
        "INSERT INTO t1 VALUES (3, 'x', 1); DELETE FROM t1 WHERE id = 3",
        /* an update then a delete is the delete of the first values */
        "UPDATE t1 SET a = 'z' WHERE id = 1; DELETE FROM t1 WHERE id = 1",
        /* a delete then an insert of the key is an update, or nothing */
        "DELETE FROM t1 WHERE id = 1; INSERT INTO t1 VALUES (1, 'n', 0)",
        "DELETE FROM t1 WHERE id = 1; INSERT INTO t1 VALUES (1, 'one', 1)",
        /* an update back to the first values is nothing */
        "UPDATE t1 SET a = 'q' WHERE id = 1; UPDATE t1 SET a = 'one' "
        "WHERE id = 1",
        /* a key moved: the old key's delete, the new key's insert */
        "UPDATE t1 SET id = 9 WHERE id = 2",
        /* a rolled-back savepoint leaves nothing of what it undid */
        "SAVEPOINT s; INSERT INTO t1 VALUES (5, 'gone', 0); UPDATE t1 SET "
        "a = 'gone' WHERE id = 1; ROLLBACK TO s; RELEASE s",
        "SAVEPOINT s; DELETE FROM t1; ROLLBACK TO s; INSERT INTO t1 "
        "VALUES (6, 'kept', 0); RELEASE s",
        /* a statement failing half-way keeps nothing of its own */
        "INSERT INTO t1(id, a) VALUES (7, 'x'); INSERT INTO t1(id, a) "
        "SELECT id + 6, 'dup' FROM t1",
        /* the rows of a foreign key's cascade and a trigger are indirect */
        "INSERT INTO t7 VALUES (1, 1, 'child'); UPDATE t1 SET id = 11 "
        "WHERE id = 1",
        "UPDATE t1 SET a = 'trig' WHERE id = 2",
        /* a NULL in a key: not recorded */
        "INSERT INTO MixedCase VALUES (NULL, 'x'), (1, 'y')",
        /* a column added after a write: SQLITE_SCHEMA */
        "INSERT INTO t1(id) VALUES (8); ALTER TABLE t1 ADD COLUMN c",
        "INSERT INTO t1(id) VALUES (8); ALTER TABLE t1 ADD COLUMN c; "
        "INSERT INTO t1(id) VALUES (9)",
        /* ... before the first write: the new columns */
        "ALTER TABLE t1 ADD COLUMN c; INSERT INTO t1 VALUES (8, 1, 2, 3)",
        /* reals, large integers, empty and long values */
        "INSERT INTO t3 VALUES (x'', -0.0, 9223372036854775807), "
        "(x'00ff', 1e308, -9223372036854775808), (zeroblob(300), 2.0, "
        "'')",
        "INSERT INTO t5 VALUES (0.5, 'half'), (1.0, 'one'), (NULL, 'n')",
        /* a table made again with another key */
        "INSERT INTO t5 VALUES (0.5, 'a'); DROP TABLE t5; CREATE TABLE "
        "t5(y PRIMARY KEY, x REAL); INSERT INTO t5 VALUES ('k', 1)",
        "DROP TABLE t5; CREATE TABLE t5(y PRIMARY KEY, x REAL); INSERT "
        "INTO t5 VALUES ('k', 1)",
    };
    for (size_t i = 0; i < sizeof scenarios / sizeof *scenarios; i++) {
        twin *w = twin_new(1);
        both_ok(w, "INSERT INTO t1 VALUES (1, 'one', 1), (2, 'two', 2); "
                   "INSERT INTO t2 VALUES ('k', 2, 'v')");
        w->what = scenarios[i];
        both_ok(w, "BEGIN");
        recording r;
        record_begin(w, &r, (1u << NTABLES) - 1, 0x3);
        both(w, scenarios[i], NULL, 0);
        pier__recorder_pause(w->rec);
        record_compare(w, &r, "at the end");
        record_end(w, &r);
        both_ok(w, "COMMIT");
        twin_free(w);
    }
}

/* One recorded transaction of `sql` on w, compared, then committed or
 * rolled back. */
static void one_tx(twin *w, const char *sql, bool commit)
{
    w->what = sql;
    both_ok(w, "BEGIN");
    recording r;
    record_begin(w, &r, (1u << NTABLES) - 1, 0x1);
    both(w, sql, NULL, 0);
    pier__recorder_pause(w->rec);
    record_compare(w, &r, commit ? "then committed" : "then rolled back");
    record_end(w, &r);
    both_ok(w, commit ? "COMMIT" : "ROLLBACK");
}

/* What the recorder keeps of a table holds while the schema cookie does,
 * if it was read before any schema change of its transaction: a
 * savepoint or a transaction rolled back takes the cookie back, and the
 * next change brings it to the same value with other columns. */
static void test_schema_changes(void **state)
{
    (void)state;
    twin *w = twin_new(3);
    /* kept across transactions, then read again after a change */
    one_tx(w, "INSERT INTO t1 VALUES (1, 'a', 1)", true);
    one_tx(w, "UPDATE t1 SET a = 'b'", true);
    one_tx(w, "ALTER TABLE t1 ADD COLUMN c", true);
    one_tx(w, "UPDATE t1 SET a = 'c'", true);
    /* inside a transaction: read after a change rolled back */
    one_tx(w, "SAVEPOINT s; ALTER TABLE t1 ADD COLUMN c1; INSERT INTO "
              "t1(id) VALUES (20); ROLLBACK TO s; RELEASE s; ALTER TABLE "
              "t1 ADD COLUMN c2", true);
    /* ... and in a transaction rolled back, with the next one changing
     * the schema to the same cookie */
    one_tx(w, "ALTER TABLE t1 ADD COLUMN c3; INSERT INTO t1(id) VALUES "
              "(21)", false);
    one_tx(w, "ALTER TABLE t1 ADD COLUMN c4; INSERT INTO t1(id) VALUES "
              "(22)", true);
    one_tx(w, "INSERT INTO t1(id) VALUES (23)", true);
    /* a table made again with another key, between transactions */
    one_tx(w, "INSERT INTO t5 VALUES (1.5, 'x')", true);
    one_tx(w, "DROP TABLE t5; CREATE TABLE t5(y PRIMARY KEY, x REAL)",
           true);
    one_tx(w, "INSERT INTO t5 VALUES ('y', 2.5)", true);
    same_rows(w);
    twin_free(w);
}

/* ---- random workloads ---- */

static void random_text_key(twin *w, val *v)
{
    static const char *const texts[] = { "a", "b", "A", "\xc3\xa9", "",
                                         "k'ey" };
    memset(v, 0, sizeof *v);
    v->kind = 3;
    snprintf(v->s, sizeof v->s, "%s", texts[below(w, 6)]);
    v->n = (int)strlen(v->s);
}

/* A key of table i's kind, from a small set so that rows meet again. */
static void random_key(twin *w, size_t table, val *v)
{
    static const double reals[] = { 0.5, 1.0, 2.0, -0.0, 3.25, 1e300 };
    memset(v, 0, sizeof *v);
    switch (table) {
    case 2:                    /* t3: blobs */
        v->kind = 4;
        v->n = below(w, 4);
        for (int i = 0; i < v->n; i++)
            v->s[i] = (char)(i == 0 ? below(w, 3) * 0x7f : i);
        break;
    case 4:                    /* t5: reals, or NULL */
        if (w->t5_shape == 1 || chance(w, 10)) {
            random_text_key(w, v);
            if (chance(w, 10))
                v->kind = 0;
        } else {
            v->kind = 2;
            v->d = reals[below(w, 6)];
        }
        break;
    case 6:                    /* MixedCase: NULL now and then */
        v->kind = chance(w, 10) ? 0 : 1;
        v->i = below(w, 8);
        break;
    default:
        v->kind = 1;
        v->i = below(w, 12) + 1;
        break;
    }
}

static void random_value(twin *w, val *v)
{
    static const sqlite3_int64 ints[] = { 0, 1, -1, 7, 9007199254740993,
                                          INT64_MAX, INT64_MIN, -2147483648 };
    static const double reals[] = { 0.5, -0.0, 1.0, 2.0, 1e300, 3.25,
                                    -1e-300, 123456789.125 };
    memset(v, 0, sizeof *v);
    v->kind = below(w, 5);
    switch (v->kind) {
    case 1: v->i = ints[below(w, 8)]; break;
    case 2: v->d = reals[below(w, 8)]; break;
    case 3: {
        static const char *const texts[] = { "", "x", "two words",
                                             "qu'o\"te", "\xc3\xbc" };
        int k = below(w, 6);
        if (k == 5) {
            memset(v->s, 'L', 300);
            v->n = 300;
        } else {
            snprintf(v->s, sizeof v->s, "%s", texts[k]);
            v->n = (int)strlen(v->s);
        }
        break;
    }
    case 4:
        v->n = below(w, 3) == 0 ? 300 : below(w, 5);
        for (int i = 0; i < v->n; i++)
            v->s[i] = (char)next(w);
        break;
    default:
        break;
    }
}

/* The table's key columns and another column, for the statements. */
static void table_cols(twin *w, size_t t, const char **name,
                       const char **key, const char **other,
                       const char **insert)
{
    static const char *const keys[] = { "id", "n", "k", "a", "x",
                                        "id", "id", "id", "id", "id" };
    static const char *const others[] = { "a", "v", "x", "b", "y",
                                          "v", "v", "v", "v", "v" };
    static const char *const inserts[] = {
        "t1(id, a, b) VALUES (?1, ?2, ?3)",
        "t2(n, k, v) VALUES (?1, ?2, ?3)",
        "t3(k, r, x) VALUES (?1, ?2, ?3)",
        "t4(a, b) VALUES (?1, ?2)",
        "t5(x, y) VALUES (?1, ?2)",
        "\"Odd \"\"T\"\"\"(id, v) VALUES (?1, ?2)",
        "MixedCase(id, v) VALUES (?1, ?2)",
        "t7(id, p, v) VALUES (?1, ?2, ?3)",
        "t8(id, v) VALUES (?1, ?2)",
        "t9(id, v) VALUES (?1, ?2)",
    };
    *name = table_names[t];
    *key = keys[t];
    *other = others[t];
    *insert = inserts[t];
    if (t == 4 && w->t5_shape == 1)
        *key = "y", *other = "x";
}

/* One random statement (or savepoint step) on both twins. */
static void random_op(twin *w, int *depth)
{
    size_t t = (size_t)below(w, (int)NTABLES);
    const char *name, *key, *other, *insert;
    table_cols(w, t, &name, &key, &other, &insert);
    char quoted[64];
    snprintf(quoted, sizeof quoted, "\"%s\"", t == 5 ? "Odd \"\"T\"\"" : name);
    char sql[512];
    val v[3];
    int op = below(w, 100);
    if (op < 30) {
        static const char *const how[] = { "", "OR REPLACE", "OR IGNORE" };
        snprintf(sql, sizeof sql, "INSERT %s INTO %s", how[below(w, 3)],
                 insert);
        random_key(w, t, &v[0]);
        random_value(w, &v[1]);
        if (t == 1)            /* t2(n, k, v): k is text */
            random_text_key(w, &v[1]);
        if (t == 7 && chance(w, 70))
            random_key(w, 0, &v[1]);   /* a parent, or none */
        random_value(w, &v[2]);
        both(w, sql, v, 3);
    } else if (op < 45) {
        snprintf(sql, sizeof sql, "UPDATE %s SET %s = ?1 WHERE %s = ?2",
                 quoted, t == 0 && chance(w, 50) ? "a" : other, key);
        random_value(w, &v[0]);
        random_key(w, t == 1 ? 0 : t, &v[1]);
        both(w, sql, v, 2);
    } else if (op < 52) {      /* a key moves */
        snprintf(sql, sizeof sql, "UPDATE OR %s %s SET %s = ?1 WHERE "
                 "%s = ?2", chance(w, 50) ? "REPLACE" : "ABORT", quoted,
                 key, key);
        random_key(w, t == 1 ? 0 : t, &v[0]);
        random_key(w, t == 1 ? 0 : t, &v[1]);
        both(w, sql, v, 2);
    } else if (op < 60) {      /* many rows */
        snprintf(sql, sizeof sql, "UPDATE %s SET %s = ?1 WHERE "
                 "length(quote(%s)) %% 3 = ?2", quoted, other, key);
        random_value(w, &v[0]);
        v[1] = (val){ .kind = 1, .i = below(w, 3) };
        both(w, sql, v, 2);
    } else if (op < 70) {
        snprintf(sql, sizeof sql, "DELETE FROM %s WHERE %s = ?1", quoted,
                 key);
        random_key(w, t == 1 ? 0 : t, &v[0]);
        both(w, sql, v, 1);
    } else if (op < 74) {
        snprintf(sql, sizeof sql, "DELETE FROM %s WHERE length(quote(%s)) "
                 "%% 4 = ?1", quoted, other);
        v[0] = (val){ .kind = 1, .i = below(w, 4) };
        both(w, sql, v, 1);
    } else if (op < 78) {      /* hundreds of rows: the hash table grows */
        int from = 100 + below(w, 400), count = below(w, 700);
        snprintf(sql, sizeof sql, "WITH RECURSIVE c(i) AS (SELECT %d UNION "
                 "ALL SELECT i + 1 FROM c WHERE i < %d) INSERT OR REPLACE "
                 "INTO t1(id, a, b) SELECT i, i * 3, i / 7.0 FROM c",
                 from, from + count);
        both(w, sql, NULL, 0);
    } else if (op < 80) {
        snprintf(sql, sizeof sql, "DELETE FROM t1 WHERE id %% %d = 0",
                 2 + below(w, 5));
        both(w, sql, NULL, 0);
    } else if (op < 83) {      /* may fail half-way: a key taken */
        snprintf(sql, sizeof sql, "INSERT INTO t1(id, a) SELECT id + %d, "
                 "'copy' FROM t1 WHERE id < 20", below(w, 15));
        both(w, sql, NULL, 0);
    } else if (op < 92) {
        if (*depth > 0 && chance(w, 50)) {
            snprintf(sql, sizeof sql, "%s s%d", chance(w, 50)
                     ? "RELEASE" : "ROLLBACK TO", *depth - 1);
            both_ok(w, sql);
            if (strncmp(sql, "RELEASE", 7) == 0)
                (*depth)--;
        } else if (*depth < 5) {
            snprintf(sql, sizeof sql, "SAVEPOINT s%d", (*depth)++);
            both_ok(w, sql);
        }
    } else if (op < 93) {      /* a column more */
        static int added;
        snprintf(sql, sizeof sql, "ALTER TABLE %s ADD COLUMN c%d", quoted,
                 added++);
        both(w, sql, NULL, 0);
    } else if (op < 95) {      /* t5 made again with the other key */
        both_ok(w, w->t5_shape == 0
                       ? "DROP TABLE t5; CREATE TABLE t5(y PRIMARY KEY, "
                         "x REAL)"
                       : "DROP TABLE t5; CREATE TABLE t5(x REAL PRIMARY "
                         "KEY, y)");
        w->t5_shape = 1 - w->t5_shape;
    } else {                   /* back to a shape of before */
        both(w, "UPDATE t1 SET a = a", NULL, 0);
    }
}

/* t5's definition, read back (a rollback may have undone a change). */
static void t5_shape_of(twin *w)
{
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(w->a, "SELECT pk FROM "
                                        "pragma_table_info('t5') WHERE "
                                        "name = 'y'", -1, &st, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    w->t5_shape = sqlite3_column_int(st, 0) != 0 ? 1 : 0;
    sqlite3_finalize(st);
}

static uint64_t seed_of(void)
{
    const char *env = getenv("PIER_SEED");
    return env != NULL && *env != '\0' ? strtoull(env, NULL, 10) : 20261201;
}

static int trials_of(void)
{
    const char *env = getenv("PIER_RECORD_TRIALS");
    int n = env != NULL && *env != '\0' ? atoi(env) : DEFAULT_TRIALS;
    return n > 0 ? n : DEFAULT_TRIALS;
}

static void test_random_workloads(void **state)
{
    (void)state;
    memset(&seen, 0, sizeof seen);
    uint64_t seed = seed_of();
    int trials = trials_of();
    print_message("seed %llu, %d transactions (PIER_SEED, "
                  "PIER_RECORD_TRIALS override)\n",
                  (unsigned long long)seed, trials);
    twin *w = twin_new(seed);
    char what[96];
    for (int trial = 0; trial < trials; trial++) {
        snprintf(what, sizeof what, "seed %llu, transaction %d",
                 (unsigned long long)seed, trial);
        w->what = what;
        t5_shape_of(w);
        if (chance(w, 5)) {    /* the schema changes between them */
            char sql[128];
            snprintf(sql, sizeof sql, "ALTER TABLE %s ADD COLUMN d%d",
                     table_names[below(w, 5)], trial);
            both(w, sql, NULL, 0);
        }
        both_ok(w, "BEGIN");
        recording r;
        unsigned all = (unsigned)next(w) & ((1u << NTABLES) - 1);
        if (chance(w, 50))
            all = (1u << NTABLES) - 1;
        record_begin(w, &r, all, (unsigned)next(w));
        int depth = 0;
        int ops = 1 + below(w, MAX_OPS);
        for (int k = 0; k < ops; k++) {
            random_op(w, &depth);
            if (chance(w, 3))
                record_compare(w, &r, "halfway");
        }
        pier__recorder_pause(w->rec);
        record_compare(w, &r, "at the end");
        record_end(w, &r);
        both_ok(w, chance(w, 75) ? "COMMIT" : "ROLLBACK");
        same_rows(w);
    }
    twin_free(w);
    print_message("%d changesets compared: %d with changes (%ld bytes), "
                  "%d failed alike\n", seen.compared, seen.nonempty,
                  seen.bytes, seen.failed);
    /* the workload must reach both outcomes */
    assert_true(seen.nonempty > seen.compared / 4);
    assert_true(seen.failed > 0);
}

/* Without a filter the recorder takes every table but SQLite's own. */
static void test_no_filter(void **state)
{
    (void)state;
    twin *w = twin_new(7);
    w->what = "no filter";
    both_ok(w, "BEGIN");
    sqlite3_session *s = NULL;
    assert_int_equal(sqlite3session_create(w->a, "main", &s), SQLITE_OK);
    assert_int_equal(sqlite3session_attach(s, NULL), SQLITE_OK);
    assert_int_equal(pier__recorder_start(w->rec, NULL, NULL), SQLITE_OK);
    both_ok(w, "INSERT INTO t1 VALUES (1, 2, 3); INSERT INTO t3 VALUES "
               "(x'01', 1, 2); INSERT INTO t2 VALUES ('a', 1, 'b')");
    int na = 0;
    void *pa = NULL;
    assert_int_equal(sqlite3session_changeset(s, &na, &pa), SQLITE_OK);
    void *pb = NULL;
    size_t nb = 0;
    assert_int_equal(pier__recorder_changeset(w->rec, NULL, NULL, &pb, &nb),
                     SQLITE_OK);
    assert_int_equal(nb, (size_t)na);
    assert_memory_equal(pa, pb, nb);
    sqlite3_free(pa);
    free(pb);
    pier__recorder_stop(w->rec);
    sqlite3session_delete(s);
    both_ok(w, "COMMIT");
    twin_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scenarios),
        cmocka_unit_test(test_no_filter),
        cmocka_unit_test(test_schema_changes),
        cmocka_unit_test(test_random_workloads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
