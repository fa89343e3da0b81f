# dump --csv: a header line of the board's columns but updated_at (the
# engine's, which a write may not name), then one record per row in id
# order (as dump's JSON lines), RFC 4180 quoting with CRLF line ends; a
# null is an empty field, and a text value that would load back as
# something else (empty, a number, a boolean) is quoted.
$ pier insert a '[{"id":"2","n":7,"t":"42","f":1.5,"b":true,"e":"","q":"say \"hi\", twice","m":"two\nlines"},{"id":"1","n":null,"t":"true","f":-2,"b":false,"e":"x","q":" pad ","m":"null"}]'
2
$ pier dump a --csv | od -c | head -3 | cut -c1-72
0000000   i   d   ,   s   t   a   t   e   ,   n   ,   t   ,   f   ,   b
0000020   ,   e   ,   q   ,   m  \r  \n   "   1   "   ,   ,   ,   "   t
0000040   r   u   e   "   ,   -   2   .   0   ,   f   a   l   s   e   ,
$ pier dump a --csv | tr -d '\r'
id,state,n,t,f,b,e,q,m
"1",,,"true",-2.0,false,x," pad ",null
"2",,7,"42",1.5,true,"","say ""hi"", twice","two
lines"

# --tsv: tabs between the fields and LF line ends.
$ pier dump a --tsv | cat -A | head -2
id^Istate^In^It^If^Ib^Ie^Iq^Im$
"1"^I^I^I"true"^I-2.0^Ifalse^Ix^I" pad "^Inull$

# A CSV dump loaded into an empty board gives the same rows; so does a TSV
# dump.
$ pier dump a --csv | pier insert b --csv - && diff <(pier dump a) <(pier dump b) && echo same
4
same
$ pier dump a --tsv > a.tsv && pier insert c --tsv a.tsv && diff <(pier dump a) <(pier dump c) && echo same
6
same

# An empty board prints its header alone; a missing board is an error.
$ pier create-board empty --column n=bigint
7
$ pier dump empty --csv
id,state,n
$ pier dump nope --csv
! pier: error: BoardNotFound: no board 'nope'
[exit 1]
$ pier dump a --csv --tsv
! pier: usage: dump: give one of --csv and --tsv, once
! Try 'pier dump --help'.
[exit 2]
