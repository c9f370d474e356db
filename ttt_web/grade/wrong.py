"""What is wrong with a student's answer, in words a student reads: `Wrong`, what went wrong
with a call whatever the function (`failed`), and answers drawn as Python prints them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeGuard

TIMEOUT = "ran over the time limit"
MISSING = "missing"
NOT_A_SET = "not a set"
INVALID_ACCEPTED = "invalid moves accepted"
RAISES_ON_VALID = "valid actions raise too"
EXCEPTIONS = "exceptions"
CHANGED_BOARD = "changed the board"
NOT_WRITTEN = "not written yet"  # raises NotImplementedError, as the distribution code's functions do
DEEP = 4  # calls deep in the student's file: a search under way, not a loop
Action = tuple[int, int]


@dataclass(frozen=True)
class Wrong:
    """An answer that is not right: what was expected, what came back, and why it matters."""

    expected: str
    got: str
    why: str = ""
    kind: str = "wrong answers"
    where: tuple = ()  # frames in the student's file, for an exception or a stop


# The kinds `failed` gives: the call went wrong, so its answer says nothing of how the
# function chooses.
CALL_FAILURES = frozenset({MISSING, TIMEOUT, NOT_WRITTEN, "crashes", "broken replies", EXCEPTIONS, "changed the board"})


def failed(reply: dict, expected: str = "an answer", position: str = "", function: str = "it") -> Wrong | None:
    """What went wrong with the call itself, whatever the function; `position`, the board it
    was given, and `function`, its name, to say how it changed the board."""
    if "missing" in reply:
        why = f"tictactoe.py has no function named {reply['missing']}"
        return Wrong("a function by that name", "none", why, MISSING)
    if "timeout" in reply:
        return Wrong(expected, "no answer", ran_over(reply), TIMEOUT, tuple(reply.get("where") or ()))
    if "crashed" in reply:
        return Wrong(expected, "no answer", f"the program ended (exit status {reply['crashed']})", "crashes")
    if "invalid" in reply:
        why = "something wrote to the grader's reply channel: a file that tampers with the grader proves nothing"
        return Wrong(expected, reply["invalid"], why, "broken replies")
    if "raised" in reply:
        return raised(reply, expected)
    if reply.get("changed"):
        became = reply.get("became")
        got = f"the board changed to {shown(became)}" if is_board(became) else "the board changed"
        return Wrong("the board given left as it was", got, changed_words(position, became, function), CHANGED_BOARD)
    return None


UNDO = {
    "minimax": "undo each move after trying it, or try it on a new board: result(board, action)",
    "result": "copy the board (copy.deepcopy(board)) and place the mark on the copy",
}


def changed_words(position: str, became: object, function: str) -> str:
    """How the board given changed: marks placed on empty cells and left there, when that is all."""
    said = f"{function} changed the board it was given"
    placed = marks_placed(position, cells(became))
    if not placed:
        return said
    where = ", ".join(str(divmod(n, 3)) for n in placed)
    marks = (
        f"a mark at {where} and does not take it" if len(placed) == 1 else f"marks at {where} and does not take them"
    )
    return f"{said}: it places {marks} back ({UNDO.get(function, 'work on a copy')})"


def marks_placed(position: str, after: str | None) -> list[int]:
    """The cells that were empty in `position` and hold a mark `after`, when no other cell changed."""
    if not position or after is None:
        return []
    changed = [n for n in range(9) if after[n] != position[n]]
    placed = all(position[n] == "." and after[n] in "XO" for n in changed)
    return changed if placed else []


def cells(board: object) -> str | None:
    """A board as 9 characters (X, O, or . for anything else), or None when it is not one."""
    if not is_board(board):
        return None
    return "".join(c if c in ("X", "O") else "." for row in board for c in row)


def raised(reply: dict, expected: str) -> Wrong:
    """The exception the call raised, by name, and its message when it has one."""
    name, message, where = reply["raised"], reply["message"], tuple(reply.get("where") or ())
    if name == "NotImplementedError":
        return Wrong(expected, name, unwritten_words(where), NOT_WRITTEN, where)
    return Wrong(expected, f"{name}: {message}" if message else name, "it raised an exception", EXCEPTIONS, where)


def unwritten_words(where: tuple) -> str:
    """Which function is not written yet: the one that raised NotImplementedError, which may
    be one the called function calls (minimax calling an unwritten terminal)."""
    raiser = where[-1].get("function") if where and isinstance(where[-1], dict) else None
    return f"{raiser} is not written yet (it raises NotImplementedError)" if raiser else "it is not written yet"


def ran_over(reply: dict) -> str:
    """Why a call that ran over its limit did: how long it took, beside what a textbook
    minimax takes here, and what the student's code was doing when it was stopped."""
    call, limit = reply.get("call", "it"), reply["timeout"]
    cpu, wall = reply.get("cpu", limit), reply.get("wall", limit)
    if cpu < limit:  # stopped by the wall clock: it hardly ran
        used = f"{cpu:.1f} s" if cpu >= 0.1 else "under 0.1 s"
        if reply.get("queued", 0) >= (wall - cpu) / 2:  # ready to run, but the machine was busy
            return (
                f"{call} used only {used} of processor time in {wall:g} s, as it waited {reply['queued']:g} s for a "
                "processor: the machine is busy; grade again when it is quieter"
            )
        return f"{call} used only {used} of processor time in {wall:g} s: is it waiting (sleep, a lock)?"
    took = f"{call} took over {limit:g} s of processor time on this board"
    if call == "minimax" and reply.get("textbook"):
        took += (
            f" (a textbook minimax, without memo, takes about {reply['textbook']:.0f} s on the empty board"
            " on this machine)"
        )
    depth = reply.get("depth", 0)
    if depth >= DEEP:
        return (
            f"{took}: it was {depth} calls deep in its search when stopped, a search that would finish but too "
            "slowly: memoize or prune (alpha-beta); --call-seconds gives it longer"
        )
    return f"{took}, and was not deep in a search when stopped: a loop that never ends?"


def counted(n: int, noun: str) -> str:
    """`n` and the noun, plural unless one: "1 mark", "2 marks"."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def shown(got: object) -> str:
    """A student's answer as Python would print it, boards drawn on one line."""
    if is_board(got):
        return drawn("".join("X" if c == "X" else "O" if c == "O" else "." for row in got for c in row))
    if isinstance(got, list):
        return "(" + ", ".join(map(shown, got)) + ")"
    return repr(got)


def is_board(got: object) -> TypeGuard[list[list[object]]]:
    """Three lists of three: a board, whatever is in its cells."""
    return isinstance(got, list) and len(got) == 3 and all(isinstance(row, list) and len(row) == 3 for row in got)


def drawn(p: str) -> str:
    return " / ".join(p[r : r + 3] for r in (0, 3, 6))
