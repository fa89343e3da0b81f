#!/usr/bin/env bash
# Hostile arguments and environment on every command of `pier --help`:
# each run exits 0, 1 with `pier: error: <Tag>: ...`, or 2 with
# `pier: usage: ...`, never by a signal, a sanitizer's report or a hang.
#
# The table below is the input classes; every command (read from
# `pier --help`, so a new command is covered by itself) gets each hostile
# value alone and in every later argument position, each of its options
# (read from its own --help) without a value and with hostile values, and
# each hostile environment. A lake with boards, rows and a declared table
# is laid anew for each command, so that a value that reaches the library
# meets real data. Diagnostics stay text: valid UTF-8, no control bytes.
#
# `make test` runs every input class on every command, each value in one
# argument position (rotating from command to command); with
# PIER_BAD_INPUT_FULL=1 (`make soak`) every value goes in every position,
# with every option and under every environment.
set -uo pipefail
pier=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# A sanitizer's report must not pass for an ordinary failure (exit 1).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=87"
export PIER_NOW=2026-01-01T00:00:00Z
unset PIER_DATA PIER_HISTORY

long=$(head -c 131000 /dev/zero | tr '\0' x)   # near the kernel's limit
# Input class | value
values=(
    ''                                  # empty
    '99999999999999999999999999999'     # beyond 64 bits
    '-1'                                # negative
    '-9223372036854775809'              # below INT64_MIN
    $'\xff\xfe\xc3(\xed\xa0\x80'        # invalid UTF-8, a surrogate
    $'a\x01\x1b[2J\x7f\r\nb\tc'         # control bytes
    "$long"                             # very long
    '--'                                # the end of options
    '-x'                                # an unknown short option
    '%s%s%n%x'                          # printf directives
)

full=${PIER_BAD_INPUT_FULL:-0}
runs=0
failures=0
lay_lake() {
    rm -rf data
    cp -r template data
}

# check TIMEOUT ARGS...: runs pier ARGS (stdin empty, the environment
# changed by the env(1) arguments in envargs) and judges it.
envargs=()
check() {
    local limit=$1
    shift
    # --foreground: timeout(1) signals pier alone, not its process group
    # as well, where a second SIGINT would also reach LeakSanitizer's
    # exit-time tracer and hang it.
    timeout --foreground --preserve-status -s INT -k 5 "$limit" \
        env ${envargs[@]+"${envargs[@]}"} "$pier" "$@" \
        </dev/null >out.txt 2>err.txt
    local rc=$?
    runs=$((runs + 1))
    local first
    first=$(head -n 1 err.txt | head -c 300)
    local why=
    case $rc in
        0) ;;
        1) [[ $first =~ ^pier:\ error:\ [A-Z][A-Za-z]+:\ . ]] ||
           [[ $first =~ ^\{\"error\":\"[A-Z][A-Za-z]+\",\"message\": ]] ||
               why="exit 1 without a tagged error" ;;
        2) [[ $first == 'pier: usage: '* ]] ||
               why="exit 2 without a usage line" ;;
        *) why="exit $rc" ;;
    esac
    if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' err.txt; then
        why="control bytes in a diagnostic"
    elif ! iconv -f UTF-8 -t UTF-8 err.txt >/dev/null 2>&1; then
        why="a diagnostic that is not UTF-8"
    fi
    if grep -qE 'Sanitizer|runtime error|AddressSanitizer' err.txt; then
        why="a sanitizer's report"
    fi
    if [ -n "$why" ]; then
        failures=$((failures + 1))
        local shown
        shown=$(printf '%q ' ${envargs[@]+"${envargs[@]}"} pier "$@" |
                head -c 400)
        echo "FAIL ($why): $shown"
        head -c 2000 err.txt
        echo
    fi
}

# The lake each command starts from.
export PIER_DATA="$tmp/template"
"$pier" insert b '[{"id":"a","n":1,"t":"x"},{"id":"c","n":2}]' >/dev/null
"$pier" create-board s --column 'p=decimal(12,2)' --strict >/dev/null
"$pier" sql "CREATE TABLE items (id INT64 PRIMARY KEY, name TEXT)" \
    >/dev/null
"$pier" sql "INSERT INTO items VALUES (1, 'one')" >/dev/null
echo '[{"op":"insert","board":"b","rows":[{"id":"tx1"}]}]' >tx.json
export PIER_DATA="$tmp/data"

commands=$("$pier" --help |
           awk '/^Commands:/ { on = 1; next } /^$/ { on = 0 } on { print $1 }')
[ -n "$commands" ] || { echo "no commands in pier --help"; exit 1; }

# Global options, before any command.
lay_lake
for v in "${values[@]}"; do
    check 30 "$v"
    check 30 --data "$v" boards
    check 30 "--durability=$v" boards
    check 30 "--auto-create=$v" boards
    check 30 "--columns=$v" boards
done
check 30 --data
check 30 --json=1 boards
check 30 --bogus boards
check 30 -- boards
check 30 --json -- count b

# picked I: whether case I of a command runs (all of them in full mode;
# else one in N, rotating with the command's number).
picked() {
    [ "$full" = 1 ] || [ $(( ($1 + nth) % $2 )) -eq 0 ]
}

nth=0
for cmd in $commands; do
    nth=$((nth + 1))
    lay_lake
    limit=30
    [ "$cmd" = watch ] && limit=1      # a valid watch follows until SIGINT
    usage=$("$pier" "$cmd" --help | head -n 1)
    options=$(grep -oE -- '(--[a-z-]+|-f)( [A-Z][A-Z=]*)?' <<<"$usage" |
              sort -u)
    check "$limit" "$cmd"
    check "$limit" "$cmd" --bogus
    picked 0 2 && check "$limit" "$cmd" --bogus=1
    picked 1 2 && check "$limit" "$cmd" -Z
    check "$limit" "$cmd" -- -x
    i=0
    for v in "${values[@]}"; do
        i=$((i + 1))
        picked "$i" 4 && check "$limit" "$cmd" "$v"
        picked $((i + 1)) 4 && check "$limit" "$cmd" b "$v"
        picked $((i + 2)) 4 && check "$limit" "$cmd" b a "$v" "$v"
        picked $((i + 3)) 4 && check "$limit" "$cmd" -- "$v" "$v" "$v"
    done
    while read -r opt arg; do
        [ -n "$opt" ] || continue
        if [ -z "$arg" ]; then                 # a flag
            check "$limit" "$cmd" b "$opt=1"
            continue
        fi
        check "$limit" "$cmd" b "$opt"          # its value missing
        picked 0 2 && check "$limit" "$cmd" "$opt"
        i=0
        for v in '' '99999999999999999999999999999' '-1' \
                 $'\xff\xfe' $'a\x01\nb' "$long" '=' 'x=' '{"a":' '[1,'; do
            i=$((i + 1))
            picked "$i" 5 && check "$limit" "$cmd" b "$opt" "$v"
            picked $((i + 2)) 5 && check "$limit" "$cmd" b a "$opt=$v"
        done
    done <<<"$options"
done

# The environment, on every command: PIER_DATA naming a file, a path
# under a file, a directory the kernel will not create, an overlong path;
# PIER_NOW malformed; PIER_HISTORY unwritable; HOME unset.
echo "not a directory" >plainfile
longdir=$tmp/$(head -c 5000 /dev/zero | tr '\0' d)
envs=(
    "PIER_DATA=$tmp/plainfile"
    "PIER_DATA=$tmp/plainfile/below"
    "PIER_DATA=/proc/self/no/such/dir"
    "PIER_DATA=$longdir"
    "PIER_DATA=$tmp/template/lake.sqlite"
    "PIER_NOW=yesterday"
    "PIER_NOW=2026-02-30T00:00:00Z"
    "PIER_NOW=99999-01-01T00:00:00Z"
    "PIER_NOW=2026-01-01T00:00:60Z"
    $'PIER_NOW=2026-01-01T00:00:00Z\x01'
    "PIER_HISTORY=/proc/self/no/history"
    "HOME="
)
nth=0
for cmd in $commands; do
    nth=$((nth + 1))
    lay_lake
    limit=30
    [ "$cmd" = watch ] && limit=1
    i=0
    for e in "${envs[@]}"; do
        i=$((i + 1))
        envargs=("$e")
        picked "$i" 4 && check "$limit" "$cmd" b
        picked $((i + 2)) 8 && check "$limit" "$cmd"
    done
    envargs=(-u HOME)
    check "$limit" "$cmd" b                   # HOME unset altogether
    envargs=()
done

echo "$runs runs of pier on hostile input, $failures failed"
[ "$failures" -eq 0 ]
