"""What each function of a student's tictactoe.py must answer, position by position, with
this project's engine as the reference. A check returns None when the answer is right, or
what is wrong in words a student reads."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial

from ..core import tictactoe as ttt
from ..core.costs import EMPTY_BOARD, board, over, reachable, to_move, utility
from ..core.position import action_of
from ..core.search import best_actions, value

TIMEOUT = "ran over the time limit"
NOT_A_SET = "not a set"
INVALID_ACCEPTED = "invalid moves accepted"
FUNCTIONS = ("player", "actions", "result", "winner", "terminal", "utility", "minimax")
OFF_BOARD = ((3, 1), (1, -1))
Action = tuple[int, int]


@dataclass(frozen=True)
class Wrong:
    """An answer that is not right: what was expected, what came back, and why it matters."""

    expected: str
    got: str
    why: str = ""
    kind: str = "wrong answers"
    where: tuple = ()  # frames in the student's file, for an exception or a stop


@dataclass(frozen=True)
class Check:
    function: str
    position: str
    action: Action | None
    judge: Callable[[dict], Wrong | None]


def positions() -> list[str]:
    """Every reachable position, the fewest marks first."""
    return sorted(reachable(EMPTY_BOARD), key=lambda p: (9 - p.count("."), p))


def checks(only: str | None = None) -> Iterator[Check]:
    """Every check (of one function, if `only`), the cheap functions first, minimax's most
    marks first (its cheapest calls)."""
    return (check for check in all_checks() if only in (None, check.function))


def all_checks() -> Iterator[Check]:
    every = positions()
    live = [p for p in every if not over(p)]
    yield from each("player", player, live)
    yield from each("actions", actions, live)
    for p in live:
        yield from result_checks(p)
    yield from each("winner", winner, every)
    yield from each("terminal", terminal, every)
    yield from each("utility", utility_check, [p for p in every if over(p)])
    yield from each("minimax", minimax, reversed(every))


def each(function: str, judge: Callable[[str, dict], Wrong | None], positions_: Iterable[str]) -> Iterator[Check]:
    """A check of `function` on each position, judged by `judge(position, reply)`."""
    return (Check(function, p, None, partial(judge, p)) for p in positions_)


def result_checks(p: str) -> Iterator[Check]:
    """result on each empty cell, then refusing a taken cell and cells off the board."""
    for n in (n for n, c in enumerate(p) if c == "."):
        yield Check("result", p, action_of(n), partial(result, p, n))
    taken = next((n for n, c in enumerate(p) if c != "."), None)
    if taken is not None:
        yield Check("result", p, action_of(taken), partial(refused, p, action_of(taken)))
    for action in OFF_BOARD:
        yield Check("result", p, action, partial(refused, p, action))


def failed(reply: dict, expected: str = "an answer") -> Wrong | None:
    """What went wrong with the call itself, whatever the function."""
    if "missing" in reply:
        why = f"tictactoe.py has no function named {reply['missing']}"
        return Wrong("a function by that name", "none", why, "missing")
    if "timeout" in reply:
        why = (
            f"{reply.get('call', 'it')} did not answer within {reply['timeout']:g} s on this board: an infinite loop?"
            " Or a search that would finish but too slowly (memoize or prune; --call-seconds gives it longer)"
        )
        return Wrong(expected, "no answer", why, TIMEOUT, tuple(reply.get("where") or ()))
    if "crashed" in reply:
        return Wrong(expected, "no answer", f"the program ended (exit status {reply['crashed']})", "crashes")
    if "invalid" in reply:
        why = "something wrote to the grader's reply channel: a file that tampers with the grader proves nothing"
        return Wrong(expected, reply["invalid"], why, "broken replies")
    if "raised" in reply:
        got = f"{reply['raised']}: {reply['message']}"
        return Wrong(expected, got, "it raised an exception", "exceptions", tuple(reply.get("where") or ()))
    if reply.get("changed"):
        why = "it changed the board it was given"
        return Wrong("the board given left as it was", "the board changed", why, "changed the board")
    return None


def player(p: str, reply: dict) -> Wrong | None:
    expected = to_move(p)
    if wrong := failed(reply, expected):
        return wrong
    if reply["got"] != expected:
        x, o = p.count("X"), p.count("O")
        return Wrong(expected, shown(reply["got"]), f"X has {x} marks and O has {o}, so {expected} is to move")
    return None


def actions(p: str, reply: dict) -> Wrong | None:
    expected = {action_of(n) for n, c in enumerate(p) if c == "."}
    if wrong := failed(reply):
        return wrong
    if reply["type"] not in ("set", "frozenset"):
        return Wrong("a set", f"a {reply['type']}", "actions must return a set of (i, j) tuples", NOT_A_SET)
    got = pairs(reply["got"])
    if got != expected or len(reply["got"]) != len(got):
        return Wrong(str(sorted(expected)), shown(reply["got"]), set_difference(expected, got) or "not (i, j) pairs")
    return None


def pairs(got: list) -> set[Action]:
    """The two-item entries of a reply, as tuples."""
    return {tuple(a) for a in got if isinstance(a, list) and len(a) == 2}


def set_difference(expected: set[Action], got: set[Action]) -> str:
    """The actions given that are not legal, and the legal ones left out, in words."""
    extra = ", ".join(map(str, sorted(got - expected)))
    missing = ", ".join(map(str, sorted(expected - got)))
    parts = (f"{extra} taken or off the board" if extra else "", f"{missing} left out" if missing else "")
    return "; ".join(part for part in parts if part)


def result(p: str, n: int, reply: dict) -> Wrong | None:
    mark = to_move(p)
    expected = p[:n] + mark + p[n + 1 :]
    if wrong := failed(reply, drawn(expected)):
        return wrong
    if reply.get("same"):
        return Wrong("a new board", "the board it was given", "result must return a new board")
    if reply["got"] != board(expected):
        return Wrong(drawn(expected), shown(reply["got"]), f"{mark} is to move, so {mark} goes at {action_of(n)}")
    return None


def refused(p: str, action: Action, reply: dict) -> Wrong | None:
    i, j = action
    why = "that cell is off the board" if not (0 <= i <= 2 and 0 <= j <= 2) else f"that cell is taken by {p[3 * i + j]}"
    if reply.get("raised") == "NotImplementedError":
        return Wrong("an exception saying the move is invalid", "NotImplementedError", "result is not written yet")
    if "raised" in reply:
        changed = Wrong("the board given left as it was", "it changed", why, "changed the board")
        return changed if reply.get("changed") else None
    if wrong := failed(reply):
        return wrong
    got = f"a board: {shown(reply['got'])}"
    return Wrong("an exception", got, f"result must raise an exception: {why}", INVALID_ACCEPTED)


def winner(p: str, reply: dict) -> Wrong | None:
    expected = ttt.winner(board(p))
    if wrong := failed(reply):
        return wrong
    if reply["got"] != expected:
        line = ttt.winning_line(board(p))
        why = f"{expected} has three in a row at {', '.join(map(str, line))}" if expected else "no three in a row"
        return Wrong(shown(expected), shown(reply["got"]), why)
    return None


def terminal(p: str, reply: dict) -> Wrong | None:
    expected = over(p)
    if wrong := failed(reply):
        return wrong
    if reply["got"] is not expected:
        won = ttt.winner(board(p))
        why = f"{won} has three in a row" if won else "the board is full" if expected else "no line, and cells left"
        return Wrong(shown(expected), shown(reply["got"]), why)
    return None


def utility_check(p: str, reply: dict) -> Wrong | None:
    expected = utility(p)
    if wrong := failed(reply):
        return wrong
    if reply["got"] != expected or isinstance(reply["got"], bool):
        won = ttt.winner(board(p))
        why = f"{won} has won, and utility is from X's side" if won else "a full board with no line is a draw"
        return Wrong(str(expected), shown(reply["got"]), why)
    return None


def minimax(p: str, reply: dict) -> Wrong | None:
    keep = [] if over(p) else best_actions(p)  # any move that keeps the value is right
    if wrong := failed(reply, "None" if over(p) else moves_text(keep)):
        return wrong
    got = reply["got"]
    if over(p):
        why = "the game is over: there is no move to make"
        return None if got is None else Wrong("None", shown(got), why, "moves on finished boards")
    if got is None:
        return Wrong(moves_text(keep), "None", "the game is not over, so minimax must return a move", "None returned")
    action = as_action(got)
    if action is None:
        why = "a move is an (i, j) tuple of two integers"
        return Wrong(moves_text(keep), shown(got), why, "not an action")
    return move_judged(p, action, keep, got)


def as_action(got: object) -> Action | None:
    """A reply as an (i, j) tuple of two integers, or None when it is not one."""
    if isinstance(got, list) and len(got) == 2 and all(type(n) is int for n in got):
        return tuple(got)
    return None


def move_judged(p: str, action: Action, keep: list[Action], got: object) -> Wrong | None:
    """What is wrong with minimax's action on a live board: illegal, or throwing the value away."""
    if action not in {action_of(n) for n, c in enumerate(p) if c == "."}:
        why = "that cell is off the board" if not all(0 <= n <= 2 for n in action) else "that cell is taken"
        return Wrong(moves_text(keep), shown(got), why, "illegal moves")
    if action not in keep:
        then = outcome_words(after(p, action))
        now = outcome_words(value(p))
        why = f"with best play {now}, but after {action} {then}"
        return Wrong(moves_text(keep), shown(got), why, "moves that throw away the value")
    return None


def after(p: str, action: Action) -> int:
    n = 3 * action[0] + action[1]
    return value(p[:n] + to_move(p) + p[n + 1 :])


def outcome_words(utility_: int) -> str:
    return {1: "X wins", 0: "it is a draw", -1: "O wins"}[utility_]


def moves_text(actions_: list[Action]) -> str:
    return "one of " + ", ".join(map(str, actions_)) if len(actions_) > 1 else str(actions_[0])


def shown(got: object) -> str:
    """A student's answer as Python would print it, boards drawn on one line."""
    if is_board(got):
        return drawn("".join("X" if c == "X" else "O" if c == "O" else "." for row in got for c in row))
    if isinstance(got, list):
        return "(" + ", ".join(map(shown, got)) + ")"
    return repr(got)


def is_board(got: object) -> bool:
    """Three lists of three: a board, whatever is in its cells."""
    return isinstance(got, list) and len(got) == 3 and all(isinstance(row, list) and len(row) == 3 for row in got)


def drawn(p: str) -> str:
    return " / ".join(p[r : r + 3] for r in (0, 3, 6))
