"""Child processes: ending one (with its process group when it leads one), and how much memory a process uses."""

import os
import signal
import subprocess

from .waiting import HarnessError


def process_memory_mib(pid, field="VmRSS"):
    """A memory figure of a process from /proc/<pid>/status, in MiB: VmRSS now, VmHWM its peak."""
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise HarnessError("no %s for pid %d" % (field, pid))


def _terminate(proc, timeout=10):
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM) if _own_group(proc) else proc.terminate()
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout)


def _own_group(proc):
    try:
        return os.getpgid(proc.pid) == proc.pid
    except ProcessLookupError:
        return False
