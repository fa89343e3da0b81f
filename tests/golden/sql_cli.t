# pier sql's command line: help exits 0 without opening a lake;
# table-valued functions work; a text that is not UTF-8 still prints as
# valid JSON (U+FFFD for each bad byte).
$ pier sql --help > help.txt; echo "exit $?"; head -1 help.txt; ls
exit 0
Usage: pier [OPTIONS] sql SQL|-|-f FILE [--param NAME=VALUE]... [--params JSON] [--time-limit DURATION] [--max-value SIZE] [--max-memory SIZE] [--table|--json|--jsonl|--csv]
help.txt
$ pier sql "SELECT key, value FROM json_each('[10,20]')" --csv
key,value
0,10
1,20
$ pier sql "SELECT CAST(x'ff41' AS TEXT) AS t, 'é' AS e" --jsonl
{"t":"�A","e":"é"}
$ pier sql "CREATE TABLE b (x BLOB); INSERT INTO b VALUES (1)"
! pier: error: ColumnTypeConflict: column 'x' of table 'b' is BLOB, got an integer value
[exit 1]
