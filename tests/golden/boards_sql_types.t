# A board column may be declared with the SQL dialect's types: uint8 ..
# uint64, decimal(p,s) and decimal, varchar(n), enum(...), uuid, date,
# time, datetime, interval and arrays, spelled as the dialect spells them
# in any case. Each reads back in one canonical spelling. Values are
# checked as a declared table checks them and stored as their canonical
# text, so that board queries compare them by value.
$ pier create-board shop --column price='DECIMAL(12,2)' --column qty=uint16 --column serial=UINT64 --column ref=uuid --column day=date --column at=time --column local=datetime --column span=interval --column code='varchar(4)' --column status="enum('todo','done')" --column tags='text[]' --column grid='INT32[][]' --column exact=decimal
1
$ pier schema shop
board shop
column      type                 origin
id          text                 base
updated_at  timestamp            base
state       text                 base
price       decimal(12,2)        declared
qty         uint16               declared
serial      uint64               declared
ref         uuid                 declared
day         date                 declared
at          time                 declared
local       datetime             declared
span        interval             declared
code        varchar(4)           declared
status      enum('todo','done')  declared
tags        text[]               declared
grid        integer[][]          declared
exact       decimal              declared
$ pier add-column shop big hugeint
2

# Unknown spellings, and known ones with a bad parameter, say why.
$ pier add-column shop x 'decimal(40,2)'
! pier: error: UnknownType: type 'decimal(40,2)' for column 'x' is refused: DECIMAL(p,s) takes a precision p from 1 to 38
[exit 1]
$ pier add-column shop x blob
! pier: error: UnknownType: type 'blob' for column 'x' is refused: blob is not a board type: JSON cannot carry bytes (keep them as text, or in a declared table)
[exit 1]
$ pier add-column shop x numeric
! pier: error: UnknownType: unknown type 'numeric' for column 'x': use boolean, tinyint, smallint, integer, bigint, hugeint, float, double, text, timestamp, json, uint8, uint16, uint32, uint64, decimal or decimal(p,s), varchar(n), enum('a',...), uuid, date, time, datetime, interval, or an array T[] or T[][] of them (not of json)
[exit 1]

# Good values: numbers reach decimals by their digits (0.1 is 0.1), a
# uint64 beyond 2^63 may be a number or a string, texts are checked by
# the type's parser and kept canonical.
$ pier insert shop '[{"id":"a","price":12.5,"qty":65535,"serial":18446744073709551615,"ref":"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11","day":"2026-03-01","at":"10:00:00.5","local":"2026-03-01 10:00:00","span":"P1Y14M","code":"żółw","status":"done","tags":["x",null],"grid":[[1,2],[]],"exact":0.10,"big":-170141183460469231731687303715884105728},{"id":"b","price":"9","serial":"9223372036854775808","at":"09:00:00","exact":12.345678901234567,"big":5},{"id":"c","price":"12.50","serial":10,"at":"10:00:00.500","big":-9223372036854775809},{"id":"d","price":100,"serial":9}]'
3
$ pier get shop a
id          a
updated_at  2026-01-01T00:00:00.000000Z
state       null
price       12.50
qty         65535
serial      18446744073709551615
ref         a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11
day         2026-03-01
at          10:00:00.500000
local       2026-03-01T10:00:00.000000
span        P2Y2M
code        żółw
status      done
tags        ["x",null]
grid        [[1,2],[]]
exact       0.1
big         -170141183460469231731687303715884105728
$ pier dump shop
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"price":"12.50","qty":65535,"serial":18446744073709551615,"ref":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11","day":"2026-03-01","at":"10:00:00.500000","local":"2026-03-01T10:00:00.000000","span":"P2Y2M","code":"żółw","status":"done","tags":["x",null],"grid":[[1,2],[]],"exact":"0.1","big":-170141183460469231731687303715884105728}
{"id":"b","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"price":"9.00","qty":null,"serial":9223372036854775808,"ref":null,"day":null,"at":"09:00:00.000000","local":null,"span":null,"code":null,"status":null,"tags":null,"grid":null,"exact":"12.345678901234567","big":5}
{"id":"c","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"price":"12.50","qty":null,"serial":10,"ref":null,"day":null,"at":"10:00:00.500000","local":null,"span":null,"code":null,"status":null,"tags":null,"grid":null,"exact":null,"big":-9223372036854775809}
{"id":"d","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"price":"100.00","qty":null,"serial":9,"ref":null,"day":null,"at":null,"local":null,"span":null,"code":null,"status":null,"tags":null,"grid":null,"exact":null,"big":null}
$ pier count shop
4
$ pier head
3

# Values that do not fit are refused, naming the reason, and write
# nothing: the count and the head stay where they were.
$ pier insert shop '{"id":"x","price":12.345}'
! pier: error: ColumnTypeConflict: column 'price' of board 'shop' is decimal(12,2), got double 12.345: more digits after the point than the column's scale allows (values are never rounded)
[exit 1]
$ pier insert shop '{"id":"x","price":12345678901}'
! pier: error: ColumnTypeConflict: column 'price' of board 'shop' is decimal(12,2), got bigint 12345678901: more digits before the point than the column's precision allows
[exit 1]
$ pier insert shop '{"id":"x","price":true}'
! pier: error: ColumnTypeConflict: column 'price' of board 'shop' is decimal(12,2), got boolean true
[exit 1]
$ pier insert shop '{"id":"x","qty":65536}'
! pier: error: ColumnTypeConflict: column 'qty' of board 'shop' is uint16, got bigint 65536: out of range for UINT16
[exit 1]
$ pier insert shop '{"id":"x","qty":"5"}'
! pier: error: ColumnTypeConflict: column 'qty' of board 'shop' is uint16, got text "5"
[exit 1]
$ pier insert shop '{"id":"x","serial":-1}'
! pier: error: ColumnTypeConflict: column 'serial' of board 'shop' is uint64, got bigint -1: out of range for UINT64
[exit 1]
$ pier insert shop '{"id":"x","serial":18446744073709551616}'
! pier: error: ColumnTypeConflict: column 'serial' of board 'shop' is uint64, got hugeint 18446744073709551616: out of range for UINT64
[exit 1]
$ pier insert shop '{"id":"x","ref":"not-a-uuid"}'
! pier: error: ColumnTypeConflict: column 'ref' of board 'shop' is uuid, got text "not-a-uuid": a UUID is 32 hex digits, as 8-4-4-4-12 with hyphens
[exit 1]
$ pier insert shop '{"id":"x","day":"2026-02-30"}'
! pier: error: ColumnTypeConflict: column 'day' of board 'shop' is date, got text "2026-02-30": a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier insert shop '{"id":"x","at":"10:00:00Z"}'
! pier: error: ColumnTypeConflict: column 'at' of board 'shop' is time, got text "10:00:00Z": a time has no time zone: drop the offset
[exit 1]
$ pier insert shop '{"id":"x","local":"2026-03-01T10:00:00Z"}'
! pier: error: ColumnTypeConflict: column 'local' of board 'shop' is datetime, got text "2026-03-01T10:00:00Z": a datetime has no time zone: drop the offset (an instant keeps one)
[exit 1]
$ pier insert shop '{"id":"x","span":"1 day"}'
! pier: error: ColumnTypeConflict: column 'span' of board 'shop' is interval, got text "1 day": an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier insert shop '{"id":"x","code":"abcde"}'
! pier: error: ColumnTypeConflict: column 'code' of board 'shop' is varchar(4), got text "abcde": longer than the column's length
[exit 1]
$ pier insert shop '{"id":"x","status":"TODO"}'
! pier: error: ColumnTypeConflict: column 'status' of board 'shop' is enum('todo','done'), got text "TODO": not one of the labels
[exit 1]
$ pier insert shop '{"id":"x","tags":[1]}'
! pier: error: ColumnTypeConflict: column 'tags' of board 'shop' is text[], got json [1]: an element is not a string or null
[exit 1]
$ pier insert shop '{"id":"x","tags":"x"}'
! pier: error: ColumnTypeConflict: column 'tags' of board 'shop' is text[], got text "x"
[exit 1]
$ pier insert shop '{"id":"x","grid":[1]}'
! pier: error: ColumnTypeConflict: column 'grid' of board 'shop' is integer[][], got json [1]: an element is not an array or null (the type has two dimensions)
[exit 1]
$ pier insert shop '[{"id":"x","price":1},{"id":"y","exact":"1.2.3"}]'
! pier: error: ColumnTypeConflict: column 'exact' of board 'shop' is decimal, got text "1.2.3": a decimal is digits with an optional point and exponent (like 12.50 or -1.5e3) (row 2)
[exit 1]
$ pier count shop
4
$ pier head
3

# Queries read every value with its type, in each format.
$ pier query shop 'SELECT id, price, qty, serial, ref, span, status, tags, exact, big FROM {{board}} ORDER BY id' --json
[
{"id":"a","price":"12.50","qty":65535,"serial":18446744073709551615,"ref":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11","span":"P2Y2M","status":"done","tags":["x",null],"exact":"0.1","big":-170141183460469231731687303715884105728},
{"id":"b","price":"9.00","qty":null,"serial":9223372036854775808,"ref":null,"span":null,"status":null,"tags":null,"exact":"12.345678901234567","big":5},
{"id":"c","price":"12.50","qty":null,"serial":10,"ref":null,"span":null,"status":null,"tags":null,"exact":null,"big":-9223372036854775809},
{"id":"d","price":"100.00","qty":null,"serial":9,"ref":null,"span":null,"status":null,"tags":null,"exact":null,"big":null}
]
$ pier query shop 'SELECT id, price, serial, tags, exact FROM {{board}} ORDER BY id' --csv
id,price,serial,tags,exact
a,12.50,18446744073709551615,"[""x"",null]",0.1
b,9.00,9223372036854775808,,12.345678901234567
c,12.50,10,,
d,100.00,9,,

# Equality and order are the type's: 12.5 is 12.50, also as a number;
# uint64 above 2^63 sorts after smaller values; hugeint beyond 64 bits in
# its place; times by value.
$ pier query shop 'SELECT id FROM {{board}} WHERE price = '\''12.5'\'' ORDER BY id' --csv
id
a
c
$ pier query shop 'SELECT id FROM {{board}} WHERE price = 12.5 ORDER BY id' --csv
id
a
c
$ pier query shop 'SELECT id, price FROM {{board}} ORDER BY price, id' --csv
id,price
b,9.00
a,12.50
c,12.50
d,100.00
$ pier query shop 'SELECT min(price) AS lo, max(price) AS hi, count(DISTINCT price) AS n FROM {{board}}' --csv
lo,hi,n
9.00,100.00,3
$ pier query shop 'SELECT price, count(*) AS n FROM {{board}} GROUP BY price ORDER BY price' --csv
price,n
9.00,1
12.50,2
100.00,1
$ pier query shop 'SELECT id, serial FROM {{board}} ORDER BY serial' --csv
id,serial
d,9
c,10
b,9223372036854775808
a,18446744073709551615
$ pier query shop 'SELECT id FROM {{board}} WHERE serial > 9223372036854775807 ORDER BY id' --csv
id
a
b
$ pier query shop 'SELECT id, big FROM {{board}} WHERE big IS NOT NULL ORDER BY big' --csv
id,big
a,-170141183460469231731687303715884105728
c,-9223372036854775809
b,5
$ pier query shop 'SELECT id, at FROM {{board}} WHERE at = '\''10:00:00.5'\'' ORDER BY at, id' --csv
id,at
a,10:00:00.500000
c,10:00:00.500000

# Updates check the same way; change records carry decimals as strings.
$ pier update shop a '{"price":"13"}'
4
$ pier update shop a '{"price":"13.001"}'
! pier: error: ColumnTypeConflict: column 'price' of board 'shop' is decimal(12,2), got text "13.001": more digits after the point than the column's scale allows (values are never rounded)
[exit 1]
$ pier changes shop --after 3
{"resync":false,"records":[{"watermark":4,"board":"shop","kind":"update","payload":{"id":"a","patch":{"price":"13.00"}},"committed_at":"2026-01-01T00:00:00.000000Z"}],"next":4}

# These types sit off the lattice: they widen to text only (keeping their
# canonical text), and nothing widens into them.
$ pier widen shop price double
! pier: error: ColumnTypeConflict: cannot widen column 'price' of board 'shop' from decimal(12,2) to double: the SQL dialect's types sit outside the widening lattice and widen only to text
[exit 1]
$ pier widen shop big decimal
! pier: error: ColumnTypeConflict: cannot widen column 'big' of board 'shop' from hugeint to decimal: nothing widens into the SQL dialect's types, which sit outside the widening lattice
[exit 1]
$ pier widen shop price text
5
$ pier widen shop qty text
6
$ pier insert shop '{"id":"e","price":"cheap"}'
7
$ pier query shop 'SELECT id, price, qty FROM {{board}} ORDER BY price' --csv
id,price,qty
d,100.00,
c,12.50,
a,13.00,65535
b,9.00,
e,cheap,
$ pier --json schema shop
{"board":"shop","strict":false,"columns":[{"name":"id","type":"text"},{"name":"updated_at","type":"timestamp"},{"name":"state","type":"text"},{"name":"price","type":"text"},{"name":"qty","type":"text"},{"name":"serial","type":"uint64"},{"name":"ref","type":"uuid"},{"name":"day","type":"date"},{"name":"at","type":"time"},{"name":"local","type":"datetime"},{"name":"span","type":"interval"},{"name":"code","type":"varchar(4)"},{"name":"status","type":"enum('todo','done')"},{"name":"tags","type":"text[]"},{"name":"grid","type":"integer[][]"},{"name":"exact","type":"decimal"},{"name":"big","type":"hugeint"}]}
