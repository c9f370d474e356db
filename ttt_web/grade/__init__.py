"""Grade a student's tictactoe.py (CS50 AI's interface) against every reachable position.

    python3 -m ttt_web.grade PATH/TO/tictactoe.py [--only minimax] [--python python3] [--json]
    python3 grader.pyz PATH/TO/tictactoe.py  (the same, downloaded from the site's /learn/grader.pyz)
    python3 grader.pyz FOLDER_OR_FILES... --csv OUT [--jobs N]  (a class: a row per file, then a summary;
        a folder's .py files and each tictactoe.py in its subfolders, such as alice/tictactoe.py)

The student's code runs in a child process, never in the web server, one call at a time
under a time limit scaled to the machine, the whole run under a bound. Standard library
only. The exit status is 0 only when every check passes, 2 when the file does not load (or a batch finds no file).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import signal
import sys
import threading
from collections.abc import Iterator

from .batch import batch
from .checks import FUNCTIONS, checks
from .grading import run
from .patterns import recognised
from .progress import progress_bar
from .report import to_json
from .runner import LoadError, Student
from .text import LOCAL_SITE, heading, text_report
from .trace import board_error, trace_report

SITE = LOCAL_SITE
PROCESSES = 2  # with more, a typical file would wait on the grader's judging (one thread; cs50.py: 2.4 s to its 2.4 s)
SHARED_FROM = 1000  # checks: a plan this long is shared by several processes (a shorter one is not worth a start)
READS_INPUT = (
    "Your file reads input when it is imported: put the code that plays a game under "
    '`if __name__ == "__main__":` (CS50 runs it from runner.py).'
)


def parser(site: str = SITE) -> argparse.ArgumentParser:
    prog = f"python3 {os.path.basename(sys.argv[0])}" if sys.argv[0].endswith(".pyz") else "python -m ttt_web.grade"
    parse = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parse.add_argument(
        "paths",
        nargs="+",
        metavar="path",
        help="the student's tictactoe.py (or many files or folders: a batch; a folder's .py files "
        "and each tictactoe.py in its subfolders, such as alice/tictactoe.py)",
    )
    parse.add_argument("--only", choices=FUNCTIONS, help="check this one function only")
    parse.add_argument("--python", default=sys.executable, help="the Python that runs the file (default: this one)")
    parse.add_argument("--site", "--base-url", default=site, help=f"where the explorer runs (default {site})")
    parse.add_argument("--json", action="store_true", help="print the report as JSON")
    parse.add_argument("--call-seconds", type=float, help="time limit for one call (default: scaled to the machine)")
    parse.add_argument("--total-seconds", type=float, default=1800.0, help="bound on the whole run (default 1800)")
    parse.add_argument("--trace", metavar="BOARD", help="trace your minimax on BOARD (9 characters: X, O, .)")
    parse.add_argument("--csv", metavar="OUT", help="a batch: a row per file written to OUT")
    parse.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="a batch: files graded at a time, each with the cores divided by N as --processes (default: the cores)",
    )
    parse.add_argument(
        "--processes",
        type=int,
        default=min(PROCESSES, os.cpu_count() or 1),
        help=f"processes of the file that share one file's checks (default: the cores, {PROCESSES} at most)",
    )
    return parse


ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


@contextlib.contextmanager
def ended_cleanly() -> Iterator[None]:
    """SIGTERM, SIGHUP and SIGINT end the grader as an exception does, so that the student's
    process and everything it started are ended with it (Student.close)."""

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    if threading.current_thread() is not threading.main_thread():  # only the main thread has handlers
        yield
        return
    before = {number: signal.signal(number, stop) for number in ENDING_SIGNALS}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def main(argv: list[str] | None = None, site: str = SITE) -> int:
    """The grader's command line; `site`, the default of --site (a downloaded grader's is the
    site it came from)."""
    with ended_cleanly():
        return graded_run(parser(site).parse_args(argv))


def graded_run(args: argparse.Namespace) -> int:
    if args.csv or len(args.paths) > 1 or os.path.isdir(args.paths[0]):
        return batch(args)
    args.path = args.paths[0]
    student = started(args)
    if student is None:
        return 2
    if args.trace:
        return traced(student, args)
    return reported(student, args)


def reported(student: Student, args: argparse.Namespace) -> int:
    """Every check made, and the report printed: 0 when every check passed."""
    live = not args.json and sys.stderr.isatty()  # the table line by line, as each function is done
    tallies, patterns, fixes = graded(student, args, live)
    if args.json:
        print(json.dumps(to_json(args.path, tallies, patterns, args.site, fixes), indent=2))
    else:
        table = not (live and sys.stdout.isatty())
        print(text_report(args.path, tallies, patterns, args.site, table=table, only=args.only, fixes=fixes))
    return 0 if all(t.ok for t in tallies.values()) else 1


def started(args: argparse.Namespace) -> Student | None:
    """The student's process, or None when the board to trace or the file is wrong (said why)."""
    if args.trace and (wrong := board_error(args.trace)):
        print(wrong, file=sys.stderr)
        return None
    try:
        return Student(args.path, args.python, args.call_seconds)
    except (LoadError, OSError) as error:
        not_loaded(args, error)
        return None


def traced(student: Student, args: argparse.Namespace) -> int:
    """--trace: the student's minimax on one board, call by call, beside the reference."""
    with contextlib.closing(student):
        print(trace_report(student, args.trace, args.site))
    return 0


def not_loaded(args: argparse.Namespace, error: Exception) -> None:
    said = f"{error}\n{READS_INPUT}" if str(error).startswith("EOFError") else str(error)
    if args.json:
        print(json.dumps({"file": args.path, "loaded": False, "passed": False, "error": said}, indent=2))
    else:
        print(f"Could not load {args.path}:\n{said}", file=sys.stderr)


def helping(student: Student, processes: int) -> tuple[Student, ...]:
    """More processes of the student's file, with the first one's yardstick and limit, to
    share the checks (as many as load: the file loaded once already)."""
    helpers = []
    for _ in range(processes - 1):
        with contextlib.suppress(LoadError, OSError):
            helpers.append(Student(student.path, student.python, student.call_seconds, student.yardstick))
    return tuple(helpers)


def graded(student: Student, args: argparse.Namespace, live: bool) -> tuple[dict, list, list]:
    """Every planned check run (`live`: with the table and a progress bar on stderr): the
    tallies, the known bugs recognised and the functions to fix first."""
    gc.disable()  # the plan's 56,158 checks live the whole run: no collection goes over them (0.5 s a grading)
    plan = list(checks(args.only))
    gc.freeze()
    gc.enable()
    if live:
        print(*heading(args.path), sep="\n", file=sys.stderr)
    bar = progress_bar(plan, shown=live)
    helpers = helping(student, args.processes if len(plan) >= SHARED_FROM else 1)
    try:
        said = sys.stderr if live else None
        tallies, choices, failing, fixes, carried = run(student, plan, args.total_seconds, bar, said, helpers)
    finally:
        bar.close()
        for process in (student, *helpers):
            process.close()
    patterns = recognised(choices, failing) if "minimax" in tallies else []
    return tallies, patterns + ([carried] if carried else []), fixes
