#!/usr/bin/env bash
# Makes the fuzz targets' seed corpora (tests/fuzz/corpus/<target>/) from
# the golden transcripts, whose commands hold real inputs: JSON rows and
# patches, SQL scripts and their parameters, query templates and theirs,
# type spellings and the values of each type, change-feed arguments and
# transaction documents.
#
#   tests/fuzz/seeds.sh BUILD_DIR
#
# Every transcript is run (tests/golden/run.sh) with a `pier` that only
# records its arguments and standard input; each recorded command becomes
# inputs of the targets that take what it holds, in each target's input
# format (the comment at the top of tests/fuzz/fuzz_<target>.c). A few
# inputs no transcript holds are added by hand (lake-file edits, the
# types' text forms). Inputs over 4 KiB are left out. Then each target
# built in BUILD_DIR (make fuzz, or the test tree's fuzz/) keeps a small
# set of inputs that covers all the edges the others do (libFuzzer's
# -set_cover_merge=1, edges without hit counts), and the corpus is
# replaced by them; inputs named finding-* (those of past findings) stay. The result is committed: run this again after adding
# golden tests or a target.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
[ "$#" -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/log" "$work/bin" "$work/raw"

# ---- recording every pier command of the transcripts ----

cat >"$work/bin/pier" <<'EOF'
#!/usr/bin/env bash
d=$(mktemp -d "$PIER_SEED_LOG/c.XXXXXX")
printf '%s\0' "$@" >"$d/args"
head -c 65536 >"$d/stdin" 2>/dev/null || true
exit 0
EOF
chmod +x "$work/bin/pier"
for t in "$src"/tests/golden/*.t; do
    PIER_SEED_LOG=$work/log bash "$src/tests/golden/run.sh" \
        "$work/bin/pier" "$t" >/dev/null 2>&1 || true
done

# ---- writing inputs ----

# seed TARGET: stdin becomes one input of TARGET (named by its hash).
seed() {
    local dir=$work/raw/$1 tmp
    mkdir -p "$dir"
    tmp=$(mktemp "$dir/.new.XXXXXX")
    cat >"$tmp"
    if [ ! -s "$tmp" ] || [ "$(wc -c <"$tmp")" -gt 4096 ]; then
        rm -f "$tmp"
        return 0
    fi
    mv "$tmp" "$dir/$(sha1sum "$tmp" | cut -c1-40)"
}

# Little-endian 8 bytes of a non-negative integer, as printf escapes.
le64() {
    local v=$1 out='' i
    for i in 1 2 3 4 5 6 7 8; do
        out+=$(printf '\\%03o' $((v & 255)))
        v=$((v >> 8))
    done
    printf '%s' "$out"
}

# Each recorded command: its arguments in `a`, its standard input in $in.
for d in "$work"/log/c.*; do
    mapfile -d '' -t a <"$d/args"
    in=$d/stdin
    # Global options before the command.
    i=0
    while [ "$i" -lt "${#a[@]}" ]; do
        case ${a[$i]} in
            --data|--durability|--columns|--auto-create) i=$((i + 2)) ;;
            --*) i=$((i + 1)) ;;
            *) break ;;
        esac
    done
    [ "$i" -lt "${#a[@]}" ] || continue
    cmd=${a[$i]}
    args=("${a[@]:$((i + 1))}")
    case $cmd in
        insert|upsert)
            # CSV or TSV from stdin seeds csv (a file is not kept).
            sep=
            for x in "${args[@]}"; do
                case $x in --csv) sep='\000' ;; --tsv) sep='\001' ;; esac
            done
            if [ -n "$sep" ]; then
                if [[ " ${args[*]} " == *" - "* ]]; then
                    { printf "$sep"; cat "$in"; } | seed csv
                fi
                continue
            fi
            [ "${#args[@]}" -ge 2 ] || continue
            if [ "${args[1]}" = - ]; then
                seed json_rows <"$in"
            else
                printf '%s' "${args[1]}" | seed json_rows
            fi
            ;;
        update)
            [ "${#args[@]}" -ge 3 ] || continue
            { printf '\0\0'
              if [ "${args[2]}" = - ]; then cat "$in"; else
                  printf '%s' "${args[2]}"; fi; } | seed json_patch
            ;;
        update-many)
            [ "${#args[@]}" -ge 2 ] || continue
            { printf '\1\0'
              if [ "${args[1]}" = - ]; then cat "$in"; else
                  printf '%s' "${args[1]}"; fi; } | seed json_patch
            ;;
        sql|query)
            # The script or template, then its parameters.
            if [ "$cmd" = sql ]; then text_at=0; else text_at=1; fi
            [ "${#args[@]}" -gt "$text_at" ] || continue
            text=${args[$text_at]}
            params='' with=0 format=0 k=$((text_at + 1))
            while [ "$k" -lt "${#args[@]}" ]; do
                case ${args[$k]} in
                    --params) params=${args[$((k + 1))]:-}; k=$((k + 1)) ;;
                    --param)
                        p=${args[$((k + 1))]:-}
                        [ -z "$params" ] && params=":$p"
                        k=$((k + 1)) ;;
                    --with) with=1; k=$((k + 1)) ;;
                    --json) format=1 ;;
                    --jsonl) format=2 ;;
                    --csv) format=3 ;;
                esac
                k=$((k + 1))
            done
            [ "$text" = - ] && text=$(cat "$in")
            if [ "$cmd" = sql ]; then
                printf '%s' "$text" | seed sql_front
                # a script of CREATE statements reads as a declaration too
                case $text in
                    [Cc][Rr][Ee][Aa][Tt][Ee]*)
                        printf '%s' "$text" | seed declarations ;;
                esac
                { printf '%s' "$text"
                  [ -z "$params" ] || [ "${params:0:1}" = : ] ||
                      printf '\0%s' "$params"; } | seed sql_exec
            else
                byte=$(printf '\\%03o' $((with | format << 1)))
                { printf "$byte"; printf '%s' "$text"
                  [ -z "$params" ] || printf '\0%s' "$params"; } |
                    seed query
            fi
            ;;
        create-board)
            for ((k = 0; k < ${#args[@]}; k++)); do
                if [ "${args[$k]}" = --column ] &&
                   [ -n "${args[$((k + 1))]+x}" ]; then
                    printf 's%s' "${args[$((k + 1))]#*=}" | seed types
                fi
            done
            ;;
        add-column|widen)
            [ "${#args[@]}" -ge 3 ] && printf 's%s' "${args[2]}" | seed types
            ;;
        changes|watch)
            [ "${#args[@]}" -ge 1 ] || continue
            after=0 limit=0
            for ((k = 1; k < ${#args[@]}; k++)); do
                case ${args[$k]} in
                    --after) after=${args[$((k + 1))]:-0} ;;
                    --limit) limit=${args[$((k + 1))]:-0} ;;
                esac
            done
            [[ $after =~ ^[0-9]+$ && $limit =~ ^[0-9]+$ ]] || continue
            { printf '\3'; printf "$(le64 "$after")"
              printf "$(le64 "$limit")"; printf '%s' "${args[0]}"; } |
                seed changes
            ;;
        plan|migrate)
            for ((k = 0; k < ${#args[@]}; k++)); do
                [ "${args[$k]}" = - ] && seed declarations <"$in"
            done
            ;;
        tx)
            # The transaction document.
            for ((k = 0; k < ${#args[@]}; k++)); do
                case ${args[$k]} in
                    --boards) k=$((k + 1)) ;;
                    -) seed tx_doc <"$in" ;;
                    -*) ;;
                    *) [ -f "${args[$k]}" ] || printf '%s' "${args[$k]}" |
                           seed tx_doc ;;
                esac
            done
            ;;
    esac
done

# ---- the types' values, from the dialect's per-type transcripts ----

# The single-quoted literals of a transcript's commands.
literals() {
    grep -h '^\$ ' "$1" | grep -o "'[^']*'" | sed "s/^'//; s/'\$//" |
        sort -u | head -n 24
}
type_form() {  # type_form FILE FORM [PREFIX]: each literal as FORM
    local f=$src/tests/golden/$1 form=$2 prefix=${3:-} v
    [ -f "$f" ] || return 0
    while IFS= read -r v; do
        { printf '%s' "$form"; printf "$prefix"; printf '%s' "$v"; } |
            seed types
    done < <(literals "$f")
}
type_form sql_type_decimal.t d '\014\002'    # DECIMAL(12,2)
type_form sql_type_decimal.t d '\000\000'    # DECIMAL
type_form sql_type_instant.t i
type_form sql_type_date.t D
type_form sql_type_time.t t
type_form sql_type_datetime.t T
type_form sql_type_interval.t v
type_form sql_type_uuid.t u
type_form sql_type_json.t j
# Column values, each with the spellings of its transcript's type.
column_form() {  # column_form FILE SPELLING...
    local f=$src/tests/golden/$1 v s
    shift
    [ -f "$f" ] || return 0
    while IFS= read -r v; do
        for s in "$@"; do
            { printf 'c%s\0' "$s"; printf '%s' "$v"; } | seed types
        done
    done < <(literals "$f" | head -n 20)
}
column_form sql_type_enum.t "ENUM('a','b')"
column_form sql_type_array.t "TEXT[]" "INT64[]" "DECIMAL(5,2)[]" "INT8[][]"
column_form sql_type_varchar.t "VARCHAR(3)"
column_form sql_type_uint.t "UINT64" "UINT8"
column_form sql_type_int128.t "INT128"
spellings='ENUM([^)]*)\|DECIMAL([0-9, ]*)\|VARCHAR([0-9]*)'
spellings+='\|[A-Z0-9]*\[\]\(\[\]\)\?'
grep -ho "\($spellings\)" "$src"/tests/golden/*.t | sort -u | head -n 80 |
    while IFS= read -r s; do printf 's%s' "$s" | seed types; done

# ---- inputs no transcript holds ----

# Lake files: edits of the real lake at the header's fields (page size 16,
# write and read versions 18-19, page count 28, user_version 60,
# application_id 68), a cut, and whole files that are no lake.
lake_edit() { printf "x$1" | seed lake_file; }
lake_edit '\020\000\000\002\377\377'
lake_edit '\022\000\000\002\001\001'
lake_edit '\034\000\000\004\000\000\000\001'
lake_edit '\074\000\000\004\000\000\000\011'
lake_edit '\104\000\000\004\120\111\105\121'
lake_edit '\000\020\000\020'
lake_edit '\000\040\000\004\000\000\000\000\000\040\001\004\377\377\377\377'
printf 'RSQLite format 3\0' | seed lake_file
printf 'Rnot a lake at all' | seed lake_file
# Change-feed arguments: each board, small and raw values of after and
# limit.
for b in 0 1 2; do
    for f in 0 4 8 12; do
        printf "$(printf '\\%03o' $((b | f)))$(le64 5)$(le64 3)" |
            seed changes
    done
done
printf "\3$(le64 0)$(le64 0)Bad-Id" | seed changes
printf "\0$(le64 9223372036854775807)$(le64 10001)" | seed changes

# ---- minimized into the corpora ----

for raw in "$work"/raw/*; do
    target=$(basename "$raw")
    out=$here/corpus/$target
    bin=$build/tests/fuzz/fuzz_$target
    if [ ! -x "$bin" ]; then
        echo "seeds: no target $target in $build; its inputs are skipped" >&2
        continue
    fi
    fresh=$work/merged/$target
    mkdir -p "$fresh"
    tmp=$(mktemp -d /dev/shm/pier-seeds.XXXXXX)
    PIER_FUZZ_TMP=$tmp "$bin" -set_cover_merge=1 -use_counters=0 \
        -timeout=20 -artifact_prefix="$work/" \
        "$fresh" "$raw" \
        >"$work/merge-$target.log" 2>&1 ||
        { cat "$work/merge-$target.log" >&2; rm -rf "$tmp"; exit 1; }
    rm -rf "$tmp"
    # A seed the target fails on is a finding, not a seed.
    if compgen -G "$work/crash-*" >/dev/null ||
       compgen -G "$work/leak-*" >/dev/null ||
       compgen -G "$work/timeout-*" >/dev/null; then
        echo "seeds: $target fails on some seeds:" >&2
        grep -a -m 5 "invariant\|ERROR" "$work/merge-$target.log" >&2 || true
        mkdir -p "$build/findings/seeds-$target"
        mv "$work"/crash-* "$work"/leak-* "$work"/timeout-* \
            "$build/findings/seeds-$target/" 2>/dev/null || true
        exit 1
    fi
    # Inputs that were findings stay, whatever they cover.
    mkdir -p "$out"
    find "$out" -maxdepth 1 -type f ! -name 'finding-*' -delete
    cp "$fresh"/* "$out"/ 2>/dev/null || true
    echo "seeds: $target: $(ls "$raw" | wc -l) inputs," \
         "$(ls "$out" | wc -l) kept" >&2
done
