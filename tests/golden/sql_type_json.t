# JSON: any one JSON text (RFC 8259): an object, an array or a scalar,
# with white space around it, duplicate keys, numbers of any size; kept
# as written (SQLite text), checked by a validating scanner: nesting is
# at most 1000 deep, a \u escape must name a character (no lone
# surrogates), and the text must be UTF-8. An SQL number is stored as its
# text, which is JSON. Anything else is refused, and a refused statement
# or script writes nothing. A document reads back as written: inside
# JSON output as itself, in the table and CSV as its text. It compares
# as text (two spellings of one document differ; SQLite's json() makes
# them one), and round-trips as its text through --jsonl and --param,
# the schema through a dump. JSON has no arrays: a JSON column holds any.
$ pier sql "CREATE TABLE j (k INT64 PRIMARY KEY, doc JSON)"
$ pier schema j
table j
column  type   readonly
k       INT64  no
doc     JSON   no
$ pier sql "INSERT INTO j VALUES (1, '{\"b\": [1, 2], \"a\": null}'), (2, '42'), (3, '\"x\"'), (4, NULL), (5, 'true'), (6, 'null'), (7, '[]'), (8, '{}'), (9, ' {\"a\": 1} ')"
9 rows changed

# Also taken: duplicate keys, integers past 64 bits and reals past a
# double's range (RFC 8259 sets no limit), escapes (a surrogate pair
# among them), text in any script, an SQL integer or real (stored as its
# text), nesting 1000 deep.
$ pier sql "INSERT INTO j VALUES (10, '{\"a\":1,\"a\":2}'), (11, '123456789012345678901234567890'), (12, '-1.5e400'), (13, '\"tab\\tquote\\\" \\u00e9 \\ud83d\\ude00\"'), (14, '{\"é\":\"ü 😀\"}'), (15, 7), (16, 0.5), (17, '[[[[\"deep\"]]]]'), (19, '{\"a\":1}') RETURNING k, doc" --csv
k,doc
10,"{""a"":1,""a"":2}"
11,123456789012345678901234567890
12,-1.5e400
13,"""tab\tquote\"" \u00e9 \ud83d\ude00"""
14,"{""é"":""ü 😀""}"
15,7
16,0.5
17,"[[[[""deep""]]]]"
19,"{""a"":1}"
$ pier sql "INSERT INTO j VALUES (18, :d) RETURNING length(doc) AS len" --param d="$(printf '[%.0s' $(seq 1000))$(printf ']%.0s' $(seq 1000))" --csv
len
2000

# Refused: a truncated document, trailing commas, numbers JSON does not
# spell (a leading zero, a bare point, a '+', NaN, Infinity), single
# quotes, nothing or only white space, two documents, a raw control
# character or an unknown escape in a string, lone surrogates, a
# misspelled literal, nesting 1001 deep, text that is not UTF-8; a blob.
$ pier sql "INSERT INTO j(doc) VALUES ('{\"a\": ')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '{"a": ': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES ('{\"a\":1,}')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '{"a":1,}': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES ('[1,]')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '[1,]': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES ('01')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '01': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES ('1.')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '1.': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES ('.5')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '.5': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES ('+1')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '+1': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES ('NaN')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got 'NaN': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES ('Infinity')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got 'Infinity': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES ('''x''')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got ''x'': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES ('')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES ('  ')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '  ': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES ('{\"a\":1}{\"b\":2}')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '{"a":1}{"b":2}': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES ('\"a' || char(9) || 'b\"')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '"a\x09b"': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES ('\"\\x\"')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '"\x5cx"': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES ('\"\\ud83d\"')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '"\x5cud83d"': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES ('\"\\ude00\"')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '"\x5cude00"': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES ('tru')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got 'tru': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES (:d)" --param d="$(printf '[%.0s' $(seq 1001))$(printf ']%.0s' $(seq 1001))"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[...': not valid JSON: nested more than 1000 deep
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES (CAST(x'22ff22' AS TEXT))"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '"\xff"': not valid JSON
[exit 1]
$ pier sql "INSERT INTO j(doc) VALUES (x'7b7d')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got a blob value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM j" --csv
n
19

# A refusal at the end of a script leaves nothing of it.
$ pier sql "INSERT INTO j VALUES (30, '[1]'); UPDATE j SET doc = '{}' WHERE k = 2; INSERT INTO j VALUES (31, '{\"a\": }')"
! pier: error: ColumnTypeConflict: column 'doc' of table 'j' is JSON, got '{"a": }': not valid JSON
[exit 1]
$ pier sql "SELECT count(*) AS n, sum(k >= 30) AS new, sum(doc = '{}') AS empty_objects FROM j" --csv
n,new,empty_objects
19,0,1

# Reading back as written: inside JSON as the document itself (so the
# document null and SQL NULL both read null there), in the table and
# CSV as its text.
$ pier sql "DELETE FROM j WHERE k = 18"
1 row changed
$ pier sql "SELECT * FROM j ORDER BY k"
k   doc
1   {"b": [1, 2], "a": null}
2   42
3   "x"
4   null
5   true
6   null
7   []
8   {}
9    {"a": 1} 
10  {"a":1,"a":2}
11  123456789012345678901234567890
12  -1.5e400
13  "tab\tquote\" \u00e9 \ud83d\ude00"
14  {"é":"ü 😀"}
15  7
16  0.5
17  [[[["deep"]]]]
19  {"a":1}
(18 rows)
$ pier sql "SELECT * FROM j ORDER BY k" --json
[
{"k":1,"doc":{"b": [1, 2], "a": null}},
{"k":2,"doc":42},
{"k":3,"doc":"x"},
{"k":4,"doc":null},
{"k":5,"doc":true},
{"k":6,"doc":null},
{"k":7,"doc":[]},
{"k":8,"doc":{}},
{"k":9,"doc": {"a": 1} },
{"k":10,"doc":{"a":1,"a":2}},
{"k":11,"doc":123456789012345678901234567890},
{"k":12,"doc":-1.5e400},
{"k":13,"doc":"tab\tquote\" \u00e9 \ud83d\ude00"},
{"k":14,"doc":{"é":"ü 😀"}},
{"k":15,"doc":7},
{"k":16,"doc":0.5},
{"k":17,"doc":[[[["deep"]]]]},
{"k":19,"doc":{"a":1}}
]
$ pier sql "SELECT * FROM j ORDER BY k" --csv
k,doc
1,"{""b"": [1, 2], ""a"": null}"
2,42
3,"""x"""
4,
5,true
6,null
7,[]
8,{}
9," {""a"": 1} "
10,"{""a"":1,""a"":2}"
11,123456789012345678901234567890
12,-1.5e400
13,"""tab\tquote\"" \u00e9 \ud83d\ude00"""
14,"{""é"":""ü 😀""}"
15,7
16,0.5
17,"[[[[""deep""]]]]"
19,"{""a"":1}"

# Order and equality are the text's: another spelling of a document is
# another value ('=', GROUP BY, DISTINCT, a UNIQUE index), SQLite's
# json() compares documents; ORDER BY, '<' and '>', MIN/MAX by bytes.
$ pier sql "SELECT k FROM j WHERE doc = '{\"a\": 1}' OR doc = '42' ORDER BY k" --csv
k
2
$ pier sql "SELECT k FROM j WHERE json(doc) = json('{\"a\":1}') ORDER BY k" --csv
k
9
19
$ pier sql "SELECT k, doc FROM j WHERE k < 10 ORDER BY doc, k" --csv
k,doc
4,
9," {""a"": 1} "
3,"""x"""
2,42
7,[]
6,null
5,true
1,"{""b"": [1, 2], ""a"": null}"
8,{}
$ pier sql "SELECT k FROM j WHERE doc > '[' AND doc < '{' ORDER BY k" --csv
k
5
6
7
17
$ pier sql "SELECT min(doc) AS lo, max(doc) AS hi FROM j WHERE k < 10" --jsonl
{"lo":" {\"a\": 1} ","hi":"{}"}
$ pier sql "SELECT count(DISTINCT doc) AS n, count(DISTINCT json(doc)) AS documents FROM j WHERE k IN (9, 19)" --csv
n,documents
2,1
$ pier sql "UPDATE j SET doc = '{}' WHERE k = 9; SELECT doc, count(*) AS n FROM j GROUP BY doc HAVING n > 1" --csv
doc,n
{},2
$ pier sql "CREATE TABLE key (v JSON UNIQUE); INSERT INTO key VALUES ('{\"a\":1}'), ('{\"a\": 1}'); INSERT INTO key VALUES ('{\"a\":1}')"
! pier: error: ConstraintUnique: UNIQUE constraint failed: key.v
[exit 1]
$ pier tables
j

# JSON takes no array suffix: a JSON column already holds any array.
$ pier sql "CREATE TABLE bad (a JSON[])"
! pier: error: UnknownType: column 'a': JSON has no arrays: a JSON column holds any array
[exit 1]

# Round-trip through the CLI: each object, array or number read with
# --jsonl is bound back with --param into a second table (a value that
# starts with '{' or '[' binds as its text, exactly; a number as itself,
# or as its text when too large for a double or 64 bits); the two hold
# the same texts, and read the same.
$ pier sql "CREATE TABLE c (k INT64 PRIMARY KEY, doc JSON)"
$ pier sql "SELECT k, doc FROM j WHERE json_type(doc) IN ('object', 'array', 'integer', 'real')" --jsonl | sed -e 's/^{"k":\([0-9]*\),"doc":\(.*\)}$/\1 \2/' | while IFS= read -r line; do pier sql "INSERT INTO c VALUES (:k, :d)" --param k="${line%% *}" --param d="${line#* }" > /dev/null || exit 1; done && pier sql "SELECT count(*) AS n FROM c" --csv
n
13
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM j WHERE json_type(doc) IN ('object', 'array', 'integer', 'real') EXCEPT SELECT * FROM c)) AS lost, (SELECT count(*) FROM (SELECT * FROM c EXCEPT SELECT * FROM j)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM j WHERE json_type(doc) IN ('object', 'array', 'integer', 'real') ORDER BY k" --jsonl) <(pier sql "SELECT * FROM c ORDER BY k" --jsonl) && echo same
same

# Round-trip of the schema through a dump.
$ pier schema dump
CREATE TABLE "j" (
    "k" INT64 PRIMARY KEY,
    "doc" JSON
);
CREATE TABLE "c" (
    "k" INT64 PRIMARY KEY,
    "doc" JSON
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
