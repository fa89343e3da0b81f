#!/usr/bin/env bash
# SIGINT or SIGTERM while `pier export FILE` or `pier backup DEST` writes
# its copy stops it: the command fails with Interrupted and leaves
# nothing behind, neither FILE nor DEST nor the FILE.pier-tmp or
# DEST.pier-tmp-* it was writing (docs/backup.md).
#
# The export writes into a FIFO put where its FILE.pier-tmp goes, read
# by no one once the pipe is full, so it is still writing when the signal
# comes. A backup cannot be held that way: it copies a lake large enough
# to take a while, and is tried again the few times the copy was done
# before the signal.
set -euo pipefail
# shellcheck source=signals.sh
. "$(dirname "$0")/signals.sh"
pier=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export PIER_DATA="$tmp/data"


# Nothing but the lake and the named files are in the directory.
only() {
    got=$(ls -A | sort | tr '\n' ' ')
    [ "$got" = "$* " ] || { echo "expected '$* ', found '$got'"; exit 1; }
}

"$pier" insert b '[{"id":"a"},{"id":"b"}]' >/dev/null
"$pier" sql 'CREATE TABLE big (n INT64, b TEXT)' >/dev/null
"$pier" --time-limit none sql "INSERT INTO big WITH RECURSIVE r(i) AS
    (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 100000)
    SELECT i, printf('%.1500c', 'x') || i FROM r" >/dev/null

for sig in INT TERM; do
    mkfifo out.jsonl.pier-tmp
    "$pier" export out.jsonl >out.txt 2>err.txt &
    pid=$!
    exec 7<out.jsonl.pier-tmp          # (the export opens it, then fills it)
    wait_caught "$pid"
    kill -"$sig" "$pid"
    stopped "$pid"
    exec 7<&-
    [ "$rc" -eq 1 ] || { echo "export: exit $rc"; cat err.txt; exit 1; }
    grep -q '^pier: error: Interrupted: export .* nothing was written$' \
        err.txt || { echo "export:"; cat err.txt; exit 1; }
    cat err.txt
    rm out.txt err.txt
    only data
done

for sig in INT TERM; do
    hit=0
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        "$pier" backup copy >out.txt 2>err.txt &
        pid=$!
        wait_caught "$pid"
        kill -"$sig" "$pid"
        stopped "$pid"
        if [ "$rc" -eq 0 ]; then
            # (done before the signal came: a whole copy, nothing else)
            [ -f copy/lake.sqlite ] || { echo "no copy"; exit 1; }
            rm -r copy out.txt err.txt
            only data
            continue
        fi
        [ "$rc" -eq 1 ] || { echo "backup: exit $rc"; cat err.txt; exit 1; }
        grep -q '^pier: error: Interrupted: backup .* nothing was written$' \
            err.txt || { echo "backup:"; cat err.txt; exit 1; }
        cat err.txt
        rm out.txt err.txt
        only data
        hit=1
        break
    done
    [ "$hit" -eq 1 ] || { echo "no backup was interrupted"; exit 1; }
done

# The lake goes on, and a copy made without a signal is whole.
"$pier" backup copy
"$pier" export out.jsonl
[ "$("$pier" --data copy query b 'SELECT count(*) AS n FROM {{board}}' \
      --csv)" = $'n\n2' ]
grep -q '^{"end":' out.jsonl
echo ok
