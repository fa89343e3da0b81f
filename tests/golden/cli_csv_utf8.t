# A CSV or TSV field that is not UTF-8 is malformed input: InvalidArgument
# naming the line and the field, as the reader's other errors do, and
# nothing of the batch is written.
$ printf 'id,name\nr1,ok\nr2,b\xffd\n' > u.csv && pier insert x --csv u.csv
! pier: error: InvalidArgument: line 3 of u.csv: field 2 is not UTF-8 (byte 0xFF at its byte 2) (batch 1 of u.csv not written; 0 rows committed before it)
[exit 1]

$ printf 'id,na\xffme\nr1,ok\n' > h.csv && pier insert y --csv h.csv
! pier: error: InvalidArgument: line 1 of h.csv: field 2 of the header is not UTF-8 (byte 0xFF at its byte 3) (batch 1 of h.csv not written; 0 rows committed before it)
[exit 1]

$ printf 'id\tname\nr1\tok\nr2\t"two\nlines \xe2\x82"\n' > u.tsv && pier insert z --tsv u.tsv
! pier: error: InvalidArgument: line 3 of u.tsv: field 2 is not UTF-8 (byte 0xE2 at its byte 11) (batch 1 of u.tsv not written; 0 rows committed before it)
[exit 1]

$ pier boards --json
[]
