# UINT8, UINT16, UINT32 and UINT64: unsigned integers of n bits, 0 to
# 2^n - 1. Up to UINT32 they are SQLite integers with a range check, and
# take what integer affinity makes an integer; UINT64 goes past SQLite's
# integers, so it is kept as digits in text (an integer is taken too) and
# compares by value (collation pier_numeric): '7' and '007' are one value,
# '9' sorts before '10', and 2^63 after every smaller value. Each width's
# two ends are taken and one beyond either is refused; a refused
# statement or script writes nothing; values read back as digits (JSON
# numbers, all 64 bits kept) and round-trip through --jsonl and --param.
$ pier sql "CREATE TABLE u (k INT64 PRIMARY KEY, u8 UINT8, u16 UINT16, u32 UINT32, u64 UINT64)"
$ pier schema u
table u
column  type    readonly
k       INT64   no
u8      UINT8   no
u16     UINT16  no
u32     UINT32  no
u64     UINT64  no
$ pier sql "INSERT INTO u VALUES (1, 0, 0, 0, '0'), (2, 255, 65535, 4294967295, '18446744073709551615'), (3, NULL, NULL, NULL, NULL)"
3 rows changed

# One beyond each end. A negative UINT64 is refused for its range, '-0'
# too: an unsigned value has no sign.
$ pier sql "INSERT INTO u(u8) VALUES (256)"
! pier: error: ColumnTypeConflict: column 'u8' of table 'u' is UINT8, got 256: out of range for UINT8
[exit 1]
$ pier sql "INSERT INTO u(u8) VALUES (-1)"
! pier: error: ColumnTypeConflict: column 'u8' of table 'u' is UINT8, got -1: out of range for UINT8
[exit 1]
$ pier sql "INSERT INTO u(u16) VALUES (65536)"
! pier: error: ColumnTypeConflict: column 'u16' of table 'u' is UINT16, got 65536: out of range for UINT16
[exit 1]
$ pier sql "INSERT INTO u(u16) VALUES (-1)"
! pier: error: ColumnTypeConflict: column 'u16' of table 'u' is UINT16, got -1: out of range for UINT16
[exit 1]
$ pier sql "INSERT INTO u(u32) VALUES (4294967296)"
! pier: error: ColumnTypeConflict: column 'u32' of table 'u' is UINT32, got 4294967296: out of range for UINT32
[exit 1]
$ pier sql "INSERT INTO u(u32) VALUES (-1)"
! pier: error: ColumnTypeConflict: column 'u32' of table 'u' is UINT32, got -1: out of range for UINT32
[exit 1]
$ pier sql "INSERT INTO u(u64) VALUES ('18446744073709551616')"
! pier: error: ColumnTypeConflict: column 'u64' of table 'u' is UINT64, got '18446744073709551616': out of range for UINT64
[exit 1]
$ pier sql "INSERT INTO u(u64) VALUES ('99999999999999999999999')"
! pier: error: ColumnTypeConflict: column 'u64' of table 'u' is UINT64, got '99999999999999999999999': out of range for UINT64
[exit 1]
$ pier sql "INSERT INTO u(u64) VALUES (-1)"
! pier: error: ColumnTypeConflict: column 'u64' of table 'u' is UINT64, got '-1': out of range for UINT64
[exit 1]
$ pier sql "INSERT INTO u(u64) VALUES ('-0')"
! pier: error: ColumnTypeConflict: column 'u64' of table 'u' is UINT64, got '-0': out of range for UINT64
[exit 1]
$ pier sql "SELECT count(*) AS n FROM u"
n
3
(1 row)

# The wrong storage class, and text that is not digits: UINT64 takes
# digits only (no sign, point, exponent or white space).
$ pier sql "INSERT INTO u(u8) VALUES (1.5)"
! pier: error: ColumnTypeConflict: column 'u8' of table 'u' is UINT8, got a real value
[exit 1]
$ pier sql "INSERT INTO u(u16) VALUES ('x')"
! pier: error: ColumnTypeConflict: column 'u16' of table 'u' is UINT16, got a text value
[exit 1]
$ pier sql "INSERT INTO u(u32) VALUES (x'01')"
! pier: error: ColumnTypeConflict: column 'u32' of table 'u' is UINT32, got a blob value
[exit 1]
$ pier sql "INSERT INTO u(u64) VALUES ('+5')"
! pier: error: ColumnTypeConflict: column 'u64' of table 'u' is UINT64, got '+5': a UINT64 is digits (like 42), or an integer
[exit 1]
$ pier sql "INSERT INTO u(u64) VALUES (' 5')"
! pier: error: ColumnTypeConflict: column 'u64' of table 'u' is UINT64, got ' 5': a UINT64 is digits (like 42), or an integer
[exit 1]
$ pier sql "INSERT INTO u(u64) VALUES ('5.0')"
! pier: error: ColumnTypeConflict: column 'u64' of table 'u' is UINT64, got '5.0': a UINT64 is digits (like 42), or an integer
[exit 1]
$ pier sql "INSERT INTO u(u64) VALUES ('1e3')"
! pier: error: ColumnTypeConflict: column 'u64' of table 'u' is UINT64, got '1e3': a UINT64 is digits (like 42), or an integer
[exit 1]
$ pier sql "INSERT INTO u(u64) VALUES ('')"
! pier: error: ColumnTypeConflict: column 'u64' of table 'u' is UINT64, got '': a UINT64 is digits (like 42), or an integer
[exit 1]
$ pier sql "INSERT INTO u(u64) VALUES (1.5)"
! pier: error: ColumnTypeConflict: column 'u64' of table 'u' is UINT64, got '1.5': a UINT64 is digits (like 42), or an integer
[exit 1]
$ pier sql "INSERT INTO u(u64) VALUES (x'01')"
! pier: error: ColumnTypeConflict: column 'u64' of table 'u' is UINT64, got a blob value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM u"
n
3
(1 row)

# What is taken: integers and integer text up to UINT32 (as integer
# affinity reads them); for UINT64 integers and digits, leading zeros
# too, each read back as its value.
$ pier sql "INSERT INTO u VALUES (4, '12', '+12', 12.0, 9223372036854775807), (5, TRUE, '1e2', 0x10, '9223372036854775808'), (6, 7, 7, 7, '007'), (7, 9, 9, 9, '10'), (8, 10, 10, 10, 9) RETURNING k, u8, u16, u32, u64" --csv
k,u8,u16,u32,u64
4,12,12,12,9223372036854775807
5,1,100,16,9223372036854775808
6,7,7,7,7
7,9,9,9,10
8,10,10,10,9

# A refusal at the end of a script leaves nothing of it; so does an
# UPDATE that takes one row out of range.
$ pier --json sql "INSERT INTO u(k, u16) VALUES (20, 1); INSERT INTO u(k, u8) VALUES (21, 300)"
! {"error":"ColumnTypeConflict","message":"column 'u8' of table 'u' is UINT8, got 300: out of range for UINT8"}
[exit 1]
$ pier sql "INSERT INTO u(k, u64) VALUES (20, '1'); UPDATE u SET u8 = 0 WHERE k = 4; INSERT INTO u(k, u64) VALUES (21, '18446744073709551616')"
! pier: error: ColumnTypeConflict: column 'u64' of table 'u' is UINT64, got '18446744073709551616': out of range for UINT64
[exit 1]
$ pier sql "UPDATE u SET u8 = u8 + 1 WHERE u8 IS NOT NULL"
! pier: error: ColumnTypeConflict: column 'u8' of table 'u' is UINT8, got 256: out of range for UINT8
[exit 1]
$ pier sql "SELECT count(*) AS n, sum(u8) AS s8, sum(u64) AS s64 FROM u" --jsonl
{"n":8,"s8":294,"s64":"36893488147419103256"}

# Reading back: digits in the table and CSV, numbers in JSON.
$ pier sql "SELECT * FROM u ORDER BY k"
k  u8    u16    u32         u64
1  0     0      0           0
2  255   65535  4294967295  18446744073709551615
3  null  null   null        null
4  12    12     12          9223372036854775807
5  1     100    16          9223372036854775808
6  7     7      7           7
7  9     9      9           10
8  10    10     10          9
(8 rows)
$ pier sql "SELECT * FROM u ORDER BY k" --json
[
{"k":1,"u8":0,"u16":0,"u32":0,"u64":0},
{"k":2,"u8":255,"u16":65535,"u32":4294967295,"u64":18446744073709551615},
{"k":3,"u8":null,"u16":null,"u32":null,"u64":null},
{"k":4,"u8":12,"u16":12,"u32":12,"u64":9223372036854775807},
{"k":5,"u8":1,"u16":100,"u32":16,"u64":9223372036854775808},
{"k":6,"u8":7,"u16":7,"u32":7,"u64":7},
{"k":7,"u8":9,"u16":9,"u32":9,"u64":10},
{"k":8,"u8":10,"u16":10,"u32":10,"u64":9}
]
$ pier sql "SELECT * FROM u ORDER BY k" --csv
k,u8,u16,u32,u64
1,0,0,0,0
2,255,65535,4294967295,18446744073709551615
3,,,,
4,12,12,12,9223372036854775807
5,1,100,16,9223372036854775808
6,7,7,7,7
7,9,9,9,10
8,10,10,10,9

# Order and equality by value: ORDER BY, '=' with another spelling of the
# value (an integer, leading zeros), '<' and '>' across 2^63, MIN/MAX,
# GROUP BY and DISTINCT, and a key that refuses another spelling of a
# value it holds.
$ pier sql "SELECT u64 FROM u ORDER BY u64" --csv
u64

0
7
9
10
9223372036854775807
9223372036854775808
18446744073709551615
$ pier sql "SELECT u64 FROM u ORDER BY u64 DESC LIMIT 2" --csv
u64
18446744073709551615
9223372036854775808
$ pier sql "SELECT k FROM u WHERE u64 = 7 OR u64 = '0010' OR u64 = '18446744073709551615' ORDER BY k" --csv
k
2
6
7
$ pier sql "SELECT k FROM u WHERE u64 > 9223372036854775807 ORDER BY k" --csv
k
2
5
$ pier sql "SELECT k FROM u WHERE u64 < '9' ORDER BY k" --csv
k
1
6
$ pier sql "SELECT k FROM u WHERE u32 > 9 AND u32 < 4294967295 ORDER BY k" --csv
k
4
5
8
$ pier sql "SELECT min(u64) AS lo, max(u64) AS hi, count(DISTINCT u64) AS n, min(u32) AS lo32, max(u32) AS hi32 FROM u" --jsonl
{"lo":"0","hi":"18446744073709551615","n":7,"lo32":0,"hi32":4294967295}
$ pier sql "UPDATE u SET u64 = '7' WHERE k = 8; SELECT u64, count(*) AS n FROM u GROUP BY u64 ORDER BY u64" --csv
u64,n
,1
0,1
7,2
10,1
9223372036854775807,1
9223372036854775808,1
18446744073709551615,1
$ pier sql "SELECT DISTINCT u64 FROM u WHERE u64 < 100 ORDER BY u64" --csv
u64
0
7
10
$ pier sql "CREATE TABLE key (v UINT64 PRIMARY KEY); INSERT INTO key VALUES ('7'); INSERT INTO key VALUES ('007')"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: key.v
[exit 1]
$ pier sql "CREATE TABLE key (v UINT64 UNIQUE); INSERT INTO key VALUES ('18446744073709551615'); INSERT INTO key VALUES ('018446744073709551615')"
! pier: error: ConstraintUnique: UNIQUE constraint failed: key.v
[exit 1]
$ pier sql "CREATE TABLE key (v UINT8 PRIMARY KEY); INSERT INTO key VALUES (255); INSERT INTO key VALUES ('255')"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: key.v
[exit 1]
$ pier tables
u

# An integer literal beyond 2^63 would be a real to SQLite: Pier reads it
# as its digits, so a UINT64 that large may be written bare.
$ pier sql "INSERT INTO u(u64) VALUES (18446744073709551615)"
1 row changed

# Sums are exact, beyond 64 bits too; so is arithmetic on UINT64: a
# result past 18446744073709551615 is its exact value, never wrapped,
# and a UINT64 column refuses to store it.
$ pier sql "SELECT sum(u64) AS s, avg(u64) AS a FROM u WHERE k IN (2, 5)" --jsonl
{"s":"27670116110564327423","a":"13835058055282163711.5"}
$ pier sql "SELECT u64 + 1 FROM u"
u64 + 1
1
18446744073709551616
null
9223372036854775808
9223372036854775809
8
11
8
18446744073709551616
(9 rows)
$ pier sql "UPDATE u SET u64 = u64 + 1 WHERE u64 = 18446744073709551615"
! pier: error: ColumnTypeConflict: column 'u64' of table 'u' is UINT64, got '18446744073709551616': out of range for UINT64
[exit 1]
$ pier sql "SELECT count(*) AS n FROM u WHERE u64 = 18446744073709551615" --jsonl
{"n":2}
$ pier sql "SELECT u64 - 18446744073709551615 AS d FROM u WHERE u64 = 0" --jsonl
{"d":"-18446744073709551615"}

# Round-trip through the CLI: the rows read with --jsonl are bound back
# with --param, member by member, into a second table of the same types
# (a UINT64 beyond 2^63 is bound as the digits' text); the two hold the
# same rows, and read the same.
$ pier sql "CREATE TABLE w (k INT64 PRIMARY KEY, u8 UINT8, u16 UINT16, u32 UINT32, u64 UINT64)"
$ pier sql "SELECT * FROM u" --jsonl | sed -e 's/[{}]//g' -e 's/"[a-z0-9]*"://g' -e 's/,/ /g' | while read -r k a b c d; do pier sql "INSERT INTO w VALUES (:k, :a, :b, :c, :d)" --param k=$k --param a=$a --param b=$b --param c=$c --param d=$d > /dev/null || exit 1; done && pier sql "SELECT count(*) AS n FROM w" --csv
n
9
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM u EXCEPT SELECT * FROM w)) AS lost, (SELECT count(*) FROM (SELECT * FROM w EXCEPT SELECT * FROM u)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM u ORDER BY k" --jsonl) <(pier sql "SELECT * FROM w ORDER BY k" --jsonl) && echo same
same
$ pier sql "INSERT INTO w(k, u64) VALUES (:k, :v)" --param k=30 --param v=18446744073709551616
! pier: error: ColumnTypeConflict: column 'u64' of table 'w' is UINT64, got '18446744073709551616': out of range for UINT64
[exit 1]

# Round-trip of the schema through a dump.
$ pier schema dump
CREATE TABLE "u" (
    "k" INT64 PRIMARY KEY,
    "u8" UINT8,
    "u16" UINT16,
    "u32" UINT32,
    "u64" UINT64
);
CREATE TABLE "w" (
    "k" INT64 PRIMARY KEY,
    "u8" UINT8,
    "u16" UINT16,
    "u32" UINT32,
    "u64" UINT64
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
