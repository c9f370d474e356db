"""`--trace BOARD`: the student's own minimax run on one board under a profiler (child.py's
`traced`), each call of their functions listed in the order made, with the board it was
given and the value it returned beside the board's minimax value (the reference), and the
first call whose value differs marked. Their code runs on their machine only."""

from __future__ import annotations

from ..core.costs import EMPTY_BOARD, reachable, tree_size
from ..core.position import over, to_move
from ..core.search import best_actions, value
from .report import explorer
from .runner import Student
from .wrong import drawn, shown

SHOWN = 40  # calls listed from the start, and as many around the first that differs
BUILDING = {"player", "actions", "result", "winner", "terminal", "utility", "score"}  # not listed: no value


def board_error(board: str) -> str:
    """What is wrong with a board given to --trace, or ""."""
    if len(board) != 9 or set(board) - set("XO."):
        return "a board is 9 characters of X, O and . (row by row): --trace X.O......"
    if board not in reachable(EMPTY_BOARD):
        return f"{board} cannot be reached in a game (X moves first, and play stops at a win)"
    return ""


def number(returned: object) -> float | None:
    """The value a call returned: a number, or the first of a (value, move) pair."""
    if isinstance(returned, list) and len(returned) == 2:
        returned = returned[0]
    return returned if isinstance(returned, (int, float)) and not isinstance(returned, bool) else None


def is_board(cells: object) -> bool:
    return isinstance(cells, list) and len(cells) == 3 and all(isinstance(r, list) and len(r) == 3 for r in cells)


def text(cells: list) -> str:
    return "".join(c if c in ("X", "O") else "." for row in cells for c in row)


def searching(calls: list) -> list[list]:
    """minimax's calls and those of the functions that search (max_value, min_value, a memo's
    wrapper...), not the building blocks, each with its depth among those listed."""
    listed: list = []
    open_: list[int] = []
    for depth, function, given, returned in calls:
        if function in BUILDING:
            continue
        while open_ and open_[-1] >= depth:
            open_.pop()
        listed.append([len(open_) + 1, function, given, returned])
        open_.append(depth)
    return listed


def wrong(call: list) -> bool:
    """Did a call given a board return a number other than that board's minimax value?"""
    _, function, given, returned = call
    got = number(returned)
    return function != "minimax" and is_board(given) and got is not None and got != value(text(given))


def first_differing(calls: list) -> int | None:
    """The first call whose value differs while every call under it returned the right one:
    where the error starts."""
    for n, call in enumerate(calls):
        if wrong(call):
            under = next((m for m in range(n + 1, len(calls)) if calls[m][0] <= call[0]), len(calls))
            if not any(map(wrong, calls[n + 1 : under])):
                return n
    return None


def call_line(n: int, call: list, marked: bool) -> str:
    depth, function, given, returned = call
    board = text(given) if is_board(given) else ""
    right = f"   minimax value {value(board)}" if board and function != "minimax" else ""
    mark = ">>" if marked else "  "
    called = f"{'  ' * min(depth - 1, 8)}{function}({drawn(board) if board else shown(given)})"
    return f"{mark}{n + 1:>6}  {called} -> {shown(returned)}{right}"


def trace_report(student: Student, board: str, site: str) -> str:
    reply = student.ask({"trace": board}, "minimax")
    if "got" not in reply or reply.get("type") != "trace":
        return f"Your minimax could not be traced on {board}: {reply}"
    every = reply["got"]
    calls = searching(every)
    differs = first_differing(calls)
    whose = f"{to_move(board)} to move" if not over(board) else "game over"
    lines = [
        f"Your minimax on {drawn(board)} ({whose}), traced: {len(every):,} calls of your file's functions, "
        f"{len(calls):,} of them of minimax and the functions that search (listed here; {tree_size(board):,} "
        "positions in the game tree below this board).",
        "Each call: the board it was given, what it returned, and, the reference, that board's minimax value"
        " (X's utility under best play).",
        "",
    ]
    shown_ = set(range(min(SHOWN, len(calls))))
    if differs is not None:
        shown_ |= set(range(max(0, differs - 3), min(len(calls), differs + SHOWN // 4)))
    last = -1
    for n in sorted(shown_):
        lines += ["   ..."] if n != last + 1 else []
        lines.append(call_line(n, calls[n], n == differs))
        last = n
    lines += ["   ..."] if last < len(calls) - 1 else []
    lines += ["", ending(calls, differs, board, reply), f"explore   {explorer(site, board)}"]
    return "\n".join(lines)


def ending(calls: list, differs: int | None, board: str, reply: dict) -> str:
    said = f"Your minimax raised {reply['raised']}: {reply.get('message', '')}. " if "raised" in reply else ""
    if differs is None:
        right = ", ".join(map(str, best_actions(board))) if not over(board) else "None"
        return said + f"Every call that returned a value returned its board's minimax value. Right moves here: {right}."
    _, function, given, returned = calls[differs]
    return said + (
        f">> marks where the error starts, the first call whose value differs while every call it made returned "
        f"the right one: call {differs + 1:,}, {function} on {drawn(text(given))} ({to_move(text(given))} to move) "
        f"returned {shown(returned)}, where the minimax value is {value(text(given))} (with alpha-beta, a value "
        "outside the window may be a bound)."
    )
