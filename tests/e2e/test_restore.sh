#!/usr/bin/env bash
# pier restore (docs/backup.md) replaces a lake atomically and only when no
# other process has it open:
#  - a process holding the lake (pier watch) makes restore, and a backup
#    --force over it, fail with WriteFailed; the lake stays byte for byte;
#  - a copy SQLite cannot restore into the lake (another page size) fails
#    before anything is written;
#  - a restore killed at random points (SIGKILL) leaves the old lake or
#    the new one, whole, never a mix.
set -euo pipefail
pier=$1
tmp=$(mktemp -d)
watcher=
trap '[ -z "$watcher" ] || kill "$watcher" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$pier" --data "$tmp/d" insert b '[{"id":"old1"},{"id":"old2"}]' >/dev/null
for i in $(seq 1 3000); do
    printf '{"id":"n%05d","pad":"%0300d"}\n' "$i" 0
done | "$pier" --data "$tmp/new" insert b - >/dev/null

# 1. Another process has the lake open.
"$pier" --data "$tmp/d" watch b >/dev/null 2>&1 &
watcher=$!
for _ in $(seq 1 50); do
    [ -e "$tmp/d/lake.sqlite-shm" ] && break
    sleep 0.1
done
sleep 0.3
cp "$tmp/d/lake.sqlite" "$tmp/before"
rc=0
err=$("$pier" --data "$tmp/d" restore "$tmp/new" 2>&1) || rc=$?
[ "$rc" -eq 1 ] || fail "restore beside a watcher exited $rc"
[ "$err" = "pier: error: WriteFailed: the lake '$tmp/d/lake.sqlite' is open in another process: stop it, then restore" ] ||
    fail "restore beside a watcher said: $err"
cmp -s "$tmp/before" "$tmp/d/lake.sqlite" || fail "the lake changed"
# Nor does backup --force swap it out from under the watcher.
rc=0
err=$("$pier" --data "$tmp/new" backup --force "$tmp/d" 2>&1) || rc=$?
[ "$rc" -eq 1 ] || fail "backup --force over a watched lake exited $rc"
[ "$err" = "pier: error: WriteFailed: the lake '$tmp/d/lake.sqlite' is open in another process: it was left alone" ] ||
    fail "backup --force over a watched lake said: $err"
cmp -s "$tmp/before" "$tmp/d/lake.sqlite" || fail "the lake changed"
kill "$watcher"
wait "$watcher" 2>/dev/null || true
watcher=

# 2. A lake of another page size cannot be copied into a WAL lake.
if command -v sqlite3 >/dev/null; then
    mkdir "$tmp/big"
    sqlite3 "$tmp/big/lake.sqlite" 'PRAGMA page_size = 8192; PRAGMA user_version = 0'
    "$pier" --data "$tmp/big" insert b '{"id":"big"}' >/dev/null
    rc=0
    "$pier" --data "$tmp/d" restore "$tmp/big" 2>"$tmp/err" || rc=$?
    [ "$rc" -eq 1 ] || fail "restore of another page size exited $rc"
    grep -q '^pier: error: WriteFailed: cannot restore the lake' "$tmp/err" ||
        fail "restore of another page size said: $(cat "$tmp/err")"
    [ "$("$pier" --data "$tmp/d" dump b | cut -d, -f1)" = \
      "$(printf '{"id":"old1"\n{"id":"old2"')" ] || fail "the old lake changed"
fi

# 3. Killed half-way: the old lake or the new one, whole.
old=0 new=0
for n in $(seq 1 12); do
    rm -rf "$tmp/k"
    "$pier" --data "$tmp/k" insert b '[{"id":"old1"},{"id":"old2"}]' >/dev/null
    "$pier" --data "$tmp/k" restore "$tmp/new" &
    pid=$!
    sleep "0.0$((n % 10))"
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    c=$("$pier" --data "$tmp/k" count b)
    case $c in
        2) old=$((old + 1)) ;;
        3000) new=$((new + 1)) ;;
        *) fail "kill $n: the lake holds $c rows" ;;
    esac
    "$pier" --data "$tmp/k" insert b '{"id":"after"}' >/dev/null ||
        fail "kill $n: the lake takes no write"
done
echo "restore refused beside a watcher; killed restores left $old old and $new new lakes, none torn"
