#!/usr/bin/env bash
# pg.sh: a throwaway PostgreSQL server for the tests of the PostgreSQL lake.
#
#   pg.sh start DIR        initdb and start a server; print its libpq
#                          connection string
#   pg.sh url DIR          print the connection string of DIR's server
#   pg.sh stop DIR         stop DIR's server; remove its files and DIR
#   pg.sh halt DIR         stop DIR's server at once (immediate: as a
#                          crash would), keeping its files
#   pg.sh resume DIR       start a halted server again on its files
#   pg.sh restart DIR      halt, then resume
#   pg.sh run DIR CMD...   run CMD with PIER_TEST_PG_URL set to DIR's
#                          connection string (with none in DIR: as the
#                          environment has it), and PIER_TEST_PG_DIR to
#                          DIR (so that a test may restart the server)
#
# ctest runs `start` as the setup of the fixture `pg` and `stop` as its
# cleanup; the tests that need the server run through `run`
# (CMakeLists.txt). Exit status: 0; 77 when PostgreSQL cannot be found or
# started, after lines on stderr that begin with "SKIP:" and say why (the
# caller skips; with PIER_TEST_PG_REQUIRE=1 it is 1, for a machine that
# must have it); 1 on any other failure, a stop that leaves a process or a
# file behind among them.
#
# The server:
# - lives in its own tree, /tmp/pier-pg.XXXXXX: its data directory, its
#   logs and its Unix socket. The tree is in /tmp rather than in DIR so that
#   the socket's path stays well under the 107 bytes a socket address holds,
#   and so that the unprivileged user below can reach it wherever DIR is.
# - opens no TCP port (listen_addresses is empty), so it clashes with no
#   other server; its port number, drawn at random, only names its socket.
# - has one role, `pier`, a superuser with a random password, and asks for
#   it (scram-sha-256) so that tests can check what a wrong one does.
# - runs with fsync off: it dies with the tests, and no test takes the
#   machine down under it (PIER_PG_FSYNC=on turns it on: the benchmark's
#   durable writes need it).
# - runs, when pg.sh runs as root, as the system user pier-test (made when
#   missing), since initdb and postgres refuse to run as root.
#
# DIR (mode 0700) holds `tree` (the tree's path) and `url` (the connection
# string, written once the server answers). Nothing else may be in it:
# start and stop refuse a DIR that holds anything else rather than remove
# it. The tree names DIR in `owner`, so that a later start stops a server
# whose DIR was removed without a stop.
#
# The server binaries (initdb, pg_ctl, postgres) are looked for in
# $PIER_PG_BINDIR when it is set (and nowhere else), else in the newest
# /usr/lib/postgresql/<version>/bin (Debian's layout), else on PATH.
set -euo pipefail

SKIP=77
SERVER_USER=pier-test         # who runs the server when we are root
ROLE=pier                     # the role tests connect as

# The caller's PG* variables (PGHOST, PGPORT, PGPASSWORD...) would steer
# psql and pg_ctl elsewhere.
for v in $(compgen -e); do
    case $v in PG*) unset "$v" ;; esac
done

die() {
    echo "pg.sh: $*" >&2
    exit 1
}

# Says loudly why there is no server, and exits with the skip code.
skip() {
    {
        echo "SKIP: no throwaway PostgreSQL: $*"
        echo "SKIP: the tests that need PostgreSQL are skipped; as root," \
             "scripts/setup.sh installs it (Debian's postgresql)"
    } >&2
    if [ "${PIER_TEST_PG_REQUIRE:-0}" = 1 ]; then
        echo "pg.sh: PIER_TEST_PG_REQUIRE=1: failing instead" >&2
        exit 1
    fi
    exit "$SKIP"
}

usage() {
    echo "usage: pg.sh start|url|stop|halt|resume|restart DIR, or" \
        "pg.sh run DIR CMD..." >&2
    exit 2
}

is_root() {
    [ "$(id -u)" -eq 0 ]
}

has_server() {  # has_server BINDIR
    [ -x "$1/initdb" ] && [ -x "$1/pg_ctl" ] && [ -x "$1/postgres" ]
}

# Prints the directory of the server binaries, or fails.
find_bindir() {
    local d
    if [ -n "${PIER_PG_BINDIR:-}" ]; then
        has_server "$PIER_PG_BINDIR" || return 1
        echo "$PIER_PG_BINDIR"
        return 0
    fi
    # Newest major version first; an unmatched glob is its own text,
    # which has_server rejects.
    while IFS= read -r d; do
        if has_server "$d"; then
            echo "$d"
            return 0
        fi
    done < <(printf '%s\n' /usr/lib/postgresql/*/bin | sort -rV)
    if d=$(command -v initdb 2>/dev/null); then
        d=$(dirname "$d")
        if has_server "$d"; then
            echo "$d"
            return 0
        fi
    fi
    return 1
}

# Makes the server's system user unless it is there. Two starts at once
# may both try; useradd then fails for one of them (the user exists, or
# /etc/passwd is locked), which the loop absorbs.
ensure_user() {
    local i
    for i in 1 2 3 4 5; do
        if id -u "$SERVER_USER" >/dev/null 2>&1; then
            return 0
        fi
        PATH="$PATH:/usr/sbin:/sbin" useradd --system --user-group \
            --no-create-home --home-dir /nonexistent \
            --shell /usr/sbin/nologin "$SERVER_USER" >/dev/null 2>&1 ||
            sleep "$i"
    done
    id -u "$SERVER_USER" >/dev/null 2>&1
}

# Runs a command as the server's user, in the tree (initdb fails when it
# cannot read its working directory, as pier-test cannot read /root).
as_server() {  # as_server TREE CMD...
    local tree=$1
    shift
    if is_root; then
        (cd "$tree" && setpriv --reuid="$SERVER_USER" \
            --regid="$SERVER_USER" --clear-groups -- "$@")
    else
        (cd "$tree" && "$@")
    fi
}

# The processes whose working directory is in the tree: the postmaster
# changes to its data directory, and every server process inherits it.
procs_in() {  # procs_in TREE
    local p l
    for p in /proc/[0-9]*; do
        l=$(readlink "$p/cwd" 2>/dev/null) || continue
        case $l in
            "$1" | "$1"/*) echo "${p#/proc/}" ;;
        esac
    done
}

# Waits up to `tenths` tenths of a second for the tree's processes to end.
wait_gone() {  # wait_gone TREE TENTHS
    local i
    for ((i = 0; i < $2; i++)); do
        [ -z "$(procs_in "$1")" ] && return 0
        sleep 0.1
    done
    [ -z "$(procs_in "$1")" ]
}

# DIR must be pg.sh's: missing, empty, or holding `tree` and `url` only.
check_dir() {  # check_dir DIR
    local f
    [ -e "$1" ] || return 0
    [ -d "$1" ] || die "$1 is not a directory"
    for f in "$1"/* "$1"/.[!.]*; do
        [ -e "$f" ] || continue
        case ${f##*/} in
            tree | url) ;;
            *) die "$1 holds ${f##*/}: not a directory of pg.sh's" ;;
        esac
    done
}

# Stops the server of a tree, then removes the tree. Fails, saying why,
# if a process or a file of it is left.
stop_tree() {  # stop_tree TREE
    local tree=$1 bindir pid="" left
    [ -d "$tree" ] || return 0
    if [ -f "$tree/data/postmaster.pid" ]; then
        pid=$(head -n 1 "$tree/data/postmaster.pid")
    fi
    if [ -n "$pid" ] && [ -n "$(procs_in "$tree")" ] &&
       bindir=$(find_bindir); then
        # Fast shutdown ends the sessions and checkpoints; immediate
        # only ends them, when the fast one takes too long.
        as_server "$tree" "$bindir/pg_ctl" stop -D "$tree/data" \
            -m fast -w -t 30 >/dev/null 2>&1 ||
        as_server "$tree" "$bindir/pg_ctl" stop -D "$tree/data" \
            -m immediate -w -t 30 >/dev/null 2>&1 || true
    fi
    # What is left (no binaries to stop it with, a postmaster killed with
    # its children still running): each by its id.
    if ! wait_gone "$tree" 50; then
        for pid in $(procs_in "$tree"); do
            kill -KILL "$pid" 2>/dev/null || true
        done
        wait_gone "$tree" 50 || true
    fi
    rm -rf "$tree" 2>/dev/null || true
    left=$(procs_in "$tree")
    if [ -n "$left" ]; then
        echo "pg.sh: server processes left running: $left" >&2
        return 1
    fi
    if [ -e "$tree" ]; then
        echo "pg.sh: $tree left behind" >&2
        return 1
    fi
}

cmd_stop() {  # cmd_stop DIR
    local dir=$1 tree=""
    check_dir "$dir"
    [ -e "$dir" ] || return 0
    if [ -f "$dir/tree" ]; then
        tree=$(cat "$dir/tree")
        case $tree in
            /tmp/pier-pg.??????) ;;
            *) die "$dir/tree names '$tree', not a tree of pg.sh's" ;;
        esac
        stop_tree "$tree" || exit 1
    fi
    rm -rf "$dir"
    [ ! -e "$dir" ] || die "$dir left behind"
}

# Stops the servers whose DIR is gone without a stop (a build directory
# removed while a run was interrupted), which nothing else would find: a
# tree names its DIR in `owner` once DIR names the tree, so a tree whose
# DIR no longer names it is an orphan. Trees this user cannot read are
# left alone.
sweep_orphans() {
    local t owner
    for t in /tmp/pier-pg.??????; do
        [ -r "$t/owner" ] || continue
        owner=$(cat "$t/owner" 2>/dev/null) || continue
        if [ "$(cat "$owner/tree" 2>/dev/null)" != "$t" ]; then
            echo "pg.sh: stopping $t, left by $owner" >&2
            stop_tree "$t" || true
        fi
    done
}

# Reports why the server did not come up, takes down what did, and skips.
start_failed() {  # start_failed DIR WHY LOG
    {
        echo "pg.sh: $2; the end of $3:"
        tail -n 20 "$3" 2>/dev/null | sed 's/^/    /'
    } >&2
    cmd_stop "$1" >&2
    skip "$2"
}

cmd_start() {  # cmd_start DIR
    local dir=$1 bindir tree pw port url
    # A server that an interrupted run left in DIR goes first, and so do
    # those whose DIR is gone.
    cmd_stop "$dir"
    sweep_orphans
    bindir=$(find_bindir) ||
        skip "no initdb, pg_ctl and postgres in" \
             "${PIER_PG_BINDIR:-/usr/lib/postgresql/*/bin or on PATH}"
    if is_root; then
        command -v setpriv >/dev/null 2>&1 ||
            skip "no setpriv to run the server as $SERVER_USER"
        ensure_user ||
            skip "cannot make the user $SERVER_USER to run the server" \
                 "(initdb and postgres refuse to run as root)"
    fi
    mkdir -p "$dir"
    chmod 700 "$dir"
    tree=$(mktemp -d /tmp/pier-pg.XXXXXX)
    echo "$tree" >"$dir/tree"
    echo "$dir" >"$tree/owner"
    if is_root; then
        chown "$SERVER_USER:" "$tree"
    fi

    pw=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
    port=$((20000 + RANDOM % 40000))
    (umask 077 && printf '%s\n' "$pw" >"$tree/pw")
    if is_root; then
        chown "$SERVER_USER:" "$tree/pw"
    fi
    if ! as_server "$tree" "$bindir/initdb" -D "$tree/data" -U "$ROLE" \
            --pwfile="$tree/pw" --auth=scram-sha-256 --locale=C \
            --encoding=UTF8 --no-sync >"$tree/initdb.log" 2>&1; then
        start_failed "$dir" "initdb failed ($bindir/initdb)" \
            "$tree/initdb.log"
    fi
    rm -f "$tree/pw"
    # The tree is pier-test's, and the files must stay its: append as it.
    printf '%s\n' "listen_addresses = ''" \
        "unix_socket_directories = '$tree'" "port = $port" \
        "fsync = ${PIER_PG_FSYNC:-off}" |
        as_server "$tree" tee -a "$tree/data/postgresql.conf" >/dev/null

    # -w: pg_ctl returns once the server accepts connections.
    if ! as_server "$tree" "$bindir/pg_ctl" start -D "$tree/data" \
            -l "$tree/server.log" -w -t 60 >"$tree/pg_ctl.log" 2>&1; then
        start_failed "$dir" "the server did not start ($bindir/pg_ctl)" \
            "$tree/server.log"
    fi
    url="host=$tree port=$port user=$ROLE password=$pw dbname=postgres"
    # The string itself must work, password and all.
    if [ -x "$bindir/psql" ] &&
       ! "$bindir/psql" -X -q -A -t -d "$url" -c 'SELECT 1' \
            >"$tree/psql.log" 2>&1; then
        start_failed "$dir" "the server refuses its connection string" \
            "$tree/psql.log"
    fi
    echo "$url" >"$dir/url"
    echo "$url"
}

[ $# -ge 2 ] || usage
cmd=$1
# Absolute, since start and stop leave the working directory.
dir=$(realpath -m -- "$2")
shift 2
case $cmd in
    start)
        [ $# -eq 0 ] || usage
        cd /
        cmd_start "$dir"
        ;;
    stop)
        [ $# -eq 0 ] || usage
        cd /
        cmd_stop "$dir"
        ;;
    url)
        [ $# -eq 0 ] || usage
        [ -f "$dir/url" ] || skip "no server in $dir"
        cat "$dir/url"
        ;;
    halt|resume|restart)
        [ $# -eq 0 ] || usage
        [ -f "$dir/tree" ] || die "no server in $dir"
        tree=$(cat "$dir/tree")
        bindir=$(find_bindir) || die "no pg_ctl"
        cd /
        if [ "$cmd" != resume ]; then
            as_server "$tree" "$bindir/pg_ctl" stop -D "$tree/data" \
                -m immediate -w -t 30 >/dev/null 2>&1 || true
        fi
        if [ "$cmd" != halt ]; then
            as_server "$tree" "$bindir/pg_ctl" start -D "$tree/data" \
                -l "$tree/server.log" -w -t 60 >"$tree/pg_ctl.log" 2>&1 ||
                die "the server did not start again (see $tree/server.log)"
        fi
        ;;
    run)
        [ $# -ge 1 ] || usage
        PIER_TEST_PG_DIR=$dir
        export PIER_TEST_PG_DIR
        if [ -f "$dir/url" ]; then
            PIER_TEST_PG_URL=$(cat "$dir/url")
            export PIER_TEST_PG_URL
        fi
        exec "$@"
        ;;
    *)
        usage
        ;;
esac
