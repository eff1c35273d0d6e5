#!/usr/bin/env bash
# Builds one libFuzzer target with clang (ASan+UBSan) and runs it briefly on
# its seed corpus. Usage: test/fuzz/run_fuzz.sh TARGET RUNS BUILD_DIR
#   TARGET: parquet | sql_parser | delta_log
# A fixed seed and a fixed number of runs keep CI runs reproducible (the same
# inputs on every machine); longer runs explore more: RUNS=-1 runs until stopped.
# Exit 0 when the run finds nothing; non-zero with the crashing input saved
# in BUILD_DIR/fuzz/ otherwise. Skipped (77) when clang++ is missing.
set -euo pipefail
target=$1
runs=${2:-10000}
build=${3:-build/fuzz}
cd "$(dirname "$0")/../.."
command -v clang++ >/dev/null || { echo "clang++ not installed: fuzzing skipped"; exit 77; }
out="$build/fuzz"
mkdir -p "$out"
common="src/common/cast.cpp src/common/date.cpp src/common/decimal.cpp src/common/exception.cpp src/common/status.cpp
        src/common/types.cpp src/common/value.cpp src/common/vector.cpp src/common/string_util.cpp"
case "$target" in
  parquet) sources="$common src/storage/parquet/*.cpp"; corpus=test/parquet/corpus ;;
  sql_parser) sources="$common src/parser/*.cpp"; corpus=test/fuzz/corpus/sql ;;
  delta_log) sources="$common src/common/file_system.cpp src/storage/parquet/*.cpp src/storage/delta/*.cpp"; corpus=test/fuzz/corpus/delta_log ;;
  *) echo "unknown fuzz target $target"; exit 2 ;;
esac
binary="$out/${target}_fuzz"
newest=$(ls -t $sources test/fuzz/${target}_fuzz.cpp src/*/*.hpp src/storage/*/*.hpp | head -1)
if [ ! -x "$binary" ] || [ "$newest" -nt "$binary" ]; then
  echo "building $binary"
  # shellcheck disable=SC2086
  clang++ -std=gnu++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -DLAKESTREAM_VERSION='"fuzz"' -Isrc -Isrc/include $sources "test/fuzz/${target}_fuzz.cpp" \
    -lzstd -lsnappy -llz4 -lz -pthread -o "$binary"
fi
work="$out/${target}_corpus"
mkdir -p "$work"
cp -n "$corpus"/* "$work"/ 2>/dev/null || true
"$binary" -seed=1 -runs="$runs" -max_total_time=300 -rss_limit_mb=2048 -timeout=10 -artifact_prefix="$out/${target}-" "$work" 2>&1 | tail -5
