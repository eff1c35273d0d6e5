#!/usr/bin/env bash
# `cmake --install` into a DESTDIR puts an importable lakestream package into
# the interpreter's site-packages directory: the extension and every .py file
# of python/lakestream (nothing missing, nothing from the build tree needed).
#   install_test.sh BUILD_DIR PYTHON SITE_PACKAGES_DIR PACKAGE_SOURCE_DIR
set -euo pipefail
build="$1" python="$2" site="$3" source="$4"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
DESTDIR="$stage" cmake --install "$build" >/dev/null
pkg="$stage$site/lakestream"
ls "$pkg"/_lakestream*.so >/dev/null || { echo "FAIL: no extension in $pkg"; exit 1; }
missing=0
while IFS= read -r f; do
  [ -f "$pkg/$f" ] || { echo "FAIL: $f of python/lakestream not installed"; missing=1; }
done < <(cd "$source" && find . -name '*.py' | sed 's|^\./||')
[ "$missing" = 0 ] || exit 1
# Import from the staged copy only (not the build tree, not the sources).
out="$(cd "$stage" && env -u PYTHONPATH PYTHONNOUSERSITE=1 "$python" -c "
import sys; sys.path.insert(0, '$stage$site')
import lakestream
assert lakestream.__file__.startswith('$pkg'), lakestream.__file__
print(lakestream.connect().sql('SELECT 40 + 2 AS x').fetchall())
")"
[ "$out" = "[(42,)]" ] || { echo "FAIL: staged package answered '$out'"; exit 1; }
echo "ok: installed into $site ($(find "$pkg" -name '*.py' | wc -l) modules and the extension)"
