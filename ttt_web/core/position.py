"""The words for a position, used by every layer. Standard library and the engine only.

- A **side** is a mark, `X` or `O`; X moves first and `other(mark)` is the opponent.
- A **cell** is a number 0-8, row by row; the engine's **action** is the same square as
  `(i, j)`, row `i` and column `j` from 0; its **name** has columns a-c from the left and rows
  1-3 from the top: cell 4 is `(1, 1)`, "b2".
- A **position** is 9 characters read row by row, "X", "O" or "." for an empty cell; the
  engine's **board** is the same as a list of three rows. The **moves** that led to it are
  written "4-0-8", their cells in the order played (`format_moves`, `parse_moves`).
- An **outcome** is a player's: win, draw or loss, ordered by `Outcome.sign` (1, 0, -1). A
  position's **utility** is X's: 1 if X wins, 0 for a draw, -1 if O wins.
"""

from __future__ import annotations

import functools
from enum import StrEnum

from . import tictactoe as ttt

SIDES = (ttt.X, ttt.O)
COLUMNS = "abc"
EMPTY_BOARD = "." * 9
CELLS = {"X": ttt.X, "O": ttt.O, ".": ttt.EMPTY}  # a position's characters, as the engine's cells


def other(mark: str) -> str:
    """The opponent of `mark`."""
    return ttt.O if mark == ttt.X else ttt.X


def mark_of(number: int) -> str:
    """Who plays move `number` (counting from 0): X, then O, in turn."""
    return ttt.X if number % 2 == 0 else ttt.O


def action_of(cell: int) -> ttt.Action:
    """The engine's `(i, j)` of a cell: cell 5 is (1, 2)."""
    return divmod(cell, 3)


def cell_of(action: ttt.Action) -> int:
    """The cell of an engine action `(i, j)`: (1, 2) is cell 5."""
    i, j = action
    return 3 * i + j


def cell_name(cell: int) -> str:
    """Columns a-c from the left, rows 1-3 from the top: cell 4 is "b2"."""
    row, col = action_of(cell)
    return f"{COLUMNS[col]}{row + 1}"


def action_name(action: ttt.Action) -> str:
    """The cell name of an engine action (row, column): (1, 1) is "b2"."""
    return cell_name(cell_of(action))


def board(position: str) -> ttt.Board:
    cells = [CELLS[c] for c in position]
    return [cells[0:3], cells[3:6], cells[6:9]]


def position_of(board_: ttt.Board) -> str:
    return "".join(cell or "." for row in board_ for cell in row)


@functools.lru_cache(maxsize=8192)
def to_move(position: str) -> str:
    return ttt.player(board(position))


def last_mover(position: str) -> str:
    """Who placed the last mark: X when X has more marks on the board, else O."""
    return ttt.X if position.count(ttt.X) > position.count(ttt.O) else ttt.O


@functools.lru_cache(maxsize=8192)
def over(position: str) -> bool:
    return ttt.terminal(board(position))


def utility(position: str) -> int:
    """1 if X has won, -1 if O has, else 0: X's point of view."""
    return ttt.utility(board(position))


def winner_of(utility_: int) -> str | None:
    """The side a utility says has won: X for 1, O for -1, None for a draw."""
    return {1: ttt.X, -1: ttt.O}.get(utility_)


class Outcome(StrEnum):
    """A player's outcome, equal to the engine's words for it ("win", "draw", "loss")."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"

    @property
    def sign(self) -> int:
        """The one ordering of outcomes: 1 for a win, 0 for a draw, -1 for a loss, as the
        player who has it counts it (X's own, so a utility, when the player is X)."""
        return {Outcome.WIN: 1, Outcome.DRAW: 0, Outcome.LOSS: -1}[self]

    def for_x(self, mark: str) -> int:
        """This outcome of the player `mark` as a utility: X's point of view."""
        return self.sign if mark == ttt.X else -self.sign


def parse_moves(text: str) -> tuple[int, ...] | None:
    """The cells of a move list written "4-0-8" (the cells 0-8 row by row, in the order
    played), or None if it is not written so. Says nothing of legality."""
    parts = text.split("-")
    if not 1 <= len(parts) <= 9 or not all(len(p) == 1 and p in "012345678" for p in parts):
        return None
    return tuple(int(p) for p in parts)


def format_moves(moves: tuple[int, ...]) -> str:
    return "-".join(map(str, moves))
