"""One function's checks shared by the student's processes (one per core, each in its own
sandbox): the checks cut into batches, each process taking the next batch not yet taken,
and the replies handed back batch by batch for the grading run to judge in the plan's order,
so that the report is the one a single process would give.

A process stops early only where a single process would have given up too: on the calls that
ran over, broke or found the function missing in the batches up to its own. The batches after
such a batch, already being made by another process, are abandoned (their replies would not
be judged), and that process is started again. The standard library's pools hand tasks out
but cannot cancel one that is running; here a batch stops between two calls, or within one
when the process is waiting for its reply."""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from .checks import Check
from .runner import STOPPED, Student

GIVE_UP_AFTER = {"minimax": 1}  # calls that run over before the rest of a function is skipped; 3 for the others
GIVE_UP_BROKEN = 3  # calls that end the process or break the reply channel, likewise


def gives_up(function: str, stops: Counter) -> bool:
    """Whether these calls that ran over ("timeout"), broke ("broken") or found the
    function missing ("missing") are enough for the rest of `function`'s checks to be skipped."""
    ran_over = stops["timeout"] >= GIVE_UP_AFTER.get(function, 3)
    return bool(stops["missing"]) or ran_over or stops["broken"] >= GIVE_UP_BROKEN


def stop_of(reply: dict) -> str:
    """What kind of stop a reply is, if it is one."""
    if "timeout" in reply:
        return "timeout"
    if "crashed" in reply or "invalid" in reply:
        return "broken"
    return "missing" if "missing" in reply else ""


class Abandoned(Exception):
    """The batch is no longer wanted: its replies would not be judged."""


@dataclass
class Batch:
    index: int
    checks: list[Check]
    replies: list[dict] = field(default_factory=list)
    before: list[str] = field(default_factory=list)  # per reply, minimax's board of the process's call before
    error: BaseException | None = None  # raised instead of the replies: a LoadError when the file no longer loads
    cost: int = 0  # what it is foreseen to cost (minimax's: nodes of the game trees below its boards)


class Round:
    """One function's batches, handed out to the processes in the plan's order or, `costliest`,
    the costliest first (so that the last one taken does not keep one process busy long after
    the other is done) until a call stops (runs over, say: the plan's order then, in which the
    first stop ends the rest), and handed back done: they are judged in the plan's order."""

    def __init__(
        self, function: str, batches: list[Batch], seconds: float, deadline: float, costliest: bool = False
    ) -> None:
        self.function, self.batches, self.seconds, self.deadline = function, batches, seconds, deadline
        # sorted() keeps the plan's order among equals
        self.order = sorted(batches, key=lambda batch: -batch.cost) if costliest else batches
        self.lock = threading.Lock()
        self.taken: set[int] = set()
        self.finished: queue.Queue[Batch] = queue.Queue()
        self.stops: dict[int, Counter] = {}  # per batch, its stops so far
        self.abandoned = False

    def take(self) -> Batch | None:
        with self.lock:
            order = self.batches if self.stops else self.order
            batch = next((b for b in order if b.index not in self.taken), None)
            if self.abandoned or batch is None:
                return None
            self.taken.add(batch.index)
            return batch

    def noted(self, index: int, reply: dict) -> None:
        if kind := stop_of(reply):
            with self.lock:
                self.stops.setdefault(index, Counter())[kind] += 1

    def halted(self, index: int) -> bool:
        """Whether the stops in the batches up to `index` make the function given up there."""
        with self.lock:
            counts = sum((c for i, c in self.stops.items() if i <= index), Counter())
        return gives_up(self.function, counts)

    def waiting(self, index: int) -> None:
        """While batch `index` waits for a reply: stop it when it is no longer wanted."""
        if self.abandoned or self.halted(index - 1):
            raise Abandoned


class Worker:
    """One student's process, making one batch at a time, in a thread that lasts the whole run:
    a process started again by this thread is ended by Linux when the thread ends (the process's
    parent-death signal follows the thread that started it)."""

    def __init__(self, student: Student) -> None:
        self.student = student
        self.last = ""  # minimax's board of the process's last call ("" after a start)
        self.stale = False  # abandoned mid-batch: its reply channel is out of step
        self.rounds: queue.Queue[Round | None] = queue.Queue()
        self.idle = threading.Event()
        self.idle.set()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        while (round_ := self.rounds.get()) is not None:
            try:
                self.work(round_)
            finally:
                self.idle.set()

    def given(self, round_: Round) -> None:
        self.idle.clear()
        self.rounds.put(round_)

    def stop(self) -> None:
        """The thread ended, and with it (Linux) any process it started."""
        self.rounds.put(None)
        self.thread.join()

    def work(self, round_: Round) -> None:
        while (batch := round_.take()) is not None:
            try:
                if self.stale:
                    self.stale, self.last = False, ""
                    self.student.restart()
                self.made(batch, round_)
            except Abandoned:
                self.stale = True
            except BaseException as error:  # the file no longer loads (LoadError), or a fault: raised where judged
                batch.error = error
            round_.finished.put(batch)
            if batch.error:
                return  # the process is gone

    def made(self, batch: Batch, round_: Round) -> None:
        """The batch's calls, sent together, and sent again after a call that stopped the
        process; until all are made, the function is given up here, or the run is out of time."""
        while len(batch.replies) < len(batch.checks):
            if round_.halted(batch.index) or time.monotonic() > round_.deadline:
                return
            rest = batch.checks[len(batch.replies) :]
            made = [(c.function, c.position, c.action) for c in rest]
            replies = self.student.calls(made, round_.seconds, lambda: round_.waiting(batch.index))
            for check, reply in zip(rest, replies, strict=False):
                batch.replies.append(reply)
                batch.before.append(self.last)
                self.last = "" if STOPPED & reply.keys() else check.position if check.function == "minimax" else ""
                round_.noted(batch.index, reply)


@contextlib.contextmanager
def working(workers: list[Worker], round_: Round) -> Iterator[None]:
    """The workers at work on the round, each in its thread, until the block ends; then the
    batches not yet made are abandoned, and the workers are idle again."""
    for worker in workers:
        worker.given(round_)
    try:
        yield
    finally:
        round_.abandoned = True
        for worker in workers:
            worker.idle.wait()


def in_order(round_: Round, refresh: Callable[[], object]) -> Iterator[Batch]:
    """The round's batches as they are made, in the plan's order; `refresh` called while waiting."""
    arrived: dict[int, Batch] = {}
    for index in range(len(round_.batches)):
        while index not in arrived:
            try:
                batch = round_.finished.get(timeout=0.25)
                arrived[batch.index] = batch
            except queue.Empty:
                refresh()
        yield arrived.pop(index)
