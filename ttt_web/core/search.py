"""Minimax as the assignment writes it, laid out for pages to draw: the tree below a
position, the tree alpha-beta searches, and plain minimax's recursion one call at a time.
Standard library and the engine only.

Positions are 9-character strings read row by row, as in `costs`. Every value here is
`utility`'s: 1 if X wins, 0 for a draw, -1 if O wins, whoever is to move. X is MAX and O is
MIN. Children come in row order, as `actions` sorted.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

from ..core import tictactoe as ttt
from .costs import Searched, moves
from .judging import principal_variation
from .position import Outcome, action_of, board, cell_of, last_mover, over, to_move, utility

TREE_EMPTY_CELLS = 5  # alpha-beta's whole tree is drawn up to this many empty cells
TRACE_EMPTY_CELLS = 4  # plain minimax is traced call by call up to this many


@functools.cache
def value(position: str) -> int:
    """The position's minimax value, X's point of view (1, 0 or -1). Kept: a trace's step asks
    it of every child on its way down (docs/performance.md)."""
    if over(position):
        return utility(position)
    return Outcome(ttt.evaluate(board(position)).outcome).for_x(to_move(position))


def best_actions(position: str, maximizing: bool | None = None) -> list[ttt.Action]:
    """The moves whose minimax value (depth aside) is the largest when `maximizing`, the
    smallest when not; by default, the best for the player to move. Row order."""
    if maximizing is None:
        maximizing = to_move(position) == ttt.X
    values = {action_of(n): value(child) for n, child in moves(position)}
    best = max(values.values()) if maximizing else min(values.values())
    return [action for action, v in values.items() if v == best]


def role(position: str) -> str:
    """ "MAX" when X is to move, "MIN" when O is, "" when the game is over."""
    return "" if over(position) else "MAX" if to_move(position) == ttt.X else "MIN"


def parents(position: str) -> list[tuple[int, str]]:
    """(cell, position) for each live position one move before this one: a mark of whoever
    moved last, at `cell`, taken off."""
    if position.count(".") == 9:
        return []
    last = last_mover(position)
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


def tree(position: str, depth: int = 2) -> Node:
    """The position and `depth` levels below it, the principal variation marked."""
    line = [cell_of(action) for action in principal_variation(board(position))]
    return _tree(position, None, depth, line, True)


def _tree(position: str, cell: int | None, depth: int, line: list[int], principal: bool) -> Node:
    below: tuple[Node, ...] = ()
    if depth:
        below = tuple(
            _tree(child, n, depth - 1, line[1:], principal and bool(line) and line[0] == n)
            for n, child in moves(position)
        )
    return Node(position, cell, value(position), principal, below)


@functools.cache
def per_depth(position: str) -> tuple[int, ...]:
    """How many positions plain minimax visits at each depth below `position` (0 is itself)."""
    return (1, *_level_sums([per_depth(child) for _, child in moves(position)]))


def alphabeta_per_depth(searched: Searched) -> tuple[int, ...]:
    """How many positions alpha-beta visits at each depth of its search."""
    return (1, *_level_sums([alphabeta_per_depth(c) for _, c in searched.children]))


def _level_sums(counts: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The children's counts added up depth by depth, the shorter ones counting 0 below their end."""
    return tuple(map(sum, itertools.zip_longest(*counts, fillvalue=0)))


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
