"""Depth-limited minimax with an evaluation function, the lecture's next step: the search
stops `depth` moves below the position and scores what it reaches with an estimate.
Standard library and the engine only.

Values are X's point of view in points: a finished game is its utility times 100 (100, 0,
-100), so that any finished game outranks any estimate, and a position where the search
stops unfinished gets its evaluation, a small integer. Actions are tried in row order and
the first of equal values is chosen, as the assignment's `max(..., key=...)` does.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from . import search
from .costs import moves, reachable, tree_size
from .position import EMPTY_BOARD, action_of, over, to_move, utility

WIN = 100
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
DEPTHS = range(1, 10)


def open_lines(position: str) -> int:
    """Lines X can still complete (no O in them) minus lines O can still complete."""
    marks = [{position[n] for n in line} for line in LINES]
    return sum("O" not in m for m in marks) - sum("X" not in m for m in marks)


def weighted_lines(position: str) -> int:
    """3 for each line with two X and no O, 1 for each with one X and no O; minus O's same."""
    total = 0
    for line in LINES:
        text = "".join(position[n] for n in line)
        xs, os_ = text.count("X"), text.count("O")
        total += {1: 1, 2: 3}.get(xs, 0) if not os_ else -{1: 1, 2: 3}.get(os_, 0) if not xs else 0
    return total


def nothing(position: str) -> int:
    """0 for every unfinished position: the search sees only wins within its horizon."""
    return 0


@dataclass(frozen=True)
class Evaluation:
    slug: str
    name: str
    formula: str
    score: Callable[[str], int]


EVALUATIONS = {
    e.slug: e
    for e in (
        Evaluation("open-lines", "Open lines", "lines open for X − lines open for O", open_lines),
        Evaluation("weighted", "Weighted lines", "3·X₂ + X₁ − (3·O₂ + O₁)", weighted_lines),
        Evaluation("zero", "No estimate", "0 for every unfinished position", nothing),
    )
}


@functools.cache
def limited(position: str, depth: int, evaluation: str) -> tuple[int, int]:
    """(value, nodes visited) of depth-limited minimax from `position`, itself included."""
    if over(position):
        return utility(position) * WIN, 1
    if depth == 0:
        return EVALUATIONS[evaluation].score(position), 1
    below = [limited(child, depth - 1, evaluation) for _, child in moves(position)]
    pick = max if to_move(position) == "X" else min
    return pick(v for v, _ in below), 1 + sum(n for _, n in below)


@dataclass(frozen=True)
class Move:
    action: tuple[int, int]
    child: str
    estimate: int  # the limited search's value of the move, in points
    exact: int  # the move's minimax value (utility: 1, 0, -1)
    nodes: int  # what the limited search visited below it, the child included


@dataclass(frozen=True)
class Limited:
    position: str
    depth: int
    evaluation: Evaluation
    moves: tuple[Move, ...]
    chosen: tuple[int, int]  # the limited search's action
    exact_best: tuple[tuple[int, int], ...]  # every action of the best minimax value
    nodes: int  # the limited search's visits, the root included
    full_nodes: int  # plain minimax's visits from here

    @property
    def wrong(self) -> bool:
        return self.chosen not in self.exact_best


def compare(position: str, depth: int, evaluation: str) -> Limited:
    """The depth-limited search of a live position beside the exact minimax values."""
    found = []
    for n, child in moves(position):
        estimate, nodes = limited(child, depth - 1, evaluation)
        found.append(Move(action_of(n), child, estimate, search.value(child), nodes))
    maximizing = to_move(position) == "X"
    chosen = (max if maximizing else min)(found, key=lambda m: m.estimate).action
    return Limited(
        position,
        depth,
        EVALUATIONS[evaluation],
        tuple(found),
        chosen,
        tuple(search.best_actions(position)),
        1 + sum(m.nodes for m in found),
        tree_size(position),
    )


@functools.lru_cache(maxsize=len(DEPTHS) * len(EVALUATIONS))
def mistakes(depth: int, evaluation: str) -> tuple[int, tuple[str, ...]]:
    """(how many live positions, the positions) where the limited search picks an action whose
    minimax value is worse than the best, fewest marks first: computed once, kept for all."""
    live = sorted((p for p in reachable(EMPTY_BOARD) if not over(p)), key=lambda p: (-p.count("."), p))
    wrong = tuple(p for p in live if compare(p, depth, evaluation).wrong)
    return len(live), wrong
