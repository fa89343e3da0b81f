# Escape attempts through full-text indexes: a query reads its own board's
# index as {{fts}} and the index of a board named with --with as
# {{fts:NAME}}, and nothing else. The tables FTS5 keeps an index in,
# another board's index, fts5vocab, the fts5() function, the data version
# and FTS5's special INSERTs are all refused before anything runs, and
# the lake is byte-for-byte what it was.
$ pier insert items '[{"id":"a","t":"open water"}]'
2
$ pier insert other '[{"id":"s","secret":"keep out"}]'
4
$ pier fts enable items t
enabled
$ pier fts enable other secret
enabled
$ cksum pier-data/lake.sqlite > before; pier head
4

# the tables FTS5 keeps the index in
$ pier query items 'SELECT * FROM _pier_f_items$_data'
! pier: error: EntityNotAllowed: a query may not name '_pier_f_items$_data': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT * FROM "_pier_f_items$_content"'
! pier: error: EntityNotAllowed: a query may not name '_pier_f_items$_content': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT * FROM {{fts}}, [_pier_f_items$_idx]'
! pier: error: EntityNotAllowed: a query may not name '_pier_f_items$_idx': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT * FROM main.`_pier_f_items$_docsize`'
! pier: error: EntityNotAllowed: a query may not name '_pier_f_items$_docsize': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT * FROM _PIER_F_ITEMS$_CONFIG'
! pier: error: EntityNotAllowed: a query may not name '_PIER_F_ITEMS$_CONFIG': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]

# another board's index: by name, or by placeholder without --with
$ pier query items 'SELECT * FROM _pier_f_other$'
! pier: error: EntityNotAllowed: a query may not name '_pier_f_other$': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT * FROM "_pier_f_other$_content"'
! pier: error: EntityNotAllowed: a query may not name '_pier_f_other$_content': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT * FROM {{fts:other}}'
! pier: error: EntityNotAllowed: the query reads the full-text index of board 'other', which its options do not name (list it in `with` to read it as {{fts:other}})
[exit 1]
$ pier query items "SELECT id FROM {{fts}} WHERE id IN (SELECT id FROM {{fts:other}} WHERE {{fts:other}} MATCH 'keep')"
! pier: error: EntityNotAllowed: the query reads the full-text index of board 'other', which its options do not name (list it in `with` to read it as {{fts:other}})
[exit 1]
$ pier query items 'SELECT * FROM {{fts:Other}}' --with other
! pier: error: EntityNotAllowed: the query reads the full-text index of board 'Other', which its options do not name (list it in `with` to read it as {{fts:Other}})
[exit 1]

# fts5vocab, the fts5() function, the data version
$ pier query items "CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, _pier_f_other$, 'row')"
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): CREATE is not allowed
[exit 1]
$ pier query items "SELECT * FROM fts5vocab('main', '_pier_f_other$', 'row')"
! pier: error: QueryFailed: the query does not compile: no such table: fts5vocab
[exit 1]
$ pier query items 'SELECT fts5(NULL)'
! pier: error: EntityNotAllowed: a query may not call fts5()
[exit 1]
$ pier query items 'PRAGMA data_version'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): PRAGMA is not allowed
[exit 1]
$ pier query items 'SELECT * FROM pragma_data_version'
! pier: error: EntityNotAllowed: a query may not change the schema, nor open virtual tables but json_each and json_tree
[exit 1]

# writes through FTS5's special INSERT commands, and plain ones
$ pier query items "INSERT INTO {{fts}}({{fts}}) VALUES ('delete-all')"
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): INSERT is not allowed
[exit 1]
$ pier query items "WITH x AS (SELECT 1) INSERT INTO {{fts}}({{fts}}, rank) VALUES ('rank', 'bm25(9)')"
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): INSERT is not allowed
[exit 1]
$ pier query items 'DELETE FROM {{fts}}'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): DELETE is not allowed
[exit 1]
$ pier query items "SELECT * FROM {{fts}}; INSERT INTO {{fts}}({{fts}}) VALUES ('optimize')"
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): INSERT is not allowed
[exit 1]

# a placeholder in a literal or a quoted name stays text
$ pier query items "SELECT '{{fts}}' AS x"
x
{{fts}}
(1 row)
$ pier query items 'SELECT * FROM "{{fts}}"'
! pier: error: QueryFailed: the query does not compile: no such table: {{fts}}
[exit 1]

# the SQL dialect (pier sql) reaches no index either: neither read, nor
# written through FTS5's commands, nor dropped
$ pier sql 'SELECT * FROM "_pier_f_other$"'
! pier: error: EntityNotAllowed: a statement of the SQL dialect may not touch PRAGMA 'data_version'
[exit 1]
$ pier sql 'SELECT * FROM "_pier_f_other$_content"'
! pier: error: EntityNotAllowed: a statement of the SQL dialect may not touch the engine's own table '_pier_f_other$_content'
[exit 1]
$ pier sql "INSERT INTO \"_pier_f_items\$\"(\"_pier_f_items\$\") VALUES ('delete-all')"
! pier: error: EntityNotAllowed: a statement of the SQL dialect may not touch the engine's own table '_pier_f_items$'
[exit 1]
$ pier sql 'DROP TABLE "_pier_f_items$"'
! pier: error: EntityNotAllowed: the name '_pier_f_items$' is reserved: names starting with _pier_ belong to the engine
[exit 1]

# Nothing was written; the index named with --with is readable.
$ cksum pier-data/lake.sqlite | cmp - before && echo unchanged; pier head
unchanged
4
$ pier query items "SELECT id FROM {{fts:other}} WHERE {{fts:other}} MATCH 'keep'" --with other
id
s
(1 row)
