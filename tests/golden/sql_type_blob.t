# BLOB (also spelled BYTEA): bytes, kept as a SQLite blob, any length
# from none up; nothing else is a blob, so text (even of hex digits) and
# reals are refused, and a refused statement or script writes nothing.
# A blob reads back as its bytes in uppercase hex in every format;
# blobs order and compare bytewise (memcmp, a prefix first). A parameter
# is never a blob, so the CLI round-trip writes the hex each row reads as
# back as a blob literal; the schema round-trips through a dump.
$ pier sql "CREATE TABLE b (k INT64 PRIMARY KEY, x BLOB, y BYTEA)"
$ pier schema b
table b
column  type   readonly
k       INT64  no
x       BLOB   no
y       BLOB   no
$ pier sql "INSERT INTO b VALUES (1, x'00ff', x''), (2, x'DEADbeef', NULL), (3, NULL, x'00'), (4, zeroblob(3), CAST('ab' AS BLOB)), (5, x'01', x'0000'), (6, x'ff', x'000000')"
6 rows changed

# Any length: 100000 bytes are kept whole.
$ pier sql "INSERT INTO b VALUES (7, zeroblob(100000), randomblob(16)) RETURNING length(x) AS xlen, length(y) AS ylen, typeof(y) AS t" --csv
xlen,ylen,t
100000,16,blob
$ pier sql "DELETE FROM b WHERE k = 7"
1 row changed

# Refused: text (hex digits, the empty text, a word), a real; alone or
# last in a script.
$ pier sql "INSERT INTO b(x) VALUES ('00ff')"
! pier: error: ColumnTypeConflict: column 'x' of table 'b' is BLOB, got a text value
[exit 1]
$ pier sql "INSERT INTO b(x) VALUES ('')"
! pier: error: ColumnTypeConflict: column 'x' of table 'b' is BLOB, got a text value
[exit 1]
$ pier sql "INSERT INTO b(y) VALUES ('text')"
! pier: error: ColumnTypeConflict: column 'y' of table 'b' is BLOB, got a text value
[exit 1]
$ pier sql "INSERT INTO b(y) VALUES (1.5)"
! pier: error: ColumnTypeConflict: column 'y' of table 'b' is BLOB, got a real value
[exit 1]
$ pier sql "INSERT INTO b VALUES (10, x'aa', x'bb'); UPDATE b SET x = x'cc' WHERE k = 1; INSERT INTO b VALUES (11, x'aa', 'bb')"
! pier: error: ColumnTypeConflict: column 'y' of table 'b' is BLOB, got a text value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM b WHERE k >= 10 OR x = x'cc'" --csv
n
0
$ pier sql "SELECT count(*) AS n FROM b" --csv
n
6

# Reading back: uppercase hex, two digits a byte, in the table, JSON and
# CSV; the empty blob reads as empty text, NULL as null.
$ pier sql "SELECT * FROM b ORDER BY k"
k  x         y
1  00FF      
2  DEADBEEF  null
3  null      00
4  000000    6162
5  01        0000
6  FF        000000
(6 rows)
$ pier sql "SELECT * FROM b ORDER BY k" --json
[
{"k":1,"x":"00FF","y":""},
{"k":2,"x":"DEADBEEF","y":null},
{"k":3,"x":null,"y":"00"},
{"k":4,"x":"000000","y":"6162"},
{"k":5,"x":"01","y":"0000"},
{"k":6,"x":"FF","y":"000000"}
]
$ pier sql "SELECT * FROM b ORDER BY k" --csv
k,x,y
1,00FF,""
2,DEADBEEF,
3,,00
4,000000,6162
5,01,0000
6,FF,000000

# Order and equality are bytewise: ORDER BY (a prefix first), '=' with
# the same bytes spelled in either case, '<' and '>', MIN/MAX, GROUP BY,
# DISTINCT, and a key that refuses the same bytes.
$ pier sql "SELECT k, y FROM b ORDER BY y, k" --csv
k,y
2,
1,""
3,00
5,0000
6,000000
4,6162
$ pier sql "SELECT k FROM b WHERE x = x'DEADBEEF' OR x = X'00FF' OR y = CAST('ab' AS BLOB) ORDER BY k" --csv
k
1
2
4
$ pier sql "SELECT k FROM b WHERE x > x'00' AND x < x'ff' ORDER BY x" --csv
k
4
1
5
2
$ pier sql "SELECT min(x) AS lo, max(x) AS hi, min(y) AS ylo FROM b" --jsonl
{"lo":"000000","hi":"FF","ylo":""}
$ pier sql "UPDATE b SET y = x'00' WHERE k = 6; SELECT y, count(*) AS n FROM b GROUP BY y ORDER BY y" --csv
y,n
,1
"",1
00,2
0000,1
6162,1
$ pier sql "SELECT count(DISTINCT y) AS n FROM b" --csv
n
4
$ pier sql "CREATE TABLE key (v BLOB PRIMARY KEY); INSERT INTO key VALUES (x'ab'), (x'ab00'); INSERT INTO key VALUES (X'AB')"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: key.v
[exit 1]
$ pier sql "CREATE TABLE key (v BYTEA UNIQUE); INSERT INTO key VALUES (x''); INSERT INTO key VALUES (zeroblob(0))"
! pier: error: ConstraintUnique: UNIQUE constraint failed: key.v
[exit 1]
$ pier tables
b

# Round-trip through the CLI: the hex each row reads as (--jsonl) is
# written back as a blob literal into a second table; the two hold the
# same bytes, and read the same. A parameter cannot carry bytes: hex
# bound as a parameter is text, and refused.
$ pier sql "CREATE TABLE c (k INT64 PRIMARY KEY, x BLOB, y BYTEA)"
$ pier sql "SELECT * FROM b" --jsonl | sed -e 's/"\([0-9A-F]*\)"/x'\''\1'\''/g' -e 's/^{"k":\(.*\),"x":\(.*\),"y":\(.*\)}$/INSERT INTO c VALUES (\1, \2, \3);/' | pier sql - && pier sql "SELECT count(*) AS n FROM c" --csv
1 row changed
n
6
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM c)) AS lost, (SELECT count(*) FROM (SELECT * FROM c EXCEPT SELECT * FROM b)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM b ORDER BY k" --jsonl) <(pier sql "SELECT * FROM c ORDER BY k" --jsonl) && echo same
same
$ pier sql "INSERT INTO c(k, x) VALUES (:k, :x)" --param k=20 --param x=00FF
! pier: error: ColumnTypeConflict: column 'x' of table 'c' is BLOB, got a text value
[exit 1]

# Round-trip of the schema through a dump (BYTEA is spelled BLOB).
$ pier schema dump
CREATE TABLE "b" (
    "k" INT64 PRIMARY KEY,
    "x" BLOB,
    "y" BLOB
);
CREATE TABLE "c" (
    "k" INT64 PRIMARY KEY,
    "x" BLOB,
    "y" BLOB
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
