"""Each function's judge: what a student's `player`, `actions`, `result`, `winner`,
`terminal`, `utility` and `minimax` must answer on a position, with this project's engine as
the reference. A judge returns None when the answer is right, or what is wrong."""

from __future__ import annotations

from ..core import tictactoe as ttt
from ..core.position import action_of, board, over, to_move, utility
from ..core.search import best_actions, value
from .wrong import (
    INVALID_ACCEPTED,
    NOT_A_SET,
    RAISES_ON_VALID,
    Action,
    Wrong,
    counted,
    drawn,
    failed,
    shown,
)


def player(p: str, reply: dict) -> Wrong | None:
    expected = to_move(p)
    if wrong := failed(reply, shown(expected)):
        return wrong
    if reply["got"] != expected:
        marks = f"X has {counted(p.count('X'), 'mark')} and O has {p.count('O')}"
        return Wrong(shown(expected), shown(reply["got"]), f"{marks}, so {expected} is to move")
    return None


def actions(p: str, reply: dict) -> Wrong | None:
    """The cells left out and those given twice first (they make minimax fail), then the type
    (a list of the right cells fails no caller)."""
    expected = {action_of(n) for n, c in enumerate(p) if c == "."}
    if wrong := failed(reply):
        return wrong
    items = reply["got"]
    if not isinstance(items, list):
        return Wrong(shown_set(sorted(expected)), shown(items), "actions must return a set of (i, j) tuples")
    got = pairs(items)
    if got != expected or len(items) != len(got):
        why = "; ".join(filter(None, (set_difference(expected, got), given_twice(items)))) or "not (i, j) pairs"
        return Wrong(shown_set(sorted(expected)), shown_set(items), why)
    if reply["type"] not in ("set", "frozenset"):
        return Wrong("a set", f"a {reply['type']}", "actions must return a set of (i, j) tuples", NOT_A_SET)
    return None


def given_twice(items: list) -> str:
    """The cells a list gives more than once, in words."""
    twice = sorted({tuple(a) for a in items if isinstance(a, list) and items.count(a) > 1})
    return f"{', '.join(map(str, twice))} given more than once" if twice else ""


def shown_set(items: list) -> str:
    """A set as Python prints it: {(0, 1), (2, 2)}, or set()."""
    return "{" + ", ".join(map(shown, items)) + "}" if items else "set()"


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
    if wrong := failed(reply, drawn(expected), p, "result"):
        return wrong
    if reply.get("same"):
        return Wrong("a new board", "the board it was given", "result must return a new board")
    if reply["got"] != board(expected):
        return Wrong(drawn(expected), shown(reply["got"]), f"{mark} is to move, so {mark} goes at {action_of(n)}")
    return None


def refused(p: str, action: Action, raised_on_valid: dict[str, Action], reply: dict) -> Wrong | None:
    """result on an invalid action: it must raise an exception, one the valid actions on the
    same board (`raised_on_valid`: an exception's name, the action that raised it) do not."""
    i, j = action
    why = "that cell is off the board" if not (0 <= i <= 2 and 0 <= j <= 2) else f"that cell is taken by {p[3 * i + j]}"
    if reply.get("raised") == "NotImplementedError":  # not written yet, as on the valid moves
        return failed(reply, "an exception saying the move is invalid")
    if "raised" in reply:
        return refusal_judged(reply, why, raised_on_valid)
    if wrong := failed(reply):
        return wrong
    got = f"a board: {shown(reply['got'])}"
    return Wrong("an exception", got, f"result must raise an exception: {why}", INVALID_ACCEPTED)


def refusal_judged(reply: dict, why: str, raised_on_valid: dict[str, Action]) -> Wrong | None:
    """An exception raised on an invalid action: wrong if the board changed, or if a valid
    action on the same board raised the same exception, which then says nothing of validity."""
    if reply.get("changed"):
        return Wrong("the board given left as it was", "it changed", why, "changed the board")
    name = reply["raised"]
    if name not in raised_on_valid:
        return None
    valid = raised_on_valid[name]
    expected = f"an exception for this invalid action ({why}) only"
    said = (
        f"result raised {name} on the valid action {valid} too, so raising it here says nothing of the action:"
        " result must return a new board for a valid action, and raise an exception only for an invalid one"
    )
    return Wrong(
        expected, f"{name}, as the valid action {valid} did", said, RAISES_ON_VALID, tuple(reply.get("where") or ())
    )


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
    finished = over(p)
    keep = [] if finished else best_actions(p)  # any move that keeps the value is right
    if wrong := failed(reply, "None" if finished else moves_text(keep), p, "minimax"):
        return wrong
    got = reply["got"]
    if finished:
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
