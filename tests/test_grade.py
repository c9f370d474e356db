"""The grader (python -m ttt_web.grade) run as a student runs it, on this project's engine,
a textbook minimax, and mutants of a correct file that each break one thing."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from tests import judge
from tests.conftest import made_once
from tests.grading import ROOT, STUDENTS, finished, grade, graded_json

QUICK = (STUDENTS / "quick.py").read_text()

# name: (the line changed, its replacement, the function named first, what its first failing position shows);
# functions that call the broken one may fail too, and come later in the report's order.
CALLERS = {  # the functions a CS50 solution builds on each one
    "player": ("result", "minimax"),
    "actions": ("minimax",),
    "result": ("minimax",),
    "winner": ("terminal", "utility", "minimax"),
    "terminal": ("minimax",),
    "utility": ("minimax",),
    "minimax": (),
}
MUST_BLOCK = (("X", "X", None), (None, "O", None), (None,) * 3)
MUTANTS = {
    "result mutates its input": (
        "    new = [list(row) for row in board]\n",
        "    new = board\n",
        "result",
        lambda p: p == ".........",
    ),
    "actions offers a taken cell": (
        "if board[i][j] is EMPTY}",
        "if board[i][j] is EMPTY or (i, j) == (0, 0)}",
        "actions",
        lambda p: p[0] != ".",
    ),
    "winner misses a diagonal": (
        "    lines += [[board[i][2 - i] for i in range(3)]]\n",
        "",
        "winner",
        lambda p: p[2] == p[4] == p[6] != ".",
    ),
    "utility's sign": (
        "return 1 if w == X else -1 if w == O else 0",
        "return -1 if w == X else 1 if w == O else 0",
        "utility",
        judge.won_by,
    ),
    "minimax returns None with one cell left": (
        "    if terminal(board):\n        return None\n    choices",
        "    if terminal(board) or len(actions(board)) == 1:\n        return None\n    choices",
        "minimax",
        lambda p: p.count(".") == 1 and not judge.is_over(p),
    ),
    "minimax loses in one position only": (
        "    choices = sorted(actions(board))\n",
        f"    choices = sorted(actions(board))\n    if freeze(board) == {MUST_BLOCK}:\n        return (2, 2)\n",
        "minimax",
        lambda p: p == "XX..O....",
    ),
    "wrong player at the root": (
        "    pick = max if player(board) == X else min\n",
        "    pick = max\n",
        "minimax",
        lambda p: judge.to_move(p) == "O",
    ),
    "(0, 0) on a full tied board": (
        "    if terminal(board):\n        return None\n    choices",
        "    if terminal(board):\n        return None if winner(board) else (0, 0)\n    choices",
        "minimax",
        lambda p: "." not in p and not judge.won_by(p),
    ),
    "player counts wrong": (
        "return X if x == o else O",
        "return X if x <= o + 1 else O",
        "player",
        lambda p: judge.to_move(p) == "O",
    ),
    "terminal ignores a full board": (
        "return winner(board) is not None or all(",
        "return winner(board) is not None and all(",
        "terminal",
        lambda p: judge.won_by(p) is not None or "." not in p,
    ),
}


@pytest.fixture(scope="module")
@made_once
def reports(tmp_path_factory) -> dict[str, tuple[int, dict | str]]:
    """Every mutant graded, the runs side by side (each takes some seconds): each report as --json gives it, but
    the correct file's, as a student reads it (the text: each file is graded once)."""
    folder = tmp_path_factory.mktemp("mutants")
    running = {}
    for name, (line, replacement, _, _) in MUTANTS.items():
        assert QUICK.count(line) == 1, name  # the mutant changes what it says it changes
        path = folder / f"{len(running)}.py"
        path.write_text(QUICK.replace(line, replacement))
        running[name] = grade(path, "--json")
    running["correct"] = grade(STUDENTS / "quick.py")
    running["engine"] = grade(ROOT / "ttt_web" / "core" / "tictactoe.py", "--json")
    finished_ = {name: finished(process) for name, process in running.items()}
    return {name: (code, out if name == "correct" else json.loads(out)) for name, (code, out) in finished_.items()}


def failing(report: dict) -> dict[str, dict]:
    return {name: f for name, f in report["functions"].items() if f["passed"] != f["checked"] or f["unchecked"]}


TABLE_ROW = re.compile(
    r"^  (player|actions|result|winner|terminal|utility|minimax) +([\d,]+) / ([\d,]+) +(\S.*)$", re.M
)


def table(out: str) -> dict[str, tuple[int, int, str]]:
    """The text report's table: each function's checks passed, checks made and status."""
    return {
        name: (int(passed.replace(",", "")), int(checked.replace(",", "")), status)
        for name, passed, checked, status in TABLE_ROW.findall(out)
    }


def every_reachable_position_checked(counts: dict[str, int]) -> None:
    live = sum(not judge.is_over(p) for p in judge.reachable())
    assert counts["player"] == counts["actions"] == live == 4520
    assert counts["winner"] == counts["terminal"] == counts["minimax"] == len(judge.reachable()) == 5478
    assert counts["utility"] == 5478 - 4520


@pytest.mark.server
def test_the_engine_passes_every_check(reports):
    code, report = reports["engine"]
    assert code == 0 and report["passed"] and not failing(report)
    every_reachable_position_checked({name: f["checked"] for name, f in report["functions"].items()})


@pytest.mark.server
def test_a_correct_file_passes_every_check_with_a_readable_report(reports):
    code, out = reports["correct"]
    rows = table(out)
    assert code == 0 and out.rstrip().endswith("All checks passed."), out
    assert len(rows) == 7 and all(passed == checked and status == "ok" for passed, checked, status in rows.values())
    every_reachable_position_checked({name: checked for name, (_, checked, _) in rows.items()})
    assert "  minimax      5,478 / 5,478   ok" in out
    assert "Note (legal play, not a failure): No depth preference" in out


@pytest.mark.server
@pytest.mark.parametrize("name", list(MUTANTS))
def test_each_mutant_fails_where_it_is_wrong(reports, name):
    code, report = reports[name]
    _, _, function, shows = MUTANTS[name]
    assert code == 1 and not report["passed"]
    assert next(iter(failing(report))) == function
    assert set(failing(report)) <= {function, *CALLERS[function]}
    assert report["fix_first"] == (function if len(failing(report)) > 1 else None)
    example = failing(report)[function]["failures"][0]
    assert shows(example["position"]), example
    marked = "" if function != "minimax" else f"?student={example['got'].strip('()').replace(' ', '')}"
    assert example["explore"] == f"http://127.0.0.1:5000/explore/{example['position']}{marked.replace('None', 'none')}"
    assert example["expected"] != example["got"] and example["why"]


@pytest.mark.server
def test_the_wrong_player_and_the_first_tie_are_named(reports):
    wrong = reports["wrong player at the root"][1]
    named = {p["name"]: p for p in wrong["patterns"]}
    assert named["Wrong player: max at the root"]["failure"]
    assert all(judge.to_move(f["position"]) == "O" for f in wrong["functions"]["minimax"]["failures"])
    correct = reports["correct"][1]  # the text: a note is said as one, a pattern that is a failure as a known bug
    notes = re.findall(r"^Note \(legal play, not a failure\): ([^:]+):", correct, re.M)
    assert sorted(notes) == ["First move wins ties", "No depth preference"] and "known bug" not in correct
    assert not reports["engine"][1]["patterns"]


@pytest.mark.server
def test_utilitys_sign_is_caught_on_a_won_board(reports):
    example = reports["utility's sign"][1]["functions"]["utility"]["failures"][0]
    assert example["got"] == str(-int(example["expected"])) and judge.won_by(example["position"])


@pytest.mark.server
def test_a_tied_board_given_a_move_is_caught(reports):
    failure = reports["(0, 0) on a full tied board"][1]["functions"]["minimax"]["failures"][0]
    assert "." not in failure["position"] and judge.won_by(failure["position"]) is None
    assert failure["expected"] == "None" and failure["got"] == "(0, 0)"


@pytest.mark.server
@pytest.mark.long
def test_a_textbook_minimax_passes_in_minutes_and_is_told_up_front_how_long_the_rest_will_take():
    """textbook.py searches without memo, and passes. At its first board with six empty cells the
    grader says how much processor time the rest will take; what it then takes is within a factor of 2.
    In one process: the grader says so when the rest is foreseen to take over 15 s of wall-clock time,
    and on two processes of a quiet machine it is about 12 s (rightly not said), on one about 25 s.
    (One grading: the text of a report that passes is read in test_a_correct_file_passes_every_check...)"""
    process = grade(STUDENTS / "textbook.py", "--json", "--processes", "1")
    out, err = process.communicate(timeout=1200)
    assert "Traceback" not in err, err
    report = json.loads(out)
    assert process.returncode == 0 and report["passed"] and not failing(report), err
    assert report["functions"]["minimax"]["passed"] == report["functions"]["minimax"]["checked"] == 5478
    assert {p["name"]: p["failure"] for p in report["patterns"]}["No depth preference"] is False
    said = re.search(
        r"it used ([\d.]+) s of processor time on the 5,144 boards with the most marks, and at that "
        r"pace the other 334 will take about (\d+) s\s+more",
        err,
    )
    assert said, err
    used, foreseen = float(said[1]), float(said[2])
    rest = report["functions"]["minimax"]["cpu_seconds"] - used
    assert foreseen / 2 <= rest <= foreseen * 2, (foreseen, rest)


@pytest.mark.server
def test_a_file_that_does_not_load_is_said_so(tmp_path):
    broken = tmp_path / "tictactoe.py"
    broken.write_text("def player(board)\n    return X\n")
    process = grade(broken)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2 and "SyntaxError" in err


def test_flask_grade_is_the_same_command(app):
    result = app.test_cli_runner().invoke(args=["grade", "--help"])
    assert result.exit_code == 0 and "usage: python -m ttt_web.grade" in result.output


def without_times(report: dict) -> dict:
    for function in report["functions"].values():
        function.pop("seconds")
        function.pop("cpu_seconds")
    return report


@pytest.mark.server
@pytest.mark.parametrize(
    "student, options",
    [("raises_always.py", ()), ("max_calls_max.py", ("--only", "minimax"))],
    ids=["raises_always.py", "max_calls_max.py --only minimax"],
)
def test_the_downloaded_grader_grades_as_the_module_does(client, tmp_path, student, options):
    """/learn/grader.pyz runs on Python alone (-S: no site packages) and says what
    `python -m ttt_web.grade` says; its explore links point to the site it came from. Every
    function checked on raises_always.py; on max_calls_max.py, its failing minimax alone (its
    known bug named, its failed boards run again alone), which its other functions pass."""
    response = client.get("/learn/grader.pyz")
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
    (tmp_path / "grader.pyz").write_bytes(response.data)
    path = str(STUDENTS / student)
    command = [sys.executable, "-S", "grader.pyz", path, "--json", *options]
    downloaded = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert "Traceback" not in downloaded.stderr, downloaded.stderr
    _, module = graded_json(STUDENTS / student, "--site", "http://localhost", *options)
    assert without_times(json.loads(downloaded.stdout)) == without_times(module)
    assert "http://localhost/explore/" in downloaded.stdout
