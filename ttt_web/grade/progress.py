"""Progress on stderr: on a terminal, a bar (tqdm's when it is installed, else a plain one of
our own) that names the function it checks and keeps ticking while a long call runs;
elsewhere (a file, a pipe), a line now and then, so that a redirected run is not silent."""

from __future__ import annotations

import sys
import time

try:  # imported now, before any student's file runs: never from a folder that file could write to
    from tqdm import tqdm
except ImportError:
    tqdm = None  # type: ignore[assignment,misc]  # tqdm is optional: the grader runs on the standard library alone

EVERY = 30  # seconds between two lines of progress where no bar can be drawn


class Plain:
    """`minimax   1,234 / 5,478   12 s`, redrawn in place at most twice a second."""

    def __init__(self, total: int, stream=sys.stderr) -> None:
        self.total, self.done, self.stream = total, 0, stream
        self.function, self.start, self.drawn = "", time.monotonic(), 0.0

    def set_description(self, function: str) -> None:
        self.function = function
        self.refresh()

    def update(self, n: int = 1) -> None:
        self.done += n
        if time.monotonic() - self.drawn > 0.5 or self.done == self.total:
            self.refresh()

    def refresh(self) -> None:
        self.drawn = time.monotonic()
        share = self.done / self.total if self.total else 1
        bar = "#" * int(30 * share)
        elapsed = self.drawn - self.start
        self.stream.write(f"\rChecking {self.function:<9} [{bar:<30}] {self.done:,}/{self.total:,} {elapsed:.0f} s ")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\r" + " " * 80 + "\r")
        self.stream.flush()


class Lines:
    """`Checking minimax: 1,234 of 56,158 calls made, 95 s`, a line when the run starts and
    then every `every` seconds, flushed: for a stream that is not a terminal."""

    def __init__(self, total: int, stream=None, every: float = EVERY) -> None:
        self.total, self.done, self.stream, self.every = total, 0, stream or sys.stderr, every
        self.function, self.start = "", time.monotonic()
        self.said: float | None = None  # when it last said how far it is

    def set_description(self, function: str) -> None:
        self.function = function
        self.refresh()

    def update(self, n: int = 1) -> None:
        self.done += n
        self.refresh()

    def refresh(self) -> None:
        now = time.monotonic()
        if self.said is None or now - self.said >= self.every:
            self.said = now
            elapsed = now - self.start
            self.stream.write(
                f"Checking {self.function}: {self.done:,} of {self.total:,} calls made, {elapsed:.0f} s\n"
            )
            self.stream.flush()

    def close(self) -> None:
        pass


def progress_bar(total: int, shown: bool):
    """A bar with set_description, update, refresh and close: `shown` on a terminal, else
    lines now and then."""
    if not shown or not sys.stderr.isatty():
        return Lines(total)
    if tqdm is None:
        return Plain(total)
    return tqdm(total=total, desc="Checking", unit=" calls", file=sys.stderr, leave=False)
