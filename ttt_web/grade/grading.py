"""The grading run: every planned check, in order, against the student's process, with the
calls that run over and the time bound kept from hiding the failures already found."""

from __future__ import annotations

import contextlib
import sys
import time
from collections import Counter
from itertools import groupby

from ..core.costs import tree_size
from .checks import Check
from .fixes import carried_state, fixes_found
from .patterns import CHANGED
from .report import Failure, Tally
from .runner import LoadError, Student
from .text import table_line
from .wrong import TIMEOUT

FORESEE_AT = 6  # empty cells: at minimax's first board with this many, the time left is foreseen
FORESEE_SECONDS = 15  # and said, when it is more than this (wall-clock, at the load so far)
PIPELINED = 64  # calls of a cheap function sent at once
PIPELINED_MINIMAX = 16  # of minimax
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
        self.failed: dict[str, list[Check]] = {}  # the checks failed, calls that ran over aside
        self.before: dict[str, str] = {}  # minimax's board: the board of its call just before
        self.minimax_left = [c.position for c in plan if c.function == "minimax"]
        self.foreseen = ""  # what was said of the time minimax's checks will take
        self.last_board = ""
        self.deadline = time.monotonic() + total_seconds

    def check_many(self, chunk: list[Check], waiting) -> int:
        """Checks of one function, sent together: how many were made or skipped (one at a time
        when the run is out of time or has given up on the function). Raises LoadError when
        the file no longer loads."""
        function = chunk[0].function
        if time.monotonic() > self.deadline:
            self.tallies[function].why_unchecked = f"time ran out: the whole run is bounded to {self.total_seconds:g} s"
            return 1
        if self.gave_up(function):
            return 1
        seconds = limit(self.student, function)
        if function == "minimax" and not self.foreseen and chunk[0].position.count(".") >= FORESEE_AT:
            self.foresee(seconds)
        replies = self.student.calls([(c.function, c.position, c.action) for c in chunk], seconds, waiting)
        for check, reply in zip(chunk, replies, strict=False):
            if not self.gave_up(function):  # a call that one at a time would not have been made
                self.judged(check, reply, seconds)
        return len(replies)

    def judged(self, check: Check, reply: dict, seconds: float) -> None:
        """The reply to `check` recorded, and a call that ran over or broke counted."""
        tally = self.tallies[check.function]
        self.record(tally, check, reply)
        if "timeout" in reply:
            self.ran_over(tally, seconds)
        if "crashed" in reply or "invalid" in reply:
            self.broken[tally.name] += 1
            what = "ended the process" if "crashed" in reply else "broke the reply channel"
            tally.why_unchecked = f"gave up after {self.broken[tally.name]} calls {what}"

    def foresee(self, seconds: float) -> None:
        """The processor time minimax's checks left will take at its pace so far (per node of
        the game tree below the boards checked, as a search without memo visits them), said on
        stderr up front when it is long, with the wall-clock time at the machine's load so far.
        A minimax with a memo goes faster than this."""
        tally = self.tallies["minimax"]
        done, left = self.minimax_left[: tally.checked], self.minimax_left[tally.checked :]
        foreseen = tally.cpu_seconds / max(1, sum(map(tree_size, done))) * sum(map(tree_size, left))
        stretch = max(1.0, tally.seconds / tally.cpu_seconds) if tally.cpu_seconds else 1.0
        self.foreseen = f"{foreseen:.1f}"
        if foreseen * stretch > FORESEE_SECONDS:
            wall = foreseen * stretch
            wall_said = f"{wall / 60:.0f} min" if wall >= 120 else f"{wall:.0f} s"
            print(
                f"\nminimax is slow: it used {tally.cpu_seconds:.1f} s of processor time on the {len(done):,} boards "
                f"with the most marks, and at that pace the other {len(left):,} will take about {foreseen:.0f} s "
                f"more, about {wall_said} at this machine's load (each call up to {seconds:g} "
                "s; a memo or alpha-beta makes it faster; --only minimax checks minimax alone).",
                file=sys.stderr,
                flush=True,
            )

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
        self.note_failed(check, wrong)
        if check.function == "minimax":  # an answer on a board it changed is no evidence of how it chooses
            self.before[check.position], self.last_board = self.last_board, check.position
            self.choices[check.position] = CHANGED if reply.get("changed") else move
            if wrong:
                self.failing.add(check.position)

    def note_failed(self, check: Check, wrong) -> None:
        if wrong is not None and wrong.kind != TIMEOUT:  # a call that ran over is no failure
            self.failed.setdefault(check.function, []).append(check)

    def ran_over(self, tally: Tally, seconds: float) -> None:
        self.timeouts[tally.name] += 1
        count = self.timeouts[tally.name]
        later = ": later positions have more empty cells" if tally.name == "minimax" else ""
        calls = "a call" if count == 1 else f"{count} calls"
        tally.why_unchecked = f"gave up after {calls} ran over {seconds:g} s{later}"


def made(state: Run, checks_: list[Check], bar) -> None:
    """One function's checks, PIPELINED at a time (minimax's fewer), with no round trip between
    the calls, each under its own limit. minimax's first board with FORESEE_AT empty cells
    starts a batch, for the time left to be foreseen there."""
    minimax = checks_[0].function == "minimax"
    at_most = PIPELINED_MINIMAX if minimax else PIPELINED
    turn = next((n for n, c in enumerate(checks_) if c.position.count(".") >= FORESEE_AT), len(checks_))
    done = 0
    while done < len(checks_):
        end = min(done + at_most, turn if minimax and done < turn else len(checks_))
        count = state.check_many(checks_[done:end], bar.refresh)
        done += count
        bar.update(count)


def run(student: Student, plan: list[Check], total_seconds: float, bar, said=None):
    """Every check in `plan` until the bound: the tallies, minimax's answer in each position
    checked, the positions where minimax failed, and the functions to fix first (fixes.py).
    `said`, a stream, gets each function's line of the table as soon as its checks are done."""
    state, fixes = Run(student, plan, total_seconds), []
    try:
        for function, group in groupby(plan, key=lambda check: check.function):
            bar.set_description(function)
            made(state, list(group), bar)
            if said is not None:
                said.write(f"\r{table_line(state.tallies[function])}\n")
    except LoadError as error:
        for tally in state.tallies.values():
            tally.why_unchecked = f"your file no longer loads after a crash: {str(error)[-200:]}"
        return state.tallies, state.choices, state.failing, [], None
    bar.set_description("made again")
    carried = None
    with contextlib.suppress(LoadError):  # nothing said of what was made again
        carried = carried_state(student, state.failed.get("minimax", []), state.before, limit(student, "minimax"))
        fixes = fixes_found(student, state.tallies, state.failed, lambda function: limit(student, function))
    return state.tallies, state.choices, state.failing, fixes, carried
