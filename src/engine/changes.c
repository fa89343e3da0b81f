/*
 * changes.c: the change records that writes and schema changes append, in
 * the same transaction as the change itself.
 *
 * Payloads are JSON that let a consumer rebuild a board exactly:
 *   schema    {"op":"create_board","strict":B,"columns":[COLUMN...]}
 *             {"op":"add_column","column":COLUMN}
 *             {"op":"widen_column","column":COLUMN,"from":TYPE}
 *   insert    {"rows":[ROW...]}      every non-null column (an absent
 *                                    column reads null), logical values;
 *                                    updated_at is left out: it is the
 *                                    record's committed_at
 *   truncate  {}
 *   drop      {"drop":true}
 * where COLUMN is {"id":N,"name":S,"type":S,"origin":S}: the stable id
 * travels with every schema record, so a consumer follows renames and never
 * has to start over because of one.
 */
#include <string.h>

#include "engine/engine.h"

static const char *const origin_names[] = {
    [PIER_ORIGIN_BASE] = "base",
    [PIER_ORIGIN_DECLARED] = "declared",
    [PIER_ORIGIN_INFERRED] = "inferred",
};

void pier__change_column_json(pier__buf *b, const pier__column *c)
{
    pier__buf_printf(b, "{\"id\":%lld,\"name\":", (long long)c->id);
    pier__buf_json_string(b, c->name, strlen(c->name));
    pier__buf_printf(b, ",\"type\":\"%s\",\"origin\":\"%s\"}",
                     pier__type_name(c->type), origin_names[c->origin]);
}

static pier_status append(pier_engine *e, const char *board,
                          const char *kind, pier__buf *payload, int64_t now,
                          int64_t *watermark, pier_error *err)
{
    pier_status rc;
    if (payload->oom)
        rc = pier__oom(err);
    else
        rc = e->lake->ops->change_append(e->lake, board, kind, payload->p,
                                         payload->len, now, watermark, err);
    pier__buf_free(payload);
    return rc;
}

pier_status pier__change_board_created(pier_engine *e, const pier__board *b,
                                       int64_t now, int64_t *watermark,
                                       pier_error *err)
{
    pier__buf p;
    pier__buf_init(&p);
    pier__buf_printf(&p, "{\"op\":\"create_board\",\"strict\":%s,"
                     "\"columns\":[", b->strict ? "true" : "false");
    for (size_t i = 0; i < b->ncolumns; i++) {
        if (i > 0)
            pier__buf_putc(&p, ',');
        pier__change_column_json(&p, &b->columns[i]);
    }
    pier__buf_puts(&p, "]}");
    return append(e, b->id, "schema", &p, now, watermark, err);
}

pier_status pier__change_column_added(pier_engine *e, const pier__board *b,
                                      size_t col, int64_t now,
                                      int64_t *watermark, pier_error *err)
{
    pier__buf p;
    pier__buf_init(&p);
    pier__buf_puts(&p, "{\"op\":\"add_column\",\"column\":");
    pier__change_column_json(&p, &b->columns[col]);
    pier__buf_putc(&p, '}');
    return append(e, b->id, "schema", &p, now, watermark, err);
}

pier_status pier__change_column_widened(pier_engine *e, const pier__board *b,
                                        size_t col, pier__type from,
                                        int64_t now, int64_t *watermark,
                                        pier_error *err)
{
    pier__buf p;
    pier__buf_init(&p);
    pier__buf_puts(&p, "{\"op\":\"widen_column\",\"column\":");
    pier__change_column_json(&p, &b->columns[col]);
    pier__buf_printf(&p, ",\"from\":\"%s\"}", pier__type_name(from));
    return append(e, b->id, "schema", &p, now, watermark, err);
}

pier_status pier__change_simple(pier_engine *e, const char *board,
                                const char *kind, const char *payload,
                                int64_t now, int64_t *watermark,
                                pier_error *err)
{
    pier__buf p;
    pier__buf_init(&p);
    pier__buf_puts(&p, payload);
    return append(e, board, kind, &p, now, watermark, err);
}
