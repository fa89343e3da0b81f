/*
 * replica_set.c: the replicas a node keeps open (replica_set.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

void pier__replica_release(pier__replica *r)
{
    if (r == NULL || atomic_fetch_sub(&r->refs, 1) != 1)
        return;
    if (r->lake != NULL)
        r->lake->ops->close(r->lake);
    free(r);
}

void pier__replicas_free(pier__replica_set *s)
{
    for (size_t i = 0; i < s->nopen; i++)
        pier__replica_release(s->open[i]);
    free(s->open);
    free(s->cache_dir);
    *s = (pier__replica_set){ 0 };
}

/* The directory of board's replica, or its lake file, into out (cap
 * bytes); false when it does not fit. */
static bool path_of(const pier__replica_set *s, const char *board,
                    bool file, char *out, size_t cap)
{
    int n = snprintf(out, cap, "%s/%s%s", s->cache_dir, board,
                     file ? "/" PIER__SQLITE_LAKE_FILE : "");
    return n > 0 && (size_t)n < cap;
}

static ptrdiff_t find(const pier__replica_set *s, const char *board)
{
    for (size_t i = 0; i < s->nopen; i++)
        if (strcmp(s->open[i]->board, board) == 0)
            return (ptrdiff_t)i;
    return -1;
}

pier__replica *pier__replicas_find(pier__replica_set *s, const char *board)
{
    ptrdiff_t at = find(s, board);
    return at >= 0 ? s->open[at] : NULL;
}

/* Takes open replica i out of the set, giving back the set's reference. */
static void close_at(pier__replica_set *s, size_t i)
{
    pier__replica *r = s->open[i];
    s->open[i] = s->open[--s->nopen];
    pier__replica_release(r);
}

/* Whether open replica r's lake file is still the one it opened. */
static bool still_there(const pier__replica_set *s, const pier__replica *r)
{
    char path[4096];
    struct stat st;
    return path_of(s, r->board, true, path, sizeof path) &&
           stat(path, &st) == 0 && st.st_dev == r->dev &&
           st.st_ino == r->ino;
}

/* Opens the replica in board's directory (synced: meta says where). */
static pier_status open_one(pier__replica_set *s, const char *board,
                            const pier__replica_meta *meta,
                            pier__replica **out, pier_error *err)
{
    char dir[4096], path[4096];
    path_of(s, board, false, dir, sizeof dir);
    path_of(s, board, true, path, sizeof path);
    pier__replica *r = calloc(1, sizeof *r);
    if (r == NULL)
        return pier__oom(err);
    snprintf(r->board, sizeof r->board, "%s", board);
    r->meta = *meta;
    atomic_init(&r->refs, 1);
    const pier__lake_config cfg = { .durability = PIER_DURABILITY_NORMAL,
                                    .busy_timeout_ms = 5000 };
    pier_status rc = pier__sqlite_lake_open(&r->lake, dir, &cfg, err);
    struct stat st;
    if (rc == PIER_OK && stat(path, &st) != 0)
        rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE, "the replica of board "
                        "'%s' is gone from '%s'", board, dir);
    if (rc != PIER_OK) {
        pier__replica_release(r);
        return rc;
    }
    r->dev = st.st_dev;
    r->ino = st.st_ino;
    *out = r;
    return PIER_OK;
}

pier_status pier__replicas_get(pier__replica_set *s, PGconn *c,
                               const char *ns, int64_t identity,
                               const char *board, int64_t target,
                               pier__replica **out, pier_error *err)
{
    *out = NULL;
    char dir[4096];
    if (board == NULL || strlen(board) > PIER__NAME_MAX ||
        !path_of(s, board, true, dir, sizeof dir) ||
        !path_of(s, board, false, dir, sizeof dir))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a replica needs a board id and a cache "
                          "directory that fit");
    ptrdiff_t at = find(s, board);
    /* (its file removed or replaced under it: made again below) */
    if (at >= 0 && !still_there(s, s->open[at])) {
        close_at(s, (size_t)at);
        at = -1;
    }
    if (at < 0 || s->open[at]->meta.watermark < target) {
        pier__replica_meta meta;
        pier__sync_report rep;
        pier_status rc = pier__replica_sync(c, ns, identity, board, dir,
                                            target, &meta, &rep, err);
        /* (made again, or gone: the lake open on it is of the old files) */
        if (at >= 0 && (rep.rebuilt || rc == PIER_E_BOARD_NOT_FOUND)) {
            close_at(s, (size_t)at);
            at = -1;
        }
        if (rc != PIER_OK)
            return rc;
        s->syncs++;
        s->applied += rep.applied;
        s->rebuilds += rep.rebuilt ? 1 : 0;
        if (at >= 0) {
            s->open[at]->meta = meta;
        } else {
            pier__replica *r = NULL;
            rc = open_one(s, board, &meta, &r, err);
            if (rc != PIER_OK)
                return rc;
            if (s->nopen == s->cap) {
                size_t lru = 0;
                for (size_t i = 1; i < s->nopen; i++)
                    if (s->open[i]->used < s->open[lru]->used)
                        lru = i;
                close_at(s, lru);
            }
            at = (ptrdiff_t)s->nopen;
            s->open[s->nopen++] = r;
        }
    }
    pier__replica *r = s->open[at];
    r->used = ++s->tick;
    atomic_fetch_add(&r->refs, 1);
    *out = r;
    return PIER_OK;
}

pier_status pier__replicas_evict(pier__replica_set *s, const char *board,
                                 pier_error *err)
{
    char dir[4096];
    if (board == NULL || !path_of(s, board, false, dir, sizeof dir))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a replica needs a board id");
    ptrdiff_t at = find(s, board);
    if (at >= 0)
        close_at(s, (size_t)at);
    return pier__replica_remove(dir, err);
}
