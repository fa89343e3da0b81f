# An integer beyond 128 bits for a column the write would infer: the
# message says the value is what no number column holds, not that a
# column which does not exist has a type; nothing is written.
$ pier insert big '{"id":"x","a":1234567890123456789012345678901234567890123}'
! pier: error: ColumnTypeConflict: column 'a' of board 'big' cannot take integer 1234567890123456789012345678901234567890123: it is beyond 128 bits, which no number column holds exactly; write it as a string
[exit 1]

$ pier boards --json
[]

$ pier insert b '{"id":"x","n":1.5}'
2

$ pier insert b '{"id":"y","n":2.5,"c":-1234567890123456789012345678901234567890123}'
! pier: error: ColumnTypeConflict: column 'c' of board 'b' cannot take integer -1234567890123456789012345678901234567890123: it is beyond 128 bits, which no number column holds exactly; write it as a string
[exit 1]

$ pier insert b '{"id":"y","n":1234567890123456789012345678901234567890123}'
! pier: error: ColumnTypeConflict: column 'n' of board 'b' is double, got integer 1234567890123456789012345678901234567890123: an integer beyond 128 bits, which no number column holds exactly; write it as a string
[exit 1]

$ pier count b
1
