# docs/history.md, commit triggers: a migration may not drop or rename a
# table a commit trigger names, as a script may not; it applies nothing.
$ printf 'CREATE TABLE a (id INT64 PRIMARY KEY);\nCREATE TABLE log (id INT64 PRIMARY KEY, cs CHANGESET);\n' > s1.sql && pier migrate s1.sql
metadata     create_table         a: 1 column
metadata     create_table         log: 2 columns
2

$ pier sql "CREATE COMMIT TRIGGER tr ON a AS INSERT INTO log(cs) VALUES (pier_changeset())"

# The plan lists the step; applying it is refused, and nothing is applied.
$ printf 'CREATE TABLE log (id INT64 PRIMARY KEY, cs CHANGESET);\nCREATE TABLE b (id INT64 PRIMARY KEY);\n' > s2.sql && pier plan s2.sql --schema-owns-database --allow-destructive | grep -c drop_table
1

$ pier migrate s2.sql --schema-owns-database --allow-destructive
! pier: error: EntityNotAllowed: step drop_table of 'a': DROP TABLE: commit trigger 'tr' records table 'a'; drop the trigger first
[exit 1]

$ printf 'CREATE TABLE a2 RENAMED FROM a (id INT64 PRIMARY KEY);\nCREATE TABLE log (id INT64 PRIMARY KEY, cs CHANGESET);\n' > s3.sql && pier migrate s3.sql
! pier: error: EntityNotAllowed: step rename_table of 'a2': ALTER TABLE RENAME TO: commit trigger 'tr' records table 'a'; drop the trigger first
[exit 1]

$ pier sql "INSERT INTO a VALUES (1); SELECT count(*) FROM log"
count(*)
0
(1 row)

$ pier sql "SELECT count(*) FROM log"
count(*)
1
(1 row)

$ pier sql "SELECT * FROM b"
! pier: error: QueryFailed: SQLite refused the statement: no such table: b (at byte 0 of the script)
[exit 1]

# Once the trigger is dropped, the migration goes through.
$ pier sql "DROP COMMIT TRIGGER tr" && pier migrate s2.sql --schema-owns-database --allow-destructive
metadata     create_table         b: 1 column
destructive  drop_table           a: 1 rows
4
