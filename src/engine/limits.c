/*
 * limits.c: the limits on one statement (pier_limits) as the engine
 * resolves them, and interrupting statements (pier_interrupt).
 *
 * A limit is given at three levels: a query's options, else the engine's
 * (pier_open_options), else the built-in default; 0 defers to the next
 * level and PIER_LIMIT_NONE lifts the limit. The lake enforces what the
 * guard says (store/sqlite_guard.c), where 0 means no limit.
 *
 * pier_interrupt only moves a counter: a signal handler may call it. A
 * guard remembers the count when its statement began, and the lake's
 * checks compare.
 */
#include "engine/engine.h"

pier_status pier__limits_check(const pier_limits *l, pier_error *err)
{
    static const char *const names[] = { "time_ms", "value_bytes",
                                         "memory_bytes" };
    const int64_t values[] = { l->time_ms, l->value_bytes, l->memory_bytes };
    for (size_t i = 0; i < 3; i++)
        if (values[i] < PIER_LIMIT_NONE)
            return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                              "limit %s is %lld: a limit is positive, 0 "
                              "(the default) or PIER_LIMIT_NONE",
                              names[i], (long long)values[i]);
    return PIER_OK;
}

void pier__limits_default(pier_limits *l)
{
    if (l->time_ms == 0)
        l->time_ms = PIER_DEFAULT_TIME_MS;
    if (l->value_bytes == 0)
        l->value_bytes = PIER_DEFAULT_VALUE_BYTES;
    if (l->memory_bytes == 0)
        l->memory_bytes = PIER_DEFAULT_MEMORY_BYTES;
}

/* A resolved limit as the guard keeps it: 0 for none. */
static int64_t pick(int64_t given, int64_t engine)
{
    int64_t v = given != 0 ? given : engine;
    return v == PIER_LIMIT_NONE ? 0 : v;
}

void pier__guard_init(pier__guard *g, pier_engine *e, const pier_limits *over,
                      const char *noun)
{
    static const pier_limits none = PIER_LIMITS_INIT;
    if (over == NULL)
        over = &none;
    const pier_limits *mine = &e->opts.limits;
    int64_t time_ms = pick(over->time_ms, mine->time_ms);
    /* A time beyond what microseconds count is no limit at all. */
    g->time_us = time_ms > INT64_MAX / 1000 ? 0 : time_ms * 1000;
    g->value_bytes = pick(over->value_bytes, mine->value_bytes);
    g->memory_bytes = pick(over->memory_bytes, mine->memory_bytes);
    g->noun = noun;
    atomic_store(&g->interrupted, false);
    g->interrupts = &e->interrupts;
    g->interrupts_seen = atomic_load(&e->interrupts);
    g->now_us = pier__engine_now(e);
    g->used_us = 0;
    g->step_began_us = 0;
    g->memory_base = 0;
    g->held_bytes = 0;
    g->tripped = PIER__TRIP_NONE;
}

bool pier__guard_interrupted(const pier__guard *g)
{
    return atomic_load_explicit(&g->interrupted, memory_order_relaxed) ||
           (g->interrupts != NULL &&
            atomic_load_explicit(g->interrupts, memory_order_relaxed) !=
                g->interrupts_seen);
}

PIER_API void pier_interrupt(pier_engine *engine)
{
    if (engine != NULL)
        atomic_fetch_add(&engine->interrupts, 1);
}
