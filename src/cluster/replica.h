/*
 * replica.h: a node's local copy of one board of a PostgreSQL lake
 * (docs/architecture.md, "Replicas and sync"): an embedded lake of that
 * board alone, in a directory of the node's cache, with the watermark its
 * rows reflect, the lake's identity and the board's key.
 */
#ifndef PIER_CLUSTER_REPLICA_H
#define PIER_CLUSTER_REPLICA_H

#include <libpq-fe.h>

#include "base/base.h"
#include "store/lake.h"

/* What a replica says of itself. */
typedef struct pier__replica_meta {
    int64_t watermark;         /* the lake's head its rows reflect */
    int64_t identity;          /* the lake's (pier__pg_meta.identity) */
    int64_t board_key;         /* the board's, when it was copied */
} pier__replica_meta;

/*
 * Rebuilds the replica of `board` in directory `dir` from the lake in
 * namespace `ns` (identity `identity`): in one read-only REPEATABLE READ
 * transaction, the head H, the board's catalog rows and its rows (each
 * with its version stamp); a new embedded lake is written in "<dir>.new"
 * at watermark H and then takes dir's place. The serialized head makes H
 * exact for that snapshot. A failure leaves no replica in dir, or the one
 * that was there: never a wrong one.
 * @return PIER_E_BOARD_NOT_FOUND; PIER_E_READ_FAILED (the server);
 *         PIER_E_LAKE_UNAVAILABLE (the cache directory).
 */
pier_status pier__replica_rebuild(PGconn *c, const char *ns,
                                  int64_t identity, const char *board,
                                  const char *dir, pier__replica_meta *out,
                                  pier_error *err);

/* What the replica in `dir` says of itself; PIER_E_LAKE_UNAVAILABLE when
 * dir holds none (missing, not a lake, or a lake that is no replica). */
pier_status pier__replica_meta_read(const char *dir, pier__replica_meta *out,
                                    pier_error *err);

/* Removes the replica in `dir`, whatever its file holds (a replica is
 * the node's cache: a damaged one goes as a sound one does); a missing
 * one is no error.
 * @return PIER_E_LAKE_UNAVAILABLE naming what could not be removed (a
 *         directory holding other files among the reasons). */
pier_status pier__replica_remove(const char *dir, pier_error *err);

/* Writes what the replica whose lake is `lake` (an embedded lake, in a
 * write transaction) says of itself. */
pier_status pier__replica_meta_write(pier__lake *lake,
                                     const pier__replica_meta *m,
                                     pier_error *err);

#endif /* PIER_CLUSTER_REPLICA_H */
