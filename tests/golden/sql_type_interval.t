# INTERVAL: an ISO 8601 duration, P then nY nM nW nD, then T and nH nM
# n[.f]S, in that order, each at most once, at least one, in either
# case; every number may have its own sign, only seconds a fraction (1
# to 9 digits, '.' or ',', kept to the microsecond). It is kept as
# months, days and microseconds, apart (a month has no fixed number of
# days, nor a day of hours across a change of clocks): years count 12
# months and weeks 7 days, and months and days must fit 32 bits, the
# time 64-bit microseconds. It is stored as written, checked, and
# compared by value (collation pier_interval: months, then days, then
# time), so P1Y and P12M are one value and P1D is not PT24H. Anything
# else is refused, and a refused statement or script writes nothing. An
# interval reads back in its canonical form (years and months, days,
# hours, minutes, seconds, each part with its sign, zero parts left out,
# PT0S for zero) in every format, round-trips through --jsonl and
# --params, and the schema through a dump.
$ pier sql "CREATE TABLE v (k INT64 PRIMARY KEY, iv INTERVAL)"
$ pier schema v
table v
column  type      readonly
k       INT64     no
iv      INTERVAL  no
$ pier sql "INSERT INTO v VALUES (1, 'P1Y2M3DT4H5M6.5S'), (2, 'PT0S'), (3, 'P-1W'), (4, NULL), (5, 'PT1H'), (6, 'P1D'), (7, 'P1M')"
7 rows changed

# Each part alone, fractions, a comma, lower case, signs on any part,
# zero spelled many ways, parts that fold into one another.
$ pier sql "INSERT INTO v VALUES (10, 'P1Y'), (11, 'P12M'), (12, 'P1W'), (13, 'P7D'), (14, 'PT60M'), (15, 'PT3600S'), (16, 'PT0.5S'), (17, 'PT1.123456789S'), (18, 'PT1,5S'), (19, 'p1y2m3dt4h5m6.5s'), (20, 'P+1Y'), (21, 'P1Y-1M'), (22, 'PT-0.5S'), (23, 'P-0D'), (24, 'P0Y0M0DT0H0M0S'), (25, 'P1W2D'), (26, 'PT24H'), (27, 'P-1DT1H') RETURNING k, iv" --csv
k,iv
10,P1Y
11,P1Y
12,P7D
13,P7D
14,PT1H
15,PT1H
16,PT0.5S
17,PT1.123457S
18,PT1.5S
19,P1Y2M3DT4H5M6.5S
20,P1Y
21,P11M
22,PT-0.5S
23,PT0S
24,PT0S
25,P9D
26,PT24H
27,P-1DT1H

# The ends of each field: months (years too) and days within 32 bits,
# the time within 64-bit microseconds; one past each is refused.
$ pier sql "INSERT INTO v VALUES (30, 'P178956970Y7M'), (31, 'P-2147483648M'), (32, 'P2147483647D'), (33, 'P-2147483648D'), (34, 'PT2562047788H'), (35, 'PT9223372036854.775807S'), (36, 'PT-9223372036854.775808S'), (37, 'P2147483647M2147483647DT-9223372036854.775808S') RETURNING k, iv" --csv
k,iv
30,P178956970Y7M
31,P-178956970Y-8M
32,P2147483647D
33,P-2147483648D
34,PT2562047788H
35,PT2562047788H54.775807S
36,PT-2562047788H-54.775808S
37,P178956970Y7M2147483647DT-2562047788H-54.775808S
$ pier sql "INSERT INTO v(iv) VALUES ('P178956970Y8M')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'P178956970Y8M': an interval's months and days are 32-bit, its time 64-bit microseconds
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('P2147483648M')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'P2147483648M': an interval's months and days are 32-bit, its time 64-bit microseconds
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('P-2147483649M')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'P-2147483649M': an interval's months and days are 32-bit, its time 64-bit microseconds
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('P2147483648D')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'P2147483648D': an interval's months and days are 32-bit, its time 64-bit microseconds
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('P306783379W')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'P306783379W': an interval's months and days are 32-bit, its time 64-bit microseconds
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('PT2562047789H')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'PT2562047789H': an interval's months and days are 32-bit, its time 64-bit microseconds
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('PT9223372036854.775808S')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'PT9223372036854.775808S': an interval's months and days are 32-bit, its time 64-bit microseconds
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('PT-9223372036854.775809S')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'PT-9223372036854.775809S': an interval's months and days are 32-bit, its time 64-bit microseconds
[exit 1]
$ pier sql "SELECT count(*) AS n FROM v" --csv
n
33

# Refused: no part, a T with no part after it, parts out of order or
# twice, a time part before T or a date part after it, a fraction on
# anything but seconds, ten fraction digits, a number without its
# designator, white space, other notations, the empty text; a number, a
# blob.
$ pier sql "INSERT INTO v(iv) VALUES ('P')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'P': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('PT')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'PT': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('P1DT')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'P1DT': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('P2D1W')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'P2D1W': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('P1M1Y')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'P1M1Y': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('PT1H1H')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'PT1H1H': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('P1H')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'P1H': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('PT1D')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'PT1D': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('P1.5D')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'P1.5D': only an interval's seconds may have a fraction
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('PT1.5M')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'PT1.5M': only an interval's seconds may have a fraction
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('PT1.1234567891S')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'PT1.1234567891S': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('P1')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'P1': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('P 1D')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'P 1D': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('1 day')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got '1 day': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('01:00:00')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got '01:00:00': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES ('')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got '': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES (3600)"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got '3600': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "INSERT INTO v(iv) VALUES (x'00')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got a blob value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM v" --csv
n
33

# A refusal at the end of a script leaves nothing of it.
$ pier sql "INSERT INTO v VALUES (40, 'P2D'); UPDATE v SET iv = 'P5D' WHERE k = 2; INSERT INTO v VALUES (41, 'P2DT')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'v' is INTERVAL, got 'P2DT': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "SELECT count(*) AS n, sum(k >= 40) AS new, sum(iv = 'P5D') AS changed FROM v" --csv
n,new,changed
33,0,0

# Reading back in the canonical form, in the table, JSON and CSV.
$ pier sql "SELECT * FROM v WHERE k < 10 ORDER BY k"
k  iv
1  P1Y2M3DT4H5M6.5S
2  PT0S
3  P-7D
4  null
5  PT1H
6  P1D
7  P1M
(7 rows)
$ pier sql "SELECT * FROM v WHERE k < 10 ORDER BY k" --json
[
{"k":1,"iv":"P1Y2M3DT4H5M6.5S"},
{"k":2,"iv":"PT0S"},
{"k":3,"iv":"P-7D"},
{"k":4,"iv":null},
{"k":5,"iv":"PT1H"},
{"k":6,"iv":"P1D"},
{"k":7,"iv":"P1M"}
]
$ pier sql "SELECT * FROM v WHERE k < 10 ORDER BY k" --csv
k,iv
1,P1Y2M3DT4H5M6.5S
2,PT0S
3,P-7D
4,
5,PT1H
6,P1D
7,P1M

# Order and equality by value: ORDER BY, '=' with another spelling,
# '<' and '>', MIN/MAX (computed: the stored text), GROUP BY, DISTINCT,
# and a key that refuses another spelling. Months, days and time are
# compared apart, so P1D and PT24H are two values.
$ pier sql "SELECT k, iv FROM v WHERE k < 30 AND k <> 26 ORDER BY iv, k" --csv
k,iv
4,
3,P-7D
27,P-1DT1H
22,PT-0.5S
2,PT0S
23,PT0S
24,PT0S
16,PT0.5S
17,PT1.123457S
18,PT1.5S
5,PT1H
14,PT1H
15,PT1H
6,P1D
12,P7D
13,P7D
25,P9D
7,P1M
21,P11M
10,P1Y
11,P1Y
20,P1Y
1,P1Y2M3DT4H5M6.5S
19,P1Y2M3DT4H5M6.5S
$ pier sql "SELECT k FROM v WHERE iv = 'P12M' ORDER BY k" --csv
k
10
11
20
$ pier sql "SELECT k FROM v WHERE iv = 'PT1H' OR iv = 'P-7D' OR iv = 'pt0s' ORDER BY k" --csv
k
2
3
5
14
15
23
24
$ pier sql "SELECT k FROM v WHERE iv = 'P1D' OR iv = 'P1M'" --csv
k
6
7
$ pier sql "SELECT k FROM v WHERE iv > 'PT0S' AND iv < 'PT2H' ORDER BY iv, k" --csv
k
16
17
18
5
14
15
$ pier sql "SELECT k FROM v WHERE k < 30 AND iv > 'P1D' AND iv < 'P1Y' ORDER BY iv, k" --csv
k
12
13
25
7
21
$ pier sql "SELECT min(iv) AS lo, max(iv) AS hi FROM v WHERE k IN (5, 14, 15, 21)" --jsonl
{"lo":"PT1H","hi":"P1Y-1M"}
$ pier sql "SELECT iv, count(*) AS n FROM v WHERE k < 30 GROUP BY iv HAVING n > 1 ORDER BY iv" --csv
iv,n
PT0S,3
PT1H,3
P7D,2
P1Y,3
P1Y2M3DT4H5M6.5S,2
$ pier sql "SELECT count(DISTINCT iv) AS n, count(iv) AS c FROM v WHERE k < 30" --csv
n,c
16,24
$ pier sql "CREATE TABLE key (v INTERVAL PRIMARY KEY); INSERT INTO key VALUES ('P1Y'); INSERT INTO key VALUES ('P12M')"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: key.v
[exit 1]
$ pier sql "CREATE TABLE key (v INTERVAL UNIQUE); INSERT INTO key VALUES ('P1D'), ('PT24H'); INSERT INTO key VALUES ('P1W'), ('pt86400s')"
! pier: error: ConstraintUnique: UNIQUE constraint failed: key.v
[exit 1]
$ pier tables
v

# Round-trip through the CLI: the rows read with --jsonl are bound back
# with --params into a second table; the two hold the same rows, and
# read the same, at the ends of each field too.
$ pier sql "CREATE TABLE w (k INT64 PRIMARY KEY, iv INTERVAL)"
$ pier sql "SELECT * FROM v" --jsonl > rows.jsonl && while IFS= read -r row; do pier sql "INSERT INTO w VALUES (:k, :iv)" --params "$row" > /dev/null || exit 1; done < rows.jsonl && pier sql "SELECT count(*) AS n FROM w" --csv
n
33
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM v EXCEPT SELECT * FROM w)) AS lost, (SELECT count(*) FROM (SELECT * FROM w EXCEPT SELECT * FROM v)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM v ORDER BY k" --jsonl) <(pier sql "SELECT * FROM w ORDER BY k" --jsonl) && echo same
same
$ pier sql "INSERT INTO w VALUES (:k, :iv)" --param k=50 --param iv=P1Y2M10DT2H30M && pier sql "SELECT iv FROM w WHERE k = 50" --jsonl
1 row changed
{"iv":"P1Y2M10DT2H30M"}

# Round-trip of the schema through a dump.
$ pier schema dump
CREATE TABLE "v" (
    "k" INT64 PRIMARY KEY,
    "iv" INTERVAL
);
CREATE TABLE "w" (
    "k" INT64 PRIMARY KEY,
    "iv" INTERVAL
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
