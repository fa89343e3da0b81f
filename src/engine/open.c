/*
 * open.c: pier_open and pier_close, removing a lake, and the transaction
 * steps every call shares.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

/* The caller's options in this version's struct, fields the caller's
 * version did not have at their defaults (version 1 ended before
 * `limits`, 2 before `lake`, 3 before `readonly`). */
static pier_status copy_options(pier_open_options *dst,
                                const pier_open_options *o, pier_error *err)
{
    static const pier_open_options defaults = PIER_OPEN_OPTIONS_INIT;
    if (o->version < 1 || o->version > PIER_OPEN_OPTIONS_VERSION)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "open options version %u is not supported "
                          "(this Pier knows 1 to %d)", o->version,
                          PIER_OPEN_OPTIONS_VERSION);
    *dst = defaults;
    memcpy(dst, o, o->version >= 4   ? sizeof *o
                   : o->version == 3 ? offsetof(pier_open_options, readonly)
                   : o->version == 2 ? offsetof(pier_open_options, lake)
                                     : offsetof(pier_open_options, limits));
    return PIER_OK;
}

static pier_status check_options(const pier_open_options *o,
                                 pier_error *err)
{
    if (o->auto_create != PIER_AUTO_CREATE_ON_WRITE &&
        o->auto_create != PIER_AUTO_CREATE_NEVER)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "auto_create must be on-write or never");
    if (o->columns != PIER_COLUMNS_INFER &&
        o->columns != PIER_COLUMNS_DECLARED)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "columns must be infer or declared");
    if (o->durability != PIER_DURABILITY_FULL &&
        o->durability != PIER_DURABILITY_NORMAL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "durability must be full or normal");
    if (o->busy_timeout_ms < 0)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "busy_timeout_ms cannot be negative");
    if (o->head_refresh_ms < 0)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "head_refresh_ms cannot be negative");
    if (o->replicas_open < 0)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "replicas_open cannot be negative");
    if (o->topology != PIER_TOPOLOGY_DEFAULT &&
        o->topology != PIER_TOPOLOGY_SINGLE_NODE &&
        o->topology != PIER_TOPOLOGY_CLUSTERED)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "topology must be default, single-node or "
                          "clustered");
    return pier__limits_check(&o->limits, err);
}

/* Whether a location names a PostgreSQL lake by URL. */
static bool postgres_url(const char *s)
{
    return strncmp(s, "postgres://", 11) == 0 ||
           strncmp(s, "postgresql://", 13) == 0;
}

/* Opens the lake the location and options name into e->lake. */
static pier_status lake_open(pier_engine *e, const char *location,
                             const pier_open_options *o, pier_error *err)
{
    const char *conninfo = o->lake != NULL ? o->lake
                           : postgres_url(location) ? location
                                                    : NULL;
    if (conninfo == NULL) {
        if (o->topology == PIER_TOPOLOGY_CLUSTERED)
            return pier__fail(err, PIER_E_TOPOLOGY_UNSUPPORTED,
                              "an embedded lake has one node: the clustered "
                              "topology needs a PostgreSQL lake");
        pier__lake_config cfg = {
            .durability = o->durability,
            .busy_timeout_ms = o->busy_timeout_ms,
            .must_exist = o->must_exist || o->readonly,
            .readonly = o->readonly,
        };
        return pier__sqlite_lake_open(&e->lake, location, &cfg, err);
    }
    if (o->readonly)
        return pier__fail(err, PIER_E_TOPOLOGY_UNSUPPORTED,
                          "read-only access: not available on a PostgreSQL "
                          "lake (give the node a PostgreSQL role that may "
                          "only read instead)");
    pier__pg_config cfg = {
        .conninfo = conninfo,
        .ns = o->lake_namespace,
        .cache_dir = o->cache_dir,
        .head_refresh_us = (int64_t)(o->head_refresh_ms > 0
                                         ? o->head_refresh_ms : 1000) * 1000,
        .single_node = o->topology == PIER_TOPOLOGY_SINGLE_NODE,
        .replicas_open = o->replicas_open > 0 ? (size_t)o->replicas_open
                                              : 64,
        .durability = o->durability,
        .must_exist = o->must_exist,
    };
    return pier__pg_lake_open(&e->lake, &cfg, err);
}

PIER_API pier_status pier_open(pier_engine **out, const char *data_dir,
                               const pier_open_options *opts,
                               pier_error *err)
{
    static const pier_open_options defaults = PIER_OPEN_OPTIONS_INIT;
    pier__error_clear(err);
    if (out == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_open needs somewhere to put the engine");
    *out = NULL;
    if ((data_dir == NULL || data_dir[0] == '\0') &&
        (opts == NULL || opts->version < 3 || opts->lake == NULL))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a data directory or a lake is required");
    if (data_dir == NULL)
        data_dir = "";
    if (opts == NULL)
        opts = &defaults;
    pier_open_options o;
    pier_status rc = copy_options(&o, opts, err);
    if (rc == PIER_OK)
        rc = check_options(&o, err);
    if (rc != PIER_OK)
        return rc;
    opts = &o;

    pier_engine *e = calloc(1, sizeof *e);
    if (e == NULL)
        return pier__oom(err);
    if (pthread_mutex_init(&e->lock, NULL) != 0) {
        free(e);
        return pier__oom(err);
    }
    e->opts = *opts;
    if (e->opts.clock == NULL)
        e->opts.clock = pier__clock_system;
    pier__limits_default(&e->opts.limits);
    pier__catalog_init(&e->catalog);
    e->data_dir = pier__strdup(data_dir);
    if (e->data_dir == NULL) {
        rc = pier__oom(err);
        goto done;
    }
    rc = lake_open(e, data_dir, opts, err);
    if (rc == PIER_OK)
        rc = pier__feed_open(&e->feed, err);
    if (rc != PIER_OK)
        goto done;
    e->feed_open = true;
    /* pier_head() answers without I/O: start it at the lake's head. */
    int64_t head = 0;
    if (e->lake->ops->begin_read(e->lake, err) == PIER_OK) {
        if (e->lake->ops->head(e->lake, &head, err) == PIER_OK)
            pier__feed_saw_head(&e->feed, head);
        e->lake->ops->commit(e->lake, err);
    }
    pier__error_clear(err);
    *out = e;                              /* ownership moves to the caller */
    e = NULL;
done:
    pier_close(&e);
    return rc;
}

PIER_API void pier_close(pier_engine **engine)
{
    if (engine == NULL || *engine == NULL)
        return;
    pier_engine *e = *engine;
    *engine = NULL;
    /* The dispatch thread may still call listeners, which may call the
     * engine: stop it before anything else goes. */
    if (e->feed_open)
        pier__feed_close(&e->feed);
    if (e->lake != NULL)
        e->lake->ops->close(e->lake);
    pier__cursor_spare_free(e);
    pier__trigger_scripts_free(e);
    free(e->touched);
    for (size_t i = 0; i < PIER__EXACT_MEMO; i++) {
        free(e->exact_memo[i].from);
        free(e->exact_memo[i].to);
    }
    pier__catalog_clear(&e->catalog);
    pthread_mutex_destroy(&e->lock);
    free(e->data_dir);
    free(e);
}

PIER_API const char *pier_data_dir(const pier_engine *engine)
{
    return engine != NULL ? engine->data_dir : NULL;
}

PIER_API pier_status pier_reset_lake(const char *data_dir, pier_error *err)
{
    pier__error_clear(err);
    if (data_dir == NULL || data_dir[0] == '\0')
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a data directory is required");
    return pier__sqlite_lake_reset(data_dir, err);
}

int64_t pier__engine_now(const pier_engine *e)
{
    return e->opts.clock(e->opts.clock_payload);
}

/* Reloads the catalog cache if another transaction (of this process or
 * another) changed the catalog since it was loaded. */
static pier_status refresh(pier_engine *e, pier_error *err)
{
    int64_t version;
    pier_status rc = e->lake->ops->catalog_version(e->lake, &version, err);
    if (rc != PIER_OK || version == e->catalog.version)
        return rc;
    pier__catalog fresh;
    pier__catalog_init(&fresh);
    rc = e->lake->ops->catalog_load(e->lake, &fresh, err);
    if (rc != PIER_OK) {
        pier__catalog_clear(&fresh);
        return rc;
    }
    pier__catalog_clear(&e->catalog);
    e->catalog = fresh;
    e->catalog.version = version;
    return PIER_OK;
}

pier_status pier__engine_writable(const pier_engine *e, pier_error *err)
{
    if (!e->opts.readonly)
        return PIER_OK;
    return pier__fail(err, PIER_E_WRITE_FAILED, "the lake '%s' is open "
                      "read-only (--readonly): nothing was written",
                      e->data_dir);
}

pier_status pier__engine_begin(pier_engine *e, bool write, pier_error *err)
{
    pier__error_clear(err);
    if (pier__tx_open_here(e))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "this thread has a transaction open on the engine: "
                          "write through it, and make other calls after it "
                          "ends");
    if (write && pier__engine_writable(e, err) != PIER_OK)
        return PIER_E_WRITE_FAILED;
    pthread_mutex_lock(&e->lock);
    e->ntouched = 0;
    pier_status rc = write ? e->lake->ops->begin_write(e->lake, err)
                           : e->lake->ops->begin_read(e->lake, err);
    if (rc == PIER_OK) {
        rc = refresh(e, err);
        if (rc != PIER_OK)
            e->lake->ops->rollback(e->lake);
    }
    if (rc != PIER_OK)
        pthread_mutex_unlock(&e->lock);
    return rc;
}

/* pier__engine_end, saying what the commit added to the watermarks the
 * transaction was handed (*shift) and whether a failure was only another
 * node's change of the catalog meanwhile (*moved: worth writing again). */
static pier_status engine_finish(pier_engine *e, pier_status rc,
                                 int64_t *shift, bool *moved,
                                 pier_error *err)
{
    *shift = 0;
    *moved = false;
    if (rc != PIER_OK) {
        e->lake->ops->rollback(e->lake);
    } else if ((rc = e->lake->ops->commit(e->lake, err)) != PIER_OK) {
        e->lake->ops->rollback(e->lake);
        /* The call installed its catalog changes in the cache before the
         * commit failed: forget them by forcing a reload. */
        e->catalog.version = -1;
    } else {
        if (e->lake->ops->commit_shift != NULL)
            *shift = e->lake->ops->commit_shift(e->lake);
        for (size_t i = 0; i < e->ntouched; i++) {
            e->touched[i].first += *shift;
            e->touched[i].last += *shift;
        }
        if (e->ntouched > 0)
            pier__feed_committed(&e->feed, e->touched, e->ntouched);
    }
    if (rc != PIER_OK && e->lake->ops->write_moved != NULL)
        *moved = e->lake->ops->write_moved(e->lake);
    if (*moved)
        e->catalog.version = -1;          /* (it moved: read it again) */
    e->ntouched = 0;
    pthread_mutex_unlock(&e->lock);
    return rc;
}

pier_status pier__engine_end(pier_engine *e, pier_status rc,
                             pier_error *err)
{
    int64_t shift;
    bool moved;
    return engine_finish(e, rc, &shift, &moved, err);
}

pier_status pier__engine_install(pier_engine *e, pier__board **draft,
                                 pier_error *err)
{
    int64_t version;
    pier_status rc = e->lake->ops->catalog_bump(e->lake, &version, err);
    if (rc != PIER_OK)
        return rc;
    if (pier__catalog_put(&e->catalog, *draft))
        e->catalog.version = version;
    else
        e->catalog.version = -1;      /* out of memory: reload next time */
    *draft = NULL;
    return PIER_OK;
}

pier_status pier__engine_board(pier_engine *e, const char *id,
                               pier__board **out, pier_error *err)
{
    *out = pier__catalog_find(&e->catalog, id);
    if (*out != NULL)
        return PIER_OK;
    pier__fail(err, PIER_E_BOARD_NOT_FOUND, "no board '%s'", id);
    pier__error_board(err, id);
    return PIER_E_BOARD_NOT_FOUND;
}

pier_status pier__engine_touch(pier_engine *e, const char *board,
                               int64_t watermark, pier_error *err)
{
    for (size_t i = 0; i < e->ntouched; i++) {
        if (strcmp(e->touched[i].board, board) == 0) {
            e->touched[i].last = watermark;
            return PIER_OK;
        }
    }
    if (e->ntouched == e->touched_cap) {
        size_t cap = e->touched_cap == 0 ? 4 : e->touched_cap * 2;
        pier__touched *t = realloc(e->touched, cap * sizeof *t);
        if (t == NULL)
            return pier__oom(err);
        e->touched = t;
        e->touched_cap = cap;
    }
    pier__touched *t = &e->touched[e->ntouched++];
    pier__copy_field(t->board, sizeof t->board, board);
    t->first = watermark;
    t->last = watermark;
    return PIER_OK;
}

pier_status pier__write_join(pier__write *w, pier_engine *e,
                             pier_error *err)
{
    /* The version stamp is a hybrid logical clock: the wall clock, or one
     * more than the newest stamp on the lake when the clock stands still or
     * went back, so that stamps only grow on a lake. */
    *w = (pier__write){ .e = e };
    int64_t last = 0;
    w->now = pier__engine_now(e);
    pier_status rc = e->lake->ops->last_stamp(e->lake, &last, err);
    if (rc != PIER_OK)
        return rc;
    if (w->now > last)
        w->stamp = w->now;
    else if (last < INT64_MAX)
        w->stamp = last + 1;
    else                        /* only a damaged file holds this stamp */
        rc = pier__fail(err, PIER_E_WRITE_FAILED,
                        "the lake's last version stamp is the largest "
                        "there is (%lld): the lake is damaged",
                        (long long)last);
    return rc;
}

pier_status pier__write_begin(pier__write *w, pier_engine *e,
                              pier_error *err)
{
    *w = (pier__write){ .e = e };
    pier_status rc = pier__engine_begin(e, true, err);
    if (rc != PIER_OK)
        return rc;
    rc = pier__write_join(w, e, err);
    if (rc != PIER_OK)
        pier__engine_end(e, rc, err);
    return rc;
}

pier_status pier__write_end(pier__write *w, pier_status rc,
                            int64_t *watermark, pier_error *err)
{
    /* A write that appended nothing (an empty batch, an empty
     * transaction) reports the head it left the lake at. */
    if (rc == PIER_OK && w->watermark == 0)
        rc = w->e->lake->ops->head(w->e->lake, &w->watermark, err);
    int64_t shift = 0;
    rc = engine_finish(w->e, rc, &shift, &w->moved, err);
    if (rc == PIER_OK && watermark != NULL)
        *watermark = w->watermark + shift;
    return rc;
}

bool pier__write_again(const pier__write *w, pier_status rc, int *attempts)
{
    return rc == PIER_E_WRITE_FAILED && w->moved && ++*attempts < 5;
}
