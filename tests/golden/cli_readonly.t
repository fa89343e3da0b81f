# --readonly opens a lake for reading only (docs/backup.md): every read
# command works as without it, every write fails with WriteFailed, and
# nothing is written: the lake file is byte-identical afterwards.
$ pier insert b '[{"id":"a","n":1},{"id":"b","n":2,"note":"x"}]'
2
$ pier create-board s --column amount=double --strict
3
$ pier sql "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL)" && pier sql "INSERT INTO t VALUES (1, 'one')"
1 row changed
$ cp pier-data/lake.sqlite before.sqlite

# Reads.
$ pier --readonly boards
b
s
$ pier --readonly count b
2
$ pier --readonly get b a --json
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":1,"note":null}
$ pier --readonly dump b
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":1,"note":null}
{"id":"b","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":2,"note":"x"}
$ pier --readonly schema s
board s (strict)
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
amount      double     declared
$ pier --readonly query b 'SELECT sum(n) AS total FROM {{board}}'
total
3
(1 row)
$ pier --readonly head
3
$ pier --readonly changes b --json | head -c 40; echo
{"resync":false,"records":[{"watermark":
$ pier --readonly tables
t
$ pier --readonly sql "SELECT name FROM t"
name
one
(1 row)
$ pier --readonly has-board b
true

# Writes: each refused, naming the lake.
$ pier --readonly insert b '{"id":"c"}'
! pier: error: WriteFailed: the lake './pier-data' is open read-only (--readonly): nothing was written
[exit 1]
$ pier --readonly update b a '{"n":5}'
! pier: error: WriteFailed: the lake './pier-data' is open read-only (--readonly): nothing was written
[exit 1]
$ pier --readonly delete b a
! pier: error: WriteFailed: the lake './pier-data' is open read-only (--readonly): nothing was written
[exit 1]
$ pier --readonly create-board z
! pier: error: WriteFailed: the lake './pier-data' is open read-only (--readonly): nothing was written
[exit 1]
$ pier --readonly add-column b extra text
! pier: error: WriteFailed: the lake './pier-data' is open read-only (--readonly): nothing was written
[exit 1]
$ pier --readonly truncate b
! pier: error: WriteFailed: the lake './pier-data' is open read-only (--readonly): nothing was written
[exit 1]
$ pier --readonly drop b
! pier: error: WriteFailed: the lake './pier-data' is open read-only (--readonly): nothing was written
[exit 1]
$ echo '[{"op":"insert","board":"b","rows":[{"id":"t"}]}]' | pier --readonly tx --boards b -
! pier: error: WriteFailed: the lake './pier-data' is open read-only (--readonly): nothing was written
[exit 1]
$ pier --readonly maintain
! pier: error: WriteFailed: the lake './pier-data' is open read-only (--readonly): nothing was written
[exit 1]
$ pier --readonly sql "INSERT INTO t VALUES (2, 'two')"
! pier: error: WriteFailed: the lake './pier-data' is open read-only (--readonly): a statement that writes is refused, and nothing was written
[exit 1]
$ pier --readonly sql "CREATE TABLE u(id INTEGER PRIMARY KEY)"
! pier: error: WriteFailed: the lake './pier-data' is open read-only (--readonly): nothing was written (cannot change the catalog)
[exit 1]
$ pier --readonly sql "SELECT 1 AS x; DELETE FROM t"
! pier: error: WriteFailed: the lake './pier-data' is open read-only (--readonly): a statement that writes is refused, and nothing was written
[exit 1]
$ pier --readonly restore elsewhere
! pier: error: WriteFailed: restore writes the lake, which --readonly forbids: nothing was written
[exit 1]
$ cmp before.sqlite pier-data/lake.sqlite && echo unchanged
unchanged
$ pier count b
2

# A missing lake is not made.
$ pier --readonly --data nope boards
! pier: error: LakeUnavailable: no lake at 'nope': 'nope/lake.sqlite' does not exist (a read makes no lake)
[exit 1]
$ pier --readonly --data nope insert b '{"id":"a"}'
! pier: error: LakeUnavailable: no lake at 'nope': 'nope/lake.sqlite' does not exist (a read makes no lake)
[exit 1]
$ test -e nope || echo absent
absent

# A flag: it takes no value, and may come after the command.
$ pier --readonly=yes boards
! pier: usage: option '--readonly' takes no value
! Try 'pier --help'.
[exit 2]
$ pier count b --readonly
2
