"""For tests that stop a process at a pause point (common/pause_point.hpp:
LAKESTREAM_PAUSE_POINT=<name> makes it SIGSTOP itself there)."""
import time


def wait_stopped(proc, timeout=30):
    """Waits until `proc` is stopped (SIGSTOP at its pause point): True, or
    False when it exited or `timeout` seconds passed first."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        with open("/proc/%d/stat" % proc.pid) as f:
            if f.read().rsplit(")", 1)[1].split()[0] == "T":
                return True
        if proc.poll() is not None:
            return False
        time.sleep(0.02)
    return False
