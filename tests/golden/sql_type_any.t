# ANY: any value, kept with the storage class it was given (no affinity:
# '1' stays text, 1.0 stays a real), so nothing is refused and there is
# no boundary but SQLite's own. A value reads back by its storage class:
# integers as digits, reals as a double's shortest text, text as itself,
# blobs as uppercase hex (which JSON and CSV show as a string, like
# text). Order and equality are SQLite's across classes: NULL, then
# numbers by value (1 = 1.0), then text, then blobs; 1 is not '1'. The
# values that are not blobs round-trip through --jsonl and --params, and
# the schema through a dump.
$ pier sql "CREATE TABLE a (k INT64 PRIMARY KEY, a ANY)"
$ pier schema a
table a
column  type   readonly
k       INT64  no
a       ANY    no
$ pier sql "INSERT INTO a VALUES (1, 1), (2, 1.5), (3, 'text'), (4, x'00ff'), (5, NULL), (6, '1'), (7, 9223372036854775807), (8, 1.0), (9, ''), (10, '{\"a\":1}'), (11, -0.25), (12, 'B'), (13, x''), (14, 1e300) RETURNING k, typeof(a) AS t" --csv
k,t
1,integer
2,real
3,text
4,blob
5,null
6,text
7,integer
8,real
9,text
10,text
11,real
12,text
13,blob
14,real

# Nothing is refused for its type; a script that fails on a constraint
# at its end leaves nothing.
$ pier sql "INSERT INTO a VALUES (20, 'x'); UPDATE a SET a = 2 WHERE k = 1; INSERT INTO a VALUES (1, 'again')"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: a.k
[exit 1]
$ pier sql "SELECT count(*) AS n, sum(a = 2) AS twos FROM a" --csv
n,twos
14,0
$ pier sql "CREATE TABLE bad (a ANY[])"
! pier: error: UnknownType: column 'a': ANY has no arrays: a JSON column holds any array
[exit 1]

# Reading back by storage class in the table, JSON and CSV.
$ pier sql "SELECT k, a, typeof(a) AS t FROM a ORDER BY k"
k   a                    t
1   1                    integer
2   1.5                  real
3   text                 text
4   00FF                 blob
5   null                 null
6   1                    text
7   9223372036854775807  integer
8   1.0                  real
9                        text
10  {"a":1}              text
11  -0.25                real
12  B                    text
13                       blob
14  1e+300               real
(14 rows)
$ pier sql "SELECT * FROM a ORDER BY k" --json
[
{"k":1,"a":1},
{"k":2,"a":1.5},
{"k":3,"a":"text"},
{"k":4,"a":"00FF"},
{"k":5,"a":null},
{"k":6,"a":"1"},
{"k":7,"a":9223372036854775807},
{"k":8,"a":1.0},
{"k":9,"a":""},
{"k":10,"a":"{\"a\":1}"},
{"k":11,"a":-0.25},
{"k":12,"a":"B"},
{"k":13,"a":""},
{"k":14,"a":1e+300}
]
$ pier sql "SELECT * FROM a ORDER BY k" --csv
k,a
1,1
2,1.5
3,text
4,00FF
5,
6,1
7,9223372036854775807
8,1.0
9,""
10,"{""a"":1}"
11,-0.25
12,B
13,""
14,1e+300

# Order and equality across classes: ORDER BY, '=' (1 = 1.0, 1 <> '1'),
# '<' and '>', MIN/MAX, GROUP BY and DISTINCT (1 and 1.0 are one value),
# and a key that refuses 1.0 when it holds 1 but takes '1'.
$ pier sql "SELECT k, typeof(a) AS t FROM a ORDER BY a, k" --csv
k,t
5,null
11,real
1,integer
8,real
2,real
7,integer
14,real
9,text
6,text
12,text
3,text
10,text
13,blob
4,blob
$ pier sql "SELECT k FROM a WHERE a = 1 ORDER BY k" --csv
k
1
8
$ pier sql "SELECT k FROM a WHERE a = '1' ORDER BY k" --csv
k
6
$ pier sql "SELECT k FROM a WHERE a > 1 AND a < 'B' ORDER BY k" --csv
k
2
6
7
9
14
$ pier sql "SELECT min(a) AS lo, max(a) AS hi FROM a" --jsonl
{"lo":-0.25,"hi":"00FF"}
$ pier sql "SELECT typeof(a) AS t, count(*) AS n FROM a GROUP BY a HAVING n > 1" --csv
t,n
integer,2
$ pier sql "SELECT count(DISTINCT a) AS n, count(a) AS c FROM a" --csv
n,c
12,13
$ pier sql "CREATE TABLE key (v ANY PRIMARY KEY); INSERT INTO key VALUES (1), ('1'), (x'31'); INSERT INTO key VALUES (1.0)"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: key.v
[exit 1]
$ pier tables
a

# Round-trip through the CLI: the rows that do not hold a blob, read
# with --jsonl, are bound back with --params into a second table; the
# two hold the same values with the same storage classes, and read the
# same.
$ pier sql "CREATE TABLE b (k INT64 PRIMARY KEY, a ANY)"
$ pier sql "SELECT * FROM a WHERE typeof(a) <> 'blob'" --jsonl > rows.jsonl && while IFS= read -r row; do pier sql "INSERT INTO b VALUES (:k, :a)" --params "$row" > /dev/null || exit 1; done < rows.jsonl && pier sql "SELECT count(*) AS n FROM b" --csv
n
12
$ pier sql "SELECT (SELECT count(*) FROM (SELECT k, a, typeof(a) FROM a WHERE typeof(a) <> 'blob' EXCEPT SELECT k, a, typeof(a) FROM b)) AS lost, (SELECT count(*) FROM (SELECT k, a, typeof(a) FROM b EXCEPT SELECT k, a, typeof(a) FROM a)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM a WHERE typeof(a) <> 'blob' ORDER BY k" --jsonl) <(pier sql "SELECT * FROM b ORDER BY k" --jsonl) && echo same
same
$ pier sql "INSERT INTO b VALUES (:k, :a)" --param k=30 --param a=2.0 && pier sql "SELECT a, typeof(a) AS t FROM b WHERE k = 30" --jsonl
1 row changed
{"a":2.0,"t":"real"}

# Round-trip of the schema through a dump.
$ pier schema dump
CREATE TABLE "a" (
    "k" INT64 PRIMARY KEY,
    "a" ANY
);
CREATE TABLE "b" (
    "k" INT64 PRIMARY KEY,
    "a" ANY
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
