"""A flight recorder of the kernel's scheduler: who held the cores while the app's window thread waited for one.

`versus_gthumb.py --trace-stalls` uses it in its drop part. The scheduler's events (sched_switch, sched_wakeup,
sched_wakeup_new, sched_migrate_task) go into the kernel's own ring buffer (ftrace, /sys/kernel/tracing, CLOCK_MONOTONIC timestamps,
64 MB a CPU) while a drop runs; nothing reads it meanwhile. After the drop it is read once and cleared;
a drop with a stall over 8 ms keeps its trace (gzipped, in --artifacts). A sched_wakeup line names the waker.
`perf record` had hidden the stalls it was meant to explain (0 of 48 traced quiet drops had one, against 3 of 30
untraced): its reader wakes on the same two cores. Needs root (tracefs); without it, Unavailable says why.
"""
import collections
import gzip
import os
import re
import subprocess

TRACING = "/sys/kernel/tracing"
EVENTS = ("sched:sched_switch", "sched:sched_wakeup", "sched:sched_wakeup_new", "sched:sched_migrate_task")
BUFFER_KB = 65536

LINE = re.compile(r"^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+(?:\S+\s+)?(?P<t>\d+\.\d+):\s+"
                  r"(?P<event>\w+):\s+(?P<rest>.*)$")
SWITCH = re.compile(r"prev_comm=(?P<prev_comm>.*) prev_pid=(?P<prev_pid>\d+) prev_prio=\d+ prev_state=(?P<state>\S+)"
                    r" ==> next_comm=(?P<next_comm>.*) next_pid=(?P<next_pid>\d+) next_prio=\d+")
WAKEUP = re.compile(r"comm=.* pid=(?P<pid>\d+) prio=\d+")


class Unavailable(Exception):
    pass


class Wait(collections.namedtuple("Wait", "start ms holders")):
    """The window's thread ready but not running from `start` (monotonic s) for `ms`; `holders`: what ran on the
    cores meanwhile, {thread name without its number: ms}, "idle" for an idle core."""

    def describe(self, origin):
        top = sorted(self.holders.items(), key=lambda kv: -kv[1])[:4]
        return "+%.3f s %.1f ms (%s)" % (self.start - origin, self.ms,
                                        ", ".join("%s %.1f" % (name, ms) for name, ms in top))


def kind(comm):
    """A thread's name without its pool number (image-decode-1 -> image-decode); the idle task is "idle"."""
    if comm.startswith("swapper/"):
        return "idle"
    return re.sub(r"-\d+$", "", comm)


class FlightRecorder:
    def __init__(self, root=TRACING):
        self.root = root
        if os.geteuid() != 0:
            raise Unavailable("the scheduler trace needs root (tracefs at %s)" % root)
        if not os.path.exists(os.path.join(root, "trace")):
            subprocess.run(["mount", "-t", "tracefs", "nodev", root], stderr=subprocess.DEVNULL)
            if not os.path.exists(os.path.join(root, "trace")):
                raise Unavailable("tracefs is not mounted at %s and could not be" % root)
        self.saved = {name: self._read(name) for name in ("trace_clock", "buffer_size_kb", "tracing_on")}

    def _read(self, name):
        with open(os.path.join(self.root, name)) as f:
            text = f.read().strip()
        # trace_clock lists every clock, the chosen one in brackets; buffer_size_kb may say "7 (expanded: 1408)"
        chosen = re.search(r"\[(\w+)\]", text)
        return chosen.group(1) if chosen else text.split()[0]

    def _write(self, name, value, append=False):
        # set_event takes one event a write: appending keeps the ones written before.
        fd = os.open(os.path.join(self.root, name), os.O_WRONLY | (os.O_APPEND if append else os.O_TRUNC))
        try:
            os.write(fd, value.encode())
        finally:
            os.close(fd)

    def start(self):
        try:
            self._write("tracing_on", "0")
            self._write("set_event", "")
            self._write("trace_clock", "mono")
            self._write("buffer_size_kb", str(BUFFER_KB))
            for event in EVENTS:
                self._write("set_event", event, append=True)
            self.clear()
            self._write("tracing_on", "1")
        except OSError as error:  # the tracer is put back as it was
            self.stop()
            raise Unavailable("the scheduler trace could not be set up: %s" % error)
        return self

    def clear(self):
        self._write("trace", "")

    def stop(self):
        self._write("tracing_on", "0")
        self._write("set_event", "")
        self.clear()
        self._write("trace_clock", self.saved["trace_clock"])
        self._write("buffer_size_kb", self.saved["buffer_size_kb"])
        self._write("tracing_on", self.saved["tracing_on"])

    def waits(self, threads, since, until, over_ms=1.0, keep=None):
        """{label: [Wait]} of each thread in `threads` ({label: tid}) over `over_ms` that began within [since, until],
        from the buffer, which is then cleared for the next drop; the trace is kept gzipped at `keep` if given."""
        with open(os.path.join(self.root, "trace")) as f:
            lines = f.read().splitlines()
        self.clear()
        if keep:
            with gzip.open(keep, "wt") as out:
                out.write("\n".join(lines) + "\n")
        return {label: waits_in(lines, tid, since, until, over_ms) for label, tid in threads.items()}


def waits_in(lines, tid, since, until, over_ms):
    running = {}      # cpu -> (name, since)
    ran = collections.defaultdict(list)  # cpu -> [(start, end, name)]
    on_cpu = None  # unknown until the thread is first switched
    ready_since = None
    waits = []
    for line in lines:
        match = LINE.match(line)
        if not match:
            continue
        t, cpu, event, rest = float(match["t"]), int(match["cpu"]), match["event"], match["rest"]
        if event == "sched_switch":
            switch = SWITCH.match(rest)
            if not switch:
                continue
            name, began = running.get(cpu, (kind(switch["prev_comm"]), None))
            if began is not None:
                ran[cpu].append((began, t, name))
            running[cpu] = (kind(switch["next_comm"]), t)
            if int(switch["prev_pid"]) == tid:
                on_cpu = False
                # preempted, still ready; or asleep
                ready_since = t if switch["state"].startswith("R") else None
            if int(switch["next_pid"]) == tid:
                on_cpu = True
                if ready_since is not None and (t - ready_since) * 1000 > over_ms and since <= ready_since <= until:
                    waits.append((ready_since, t))
                ready_since = None
        elif event in ("sched_wakeup", "sched_wakeup_new"):
            # A wake-up may come while the thread still runs, on its way to sleep: it then never left.
            wakeup = WAKEUP.match(rest)
            if wakeup and int(wakeup["pid"]) == tid and on_cpu is False and ready_since is None:
                ready_since = t
    out = []
    for start, end in waits:
        holders = collections.Counter()
        for intervals in ran.values():
            for began, ended, name in intervals:
                overlap = min(ended, end) - max(began, start)
                if overlap > 0:
                    holders[name] += overlap * 1000
        out.append(Wait(start, (end - start) * 1000, dict(holders)))
    return out
