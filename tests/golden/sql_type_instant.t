# INSTANT: a point in time, written in RFC 3339 with Z or an offset
# (-00:00 to +23:59), a 'T', 't' or space between date and time, and a
# fraction of 1 to 9 digits (rounded to the microsecond, a tie to the
# even one), within 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z
# once the offset is applied. It is kept as the text written, checked,
# and compared by the instant it names (collation pier_instant), so
# 10:00+02:00 and 08:00Z are one value. Without a zone, out of range, or
# not a real date and time, it is refused, and a refused statement or
# script writes nothing. An instant reads back in UTC with six fraction
# digits and Z in every format, round-trips through --jsonl and
# --params, and the schema through a dump.
$ pier sql "CREATE TABLE i (k INT64 PRIMARY KEY, i INSTANT)"
$ pier schema i
table i
column  type     readonly
k       INT64    no
i       INSTANT  no
$ pier sql "INSERT INTO i VALUES (1, '2026-03-01T10:00:00+02:00'), (2, '2026-03-01T08:00:00.5Z'), (3, '2026-02-28T23:00:00-10:00'), (4, NULL), (5, '0001-01-01T00:00:00Z'), (6, '9999-12-31T23:59:59.999999Z')"
6 rows changed

# Every spelling: Z or z, 't' or a space, offsets at their ends (-00:00
# and +23:59), fractions of 1 to 9 digits, the range's ends reached
# through an offset, a leap day.
$ pier sql "INSERT INTO i VALUES (10, '2026-03-01t08:00:00z'), (11, '2026-03-01 08:00:00Z'), (12, '2026-03-01T08:00:00-00:00'), (13, '2026-03-01T10:00:00+23:59'), (14, '2026-03-01T08:00:00.1Z'), (15, '2026-03-01T08:00:00.12Z'), (16, '2026-03-01T08:00:00.123456Z'), (17, '2026-03-01T08:00:00.1234567Z'), (18, '2026-03-01T08:00:00.123456789Z'), (19, '0001-01-01T00:00:00-01:00'), (20, '9999-12-31T22:59:59.999999-01:00'), (21, '2024-02-29T12:00:00+12:00') RETURNING k, i" --csv
k,i
10,2026-03-01T08:00:00.000000Z
11,2026-03-01T08:00:00.000000Z
12,2026-03-01T08:00:00.000000Z
13,2026-02-28T10:01:00.000000Z
14,2026-03-01T08:00:00.100000Z
15,2026-03-01T08:00:00.120000Z
16,2026-03-01T08:00:00.123456Z
17,2026-03-01T08:00:00.123457Z
18,2026-03-01T08:00:00.123457Z
19,0001-01-01T01:00:00.000000Z
20,9999-12-31T23:59:59.999999Z
21,2024-02-29T00:00:00.000000Z

# Refused: no zone (a date-time, or a date alone), an offset past 23:59
# or not as +HH:MM, ten fraction digits or a point without digits, a
# moment before 0001 or after 9999 once the offset is applied, year
# 0000, a day the month does not have, hour 24, a leap second, no
# seconds, month 13, white space, text after the zone, the empty text; a
# number (even seconds since the epoch), a blob.
$ pier sql "INSERT INTO i(i) VALUES ('2026-03-01T10:00:00')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '2026-03-01T10:00:00': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES ('2026-03-01')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '2026-03-01': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES ('2026-03-01T10:00:00+24:00')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '2026-03-01T10:00:00+24:00': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES ('2026-03-01T10:00:00+0200')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '2026-03-01T10:00:00+0200': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES ('2026-03-01T10:00:00+02')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '2026-03-01T10:00:00+02': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES ('2026-03-01T10:00:00.1234567891Z')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '2026-03-01T10:00:00.1234567891Z': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES ('2026-03-01T10:00:00.Z')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '2026-03-01T10:00:00.Z': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES ('0001-01-01T00:30:00+01:00')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '0001-01-01T00:30:00+01:00': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES ('9999-12-31T23:00:00-01:00')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '9999-12-31T23:00:00-01:00': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES ('0000-12-31T23:00:00-01:00')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '0000-12-31T23:00:00-01:00': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES ('2023-02-29T00:00:00Z')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '2023-02-29T00:00:00Z': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES ('2026-03-01T24:00:00Z')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '2026-03-01T24:00:00Z': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES ('2026-12-31T23:59:60Z')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '2026-12-31T23:59:60Z': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES ('2026-03-01T10:00Z')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '2026-03-01T10:00Z': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES ('2026-13-01T10:00:00Z')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '2026-13-01T10:00:00Z': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES (' 2026-03-01T10:00:00Z')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got ' 2026-03-01T10:00:00Z': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES ('2026-03-01T10:00:00ZZ')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '2026-03-01T10:00:00ZZ': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES ('')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES (1772352000)"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '1772352000': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO i(i) VALUES (x'00')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got a blob value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM i" --csv
n
18

# A refusal at the end of a script leaves nothing of it.
$ pier sql "INSERT INTO i VALUES (30, '2026-01-01T00:00:00Z'); UPDATE i SET i = NULL WHERE k = 1; INSERT INTO i VALUES (31, '2026-01-01T00:00:00')"
! pier: error: ColumnTypeConflict: column 'i' of table 'i' is INSTANT, got '2026-01-01T00:00:00': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "SELECT count(*) AS n FROM i WHERE k >= 30 OR (k = 1 AND i IS NULL)" --csv
n
0

# Reading back: UTC, six fraction digits, Z; in the table, JSON and CSV.
$ pier sql "SELECT * FROM i WHERE k < 10 ORDER BY k"
k  i
1  2026-03-01T08:00:00.000000Z
2  2026-03-01T08:00:00.500000Z
3  2026-03-01T09:00:00.000000Z
4  null
5  0001-01-01T00:00:00.000000Z
6  9999-12-31T23:59:59.999999Z
(6 rows)
$ pier sql "SELECT * FROM i WHERE k < 10 ORDER BY k" --json
[
{"k":1,"i":"2026-03-01T08:00:00.000000Z"},
{"k":2,"i":"2026-03-01T08:00:00.500000Z"},
{"k":3,"i":"2026-03-01T09:00:00.000000Z"},
{"k":4,"i":null},
{"k":5,"i":"0001-01-01T00:00:00.000000Z"},
{"k":6,"i":"9999-12-31T23:59:59.999999Z"}
]
$ pier sql "SELECT * FROM i WHERE k < 10 ORDER BY k" --csv
k,i
1,2026-03-01T08:00:00.000000Z
2,2026-03-01T08:00:00.500000Z
3,2026-03-01T09:00:00.000000Z
4,
5,0001-01-01T00:00:00.000000Z
6,9999-12-31T23:59:59.999999Z

# Order and equality by instant: ORDER BY (whatever the offsets), '='
# with another offset or another number of fraction digits, '<' and '>',
# MIN/MAX (computed: the stored text), GROUP BY, DISTINCT, and a key that
# refuses another spelling of an instant it holds.
$ pier sql "SELECT k, i FROM i ORDER BY i, k" --csv
k,i
4,
5,0001-01-01T00:00:00.000000Z
19,0001-01-01T01:00:00.000000Z
21,2024-02-29T00:00:00.000000Z
13,2026-02-28T10:01:00.000000Z
1,2026-03-01T08:00:00.000000Z
10,2026-03-01T08:00:00.000000Z
11,2026-03-01T08:00:00.000000Z
12,2026-03-01T08:00:00.000000Z
14,2026-03-01T08:00:00.100000Z
15,2026-03-01T08:00:00.120000Z
16,2026-03-01T08:00:00.123456Z
17,2026-03-01T08:00:00.123457Z
18,2026-03-01T08:00:00.123457Z
2,2026-03-01T08:00:00.500000Z
3,2026-03-01T09:00:00.000000Z
6,9999-12-31T23:59:59.999999Z
20,9999-12-31T23:59:59.999999Z
$ pier sql "SELECT k FROM i WHERE i = '2026-03-01T09:00:00+01:00' ORDER BY k" --csv
k
1
10
11
12
$ pier sql "SELECT k FROM i WHERE i = '2026-03-01T08:00:00.500Z' OR i = '2026-03-01T08:00:00.1234569Z' ORDER BY k" --csv
k
2
17
18
$ pier sql "SELECT k FROM i WHERE i > '2026-03-01T07:00:00-01:00' AND i < '2026-03-02T00:00:00+05:00' ORDER BY i" --csv
k
14
15
16
17
18
2
3
$ pier sql "SELECT min(i) AS first, max(i) AS last FROM i WHERE k < 5" --jsonl
{"first":"2026-03-01T10:00:00+02:00","last":"2026-02-28T23:00:00-10:00"}
$ pier sql "SELECT i FROM i WHERE k < 5 AND i IS NOT NULL ORDER BY i LIMIT 1" --jsonl
{"i":"2026-03-01T08:00:00.000000Z"}
$ pier sql "SELECT i, count(*) AS n FROM i GROUP BY i HAVING n > 1 ORDER BY i" --csv
i,n
2026-03-01T08:00:00.000000Z,4
2026-03-01T08:00:00.123457Z,2
9999-12-31T23:59:59.999999Z,2
$ pier sql "SELECT count(DISTINCT i) AS n, count(i) AS c FROM i" --csv
n,c
12,17
$ pier sql "CREATE TABLE key (v INSTANT PRIMARY KEY); INSERT INTO key VALUES ('2026-03-01T08:00:00Z'); INSERT INTO key VALUES ('2026-03-01T10:00:00+02:00')"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: key.v
[exit 1]
$ pier sql "CREATE TABLE key (v INSTANT UNIQUE); INSERT INTO key VALUES ('2026-03-01T08:00:00.000001Z'); INSERT INTO key VALUES ('2026-03-01 08:00:00.0000014z')"
! pier: error: ConstraintUnique: UNIQUE constraint failed: key.v
[exit 1]
$ pier tables
i

# Round-trip through the CLI: the rows read with --jsonl are bound back
# with --params into a second table; the two hold the same instants, and
# read the same.
$ pier sql "CREATE TABLE j (k INT64 PRIMARY KEY, i INSTANT)"
$ pier sql "SELECT * FROM i" --jsonl > rows.jsonl && while IFS= read -r row; do pier sql "INSERT INTO j VALUES (:k, :i)" --params "$row" > /dev/null || exit 1; done < rows.jsonl && pier sql "SELECT count(*) AS n FROM j" --csv
n
18
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM i EXCEPT SELECT * FROM j)) AS lost, (SELECT count(*) FROM (SELECT * FROM j EXCEPT SELECT * FROM i)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM i ORDER BY k" --jsonl) <(pier sql "SELECT * FROM j ORDER BY k" --jsonl) && echo same
same
$ pier sql "INSERT INTO j VALUES (:k, :i)" --param k=40 --param i=2026-03-01T10:00:00+02:00 && pier sql "SELECT i FROM j WHERE k = 40" --jsonl
1 row changed
{"i":"2026-03-01T08:00:00.000000Z"}

# Round-trip of the schema through a dump.
$ pier schema dump
CREATE TABLE "i" (
    "k" INT64 PRIMARY KEY,
    "i" INSTANT
);
CREATE TABLE "j" (
    "k" INT64 PRIMARY KEY,
    "i" INSTANT
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
