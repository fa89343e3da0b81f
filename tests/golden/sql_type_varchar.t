# VARCHAR(n): text of at most n characters, n from 1 to 1000000000. A
# character is a Unicode code point, not a byte (é is one, 😀 is one, an
# e with a combining accent is two), so the check reads the UTF-8 and
# refuses text that is not UTF-8. Integers and reals become their text
# and are counted so; blobs are refused; a refused statement or script
# writes nothing. Values read back as written, order and compare as text
# (byte order), round-trip through --jsonl and --params, and the schema
# (the length in its canonical spelling) through a dump.
$ pier sql "CREATE TABLE v (k INT64 PRIMARY KEY, v VARCHAR(3), one varchar ( 1 ))"
$ pier schema v
table v
column  type        readonly
k       INT64       no
v       VARCHAR(3)  no
one     VARCHAR(1)  no
$ pier sql "INSERT INTO v VALUES (1, 'abc', 'x'), (2, 'héé', ''), (3, '', NULL), (4, '😀😀😀', 'é'), (5, 'e' || char(769), '😀'), (6, NULL, ' ')"
6 rows changed

# One past the length, counted in code points: four ASCII letters, four
# two-byte letters, four emoji, two letters with combining accents (four
# code points); for VARCHAR(1), two characters.
$ pier sql "INSERT INTO v(v) VALUES ('abcd')"
! pier: error: ColumnTypeConflict: column 'v' of table 'v' is VARCHAR(3), got 'abcd': longer than the column's length
[exit 1]
$ pier sql "INSERT INTO v(v) VALUES ('hééé')"
! pier: error: ColumnTypeConflict: column 'v' of table 'v' is VARCHAR(3), got 'hééé': longer than the column's length
[exit 1]
$ pier sql "INSERT INTO v(v) VALUES ('😀😀😀😀')"
! pier: error: ColumnTypeConflict: column 'v' of table 'v' is VARCHAR(3), got '😀😀😀😀': longer than the column's length
[exit 1]
$ pier sql "INSERT INTO v(v) VALUES ('e' || char(769) || 'e' || char(769))"
! pier: error: ColumnTypeConflict: column 'v' of table 'v' is VARCHAR(3), got 'éé': longer than the column's length
[exit 1]
$ pier sql "INSERT INTO v(one) VALUES ('xy')"
! pier: error: ColumnTypeConflict: column 'one' of table 'v' is VARCHAR(1), got 'xy': longer than the column's length
[exit 1]
$ pier sql "INSERT INTO v(one) VALUES ('é ')"
! pier: error: ColumnTypeConflict: column 'one' of table 'v' is VARCHAR(1), got 'é ': longer than the column's length
[exit 1]
$ pier sql "SELECT count(*) AS n FROM v"
n
6
(1 row)

# Numbers become text and are counted as such; blobs and text that is
# not UTF-8 are refused.
$ pier sql "INSERT INTO v VALUES (7, 12, 5), (8, 1.5, 0) RETURNING k, v, one, typeof(v) AS t" --csv
k,v,one,t
7,12,5,text
8,1.5,0,text
$ pier sql "INSERT INTO v(v) VALUES (1234)"
! pier: error: ColumnTypeConflict: column 'v' of table 'v' is VARCHAR(3), got '1234': longer than the column's length
[exit 1]
$ pier sql "INSERT INTO v(v) VALUES (12.25)"
! pier: error: ColumnTypeConflict: column 'v' of table 'v' is VARCHAR(3), got '12.25': longer than the column's length
[exit 1]
$ pier sql "INSERT INTO v(v) VALUES (x'616263')"
! pier: error: ColumnTypeConflict: column 'v' of table 'v' is VARCHAR(3), got a blob value
[exit 1]
$ pier sql "INSERT INTO v(v) VALUES (CAST(x'ff41' AS TEXT))"
! pier: error: ColumnTypeConflict: column 'v' of table 'v' is VARCHAR(3), got '\xffA': not valid UTF-8
[exit 1]
$ pier sql "SELECT count(*) AS n FROM v"
n
8
(1 row)

# A refusal at the end of a script leaves nothing of it; an UPDATE that
# makes one value too long changes no row.
$ pier sql "INSERT INTO v VALUES (20, 'ok', 'y'); UPDATE v SET v = 'new' WHERE k = 3; INSERT INTO v VALUES (21, 'long', 'z')"
! pier: error: ColumnTypeConflict: column 'v' of table 'v' is VARCHAR(3), got 'long': longer than the column's length
[exit 1]
$ pier sql "UPDATE v SET v = v || '!' WHERE v IS NOT NULL"
! pier: error: ColumnTypeConflict: column 'v' of table 'v' is VARCHAR(3), got 'abc!': longer than the column's length
[exit 1]
$ pier sql "SELECT k, v FROM v WHERE k >= 20 OR v LIKE '%!' OR v = 'new'" --csv
k,v

# The length of the type: 1 to 1000000000, and VARCHAR needs one.
$ pier sql "CREATE TABLE big (v VARCHAR(1000000000)); DROP TABLE big"
$ pier sql "CREATE TABLE bad (v VARCHAR(1000000001))"
! pier: error: UnknownType: column 'v': VARCHAR(n) takes a length n from 1 to 1000000000 characters
[exit 1]
$ pier sql "CREATE TABLE bad (v VARCHAR(0))"
! pier: error: UnknownType: column 'v': VARCHAR(n) takes a length n from 1 to 1000000000 characters
[exit 1]
$ pier sql "CREATE TABLE bad (v VARCHAR)"
! pier: error: UnknownType: column 'v': VARCHAR takes its maximum length, VARCHAR(n) (or use TEXT)
[exit 1]
$ pier sql "CREATE TABLE bad (v CHARACTER VARYING(3))"
! pier: error: UnknownType: column 'v': type CHARACTER VARYING is not supported: use VARCHAR(n) or TEXT
[exit 1]

# Reading back in the table, JSON and CSV.
$ pier sql "SELECT k, v, one, length(v) AS chars, length(CAST(v AS BLOB)) AS bytes FROM v ORDER BY k"
k  v     one   chars  bytes
1  abc   x     3      3
2  héé         3      5
3        null  0      0
4  😀😀😀   é     3      12
5  é    😀     2      3
6  null        null   null
7  12    5     2      2
8  1.5   0     3      3
(8 rows)
$ pier sql "SELECT k, v, one FROM v ORDER BY k" --json
[
{"k":1,"v":"abc","one":"x"},
{"k":2,"v":"héé","one":""},
{"k":3,"v":"","one":null},
{"k":4,"v":"😀😀😀","one":"é"},
{"k":5,"v":"é","one":"😀"},
{"k":6,"v":null,"one":" "},
{"k":7,"v":"12","one":"5"},
{"k":8,"v":"1.5","one":"0"}
]
$ pier sql "SELECT k, v, one FROM v ORDER BY k" --csv
k,v,one
1,abc,x
2,héé,""
3,"",
4,😀😀😀,é
5,é,😀
6,," "
7,12,5
8,1.5,0

# Order and equality are text's: ORDER BY (bytes), '=' exact (a number
# finds its text), '<' and '>', MIN/MAX, GROUP BY, DISTINCT, and a
# UNIQUE index (which, like '=', does not normalize Unicode: é and e with
# a combining accent are two values).
$ pier sql "SELECT k, v FROM v ORDER BY v, k" --csv
k,v
6,
3,""
8,1.5
7,12
1,abc
5,é
2,héé
4,😀😀😀
$ pier sql "SELECT k FROM v WHERE v = 'héé' OR v = 12 OR one = 'É' ORDER BY k" --csv
k
2
7
$ pier sql "SELECT k FROM v WHERE v > 'a' AND v < 'i' ORDER BY k" --csv
k
1
2
5
$ pier sql "SELECT min(v) AS lo, max(v) AS hi FROM v" --jsonl
{"lo":"","hi":"😀😀😀"}
$ pier sql "UPDATE v SET one = 'x' WHERE k = 8; SELECT one, count(*) AS n FROM v GROUP BY one ORDER BY one" --csv
one,n
,1
"",1
" ",1
5,1
x,2
é,1
😀,1
$ pier sql "SELECT count(DISTINCT one) AS n FROM v" --csv
n
6
$ pier sql "CREATE TABLE key (v VARCHAR(2) UNIQUE); INSERT INTO key VALUES ('é'), ('e'), ('e' || char(769)); SELECT count(*) AS n FROM key" --csv
n
3
$ pier sql "INSERT INTO key VALUES ('x'); INSERT INTO key VALUES ('é')"
! pier: error: ConstraintUnique: UNIQUE constraint failed: key.v
[exit 1]
$ pier sql "SELECT count(*) AS n FROM key" --csv
n
3
$ pier tables
key
v

# Round-trip through the CLI: the rows read with --jsonl are bound back
# with --params into a second table; the two hold the same rows, and
# read the same.
$ pier sql "CREATE TABLE w (k INT64 PRIMARY KEY, v VARCHAR(3), one VARCHAR(1))"
$ pier sql "SELECT * FROM v" --jsonl > rows.jsonl && while IFS= read -r row; do pier sql "INSERT INTO w VALUES (:k, :v, :one)" --params "$row" > /dev/null || exit 1; done < rows.jsonl && pier sql "SELECT count(*) AS n FROM w" --csv
n
8
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM v EXCEPT SELECT * FROM w)) AS lost, (SELECT count(*) FROM (SELECT * FROM w EXCEPT SELECT * FROM v)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM v ORDER BY k" --jsonl) <(pier sql "SELECT * FROM w ORDER BY k" --jsonl) && echo same
same
$ pier sql "INSERT INTO w(k, v) VALUES (:k, :v)" --param k=30 --param v='"\u00e9\u00e9\u00e9"' && pier sql "SELECT v FROM w WHERE k = 30" --jsonl
1 row changed
{"v":"ééé"}
$ pier sql "INSERT INTO w(k, v) VALUES (:k, :v)" --param k=31 --param v=abcd
! pier: error: ColumnTypeConflict: column 'v' of table 'w' is VARCHAR(3), got 'abcd': longer than the column's length
[exit 1]

# Round-trip of the schema through a dump: VARCHAR(n) in one spelling.
$ pier schema dump
CREATE TABLE "v" (
    "k" INT64 PRIMARY KEY,
    "v" VARCHAR(3),
    "one" VARCHAR(1)
);
CREATE TABLE "key" (
    "v" VARCHAR(2) UNIQUE
);
CREATE TABLE "w" (
    "k" INT64 PRIMARY KEY,
    "v" VARCHAR(3),
    "one" VARCHAR(1)
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
