# The global options map to pier_open_options: --auto-create, --columns and
# --durability, each as --opt=value or --opt value; they go before the
# command.
$ pier --auto-create=never insert b '{"id":"a"}'
! pier: error: BoardNotFound: no board 'b', and this engine creates boards only explicitly (auto-create is never)
[exit 1]
$ pier --auto-create never create-board b
1
$ pier --auto-create=never insert b '{"id":"a","n":1}'
3
$ pier --auto-create=on-write insert c '{"id":"a"}'
5

# --columns=declared: every board refuses columns that were not declared.
$ pier --columns=declared insert b '{"id":"x","m":2}'
! pier: error: UnknownColumn: column 'm' was never declared on board 'b', and this engine takes declared columns only
[exit 1]
$ pier --columns declared add-column b m bigint
6
$ pier --columns=declared insert b '{"id":"x","m":2}'
7
$ pier --columns=infer insert b '{"id":"y","o":3}'
9
$ pier schema b
board b
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
n           bigint     inferred
m           bigint     declared
o           bigint     inferred

# --durability changes how a commit is synced, not what is written.
$ pier --durability=normal insert b '{"id":"z"}'
10
$ pier --durability full count b
4

# The time of writes comes from PIER_NOW: an instant with an offset and a
# fraction is stored in UTC, to the microsecond.
$ PIER_NOW=2026-06-30T23:30:00.1234567-01:00 pier insert t '{"id":"a"}'
12
$ pier --json get t a
{"id":"a","updated_at":"2026-07-01T00:30:00.123456Z","state":null}
$ PIER_NOW=2024-02-29t12:00:00z pier insert t '{"id":"b"}'
13
$ PIER_NOW='2000-01-01 00:00:00+05:30' pier insert t '{"id":"c"}'
14
$ pier dump t
{"id":"a","updated_at":"2026-07-01T00:30:00.123456Z","state":null}
{"id":"b","updated_at":"2024-02-29T12:00:00.000000Z","state":null}
{"id":"c","updated_at":"1999-12-31T18:30:00.000000Z","state":null}
