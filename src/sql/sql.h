/*
 * sql.h: the SQL dialect's front-end (parse.c): splits a script into
 * statements, says what each one is, and reads the statements whose text
 * Pier must understand itself: CREATE TABLE and ALTER TABLE, whose column
 * types are Pier's logical types (SQLite would take any word as a type),
 * and the names every DDL statement creates, changes or drops.
 *
 * It reads SQLite's dialect as SQLite's tokenizer does (quoted strings,
 * "identifiers", [identifiers], `identifiers`, -- and C comments, blobs
 * x'..', parameters), but parses only the heads of statements; what SQLite
 * itself checks (expressions, SELECT bodies, constraint syntax) it passes
 * through as text for SQLite to judge, after writing the few forms of the
 * dialect SQLite's grammar lacks as SQL it has (pier__sql_rewrite, the
 * same length). Pure: no SQLite handle, no I/O;
 * tests/unit/test_sql.c covers it.
 */
#ifndef PIER_SQL_H
#define PIER_SQL_H

#include "base/base.h"

typedef enum pier__stmt_kind {
    PIER__STMT_SELECT = 0,        /* SELECT, VALUES, WITH ... SELECT */
    PIER__STMT_INSERT,            /* INSERT, REPLACE, WITH ... INSERT */
    PIER__STMT_UPDATE,            /* UPDATE, WITH ... UPDATE */
    PIER__STMT_DELETE,            /* DELETE, WITH ... DELETE */
    PIER__STMT_CREATE_TABLE,
    PIER__STMT_CREATE_INDEX,      /* CREATE [UNIQUE] INDEX */
    PIER__STMT_CREATE_VIEW,
    PIER__STMT_ADD_COLUMN,        /* ALTER TABLE t ADD [COLUMN] def */
    PIER__STMT_RENAME_COLUMN,     /* ALTER TABLE t RENAME [COLUMN] a TO b */
    PIER__STMT_RENAME_TABLE,      /* ALTER TABLE t RENAME TO u */
    PIER__STMT_DROP_COLUMN,       /* ALTER TABLE t DROP [COLUMN] c */
    PIER__STMT_DROP_TABLE,
    PIER__STMT_DROP_INDEX,
    PIER__STMT_DROP_VIEW,
    PIER__STMT_BEGIN,             /* BEGIN [DEFERRED|IMMEDIATE|EXCLUSIVE]
                                     [TRANSACTION] */
    PIER__STMT_COMMIT,            /* COMMIT, END [TRANSACTION] */
    PIER__STMT_ROLLBACK,          /* ROLLBACK [TRANSACTION] (not TO) */
    PIER__STMT_CREATE_BOARD,      /* CREATE BOARD [IF NOT EXISTS] id
                                     [(column type [INFERRED], ...)]
                                     [STRICT]: a board, as pier_board_create
                                     makes one (what schema dump writes) */
    PIER__STMT_CREATE_COMMIT_TRIGGER, /* CREATE COMMIT TRIGGER [IF NOT
                                     EXISTS] name ON (ALL | t, ...) AS
                                     statement (docs/history.md) */
    PIER__STMT_DROP_COMMIT_TRIGGER /* DROP COMMIT TRIGGER [IF EXISTS]
                                     name */
} pier__stmt_kind;

/* A value of DEFAULT or BACKFILL in a declaration, as written: a literal
 * ('text', 12, -1.5, x'00', NULL, TRUE, FALSE), an expression in
 * parentheses, or now(). */
typedef struct pier__sql_value {
    char *text;                /* NULL: none given */
    size_t offset;
    bool now;                  /* now() */
} pier__sql_value;

/* ON DELETE of a declaration's REFERENCES. */
typedef enum pier__fk_action {
    PIER__FK_RESTRICT = 0,     /* also when none is written */
    PIER__FK_CASCADE,
    PIER__FK_SET_NULL
} pier__fk_action;

/* REFERENCES table [(column)] [ON DELETE action], of a column or of a
 * table's FOREIGN KEY (column). */
typedef struct pier__sql_fk {
    char *name;                /* CONSTRAINT name, or NULL */
    char *column;              /* the referencing column */
    char *table;               /* the parent table */
    char *parent;              /* its column; NULL: its unique key */
    size_t offset;             /* REFERENCES */
    pier__fk_action on_delete;
} pier__sql_fk;

/* CONSTRAINT name CHECK (expr), or an unnamed CHECK (name NULL). */
typedef struct pier__sql_check {
    char *name;
    char *expr;                /* between the parentheses, as written */
    size_t offset;             /* CHECK (or CONSTRAINT) */
} pier__sql_check;

/* UNIQUE (columns) or PRIMARY KEY (columns) of a declaration's table, or
 * of one column (ncolumns 1). */
typedef struct pier__sql_key {
    char *name;                /* CONSTRAINT name, or NULL */
    char **columns;
    size_t ncolumns;
    size_t offset;
    bool primary;
} pier__sql_key;

/* A column definition of CREATE TABLE or ADD COLUMN. Strings live in the
 * script's arena, NUL-terminated. */
typedef struct pier__sql_column {
    char *name;                /* unquoted */
    size_t name_offset;        /* byte offset of the name in the script */
    char *type;                /* the type spelling as written, trimmed
                                  ("DECIMAL(12, 2)", "TEXT[]",
                                  "ENUM('a','b')"); "" when none is
                                  written */
    size_t type_offset;        /* where it starts; with none written,
                                  just after the name */
    char *constraints;         /* the column constraints as written, in
                                  order, READONLY taken out; "" if none */
    bool readonly;             /* READONLY was among them */
    bool primary_key;          /* PRIMARY KEY was among them */
    bool generated;            /* GENERATED ALWAYS AS (...) or AS (...) */
    bool collate;              /* a COLLATE clause was among them */
    bool references_update;    /* REFERENCES ... ON UPDATE CASCADE,
                                  SET NULL or SET DEFAULT */
    bool inferred;             /* CREATE BOARD: INFERRED after the type */
    bool default_now;          /* DEFAULT now(), or its physical form
                                  DEFAULT (_pier_now('TYPE')): either
                                  reads "DEFAULT now()" in constraints */
    size_t default_now_at;     /* where "now()" is in constraints */
    /* Read in declarations only (pier__sql_parse_declaration), where
     * every constraint is read (the table's keys, checks and foreign keys
     * are in its pier__sql_table): */
    bool not_null;             /* NOT NULL */
    bool null;                 /* NULL written */
    bool autoincrement;        /* AUTOINCREMENT, alone or after PRIMARY
                                  KEY */
    pier__sql_value dflt;      /* DEFAULT */
    pier__sql_value backfill;  /* BACKFILL */
    char *renamed_from;        /* RENAMED FROM name, or NULL */
    size_t renamed_from_offset;
} pier__sql_column;

/* CREATE TABLE. */
typedef struct pier__sql_table {
    pier__sql_column *columns;
    size_t ncolumns;
    char *constraints;         /* the table constraints as written, comma
                                  separated as in the statement (without
                                  the comma before the first); "" if none */
    bool without_rowid;        /* WITHOUT ROWID among the options */
    bool strict;               /* STRICT among the options (tables are
                                  STRICT either way) */
    bool as_select;            /* CREATE TABLE ... AS SELECT */
    /* Declarations only: */
    char *renamed_from;        /* CREATE TABLE t RENAMED FROM old */
    size_t renamed_from_offset;
    pier__sql_key *keys;       /* PRIMARY KEY and UNIQUE, of columns and
                                  of the table, in order */
    size_t nkeys;
    pier__sql_check *checks;   /* of columns and of the table, in order */
    size_t nchecks;
    pier__sql_fk *fks;         /* REFERENCES and FOREIGN KEY, in order */
    size_t nfks;
} pier__sql_table;

typedef struct pier__sql_stmt {
    pier__stmt_kind kind;
    size_t offset;             /* the statement's first byte in the
                                  script (after leading space and
                                  comments) */
    size_t len;                /* its length, without the ';' */
    char *schema;              /* a schema qualifying the object's name
                                  ("main", "temp"...), or NULL */
    bool temp;                 /* CREATE TEMP / TEMPORARY */
    bool if_exists;            /* DROP ... IF EXISTS */
    bool if_not_exists;        /* CREATE ... IF NOT EXISTS */
    bool unique;               /* CREATE UNIQUE INDEX */
    char *name;                /* the object created, altered or dropped
                                  (a table, an index, a view); the INSERT,
                                  UPDATE or DELETE target; NULL for
                                  SELECT and transaction statements */
    size_t name_offset;
    char *table;               /* CREATE INDEX: the table it is on */
    char *column;              /* RENAME COLUMN: the old name; DROP
                                  COLUMN: the column */
    char *new_name;            /* RENAME COLUMN, RENAME TO: the new name */
    pier__sql_table *create;   /* CREATE TABLE; CREATE BOARD (columns
                                  with their types only, `strict`) */
    pier__sql_column *add;     /* ADD COLUMN */
    /* INSERT: the columns it names (insert_list), or DEFAULT VALUES; with
     * neither it gives every column. */
    bool insert_list;
    char **insert_columns;
    size_t ninsert_columns;
    bool insert_default_values;
    size_t insert_at;          /* where the list's ')' is, or DEFAULT of
                                  DEFAULT VALUES (a byte of the script) */
    size_t insert_rest;        /* just after the list, or after VALUES */
    /* CREATE COMMIT TRIGGER: the tables after ON (none: ALL), unquoted,
     * and where each is. */
    char **trigger_tables;
    size_t *trigger_table_offsets;
    size_t ntrigger_tables;
    /* Declarations only: */
    pier__sql_column *view_columns; /* CREATE VIEW v (name TYPE, ...) */
    size_t nview_columns;
    char *body;                /* CREATE VIEW: the SELECT after AS;
                                  CREATE INDEX: from the '(' after the
                                  table's name to the end; CREATE COMMIT
                                  TRIGGER (in scripts too): the statement
                                  after AS */
    size_t body_offset;
} pier__sql_stmt;

/* A script split into statements; everything in its arena. */
typedef struct pier__sql_script {
    pier__sql_stmt *stmts;
    size_t nstmts;
    const char *text;          /* the script as SQLite is to read it:
                                  pier__sql_rewrite's text, else the one
                                  given; the same length, so every offset
                                  holds in both */
    char *rewritten;           /* owned: text, when it was rewritten */
    pier__arena arena;
} pier__sql_script;

/*
 * Writes the dialect's syntax that SQLite lacks as SQL it has:
 * EXTRACT(field FROM x), its field a name or a string, becomes
 * date_part('field', x). Tokens are read as SQLite reads them, so nothing
 * in a string, a quoted name or a comment changes. The result has the
 * same length as sql (the rest is spaces), so that offsets hold in both.
 * @return the text (n bytes and a NUL; the caller frees it), or NULL when
 *         nothing needs rewriting (*oom false) or memory ran out (*oom
 *         true).
 */
char *pier__sql_rewrite(const char *sql, size_t n, bool *oom);

/*
 * Finds the first CAST(x AS T) in `sql` whose T is a name CREATE TABLE
 * refuses (NUMERIC, TINYINT, HUGEINT, VARCHAR without its length...):
 * SQLite would cast to an affinity, so the dialect refuses it as a column
 * would be refused. Tokens are read as SQLite reads them.
 * @return true with *at the type's byte and `why` saying what to write
 *         instead; false when every cast is one the dialect takes.
 */
bool pier__sql_cast_refused(const char *sql, size_t n, size_t *at,
                            char *why, size_t why_size);

/*
 * Splits `sql` into statements at the semicolons outside strings,
 * identifiers and comments (empty statements are skipped) and reads the
 * head of each, in the text pier__sql_rewrite makes of it (out->text).
 * Names are unquoted ("a""b" reads a"b). Statements are read in order and
 * the first at fault ends the parse: a refused kind is reported as such
 * whatever follows its leading keywords.
 * @return PIER_OK (*out filled; release with pier__sql_script_free, also
 *         after a failure, which leaves no statements in it);
 *         PIER_E_ENTITY_NOT_ALLOWED for a statement that is none of the
 *         kinds above (PRAGMA, ATTACH, DETACH, VACUUM, ANALYZE, REINDEX,
 *         SAVEPOINT, RELEASE, ROLLBACK TO, EXPLAIN, CREATE TRIGGER, CREATE
 *         VIRTUAL TABLE...), naming it;
 *         PIER_E_QUERY_FAILED for a head that does not parse (an
 *         unterminated string or quoted name, a NUL byte, unbalanced
 *         parentheses, CREATE TABLE without columns, a column without a
 *         name...); a block comment left open runs to the end, as in
 *         SQLite;
 *         both with err->offset at the fault's byte in `sql`;
 *         PIER_E_OUT_OF_MEMORY.
 */
pier_status pier__sql_parse(pier__sql_script *out, const char *sql,
                            size_t len, pier_error *err);
void pier__sql_script_free(pier__sql_script *s);

/*
 * Reads a declaration (pier migrate): CREATE TABLE, CREATE VIEW, CREATE
 * BOARD and CREATE [UNIQUE] INDEX statements, in any order, with every
 * constraint read (the fields marked "declarations only") and the clauses
 * of declarations: RENAMED FROM (tables and columns), BACKFILL,
 * AUTOINCREMENT, DEFAULT now(), typed view columns.
 * @return PIER_OK; PIER_E_INVALID_SCHEMA (err->offset at the fault) for
 *         any other statement, clause or malformed head; as
 *         pier__sql_parse otherwise.
 */
pier_status pier__sql_parse_declaration(pier__sql_script *out,
                                        const char *sql, size_t len,
                                        pier_error *err);

/* A statement kind's name for messages ("CREATE TABLE", "INSERT"). */
const char *pier__stmt_kind_name(pier__stmt_kind kind);

/* Appends `name` as a double-quoted SQL identifier ("a""b"). */
void pier__sql_quote_ident(pier__buf *b, const char *name);
/* Appends `s` as a single-quoted SQL string literal ('it''s'). */
void pier__sql_quote_string(pier__buf *b, const char *s, size_t n);

/* A column's single-column foreign key as its table's SQL states it. */
typedef struct pier__sql_fkref {
    char name[128];            /* CONSTRAINT name, else TABLE_COLUMN_fkey */
    char parent[128];          /* the parent table */
    char parent_column[128];   /* "" if not written: the parent's key */
    bool restrict_delete;      /* ON DELETE RESTRICT, NO ACTION or none */
} pier__sql_fkref;

/*
 * Reads the foreign key of column `column` of table `table` from the
 * column's constraints as written (REFERENCES parent [(column)] ...) or,
 * failing that, the table's (FOREIGN KEY (column) REFERENCES ...), into
 * *out. Pure. @return whether the column has one.
 */
bool pier__sql_fk_of(const char *table, const char *column,
                     const char *column_constraints,
                     const char *table_constraints, pier__sql_fkref *out);

/*
 * Appends to `out` the statement sql[0..n) with every numeric literal
 * SQLite would read inexactly (an integer beyond 64 bits, a number of
 * more than 15 significant digits) written as a string literal of the
 * same digits (literals.c). Pure.
 * @return whether any was: `out` is untouched when none was.
 */
bool pier__sql_exact_literals(pier__buf *out, const char *sql, size_t n);

/*
 * Whether s[0..n) is, whole, a number (with a sign) that SQLite would read
 * inexactly: the text such a literal becomes (above). Pure.
 */
bool pier__sql_inexact_number(const char *s, size_t n);

/*
 * Appends to `out` the statement sql[0..n) with its arithmetic operators
 * (+ - * / % and unary minus) written as Pier's exact functions (_pxa(a,b)
 * and its siblings, under the pier_numeric collation), its comparisons of
 * such results or of functions computing decimals (sum, avg, total,
 * decimal*, a CAST to DECIMAL, UINT64 or INT128) as _pxc(a,b) op 0, and
 * those functions under the collation (exactops.c; docs/sql.md,
 * "Operators on exact values"). A result column it changed keeps the name
 * SQLite gives it, its text in `written` (the statement as the user wrote
 * it, n bytes, before the same-length rewrites; NULL: sql). Pure.
 * @return whether it wrote the statement: false (`out` then holds no
 *         complete statement) when there is nothing to rewrite, when the
 *         text is more than it reads (too long, too deep, a construct it
 *         does not know), or when memory ran out.
 */
bool pier__sql_exact_ops(pier__buf *out, const char *sql, size_t n,
                         const char *written);

#endif /* PIER_SQL_H */
