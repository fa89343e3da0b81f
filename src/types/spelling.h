/*
 * spelling.h: the SQL dialect's type names (spelling.c).
 *
 * A pier__sqltype describes a column type as SQL DDL declares it: the base
 * type, its parameters (DECIMAL's precision and scale, VARCHAR's length,
 * ENUM's labels) and its array dimensions. Every spelling has one canonical
 * form (pier__sqltype_write), which a schema dump prints.
 */
#ifndef PIER_TYPES_SPELLING_H
#define PIER_TYPES_SPELLING_H

#include "types/codecs.h"

typedef enum pier__base {
    PIER__B_INT8, PIER__B_INT16, PIER__B_INT32, PIER__B_INT64,
    PIER__B_UINT8, PIER__B_UINT16, PIER__B_UINT32, PIER__B_UINT64,
    PIER__B_INT128, PIER__B_FLOAT32, PIER__B_DOUBLE, PIER__B_DECIMAL,
    PIER__B_TEXT, PIER__B_VARCHAR, PIER__B_ENUM, PIER__B_BOOLEAN,
    PIER__B_BLOB, PIER__B_UUID, PIER__B_INSTANT, PIER__B_DATE,
    PIER__B_TIME, PIER__B_DATETIME, PIER__B_INTERVAL, PIER__B_JSON,
    PIER__B_ANY,
    PIER__B_CHANGESET          /* a BLOB holding a changeset (change
                                  history, docs/history.md) */
} pier__base;

/* The longest VARCHAR(n): SQLite's default limit on a value's bytes, which
 * n characters can never need less of. */
#define PIER__VARCHAR_MAX INT64_C(1000000000)
#define PIER__ENUM_MAX_LABELS 1000

typedef struct pier__sqltype {
    pier__base base;
    int dims;              /* 0: a scalar; 1: T[]; 2: T[][] */
    int precision;         /* DECIMAL(p,s): p, 1..38; DECIMAL alone: 0 */
    int scale;             /* DECIMAL(p,s): s, 0..p */
    int64_t length;        /* VARCHAR(n): n characters */
    size_t nlabels;        /* ENUM: how many labels */
} pier__sqltype;

typedef struct pier__sqltype_error {
    char message[200];
} pier__sqltype_error;

/*
 * Parses the type of a column as SQL DDL spells it (all of `s`, `n`
 * bytes): INT8 INT16 INT32 INT64 INTEGER (= INT64), UINT8 .. UINT64,
 * INT128, FLOAT32, REAL and DOUBLE (the same), DECIMAL, DECIMAL(p),
 * DECIMAL(p,s), TEXT, VARCHAR(n), ENUM('a',...), BOOLEAN BOOL, BLOB BYTEA,
 * UUID, INSTANT, DATE, TIME, DATETIME, INTERVAL, JSON, ANY, CHANGESET;
 * then [] or [][] for an array of the type (not of ANY, JSON or
 * CHANGESET). Case does not matter. ENUM's labels are appended to
 * `labels` (may be NULL), NUL-terminated one after the other.
 * @return NULL, or why the spelling is refused (in e->message when `e` is
 *         given): a name the dialect does not take names the one to use.
 */
const char *pier__sqltype_parse(const char *s, size_t n, pier__sqltype *t,
                                pier__buf *labels, pier__sqltype_error *e);

/* Appends the canonical spelling ("DECIMAL(12,2)", "TEXT[]",
 * "ENUM('a','b')"); `labels` as pier__sqltype_parse gave them. */
void pier__sqltype_write(pier__buf *out, const pier__sqltype *t,
                         const char *labels);

#endif /* PIER_TYPES_SPELLING_H */
