# DATE: a day of the proleptic Gregorian calendar, 0001-01-01 to
# 9999-12-31, written YYYY-MM-DD and nothing else: a day the month does
# not have (2026-02-29, 1900-02-29; 2000-02-29 is one), another layout, a
# time or a zone, other storage classes are refused, and a refused
# statement or script writes nothing. A date has one spelling, kept as
# written, so it needs no collation: its text sorts as its days do, and
# '=' is exact. It reads back as written in every format, round-trips
# through --jsonl and --params, and the schema through a dump.
$ pier sql "CREATE TABLE d (k INT64 PRIMARY KEY, d DATE)"
$ pier schema d
table d
column  type   readonly
k       INT64  no
d       DATE   no
$ pier sql "INSERT INTO d VALUES (1, '2026-03-01'), (2, '0001-01-01'), (3, '9999-12-31'), (4, '2024-02-29'), (5, '2000-02-29'), (6, NULL), (7, '2026-04-30'), (8, '2026-12-31'), (9, '2026-01-31'), (10, '1969-12-31')"
10 rows changed

# Refused: year 0000 and year 10000, the leap days of years that have
# none (1900 and 2100 by the century rule, 2026), the 31st of a 30-day
# month, month 0 and 13, day 0 and 32, digits missing, another layout, a
# time, a zone, white space, a sign, the empty text; a number, a blob.
$ pier sql "INSERT INTO d(d) VALUES ('0000-12-31')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '0000-12-31': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES ('10000-01-01')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '10000-01-01': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES ('1900-02-29')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '1900-02-29': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES ('2100-02-29')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '2100-02-29': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES ('2026-02-29')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '2026-02-29': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES ('2026-04-31')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '2026-04-31': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES ('2026-00-10')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '2026-00-10': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES ('2026-13-01')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '2026-13-01': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES ('2026-01-00')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '2026-01-00': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES ('2026-01-32')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '2026-01-32': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES ('2026-3-1')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '2026-3-1': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES ('2026/03/01')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '2026/03/01': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES ('20260301')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '20260301': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES ('2026-03-01T00:00:00')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '2026-03-01T00:00:00': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES ('2026-03-01Z')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '2026-03-01Z': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES ('2026-03-01 ')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '2026-03-01 ': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES ('+2026-03-01')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '+2026-03-01': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES ('')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES (20260301)"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '20260301': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO d(d) VALUES (x'00')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got a blob value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM d" --csv
n
10

# A refusal at the end of a script leaves nothing of it; an UPDATE that
# makes one row a day that does not exist changes no row.
$ pier sql "INSERT INTO d VALUES (20, '2026-06-01'); UPDATE d SET d = '2026-01-01' WHERE k = 1; INSERT INTO d VALUES (21, '2026-06-31')"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '2026-06-31': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "UPDATE d SET d = substr(d, 1, 8) || '31' WHERE d IS NOT NULL"
! pier: error: ColumnTypeConflict: column 'd' of table 'd' is DATE, got '2024-02-31': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "SELECT count(*) AS n, sum(k >= 20) AS new, sum(d = '2026-03-01') AS kept_1, sum(d = '2026-04-30') AS kept_7 FROM d" --csv
n,new,kept_1,kept_7
10,0,1,1

# Reading back in the table, JSON and CSV: as written.
$ pier sql "SELECT * FROM d ORDER BY k"
k   d
1   2026-03-01
2   0001-01-01
3   9999-12-31
4   2024-02-29
5   2000-02-29
6   null
7   2026-04-30
8   2026-12-31
9   2026-01-31
10  1969-12-31
(10 rows)
$ pier sql "SELECT * FROM d ORDER BY k" --json
[
{"k":1,"d":"2026-03-01"},
{"k":2,"d":"0001-01-01"},
{"k":3,"d":"9999-12-31"},
{"k":4,"d":"2024-02-29"},
{"k":5,"d":"2000-02-29"},
{"k":6,"d":null},
{"k":7,"d":"2026-04-30"},
{"k":8,"d":"2026-12-31"},
{"k":9,"d":"2026-01-31"},
{"k":10,"d":"1969-12-31"}
]
$ pier sql "SELECT * FROM d ORDER BY k" --csv
k,d
1,2026-03-01
2,0001-01-01
3,9999-12-31
4,2024-02-29
5,2000-02-29
6,
7,2026-04-30
8,2026-12-31
9,2026-01-31
10,1969-12-31

# Order and equality: ORDER BY is by day, '=' exact (a text that is no
# date matches nothing), '<', '>' and BETWEEN, MIN/MAX, GROUP BY,
# DISTINCT, and a key.
$ pier sql "SELECT k, d FROM d ORDER BY d DESC" --csv
k,d
3,9999-12-31
8,2026-12-31
7,2026-04-30
1,2026-03-01
9,2026-01-31
4,2024-02-29
5,2000-02-29
10,1969-12-31
2,0001-01-01
6,
$ pier sql "SELECT k FROM d WHERE d = '2024-02-29' OR d = '2026-3-1' ORDER BY k" --csv
k
4
$ pier sql "SELECT k FROM d WHERE d > '1969-12-31' AND d < '2026-12-31' ORDER BY d" --csv
k
5
4
9
1
7
$ pier sql "SELECT k FROM d WHERE d BETWEEN '2026-01-01' AND '2026-12-31' ORDER BY d" --csv
k
9
1
7
8
$ pier sql "SELECT min(d) AS first, max(d) AS last FROM d" --jsonl
{"first":"0001-01-01","last":"9999-12-31"}
$ pier sql "UPDATE d SET d = '2026-03-01' WHERE k = 7; SELECT substr(d, 1, 4) AS y, count(*) AS n FROM d GROUP BY y ORDER BY y" --csv
y,n
,1
0001,1
1969,1
2000,1
2024,1
2026,4
9999,1
$ pier sql "SELECT count(DISTINCT d) AS n, count(d) AS c FROM d" --csv
n,c
8,9
$ pier sql "CREATE TABLE key (v DATE PRIMARY KEY); INSERT INTO key VALUES ('2026-03-01'), ('2026-03-02'); INSERT INTO key VALUES ('2026-03-01')"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: key.v
[exit 1]
$ pier tables
d

# Round-trip through the CLI: the rows read with --jsonl are bound back
# with --params into a second table; the two hold the same rows, and
# read the same.
$ pier sql "CREATE TABLE e (k INT64 PRIMARY KEY, d DATE)"
$ pier sql "SELECT * FROM d" --jsonl > rows.jsonl && while IFS= read -r row; do pier sql "INSERT INTO e VALUES (:k, :d)" --params "$row" > /dev/null || exit 1; done < rows.jsonl && pier sql "SELECT count(*) AS n FROM e" --csv
n
10
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM d EXCEPT SELECT * FROM e)) AS lost, (SELECT count(*) FROM (SELECT * FROM e EXCEPT SELECT * FROM d)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM d ORDER BY k" --jsonl) <(pier sql "SELECT * FROM e ORDER BY k" --jsonl) && echo same
same
$ pier sql "INSERT INTO e VALUES (:k, :d)" --param k=30 --param d=2000-02-29 && pier sql "SELECT d FROM e WHERE k = 30" --jsonl
1 row changed
{"d":"2000-02-29"}
$ pier sql "INSERT INTO e VALUES (:k, :d)" --param k=31 --param d=1900-02-29
! pier: error: ColumnTypeConflict: column 'd' of table 'e' is DATE, got '1900-02-29': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]

# Round-trip of the schema through a dump.
$ pier schema dump
CREATE TABLE "d" (
    "k" INT64 PRIMARY KEY,
    "d" DATE
);
CREATE TABLE "e" (
    "k" INT64 PRIMARY KEY,
    "d" DATE
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
