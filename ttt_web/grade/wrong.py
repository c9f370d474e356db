"""What is wrong with a student's answer, in words a student reads: `Wrong`, what went wrong
with a call whatever the function (`failed`), and answers drawn as Python prints them."""

from __future__ import annotations

from dataclasses import dataclass, replace
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
    became: str = ""  # a board the call changed, as it became (9 characters: X, O, .), when it is a board
    changed: bool = False  # an exception raised after the call had changed the board it was given
    measured: str = ""  # what was measured on this machine beside it: not of the file, so kept out of `why`


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
        where = tuple(reply.get("where") or ())
        return Wrong(expected, "no answer", ran_over(reply), TIMEOUT, where, measured=measured_words(reply))
    if "crashed" in reply:
        return Wrong(expected, "no answer", f"the program ended (exit status {reply['crashed']})", "crashes")
    if "invalid" in reply:
        why = "something wrote to the grader's reply channel: a file that tampers with the grader proves nothing"
        return Wrong(expected, reply["invalid"], why, "broken replies")
    if "raised" in reply:
        return replace(raised(reply, expected), changed=bool(reply.get("changed")))
    if reply.get("changed"):
        became = reply.get("became")
        got = f"the board changed to {shown(became)}" if is_board(became) else "the board changed"
        after = cells(became) or ""
        why = changed_words(position, after, function)
        return Wrong("the board given left as it was", got, why, CHANGED_BOARD, became=after)
    return None


UNDO = {
    "minimax": "undo each move after trying it, or try it on a new board: result(board, action)",
    "result": "return a new board: copy the board (copy.deepcopy(board)) and place the mark on the copy",
}


def changed_words(position: str, after: str, function: str) -> str:
    """How the board given changed: marks placed on empty cells and left there, when that is all."""
    said = f"{function} changed the board it was given"
    placed = marks_placed(position, after)
    if not placed:
        return said
    return f"{said}: it places {marks_at(placed)} and does not take {'it' if len(placed) == 1 else 'them'} back " + (
        f"({UNDO.get(function, 'work on a copy')})"
    )


def changed_by_words(position: str, after: str, function: str, by: str) -> str:
    """How the board given to `function` changed, when `by`, a function it calls, changed it:
    with a right `by` put in place of the student's, `function` leaves the board as it was."""
    placed = marks_placed(position, after)
    was = "was" if len(placed) == 1 else "were"
    left = f"the {marks_at(placed, 'mark')} left on it {was} placed by {by}, which" if placed else by
    return (
        f"{function}'s board changed, but by your {by}: {left} changes the board it is given (with a right {by} put "
        f"in place of yours, {function} leaves the board as it was). In {by}, {UNDO.get(by, 'work on a copy')}; "
        f"{function} needs no change for this"
    )


def marks_at(placed: list[int], mark: str = "a mark") -> str:
    """The cells `placed` (0 to 8) in words: "a mark at (0, 0)", "marks at (0, 0), (2, 1)"."""
    where = ", ".join(str(divmod(n, 3)) for n in placed)
    return f"{mark} at {where}" if len(placed) == 1 else f"marks at {where}"


def marks_placed(position: str, after: str) -> list[int]:
    """The cells that were empty in `position` and hold a mark `after`, when no other cell changed."""
    if not position or not after:
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


def starved(reply: dict) -> bool:
    """Whether a call that ran over was stopped by the wall clock while it waited for a processor
    more than it did anything else: a machine so busy that the call hardly ran."""
    limit = reply["timeout"]
    cpu, wall, queued = reply.get("cpu", limit), reply.get("wall", limit), reply.get("queued", 0)
    return cpu < limit and queued >= (wall - cpu) / 2


def ran_over(reply: dict) -> str:
    """Why a call that ran over its limit did: what it used up, and what the student's code
    was doing when it was stopped. Its figures measured on this machine are `measured_words`."""
    call, limit, cpu = reply.get("call", "it"), reply["timeout"], reply.get("cpu", reply["timeout"])
    if starved(reply):
        return f"{call} hardly ran: it waited for a processor most of the time (a busy machine); grade again later"
    if cpu < limit:  # stopped by the wall clock, asleep
        used = f"{cpu:.1f} s" if cpu >= 0.1 else "under 0.1 s"
        asleep = reply.get("asleep_limit", reply.get("wall", limit))  # the bound it reached, not when it was seen
        return f"{call} used only {used} of processor time in {asleep:g} s: is it waiting (sleep, a lock)?"
    took = f"{call} took over {limit:g} s of processor time on this board"
    depth = reply.get("depth", 0)
    if depth >= DEEP:
        return (
            f"{took}: it was {depth} calls deep in its search when stopped, a search that would finish but too "
            "slowly: memoize or prune (alpha-beta); --call-seconds gives it longer"
        )
    return f"{took}, and was not deep in a search when stopped: a loop that never ends?"


def measured_words(reply: dict) -> str:
    """What was measured beside a call that ran over: on a busy machine, how little it ran; for
    minimax, what a textbook minimax takes here (its limit's yardstick, which the load moves)."""
    if starved(reply):
        cpu, wall, queued = reply.get("cpu", 0), reply.get("wall", 0), reply.get("queued", 0)
        return f"it used {cpu:.1f} s of processor time in {wall:g} s, and waited {queued:g} s for a processor"
    if reply.get("call") == "minimax" and reply.get("textbook"):
        textbook = f"{reply['textbook']:.0f} s"
        return f"a textbook minimax, without memo, takes about {textbook} on the empty board on this machine"
    return ""


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
