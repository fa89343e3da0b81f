/*
 * feed.c: the live side of the change feed: the cached head and counters,
 * the listeners and their dispatch thread, and watches.
 *
 * After each commit the writer calls pier__feed_committed with the engine's
 * lock held. That call only raises the cached head, bumps the generation,
 * wakes the watches and queues one event per touched board: nothing on the
 * writer's path waits for a listener. The dispatch thread pops the events
 * in commit order and calls every listener subscribed before the event's
 * write, outside the feed's lock (a listener may call the engine, which
 * takes the engine's lock: the order engine, then feed is kept because the
 * dispatcher holds neither while it calls).
 *
 * A listener is freed by whoever lets go of it last: pier_listener_remove
 * when the dispatcher does not hold it, else the dispatcher once the event
 * it was dispatching is done. `refs` counts the holds (the dispatcher's
 * for the event in hand, a remover's while it waits for a call to
 * return); `removed` hides it from later calls. Both are guarded by the
 * feed's lock.
 *
 * A watch is a loop over pier_changes: read a page; if it is empty, sleep
 * on `changed` until the generation moves (this engine committed, or some
 * watch was cancelled) or poll_ms passes (another process may have
 * written), then read again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"

struct pier_listener {
    pier_listener *next;       /* guarded by the feed's lock */
    pier__feed *feed;
    pier_change_fn fn;         /* fixed at subscription */
    void *payload;
    uint64_t since;            /* the generation it subscribed at: events
                                  of writes before it are not its own */
    unsigned refs;             /* holds by the dispatcher or a waiting
                                  remover; guarded */
    bool removed;              /* guarded */
};

struct pier__event {
    pier__event *next;
    uint64_t generation;       /* of the commit that queued it */
    int64_t first;
    int64_t last;
    char board[PIER__NAME_MAX + 1];
};

struct pier_watch {
    pier_engine *e;
    char board[PIER__NAME_MAX + 1];
    int64_t after;             /* only pier_watch_next moves it */
    int poll_ms;
    size_t limit;
    atomic_bool cancelled;
};

/* ---- the cached head and counters ---- */

static void raise_head(pier__feed *f, int64_t head)
{
    int64_t seen = atomic_load(&f->head);
    while (seen < head &&
           !atomic_compare_exchange_weak(&f->head, &seen, head))
        ;
}

void pier__feed_saw_head(pier__feed *f, int64_t head)
{
    raise_head(f, head);
}

/* ---- the dispatch thread ---- */

static void listener_release(pier_listener *l)
{
    l->refs--;
    if (l->removed && l->refs == 0)
        free(l);
}

/* Calls the listeners subscribed before `ev`'s write, oldest first. Holds
 * the feed's lock except around each call. `snap` is the thread's own
 * scratch array. */
static void dispatch(pier__feed *f, const pier__event *ev,
                     pier_listener ***snap, size_t *cap)
{
    size_t n = 0;
    for (pier_listener *l = f->listeners; l != NULL; l = l->next)
        n++;
    if (n > *cap) {
        pier_listener **grown = realloc(*snap, n * sizeof *grown);
        if (grown == NULL)
            return;            /* out of memory: the event is dropped */
        *snap = grown;
        *cap = n;
    }
    /* The list is most recent first; call in subscription order. */
    size_t i = n;
    for (pier_listener *l = f->listeners; l != NULL; l = l->next) {
        (*snap)[--i] = l;
        l->refs++;
    }
    pier_change_event event = {
        .board = ev->board,
        .first_watermark = ev->first,
        .last_watermark = ev->last,
    };
    for (i = 0; i < n; i++) {
        pier_listener *l = (*snap)[i];
        if (l->removed || ev->generation <= l->since)
            continue;
        f->calling = l;
        pthread_mutex_unlock(&f->lock);
        l->fn(&event, l->payload);
        pthread_mutex_lock(&f->lock);
        f->calling = NULL;
        pthread_cond_broadcast(&f->called);
    }
    for (i = 0; i < n; i++)
        listener_release((*snap)[i]);
}

static void *dispatch_main(void *arg)
{
    pier__feed *f = arg;
    pier_listener **snap = NULL;
    size_t cap = 0;
    pthread_mutex_lock(&f->lock);
    for (;;) {
        while (f->queue_head == NULL && !f->stopping)
            pthread_cond_wait(&f->work, &f->lock);
        pier__event *ev = f->queue_head;
        if (ev == NULL)
            break;             /* stopping, and everything dispatched */
        f->queue_head = ev->next;
        if (f->queue_head == NULL)
            f->queue_tail = NULL;
        dispatch(f, ev, &snap, &cap);
        free(ev);
    }
    pthread_mutex_unlock(&f->lock);
    free(snap);
    return NULL;
}

/* ---- setting up and tearing down ---- */

pier_status pier__feed_open(pier__feed *f, pier_error *err)
{
    f->listeners = NULL;
    f->queue_head = f->queue_tail = NULL;
    f->calling = NULL;
    f->generation = 0;
    f->stopping = false;
    f->dispatcher_running = false;
    atomic_init(&f->head, 0);
    atomic_init(&f->writes, 0);
    atomic_init(&f->queries, 0);

    int stage = 0, e = pthread_mutex_init(&f->lock, NULL);
    if (e == 0) {
        stage = 1;
        /* Watches wait with deadlines on the monotonic clock: a step of
         * the wall clock neither wakes them early nor makes them late. */
        pthread_condattr_t ca;
        e = pthread_condattr_init(&ca);
        if (e == 0) {
            e = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
            if (e == 0)
                e = pthread_cond_init(&f->changed, &ca);
            pthread_condattr_destroy(&ca);
        }
    }
    if (e == 0) {
        stage = 2;
        e = pthread_cond_init(&f->work, NULL);
    }
    if (e == 0) {
        stage = 3;
        e = pthread_cond_init(&f->called, NULL);
    }
    if (e == 0) {
        stage = 4;
        e = pthread_create(&f->dispatcher, NULL, dispatch_main, f);
    }
    if (e == 0) {
        f->dispatcher_running = true;
        return PIER_OK;
    }
    if (stage >= 4)
        pthread_cond_destroy(&f->called);
    if (stage >= 3)
        pthread_cond_destroy(&f->work);
    if (stage >= 2)
        pthread_cond_destroy(&f->changed);
    if (stage >= 1)
        pthread_mutex_destroy(&f->lock);
    if (e == ENOMEM)
        return pier__oom(err);
    return pier__fail(err, PIER_E_OUT_OF_MEMORY,
                      "cannot start the change feed's dispatch thread: %s",
                      strerror(e));
}

void pier__feed_close(pier__feed *f)
{
    /* A feed that never opened (pier_open failed first) holds nothing. */
    if (!f->dispatcher_running)
        return;
    pthread_mutex_lock(&f->lock);
    f->stopping = true;
    pthread_cond_signal(&f->work);
    pthread_mutex_unlock(&f->lock);
    pthread_join(f->dispatcher, NULL);
    f->dispatcher_running = false;

    /* The thread drained the queue; listeners still subscribed go with
     * the engine. */
    while (f->queue_head != NULL) {
        pier__event *ev = f->queue_head;
        f->queue_head = ev->next;
        free(ev);
    }
    f->queue_tail = NULL;
    while (f->listeners != NULL) {
        pier_listener *l = f->listeners;
        f->listeners = l->next;
        free(l);
    }
    pthread_cond_destroy(&f->called);
    pthread_cond_destroy(&f->work);
    pthread_cond_destroy(&f->changed);
    pthread_mutex_destroy(&f->lock);
}

/* ---- after a commit ---- */

void pier__feed_committed(pier__feed *f, const pier__touched *touched,
                          size_t ntouched)
{
    int64_t head = 0;
    for (size_t i = 0; i < ntouched; i++)
        if (touched[i].last > head)
            head = touched[i].last;
    raise_head(f, head);
    atomic_fetch_add(&f->writes, 1);

    pthread_mutex_lock(&f->lock);
    f->generation++;
    /* Events only when someone listens: a write without listeners costs
     * one lock and one broadcast. */
    bool queued = false;
    for (size_t i = 0; f->listeners != NULL && !f->stopping && i < ntouched;
         i++) {
        pier__event *ev = malloc(sizeof *ev);
        if (ev == NULL)
            break;             /* the write stands; its events are lost */
        ev->next = NULL;
        ev->generation = f->generation;
        ev->first = touched[i].first;
        ev->last = touched[i].last;
        memcpy(ev->board, touched[i].board, sizeof ev->board);
        if (f->queue_tail != NULL)
            f->queue_tail->next = ev;
        else
            f->queue_head = ev;
        f->queue_tail = ev;
        queued = true;
    }
    if (queued)
        pthread_cond_signal(&f->work);
    pthread_cond_broadcast(&f->changed);
    pthread_mutex_unlock(&f->lock);
}

/* ---- listeners ---- */

PIER_API pier_status pier_on_change(pier_listener **out, pier_engine *engine,
                                    pier_change_fn fn, void *payload,
                                    pier_error *err)
{
    pier__error_clear(err);
    if (out == NULL || engine == NULL || fn == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_on_change needs an engine, a function and "
                          "somewhere to put the listener");
    *out = NULL;
    pier_listener *l = calloc(1, sizeof *l);
    if (l == NULL)
        return pier__oom(err);
    pier__feed *f = &engine->feed;
    l->feed = f;
    l->fn = fn;
    l->payload = payload;
    pthread_mutex_lock(&f->lock);
    l->since = f->generation;
    l->next = f->listeners;
    f->listeners = l;
    pthread_mutex_unlock(&f->lock);
    *out = l;
    return PIER_OK;
}

PIER_API void pier_listener_remove(pier_listener *listener)
{
    if (listener == NULL)
        return;
    pier__feed *f = listener->feed;
    pthread_mutex_lock(&f->lock);
    for (pier_listener **p = &f->listeners; *p != NULL; p = &(*p)->next) {
        if (*p == listener) {
            *p = listener->next;
            break;
        }
    }
    listener->removed = true;
    /* From inside a listener the dispatcher is this thread: waiting for
     * the call to return would wait for ourselves. The dispatcher frees
     * it once the call returns (it holds a ref). */
    bool inside = pthread_equal(pthread_self(), f->dispatcher);
    /* A hold of our own while we wait: the dispatcher lets go of its own
     * when the call returns, and must not free it under us. */
    listener->refs++;
    while (!inside && f->calling == listener)
        pthread_cond_wait(&f->called, &f->lock);
    listener->refs--;
    bool free_now = listener->refs == 0;
    pthread_mutex_unlock(&f->lock);
    if (free_now)
        free(listener);
}

/* ---- watches ---- */

PIER_API pier_status pier_watch_open(pier_watch **out, pier_engine *engine,
                                     const char *board,
                                     const pier_watch_options *opts,
                                     pier_error *err)
{
    static const pier_watch_options defaults = PIER_WATCH_OPTIONS_INIT;
    pier__error_clear(err);
    if (out == NULL || engine == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_watch_open needs an engine and somewhere to "
                          "put the watch");
    *out = NULL;
    pier_status rc = pier__board_id_check(board, err);
    if (rc != PIER_OK)
        return rc;
    if (opts == NULL)
        opts = &defaults;
    if (opts->version < 1 || opts->version > PIER_WATCH_OPTIONS_VERSION)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "watch options version %u is not supported "
                          "(this Pier knows 1 to %d)", opts->version,
                          PIER_WATCH_OPTIONS_VERSION);
    if (opts->after < 0)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "after must be a watermark (0 or more), got %lld",
                          (long long)opts->after);
    if (opts->poll_ms < 0)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "poll_ms cannot be negative");
    pier_watch *w = calloc(1, sizeof *w);
    if (w == NULL)
        return pier__oom(err);
    w->e = engine;
    memcpy(w->board, board, strlen(board) + 1);
    w->after = opts->after;
    w->poll_ms = opts->poll_ms > 0 ? opts->poll_ms : defaults.poll_ms;
    w->limit = opts->limit;
    atomic_init(&w->cancelled, false);
    *out = w;
    return PIER_OK;
}

/* now + ms on the monotonic clock. */
static struct timespec deadline_after(int ms)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

PIER_API pier_status pier_watch_next(pier_changes_page **out,
                                     pier_watch *watch, pier_error *err)
{
    pier__error_clear(err);
    if (out == NULL || watch == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_watch_next needs a watch and somewhere to "
                          "put the page");
    *out = NULL;
    pier__feed *f = &watch->e->feed;
    for (;;) {
        if (atomic_load(&watch->cancelled))
            return PIER_OK;
        /* The generation before the read: a commit after it (which the
         * read may have missed) changes it, so the wait below returns at
         * once instead of sleeping past it. */
        pthread_mutex_lock(&f->lock);
        uint64_t seen = f->generation;
        pthread_mutex_unlock(&f->lock);

        pier_changes_page *page = NULL;
        pier_status rc = pier_changes(&page, watch->e, watch->board,
                                      watch->after, watch->limit, err);
        if (rc != PIER_OK)
            return rc;
        if (page->resync || page->nrecords > 0) {
            watch->after = page->resync ? page->from : page->next;
            *out = page;
            return PIER_OK;
        }
        pier_changes_page_free(page);

        struct timespec until = deadline_after(watch->poll_ms);
        pthread_mutex_lock(&f->lock);
        while (!atomic_load(&watch->cancelled) && f->generation == seen) {
            if (pthread_cond_timedwait(&f->changed, &f->lock, &until) ==
                ETIMEDOUT)
                break;
        }
        pthread_mutex_unlock(&f->lock);
    }
}

PIER_API void pier_watch_cancel(pier_watch *watch)
{
    if (watch == NULL)
        return;
    atomic_store(&watch->cancelled, true);
    pier__feed *f = &watch->e->feed;
    pthread_mutex_lock(&f->lock);
    f->generation++;
    pthread_cond_broadcast(&f->changed);
    pthread_mutex_unlock(&f->lock);
}

PIER_API void pier_watch_close(pier_watch *watch)
{
    free(watch);
}
