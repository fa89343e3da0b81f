# insert --csv: a header line names the columns; an unquoted 42, 4.5, true
# or false is a number or a boolean, an empty unquoted field is null, and
# anything else, and anything quoted, is text (so "" is the empty text).
$ printf 'id,n,r,b,t,q,e,z\n1,42,4.5,true,hello,"7",,""\n2,-3,1e3,false,null,"a,b",,x\n' > a.csv && pier insert a --csv a.csv
2
$ pier dump a
{"id":"1","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":42,"r":4.5,"b":true,"t":"hello","q":"7","z":""}
{"id":"2","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":-3,"r":1000.0,"b":false,"t":"null","q":"a,b","z":"x"}
$ pier schema a
board a
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
n           bigint     inferred
r           double     inferred
b           boolean    inferred
t           text       inferred
q           text       inferred
z           text       inferred

# RFC 4180 quoting: doubled quotes, a comma and a line break inside quotes,
# CRLF line ends, no line end after the last record; a UTF-8 byte order
# mark at the start is skipped. Spelling that JSON would not read as a
# number (007, +1, 1., .5) is text.
$ printf '\xef\xbb\xbfid,s,m\r\nq,"say ""hi""","two\r\nlines"\r\nw,007,+1\r\nv,1.,.5' | pier insert q --csv -
4
$ pier --json get q q
{"id":"q","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"s":"say \"hi\"","m":"two\r\nlines"}
$ pier --json get q w
{"id":"w","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"s":"007","m":"+1"}
$ pier --json get q v
{"id":"v","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"s":"1.","m":".5"}

# The id column is always text, whatever it holds.
$ pier --json get a 1
{"id":"1","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":42,"r":4.5,"b":true,"t":"hello","q":"7","z":""}

# A board's own columns type the values: quoted numbers go into a bigint
# column as numbers, and a bare 42 into a text column as text. Empty
# fields in a typed column are null, except "" in a text column.
$ pier create-board typed --column n=bigint --column t=text --column ok=boolean --column d='decimal(6,2)' --column j=json
5
$ printf 'id,n,t,ok,d,j\nx,"12",42,"true",1.5,"{""a"":[1]}"\ny,,"",,"",\n' | pier insert typed --csv -
6
$ pier dump typed
{"id":"x","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":12,"t":"42","ok":true,"d":"1.50","j":{"a":[1]}}
{"id":"y","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":null,"t":"","ok":null,"d":null,"j":null}

# Header names match the board's columns as the library matches names,
# without regard to case: "N" is the bigint column n.
$ printf 'id,N,T\nz,"5",6\n' | pier insert typed --csv -
7
$ pier get typed z --json
{"id":"z","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":5,"t":"6","ok":null,"d":null,"j":null}

# --tsv: tabs between the fields, the same quoting.
$ printf 'id\tname\tn\na\t"tab\there"\t1\nb\tplain, with comma\t2\n' | pier insert t --tsv -
9
$ pier dump t
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"name":"tab\there","n":1}
{"id":"b","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"name":"plain, with comma","n":2}

# upsert --csv replaces whole rows, as upsert does for JSON: the columns
# the CSV does not have read null.
$ printf 'id,n\n1,100\n9,9\n' | pier upsert a --csv -
10
$ pier --json get a 1
{"id":"1","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":100,"r":null,"b":null,"t":null,"q":null,"z":null}
$ pier count a
3

# An empty input, or only a header, writes nothing and prints the head;
# so does an input of empty lines.
$ printf '' | pier insert a --csv -
10
$ printf 'id,n\n' | pier insert a --csv -
10
$ printf '\n\n' | pier insert a --csv -
10

# More than one batch: 2500 rows from a file, 1000 rows per write.
$ seq 1 2500 | awk 'BEGIN{print "id,n"} {printf "r%05d,%d\n", $1, $1}' > big.csv && pier insert big --csv big.csv
14
$ pier count big
2500
