/*
 * fuzz_rows.h: a board's rows read back against the JSON that wrote them,
 * for the targets of the JSON row reader and of patches.
 *
 * jansson reads the input independently of Pier's own reader. It cannot
 * hold an integer beyond 64 bits, which Pier stores as a hugeint (or, past
 * 128 bits, a double), so such integers are first marked: each becomes
 * the string "\u0001" followed by its digits, which fz_check_value reads
 * back as the integer it was. No JSON text can hold that string otherwise
 * unless it spells the escape \u0001 itself; for such a text
 * fz_rows_expected gives up (NULL) rather than confuse the two.
 *
 * Values are compared as the board column's type holds them
 * (docs/types.md): numbers by value (a bigint written into a double
 * column is that double), hugeints by their digits, booleans as 1/0 in
 * numeric columns, anything in a text column by its canonical text, and
 * documents as the same JSON document.
 */
#ifndef PIER_FUZZ_ROWS_H
#define PIER_FUZZ_ROWS_H

#include <jansson.h>

#include "pier.h"

/*
 * The rows a JSON write input holds, as jansson reads them: one object,
 * an array (of objects, or of anything a patch list holds), or with
 * `lines` objects one after another (JSON lines); a byte order mark
 * skipped. An array of the elements in order, for json_decref;
 * NULL when jansson cannot read it so (with `strict`, also for duplicate
 * members in an object, whose value jansson would pick otherwise than
 * Pier), or the text spells \u0001.
 */
json_t *fz_rows_expected(const char *s, size_t n, bool lines, bool strict);

/* The member of `obj` whose name equals `name` without regard to ASCII
 * case, as Pier matches columns; NULL if none. *count (may be NULL)
 * receives how many members match. */
json_t *fz_member(const json_t *obj, const char *name, size_t *count);

/* Checks that `got`, read back from a board column, is the JSON value
 * `want` (marked as above) that wrote it; `where` names it in a failure. */
void fz_check_value(const pier_value *got, const json_t *want,
                    const char *where);

/* Checks a row's JSON (pier_row_to_json): valid JSON, an object with one
 * member per column. */
void fz_check_row_json(const pier_row *row);
/* Only that it is valid JSON (a damaged lake may name a column twice). */
void fz_check_row_json_valid(const pier_row *row);

#endif /* PIER_FUZZ_ROWS_H */
