/*
 * csv.h: a strict RFC 4180 reader, fed bytes in pieces of any size, that
 * hands on one record at a time (csv.c); `insert --csv` and `--tsv` read
 * their input with it (load.c).
 *
 * The grammar is RFC 4180's, with the separator a parameter (',' for CSV,
 * a tab for TSV, quoting alike) and either CRLF or LF ending a record:
 * - a field is quoted ("...", a quote inside it doubled, separators and
 *   line breaks kept) or unquoted (no quote, separator, CR or LF in it);
 * - a quote inside an unquoted field, anything but a separator or a line
 *   end after a closing quote, a CR not followed by LF outside quotes, and
 *   an input that ends inside quotes are errors, never guessed at;
 * - an empty line (outside quotes) is no record; a final record needs no
 *   line end; a UTF-8 byte order mark at the very start is skipped.
 * Each field says whether it was quoted, so that the caller can tell an
 * empty unquoted field from "" and a bare 42 from "42".
 *
 * Memory: one record's bytes, at most `max_record_bytes` (longer is an
 * error), plus its field table. Nothing here knows about Pier; it takes no
 * locks and keeps no global state.
 */
#ifndef PIER_CLI_CSV_H
#define PIER_CLI_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cli_csv_field {
    const char *text;      /* the field's bytes, quotes removed; NUL after */
    size_t len;
    bool quoted;
} cli_csv_field;

typedef struct cli_csv_record {
    const cli_csv_field *fields;   /* borrowed until the callback returns */
    size_t nfields;
    int64_t line;          /* the line the record starts on, from 1 */
    int64_t offset;        /* its first byte's offset in the input */
} cli_csv_record;

/* Receives each record; returns 0 to go on, anything else to stop the
 * reader (cli_csv_feed then returns CLI_CSV_STOPPED). */
typedef int (*cli_csv_record_fn)(const cli_csv_record *rec, void *payload);

typedef enum cli_csv_status {
    CLI_CSV_OK = 0,
    CLI_CSV_STOPPED,       /* the callback asked to stop */
    CLI_CSV_SYNTAX,        /* malformed input: cli_csv_error says how */
    CLI_CSV_TOO_LONG,      /* a record passed max_record_bytes */
    CLI_CSV_NO_MEMORY
} cli_csv_status;

typedef struct cli_csv cli_csv;

/* A reader for fields separated by `sep` (',' or '\t'). NULL if out of
 * memory. */
cli_csv *cli_csv_new(char sep, size_t max_record_bytes,
                     cli_csv_record_fn fn, void *payload);
void cli_csv_free(cli_csv *r);   /* NULL: no-op */

/* Reads `n` more bytes of input, handing on each record they complete.
 * After an error, every later call returns that error again. */
cli_csv_status cli_csv_feed(cli_csv *r, const char *bytes, size_t n);
/* The input has ended: hands on the last record, if one is open. */
cli_csv_status cli_csv_finish(cli_csv *r);

/* After CLI_CSV_SYNTAX or CLI_CSV_TOO_LONG: what is wrong ("a quote inside
 * an unquoted field"), static text, and the line it is on (from 1). */
const char *cli_csv_error(const cli_csv *r);
int64_t cli_csv_error_line(const cli_csv *r);

#endif /* PIER_CLI_CSV_H */
