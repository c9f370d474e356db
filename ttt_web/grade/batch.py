"""Grading many files (a TA's class): each file graded by a grader process of its own (so each
has its own sandbox, and a file that hangs or crashes costs only its row), `jobs` at a time,
each with the cores left to it; a CSV row per file with each function's result, the bugs named
and the time; then a summary of the class, how many files show each bug, the commonest first.
On a terminal, a line per file as it is done and how long the rest will take."""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path
from statistics import median

from .checks import FUNCTIONS, INVALID, VALID, checks
from .pace import Pace, duration

PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # the folder ttt_web is in (from a clone)
SPARE_SECONDS = 900  # beyond --total-seconds: loading, and the failed checks run again after the run
COLUMNS = ("file", "loaded", "passed", "wall_seconds", "processor_seconds", *FUNCTIONS, "bugs", "fix_first", "error")
NOTHING_FOUND = (
    "No file to grade in {}: a folder is searched for the .py files directly in it and for each "
    "tictactoe.py in its subfolders (such as alice/tictactoe.py)."
)
WORKING_FOLDER = re.compile(re.escape(os.path.join(tempfile.gettempdir(), "grader-")) + r"[^/\s'\"]*")


STUDENT_FILE = "tictactoe.py"  # CS50's name: each student's file in a folder of its own


def files_in(paths: list[str]) -> list[str]:
    """The .py files named; in each folder named, every .py directly in it and every
    tictactoe.py in its subfolders, at any depth (hidden folders and __pycache__ left out);
    each folder's sorted."""
    found = []
    for path in map(Path, paths):
        found += sorted(map(str, in_folder(path))) if path.is_dir() else [str(path)]
    return found


def in_folder(folder: Path) -> Iterator[Path]:
    """The .py files directly in `folder`, and each tictactoe.py below it (see files_in)."""
    for parent, folders, names in os.walk(folder):
        folders[:] = [f for f in folders if not f.startswith(".") and f != "__pycache__"]
        at_top = Path(parent) == folder
        yield from (Path(parent, n) for n in names if n.endswith(".py") and (at_top or n == STUDENT_FILE))


def batch_folder(paths: list[str], files: list[str]) -> str:
    """The folder the files are shown relative to: the deepest folder that holds the folders
    named (a student's row then says alice/tictactoe.py) and the files found."""
    places = [os.path.abspath(p) for p in paths if os.path.isdir(p)]
    places += [os.path.dirname(os.path.abspath(p)) for p in files]
    return os.path.commonpath(places) if places else os.getcwd()


def relative(text: str, folder: str) -> str:
    """`text` with the absolute paths a TA did not type shown as the TA sees them: a path in
    the batch `folder` relative to it, and the empty folder each file runs in (a temporary
    one) as "(its working folder)"."""
    text = WORKING_FOLDER.sub("(its working folder)", text)
    return text.replace(folder.rstrip(os.sep) + os.sep, "")


def grader_command() -> list[str]:
    """This grader, run again: the downloaded grader.pyz, or the package."""
    flags = ["-S"] if sys.flags.no_site else []
    if sys.argv[0].endswith(".pyz"):
        return [sys.executable, *flags, os.path.abspath(sys.argv[0])]
    return [sys.executable, *flags, "-m", "ttt_web.grade"]


def processes_each(jobs: int) -> int:
    """Processes of each file sharing its checks, so that the files graded at a time use the
    cores once: jobs × processes ≈ cores."""
    return max(1, (os.cpu_count() or 1) // max(1, jobs))


def forwarded(args: argparse.Namespace) -> list[str]:
    """The options that each file's grading shares."""
    options = ["--site", args.site, "--python", args.python, "--total-seconds", str(args.total_seconds)]
    options += ["--only", args.only] if args.only else []
    options += ["--processes", str(processes_each(args.jobs))]
    return options + (["--call-seconds", str(args.call_seconds)] if args.call_seconds else [])


def graded_file(path: str, args: argparse.Namespace, pace: Pace) -> dict:
    """One file's --json report with its wall-clock and processor seconds (the grader's and the
    file's processes'), or what went wrong instead; its paths as the TA sees them."""
    environment = os.environ | {
        "PYTHONPATH": os.pathsep.join(filter(None, [str(PACKAGE_ROOT), os.environ.get("PYTHONPATH")]))
    }
    command = [*grader_command(), path, "--json", *forwarded(args)]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True, env=environment
    )
    pace.started(process)
    bound = args.total_seconds + SPARE_SECONDS
    out, ran_over, processor = finished(process, bound)
    report = reported(out, f"the grader ran over {bound:g} s" if ran_over else "", process.returncode)
    report |= {"file": relative(os.path.abspath(path), pace.folder), "processor_seconds": processor}
    report["wall_seconds"] = pace.took(process)
    if isinstance(report.get("error"), str):
        report["error"] = relative(report["error"], pace.folder)
    pace.done(process, report)
    return report


def reported(out: str, ran_over: str, status: int | None) -> dict:
    """The report a grader printed, or the error that stands for it."""
    if ran_over:
        return {"error": ran_over}
    try:
        report = json.loads(out)
    except ValueError:
        return {"error": f"the grader ended with status {status}"}
    return report if isinstance(report, dict) else {"error": f"the grader ended with status {status}"}


def finished(process: subprocess.Popen, seconds: float) -> tuple[str, bool, float]:
    """The process's output, whether it ran over `seconds` (and was ended), and the processor
    time it and the processes it waited for used (os.wait4's, which Popen does not keep)."""
    over = threading.Event()

    def end() -> None:
        over.set()
        with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
            os.killpg(process.pid, signal.SIGKILL)

    timer = threading.Timer(seconds, end)
    timer.daemon = True
    timer.start()
    assert process.stdout
    out = process.stdout.read()
    process.stdout.close()
    _, status, usage = os.wait4(process.pid, 0)
    timer.cancel()
    process.returncode = os.waitstatus_to_exitcode(status)
    return out, over.is_set(), usage.ru_utime + usage.ru_stime


def function_result(report: dict, name: str) -> str:
    """One function's result in a few words: ok, failed N of M, not written, missing, ..."""
    f = report.get("functions", {}).get(name)
    if f is None:
        return ""
    kinds = f.get("kinds", {})
    if kinds.get("missing"):
        return "missing"
    if f["checked"] and kinds.get("not written yet") == f["checked"] and not f["passed"]:
        return "not written"
    if f["failed"]:
        return f"failed {f['failed']} of {f['checked']}"
    return f"not checked in full ({f['unchecked']})" if f["unchecked"] else "ok"


def bugs(report: dict) -> list[str]:
    """The bugs a report names: the known bugs, then each failing function's kinds of failure."""
    named = [p["name"] for p in report.get("patterns", []) if p.get("failure")]
    for name, f in report.get("functions", {}).items():
        named += [f"{name}: {kind}" for kind in f.get("kinds", {}) if kind != "ran over the time limit"]
    return named


def row(report: dict) -> dict:
    loaded = report.get("loaded", False)
    said = {"file": report["file"], "loaded": loaded, "passed": report.get("passed", False)}
    said |= {"wall_seconds": f"{report.get('wall_seconds', 0):.1f}"}
    said |= {"processor_seconds": f"{report.get('processor_seconds', 0):.1f}"}
    said |= {"fix_first": report.get("fix_first") or ""}
    said |= {name: function_result(report, name) for name in FUNCTIONS}
    return said | {"bugs": "; ".join(bugs(report)), "error": report.get("error", "")}


def graded_all(paths: list[str], args: argparse.Namespace, pace: Pace) -> Iterator[dict]:
    """Each file's report, in the order given, `args.jobs` graded at a time; the pace shown
    every second while they are graded. The graders still running when this ends early (the
    batch told to stop) are told to stop too."""
    pool = ThreadPoolExecutor(max_workers=max(1, args.jobs))
    try:
        futures = [pool.submit(graded_file, path, args, pace) for path in paths]
        for future in futures:
            while not wait([future], timeout=pace.every).done:
                pace.show()
            yield future.result()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        pace.stop_all()
        pool.shutdown(wait=True)


def summary(reports: list[dict]) -> list[tuple[str, int]]:
    """Each bug with the number of files that show it, the commonest first."""
    counted = Counter(bug for report in reports for bug in set(bugs(report)))
    counted.update(["does not load"] * sum(not r.get("loaded", False) for r in reports))
    return sorted(counted.items(), key=lambda item: (-item[1], item[0]))


def batch(args: argparse.Namespace) -> int:
    """Grade every file; the CSV to `args.csv` (a row written as each file in order is done),
    the JSON or the summary to stdout. Exit 0 when every file passes, 2 when there is none."""
    paths = files_in(args.paths)
    if not paths:
        print(NOTHING_FOUND.format(" ".join(args.paths)), file=sys.stderr)
        return 2
    pace = Pace(len(paths), max(1, args.jobs), batch_folder(args.paths, paths), shown=sys.stderr.isatty())
    reports = []
    with open(args.csv, "w", newline="") if args.csv else open(os.devnull, "w") as out:
        writer = csv.DictWriter(out, fieldnames=COLUMNS)
        writer.writeheader()
        for report in graded_all(paths, args, pace):
            reports.append(report)
            writer.writerow(row(report))
            out.flush()
    pace.close()
    common = summary(reports)
    if args.json:
        listed = [{"bug": b, "files": n} for b, n in common]
        print(json.dumps({"files": reports, "summary": listed, "seconds": pace.elapsed()}, indent=2))
    else:
        print(summary_text(reports, common, pace))
    return 0 if all(r.get("passed") for r in reports) else 1


def summary_text(reports: list[dict], common: list[tuple[str, int]], pace: Pace) -> str:
    """How many passed, the times (and what they mean), then the bugs, the commonest first."""
    passed = sum(bool(r.get("passed")) for r in reports)
    walls = [r.get("wall_seconds", 0) for r in reports] or [0]
    lines = [
        f"{len(reports)} files graded: {passed} passed every check; median {median(walls):.0f} s, "
        f"longest {max(walls):.0f} s.",
        *seconds_said(reports, pace),
        *columns_said(reports),
    ]
    lines += ["", "Bugs, by the number of files that show them:"] if common else []
    lines += [f"  {n:>4}  {bug}" for bug, n in common]
    return "\n".join(lines)


def seconds_said(reports: list[dict], pace: Pace) -> list[str]:
    """The batch's time in all, and what each file's seconds (the CSV's) mean."""
    processes, cores = processes_each(pace.jobs), os.cpu_count() or 1
    at_a_time = "one file at a time" if pace.jobs == 1 else f"{pace.jobs} files at a time"
    shared = f"{processes} process{'es' if processes > 1 else ''} of the file"
    beside = (
        "" if pace.jobs == 1 else f", beside the {pace.jobs - 1} other{'s' if pace.jobs > 2 else ''} graded with it"
    )
    processor = [r.get("processor_seconds", 0) for r in reports] or [0]
    return [
        f"In all {duration(pace.elapsed())}: {at_a_time} on {cores} cores, each file's checks shared by {shared}.",
        f"wall_seconds: a file's time from its start to its end{beside}, waits for a core included; "
        "processor_seconds: the processor time its grader and its processes used, which waiting does not stretch "
        f"(median {median(processor):.1f} s, {sum(processor):.0f} s in all).",
    ]


def columns_said(reports: list[dict]) -> list[str]:
    """What an empty fix_first means, and what result's "of N" counts (when it was checked)."""
    said = [
        "fix_first: the function whose right version, put in place of the student's, made its callers' failed "
        "checks pass; empty when no failure was found to come from another function (or none failed)."
    ]
    if any("result" in r.get("functions", {}) for r in reports):
        parts = Counter(check.part for check in checks("result"))
        valid, invalid, total = parts[VALID], parts[INVALID], sum(parts.values())
        said.append(
            f'result\'s "of {total:,}" counts its checks on valid moves ({valid:,}: each empty cell of each '
            f"unfinished position) and on invalid ones ({invalid:,}: a taken cell, cells off the board), together."
        )
    return said
