# BOOLEAN (also spelled BOOL): 0 or 1, kept as a SQLite integer with a
# check. TRUE and FALSE are SQLite's 1 and 0; what integer affinity makes
# 0 or 1 (text '1', the real 1.0) is taken; any other number, text and
# blobs are refused, and a refused statement or script writes nothing.
# Values read back as true and false (JSON literals), order false before
# true, compare as 0 and 1, round-trip through --jsonl and --params, and
# the schema through a dump.
$ pier sql "CREATE TABLE b (k INT64 PRIMARY KEY, b BOOLEAN, c BOOL)"
$ pier schema b
table b
column  type     readonly
k       INT64    no
b       BOOLEAN  no
c       BOOLEAN  no
$ pier sql "INSERT INTO b VALUES (1, TRUE, true), (2, 0, FALSE), (3, NULL, NULL), (4, 1, false)"
4 rows changed

# Spellings integer affinity makes 0 or 1.
$ pier sql "INSERT INTO b VALUES (5, '1', '0'), (6, 1.0, ' 0 '), (7, '1e0', 0.0) RETURNING k, b, c, typeof(b) AS t" --csv
k,b,c,t
5,true,false,integer
6,true,false,integer
7,true,false,integer

# Refused: any other integer, a fraction, words, a blob.
$ pier sql "INSERT INTO b(b) VALUES (2)"
! pier: error: ColumnTypeConflict: column 'b' of table 'b' is BOOLEAN, got 2: a BOOLEAN is 0 or 1
[exit 1]
$ pier sql "INSERT INTO b(b) VALUES (-1)"
! pier: error: ColumnTypeConflict: column 'b' of table 'b' is BOOLEAN, got -1: a BOOLEAN is 0 or 1
[exit 1]
$ pier sql "INSERT INTO b(b) VALUES (0.5)"
! pier: error: ColumnTypeConflict: column 'b' of table 'b' is BOOLEAN, got a real value
[exit 1]
$ pier sql "INSERT INTO b(b) VALUES ('true')"
! pier: error: ColumnTypeConflict: column 'b' of table 'b' is BOOLEAN, got a text value
[exit 1]
$ pier sql "INSERT INTO b(b) VALUES ('t')"
! pier: error: ColumnTypeConflict: column 'b' of table 'b' is BOOLEAN, got a text value
[exit 1]
$ pier sql "INSERT INTO b(c) VALUES ('yes')"
! pier: error: ColumnTypeConflict: column 'c' of table 'b' is BOOLEAN, got a text value
[exit 1]
$ pier sql "INSERT INTO b(c) VALUES (x'01')"
! pier: error: ColumnTypeConflict: column 'c' of table 'b' is BOOLEAN, got a blob value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM b"
n
7
(1 row)

# A refusal at the end of a script leaves nothing of it; so does an
# UPDATE that would make one row 2.
$ pier sql "INSERT INTO b VALUES (10, TRUE, TRUE); UPDATE b SET c = TRUE WHERE k = 2; INSERT INTO b VALUES (11, 'false', NULL)"
! pier: error: ColumnTypeConflict: column 'b' of table 'b' is BOOLEAN, got a text value
[exit 1]
$ pier sql "UPDATE b SET b = b + 1 WHERE b IS NOT NULL"
! pier: error: ColumnTypeConflict: column 'b' of table 'b' is BOOLEAN, got 2: a BOOLEAN is 0 or 1
[exit 1]
$ pier sql "SELECT count(*) AS n, sum(b) AS trues, sum(c) AS c_trues FROM b" --jsonl
{"n":7,"trues":5,"c_trues":1}

# Reading back in the table, JSON and CSV: true and false.
$ pier sql "SELECT * FROM b ORDER BY k"
k  b      c
1  true   true
2  false  false
3  null   null
4  true   false
5  true   false
6  true   false
7  true   false
(7 rows)
$ pier sql "SELECT * FROM b ORDER BY k" --json
[
{"k":1,"b":true,"c":true},
{"k":2,"b":false,"c":false},
{"k":3,"b":null,"c":null},
{"k":4,"b":true,"c":false},
{"k":5,"b":true,"c":false},
{"k":6,"b":true,"c":false},
{"k":7,"b":true,"c":false}
]
$ pier sql "SELECT * FROM b ORDER BY k" --csv
k,b,c
1,true,true
2,false,false
3,,
4,true,false
5,true,false
6,true,false
7,true,false

# Order and equality: NULL, false, true; '=' with TRUE, 1 or '1'; the
# value alone as a condition; '<' and '>'; MIN/MAX (computed: they read
# as the integers SQLite holds); GROUP BY, DISTINCT; a key that refuses
# TRUE when it holds 1.
$ pier sql "SELECT k, b FROM b ORDER BY b, k" --csv
k,b
3,
2,false
1,true
4,true
5,true
6,true
7,true
$ pier sql "SELECT k FROM b WHERE b = TRUE AND c = '0' ORDER BY k" --csv
k
4
5
6
7
$ pier sql "SELECT k FROM b WHERE b AND NOT c ORDER BY k" --csv
k
4
5
6
7
$ pier sql "SELECT k FROM b WHERE c >= b ORDER BY k" --csv
k
1
2
$ pier sql "SELECT min(b) AS lo, max(b) AS hi FROM b" --jsonl
{"lo":0,"hi":1}
$ pier sql "SELECT b, count(*) AS n FROM b GROUP BY b ORDER BY b" --csv
b,n
,1
false,1
true,5
$ pier sql "SELECT DISTINCT c FROM b ORDER BY c" --jsonl
{"c":null}
{"c":false}
{"c":true}
$ pier sql "CREATE TABLE key (v BOOLEAN PRIMARY KEY); INSERT INTO key VALUES (1); INSERT INTO key VALUES (TRUE)"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: key.v
[exit 1]
$ pier sql "CREATE TABLE key (v BOOL UNIQUE); INSERT INTO key VALUES (FALSE); INSERT INTO key VALUES ('0')"
! pier: error: ConstraintUnique: UNIQUE constraint failed: key.v
[exit 1]
$ pier tables
b

# Round-trip through the CLI: the rows read with --jsonl (true, false,
# null) are bound back with --params into a second table; the two hold
# the same rows, and read the same.
$ pier sql "CREATE TABLE d (k INT64 PRIMARY KEY, b BOOLEAN, c BOOL)"
$ pier sql "SELECT * FROM b" --jsonl > rows.jsonl && while IFS= read -r row; do pier sql "INSERT INTO d VALUES (:k, :b, :c)" --params "$row" > /dev/null || exit 1; done < rows.jsonl && pier sql "SELECT count(*) AS n FROM d" --csv
n
7
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM d)) AS lost, (SELECT count(*) FROM (SELECT * FROM d EXCEPT SELECT * FROM b)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM b ORDER BY k" --jsonl) <(pier sql "SELECT * FROM d ORDER BY k" --jsonl) && echo same
same
$ pier sql "INSERT INTO d VALUES (:k, :b, :c)" --param k=20 --param b=true --param c=0 && pier sql "SELECT b, c FROM d WHERE k = 20" --jsonl
1 row changed
{"b":true,"c":false}
$ pier sql "INSERT INTO d VALUES (:k, :b, NULL)" --param k=21 --param b='"true"'
! pier: error: ColumnTypeConflict: column 'b' of table 'd' is BOOLEAN, got a text value
[exit 1]

# Round-trip of the schema through a dump (BOOL is spelled BOOLEAN).
$ pier schema dump
CREATE TABLE "b" (
    "k" INT64 PRIMARY KEY,
    "b" BOOLEAN,
    "c" BOOLEAN
);
CREATE TABLE "d" (
    "k" INT64 PRIMARY KEY,
    "b" BOOLEAN,
    "c" BOOLEAN
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
