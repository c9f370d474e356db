"""Grading many files (a TA's class): each file graded by a grader process of its own (so each
has its own sandbox, and a file that hangs or crashes costs only its row), `jobs` at a time;
a CSV row per file with each function's result, the bugs named and the time; then a summary
of the class, how many files show each bug, the commonest first."""

from __future__ import annotations

import argparse
import csv
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .checks import FUNCTIONS

PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # the folder ttt_web is in (from a clone)
SPARE_SECONDS = 900  # beyond --total-seconds: loading, and the checks made again after the run
COLUMNS = ("file", "loaded", "passed", "seconds", *FUNCTIONS, "bugs", "fix_first", "error")


def files_in(paths: list[str]) -> list[str]:
    """The .py files named, and those in the folders named (not their subfolders), sorted."""
    found = []
    for path in map(Path, paths):
        found += sorted(str(p) for p in path.glob("*.py")) if path.is_dir() else [str(path)]
    return found


def grader_command() -> list[str]:
    """This grader, run again: the downloaded grader.pyz, or the package."""
    flags = ["-S"] if sys.flags.no_site else []
    if sys.argv[0].endswith(".pyz"):
        return [sys.executable, *flags, os.path.abspath(sys.argv[0])]
    return [sys.executable, *flags, "-m", "ttt_web.grade"]


def forwarded(args: argparse.Namespace) -> list[str]:
    """The options that each file's grading shares."""
    options = ["--site", args.site, "--python", args.python, "--total-seconds", str(args.total_seconds)]
    options += ["--only", args.only] if args.only else []
    options += ["--processes", str(max(1, (os.cpu_count() or 1) // max(1, args.jobs)))]  # the cores shared out
    return options + (["--call-seconds", str(args.call_seconds)] if args.call_seconds else [])


def graded_file(path: str, args: argparse.Namespace) -> dict:
    """One file's --json report with its wall-clock seconds, or what went wrong instead."""
    environment = os.environ | {
        "PYTHONPATH": os.pathsep.join(filter(None, [str(PACKAGE_ROOT), os.environ.get("PYTHONPATH")]))
    }
    command = [*grader_command(), path, "--json", *forwarded(args)]
    start = time.monotonic()
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True, env=environment
    )
    try:
        out, _ = process.communicate(timeout=args.total_seconds + SPARE_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return {
            "file": path,
            "error": f"the grader ran over {args.total_seconds + SPARE_SECONDS:g} s",
            "seconds": time.monotonic() - start,
        }
    seconds = time.monotonic() - start
    try:
        report = json.loads(out)
    except ValueError:
        return {"file": path, "error": f"the grader ended with status {process.returncode}", "seconds": seconds}
    return report | {"file": path, "seconds": seconds}


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
    said |= {"seconds": f"{report.get('seconds', 0):.1f}", "fix_first": report.get("fix_first") or ""}
    said |= {name: function_result(report, name) for name in FUNCTIONS}
    return said | {"bugs": "; ".join(bugs(report)), "error": report.get("error", "")}


def graded_all(paths: list[str], args: argparse.Namespace) -> Iterator[dict]:
    """Each file's report, in the order given, `args.jobs` graded at a time."""
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        yield from pool.map(lambda path: graded_file(path, args), paths)


def summary(reports: list[dict]) -> list[tuple[str, int]]:
    """Each bug with the number of files that show it, the commonest first."""
    counted = Counter(bug for report in reports for bug in set(bugs(report)))
    counted.update(["does not load"] * sum(not r.get("loaded", False) for r in reports))
    return sorted(counted.items(), key=lambda item: (-item[1], item[0]))


def batch(args: argparse.Namespace) -> int:
    """Grade every file; the CSV to `args.csv`, the JSON or the summary to stdout. Exit 0 when
    every file passes."""
    paths = files_in(args.paths)
    reports = []
    for report in graded_all(paths, args):
        reports.append(report)
        verdict = "passed" if report.get("passed") else "not passed"
        print(f"{len(reports)}/{len(paths)} {report['file']}: {verdict}", file=sys.stderr, flush=True)
    if args.csv:
        with open(args.csv, "w", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=COLUMNS)
            writer.writeheader()
            writer.writerows(map(row, reports))
    common = summary(reports)
    if args.json:
        print(json.dumps({"files": reports, "summary": [{"bug": b, "files": n} for b, n in common]}, indent=2))
    else:
        print(summary_text(reports, common))
    return 0 if all(r.get("passed") for r in reports) else 1


def summary_text(reports: list[dict], common: list[tuple[str, int]]) -> str:
    passed = sum(bool(r.get("passed")) for r in reports)
    times = sorted(r.get("seconds", 0) for r in reports)
    median, longest = (times[len(times) // 2], times[-1]) if times else (0, 0)
    lines = [
        f"{len(reports)} files graded: {passed} passed every check; median {median:.0f} s, longest {longest:.0f} s."
    ]
    lines += ["", "Bugs, by the number of files that show them:"] if common else []
    lines += [f"  {n:>4}  {bug}" for bug, n in common]
    return "\n".join(lines)
