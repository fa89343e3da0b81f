# A column renamed away while a new column takes its old name: one
# migrate renames and adds, keeping the stored values under the new name,
# and the same declaration is then zero steps.
$ printf '%s\n' 'CREATE TABLE t (id INT64 PRIMARY KEY, x TEXT);' > a.sql
$ printf '%s\n' 'CREATE TABLE t (id INT64 PRIMARY KEY, z TEXT RENAMED FROM x, x INT32);' > b.sql
$ pier migrate a.sql
metadata     create_table         t: 2 columns
1
$ pier sql "INSERT INTO t VALUES (1, 'kept')"
1 row changed
$ pier plan b.sql
metadata     rename_column        t: z renamed from x
metadata     add_column           t: x INT32
-- fingerprint 527ab767c962c4d3
$ pier migrate b.sql
metadata     rename_column        t: z renamed from x
metadata     add_column           t: x INT32
3
$ pier sql "SELECT * FROM t"
id  z     x
1   kept  null
(1 row)
$ pier plan b.sql
-- no steps: the lake is what the declaration states
-- fingerprint 205e5eab665dd188
$ pier schema export
-- The lake as a declaration (pier schema export): pier migrate of this file
-- makes no step.

-- table "t": managed (a migration made it; a declaration that owns the database drops it when it is no longer declared)
CREATE TABLE "t" (
    "id" INT64 PRIMARY KEY NOT NULL,
    "z" TEXT,
    "x" INT32
);
