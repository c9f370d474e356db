"""What it costs to search a position, counted exactly: how many positions five versions of
minimax visit from it, root included. Standard library and the engine only.

Positions here are 9-character strings read row by row ("X", "O" or "."). The searches
are the assignment's: X maximizes, O minimizes, a finished game is worth its `utility`
(1, 0 or -1), and every call on a position counts as one visit.
"""

from __future__ import annotations

import functools
import math
import operator
from dataclasses import dataclass

from ..core import tictactoe as ttt
from .position import EMPTY_BOARD as EMPTY_BOARD  # grade/ still imports the position's words from here
from .position import Outcome, board, cell_of, last_mover, over, to_move, utility

SYMMETRIES = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8),
    (6, 3, 0, 7, 4, 1, 8, 5, 2),  # a quarter turn
    (8, 7, 6, 5, 4, 3, 2, 1, 0),
    (2, 5, 8, 1, 4, 7, 0, 3, 6),
    (2, 1, 0, 5, 4, 3, 8, 7, 6),  # mirrored left to right
    (6, 7, 8, 3, 4, 5, 0, 1, 2),
    (0, 3, 6, 1, 4, 7, 2, 5, 8),
    (8, 5, 2, 7, 4, 1, 6, 3, 0),
)
IMAGES = tuple(operator.itemgetter(*symmetry) for symmetry in SYMMETRIES)  # each symmetry's cells, picked at once


@dataclass(frozen=True)
class Costs:
    plain: int  # minimax as the assignment describes it: every node of the game tree
    alphabeta: int  # alpha-beta, trying moves in row-major order
    alphabeta_ordered: int  # alpha-beta, the mover's best outcome first (win, draw, loss), row order among equals
    alphabeta_quickest: int  # alpha-beta, the quickest win (or slowest loss) first, row order among equals
    memo: int  # memoized minimax: each distinct position once
    symmetry: int  # memoized up to the board's 8 symmetries


@functools.lru_cache(maxsize=6000)
def costs(position: str) -> Costs:
    """The five counts from `position` (a live or finished one); computed once, then kept."""
    return Costs(
        plain=tree_size(position),
        alphabeta=alphabeta(position).visited,
        alphabeta_ordered=alphabeta(position, order="outcome").visited,
        alphabeta_quickest=alphabeta(position, order="quickest").visited,
        memo=len(reachable(position)),
        symmetry=len({canonical(p) for p in reachable(position)}),
    )


def children(position: str) -> list[str]:
    """The positions one move away, in row-major order of the move."""
    mark = to_move(position)
    return [position[:n] + mark + position[n + 1 :] for n, c in enumerate(position) if c == "."]


@functools.cache
def tree_size(position: str) -> int:
    """Nodes of the game tree below `position`, itself included: what plain minimax visits."""
    if over(position):
        return 1
    return 1 + sum(tree_size(child) for child in children(position))


@dataclass(frozen=True)
class Searched:
    """A position as alpha-beta meets it: the window it is searched with, what it returns,
    and the moves it searched and pruned, each as (cell, what lies there).

    `returned` is exact when the search proves it: a finished game, a value strictly inside
    the window, or every move searched with each move's value exact. Otherwise it is a
    bound: at or below alpha an upper one, at or above beta a lower one."""

    position: str
    alpha: float
    beta: float
    returned: int  # X's point of view
    children: tuple[tuple[int, Searched], ...]
    pruned: tuple[tuple[int, str], ...]  # (cell, position) of each move never searched
    visited: int  # positions alpha-beta visits from here, this one included

    @functools.cached_property
    def exact(self) -> bool:
        """True when the search proves `returned` is the position's minimax value."""
        if self.alpha < self.returned < self.beta:
            return True
        return not self.pruned and all(child.exact for _, child in self.children)

    @property
    def bound(self) -> str:
        """ "=" when `returned` is the exact value, "≤" or "≥" when it is only a bound."""
        if self.exact:
            return "="
        return "≤" if self.returned <= self.alpha else "≥"

    @property
    def skipped(self) -> int:
        """Positions under the pruned moves, at every level: what plain minimax would add."""
        own = sum(tree_size(position) for _, position in self.pruned)
        return own + sum(child.skipped for _, child in self.children)


@functools.cache
def alphabeta(position: str, alpha: float = -math.inf, beta: float = math.inf, order: str = "row") -> Searched:
    """Alpha-beta search from `position`, as in the textbook's MAX-VALUE and MIN-VALUE: a MAX
    node stops at a value >= beta, a MIN node at one <= alpha. Moves in `order`: "row"
    (row-major), "outcome" or "quickest" (see `best_first`)."""
    if over(position):
        return Searched(position, alpha, beta, utility(position), (), (), 1)
    maximizing, entry = to_move(position) == ttt.X, (alpha, beta)
    value = -math.inf if maximizing else math.inf
    searched, pending = [], moves(position) if order == "row" else best_first(position, quickest=order == "quickest")
    while pending:
        cell, child = pending.pop(0)
        result = alphabeta(child, alpha, beta, order)
        searched.append((cell, result))
        if maximizing:
            value = max(value, result.returned)
            if value >= beta:
                break
            alpha = max(alpha, value)
        else:
            value = min(value, result.returned)
            if value <= alpha:
                break
            beta = min(beta, value)
    visited = 1 + sum(result.visited for _, result in searched)
    return Searched(position, *entry, int(value), tuple(searched), tuple(pending), visited)


def moves(position: str) -> list[tuple[int, str]]:
    """(cell, child position) for each legal move, in row order; [] when the game is over."""
    empty = [n for n, c in enumerate(position) if c == "."]
    return [] if over(position) else list(zip(empty, children(position), strict=True))


def best_first(position: str, quickest: bool = False) -> list[tuple[int, str]]:
    """(cell, child position) for each move, the mover's best outcome first (wins, draws,
    losses, by the engine's values); when `quickest`, among wins the fewest plies first and
    among losses the most. Row-major among equals."""
    values = ttt.scores(board(position))

    def plies(action: ttt.Action) -> int:
        value = values[action]
        return 0 if not quickest else Outcome(value.outcome).sign * value.plies

    order = sorted(values, key=lambda a: (-Outcome(values[a].outcome).sign, plies(a), a))
    mark = to_move(position)
    return [(cell_of(a), position[: cell_of(a)] + mark + position[cell_of(a) + 1 :]) for a in order]


@functools.cache
def reachable(position: str) -> frozenset[str]:
    """Every position reachable from `position`, itself included."""
    if over(position):
        return frozenset((position,))
    return frozenset((position,)).union(*(reachable(child) for child in children(position)))


def canonical(position: str) -> str:
    """The least of a position's 8 symmetric images: one name for all of them."""
    return min("".join(image(position)) for image in IMAGES)


def moves_to(text: str) -> tuple[int, ...]:
    """One order of play that reaches a reachable position, none of it after the end."""
    if text == EMPTY_BOARD:
        return ()
    last = last_mover(text)
    for cell, mark in enumerate(text):
        before = text[:cell] + "." + text[cell + 1 :]
        if mark == last and before in reachable(EMPTY_BOARD) and not over(before):
            return (*moves_to(before), cell)
    raise ValueError(f"{text} is not reachable")
