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
