# Pier: a thin driver over CMake. The README's two commands are
#   make demo    a tour of Pier on the embedded default
#   make test    every test, under AddressSanitizer and UBSan (the fuzz
#                targets too, briefly: tests/fuzz/README.md)
# and `make soak` runs the long kill, load, corruption and bad-input runs,
# `make fuzz` every fuzz target for FUZZ_SECONDS each.
# Each runs the setup step first (scripts/setup.sh), which installs what is
# missing on a fresh Debian machine.

PREFIX ?= /usr/local
JOBS ?= 2

RELEASE := build/release
TEST := build/test
FUZZ := build/fuzz

# make fuzz: seconds per target (0: no limit), executions per target (-1:
# no limit), and which targets (all by default: tests/fuzz/fuzz_*.c).
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?= -1
FUZZ_TARGETS ?=

BENCHES := insert writes watch query sql migrate load

.PHONY: all setup build demo test soak fuzz install bench clean \
        $(addprefix bench-,$(BENCHES)) bench-cluster

all: build

setup:
	@scripts/setup.sh

build: setup
	@cmake -S . -B $(RELEASE) -DCMAKE_BUILD_TYPE=Release \
	    -DCMAKE_INSTALL_PREFIX=$(PREFIX) -DPIER_TESTS=OFF >/dev/null
	@cmake --build $(RELEASE) -j $(JOBS)

demo: build
	@scripts/demo.sh $(RELEASE)/pier build/demo-data

test: setup
	@cmake -S . -B $(TEST) -DCMAKE_BUILD_TYPE=Debug \
	    -DPIER_SANITIZE=address,undefined >/dev/null
	@cmake --build $(TEST) -j $(JOBS)
	@cd $(TEST) && ctest --output-on-failure -j $(JOBS)

# The long runs (docs/reliability.md), not part of `make test`, which runs
# a short version of each: SOAK_TRIALS SIGKILL trials (1000), eight
# processes for SOAK_SECONDS (60), SOAK_MIGRATE_TRIALS migrations killed
# (300), SOAK_CORRUPT_TRIALS damaged lakes (3000), and every hostile CLI
# argument in every position.
soak: setup
	@cmake -S . -B $(TEST) -DCMAKE_BUILD_TYPE=Debug \
	    -DPIER_SANITIZE=address,undefined >/dev/null
	@cmake --build $(TEST) -j $(JOBS)
	@scripts/soak.sh $(TEST)
# The libFuzzer targets, built by clang with ASan and UBSan at -O1, each
# run with its seed corpus and dictionary; findings under build/fuzz/.
fuzz: setup
	@cmake -S . -B $(FUZZ) -DCMAKE_C_COMPILER=clang \
	    -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_FLAGS_DEBUG=-g -O1" \
	    -DPIER_FUZZ=ON -DPIER_TESTS=OFF \
	    -DPIER_SANITIZE=address,undefined >/dev/null
	@cmake --build $(FUZZ) --target pier_fuzzers -j $(JOBS)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) \
	    tests/fuzz/run.sh fuzz $(FUZZ) $(FUZZ_TARGETS)

# DESTDIR is honoured, as by any make install.
install: build
	@cmake --install $(RELEASE) --prefix $(PREFIX)

# Each benchmark reports ratios against raw SQLite in the same run
# (docs/benchmarks.md); `make bench` runs them all.
bench: $(addprefix bench-,$(BENCHES)) bench-cluster

$(addprefix bench-,$(BENCHES)): bench-%: build
	@$(RELEASE)/bench_$*

# The clustered topology's benchmark needs a PostgreSQL: a throwaway one,
# durable (fsync on), started for it and stopped after (tests/support/pg.sh;
# `make setup` installs the server).
bench-cluster: build
	@dir=$$(mktemp -d /tmp/pier-bench-pg.XXXXXX) && rmdir "$$dir" && \
	PIER_PG_FSYNC=on bash tests/support/pg.sh start "$$dir" >/dev/null && \
	PIER_BENCH_PG_URL=$$(cat "$$dir/url") $(RELEASE)/bench_cluster \
	    $(BENCH_ARGS); rc=$$?; \
	bash tests/support/pg.sh stop "$$dir"; exit $$rc

clean:
	rm -rf build
