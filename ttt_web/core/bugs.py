"""Three ways students write minimax, as working players, so that their games and their
worst moves show what each one costs: one real bug (a wrong result) and two kinds of legal
but weaker play, which CS50 accepts since every move they play keeps the minimax value.
Standard library and the engine only.

Each searches the full tree with the assignment's utility (1, 0, -1 from X's point of
view) and no depth, as a student's first version does; they differ in how it chooses.
`choices` gives every move a version may play on a board; `play` picks one of them.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass

from . import tictactoe as ttt
from .costs import moves, reachable
from .judging import judge
from .position import EMPTY_BOARD, action_of, board, cell_of, over, position_of, to_move, utility
from .search import best_actions, value

BUG, LEGAL = "bug", "legal"  # a wrong result; legal but weaker play


@dataclass(frozen=True)
class Bug:
    name: str
    slug: str
    kind: str  # BUG or LEGAL
    choices: Callable[[ttt.Board], list[ttt.Action]]
    code: str  # the buggy line, as a student writes it
    explanation: str

    def play(self, board: ttt.Board, rng: random.Random) -> ttt.Action:
        return rng.choice(self.choices(board))


def no_depth(board: ttt.Board) -> list[ttt.Action]:
    """Any move with the best depthless value, at random: a win in 1 and a win in 5 tie."""
    return best_actions(position_of(board))


@functools.cache
def alternating(position: str, maximizing: bool) -> int:
    """What a student's max_value (`maximizing`) or min_value returns on `position`: each
    calls the other on every result, so the levels alternate from the call, whoever is to
    move there. Called on a board where the other side is to move, every level below plays
    for the wrong side."""
    if over(position):
        return utility(position)
    values = [alternating(child, not maximizing) for _, child in moves(position)]
    return max(values) if maximizing else min(values)


def wrong_player(board: ttt.Board) -> list[ttt.Action]:
    """The move `max(actions(board), key=lambda a: min_value(result(board, a)))` returns,
    the actions tried in row order: min_value on each result, the first largest kept. Right
    on X's turn; on O's, min_value is called where X is to move."""
    scored = {action_of(n): alternating(child, False) for n, child in moves(position_of(board))}
    return [max(scored, key=scored.__getitem__)]


def first_tie(board: ttt.Board) -> list[ttt.Action]:
    """The first of the equal moves, row by row: `>` keeps the first best it met."""
    return no_depth(board)[:1]


BUGS = (
    Bug(
        "Wrong player at the root",
        "wrong-player",
        BUG,
        wrong_player,
        "best = max(actions(board), key=lambda a: min_value(result(board, a)))  # even when it is O's turn",
        "A real bug: right for X, wrong for O. On O's turn it still keeps the largest value, and "
        "min_value, called on a board where X is to move, picks X's replies as O would, while the "
        "max_value it calls picks O's moves as X would: every level plays for the other side. The "
        "line for O is min(actions(board), key=lambda a: max_value(result(board, a))).",
    ),
    Bug(
        "No depth preference",
        "no-depth",
        LEGAL,
        no_depth,
        "return utility(board)  # a win is worth 1 however many moves it takes",
        "Legal, and CS50 accepts it: every move it plays keeps the minimax value. It knows that it "
        "can win but not how soon, so among its winning moves it may pick a slower one; and when "
        "every move loses, all are worth the same to it, so it may play one that loses at once "
        "instead of blocking, which matters only against an opponent who can make mistakes.",
    ),
    Bug(
        "No depth, and the first move wins ties",
        "first-tie",
        LEGAL,
        first_tie,
        "if v > best_value: best_move = action  # the first of equal moves stays",
        "Legal, and CS50 accepts it: any of the equal moves is optimal. Like the version above, it "
        "scores a win 1 however many moves it takes; of the moves of equal value it keeps the first, "
        "row by row, so it plays the same move every time in the same position and is predictable. "
        "Its weaker move below comes from the missing depth: when every move loses, all are worth "
        "the same to it, and the first of them may lose at once. With depth, the first of the "
        "slowest losses there is the engine's own move.",
    ),
)


@dataclass(frozen=True)
class Slower:
    """How much later than the quickest win a player without depth preference wins."""

    winning: int  # live positions where the player to move can force a win
    slower: int  # of those, where it may win later than the quickest win
    most: int  # the most of its own moves it may take beyond the quickest win
    example: str  # the first position (fewest marks first) where it may take `most` more


def wins_for_mover(position: str) -> bool:
    return not over(position) and value(position) == (1 if to_move(position) == ttt.X else -1)


@functools.cache
def longest_win(position: str, me: str) -> int:
    """`me`'s own moves until the game ends, when `me` picks the slowest of the moves that
    keep the win and the opponent holds out as long as any move lets it."""
    if over(position):
        return 0
    if to_move(position) == me:
        keep = {cell_of(action) for action in best_actions(position)}
        return 1 + max(longest_win(child, me) for n, child in moves(position) if n in keep)
    return max(longest_win(child, me) for _, child in moves(position))


@functools.cache
def slower_wins() -> Slower:
    """The depthless player's wins against the quickest, over every won position."""
    extra = {}
    for position in sorted(reachable(EMPTY_BOARD), key=lambda p: (9 - p.count("."), p)):
        if wins_for_mover(position):
            quickest = (ttt.evaluate(board(position)).plies + 1) // 2
            extra[position] = longest_win(position, to_move(position)) - quickest
    most = max(extra.values())
    example = next(p for p, n in extra.items() if n == most)
    return Slower(len(extra), sum(n > 0 for n in extra.values()), most, example)


def game(bug: Bug, bug_plays: str, seed: int = 0) -> tuple[int, ...]:
    """A whole game of `bug` (as `bug_plays`) against the real engine: the cells played."""
    rng, here, cells = random.Random(seed), ttt.initial_state(), []
    while not ttt.terminal(here):
        action = bug.play(here, rng) if ttt.player(here) == bug_plays else ttt.minimax(here)
        assert action is not None  # minimax gives None only for a finished game
        cells.append(cell_of(action))
        here = ttt.result(here, action)
    return tuple(cells)


@functools.cache
def telling_position(slug: str) -> tuple[str, ttt.Action]:
    """The position shown for a bug: the first, fewest marks first, where it may play a
    worse move (for the depthless version, a slower win; see `first_worse`); with that move."""
    return first_worse(slug, "win" if slug == "no-depth" else None)


@functools.cache
def first_worse(slug: str, outcome: str | None = None) -> tuple[str, ttt.Action]:
    """The first position, fewest marks first and then in the order of its text, where the
    bug may play a move the engine would not (one that leads to `outcome`, when given); with
    that move. Positions are written as in costs: 9 characters, row by row."""
    bug = next(b for b in BUGS if b.slug == slug)
    for position in sorted(reachable(EMPTY_BOARD), key=lambda p: (9 - p.count("."), p)):
        if over(position):
            continue
        for action in bug.choices(board(position)):
            judged = judge(board(position), action)
            if judged.verdict != "best" and outcome in (None, judged.played.outcome):
                return position, action
    raise LookupError(f"{slug} never errs")
