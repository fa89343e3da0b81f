/*
 * versions.c: the versions of the libraries the lakes run on, as linked
 * (not as compiled against), for `pier --version` and bug reports: a
 * program that links libpier statically or dynamically may run on another
 * libsqlite3 or libpq than the one it was built with.
 */
#include <libpq-fe.h>
#include <sqlite3.h>

#include "base/base.h"

PIER_API const char *pier_sqlite_version(void)
{
    return sqlite3_libversion();
}

PIER_API int pier_libpq_version(void)
{
    return PQlibVersion();
}
