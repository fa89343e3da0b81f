/*
 * clock.c: the system clock, the default of pier_open_options.clock.
 */
#include <time.h>

#include "base/base.h"

int64_t pier__clock_system(void *payload)
{
    (void)payload;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t pier__clock_monotonic(void)
{
    struct timespec ts;
#ifdef CLOCK_MONOTONIC_COARSE
    /* The kernel's tick (1 to 4 ms), read without a system call in a few
     * nanoseconds: ample for limits counted in milliseconds, and cheap
     * enough to read around every step of a query. */
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
#else
    clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
