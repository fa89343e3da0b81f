#!/usr/bin/env bash
# A process killed in the middle of writing leaves a lake that opens, with
# every batch either whole or absent: a streamed insert commits batches of
# 1000 rows, so after a SIGKILL the row count is a multiple of 1000.
# (tests/unit/test_crash.c kills a single large write part-way.)
set -euo pipefail
pier=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

awk 'BEGIN { for (i = 0; i < 400000; i++)
    printf "{\"id\":\"s%07d\",\"n\":%d,\"s\":\"row %d\"}\n", i, i, i }' \
    >stream.jsonl
"$pier" insert stream - <stream.jsonl >/dev/null 2>&1 &
pid=$!
sleep 1.5
kill -KILL "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
n=$("$pier" count stream 2>/dev/null || echo 0)
echo "streamed rows that survived the kill: $n"
if [ $((n % 1000)) -ne 0 ]; then
    echo "a batch was torn: $n rows"; exit 1
fi
# The lake still takes writes and reads after the crash.
"$pier" insert stream '{"id":"after","n":1}' >/dev/null
[ "$("$pier" count stream)" = "$((n + 1))" ]

echo "crash-safe"
