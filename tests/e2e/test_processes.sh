#!/usr/bin/env bash
# Several processes share one data directory: processes creating it at once
# all succeed, concurrent writers wait for each other's lock instead of
# failing, every write lands, and what one process decides (a board, a
# column type, the strict bit) binds the others.
set -euo pipefail
pier=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# Processes that create the same new lake at once (flush makes it and
# writes nothing) all open it: each sees
# the lake before its creation or after, never half-made.
for round in $(seq 1 15); do
    pids=()
    for p in 1 2 3 4; do
        "$pier" --data "race-$round" flush >/dev/null 2>"race-$round-$p.err" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do
        wait "$pid" || { cat race-"$round"-*.err; exit 1; }
    done
done

writer() {  # writer NAME: 20 writes of 50 rows to the shared board
    for b in $(seq 1 20); do
        awk -v w="$1" -v b="$b" 'BEGIN { printf "["; for (i = 0; i < 50; i++)
            printf "%s{\"id\":\"%s-%d-%d\",\"n\":%d}", (i ? "," : ""), w, b, i, i;
            printf "]" }' >"rows-$1-$b.json"
        "$pier" insert shared "$(cat "rows-$1-$b.json")" >/dev/null
    done
}
writer a & pa=$!
writer b & pb=$!
writer c & pc=$!
wait $pa $pb $pc
n=$("$pier" count shared)
[ "$n" = 3000 ] || { echo "expected 3000 rows, got $n"; exit 1; }

# One process declares a strict board; another is refused by it.
"$pier" create-board billing --column amount=double --strict >/dev/null
if "$pier" insert billing '{"id":"b1","memo":"x"}' 2>err.txt; then
    echo "a strict board took an undeclared column"; exit 1
fi
grep -q "UnknownColumn" err.txt
# A type decided by one process is enforced in the next.
"$pier" insert shared '{"id":"t1","priority":1}' >/dev/null
if "$pier" insert shared '{"id":"t2","priority":"high"}' 2>err.txt; then
    echo "a bigint column took text"; exit 1
fi
grep -q "ColumnTypeConflict" err.txt
echo "processes agree"
