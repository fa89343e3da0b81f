#!/usr/bin/env bash
# Runs Pier's libFuzzer targets (tests/fuzz/README.md).
#
#   run.sh smoke BINARY OUT_DIR
#       One target's smoke run, as ctest's fuzz/<target>: its seed corpus
#       replayed, then FUZZ_SMOKE_RUNS more inputs (4000; 1000 or 2000 for
#       the slowest targets) from a fixed seed, so that a run repeats. Any
#       finding (a crash, a broken invariant, a leak, an input slower than
#       20 s) fails it; the input is kept under OUT_DIR/<target>/.
#   run.sh fuzz BUILD_DIR [TARGET...]
#       Each target (all by default) for FUZZ_SECONDS (60; 0: no limit)
#       and at most FUZZ_RUNS executions (-1: no limit), with its seed
#       corpus and dictionary. New inputs go to BUILD_DIR/corpus/<target>,
#       findings to BUILD_DIR/findings/<target>/. Exits 1 if any target
#       found anything.
#
# Lakes live under a directory of this run's own in /dev/shm (PIER_FUZZ_TMP,
# removed at the end), so that targets that write do not wait for a disk.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)

usage() {
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

# The dictionaries a target uses, concatenated into one file ($2).
make_dict() {
    local target=$1 out=$2 dicts=()
    case $target in
        json_rows|json_patch) dicts=(json) ;;
        sql_front|sql_exec)   dicts=(sql) ;;
        query)                dicts=(sql json) ;;
        types)                dicts=(types json) ;;
        tx_doc)               dicts=(json) ;;
        declarations)         dicts=(sql) ;;
        history_files)        dicts=(sql) ;;
        import)               dicts=(json sql) ;;
        *)                    dicts=() ;;
    esac
    : >"$out"
    local d
    for d in "${dicts[@]}"; do
        cat "$here/dict/$d.dict" >>"$out"
    done
    [ -s "$out" ]
}

# A scratch directory for lakes, in memory when there is /dev/shm.
scratch_root() {
    if [ -d /dev/shm ] && [ -w /dev/shm ]; then
        echo /dev/shm
    else
        echo "${TMPDIR:-/tmp}"
    fi
}

# run_target BINARY TARGET WORK CORPUS [libFuzzer options...]: runs one
# target with its seed corpus, new inputs in CORPUS, findings in WORK/;
# returns libFuzzer's status.
run_target() {
    local bin=$1 target=$2 work=$3 corpus=$4
    shift 4
    local seeds=$here/corpus/$target
    local opts=("$@")
    mkdir -p "$work" "$corpus"
    if make_dict "$target" "$work/dict"; then
        opts+=("-dict=$work/dict")
    fi
    local dirs=("$corpus")
    [ -d "$seeds" ] && dirs+=("$seeds")
    local tmp
    tmp=$(mktemp -d "$(scratch_root)/pier-fuzz.XXXXXX") || return 2
    PIER_FUZZ_TMP=$tmp "$bin" "${opts[@]}" -artifact_prefix="$work/" \
        -print_final_stats=1 "${dirs[@]}"
    local status=$?
    rm -rf "$tmp"
    return $status
}

smoke() {
    [ "$#" -eq 2 ] || usage
    local bin=$1 out=$2
    local target
    target=$(basename "$bin")
    target=${target#fuzz_}
    if [ ! -x "$bin" ]; then
        echo "fuzz: $bin is not built" >&2
        return 2
    fi
    local work=$out/$target
    rm -rf "$work"
    mkdir -p "$work"
    local nseeds=0
    [ -d "$here/corpus/$target" ] &&
        nseeds=$(find "$here/corpus/$target" -type f | wc -l)
    # A few seconds each: fewer inputs for the targets that open a lake
    # per input or rebuild one after each accepted input.
    local extra=4000
    case $target in
        lake_file|import) extra=1000 ;;
        json_patch) extra=2000 ;;
    esac
    local runs=$((nseeds + ${FUZZ_SMOKE_RUNS:-$extra}))
    if ! run_target "$bin" "$target" "$work" "$work/corpus" -seed=1 \
            -runs="$runs" \
            -timeout=20 -rss_limit_mb=2048; then
        echo "fuzz/$target: a finding; its input is kept in $work/" >&2
        ls "$work" >&2
        return 1
    fi
    rm -rf "$work"
}

fuzz() {
    [ "$#" -ge 1 ] || usage
    local build=$1
    shift
    local targets=("$@")
    if [ "${#targets[@]}" -eq 0 ]; then
        local src
        for src in "$here"/fuzz_*.c; do
            src=$(basename "$src" .c)
            targets+=("${src#fuzz_}")
        done
    fi
    local failed=() target
    for target in "${targets[@]}"; do
        local bin=$build/tests/fuzz/fuzz_$target
        if [ ! -x "$bin" ]; then
            echo "fuzz: $bin is not built" >&2
            failed+=("$target")
            continue
        fi
        local work=$build/findings/$target
        mkdir -p "$work"
        echo "fuzz: $target for ${FUZZ_SECONDS:-60} s" >&2
        if ! run_target "$bin" "$target" "$work" "$build/corpus/$target" \
                -max_total_time="${FUZZ_SECONDS:-60}" \
                -runs="${FUZZ_RUNS:--1}" -timeout=20 -rss_limit_mb=2048 \
                2>"$work/log"; then
            failed+=("$target")
            tail -n 40 "$work/log" >&2
        fi
        grep -a '^stat::' "$work/log" | sed "s/^/$target /" >&2
    done
    if [ "${#failed[@]}" -gt 0 ]; then
        echo "fuzz: findings in: ${failed[*]} (see $build/findings/)" >&2
        return 1
    fi
}

[ "$#" -ge 1 ] || usage
mode=$1
shift
case $mode in
    smoke) smoke "$@" ;;
    fuzz) fuzz "$@" ;;
    *) usage ;;
esac
