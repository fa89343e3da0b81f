/*
 * changes.c: the change records that writes and schema changes append, in
 * the same transaction as the change itself.
 *
 * Payloads are JSON that let a consumer rebuild a board exactly:
 *   schema    {"op":"create_board","strict":B,"columns":[COLUMN...]}
 *             {"op":"add_column","column":COLUMN}
 *             {"op":"widen_column","column":COLUMN,"from":TYPE}
 *   insert    {"rows":[ROW...]}      new rows
 *   upsert    {"rows":[ROW...]}      complete rows, each replacing any row
 *                                    of its id
 *   update    {"id":ID,"patch":{...}}  one record per patch, in order;
 *                                    a null in the patch clears the column
 *   delete    {"ids":[ID...]}        ids not there are listed too
 *   truncate  {}
 *   drop      {"drop":true}
 * where COLUMN is {"id":N,"name":S,"type":S,"origin":S}: the stable id
 * travels with every schema record, so a consumer follows renames and never
 * has to start over because of one. A ROW holds every non-null column (an
 * absent column reads null) with its logical value; updated_at is left
 * out of rows and patches: it is the record's committed_at.
 */
#include <string.h>

#include "engine/engine.h"

void pier__change_column_json(pier__buf *b, const pier__column *c)
{
    pier__buf_printf(b, "{\"id\":%lld,\"name\":", (long long)c->id);
    pier__buf_json_string(b, c->name, strlen(c->name));
    /* A type's name may hold quotes and any text (an enum's labels). */
    const char *type = pier__type_name(c->type);
    pier__buf_puts(b, ",\"type\":");
    pier__buf_json_string(b, type, strlen(type));
    pier__buf_printf(b, ",\"origin\":\"%s\"}", pier__origin_name(c->origin));
}

static pier_status append(pier__write *w, const char *board,
                          const char *kind, pier__buf *payload,
                          pier_error *err)
{
    pier_status rc;
    pier__lake *lake = w->e->lake;
    int64_t wm = 0;
    if (payload->oom)
        rc = pier__oom(err);
    else
        rc = lake->ops->change_append(lake, board, kind, payload->p,
                                      payload->len, w->now, w->stamp, &wm,
                                      err);
    if (rc == PIER_OK)
        rc = pier__engine_touch(w->e, board, wm, err);
    if (rc == PIER_OK)
        w->watermark = wm;
    pier__buf_free(payload);
    return rc;
}

pier_status pier__change_append(pier__write *w, const char *board,
                                const char *kind, pier__buf *payload,
                                pier_error *err)
{
    return append(w, board, kind, payload, err);
}

pier_status pier__change_board_created(pier__write *w, const pier__board *b,
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
    return append(w, b->id, "schema", &p, err);
}

pier_status pier__change_column_added(pier__write *w, const pier__board *b,
                                      size_t col, pier_error *err)
{
    pier__buf p;
    pier__buf_init(&p);
    pier__buf_puts(&p, "{\"op\":\"add_column\",\"column\":");
    pier__change_column_json(&p, &b->columns[col]);
    pier__buf_putc(&p, '}');
    return append(w, b->id, "schema", &p, err);
}

pier_status pier__change_column_widened(pier__write *w, const pier__board *b,
                                        size_t col, pier__type from,
                                        pier_error *err)
{
    pier__buf p;
    pier__buf_init(&p);
    pier__buf_puts(&p, "{\"op\":\"widen_column\",\"column\":");
    pier__change_column_json(&p, &b->columns[col]);
    const char *type = pier__type_name(from);
    pier__buf_puts(&p, ",\"from\":");
    pier__buf_json_string(&p, type, strlen(type));
    pier__buf_putc(&p, '}');
    return append(w, b->id, "schema", &p, err);
}

pier_status pier__change_simple(pier__write *w, const char *board,
                                const char *kind, const char *payload,
                                pier_error *err)
{
    pier__buf p;
    pier__buf_init(&p);
    pier__buf_puts(&p, payload);
    return append(w, board, kind, &p, err);
}
