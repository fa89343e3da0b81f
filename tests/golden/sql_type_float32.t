# FLOAT32: IEEE 754 single precision, kept as a SQLite real with a check
# that it is within a float's range: up to FLT_MAX (3.4028234663852886e38)
# and every double that rounds to it (3.4028235e38, the text FLT_MAX reads
# back as, included); half a unit in the last place above it, an infinity
# or more is refused. A value reads back as the shortest text of 6 to 9
# digits that names the same float (0.1 reads 0.1). Numeric text and
# integers are taken as real affinity reads them; other text and blobs
# are refused; a refused statement or script writes nothing. Values
# written as their own text compare, order, round-trip through --jsonl
# and --params, and the schema through a dump.
$ pier sql "CREATE TABLE f (k INT64 PRIMARY KEY, f FLOAT32)"
$ pier schema f
table f
column  type     readonly
k       INT64    no
f       FLOAT32  no
$ pier sql "INSERT INTO f VALUES (1, 0.1), (2, 3.4e38), (3, NULL), (4, 3.4028234663852886e38), (5, -3.4028235e38), (6, 1.4013e-45), (7, 0.5), (8, 16777216), (9, -2.5)"
9 rows changed

# The edges of the range: the largest float and the doubles that round
# to it are taken (the smallest float, 1.4013e-45, was above); half an
# ulp above, on either side, is refused, and so are a larger number and
# an infinity.
$ pier sql "INSERT INTO f VALUES (10, 3.4028235e38), (11, 3.40282356779733e38) RETURNING k, f" --csv
k,f
10,3.4028235e+38
11,3.4028235e+38
$ pier sql "INSERT INTO f(f) VALUES (3.4028235677973366e38)"
! pier: error: ColumnTypeConflict: column 'f' of table 'f' is FLOAT32, got 3.40282356779734e+38: out of range for FLOAT32
[exit 1]
$ pier sql "INSERT INTO f(f) VALUES (-3.4028235677973366e38)"
! pier: error: ColumnTypeConflict: column 'f' of table 'f' is FLOAT32, got -3.40282356779734e+38: out of range for FLOAT32
[exit 1]
$ pier sql "INSERT INTO f(f) VALUES (3.5e38)"
! pier: error: ColumnTypeConflict: column 'f' of table 'f' is FLOAT32, got 3.5e+38: out of range for FLOAT32
[exit 1]
$ pier sql "INSERT INTO f(f) VALUES (-1e39)"
! pier: error: ColumnTypeConflict: column 'f' of table 'f' is FLOAT32, got -1.0e+39: out of range for FLOAT32
[exit 1]
$ pier sql "INSERT INTO f(f) VALUES (1e309)"
! pier: error: ColumnTypeConflict: column 'f' of table 'f' is FLOAT32, got Inf: out of range for FLOAT32
[exit 1]
$ pier sql "SELECT count(*) AS n FROM f"
n
11
(1 row)

# The wrong storage class: text that is no number, a blob.
$ pier sql "INSERT INTO f(f) VALUES ('x')"
! pier: error: ColumnTypeConflict: column 'f' of table 'f' is FLOAT32, got a text value
[exit 1]
$ pier sql "INSERT INTO f(f) VALUES ('1.5f')"
! pier: error: ColumnTypeConflict: column 'f' of table 'f' is FLOAT32, got a text value
[exit 1]
$ pier sql "INSERT INTO f(f) VALUES (x'3f800000')"
! pier: error: ColumnTypeConflict: column 'f' of table 'f' is FLOAT32, got a blob value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM f"
n
11
(1 row)

# Numeric text and integers are taken; a refusal at the end of a script
# leaves nothing of it.
$ pier sql "INSERT INTO f VALUES (12, '0.25'), (13, ' 1e3 '), (14, 7) RETURNING k, f, typeof(f) AS t" --csv
k,f,t
12,0.25,real
13,1000.0,real
14,7.0,real
$ pier sql "INSERT INTO f VALUES (20, 1); UPDATE f SET f = 0 WHERE k = 1; INSERT INTO f VALUES (21, '3.5e38')"
! pier: error: ColumnTypeConflict: column 'f' of table 'f' is FLOAT32, got 3.5e+38: out of range for FLOAT32
[exit 1]
$ pier sql "SELECT count(*) AS n FROM f WHERE k >= 20 OR f = 0" --csv
n
0

# Reading back in the table, JSON and CSV: the float's shortest text.
$ pier sql "SELECT * FROM f ORDER BY k"
k   f
1   0.1
2   3.4e+38
3   null
4   3.4028235e+38
5   -3.4028235e+38
6   1.4013e-45
7   0.5
8   16777216.0
9   -2.5
10  3.4028235e+38
11  3.4028235e+38
12  0.25
13  1000.0
14  7.0
(14 rows)
$ pier sql "SELECT * FROM f ORDER BY k" --json
[
{"k":1,"f":0.1},
{"k":2,"f":3.4e+38},
{"k":3,"f":null},
{"k":4,"f":3.4028235e+38},
{"k":5,"f":-3.4028235e+38},
{"k":6,"f":1.4013e-45},
{"k":7,"f":0.5},
{"k":8,"f":16777216.0},
{"k":9,"f":-2.5},
{"k":10,"f":3.4028235e+38},
{"k":11,"f":3.4028235e+38},
{"k":12,"f":0.25},
{"k":13,"f":1000.0},
{"k":14,"f":7.0}
]
$ pier sql "SELECT * FROM f ORDER BY k" --csv
k,f
1,0.1
2,3.4e+38
3,
4,3.4028235e+38
5,-3.4028235e+38
6,1.4013e-45
7,0.5
8,16777216.0
9,-2.5
10,3.4028235e+38
11,3.4028235e+38
12,0.25
13,1000.0
14,7.0

# Order and equality: ORDER BY, '=' with another spelling (text, an
# integer), '<' and '>', MIN/MAX, GROUP BY, DISTINCT, and a key that
# refuses another spelling of a value it holds.
$ pier sql "SELECT k, f FROM f ORDER BY f, k" --csv
k,f
3,
5,-3.4028235e+38
9,-2.5
6,1.4013e-45
1,0.1
12,0.25
7,0.5
14,7.0
13,1000.0
8,16777216.0
2,3.4e+38
4,3.4028235e+38
10,3.4028235e+38
11,3.4028235e+38
$ pier sql "SELECT k FROM f WHERE f = '0.5' OR f = 7 OR f = 0.1 ORDER BY k" --csv
k
1
7
14
$ pier sql "SELECT k FROM f WHERE f > 0 AND f < 1 ORDER BY f" --csv
k
6
1
12
7
$ pier sql "SELECT min(f) AS lo, max(f) AS hi FROM f WHERE f < 10" --jsonl
{"lo":-3.4028235e+38,"hi":7.0}
$ pier sql "UPDATE f SET f = 0.5 WHERE k = 12; SELECT f, count(*) AS n FROM f WHERE f < 10 GROUP BY f ORDER BY f" --csv
f,n
-3.4028235e+38,1
-2.5,1
1.4013e-45,1
0.1,1
0.5,2
7.0,1
$ pier sql "SELECT count(DISTINCT f) AS n FROM f WHERE f < 10" --csv
n
6
$ pier sql "CREATE TABLE key (v FLOAT32 PRIMARY KEY); INSERT INTO key VALUES (0.5); INSERT INTO key VALUES ('5e-1')"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: key.v
[exit 1]
$ pier tables
f

# Round-trip through the CLI: the rows read with --jsonl are bound back
# with --params into a second table; the two hold the same rows and read
# the same (the values were written as their float's own text, which
# binds back as the same double).
$ pier sql "DELETE FROM f WHERE k IN (4, 11)"
2 rows changed
$ pier sql "CREATE TABLE g (k INT64 PRIMARY KEY, f FLOAT32)"
$ pier sql "SELECT * FROM f" --jsonl > rows.jsonl && while IFS= read -r row; do pier sql "INSERT INTO g VALUES (:k, :f)" --params "$row" > /dev/null || exit 1; done < rows.jsonl && pier sql "SELECT count(*) AS n FROM g" --csv
n
12
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM f EXCEPT SELECT * FROM g)) AS lost, (SELECT count(*) FROM (SELECT * FROM g EXCEPT SELECT * FROM f)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM f ORDER BY k" --jsonl) <(pier sql "SELECT * FROM g ORDER BY k" --jsonl) && echo same
same
$ pier sql "INSERT INTO g VALUES (:k, :f)" --param k=30 --param f=3.4028235e+38 && pier sql "SELECT f FROM g WHERE k = 30" --jsonl
1 row changed
{"f":3.4028235e+38}

# Round-trip of the schema through a dump.
$ pier schema dump
CREATE TABLE "f" (
    "k" INT64 PRIMARY KEY,
    "f" FLOAT32
);
CREATE TABLE "g" (
    "k" INT64 PRIMARY KEY,
    "f" FLOAT32
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
