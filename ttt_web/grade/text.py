"""The grader's report as a student reads it: a table of the functions, then for each
failing one its failures by kind (the first of each drawn, with what was expected, what
came back, why, and a link to the explorer), where an exception was raised, the known bugs
recognised, how long each function took, and what to fix first."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.costs import reachable
from ..core.position import EMPTY_BOARD, over, to_move
from .checks import INVALID, Check
from .fixes import ALONE, CHEAP, candidates, spread
from .patterns import Pattern
from .report import Failure, Tally, explorer, link
from .wrong import TIMEOUT

LOCAL_SITE = "http://127.0.0.1:5000"  # `make run`'s
TABLE_HEAD = f"  {'function':<10} {'passed':>7} / {'checked':<7}"
MUST = {INVALID: " (where result must raise an exception)"}
SHOWN = 3  # failures drawn per function (at least one of each kind)
EXCEPTIONS_SHOWN = 12  # distinct exceptions listed per function
SLOW_SHARE = 0.5  # minimax taking more than this share of the time (and SLOW_SECONDS) earns a hint
SLOW_SECONDS = 10
WAITED = 0.25  # minimax computing (or ready to, on a busy machine) for less than this share of its time waits
REPEATS = 10  # a function called this many times per position reachable: a search that repeats itself
LEARNING = (
    "This grade is a tool for learning, not an exam: your file runs with your own permissions, and a "
    "file that tampers with the grader (writes to its reply channel, reads its answers, ends its "
    "processes) proves nothing."
)


def drawn_board(position: str, indent: str = "  ") -> list[str]:
    """The board with the row and column numbers (i, j) of the assignment."""
    rows = [f"{indent}   {i}  " + " ".join(position[3 * i : 3 * i + 3]) for i in range(3)]
    return [f"{indent}      0 1 2", *rows]


def called(tally: Tally, failure: Failure) -> str:
    args = "board" if failure.action is None else f"board, {failure.action}"
    whose = "game over" if over(failure.position) else f"{to_move(failure.position)} to move"
    return f"{tally.label}({args}), {whose}:"


def where_lines(frames: tuple) -> list[str]:
    lines = []
    for frame in frames:
        lines.append(f"      {frame.get('file')}:{frame.get('line')}, in {frame.get('function')}")
        lines += [f"        {frame['code']}"] if frame.get("code") else []
    return lines


def shown_failures(tally: Tally) -> list[Failure]:
    """The first failure of each kind, then more in order, SHOWN in all."""
    firsts = {f.wrong.kind: f for f in reversed(tally.failures)}
    chosen = [f for f in tally.failures if firsts.get(f.wrong.kind) is f]
    chosen += [f for f in tally.failures if f not in chosen][: max(0, SHOWN - len(chosen))]
    return sorted(chosen, key=tally.failures.index)


def failure_lines(tally: Tally, site: str) -> list[str]:
    kinds = ", ".join(f"{kind} {count:,}" for kind, count in tally.kinds.most_common())
    lines = [
        "",
        f"{tally.label}: {tally.status}",
        *parts_lines(tally),
        f"  by kind: {kinds}",
        *exception_lines(tally),
        "",
    ]
    said = set()  # each place an exception was raised is shown once
    for failure in shown_failures(tally):
        wrong = failure.wrong
        lines += [f"  {called(tally, failure)}", *drawn_board(failure.position)]
        lines += [f"    expected  {wrong.expected}", f"    got       {wrong.got}"]
        lines += [f"    why       {wrong.why}"] if wrong.why else []
        lines += [f"    measured  {wrong.measured}"] if wrong.measured else []
        if wrong.where and repr(wrong.where) not in said:
            said.add(repr(wrong.where))
            lines += ["    stopped in your file at" if wrong.kind == TIMEOUT else "    raised in your file at"]
            lines += where_lines(wrong.where)
        lines += [f"    explore   {link(site, failure)}", ""]
    if tally.name == "minimax" and on_o_only(tally):
        lines += ["  Every position minimax gets wrong has O to move: look at how it chooses for O (MIN).", ""]
    return lines


def exception_lines(tally: Tally) -> list[str]:
    """Every distinct exception (its message's numbers left out), how many times, and the line
    it came from, the commonest first."""
    if not tally.exceptions:
        return []
    counted_ = tally.exceptions.most_common()
    lines = ["  exceptions, each with the line of your file it came from:"]
    lines += [f"    {n:>6,}  {name}\n            at {at}" for (name, at), n in counted_[:EXCEPTIONS_SHOWN]]
    rest = counted_[EXCEPTIONS_SHOWN:]
    return lines + ([f"    and {len(rest):,} more, {sum(n for _, n in rest):,} times in all"] if rest else [])


def parts_lines(tally: Tally) -> list[str]:
    """What the checks passed are, when the function's checks come in parts (result's)."""
    said = [f"{passed:,} of {made:,} on {part}{MUST.get(part, '')}" for part, (passed, made) in tally.parts.items()]
    return [f"  passed: {', '.join(said)}"] if said else []


def on_o_only(tally: Tally) -> bool:
    return set(tally.movers) == {"O"}


def pattern_lines(pattern: Pattern, site: str) -> list[str]:
    lines = ["", f"This looks like a known bug: {pattern.name}", f"  {pattern.text}"]
    lines += drawn_board(pattern.drawn, "    ") if pattern.drawn else []
    lines += [f"  for example {explorer(site, p, move)}" for p, move in pattern.examples]
    return lines


def timing_lines(tallies: dict[str, Tally]) -> list[str]:
    total = sum(t.seconds for t in tallies.values())
    added = ", ".join(f"{t.label} {t.seconds:.1f} s" for t in tallies.values())
    lines = ["", f"Time in your code, each function's calls added up (calls made side by side each count): {added}"]
    minimax = tallies.get("minimax")
    if minimax and minimax.seconds > SLOW_SECONDS and minimax.seconds > SLOW_SHARE * total:
        lines += slow_lines(minimax, total)
    return lines


def slow_lines(minimax: Tally, total: float) -> list[str]:
    """Why minimax took most of the time, from the evidence: processor time it did not use
    (it waited), and calls counted that repeat the search. Slow is not wrong."""
    took = f"Your minimax's calls took {minimax.seconds:.0f} s added up"
    took += f", {minimax.seconds / total:.0%} of the time your code ran"
    if minimax.cpu_seconds + minimax.queued_seconds < WAITED * minimax.seconds:
        took += f", and computed for only {minimax.cpu_seconds:.1f} s of it: it waits (time.sleep, a lock, input()?)"
    elif minimax.queued_seconds >= WAITED * minimax.seconds:
        took += f", {minimax.queued_seconds:.0f} s of it waiting for a processor: the machine was busy"
    lines = [took + ". Being slow is not a failure."]
    times, function, position = minimax.busiest or (0, "", EMPTY_BOARD)
    if times > REPEATS * len(reachable(position)):
        lines += [
            f"In one call, on a board from which {len(reachable(position)):,} positions can be reached, your code "
            f"called {function} {times:,} times: it searches the same positions again and again. Memoize "
            "(functools.cache, on the board made hashable: tuple(map(tuple, board))) or prune (alpha-beta) "
            "to make it fast."
        ]
    return lines


def text_report(
    path: str,
    tallies: dict[str, Tally],
    patterns: list[Pattern],
    site: str,
    table: bool = True,
    only: str | None = None,
    fixes: Sequence = (),
) -> str:
    """The report; without its `table` when the table was already shown line by line; `only`,
    the one function checked (--only); `fixes`, the functions that put right make others pass."""
    lines = table_lines(path, tallies) if table else []
    for tally in (t for t in tallies.values() if t.failures and not t.missing and not t.unwritten):  # said in the table
        lines += failure_lines(tally, site)
    lines += patterns_lines(patterns, site)
    lines += timing_lines(tallies)
    if any(t.failures for t in tallies.values()):
        lines += ["", explore_footer(site)]
    return "\n".join([*lines, "", LEARNING, "", verdict(tallies, only, fixes)])


def explore_footer(site: str) -> str:
    if site.rstrip("/") == LOCAL_SITE:
        return f"The explore links open this project's explorer at {LOCAL_SITE}: start the site with `make run`."
    return f"The explore links open the explorer at {site.rstrip('/')}."


def heading(path: str) -> list[str]:
    return [f"Grading {path} against every reachable position of tic-tac-toe.", "", TABLE_HEAD]


def table_lines(path: str, tallies: dict[str, Tally]) -> list[str]:
    """The heading and the table of the functions: passed of checked, and the status."""
    lines = heading(path) + [table_line(t) for t in tallies.values()]
    if "utility" in tallies and tallies["utility"].found:
        lines += ["", "utility (found as `score`, CPSC 481's name): CS50's check50 needs it named `utility`."]
    return lines


def table_line(tally: Tally) -> str:
    if tally.missing:
        return f"  {tally.label:<10} {'':>7}   {'':<7} {tally.status}"
    return f"  {tally.label:<10} {tally.passed:>7,} / {tally.checked:<7,} {tally.status}"


def patterns_lines(patterns: list[Pattern], site: str) -> list[str]:
    """The known bugs recognised, then the notes on legal play."""
    lines = []
    for pattern in (p for p in patterns if p.failure):
        lines += pattern_lines(pattern, site)
    notes = [f"Note (legal play, not a failure): {p.name}: {p.text}" for p in patterns if not p.failure]
    return lines + (["", *notes] if notes else [])


def verdict(tallies: dict[str, Tally], only: str | None = None, fixes: Sequence = ()) -> str:
    """Passed, or the functions that failed a check, those missing, those not checked in
    full (a call that ran over is not a failure), and which to fix first; with `only`, what
    was checked."""
    said = [listed(heading, names) for heading, names in standing(tallies).items()]
    said += [fix_words(fix) for fix in fixes[:1]]
    if not only:
        return " ".join(part for part in said if part) or "All checks passed."
    checked = " ".join(part for part in said if part) or f"{only}: all checks passed."
    return f"{checked} Only {only} was checked: the other functions were not (--only)."


def fix_words(fix) -> str:
    """What putting one function right was seen to do (fixes.py)."""
    callers = " and ".join([", ".join(fix.callers[:-1]), fix.callers[-1]] if len(fix.callers) > 1 else fix.callers)
    if fix.remade == fix.failed:
        passed = f"all {fix.failed:,} checks {'they' if len(fix.callers) > 1 else 'it'} failed"
    else:
        how = "a sample" if fix.complete else "as many as the time allowed"
        passed = (
            f"every one of {fix.remade:,} failed checks made again ({how}, spread over all {fix.failed:,} they failed)"
        )
    call = "call" if len(fix.callers) > 1 else "calls"
    put = f"with a right {fix.name} put in place of yours"
    return f"Fix {fix.name} first: {put}, {callers}, which {call} it, pass {passed}."


def standing(tallies: dict[str, Tally]) -> dict[str, list[str]]:
    """The functions that fall short, by how."""
    said: dict[str, list[str]] = {heading: [] for heading in SHORTFALLS}
    for tally in tallies.values():
        if heading := shortfall(tally):
            said[heading].append(tally.name if tally.missing else tally.label)
    return said


SHORTFALLS = ("Not passed", "Missing from your file", "Not written yet", "Not checked in full, with no check failed")


def shortfall(tally: Tally) -> str:
    """How the function falls short, as `standing` heads it; "" when it does not."""
    if tally.missing:
        return SHORTFALLS[1]
    if tally.unwritten:
        return SHORTFALLS[2]
    if tally.failed:
        return SHORTFALLS[0]
    return "" if tally.ok else SHORTFALLS[3]


def listed(heading: str, names: list[str]) -> str:
    return f"{heading}: {', '.join(names)}." if names else ""


def again_alone(failed: list[Check]) -> str:
    """What the progress bar says while minimax's failed boards are run again alone
    (fixes.carried_state): "" when there are none to run."""
    boards = len(spread([c for c in failed if c.position.count(".") <= CHEAP], ALONE))
    if not boards:
        return ""
    return f"Running {boards} failed minimax board{'s' if boards > 1 else ''} again in fresh processes"


def again_fixed(tallies: dict[str, Tally], failed: dict[str, list[Check]]) -> str:
    """What the progress bar says while failed checks are run again with a right version of a
    function they call in place of the student's (fixes.fixes_found): "" when none is tried."""
    tried = candidates(tallies, failed)
    if not tried:
        return ""
    rights = ", then ".join(f"a right {name}" for name, _ in tried)
    return f"Running failed checks again with {rights} in place of yours"
