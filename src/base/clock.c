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
