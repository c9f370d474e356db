"""How many steps and calls the pseudocode trace holds below each position, memoised per
position (and window), so a step deep in the trace is reached by skipping whole subtrees.
Standard library and the engine only; the steps themselves are walked in `trace`.
"""

from __future__ import annotations

import functools
import math

from . import search
from .costs import alphabeta, moves, reachable, tree_size
from .position import EMPTY_BOARD, action_of, over

INF = math.inf


def to_move(position: str) -> str:
    """X or O: a plain count, as the walk asks this at every level of every step."""
    return "O" if position.count("X") > position.count("O") else "X"


@functools.lru_cache(maxsize=1024)  # a step asks it at every level on its way down: docs/performance.md
def kids(
    position: str, window: tuple[float, float], pruning: bool
) -> tuple[tuple[tuple[int, int], str, tuple[float, float], int], ...]:
    """(action, child, child's window, what the child returns) for each action searched."""
    if not pruning:
        return tuple((action_of(n), child, (-INF, INF), search.value(child)) for n, child in moves(position))
    searched = alphabeta(position, *window)
    return tuple((action_of(n), c.position, (c.alpha, c.beta), c.returned) for n, c in searched.children)


def pruned_actions(position: str, window: tuple[float, float]) -> tuple[tuple[int, int], ...]:
    return tuple(action_of(n) for n, _ in alphabeta(position, *window).pruned)


@functools.cache
def size(position: str, window: tuple[float, float], pruning: bool, root: bool = False) -> tuple[int, int]:
    """(steps, calls) of the call on `position` and everything below it."""
    if over(position):
        return 2, 1
    per = 2 if root or not pruning else 3
    below = [size(child, w, pruning) for _, child, w, _ in kids(position, window, pruning)]
    cut = pruning and not root and cuts(position, window)
    return 2 + sum(per + s for s, _ in below) + (0 if cut else 1), 1 + sum(c for _, c in below)


def bound(position: str, window: tuple[float, float]) -> str:
    """ "=" when alpha-beta's call on `position` with `window` returns the exact minimax
    value, "≤" or "≥" when only a bound (as the explorer's alpha-beta tree marks it)."""
    return "=" if over(position) else alphabeta(position, *window).bound


def cuts(position: str, window: tuple[float, float]) -> bool:
    """Whether alpha-beta's call on `position` stops early (v reached β for MAX, α for MIN)."""
    returned = alphabeta(position, *window).returned
    return returned >= window[1] if to_move(position) == "X" else returned <= window[0]


def total(root: str, pruning: bool) -> tuple[int, int]:
    """(steps, calls) of the whole trace from `root`."""
    return size(root, (-INF, INF), pruning, True)


@functools.cache
def steps_with_empty_cells(empty: int, pruning: bool = False) -> tuple[int, int]:
    """The fewest and the most steps of the trace from a live position with `empty` empty
    cells, over every reachable one: what a board of that size costs to step through. Kept:
    each count walks every such position (see docs/performance.md)."""
    counts = [total(p, pruning)[0] for p in reachable(EMPTY_BOARD) if p.count(".") == empty and not over(p)]
    return min(counts), max(counts)


def calls_plain(root: str) -> int:
    return tree_size(root)


def step_of_call(root: str, call: int, pruning: bool) -> int:
    """The number of the step where call `call` (from 1) begins; ValueError when there is none."""
    _, calls = total(root, pruning)
    if not 1 <= call <= calls:
        raise ValueError(f"This trace has calls 1 to {calls}.")
    position, window, first, number, is_root = root, (-INF, INF), 1, 1, True
    while first != call:
        offset, first = 2, first + 1
        for _, child, w, _ in kids(position, window, pruning):
            steps, calls_below = size(child, w, pruning)
            if call < first + calls_below:
                number += offset + 1
                position, window, is_root = child, w, False
                break
            offset += (2 if is_root or not pruning else 3) + steps
            first += calls_below
    return number
