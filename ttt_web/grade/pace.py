"""A batch's pace, on a terminal: a line per file as it is done, under it how many are done and
about how long the rest will take, redrawn in place; elsewhere (a file, a pipe) nothing, the
summary being the final lines. Hand-written: tqdm draws one bar, not lines above a status
that changes its own estimate, and the grader runs on the standard library alone."""

from __future__ import annotations

import contextlib
import heapq
import os
import signal
import subprocess
import sys
import threading
import time
from statistics import median
from typing import TextIO

EVERY = 1.0  # seconds between two redrawings of the status


def duration(seconds: float) -> str:
    """`45 s`, `2 min 8 s`, `1 h 5 min`."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"


def verdict(report: dict) -> str:
    if not report.get("loaded"):
        return "did not load" if "functions" not in report else "not passed"
    return "passed" if report.get("passed") else "not passed"


def time_left(walls: list[float], running: list[float], waiting: int, jobs: int) -> float:
    """How long the rest of a batch takes, from the wall-clock seconds of the files done: each
    file still running (`running`: how long it has run) takes as long again as the median of
    the files done that ran longer (none, when none did: its rest is unknown, so the time is
    a lower bound, see left_said), each waiting file the median of all; each of the `jobs`
    places takes the next waiting file as soon as it is free."""
    typical = median(walls)
    places = [rest(walls, ran) for ran in running]
    places += [0.0] * max(0, jobs - len(places))
    heapq.heapify(places)
    for _ in range(waiting):
        heapq.heapreplace(places, places[0] + typical)
    return max(places, default=0.0)


def rest(walls: list[float], ran: float) -> float:
    """How much longer a file that has run `ran` seconds will take (see time_left)."""
    longer = [wall - ran for wall in walls if wall > ran]
    return median(longer) if longer else 0.0


def left_said(walls: list[float], running: list[float], waiting: int, jobs: int) -> str:
    """The time left, as the status says it: about how long (time_left) while every file
    running is within the files done; at least how long while some have run longer than any
    done (their rest unknown); for the last file, only how long it has run."""
    if not walls:
        return "the time left is foreseen once a file is done"
    outrun = [ran for ran in running if ran >= max(walls)]
    if not outrun:
        return f"about {duration(time_left(walls, running, waiting, jobs))} left"
    longest, files = duration(max(outrun)), f"file{'s' if len(outrun) > 1 else ''}"
    if waiting == 0 and len(running) == 1:
        return f"the last file, running for {longest}, longer than any file done"
    if waiting == 0 and len(outrun) == len(running):
        return f"the last {len(running)} files, running longer than any file done (the longest for {longest})"
    at_least = duration(time_left(walls, running, waiting, jobs))
    return f"at least {at_least} left ({len(outrun)} {files} running longer than any file done, up to {longest})"


class Pace:
    """The files of a batch as they are started and done (from the grading threads), and
    what the terminal shows of them when `shown`."""

    def __init__(
        self, files: int, jobs: int, folder: str, shown: bool, stream: TextIO | None = None, every: float = EVERY
    ) -> None:
        self.files, self.jobs, self.folder, self.shown, self.every = files, jobs, folder, shown, every
        self.stream = stream or sys.stderr
        self.start = time.monotonic()
        self.lock = threading.Lock()
        self.running: dict[subprocess.Popen, float] = {}  # each file's grader: when it started
        self.walls: list[float] = []  # the wall-clock seconds of each file done
        self.stopping = False

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def started(self, process: subprocess.Popen) -> None:
        with self.lock:
            self.running[process] = time.monotonic()
            if self.stopping:
                stop(process)

    def took(self, process: subprocess.Popen) -> float:
        """The wall-clock seconds since the file's grader started."""
        with self.lock:
            return time.monotonic() - self.running[process]

    def done(self, process: subprocess.Popen, report: dict) -> None:
        with self.lock:
            self.running.pop(process, None)
            self.walls.append(report.get("wall_seconds", 0.0))
            if self.shown:
                line = f"{len(self.walls)}/{self.files} {report['file']}: {verdict(report)}, "
                line += f"{report['wall_seconds']:.0f} s ({report.get('processor_seconds', 0):.0f} s of processor time)"
                self.draw(line + "\n" + self.status())  # the status at once, not at the next redrawing

    def status(self) -> str:
        """How many files are done and the time left (the lock held)."""
        now = time.monotonic()
        running = [now - since for since in self.running.values()]
        waiting = self.files - len(self.walls) - len(running)
        left = left_said(self.walls, running, waiting, self.jobs)
        return f"{len(self.walls)} of {self.files} files graded in {duration(self.elapsed())}; {left}"

    def show(self) -> None:
        if self.shown:
            with self.lock:
                self.draw(self.status())

    def draw(self, text: str) -> None:
        """`text` in place of the status line (the lock held)."""
        self.stream.write("\r\033[K" + text)
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            with self.lock:
                self.draw("")

    def stop_all(self) -> None:
        """Every grader still running told to stop (SIGTERM: each ends its student's processes),
        and those started from now on."""
        with self.lock:
            self.stopping = True
            for process in self.running:
                stop(process)


def stop(process: subprocess.Popen) -> None:
    """SIGTERM to a grader not yet waited for (os.kill: Popen.terminate would wait for it, in
    the place of the thread that does)."""
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGTERM)
