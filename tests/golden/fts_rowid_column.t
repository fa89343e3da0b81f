# A board column of its own named "rowid" (or "oid") does not shadow the
# row's SQLite rowid that ties it to its full-text entry: a deleted row
# leaves the index, any value may go in the column, two rows may hold the
# same one, and an export of the board imports to the same lake.
$ pier insert t '[{"id":"a","body":"apple","rowid":2},{"id":"b","body":"banana"}]'
2

$ pier fts enable t body
enabled

$ pier delete t b
3

$ pier query t 'SELECT f.id FROM {{fts}} f WHERE {{fts}} MATCH :q' --param q=banana --json
[]

$ pier query t 'SELECT f.id FROM {{fts}} f WHERE {{fts}} MATCH :q' --param q=apple --json
[
{"id":"a"}
]

$ pier insert u '{"id":"1","body":"hello","rowid":"x","oid":"y"}'
5

$ pier fts enable u body
enabled

$ pier query u 'SELECT f.id FROM {{fts}} f WHERE {{fts}} MATCH :q' --param q=hello --json
[
{"id":"1"}
]

$ pier insert v '{"id":"1","body":"hello","rowid":5}'
7

$ pier fts enable v body
enabled

$ pier insert v '{"id":"2","body":"world","rowid":5}'
8

$ pier query v 'SELECT f.id, v.rowid FROM {{fts}} f JOIN {{board}} v ON v.id = f.id WHERE {{fts}} MATCH :q' --param q=world --json
[
{"id":"2","rowid":5}
]

# The export names the rowid by a name the board's columns leave free.
$ pier export e.jsonl && grep -c '"columns":\["_rowid_","id"' e.jsonl
3

$ pier --data copy import e.jsonl && pier --data copy export e2.jsonl && cmp e.jsonl e2.jsonl && echo same
same

$ pier --data copy query u 'SELECT f.id FROM {{fts}} f WHERE {{fts}} MATCH :q' --param q=hello --json
[
{"id":"1"}
]
