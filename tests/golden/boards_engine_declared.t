# --columns=declared makes every board refuse undeclared columns, not just
# strict ones: the board's own strict bit and the engine option gate the
# same check, and either is enough.
$ pier insert loose '{"id":"a","n":1}'
2
$ pier --columns=declared insert loose '{"id":"b","n":2,"extra":true}'
! pier: error: UnknownColumn: column 'extra' was never declared on board 'loose', and this engine takes declared columns only
[exit 1]
$ pier --columns=declared insert loose '{"id":"b","n":2}'
3
$ pier schema loose
board loose
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
n           bigint     inferred
$ pier count loose
2

# Under it an auto-created board only takes the base columns.
$ pier --columns=declared insert fresh '{"id":"a","x":1}'
! pier: error: UnknownColumn: column 'x' was never declared on board 'fresh', and this engine takes declared columns only
[exit 1]
$ pier has-board fresh
false
$ pier --columns=declared insert fresh '{"id":"a","state":"new"}'
5
$ pier --columns=declared add-column fresh x bigint
6
$ pier --columns=declared insert fresh '{"id":"b","x":1}'
7
$ pier count fresh
2
