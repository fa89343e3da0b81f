#!/usr/bin/env bash
# The throwaway PostgreSQL of tests/support/pg.sh (ctest's fixture `pg`)
# leaves nothing behind: after `stop`, no process of the server runs and
# neither its tree nor DIR exists, whether the server was stopped in order,
# its postmaster was killed first, or `start` found one that an interrupted
# run left in DIR; a server whose DIR was removed without a stop is stopped
# by the next start. Without PostgreSQL (no binaries, or a server that will
# not start) `start` says SKIP, exits 77 and leaves nothing either, and
# PIER_TEST_PG_REQUIRE=1 makes that a failure. A DIR holding anything else
# is refused, never removed.
set -euo pipefail
src=$2
pg=$src/tests/support/pg.sh
tmp=$(mktemp -d)
# As root the server runs as pier-test, which must reach the fake
# binaries below.
chmod 755 "$tmp"
cleanup() {
    local d
    for d in "$tmp"/srv-*; do
        if [ -e "$d" ]; then
            bash "$pg" stop "$d" >/dev/null 2>&1 || true
        fi
    done
    rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
    echo "$*"
    exit 1
}

# Whether a process runs (a zombie, ended but not yet reaped, does not).
alive() {  # alive PID
    local st
    st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 1
    [ "${st%% *}" != Z ]
}

# The processes working in a tree: the server's (pg.sh finds them so too).
procs_in() {  # procs_in TREE
    local p l
    for p in /proc/[0-9]*; do
        l=$(readlink "$p/cwd" 2>/dev/null) || continue
        case $l in "$1" | "$1"/*) echo "${p#/proc/}" ;; esac
    done
}

# Starts a server in DIR; skips the whole test when there is none to have.
start() {  # start DIR
    local rc=0
    bash "$pg" start "$1" >"$tmp/url" 2>"$tmp/err" || rc=$?
    if [ "$rc" -eq 77 ]; then
        cat "$tmp/err"
        echo "SKIP: e2e/test_pg_fixture: no PostgreSQL to start"
        exit 77
    fi
    [ "$rc" -eq 0 ] || { cat "$tmp/err"; fail "start $1 failed ($rc)"; }
}

# The server's processes: its postmaster (from postmaster.pid) and every
# process working in its tree.
server_pids() {  # server_pids DIR
    local tree
    tree=$(cat "$1/tree")
    head -n 1 "$tree/data/postmaster.pid"
    procs_in "$tree"
}

# After stop: none of `pids` runs, and neither the tree nor DIR is there.
check_gone() {  # check_gone DIR TREE PIDS...
    local dir=$1 tree=$2 p
    shift 2
    for p in "$@"; do
        ! alive "$p" || fail "server process $p still runs after stop"
    done
    [ -z "$(procs_in "$tree")" ] || fail "processes still work in $tree"
    [ ! -e "$tree" ] || fail "$tree left behind"
    [ ! -e "$dir" ] || fail "$dir left behind"
}

# In order: start, the string in three ways, stop.
a=$tmp/srv-a
start "$a"
url=$(cat "$tmp/url")
case $url in
    "host=/tmp/pier-pg."*" port="*" user=pier password="*" dbname=postgres") ;;
    *) fail "unexpected connection string: $url" ;;
esac
[ "$(bash "$pg" url "$a")" = "$url" ] || fail "url differs from start's"
got=$(bash "$pg" run "$a" sh -c 'printf %s "$PIER_TEST_PG_URL"')
[ "$got" = "$url" ] || fail "run gave PIER_TEST_PG_URL='$got'"
tree=$(cat "$a/tree")
pids=$(server_pids "$a")
[ "$(echo "$pids" | sort -u | wc -l)" -ge 2 ] ||
    fail "expected a postmaster and its children, found: $pids"
for p in $pids; do
    alive "$p" || fail "server process $p is not running"
done
bash "$pg" stop "$a"
# shellcheck disable=SC2086
check_gone "$a" "$tree" $pids
bash "$pg" stop "$a" || fail "a second stop failed"

# A server left by an interrupted run is replaced by the next start; a
# postmaster killed with SIGKILL leaves its children, which stop ends.
b=$tmp/srv-b
start "$b"
old_tree=$(cat "$b/tree")
old_pids=$(server_pids "$b")
start "$b"
# shellcheck disable=SC2086
for p in $old_pids; do
    ! alive "$p" || fail "the replaced server's process $p still runs"
done
[ ! -e "$old_tree" ] || fail "the replaced server's $old_tree is left"
tree=$(cat "$b/tree")
pids=$(server_pids "$b")
kill -KILL "$(head -n 1 "$tree/data/postmaster.pid")"
bash "$pg" stop "$b"
# shellcheck disable=SC2086
check_gone "$b" "$tree" $pids

# A server whose DIR was removed without a stop (a build directory removed
# after an interrupted run) is stopped by the next start, of any DIR.
e=$tmp/srv-e
start "$e"
tree=$(cat "$e/tree")
pids=$(server_pids "$e")
rm -r "$e"
f=$tmp/srv-f
start "$f"
# shellcheck disable=SC2086
check_gone "$e" "$tree" $pids
bash "$pg" stop "$f"

# A DIR that is not pg.sh's is refused and kept.
c=$tmp/srv-c
mkdir "$c"
echo keep >"$c/precious"
if bash "$pg" start "$c" 2>"$tmp/err"; then
    fail "start took a directory holding another file"
fi
grep -q "not a directory of pg.sh's" "$tmp/err" || { cat "$tmp/err"; exit 1; }
[ "$(cat "$c/precious")" = keep ] || fail "start touched another's file"
rm -r "$c"

# No binaries: SKIP and 77, nothing made; a failure when required.
d=$tmp/srv-d
rc=0
PIER_PG_BINDIR=$tmp/none bash "$pg" start "$d" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 77 ] || fail "start without binaries exited $rc, not 77"
grep -q '^SKIP: no throwaway PostgreSQL: no initdb' "$tmp/err" ||
    { cat "$tmp/err"; exit 1; }
[ ! -e "$d" ] || fail "start without binaries left $d"
rc=0
PIER_TEST_PG_REQUIRE=1 PIER_PG_BINDIR=$tmp/none \
    bash "$pg" start "$d" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] || fail "a required server missing exited $rc, not 1"

# The default search, with Debian's directory hidden (in a mount namespace
# of this test's own, as root where it may make one): the same skip,
# unless an initdb on PATH leads elsewhere.
hideable=yes
if on_path=$(command -v initdb 2>/dev/null); then
    case $(realpath "$on_path") in
        /usr/lib/postgresql/*) ;;
        *) hideable=no ;;
    esac
fi
if [ "$hideable" = yes ] && [ "$(id -u)" -eq 0 ] &&
   [ -d /usr/lib/postgresql ] && unshare -m true 2>/dev/null; then
    rc=0
    # shellcheck disable=SC2016
    unshare -m bash -c 'mount -t tmpfs none /usr/lib/postgresql &&
        exec bash "$0" start "$1"' "$pg" "$d" 2>"$tmp/err" || rc=$?
    [ "$rc" -eq 77 ] || { cat "$tmp/err"; fail "hidden: exited $rc"; }
    grep -q '^SKIP: .*/usr/lib/postgresql/\*/bin' "$tmp/err" ||
        { cat "$tmp/err"; exit 1; }
    [ ! -e "$d" ] || fail "start with binaries hidden left $d"
fi

# Binaries there, but initdb fails: SKIP with its output, nothing left.
fake=$tmp/fake-bin
mkdir "$fake"
for bin in initdb pg_ctl postgres; do
    printf '#!/bin/sh\necho "%s: cannot work here" >&2\nexit 1\n' "$bin" \
        >"$fake/$bin"
    chmod 755 "$fake/$bin"
done
rc=0
PIER_PG_BINDIR=$fake bash "$pg" start "$d" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 77 ] || { cat "$tmp/err"; fail "initdb failing: exited $rc"; }
if ! grep -q '^SKIP: no throwaway PostgreSQL: initdb failed' "$tmp/err" ||
   ! grep -q 'initdb: cannot work here' "$tmp/err"; then
    cat "$tmp/err"
    exit 1
fi
tree=$(grep -o '/tmp/pier-pg\.[A-Za-z0-9]\{6\}' "$tmp/err" | head -n 1)
[ -n "$tree" ] || { cat "$tmp/err"; fail "the failure names no tree"; }
check_gone "$d" "$tree"
echo "pg.sh starts, hands out and stops a server, and leaves nothing"
