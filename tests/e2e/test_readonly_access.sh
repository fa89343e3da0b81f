#!/usr/bin/env bash
# --readonly serves a lake its user cannot write (docs/backup.md): the
# lake file 0444 in a writable directory, and a 0555 directory holding it
# with no -shm (SQLite then opens the file immutable). Every read command
# answers; a write fails with WriteFailed; the file is left byte for byte.
# Root ignores file modes, so the commands run as nobody (setpriv).
set -euo pipefail
pier=$1
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"

as_user=()
if [ "$(id -u)" -eq 0 ]; then
    command -v setpriv >/dev/null || { echo "needs setpriv as root"; exit 77; }
    as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
fi
fail() { echo "FAIL: $*"; exit 1; }

"$pier" --data "$tmp/d" insert b '[{"id":"a","n":1},{"id":"b","n":2}]' \
    >/dev/null
"$pier" --data "$tmp/d" sql "CREATE TABLE t(id INTEGER PRIMARY KEY, x TEXT);
    INSERT INTO t VALUES (1, 'one')" >/dev/null

check() {   # $1: what the case is
    cp "$tmp/d/lake.sqlite" "$tmp/before"
    local p=("${as_user[@]}" "$pier" --data "$tmp/d" --readonly)
    [ "$("${p[@]}" count b)" = 2 ] || fail "$1: count"
    [ "$("${p[@]}" boards)" = b ] || fail "$1: boards"
    "${p[@]}" dump b | grep -q '"id":"b"' || fail "$1: dump"
    "${p[@]}" get b a >/dev/null || fail "$1: get"
    "${p[@]}" schema b >/dev/null || fail "$1: schema"
    [ "$("${p[@]}" query b 'SELECT sum(n) AS s FROM {{board}}' | sed -n 2p)" \
        = 3 ] || fail "$1: query"
    [ "$("${p[@]}" sql 'SELECT x FROM t' | sed -n 2p)" = one ] ||
        fail "$1: sql SELECT"
    [ "$("${p[@]}" tables)" = t ] || fail "$1: tables"
    "${p[@]}" changes b >/dev/null || fail "$1: changes"
    "${p[@]}" stats >/dev/null || fail "$1: stats"
    local rc=0 err
    err=$("${p[@]}" insert b '{"id":"c"}' 2>&1) || rc=$?
    [ "$rc" -eq 1 ] || fail "$1: insert exit $rc"
    case $err in
        "pier: error: WriteFailed: the lake '$tmp/d' is open read-only"*) ;;
        *) fail "$1: insert said: $err" ;;
    esac
    rc=0
    "${p[@]}" sql "DELETE FROM t" 2>/dev/null || rc=$?
    [ "$rc" -eq 1 ] || fail "$1: sql DELETE exit $rc"
    cmp -s "$tmp/before" "$tmp/d/lake.sqlite" || fail "$1: the lake changed"
    # Without --readonly, the same user is refused at open.
    rc=0
    "${as_user[@]}" "$pier" --data "$tmp/d" count b 2>/dev/null || rc=$?
    [ "$rc" -eq 1 ] || fail "$1: a writable open of it exited $rc"
}

chmod 0444 "$tmp/d/lake.sqlite"
chmod 0777 "$tmp/d"            # (the -shm may be made: the file may not)
check "a 0444 file"
rm -f "$tmp/d/lake.sqlite-shm" "$tmp/d/lake.sqlite-wal"
chmod 0555 "$tmp/d"
check "a 0555 directory"
[ ! -e "$tmp/d/lake.sqlite-shm" ] || fail "a -shm was made in a 0555 directory"
echo "a lake its user cannot write is read with --readonly"
