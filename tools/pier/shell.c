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
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/select.h>
#include <time.h>
#include <wchar.h>
#include <unistd.h>

#include <histedit.h>

#include "cli.h"

/* Lines of history kept. */
#define SHELL_HISTORY_LINES 1000
/* Boards .with may name (the library takes no more). */
#define SHELL_MAX_WITH 8

typedef struct shell {
    cli_ctx *ctx;
    char *board;              /* the current board, or NULL */
    cli_format format;
    bool timer;
    char *with[SHELL_MAX_WITH];
    size_t nwith;
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
    pier_error err;
    cli_error_init(&err);
    double t0 = now_ms();
    pier_cursor *c = NULL;
    pier_status rc = pier_query(&c, sh->ctx->engine, sh->board, sql,
                                sh->params, &o, &err);
    if (rc == PIER_OK)
        rc = cli_print_cursor(c, sh->format, stdout, NULL, &err);
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
    if (cli_run_sql(sh->ctx, sh->script, sh->params, sh->format) !=
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
    "  .param NAME=VALUE    Bind VALUE to :NAME, $NAME, @NAME (NAME a\n"
    "                       number: ?NAME), read as in --param\n"
    "  .param               List the parameters set;  .param clear: forget\n"
    "  .format [FORMAT]     Print results as table, json, jsonl or csv\n"
    "                       (.mode is the same)\n"
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

static void clear_with(shell *sh)
{
    for (size_t i = 0; i < sh->nwith; i++)
        free(sh->with[i]);
    sh->nwith = 0;
}

static void dot_with(shell *sh, char **w, size_t n)
{
    if (n > SHELL_MAX_WITH) {
        fail_usage(sh, ".with names at most 8 boards");
        return;
    }
    clear_with(sh);
    for (size_t i = 0; i < n; i++) {
        sh->with[i] = strdup(w[i]);
        if (sh->with[i] == NULL) {
            fail_line(sh, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                      "out of memory");
            return;
        }
        sh->nwith = i + 1;
    }
    if (n == 0)
        puts("queries join no other board");
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
        printf("%s\n", cli_format_name(sh->format));
    } else if (n == 1 && cli_parse_format(w[0], &f)) {
        sh->format = f;
    } else {
        fail_usage(sh, ".format takes one of table, json, jsonl, csv");
    }
}

static void dot_timer(shell *sh, char **w, size_t n)
{
    if (n == 1 && strcmp(w[0], "on") == 0)
        sh->timer = true;
    else if (n == 1 && strcmp(w[0], "off") == 0)
        sh->timer = false;
    else
        fail_usage(sh, ".timer takes on or off");
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
    } else if (strcmp(cmd, "with") == 0) {
        dot_with(sh, w, n);
    } else if (strcmp(cmd, "format") == 0 || strcmp(cmd, "mode") == 0) {
        dot_format(sh, w, n);
    } else if (strcmp(cmd, "timer") == 0) {
        dot_timer(sh, w, n);
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

/* Runs one line (without its line end). */
static void run_line(shell *sh, char *line)
{
    char *p = line + strspn(line, " \t");
    size_t n = strlen(p);
    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t' ||
                     p[n - 1] == '\r'))
        p[--n] = '\0';
    if (n == 0)
        return;
    if (p[0] == '.' && sh->script == NULL) {
        run_dot(sh, p);
    } else {
        /* SIGINT, blocked but while a key is awaited (take_sigint), is let
         * in while the statement runs, and stops it. */
        sigset_t saved;
        if (sh->interactive) {
            cli_interrupt_arm(sh->ctx->engine, false);
            running = 1;
            pthread_sigmask(SIG_SETMASK, &waiting_mask, &saved);
        }
        if (sh->sql_mode)
            sql_line(sh, p);
        else
            run_sql(sh, p);
        if (sh->interactive) {
            pthread_sigmask(SIG_SETMASK, &saved, NULL);
            running = 0;
            cli_interrupt_disarm();
        }
    }
    errno = 0;
    if (fflush(stdout) != 0 && !sh->quit) {  /* stdout is gone, so is */
        sh->ctx->stdout_errno = errno;        /* the shell; main reports */
        sh->failures++;
        sh->quit = true;
    }
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
    sh->el = el_init("pier", stdin, stdout, stderr);
    if (sh->hist == NULL || sh->el == NULL)
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
    el_source(sh->el, NULL);
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
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    shell sh = { .ctx = ctx, .format = ctx->json ? CLI_FORMAT_JSON
                                                 : CLI_FORMAT_TABLE };
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
    while (!sh.quit) {
        char *line = sh.interactive ? editor_line(&sh) : plain_line();
        if (line == NULL)
            break;
        run_line(&sh, line);
        free(line);
    }
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
    "  .param NAME=VALUE    Bind a parameter, read as in 'query --param';\n"
    "                       .param lists them, .param clear forgets them\n"
    "  .format [FORMAT]     table (the default), json, jsonl or csv\n"
    "  .timer on|off        Show how long each query took\n"
    "  .help, .quit         This list; leave (also Ctrl-D)\n"
    "\n"
    "On a terminal, lines are edited with emacs keys (libedit; ~/.editrc\n"
    "is read) and kept in a history of 1000 lines, saved after each line\n"
    "to $PIER_HISTORY, else ~/.pier_history (PIER_HISTORY empty: none).\n"
    "Ctrl-C abandons the line being typed, or stops the statement that\n"
    "runs (Interrupted). When stdin is not a terminal,\n"
    "lines are read without prompts, and the exit status is 1 if any line\n"
    "failed.\n"
    "\n"
    "Options:\n"
    "  --time-limit DURATION, --max-value SIZE, --max-memory SIZE\n"
    "                      The limits of each query and script, as for\n"
    "                      'pier query' (defaults 30s, 64M, 256M)\n",
    run_shell,
};
