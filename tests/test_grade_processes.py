"""One file's checks shared by two processes of the file: both are used, and the report is the
one a single process gives, also where calls run over, end the process or fail."""

from __future__ import annotations

import json

import pytest

from tests.grading import finished, grade
from tests.test_grade import QUICK

TIMING = {"seconds", "cpu_seconds", "queued_seconds"}
# winner runs forever on the boards with O in the corner (three calls that run over give it up,
# and minimax's first call there gives minimax up), actions ends its process on the boards with
# four empty cells (three of them give it up), and player is wrong on the boards with X in the
# centre: every way a batch ends early or fails.
TROUBLED = (
    QUICK.replace("def winner(board):\n", "def winner(board):\n    while board[0][0] == 'O':\n        pass\n")
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
    code, out = finished(grade(path, "--json", "--call-seconds", "5", *options), 900)  # 1 s for winner
    assert code == 1
    return json.loads(out)


@pytest.mark.server
def test_two_processes_say_what_one_says(tmp_path):
    path = tmp_path / "tictactoe.py"
    path.write_text(TROUBLED)
    one, two = report(path, "--processes", "1"), report(path, "--processes", "2")
    functions = one["functions"]
    assert functions["winner"]["ran_over"] == 3 and functions["winner"]["unchecked"]
    assert "ended the process" in functions["actions"]["why_unchecked"] and functions["actions"]["unchecked"]
    assert "ran over" in functions["minimax"]["why_unchecked"] and functions["minimax"]["unchecked"]
    assert functions["player"]["failed"]
    assert untimed(two) == untimed(one)


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
