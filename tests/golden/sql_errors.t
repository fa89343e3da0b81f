# What the dialect refuses, and that a refused script changes nothing:
# type names it does not take (with the one to use), columns without a
# type, reserved names, statements outside the dialect, the engine's own
# objects, boards.
$ pier sql "CREATE TABLE t (a INT64)"
$ pier sql "CREATE TABLE u (a INT)"
! pier: error: UnknownType: column 'a': type INT is not supported: use INT32 or INT64 (INTEGER is INT64)
[exit 1]
$ pier sql "CREATE TABLE u (a BIGINT)"
! pier: error: UnknownType: column 'a': type BIGINT is not supported: use INT64
[exit 1]
$ pier sql "CREATE TABLE u (a SMALLINT)"
! pier: error: UnknownType: column 'a': type SMALLINT is not supported: use INT16
[exit 1]
$ pier sql "CREATE TABLE u (a FLOAT)"
! pier: error: UnknownType: column 'a': type FLOAT is not supported: use REAL or DOUBLE (FLOAT32 for 32 bits)
[exit 1]
$ pier sql "CREATE TABLE u (a DOUBLE PRECISION)"
! pier: error: UnknownType: column 'a': type DOUBLE PRECISION is not supported: use DOUBLE
[exit 1]
$ pier sql "CREATE TABLE u (a CHARACTER VARYING(5))"
! pier: error: UnknownType: column 'a': type CHARACTER VARYING is not supported: use VARCHAR(n) or TEXT
[exit 1]
$ pier sql "CREATE TABLE u (a NUMERIC(5,2))"
! pier: error: UnknownType: column 'a': type NUMERIC is not supported: use DECIMAL or DECIMAL(p,s)
[exit 1]
$ pier sql "CREATE TABLE u (a TIMESTAMP)"
! pier: error: UnknownType: column 'a': type TIMESTAMP is not supported: use INSTANT (a point in time) or DATETIME (no zone)
[exit 1]
$ pier sql "CREATE TABLE u (a)"
! pier: error: UnknownType: column 'a' of table 'u' declares no type: tables are STRICT, so every column declares one (ANY keeps any value)
[exit 1]
$ pier sql "CREATE TABLE u (a INT64, b)"
! pier: error: UnknownType: column 'b' of table 'u' declares no type: tables are STRICT, so every column declares one (ANY keeps any value)
[exit 1]
$ pier sql "CREATE TABLE u (a INT64, b AS (a + 1))"
! pier: error: UnknownType: column 'b' of table 'u' declares no type: tables are STRICT, so every column declares one (ANY keeps any value)
[exit 1]
$ pier sql "CREATE TABLE u (a INT64, b GENERATED ALWAYS AS (a + 1) STORED)"
! pier: error: UnknownType: column 'b' of table 'u' declares no type: tables are STRICT, so every column declares one (ANY keeps any value)
[exit 1]
$ pier sql "ALTER TABLE t ADD COLUMN b"
! pier: error: UnknownType: column 'b' of table 't' declares no type: tables are STRICT, so every column declares one (ANY keeps any value)
[exit 1]
$ pier sql "CREATE TABLE u (a DECIMAL(40,2))"
! pier: error: UnknownType: column 'a': DECIMAL(p,s) takes a precision p from 1 to 38
[exit 1]
$ pier sql "CREATE TABLE u (a ENUM())"
! pier: error: UnknownType: column 'a': ENUM takes its labels as quoted strings, ENUM('a','b')
[exit 1]
$ pier sql "CREATE TABLE u (a VARCHAR)"
! pier: error: UnknownType: column 'a': VARCHAR takes its maximum length, VARCHAR(n) (or use TEXT)
[exit 1]
$ pier sql "CREATE TABLE u AS SELECT 1 AS a"
! pier: error: QueryFailed: CREATE TABLE ... AS SELECT cannot declare its columns' types: create table 'u' with its columns, then INSERT ... SELECT (at byte 0 of the script)
[exit 1]
$ pier sql "$(printf 'CREATE TABLE "a\tb" (x INT8)')"
! pier: error: QueryFailed: invalid name 'a\x09b': a name cannot hold control characters (at byte 13 of the script)
[exit 1]
$ pier sql "CREATE TABLE x234567890123456789012345678901234567890123456789012345678901234 (x INT8)"
! pier: error: QueryFailed: invalid name 'x234567890123456789012345678901234567890123456789012345678901234': a name is at most 63 bytes (at byte 13 of the script)
[exit 1]
$ pier sql "CREATE TABLE _pier_x (a INT64)"
! pier: error: EntityNotAllowed: the name '_pier_x' is reserved: names starting with _pier_ belong to the engine
[exit 1]
$ pier sql "CREATE TABLE sqlite_x (a INT64)"
! pier: error: EntityNotAllowed: the name 'sqlite_x' is reserved: names starting with sqlite_ belong to the engine
[exit 1]
$ pier sql "CREATE TABLE u (_a INT64)"
! pier: error: ReservedColumnName: column name '_a' is reserved: names starting with '_' belong to the engine
[exit 1]
$ pier sql "CREATE TABLE u (a INT64, A TEXT)"
! pier: error: DuplicateColumn: table 'u' names column 'A' twice
[exit 1]
$ pier sql "CREATE TEMP TABLE u (a INT64)"
! pier: error: EntityNotAllowed: CREATE TABLE: TEMP objects are not part of the dialect
[exit 1]
$ pier sql "CREATE TABLE other.u (a INT64)"
! pier: error: EntityNotAllowed: CREATE TABLE: only the main database is reachable, not 'other'
[exit 1]
$ pier sql "CREATE TABLE t (a INT64)"
! pier: error: QueryFailed: table 't' already exists (at byte 13 of the script)
[exit 1]
$ pier sql "CREATE TABLE u (a DECIMAL(12,2) COLLATE NOCASE)"
! pier: error: QueryFailed: column 'a' is DECIMAL(12,2), which compares by value: it takes no COLLATE (at byte 16 of the script)
[exit 1]
$ pier sql "CREATE TABLE u (a INT64, b INT64 READONLY GENERATED ALWAYS AS (a + 1))"
! pier: error: QueryFailed: column 'b' is generated: it cannot be READONLY (nothing assigns it) (at byte 25 of the script)
[exit 1]
$ pier tables
t
$ pier sql "PRAGMA table_info(t)"
! pier: error: EntityNotAllowed: PRAGMA statements are not allowed: the engine keeps its database's settings
[exit 1]
$ pier sql "ATTACH 'x.db' AS x"
! pier: error: EntityNotAllowed: ATTACH statements are not allowed: a script works on its own lake's database
[exit 1]
$ pier sql "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END"
! pier: error: EntityNotAllowed: CREATE TRIGGER statements are not allowed: triggers are not supported
[exit 1]
$ pier sql "VACUUM"
! pier: error: EntityNotAllowed: VACUUM statements are not allowed: the engine maintains its database itself
[exit 1]
$ pier sql "SELECT * FROM _pier_tables"
! pier: error: EntityNotAllowed: a statement of the SQL dialect may not touch the engine's own table '_pier_tables'
[exit 1]
$ pier sql "SELECT * FROM sqlite_schema WHERE name = 't'" --jsonl
! pier: error: EntityNotAllowed: a statement of the SQL dialect may not touch the schema table (pier schema dump shows the schema)
[exit 1]
$ pier sql "DROP TABLE _pier_boards"
! pier: error: EntityNotAllowed: the name '_pier_boards' is reserved: names starting with _pier_ belong to the engine
[exit 1]
$ pier sql "CREATE INDEX _pier_i ON t(a)"
! pier: error: EntityNotAllowed: the name '_pier_i' is reserved: names starting with _pier_ belong to the engine
[exit 1]
$ pier sql "CREATE VIEW v AS SELECT * FROM _pier_meta; SELECT * FROM v"
! pier: error: EntityNotAllowed: a statement of the SQL dialect may not touch the engine's own table '_pier_meta'
[exit 1]
$ pier tables
t
$ pier insert board '{"id":"x","n":1}'
2
$ pier sql "SELECT * FROM board"
! pier: error: EntityNotAllowed: 'board' is a board: boards are read with a board query (pier query, {{board}}), not by name in the SQL dialect
[exit 1]
$ pier sql "SELECT * FROM _pier_b_board"
! pier: error: EntityNotAllowed: a statement of the SQL dialect may not touch the engine's own table '_pier_b_board'
[exit 1]
$ pier sql "SELECT * FROM nope"
! pier: error: QueryFailed: SQLite refused the statement: no such table: nope (at byte 0 of the script)
[exit 1]
$ pier sql "SELEC 1"
! pier: error: EntityNotAllowed: SELEC statements are not allowed: a statement is SELECT, VALUES, WITH, INSERT, REPLACE, UPDATE, DELETE, CREATE, ALTER, DROP, BEGIN, COMMIT, END or ROLLBACK
[exit 1]
$ pier sql "INSERT INTO t VALUES (1); SELEC 1"
! pier: error: EntityNotAllowed: SELEC statements are not allowed: a statement is SELECT, VALUES, WITH, INSERT, REPLACE, UPDATE, DELETE, CREATE, ALTER, DROP, BEGIN, COMMIT, END or ROLLBACK
[exit 1]
$ pier sql "SELECT count(*) AS n FROM t"
n
0
(1 row)
$ pier sql "ALTER TABLE nope ADD COLUMN b INT64"
! pier: error: TableNotFound: no table 'nope'
[exit 1]
$ pier sql "ALTER TABLE t RENAME COLUMN nope TO b"
! pier: error: UnknownColumn: table 't' has no column 'nope'
[exit 1]
$ pier sql "ALTER TABLE t RENAME COLUMN a TO _b"
! pier: error: ReservedColumnName: column name '_b' is reserved: names starting with '_' belong to the engine
[exit 1]
$ pier sql "DROP TABLE nope"
! pier: error: TableNotFound: no table 'nope'
[exit 1]
$ pier schema nope
! pier: error: BoardNotFound: no board 'nope'
[exit 1]
$ pier schema Nope
! pier: error: TableNotFound: no table 'Nope'
[exit 1]

# A script the front-end cannot read says where, as SQLite's faults do.
$ pier sql "INSERT INTO t VALUES (1); CREATE TABLE u ()"
! pier: error: QueryFailed: expected a column definition, found ')' (at byte 42 of the script)
[exit 1]
$ pier sql "SELECT 'unterminated"
! pier: error: QueryFailed: an unterminated string: 'unterminated (at byte 7 of the script)
[exit 1]
$ pier sql "SELECT count(*) AS n FROM t"
n
0
(1 row)
