"""The progress bar on stderr: tqdm's when it is installed, else a plain one of our own.
Either names the function it checks and keeps ticking while a long call runs."""

from __future__ import annotations

import sys
import time


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


class Silent:
    def set_description(self, function: str) -> None:
        pass

    def update(self, n: int = 1) -> None:
        pass

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, shown: bool):
    """A bar with set_description, update, refresh and close."""
    if not shown or not sys.stderr.isatty():
        return Silent()
    try:
        from tqdm import tqdm
    except ImportError:
        return Plain(total)
    return tqdm(total=total, desc="Checking", unit=" calls", file=sys.stderr, leave=False)
