/*
 * head.c: a node's cache of its lake's head (head.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cluster/head.h"
#include "cluster/pg_catalog.h"

void pier__head_init(pier__head_cache *h, int64_t refresh_us)
{
    *h = (pier__head_cache){ .refresh_us = refresh_us > 0 ? refresh_us : 0 };
}

bool pier__head_stale(const pier__head_cache *h, int64_t now_us,
                      int64_t min_watermark)
{
    return h->read_at_us == 0 || min_watermark > h->head ||
           now_us - h->read_at_us >= h->refresh_us ||
           now_us < h->read_at_us;     /* (a clock that went back) */
}

void pier__head_heard(pier__head_cache *h, int64_t head, int64_t now_us)
{
    if (head > h->head)
        h->head = head;
    h->read_at_us = now_us;
}

void pier__head_raise(pier__head_cache *h, int64_t watermark)
{
    if (watermark > h->head)
        h->head = watermark;
}

int64_t pier__head_target(const pier__head_cache *h, int64_t min_watermark)
{
    return min_watermark > h->head ? min_watermark : h->head;
}

pier_status pier__head_read(pier__head_cache *h, PGconn *c, const char *ns,
                            int64_t now_us, pier_error *err)
{
    if (!pier__pg_namespace_valid(ns))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "reading a head needs a lake");
    char sql[120];
    snprintf(sql, sizeof sql, "SELECT watermark FROM \"%s\".head", ns);
    PGresult *r = PQexec(c, sql);
    pier_status rc = PIER_OK;
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1)
        rc = pier__pg_fail(r, c, PIER_E_READ_FAILED,
                           "cannot read the lake's head", err);
    else
        pier__head_heard(h, strtoll(PQgetvalue(r, 0, 0), NULL, 10), now_us);
    PQclear(r);
    return rc;
}
