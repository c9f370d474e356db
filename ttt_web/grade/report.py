"""What the grader found, function by function: how many checks passed, the failures by
kind with the first of each kind kept, the calls that ran over, what was not checked and
why, and how long the student's code took."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..core.position import over, to_move
from .wrong import (
    CALL_FAILURES,
    CHANGED_BOARD,
    EXCEPTIONS,
    MISSING,
    NOT_WRITTEN,
    TIMEOUT,
    Action,
    Wrong,
    changed_by_words,
    counted,
)

KEPT = 3  # failures kept per kind of failure, the first met
CALLERS = {  # which functions a CS50 solution builds on each one
    "player": ("result", "minimax"),
    "actions": ("minimax",),
    "result": ("minimax",),
    "winner": ("terminal", "utility", "minimax"),
    "terminal": ("minimax",),
    "utility": ("minimax",),
    "minimax": (),
}


def depending_on(name: str) -> set[str]:
    """The functions that call `name`, directly or through another function."""
    found, frontier = set(), set(CALLERS[name])
    while frontier:
        found |= frontier
        frontier = {caller for f in frontier for caller in CALLERS[f]} - found
    return found


def shape(message: str) -> str:
    """An exception's name and message with its numbers left out, so that "(0, 1)" and "(2, 2)"
    read as one message."""
    return re.sub(r"\d+", "N", message)[:160]


def place(where: tuple) -> str:
    """The line of the student's file an exception came from: file:line, in function."""
    if not where or not isinstance(where[-1], dict):
        return "outside your file"
    frame = where[-1]
    return f"{frame.get('file')}:{frame.get('line')}, in {frame.get('function')}"


@dataclass(frozen=True)
class Failure:
    position: str
    action: Action | None
    wrong: Wrong
    move: object = None  # minimax's answer: (i, j), None, or "other"


@dataclass
class Tally:
    name: str
    found: str = ""  # the name the function was found under, when not its own ("score")
    checked: int = 0
    passed: int = 0
    unchecked: int = 0
    why_unchecked: str = ""
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # of the seconds, those the student's process computed
    queued_seconds: float = 0.0  # of the seconds, those it was ready to compute but waited for a processor
    busiest: tuple = ()  # minimax's call that called one function most: (times, the function, position)
    kinds: Counter = field(default_factory=Counter)
    movers: Counter = field(default_factory=Counter)  # who was to move where it answered wrong ("" when over)
    failures: list[Failure] = field(default_factory=list)
    parts: dict[str, list[int]] = field(default_factory=dict)  # checks passed and made, per part (result's)
    exceptions: Counter = field(default_factory=Counter)  # (exception, its message's shape, where): times

    @property
    def missing(self) -> bool:
        return bool(self.kinds[MISSING])

    @property
    def unwritten(self) -> bool:
        """Every check failed on a NotImplementedError raised in the function itself."""
        return (
            bool(self.checked)
            and self.kinds[NOT_WRITTEN] == self.checked
            and not self.passed
            and all(self.raised_here(f) for f in self.failures)
        )

    def raised_here(self, failure: Failure) -> bool:
        frames = failure.wrong.where
        return not frames or frames[-1].get("function") in {self.name, self.label}

    def record(self, failure: Failure | None, part: str = "") -> None:
        self.checked, self.unchecked = self.checked + 1, self.unchecked - 1
        if part:
            counts = self.parts.setdefault(part, [0, 0])
            counts[0] += failure is None
            counts[1] += 1
        if failure is None:
            self.passed += 1
            return
        self.kinds[failure.wrong.kind] += 1
        if failure.wrong.kind == EXCEPTIONS:
            self.exceptions[(shape(failure.wrong.got), place(failure.wrong.where))] += 1
        if failure.wrong.kind not in CALL_FAILURES:  # an answer that is wrong, not a call
            self.movers["" if over(failure.position) else to_move(failure.position)] += 1
        if self.kinds[failure.wrong.kind] <= KEPT:
            self.failures.append(failure)

    def changed_by(self, name: str) -> None:
        """The failures where the board given changed, said to be `name`'s doing: with a right
        `name` put in place of the student's, the board was left as it was (fixes.board_changer);
        and the exceptions raised after the board had changed, said to follow from it."""

        def said(f: Failure) -> Failure:
            if f.wrong.kind == EXCEPTIONS and f.wrong.changed:
                why = f"{f.wrong.why} (the board had been changed by your {name} earlier in the same search)"
                return replace(f, wrong=replace(f.wrong, why=why))
            why = changed_by_words(f.position, f.wrong.became, self.name, name)
            return replace(f, wrong=replace(f.wrong, why=why)) if f.wrong.kind == CHANGED_BOARD else f

        self.failures = [said(f) for f in self.failures]

    @property
    def failed(self) -> int:
        """Checks failed, calls that ran over the time limit aside."""
        return self.checked - self.passed - self.kinds[TIMEOUT]

    @property
    def ok(self) -> bool:
        return self.passed == self.checked and not self.unchecked

    @property
    def status(self) -> str:
        if self.missing:
            return f"MISSING: your file has no function named {self.name}"
        if self.unwritten:
            return "not written yet (raises NotImplementedError)"
        parts = [f"FAILED in {self.failed:,}"] if self.failed else []
        if self.kinds[TIMEOUT]:
            count = self.kinds[TIMEOUT]
            parts.append(
                f"{counted(count, 'call')} ran over the time limit ({'not failures' if count > 1 else 'not a failure'})"
            )
        if self.unchecked:
            parts.append(f"{self.unchecked:,} not checked ({self.why_unchecked or 'time ran out'})")
        return "; ".join(parts) or "ok"

    @property
    def label(self) -> str:
        return self.found or self.name


def explorer(site: str, position: str, move: object = "") -> str:
    """The explorer's page of `position`, with minimax's answer marked when there is one."""
    url = f"{site.rstrip('/')}/explore/{position}"
    if move is None:
        return url + "?student=none"
    if isinstance(move, tuple):
        return url + f"?student={move[0]},{move[1]}"
    return url


def function_json(t: Tally, site: str) -> dict:
    """One function's findings, as --json gives them."""

    def failure(f: Failure) -> dict:
        action = list(f.action) if f.action else None
        wrong = {"expected": f.wrong.expected, "got": f.wrong.got, "why": f.wrong.why, "kind": f.wrong.kind}
        where = {"where": list(f.wrong.where)} if f.wrong.where else {}
        measured = {"measured": f.wrong.measured} if f.wrong.measured else {}
        return {"position": f.position, "action": action, **wrong, **where, **measured, "explore": link(site, f)}

    return {
        "found_as": t.found or t.name,
        "checked": t.checked,
        "passed": t.passed,
        "failed": t.failed,
        "ran_over": t.kinds[TIMEOUT],
        "unchecked": t.unchecked,
        "why_unchecked": t.why_unchecked if t.unchecked else "",
        "seconds": round(t.seconds, 3),
        "cpu_seconds": round(t.cpu_seconds, 3),
        "kinds": dict(t.kinds),
        "parts": {part: {"passed": passed, "checked": made} for part, (passed, made) in t.parts.items()},
        "failures": [*map(failure, t.failures)],
        "exceptions": [{"exception": name, "at": at, "count": n} for (name, at), n in t.exceptions.most_common()],
    }


def to_json(path: str, tallies: dict[str, Tally], patterns: list, site: str, fixes: Sequence = ()) -> dict:
    functions = {t.name: function_json(t, site) for t in tallies.values()}
    found = [
        {
            "name": p.name,
            "failure": p.failure,
            "text": p.text,
            "examples": [explorer(site, e, m) for e, m in p.examples],
        }
        for p in patterns
    ]
    passed = all(t.ok for t in tallies.values())
    return {
        "file": path,
        "loaded": True,
        "passed": passed,
        "fix_first": fixes[0].name if fixes else None,
        "fixes": [
            {"function": f.name, "callers": list(f.callers), "remade": f.remade, "failed": f.failed} for f in fixes
        ],
        "functions": functions,
        "patterns": found,
    }


def link(site: str, failure: Failure) -> str:
    """The explorer's page of the failure's position; minimax's answer is marked there only
    when the answer itself is the failure (the explorer would call a move optimal that was
    returned on a board minimax changed)."""
    marked = failure.move != "other" and failure.wrong.kind != "changed the board"
    return explorer(site, failure.position, failure.move if marked else "")
