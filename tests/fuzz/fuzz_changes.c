/*
 * fuzz_changes.c: the change feed's cursor arguments (pier_changes and
 * pier_watch_open / pier_watch_next) over a lake in /dev/shm whose records
 * are known: boards "b1" (1,350 writes, 1,050 of
 * them above the floor: more than a default page), "b2"
 * (updates, deletes, a truncate, a widening) and "b3" (dropped), written
 * across ten hours and then maintained, so that the retention floor sits
 * above the oldest records. The library takes no text here but the board
 * id; the rest of the arguments are integers, which the input gives whole.
 *
 * Input: byte 0 picks the board (bits 0-1: b1, b2, b3, or the id given
 * as text after byte 17), whether `after` is small (bit 2: in -1 .. head +
 * 2) and whether `limit` is (bit 3: 0 .. 11); bytes 1-8 are `after`, 9-16
 * `limit`, little-endian.
 *
 * Invariants, against the records read when the lake was made:
 * - an id outside [a-z][a-z0-9_]{0,62} is InvalidBoardId; after < 0 is
 *   InvalidArgument; anything else is a page;
 * - after below the floor: a resync from the floor, no records;
 * - otherwise exactly the board's records with watermark > after, in
 *   ascending order, at most `limit` (0: 1000; above 10000: 10000), each
 *   of the board, of a known kind, its payload valid JSON; `next` the last
 *   one's watermark (or `after` when there are none);
 * - the page's JSON is valid JSON and says the same;
 * - a watch opened with the same arguments answers as pier_changes did,
 *   and its next page is the same page; after a resync the one after it
 *   continues from the floor; a cancelled watch returns no page.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HOUR INT64_C(3600000000)
/* b1's writes before and after the floor: more after it than a page of
 * the default limit holds. */
#define B1_OLD 300
#define B1_NEW 1050

static pier_engine *engine;
static int64_t now = FZ_NOW;
static int64_t floor_wm;     /* the lake's retention floor */
static int64_t head;
static bool *payload_checked;  /* by watermark, 0 .. head */

/* Each board's records above the floor, as first read. */
typedef struct model {
    const char *board;
    int64_t *wm;
    size_t n;
} model;
static model boards[3] = { { "b1", NULL, 0 }, { "b2", NULL, 0 },
                           { "b3", NULL, 0 } };

static int64_t clock_fn(void *payload)
{
    (void)payload;
    return now;
}

static void write_json(int (*call)(pier_engine *, const char *,
                                   const char *),
                       const char *board, const char *json)
{
    FZ_CHECK(call(engine, board, json) == 0, "setup write on %s", board);
}

static int ins(pier_engine *e, const char *board, const char *json)
{
    pier_error err;
    return (int)pier_insert_json(NULL, e, board, json, strlen(json), &err);
}

static void read_model(model *m)
{
    int64_t after = floor_wm;
    for (;;) {
        pier_changes_page *p = NULL;
        pier_error err;
        FZ_OK(pier_changes(&p, engine, m->board, after, 10000, &err), &err);
        FZ_CHECK(!p->resync, "resync at the floor");
        if (p->nrecords == 0) {
            pier_changes_page_free(p);
            return;
        }
        m->wm = realloc(m->wm, (m->n + p->nrecords) * sizeof *m->wm);
        FZ_CHECK(m->wm != NULL, "out of memory");
        for (size_t i = 0; i < p->nrecords; i++)
            m->wm[m->n++] = p->records[i].watermark;
        after = p->next;
        pier_changes_page_free(p);
    }
}

static void make_lake(void)
{
    pier_open_options o = fz_open_options();
    o.clock = clock_fn;
    pier_error err;
    FZ_OK(pier_open(&engine, fz_dir("changes"), &o, &err), &err);
    char row[64];
    /* Ten hours ago... */
    now = FZ_NOW - 10 * HOUR;
    for (int i = 0; i < B1_OLD; i++) {
        snprintf(row, sizeof row, "{\"id\":\"r%d\",\"n\":%d}", i, i);
        write_json(ins, "b1", row);
    }
    write_json(ins, "b2",
               "[{\"id\":\"a\",\"n\":1},{\"id\":\"b\",\"s\":\"x\"}]");
    write_json(ins, "b3", "{\"id\":\"gone\"}");
    FZ_OK(pier_board_drop(NULL, engine, "b3", &err), &err);
    /* ...and now. */
    now = FZ_NOW;
    for (int i = B1_OLD; i < B1_OLD + B1_NEW; i++) {
        snprintf(row, sizeof row, "{\"id\":\"r%d\",\"n\":%d}", i, i);
        write_json(ins, "b1", row);
    }
    static const char patch[] = "{\"n\":2,\"t\":[1]}";
    FZ_OK(pier_update_json(NULL, engine, "b2", "a", patch, sizeof patch - 1,
                           &err), &err);
    FZ_OK(pier_board_widen_column(NULL, engine, "b2", "n", "double", &err),
          &err);
    static const char upsert[] = "{\"id\":\"c\",\"n\":2.5}";
    FZ_OK(pier_upsert_json(NULL, engine, "b2", upsert, sizeof upsert - 1,
                           &err), &err);
    FZ_OK(pier_delete(NULL, engine, "b2", "b", &err), &err);
    FZ_OK(pier_board_truncate(NULL, engine, "b2", &err), &err);
    write_json(ins, "b2", "{\"id\":\"d\",\"s\":\"after the truncate\"}");
    /* Records older than five hours go; the floor rises above them. */
    FZ_OK(pier_maintain(engine, 5, &err), &err);
    pier_stats st;
    FZ_OK(pier_stats_get(&st, engine, &err), &err);
    floor_wm = st.floor;
    head = st.head;
    FZ_CHECK(floor_wm > 0 && floor_wm < head, "floor %" PRId64 ", head %"
             PRId64, floor_wm, head);
    payload_checked = calloc((size_t)head + 1, sizeof *payload_checked);
    FZ_CHECK(payload_checked != NULL, "out of memory");
    for (size_t b = 0; b < 3; b++)
        read_model(&boards[b]);
    FZ_CHECK(boards[0].n == B1_NEW, "b1 keeps %zu records",
             boards[0].n);
}

static bool valid_id(const char *id)
{
    size_t n = strlen(id);
    if (n < 1 || n > 63 || id[0] < 'a' || id[0] > 'z')
        return false;
    for (size_t i = 1; i < n; i++)
        if (!((id[i] >= 'a' && id[i] <= 'z') ||
              (id[i] >= '0' && id[i] <= '9') || id[i] == '_'))
            return false;
    return true;
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static const char *const kinds[] = { "insert", "upsert", "update", "delete",
                                     "truncate", "drop", "schema" };

/* The page is what the model says. */
static void check_page(const pier_changes_page *p, const char *board,
                       int64_t after, size_t limit)
{
    size_t want_limit = limit == 0 ? 1000 : limit > 10000 ? 10000 : limit;
    if (after < floor_wm) {
        FZ_CHECK(p->resync && p->from == floor_wm && p->nrecords == 0,
                 "after %" PRId64 " below the floor %" PRId64 ": resync %d "
                 "from %" PRId64 ", %zu records", after, floor_wm,
                 p->resync, p->from, p->nrecords);
        return;
    }
    FZ_CHECK(!p->resync, "resync after %" PRId64 ", floor %" PRId64, after,
             floor_wm);
    const model *m = NULL;
    for (size_t b = 0; b < 3; b++)
        if (strcmp(boards[b].board, board) == 0)
            m = &boards[b];
    size_t first = 0;
    if (m != NULL)
        while (first < m->n && m->wm[first] <= after)
            first++;
    size_t want = m != NULL ? m->n - first : 0;
    if (want > want_limit)
        want = want_limit;
    FZ_CHECK(p->nrecords == want, "board %s after %" PRId64 " limit %zu: %zu "
             "records, not %zu", board, after, limit, p->nrecords, want);
    for (size_t i = 0; i < p->nrecords; i++) {
        const pier_change *c = &p->records[i];
        FZ_CHECK(c->watermark == m->wm[first + i] && c->watermark > after,
                 "record %zu is %" PRId64 ", not %" PRId64, i, c->watermark,
                 m->wm[first + i]);
        FZ_CHECK(i == 0 || c->watermark > p->records[i - 1].watermark,
                 "watermarks not ascending");
        FZ_CHECK(strcmp(c->board, board) == 0, "record of board %s",
                 c->board);
        bool known = false;
        for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
            known = known || strcmp(c->kind, kinds[k]) == 0;
        FZ_CHECK(known, "record kind %s", c->kind);
        /* A record never changes: its payload is checked once. */
        if (c->watermark <= head && !payload_checked[c->watermark]) {
            FZ_CHECK(fz_json_valid(c->payload, c->payload_len),
                     "payload is no JSON: %s", c->payload);
            payload_checked[c->watermark] = true;
        }
        FZ_CHECK(c->committed_at == FZ_NOW - 10 * HOUR ||
                 c->committed_at == FZ_NOW, "committed_at %" PRId64,
                 c->committed_at);
    }
    int64_t next = p->nrecords > 0 ? p->records[p->nrecords - 1].watermark
                                   : after;
    FZ_CHECK(p->next == next, "next %" PRId64 ", not %" PRId64, p->next,
             next);
}

static void check_json(const pier_changes_page *p)
{
    char *s = pier_changes_page_to_json(p);
    FZ_CHECK(s != NULL, "out of memory");
    json_t *j = fz_json_parse(s, strlen(s), JSON_REJECT_DUPLICATES);
    FZ_CHECK(j != NULL, "page JSON is no JSON: %s", s);
    FZ_CHECK(json_is_true(json_object_get(j, "resync")) == p->resync,
             "page JSON says resync otherwise: %s", s);
    if (p->resync) {
        FZ_CHECK(json_integer_value(json_object_get(j, "from")) == p->from &&
                 json_object_size(j) == 2, "resync JSON: %s", s);
    } else {
        json_t *recs = json_object_get(j, "records");
        FZ_CHECK(json_array_size(recs) == p->nrecords &&
                 json_integer_value(json_object_get(j, "next")) == p->next,
                 "page JSON: %s", s);
        for (size_t i = 0; i < p->nrecords; i++) {
            json_t *r = json_array_get(recs, i);
            FZ_CHECK(json_integer_value(json_object_get(r, "watermark")) ==
                     p->records[i].watermark &&
                     json_is_object(json_object_get(r, "payload")),
                     "record JSON: %s", s);
        }
    }
    json_decref(j);
    pier_free(s);
}

static bool same_page(const pier_changes_page *a, const pier_changes_page *b)
{
    if (a->resync != b->resync || a->from != b->from ||
        a->next != b->next || a->nrecords != b->nrecords)
        return false;
    for (size_t i = 0; i < a->nrecords; i++) {
        const pier_change *x = &a->records[i], *y = &b->records[i];
        if (x->watermark != y->watermark || strcmp(x->kind, y->kind) != 0 ||
            x->payload_len != y->payload_len ||
            memcmp(x->payload, y->payload, x->payload_len) != 0 ||
            x->committed_at != y->committed_at)
            return false;
    }
    return true;
}

static void check_watch(const char *board, int64_t after, size_t limit,
                        pier_status want_rc, const pier_changes_page *page)
{
    pier_watch_options o = PIER_WATCH_OPTIONS_INIT;
    o.after = after;
    o.limit = limit;
    o.poll_ms = 1;
    pier_watch *w = NULL;
    pier_error err;
    pier_status rc = pier_watch_open(&w, engine, board, &o, &err);
    FZ_CHECK(rc == want_rc, "watch_open: %s where pier_changes said %s",
             pier_status_tag(rc), pier_status_tag(want_rc));
    if (rc != PIER_OK)
        return;
    pier_changes_page *got = NULL;
    if (page->resync || page->nrecords > 0) {
        FZ_OK(pier_watch_next(&got, w, &err), &err);
        FZ_CHECK(got != NULL && same_page(got, page),
                 "the watch's page is not pier_changes'");
        if (got->resync) {
            /* It continues from the floor. */
            pier_changes_page *want = NULL;
            FZ_OK(pier_changes(&want, engine, board, got->from, limit,
                               &err), &err);
            if (want->nrecords > 0) {
                pier_changes_page *second = NULL;
                FZ_OK(pier_watch_next(&second, w, &err), &err);
                FZ_CHECK(second != NULL && same_page(second, want),
                         "after a resync the watch does not continue from "
                         "the floor");
                pier_changes_page_free(second);
            }
            pier_changes_page_free(want);
        }
        pier_changes_page_free(got);
        got = NULL;
    }
    pier_watch_cancel(w);
    FZ_OK(pier_watch_next(&got, w, &err), &err);
    FZ_CHECK(got == NULL, "a cancelled watch returned a page");
    pier_watch_close(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (engine == NULL)
        make_lake();
    if (size < 17)
        return 0;
    char *text = NULL;
    const char *board;
    switch (data[0] & 3) {
    case 0: board = "b1"; break;
    case 1: board = "b2"; break;
    case 2: board = "b3"; break;
    default:
        text = fz_strndup(data + 17, size - 17);
        board = text;
        break;
    }
    int64_t after = (int64_t)le64(data + 1);
    if (data[0] & 4)
        after = (int64_t)((uint64_t)after % (uint64_t)(head + 4)) - 1;
    uint64_t raw_limit = le64(data + 9);
    size_t limit = (data[0] & 8) ? (size_t)(raw_limit % 12)
                                 : (size_t)raw_limit;

    pier_changes_page *p = NULL;
    pier_error err;
    pier_status rc = pier_changes(&p, engine, board, after, limit, &err);
    pier_status want = !valid_id(board) ? PIER_E_INVALID_BOARD_ID
                       : after < 0      ? PIER_E_INVALID_ARGUMENT
                                        : PIER_OK;
    FZ_CHECK(rc == want, "pier_changes('%s', %" PRId64 ", %zu): %s, not %s",
             board, after, limit, pier_status_tag(rc),
             pier_status_tag(want));
    FZ_CHECK((rc == PIER_OK) == (p != NULL), "a page only with PIER_OK");
    if (rc == PIER_OK) {
        check_page(p, board, after, limit);
        check_json(p);
    }
    check_watch(board, after, limit, rc, p);
    pier_changes_page_free(p);
    free(text);
    return 0;
}
