/*
 * main.c: the pier command's entry point: global options, the command
 * table and dispatch, help, argument parsing shared by the commands, and
 * opening the engine (data directory, PIER_NOW).
 *
 * Invariants: global options come before or after the command; nothing
 * touches the data directory until the command's arguments are known to
 * be valid; a command that only reads makes no lake; the engine is closed
 * on every path out of main; exit codes are those of cli.h (0, 1, 2).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define DEFAULT_DATA_DIR "./pier-data"

static int run_help(cli_ctx *ctx, const cli_command *cmd, int argc,
                    char **argv);

static const cli_command cmd_help = {
    "help", "Show this help, or a command's",
    "[COMMAND] [--man] [--completion bash|zsh]",
    "Prints the list of commands, or with COMMAND that command's help.\n"
    "\n"
    "Options:\n"
    "  --man               Print the manual page pier(1), in roff, made\n"
    "                      from these help texts (man -l - reads it)\n"
    "  --completion SHELL  Print the completion script for bash or zsh,\n"
    "                      made from the command table: commands, options,\n"
    "                      subcommands, and the boards of the lake named\n"
    "                      on the line (`make install` installs both)\n",
    run_help,
};

static const cli_command *const commands[] = {
    &cli_cmd_create_board, &cli_cmd_insert, &cli_cmd_update,
    &cli_cmd_upsert, &cli_cmd_delete, &cli_cmd_tx, &cli_cmd_boards,
    &cli_cmd_has_board, &cli_cmd_schema, &cli_cmd_get, &cli_cmd_count,
    &cli_cmd_dump, &cli_cmd_query, &cli_cmd_fts, &cli_cmd_shell,
    &cli_cmd_sql,
    &cli_cmd_tables, &cli_cmd_plan, &cli_cmd_migrate, &cli_cmd_migrations,
    &cli_cmd_introspect, &cli_cmd_changeset, &cli_cmd_changes,
    &cli_cmd_watch, &cli_cmd_add_column,
    &cli_cmd_widen, &cli_cmd_truncate, &cli_cmd_compact, &cli_cmd_drop,
    &cli_cmd_head, &cli_cmd_stats, &cli_cmd_maintain, &cli_cmd_flush,
    &cli_cmd_sync, &cli_cmd_evict, &cli_cmd_backup, &cli_cmd_restore,
    &cli_cmd_export, &cli_cmd_import,
    &cmd_help,
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* The parts of `pier --help` around the command list; manual.c makes the
 * man page's sections of the same texts. */
const char cli_help_intro[] =
    "Pier keeps many user-defined tables (\"boards\") in one data directory.\n"
    "A board is created by its first write; its column types are inferred\n"
    "once and then enforced, or declared up front with create-board.\n";

const char cli_help_options[] =
    "  --data DIR          The data directory, created if missing by a\n"
    "                      command that may write; a read makes no lake\n"
    "                      (default: $PIER_DATA, else ./pier-data)\n"
    "  --lake URL          A PostgreSQL lake instead (docs/clustered.md): a\n"
    "                      libpq connection string, postgres://... or\n"
    "                      'host=... dbname=...' (default: $PIER_LAKE)\n"
    "  --cache-dir DIR     Where this node keeps its replicas of a\n"
    "                      PostgreSQL lake's boards (one node per directory;\n"
    "                      default: ~/.cache/pier/<lake>)\n"
    "  --head-refresh DURATION\n"
    "                      How stale a read of another node's write may be\n"
    "                      on a PostgreSQL lake (default 1s)\n"
    "  --json              Print results and errors as JSON\n"
    "  --readonly          Open the lake for reading only: reads work, a\n"
    "                      write fails (WriteFailed) and nothing is written;\n"
    "                      the lake must exist (docs/backup.md)\n"
    "  --auto-create=on-write|never\n"
    "                      Whether a write to an unknown board creates it\n"
    "                      (default: on-write); reads never create one\n"
    "  --columns=infer|declared\n"
    "                      Whether writes may add columns (infer, the\n"
    "                      default), or every board behaves as strict\n"
    "  --durability=full|normal\n"
    "                      full (default): a write survives power loss;\n"
    "                      normal: it survives a crash of the process\n"
    "  --time-limit DURATION\n"
    "                      The longest a query or SQL script may run\n"
    "                      (500ms, 30s, 5m; default 30s; none: no limit)\n"
    "  --max-value SIZE    The longest text or blob a statement may make\n"
    "                      or read (4096, 64K, 16M; default 64M)\n"
    "  --max-memory SIZE   The memory a statement may take (default 256M)\n"
    "  --help              Show this help\n"
    "  --version           Print the version, and SQLite's and libpq's\n";

const char cli_help_environment[] =
    "  PIER_DATA  The data directory when --data is not given\n"
    "  PIER_LAKE  A PostgreSQL lake's connection string when neither --lake\n"
    "             nor --data is given\n"
    "  PIER_HISTORY\n"
    "             pier shell's history file (default: ~/.pier_history;\n"
    "             empty: none)\n"
    "  PIER_NOW   Fixes the engine's clock (the updated_at of writes) to an\n"
    "             RFC 3339 instant, e.g. 2026-01-01T00:00:00Z, for\n"
    "             reproducible output; a malformed value is a usage error\n";

const char cli_help_exit[] =
    "Exit status: 0 success, 1 the operation failed (the error's tag says\n"
    "why), 2 usage error.\n";

const cli_command *const *cli_commands(size_t *n)
{
    *n = NCOMMANDS;
    return commands;
}

static void print_main_help(void)
{
    printf("Usage: pier [OPTIONS] COMMAND [ARGS]\n\n%s\nCommands:\n",
           cli_help_intro);
    for (size_t i = 0; i < NCOMMANDS; i++)
        printf("  %-12s  %s\n", commands[i]->name, commands[i]->summary);
    printf("\nOptions (before the command or after it):\n%s\n"
           "Environment:\n%s\n%s"
           "Run 'pier COMMAND --help' for a command's arguments and output.\n",
           cli_help_options, cli_help_environment, cli_help_exit);
}

static void print_command_help(const cli_command *cmd)
{
    printf("Usage: pier [OPTIONS] %s%s%s\n\n%s", cmd->name,
           cmd->usage[0] != '\0' ? " " : "", cmd->usage, cmd->help);
    fputs("\nOPTIONS are the global options of 'pier --help'.\n", stdout);
}

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i]->name, name) == 0)
            return commands[i];
    return NULL;
}

/* What `pier help` prints besides the help: --man, --completion. */
typedef struct help_args {
    bool man;
    const char *completion;
} help_args;

static const cli_optspec help_opts[] = {
    { "--man", false }, { "--completion", true }, { NULL, false },
};

static int help_opt(cli_ctx *ctx, const cli_command *cmd, const char *name,
                    const char *value, void *payload)
{
    (void)ctx;
    help_args *a = payload;
    if (strcmp(name, "--man") == 0) {
        a->man = true;
    } else if (strcmp(value, "bash") == 0 || strcmp(value, "zsh") == 0) {
        a->completion = value;
    } else {
        return cli_usage(cmd, "%s: option '--completion' takes bash or "
                         "zsh, not '%s'", cmd->name, value);
    }
    return 0;
}

static int run_help(cli_ctx *ctx, const cli_command *cmd, int argc,
                    char **argv)
{
    static const char *const names[] = { "COMMAND" };
    char *pos[1] = { NULL };
    help_args a = { false, NULL };
    int rc = cli_args(ctx, cmd, argc, argv, help_opts, help_opt, &a, names,
                      0, 1, pos);
    if (rc != CLI_CONTINUE)
        return rc;
    if ((a.man || a.completion != NULL) &&
        (pos[0] != NULL || (a.man && a.completion != NULL)))
        return cli_usage(cmd, "%s: --man and --completion take no command "
                         "and go alone", cmd->name);
    if (a.man) {
        cli_print_man(stdout);
        return CLI_EXIT_OK;
    }
    if (a.completion != NULL) {
        if (cli_print_completion(stdout, a.completion) != 0)
            return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                                "out of memory");
        return CLI_EXIT_OK;
    }
    if (pos[0] == NULL) {
        print_main_help();
        return CLI_EXIT_OK;
    }
    const cli_command *which = find_command(pos[0]);
    if (which == NULL)
        return cli_usage(NULL, "unknown command '%s'", pos[0]);
    print_command_help(which);
    return CLI_EXIT_OK;
}

/* ---- command arguments ---- */

/* Whether `arg` is option `name`, alone or as "name=value"; *value gets
 * what follows '=' (NULL without one). */
static bool option_is(const char *arg, const char *name, const char **value)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return false;
    if (arg[n] == '\0') {
        *value = NULL;
        return true;
    }
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return true;
    }
    return false;
}

static bool is_option(const char *arg)
{
    return arg[0] == '-' && arg[1] != '\0';
}

/* Not a global option (global_option). */
#define NOT_GLOBAL (-2)
static int global_option(cli_ctx *ctx, int argc, char **argv, int *i);

int cli_args(cli_ctx *ctx, const cli_command *cmd, int argc, char **argv,
             const cli_optspec *opts, cli_opt_fn on_opt, void *payload,
             const char *const *names, int min, int max, char **pos)
{
    /* --help wins over any other mistake on the line. */
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            print_command_help(cmd);
            return CLI_EXIT_OK;
        }
    }
    int npos = 0;
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (!options_done && strcmp(a, "--") == 0) {
            options_done = true;
            continue;
        }
        if (!options_done && is_option(a)) {
            const cli_optspec *o = opts;
            const char *value = NULL;
            while (o != NULL && o->name != NULL &&
                   !option_is(a, o->name, &value))
                o++;
            if (o == NULL || o->name == NULL) {
                /* (a global option may come after the command too) */
                int rc = global_option(ctx, argc, argv, &i);
                if (rc == NOT_GLOBAL)
                    return cli_usage(cmd, "%s: unknown option '%s'",
                                     cmd->name, a);
                if (rc != CLI_CONTINUE)
                    return rc;
                continue;
            }
            if (o->has_value && value == NULL) {
                if (i + 1 == argc)
                    return cli_usage(cmd, "%s: option '%s' needs a value",
                                     cmd->name, o->name);
                value = argv[++i];
            } else if (!o->has_value && value != NULL) {
                return cli_usage(cmd, "%s: option '%s' takes no value",
                                 cmd->name, o->name);
            }
            int rc = on_opt(ctx, cmd, o->name, value, payload);
            if (rc != 0)
                return rc;
            continue;
        }
        if (npos == max)
            return cli_usage(cmd, "%s: unexpected argument '%s'", cmd->name,
                             a);
        pos[npos++] = a;
    }
    if (npos < min)
        return cli_usage(cmd, "%s: missing argument %s", cmd->name,
                         names[npos]);
    return CLI_CONTINUE;
}

bool cli_parse_int(const char *s, int64_t min, int64_t max, int64_t *out)
{
    const char *p = s;
    if (*p == '-')
        p++;
    if (*p < '0' || *p > '9')   /* no sign, space or '+' of strtoll's */
        return false;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max)
        return false;
    *out = (int64_t)v;
    return true;
}

/* ---- PIER_NOW ---- */

/* Reads exactly `n` decimal digits. */
static bool digits(const char **s, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        char c = (*s)[i];
        if (c < '0' || c > '9')
            return false;
        v = v * 10 + (c - '0');
    }
    *s += n;
    *out = v;
    return true;
}

static bool expect(const char **s, char c)
{
    if (**s != c)
        return false;
    (*s)++;
    return true;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
 * (Howard Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int days_in_month(int y, int m)
{
    static const int days[12] = { 31, 28, 31, 30, 31, 30,
                                  31, 31, 30, 31, 30, 31 };
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : days[m - 1];
}

/* YYYY-MM-DD(T| )HH:MM:SS[.fraction](Z|+HH:MM|-HH:MM); the fraction is
 * kept to the microsecond (further digits are dropped). A leap second
 * (60) is refused: the engine's clock has none; so is an instant outside
 * the years 0001 to 9999 (UTC), which the engine cannot store. */
bool cli_parse_instant(const char *s, int64_t *out)
{
    int y, mo, d, h, mi, sec;
    if (!digits(&s, 4, &y) || !expect(&s, '-') || !digits(&s, 2, &mo) ||
        !expect(&s, '-') || !digits(&s, 2, &d))
        return false;
    if (*s != 'T' && *s != 't' && *s != ' ')
        return false;
    s++;
    if (!digits(&s, 2, &h) || !expect(&s, ':') || !digits(&s, 2, &mi) ||
        !expect(&s, ':') || !digits(&s, 2, &sec))
        return false;
    if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 ||
        mi > 59 || sec > 59)
        return false;
    int64_t frac_us = 0;
    if (*s == '.') {
        s++;
        int n = 0;
        while (*s >= '0' && *s <= '9') {
            if (n < 6)
                frac_us = frac_us * 10 + (*s - '0');
            n++;
            s++;
        }
        if (n == 0)
            return false;
        for (; n < 6; n++)
            frac_us *= 10;
    }
    int64_t offset_s = 0;
    if (*s == 'Z' || *s == 'z') {
        s++;
    } else if (*s == '+' || *s == '-') {
        int sign = *s == '-' ? -1 : 1, oh, om;
        s++;
        if (!digits(&s, 2, &oh) || !expect(&s, ':') || !digits(&s, 2, &om) ||
            oh > 23 || om > 59)
            return false;
        offset_s = sign * (oh * 3600 + om * 60);
    } else {
        return false;
    }
    if (*s != '\0')
        return false;
    int64_t secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 +
                   sec - offset_s;
    int64_t us = secs * 1000000 + frac_us;
    /* The engine's timestamps span years 0001 to 9999, offset applied. */
    int64_t lo = days_from_civil(1, 1, 1) * 86400 * 1000000;
    int64_t hi = (days_from_civil(9999, 12, 31) + 1) * 86400 * 1000000 - 1;
    if (us < lo || us > hi)
        return false;
    *out = us;
    return true;
}

static int64_t fixed_clock(void *payload)
{
    return *(const int64_t *)payload;
}

/* Reads PIER_NOW into ctx->now_us; *set says whether it is set.
 * @return CLI_EXIT_OK, or the usage exit code for a malformed one. */
static int now_from_env(cli_ctx *ctx, bool *set)
{
    const char *now = getenv("PIER_NOW");
    *set = now != NULL && now[0] != '\0';
    if (*set && !cli_parse_instant(now, &ctx->now_us))
        return cli_usage(NULL,
                         "PIER_NOW: '%s' is not an RFC 3339 instant of "
                         "the years 0001 to 9999, like "
                         "2026-01-01T00:00:00Z", now);
    return CLI_EXIT_OK;
}

int cli_now(cli_ctx *ctx, int64_t *now_us)
{
    bool set = false;
    int rc = now_from_env(ctx, &set);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (set) {
        *now_us = ctx->now_us;
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        *now_us = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
    }
    return CLI_EXIT_OK;
}

/* ---- the engine ---- */

const char *cli_data_dir(cli_ctx *ctx)
{
    const char *dir = ctx->data_dir;
    const char *lake = ctx->lake;
    if (lake == NULL && dir == NULL) {
        lake = getenv("PIER_LAKE");
        if (lake != NULL && lake[0] == '\0')
            lake = NULL;
    }
    ctx->opts.lake = lake;
    if (dir == NULL && lake != NULL)
        dir = "";
    if (dir == NULL) {
        dir = getenv("PIER_DATA");
        if (dir == NULL || dir[0] == '\0')
            dir = DEFAULT_DATA_DIR;
    }
    return dir;
}

int cli_open(cli_ctx *ctx)
{
    if (ctx->engine != NULL)
        return CLI_EXIT_OK;
    bool set = false;
    int rc = now_from_env(ctx, &set);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (set) {
        ctx->opts.clock = fixed_clock;
        ctx->opts.clock_payload = &ctx->now_us;
    }
    const char *dir = cli_data_dir(ctx);
    pier_error err;
    cli_error_init(&err);
    if (pier_open(&ctx->engine, dir, &ctx->opts, &err) != PIER_OK) {
        ctx->engine = NULL;
        return cli_fail(ctx, &err);
    }
    return CLI_EXIT_OK;
}

int cli_open_or_empty(cli_ctx *ctx)
{
    const char *dir = cli_data_dir(ctx);
    if (ctx->engine != NULL || ctx->opts.lake != NULL)
        return cli_open(ctx);
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/lake.sqlite", dir);
    if (stat(path, &st) == 0 || errno != ENOENT)
        return cli_open(ctx);
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/pier-empty.XXXXXX",
             tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
    if (mkdtemp(path) == NULL || (ctx->scratch_dir = strdup(path)) == NULL) {
        char msg[4200];
        snprintf(msg, sizeof msg, "cannot make a temporary lake to plan "
                 "for '%s', which has none: %s", dir, strerror(errno));
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_LAKE_UNAVAILABLE),
                            msg);
    }
    ctx->data_dir = ctx->scratch_dir;
    return cli_open(ctx);
}

/* Removes cli_open_or_empty's lake, once the engine is closed. */
static void remove_scratch(cli_ctx *ctx)
{
    if (ctx->scratch_dir == NULL)
        return;
    pier_error err;
    cli_error_init(&err);
    pier_reset_lake(ctx->scratch_dir, &err);
    rmdir(ctx->scratch_dir);       /* (gone already when it held only the
                                      lake) */
    free(ctx->scratch_dir);
    ctx->scratch_dir = NULL;
}

/* ---- global options and dispatch ---- */

/* Parses the option values that pick one of two settings. */
static int choice(const char *option, const char *value, const char *a,
                  const char *b, int *out)
{
    if (strcmp(value, a) == 0)
        *out = 0;
    else if (strcmp(value, b) == 0)
        *out = 1;
    else
        return cli_usage(NULL, "option '%s' takes %s or %s, not '%s'",
                         option, a, b, value);
    return CLI_EXIT_OK;
}

/* The global option at argv[*i] (its value the next argument, or after
 * '='), applied to ctx; *i moves past a separate value. @return
 * CLI_CONTINUE, NOT_GLOBAL when argv[*i] is none, or an exit code. */
static int global_option(cli_ctx *ctx, int argc, char **argv, int *i)
{
    static const char *const valued[] = {
        "--data", "--auto-create", "--columns", "--durability",
        "--time-limit", "--max-value", "--max-memory", "--lake",
        "--cache-dir", "--head-refresh", NULL,
    };
    const char *a = argv[*i], *value = NULL;
    if (strcmp(a, "--json") == 0) {
        ctx->json = true;
        return CLI_CONTINUE;
    }
    if (strcmp(a, "--readonly") == 0) {
        ctx->opts.readonly = true;
        return CLI_CONTINUE;
    }
    const char *const *v = valued;
    while (*v != NULL && !option_is(a, *v, &value))
        v++;
    if (*v == NULL) {
        if (strncmp(a, "--json=", 7) == 0)
            return cli_usage(NULL, "option '--json' takes no value");
        if (strncmp(a, "--readonly=", 11) == 0)
            return cli_usage(NULL, "option '--readonly' takes no value");
        return NOT_GLOBAL;
    }
    if (value == NULL) {
        if (*i + 1 == argc)
            return cli_usage(NULL, "option '%s' needs a value", *v);
        value = argv[++*i];
    }
    int which = 0, rc = CLI_EXIT_OK;
    if (cli_is_limit_option(*v)) {
        rc = cli_limit_option(ctx, NULL, *v, value);
    } else if (strcmp(*v, "--data") == 0) {
        if (value[0] == '\0')
            return cli_usage(NULL, "option '--data' needs a directory");
        ctx->data_dir = value;
    } else if (strcmp(*v, "--lake") == 0) {
        if (value[0] == '\0')
            return cli_usage(NULL, "option '--lake' needs a connection "
                             "string");
        ctx->lake = value;
    } else if (strcmp(*v, "--cache-dir") == 0) {
        if (value[0] == '\0')
            return cli_usage(NULL, "option '--cache-dir' needs a "
                             "directory");
        ctx->opts.cache_dir = value;
    } else if (strcmp(*v, "--head-refresh") == 0) {
        int64_t ms = 0;
        if (!cli_duration_ms(value, &ms) || ms <= 0 || ms > INT32_MAX)
            return cli_usage(NULL, "option '--head-refresh' takes a "
                             "duration (250ms, 1s, 2m), not '%s'", value);
        ctx->opts.head_refresh_ms = (int)ms;
    } else if (strcmp(*v, "--auto-create") == 0) {
        rc = choice(*v, value, "on-write", "never", &which);
        ctx->opts.auto_create = which ? PIER_AUTO_CREATE_NEVER
                                      : PIER_AUTO_CREATE_ON_WRITE;
    } else if (strcmp(*v, "--columns") == 0) {
        rc = choice(*v, value, "infer", "declared", &which);
        ctx->opts.columns = which ? PIER_COLUMNS_DECLARED
                                  : PIER_COLUMNS_INFER;
    } else {
        rc = choice(*v, value, "full", "normal", &which);
        ctx->opts.durability = which ? PIER_DURABILITY_NORMAL
                                     : PIER_DURABILITY_FULL;
    }
    return rc != CLI_EXIT_OK ? rc : CLI_CONTINUE;
}

/* Pier's version, then those of the libraries it runs on, as linked. */
static void print_version(void)
{
    int pq = pier_libpq_version();
    printf("pier %s\nsqlite %s\nlibpq %d.%d\n", pier_version(),
           pier_sqlite_version(), pq / 10000, pq % 10000);
}

/* Parses the global options from argv[1]; *next gets the index of the
 * command. @return CLI_CONTINUE, or an exit code. */
static int parse_global(cli_ctx *ctx, int argc, char **argv, int *next)
{
    int i = 1;
    for (; i < argc && is_option(argv[i]); i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_main_help();
            return CLI_EXIT_OK;
        }
        if (strcmp(a, "--version") == 0) {
            print_version();
            return CLI_EXIT_OK;
        }
        int rc = global_option(ctx, argc, argv, &i);
        if (rc == NOT_GLOBAL)
            return cli_usage(NULL, "unknown option '%s'", a);
        if (rc != CLI_CONTINUE)
            return rc;
    }
    *next = i;
    return CLI_CONTINUE;
}

static int run(cli_ctx *ctx, int argc, char **argv)
{
    int next = 0;
    int rc = parse_global(ctx, argc, argv, &next);
    if (rc != CLI_CONTINUE)
        return rc;
    if (next >= argc)
        return cli_usage(NULL, "no command given");
    const cli_command *cmd = find_command(argv[next]);
    if (cmd == NULL)
        return cli_usage(NULL, "unknown command '%s'", argv[next]);
    return cmd->run(ctx, cmd, argc - next, argv + next);
}

int main(int argc, char **argv)
{
    static const pier_open_options defaults = PIER_OPEN_OPTIONS_INIT;
    cli_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.opts = defaults;
    /* A reader that goes away (`pier dump b | head`) makes writes fail
     * with EPIPE instead of killing the process, so that the engine is
     * still closed. */
    signal(SIGPIPE, SIG_IGN);
    int rc = argc > 0 ? run(&ctx, argc, argv)
                      : cli_usage(NULL, "no command given");
    pier_close(&ctx.engine);
    remove_scratch(&ctx);
    /* A result that never reached stdout (a full disk) is a failure, even
     * if the operation itself succeeded. A closed pipe is one too, but
     * nobody is left to read about it: it fails quietly. */
    errno = 0;
    int flushed = fflush(stdout);
    int why = ctx.stdout_errno != 0 ? ctx.stdout_errno : errno;
    if (flushed != 0 || ferror(stdout)) {
        int frc = CLI_EXIT_FAILED;
        if (why != EPIPE) {
            char msg[256];
            snprintf(msg, sizeof msg, "cannot write to stdout: %s",
                     why != 0 ? strerror(why) : "write error");
            frc = cli_fail_msg(&ctx, pier_status_tag(PIER_E_WRITE_FAILED),
                               msg);
        }
        if (rc == CLI_EXIT_OK)
            rc = frc;
    }
    return rc;
}
