"""The grader's progress bar against time: python bench/grade_progress.py tests/students/textbook.py

Grades the file once as `python -m ttt_web.grade FILE` does (two processes of it), with a bar
that records, at each update and while it waits, the calls judged and the calls made beyond
them (minimax's costliest boards go first). Then, for several weights of a cheap call in nodes
of minimax's game tree (ttt_web/grade/progress.py's NODES_PER_CALL; "calls": the bar that counts
the calls judged, as it did before), how far the bar's share ran ahead of the share of the time
gone, and behind it; and the bar every 5 s at the weight in use. Ends with the machine's load
average: others' work beside it."""

from __future__ import annotations

import os
import sys
import time
from itertools import accumulate
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ttt_web.core.costs import tree_size
from ttt_web.grade import helping
from ttt_web.grade.checks import checks
from ttt_web.grade.grading import run
from ttt_web.grade.progress import NODES_PER_CALL
from ttt_web.grade.runner import Student

PLAN = list(checks())
PLACE = {id(check): n for n, check in enumerate(PLAN)}
TREES = [tree_size(c.position) if c.function == "minimax" else 0 for c in PLAN]
TREE_ENDS = [0, *accumulate(TREES)]


class Recorder:
    """A bar that keeps (seconds, calls judged, calls made beyond them, their nodes)."""

    def __init__(self) -> None:
        self.calls, self.start = 0, time.monotonic()
        self.ahead: set[int] = set()
        self.trace: list[tuple[float, int, int, int]] = []

    def set_description(self, text: str) -> None:
        pass

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        pass

    def update(self, n: int = 1) -> None:
        self.calls += n
        self.ahead = {k for k in self.ahead if k >= self.calls}
        self.noted()

    def made(self, batches: list) -> None:
        for batch in batches:
            self.ahead |= {PLACE[id(c)] for c in batch.checks[: len(batch.replies)] if PLACE[id(c)] >= self.calls}
        self.noted()

    def noted(self) -> None:
        nodes = sum(TREES[k] for k in self.ahead)
        self.trace.append((time.monotonic() - self.start, self.calls, len(self.ahead), nodes))


def share(point: tuple[float, int, int, int], per_node: float) -> float:
    """The bar's share at a point of the trace, a node weighing `per_node` calls."""
    _, calls, count, nodes = point
    return (calls + count + (TREE_ENDS[calls] + nodes) * per_node) / (len(PLAN) + TREE_ENDS[-1] * per_node)


def main() -> None:
    student = Student(sys.argv[1])
    bar = Recorder()
    run(student, PLAN, 1800, bar, None, helping(student, 2))
    end = bar.trace[-1][0]
    print(f"{sys.argv[1]}: every check made in {end:.1f} s")
    for nodes in (None, 2, 3, 4, 6, 8):
        per_node = 1 / nodes if nodes else 0.0
        shares = [share(point, per_node) if nodes else point[1] / len(PLAN) for point in bar.trace]
        strays = [(part - point[0] / end, point[0]) for part, point in zip(shares, bar.trace, strict=True)]
        (ahead, at), (behind, then) = max(strays), min(strays)
        name = f"{nodes} nodes a call" if nodes else "calls"
        print(
            f"  {name:>14}: ahead of the time by at most {ahead:+.0%} (at {at:.0f} s), "
            f"behind {behind:+.0%} ({then:.0f} s)"
        )
    said = -10.0
    for point in bar.trace:
        if point[0] - said >= 5:
            said = point[0]
            print(f"  {point[0]:5.1f} s  bar {share(point, 1 / NODES_PER_CALL):4.0%}")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
