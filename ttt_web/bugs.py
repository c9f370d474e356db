"""Three minimax bugs that students write, as working players, so that a game against the
real engine shows what each one costs. Standard library and the engine only.

Each takes a board and returns the move it would play. They all search the full tree with
the assignment's utility (1, 0, -1 from X's point of view), as a student's first version
does; the bugs are in what they compare.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from . import tictactoe as ttt


@dataclass(frozen=True)
class Bug:
    name: str
    slug: str
    play: Callable[[ttt.Board], ttt.Action]
    code: str  # the buggy line, as a student writes it
    explanation: str


def _key(board: ttt.Board) -> tuple:
    return tuple(tuple(row) for row in board)


@functools.cache
def _value(key: tuple) -> int:
    """Plain minimax value for X, no depth: what every version below compares."""
    board = [list(row) for row in key]
    if ttt.terminal(board):
        return ttt.utility(board)
    values = [_value(_key(ttt.result(board, a))) for a in sorted(ttt.actions(board))]
    return max(values) if ttt.player(board) == ttt.X else min(values)


def no_depth(board: ttt.Board) -> ttt.Action:
    """The first move, in row order, with the best value: a win is a win however far off,
    and when every move loses it does not matter which."""
    moves = sorted(ttt.actions(board))
    values = {a: _value(_key(ttt.result(board, a))) for a in moves}
    best = max(values.values()) if ttt.player(board) == ttt.X else min(values.values())
    return next(a for a in moves if values[a] == best)


def wrong_player(board: ttt.Board) -> ttt.Action:
    """Always maximizes at the root, as if it were X: playing O, it picks X's best."""
    moves = sorted(ttt.actions(board))
    return max(moves, key=lambda a: (_value(_key(ttt.result(board, a))), [-i for i in a]))


def last_tie(board: ttt.Board) -> ttt.Action:
    """Compares with >= instead of >, so each tie replaces the move kept before it: the last
    of the equal moves wins, and among equal values a slow win is as good as a quick one."""
    moves = sorted(ttt.actions(board))
    values = {a: _value(_key(ttt.result(board, a))) for a in moves}
    best = max(values.values()) if ttt.player(board) == ttt.X else min(values.values())
    return [a for a in moves if values[a] == best][-1]


BUGS = (
    Bug(
        "No depth preference",
        "no-depth",
        no_depth,
        "return max(values)  # a win in 1 and a win in 5 are both just 1",
        "It knows that it wins but not how soon, so it may wander before it wins, and when every "
        "move loses it takes the first, even one that loses at once instead of blocking.",
    ),
    Bug(
        "Wrong player at the root",
        "wrong-player",
        wrong_player,
        "best = max(actions(board), key=value)  # even when it is O's turn",
        "Playing O, it looks for the move that is best for X: it helps its opponent win and walks into every trap.",
    ),
    Bug(
        "Last move wins ties",
        "last-tie",
        last_tie,
        "if v >= best_value: best_move = action  # >= where > was meant",
        "Each move as good as the best so far replaces it, so it always plays the last of the "
        "equal moves; with no depth in its values, a slow win counts the same as a quick one.",
    ),
)


def game(bug: Bug, bug_plays: str) -> tuple[int, ...]:
    """A whole game of `bug` (as `bug_plays`) against the real engine: the cells played."""
    board, cells = ttt.initial_state(), []
    while not ttt.terminal(board):
        action = bug.play(board) if ttt.player(board) == bug_plays else ttt.minimax(board)
        cells.append(3 * action[0] + action[1])
        board = ttt.result(board, action)
    return tuple(cells)


@functools.cache
def telling_position(slug: str) -> tuple[str, ttt.Action]:
    """The first position, fewest marks first, where the bug's move is not a best move;
    with that move. Positions are written as in costs: 9 characters, row by row."""
    from .costs import EMPTY_BOARD, board, over, reachable
    from .judging import judge

    bug = next(b for b in BUGS if b.slug == slug)
    for position in sorted(reachable(EMPTY_BOARD), key=lambda p: (9 - p.count("."), p)):
        if not over(position) and judge(board(position), action := bug.play(board(position))).verdict != "best":
            return position, action
    raise LookupError(f"{slug} never errs")
