/*
 * status.c: the stable tag of every pier_status, and filling pier_error.
 *
 * The tags are API: docs/errors.md lists the same table, and
 * tests/unit/test_status.c checks that the two agree.
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"

static const char *const tags[PIER_STATUS_COUNT] = {
    [PIER_OK] = "OK",
    [PIER_E_BOARD_NOT_FOUND] = "BoardNotFound",
    [PIER_E_UNKNOWN_COLUMN] = "UnknownColumn",
    [PIER_E_COLUMN_TYPE_CONFLICT] = "ColumnTypeConflict",
    [PIER_E_LAKE_UNAVAILABLE] = "LakeUnavailable",
    [PIER_E_INVALID_BOARD_ID] = "InvalidBoardId",
    [PIER_E_INVALID_COLUMN_NAME] = "InvalidColumnName",
    [PIER_E_RESERVED_COLUMN_NAME] = "ReservedColumnName",
    [PIER_E_BOARD_EXISTS] = "BoardExists",
    [PIER_E_COLUMN_EXISTS] = "ColumnExists",
    [PIER_E_MISSING_ID] = "MissingId",
    [PIER_E_DUPLICATE_ID] = "DuplicateId",
    [PIER_E_INVALID_JSON] = "InvalidJson",
    [PIER_E_LIMIT_EXCEEDED] = "LimitExceeded",
    [PIER_E_INVALID_ARGUMENT] = "InvalidArgument",
    [PIER_E_OUT_OF_MEMORY] = "OutOfMemory",
    [PIER_E_WRITE_FAILED] = "WriteFailed",
    [PIER_E_READ_FAILED] = "ReadFailed",
    [PIER_E_DUPLICATE_COLUMN] = "DuplicateColumn",
    [PIER_E_UNKNOWN_TYPE] = "UnknownType",
    [PIER_E_ROW_NOT_FOUND] = "RowNotFound",
    [PIER_E_ENTITY_NOT_ALLOWED] = "EntityNotAllowed",
    [PIER_E_PLACEHOLDER_UNBOUND] = "PlaceholderUnbound",
    [PIER_E_QUERY_FAILED] = "QueryFailed",
    [PIER_E_READONLY_COLUMN] = "ReadonlyColumn",
    [PIER_E_CONSTRAINT_UNIQUE] = "ConstraintUnique",
    [PIER_E_CONSTRAINT_NOT_NULL] = "ConstraintNotNull",
    [PIER_E_CONSTRAINT_CHECK] = "ConstraintCheck",
    [PIER_E_CONSTRAINT_FOREIGN_KEY] = "ConstraintForeignKey",
    [PIER_E_CONSTRAINT_PRIMARY_KEY] = "ConstraintPrimaryKey",
    [PIER_E_SCHEMA_DRIFT] = "SchemaDrift",
    [PIER_E_TABLE_NOT_FOUND] = "TableNotFound",
    [PIER_E_INTERRUPTED] = "Interrupted",
    [PIER_E_INVALID_SCHEMA] = "InvalidSchema",
    [PIER_E_MIGRATION_REFUSED] = "MigrationRefused",
    [PIER_E_DESTRUCTIVE_CHANGE] = "DestructiveChange",
    [PIER_E_MIGRATION_CONFLICT] = "MigrationConflict",
    [PIER_E_PROOF_FAILED] = "ProofFailed",
    [PIER_E_VIEW_MISMATCH] = "ViewMismatch",
    [PIER_E_CHANGESET_CONFLICT] = "ChangesetConflict",
    [PIER_E_SYNC_FAILED] = "SyncFailed",
    [PIER_E_TOPOLOGY_UNSUPPORTED] = "TopologyUnsupported",
};

PIER_API const char *pier_status_tag(pier_status status)
{
    if ((unsigned)status >= PIER_STATUS_COUNT || tags[status] == NULL)
        return "Unknown";
    return tags[status];
}

static void reset_fields(pier_error *err)
{
    err->message[0] = '\0';
    err->board[0] = '\0';
    err->column[0] = '\0';
    err->column_type[0] = '\0';
    err->value_type[0] = '\0';
    err->offset = -1;
    err->backend_code = 0;
}

void pier__error_clear(pier_error *err)
{
    if (err == NULL)
        return;
    err->status = PIER_OK;
    err->tag = pier_status_tag(PIER_OK);
    reset_fields(err);
}

pier_status pier__failv(pier_error *err, pier_status status, const char *fmt,
                        va_list ap)
{
    if (err == NULL)
        return status;
    err->status = status;
    err->tag = pier_status_tag(status);
    reset_fields(err);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    return status;
}

pier_status pier__fail(pier_error *err, pier_status status, const char *fmt,
                       ...)
{
    va_list ap;
    va_start(ap, fmt);
    pier__failv(err, status, fmt, ap);
    va_end(ap);
    return status;
}

pier_status pier__oom(pier_error *err)
{
    return pier__fail(err, PIER_E_OUT_OF_MEMORY, "out of memory");
}

void pier__error_board(pier_error *err, const char *board)
{
    if (err != NULL && board != NULL)
        pier__copy_field(err->board, sizeof err->board, board);
}

void pier__error_column(pier_error *err, const char *column)
{
    if (err != NULL && column != NULL)
        pier__copy_field(err->column, sizeof err->column, column);
}

void pier__error_types(pier_error *err, const char *column_type,
                       const char *value_type)
{
    if (err == NULL)
        return;
    if (column_type != NULL)
        pier__copy_field(err->column_type, sizeof err->column_type,
                         column_type);
    if (value_type != NULL)
        pier__copy_field(err->value_type, sizeof err->value_type,
                         value_type);
}
