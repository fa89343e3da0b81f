/*
 * feed.h: what the engine shares with the change feed: the boards a write
 * touched, the wake-up of watches, the listeners and their dispatch
 * thread, the cached head and the engine's counters.
 *
 * Lock order: the engine's lock, then the feed's. The dispatch thread
 * never holds the feed's lock while it calls a listener (a listener may
 * call the engine), and never takes the engine's lock while it holds the
 * feed's.
 */
#ifndef PIER_ENGINE_FEED_H
#define PIER_ENGINE_FEED_H

#include <pthread.h>
#include <stdatomic.h>

#include "base/base.h"
#include "catalog/catalog.h"

/* A board a write appended records for, and their watermarks. */
typedef struct pier__touched {
    char board[PIER__NAME_MAX + 1];
    int64_t first;
    int64_t last;
} pier__touched;

typedef struct pier__event pier__event;      /* queued for the listeners */

typedef struct pier__feed {
    pthread_mutex_t lock;        /* guards every field below but the
                                    atomics */
    pthread_cond_t changed;      /* broadcast after each commit of this
                                    engine and on a watch's cancel */
    uint64_t generation;         /* bumped with each broadcast */
    pthread_cond_t work;         /* wakes the dispatch thread */
    pier_listener *listeners;    /* subscribed, most recent first */
    pier__event *queue_head;     /* events not dispatched yet, in order */
    pier__event *queue_tail;
    pthread_t dispatcher;
    bool dispatcher_running;
    bool stopping;               /* pier_close: the thread drains and ends */
    pier_listener *calling;      /* the listener being called, if any */
    pthread_cond_t called;       /* broadcast when `calling` returns */
    _Atomic int64_t head;        /* the newest watermark this engine saw */
    _Atomic int64_t writes;      /* writes committed by this engine */
    _Atomic int64_t queries;     /* reads served by this engine */
} pier__feed;

/* Sets the feed up and starts the dispatch thread (pier_open). */
pier_status pier__feed_open(pier__feed *f, pier_error *err);
/* Stops the dispatch thread after it has dispatched what is queued, frees
 * the listeners and the queue (pier_close). */
void pier__feed_close(pier__feed *f);

/*
 * After a write committed (the engine's lock still held): raises the
 * cached head, counts the write, wakes every watch and queues one event per
 * touched board for the listeners. Allocation failures here drop the
 * events, never fail the write (it is already committed).
 */
void pier__feed_committed(pier__feed *f, const pier__touched *touched,
                          size_t ntouched);
/* A read saw this head: raise the cached head to it. */
void pier__feed_saw_head(pier__feed *f, int64_t head);

#endif /* PIER_ENGINE_FEED_H */
