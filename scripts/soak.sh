#!/usr/bin/env bash
# make soak: the long runs of tests/soak/ and their kin, on the sanitized
# test build (docs/reliability.md quotes their figures):
#   soak_kill     SOAK_TRIALS SIGKILL trials across every kind of write
#   soak_mixed    eight processes on one lake for SOAK_SECONDS
#   soak_migrate  SOAK_MIGRATE_TRIALS SIGKILLs of `pier migrate` at random
#                 moments of a twelve-step migration
#   test_corrupt  SOAK_CORRUPT_TRIALS damaged lakes, and every catalog damage
#   test_bad_input  every hostile argument in every position, every option,
#                 every environment, on every command
# Each prints its figures; the run stops at the first failure. PIER_SEED
# repeats a run's random choices.
set -euo pipefail
build=$1
src=$(cd "$(dirname "$0")/.." && pwd)
trials=${SOAK_TRIALS:-1000}
seconds=${SOAK_SECONDS:-60}
corrupt=${SOAK_CORRUPT_TRIALS:-3000}
migrate=${SOAK_MIGRATE_TRIALS:-300}
cd "$build"
export PIER_BINARY=$PWD/pier PIER_SOURCE_DIR=$src

started=$(date +%s)
step() {  # step NAME COMMAND...: runs it and says how long it took
    local name=$1 t0
    shift
    t0=$(date +%s)
    printf '\n== %s\n' "$name"
    "$@"
    printf '== %s: %d s\n' "$name" $(($(date +%s) - t0))
}
step "soak_kill: $trials SIGKILL trials" env SOAK_TRIALS="$trials" ./soak_kill
step "soak_mixed: 8 processes for $seconds s" \
    env SOAK_SECONDS="$seconds" ./soak_mixed
step "soak_migrate: $migrate SIGKILLs of pier migrate" \
    env SOAK_MIGRATE_TRIALS="$migrate" ./soak_migrate
step "test_corrupt: $corrupt damaged lakes" \
    env PIER_CORRUPT_TRIALS="$corrupt" ./test_corrupt
step "test_bad_input: every position, option and environment" \
    env PIER_BAD_INPUT_FULL=1 bash "$src/tests/e2e/test_bad_input.sh" \
    "$PIER_BINARY" "$src"
printf '\nmake soak: everything held, %d s in all\n' $(($(date +%s) - started))
