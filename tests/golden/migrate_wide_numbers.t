# A DEFAULT or BACKFILL beyond 64 bits keeps its digits exactly in the
# types that hold them (UINT64, INT128, DECIMAL), on a table created and
# on columns added; a value the column cannot hold is InvalidSchema, as
# INT8 DEFAULT 300 is, and nothing is written.
$ printf '%s\n' 'CREATE TABLE t (id INT64 PRIMARY KEY, u UINT64 DEFAULT 18446744073709551615, h INT128 DEFAULT -170141183460469231731687303715884105728, m DECIMAL(30,2) DEFAULT 1234567890123456789012.25);' > a.sql
$ printf '%s\n' 'CREATE TABLE t (id INT64 PRIMARY KEY, u UINT64 DEFAULT 18446744073709551615, h INT128 DEFAULT -170141183460469231731687303715884105728, m DECIMAL(30,2) DEFAULT 1234567890123456789012.25, v UINT64 DEFAULT 18446744073709551615, w UINT64 NOT NULL BACKFILL 18446744073709551615, x INT128 NOT NULL BACKFILL 170141183460469231731687303715884105727);' > b.sql
$ pier migrate a.sql
metadata     create_table         t: 4 columns
1
$ pier sql "INSERT INTO t (id) VALUES (1)"
1 row changed
$ pier migrate b.sql
metadata     add_column           t: v UINT64 DEFAULT 18446744073709551615
metadata     add_column           t: w UINT64 NOT NULL BACKFILL 18446744073709551615
metadata     add_column           t: x INT128 NOT NULL BACKFILL 170141183460469231731687303715884105727
4
$ pier sql "INSERT INTO t (id, w, x) VALUES (2, 1, 1)"
1 row changed
$ pier sql "SELECT * FROM t"
id  u                     h                                         m                          v                     w                     x
1   18446744073709551615  -170141183460469231731687303715884105728  1234567890123456789012.25  null                  18446744073709551615  170141183460469231731687303715884105727
2   18446744073709551615  -170141183460469231731687303715884105728  1234567890123456789012.25  18446744073709551615  1                     1
(2 rows)
$ pier sql "SELECT typeof(u), typeof(h), typeof(m), typeof(v), typeof(w), typeof(x) FROM t"
typeof(u)  typeof(h)  typeof(m)  typeof(v)  typeof(w)  typeof(x)
text       text       text       null       text       text
text       text       text       text       text       text
(2 rows)
$ pier migrate b.sql
-- no steps: the lake is what the declaration states
4
$ pier schema export > again.sql && pier plan again.sql
-- no steps: the lake is what the declaration states
-- fingerprint 321b1dd24f1f33c2

# Refused: beyond the column's type.
$ printf '%s\n' 'CREATE TABLE t (id INT64 PRIMARY KEY, c INT64 NOT NULL BACKFILL 9223372036854775808);' > c.sql
$ pier migrate c.sql
! pier: error: InvalidSchema: BACKFILL 9223372036854775808 of column 'c' is not a value of INT64: out of range: beyond 64 bits (line 1, column 65 of 'c.sql')
[exit 1]
$ printf '%s\n' 'CREATE TABLE t (id INT64 PRIMARY KEY, c UINT64 DEFAULT 18446744073709551616);' > d.sql
$ pier migrate d.sql
! pier: error: InvalidSchema: DEFAULT 18446744073709551616 of column 'c' is not a value of UINT64: out of range for UINT64 (line 1, column 56 of 'd.sql')
[exit 1]
$ printf '%s\n' 'CREATE TABLE t (id INT64 PRIMARY KEY, c INT128 DEFAULT 170141183460469231731687303715884105728);' > e.sql
$ pier migrate e.sql
! pier: error: InvalidSchema: DEFAULT 170141183460469231731687303715884105728 of column 'c' is not a value of INT128: out of range for INT128 (line 1, column 56 of 'e.sql')
[exit 1]
$ printf '%s\n' 'CREATE TABLE t (id INT64 PRIMARY KEY, c DECIMAL(5,2) DEFAULT 1234.5);' > f.sql
$ pier migrate f.sql
! pier: error: InvalidSchema: DEFAULT 1234.5 of column 'c' is not a value of DECIMAL(5,2): more digits before the point than the column's precision allows (line 1, column 62 of 'f.sql')
[exit 1]

# Nothing was written: the lake is still what b.sql states.
$ pier plan b.sql
-- no steps: the lake is what the declaration states
-- fingerprint 321b1dd24f1f33c2
