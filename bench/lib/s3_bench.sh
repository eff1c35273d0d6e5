# Shared by the object-storage benchmarks (bench/s3_*.sh); source it after
# setting ROOT (the repository). Starts tools/s3_test_server on a loopback
# port serving $TMP/s3 (bucket `lake`), removed with $TMP at exit, and gives:
#   PORT                   the server's port
#   control NAME METHOD    /__control__/NAME (`stats` prints "requests bytes_out")
#   best COMMAND...        the best-of-3 wall seconds of COMMAND (output dropped)
TMP=$(mktemp -d)
python3 "$ROOT/tools/s3_test_server/s3_test_server.py" --root "$TMP/s3" --port-file "$TMP/port" >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -rf "$TMP"' EXIT
mkdir -p "$TMP/s3/lake"
for _ in $(seq 100); do [[ -s "$TMP/port" ]] && break; sleep 0.05; done
PORT=$(cat "$TMP/port")
control() { python3 -c "import urllib.request, json, sys; r=urllib.request.urlopen(urllib.request.Request('http://127.0.0.1:$PORT/__control__/' + sys.argv[1], method=sys.argv[2])).read(); print(' '.join(str(json.loads(r)[k]) for k in ('requests', 'bytes_out')) if sys.argv[1] == 'stats' else '')" "$@"; }
best() {
  local b=999 s e t
  for _ in 1 2 3; do
    s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc); (( $(echo "$t < $b" | bc) )) && b=$t
  done
  echo "$b"
}
