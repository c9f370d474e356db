"""Which function to fix first, found by trying it: a right version of one failing function is
put in place of the student's (child.py's `reference`, in a fresh process), and the checks
that the functions calling it failed are made again. It is named only when they all pass."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .checks import FUNCTIONS, Check
from .patterns import Pattern
from .report import Tally, depending_on
from .runner import Student
from .wrong import CHANGED_BOARD

ALONE = 5  # boards minimax failed, each made again alone in a fresh process
REMADE = 200  # failed checks made again per calling function, spread over all it failed
SECONDS = 30  # of the processor time of the student's code, per function put right, at most
CHEAP = 5  # empty cells, at most, on the boards made again alone (quick calls even for a slow minimax)
CHANGERS = ("result", "player", "actions", "winner", "terminal", "utility")  # what minimax calls on its boards


@dataclass(frozen=True)
class Fix:
    """`name`, put right, makes every check of `callers` made again pass."""

    name: str
    callers: tuple[str, ...]
    remade: int  # the failed checks made again
    failed: int  # of the callers' checks, those that failed
    complete: bool  # every sampled check was made (not cut short by SECONDS)


def spread(items: list, most: int) -> list:
    """At most `most` of `items`, evenly spread, in their order."""
    if len(items) <= most:
        return items
    return [items[k * len(items) // most] for k in range(most)]


def fixes_found(
    student: Student, tallies: dict[str, Tally], failed: dict[str, list[Check]], limit: Callable[[str], float]
) -> list[Fix]:
    """Each failing function that, put right alone, makes the failed checks of every failing
    function that calls it pass. The process is left with the last one put right: the last
    calls of a grading run."""
    found = []
    for name, callers in candidates(tallies, failed):
        student.fresh((name,))
        fix = tried(student, name, callers, failed, limit)
        found += [fix] if fix else []
    return found


def candidates(tallies: dict[str, Tally], failed: dict[str, list[Check]]) -> list[tuple[str, tuple[str, ...]]]:
    """Each failing function, with the failing functions that call it, when there are some."""
    found = []
    for name in (n for n in FUNCTIONS if n in tallies and tallies[n].failed):
        callers = tuple(c for c in FUNCTIONS if c in depending_on(name) and failed.get(c))
        found += [(name, callers)] if callers else []
    return found


def tried(student: Student, name: str, callers: tuple[str, ...], failed: dict[str, list[Check]], limit) -> Fix | None:
    """The Fix, if every remade check of `callers` passes with `name` put right."""
    planned = [check for caller in callers for check in spread(failed[caller], REMADE)]
    spent, remade = 0.0, 0  # the student's processor time, which a busy machine does not shorten
    for check in planned:
        if spent > SECONDS:
            break
        reply = student.call(check.function, check.position, check.action, limit(check.function))
        if check.judge(reply) is not None:
            return None
        spent, remade = spent + processor_time(reply), remade + 1
    total = sum(len(failed[caller]) for caller in callers)
    return Fix(name, callers, remade, total, remade == len(planned)) if remade else None


def board_changer(student: Student, tallies: dict[str, Tally], changed: list[Check], limit: float) -> str | None:
    """The function minimax builds on that changed the boards minimax was given (`changed`,
    its checks that did), found by trying it: with a right version of it put in place of the
    student's, in a fresh process, minimax leaves a sample of those boards as they were. Tried
    for each function that changed the board given in its own checks, or was not checked."""
    sample = spread([c for c in changed if c.position.count(".") <= CHEAP], ALONE) or changed[:ALONE]
    suspects = [n for n in CHANGERS if n not in tallies or tallies[n].kinds[CHANGED_BOARD]] if sample else []
    return next((name for name in suspects if left_alone(student, name, sample, limit)), None)


def left_alone(student: Student, name: str, sample: list[Check], limit: float) -> bool:
    """Whether every check of `sample` leaves its board as it was, with `name` put right."""
    student.fresh((name,))
    replies = [student.call(c.function, c.position, c.action, limit) for c in sample]
    return all(("got" in r or "raised" in r) and not r.get("changed") for r in replies)


def processor_time(reply: dict) -> float:
    """The processor seconds a call took, as its reply says; 0 when it does not say."""
    cpu = reply.get("cpu")
    return cpu if isinstance(cpu, (int, float)) and not isinstance(cpu, bool) else 0.0


def carried_state(student: Student, failed: list[Check], before: dict[str, str], limit: float) -> Pattern | None:
    """When boards minimax failed get a right answer run alone, each in a fresh process, and
    a wrong one again right after the board it was called on before it: its answer depends on
    the calls before it (`before`: the board of the call just before each)."""
    tried_, shown_ = spread([c for c in failed if c.position.count(".") <= CHEAP], ALONE), []
    for check in tried_:
        if right_alone(student, check, limit) and not right_after(student, check, before.get(check.position), limit):
            shown_.append(check.position)
    if not shown_:
        return None
    board, earlier = shown_[0], before[shown_[0]]
    text = (
        f"{len(shown_)} of {len(tried_)} boards minimax failed get a right answer when run alone in a fresh "
        "process, and a wrong one again right after the board the grader called it on before: your minimax "
        "carries state from one call to the next (a cache kept across calls, keyed by less than the whole "
        "board, or holding a bound as if it were a value; a global; a default argument that is a list or "
        f"dict). To see it, call minimax on {earlier} and then on {board} in one run, and on {board} alone: "
        "the answers differ."
    )
    return Pattern("State carried across calls", True, text, tuple((p, "") for p in shown_[:3]), board)


def right_alone(student: Student, check: Check, limit: float) -> bool:
    student.fresh(())
    return check.judge(student.call(check.function, check.position, check.action, limit)) is None


def right_after(student: Student, check: Check, earlier: str | None, limit: float) -> bool:
    """Is minimax right on the check's board right after `earlier`, in a fresh process?"""
    if not earlier:
        return True
    student.fresh(())
    student.call(check.function, earlier, None, limit)
    return check.judge(student.call(check.function, check.position, check.action, limit)) is None
