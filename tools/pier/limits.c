/*
 * limits.c: what the statements of `query`, `sql` and `shell` may take
 * (--time-limit, --max-value, --max-memory, the engine's pier_limits),
 * and Ctrl-C, which stops the statement running rather than the program.
 *
 * The options set the engine's limits before it is opened, so they read
 * the same before the command (global options) and after it. A duration
 * is a whole number with a unit (500ms, 30s, 5m, 1h; a bare number is
 * seconds, as for timeout(1)); a size a whole number of bytes or of KiB,
 * MiB, GiB (16M, 1G); "none" or 0 lifts a limit.
 *
 * Ctrl-C: while a statement runs, SIGINT has it stop (pier_interrupt,
 * below); the statement fails with Interrupted and the command reports
 * it. The handler is taken once (SA_RESETHAND): a second Ctrl-C ends the
 * program as usual, should the first not be enough.
 */
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "cli.h"

bool cli_duration_ms(const char *s, int64_t *out)
{
    static const struct {
        const char *unit;
        int64_t ms;
    } units[] = { { "ms", 1 }, { "s", 1000 }, { "m", 60000 },
                  { "h", 3600000 }, { "", 1000 } };
    size_t digits = strspn(s, "0123456789");
    if (digits == 0 || digits > 12)
        return false;
    int64_t n = 0;
    for (size_t i = 0; i < digits; i++)
        n = n * 10 + (s[i] - '0');
    for (size_t u = 0; u < sizeof units / sizeof *units; u++) {
        if (strcmp(s + digits, units[u].unit) == 0) {
            *out = n * units[u].ms;
            return true;
        }
    }
    return false;
}

/* "16M", "1GiB", "4096": bytes. */
static bool size_bytes(const char *s, int64_t *out)
{
    static const struct {
        const char *unit;
        int64_t bytes;
    } units[] = { { "", 1 }, { "B", 1 }, { "K", 1024 }, { "KiB", 1024 },
                  { "M", 1024 * 1024 }, { "MiB", 1024 * 1024 },
                  { "G", 1024 * 1024 * 1024 },
                  { "GiB", 1024 * 1024 * 1024 } };
    size_t digits = strspn(s, "0123456789");
    if (digits == 0 || digits > 15)
        return false;
    int64_t n = 0;
    for (size_t i = 0; i < digits; i++)
        n = n * 10 + (s[i] - '0');
    for (size_t u = 0; u < sizeof units / sizeof *units; u++) {
        if (strcmp(s + digits, units[u].unit) == 0) {
            if (n > INT64_MAX / units[u].bytes)
                return false;
            *out = n * units[u].bytes;
            return true;
        }
    }
    return false;
}

bool cli_is_limit_option(const char *name)
{
    return strcmp(name, "--time-limit") == 0 ||
           strcmp(name, "--max-value") == 0 ||
           strcmp(name, "--max-memory") == 0;
}

int cli_limit_option(cli_ctx *ctx, const cli_command *cmd, const char *name,
                     const char *value)
{
    bool time = strcmp(name, "--time-limit") == 0;
    int64_t v = 0;
    bool ok = strcmp(value, "none") == 0 ||
              (time ? cli_duration_ms(value, &v) : size_bytes(value, &v));
    if (!ok)
        return cli_usage(cmd, "%s%soption '%s' takes %s or none, not '%s'",
                         cmd != NULL ? cmd->name : "",
                         cmd != NULL ? ": " : "", name,
                         time ? "a duration (500ms, 30s, 5m)"
                              : "a size (4096, 64K, 16M, 1G)",
                         value);
    if (v == 0)
        v = PIER_LIMIT_NONE;
    if (time)
        ctx->opts.limits.time_ms = v;
    else if (strcmp(name, "--max-value") == 0)
        ctx->opts.limits.value_bytes = v;
    else
        ctx->opts.limits.memory_bytes = v;
    return 0;
}

/*
 * Ctrl-C. pier_interrupt stops the statements running when it is called;
 * a Ctrl-C may come a moment before the statement begins (the command is
 * about to call pier_exec), and would be lost. So the handler only wakes
 * a watcher thread (sem_post is safe in a handler), which interrupts the
 * engine again and again until the statement has returned.
 */

static pier_engine *target;          /* set before the watcher starts */
static pthread_t watcher;
static sem_t wake;                   /* posted by a Ctrl-C, or to end */
static atomic_bool ended;            /* the statement returned */
static bool watching;                /* the watcher runs */
static bool took_signal;             /* the handler is ours */

/* Pause between two interruptions: a statement stops within one. */
#define REPEAT_NS 10000000L

static void *watch(void *arg)
{
    (void)arg;
    while (sem_wait(&wake) != 0)
        ;                            /* EINTR */
    while (!atomic_load(&ended)) {
        pier_interrupt(target);
        struct timespec pause = { 0, REPEAT_NS };
        nanosleep(&pause, NULL);
    }
    return NULL;
}

void cli_interrupt_request(void)
{
    if (watching)
        sem_post(&wake);
    else if (target != NULL)
        pier_interrupt(target);      /* no watcher: once */
}

static void on_sigint(int sig)
{
    (void)sig;
    cli_interrupt_request();
}

void cli_interrupt_arm(pier_engine *engine, bool take)
{
    target = engine;
    atomic_store(&ended, false);
    watching = sem_init(&wake, 0, 0) == 0;
    /* The watcher blocks every signal (it inherits the mask it is made
     * with), so that SIGINT lands on the thread running the command and
     * cuts short a read or write it waits in. */
    sigset_t all, saved;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &saved);
    if (watching && pthread_create(&watcher, NULL, watch, NULL) != 0) {
        sem_destroy(&wake);
        watching = false;
    }
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    took_signal = take;
    if (take) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigint;
        sa.sa_flags = (int)SA_RESETHAND;  /* a second Ctrl-C ends it */
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
    }
}

void cli_interrupt_disarm(void)
{
    if (took_signal)
        signal(SIGINT, SIG_DFL);
    took_signal = false;
    if (watching) {
        atomic_store(&ended, true);
        sem_post(&wake);             /* if no Ctrl-C woke it */
        pthread_join(watcher, NULL);
        sem_destroy(&wake);
        watching = false;
    }
    target = NULL;
}
