#!/usr/bin/env bash
# An engine shared by threads has no data race: the threaded tests (an
# engine shared by writers, the change feed's watches and listeners, and
# queries on reader connections beside a writer, statements interrupted
# from other threads),
# built and run under ThreadSanitizer (the rest of the suite runs under
# ASan and UBSan, which cannot be combined with it).
set -euo pipefail
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake -S "$src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Debug \
    -DPIER_SANITIZE=thread >/dev/null
cmake --build "$tmp/build" -j 2 --target test_threads test_feed test_query \
    test_limits >/dev/null
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
"$tmp/build/test_threads"
"$tmp/build/test_feed"
"$tmp/build/test_query"
"$tmp/build/test_limits"
