"""Progress on stderr, on a terminal only: a bar (tqdm's when it is installed, else a plain one
of our own) that names what it does and keeps ticking while a long call runs, moved by each
check's foreseen cost rather than by the number of calls, so that it moves roughly with time.
Elsewhere (a file, a pipe) nothing: the report is the final lines."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from itertools import accumulate

from ..core.costs import tree_size
from .checks import FUNCTIONS, Check

try:  # imported now, before any student's file runs: never from a folder that file could write to
    from tqdm import tqdm
except ImportError:
    tqdm = None  # type: ignore[assignment,misc]  # tqdm is optional: the grader runs on the standard library alone

NODES_PER_CALL = 4  # nodes of the game tree a textbook minimax visits in the time one call of a cheap function takes
WIDTH = 30  # of the plain bar
BAR_FORMAT = "{desc}{percentage:3.0f}%|{bar}| {elapsed}<{remaining}"  # tqdm puts ": " after a description


def cost(check: Check) -> float:
    """A check's foreseen cost, in calls of a cheap function: minimax's grows with the game tree
    below its board (what a search without memo visits), as workers.py cuts its batches."""
    return 1 + tree_size(check.position) / NODES_PER_CALL if check.function == "minimax" else 1


def described(text: str) -> str:
    """`Checking minimax` for a function's checks; any other stage as it is said."""
    return f"Checking {text}" if text in FUNCTIONS else text


class Plain:
    """`Checking minimax  [#########      ]  45%  12 s`, redrawn in place at most twice a second."""

    def __init__(self, total: float, stream=None) -> None:
        self.total, self.done, self.stream = total, 0.0, stream or sys.stderr
        self.description, self.start, self.drawn = "", time.monotonic(), 0.0

    def set_description(self, text: str) -> None:
        self.description = text
        self.refresh()

    def update(self, n: float = 1) -> None:
        self.done += n
        if time.monotonic() - self.drawn > 0.5 or self.done >= self.total:
            self.refresh()

    def refresh(self) -> None:
        self.drawn = time.monotonic()
        share = min(1.0, self.done / self.total) if self.total else 1.0
        elapsed = self.drawn - self.start
        bar = "#" * int(WIDTH * share)
        self.stream.write(f"\r\033[K{self.description}  [{bar:<{WIDTH}}] {share:4.0%}  {elapsed:.0f} s")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\r\033[K")
        self.stream.flush()


class Weighted:
    """A bar moved by the checks' costs: `update(n)` says the next `n` checks of the plan are
    done (the grading run judges and skips them in the plan's order); `made(batches)`, while
    it waits, that the checks with replies in those batches are done too, out of the plan's
    order (minimax's costliest boards go first)."""

    def __init__(self, bar, plan: list[Check]) -> None:
        costs = [cost(check) for check in plan]
        self.bar, self.ends, self.calls = bar, [0.0, *accumulate(costs)], 0
        self.costs = {id(check): (n, c) for n, (check, c) in enumerate(zip(plan, costs, strict=True))}
        self.ahead: dict[int, float] = {}  # the checks made beyond those judged: their place in the plan, cost

    def set_description(self, text: str) -> None:
        """What the bar says it does; "" leaves it as it was (a stage with nothing to do)."""
        if text:
            self.bar.set_description(described(text))

    def update(self, n: int = 1) -> None:
        before, self.calls = self.calls, min(self.calls + n, len(self.ends) - 1)
        counted = [self.ahead.pop(k) for k in [k for k in self.ahead if k < self.calls]]
        self.bar.update(self.ends[self.calls] - self.ends[before] - sum(counted))

    def made(self, batches: Iterable) -> None:
        """The checks made in `batches` (each with .checks and .replies) beyond those judged."""
        moved = 0.0
        for batch in batches:
            for check in batch.checks[: len(batch.replies)]:
                n, c = self.costs.get(id(check), (-1, 0.0))
                if n >= self.calls and n not in self.ahead:
                    self.ahead[n], moved = c, moved + c
        if moved:
            self.bar.update(moved)
        self.refresh()

    def refresh(self) -> None:
        self.bar.refresh()

    def close(self) -> None:
        self.bar.close()


class Silent:
    """No progress: for a stream that is not a terminal."""

    def set_description(self, text: str) -> None:
        pass

    def update(self, n: int = 1) -> None:
        pass

    def made(self, batches: Iterable) -> None:
        pass

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(plan: list[Check], shown: bool) -> Weighted | Silent:
    """A bar over the `plan`'s checks with set_description, update, refresh and close: `shown`
    on a terminal, else nothing at all."""
    if not shown or not sys.stderr.isatty():
        return Silent()
    total = sum(map(cost, plan))
    if tqdm is None:
        return Weighted(Plain(total), plan)
    return Weighted(tqdm(total=total, file=sys.stderr, leave=False, bar_format=BAR_FORMAT), plan)
