# A script's bytes quoted in an error (a statement's first words, the token
# a parse stopped at) are shown with control bytes and invalid UTF-8
# escaped, so that the message stays one line of text.
$ pier sql $'SELEC\xff x'
! pier: error: EntityNotAllowed: SELEC\xff statements are not allowed: a statement is SELECT, VALUES, WITH, INSERT, REPLACE, UPDATE, DELETE, CREATE, ALTER, DROP, BEGIN, COMMIT, END or ROLLBACK
[exit 1]

$ pier sql $'CREATE TABLE \x01 (a INT64)'
! pier: error: QueryFailed: expected the table's name after CREATE TABLE, found '\x01' (at byte 13 of the script)
[exit 1]

$ pier sql $'CREATE TABLE t (a INT64) \xfe'
! pier: error: QueryFailed: expected a table option (WITHOUT ROWID or STRICT), found '\xfe' (at byte 25 of the script)
[exit 1]

$ pier --json sql $'fr\xc3ob x'
! {"error":"EntityNotAllowed","message":"FR\\xc3OB statements are not allowed: a statement is SELECT, VALUES, WITH, INSERT, REPLACE, UPDATE, DELETE, CREATE, ALTER, DROP, BEGIN, COMMIT, END or ROLLBACK"}
[exit 1]
