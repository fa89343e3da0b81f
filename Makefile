# Pier: a thin driver over CMake. The README's two commands are
#   make demo    a tour of Pier on the embedded default
#   make test    every test, under AddressSanitizer and UBSan
# and `make soak` runs the long kill, load, corruption and bad-input runs.
# Both run the setup step first (scripts/setup.sh), which installs what is
# missing on a fresh Debian machine.

PREFIX ?= /usr/local
JOBS ?= 2

RELEASE := build/release
TEST := build/test

BENCHES := insert writes watch query sql

.PHONY: all setup build demo test soak install bench clean \
        $(addprefix bench-,$(BENCHES))

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
# processes for SOAK_SECONDS (60), SOAK_CORRUPT_TRIALS damaged lakes
# (3000), and every hostile CLI argument in every position.
soak: setup
	@cmake -S . -B $(TEST) -DCMAKE_BUILD_TYPE=Debug \
	    -DPIER_SANITIZE=address,undefined >/dev/null
	@cmake --build $(TEST) -j $(JOBS)
	@scripts/soak.sh $(TEST)

# DESTDIR is honoured, as by any make install.
install: build
	@cmake --install $(RELEASE) --prefix $(PREFIX)

# Each benchmark reports ratios against raw SQLite in the same run
# (docs/benchmarks.md); `make bench` runs them all.
bench: $(addprefix bench-,$(BENCHES))

$(addprefix bench-,$(BENCHES)): bench-%: build
	@$(RELEASE)/bench_$*

clean:
	rm -rf build
