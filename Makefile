# The two commands a newcomer needs: `make demo` and `make test`.
# Each installs missing Debian packages, configures and builds incrementally.
BUILD_DIR ?= build/release
SAN_BUILD_DIR ?= build/sanitize
JOBS ?= $(shell nproc)
CMAKE_GEN := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: all deps build build-sanitize demo test test-sanitize bench clean

all: build

deps:
	@scripts/install-deps

$(BUILD_DIR)/CMakeCache.txt:
	cmake -S . -B $(BUILD_DIR) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release

build: deps $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) -j $(JOBS)

$(SAN_BUILD_DIR)/CMakeCache.txt:
	cmake -S . -B $(SAN_BUILD_DIR) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DLAKESTREAM_SANITIZE=ON

build-sanitize: deps $(SAN_BUILD_DIR)/CMakeCache.txt
	cmake --build $(SAN_BUILD_DIR) -j $(JOBS)

demo: build
	@scripts/demo $(BUILD_DIR)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# The unit and SQL suites under ASan+UBSan (CI runs this after `make test`).
test-sanitize: build-sanitize
	cd $(SAN_BUILD_DIR) && ctest --output-on-failure -j $(JOBS) -L 'unit|sql'

bench: build
	@bench/run $(BUILD_DIR)

clean:
	rm -rf build
