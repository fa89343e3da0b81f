/*
 * tx.c: explicit transactions across boards.
 *
 * A pier_tx is one pier__write held open across several calls: it owns the
 * engine's lock and the lake's write transaction from pier_tx_begin to
 * commit or rollback, so every write in it shares one updated_at, one
 * version stamp and one commit. Its writes run the same code as standalone
 * writes (write.c); a failed one poisons the transaction, whose commit
 * then rolls everything back and reports that first failure.
 *
 * A document of operations (pier_tx_apply_json) is read whole by the JSON
 * row reader (json_rows.c) before its first operation runs; each then runs
 * as the call of its kind.
 *
 * While a transaction is open its thread must not make other calls on the
 * engine (they would wait for the lock it holds): pier__engine_begin
 * refuses them, using the thread-local `open_tx` below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/rows.h"

struct pier_tx {
    pier__write w;
    char **boards;             /* the boards it may write */
    size_t nboards;
    pier_status failed;        /* its first failure, or PIER_OK */
    pier_error first;          /* that failure's error */
};

/* The transaction this thread has open, if any. */
static _Thread_local pier_tx *open_tx;

bool pier__tx_open_here(const pier_engine *e)
{
    return open_tx != NULL && open_tx->w.e == e;
}

static void tx_free(pier_tx *tx)
{
    for (size_t i = 0; i < tx->nboards; i++)
        free(tx->boards[i]);
    free(tx->boards);
    free(tx);
}

PIER_API pier_status pier_tx_begin(pier_tx **out, pier_engine *engine,
                                   const char *const *boards, size_t nboards,
                                   pier_error *err)
{
    pier__error_clear(err);
    if (out == NULL || engine == NULL || (nboards > 0 && boards == NULL))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a transaction needs an engine and its boards");
    *out = NULL;
    if (open_tx != NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "this thread already has a transaction open");
    pier_tx *tx = calloc(1, sizeof *tx);
    if (tx == NULL)
        return pier__oom(err);
    tx->boards = calloc(nboards + 1, sizeof *tx->boards);
    pier_status rc = tx->boards != NULL ? PIER_OK : pier__oom(err);
    for (size_t i = 0; rc == PIER_OK && i < nboards; i++) {
        rc = pier__board_id_check(boards[i], err);
        if (rc == PIER_OK && (tx->boards[i] = pier__strdup(boards[i])) ==
                                 NULL)
            rc = pier__oom(err);
        if (rc == PIER_OK)
            tx->nboards++;
    }
    if (rc == PIER_OK)
        rc = pier__write_begin(&tx->w, engine, err);
    if (rc != PIER_OK) {
        tx_free(tx);
        return rc;
    }
    engine->tx = tx;
    open_tx = tx;
    *out = tx;
    return PIER_OK;
}

/* Checks that a write may run in the transaction, on `board` (NULL: the
 * write names its boards later). */
static pier_status enter(pier_tx *tx, const char *board, pier_error *err)
{
    pier__error_clear(err);
    if (tx == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "no transaction");
    if (tx->failed != PIER_OK) {
        pier__fail(err, tx->failed, "the transaction already failed (%s: "
                   "%s); roll it back", tx->first.tag, tx->first.message);
        return tx->failed;
    }
    if (board == NULL)         /* the transaction only */
        return PIER_OK;
    pier_status rc = pier__board_id_check(board, err);
    if (rc != PIER_OK)
        return rc;
    for (size_t i = 0; i < tx->nboards; i++)
        if (strcmp(tx->boards[i], board) == 0)
            return PIER_OK;
    pier__fail(err, PIER_E_ENTITY_NOT_ALLOWED,
               "board '%s' was not named when the transaction began",
               board);
    pier__error_board(err, board);
    return PIER_E_ENTITY_NOT_ALLOWED;
}

/* Ends a write in the transaction: a failure poisons it. */
static pier_status leave(pier_tx *tx, pier_status rc, pier_error *err)
{
    if (rc != PIER_OK && tx != NULL && tx->failed == PIER_OK) {
        tx->failed = rc;
        if (err != NULL)
            tx->first = *err;
        else
            pier__fail(&tx->first, rc, "a write in the transaction failed");
    }
    return rc;
}

static pier_status tx_json(pier_tx *tx, const char *board,
                           pier__write_mode mode, const char *json,
                           size_t len, const pier__idref *ids,
                           pier_error *err)
{
    pier_status rc = enter(tx, board, err);
    if (rc == PIER_OK && json == NULL)
        rc = pier__fail(err, PIER_E_INVALID_ARGUMENT, "no JSON given");
    if (rc == PIER_OK) {
        pier_rows rows;
        pier__rows_init(&rows);
        rc = pier__read_json(&rows, mode, json, len, err);
        if (rc == PIER_OK)
            rc = pier__write_rows(&tx->w, board, mode, &rows, ids, err);
        pier__rows_release(&rows);
    }
    return leave(tx, rc, err);
}

static pier_status tx_rows(pier_tx *tx, const char *board,
                           pier__write_mode mode, const pier_rows *rows,
                           pier_error *err)
{
    pier_status rc = enter(tx, board, err);
    if (rc == PIER_OK && rows == NULL)
        rc = pier__fail(err, PIER_E_INVALID_ARGUMENT, "no rows given");
    if (rc == PIER_OK)
        rc = pier__write_rows(&tx->w, board, mode, rows, NULL, err);
    return leave(tx, rc, err);
}

PIER_API pier_status pier_tx_insert_json(pier_tx *tx, const char *board,
                                         const char *json, size_t len,
                                         pier_error *err)
{
    return tx_json(tx, board, PIER__MODE_INSERT, json, len, NULL, err);
}

PIER_API pier_status pier_tx_insert_rows(pier_tx *tx, const char *board,
                                         const pier_rows *rows,
                                         pier_error *err)
{
    return tx_rows(tx, board, PIER__MODE_INSERT, rows, err);
}

PIER_API pier_status pier_tx_upsert_json(pier_tx *tx, const char *board,
                                         const char *json, size_t len,
                                         pier_error *err)
{
    return tx_json(tx, board, PIER__MODE_UPSERT, json, len, NULL, err);
}

PIER_API pier_status pier_tx_upsert_rows(pier_tx *tx, const char *board,
                                         const pier_rows *rows,
                                         pier_error *err)
{
    return tx_rows(tx, board, PIER__MODE_UPSERT, rows, err);
}

PIER_API pier_status pier_tx_update_json(pier_tx *tx, const char *board,
                                         const char *id, const char *patch,
                                         size_t len, pier_error *err)
{
    if (id == NULL) {
        pier__fail(err, PIER_E_MISSING_ID, "an update needs an id");
        return leave(tx, PIER_E_MISSING_ID, err);
    }
    pier__idref ref = { id, strlen(id) };
    return tx_json(tx, board, PIER__MODE_UPDATE, patch, len, &ref, err);
}

PIER_API pier_status pier_tx_update_rows(pier_tx *tx, const char *board,
                                         const pier_rows *patches,
                                         pier_error *err)
{
    return tx_rows(tx, board, PIER__MODE_UPDATE, patches, err);
}

PIER_API pier_status pier_tx_delete_many(pier_tx *tx, const char *board,
                                         const char *const *ids, size_t nids,
                                         pier_error *err)
{
    pier_status rc = enter(tx, board, err);
    if (rc == PIER_OK)
        rc = pier__write_delete(&tx->w, board, ids, nids, err);
    return leave(tx, rc, err);
}

/* Runs one operation of a document; its failure poisons the
 * transaction as the call of its kind would. */
static pier_status run_op(pier_tx *tx, const pier__op *o, pier_error *err)
{
    static const pier__write_mode modes[] = {
        [PIER__OP_INSERT] = PIER__MODE_INSERT,
        [PIER__OP_UPSERT] = PIER__MODE_UPSERT,
        [PIER__OP_UPDATE] = PIER__MODE_UPDATE,
    };
    pier_status rc = enter(tx, o->board, err);
    if (rc == PIER_OK && o->kind == PIER__OP_DELETE) {
        rc = pier__write_delete(&tx->w, o->board, o->ids, o->nids, err);
    } else if (rc == PIER_OK) {
        pier__idref ref = { o->id, o->id != NULL ? strlen(o->id) : 0 };
        rc = pier__write_rows(&tx->w, o->board, modes[o->kind], o->rows,
                              o->kind == PIER__OP_UPDATE ? &ref : NULL, err);
    }
    return rc;
}

PIER_API pier_status pier_tx_apply_json(pier_tx *tx, const char *json,
                                        size_t len, pier_error *err)
{
    pier_status rc = enter(tx, NULL, err);
    if (rc != PIER_OK)
        return tx != NULL ? leave(tx, rc, err) : rc;
    if (json == NULL)
        return leave(tx, pier__fail(err, PIER_E_INVALID_ARGUMENT,
                                    "no JSON given"), err);
    pier__ops ops;
    pier__ops_init(&ops);
    rc = pier__json_ops_read(&ops, json, len, err);
    for (size_t k = 0; rc == PIER_OK && k < ops.nops; k++) {
        rc = run_op(tx, &ops.ops[k], err);
        if (rc != PIER_OK && err != NULL) {
            size_t n = strlen(err->message);
            snprintf(err->message + n, sizeof err->message - n,
                     " (operation %zu)", k + 1);
        }
    }
    pier__ops_release(&ops);
    return leave(tx, rc, err);
}

PIER_API pier_status pier_tx_commit(int64_t *watermark, pier_tx *tx,
                                    pier_error *err)
{
    pier__error_clear(err);
    if (tx == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "no transaction");
    pier_engine *e = tx->w.e;
    pier_status rc = tx->failed;
    if (rc != PIER_OK) {
        /* Writes before the failure may have put boards in the cache. */
        e->catalog.version = -1;
        pier__fail(err, rc, "transaction rolled back: %s", tx->first.message);
        if (err != NULL) {
            memcpy(err->board, tx->first.board, sizeof err->board);
            memcpy(err->column, tx->first.column, sizeof err->column);
            memcpy(err->column_type, tx->first.column_type,
                   sizeof err->column_type);
            memcpy(err->value_type, tx->first.value_type,
                   sizeof err->value_type);
            err->offset = tx->first.offset;
            err->backend_code = tx->first.backend_code;
        }
    }
    /* pier__write_end commits (or rolls back) and releases the lock. */
    open_tx = NULL;
    e->tx = NULL;
    rc = pier__write_end(&tx->w, rc, watermark, err);
    tx_free(tx);
    return rc;
}

PIER_API void pier_tx_rollback(pier_tx *tx)
{
    if (tx == NULL)
        return;
    pier_engine *e = tx->w.e;
    e->catalog.version = -1;
    pier_error ignored;
    open_tx = NULL;
    e->tx = NULL;
    pier__write_end(&tx->w, PIER_E_INVALID_ARGUMENT, NULL, &ignored);
    tx_free(tx);
}
