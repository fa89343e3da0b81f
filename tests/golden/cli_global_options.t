# Global options may come before the command or after it, among its own
# arguments: --json, --data DIR (and --data=DIR), --durability... A
# command's own option of the same name wins (query's --json is its
# output format). An unknown option is a usage error wherever it stands.
$ pier --data d insert b '{"id":"a","n":1}' --json
{"watermark":2}
$ pier boards --data d --json
["b"]
$ pier count b --data=d --json
{"count":1}
$ pier get b a --json --data d
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":1}
$ pier insert b '{"id":"c","n":2}' --data d --durability normal
3
$ pier query b 'SELECT count(*) AS n FROM {{board}}' --data d --jsonl
{"n":2}
$ pier boards --data d --bogus
! pier: usage: boards: unknown option '--bogus'
! Try 'pier boards --help'.
[exit 2]
$ pier boards --data
! pier: usage: option '--data' needs a value
! Try 'pier --help'.
[exit 2]
$ pier boards --data d --json=yes
! pier: usage: option '--json' takes no value
! Try 'pier --help'.
[exit 2]
