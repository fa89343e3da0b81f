# INT8, INT16, INT32 and INT64 (INTEGER is INT64): signed integers of n
# bits, kept as SQLite integers with a value check of the range. This is
# the family's spec through `pier sql`: each width's two ends are taken
# and one beyond either end is refused, naming the table, the column, the
# type and the value; what SQLite's integer affinity turns into an
# integer is taken as that integer, other text, reals with a fraction and
# blobs are refused; a refused statement or script writes nothing. Values
# read back as digits in every format, compare and order as integers, and
# round-trip through --jsonl and --params, and the schema through a dump.
$ pier sql "CREATE TABLE i (k INT64 PRIMARY KEY, i8 INT8, i16 INT16, i32 INT32, i64 INTEGER)"
$ pier schema i
table i
column  type   readonly
k       INT64  no
i8      INT8   no
i16     INT16  no
i32     INT32  no
i64     INT64  no
$ pier sql "INSERT INTO i VALUES (1, -128, -32768, -2147483648, -9223372036854775808), (2, 127, 32767, 2147483647, 9223372036854775807), (3, 0, 0, 0, 0), (4, NULL, NULL, NULL, NULL)"
4 rows changed

# One beyond each end of each width. An integer beyond 64 bits, as a
# literal or as text, is a real to SQLite, and refused as one.
$ pier sql "INSERT INTO i(i8) VALUES (128)"
! pier: error: ColumnTypeConflict: column 'i8' of table 'i' is INT8, got 128: out of range for INT8
[exit 1]
$ pier sql "INSERT INTO i(i8) VALUES (-129)"
! pier: error: ColumnTypeConflict: column 'i8' of table 'i' is INT8, got -129: out of range for INT8
[exit 1]
$ pier sql "INSERT INTO i(i16) VALUES (32768)"
! pier: error: ColumnTypeConflict: column 'i16' of table 'i' is INT16, got 32768: out of range for INT16
[exit 1]
$ pier sql "INSERT INTO i(i16) VALUES (-32769)"
! pier: error: ColumnTypeConflict: column 'i16' of table 'i' is INT16, got -32769: out of range for INT16
[exit 1]
$ pier sql "INSERT INTO i(i32) VALUES (2147483648)"
! pier: error: ColumnTypeConflict: column 'i32' of table 'i' is INT32, got 2147483648: out of range for INT32
[exit 1]
$ pier sql "INSERT INTO i(i32) VALUES (-2147483649)"
! pier: error: ColumnTypeConflict: column 'i32' of table 'i' is INT32, got -2147483649: out of range for INT32
[exit 1]
$ pier sql "INSERT INTO i(i64) VALUES (9223372036854775808)"
! pier: error: ColumnTypeConflict: column 'i64' of table 'i' is INT64, got a real value
[exit 1]
$ pier sql "INSERT INTO i(i64) VALUES (-9223372036854775809)"
! pier: error: ColumnTypeConflict: column 'i64' of table 'i' is INT64, got a real value
[exit 1]
$ pier sql "INSERT INTO i(i64) VALUES ('9223372036854775808')"
! pier: error: ColumnTypeConflict: column 'i64' of table 'i' is INT64, got a real value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM i"
n
4
(1 row)

# The wrong storage class: a fraction, text that is no integer, a blob.
$ pier sql "INSERT INTO i(i8) VALUES (1.5)"
! pier: error: ColumnTypeConflict: column 'i8' of table 'i' is INT8, got a real value
[exit 1]
$ pier sql "INSERT INTO i(i8) VALUES ('x')"
! pier: error: ColumnTypeConflict: column 'i8' of table 'i' is INT8, got a text value
[exit 1]
$ pier sql "INSERT INTO i(i16) VALUES ('12abc')"
! pier: error: ColumnTypeConflict: column 'i16' of table 'i' is INT16, got a text value
[exit 1]
$ pier sql "INSERT INTO i(i32) VALUES ('0x10')"
! pier: error: ColumnTypeConflict: column 'i32' of table 'i' is INT32, got a text value
[exit 1]
$ pier sql "INSERT INTO i(i64) VALUES (x'01')"
! pier: error: ColumnTypeConflict: column 'i64' of table 'i' is INT64, got a blob value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM i"
n
4
(1 row)

# Spellings SQLite's integer affinity makes integers: digits as text
# (with white space or a '+'), an exponent, a real without a fraction, a
# hex literal, TRUE. Each is stored as the integer.
$ pier sql "INSERT INTO i(k, i8, i16, i32, i64) VALUES (10, '12', ' 12 ', '+12', '9223372036854775807'), (11, '1e2', 12.0, 0x10, -0), (12, TRUE, FALSE, '-0', '-9223372036854775808') RETURNING k, i8, i16, i32, i64, typeof(i8) AS t" --csv
k,i8,i16,i32,i64,t
10,12,12,12,9223372036854775807,integer
11,100,12,16,0,integer
12,1,0,0,-9223372036854775808,integer

# A refusal at the end of a script leaves nothing of the script; so does
# an UPDATE that pushes one row out of range.
$ pier --json sql "INSERT INTO i(k, i8) VALUES (20, 1); UPDATE i SET i16 = 5 WHERE k = 3; INSERT INTO i(k, i8) VALUES (21, 2); INSERT INTO i(k, i32) VALUES (22, 2147483648)"
! {"error":"ColumnTypeConflict","message":"column 'i32' of table 'i' is INT32, got 2147483648: out of range for INT32"}
[exit 1]
$ pier sql "UPDATE i SET i8 = i8 + 100 WHERE i8 IS NOT NULL"
! pier: error: ColumnTypeConflict: column 'i8' of table 'i' is INT8, got 227: out of range for INT8
[exit 1]
$ pier sql "SELECT count(*) AS n, sum(i8) AS s8, sum(i16) AS s16 FROM i" --jsonl
{"n":7,"s8":112,"s16":23}

# Reading back: digits in the table, JSON and CSV (all 64 bits kept).
$ pier sql "SELECT * FROM i ORDER BY k"
k   i8    i16     i32          i64
1   -128  -32768  -2147483648  -9223372036854775808
2   127   32767   2147483647   9223372036854775807
3   0     0       0            0
4   null  null    null         null
10  12    12      12           9223372036854775807
11  100   12      16           0
12  1     0       0            -9223372036854775808
(7 rows)
$ pier sql "SELECT * FROM i ORDER BY k" --json
[
{"k":1,"i8":-128,"i16":-32768,"i32":-2147483648,"i64":-9223372036854775808},
{"k":2,"i8":127,"i16":32767,"i32":2147483647,"i64":9223372036854775807},
{"k":3,"i8":0,"i16":0,"i32":0,"i64":0},
{"k":4,"i8":null,"i16":null,"i32":null,"i64":null},
{"k":10,"i8":12,"i16":12,"i32":12,"i64":9223372036854775807},
{"k":11,"i8":100,"i16":12,"i32":16,"i64":0},
{"k":12,"i8":1,"i16":0,"i32":0,"i64":-9223372036854775808}
]
$ pier sql "SELECT * FROM i ORDER BY k" --csv
k,i8,i16,i32,i64
1,-128,-32768,-2147483648,-9223372036854775808
2,127,32767,2147483647,9223372036854775807
3,0,0,0,0
4,,,,
10,12,12,12,9223372036854775807
11,100,12,16,0
12,1,0,0,-9223372036854775808

# Order and equality are the integers': ORDER BY, '=' with a text
# spelling of the same value, '<' and '>', MIN/MAX, GROUP BY, DISTINCT.
$ pier sql "SELECT k, i64 FROM i ORDER BY i64, k" --csv
k,i64
4,
1,-9223372036854775808
12,-9223372036854775808
3,0
11,0
2,9223372036854775807
10,9223372036854775807
$ pier sql "SELECT k FROM i WHERE i8 = '12' AND i16 = ' +12' ORDER BY k" --csv
k
10
$ pier sql "SELECT k FROM i WHERE i32 > 15 AND i32 < 2147483647 ORDER BY k" --csv
k
11
$ pier sql "SELECT min(i8) AS lo8, max(i8) AS hi8, min(i64) AS lo64, max(i64) AS hi64 FROM i" --jsonl
{"lo8":-128,"hi8":127,"lo64":-9223372036854775808,"hi64":9223372036854775807}
$ pier sql "SELECT i8, count(*) AS n FROM i GROUP BY i8 ORDER BY i8" --csv
i8,n
,1
-128,1
0,1
1,1
12,1
100,1
127,1
$ pier sql "SELECT count(DISTINCT i8) AS n8, count(DISTINCT i64) AS n64 FROM i" --csv
n8,n64
6,3
# A key refuses another spelling of a value it holds; each script fails
# whole, so no table u is left behind.
$ pier sql "CREATE TABLE u (v INT16 PRIMARY KEY); INSERT INTO u VALUES (12); INSERT INTO u VALUES ('+12')"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: u.v
[exit 1]
$ pier sql "CREATE TABLE u (v INT32 UNIQUE); INSERT INTO u VALUES (-7); INSERT INTO u VALUES (-7.0)"
! pier: error: ConstraintUnique: UNIQUE constraint failed: u.v
[exit 1]
$ pier tables
i

# Round-trip through the CLI: every row read with --jsonl is bound back
# with --params into a second table of the same types; the two hold the
# same rows, and read the same.
$ pier sql "CREATE TABLE j (k INT64 PRIMARY KEY, i8 INT8, i16 INT16, i32 INT32, i64 INTEGER)"
$ pier sql "SELECT * FROM i" --jsonl > rows.jsonl && while IFS= read -r row; do pier sql "INSERT INTO j VALUES (:k, :i8, :i16, :i32, :i64)" --params "$row" > /dev/null || exit 1; done < rows.jsonl && pier sql "SELECT count(*) AS n FROM j" --csv
n
7
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM i EXCEPT SELECT * FROM j)) AS lost, (SELECT count(*) FROM (SELECT * FROM j EXCEPT SELECT * FROM i)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM i ORDER BY k" --csv) <(pier sql "SELECT * FROM j ORDER BY k" --csv) && echo same
same
$ pier sql "INSERT INTO j(k, i8, i64) VALUES (:k, :a, :b)" --param k=30 --param a=-128 --param b=-9223372036854775808 && pier sql "SELECT i8, i64 FROM j WHERE k = 30" --jsonl
1 row changed
{"i8":-128,"i64":-9223372036854775808}
$ pier sql "INSERT INTO j(k, i8) VALUES (:k, :a)" --param k=31 --param a=128
! pier: error: ColumnTypeConflict: column 'i8' of table 'j' is INT8, got 128: out of range for INT8
[exit 1]
$ pier sql "INSERT INTO j(k, i8) VALUES (:k, :a)" --param k=31 --param a='"12"'
1 row changed
$ pier sql "SELECT i8 FROM j WHERE k = 31" --jsonl
{"i8":12}

# Round-trip of the schema through a dump: each width keeps its spelling
# (INTEGER reads INT64).
$ pier schema dump
CREATE TABLE "i" (
    "k" INT64 PRIMARY KEY,
    "i8" INT8,
    "i16" INT16,
    "i32" INT32,
    "i64" INT64
);
CREATE TABLE "j" (
    "k" INT64 PRIMARY KEY,
    "i8" INT8,
    "i16" INT16,
    "i32" INT32,
    "i64" INT64
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
