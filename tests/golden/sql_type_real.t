# REAL and DOUBLE (one type, spelled DOUBLE): IEEE 754 doubles, kept as
# SQLite reals. Integers and numeric text are taken as the double they
# name (SQLite's real affinity); other text and blobs are refused, and a
# refused statement or script writes nothing. A value reads back as the
# shortest of 15, 16 or 17 digits that reads back as the same double, so
# 0.1 stays 0.1 and 0.1 + 0.2 shows its last digit (never fewer than 15
# digits, so the smallest subnormal, 5e-324, reads 4.94065645841247e-324);
# a whole number keeps ".0" so that it stays a real in JSON. Order and equality are the
# doubles'. Values round-trip through --jsonl and --params, the schema
# through a dump.
$ pier sql "CREATE TABLE r (k INT64 PRIMARY KEY, r REAL, d DOUBLE)"
$ pier schema r
table r
column  type    readonly
k       INT64   no
r       DOUBLE  no
d       DOUBLE  no
$ pier sql "INSERT INTO r VALUES (1, 0.1, 2), (2, -2.5e-7, 1e300), (3, NULL, NULL), (4, 1.7976931348623157e308, -1.7976931348623157e308), (5, 5e-324, 2.2250738585072014e-308), (6, 0.1 + 0.2, 0.3), (7, 0, -1)"
7 rows changed

# Spellings real affinity takes: numeric text (white space around it
# too), an exponent, an integer, TRUE, an integer too large for a double
# to hold exactly.
$ pier sql "INSERT INTO r VALUES (8, '1.5', ' 2.5e3 '), (9, TRUE, 9223372036854775807), (10, '-0.000001', '12') RETURNING k, r, d, typeof(r) AS t" --csv
k,r,d,t
8,1.5,2500.0,real
9,1.0,9.223372036854776e+18,real
10,-1e-06,12.0,real

# The wrong storage class: text that is no number (a hex number, inf and
# nan are not read as numbers), a blob.
$ pier sql "INSERT INTO r(r) VALUES ('x')"
! pier: error: ColumnTypeConflict: column 'r' of table 'r' is DOUBLE, got a text value
[exit 1]
$ pier sql "INSERT INTO r(r) VALUES ('0x10')"
! pier: error: ColumnTypeConflict: column 'r' of table 'r' is DOUBLE, got a text value
[exit 1]
$ pier sql "INSERT INTO r(d) VALUES ('inf')"
! pier: error: ColumnTypeConflict: column 'd' of table 'r' is DOUBLE, got a text value
[exit 1]
$ pier sql "INSERT INTO r(d) VALUES ('nan')"
! pier: error: ColumnTypeConflict: column 'd' of table 'r' is DOUBLE, got a text value
[exit 1]
$ pier sql "INSERT INTO r(d) VALUES ('1.5x')"
! pier: error: ColumnTypeConflict: column 'd' of table 'r' is DOUBLE, got a text value
[exit 1]
$ pier sql "INSERT INTO r(d) VALUES (x'3ff0000000000000')"
! pier: error: ColumnTypeConflict: column 'd' of table 'r' is DOUBLE, got a blob value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM r"
n
10
(1 row)

# A refusal at the end of a script leaves nothing of it.
$ pier sql "INSERT INTO r VALUES (20, 1, 1); UPDATE r SET d = 0 WHERE k = 1; INSERT INTO r VALUES (21, 'one', 1)"
! pier: error: ColumnTypeConflict: column 'r' of table 'r' is DOUBLE, got a text value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM r WHERE k >= 20 OR d = 0" --csv
n
0

# Reading back in the table, JSON and CSV.
$ pier sql "SELECT * FROM r ORDER BY k"
k   r                        d
1   0.1                      2.0
2   -2.5e-07                 1e+300
3   null                     null
4   1.7976931348623157e+308  -1.7976931348623157e+308
5   4.94065645841247e-324    2.2250738585072014e-308
6   0.30000000000000004      0.3
7   0.0                      -1.0
8   1.5                      2500.0
9   1.0                      9.223372036854776e+18
10  -1e-06                   12.0
(10 rows)
$ pier sql "SELECT * FROM r ORDER BY k" --json
[
{"k":1,"r":0.1,"d":2.0},
{"k":2,"r":-2.5e-07,"d":1e+300},
{"k":3,"r":null,"d":null},
{"k":4,"r":1.7976931348623157e+308,"d":-1.7976931348623157e+308},
{"k":5,"r":4.94065645841247e-324,"d":2.2250738585072014e-308},
{"k":6,"r":0.30000000000000004,"d":0.3},
{"k":7,"r":0.0,"d":-1.0},
{"k":8,"r":1.5,"d":2500.0},
{"k":9,"r":1.0,"d":9.223372036854776e+18},
{"k":10,"r":-1e-06,"d":12.0}
]
$ pier sql "SELECT * FROM r ORDER BY k" --csv
k,r,d
1,0.1,2.0
2,-2.5e-07,1e+300
3,,
4,1.7976931348623157e+308,-1.7976931348623157e+308
5,4.94065645841247e-324,2.2250738585072014e-308
6,0.30000000000000004,0.3
7,0.0,-1.0
8,1.5,2500.0
9,1.0,9.223372036854776e+18
10,-1e-06,12.0

# Order and equality are the doubles': ORDER BY, '=' with another
# spelling (an integer, text), '<' and '>', MIN/MAX, GROUP BY, DISTINCT,
# and a key that refuses 1 when it holds 1.0. 0.1 + 0.2 is not 0.3.
$ pier sql "SELECT k, r FROM r ORDER BY r, k" --csv
k,r
3,
10,-1e-06
2,-2.5e-07
7,0.0
5,4.94065645841247e-324
1,0.1
6,0.30000000000000004
9,1.0
8,1.5
4,1.7976931348623157e+308
$ pier sql "SELECT k FROM r WHERE d = 2 OR d = '1e300' OR r = 0.1 ORDER BY k" --csv
k
1
2
$ pier sql "SELECT r = 0.3 AS sum_is, d = 0.3 AS literal_is FROM r WHERE k = 6" --csv
sum_is,literal_is
0,1
$ pier sql "SELECT k FROM r WHERE r > 0 AND r < 1 ORDER BY r" --csv
k
5
1
6
$ pier sql "SELECT min(r) AS lo, max(r) AS hi, min(d) AS dlo, max(d) AS dhi FROM r" --jsonl
{"lo":-1e-06,"hi":1.7976931348623157e+308,"dlo":-1.7976931348623157e+308,"dhi":1e+300}
$ pier sql "UPDATE r SET r = 1.5 WHERE k = 7; SELECT r, count(*) AS n FROM r WHERE r > 1 GROUP BY r ORDER BY r" --csv
r,n
1.5,2
1.7976931348623157e+308,1
$ pier sql "SELECT count(DISTINCT r) AS n, count(r) AS c FROM r" --csv
n,c
8,9
$ pier sql "CREATE TABLE key (v REAL PRIMARY KEY); INSERT INTO key VALUES (1.0); INSERT INTO key VALUES (1)"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: key.v
[exit 1]
$ pier sql "CREATE TABLE key (v DOUBLE UNIQUE); INSERT INTO key VALUES (0.5); INSERT INTO key VALUES ('5e-1')"
! pier: error: ConstraintUnique: UNIQUE constraint failed: key.v
[exit 1]
$ pier tables
r

# Round-trip through the CLI: the rows read with --jsonl are bound back
# with --params into a second table; every double comes back the same,
# the smallest and largest too.
$ pier sql "CREATE TABLE s (k INT64 PRIMARY KEY, r REAL, d DOUBLE)"
$ pier sql "SELECT * FROM r" --jsonl > rows.jsonl && while IFS= read -r row; do pier sql "INSERT INTO s VALUES (:k, :r, :d)" --params "$row" > /dev/null || exit 1; done < rows.jsonl && pier sql "SELECT count(*) AS n FROM s" --csv
n
10
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM r EXCEPT SELECT * FROM s)) AS lost, (SELECT count(*) FROM (SELECT * FROM s EXCEPT SELECT * FROM r)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM r ORDER BY k" --jsonl) <(pier sql "SELECT * FROM s ORDER BY k" --jsonl) && echo same
same
$ pier sql "INSERT INTO s VALUES (:k, :r, :d)" --param k=30 --param r=0.30000000000000004 --param d=4.94065645841247e-324 && pier sql "SELECT count(*) AS n FROM r JOIN s USING (r) WHERE s.k = 30" --csv
1 row changed
n
1

# Round-trip of the schema through a dump (REAL is spelled DOUBLE).
$ pier schema dump
CREATE TABLE "r" (
    "k" INT64 PRIMARY KEY,
    "r" DOUBLE,
    "d" DOUBLE
);
CREATE TABLE "s" (
    "k" INT64 PRIMARY KEY,
    "r" DOUBLE,
    "d" DOUBLE
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
