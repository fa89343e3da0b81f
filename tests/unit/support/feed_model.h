/*
 * feed_model.h: a board rebuilt from its change feed alone, and compared
 * with what the engine stores, for tests that follow the feed (test_follow,
 * the soak programs).
 *
 * A model applies change records in order: schema records give the column
 * types (and widenings convert the cells already there as the engine
 * does), row records write, patch and delete rows (updated_at is the
 * record's committed_at), truncate and drop empty the board. A board may
 * be created again after a drop. fm_compare then checks that the engine
 * stores exactly the rebuilt board: the same columns and types, the same
 * ids, the same values.
 *
 * JSON text is read with fm_parse, which first turns integer literals
 * beyond 64 bits (which jansson cannot hold) into strings
 * FM_HUGE_PREFIX "DIGITS", so that both sides compare exactly.
 *
 * These helpers fail the running cmocka test on any mismatch: use them in
 * the test's own process, never in a forked child.
 */
#ifndef PIER_TEST_FEED_MODEL_H
#define PIER_TEST_FEED_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "pier.h"

#define FM_HUGE_PREFIX "#i128:"

/* JSON text (n bytes) as a jansson value, integers beyond 64 bits as
 * FM_HUGE_PREFIX strings; fails the test if it is not JSON. */
json_t *fm_parse(const char *s, size_t n);
/* A value as compact JSON with sorted keys, for messages; for free(). */
char *fm_dump(const json_t *v);
/* A value of a column of type `from` as the canonical text that widening
 * to text stores. New reference. */
json_t *fm_as_text(const json_t *v, const char *from);
/* A value as a column of `type` holds it (integers in a double column
 * are reals). New reference. */
json_t *fm_normalize(const json_t *v, const char *type);
/* Microseconds since the epoch as the engine prints them: RFC 3339, UTC,
 * six fraction digits. */
void fm_format_micros(int64_t us, char out[96]);

typedef struct fm_board {
    const char *board; /* the board followed (borrowed) */
    json_t *rows;      /* id -> row: its non-null columns and updated_at */
    json_t *types;     /* column name -> type name */
    bool dropped;      /* the last record was its drop */
    bool created;      /* a create_board record was applied */
    int64_t last;      /* watermark of the last record applied */
    int64_t after;     /* where the next page starts */
    size_t records;    /* records applied */
    int64_t first_at;  /* committed_at of the records since fm_mark() */
    bool same_at;
} fm_board;

void fm_init(fm_board *m, const char *board);
void fm_free(fm_board *m);
/* Applies one record of m->board (checking its JSON form too). */
void fm_apply(fm_board *m, const pier_change *c);
/* Applies a page that is not a resync and moves m->after to its next. */
void fm_apply_page(fm_board *m, const pier_changes_page *page);
/* The type of a rebuilt column; fails the test if no schema record
 * declared it. */
const char *fm_type_of(const fm_board *m, const char *column);
/* Starts counting whether the next records share one committed_at. */
void fm_mark(fm_board *m);

/* The board's columns as the engine describes them: name -> type. */
json_t *fm_stored_types(pier_engine *e, const char *board);
/* The board's rows as the engine stores them: id -> row, nulls left out,
 * each value as its column's type holds it. */
json_t *fm_stored_rows(pier_engine *e, const char *board,
                       const json_t *types);
/* The rebuilt board equals the stored one (columns, types, rows,
 * updated_at included); a board the feed dropped or never made is not
 * stored. `when` prefixes the messages. */
void fm_compare(fm_board *m, pier_engine *e, const char *when);

#endif /* PIER_TEST_FEED_MODEL_H */
