"""The checks of a student's tictactoe.py: each function called on every reachable position
(and `result` on invalid moves), each answer judged by the function's judge (judges.py),
which returns None when the answer is right, or what is wrong in words a student reads."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial

from ..core.costs import reachable
from ..core.position import EMPTY_BOARD, action_of, over
from .judges import actions, minimax, player, refused, result, terminal, utility_check, winner
from .wrong import Action, Wrong

FUNCTIONS = ("player", "actions", "result", "winner", "terminal", "utility", "minimax")
OFF_BOARD = ((3, 1), (1, -1))
VALID, INVALID = "valid moves", "invalid moves"  # result's two parts
Judge = Callable[[dict], Wrong | None]
JUDGED = {  # each function's judge, and the positions it is called on (result's: result_checks)
    "player": (player, "live"),
    "actions": (actions, "live"),
    "winner": (winner, "every"),
    "terminal": (terminal, "every"),
    "utility": (utility_check, "finished"),
    "minimax": (minimax, "most marks first"),
}


@dataclass(frozen=True)
class Check:
    function: str
    position: str
    action: Action | None
    judge: Judge
    part: str = ""  # which of the function's checks, when the report counts them apart


def positions() -> list[str]:
    """Every reachable position, the fewest marks first."""
    return sorted(reachable(EMPTY_BOARD), key=lambda p: (9 - p.count("."), p))


def checks(only: str | None = None) -> Iterator[Check]:
    """Every check (of one function, if `only`: the others are not even made), the cheap
    functions first, minimax's most marks first (its cheapest calls)."""
    every = positions()
    finished = {p for p in every if over(p)}
    on = {  # the positions each function is called on
        "live": [p for p in every if p not in finished],
        "every": every,
        "finished": [p for p in every if p in finished],
        "most marks first": every[::-1],
    }
    return (check for function in FUNCTIONS if only in (None, function) for check in planned(function, on))


def planned(function: str, on: dict[str, list[str]]) -> Iterator[Check]:
    """`function`'s checks, on the positions it is called on."""
    if function == "result":
        return (check for p in on["live"] for check in result_checks(p))
    judge, positions_ = JUDGED[function]
    return each(function, judge, on[positions_])


def each(function: str, judge: Callable[[str, dict], Wrong | None], positions_: Iterable[str]) -> Iterator[Check]:
    """A check of `function` on each position, judged by `judge(position, reply)`."""
    return (Check(function, p, None, partial(judge, p)) for p in positions_)


def result_checks(p: str) -> Iterator[Check]:
    """result on each empty cell, then refusing a taken cell and cells off the board. The
    refusals are judged knowing which exceptions the valid moves on `p` raised."""
    raised: dict[str, Action] = {}  # an exception's name: the first valid action that raised it
    for n in (n for n, c in enumerate(p) if c == "."):
        yield Check("result", p, action_of(n), noting(raised, action_of(n), partial(result, p, n)), VALID)
    taken = next((n for n, c in enumerate(p) if c != "."), None)
    invalid = OFF_BOARD if taken is None else (action_of(taken), *OFF_BOARD)
    for action in invalid:
        yield Check("result", p, action, partial(refused, p, action, raised), INVALID)


def noting(raised: dict[str, Action], action: Action, judge: Callable[[dict], Wrong | None]) -> Judge:
    """`judge`, noting in `raised` the exception a valid `action` raised, if it raised one."""

    def judged(reply: dict) -> Wrong | None:
        if isinstance(reply.get("raised"), str):
            raised.setdefault(reply["raised"], action)
        return judge(reply)

    return judged
