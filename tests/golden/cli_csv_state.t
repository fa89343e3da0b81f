# The base column state is text on every board: a CSV field of it is read
# as text, like the id, whether the board exists yet or not; an empty
# field is no state.
$ printf 'id,state\nr1,5\nr2,\nr3,open\n' > s.csv && pier insert c --csv s.csv
2

$ pier query c 'SELECT id, state FROM {{board}} ORDER BY id' --json
[
{"id":"r1","state":"5"},
{"id":"r2","state":null},
{"id":"r3","state":"open"}
]

$ pier insert c --csv - <<< $'id,state\nr4,7'
3

$ pier query c 'SELECT id, state, typeof(state) AS t FROM {{board}} WHERE id = :i' --param i=r4 --json
[
{"id":"r4","state":"7","t":"text"}
]
