"""What a step of the pseudocode trace does, said in the assignment's terms."""

from __future__ import annotations

import math
import re

from markupsafe import Markup, escape

from ..core import trace as tr
from ..core.position import last_mover

MINUS = "\N{MINUS SIGN}"
COLUMNS = "abc"


def number(value: float | None) -> str:
    """A value, α or β as the page prints it: 1, 0, −1, ∞, −∞."""
    if value is None:
        return ""
    if value == math.inf:
        return "∞"
    if value == -math.inf:
        return f"{MINUS}∞"
    return f"{MINUS}{-int(value)}" if value < 0 else str(int(value))


SIGNS = {"": 1, "+": 1, "-": -1, MINUS: -1}
WHOLE = re.compile(rf"\s*([+\-{MINUS}]?)([0-9]{{1,9}})\s*")  # 9: all a box takes
ACCEPTED = f"digits with a sign or none, like 1, +1, {MINUS}1 or -1"


def whole_number(text: str) -> int | None:
    """A number as a student types it: 1, +1, -1 or with the true minus sign, −1; None if it is not one."""
    found = WHOLE.fullmatch(text)
    return SIGNS[found[1]] * int(found[2]) if found else None


def not_a_number(text: str) -> str:
    """What a box refused holds, and what it accepts."""
    if not text.strip():
        return f"This box is empty: type a whole number, {ACCEPTED}."
    return f"“{text.strip()}” is not a whole number: type {ACCEPTED}."


def not_a_count(text: str, read: int | None) -> str:
    """What a count's box holds that is no count (text, or a negative number), and what it takes."""
    if read is not None:
        return f"{number(read)} is no count: a count cannot be negative. Type a whole number, like 12."
    if not text.strip():
        return "This box is empty: type a whole number, like 12."
    return f"“{text.strip()}” is not a whole number: type one, like 12."


def action(act: tuple[int, int] | None) -> str:
    """An action as the assignment writes it, with the cell's name: "(1, 2) c2"."""
    if act is None:
        return "None"
    i, j = act
    return f"({i}, {j}) {COLUMNS[j]}{i + 1}"


def role(frame: tr.Frame) -> str:
    """MAX (X to move) or MIN (O to move)."""
    return "MAX" if tr.to_move(frame.position) == "X" else "MIN"


def turn(frame: tr.Frame) -> str:
    """Which move led to the call and whose turn it is there, in the assignment's terms:
    "after X plays (1, 1) b2: O to move (MIN)"; the first call has no move before it."""
    before = "the starting position" if frame.action is None else f"after {played(frame.position, frame.action)}"
    if tr.over(frame.position):
        return f"{before}: the game is over, {won(frame.position)}"
    side = tr.to_move(frame.position)
    return f"{before}: {side} to move ({'MAX' if side == 'X' else 'MIN'})"


def played(position: str, act: tuple[int, int]) -> str:
    """The move that led to `position`: "X plays (1, 1) b2"."""
    return f"{last_mover(position)} plays {action(act)}"


def indent(line: str) -> int:
    """How many levels (of 4 spaces) a line of code is indented: its wrapped parts hang below
    its text rather than at the margin."""
    return min((len(line) - len(line.lstrip(" "))) // 4, 3)


def code(line: str) -> Markup:
    """A line of code that a narrow page may wrap after an opening bracket as well as at a
    space, never inside a name: max_value(result(board, action))."""
    return Markup("(<wbr>").join(escape(part) for part in line.split("("))


# A board written in prose: nine of X, O and dots, maybe before a sentence's full stop.
BOARD = re.compile(r"(?<![\w.])[XO.]{9}(?=\.?(?:[^\w.]|$))")


def boards(text: str) -> Markup:
    """`text` (a message that may quote what a student typed) escaped, each board in it set in
    <code>: in the body font a board's dots read as an ellipsis."""
    return Markup(BOARD.sub(lambda found: f"<code>{found[0]}</code>", str(escape(text))))


def won(position: str) -> str:
    lines = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
    for a, b, c in lines:
        if position[a] == position[b] == position[c] != ".":
            return f"{position[a]} has three in a row"
    return "the board is full with no line"


def says(step: tr.Step) -> str:
    """One or two sentences on the step shown."""
    return _SAYINGS[step.event](step, step.top, step.top.function == tr.ROOT)


def tested(step: tr.Step, frame: tr.Frame, root: bool) -> str:
    """The test for the end, in the words of the line shown: at the root the assignment's
    Python, whose `terminal(board)` returns True or False; below it the lecture's pseudocode,
    where TERMINAL(state) is true or false."""
    over = tr.over(frame.position)
    if root:
        return f"terminal(board) returns {over}: {won(frame.position) if over else 'the game goes on'}."
    return f"TERMINAL(state) is {'true' if over else 'false'}: {won(frame.position) if over else 'the game goes on'}."


def returned(step: tr.Step, frame: tr.Frame, root: bool) -> str:
    if tr.over(frame.position):
        if root:
            return "The game is over, so minimax returns None: there is no action to take."
        return f"It returns UTILITY(state) = {number(step.value)} (1 if X has won, {MINUS}1 if O has, else 0)."
    if root:
        best = action(frame.best_action)
        return f"Every action is tried: minimax returns best_action = {best}, worth {number(frame.v)}."
    bounded = exactness(step.bound, step.value)
    return f"Every action is tried: {frame.function} returns v = {number(step.value)} to its caller{bounded}."


def called(step: tr.Step, frame: tr.Frame, root: bool) -> str:
    mover = tr.to_move(frame.position)
    if root:  # the assignment's Python: min_value(result(board, action))
        other = "min_value" if mover == "X" else "max_value"
        return f"{mover} tries action {action(step.action)}: {other} is called on result(board, action)."
    other = tr.MIN if mover == "X" else tr.MAX
    return f"{mover} tries action {action(step.action)}: {other} is called on the board RESULT(state, action)."


def cut(step: tr.Step, frame: tr.Frame, root: bool) -> str:
    maximizing = role(frame) == "MAX"
    v, limit = frame.v, frame.beta if maximizing else frame.alpha
    other, name = ("MIN", "β") if maximizing else ("MAX", "α")
    bound = f"v = {number(v)} {'≥' if maximizing else '≤'} {name} = {number(limit)}"
    least = "at least" if maximizing else "at most"
    why = f"{other} can already be sure of {number(limit)} on the path above, and this position is worth {least}"
    why += f" {number(v)}"
    if v == limit:
        why += (
            f", no better for {other}: {other} is indifferent to coming here, and what is left here cannot "
            "change the value above"
        )
    else:
        why += f", worse for {other}, so {other} would never let play come here"
    returns = f"it returns v = {number(v)} now{exactness(step.bound, v)}"
    if not step.pruned:
        return f"{bound}: {why}; {returns}. No action was left to prune."
    skipped = ", ".join(action(a) for a in step.pruned)
    return f"{bound}: {why}; {returns}. Pruned: {skipped}."


def exactness(bound: str, value: float | None) -> str:
    """After a value returned: nothing when it is exact, else which bound it is and why, in
    the explorer's marks (≤ an upper bound, ≥ a lower one)."""
    if bound == "=":
        return ""
    kind = "an upper" if bound == "≤" else "a lower"
    return f", only {kind} bound: the value is {bound} {number(value)}, as moves were pruned at or below this call"


def kept(step: tr.Step, frame: tr.Frame, root: bool) -> str:
    if role(frame) == "MAX":
        return f"α = MAX(α, v) = {number(frame.alpha)}: MAX is sure of at least this much on this path."
    return f"β = MIN(β, v) = {number(frame.beta)}: MIN is sure of at most this much on this path."


def initial(step: tr.Step, frame: tr.Frame, root: bool) -> str:
    if role(frame) == "MAX":
        start = "best starts at −∞" if root else "v starts at −∞"
        return f"X is to move: MAX. {start}, so the first value found is an improvement."
    start = "best starts at ∞" if root else "v starts at ∞"
    return f"O is to move: MIN. {start}, so the first value found is an improvement."


def came_back(step: tr.Step, frame: tr.Frame, root: bool) -> str:
    got = f"Action {action(step.action)} returned {number(step.value)}"
    if step.bound != "=":
        kind = "an upper" if step.bound == "≤" else "a lower"
        got += f" ({step.bound} {number(step.value)}: only {kind} bound, as moves were pruned at or below that call)"
    if root:
        better = frame.best_action == step.action
        if better:
            return f"{got}, better than any before: best_action = {action(step.action)}, best = {number(frame.v)}."
        return f"{got}, not better than best = {number(frame.v)}: best_action stays {action(frame.best_action)}."
    pick = "MAX" if role(frame) == "MAX" else "MIN"
    return f"{got}; v = {pick}(v, {number(step.value)}) = {number(frame.v)}, the best so far."


_SAYINGS = {
    "test": tested,
    "return": returned,
    "init": initial,
    "call": called,
    "back": came_back,
    "cut": cut,
    "keep": kept,
}
