#!/usr/bin/env bash
# Builds one libFuzzer target with clang (ASan+UBSan) and runs it for a fixed
# time on its seed corpus.
#
#   test/fuzz/run_fuzz.sh TARGET [SECONDS] [BUILD_DIR]
#     TARGET     parquet | sql_parser | delta_log | delta_checkpoint | delta_table
#     SECONDS    how long to fuzz (libFuzzer -max_total_time; default 60);
#                0 builds the target and stops (ctest's fuzz/build step
#                compiles every target once before they run side by side)
#     BUILD_DIR  where build/fuzz/ objects, binaries, the working corpus and
#                crash artifacts go (default build/fuzz)
#
# The run is bounded by time, not by a run count: an input costs very different
# amounts on a quiet and on a busy machine, and CI needs a predictable duration.
# The seed is fixed (-seed=1), so runs explore the same sequence of inputs and
# differ only in how far they get. Objects are compiled in parallel and shared
# between targets; only changed sources are recompiled.
#
# Exit 0 when the run finds nothing; non-zero with the crashing input saved as
# BUILD_DIR/fuzz/TARGET-crash-* (or -leak-, -timeout-, -oom-) otherwise: add it
# to test/fuzz/regressions/ with a test in test/unit/fuzz_regression_test.cpp.
# Skipped (exit 77) when clang++ is missing.
set -euo pipefail
target=$1
seconds=${2:-60}
build=${3:-build/fuzz}
cd "$(dirname "$0")/../.."
command -v clang++ >/dev/null || { echo "clang++ not installed: fuzzing skipped"; exit 77; }
out="$build/fuzz"
mkdir -p "$out/obj"

common="src/common/cast.cpp src/common/date.cpp src/common/decimal.cpp src/common/delta_table_properties.cpp src/common/display_width.cpp src/common/exception.cpp src/common/interval.cpp src/common/json_parse.cpp src/common/status.cpp src/common/time_zone.cpp
        src/common/types.cpp src/common/value.cpp src/common/vector.cpp src/common/string_util.cpp src/common/sql_identifier.cpp src/common/utf8.cpp"
# The file system routes s3:// paths to the S3 client (libcurl, libxml2, libcrypto).
files="src/common/file_system.cpp src/common/crash_point.cpp src/common/write_error.cpp src/common/s3/*.cpp"
delta="$common $files src/storage/parquet/*.cpp src/storage/delta/*.cpp"
case "$target" in
  parquet) sources="$common $files src/storage/parquet/*.cpp"; corpus=test/parquet/corpus ;;
  # Parser errors quote the statement with its credentials redacted (common/secret).
  sql_parser) sources="$common $files src/common/stack_depth.cpp src/common/secret/*.cpp src/parser/*.cpp"; corpus=test/fuzz/corpus/sql ;;
  delta_log) sources="$delta"; corpus=test/fuzz/corpus/delta_log ;;
  delta_checkpoint) sources="$delta"; corpus=test/fuzz/corpus/delta_checkpoint ;;
  delta_table) sources="$delta"; corpus=test/fuzz/corpus/delta_table ;;
  *) echo "unknown fuzz target $target"; exit 2 ;;
esac
# shellcheck disable=SC2206
sources=($sources "test/fuzz/${target}_fuzz.cpp")

flags=(-std=gnu++20 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined
       -fno-sanitize-recover=undefined -DLAKESTREAM_VERSION='"fuzz"' -Isrc -Isrc/include)
# shellcheck disable=SC2207
flags+=($(pkg-config --cflags libxml-2.0))
# An object is stale when its source or any header under src/ is newer.
# sed reads the whole listing: `head -1` would exit early, and under pipefail
# the SIGPIPE that ls then gets ends this script silently once the listing
# outgrows one pipe write (it did, at 4.6 KB).
newest_header=$(ls -t src/*/*.hpp src/*/*/*.hpp | sed -n 1p)
stale=()
objects=()
for src in "${sources[@]}"; do
  obj="$out/obj/${src//\//_}.o"
  objects+=("$obj")
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ "$newest_header" -nt "$obj" ]; then stale+=("$src"); fi
done
binary="$out/${target}_fuzz"
if [ ${#stale[@]} -gt 0 ]; then
  echo "compiling ${#stale[@]} sources for $binary"
  # Each object is written under a temporary name and renamed, so two targets
  # compiling the same source at once (ctest -j) cannot leave a torn object.
  export out
  printf '%s\n' "${stale[@]}" |
    xargs -P "$(nproc)" -I{} bash -c 'o="$out/obj/$(echo "$1" | tr / _).o"; clang++ "${@:2}" -c "$1" -o "$o.$$" && mv "$o.$$" "$o"' \
      _ {} "${flags[@]}"
fi
if [ ${#stale[@]} -gt 0 ] || [ ! -x "$binary" ]; then
  clang++ -fsanitize=fuzzer,address,undefined "${objects[@]}" -lzstd -lsnappy -llz4 -lz $(pkg-config --libs libcurl libxml-2.0 libcrypto) -pthread -o "$binary.$$"
  mv "$binary.$$" "$binary"
fi

[ "$seconds" = 0 ] && exit 0

work="$out/${target}_corpus"
mkdir -p "$work"
cp -n "$corpus"/* "$work"/ 2>/dev/null || true
log="$out/${target}.log"
echo "fuzzing $target for ${seconds}s (corpus $work, log $log)"
status=0
# -error_exitcode: libFuzzer's default, 77, is ctest's skip code here (clang
# missing), which would report a finding as a skipped test.
"$binary" -seed=1 -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -error_exitcode=1 \
  -artifact_prefix="$out/${target}-" "$work" >"$log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  tail -60 "$log"
  echo "fuzz/$target FAILED (exit $status); the input is in $out/${target}-*"
  exit "$status"
fi
grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" || tail -3 "$log"
