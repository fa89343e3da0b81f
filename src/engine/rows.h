/*
 * rows.h: a batch of rows as given by a writer, before it meets a board.
 *
 * Both write paths fill the same struct: pier_insert_json() through the
 * JSON row reader (json_rows.c), C callers through the pier_rows_* setters
 * (rows.c). Everything after that (name checks, inference, type checks,
 * storage) is one implementation in insert.c.
 *
 * A batch is a flat array of fields; row r owns fields
 * [row_start[r], row_start[r + 1]) (the last row ends at nfields). Names
 * and strings live in the batch's arena and are not NUL-terminated in
 * general (their lengths are kept).
 */
#ifndef PIER_ENGINE_ROWS_H
#define PIER_ENGINE_ROWS_H

#include "base/base.h"
#include "types/types.h"

typedef struct pier__field {
    const char *name;
    size_t name_len;
    pier__value value;
} pier__field;

struct pier_rows {
    pier__arena arena;
    pier__field *fields;
    size_t nfields;
    size_t fields_cap;
    size_t *row_start;    /* index of each row's first field */
    size_t *row_bytes;    /* each row's size: its JSON text, or the bytes
                             of its names and values from the setters */
    size_t nrows;
    size_t rows_cap;
};

/* The same as pier_rows_new/free/clear, for a batch embedded in another
 * struct (the JSON path keeps one on the stack). */
void pier__rows_init(pier_rows *rows);
void pier__rows_release(pier_rows *rows);

/* Starts a row; then adds fields to it. */
pier_status pier__rows_begin(pier_rows *rows, pier_error *err);
/* Appends a field to the latest row, copying the name (and the value's
 * string and a document's text as written, if any) into the batch's
 * arena. */
pier_status pier__rows_push(pier_rows *rows, const char *name,
                            size_t name_len, const pier__value *v,
                            pier_error *err);
/* Appends a field whose name and string already live in the batch's arena
 * (the JSON reader decodes straight into it). */
pier_status pier__rows_push_owned(pier_rows *rows, const char *name,
                                  size_t name_len, const pier__value *v,
                                  pier_error *err);

static inline size_t pier__rows_row_end(const pier_rows *rows, size_t r)
{
    return r + 1 < rows->nrows ? rows->row_start[r + 1] : rows->nfields;
}

/*
 * Reads JSON text into `rows` (which must be empty): one object, an array
 * of objects, or objects separated by white space (JSON lines). Each
 * member becomes a field: strings decode to TEXT (escapes resolved, UTF-8
 * checked), true/false to BOOLEAN, null to NULL, integers to BIGINT (or
 * HUGEINT beyond 64 bits, DOUBLE beyond 128), other numbers to DOUBLE,
 * objects and arrays to JSON in canonical form (pier__json_canonical).
 * Numbers keep their text and documents their text as written, pointing
 * into `json`, which must outlive the batch. Records each row's byte
 * size.
 * @return PIER_E_INVALID_JSON with err->offset at the fault, and a message
 *         that says what was expected there;
 *         PIER_E_LIMIT_EXCEEDED for a row over PIER_MAX_ROW_BYTES, text over
 *         PIER_MAX_BATCH_BYTES or more than PIER_MAX_BATCH_ROWS rows;
 *         PIER_E_OUT_OF_MEMORY.
 */
pier_status pier__json_rows_read(pier_rows *rows, const char *json,
                                 size_t len, pier_error *err);

/*
 * Reads the JSON text of pier_update_many_json() into `rows` (which must
 * be empty): an array of {"id": STRING, "patch": OBJECT}, members in
 * either order. Each patch becomes one row: a TEXT field "id" first, then
 * the patch's members as fields, read as pier__json_rows_read reads a
 * row's (a member named "id" in the patch is kept; the caller judges it).
 * row_bytes[r] is the size of the whole element's text.
 * @return PIER_E_INVALID_JSON as pier__json_rows_read, and also for a
 *         member other than "id" and "patch", either one missing or
 *         repeated, an id that is not a string or a patch that is not an
 *         object;
 *         PIER_E_LIMIT_EXCEEDED for an element over PIER_MAX_ROW_BYTES,
 *         text over PIER_MAX_BATCH_BYTES or more than PIER_MAX_BATCH_ROWS
 *         patches;
 *         PIER_E_OUT_OF_MEMORY.
 */
pier_status pier__json_patches_read(pier_rows *rows, const char *json,
                                    size_t len, pier_error *err);

/* ---- a transaction's operations (pier_tx_apply_json) ---- */

typedef enum pier__op_kind {
    PIER__OP_INSERT = 0,
    PIER__OP_UPSERT = 1,
    PIER__OP_UPDATE = 2,
    PIER__OP_DELETE = 3
} pier__op_kind;

/* One operation of the document, checked: the members its kind needs are
 * there, and no other. Strings are NUL-terminated, in the ops' arena. */
typedef struct pier__op {
    pier__op_kind kind;
    const char *board;
    const char *id;           /* update: the row */
    const char **ids;         /* delete: nids row ids */
    size_t nids;
    pier_rows *rows;          /* insert, upsert: the rows; update: one
                                 row, the patch's members */
} pier__op;

typedef struct pier__ops {
    pier__arena arena;
    pier__op *ops;
    size_t nops;
    size_t cap;
} pier__ops;

void pier__ops_init(pier__ops *ops);
void pier__ops_release(pier__ops *ops);

/*
 * Reads a transaction's operations (an empty `ops`): a JSON array of
 *   {"op":"insert"|"upsert","board":B,"rows":[{...},...]}
 *   {"op":"update","board":B,"id":ID,"patch":{...}}
 *   {"op":"delete","board":B,"ids":[ID,...]}
 * members in any order. Rows and patches are read exactly as
 * pier__json_rows_read reads rows (their numbers point into `json`, which
 * must outlive `ops`). Every offset is relative to the whole document; a
 * message about one operation ends with " (operation N)", N from 1.
 * @return PIER_E_INVALID_JSON for bad JSON, an operation that is not an
 *         object, an unknown op, a missing, unknown or repeated member, a
 *         member of the wrong type, or U+0000 in a board or row id;
 *         PIER_E_LIMIT_EXCEEDED for a document over PIER_MAX_BATCH_BYTES
 *         and as pier__json_rows_read for each operation's rows;
 *         PIER_E_OUT_OF_MEMORY.
 */
pier_status pier__json_ops_read(pier__ops *ops, const char *json, size_t len,
                                pier_error *err);

#endif /* PIER_ENGINE_ROWS_H */
