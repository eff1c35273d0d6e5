"""lakestream's PEP 517 build backend: `pip install .` and `python3 -m build`
from a checkout, with nothing to download.

The backend is in the tree (pyproject.toml: backend-path) and needs only the
standard library, so pip's isolated build environment has nothing to install
(`requires = []`): it works offline, as CI and these machines are. The wheel
is built by the project's own CMake: the `lakestream_python` target (the
extension, linking the engine statically) and `lakestream_python_files` (the
pure-Python modules), then zipped with its .dist-info as PEP 427 says.

Where CMake builds: `build/release` under the checkout (what `make` uses, so
an install after `make` relinks nothing), or the `build-dir` config setting
(`pip install . -C build-dir=/tmp/b`, `python3 -m build -C build-dir=...`), or
LAKESTREAM_BUILD_DIR. The extension is built for the interpreter running the
backend (-DPython3_EXECUTABLE=sys.executable); a build dir configured for
another interpreter is reconfigured.
"""
import base64
import csv
import hashlib
import io
import os
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def _project():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]


def _name_version():
    p = _project()
    return p["name"], p["version"]


def _tag():
    impl = "cp%d%d" % sys.version_info[:2]
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return "%s-%s-%s" % (impl, impl, platform)


def _metadata():
    p = _project()
    lines = ["Metadata-Version: 2.1", "Name: " + p["name"], "Version: " + p["version"]]
    if "description" in p:
        lines.append("Summary: " + p["description"])
    if "requires-python" in p:
        lines.append("Requires-Python: " + p["requires-python"])
    license_text = p.get("license", {}).get("text")
    if license_text:
        lines.append("License: " + license_text)
    for extra, deps in sorted(p.get("optional-dependencies", {}).items()):
        lines.append("Provides-Extra: " + extra)
        for dep in deps:
            lines.append('Requires-Dist: %s ; extra == "%s"' % (dep, extra))
    for dep in p.get("dependencies", []):
        lines.append("Requires-Dist: " + dep)
    readme = p.get("readme")
    body = ""
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(ROOT, readme), encoding="utf-8") as f:
            body = "\n" + f.read()
    return "\n".join(lines) + "\n" + body


def _wheel_file():
    return "Wheel-Version: 1.0\nGenerator: lakestream_build\nRoot-Is-Purelib: false\nTag: %s\n" % _tag()


def _dist_info():
    name, version = _name_version()
    return "%s-%s.dist-info" % (name, version)


def _build_dir(config_settings):
    given = (config_settings or {}).get("build-dir") or os.environ.get("LAKESTREAM_BUILD_DIR")
    return os.path.abspath(given) if given else os.path.join(ROOT, "build", "release")


def _log(message):
    print("lakestream_build: " + message, file=sys.stderr, flush=True)


def _cmake_build(build_dir):
    cache = os.path.join(build_dir, "CMakeCache.txt")
    # A venv's python is a link to its base interpreter, whose headers and
    # ABI the extension is built for: a build dir configured for that one
    # (as `make` configures build/release for /usr/bin/python3) serves it.
    python = getattr(sys, "_base_executable", None) or sys.executable
    configured_for = None
    if os.path.exists(cache):
        with open(cache, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("Python3_EXECUTABLE:"):
                    configured_for = line.split("=", 1)[1].strip()
    if configured_for is None or os.path.realpath(configured_for) != os.path.realpath(python):
        args = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release", "-DPython3_EXECUTABLE=" + python]
        if not os.path.exists(cache):
            args += ["-G", "Ninja"]
        _log("configuring " + build_dir + " for " + python)
        subprocess.run(args, check=True, stdout=sys.stderr)
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 2)
    _log("building the extension in " + build_dir + " (first build: the whole engine, several minutes)")
    subprocess.run(["cmake", "--build", build_dir, "-j", jobs, "--target", "lakestream_python", "lakestream_python_files"],
                   check=True, stdout=sys.stderr)
    package = os.path.join(build_dir, "python", "lakestream")
    if not any(f.startswith("_lakestream") and f.endswith(".so") for f in os.listdir(package)):
        raise RuntimeError("the build made no extension in %s: see python/CMakeLists.txt for what it needs "
                           "(pybind11-dev, python3-dev)" % package)
    return package


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return [path, "sha256=" + digest, str(len(data))]


# --- PEP 517 hooks ---------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    dist_info = os.path.join(metadata_directory, _dist_info())
    os.makedirs(dist_info, exist_ok=True)
    with open(os.path.join(dist_info, "METADATA"), "w", encoding="utf-8") as f:
        f.write(_metadata())
    with open(os.path.join(dist_info, "WHEEL"), "w", encoding="utf-8") as f:
        f.write(_wheel_file())
    return _dist_info()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    package = _cmake_build(_build_dir(config_settings))
    name, version = _name_version()
    wheel_name = "%s-%s-%s.whl" % (name, version, _tag())
    os.makedirs(wheel_directory, exist_ok=True)
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as whl:
        def add(arcname, data, mode=0o644):
            info = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (mode | 0o100000) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(info, data)
            records.append(_record_line(arcname, data))
        for dirpath, dirnames, filenames in os.walk(package):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for filename in sorted(filenames):
                if filename.endswith((".pyc", ".pyo")):
                    continue
                full = os.path.join(dirpath, filename)
                arcname = "lakestream/" + os.path.relpath(full, package).replace(os.sep, "/")
                with open(full, "rb") as f:
                    add(arcname, f.read(), 0o755 if filename.endswith(".so") else 0o644)
        dist_info = _dist_info()
        add(dist_info + "/METADATA", _metadata().encode())
        add(dist_info + "/WHEEL", _wheel_file().encode())
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerows(records)
        writer.writerow([dist_info + "/RECORD", "", ""])
        info = zipfile.ZipInfo(dist_info + "/RECORD", date_time=(1980, 1, 1, 0, 0, 0))
        info.external_attr = 0o100644 << 16
        whl.writestr(info, out.getvalue())
    _log("wrote " + os.path.join(wheel_directory, wheel_name))
    return wheel_name


def _sdist_files():
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], check=True, capture_output=True).stdout
        return sorted(p for p in out.decode().split("\0") if p and os.path.isfile(os.path.join(ROOT, p)))
    except (OSError, subprocess.CalledProcessError):
        files = []
        for dirpath, dirnames, filenames in os.walk(ROOT):
            dirnames[:] = [d for d in dirnames if d not in (".git", "build", "node_modules", "__pycache__")]
            files += [os.path.relpath(os.path.join(dirpath, f), ROOT) for f in filenames]
        return sorted(files)


def build_sdist(sdist_directory, config_settings=None):
    name, version = _name_version()
    base = "%s-%s" % (name, version)
    os.makedirs(sdist_directory, exist_ok=True)
    path = os.path.join(sdist_directory, base + ".tar.gz")
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for rel in _sdist_files():
            tar.add(os.path.join(ROOT, rel), arcname=base + "/" + rel, recursive=False)
        data = ("Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (name, version)).encode()
        info = tarfile.TarInfo(base + "/PKG-INFO")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return base + ".tar.gz"
