# INT128: signed integers of 128 bits, -2^127 to 2^127 - 1, beyond
# SQLite's integers: kept as digits in text with an optional '-' (an
# integer is taken too) and compared by value (collation pier_numeric),
# so '-0' and '0', '7' and '007' are one value and '-5' sorts before '3'.
# Both ends are taken and one beyond either is refused; signs, points,
# exponents and white space are refused; a refused statement or script
# writes nothing. Values read back as digits (JSON numbers, all 39 digits
# kept), sums are exact or fail, and values round-trip through --jsonl
# and --param, the schema through a dump.
$ pier sql "CREATE TABLE h (k INT64 PRIMARY KEY, v INT128)"
$ pier schema h
table h
column  type    readonly
k       INT64   no
v       INT128  no
$ pier sql "INSERT INTO h VALUES (1, '-170141183460469231731687303715884105728'), (2, '170141183460469231731687303715884105727'), (3, 0), (4, NULL), (5, -9223372036854775808), (6, '-0'), (7, '007'), (8, '99999999999999999999'), (9, 3), (10, '-5')"
10 rows changed

# One beyond each end, and text that is not an integer.
$ pier sql "INSERT INTO h(v) VALUES ('170141183460469231731687303715884105728')"
! pier: error: ColumnTypeConflict: column 'v' of table 'h' is INT128, got '170141183460469231731687303715884105728': out of range for INT128
[exit 1]
$ pier sql "INSERT INTO h(v) VALUES ('-170141183460469231731687303715884105729')"
! pier: error: ColumnTypeConflict: column 'v' of table 'h' is INT128, got '-170141183460469231731687303715884105729': out of range for INT128
[exit 1]
$ pier sql "INSERT INTO h(v) VALUES ('1000000000000000000000000000000000000000')"
! pier: error: ColumnTypeConflict: column 'v' of table 'h' is INT128, got '1000000000000000000000000000000000000000': out of range for INT128
[exit 1]
$ pier sql "INSERT INTO h(v) VALUES ('+5')"
! pier: error: ColumnTypeConflict: column 'v' of table 'h' is INT128, got '+5': an INT128 is digits with an optional '-' (like -42), or an integer
[exit 1]
$ pier sql "INSERT INTO h(v) VALUES ('1.5')"
! pier: error: ColumnTypeConflict: column 'v' of table 'h' is INT128, got '1.5': an INT128 is digits with an optional '-' (like -42), or an integer
[exit 1]
$ pier sql "INSERT INTO h(v) VALUES ('1e3')"
! pier: error: ColumnTypeConflict: column 'v' of table 'h' is INT128, got '1e3': an INT128 is digits with an optional '-' (like -42), or an integer
[exit 1]
$ pier sql "INSERT INTO h(v) VALUES (' 5')"
! pier: error: ColumnTypeConflict: column 'v' of table 'h' is INT128, got ' 5': an INT128 is digits with an optional '-' (like -42), or an integer
[exit 1]
$ pier sql "INSERT INTO h(v) VALUES ('-')"
! pier: error: ColumnTypeConflict: column 'v' of table 'h' is INT128, got '-': an INT128 is digits with an optional '-' (like -42), or an integer
[exit 1]
$ pier sql "INSERT INTO h(v) VALUES ('--1')"
! pier: error: ColumnTypeConflict: column 'v' of table 'h' is INT128, got '--1': an INT128 is digits with an optional '-' (like -42), or an integer
[exit 1]
$ pier sql "INSERT INTO h(v) VALUES ('')"
! pier: error: ColumnTypeConflict: column 'v' of table 'h' is INT128, got '': an INT128 is digits with an optional '-' (like -42), or an integer
[exit 1]
$ pier sql "SELECT count(*) AS n FROM h"
n
10
(1 row)

# The wrong storage class: a real (even a whole one: SQLite stores it as
# text with a point), a blob.
$ pier sql "INSERT INTO h(v) VALUES (1.5)"
! pier: error: ColumnTypeConflict: column 'v' of table 'h' is INT128, got '1.5': an INT128 is digits with an optional '-' (like -42), or an integer
[exit 1]
$ pier sql "INSERT INTO h(v) VALUES (2.0)"
! pier: error: ColumnTypeConflict: column 'v' of table 'h' is INT128, got '2.0': an INT128 is digits with an optional '-' (like -42), or an integer
[exit 1]
$ pier sql "INSERT INTO h(v) VALUES (x'01')"
! pier: error: ColumnTypeConflict: column 'v' of table 'h' is INT128, got a blob value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM h"
n
10
(1 row)

# A refusal at the end of a script leaves nothing of it.
$ pier sql "INSERT INTO h VALUES (20, 1); UPDATE h SET v = '1' WHERE k = 3; INSERT INTO h VALUES (21, '170141183460469231731687303715884105728')"
! pier: error: ColumnTypeConflict: column 'v' of table 'h' is INT128, got '170141183460469231731687303715884105728': out of range for INT128
[exit 1]
$ pier sql "SELECT count(*) AS n FROM h WHERE k >= 20 OR v = 1" --csv
n
0

# Reading back: canonical digits in the table, JSON and CSV.
$ pier sql "SELECT * FROM h ORDER BY k"
k   v
1   -170141183460469231731687303715884105728
2   170141183460469231731687303715884105727
3   0
4   null
5   -9223372036854775808
6   0
7   7
8   99999999999999999999
9   3
10  -5
(10 rows)
$ pier sql "SELECT * FROM h ORDER BY k" --json
[
{"k":1,"v":-170141183460469231731687303715884105728},
{"k":2,"v":170141183460469231731687303715884105727},
{"k":3,"v":0},
{"k":4,"v":null},
{"k":5,"v":-9223372036854775808},
{"k":6,"v":0},
{"k":7,"v":7},
{"k":8,"v":99999999999999999999},
{"k":9,"v":3},
{"k":10,"v":-5}
]
$ pier sql "SELECT * FROM h ORDER BY k" --csv
k,v
1,-170141183460469231731687303715884105728
2,170141183460469231731687303715884105727
3,0
4,
5,-9223372036854775808
6,0
7,7
8,99999999999999999999
9,3
10,-5

# Order and equality by value: ORDER BY, '=' with other spellings (an
# integer, leading zeros, '-0'), '<' and '>', MIN/MAX (whose result is
# the stored text), GROUP BY, DISTINCT, and a key that refuses another
# spelling of a value it holds.
$ pier sql "SELECT v FROM h ORDER BY v DESC" --csv
v
170141183460469231731687303715884105727
99999999999999999999
7
3
0
0
-5
-9223372036854775808
-170141183460469231731687303715884105728
$ pier sql "SELECT k FROM h WHERE v = 3 OR v = '-05' OR v = 7 ORDER BY k" --csv
k
7
9
10
$ pier sql "SELECT k FROM h WHERE v = '-0' ORDER BY k" --csv
k
3
6
$ pier sql "SELECT k FROM h WHERE v > -6 AND v < '100' ORDER BY v, k" --csv
k
10
3
6
9
7
$ pier sql "SELECT min(v) AS lo, max(v) AS hi FROM h" --jsonl
{"lo":"-170141183460469231731687303715884105728","hi":"170141183460469231731687303715884105727"}
$ pier sql "SELECT max(v) AS hi FROM h WHERE k IN (3, 6, 7)" --jsonl
{"hi":"007"}
$ pier sql "SELECT v FROM h WHERE v IS NOT NULL ORDER BY v DESC LIMIT 1" --jsonl
{"v":170141183460469231731687303715884105727}
$ pier sql "SELECT v, count(*) AS n FROM h GROUP BY v ORDER BY v" --csv
v,n
,1
-170141183460469231731687303715884105728,1
-9223372036854775808,1
-5,1
0,2
3,1
7,1
99999999999999999999,1
170141183460469231731687303715884105727,1
$ pier sql "SELECT count(DISTINCT v) AS n FROM h" --csv
n
8
$ pier sql "CREATE TABLE key (v INT128 PRIMARY KEY); INSERT INTO key VALUES ('0'); INSERT INTO key VALUES ('-0')"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: key.v
[exit 1]
$ pier sql "CREATE TABLE key (v INT128 UNIQUE); INSERT INTO key VALUES ('-170141183460469231731687303715884105728'); INSERT INTO key VALUES ('-0170141183460469231731687303715884105728')"
! pier: error: ConstraintUnique: UNIQUE constraint failed: key.v
[exit 1]
$ pier tables
h

# Sums are exact; a total past 38 digits (only an INT128 of 39 digits
# gets there) fails rather than come back as a float. Arithmetic would go
# through a float, and is refused.
$ pier sql "SELECT sum(v) AS s, avg(v) AS a FROM h WHERE k IN (5, 8, 9, 10)" --jsonl
{"s":"90776627963145224189","a":"22694156990786306047.25"}
$ pier sql "SELECT sum(v) AS s FROM h WHERE k IN (1, 3)" --jsonl
! pier: error: QueryFailed: sum: the decimal total needs more than 38 digits (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT sum(v) AS s FROM h WHERE k IN (1, 2)" --jsonl
! pier: error: QueryFailed: sum: the decimal total needs more than 38 digits (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT avg(v) AS a FROM h WHERE k IN (1, 2)" --jsonl
! pier: error: QueryFailed: avg: the decimal total needs more than 38 digits (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT v * 2 FROM h"
! pier: error: QueryFailed: '*': the result needs more than 38 digits (at byte 0 of the script)
[exit 1]

# Round-trip through the CLI: each row read with --jsonl is bound back
# with --param (the digits' text, as JSON cannot carry 128 bits into a
# parameter) into a second table; the two hold the same rows, and read
# the same.
$ pier sql "CREATE TABLE g (k INT64 PRIMARY KEY, v INT128)"
$ pier sql "SELECT * FROM h" --jsonl | sed -e 's/^{"k":\([0-9]*\),"v":\(.*\)}$/\1 \2/' | while read -r k v; do pier sql "INSERT INTO g VALUES (:k, :v)" --param k=$k --param v=$v > /dev/null || exit 1; done && pier sql "SELECT count(*) AS n FROM g" --csv
n
10
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM h EXCEPT SELECT * FROM g)) AS lost, (SELECT count(*) FROM (SELECT * FROM g EXCEPT SELECT * FROM h)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM h ORDER BY k" --jsonl) <(pier sql "SELECT * FROM g ORDER BY k" --jsonl) && echo same
same
# (The row whose v is NULL joins nothing.)
$ pier sql "SELECT count(*) AS n FROM h JOIN g USING (k, v)" --csv
n
9

# Round-trip of the schema through a dump.
$ pier schema dump
CREATE TABLE "h" (
    "k" INT64 PRIMARY KEY,
    "v" INT128
);
CREATE TABLE "g" (
    "k" INT64 PRIMARY KEY,
    "v" INT128
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
