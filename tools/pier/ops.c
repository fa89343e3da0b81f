/*
 * ops.c: the operations commands: maintain, flush, sync, evict, stats and
 * head.
 *
 * Each parses its arguments, opens the engine, makes one library call and
 * prints its result. maintain and flush print nothing on success, in both
 * modes: their exit status is their answer.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Change records older than this many hours are dropped by default: a
 * week, long enough for a consumer to come back after a weekend. */
#define DEFAULT_OLDER_THAN_HOURS 168

/* ---- maintain ---- */

static const cli_optspec maintain_opts[] = {
    { "--older-than-hours", true }, { NULL, false },
};

static int maintain_opt(cli_ctx *ctx, const cli_command *cmd,
                        const char *name, const char *value, void *payload)
{
    (void)ctx;
    (void)name;
    if (!cli_parse_int(value, 0, INT_MAX, payload))
        return cli_usage(cmd, "%s: option '--older-than-hours' takes a "
                         "number of hours from 0 to %d, not '%s'", cmd->name,
                         INT_MAX, value);
    return 0;
}

static int run_maintain(cli_ctx *ctx, const cli_command *cmd, int argc,
                        char **argv)
{
    int64_t hours = DEFAULT_OLDER_THAN_HOURS;
    int rc = cli_args(ctx, cmd, argc, argv, maintain_opts, maintain_opt,
                      &hours, NULL, 0, 0, NULL);
    if (rc != CLI_CONTINUE)
        return rc;
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    pier_error err;
    cli_error_init(&err);
    if (pier_maintain(ctx->engine, (int)hours, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_maintain = {
    "maintain", "Drop old change records and tidy the lake files",
    "[--older-than-hours N]",
    "Drops the change records committed more than N hours ago (the newest\n"
    "record is always kept) and moves the feed's retention floor to the\n"
    "highest watermark dropped: a consumer reading from below it is told\n"
    "to resync. Then checkpoints the write-ahead log and returns free\n"
    "pages to the file system.\n"
    "\n"
    "Options:\n"
    "  --older-than-hours N\n"
    "                      Drop records older than N hours (default: 168,\n"
    "                      a week; 0 drops all but the newest)\n"
    "\n"
    "Output: nothing, in both modes; the exit status says it worked.\n",
    run_maintain,
};

/* ---- flush ---- */

static const char *const board_names[] = { "BOARD" };

/* A command of at least `min` BOARD (0 or 1) that calls fn, printing
 * nothing on success: flush, evict. */
static int board_call(cli_ctx *ctx, const cli_command *cmd, int argc,
                      char **argv, int min,
                      pier_status (*fn)(pier_engine *, const char *,
                                        pier_error *))
{
    char *board = NULL;
    int rc = cli_args(ctx, cmd, argc, argv, NULL, NULL, NULL, board_names,
                      min, 1, &board);
    if (rc != CLI_CONTINUE)
        return rc;
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    pier_error err;
    cli_error_init(&err);
    if (fn(ctx->engine, board, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    return CLI_EXIT_OK;
}

static int run_flush(cli_ctx *ctx, const cli_command *cmd, int argc,
                     char **argv)
{
    return board_call(ctx, cmd, argc, argv, 0, pier_flush);
}

const cli_command cli_cmd_flush = {
    "flush", "Write buffered changes to the lake", "[BOARD]",
    "Writes the changes buffered for BOARD, or for every board, to the\n"
    "lake. The embedded lake buffers nothing, so this only checks that\n"
    "BOARD exists.\n"
    "\n"
    "Output: nothing, in both modes; the exit status says it worked.\n"
    "Fails with BoardNotFound if there is no such board.\n",
    run_flush,
};

/* ---- sync and evict: a PostgreSQL lake's node's replicas ---- */

static int run_sync(cli_ctx *ctx, const cli_command *cmd, int argc,
                    char **argv)
{
    ctx->opts.must_exist = true;     /* (a read makes no lake) */
    char *board = NULL;
    int rc = cli_args(ctx, cmd, argc, argv, NULL, NULL, NULL, board_names, 1,
                      1, &board);
    if (rc != CLI_CONTINUE)
        return rc;
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    pier_error err;
    cli_error_init(&err);
    int64_t watermark = 0;
    if (pier_sync(&watermark, ctx->engine, board, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    return cli_print_number(ctx, "watermark", watermark);
}

const cli_command cli_cmd_sync = {
    "sync", "Bring this node's replica of a board up to the lake's head",
    "BOARD",
    "On a PostgreSQL lake (--lake, docs/clustered.md): brings this node's\n"
    "replica of BOARD up to the lake's head, read now, as a query does\n"
    "before it runs. On an embedded lake every board is at the head\n"
    "already.\n"
    "\n"
    "Output: the watermark the replica is at; with --json,\n"
    "{\"watermark\":N}. Fails with BoardNotFound if there is no such\n"
    "board, SyncFailed if the lake cannot be read.\n",
    run_sync,
};

static int run_evict(cli_ctx *ctx, const cli_command *cmd, int argc,
                     char **argv)
{
    return board_call(ctx, cmd, argc, argv, 1, pier_evict);
}

const cli_command cli_cmd_evict = {
    "evict", "Delete this node's replica of a board", "BOARD",
    "On a PostgreSQL lake (--lake, docs/clustered.md): closes this node's\n"
    "replica of BOARD and deletes its files; the next read makes it again\n"
    "from the lake. On an embedded lake there is no replica: this only\n"
    "checks that BOARD exists.\n"
    "\n"
    "Output: nothing, in both modes; the exit status says it worked.\n"
    "Fails with BoardNotFound if there is no such board.\n",
    run_evict,
};

/* ---- stats ---- */

/* One figure of pier_stats: its label for people, its JSON key. */
typedef struct stat_field {
    const char *label;
    const char *key;
    size_t offset;
} stat_field;

#define STAT(label, field) { label, #field, offsetof(pier_stats, field) }

static const stat_field stat_fields[] = {
    STAT("boards", boards),
    STAT("rows", rows),
    STAT("change records", change_records),
    STAT("head", head),
    STAT("floor", floor),
    STAT("lake bytes", lake_bytes),
    STAT("wal bytes", wal_bytes),
    STAT("writes", writes),
    STAT("queries", queries),
    /* a PostgreSQL lake's node only (NSTATS_EMBEDDED before them) */
    STAT("syncs", syncs),
    STAT("records applied", records_applied),
    STAT("rebuilds", rebuilds),
    STAT("replicas", replicas),
};
#define NSTATS_ALL (sizeof stat_fields / sizeof stat_fields[0])
#define NSTATS_EMBEDDED 9

static int64_t stat_value(const pier_stats *s, size_t i)
{
    int64_t v;
    memcpy(&v, (const char *)s + stat_fields[i].offset, sizeof v);
    return v;
}

static void stats_json(const pier_stats *s, size_t nstats)
{
    fputc('{', stdout);
    for (size_t i = 0; i < nstats; i++)
        printf("%s\"%s\":%" PRId64, i > 0 ? "," : "", stat_fields[i].key,
               stat_value(s, i));
    if (s->last_maintenance == 0) {
        fputs(",\"last_maintenance\":null}\n", stdout);
    } else {
        char when[CLI_INSTANT_SIZE];
        cli_format_instant(s->last_maintenance, when);
        printf(",\"last_maintenance\":\"%s\"}\n", when);
    }
}

/* @return false if out of memory. */
static bool stats_table(const pier_stats *s, size_t nstats)
{
    cli_table *t = cli_table_new(2);
    bool ok = t != NULL;
    char text[CLI_INSTANT_SIZE];
    for (size_t i = 0; ok && i < nstats; i++) {
        int n = snprintf(text, sizeof text, "%" PRId64, stat_value(s, i));
        ok = cli_table_add(t, stat_fields[i].label,
                           strlen(stat_fields[i].label)) &&
             cli_table_add(t, text, (size_t)n);
    }
    if (ok) {
        if (s->last_maintenance == 0)
            snprintf(text, sizeof text, "never");
        else
            cli_format_instant(s->last_maintenance, text);
        ok = cli_table_add(t, "last maintenance", 16) &&
             cli_table_add(t, text, strlen(text));
    }
    if (ok)
        cli_table_print(t, stdout);
    cli_table_free(t);
    return ok;
}

/* `stats BOARD`: one board's figures. @return the exit code. */
static int board_stats(cli_ctx *ctx, const char *board)
{
    pier_board_stats s = PIER_BOARD_STATS_INIT;
    pier_error err;
    cli_error_init(&err);
    if (pier_board_stats_get(&s, ctx->engine, board, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    if (ctx->json) {
        fputs("{\"board\":", stdout);
        cli_json_string(stdout, board, strlen(board));
        printf(",\"rows\":%" PRId64, s.rows);
        if (s.bytes < 0)
            fputs(",\"bytes\":null", stdout);
        else
            printf(",\"bytes\":%" PRId64, s.bytes);
        printf(",\"columns\":%" PRId64 ",\"change_records\":%" PRId64
               "}\n", s.columns, s.change_records);
        return CLI_EXIT_OK;
    }
    char bytes[24];
    if (s.bytes < 0)
        snprintf(bytes, sizeof bytes, "unknown");
    else
        snprintf(bytes, sizeof bytes, "%" PRId64, s.bytes);
    printf("board           %s\n"
           "rows            %" PRId64 "\n"
           "bytes           %s\n"
           "columns         %" PRId64 "\n"
           "change records  %" PRId64 "\n",
           board, s.rows, bytes, s.columns, s.change_records);
    return CLI_EXIT_OK;
}

static int run_stats(cli_ctx *ctx, const cli_command *cmd, int argc,
                     char **argv)
{
    ctx->opts.must_exist = true;     /* (a read makes no lake) */
    char *board = NULL;
    int rc = cli_args(ctx, cmd, argc, argv, NULL, NULL, NULL, board_names,
                      0, 1, &board);
    if (rc != CLI_CONTINUE)
        return rc;
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    if (board != NULL)
        return board_stats(ctx, board);
    pier_stats s;
    memset(&s, 0, sizeof s);
    pier_error err;
    cli_error_init(&err);
    if (pier_stats_get(&s, ctx->engine, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    size_t nstats = ctx->opts.lake != NULL ? NSTATS_ALL : NSTATS_EMBEDDED;
    if (ctx->json)
        stats_json(&s, nstats);
    else if (!stats_table(&s, nstats))
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                            "out of memory");
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_stats = {
    "stats", "Show the lake's figures, or a board's", "[BOARD]",
    "Shows the lake's figures: its boards, their rows, the change records\n"
    "kept, the head and the retention floor of the feed, the size of the\n"
    "lake file and of its write-ahead log, the writes and reads served by\n"
    "the engine this command opened (a fresh one, so 0), and when\n"
    "maintain last ran.\n"
    "\n"
    "With BOARD, that board's instead, read together: its rows, the bytes\n"
    "of the lake file its rows and indexes take (whole pages, as SQLite's\n"
    "dbstat counts them; unknown if the libsqlite3 lacks dbstat), its\n"
    "columns (id, updated_at and state included) and the change records\n"
    "the feed keeps for it. BoardNotFound if there is no such board;\n"
    "TopologyUnsupported on a PostgreSQL lake, whose node holds replicas.\n"
    "\n"
    "Output: an aligned two-column table, one line per figure: boards,\n"
    "rows, change records, head, floor, lake bytes, wal bytes, writes,\n"
    "queries, last maintenance (RFC 3339, or never). With --json, one\n"
    "object: {\"boards\":N,\"rows\":N,\"change_records\":N,\"head\":N,\n"
    "\"floor\":N,\"lake_bytes\":N,\"wal_bytes\":N,\"writes\":N,\"queries\":N,\n"
    "\"last_maintenance\":\"RFC 3339\" or null}. With BOARD: board, rows,\n"
    "bytes, columns, change records; with --json {\"board\":B,\"rows\":N,\n"
    "\"bytes\":N or null,\"columns\":N,\"change_records\":N}.\n",
    run_stats,
};

/* ---- head ---- */

static int run_head(cli_ctx *ctx, const cli_command *cmd, int argc,
                    char **argv)
{
    ctx->opts.must_exist = true;     /* (a read makes no lake) */
    int rc = cli_args(ctx, cmd, argc, argv, NULL, NULL, NULL, NULL, 0, 0,
                      NULL);
    if (rc != CLI_CONTINUE)
        return rc;
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    int64_t head = 0;
    pier_error err;
    cli_error_init(&err);
    if (pier_head_from_catalog(&head, ctx->engine, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    return cli_print_number(ctx, "head", head);
}

const cli_command cli_cmd_head = {
    "head", "Print the lake's newest watermark", "",
    "Prints the newest watermark of the lake: the position of the last\n"
    "change committed, 0 if nothing was ever written.\n"
    "\n"
    "Output: the number alone; with --json, {\"head\":N}.\n",
    run_head,
};
