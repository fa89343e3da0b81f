#!/usr/bin/env bash
# Ctrl-C stops the statement that runs, not the program: `pier query` and
# `pier sql` given SIGINT while a statement without end runs (no time
# limit) report Interrupted and exit 1, having written nothing, and the
# lake serves the next command. (tests/unit/test_shell.c does the same in
# `pier shell`.)
#
# The signal is sent once the command has taken SIGINT (its handler shows
# in /proc/PID/status), so that no timing decides the outcome.
set -euo pipefail
pier=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export PIER_DATA="$tmp/data"

endless='WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r)'

# Waits (up to 60 s) until process $1 catches SIGINT (bit 2 of SigCgt).
wait_caught() {
    for _ in $(seq 600); do
        mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null ||
               true)
        if [ -n "$mask" ] && (( 0x$mask & 2 )); then
            return 0
        fi
        sleep 0.1
    done
    echo "process $1 never took SIGINT"; exit 1
}

# Runs "$@" in the background, interrupts it once it listens, and checks
# that it failed with Interrupted.
interrupt() {
    "$@" >out.txt 2>err.txt &
    pid=$!
    wait_caught "$pid"
    kill -INT "$pid"
    rc=0
    wait "$pid" || rc=$?
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

echo "Ctrl-C stops statements"
