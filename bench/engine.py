"""Engine benchmark, run by hand: python bench/engine.py [--cold-runs N]

Prints the textbook CS50 minimax's time for the first move (deep copies, no memo), the
engine's cold time (a fresh process: import plus first move) and warm time per call (every
reachable position), and the ratios between them. Medians, as this machine is shared.
"""

import argparse
import copy
import math
import statistics
import subprocess
import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttt_web.core import tictactoe as ttt  # noqa: E402

COLD = """
import time
t = time.perf_counter()
import ttt_web.core.tictactoe as ttt
ttt.minimax(ttt.initial_state())
print(time.perf_counter() - t)
"""


def textbook_minimax(board):
    """The usual CS50 solution: plain minimax over deep-copied boards, no memo."""

    def result(b, action):
        new = copy.deepcopy(b)
        new[action[0]][action[1]] = ttt.player(b)
        return new

    def max_value(b):
        if ttt.terminal(b):
            return ttt.utility(b)
        return max(min_value(result(b, a)) for a in ttt.actions(b))

    def min_value(b):
        if ttt.terminal(b):
            return ttt.utility(b)
        return min(max_value(result(b, a)) for a in ttt.actions(b))

    if ttt.player(board) == ttt.X:
        return max(ttt.actions(board), key=lambda a: min_value(result(board, a)))
    return min(ttt.actions(board), key=lambda a: max_value(result(board, a)))


def cold_seconds(runs: int) -> float:
    times = [
        float(
            subprocess.run(
                [sys.executable, "-c", COLD],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        for _ in range(runs)
    ]
    return statistics.median(times)


def warm_seconds() -> float:
    """Median over every reachable live position of the best-of-5 time per minimax call."""
    boards, todo, seen = [], [ttt.initial_state()], set()
    while todo:
        b = todo.pop()
        key = str(b)
        if key in seen or ttt.terminal(b):
            continue
        seen.add(key)
        boards.append(b)
        todo.extend(ttt.result(b, a) for a in ttt.actions(b))
    ttt.minimax(boards[0])
    per_call = [min(timeit.repeat(lambda b=b: ttt.minimax(b), number=20, repeat=5)) / 20 for b in boards]
    return statistics.median(per_call), max(per_call), len(boards)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold-runs", type=int, default=21)
    args = parser.parse_args()

    start = time.perf_counter()
    textbook_minimax(ttt.initial_state())
    textbook = time.perf_counter() - start
    cold = cold_seconds(args.cold_runs)
    warm, worst, positions = warm_seconds()

    print(f"textbook minimax, first move:        {textbook * 1e3:10.1f} ms")
    print(f"engine cold (median of {args.cold_runs}, import incl.): {cold * 1e3:7.2f} ms")
    print(f"engine warm, median per call ({positions} positions): {warm * 1e6:6.2f} us (worst {worst * 1e6:.2f} us)")
    print(f"ratio textbook / cold:  {textbook / cold:10.0f}x")
    print(f"ratio textbook / warm:  {textbook / warm:10.0f}x (10^{math.log10(textbook / warm):.1f})")
    print(f"ratio cold / warm:      {cold / warm:10.0f}x")


if __name__ == "__main__":
    main()
