# Column names starting with "_" belong to the engine (the version stamp
# _v, for one): a write or a declaration naming one is refused with
# ReservedColumnName and writes nothing.
$ pier insert b '{"id":"x","state":"active","_v":1}'
! pier: error: ReservedColumnName: column name '_v' is reserved: names starting with '_' belong to the engine
[exit 1]
$ pier has-board b
false
$ pier insert b '{"id":"x","_":1}'
! pier: error: ReservedColumnName: column name '_' is reserved: names starting with '_' belong to the engine
[exit 1]
$ pier create-board c --column _secret=text
! pier: error: ReservedColumnName: column name '_secret' is reserved: names starting with '_' belong to the engine
[exit 1]
$ pier has-board c
false
$ pier create-board c
1
$ pier add-column c _v bigint
! pier: error: ReservedColumnName: column name '_v' is reserved: names starting with '_' belong to the engine
[exit 1]

# The base columns cannot be redeclared, in any case.
$ pier create-board d --column id=text
! pier: error: ReservedColumnName: 'id' is a base column of every board and cannot be redeclared
[exit 1]
$ pier create-board d --column Updated_At=timestamp
! pier: error: ReservedColumnName: 'Updated_At' is a base column of every board and cannot be redeclared
[exit 1]
$ pier add-column c state text
! pier: error: ReservedColumnName: 'state' is a base column of every board and cannot be redeclared
[exit 1]
$ pier add-column c ID text
! pier: error: ReservedColumnName: 'ID' is a base column of every board and cannot be redeclared
[exit 1]
$ pier boards
c
