# T[] and T[][]: typed arrays of any scalar type but JSON and ANY, kept
# as JSON text: a JSON array whose elements are values of T or null (for
# T[][], arrays of them or null; no deeper). An element is spelled as in
# JSON: numbers and booleans bare, the others as strings (integers of
# UINT64 and INT128 and decimals also as strings, BLOB as hex digits),
# and it is checked as a value of T is: ranges, lengths, labels,
# precision and scale, calendars. A value that is not a JSON array, or
# holds an element that is not a T, is refused, and a refused statement
# or script writes nothing. An array reads back as compact JSON with
# each element in T's canonical form, in every format. Arrays compare as
# their stored text (there is no collation); written in the form they
# read back as, they are equal, group and round-trip through --jsonl and
# --param, and the schema through a dump.
$ pier sql "CREATE TABLE a (k INT64 PRIMARY KEY, tags TEXT[], nums INT64[], grid INT8[][], ids UUID[], amounts DECIMAL(6,2)[], flags BOOLEAN[], big UINT64[], huge INT128[], f FLOAT32[], d DOUBLE[], bytes BLOB[], at INSTANT[], days DATE[], times TIME[], dts DATETIME[], ivs INTERVAL[], states ENUM('a','b''c')[], short VARCHAR(2)[], words TEXT [] [])"
$ pier schema a
table a
column   type                readonly
k        INT64               no
tags     TEXT[]              no
nums     INT64[]             no
grid     INT8[][]            no
ids      UUID[]              no
amounts  DECIMAL(6,2)[]      no
flags    BOOLEAN[]           no
big      UINT64[]            no
huge     INT128[]            no
f        FLOAT32[]           no
d        DOUBLE[]            no
bytes    BLOB[]              no
at       INSTANT[]           no
days     DATE[]              no
times    TIME[]              no
dts      DATETIME[]          no
ivs      INTERVAL[]          no
states   ENUM('a','b''c')[]  no
short    VARCHAR(2)[]        no
words    TEXT[][]            no

# Rows written in the form they read back as: every element type, null
# elements, empty arrays, NULL columns.
$ pier sql "INSERT INTO a VALUES (1, '[\"x\",null,\"y\"]', '[1,-2,3]', '[[1,2],[],[127]]', '[\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\"]', '[\"1.50\",\"2.00\"]', '[true,false]', '[0,18446744073709551615]', '[-170141183460469231731687303715884105728,170141183460469231731687303715884105727]', '[0.1,3.4028235e+38]', '[0.1,1.7976931348623157e+308]', '[\"00FF\",\"\"]', '[\"2026-03-01T08:00:00.000000Z\"]', '[\"2024-02-29\",\"0001-01-01\"]', '[\"23:59:59.999999\"]', '[\"9999-12-31T23:59:59.999999\"]', '[\"P1Y2M3DT4H5M6.5S\",\"PT0S\"]', '[\"a\",\"b''c\"]', '[\"éé\",\"😀\"]', '[[\"a\",\"b\"],null,[]]'), (2, '[]', '[]', '[]', '[]', '[]', '[]', '[]', '[]', '[]', '[]', '[]', '[]', '[]', '[]', '[]', '[]', '[]', '[]', '[]'), (3, NULL, '[null]', '[null,[null]]', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), (4, '[\"a\"]', '[9223372036854775807,-9223372036854775808]', '[[-128]]', NULL, '[\"-9999.99\"]', '[null]', '[0]', '[0]', '[-0.5]', '[2.0]', '[\"DEADBEEF\"]', NULL, NULL, NULL, NULL, NULL, '[\"b''c\"]', '[\"ab\"]', '[[]]'), (5, '[\"a\",\"b\"]', '[2]', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), (6, '[\"b\"]', '[10]', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)"
6 rows changed

# Every spelling an element takes is read back in T's canonical form:
# white space, escapes, integers as strings with leading zeros, decimals
# as numbers or strings at any scale, UUIDs in any case, instants with
# offsets, blobs in lower case, intervals and times in any notation.
$ pier sql "INSERT INTO a(k, tags, nums, ids, amounts, big, huge, f, bytes, at, times, dts, ivs, states, short, words) VALUES (100, ' [ \"\\u0061\" , \"tab\\t\" ] ', '[ 1 , -0 ]', '[\"A0EEBC999C0B4EF8BB6D6BB9BD380A11\"]', '[1.5, \"2.500\", 1e2, \"-0\"]', '[\"007\", 18446744073709551615]', '[\"-0\", \"0170141183460469231731687303715884105727\"]', '[1, 3.4028234663852886e38]', '[\"deadbeef\"]', '[\"2026-03-01T10:00:00+02:00\", \"2026-03-01t08:00:00.5z\"]', '[\"10:00:00.5\"]', '[\"2026-03-01 10:00:00\"]', '[\"P1W\", \"pt3600s\", \"P1Y-1M\"]', '[\"\\u0061\"]', '[\"\\u00e9\\u00e9\"]', '[[ \"a\" ], [ ] ]') RETURNING tags, nums, ids, amounts, big, huge, f, bytes, at, times, dts, ivs, states, short, words" --jsonl
{"tags":["a","tab\t"],"nums":[1,0],"ids":["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"],"amounts":["1.50","2.50","100.00","0.00"],"big":[7,18446744073709551615],"huge":[0,170141183460469231731687303715884105727],"f":[1.0,3.4028235e+38],"bytes":["DEADBEEF"],"at":["2026-03-01T08:00:00.000000Z","2026-03-01T08:00:00.500000Z"],"times":["10:00:00.500000"],"dts":["2026-03-01T10:00:00.000000"],"ivs":["P7D","PT1H","P11M"],"states":["a"],"short":["éé"],"words":[["a"],[]]}
$ pier sql "INSERT INTO a(k, tags, nums, grid, ids, amounts, flags) VALUES (101, '[\"x\", null, \"y\"]', '[1, -2, 3]', '[[1, 2], [], [127]]', '[\"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11\"]', '[\"1.5\", 2]', '[true, false]') RETURNING tags, nums, grid, ids, amounts, flags" --jsonl
{"tags":["x",null,"y"],"nums":[1,-2,3],"grid":[[1,2],[],[127]],"ids":["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"],"amounts":["1.50","2.00"],"flags":[true,false]}
$ pier sql "DELETE FROM a WHERE k >= 100"
2 rows changed

# Refused: a value that is not a JSON array (a string, an object, a
# number, an SQL number, text that is not JSON), a blob; an element that
# is not a T (a number for TEXT, a fraction or exponent for an integer,
# a value out of range, a bad UUID, more scale or precision than the
# decimal's, a number for BOOLEAN, a bad hex string, a missing zone, a
# day that does not exist, a time with a zone, an unknown label, a text
# too long, a non-duration), an array whose nesting does not match.
$ pier sql "INSERT INTO a(tags) VALUES ('\"x\"')"
! pier: error: ColumnTypeConflict: column 'tags' of table 'a' is TEXT[], got '"x"': not a JSON array
[exit 1]
$ pier sql "INSERT INTO a(tags) VALUES ('{}')"
! pier: error: ColumnTypeConflict: column 'tags' of table 'a' is TEXT[], got '{}': not a JSON array
[exit 1]
$ pier sql "INSERT INTO a(tags) VALUES ('1')"
! pier: error: ColumnTypeConflict: column 'tags' of table 'a' is TEXT[], got '1': not a JSON array
[exit 1]
$ pier sql "INSERT INTO a(tags) VALUES (1)"
! pier: error: ColumnTypeConflict: column 'tags' of table 'a' is TEXT[], got '1': not a JSON array
[exit 1]
$ pier sql "INSERT INTO a(tags) VALUES ('[\"a\",]')"
! pier: error: ColumnTypeConflict: column 'tags' of table 'a' is TEXT[], got '["a",]': not valid JSON
[exit 1]
$ pier sql "INSERT INTO a(tags) VALUES ('[\"a\"')"
! pier: error: ColumnTypeConflict: column 'tags' of table 'a' is TEXT[], got '["a"': not valid JSON
[exit 1]
$ pier sql "INSERT INTO a(tags) VALUES (x'5b5d')"
! pier: error: ColumnTypeConflict: column 'tags' of table 'a' is TEXT[], got a blob value
[exit 1]
$ pier sql "INSERT INTO a(tags) VALUES ('[1]')"
! pier: error: ColumnTypeConflict: column 'tags' of table 'a' is TEXT[], got '[1]': an element is not a string or null
[exit 1]
$ pier sql "INSERT INTO a(nums) VALUES ('[1, 2.5]')"
! pier: error: ColumnTypeConflict: column 'nums' of table 'a' is INT64[], got '[1, 2.5]': an element is not an INT64 (a JSON integer of 64 bits) or null
[exit 1]
$ pier sql "INSERT INTO a(nums) VALUES ('[1e2]')"
! pier: error: ColumnTypeConflict: column 'nums' of table 'a' is INT64[], got '[1e2]': an element is not an INT64 (a JSON integer of 64 bits) or null
[exit 1]
$ pier sql "INSERT INTO a(nums) VALUES ('[9223372036854775808]')"
! pier: error: ColumnTypeConflict: column 'nums' of table 'a' is INT64[], got '[9223372036854775808]': an element is not an INT64 (a JSON integer of 64 bits) or null
[exit 1]
$ pier sql "INSERT INTO a(nums) VALUES ('[\"1\"]')"
! pier: error: ColumnTypeConflict: column 'nums' of table 'a' is INT64[], got '["1"]': an element is not an INT64 (a JSON integer of 64 bits) or null
[exit 1]
$ pier sql "INSERT INTO a(grid) VALUES ('[[128]]')"
! pier: error: ColumnTypeConflict: column 'grid' of table 'a' is INT8[][], got '[[128]]': an element is not an INT8 (a JSON integer from -128 to 127) or null
[exit 1]
$ pier sql "INSERT INTO a(grid) VALUES ('[1, 2]')"
! pier: error: ColumnTypeConflict: column 'grid' of table 'a' is INT8[][], got '[1, 2]': an element is not an array or null (the type has two dimensions)
[exit 1]
$ pier sql "INSERT INTO a(grid) VALUES ('[[1], 2]')"
! pier: error: ColumnTypeConflict: column 'grid' of table 'a' is INT8[][], got '[[1], 2]': an element is not an array or null (the type has two dimensions)
[exit 1]
$ pier sql "INSERT INTO a(grid) VALUES ('[[[1]]]')"
! pier: error: ColumnTypeConflict: column 'grid' of table 'a' is INT8[][], got '[[[1]]]': an element is not an INT8 (a JSON integer from -128 to 127) or null
[exit 1]
$ pier sql "INSERT INTO a(nums) VALUES ('[[1]]')"
! pier: error: ColumnTypeConflict: column 'nums' of table 'a' is INT64[], got '[[1]]': an element is not an INT64 (a JSON integer of 64 bits) or null
[exit 1]
$ pier sql "INSERT INTO a(ids) VALUES ('[\"nope\"]')"
! pier: error: ColumnTypeConflict: column 'ids' of table 'a' is UUID[], got '["nope"]': an element is not a UUID (a string) or null
[exit 1]
$ pier sql "INSERT INTO a(amounts) VALUES ('[\"1.234\"]')"
! pier: error: ColumnTypeConflict: column 'amounts' of table 'a' is DECIMAL(6,2)[], got '["1.234"]': an element is not a decimal of the column's precision and scale (a JSON number or string) or null
[exit 1]
$ pier sql "INSERT INTO a(amounts) VALUES ('[10000]')"
! pier: error: ColumnTypeConflict: column 'amounts' of table 'a' is DECIMAL(6,2)[], got '[10000]': an element is not a decimal of the column's precision and scale (a JSON number or string) or null
[exit 1]
$ pier sql "INSERT INTO a(flags) VALUES ('[1]')"
! pier: error: ColumnTypeConflict: column 'flags' of table 'a' is BOOLEAN[], got '[1]': an element is not true, false or null
[exit 1]
$ pier sql "INSERT INTO a(big) VALUES ('[18446744073709551616]')"
! pier: error: ColumnTypeConflict: column 'big' of table 'a' is UINT64[], got '[18446744073709551616]': an element is not a UINT64 (a JSON integer or a string of digits, 0 to 18446744073709551615) or null
[exit 1]
$ pier sql "INSERT INTO a(big) VALUES ('[-1]')"
! pier: error: ColumnTypeConflict: column 'big' of table 'a' is UINT64[], got '[-1]': an element is not a UINT64 (a JSON integer or a string of digits, 0 to 18446744073709551615) or null
[exit 1]
$ pier sql "INSERT INTO a(huge) VALUES ('[\"170141183460469231731687303715884105728\"]')"
! pier: error: ColumnTypeConflict: column 'huge' of table 'a' is INT128[], got '["170141183460469231731687303715884105728"]': an element is not an INT128 (a JSON integer or a string of digits, of 128 bits) or null
[exit 1]
$ pier sql "INSERT INTO a(f) VALUES ('[3.5e38]')"
! pier: error: ColumnTypeConflict: column 'f' of table 'a' is FLOAT32[], got '[3.5e38]': an element is not a FLOAT32 (a JSON number within a float's range) or null
[exit 1]
$ pier sql "INSERT INTO a(d) VALUES ('[1e309]')"
! pier: error: ColumnTypeConflict: column 'd' of table 'a' is DOUBLE[], got '[1e309]': an element is not a DOUBLE (a JSON number within a double's range) or null
[exit 1]
$ pier sql "INSERT INTO a(d) VALUES ('[\"1\"]')"
! pier: error: ColumnTypeConflict: column 'd' of table 'a' is DOUBLE[], got '["1"]': an element is not a DOUBLE (a JSON number within a double's range) or null
[exit 1]
$ pier sql "INSERT INTO a(bytes) VALUES ('[\"0\"]')"
! pier: error: ColumnTypeConflict: column 'bytes' of table 'a' is BLOB[], got '["0"]': an element is not a BLOB (a string of hex digits, two a byte) or null
[exit 1]
$ pier sql "INSERT INTO a(bytes) VALUES ('[\"zz\"]')"
! pier: error: ColumnTypeConflict: column 'bytes' of table 'a' is BLOB[], got '["zz"]': an element is not a BLOB (a string of hex digits, two a byte) or null
[exit 1]
$ pier sql "INSERT INTO a(at) VALUES ('[\"2026-03-01T10:00:00\"]')"
! pier: error: ColumnTypeConflict: column 'at' of table 'a' is INSTANT[], got '["2026-03-01T10:00:00"]': an element is not an instant (an RFC 3339 string with Z or an offset) or null
[exit 1]
$ pier sql "INSERT INTO a(days) VALUES ('[\"2026-02-29\"]')"
! pier: error: ColumnTypeConflict: column 'days' of table 'a' is DATE[], got '["2026-02-29"]': an element is not a date (a string YYYY-MM-DD) or null
[exit 1]
$ pier sql "INSERT INTO a(times) VALUES ('[\"10:00:00Z\"]')"
! pier: error: ColumnTypeConflict: column 'times' of table 'a' is TIME[], got '["10:00:00Z"]': an element is not a time (a string HH:MM:SS, no zone) or null
[exit 1]
$ pier sql "INSERT INTO a(dts) VALUES ('[\"2026-03-01T10:00:00+02:00\"]')"
! pier: error: ColumnTypeConflict: column 'dts' of table 'a' is DATETIME[], got '["2026-03-01T10:00:00+02:00"]': an element is not a datetime (a string, no zone) or null
[exit 1]
$ pier sql "INSERT INTO a(ivs) VALUES ('[\"1 day\"]')"
! pier: error: ColumnTypeConflict: column 'ivs' of table 'a' is INTERVAL[], got '["1 day"]': an element is not an interval (an ISO 8601 duration string) or null
[exit 1]
$ pier sql "INSERT INTO a(states) VALUES ('[\"A\"]')"
! pier: error: ColumnTypeConflict: column 'states' of table 'a' is ENUM('a','b''c')[], got '["A"]': an element is not one of the labels (a string) or null
[exit 1]
$ pier sql "INSERT INTO a(short) VALUES ('[\"éée\"]')"
! pier: error: ColumnTypeConflict: column 'short' of table 'a' is VARCHAR(2)[], got '["éée"]': an element is not a string within the column's length, or null
[exit 1]
$ pier sql "INSERT INTO a(words) VALUES ('[[\"a\"], \"b\"]')"
! pier: error: ColumnTypeConflict: column 'words' of table 'a' is TEXT[][], got '[["a"], "b"]': an element is not an array or null (the type has two dimensions)
[exit 1]
$ pier sql "SELECT count(*) AS n FROM a" --csv
n
6

# A refusal at the end of a script leaves nothing of it.
$ pier sql "INSERT INTO a(k, tags) VALUES (30, '[\"new\"]'); UPDATE a SET nums = '[0]' WHERE k = 1; INSERT INTO a(k, nums) VALUES (31, '[1.5]')"
! pier: error: ColumnTypeConflict: column 'nums' of table 'a' is INT64[], got '[1.5]': an element is not an INT64 (a JSON integer of 64 bits) or null
[exit 1]
$ pier sql "SELECT count(*) AS n, sum(k >= 30) AS new, sum(nums = '[0]') AS changed FROM a" --csv
n,new,changed
6,0,0

# Two dimensions at most; an array's element type is a type of the
# dialect, in its canonical spelling.
$ pier sql "CREATE TABLE bad (a TEXT[][][])"
! pier: error: UnknownType: column 'a': arrays have at most two dimensions (T[][])
[exit 1]
$ pier sql "CREATE TABLE bad (a INT[])"
! pier: error: UnknownType: column 'a': type INT is not supported: use INT32 or INT64 (INTEGER is INT64)
[exit 1]
$ pier sql "CREATE TABLE bad (a VARCHAR[])"
! pier: error: UnknownType: column 'a': VARCHAR takes its maximum length, VARCHAR(n) (or use TEXT)
[exit 1]

# Reading back: compact JSON in the table, JSON and CSV.
$ pier sql "SELECT k, tags, nums, grid, amounts, big, words FROM a ORDER BY k"
k  tags            nums                                        grid              amounts          big                       words
1  ["x",null,"y"]  [1,-2,3]                                    [[1,2],[],[127]]  ["1.50","2.00"]  [0,18446744073709551615]  [["a","b"],null,[]]
2  []              []                                          []                []               []                        []
3  null            [null]                                      [null,[null]]     null             null                      null
4  ["a"]           [9223372036854775807,-9223372036854775808]  [[-128]]          ["-9999.99"]     [0]                       [[]]
5  ["a","b"]       [2]                                         null              null             null                      null
6  ["b"]           [10]                                        null              null             null                      null
(6 rows)
$ pier sql "SELECT * FROM a WHERE k = 1" --json
[
{"k":1,"tags":["x",null,"y"],"nums":[1,-2,3],"grid":[[1,2],[],[127]],"ids":["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"],"amounts":["1.50","2.00"],"flags":[true,false],"big":[0,18446744073709551615],"huge":[-170141183460469231731687303715884105728,170141183460469231731687303715884105727],"f":[0.1,3.4028235e+38],"d":[0.1,1.7976931348623157e+308],"bytes":["00FF",""],"at":["2026-03-01T08:00:00.000000Z"],"days":["2024-02-29","0001-01-01"],"times":["23:59:59.999999"],"dts":["9999-12-31T23:59:59.999999"],"ivs":["P1Y2M3DT4H5M6.5S","PT0S"],"states":["a","b'c"],"short":["éé","😀"],"words":[["a","b"],null,[]]}
]
$ pier sql "SELECT k, tags, grid, huge, states FROM a ORDER BY k" --csv
k,tags,grid,huge,states
1,"[""x"",null,""y""]","[[1,2],[],[127]]","[-170141183460469231731687303715884105728,170141183460469231731687303715884105727]","[""a"",""b'c""]"
2,[],[],[],[]
3,,"[null,[null]]",,
4,"[""a""]",[[-128]],[0],"[""b'c""]"
5,"[""a"",""b""]",,,
6,"[""b""]",,,

# Equality is the stored text's: '=' with the text an array reads as,
# GROUP BY, DISTINCT and a UNIQUE index; SQLite's JSON functions reach
# the elements.
$ pier sql "SELECT k FROM a WHERE tags = '[\"a\",\"b\"]' OR nums = '[1,-2,3]' ORDER BY k" --csv
k
1
5
$ pier sql "UPDATE a SET tags = '[\"a\"]' WHERE k = 6; SELECT tags, count(*) AS n FROM a GROUP BY tags ORDER BY min(k)" --csv
tags,n
"[""x"",null,""y""]",1
[],1
,1
"[""a""]",2
"[""a"",""b""]",1
$ pier sql "SELECT count(DISTINCT tags) AS n, count(tags) AS c FROM a" --csv
n,c
4,5
$ pier sql "SELECT k, json_array_length(nums) AS n, nums ->> 0 AS first, grid -> 0 AS row0 FROM a WHERE nums IS NOT NULL ORDER BY k" --csv
k,n,first,row0
1,3,1,"[1,2]"
2,0,,
3,1,,null
4,2,9223372036854775807,[-128]
5,1,2,
6,1,10,
$ pier sql "CREATE TABLE key (v UUID[] UNIQUE); INSERT INTO key VALUES ('[\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\"]'), ('[]'); INSERT INTO key VALUES ('[]')"
! pier: error: ConstraintUnique: UNIQUE constraint failed: key.v
[exit 1]
$ pier tables
a

# Round-trip through the CLI: each array column of each row is read
# with --jsonl and bound back with --param (a value that starts with '['
# binds as its text, exactly) into a second table; the two hold the same
# texts, and read the same.
$ pier sql "CREATE TABLE b (k INT64 PRIMARY KEY, tags TEXT[], nums INT64[], grid INT8[][], ids UUID[], amounts DECIMAL(6,2)[], flags BOOLEAN[], big UINT64[], huge INT128[], f FLOAT32[], d DOUBLE[], bytes BLOB[], at INSTANT[], days DATE[], times TIME[], dts DATETIME[], ivs INTERVAL[], states ENUM('a','b''c')[], short VARCHAR(2)[], words TEXT[][]); INSERT INTO b(k) SELECT k FROM a"
6 rows changed
$ for c in tags nums grid ids amounts flags big huge f d bytes at days times dts ivs states short words; do pier sql "SELECT k, $c FROM a WHERE $c IS NOT NULL" --jsonl | sed -e 's/^{"k":\([0-9]*\),"[a-z]*":\(.*\)}$/\1 \2/' | while IFS= read -r line; do pier sql "UPDATE b SET $c = :v WHERE k = :k" --param k="${line%% *}" --param v="${line#* }" > /dev/null || exit 1; done || exit 1; done && pier sql "SELECT count(*) AS n FROM b" --csv
n
6
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)) AS lost, (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM a ORDER BY k" --jsonl) <(pier sql "SELECT * FROM b ORDER BY k" --jsonl) && echo same
same

# Round-trip of the schema through a dump: T[] and T[][] in one spelling.
$ pier schema dump
CREATE TABLE "a" (
    "k" INT64 PRIMARY KEY,
    "tags" TEXT[],
    "nums" INT64[],
    "grid" INT8[][],
    "ids" UUID[],
    "amounts" DECIMAL(6,2)[],
    "flags" BOOLEAN[],
    "big" UINT64[],
    "huge" INT128[],
    "f" FLOAT32[],
    "d" DOUBLE[],
    "bytes" BLOB[],
    "at" INSTANT[],
    "days" DATE[],
    "times" TIME[],
    "dts" DATETIME[],
    "ivs" INTERVAL[],
    "states" ENUM('a','b''c')[],
    "short" VARCHAR(2)[],
    "words" TEXT[][]
);
CREATE TABLE "b" (
    "k" INT64 PRIMARY KEY,
    "tags" TEXT[],
    "nums" INT64[],
    "grid" INT8[][],
    "ids" UUID[],
    "amounts" DECIMAL(6,2)[],
    "flags" BOOLEAN[],
    "big" UINT64[],
    "huge" INT128[],
    "f" FLOAT32[],
    "d" DOUBLE[],
    "bytes" BLOB[],
    "at" INSTANT[],
    "days" DATE[],
    "times" TIME[],
    "dts" DATETIME[],
    "ivs" INTERVAL[],
    "states" ENUM('a','b''c')[],
    "short" VARCHAR(2)[],
    "words" TEXT[][]
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same

# White space does not count when arrays compare: '[1, 2]' equals
# '[1,2]' for =, GROUP BY and a UNIQUE index (they sort as their compact
# text does).
$ pier sql "CREATE TABLE sp (a INT64[] UNIQUE); INSERT INTO sp VALUES ('[1, 2]'), ('[ 10 ]')"
2 rows changed
$ pier sql "SELECT a FROM sp WHERE a = '[1,2]'" --csv
a
"[1,2]"
$ pier sql "INSERT INTO sp VALUES ('[1,2]')"
! pier: error: ConstraintUnique: UNIQUE constraint failed: sp.a
[exit 1]
$ pier sql "SELECT a FROM sp ORDER BY a" --csv
a
"[1,2]"
[10]
