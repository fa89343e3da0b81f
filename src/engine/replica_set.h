/*
 * replica_set.h: the replicas a node keeps open (docs/architecture.md,
 * "Replicas and sync"): one embedded lake per board it reads, in
 * `<cache>/<board>/`, synced before each use, at most `cap` of them open
 * at once (the least recently used is closed first), with the counts
 * pier_stats reports.
 */
#ifndef PIER_ENGINE_REPLICA_SET_H
#define PIER_ENGINE_REPLICA_SET_H

#include <libpq-fe.h>

#include "engine/replica_sync.h"
#include "pier.h"

typedef struct pier__open_replica {
    char board[64];
    pier_engine *engine;       /* the replica, opened as an embedded lake */
    uint64_t used;             /* when it was last handed out (a tick) */
} pier__open_replica;

typedef struct pier__replica_set {
    char *cache_dir;
    size_t cap;                /* the most open at once (at least 1) */
    pier__open_replica *open;
    size_t nopen;
    uint64_t tick;
    int64_t syncs;             /* pier__replicas_get calls that synced */
    int64_t applied;           /* records applied by them */
    int64_t rebuilds;          /* replicas made again */
} pier__replica_set;

/* A set of at most `cap` open replicas under cache_dir (copied).
 * @return PIER_E_OUT_OF_MEMORY. */
pier_status pier__replicas_init(pier__replica_set *s, const char *cache_dir,
                                size_t cap, pier_error *err);
/* Closes every open replica; their files stay. */
void pier__replicas_free(pier__replica_set *s);

/*
 * The replica of `board`, synced to `target` (pier__replica_sync) and
 * open: *out is borrowed until the next call on the set. A replica made
 * again while it was open is opened again; opening one more than `cap`
 * closes the least recently used.
 * @return as pier__replica_sync; PIER_E_LAKE_UNAVAILABLE when the
 *         replica does not open.
 */
pier_status pier__replicas_get(pier__replica_set *s, PGconn *c,
                               const char *ns, int64_t identity,
                               const char *board, int64_t target,
                               pier_engine **out, pier_error *err);

/* Closes the replica of `board` and deletes its files (pier_evict): the
 * next use makes it again from the lake. */
pier_status pier__replicas_evict(pier__replica_set *s, const char *board,
                                 pier_error *err);

#endif /* PIER_ENGINE_REPLICA_SET_H */
