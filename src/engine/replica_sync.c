/*
 * replica_sync.c: a replica brought up to a watermark (replica_sync.h).
 *
 * Records are applied through the replica's own lake (the SQLite lake's
 * vtable), as the writes that made them: insert and upsert rows as
 * upserts with the record's stamp, updates as updates, deletes and
 * truncates. A record's rows are JSON of logical values (changes.c), each
 * encoded for its column as a write encodes it (pier__value_encode);
 * updated_at is the record's commit time. A record the replica cannot
 * apply exactly (a schema change, a column it does not have, a value that
 * does not fit, an update of a row it lacks) makes it rebuild instead:
 * never served wrong.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/pg_catalog.h"
#include "engine/replica_sync.h"
#include "engine/rows.h"
#include "store/lake.h"

/* Records read and applied per transaction of the replica. */
#define PAGE 500

/* One page being applied. */
typedef struct applying {
    pier__lake *lake;
    pier__board *b;
    pier_error *err;
    pier_status rc;
    bool stale;                /* a record the replica cannot take */
    bool dropped;              /* a drop record */
    int64_t last;              /* the watermark applied up to */
    int64_t target;
    int64_t applied;
} applying;

/* The cells of field range [from, to) of `rows` for board b: ncolumns
 * cells, NULL where the row has nothing; the patch's columns in cols
 * (ncols of them) when cols is given. False when a field names no column
 * of the replica or does not fit it (the replica is behind the lake's
 * schema). */
static bool cells_of(const pier__board *b, const pier_rows *rows,
                     size_t from, size_t to, pier__cell *cells,
                     size_t *cols, size_t *ncols, pier__arena *a)
{
    for (size_t k = 0; k < b->ncolumns; k++)
        cells[k] = (pier__cell){ .st = PIER__ST_NULL };
    if (ncols != NULL)
        *ncols = 0;
    for (size_t f = from; f < to; f++) {
        const pier__field *fd = &rows->fields[f];
        ptrdiff_t k = pier__board_find(b, fd->name, fd->name_len);
        if (k < 0 || k == PIER__COL_UPDATED_AT)
            return false;
        if (pier__value_encode(&cells[k], &fd->value, b->columns[k].type, a,
                               NULL) != PIER__FIT_OK)
            return false;
        if (cols != NULL && k != PIER__COL_ID)
            cols[(*ncols)++] = (size_t)k;
    }
    return cells[PIER__COL_ID].st == PIER__ST_TEXT;
}

/* {"rows":[...]}: each row, upserted with the record's stamp. */
static pier_status apply_rows(applying *ap, const pier__pg_change *rec,
                              pier__cell *cells, pier__arena *a)
{
    static const char head[] = "{\"rows\":";
    size_t hn = sizeof head - 1;
    if (rec->len < hn + 2 || memcmp(rec->payload, head, hn) != 0 ||
        rec->payload[rec->len - 1] != '}') {
        ap->stale = true;
        return PIER_OK;
    }
    pier_rows rows;
    pier__rows_init(&rows);
    pier_status rc = pier__json_rows_read(&rows, rec->payload + hn,
                                          rec->len - hn - 1, ap->err);
    if (rc != PIER_OK && rc != PIER_E_OUT_OF_MEMORY) {
        ap->stale = true;              /* (a record it cannot read) */
        rc = PIER_OK;
    }
    for (size_t r = 0; rc == PIER_OK && !ap->stale && r < rows.nrows; r++) {
        if (!cells_of(ap->b, &rows, rows.row_start[r],
                      pier__rows_row_end(&rows, r), cells, NULL, NULL, a)) {
            ap->stale = true;
            break;
        }
        cells[PIER__COL_UPDATED_AT] =
            (pier__cell){ .st = PIER__ST_INT, .i = rec->committed_at };
        size_t failed = 0;
        rc = ap->lake->ops->rows_write(ap->lake, ap->b, PIER__WRITE_UPSERT,
                                       cells, 1, rec->stamp, &failed,
                                       ap->err);
    }
    pier__rows_release(&rows);
    return rc;
}

/* {"id":ID,"patch":{...}}: the row's columns set, as the update did. */
static pier_status apply_update(applying *ap, const pier__pg_change *rec,
                                pier__cell *cells, size_t *cols,
                                pier__arena *a)
{
    pier__buf wrapped;
    pier__buf_init(&wrapped);
    pier__buf_putc(&wrapped, '[');
    pier__buf_append(&wrapped, rec->payload, rec->len);
    pier__buf_putc(&wrapped, ']');
    pier_rows rows;
    pier__rows_init(&rows);
    pier_status rc = wrapped.oom ? pier__oom(ap->err)
                                 : pier__json_patches_read(&rows, wrapped.p,
                                                           wrapped.len,
                                                           ap->err);
    if (rc != PIER_OK && rc != PIER_E_OUT_OF_MEMORY) {
        ap->stale = true;              /* (a record it cannot read) */
        rc = PIER_OK;
    }
    size_t n = 0;
    if (rc == PIER_OK && !ap->stale &&
        (rows.nrows != 1 ||
         !cells_of(ap->b, &rows, 0, rows.nfields, cells, cols, &n, a)))
        ap->stale = true;
    pier__cell *values = NULL;
    if (rc == PIER_OK && !ap->stale && n > 0) {
        values = malloc(n * sizeof *values);
        if (values == NULL)
            rc = pier__oom(ap->err);
        for (size_t i = 0; values != NULL && i < n; i++)
            values[i] = cells[cols[i]];
    }
    bool found = true;
    if (rc == PIER_OK && !ap->stale)
        rc = ap->lake->ops->row_update(
            ap->lake, ap->b, cells[PIER__COL_ID].p, cells[PIER__COL_ID].n,
            cols, values, n, rec->committed_at, rec->stamp, &found,
            ap->err);
    if (rc == PIER_OK && !found)
        ap->stale = true;              /* (an update of a row it lacks) */
    free(values);
    pier__rows_release(&rows);
    pier__buf_free(&wrapped);
    return rc;
}

/* {"ids":[ID...]}: those rows deleted. */
static pier_status apply_delete(applying *ap, const pier__pg_change *rec)
{
    json_t *doc = json_loadb(rec->payload, rec->len, 0, NULL);
    json_t *ids = doc != NULL ? json_object_get(doc, "ids") : NULL;
    if (!json_is_array(ids)) {
        ap->stale = true;
        json_decref(doc);
        return PIER_OK;
    }
    size_t n = json_array_size(ids);
    const char **list = malloc((n > 0 ? n : 1) * sizeof *list);
    pier_status rc = list != NULL ? PIER_OK : pier__oom(ap->err);
    for (size_t i = 0; rc == PIER_OK && i < n; i++) {
        list[i] = json_string_value(json_array_get(ids, i));
        ap->stale = ap->stale || list[i] == NULL;
    }
    int64_t deleted = 0;
    if (rc == PIER_OK && !ap->stale && n > 0)
        rc = ap->lake->ops->rows_delete(ap->lake, ap->b, list, n, &deleted,
                                        ap->err);
    free(list);
    json_decref(doc);
    return rc;
}

static bool apply_one(void *payload, const pier__pg_change *rec)
{
    applying *ap = payload;
    if (rec->watermark > ap->target)
        return false;
    pier__cell *cells = calloc(ap->b->ncolumns, sizeof *cells);
    size_t *cols = calloc(ap->b->ncolumns, sizeof *cols);
    pier__arena a;
    pier__arena_init(&a);
    if (cells == NULL || cols == NULL)
        ap->rc = pier__oom(ap->err);
    else if (strcmp(rec->kind, "insert") == 0 ||
             strcmp(rec->kind, "upsert") == 0)
        ap->rc = apply_rows(ap, rec, cells, &a);
    else if (strcmp(rec->kind, "update") == 0)
        ap->rc = apply_update(ap, rec, cells, cols, &a);
    else if (strcmp(rec->kind, "delete") == 0)
        ap->rc = apply_delete(ap, rec);
    else if (strcmp(rec->kind, "truncate") == 0)
        ap->rc = ap->lake->ops->board_truncate(ap->lake, ap->b, ap->err);
    else if (strcmp(rec->kind, "drop") == 0)
        ap->dropped = true;
    else
        ap->stale = true;              /* schema, or a kind it lacks */
    pier__arena_free(&a);
    free(cells);
    free(cols);
    if (ap->rc == PIER_OK && !ap->stale && !ap->dropped) {
        ap->last = rec->watermark;
        ap->applied++;
    }
    return ap->rc == PIER_OK && !ap->stale && !ap->dropped;
}

/* Applies one page of records after meta->watermark to the replica in
 * `lake`, with its new watermark, in one transaction. *more: a page was
 * full. */
static pier_status apply_page(PGconn *c, const char *ns, pier__lake *lake,
                              pier__board *b, pier__replica_meta *meta,
                              int64_t target, applying *ap, bool *more,
                              pier_error *err)
{
    *ap = (applying){ .lake = lake, .b = b, .err = err, .rc = PIER_OK,
                      .last = meta->watermark, .target = target };
    pier_status rc = lake->ops->begin_write(lake, err);
    int64_t head = 0;
    if (rc == PIER_OK)
        rc = pier__pg_log_after(c, ns, b->id, meta->watermark, PAGE,
                                apply_one, ap, &head, err);
    if (rc == PIER_OK)
        rc = ap->rc;
    /* no record of the board up to the target: it is there already */
    int64_t reached = ap->applied == PAGE ? ap->last
                      : target < head     ? target
                                          : head;
    pier__replica_meta now = *meta;
    now.watermark = reached;
    if (rc == PIER_OK && !ap->stale && !ap->dropped)
        rc = pier__replica_meta_write(lake, &now, err);
    if (rc == PIER_OK && !ap->stale && !ap->dropped)
        rc = lake->ops->commit(lake, err);
    if (rc != PIER_OK || ap->stale || ap->dropped) {
        lake->ops->rollback(lake);
        return rc;
    }
    meta->watermark = reached;
    *more = ap->applied == PAGE && reached < target;
    return PIER_OK;
}

/* Applies records until the target, a page at a time. */
static pier_status apply_all(PGconn *c, const char *ns, const char *dir,
                             pier__replica_meta *meta, int64_t target,
                             pier__sync_report *report, bool *stale,
                             bool *dropped, pier_error *err)
{
    pier__lake *lake = NULL;
    const pier__lake_config cfg = { .durability = PIER_DURABILITY_NORMAL,
                                    .busy_timeout_ms = 5000 };
    pier_error ignored;
    pier__catalog cat;
    pier__catalog_init(&cat);
    /* a replica that does not open, or whose catalog does not read, is
     * made again (it is a cache) */
    if (pier__sqlite_lake_open(&lake, dir, &cfg, &ignored) != PIER_OK ||
        lake->ops->catalog_load(lake, &cat, &ignored) != PIER_OK) {
        *stale = true;
        pier__catalog_clear(&cat);
        if (lake != NULL)
            lake->ops->close(lake);
        return PIER_OK;
    }
    pier_status rc = PIER_OK;
    pier__board *b = NULL;
    for (size_t i = 0; rc == PIER_OK && i < cat.nboards; i++)
        b = cat.boards[i];
    if (rc == PIER_OK && (cat.nboards != 1 || b == NULL))
        *stale = true;
    bool more = true;
    while (rc == PIER_OK && !*stale && !*dropped && more &&
           meta->watermark < target) {
        applying ap;
        rc = apply_page(c, ns, lake, b, meta, target, &ap, &more, err);
        report->applied += ap.applied;
        *stale = ap.stale;
        *dropped = ap.dropped;
    }
    pier__catalog_clear(&cat);
    if (lake != NULL)
        lake->ops->close(lake);
    return rc;
}

/* The lake's retention floor. */
static pier_status floor_of(PGconn *c, const char *ns, int64_t *out,
                            pier_error *err)
{
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT value FROM \"%s\".meta WHERE key = "
             "'floor'", ns);
    PGresult *r = PQexec(c, sql);
    pier_status rc = PIER_OK;
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1)
        rc = pier__pg_fail(r, c, PIER_E_READ_FAILED,
                           "cannot read the lake's retention floor", err);
    else
        *out = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    return rc;
}

pier_status pier__replica_sync(PGconn *c, const char *ns, int64_t identity,
                               const char *board, const char *dir,
                               int64_t target, pier__replica_meta *out,
                               pier__sync_report *report, pier_error *err)
{
    *report = (pier__sync_report){ 0 };
    pier_error ignored;
    bool stale = pier__replica_meta_read(dir, out, &ignored) != PIER_OK ||
                 out->identity != identity;
    int64_t key = 0, floor = 0;
    pier_status rc = PIER_OK;
    if (!stale) {
        /* (a board dropped and made again has another key) */
        rc = pier__pg_board_key(c, ns, board, &key, err);
        if (rc == PIER_E_BOARD_NOT_FOUND) {
            pier__replica_remove(dir, &ignored);
            return rc;
        }
        stale = rc == PIER_OK && key != out->board_key;
    }
    if (rc == PIER_OK && !stale)
        rc = floor_of(c, ns, &floor, err);
    stale = stale || out->watermark < floor;
    bool dropped = false;
    if (rc == PIER_OK && !stale && out->watermark < target)
        rc = apply_all(c, ns, dir, out, target, report, &stale, &dropped,
                       err);
    if (rc == PIER_OK && dropped) {
        pier__replica_remove(dir, &ignored);
        rc = pier__fail(err, PIER_E_BOARD_NOT_FOUND, "board '%s' was "
                        "dropped", board);
        pier__error_board(err, board);
    }
    if (rc == PIER_OK && stale) {
        rc = pier__replica_rebuild(c, ns, identity, board, dir, out, err);
        report->rebuilt = rc == PIER_OK;
    }
    /* the server could not be read, or the replica written (its disk, its
     * directory): it stays as it was, behind */
    if (rc == PIER_E_READ_FAILED || rc == PIER_E_WRITE_FAILED ||
        rc == PIER_E_LAKE_UNAVAILABLE) {
        char msg[sizeof err->message];
        pier__copy_field(msg, sizeof msg, err != NULL ? err->message : "");
        rc = pier__fail(err, PIER_E_SYNC_FAILED, "cannot sync the replica of "
                        "board '%s': %s", board, msg);
        pier__error_board(err, board);
    }
    return rc;
}
