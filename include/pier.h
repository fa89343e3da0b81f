/*
 * pier.h: the whole public API of libpier.
 *
 * Pier is an embedded database engine for applications that keep many
 * user-defined tables ("boards"). A board is created on its first write,
 * its column types are inferred once and then enforced (or declared up
 * front), and columns only ever widen along a lattice. What is not in this
 * header is not API.
 *
 * Conventions (see docs/api.md for the long form):
 * - Every fallible function returns a pier_status (PIER_OK is 0) and, when
 *   `err` is not NULL, fills it. A failed call changes nothing.
 * - Arguments run: out, the object, the inputs, then `pier_error *err`.
 * - `T **out`: the caller owns the result and releases it with the matching
 *   _free/_close. A returned `const T *` is borrowed; its doc says until when.
 * - Strings handed to the caller are released with pier_free().
 * - Options structs start with `version` and only ever grow; start from the
 *   matching _INIT macro. NULL options mean the defaults.
 *
 * Threads: a pier_engine may be shared by threads; calls on one engine are
 * serialized. A pier_rows or pier_row belongs to one thread at a time.
 */
#ifndef PIER_H
#define PIER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(PIER_BUILDING) && defined(__GNUC__)
#define PIER_API __attribute__((visibility("default")))
#else
#define PIER_API
#endif

/* ------------------------------------------------------------------ */
/* Version                                                              */

#define PIER_VERSION "0.1.0"
#define PIER_VERSION_NUMBER 1000 /* major * 1000000 + minor * 1000 + patch */

/* The library's own version, to detect header/library skew. */
PIER_API int pier_version_number(void);
PIER_API const char *pier_version(void);
/* The SQLite library the engine runs on, as it says itself
 * (sqlite3_libversion(): "3.40.1"); a static string. */
PIER_API const char *pier_sqlite_version(void);
/* The libpq the PostgreSQL lake runs on, as PQlibVersion() gives it:
 * major * 10000 + minor for PostgreSQL 10 and later (150014 is 15.14). */
PIER_API int pier_libpq_version(void);

/* ------------------------------------------------------------------ */
/* Status codes and errors                                              */

/*
 * Explicit values: never renumbered or reused; new ones are appended.
 * The tag in quotes is stable API (the CLI prints it, the server will send
 * it). docs/errors.md lists when each is raised and what to do about it.
 */
typedef enum pier_status {
    PIER_OK = 0,
    PIER_E_BOARD_NOT_FOUND = 1,       /* "BoardNotFound" */
    PIER_E_UNKNOWN_COLUMN = 2,        /* "UnknownColumn" */
    PIER_E_COLUMN_TYPE_CONFLICT = 3,  /* "ColumnTypeConflict" */
    PIER_E_LAKE_UNAVAILABLE = 4,      /* "LakeUnavailable" */
    PIER_E_INVALID_BOARD_ID = 5,      /* "InvalidBoardId" */
    PIER_E_INVALID_COLUMN_NAME = 6,   /* "InvalidColumnName" */
    PIER_E_RESERVED_COLUMN_NAME = 7,  /* "ReservedColumnName" */
    PIER_E_BOARD_EXISTS = 8,          /* "BoardExists" */
    PIER_E_COLUMN_EXISTS = 9,         /* "ColumnExists" */
    PIER_E_MISSING_ID = 10,           /* "MissingId" */
    PIER_E_DUPLICATE_ID = 11,         /* "DuplicateId" */
    PIER_E_INVALID_JSON = 12,         /* "InvalidJson" */
    PIER_E_LIMIT_EXCEEDED = 13,       /* "LimitExceeded" */
    PIER_E_INVALID_ARGUMENT = 14,     /* "InvalidArgument" */
    PIER_E_OUT_OF_MEMORY = 15,        /* "OutOfMemory" */
    PIER_E_WRITE_FAILED = 16,         /* "WriteFailed" */
    PIER_E_READ_FAILED = 17,          /* "ReadFailed" */
    PIER_E_DUPLICATE_COLUMN = 18,     /* "DuplicateColumn" */
    PIER_E_UNKNOWN_TYPE = 19,         /* "UnknownType" */
    PIER_E_ROW_NOT_FOUND = 20,        /* "RowNotFound" */
    PIER_E_ENTITY_NOT_ALLOWED = 21,   /* "EntityNotAllowed" */
    PIER_E_PLACEHOLDER_UNBOUND = 22,  /* "PlaceholderUnbound" */
    PIER_E_QUERY_FAILED = 23,         /* "QueryFailed" */
    PIER_E_READONLY_COLUMN = 24,      /* "ReadonlyColumn" */
    PIER_E_CONSTRAINT_UNIQUE = 25,    /* "ConstraintUnique" */
    PIER_E_CONSTRAINT_NOT_NULL = 26,  /* "ConstraintNotNull" */
    PIER_E_CONSTRAINT_CHECK = 27,     /* "ConstraintCheck" */
    PIER_E_CONSTRAINT_FOREIGN_KEY = 28, /* "ConstraintForeignKey" */
    PIER_E_CONSTRAINT_PRIMARY_KEY = 29, /* "ConstraintPrimaryKey" */
    PIER_E_SCHEMA_DRIFT = 30,         /* "SchemaDrift" */
    PIER_E_TABLE_NOT_FOUND = 31,      /* "TableNotFound" */
    PIER_E_INTERRUPTED = 32,          /* "Interrupted" */
    PIER_E_INVALID_SCHEMA = 33,       /* "InvalidSchema" */
    PIER_E_MIGRATION_REFUSED = 34,    /* "MigrationRefused" */
    PIER_E_DESTRUCTIVE_CHANGE = 35,   /* "DestructiveChange" */
    PIER_E_MIGRATION_CONFLICT = 36,   /* "MigrationConflict" */
    PIER_E_PROOF_FAILED = 37,         /* "ProofFailed" */
    PIER_E_VIEW_MISMATCH = 38,        /* "ViewMismatch" */
    PIER_E_CHANGESET_CONFLICT = 39,   /* "ChangesetConflict" */
    PIER_E_SYNC_FAILED = 40,          /* "SyncFailed" */
    PIER_E_TOPOLOGY_UNSUPPORTED = 41  /* "TopologyUnsupported" */
} pier_status;

/* One more than the highest status value; for tables indexed by status. */
#define PIER_STATUS_COUNT 42

/*
 * What went wrong, filled by the failing call. The caller owns it: nothing
 * to free, no global "last error". Fields that do not apply are "".
 */
typedef struct pier_error {
    pier_status status;
    const char *tag;         /* static, e.g. "ColumnTypeConflict"; never NULL
                                once filled */
    char message[512];       /* one line; names the board, column and types */
    char board[128];         /* the board involved, or "" */
    char column[128];        /* the column involved, or "" */
    char column_type[64];    /* the column's type, e.g. "bigint", or "" */
    char value_type[64];     /* the offending value's type, or "" */
    int64_t offset;          /* InvalidJson: byte offset of the fault; else -1 */
    int backend_code;        /* the storage engine's own code (SQLite's
                                extended result code), or 0 */
} pier_error;

/* The stable tag of a status ("BoardNotFound"); "Unknown" for a value this
 * library does not know. Never NULL. */
PIER_API const char *pier_status_tag(pier_status status);

/* ------------------------------------------------------------------ */
/* Memory                                                               */

/* Releases a string or array this library handed out. NULL: no-op. */
PIER_API void pier_free(void *p);

/* Releases a NULL-terminated array of strings and the strings. */
PIER_API void pier_strings_free(char **strings);

/* ------------------------------------------------------------------ */
/* Logical types                                                        */

/*
 * The kind of a logical type. The board vocabulary spells them in lower
 * case ("bigint"); widening only moves up the lattice
 *   boolean < tinyint < smallint < integer < bigint < hugeint
 *           < float < double < text
 * `timestamp` and `json` sit outside it (json may widen to text), and so
 * do the SQL dialect's types below, which widen only to text.
 */
typedef enum pier_kind {
    PIER_KIND_NULL = 0,      /* no value */
    PIER_KIND_BOOLEAN = 1,
    PIER_KIND_TINYINT = 2,   /* 8-bit signed */
    PIER_KIND_SMALLINT = 3,  /* 16-bit signed */
    PIER_KIND_INTEGER = 4,   /* 32-bit signed */
    PIER_KIND_BIGINT = 5,    /* 64-bit signed */
    PIER_KIND_HUGEINT = 6,   /* 128-bit signed */
    PIER_KIND_FLOAT = 7,     /* 32-bit IEEE 754 */
    PIER_KIND_DOUBLE = 8,    /* 64-bit IEEE 754 */
    PIER_KIND_TEXT = 9,      /* UTF-8 */
    PIER_KIND_TIMESTAMP = 10,/* an instant, UTC, microseconds */
    PIER_KIND_JSON = 11,     /* a JSON document, kept as canonical text */
    /* The SQL dialect's further types (docs/types.md); board columns take
     * them by declaration, inference never decides them. */
    PIER_KIND_UNSIGNED = 12, /* UINT8 .. UINT64: as.unsigned_integer */
    PIER_KIND_DECIMAL = 13,  /* exact: as.decimal, text padded to scale */
    PIER_KIND_BLOB = 14,     /* bytes: as.blob; text is uppercase hex */
    PIER_KIND_UUID = 15,     /* as.uuid; text canonical lowercase */
    PIER_KIND_DATE = 16,     /* as.date_days; "2026-03-01" */
    PIER_KIND_TIME = 17,     /* as.time_us; "10:00:00.000000" */
    PIER_KIND_DATETIME = 18, /* as.datetime_us; no zone */
    PIER_KIND_INTERVAL = 19, /* as.interval; ISO 8601 duration */
    PIER_KIND_ARRAY = 20     /* a typed array, text as JSON */
} pier_kind;

/* The board-vocabulary name of a kind ("bigint"); "null" for NULL. */
PIER_API const char *pier_kind_name(pier_kind kind);

/*
 * Generated ids: UUIDs in their canonical lowercase text, for rows that
 * come without an id (`pier insert --id-generate`). Version 7 (RFC 9562)
 * starts with the millisecond, so ids generated later sort later; a
 * generator's version 7 UUIDs each sort after the one before, even within
 * one millisecond. A generator is zeroed before its first use
 * (PIER_UUID_GEN_INIT) and used by one thread at a time.
 */
#define PIER_UUID_TEXT_SIZE 37     /* 36 characters and the NUL */
typedef struct pier_uuid_gen {
    int64_t last_ms;               /* the last version 7 UUID's time */
    unsigned counter;              /* its 12-bit counter (rand_a) */
} pier_uuid_gen;
#define PIER_UUID_GEN_INIT { 0, 0 }

/* Writes a new UUID of `version` 4 (random) or 7 (time-ordered, the
 * system clock's millisecond) to `out`.
 * @return PIER_E_INVALID_ARGUMENT for another version or a NULL argument;
 *         PIER_E_READ_FAILED if the system gives no random bytes. */
PIER_API pier_status pier_uuid_generate(char out[PIER_UUID_TEXT_SIZE],
                                        pier_uuid_gen *gen, int version,
                                        pier_error *err);

/* A 128-bit signed integer: hi * 2^64 + lo. */
typedef struct pier_hugeint {
    int64_t hi;
    uint64_t lo;
} pier_hugeint;

/* An exact decimal: unscaled / 10^scale. */
typedef struct pier_decimal {
    pier_hugeint unscaled;
    int scale;                 /* 0 .. 38 */
} pier_decimal;

/* A duration: months, days and microseconds, kept apart. */
typedef struct pier_interval {
    int32_t months;
    int32_t days;
    int64_t micros;
} pier_interval;

/*
 * A value read back from a board, decoded to its column's logical type.
 * `text` is the value's canonical text (RFC 3339 for a timestamp, the JSON
 * document for json, "true"/"false", decimal digits...), NUL-terminated;
 * NULL for a null value. The value is borrowed from the row it came from.
 */
typedef struct pier_value {
    pier_kind kind;
    union {
        bool boolean;          /* BOOLEAN */
        int64_t integer;       /* TINYINT, SMALLINT, INTEGER, BIGINT */
        pier_hugeint hugeint;  /* HUGEINT */
        double real;           /* FLOAT (rounded to float), DOUBLE */
        int64_t timestamp_us;  /* TIMESTAMP: microseconds since the Unix
                                  epoch, UTC */
        uint64_t unsigned_integer; /* UNSIGNED */
        pier_decimal decimal;  /* DECIMAL */
        struct {
            const void *bytes; /* borrowed like text */
            size_t len;
        } blob;                /* BLOB */
        unsigned char uuid[16];/* UUID, in text order */
        int32_t date_days;     /* DATE: days since 1970-01-01 */
        int64_t time_us;       /* TIME: microseconds since midnight */
        int64_t datetime_us;   /* DATETIME: microseconds since
                                  1970-01-01T00:00:00, no zone */
        pier_interval interval;/* INTERVAL */
    } as;
    const char *text;
    size_t len;                /* bytes of text, without the NUL */
} pier_value;

/* ------------------------------------------------------------------ */
/* Limits                                                               */

/* A row's JSON text (or its values, from pier_rows) may not exceed this. */
#define PIER_MAX_ROW_BYTES (1024 * 1024)
/* One write carries at most this many rows... */
#define PIER_MAX_BATCH_ROWS 100000
/* ...and at most this many bytes of JSON text. */
#define PIER_MAX_BATCH_BYTES (64 * 1024 * 1024)
/* A board has at most this many columns, the base columns included
 * (SQLite's own default limit is 2000 per table). */
#define PIER_MAX_COLUMNS 1000

/*
 * What one statement may take before the engine stops it: a board query
 * (pier_query and its cursor) or one pier_exec call. A statement that
 * reaches a limit fails with PIER_E_LIMIT_EXCEEDED, whose message names
 * the limit and its value, and changes nothing. Templates may come from
 * users the application does not trust (docs/query.md, "Limits"): the
 * defaults keep one from taking the machine. In a pier_limits, a field of
 * 0 takes the default (for a query: the engine's, from pier_open_options)
 * and PIER_LIMIT_NONE lifts the limit.
 */
#define PIER_LIMIT_NONE (-1)

typedef struct pier_limits {
    int64_t time_ms;       /* time the statement runs in the engine: a
                              query's steps (pier_query, then each
                              pier_cursor_next; not the caller's time
                              between rows), the whole of a pier_exec */
    int64_t value_bytes;   /* the longest text or blob the statement may
                              read, make or bind (a stored row read counts
                              as one value); SQLite's own maximum (about
                              1e9) bounds it */
    int64_t memory_bytes;  /* how much the statement may grow the heap:
                              SQLite's (measured at least every 1000
                              virtual machine steps) and a pier_exec
                              result's rows */
} pier_limits;

#define PIER_LIMITS_INIT { 0, 0, 0 }
#define PIER_DEFAULT_TIME_MS 30000                         /* 30 s */
#define PIER_DEFAULT_VALUE_BYTES (64 * 1024 * 1024)        /* 64 MiB */
#define PIER_DEFAULT_MEMORY_BYTES (256 * 1024 * 1024)      /* 256 MiB */

/* ------------------------------------------------------------------ */
/* Engine                                                               */

typedef struct pier_engine pier_engine; /* an open lake; shareable */

typedef enum pier_auto_create {
    PIER_AUTO_CREATE_ON_WRITE = 0, /* a write to an unknown board creates it */
    PIER_AUTO_CREATE_NEVER = 1     /* ... fails with BoardNotFound instead */
} pier_auto_create;

typedef enum pier_columns_mode {
    PIER_COLUMNS_INFER = 0,    /* new columns are inferred from writes */
    PIER_COLUMNS_DECLARED = 1  /* every board behaves as strict */
} pier_columns_mode;

typedef enum pier_durability {
    PIER_DURABILITY_FULL = 0,  /* an acknowledged write survives power loss */
    PIER_DURABILITY_NORMAL = 1 /* survives a process crash; power loss may
                                  lose the last writes, never corrupt */
} pier_durability;

/* Returns the current time in microseconds since the Unix epoch, UTC. */
typedef int64_t (*pier_clock_fn)(void *payload);

/* How the nodes of a lake share it (docs/clustered.md). */
typedef enum pier_topology {
    PIER_TOPOLOGY_DEFAULT = 0,     /* single-node on an embedded lake,
                                      clustered on a PostgreSQL lake */
    PIER_TOPOLOGY_SINGLE_NODE = 1, /* this engine is the lake's only writer:
                                      on PostgreSQL it reads the head once
                                      and then follows its own writes, so
                                      every read is exact; two such engines
                                      on one lake read wrong */
    PIER_TOPOLOGY_CLUSTERED = 2    /* many nodes on one PostgreSQL lake: a
                                      read of another node's write is stale
                                      by at most head_refresh_ms */
} pier_topology;

typedef struct pier_open_options {
    unsigned version;              /* PIER_OPEN_OPTIONS_VERSION */
    pier_auto_create auto_create;
    pier_columns_mode columns;
    pier_durability durability;
    int busy_timeout_ms;           /* how long to wait for another process's
                                      lock; 0 fails at once */
    pier_clock_fn clock;           /* NULL: the system clock */
    void *clock_payload;
    /* Version 2: */
    pier_limits limits;            /* the engine's limits on queries and
                                      pier_exec; 0 fields: the defaults */
    /* Version 3: a PostgreSQL lake (docs/clustered.md). */
    const char *lake;              /* a libpq connection string (URL or
                                      key=value form) naming a PostgreSQL
                                      lake; NULL: pier_open's location is
                                      the lake (a directory, or a
                                      postgres:// or postgresql:// URL) */
    const char *cache_dir;         /* where this node keeps its replicas;
                                      NULL: $XDG_CACHE_HOME/pier/<lake> (or
                                      ~/.cache/...); one node per
                                      directory */
    int head_refresh_ms;           /* how often a node reads the lake's
                                      head; 0: 1000 */
    pier_topology topology;
    const char *lake_namespace;    /* the PostgreSQL schema holding the
                                      lake; NULL: "pier" */
    int replicas_open;             /* the most replicas kept open at once
                                      (least recently used closed first);
                                      0: 64 */
    bool must_exist;               /* refuse a lake that does not exist
                                      (LakeUnavailable naming where it was
                                      looked for) instead of making it: for
                                      a caller that only reads */
    /* Version 4: */
    bool readonly;                 /* open the lake for reading only: every
                                      read works, every write fails with
                                      PIER_E_WRITE_FAILED and nothing is
                                      written, not even at open (no lake is
                                      made, none upgraded: implies
                                      must_exist). Serves a lake the caller
                                      cannot write (its file 0444, its
                                      directory 0555, another user's);
                                      embedded lakes only (docs/backup.md) */
} pier_open_options;

#define PIER_OPEN_OPTIONS_VERSION 4
#define PIER_OPEN_OPTIONS_INIT                                            \
    { PIER_OPEN_OPTIONS_VERSION, PIER_AUTO_CREATE_ON_WRITE,               \
      PIER_COLUMNS_INFER, PIER_DURABILITY_FULL, 5000, NULL, NULL,         \
      PIER_LIMITS_INIT, NULL, NULL, 0, PIER_TOPOLOGY_DEFAULT, NULL, 0,   \
      false, false }

/*
 * Opens the lake in `data_dir`, creating the directory and the lake file
 * (`lake.sqlite`) if they are missing (unless opts->must_exist); or a
 * PostgreSQL lake, when
 * `data_dir` is a postgres:// or postgresql:// URL or opts->lake names one
 * (data_dir may then be NULL), made in its namespace if missing
 * (docs/clustered.md).
 * @return PIER_E_LAKE_UNAVAILABLE if the directory cannot be created or
 *         read, the file is not a Pier lake, or it was written by a newer
 *         Pier (the message says which);
 *         PIER_E_INVALID_ARGUMENT for a bad option (a limit below
 *         PIER_LIMIT_NONE among them);
 *         PIER_E_TOPOLOGY_UNSUPPORTED for the clustered topology on an
 *         embedded lake. A PostgreSQL lake that cannot be reached, or
 *         whose cache directory another node uses, is
 *         PIER_E_LAKE_UNAVAILABLE.
 */
PIER_API pier_status pier_open(pier_engine **out, const char *data_dir,
                               const pier_open_options *opts,
                               pier_error *err);

/*
 * Releases everything the engine holds and sets *engine to NULL, so that a
 * second call (or a call with a NULL handle) is a no-op. Rows and board
 * descriptions already handed out stay valid.
 */
PIER_API void pier_close(pier_engine **engine);

/* The data directory the engine was opened on; borrowed until close. */
PIER_API const char *pier_data_dir(const pier_engine *engine);

/*
 * Removes the lake in `data_dir`: the lake file and its journal files, then
 * the directory itself if nothing else is left in it. A directory without a
 * lake is not an error. No engine may have it open.
 * @return PIER_E_LAKE_UNAVAILABLE if `lake.sqlite` there is not a Pier lake
 *         (it is left alone) or cannot be removed.
 */
PIER_API pier_status pier_reset_lake(const char *data_dir, pier_error *err);

/* ------------------------------------------------------------------ */
/* Boards                                                               */

/*
 * Board ids match [a-z][a-z0-9_]{0,62}. Column names are 1 to 63 bytes of
 * UTF-8 without control characters, compared case-insensitively (ASCII, as
 * SQL does); the first spelling is kept. Names starting with "_" are
 * reserved for the engine. Every board has the base columns
 *   id          text, the key, required on every row
 *   updated_at  timestamp, set by the engine on every write
 *   state       text, may be null
 * Every function that changes a board returns, in *watermark (which may be
 * NULL), the position in the change log it committed at.
 */

typedef struct pier_column_def {
    const char *name;
    const char *type;   /* a board type: "bigint", "timestamp", or one of
                           the SQL dialect's: "decimal(12,2)", "uuid",
                           "enum('a','b')", "text[]"... (docs/types.md) */
} pier_column_def;

typedef struct pier_board_options {
    unsigned version;                /* PIER_BOARD_OPTIONS_VERSION */
    const pier_column_def *columns;  /* declared columns, in order */
    size_t ncolumns;
    bool strict;                     /* refuse columns not declared */
} pier_board_options;

#define PIER_BOARD_OPTIONS_VERSION 1
#define PIER_BOARD_OPTIONS_INIT { PIER_BOARD_OPTIONS_VERSION, NULL, 0, false }

/*
 * Creates a board, with its declared columns and strict bit.
 * @return PIER_E_BOARD_EXISTS if it is already there;
 *         PIER_E_INVALID_BOARD_ID, PIER_E_INVALID_COLUMN_NAME,
 *         PIER_E_RESERVED_COLUMN_NAME (a base column or "_" name),
 *         PIER_E_DUPLICATE_COLUMN, PIER_E_UNKNOWN_TYPE for bad input (a
 *         name outside the vocabulary, a bad parameter, "blob").
 */
PIER_API pier_status pier_board_create(int64_t *watermark, pier_engine *engine,
                                       const char *board,
                                       const pier_board_options *opts,
                                       pier_error *err);

/* Whether the board exists. Never creates it. */
PIER_API pier_status pier_board_has(bool *out, pier_engine *engine,
                                    const char *board, pier_error *err);

/* Every board id, sorted, as a NULL-terminated array for
 * pier_strings_free(). */
PIER_API pier_status pier_board_list(char ***out, pier_engine *engine,
                                     pier_error *err);

typedef enum pier_column_origin {
    PIER_ORIGIN_BASE = 0,      /* id, updated_at, state */
    PIER_ORIGIN_DECLARED = 1,  /* by pier_board_create or add_column */
    PIER_ORIGIN_INFERRED = 2   /* by the first write that named it */
} pier_column_origin;

typedef struct pier_column_info {
    int64_t id;            /* stable: never changes, never reused */
    const char *name;
    const char *type;      /* the type's canonical spelling, e.g. "bigint",
                              "decimal(12,2)", "enum('a','b')" */
    pier_kind kind;
    pier_column_origin origin;
} pier_column_info;

typedef struct pier_board_info {
    const char *board;
    bool strict;                      /* the board's own strict bit */
    size_t ncolumns;
    const pier_column_info *columns;  /* in board order, base columns first */
} pier_board_info;

/* Describes a board. Release with pier_board_info_free().
 * @return PIER_E_BOARD_NOT_FOUND if no board has this id. */
PIER_API pier_status pier_board_describe(pier_board_info **out,
                                         pier_engine *engine,
                                         const char *board, pier_error *err);
PIER_API void pier_board_info_free(pier_board_info *info);

/* Empties a board, keeping its columns. */
PIER_API pier_status pier_board_truncate(int64_t *watermark,
                                         pier_engine *engine,
                                         const char *board, pier_error *err);

/* Removes a board and every row. */
PIER_API pier_status pier_board_drop(int64_t *watermark, pier_engine *engine,
                                     const char *board, pier_error *err);

/*
 * Full-text search (docs/query.md, "Full-text search"): an FTS5 index over
 * some text columns of a board, kept in step with the board by every
 * write in the same transaction, and read in a board-scoped query as
 * {{fts}} (or {{fts:NAME}}). The embedded lake only.
 *
 * pier_fts_enable makes the index over columns[0..ncolumns) and indexes
 * the rows already there.
 * @return PIER_E_BOARD_NOT_FOUND if no board has this id;
 *         PIER_E_UNKNOWN_COLUMN for a column the board does not have;
 *         PIER_E_COLUMN_TYPE_CONFLICT for a column that is not text;
 *         PIER_E_DUPLICATE_COLUMN for a column named twice;
 *         PIER_E_INVALID_ARGUMENT for no columns, the id column (always
 *         in the index, unindexed), a column FTS5 reserves ("rank",
 *         "rowid"), or a board that already has an index (disable it
 *         first);
 *         PIER_E_TOPOLOGY_UNSUPPORTED on a PostgreSQL lake.
 * Nothing is written on failure.
 */
PIER_API pier_status pier_fts_enable(pier_engine *engine, const char *board,
                                     const char *const *columns,
                                     size_t ncolumns, pier_error *err);
/* Drops the board's index.
 * @return PIER_E_BOARD_NOT_FOUND; PIER_E_INVALID_ARGUMENT if the board has
 *         no index; PIER_E_TOPOLOGY_UNSUPPORTED on a PostgreSQL lake. */
PIER_API pier_status pier_fts_disable(pier_engine *engine, const char *board,
                                      pier_error *err);
/* The columns the board's index holds, as a JSON array of their names in
 * index order (`[]` when it has none), for pier_free().
 * @return PIER_E_BOARD_NOT_FOUND; PIER_E_TOPOLOGY_UNSUPPORTED on a
 *         PostgreSQL lake. */
PIER_API pier_status pier_fts_columns(char **out, pier_engine *engine,
                                      const char *board, pier_error *err);

/*
 * Declares a column on an existing board: the way a strict board gains one.
 * @return PIER_E_COLUMN_EXISTS if the board has a column of that name;
 *         PIER_E_RESERVED_COLUMN_NAME for a base column or a "_" name.
 */
PIER_API pier_status pier_board_add_column(int64_t *watermark,
                                           pier_engine *engine,
                                           const char *board,
                                           const char *column,
                                           const char *type,
                                           pier_error *err);

/*
 * Widens a column up the lattice. Within the numeric chain this changes the
 * catalog only; widening to text rewrites every row, atomically. A column
 * of one of the SQL dialect's types widens only to text, keeping its
 * canonical text. Widening to the column's own type is a no-op that
 * returns the current head.
 * @return PIER_E_COLUMN_TYPE_CONFLICT if `type` is below the column's type
 *         or off the lattice; PIER_E_UNKNOWN_COLUMN if the board has no such
 *         column;
 *         PIER_E_RESERVED_COLUMN_NAME for a base column.
 */
PIER_API pier_status pier_board_widen_column(int64_t *watermark,
                                             pier_engine *engine,
                                             const char *board,
                                             const char *column,
                                             const char *type,
                                             pier_error *err);

/* ------------------------------------------------------------------ */
/* Writing rows                                                         */

/*
 * Inserts rows given as JSON text: one object, an array of objects, or a
 * sequence of objects separated by white space (JSON lines). All rows are
 * one atomic write: a failure anywhere leaves no row, no new column, no new
 * board and no advanced watermark.
 * @return PIER_E_INVALID_JSON (err->offset is the byte offset),
 *         PIER_E_MISSING_ID, PIER_E_DUPLICATE_ID, PIER_E_COLUMN_TYPE_CONFLICT,
 *         PIER_E_UNKNOWN_COLUMN, PIER_E_RESERVED_COLUMN_NAME,
 *         PIER_E_INVALID_COLUMN_NAME, PIER_E_DUPLICATE_COLUMN,
 *         PIER_E_BOARD_NOT_FOUND (auto-create never), PIER_E_LIMIT_EXCEEDED.
 */
PIER_API pier_status pier_insert_json(int64_t *watermark, pier_engine *engine,
                                      const char *board, const char *json,
                                      size_t len, pier_error *err);

/*
 * A batch of rows built by a C caller, value by value. It is inserted by
 * pier_insert_rows() with exactly the rules of pier_insert_json(); names
 * are checked there, not when set.
 */
typedef struct pier_rows pier_rows;

/* A new, empty batch; NULL if out of memory. */
PIER_API pier_rows *pier_rows_new(void);
PIER_API void pier_rows_free(pier_rows *rows);
/* Empties the batch for reuse. */
PIER_API void pier_rows_clear(pier_rows *rows);
PIER_API size_t pier_rows_count(const pier_rows *rows);

/* Starts a new row; the setters below fill the latest row. */
PIER_API pier_status pier_rows_add(pier_rows *rows, pier_error *err);

PIER_API pier_status pier_rows_set_null(pier_rows *rows, const char *column,
                                        pier_error *err);
PIER_API pier_status pier_rows_set_bool(pier_rows *rows, const char *column,
                                        bool value, pier_error *err);
PIER_API pier_status pier_rows_set_int64(pier_rows *rows, const char *column,
                                         int64_t value, pier_error *err);
PIER_API pier_status pier_rows_set_hugeint(pier_rows *rows,
                                           const char *column,
                                           pier_hugeint value,
                                           pier_error *err);
/* A non-finite value is PIER_E_INVALID_ARGUMENT. */
PIER_API pier_status pier_rows_set_double(pier_rows *rows, const char *column,
                                          double value, pier_error *err);
/* Text must be valid UTF-8 (PIER_E_INVALID_ARGUMENT otherwise). */
PIER_API pier_status pier_rows_set_text(pier_rows *rows, const char *column,
                                        const char *text, pier_error *err);
/* A typed instant: microseconds since the Unix epoch, UTC. Unlike JSON
 * input, which never implies a timestamp, a typed instant that is the first
 * value of a new column decides `timestamp`. */
PIER_API pier_status pier_rows_set_timestamp(pier_rows *rows,
                                             const char *column,
                                             int64_t micros,
                                             pier_error *err);
/* A JSON document (object or array), validated and kept canonical.
 * @return PIER_E_INVALID_JSON if it does not parse. */
PIER_API pier_status pier_rows_set_json(pier_rows *rows, const char *column,
                                        const char *json, pier_error *err);

/* Inserts a built batch as one atomic write. The batch is not changed. */
PIER_API pier_status pier_insert_rows(int64_t *watermark, pier_engine *engine,
                                      const char *board,
                                      const pier_rows *rows,
                                      pier_error *err);

/* ------------------------------------------------------------------ */
/* Reading rows                                                         */

typedef struct pier_row pier_row; /* one stored row, decoded */

/*
 * Reads the row with this id. Never creates the board.
 * @return PIER_E_ROW_NOT_FOUND if the board has no such row;
 *         PIER_E_BOARD_NOT_FOUND if there is no such board.
 */
PIER_API pier_status pier_row_get(pier_row **out, pier_engine *engine,
                                  const char *board, const char *id,
                                  pier_error *err);
PIER_API void pier_row_free(pier_row *row);

/* The row's columns, in board order (base columns first). Names and values
 * are borrowed until pier_row_free(). */
PIER_API size_t pier_row_column_count(const pier_row *row);
PIER_API const char *pier_row_column_name(const pier_row *row, size_t i);
PIER_API const pier_value *pier_row_value(const pier_row *row, size_t i);
/* The value of a column by name (case-insensitive); NULL if the board has
 * no such column. */
PIER_API const pier_value *pier_row_find(const pier_row *row,
                                         const char *column);
/* The row as a JSON object, columns in board order; for pier_free(). NULL
 * if out of memory. */
PIER_API char *pier_row_to_json(const pier_row *row);

/* The number of rows on a board. */
PIER_API pier_status pier_row_count(int64_t *out, pier_engine *engine,
                                    const char *board, pier_error *err);

/*
 * Calls `fn` for every row of a board in id order (byte order of the UTF-8
 * text). A non-zero return from `fn` stops the scan; pier_board_scan then
 * returns PIER_OK. The row is borrowed for the duration of the call. `fn`
 * runs while the engine is held: it must not call this engine.
 */
typedef int (*pier_row_fn)(const pier_row *row, void *payload);
PIER_API pier_status pier_board_scan(pier_engine *engine, const char *board,
                                     pier_row_fn fn, void *payload,
                                     pier_error *err);

/* ------------------------------------------------------------------ */
/* More writes: update, upsert, delete, compact                         */

/*
 * Every write below follows the rules of the inserts: the same typing,
 * strictness and reserved names (a new column in a patch or an upserted row
 * is inferred or refused exactly as on insert), one atomic write per call,
 * updated_at set to the time the engine accepted the write, and the
 * watermark it committed at in *watermark (which may be NULL). Every stored
 * version of a row carries a version stamp in the reserved column `_v`: a
 * hybrid logical clock, strictly increasing on a lake even when the wall
 * clock steps back.
 */

/*
 * Patches the row `id` with the members of the JSON object `patch` (a
 * member set to null clears that column; `id` may appear only with the
 * row's own id).
 * @return PIER_E_ROW_NOT_FOUND if the board has no such row (nothing is
 *         written); the insert errors otherwise.
 */
PIER_API pier_status pier_update_json(int64_t *watermark, pier_engine *engine,
                                      const char *board, const char *id,
                                      const char *patch, size_t len,
                                      pier_error *err);
/*
 * Applies many patches as one atomic write: `json` is an array of
 * {"id": ID, "patch": {...}}. Patches apply in array order, so two patches
 * to one id stack exactly as two calls would.
 */
PIER_API pier_status pier_update_many_json(int64_t *watermark,
                                           pier_engine *engine,
                                           const char *board,
                                           const char *json, size_t len,
                                           pier_error *err);
/* The same from a C batch: each row's `id` names the row it patches, its
 * other columns are the patch. */
PIER_API pier_status pier_update_rows(int64_t *watermark, pier_engine *engine,
                                      const char *board,
                                      const pier_rows *patches,
                                      pier_error *err);

/*
 * Writes complete rows: each replaces any stored row with the same id
 * (columns it omits read null afterwards) or is inserted. When two
 * versions of one id meet, the higher version stamp wins; within one call
 * later rows win over earlier ones. JSON as for pier_insert_json.
 */
PIER_API pier_status pier_upsert_json(int64_t *watermark, pier_engine *engine,
                                      const char *board, const char *json,
                                      size_t len, pier_error *err);
PIER_API pier_status pier_upsert_rows(int64_t *watermark, pier_engine *engine,
                                      const char *board,
                                      const pier_rows *rows,
                                      pier_error *err);

/* Deletes rows by id; an id that is not there is not an error. */
PIER_API pier_status pier_delete(int64_t *watermark, pier_engine *engine,
                                 const char *board, const char *id,
                                 pier_error *err);
PIER_API pier_status pier_delete_many(int64_t *watermark, pier_engine *engine,
                                      const char *board,
                                      const char *const *ids, size_t nids,
                                      pier_error *err);

/*
 * Reclaims the superseded row versions the storage keeps and says how many
 * it reclaimed. The embedded lake replaces a row in place, so it keeps none
 * and the answer is 0.
 */
PIER_API pier_status pier_compact(int64_t *reclaimed, pier_engine *engine,
                                  const char *board, pier_error *err);

/* ------------------------------------------------------------------ */
/* Transactions                                                         */

/*
 * A transaction names the boards it may write up front, then runs any of
 * the writes above on them and commits them as one atomic write with one
 * watermark; every row it writes shares one updated_at. A write to a board
 * not named fails with PIER_E_ENTITY_NOT_ALLOWED. Any failed write poisons
 * the transaction: later writes fail at once and commit rolls everything
 * back and returns the first failure. Boards created inside it disappear on
 * rollback.
 *
 * A transaction holds the engine from begin to commit or rollback: other
 * threads' calls on this engine wait. It belongs to one thread.
 */
typedef struct pier_tx pier_tx;

PIER_API pier_status pier_tx_begin(pier_tx **out, pier_engine *engine,
                                   const char *const *boards, size_t nboards,
                                   pier_error *err);
PIER_API pier_status pier_tx_insert_json(pier_tx *tx, const char *board,
                                         const char *json, size_t len,
                                         pier_error *err);
PIER_API pier_status pier_tx_insert_rows(pier_tx *tx, const char *board,
                                         const pier_rows *rows,
                                         pier_error *err);
PIER_API pier_status pier_tx_upsert_json(pier_tx *tx, const char *board,
                                         const char *json, size_t len,
                                         pier_error *err);
PIER_API pier_status pier_tx_upsert_rows(pier_tx *tx, const char *board,
                                         const pier_rows *rows,
                                         pier_error *err);
PIER_API pier_status pier_tx_update_json(pier_tx *tx, const char *board,
                                         const char *id, const char *patch,
                                         size_t len, pier_error *err);
PIER_API pier_status pier_tx_update_rows(pier_tx *tx, const char *board,
                                         const pier_rows *patches,
                                         pier_error *err);
PIER_API pier_status pier_tx_delete_many(pier_tx *tx, const char *board,
                                         const char *const *ids, size_t nids,
                                         pier_error *err);
/*
 * Runs a JSON document of operations in the transaction, in order, each as
 * the call of its kind would:
 *   [{"op":"insert","board":B,"rows":[{...},...]},
 *    {"op":"upsert","board":B,"rows":[{...},...]},
 *    {"op":"update","board":B,"id":ID,"patch":{...}},
 *    {"op":"delete","board":B,"ids":[ID,...]}]
 * (members in any order). The whole document is read first, with the row
 * reader of pier_insert_json, so values reach the boards exactly as
 * written. A failing operation's message ends with "(operation N)", N
 * counted from 1; byte offsets count from the start of `json`. A failure
 * poisons the transaction, as any failed write does.
 * @return PIER_E_INVALID_JSON (err->offset: where) for a malformed
 *         document, before anything runs: not an array, an operation that
 *         is not an object, an unknown op, a missing, unknown or repeated
 *         member, a member of the wrong type, U+0000 in a board or row id;
 *         PIER_E_LIMIT_EXCEEDED for a document over PIER_MAX_BATCH_BYTES
 *         or an operation over the limits of one write; the errors of each
 *         operation's call otherwise.
 */
PIER_API pier_status pier_tx_apply_json(pier_tx *tx, const char *json,
                                        size_t len, pier_error *err);
/* Commits and releases the transaction (also when the commit fails). */
PIER_API pier_status pier_tx_commit(int64_t *watermark, pier_tx *tx,
                                    pier_error *err);
/* Rolls back and releases the transaction. NULL: no-op. */
PIER_API void pier_tx_rollback(pier_tx *tx);

/* ------------------------------------------------------------------ */
/* The change feed                                                      */

/*
 * Every write appends change records in its own transaction. A record has
 * a watermark (its position), the board, a kind ("insert", "upsert",
 * "update", "delete", "truncate", "drop", "schema"), a JSON payload that
 * lets a consumer rebuild the board exactly (docs/feed.md lists them) and
 * the time it was committed. maintain() drops old records and moves the
 * retention floor; a consumer that asks for records below it is told to
 * resync.
 */
typedef struct pier_change {
    int64_t watermark;
    const char *board;
    const char *kind;
    const char *payload;       /* JSON text, NUL-terminated */
    size_t payload_len;
    int64_t committed_at;      /* microseconds since the Unix epoch, UTC */
} pier_change;

typedef struct pier_changes_page {
    bool resync;               /* `after` is below the lake's retention
                                  floor, so the records after it may no
                                  longer all be kept: re-read the board,
                                  then continue after `from` */
    int64_t from;              /* resync only */
    int64_t next;              /* the `after` of the following page */
    size_t nrecords;
    const pier_change *records;  /* ascending watermarks */
} pier_changes_page;

/*
 * The board's records with watermark > after, ascending, at most `limit`
 * (0: a default of 1000; more than 10000 is cut to 10000). Release with
 * pier_changes_page_free(). A dropped board's records are still returned,
 * ending with its drop record, so a board that does not exist is not an
 * error (the page is empty if it never had records).
 * @return PIER_E_INVALID_BOARD_ID; PIER_E_INVALID_ARGUMENT if after < 0.
 */
PIER_API pier_status pier_changes(pier_changes_page **out,
                                  pier_engine *engine, const char *board,
                                  int64_t after, size_t limit,
                                  pier_error *err);
PIER_API void pier_changes_page_free(pier_changes_page *page);
/* The page as JSON: {"resync":false,"records":[...],"next":N} or
 * {"resync":true,"from":N}; a record is {"watermark":N,"board":B,
 * "kind":K,"payload":{...},"committed_at":"RFC 3339"}. For pier_free(). */
PIER_API char *pier_changes_page_to_json(const pier_changes_page *page);
/* One record as JSON, as inside a page. For pier_free(). */
PIER_API char *pier_change_to_json(const pier_change *change);

/* Follows a board's feed: catch-up from `after`, then live. */
typedef struct pier_watch pier_watch;

typedef struct pier_watch_options {
    unsigned version;          /* PIER_WATCH_OPTIONS_VERSION */
    int64_t after;             /* start after this watermark */
    int poll_ms;               /* how often to look for other processes'
                                  writes (0: 100); this engine's writes
                                  wake a watch at once */
    size_t limit;              /* records per page; 0: 1000 */
} pier_watch_options;

#define PIER_WATCH_OPTIONS_VERSION 1
#define PIER_WATCH_OPTIONS_INIT { PIER_WATCH_OPTIONS_VERSION, 0, 100, 0 }

PIER_API pier_status pier_watch_open(pier_watch **out, pier_engine *engine,
                                     const char *board,
                                     const pier_watch_options *opts,
                                     pier_error *err);
/*
 * Blocks until the next non-empty page (records, or a resync, after which
 * the watch continues from `from`), and hands it over (*out, for
 * pier_changes_page_free). When the watch is cancelled, returns PIER_OK
 * with *out NULL.
 */
PIER_API pier_status pier_watch_next(pier_changes_page **out,
                                     pier_watch *watch, pier_error *err);
/* Makes a pending or later pier_watch_next return. Safe from any thread
 * (not from a signal handler: have a thread sigwait() and call it);
 * idempotent. */
PIER_API void pier_watch_cancel(pier_watch *watch);
/* Releases the watch; no pier_watch_next may be running. NULL: no-op.
 * Watches must be closed before their engine. */
PIER_API void pier_watch_close(pier_watch *watch);

/*
 * A listener is called once per touched board after each of this engine's
 * own write commits, with the board and the range of watermarks the write
 * appended for it. It runs on the engine's dispatch thread, never on the
 * writer's call path: a slow listener delays other listeners, not writes.
 * It may call the engine (pier_changes, to read the records), but must not
 * close it. A listener sees only writes committed after it subscribed.
 * pier_close frees the listeners still subscribed: do not remove them
 * after it.
 */
typedef struct pier_change_event {
    const char *board;
    int64_t first_watermark;
    int64_t last_watermark;
} pier_change_event;
typedef void (*pier_change_fn)(const pier_change_event *event,
                               void *payload);
typedef struct pier_listener pier_listener;

PIER_API pier_status pier_on_change(pier_listener **out, pier_engine *engine,
                                    pier_change_fn fn, void *payload,
                                    pier_error *err);
/* Unsubscribes: once this returns the listener is not running and is never
 * called again (when called from inside the listener itself, after it
 * returns). NULL: no-op. */
PIER_API void pier_listener_remove(pier_listener *listener);

/* The newest watermark this engine knows of, without I/O: its own writes
 * and whatever its last read of the lake saw. */
PIER_API int64_t pier_head(const pier_engine *engine);
/* The newest watermark of the lake, read from it (0 when nothing was ever
 * written). */
PIER_API pier_status pier_head_from_catalog(int64_t *out,
                                            pier_engine *engine,
                                            pier_error *err);
/*
 * The watermark the board's rows reflect. In the embedded topology a
 * board is always at the head, so this is the lake's head; on a
 * PostgreSQL lake, the watermark of this node's replica of the board,
 * without a sync (0 when the node holds none).
 */
PIER_API pier_status pier_watermark_of(int64_t *out, pier_engine *engine,
                                       const char *board, pier_error *err);
/* Catches the board's replica up to the head (read now): a no-op in the
 * embedded topology, which reports the head it is at in *watermark; on a
 * PostgreSQL lake, *watermark is where this node's replica got to.
 * @return PIER_E_BOARD_NOT_FOUND; PIER_E_SYNC_FAILED (the lake cannot be
 *         read). */
PIER_API pier_status pier_sync(int64_t *watermark, pier_engine *engine,
                               const char *board, pier_error *err);

/* ------------------------------------------------------------------ */
/* Board-scoped queries                                                 */

/*
 * Parameters bound to a query: named (":name", "$name", "@name", spelled
 * with their prefix) or numbered ("?1", or the number alone: "1"). Values
 * are only ever bound, never spliced into the text.
 */
typedef struct pier_params pier_params;

/* A new, empty set of parameters; NULL if out of memory. */
PIER_API pier_params *pier_params_new(void);
PIER_API void pier_params_free(pier_params *params);
PIER_API pier_status pier_params_set_null(pier_params *params,
                                          const char *name, pier_error *err);
PIER_API pier_status pier_params_set_bool(pier_params *params,
                                          const char *name, bool value,
                                          pier_error *err);
PIER_API pier_status pier_params_set_int64(pier_params *params,
                                           const char *name, int64_t value,
                                           pier_error *err);
PIER_API pier_status pier_params_set_double(pier_params *params,
                                            const char *name, double value,
                                            pier_error *err);
PIER_API pier_status pier_params_set_text(pier_params *params,
                                          const char *name, const char *text,
                                          pier_error *err);
/* Bytes, bound as a BLOB (copied; `len` may be 0). */
PIER_API pier_status pier_params_set_blob(pier_params *params,
                                          const char *name, const void *bytes,
                                          size_t len, pier_error *err);
/* A JSON object (its members are named parameters: {"n": 1} binds :n, $n
 * and @n) or array (its elements are ?1, ?2...). Numbers, strings,
 * booleans and null bind as themselves; objects and arrays as their JSON
 * text. */
PIER_API pier_status pier_params_set_json(pier_params *params,
                                          const char *json, size_t len,
                                          pier_error *err);
/* One JSON value under `name`, bound as pier_params_set_json binds a
 * member: {"a":1} as its JSON text, "x" as text, 2 as an integer.
 * @return PIER_E_INVALID_JSON (err->offset: where) if `json` is not one
 *         JSON value; the parameters are then unchanged. */
PIER_API pier_status pier_params_set_json_value(pier_params *params,
                                                const char *name,
                                                const char *json, size_t len,
                                                pier_error *err);

typedef struct pier_query_options {
    unsigned version;            /* PIER_QUERY_OPTIONS_VERSION */
    const char *const *with;     /* other boards the template may read as
                                    {{board:NAME}} */
    size_t nwith;
    int64_t min_watermark;       /* run on data at least this fresh */
    /* Version 2: */
    pier_limits limits;          /* this query's; 0 fields: the engine's */
    /* Version 3: */
    int64_t max_stale_ms;        /* a PostgreSQL lake's node that cannot
                                    reach the lake answers from its replicas
                                    as they stand when they were at the
                                    lake's head at most this long ago; 0:
                                    it fails with SyncFailed */
    /* Version 4: */
    const char *const *tables;   /* declared tables and views the template
                                    may read as {{table:NAME}} (the
                                    embedded lake only) */
    size_t ntables;
} pier_query_options;

#define PIER_QUERY_OPTIONS_VERSION 4
#define PIER_QUERY_OPTIONS_INIT                                           \
    { PIER_QUERY_OPTIONS_VERSION, NULL, 0, 0, PIER_LIMITS_INIT, 0, NULL, 0 }

/* The rows of a query, one at a time. */
typedef struct pier_cursor pier_cursor;

/*
 * Runs one read-only statement (SELECT, or WITH ... SELECT, in SQLite's
 * dialect) for `board`, where {{board}} stands for the board's rows with
 * their logical column names (and {{board:NAME}} for a board named in
 * opts->with), {{fts}} and {{fts:NAME}} for those boards' full-text
 * indexes (pier_fts_enable), and {{table:NAME}} for a declared table or
 * view named in opts->tables. The statement may read those and nothing
 * else (docs/query.md).
 * @return PIER_E_ENTITY_NOT_ALLOWED for anything else it would touch
 *         (other tables, the catalog, the change log, sqlite_schema,
 *         pragmas, attached databases, writes, transactions, a second
 *         statement), before anything runs;
 *         PIER_E_PLACEHOLDER_UNBOUND naming a parameter with no value;
 *         PIER_E_QUERY_FAILED with SQLite's message and the offset for
 *         malformed SQL, or {{fts}} of a board without an index;
 *         PIER_E_BOARD_NOT_FOUND; PIER_E_INVALID_BOARD_ID;
 *         PIER_E_TABLE_NOT_FOUND for {{table:NAME}} naming no table or
 *         view; PIER_E_TOPOLOGY_UNSUPPORTED for {{fts}} or {{table:NAME}}
 *         on a PostgreSQL lake;
 *         PIER_E_LIMIT_EXCEEDED (a limit of opts->limits, or a parameter
 *         longer than its value limit) and PIER_E_INTERRUPTED, here or
 *         from pier_cursor_next.
 */
PIER_API pier_status pier_query(pier_cursor **out, pier_engine *engine,
                                const char *board, const char *sql,
                                const pier_params *params,
                                const pier_query_options *opts,
                                pier_error *err);
/* The result's columns: names, and the logical type of a column read
 * straight from a board column (NULL for a computed one). Borrowed until
 * pier_cursor_close(). */
PIER_API size_t pier_cursor_column_count(const pier_cursor *cursor);
PIER_API const char *pier_cursor_column_name(const pier_cursor *cursor,
                                             size_t i);
PIER_API const char *pier_cursor_column_type(const pier_cursor *cursor,
                                             size_t i);
/* The next row (*row), or NULL at the end. The row is borrowed until the
 * next call or pier_cursor_close(); its values carry their logical types
 * (a timestamp as RFC 3339 text, a boolean as true/false, json as a
 * document) and computed values their SQLite value. */
PIER_API pier_status pier_cursor_next(const pier_row **row,
                                      pier_cursor *cursor, pier_error *err);
/* Releases the cursor. NULL: no-op. Cursors must be closed before their
 * engine. */
PIER_API void pier_cursor_close(pier_cursor *cursor);

/*
 * Stops the cursor's query: the pier_cursor_next running now, or the next
 * one, fails with PIER_E_INTERRUPTED, and so does every call after it.
 * May be called from any thread, and from a signal handler, while the
 * cursor is open (never after pier_cursor_close). No effect on a cursor
 * of pier_exec, whose statements have all run.
 */
PIER_API void pier_cursor_interrupt(pier_cursor *cursor);

/*
 * Stops every statement of the engine running or open now: each open
 * query's cursor fails with PIER_E_INTERRUPTED at its next step, and a
 * pier_exec in progress fails with it and changes nothing, and so does a
 * pier_backup in progress, leaving nothing of its copy. Statements
 * begun afterwards run as usual; writes through the other calls are not
 * affected. May be called from any thread, and from a signal handler.
 */
PIER_API void pier_interrupt(pier_engine *engine);

/* The forms a result converts to. */
typedef enum pier_format {
    PIER_FORMAT_JSON = 0,   /* one JSON array of objects, an object a line:
                               "[\n{...},\n{...}\n]\n" ("[]\n" if empty) */
    PIER_FORMAT_JSONL = 1,  /* one JSON object per line */
    PIER_FORMAT_CSV = 2     /* a header line of the column names, then one
                               record per row (pier_row_to_csv) */
} pier_format;

/* Receives output text; returns false to stop (a write failed). */
typedef bool (*pier_write_fn)(const char *bytes, size_t len, void *payload);

/*
 * Writes the cursor's remaining rows in `format`, handing `fn` one row's
 * text at a time: any number of rows takes constant memory. An object's
 * members are the result's columns in order, each value as its logical
 * type reads in JSON (pier_row_to_json). The number of rows written goes
 * to *nrows (may be NULL), also on failure.
 * @return PIER_E_WRITE_FAILED if `fn` returned false; the errors of
 *         pier_cursor_next; PIER_E_INVALID_ARGUMENT for an unknown format.
 */
PIER_API pier_status pier_cursor_write(int64_t *nrows, pier_cursor *cursor,
                                       pier_format format, pier_write_fn fn,
                                       void *payload, pier_error *err);

/*
 * The row as one CSV record (RFC 4180 quoting, without a line end), for
 * pier_free(): a null is an empty field, an empty text is "" so that the
 * two stay apart; a field holding a comma, a quote, a line break or
 * leading or trailing white space is quoted, quotes doubled. Values are
 * their canonical text (pier_value.text); json documents their JSON text.
 * NULL if out of memory.
 */
PIER_API char *pier_row_to_csv(const pier_row *row);

/* ------------------------------------------------------------------ */
/* The SQL dialect: declared tables (docs/sql.md)                       */

/*
 * Runs a script of SQL statements as the lake's owner: CREATE TABLE (with
 * Pier's logical types, STRICT, READONLY columns), ALTER TABLE ... ADD
 * COLUMN / RENAME COLUMN / RENAME TO / DROP COLUMN, CREATE and DROP INDEX
 * and VIEW, DROP TABLE, INSERT (with ON CONFLICT and RETURNING), UPDATE,
 * DELETE, SELECT, BEGIN / COMMIT / ROLLBACK, and CREATE BOARD [IF NOT
 * EXISTS] id [(column type [INFERRED], ...)] [STRICT] (a board, as
 * pier_board_create makes one). Parameters are bound, never
 * spliced; each statement binds the ones it names. The script is atomic:
 * when a statement fails, nothing of the script is applied (a ROLLBACK in
 * it undoes the statements since its BEGIN). Boards' rows (read them with
 * pier_query) and the engine's own objects (names starting with _pier_)
 * are out of its reach.
 * `*out` (may be NULL) receives the rows of the script's last statement,
 * each value decoded by its column's logical type (computed values by
 * what they are), held in memory; pier_cursor_changes() says how many rows
 * that statement inserted, updated or deleted.
 * @return PIER_E_COLUMN_TYPE_CONFLICT (a value that does not fit its
 *         column: err->board names the table, err->column the column,
 *         err->column_type its type), PIER_E_READONLY_COLUMN, the
 *         PIER_E_CONSTRAINT_* statuses with SQLite's message,
 *         PIER_E_UNKNOWN_TYPE (a type the dialect does not take, with the
 *         one to use), PIER_E_INVALID_COLUMN_NAME,
 *         PIER_E_RESERVED_COLUMN_NAME, PIER_E_DUPLICATE_COLUMN,
 *         PIER_E_UNKNOWN_COLUMN, PIER_E_TABLE_NOT_FOUND,
 *         PIER_E_ENTITY_NOT_ALLOWED (a statement outside the dialect, or
 *         one touching the engine's objects), PIER_E_PLACEHOLDER_UNBOUND,
 *         PIER_E_SCHEMA_DRIFT (the schema was changed without Pier),
 *         PIER_E_QUERY_FAILED (SQLite's message; err->offset is the byte
 *         of `sql` it points at, else the failing statement's first),
 *         PIER_E_LIMIT_EXCEEDED (the engine's limits: time for the whole
 *         call, each value, memory with the result's rows) and
 *         PIER_E_INTERRUPTED (pier_interrupt).
 */
PIER_API pier_status pier_exec(pier_cursor **out, pier_engine *engine,
                               const char *sql, const pier_params *params,
                               pier_error *err);

/* Rows the last statement of pier_exec inserted, updated or deleted; 0
 * for a query's cursor. */
PIER_API int64_t pier_cursor_changes(const pier_cursor *cursor);

/* Every declared table's name, sorted (case-insensitively), as a
 * NULL-terminated array for pier_strings_free(). */
PIER_API pier_status pier_table_list(char ***out, pier_engine *engine,
                                     pier_error *err);

typedef struct pier_table_column {
    int64_t id;                /* stable: never changes, never reused */
    const char *name;
    const char *type;          /* canonical spelling: "DECIMAL(12,2)" */
    pier_kind kind;            /* PIER_KIND_NULL for ANY */
    bool readonly;
} pier_table_column;

typedef struct pier_table_info {
    const char *table;
    int64_t id;
    size_t ncolumns;
    const pier_table_column *columns;   /* in table order */
    const char *sql;           /* CREATE TABLE in the dialect */
} pier_table_info;

/* Describes a declared table. Release with pier_table_info_free().
 * @return PIER_E_TABLE_NOT_FOUND. */
PIER_API pier_status pier_table_describe(pier_table_info **out,
                                         pier_engine *engine,
                                         const char *table, pier_error *err);
PIER_API void pier_table_info_free(pier_table_info *info);

/*
 * The whole lake's schema as a script in the dialect, for pier_free():
 * each board as CREATE BOARD (its columns with their types and origins,
 * its strict bit), then every declared table, index and view, in creation
 * order, as SQL that recreates it exactly through pier_exec.
 */
PIER_API pier_status pier_schema_dump(char **out, pier_engine *engine,
                                      pier_error *err);

/* ---- change history (docs/history.md) ---- */

/*
 * A changeset is SQLite's session changeset format: for each changed row
 * of a declared table with a PRIMARY KEY, its table, its key, and its
 * values before and after. Tables without a PRIMARY KEY, boards and the
 * engine's catalog are never recorded. A CHANGESET column of the dialect
 * holds one; CREATE COMMIT TRIGGER ... AS statement runs a statement just
 * before each pier_exec (or pier_changeset_apply) transaction commits,
 * reading that transaction's changes with the SQL function
 * pier_changeset().
 */

/*
 * Runs `sql` exactly as pier_exec does (one transaction, its commit
 * triggers run) and gives the changes it made to declared tables with a
 * PRIMARY KEY as a changeset: *out for pier_free, `*len` bytes; NULL and
 * 0 when it changed nothing. The changes of commit triggers are not
 * among them.
 * @return as pier_exec; PIER_E_INVALID_ARGUMENT if out or len is NULL;
 *         PIER_E_ENTITY_NOT_ALLOWED if sql changed a table without a
 *         PRIMARY KEY, whose changes cannot be recorded (nothing is
 *         kept).
 */
PIER_API pier_status pier_changeset(void **out, size_t *len,
                                    pier_engine *engine, const char *sql,
                                    const pier_params *params,
                                    pier_error *err);

/* What pier_changeset_apply does with a change that conflicts: a row to
 * insert whose key is taken, a row to update or delete that is missing
 * or holds other values than the change expects, a change a constraint
 * refuses. */
typedef enum pier_on_conflict {
    PIER_ON_CONFLICT_ABORT = 0,   /* fail with PIER_E_CHANGESET_CONFLICT;
                                     nothing is applied */
    PIER_ON_CONFLICT_SKIP = 1,    /* leave that change out */
    PIER_ON_CONFLICT_REPLACE = 2  /* the change wins: its row replaces the
                                     one there (a row already gone is
                                     skipped); a constraint still aborts */
} pier_on_conflict;

typedef struct pier_apply_options {
    unsigned version;             /* PIER_APPLY_OPTIONS_VERSION */
    bool invert;                  /* apply the inverse: undo the changes */
    pier_on_conflict on_conflict;
} pier_apply_options;

#define PIER_APPLY_OPTIONS_VERSION 1
#define PIER_APPLY_OPTIONS_INIT \
    { PIER_APPLY_OPTIONS_VERSION, false, PIER_ON_CONFLICT_ABORT }

typedef struct pier_apply_result {
    int64_t applied;              /* changes carried out (replacements
                                     included) */
    int64_t skipped;              /* changes left out for a conflict */
    int64_t replaced;             /* rows a change replaced */
} pier_apply_result;

/*
 * Applies a changeset (`len` bytes), or with opts->invert its inverse, in
 * one write transaction: every change, or nothing. Conflicts are met as
 * opts->on_conflict says; the lake's constraints, value checks and
 * foreign keys hold as for any write; commit triggers run before the
 * commit. Every table it names must be a declared table whose columns
 * and key match the change's. `opts` NULL: abort, not inverted. `*out`
 * (may be NULL): what was done.
 * @return PIER_E_INVALID_ARGUMENT (bytes that are not a changeset, a
 *         patchset, a bad option); PIER_E_TABLE_NOT_FOUND (a table the
 *         lake does not have, or with other columns or key);
 *         PIER_E_ENTITY_NOT_ALLOWED (an engine's table);
 *         PIER_E_CHANGESET_CONFLICT (a conflict under abort: the message
 *         names the table and the change); PIER_E_COLUMN_TYPE_CONFLICT,
 *         the PIER_E_CONSTRAINT_* statuses; PIER_E_SCHEMA_DRIFT; a
 *         commit trigger's failure.
 */
PIER_API pier_status pier_changeset_apply(pier_apply_result *out,
                                          pier_engine *engine,
                                          const void *bytes, size_t len,
                                          const pier_apply_options *opts,
                                          pier_error *err);

/*
 * A changeset as JSON lines, for people, into *out for pier_free(): one
 * object per change, {"table":"tasks","op":"update","old":{...},
 * "new":{...}} ("indirect":true for a change a trigger or a foreign key's
 * action made). "old" holds the row before (a delete's whole row, an
 * update's key and the columns it changes), "new" the row after (an
 * insert's whole row, an update's changed columns). With an engine (may
 * be NULL), columns of a table it has are named and decoded by their
 * types as pier_exec reads them; otherwise they are "c1", "c2"... and
 * read by storage class (a blob as hex).
 * @return PIER_E_INVALID_ARGUMENT for bytes that are not a changeset.
 */
PIER_API pier_status pier_changeset_to_json(char **out, pier_engine *engine,
                                            const void *bytes, size_t len,
                                            pier_error *err);

/* ---- declarative migrations ---- */

#define PIER_MIGRATE_OPTIONS_VERSION 1

typedef struct pier_migrate_options {
    unsigned version;          /* PIER_MIGRATE_OPTIONS_VERSION */
    bool allow_destructive;    /* drops may destroy data */
    bool schema_owns_database; /* managed tables, views and boards the
                                  declaration does not name are dropped */
    const char *expect;        /* the catalog fingerprint the plan must be
                                  made against, or NULL */
} pier_migrate_options;

/* A plan: the steps that make the lake what a declaration states. */
typedef struct pier_migration pier_migration;

/*
 * Plans the migration of the lake to `declaration` (CREATE TABLE, VIEW,
 * BOARD and INDEX statements in the dialect, `len` bytes; see
 * docs/migrations.md), changing nothing. `options` may be NULL (nothing
 * destroyed, the declaration speaks for the objects it names).
 * @return PIER_OK (*out: the plan, possibly of no steps; release with
 *         pier_migration_free);
 *         PIER_E_INVALID_SCHEMA (err->offset in the declaration) for a
 *         declaration that cannot mean anything;
 *         PIER_E_MIGRATION_REFUSED naming every change a migration does
 *         not make; PIER_E_DESTRUCTIVE_CHANGE naming what would be
 *         destroyed, unless allowed; PIER_E_MIGRATION_CONFLICT if
 *         options->expect is not the catalog's fingerprint;
 *         PIER_E_INVALID_ARGUMENT, PIER_E_OUT_OF_MEMORY, PIER_E_READ_FAILED.
 */
PIER_API pier_status pier_plan(pier_migration **out, pier_engine *engine,
                               const char *declaration, size_t len,
                               const pier_migrate_options *options,
                               pier_error *err);
/* The fingerprint of the catalog the plan was made against (16 hex
 * digits): pass it as options->expect to apply exactly this plan. */
PIER_API const char *pier_migration_fingerprint(const pier_migration *m);
PIER_API size_t pier_migration_steps(const pier_migration *m);
/* The plan as JSON, for pier_free():
 * {"fingerprint":"...","steps":[{"step":"add_column","class":"metadata",
 * "table":"notes","column":"status","column_id":7,...}],"destructive":[...]}
 * (a step names its "table", "view", "index" or "board", and where they
 * apply "column", "table_id", "column_id", "from", "to", "rows" and
 * "rewrite"). */
PIER_API char *pier_migration_to_json(const pier_migration *m);
/* The plan as text, one step a line: "class  step  object: detail". For
 * pier_free(). */
PIER_API char *pier_migration_to_text(const pier_migration *m);
PIER_API void pier_migration_free(pier_migration *m);
/*
 * Plans the migration to `declaration` as pier_plan does, under the write
 * lock (a second migrator plans on what the first made), and applies every
 * step in one write transaction: all of it, or nothing. *watermark (may be
 * NULL): the lake's head after it; *applied (may be NULL): the plan that
 * was applied, for pier_migration_free. A second run is zero steps.
 * @return as pier_plan; PIER_E_SCHEMA_DRIFT if the SQL schema was changed
 *         without Pier; PIER_E_VIEW_MISMATCH when a declared view's
 *         columns are not what its body produces (their number, or a
 *         declared type the column it reads does not fit);
 *         PIER_E_PROOF_FAILED when a tightening's proof finds a row that
 *         breaks it; PIER_E_WRITE_FAILED; a step SQLite refuses. Nothing is
 *         applied when it fails.
 */
PIER_API pier_status pier_migrate(int64_t *watermark, pier_engine *engine,
                                  const char *declaration, size_t len,
                                  const pier_migrate_options *options,
                                  pier_migration **applied,
                                  pier_error *err);

/*
 * The whole lake as a declaration (docs/migrations.md): every table with
 * its keys, foreign keys, checks, defaults and backfills, indexes, views
 * with their declared columns, and boards with every column (inferred
 * ones too), each after a comment saying whether a migration made it
 * (managed). pier_migrate of the text makes no step: a team adopts what
 * pier sql or inference made by exporting it. Objects a declaration
 * cannot state are named in comments. *out: for pier_free().
 * @return PIER_OK; PIER_E_SCHEMA_DRIFT; PIER_E_READ_FAILED;
 *         PIER_E_OUT_OF_MEMORY; PIER_E_INVALID_ARGUMENT.
 */
PIER_API pier_status pier_schema_export(char **out, pier_engine *engine,
                                        pier_error *err);
/*
 * The catalog as migrations see it, as JSON for pier_free():
 * {"tables":[{"name","id","managed","columns":[{"id","name","type",
 * "nullable","default","backfill","readonly","autoincrement","added"}],
 * "keys":[{"name","primary","columns"}],"foreign_keys":[{"name","column",
 * "table","parent_column","on_delete"}],"checks":[{"name","expr"}],
 * "autoincrement":{"column","counter"}}],"views":[{"name","managed",
 * "columns":[{"name","type"}],"sql"}],"indexes":[{"name","table","unique",
 * "managed","sql"}],"boards":[{"name","managed","strict","columns":[{"id",
 * "name","type","origin"}]}],"opaque":[{"name","why","view"}]}.
 * @return as pier_schema_export.
 */
PIER_API pier_status pier_introspect(char **out, pier_engine *engine,
                                     pier_error *err);

/* Compares the lake's SQL schema with the one Pier made.
 * @return PIER_OK, or PIER_E_SCHEMA_DRIFT naming every table, index, view
 *         or trigger created, changed or dropped without Pier. */
PIER_API pier_status pier_schema_check(pier_engine *engine, pier_error *err);

/* ---- versioned migration files ---- */

/*
 * The other style of migration (docs/migrations.md, "Versioned migration
 * files"): a directory of files named VERSION_NAME.sql, VERSION being 14
 * digits (YYYYMMDDHHMMSS, UTC) that order them, each holding a
 * "-- migrate:up" section of SQL to apply and a "-- migrate:down" section
 * that undoes it (empty or absent: the version is irreversible). Both run
 * as pier_exec runs a script: as the lake's owner, in Pier's dialect,
 * under the engine's limits. The lake records each version applied with
 * the checksum of its file, in the transaction that applied it. Files
 * whose names do not end in ".sql", hidden ones and directories are
 * ignored; a ".sql" file that is no migration's is an error.
 */

/* Where a version stands, comparing the directory with the lake. */
typedef enum pier_migration_file_state {
    PIER_MIGRATION_FILE_PENDING = 0,  /* in the directory, not applied */
    PIER_MIGRATION_FILE_APPLIED = 1,  /* applied; its file is unchanged */
    PIER_MIGRATION_FILE_MODIFIED = 2, /* applied; its file changed since */
    PIER_MIGRATION_FILE_MISSING = 3   /* applied; its file is gone */
} pier_migration_file_state;

typedef struct pier_migration_file {
    const char *version;       /* "20261201193000" */
    const char *name;          /* "create_tasks" (a missing file's: as
                                  recorded) */
    const char *file;          /* "20261201193000_create_tasks.sql" */
    pier_migration_file_state state;
    const char *checksum;      /* the file's as it is now (16 hex digits),
                                  "" when missing */
    const char *applied_checksum; /* the file's when it was applied, ""
                                  when pending */
    int64_t applied_at;        /* microseconds since the epoch, UTC; 0
                                  when pending */
    bool reversible;           /* its down section holds SQL (false when
                                  missing) */
} pier_migration_file;

/* A list of versions, ascending. Release with pier_migration_files_free;
 * the strings live as long as the list. */
typedef struct pier_migration_files {
    size_t nfiles;
    const pier_migration_file *files;
} pier_migration_files;

PIER_API void pier_migration_files_free(pier_migration_files *files);

/*
 * Writes a new migration file in `dir` (created, with its parents, if
 * missing): a template of the two sections, named by the version of
 * `now_us` (microseconds since the epoch, UTC; the caller's clock) and
 * `name`. The version is the second of now_us, or the second after the
 * directory's latest version if that is not earlier, so that the new file
 * sorts last and two quick calls never collide. `name` is made a file
 * name's part: ASCII letters lowered, spaces and '-' become '_'. The file
 * appears whole or not at all (written under a hidden name, then linked
 * to its own). Needs no engine. *path: the file's path
 * (dir/VERSION_NAME.sql), for pier_free().
 * @return PIER_E_INVALID_ARGUMENT for a name that is empty or holds
 *         anything but letters, digits, '_', '-' and spaces (or longer
 *         than 100 bytes); PIER_E_INVALID_SCHEMA for a ".sql" file
 *         whose name is no migration's, or two files of one version (the
 *         files' text is not read); PIER_E_WRITE_FAILED,
 *         PIER_E_READ_FAILED for the file system.
 */
PIER_API pier_status pier_migration_file_create(char **path, const char *dir,
                                                const char *name,
                                                int64_t now_us,
                                                pier_error *err);

/*
 * Every version of the directory and of the lake's record, ascending,
 * with its state; changes nothing. *out: for pier_migration_files_free.
 * @return PIER_E_INVALID_SCHEMA naming the file (err->offset: the byte at
 *         fault, or -1) for a ".sql" file whose name is not VERSION_NAME
 *         .sql (NAME: lowercase letters, digits and '_'), two files of one
 *         version, a file without a "-- migrate:up" line, with two, with
 *         "-- migrate:down" before it, with SQL before it, with an unknown
 *         "-- migrate:" line, or holding a NUL byte; PIER_E_READ_FAILED if
 *         the directory or a file cannot be read; PIER_E_LIMIT_EXCEEDED
 *         for a file over 64 MiB.
 */
PIER_API pier_status pier_migration_files_status(pier_migration_files **out,
                                                 pier_engine *engine,
                                                 const char *dir,
                                                 pier_error *err);

/*
 * Applies every pending version of `dir` in ascending order (one older
 * than a version applied too), each in its own write transaction: its up
 * section, run as pier_exec runs a script (as the lake's owner, with the
 * engine's limits), and its record, committed together. Every file is
 * read and checked before anything runs. The first version that fails is
 * rolled back and ends the call, but, unlike other calls, a failure
 * keeps what came before it: the versions applied before it stay
 * applied. A version another process applied meanwhile is skipped.
 * *watermark (may be NULL): the lake's head after. *applied (may be
 * NULL): the versions this call applied, in order, also when it fails
 * part-way (release it with pier_migration_files_free either way).
 * @return as pier_migration_files_status; PIER_E_INVALID_SCHEMA for a
 *         pending version whose up section holds no SQL (before any
 *         runs); PIER_E_SCHEMA_DRIFT; the errors of pier_exec, the
 *         message then ending with where in which file it failed
 *         (" (line L, column C of 'DIR/FILE')"; err->offset: the byte
 *         of the file), or " (in 'DIR/FILE')" when SQLite says no place.
 */
PIER_API pier_status pier_migration_files_up(int64_t *watermark,
                                             pier_engine *engine,
                                             const char *dir,
                                             pier_migration_files **applied,
                                             pier_error *err);

/*
 * Rolls back the latest version applied (the highest), one only: its
 * down section, run as pier_exec runs a script, and the removal of its
 * record, committed together. No version applied: PIER_OK, nothing done.
 * *watermark (may be NULL): the lake's head after. *reverted (may be
 * NULL): the version rolled back, or none.
 * @return PIER_E_MIGRATION_REFUSED, changing nothing, when the version is
 *         irreversible (its down section is empty or absent) or its file
 *         is missing from `dir`; otherwise as pier_migration_files_up.
 */
PIER_API pier_status pier_migration_files_down(int64_t *watermark,
                                               pier_engine *engine,
                                               const char *dir,
                                               pier_migration_files **reverted,
                                               pier_error *err);

/* ---- code generation from a declaration ---- */

/* What pier_schema_codegen writes. */
typedef enum pier_codegen_target {
    PIER_CODEGEN_C = 0,           /* a C header of structs and static
                                     inline helpers over this header */
    PIER_CODEGEN_JSON_SCHEMA = 1  /* one JSON Schema (draft 2020-12)
                                     document */
} pier_codegen_target;

#define PIER_CODEGEN_OPTIONS_VERSION 1

typedef struct pier_codegen_options {
    unsigned version;          /* PIER_CODEGEN_OPTIONS_VERSION */
    const char *prefix;        /* C: the prefix of every name the header
                                  defines (1 to 32 letters, digits and
                                  underscores); NULL: "db" */
} pier_codegen_options;

#define PIER_CODEGEN_OPTIONS_INIT { PIER_CODEGEN_OPTIONS_VERSION, NULL }

/*
 * Writes the shapes of a declaration's rows (`len` bytes, as pier_plan
 * reads them; no engine is needed) for `target`, into *out for pier_free():
 * for each table a select shape (a row as Pier reads it), an insert shape
 * (a new row: columns with a DEFAULT, a generated value or NULL may be
 * left out) and an update shape (every column but the READONLY ones, all
 * optional); for each view a select shape; for each board the three over
 * its base and declared columns (docs/migrations.md, "Code generation").
 * `opts` may be NULL.
 * @return PIER_E_INVALID_SCHEMA (err->offset in the declaration) as
 *         pier_plan reads it; PIER_E_INVALID_ARGUMENT for an unknown target
 *         or a prefix that is not a C identifier; PIER_E_OUT_OF_MEMORY.
 */
PIER_API pier_status pier_schema_codegen(char **out, const char *declaration,
                                         size_t len,
                                         pier_codegen_target target,
                                         const pier_codegen_options *opts,
                                         pier_error *err);

/* ------------------------------------------------------------------ */
/* Operations                                                           */

/*
 * Drops change records committed more than `older_than_hours` ago (the
 * newest record is always kept) and moves the retention floor to the
 * highest watermark dropped, checkpoints the write-ahead log and returns
 * free pages to the file system. It checkpoints first, which on a full
 * disk gives the log's space back and needs room only for the pages the
 * log adds to the lake file; then it drops the records (one write); then
 * it compacts. If that last step fails, the records stay dropped (the
 * message says so): running maintain again finishes the job.
 */
PIER_API pier_status pier_maintain(pier_engine *engine, int older_than_hours,
                                   pier_error *err);
/* Writes pending buffered changes to the lake: one board or (NULL) all.
 * The embedded lake buffers nothing, so this checks the board and returns.
 */
PIER_API pier_status pier_flush(pier_engine *engine, const char *board,
                                pier_error *err);
/* Drops a board's replica: on a PostgreSQL lake, closes this node's
 * replica of the board and deletes its files (the next read makes it
 * again from the lake). The embedded lake caches none, so there this
 * checks the board and returns. */
PIER_API pier_status pier_evict(pier_engine *engine, const char *board,
                                pier_error *err);

typedef struct pier_stats {
    int64_t boards;
    int64_t rows;              /* over every board */
    int64_t change_records;    /* kept in the change log */
    int64_t head;
    int64_t floor;             /* retention floor: records at or below it
                                  may be gone */
    int64_t lake_bytes;        /* the lake file */
    int64_t wal_bytes;         /* its write-ahead log */
    int64_t writes;            /* writes this engine committed */
    int64_t queries;           /* reads this engine served */
    int64_t last_maintenance;  /* microseconds since the epoch; 0: never */
    /* A PostgreSQL lake's node (0 on an embedded lake): */
    int64_t syncs;             /* replica syncs that read the change log */
    int64_t records_applied;   /* change records they applied */
    int64_t rebuilds;          /* replicas made again from the lake */
    int64_t replicas;          /* replicas open now */
} pier_stats;

PIER_API pier_status pier_stats_get(pier_stats *out, pier_engine *engine,
                                    pier_error *err);

/* One board's figures. The caller sets `version` (start from
 * PIER_BOARD_STATS_INIT); the library fills the fields of that version,
 * and later versions only append fields, so that a program built against
 * this header keeps working with a newer library. */
#define PIER_BOARD_STATS_VERSION 1
typedef struct pier_board_stats {
    unsigned version;          /* PIER_BOARD_STATS_VERSION */
    int64_t rows;
    int64_t bytes;             /* the lake file's pages holding its table
                                  and indexes, each page whole; -1 if the
                                  libsqlite3 cannot tell (no dbstat) */
    int64_t columns;           /* base columns (id, updated_at, state)
                                  included */
    int64_t change_records;    /* records of the board the feed keeps */
} pier_board_stats;
#define PIER_BOARD_STATS_INIT { PIER_BOARD_STATS_VERSION, 0, 0, 0, 0 }

/*
 * Fills *out (its `version` set by the caller) with BOARD's figures, read
 * in one transaction, so that they agree with each other. On failure *out
 * is unchanged.
 * @return PIER_E_BOARD_NOT_FOUND if there is no such board;
 *         PIER_E_INVALID_ARGUMENT for a bad board id, or a `version` this
 *         library does not know (0, or above PIER_BOARD_STATS_VERSION);
 *         PIER_E_TOPOLOGY_UNSUPPORTED on a PostgreSQL lake, whose node
 *         holds replicas, not the boards' files: `pier_row_count` and
 *         `pier_changes` answer there.
 */
PIER_API pier_status pier_board_stats_get(pier_board_stats *out,
                                          pier_engine *engine,
                                          const char *board,
                                          pier_error *err);

/* ------------------------------------------------------------------ */
/* Backup and restore (docs/backup.md)                                  */

#define PIER_BACKUP_FORCE 1u   /* replace dest_dir if it holds a lake */

/*
 * Writes a copy of the engine's lake, as it stood at one commit, into the
 * new directory `dest_dir` (its parent is made if missing): a complete
 * data directory that pier_open opens. Other processes may write while it
 * runs; the copy holds all of a transaction or none of it. The copy is
 * made beside dest_dir and renamed into place, so dest_dir is the whole
 * copy or absent. `flags`: 0, or PIER_BACKUP_FORCE to replace a dest_dir
 * that holds a lake (and nothing else) or nothing.
 * @return PIER_E_INVALID_ARGUMENT if dest_dir exists (without
 *         PIER_BACKUP_FORCE; with it, if it holds anything but a lake);
 *         PIER_E_LAKE_UNAVAILABLE if what it holds is not a Pier lake;
 *         PIER_E_WRITE_FAILED if another process has that lake open, or
 *         the copy cannot be written (nothing is left of it);
 *         PIER_E_INTERRUPTED if pier_interrupt stopped the copy (nothing
 *         is left of it);
 *         PIER_E_TOPOLOGY_UNSUPPORTED on a PostgreSQL lake (use pg_dump).
 */
PIER_API pier_status pier_backup(pier_engine *engine, const char *dest_dir,
                                 unsigned flags, pier_error *err);

/*
 * Replaces the lake in `data_dir` (made if missing) with a copy of the
 * lake in `src_dir` (a backup, or any embedded lake). Atomic: the new
 * pages are written in one transaction of the old lake, so a failure or a
 * crash half-way leaves the old lake whole. No other process may have the
 * lake in data_dir open: it is locked exclusively first, and the call
 * fails if it cannot be. Like pier_reset_lake, it takes no engine.
 * @return PIER_E_LAKE_UNAVAILABLE if src_dir holds no Pier lake (or one
 *         of a newer format), or data_dir's lake.sqlite is not a Pier lake
 *         (it is left alone); PIER_E_WRITE_FAILED if another process has
 *         the lake open, or the copy cannot be written;
 *         PIER_E_INVALID_ARGUMENT if both name the same lake;
 *         PIER_E_TOPOLOGY_UNSUPPORTED for a PostgreSQL URL (pg_restore).
 */
PIER_API pier_status pier_restore(const char *data_dir, const char *src_dir,
                                  pier_error *err);

/*
 * Writes the whole lake to `fn` as JSON lines (docs/backup.md, "Export
 * and import"): every board with its types, strictness and rows (ids,
 * updated_at, every value), the change feed, every declared table, index,
 * view and trigger with their rows, as of one read transaction. An
 * export imported into a new lake exports to the same bytes.
 * @return PIER_E_WRITE_FAILED if `fn` returned false;
 *         PIER_E_READ_FAILED; PIER_E_TOPOLOGY_UNSUPPORTED on a PostgreSQL
 *         lake (use pg_dump).
 */
PIER_API pier_status pier_export(pier_engine *engine, pier_write_fn fn,
                                 void *payload, pier_error *err);

/* Fills buf with up to `cap` bytes of input and sets *got to how many
 * (0: the input has ended); returns false if reading failed. */
typedef bool (*pier_read_fn)(char *buf, size_t cap, size_t *got,
                             void *payload);

/*
 * Loads an export (pier_export's text, `len` bytes) into the engine's
 * lake, which must be new (no board, no change record, nothing
 * declared), in one transaction: all of it or nothing.
 * @return PIER_E_INVALID_ARGUMENT for a lake that is not new, or an
 *         export of another on-disk format; PIER_E_CONSTRAINT_* for rows
 *         a declared table's constraint refuses (a foreign key: checked
 *         once every row is in);
 *         PIER_E_INVALID_JSON for text that is not an export (the message
 *         gives the line), or one cut short; PIER_E_WRITE_FAILED;
 *         PIER_E_TOPOLOGY_UNSUPPORTED on a PostgreSQL lake.
 */
PIER_API pier_status pier_import(pier_engine *engine, const char *text,
                                 size_t len, pier_error *err);

/*
 * pier_import, reading the export from `fn` a part at a time: memory
 * holds one line of it, not the whole (the lake is still written in one
 * transaction). The lake is checked to be new before anything is read.
 * @return what pier_import returns; PIER_E_READ_FAILED if `fn` returned
 *         false (nothing is written).
 */
PIER_API pier_status pier_import_read(pier_engine *engine, pier_read_fn fn,
                                      void *payload, pier_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PIER_H */
