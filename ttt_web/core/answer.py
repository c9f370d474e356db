"""A student's minimax answer on a position, beside the right ones: what `minimax(board)`
returned (an action `(i, j)` or None), whether it is optimal as the assignment counts it
(any move that keeps the position's minimax value), and what it leads to. Standard library
and the engine only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import tictactoe as ttt
from .costs import moves
from .judging import Judgement, judge
from .position import action_of, board, cell_of, over
from .search import value

ACTION = re.compile(r"^\(?\s*([0-9])\s*,\s*([0-9])\s*\)?$")


class AnswerError(ValueError):
    """An answer that is not written as an action (i, j) or none: the message says how."""


@dataclass(frozen=True)
class Answer:
    action: ttt.Action | None  # what the student's minimax returned
    optimal: bool  # None on a finished board; a move keeping the minimax value on a live one
    problem: str  # why the answer cannot be right, when it is not a legal move; else ""
    right: tuple[ttt.Action, ...]  # every optimal answer, row order; () on a finished board
    judged: Judgement | None  # the move judged, when it is a legal one


def read(text: str) -> ttt.Action | None:
    """`i,j` (or `(i, j)`) as an action; `none` as None; AnswerError otherwise."""
    if text.strip().lower() == "none":
        return None
    found = ACTION.match(text.strip())
    if not found:
        raise AnswerError("The student's answer is written i,j (like 0,2 for row 0, column 2) or none.")
    return int(found[1]), int(found[2])


def check(position: str, action: ttt.Action | None) -> Answer:
    """The answer `action` judged on `position`, a reachable position."""
    if over(position):
        problem = "" if action is None else "the game is over here, so minimax returns None"
        return Answer(action, action is None, problem, (), None)
    goal = value(position)
    right = tuple(action_of(n) for n, child in moves(position) if value(child) == goal)
    if action is None:
        return Answer(None, False, "the game is not over, so minimax must return one of the moves", right, None)
    i, j = action
    if not (0 <= i <= 2 and 0 <= j <= 2):
        return Answer(action, False, "it is not on the board: i and j are 0, 1 or 2", right, None)
    if position[cell_of(action)] != ".":
        return Answer(action, False, "that cell is not empty", right, None)
    return Answer(action, action in right, "", right, judge(board(position), action))
