/*
 * soak_kill.c: SIGKILL trials across every kind of write. A writer killed
 * at any moment never loses an acknowledged write, never leaves half of
 * one, and leaves a lake that opens, passes integrity_check and whose feed
 * agrees with its rows.
 *
 * A child process writes on a lake of up to four boards (b0..b3) and two
 * declared tables (t0, t1): inserts, upserts, updates and deletes through
 * the JSON and C-batch entry points, pier_tx transactions over several
 * boards, board creation (declared columns, strict or not), drops,
 * truncates, added columns, widenings (bigint to double, to text), the SQL
 * dialect (CREATE TABLE, ALTER TABLE ADD COLUMN, INSERT, UPDATE, DELETE,
 * DROP TABLE, some scripts of two statements), pier_maintain, and
 * versioned migration files in the lake's directory (support/migfiles.h:
 * a new version written and up applied, or down, refused at an
 * irreversible version). After each call returns OK it sends the parent
 * its sequence number and watermark through a pipe. The parent kills it
 * with SIGKILL (seeded: PIER_SEED overrides) after a random number of
 * acknowledged writes (0 to 30) and a random delay (up to 5 ms), so that
 * the kill lands before, during or after the next write whatever the
 * machine's speed; one trial in ten it kills it while it opens the lake.
 * A third of the trials write with PIER_DURABILITY_NORMAL, which must
 * survive a process crash as FULL does.
 *
 * The writes are generated from a model of the lake by a deterministic
 * generator that the child and the parent share, so after each kill the
 * parent knows every acknowledged write and the one that may have been in
 * flight. Then, on the lake:
 * - it opens, and PRAGMA integrity_check says ok; pier_schema_check too;
 * - the boards (strict bits, columns, types) and their rows, and the
 *   declared tables (columns, types, rows) equal the model after every
 *   acknowledged write, either without the write in flight or with all of
 *   it (a write that appends change records committed exactly when the
 *   head moved past the last acknowledged watermark);
 * - each board rebuilt from its change feed, followed from the first trial
 *   on, equals its stored rows, updated_at included;
 * - the change records kept are exactly the watermarks from the retention
 *   floor + 1 to the head, with no gap, and a page below the floor is a
 *   resync;
 * - each migration file's record is there exactly when what its SQL does
 *   is, status agrees, and the versions applied are the acknowledged
 *   writes' (and of an up in flight, its first versions, each committed
 *   on its own); then up, run again, completes.
 * The child's clock starts each trial 100 hours after the last one, and
 * pier_maintain drops the records older than 50 hours: those of earlier
 * trials, which the parent has already followed, so the floor rises and
 * the parent's copies never need a resync.
 *
 * SOAK_TRIALS sets the number of kills (default 1000; the short run of
 * `make test` takes 30). A last round lets the writer finish and exit.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pier.h"
#include "support/crashkit.h"
#include "support/feed_model.h"
#include "support/lakedir.h"
#include "support/migfiles.h"
#include "support/write_path.h"

#define NBOARDS 4
#define NTABLES 2
#define MAX_USER_COLUMNS 8     /* a board's columns beyond the base ones */
#define MAX_EXTRA_COLUMNS 4    /* a table's columns beyond its first three */
#define FINAL_WRITES 40
/* A kill lands after up to this many acknowledged writes of a trial... */
#define MAX_ACKED 30
/* ...within this many microseconds of the last (a write takes a few
 * milliseconds in the sanitized build, durably). */
#define KILL_WITHIN_US 5000
#define HOUR_US INT64_C(3600000000)
#define TRIAL_SPAN_US (100 * HOUR_US)
#define MAINTAIN_HOURS 50
/* 2026-01-01T00:00:00Z: the child's clock in trial 0. */
#define START_US INT64_C(1767225600000000)

static const char *const board_names[NBOARDS] = { "b0", "b1", "b2", "b3" };
static const char *const table_names[NTABLES] = { "t0", "t1" };

/* ------------------------------------------------------------------ */
/* The model                                                            */

/*
 * boards: name -> {"strict": B, "cols": [[NAME, TYPE]...] (base columns
 * first), "rows": {ID: ROW}}; tables: name -> {"cols": [[NAME, TYPE]...],
 * "rows": {ID: ROW}}. A row holds its non-null columns, "id" among them
 * (a table's id as an integer, keyed by its digits); a board row leaves
 * updated_at out.
 */
typedef struct model {
    json_t *state;       /* {"boards": {...}, "tables": {...}} */
    uint64_t rng;
    int64_t seq;         /* the last write applied */
    size_t nfiles;       /* migration files written: versions 0 ..
                            nfiles - 1 (support/migfiles.h), in the
                            lake's directory; their tables (mf...) are
                            theirs, not in `state` */
    size_t applied;      /* versions applied: 0 .. applied - 1 */
} model;

static json_t *boards_of(const model *m)
{
    return json_object_get(m->state, "boards");
}

static json_t *tables_of(const model *m)
{
    return json_object_get(m->state, "tables");
}

static uint64_t roll(uint64_t *r, uint64_t n)
{
    return ck_rand(r) % n;
}

/* A fresh string value, unique to this write. */
static json_t *text_value(int64_t seq, size_t i, uint64_t *r)
{
    char s[64];
    snprintf(s, sizeof s, "v%lld_%zu_%llu", (long long)seq, i,
             (unsigned long long)roll(r, 1000));
    return json_string(s);
}

/* A value that fits a board column of `type`. Reals are exact in binary,
 * so they survive every round trip unchanged. */
static json_t *board_value(const char *type, int64_t seq, size_t i,
                           uint64_t *r)
{
    if (strcmp(type, "bigint") == 0)
        return json_integer((json_int_t)roll(r, 2001) - 1000);
    if (strcmp(type, "double") == 0)
        return json_real((double)((int64_t)roll(r, 2001) - 1000) + 0.25);
    return text_value(seq, i, r);
}

/* The k-th key of an object (jansson keeps insertion order, the same in
 * the child and the parent). */
static const char *nth_key(json_t *obj, size_t k)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        if (k-- == 0)
            return key;
    }
    return NULL;
}

/* A random existing board, or NULL. */
static const char *pick_board(const model *m, uint64_t *r)
{
    size_t n = json_object_size(boards_of(m));
    return n == 0 ? NULL : nth_key(boards_of(m), roll(r, n));
}

static const char *empty_board_slot(const model *m, uint64_t *r)
{
    size_t start = roll(r, NBOARDS);
    for (size_t i = 0; i < NBOARDS; i++) {
        const char *b = board_names[(start + i) % NBOARDS];
        if (json_object_get(boards_of(m), b) == NULL)
            return b;
    }
    return NULL;
}

/* A random row id of `rows` not in `taken` (then added to it), or NULL. */
static const char *pick_row(json_t *rows, json_t *taken, uint64_t *r)
{
    size_t n = json_object_size(rows);
    for (int tries = 0; n > 0 && tries < 8; tries++) {
        const char *id = nth_key(rows, roll(r, n));
        if (json_object_get(taken, id) == NULL) {
            json_object_set_new(taken, id, json_true());
            return id;
        }
    }
    return NULL;
}

static size_t user_columns(json_t *board)
{
    return json_array_size(json_object_get(board, "cols")) - 3;
}

static const char *col_name(json_t *cols, size_t i)
{
    return json_string_value(json_array_get(json_array_get(cols, i), 0));
}

static const char *col_type(json_t *cols, size_t i)
{
    return json_string_value(json_array_get(json_array_get(cols, i), 1));
}

/* A complete row of `board` (some columns left null), id `id`. */
static json_t *board_row(json_t *board, const char *id, int64_t seq,
                         size_t i, uint64_t *r)
{
    json_t *cols = json_object_get(board, "cols");
    json_t *row = json_pack("{s:s}", "id", id);
    if (roll(r, 3) != 0)
        json_object_set_new(row, "state",
                            json_string(roll(r, 2) ? "open" : "done"));
    for (size_t c = 3; c < json_array_size(cols); c++) {
        if (roll(r, 4) != 0)
            json_object_set_new(row, col_name(cols, c),
                                board_value(col_type(cols, c), seq, i, r));
    }
    return row;
}

/* A patch of 1 or 2 columns of `board` (a null clears one). */
static json_t *board_patch(json_t *board, int64_t seq, size_t i, uint64_t *r)
{
    json_t *cols = json_object_get(board, "cols");
    json_t *patch = json_object();
    size_t users = user_columns(board);
    size_t k = users == 0 ? 0 : 1 + roll(r, users < 2 ? 1 : 2);
    for (size_t j = 0; j < k; j++) {
        size_t c = 3 + roll(r, users);
        json_object_set_new(patch, col_name(cols, c),
                            roll(r, 4) == 0
                                ? json_null()
                                : board_value(col_type(cols, c), seq, i, r));
    }
    if (k == 0 || roll(r, 3) == 0)
        json_object_set_new(patch, "state",
                            roll(r, 4) == 0 ? json_null()
                                            : text_value(seq, i, r));
    return patch;
}

static void fresh_id(char out[32], char prefix, int64_t seq, size_t i)
{
    snprintf(out, 32, "%c%lld_%zu", prefix, (long long)seq, i);
}

/* One board step: insert, upsert, update or delete on one board. `taken`
 * holds the ids this write already touches. NULL if it cannot apply. */
static json_t *gen_board_step(const model *m, const char *op,
                              const char *name, json_t *taken, int64_t seq,
                              size_t base, uint64_t *r)
{
    json_t *board = json_object_get(boards_of(m), name);
    json_t *rows = json_object_get(board, "rows");
    json_t *w = json_pack("{s:s,s:s}", "op", op, "board", name);
    char id[32];
    if (strcmp(op, "insert") == 0 || strcmp(op, "upsert") == 0) {
        bool upsert = op[0] == 'u';
        size_t k = 1 + roll(r, upsert ? 3 : 4);
        json_t *list = json_array();
        for (size_t i = 0; i < k; i++) {
            const char *old = upsert && roll(r, 2) ? pick_row(rows, taken, r)
                                                   : NULL;
            fresh_id(id, upsert ? 'u' : 'r', seq, base + i);
            json_array_append_new(list, board_row(board, old ? old : id,
                                                  seq, base + i, r));
        }
        /* Sometimes an insert brings a new column, inferred. */
        if (!upsert && !json_is_true(json_object_get(board, "strict")) &&
            user_columns(board) < MAX_USER_COLUMNS && roll(r, 5) == 0) {
            char col[32];
            snprintf(col, sizeof col, "c%lld", (long long)seq);
            json_object_set_new(json_array_get(list, 0), col,
                                json_integer((json_int_t)roll(r, 100)));
        }
        json_object_set_new(w, "rows", list);
    } else if (strcmp(op, "update") == 0) {
        size_t k = 1 + roll(r, 3);
        json_t *list = json_array();
        for (size_t i = 0; i < k; i++) {
            const char *old = pick_row(rows, taken, r);
            if (old != NULL)
                json_array_append_new(list, json_pack(
                    "{s:s,s:o}", "id", old, "patch",
                    board_patch(board, seq, base + i, r)));
        }
        if (json_array_size(list) == 0) {
            json_decref(list);
            json_decref(w);
            return NULL;
        }
        json_object_set_new(w, "patches", list);
    } else {                                            /* delete */
        json_t *ids = json_array();
        size_t k = roll(r, 3);
        for (size_t i = 0; i < k; i++) {
            const char *old = pick_row(rows, taken, r);
            if (old != NULL)
                json_array_append_new(ids, json_string(old));
        }
        fresh_id(id, 'x', seq, base);                   /* not there */
        json_array_append_new(ids, json_string(id));
        json_object_set_new(w, "ids", ids);
    }
    return w;
}

static json_t *gen_insert(const model *m, uint64_t *r, int64_t seq)
{
    const char *name = board_names[roll(r, NBOARDS)];
    json_t *w;
    if (json_object_get(boards_of(m), name) == NULL) {
        /* The first write creates the board, its columns inferred. */
        char id[32];
        fresh_id(id, 'r', seq, 0);
        w = json_pack("{s:s,s:s,s:[{s:s,s:I,s:o}]}", "op", "insert",
                      "board", name, "rows", "id", id, "n",
                      (json_int_t)roll(r, 100), "t", text_value(seq, 0, r));
    } else {
        json_t *taken = json_object();
        w = gen_board_step(m, "insert", name, taken, seq, 0, r);
        json_decref(taken);
    }
    json_object_set_new(w, "via", json_string(roll(r, 2) ? "json" : "rows"));
    return w;
}

static json_t *gen_simple_step(const model *m, const char *op, uint64_t *r,
                               int64_t seq)
{
    const char *name = pick_board(m, r);
    if (name == NULL)
        return NULL;
    json_t *taken = json_object();
    json_t *w = gen_board_step(m, op, name, taken, seq, 0, r);
    json_decref(taken);
    if (w == NULL)
        return NULL;
    static const char *const via[] = { "json", "rows", "one" };
    size_t n = strcmp(op, "update") == 0 &&
               json_array_size(json_object_get(w, "patches")) == 1 ? 3 : 2;
    json_object_set_new(w, "via", json_string(via[roll(r, n)]));
    return w;
}

static json_t *gen_tx(const model *m, uint64_t *r, int64_t seq)
{
    size_t nb = json_object_size(boards_of(m));
    if (nb < 2)
        return NULL;
    json_t *names = json_array(), *steps = json_array();
    size_t k = 2 + roll(r, nb - 1 < 2 ? 1 : 2);
    for (size_t start = roll(r, nb), i = 0; i < k; i++)
        json_array_append_new(names, json_string(nth_key(
                                         boards_of(m), (start + i) % nb)));
    json_t *taken = json_object();             /* board -> ids */
    static const char *const ops[] = { "insert", "upsert", "update",
                                       "delete" };
    size_t nsteps = k + roll(r, 3);
    for (size_t s = 0; s < nsteps; s++) {
        const char *name = json_string_value(json_array_get(names, s % k));
        json_t *t = json_object_get(taken, name);
        if (t == NULL) {
            t = json_object();
            json_object_set_new(taken, name, t);
        }
        json_t *step = gen_board_step(m, ops[roll(r, 4)], name, t, seq,
                                      s * 10, r);
        if (step != NULL) {
            json_object_set_new(step, "via",
                                json_string(roll(r, 2) ? "json" : "rows"));
            json_array_append_new(steps, step);
        }
    }
    json_decref(taken);
    if (json_array_size(steps) == 0) {
        json_decref(names);
        json_decref(steps);
        return NULL;
    }
    return json_pack("{s:s,s:o,s:o}", "op", "tx", "boards", names, "steps",
                     steps);
}

static json_t *gen_create(const model *m, uint64_t *r)
{
    const char *name = empty_board_slot(m, r);
    if (name == NULL)
        return NULL;
    static const char *const names[] = { "n", "t", "d" };
    static const char *const types[] = { "bigint", "text", "double" };
    json_t *cols = json_array();
    for (size_t i = 0; i < 3; i++)
        if (roll(r, 3) != 0)
            json_array_append_new(cols, json_pack("[s,s]", names[i],
                                                  types[i]));
    return json_pack("{s:s,s:s,s:b,s:o}", "op", "create", "board", name,
                     "strict", roll(r, 3) == 0, "cols", cols);
}

static json_t *gen_ddl(const model *m, const char *op, uint64_t *r,
                       int64_t seq)
{
    const char *name = pick_board(m, r);
    if (name == NULL)
        return NULL;
    json_t *board = json_object_get(boards_of(m), name);
    json_t *cols = json_object_get(board, "cols");
    if (strcmp(op, "add_column") == 0) {
        if (user_columns(board) >= MAX_USER_COLUMNS)
            return NULL;
        static const char *const types[] = { "bigint", "text", "double" };
        char col[32];
        snprintf(col, sizeof col, "a%lld", (long long)seq);
        return json_pack("{s:s,s:s,s:s,s:s}", "op", op, "board", name,
                         "column", col, "type", types[roll(r, 3)]);
    }
    if (strcmp(op, "widen") == 0) {
        for (size_t c = 3; c < json_array_size(cols); c++) {
            const char *t = col_type(cols, c);
            if (roll(r, 2) == 0 || strcmp(t, "text") == 0)
                continue;
            const char *to = strcmp(t, "bigint") == 0 && roll(r, 2)
                                 ? "double" : "text";
            return json_pack("{s:s,s:s,s:s,s:s}", "op", op, "board", name,
                             "column", col_name(cols, c), "type", to);
        }
        return NULL;
    }
    return json_pack("{s:s,s:s}", "op", op, "board", name);  /* drop... */
}

/* A decimal amount with two digits after the point, as DECIMAL(12,2)
 * reads back. */
static json_t *amount(uint64_t *r)
{
    char s[32];
    uint64_t v = roll(r, 1000000);
    snprintf(s, sizeof s, "%llu.%02llu", (unsigned long long)(v / 100),
             (unsigned long long)(v % 100));
    return json_string(s);
}

/* A statement of the SQL dialect on a declared table, with the effects
 * it has on the model. */
static json_t *gen_sql(const model *m, int kind, uint64_t *r, int64_t seq)
{
    size_t start = roll(r, NTABLES);
    const char *name = NULL;
    json_t *table = NULL;
    for (size_t i = 0; i < NTABLES; i++) {
        const char *t = table_names[(start + i) % NTABLES];
        json_t *have = json_object_get(tables_of(m), t);
        if ((kind == 0) == (have == NULL)) {
            name = t;
            table = have;
            break;
        }
    }
    if (name == NULL)
        return NULL;
    char sql[512], p[32];
    json_t *params = json_object(), *effects = json_array();
    json_t *rows = json_object_get(table, "rows");
    json_t *cols = json_object_get(table, "cols");
    switch (kind) {
    case 0:                                             /* create */
        snprintf(sql, sizeof sql, "CREATE TABLE %s (id INT64 PRIMARY KEY, "
                 "name TEXT NOT NULL, amount DECIMAL(12,2))", name);
        json_array_append_new(effects, json_pack(
            "{s:s,s:s}", "e", "create_table", "table", name));
        break;
    case 1:                                             /* add column */
        if (json_array_size(cols) >= 3 + MAX_EXTRA_COLUMNS)
            goto none;
        snprintf(sql, sizeof sql, "ALTER TABLE %s ADD COLUMN x%lld INT64",
                 name, (long long)seq);
        snprintf(p, sizeof p, "x%lld", (long long)seq);
        json_array_append_new(effects, json_pack(
            "{s:s,s:s,s:s}", "e", "add_col", "table", name, "col", p));
        break;
    case 2: {                                           /* insert */
        size_t k = 1 + roll(r, 3), len = 0;
        len += (size_t)snprintf(sql + len, sizeof sql - len,
                                "INSERT INTO %s (id, name, amount) VALUES ",
                                name);
        for (size_t i = 0; i < k; i++) {
            json_int_t id = (json_int_t)(seq * 10 + (int64_t)i);
            json_t *a = roll(r, 4) ? amount(r) : json_null();
            json_t *row = json_pack("{s:I,s:o}", "id", id, "name",
                                    text_value(seq, i, r));
            if (!json_is_null(a))
                json_object_set(row, "amount", a);
            len += (size_t)snprintf(sql + len, sizeof sql - len,
                                    "%s(:i%zu, :n%zu, :a%zu)", i ? ", " : "",
                                    i, i, i);
            snprintf(p, sizeof p, "i%zu", i);
            json_object_set_new(params, p, json_integer(id));
            snprintf(p, sizeof p, "n%zu", i);
            json_object_set(params, p, json_object_get(row, "name"));
            snprintf(p, sizeof p, "a%zu", i);
            json_object_set_new(params, p, a);
            json_array_append_new(effects, json_pack(
                "{s:s,s:s,s:o}", "e", "put", "table", name, "row", row));
        }
        /* Sometimes a second statement in the same script. */
        json_t *taken = json_object();
        const char *old = roll(r, 3) == 0 ? pick_row(rows, taken, r) : NULL;
        json_decref(taken);
        if (old != NULL) {
            snprintf(sql + len, sizeof sql - len,
                     "; UPDATE %s SET name = :un WHERE id = :ui", name);
            json_t *v = text_value(seq, 9, r);
            json_object_set(params, "un", v);
            json_object_set_new(params, "ui", json_integer(
                json_integer_value(json_object_get(json_object_get(rows, old),
                                                   "id"))));
            json_array_append_new(effects, json_pack(
                "{s:s,s:s,s:s,s:{s:o}}", "e", "set", "table", name, "key",
                old, "set", "name", v));
        }
        break;
    }
    case 3:                                             /* update */
    case 4: {                                           /* delete */
        json_t *taken = json_object();
        const char *old = pick_row(rows, taken, r);
        json_decref(taken);
        if (old == NULL)
            goto none;
        json_object_set_new(params, "id", json_integer(json_integer_value(
            json_object_get(json_object_get(rows, old), "id"))));
        if (kind == 4) {
            snprintf(sql, sizeof sql, "DELETE FROM %s WHERE id = :id", name);
            json_array_append_new(effects, json_pack(
                "{s:s,s:s,s:s}", "e", "del", "table", name, "key", old));
            break;
        }
        json_t *set = json_object();
        if (json_array_size(cols) > 3 && roll(r, 2)) {
            const char *x = col_name(cols, 3 + roll(r, json_array_size(cols)
                                                          - 3));
            snprintf(sql, sizeof sql, "UPDATE %s SET \"%s\" = :v "
                     "WHERE id = :id", name, x);
            json_t *v = json_integer((json_int_t)seq);
            json_object_set(params, "v", v);
            json_object_set_new(set, x, v);
        } else {
            snprintf(sql, sizeof sql, "UPDATE %s SET name = :n, amount = :a "
                     "WHERE id = :id", name);
            json_t *n = text_value(seq, 0, r), *a = amount(r);
            json_object_set(params, "n", n);
            json_object_set(params, "a", a);
            json_object_set_new(set, "name", n);
            json_object_set_new(set, "amount", a);
        }
        json_array_append_new(effects, json_pack(
            "{s:s,s:s,s:s,s:o}", "e", "set", "table", name, "key", old,
            "set", set));
        break;
    }
    default:                                            /* drop */
        snprintf(sql, sizeof sql, "DROP TABLE %s", name);
        json_array_append_new(effects, json_pack(
            "{s:s,s:s}", "e", "drop_table", "table", name));
    }
    return json_pack("{s:s,s:s,s:o,s:o}", "op", "sql", "script", sql,
                     "params", params, "effects", effects);
none:
    json_decref(params);
    json_decref(effects);
    return NULL;
}

/* What a down leaves applied, from `applied`: one fewer, unless the last
 * is irreversible (refused) or none is. */
static size_t after_down(size_t applied)
{
    return applied > 0 && migfiles_reversible(applied - 1) ? applied - 1
                                                           : applied;
}

/* Migration files up (a new version written first when none is pending,
 * and half the time when one is), or down. */
static json_t *gen_files(const model *m, bool up, uint64_t *r)
{
    size_t files = m->nfiles;
    if (up && (m->applied == m->nfiles || roll(r, 2) == 1))
        files++;
    return json_pack("{s:s,s:s,s:I,s:b}", "op", "files", "dir",
                     up ? "up" : "down", "files", (json_int_t)files,
                     "refused", !up && m->applied > 0 &&
                                    after_down(m->applied) == m->applied);
}

/* The next write after the model's state; *rng_after is the generator's
 * state once it is applied. Pure: the model is not changed. */
static json_t *gen(const model *m, uint64_t *rng_after)
{
    uint64_t r = m->rng;
    int64_t seq = m->seq + 1;
    json_t *w = NULL;
    while (w == NULL) {
        unsigned k = (unsigned)roll(&r, 100);
        if (k < 16)
            w = gen_insert(m, &r, seq);
        else if (k < 26)
            w = gen_simple_step(m, "upsert", &r, seq);
        else if (k < 36)
            w = gen_simple_step(m, "update", &r, seq);
        else if (k < 42)
            w = gen_simple_step(m, "delete", &r, seq);
        else if (k < 52)
            w = gen_tx(m, &r, seq);
        else if (k < 55)
            w = gen_create(m, &r);
        else if (k < 57)
            w = gen_ddl(m, "drop", &r, seq);
        else if (k < 59)
            w = gen_ddl(m, "truncate", &r, seq);
        else if (k < 62)
            w = gen_ddl(m, "add_column", &r, seq);
        else if (k < 65)
            w = gen_ddl(m, "widen", &r, seq);
        else if (k < 67)
            w = gen_sql(m, 0, &r, seq);
        else if (k < 69)
            w = gen_sql(m, 1, &r, seq);
        else if (k < 77)
            w = gen_sql(m, 2, &r, seq);
        else if (k < 82)
            w = gen_sql(m, 3, &r, seq);
        else if (k < 84)
            w = gen_sql(m, 4, &r, seq);
        else if (k < 85)
            w = gen_sql(m, 5, &r, seq);
        else if (k < 88)
            w = json_pack("{s:s}", "op", "maintain");
        else if (k < 93)
            w = gen_files(m, k < 91, &r);
        else
            w = gen_insert(m, &r, seq);
    }
    *rng_after = r;
    return w;
}

static const char *op_of(const json_t *w)
{
    return json_string_value(json_object_get(w, "op"));
}

/* Whether the write appends change records (and so moves the head). */
static bool appends_records(const json_t *w)
{
    const char *op = op_of(w);
    return strcmp(op, "sql") != 0 && strcmp(op, "maintain") != 0 &&
           strcmp(op, "files") != 0;
}

static bool is_files(const json_t *w)
{
    return strcmp(op_of(w), "files") == 0;
}

static bool files_up(const json_t *w)
{
    return strcmp(json_string_value(json_object_get(w, "dir")), "up") == 0;
}

static size_t files_of(const json_t *w)
{
    return (size_t)json_integer_value(json_object_get(w, "files"));
}

/* ---- applying a write to the model ---- */

/* Creates a board in the model: the base columns, then `cols` (a new
 * reference, taken). */
static void put_board(json_t *boards, const char *name, bool strict,
                      json_t *cols)
{
    json_t *all = json_pack("[[s,s],[s,s],[s,s]]", "id", "text",
                            "updated_at", "timestamp", "state", "text");
    json_array_extend(all, cols);
    json_decref(cols);
    json_object_set_new(boards, name, json_pack("{s:b,s:o,s:{}}", "strict",
                                                strict, "cols", all,
                                                "rows"));
}

static void apply_step(json_t *boards, const json_t *w)
{
    const char *op = op_of(w);
    const char *name = json_string_value(json_object_get(w, "board"));
    json_t *board = json_object_get(boards, name);
    size_t i;
    json_t *v;
    if (strcmp(op, "insert") == 0 || strcmp(op, "upsert") == 0) {
        if (board == NULL) {           /* created by its first write */
            put_board(boards, name, false,
                      json_pack("[[s,s],[s,s]]", "n", "bigint", "t",
                                "text"));
            board = json_object_get(boards, name);
        }
        json_t *cols = json_object_get(board, "cols");
        json_array_foreach(json_object_get(w, "rows"), i, v) {
            const char *k;
            json_t *x;
            json_object_foreach(v, k, x) {
                bool known = false;
                for (size_t c = 0; c < json_array_size(cols); c++)
                    known = known || strcmp(col_name(cols, c), k) == 0;
                if (!known)                        /* inferred */
                    json_array_append_new(cols, json_pack("[s,s]", k,
                                                          "bigint"));
            }
            json_object_set_new(json_object_get(board, "rows"),
                                json_string_value(json_object_get(v, "id")),
                                json_deep_copy(v));
        }
    } else if (strcmp(op, "update") == 0) {
        json_array_foreach(json_object_get(w, "patches"), i, v) {
            json_t *row = json_object_get(
                json_object_get(board, "rows"),
                json_string_value(json_object_get(v, "id")));
            const char *k;
            json_t *x;
            json_object_foreach(json_object_get(v, "patch"), k, x) {
                if (json_is_null(x))
                    json_object_del(row, k);
                else
                    json_object_set(row, k, x);
            }
        }
    } else {                                            /* delete */
        json_array_foreach(json_object_get(w, "ids"), i, v)
            json_object_del(json_object_get(board, "rows"),
                            json_string_value(v));
    }
}

static void apply_effect(json_t *tables, const json_t *x)
{
    const char *e = json_string_value(json_object_get(x, "e"));
    const char *name = json_string_value(json_object_get(x, "table"));
    json_t *table = json_object_get(tables, name);
    json_t *rows = json_object_get(table, "rows");
    if (strcmp(e, "create_table") == 0) {
        json_object_set_new(tables, name, json_pack(
            "{s:[[s,s],[s,s],[s,s]],s:{}}", "cols", "id", "INT64", "name",
            "TEXT", "amount", "DECIMAL(12,2)", "rows"));
    } else if (strcmp(e, "add_col") == 0) {
        json_array_append_new(json_object_get(table, "cols"), json_pack(
            "[s,s]", json_string_value(json_object_get(x, "col")),
            "INT64"));
    } else if (strcmp(e, "put") == 0) {
        json_t *row = json_object_get(x, "row");
        char key[32];
        snprintf(key, sizeof key, "%" JSON_INTEGER_FORMAT,
                 json_integer_value(json_object_get(row, "id")));
        json_object_set_new(rows, key, json_deep_copy(row));
    } else if (strcmp(e, "set") == 0) {
        json_t *row = json_object_get(
            rows, json_string_value(json_object_get(x, "key")));
        json_object_update(row, json_object_get(x, "set"));
    } else if (strcmp(e, "del") == 0) {
        json_object_del(rows, json_string_value(json_object_get(x, "key")));
    } else {                                            /* drop_table */
        json_object_del(tables, name);
    }
}

static void apply(model *m, const json_t *w, uint64_t rng_after)
{
    const char *op = op_of(w);
    json_t *boards = boards_of(m);
    const char *name = json_string_value(json_object_get(w, "board"));
    json_t *board = json_object_get(boards, name);
    size_t i;
    json_t *v;
    if (strcmp(op, "tx") == 0) {
        json_array_foreach(json_object_get(w, "steps"), i, v)
            apply_step(boards, v);
    } else if (strcmp(op, "create") == 0) {
        put_board(boards, name, json_is_true(json_object_get(w, "strict")),
                  json_deep_copy(json_object_get(w, "cols")));
    } else if (strcmp(op, "drop") == 0) {
        json_object_del(boards, name);
    } else if (strcmp(op, "truncate") == 0) {
        json_object_clear(json_object_get(board, "rows"));
    } else if (strcmp(op, "add_column") == 0) {
        json_array_append_new(json_object_get(board, "cols"), json_pack(
            "[O,O]", json_object_get(w, "column"),
            json_object_get(w, "type")));
    } else if (strcmp(op, "widen") == 0) {
        json_t *cols = json_object_get(board, "cols");
        const char *col = json_string_value(json_object_get(w, "column"));
        const char *to = json_string_value(json_object_get(w, "type"));
        for (size_t c = 0; c < json_array_size(cols); c++) {
            if (strcmp(col_name(cols, c), col) != 0)
                continue;
            char from[32];
            snprintf(from, sizeof from, "%s", col_type(cols, c));
            json_array_set_new(json_array_get(cols, c), 1, json_string(to));
            const char *id;
            json_t *row;
            json_object_foreach(json_object_get(board, "rows"), id, row) {
                json_t *x = json_object_get(row, col);
                if (x != NULL)
                    json_object_set_new(row, col,
                                        strcmp(to, "text") == 0
                                            ? fm_as_text(x, from)
                                            : fm_normalize(x, to));
            }
        }
    } else if (strcmp(op, "sql") == 0) {
        json_array_foreach(json_object_get(w, "effects"), i, v)
            apply_effect(tables_of(m), v);
    } else if (strcmp(op, "files") == 0) {
        if (files_up(w)) {
            if (files_of(w) > m->nfiles)
                m->nfiles = files_of(w);
            m->applied = m->nfiles;
        } else {
            m->applied = after_down(m->applied);
        }
    } else if (strcmp(op, "maintain") != 0) {
        apply_step(boards, w);
    }
    m->seq++;
    m->rng = rng_after;
}

/* ------------------------------------------------------------------ */
/* The child: performs the writes (no cmocka: a failure exits non-zero) */

typedef struct ack {
    int64_t seq;         /* 0: the lake is open, nothing written yet */
    int64_t watermark;   /* of a write that appends records; else 0 */
} ack;

/* Where a board step runs: on its own, or inside a transaction. */
typedef struct target {
    pier_engine *e;
    pier_tx *tx;         /* NULL: standalone */
    pier_rows *rows;     /* reused for the C-batch path */
    char *files;         /* the migration files' directory */
} target;

static char *text_of(const json_t *v)
{
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    if (s == NULL)
        _exit(4);
    return s;
}

static pier_status run_rows(target *t, const char *op, const char *board,
                            const json_t *list, int64_t *wm,
                            pier_error *err)
{
    char *text = text_of(list);
    pier_status rc = wp_rows_from_json(t->rows, text, err);
    free(text);
    if (rc != PIER_OK)
        return rc;
    if (op[0] == 'i')
        return t->tx ? pier_tx_insert_rows(t->tx, board, t->rows, err)
                     : pier_insert_rows(wm, t->e, board, t->rows, err);
    if (op[0] == 'u' && op[1] == 'p' && op[2] == 's')
        return t->tx ? pier_tx_upsert_rows(t->tx, board, t->rows, err)
                     : pier_upsert_rows(wm, t->e, board, t->rows, err);
    return t->tx ? pier_tx_update_rows(t->tx, board, t->rows, err)
                 : pier_update_rows(wm, t->e, board, t->rows, err);
}

static pier_status run_step(target *t, const json_t *w, int64_t *wm,
                            pier_error *err)
{
    const char *op = op_of(w);
    const char *board = json_string_value(json_object_get(w, "board"));
    const char *via = json_string_value(json_object_get(w, "via"));
    bool rows = via != NULL && strcmp(via, "rows") == 0;
    if (strcmp(op, "insert") == 0 || strcmp(op, "upsert") == 0) {
        json_t *list = json_object_get(w, "rows");
        if (rows)
            return run_rows(t, op, board, list, wm, err);
        char *text = text_of(list);
        size_t n = strlen(text);
        pier_status rc =
            op[0] == 'i'
                ? (t->tx ? pier_tx_insert_json(t->tx, board, text, n, err)
                         : pier_insert_json(wm, t->e, board, text, n, err))
                : (t->tx ? pier_tx_upsert_json(t->tx, board, text, n, err)
                         : pier_upsert_json(wm, t->e, board, text, n, err));
        free(text);
        return rc;
    }
    if (strcmp(op, "update") == 0) {
        json_t *patches = json_object_get(w, "patches");
        size_t i;
        json_t *p;
        if (rows) {            /* each row: the id, then the patch */
            json_t *list = json_array();
            json_array_foreach(patches, i, p) {
                json_t *row = json_pack("{s:O}", "id",
                                        json_object_get(p, "id"));
                json_object_update(row, json_object_get(p, "patch"));
                json_array_append_new(list, row);
            }
            pier_status rc = run_rows(t, op, board, list, wm, err);
            json_decref(list);
            return rc;
        }
        if (t->tx == NULL && strcmp(via, "json") == 0) {
            char *text = text_of(patches);
            pier_status rc = pier_update_many_json(wm, t->e, board, text,
                                                   strlen(text), err);
            free(text);
            return rc;
        }
        pier_status rc = PIER_OK;
        json_array_foreach(patches, i, p) {
            const char *id = json_string_value(json_object_get(p, "id"));
            char *text = text_of(json_object_get(p, "patch"));
            rc = t->tx ? pier_tx_update_json(t->tx, board, id, text,
                                             strlen(text), err)
                       : pier_update_json(wm, t->e, board, id, text,
                                          strlen(text), err);
            free(text);
            if (rc != PIER_OK)
                break;
        }
        return rc;
    }
    json_t *ids = json_object_get(w, "ids");                /* delete */
    size_t n = json_array_size(ids);
    const char *list[8];
    for (size_t i = 0; i < n && i < 8; i++)
        list[i] = json_string_value(json_array_get(ids, i));
    if (t->tx != NULL)
        return pier_tx_delete_many(t->tx, board, list, n, err);
    if (n == 1)
        return pier_delete(wm, t->e, board, list[0], err);
    return pier_delete_many(wm, t->e, board, list, n, err);
}

static pier_status run_tx(target *t, const json_t *w, int64_t *wm,
                          pier_error *err)
{
    json_t *names = json_object_get(w, "boards");
    const char *boards[NBOARDS];
    size_t n = json_array_size(names);
    for (size_t i = 0; i < n; i++)
        boards[i] = json_string_value(json_array_get(names, i));
    pier_status rc = pier_tx_begin(&t->tx, t->e, boards, n, err);
    if (rc != PIER_OK)
        return rc;
    size_t i;
    json_t *step;
    json_array_foreach(json_object_get(w, "steps"), i, step) {
        rc = run_step(t, step, NULL, err);
        if (rc != PIER_OK)
            break;
    }
    pier_tx *tx = t->tx;
    t->tx = NULL;
    if (rc != PIER_OK) {
        pier_tx_rollback(tx);
        return rc;
    }
    return pier_tx_commit(wm, tx, err);
}

static pier_status run_write(target *t, const json_t *w, int64_t *wm,
                             pier_error *err)
{
    const char *op = op_of(w);
    const char *board = json_string_value(json_object_get(w, "board"));
    *wm = 0;
    if (strcmp(op, "tx") == 0)
        return run_tx(t, w, wm, err);
    if (strcmp(op, "create") == 0) {
        json_t *cols = json_object_get(w, "cols");
        pier_column_def defs[3];
        size_t n = json_array_size(cols);
        for (size_t i = 0; i < n; i++) {
            defs[i].name = col_name(cols, i);
            defs[i].type = col_type(cols, i);
        }
        pier_board_options o = PIER_BOARD_OPTIONS_INIT;
        o.columns = defs;
        o.ncolumns = n;
        o.strict = json_is_true(json_object_get(w, "strict"));
        return pier_board_create(wm, t->e, board, &o, err);
    }
    if (strcmp(op, "drop") == 0)
        return pier_board_drop(wm, t->e, board, err);
    if (strcmp(op, "truncate") == 0)
        return pier_board_truncate(wm, t->e, board, err);
    const char *column = json_string_value(json_object_get(w, "column"));
    const char *type = json_string_value(json_object_get(w, "type"));
    if (strcmp(op, "add_column") == 0)
        return pier_board_add_column(wm, t->e, board, column, type, err);
    if (strcmp(op, "widen") == 0)
        return pier_board_widen_column(wm, t->e, board, column, type, err);
    if (strcmp(op, "maintain") == 0)
        return pier_maintain(t->e, MAINTAIN_HOURS, err);
    if (strcmp(op, "files") == 0) {
        /* The files written (a missing one made as `pier migrations new`
         * makes one), then up, or down; a down refused at an
         * irreversible version is what the model expects of it. */
        pier_status rc = migfiles_write(t->files, files_of(w), true, err);
        if (rc == PIER_OK && files_up(w))
            return pier_migration_files_up(wm, t->e, t->files, NULL, err);
        if (rc == PIER_OK)
            rc = pier_migration_files_down(wm, t->e, t->files, NULL, err);
        bool refused = json_is_true(json_object_get(w, "refused"));
        if (refused && rc == PIER_OK) {
            fprintf(stderr, "writer: an irreversible version was rolled "
                    "back\n");
            _exit(3);
        }
        if (refused && rc == PIER_E_MIGRATION_REFUSED)
            rc = PIER_OK;
        *wm = 0;
        return rc;
    }
    if (strcmp(op, "sql") == 0) {
        pier_params *params = pier_params_new();
        if (params == NULL)
            _exit(4);
        char *text = text_of(json_object_get(w, "params"));
        pier_status rc = pier_params_set_json(params, text, strlen(text),
                                              err);
        free(text);
        if (rc == PIER_OK)
            rc = pier_exec(NULL, t->e,
                           json_string_value(json_object_get(w, "script")),
                           params, err);
        pier_params_free(params);
        return rc;
    }
    return run_step(t, w, wm, err);
}

typedef struct trial_clock {
    int64_t base;
    _Atomic int64_t ticks;
} trial_clock;

static int64_t child_clock(void *payload)
{
    trial_clock *c = payload;
    return c->base + atomic_fetch_add(&c->ticks, 1);
}

/* Opens the lake and writes `limit` writes (forever if negative). */
static _Noreturn void writer(const char *dir, int trial,
                             pier_durability durability, model *m, int fd,
                             int limit)
{
    trial_clock clock = { START_US + trial * TRIAL_SPAN_US, 0 };
    pier_open_options opts = PIER_OPEN_OPTIONS_INIT;
    opts.durability = durability;
    opts.clock = child_clock;
    opts.clock_payload = &clock;
    target t = { NULL, NULL, pier_rows_new(), migfiles_dir_of(dir) };
    pier_error err;
    if (t.rows == NULL || t.files == NULL ||
        pier_open(&t.e, dir, &opts, &err) != PIER_OK) {
        fprintf(stderr, "writer: open: %s\n", err.message);
        _exit(2);
    }
    ack ready = { 0, 0 };
    ck_send(fd, &ready, sizeof ready);
    for (int i = 0; limit < 0 || i < limit; i++) {
        uint64_t rng_after = 0;
        json_t *w = gen(m, &rng_after);
        int64_t wm = 0;
        pier_status rc = run_write(&t, w, &wm, &err);
        if (rc != PIER_OK) {
            char *text = text_of(w);
            fprintf(stderr, "writer: write %lld %s: %s: %s\n",
                    (long long)m->seq + 1, text, pier_status_tag(rc),
                    err.message);
            _exit(3);
        }
        ack a = { m->seq + 1, wm };
        ck_send(fd, &a, sizeof a);
        apply(m, w, rng_after);
        json_decref(w);
    }
    pier_rows_free(t.rows);
    free(t.files);
    pier_close(&t.e);
    _exit(0);
}

/* ------------------------------------------------------------------ */
/* The parent's checks                                                  */

/* A declared table's rows as the engine returns them: id -> row, nulls
 * left out. */
static json_t *stored_table_rows(pier_engine *e, const char *table)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT * FROM \"%s\" ORDER BY id", table);
    pier_cursor *c = NULL;
    pier_error err;
    if (pier_exec(&c, e, sql, NULL, &err) != PIER_OK)
        fail_msg("reading table %s: %s: %s", table, err.tag, err.message);
    json_t *rows = json_object();
    const pier_row *row = NULL;
    while (pier_cursor_next(&row, c, &err) == PIER_OK && row != NULL) {
        char *text = pier_row_to_json(row);
        assert_non_null(text);
        json_t *obj = fm_parse(text, strlen(text));
        pier_free(text);
        json_t *clean = json_object();
        const char *k;
        json_t *v;
        json_object_foreach(obj, k, v) {
            if (!json_is_null(v))
                json_object_set(clean, k, v);
        }
        char key[32];
        snprintf(key, sizeof key, "%" JSON_INTEGER_FORMAT,
                 json_integer_value(json_object_get(obj, "id")));
        json_object_set_new(rows, key, clean);
        json_decref(obj);
    }
    assert_null(row);
    pier_cursor_close(c);
    return rows;
}

/* Everything the model describes, as the engine stores it. */
static json_t *stored_state(pier_engine *e)
{
    pier_error err;
    json_t *boards = json_object(), *tables = json_object();
    char **list = NULL;
    assert_int_equal(pier_board_list(&list, e, &err), PIER_OK);
    for (char **b = list; *b != NULL; b++) {
        pier_board_info *info = NULL;
        assert_int_equal(pier_board_describe(&info, e, *b, &err), PIER_OK);
        json_t *cols = json_array(), *types = json_object();
        for (size_t i = 0; i < info->ncolumns; i++) {
            json_array_append_new(cols, json_pack(
                "[s,s]", info->columns[i].name, info->columns[i].type));
            json_object_set_new(types, info->columns[i].name,
                                json_string(info->columns[i].type));
        }
        json_t *rows = fm_stored_rows(e, *b, types);
        const char *id;
        json_t *row;
        json_object_foreach(rows, id, row)
            json_object_del(row, "updated_at");
        json_object_set_new(boards, *b, json_pack(
            "{s:b,s:o,s:o}", "strict", info->strict, "cols", cols, "rows",
            rows));
        json_decref(types);
        pier_board_info_free(info);
    }
    pier_strings_free(list);
    assert_int_equal(pier_table_list(&list, e, &err), PIER_OK);
    for (char **t = list; *t != NULL; t++) {
        if (strncmp(*t, "mf", 2) == 0)      /* the migration files' */
            continue;
        pier_table_info *info = NULL;
        assert_int_equal(pier_table_describe(&info, e, *t, &err), PIER_OK);
        json_t *cols = json_array();
        for (size_t i = 0; i < info->ncolumns; i++)
            json_array_append_new(cols, json_pack(
                "[s,s]", info->columns[i].name, info->columns[i].type));
        json_object_set_new(tables, *t, json_pack(
            "{s:o,s:o}", "cols", cols, "rows", stored_table_rows(e, *t)));
        pier_table_info_free(info);
    }
    pier_strings_free(list);
    return json_pack("{s:o,s:o}", "boards", boards, "tables", tables);
}

/* Prints where two states differ, board by board, row by row. */
static void print_diff(const char *what, json_t *got, json_t *want)
{
    const char *k;
    json_t *v;
    json_object_foreach(want, k, v) {
        json_t *g = json_object_get(got, k);
        if (g != NULL && json_equal(g, v))
            continue;
        if (g != NULL && json_is_object(g) && json_is_object(v) &&
            json_object_get(v, "rows") != NULL) {
            char sub[128];
            snprintf(sub, sizeof sub, "%s %s", what, k);
            if (!json_equal(json_object_get(g, "cols"),
                            json_object_get(v, "cols")) ||
                !json_equal(json_object_get(g, "strict"),
                            json_object_get(v, "strict"))) {
                char *a = fm_dump(json_object_get(g, "cols"));
                char *b = fm_dump(json_object_get(v, "cols"));
                print_error("%s: columns %s, want %s\n", sub, a, b);
                free(a);
                free(b);
            }
            print_diff(sub, json_object_get(g, "rows"),
                       json_object_get(v, "rows"));
            continue;
        }
        char *a = g ? fm_dump(g) : NULL, *b = fm_dump(v);
        print_error("%s '%s': stored %s, want %s\n", what, k,
                    a ? a : "nothing", b);
        free(a);
        free(b);
    }
    json_object_foreach(got, k, v) {
        if (json_object_get(want, k) == NULL) {
            char *a = fm_dump(v);
            print_error("%s '%s': stored %s, which should not be there\n",
                        what, k, a);
            free(a);
        }
    }
}

typedef struct run {
    const char *dir;
    char *lake;
    char *files;              /* the migration files' directory */
    size_t files_partial;     /* ups in flight found applied in part */
    model model;              /* the writes known to be committed */
    int64_t last;             /* the last acknowledged watermark */
    fm_board feeds[NBOARDS];  /* each board rebuilt from its feed */
    json_t *kinds;            /* kind -> acknowledged writes */
    size_t writes, inflight_committed, opens_killed, records_followed;
    size_t watermarks_checked;
    int64_t floor;            /* the retention floor at the last check */
} run;

static void count_kind(run *r, const json_t *w, const char *suffix)
{
    char kind[64];
    const char *op = op_of(w);
    if (strcmp(op, "sql") == 0) {
        const char *script = json_string_value(json_object_get(w, "script"));
        snprintf(kind, sizeof kind, "sql %.*s%s",
                 (int)strcspn(script, " "), script, suffix);
    } else if (strcmp(op, "files") == 0) {
        snprintf(kind, sizeof kind, "files %s%s",
                 json_is_true(json_object_get(w, "refused"))
                     ? "down refused"
                     : json_string_value(json_object_get(w, "dir")),
                 suffix);
    } else {
        snprintf(kind, sizeof kind, "%s%s", op, suffix);
    }
    json_int_t n = json_integer_value(json_object_get(r->kinds, kind));
    json_object_set_new(r->kinds, kind, json_integer(n + 1));
}

/* Takes one acknowledgement: the lake is open (seq 0), or the next write
 * is done, and is applied to the model. */
static void take_ack(run *r, const ack *a, int trial, bool *ready)
{
    if (a->seq == 0) {
        *ready = true;
        return;
    }
    uint64_t rng_after = 0;
    json_t *w = gen(&r->model, &rng_after);
    if (a->seq != r->model.seq + 1)
        fail_msg("trial %d: acknowledged write %lld, expected %lld", trial,
                 (long long)a->seq, (long long)r->model.seq + 1);
    if (appends_records(w)) {
        if (a->watermark <= r->last)
            fail_msg("trial %d: write %lld acknowledged watermark %lld, not "
                     "above %lld", trial, (long long)a->seq,
                     (long long)a->watermark, (long long)r->last);
        r->last = a->watermark;
    }
    count_kind(r, w, "");
    apply(&r->model, w, rng_after);
    json_decref(w);
    r->writes++;
}

/* Reads the acknowledgements up to end of file, applying each write. */
static void read_acks(run *r, int fd, int trial, bool *ready)
{
    ack a;
    ssize_t k;
    while ((k = ck_recv(fd, &a, sizeof a)) != 0) {
        assert_int_equal(k, (ssize_t)sizeof a);
        take_ack(r, &a, trial, ready);
    }
}

/* Follows each board's feed from where the last check left it, up to
 * `head`, and compares each rebuild with the stored board. */
static void follow_feeds(run *r, pier_engine *e, int64_t head, int trial)
{
    char when[64];
    snprintf(when, sizeof when, "trial %d", trial);
    for (size_t i = 0; i < NBOARDS; i++) {
        fm_board *m = &r->feeds[i];
        for (;;) {
            pier_changes_page *page = NULL;
            pier_error err;
            assert_int_equal(pier_changes(&page, e, m->board, m->after, 0,
                                          &err), PIER_OK);
            if (page->resync)
                fail_msg("%s: board %s's feed after %lld is a resync "
                         "(from %lld)", when, m->board, (long long)m->after,
                         (long long)page->from);
            size_t n = page->nrecords;
            fm_apply_page(m, page);
            pier_changes_page_free(page);
            r->records_followed += n;
            if (n == 0)
                break;
        }
        /* Nothing else writes: the board has no record up to the head,
         * and the feed goes on from there (a floor raised past this
         * board's last record is then no resync). */
        if (m->after < head)
            m->after = head;
        fm_compare(m, e, when);
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The records kept are exactly floor + 1 .. head; below the floor a page
 * is a resync. */
static void check_watermarks(run *r, pier_engine *e, int trial)
{
    pier_error err;
    pier_stats st;
    assert_int_equal(pier_stats_get(&st, e, &err), PIER_OK);
    size_t cap = 64, n = 0;
    int64_t *wms = malloc(cap * sizeof *wms);
    assert_non_null(wms);
    for (size_t i = 0; i < NBOARDS; i++) {
        int64_t after = st.floor;
        for (;;) {
            pier_changes_page *page = NULL;
            assert_int_equal(pier_changes(&page, e, board_names[i], after,
                                          0, &err), PIER_OK);
            assert_false(page->resync);
            for (size_t j = 0; j < page->nrecords; j++) {
                if (n == cap) {
                    cap *= 2;
                    int64_t *p = realloc(wms, cap * sizeof *p);
                    assert_non_null(p);
                    wms = p;
                }
                wms[n++] = page->records[j].watermark;
            }
            size_t got = page->nrecords;
            after = page->next;
            pier_changes_page_free(page);
            if (got == 0)
                break;
        }
    }
    qsort(wms, n, sizeof *wms, cmp_i64);
    for (size_t i = 0; i < n; i++)
        if (wms[i] != st.floor + 1 + (int64_t)i)
            fail_msg("trial %d: records kept run from floor %lld to head "
                     "%lld, but watermark %lld is missing", trial,
                     (long long)st.floor, (long long)st.head,
                     (long long)(st.floor + 1 + (int64_t)i));
    if ((int64_t)n != st.head - st.floor || st.change_records != (int64_t)n)
        fail_msg("trial %d: %zu records kept (stats: %lld) between floor "
                 "%lld and head %lld", trial, n,
                 (long long)st.change_records, (long long)st.floor,
                 (long long)st.head);
    r->watermarks_checked += n;
    r->floor = st.floor;
    free(wms);
    if (st.floor > 0) {
        pier_changes_page *page = NULL;
        assert_int_equal(pier_changes(&page, e, board_names[trial % NBOARDS],
                                      st.floor - 1, 0, &err), PIER_OK);
        assert_true(page->resync);
        assert_int_equal(page->from, st.floor);
        pier_changes_page_free(page);
    }
}

/* After the writer died: the lake opens and holds the acknowledged writes
 * and the one in flight all or not at all; the feed agrees. */
static void check_lake(run *r, int trial)
{
    pier_engine *e = NULL;
    pier_error err;
    if (pier_open(&e, r->dir, NULL, &err) != PIER_OK)
        fail_msg("trial %d: the lake does not open: %s", trial, err.message);
    char *ok = ck_integrity_check(r->lake);
    if (ok == NULL || strcmp(ok, "ok\n") != 0)
        fail_msg("trial %d: integrity_check: %s", trial, ok ? ok : "failed");
    free(ok);
    if (pier_schema_check(e, &err) != PIER_OK)
        fail_msg("trial %d: %s: %s", trial, err.tag, err.message);
    int64_t head = 0;
    assert_int_equal(pier_head_from_catalog(&head, e, &err), PIER_OK);
    if (head < r->last)
        fail_msg("trial %d: head %lld is below the acknowledged watermark "
                 "%lld", trial, (long long)head, (long long)r->last);

    /* Each migration file's record is there exactly when what its SQL
     * does is, and status says so (support/migfiles.h). */
    char why[512];
    size_t applied = 0;
    if (!migfiles_check(e, r->lake, r->files, &applied, why, sizeof why))
        fail_msg("trial %d: %s", trial, why);

    /* The write in flight: with it (b) or without it (a). */
    uint64_t rng_after = 0;
    json_t *w = gen(&r->model, &rng_after);
    model with = { json_deep_copy(r->model.state), r->model.rng,
                   r->model.seq, r->model.nfiles, r->model.applied };
    apply(&with, w, rng_after);
    json_t *stored = stored_state(e);
    bool committed;
    if (appends_records(w))
        committed = head > r->last;
    else if (is_files(w))
        /* A down whole, or an up's first versions: each version commits
         * on its own. */
        committed = applied != r->model.applied &&
                    (files_up(w) ? applied > r->model.applied &&
                                       applied <= with.applied
                                 : applied == with.applied);
    else
        committed = !json_equal(stored, r->model.state) &&
                    json_equal(stored, with.state);
    if (!(committed && is_files(w)) && applied != r->model.applied)
        fail_msg("trial %d: %zu versions of migration files applied, the "
                 "acknowledged writes applied %zu", trial, applied,
                 r->model.applied);
    if (!(committed && appends_records(w)) && head != r->last)
        fail_msg("trial %d: head %lld, but the last acknowledged watermark "
                 "is %lld and the write in flight appended nothing", trial,
                 (long long)head, (long long)r->last);
    json_t *want = committed ? with.state : r->model.state;
    if (!json_equal(stored, want)) {
        char *text = fm_dump(w);
        print_error("trial %d: the write in flight was %s (%s)\n", trial,
                    text, committed ? "committed" : "not committed");
        free(text);
        print_diff("", json_object_get(stored, "boards"),
                   json_object_get(want, "boards"));
        print_diff("", json_object_get(stored, "tables"),
                   json_object_get(want, "tables"));
        fail_msg("trial %d: the lake differs from the acknowledged writes",
                 trial);
    }
    if (committed) {
        count_kind(r, w, " (in flight)");
        apply(&r->model, w, rng_after);
        if (appends_records(w))
            r->last = head;
        if (is_files(w) && applied < r->model.applied)
            r->files_partial++;
        r->model.applied = applied;
        r->inflight_committed++;
    }
    json_decref(with.state);
    json_decref(stored);
    json_decref(w);

    follow_feeds(r, e, head, trial);
    check_watermarks(r, e, trial);
    /* The files' up, run again, completes: every file written is
     * applied. */
    if (!migfiles_rerun(e, r->lake, r->files, &applied, why, sizeof why))
        fail_msg("trial %d: %s", trial, why);
    r->model.nfiles = r->model.applied = applied;
    pier_close(&e);
}

static void kill_trials(void **state)
{
    (void)state;
    uint64_t seed = ck_seed(20261130);
    long trials = ck_env_long("SOAK_TRIALS", 1000);
    uint64_t sched = seed * 2 + 1;
    double started = ck_now_s();

    run r;
    memset(&r, 0, sizeof r);
    char *dir = lakedir_make();
    assert_non_null(dir);
    r.dir = dir;
    r.lake = lakedir_join(dir, "lake.sqlite");
    r.files = migfiles_dir_of(dir);
    assert_non_null(r.files);
    r.kinds = json_object();
    r.model.state = json_pack("{s:{},s:{}}", "boards", "tables");
    r.model.rng = seed ^ UINT64_C(0x9e3779b97f4a7c15);
    for (size_t i = 0; i < NBOARDS; i++)
        fm_init(&r.feeds[i], board_names[i]);
    {
        pier_engine *e = NULL;
        pier_error err;
        assert_int_equal(pier_open(&e, dir, NULL, &err), PIER_OK);
        pier_close(&e);
    }

    size_t normal = 0;
    for (long trial = 0; trial <= trials; trial++) {
        bool last = trial == trials;
        pier_durability durability = trial % 3 == 1 ? PIER_DURABILITY_NORMAL
                                                    : PIER_DURABILITY_FULL;
        normal += durability == PIER_DURABILITY_NORMAL;
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        fflush(NULL);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(fds[0]);
            writer(dir, (int)trial, durability, &r.model, fds[1],
                   last ? FINAL_WRITES : -1);
        }
        close(fds[1]);
        bool ready = false;
        if (!last) {
            if (ck_rand(&sched) % 10 == 0) {
                /* Early: the kill may land while the lake opens. */
                ck_sleep_us((long)(ck_rand(&sched) % 4000));
            } else {
                /* After a random number of acknowledged writes, at a
                 * random moment of the next: how many writes a trial sees
                 * does not depend on how fast the machine is. */
                long want = (long)(ck_rand(&sched) % (MAX_ACKED + 1));
                for (long got = -1; got < want; got++) {   /* -1: open */
                    ack a;
                    if (ck_recv(fds[0], &a, sizeof a) != (ssize_t)sizeof a) {
                        int status = 0;
                        waitpid(pid, &status, 0);
                        fail_msg("trial %ld: the writer ended after %ld "
                                 "acknowledgements: status %d", trial, got,
                                 status);
                    }
                    assert_true(got >= 0 || a.seq == 0);
                    take_ack(&r, &a, (int)trial, &ready);
                }
                ck_sleep_us((long)(ck_rand(&sched) % (KILL_WITHIN_US + 1)));
            }
            kill(pid, SIGKILL);
        }
        int status = 0;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        if (last) {
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                fail_msg("the last writer failed: status %d", status);
        } else if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
            fail_msg("trial %ld: the writer failed before the kill: "
                     "status %d", trial, status);
        }
        int64_t before = r.model.seq;
        read_acks(&r, fds[0], (int)trial, &ready);
        close(fds[0]);
        if (!ready)
            r.opens_killed++;
        check_lake(&r, (int)trial);
        if (last)
            assert_true(r.model.seq >= before + FINAL_WRITES);
    }

    double took = ck_now_s() - started;
    char *kinds = json_dumps(r.kinds, JSON_SORT_KEYS | JSON_COMPACT);
    print_message("soak_kill: %ld kills (%zu before the lake was open, %zu "
                  "with durability normal), %zu acknowledged writes checked, "
                  "%zu more found committed in flight, 0 lost; "
                  "%zu records followed, %zu watermarks checked contiguous, "
                  "retention floor at %lld; %.1f s\n", trials,
                  r.opens_killed, normal, r.writes, r.inflight_committed,
                  r.records_followed, r.watermarks_checked,
                  (long long)r.floor, took);
    print_message("soak_kill: writes by kind %s\n", kinds);
    print_message("soak_kill: %zu versions of migration files applied at "
                  "the end, %zu ups found applied in part after a kill\n",
                  r.model.applied, r.files_partial);
    free(kinds);
    assert_true(r.writes > (size_t)trials);

    for (size_t i = 0; i < NBOARDS; i++)
        fm_free(&r.feeds[i]);
    json_decref(r.kinds);
    json_decref(r.model.state);
    pier_error err;
    assert_int_equal(pier_reset_lake(dir, &err), PIER_OK);
    lakedir_remove_tree(dir);
    free(r.lake);
    free(r.files);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kill_trials),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
