# Bad JSON is InvalidJson with the byte offset of the fault; nothing is
# written.
$ pier insert b '{"id":"x",}'
! pier: error: InvalidJson: expected a member name at byte 10
[exit 1]
$ pier insert b '{"id":"x" "n":1}'
! pier: error: InvalidJson: expected ',' or '}' at byte 10
[exit 1]
$ pier insert b '[{"id":"x"},'
! pier: error: InvalidJson: expected an object at byte 12
[exit 1]
$ pier insert b '"just a string"'
! pier: error: InvalidJson: expected an object or an array of objects at byte 0
[exit 1]
$ pier insert b '[1,2]'
! pier: error: InvalidJson: expected an object or ']' at byte 1
[exit 1]
$ pier insert b '{"id":"x","n":01}'
! pier: error: InvalidJson: leading zero in a number at byte 14
[exit 1]
$ pier insert b '{"id":"x","n":NaN}'
! pier: error: InvalidJson: expected a value at byte 14
[exit 1]
$ pier insert b '{"id":"x","s":"unterminated}'
! pier: error: InvalidJson: unterminated string at byte 14
[exit 1]
$ pier insert b '{"id":"x","doc":{"a":[1,2}}'
! pier: error: InvalidJson: invalid JSON at byte 25: ']' expected near '}'
[exit 1]
$ pier insert b ''
! pier: error: InvalidJson: empty input at byte 0
[exit 1]
$ pier has-board b
false

# Oversized input is refused with LimitExceeded, not a crash: a row over
# 1 MiB.
$ head -c 1100000 /dev/zero | tr '\0' a | awk '{ printf "{\"id\":\"big\",\"s\":\"%s\"}", $0 }' | pier insert b -
! pier: error: LimitExceeded: the object at byte 0 of stdin is larger than 1048576 bytes, the most one row may take (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ pier has-board b
false

# A row just under the limit is fine.
$ head -c 1000000 /dev/zero | tr '\0' a | awk '{ printf "{\"id\":\"big\",\"s\":\"%s\"}", $0 }' | pier insert b -
2
$ pier count b
1
