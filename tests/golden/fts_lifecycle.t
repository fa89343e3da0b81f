# A board's full-text index (pier fts) is made over text columns, indexes
# the rows already there, and stays in step with every write path: insert,
# update, upsert, delete, tx, adding and widening columns, compact and
# maintain, truncate. Drop takes the index with the board; disable
# removes it.
$ pier insert notes '[{"id":"a","title":"Lake house","body":"blue water","n":1},{"id":"b","title":"Hill","body":"green grass","n":2}]'
2
$ pier fts status notes
[]
$ pier fts enable notes title body
enabled
$ pier fts status notes
["title","body"]
$ pier --json fts status notes
{"board":"notes","columns":["title","body"]}
$ pier query notes "SELECT id FROM {{fts}} WHERE {{fts}} MATCH 'water OR grass' ORDER BY id"
id
a
b
(2 rows)

# insert
$ pier insert notes '{"id":"c","title":"Water mill","body":"old stones","n":3}'
3
$ pier query notes "SELECT id FROM {{fts}} WHERE {{fts}} MATCH 'water' ORDER BY id"
id
a
c
(2 rows)

# update: the old words go, the new ones come
$ pier update notes b '{"body":"dry sand"}'
4
$ pier query notes "SELECT id FROM {{fts}} WHERE {{fts}} MATCH 'grass' ORDER BY id"
id
(0 rows)
$ pier query notes "SELECT id FROM {{fts}} WHERE {{fts}} MATCH 'sand' ORDER BY id"
id
b
(1 row)

# upsert: a complete row replaces the stored one (a column it omits reads null)
$ pier upsert notes '[{"id":"a","title":"Boat","n":1},{"id":"d","title":"Sand castle","body":"sea","n":4}]'
5
$ pier query notes "SELECT id, title, body FROM {{fts}} WHERE {{fts}} MATCH 'sand OR lake OR boat' ORDER BY id"
id  title        body
a   Boat         null
b   Hill         dry sand
d   Sand castle  sea
(3 rows)

# delete
$ pier delete notes b
6
$ pier query notes "SELECT id FROM {{fts}} WHERE {{fts}} MATCH 'sand' ORDER BY id"
id
d
(1 row)

# tx: its writes are indexed with it; a failed tx indexes nothing
$ echo '[{"op":"insert","board":"notes","rows":[{"id":"e","title":"Forest","body":"tall trees"}]},{"op":"delete","board":"notes","ids":["d"]},{"op":"update","board":"notes","id":"c","patch":{"body":"mossy"}}]' | pier tx --boards notes -
9
$ pier query notes "SELECT id FROM {{fts}} WHERE {{fts}} MATCH 'trees OR sand OR mossy OR stones' ORDER BY id"
id
c
e
(2 rows)
$ echo '[{"op":"insert","board":"notes","rows":[{"id":"f","title":"Meadow"}]},{"op":"insert","board":"notes","rows":[{"id":"e"}]}]' | pier tx --boards notes -
! pier: error: DuplicateId: board 'notes' already has a row with id 'e' (operation 2)
[exit 1]
$ pier query notes "SELECT count(*) AS n FROM {{fts}} WHERE {{fts}} MATCH 'meadow'"
n
0
(1 row)

# adding and widening columns leaves the index working
$ pier add-column notes extra text
10
$ pier widen notes n double
11
$ pier insert notes '{"id":"g","title":"River","body":"fast water","extra":"x","n":2.5}'
12
$ pier query notes "SELECT id FROM {{fts}} WHERE {{fts}} MATCH 'water' ORDER BY id"
id
c
g
(2 rows)

# compact and maintain (which returns free pages to the file system)
# leave it in step
$ pier compact notes
0
$ pier maintain > /dev/null
$ pier query notes "SELECT id FROM {{fts}} WHERE {{fts}} MATCH 'water OR trees' ORDER BY id"
id
c
e
g
(3 rows)

# every row has its entry, and no entry is left without its row
$ pier query notes "SELECT (SELECT count(*) FROM {{board}}) AS rows, (SELECT count(*) FROM {{fts}}) AS entries, (SELECT count(*) FROM {{board}} b JOIN {{fts}} f ON f.id = b.id AND f.title IS b.title AND f.body IS b.body) AS equal"
rows  entries  equal
4     4        4
(1 row)

# truncate empties it
$ pier truncate notes
13
$ pier query notes "SELECT count(*) AS n FROM {{fts}}"
n
0
(1 row)
$ pier insert notes '{"id":"h","title":"After","body":"water again"}'
14
$ pier query notes "SELECT id FROM {{fts}} WHERE {{fts}} MATCH 'water'"
id
h
(1 row)

# disable removes it; enable again indexes what is there
$ pier fts disable notes
disabled
$ pier fts status notes
[]
$ pier query notes "SELECT id FROM {{fts}}"
! pier: error: QueryFailed: board 'notes' has no full-text index (pier fts enable notes COLUMN... makes one)
[exit 1]
$ pier --json fts enable notes body
{"board":"notes","fts":true}
$ pier query notes "SELECT id, body FROM {{fts}} WHERE {{fts}} MATCH 'again'"
id  body
h   water again
(1 row)

# dropping the board drops its index: a new board of that name has none
$ pier drop notes
15
$ pier insert notes '{"id":"z","title":"New"}'
17
$ pier fts status notes
[]
$ pier fts enable notes title
enabled
$ pier query notes "SELECT id FROM {{fts}} WHERE {{fts}} MATCH 'new'"
id
z
(1 row)
