# A column added NOT NULL with a BACKFILL becomes nullable when the
# declaration states it without either: drop_not_null, the rows stored
# before it was added still read the backfill, and a new row that omits
# it is null. NOT NULL BACKFILL again is set_not_null, proved.
$ printf '%s\n' 'CREATE TABLE t (id INT64 PRIMARY KEY);' > a.sql
$ printf '%s\n' 'CREATE TABLE t (id INT64 PRIMARY KEY, c TEXT NOT NULL BACKFILL '"'x'"');' > b.sql
$ printf '%s\n' 'CREATE TABLE t (id INT64 PRIMARY KEY, c TEXT);' > c.sql
$ pier migrate a.sql
metadata     create_table         t: 1 column
1
$ pier sql "INSERT INTO t VALUES (1)"
1 row changed
$ pier migrate b.sql
metadata     add_column           t: c TEXT NOT NULL BACKFILL 'x'
2
$ pier plan c.sql
metadata     drop_not_null        t: c
-- fingerprint 98f6c3aed8d88495
$ pier migrate c.sql
metadata     drop_not_null        t: c
3
$ pier sql "INSERT INTO t (id) VALUES (2)"
1 row changed
$ pier sql "SELECT * FROM t"
id  c
1   x
2   null
(2 rows)
$ pier plan c.sql
-- no steps: the lake is what the declaration states
-- fingerprint 021e258e2e82ef11
$ pier schema export > again.sql && pier plan again.sql
-- no steps: the lake is what the declaration states
-- fingerprint 021e258e2e82ef11
$ pier migrate b.sql
! pier: error: ProofFailed: column 'c' of table 't' cannot be NOT NULL: 1 rows hold null (id 2)
[exit 1]
$ pier sql "DELETE FROM t WHERE c IS NULL"
1 row changed
$ pier migrate b.sql
proved       set_not_null         t: c
4
$ pier sql "INSERT INTO t (id) VALUES (3)"
! pier: error: ConstraintNotNull: column 'c' of table 't' is NOT NULL and has no default: an INSERT gives it a value (rows stored before it was added read its backfill)
[exit 1]
$ pier plan b.sql
-- no steps: the lake is what the declaration states
-- fingerprint 98f6c3aed8d88495

# A CHECK added to a table, even an empty one, is refused: checks are
# declared when a table is created.
$ printf '%s\n' 'CREATE TABLE e (id INT64 PRIMARY KEY);' > d.sql
$ printf '%s\n' 'CREATE TABLE e (id INT64 PRIMARY KEY, CHECK (id > 0));' > e.sql
$ pier migrate d.sql
metadata     create_table         e: 1 column
5
$ pier migrate e.sql
! pier: error: MigrationRefused: the migration is refused: table 'e': its CHECK constraints change, which a migration does not do (they are declared when the table is created; create a new table and copy)
[exit 1]
$ pier plan d.sql
-- no steps: the lake is what the declaration states
-- fingerprint 662976d47246f8e8
