/*
 * cli.h: what the files of the pier command share.
 *
 * The command is one process per invocation: main.c parses the global
 * options into a cli_ctx, finds the command in its table and runs it. A
 * command parses its own arguments (cli_args), opens the engine only once
 * they are valid (cli_open), prints its result to stdout and, on failure,
 * one diagnostic to stderr (cli_fail). main.c closes the engine on every
 * path, whatever the command returned.
 *
 * Exit codes are API (docs/cli.md): never renumbered, only appended.
 */
#ifndef PIER_CLI_H
#define PIER_CLI_H

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pier.h"

#define CLI_EXIT_OK 0       /* success */
#define CLI_EXIT_FAILED 1   /* the operation failed; the tag says why */
#define CLI_EXIT_USAGE 2    /* the command line (or PIER_NOW) was wrong */
#define CLI_CONTINUE (-1)   /* cli_args: arguments fine, run the command */

/*
 * Rows per write when `insert` reads stdin. Each batch is one atomic
 * pier_insert_json call: 1000 rows amortise the commit (an fsync under
 * durability=full) well, while a failure loses at most 1000 rows of work
 * and the CLI never holds more than one batch of text. A batch is also cut
 * early when its text would pass PIER_MAX_BATCH_BYTES.
 */
#define CLI_STDIN_BATCH_ROWS 1000

/* The state of one invocation. */
typedef struct cli_ctx {
    const char *data_dir;       /* --data, or NULL: $PIER_DATA, ./pier-data */
    const char *lake;           /* --lake, or NULL: $PIER_LAKE (when no
                                   --data either) */
    bool json;                  /* --json: JSON results and errors */
    pier_open_options opts;     /* from the global options */
    int64_t now_us;             /* PIER_NOW, when set; the clock's payload */
    pier_engine *engine;        /* opened by cli_open, closed by main */
    int stdout_errno;           /* why a write to stdout failed, or 0 */
    char *scratch_dir;          /* cli_open_or_empty's empty lake, removed
                                   by main after the engine closes */
} cli_ctx;

struct cli_command;
typedef int (*cli_run_fn)(cli_ctx *ctx, const struct cli_command *cmd,
                          int argc, char **argv);

/* One command: its name, its line in `pier --help`, its own --help. */
typedef struct cli_command {
    const char *name;
    const char *summary;   /* one line, for the command list */
    const char *usage;     /* arguments after the name, e.g. "BOARD ID" */
    const char *help;      /* the body of `pier NAME --help` */
    cli_run_fn run;        /* argv[0] is the command name */
} cli_command;

/* The command table (board.c, rows.c, write.c, tx.c, feed.c, ops.c,
 * sql.c, migrate.c, migrations.c, introspect.c, fts.c, main.c). */
extern const cli_command cli_cmd_create_board;
extern const cli_command cli_cmd_insert;
extern const cli_command cli_cmd_update;
extern const cli_command cli_cmd_upsert;
extern const cli_command cli_cmd_delete;
extern const cli_command cli_cmd_compact;
extern const cli_command cli_cmd_tx;
extern const cli_command cli_cmd_changes;
extern const cli_command cli_cmd_watch;
extern const cli_command cli_cmd_maintain;
extern const cli_command cli_cmd_flush;
extern const cli_command cli_cmd_sync;
extern const cli_command cli_cmd_evict;
extern const cli_command cli_cmd_stats;
extern const cli_command cli_cmd_head;
extern const cli_command cli_cmd_boards;
extern const cli_command cli_cmd_has_board;
extern const cli_command cli_cmd_schema;
extern const cli_command cli_cmd_get;
extern const cli_command cli_cmd_count;
extern const cli_command cli_cmd_dump;
extern const cli_command cli_cmd_add_column;
extern const cli_command cli_cmd_widen;
extern const cli_command cli_cmd_truncate;
extern const cli_command cli_cmd_drop;
extern const cli_command cli_cmd_query;
extern const cli_command cli_cmd_shell;
extern const cli_command cli_cmd_sql;
extern const cli_command cli_cmd_tables;
extern const cli_command cli_cmd_plan;
extern const cli_command cli_cmd_migrate;
extern const cli_command cli_cmd_migrations;
extern const cli_command cli_cmd_introspect;
extern const cli_command cli_cmd_changeset;
extern const cli_command cli_cmd_fts;
extern const cli_command cli_cmd_backup;
extern const cli_command cli_cmd_restore;
extern const cli_command cli_cmd_export;
extern const cli_command cli_cmd_import;

/* ---- main.c: arguments, engine ---- */

/* The command table, in `pier --help`'s order; *n gets its length. */
const cli_command *const *cli_commands(size_t *n);
/* The texts of `pier --help` around the command list: the introduction,
 * the global options (one "  --name [VALUE]" line each, then their
 * descriptions), the environment, the exit status. */
extern const char cli_help_intro[];
extern const char cli_help_options[];
extern const char cli_help_environment[];
extern const char cli_help_exit[];

/* An option a command accepts besides --help. */
typedef struct cli_optspec {
    const char *name;      /* "--column" */
    bool has_value;        /* "--column X" or "--column=X" */
} cli_optspec;

/* Called for each option given; returns 0 to go on, or an exit code (the
 * callback printed the usage error). `value` is NULL for a flag. */
typedef int (*cli_opt_fn)(cli_ctx *ctx, const cli_command *cmd,
                          const char *name, const char *value,
                          void *payload);

/*
 * Parses a command's arguments: --help (and -h) print the command's help;
 * "--" ends the options; "-" alone is an argument. `names` names the
 * positional arguments for "missing" messages; `min` of them are required,
 * at most `max` are taken, into `pos`.
 * @return CLI_CONTINUE to run the command, or the exit code to return.
 */
int cli_args(cli_ctx *ctx, const cli_command *cmd, int argc, char **argv,
             const cli_optspec *opts, cli_opt_fn on_opt, void *payload,
             const char *const *names, int min, int max, char **pos);

/* The data directory the global options (or $PIER_DATA, ./pier-data)
 * name, "" when they name a PostgreSQL lake (then ctx->opts.lake); for a
 * command that opens no engine. */
const char *cli_data_dir(cli_ctx *ctx);

/* --counts, the one option of `boards` and `tables` (board.c): its
 * callback sets the bool `payload` points to. */
extern const cli_optspec cli_counts_optspecs[];
int cli_counts_opt(cli_ctx *ctx, const cli_command *cmd, const char *name,
                   const char *value, void *payload);

/* Opens the engine (data directory, global options, PIER_NOW) unless it
 * is open. @return 0, or the exit code after printing why. */
int cli_open(cli_ctx *ctx);
/* The same for a command that only reads but answers for a missing lake
 * as for an empty one (plan, migrations status): with no lake in the data
 * directory, it opens a new empty lake in a temporary directory instead,
 * which main removes, so that the command makes no lake. */
int cli_open_or_empty(cli_ctx *ctx);

/* The time now, in microseconds since the epoch, UTC: PIER_NOW when it
 * is set (as the engine's clock reads it), else the system clock; for a
 * command that opens no engine. @return 0, or the usage exit code after
 * printing why PIER_NOW is malformed. */
int cli_now(cli_ctx *ctx, int64_t *now_us);

/* Parses an RFC 3339 instant into microseconds since the epoch, UTC.
 * @return false if `s` is not one. */
bool cli_parse_instant(const char *s, int64_t *out);

/* Parses a decimal integer (an optional '-', then digits, nothing else)
 * within [min, max]. @return false if `s` is not one. */
bool cli_parse_int(const char *s, int64_t min, int64_t max, int64_t *out);

/* ---- limits.c: limits on statements, Ctrl-C ---- */

/* The options every statement-running command takes, besides the global
 * ones; a command's optspec lists them with its own. */
#define CLI_LIMIT_OPTSPECS                                                \
    { "--time-limit", true }, { "--max-value", true },                  \
    { "--max-memory", true }

/* Whether `name` is one of them. */
bool cli_is_limit_option(const char *name);
/* "5s" and friends (ms, s, m, h; a bare number is seconds): *out in
 * milliseconds; false when it is none. */
bool cli_duration_ms(const char *s, int64_t *out);

/* Sets the engine's limit that option `name` (--time-limit, --max-value,
 * --max-memory) gives, from `value`; `cmd` names the command in a usage
 * error (NULL: a global option). @return 0, or the usage exit code. */
int cli_limit_option(cli_ctx *ctx, const cli_command *cmd, const char *name,
                     const char *value);

/* From now until cli_interrupt_disarm (when the statement has returned),
 * a Ctrl-C stops the statements `engine` runs instead of the program;
 * with `take`, SIGINT's handler is set for that (a second Ctrl-C then ends
 * the program); without, the caller's own handler calls
 * cli_interrupt_request (the shell's). */
void cli_interrupt_arm(pier_engine *engine, bool take);
void cli_interrupt_disarm(void);
/* Asks the armed statement to stop; safe in a signal handler. */
void cli_interrupt_request(void);

/* ---- output.c: diagnostics and formats ---- */

void cli_error_init(pier_error *err);
/* Fills *err afresh with `status`, its tag and the message.
 * @return status. */
pier_status cli_error_set(pier_error *err, pier_status status,
                          const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* cli_error_set from a va_list. */
pier_status cli_error_vset(pier_error *err, pier_status status,
                           const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 0)))
#endif
    ;

/* Prints a failed call's error (`pier: error: Tag: message`, or the JSON
 * shape under --json) on stderr. @return CLI_EXIT_FAILED. */
int cli_fail(const cli_ctx *ctx, const pier_error *err);
/* The same from a tag and a message. */
int cli_fail_msg(const cli_ctx *ctx, const char *tag, const char *message);
/* Prints `pier: usage: ...` and the "Try" line naming `cmd` (or pier
 * itself when NULL) on stderr. @return CLI_EXIT_USAGE. */
int cli_usage(const cli_command *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Counts the rows of the thing named `name` (a board, a table). */
typedef pier_status (*cli_count_fn)(int64_t *out, pier_engine *engine,
                                    const char *name, pier_error *err);
/* pier_row_count, as a cli_count_fn. */
pier_status cli_board_rows(int64_t *out, pier_engine *engine,
                           const char *name, pier_error *err);
/*
 * `boards --counts`, `tables --counts`: each of `names` (NULL-terminated)
 * with the rows `count` gives it: an aligned table of two columns, or
 * with --json [{"KEY":NAME,"rows":N},...]. One that is gone by the time
 * it is counted (BoardNotFound, TableNotFound) is left out. Prints nothing
 * if any other count fails. @return the exit code.
 */
int cli_print_counts(cli_ctx *ctx, char **names, const char *key,
                     cli_count_fn count, pier_error *err);

/* A watermark: the number alone, or {"watermark":N}. @return 0. */
int cli_print_watermark(const cli_ctx *ctx, int64_t watermark);
/* A count under a name: the number alone, or {"NAME":N}. @return 0. */
int cli_print_number(const cli_ctx *ctx, const char *name, int64_t n);

/* Room for cli_format_instant's text and its NUL: 27 characters for the
 * years 0001 to 9999; 48 also fits the widest fields -Wformat-truncation
 * allows for (any int64_t year). */
#define CLI_INSTANT_SIZE 48
/* Formats microseconds since the epoch as the engine shows timestamps:
 * RFC 3339, UTC, to the microsecond (2026-01-01T00:00:00.000000Z). */
void cli_format_instant(int64_t us, char out[CLI_INSTANT_SIZE]);

/* Writes `s` (len bytes) as a quoted JSON string. Invalid UTF-8 bytes
 * become U+FFFD, so the output is always valid JSON. */
void cli_json_string(FILE *f, const char *s, size_t len);

/*
 * An aligned text table: cells are added row by row; columns are padded
 * to their widest cell (counted in code points) and separated by two
 * spaces; the last column is not padded. Control characters and invalid
 * UTF-8 in a cell are shown as \n, \t, \r or \xHH so that one cell stays
 * on one line. A long table prints in windows: print the rows so far,
 * clear them, add more; a column's width is the widest cell it ever had,
 * so it only grows from one window to the next.
 */
typedef struct cli_table cli_table;
cli_table *cli_table_new(size_t ncols);
/* @return false if out of memory (the table stays usable, to be freed). */
bool cli_table_add(cli_table *t, const char *s, size_t len);
void cli_table_print(const cli_table *t, FILE *f);
/* Prints the cells in a box of UTF-8 line-drawing characters, as
 * sqlite3's .mode box does: a rule under the first `header_rows` rows
 * (0: none). Columns are as wide as for cli_table_print. */
void cli_table_print_box(const cli_table *t, FILE *f, size_t header_rows);
/* Forgets the cells added so far (call it at the end of a row), keeping
 * the columns' widths. */
void cli_table_clear(cli_table *t);
void cli_table_free(cli_table *t);

/* ---- result.c: a query's result ---- */

/* How a result prints: an aligned table for people, or JSON (an array of
 * objects), JSON lines, CSV with a header line; or (the shell's .mode box)
 * a table drawn in a box. */
typedef enum cli_format {
    CLI_FORMAT_TABLE = 0,
    CLI_FORMAT_JSON = 1,
    CLI_FORMAT_JSONL = 2,
    CLI_FORMAT_CSV = 3,
    CLI_FORMAT_BOX = 4
} cli_format;

/* How cli_print_rows prints. */
typedef struct cli_print_options {
    cli_format format;
    bool no_headers;     /* table, box, csv: leave the column names out */
} cli_print_options;

/* "table", "json", "jsonl", "csv", "box". @return false for anything
 * else. */
bool cli_parse_format(const char *s, cli_format *out);
const char *cli_format_name(cli_format format);

/*
 * Prints the cursor's rows on `out` in `format`, streaming (result.c says
 * how the table does); *nrows (may be NULL) gets the rows printed.
 * @return PIER_OK, or the error (in *err) that stopped it: the cursor's,
 *         or WriteFailed when `out` fails.
 */
pier_status cli_print_cursor(pier_cursor *c, cli_format format, FILE *out,
                             int64_t *nrows, pier_error *err);
/* The same, as `o` says. A box holds the whole result before it prints
 * (its rules need the widest cell of each column). */
pier_status cli_print_rows(pier_cursor *c, const cli_print_options *o,
                           FILE *out, int64_t *nrows, pier_error *err);

/* ---- query.c ---- */

/*
 * Sets one parameter from "NAME=VALUE": VALUE binds as a JSON scalar when
 * it is one (5, 2.5, true, null, "quoted"), else as its text.
 * @return PIER_E_INVALID_ARGUMENT for no '=' or a bad name; *err says why.
 */
/* --params JSON of query and sql: the object's members by name, the
 * array's elements by number, into params. @return 0, or the exit code: a
 * value that is no JSON object or array is a usage error (2). */
int cli_params_option(cli_ctx *ctx, const cli_command *cmd,
                      pier_params *params, const char *value);
pier_status cli_param_set(pier_params *params, const char *assignment,
                          pier_error *err);

/* ---- sql.c ---- */

/* Runs a script with pier_exec and prints its last statement's rows in
 * `format` (or how many rows it changed). @return the exit code. */
int cli_run_sql(cli_ctx *ctx, const char *sql, pier_params *params,
                cli_format format);
/* The same, printing as `o` says (the shell's .mode and .headers). */
int cli_run_sql_with(cli_ctx *ctx, const char *sql, pier_params *params,
                     const cli_print_options *o);
/* Prints the whole lake's schema (pier_schema_dump). @return exit code. */
int cli_schema_dump(cli_ctx *ctx);
/* `pier schema export`: the lake as a declaration (introspect.c). */
int cli_schema_export(cli_ctx *ctx);
/* Prints a declared table's columns. @return CLI_EXIT_OK, or
 * CLI_EXIT_FAILED with *err filled and nothing printed. */
int cli_schema_table(cli_ctx *ctx, const char *name, pier_error *err);

/* ---- stream.c: reading stdin, in batches or whole ---- */

/*
 * Receives one batch: `len` bytes of JSON-lines text holding `rows`
 * objects, whose first byte was at offset `base` of the input. Returns
 * PIER_OK to go on; anything else stops the stream with that error.
 */
typedef pier_status (*cli_batch_fn)(const char *text, size_t len,
                                    int64_t base, size_t rows,
                                    void *payload, pier_error *err);

/* When set and non-zero at the start of a read, cli_stream_split stops
 * before reading more (a signal handler sets it: rows.c). */
extern volatile sig_atomic_t *cli_stream_stop;
/* Whether the last load (cli_load_*) was stopped by SIGINT or SIGTERM. */
bool cli_load_stopped(void);

/*
 * Reads from `in`, not yet read through stdio, what has arrived, up to
 * `cap` bytes: unlike fread, it waits only until something (at least
 * `least` bytes, or the end of the input) is there, so that rows a slow
 * producer writes are handed on as soon as they are complete, not when
 * `cap` bytes more have come. Retries a read a signal interrupts unless
 * cli_stream_stop is set. @return the bytes read, 0 at the end of the
 * input, -1 with errno if reading failed or was stopped.
 */
ssize_t cli_read_some(FILE *in, char *buf, size_t cap, size_t least);

/*
 * Waits until `fd` is ready for `events` (POLLIN, POLLOUT), looking at
 * `stop` (may be NULL) before it waits and every 100 ms while it does: a
 * signal handler that sets `stop` ends the wait even when it ran just
 * before the wait began. @return 1 ready (or in error: the read or write
 * says which), 0 stopped (errno EINTR), -1 with errno if poll failed.
 */
int cli_wait_fd(int fd, short events, volatile sig_atomic_t *stop);

/*
 * Writes all `len` bytes to `fd`, at most `most` bytes a write, each after
 * cli_wait_fd: with `most` at PIPE_BUF, a write into a pipe that no one
 * reads never waits past a signal that sets `stop`. @return true, or
 * false with errno (EINTR when stopped).
 */
bool cli_write_all(int fd, const char *bytes, size_t len, size_t most,
                   volatile sig_atomic_t *stop);

/*
 * Reads `in` to its end: a JSON array of objects, or objects separated by
 * white space. Hands the objects to `fn` in batches of `batch_rows` (fewer
 * when the text would pass PIER_MAX_BATCH_BYTES, and for the last batch),
 * holding no more than one batch in memory. A syntax error the splitter
 * sees itself (outside the objects) is PIER_E_INVALID_JSON with err->offset
 * relative to the start of `in`; a batch in progress then is not passed.
 */
pier_status cli_stream_split(FILE *in, size_t batch_rows, cli_batch_fn fn,
                             void *payload, pier_error *err);

/*
 * Reads `in` to its end into a new NUL-terminated buffer (*out, for
 * free(); *len excludes the NUL). `name` names the input in messages
 * ("stdin", a file name); `what` says what it holds ("a patch").
 * @return PIER_E_READ_FAILED if reading fails, PIER_E_LIMIT_EXCEEDED if
 *         the input passes `max` bytes, PIER_E_OUT_OF_MEMORY.
 */
pier_status cli_read_all(FILE *in, const char *name, const char *what,
                         size_t max, char **out, size_t *len,
                         pier_error *err);
/* Reads the file `path` ("-": stdin) whole, as cli_read_all does.
 * @return CLI_CONTINUE, or the exit code after printing why. */
int cli_read_path(cli_ctx *ctx, const char *path, const char *what,
                  size_t max, char **out, size_t *len);

/* ---- migrate.c, codegen.c: declarations ---- */

/* Appends where in the declaration `text` (read from `file`, "-": stdin)
 * err->offset points: " (line L, column C of 'FILE')", lines and columns
 * (bytes) counted from 1. */
void cli_locate(pier_error *err, const char *text, const char *file);

/* `pier schema codegen c|jsonschema FILE|- [--prefix NAME]`: argv[0] is
 * "codegen". Needs no engine. @return the exit code. */
int cli_schema_codegen(cli_ctx *ctx, const cli_command *cmd, int argc,
                       char **argv);

/* ---- manual.c: the man page and the completions ---- */

/* Prints pier(1) in roff (man(7) macros). */
void cli_print_man(FILE *f);
/* Prints the completion script of `shell`, "bash" or "zsh" (the caller
 * checked). @return 0, or -1 if out of memory (nothing useful printed). */
int cli_print_completion(FILE *f, const char *shell);

/* ---- load.c: writing rows ---- */

/* A write of JSON rows: pier_insert_json, pier_upsert_json. */
typedef pier_status (*cli_json_write_fn)(int64_t *watermark,
                                         pier_engine *engine,
                                         const char *board,
                                         const char *json, size_t len,
                                         pier_error *err);

typedef enum cli_load_format {
    CLI_LOAD_JSON = 0,     /* the JSON argument, or JSON from stdin */
    CLI_LOAD_CSV = 1,      /* --csv FILE|- */
    CLI_LOAD_TSV = 2       /* --tsv FILE|- */
} cli_load_format;

/* The options of insert and upsert about their input. */
typedef struct cli_load_opts {
    cli_load_format format;
    const char *source;    /* --csv/--tsv's FILE, or "-" for stdin */
    const char *id_column; /* --id COL, or NULL: "id" */
    int id_generate;       /* --id-generate: 4, 7; 0 when not given */
} cli_load_opts;
#define CLI_LOAD_OPTS_INIT { CLI_LOAD_JSON, NULL, NULL, 0 }

#define CLI_LOAD_OPTSPECS                                                 \
    { "--csv", true }, { "--tsv", true }, { "--id", true },              \
    { "--id-generate", true }

/* The options insert and upsert share, in their --help. */
#define CLI_LOAD_HELP                                                        \
    "--csv FILE|- and --tsv FILE|- read the rows from a CSV (RFC 4180) or\n" \
    "TSV file instead, or from stdin with '-': a header line names the\n"  \
    "columns, each later line is a row, streamed in batches as above.\n"   \
    "Where the board has the column, the value takes its type; elsewhere\n" \
    "an unquoted 42, 4.5, true or false is a number or a boolean, an\n"    \
    "empty unquoted field is null, and anything else (anything quoted) is\n"\
    "text. Errors name the line of the file.\n"                           \
    "\n"                                                                    \
    "--id COL takes each row's id from the field COL (the column \"id\" by\n"\
    "default), which then is no column of its own; an integer there is\n"  \
    "kept as its digits (7 becomes \"7\"). --id-generate uuid7 (or uuid4)\n" \
    "gives a row without an id (or with a null or empty one) a new UUID; a\n"\
    "row that has one keeps it.\n"                                        \
    "\n"                                                                    \
    "On a terminal, a load from stdin or a file shows its progress (rows\n"\
    "committed, rows per second) on stderr.\n"

/* Takes one of CLI_LOAD_OPTSPECS into opts. @return 0, or the usage exit
 * code after printing why. */
int cli_load_option(const cli_command *cmd, const char *name,
                    const char *value, cli_load_opts *opts);

/*
 * Writes rows to `board` with `fn`: `arg`, JSON text, as one write; with
 * "-" (JSON from stdin) or a CSV/TSV input, streamed in batches of
 * CLI_STDIN_BATCH_ROWS rows, one write each (see load.c), with a progress
 * line on stderr when it is a terminal. `opts` (NULL: none) gives the
 * input's format and ids. Prints the watermark, or the error. The engine
 * is open. @return the exit code.
 */
int cli_write_rows(cli_ctx *ctx, const char *board, const char *arg,
                   cli_json_write_fn fn, const cli_load_opts *opts);

/*
 * Streams the rows of `in` (a JSON array of objects, or JSON lines; or
 * CSV or TSV, as `opts` says, with its ids: NULL for JSON with "id") into
 * `board` with `fn`, in batches of CLI_STDIN_BATCH_ROWS rows, one write
 * each: the path of `insert BOARD -`, for any stream (the shell's .import
 * reads a file). `name` names the input in messages ("stdin", the file).
 * Prints the watermark, or the error and the rows committed before it.
 * @return the exit code.
 */
int cli_write_stream(cli_ctx *ctx, const char *board, FILE *in,
                     const char *name, cli_json_write_fn fn,
                     const cli_load_opts *opts);

/* ---- csvrows.c: CSV and TSV in batches of JSON rows ---- */

typedef struct cli_csv_source {
    FILE *in;
    const char *name;      /* "stdin", or the file's name, for messages */
    char sep;              /* ',' for CSV, '\t' for TSV */
} cli_csv_source;

/*
 * Reads a CSV or TSV input to its end: a header line, then rows, each
 * made a JSON object (typed by `board`'s columns, NULL: none yet; ids as
 * `opts` says) and handed to `fn` in batches of `batch_rows` as JSON-lines
 * text, as cli_stream_split does (`base` is -1: its offsets are not the
 * input's). A row `fn` refuses gains " (line L of NAME)". Stops before
 * the next read when cli_stream_stop is set.
 * @return PIER_OK; InvalidArgument (malformed, or a field count that is
 *         not the header's), InvalidColumnName, DuplicateColumn, MissingId,
 *         LimitExceeded (a record over PIER_MAX_ROW_BYTES), ReadFailed,
 *         Interrupted, or `fn`'s error; *err names the line.
 */
pier_status cli_csv_split(const cli_csv_source *src,
                          const pier_board_info *board,
                          const cli_load_opts *opts, size_t batch_rows,
                          cli_batch_fn fn, void *payload, pier_error *err);

/* Whether an unquoted CSV field s[0..n) reads as something else than
 * text: empty (null), a JSON number or a boolean. dump --csv quotes such a
 * text value so that it loads back as text. */
bool cli_csv_reads_as_json(const char *s, size_t n);

/* ---- rows.c ---- */

/* `insert` and `upsert`: parses BOARD, JSON|- and CLI_LOAD_OPTSPECS, opens
 * the engine and writes the rows with `fn`. @return the exit code. */
int cli_run_load(cli_ctx *ctx, const cli_command *cmd, int argc, char **argv,
                 cli_json_write_fn fn);


/*
 * Makes the error of a write of a part of a larger input read as if the
 * input had been one write: its byte offset (err->offset, and the " at
 * byte N" naming it, which gains " of WHERE") counts from the start of the
 * input, `base` bytes before the part, and the row numbers the library
 * puts at the start of a message or in parentheses ("row N", "(row N)",
 * "(rows N and M)", counted from the start of the part) from the input's
 * first row, `rows_before` rows before the part. Values the message quotes
 * in "..." are left alone.
 */
void cli_relocate(pier_error *err, int64_t base, size_t rows_before,
                  const char *where);

#endif /* PIER_CLI_H */
