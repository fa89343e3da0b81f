/*
 * pg_rows.h: a board's rows in a PostgreSQL lake (docs/architecture.md,
 * "Rows"): "<ns>".r<board_key>, id text under the C collation (which
 * sorts bytewise, as SQLite's BINARY does), updated_at bigint, _v (the
 * version stamp) bigint, and cells bytea: the other columns' cells,
 * packed (pier__pg_cells_pack), each as the SQLite lake stores it: a byte
 * for the storage class, then the value. Every call runs in the caller's
 * transaction; a failed one leaves it to be rolled back.
 */
#ifndef PIER_CLUSTER_PG_ROWS_H
#define PIER_CLUSTER_PG_ROWS_H

#include <libpq-fe.h>

#include "cluster/pg_catalog.h"
#include "store/lake.h"

/* A cell's bytes: 'i' and 8 bytes big-endian, 'r' and the 8 bytes of
 * the double big-endian, 't' or 'b' and the bytes; SQL NULL (no bytes)
 * for null, which pier__pg_cell_encode reports as false. */
bool pier__pg_cell_encode(pier__buf *out, const pier__cell *c);
/* Reads a cell's bytes back; false when they are not a cell's. Text and
 * blobs point into p. */
bool pier__pg_cell_decode(const char *p, size_t n, pier__cell *out);

/*
 * Writes nrows rows of b->ncolumns cells (row-major: id, updated_at,
 * state, the others) with version stamp `stamp`, as the lake's rows_write
 * (store/lake.h): PIER__WRITE_INSERT fails with PIER_E_DUPLICATE_ID on a
 * stored id (*failed_row says which); PIER__WRITE_UPSERT replaces a
 * stored row when `stamp` is at least its stamp.
 * @return PIER_E_WRITE_FAILED with the server's message.
 */
pier_status pier__pg_rows_write(PGconn *c, const char *ns, int64_t key,
                                const pier__board *b, int mode,
                                const pier__cell *cells, size_t nrows,
                                int64_t stamp, size_t *failed_row,
                                pier_error *err);
/* pier__pg_rows_write through the statement prepared as `prepared` on c
 * (NULL: none), whose text pier__pg_rows_write_sql gives. */
pier_status pier__pg_rows_write_as(PGconn *c, const char *prepared,
                                   const char *ns, int64_t key,
                                   const pier__board *b, int mode,
                                   const pier__cell *cells, size_t nrows,
                                   int64_t stamp, size_t *failed_row,
                                   pier_error *err);
/* The text of the statement writing one row of the board of key `key`
 * (mode: PIER__WRITE_INSERT or PIER__WRITE_UPSERT); its parameters: id,
 * updated_at, stamp, cells. */
void pier__pg_rows_write_sql(pier__buf *sql, const char *ns, int64_t key,
                             int mode);

/* Sets columns cols[0..n) (board indexes, not id) of row `id` to
 * cells[0..n), updated_at and the stamp; *found false when there is no
 * such row (nothing changes). */
pier_status pier__pg_row_update(PGconn *c, const char *ns, int64_t key,
                                const pier__board *b, const char *id,
                                const size_t *cols, const pier__cell *cells,
                                size_t n, int64_t updated_at, int64_t stamp,
                                bool *found, pier_error *err);
/* Deletes the rows of these ids; *deleted counts those there were. */
pier_status pier__pg_rows_delete(PGconn *c, const char *ns, int64_t key,
                                 const char *const *ids, size_t nids,
                                 int64_t *deleted, pier_error *err);
/* Calls cb for the row of this id (id != NULL) or every row in id order,
 * one cell per column of b (cells valid during the call). */
pier_status pier__pg_rows_scan(PGconn *c, const char *ns, int64_t key,
                               const pier__board *b, const char *id,
                               pier__row_cb cb, void *payload,
                               pier_error *err);
/* Every row in id order, as pier__pg_rows_scan gives them, with one cell
 * more: the row's version stamp (an INT). */
pier_status pier__pg_rows_scan_stamped(PGconn *c, const char *ns,
                                       int64_t key, const pier__board *b,
                                       pier__row_cb cb, void *payload,
                                       pier_error *err);
pier_status pier__pg_rows_count(PGconn *c, const char *ns, int64_t key,
                                int64_t *out, pier_error *err);

/* Re-renders every stored cell of b->columns[col] (of type `from`) as
 * its canonical text (pier__cell_to_text), row by row.
 * @return PIER_E_WRITE_FAILED, also for a cell that does not match
 *         `from`. */
pier_status pier__pg_cells_to_text(PGconn *c, const char *ns, int64_t key,
                                   const pier__board *b, size_t col,
                                   pier__type from, pier_error *err);

/* Appends the cells of row (b->ncolumns of them) but id and updated_at,
 * packed: for each that is not null, in board order, its column's id (8
 * bytes big-endian), its length (4 bytes big-endian) and its bytes
 * (pier__pg_cell_encode). False when out of memory. */
bool pier__pg_cells_pack(pier__buf *out, const pier__board *b,
                         const pier__cell *row);
/* Reads packed cells back into row[PIER__COL_STATE..b->ncolumns): null
 * where the record has none; a column id the board does not have is
 * passed over. False when the bytes are not packed cells. Text and blobs
 * point into p. */
bool pier__pg_cells_unpack(const char *p, size_t n, const pier__board *b,
                           pier__cell *row);

#endif /* PIER_CLUSTER_PG_ROWS_H */
