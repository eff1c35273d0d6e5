#!/usr/bin/env bash
# `pip install .` from a checkout into a fresh venv, offline (--no-index: the
# in-tree build backend needs nothing downloaded), then `import lakestream`
# from that venv alone; `python3 -m build --wheel` makes a wheel whose RECORD
# hashes match its files, which installs into a second venv and uninstalls
# cleanly. Both reuse BUILD_DIR (already built by ctest's build), so only the
# packaging is timed here, not the engine.
#   pip_install_test.sh BUILD_DIR PYTHON SOURCE_DIR
set -euo pipefail
build="$1" python="$2" source="$3"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
version=$("$python" -c "import tomllib; print(tomllib.load(open('$source/pyproject.toml', 'rb'))['project']['version'])")

"$python" -m venv "$tmp/venv" || fail "python3 -m venv failed (scripts/install-deps installs python3-venv)"
env -u PYTHONPATH "$tmp/venv/bin/python" -m pip install -q --no-index --config-settings "build-dir=$build" "$source" \
  >"$tmp/pip.log" 2>&1 || { cat "$tmp/pip.log"; fail "pip install . failed"; }
check_import() {  # check_import VENV: lakestream imports from VENV's site-packages and answers a query
  local out
  out=$(cd "$tmp" && env -u PYTHONPATH PYTHONNOUSERSITE=1 "$1/bin/python" -c "
import lakestream, sys
assert lakestream.__file__.startswith('$1/'), lakestream.__file__
print(lakestream.connect().sql('SELECT 40 + 2 AS x').fetchall())
print(lakestream.__version__)")
  [[ "$out" == $'[(42,)]\n'"$version" ]] || fail "lakestream from $1 answered '$out' (want [(42,)] and version $version)"
}
check_import "$tmp/venv"
shown=$(env -u PYTHONPATH "$tmp/venv/bin/python" -m pip show lakestream)  # whole, not into grep -q (a broken pipe)
grep -q "^Version: $version$" <<<"$shown" || fail "pip show lakestream does not report version $version: $shown"
echo "ok: pip install . into a fresh venv (offline), import and query"

if ! "$python" -c "import build" 2>/dev/null; then
  echo "python3 -m build is missing (python3-build): wheel step skipped"
  exit 0
fi
env -u PYTHONPATH "$python" -m build --wheel --no-isolation --outdir "$tmp/dist" --config-setting "build-dir=$build" "$source" \
  >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "python3 -m build --wheel failed"; }
wheel=$(ls "$tmp"/dist/lakestream-"$version"-*.whl) || fail "no wheel in $tmp/dist"
"$python" - "$wheel" <<'PY' || fail "the wheel's RECORD does not match its contents"
import base64, csv, hashlib, io, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    names = set(z.namelist())
    record = [n for n in names if n.endswith(".dist-info/RECORD")][0]
    rows = list(csv.reader(io.StringIO(z.read(record).decode())))
    listed = {r[0] for r in rows}
    assert listed == names, (names - listed, listed - names)
    assert any(n.startswith("lakestream/_lakestream") and n.endswith(".so") for n in names), "no extension"
    assert "lakestream/__init__.py" in names
    for path, digest, size in rows:
        if path == record:
            continue
        data = z.read(path)
        want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        assert digest == want and int(size) == len(data), path
PY
"$python" -m venv "$tmp/venv2"
env -u PYTHONPATH "$tmp/venv2/bin/python" -m pip install -q --no-index "$wheel" >"$tmp/pip2.log" 2>&1 ||
  { cat "$tmp/pip2.log"; fail "pip install of the wheel failed"; }
check_import "$tmp/venv2"
env -u PYTHONPATH "$tmp/venv2/bin/python" -m pip uninstall -q -y lakestream
[[ -z "$(find "$tmp/venv2/lib" -path '*site-packages/lakestream*' -print -quit)" ]] ||
  fail "pip uninstall left files: $(find "$tmp/venv2/lib" -path '*site-packages/lakestream*' | head -3)"
echo "ok: python3 -m build --wheel: $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB), installs, imports, uninstalls"
