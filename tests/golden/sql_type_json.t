# JSON holds any valid document as written; typed arrays T[] and T[][]
# hold JSON arrays whose elements are values of T (null allowed), and read
# back with each element canonical.
$ pier sql "CREATE TABLE j (doc JSON, tags TEXT[], nums INT64[], grid INT8[][], ids UUID[], amounts DECIMAL(6,2)[], flags BOOLEAN[])"
$ pier sql "INSERT INTO j VALUES ('{\"b\": [1, 2], \"a\": null}', '[\"x\", null, \"y\"]', '[1, -2, 3]', '[[1, 2], [], [127]]', '[\"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11\"]', '[\"1.5\", 2]', '[true, false]'), ('42', '[]', '[]', '[]', '[]', '[]', '[]')"
2 rows changed
$ pier sql "SELECT * FROM j" --jsonl
{"doc":{"b": [1, 2], "a": null},"tags":["x",null,"y"],"nums":[1,-2,3],"grid":[[1,2],[],[127]],"ids":["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"],"amounts":["1.50","2.00"],"flags":[true,false]}
{"doc":42,"tags":[],"nums":[],"grid":[],"ids":[],"amounts":[],"flags":[]}
$ pier sql "INSERT INTO j(doc) VALUES ('{\"a\": ')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '{"a": ': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(tags) VALUES ('[1]')"
! pier: error: ColumnTypeConflict: column 'tags' of table 'j' is TEXT[], got '[1]': an element is not a string or null
[exit 1]
$ pier sql "INSERT INTO j(tags) VALUES ('\"x\"')"
! pier: error: ColumnTypeConflict: column 'tags' of table 'j' is TEXT[], got '"x"': not a JSON array
[exit 1]
$ pier sql "INSERT INTO j(nums) VALUES ('[1, 2.5]')"
! pier: error: ColumnTypeConflict: column 'nums' of table 'j' is INT64[], got '[1, 2.5]': an element is not an INT64 (a JSON integer of 64 bits) or null
[exit 1]
$ pier sql "INSERT INTO j(grid) VALUES ('[1, 2]')"
! pier: error: ColumnTypeConflict: column 'grid' of table 'j' is INT8[][], got '[1, 2]': an element is not an array or null (the type has two dimensions)
[exit 1]
$ pier sql "INSERT INTO j(grid) VALUES ('[[128]]')"
! pier: error: ColumnTypeConflict: column 'grid' of table 'j' is INT8[][], got '[[128]]': an element is not an INT8 (a JSON integer from -128 to 127) or null
[exit 1]
$ pier sql "INSERT INTO j(ids) VALUES ('[\"nope\"]')"
! pier: error: ColumnTypeConflict: column 'ids' of table 'j' is UUID[], got '["nope"]': an element is not a UUID (a string) or null
[exit 1]
$ pier sql "INSERT INTO j(amounts) VALUES ('[\"1.234\"]')"
! pier: error: ColumnTypeConflict: column 'amounts' of table 'j' is DECIMAL(6,2)[], got '["1.234"]': an element is not a decimal of the column's precision and scale (a JSON number or string) or null
[exit 1]
$ pier sql "SELECT count(*) AS n FROM j"
n
2
(1 row)
$ pier sql "CREATE TABLE bad (a JSON[])"
! pier: error: UnknownType: column 'a': JSON has no arrays: a JSON column holds any array
[exit 1]
$ pier sql "CREATE TABLE bad (a ANY[])"
! pier: error: UnknownType: column 'a': ANY has no arrays: a JSON column holds any array
[exit 1]
