/*
 * ops.c: the head and per-board watermarks, and the operations: maintain,
 * flush, evict, stats.
 *
 * In the embedded topology every board is read straight from the lake, so
 * a board is always at the head: watermark_of and sync answer with the
 * lake's head, and flush and evict have nothing to do beyond checking
 * their board. A PostgreSQL lake's node keeps replicas (pg_lake.c): sync
 * brings one to the head, watermark_of says where one is, evict deletes
 * one.
 */
#include <string.h>

#include "engine/engine.h"

PIER_API int64_t pier_head(const pier_engine *engine)
{
    if (engine == NULL)
        return 0;
    /* A load does not change the object; C17 allows it through a pointer
     * to const, but not every compiler's atomic_load does. */
    return atomic_load((_Atomic int64_t *)&engine->feed.head);
}

/* Reads the lake's head inside an open transaction and remembers it. */
static pier_status lake_head(pier_engine *e, int64_t *out, pier_error *err)
{
    pier_status rc = e->lake->ops->head(e->lake, out, err);
    if (rc == PIER_OK)
        pier__feed_saw_head(&e->feed, *out);
    return rc;
}

PIER_API pier_status pier_head_from_catalog(int64_t *out,
                                            pier_engine *engine,
                                            pier_error *err)
{
    pier__error_clear(err);
    if (out == NULL || engine == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_head_from_catalog needs an engine and an "
                          "output");
    int64_t head = 0;
    pier_status rc = pier__engine_begin(engine, false, err);
    if (rc != PIER_OK)
        return rc;
    rc = lake_head(engine, &head, err);
    rc = pier__engine_end(engine, rc, err);
    if (rc == PIER_OK)
        *out = head;
    return rc;
}

/* The head, once the board is known to exist: watermark_of and sync. */
static pier_status board_head(int64_t *out, pier_engine *e,
                              const char *board, pier_error *err)
{
    pier__error_clear(err);
    if (e == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "no engine");
    pier_status rc = pier__board_id_check(board, err);
    if (rc != PIER_OK)
        return rc;
    rc = pier__engine_begin(e, false, err);
    if (rc != PIER_OK)
        return rc;
    pier__board *b = NULL;
    int64_t head = 0;
    rc = pier__engine_board(e, board, &b, err);
    if (rc == PIER_OK)
        rc = lake_head(e, &head, err);
    rc = pier__engine_end(e, rc, err);
    if (rc == PIER_OK && out != NULL)
        *out = head;
    return rc;
}

PIER_API pier_status pier_watermark_of(int64_t *out, pier_engine *engine,
                                       const char *board, pier_error *err)
{
    if (out == NULL) {
        pier__error_clear(err);
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_watermark_of needs an output");
    }
    int64_t head = 0;
    pier_status rc = board_head(&head, engine, board, err);
    if (rc == PIER_OK && engine->lake->ops->replica_watermark != NULL) {
        pthread_mutex_lock(&engine->lock);
        head = engine->lake->ops->replica_watermark(engine->lake, board);
        pthread_mutex_unlock(&engine->lock);
    }
    if (rc == PIER_OK)
        *out = head;
    return rc;
}

PIER_API pier_status pier_sync(int64_t *watermark, pier_engine *engine,
                               const char *board, pier_error *err)
{
    int64_t head = 0;
    pier_status rc = board_head(&head, engine, board, err);
    if (rc == PIER_OK && engine->lake->ops->sync != NULL) {
        pthread_mutex_lock(&engine->lock);
        rc = engine->lake->ops->sync(engine->lake, board, &head, err);
        pthread_mutex_unlock(&engine->lock);
    }
    if (rc == PIER_OK && watermark != NULL)
        *watermark = head;
    return rc;
}

/* ---- maintenance ---- */

/* Microseconds in an hour. INT_MAX hours of them still fit in an
 * int64_t (about 7.7e18 < 9.2e18). */
#define HOUR_US INT64_C(3600000000)

PIER_API pier_status pier_maintain(pier_engine *engine, int older_than_hours,
                                   pier_error *err)
{
    pier__error_clear(err);
    if (engine == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "no engine");
    if (older_than_hours < 0)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "older_than_hours cannot be negative, got %d",
                          older_than_hours);
    /* A thread with a pier_tx open holds the engine's lock: refused as
     * by every call, before the lock is taken. */
    if (pier__tx_open_here(engine) || engine->opts.readonly)
        return pier__engine_begin(engine, true, err);
    /* The log first: on a full disk, expiring records needs room in the
     * log, which a checkpoint gives back (it needs room only for the pages
     * the log adds to the lake file). Holding the engine's lock, with no
     * transaction open on its connection. */
    pthread_mutex_lock(&engine->lock);
    pier_status rc = engine->lake->ops->checkpoint(engine->lake, err);
    pthread_mutex_unlock(&engine->lock);
    if (rc != PIER_OK)
        return rc;
    rc = pier__engine_begin(engine, true, err);
    if (rc != PIER_OK)
        return rc;
    int64_t now = pier__engine_now(engine);
    int64_t span = (int64_t)older_than_hours * HOUR_US;
    /* A clock near the start of its range: nothing is that old. */
    int64_t before = now >= INT64_MIN + span ? now - span : INT64_MIN;
    int64_t dropped = 0;
    rc = engine->lake->ops->changes_expire(engine->lake, before, now,
                                           &dropped, err);
    rc = pier__engine_end(engine, rc, err);
    if (rc != PIER_OK)
        return rc;
    /* Compacting the files needs no transaction open on this connection
     * (a checkpoint cannot run inside one), but the connection is still
     * the engine's: hold its lock. */
    pthread_mutex_lock(&engine->lock);
    rc = engine->lake->ops->compact_files(engine->lake, err);
    pthread_mutex_unlock(&engine->lock);
    if (rc != PIER_OK && err != NULL) {
        /* The expiry committed: say so, and how to finish. */
        char why[sizeof err->message];
        int code = err->backend_code;
        pier__copy_field(why, sizeof why, err->message);
        pier__fail(err, rc, "the old change records were dropped, but the "
                   "lake file was not compacted (run maintain again): %s",
                   why);
        err->backend_code = code;
    }
    return rc;
}

/* Checks a board for flush and evict. */
static pier_status check_board(pier_engine *e, const char *board,
                               pier_error *err)
{
    pier_status rc = pier__board_id_check(board, err);
    if (rc != PIER_OK)
        return rc;
    rc = pier__engine_begin(e, false, err);
    if (rc != PIER_OK)
        return rc;
    pier__board *b = NULL;
    rc = pier__engine_board(e, board, &b, err);
    return pier__engine_end(e, rc, err);
}

PIER_API pier_status pier_flush(pier_engine *engine, const char *board,
                                pier_error *err)
{
    pier__error_clear(err);
    if (engine == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "no engine");
    if (board == NULL)
        return PIER_OK;        /* every board: none has anything pending */
    return check_board(engine, board, err);
}

PIER_API pier_status pier_evict(pier_engine *engine, const char *board,
                                pier_error *err)
{
    pier__error_clear(err);
    if (engine == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "no engine");
    pier_status rc = check_board(engine, board, err);
    if (rc == PIER_OK && engine->lake->ops->evict != NULL) {
        pthread_mutex_lock(&engine->lock);
        rc = engine->lake->ops->evict(engine->lake, board, err);
        pthread_mutex_unlock(&engine->lock);
    }
    return rc;
}

pier_status pier__engine_embedded(pier_engine *e, const char *what,
                                  pier_error *err)
{
    if (e == NULL || e->lake->ops->stmt_prepare != NULL)
        return PIER_OK;
    return pier__fail(err, PIER_E_TOPOLOGY_UNSUPPORTED, "%s: not available "
                      "on a PostgreSQL lake yet (its clustered topology "
                      "serves boards: writes, the feed and board queries)",
                      what);
}

/* The size of a pier_board_stats of `version`: a caller built against an
 * older header has a shorter struct, which must not be written past. */
static size_t board_stats_size(unsigned version)
{
    (void)version;   /* version 1 is the whole struct */
    return sizeof(pier_board_stats);
}

PIER_API pier_status pier_board_stats_get(pier_board_stats *out,
                                          pier_engine *engine,
                                          const char *board,
                                          pier_error *err)
{
    pier__error_clear(err);
    if (out == NULL || engine == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_board_stats_get needs an engine and an "
                          "output");
    if (out->version < 1 || out->version > PIER_BOARD_STATS_VERSION)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_board_stats version %u is unknown (this "
                          "library knows 1 to %d; start from "
                          "PIER_BOARD_STATS_INIT)", out->version,
                          PIER_BOARD_STATS_VERSION);
    pier_status rc = pier__board_id_check(board, err);
    if (rc == PIER_OK && engine->lake->ops->board_stats == NULL)
        rc = pier__engine_embedded(engine, "per-board stats", err);
    if (rc == PIER_OK && engine->lake->ops->board_stats == NULL)
        rc = pier__fail(err, PIER_E_TOPOLOGY_UNSUPPORTED, "per-board stats: "
                        "not available on this lake");
    if (rc != PIER_OK)
        return rc;
    rc = pier__engine_begin(engine, false, err);
    if (rc != PIER_OK)
        return rc;
    pier_board_stats s;
    memset(&s, 0, sizeof s);
    s.version = out->version;
    pier__board *b = NULL;
    rc = pier__engine_board(engine, board, &b, err);
    if (rc == PIER_OK) {
        s.columns = (int64_t)b->ncolumns;
        rc = engine->lake->ops->board_stats(engine->lake, b, &s, err);
    }
    rc = pier__engine_end(engine, rc, err);
    if (rc == PIER_OK)   /* the fields of the caller's version, no more */
        memcpy(out, &s, board_stats_size(out->version));
    return rc;
}

PIER_API pier_status pier_stats_get(pier_stats *out, pier_engine *engine,
                                    pier_error *err)
{
    pier__error_clear(err);
    if (out == NULL || engine == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_stats_get needs an engine and an output");
    pier_stats s;
    memset(&s, 0, sizeof s);
    pier_status rc = pier__engine_begin(engine, false, err);
    if (rc != PIER_OK)
        return rc;
    rc = engine->lake->ops->stats(engine->lake, &engine->catalog, &s, err);
    if (rc == PIER_OK)
        pier__feed_saw_head(&engine->feed, s.head);
    if (rc == PIER_OK && engine->lake->ops->replica_stats != NULL)
        engine->lake->ops->replica_stats(engine->lake, &s);
    rc = pier__engine_end(engine, rc, err);
    if (rc != PIER_OK)
        return rc;
    s.writes = atomic_load(&engine->feed.writes);
    s.queries = atomic_load(&engine->feed.queries);
    *out = s;
    return PIER_OK;
}
