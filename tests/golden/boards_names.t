# Board ids match [a-z][a-z0-9_]{0,62}; anything else is InvalidBoardId,
# naming the rule, and nothing is created.
$ pier insert Upper '{"id":"x"}'
! pier: error: InvalidBoardId: invalid board id 'Upper': a board id matches [a-z][a-z0-9_]{0,62} (a lowercase letter, then up to 62 lowercase letters, digits or underscores)
[exit 1]
$ pier insert 9lives '{"id":"x"}'
! pier: error: InvalidBoardId: invalid board id '9lives': a board id matches [a-z][a-z0-9_]{0,62} (a lowercase letter, then up to 62 lowercase letters, digits or underscores)
[exit 1]
$ pier insert _hidden '{"id":"x"}'
! pier: error: InvalidBoardId: invalid board id '_hidden': a board id matches [a-z][a-z0-9_]{0,62} (a lowercase letter, then up to 62 lowercase letters, digits or underscores)
[exit 1]
$ pier insert with-dash '{"id":"x"}'
! pier: error: InvalidBoardId: invalid board id 'with-dash': a board id matches [a-z][a-z0-9_]{0,62} (a lowercase letter, then up to 62 lowercase letters, digits or underscores)
[exit 1]
$ pier insert '' '{"id":"x"}'
! pier: error: InvalidBoardId: invalid board id '': a board id matches [a-z][a-z0-9_]{0,62} (a lowercase letter, then up to 62 lowercase letters, digits or underscores)
[exit 1]
$ pier insert a234567890123456789012345678901234567890123456789012345678901234 '{"id":"x"}'
! pier: error: InvalidBoardId: invalid board id 'a234567890123456789012345678901234567890123456789012345678901234': a board id matches [a-z][a-z0-9_]{0,62} (a lowercase letter, then up to 62 lowercase letters, digits or underscores)
[exit 1]
$ pier insert a23456789012345678901234567890123456789012345678901234567890123 '{"id":"x"}'
2
$ pier boards
a23456789012345678901234567890123456789012345678901234567890123

# Column names are 1 to 63 bytes of UTF-8 without control characters.
$ pier insert cols '{"id":"x","":1}'
! pier: error: InvalidColumnName: invalid column name '': a column name cannot be empty
[exit 1]
$ pier insert cols '{"id":"x","c234567890123456789012345678901234567890123456789012345678901234":1}'
! pier: error: InvalidColumnName: invalid column name 'c234567890123456789012345678901234567890123456789012345678901234': a column name is at most 63 bytes
[exit 1]
$ pier insert cols '{"id":"x","tab\there":1}'
! pier: error: InvalidColumnName: invalid column name 'tab\x09here': a column name cannot hold control characters
[exit 1]
$ pier insert cols '{"id":"x","c23456789012345678901234567890123456789012345678901234567890123":1,"prix €":2,"with space":3}'
4
$ pier schema cols
board cols
column                                                           type       origin
id                                                               text       base
updated_at                                                       timestamp  base
state                                                            text       base
c23456789012345678901234567890123456789012345678901234567890123  bigint     inferred
prix €                                                           bigint     inferred
with space                                                       bigint     inferred

# Names compare case-insensitively, as SQL does; the first spelling is kept.
$ pier insert cols '{"id":"y","PRIX €":4,"With Space":5}'
5
$ pier --json get cols y
{"id":"y","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"c23456789012345678901234567890123456789012345678901234567890123":null,"prix €":4,"with space":5}
$ pier insert cols '{"id":"z","Title":1,"title":2}'
! pier: error: DuplicateColumn: a row names column 'title' twice (names are compared without regard to case)
[exit 1]
$ pier create-board twice --column a=text --column A=bigint
! pier: error: DuplicateColumn: column 'A' is declared twice
[exit 1]
$ pier has-board twice
false
