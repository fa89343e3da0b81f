# CAST(x AS T) to a type of the dialect is the canonical value of T, or
# ColumnTypeConflict: SQLite's own CAST maps an unknown type name to an
# affinity (DECIMAL to a float, a UUID or a TIME to 0 or a number). CAST to
# ENUM is refused: its labels belong to a column. Casts to SQLite's own
# types (INTEGER, INT64, REAL, DOUBLE, TEXT, BLOB) are SQLite's.
$ pier sql "SELECT CAST('1' AS DECIMAL) AS d, CAST('0.1' AS DECIMAL(10,2)) AS d2, CAST(0.30000000000000004 AS DECIMAL) AS r, CAST(18446744073709551615 AS UINT64) AS u" --jsonl
{"d":"1","d2":"0.10","r":"0.30000000000000004","u":"18446744073709551615"}
$ pier sql "SELECT CAST('A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11' AS UUID) AS u, CAST('10:00:00.5' AS TIME) AS t, CAST('2026-03-01T10:00:00+02:00' AS INSTANT) AS i, CAST('2024-02-29' AS DATE) AS d, CAST('P1D' AS INTERVAL) AS iv" --jsonl
{"u":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11","t":"10:00:00.500000","i":"2026-03-01T08:00:00.000000Z","d":"2024-02-29","iv":"P1D"}
$ pier sql "SELECT CAST('5' AS INT8) + 1 AS a, CAST('1' AS BOOLEAN) AS b, CAST(NULL AS DECIMAL) AS n, cast ( '2.50' as decimal(4,2) ) AS k" --jsonl
{"a":6,"b":1,"n":null,"k":"2.50"}
$ pier sql "SELECT CAST('2026-13-01' AS DATE)"
! pier: error: ColumnTypeConflict: CAST to DATE: a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "SELECT CAST('300' AS INT8)"
! pier: error: ColumnTypeConflict: CAST to INT8: out of range for INT8
[exit 1]
$ pier sql "SELECT CAST('not-a-uuid' AS UUID)"
! pier: error: ColumnTypeConflict: CAST to UUID: a UUID is 32 hex digits, as 8-4-4-4-12 with hyphens
[exit 1]
$ pier sql "SELECT CAST('1.234' AS DECIMAL(5,2))"
! pier: error: ColumnTypeConflict: CAST to DECIMAL(5,2): more digits after the point than the column's scale allows (values are never rounded)
[exit 1]
$ pier sql "SELECT CAST('x' AS ENUM('x', 'y'))"
! pier: error: ColumnTypeConflict: CAST to ENUM is refused: an ENUM's labels are a column's; compare the text with them
[exit 1]
# A cast to an exact type is exact, and so is arithmetic on it; CAST AS
# REAL asks for a float.
$ pier sql "SELECT CAST('1' AS DECIMAL) / 8"
CAST('1' AS DECIMAL) / 8
0.125
(1 row)
$ pier sql "SELECT decimal_div(CAST('1' AS DECIMAL), 8, 3) AS q, CAST(CAST('1' AS DECIMAL) AS REAL) / 8 AS f" --jsonl
{"q":"0.125","f":0.125}

# A result column that is a cast or an EXTRACT is named as it was written,
# not as the front-end wrote it for SQLite; an alias is kept.
$ pier sql "SELECT CAST('1' AS DECIMAL), EXTRACT(year FROM '2026-03-01'), CAST('2' AS UINT64) AS two, CAST('3' AS DECIMAL) + 1" --json
[
{"CAST('1' AS DECIMAL)":"1","EXTRACT(year FROM '2026-03-01')":2026,"two":"2","CAST('3' AS DECIMAL) + 1":"4"}
]

# Every spelling CREATE TABLE takes casts as that type (arrays of SQLite's
# own types, ANY and CHANGESET too); a name CREATE TABLE refuses is
# refused in a CAST with the same message (UnknownType), before anything
# of the script runs.
$ pier sql "CREATE TABLE k (id INT64 PRIMARY KEY, h INT128)"
$ pier sql "SELECT CAST('[1, 2]' AS INT64[]) AS i, CAST('[1,2]' AS REAL[]) AS r, CAST('[\"a\"]' AS TEXT[]) AS t, CAST('0.1' AS ANY) AS a, typeof(CAST('0.1' AS ANY)) AS ta, length(CAST(x'' AS CHANGESET)) AS c" --jsonl
{"i":"[1,2]","r":"[1.0,2.0]","t":"[\"a\"]","a":"0.1","ta":"text","c":0}
$ pier sql "SELECT CAST('[1,2.5]' AS INT64[])"
! pier: error: ColumnTypeConflict: CAST to INT64[]: an element is not an INT64 (a JSON integer of 64 bits) or null
[exit 1]
$ pier sql "SELECT CAST('[1,\"x\"]' AS REAL[])"
! pier: error: ColumnTypeConflict: CAST to REAL[]: an element is not a DOUBLE (a JSON number within a double's range) or null
[exit 1]
$ pier sql "SELECT CAST(x'00' AS CHANGESET)"
! pier: error: ColumnTypeConflict: CAST to CHANGESET: not a changeset (SQLite's changeset format)
[exit 1]
$ pier sql "SELECT CAST('x' AS CHANGESET)"
! pier: error: ColumnTypeConflict: CAST to CHANGESET: a CHANGESET is the bytes of a changeset
[exit 1]
$ pier sql "INSERT INTO k VALUES (1, '5'); SELECT CAST('0.1' AS NUMERIC)"
! pier: error: UnknownType: CAST to NUMERIC: type NUMERIC is not supported: use DECIMAL or DECIMAL(p,s)
[exit 1]
$ pier sql "INSERT INTO k VALUES (2, '5'); SELECT CAST(h AS HUGEINT) FROM k"
! pier: error: UnknownType: CAST to HUGEINT: type HUGEINT is not supported: use INT128
[exit 1]
$ pier sql "SELECT CAST('300' AS TINYINT)"
! pier: error: UnknownType: CAST to TINYINT: type TINYINT is not supported: use INT8
[exit 1]
$ pier sql "SELECT CAST(1 AS INT)"
! pier: error: UnknownType: CAST to INT: type INT is not supported: use INT32 or INT64 (INTEGER is INT64)
[exit 1]
$ pier sql "SELECT CAST(1 AS VARCHAR)"
! pier: error: UnknownType: CAST to VARCHAR: VARCHAR takes its maximum length, VARCHAR(n) (or use TEXT)
[exit 1]
$ pier sql "SELECT CAST(1 AS DOUBLE PRECISION)"
! pier: error: UnknownType: CAST to DOUBLE PRECISION: type DOUBLE PRECISION is not supported: use DOUBLE
[exit 1]
$ pier sql "SELECT CAST(1 AS TIMESTAMP)"
! pier: error: UnknownType: CAST to TIMESTAMP: type TIMESTAMP is not supported: use INSTANT (a point in time) or DATETIME (no zone)
[exit 1]
$ pier sql "SELECT count(*) AS n FROM k" --jsonl
{"n":0}
# SQLite's own names keep SQLite's casts.
$ pier sql "SELECT CAST(1.5 AS INTEGER) AS i, CAST('7' AS INT64) AS j, CAST('7' AS REAL) AS r, CAST(1 AS DOUBLE) AS d, CAST(12 AS TEXT) AS t, hex(CAST('x' AS BLOB)) AS b" --jsonl
{"i":1,"j":7,"r":7.0,"d":1.0,"t":"12","b":"78"}

# A number cast to a text type is its text, as the column's TEXT affinity
# makes it (a VARCHAR(3) column takes 12); a nonzero number too near 0 for
# a float is refused by FLOAT32 (CAST and column), as one too large is.
$ pier sql "SELECT CAST(12 AS VARCHAR(3)) AS a, CAST(1.5 AS VARCHAR(3)) AS b, CAST(5 AS JSON) AS j" --jsonl
{"a":"12","b":"1.5","j":"5"}
$ pier sql "SELECT CAST(1234 AS VARCHAR(3))"
! pier: error: ColumnTypeConflict: CAST to VARCHAR(3): longer than the column's length
[exit 1]
$ pier sql "SELECT CAST(1e-50 AS FLOAT32)"
! pier: error: ColumnTypeConflict: CAST to FLOAT32: too near 0 for FLOAT32 (it would read as 0)
[exit 1]
$ pier sql "SELECT CAST(0 AS FLOAT32) AS z, CAST(1e-40 AS FLOAT32) > 0 AS tiny" --jsonl
{"z":0.0,"tiny":1}
$ pier sql "CREATE TABLE f32 (id INT64 PRIMARY KEY, f FLOAT32); INSERT INTO f32 VALUES (1, 1e-50)"
! pier: error: ColumnTypeConflict: column 'f' of table 'f32' is FLOAT32, got 1.0e-50: too near 0 for FLOAT32 (it would read as 0)
[exit 1]

# A header that is a cast of a long number computed on shows it as
# written, though the number was quoted for SQLite (technique 6).
$ pier sql "SELECT CAST(18446744073709551614 AS UINT64) - 1, CAST(-123456789.123456789 AS DECIMAL) * 2"
CAST(18446744073709551614 AS UINT64) - 1  CAST(-123456789.123456789 AS DECIMAL) * 2
18446744073709551613                      -246913578.246913578
(1 row)
