# The shell's .dump: a board's rows as `pier dump` prints them, a declared
# table's rows as JSON lines, and alone the lake's schema as `pier schema
# dump` prints it. A name that is neither is BoardNotFound.
$ pier insert tasks '[{"id":"b","n":2},{"id":"a","n":1}]'
2
$ pier sql "CREATE TABLE parts (id INT64 PRIMARY KEY, name TEXT); INSERT INTO parts VALUES (2, 'bolt'), (1, 'nut')"
2 rows changed
$ printf '%s\n' '.dump tasks' '.dump parts' '.dump' | pier shell
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":1}
{"id":"b","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":2}
{"id":1,"name":"nut"}
{"id":2,"name":"bolt"}
CREATE BOARD tasks (
    "n" bigint INFERRED
);
CREATE TABLE "parts" (
    "id" INT64 PRIMARY KEY,
    "name" TEXT
);

# Errors: an unknown name, two names; the shell goes on.
$ printf '%s\n' '.dump nope' '.dump Nope' '.dump tasks parts' '.dump parts' | pier shell
{"id":1,"name":"nut"}
{"id":2,"name":"bolt"}
! pier: error: BoardNotFound: no board or declared table 'nope'
! pier: error: BoardNotFound: no board or declared table 'Nope'
! pier: usage: .dump takes at most one board or table
[exit 1]
