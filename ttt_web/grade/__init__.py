"""Grade a student's tictactoe.py (CS50 AI's interface) against every reachable position.

    python -m ttt_web.grade PATH/TO/tictactoe.py [--base-url URL] [--json]

The student's code runs in a child process, never in the web server, one call at a time
under a time limit, the whole run under a bound. The exit status is 0 only when every
check passes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter

import click

from .checks import FUNCTIONS, checks
from .patterns import recognised
from .report import Failure, Tally, text_report, to_json
from .runner import LoadError, Student

GIVE_UP_AFTER = 3  # calls of one function that run over the time limit


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(prog="python -m ttt_web.grade", description=__doc__.split("\n\n")[0])
    parse.add_argument("path", help="the student's tictactoe.py")
    parse.add_argument("--base-url", default="http://127.0.0.1:5000", help="where the explorer runs (make run's)")
    parse.add_argument("--json", action="store_true", help="print the report as JSON")
    parse.add_argument("--call-seconds", type=float, default=60.0, help="time limit for one call (default 60)")
    parse.add_argument("--total-seconds", type=float, default=1800.0, help="bound on the whole run (default 1800)")
    return parse


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        student = Student(args.path, args.call_seconds)
    except (LoadError, OSError) as error:
        print(f"Could not load {args.path}:\n{error}", file=sys.stderr)
        return 2
    try:
        tallies, choices, missed = run(student, args.total_seconds, progress=not args.json)
    finally:
        student.close()
    patterns = recognised(choices, missed)
    if args.json:
        print(json.dumps(to_json(args.path, tallies, patterns, args.base_url), indent=2))
    else:
        print(text_report(args.path, tallies, patterns, args.base_url))
    return 0 if all(t.passed == t.checked and not t.unchecked for t in tallies.values()) else 1


def run(student: Student, total_seconds: float, progress: bool) -> tuple[dict[str, Tally], dict, set[str]]:
    """Every check, in order, until the bound: the tallies, minimax's move in each position,
    and every position where minimax failed (the tallies keep only the first few)."""
    planned = list(checks())
    tallies = {name: Tally(name) for name in FUNCTIONS}
    for check in planned:
        tallies[check.function].unchecked += 1
    overruns, choices, missed, deadline = Counter(), {}, set(), time.monotonic() + total_seconds
    for check in bar(planned, progress):
        tally = tallies[check.function]
        if time.monotonic() > deadline or overruns[check.function] >= GIVE_UP_AFTER:
            continue
        reply = student.call(check.function, check.position, check.action)
        overruns[check.function] += "timeout" in reply
        wrong = check.judge(reply)
        tally.record(None if wrong is None else Failure(check.position, check.action, wrong))
        if check.function == "minimax" and wrong:
            missed.add(check.position)
        if check.function == "minimax" and "got" in reply:
            got = reply["got"]
            choices[check.position] = tuple(got) if isinstance(got, list) and len(got) == 2 else None
    return tallies, choices, missed


def bar(planned: list, shown: bool):
    """The checks, with a progress bar on a terminal."""
    from tqdm import tqdm

    return tqdm(planned, desc="Checking", unit=" calls", disable=not shown or None, file=sys.stderr, leave=False)


@click.command("grade", context_settings={"ignore_unknown_options": True, "help_option_names": []})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def command(args: tuple[str, ...]) -> None:
    """Grade a student's tictactoe.py: `flask grade PATH`, as `python -m ttt_web.grade PATH`."""
    raise SystemExit(main(list(args)))
