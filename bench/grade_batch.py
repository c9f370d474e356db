"""A TA's batch, timed: python bench/grade_batch.py [--jobs 1 2] [--rounds 2] [--only FUNCTION]

Builds the folder of 20 files that tests/test_grade_batch.py grades (7 of tests/students but
textbook.py, 10 mutants of quick.py, one that hangs at import, one whose minimax ends the
process, two more bugs), then grades it with `python -m ttt_web.grade FOLDER --csv OUT --jobs N`
for each N, in turns, `--rounds` times: the wall-clock seconds of each batch, the median and
longest file (wall_seconds) and the processor seconds of all files, with the load average before
and after (others' work beside the run)."""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.grading import ROOT
from tests.test_grade_batch import class_folder


def timed(folder: Path, jobs: int, only: str | None) -> str:
    out = folder.parent / f"jobs{jobs}.csv"
    command = [sys.executable, "-m", "ttt_web.grade", str(folder), "--csv", str(out), "--jobs", str(jobs)]
    command += ["--only", only] if only else []
    load = os.getloadavg()[0]
    start = time.monotonic()
    subprocess.run(command, cwd=ROOT, capture_output=True, check=False)
    took = time.monotonic() - start
    rows = list(csv.DictReader(out.open()))
    walls = [float(r["wall_seconds"]) for r in rows]
    processor = sum(float(r["processor_seconds"]) for r in rows)
    return (
        f"--jobs {jobs}: {len(rows)} files in {took:.0f} s; each file median {median(walls):.1f} s, longest "
        f"{max(walls):.1f} s; processor {processor:.0f} s in all; load average {load:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after"
    )


def main() -> None:
    parse = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parse.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parse.add_argument("--rounds", type=int, default=2)
    parse.add_argument("--only")
    args = parse.parse_args()
    with tempfile.TemporaryDirectory() as where:
        folder = class_folder(Path(where) / "class")
        for _ in range(args.rounds):
            for jobs in args.jobs:
                print(timed(folder, jobs, args.only), flush=True)


if __name__ == "__main__":
    main()
