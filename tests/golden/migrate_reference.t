# The examples of the reference page on schemas and migrations, in the
# dialect. people: a unique name, a number, a nullable instant.
$ printf '%s\n' 'CREATE TABLE people (' '  name TEXT NOT NULL UNIQUE,' '  score INT64 NOT NULL,' '  joined INSTANT' ');' > people.sql
$ pier migrate people.sql
metadata     create_table         people: 3 columns
1
$ pier sql "INSERT INTO people(name, score) VALUES ('Ada', 10)"
1 row changed
$ pier sql "SELECT * FROM people"
name  score  joined
Ada   10     null
(1 row)
$ pier sql "INSERT INTO people(name, score) VALUES ('Ada', 11)"
! pier: error: ConstraintUnique: UNIQUE constraint failed: people.name
[exit 1]
$ pier migrate people.sql
-- no steps: the lake is what the declaration states
1

# tickets: an AUTOINCREMENT key and an enum with a default. The set is
# enforced on every write path; explicit ids move the counter past them.
$ printf '%s\n' 'CREATE TABLE tickets (' '  id INT64 PRIMARY KEY AUTOINCREMENT,' "  status ENUM('open', 'closed', 'reopened') NOT NULL DEFAULT 'open'" ');' > tickets.sql
$ pier migrate tickets.sql
metadata     create_table         tickets: 2 columns
2
$ pier sql "INSERT INTO tickets DEFAULT VALUES; INSERT INTO tickets(status) VALUES ('closed')"
1 row changed
$ pier sql "INSERT INTO tickets(status) VALUES ('lost')"
! pier: error: ColumnTypeConflict: column 'status' of table 'tickets' is ENUM('open','closed','reopened'), got 'lost': not one of the labels
[exit 1]
$ pier sql "UPDATE tickets SET status = 'lost' WHERE id = 1"
! pier: error: ColumnTypeConflict: column 'status' of table 'tickets' is ENUM('open','closed','reopened'), got 'lost': not one of the labels
[exit 1]
$ pier sql "INSERT INTO tickets VALUES (10, 'reopened'); DELETE FROM tickets WHERE id = 10; INSERT INTO tickets DEFAULT VALUES"
1 row changed
$ pier sql "SELECT * FROM tickets ORDER BY id"
id  status
1   open
2   closed
11  open
(3 rows)
# Adding labels, and relaxing to TEXT, are metadata; removing one is not.
$ printf '%s\n' 'CREATE TABLE tickets (' '  id INT64 PRIMARY KEY AUTOINCREMENT,' "  status ENUM('open', 'closed', 'reopened', 'parked') NOT NULL DEFAULT 'open'" ');' | pier migrate -
metadata     widen_enum           tickets: status ENUM('open','closed','reopened') to ENUM('open','closed','reopened','parked')
3
$ printf '%s\n' 'CREATE TABLE tickets (' '  id INT64 PRIMARY KEY AUTOINCREMENT,' "  status ENUM('open', 'closed') NOT NULL DEFAULT 'open'" ');' | pier plan -
! pier: error: MigrationRefused: the migration is refused: column 'status' of table 'tickets': ENUM('open','closed','reopened','parked') to ENUM('open','closed') removes enum labels (stored rows may hold them)
[exit 1]
$ printf '%s\n' 'CREATE TABLE tickets (' '  id INT64 PRIMARY KEY AUTOINCREMENT,' "  status TEXT NOT NULL DEFAULT 'open'" ');' | pier migrate -
metadata     widen_enum           tickets: status ENUM('open','closed','reopened','parked') to TEXT
4

# notes: generated columns (AUTOINCREMENT, defaults, DEFAULT now(), one
# instant per statement) are optional on insert.
$ printf '%s\n' 'CREATE TABLE notes (' '  id INT64 PRIMARY KEY AUTOINCREMENT,' "  status TEXT NOT NULL DEFAULT 'draft'," '  created INSTANT NOT NULL DEFAULT now(),' '  body TEXT NOT NULL' ');' > notes.sql
$ pier migrate notes.sql
metadata     create_table         notes: 4 columns
5
$ pier sql "INSERT INTO notes(body) VALUES ('hello'), ('again') RETURNING *"
id  status  created                      body
1   draft   2026-01-01T00:00:00.000000Z  hello
2   draft   2026-01-01T00:00:00.000000Z  again
(2 rows)
$ pier sql "INSERT INTO notes(status) VALUES ('x')"
! pier: error: ConstraintNotNull: NOT NULL constraint failed: notes.body
[exit 1]

# Backfilling an added column: rows stored before it read the backfill,
# in filters and groups too; BACKFILL now() is one instant, frozen.
$ printf '%s\n' 'CREATE TABLE notes (' '  id INT64 PRIMARY KEY AUTOINCREMENT,' "  status TEXT NOT NULL DEFAULT 'draft'," '  created INSTANT NOT NULL DEFAULT now(),' '  body TEXT NOT NULL,' "  state TEXT NOT NULL BACKFILL 'archived'," '  seen INSTANT NOT NULL DEFAULT now() BACKFILL now()' ');' > notes2.sql
$ PIER_NOW=2026-02-01T00:00:00Z pier migrate notes2.sql
metadata     add_column           notes: state TEXT NOT NULL BACKFILL 'archived'
metadata     add_column           notes: seen INSTANT NOT NULL BACKFILL now() DEFAULT now()
7
$ pier sql "SELECT state, seen, count(*) FROM notes GROUP BY state, seen"
state     seen                         count(*)
archived  2026-02-01T00:00:00.000000Z  2
(1 row)
$ pier sql "INSERT INTO notes(body) VALUES ('new')"
! pier: error: ConstraintNotNull: column 'state' of table 'notes' is NOT NULL and has no default: an INSERT gives it a value (rows stored before it was added read its backfill)
[exit 1]
$ PIER_NOW=2026-03-01T00:00:00Z pier sql "INSERT INTO notes(body, state) VALUES ('new', 'live')"
1 row changed
$ pier sql "SELECT id, state, seen FROM notes WHERE state = 'live'"
id  state  seen
3   live   2026-03-01T00:00:00.000000Z
(1 row)
$ echo 'CREATE TABLE notes (id INT64 PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL, extra TEXT BACKFILL 1)' | pier plan -
! pier: error: InvalidSchema: column 'extra' is nullable: rows stored before it existed read NULL, so a BACKFILL has nothing to do (declare it NOT NULL, or drop the BACKFILL) (line 1, column 97 of stdin)
[exit 1]

# Relations and row conditions: enforced, and named in their errors.
$ printf '%s\n' 'CREATE TABLE children (' '  id INT64 PRIMARY KEY,' '  parent_id INT64 NOT NULL REFERENCES parents(id) ON DELETE CASCADE,' '  qty INT64 NOT NULL,' '  CONSTRAINT positive_qty CHECK (qty > 0)' ');' 'CREATE TABLE parents (' '  id INT64 PRIMARY KEY,' '  label TEXT NOT NULL' ');' > family.sql
$ pier migrate family.sql
metadata     create_table         parents: 2 columns
metadata     create_table         children: 3 columns
9
$ pier sql "INSERT INTO children VALUES (1, 999, 1)"
! pier: error: ConstraintForeignKey: FOREIGN KEY children_parent_id_fkey has no parents row with 999
[exit 1]
$ pier sql "INSERT INTO parents VALUES (1, 'p'); INSERT INTO children VALUES (1, 1, 0)"
! pier: error: ConstraintCheck: CHECK positive_qty failed for a row of children
[exit 1]
$ pier sql "INSERT INTO parents VALUES (1, 'p'); INSERT INTO children VALUES (1, 1, 2)"
1 row changed
$ pier sql "DELETE FROM parents WHERE id = 1"
1 row changed
$ pier sql "SELECT count(*) FROM children"
count(*)
0
(1 row)
# A check that cannot run fails the migration, not the first write.
$ echo 'CREATE TABLE bad (a INT64, CHECK (nosuchfn(a) > 0))' | pier migrate -
! pier: error: QueryFailed: step create_table of 'bad': no such function: nosuchfn
[exit 1]
$ pier tables
children
notes
parents
people
tickets

# Views: declared columns are checked against what the body produces.
$ printf '%s\n' 'CREATE TABLE customers (customer_id INT64 PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL);' 'CREATE VIEW active_customers (customer_id INT64, name TEXT) AS' "  SELECT customer_id, name FROM customers WHERE status = 'active';" > shop.sql
$ pier migrate shop.sql
metadata     create_table         customers: 3 columns
metadata     create_view          active_customers: 2 columns
11
$ pier sql "INSERT INTO customers VALUES (1, 'Ada', 'active'), (2, 'Bob', 'gone')"
2 rows changed
$ pier sql "SELECT * FROM active_customers"
customer_id  name
1            Ada
(1 row)
$ pier sql "INSERT INTO active_customers VALUES (3, 'Cy')"
! pier: error: QueryFailed: SQLite refused the statement: cannot modify active_customers because it is a view (at byte 0 of the script)
[exit 1]
$ printf '%s\n' 'CREATE TABLE customers (customer_id INT64 PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL);' 'CREATE VIEW active_customers (customer_id INT64, name INT64) AS' "  SELECT customer_id, name FROM customers WHERE status = 'active';" | pier migrate -
! pier: error: ViewMismatch: column 'name' of view 'active_customers' is declared INT64, and its body reads it from customers.name, which is TEXT
[exit 1]
$ printf '%s\n' 'CREATE TABLE customers (customer_id INT64 PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL);' 'CREATE VIEW active_customers (customer_id INT64, name TEXT) AS' "  SELECT customer_id, upper(name) FROM customers WHERE status = 'active';" | pier migrate -
metadata     replace_view         active_customers: 2 columns
12
$ pier sql "SELECT * FROM active_customers"
customer_id  name
1            ADA
(1 row)
# A view the declaration no longer names is dropped when it owns the lake.
$ echo 'CREATE TABLE customers (customer_id INT64 PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL)' | pier migrate --schema-owns-database -
! pier: error: DestructiveChange: the migration would destroy data, and destruction is not allowed: view 'active_customers'; table 'children' (0 rows); table 'notes' (3 rows); table 'parents' (0 rows); table 'people' (1 rows); table 'tickets' (3 rows)
[exit 1]

# Proven rather than assumed: NOT NULL is tightened only when no row
# holds null; AUTOINCREMENT is adopted past the largest key.
$ pier sql "INSERT INTO people(name, score, joined) VALUES ('Bea', 3, '2026-01-05T00:00:00Z')"
1 row changed
$ printf '%s\n' 'CREATE TABLE people (' '  name TEXT NOT NULL UNIQUE,' '  score INT64 NOT NULL,' '  joined INSTANT NOT NULL' ');' > people2.sql
$ pier migrate people2.sql
! pier: error: ProofFailed: column 'joined' of table 'people' cannot be NOT NULL: 1 rows hold null (rowid 1)
[exit 1]
$ pier sql "UPDATE people SET joined = '2026-01-01T00:00:00Z' WHERE joined IS NULL"
1 row changed
$ pier migrate people2.sql
proved       set_not_null         people: joined
13
$ pier sql "INSERT INTO people(name, score) VALUES ('Cy', 1)"
! pier: error: ConstraintNotNull: NOT NULL constraint failed: people.joined
[exit 1]

# Dropping things: refused unless allowed, naming what would go; tables
# only with --schema-owns-database, and only those a migration made.
$ pier sql "CREATE TABLE handmade (a INT64)"
$ printf '%s\n' 'CREATE TABLE people (' '  name TEXT NOT NULL UNIQUE,' '  joined INSTANT NOT NULL' ');' > people3.sql
$ pier migrate people3.sql
! pier: error: DestructiveChange: the migration would destroy data, and destruction is not allowed: column 'score' of table 'people' (2 rows)
[exit 1]
$ pier migrate --allow-destructive people3.sql
destructive  drop_column          people: score (2 rows; rewrites every row)
14
$ pier migrate --allow-destructive --schema-owns-database people3.sql
destructive  drop_view            active_customers
destructive  drop_table           children: 0 rows
destructive  drop_table           customers: 2 rows
destructive  drop_table           notes: 3 rows
destructive  drop_table           parents: 0 rows
destructive  drop_table           tickets: 3 rows
20
$ pier tables
handmade
people
