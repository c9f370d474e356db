"""Known minimax bugs, recognised from a student's answer in every position checked, and
two ways of playing that are legal (CS50 accepts any optimal move) but worth a note.

A bug is named only when a model of it explains every move minimax got wrong and the
student fails most of the positions where that model cannot play a right move."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from ..core import tictactoe as ttt
from ..core.bugs import alternating  # the model the explorer's bugs page shows
from ..core.costs import moves
from ..core.position import action_of, board, over, to_move, utility
from ..core.search import best_actions
from .wrong import Action, counted

CHANGED = "changed"  # minimax's answer on a board it changed: no evidence of how it chooses
ENOUGH = 20  # positions that must show a legal pattern before it is noted
MOSTLY = 0.8  # of the positions where a bug's model surely errs, the share the student must fail


@dataclass(frozen=True)
class Pattern:
    name: str
    failure: bool  # True for a bug (minimax fails its checks), False for a note on legal play
    text: str
    examples: tuple = ()  # (position, minimax's answer there) that show it
    drawn: str = ""  # one position to draw in the report


@functools.cache
def always_max(p: str) -> int:
    """Minimax where every level takes the max (a min_value that takes the max)."""
    return utility(p) if over(p) else max(always_max(child) for _, child in moves(p))


def min_of_max(p: str) -> int:
    """MIN's value when MIN takes the least of its moves but every level below maximizes."""
    return utility(p) if over(p) else min(always_max(child) for _, child in moves(p))


def argbest(p: str, score: Callable[[str], int], maximizing: bool) -> set[Action]:
    scored = {action_of(n): score(child) for n, child in moves(p)}
    best = max(scored.values()) if maximizing else min(scored.values())
    return {a for a, v in scored.items() if v == best}


def x_to_move(p: str) -> bool:
    return to_move(p) == ttt.X


MODELS: dict[str, tuple[Callable[[str], set[Action]], str]] = {
    "max at the root": (
        lambda p: set(best_actions(p, maximizing=True)),
        "On O's turn your minimax picks the move that is best for X: the root maximizes whoever is to move "
        "(a single value() that always starts with max?). When player(board) is O, the root must choose "
        "the move of least value.",
    ),
    "max(..., key=min_value) on O's turn": (
        lambda p: set(best_actions(p)) if x_to_move(p) else argbest(p, lambda c: alternating(c, False), True),
        "On O's turn your minimax plays as if it were X: `max(actions(board), key=lambda a: "
        "min_value(result(board, a)))` is right for X only. When player(board) is O, use "
        "`min(actions(board), key=lambda a: max_value(result(board, a)))`.",
    ),
    "max_value calls max_value": (
        lambda p: argbest(p, always_max if not x_to_move(p) else min_of_max, x_to_move(p)),
        "MIN's turns are played as MAX's: your max_value calls max_value where it should call min_value, "
        "so once MAX has moved, every level below maximizes. max_value must call min_value on each "
        "result, and min_value must call max_value.",
    ),
    "min_value takes the max": (
        lambda p: argbest(p, always_max, x_to_move(p)),
        "Your min_value takes the max of its children (or calls itself where it should call max_value), "
        "so every level below the root maximizes: MIN must take the least value of its moves.",
    ),
}


def recognised(choices: dict[str, object], failing: set[str]) -> list[Pattern]:
    """The bugs and notes `choices` (minimax's answer in each position checked: (i, j),
    None, "raised", or CHANGED when it changed the board) show, given the positions where
    minimax failed. Only answers on boards left as they were are evidence."""
    bugs = [wrong_player(choices, failing), none_when_all_lose(choices, failing)]
    found = [bug for bug in bugs if bug]
    if not failing:  # notes on legal play only for a minimax that passes
        live = moves_made(choices)
        found += [note for note in (first_tie(live), no_depth(live)) if note]
    return found


def moves_made(choices: dict[str, object]) -> dict[str, Action]:
    """The moves minimax returned on live boards it left as they were."""
    return {p: a for p, a in choices.items() if not over(p) and isinstance(a, tuple)}


def wrong_player(choices: dict[str, object], failing: set[str]) -> Pattern | None:
    """A model of playing for the wrong player that explains the moves minimax got wrong."""
    moves = moves_made(choices)
    wrong = {p: moves[p] for p in failing if p in moves}
    name = next((name for name, (model, _) in MODELS.items() if explains(model, wrong, moves)), None)
    if name is None:
        return None
    on_o = all(to_move(p) == ttt.O for p in wrong)
    extra = f" Every one of the {counted(len(wrong), 'move')} it gets wrong is O's." if on_o else ""
    examples = tuple((p, wrong[p]) for p in sorted(wrong, key=lambda p: (p.count("."), p))[:3])
    return Pattern(f"Wrong player: {name}", True, MODELS[name][1] + extra, examples)


def explains(model, wrong: dict[str, Action], moves: dict[str, Action]) -> bool:
    """Does the bug's model play every wrong move, and, of the positions where minimax
    returned a move and the model cannot play a right one, does minimax play most wrong?"""
    if not wrong or not all(move in model(p) for p, move in wrong.items()):
        return False
    surely = [p for p in moves if not model(p) & set(best_actions(p))]
    return bool(surely) and sum(p in wrong for p in surely) >= MOSTLY * len(surely)


def none_when_all_lose(choices: dict[str, object], failing: set[str]) -> Pattern | None:
    """None (or an exception) exactly where every move loses for the player to move."""
    empty = {p for p in failing if not over(p) and choices.get(p) in (None, "raised")}
    losing = {p for p in choices if losing_evidence(p, choices[p])}
    if not empty or not empty <= losing or len(empty) < MOSTLY * len(losing):
        return None
    example = min(empty, key=lambda p: (p.count("."), p))
    return Pattern(
        "None when every move loses", True, none_text(empty, losing), ((example, choices[example]),), example
    )


def losing_evidence(p: str, answer: object) -> bool:
    """A live position where every move loses for the player to move, and minimax left the board as it was."""
    return not over(p) and answer != CHANGED and ttt.evaluate(board(p)).outcome == "loss"


def none_text(empty: set[str], losing: set[str]) -> str:
    return (
        f"minimax returns None (or raises) in {counted(len(empty), 'position')}, and in each of them every "
        f"move loses for the player to move ({counted(len(losing), 'such position')} checked). Your loop keeps "
        "a move only when its value beats the starting one (say best = -1 with `>`, or a lookup of the best "
        "value that is never found), and a losing move never does. Start from the first move, or from "
        "-math.inf for MAX (math.inf for MIN), so that a losing move is still returned: the player must move "
        "even when it loses."
    )


def first_tie(live: dict[str, Action]) -> Pattern | None:
    tied = [p for p in live if len(best_actions(p)) > 1]
    if len(tied) < ENOUGH or any(live[p] != best_actions(p)[0] for p in tied):
        return None
    text = (
        f"in all {len(tied):,} positions with several optimal moves it plays the first in row order: "
        "legal (any optimal move is right), only predictable."
    )
    return Pattern("First move wins ties", False, text)


def no_depth(live: dict[str, Action]) -> Pattern | None:
    slower = [p for p in live if ttt.evaluate(board(p)).outcome == "win" and slow(p, live[p])]
    if len(slower) < ENOUGH:
        return None
    text = (
        f"in {len(slower):,} won positions it plays a winning move that is not the quickest: "
        "legal, CS50 accepts any optimal move, and it still wins every won position."
    )
    return Pattern("No depth preference", False, text)


def slow(p: str, action: Action) -> bool:
    """True when `action` still wins but not in the fewest moves."""
    values = ttt.scores(board(p))
    fastest = min(v.plies for v in values.values() if v.outcome == "win")
    return values.get(action, ttt.MoveValue("loss", 0)).outcome == "win" and values[action].plies > fastest
