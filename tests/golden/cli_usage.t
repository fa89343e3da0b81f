# Usage errors: a mistake in the command line is reported on stderr as
# `pier: usage: ...` with a hint naming the right --help, exits 2, and
# touches nothing (no data directory is created).
$ pier
! pier: usage: no command given
! Try 'pier --help'.
[exit 2]
$ pier frobnicate
! pier: usage: unknown command 'frobnicate'
! Try 'pier --help'.
[exit 2]
$ pier --bogus count b
! pier: usage: unknown option '--bogus'
! Try 'pier --help'.
[exit 2]
$ pier --data
! pier: usage: option '--data' needs a value
! Try 'pier --help'.
[exit 2]
$ pier --data '' count b
! pier: usage: option '--data' needs a directory
! Try 'pier --help'.
[exit 2]
$ pier --json=yes boards
! pier: usage: option '--json' takes no value
! Try 'pier --help'.
[exit 2]
$ pier --auto-create=sometimes count b
! pier: usage: option '--auto-create' takes on-write or never, not 'sometimes'
! Try 'pier --help'.
[exit 2]
$ pier --columns guess count b
! pier: usage: option '--columns' takes infer or declared, not 'guess'
! Try 'pier --help'.
[exit 2]
$ pier --durability=fast count b
! pier: usage: option '--durability' takes full or normal, not 'fast'
! Try 'pier --help'.
[exit 2]
$ pier count
! pier: usage: count: missing argument BOARD
! Try 'pier count --help'.
[exit 2]
$ pier count a b
! pier: usage: count: unexpected argument 'b'
! Try 'pier count --help'.
[exit 2]
$ pier get a
! pier: usage: get: missing argument ID
! Try 'pier get --help'.
[exit 2]
$ pier insert a
! pier: usage: insert: missing argument JSON|- (or --csv FILE|-, --tsv FILE|-)
! Try 'pier insert --help'.
[exit 2]
$ pier add-column a b
! pier: usage: add-column: missing argument TYPE
! Try 'pier add-column --help'.
[exit 2]
$ pier count -x
! pier: usage: count: unknown option '-x'
! Try 'pier count --help'.
[exit 2]
$ pier boards extra
! pier: usage: boards: unexpected argument 'extra'
! Try 'pier boards --help'.
[exit 2]
$ pier create-board
! pier: usage: create-board: missing argument BOARD
! Try 'pier create-board --help'.
[exit 2]
$ pier create-board b --column price
! pier: usage: create-board: bad --column 'price': expected NAME=TYPE
! Try 'pier create-board --help'.
[exit 2]
$ pier create-board b --column =bigint
! pier: usage: create-board: bad --column '=bigint': expected NAME=TYPE
! Try 'pier create-board --help'.
[exit 2]
$ pier create-board b --column price=
! pier: usage: create-board: bad --column 'price=': expected NAME=TYPE
! Try 'pier create-board --help'.
[exit 2]
$ pier create-board b --column
! pier: usage: create-board: option '--column' needs a value
! Try 'pier create-board --help'.
[exit 2]
$ pier create-board b --strict=yes
! pier: usage: create-board: option '--strict' takes no value
! Try 'pier create-board --help'.
[exit 2]
$ pier create-board b --colum price=bigint
! pier: usage: create-board: unknown option '--colum'
! Try 'pier create-board --help'.
[exit 2]
$ pier help nope
! pier: usage: unknown command 'nope'
! Try 'pier --help'.
[exit 2]
$ pier help count insert
! pier: usage: help: unexpected argument 'insert'
! Try 'pier help --help'.
[exit 2]

# A malformed PIER_NOW is a usage error too, reported once the command's
# arguments are known to be fine.
$ PIER_NOW=yesterday pier count b
! pier: usage: PIER_NOW: 'yesterday' is not an RFC 3339 instant of the years 0001 to 9999, like 2026-01-01T00:00:00Z
! Try 'pier --help'.
[exit 2]
$ PIER_NOW=2026-02-29T00:00:00Z pier count b
! pier: usage: PIER_NOW: '2026-02-29T00:00:00Z' is not an RFC 3339 instant of the years 0001 to 9999, like 2026-01-01T00:00:00Z
! Try 'pier --help'.
[exit 2]
$ PIER_NOW=2026-01-01T00:00:00 pier count b
! pier: usage: PIER_NOW: '2026-01-01T00:00:00' is not an RFC 3339 instant of the years 0001 to 9999, like 2026-01-01T00:00:00Z
! Try 'pier --help'.
[exit 2]
$ PIER_NOW=2026-01-01T24:00:00Z pier count b
! pier: usage: PIER_NOW: '2026-01-01T24:00:00Z' is not an RFC 3339 instant of the years 0001 to 9999, like 2026-01-01T00:00:00Z
! Try 'pier --help'.
[exit 2]
$ PIER_NOW=0000-12-31T23:59:59Z pier count b
! pier: usage: PIER_NOW: '0000-12-31T23:59:59Z' is not an RFC 3339 instant of the years 0001 to 9999, like 2026-01-01T00:00:00Z
! Try 'pier --help'.
[exit 2]

# Global options go before the command or after it (here there is no lake
# yet, which a read does not make).
$ pier count b --json
! {"error":"LakeUnavailable","message":"no lake at './pier-data': './pier-data/lake.sqlite' does not exist (a read makes no lake)"}
[exit 1]
$ ls -A
