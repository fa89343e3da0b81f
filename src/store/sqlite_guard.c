/*
 * sqlite_guard.c: the limits of a running statement on SQLite (lake.h's
 * pier__guard): a query on a reader, or one pier_exec call on the writer.
 *
 * Each limit is held by the mechanism SQLite offers for it:
 * - the size of one value by SQLITE_LIMIT_LENGTH on the connection, for as
 *   long as the statement runs: every text or blob SQLite makes, reads
 *   from a row or binds is checked against it (SQLITE_TOOBIG);
 * - time, memory and interruptions by the progress handler, which SQLite
 *   calls every PIER__GUARD_STEPS steps of its virtual machine (and the
 *   engine between rows, guard_check): a non-zero answer stops the
 *   statement with SQLITE_INTERRUPT, and the guard remembers why. An
 *   interruption is a flag the handler reads, not sqlite3_interrupt: that
 *   one outlives the statement on an idle connection and would fail the
 *   next query's prepare on the reader.
 * Time is a monotonic clock; memory is SQLite's heap
 * (sqlite3_memory_used), which is the process's: the growth since the
 * statement began counts what other connections of the process allocated
 * meanwhile too, so a limit can only stop a statement early, never let
 * one run past it (docs/query.md, "Limits").
 */
#include <limits.h>
#include <stdio.h>

#include "store/sqlite_int.h"

/* Whether g must stop its statement now; records why in g->tripped. */
static bool tripped(pier__guard *g)
{
    if (g->tripped != PIER__TRIP_NONE)
        return true;
    if (atomic_load_explicit(&g->interrupted, memory_order_relaxed) ||
        (g->interrupts != NULL &&
         atomic_load_explicit(g->interrupts, memory_order_relaxed) !=
             g->interrupts_seen)) {
        g->tripped = PIER__TRIP_INTERRUPT;
        return true;
    }
    if (g->time_us > 0) {
        int64_t used = g->used_us;
        if (g->step_began_us != 0)
            used += pier__clock_monotonic() - g->step_began_us;
        if (used > g->time_us) {
            g->tripped = PIER__TRIP_TIME;
            return true;
        }
    }
    if (g->memory_bytes > 0 &&
        sqlite3_memory_used() - g->memory_base + g->held_bytes >
            g->memory_bytes) {
        g->tripped = PIER__TRIP_MEMORY;
        return true;
    }
    return false;
}

int pier__sqlite_guard_progress(void *slot)
{
    pier__guard *g = *(pier__guard **)slot;
    return g != NULL && tripped(g);
}

int pier__sqlite_prepare(sqlite3 *db, const char *sql, int len,
                         unsigned flags, sqlite3_stmt **out,
                         const char **tail)
{
    int limit = sqlite3_limit(db, SQLITE_LIMIT_LENGTH, INT_MAX);
    int rc = sqlite3_prepare_v3(db, sql, len, flags, out, tail);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, limit);
    return rc;
}

void pier__sqlite_guard_length(sqlite3 *db, const pier__guard *g)
{
    /* SQLite caps the limit at its own maximum: INT_MAX restores that. */
    int length = INT_MAX;
    if (g != NULL && g->value_bytes > 0 && g->value_bytes < INT_MAX)
        length = (int)g->value_bytes;
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, length);
}

int pier__sqlite_step_own(sqlite3_stmt *st)
{
    sqlite3 *db = sqlite3_db_handle(st);
    int limit = sqlite3_limit(db, SQLITE_LIMIT_LENGTH, INT_MAX);
    int rc = sqlite3_step(st);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, limit);
    return rc;
}

void pier__sqlite_guard_attach(sqlite3 *db, pier__guard **slot,
                               pier__guard *g)
{
    *slot = g;
    /* SQLite caps the limit at its own maximum: INT_MAX restores that. */
    int length = INT_MAX;
    if (g != NULL) {
        if (g->value_bytes > 0 && g->value_bytes < INT_MAX)
            length = (int)g->value_bytes;
        g->used_us = 0;
        g->step_began_us = 0;
        g->memory_base = g->memory_bytes > 0 ? sqlite3_memory_used() : 0;
        g->held_bytes = 0;
        g->tripped = PIER__TRIP_NONE;
    }
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, length);
}

void pier__sqlite_guard_step(pier__guard *g, bool begin)
{
    if (g == NULL || g->time_us == 0)
        return;
    int64_t now = pier__clock_monotonic();
    if (begin) {
        g->step_began_us = now;
    } else if (g->step_began_us != 0) {
        g->used_us += now - g->step_began_us;
        g->step_began_us = 0;
    }
}

/* "64 MiB", "1500 bytes": a size as the user most likely wrote it. */
static void size_text(char *buf, size_t size, int64_t bytes)
{
    static const char *const units[] = { "bytes", "KiB", "MiB", "GiB" };
    size_t u = 0;
    while (u < 3 && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        u++;
    }
    snprintf(buf, size, "%lld %s", (long long)bytes, units[u]);
}

static pier_status report(const pier__guard *g, int code, pier_error *err)
{
    const char *noun = g->noun != NULL ? g->noun : "statement";
    char size[32];
    pier_status st = PIER_E_LIMIT_EXCEEDED;
    switch (g->tripped) {
    case PIER__TRIP_TIME:
        pier__fail(err, st, "the %s ran for more than %lld ms, its time "
                   "limit", noun, (long long)(g->time_us / 1000));
        break;
    case PIER__TRIP_MEMORY:
        size_text(size, sizeof size, g->memory_bytes);
        pier__fail(err, st, "the %s took more than %s of memory, its "
                   "memory limit", noun, size);
        break;
    case PIER__TRIP_VALUE:
        if (g->value_bytes > 0) {
            size_text(size, sizeof size, g->value_bytes);
            pier__fail(err, st, "the %s made or read a value longer than "
                       "%s, its limit on one value", noun, size);
        } else {
            pier__fail(err, st, "the %s made or read a value longer than "
                       "SQLite's maximum", noun);
        }
        break;
    default:
        st = PIER_E_INTERRUPTED;
        pier__fail(err, st, "the %s was interrupted", noun);
        break;
    }
    if (err != NULL)
        err->backend_code = code;
    return st;
}

pier_status pier__sqlite_guard_fail(pier__guard *g, int code,
                                    pier_error *err)
{
    if (g == NULL)
        return PIER_OK;
    switch (code & 0xff) {
    case SQLITE_TOOBIG:
        g->tripped = PIER__TRIP_VALUE;
        break;
    case SQLITE_INTERRUPT:
        /* The progress handler said why. */
        if (!tripped(g))
            return PIER_OK;
        break;
    default:
        return PIER_OK;
    }
    return report(g, code, err);
}

pier_status pier__sqlite_guard_check(pier__lake *lake, pier__guard *g,
                                     pier_error *err)
{
    (void)lake;
    if (g == NULL || !tripped(g))
        return PIER_OK;
    return report(g, SQLITE_INTERRUPT, err);
}
