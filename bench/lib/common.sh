# Helpers for bench/<name>/driver scripts (sourced, bash). See docs/benchmarks.md.
#
# bench/run calls each driver with these environment variables:
#   BENCH_NAME       the benchmark (its directory name)
#   BENCH_OUT        directory for this benchmark's results (created, empty)
#   BENCH_REPS       timed repetitions per query and size
#   BENCH_QUICK      1 in --quick mode (small sizes), else 0
#   BENCH_BUILD_DIR  the CMake build directory (absolute)
#   BENCH_PEER_OK    1 if the DuckDB peer (node + @duckdb/node-api) is usable
#   BENCH_TIMEOUT    seconds to wait for one reply before calling it an error
#
# A driver writes:
#   $BENCH_OUT/results.tsv  query size system kind rep seconds rows checksum
#                           (kind: load | warmup | query; bench/run checks that
#                           every system has the same checksums per query/size)
#   $BENCH_OUT/meta.tsv     key<TAB>value: title, peer, target, version.<system>
#   $BENCH_OUT/workload.md  the workload, as it should appear in the report
# and exits non-zero if anything failed. Drivers that do not fit the
# lakestream-vs-DuckDB SQL pattern (kafka vs kcat, ...) write the same files
# their own way.

set -uo pipefail
trap '' PIPE  # a dead server must turn into an error reply, not kill the driver

BENCH_LIB="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BENCH_ROOT="$(dirname "$BENCH_LIB")"
: "${BENCH_NAME:?run drivers through bench/run}"
: "${BENCH_OUT:?}" "${BENCH_REPS:=5}" "${BENCH_QUICK:=0}" "${BENCH_PEER_OK:=0}" "${BENCH_TIMEOUT:=1800}"
BENCH_RESULTS="$BENCH_OUT/results.tsv"
mkdir -p "$BENCH_OUT/sql"
[ -f "$BENCH_RESULTS" ] || : >"$BENCH_RESULTS"
BENCH_FAILED=0

bench_log() { echo "[$BENCH_NAME] $*" >&2; }
bench_fail() { bench_log "ERROR: $*"; echo "$*" >>"$BENCH_OUT/errors.txt"; BENCH_FAILED=1; }
bench_meta() { printf '%s\t%s\n' "$1" "$2" >>"$BENCH_OUT/meta.tsv"; }

# bench_sizes "<full sizes>" "<quick sizes>": the sizes for this mode
# (BENCH_SIZES overrides both).
bench_sizes() {
  if [ -n "${BENCH_SIZES:-}" ]; then echo "$BENCH_SIZES"
  elif [ "$BENCH_QUICK" = 1 ]; then echo "$2"
  else echo "$1"; fi
}

# bench_render TEMPLATE OUT VAR=VALUE...: copies TEMPLATE replacing {{VAR}}.
bench_render() {
  local template="$1" out="$2" expr=() kv
  shift 2
  for kv in "$@"; do expr+=(-e "s/{{${kv%%=*}}}/${kv#*=}/g"); done
  sed "${expr[@]}" "$template" >"$out"
}

# --- paired servers -----------------------------------------------------------
# Each system runs as one long-lived process speaking the line protocol of
# bench/lib/bench_server.hpp on a pair of FIFOs, so data is loaded once per size
# and repetitions of the two systems can alternate.
declare -A PAIR_IN PAIR_OUT PAIR_PID
PAIR_SYSTEMS=()

# pair_start SYSTEM COMMAND...
pair_start() {
  local system="$1"; shift
  local dir="$BENCH_OUT/fifo.$system"
  rm -rf "$dir" && mkdir -p "$dir" && mkfifo "$dir/in" "$dir/out"
  "$@" <"$dir/in" >"$dir/out" 2>>"$BENCH_OUT/$system.stderr.log" &
  PAIR_PID[$system]=$!
  local fd_in fd_out
  exec {fd_in}>"$dir/in"
  exec {fd_out}<"$dir/out"
  PAIR_IN[$system]=$fd_in
  PAIR_OUT[$system]=$fd_out
  PAIR_SYSTEMS+=("$system")
  local reply
  reply="$(pair_call "$system" version)" || { bench_fail "$system did not start: $reply"; return 1; }
  bench_meta "version.$system" "$reply"
}

# pair_call SYSTEM LINE: sends LINE, prints the reply without "ok "; fails on
# "error ..." replies, timeouts and dead servers.
pair_call() {
  local system="$1" line="$2" reply=""
  if ! printf '%s\n' "$line" >&"${PAIR_IN[$system]}" 2>/dev/null; then
    echo "$system exited (see $BENCH_OUT/$system.stderr.log)"; return 1
  fi
  if ! IFS= read -r -t "$BENCH_TIMEOUT" -u "${PAIR_OUT[$system]}" reply; then
    echo "$system gave no reply within ${BENCH_TIMEOUT}s or exited (see $BENCH_OUT/$system.stderr.log)"; return 1
  fi
  case "$reply" in
    "ok "*) echo "${reply#ok }" ;;
    *) echo "${reply#error }"; return 1 ;;
  esac
}

pair_stop() {
  local system
  for system in "${PAIR_SYSTEMS[@]}"; do
    printf 'quit\n' >&"${PAIR_IN[$system]}" 2>/dev/null
    local fd_in="${PAIR_IN[$system]}" fd_out="${PAIR_OUT[$system]}"
    exec {fd_in}>&- {fd_out}<&-
    wait "${PAIR_PID[$system]}" 2>/dev/null
    rm -rf "$BENCH_OUT/fifo.$system"
  done
  PAIR_SYSTEMS=()
}

# pair_once SYSTEM QUERY SIZE KIND REP SQLFILE: one measurement -> results.tsv
pair_once() {
  local system="$1" query="$2" size="$3" kind="$4" rep="$5" file="$6" reply
  if ! reply="$(pair_call "$system" "run $query $file")"; then
    bench_fail "$system $query size=$size: $reply"; return 1
  fi
  local seconds rows checksum
  read -r seconds rows checksum <<<"$reply"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$query" "$size" "$system" "$kind" "$rep" \
    "$seconds" "$rows" "$checksum" >>"$BENCH_RESULTS"
  bench_log "$(printf '%-10s %-8s %-10s %-6s rep %-2s %9.4fs  %s' "$query" "$size" "$system" "$kind" "$rep" "$seconds" "$checksum")"
}

# pair_load QUERY SIZE SQLFILE: runs a load script once on every system.
pair_load() {
  local system
  for system in "${PAIR_SYSTEMS[@]}"; do
    pair_once "$system" "$1" "$2" load 1 "$3" || return 1
  done
}

# pair_measure QUERY SIZE SQLFILE: one untimed warm-up per system, then
# BENCH_REPS timed repetitions, alternating which system goes first so slow
# phases of a noisy machine hit both alike.
pair_measure() {
  local query="$1" size="$2" file="$3" system rep order
  for system in "${PAIR_SYSTEMS[@]}"; do
    pair_once "$system" "$query" "$size" warmup 0 "$file" || return 1
  done
  for ((rep = 1; rep <= BENCH_REPS; rep++)); do
    order=("${PAIR_SYSTEMS[@]}")
    if ((rep % 2 == 0)); then order=(); for system in "${PAIR_SYSTEMS[@]}"; do order=("$system" "${order[@]}"); done; fi
    for system in "${order[@]}"; do
      pair_once "$system" "$query" "$size" query "$rep" "$file" || return 1
    done
  done
}

# pair_start_duckdb: starts the DuckDB peer if it is available.
pair_start_duckdb() {
  bench_meta peer duckdb
  if [ "$BENCH_PEER_OK" = 1 ]; then
    pair_start duckdb node "$BENCH_LIB/duckdb_server.mjs"
  else
    bench_log "DuckDB peer unavailable; measuring lakestream only"
  fi
}
