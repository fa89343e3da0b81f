/*
 * replica_sync.h: bringing a board's replica up to a watermark of its
 * PostgreSQL lake (docs/architecture.md, "Replicas and sync"), by applying
 * the board's change records to it, or by rebuilding it where records
 * cannot say enough. In the engine layer because the records' payloads
 * are the engine's (changes.c).
 */
#ifndef PIER_ENGINE_REPLICA_SYNC_H
#define PIER_ENGINE_REPLICA_SYNC_H

#include <libpq-fe.h>

#include "cluster/replica.h"

/* What a sync did. */
typedef struct pier__sync_report {
    int64_t applied;           /* records applied */
    bool rebuilt;              /* the replica was made again */
} pier__sync_report;

/*
 * Brings the replica of `board` in `dir` to at least watermark `target`
 * of the lake in `ns` (identity `identity`): nothing when it is there
 * already; else the board's records after its watermark, a page at a
 * time, each page applied in one transaction of the replica together
 * with its new watermark (a crash leaves it behind, never wrong). It is
 * rebuilt (pier__replica_rebuild) when it is missing, of another lake or
 * another incarnation of the board, behind the lake's retention floor, or
 * when a record changes the board's schema or does not fit what the
 * replica holds. *out: its meta after.
 * @return PIER_E_BOARD_NOT_FOUND when the board was dropped (its replica
 *         is removed); PIER_E_SYNC_FAILED when the server could not be
 *         read or the replica written, its disk or its directory failing
 *         among the reasons (the message has the reason; the replica
 *         stays as it was).
 */
pier_status pier__replica_sync(PGconn *c, const char *ns, int64_t identity,
                               const char *board, const char *dir,
                               int64_t target, pier__replica_meta *out,
                               pier__sync_report *report, pier_error *err);

#endif /* PIER_ENGINE_REPLICA_SYNC_H */
