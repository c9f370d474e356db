"""The grader's report: a table of the functions, then the first positions each one gets
wrong, drawn, with what was expected, what came back, why, and a link to the explorer."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.costs import over, to_move
from .checks import Action, Wrong
from .patterns import Pattern

KEPT = 5  # failures kept per function, the first met (positions with the fewest marks first)
SHOWN = 3  # of those, shown in the text report


@dataclass(frozen=True)
class Failure:
    position: str
    action: Action | None
    wrong: Wrong


@dataclass
class Tally:
    name: str
    checked: int = 0
    passed: int = 0
    unchecked: int = 0
    failures: list[Failure] = field(default_factory=list)

    def record(self, failure: Failure | None) -> None:
        self.checked, self.unchecked = self.checked + 1, self.unchecked - 1
        if failure is None:
            self.passed += 1
        elif len(self.failures) < KEPT:
            self.failures.append(failure)

    @property
    def status(self) -> str:
        if self.unchecked:
            return f"{self.unchecked:,} not checked (time ran out)"
        return "ok" if self.passed == self.checked else f"FAILED in {self.checked - self.passed:,}"


def explorer(base_url: str, position: str) -> str:
    return f"{base_url.rstrip('/')}/explore/{position}"


def drawn_board(position: str) -> list[str]:
    """The board with the row and column numbers (i, j) of the assignment."""
    rows = [f"   {i}  " + " ".join(position[3 * i : 3 * i + 3]) for i in range(3)]
    return ["      0 1 2", *rows]


def called(tally: Tally, failure: Failure) -> str:
    args = "board" if failure.action is None else f"board, {failure.action}"
    whose = "game over" if over(failure.position) else f"{to_move(failure.position)} to move"
    return f"{tally.name}({args}), {whose}:"


def text_report(path: str, tallies: dict[str, Tally], patterns: list[Pattern], base_url: str) -> str:
    lines = [f"Grading {path} against every reachable position of tic-tac-toe.", ""]
    lines.append(f"  {'function':<10} {'passed':>7} / {'checked':<7}")
    lines += [f"  {t.name:<10} {t.passed:>7,} / {t.checked:<7,} {t.status}" for t in tallies.values()]
    for tally in (t for t in tallies.values() if t.failures):
        lines += ["", f"{tally.name}: the first positions it gets wrong", ""]
        for failure in tally.failures[:SHOWN]:
            lines += [f"  {called(tally, failure)}", *(f"  {row}" for row in drawn_board(failure.position))]
            lines += [f"    expected  {failure.wrong.expected}", f"    got       {failure.wrong.got}"]
            lines += [f"    why       {failure.wrong.why}"] if failure.wrong.why else []
            lines += [f"    explore   {explorer(base_url, failure.position)}", ""]
    for pattern in patterns:
        kind = "This looks like a known bug" if pattern.failure else "A note (not a failure)"
        lines += ["", f"{kind}: {pattern.name}", f"  {pattern.text}"]
        lines += [f"  for example {explorer(base_url, p)}" for p in pattern.examples]
        lines += [f"  the bug, shown: {base_url.rstrip('/')}/explore/bugs"]
    failing = [t.name for t in tallies.values() if t.status != "ok"]
    verdict = "All checks passed." if not failing else f"Not passed: {', '.join(failing)}."
    if len(failing) > 1:
        verdict += f" Fix {failing[0]} first: the functions after it may fail only because they call it."
    return "\n".join([*lines, "", verdict])


def to_json(path: str, tallies: dict[str, Tally], patterns: list[Pattern], base_url: str) -> dict:
    def failure(f: Failure) -> dict:
        action = list(f.action) if f.action else None
        wrong = {"expected": f.wrong.expected, "got": f.wrong.got, "why": f.wrong.why}
        return {"position": f.position, "action": action, **wrong, "explore": explorer(base_url, f.position)}

    functions = {
        t.name: {
            "checked": t.checked,
            "passed": t.passed,
            "unchecked": t.unchecked,
            "failures": [*map(failure, t.failures)],
        }
        for t in tallies.values()
    }
    found = [
        {"name": p.name, "failure": p.failure, "text": p.text, "examples": [explorer(base_url, e) for e in p.examples]}
        for p in patterns
    ]
    failing = [t.name for t in tallies.values() if t.status != "ok"]
    fix_first = failing[0] if failing else None
    return {"file": path, "passed": not failing, "fix_first": fix_first, "functions": functions, "patterns": found}
