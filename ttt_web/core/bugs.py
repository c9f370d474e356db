"""Three minimax bugs that students write, as working players, so that their games and
their worst moves show what each one costs. Standard library and the engine only.

Each searches the full tree with the assignment's utility (1, 0, -1 from X's point of
view) and no depth, as a student's first version does; the bugs are in how it chooses.
`choices` gives every move a version may play on a board; `play` picks one of them.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass

from ..core import tictactoe as ttt
from .costs import reachable
from .judging import judge
from .position import EMPTY_BOARD, board, cell_of, over, position_of
from .search import best_actions


@dataclass(frozen=True)
class Bug:
    name: str
    slug: str
    choices: Callable[[ttt.Board], list[ttt.Action]]
    code: str  # the buggy line, as a student writes it
    explanation: str

    def play(self, board: ttt.Board, rng: random.Random) -> ttt.Action:
        return rng.choice(self.choices(board))


def no_depth(board: ttt.Board) -> list[ttt.Action]:
    """Any move with the best depthless value, at random: a win in 1 and a win in 5 tie."""
    return best_actions(position_of(board))


def wrong_player(board: ttt.Board) -> list[ttt.Action]:
    """The first move best for X, whoever is to move: the root always maximizes."""
    return best_actions(position_of(board), maximizing=True)[:1]


def first_tie(board: ttt.Board) -> list[ttt.Action]:
    """The first of the equal moves, row by row: `>` keeps the first best it met."""
    return no_depth(board)[:1]


BUGS = (
    Bug(
        "No depth preference",
        "no-depth",
        no_depth,
        "return utility(board)  # a win is worth 1 however many moves it takes",
        "It knows that it can win but not how soon, so among its winning moves it may pick one "
        "that wins in five moves over one that wins now, and may never get round to winning.",
    ),
    Bug(
        "Wrong player at the root",
        "wrong-player",
        wrong_player,
        "best = max(actions(board), key=min_value)  # even when it is O's turn",
        "Playing O, it looks for the move that is best for X: it helps its opponent and walks into every trap.",
    ),
    Bug(
        "First move wins ties",
        "first-tie",
        first_tie,
        "if v > best_value: best_move = action  # the first of equal moves stays",
        "It always plays the first of the moves it cannot tell apart, so it is predictable, and "
        "when every move loses it plays the first one, even one that loses at once instead of "
        "blocking.",
    ),
)


def game(bug: Bug, bug_plays: str, seed: int = 0) -> tuple[int, ...]:
    """A whole game of `bug` (as `bug_plays`) against the real engine: the cells played."""
    rng, board, cells = random.Random(seed), ttt.initial_state(), []
    while not ttt.terminal(board):
        action = bug.play(board, rng) if ttt.player(board) == bug_plays else ttt.minimax(board)
        cells.append(cell_of(action))
        board = ttt.result(board, action)
    return tuple(cells)


@functools.cache
def telling_position(slug: str) -> tuple[str, ttt.Action]:
    """The first position, fewest marks first, where the bug may play a worse move (for
    the depthless version, a slower win); with that move. Positions are written as in
    costs: 9 characters, row by row."""
    bug = next(b for b in BUGS if b.slug == slug)
    wanted = "win" if slug == "no-depth" else None
    for position in sorted(reachable(EMPTY_BOARD), key=lambda p: (9 - p.count("."), p)):
        if over(position):
            continue
        for action in bug.choices(board(position)):
            judged = judge(board(position), action)
            if judged.verdict != "best" and wanted in (None, judged.played.outcome):
                return position, action
    raise LookupError(f"{slug} never errs")
