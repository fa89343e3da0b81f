# TEXT: any text, kept as SQLite text (STRICT: integers and reals given
# to it become their text; a blob is refused). Nothing is checked beyond
# the storage class, so there is no boundary but the empty text and
# length (long texts are kept whole). Values read back byte for byte in
# every format (JSON escapes, CSV quotes); order and equality are
# SQLite's byte order: case matters, 'B' sorts before 'a'. A refused
# statement or script writes nothing; values round-trip through --jsonl
# and --params, the schema through a dump.
$ pier sql "CREATE TABLE t (k INT64 PRIMARY KEY, s TEXT)"
$ pier schema t
table t
column  type   readonly
k       INT64  no
s       TEXT   no
$ pier sql "INSERT INTO t VALUES (1, 'anything at all'), (2, ''), (3, NULL), (4, 'it''s \"quoted\", with a comma'), (5, 'two' || char(10) || 'lines'), (6, 'tab' || char(9) || 'and \\ backslash'), (7, 'héllo wörld 😀'), (8, 'B'), (9, 'a'), (10, 'A')"
10 rows changed

# Integers and reals are stored as their text; a blob is refused, alone
# or last in a script (which then leaves nothing).
$ pier sql "INSERT INTO t VALUES (11, 12), (12, 1.5), (13, -0.25e3) RETURNING k, s, typeof(s) AS t" --csv
k,s,t
11,12,text
12,1.5,text
13,-250.0,text
$ pier sql "INSERT INTO t(s) VALUES (x'00')"
! pier: error: ColumnTypeConflict: column 's' of table 't' is TEXT, got a blob value
[exit 1]
$ pier sql "INSERT INTO t(s) VALUES (zeroblob(1))"
! pier: error: ColumnTypeConflict: column 's' of table 't' is TEXT, got a blob value
[exit 1]
$ pier sql "INSERT INTO t VALUES (20, 'kept?'); UPDATE t SET s = 'changed' WHERE k = 1; INSERT INTO t VALUES (21, x'6869')"
! pier: error: ColumnTypeConflict: column 's' of table 't' is TEXT, got a blob value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM t WHERE k >= 20 OR s = 'changed'" --csv
n
0

# A long text is kept whole: 100000 characters, 200000 bytes.
$ pier sql "INSERT INTO t VALUES (30, replace(hex(zeroblob(50000)), '0', 'é')) RETURNING length(s) AS chars, length(CAST(s AS BLOB)) AS bytes" --csv
chars,bytes
100000,200000
$ pier sql "DELETE FROM t WHERE k = 30"
1 row changed

# Reading back: the table shows escapes for control characters, JSON
# escapes them, CSV quotes what needs quoting.
$ pier sql "SELECT * FROM t ORDER BY k"
k   s
1   anything at all
2   
3   null
4   it's "quoted", with a comma
5   two\nlines
6   tab\tand \ backslash
7   héllo wörld 😀
8   B
9   a
10  A
11  12
12  1.5
13  -250.0
(13 rows)
$ pier sql "SELECT * FROM t ORDER BY k" --json
[
{"k":1,"s":"anything at all"},
{"k":2,"s":""},
{"k":3,"s":null},
{"k":4,"s":"it's \"quoted\", with a comma"},
{"k":5,"s":"two\nlines"},
{"k":6,"s":"tab\tand \\ backslash"},
{"k":7,"s":"héllo wörld 😀"},
{"k":8,"s":"B"},
{"k":9,"s":"a"},
{"k":10,"s":"A"},
{"k":11,"s":"12"},
{"k":12,"s":"1.5"},
{"k":13,"s":"-250.0"}
]
$ pier sql "SELECT * FROM t ORDER BY k" --csv
k,s
1,anything at all
2,""
3,
4,"it's ""quoted"", with a comma"
5,"two
lines"
6,tab	and \ backslash
7,héllo wörld 😀
8,B
9,a
10,A
11,12
12,1.5
13,-250.0

# Order and equality are byte order: ORDER BY, '=' (exact: case and
# trailing spaces matter), '<' and '>', MIN/MAX, GROUP BY, DISTINCT, and
# a UNIQUE index that takes 'a' and 'A' but refuses 'a' twice.
$ pier sql "SELECT k, s FROM t WHERE k NOT IN (5, 6) ORDER BY s, k" --csv
k,s
3,
2,""
13,-250.0
12,1.5
11,12
10,A
8,B
9,a
1,anything at all
7,héllo wörld 😀
4,"it's ""quoted"", with a comma"
$ pier sql "SELECT k FROM t WHERE s = 'a' OR s = 'B ' OR s = 12 ORDER BY k" --csv
k
9
11
$ pier sql "SELECT k FROM t WHERE s > 'A' AND s < 'a' ORDER BY k" --csv
k
8
$ pier sql "SELECT min(s) AS lo, max(s) AS hi FROM t" --jsonl
{"lo":"","hi":"two\nlines"}
$ pier sql "UPDATE t SET s = 'a' WHERE k = 10; SELECT s, count(*) AS n FROM t WHERE length(s) = 1 GROUP BY s ORDER BY s" --csv
s,n
B,1
a,2
$ pier sql "SELECT count(DISTINCT s) AS n, count(s) AS c FROM t" --csv
n,c
11,12
$ pier sql "CREATE TABLE key (v TEXT UNIQUE); INSERT INTO key VALUES ('a'), ('A'), ('a ')" && pier sql "SELECT v FROM key ORDER BY v" --jsonl
3 rows changed
{"v":"A"}
{"v":"a"}
{"v":"a "}
$ pier sql "INSERT INTO key VALUES ('b'); INSERT INTO key VALUES ('a')"
! pier: error: ConstraintUnique: UNIQUE constraint failed: key.v
[exit 1]
$ pier sql "CREATE TABLE pk (v TEXT PRIMARY KEY); INSERT INTO pk VALUES (12); INSERT INTO pk VALUES ('12')"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: pk.v
[exit 1]
$ pier sql "SELECT count(*) AS n FROM key" --csv
n
3
$ pier tables
key
t

# Round-trip through the CLI: the rows read with --jsonl are bound back
# with --params into a second table; the two hold the same rows, and
# read the same, quotes, newlines and all.
$ pier sql "CREATE TABLE u (k INT64 PRIMARY KEY, s TEXT)"
$ pier sql "SELECT * FROM t" --jsonl > rows.jsonl && while IFS= read -r row; do pier sql "INSERT INTO u VALUES (:k, :s)" --params "$row" > /dev/null || exit 1; done < rows.jsonl && pier sql "SELECT count(*) AS n FROM u" --csv
n
13
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM t EXCEPT SELECT * FROM u)) AS lost, (SELECT count(*) FROM (SELECT * FROM u EXCEPT SELECT * FROM t)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM t ORDER BY k" --jsonl) <(pier sql "SELECT * FROM u ORDER BY k" --jsonl) && echo same
same
$ pier sql "INSERT INTO u VALUES (:k, :s)" --param k=40 --param s='say "hi"' && pier sql "SELECT s FROM u WHERE k = 40" --jsonl
1 row changed
{"s":"say \"hi\""}

# Round-trip of the schema through a dump.
$ pier schema dump
CREATE TABLE "t" (
    "k" INT64 PRIMARY KEY,
    "s" TEXT
);
CREATE TABLE "key" (
    "v" TEXT UNIQUE
);
CREATE TABLE "u" (
    "k" INT64 PRIMARY KEY,
    "s" TEXT
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
