# The two commands a newcomer needs: `make demo` and `make test`.
# Each installs missing Debian packages, configures and builds incrementally.
BUILD_DIR ?= build/release
SAN_BUILD_DIR ?= build/sanitize
JOBS ?= $(shell nproc)
CMAKE_GEN := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: all deps build build-sanitize demo test test-sanitize bench bench-quick fuzz tidy tidy-baseline install clean

all: build

deps:
	@scripts/install-deps

$(BUILD_DIR)/CMakeCache.txt:
	cmake -S . -B $(BUILD_DIR) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release

build: deps $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) -j $(JOBS)

$(SAN_BUILD_DIR)/CMakeCache.txt:
	cmake -S . -B $(SAN_BUILD_DIR) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DLAKESTREAM_SANITIZE=ON

# Only what the sanitized suites run: the library and the unit, sqllogictest
# and public-API binaries (not the shell, the Python module or bench drivers).
SAN_TARGETS ?= lakestream_unit_tests lakestream_sqllogictest lakestream_public_api_check

build-sanitize: deps $(SAN_BUILD_DIR)/CMakeCache.txt
	cmake --build $(SAN_BUILD_DIR) -j $(JOBS) --target $(SAN_TARGETS)

demo: build
	@scripts/demo $(BUILD_DIR)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# The unit and SQL suites under ASan+UBSan (CI runs this after `make test`).
test-sanitize: build-sanitize
	cd $(SAN_BUILD_DIR) && ctest --output-on-failure -j $(JOBS) -L 'unit|sql'

bench: build
	@bench/run $(BUILD_DIR)

# Every benchmark at small sizes (CI): fails only if a benchmark errors.
bench-quick: build
	@bench/run $(BUILD_DIR) --quick

# Every libFuzzer target (clang, ASan+UBSan) for FUZZ_SECONDS each.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := parquet sql_parser delta_log delta_checkpoint delta_table
fuzz: deps
	@for t in $(FUZZ_TARGETS); do test/fuzz/run_fuzz.sh $$t $(FUZZ_SECONDS) $(BUILD_DIR) || exit 1; done

# clang-tidy (.clang-tidy) over src/ and tools/; fails on any warning.
# TIDY_FILES=changed checks only the files changed since the merge base with main.
TIDY_FILES ?= all
tidy: build
	@scripts/tidy $(BUILD_DIR) $(TIDY_FILES)

# The full clang-tidy run; when it is clean, HEAD becomes the commit CI's
# tidy step compares against (.ci/tidy-baseline). Commit the file after.
tidy-baseline: build
	@scripts/tidy $(BUILD_DIR) all && git rev-parse HEAD > .ci/tidy-baseline && echo "tidy-baseline: .ci/tidy-baseline = $$(cat .ci/tidy-baseline)"

# Installs the Python package into the site-packages of the interpreter it
# was built for (/usr/bin/python3 by default; docs/python.md). DESTDIR=/tmp/x
# stages it under /tmp/x instead.
install: build
	cmake --install $(BUILD_DIR)

clean:
	rm -rf build
