# A board's full-text index in a query: {{fts}} for the query's board,
# {{fts:NAME}} for a board named with --with; MATCH, bm25(), snippet() and
# highlight() work on it, and its id column joins it to the board.
$ pier insert notes '[{"id":"a","title":"Lake house","body":"Blue water by the café"},{"id":"b","title":"Hill","body":"Green grass, no water"},{"id":"c","title":"Town","body":"Streets"}]'
2
$ pier insert tags '[{"id":"t1","note":"a","label":"summer holiday"},{"id":"t2","note":"c","label":"winter"}]'
4
$ pier fts enable notes title body
enabled
$ pier fts enable tags label
enabled

# search joined to the board, best match first; a parameter binds the query
$ pier query notes "SELECT n.id, n.title FROM {{board}} n JOIN {{fts}} f ON f.id = n.id WHERE {{fts}} MATCH :q ORDER BY bm25({{fts}}), n.id" --param q=water
id  title
b   Hill
a   Lake house
(2 rows)
$ pier query notes "SELECT id FROM {{board}} WHERE id IN (SELECT id FROM {{fts}} WHERE {{fts}} MATCH :q)" --param q='title:lake'
id
a
(1 row)

# diacritics and case are folded: cafe finds café
$ pier query notes "SELECT id FROM {{fts}} WHERE {{fts}} MATCH 'CAFE'"
id
a
(1 row)

# snippet() and highlight()
$ pier query notes "SELECT id, highlight({{fts}}, 1, '[', ']') AS t, snippet({{fts}}, 2, '<', '>', '...', 3) AS s FROM {{fts}} WHERE {{fts}} MATCH 'water' ORDER BY id"
id  t           s
a   Lake house  Blue <water> by...
b   Hill        ...grass, no <water>
(2 rows)

# an alias names the table; the index's own column keeps its name
$ pier query notes "SELECT f.id FROM {{fts}} f WHERE {{fts}} MATCH 'grass'"
id
b
(1 row)
$ pier query notes "SELECT f.id FROM {{fts}} f WHERE f MATCH 'grass'"
! pier: error: QueryFailed: the query does not compile: no such column: f (at byte 33 of the query)
[exit 1]

# another board's index, named with --with
$ pier query notes "SELECT n.id, t.label FROM {{board}} n JOIN {{board:tags}} t ON t.note = n.id WHERE t.id IN (SELECT id FROM {{fts:tags}} WHERE {{fts:tags}} MATCH 'holiday')" --with tags
id  label
a   summer holiday
(1 row)

# a board without an index, and an index not named with --with
$ pier insert plain '{"id":"p"}'
6
$ pier query plain "SELECT id FROM {{fts}}"
! pier: error: QueryFailed: board 'plain' has no full-text index (pier fts enable plain COLUMN... makes one)
[exit 1]
$ pier query notes "SELECT id FROM {{fts:tags}}"
! pier: error: EntityNotAllowed: the query reads the full-text index of board 'tags', which its options do not name (list it in `with` to read it as {{fts:tags}})
[exit 1]

# a malformed MATCH expression is the query's failure
$ pier query notes "SELECT id FROM {{fts}} WHERE {{fts}} MATCH 'AND AND'"
! pier: error: ReadFailed: the query failed: fts5: syntax error near "AND"
[exit 1]

# snippet() of a column the index does not have: FTS5 fails it, with a
# MATCH as out of range, without one as out of memory, which the query
# reports as what it is (ReadFailed, not OutOfMemory)
$ pier query notes "SELECT id, snippet({{fts}}, 5, '[', ']', '...', 3) AS s FROM {{fts}} WHERE {{fts}} MATCH 'water'"
! pier: error: ReadFailed: the query failed: column index out of range
[exit 1]
$ pier query notes "SELECT id, snippet({{fts}}, 5, '[', ']', '...', 3) AS s FROM {{fts}}"
! pier: error: ReadFailed: the query failed: FTS5 failed it as out of memory, which it does for snippet() of a column the index does not have
[exit 1]
$ pier query notes "SELECT id, snippet({{fts}}, 2, '[', ']', '...', 3) AS s FROM {{fts}} WHERE id = 'c'"
id  s
c   Streets
(1 row)

# {{board:fts}} names a board called fts, as {{board:NAME}} always does; the
# refusal says where the indexes are.
$ pier query notes "SELECT id FROM {{board:fts}} WHERE {{board:fts}} MATCH 'water'"
! pier: error: EntityNotAllowed: the query reads board 'fts', which its options do not name (list it in `with` to read it as {{board:fts}}); a board's full-text index is {{fts}}, another board's {{fts:NAME}}
[exit 1]
