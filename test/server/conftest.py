"""Starts `lakestream serve` on an ephemeral port for the server tests.

LAKESTREAM_SHELL names the binary (ctest sets it; else build/release/lakestream).
"""
import os
import re
import subprocess
import time

import pytest

SHELL = os.environ.get("LAKESTREAM_SHELL", "build/release/lakestream")


class Server:
    def __init__(self, tmp_path, *args):
        self.log_path = tmp_path / "serve.log"
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([SHELL, "serve", str(tmp_path / "db"), "--listen", "127.0.0.1:0", *args],
                                     stderr=self.log, stdout=subprocess.DEVNULL)
        deadline = time.time() + 10
        while time.time() < deadline:
            match = re.search(r"listening on 127\.0\.0\.1:(\d+)", self.log_path.read_text())
            if match:
                self.port = int(match.group(1))
                return
            assert self.proc.poll() is None, self.log_path.read_text()
            time.sleep(0.05)
        raise AssertionError("lakestream serve did not start: " + self.log_path.read_text())

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.log.close()


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path)
    yield s
    s.stop()


@pytest.fixture
def server_factory(tmp_path):
    started = []

    def start(*args):
        sub = tmp_path / f"s{len(started)}"
        sub.mkdir()
        s = Server(sub, *args)
        started.append(s)
        return s

    yield start
    for s in started:
        s.stop()
