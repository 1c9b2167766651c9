"""How the harness fails and waits: `HarnessError`, and `wait_until`, which polls until a condition holds."""

import time


class HarnessError(AssertionError):
    """A failure of the system under test or of its environment. An AssertionError so tests FAIL (never skip)."""


def wait_until(fn, timeout, interval=0.1, what="condition", describe=None):
    """Polls fn() until it returns a truthy value, which is returned. On timeout raises HarnessError naming
    `what`, with describe() (or the last value) appended."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        last = fn()
        if last:
            return last
        if time.monotonic() >= deadline:
            detail = describe() if describe else repr(last)
            raise HarnessError("timed out after %.1fs waiting for %s; last: %s" % (timeout, what, detail))
        time.sleep(interval)
