/*
 * memory.c: releasing what the library hands out, and its version.
 */
#include <stdlib.h>

#include "base/base.h"

PIER_API void pier_free(void *p)
{
    free(p);
}

PIER_API void pier_strings_free(char **strings)
{
    if (strings == NULL)
        return;
    for (char **s = strings; *s != NULL; s++)
        free(*s);
    free(strings);
}

PIER_API int pier_version_number(void)
{
    return PIER_VERSION_NUMBER;
}

PIER_API const char *pier_version(void)
{
    return PIER_VERSION;
}
