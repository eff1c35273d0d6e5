# Helpers for the pipeline tests. Sourced; expects LS (the lakestream binary).
set -euo pipefail

fail() { echo "FAIL: $*" >&2; exit 1; }

# make_file DIR NAME FIRST_ID COUNT [SEQ]: COUNT JSON-lines events, written
# under a hidden name and renamed into place (as writers should).
make_file() {
  local dir=$1 name=$2 first=$3 count=$4 seq=${5:-1}
  mkdir -p "$dir"
  local tmp="$dir/.${name}.tmp"
  : > "$tmp"
  for ((i = first; i < first + count; i++)); do
    # ids repeat every 50 so silver's upserts have work to do.
    echo "{\"id\": $((i % 50)), \"grp\": \"g$((i % 4))\", \"amount\": $((i % 97)), \"seq\": $((seq * 100000 + i))}" >> "$tmp"
  done
  mv "$tmp" "$dir/$name"
}

# versions DB: "table=version ..." of every Delta table in the database but the event log.
versions() {
  local db=$1 out=""
  for log in "$db"/*/_delta_log; do
    local t; t=$(basename "$(dirname "$log")")
    # The pipeline event log records every run, including one that changes nothing.
    [ "$t" = event_log ] && continue
    local v; v=$(ls "$log" | grep -c '\.json$')
    out="$out $t=$v"
  done
  echo "$out"
}

# query DB SQL: csv result without the header.
query() { "$LS" "$1" -readonly -csv -c "$2" | tail -n +2; }
