#!/usr/bin/env bash
# Ctrl-C stops the statement that runs, not the program: `pier query` and
# `pier sql` given SIGINT while a statement without end runs (no time
# limit) report Interrupted and exit 1, having written nothing, and the
# lake serves the next command; `pier insert -` says how many rows it
# committed. (tests/unit/test_shell.c does the same in
# `pier shell`.)
#
# The signal is sent once the command has taken SIGINT (its handler shows
# in /proc/PID/status), so that no timing decides the outcome.
set -euo pipefail
# shellcheck source=signals.sh
. "$(dirname "$0")/signals.sh"
pier=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export PIER_DATA="$tmp/data"

endless='WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r)'


# Runs "$@" in the background, interrupts it once it listens, and checks
# that it failed with Interrupted.
interrupt() {
    "$@" >out.txt 2>err.txt &
    pid=$!
    wait_caught "$pid"
    kill -INT "$pid"
    stopped "$pid"
    if [ "$rc" -ne 1 ] || ! grep -q 'Interrupted' err.txt; then
        echo "expected exit 1 and Interrupted from: $*"
        echo "got exit $rc:"; cat err.txt; exit 1
    fi
    cat err.txt
}

"$pier" insert b '[{"id":"a"},{"id":"b"}]' >/dev/null
"$pier" sql 'CREATE TABLE t (n INT64)' >/dev/null

interrupt "$pier" query b --time-limit none \
    "$endless SELECT i FROM r WHERE i < 0"
interrupt "$pier" --time-limit=none sql \
    "INSERT INTO t VALUES (1); INSERT INTO t $endless SELECT i FROM r"

# Nothing of the script was written; the lake goes on.
[ "$("$pier" sql 'SELECT count(*) AS n FROM t' --csv)" = $'n\n0' ]
[ "$("$pier" query b 'SELECT count(*) AS n FROM {{board}}' --csv)" = $'n\n2' ]

# A load from stdin interrupted says how many rows it committed, as a
# failed batch does, and the lake holds exactly those: the batch being
# written when the signal came commits whole or not at all, and no other
# begins. The writer keeps its end of the pipe open, so the load waits
# for more input when it is interrupted.
#   interrupted_load BOARD ROWS-COMMAND [INSERT-OPTION...]
interrupted_load() {
    local board=$1 rows=$2
    shift 2
    rm -f rows.fifo
    mkfifo rows.fifo
    "$pier" insert "$board" "$@" - <rows.fifo >load.out 2>load.err &
    local pid=$! n rc=0 said
    exec 7>rows.fifo
    $rows >&7
    # (some batches are in: the count grows past 0)
    for _ in $(seq 600); do
        n=$("$pier" count "$board" 2>/dev/null || echo 0)
        [ "$n" -gt 0 ] && break
        sleep 0.1
    done
    wait_caught "$pid"
    kill -INT "$pid"
    stopped "$pid"
    exec 7>&-
    [ "$rc" -eq 1 ] || { echo "$board: exit $rc"; cat load.err; exit 1; }
    grep -q 'Interrupted: interrupted by SIGINT' load.err ||
        { echo "$board:"; cat load.err; exit 1; }
    said=$(sed -n 's/.*; \([0-9]*\) rows committed before it).*/\1/p' \
        load.err)
    [ -n "$said" ] && [ "$said" -gt 0 ] ||
        { echo "$board said no count:"; cat load.err; exit 1; }
    [ "$("$pier" count "$board")" = "$said" ] ||
        { echo "$board said $said, the lake holds" \
               "$("$pier" count "$board")"; exit 1; }
    cat load.err
}
json_rows() {
    for i in $(seq 1 12000); do printf '{"id":"r%05d","n":%d}\n' "$i" "$i"; done
}
csv_rows() {
    echo "id,n"
    for i in $(seq 1 12000); do printf 'r%05d,%d\n' "$i" "$i"; done
}
interrupted_load big json_rows
# The same for a CSV load (insert --csv -), which shares the batches.
interrupted_load bigcsv csv_rows --csv

# A slow producer: one batch (1000 rows, less than the 64 KiB a read asks
# for), then nothing more while it keeps the pipe open. The load reads
# what has arrived rather than waiting for a full chunk, so the batch
# commits at once; an interrupt then says it did.
#   slow_load BOARD ROWS-COMMAND [INSERT-OPTION...]
slow_load() {
    local board=$1 rows=$2
    shift 2
    rm -f rows.fifo
    mkfifo rows.fifo
    "$pier" insert "$board" "$@" - <rows.fifo >load.out 2>load.err &
    local pid=$! n=0 rc=0
    exec 7>rows.fifo
    $rows >&7
    for _ in $(seq 300); do
        n=$("$pier" count "$board" 2>/dev/null || echo 0)
        [ "$n" -eq 1000 ] && break
        sleep 0.1
    done
    [ "$n" -eq 1000 ] ||
        { echo "$board: $n rows committed while the pipe stayed open"; exit 1; }
    wait_caught "$pid"
    kill -INT "$pid"
    stopped "$pid"
    exec 7>&-
    [ "$rc" -eq 1 ] || { echo "$board: exit $rc"; cat load.err; exit 1; }
    grep -q '(batch 2 of stdin not written; 1000 rows committed before it)' \
        load.err || { echo "$board:"; cat load.err; exit 1; }
    cat load.err
}
one_batch_json() {
    for i in $(seq 1 1000); do printf '{"id":"r%05d","n":%d}\n' "$i" "$i"; done
}
one_batch_csv() {
    echo "id,n"
    for i in $(seq 1 1000); do printf 'r%05d,%d\n' "$i" "$i"; done
}
slow_load slow one_batch_json
slow_load slowcsv one_batch_csv --csv

# pier shell reading a script from a pipe: SIGINT stops the statement that
# runs and the script; no later line runs. The signal is sent once the
# first line's output is out and the endless line has begun: a line runs
# with the thread that repeats the interruption (tools/pier/limits.c), a
# third beside the shell's two, and a signal from then on stops the line
# even if it comes a moment before its statement starts.
{ echo 'SELECT 1 AS one'; echo "$endless SELECT i FROM r WHERE i < 0";
  echo 'SELECT 2 AS two'; } | "$pier" shell b --time-limit none \
    >shell.out 2>shell.err &
pid=$!
for _ in $(seq 600); do
    grep -q '^one' shell.out 2>/dev/null && break
    sleep 0.1
done
for _ in $(seq 600); do
    [ "$(ls "/proc/$pid/task" 2>/dev/null | wc -l)" -ge 3 ] && break
    sleep 0.1
done
kill -INT "$pid"
stopped "$pid"
if [ "$rc" -ne 1 ] || grep -q two shell.out ||
   ! grep -q 'Interrupted: the query was interrupted' shell.err ||
   ! grep -q 'Interrupted: the script was stopped by SIGINT' shell.err; then
    echo "shell script: exit $rc"; cat shell.out shell.err; exit 1
fi
cat shell.err

# The same while the shell waits for its next line from a producer that
# keeps the pipe open and sends nothing: the script stops at once.
rm -f lines.fifo
mkfifo lines.fifo
"$pier" shell b <lines.fifo >shell.out 2>shell.err &
pid=$!
exec 8>lines.fifo
echo 'SELECT 1 AS one' >&8
for _ in $(seq 600); do
    grep -q '^one' shell.out 2>/dev/null && break
    sleep 0.1
done
kill -INT "$pid"
stopped "$pid"
exec 8>&-
if [ "$rc" -ne 1 ] ||
   ! grep -q 'Interrupted: the script was stopped by SIGINT' shell.err; then
    echo "shell waiting for a line: exit $rc"; cat shell.out shell.err; exit 1
fi
cat shell.err

echo "Ctrl-C stops statements"
