"""The three minimax bugs the explorer shows (/explore/bugs), recognised from a student's
moves in every live position. Only one of them is a failure (the wrong player at the
root loses games); the other two play correct moves, badly, and are named as notes."""

from __future__ import annotations

from dataclasses import dataclass

from ..core import tictactoe as ttt
from ..core.costs import board, over, to_move
from ..core.search import best_actions
from .checks import Action

ENOUGH = 20  # positions that must show a pattern before it is named


@dataclass(frozen=True)
class Pattern:
    name: str
    failure: bool  # True when the pattern makes minimax fail its checks
    text: str
    examples: tuple[str, ...]  # positions that show it


def recognised(choices: dict[str, Action | None], failing: set[str]) -> list[Pattern]:
    """The bugs `choices` (the student's move in each live position) show."""
    live = {p: a for p, a in choices.items() if not over(p) and a is not None}
    found = [wrong_player(live, failing), first_tie(live), no_depth(live)]
    return [pattern for pattern in found if pattern]


def wrong_player(live: dict[str, Action], failing: set[str]) -> Pattern | None:
    failed = sorted(p for p in failing if p in live)
    if not failed or any(to_move(p) != ttt.O for p in failed):
        return None
    if not all(live[p] in best_actions(p, maximizing=True) for p in failed):
        return None
    return Pattern(
        "Wrong player at the root",
        True,
        "Every move it gets wrong is O's, and each is the move that is best for X: on O's turn your minimax "
        "maximizes, as if it played X. When player(board) is O, the root must choose the move of least value.",
        tuple(failed[:3]),
    )


def first_tie(live: dict[str, Action]) -> Pattern | None:
    tied = [p for p in live if len(best_actions(p)) > 1 and live[p] in best_actions(p)]
    if len(tied) < ENOUGH or any(live[p] != best_actions(p)[0] for p in tied):
        return None
    hopeless = [p for p in tied if ttt.evaluate(board(p)).outcome == "loss" and not blocks(p, live[p])]
    return Pattern(
        "First move wins ties",
        False,
        f"In all {len(tied)} positions with several equally good moves, it plays the first in row order. "
        "That is allowed, but the AI is predictable"
        + (", and when every move loses it does not even block a line that loses at once." if hopeless else "."),
        tuple((hopeless or tied)[:3]),
    )


def blocks(p: str, action: Action) -> bool:
    """Does playing `action` stop the other player completing a line on their next move
    (or is there no such line to stop)?"""
    them = ttt.O if to_move(p) == ttt.X else ttt.X
    threats = [n for n, c in enumerate(p) if c == "." and ttt.winner(board(p[:n] + them + p[n + 1 :])) == them]
    return not threats or 3 * action[0] + action[1] in threats


def no_depth(live: dict[str, Action]) -> Pattern | None:
    slower = [p for p in live if ttt.evaluate(board(p)).outcome == "win" and slow(p, live[p])]
    if len(slower) < ENOUGH:
        return None
    return Pattern(
        "No depth preference",
        False,
        f"In {len(slower)} positions it wins, but more slowly than it could: a win is worth 1 however many "
        "moves it takes. Not a failure (any optimal move counts), but prefer the quickest win, for example "
        "by counting depth, or the AI may keep postponing its win.",
        tuple(slower[:3]),
    )


def slow(p: str, action: Action) -> bool:
    """True when `action` still wins but not in the fewest moves."""
    values = ttt.scores(board(p))
    fastest = min(v.plies for v in values.values() if v.outcome == "win")
    return values.get(action, ttt.MoveValue("loss", 0)).outcome == "win" and values[action].plies > fastest
