# Escape attempts: a query may read its own board (and the boards named
# with --with) and nothing else. Every attempt below fails with
# EntityNotAllowed before anything runs, and the lake is byte-for-byte what
# it was (cksum before and after; dump and head agree).
$ pier insert items '[{"id":"a","n":1}]'
2
$ pier insert other '[{"id":"s","secret":"keep out"}]'
4
$ cksum pier-data/lake.sqlite > before; pier dump other > other.before; pier head
4


# other boards by name
$ pier query items 'SELECT * FROM other'
! pier: error: EntityNotAllowed: a query reads board 'other' only as {{board:other}}, and only when its options name it
[exit 1]
$ pier query items 'SELECT * FROM "other"'
! pier: error: EntityNotAllowed: a query reads board 'other' only as {{board:other}}, and only when its options name it
[exit 1]
$ pier query items 'SELECT * FROM main.other'
! pier: error: EntityNotAllowed: a query reads board 'other' only as {{board:other}}, and only when its options name it
[exit 1]
$ pier query items 'SELECT * FROM _pier_b_other'
! pier: error: EntityNotAllowed: a query may not name '_pier_b_other': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT * FROM "_pier_b_other"'
! pier: error: EntityNotAllowed: a query may not name '_pier_b_other': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT * FROM [_pier_b_other]'
! pier: error: EntityNotAllowed: a query may not name '_pier_b_other': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT * FROM `_pier_b_other`'
! pier: error: EntityNotAllowed: a query may not name '_pier_b_other': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT * FROM _PIER_B_OTHER'
! pier: error: EntityNotAllowed: a query may not name '_PIER_B_OTHER': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT * FROM main."_pier_b_other"'
! pier: error: EntityNotAllowed: a query may not name '_pier_b_other': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT * FROM {{board}} WHERE id IN (SELECT id FROM _pier_b_other)'
! pier: error: EntityNotAllowed: a query may not name '_pier_b_other': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]

# the catalog and the change log
$ pier query items 'SELECT * FROM _pier_boards'
! pier: error: EntityNotAllowed: a query may not name '_pier_boards': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT * FROM _pier_columns'
! pier: error: EntityNotAllowed: a query may not name '_pier_columns': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT * FROM _pier_changes'
! pier: error: EntityNotAllowed: a query may not name '_pier_changes': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT * FROM _pier_meta'
! pier: error: EntityNotAllowed: a query may not name '_pier_meta': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT count(*) FROM main._pier_changes'
! pier: error: EntityNotAllowed: a query may not name '_pier_changes': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]

# SQLite's own tables
$ pier query items 'SELECT * FROM sqlite_master'
! pier: error: EntityNotAllowed: a query reads only its boards ({{board}} and the {{board:NAME}} its options name), not 'sqlite_master'
[exit 1]
$ pier query items 'SELECT * FROM sqlite_schema'
! pier: error: EntityNotAllowed: a query reads only its boards ({{board}} and the {{board:NAME}} its options name), not 'sqlite_master'
[exit 1]
$ pier query items 'SELECT * FROM "sqlite_master"'
! pier: error: EntityNotAllowed: a query reads only its boards ({{board}} and the {{board:NAME}} its options name), not 'sqlite_master'
[exit 1]
$ pier query items 'SELECT * FROM temp.sqlite_schema'
! pier: error: EntityNotAllowed: a query reads only its boards ({{board}} and the {{board:NAME}} its options name), not 'sqlite_temp_master'
[exit 1]
$ pier query items 'SELECT * FROM sqlite_sequence'
! pier: error: EntityNotAllowed: a query reads only its boards ({{board}} and the {{board:NAME}} its options name), not 'sqlite_sequence'
[exit 1]
$ pier query items 'SELECT * FROM dbstat'
! pier: error: EntityNotAllowed: a query may not change the schema, nor open virtual tables but json_each and json_tree
[exit 1]

# pragmas, as table-valued functions and as statements
$ pier query items 'SELECT * FROM pragma_table_info('\''items'\'')'
! pier: error: EntityNotAllowed: a query may not change the schema, nor open virtual tables but json_each and json_tree
[exit 1]
$ pier query items 'SELECT name FROM pragma_table_list'
! pier: error: EntityNotAllowed: a query may not change the schema, nor open virtual tables but json_each and json_tree
[exit 1]
$ pier query items 'SELECT * FROM pragma_database_list'
! pier: error: EntityNotAllowed: a query may not change the schema, nor open virtual tables but json_each and json_tree
[exit 1]
$ pier query items 'PRAGMA table_info(items)'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): PRAGMA is not allowed
[exit 1]
$ pier query items 'PRAGMA writable_schema = 1'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): PRAGMA is not allowed
[exit 1]

# attached databases and extensions
$ pier query items 'ATTACH '\''x.sqlite'\'' AS y'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): ATTACH is not allowed
[exit 1]
$ pier query items 'ATTACH DATABASE '\'':memory:'\'' AS y'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): ATTACH is not allowed
[exit 1]
$ pier query items 'DETACH y'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): DETACH is not allowed
[exit 1]
$ pier query items 'SELECT load_extension('\''x'\'')'
! pier: error: EntityNotAllowed: a query may not call load_extension()
[exit 1]
$ pier query items 'SELECT id FROM {{board}} WHERE load_extension('\''x'\'') IS NULL'
! pier: error: EntityNotAllowed: a query may not call load_extension()
[exit 1]

# writes, also in a CTE
$ pier query items 'INSERT INTO {{board}}(id) VALUES ('\''z'\'')'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): INSERT is not allowed
[exit 1]
$ pier query items 'UPDATE {{board}} SET state = '\''x'\'''
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): UPDATE is not allowed
[exit 1]
$ pier query items 'DELETE FROM {{board}}'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): DELETE is not allowed
[exit 1]
$ pier query items 'WITH x AS (SELECT 1) DELETE FROM {{board}}'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): DELETE is not allowed
[exit 1]
$ pier query items 'WITH x AS (SELECT '\''z'\'' AS id) INSERT INTO {{board}}(id) SELECT id FROM x'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): INSERT is not allowed
[exit 1]
$ pier query items 'WITH x AS (DELETE FROM {{board}} RETURNING id) SELECT * FROM x'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): DELETE is not allowed
[exit 1]

# schema changes, transactions, maintenance
$ pier query items 'CREATE TABLE t(x)'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): CREATE is not allowed
[exit 1]
$ pier query items 'CREATE TEMP VIEW v AS SELECT 1'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): CREATE is not allowed
[exit 1]
$ pier query items 'DROP TABLE _pier_b_other'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): DROP is not allowed
[exit 1]
$ pier query items 'BEGIN'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): BEGIN is not allowed
[exit 1]
$ pier query items 'COMMIT'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): COMMIT is not allowed
[exit 1]
$ pier query items 'SAVEPOINT s'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): SAVEPOINT is not allowed
[exit 1]
$ pier query items 'VACUUM INTO '\''copy.sqlite'\'''
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): VACUUM is not allowed
[exit 1]
$ pier query items 'EXPLAIN SELECT 1'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): EXPLAIN is not allowed
[exit 1]

# a second statement
$ pier query items 'SELECT 1; DROP TABLE x'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): DROP is not allowed
[exit 1]
$ pier query items 'SELECT * FROM {{board}}; SELECT * FROM _pier_changes'
! pier: error: EntityNotAllowed: a query may not name '_pier_changes': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT * FROM {{board}}; SELECT 1'
! pier: error: EntityNotAllowed: a query is one statement; another one starts at offset 25
[exit 1]

# comment tricks
$ pier query items 'SELECT * FROM {{board}} /* ; */ ; DELETE FROM {{board}}'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): DELETE is not allowed
[exit 1]
$ pier query items "$(printf 'SELECT * FROM {{board}} -- the rest\n; DROP TABLE x')"
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): DROP is not allowed
[exit 1]
$ pier query items 'SELECT * FROM /* {{board}} */ _pier_b_other'
! pier: error: EntityNotAllowed: a query may not name '_pier_b_other': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items '/* SELECT */ DELETE FROM {{board}}'
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): DELETE is not allowed
[exit 1]
$ pier query items 'SELECT * FROM sqlite_master -- {{board}}'
! pier: error: EntityNotAllowed: a query reads only its boards ({{board}} and the {{board:NAME}} its options name), not 'sqlite_master'
[exit 1]

# quoted identifiers naming another board
$ pier query items 'SELECT * FROM "_Pier_B_Other"'
! pier: error: EntityNotAllowed: a query may not name '_Pier_B_Other': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]
$ pier query items 'SELECT "_pier_b_other".id FROM {{board}}, "_pier_b_other"'
! pier: error: EntityNotAllowed: a query may not name '_pier_b_other': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
[exit 1]

# {{board:NAME}} when the options do not name it
$ pier query items 'SELECT * FROM {{board:other}}'
! pier: error: EntityNotAllowed: the query reads board 'other', which its options do not name (list it in `with` to read it as {{board:other}})
[exit 1]
$ pier query items 'SELECT * FROM {{board}} a JOIN {{board:other}} b ON a.id = b.id'
! pier: error: EntityNotAllowed: the query reads board 'other', which its options do not name (list it in `with` to read it as {{board:other}})
[exit 1]
$ pier query items 'SELECT * FROM {{board:nope}}'
! pier: error: EntityNotAllowed: the query reads board 'nope', which its options do not name (list it in `with` to read it as {{board:nope}})
[exit 1]

# Nothing was written, and the board named by --with is readable.
$ cksum pier-data/lake.sqlite | cmp - before && echo unchanged
unchanged
$ pier dump other | cmp - other.before && pier head
4
$ pier boards
items
other
$ ls pier-data
lake.sqlite
$ pier query items 'SELECT b.secret FROM {{board}} a JOIN {{board:other}} b' --with other --csv
secret
keep out
