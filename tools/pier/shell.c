/*
 * shell.c: `pier shell`, an interactive shell for reading boards.
 *
 * A line is a query (pier_query) against the current board; a line that
 * starts with '.' is a dot-command (.help lists them). On a terminal the
 * shell edits lines with libedit (emacs keys, ~/.editrc honoured) and
 * keeps a history, saved after every line so that nothing is lost however
 * the shell ends; Ctrl-C abandons the line being typed, Ctrl-D leaves.
 * When stdin is not a terminal it reads lines plainly, prints no prompt,
 * and exits 1 if any line failed, so that a script can run it.
 *
 * The engine stays open for the whole session; the query's parameters
 * and the boards it may join (.param, .with) persist between lines.
 *
 * `.sql` switches to the SQL dialect (pier_exec on the declared tables):
 * lines gather into a script until one ends with ';', and a script that
 * opens a transaction (BEGIN) gathers on until its COMMIT, END or
 * ROLLBACK, so that the transaction is one pier_exec and so atomic.
 *
 * Output: .output and .once point file descriptor 1 at a file (the
 * shell's own is kept in saved_stdout), so that every command's output
 * follows without knowing; the line editor writes to a descriptor of its
 * own, the terminal. When stdout is a terminal, what a line prints goes
 * to a temporary file first, and reaches the terminal through $PAGER if
 * it is taller than the terminal (page_or_print). Tab completes from
 * complete.c's candidates (complete_key).
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <time.h>
#include <wchar.h>
#include <unistd.h>

#include <histedit.h>

#include "cli.h"
#include "complete.h"

/* Lines of history kept. */
#define SHELL_HISTORY_LINES 1000
/* Boards .with may name (the library takes no more). */
#define SHELL_MAX_WITH 8
/* Files .read may nest: deep enough for any script that includes
 * another, shallow enough to stop a file that reads itself at once. */
#define SHELL_MAX_READ_DEPTH 16
/* Boards and tables whose columns a Tab reads: each is one catalog read,
 * and 200 keep a Tab well under a tenth of a second. */
#define SHELL_COMPLETE_OWNERS 200
/* The pager when $PAGER is unset or empty: -F prints a result that fits
 * and quits, -R keeps colours, -X leaves it on the screen. */
#define SHELL_PAGER "less -FRX"

typedef struct shell {
    cli_ctx *ctx;
    char *board;              /* the current board, or NULL */
    cli_print_options print;  /* .mode (.format) and .headers */
    bool timer;
    bool pager;               /* .pager: page results on a terminal */
    int saved_stdout;         /* the shell's stdout while .output or .once
                                 redirect descriptor 1; -1: none */
    int once;                 /* .once: 2 just set; 1 ends after the next
                                 line that prints a result (a query, a
                                 script, .dump...); 0: none */
    int depth;                /* .read files being read */
    FILE *term;               /* the line editor's output, the terminal */
    char *with[SHELL_MAX_WITH];
    size_t nwith;
    char *tables[SHELL_MAX_WITH]; /* .with-table: {{table:NAME}} */
    size_t ntables;
    pier_params *params;
    char **assignments;       /* the .param lines, to show them */
    size_t nassignments;
    bool interactive;
    bool quit;
    int failures;
    EditLine *el;
    History *hist;
    char *history_path;       /* NULL: no history file */
    char prompt[256];
    bool sql_mode;            /* lines are the SQL dialect's (.sql) */
    char *script;             /* SQL lines gathered so far, or NULL */
    size_t script_len;
} shell;

/* Set by SIGINT while a line is read: the line is abandoned. */
static volatile sig_atomic_t interrupted;

/* Whether a statement runs now: SIGINT stops it (cli_interrupt_request,
 * safe in a handler) instead of abandoning a line. */
static volatile sig_atomic_t running;

/* The signal mask while waiting for a key or running a statement: SIGINT
 * is blocked at all other times, so that it is taken only inside
 * pselect() (read_char) or while a statement runs (run_line). */
static sigset_t waiting_mask;

static void on_sigint(int sig)
{
    (void)sig;
    if (running)
        cli_interrupt_request();
    else
        interrupted = 1;
}

/* With lines from a pipe or a file, SIGINT stops the statement that runs
 * and the script: no later line runs. */
static volatile sig_atomic_t script_stopped;

/* /dev/null, open while a script is read: between two lines SIGINT puts
 * it in stdin's place, so that a read of the next line that was about to
 * begin (after the look at script_stopped) meets the end of the input
 * rather than waiting for a producer that keeps its pipe open. A read
 * already waiting ends with EINTR (no SA_RESTART). */
static int script_null = -1;

static void on_sigint_script(int sig)
{
    (void)sig;
    script_stopped = 1;
    if (running)
        cli_interrupt_request();
    else if (script_null >= 0)
        dup2(script_null, STDIN_FILENO);
}

/* (no SA_RESTART: a read of the next line ends at once) */
static void take_sigint_script(void)
{
    script_null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint_script;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

static void fail_line(shell *sh, const char *tag, const char *message)
{
    cli_fail_msg(sh->ctx, tag, message);
    sh->failures++;
}

static void fail_usage(shell *sh, const char *message)
{
    fflush(stdout);
    fprintf(stderr, "pier: usage: %s\n", message);
    sh->failures++;
}

/* ---- queries ---- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void run_sql(shell *sh, const char *sql)
{
    if (sh->board == NULL) {
        fail_usage(sh, "no board to query: choose one with .use BOARD");
        return;
    }
    pier_query_options o = PIER_QUERY_OPTIONS_INIT;
    o.with = (const char *const *)sh->with;
    o.nwith = sh->nwith;
    o.tables = (const char *const *)sh->tables;
    o.ntables = sh->ntables;
    pier_error err;
    cli_error_init(&err);
    double t0 = now_ms();
    pier_cursor *c = NULL;
    pier_status rc = pier_query(&c, sh->ctx->engine, sh->board, sql,
                                sh->params, &o, &err);
    if (rc == PIER_OK)
        rc = cli_print_rows(c, &sh->print, stdout, NULL, &err);
    pier_cursor_close(c);
    /* stdout is gone: so is the shell. (The library's own WriteFailed is
     * an error like any other.) */
    if (rc == PIER_E_WRITE_FAILED && ferror(stdout)) {
        sh->ctx->stdout_errno = errno;    /* reported by main */
        sh->failures++;
        sh->quit = true;
        return;
    }
    if (rc != PIER_OK) {
        cli_fail(sh->ctx, &err);
        sh->failures++;
        return;
    }
    if (sh->timer)
        printf("time: %.3f ms\n", now_ms() - t0);
}

/* ---- the SQL dialect ---- */

/* The first word of each statement of `s` (split on ';', good enough for
 * a shell's guess): whether a BEGIN is still open at the end. */
static bool transaction_open(const char *s)
{
    bool open = false;
    for (const char *p = s; *p != '\0';) {
        p += strspn(p, " \t\r\n;");
        size_t n = strcspn(p, " \t\r\n;");
        if (n == 5 && strncasecmp(p, "BEGIN", 5) == 0)
            open = true;
        else if ((n == 6 && strncasecmp(p, "COMMIT", 6) == 0) ||
                 (n == 3 && strncasecmp(p, "END", 3) == 0) ||
                 (n == 8 && strncasecmp(p, "ROLLBACK", 8) == 0))
            open = false;
        p += n;
        p += strcspn(p, ";");
    }
    return open;
}

/* Adds a line to the script; runs the script once it is complete. */
static void sql_line(shell *sh, const char *line)
{
    size_t n = strlen(line);
    char *grown = realloc(sh->script, sh->script_len + n + 2);
    if (grown == NULL) {
        fail_line(sh, pier_status_tag(PIER_E_OUT_OF_MEMORY), "out of memory");
        return;
    }
    sh->script = grown;
    memcpy(sh->script + sh->script_len, line, n);
    sh->script_len += n;
    sh->script[sh->script_len++] = '\n';
    sh->script[sh->script_len] = '\0';
    if (line[n - 1] != ';' || transaction_open(sh->script))
        return;
    double t0 = now_ms();
    if (cli_run_sql_with(sh->ctx, sh->script, sh->params, &sh->print) !=
        CLI_EXIT_OK) {
        sh->failures++;
        if (sh->ctx->stdout_errno != 0)
            sh->quit = true;
    } else if (sh->timer) {
        printf("time: %.3f ms\n", now_ms() - t0);
    }
    free(sh->script);
    sh->script = NULL;
    sh->script_len = 0;
}

/* ---- dot-commands ---- */

static const char shell_help[] =
    "A line is a query against the current board, where {{board}} stands\n"
    "for its rows (pier query --help says what a query may do); after\n"
    ".sql, lines are SQL statements on the declared tables, run when a\n"
    "line ends with ';' (pier sql --help). Commands:\n"
    "  .sql [on|off]        SQL statements (on) or board queries (off)\n"
    "  .tables              List the declared tables\n"
    "  .boards              List the boards\n"
    "  .schema [BOARD]      Show a board's columns (default: the current)\n"
    "  .use BOARD           Query BOARD from now on\n"
    "  .with [BOARD...]     Let queries join these boards as\n"
    "                       {{board:NAME}} (none: join none)\n"
    "  .with-table [TABLE...]\n"
    "                       ... and these declared tables or views as\n"
    "                       {{table:NAME}}\n"
    "  .param NAME=VALUE    Bind VALUE to :NAME, $NAME, @NAME (NAME a\n"
    "                       number: ?NAME), read as in --param\n"
    "  .param               List the parameters set;  .param clear: forget\n"
    "  .format [FORMAT]     Print results as table, box, json, jsonl or csv\n"
    "                       (.mode is the same)\n"
    "  .headers on|off      Print the column names (table, box, csv)\n"
    "  .import [OPTIONS] FILE BOARD\n"
    "                       Insert FILE's rows (JSON lines, or a JSON\n"
    "                       array) into BOARD, as 'pier insert BOARD -';\n"
    "                       OPTIONS: --csv, --tsv, --id COL,\n"
    "                       --id-generate uuid7|uuid4, as for insert\n"
    "  .dump [NAME]         A board's or a table's rows as JSON lines;\n"
    "                       alone, the lake's schema as a SQL script\n"
    "  .read FILE           Run FILE's lines as shell input\n"
    "  .output [FILE]       Write output to FILE (none: to stdout again)\n"
    "  .once FILE           Write the next command's output to FILE\n"
    "  .pager on|off        Page long results on a terminal ($PAGER)\n"
    "  .timer on|off        Show how long each query took\n"
    "  .help                This help\n"
    "  .quit                Leave (also .exit, or Ctrl-D)\n";

/* Splits `args` on blanks into at most `max` words (in place). */
static size_t split_words(char *args, char **words, size_t max)
{
    size_t n = 0;
    char *save = NULL;
    for (char *w = strtok_r(args, " \t", &save); w != NULL;
         w = strtok_r(NULL, " \t", &save)) {
        if (n == max)
            return max + 1;
        words[n++] = w;
    }
    return n;
}

/* Runs a pier command (boards, schema) as the shell's own. */
static void run_command(shell *sh, const cli_command *cmd, char *arg)
{
    char *argv[3] = { (char *)cmd->name, "--", arg };
    int argc = arg != NULL ? 3 : 1;
    if (cmd->run(sh->ctx, cmd, argc, argv) != CLI_EXIT_OK)
        sh->failures++;
}

static void dot_use(shell *sh, char **w, size_t n)
{
    if (n != 1) {
        fail_usage(sh, ".use takes one board: .use BOARD");
        return;
    }
    bool has = false;
    pier_error err;
    cli_error_init(&err);
    if (pier_board_has(&has, sh->ctx->engine, w[0], &err) != PIER_OK) {
        cli_fail(sh->ctx, &err);
        sh->failures++;
        return;
    }
    if (!has) {
        char msg[200];
        snprintf(msg, sizeof msg, "no board '%.150s'", w[0]);
        fail_line(sh, pier_status_tag(PIER_E_BOARD_NOT_FOUND), msg);
        return;
    }
    char *copy = strdup(w[0]);
    if (copy == NULL) {
        fail_line(sh, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                  "out of memory");
        return;
    }
    free(sh->board);
    sh->board = copy;
}

static void clear_names(char **names, size_t *n)
{
    for (size_t i = 0; i < *n; i++)
        free(names[i]);
    *n = 0;
}

static void clear_with(shell *sh)
{
    clear_names(sh->with, &sh->nwith);
    clear_names(sh->tables, &sh->ntables);
}

/* .with [BOARD...] and .with-table [TABLE...]: the names queries may
 * join from now on, in place of those before. */
static void dot_with(shell *sh, bool tables, char **w, size_t n)
{
    char **names = tables ? sh->tables : sh->with;
    size_t *count = tables ? &sh->ntables : &sh->nwith;
    if (n > SHELL_MAX_WITH) {
        fail_usage(sh, tables ? ".with-table names at most 8 tables"
                              : ".with names at most 8 boards");
        return;
    }
    clear_names(names, count);
    for (size_t i = 0; i < n; i++) {
        names[i] = strdup(w[i]);
        if (names[i] == NULL) {
            fail_line(sh, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                      "out of memory");
            return;
        }
        *count = i + 1;
    }
    if (n == 0)
        puts(tables ? "queries join no declared table"
                    : "queries join no other board");
}

static void clear_params(shell *sh)
{
    for (size_t i = 0; i < sh->nassignments; i++)
        free(sh->assignments[i]);
    sh->nassignments = 0;
    pier_params_free(sh->params);
    sh->params = pier_params_new();
}

static void dot_param(shell *sh, char *rest)
{
    if (rest[0] == '\0') {
        for (size_t i = 0; i < sh->nassignments; i++)
            printf("%s\n", sh->assignments[i]);
        return;
    }
    if (strcmp(rest, "clear") == 0) {
        clear_params(sh);
        return;
    }
    pier_error err;
    cli_error_init(&err);
    char *copy = strdup(rest);
    char **grown = copy == NULL ? NULL
                                : realloc(sh->assignments,
                                          (sh->nassignments + 1) *
                                              sizeof *grown);
    pier_status rc = sh->params == NULL || grown == NULL
                         ? PIER_E_OUT_OF_MEMORY
                         : cli_param_set(sh->params, rest, &err);
    if (grown != NULL)
        sh->assignments = grown;
    if (rc != PIER_OK) {
        free(copy);
        if (rc == PIER_E_OUT_OF_MEMORY && err.tag == NULL)
            fail_line(sh, pier_status_tag(rc), "out of memory");
        else if (rc == PIER_E_INVALID_ARGUMENT)
            fail_usage(sh, err.message);
        else {
            cli_fail(sh->ctx, &err);
            sh->failures++;
        }
        return;
    }
    sh->assignments[sh->nassignments++] = copy;
}

static void dot_format(shell *sh, char **w, size_t n)
{
    cli_format f;
    if (n == 0) {
        printf("%s\n", cli_format_name(sh->print.format));
    } else if (n == 1 && cli_parse_format(w[0], &f)) {
        sh->print.format = f;
    } else {
        fail_usage(sh, ".format takes one of table, box, json, jsonl, csv");
    }
}

/* `.NAME on|off` into *flag. */
static void dot_on_off(shell *sh, const char *name, char **w, size_t n,
                       bool *flag)
{
    if (n == 1 && strcmp(w[0], "on") == 0) {
        *flag = true;
    } else if (n == 1 && strcmp(w[0], "off") == 0) {
        *flag = false;
    } else {
        char msg[64];
        snprintf(msg, sizeof msg, ".%s takes on or off", name);
        fail_usage(sh, msg);
    }
}

static void fail_errno(shell *sh, pier_status status, const char *what,
                       const char *path)
{
    char msg[400];
    snprintf(msg, sizeof msg, "%s '%.300s': %s", what, path,
             strerror(errno));
    fail_line(sh, pier_status_tag(status), msg);
}

/* ---- .import, .dump, .read ---- */

/*
 * .import [--csv|--tsv] [--id COL] [--id-generate uuid7|uuid4] FILE
 * BOARD: the rows of FILE into BOARD, through the code of `pier insert
 * BOARD -` (cli_write_stream), with insert's options: batches of 1000
 * rows, each one atomic write, a board created as insert creates it.
 */
static void dot_import(shell *sh, char **w, size_t n)
{
    char *pos[2];
    size_t npos = 0;
    cli_load_opts opts = CLI_LOAD_OPTS_INIT;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(w[i], "--csv") == 0 || strcmp(w[i], "--tsv") == 0) {
            opts.format = w[i][2] == 'c' ? CLI_LOAD_CSV : CLI_LOAD_TSV;
            continue;
        }
        if (strcmp(w[i], "--id") == 0 ||
            strcmp(w[i], "--id-generate") == 0) {
            bool id = w[i][4] == '\0';   /* --id, not --id-generate */
            const char *v = i + 1 < n ? w[++i] : "";
            if (id && v[0] != '\0') {
                opts.id_column = v;
                continue;
            }
            if (!id && (strcmp(v, "uuid7") == 0 || strcmp(v, "uuid4") == 0)) {
                opts.id_generate = v[4] - '0';
                continue;
            }
            fail_usage(sh, id
                               ? ".import: --id needs a column name"
                               : ".import: --id-generate takes uuid7 or "
                                 "uuid4");
            return;
        }
        if (strncmp(w[i], "--", 2) == 0) {
            char msg[240];
            snprintf(msg, sizeof msg, ".import has no option '%.100s' "
                     "(--csv, --tsv, --id COL, --id-generate KIND)", w[i]);
            fail_usage(sh, msg);
            return;
        }
        if (npos == 2) {
            npos++;
            break;
        }
        pos[npos++] = w[i];
    }
    if (npos != 2) {
        fail_usage(sh, ".import takes a file and a board: .import FILE "
                   "BOARD");
        return;
    }
    FILE *f = fopen(pos[0], "rb");
    if (f == NULL) {
        fail_errno(sh, PIER_E_READ_FAILED, "cannot read", pos[0]);
        return;
    }
    if (opts.format != CLI_LOAD_JSON)
        opts.source = pos[0];
    if (cli_write_stream(sh->ctx, pos[1], f, pos[0], pier_insert_json,
                         &opts) != CLI_EXIT_OK)
        sh->failures++;
    fclose(f);
}

/* "name" with its quotes doubled, as the dialect quotes an identifier;
 * NULL if out of memory. */
static char *quoted_name(const char *name)
{
    size_t n = strlen(name), q = 0;
    for (size_t i = 0; i < n; i++)
        q += name[i] == '"';
    char *s = malloc(n + q + 3);
    if (s == NULL)
        return NULL;
    char *o = s;
    *o++ = '"';
    for (size_t i = 0; i < n; i++) {
        if (name[i] == '"')
            *o++ = '"';
        *o++ = name[i];
    }
    *o++ = '"';
    *o = '\0';
    return s;
}

/* .dump: the schema (pier schema dump); .dump BOARD: its rows, as `pier
 * dump` prints them; .dump TABLE: a declared table's rows, as JSON lines
 * too. A name that is both is the board. */
static void dot_dump(shell *sh, char **w, size_t n)
{
    if (n > 1) {
        fail_usage(sh, ".dump takes at most one board or table");
        return;
    }
    if (n == 0) {
        if (cli_schema_dump(sh->ctx) != CLI_EXIT_OK)
            sh->failures++;
        return;
    }
    bool board = false;
    pier_error err;
    cli_error_init(&err);
    if (pier_board_has(&board, sh->ctx->engine, w[0], &err) == PIER_OK &&
        board) {
        run_command(sh, &cli_cmd_dump, w[0]);
        return;
    }
    pier_table_info *info = NULL;
    cli_error_init(&err);
    if (pier_table_describe(&info, sh->ctx->engine, w[0], &err) !=
        PIER_OK) {
        char msg[200];
        snprintf(msg, sizeof msg, "no board or declared table '%.150s'",
                 w[0]);
        fail_line(sh, err.status == PIER_E_TABLE_NOT_FOUND
                          ? pier_status_tag(PIER_E_BOARD_NOT_FOUND)
                          : err.tag,
                  err.status == PIER_E_TABLE_NOT_FOUND ? msg : err.message);
        return;
    }
    char *name = quoted_name(info->table);
    pier_table_info_free(info);
    size_t len = name != NULL ? strlen(name) + sizeof "SELECT * FROM " : 0;
    char *sql = name != NULL ? malloc(len) : NULL;
    if (sql == NULL) {
        free(name);
        fail_line(sh, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                  "out of memory");
        return;
    }
    snprintf(sql, len, "SELECT * FROM %s", name);
    cli_print_options o = { CLI_FORMAT_JSONL, false };
    if (cli_run_sql_with(sh->ctx, sql, NULL, &o) != CLI_EXIT_OK)
        sh->failures++;
    free(sql);
    free(name);
}

static void run_line(shell *sh, char *line);

/* .read FILE: each line of FILE, as if typed. */
static void dot_read(shell *sh, char **w, size_t n)
{
    if (n != 1) {
        fail_usage(sh, ".read takes one file: .read FILE");
        return;
    }
    if (sh->depth == SHELL_MAX_READ_DEPTH) {
        char msg[300];
        snprintf(msg, sizeof msg, ".read of '%.200s' nests deeper than %d "
                 "files", w[0], SHELL_MAX_READ_DEPTH);
        fail_line(sh, pier_status_tag(PIER_E_LIMIT_EXCEEDED), msg);
        return;
    }
    FILE *f = fopen(w[0], "r");
    if (f == NULL) {
        fail_errno(sh, PIER_E_READ_FAILED, "cannot read", w[0]);
        return;
    }
    sh->depth++;
    char *line = NULL;
    size_t cap = 0;
    while (!sh->quit && getline(&line, &cap, f) >= 0) {
        line[strcspn(line, "\n")] = '\0';
        run_line(sh, line);
    }
    if (ferror(f))
        fail_errno(sh, PIER_E_READ_FAILED, "cannot read", w[0]);
    sh->depth--;
    free(line);
    fclose(f);
}

/* ---- .output, .once ---- */

/* Descriptor 1 back to the shell's stdout. */
static void output_restore(shell *sh)
{
    fflush(stdout);
    if (sh->saved_stdout >= 0) {
        dup2(sh->saved_stdout, STDOUT_FILENO);
        close(sh->saved_stdout);
        sh->saved_stdout = -1;
    }
    sh->once = 0;
}

/* .output FILE, .output, .once FILE: FILE is created or emptied. */
static void dot_output(shell *sh, const char *name, char **w, size_t n)
{
    bool once = strcmp(name, "once") == 0;
    if (n > 1 || (once && n != 1)) {
        fail_usage(sh, once ? ".once takes one file: .once FILE"
                            : ".output takes at most one file");
        return;
    }
    fflush(stdout);
    if (n == 0) {
        output_restore(sh);
        return;
    }
    int fd = open(w[0], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        fail_errno(sh, PIER_E_WRITE_FAILED, "cannot write to", w[0]);
        return;
    }
    if (sh->saved_stdout < 0)
        sh->saved_stdout = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (sh->saved_stdout < 0 || dup2(fd, STDOUT_FILENO) < 0) {
        fail_errno(sh, PIER_E_WRITE_FAILED, "cannot write to", w[0]);
        close(fd);
        return;
    }
    close(fd);
    sh->once = once ? 2 : 0;
}

/* The dot-commands whose output a pager may take (page_or_print). */
static bool prints_result(const char *cmd)
{
    static const char *const names[] = { "boards", "dump", "help",
                                         "schema", "tables" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(cmd, names[i]) == 0)
            return true;
    return false;
}

static void run_dot(shell *sh, char *line)
{
    char *rest = line + strcspn(line, " \t");
    if (*rest != '\0')
        *rest++ = '\0';
    rest += strspn(rest, " \t");
    char *cmd = line + 1;
    if (strcmp(cmd, "param") == 0) {
        dot_param(sh, rest);
        return;
    }
    char *w[SHELL_MAX_WITH + 1];
    size_t n = split_words(rest, w, SHELL_MAX_WITH);
    if (strcmp(cmd, "help") == 0) {
        fputs(shell_help, stdout);
    } else if (strcmp(cmd, "quit") == 0 || strcmp(cmd, "exit") == 0) {
        sh->quit = true;
    } else if (strcmp(cmd, "boards") == 0 && n == 0) {
        run_command(sh, &cli_cmd_boards, NULL);
    } else if (strcmp(cmd, "tables") == 0 && n == 0) {
        run_command(sh, &cli_cmd_tables, NULL);
    } else if (strcmp(cmd, "sql") == 0 && n <= 1) {
        if (n == 1 && strcmp(w[0], "on") != 0 && strcmp(w[0], "off") != 0)
            fail_usage(sh, ".sql takes on or off");
        else
            sh->sql_mode = n == 0 || strcmp(w[0], "on") == 0;
    } else if (strcmp(cmd, "schema") == 0 && n <= 1) {
        char *board = n == 1 ? w[0] : sh->board;
        if (board == NULL)
            fail_usage(sh, ".schema takes a board when none is in use");
        else
            run_command(sh, &cli_cmd_schema, board);
    } else if (strcmp(cmd, "use") == 0) {
        dot_use(sh, w, n);
    } else if (strcmp(cmd, "with") == 0 ||
               strcmp(cmd, "with-table") == 0) {
        dot_with(sh, cmd[4] != '\0', w, n);
    } else if (strcmp(cmd, "format") == 0 || strcmp(cmd, "mode") == 0) {
        dot_format(sh, w, n);
    } else if (strcmp(cmd, "timer") == 0) {
        dot_on_off(sh, cmd, w, n, &sh->timer);
    } else if (strcmp(cmd, "pager") == 0) {
        dot_on_off(sh, cmd, w, n, &sh->pager);
    } else if (strcmp(cmd, "headers") == 0) {
        bool on = !sh->print.no_headers;
        dot_on_off(sh, cmd, w, n, &on);
        sh->print.no_headers = !on;
    } else if (strcmp(cmd, "import") == 0) {
        dot_import(sh, w, n);
    } else if (strcmp(cmd, "dump") == 0) {
        dot_dump(sh, w, n);
    } else if (strcmp(cmd, "read") == 0) {
        dot_read(sh, w, n);
    } else if (strcmp(cmd, "output") == 0 || strcmp(cmd, "once") == 0) {
        dot_output(sh, cmd, w, n);
    } else if (strcmp(cmd, "boards") == 0 || strcmp(cmd, "schema") == 0 ||
               strcmp(cmd, "tables") == 0 || strcmp(cmd, "sql") == 0) {
        fail_usage(sh, strcmp(cmd, "schema") == 0
                           ? ".schema takes at most one board"
                       : strcmp(cmd, "sql") == 0
                           ? ".sql takes on or off"
                           : "this command takes no arguments");
    } else {
        char msg[160];
        snprintf(msg, sizeof msg, "unknown command '.%.100s'; .help lists "
                 "them", cmd);
        fail_usage(sh, msg);
    }
}

/* ---- the pager ---- */

/* The terminal's rows and columns (stdout's; else $LINES, $COLUMNS; else
 * 24 by 80). */
static void terminal_size(int fd, size_t *rows, size_t *cols)
{
    struct winsize ws;
    memset(&ws, 0, sizeof ws);
    ioctl(fd, TIOCGWINSZ, &ws);
    int64_t v = 0;
    const char *lines = getenv("LINES"), *columns = getenv("COLUMNS");
    *rows = ws.ws_row > 0 ? ws.ws_row
            : lines != NULL && cli_parse_int(lines, 1, 100000, &v)
                ? (size_t)v
                : 24;
    v = 0;
    *cols = ws.ws_col > 0 ? ws.ws_col
            : columns != NULL && cli_parse_int(columns, 1, 100000, &v)
                ? (size_t)v
                : 80;
}

/* Whether the text of `f` (from its start) takes more than `rows`
 * terminal lines `cols` wide; a byte past ASCII is counted as a column,
 * so that a line of wide text errs towards the pager. */
static bool taller_than(FILE *f, size_t rows, size_t cols)
{
    rewind(f);
    size_t lines = 0, col = 0;
    for (int c; (c = getc(f)) != EOF && lines <= rows;) {
        if (c == '\n') {
            lines++;
            col = 0;
        } else if ((c & 0xC0) != 0x80 && ++col > cols) {
            lines++;
            col = 1;
        }
    }
    rewind(f);
    return lines > rows;
}

/* Copies `f` to descriptor `fd`. */
static void copy_out(FILE *f, int fd)
{
    char buf[8192];
    size_t n;
    rewind(f);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        for (size_t done = 0; done < n;) {
            ssize_t w = write(fd, buf + done, n - done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                return;
            done += (size_t)w;
        }
    }
}

/*
 * Shows what a line printed into `f` on the terminal `fd`: through the
 * pager ($PAGER, run by /bin/sh; unset or empty: SHELL_PAGER) when it is
 * taller than the terminal, leaving a line for the prompt; else as it is.
 * A pager that cannot run (status 126 or 127, from sh) shows nothing:
 * the text is then printed as it is.
 */
static void page_or_print(FILE *f, int fd)
{
    size_t rows = 0, cols = 0;
    terminal_size(fd, &rows, &cols);
    if (!taller_than(f, rows > 1 ? rows - 1 : 1, cols)) {
        copy_out(f, fd);
        return;
    }
    const char *pager = getenv("PAGER");
    if (pager == NULL || pager[0] == '\0')
        pager = SHELL_PAGER;
    int in = fileno(f);
    sigset_t none;
    sigemptyset(&none);
    pid_t pid = fork();
    if (pid == 0) {                  /* (async-signal-safe calls only) */
        pthread_sigmask(SIG_SETMASK, &none, NULL);
        signal(SIGINT, SIG_DFL);
        /* (rewind may only move within f's buffer: the descriptor's
         * own offset is what the pager reads from) */
        lseek(in, 0, SEEK_SET);
        dup2(in, STDIN_FILENO);
        dup2(fd, STDOUT_FILENO);
        execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (pid < 0 || (WIFEXITED(status) && (WEXITSTATUS(status) == 126 ||
                                          WEXITSTATUS(status) == 127)))
        copy_out(f, fd);
}

/* Runs a line's query, statement or dot-command. */
static void dispatch(shell *sh, char *p)
{
    if (p[0] == '.' && sh->script == NULL)
        run_dot(sh, p);
    else if (sh->sql_mode)
        sql_line(sh, p);
    else
        run_sql(sh, p);
}

/*
 * Runs one line (without its line end). What it prints goes to a
 * temporary file first when stdout is the terminal and the pager is on,
 * then to the terminal or the pager (page_or_print); a line that only
 * changes the shell's state (.use, .output...) prints straight.
 */
static void run_line(shell *sh, char *line)
{
    char *p = line + strspn(line, " \t");
    size_t n = strlen(p);
    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t' ||
                     p[n - 1] == '\r'))
        p[--n] = '\0';
    if (n == 0)
        return;
    bool dot = p[0] == '.' && sh->script == NULL;
    char name[16] = "";
    if (dot)
        snprintf(name, sizeof name, "%.*s", (int)strcspn(p + 1, " \t"),
                 p + 1);
    FILE *capture = NULL;
    int tty = -1;
    if (sh->pager && sh->saved_stdout < 0 && (!dot || prints_result(name)) &&
        isatty(STDOUT_FILENO)) {
        fflush(stdout);
        capture = tmpfile();
        tty = capture != NULL ? fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
                              : -1;
        if (tty < 0 || dup2(fileno(capture), STDOUT_FILENO) < 0) {
            if (tty >= 0)
                close(tty);
            tty = -1;
            if (capture != NULL)
                fclose(capture);
            capture = NULL;      /* no room for it: print straight */
        }
    }
    /* SIGINT, blocked but while a key is awaited (take_sigint), is let
     * in while the line runs, and stops its statement (or its load). The
     * lines of a .read run inside their .read's. */
    sigset_t saved;
    bool top = sh->interactive && sh->depth == 0;
    bool script = !sh->interactive && sh->depth == 0;
    if (top) {
        cli_interrupt_arm(sh->ctx->engine, false);
        running = 1;
        pthread_sigmask(SIG_SETMASK, &waiting_mask, &saved);
    } else if (script) {
        cli_interrupt_arm(sh->ctx->engine, false);
        running = 1;
        /* (a SIGINT since the line was read found nothing running: the
         * line is stopped as it begins, not left to run without end) */
        if (script_stopped)
            cli_interrupt_request();
    }
    dispatch(sh, p);
    if (top) {
        pthread_sigmask(SIG_SETMASK, &saved, NULL);
        running = 0;
        cli_interrupt_disarm();
    } else if (script) {
        running = 0;
        cli_interrupt_disarm();
        if (cli_load_stopped())        /* (.import took the signal) */
            script_stopped = 1;
    }
    errno = 0;
    if (fflush(stdout) != 0 && !sh->quit) {  /* stdout is gone, so is */
        sh->ctx->stdout_errno = errno;        /* the shell; main reports */
        sh->failures++;
        sh->quit = true;
    }
    if (capture != NULL) {
        dup2(tty, STDOUT_FILENO);
        close(tty);
        page_or_print(capture, STDOUT_FILENO);
        fclose(capture);
    }
    if (sh->once == 1 && sh->script == NULL && (!dot || prints_result(name)))
        output_restore(sh);               /* .once's command has run */
    else if (sh->once == 2)
        sh->once = 1;
}

/* ---- completion ---- */

/* The lake's names for a Tab, and what holds them. */
typedef struct tab_names {
    cli_names names;
    char **boards;
    char **tables;
    cli_owned_column *columns;
    size_t ncolumns, cap;
    pier_board_info *binfo[SHELL_COMPLETE_OWNERS];
    pier_table_info *tinfo[SHELL_COMPLETE_OWNERS];
    size_t nbinfo, ntinfo;
} tab_names;

static void add_column(tab_names *t, const char *owner, const char *name)
{
    if (t->ncolumns == t->cap) {
        size_t cap = t->cap > 0 ? t->cap * 2 : 64;
        cli_owned_column *grown = realloc(t->columns, cap * sizeof *grown);
        if (grown == NULL)
            return;               /* fewer candidates, no harm */
        t->columns = grown;
        t->cap = cap;
    }
    t->columns[t->ncolumns].owner = owner;
    t->columns[t->ncolumns++].name = name;
}

static size_t count_strings(char **list)
{
    size_t n = 0;
    while (list != NULL && list[n] != NULL)
        n++;
    return n;
}

/* Reads the names; what cannot be read is left out (a Tab shows no
 * errors). */
static void tab_names_load(tab_names *t, shell *sh)
{
    memset(t, 0, sizeof *t);
    pier_error err;
    cli_error_init(&err);
    if (pier_board_list(&t->boards, sh->ctx->engine, &err) != PIER_OK)
        t->boards = NULL;
    cli_error_init(&err);
    if (pier_table_list(&t->tables, sh->ctx->engine, &err) != PIER_OK)
        t->tables = NULL;
    size_t nb = count_strings(t->boards), nt = count_strings(t->tables);
    for (size_t i = 0; i < nb && t->nbinfo + t->ntinfo <
                                     SHELL_COMPLETE_OWNERS; i++) {
        pier_board_info *b = NULL;
        cli_error_init(&err);
        if (pier_board_describe(&b, sh->ctx->engine, t->boards[i], &err) !=
            PIER_OK)
            continue;
        t->binfo[t->nbinfo++] = b;
        for (size_t c = 0; c < b->ncolumns; c++)
            add_column(t, t->boards[i], b->columns[c].name);
    }
    for (size_t i = 0; i < nt && t->nbinfo + t->ntinfo <
                                     SHELL_COMPLETE_OWNERS; i++) {
        pier_table_info *ti = NULL;
        cli_error_init(&err);
        if (pier_table_describe(&ti, sh->ctx->engine, t->tables[i], &err) !=
            PIER_OK)
            continue;
        t->tinfo[t->ntinfo++] = ti;
        for (size_t c = 0; c < ti->ncolumns; c++)
            add_column(t, t->tables[i], ti->columns[c].name);
    }
    cli_names nm = { (const char *const *)t->boards, nb,
                     (const char *const *)t->tables, nt, t->columns,
                     t->ncolumns, sh->board, sh->sql_mode };
    t->names = nm;
}

static void tab_names_free(tab_names *t)
{
    for (size_t i = 0; i < t->nbinfo; i++)
        pier_board_info_free(t->binfo[i]);
    for (size_t i = 0; i < t->ntinfo; i++)
        pier_table_info_free(t->tinfo[i]);
    free(t->columns);
    pier_strings_free(t->boards);
    pier_strings_free(t->tables);
}

/* The files whose names start with `prefix` (bytes), as candidates: a
 * directory ends with '/' (not closed, so that Tab goes on into it). */
static void complete_files(cli_completion *c, const char *prefix,
                           size_t len)
{
    char *pattern = malloc(len + 2);
    if (pattern == NULL)
        return;
    memcpy(pattern, prefix, len);
    memcpy(pattern + len, "*", 2);
    glob_t g;
    memset(&g, 0, sizeof g);
    if (glob(pattern, GLOB_MARK, NULL, &g) == 0 && g.gl_pathc > 0) {
        c->items = calloc(g.gl_pathc, sizeof *c->items);
        for (size_t i = 0; c->items != NULL && i < g.gl_pathc; i++) {
            c->items[c->n] = strdup(g.gl_pathv[i]);
            if (c->items[c->n] != NULL)
                c->n++;
        }
    }
    c->closed = c->n == 1 && c->items[0][strlen(c->items[0]) - 1] != '/';
    globfree(&g);
    free(pattern);
}

/* Characters (as the locale reads them) in the first `len` bytes of s. */
static int chars_in(const char *s, size_t len)
{
    mbstate_t st;
    memset(&st, 0, sizeof st);
    int n = 0;
    for (size_t i = 0; i < len; n++) {
        size_t k = mbrlen(s + i, len - i, &st);
        if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
            memset(&st, 0, sizeof st);
            k = 1;
        }
        i += k;
    }
    return n;
}

/* Lists the candidates under the line, in columns. */
static void list_candidates(FILE *out, const cli_completion *c)
{
    size_t rows = 0, cols = 0, widest = 0;
    terminal_size(fileno(out), &rows, &cols);
    for (size_t i = 0; i < c->n; i++)
        if (strlen(c->items[i]) > widest)
            widest = strlen(c->items[i]);
    size_t per_line = cols / (widest + 2) > 0 ? cols / (widest + 2) : 1;
    fputc('\n', out);
    for (size_t i = 0; i < c->n; i++) {
        bool end = (i + 1) % per_line == 0 || i + 1 == c->n;
        if (end)
            fprintf(out, "%s\n", c->items[i]);
        else
            fprintf(out, "%-*s", (int)(widest + 2), c->items[i]);
    }
    fflush(out);
}

/*
 * Tab: replaces the word before the cursor with its only candidate (and a
 * blank after a whole word), or with the longest start the candidates
 * share; when that adds nothing, lists them.
 */
static unsigned char complete_key(EditLine *el, int ch)
{
    (void)ch;
    shell *sh = NULL;
    el_get(el, EL_CLIENTDATA, &sh);
    const LineInfo *li = el_line(el);
    size_t cursor = (size_t)(li->cursor - li->buffer);
    char *line = strndup(li->buffer, (size_t)(li->lastchar - li->buffer));
    if (line == NULL)
        return CC_ERROR;
    tab_names t;
    tab_names_load(&t, sh);
    cli_completion c;
    bool ok = cli_complete(&c, line, cursor, &t.names);
    tab_names_free(&t);
    if (ok && c.kind == CLI_COMPLETE_FILES)
        complete_files(&c, line + c.start, cursor - c.start);
    unsigned char rc = CC_REFRESH_BEEP;
    if (ok && c.n > 0) {
        size_t word = cursor - c.start, common = strlen(c.items[0]);
        for (size_t i = 1; i < c.n; i++) {
            size_t k = 0;
            while (k < common && c.items[i][k] == c.items[0][k])
                k++;
            common = k;
        }
        if (c.n == 1 || common > word) {
            char *text = strndup(c.items[0], common);
            if (text != NULL) {
                el_deletestr(el, chars_in(line + c.start, word));
                el_insertstr(el, text);
                if (c.n == 1 && c.closed)
                    el_insertstr(el, " ");
                rc = CC_REFRESH;
            }
            free(text);
        } else {
            list_candidates(sh->term, &c);
            rc = CC_REDISPLAY;
        }
    }
    cli_completion_free(&c);
    free(line);
    return rc;
}

/* ---- reading lines ---- */

static char *prompt_of(EditLine *el)
{
    shell *sh = NULL;
    el_get(el, EL_CLIENTDATA, &sh);
    return sh->prompt;
}

static void set_prompt(shell *sh)
{
    if (sh->script != NULL)
        snprintf(sh->prompt, sizeof sh->prompt, "   ...> ");
    else if (sh->sql_mode)
        snprintf(sh->prompt, sizeof sh->prompt, "pier:sql> ");
    else if (sh->board != NULL)
        snprintf(sh->prompt, sizeof sh->prompt, "pier:%.200s> ", sh->board);
    else
        snprintf(sh->prompt, sizeof sh->prompt, "pier> ");
}

/* The history file: $PIER_HISTORY (empty: none), else ~/.pier_history. */
static char *history_file(void)
{
    const char *env = getenv("PIER_HISTORY");
    if (env != NULL)
        return env[0] != '\0' ? strdup(env) : NULL;
    const char *home = getenv("HOME");
    if (home == NULL || home[0] == '\0')
        return NULL;
    size_t n = strlen(home) + sizeof "/.pier_history";
    char *path = malloc(n);
    if (path != NULL)
        snprintf(path, n, "%s/.pier_history", home);
    return path;
}

/* The keys read_char hands the editor for a Ctrl-C: to the start of the
 * line, kill to its end (Ctrl-Y brings the text back), end the line. The
 * abandoned line is then empty: it runs nothing and the prompt starts
 * afresh. */
static const wchar_t abandon_keys[] = L"\x01\x0b\x0a";


/*
 * Reads one character for the editor. libedit's own reader retries a read
 * that a signal interrupted, which would make Ctrl-C wait for the next
 * key; here a Ctrl-C reads at once as abandon_keys. SIGINT is delivered
 * only while pselect() waits, so it cannot slip in between the check of
 * `interrupted` and the wait. Multibyte characters are decoded as the
 * locale says.
 * @return 1 with a character, 0 at the end of input, -1 on error.
 */
static int read_char(EditLine *el, wchar_t *out)
{
    (void)el;
    static size_t abandoning;          /* abandon_keys handed out */
    if (abandoning > 0 && abandoning < wcslen(abandon_keys)) {
        *out = abandon_keys[abandoning++];
        return 1;
    }
    abandoning = 0;
    mbstate_t st;
    memset(&st, 0, sizeof st);
    for (;;) {
        if (interrupted) {             /* Ctrl-C */
            interrupted = 0;
            *out = abandon_keys[abandoning++];
            return 1;
        }
        fd_set in;
        FD_ZERO(&in);
        FD_SET(STDIN_FILENO, &in);
        if (pselect(STDIN_FILENO + 1, &in, NULL, NULL, NULL,
                    &waiting_mask) < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        char c;
        ssize_t n = read(STDIN_FILENO, &c, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return (int)n;
        size_t r = mbrtowc(out, &c, 1, &st);
        if (r == (size_t)-2)           /* more bytes to come */
            continue;
        if (r == (size_t)-1) {         /* not the locale's: the byte */
            *out = (wchar_t)(unsigned char)c;
            memset(&st, 0, sizeof st);
        }
        return 1;
    }
}

static bool editor_open(shell *sh)
{
    HistEvent ev;
    sh->hist = history_init();
    /* The editor keeps the terminal when .output moves descriptor 1. */
    int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    sh->term = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (sh->term == NULL && fd >= 0)
        close(fd);
    if (sh->hist == NULL || sh->term == NULL)
        return false;
    sh->el = el_init("pier", stdin, sh->term, stderr);
    if (sh->el == NULL)
        return false;
    history(sh->hist, &ev, H_SETSIZE, SHELL_HISTORY_LINES);
    history(sh->hist, &ev, H_SETUNIQUE, 1);
    sh->history_path = history_file();
    if (sh->history_path != NULL)
        history(sh->hist, &ev, H_LOAD, sh->history_path);
    el_set(sh->el, EL_CLIENTDATA, sh);
    el_set(sh->el, EL_PROMPT, prompt_of);
    el_set(sh->el, EL_EDITOR, "emacs");
    el_set(sh->el, EL_HIST, history, sh->hist);
    el_set(sh->el, EL_GETCFN, read_char);
    /* (the wide call: the narrow one copies the names and never frees
     * them) */
    el_wset(sh->el, EL_ADDFN, L"pier-complete",
            L"Complete the word before the cursor", complete_key);
    el_set(sh->el, EL_BIND, "^I", "pier-complete", NULL);
    el_source(sh->el, NULL);          /* (~/.editrc may bind Tab again) */
    return true;
}

/*
 * Ctrl-C abandons the line being read (read_char) instead of ending the
 * shell. SIGINT is blocked but while read_char waits for a key, and
 * blocked before the engine starts its threads, which inherit the mask:
 * no other thread ever takes it.
 */
static void take_sigint(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    pthread_sigmask(SIG_BLOCK, &block, &waiting_mask);
    sigdelset(&waiting_mask, SIGINT);
}

static void editor_close(shell *sh)
{
    if (sh->el != NULL)
        el_end(sh->el);
    if (sh->hist != NULL)
        history_end(sh->hist);
    if (sh->term != NULL)
        fclose(sh->term);
    free(sh->history_path);
}

/* The next line from the editor, copied (for free()), its line end cut;
 * NULL at the end of input. */
static char *editor_line(shell *sh)
{
    for (;;) {
        set_prompt(sh);
        int count = 0;
        const char *line = el_gets(sh->el, &count);
        if (line == NULL || count <= 0)
            return NULL;
        char *copy = strdup(line);
        if (copy == NULL)
            return NULL;
        copy[strcspn(copy, "\n")] = '\0';
        if (copy[strspn(copy, " \t")] != '\0') {
            HistEvent ev;
            history(sh->hist, &ev, H_ENTER, copy);
            if (sh->history_path != NULL)
                history(sh->hist, &ev, H_SAVE, sh->history_path);
        }
        return copy;
    }
}

static char *plain_line(void)
{
    char *line = NULL;
    size_t cap = 0;
    if (getline(&line, &cap, stdin) < 0) {
        free(line);
        return NULL;
    }
    line[strcspn(line, "\n")] = '\0';
    return line;
}

/* ---- the command ---- */

static const cli_optspec shell_opts[] = { CLI_LIMIT_OPTSPECS,
                                          { NULL, false } };

static int shell_opt(cli_ctx *ctx, const cli_command *cmd, const char *name,
                     const char *value, void *payload)
{
    (void)payload;
    return cli_limit_option(ctx, cmd, name, value);
}

static int run_shell(cli_ctx *ctx, const cli_command *cmd, int argc,
                     char **argv)
{
    static const char *const names[] = { "BOARD" };
    char *pos[1] = { NULL };
    int rc = cli_args(ctx, cmd, argc, argv, shell_opts, shell_opt, NULL,
                      names, 0, 1, pos);
    if (rc != CLI_CONTINUE)
        return rc;
    bool interactive = isatty(STDIN_FILENO);
    if (interactive)
        take_sigint();
    else
        take_sigint_script();
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    shell sh = { .ctx = ctx, .saved_stdout = -1, .pager = true };
    sh.print.format = ctx->json ? CLI_FORMAT_JSON : CLI_FORMAT_TABLE;
    sh.params = pier_params_new();
    sh.interactive = interactive;
    if (sh.params == NULL || (sh.interactive && !editor_open(&sh))) {
        editor_close(&sh);
        pier_params_free(sh.params);
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                            "the line editor could not start");
    }
    if (pos[0] != NULL) {
        dot_use(&sh, pos, 1);
        if (sh.failures > 0 && !sh.interactive)
            sh.quit = true;
    }
    if (sh.interactive)
        printf("pier shell: a line is a query against the current board; "
               ".help lists the commands.\n");
    while (!sh.quit && !script_stopped) {
        char *line = sh.interactive ? editor_line(&sh) : plain_line();
        if (line == NULL || script_stopped) {
            free(line);
            break;
        }
        run_line(&sh, line);
        free(line);
    }
    if (script_stopped) {
        fail_line(&sh, pier_status_tag(PIER_E_INTERRUPTED),
                  "the script was stopped by SIGINT: no later line ran");
        sh.quit = true;
    }
    output_restore(&sh);
    if (sh.interactive && !sh.quit)
        fputc('\n', stdout);         /* Ctrl-D left the prompt's line */
    if (sh.script != NULL && !sh.quit)
        fail_usage(&sh, "the input ended inside a SQL script (no ';', or a "
                   "BEGIN without COMMIT); it was not run");
    free(sh.script);
    editor_close(&sh);
    clear_with(&sh);
    for (size_t i = 0; i < sh.nassignments; i++)
        free(sh.assignments[i]);
    free(sh.assignments);
    pier_params_free(sh.params);
    free(sh.board);
    return !sh.interactive && sh.failures > 0 ? CLI_EXIT_FAILED
                                              : CLI_EXIT_OK;
}

const cli_command cli_cmd_shell = {
    "shell", "Query boards interactively",
    "[BOARD] [--time-limit DURATION] [--max-value SIZE] [--max-memory SIZE]",
    "Starts an interactive shell on the lake, querying BOARD (or none\n"
    "until .use names one). A line is a read-only query against the\n"
    "current board, as with 'pier query' ({{board}} stands for its rows);\n"
    "a line starting with '.' is a command:\n"
    "\n"
    "  .sql [on|off]        Lines are SQL statements on the declared\n"
    "                       tables ('pier sql'), run at a line ending\n"
    "                       with ';' (a BEGIN waits for its COMMIT)\n"
    "  .tables              List the declared tables\n"
    "  .boards              List the boards\n"
    "  .schema [BOARD]      Show a board's columns (default: the current)\n"
    "  .use BOARD           Query BOARD from now on\n"
    "  .with [BOARD...]     Let queries join these boards as\n"
    "                       {{board:NAME}}\n"
    "  .with-table [TABLE...]\n"
    "                       Let them read these declared tables or views\n"
    "                       as {{table:NAME}}\n"
    "  .param NAME=VALUE    Bind a parameter, read as in 'query --param';\n"
    "                       .param lists them, .param clear forgets them\n"
    "  .format [FORMAT]     table (the default), box, json, jsonl or csv\n"
    "                       (.mode is the same)\n"
    "  .headers on|off      Print the column names (table, box, csv)\n"
    "  .import [OPTIONS] FILE BOARD\n"
    "                       Insert FILE's rows (JSON lines or a JSON\n"
    "                       array; --csv, --tsv with a header row) into\n"
    "                       BOARD, as 'pier insert BOARD -' with its\n"
    "                       options (--id COL, --id-generate KIND)\n"
    "  .dump [NAME]         A board's or a declared table's rows as JSON\n"
    "                       lines; alone, the schema ('pier schema dump')\n"
    "  .read FILE           Run FILE's lines as shell input\n"
    "  .output [FILE]       Write output to FILE; alone, to stdout again\n"
    "  .once FILE           The next result only to FILE\n"
    "  .pager on|off        Page long results on a terminal (default on)\n"
    "  .timer on|off        Show how long each query took\n"
    "  .help, .quit         This list; leave (also Ctrl-D)\n"
    "\n"
    "On a terminal, lines are edited with emacs keys (libedit; ~/.editrc\n"
    "is read) and kept in a history of 1000 lines, saved after each line\n"
    "to $PIER_HISTORY, else ~/.pier_history (PIER_HISTORY empty: none).\n"
    "Tab completes commands, boards, tables, columns, files and SQL\n"
    "words. Ctrl-C abandons the line being typed, or stops the statement\n"
    "that runs (Interrupted). When stdout is a terminal, a result taller\n"
    "than it is shown through $PAGER (default: less -FRX). When stdin is\n"
    "not a terminal, lines are read without prompts, the exit status is\n"
    "1 if any line failed, and Ctrl-C stops the statement that runs and\n"
    "the script (Interrupted; no later line runs).\n"
    "\n"
    "Options:\n"
    "  --time-limit DURATION, --max-value SIZE, --max-memory SIZE\n"
    "                      The limits of each query and script, as for\n"
    "                      'pier query' (defaults 30s, 64M, 256M)\n",
    run_shell,
};
