#!/usr/bin/env bash
# Pier's setup step: finds what the build and the tests need and, when
# something is missing, installs the Debian packages that bring it (as root)
# or prints the exact command to run (not as root). `make demo`, `make test`
# and `make install` run it first; running it again is cheap and changes
# nothing when all is there.
set -euo pipefail

missing=()

need_cmd() {    # need_cmd COMMAND PACKAGE
    command -v "$1" >/dev/null 2>&1 || missing+=("$2")
}

# Files are looked for under $PIER_SETUP_ROOT (tests/e2e/test_setup.sh
# points it at a tree of its own); empty: the machine's.
need_file() {   # need_file PATH PACKAGE
    [ -e "${PIER_SETUP_ROOT:-}$1" ] || missing+=("$2")
}

need_pc() {     # need_pc PKG-CONFIG-MODULE PACKAGE
    if ! command -v pkg-config >/dev/null 2>&1 ||
       ! pkg-config --exists "$1" 2>/dev/null; then
        missing+=("$2")
    fi
}

need_cmd cc build-essential
need_cmd make build-essential
need_cmd c++ g++          # pier.h is checked to compile as C++ too
need_cmd cmake cmake
need_cmd pkg-config pkg-config
need_cmd clang clang
need_pc sqlite3 libsqlite3-dev
need_pc jansson libjansson-dev
need_pc cmocka libcmocka-dev
need_pc libedit libedit-dev   # pier shell's line editing
need_pc libpq libpq-dev       # the PostgreSQL lake (docs/architecture.md)
need_cmd sqlite3 sqlite3      # tests change a lake's schema behind Pier's back; bench_load's baseline
need_cmd script bsdutils      # test_shell_pager and test_load_progress: a terminal
need_cmd groff groff-base     # the man page is checked with groff -ww
need_cmd zsh zsh              # the zsh completion is tried in zsh
need_cmd man man-db           # test_manual and test_install read pier(1)
need_cmd col bsdextrautils    # ... as plain text
# The sources of a locale with a decimal comma, which test_locale builds
# with localedef: numbers must not follow the application's locale.
need_file /usr/share/i18n/locales/de_DE locales

# A PostgreSQL server for the tests of the PostgreSQL lake, which start a
# throwaway one (tests/support/pg.sh): Debian keeps initdb, pg_ctl and
# postgres under /usr/lib/postgresql/<version>/bin, off PATH, one
# directory per major version installed.
need_pg_server() {
    local d
    for d in "${PIER_SETUP_ROOT:-}"/usr/lib/postgresql/*/bin; do
        if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] &&
           [ -x "$d/postgres" ]; then
            return
        fi
    done
    missing+=(postgresql)
}
need_pg_server

# libFuzzer's runtime, for the fuzz targets (tests/fuzz): Debian 12's clang
# only recommends the package that brings it, and the install below skips
# recommendations. A test link says whether it is there.
need_libfuzzer() {
    local pkg=libclang-rt-14-dev
    if ! command -v clang >/dev/null 2>&1; then
        missing+=("$pkg")
        return
    fi
    local dir
    dir=$(mktemp -d)
    printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
        'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
        'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)' \
        '{ (void)d; (void)n; return 0; }' >"$dir/probe.c"
    clang -fsanitize=fuzzer "$dir/probe.c" -o "$dir/probe" \
        >/dev/null 2>&1 || missing+=("$pkg")
    rm -rf "$dir"
}
need_libfuzzer

if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi

# One package may be named twice (cc and make both come with build-essential).
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
cmd="apt-get install -y ${missing[*]}"

if [ "$(id -u)" -ne 0 ]; then
    echo "pier setup: missing packages: ${missing[*]}" >&2
    echo "pier setup: run as root:  apt-get update && $cmd" >&2
    exit 1
fi

echo "pier setup: installing ${missing[*]}" >&2
apt-get update -q
DEBIAN_FRONTEND=noninteractive $cmd --no-install-recommends
