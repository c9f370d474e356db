"""Minimax as the assignment writes it, laid out for pages to draw: the tree below a
position, the tree alpha-beta searches, and plain minimax's recursion one call at a time.
Standard library and the engine only.

Positions are 9-character strings read row by row, as in `costs`. Every value here is
`utility`'s: 1 if X wins, 0 for a draw, -1 if O wins, whoever is to move. X is MAX and O is
MIN. Children come in row order, as `actions` sorted.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from . import tictactoe as ttt
from .costs import board, children, over, to_move, tree_size, utility
from .judging import principal_variation

OUTCOME_FOR_X = {"win": 1, "draw": 0, "loss": -1}
TREE_EMPTY_CELLS = 5  # alpha-beta's whole tree is drawn up to this many empty cells
TRACE_EMPTY_CELLS = 4  # plain minimax is traced call by call up to this many


def value(position: str) -> int:
    """The position's minimax value, X's point of view (1, 0 or -1)."""
    if over(position):
        return utility(position)
    outcome = OUTCOME_FOR_X[ttt.evaluate(board(position)).outcome]
    return outcome if to_move(position) == ttt.X else -outcome


def role(position: str) -> str:
    """ "MAX" when X is to move, "MIN" when O is, "" when the game is over."""
    return "" if over(position) else "MAX" if to_move(position) == ttt.X else "MIN"


def moves(position: str) -> list[tuple[int, str]]:
    """(cell, child position) for each legal move, in row order."""
    empty = [n for n, c in enumerate(position) if c == "."]
    return [] if over(position) else list(zip(empty, children(position), strict=True))


def parents(position: str) -> list[tuple[int, str]]:
    """(cell, position) for each live position one move before this one: a mark of whoever
    moved last, at `cell`, taken off."""
    if position.count(".") == 9:
        return []
    last = ttt.X if position.count("X") > position.count("O") else ttt.O
    found = [(n, position[:n] + "." + position[n + 1 :]) for n, c in enumerate(position) if c == last]
    return [(n, p) for n, p in found if not over(p)]


@dataclass(frozen=True)
class Node:
    """A position in the drawn tree, with the cell played to reach it (None at the root)."""

    position: str
    cell: int | None
    utility: int  # minimax value, X's point of view
    principal: bool  # on the line minimax plays from the root
    children: tuple[Node, ...] = ()


@functools.lru_cache(maxsize=1024)
def tree(position: str, depth: int = 2) -> Node:
    """The position and `depth` levels below it, the principal variation marked."""
    line = [3 * i + j for i, j in principal_variation(board(position))]
    return _tree(position, None, depth, line, True)


def _tree(position: str, cell: int | None, depth: int, line: list[int], principal: bool) -> Node:
    below = ()
    if depth:
        below = tuple(
            _tree(child, n, depth - 1, line[1:], principal and bool(line) and line[0] == n)
            for n, child in moves(position)
        )
    return Node(position, cell, value(position), principal, below)


@dataclass(frozen=True)
class Searched:
    """A position as alpha-beta meets it: the window it is searched with and what it returns.

    `returned` is exact only inside the window; at or below alpha it is an upper bound, at
    or above beta a lower bound."""

    position: str
    cell: int | None
    alpha: float
    beta: float
    returned: int
    children: tuple[Searched, ...]
    pruned: tuple[tuple[int, str], ...]  # (cell, position) of each move never searched

    @property
    def bound(self) -> str:
        """ "=" when `returned` is the exact value, "≤" or "≥" when it is only a bound."""
        if not self.children:
            return "="  # a finished game: its utility
        return "≤" if self.returned <= self.alpha else "≥" if self.returned >= self.beta else "="

    @property
    def visited(self) -> int:
        return 1 + sum(child.visited for child in self.children)

    @property
    def skipped(self) -> int:
        """Positions under the pruned moves, at every level: what plain minimax would add."""
        own = sum(tree_size(position) for _, position in self.pruned)
        return own + sum(child.skipped for child in self.children)


def alphabeta(position: str, alpha: float = -math.inf, beta: float = math.inf, cell: int | None = None) -> Searched:
    """Alpha-beta from `position`, moves in row order, as the textbook's MAX-VALUE and
    MIN-VALUE: a MAX node stops at a value >= beta, a MIN node at one <= alpha."""
    if over(position):
        return Searched(position, cell, alpha, beta, utility(position), (), ())
    maximizing, entry = to_move(position) == ttt.X, (alpha, beta)
    best = -math.inf if maximizing else math.inf
    searched, pending = [], moves(position)
    while pending:
        n, child = pending.pop(0)
        result = alphabeta(child, alpha, beta, n)
        searched.append(result)
        if maximizing:
            best = max(best, result.returned)
            if best >= beta:
                break
            alpha = max(alpha, best)
        else:
            best = min(best, result.returned)
            if best <= alpha:
                break
            beta = min(beta, best)
    return Searched(position, cell, *entry, int(best), tuple(searched), tuple(pending))


@functools.cache
def per_depth(position: str) -> tuple[int, ...]:
    """How many positions plain minimax visits at each depth below `position` (0 is itself)."""
    below = [per_depth(child) for _, child in moves(position)]
    return (1, *(sum(level) for level in _levels(below)))


def alphabeta_per_depth(searched: Searched) -> tuple[int, ...]:
    """How many positions alpha-beta visits at each depth of its search."""
    return (1, *(sum(level) for level in _levels([alphabeta_per_depth(c) for c in searched.children])))


def _levels(counts: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    deepest = max((len(c) for c in counts), default=0)
    return [tuple(c[d] for c in counts if d < len(c)) for d in range(deepest)]


@dataclass(frozen=True)
class Step:
    """One moment of plain minimax's recursion: a call begins, or a call returns."""

    stack: tuple[str, ...]  # the positions of the calls under way, the root first
    returns: int | None  # None when the call on `stack[-1]` begins
    values: tuple[tuple[int, int], ...]  # (cell, value) its children have returned so far

    @property
    def position(self) -> str:
        return self.stack[-1]

    @property
    def begins(self) -> bool:
        """True when a call begins here (a finished game's call also returns at once)."""
        return self.returns is None or not self.values


def trace(position: str) -> list[Step]:
    """Every step of plain minimax from `position`: each call as it begins and as it returns
    (a finished game returns at once, so its call is one step)."""
    steps: list[Step] = []
    _trace((position,), steps)
    return steps


def _trace(stack: tuple[str, ...], steps: list[Step]) -> int:
    position = stack[-1]
    if over(position):
        steps.append(Step(stack, utility(position), ()))
        return utility(position)
    steps.append(Step(stack, None, ()))
    values = []
    for n, child in moves(position):
        values.append((n, _trace((*stack, child), steps)))
    pick = max if to_move(position) == ttt.X else min
    returned = pick(v for _, v in values)
    steps.append(Step(stack, returned, tuple(values)))
    return returned
