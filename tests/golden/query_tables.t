# A board-scoped query joins declared tables and views (pier sql) when its
# options list them (--with-table NAME) and the template names them as
# {{table:NAME}}: real values come back. Anything else stays fenced: a
# table not listed, or listed but read by its own name, the engine's and
# SQLite's tables, a view through another view, writes. The lake is
# byte-for-byte what it was after the refusals.
$ pier insert orders '[{"id":"o1","sku":"A","qty":2},{"id":"o2","sku":"B","qty":1},{"id":"o3","sku":"C","qty":5}]'
2
$ pier sql "CREATE TABLE prices(sku TEXT PRIMARY KEY, amount INTEGER)"
$ pier sql "INSERT INTO prices VALUES ('A', 10), ('B', 25)"
2 rows changed
$ pier sql "CREATE TABLE secret(x ANY)"
$ pier sql "INSERT INTO secret VALUES ('keep out')"
1 row changed
$ pier sql "CREATE VIEW cheap AS SELECT sku, amount FROM prices WHERE amount < 20"
$ pier sql "CREATE VIEW cheaper AS SELECT * FROM cheap"

# a join, an outer join, an aggregate, a view
$ pier query orders "SELECT o.id, o.qty * p.amount AS total FROM {{board}} o JOIN {{table:prices}} p ON p.sku = o.sku ORDER BY o.id" --with-table prices
id  total
o1  20
o2  25
(2 rows)
$ pier query orders "SELECT o.id, p.amount FROM {{board}} o LEFT JOIN {{table:prices}} p ON p.sku = o.sku ORDER BY o.id" --with-table prices --json
[
{"id":"o1","amount":10},
{"id":"o2","amount":25},
{"id":"o3","amount":null}
]
$ pier query orders "SELECT sum(o.qty * p.amount) AS revenue, count(*) AS n FROM {{board}} o, {{table:prices}} p WHERE p.sku = o.sku" --with-table prices
revenue  n
45       2
(1 row)
$ pier query orders "SELECT o.id, c.amount FROM {{board}} o JOIN {{table:cheap}} c ON c.sku = o.sku" --with-table cheap
id  amount
o1  10
(1 row)
$ pier query orders "SELECT count(*) AS n FROM {{table:Prices}}" --with-table PRICES
n
2
(1 row)

# a table and another board together
$ pier insert skus '[{"id":"A","name":"Apple"},{"id":"B","name":"Bread"}]'
4
$ pier query orders "SELECT o.id, s.name, p.amount FROM {{board}} o JOIN {{board:skus}} s ON s.id = o.sku JOIN {{table:prices}} p ON p.sku = o.sku ORDER BY o.id" --with skus --with-table prices
id  name   amount
o1  Apple  10
o2  Bread  25
(2 rows)

$ cksum pier-data/lake.sqlite > before; pier head
4

# refused: not listed, listed but read by name, another table beside it
$ pier query orders "SELECT * FROM {{table:prices}}"
! pier: error: EntityNotAllowed: the query reads table 'prices', which its options do not name (list it in `tables`, or pier query --with-table, to read it as {{table:prices}})
[exit 1]
$ pier query orders "SELECT * FROM prices" --with-table prices
! pier: error: EntityNotAllowed: a query reads only its boards ({{board}} and the {{board:NAME}} its options name), not 'prices'
[exit 1]
$ pier query orders "SELECT * FROM {{table:prices}}, secret" --with-table prices
! pier: error: EntityNotAllowed: a query reads only its boards ({{board}} and the {{board:NAME}} its options name), not 'secret'
[exit 1]
$ pier query orders "SELECT * FROM {{table:prices}} WHERE sku IN (SELECT x FROM main.secret)" --with-table prices
! pier: error: EntityNotAllowed: a query reads only its boards ({{board}} and the {{board:NAME}} its options name), not 'secret'
[exit 1]
$ pier query orders "SELECT * FROM {{table:prices}}" --with-table secret
! pier: error: EntityNotAllowed: the query reads table 'prices', which its options do not name (list it in `tables`, or pier query --with-table, to read it as {{table:prices}})
[exit 1]

# refused: the engine's and SQLite's tables, whatever is listed
$ pier query orders "SELECT * FROM {{table:_pier_boards}}" --with-table _pier_boards
! pier: error: EntityNotAllowed: a query may not read '_pier_boards' as a table: names starting with '_pier_' or 'sqlite_' are the engine's and SQLite's own
[exit 1]
$ pier query orders "SELECT * FROM {{table:_pier_b_skus}}" --with-table _pier_b_skus
! pier: error: EntityNotAllowed: a query may not read '_pier_b_skus' as a table: names starting with '_pier_' or 'sqlite_' are the engine's and SQLite's own
[exit 1]
$ pier query orders "SELECT * FROM {{table:sqlite_schema}}" --with-table sqlite_schema
! pier: error: EntityNotAllowed: a query may not read 'sqlite_schema' as a table: names starting with '_pier_' or 'sqlite_' are the engine's and SQLite's own
[exit 1]
$ pier query orders "SELECT * FROM {{table:SQLITE_MASTER}}" --with-table SQLITE_MASTER
! pier: error: EntityNotAllowed: a query may not read 'SQLITE_MASTER' as a table: names starting with '_pier_' or 'sqlite_' are the engine's and SQLite's own
[exit 1]

# refused: a view read through a view not named, a table that is not there,
# a board named as a table
$ pier query orders "SELECT * FROM {{table:cheaper}}" --with-table cheaper
! pier: error: EntityNotAllowed: a query reads only its boards ({{board}} and the {{board:NAME}} its options name), not 'prices'
[exit 1]
$ pier query orders "SELECT * FROM {{table:nope}}" --with-table nope
! pier: error: TableNotFound: no table or view 'nope' (a query reads declared tables and views as {{table:NAME}}; boards as {{board:NAME}})
[exit 1]
$ pier query orders "SELECT * FROM {{table:skus}}" --with-table skus
! pier: error: TableNotFound: no table or view 'skus' (a query reads declared tables and views as {{table:NAME}}; boards as {{board:NAME}})
[exit 1]

# refused: writes, and a CTE standing for a listed table elsewhere
$ pier query orders "DELETE FROM {{table:prices}}" --with-table prices
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): DELETE is not allowed
[exit 1]
$ pier query orders "WITH x AS (SELECT 1) UPDATE {{table:prices}} SET amount = 0" --with-table prices
! pier: error: EntityNotAllowed: a query is one read-only SELECT (or WITH ... SELECT): UPDATE is not allowed
[exit 1]
$ pier query orders "WITH prices AS (SELECT 1) SELECT count(*) FROM prices" --with-table prices
! pier: error: EntityNotAllowed: a query's CTE may not be named like a table of the lake ('prices'): name it otherwise
[exit 1]

# {{table}} without a name is no placeholder
$ pier query orders "SELECT * FROM {{table}}"
! pier: error: QueryFailed: the query does not compile: unrecognized token: "{" (at byte 14 of the query)
[exit 1]

# Nothing was written.
$ cksum pier-data/lake.sqlite | cmp - before && echo unchanged; pier head; pier sql "SELECT * FROM prices ORDER BY sku"
unchanged
4
sku  amount
A    10
B    25
(2 rows)

# The shell names tables as pier query --with-table does: .with-table, in
# place of those named before; alone, none.
$ printf '%s\n' '.with-table prices' 'SELECT count(*) AS n FROM {{table:prices}}' '.with-table' 'SELECT count(*) AS n FROM {{table:prices}}' '.with-table a b c d e f g h i' | pier shell orders
n
2
(1 row)
queries join no declared table
! pier: error: EntityNotAllowed: the query reads table 'prices', which its options do not name (list it in `tables`, or pier query --with-table, to read it as {{table:prices}})
! pier: usage: .with-table names at most 8 tables
[exit 1]
