/*
 * types.h: the logical type registry.
 *
 * One place knows every logical type: its spellings, where it sits on the
 * widening lattice, which values fit it, how a value is encoded for storage
 * (a pier__cell, which the store binds to SQLite) and how a stored cell is
 * decoded back to a logical value. Everything here is pure: no I/O, no
 * SQLite handle, so it is tested exhaustively by tests/unit/test_types.c.
 *
 * Storage encodings (docs/types.md says why):
 *   boolean                 INT 0/1
 *   tinyint .. bigint       INT
 *   hugeint                 INT when it fits 64 bits, else a 16-byte BLOB:
 *                           big-endian two's complement, sign bit flipped
 *   float, double           REAL (float values rounded to 32 bits)
 *   text, json              TEXT (json as canonical JSON text)
 *   timestamp               INT microseconds since the Unix epoch, UTC
 *   uint8, uint16, uint32   INT
 *   the dialect's others    TEXT: their canonical text (pier__coltype_decode:
 *                           decimals padded to scale, uuid lowercase,
 *                           uint64 digits, arrays compact JSON), so that
 *                           SQLite's equality is the type's, and its order
 *                           is with the type's collation (the query views
 *                           apply it: src/store/sqlite_query.c)
 * Because a column that widens keeps its old cells, decoding accepts every
 * encoding of every type below the column's type: a bigint column may hold
 * INT cells written as boolean, a double column INT or BLOB cells written
 * as integers. Widening within the numeric chain is therefore a catalog
 * change; widening to text re-renders every cell (pier__cell_to_text).
 */
#ifndef PIER_TYPES_H
#define PIER_TYPES_H

#include "base/base.h"

/* A type of the SQL dialect that a board column declares (decimal(12,2),
 * uuid, text[]...): defined in sqlcol.h, which says what it holds. */
typedef struct pier__typex pier__typex;

/*
 * A logical type: a kind of the board vocabulary (boolean .. json), or a
 * type of the SQL dialect that boards take by declaration only, described
 * by `x`; its kind is then the dialect's public kind (DECIMAL, UNSIGNED,
 * UUID, DATE, TIME, DATETIME, INTERVAL, ARRAY, and TEXT for varchar(n) and
 * enum(...)). A type with an `x` owns it: pier__type_copy duplicates it,
 * pier__type_free releases it; a type without one owns nothing, so a type
 * built as (pier__type){ kind, NULL } needs no release.
 */
typedef struct pier__type {
    pier_kind kind;
    pier__typex *x;            /* NULL for the board vocabulary's kinds */
} pier__type;

/* The longest reason pier__type_parse gives, with its NUL. */
#define PIER__TYPE_WHY 200

/*
 * Parses a board type spelling, case-insensitively: the lowercase board
 * vocabulary ("bigint", "timestamp", "json"...) and the underlying names
 * it always took ("VARCHAR" is text); the SQL dialect's aliases of those
 * kinds (INT8 tinyint, INT16 smallint, INT32 integer, INT64 bigint, INT128
 * hugeint, FLOAT32 float, REAL and DOUBLE double, BOOL boolean, INSTANT
 * timestamp); and the dialect's types boards otherwise lack: UINT8 ..
 * UINT64, DECIMAL, DECIMAL(p,s), VARCHAR(n), ENUM('a',...), UUID, DATE,
 * TIME, DATETIME, INTERVAL, and arrays T[] and T[][] of the board kinds
 * (but json) and of those ("integer[]" has 32-bit elements, as integer
 * has). BLOB and ANY are not board types. White space may separate a
 * dialect spelling's tokens, never surround the spelling.
 * @return PIER_OK (*out owns its x, if any);
 *         PIER_E_UNKNOWN_TYPE with why[0] == '\0' for a spelling that names
 *         no type of the vocabulary, or why holding the reason a spelling
 *         of a known type is refused ("DECIMAL(p,s) takes a precision p
 *         from 1 to 38"); *out is untouched;
 *         PIER_E_OUT_OF_MEMORY.
 */
pier_status pier__type_parse(pier__type *out, const char *spelling,
                             char why[PIER__TYPE_WHY]);

/* The canonical board spelling: the vocabulary's own names as ever
 * ("bigint", static), the dialect's types in lowercase with their
 * parameters ("decimal(12,2)", "varchar(200)", "enum('a','B')", "uuid"),
 * arrays by their element's name ("integer[]", "decimal(12,2)[][]").
 * Valid as long as the type (x's memory). It parses back to the type. */
const char *pier__type_name(pier__type t);

/* *out becomes a copy of `t` that owns its own x. False if out of memory
 * (*out is then a type without x, of t's kind). */
bool pier__type_copy(pier__type *out, pier__type t);
/* Releases t's x, if any, and clears it; NULL is a no-op. */
void pier__type_free(pier__type *t);
/* Whether two types are the same type (same kind, same spelling). */
bool pier__type_eq(pier__type a, pier__type b);

/* Position on the lattice boolean(0) .. text(8); -1 for timestamp, json,
 * null and the dialect's types, which sit outside it. */
int pier__type_rank(pier__type t);

/*
 * The least upper bound of two types, for inference over one write's
 * values: null is the identity, equal types give themselves, two lattice
 * types give the higher, anything else gives text (everything fits text).
 */
pier__type pier__type_lub(pier__type a, pier__type b);

/* Whether a column of type `from` may be widened to `to`: `to` is at or
 * above `from` on the lattice, or from json or a dialect type to text.
 * Nothing widens into a dialect type. Same type: true. */
bool pier__type_can_widen(pier__type from, pier__type to);

/* Whether that widening must rewrite the stored cells: to text from any
 * type whose cells are not already their canonical text (everything but
 * text, json and the dialect's text-stored types); false for a widening
 * that is not allowed. */
bool pier__type_widen_rewrites(pier__type from, pier__type to);

/* ---- values given to a write ---- */

/*
 * A value as a writer gave it, before it meets a column. Its kind is its
 * own type: JSON gives NULL, BOOLEAN, BIGINT (an integer within 64 bits),
 * HUGEINT (within 128 bits), DOUBLE (any other number), TEXT or JSON (an
 * object or array, as canonical text); the C builder may also give
 * TIMESTAMP. Strings are borrowed from the batch that holds the value.
 *
 * A number read from JSON text keeps that text too (s, n), and a document
 * its text as written (u.doc): a decimal column takes a number by its
 * digits, never by the double it rounds to (0.1 is 0.1), and an array
 * column its elements the same way. The C builder's numbers have no text
 * (s NULL): a double's is then its shortest round-trip text.
 */
typedef struct pier__value {
    pier_kind kind;
    union {
        bool b;          /* BOOLEAN */
        int64_t i;       /* BIGINT; TIMESTAMP (microseconds, UTC) */
        pier__i128 h;    /* HUGEINT */
        double d;        /* DOUBLE; always finite */
        struct {
            const char *p;
            size_t n;
        } doc;           /* JSON: the document as written; p NULL: only
                            the canonical text (s) is known */
    } u;
    const char *s;       /* TEXT, JSON: UTF-8, not necessarily NUL-ended;
                            BIGINT, HUGEINT, DOUBLE: the number as written
                            in JSON, or NULL */
    size_t n;
} pier__value;

/* The type a value decides for a new column (its kind; TIMESTAMP and JSON
 * included; NULL decides nothing). */
pier__type pier__value_type(const pier__value *v);

/* Whether `v` is an integer written in JSON too wide for 128 bits, which
 * the reader keeps as a double with its digits: no column but a DECIMAL
 * takes it (a number column would round it). */
bool pier__value_wide_integer(const pier__value *v);

/* ---- stored cells ---- */

typedef enum pier__storage {
    PIER__ST_NULL = 0,
    PIER__ST_INT,
    PIER__ST_REAL,
    PIER__ST_TEXT,
    PIER__ST_BLOB
} pier__storage;

/* A value in its storage encoding; bytes are borrowed (from the input
 * value, an arena, or the storage engine). */
typedef struct pier__cell {
    pier__storage st;
    int64_t i;           /* INT */
    double d;            /* REAL */
    const char *p;       /* TEXT, BLOB */
    size_t n;
} pier__cell;

typedef enum pier__fit {
    PIER__FIT_OK = 0,        /* *out holds the encoded value */
    PIER__FIT_CONFLICT = 1,  /* the value does not fit the column */
    PIER__FIT_OOM = 2        /* the arena could not grow */
} pier__fit;

/*
 * Encodes `v` for a column of type `col`, if it fits: its type is at or
 * below `col` on the lattice and, for integer columns, within range; any
 * value fits text (rendered as its canonical text, into `scratch`); a
 * TEXT value fits timestamp when it is an RFC 3339 instant; a TIMESTAMP
 * value fits timestamp; a JSON value fits json. A null encodes as NULL.
 * A dialect type takes what its parser accepts (pier__coltype_fit), from
 * these values only: a number (exactly, by its text) for decimal and the
 * uint types; a string for decimal, uint64, varchar(n), enum(...), uuid,
 * date, time, datetime and interval; an array (u.doc) for an array type.
 * When `why` is given, a conflict with a dialect type may set it to the
 * type's reason ("not one of the labels"), static text; else NULL.
 */
pier__fit pier__value_encode(pier__cell *out, const pier__value *v,
                             pier__type col, pier__arena *scratch,
                             const char **why);

/*
 * Decodes a stored cell of a column of type `col` into a public value,
 * with its canonical text in `a`. Returns PIER__FIT_CONFLICT if the cell
 * is not an encoding this column can hold (a corrupt or foreign lake).
 * A null cell gives kind PIER_KIND_NULL, text NULL and len 0. A dialect
 * type's value is pier__coltype_decode's (kind, `as` member, text); a
 * hugeint's may also be its digits as TEXT, as a query's view gives it.
 */
pier__fit pier__cell_decode(pier_value *out, const pier__cell *c,
                            pier__type col, pier__arena *a);
/* The same, but the text of a text or json value is the cell's own (which
 * must end with a NUL), valid as long as the cell's, and a boolean's is
 * static; only the text of other kinds goes to `a`. For cursors, whose
 * rows live no longer than the statement's current row. */
pier__fit pier__cell_view(pier_value *out, const pier__cell *c,
                          pier__type col, pier__arena *a);

/* Appends the logical value of a stored cell as JSON (numbers as numbers,
 * timestamp as an RFC 3339 string, json as the document itself; a dialect
 * type's as pier__value_json: decimals and uuids as strings, arrays as
 * documents). A cell that pier__cell_decode would refuse appends null; a
 * lack of memory marks `b` out of memory. */
void pier__cell_to_json(pier__buf *b, const pier__cell *c, pier__type col);

/* The value of a hugeint column's stored cell: an INT, or the 16-byte
 * BLOB of a value beyond 64 bits. False for any other cell. */
bool pier__hugeint_cell(const pier__cell *c, pier__i128 *out);

/* Re-renders a cell of a column of type `from` as its canonical text, for
 * widening to text; NULL stays NULL. */
pier__fit pier__cell_to_text(pier__cell *out, const pier__cell *in,
                             pier__type from, pier__arena *a);

/* ---- scalar formats ---- */

/* "2026-01-02T03:04:05.123456Z" and the NUL: always six fraction digits. */
#define PIER__TIMESTAMP_BUF 32
/*
 * Parses an RFC 3339 date-time ("2026-01-02T03:04:05Z",
 * "2026-01-02t03:04:05.5+02:00"; 'T' or 't' or ' ' between date and time;
 * 'Z', 'z' or an offset required; 1 to 9 fraction digits, truncated to
 * microseconds; years 0001 to 9999, also once the offset is applied) into
 * microseconds since the epoch, UTC.
 */
bool pier__timestamp_parse(const char *s, size_t n, int64_t *micros);
/* Formats microseconds since the epoch; returns the length. Years outside
 * 0001..9999 are clamped to the range's ends. */
size_t pier__timestamp_format(int64_t micros, char out[PIER__TIMESTAMP_BUF]);

/* "00" "01" ... "99": the decimal digits of 0 to 99, two at a time, for
 * the formatters (hugeint.c). */
extern const char pier__digit_pairs[201];

/* A 128-bit integer's decimal digits with sign, and the NUL. */
#define PIER__I128_BUF 42
/* Parses an optional '-' and decimal digits (no '+'; leading zeros are
 * accepted); false on overflow or bad syntax. */
bool pier__i128_parse(const char *s, size_t n, pier__i128 *out);
size_t pier__i128_format(pier__i128 v, char out[PIER__I128_BUF]);
/* The public struct form and back. */
pier_hugeint pier__i128_to_public(pier__i128 v);
pier__i128 pier__i128_from_public(pier_hugeint v);

/* Shortest text of 15, 16 or 17 significant digits (%g) that reads back as
 * the same double, with ".0" added when it would otherwise read as an
 * integer ("2.0", "0.1", "1e+300"). */
#define PIER__DOUBLE_BUF 32
size_t pier__double_format(double d, char out[PIER__DOUBLE_BUF]);
/* The same for a float column's values: 6 to 9 significant digits, the
 * fewest that read back as the same float ("0.1", not "0.100000001"). */
size_t pier__float_format(float f, char out[PIER__DOUBLE_BUF]);

/*
 * Validates a JSON document (an object or an array) and appends its
 * canonical form to `out`: compact, object keys sorted by bytes, numbers as
 * pier__double_format / integer digits. Returns PIER_OK, or
 * PIER_E_INVALID_JSON with err->offset relative to `s`, or
 * PIER_E_OUT_OF_MEMORY.
 */
pier_status pier__json_canonical(pier__buf *out, const char *s, size_t n,
                                 pier_error *err);

/*
 * Whether s[0..n) is one JSON value: pier__json_check (RFC 8259, nested
 * at most 1000 deep) for a C caller that may hold NULL. For text read
 * back from a lake file, which may be damaged, before it is embedded in
 * JSON as a document.
 */
bool pier__json_valid(const char *s, size_t n);

/* Appends a document read back from a lake as it is when it is JSON, else
 * (a damaged file) as a JSON string of its text: either way the output
 * stays JSON. */
void pier__json_embed(pier__buf *b, const char *s, size_t n);

#endif /* PIER_TYPES_H */
