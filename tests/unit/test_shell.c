/*
 * test_shell.c: `pier shell` driven through a pseudo-terminal, as a
 * person would use it.
 *
 * The pier binary under test (PIER_BINARY, set by ctest) runs on the
 * terminal side of a pty with TERM=xterm, so libedit edits lines: the
 * test types keys and waits for what the shell prints (prompts, results,
 * errors). It checks: the prompt names the board; queries print tables;
 * each dot-command; line editing (Ctrl-A then an insertion, an arrow key
 * and Ctrl-P recalling history); Ctrl-C abandoning a half-typed line
 * without leaving, and stopping a running query or script without
 * leaving; Ctrl-D leaving with status 0; the history file,
 * saved line by line and read again by the next session; Tab completing
 * commands, boards, columns and files; and the pager taking a result
 * taller than the terminal, and only such a one.
 */
#define _XOPEN_SOURCE 600  /* posix_openpt, grantpt, unlockpt, ptsname */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "pier.h"
#include "support/engine_fixture.h"
#include "support/lakedir.h"

/* How long to wait for the shell to print something: generous, for slow
 * machines and sanitizers. */
#define WAIT_MS 20000

typedef struct session {
    int fd;             /* the pty's controlling side */
    pid_t pid;
    char out[65536];    /* everything printed since the last match */
    size_t len;
    char log[65536];    /* everything printed, for failure messages */
    size_t log_len;
} session;

/* Reads what is there into out and log. @return read()'s result. */
static ssize_t take(session *s)
{
    ssize_t n = read(s->fd, s->out + s->len, sizeof s->out - 1 - s->len);
    if (n <= 0)
        return n;
    size_t room = sizeof s->log - 1 - s->log_len;
    size_t keep = (size_t)n < room ? (size_t)n : room;
    memcpy(s->log + s->log_len, s->out + s->len, keep);
    s->log[s->log_len += keep] = '\0';
    s->out[s->len += (size_t)n] = '\0';
    return n;
}

typedef struct fixture {
    engine_fixture *f;
    char *history;
    pid_t running;      /* a shell the test has not waited for, or 0 */
    const char *pager;  /* $PAGER for the shell, or NULL: unset */
    unsigned short rows;   /* the terminal's height, or 0: unset */
} fixture;

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    assert_non_null(fx);
    fx->f = fixture_open();
    fixture_insert(fx->f->e, "tasks",
                   "[{\"id\":\"a\",\"n\":1,\"done\":true},"
                   "{\"id\":\"b\",\"n\":2,\"done\":false}]");
    fixture_insert(fx->f->e, "notes", "[{\"id\":\"a\",\"text\":\"hi\"}]");
    pier_close(&fx->f->e);   /* the shell opens the lake itself */
    fx->history = lakedir_join(fx->f->dir, "history");
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    if (fx->running > 0) {      /* a failed test left its shell behind */
        kill(fx->running, SIGKILL);
        waitpid(fx->running, NULL, 0);
    }
    free(fx->history);
    int rc = fixture_close(fx->f);
    free(fx);
    return rc;
}

static void start(session *s, fixture *fx, const char *board)
{
    const char *pier = getenv("PIER_BINARY");
    if (pier == NULL)
        fail_msg("PIER_BINARY is not set (ctest sets it)");
    memset(s, 0, sizeof *s);
    s->fd = posix_openpt(O_RDWR | O_NOCTTY);
    assert_true(s->fd >= 0);
    assert_int_equal(grantpt(s->fd), 0);
    assert_int_equal(unlockpt(s->fd), 0);
    const char *name = ptsname(s->fd);
    assert_non_null(name);
    struct winsize ws = { fx->rows, 80, 0, 0 };
    assert_int_equal(ioctl(s->fd, TIOCSWINSZ, &ws), 0);
    s->pid = fork();
    assert_true(s->pid >= 0);
    if (s->pid == 0) {
        setsid();
        int tty = open(name, O_RDWR);   /* becomes the controlling tty */
        if (tty < 0)
            _exit(127);
        dup2(tty, 0);
        dup2(tty, 1);
        dup2(tty, 2);
        if (tty > 2)
            close(tty);
        setenv("TERM", "xterm", 1);
        setenv("PIER_HISTORY", fx->history, 1);
        setenv("HOME", fx->f->dir, 1);      /* no ~/.editrc of the host */
        unsetenv("PIER_DATA");
        unsetenv("LINES");
        if (fx->pager != NULL)
            setenv("PAGER", fx->pager, 1);
        else
            unsetenv("PAGER");
        execl(pier, "pier", "--data", fx->f->dir, "shell", board,
              (char *)NULL);
        _exit(127);
    }
    fx->running = s->pid;
}

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Reads what the shell prints until `want` appears; forgets everything up
 * to and including it. */
static void expect_out(session *s, const char *want)
{
    long start = now_ms();
    for (;;) {
        s->out[s->len] = '\0';
        char *at = strstr(s->out, want);
        if (at != NULL) {
            size_t used = (size_t)(at - s->out) + strlen(want);
            memmove(s->out, s->out + used, s->len - used);
            s->len -= used;
            return;
        }
        if (now_ms() - start > WAIT_MS)
            fail_msg("waited for \"%s\"; the shell printed:\n%s", want,
                     s->log);
        struct pollfd p = { s->fd, POLLIN, 0 };
        if (poll(&p, 1, 200) <= 0)
            continue;
        if (s->len + 1 >= sizeof s->out)     /* keep the newest half */
            memmove(s->out, s->out + sizeof s->out / 2,
                    (s->len -= sizeof s->out / 2));
        if (take(s) <= 0)
            fail_msg("the shell ended while the test waited for \"%s\"; "
                     "it printed:\n%s", want, s->log);
    }
}

/* Waits until the line editor holds the terminal (ICANON off: the master
 * side of a pty reads the terminal's modes on Linux). Keys typed before
 * would meet the terminal's own line discipline, where Ctrl-D and Ctrl-C
 * mean something else. */
static void wait_editing(session *s)
{
    for (long start = now_ms(); now_ms() - start <= WAIT_MS;) {
        struct termios t;
        assert_int_equal(tcgetattr(s->fd, &t), 0);
        if ((t.c_lflag & ICANON) == 0)
            return;
        struct timespec pause = { 0, 5000000 };
        nanosleep(&pause, NULL);
    }
    fail_msg("the shell never started editing a line; it printed:\n%s",
             s->log);
}

static void type(session *s, const char *keys)
{
    wait_editing(s);
    size_t n = strlen(keys);
    assert_int_equal(write(s->fd, keys, n), (ssize_t)n);
}

/* Sends Ctrl-D on an empty line and returns the exit status; fails if
 * the shell does not end. */
static int finish(fixture *fx, session *s)
{
    type(s, "\x04");
    int status = 0;
    long start = now_ms();
    while (waitpid(s->pid, &status, WNOHANG) == 0) {
        if (now_ms() - start > WAIT_MS)
            fail_msg("the shell did not end on Ctrl-D; it printed:\n%s",
                     s->log);
        /* Once the shell closes the terminal, the master reads EIO at
         * once: the pause is what paces this loop then. */
        struct pollfd p = { s->fd, POLLIN, 0 };
        if (poll(&p, 1, 50) > 0 && s->len + 1 < sizeof s->out &&
            take(s) <= 0) {
            struct timespec pause = { 0, 20000000 };
            nanosleep(&pause, NULL);
        }
    }
    fx->running = 0;
    close(s->fd);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static void test_queries_and_commands(void **state)
{
    fixture *fx = *state;
    session s;
    start(&s, fx, "tasks");
    expect_out(&s, ".help lists the commands.");
    expect_out(&s, "pier:tasks> ");
    type(&s, "SELECT id, n, done FROM {{board}} ORDER BY id\r");
    expect_out(&s, "id  n  done");
    expect_out(&s, "a   1  true");
    expect_out(&s, "b   2  false");
    expect_out(&s, "(2 rows)");
    expect_out(&s, "pier:tasks> ");
    type(&s, ".boards\r");
    expect_out(&s, "notes");
    expect_out(&s, "tasks");
    type(&s, ".schema notes\r");
    expect_out(&s, "board notes");
    expect_out(&s, "text        text       inferred");
    type(&s, ".use notes\r");
    expect_out(&s, "pier:notes> ");
    type(&s, ".format jsonl\r");
    expect_out(&s, "pier:notes> ");
    type(&s, "SELECT id, text FROM {{board}}\r");
    expect_out(&s, "{\"id\":\"a\",\"text\":\"hi\"}");
    type(&s, ".format\r");
    expect_out(&s, "jsonl");
    type(&s, ".with tasks\r");
    type(&s, ".param k=2\r");
    type(&s, "SELECT t.n FROM {{board}} x JOIN {{board:tasks}} t "
             "WHERE t.n = :k\r");
    expect_out(&s, "{\"n\":2}");
    type(&s, ".param\r");
    expect_out(&s, "k=2");
    type(&s, ".timer on\r");
    type(&s, "SELECT 1 AS one FROM {{board}}\r");
    expect_out(&s, "{\"one\":1}");
    expect_out(&s, "time: ");
    expect_out(&s, " ms");
    /* Errors are reported and the shell goes on. */
    type(&s, "SELECT * FROM _pier_changes\r");
    expect_out(&s, "EntityNotAllowed");
    type(&s, ".use nope\r");
    expect_out(&s, "BoardNotFound: no board 'nope'");
    type(&s, ".nope\r");
    expect_out(&s, "unknown command '.nope'");
    expect_out(&s, "pier:notes> ");
    /* Interactive: failures do not make the exit status. */
    assert_int_equal(finish(fx, &s), 0);
}

static void test_line_editing_and_history(void **state)
{
    fixture *fx = *state;
    session s;
    start(&s, fx, "tasks");
    expect_out(&s, "pier:tasks> ");
    /* Ctrl-A moves to the start of the line: "elect" becomes "select". */
    type(&s, "elect count(*) AS rows_seen FROM {{board}}\x01s\r");
    expect_out(&s, "rows_seen");
    expect_out(&s, "(1 row)");
    expect_out(&s, "pier:tasks> ");
    /* Ctrl-P, then the up arrow, recall it. */
    type(&s, "\x10\r");
    expect_out(&s, "rows_seen");
    expect_out(&s, "(1 row)");
    expect_out(&s, "pier:tasks> ");
    type(&s, "\x1b[A\r");
    expect_out(&s, "rows_seen");
    expect_out(&s, "(1 row)");
    expect_out(&s, "pier:tasks> ");
    /* Ctrl-C abandons a half-typed line; the shell stays. */
    type(&s, "SELECT this is never run");
    expect_out(&s, "never run");
    wait_editing(&s);
    kill(s.pid, SIGINT);
    expect_out(&s, "pier:tasks> ");
    type(&s, "SELECT 'still' || ' here' AS s FROM {{board}} LIMIT 1\r");
    expect_out(&s, "still here");
    expect_out(&s, "pier:tasks> ");
    assert_int_equal(finish(fx, &s), 0);

    /* The history was saved line by line, without the abandoned line... */
    size_t n = 0;
    char *saved = lakedir_read_file(fx->history, &n);
    assert_non_null(saved);
    assert_non_null(strstr(saved, "rows_seen"));
    assert_non_null(strstr(saved, "still"));
    assert_null(strstr(saved, "never"));
    free(saved);

    /* ...and the next session recalls it. */
    start(&s, fx, "tasks");
    expect_out(&s, "pier:tasks> ");
    type(&s, "\x10\r");
    expect_out(&s, "still here");
    expect_out(&s, "(1 row)");
    assert_int_equal(finish(fx, &s), 0);
}

/* Waits until the editor has given the terminal back (ICANON on): the
 * line was entered and its statement runs, or is about to. */
static void wait_running(session *s)
{
    for (long start = now_ms(); now_ms() - start <= WAIT_MS;) {
        struct termios t;
        assert_int_equal(tcgetattr(s->fd, &t), 0);
        if ((t.c_lflag & ICANON) != 0)
            return;
        struct timespec pause = { 0, 5000000 };
        nanosleep(&pause, NULL);
    }
    fail_msg("the shell never ran the line; it printed:\n%s", s->log);
}

/* Ctrl-C while a statement runs stops the statement, not the shell: a
 * query without end (it would stop at the default 30 s time limit, with
 * another error), then a script in .sql mode, which writes nothing. */
static void test_ctrl_c_stops_a_statement(void **state)
{
    fixture *fx = *state;
    session s;
    start(&s, fx, "tasks");
    expect_out(&s, "pier:tasks> ");
    type(&s, "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 "
             "FROM r) SELECT i FROM r WHERE i < 0\r");
    wait_running(&s);
    kill(s.pid, SIGINT);
    expect_out(&s, "Interrupted");
    expect_out(&s, "pier:tasks> ");
    type(&s, "SELECT 'still' || ' here' AS s FROM {{board}} LIMIT 1\r");
    expect_out(&s, "still here");
    expect_out(&s, "pier:tasks> ");
    type(&s, ".sql\r");
    expect_out(&s, "pier:sql> ");
    type(&s, "CREATE TABLE t (n INT64);\r");
    expect_out(&s, "pier:sql> ");
    type(&s, "INSERT INTO t WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL "
             "SELECT i + 1 FROM r) SELECT i FROM r;\r");
    wait_running(&s);
    kill(s.pid, SIGINT);
    expect_out(&s, "Interrupted");
    expect_out(&s, "pier:sql> ");
    type(&s, "SELECT count(*) AS n FROM t;\r");
    expect_out(&s, "n\r\n0\r\n");
    expect_out(&s, "pier:sql> ");
    assert_int_equal(finish(fx, &s), 0);
}

/* Tab completes a dot-command, a board, a column and a file name, and
 * lists the candidates when they share no longer start. */
static void test_tab_completion(void **state)
{
    fixture *fx = *state;
    char *rows = lakedir_join(fx->f->dir, "rows_to_import.json");
    static const char json[] = "{\"id\":\"c\",\"n\":3,\"done\":true}\n";
    assert_int_equal(lakedir_write_file(rows, json, sizeof json - 1), 0);
    fx->rows = 100;          /* .help fits: no pager */
    session s;
    start(&s, fx, "notes");
    expect_out(&s, "pier:notes> ");
    type(&s, ".us\tta\t\r");               /* .use tasks */
    expect_out(&s, "pier:tasks> ");
    type(&s, "SELECT do\tFROM {{board}} WHERE n = 2\r");   /* done */
    expect_out(&s, "done\r\nfalse\r\n(1 row)");
    expect_out(&s, "pier:tasks> ");
    type(&s, ".he\t");                       /* .headers, .help */
    expect_out(&s, ".headers  .help\r\n");
    type(&s, "lp\r");
    expect_out(&s, "This help");
    expect_out(&s, "pier:tasks> ");
    /* a file: the fixture's directory, then the file in it */
    char line[1024];
    snprintf(line, sizeof line, ".import %s/rows_to_im\ttas\t\r",
             fx->f->dir);
    type(&s, line);
    expect_out(&s, "pier:tasks> ");
    type(&s, "SELECT count(*) AS n FROM {{board}}\r");
    expect_out(&s, "n\r\n3\r\n");
    free(rows);
    assert_int_equal(finish(fx, &s), 0);
}

/* On a terminal, a result taller than the terminal goes through $PAGER
 * (here a stub that marks its lines); one that fits, or any with .pager
 * off, prints as it is. */
static void test_pager(void **state)
{
    fixture *fx = *state;
    fx->pager = "sed 's/^/paged: /'";
    fx->rows = 6;
    session s;
    start(&s, fx, "tasks");
    expect_out(&s, "pier:tasks> ");
    type(&s, "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 "
             "FROM r WHERE i < 10) SELECT i FROM r\r");
    expect_out(&s, "paged: i\r\npaged: 1\r\n");
    expect_out(&s, "paged: 10\r\npaged: (10 rows)\r\n");
    expect_out(&s, "pier:tasks> ");
    type(&s, "SELECT count(*) AS n FROM {{board}}\r");
    expect_out(&s, "n\r\n2\r\n(1 row)\r\n");
    expect_out(&s, "pier:tasks> ");
    type(&s, ".pager off\r");
    expect_out(&s, "pier:tasks> ");
    type(&s, "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 "
             "FROM r WHERE i < 10) SELECT i AS k FROM r\r");
    expect_out(&s, "k\r\n1\r\n");
    expect_out(&s, "(10 rows)\r\n");
    expect_out(&s, "pier:tasks> ");
    assert_int_equal(finish(fx, &s), 0);
    assert_null(strstr(s.log, "paged: n"));
    assert_null(strstr(s.log, "paged: k"));
}

/* Ctrl-C stops an .import between batches, as it stops `insert -`: the
 * rows of the batch being read are not written, and the shell goes on.
 * The file is a FIFO the test holds open, so the load waits for more
 * input until the signal; Ctrl-C is sent until the load reports it, since
 * one that comes before the load takes SIGINT only reaches the shell. */
static void test_ctrl_c_stops_an_import(void **state)
{
    fixture *fx = *state;
    char *fifo = lakedir_join(fx->f->dir, "rows.fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    session s;
    start(&s, fx, "tasks");
    expect_out(&s, "pier:tasks> ");
    char line[1024];
    snprintf(line, sizeof line, ".import %s tasks\r", fifo);
    type(&s, line);
    int w = open(fifo, O_WRONLY);      /* once the shell opened it */
    assert_true(w >= 0);
    static const char row[] = "{\"id\":\"z\",\"n\":9}\n";
    assert_int_equal(write(w, row, sizeof row - 1),
                     (ssize_t)(sizeof row - 1));
    for (long start = now_ms(); strstr(s.log, "Interrupted") == NULL;) {
        if (now_ms() - start > WAIT_MS)
            fail_msg("the import never stopped; the shell printed:\n%s",
                     s.log);
        kill(s.pid, SIGINT);
        struct pollfd p = { s.fd, POLLIN, 0 };
        if (poll(&p, 1, 200) > 0)
            take(&s);
    }
    expect_out(&s, "Interrupted: interrupted by SIGINT (batch 1 of");
    expect_out(&s, "0 rows committed before it)");
    close(w);
    expect_out(&s, "pier:tasks> ");
    type(&s, "SELECT count(*) AS n FROM {{board}}\r");
    expect_out(&s, "n\r\n2\r\n");
    assert_int_equal(finish(fx, &s), 0);
    free(fifo);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_queries_and_commands),
        T(test_line_editing_and_history),
        T(test_ctrl_c_stops_a_statement),
        T(test_tab_completion),
        T(test_pager),
        T(test_ctrl_c_stops_an_import),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
