/*
 * head.h: a node's cache of its PostgreSQL lake's head (docs/
 * architecture.md, "Replicas and sync"). A query syncs its board's
 * replica to the cached head, so that the head is read from the server
 * at most once per refresh interval, not per query:
 *
 *   - the cache is read again when it is older than the interval;
 *   - the node's own writes raise it at once (a node reads its writes);
 *   - a caller's minimum watermark above it makes it read again now.
 *
 * So a read of another node's write is stale by at most one interval
 * (and the read's own round trip). Pure but for pier__head_read.
 */
#ifndef PIER_CLUSTER_HEAD_H
#define PIER_CLUSTER_HEAD_H

#include <stdbool.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "base/base.h"

typedef struct pier__head_cache {
    int64_t head;              /* the newest watermark known */
    int64_t read_at_us;        /* when the server last said it; 0: never */
    int64_t refresh_us;        /* the interval */
} pier__head_cache;

/* A cache that reads the head at most every refresh_us microseconds. */
void pier__head_init(pier__head_cache *h, int64_t refresh_us);

/* Whether a sync at `now_us` for a caller asking for at least
 * `min_watermark` (0: none) must read the head from the server first. */
bool pier__head_stale(const pier__head_cache *h, int64_t now_us,
                      int64_t min_watermark);

/* The server said `head` at `now_us`. */
void pier__head_heard(pier__head_cache *h, int64_t head, int64_t now_us);

/* This node committed a write ending at `watermark`: the cache rises at
 * once, without a read. */
void pier__head_raise(pier__head_cache *h, int64_t watermark);

/* The watermark a sync goes to: the cached head, or the caller's minimum
 * when that is above it (the caller's own write, not yet heard). */
int64_t pier__head_target(const pier__head_cache *h, int64_t min_watermark);

/* Reads the head of the lake in `ns` and tells the cache (`now_us`).
 * @return PIER_E_READ_FAILED with the server's message. */
pier_status pier__head_read(pier__head_cache *h, PGconn *c, const char *ns,
                            int64_t now_us, pier_error *err);

#endif /* PIER_CLUSTER_HEAD_H */
