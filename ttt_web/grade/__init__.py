"""Grade a student's tictactoe.py (CS50 AI's interface) against every reachable position.

    python3 -m ttt_web.grade PATH/TO/tictactoe.py [--only minimax] [--python python3] [--json]
    python3 grader.pyz PATH/TO/tictactoe.py  (the same, downloaded from the site's /learn/grader.pyz)

The student's code runs in a child process, never in the web server, one call at a time
under a time limit scaled to the machine, the whole run under a bound. Standard library
only. The exit status is 0 only when every check passes, 2 when the file does not load.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from .checks import FUNCTIONS, checks
from .grading import run
from .patterns import recognised
from .progress import progress_bar
from .report import to_json
from .runner import LoadError, Student
from .text import LOCAL_SITE, heading, text_report

SITE = LOCAL_SITE
READS_INPUT = (
    "Your file reads input when it is imported: put the code that plays a game under "
    '`if __name__ == "__main__":` (CS50 runs it from runner.py).'
)


def parser(site: str = SITE) -> argparse.ArgumentParser:
    """The options; `site` is the default of --site (grader.pyz's is the site it came from)."""
    prog = f"python3 {os.path.basename(sys.argv[0])}" if sys.argv[0].endswith(".pyz") else "python -m ttt_web.grade"
    parse = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parse.add_argument("path", help="the student's tictactoe.py")
    parse.add_argument("--only", choices=FUNCTIONS, help="check this one function only")
    parse.add_argument("--python", default=sys.executable, help="the Python that runs the file (default: this one)")
    parse.add_argument("--site", "--base-url", default=site, help=f"where the explorer runs (default {site})")
    parse.add_argument("--json", action="store_true", help="print the report as JSON")
    parse.add_argument("--call-seconds", type=float, help="time limit for one call (default: scaled to the machine)")
    parse.add_argument("--total-seconds", type=float, default=1800.0, help="bound on the whole run (default 1800)")
    return parse


def main(argv: list[str] | None = None, site: str = SITE) -> int:
    args = parser(site).parse_args(argv)
    try:
        student = Student(args.path, args.python, args.call_seconds)
    except (LoadError, OSError) as error:
        not_loaded(args, error)
        return 2
    live = not args.json and sys.stderr.isatty()  # the table line by line, as each function is done
    tallies, patterns = graded(student, args, live)
    if args.json:
        print(json.dumps(to_json(args.path, tallies, patterns, args.site), indent=2))
    else:
        print(text_report(args.path, tallies, patterns, args.site, table=not (live and sys.stdout.isatty())))
    return 0 if all(t.ok for t in tallies.values()) else 1


def not_loaded(args: argparse.Namespace, error: Exception) -> None:
    said = f"{error}\n{READS_INPUT}" if str(error).startswith("EOFError") else str(error)
    if args.json:
        print(json.dumps({"file": args.path, "loaded": False, "passed": False, "error": said}, indent=2))
    else:
        print(f"Could not load {args.path}:\n{said}", file=sys.stderr)


def graded(student: Student, args: argparse.Namespace, live: bool) -> tuple[dict, list]:
    """Every planned check run (`live`: with the table and a progress bar on stderr): the
    tallies and the known bugs recognised."""
    plan = list(checks(args.only))
    if live:
        print(*heading(args.path), sep="\n", file=sys.stderr)
    bar = progress_bar(len(plan), shown=live)
    try:
        tallies, choices, failing = run(student, plan, args.total_seconds, bar, said=sys.stderr if live else None)
    finally:
        bar.close()
        student.close()
    return tallies, recognised(choices, failing) if "minimax" in tallies else []
