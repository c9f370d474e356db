"""The grading run: every planned check, in order, against the student's process, with the
calls that run over and the time bound kept from hiding the failures already found."""

from __future__ import annotations

import time
from collections import Counter
from itertools import groupby

from .checks import Check
from .patterns import CHANGED
from .report import Failure, Tally
from .runner import LoadError, Student
from .text import table_line

GIVE_UP_AFTER = {"minimax": 1}  # calls that run over before the rest of a function is skipped; 3 for the others
GIVE_UP_BROKEN = 3  # calls that end the process or break the reply channel, likewise
CHEAP_SHARE = 5  # the cheap functions' time limit is the call limit divided by this (1 s at least)


def limit(student: Student, function: str) -> float:
    if function == "minimax":
        return student.call_seconds
    return min(student.call_seconds, max(1.0, student.call_seconds / CHEAP_SHARE))


def number(value: object) -> float:
    """A number from the reply, 0 when it is not one."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def move_of(reply: dict) -> object:
    """minimax's answer: (i, j), None, "raised" or "other"."""
    if "raised" in reply:
        return "raised"
    got = reply.get("got", "other")
    if isinstance(got, list) and len(got) == 2 and all(type(n) is int for n in got):
        return tuple(got)
    return None if got is None and "got" in reply else "other"


class Run:
    """One grading run's state: the tallies, minimax's answer in each position checked, the
    positions where minimax failed (the tallies keep only the first few), and the calls
    that ran over, per function."""

    def __init__(self, student: Student, plan: list[Check], total_seconds: float) -> None:
        self.student, self.total_seconds = student, total_seconds
        self.tallies = {check.function: Tally(check.function) for check in plan}
        for check in plan:
            self.tallies[check.function].unchecked += 1
        self.timeouts: Counter[str] = Counter()  # by function
        self.broken: Counter[str] = Counter()  # by function
        self.choices: dict[str, object] = {}  # minimax's answer, by position
        self.failing: set[str] = set()  # the positions where minimax's answer fails
        self.deadline = time.monotonic() + total_seconds

    def check(self, check: Check, waiting) -> None:
        """Make one check, unless the run is out of time or has given up on the function.
        Raises LoadError when the file no longer loads."""
        tally = self.tallies[check.function]
        if time.monotonic() > self.deadline:
            tally.why_unchecked = f"time ran out: the whole run is bounded to {self.total_seconds:g} s"
            return
        if self.gave_up(check.function):
            return
        seconds = limit(self.student, check.function)
        reply = self.student.call(check.function, check.position, check.action, seconds, waiting)
        self.record(tally, check, reply)
        if "timeout" in reply:
            self.ran_over(tally, seconds)
        if "crashed" in reply or "invalid" in reply:
            self.broken[tally.name] += 1
            what = "ended the process" if "crashed" in reply else "broke the reply channel"
            tally.why_unchecked = f"gave up after {self.broken[tally.name]} calls {what}"

    def gave_up(self, function: str) -> bool:
        if self.tallies[function].missing:  # every other check would say the same
            self.tallies[function].why_unchecked = "the function is missing"
            return True
        ran_over = self.timeouts[function] >= GIVE_UP_AFTER.get(function, 3)
        return ran_over or self.broken[function] >= GIVE_UP_BROKEN

    def record(self, tally: Tally, check: Check, reply: dict) -> None:
        tally.seconds += number(reply.get("seconds", reply.get("wall")))  # a call that ran over says "wall"
        tally.cpu_seconds += number(reply.get("cpu"))
        tally.queued_seconds += number(reply.get("queued"))
        if isinstance(calls := reply.get("calls"), dict) and calls:
            most = max(calls, key=lambda name: number(calls[name]))
            tally.busiest = max(tally.busiest, (number(calls[most]), str(most), check.position))
        if isinstance(reply.get("found"), str):
            tally.found = reply["found"]
        wrong = check.judge(reply)
        move = move_of(reply) if check.function == "minimax" else ""
        tally.record(None if wrong is None else Failure(check.position, check.action, wrong, move), check.part)
        if check.function == "minimax":  # an answer on a board it changed is no evidence of how it chooses
            self.choices[check.position] = CHANGED if reply.get("changed") else move
            if wrong:
                self.failing.add(check.position)

    def ran_over(self, tally: Tally, seconds: float) -> None:
        self.timeouts[tally.name] += 1
        count = self.timeouts[tally.name]
        later = ": later positions have more empty cells" if tally.name == "minimax" else ""
        calls = "a call" if count == 1 else f"{count} calls"
        tally.why_unchecked = f"gave up after {calls} ran over {seconds:g} s{later}"


def run(student: Student, plan: list[Check], total_seconds: float, bar, said=None):
    """Every check in `plan` until the bound: the tallies, minimax's answer in each position
    checked, and the positions where minimax failed. `said`, a stream, gets each
    function's line of the table as soon as its checks are done."""
    state = Run(student, plan, total_seconds)
    try:
        for function, group in groupby(plan, key=lambda check: check.function):
            bar.set_description(function)
            for check in group:
                state.check(check, bar.refresh)
                bar.update()
            if said is not None:
                said.write(f"\r{table_line(state.tallies[function])}\n")
    except LoadError as error:
        for tally in state.tallies.values():
            tally.why_unchecked = f"your file no longer loads after a crash: {str(error)[-200:]}"
    return state.tallies, state.choices, state.failing
