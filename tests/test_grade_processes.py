"""One file's checks shared by two processes of the file: both are used, and the report is the
one a single process gives, also where calls run over, end the process or fail."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import made_once
from tests.grading import finished, grade
from tests.test_grade import QUICK
from ttt_web.grade.runner import Student
from ttt_web.grade.wrong import failed

TIMING = {"seconds", "cpu_seconds", "queued_seconds", "measured"}  # of the machine, not of the file
# winner runs forever on the boards with O in the corner (three calls that run over give it up,
# and minimax's first call there gives minimax up), actions ends its process on the boards with
# four empty cells (three of them give it up), and player is wrong on the boards with X in the
# centre: every way a batch ends early or fails.
LOOPS = "def winner(board):\n    while board[0][0] == 'O':\n        pass\n"
TROUBLED = (
    QUICK.replace("def winner(board):\n", LOOPS)
    .replace(
        "def actions(board):\n",
        "def actions(board):\n    import os\n\n"
        "    if sum(row.count(EMPTY) for row in board) == 4:\n        os._exit(3)\n",
    )
    .replace("def player(board):\n", "def player(board):\n    if board[1][1] == X:\n        return X\n")
)


def untimed(value: object) -> object:
    """A report with what was measured left out: what it says of the file."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


def report(path, *options: str) -> dict:
    code, out = finished(grade(path, "--json", "--call-seconds", "0.5", *options), 900)  # 0.5 s for each function
    assert code == 1
    return json.loads(out)


@pytest.fixture(scope="module")
def troubled(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("troubled") / "tictactoe.py"
    path.write_text(TROUBLED)
    return path


@pytest.fixture(scope="module")
@made_once
def one_process(troubled) -> dict:
    """TROUBLED graded by one process of the file (each call over its limit burns half a second)."""
    return report(troubled, "--processes", "1")


@pytest.mark.server
def test_a_call_that_runs_over_is_stopped_and_the_rest_still_checked(one_process):
    """winner's calls that run over are stopped and said to give no answer; every check of the
    functions before it is still made, and those after it are still checked."""
    functions = one_process["functions"]
    assert not one_process["passed"] and functions["winner"]["unchecked"]
    assert functions["winner"]["failures"][0]["got"] == "no answer"
    assert functions["player"]["checked"] == 4520 and functions["result"]["checked"] == 29726
    assert all(functions[name]["checked"] for name in ("terminal", "utility", "minimax"))


@pytest.mark.server
def test_two_processes_say_what_one_says(troubled, one_process):
    one, two = one_process, report(troubled, "--processes", "2")
    functions = one["functions"]
    assert functions["winner"]["ran_over"] == 3 and functions["winner"]["unchecked"]
    assert "ended the process" in functions["actions"]["why_unchecked"] and functions["actions"]["unchecked"]
    assert "ran over" in functions["minimax"]["why_unchecked"] and functions["minimax"]["unchecked"]
    assert functions["player"]["failed"]
    said_once, said_twice = untimed(one), untimed(two)
    differ = {
        (name, key): (said_once["functions"][name].get(key), said_twice["functions"][name].get(key))
        for name in said_once["functions"]
        for key in said_once["functions"][name].keys() | said_twice["functions"][name].keys()
        if said_once["functions"][name].get(key) != said_twice["functions"][name].get(key)
    }
    assert said_twice == said_once, differ


@pytest.mark.server
def test_a_call_kept_waiting_for_a_processor_is_stopped_at_its_processor_time(tmp_path):
    """On one core beside busy loops, each in a session of its own (Linux's autogroup shares a
    core among sessions, as among the graders of make test), a call that loops gets less than a
    sixth of the core: it still runs until it has used its limit of processor time, and is said
    to loop, as on a quiet machine; the time it waited for a processor is no time asleep."""
    path = tmp_path / "tictactoe.py"
    path.write_text(QUICK.replace("def winner(board):\n", LOOPS))
    student = Student(str(path), call_seconds=5)
    core = {max(os.sched_getaffinity(0))}
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True) for _ in range(8)]
    try:
        assert student.process
        for pid in (student.process.pid, *(process.pid for process in busy)):
            os.sched_setaffinity(pid, core)
        reply = student.call("winner", "O.......X", seconds=0.5)
    finally:
        for process in busy:
            process.kill()
            process.wait()
        student.close()
    assert reply["timeout"] == 0.5 and reply["cpu"] >= 0.5 and reply["wall"] > 3, reply  # the old bound: 3 s, any kind
    wrong = failed(reply)
    said = "winner took over 0.5 s of processor time on this board, and was not deep in a search when stopped"
    assert wrong and wrong.why.startswith(said), reply


PIDS = """import os as _os
_PIDS = open(PATH, "a", buffering=1)


def player(board):
    _PIDS.write(f"{_os.getpid()}\\n")
"""


@pytest.mark.server
def test_both_processes_make_checks(tmp_path):
    """Each process of the file writes its process id on every call of player."""
    pids = tmp_path / "pids.txt"
    path = tmp_path / "tictactoe.py"
    path.write_text(QUICK.replace("def player(board):\n", PIDS.replace("PATH", repr(str(pids))), 1))
    code, out = finished(grade(path, "--json", "--only", "player", "--processes", "2"))
    assert code == 0 and json.loads(out)["functions"]["player"]["passed"] == 4520
    written = pids.read_text().split()
    assert len(written) == 4520 and len(set(written)) == 2


EVERY_CALL = """def minimax(board):
    import time
    start = time.process_time()
    while time.process_time() - start < 0.0025:  # 2.5 ms of processor time on every board
        pass
"""


@pytest.mark.server
@pytest.mark.long
def test_a_minimax_slow_on_every_board_is_told_early_how_long_the_rest_will_take(tmp_path):
    """A minimax that takes 2.5 ms of processor time on every board, whatever the machine, is slow
    from its first boards: after 10 s of its processor time (about 4,000 of the 5,144 boards
    before the first with 6 empty cells) the grader says the time left, as a range whose low end
    (its pace per board) is what the rest would take: each board costs about the same."""
    path = tmp_path / "tictactoe.py"
    path.write_text(QUICK.replace("def minimax(board):\n", EVERY_CALL))
    process = grade(path, "--only", "minimax", "--json", "--total-seconds", "120")
    out, err = process.communicate(timeout=900)
    said = re.search(
        r"it used ([\d.]+) s of processor time on the ([\d,]+) boards with the most marks. The other ([\d,]+) "
        r"will take between (\d+) s \(at its pace per board\) and (\d+) s",
        err,
    )
    assert said, err
    used, done, left = float(said[1]), int(said[2].replace(",", "")), int(said[3].replace(",", ""))
    low, high = int(said[4]), int(said[5])
    assert used >= 10 and done + left == 5478 and low <= high
    assert abs(low - used / done * left) <= 0.05 * low + 1
    minimax = json.loads(out)["functions"]["minimax"]
    pace = minimax["cpu_seconds"] / minimax["checked"]  # per board, over the whole run
    assert 0.5 * low <= pace * left <= 2 * low, (pace * left, low)
