# `insert BOARD -` streams stdin: a JSON array of objects, or JSON lines
# (objects separated by any white space). It prints the watermark of the
# last batch; an empty stream writes nothing and prints the current head.
$ echo '[{"id":"a","n":1}, {"id":"b","n":2}]' | pier insert arr -
2
$ pier count arr
2
$ printf '{"id":"a"}\n{"id":"b"}\t{"id":"c"}  {"id":"d",\n "n":[1,{"k":"}"}]}\n' | pier insert lines -
4
$ pier dump lines
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":null}
{"id":"b","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":null}
{"id":"c","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":null}
{"id":"d","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":[1,{"k":"}"}]}
$ printf '' | pier insert lines -
4
$ echo '[ ]' | pier insert lines -
4
$ pier --json insert lines - < /dev/null
{"watermark":4}

# More than 1000 rows: three batches (1000, 1000, 500), one write each,
# all committed.
$ seq 1 2500 | awk '{printf "{\"id\":\"r%05d\",\"n\":%d}\n", $1, $1}' | pier insert big -
8
$ pier count big
2500
$ seq 1 2500 | awk 'BEGIN{printf "["} {printf "%s{\"id\":\"s%05d\"}", (NR>1?",":""), $1} END{print "]"}' | pier --json insert big -
{"watermark":11}
$ pier --json count big
{"count":5000}

# Braces and brackets inside strings, and escaped quotes, do not end an
# object early.
$ echo '{"id":"x1","t":"a}b{c"} {"id":"x2","t":"q\"}"}' | pier insert str -
13
$ pier dump str
{"id":"x1","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"t":"a}b{c"}
{"id":"x2","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"t":"q\"}"}

# What the splitter itself refuses: errors at byte offsets of stdin.
$ echo '{"id":"a"},{"id":"b"}' | pier insert bad -
! pier: error: InvalidJson: expected an object at byte 10 of stdin (JSON lines are objects separated by white space) (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ echo '[{"id":"a"},]' | pier insert bad -
! pier: error: InvalidJson: expected an object at byte 12 of stdin (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ echo '[{"id":"a"}' | pier insert bad -
! pier: error: InvalidJson: stdin ends at byte 12, before the array is closed (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ printf '{"id":"a"' | pier insert bad -
! pier: error: InvalidJson: stdin ends at byte 9, inside the object that starts at byte 0 (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ echo '[{"id":"a"}] x' | pier --json insert bad -
! {"error":"InvalidJson","message":"unexpected data after the array at byte 13 of stdin (batch 1 of stdin not written; 0 rows committed before it)"}
[exit 1]
$ echo '"id"' | pier insert bad -
! pier: error: InvalidJson: expected an object or an array of objects at byte 0 of stdin (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ pier has-board bad
false
