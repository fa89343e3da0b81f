/*
 * replica_set.h: the replicas a node keeps open (docs/architecture.md,
 * "Replicas and sync"): one embedded lake per board it reads, in
 * `<cache>/<board>/`, synced before each use, at most `cap` of them open
 * at once (the least recently used is closed first), with the counts
 * pier_stats reports.
 *
 * A replica is handed out with a reference: a reader (a query's cursor)
 * keeps the replica's lake open while it reads, even once the set has
 * closed it (made again, evicted, or the least recently used), and the
 * last reference closes it. Calls on the set need the caller's lock (the
 * engine's); pier__replica_release needs none.
 */
#ifndef PIER_ENGINE_REPLICA_SET_H
#define PIER_ENGINE_REPLICA_SET_H

#include <stdatomic.h>
#include <sys/types.h>

#include <libpq-fe.h>

#include "engine/replica_sync.h"
#include "pier.h"

typedef struct pier__replica {
    char board[PIER__NAME_MAX + 1];
    pier__lake *lake;          /* the replica, opened as an embedded lake */
    pier__replica_meta meta;   /* what it says of itself, as last synced */
    dev_t dev;                 /* its lake file when it was opened */
    ino_t ino;
    atomic_int refs;           /* the set's (while open in it), and one per
                                  reference handed out */
    int64_t fresh_at_us;       /* when it was last known to be at the
                                  lake's head (pier__clock_monotonic); the
                                  set's user keeps it */
    uint64_t used;             /* when it was last handed out (a tick) */
} pier__replica;

typedef struct pier__replica_set {
    char *cache_dir;
    size_t cap;                /* the most open at once (at least 1) */
    pier__replica **open;
    size_t nopen;
    uint64_t tick;
    int64_t syncs;             /* syncs that read the change log */
    int64_t applied;           /* records applied by them */
    int64_t rebuilds;          /* replicas made again */
} pier__replica_set;

/* A set of at most `cap` open replicas under cache_dir (copied).
 * @return PIER_E_OUT_OF_MEMORY. */
pier_status pier__replicas_init(pier__replica_set *s, const char *cache_dir,
                                size_t cap, pier_error *err);
/* Closes every open replica (those still referenced close with their last
 * reference); their files stay. */
void pier__replicas_free(pier__replica_set *s);

/*
 * The replica of `board`, synced to at least `target`: at once, with no
 * I/O but a stat of its file, when the open replica is there already;
 * else by pier__replica_sync. *out holds a reference for the caller
 * (pier__replica_release). A replica whose file was removed or replaced
 * under it, or that was made again, is opened again; opening one more
 * than `cap` closes the least recently used.
 * @return as pier__replica_sync; PIER_E_LAKE_UNAVAILABLE when the replica
 *         does not open.
 */
pier_status pier__replicas_get(pier__replica_set *s, PGconn *c,
                               const char *ns, int64_t identity,
                               const char *board, int64_t target,
                               pier__replica **out, pier_error *err);

/* The open replica of `board`, or NULL; no reference is taken. */
pier__replica *pier__replicas_find(pier__replica_set *s, const char *board);

/* Gives back a reference; the last one closes the replica's lake. NULL:
 * no-op. */
void pier__replica_release(pier__replica *r);

/* Closes the replica of `board` and deletes its files (pier_evict): the
 * next use makes it again from the lake. */
pier_status pier__replicas_evict(pier__replica_set *s, const char *board,
                                 pier_error *err);

#endif /* PIER_ENGINE_REPLICA_SET_H */
