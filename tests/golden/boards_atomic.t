# Every write is atomic: a failure anywhere in a batch leaves no row, no new
# column, no new board and no advanced watermark (the next write's watermark
# follows the last successful one).
$ pier insert tasks '{"id":"t1","n":1}'
2

# The last row fails: the new board is not created.
$ pier insert fresh '[{"id":"f1","n":1},{"id":"f2","n":2},{"n":3}]'
! pier: error: MissingId: every row needs an id (a non-empty string) (row 3); name the field that holds it with --id COL, or generate ids with --id-generate uuid7
[exit 1]
$ pier has-board fresh
false

# A new column and the rows before the failing one are not kept.
$ pier insert tasks '[{"id":"t2","n":2,"extra":"x"},{"id":"t3","n":"three"}]'
! pier: error: ColumnTypeConflict: column 'n' of board 'tasks' is bigint, got text "three" (row 2)
[exit 1]
$ pier schema tasks
board tasks
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
n           bigint     inferred
$ pier count tasks
1
$ pier insert tasks '[{"id":"t2","extra":true},{"id":"t3","_v":1}]'
! pier: error: ReservedColumnName: column name '_v' is reserved: names starting with '_' belong to the engine (row 2)
[exit 1]
$ pier insert tasks '[{"id":"t2","extra":true},{"id":"t1"}]'
! pier: error: DuplicateId: board 'tasks' already has a row with id 't1' (row 2)
[exit 1]
$ pier schema tasks
board tasks
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
n           bigint     inferred
$ pier count tasks
1
$ pier insert tasks '{"id":"t2"}'
3
