/*
 * test_corrupt.c: a damaged or foreign lake file is refused, or read up to
 * the damage, and never crashes, trips a sanitizer or hangs the process.
 *
 * A populated lake is made once: boards with rows of every kind of type,
 * a strict board with the dialect's types, a declared table with an index,
 * change records, a maintenance (a retention floor), more writes after it;
 * and a copy taken while an engine holds it open, with its write-ahead log
 * full of committed frames. Each trial copies it and damages it, seeded
 * (PIER_SEED overrides; a failure names the seed and the trial):
 * - bytes flipped at random, whole pages zeroed, the file truncated at a
 *   random length, garbage appended, the header's first 100 bytes hit;
 * - the file replaced by another program's SQLite database, by a forged
 *   one that claims to be a lake, by text, random bytes or an executable;
 * - the write-ahead log flipped, truncated, extended with garbage, its
 *   header zeroed, or taken from another lake;
 * - the catalog's own contents made wrong through SQL, one case each (a
 *   column of an unknown type, a board id with quotes, a missing base
 *   column or physical table, values of the wrong type in a board's
 *   cells, change records that are not JSON or hold absurd times, meta
 *   rows of the wrong type, the head moved...): what Pier reads back from
 *   the file must not be trusted.
 * Then, in a child process (so that a crash or a hang is seen, not
 * suffered): pier_open refuses with LakeUnavailable and a reason, or opens,
 * and then every read (board list, describe, row get, count, scan,
 * pier_query, pier_changes and their JSON, stats, head, schema dump and
 * check, table list and describe, pier_exec SELECT) and a few writes each
 * return a status with a tag and a message. A child that is signalled,
 * reports a sanitizer error or runs past its alarm fails the test. Some
 * trials, and every catalog damage, also run the `pier` command
 * (PIER_BINARY) on the damaged lake: it exits 0 or 1, with
 * `pier: error: <Tag>: ...`, never by a signal.
 *
 * PIER_CORRUPT_TRIALS sets the random trials (default 150; `make soak`
 * runs thousands); PIER_CORRUPT_FIRST=N starts at trial N, to repeat one.
 * A failing trial's damaged lake is kept in /tmp/pier-corrupt-SEED-TRIAL.
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "pier.h"
#include "support/crashkit.h"
#include "support/lakedir.h"
#include "types/types.h"

#define CHILD_ALARM_S 60
/* Every this many random trials also runs the pier command. */
#define CLI_EVERY 25

/* The files of a lake. */
typedef struct files {
    char *db;
    size_t ndb;
    char *wal;               /* NULL: none */
    size_t nwal;
} files;

static files plain;          /* closed cleanly: no log */
static files logged;         /* copied while open: a log of committed frames */
static files other_log;      /* the log of another lake */
static char *self_exe;       /* an executable, as a foreign file */
static size_t nself;

static void must(pier_status rc, const pier_error *err, const char *what)
{
    if (rc != PIER_OK)
        fail_msg("%s: %s: %s", what, err->tag, err->message);
}

static void write_json(pier_engine *e, const char *board, const char *json)
{
    pier_error err;
    must(pier_insert_json(NULL, e, board, json, strlen(json), &err), &err,
         json);
}

static void sql(pier_engine *e, const char *script)
{
    pier_error err;
    must(pier_exec(NULL, e, script, NULL, &err), &err, script);
}

/* Writes rows of every inferable type, DDL and dialect tables. */
static void populate(pier_engine *e, int round)
{
    pier_error err;
    char row[512];
    for (int i = 0; i < 120; i++) {
        snprintf(row, sizeof row,
                 "{\"id\":\"t%d_%03d\",\"state\":\"open\",\"title\":\"task "
                 "%d with some text to fill pages\",\"n\":%d,\"d\":%d.5,"
                 "\"ok\":%s,\"j\":{\"k\":[%d,\"x\"]},\"h\":"
                 "170141183460469231731687303715884105727}",
                 round, i, i, i, i, i % 2 ? "true" : "false", i);
        write_json(e, "tasks", row);
    }
    snprintf(row, sizeof row, "t%d_001", round);
    const char *patch = "{\"n\":null,\"title\":\"patched\"}";
    must(pier_update_json(NULL, e, "tasks", row, patch, strlen(patch),
                          &err), &err, "update");
    must(pier_delete(NULL, e, "tasks", row, &err), &err, "delete");
    for (int i = 0; i < 30; i++) {
        snprintf(row, sizeof row,
                 "{\"id\":\"s%d_%d\",\"price\":\"%d.25\",\"u\":"
                 "\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a%02d\",\"e\":\"b\","
                 "\"tags\":[\"x\",\"y\"],\"at\":\"2026-03-01T10:00:00Z\"}",
                 round, i, i, i);
        write_json(e, "typed", row);
    }
    snprintf(row, sizeof row,
             "INSERT INTO items (id, name, price, at, tags) VALUES "
             "(%d, 'a', '1.50', '2026-01-01T00:00:00Z', '[\"p\"]'), "
             "(%d, 'b', NULL, NULL, NULL); "
             "UPDATE items SET price = '2.00' WHERE id = %d",
             round * 10, round * 10 + 1, round * 10);
    sql(e, row);
}

static void read_files(files *f, const char *dir, bool wal)
{
    char *db = lakedir_join(dir, "lake.sqlite");
    char *w = lakedir_join(dir, "lake.sqlite-wal");
    f->db = lakedir_read_file(db, &f->ndb);
    assert_non_null(f->db);
    if (wal) {
        f->wal = lakedir_read_file(w, &f->nwal);
        assert_non_null(f->wal);
        assert_true(f->nwal > 32);
    }
    free(db);
    free(w);
}

/* The boards and the table populate() writes to. */
static void create_schema(pier_engine *e)
{
    pier_error err;
    pier_column_def typed[] = {
        { "price", "decimal(12,2)" }, { "u", "uuid" },
        { "e", "enum('a','b')" },     { "tags", "text[]" },
        { "at", "timestamp" },
    };
    pier_board_options o = PIER_BOARD_OPTIONS_INIT;
    o.columns = typed;
    o.ncolumns = sizeof typed / sizeof typed[0];
    o.strict = true;
    must(pier_board_create(NULL, e, "typed", &o, &err), &err, "create");
    sql(e, "CREATE TABLE items (id INT64 PRIMARY KEY, name VARCHAR(20), "
           "price DECIMAL(10,2), at INSTANT, tags TEXT[], "
           "owner UUID READONLY); CREATE INDEX items_name ON items(name)");
}

static void make_templates(void)
{
    char *dir = lakedir_make();
    assert_non_null(dir);
    pier_engine *e = NULL;
    pier_error err;
    must(pier_open(&e, dir, NULL, &err), &err, "open");
    create_schema(e);
    populate(e, 0);
    must(pier_board_widen_column(NULL, e, "tasks", "n", "double", &err),
         &err, "widen");
    must(pier_board_add_column(NULL, e, "tasks", "extra", "text", &err),
         &err, "add column");
    write_json(e, "gone", "{\"id\":\"g\"}");
    must(pier_board_drop(NULL, e, "gone", &err), &err, "drop");
    must(pier_maintain(e, 0, &err), &err, "maintain");
    populate(e, 1);
    pier_close(&e);
    read_files(&plain, dir, false);

    /* The same lake with more writes in its log, copied while open. */
    must(pier_open(&e, dir, NULL, &err), &err, "open");
    populate(e, 2);
    must(pier_board_widen_column(NULL, e, "tasks", "extra", "text", &err),
         &err, "widen");
    read_files(&logged, dir, true);
    pier_close(&e);
    assert_int_equal(pier_reset_lake(dir, &err), PIER_OK);

    /* Another lake's log. */
    must(pier_open(&e, dir, NULL, &err), &err, "open");
    create_schema(e);
    populate(e, 3);
    read_files(&other_log, dir, true);
    pier_close(&e);
    assert_int_equal(pier_reset_lake(dir, &err), PIER_OK);
    lakedir_remove_tree(dir);
    free(dir);

    self_exe = lakedir_read_file("/proc/self/exe", &nself);
    assert_non_null(self_exe);
    if (nself > 65536)
        nself = 65536;
}

/* ------------------------------------------------------------------ */
/* The child: every call returns a status                               */

static int bad_statuses;

/* A status is a known one, with its tag, and a failure says why. */
static void judge(pier_status rc, const pier_error *err, const char *what)
{
    if (rc == PIER_OK)
        return;
    if ((int)rc < 0 || (int)rc >= PIER_STATUS_COUNT || err->tag == NULL ||
        strcmp(err->tag, pier_status_tag(rc)) != 0 ||
        err->message[0] == '\0') {
        fprintf(stderr, "%s: status %d, tag %s, message '%s'\n", what,
                (int)rc, err->tag ? err->tag : "(none)", err->message);
        bad_statuses++;
    }
}

/* What the library renders as JSON must be JSON, whatever the file held
 * (a string may hold \u0000: JSON allows it); `json` is released. */
static void expect_json(char *json, const char *what)
{
    if (json == NULL)
        return;                           /* out of memory: allowed */
    json_error_t jerr;
    size_t flags = JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL;
    json_t *v = json_loads(json, flags, &jerr);
    /* A number beyond a double's range is JSON all the same (a query's
     * infinity reads 9e999, docs/query.md; the dialect's JSON keeps
     * -1.5e400 as written), though jansson cannot hold it: then the
     * grammar alone is checked, by the checker json_valid_accepts_json_only
     * tests. */
    bool grammar = v == NULL && strstr(jerr.text, "overflow") != NULL &&
                   pier__json_valid(json, strlen(json));
    if (v == NULL && !grammar) {
        fprintf(stderr, "%s is not JSON (%s): %.300s\n", what, jerr.text,
                json);
        bad_statuses++;
    }
    json_decref(v);
    pier_free(json);
}

/* Collects what pier_cursor_write writes. */
typedef struct collected {
    char *p;
    size_t len, cap;
} collected;

static bool sink(const char *bytes, size_t len, void *payload)
{
    collected *t = payload;
    if (t->len + len + 1 > t->cap) {
        size_t cap = (t->len + len + 1) * 2;
        char *p = realloc(t->p, cap);
        if (p == NULL)
            return false;
        t->p = p;
        t->cap = cap;
    }
    memcpy(t->p + t->len, bytes, len);
    t->len += len;
    t->p[t->len] = '\0';
    return true;
}

typedef struct ids {
    char *id[8];
    size_t n;
} ids;

static int scan_row(const pier_row *row, void *payload)
{
    ids *c = payload;
    expect_json(pier_row_to_json(row), "pier_row_to_json");
    const pier_value *id = pier_row_find(row, "id");
    for (size_t i = 0; i < pier_row_column_count(row); i++) {
        const pier_value *v = pier_row_value(row, i);
        if (v->text != NULL && strlen(v->text) > v->len)
            abort();                    /* text and len disagree */
    }
    if (id != NULL && id->text != NULL && c->n < 8)
        c->id[c->n++] = strdup(id->text);
    return 0;
}

static void read_board(pier_engine *e, const char *board)
{
    pier_error err;
    pier_board_info *info = NULL;
    pier_status rc = pier_board_describe(&info, e, board, &err);
    judge(rc, &err, "pier_board_describe");
    pier_board_info_free(info);
    int64_t n = 0;
    judge(pier_row_count(&n, e, board, &err), &err, "pier_row_count");
    ids c = { { NULL }, 0 };
    judge(pier_board_scan(e, board, scan_row, &c, &err), &err,
          "pier_board_scan");
    for (size_t i = 0; i < c.n; i++) {
        pier_row *row = NULL;
        rc = pier_row_get(&row, e, board, c.id[i], &err);
        judge(rc, &err, "pier_row_get");
        if (rc == PIER_OK)
            expect_json(pier_row_to_json(row), "pier_row_to_json");
        pier_row_free(row);
        free(c.id[i]);
    }
    pier_row *row = NULL;
    judge(pier_row_get(&row, e, board, "t0_005", &err), &err,
          "pier_row_get");
    pier_row_free(row);
    pier_cursor *cur = NULL;
    rc = pier_query(&cur, e, board, "SELECT * FROM {{board}} ORDER BY id",
                    NULL, NULL, &err);
    judge(rc, &err, "pier_query");
    if (rc == PIER_OK) {
        collected out = { NULL, 0, 0 };
        rc = pier_cursor_write(NULL, cur, PIER_FORMAT_JSON, sink, &out,
                               &err);
        judge(rc, &err, "pier_cursor_write");
        if (rc == PIER_OK)
            expect_json(out.p, "pier_cursor_write's JSON");
        else
            free(out.p);
        pier_cursor_close(cur);
    }
    rc = pier_query(&cur, e, board, "SELECT count(*), max(id) FROM "
                    "{{board}}", NULL, NULL, &err);
    judge(rc, &err, "pier_query");
    if (rc == PIER_OK) {
        const pier_row *r = NULL;
        judge(pier_cursor_next(&r, cur, &err), &err, "pier_cursor_next");
        pier_cursor_close(cur);
    }
    int64_t after = 0;
    for (int pages = 0; pages < 50; pages++) {
        pier_changes_page *page = NULL;
        rc = pier_changes(&page, e, board, after, 100, &err);
        judge(rc, &err, "pier_changes");
        if (rc != PIER_OK)
            break;
        expect_json(pier_changes_page_to_json(page),
                    "pier_changes_page_to_json");
        for (size_t i = 0; i < page->nrecords; i++)
            expect_json(pier_change_to_json(&page->records[i]),
                        "pier_change_to_json");
        /* Below the floor: go on from it, as a consumer would. */
        bool more = (page->nrecords > 0 || page->resync) &&
                    page->next > after;
        after = page->next;
        pier_changes_page_free(page);
        if (!more)
            break;
    }
    int64_t wm = 0;
    judge(pier_watermark_of(&wm, e, board, &err), &err,
          "pier_watermark_of");
}

static void read_table(pier_engine *e, const char *table)
{
    pier_error err;
    pier_table_info *info = NULL;
    judge(pier_table_describe(&info, e, table, &err), &err,
          "pier_table_describe");
    pier_table_info_free(info);
    char q[160];
    snprintf(q, sizeof q, "SELECT * FROM \"%s\"", table);
    pier_cursor *cur = NULL;
    pier_status rc = pier_exec(&cur, e, q, NULL, &err);
    judge(rc, &err, "pier_exec SELECT");
    if (rc == PIER_OK) {
        const pier_row *row = NULL;
        while ((rc = pier_cursor_next(&row, cur, &err)) == PIER_OK &&
               row != NULL)
            expect_json(pier_row_to_json(row), "pier_row_to_json");
        judge(rc, &err, "pier_cursor_next");
        pier_cursor_close(cur);
    }
}

/* @return whether the lake opened. */
static bool exercise(const char *dir)
{
    pier_engine *e = NULL;
    pier_error err;
    memset(&err, 0, sizeof err);
    pier_status rc = pier_open(&e, dir, NULL, &err);
    if (rc != PIER_OK) {
        judge(rc, &err, "pier_open");
        if (rc != PIER_E_LAKE_UNAVAILABLE && rc != PIER_E_OUT_OF_MEMORY) {
            fprintf(stderr, "pier_open refused with %s, not "
                    "LakeUnavailable: %s\n", err.tag, err.message);
            bad_statuses++;
        }
        return false;
    }
    char **list = NULL;
    rc = pier_board_list(&list, e, &err);
    judge(rc, &err, "pier_board_list");
    static const char *const known[] = { "tasks", "typed", "gone", "nope" };
    for (size_t i = 0; i < 4; i++)
        read_board(e, known[i]);
    for (size_t i = 0; rc == PIER_OK && list[i] != NULL && i < 8; i++) {
        bool has = false;
        judge(pier_board_has(&has, e, list[i], &err), &err,
              "pier_board_has");
        read_board(e, list[i]);
    }
    pier_strings_free(list);
    pier_stats st;
    judge(pier_stats_get(&st, e, &err), &err, "pier_stats_get");
    int64_t head = 0;
    judge(pier_head_from_catalog(&head, e, &err), &err,
          "pier_head_from_catalog");
    char *dump = NULL;
    judge(pier_schema_dump(&dump, e, &err), &err, "pier_schema_dump");
    pier_free(dump);
    judge(pier_schema_check(e, &err), &err, "pier_schema_check");
    rc = pier_table_list(&list, e, &err);
    judge(rc, &err, "pier_table_list");
    read_table(e, "items");
    for (size_t i = 0; rc == PIER_OK && list[i] != NULL && i < 8; i++)
        read_table(e, list[i]);
    pier_strings_free(list);

    /* Writes. */
    const char *row = "{\"id\":\"new\",\"n\":1,\"title\":\"x\"}";
    judge(pier_insert_json(NULL, e, "tasks", row, strlen(row), &err), &err,
          "pier_insert_json");
    judge(pier_insert_json(NULL, e, "fresh", row, strlen(row), &err), &err,
          "pier_insert_json (a new board)");
    judge(pier_exec(NULL, e, "INSERT INTO items (id, name) VALUES "
                    "(999, 'z')", NULL, &err), &err, "pier_exec INSERT");
    judge(pier_board_add_column(NULL, e, "tasks", "later", "bigint", &err),
          &err, "pier_board_add_column");
    judge(pier_maintain(e, 0, &err), &err, "pier_maintain");
    pier_close(&e);
    return true;
}

/* ------------------------------------------------------------------ */
/* Damage                                                               */

static int write_files(const char *dir, const char *db, size_t ndb,
                       const char *wal, size_t nwal)
{
    char *p = lakedir_join(dir, "lake.sqlite");
    int rc = lakedir_write_file(p, db, ndb);
    free(p);
    if (rc == 0 && wal != NULL) {
        p = lakedir_join(dir, "lake.sqlite-wal");
        rc = lakedir_write_file(p, wal, nwal);
        free(p);
    }
    return rc;
}

static size_t page_size(const char *db, size_t n)
{
    if (n < 100)
        return 4096;
    size_t ps = ((size_t)(unsigned char)db[16] << 8) |
                (unsigned char)db[17];
    return ps == 1 ? 65536 : ps >= 512 ? ps : 4096;
}

/* Damages a copy of `buf` (n bytes, *out_n after) in one of several ways,
 * described in `what`. */
static char *damage(const char *buf, size_t n, size_t *out_n, uint64_t *r,
                    bool is_wal, char *what, size_t cap)
{
    size_t size = n + 10001;
    char *b = malloc(size);
    assert_non_null(b);
    memcpy(b, buf, n);
    *out_n = n;
    unsigned kind = (unsigned)(ck_rand(r) % 6);
    size_t ps = is_wal ? 4096 : page_size(buf, n);
    switch (kind) {
    case 0: {
        size_t k = 1 + ck_rand(r) % 16;
        for (size_t i = 0; i < k && n > 0; i++) {
            size_t at = ck_rand(r) % n;
            b[at] ^= (char)(1 + ck_rand(r) % 255);
        }
        snprintf(what, cap, "%zu bytes flipped", k);
        break;
    }
    case 1: {
        size_t pages = n / ps, k = 1 + ck_rand(r) % 3;
        for (size_t i = 0; i < k && pages > 0; i++) {
            size_t p = ck_rand(r) % pages;
            memset(b + p * ps, 0, ps);
        }
        snprintf(what, cap, "%zu pages zeroed", k);
        break;
    }
    case 2:
        *out_n = n > 0 ? ck_rand(r) % n : 0;
        snprintf(what, cap, "truncated to %zu bytes", *out_n);
        break;
    case 3: {
        size_t k = 1 + ck_rand(r) % 10000;
        for (size_t i = 0; i < k; i++)
            b[n + i] = (char)ck_rand(r);
        *out_n = n + k;
        snprintf(what, cap, "%zu bytes of garbage appended", k);
        break;
    }
    case 4: {
        size_t k = 1 + ck_rand(r) % 4;
        for (size_t i = 0; i < k && n >= 100; i++)
            b[ck_rand(r) % (is_wal ? 32 : 100)] ^= (char)(1 +
                                                          ck_rand(r) % 255);
        snprintf(what, cap, "%zu header bytes flipped", k);
        break;
    }
    default: {
        /* One byte somewhere in every page: damage everywhere at once. */
        for (size_t p = 0; p + ps <= n; p += ps)
            if (ck_rand(r) % 4 == 0)
                b[p + ck_rand(r) % ps] ^= (char)(1 + ck_rand(r) % 255);
        snprintf(what, cap, "a byte in a quarter of the pages flipped");
    }
    }
    return b;
}

/* A SQLite database of another application; `forged` claims to be a
 * lake (application id and format) without being one. */
static void foreign_db(const char *dir, bool forged)
{
    char *p = lakedir_join(dir, "lake.sqlite");
    assert_int_equal(lakedir_sql_exec(p, forged
        ? "PRAGMA application_id = 1346978130; PRAGMA user_version = 4; "
          "CREATE TABLE _pier_meta(key TEXT, value TEXT);"
          "INSERT INTO _pier_meta VALUES ('catalog_version', 'x');"
          "CREATE TABLE _pier_boards(board, strict, created_at);"
          "INSERT INTO _pier_boards VALUES (NULL, 'yes', 'then');"
        : "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT);"
          "INSERT INTO notes(body) VALUES ('hello'), ('world');", true), 0);
    free(p);
}

/* Makes table T take values of any type, nulls included (its STRICT and
 * NOT NULL gone from the schema), for the statements after the "@@". */
#define LOOSE(t)                                                          \
    "UPDATE sqlite_schema SET sql = replace(replace(sql, ') STRICT', ')'), " \
    "'NOT NULL', '') WHERE name = '" t "'@@"

/* Damage through SQL: the catalog's contents made wrong, one way each.
 * Each script runs on its own connection to a copy of the plain lake,
 * with checks and foreign keys off, the schema writable; a "@@" reopens
 * the connection (to read a schema just rewritten). */
static const char *const catalog_damage[] = {
    "UPDATE _pier_columns SET type = 'bogus' WHERE name = 'title'",
    "UPDATE _pier_columns SET type = '' WHERE name = 'n'",
    "UPDATE _pier_columns SET type = 'decimal(99,99)' WHERE name = 'price'",
    "UPDATE _pier_columns SET type = 'text' || replace(zeroblob(5000), "
    "x'00', '[]') WHERE name = 'tags'",
    "UPDATE _pier_columns SET type = 'enum(' || replace(zeroblob(3000), "
    "x'00', '''a'',') || '''b'')' WHERE name = 'e'",
    "UPDATE _pier_columns SET type = 'timestamp' WHERE name = 'title'",
    "UPDATE _pier_columns SET type = 'json' WHERE name = 'n'",
    "UPDATE _pier_columns SET type = 'hugeint' WHERE name = 'title'",
    "UPDATE _pier_columns SET type = 'uuid' WHERE name = 'title'",
    "UPDATE _pier_columns SET name = '' WHERE name = 'title'",
    "UPDATE _pier_columns SET name = 'a\"b' WHERE name = 'title'",
    "UPDATE _pier_columns SET name = replace(zeroblob(10000), x'00', 'n') "
    "WHERE name = 'title'",
    "UPDATE _pier_columns SET name = '_v' WHERE name = 'title'",
    "UPDATE _pier_columns SET origin = 'weird' WHERE name = 'n'",
    "UPDATE _pier_columns SET position = 1000 WHERE name = 'n'",
    "UPDATE _pier_columns SET position = -5 WHERE name = 'n'",
    "DELETE FROM _pier_columns WHERE name = 'id' AND board = 'tasks'",
    LOOSE("_pier_columns")
    "UPDATE _pier_columns SET name = NULL WHERE name = 'title'",
    LOOSE("_pier_columns")
    "UPDATE _pier_columns SET type = NULL, origin = 5 WHERE name = 'n'",
    LOOSE("_pier_columns")
    "UPDATE _pier_columns SET type = x'ff00' WHERE name = 'n'",
    LOOSE("_pier_boards")
    "UPDATE _pier_boards SET strict = 'yes', created_at = 'then'",
    "DELETE FROM _pier_columns WHERE name = 'title'",
    "INSERT INTO _pier_columns(board, position, name, type, origin) "
    "VALUES ('tasks', 99, 'phantom', 'bigint', 'declared')",
    "UPDATE _pier_boards SET board = 'x\"y; --' WHERE board = 'tasks'",
    LOOSE("_pier_boards") "UPDATE _pier_boards SET board = NULL",
    LOOSE("_pier_boards")
    "UPDATE _pier_boards SET board = x'7400' WHERE board = 'tasks'",
    "UPDATE _pier_boards SET board = 'UPPER' WHERE board = 'tasks'",
    "UPDATE _pier_boards SET board = '' WHERE board = 'tasks'",
    "UPDATE _pier_boards SET board = replace(zeroblob(300), x'00', 'b') "
    "WHERE board = 'tasks'",
    "UPDATE _pier_boards SET strict = 7, created_at = -9223372036854775808",
    "UPDATE _pier_boards SET created_at = 9223372036854775807",
    "INSERT INTO _pier_boards(board, strict, created_at) VALUES ('ghost', 0, 0)",
    "INSERT INTO _pier_boards(board, strict, created_at) VALUES ('ghost', 0, 0);"
    "INSERT INTO _pier_columns(board, position, name, type, origin) VALUES "
    "('ghost', 0, 'id', 'text', 'base'), ('ghost', 1, 'updated_at', "
    "'timestamp', 'base'), ('ghost', 2, 'state', 'text', 'base')",
    "DROP TABLE \"_pier_b_tasks\"",
    "ALTER TABLE \"_pier_b_tasks\" DROP COLUMN title",
    "ALTER TABLE \"_pier_b_tasks\" RENAME COLUMN title TO other",
    "ALTER TABLE \"_pier_b_tasks\" ADD COLUMN surprise ANY",
    "UPDATE \"_pier_b_tasks\" SET n = 'not a number', d = x'00ff', "
    "ok = 'maybe', j = 'not json', h = 'huge?', title = x'c328'",
    "UPDATE \"_pier_b_tasks\" SET n = 1e308, d = 'x', ok = 2, j = 5, "
    "h = -1.5",
    "UPDATE \"_pier_b_tasks\" SET updated_at = -9223372036854775808",
    LOOSE("_pier_b_tasks")
    "UPDATE \"_pier_b_tasks\" SET updated_at = 9223372036854775807, "
    "state = 5",
    LOOSE("_pier_b_tasks")
    "UPDATE \"_pier_b_tasks\" SET updated_at = 'yesterday', _v = 'v'",
    LOOSE("_pier_b_tasks")
    "UPDATE \"_pier_b_tasks\" SET id = NULL WHERE rowid % 2 = 0",
    "UPDATE \"_pier_b_typed\" SET price = 'abc', u = 'nope', e = 'z', "
    "tags = '[1,', at = 'then'",
    "UPDATE \"_pier_b_typed\" SET price = 12, u = x'00', e = 3.5, "
    "tags = '{\"a\":1}', at = 1e300",
    "UPDATE \"_pier_b_typed\" SET at = -9223372036854775808",
    "UPDATE _pier_changes SET payload = 'not json'",
    "UPDATE _pier_changes SET payload = '{\"rows\":5}', kind = 'bogus'",
    "UPDATE _pier_changes SET payload = ''",
    "UPDATE _pier_changes SET committed_at = 9223372036854775807",
    "UPDATE _pier_changes SET committed_at = -9223372036854775808",
    LOOSE("_pier_changes")
    "UPDATE _pier_changes SET board = NULL, kind = NULL, payload = NULL",
    LOOSE("_pier_changes")
    "UPDATE _pier_changes SET payload = x'00ff', kind = 5, board = 1.5, "
    "committed_at = 'then'",
    "UPDATE _pier_changes SET watermark = -watermark",
    "UPDATE _pier_changes SET stamp = 9223372036854775807",
    LOOSE("_pier_changes") "UPDATE _pier_changes SET stamp = 'later'",
    "UPDATE _pier_meta SET value = 'abc'",
    "UPDATE _pier_meta SET value = -9223372036854775808",
    "UPDATE _pier_meta SET value = 9223372036854775807",
    "DELETE FROM _pier_meta",
    "UPDATE sqlite_sequence SET seq = 0",
    "UPDATE sqlite_sequence SET seq = 9223372036854775807",
    "DELETE FROM sqlite_sequence",
    "UPDATE _pier_table_columns SET type = 'NOPE' WHERE name = 'price'",
    "UPDATE _pier_table_columns SET type = 'DECIMAL(99,99)' "
    "WHERE name = 'price'",
    LOOSE("_pier_table_columns")
    "UPDATE _pier_table_columns SET name = NULL, type = NULL, "
    "readonly = 'no'",
    "UPDATE _pier_table_columns SET position = position * -1",
    "DELETE FROM _pier_table_columns WHERE name = 'id'",
    "UPDATE _pier_tables SET name = 'renamed'",
    LOOSE("_pier_tables") "UPDATE _pier_tables SET name = NULL",
    "DELETE FROM _pier_tables",
    "DELETE FROM _pier_schema",
    "UPDATE _pier_schema SET sql = 'CREATE TABLE nonsense'",
    "DROP TABLE items",
    LOOSE("items")
    "UPDATE items SET price = 'abc', at = 'never', tags = '[1', "
    "name = replace(zeroblob(100), x'00', 'n')",
    LOOSE("items")
    "UPDATE items SET price = 1e300, at = -9223372036854775808, tags = 5",
    "DROP TABLE _pier_changes",
    "DROP TABLE _pier_columns",
    "DROP TABLE _pier_meta",
    "DROP TABLE _pier_tables",
    "PRAGMA user_version = 99",
    "PRAGMA user_version = 0",
    "PRAGMA user_version = 1",
    "PRAGMA user_version = -1",
    "PRAGMA application_id = 0",
    "PRAGMA application_id = 7",
    "CREATE TABLE intruder(x); CREATE INDEX intruder_x ON intruder(x)",
    "UPDATE sqlite_schema SET sql = replace(sql, 'STRICT', '') "
    "WHERE name = '_pier_columns'",
    "UPDATE sqlite_schema SET sql = 'CREATE TABLE _pier_boards(board)' "
    "WHERE name = '_pier_boards'",
};
#define NCATALOG_DAMAGE (sizeof catalog_damage / sizeof catalog_damage[0])

static bool damage_catalog(const char *dir, const char *script)
{
    char *p = lakedir_join(dir, "lake.sqlite");
    bool ok = true;
    for (const char *part = script; ok && part != NULL;) {
        const char *bar = strstr(part, "@@");
        int n = bar != NULL ? (int)(bar - part) : (int)strlen(part);
        char *full = sqlite3_mprintf("PRAGMA foreign_keys = OFF; "
                                     "PRAGMA ignore_check_constraints = ON; "
                                     "PRAGMA writable_schema = ON; %.*s;", n,
                                     part);
        sqlite3 *db = NULL;
        ok = sqlite3_open_v2(p, &db, SQLITE_OPEN_READWRITE, NULL) ==
                 SQLITE_OK &&
             sqlite3_exec(db, full, NULL, NULL, NULL) == SQLITE_OK;
        if (!ok)
            print_error("catalog damage '%s' did not apply: %s\n", script,
                        sqlite3_errmsg(db));
        sqlite3_close(db);
        sqlite3_free(full);
        part = bar != NULL ? bar + 2 : NULL;
    }
    free(p);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Running a trial                                                      */

/* Runs `pier ARGS` on `dir`: it must exit 0 or 1 (with a tagged error
 * line), never by a signal or a sanitizer's report. */
static bool run_cli(const char *dir, const char *const *args,
                    const char *what)
{
    const char *pier = getenv("PIER_BINARY");
    if (pier == NULL)
        return true;
    char *err_path = lakedir_join(dir, "cli.err");
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const char *argv[16] = { "pier", "--data", dir };
        size_t n = 3;
        for (size_t i = 0; args[i] != NULL && n < 15; i++)
            argv[n++] = args[i];
        argv[n] = NULL;
        if (freopen("/dev/null", "r", stdin) == NULL ||
            freopen("/dev/null", "w", stdout) == NULL ||
            freopen(err_path, "w", stderr) == NULL)
            _exit(120);
        alarm(CHILD_ALARM_S);
        execv(pier, (char *const *)argv);
        _exit(121);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    size_t n = 0;
    char *err = lakedir_read_file(err_path, &n);
    free(err_path);
    bool ok = WIFEXITED(status) &&
              (WEXITSTATUS(status) == 0 ||
               (WEXITSTATUS(status) == 1 && err != NULL &&
                strncmp(err, "pier: error: ", 13) == 0 &&
                strstr(err, "Sanitizer") == NULL &&
                strstr(err, "runtime error") == NULL));
    if (!ok)
        print_error("%s: pier %s: status %d, stderr: %s\n", what, args[0],
                    status, err ? err : "(none)");
    free(err);
    return ok;
}

/* Runs `count` of the commands below on `dir`, starting at `first`
 * (rotating). */
static bool cli_trial(const char *dir, const char *what, size_t first,
                      size_t count)
{
    static const char *const commands[][6] = {
        { "boards", NULL },
        { "stats", NULL },
        { "dump", "tasks", NULL },
        { "get", "tasks", "t0_005", NULL },
        { "changes", "tasks", "--after", "0", NULL },
        { "query", "typed", "SELECT * FROM {{board}}", NULL },
        { "schema", "dump", NULL },
        { "sql", "SELECT * FROM items", NULL },
        { "insert", "tasks", "{\"id\":\"cli\"}", NULL },
        { "maintain", "--older-than-hours", "0", NULL },
    };
    const size_t n = sizeof commands / sizeof commands[0];
    bool ok = true;
    for (size_t i = 0; i < count && i < n; i++)
        ok = run_cli(dir, commands[(first + i) % n], what) && ok;
    return ok;
}

/* Runs exercise() on `dir` in a child; *refused (may be NULL) tells
 * whether pier_open refused the lake. */
static bool exercise_in_child(const char *dir, const char *what,
                              bool *refused)
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(CHILD_ALARM_S);
        bool opened = exercise(dir);
        _exit(bad_statuses != 0 ? 3 : opened ? 0 : 10);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (WIFEXITED(status) &&
        (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 10)) {
        if (refused != NULL)
            *refused = WEXITSTATUS(status) == 10;
        return true;
    }
    if (WIFSIGNALED(status))
        print_error("%s: the process died of signal %d%s\n", what,
                    WTERMSIG(status),
                    WTERMSIG(status) == SIGALRM ? " (it hung)" : "");
    else
        print_error("%s: the process exited with %d%s\n", what,
                    WEXITSTATUS(status),
                    WEXITSTATUS(status) == 3 ? " (a call failed without "
                                               "a proper status)"
                                             : " (a sanitizer report?)");
    return false;
}

/* Copies the lake files of `from` (the log too, when there is one) into
 * a new directory `to`. */
static void copy_lake(const char *from, const char *to)
{
    static const char *const names[] = { "lake.sqlite", "lake.sqlite-wal" };
    assert_int_equal(mkdir(to, 0700), 0);
    for (size_t i = 0; i < 2; i++) {
        char *a = lakedir_join(from, names[i]), *b = lakedir_join(to,
                                                                 names[i]);
        size_t n = 0;
        char *bytes = lakedir_read_file(a, &n);
        if (bytes != NULL)
            assert_int_equal(lakedir_write_file(b, bytes, n), 0);
        free(bytes);
        free(a);
        free(b);
    }
}

static void fresh_dir(const char *dir)
{
    assert_int_equal(lakedir_remove_tree(dir), 0);
    assert_int_equal(mkdir(dir, 0700), 0);
}

/* Whole-file cases: an empty lake file is a lake whose creation
 * crashed, made anew; a directory in the lake file's place, or a log
 * beside no lake, is refused or ignored. */
static void odd_files_are_survived(void **state)
{
    (void)state;
    char *root = lakedir_make(), *dir = lakedir_join(root, "lake");
    char *lake = lakedir_join(dir, "lake.sqlite");
    char *wal = lakedir_join(dir, "lake.sqlite-wal");
    assert_non_null(wal);
    pier_engine *e = NULL;
    pier_error err;

    fresh_dir(dir);
    assert_int_equal(lakedir_write_file(lake, "", 0), 0);
    assert_true(exercise_in_child(dir, "an empty lake file", NULL));
    fresh_dir(dir);
    assert_int_equal(lakedir_write_file(lake, "", 0), 0);
    assert_int_equal(pier_open(&e, dir, NULL, &err), PIER_OK);
    char **list = NULL;
    assert_int_equal(pier_board_list(&list, e, &err), PIER_OK);
    assert_null(list[0]);                        /* made anew: empty */
    pier_strings_free(list);
    pier_close(&e);

    fresh_dir(dir);
    assert_int_equal(mkdir(lake, 0700), 0);
    bool refused = false;
    assert_true(exercise_in_child(dir, "a directory as the lake file",
                                  &refused));
    assert_true(refused);

    fresh_dir(dir);
    assert_int_equal(lakedir_write_file(wal, logged.wal, logged.nwal), 0);
    assert_true(exercise_in_child(dir, "a log beside no lake file", NULL));
    static const char *const boards[] = { "boards", NULL };
    assert_true(run_cli(dir, boards, "a log beside no lake file"));

    lakedir_remove_tree(root);
    free(wal);
    free(lake);
    free(dir);
    free(root);
}

static void catalog_damage_is_survived(void **state)
{
    (void)state;
    make_templates();
    char *root = lakedir_make(), *dir = lakedir_join(root, "lake");
    assert_non_null(dir);
    int failures = 0;
    for (size_t i = 0; i < NCATALOG_DAMAGE; i++) {
        fresh_dir(dir);
        assert_int_equal(write_files(dir, plain.db, plain.ndb, NULL, 0), 0);
        char what[400];
        snprintf(what, sizeof what, "catalog damage %zu (%.300s)", i,
                 catalog_damage[i]);
        if (!damage_catalog(dir, catalog_damage[i])) {
            failures++;
            continue;
        }
        /* The command first: exercise() may write to the lake. */
        if (!cli_trial(dir, what, i * 2, 2) ||
            !exercise_in_child(dir, what, NULL))
            failures++;
    }
    print_message("%zu kinds of catalog damage, %d failed\n",
                  NCATALOG_DAMAGE, failures);
    assert_int_equal(failures, 0);
    lakedir_remove_tree(root);
    free(dir);
    free(root);
}

static void random_damage_is_survived(void **state)
{
    (void)state;
    uint64_t seed = ck_seed(20261130);
    long trials = ck_env_long("PIER_CORRUPT_TRIALS", 150);
    /* To repeat one trial of a run: PIER_CORRUPT_FIRST=N skips the ones
     * before it (their damage is still drawn, so N's is the same). */
    long first = ck_env_long("PIER_CORRUPT_FIRST", 0);
    uint64_t r = seed * 2 + 1;
    char *root = lakedir_make(), *dir = lakedir_join(root, "lake");
    assert_non_null(dir);
    int failures = 0, refused = 0;
    double started = ck_now_s();
    for (long t = 0; t < trials; t++) {
        fresh_dir(dir);
        char what[320], how[128] = "";
        unsigned kind = (unsigned)(ck_rand(&r) % 10);
        size_t n = 0, nw = 0;
        char *db = NULL, *wal = NULL;
        switch (kind) {
        case 0: case 1: case 2: case 3:            /* the lake file */
            db = damage(plain.db, plain.ndb, &n, &r, false, how,
                        sizeof how);
            write_files(dir, db, n, NULL, 0);
            snprintf(what, sizeof what, "lake file: %s", how);
            break;
        case 4:                                    /* with its log */
            db = damage(logged.db, logged.ndb, &n, &r, false, how,
                        sizeof how);
            write_files(dir, db, n, logged.wal, logged.nwal);
            snprintf(what, sizeof what, "lake file beside its log: %s",
                     how);
            break;
        case 5: case 6:                            /* the log */
            wal = damage(logged.wal, logged.nwal, &nw, &r, true, how,
                         sizeof how);
            write_files(dir, logged.db, logged.ndb, wal, nw);
            snprintf(what, sizeof what, "log: %s", how);
            break;
        case 7: {                                  /* both, or a stranger */
            unsigned which = (unsigned)(ck_rand(&r) % 3);
            if (which == 0) {
                write_files(dir, logged.db, logged.ndb, other_log.wal,
                            other_log.nwal);
                snprintf(what, sizeof what, "another lake's log");
            } else {
                db = damage(logged.db, logged.ndb, &n, &r, false, how,
                            sizeof how);
                char how2[128];
                wal = damage(logged.wal, logged.nwal, &nw, &r, true, how2,
                             sizeof how2);
                write_files(dir, db, n, wal, nw);
                snprintf(what, sizeof what, "lake file: %s; log: %s", how,
                         how2);
            }
            break;
        }
        default: {                                 /* foreign files */
            unsigned which = (unsigned)(ck_rand(&r) % 6);
            static const char text[] = "name,amount\nrent,1200\n";
            char junk[4096];
            for (size_t i = 0; i < sizeof junk; i++)
                junk[i] = (char)ck_rand(&r);
            switch (which) {
            case 0: foreign_db(dir, false); break;
            case 1: foreign_db(dir, true); break;
            case 2: write_files(dir, text, sizeof text - 1, NULL, 0); break;
            case 3: write_files(dir, junk, sizeof junk, NULL, 0); break;
            case 4: write_files(dir, self_exe, nself, NULL, 0); break;
            default: write_files(dir, plain.db, 50, NULL, 0); break;
            }
            static const char *const names[] = {
                "another program's SQLite database",
                "a SQLite database forged to look like a lake", "a CSV file",
                "random bytes", "an executable", "a lake's first 50 bytes",
            };
            snprintf(what, sizeof what, "%s", names[which]);
        }
        }
        free(db);
        free(wal);
        if (t < first)
            continue;
        char label[400], kept[128];
        snprintf(label, sizeof label, "seed %llu, trial %ld: %s",
                 (unsigned long long)seed, t, what);
        snprintf(kept, sizeof kept, "%s-kept", dir);
        copy_lake(dir, kept);          /* as damaged, before any write */
        bool no = false;
        bool ok = exercise_in_child(dir, label, &no);
        if (ok && t % CLI_EVERY == 0)
            ok = cli_trial(dir, label, 0, SIZE_MAX);
        failures += !ok;
        refused += ok && no;
        if (!ok) {
            char keep[128];
            snprintf(keep, sizeof keep, "/tmp/pier-corrupt-%llu-%ld",
                     (unsigned long long)seed, t);
            lakedir_remove_tree(keep);
            if (rename(kept, keep) == 0)
                print_error("  the damaged lake is kept in %s\n", keep);
        }
        lakedir_remove_tree(kept);
    }
    print_message("%ld damaged lakes (seed %llu): %d refused by pier_open, "
                  "the rest opened and read up to the damage; %d failed; "
                  "%.1f s\n", trials - first, (unsigned long long)seed,
                  refused, failures, ck_now_s() - started);
    assert_int_equal(failures, 0);
    lakedir_remove_tree(root);
    free(dir);
    free(root);
    free(plain.db);
    free(logged.db);
    free(logged.wal);
    free(other_log.db);
    free(other_log.wal);
    free(self_exe);
}

/*
 * A board's columns span several pages of _pier_columns; one of them is
 * zeroed, so that reading the catalog fails half-way. That is an error of
 * every call (ReadFailed), never a board with fewer columns, nor a read
 * that succeeds and then fails to end (WriteFailed "cannot commit", which
 * `pier query` once took for a failure of stdout and kept quiet about).
 */
static void catalog_cut_short_is_an_error(void **state)
{
    (void)state;
    char *dir = lakedir_make();
    assert_non_null(dir);
    pier_engine *e = NULL;
    pier_error err;
    must(pier_open(&e, dir, NULL, &err), &err, "open");
    enum { WIDE = 300 };
    pier_column_def cols[WIDE];
    char names[WIDE][8];
    for (int i = 0; i < WIDE; i++) {
        snprintf(names[i], sizeof names[i], "c%03d", i);
        cols[i] = (pier_column_def){ names[i], "bigint" };
    }
    pier_board_options o = PIER_BOARD_OPTIONS_INIT;
    o.columns = cols;
    o.ncolumns = WIDE;
    must(pier_board_create(NULL, e, "wide", &o, &err), &err, "create");
    pier_close(&e);

    char *lake = lakedir_join(dir, "lake.sqlite");
    char *pages = lakedir_sql_text(lake, "SELECT pageno FROM dbstat "
                                         "WHERE name = '_pier_columns' AND "
                                         "pagetype = 'leaf' ORDER BY pageno");
    assert_non_null(pages);
    int64_t ps = lakedir_sql_int(lake, "PRAGMA page_size", 4096);
    long last = 0;
    for (char *p = pages; *p != '\0'; p = strchr(p, '\n') + 1)
        last = strtol(p, NULL, 10);       /* the table's last leaf */
    size_t n = 0;
    char *bytes = lakedir_read_file(lake, &n);
    assert_non_null(bytes);
    assert_true(last > 1 && (size_t)(last * ps) <= n);
    memset(bytes + (last - 1) * ps, 0, (size_t)ps);
    assert_int_equal(lakedir_write_file(lake, bytes, n), 0);

    pier_status rc = pier_open(&e, dir, NULL, &err);
    if (rc == PIER_OK) {
        pier_board_info *info = NULL;
        rc = pier_board_describe(&info, e, "wide", &err);
        if (rc == PIER_OK)
            fail_msg("a board described with %zu of its %d columns",
                     info->ncolumns, WIDE + 3);
        assert_int_equal(rc, PIER_E_READ_FAILED);
        char **list = NULL;
        assert_int_equal(pier_board_list(&list, e, &err),
                         PIER_E_READ_FAILED);
        pier_close(&e);
    } else {
        assert_int_equal(rc, PIER_E_LAKE_UNAVAILABLE);
    }
    static const char *const query[] = { "query", "wide",
                                         "SELECT count(*) FROM {{board}}",
                                         NULL };
    assert_true(run_cli(dir, query, "a catalog cut short"));
    free(bytes);
    free(pages);
    free(lake);
    lakedir_remove_tree(dir);
    free(dir);
}

/* The check that keeps damaged documents out of JSON output accepts JSON
 * and nothing else. */
static void json_valid_accepts_json_only(void **state)
{
    (void)state;
    static const char *const good[] = {
        "{}", "[]", " 1 ", "\"\"", "null", "-0.5e+3",
        "{\"a\":[1,-2.5e3,true,false,null,\"x\\u00e9\\n\",{}]}",
        "[170141183460469231731687303715884105727]", "\"h\xc3\xa9\"",
        "-1.5e400", "9e999", "17014118346046923173168e303715884105727",
    };
    static const char *const bad[] = {
        "", " ", "{", "[1,]", "{\"a\"}", "{\"a\":}", "not json", "01", "1.",
        "-", "[1] x", "\"\x01\"", "\"\xff\"", "\"\\x\"", "\"\\u12\"",
        "{1:2}", "[\"a\" \"b\"]", "tru", "\"open",
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        if (!pier__json_valid(good[i], strlen(good[i])))
            fail_msg("refused JSON: %s", good[i]);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (pier__json_valid(bad[i], strlen(bad[i])))
            fail_msg("took for JSON: %s", bad[i]);
    char deep[6001];
    memset(deep, '[', 3000);
    memset(deep + 3000, ']', 3000);
    deep[6000] = '\0';
    assert_false(pier__json_valid(deep, 6000));         /* too deep */
    assert_false(pier__json_valid(deep + 1999, 2002)); /* 1001 deep */
    assert_true(pier__json_valid(deep + 2000, 2000));  /* 1000 deep */
    pier__buf b;
    pier__buf_init(&b);
    pier__json_embed(&b, "not json", 8);
    assert_string_equal(b.p, "\"not json\"");
    pier__buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_valid_accepts_json_only),
        cmocka_unit_test(catalog_cut_short_is_an_error),
        cmocka_unit_test(catalog_damage_is_survived),
        cmocka_unit_test(odd_files_are_survived),
        cmocka_unit_test(random_damage_is_survived),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
