/*
 * waitfd.c: waiting on a descriptor without missing a signal
 * (cli_wait_fd, cli_write_all; declared in cli.h).
 *
 * A command that stops on SIGINT or SIGTERM has its handler set a flag
 * and looks at the flag between two reads or writes. A signal that comes
 * after the look and before the read or write begins would be missed,
 * and the read could wait for input that never comes (a producer keeping
 * its pipe open), or the write for a reader that never reads. So a read
 * or write waits in poll() first, a slice at a time, and looks at the
 * flag between slices; the write is at most PIPE_BUF into a pipe, which
 * poll's POLLOUT promises room for.
 */
#include <errno.h>
#include <poll.h>
#include <unistd.h>

#include "cli.h"

/* How long a wait for a descriptor goes before it looks at its stop flag
 * again: the longest a signal that came just before the wait can go
 * unseen. */
#define WAIT_SLICE_MS 100

int cli_wait_fd(int fd, short events, volatile sig_atomic_t *stop)
{
    struct pollfd p = { fd, events, 0 };
    for (;;) {
        if (stop != NULL && *stop != 0) {
            errno = EINTR;
            return 0;
        }
        int n = poll(&p, 1, WAIT_SLICE_MS);
        if (n > 0)
            return 1;               /* (an error or a hang-up too: the
                                     * read or write says which) */
        if (n < 0 && errno != EINTR)
            return -1;
    }
}

bool cli_write_all(int fd, const char *bytes, size_t len, size_t most,
                   volatile sig_atomic_t *stop)
{
    while (len > 0) {
        int ready = cli_wait_fd(fd, POLLOUT, stop);
        if (ready <= 0)
            return false;
        ssize_t put = write(fd, bytes, len < most ? len : most);
        if (put < 0) {
            if (errno == EINTR)
                continue;           /* (the wait looks at `stop`) */
            return false;
        }
        bytes += put;
        len -= (size_t)put;
    }
    return true;
}
