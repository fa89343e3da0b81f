/*
 * complete.h: what the shell's Tab completes, as a pure function of the
 * line, the cursor and the lake's names (complete.c), so that it is tested
 * without a terminal (tests/unit/test_complete.c). shell.c gathers the
 * names and edits the line.
 */
#ifndef PIER_CLI_COMPLETE_H
#define PIER_CLI_COMPLETE_H

#include <stdbool.h>
#include <stddef.h>

/* A column and the board or table that has it. */
typedef struct cli_owned_column {
    const char *owner;
    const char *name;
} cli_owned_column;

/* The names the shell may complete; every array may be empty. */
typedef struct cli_names {
    const char *const *boards;
    size_t nboards;
    const char *const *tables;
    size_t ntables;
    const cli_owned_column *columns;
    size_t ncolumns;
    const char *board;       /* the shell's current board, or NULL */
    bool sql_mode;           /* lines are the SQL dialect's (.sql) */
} cli_names;

/* What is completed. */
typedef enum cli_completion_kind {
    CLI_COMPLETE_WORDS = 0,  /* the candidates below */
    CLI_COMPLETE_FILES = 1   /* a file name: the caller looks for files */
} cli_completion_kind;

typedef struct cli_completion {
    cli_completion_kind kind;
    size_t start;            /* the byte of the line where the word that
                                is completed starts; it ends at the
                                cursor */
    char **items;            /* the words that may replace it, sorted,
                                each once; NULL when n is 0 */
    size_t n;
    bool closed;             /* a lone candidate is a whole word: the
                                caller may add a blank after it */
} cli_completion;

/*
 * Completes the word of `line` that ends at byte `cursor`: after a '.' at
 * the start, a dot-command; after a dot-command, its argument (boards,
 * tables, files, formats, on/off); in a query or statement, SQL keywords,
 * {{board}} and {{board:NAME}}, board and table names, and the columns of
 * the boards and tables the line names, before the cursor or after it
 * ({{board}}: the current board; "NAME." NAME's alone), or else of the
 * current board (board queries), or else of all. Names match
 * their prefix regardless of case; a keyword takes the case of the prefix.
 * @return false if out of memory (*out is then empty).
 */
bool cli_complete(cli_completion *out, const char *line, size_t cursor,
                  const cli_names *names);
void cli_completion_free(cli_completion *c);

#endif /* PIER_CLI_COMPLETE_H */
