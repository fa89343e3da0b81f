/*
 * workload.c: see workload.h.
 */
#include "support/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "support/faultvfs.h"
#include "support/migfiles.h"

const char *const workload_boards[] = { "a", "b", "c", "d" };
const size_t workload_nboards = sizeof workload_boards /
                                sizeof *workload_boards;

/* One second of the clocks per step. */
#define STEP_US INT64_C(1000000)

static int64_t clock_of(void *payload)
{
    const workload *w = payload;
    return w->now;
}

static void set_time(workload *w, int64_t now)
{
    w->now = now;
    faultvfs_set_clock(now / 1000);
}

pier_status workload_open(workload *w, pier_error *err)
{
    if (w->now == 0)
        set_time(w, WORKLOAD_T0);
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.durability = w->durability;
    if (w->busy_timeout_ms > 0)
        o.busy_timeout_ms = w->busy_timeout_ms;
    o.clock = clock_of;
    o.clock_payload = w;
    return pier_open(&w->e, w->dir, &o, err);
}

void workload_close(workload *w)
{
    pier_close(&w->e);
}

/* ---- helpers ---- */

static pier_status json_insert(workload *w, const char *board,
                               const char *json, int64_t *wm,
                               pier_error *err)
{
    return pier_insert_json(wm, w->e, board, json, strlen(json), err);
}

/* Rows for the row builder: ids[i] with n = ns[i] and t = ts[i] (NULL:
 * left out). */
static pier_status build(pier_rows *rows, size_t k, const char *const *ids,
                         const int64_t *ns, const char *const *ts,
                         pier_error *err)
{
    pier_status rc = PIER_OK;
    for (size_t i = 0; rc == PIER_OK && i < k; i++) {
        rc = pier_rows_add(rows, err);
        if (rc == PIER_OK)
            rc = pier_rows_set_text(rows, "id", ids[i], err);
        if (rc == PIER_OK)
            rc = pier_rows_set_int64(rows, "n", ns[i], err);
        if (rc == PIER_OK && ts != NULL && ts[i] != NULL)
            rc = pier_rows_set_text(rows, "t", ts[i], err);
    }
    return rc;
}

typedef pier_status (*rows_fn)(int64_t *, pier_engine *, const char *,
                               const pier_rows *, pier_error *);

static pier_status with_rows(workload *w, rows_fn fn, size_t k,
                             const char *const *ids, const int64_t *ns,
                             const char *const *ts, int64_t *wm,
                             pier_error *err)
{
    pier_rows *rows = pier_rows_new();
    if (rows == NULL)
        return PIER_E_OUT_OF_MEMORY;
    pier_status rc = build(rows, k, ids, ns, ts, err);
    if (rc == PIER_OK)
        rc = fn(wm, w->e, "a", rows, err);
    pier_rows_free(rows);
    return rc;
}

/* A JSON array of `k` rows "<prefix><i>" on board a, with a text long
 * enough that the batch spans several pages. */
static char *big_batch(const char *prefix, int k, const char *word)
{
    size_t cap = (size_t)k * 200 + 16, len = 0;
    char *s = malloc(cap);
    if (s == NULL)
        return NULL;
    s[len++] = '[';
    for (int i = 0; i < k; i++)
        len += (size_t)snprintf(s + len, cap - len,
                                "%s{\"id\":\"%s%03d\",\"n\":%d,\"w\":%d,"
                                "\"t\":\"%s %03d %s %s %s %s\"}",
                                i ? "," : "", prefix, i, i, i * 7, word, i,
                                word, word, word, word);
    snprintf(s + len, cap - len, "]");
    return s;
}

static pier_status exec(workload *w, const char *sql, const pier_params *p,
                        pier_error *err)
{
    return pier_exec(NULL, w->e, sql, p, err);
}

/* ---- the steps ---- */

static pier_status insert_json(workload *w, int64_t *wm, pier_error *err)
{
    return json_insert(w, "a",
                       "[{\"id\":\"a1\",\"n\":1,\"w\":10,\"t\":\"x\","
                       "\"d\":1.5},{\"id\":\"a2\",\"n\":2,\"w\":20,"
                       "\"t\":\"y\"},{\"id\":\"a3\",\"n\":3,\"w\":30,"
                       "\"doc\":{\"k\":[1,2]}}]", wm, err);
}

/* Board a's full-text index over t: every later write of a keeps it in
 * step, in the write's transaction (sqlite_fts.c). */
static pier_status fts_enable(workload *w, int64_t *wm, pier_error *err)
{
    static const char *const cols[] = { "t" };
    (void)wm;
    return pier_fts_enable(w->e, "a", cols, 1, err);
}

static pier_status insert_rows(workload *w, int64_t *wm, pier_error *err)
{
    static const char *const ids[] = { "a4", "a5" };
    static const int64_t ns[] = { 4, 5 };
    static const char *const ts[] = { "four", NULL };
    return with_rows(w, pier_insert_rows, 2, ids, ns, ts, wm, err);
}

static pier_status update_json(workload *w, int64_t *wm, pier_error *err)
{
    static const char patch[] = "{\"n\":11,\"t\":null}";
    return pier_update_json(wm, w->e, "a", "a1", patch, sizeof patch - 1,
                            err);
}

static pier_status update_many_json(workload *w, int64_t *wm,
                                    pier_error *err)
{
    static const char json[] =
        "[{\"id\":\"a2\",\"patch\":{\"n\":12}},"
        "{\"id\":\"a2\",\"patch\":{\"t\":\"z\"}},"
        "{\"id\":\"a3\",\"patch\":{\"w\":33}}]";
    return pier_update_many_json(wm, w->e, "a", json, sizeof json - 1, err);
}

static pier_status update_rows(workload *w, int64_t *wm, pier_error *err)
{
    static const char *const ids[] = { "a4" };
    static const int64_t ns[] = { 14 };
    return with_rows(w, pier_update_rows, 1, ids, ns, NULL, wm, err);
}

static pier_status upsert_json(workload *w, int64_t *wm, pier_error *err)
{
    static const char json[] = "[{\"id\":\"a1\",\"n\":21,\"w\":11},"
                               "{\"id\":\"a6\",\"n\":6,\"w\":60}]";
    return pier_upsert_json(wm, w->e, "a", json, sizeof json - 1, err);
}

static pier_status upsert_rows(workload *w, int64_t *wm, pier_error *err)
{
    static const char *const ids[] = { "a7", "a5" };
    static const int64_t ns[] = { 7, 15 };
    static const char *const ts[] = { NULL, "u" };
    return with_rows(w, pier_upsert_rows, 2, ids, ns, ts, wm, err);
}

static pier_status delete_one(workload *w, int64_t *wm, pier_error *err)
{
    return pier_delete(wm, w->e, "a", "a4", err);
}

static pier_status delete_many(workload *w, int64_t *wm, pier_error *err)
{
    static const char *const ids[] = { "a5", "missing" };
    return pier_delete_many(wm, w->e, "a", ids, 2, err);
}

static pier_status board_create(workload *w, int64_t *wm, pier_error *err)
{
    static const pier_column_def cols[] = {
        { "qty", "bigint" }, { "price", "decimal(12,2)" }, { "sku", "text" }
    };
    pier_board_options o = PIER_BOARD_OPTIONS_INIT;
    o.columns = cols;
    o.ncolumns = 3;
    o.strict = true;
    return pier_board_create(wm, w->e, "b", &o, err);
}

/* Runs `json` writes inside one transaction over a, b, c and d:
 * operations are "i" insert, "u" upsert, "p" patch (with an id), "d"
 * delete. */
typedef struct tx_op {
    char kind;
    const char *board;
    const char *id;
    const char *json;
} tx_op;

static pier_status run_tx(workload *w, const tx_op *ops, size_t n,
                          int64_t *wm, pier_error *err)
{
    static const char *const boards[] = { "a", "b", "c", "d" };
    pier_tx *tx = NULL;
    pier_status rc = pier_tx_begin(&tx, w->e, boards, 4, err);
    for (size_t i = 0; rc == PIER_OK && i < n; i++) {
        const tx_op *o = &ops[i];
        size_t len = o->json != NULL ? strlen(o->json) : 0;
        if (o->kind == 'i')
            rc = pier_tx_insert_json(tx, o->board, o->json, len, err);
        else if (o->kind == 'u')
            rc = pier_tx_upsert_json(tx, o->board, o->json, len, err);
        else if (o->kind == 'p')
            rc = pier_tx_update_json(tx, o->board, o->id, o->json, len, err);
        else
            rc = pier_tx_delete_many(tx, o->board, &o->id, 1, err);
    }
    if (tx == NULL)
        return rc;
    if (rc != PIER_OK) {
        pier_tx_rollback(tx);
        return rc;
    }
    return pier_tx_commit(wm, tx, err);
}

static pier_status tx_three_boards(workload *w, int64_t *wm, pier_error *err)
{
    static const tx_op ops[] = {
        { 'i', "b", NULL, "[{\"id\":\"b1\",\"qty\":1,\"price\":\"12.5\","
                          "\"sku\":\"x\"},{\"id\":\"b2\",\"qty\":2}]" },
        { 'p', "a", "a2", "{\"n\":22,\"t\":\"tx\"}" },
        { 'i', "c", NULL, "{\"id\":\"c1\",\"v\":true}" },
        { 'd', "a", "a3", NULL },
        { 'u', "b", NULL, "{\"id\":\"b2\",\"qty\":3,\"price\":7}" },
    };
    return run_tx(w, ops, sizeof ops / sizeof *ops, wm, err);
}

static pier_status add_column(workload *w, int64_t *wm, pier_error *err)
{
    return pier_board_add_column(wm, w->e, "b", "flag", "boolean", err);
}

static pier_status widen_numeric(workload *w, int64_t *wm, pier_error *err)
{
    return pier_board_widen_column(wm, w->e, "a", "n", "double", err);
}

static pier_status widen_text(workload *w, int64_t *wm, pier_error *err)
{
    return pier_board_widen_column(wm, w->e, "a", "w", "text", err);
}

static pier_status insert_big(workload *w, int64_t *wm, pier_error *err)
{
    char *json = big_batch("big", 150, "insert");
    if (json == NULL)
        return PIER_E_OUT_OF_MEMORY;
    pier_status rc = json_insert(w, "a", json, wm, err);
    free(json);
    return rc;
}

static pier_status truncate_board(workload *w, int64_t *wm, pier_error *err)
{
    return pier_board_truncate(wm, w->e, "c", err);
}

static pier_status exec_create(workload *w, int64_t *wm, pier_error *err)
{
    (void)wm;
    return exec(w, "CREATE TABLE t (id INT64 PRIMARY KEY, "
                "price DECIMAL(10,2) NOT NULL, name TEXT, tags TEXT[]); "
                "CREATE INDEX t_price ON t(price)", NULL, err);
}

static pier_status exec_insert(workload *w, int64_t *wm, pier_error *err)
{
    (void)wm;
    pier_params *p = pier_params_new();
    if (p == NULL)
        return PIER_E_OUT_OF_MEMORY;
    pier_status rc = pier_params_set_text(p, ":p", "3.25", err);
    if (rc == PIER_OK)
        rc = exec(w, "INSERT INTO t VALUES (1, '1.50', 'one', '[\"x\"]'), "
                  "(2, '2.00', 'two', NULL), (3, :p, 'three', NULL)", p,
                  err);
    pier_params_free(p);
    return rc;
}

static pier_status exec_alter(workload *w, int64_t *wm, pier_error *err)
{
    (void)wm;
    return exec(w, "ALTER TABLE t ADD COLUMN note VARCHAR(20)", NULL, err);
}

static pier_status exec_update(workload *w, int64_t *wm, pier_error *err)
{
    (void)wm;
    /* exact arithmetic: the statement the front-end rewrites */
    return exec(w, "UPDATE t SET note = 'n' || id, price = price * 2 + "
                "'0.01' WHERE id >= 2 AND price * 3 > 1", NULL, err);
}

static pier_status exec_delete(workload *w, int64_t *wm, pier_error *err)
{
    (void)wm;
    return exec(w, "DELETE FROM t WHERE id = 1", NULL, err);
}

static pier_status exec_create_board(workload *w, int64_t *wm,
                                     pier_error *err)
{
    (void)wm;
    return exec(w, "CREATE BOARD d (x bigint, y text)", NULL, err);
}

static pier_status insert_d(workload *w, int64_t *wm, pier_error *err)
{
    return json_insert(w, "d", "{\"id\":\"d1\",\"x\":1,\"y\":\"one\"}\n"
                       "{\"id\":\"d2\",\"x\":2}", wm, err);
}

static pier_status maintain_keep(workload *w, int64_t *wm, pier_error *err)
{
    (void)wm;
    return pier_maintain(w->e, 100000, err);
}

static pier_status drop_board(workload *w, int64_t *wm, pier_error *err)
{
    return pier_board_drop(wm, w->e, "c", err);
}

static pier_status reopen(workload *w, int64_t *wm, pier_error *err)
{
    (void)wm;
    workload_close(w);
    return workload_open(w, err);
}

static pier_status upsert_big(workload *w, int64_t *wm, pier_error *err)
{
    char *json = big_batch("big", 150, "upsert");
    if (json == NULL)
        return PIER_E_OUT_OF_MEMORY;
    pier_status rc = pier_upsert_json(wm, w->e, "a", json, strlen(json),
                                      err);
    free(json);
    return rc;
}

static pier_status compact(workload *w, int64_t *wm, pier_error *err)
{
    (void)wm;
    int64_t reclaimed = -1;
    return pier_compact(&reclaimed, w->e, "a", err);
}

static pier_status delete_big(workload *w, int64_t *wm, pier_error *err)
{
    char ids[100][8];
    const char *ptrs[100];
    for (int i = 0; i < 100; i++) {
        snprintf(ids[i], sizeof ids[i], "big%03d", i);
        ptrs[i] = ids[i];
    }
    return pier_delete_many(wm, w->e, "a", ptrs, 100, err);
}

static pier_status exec_script(workload *w, int64_t *wm, pier_error *err)
{
    (void)wm;
    return exec(w, "BEGIN; "
                "INSERT INTO t VALUES (10, '1.00', 'ten', NULL, 'x'); "
                "UPDATE t SET name = 'TWO' WHERE id = 2; COMMIT; "
                "ALTER TABLE t RENAME COLUMN note TO memo", NULL, err);
}

/* Migrations: a declaration made, rows written, then evolved by metadata,
 * proved and build steps in one transaction. */
static const char migrate_v1[] =
    "CREATE TABLE m (id INT64 PRIMARY KEY, s ENUM('a', 'b') NOT NULL, "
    "note TEXT, k INT64, made INSTANT NOT NULL DEFAULT now());"
    "CREATE INDEX m_s ON m (s);"
    "CREATE VIEW m_notes (id INT64, note TEXT) AS SELECT id, note FROM m;"
    "CREATE BOARD mb (kind text);"
    "CREATE TABLE h (id INT64 PRIMARY KEY, v TEXT)";
static const char migrate_v2[] =
    "CREATE TABLE mm RENAMED FROM m (id INT64 PRIMARY KEY AUTOINCREMENT, "
    "s ENUM('a', 'b', 'c') NOT NULL DEFAULT 'c', memo TEXT RENAMED FROM "
    "note, k INT64 NOT NULL, made INSTANT NOT NULL DEFAULT now(), "
    "state TEXT NOT NULL DEFAULT 'new' BACKFILL 'old', "
    "seen INSTANT NOT NULL BACKFILL now());"
    "CREATE UNIQUE INDEX m_k ON mm (k);"
    "CREATE VIEW m_notes (id INT64, memo TEXT) AS SELECT id, memo FROM mm;"
    "CREATE BOARD mb (kind text, n bigint);"
    "CREATE TABLE h (id INT64 PRIMARY KEY, v TEXT)";

static pier_status migrate_create(workload *w, int64_t *wm, pier_error *err)
{
    return pier_migrate(wm, w->e, migrate_v1, strlen(migrate_v1), NULL,
                        NULL, err);
}

static pier_status migrate_rows(workload *w, int64_t *wm, pier_error *err)
{
    (void)wm;
    return exec(w, "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 "
                "FROM r WHERE i < 50) INSERT INTO m(id, s, note, k) "
                "SELECT i, 'a', 'n' || i, i FROM r", NULL, err);
}

static pier_status migrate_evolve(workload *w, int64_t *wm, pier_error *err)
{
    return pier_migrate(wm, w->e, migrate_v2, strlen(migrate_v2), NULL,
                        NULL, err);
}

/* A changeset applied (pier_changeset_apply): the insert of (7, 'x')
 * into h, in SQLite's changeset format. */
static pier_status changeset_apply(workload *w, int64_t *wm, pier_error *err)
{
    (void)wm;
    static const unsigned char insert[] = {
        'T', 2, 1, 0, 'h', 0,              /* table h: id (the key), v */
        18, 0,                             /* INSERT, direct */
        1, 0, 0, 0, 0, 0, 0, 0, 7,         /* id 7 */
        3, 1, 'x',                         /* v 'x' */
    };
    pier_apply_options o = PIER_APPLY_OPTIONS_INIT;
    pier_apply_result r;
    return pier_changeset_apply(&r, w->e, insert, sizeof insert, &o, err);
}

/* Versioned migration files (support/migfiles.h) in the lake's directory:
 * each step first writes the files it runs on, so that it also runs on a
 * copy of the lake alone (test_iofault). */
static pier_status files_up(workload *w, size_t nfiles, bool create,
                            int64_t *wm, pier_error *err)
{
    char *dir = migfiles_dir_of(w->dir);
    if (dir == NULL)
        return PIER_E_OUT_OF_MEMORY;
    pier_status rc = migfiles_write(dir, nfiles, create, err);
    if (rc == PIER_OK)
        rc = pier_migration_files_up(wm, w->e, dir, NULL, err);
    free(dir);
    return rc;
}

static pier_status files_down(workload *w, size_t nfiles, int64_t *wm,
                              pier_error *err)
{
    char *dir = migfiles_dir_of(w->dir);
    if (dir == NULL)
        return PIER_E_OUT_OF_MEMORY;
    pier_status rc = migfiles_write(dir, nfiles, false, err);
    if (rc == PIER_OK)
        rc = pier_migration_files_down(wm, w->e, dir, NULL, err);
    free(dir);
    return rc;
}

/* The ups: step files_up_to makes the first two files as `pier migrations
 * new` makes files and applies them (up to version 1: a table, its rows);
 * files_up_all applies the rows again, an index, the irreversible bump
 * and a column added in a BEGIN ... COMMIT; files_up_again the column
 * again. An up applies each version in a transaction of its own: part p
 * of the step (workload_run_part) applies its p-th version alone. */
enum {
    UP_TO_FIRST = 0, UP_TO_LAST = 1,
    UP_ALL_FIRST = 1, UP_ALL_LAST = MIGFILES_PER_GEN - 1,
    UP_AGAIN_LAST = MIGFILES_PER_GEN - 1
};

static pier_status files_up_to(workload *w, int64_t *wm, pier_error *err)
{
    return files_up(w, UP_TO_LAST + 1, true, wm, err);
}

static pier_status files_up_to_part(workload *w, size_t p, int64_t *wm,
                                    pier_error *err)
{
    return files_up(w, UP_TO_FIRST + p + 1, true, wm, err);
}

/* Rolls back the rows. */
static pier_status files_down_rows(workload *w, int64_t *wm,
                                   pier_error *err)
{
    return files_down(w, UP_TO_LAST + 1, wm, err);
}

static pier_status files_up_all(workload *w, int64_t *wm, pier_error *err)
{
    return files_up(w, UP_ALL_LAST + 1, false, wm, err);
}

static pier_status files_up_all_part(workload *w, size_t p, int64_t *wm,
                                     pier_error *err)
{
    return files_up(w, UP_ALL_FIRST + p + 1, false, wm, err);
}

/* Rolls back the column. */
static pier_status files_down_note(workload *w, int64_t *wm,
                                   pier_error *err)
{
    return files_down(w, MIGFILES_PER_GEN, wm, err);
}

/* The bump is irreversible: down is refused and changes nothing, which
 * is this step's success. */
static pier_status files_down_refused(workload *w, int64_t *wm,
                                      pier_error *err)
{
    pier_status rc = files_down(w, MIGFILES_PER_GEN, wm, err);
    if (rc == PIER_E_MIGRATION_REFUSED)
        return PIER_OK;
    if (rc == PIER_OK)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "the irreversible "
                          "version was rolled back");
    return rc;
}

static pier_status files_up_again(workload *w, int64_t *wm, pier_error *err)
{
    return files_up(w, UP_AGAIN_LAST + 1, false, wm, err);
}

static pier_status tx_again(workload *w, int64_t *wm, pier_error *err)
{
    static const tx_op ops[] = {
        { 'p', "b", "b1", "{\"qty\":10,\"flag\":true}" },
        { 'd', "d", "d2", NULL },
        { 'i', "a", NULL, "{\"id\":\"a8\",\"n\":8,\"w\":\"eight\"}" },
        { 'u', "d", NULL, "{\"id\":\"d3\",\"x\":3}" },
    };
    return run_tx(w, ops, sizeof ops / sizeof *ops, wm, err);
}

static pier_status maintain_expire(workload *w, int64_t *wm, pier_error *err)
{
    (void)wm;
    return pier_maintain(w->e, 0, err);
}

typedef struct step {
    const char *name;
    pier_status (*run)(workload *w, int64_t *wm, pier_error *err);
    size_t parts;              /* 0: one */
    pier_status (*part)(workload *w, size_t p, int64_t *wm,
                        pier_error *err);
} step;

static const step steps[] = {
    { "insert_json", insert_json, 0, NULL },
    { "fts_enable", fts_enable, 0, NULL },
    { "insert_rows", insert_rows, 0, NULL },
    { "update_json", update_json, 0, NULL },
    { "update_many_json", update_many_json, 0, NULL },
    { "update_rows", update_rows, 0, NULL },
    { "upsert_json", upsert_json, 0, NULL },
    { "upsert_rows", upsert_rows, 0, NULL },
    { "delete", delete_one, 0, NULL },
    { "delete_many", delete_many, 0, NULL },
    { "board_create", board_create, 0, NULL },
    { "tx", tx_three_boards, 0, NULL },
    { "add_column", add_column, 0, NULL },
    { "widen_numeric", widen_numeric, 0, NULL },
    { "widen_text", widen_text, 0, NULL },
    { "insert_big", insert_big, 0, NULL },
    { "truncate", truncate_board, 0, NULL },
    { "exec_create_table", exec_create, 0, NULL },
    { "exec_insert", exec_insert, 0, NULL },
    { "exec_alter_add", exec_alter, 0, NULL },
    { "exec_update", exec_update, 0, NULL },
    { "exec_delete", exec_delete, 0, NULL },
    { "exec_create_board", exec_create_board, 0, NULL },
    { "insert_new_board", insert_d, 0, NULL },
    { "maintain", maintain_keep, 0, NULL },
    { "drop", drop_board, 0, NULL },
    { "reopen", reopen, 0, NULL },
    { "upsert_big", upsert_big, 0, NULL },
    { "compact", compact, 0, NULL },
    { "delete_big", delete_big, 0, NULL },
    { "exec_script", exec_script, 0, NULL },
    { "migrate_create", migrate_create, 0, NULL },
    { "migrate_rows", migrate_rows, 0, NULL },
    { "migrate_evolve", migrate_evolve, 0, NULL },
    { "changeset_apply", changeset_apply, 0, NULL },
    { "files_up_to", files_up_to, UP_TO_LAST - UP_TO_FIRST + 1,
      files_up_to_part },
    { "files_down_rows", files_down_rows, 0, NULL },
    { "files_up_all", files_up_all, UP_ALL_LAST - UP_ALL_FIRST + 1,
      files_up_all_part },
    { "files_down_note", files_down_note, 0, NULL },
    { "files_down_refused", files_down_refused, 0, NULL },
    { "files_up_again", files_up_again, 0, NULL },
    { "tx_again", tx_again, 0, NULL },
    { "maintain_expire", maintain_expire, 0, NULL },
};

size_t workload_steps(void)
{
    return sizeof steps / sizeof *steps;
}

const char *workload_step_name(size_t i)
{
    return i < workload_steps() ? steps[i].name : "?";
}

size_t workload_parts(size_t i)
{
    return i < workload_steps() && steps[i].parts > 0 ? steps[i].parts : 1;
}

/* Step i, or its part p (p < 0: the whole step). */
static pier_status run(workload *w, size_t i, long p, int64_t *watermark,
                       pier_error *err)
{
    set_time(w, WORKLOAD_T0 + (int64_t)(i + 1) * STEP_US);
    int64_t wm = -1;
    pier_status rc = p >= 0 && steps[i].part != NULL
                         ? steps[i].part(w, (size_t)p, &wm, err)
                         : steps[i].run(w, &wm, err);
    if (rc == PIER_OK && wm < 0)
        wm = pier_head(w->e);
    if (watermark != NULL)
        *watermark = wm;
    return rc;
}

pier_status workload_run(workload *w, size_t i, int64_t *watermark,
                         pier_error *err)
{
    return run(w, i, -1, watermark, err);
}

pier_status workload_run_part(workload *w, size_t i, size_t p,
                              int64_t *watermark, pier_error *err)
{
    return run(w, i, (long)p, watermark, err);
}
