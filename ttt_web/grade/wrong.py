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
CALL_FAILURES = frozenset(
    {MISSING, TIMEOUT, NOT_WRITTEN, "crashes", "broken replies", "exceptions", "changed the board"}
)


def failed(reply: dict, expected: str = "an answer") -> Wrong | None:
    """What went wrong with the call itself, whatever the function."""
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
        why = "it changed the board it was given"
        became = reply.get("became")
        got = f"the board changed to {shown(became)}" if is_board(became) else "the board changed"
        return Wrong("the board given left as it was", got, why, "changed the board")
    return None


def raised(reply: dict, expected: str) -> Wrong:
    """The exception the call raised, by name, and its message when it has one."""
    name, message, where = reply["raised"], reply["message"], tuple(reply.get("where") or ())
    if name == "NotImplementedError":
        return Wrong(expected, name, "it is not written yet", NOT_WRITTEN, where)
    return Wrong(expected, f"{name}: {message}" if message else name, "it raised an exception", "exceptions", where)


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
        took += f" (a textbook minimax takes about {reply['textbook']:.0f} s here)"
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
