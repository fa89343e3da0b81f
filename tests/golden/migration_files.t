# Versioned migration files (`pier migrations`), the other style beside
# `pier migrate`: `new` writes a template named by a version, `up` applies
# the pending versions in order (each with its record, in one
# transaction), `status` compares the files with the lake, `down` rolls
# back the latest version with its down section.
$ pier migrations new "Create Tasks"
db/migrations/20260101000000_create_tasks.sql

# A second call in the same second takes the next second.
$ pier migrations new add-notes
db/migrations/20260101000001_add_notes.sql
$ cat db/migrations/20260101000000_create_tasks.sql
-- migrate:up
-- SQL to apply, in Pier's dialect (docs/sql.md).

-- migrate:down
-- SQL that undoes it; with none, the version is irreversible.

# A template applies nothing yet: status lists it, up refuses it before
# anything runs.
$ pier migrations status
version         name          state    applied_at
20260101000000  create_tasks  pending  -
20260101000001  add_notes     pending  -
2 versions: 0 applied, 2 pending, 0 modified, 0 missing
$ pier migrations up
! pier: error: InvalidSchema: the '-- migrate:up' section holds no SQL: a version applies something (line 1, column 1 of 'db/migrations/20260101000000_create_tasks.sql')
[exit 1]

$ printf '%s\n' '-- migrate:up' 'CREATE TABLE tasks (id INT64 PRIMARY KEY, title TEXT NOT NULL);' "INSERT INTO tasks VALUES (1, 'Ship');" '-- migrate:down' 'DROP TABLE tasks;' > db/migrations/20260101000000_create_tasks.sql
$ printf '%s\n' '-- migrate:up' 'ALTER TABLE tasks ADD COLUMN note TEXT;' '-- migrate:down' 'ALTER TABLE tasks DROP COLUMN note;' > db/migrations/20260101000001_add_notes.sql

# --check fails while anything is pending (for CI).
$ pier migrations status --check
version         name          state    applied_at
20260101000000  create_tasks  pending  -
20260101000001  add_notes     pending  -
2 versions: 0 applied, 2 pending, 0 modified, 0 missing
! pier: error: MigrationConflict: the lake and the files in 'db/migrations' disagree: 2 pending, 0 modified, 0 missing
[exit 1]
$ pier migrations up
applied   20260101000000_create_tasks.sql
applied   20260101000001_add_notes.sql
0
$ pier migrations status --check
version         name          state    applied_at
20260101000000  create_tasks  applied  2026-01-01T00:00:00.000000Z
20260101000001  add_notes     applied  2026-01-01T00:00:00.000000Z
2 versions: 2 applied, 0 pending, 0 modified, 0 missing
$ pier --json migrations status
{"dir":"db/migrations","files":[{"version":"20260101000000","name":"create_tasks","file":"20260101000000_create_tasks.sql","state":"applied","checksum":"94a073912ecc1318","applied_checksum":"94a073912ecc1318","applied_at":"2026-01-01T00:00:00.000000Z","reversible":true},{"version":"20260101000001","name":"add_notes","file":"20260101000001_add_notes.sql","state":"applied","checksum":"45f8f929c3023741","applied_checksum":"45f8f929c3023741","applied_at":"2026-01-01T00:00:00.000000Z","reversible":true}],"applied":2,"pending":0,"modified":0,"missing":0}

# Nothing pending: nothing to do.
$ pier migrations up
-- no pending version in 'db/migrations'
0

# The record is the engine's own: no table, no dump, out of SQL's reach.
$ pier tables
tasks
$ pier schema dump
CREATE TABLE "tasks" (
    "id" INT64 PRIMARY KEY,
    "title" TEXT NOT NULL,
    "note" TEXT
);
$ pier sql "SELECT * FROM _pier_migration_files"
! pier: error: EntityNotAllowed: a statement of the SQL dialect may not touch the engine's own table '_pier_migration_files'
[exit 1]

# down rolls back one version, the latest.
$ pier migrations down
reverted  20260101000001_add_notes.sql
0
$ pier schema tasks
table tasks
column  type   readonly
id      INT64  no
title   TEXT   no
$ pier migrations status
version         name          state    applied_at
20260101000000  create_tasks  applied  2026-01-01T00:00:00.000000Z
20260101000001  add_notes     pending  -
2 versions: 1 applied, 1 pending, 0 modified, 0 missing

# An empty down section makes a version irreversible: down refuses it and
# changes nothing.
$ printf '%s\n' '-- migrate:up' "INSERT INTO tasks (id, title) VALUES (2, 'Seed');" '-- migrate:down' '-- rows are not taken back' > db/migrations/20260101000002_seed.sql
$ pier migrations up
applied   20260101000001_add_notes.sql
applied   20260101000002_seed.sql
0
$ pier migrations down
! pier: error: MigrationRefused: version 20260101000002 is irreversible: 'db/migrations/20260101000002_seed.sql' has no SQL in its '-- migrate:down' section; nothing was rolled back
[exit 1]
$ pier sql "SELECT count(*) AS n FROM tasks"
n
2
(1 row)

# A failing version is rolled back whole and stops up; the versions
# before it stay applied. The error names the file, line and column.
$ printf '%s\n' '-- migrate:up' 'CREATE TABLE tags (id INT64 PRIMARY KEY);' '-- migrate:down' 'DROP TABLE tags;' > db/migrations/20260101000003_tags.sql
$ printf '%s\n' '-- migrate:up' 'CREATE TABLE labels (id INT64);' 'INSERT INTO nope VALUES (1);' '-- migrate:down' 'DROP TABLE labels;' > db/migrations/20260101000004_broken.sql
$ pier migrations up
applied   20260101000003_tags.sql
! pier: error: QueryFailed: SQLite refused the statement: no such table: nope (line 3, column 1 of 'db/migrations/20260101000004_broken.sql')
[exit 1]
$ pier tables
tags
tasks
$ pier --json migrations up
{"applied":[]}
! {"error":"QueryFailed","message":"SQLite refused the statement: no such table: nope (line 3, column 1 of 'db/migrations/20260101000004_broken.sql')"}
[exit 1]

# A file changed after it was applied is modified; one removed is
# missing. status --check fails on either.
$ rm db/migrations/20260101000004_broken.sql
$ echo '-- edited' >> db/migrations/20260101000002_seed.sql
$ rm db/migrations/20260101000003_tags.sql
$ pier migrations status
version         name          state     applied_at
20260101000000  create_tasks  applied   2026-01-01T00:00:00.000000Z
20260101000001  add_notes     applied   2026-01-01T00:00:00.000000Z
20260101000002  seed          modified  2026-01-01T00:00:00.000000Z
20260101000003  tags          missing   2026-01-01T00:00:00.000000Z
4 versions: 2 applied, 0 pending, 1 modified, 1 missing
$ pier migrations status --check
version         name          state     applied_at
20260101000000  create_tasks  applied   2026-01-01T00:00:00.000000Z
20260101000001  add_notes     applied   2026-01-01T00:00:00.000000Z
20260101000002  seed          modified  2026-01-01T00:00:00.000000Z
20260101000003  tags          missing   2026-01-01T00:00:00.000000Z
4 versions: 2 applied, 0 pending, 1 modified, 1 missing
! pier: error: MigrationConflict: the lake and the files in 'db/migrations' disagree: 0 pending, 1 modified, 1 missing
[exit 1]
$ pier --json migrations status --check
{"dir":"db/migrations","files":[{"version":"20260101000000","name":"create_tasks","file":"20260101000000_create_tasks.sql","state":"applied","checksum":"94a073912ecc1318","applied_checksum":"94a073912ecc1318","applied_at":"2026-01-01T00:00:00.000000Z","reversible":true},{"version":"20260101000001","name":"add_notes","file":"20260101000001_add_notes.sql","state":"applied","checksum":"45f8f929c3023741","applied_checksum":"45f8f929c3023741","applied_at":"2026-01-01T00:00:00.000000Z","reversible":true},{"version":"20260101000002","name":"seed","file":"20260101000002_seed.sql","state":"modified","checksum":"dc436e9a93ccd93d","applied_checksum":"f0e73988549b0602","applied_at":"2026-01-01T00:00:00.000000Z","reversible":false},{"version":"20260101000003","name":"tags","file":"20260101000003_tags.sql","state":"missing","checksum":null,"applied_checksum":"ed4aac98c751e4ed","applied_at":"2026-01-01T00:00:00.000000Z","reversible":false}],"applied":2,"pending":0,"modified":1,"missing":1}
! {"error":"MigrationConflict","message":"the lake and the files in 'db/migrations' disagree: 0 pending, 1 modified, 1 missing"}
[exit 1]

# The latest version's file is gone: its down section cannot run.
$ pier migrations down
! pier: error: MigrationRefused: version 20260101000003 (tags) is applied, but its file is not in 'db/migrations': its down section cannot run; nothing was rolled back
[exit 1]

# Files not named VERSION_NAME.sql, or that do not parse, stop every
# subcommand, naming the file; files not ending in .sql are ignored.
$ echo 'notes' > db/migrations/README.md
$ printf '%s\n' '-- migrate:up' 'SELECT 1;' > db/migrations/2026_tags.sql
$ pier migrations status
! pier: error: InvalidSchema: 'db/migrations/2026_tags.sql' is not named as a migration file (VERSION_NAME.sql): a migration file's name starts with a version of 14 digits (YYYYMMDDHHMMSS), then '_' and a name
[exit 1]
$ mv db/migrations/2026_tags.sql db/migrations/20260101000005_Tags.sql
$ pier migrations up
! pier: error: InvalidSchema: 'db/migrations/20260101000005_Tags.sql' is not named as a migration file (VERSION_NAME.sql): a migration file's name (after the version) holds only lowercase letters, digits and '_'
[exit 1]
$ rm db/migrations/20260101000005_Tags.sql
$ printf '%s\n' 'SELECT 1;' > db/migrations/20260101000005_no_marker.sql
$ pier migrations status
! pier: error: InvalidSchema: no '-- migrate:up' line: a migration file has a '-- migrate:up' section of SQL to apply (in 'db/migrations/20260101000005_no_marker.sql')
[exit 1]
$ printf '%s\n' '-- migrate:up' 'SELECT 1;' '-- migrate:up' 'SELECT 2;' > db/migrations/20260101000005_no_marker.sql
$ pier migrations down
! pier: error: InvalidSchema: a second '-- migrate:up' line: a file has one (line 3, column 1 of 'db/migrations/20260101000005_no_marker.sql')
[exit 1]
$ printf '%s\n' '-- migrate:up' 'SELECT 1;' '-- migrate:dwon' > db/migrations/20260101000005_no_marker.sql
$ pier migrations status
! pier: error: InvalidSchema: an unknown marker line: the markers are '-- migrate:up' and '-- migrate:down', each alone on its line (line 3, column 1 of 'db/migrations/20260101000005_no_marker.sql')
[exit 1]
$ rm db/migrations/20260101000005_no_marker.sql

# Names a file cannot carry are refused; usage errors exit 2.
$ pier migrations new 'tâche'
! pier: error: InvalidArgument: bad migration name 'tâche': a name holds only letters, digits, '_', '-' and spaces
[exit 1]
$ pier migrations new '  '
! pier: error: InvalidArgument: bad migration name '  ': a name holds at least one letter or digit
[exit 1]
$ pier migrations new
! pier: usage: migrations new: missing argument NAME
! Try 'pier migrations --help'.
[exit 2]
$ pier migrations sideways
! pier: usage: migrations: unknown subcommand 'sideways': new, up, down or status
! Try 'pier migrations --help'.
[exit 2]
$ pier migrations up --check
! pier: usage: migrations up: option '--check' is for status
! Try 'pier migrations --help'.
[exit 2]

# Another directory, with --dir; a missing one cannot be read.
$ pier migrations new first --dir other/place
other/place/20260101000000_first.sql
$ pier migrations status --dir nowhere
! pier: error: ReadFailed: cannot read migration directory 'nowhere': No such file or directory
[exit 1]
