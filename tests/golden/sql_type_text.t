# TEXT, VARCHAR(n) (n counts characters) and ENUM (exact labels, text
# order).
$ pier sql "CREATE TABLE t (s TEXT, v VARCHAR(3), e ENUM('todo','doing','done'))"
$ pier sql "INSERT INTO t VALUES ('anything at all', 'héé', 'todo'), ('', 'abc', 'done'), (NULL, '', 'doing')"
3 rows changed
$ pier sql "INSERT INTO t(v) VALUES ('abcd')"
! pier: error: ColumnTypeConflict: column 'v' of table 't' is VARCHAR(3), got 'abcd': longer than the column's length
[exit 1]
$ pier sql "INSERT INTO t(e) VALUES ('Todo')"
! pier: error: ColumnTypeConflict: column 'e' of table 't' is ENUM('todo','doing','done'), got 'Todo': not one of the labels
[exit 1]
$ pier sql "INSERT INTO t(e) VALUES ('')"
! pier: error: ColumnTypeConflict: column 'e' of table 't' is ENUM('todo','doing','done'), got '': not one of the labels
[exit 1]
$ pier sql "INSERT INTO t(s) VALUES (x'00')"
! pier: error: ColumnTypeConflict: column 's' of table 't' is TEXT, got a blob value
[exit 1]
$ pier sql "INSERT INTO t(v) VALUES (12)"
1 row changed
$ pier sql "SELECT * FROM t ORDER BY e" --csv
s,v,e
,12,
,"",doing
"",abc,done
anything at all,héé,todo
$ pier sql "SELECT e FROM t WHERE e > 'doing' ORDER BY e" --csv
e
done
todo
$ pier sql "CREATE TABLE q (e ENUM('it''s', 'a,b', ')'))"
$ pier schema q
table q
column  type                     readonly
e       ENUM('it''s','a,b',')')  no
$ pier sql "INSERT INTO q VALUES ('it''s'), ('a,b'), (')'); SELECT e FROM q ORDER BY e" --csv
e
)
"a,b"
it's
