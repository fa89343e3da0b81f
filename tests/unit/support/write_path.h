/*
 * write_path.h: one insert call over both of Pier's write paths, so that a
 * behaviour test is written once and run through each.
 *
 * WP_JSON hands the JSON text to pier_insert_json as it is. WP_ROWS parses
 * it with jansson and replays it into a pier_rows batch (integers with
 * pier_rows_set_int64, reals with set_double, strings with set_text,
 * true/false with set_bool, null with set_null, objects and arrays with
 * set_json of their compact text), then calls pier_insert_rows. The text
 * must be one object or an array of objects that jansson can represent
 * (no integer beyond 64 bits, no duplicate member); wp_insert returns
 * PIER_E_INVALID_ARGUMENT with a message saying so otherwise.
 */
#ifndef PIER_TEST_WRITE_PATH_H
#define PIER_TEST_WRITE_PATH_H

#include "pier.h"

typedef enum wp_mode {
    WP_JSON = 0,
    WP_ROWS = 1
} wp_mode;

/* The path wp_insert takes; a test program sets it per group. */
extern wp_mode wp_current;

/* The name of a mode, for messages: "json" or "rows". */
const char *wp_name(wp_mode mode);

/* Inserts `json` into `board` through the current path. */
pier_status wp_insert(pier_engine *engine, const char *board,
                      const char *json, int64_t *watermark, pier_error *err);

/* Fills `rows` (which it clears first) from `json` as WP_ROWS does. */
pier_status wp_rows_from_json(pier_rows *rows, const char *json,
                              pier_error *err);

#endif /* PIER_TEST_WRITE_PATH_H */
