# TIME: a time of day without a zone, 00:00:00 to 23:59:59.999999,
# written HH:MM:SS with an optional fraction of 1 to 9 digits (rounded
# to the microsecond, a tie to the even one; one that rounds to 24:00:00
# is refused). It is kept as the text
# written, checked, and compared by value (collation pier_time), so
# 10:00:00 and 10:00:00.000 are one value and 09:59:59.9 sorts before
# 10:00:00. Hour 24, second 60, a zone (refused saying so), another
# layout and other storage classes are refused, and a refused statement
# or script writes nothing. A time reads back with six fraction digits
# in every format, round-trips through --jsonl and --params, and the
# schema through a dump.
$ pier sql "CREATE TABLE t (k INT64 PRIMARY KEY, t TIME)"
$ pier schema t
table t
column  type   readonly
k       INT64  no
t       TIME   no
$ pier sql "INSERT INTO t VALUES (1, '10:00:00'), (2, '23:59:59.999999'), (3, '00:00:00.5'), (4, NULL), (5, '00:00:00'), (6, '23:59:59')"
6 rows changed

# Fractions of 1 to 9 digits; past the sixth they are rounded to the
# nearest microsecond, a tie to the even one.
$ pier sql "INSERT INTO t VALUES (10, '10:00:00.5'), (11, '10:00:00.50'), (12, '10:00:00.123456'), (13, '10:00:00.1234567'), (14, '10:00:00.123456789'), (15, '23:59:59.9999994'), (16, '00:00:00.000000001'), (17, '09:59:59.9') RETURNING k, t" --csv
k,t
10,10:00:00.500000
11,10:00:00.500000
12,10:00:00.123456
13,10:00:00.123457
14,10:00:00.123457
15,23:59:59.999999
16,00:00:00.000000
17,09:59:59.900000

# Refused: hour 24, minute 60, second 60 (no leap seconds), no seconds,
# one digit for the hour, a zone (Z, z or an offset), white space, a 'T'
# before it, a comma for the point, a point without digits, ten fraction
# digits, the empty text; a number, a blob.
$ pier sql "INSERT INTO t(t) VALUES ('24:00:00')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got '24:00:00': a time is HH:MM:SS with an optional fraction, 00:00:00 to 23:59:59.999999 (rounded to the microsecond)
[exit 1]
$ pier sql "INSERT INTO t(t) VALUES ('23:60:00')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got '23:60:00': a time is HH:MM:SS with an optional fraction, 00:00:00 to 23:59:59.999999 (rounded to the microsecond)
[exit 1]
$ pier sql "INSERT INTO t(t) VALUES ('23:59:60')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got '23:59:60': a time is HH:MM:SS with an optional fraction, 00:00:00 to 23:59:59.999999 (rounded to the microsecond)
[exit 1]
$ pier sql "INSERT INTO t(t) VALUES ('10:00')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got '10:00': a time is HH:MM:SS with an optional fraction, 00:00:00 to 23:59:59.999999 (rounded to the microsecond)
[exit 1]
$ pier sql "INSERT INTO t(t) VALUES ('1:00:00')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got '1:00:00': a time is HH:MM:SS with an optional fraction, 00:00:00 to 23:59:59.999999 (rounded to the microsecond)
[exit 1]
$ pier sql "INSERT INTO t(t) VALUES ('10:00:00Z')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got '10:00:00Z': a time has no time zone: drop the offset
[exit 1]
$ pier sql "INSERT INTO t(t) VALUES ('10:00:00z')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got '10:00:00z': a time has no time zone: drop the offset
[exit 1]
$ pier sql "INSERT INTO t(t) VALUES ('10:00:00+02:00')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got '10:00:00+02:00': a time has no time zone: drop the offset
[exit 1]
$ pier sql "INSERT INTO t(t) VALUES ('10:00:00-05:00')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got '10:00:00-05:00': a time has no time zone: drop the offset
[exit 1]
$ pier sql "INSERT INTO t(t) VALUES ('10:00:00 ')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got '10:00:00 ': a time is HH:MM:SS with an optional fraction
[exit 1]
$ pier sql "INSERT INTO t(t) VALUES ('T10:00:00')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got 'T10:00:00': a time is HH:MM:SS with an optional fraction, 00:00:00 to 23:59:59.999999 (rounded to the microsecond)
[exit 1]
$ pier sql "INSERT INTO t(t) VALUES ('10:00:00,5')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got '10:00:00,5': a time is HH:MM:SS with an optional fraction
[exit 1]
$ pier sql "INSERT INTO t(t) VALUES ('10:00:00.')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got '10:00:00.': a time is HH:MM:SS with an optional fraction, 00:00:00 to 23:59:59.999999 (rounded to the microsecond)
[exit 1]
$ pier sql "INSERT INTO t(t) VALUES ('23:59:59.9999995')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got '23:59:59.9999995': a time is HH:MM:SS with an optional fraction, 00:00:00 to 23:59:59.999999 (rounded to the microsecond)
[exit 1]
$ pier sql "INSERT INTO t(t) VALUES ('10:00:00.1234567891')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got '10:00:00.1234567891': a time is HH:MM:SS with an optional fraction, 00:00:00 to 23:59:59.999999 (rounded to the microsecond)
[exit 1]
$ pier sql "INSERT INTO t(t) VALUES ('')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got '': a time is HH:MM:SS with an optional fraction, 00:00:00 to 23:59:59.999999 (rounded to the microsecond)
[exit 1]
$ pier sql "INSERT INTO t(t) VALUES (36000)"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got '36000': a time is HH:MM:SS with an optional fraction, 00:00:00 to 23:59:59.999999 (rounded to the microsecond)
[exit 1]
$ pier sql "INSERT INTO t(t) VALUES (x'00')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got a blob value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM t" --csv
n
14

# A refusal at the end of a script leaves nothing of it.
$ pier sql "INSERT INTO t VALUES (20, '12:00:00'); UPDATE t SET t = '11:00:00' WHERE k = 1; INSERT INTO t VALUES (21, '12:00:00Z')"
! pier: error: ColumnTypeConflict: column 't' of table 't' is TIME, got '12:00:00Z': a time has no time zone: drop the offset
[exit 1]
$ pier sql "SELECT count(*) AS n, sum(k >= 20) AS new, sum(t = '11:00:00') AS changed FROM t" --csv
n,new,changed
14,0,0

# Reading back: six fraction digits, in the table, JSON and CSV.
$ pier sql "SELECT * FROM t WHERE k < 10 ORDER BY k"
k  t
1  10:00:00.000000
2  23:59:59.999999
3  00:00:00.500000
4  null
5  00:00:00.000000
6  23:59:59.000000
(6 rows)
$ pier sql "SELECT * FROM t WHERE k < 10 ORDER BY k" --json
[
{"k":1,"t":"10:00:00.000000"},
{"k":2,"t":"23:59:59.999999"},
{"k":3,"t":"00:00:00.500000"},
{"k":4,"t":null},
{"k":5,"t":"00:00:00.000000"},
{"k":6,"t":"23:59:59.000000"}
]
$ pier sql "SELECT * FROM t WHERE k < 10 ORDER BY k" --csv
k,t
1,10:00:00.000000
2,23:59:59.999999
3,00:00:00.500000
4,
5,00:00:00.000000
6,23:59:59.000000

# Order and equality by value: ORDER BY, '=' with another number of
# fraction digits, '<' and '>', MIN/MAX (computed: the stored text),
# GROUP BY, DISTINCT, and a key that refuses another spelling.
$ pier sql "SELECT k, t FROM t ORDER BY t, k" --csv
k,t
4,
5,00:00:00.000000
16,00:00:00.000000
3,00:00:00.500000
17,09:59:59.900000
1,10:00:00.000000
12,10:00:00.123456
13,10:00:00.123457
14,10:00:00.123457
10,10:00:00.500000
11,10:00:00.500000
6,23:59:59.000000
2,23:59:59.999999
15,23:59:59.999999
$ pier sql "SELECT k FROM t WHERE t = '10:00:00.000' ORDER BY k" --csv
k
1
$ pier sql "SELECT k FROM t WHERE t = '10:00:00.5000000' OR t = '10:00:00.1234569' ORDER BY k" --csv
k
10
11
13
14
$ pier sql "SELECT t FROM t WHERE t > '00:00:00.4' AND t < '10:00:00.1' ORDER BY t" --csv
t
00:00:00.500000
09:59:59.900000
10:00:00.000000
$ pier sql "SELECT min(t) AS first, max(t) AS last FROM t WHERE k IN (1, 10, 11, 17)" --jsonl
{"first":"09:59:59.9","last":"10:00:00.5"}
$ pier sql "SELECT t, count(*) AS n FROM t GROUP BY t HAVING n > 1 ORDER BY t" --csv
t,n
00:00:00.000000,2
10:00:00.123457,2
10:00:00.500000,2
23:59:59.999999,2
$ pier sql "SELECT count(DISTINCT t) AS n, count(t) AS c FROM t" --csv
n,c
9,13
$ pier sql "CREATE TABLE key (v TIME PRIMARY KEY); INSERT INTO key VALUES ('10:00:00'); INSERT INTO key VALUES ('10:00:00.000')"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: key.v
[exit 1]
$ pier sql "CREATE TABLE key (v TIME UNIQUE); INSERT INTO key VALUES ('10:00:00.000001'); INSERT INTO key VALUES ('10:00:00.0000019')"
1 row changed
$ pier tables
key
t

# Round-trip through the CLI: the rows read with --jsonl are bound back
# with --params into a second table; the two hold the same rows, and
# read the same.
$ pier sql "CREATE TABLE u (k INT64 PRIMARY KEY, t TIME)"
$ pier sql "SELECT * FROM t" --jsonl > rows.jsonl && while IFS= read -r row; do pier sql "INSERT INTO u VALUES (:k, :t)" --params "$row" > /dev/null || exit 1; done < rows.jsonl && pier sql "SELECT count(*) AS n FROM u" --csv
n
14
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM t EXCEPT SELECT * FROM u)) AS lost, (SELECT count(*) FROM (SELECT * FROM u EXCEPT SELECT * FROM t)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM t ORDER BY k" --jsonl) <(pier sql "SELECT * FROM u ORDER BY k" --jsonl) && echo same
same
$ pier sql "INSERT INTO u VALUES (:k, :t)" --param k=30 --param t=07:30:00.25 && pier sql "SELECT t FROM u WHERE k = 30" --jsonl
1 row changed
{"t":"07:30:00.250000"}

# Round-trip of the schema through a dump.
$ pier schema dump
CREATE TABLE "t" (
    "k" INT64 PRIMARY KEY,
    "t" TIME
);
CREATE TABLE "key" (
    "v" TIME UNIQUE
);
CREATE TABLE "u" (
    "k" INT64 PRIMARY KEY,
    "t" TIME
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
