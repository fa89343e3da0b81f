# Versioned files: a file starting with a UTF-8 byte order mark (as some
# editors write) is read as without it; a version that is not a UTC time
# (month 13) is refused before anything runs; `down` on a missing lake
# has nothing to roll back and makes no lake.
$ mkdir -p db/migrations
$ printf '\357\273\277-- migrate:up\nCREATE TABLE a (id INT64);\n-- migrate:down\nDROP TABLE a;\n' > db/migrations/20260101000000_bom.sql
$ pier migrations down
-- no version applied: nothing to roll back
0
$ test -e pier-data && echo made || echo none
none
$ pier migrations status
version         name  state    applied_at
20260101000000  bom   pending  -
1 version: 0 applied, 1 pending, 0 modified, 0 missing
$ test -e pier-data && echo made || echo none
none
$ pier migrations up
applied   20260101000000_bom.sql
0
$ pier tables
a
$ pier migrations down
reverted  20260101000000_bom.sql
0
$ pier tables
$ printf -- '-- migrate:up\nCREATE TABLE b (id INT64);\n' > db/migrations/20261399999999_b.sql
$ pier migrations status
! pier: error: InvalidSchema: 'db/migrations/20261399999999_b.sql' is not named as a migration file (VERSION_NAME.sql): a migration file's version is a UTC time, YYYYMMDDHHMMSS: a year from 0001, a month from 01 to 12, a day the month has, hours to 23, minutes and seconds to 59
[exit 1]
$ pier migrations up
! pier: error: InvalidSchema: 'db/migrations/20261399999999_b.sql' is not named as a migration file (VERSION_NAME.sql): a migration file's version is a UTC time, YYYYMMDDHHMMSS: a year from 0001, a month from 01 to 12, a day the month has, hours to 23, minutes and seconds to 59
[exit 1]
$ pier tables
$ mv db/migrations/20261399999999_b.sql db/migrations/20260230000000_b.sql
$ pier migrations up
! pier: error: InvalidSchema: 'db/migrations/20260230000000_b.sql' is not named as a migration file (VERSION_NAME.sql): a migration file's version is a UTC time, YYYYMMDDHHMMSS: a year from 0001, a month from 01 to 12, a day the month has, hours to 23, minutes and seconds to 59
[exit 1]
$ mv db/migrations/20260230000000_b.sql db/migrations/20261231235959_b.sql
$ pier migrations up
applied   20260101000000_bom.sql
applied   20261231235959_b.sql
0
