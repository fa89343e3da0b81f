#!/usr/bin/env bash
# The pier command on a PostgreSQL lake (docs/clustered.md), run through
# the test server (ctest's fixture `pg`, PIER_TEST_PG_URL): --lake and
# $PIER_LAKE, writes and reads, a board query on the node's replica, two
# nodes (each its own --cache-dir) reading each other's writes after
# `sync`, `evict`, the replica figures of `stats`, `boards --counts`, and
# the refusals: the SQL dialect, declared tables and a board's figures
# (TopologyUnsupported), a cache directory in use by another node, a lake
# that cannot be reached (LakeUnavailable), bad option values (usage).
set -euo pipefail
pier=$1
url=${PIER_TEST_PG_URL:-}
if [ -z "$url" ]; then
    echo "SKIP: no PIER_TEST_PG_URL (the fixture pg says why)" >&2
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "FAIL: $*"
    exit 1
}
expect() {  # expect WANT GOT WHAT
    [ "$1" = "$2" ] || fail "$3: want '$1', got '$2'"
}

# Two nodes of the server's lake (namespace "pier"), each with its own
# cache; the boards are named after this run.
n1=(--lake "$url" --cache-dir "$tmp/node1")
n2=(--lake "$url" --cache-dir "$tmp/node2")
export PIER_NOW=2026-03-01T10:00:00Z
b=b$$
o=o$$

wm=$("$pier" "${n1[@]}" insert "$b" '[{"id":"a","n":1},{"id":"b","n":2}]')
[ "$wm" -gt 0 ] || fail "insert: no watermark ($wm)"
got=$("$pier" "${n1[@]}" --json get "$b" a)
expect '{"id":"a","updated_at":"2026-03-01T10:00:00.000000Z","state":null,"n":1}' "$got" "get"
got=$("$pier" "${n1[@]}" query "$b" 'SELECT sum(n) AS s FROM {{board}}' --jsonl)
expect '{"s":3}' "$got" "query on node 1"

# the other node, at its first read, makes its replica and reads the rows
got=$("$pier" "${n2[@]}" query "$b" 'SELECT count(*) AS c FROM {{board}}' --jsonl)
expect '{"c":2}' "$got" "query on node 2"
# $PIER_LAKE names the lake when no --lake or --data is given
wm=$(PIER_LAKE=$url "$pier" --cache-dir "$tmp/node1" upsert "$b" '{"id":"c","n":3}')
got=$("$pier" "${n2[@]}" sync "$b")
expect "$wm" "$got" "sync prints the watermark it reached"
got=$("$pier" "${n2[@]}" query "$b" 'SELECT count(*) AS c FROM {{board}}' --jsonl)
expect '{"c":3}' "$got" "node 2 after sync"
# a query joining another board: its replica attached
"$pier" "${n1[@]}" insert "$o" '[{"id":"a","label":"first"}]' >/dev/null
"$pier" "${n2[@]}" sync "$o" >/dev/null
got=$("$pier" "${n2[@]}" query "$b" --with "$o" --jsonl \
    "SELECT x.id, y.label FROM {{board}} x JOIN {{board:$o}} y USING (id)")
expect '{"id":"a","label":"first"}' "$got" "a join of two replicas"

# stats shows the node's replica figures on a PostgreSQL lake
st=$("$pier" "${n2[@]}" --json stats)
case $st in
*'"replicas":'*'"syncs":'* | *'"syncs":'*'"replicas":'*) ;;
*) fail "stats has no replica figures: $st" ;;
esac
# evict deletes the replica's files; the next read makes it again
[ -f "$tmp/node2/$b/lake.sqlite" ] || fail "no replica file for $b"
"$pier" "${n2[@]}" evict "$b"
[ ! -e "$tmp/node2/$b" ] || fail "evict left the replica"
got=$("$pier" "${n2[@]}" count "$b")
expect 3 "$got" "count after evict"

# refusals
set +e
out=$("$pier" "${n1[@]}" sql 'SELECT 1' 2>&1); rc=$?
set -e
expect 1 "$rc" "sql exit status"
case $out in *TopologyUnsupported*) ;; *) fail "sql: $out" ;; esac
set +e
out=$("$pier" "${n1[@]}" tables 2>&1); rc=$?
set -e
expect 1 "$rc" "tables exit status"
case $out in *TopologyUnsupported*) ;; *) fail "tables: $out" ;; esac
# a board's figures: refused (a replica's pages are not the lake's);
# boards --counts works, on the lake's rows
set +e
out=$("$pier" "${n1[@]}" stats "$b" 2>&1); rc=$?
set -e
expect 1 "$rc" "stats BOARD exit status"
case $out in *TopologyUnsupported*'per-board stats'*) ;;
*) fail "stats BOARD: $out" ;; esac
got=$("$pier" "${n2[@]}" --json boards --counts | grep -o "{\"board\":\"$b\",\"rows\":[0-9]*}")
expect "{\"board\":\"$b\",\"rows\":3}" "$got" "boards --counts"
set +e
out=$("$pier" "${n1[@]}" query "$b" 'SELECT 1 FROM {{board}}' --max-stale soon 2>&1); rc=$?
set -e
expect 2 "$rc" "--max-stale usage"
set +e
out=$("$pier" --lake "$url" --head-refresh 0 boards 2>&1); rc=$?
set -e
expect 2 "$rc" "--head-refresh 0 usage"
# a cache directory in use by another node
mkfifo "$tmp/hold"
"$pier" "${n1[@]}" insert "$b" - <"$tmp/hold" >/dev/null 2>&1 &
holder=$!
exec 9>"$tmp/hold"
sleep 0.5
set +e
out=$("$pier" "${n1[@]}" boards 2>&1); rc=$?
set -e
exec 9>&-
wait "$holder" || true
expect 1 "$rc" "a cache directory in use"
case $out in *"in use by another node"*) ;; *) fail "in use: $out" ;; esac
# a lake that cannot be reached
set +e
out=$("$pier" --lake "host=$tmp/nowhere dbname=x" --cache-dir "$tmp/n3" boards 2>&1); rc=$?
set -e
expect 1 "$rc" "unreachable lake"
case $out in *LakeUnavailable*) ;; *) fail "unreachable: $out" ;; esac

# tidy: the boards this run made
"$pier" "${n1[@]}" drop "$b" >/dev/null
"$pier" "${n1[@]}" drop "$o" >/dev/null
echo "pier on a PostgreSQL lake: every check passed"
