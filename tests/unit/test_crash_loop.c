/*
 * test_crash_loop.c: a writer killed at random moments, again and again,
 * never loses an acknowledged write and never leaves half of one.
 *
 * A child process writes in a loop on board "k": inserts, upserts,
 * updates, deletes (of present and missing ids) and small transactions,
 * through the JSON and the C-batch entry points alike; and, one write in
 * sixteen, versioned migration files in the lake's directory
 * (support/migfiles.h): a new version written (made by
 * pier_migration_file_create, then given its SQL) and up applied, or
 * down, refused at an irreversible version. After each call returns OK
 * it sends the parent a fixed-size record (its sequence number, the
 * watermark and what it wrote) through a pipe. The parent kills it with
 * SIGKILL after a random delay (seeded: PIER_SEED overrides the
 * default), usually while it writes, sometimes while it opens the lake,
 * and in three rounds of eight within a write of migration files (the
 * child announces one as it starts; the delay is up to one and a half
 * times what one took so far); every other writer opens with
 * PIER_DURABILITY_NORMAL, which must survive a process crash as well as
 * FULL does.
 *
 * The writes are generated deterministically from a model of the board
 * (the child and the parent run the same generator on the same state), so
 * after each kill the parent knows every acknowledged write and the one
 * write that may have been in flight. Then:
 * - the lake opens;
 * - its head is at or past the last acknowledged watermark; past it exactly
 *   when the in-flight write committed (it was not acknowledged in time);
 * - the stored rows equal the model after the acknowledged writes, plus the
 *   in-flight write when it committed: each write is all there or not at
 *   all, every column of every row;
 * - the board rebuilt from the change feed (from watermark 0) equals the
 *   stored rows, and every acknowledged watermark is a record in the feed;
 * - each migration file's record is there exactly when what its SQL does
 *   is, status agrees, and the versions applied are the acknowledged
 *   writes' plus, when the write in flight was an up, some of its
 *   versions (each commits on its own), or, for a down, all of it; then
 *   up, run again, completes.
 * A last round lets the writer finish and exit normally.
 * tests/soak/soak_kill.c runs the same kind of loop over every kind of
 * write; support/crashkit.c holds what the two share.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pier.h"
#include "support/crashkit.h"
#include "support/lakedir.h"
#include "support/migfiles.h"

#define BOARD "k"
#define KILLS 80
#define FINAL_WRITES 60
#define MAX_ACTIONS 8
#define ID_MAX 24

/* ------------------------------------------------------------------ */
/* The model and the generator (shared by child and parent)             */

typedef struct crow {
    char id[ID_MAX];
    int64_t m;           /* the seq of the write that last wrote the row */
    int64_t v;
    int64_t sq;          /* s is "s<sq>"; 0: null */
} crow;

typedef struct cmodel {
    crow *rows;
    size_t n, cap;
    uint64_t rng;
    int64_t seq;         /* the last write applied */
    size_t nfiles;       /* migration files written: versions 0 ..
                            nfiles - 1 (support/migfiles.h) */
    size_t applied;      /* versions applied: 0 .. applied - 1 */
} cmodel;

enum { OP_INSERT, OP_UPSERT, OP_UPDATE, OP_DELETE, OP_TX, OP_FILES_UP,
       OP_FILES_DOWN, OP_COUNT };
static const char *const op_names[] = { "insert", "upsert", "update",
                                        "delete", "tx", "files_up",
                                        "files_down" };

/* 'i' insert, 'u' upsert (a complete row), 'p' patch, 'd' delete. */
typedef struct action {
    char kind;
    char id[ID_MAX];
    int64_t v;
    bool s;              /* i, u: write s; p: clear s */
} action;

typedef struct cwrite {
    int op;
    int64_t seq;
    size_t n;
    action a[MAX_ACTIONS];
    size_t files;        /* OP_FILES_UP, _DOWN: the files it writes (up
                            applies them all) */
    uint64_t rng_after;
} cwrite;

static bool is_files(int op)
{
    return op == OP_FILES_UP || op == OP_FILES_DOWN;
}

static crow *find(const cmodel *m, const char *id)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->rows[i].id, id) == 0)
            return &m->rows[i];
    return NULL;
}

static bool chosen(const cwrite *w, const char *id)
{
    for (size_t i = 0; i < w->n; i++)
        if (strcmp(w->a[i].id, id) == 0)
            return true;
    return false;
}

static void add(cwrite *w, char kind, const char *id, int64_t v, bool s)
{
    action *a = &w->a[w->n++];
    a->kind = kind;
    snprintf(a->id, sizeof a->id, "%s", id);
    a->v = v;
    a->s = s;
}

/* An existing id not chosen yet, or NULL. */
static const char *pick(const cmodel *m, const cwrite *w, uint64_t *r)
{
    for (int tries = 0; m->n > 0 && tries < 8; tries++) {
        const char *id = m->rows[ck_rand(r) % m->n].id;
        if (!chosen(w, id))
            return id;
    }
    return NULL;
}

static void fresh_id(char out[ID_MAX], char prefix, int64_t seq, size_t i)
{
    snprintf(out, ID_MAX, "%c%lld_%zu", prefix, (long long)seq, i);
}

/* The next write after the model's state. Pure: the model is not changed. */
static void gen(const cmodel *m, cwrite *w)
{
    uint64_t r = m->rng;
    memset(w, 0, sizeof *w);
    w->seq = m->seq + 1;
    /* One write in 32 runs migration files up, one down. */
    int files = (int)(ck_rand(&r) % 32);
    w->op = (int)(ck_rand(&r) % 10);
    w->op = files == 0 ? OP_FILES_UP : files == 1 ? OP_FILES_DOWN
          : w->op < 3 ? OP_INSERT : w->op < 5 ? OP_UPSERT
          : w->op < 7 ? OP_UPDATE : w->op < 9 ? OP_DELETE : OP_TX;
    if (m->n == 0 && (w->op == OP_UPDATE || w->op == OP_DELETE))
        w->op = OP_INSERT;
    char id[ID_MAX];
    size_t k;
    switch (w->op) {
    case OP_FILES_UP:
        /* A new version is written first when none is pending, and half
         * the time when one is: every up applies something. */
        w->files = m->nfiles + (m->applied == m->nfiles || ck_rand(&r) % 2);
        break;
    case OP_FILES_DOWN:
        w->files = m->nfiles;
        break;
    case OP_INSERT:
        k = 1 + ck_rand(&r) % 4;
        for (size_t i = 0; i < k; i++) {
            fresh_id(id, 'r', w->seq, i);
            add(w, 'i', id, (int64_t)(ck_rand(&r) % 1000),
                ck_rand(&r) % 2);
        }
        break;
    case OP_UPSERT:
        k = 1 + ck_rand(&r) % 3;
        for (size_t i = 0; i < k; i++) {
            const char *old = ck_rand(&r) % 2 ? pick(m, w, &r) : NULL;
            fresh_id(id, 'u', w->seq, i);
            add(w, 'u', old ? old : id, (int64_t)(ck_rand(&r) % 1000),
                ck_rand(&r) % 2);
        }
        break;
    case OP_UPDATE:
        k = 1 + ck_rand(&r) % 3;
        for (size_t i = 0; i < k; i++) {
            const char *old = pick(m, w, &r);
            if (old != NULL)
                add(w, 'p', old, (int64_t)(ck_rand(&r) % 1000),
                    ck_rand(&r) % 4 == 0);
        }
        break;
    case OP_DELETE:
        k = 1 + ck_rand(&r) % 2;
        for (size_t i = 0; i < k; i++) {
            const char *old = pick(m, w, &r);
            if (old != NULL)
                add(w, 'd', old, 0, false);
        }
        snprintf(id, sizeof id, "x%lld", (long long)w->seq); /* missing */
        add(w, 'd', id, 0, false);
        break;
    default: {                                      /* OP_TX */
        k = 1 + ck_rand(&r) % 2;
        for (size_t i = 0; i < k; i++) {
            fresh_id(id, 't', w->seq, i);
            add(w, 'i', id, (int64_t)(ck_rand(&r) % 1000), true);
        }
        const char *p = pick(m, w, &r);
        if (p != NULL)
            add(w, 'p', p, (int64_t)(ck_rand(&r) % 1000),
                ck_rand(&r) % 2);
        const char *d = pick(m, w, &r);
        if (d != NULL)
            add(w, 'd', d, 0, false);
    }
    }
    w->rng_after = r;
}

/* What a down leaves applied, from `applied`: one fewer, unless the last
 * is irreversible (refused) or none is. */
static size_t after_down(size_t applied)
{
    return applied > 0 && migfiles_reversible(applied - 1) ? applied - 1
                                                           : applied;
}

/* Applies a write to the model; false if it cannot apply (the model
 * allocation failed or a patch names a missing row). */
static bool apply(cmodel *m, const cwrite *w)
{
    if (w->op == OP_FILES_UP) {
        if (w->files > m->nfiles)
            m->nfiles = w->files;
        m->applied = m->nfiles;
    } else if (w->op == OP_FILES_DOWN) {
        m->applied = after_down(m->applied);
    }
    for (size_t i = 0; i < w->n; i++) {
        const action *a = &w->a[i];
        crow *row = find(m, a->id);
        switch (a->kind) {
        case 'i':
        case 'u':
            if (row == NULL) {
                if (m->n == m->cap) {
                    size_t cap = m->cap ? m->cap * 2 : 64;
                    crow *p = realloc(m->rows, cap * sizeof *p);
                    if (p == NULL)
                        return false;
                    m->rows = p;
                    m->cap = cap;
                }
                row = &m->rows[m->n++];
                snprintf(row->id, sizeof row->id, "%s", a->id);
            }
            row->m = w->seq;
            row->v = a->v;
            row->sq = a->s ? w->seq : 0;
            break;
        case 'p':
            if (row == NULL)
                return false;
            row->m = w->seq;
            row->v = a->v;
            if (a->s)
                row->sq = 0;
            break;
        default:                                    /* 'd' */
            if (row != NULL)
                *row = m->rows[--m->n];
        }
    }
    m->seq = w->seq;
    m->rng = w->rng_after;
    return true;
}

/* ------------------------------------------------------------------ */
/* The child: performs the writes (no cmocka: failures exit non-zero)   */

typedef struct ack {
    int64_t seq;         /* 0: the lake is open, nothing written yet;
                            -seq: write seq, of migration files, starts */
    int64_t watermark;
    int32_t op;
    int32_t n;
    char first[ID_MAX];  /* the id of the write's first action */
    int64_t took_us;     /* a write of migration files: how long */
} ack;

static void row_json(char *out, size_t cap, const action *a, int64_t seq)
{
    char s[48] = "";
    if (a->s)
        snprintf(s, sizeof s, ",\"s\":\"s%lld\"", (long long)seq);
    snprintf(out, cap, "{\"id\":\"%s\",\"m\":%lld,\"v\":%lld%s}", a->id,
             (long long)seq, (long long)a->v, s);
}

static void patch_json(char *out, size_t cap, const action *a, int64_t seq)
{
    snprintf(out, cap, "{\"m\":%lld,\"v\":%lld%s}", (long long)seq,
             (long long)a->v, a->s ? ",\"s\":null" : "");
}

/* The write's rows (all actions) as one JSON array; kind i/u rows, or
 * p as {"id":..,"patch":..}. */
static void batch_json(char *out, size_t cap, const cwrite *w)
{
    size_t len = 0;
    out[len++] = '[';
    for (size_t i = 0; i < w->n; i++) {
        char one[160], patch[96];
        if (w->a[i].kind == 'p') {
            patch_json(patch, sizeof patch, &w->a[i], w->seq);
            snprintf(one, sizeof one, "{\"id\":\"%s\",\"patch\":%s}",
                     w->a[i].id, patch);
        } else {
            row_json(one, sizeof one, &w->a[i], w->seq);
        }
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? "," : "",
                                one);
    }
    snprintf(out + len, cap - len, "]");
}

/* The write's rows as a C batch: complete rows, or patches. */
static pier_status batch_rows(pier_rows *rows, const cwrite *w,
                              pier_error *err)
{
    char s[32];
    pier_status rc = PIER_OK;
    pier_rows_clear(rows);
    for (size_t i = 0; rc == PIER_OK && i < w->n; i++) {
        const action *a = &w->a[i];
        rc = pier_rows_add(rows, err);
        if (rc == PIER_OK)
            rc = pier_rows_set_text(rows, "id", a->id, err);
        if (rc == PIER_OK)
            rc = pier_rows_set_int64(rows, "m", w->seq, err);
        if (rc == PIER_OK)
            rc = pier_rows_set_int64(rows, "v", a->v, err);
        if (rc == PIER_OK && a->s) {
            snprintf(s, sizeof s, "s%lld", (long long)w->seq);
            rc = a->kind == 'p' ? pier_rows_set_null(rows, "s", err)
                                : pier_rows_set_text(rows, "s", s, err);
        }
    }
    return rc;
}

static pier_status run_tx(pier_engine *e, const cwrite *w, int64_t *wm,
                          pier_error *err)
{
    const char *boards[] = { BOARD };
    pier_tx *tx = NULL;
    pier_status rc = pier_tx_begin(&tx, e, boards, 1, err);
    if (rc != PIER_OK)
        return rc;
    for (size_t i = 0; rc == PIER_OK && i < w->n; i++) {
        const action *a = &w->a[i];
        char json[160];
        if (a->kind == 'i') {
            row_json(json, sizeof json, a, w->seq);
            rc = pier_tx_insert_json(tx, BOARD, json, strlen(json), err);
        } else if (a->kind == 'p') {
            patch_json(json, sizeof json, a, w->seq);
            rc = pier_tx_update_json(tx, BOARD, a->id, json, strlen(json),
                                     err);
        } else {
            const char *ids[] = { a->id };
            rc = pier_tx_delete_many(tx, BOARD, ids, 1, err);
        }
    }
    if (rc != PIER_OK) {
        pier_tx_rollback(tx);
        return rc;
    }
    return pier_tx_commit(wm, tx, err);
}

/* A write of migration files (support/migfiles.h) in `files`: the files
 * written (a missing one made as `pier migrations new` makes one, then
 * given its text), then up, or down. A down refused at the irreversible
 * version is what the model expects of it. */
static pier_status run_files(pier_engine *e, const char *files,
                             const cmodel *m, const cwrite *w, int64_t *wm,
                             pier_error *err)
{
    pier_status rc = migfiles_write(files, w->files, true, err);
    if (rc == PIER_OK && w->op == OP_FILES_UP)
        return pier_migration_files_up(wm, e, files, NULL, err);
    if (rc == PIER_OK)
        rc = pier_migration_files_down(wm, e, files, NULL, err);
    bool refused = m->applied > 0 && after_down(m->applied) == m->applied;
    if (refused && rc == PIER_OK) {
        fprintf(stderr, "writer: write %lld: version %zu, irreversible, "
                "was rolled back\n", (long long)w->seq, m->applied - 1);
        _exit(3);
    }
    if (refused && rc == PIER_E_MIGRATION_REFUSED) {
        *wm = pier_head(e);
        return PIER_OK;
    }
    return rc;
}

static pier_status run_write(pier_engine *e, pier_rows *rows,
                             const cwrite *w, int64_t *wm, pier_error *err)
{
    char json[2048];
    pier_status rc;
    switch (w->op) {
    case OP_INSERT:
        if (w->seq % 2) {
            rc = batch_rows(rows, w, err);
            return rc != PIER_OK ? rc
                                 : pier_insert_rows(wm, e, BOARD, rows, err);
        }
        batch_json(json, sizeof json, w);
        return pier_insert_json(wm, e, BOARD, json, strlen(json), err);
    case OP_UPSERT:
        if (w->seq % 3 == 0) {
            rc = batch_rows(rows, w, err);
            return rc != PIER_OK ? rc
                                 : pier_upsert_rows(wm, e, BOARD, rows, err);
        }
        batch_json(json, sizeof json, w);
        return pier_upsert_json(wm, e, BOARD, json, strlen(json), err);
    case OP_UPDATE:
        if (w->n == 1 && w->seq % 2) {
            patch_json(json, sizeof json, &w->a[0], w->seq);
            return pier_update_json(wm, e, BOARD, w->a[0].id, json,
                                    strlen(json), err);
        }
        if (w->seq % 3 == 0) {
            rc = batch_rows(rows, w, err);
            return rc != PIER_OK ? rc
                                 : pier_update_rows(wm, e, BOARD, rows, err);
        }
        batch_json(json, sizeof json, w);
        return pier_update_many_json(wm, e, BOARD, json, strlen(json), err);
    case OP_DELETE: {
        const char *ids[MAX_ACTIONS];
        for (size_t i = 0; i < w->n; i++)
            ids[i] = w->a[i].id;
        return pier_delete_many(wm, e, BOARD, ids, w->n, err);
    }
    default:
        return run_tx(e, w, wm, err);
    }
}

static void send_ack(int fd, const ack *a)
{
    ck_send(fd, a, sizeof *a);
}

/* Opens the lake and writes `limit` writes (forever if negative). */
static void writer(const char *dir, pier_durability durability, cmodel *m,
                   int fd, int limit)
{
    pier_engine *e = NULL;
    pier_error err;
    pier_open_options opts = PIER_OPEN_OPTIONS_INIT;
    opts.durability = durability;
    if (pier_open(&e, dir, &opts, &err) != PIER_OK) {
        fprintf(stderr, "writer: open: %s\n", err.message);
        _exit(2);
    }
    pier_rows *rows = pier_rows_new();
    if (rows == NULL)
        _exit(2);
    char *files = migfiles_dir_of(dir);
    if (files == NULL)
        _exit(2);
    ack ready = { 0 };
    send_ack(fd, &ready);
    for (int i = 0; limit < 0 || i < limit; i++) {
        cwrite w;
        gen(m, &w);
        int64_t wm = 0;
        pier_status rc;
        double started = 0;
        if (is_files(w.op)) {
            /* The parent may aim its kill at this write. */
            ack starts = { .seq = -w.seq };
            send_ack(fd, &starts);
            started = ck_now_s();
            rc = run_files(e, files, m, &w, &wm, &err);
        } else {
            rc = run_write(e, rows, &w, &wm, &err);
        }
        if (rc != PIER_OK) {
            fprintf(stderr, "writer: write %lld (%s): %s: %s\n",
                    (long long)w.seq, op_names[w.op], pier_status_tag(rc),
                    err.message);
            _exit(3);
        }
        ack a = { .seq = w.seq, .watermark = wm, .op = w.op,
                  .n = (int32_t)w.n };
        if (is_files(w.op))
            a.took_us = (int64_t)((ck_now_s() - started) * 1e6);
        snprintf(a.first, sizeof a.first, "%s", w.a[0].id);
        send_ack(fd, &a);
        if (!apply(m, &w))
            _exit(4);
    }
    free(files);
    pier_rows_free(rows);
    pier_close(&e);
    _exit(0);
}

/* ------------------------------------------------------------------ */
/* The parent's checks                                                  */

/* A row as {"m":..,"v":..,"s":..} (s left out when null). */
static json_t *row_object(int64_t m, int64_t v, const char *s)
{
    json_t *o = json_pack("{s:I,s:I}", "m", (json_int_t)m, "v",
                          (json_int_t)v);
    assert_non_null(o);
    if (s != NULL)
        json_object_set_new(o, "s", json_string(s));
    return o;
}

static json_t *model_rows(const cmodel *m)
{
    json_t *rows = json_object();
    for (size_t i = 0; i < m->n; i++) {
        char s[32];
        snprintf(s, sizeof s, "s%lld", (long long)m->rows[i].sq);
        json_object_set_new(rows, m->rows[i].id,
                            row_object(m->rows[i].m, m->rows[i].v,
                                       m->rows[i].sq ? s : NULL));
    }
    return rows;
}

static int64_t int_of(const pier_row *row, const char *col, bool *ok)
{
    const pier_value *v = pier_row_find(row, col);
    if (v == NULL || v->kind != PIER_KIND_BIGINT) {
        *ok = false;
        return 0;
    }
    return v->as.integer;
}

typedef struct scan_ctx {
    json_t *rows;
    bool bad;
} scan_ctx;

static int scan_row(const pier_row *row, void *payload)
{
    scan_ctx *c = payload;
    bool ok = true;
    const pier_value *id = pier_row_find(row, "id");
    const pier_value *s = pier_row_find(row, "s");
    int64_t m = int_of(row, "m", &ok), v = int_of(row, "v", &ok);
    if (!ok || id == NULL || id->kind != PIER_KIND_TEXT || s == NULL ||
        (s->kind != PIER_KIND_NULL && s->kind != PIER_KIND_TEXT) ||
        pier_row_column_count(row) != 6) {
        c->bad = true;
        return 1;
    }
    json_object_set_new(c->rows, id->text, row_object(m, v, s->text));
    return 0;
}

static json_t *stored_rows(pier_engine *e)
{
    scan_ctx c = { json_object(), false };
    pier_error err;
    assert_int_equal(pier_board_scan(e, BOARD, scan_row, &c, &err), PIER_OK);
    assert_false(c.bad);
    int64_t count = -1;
    assert_int_equal(pier_row_count(&count, e, BOARD, &err), PIER_OK);
    assert_int_equal(count, (int64_t)json_object_size(c.rows));
    return c.rows;
}

static void set_from(json_t *row, const char *k, json_t *v)
{
    if (strcmp(k, "id") == 0)
        return;
    if (json_is_null(v))
        json_object_del(row, k);
    else
        json_object_set(row, k, v);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The board rebuilt from its whole feed; the records' watermarks in
 * *wms (ascending). */
static json_t *feed_rows(pier_engine *e, int64_t **wms, size_t *nwms)
{
    json_t *rows = json_object();
    size_t cap = 256;
    *wms = malloc(cap * sizeof **wms);
    *nwms = 0;
    assert_non_null(*wms);
    int64_t after = 0;
    for (;;) {
        pier_changes_page *page = NULL;
        pier_error err;
        assert_int_equal(pier_changes(&page, e, BOARD, after, 0, &err),
                         PIER_OK);
        assert_false(page->resync);
        if (page->nrecords == 0) {
            pier_changes_page_free(page);
            break;
        }
        for (size_t i = 0; i < page->nrecords; i++) {
            const pier_change *c = &page->records[i];
            if (*nwms == cap) {
                cap *= 2;
                int64_t *p = realloc(*wms, cap * sizeof *p);
                assert_non_null(p);
                *wms = p;
            }
            (*wms)[(*nwms)++] = c->watermark;
            json_error_t jerr;
            json_t *p = json_loads(c->payload, 0, &jerr);
            if (p == NULL)
                fail_msg("record %lld: %s", (long long)c->watermark,
                         jerr.text);
            if (strcmp(c->kind, "insert") == 0 ||
                strcmp(c->kind, "upsert") == 0) {
                json_t *list = json_object_get(p, "rows"), *src;
                size_t j;
                json_array_foreach(list, j, src) {
                    const char *id =
                        json_string_value(json_object_get(src, "id"));
                    assert_non_null(id);
                    json_t *row = json_object();
                    const char *k;
                    json_t *v;
                    json_object_foreach(src, k, v)
                        set_from(row, k, v);
                    json_object_set_new(rows, id, row);
                }
            } else if (strcmp(c->kind, "update") == 0) {
                const char *id = json_string_value(json_object_get(p, "id"));
                json_t *row = id ? json_object_get(rows, id) : NULL;
                if (row == NULL)
                    fail_msg("record %lld updates a row the feed never "
                             "wrote", (long long)c->watermark);
                const char *k;
                json_t *v;
                json_object_foreach(json_object_get(p, "patch"), k, v)
                    set_from(row, k, v);
            } else if (strcmp(c->kind, "delete") == 0) {
                json_t *id;
                size_t j;
                json_array_foreach(json_object_get(p, "ids"), j, id)
                    json_object_del(rows, json_string_value(id));
            } else if (strcmp(c->kind, "schema") != 0) {
                fail_msg("record %lld: unexpected kind '%s'",
                         (long long)c->watermark, c->kind);
            }
            json_decref(p);
        }
        assert_true(page->next > after);
        after = page->next;
        pier_changes_page_free(page);
    }
    for (size_t i = 1; i < *nwms; i++)
        assert_true((*wms)[i] > (*wms)[i - 1]);
    return rows;
}

static void expect_equal(const json_t *got, const json_t *want,
                         const char *what, int round)
{
    if (json_equal((json_t *)got, (json_t *)want))
        return;
    const char *id;
    json_t *row;
    json_object_foreach((json_t *)want, id, row) {
        json_t *g = json_object_get(got, id);
        if (g != NULL && json_equal(g, row))
            continue;
        char *a = json_dumps(row, JSON_SORT_KEYS | JSON_COMPACT);
        char *b = g ? json_dumps(g, JSON_SORT_KEYS | JSON_COMPACT) : NULL;
        print_error("round %d: row '%s': want %s, %s has %s\n", round, id, a,
                    what, b ? b : "nothing");
        free(a);
        free(b);
    }
    json_object_foreach((json_t *)got, id, row) {
        if (json_object_get(want, id) == NULL)
            print_error("round %d: %s has row '%s', which should not be "
                        "there\n", round, what, id);
    }
    fail_msg("round %d: %s differs (%zu rows, want %zu)", round, what,
             json_object_size(got), json_object_size(want));
}

typedef struct run {
    const char *dir;
    char *lake;               /* dir/lake.sqlite */
    char *files;              /* the migration files' directory */
    cmodel model;             /* the writes known to be committed */
    int64_t last;             /* their last watermark */
    int64_t *acked;           /* every acknowledged watermark */
    size_t nacked, acked_cap;
    size_t writes, inflight_committed, opens_killed;
    size_t files_writes;      /* acknowledged writes of migration files */
    double files_us;          /* ... and the time they took */
    size_t files_inflight;    /* ... in flight and found applied */
    size_t files_part;        /* ... an up's first versions only */
    size_t aimed;             /* kills aimed at a write of them */
} run;

static void note_acked(run *r, int64_t wm)
{
    if (r->nacked == r->acked_cap) {
        r->acked_cap = r->acked_cap ? r->acked_cap * 2 : 256;
        int64_t *p = realloc(r->acked, r->acked_cap * sizeof *p);
        assert_non_null(p);
        r->acked = p;
    }
    r->acked[r->nacked++] = wm;
}

/* Takes one acknowledgement and checks it against the generator;
 * *starts (may be NULL): it announced a write of migration files. */
static void take_ack(run *r, const ack *a, int round, bool *ready,
                     bool *starts)
{
    if (a->seq == 0) {
        *ready = true;
        return;
    }
    if (a->seq < 0) {
        if (starts != NULL)
            *starts = true;
        return;
    }
    cwrite w;
    gen(&r->model, &w);
    if (a->seq != w.seq || a->op != w.op || a->n != (int32_t)w.n ||
        strcmp(a->first, w.a[0].id) != 0)
        fail_msg("round %d: acknowledged write %lld (%d, %d, %s) is not "
                 "the generated %lld (%d, %zu, %s)", round,
                 (long long)a->seq, a->op, a->n, a->first, (long long)w.seq,
                 w.op, w.n, w.a[0].id);
    if (is_files(w.op)) {
        /* Migration files append no change record. */
        if (a->watermark != r->last)
            fail_msg("round %d: write %lld (%s) returned watermark %lld, "
                     "not the head %lld", round, (long long)w.seq,
                     op_names[w.op], (long long)a->watermark,
                     (long long)r->last);
        r->files_writes++;
        r->files_us += (double)a->took_us;
    } else {
        assert_true(a->watermark > r->last);
        r->last = a->watermark;
        note_acked(r, a->watermark);
    }
    assert_true(apply(&r->model, &w));
    r->writes++;
}

/* Reads the acknowledgements up to end of file and checks each. */
static void read_acks(run *r, int fd, int round, bool *ready)
{
    ack a;
    ssize_t k;
    while ((k = ck_recv(fd, &a, sizeof a)) != 0) {
        assert_int_equal(k, (ssize_t)sizeof a);
        take_ack(r, &a, round, ready, NULL);
    }
}

/* After the writer died: the lake opens, and holds exactly the
 * acknowledged writes plus, maybe, the one in flight, all of it. */
static void check_lake(run *r, int round)
{
    pier_engine *e = NULL;
    pier_error err;
    if (pier_open(&e, r->dir, NULL, &err) != PIER_OK)
        fail_msg("round %d: the lake does not open: %s", round, err.message);
    int64_t head = 0;
    assert_int_equal(pier_head_from_catalog(&head, e, &err), PIER_OK);
    if (head < r->last)
        fail_msg("round %d: head %lld is below the acknowledged watermark "
                 "%lld", round, (long long)head, (long long)r->last);
    /* Each migration file's record is there exactly when what its SQL
     * does is, and status says so (support/migfiles.h). */
    char why[512];
    size_t k = 0;
    if (!migfiles_check(e, r->lake, r->files, &k, why, sizeof why))
        fail_msg("round %d: %s", round, why);
    cwrite w;
    gen(&r->model, &w);
    if (head > r->last) {
        /* The write in flight committed before its acknowledgement. */
        if (is_files(w.op))
            fail_msg("round %d: the head moved under a write of migration "
                     "files", round);
        assert_true(apply(&r->model, &w));
        r->last = head;
        r->inflight_committed++;
    } else if (is_files(w.op) && k != r->model.applied) {
        /* The write of migration files in flight took effect: a down
         * whole, or an up's first versions (each commits on its own). */
        bool ok = w.op == OP_FILES_UP
                      ? k > r->model.applied && k <= w.files
                      : k == after_down(r->model.applied);
        if (!ok)
            fail_msg("round %d: %zu versions applied, but the write in "
                     "flight (%s of %zu files) went from %zu", round, k,
                     op_names[w.op], w.files, r->model.applied);
        assert_true(apply(&r->model, &w));
        if (k < r->model.applied)
            r->files_part++;
        r->model.applied = k;
        r->files_inflight++;
    }
    if (k != r->model.applied)
        fail_msg("round %d: %zu versions of migration files applied, the "
                 "acknowledged writes applied %zu", round, k,
                 r->model.applied);
    json_t *want = model_rows(&r->model);
    json_t *stored = stored_rows(e);
    expect_equal(stored, want, "the lake", round);
    int64_t *wms = NULL;
    size_t nwms = 0;
    json_t *fed = feed_rows(e, &wms, &nwms);
    expect_equal(fed, stored, "the feed", round);
    assert_true(nwms > 0);
    assert_int_equal(wms[nwms - 1], head);
    for (size_t i = 0; i < r->nacked; i++)
        if (bsearch(&r->acked[i], wms, nwms, sizeof *wms, cmp_i64) == NULL)
            fail_msg("round %d: acknowledged watermark %lld is not in the "
                     "feed", round, (long long)r->acked[i]);
    free(wms);
    json_decref(fed);
    json_decref(stored);
    json_decref(want);
    /* Their up, run again, completes: every file written is applied. */
    if (!migfiles_rerun(e, r->lake, r->files, &k, why, sizeof why))
        fail_msg("round %d: %s", round, why);
    r->model.nfiles = r->model.applied = k;
    pier_close(&e);
}

static void killed_writers_lose_nothing_acknowledged(void **state)
{
    (void)state;
    uint64_t seed = ck_seed(20260301);
    uint64_t sched = seed * 2 + 1;
    double started = ck_now_s();

    run r = { 0 };
    char *dir = lakedir_make();
    assert_non_null(dir);
    r.dir = dir;
    r.lake = lakedir_join(dir, "lake.sqlite");
    r.files = migfiles_dir_of(dir);
    assert_true(r.lake != NULL && r.files != NULL);
    r.model.rng = seed ^ UINT64_C(0x9e3779b97f4a7c15);
    {
        /* Declared columns: every write's columns exist from the start. */
        pier_engine *e = NULL;
        pier_error err;
        pier_column_def cols[] = { { "m", "bigint" }, { "v", "bigint" },
                                   { "s", "text" } };
        pier_board_options bo = PIER_BOARD_OPTIONS_INIT;
        bo.columns = cols;
        bo.ncolumns = 3;
        assert_int_equal(pier_open(&e, dir, NULL, &err), PIER_OK);
        assert_int_equal(pier_board_create(&r.last, e, BOARD, &bo, &err),
                         PIER_OK);
        assert_true(r.last > 0);
        pier_close(&e);
    }

    for (int round = 0; round <= KILLS; round++) {
        bool last = round == KILLS;
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        fflush(NULL);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(fds[0]);
            /* Both durabilities survive a process crash. */
            writer(dir, round % 2 ? PIER_DURABILITY_NORMAL
                                  : PIER_DURABILITY_FULL,
                   &r.model, fds[1], last ? FINAL_WRITES : -1);
        }
        close(fds[1]);
        bool ready = false;
        int64_t before = r.model.seq;
        if (!last) {
            int when = (int)(ck_rand(&sched) % 8);
            if (when == 0) {
                /* Early: the kill may land while the lake opens. */
                ck_sleep_us((long)(ck_rand(&sched) % 3000));
            } else if (when <= 3) {
                /* Aimed: within the first to fourth write of migration
                 * files from now, a delay up to about as long as one
                 * takes. */
                int notices = 1 + (int)(ck_rand(&sched) % 4);
                while (notices > 0) {
                    bool starts = false;
                    ack a;
                    if (ck_recv(fds[0], &a, sizeof a) != (ssize_t)sizeof a) {
                        int status = 0;
                        waitpid(pid, &status, 0);
                        fail_msg("round %d: the writer ended before a write "
                                 "of migration files: status %d", round,
                                 status);
                    }
                    take_ack(&r, &a, round, &ready, &starts);
                    notices -= starts;
                }
                double mean = r.files_writes > 0
                                  ? r.files_us / (double)r.files_writes
                                  : 5000;
                long span = (long)(mean * 1.5) + 200;
                ck_sleep_us((long)(ck_rand(&sched) % (uint64_t)span));
                r.aimed++;
            } else {
                ack a;
                if (ck_recv(fds[0], &a, sizeof a) != (ssize_t)sizeof a) {
                    int status = 0;
                    waitpid(pid, &status, 0);
                    fail_msg("round %d: the writer ended before the lake "
                             "was open: status %d", round, status);
                }
                assert_int_equal(a.seq, 0);
                ready = true;
                ck_sleep_us((long)(ck_rand(&sched) % 30001));
            }
            kill(pid, SIGKILL);
        }
        int status = 0;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        if (last) {
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                fail_msg("the last writer failed: status %d", status);
        } else if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
            fail_msg("round %d: the writer failed before the kill: "
                     "status %d", round, status);
        }
        read_acks(&r, fds[0], round, &ready);
        close(fds[0]);
        if (!ready)
            r.opens_killed++;
        check_lake(&r, round);
        if (last)
            assert_int_equal(r.model.seq, before + FINAL_WRITES);
    }

    double took = ck_now_s() - started;
    print_message("%d kills, %zu acknowledged writes, %zu committed but "
                  "unacknowledged, %zu kills before the lake was open, "
                  "%zu rows at the end, %.1f s\n", KILLS, r.writes,
                  r.inflight_committed, r.opens_killed, r.model.n, took);
    print_message("migration files: %zu writes acknowledged (%.0f us "
                  "each), %zu kills aimed at one, %zu found applied in "
                  "flight (%zu an up's first versions only), %zu versions "
                  "applied at the end\n", r.files_writes,
                  r.files_writes > 0 ? r.files_us / (double)r.files_writes
                                     : 0.0,
                  r.aimed, r.files_inflight, r.files_part, r.model.applied);
    assert_true(r.writes > (size_t)KILLS);
    assert_true(r.files_writes > 0);

    free(r.model.rows);
    free(r.acked);
    free(r.lake);
    free(r.files);
    pier_error err;
    assert_int_equal(pier_reset_lake(dir, &err), PIER_OK);
    lakedir_remove_tree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(killed_writers_lose_nothing_acknowledged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
