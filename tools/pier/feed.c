/*
 * feed.c: the commands about the change feed: changes (one page) and
 * watch (follow it until interrupted).
 *
 * Both print JSON in either output mode: the feed's records are JSON
 * documents. watch blocks SIGINT and SIGTERM before the engine exists, so
 * that every thread the engine starts inherits the mask and none is killed
 * by them; a thread of its own takes them from a signalfd and cancels the
 * watch (pier_watch_cancel may not run in a signal handler). The same
 * thread polls stdout: a pipe whose reader has gone (`pier watch b | head
 * -1`) reports POLLERR on its write end at once, so the watch ends then
 * rather than at its next write, which may never come. The watch is then
 * closed, and main closes the engine, as on every path.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "cli.h"

static const char *const board_name[] = { "BOARD" };

typedef struct feed_args {
    int64_t after;
    int64_t limit;      /* changes: records per page; 0: the default */
    int64_t poll_ms;    /* watch */
} feed_args;

static const cli_optspec changes_opts[] = {
    { "--after", true }, { "--limit", true }, { NULL, false },
};

static const cli_optspec watch_opts[] = {
    { "--after", true }, { "--poll-ms", true }, { NULL, false },
};

static int feed_opt(cli_ctx *ctx, const cli_command *cmd, const char *name,
                    const char *value, void *payload)
{
    (void)ctx;
    feed_args *a = payload;
    if (strcmp(name, "--after") == 0) {
        if (!cli_parse_int(value, 0, INT64_MAX, &a->after))
            return cli_usage(cmd, "%s: option '--after' takes a watermark "
                             "(0 or more), not '%s'", cmd->name, value);
    } else if (strcmp(name, "--limit") == 0) {
        /* pier_changes hands out at most 10000 records a page. */
        if (!cli_parse_int(value, 1, 10000, &a->limit))
            return cli_usage(cmd, "%s: option '--limit' takes a number of "
                             "records from 1 to 10000, not '%s'", cmd->name,
                             value);
    } else if (!cli_parse_int(value, 1, INT_MAX, &a->poll_ms)) {
        return cli_usage(cmd, "%s: option '--poll-ms' takes milliseconds "
                         "from 1 to %d, not '%s'", cmd->name, INT_MAX,
                         value);
    }
    return 0;
}

/* ---- changes ---- */

static int run_changes(cli_ctx *ctx, const cli_command *cmd, int argc,
                       char **argv)
{
    ctx->opts.must_exist = true;     /* (a read makes no lake) */
    feed_args a = { 0, 0, 0 };
    char *board = NULL;
    int rc = cli_args(ctx, cmd, argc, argv, changes_opts, feed_opt, &a,
                      board_name, 1, 1, &board);
    if (rc != CLI_CONTINUE)
        return rc;
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    pier_changes_page *page = NULL;
    pier_error err;
    cli_error_init(&err);
    if (pier_changes(&page, ctx->engine, board, a.after, (size_t)a.limit,
                     &err) != PIER_OK)
        return cli_fail(ctx, &err);
    char *json = pier_changes_page_to_json(page);
    pier_changes_page_free(page);
    if (json == NULL)
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                            "out of memory");
    /* A page is one line of JSON, often larger than a pipe holds: its
     * reader may be gone before it is written whole (main fails quietly
     * then, as for dump). */
    errno = 0;
    if (fputs(json, stdout) == EOF || putchar('\n') == EOF ||
        fflush(stdout) != 0)
        ctx->stdout_errno = errno != 0 ? errno : EIO;   /* reported by main */
    pier_free(json);
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_changes = {
    "changes", "Print one page of a board's change feed",
    "BOARD [--after N] [--limit K]",
    "Prints BOARD's change records with a watermark above N, oldest first,\n"
    "at most K of them: one page of the feed. Pass the page's \"next\" as\n"
    "--after to read the following one; an empty page's \"next\" is N.\n"
    "When N is below the lake's retention floor (maintain dropped records\n"
    "after it, of this board or another), the page says to resync\n"
    "instead: re-read the board, then continue after \"from\".\n"
    "A board that does not exist has no records (a dropped one keeps its\n"
    "feed, ending with its drop), so this never fails for want of one.\n"
    "\n"
    "Options:\n"
    "  --after N           Start after watermark N (default: 0, the start)\n"
    "  --limit K           At most K records, 1 to 10000 (default: 1000)\n"
    "\n"
    "Output, in both modes, one line of JSON:\n"
    "{\"resync\":false,\"records\":[RECORD,...],\"next\":N} or\n"
    "{\"resync\":true,\"from\":N}, where a RECORD is {\"watermark\":N,\n"
    "\"board\":B,\"kind\":K,\"payload\":{...},\"committed_at\":\"RFC 3339\"}.\n",
    run_changes,
};

/* ---- watch ---- */

/* The thread that takes SIGINT and SIGTERM, and watches stdout's reader. */
typedef struct watcher {
    pier_watch *watch;
    sigset_t signals;
    int sigfd;           /* a signalfd of `signals` */
    pthread_mutex_t lock;
    bool stopping;       /* guarded by lock: the command is ending */
    bool reader_gone;    /* guarded by lock: why the watch was cancelled */
} watcher;

static void *take_signals(void *payload)
{
    watcher *w = payload;
    /* Events 0 on stdout: only POLLERR, POLLHUP and POLLNVAL are
     * reported, which a file, a terminal or /dev/null never raise while
     * they can be written. */
    struct pollfd fds[2] = {
        { w->sigfd, POLLIN, 0 }, { STDOUT_FILENO, 0, 0 },
    };
    for (;;) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return NULL;
        }
        bool gone = false;
        if (fds[1].revents & POLLNVAL)     /* stdout closed: none to see */
            fds[1].fd = -1;
        else if (fds[1].revents & (POLLERR | POLLHUP))
            gone = true;
        if (gone)
            fds[1].fd = -1;                /* (it stays so: ask once) */
        if (fds[0].revents & POLLIN) {
            struct signalfd_siginfo info;
            if (read(w->sigfd, &info, sizeof info) < 0 && errno != EAGAIN)
                return NULL;
        } else if (!gone) {
            continue;
        }
        pthread_mutex_lock(&w->lock);
        bool stopping = w->stopping;
        if (!stopping) {
            w->reader_gone = w->reader_gone || gone;
            pier_watch_cancel(w->watch);
        }
        pthread_mutex_unlock(&w->lock);
        if (stopping)
            return NULL;
    }
}

/* Why printing a page stopped. */
typedef enum page_end { PAGE_PRINTED, PAGE_NO_MEMORY, PAGE_STDOUT } page_end;

/* Prints one page, each record or the resync as one line, and flushes
 * it. On PAGE_STDOUT, *why is the errno of the failed write. */
static page_end print_page(const pier_changes_page *page, int *why)
{
    errno = 0;
    if (page->resync)
        printf("{\"resync\":true,\"from\":%" PRId64 "}\n", page->from);
    for (size_t i = 0; !page->resync && i < page->nrecords; i++) {
        char *json = pier_change_to_json(&page->records[i]);
        if (json == NULL)
            return PAGE_NO_MEMORY;
        fputs(json, stdout);
        fputc('\n', stdout);
        pier_free(json);
        if (ferror(stdout))
            break;
    }
    if (!ferror(stdout) && fflush(stdout) == 0)
        return PAGE_PRINTED;
    *why = errno;
    return PAGE_STDOUT;
}

/* Sends stdout's further output, and what is still buffered, to
 * /dev/null: a reader that went away ends the watch as a success. */
static void drop_stdout(void)
{
    int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        close(fd);
    }
    clearerr(stdout);
}

/* Follows the feed until cancelled. @return the exit code. */
static int follow(cli_ctx *ctx, watcher *w)
{
    for (;;) {
        pier_changes_page *page = NULL;
        pier_error err;
        cli_error_init(&err);
        if (pier_watch_next(&page, w->watch, &err) != PIER_OK)
            return cli_fail(ctx, &err);
        if (page == NULL) {   /* cancelled: a signal, or stdout's reader */
            pthread_mutex_lock(&w->lock);
            bool gone = w->reader_gone;
            pthread_mutex_unlock(&w->lock);
            if (gone)
                drop_stdout();
            return CLI_EXIT_OK;
        }
        int why = 0;
        page_end end = print_page(page, &why);
        pier_changes_page_free(page);
        if (end == PAGE_NO_MEMORY)
            return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                                "out of memory");
        if (end == PAGE_STDOUT && why == EPIPE) {
            drop_stdout();
            return CLI_EXIT_OK;
        }
        if (end == PAGE_STDOUT) {
            ctx->stdout_errno = why;   /* reported by main */
            return CLI_EXIT_FAILED;
        }
    }
}

static int run_watch(cli_ctx *ctx, const cli_command *cmd, int argc,
                     char **argv)
{
    ctx->opts.must_exist = true;     /* (a read makes no lake) */
    feed_args a = { 0, 0, 0 };
    char *board = NULL;
    int rc = cli_args(ctx, cmd, argc, argv, watch_opts, feed_opt, &a,
                      board_name, 1, 1, &board);
    if (rc != CLI_CONTINUE)
        return rc;
    watcher w;
    memset(&w, 0, sizeof w);
    sigemptyset(&w.signals);
    sigaddset(&w.signals, SIGINT);
    sigaddset(&w.signals, SIGTERM);
    /* Before the engine starts its threads: they inherit the mask. (It
     * fails only for a bad `how`.) */
    pthread_sigmask(SIG_BLOCK, &w.signals, NULL);
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    pier_watch_options opts = PIER_WATCH_OPTIONS_INIT;
    opts.after = a.after;
    if (a.poll_ms > 0)
        opts.poll_ms = (int)a.poll_ms;
    pier_error err;
    cli_error_init(&err);
    if (pier_watch_open(&w.watch, ctx->engine, board, &opts, &err) !=
        PIER_OK)
        return cli_fail(ctx, &err);
    pthread_t thread;
    w.sigfd = signalfd(-1, &w.signals, SFD_CLOEXEC);
    if (w.sigfd < 0) {
        pier_watch_close(w.watch);
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                            "cannot start the signal thread");
    }
    if (pthread_mutex_init(&w.lock, NULL) != 0) {
        close(w.sigfd);
        pier_watch_close(w.watch);
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                            "cannot start the signal thread");
    }
    if (pthread_create(&thread, NULL, take_signals, &w) != 0) {
        pthread_mutex_destroy(&w.lock);
        close(w.sigfd);
        pier_watch_close(w.watch);
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                            "cannot start the signal thread");
    }
    rc = follow(ctx, &w);
    /* Stop the signal thread: it wakes to a signal aimed at it alone, sees
     * `stopping`, and never touches the watch again. */
    pthread_mutex_lock(&w.lock);
    w.stopping = true;
    pthread_mutex_unlock(&w.lock);
    pthread_kill(thread, SIGTERM);
    pthread_join(thread, NULL);
    pthread_mutex_destroy(&w.lock);
    close(w.sigfd);
    pier_watch_close(w.watch);
    return rc;
}

const cli_command cli_cmd_watch = {
    "watch", "Follow a board's change feed until interrupted",
    "BOARD [--after N] [--poll-ms MS]",
    "Prints BOARD's change records with a watermark above N as they are\n"
    "committed: first those already kept, then each new one, until SIGINT\n"
    "or SIGTERM. Writes of other processes are seen within MS\n"
    "milliseconds. When its position is below the lake's retention floor\n"
    "(see changes), it prints a resync line and goes on after \"from\".\n"
    "BOARD need not exist yet: its first records appear when it does.\n"
    "\n"
    "Options:\n"
    "  --after N           Start after watermark N (default: 0, the whole\n"
    "                      feed kept; 'pier head' gives the current one)\n"
    "  --poll-ms MS        How often to look for other processes' writes\n"
    "                      (default: 100)\n"
    "\n"
    "Output, in both modes: one line of JSON per record, {\"watermark\":N,\n"
    "\"board\":B,\"kind\":K,\"payload\":{...},\"committed_at\":\"RFC 3339\"},\n"
    "or {\"resync\":true,\"from\":N}; stdout is flushed after each page.\n"
    "Exits 0 on SIGINT or SIGTERM, and as soon as the reader of stdout goes\n"
    "away (`pier watch b | head -1`), without waiting for another record.\n",
    run_watch,
};
