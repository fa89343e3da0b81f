/*
 * changes_page.c: one page of a board's change feed (pier_changes) and
 * its JSON forms.
 *
 * A page is one allocation plus an arena: the board id once, the kinds as
 * static strings, the payloads and the record array all live in the
 * arena, so pier_changes_page_free is two frees whatever the page holds.
 *
 * A board's records outlive the board: the drop record is the last one a
 * consumer reads, and it must be able to read it after the drop. So
 * pier_changes never asks the catalog; a board that never existed simply
 * has no records.
 *
 * The retention floor is the lake's, not the board's: maintenance drops
 * old records of every board at once, so `after` below the floor is a
 * resync even for a board whose own records happen to be all there.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "types/sqlcol.h"

/* limit 0 asks for the default; more than the cap is cut to it. 10000
 * records of a few hundred bytes each keep one page to a few megabytes. */
#define DEFAULT_LIMIT 1000
#define MAX_LIMIT 10000

typedef struct page_mem {
    pier_changes_page page;    /* first: the pointer handed out */
    pier__arena arena;
} page_mem;

static page_mem *page_new(void)
{
    page_mem *m = calloc(1, sizeof *m);
    if (m != NULL)
        pier__arena_init(&m->arena);
    return m;
}

PIER_API void pier_changes_page_free(pier_changes_page *page)
{
    if (page == NULL)
        return;
    page_mem *m = (page_mem *)page;
    pier__arena_free(&m->arena);
    free(m);
}

/* The kinds the engine writes, kept as static strings. */
static const char *const known_kinds[] = {
    "insert", "upsert", "update", "delete", "truncate", "drop", "schema",
};

/* What the reading callback collects. */
typedef struct collect {
    page_mem *m;
    const char *board;         /* in the arena */
    pier_change *recs;         /* malloc'ed while reading */
    size_t n, cap;
    bool oom;
    int64_t damaged;           /* a record whose payload is not JSON; 0:
                                  none */
} collect;

static int collect_cb(const pier_change *rec, void *payload)
{
    collect *c = payload;
    /* The engine writes JSON payloads, and the page's JSON embeds them as
     * they are: a payload that is not JSON comes from a lake damaged
     * outside Pier, and reading stops there rather than hand it on. */
    if (pier__json_check(rec->payload, rec->payload_len) != NULL) {
        c->damaged = rec->watermark;
        return 1;
    }
    if (c->n == c->cap) {
        size_t cap = c->cap == 0 ? 16 : c->cap * 2;
        pier_change *grown = realloc(c->recs, cap * sizeof *grown);
        if (grown == NULL) {
            c->oom = true;
            return 1;
        }
        c->recs = grown;
        c->cap = cap;
    }
    pier_change *r = &c->recs[c->n];
    *r = *rec;
    r->board = c->board;
    r->kind = NULL;
    for (size_t i = 0; i < sizeof known_kinds / sizeof *known_kinds; i++) {
        if (strcmp(rec->kind, known_kinds[i]) == 0) {
            r->kind = known_kinds[i];
            break;
        }
    }
    if (r->kind == NULL)
        r->kind = pier__arena_strndup(&c->m->arena, rec->kind,
                                      strlen(rec->kind));
    r->payload = pier__arena_strndup(&c->m->arena, rec->payload,
                                     rec->payload_len);
    if (r->kind == NULL || r->payload == NULL) {
        c->oom = true;
        return 1;
    }
    c->n++;
    return 0;
}

/* Reads the page inside the engine's read transaction. */
static pier_status read_page(page_mem *m, pier_engine *e, const char *board,
                             int64_t after, size_t limit, pier_error *err)
{
    pier__lake *lake = e->lake;
    int64_t floor = 0, head = 0;
    pier_status rc = lake->ops->floor(lake, &floor, err);
    if (rc == PIER_OK)
        rc = lake->ops->head(lake, &head, err);
    if (rc != PIER_OK)
        return rc;
    pier__feed_saw_head(&e->feed, head);
    pier_changes_page *p = &m->page;
    if (after < floor) {
        p->resync = true;
        p->from = floor;
        p->next = floor;
        return PIER_OK;
    }
    p->next = after;
    collect c = { .m = m };
    c.board = pier__arena_strndup(&m->arena, board, strlen(board));
    if (c.board == NULL)
        return pier__oom(err);
    rc = lake->ops->changes_read(lake, board, after, limit, collect_cb, &c,
                                 err);
    if (rc == PIER_OK && c.oom)
        rc = pier__oom(err);
    if (rc == PIER_OK && c.damaged != 0)
        rc = pier__fail(err, PIER_E_READ_FAILED,
                        "change record %lld of board '%s' is damaged: its "
                        "payload is not JSON (the lake was changed outside "
                        "Pier); records after it are read with after = "
                        "%lld", (long long)c.damaged, board,
                        (long long)c.damaged);
    if (rc == PIER_OK && c.n > 0) {
        pier_change *recs = pier__arena_alloc(&m->arena,
                                              c.n * sizeof *recs);
        if (recs == NULL) {
            rc = pier__oom(err);
        } else {
            memcpy(recs, c.recs, c.n * sizeof *recs);
            p->records = recs;
            p->nrecords = c.n;
            p->next = recs[c.n - 1].watermark;
        }
    }
    free(c.recs);
    return rc;
}

PIER_API pier_status pier_changes(pier_changes_page **out,
                                  pier_engine *engine, const char *board,
                                  int64_t after, size_t limit,
                                  pier_error *err)
{
    pier__error_clear(err);
    if (out == NULL || engine == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_changes needs an engine and somewhere to "
                          "put the page");
    *out = NULL;
    pier_status rc = pier__board_id_check(board, err);
    if (rc != PIER_OK)
        return rc;
    if (after < 0)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "after must be a watermark (0 or more), got %lld",
                          (long long)after);
    if (limit == 0)
        limit = DEFAULT_LIMIT;
    else if (limit > MAX_LIMIT)
        limit = MAX_LIMIT;
    page_mem *m = page_new();
    if (m == NULL)
        return pier__oom(err);
    rc = pier__engine_begin(engine, false, err);
    if (rc == PIER_OK) {
        rc = read_page(m, engine, board, after, limit, err);
        rc = pier__engine_end(engine, rc, err);
    }
    if (rc != PIER_OK) {
        pier_changes_page_free(&m->page);
        return rc;
    }
    atomic_fetch_add(&engine->feed.queries, 1);
    *out = &m->page;
    return PIER_OK;
}

/* ---- JSON ---- */

static void change_json(pier__buf *b, const pier_change *c)
{
    char ts[PIER__TIMESTAMP_BUF];
    size_t tn = pier__timestamp_format(c->committed_at, ts);
    pier__buf_printf(b, "{\"watermark\":%lld,\"board\":",
                     (long long)c->watermark);
    pier__buf_json_string(b, c->board, strlen(c->board));
    pier__buf_puts(b, ",\"kind\":");
    pier__buf_json_string(b, c->kind, strlen(c->kind));
    pier__buf_puts(b, ",\"payload\":");
    /* The payload is JSON the engine wrote, embedded as it is; unless the
     * file was damaged since, and then it is a JSON string of its text. */
    if (c->payload != NULL && c->payload_len > 0)
        pier__json_embed(b, c->payload, c->payload_len);
    else
        pier__buf_puts(b, "null");
    pier__buf_puts(b, ",\"committed_at\":");
    pier__buf_json_string(b, ts, tn);
    pier__buf_putc(b, '}');
}

PIER_API char *pier_change_to_json(const pier_change *change)
{
    if (change == NULL)
        return NULL;
    pier__buf b;
    pier__buf_init(&b);
    change_json(&b, change);
    return pier__buf_detach(&b);
}

PIER_API char *pier_changes_page_to_json(const pier_changes_page *page)
{
    if (page == NULL)
        return NULL;
    pier__buf b;
    pier__buf_init(&b);
    if (page->resync) {
        pier__buf_printf(&b, "{\"resync\":true,\"from\":%lld}",
                         (long long)page->from);
        return pier__buf_detach(&b);
    }
    pier__buf_puts(&b, "{\"resync\":false,\"records\":[");
    for (size_t i = 0; i < page->nrecords; i++) {
        if (i > 0)
            pier__buf_putc(&b, ',');
        change_json(&b, &page->records[i]);
    }
    pier__buf_printf(&b, "],\"next\":%lld}", (long long)page->next);
    return pier__buf_detach(&b);
}
