/*
 * sqlcol.h: the registry's side of a declared table's column: how a value
 * of each SQL type sits in a STRICT SQLite table, which stored values are
 * values of the type, how SQLite compares them, and how a stored value
 * reads back (sqlcol.c, collate.c).
 *
 * A declared table is written by SQL statements that Pier does not rewrite,
 * so a stored value is what the writer gave, after SQLite's own type
 * affinity: '12.5' in a DECIMAL(12,2) column stays the text '12.5', an
 * INSTANT keeps the offset it was written with. Three things make that
 * exact:
 *   - the column's STRICT storage type and a CHECK calling the registered
 *     function _pier_fit (pier__coltype_fit) refuse anything that is not a
 *     value of the type, on every write path, including writers that
 *     bypass Pier (they do not have the function, so they fail);
 *   - a registered collation on the column (pier__coltype_collation)
 *     compares stored values by their logical value, so `=`, ORDER BY,
 *     MIN/MAX, GROUP BY, DISTINCT and indexes agree with the type ('12.5'
 *     equals '12.50'; instants compare as instants whatever their offset);
 *   - reading decodes a stored value to its canonical form
 *     (pier__coltype_decode: '12.5' reads "12.50", an instant in UTC).
 * Everything here is pure: tests/unit/test_sqlcol.c covers it.
 */
#ifndef PIER_TYPES_SQLCOL_H
#define PIER_TYPES_SQLCOL_H

#include "types/spelling.h"

/* A declared column's type, with its ENUM labels. */
typedef struct pier__coltype {
    pier__sqltype t;
    const char *labels;  /* ENUM: the labels as pier__sqltype_parse appends
                            them (each NUL-terminated, t.nlabels of them),
                            else NULL */
} pier__coltype;

/*
 * A board column's dialect type (types.h's pier__type.x; made by
 * pier__type_parse): the parsed type, whose labels and canonical board
 * spelling live in `text`, one allocation. A board stores its values in
 * ANY columns, encoded by the engine: what a declared table's storage
 * type would hold (INTEGER for the uint types up to 32 bits), or else the
 * value's canonical text (pier__coltype_decode), so that equal values are
 * equal bytes.
 */
struct pier__typex {
    pier__coltype c;          /* c.labels points into text, or is NULL */
    char text[];              /* the spelling and its NUL, then the ENUM
                                 labels as pier__sqltype_parse gives them */
};

/* The dialect type of a board type, or NULL for the board vocabulary's
 * own kinds. */
static inline const pier__coltype *pier__type_sql(pier__type t)
{
    return t.x != NULL ? &t.x->c : NULL;
}

/* The column's storage type in a STRICT table: "INTEGER" (INT8 .. INT64,
 * UINT8 .. UINT32, BOOLEAN), "REAL" (FLOAT32, DOUBLE), "BLOB" (BLOB,
 * CHANGESET), "ANY" (ANY) or "TEXT" (everything else, arrays
 * included). */
const char *pier__coltype_storage(const pier__coltype *c);

/*
 * The collation that orders stored values by their logical value, or NULL
 * when SQLite's BINARY already does (integers, reals, blobs, TEXT,
 * VARCHAR, ENUM (text order), DATE (one spelling per day), JSON, ANY):
 *   "pier_numeric"   DECIMAL, UINT64, INT128 (pier__collate_numeric)
 *   "pier_uuid"      UUID
 *   "pier_instant"   INSTANT
 *   "pier_time"      TIME
 *   "pier_datetime"  DATETIME
 *   "pier_interval"  INTERVAL
 *   "pier_json_compact"  arrays (white space does not count)
 */
const char *pier__coltype_collation(const pier__coltype *c);

/* Whether stored values need _pier_fit: false where the storage type
 * alone is the type (INT64, DOUBLE, TEXT, BLOB, ANY). */
bool pier__coltype_checked(const pier__coltype *c);

/*
 * Whether a stored value (after SQLite's affinity for the storage type) is
 * a value of the column's type: NULL if it is (a null always is), else a
 * short phrase saying why not, in static storage, so naming no number of
 * the column's type or the value's (the caller names the column and its
 * type): "out of range for INT8", "more digits after the point than the
 * column's scale allows (values are never rounded)", "not one of the
 * labels", "longer than the column's length", "an element is not a UUID
 * (a string) or null".
 *   - integers: an INTEGER within the type's range; UINT64 and INT128:
 *     TEXT digits (an optional '-' for INT128) within range, or an
 *     INTEGER within range;
 *   - FLOAT32: a REAL whose magnitude fits a float (or an INTEGER);
 *   - DECIMAL(p,s) / DECIMAL: TEXT pier__decimal_parse accepts (or an
 *     INTEGER, or a REAL, read by the text SQLite's TEXT affinity would
 *     give it, 15 significant digits: 0.1 is "0.1", 1e20 "1.0e+20");
 *   - VARCHAR(n): well-formed UTF-8 of at most n characters (code
 *     points); ENUM: one of the labels, exactly; BOOLEAN: 0 or 1;
 *   - UUID, DATE, TIME, DATETIME, INTERVAL: TEXT their parser accepts;
 *     INSTANT: TEXT pier__timestamp_parse accepts;
 *   - CHANGESET: a BLOB (whether its bytes read as a changeset is the
 *     lake's to check, with SQLite's reader: the lake's _pier_fit does);
 *   - JSON: any JSON text (RFC 8259; a scalar is a document too;
 *     duplicate keys are allowed), nested at most 1000 deep, with no \u
 *     escape of a lone surrogate;
 *   - T[] and T[][]: a JSON array (of arrays; an inner array may be null)
 *     whose elements are null or values of T in their JSON form: integers
 *     (no fraction, no exponent) for the integer types, numbers for
 *     FLOAT32 and DOUBLE, true/false for BOOLEAN, strings for the
 *     text-spelled types (BLOB: hex digits), and for DECIMAL, UINT64 and
 *     INT128 a number or a string.
 */
const char *pier__coltype_fit(const pier__coltype *c, const pier__cell *v);

/* Whether s[0..n) is one JSON text (RFC 8259, nested at most 1000 deep):
 * NULL, or why not ("not valid JSON"). The check of a JSON column, for
 * other JSON read back from storage (a change record's payload). */
const char *pier__json_check(const char *s, size_t n);

/* The public kind of the column's values: INT8 TINYINT, INT16 SMALLINT,
 * INT32 INTEGER, INT64 BIGINT, INT128 HUGEINT, UINT* UNSIGNED, FLOAT32
 * FLOAT, DOUBLE DOUBLE, DECIMAL DECIMAL, TEXT/VARCHAR/ENUM TEXT, BOOLEAN
 * BOOLEAN, BLOB and CHANGESET BLOB, UUID UUID, INSTANT TIMESTAMP, DATE,
 * TIME, DATETIME, INTERVAL, JSON JSON, arrays ARRAY; ANY: PIER_KIND_NULL
 * (a value's kind then follows its storage class). */
pier_kind pier__coltype_kind(const pier__coltype *c);

/*
 * Decodes a stored value of the column into *out: its kind, its `as`
 * member and its canonical text (NUL-terminated, in `a`, or the cell's own
 * bytes when they already are canonical and NUL-terminated, as SQLite's
 * text is): integers as digits, FLOAT32 by pier__float_format, DOUBLE by
 * pier__double_format, DECIMAL(p,s) padded to scale s ("12.50") and
 * DECIMAL at its own scale ("12.5"), UUID lowercase with hyphens, INSTANT
 * as pier__timestamp_format (UTC, six fraction digits, 'Z'), DATE, TIME,
 * DATETIME and INTERVAL by their formatters, BOOLEAN "true"/"false", BLOB
 * and CHANGESET as uppercase hex (as.blob pointing at the bytes), JSON as
 * stored, arrays as compact JSON with each element in its canonical JSON
 * form (integers of every width and floats as numbers, booleans as
 * true/false, DECIMAL and the other text-spelled types as strings of
 * their canonical text,
 * BLOB as uppercase hex); ANY by storage class (INTEGER: BIGINT, REAL:
 * DOUBLE, TEXT: TEXT, BLOB: BLOB). A null cell gives PIER_KIND_NULL, text
 * NULL.
 * The text of TEXT, VARCHAR, ENUM, JSON and of ANY's TEXT cells is the
 * cell's own, which must be followed by a NUL (asserted), and as.blob
 * points at a BLOB cell's bytes: the value lives as long as both the cell
 * and `a`.
 * @return PIER__FIT_CONFLICT for a stored value pier__coltype_fit refuses
 *         (a lake written behind Pier's back), PIER__FIT_OOM.
 */
pier__fit pier__coltype_decode(pier_value *out, const pier__coltype *c,
                               const pier__cell *v, pier__arena *a);

/* Appends a decoded value as JSON: numbers (integers, unsigned, floats,
 * doubles) as numbers, booleans as true/false, JSON and arrays as their
 * document, null as null, everything else (text, decimals, UUIDs, instants,
 * dates, times, intervals, hex of blobs) as a JSON string. An infinite
 * DOUBLE (a DOUBLE column holds what SQLite's REAL does) appends null. */
void pier__value_json(pier__buf *b, const pier_value *v);

/* ---- collations (collate.c) ----
 *
 * Each is a total order that SQLite may call with any two stored texts:
 * texts that are values of the type compare by value (equal values
 * compare 0, whatever their spelling); a text that is not one sorts after
 * every value, and such texts compare bytewise among themselves (a prefix
 * first). Each returns -1, 0 or 1.
 */

/* Decimal numbers as pier__decimal_parse reads them (sign, digits, point,
 * exponent of at most 100000), by value, with no limit on digits and no
 * rounding: "12.5" = "12.50" = "1.25e1", "-0" = "0", "9" < "10",
 * "18446744073709551615" > "9223372036854775808". */
int pier__collate_numeric(const char *a, size_t na, const char *b,
                          size_t nb);
/* UUIDs by their 16 bytes: case and hyphens do not matter. */
int pier__collate_uuid(const char *a, size_t na, const char *b, size_t nb);
/* RFC 3339 instants by the time they name (offsets applied). */
int pier__collate_instant(const char *a, size_t na, const char *b,
                          size_t nb);
/* Times of day and zone-less date-times by value ("10:00" spellings with
 * and without a fraction: "10:00:00.5" = "10:00:00.500"). */
int pier__collate_time(const char *a, size_t na, const char *b, size_t nb);
int pier__collate_datetime(const char *a, size_t na, const char *b,
                           size_t nb);
/* Intervals by (months, days, microseconds), in that order: equal when
 * all three are; "P1M" and "P30D" differ (a month is not 30 days). */
int pier__collate_interval(const char *a, size_t na, const char *b,
                           size_t nb);
/* JSON texts (the arrays' storage) by their bytes with the white space
 * outside strings left out: '[1, 2]' equals '[1,2]', and both order as
 * the compact text does. */
int pier__collate_json_compact(const char *a, size_t na, const char *b,
                               size_t nb);

/* ---- exact decimal arithmetic (decimal.c) ---- */

/* a + b, a - b at the larger scale; a * b at the sum of the scales. False
 * when the result needs more than 38 digits (or a scale above 38), or an
 * operand is not a decimal (more than 38 digits, a scale outside 0..38);
 * *out is then unchanged. */
bool pier__decimal_add(pier__decimal a, pier__decimal b, pier__decimal *out);
bool pier__decimal_sub(pier__decimal a, pier__decimal b, pier__decimal *out);
bool pier__decimal_mul(pier__decimal a, pier__decimal b, pier__decimal *out);

typedef enum pier__rounding {
    PIER__ROUND_HALF_EVEN = 0, /* "half_even": to the nearest, ties to even */
    PIER__ROUND_HALF_UP,       /* "half_up": ties away from zero */
    PIER__ROUND_DOWN,          /* "down": toward zero */
    PIER__ROUND_UP,            /* "up": away from zero */
    PIER__ROUND_FLOOR,         /* "floor": toward -infinity */
    PIER__ROUND_CEILING,       /* "ceiling": toward +infinity */
    PIER__ROUND_HALF_DOWN      /* "half_down": ties toward zero */
} pier__rounding;

/* The modes' names, as every message that refuses one lists them (the
 * SQL functions taking a mode share it: decimal_div, decimal_round). */
#define PIER__ROUNDING_NAMES                                              \
    "half_even, half_up, half_down, up, down, ceiling or floor"

/* Parses a rounding mode's name (case-insensitive); false if unknown. */
bool pier__rounding_parse(const char *s, size_t n, pier__rounding *out);

/* a / b at `scale` digits after the point (0..38), rounded by `mode`.
 * Returns NULL or why not ("division by zero", "the result needs more
 * than 38 digits"); *out is then unchanged. */
const char *pier__decimal_div(pier__decimal a, pier__decimal b, int scale,
                              pier__rounding mode, pier__decimal *out);
/* d rounded to `scale` digits after the point (0..38) by `mode`, at that
 * scale ("1" at scale 2 is "1.00"). Returns NULL or why not ("the result
 * needs more than 38 digits"); *out is then unchanged. */
const char *pier__decimal_round(pier__decimal d, int scale,
                                pier__rounding mode, pier__decimal *out);
/* a / b exactly, when the quotient terminates within 38 digits (at the
 * smallest scale that holds it, at least a's scale); else NULL is not
 * returned but why ("the quotient does not terminate within 38 digits
 * after the point (like 1/3): use decimal_div with a scale and a rounding
 * mode", "division by zero", "the result needs more than 38 digits"). */
const char *pier__decimal_div_exact(pier__decimal a, pier__decimal b,
                                    pier__decimal *out);

/* The most leaves (arguments after its program) one _pxe call has: the
 * front-end writes a tree of operators on exact values as one call
 * (src/sql/exactops.c), nesting calls past this (SQLite allows 127
 * arguments); the store registers _pxe for each count up to it, so that
 * a statement's bytecode says how many a call has (sqlite_exact.c). */
#define PIER__EXACT_OPS_LEAVES 100

#endif /* PIER_TYPES_SQLCOL_H */
