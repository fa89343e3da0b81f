#!/usr/bin/env bash
# The build `make demo` and `make build` make: the default compiler (gcc
# on Debian) with the Release flags, -Werror. The test build runs with
# sanitizers and no optimization, under which gcc does not see what -O2
# shows it (a value it cannot prove set); test_install builds with clang.
# This builds the library and the command as the README's first command
# does, so that neither build breaks unseen.
set -euo pipefail
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmake -S "$src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release \
    -DPIER_TESTS=OFF >/dev/null
if ! cmake --build "$tmp/build" -j 2 >"$tmp/log" 2>&1; then
    grep -E 'error|warning' "$tmp/log" | head -20
    echo "the Release build fails"
    exit 1
fi
[ -x "$tmp/build/pier" ] || { echo "no pier command after the build"; exit 1; }
echo "the Release build of libpier and pier compiles without a warning"
