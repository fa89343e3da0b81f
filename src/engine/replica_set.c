/*
 * replica_set.c: the replicas a node keeps open (replica_set.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/replica.h"
#include "engine/replica_set.h"

pier_status pier__replicas_init(pier__replica_set *s, const char *cache_dir,
                                size_t cap, pier_error *err)
{
    *s = (pier__replica_set){ .cap = cap > 0 ? cap : 1 };
    s->cache_dir = pier__strndup(cache_dir, strlen(cache_dir));
    s->open = calloc(s->cap, sizeof *s->open);
    if (s->cache_dir == NULL || s->open == NULL) {
        pier__replicas_free(s);
        return pier__oom(err);
    }
    return PIER_OK;
}

void pier__replicas_free(pier__replica_set *s)
{
    for (size_t i = 0; i < s->nopen; i++)
        pier_close(&s->open[i].engine);
    free(s->open);
    free(s->cache_dir);
    *s = (pier__replica_set){ 0 };
}

/* The directory of board's replica, into out (cap bytes); false when it
 * does not fit. */
static bool dir_of(const pier__replica_set *s, const char *board, char *out,
                   size_t cap)
{
    int n = snprintf(out, cap, "%s/%s", s->cache_dir, board);
    return n > 0 && (size_t)n < cap;
}

static ptrdiff_t find(const pier__replica_set *s, const char *board)
{
    for (size_t i = 0; i < s->nopen; i++)
        if (strcmp(s->open[i].board, board) == 0)
            return (ptrdiff_t)i;
    return -1;
}

/* Closes open replica i and takes it out of the set. */
static void close_at(pier__replica_set *s, size_t i)
{
    pier_close(&s->open[i].engine);
    s->open[i] = s->open[--s->nopen];
}

pier_status pier__replicas_get(pier__replica_set *s, PGconn *c,
                               const char *ns, int64_t identity,
                               const char *board, int64_t target,
                               pier_engine **out, pier_error *err)
{
    *out = NULL;
    char dir[4096];
    if (board == NULL || strlen(board) >= sizeof s->open[0].board ||
        !dir_of(s, board, dir, sizeof dir))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a replica needs a board id and a cache "
                          "directory that fit");
    pier__replica_meta meta;
    pier__sync_report rep;
    pier_status rc = pier__replica_sync(c, ns, identity, board, dir, target,
                                        &meta, &rep, err);
    ptrdiff_t at = find(s, board);
    /* (made again, or gone: the handle open on it is of the old files) */
    if (at >= 0 && (rep.rebuilt || rc == PIER_E_BOARD_NOT_FOUND)) {
        close_at(s, (size_t)at);
        at = -1;
    }
    if (rc != PIER_OK)
        return rc;
    s->syncs++;
    s->applied += rep.applied;
    s->rebuilds += rep.rebuilt ? 1 : 0;
    if (at < 0) {
        if (s->nopen == s->cap) {
            size_t lru = 0;
            for (size_t i = 1; i < s->nopen; i++)
                if (s->open[i].used < s->open[lru].used)
                    lru = i;
            close_at(s, lru);
        }
        pier_open_options opts = PIER_OPEN_OPTIONS_INIT;
        opts.auto_create = PIER_AUTO_CREATE_NEVER;
        opts.durability = PIER_DURABILITY_NORMAL;
        pier__open_replica *r = &s->open[s->nopen];
        *r = (pier__open_replica){ .used = 0 };
        snprintf(r->board, sizeof r->board, "%s", board);
        rc = pier_open(&r->engine, dir, &opts, err);
        if (rc != PIER_OK)
            return rc;
        at = (ptrdiff_t)s->nopen++;
    }
    s->open[at].used = ++s->tick;
    *out = s->open[at].engine;
    return PIER_OK;
}

pier_status pier__replicas_evict(pier__replica_set *s, const char *board,
                                 pier_error *err)
{
    char dir[4096];
    if (board == NULL || !dir_of(s, board, dir, sizeof dir))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a replica needs a board id");
    ptrdiff_t at = find(s, board);
    if (at >= 0)
        close_at(s, (size_t)at);
    return pier__replica_remove(dir, err);
}
