# `plan FILE|-` reads a declaration (CREATE TABLE, VIEW, BOARD and INDEX
# statements, in any order) and prints the steps that would make the lake
# what it states, one a line with its class, then the catalog's
# fingerprint. Nothing is changed: a missing lake is planned as an empty
# one, and not made. On an empty lake everything is created, a parent
# table before the tables that reference it.
$ printf '%s\n' 'CREATE TABLE children (' '  id INT64 PRIMARY KEY,' '  parent_id INT64 NOT NULL REFERENCES parents(id) ON DELETE CASCADE,' '  qty INT64 NOT NULL,' '  CONSTRAINT positive_qty CHECK (qty > 0)' ');' 'CREATE TABLE parents (id INT64 PRIMARY KEY, label TEXT NOT NULL);' 'CREATE TABLE tickets (' '  id INT64 PRIMARY KEY AUTOINCREMENT,' "  status ENUM('open', 'closed', 'reopened') NOT NULL DEFAULT 'open'" ');' 'CREATE VIEW open_tickets (id INT64) AS' "  SELECT id FROM tickets WHERE status = 'open';" 'CREATE INDEX children_parent ON children (parent_id);' 'CREATE BOARD events (kind text) STRICT;' > schema.sql
$ pier plan schema.sql
metadata     create_table         parents: 2 columns
metadata     create_table         tickets: 2 columns
metadata     create_table         children: 3 columns
metadata     create_board         events: 1 column, strict
metadata     create_view          open_tickets: 1 column
build        create_index         children_parent: on children (parent_id)
-- fingerprint cbf29ce484222325
$ pier tables
! pier: error: LakeUnavailable: no lake at './pier-data': './pier-data/lake.sqlite' does not exist (a read makes no lake)
[exit 1]
$ pier flush && pier plan schema.sql | tail -1 && pier tables
-- fingerprint cbf29ce484222325

# The same tables made with `pier sql`: only what SQL did not make is left
# (the view, whose columns were not declared, and the board).
$ grep -v -e '^CREATE VIEW' -e '^  SELECT' -e '^CREATE BOARD' schema.sql > tables.sql
$ pier sql -f tables.sql
$ pier plan schema.sql
metadata     create_board         events: 1 column, strict
metadata     create_view          open_tickets: 1 column
-- fingerprint 3c5be3fe5339e091
$ echo 'CREATE BOARD events (kind text) STRICT' | pier sql -f -
$ pier plan schema.sql
metadata     create_view          open_tickets: 1 column
-- fingerprint c84078c89e5c627c

# Changes: a rename through RENAMED FROM, a NOT NULL column added with a
# backfill, NOT NULL relaxed, AUTOINCREMENT dropped, an enum widened, a
# default changed, a board column added. With --json, the same plan.
$ printf '%s\n' 'CREATE TABLE children (' '  id INT64 PRIMARY KEY,' '  parent_id INT64 NOT NULL REFERENCES parents(id) ON DELETE CASCADE,' '  qty INT64 NOT NULL,' '  CONSTRAINT positive_qty CHECK (qty > 0)' ');' 'CREATE TABLE parents (id INT64 PRIMARY KEY, name TEXT RENAMED FROM label,' "  born DATE NOT NULL BACKFILL '2000-01-01');" 'CREATE TABLE tickets (' '  id INT64 PRIMARY KEY,' "  status ENUM('open', 'closed', 'reopened', 'parked') NOT NULL DEFAULT 'parked'" ');' 'CREATE INDEX children_parent ON children (parent_id);' 'CREATE BOARD events (kind text, n double) STRICT;' > v2.sql
$ pier plan v2.sql
metadata     rename_column        parents: name renamed from label
metadata     drop_not_null        parents: name
metadata     add_column           parents: born DATE NOT NULL BACKFILL '2000-01-01'
metadata     drop_autoincrement   tickets: id
metadata     widen_enum           tickets: status ENUM('open','closed','reopened') to ENUM('open','closed','reopened','parked')
metadata     set_default          tickets: status DEFAULT 'parked'
metadata     add_column           events: n double
-- fingerprint c84078c89e5c627c
$ pier --json plan v2.sql
{"fingerprint":"c84078c89e5c627c","steps":[{"step":"rename_column","class":"metadata","table":"parents","column":"name","table_id":2,"column_id":5,"from":"label"},{"step":"drop_not_null","class":"metadata","table":"parents","column":"name","table_id":2,"column_id":5},{"step":"add_column","class":"metadata","table":"parents","column":"born","table_id":2,"column_id":8},{"step":"drop_autoincrement","class":"metadata","table":"tickets","column":"id","table_id":3,"column_id":6},{"step":"widen_enum","class":"metadata","table":"tickets","column":"status","table_id":3,"column_id":7,"from":"ENUM('open','closed','reopened')","to":"ENUM('open','closed','reopened','parked')"},{"step":"set_default","class":"metadata","table":"tickets","column":"status","table_id":3,"column_id":7,"from":"'open'","to":"'parked'"},{"step":"add_column","class":"metadata","board":"events","column":"n","column_id":5}],"destructive":[]}

# What a migration does not do is refused, every change named; nothing
# is planned.
$ printf '%s\n' 'CREATE TABLE parents (id INT32 PRIMARY KEY, label VARCHAR(10) NOT NULL);' "CREATE TABLE tickets (id INT64 PRIMARY KEY AUTOINCREMENT, status ENUM('open') NOT NULL DEFAULT 'open');" 'CREATE TABLE extra (a INT64, b INT64 NOT NULL);' | pier plan -
! pier: error: MigrationRefused: the migration is refused: column 'id' of table 'parents': INT64 to INT32 is a type change, and migrations only widen a type without touching its values; column 'label' of table 'parents': TEXT to VARCHAR(10) is a type change, and migrations only widen a type without touching its values; column 'status' of table 'tickets': ENUM('open','closed','reopened') to ENUM('open') removes enum labels (stored rows may hold them)
[exit 1]
$ echo 'CREATE TABLE parents (id INT64 PRIMARY KEY, label TEXT NOT NULL, x INT64 NOT NULL)' | pier plan -
! pier: error: MigrationRefused: the migration is refused: column 'x' of table 'parents' is added NOT NULL without a BACKFILL: the rows already stored would have no value (give it a BACKFILL, or make it nullable)
[exit 1]
$ echo 'CREATE TABLE children (id INT64 PRIMARY KEY, parent_id INT64 NOT NULL REFERENCES parents(id) ON DELETE CASCADE, qty INT64 NOT NULL, CONSTRAINT positive_qty CHECK (qty > 1))' | pier plan -
! pier: error: MigrationRefused: the migration is refused: table 'children': its CHECK constraints change, which a migration does not do (they are declared when the table is created; create a new table and copy)
[exit 1]

# Dropping a column destroys its values: refused unless allowed, and then
# planned with what it costs. Tables the declaration does not name are
# left alone (they may belong to another declaration).
$ pier sql "INSERT INTO parents VALUES (1, 'a'), (2, 'b')"
2 rows changed
$ echo 'CREATE TABLE parents (id INT64 PRIMARY KEY)' | pier plan -
! pier: error: DestructiveChange: the migration would destroy data, and destruction is not allowed: column 'label' of table 'parents' (2 rows)
[exit 1]
$ echo 'CREATE TABLE parents (id INT64 PRIMARY KEY)' | pier plan --allow-destructive -
destructive  drop_column          parents: label (2 rows; rewrites every row)
-- fingerprint c84078c89e5c627c

# A declaration that cannot mean anything is InvalidSchema, with where.
$ printf 'CREATE TABLE t (\n  a INT64,\n  b TEXT BACKFILL 1\n)' | pier plan -
! pier: error: InvalidSchema: column 'b' is nullable: rows stored before it existed read NULL, so a BACKFILL has nothing to do (declare it NOT NULL, or drop the BACKFILL) (line 3, column 19 of stdin)
[exit 1]
$ echo 'CREATE TABLE t (a INT64 REFERENCES nowhere)' | pier plan -
! pier: error: InvalidSchema: column 'a' of table 't' references table 'nowhere', which is neither declared nor in the lake (line 1, column 25 of stdin)
[exit 1]
$ echo 'CREATE TABLE t (a INT64); INSERT INTO t VALUES (1)' | pier plan -
! pier: error: InvalidSchema: INSERT statements are not allowed in a declaration: a declaration holds CREATE TABLE, CREATE VIEW, CREATE BOARD and CREATE INDEX statements (line 1, column 27 of stdin)
[exit 1]
$ echo 'CREATE TABLE t (a STRING)' > bad.sql
$ pier plan bad.sql
! pier: error: InvalidSchema: column 'a': type STRING is not supported: use TEXT (line 1, column 19 of 'bad.sql')
[exit 1]

# --expect names the fingerprint a plan printed: planning fails once the
# catalog moved on.
$ pier plan --expect c84078c89e5c627c v2.sql | tail -1
-- fingerprint c84078c89e5c627c
$ pier sql 'CREATE TABLE other (a INT64)'
$ pier plan --expect c84078c89e5c627c v2.sql
! pier: error: MigrationConflict: the lake's catalog is dd0890e021d0bfd2, not c84078c89e5c627c as expected: it changed since that plan was made
[exit 1]
$ pier plan --expect nothex v2.sql
! pier: usage: plan: bad --expect 'nothex': a fingerprint is 16 hexadecimal digits, as plan prints it
! Try 'pier plan --help'.
[exit 2]
$ pier plan
! pier: usage: plan: missing argument FILE|-
! Try 'pier plan --help'.
[exit 2]
$ pier plan nope.sql
! pier: error: ReadFailed: cannot read 'nope.sql': No such file or directory
[exit 1]
