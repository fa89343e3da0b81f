/*
 * write_path.c: see write_path.h.
 */
#include "support/write_path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

wp_mode wp_current = WP_JSON;

const char *wp_name(wp_mode mode)
{
    return mode == WP_ROWS ? "rows" : "json";
}

static pier_status refuse(pier_error *err, const char *why)
{
    if (err != NULL) {
        memset(err, 0, sizeof *err);
        err->status = PIER_E_INVALID_ARGUMENT;
        err->tag = pier_status_tag(PIER_E_INVALID_ARGUMENT);
        snprintf(err->message, sizeof err->message, "write_path: %s", why);
        err->offset = -1;
    }
    return PIER_E_INVALID_ARGUMENT;
}

static pier_status set_member(pier_rows *rows, const char *name,
                              json_t *v, pier_error *err)
{
    switch (json_typeof(v)) {
    case JSON_INTEGER:
        return pier_rows_set_int64(rows, name,
                                   (int64_t)json_integer_value(v), err);
    case JSON_REAL:
        return pier_rows_set_double(rows, name, json_real_value(v), err);
    case JSON_STRING:
        return pier_rows_set_text(rows, name, json_string_value(v), err);
    case JSON_TRUE:
        return pier_rows_set_bool(rows, name, true, err);
    case JSON_FALSE:
        return pier_rows_set_bool(rows, name, false, err);
    case JSON_NULL:
        return pier_rows_set_null(rows, name, err);
    case JSON_OBJECT:
    case JSON_ARRAY: {
        char *doc = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        if (doc == NULL)
            return refuse(err, "json_dumps failed");
        pier_status rc = pier_rows_set_json(rows, name, doc, err);
        free(doc);
        return rc;
    }
    }
    return refuse(err, "unknown jansson type");
}

static pier_status add_row(pier_rows *rows, json_t *obj, pier_error *err)
{
    if (!json_is_object(obj))
        return refuse(err, "every row must be an object");
    pier_status rc = pier_rows_add(rows, err);
    const char *name;
    json_t *v;
    json_object_foreach(obj, name, v) {
        if (rc != PIER_OK)
            break;
        rc = set_member(rows, name, v, err);
    }
    return rc;
}

pier_status wp_rows_from_json(pier_rows *rows, const char *json,
                              pier_error *err)
{
    pier_rows_clear(rows);
    json_error_t jerr;
    json_t *root = json_loadb(json, strlen(json), JSON_REJECT_DUPLICATES,
                              &jerr);
    if (root == NULL) {
        char why[300];
        snprintf(why, sizeof why, "jansson cannot read the text: %s",
                 jerr.text);
        return refuse(err, why);
    }
    pier_status rc = PIER_OK;
    if (json_is_array(root)) {
        size_t i;
        json_t *row;
        json_array_foreach(root, i, row) {
            if (rc != PIER_OK)
                break;
            rc = add_row(rows, row, err);
        }
    } else {
        rc = add_row(rows, root, err);
    }
    json_decref(root);
    return rc;
}

pier_status wp_insert(pier_engine *engine, const char *board,
                      const char *json, int64_t *watermark, pier_error *err)
{
    if (wp_current == WP_JSON)
        return pier_insert_json(watermark, engine, board, json,
                                strlen(json), err);
    pier_rows *rows = pier_rows_new();
    if (rows == NULL)
        return refuse(err, "out of memory");
    pier_status rc = wp_rows_from_json(rows, json, err);
    if (rc == PIER_OK)
        rc = pier_insert_rows(watermark, engine, board, rows, err);
    pier_rows_free(rows);
    return rc;
}
