#!/usr/bin/env bash
# A lake on a file system mounted read-only is refused with the operating
# system's own reason (EROFS: "Read-only file system"), not a guess: SQLite
# opens such a file for reading without saying why it could not write.
# Opened with --readonly, it is read.
# The file system is a tmpfs remounted read-only in a mount namespace of
# this test's own (unshare), or, where user namespaces are not allowed,
# directly as root.
set -euo pipefail
pier=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/inside.sh" <<'INSIDE'
set -eu
pier=$1 mnt=$2
mount -t tmpfs none "$mnt"
"$pier" --data "$mnt/d" insert b '{"id":"a"}' >/dev/null
mount -o remount,ro "$mnt"
rc=0
"$pier" --data "$mnt/d" insert b '{"id":"b"}' 2>"$mnt/../err" || rc=$?
# --readonly reads it there (docs/backup.md): no -shm can be made, so the
# file is opened immutable.
"$pier" --data "$mnt/d" --readonly count b >"$mnt/../count" 2>&1 || true
umount "$mnt" 2>/dev/null || true
exit "$rc"
INSIDE
mkdir "$tmp/mnt"
rc=0
if unshare --user --map-root-user --mount true 2>/dev/null; then
    unshare --user --map-root-user --mount \
        bash "$tmp/inside.sh" "$pier" "$tmp/mnt" || rc=$?
elif [ "$(id -u)" -eq 0 ]; then
    bash "$tmp/inside.sh" "$pier" "$tmp/mnt" || rc=$?
else
    echo "needs user namespaces (unshare) or root to mount a tmpfs"; exit 1
fi
want="pier: error: LakeUnavailable: cannot open lake '$tmp/mnt/d/lake.sqlite' for writing: Read-only file system (a read-only open reads it: --readonly)"
if [ "$rc" -ne 1 ] || [ "$(cat "$tmp/err")" != "$want" ]; then
    echo "exit $rc, stderr:"; cat "$tmp/err"; echo "wanted: $want"; exit 1
fi
if [ "$(cat "$tmp/count")" != 1 ]; then
    echo "--readonly count on the read-only file system said:"
    cat "$tmp/count"; exit 1
fi
echo "a read-only file system is named as such, and read with --readonly"
