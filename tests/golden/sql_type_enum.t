# ENUM('a','b',...): one of the labels, exactly: case, white space and
# accents count; a label is any text, the empty one too, quotes ('' in SQL),
# commas and parentheses included; an ENUM has 1 to 1000 labels, none
# twice. Values are kept as text and order and compare as text (byte
# order), not in the order the labels are declared. Anything else is
# refused (a number is taken only if its text is a label); a refused
# statement or script writes nothing. Values read back as the label,
# round-trip through --jsonl and --params, and the labels through a dump.
$ pier sql "CREATE TABLE t (k INT64 PRIMARY KEY, e ENUM('todo','doing','done'))"
$ pier schema t
table t
column  type                         readonly
k       INT64                        no
e       ENUM('todo','doing','done')  no
$ pier sql "INSERT INTO t VALUES (1, 'todo'), (2, 'done'), (3, 'doing'), (4, NULL)"
4 rows changed

# Not a label: another case, white space, the empty text, a prefix, a
# number, a blob.
$ pier sql "INSERT INTO t(e) VALUES ('Todo')"
! pier: error: ColumnTypeConflict: column 'e' of table 't' is ENUM('todo','doing','done'), got 'Todo': not one of the labels
[exit 1]
$ pier sql "INSERT INTO t(e) VALUES ('TODO')"
! pier: error: ColumnTypeConflict: column 'e' of table 't' is ENUM('todo','doing','done'), got 'TODO': not one of the labels
[exit 1]
$ pier sql "INSERT INTO t(e) VALUES ('todo ')"
! pier: error: ColumnTypeConflict: column 'e' of table 't' is ENUM('todo','doing','done'), got 'todo ': not one of the labels
[exit 1]
$ pier sql "INSERT INTO t(e) VALUES (' todo')"
! pier: error: ColumnTypeConflict: column 'e' of table 't' is ENUM('todo','doing','done'), got ' todo': not one of the labels
[exit 1]
$ pier sql "INSERT INTO t(e) VALUES ('')"
! pier: error: ColumnTypeConflict: column 'e' of table 't' is ENUM('todo','doing','done'), got '': not one of the labels
[exit 1]
$ pier sql "INSERT INTO t(e) VALUES ('do')"
! pier: error: ColumnTypeConflict: column 'e' of table 't' is ENUM('todo','doing','done'), got 'do': not one of the labels
[exit 1]
$ pier sql "INSERT INTO t(e) VALUES (1)"
! pier: error: ColumnTypeConflict: column 'e' of table 't' is ENUM('todo','doing','done'), got '1': not one of the labels
[exit 1]
$ pier sql "INSERT INTO t(e) VALUES (x'746f646f')"
! pier: error: ColumnTypeConflict: column 'e' of table 't' is ENUM('todo','doing','done'), got a blob value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM t"
n
4
(1 row)

# A refusal at the end of a script leaves nothing of it; an UPDATE to a
# label that is not one changes nothing.
$ pier sql "INSERT INTO t VALUES (10, 'todo'); UPDATE t SET e = 'done' WHERE k = 1; INSERT INTO t VALUES (11, 'Done')"
! pier: error: ColumnTypeConflict: column 'e' of table 't' is ENUM('todo','doing','done'), got 'Done': not one of the labels
[exit 1]
$ pier sql "UPDATE t SET e = upper(e)"
! pier: error: ColumnTypeConflict: column 'e' of table 't' is ENUM('todo','doing','done'), got 'TODO': not one of the labels
[exit 1]
$ pier sql "SELECT k, e FROM t ORDER BY k" --csv
k,e
1,todo
2,done
3,doing
4,

# Labels with quotes, commas, parentheses, spaces, accents; labels that
# differ only in case; labels that are numbers (a number whose text is
# a label is taken).
$ pier sql "CREATE TABLE q (k INT64 PRIMARY KEY, e ENUM('it''s', 'a,b', ')', ' x ', 'é', 'a', 'A', '1', '2.5'))"
$ pier schema q
table q
column  type                                                 readonly
k       INT64                                                no
e       ENUM('it''s','a,b',')',' x ','é','a','A','1','2.5')  no
$ pier sql "INSERT INTO q VALUES (1, 'it''s'), (2, 'a,b'), (3, ')'), (4, ' x '), (5, 'é'), (6, 'a'), (7, 'A'), (8, 1), (9, 2.5), (10, '1')"
10 rows changed

# The real 2.50 is stored as its text, 2.5: a label.
$ pier sql "INSERT INTO q VALUES (11, 2.50) RETURNING e" --csv
e
2.5

# Refused: no such label, a prefix of one, é spelled with a combining
# accent, text of a number that is not a label's.
$ pier sql "INSERT INTO q(e) VALUES ('x')"
! pier: error: ColumnTypeConflict: column 'e' of table 'q' is ENUM('it''s','a,b',')',' x ','é','a','A','1','2.5'), got 'x': not one of the labels
[exit 1]
$ pier sql "INSERT INTO q(e) VALUES ('it')"
! pier: error: ColumnTypeConflict: column 'e' of table 'q' is ENUM('it''s','a,b',')',' x ','é','a','A','1','2.5'), got 'it': not one of the labels
[exit 1]
$ pier sql "INSERT INTO q(e) VALUES ('e' || char(769))"
! pier: error: ColumnTypeConflict: column 'e' of table 'q' is ENUM('it''s','a,b',')',' x ','é','a','A','1','2.5'), got 'é': not one of the labels
[exit 1]
$ pier sql "INSERT INTO q(e) VALUES ('1.0')"
! pier: error: ColumnTypeConflict: column 'e' of table 'q' is ENUM('it''s','a,b',')',' x ','é','a','A','1','2.5'), got '1.0': not one of the labels
[exit 1]
$ pier sql "SELECT count(*) AS n FROM q" --csv
n
11

# The labels of the type: at least one, none empty, none twice (in the
# same case), quoted, at most 1000.
$ pier sql "CREATE TABLE bad (e ENUM())"
! pier: error: UnknownType: column 'e': ENUM takes its labels as quoted strings, ENUM('a','b')
[exit 1]
$ pier sql "CREATE TABLE empty (e ENUM('', 'x') NOT NULL)"
$ pier sql "INSERT INTO empty VALUES (''), ('x'); SELECT e, length(e) FROM empty ORDER BY e"
e  length(e)
   0
x  1
(2 rows)
$ pier sql "INSERT INTO empty VALUES (' ')"
! pier: error: ColumnTypeConflict: column 'e' of table 'empty' is ENUM('','x'), got ' ': not one of the labels
[exit 1]
$ pier sql "CREATE TABLE bad (e ENUM('a','b','a'))"
! pier: error: UnknownType: column 'e': ENUM label 'a' is listed twice
[exit 1]
$ pier sql "CREATE TABLE bad (e ENUM(a, b))"
! pier: error: UnknownType: column 'e': ENUM takes its labels as quoted strings, ENUM('a','b')
[exit 1]
$ pier sql "CREATE TABLE bad (e ENUM)"
! pier: error: UnknownType: column 'e': ENUM takes its labels as quoted strings, ENUM('a','b')
[exit 1]
$ pier sql "CREATE TABLE many (e ENUM($(seq -s, -f "'%g'" 1 1000))); INSERT INTO many VALUES ('1000'); SELECT e FROM many" --csv
e
1000
$ pier sql "CREATE TABLE bad (e ENUM($(seq -s, -f "'%g'" 1 1001)))"
! pier: error: UnknownType: column 'e': an ENUM has at most 1000 labels
[exit 1]

# Reading back in the table, JSON and CSV: the label as declared.
$ pier sql "SELECT * FROM q ORDER BY k"
k   e
1   it's
2   a,b
3   )
4    x 
5   é
6   a
7   A
8   1
9   2.5
10  1
11  2.5
(11 rows)
$ pier sql "SELECT * FROM q ORDER BY k" --json
[
{"k":1,"e":"it's"},
{"k":2,"e":"a,b"},
{"k":3,"e":")"},
{"k":4,"e":" x "},
{"k":5,"e":"é"},
{"k":6,"e":"a"},
{"k":7,"e":"A"},
{"k":8,"e":"1"},
{"k":9,"e":"2.5"},
{"k":10,"e":"1"},
{"k":11,"e":"2.5"}
]
$ pier sql "SELECT * FROM q ORDER BY k" --csv
k,e
1,it's
2,"a,b"
3,)
4," x "
5,é
6,a
7,A
8,1
9,2.5
10,1
11,2.5

# Order and equality are text's: ORDER BY gives byte order (not the
# declaration's), '=' is exact, '<' and '>', MIN/MAX, GROUP BY,
# DISTINCT, and a UNIQUE index.
$ pier sql "SELECT * FROM t ORDER BY e" --csv
k,e
4,
3,doing
2,done
1,todo
$ pier sql "SELECT e FROM t WHERE e > 'doing' ORDER BY e" --csv
e
done
todo
$ pier sql "SELECT k FROM q WHERE e = 'a' OR e = 1 ORDER BY k" --csv
k
6
8
10
$ pier sql "SELECT e FROM q ORDER BY e" --csv
e
" x "
)
1
1
2.5
2.5
A
a
"a,b"
it's
é
$ pier sql "SELECT min(e) AS lo, max(e) AS hi FROM t" --jsonl
{"lo":"doing","hi":"todo"}
$ pier sql "SELECT e, count(*) AS n FROM q GROUP BY e ORDER BY e DESC" --csv
e,n
é,1
it's,1
"a,b",1
a,1
A,1
2.5,2
1,2
),1
" x ",1
$ pier sql "SELECT count(DISTINCT e) AS n FROM q" --csv
n
9
$ pier sql "CREATE TABLE key (e ENUM('a','A') UNIQUE); INSERT INTO key VALUES ('a'), ('A'); INSERT INTO key VALUES ('a')"
! pier: error: ConstraintUnique: UNIQUE constraint failed: key.e
[exit 1]
$ pier tables
empty
many
q
t

# Round-trip through the CLI: the rows read with --jsonl are bound back
# with --params into a second table; the two hold the same rows, and
# read the same.
$ pier sql "CREATE TABLE r (k INT64 PRIMARY KEY, e ENUM('it''s', 'a,b', ')', ' x ', 'é', 'a', 'A', '1', '2.5'))"
$ pier sql "SELECT * FROM q" --jsonl > rows.jsonl && while IFS= read -r row; do pier sql "INSERT INTO r VALUES (:k, :e)" --params "$row" > /dev/null || exit 1; done < rows.jsonl && pier sql "SELECT count(*) AS n FROM r" --csv
n
11
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM q EXCEPT SELECT * FROM r)) AS lost, (SELECT count(*) FROM (SELECT * FROM r EXCEPT SELECT * FROM q)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM q ORDER BY k" --jsonl) <(pier sql "SELECT * FROM r ORDER BY k" --jsonl) && echo same
same
$ pier sql "INSERT INTO r VALUES (:k, :e)" --param k=20 --param e="it's" && pier sql "SELECT e FROM r WHERE k = 20" --jsonl
1 row changed
{"e":"it's"}
$ pier sql "INSERT INTO r VALUES (:k, :e)" --param k=21 --param e="It's"
! pier: error: ColumnTypeConflict: column 'e' of table 'r' is ENUM('it''s','a,b',')',' x ','é','a','A','1','2.5'), got 'It's': not one of the labels
[exit 1]

# Round-trip of the schema through a dump: the labels in one spelling,
# quotes doubled.
$ pier sql "DROP TABLE many"
$ pier schema dump
CREATE TABLE "t" (
    "k" INT64 PRIMARY KEY,
    "e" ENUM('todo','doing','done')
);
CREATE TABLE "q" (
    "k" INT64 PRIMARY KEY,
    "e" ENUM('it''s','a,b',')',' x ','é','a','A','1','2.5')
);
CREATE TABLE "empty" (
    "e" ENUM('','x') NOT NULL
);
CREATE TABLE "r" (
    "k" INT64 PRIMARY KEY,
    "e" ENUM('it''s','a,b',')',' x ','é','a','A','1','2.5')
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
