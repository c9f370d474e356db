"""The grader's batch mode for a TA: a folder of files graded a row each into a CSV, with a
summary of the class; a file that hangs or crashes costs only its own row."""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.grading import ROOT, SITE, STUDENTS
from tests.test_grade import MUTANTS, QUICK

HANGS = "import time\n\ntime.sleep(3600)\n"  # at import, using no processor: the file never loads
ENDS = QUICK.replace("def minimax(board):\n", "def minimax(board):\n    import os\n    os._exit(3)\n")


COPIED = ("quick.py", "cs50.py", "max_calls_max.py", "result_mutates.py", "unwritten.py", "raises_always.py")


def class_folder(folder: Path) -> Path:
    """A class of 20 files: six students' files, the mutants, a file that never loads, one
    that ends its process, a minimax that always maximises and one that gives up early."""
    folder.mkdir()
    for student in COPIED:
        shutil.copy(STUDENTS / student, folder / student)
    for n, (line, replacement, _, _) in enumerate(MUTANTS.values()):
        (folder / f"mutant_{n:02}.py").write_text(QUICK.replace(line, replacement))
    (folder / "hangs.py").write_text(HANGS)
    (folder / "ends.py").write_text(ENDS)
    (folder / "wrong_player.py").write_text(
        QUICK.replace("    pick = max if player(board) == X else min\n", "    pick = max\n")
    )
    (folder / "none.py").write_text(
        QUICK.replace(
            "    if terminal(board):\n        return None\n    choices",
            "    if len(actions(board)) == 1:\n        return None\n    choices",
        )
    )
    return folder


@pytest.mark.server
@pytest.mark.long
def test_a_folder_is_graded_a_row_each_with_a_class_summary(tmp_path):
    folder = class_folder(tmp_path / "class")
    correct = {"quick.py", "cs50.py"}
    (folder / "notes.txt").write_text("not a Python file: left out\n")
    out = tmp_path / "class.csv"
    command = [
        sys.executable,
        "-m",
        "ttt_web.grade",
        str(folder),
        "--csv",
        str(out),
        "--only",
        "minimax",
        "--jobs",
        "2",
    ]
    command += ["--site", SITE, "--call-seconds", "5"]
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=1800)
    took = time.monotonic() - started
    rows = {row["file"].rsplit("/", 1)[-1]: row for row in csv.DictReader(out.open())}
    assert len(rows) == 20 and "notes.txt" not in rows and done.returncode == 1, done.stderr
    for name, row in rows.items():
        assert (row["passed"] == "True") == (name in correct), row
        assert float(row["wall_seconds"]) < took and row["player"] == "", row
    assert rows["hangs.py"]["loaded"] == "False" and "did not load within" in rows["hangs.py"]["error"]
    assert rows["ends.py"]["minimax"].startswith("failed") and "minimax: crashes" in rows["ends.py"]["bugs"]
    assert rows["unwritten.py"]["minimax"] == "not written" and rows["raises_always.py"]["minimax"] == "missing"
    assert "Wrong player: max at the root" in rows["wrong_player.py"]["bugs"].split("; ")
    assert rows["quick.py"]["minimax"] == "ok" and rows["mutant_04.py"]["minimax"].startswith("failed ")
    summary = done.stdout.split("Bugs, by the number of files that show them:\n")[1].splitlines()
    counts = [(int(line.split()[0]), line.split(None, 1)[1]) for line in summary]
    assert counts == sorted(counts, key=lambda c: (-c[0], c[1]))
    for count, bug in counts:
        assert count == sum(bug in row["bugs"].split("; ") for row in rows.values()) + (bug == "does not load"), bug
    assert done.stdout.startswith("20 files graded: 2 passed every check; median ")
