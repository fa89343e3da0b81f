# DATETIME: a date and a time of day without a zone (a wall-clock
# reading, not an instant), from 0001-01-01T00:00:00 to
# 9999-12-31T23:59:59.999999, written YYYY-MM-DD, then 'T', 't' or a
# space, then HH:MM:SS with an optional fraction of 1 to 9 digits (kept
# to the microsecond).
# It is kept as the text written, checked, and compared by value
# (collation pier_datetime), so the separators and fraction digits of a
# spelling do not matter. A zone (refused saying so: an INSTANT keeps
# one), a day the month does not have, hour 24, another layout and other
# storage classes are refused, and a refused statement or script writes
# nothing. A datetime reads back with 'T' and six fraction digits in
# every format, round-trips through --jsonl and --params, and the schema
# through a dump.
$ pier sql "CREATE TABLE t (k INT64 PRIMARY KEY, dt DATETIME)"
$ pier schema t
table t
column  type      readonly
k       INT64     no
dt      DATETIME  no
$ pier sql "INSERT INTO t VALUES (1, '2026-03-01 10:00:00'), (2, '9999-12-31T23:59:59.123456789'), (3, '2026-03-01t00:00:00'), (4, NULL), (5, '0001-01-01T00:00:00'), (6, '9999-12-31T23:59:59.999999'), (7, '2024-02-29T12:00:00.5')"
7 rows changed

# Every spelling of one reading: the three separators, fractions of 0 to
# 9 digits.
$ pier sql "INSERT INTO t VALUES (10, '2026-03-01T09:30:00'), (11, '2026-03-01 09:30:00.0'), (12, '2026-03-01t09:30:00.000000000'), (13, '2026-03-01T09:30:00.0000001') RETURNING k, dt" --csv
k,dt
10,2026-03-01T09:30:00.000000
11,2026-03-01T09:30:00.000000
12,2026-03-01T09:30:00.000000
13,2026-03-01T09:30:00.000000

# Refused: a zone (Z or an offset), a day the month does not have, year
# 0000, hour 24, a date or a time alone, no seconds, another separator,
# two spaces, ten fraction digits, the empty text; a number, a blob.
$ pier sql "INSERT INTO t(dt) VALUES ('2026-03-01T10:00:00Z')"
! pier: error: ColumnTypeConflict: column 'dt' of table 't' is DATETIME, got '2026-03-01T10:00:00Z': a datetime has no time zone: drop the offset (an instant keeps one)
[exit 1]
$ pier sql "INSERT INTO t(dt) VALUES ('2026-03-01T10:00:00+02:00')"
! pier: error: ColumnTypeConflict: column 'dt' of table 't' is DATETIME, got '2026-03-01T10:00:00+02:00': a datetime has no time zone: drop the offset (an instant keeps one)
[exit 1]
$ pier sql "INSERT INTO t(dt) VALUES ('2026-03-01T10:00:00-02:00')"
! pier: error: ColumnTypeConflict: column 'dt' of table 't' is DATETIME, got '2026-03-01T10:00:00-02:00': a datetime has no time zone: drop the offset (an instant keeps one)
[exit 1]
$ pier sql "INSERT INTO t(dt) VALUES ('2026-02-29T00:00:00')"
! pier: error: ColumnTypeConflict: column 'dt' of table 't' is DATETIME, got '2026-02-29T00:00:00': a datetime is YYYY-MM-DDTHH:MM:SS with an optional fraction, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO t(dt) VALUES ('0000-12-31T23:59:59')"
! pier: error: ColumnTypeConflict: column 'dt' of table 't' is DATETIME, got '0000-12-31T23:59:59': a datetime is YYYY-MM-DDTHH:MM:SS with an optional fraction, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO t(dt) VALUES ('2026-03-01T24:00:00')"
! pier: error: ColumnTypeConflict: column 'dt' of table 't' is DATETIME, got '2026-03-01T24:00:00': a datetime is YYYY-MM-DDTHH:MM:SS with an optional fraction, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO t(dt) VALUES ('2026-03-01')"
! pier: error: ColumnTypeConflict: column 'dt' of table 't' is DATETIME, got '2026-03-01': a datetime is YYYY-MM-DDTHH:MM:SS with an optional fraction, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO t(dt) VALUES ('10:00:00')"
! pier: error: ColumnTypeConflict: column 'dt' of table 't' is DATETIME, got '10:00:00': a datetime is YYYY-MM-DDTHH:MM:SS with an optional fraction, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO t(dt) VALUES ('2026-03-01T10:00')"
! pier: error: ColumnTypeConflict: column 'dt' of table 't' is DATETIME, got '2026-03-01T10:00': a datetime is YYYY-MM-DDTHH:MM:SS with an optional fraction, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO t(dt) VALUES ('2026-03-01_10:00:00')"
! pier: error: ColumnTypeConflict: column 'dt' of table 't' is DATETIME, got '2026-03-01_10:00:00': a datetime is YYYY-MM-DDTHH:MM:SS with an optional fraction, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO t(dt) VALUES ('2026-03-01  10:00:00')"
! pier: error: ColumnTypeConflict: column 'dt' of table 't' is DATETIME, got '2026-03-01  10:00:00': a datetime is YYYY-MM-DDTHH:MM:SS with an optional fraction, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO t(dt) VALUES ('2026-03-01T10:00:00.1234567891')"
! pier: error: ColumnTypeConflict: column 'dt' of table 't' is DATETIME, got '2026-03-01T10:00:00.1234567891': a datetime is YYYY-MM-DDTHH:MM:SS with an optional fraction, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO t(dt) VALUES ('')"
! pier: error: ColumnTypeConflict: column 'dt' of table 't' is DATETIME, got '': a datetime is YYYY-MM-DDTHH:MM:SS with an optional fraction, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO t(dt) VALUES (20260301)"
! pier: error: ColumnTypeConflict: column 'dt' of table 't' is DATETIME, got '20260301': a datetime is YYYY-MM-DDTHH:MM:SS with an optional fraction, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO t(dt) VALUES (x'00')"
! pier: error: ColumnTypeConflict: column 'dt' of table 't' is DATETIME, got a blob value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM t" --csv
n
11

# A refusal at the end of a script leaves nothing of it.
$ pier sql "INSERT INTO t VALUES (20, '2026-06-01 12:00:00'); UPDATE t SET dt = '2026-01-01 00:00:00' WHERE k = 1; INSERT INTO t VALUES (21, '2026-06-01 12:00:00Z')"
! pier: error: ColumnTypeConflict: column 'dt' of table 't' is DATETIME, got '2026-06-01 12:00:00Z': a datetime has no time zone: drop the offset (an instant keeps one)
[exit 1]
$ pier sql "SELECT count(*) AS n, sum(k >= 20) AS new, sum(dt = '2026-01-01T00:00:00') AS changed FROM t" --csv
n,new,changed
11,0,0

# Reading back: 'T' and six fraction digits in the table, JSON and CSV.
$ pier sql "SELECT * FROM t WHERE k < 10 ORDER BY k"
k  dt
1  2026-03-01T10:00:00.000000
2  9999-12-31T23:59:59.123457
3  2026-03-01T00:00:00.000000
4  null
5  0001-01-01T00:00:00.000000
6  9999-12-31T23:59:59.999999
7  2024-02-29T12:00:00.500000
(7 rows)
$ pier sql "SELECT * FROM t WHERE k < 10 ORDER BY k" --json
[
{"k":1,"dt":"2026-03-01T10:00:00.000000"},
{"k":2,"dt":"9999-12-31T23:59:59.123457"},
{"k":3,"dt":"2026-03-01T00:00:00.000000"},
{"k":4,"dt":null},
{"k":5,"dt":"0001-01-01T00:00:00.000000"},
{"k":6,"dt":"9999-12-31T23:59:59.999999"},
{"k":7,"dt":"2024-02-29T12:00:00.500000"}
]
$ pier sql "SELECT * FROM t WHERE k < 10 ORDER BY k" --csv
k,dt
1,2026-03-01T10:00:00.000000
2,9999-12-31T23:59:59.123457
3,2026-03-01T00:00:00.000000
4,
5,0001-01-01T00:00:00.000000
6,9999-12-31T23:59:59.999999
7,2024-02-29T12:00:00.500000

# Order and equality by value: ORDER BY (a space sorts as 'T' does),
# '=' with another spelling, '<' and '>', MIN/MAX (computed: the stored
# text), GROUP BY, DISTINCT, and a key that refuses another spelling.
$ pier sql "SELECT k, dt FROM t ORDER BY dt, k" --csv
k,dt
4,
5,0001-01-01T00:00:00.000000
7,2024-02-29T12:00:00.500000
3,2026-03-01T00:00:00.000000
10,2026-03-01T09:30:00.000000
11,2026-03-01T09:30:00.000000
12,2026-03-01T09:30:00.000000
13,2026-03-01T09:30:00.000000
1,2026-03-01T10:00:00.000000
2,9999-12-31T23:59:59.123457
6,9999-12-31T23:59:59.999999
$ pier sql "SELECT k FROM t WHERE dt = '2026-03-01 09:30:00.000' ORDER BY k" --csv
k
10
11
12
13
$ pier sql "SELECT k FROM t WHERE dt = '2024-02-29t12:00:00.50' OR dt = '9999-12-31 23:59:59.1234569' ORDER BY k" --csv
k
2
7
$ pier sql "SELECT k FROM t WHERE dt > '2026-03-01 00:00:00' AND dt < '2026-03-01T10:00:00' ORDER BY dt, k" --csv
k
10
11
12
13
$ pier sql "SELECT min(dt) AS first, max(dt) AS last FROM t WHERE k IN (1, 3, 10)" --jsonl
{"first":"2026-03-01t00:00:00","last":"2026-03-01 10:00:00"}
$ pier sql "SELECT dt, count(*) AS n FROM t GROUP BY dt ORDER BY dt" --csv
dt,n
,1
0001-01-01T00:00:00.000000,1
2024-02-29T12:00:00.500000,1
2026-03-01T00:00:00.000000,1
2026-03-01T09:30:00.000000,4
2026-03-01T10:00:00.000000,1
9999-12-31T23:59:59.123457,1
9999-12-31T23:59:59.999999,1
$ pier sql "SELECT count(DISTINCT dt) AS n, count(dt) AS c FROM t" --csv
n,c
7,10
$ pier sql "CREATE TABLE key (v DATETIME PRIMARY KEY); INSERT INTO key VALUES ('2026-03-01T10:00:00'); INSERT INTO key VALUES ('2026-03-01 10:00:00.000')"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: key.v
[exit 1]
$ pier sql "CREATE TABLE key (v DATETIME UNIQUE); INSERT INTO key VALUES ('2026-03-01 10:00:00'); INSERT INTO key VALUES ('2026-03-01t10:00:00')"
! pier: error: ConstraintUnique: UNIQUE constraint failed: key.v
[exit 1]
$ pier tables
t

# Round-trip through the CLI: the rows read with --jsonl are bound back
# with --params into a second table; the two hold the same rows, and
# read the same.
$ pier sql "CREATE TABLE u (k INT64 PRIMARY KEY, dt DATETIME)"
$ pier sql "SELECT * FROM t" --jsonl > rows.jsonl && while IFS= read -r row; do pier sql "INSERT INTO u VALUES (:k, :dt)" --params "$row" > /dev/null || exit 1; done < rows.jsonl && pier sql "SELECT count(*) AS n FROM u" --csv
n
11
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM t EXCEPT SELECT * FROM u)) AS lost, (SELECT count(*) FROM (SELECT * FROM u EXCEPT SELECT * FROM t)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM t ORDER BY k" --jsonl) <(pier sql "SELECT * FROM u ORDER BY k" --jsonl) && echo same
same
$ pier sql "INSERT INTO u VALUES (:k, :dt)" --param k=30 --param dt='2026-03-01 10:00:00' && pier sql "SELECT dt FROM u WHERE k = 30" --jsonl
1 row changed
{"dt":"2026-03-01T10:00:00.000000"}

# Round-trip of the schema through a dump.
$ pier schema dump
CREATE TABLE "t" (
    "k" INT64 PRIMARY KEY,
    "dt" DATETIME
);
CREATE TABLE "u" (
    "k" INT64 PRIMARY KEY,
    "dt" DATETIME
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
