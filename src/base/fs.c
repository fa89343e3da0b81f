/*
 * fs.c: directories made as `mkdir -p` makes them (a lake's data
 * directory, a node's cache, a migration files' directory).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "base/base.h"

int pier__mkdir_p(const char *dir, unsigned mode)
{
    char *path = pier__strdup(dir);
    if (path == NULL)
        return ENOMEM;
    int rc = 0;
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(path, (mode_t)mode) != 0 && errno != EEXIST) {
            rc = errno;
            break;
        }
        *p = saved;
        if (saved == '\0')
            break;
    }
    free(path);
    return rc;
}
