/*
 * random.c: random bytes from the kernel, for the UUIDs the SQL dialect
 * makes (uuid_v4, uuid_v7). getrandom(2) needs no file descriptor and
 * works in a chroot; /dev/urandom is for kernels before it (3.17).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include "base/base.h"

static bool from_urandom(unsigned char *p, size_t n)
{
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    while (n > 0) {
        ssize_t got = read(fd, p, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        p += got;
        n -= (size_t)got;
    }
    close(fd);
    return n == 0;
}

bool pier__random_bytes(void *buf, size_t n)
{
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t got = getrandom(p, n, 0);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return errno == ENOSYS && from_urandom(p, n);
        p += got;
        n -= (size_t)got;
    }
    return true;
}
