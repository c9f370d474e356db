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
from array import array
from collections.abc import Callable
from dataclasses import dataclass

from . import search
from .costs import moves, reachable, tree_size
from .position import EMPTY_BOARD, action_of, cell_of, over, to_move, utility

WIN = 100
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
DEPTHS = range(1, 10)


def open_lines(position: str) -> int:
    """Lines X can still complete (no O in them) minus lines O can still complete."""
    total = 0
    for a, b, c in LINES:
        marks = (position[a], position[b], position[c])
        total += ("O" not in marks) - ("X" not in marks)
    return total


def weighted_lines(position: str) -> int:
    """3 for each line with two X and no O, 1 for each with one X and no O; minus O's same."""
    total = 0
    for a, b, c in LINES:
        marks = (position[a], position[b], position[c])
        xs, os_ = marks.count("X"), marks.count("O")
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
    terms: str = ""  # what the formula's names mean, said wherever it is shown


EVALUATIONS = {
    e.slug: e
    for e in (
        Evaluation(
            "open-lines",
            "Open lines",
            "lines open for X − lines open for O",
            open_lines,
            "a line (row, column or diagonal) is open for X when it holds no O, open for O when it holds no X",
        ),
        Evaluation(
            "weighted",
            "Weighted lines",
            "3·X₂ + X₁ − (3·O₂ + O₁)",
            weighted_lines,
            "X₂ counts the lines (rows, columns, diagonals) with two X and no O, X₁ those with one X and no O; "
            "O₂ and O₁ count O's lines the same way",
        ),
        Evaluation("zero", "No estimate", "0 for every unfinished position", nothing),
    )
}


class Tables:
    """Every reachable position's depth-limited value for each depth 0-9 and evaluation, and
    its node count for each depth (the same for every evaluation), each depth worked out from
    the one below for all positions at once. Arrays indexed by position, so that a page only
    reads them: their size and the time they take are in docs/performance.md."""

    def __init__(self) -> None:
        self.positions = tuple(sorted(reachable(EMPTY_BOARD)))
        self.index = {position: n for n, position in enumerate(self.positions)}
        self.cells, self.kids = self._moves()
        self.ends = {n: utility(p) * WIN for n, p in enumerate(self.positions) if over(p)}
        self.maximizing = [to_move(p) == "X" for p in self.positions]
        self.nodes = self._levels([1] * len(self.positions), self._count, "i")
        self.values = {slug: self._levels(self._estimates(e), self._back, "b") for slug, e in EVALUATIONS.items()}

    def _moves(self) -> tuple[list[list[int]], list[list[int]]]:
        """Each position's moves in row order: their cells, and the positions they lead to."""
        found = [moves(p) for p in self.positions]
        return [[n for n, _ in m] for m in found], [[self.index[child] for _, child in m] for m in found]

    def _estimates(self, evaluation: Evaluation) -> list[int]:
        """Depth 0: a finished game's utility in points, else the evaluation's estimate."""
        return [self.ends.get(n, evaluation.score(p)) for n, p in enumerate(self.positions)]

    def _count(self, n: int, below: array[int]) -> int:
        return 1 if n in self.ends else 1 + sum(map(below.__getitem__, self.kids[n]))

    def _back(self, n: int, below: array[int]) -> int:
        if n in self.ends:
            return self.ends[n]
        return (max if self.maximizing[n] else min)(map(below.__getitem__, self.kids[n]))

    def _levels(self, first: list[int], step: Callable[[int, array[int]], int], kind: str) -> tuple[array[int], ...]:
        """Depth 0's values, then each depth's from the one below, by `step`."""
        found, positions = [array(kind, first)], range(len(self.positions))
        for _ in DEPTHS:
            below = found[-1]
            found.append(array(kind, [step(n, below) for n in positions]))
        return tuple(found)

    def chosen(self, position: str, depth: int, evaluation: str) -> int:
        """The cell the limited search plays: the first of the best estimates, in row order."""
        n, below = self.index[position], self.values[evaluation][depth - 1]
        estimates = [below[k] for k in self.kids[n]]
        return self.cells[n][estimates.index((max if self.maximizing[n] else min)(estimates))]


@functools.cache
def tables() -> Tables:
    return Tables()


def limited(position: str, depth: int, evaluation: str) -> tuple[int, int]:
    """(value, nodes visited) of depth-limited minimax from `position`, itself included."""
    found = tables()
    n = found.index[position]
    return found.values[evaluation][depth][n], found.nodes[depth][n]


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

    @property
    def tied(self) -> tuple[tuple[int, int], ...]:
        """Every action whose limited value equals the chosen one's, in row order: when more
        than one, the search chose by order alone (the first), not by its values."""
        value = next(m.estimate for m in self.moves if m.action == self.chosen)
        return tuple(m.action for m in self.moves if m.estimate == value)


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


def mistakes(depth: int, evaluation: str) -> tuple[int, tuple[str, ...]]:
    """(how many live positions, the positions) where the limited search picks an action whose
    minimax value is worse than the best, fewest marks first."""
    live, wrong = every_mistake()
    return live, wrong[depth, evaluation]


@functools.cache
def every_mistake() -> tuple[int, dict[tuple[int, str], tuple[str, ...]]]:
    """`mistakes` for every depth and evaluation, found in one pass over the live positions,
    each one's exact best moves worked out once: a fixed set, made at start (learn.warm)."""
    found = tables()
    live = sorted((p for p in found.positions if not over(p)), key=lambda p: (-p.count("."), p))
    wrong: dict[tuple[int, str], list[str]] = {(d, e): [] for d in DEPTHS for e in EVALUATIONS}
    for position in live:
        best = {cell_of(action) for action in search.best_actions(position)}
        for (depth, evaluation), listed in wrong.items():
            if found.chosen(position, depth, evaluation) not in best:
                listed.append(position)
    return len(live), {key: tuple(listed) for key, listed in wrong.items()}
