# pier backup DEST writes a complete copy of the lake into a new
# directory, and pier restore SRC puts such a copy back (docs/backup.md).
# Refusals leave DEST, the lake and SRC as they were.
$ pier insert b '[{"id":"a","n":1},{"id":"b","n":null}]'
2
$ pier create-board s --column 'amount=decimal(12,2)' --strict
3
$ pier sql "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL)" >/dev/null
$ pier sql "INSERT INTO t VALUES (1, 'one')"
1 row changed
$ pier backup bk
$ ls bk
lake.sqlite
$ pier --data bk dump b
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":1}
{"id":"b","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":null}
$ pier --data bk schema s
board s (strict)
column      type           origin
id          text           base
updated_at  timestamp      base
state       text           base
amount      decimal(12,2)  declared
$ pier --data bk sql "SELECT * FROM t"
id  name
1   one
(1 row)
$ pier --data bk head
3

# A backup of a read-only open works too; a nested DEST gets its parents.
$ pier --readonly backup deep/er/bk
$ pier --data deep/er/bk count b
2

# DEST must not exist, unless --force; --force replaces only a lake (or
# an empty directory), never the lake being copied.
$ pier backup bk
! pier: error: InvalidArgument: 'bk' exists: back up to a new directory (or replace it with --force)
[exit 1]
$ pier insert b '{"id":"c"}'
4
$ pier backup --force bk
$ pier --data bk count b
3
$ mkdir empty && pier backup empty --force && pier --data empty count b
3
$ mkdir other && echo keep > other/notes.txt
$ pier backup --force other
! pier: error: InvalidArgument: 'other' holds more than a lake: it was left alone
[exit 1]
$ ls other
notes.txt
$ mkdir alien && echo 'not a lake' > alien/lake.sqlite
$ pier backup --force alien
! pier: error: LakeUnavailable: 'alien/lake.sqlite' is not a Pier lake (not a SQLite database)
[exit 1]
$ cat alien/lake.sqlite
not a lake
$ echo file > afile && pier backup --force afile
! pier: error: InvalidArgument: 'afile' exists and is not a directory holding a lake: it was left alone
[exit 1]
$ pier backup --force pier-data
! pier: error: InvalidArgument: 'pier-data' is the lake being backed up
[exit 1]
$ pier --data nope backup bk2
! pier: error: LakeUnavailable: no lake at 'nope': 'nope/lake.sqlite' does not exist (a read makes no lake)
[exit 1]
$ pier backup ''
! pier: usage: backup: DEST cannot be empty
! Try 'pier backup --help'.
[exit 2]
$ pier backup
! pier: usage: backup: missing argument DEST
! Try 'pier backup --help'.
[exit 2]
$ ls -a | grep pier- ; ls -a deep/er | grep pier- ; true
pier-data

# Restore puts the copy back: the row written after it is gone, and
# everything else (boards, types, tables, the feed's head) is the copy's.
$ pier insert b '{"id":"d"}' && pier sql "DROP TABLE t" >/dev/null
5
$ pier restore deep/er/bk
$ pier dump b
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":1}
{"id":"b","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":null}
$ pier tables
t
$ pier head
3
$ pier insert b '{"id":"e"}'
4

# Restore makes a missing lake; it refuses a SRC that is not a lake, and
# a lake file that is not Pier's.
$ pier --data fresh restore bk && pier --data fresh count b
3
$ pier restore nowhere
! pier: error: LakeUnavailable: no lake at 'nowhere': 'nowhere/lake.sqlite' does not exist (a read makes no lake)
[exit 1]
$ pier restore alien
! pier: error: LakeUnavailable: 'alien/lake.sqlite' is not a Pier lake (not a SQLite database)
[exit 1]
$ pier --data alien restore bk
! pier: error: LakeUnavailable: 'alien/lake.sqlite' is not a Pier lake; it was left alone
[exit 1]
$ cat alien/lake.sqlite
not a lake
$ pier restore pier-data
! pier: error: InvalidArgument: 'pier-data' is the lake being restored: restore from a backup of it
[exit 1]
$ pier --lake postgres://nowhere/x restore bk
! pier: error: TopologyUnsupported: restore: not available on a PostgreSQL lake (restore its database with pg_restore)
[exit 1]
$ pier count b
3
