/*
 * fuzz_pg_cells.c: the cell encoding of the PostgreSQL lake
 * (src/cluster/pg_rows.c), which reads back whatever bytes a lake's
 * bytea column holds: any input is a cell's bytes, or refused; and a
 * row's packed cells, or refused.
 *
 * Invariants:
 * - pier__pg_cell_decode reads nothing past the input, and a refusal
 *   leaves a NULL cell;
 * - bytes it accepts encode back (pier__pg_cell_encode) to the same bytes,
 *   and those decode to the same cell: one encoding per value;
 * - a cell made from the input's bytes (each storage class in turn)
 *   encodes to bytes that decode to it, byte for byte (a double by its
 *   bits, a negative zero and a NaN's payload included);
 * - pier__pg_cells_unpack of the input, for a board of four columns,
 *   reads nothing past it, and what it accepts packs to bytes that
 *   unpack to the same cells (a column id the board lacks is passed
 *   over, so the bytes themselves may differ);
 * - a row made of the cells above packs and unpacks to itself.
 */
#include <stdlib.h>
#include <string.h>

#include "cluster/pg_rows.h"
#include "support/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A board of four columns besides the base ones, ids 3 to 6 (its id
 * and updated_at cells are not packed). */
static pier__board *board_of_four(void)
{
    static pier__board *b;
    if (b != NULL)
        return b;
    b = pier__board_new("fuzz", false, 0);
    const char *names[] = { "a", "b", "c", "d" };
    for (size_t i = 0; b != NULL && i < 4; i++) {
        pier__type t = { PIER_KIND_TEXT, NULL };
        if (!pier__board_append(b, names[i], 1, t, PIER_ORIGIN_INFERRED))
            abort();
    }
    if (b == NULL)
        abort();
    for (size_t i = 0; i < b->ncolumns; i++)
        b->columns[i].id = (int64_t)i + 1;
    return b;
}

static bool same(const pier__cell *a, const pier__cell *b)
{
    if (a->st != b->st)
        return false;
    switch (a->st) {
    case PIER__ST_INT:
        return a->i == b->i;
    case PIER__ST_REAL:
        return memcmp(&a->d, &b->d, sizeof a->d) == 0;
    case PIER__ST_TEXT:
    case PIER__ST_BLOB:
        return a->n == b->n && (a->n == 0 || memcmp(a->p, b->p, a->n) == 0);
    default:
        return true;
    }
}

/* c encodes to bytes that decode to c. */
static void round_trip(const pier__cell *c)
{
    pier__buf b;
    pier__buf_init(&b);
    bool present = pier__pg_cell_encode(&b, c);
    FZ_CHECK(!b.oom, "out of memory");
    pier__cell back;
    if (!present) {
        FZ_CHECK(c->st == PIER__ST_NULL && b.len == 0,
                 "a cell of a class encoded as nothing");
    } else {
        FZ_CHECK(pier__pg_cell_decode(b.p, b.len, &back),
                 "an encoded cell does not decode");
        FZ_CHECK(same(c, &back), "a cell does not come back as it was");
    }
    pier__buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* (a copy of exactly size bytes, so ASan sees a read past it) */
    char *in = malloc(size > 0 ? size : 1);
    if (in == NULL)
        return 0;
    if (size > 0)
        memcpy(in, data, size);
    pier__cell c;
    if (pier__pg_cell_decode(in, size, &c)) {
        pier__buf b;
        pier__buf_init(&b);
        FZ_CHECK(pier__pg_cell_encode(&b, &c) && !b.oom,
                 "a decoded cell does not encode");
        FZ_CHECK(b.len == size && memcmp(b.p, in, size) == 0,
                 "a cell's bytes do not encode back to themselves");
        pier__buf_free(&b);
        round_trip(&c);
    } else {
        FZ_CHECK(c.st == PIER__ST_NULL, "a refused cell is not NULL");
    }
    int64_t i = 0;
    double d = 0;
    memcpy(&i, in, size < 8 ? size : 8);
    memcpy(&d, in, size < 8 ? size : 8);
    const pier__cell made[] = {
        { .st = PIER__ST_NULL },
        { .st = PIER__ST_INT, .i = i },
        { .st = PIER__ST_REAL, .d = d },
        { .st = PIER__ST_TEXT, .p = in, .n = size },
        { .st = PIER__ST_BLOB, .p = in, .n = size },
    };
    for (size_t k = 0; k < sizeof made / sizeof made[0]; k++)
        round_trip(&made[k]);

    /* packed rows */
    const pier__board *b = board_of_four();
    pier__cell row[8], again[8];
    if (pier__pg_cells_unpack(in, size, b, row)) {
        pier__buf p;
        pier__buf_init(&p);
        FZ_CHECK(pier__pg_cells_pack(&p, b, row) && !p.oom,
                 "unpacked cells do not pack");
        FZ_CHECK(pier__pg_cells_unpack(p.p, p.len, b, again),
                 "packed cells do not unpack");
        for (size_t k = PIER__COL_STATE; k < b->ncolumns; k++)
            FZ_CHECK(same(&row[k], &again[k]),
                     "a packed cell does not come back as it was");
        pier__buf_free(&p);
    }
    for (size_t k = 0; k < b->ncolumns; k++)
        row[k] = made[(k + (size > 0 ? (unsigned char)in[0] : 0)) % 5];
    pier__buf p;
    pier__buf_init(&p);
    FZ_CHECK(pier__pg_cells_pack(&p, b, row) && !p.oom,
             "a row does not pack");
    FZ_CHECK(pier__pg_cells_unpack(p.p, p.len, b, again),
             "a packed row does not unpack");
    for (size_t k = PIER__COL_STATE; k < b->ncolumns; k++)
        FZ_CHECK(same(&row[k], &again[k]),
                 "a row's cell does not come back as it was");
    pier__buf_free(&p);
    free(in);
    return 0;
}
