"""A TA's batch as it runs and as the CSV says it: the cores used once, each file's wall-clock
and processor seconds, how long the rest will take, paths as the TA sees them; and a student's
progress bar that moves with the checks' cost, drawn on a terminal only, saying what it runs."""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.grading import ROOT, SITE, STUDENTS, on_a_terminal
from ttt_web.core.costs import tree_size
from ttt_web.grade import parser
from ttt_web.grade.batch import batch_folder, columns_said, files_in, forwarded, relative
from ttt_web.grade.checks import FUNCTIONS, checks
from ttt_web.grade.pace import duration, left_said, time_left
from ttt_web.grade.progress import NODES_PER_CALL, Plain, Silent, Weighted, cost, progress_bar
from ttt_web.grade.report import Failure, Tally
from ttt_web.grade.text import again_alone, again_fixed
from ttt_web.grade.workers import Batch
from ttt_web.grade.wrong import Wrong

BURNS = "import time\n_start = time.process_time()\nwhile time.process_time() - _start < 2:\n    pass\n"
SYNTAX = "def player(board)\n    return 'X'\n"
OPENS = "import os\nopen(os.path.join(os.getcwd(), 'moves.txt'))\n"


def batch_run(folder: Path, out: Path, *options: str, terminal: bool = False) -> tuple[int, str, str]:
    """The grader on a folder, --only winner (seconds a file): exit status, stdout, stderr (one
    text for both on a terminal)."""
    command = [sys.executable, "-m", "ttt_web.grade", str(folder), "--csv", str(out), "--only", "winner"]
    command += ["--site", SITE, *options]
    if terminal:
        code, shown = on_a_terminal(command)
        return code, shown, shown
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    return done.returncode, done.stdout, done.stderr


def class_folder(tmp_path: Path, burns: bool = True) -> Path:
    """quick.py, a file that does not load and one that opens a file in its working folder; with
    `burns`, burns.py, which computes 2 s at import in each of its processes."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "quick.py").write_text((STUDENTS / "quick.py").read_text())
    if burns:
        (folder / "burns.py").write_text(BURNS + (STUDENTS / "quick.py").read_text())
    (folder / "syntax.py").write_text(SYNTAX)
    (folder / "opens.py").write_text(OPENS)
    return folder


@pytest.mark.server
def test_the_csv_says_each_files_wall_and_processor_seconds_with_paths_as_the_ta_sees_them(tmp_path):
    """burns.py computes 2 s at import: its processor seconds (the grader's and the file's
    processes', os.wait4) hold them. A file that does not load says why with the batch
    folder's paths, never an absolute one, nor the temporary folder it ran in."""
    folder = class_folder(tmp_path)
    code, out, err = batch_run(folder, tmp_path / "class.csv", "--jobs", "2")
    rows = {row["file"]: row for row in csv.DictReader((tmp_path / "class.csv").open())}
    assert code == 1 and set(rows) == {"quick.py", "burns.py", "syntax.py", "opens.py"}, rows
    assert 2 <= float(rows["burns.py"]["processor_seconds"]) <= float(rows["burns.py"]["wall_seconds"]) * 2 + 1
    assert float(rows["quick.py"]["processor_seconds"]) < float(rows["burns.py"]["processor_seconds"]) - 1.5
    syntax = rows["syntax.py"]["error"]
    assert syntax.startswith('File "syntax.py", line 1') and "SyntaxError" in syntax
    assert rows["opens.py"]["error"].endswith("No such file or directory: '(its working folder)/moves.txt'")
    assert not [row for row in rows.values() if str(tmp_path) in str(row) or "/tmp/" in str(row)]
    assert "wall_seconds: a file's time from its start to its end, beside the 1 other graded with it" in out
    assert "processor_seconds: the processor time its grader and its processes used" in out
    assert re.search(r"^In all \d+ s: 2 files at a time on \d+ cores, each file's checks shared by", out, re.M)
    assert err == "" and out.startswith("4 files graded: 2 passed every check;"), err  # stderr not a terminal


@pytest.mark.server
def test_a_batch_on_a_terminal_says_each_file_and_the_time_left_and_elsewhere_only_the_summary(tmp_path):
    """On a terminal; elsewhere, only the summary: test_the_csv_says_each_files_wall_and_processor_seconds..."""
    folder = class_folder(tmp_path, burns=False)
    code, shown, _ = batch_run(folder, tmp_path / "class.csv", "--jobs", "1", terminal=True)
    assert code == 1 and re.search(r"2/3 quick\.py: passed, \d+ s \(\d+ s of processor time\)", shown), shown
    assert re.search(r"of 3 files graded in [\d a-z]+; about [\d a-z]+ left", shown), shown
    assert "syntax.py: did not load" in shown and "In all " in shown


@pytest.mark.server
def test_no_progress_is_drawn_where_stderr_is_not_a_terminal():
    """Redirected, a student's run prints the report and nothing else: no line of progress."""
    command = [sys.executable, "-m", "ttt_web.grade", str(STUDENTS / "quick.py"), "--only", "winner"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and done.stderr == "" and "winner: all checks passed." in done.stdout


def test_each_file_gets_the_cores_left_by_the_others_and_by_default_the_files_share_them():
    cores = os.cpu_count() or 1
    for jobs in (1, 2, 3, cores, cores + 1):
        args = parser().parse_args(["folder", "--csv", "out.csv", "--jobs", str(jobs)])
        processes = int(forwarded(args)[forwarded(args).index("--processes") + 1])
        assert processes == max(1, cores // jobs) and (jobs * processes <= cores or processes == 1)
    default = parser().parse_args(["folder", "--csv", "out.csv"])
    processes = int(forwarded(default)[forwarded(default).index("--processes") + 1])
    assert default.jobs * processes == cores, (default.jobs, processes)


def test_the_time_left_runs_each_file_as_long_as_the_median_in_the_places_free():
    # 2 places: the file running 4 s of 10 has 6 s left; three waiting files of 10 s each.
    assert time_left([10, 10, 10], [4], 3, 2) == 20
    assert time_left([10, 10, 10], [], 1, 2) == 10 and time_left([10], [], 0, 2) == 0
    # a file running within the files done takes the rest of those longer; one running longer, an unknown rest
    assert time_left([10, 30], [20], 0, 1) == 10 and time_left([10, 30], [40], 0, 1) == 0
    assert [duration(s) for s in (4.6, 128, 3900)] == ["5 s", "2 min 8 s", "1 h 5 min"]


def test_the_time_left_is_said_as_a_lower_bound_once_a_file_runs_longer_than_any_done():
    """A file that has run longer than every file done has an unknown rest: the status never
    counts it up as a countdown (as long again as it has run), it says what is known."""
    assert left_said([], [3], 2, 1) == "the time left is foreseen once a file is done"
    assert left_said([10, 30], [20], 1, 1) == "about 30 s left"
    lone = [left_said([10, 30], [ran], 0, 1) for ran in (30, 58)]
    assert lone == [f"the last file, running for {s} s, longer than any file done" for s in (30, 58)]
    said = "the last 2 files, running longer than any file done (the longest for 1 min 5 s)"
    assert left_said([10, 30], [40, 65], 0, 2) == said
    # the file within the others has 10 s left; the waiting one (20 s) in the outrun one's place, whose rest is unknown
    said = "at least 20 s left (1 file running longer than any file done, up to 45 s)"
    assert left_said([10, 30], [20, 45], 1, 2) == said


def test_the_summary_says_what_an_empty_fix_first_and_results_count_mean():
    fix_first, result = columns_said([{"functions": {"result": {}}}])
    assert "fix_first: " in fix_first and "empty when no failure was found to come from another function" in fix_first
    assert result.startswith('result\'s "of 29,726" counts its checks on valid moves (16,167: each empty cell')
    assert "and on invalid ones (13,559: a taken cell, cells off the board), together." in result
    assert columns_said([{"functions": {"winner": {}}}]) == [fix_first]  # result not checked (--only winner)


def test_paths_are_shown_from_the_batch_folder(tmp_path):
    folder = str(tmp_path / "class")
    said = f'File "{folder}/syntax.py", line 1; open /tmp/grader-ab_12x/moves.txt'
    assert relative(said, folder) == 'File "syntax.py", line 1; open (its working folder)/moves.txt'
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "b.py").write_text("")
    (tmp_path / "class" / "a.py").write_text("")
    assert files_in([folder]) == [f"{folder}/a.py", f"{folder}/b.py"]


def test_a_folder_of_students_folders_is_searched_for_each_tictactoe_py(tmp_path):
    """CS50's layout, a folder a student each holding tictactoe.py: each is found and named
    from the folder given (alice/tictactoe.py), beside the .py files directly in it; other
    .py files of a subfolder, hidden folders and __pycache__ are left out."""
    section = tmp_path / "sect"
    for place in ("alice", "bob", "carol/2026", ".git", "__pycache__", "bob/.hidden"):
        (section / place).mkdir(parents=True)
        (section / place / "tictactoe.py").write_text("")
    (section / "bob" / "runner.py").write_text("")
    (section / "dave.py").write_text("")
    found = files_in([str(section)])
    named = [os.path.relpath(f, batch_folder([str(section)], found)) for f in found]
    assert named == ["alice/tictactoe.py", "bob/tictactoe.py", "carol/2026/tictactoe.py", "dave.py"], named
    only = files_in([str(section / "alice")])
    assert [os.path.relpath(f, batch_folder([str(section)], only)) for f in only] == ["alice/tictactoe.py"]


@pytest.mark.server
def test_a_class_in_students_folders_is_graded_and_a_folder_without_a_file_is_an_error(tmp_path):
    section = tmp_path / "sect"
    for student in ("alice", "bob", "carol"):
        (section / student).mkdir(parents=True)
        (section / student / "tictactoe.py").write_text((STUDENTS / "quick.py").read_text())
    code, out, _ = batch_run(section, tmp_path / "sect.csv", "--jobs", "2")
    rows = [row["file"] for row in csv.DictReader((tmp_path / "sect.csv").open())]
    assert code == 0 and rows == ["alice/tictactoe.py", "bob/tictactoe.py", "carol/tictactoe.py"], (rows, out)
    assert out.startswith("3 files graded: 3 passed every check;") and "\nfix_first: the function whose" in out, out
    (tmp_path / "empty").mkdir()
    code, out, err = batch_run(tmp_path / "empty", tmp_path / "empty.csv", "--jobs", "2")
    assert code == 2 and out == "" and err.startswith(f"No file to grade in {tmp_path / 'empty'}:"), (code, err)


def test_the_bar_moves_with_each_checks_foreseen_cost():
    """Every check but minimax's made: about a tenth of the way, not 90 % as counting calls
    does; the empty board's minimax alone is about a quarter of the bar (549,946 of the
    2,126,493 positions below minimax's boards). Batches made out of the plan's order (the
    costliest first) move it before they are judged, and are not counted twice."""
    plan = list(checks())
    stream = io.StringIO()
    bar = Weighted(Plain(sum(map(cost, plan)), stream), plan)
    cheap = sum(c.function != "minimax" for c in plan)
    bar.set_description("result")
    bar.update(cheap)
    assert 0.05 < bar.bar.done / bar.bar.total < 0.15 and "Checking result" in stream.getvalue()
    last = Batch(1, plan[-1:], replies=[{"got": [1, 1]}])
    bar.made([Batch(0, plan[cheap:-1]), last])  # the empty board made first, the others not yet
    made_first = bar.bar.done
    assert made_first == bar.ends[cheap] + cost(plan[-1]) and 0.2 < cost(plan[-1]) / bar.bar.total < 0.3
    assert plan[-1].position == "." * 9 and cost(plan[-1]) == 1 + tree_size("." * 9) / NODES_PER_CALL
    bar.made([last])
    assert bar.bar.done == made_first
    bar.update(len(plan) - cheap - 1)  # all but the empty board judged: it was counted when made
    assert bar.bar.done == bar.bar.total
    bar.update(5)  # the empty board judged, and more than are left: the bar stays at its end
    assert bar.bar.done == bar.bar.total and stream.getvalue().endswith("] 100%  0 s")


def test_no_bar_where_stderr_is_not_a_terminal():
    bar = progress_bar(list(checks("winner")), shown=True)  # pytest's stderr is not a terminal
    assert isinstance(bar, Silent)


def failing(name: str, positions: list[str]) -> Tally:
    tally = Tally(name)
    for position in positions:
        tally.record(Failure(position, None, Wrong("x", "y")))
    return tally


def test_the_stage_after_the_checks_says_what_it_runs_again():
    """Once every check is made, the grader runs failed minimax boards again in fresh processes
    (a state carried across calls?) and the failed checks of callers with a right version of the
    function they call (fixes.py): the bar says so, with the numbers it runs."""
    minimax = [c for c in checks("minimax") if c.position.count(".") <= 5][:40]
    winner = [c for c in checks("winner")][:3]
    tallies = {"winner": failing("winner", [c.position for c in winner])}
    tallies["minimax"] = failing("minimax", [c.position for c in minimax])
    tallies |= {name: Tally(name) for name in FUNCTIONS if name not in tallies}
    assert again_alone(minimax) == "Running 5 failed minimax boards again in fresh processes"
    assert again_alone(minimax[:1]) == "Running 1 failed minimax board again in fresh processes"
    assert again_alone([c for c in checks("minimax") if c.position.count(".") > 5][:3]) == ""
    failed = {"winner": winner, "minimax": minimax}
    assert again_fixed(tallies, failed) == "Running failed checks again with a right winner in place of yours"
    assert again_fixed(tallies | {"winner": Tally("winner")}, {"minimax": minimax}) == ""  # minimax fails alone
