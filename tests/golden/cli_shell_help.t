# pier shell --help lists every dot-command, Tab completion and the pager.
$ pier shell --help
Usage: pier [OPTIONS] shell [BOARD] [--time-limit DURATION] [--max-value SIZE] [--max-memory SIZE]

Starts an interactive shell on the lake, querying BOARD (or none
until .use names one). A line is a read-only query against the
current board, as with 'pier query' ({{board}} stands for its rows);
a line starting with '.' is a command:

  .sql [on|off]        Lines are SQL statements on the declared
                       tables ('pier sql'), run at a line ending
                       with ';' (a BEGIN waits for its COMMIT)
  .tables              List the declared tables
  .boards              List the boards
  .schema [BOARD]      Show a board's columns (default: the current)
  .use BOARD           Query BOARD from now on
  .with [BOARD...]     Let queries join these boards as
                       {{board:NAME}}
  .with-table [TABLE...]
                       Let them read these declared tables or views
                       as {{table:NAME}}
  .param NAME=VALUE    Bind a parameter, read as in 'query --param';
                       .param lists them, .param clear forgets them
  .format [FORMAT]     table (the default), box, json, jsonl or csv
                       (.mode is the same)
  .headers on|off      Print the column names (table, box, csv)
  .import [OPTIONS] FILE BOARD
                       Insert FILE's rows (JSON lines or a JSON
                       array; --csv, --tsv with a header row) into
                       BOARD, as 'pier insert BOARD -' with its
                       options (--id COL, --id-generate KIND)
  .dump [NAME]         A board's or a declared table's rows as JSON
                       lines; alone, the schema ('pier schema dump')
  .read FILE           Run FILE's lines as shell input
  .output [FILE]       Write output to FILE; alone, to stdout again
  .once FILE           The next result only to FILE
  .pager on|off        Page long results on a terminal (default on)
  .timer on|off        Show how long each query took
  .help, .quit         This list; leave (also Ctrl-D)

On a terminal, lines are edited with emacs keys (libedit; ~/.editrc
is read) and kept in a history of 1000 lines, saved after each line
to $PIER_HISTORY, else ~/.pier_history (PIER_HISTORY empty: none).
Tab completes commands, boards, tables, columns, files and SQL
words. Ctrl-C abandons the line being typed, or stops the statement
that runs (Interrupted). When stdout is a terminal, a result taller
than it is shown through $PAGER (default: less -FRX). When stdin is
not a terminal, lines are read without prompts, the exit status is
1 if any line failed, and Ctrl-C stops the statement that runs and
the script (Interrupted; no later line runs).

Options:
  --time-limit DURATION, --max-value SIZE, --max-memory SIZE
                      The limits of each query and script, as for
                      'pier query' (defaults 30s, 64M, 256M)

OPTIONS are the global options of 'pier --help'.
