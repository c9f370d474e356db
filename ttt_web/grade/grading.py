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
from .fixes import board_changer, carried_state, fixes_found
from .patterns import CHANGED
from .report import Failure, Tally
from .runner import LoadError, Student
from .text import again_alone, again_fixed, table_line
from .workers import GIVE_UP_AFTER, GIVE_UP_BROKEN, Batch, Round, Worker, in_order, working
from .wrong import TIMEOUT

FORESEE_AT = 6  # empty cells: at minimax's first board with this many, the time left is foreseen
FORESEE_SECONDS = 15  # and said, when it is more than this (wall-clock, at the load so far)
FORESEE_AFTER = 10  # s of minimax's processor time: if it reaches no such board by then, foreseen then
PIPELINED = 64  # calls of a cheap function sent at once
PIPELINED_MINIMAX = 16  # of minimax
BATCH_NODES = 20_000  # of minimax, the boards sent at once hold at most this many nodes of the game tree (or one board)
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

    def __init__(self, students: list[Student], plan: list[Check], total_seconds: float) -> None:
        self.student, self.total_seconds = students[0], total_seconds
        self.workers = [Worker(student) for student in students]
        self.tallies = {function: Tally(function) for function in dict.fromkeys(c.function for c in plan)}
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
        self.minimax_started = 0.0
        self.deadline = time.monotonic() + total_seconds

    def made(self, checks_: list[Check], bar) -> None:
        """Checks of one function, in batches shared by the student's processes, judged in
        order; the batches after the run gave up on the function are not made (nor judged)."""
        function = checks_[0].function
        if self.time_up(function) or self.gave_up(function):
            bar.update(len(checks_))
            return
        seconds = limit(self.student, function)
        if function == "minimax" and not self.foreseen and checks_[0].position.count(".") >= FORESEE_AT:
            self.foresee(seconds)
        self.minimax_started = self.minimax_started or (time.monotonic() if function == "minimax" else 0.0)
        costliest = function == "minimax" and self.within(checks_, seconds)
        self.made_together(Round(function, batches_of(checks_), seconds, self.deadline, costliest), bar)

    def within(self, checks_: list[Check], seconds: float) -> bool:
        """Whether minimax's boards with FORESEE_AT empty cells or more are foreseen to take less
        than their limit each, at its pace so far per node of the game tree."""
        tally = self.tallies["minimax"]
        if checks_[0].position.count(".") < FORESEE_AT or not tally.checked:
            return False
        pace = tally.cpu_seconds / max(1, sum(map(tree_size, self.minimax_left[: tally.checked])))
        return pace * max(tree_size(check.position) for check in checks_) < seconds

    def made_together(self, round_: Round, bar) -> None:
        """The round's batches made by the processes side by side, and judged in order."""
        with working(self.workers, round_):
            for batch in in_order(round_, lambda: bar.made(round_.batches)):  # the bar moves as calls are made
                self.judged_batch(batch, round_.seconds)
                bar.update(len(batch.checks))
                self.foresee_early(round_.function, round_.seconds)
                if self.gave_up(round_.function):
                    bar.update(sum(len(b.checks) for b in round_.batches[batch.index + 1 :]))
                    return

    def time_up(self, function: str) -> bool:
        if time.monotonic() <= self.deadline:
            return False
        self.tallies[function].why_unchecked = f"time ran out: the whole run is bounded to {self.total_seconds:g} s"
        return True

    def judged_batch(self, batch: Batch, seconds: float) -> None:
        """A batch's replies judged, in order, until the run gives up on the function. Raises
        LoadError when the file no longer loaded."""
        if batch.error:
            raise batch.error
        function = batch.checks[0].function
        for check, reply, before in zip(batch.checks, batch.replies, batch.before, strict=False):
            if self.gave_up(function):  # a call that one at a time would not have been made
                return
            self.judged(check, reply, seconds)
            if function == "minimax":
                self.before[check.position] = before
        if len(batch.replies) < len(batch.checks) and not self.gave_up(function):
            self.time_up(function)  # the only other reason a batch is cut short

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
        wall = foreseen * stretch / len(self.workers)  # the processes search side by side
        if wall > FORESEE_SECONDS:
            wall_said = in_words(wall)
            print(
                f"\nminimax is slow: it used {tally.cpu_seconds:.1f} s of processor time on the {len(done):,} boards "
                f"with the most marks, and at that pace the other {len(left):,} will take about {foreseen:.0f} s "
                f"more, about {wall_said} at this machine's load{side_by_side(len(self.workers))} (each call up to "
                f"{seconds:g} s; a memo or alpha-beta makes it faster; --only minimax checks minimax alone).",
                file=sys.stderr,
                flush=True,
            )

    def foresee_early(self, function: str, seconds: float) -> None:
        """When minimax has used FORESEE_AFTER s of processor time before its first board with
        FORESEE_AT empty cells: the time left, said on stderr as a range, from its pace per
        board (as if each board took as long as those done) to its pace per node of the game
        tree (as a search without memo visits them), each call at most its limit."""
        if function != "minimax" or self.foreseen or self.gave_up(function):
            return
        tally, elapsed = self.tallies["minimax"], time.monotonic() - self.minimax_started
        if tally.cpu_seconds < FORESEE_AFTER:
            return
        done, left = self.minimax_left[: tally.checked], self.minimax_left[tally.checked :]
        per_board = tally.cpu_seconds / max(1, len(done)) * len(left)
        per_node = tally.cpu_seconds / max(1, sum(map(tree_size, done))) * sum(map(tree_size, left))
        low, high = sorted((per_board, min(per_node, seconds * len(left))))
        self.foreseen = f"{low:.1f}-{high:.1f}"
        stretch = max(1.0, tally.seconds / tally.cpu_seconds) if tally.cpu_seconds else 1.0
        walls = [cpu * stretch / len(self.workers) for cpu in (low, high)]
        print(
            early_text(
                elapsed, tally.cpu_seconds, (len(done), len(left)), (low, high), walls, seconds, len(self.workers)
            ),
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


def batches_of(checks_: list[Check]) -> list[Batch]:
    """The checks cut into batches of PIPELINED (minimax's: at most PIPELINED_MINIMAX, and
    boards whose game trees hold BATCH_NODES in all, so that the long calls are shared)."""
    minimax = checks_[0].function == "minimax"
    at_most = PIPELINED_MINIMAX if minimax else PIPELINED
    batches: list[Batch] = [Batch(0, [])]
    for check in checks_:
        size = tree_size(check.position) if minimax else 0
        last = batches[-1]
        if len(last.checks) == at_most or (last.checks and last.cost + size > BATCH_NODES):
            last = Batch(len(batches), [])
            batches.append(last)
        last.checks.append(check)
        last.cost += size
    return batches


def in_words(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds >= 120 else f"{seconds:.0f} s"


def early_text(
    elapsed: float, cpu: float, boards: tuple, cpus: tuple, walls: list, limit_: float, processes: int
) -> str:
    """What foresee_early says: `boards`, those done and those left; `cpus` and `walls`, the
    least and the most time the rest will take."""
    return (
        f"\nminimax is slow: in {elapsed:.0f} s it used {cpu:.1f} s of processor time on the {boards[0]:,} boards "
        f"with the most marks. The other {boards[1]:,} will take between {cpus[0]:.0f} s (at its pace per board) and "
        f"{cpus[1]:.0f} s (at its pace per position of the game tree below each board, as a search without memo "
        f"visits them) of processor time more, between {in_words(walls[0])} and {in_words(walls[1])} at this "
        f"machine's load{side_by_side(processes)} (each call up to {limit_:g} s; a memo or alpha-beta makes it "
        "faster; --only minimax checks minimax alone)."
    )


def side_by_side(processes: int) -> str:
    return f" with {processes} processes of your file searching side by side" if processes > 1 else ""


def made(state: Run, checks_: list[Check], bar) -> None:
    """One function's checks, PIPELINED at a time (minimax's fewer) with no round trip between
    the calls, each under its own limit. minimax's boards with FORESEE_AT empty cells wait until
    those before them are judged, for the time left to be foreseen there."""
    turn = next((n for n, c in enumerate(checks_) if c.position.count(".") >= FORESEE_AT), len(checks_))
    if checks_[0].function != "minimax" or turn in (0, len(checks_)):
        state.made(checks_, bar)
        return
    state.made(checks_[:turn], bar)
    state.made(checks_[turn:], bar)


def run(student: Student, plan: list[Check], total_seconds: float, bar, said=None, helpers: tuple = ()):
    """Every check in `plan` until the bound: the tallies, minimax's answer in each position
    checked, the positions where minimax failed, and the functions to fix first (fixes.py).
    `said`, a stream, gets each function's line of the table as soon as its checks are done.
    `helpers`, more processes of the same file, share the checks with `student`'s."""
    state = Run([student, *helpers], plan, total_seconds)
    try:
        return finished_run(state, plan, bar, said)
    finally:
        for worker in state.workers:  # after the checks made again: `student` may have been started by one
            worker.stop()


def finished_run(state: Run, plan: list[Check], bar, said):
    """run()'s work, with the workers' threads alive."""
    student, fixes = state.student, []
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
    carried = None
    with contextlib.suppress(LoadError):  # nothing said of what was made again
        bar.set_description(again_alone(state.failed.get("minimax", [])))
        carried = carried_state(student, state.failed.get("minimax", []), state.before, limit(student, "minimax"))
        bar.set_description(again_fixed(state.tallies, state.failed))
        fixes = fixes_found(student, state.tallies, state.failed, lambda function: limit(student, function))
        changed = [c for c in state.failed.get("minimax", []) if state.choices.get(c.position) == CHANGED]
        if by := board_changer(student, state.tallies, changed, limit(student, "minimax")):
            state.tallies["minimax"].changed_by(by)
    return state.tallies, state.choices, state.failing, fixes, carried
